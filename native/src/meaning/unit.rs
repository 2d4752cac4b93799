//! The unit of meaning: one conversation message (a user's or the assistant's text, consecutive
//! entries of one role joined, as the word index holds it), of which the model reads the first
//! `MAX_TOKENS` tokens. Tool output, calls and thinking are not embedded: on the paraphrase eval
//! (bench/meaning-eval) what was said finds a session; a tool's output is mostly noise to a model
//! trained on sentences, and ten times the text to embed.
//!
//! A unit is known by the key of its text alone, so its vector (a function of the text) is
//! computed once whatever the history: a fork's copied messages, a rewritten session's unchanged
//! ones and the same text in two sessions all share one vector in the store (store.rs).

use crate::schema::path_key_after;

/// The key of a unit's text: FNV-1a over its bytes, from a seed of its own (so that it differs
/// from a path key of the same bytes). Stored in the index, so it never changes between builds.
pub fn unit_key(text: &str) -> u64 {
    path_key_after(0x6d65_616e_696e_6721, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_has_the_same_key_and_another_text_another() {
        assert_eq!(unit_key("fake timers fixed the flaky spec"), unit_key("fake timers fixed the flaky spec"));
        assert_ne!(unit_key("fake timers fixed the flaky spec"), unit_key("fake timers fixed the flaky spec."));
        assert_ne!(unit_key("a"), crate::schema::path_key("a"));
    }
}

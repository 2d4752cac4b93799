//! Which words of a text to mark for a query being typed (`recall read --highlight`, the picker's
//! preview): every word that starts with one of the query's words, by the index's words
//! (tokenizer.rs), so `orst` marks `Ørsted`. Pairs of CJK characters overlap (`日本`, `本語`):
//! marked pairs that overlap are one mark.

use crate::words::tokenizer::{words, words_at};

/// A query word shorter than this marks too much to help.
const MIN_MARK_CHARS: usize = 2;

/// The UTF-8 byte ranges of the words of `text` that start with a word of `query`, in order.
pub fn prefix_marks(text: &str, query: &str) -> Vec<(usize, usize)> {
    let wanted: Vec<String> = words(query)
        .into_iter()
        .filter(|w| w.chars().count() >= MIN_MARK_CHARS)
        .collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut marks: Vec<(usize, usize)> = Vec::new();
    for word in words_at(text)
        .into_iter()
        .filter(|word| wanted.iter().any(|w| word.text.starts_with(w.as_str())))
    {
        match marks.last_mut() {
            Some(last) if word.start < last.1 => last.1 = last.1.max(word.end),
            _ => marks.push((word.start, word.end)),
        }
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::prefix_marks;

    fn marked<'a>(text: &'a str, query: &str) -> Vec<&'a str> {
        prefix_marks(text, query)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn marks_words_that_start_with_a_query_word() {
        assert_eq!(
            marked("Deploying the deploy-bot, not redeploy", "deploy"),
            vec!["Deploying", "deploy"]
        );
        assert_eq!(marked("a staging box", "stag a"), vec!["staging"]);
    }

    #[test]
    fn folded_words_mark_their_original_spelling() {
        assert_eq!(
            marked(
                "Ørsted in Łódź, near the Straße café",
                "orsted lodz strasse cafe"
            ),
            vec!["Ørsted", "Łódź", "Straße", "café"]
        );
        assert_eq!(marked("Ørsted", "ØRST"), vec!["Ørsted"]);
    }

    #[test]
    fn overlapping_cjk_pairs_are_one_mark() {
        assert_eq!(
            marked("日本語を話す日本人", "日本語"),
            vec!["日本語", "日本"]
        );
        assert_eq!(marked("我在北京工作", "北京"), vec!["北京"]);
        assert_eq!(marked("서울에서 만나요", "서울"), vec!["서울"]);
    }
}

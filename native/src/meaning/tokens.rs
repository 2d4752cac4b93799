//! The model's tokens of a text: its own WordPiece tokenizer (`tokenizer.json`: lower case,
//! accents stripped, `[CLS]` … `[SEP]`), one text at a time, unpadded, cut to `MAX_TOKENS`.

use std::path::Path;

use tokenizers::{Tokenizer, TruncationParams};

use crate::error::{Code, RecallError, Result};
use crate::meaning::model::unusable;

/// The tokens a text is read to, `[CLS]` and `[SEP]` included (sentence-transformers' limit for
/// this model; its position table holds 512). The rest of a longer text is not read.
pub const MAX_TOKENS: usize = 256;

pub struct Tokens {
    tokenizer: Tokenizer,
}

impl Tokens {
    pub fn load(path: &Path) -> Result<Tokens> {
        let mut tokenizer = Tokenizer::from_file(path).map_err(|error| unusable(path, &*error))?;
        // The file pads every text to 128 tokens and cuts it there, for batches of one length.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..TruncationParams::default() }))
            .map_err(|error| unusable(path, &*error))?;
        Ok(Tokens { tokenizer })
    }

    /// The token ids of `text`, as the model's inputs take them. A long text is tokenized only as
    /// far as its first MAX_TOKENS tokens reach: its leading words first, more only if they fall short.
    pub fn ids(&self, text: &str) -> Result<Vec<i64>> {
        let mut limit = FIRST_BYTES;
        loop {
            let lead = leading_words(text, limit);
            let ids = self.encode(lead)?;
            if lead.len() == text.len() || ids.len() >= MAX_TOKENS {
                return Ok(ids);
            }
            limit = limit.saturating_mul(4);
        }
    }

    fn encode(&self, text: &str) -> Result<Vec<i64>> {
        let encoding = self.tokenizer.encode(text, true).map_err(|error| RecallError::new(Code::Internal, format!("cannot tokenize a text: {error}")))?;
        Ok(encoding.get_ids().iter().map(|&id| i64::from(id)).collect())
    }
}

/// Bytes of a text tokenized first: far more than MAX_TOKENS tokens of ordinary text need.
const FIRST_BYTES: usize = 8192;

/// `text` up to `limit` bytes, cut before a space or an ASCII punctuation mark (where the
/// tokenizer ends a word anyway), so it begins with the same tokens as `text`; all of `text` when
/// it is that short or has no such place.
fn leading_words(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind(|c: char| c.is_whitespace() || c.is_ascii_punctuation()) {
        Some(cut) => &text[..cut],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::leading_words;

    #[test]
    fn leading_words_end_where_a_word_ends() {
        assert_eq!(leading_words("short", 10), "short");
        assert_eq!(leading_words("one two three", 9), "one two");
        assert_eq!(leading_words("call(a,b)", 6), "call");
        // Byte 4 is inside the second é: the cut steps back to a character's start first.
        assert_eq!(leading_words("é é é", 4), "é");
        assert_eq!(leading_words("nowhere_to_cut", 4), "nowhere_to_cut");
    }
}

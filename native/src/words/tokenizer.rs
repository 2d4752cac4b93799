//! The one analyzer used for message text, tag text and query words, so that both sides of a
//! match are cut and folded the same way: split on anything that is not a letter or digit,
//! cut Chinese, Japanese and Korean text into overlapping pairs of characters
//! (word_tokenizer.rs), lowercase, fold accents to ASCII (`café` finds `cafe`), and drop tokens
//! too long to be words (base64 and hashes). No stemming: recall is exact lexical search by design.

use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, TextAnalyzer, TokenStream,
};
use tantivy::Index;

use crate::words::word_tokenizer::WordTokenizer;

pub const ANALYZER: &str = "recall";
const MAX_TOKEN_BYTES: usize = 64;

pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(WordTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Tantivy does not persist tokenizers: they must be registered after every open.
pub fn register(index: &Index) {
    index.tokenizers().register(ANALYZER, analyzer());
}

/// A word of a text as the index sees it: its folded form and where it stands in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// UTF-8 byte range of the word in the text it was cut from.
    pub start: usize,
    pub end: usize,
}

/// The analyzed words of `text` with their places, in order, duplicates kept.
pub fn words_at(text: &str) -> Vec<Word> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        let token = stream.token();
        out.push(Word {
            text: token.text.clone(),
            start: token.offset_from,
            end: token.offset_to,
        });
    }
    out
}

/// The analyzed words of `text`, in order, duplicates kept.
pub fn words(text: &str) -> Vec<String> {
    words_at(text).into_iter().map(|w| w.text).collect()
}

#[cfg(test)]
mod tests {
    use super::{words, words_at, Word};

    #[test]
    fn splits_lowercases_and_folds() {
        assert_eq!(
            words("Staging-Deploy café"),
            vec!["staging", "deploy", "cafe"]
        );
        assert_eq!(
            words("foo:bar (baz) \"qux\" *star*"),
            vec!["foo", "bar", "baz", "qux", "star"]
        );
        assert!(words("***").is_empty());
        assert_eq!(words(&"x".repeat(200)).len(), 0);
    }

    #[test]
    fn folds_letters_that_are_not_accented_ascii() {
        assert_eq!(
            words("Ørsted Straße Łódź"),
            vec!["orsted", "strasse", "lodz"]
        );
    }

    #[test]
    fn places_are_byte_ranges_of_the_original_text() {
        let text = "Łódź, café";
        let places = words_at(text);
        assert_eq!(
            places[0],
            Word {
                text: "lodz".into(),
                start: 0,
                end: "Łódź".len()
            }
        );
        assert_eq!(&text[places[1].start..places[1].end], "café");
    }

    #[test]
    fn cjk_text_is_cut_into_pairs_and_latin_beside_it_is_folded() {
        assert_eq!(
            words("東京タワーとCafé"),
            vec!["東京", "京タ", "タワ", "ワー", "ーと", "cafe"]
        );
        assert_eq!(words("한국어 검색"), vec!["한국", "국어", "검색"]);
    }
}

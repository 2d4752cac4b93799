//! The one analyzer used for message text, tag text and query words, so that both sides of a
//! match are cut and folded the same way: split on anything that is not a letter or digit,
//! lowercase, fold accents to ASCII (`café` finds `cafe`), and drop tokens too long to be words
//! (base64 and hashes). No stemming: recall is exact lexical search by design.

use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer, TokenStream,
};
use tantivy::Index;

pub const ANALYZER: &str = "recall";
const MAX_TOKEN_BYTES: usize = 64;

pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Tantivy does not persist tokenizers: they must be registered after every open.
pub fn register(index: &Index) {
    index.tokenizers().register(ANALYZER, analyzer());
}

/// The analyzed words of `text`, in order, duplicates kept.
pub fn words(text: &str) -> Vec<String> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        out.push(stream.token().text.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn splits_lowercases_and_folds() {
        assert_eq!(words("Staging-Deploy café"), vec!["staging", "deploy", "cafe"]);
        assert_eq!(words("foo:bar (baz) \"qux\" *star*"), vec!["foo", "bar", "baz", "qux", "star"]);
        assert!(words("***").is_empty());
        assert_eq!(words(&"x".repeat(200)).len(), 0);
    }
}

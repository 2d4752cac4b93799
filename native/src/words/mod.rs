//! What a word is: recall's one analyzer, and what is built on its words outside the index.

pub mod marks;
pub mod relevance;
pub mod tokenizer;
pub mod word_tokenizer;

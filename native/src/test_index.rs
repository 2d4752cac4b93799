//! Small indexes in memory for the unit tests of clauses and statistics.

use tantivy::schema::{Field, Schema, STRING, TEXT};
use tantivy::{Index, IndexWriter};

/// An index with a `text` field (words with positions) and a `label` field (one term per value).
pub struct TestIndex {
    pub index: Index,
    pub writer: IndexWriter,
    pub text: Field,
    pub label: Field,
}

impl TestIndex {
    pub fn new() -> TestIndex {
        let mut builder = Schema::builder();
        let text = builder.add_text_field("text", TEXT);
        let label = builder.add_text_field("label", STRING);
        let index = Index::create_in_ram(builder.build());
        let writer = index
            .writer_with_num_threads(1, 15_000_000)
            .expect("a writer of an index in memory");
        TestIndex {
            index,
            writer,
            text,
            label,
        }
    }
}

//! BM25 statistics for a search of the conversation alone: the documents of the other kinds of
//! text (thinking, tool calls, tool output) are left out of the document count, so indexing them
//! changes neither the idf nor the average length a conversation search scores with. A search
//! that reads those kinds uses the searcher's own statistics.

use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::{Searcher, Term};

use crate::schema::Fields;
use crate::text_kind::TextKind;

pub struct ConversationStatistics<'a> {
    searcher: &'a Searcher,
    /// Documents of the other kinds, deleted ones included, as the searcher counts documents.
    other_kinds: u64,
}

impl<'a> ConversationStatistics<'a> {
    pub fn new(searcher: &'a Searcher, fields: &Fields) -> tantivy::Result<ConversationStatistics<'a>> {
        let mut other_kinds = 0;
        for kind in TextKind::ALL.into_iter().filter(|kind| *kind != TextKind::Conversation) {
            other_kinds += searcher.doc_freq(&Term::from_field_text(fields.text_kind, kind.name()))?;
        }
        Ok(ConversationStatistics { searcher, other_kinds })
    }
}

impl Bm25StatisticsProvider for ConversationStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        Bm25StatisticsProvider::total_num_tokens(self.searcher, field)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(Bm25StatisticsProvider::total_num_docs(self.searcher)?.saturating_sub(self.other_kinds))
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        self.searcher.doc_freq(term)
    }
}

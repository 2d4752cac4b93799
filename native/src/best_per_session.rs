//! A Tantivy collector that keeps, of the documents a query matches in one index part, the best
//! of each session file (and its best message): every matching document is scored, and kept
//! only while it is its session's best, so what is collected grows with the sessions found, not
//! with the documents.

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

use crate::candidates::{merge_sessions, BySession, Candidate, Origin};
use crate::index_part::Part;

pub struct BestPerSession {
    /// The part the searched segments belong to, named in each candidate's origin.
    pub part: Part,
}

pub struct SegmentBest {
    part: Part,
    segment: SegmentOrdinal,
    path_keys: Column<u64>,
    message_indexes: Column<u64>,
    found: BySession,
}

impl Collector for BestPerSession {
    type Fruit = BySession;
    type Child = SegmentBest;

    fn for_segment(&self, segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<SegmentBest> {
        let fast = reader.fast_fields();
        Ok(SegmentBest { part: self.part, segment, path_keys: fast.u64("path_key")?, message_indexes: fast.u64("msg_index")?, found: BySession::default() })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<BySession>) -> tantivy::Result<BySession> {
        let mut merged = BySession::default();
        for fruit in fruits {
            merge_sessions(&mut merged, fruit);
        }
        Ok(merged)
    }
}

impl SegmentCollector for SegmentBest {
    type Fruit = BySession;

    fn collect(&mut self, doc: DocId, score: Score) {
        // Every document of a session file has its path key; file records are never matched.
        let Some(key) = self.path_keys.first(doc) else { return };
        let origin = Origin { part: self.part, address: DocAddress::new(self.segment, doc) };
        self.found.entry(key).or_default().offer(Candidate { message: self.message_indexes.first(doc), score, origin });
    }

    fn harvest(self) -> BySession {
        self.found
    }
}

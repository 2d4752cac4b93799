//! A query word's clause with its coordination constant (query.rs) folded in: the word's score,
//! plus the constant for each document that holds it.
//!
//! The two used to be two clauses over the same posting list (the word, and a constant-score copy
//! of it), so a search of several words read each list twice; with every kind of text searched,
//! that second reading was a quarter of a search's tail. The scores are the same sums.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{
    DocId, DocSet, Score, SeekDangerResult, SegmentReader, Term, COLLECT_BLOCK_BUFFER_LEN,
};

/// `inner`'s score plus `constant` (times the boost it is given) wherever `inner` matches.
#[derive(Debug)]
pub struct Coordinated {
    inner: Box<dyn Query>,
    constant: Score,
}

impl Clone for Coordinated {
    fn clone(&self) -> Coordinated {
        Coordinated {
            inner: self.inner.box_clone(),
            constant: self.constant,
        }
    }
}

impl Coordinated {
    pub fn new(inner: Box<dyn Query>, constant: Score) -> Coordinated {
        Coordinated { inner, constant }
    }
}

impl Query for Coordinated {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(CoordinatedWeight {
            inner: self.inner.weight(enable_scoring)?,
            constant: self.constant,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct CoordinatedWeight {
    inner: Box<dyn Weight>,
    constant: Score,
}

impl Weight for CoordinatedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(CoordinatedScorer {
            inner: self.inner.scorer(reader, boost)?,
            bonus: self.constant * boost,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let inner = self.inner.explain(reader, doc)?;
        let mut explanation =
            Explanation::new("word score + coordination", inner.value() + self.constant);
        explanation.add_detail(inner);
        explanation.add_const("coordination", self.constant);
        Ok(explanation)
    }
}

struct CoordinatedScorer {
    inner: Box<dyn Scorer>,
    bonus: Score,
}

impl DocSet for CoordinatedScorer {
    fn advance(&mut self) -> DocId {
        self.inner.advance()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.inner.seek(target)
    }

    fn seek_danger(&mut self, target: DocId) -> SeekDangerResult {
        self.inner.seek_danger(target)
    }

    fn fill_buffer(&mut self, buffer: &mut [DocId; COLLECT_BLOCK_BUFFER_LEN]) -> usize {
        self.inner.fill_buffer(buffer)
    }

    fn doc(&self) -> DocId {
        self.inner.doc()
    }

    fn size_hint(&self) -> u32 {
        self.inner.size_hint()
    }

    fn cost(&self) -> u64 {
        self.inner.cost()
    }
}

impl Scorer for CoordinatedScorer {
    fn score(&mut self) -> Score {
        self.inner.score() + self.bonus
    }
}

//! Whether a segment holds any term of a field, found without asking Tantivy for the field's
//! inverted index, and clauses that skip the segments that hold none.
//!
//! For a field a segment has no terms of, `SegmentReader::inverted_index` gives an empty reader,
//! made anew each time; the first one of a process builds Tantivy's empty term dictionary, whose
//! FST builder fills a ~1 MB table. A CLI process searches once, so that build was a tenth of a
//! search on L whenever one segment lacked a field the query names (a segment of session
//! documents alone lacks the conversation; one whose sessions carry no tag or name lacks tags).
//! Here the answer comes from the offsets table at the end of the segment's postings file, and is
//! kept per segment (segments never change).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use tantivy::directory::{CompositeFile, Directory};
use tantivy::index::SegmentId;
use tantivy::query::{EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::Field;
use tantivy::{DocId, Score, SeekDangerResult, SegmentReader, Term, TERMINATED};

/// Answers of the segments seen lately; emptied when it grows past a few indexes' worth.
const MAX_CACHED: usize = 4096;

fn cache() -> &'static Mutex<HashMap<(SegmentId, Field), bool>> {
    static CACHE: OnceLock<Mutex<HashMap<(SegmentId, Field), bool>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Whether `segment` holds any term of `field`. When its postings file cannot be read here, the
/// answer is yes, and Tantivy's own reading decides (and reports what is wrong).
pub fn holds_terms(segment: &SegmentReader, field: Field) -> bool {
    let key = (segment.segment_id(), field);
    if let Some(&holds) = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
    {
        return holds;
    }
    let postings = PathBuf::from(format!("{}.idx", segment.segment_id().uuid_string()));
    let holds = match segment
        .index()
        .directory()
        .open_read(&postings)
        .ok()
        .and_then(|file| CompositeFile::open(&file).ok())
    {
        Some(composite) => composite.open_read(field).is_some(),
        None => true,
    };
    let mut cached = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if cached.len() >= MAX_CACHED {
        cached.clear();
    }
    cached.insert(key, holds);
    holds
}

/// `inner`, a query of terms of `field` only, matching nothing in a segment without such terms.
#[derive(Debug)]
pub struct InField {
    field: Field,
    inner: Box<dyn Query>,
}

impl InField {
    pub fn new(field: Field, inner: Box<dyn Query>) -> InField {
        InField { field, inner }
    }
}

impl Clone for InField {
    fn clone(&self) -> InField {
        InField {
            field: self.field,
            inner: self.inner.box_clone(),
        }
    }
}

impl Query for InField {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(InFieldWeight {
            field: self.field,
            inner: self.inner.weight(enable_scoring)?,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct InFieldWeight {
    field: Field,
    inner: Box<dyn Weight>,
}

/// Each way of reading the clause goes to the inner weight's own, which may be quicker than
/// reading its scorer (Tantivy's term weights skip blocks of low scores that way).
impl Weight for InFieldWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        if !holds_terms(reader, self.field) {
            return Ok(Box::new(EmptyScorer));
        }
        self.inner.scorer(reader, boost)
    }

    fn scorer_danger(
        &self,
        reader: &SegmentReader,
        target: DocId,
        boost: Score,
    ) -> tantivy::Result<(SeekDangerResult, Box<dyn Scorer>)> {
        if !holds_terms(reader, self.field) {
            return Ok((
                SeekDangerResult::SeekLowerBound(TERMINATED),
                Box::new(EmptyScorer),
            ));
        }
        self.inner.scorer_danger(reader, target, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if !holds_terms(reader, self.field) {
            return Ok(0);
        }
        self.inner.count(reader)
    }

    fn for_each(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score),
    ) -> tantivy::Result<()> {
        if !holds_terms(reader, self.field) {
            return Ok(());
        }
        self.inner.for_each(reader, callback)
    }

    fn for_each_no_score(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(&[DocId]),
    ) -> tantivy::Result<()> {
        if !holds_terms(reader, self.field) {
            return Ok(());
        }
        self.inner.for_each_no_score(reader, callback)
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        if !holds_terms(reader, self.field) {
            return Ok(());
        }
        self.inner.for_each_pruning(threshold, reader, callback)
    }
}

#[cfg(test)]
mod tests {
    use tantivy::collector::{Count, TopDocs};
    use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
    use tantivy::schema::IndexRecordOption;
    use tantivy::{doc, Term};

    use super::{holds_terms, InField};
    use crate::test_index::TestIndex;

    #[test]
    fn a_segment_without_a_fields_terms_is_skipped_and_the_results_stay_the_same() {
        let TestIndex {
            index,
            mut writer,
            text,
            label,
        } = TestIndex::new();
        // One segment with text, one with labels only.
        for line in ["source map here", "map of the source", "nothing at all"] {
            writer
                .add_document(doc!(text => line, label => "x"))
                .unwrap();
        }
        writer.commit().unwrap();
        writer.add_document(doc!(label => "y")).unwrap();
        writer.add_document(doc!(label => "x")).unwrap();
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let holding: Vec<(bool, bool)> = searcher
            .segment_readers()
            .iter()
            .map(|segment| (holds_terms(segment, text), holds_terms(segment, label)))
            .collect();
        assert_eq!(holding.len(), 2);
        assert!(
            holding.contains(&(true, true)) && holding.contains(&(false, true)),
            "{holding:?}"
        );

        let words = |wrap: bool| -> Box<dyn Query> {
            let clauses = ["source", "map", "nothing"]
                .iter()
                .map(|word| {
                    let term: Box<dyn Query> = Box::new(TermQuery::new(
                        Term::from_field_text(text, word),
                        IndexRecordOption::WithFreqs,
                    ));
                    (
                        Occur::Should,
                        if wrap {
                            Box::new(InField::new(text, term))
                        } else {
                            term
                        },
                    )
                })
                .collect();
            Box::new(BooleanQuery::new(clauses))
        };
        let top = TopDocs::with_limit(10).order_by_score();
        let (expected, found) = (
            searcher.search(&words(false), &top).unwrap(),
            searcher.search(&words(true), &top).unwrap(),
        );
        assert_eq!(found.len(), 3);
        assert_eq!(
            found
                .iter()
                .map(|(_, address)| *address)
                .collect::<Vec<_>>(),
            expected
                .iter()
                .map(|(_, address)| *address)
                .collect::<Vec<_>>()
        );
        for ((score, _), (expected, _)) in found.iter().zip(&expected) {
            assert!(
                (score - expected).abs() < 1e-6,
                "{score} against {expected}"
            );
        }
        // A lone clause is read through the inner weight's own ways (counting, top documents).
        let one = InField::new(
            label,
            Box::new(TermQuery::new(
                Term::from_field_text(label, "x"),
                IndexRecordOption::Basic,
            )),
        );
        assert_eq!(searcher.search(&one, &Count).unwrap(), 4);
        let lone = InField::new(
            text,
            Box::new(TermQuery::new(
                Term::from_field_text(text, "map"),
                IndexRecordOption::WithFreqs,
            )),
        );
        assert_eq!(searcher.search(&lone, &top).unwrap().len(), 2);
    }
}

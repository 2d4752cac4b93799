//! The BM25 statistics of the live documents only, so that the same session files rank the same
//! whatever the history of the index.
//!
//! Tantivy's own statistics count what a segment holds, deleted documents included, and a merge
//! of segments with deletions estimates the merged segment's token count. An index kept up to
//! date file by file (appends, rewrites, deletions) would then score a word differently from a
//! clean rebuild of the same files. Here every number is one a rebuild would give: documents are
//! the live ones, a term's document frequency leaves out the deleted documents that held it, and
//! a field's token count is the sum of the live documents' field norms (the lengths BM25 reads
//! per document anyway). What depends only on a segment and its deletions is cached by segment
//! id and delete opstamp, so a search after the first one on a reader pays only for its terms.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::SegmentId;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Opstamp, Searcher, SegmentReader, Term, TERMINATED};

use crate::clauses::field_presence::holds_terms;
use crate::index::part::Part;
use crate::index::schema::Fields;
use crate::search::searchers::Searchers;

/// What the statistics need of one segment as it stands (its deletions included).
#[derive(Default)]
struct SegmentFacts {
    /// The deleted documents, in order.
    deleted: Vec<DocId>,
    /// Sum of the live documents' field norms, by field.
    tokens: HashMap<Field, u64>,
    /// How many deleted documents hold a term, by term: a long-lived process (the MCP server, the
    /// Pi extension) meets the same words again.
    deleted_holding: HashMap<Term, u64>,
}

/// Terms whose deleted-document count a segment keeps; past it, the counts start over.
const MAX_CACHED_TERMS: usize = 4096;

type SegmentKey = (SegmentId, Option<Opstamp>);

/// Facts of the segments seen lately; segments come and go with merges, so the cache is emptied
/// when it grows past what a few indexes' worth of segments need.
const MAX_CACHED_SEGMENTS: usize = 512;

fn cache() -> &'static Mutex<HashMap<SegmentKey, Arc<Mutex<SegmentFacts>>>> {
    static CACHE: OnceLock<Mutex<HashMap<SegmentKey, Arc<Mutex<SegmentFacts>>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn facts_of(segment: &SegmentReader) -> Arc<Mutex<SegmentFacts>> {
    let key = (segment.segment_id(), segment.delete_opstamp());
    let mut cached = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(facts) = cached.get(&key) {
        return facts.clone();
    }
    if cached.len() >= MAX_CACHED_SEGMENTS {
        cached.clear();
    }
    let deleted = match segment.alive_bitset() {
        Some(alive) => (0..segment.max_doc())
            .filter(|&doc| !alive.is_alive(doc))
            .collect(),
        None => Vec::new(),
    };
    let facts = Arc::new(Mutex::new(SegmentFacts {
        deleted,
        ..SegmentFacts::default()
    }));
    cached.insert(key, facts.clone());
    facts
}

fn live_tokens(segment: &SegmentReader, field: Field) -> tantivy::Result<u64> {
    let facts = facts_of(segment);
    let mut facts = facts
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&tokens) = facts.tokens.get(&field) {
        return Ok(tokens);
    }
    let norms = segment.get_fieldnorms_reader(field)?;
    // Counting each norm id first leaves one lookup per distinct length, not per document. Four
    // tallies, one per document number modulo four: most documents have the same length (none of
    // the field's words), and one tally would make each count wait for the one before it.
    let mut tallies = [[0u64; 256]; 4];
    for doc in 0..segment.max_doc() {
        tallies[(doc % 4) as usize][usize::from(norms.fieldnorm_id(doc))] += 1;
    }
    let mut per_id = [0u64; 256];
    for (id, count) in per_id.iter_mut().enumerate() {
        *count = tallies.iter().map(|tally| tally[id]).sum();
    }
    for &doc in &facts.deleted {
        per_id[usize::from(norms.fieldnorm_id(doc))] -= 1;
    }
    let tokens = per_id
        .iter()
        .enumerate()
        .map(|(id, count)| count * u64::from(FieldNormReader::id_to_fieldnorm(id as u8)))
        .sum();
    facts.tokens.insert(field, tokens);
    Ok(tokens)
}

/// How many of `segment`'s documents that hold `term` are deleted.
fn deleted_holding(segment: &SegmentReader, term: &Term, doc_freq: u32) -> tantivy::Result<u64> {
    let facts = facts_of(segment);
    let mut facts = facts
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if facts.deleted.is_empty() || doc_freq == 0 {
        return Ok(0);
    }
    if let Some(&count) = facts.deleted_holding.get(term) {
        return Ok(count);
    }
    let count = count_deleted_holding(segment, term, doc_freq, &facts.deleted)?;
    if facts.deleted_holding.len() >= MAX_CACHED_TERMS {
        facts.deleted_holding.clear();
    }
    facts.deleted_holding.insert(term.clone(), count);
    Ok(count)
}

fn count_deleted_holding(
    segment: &SegmentReader,
    term: &Term,
    doc_freq: u32,
    deleted: &[DocId],
) -> tantivy::Result<u64> {
    let Some(mut postings) = segment
        .inverted_index(term.field())?
        .read_postings(term, IndexRecordOption::Basic)?
    else {
        return Ok(0);
    };
    let mut count = 0;
    // Few deletions against a long posting list: jump to each deleted document; otherwise walk
    // the list.
    if deleted.len() * 8 < doc_freq as usize {
        for &doc in deleted {
            if postings.doc() > doc {
                continue;
            }
            let found = postings.seek(doc);
            if found == TERMINATED {
                break;
            }
            if found == doc {
                count += 1;
            }
        }
    } else {
        let mut doc = postings.doc();
        while doc != TERMINATED {
            if deleted.binary_search(&doc).is_ok() {
                count += 1;
            }
            doc = postings.advance();
        }
    }
    Ok(count)
}

/// BM25 statistics over the live documents of the indexes a search reads: a search of the
/// conversation reads the main index alone, so the other kinds of text (in the depth index)
/// change neither the idf nor the average length it scores with.
///
/// Each number is worked out once per search: a query asks the token count of a field again for
/// each of its terms (a prefix's completions are dozens), and the snippets ask the terms' document
/// frequencies again.
///
/// A field is looked for only in the part that holds it (`Part::holds`), and only in the
/// segments that hold terms of it (field_presence.rs): Tantivy makes an empty reader anew, each
/// time, for a field a segment has no terms of.
pub struct LiveStatistics<'a> {
    searchers: Vec<(Part, &'a Searcher)>,
    fields: &'a Fields,
    tokens: RefCell<HashMap<Field, u64>>,
    doc_freqs: RefCell<HashMap<Term, u64>>,
}

impl<'a> LiveStatistics<'a> {
    pub fn new(searchers: &'a Searchers, fields: &'a Fields) -> LiveStatistics<'a> {
        LiveStatistics {
            searchers: searchers.parts().collect(),
            fields,
            tokens: RefCell::default(),
            doc_freqs: RefCell::default(),
        }
    }

    /// The segments that hold terms of `field` (a segment without any has no tokens of it either).
    /// The part is asked first: that costs nothing, while a segment's answer costs a read of its
    /// postings file's table once a process (the depth index alone asked for the conversation
    /// made a first search with every kind of text 2.5 ms slower on L).
    pub fn segments(&self, field: Field) -> impl Iterator<Item = &SegmentReader> {
        let parts = self
            .searchers
            .iter()
            .filter(move |(part, _)| part.holds(field, self.fields));
        parts
            .flat_map(|(_, searcher)| searcher.segment_readers())
            .filter(move |segment| holds_terms(segment, field))
    }
}

impl Bm25StatisticsProvider for LiveStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        if let Some(&tokens) = self.tokens.borrow().get(&field) {
            return Ok(tokens);
        }
        let tokens = self
            .segments(field)
            .map(|segment| live_tokens(segment, field))
            .sum::<tantivy::Result<u64>>()?;
        self.tokens.borrow_mut().insert(field, tokens);
        Ok(tokens)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(self
            .searchers
            .iter()
            .map(|(_, searcher)| searcher.num_docs())
            .sum())
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        if let Some(&total) = self.doc_freqs.borrow().get(term) {
            return Ok(total);
        }
        let mut total = 0;
        for segment in self.segments(term.field()) {
            let doc_freq = segment.inverted_index(term.field())?.doc_freq(term)?;
            total += u64::from(doc_freq) - deleted_holding(segment, term, doc_freq)?;
        }
        self.doc_freqs.borrow_mut().insert(term.clone(), total);
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use tantivy::{doc, Term};

    use super::live_tokens;
    use crate::test_index::TestIndex;

    #[test]
    fn a_segments_token_count_is_that_of_its_live_documents() {
        let TestIndex {
            index,
            mut writer,
            text,
            label,
        } = TestIndex::new();
        // Seven documents (a count that is no multiple of four), one of them deleted below.
        let lines = [
            "a b c",
            "a b",
            "x y z w",
            "q",
            "one two three four five",
            "",
            "six seven",
        ];
        for (n, line) in lines.iter().enumerate() {
            writer
                .add_document(doc!(text => *line, label => n.to_string()))
                .unwrap();
        }
        writer.commit().unwrap();
        writer.delete_term(Term::from_field_text(label, "2"));
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let [segment] = searcher.segment_readers() else {
            panic!("one segment")
        };
        assert_eq!(live_tokens(segment, text).unwrap(), 3 + 2 + 1 + 5 + 2);
    }
}

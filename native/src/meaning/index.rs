//! The meaning index: the word index says which units exist now (each conversation message
//! document carries its text's key, `meaning_key`), the store (store.rs) holds a vector per key.
//! So the meaning index follows every sync of the word index for nothing — an appended message
//! is a key the store lacks, a deleted session's keys are no longer referenced, a fork's copied
//! messages are keys the store has — and the same files give the same answers whatever its
//! history.
//!
//! A meaning search is exact: the query's cosine with every vector held, then each message
//! document in scope takes its key's cosine, and each session its best message
//! (candidates.rs). A message whose vector is not there yet is not found by meaning.

use tantivy::query::{EnableScoring, Query};
use tantivy::{DocAddress, DocSet, Searcher, TantivyDocument, TERMINATED};

use crate::by_path_key::PathKeys;
use crate::candidates::{BySession, Candidate, Origin};
use crate::error::Result;
use crate::index_part::Part;
use crate::meaning::store::Store;
use crate::query::{filtered, Filters};
use crate::schema::{kind_is, Fields, KIND_MESSAGE};
use tantivy::schema::document::Value;

/// How many of the messages in scope the store has a vector for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Coverage {
    pub embedded: u64,
    pub messages: u64,
}

/// A message document in scope: its session, position, key, time and address.
struct Unit {
    path_key: u64,
    msg_index: u64,
    key: u64,
    ts: i64,
    address: DocAddress,
}

/// Visits every live conversation message matching `filters`.
fn for_each_unit(searcher: &Searcher, fields: &Fields, filters: &Filters, mut visit: impl FnMut(Unit)) -> Result<()> {
    let query = filtered(kind_is(fields, KIND_MESSAGE), filters, fields);
    let weight = query.weight(EnableScoring::disabled_from_searcher(searcher))?;
    for (segment_ord, segment) in searcher.segment_readers().iter().enumerate() {
        let fast = segment.fast_fields();
        let (path_keys, keys, indexes, times) = (fast.u64("path_key")?, fast.u64("meaning_key")?, fast.u64("msg_index")?, fast.i64("ts")?);
        let alive = segment.alive_bitset();
        let mut docs = weight.scorer(segment, 1.0)?;
        let mut doc = docs.doc();
        while doc != TERMINATED {
            if alive.is_none_or(|alive| alive.is_alive(doc)) {
                if let (Some(path_key), Some(key)) = (path_keys.first(doc), keys.first(doc)) {
                    let msg_index = indexes.first(doc).unwrap_or(0);
                    let ts = times.first(doc).unwrap_or(0);
                    visit(Unit { path_key, msg_index, key, ts, address: DocAddress::new(segment_ord as u32, doc) });
                }
            }
            doc = docs.advance();
        }
    }
    Ok(())
}

/// Up to `limit` texts whose vectors the store lacks (key and text, the newest messages first,
/// each key once), and the coverage of the whole index.
pub fn pending(searcher: &Searcher, fields: &Fields, store: &Store, limit: usize) -> Result<(Vec<(u64, String)>, Coverage)> {
    let mut coverage = Coverage::default();
    let mut missing: Vec<(i64, u64, DocAddress)> = Vec::new();
    for_each_unit(searcher, fields, &Filters::default(), |unit| {
        coverage.messages += 1;
        match store.slot(unit.key) {
            Some(_) => coverage.embedded += 1,
            None => missing.push((unit.ts, unit.key, unit.address)),
        }
    })?;
    missing.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut seen = PathKeys::default();
    let mut texts = Vec::new();
    for (_, key, address) in missing {
        if texts.len() == limit {
            break;
        }
        if seen.insert(key) {
            let doc: TantivyDocument = searcher.doc(address)?;
            let text = doc.get_first(fields.content).and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            texts.push((key, text));
        }
    }
    Ok((texts, coverage))
}

/// The keys of every live unit: what a compaction keeps.
pub fn live_keys(searcher: &Searcher, fields: &Fields) -> Result<PathKeys> {
    let mut keys = PathKeys::default();
    for_each_unit(searcher, fields, &Filters::default(), |unit| {
        keys.insert(unit.key);
    })?;
    Ok(keys)
}

/// Each session's best message by meaning (cosine with `query`, a vector of length 1) among the
/// messages matching `filters`, and how many of those the store covers.
pub fn meaning_candidates(searcher: &Searcher, fields: &Fields, store: &Store, query: &[f32], filters: &Filters) -> Result<(BySession, Coverage)> {
    let scores = store.scores(query);
    let mut found = BySession::default();
    let mut coverage = Coverage::default();
    for_each_unit(searcher, fields, filters, |unit| {
        coverage.messages += 1;
        let Some(slot) = store.slot(unit.key) else { return };
        coverage.embedded += 1;
        let candidate = Candidate { message: Some(unit.msg_index), score: scores[slot as usize], origin: Origin { part: Part::Main, address: unit.address } };
        found.entry(unit.path_key).or_default().offer(candidate);
    })?;
    Ok((found, coverage))
}

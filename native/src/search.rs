//! Ranking: which sessions a query finds and in what order.
//!
//! 1. The filtered query collects the best `limit × CANDIDATES_PER_RESULT` documents, scored by
//!    BM25 over the live documents (statistics.rs: the same files score the same whatever the
//!    history of the index), plus a constant for each distinct query word the document holds (coordination: more of
//!    the words beats fewer), plus `message_index × 0.01`, so that among near-tied messages the
//!    later one wins.
//! 2. Candidates are grouped by session file; a session is represented by its best document.
//! 3. A session's score is that document's score × `1 + w·exp(-age / 7 days)`, where age is the
//!    time since the session's last message (w = 0.2 by default).
//!    Documents of other kinds of text than the conversation (text_kind.rs) live in the depth
//!    index (index_part.rs) and are searched only when asked for, their scores weighted by kind;
//!    a conversation-only search reads the main index alone, statistics included, so indexing
//!    them changes nothing of its ranking. A search of both reads them with one set of
//!    statistics and merges their best documents.
//! 4. The top `limit` sessions get a ~200-character snippet of their best matching message, with
//!    the matched words as byte ranges into the snippet (snippet.rs); a message of a kind the index
//!    does not keep whole (tool output) gets none here, and its `line_offset` instead.

use std::collections::HashMap;

use tantivy::collector::{Collector, TopDocs};
use tantivy::query::{EnableScoring, Query};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Score, Searcher, SegmentReader, TantivyDocument};

use crate::by_path_key::{ByPathKey, PathKeys};
use crate::correction::{corrected, searched_fields, Corrected, Typos};
use crate::error::Result;
use crate::index_part::Part;
use crate::query::{filtered, parse, prefix_expansions, text_query, Filters};
use crate::schema::{for_each_of_kind, Fields, KIND_SESSION};
use crate::searchers::Searchers;
use crate::session::{message_from_document, session_from_document, MessageRef, SessionMeta};
use crate::snippet::{make_snippet, snippet_generator};
use crate::statistics::LiveStatistics;
use crate::text_kind::TextKind;

pub const CANDIDATES_PER_RESULT: usize = 10;
pub const MESSAGE_INDEX_TIE_BREAK: f32 = 0.01;
pub const RECENCY_HALF_LIFE_MS: f64 = 7.0 * 24.0 * 3600.0 * 1000.0;
/// `w` in `1 + w·exp(-age / 7 days)`. The seed used 1; on the known-item evaluation (bench/
/// eval-ranking.mjs) that pushed the remembered session out of first place for one query in six,
/// while 0.2 still lifts recent sessions over equally relevant old ones.
pub const DEFAULT_RECENCY_WEIGHT: f64 = 0.2;
pub const DEFAULT_SNIPPET_CHARS: usize = 200;

#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub query: String,
    pub limit: usize,
    pub prefix: bool,
    pub filters: Filters,
    /// The kinds of text to search (empty: the conversation).
    pub content: Vec<TextKind>,
    /// The time recency is measured from (ms since epoch).
    pub now: i64,
    /// Weight `w` of the recency factor `1 + w·exp(-age / 7 days)`; 0 turns recency off.
    pub recency_weight: f64,
    /// Score added per distinct query word a message contains (see `query::DEFAULT_COORDINATION`).
    pub coordination: f32,
    pub snippet_chars: usize,
    /// What a word no searched text holds is read as (correction.rs).
    pub typos: Typos,
}

#[derive(Debug, Clone)]
pub struct Hit {
    pub session: SessionMeta,
    pub score: f64,
    /// The best matching message; `None` when only the session's tags matched.
    pub message: Option<MessageRef>,
    pub snippet: String,
    /// Byte ranges of matched words inside `snippet`.
    pub spans: Vec<(usize, usize)>,
}

#[derive(Clone, Copy)]
struct Candidate {
    part: Part,
    address: DocAddress,
    /// BM25 plus the message-index tie-break: what picks a session's representative.
    tweaked: Score,
    raw: Score,
    is_message: bool,
}

/// The candidates of one session file: its best document, and its best message document (the
/// two differ when the session's tags outscore every message).
#[derive(Default)]
struct Group {
    best: Option<Candidate>,
    best_message: Option<Candidate>,
}

impl Group {
    fn offer(&mut self, candidate: Candidate) {
        let beats = |slot: &Option<Candidate>| slot.is_none_or(|b| candidate.tweaked > b.tweaked);
        if candidate.is_message && beats(&self.best_message) {
            self.best_message = Some(candidate);
        }
        if beats(&self.best) {
            self.best = Some(candidate);
        }
    }
}

/// A search's answer: the hits, and each word of the query it read as another (a typo, see
/// correction.rs) with the word it read, in query order.
pub struct Found {
    pub hits: Vec<Hit>,
    pub read_as: Vec<(String, String)>,
}

pub fn search(searchers: &Searchers, fields: &Fields, options: &SearchOptions) -> Result<Vec<Hit>> {
    Ok(find(searchers, fields, options)?.hits)
}

pub fn find(searchers: &Searchers, fields: &Fields, options: &SearchOptions) -> Result<Found> {
    let kinds = if options.content.is_empty() { vec![TextKind::Conversation] } else { options.content.clone() };
    let statistics = LiveStatistics::new(searchers, fields);
    let Corrected { parsed, read_as } = corrected(parse(&options.query, options.prefix), &statistics, searchers, &searched_fields(&kinds, fields), options.typos)?;
    if parsed.is_empty() || options.limit == 0 {
        return Ok(Found { hits: Vec::new(), read_as });
    }
    let mut expansions = Vec::with_capacity(kinds.len());
    for kind in &kinds {
        expansions.push(match (&parsed.prefix, searchers.of_kind(*kind)) {
            (Some(prefix), Some(searcher)) => prefix_expansions(searcher, kind.field(fields), prefix)?,
            _ => Vec::new(),
        });
    }
    // The unfinished word also completes to tags and session names.
    let searcher = &searchers.main;
    let tag_expansions = match &parsed.prefix {
        Some(prefix) => prefix_expansions(searcher, fields.tag_text, prefix)?,
        None => Vec::new(),
    };
    let Some(filters) = options.filters.with_tags_resolved(searcher, fields)? else { return Ok(Found { hits: Vec::new(), read_as }) };
    // Each index is asked only for the kinds of text it holds (tags are in the main one).
    let queries: Vec<(Part, Box<dyn Query>)> = searchers
        .parts()
        .map(|(part, _)| {
            let (part_kinds, part_expansions): (Vec<TextKind>, Vec<Vec<String>>) =
                kinds.iter().zip(&expansions).filter(|(kind, _)| Part::of(**kind) == part).map(|(kind, completions)| (*kind, completions.clone())).unzip();
            let tags = (part == Part::Main).then_some(&tag_expansions[..]);
            (part, filtered(text_query(&parsed, &part_kinds, &part_expansions, tags, options.coordination, fields), &filters, fields))
        })
        .collect();
    let groups = collect_groups(searchers, &statistics, &queries, options.limit * CANDIDATES_PER_RESULT)?;
    let session_docs = session_documents(searcher, fields, &groups.keys().copied().collect())?;

    let mut ranked: Vec<(f64, i64, u64, Group)> = groups
        .into_iter()
        .filter_map(|(key, group)| {
            let best = group.best.as_ref()?;
            let last = session_docs.get(&key).map_or(0, |(ts, _)| *ts);
            let score = f64::from(best.raw) * recency_factor(options.now, last, options.recency_weight);
            Some((score, last, key, group))
        })
        .collect();
    // Ties (equal scores) fall to the more recent session, then to a fixed order.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    ranked.truncate(options.limit);

    let mut snippets: HashMap<&'static str, SnippetGenerator> = HashMap::new();
    let mut hits = Vec::with_capacity(ranked.len());
    for (score, _, key, group) in ranked {
        // Every indexed session has its session document; one missing means a damaged index.
        let Some((_, address)) = session_docs.get(&key) else { continue };
        let session = session_from_document(fields, &searcher.doc(*address)?);
        let (message, snippet, spans) = match group.best_message {
            Some(candidate) => {
                let doc: TantivyDocument = searchers.doc(candidate.part, candidate.address)?;
                let mut message = message_from_document(fields, &doc);
                let kind = message.kind;
                // Text the index does not keep gets its snippet from the session file (snippet.rs).
                if !kind.kept_whole() {
                    hits.push(Hit { session, score, message: Some(message), snippet: String::new(), spans: Vec::new() });
                    continue;
                }
                let generator = match snippets.entry(kind.name()) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let completions = kinds.iter().position(|k| *k == kind).map_or(&[][..], |i| &expansions[i][..]);
                        e.insert(snippet_generator(&statistics, kind.field(fields), &parsed, completions, options.snippet_chars)?)
                    }
                };
                let (snippet, spans) = make_snippet(generator, &message.text, options.snippet_chars);
                message.text = String::new();
                (Some(message), snippet, spans)
            }
            None => (None, String::new(), Vec::new()),
        };
        hits.push(Hit { session, score, message, snippet, spans });
    }
    Ok(Found { hits, read_as })
}

pub fn recency_factor(now: i64, last_activity: i64, weight: f64) -> f64 {
    let age = (now - last_activity).max(0) as f64;
    1.0 + weight * (-age / RECENCY_HALF_LIFE_MS).exp()
}

/// The best `window` documents of the indexes searched, grouped by session file: each index
/// searched with its part of the query, all of them weighted with one set of BM25 statistics.
/// (Reading the two on two threads was tried: no faster on two cores.)
fn collect_groups(searchers: &Searchers, statistics: &LiveStatistics, queries: &[(Part, Box<dyn Query>)], window: usize) -> Result<ByPathKey<Group>> {
    let collector = TopDocs::with_limit(window.max(1)).tweak_score(move |segment: &tantivy::SegmentReader| {
        let index_column = segment.fast_fields().u64("msg_index").ok();
        move |doc, score: Score| {
            let index = index_column.as_ref().and_then(|c| c.first(doc)).unwrap_or(0);
            (score + index as Score * MESSAGE_INDEX_TIE_BREAK, score)
        }
    });
    let mut top = Vec::new();
    for (part, query) in queries {
        let Some(searcher) = searchers.of(*part) else { continue };
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(statistics, searcher))?;
        let mut fruits = Vec::with_capacity(searcher.segment_readers().len());
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            fruits.push(collector.collect_segment(weight.as_ref(), ord as u32, segment)?);
        }
        top.extend(collector.merge_fruits(fruits)?.into_iter().map(|(scores, address)| (scores, *part, address)));
    }
    if queries.len() > 1 {
        top.sort_by(|a, b| b.0 .0.total_cmp(&a.0 .0));
        top.truncate(window.max(1));
    }
    let mut columns = HashMap::new();
    let mut groups = ByPathKey::<Group>::default();
    for ((tweaked, raw), part, address) in top {
        let (key_column, index_column) = match columns.entry((part, address.segment_ord)) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let Some(searcher) = searchers.of(part) else { continue };
                let fast = searcher.segment_reader(address.segment_ord).fast_fields();
                e.insert((fast.u64("path_key")?, fast.u64("msg_index")?))
            }
        };
        let Some(key) = key_column.first(address.doc_id) else { continue };
        let is_message = index_column.first(address.doc_id).is_some();
        groups.entry(key).or_default().offer(Candidate { part, address, tweaked, raw, is_message });
    }
    Ok(groups)
}

/// The session document of each session file (by path key), with its last activity read from the
/// fast columns: one pass over the session documents, instead of a lookup per result.
fn session_documents(searcher: &Searcher, fields: &Fields, wanted: &PathKeys) -> Result<ByPathKey<(i64, DocAddress)>> {
    if wanted.is_empty() {
        return Ok(ByPathKey::default());
    }
    let mut out = ByPathKey::with_capacity_and_hasher(wanted.len(), Default::default());
    let columns = |segment: &SegmentReader| {
        let fast = segment.fast_fields();
        Ok((fast.u64("path_key")?, fast.i64("ts")?))
    };
    for_each_of_kind(searcher, fields, KIND_SESSION, columns, |(keys, timestamps), address| {
        if let Some(key) = keys.first(address.doc_id).filter(|key| wanted.contains(key)) {
            if let Some(ts) = timestamps.first(address.doc_id) {
                out.insert(key, (ts, address));
            }
        }
    })?;
    Ok(out)
}

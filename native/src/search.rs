//! A search: which sessions a query finds and in what order, with a snippet of each.
//!
//! 1. The query is read (query.rs), its unknown words corrected (correction.rs), its unfinished
//!    word completed, and its filters resolved.
//! 2. Each candidate source finds its best documents per session file (candidates.rs): today the
//!    word index, scored by BM25 over the live documents (statistics.rs: the same files score the
//!    same whatever the history of the index), plus a constant for each distinct query word the
//!    document holds (coordination: more of the words beats fewer). A session is represented by
//!    its best document; among equal scores the later message wins.
//!    Documents of other kinds of text than the conversation (text_kind.rs) live in the depth
//!    index (index_part.rs) and are searched only when asked for, their scores weighted by kind;
//!    a conversation-only search reads the main index alone, statistics included, so indexing
//!    them changes nothing of its ranking. A search of both reads them with one set of
//!    statistics.
//! 3. The sessions are ranked (fusion.rs): the best document's score × `1 + w·exp(-age / 7 days)`,
//!    where age is the time since the session's last message (w = 0.2 by default).
//! 4. The top `limit` sessions get a ~200-character snippet of their best matching message, with
//!    the matched words as byte ranges into the snippet (snippet.rs); a message of a kind the index
//!    does not keep whole (tool output) gets none here, and its `line_offset` instead.

use std::collections::HashMap;

use tantivy::query::Query;
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Searcher, SegmentReader, TantivyDocument};

use crate::by_path_key::ByPathKey;
use crate::candidates::{best_message_of, word_candidates, BySession};
use crate::correction::{corrected, searched_fields, Corrected, Typos};
use crate::error::{Code, RecallError, Result};
use crate::fusion::{fuse, rank, Recency};
use crate::index_part::Part;
use crate::query::{filtered, parse, prefix_expansions, text_query, Filters};
use crate::schema::{for_each_of_kind, Fields, KIND_SESSION};
use crate::searchers::Searchers;
use crate::session::{message_from_document, session_from_document, MessageRef, SessionMeta};
use crate::session_floor::SessionFloor;
use crate::snippet::{make_snippet, snippet_generator};
use crate::statistics::LiveStatistics;
use crate::text_kind::TextKind;

/// The most results one search returns: more is a mistake (the library's own bound is lower),
/// and is refused rather than tried.
pub const MAX_LIMIT: usize = 100_000;
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
    if options.limit > MAX_LIMIT {
        return Err(RecallError::new(Code::BadInput, format!("limit must be at most {MAX_LIMIT}, not {}", options.limit)));
    }
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

    let mut floor = SessionFloor::new(options.limit, options.recency_weight);
    let found = fuse(vec![word_candidates(searchers, &statistics, &queries, &mut floor)?]);
    let session_docs = session_documents(searcher, fields, &found)?;
    let last_activity: ByPathKey<i64> = session_docs.iter().map(|(key, (ts, _))| (*key, *ts)).collect();
    let mut ranked = rank(found, &last_activity, Recency { now: options.now, weight: options.recency_weight }, options.limit);
    // A session its tags put here may have had its best message skipped as too weak to matter.
    for session in ranked.iter_mut().filter(|session| session.candidates.best.is_some_and(|best| best.message.is_none())) {
        session.candidates.best_message = best_message_of(searchers, &statistics, &queries, fields.path_key, session.key)?;
    }

    let mut snippets: HashMap<&'static str, SnippetGenerator> = HashMap::new();
    let mut hits = Vec::with_capacity(ranked.len());
    for ranked in ranked {
        let Some((_, address)) = session_docs.get(&ranked.key) else { continue };
        let session = session_from_document(fields, &searcher.doc(*address)?);
        let score = ranked.score;
        let (message, snippet, spans) = match ranked.candidates.best_message {
            Some(candidate) => {
                let doc: TantivyDocument = searchers.doc(candidate.origin.part, candidate.origin.address)?;
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

/// The session document of each session file (by path key), with its last activity read from the
/// fast columns: one pass over the session documents, instead of a lookup per result.
/// Every indexed session has its session document; one missing means a damaged index.
pub fn session_documents(searcher: &Searcher, fields: &Fields, wanted: &BySession) -> Result<ByPathKey<(i64, DocAddress)>> {
    if wanted.is_empty() {
        return Ok(ByPathKey::default());
    }
    let mut out = ByPathKey::with_capacity_and_hasher(wanted.len(), Default::default());
    let columns = |segment: &SegmentReader| {
        let fast = segment.fast_fields();
        Ok((fast.u64("path_key")?, fast.i64("ts")?))
    };
    for_each_of_kind(searcher, fields, KIND_SESSION, columns, |(keys, timestamps), address| {
        if let Some(key) = keys.first(address.doc_id).filter(|key| wanted.contains_key(key)) {
            if let Some(ts) = timestamps.first(address.doc_id) {
                out.insert(key, (ts, address));
            }
        }
    })?;
    Ok(out)
}

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
//!    index (index/part.rs) and are searched only when asked for, their scores weighted by kind;
//!    a conversation-only search reads the main index alone, statistics included, so indexing
//!    them changes nothing of its ranking. A search of both reads them with one set of
//!    statistics.
//!    A search by meaning (search/by_meaning.rs) is the other source: each session's message nearest
//!    the query's vector, scored by its cosine.
//! 3. The sessions are ranked (fusion.rs): the best document's score × `1 + w·exp(-age / 7 days)`,
//!    where age is the time since the session's last message (w = 0.2 by default). A search of
//!    both words and meaning ranks each source's sessions so, then fuses the two rankings: the
//!    cosine plus a fifth of the words' score over their best (`fused`), and says which found
//!    each hit.
//!    A later page continues after the place of the previous page's last session (`After`):
//!    the sessions ranked at or before it are counted, not shown, so a deep page reads no more
//!    documents than the first.
//! 4. The top `limit` sessions get a ~200-character snippet of their best matching message, with
//!    the matched words as byte ranges into the snippet (snippet.rs); a message of a kind the index
//!    does not keep whole (tool output) gets none here, and its `line_offset` instead.

use std::collections::HashMap;

use tantivy::query::{Bm25StatisticsProvider, Query};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Searcher, SegmentReader, TantivyDocument, Term};

use crate::error::{Code, RecallError, Result};
use crate::index::part::Part;
use crate::index::schema::{for_each_of_kind, Fields, KIND_SESSION};
use crate::index::session::{
    message_from_document, session_from_document, MessageRef, SessionMeta,
};
use crate::index::text_kind::TextKind;
use crate::meaning::store::Store;
use crate::path_key::{ByPathKey, PathKeys};
use crate::search::by_meaning::{meaning_candidates, Coverage, UnitCache};
use crate::search::by_words::{best_message_of, word_candidates};
use crate::search::candidates::{BySession, SessionCandidates};
use crate::search::correction::{corrected, searched_fields, Corrected, Typos};
use crate::search::fusion::{fuse, rank, RankedSession, Recency};
use crate::search::query::{filtered, parse, prefix_expansions, text_query, Filters, ParsedQuery};
use crate::search::searchers::Searchers;
use crate::search::session_floor::SessionFloor;
use crate::search::snippet::{make_snippet, snippet_generator};
use crate::search::statistics::LiveStatistics;

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
    /// A later page: the sessions after this place (`None`: the first page).
    pub after: Option<After>,
}

/// Where a session is in a search's ranking: what `rank` and `fused` order by (score, then the
/// more recent last activity, then the path key).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub score: f64,
    pub last_activity: i64,
    pub key: u64,
}

impl Place {
    /// Whether this place comes before `other` in a ranking, or is it.
    pub fn at_or_before(&self, other: &Place) -> bool {
        other
            .score
            .total_cmp(&self.score)
            .then(other.last_activity.cmp(&self.last_activity))
            .then(self.key.cmp(&other.key))
            .is_le()
    }
}

/// Where a later page starts: after the place of the last session shown, `shown` sessions having
/// been shown up to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct After {
    pub place: Place,
    pub shown: usize,
}

/// The sessions a later page's search ranked at or before its `After`: how many, and the
/// wrapping sum of their path keys. Equal to what the pages before showed, unless the results
/// changed in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ahead {
    pub sessions: usize,
    pub digest: u64,
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
    pub matched_by: MatchedBy,
}

/// A search's answer: the hits, and each word of the query it read as another (a typo, see
/// correction.rs) with the word it read, in query order.
pub struct Found {
    pub hits: Vec<Hit>,
    /// Each hit's place in the ranking, in the order of `hits` (where a next page continues).
    pub places: Vec<Place>,
    /// With `after`: the sessions ranked at or before it.
    pub ahead: Option<Ahead>,
    pub read_as: Vec<(String, String)>,
    /// With a meaning search: how many of the messages in scope the meaning index covers.
    pub coverage: Option<Coverage>,
}

/// Which ranking found a hit's session: the words', the meaning's, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    Words,
    Meaning,
    Both,
}

impl MatchedBy {
    pub fn name(self) -> &'static str {
        match self {
            MatchedBy::Words => "words",
            MatchedBy::Meaning => "meaning",
            MatchedBy::Both => "both",
        }
    }
}

pub fn search(searchers: &Searchers, fields: &Fields, options: &SearchOptions) -> Result<Vec<Hit>> {
    Ok(find(searchers, fields, options)?.hits)
}

pub fn find(searchers: &Searchers, fields: &Fields, options: &SearchOptions) -> Result<Found> {
    find_matching(searchers, fields, options, None)
}

/// A search by meaning (search/by_meaning.rs): the query's vector, the store of the units' vectors, and
/// whether the words are searched too (`both`), the two rankings of sessions then fused.
pub struct MeaningQuery<'a> {
    pub store: &'a Store,
    pub units: &'a UnitCache,
    pub vector: &'a [f32],
    pub words: bool,
}

/// How deep into the meaning's ranking a session of `both` is said to match by meaning too: every
/// session has some cosine with the query.
pub const MEANING_DEPTH: usize = 100;
/// With `both`, a session the words did not find is a hit only if its score by meaning (unit.rs,
/// before recency) reaches this: every session has a nearest message, so without it a query about
/// nothing in the sessions would still find ten, and a word one session holds would bring nine
/// strangers with it. On the paraphrase eval a
/// paraphrase's own session scored from 0.20 (p10 0.28, median 0.38); the best session for
/// queries about nothing there ("quokka", "banana bread recipe", "lorem ipsum dolor") 0.07–0.21.
pub const MEANING_FLOOR: f32 = 0.22;
/// The weight of the words in `both`: a match of every word of the query adds this much to its
/// cosine, a match of fewer words less (see `fused`). On the paraphrase eval (bench/meaning-eval,
/// BENCHMARKS.md) 0.2 keeps the keyword queries' R@1 at the words' own; more gives paraphrases
/// back to word matches of a word or two, less loses keyword queries. Reciprocal rank fusion was
/// tried first: every word match, however weak, outranked the meaning's (paraphrase R@5 11%,
/// keyword R@1 3 points below the words').
pub const WORDS_WEIGHT: f64 = 0.2;
/// With `both`, a session whose words score more than this share of a whole query's match...
const STRONG_WORDS_FROM: f64 = 0.4;
/// ...gets this much more for each share beyond it: when most of the query's words are in one of
/// its messages, the words lead the ranking and the meaning orders what they leave level. From 0.4
/// × 5, every shape of word query of the known-item evaluation finds its session first within a
/// point of the words alone (one word the session lacks too: from 0.5 × 1.5 it lost 5–8 points),
/// paraphrases as often; a vague query's words, held by a session they do not describe, lead it
/// too (vague R@5 80–82 % against 91.8 %). See BENCHMARKS.md.
const STRONG_WORDS_WEIGHT: f64 = 5.0;

/// A session as it will be shown: its score and, from each source that found it, its candidates.
pub(crate) struct Ranked {
    pub key: u64,
    pub score: f64,
    pub words: Option<SessionCandidates>,
    pub meaning: Option<SessionCandidates>,
    pub matched_by: MatchedBy,
}

/// The hits of `options`, by words (no `meaning`), by meaning, or by both (`MeaningQuery::words`).
pub fn find_matching(
    searchers: &Searchers,
    fields: &Fields,
    options: &SearchOptions,
    meaning: Option<MeaningQuery>,
) -> Result<Found> {
    if options.limit > MAX_LIMIT {
        return Err(RecallError::new(
            Code::BadInput,
            format!("limit must be at most {MAX_LIMIT}, not {}", options.limit),
        ));
    }
    let kinds = if options.content.is_empty() {
        vec![TextKind::Conversation]
    } else {
        options.content.clone()
    };
    let statistics = LiveStatistics::new(searchers, fields);
    let Corrected { parsed, read_as } = corrected(
        parse(&options.query, options.prefix),
        &statistics,
        searchers,
        &searched_fields(&kinds, fields),
        options.typos,
    )?;
    let coverage = None;
    if parsed.is_empty() || options.limit == 0 {
        return Ok(Found {
            hits: Vec::new(),
            places: Vec::new(),
            ahead: options.after.map(|_| Ahead::default()),
            read_as,
            coverage,
        });
    }
    let mut expansions = Vec::with_capacity(kinds.len());
    for kind in &kinds {
        expansions.push(match (&parsed.prefix, searchers.of_kind(*kind)) {
            (Some(prefix), Some(searcher)) => {
                prefix_expansions(searcher, kind.field(fields), prefix)?
            }
            _ => Vec::new(),
        });
    }
    // The unfinished word also completes to tags and session names.
    let searcher = &searchers.main;
    let tag_expansions = match &parsed.prefix {
        Some(prefix) => prefix_expansions(searcher, fields.tag_text, prefix)?,
        None => Vec::new(),
    };
    let Some(filters) = options.filters.with_tags_resolved(searcher, fields)? else {
        return Ok(Found {
            hits: Vec::new(),
            places: Vec::new(),
            ahead: options.after.map(|_| Ahead::default()),
            read_as,
            coverage,
        });
    };
    // Each index is asked only for the kinds of text it holds (tags are in the main one).
    let queries: Vec<(Part, Box<dyn Query>)> = searchers
        .parts()
        .map(|(part, _)| {
            let (part_kinds, part_expansions): (Vec<TextKind>, Vec<Vec<String>>) = kinds
                .iter()
                .zip(&expansions)
                .filter(|(kind, _)| Part::of(**kind) == part)
                .map(|(kind, completions)| (*kind, completions.clone()))
                .unzip();
            let tags = (part == Part::Main).then_some(&tag_expansions[..]);
            (
                part,
                filtered(
                    text_query(
                        &parsed,
                        &part_kinds,
                        &part_expansions,
                        tags,
                        options.coordination,
                        fields,
                    ),
                    &filters,
                    fields,
                ),
            )
        })
        .collect();

    // Words alone keep the best `limit` sessions (after those shown); fused with meaning, every
    // session's rank counts.
    let shown = options.after.map_or(0, |after| after.shown);
    let mut floor = if meaning.is_none() {
        SessionFloor::new(options.limit.saturating_add(shown), options.recency_weight)
    } else {
        SessionFloor::none()
    };
    // With both, the meaning's pass over every vector runs on a second thread beside the words'.
    let (by_words, by_meaning) = std::thread::scope(|scope| {
        let by_meaning = meaning.as_ref().map(|meaning| {
            scope.spawn(|| {
                meaning_candidates(
                    searcher,
                    fields,
                    meaning.store,
                    meaning.units,
                    meaning.vector,
                    &filters,
                )
            })
        });
        let by_words = match &meaning {
            Some(meaning) if !meaning.words => Ok(BySession::default()),
            _ => word_candidates(searchers, &statistics, &queries, &mut floor)
                .map(|found| fuse(vec![found])),
        };
        (
            by_words,
            by_meaning.map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }),
        )
    });
    let by_words = by_words?;
    let (by_meaning, coverage) = match by_meaning.transpose()? {
        Some((found, coverage)) => (found, Some(coverage)),
        None => (BySession::default(), None),
    };
    // With both, a session only the meaning found is a hit from MEANING_FLOOR on (by meaning
    // alone, the nearest sessions are what was asked for).
    let by_meaning: BySession = match &meaning {
        Some(MeaningQuery { words: true, .. }) => by_meaning
            .into_iter()
            .filter(|(key, found)| {
                by_words.contains_key(key)
                    || found.best.is_some_and(|best| best.score >= MEANING_FLOOR)
            })
            .collect(),
        _ => by_meaning,
    };
    let wanted: PathKeys = by_words.keys().chain(by_meaning.keys()).copied().collect();
    let session_docs = session_documents(searcher, fields, &wanted)?;
    let last_activity: ByPathKey<i64> = session_docs
        .iter()
        .map(|(key, (ts, _))| (*key, *ts))
        .collect();
    let recency = Recency {
        now: options.now,
        weight: options.recency_weight,
    };
    // A later page ranks every session found, then keeps those after its place.
    let window = match options.after {
        Some(_) => usize::MAX,
        None => options.limit,
    };
    let place = |key: u64, score: f64| Place {
        score,
        last_activity: last_activity.get(&key).copied().unwrap_or(0),
        key,
    };
    let after = options.after.as_ref();
    let (ranked, ahead) = match &meaning {
        None => {
            let (mut ranked, ahead) = continue_after(
                rank(by_words, &last_activity, recency, window),
                |s| place(s.key, s.score),
                after,
                options.limit,
            );
            // A session its tags put here may have had its best message skipped as too weak to matter.
            for session in ranked.iter_mut().filter(|session| {
                session
                    .candidates
                    .best
                    .is_some_and(|best| best.message.is_none())
            }) {
                session.candidates.best_message = best_message_of(
                    searchers,
                    &statistics,
                    &queries,
                    fields.path_key,
                    session.key,
                )?;
            }
            let ranked = ranked
                .into_iter()
                .map(|s| Ranked {
                    key: s.key,
                    score: s.score,
                    words: Some(s.candidates),
                    meaning: None,
                    matched_by: MatchedBy::Words,
                })
                .collect();
            (ranked, ahead)
        }
        Some(MeaningQuery { words: false, .. }) => {
            let (ranked, ahead) = continue_after(
                rank(by_meaning, &last_activity, recency, window),
                |s| place(s.key, s.score),
                after,
                options.limit,
            );
            let ranked = ranked
                .into_iter()
                .map(|s| Ranked {
                    key: s.key,
                    score: s.score,
                    words: None,
                    meaning: Some(s.candidates),
                    matched_by: MatchedBy::Meaning,
                })
                .collect();
            (ranked, ahead)
        }
        Some(_) => {
            let full = full_match_score(&parsed, &statistics, fields, options.coordination)?;
            continue_after(
                fused(
                    rank(by_words, &last_activity, recency, usize::MAX),
                    rank(by_meaning, &last_activity, recency, usize::MAX),
                    Some(full),
                    &last_activity,
                    window,
                ),
                |s| place(s.key, s.score),
                after,
                options.limit,
            )
        }
    };

    let mut snippets: HashMap<&'static str, SnippetGenerator> = HashMap::new();
    let mut hits = Vec::with_capacity(ranked.len());
    let mut places = Vec::with_capacity(ranked.len());
    for ranked in ranked {
        let Some((_, address)) = session_docs.get(&ranked.key) else {
            continue;
        };
        places.push(place(ranked.key, ranked.score));
        let session = session_from_document(fields, &searcher.doc(*address)?);
        let score = ranked.score;
        let matched_by = ranked.matched_by;
        // A session the words found shows their match; one only the meaning found, the passage.
        let (message, snippet, spans) = match (
            ranked.words.map(|c| c.best_message),
            ranked.meaning.and_then(|c| c.best_message),
        ) {
            (Some(Some(candidate)), _) => {
                let doc: TantivyDocument =
                    searchers.doc(candidate.origin.part, candidate.origin.address)?;
                let mut message = message_from_document(fields, &doc);
                let kind = message.kind;
                // Text the index does not keep gets its snippet from the session file (snippet.rs).
                if !kind.kept_whole() {
                    hits.push(Hit {
                        session,
                        score,
                        message: Some(message),
                        snippet: String::new(),
                        spans: Vec::new(),
                        matched_by,
                    });
                    continue;
                }
                let generator = match snippets.entry(kind.name()) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let completions = kinds
                            .iter()
                            .position(|k| *k == kind)
                            .map_or(&[][..], |i| &expansions[i][..]);
                        e.insert(snippet_generator(
                            &statistics,
                            kind.field(fields),
                            &parsed,
                            completions,
                            options.snippet_chars,
                        )?)
                    }
                };
                let (snippet, spans) =
                    make_snippet(generator, &message.text, options.snippet_chars);
                message.text = String::new();
                (Some(message), snippet, spans)
            }
            (None, Some(candidate)) => {
                let doc: TantivyDocument =
                    searchers.doc(candidate.origin.part, candidate.origin.address)?;
                let mut message = message_from_document(fields, &doc);
                let snippet = passage(&message.text, options.snippet_chars);
                message.text = String::new();
                (Some(message), snippet, Vec::new())
            }
            _ => (None, String::new(), Vec::new()),
        };
        hits.push(Hit {
            session,
            score,
            message,
            snippet,
            spans,
            matched_by,
        });
    }
    Ok(Found {
        hits,
        places,
        ahead,
        read_as,
        coverage,
    })
}

/// Of sessions ranked best first, the first `limit` after `after`'s place, and what came up to
/// it; all of them, and nothing counted, without `after`.
fn continue_after<T>(
    mut ranked: Vec<T>,
    place: impl Fn(&T) -> Place,
    after: Option<&After>,
    limit: usize,
) -> (Vec<T>, Option<Ahead>) {
    let Some(after) = after else {
        return (ranked, None);
    };
    let split = ranked.partition_point(|session| place(session).at_or_before(&after.place));
    let ahead = ranked[..split]
        .iter()
        .fold(Ahead::default(), |ahead, session| Ahead {
            sessions: ahead.sessions + 1,
            digest: ahead.digest.wrapping_add(place(session).key),
        });
    let page: Vec<T> = ranked.drain(split..).take(limit).collect();
    (page, Some(ahead))
}

/// The words' and the meaning's rankings fused by score: a session's cosine with the query (×
/// recency) plus `WORDS_WEIGHT` × its words' score over `full` (at most 1; 0 when the words do not
/// find it), plus, beyond `STRONG_WORDS_FROM` of it, `STRONG_WORDS_WEIGHT` × the rest. `full` is
/// what a match of the whole query scores (`full_match_score`), so that a session holding one word
/// of a paraphrase is lifted by a fraction of the weight, not all of it as the best of weak
/// matches, while one holding most of a word query's words leads; without it (related sessions),
/// the best words' score, and no lead. Best first;
/// equal scores fall to the more recent session, then to the path key, as `rank` orders them. A
/// session is said to match by meaning within the first `MEANING_DEPTH` of the meaning's ranking,
/// or when the words do not find it.
pub(crate) fn fused(
    by_words: Vec<RankedSession>,
    by_meaning: Vec<RankedSession>,
    full: Option<f64>,
    last_activity: &ByPathKey<i64>,
    limit: usize,
) -> Vec<Ranked> {
    let mut sessions: ByPathKey<Ranked> = ByPathKey::default();
    let best = full.unwrap_or_else(|| by_words.first().map_or(1.0, |s| s.score));
    for session in by_words {
        let share = session.score / best;
        let strong = if full.is_some() {
            STRONG_WORDS_WEIGHT * (share - STRONG_WORDS_FROM).max(0.0)
        } else {
            0.0
        };
        let score = WORDS_WEIGHT * share.min(1.0) + strong;
        sessions.insert(
            session.key,
            Ranked {
                key: session.key,
                score,
                words: Some(session.candidates),
                meaning: None,
                matched_by: MatchedBy::Words,
            },
        );
    }
    for (rank, session) in by_meaning.into_iter().enumerate() {
        let entry = sessions.entry(session.key).or_insert(Ranked {
            key: session.key,
            score: 0.0,
            words: None,
            meaning: None,
            matched_by: MatchedBy::Meaning,
        });
        entry.score += session.score;
        entry.meaning = Some(session.candidates);
        if rank < MEANING_DEPTH && entry.matched_by == MatchedBy::Words {
            entry.matched_by = MatchedBy::Both;
        }
    }
    let mut ranked: Vec<Ranked> = sessions.into_values().collect();
    let last = |key: &u64| last_activity.get(key).copied().unwrap_or(0);
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(last(&b.key).cmp(&last(&a.key)))
            .then(a.key.cmp(&b.key))
    });
    ranked.truncate(limit);
    ranked
}

/// What a message holding every word of the query once scores, about: each distinct word's idf
/// in the conversation (BM25's weight of one occurrence in a message of average length) plus
/// its coordination constant.
fn full_match_score(
    parsed: &ParsedQuery,
    statistics: &LiveStatistics,
    fields: &Fields,
    coordination: f32,
) -> Result<f64> {
    let documents = statistics.total_num_docs()? as f64;
    let mut full = 0.0;
    for word in parsed.distinct_words() {
        let df = statistics.doc_freq(&Term::from_field_text(fields.content, &word))? as f64;
        full += (1.0 + (documents - df + 0.5) / (df + 0.5)).ln() + f64::from(coordination);
    }
    Ok(full.max(f64::MIN_POSITIVE))
}

/// The passage a meaning-only hit shows: the start of the message the model read, `chars` long.
pub(crate) fn passage(text: &str, chars: usize) -> String {
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i);
    text[..end].to_owned()
}

/// The session document of each session file (by path key), with its last activity read from the
/// fast columns: one pass over the session documents, instead of a lookup per result.
/// Every indexed session has its session document; one missing means a damaged index.
pub fn session_documents(
    searcher: &Searcher,
    fields: &Fields,
    wanted: &PathKeys,
) -> Result<ByPathKey<(i64, DocAddress)>> {
    if wanted.is_empty() {
        return Ok(ByPathKey::default());
    }
    let mut out = ByPathKey::with_capacity_and_hasher(wanted.len(), Default::default());
    let columns = |segment: &SegmentReader| {
        let fast = segment.fast_fields();
        Ok((fast.u64("path_key")?, fast.i64("ts")?))
    };
    for_each_of_kind(
        searcher,
        fields,
        KIND_SESSION,
        columns,
        |(keys, timestamps), address| {
            if let Some(key) = keys
                .first(address.doc_id)
                .filter(|key| wanted.contains(key))
            {
                if let Some(ts) = timestamps.first(address.doc_id) {
                    out.insert(key, (ts, address));
                }
            }
        },
    )?;
    Ok(out)
}

#[cfg(test)]
mod fusion_tests {
    use super::*;
    use crate::search::candidates::SessionCandidates;

    fn ranked(key: u64, score: f64) -> RankedSession {
        RankedSession {
            key,
            score,
            candidates: SessionCandidates::default(),
        }
    }

    /// The keys of `fused`, best first, for sessions 1..: their words' scores (None: not found by
    /// the words) and cosines, with a whole query's match scoring 10.
    fn order(sessions: &[(Option<f64>, f64)]) -> Vec<u64> {
        let keys = 1..=sessions.len() as u64;
        let by_words = keys
            .clone()
            .zip(sessions)
            .filter_map(|(key, (words, _))| words.map(|score| ranked(key, score)))
            .collect();
        let by_meaning = keys
            .zip(sessions)
            .map(|(key, (_, cosine))| ranked(key, *cosine))
            .collect();
        fused(by_words, by_meaning, Some(10.0), &ByPathKey::default(), 10)
            .iter()
            .map(|r| r.key)
            .collect()
    }

    #[test]
    fn most_of_a_word_query_in_one_session_leads_the_meaning() {
        // 1 holds every word and is far in meaning; 2 is near in meaning and holds none.
        assert_eq!(order(&[(Some(10.0), 0.2), (None, 0.7)]), vec![1, 2]);
        // Two sessions holding every word: the nearer in meaning first.
        assert_eq!(order(&[(Some(10.0), 0.2), (Some(10.0), 0.3)]), vec![2, 1]);
    }

    #[test]
    fn a_word_query_with_one_word_its_session_lacks_still_leads_the_meaning() {
        // 1 holds seven tenths of the query's words and is far in meaning; 2 holds a fifth and is near.
        assert_eq!(order(&[(Some(7.0), 0.2), (Some(2.0), 0.8)]), vec![1, 2]);
    }

    #[test]
    fn a_word_or_two_of_a_paraphrase_lifts_a_session_only_a_little() {
        // 1 holds a fifth of the query's weight of words; 2 is nearer in meaning by 0.1.
        assert_eq!(order(&[(Some(2.0), 0.5), (None, 0.6)]), vec![2, 1]);
        assert_eq!(order(&[(Some(2.0), 0.5), (None, 0.52)]), vec![1, 2]);
    }
}

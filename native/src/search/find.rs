//! A search: which sessions a query finds and in what order, with a snippet of each.
//!
//! 1. The query is read (query.rs), its unknown words corrected (correction.rs), its unfinished
//!    word completed, and its filters resolved.
//! 2. Each candidate source finds its best documents per session file (candidates.rs): today the
//!    word index, scored by BM25 over the live documents (statistics.rs: the same files score the
//!    same whatever the history of the index), plus a constant for each distinct query word the
//!    document holds, weighed by how much the word tells (coordination.rs: more of the telling
//!    words beats fewer; `the` and `of` add almost nothing). A session is represented by
//!    its best document; among equal scores the later message wins.
//!    Documents of other kinds of text than the conversation (text_kind.rs) live in the depth
//!    index (index/part.rs) and are searched only when asked for, their scores weighted by kind;
//!    a conversation-only search reads the main index alone, statistics included, so indexing
//!    them changes nothing of its ranking. A search of both reads them with one set of
//!    statistics.
//!    A search by meaning (search/by_meaning.rs) is the other source: each session's message nearest
//!    the query's vector, scored by its cosine.
//! 3. Each source ranks its sessions (fusion.rs): the best document's score × `1 + w·exp(-age /
//!    7 days)`, where age is the time since the session's last message (w = 0.2 by default); one
//!    fusion makes one ranking of the words', the meaning's or both (`fuse`: the cosine plus a
//!    share of a whole query's word match), and says which found each hit. With both, a session
//!    only the meaning found must be near enough (`MEANING_FLOOR`), and a query of words no text
//!    holds gets no such sessions; a query of one word is the words' alone. A warm first page of
//!    both scores by meaning only the sessions that could be on it (bounded.rs).
//!    A later page continues after the place of the previous page's last session (`After`):
//!    the sessions ranked at or before it are counted, not shown, so a deep page reads no more
//!    documents than the first.
//! 4. The top `limit` sessions get a ~200-character snippet of their best matching message, with
//!    the matched words as byte ranges into the snippet (snippet.rs); a message of a kind the index
//!    does not keep whole (tool output) gets none here, and its `line_offset` instead.

use std::collections::HashMap;

use tantivy::query::{Bm25StatisticsProvider, Query};
use tantivy::snippet::SnippetGenerator;
use tantivy::TantivyDocument;

use crate::error::{Code, RecallError, Result};
use crate::index::part::Part;
use crate::index::schema::Fields;
use crate::index::session::{
    message_from_document, session_from_document, MessageRef, SessionMeta,
};
use crate::index::text_kind::TextKind;
use crate::path_key::PathKeys;
use crate::search::bounded::Fusing;
use crate::search::by_meaning::Coverage;
use crate::search::by_words::{best_message_of, word_candidates};
use crate::search::candidates::BySession;
use crate::search::coordination::{idf, Coordination, Telling};
use crate::search::correction::{corrected, searched_fields, Corrected, Typos};
pub use crate::search::fusion::MatchedBy;
use crate::search::fusion::{fuse, rank, Recency, Scale, Source, NEAR};
use crate::search::query::{filtered, parse, prefix_expansions, text_query, Filters, ParsedQuery};
use crate::search::searchers::Searchers;
use crate::search::session_floor::SessionFloor;
use crate::search::sessions::{last_activities, session_documents};
use crate::search::snippet::{make_snippet, snippet_generator};
use crate::search::statistics::LiveStatistics;
use crate::search::with_meaning::MeaningSide;
pub use crate::search::with_meaning::{MeaningQuery, QueryVector};

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

pub fn search(searchers: &Searchers, fields: &Fields, options: &SearchOptions) -> Result<Vec<Hit>> {
    Ok(find(searchers, fields, options)?.hits)
}

pub fn find(searchers: &Searchers, fields: &Fields, options: &SearchOptions) -> Result<Found> {
    find_matching(searchers, fields, options, None)
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
    let distinct_words = parsed.distinct_words();
    // With both, a query of one word (or one unfinished word) is the words' alone: which sessions
    // hold it is theirs to say, and ranking those by meaning too found the known item no better
    // (BENCHMARKS.md, "`both` on the word queries"), so the query is not embedded.
    let meaning = meaning.filter(|meaning| {
        !meaning.words || distinct_words.len() + usize::from(parsed.prefix.is_some()) > 1
    });
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
    let searched = searched_fields(&kinds, fields);
    let telling = match &meaning {
        Some(MeaningQuery { words: true, .. }) => Telling::Fused,
        _ => Telling::WordsAlone,
    };
    let coordination = Coordination::new(
        options.coordination,
        telling,
        &distinct_words,
        &searched,
        &statistics,
    )?;
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
                        &coordination,
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
    // With both, a session only the meaning found is a hit when the query says something (two
    // words or more, one of them held by some text) and the session is near enough in meaning
    // (MEANING_FLOOR): a script asking for a word or for words nothing holds gets the words. By
    // meaning alone, the nearest sessions are what was asked for.
    let side = meaning.as_ref().map(|meaning| MeaningSide {
        searcher,
        fields,
        meaning,
        filters: &filters,
        first_page: options.after.is_none(),
        may_answer: distinct_words.len() > 1 && coordination.any_held(),
        words_may_find: coordination.any_held() || parsed.prefix.is_some(),
    });
    let mut words = || match &meaning {
        Some(meaning) if !meaning.words => Ok(BySession::default()),
        _ => word_candidates(searchers, &statistics, &queries, &mut floor),
    };
    // The meaning's side embeds the query (and more: with_meaning.rs) on a thread of the pool,
    // beside the words' search on this one. A search by words alone never starts the pool.
    let mut by_meaning = None;
    let by_words = match &side {
        Some(side) => rayon::in_place_scope(|scope| {
            let by_meaning = &mut by_meaning;
            scope.spawn(move |_| *by_meaning = Some(side.beside_words()));
            words()
        }),
        None => words(),
    };
    let by_words = by_words?;
    let words_searched = meaning.as_ref().is_none_or(|meaning| meaning.words);
    let recency = Recency {
        now: options.now,
        weight: options.recency_weight,
    };
    let full = match meaning {
        Some(_) if words_searched => Some(full_match_score(&parsed, &statistics, &coordination)?),
        _ => None,
    };
    let (fusing, coverage, session_docs) = match (&side, by_meaning.transpose()?) {
        (Some(side), Some(found)) => {
            let (fusing, coverage, session_docs) =
                side.fusing(by_words, found, options.limit, full, recency)?;
            (fusing, Some(coverage), session_docs)
        }
        _ => {
            let wanted: PathKeys = by_words.keys().copied().collect();
            let session_docs = session_documents(searcher, fields, &wanted)?;
            let fusing = Fusing {
                words: by_words,
                meaning: BySession::default(),
                words_best: None,
            };
            (fusing, None, session_docs)
        }
    };
    let last_activity = last_activities(&session_docs);
    // A later page ranks every session found, then keeps those after its place; a lone source
    // otherwise keeps its best `limit`, and fused, every session's place counts.
    let window = match options.after {
        Some(_) => usize::MAX,
        None => options.limit,
    };
    let depth = match (&meaning, words_searched) {
        (Some(_), true) => usize::MAX,
        _ => window,
    };
    let mut sources = Vec::with_capacity(2);
    if words_searched {
        sources.push(Source {
            sessions: rank(fusing.words, &last_activity, recency, depth),
            scale: Scale::Words { full },
            best: fusing.words_best,
        });
    }
    if meaning.is_some() {
        sources.push(Source {
            sessions: rank(fusing.meaning, &last_activity, recency, depth),
            scale: Scale::Meaning { near: NEAR },
            best: None,
        });
    }
    let place = |key: u64, score: f64| Place {
        score,
        last_activity: last_activity.get(&key).copied().unwrap_or(0),
        key,
    };
    let (mut ranked, ahead) = continue_after(
        fuse(sources, &last_activity, window),
        |s| place(s.key, s.score),
        options.after.as_ref(),
        options.limit,
    );
    // A session its tags put here may have had its best message skipped as too weak to matter.
    for words in ranked.iter_mut().filter_map(|session| {
        let key = session.key;
        session
            .words
            .as_mut()
            .filter(|words| words.best.is_some_and(|best| best.message.is_none()))
            .map(|words| (key, words))
    }) {
        let (key, words) = words;
        words.best_message =
            best_message_of(searchers, &statistics, &queries, fields.path_key, key)?;
    }

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

/// What the words of `both` are measured against: what a message would score that held every word
/// of the query once, had each word told all a word can (held by one document: BM25's idf at its
/// most, of one occurrence in a message of average length, plus the whole coordination constant).
/// A query of telling words a session holds comes near it and the words lead; a query of common
/// words ("database errors on concurrent requests") stays far below it wherever it is held, and the
/// meaning orders the sessions. Against each word's own idf instead, a vague query's common words
/// led it: vague R@1 62 % against 79 % (bench/meaning-eval, 20 distractors, seed 2).
fn full_match_score(
    parsed: &ParsedQuery,
    statistics: &LiveStatistics,
    coordination: &Coordination,
) -> Result<f64> {
    let documents = statistics.total_num_docs()? as f64;
    let most = idf(1, documents) + f64::from(coordination.most());
    Ok((most * parsed.distinct_words().len() as f64).max(f64::MIN_POSITIVE))
}

/// The passage a meaning-only hit shows: the start of the message the model read, `chars` long.
pub(crate) fn passage(text: &str, chars: usize) -> String {
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i);
    text[..end].to_owned()
}

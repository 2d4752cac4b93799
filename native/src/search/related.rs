//! Related sessions without a model: the sessions that share the most of one session's
//! distinctive words, a more-like-this over the word index.
//!
//! 1. The session's distinctive words (`distinctive_words`): the words of its conversation as the
//!    index cuts them (tokenizer.rs), each weighed `(1 + ln tf) · idf`, tf its count in the
//!    session and idf BM25's over the live documents (statistics.rs), so the same files pick the
//!    same words whatever the history of the index. Left out: stopwords, words of one character
//!    or of digits only, words no document of another session holds (they can find nothing), and
//!    words more than half of the documents hold. The best `MAX_WORDS` are kept, best first.
//!    (Tantivy's `MoreLikeThisQuery` picks its terms from one document's fields by the segments'
//!    document frequencies, deleted documents included: a session is many documents, and the
//!    words it picked would change with merges.)
//! 2. A query of those words over the conversation and the tag text, as a search reads them, each
//!    word's clause weighted by its weight, with a coordination constant for each word a message
//!    holds (so a message sharing more of them ranks higher); the session itself, its copies
//!    (same id), its parent and its forks are excluded, and the caller's filters apply.
//! 3. Sessions ranked by their best document (candidates.rs, fusion.rs), without recency: a
//!    related session is not more related for being recent.
//! 4. Each hit gets a snippet of its best message and the distinctive words its session shares.
//!
//! With the meaning index (`ByMeaning`), the sessions whose centroids lie nearest the session's
//! (search/by_meaning.rs, `nearest_sessions`) are ranked too: alone (`meaning`), or fused with the
//! words' ranking as a search by both fuses them (search/fusion.rs, `fuse`). A session only the meaning
//! found shows its message nearest the session's centroid.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use tantivy::collector::DocSetCollector;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::query::{BooleanQuery, BoostQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::document::Value;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Searcher, TantivyDocument, Term};

use crate::clauses::any_term::AnyTerm;
use crate::clauses::coordinated::Coordinated;
use crate::error::{Code, RecallError, Result};
use crate::index::files::{read_records, Selector};
use crate::index::part::Part;
use crate::index::schema::{kind_is, Fields, KIND_MESSAGE, KIND_SESSION};
use crate::index::session::{message_from_document, session_from_document};
use crate::meaning::store::Store;
use crate::path_key::path_key;
use crate::path_key::{ByPathKey, PathKeys};
use crate::search::by_meaning::{nearest_sessions, Coverage};
use crate::search::by_words::word_candidates;
use crate::search::candidates::BySession;
use crate::search::find::{passage, Hit, MAX_LIMIT};
use crate::search::fusion::{fuse, rank, Near, Ranked, Recency, Scale, Source, MEANING_DEPTH};
use crate::search::query::{filtered, term_query, Filters, ParsedQuery, TAG_BOOST};
use crate::search::searchers::Searchers;
use crate::search::session_floor::SessionFloor;
use crate::search::sessions::session_documents;
use crate::search::snippet::{make_snippet, snippet_generator};
use crate::search::statistics::LiveStatistics;
use crate::words::relevance::is_stopword;
use crate::words::tokenizer::words;

/// The distinctive words a session is looked up by: enough to say what it is about, few enough
/// that a word shared by chance weighs little.
pub const MAX_WORDS: usize = 25;

#[derive(Debug, Clone)]
pub struct RelatedOptions {
    /// The session's file (its identity in the index) and its id (its copies share it).
    pub path: String,
    pub session_id: String,
    pub limit: usize,
    pub filters: Filters,
    /// Score added per distinct distinctive word a message holds, times the word's weight.
    pub coordination: f32,
    pub snippet_chars: usize,
}

#[derive(Debug, Clone)]
pub struct RelatedHit {
    pub hit: Hit,
    /// The distinctive words of the session asked about that this session holds, best first.
    pub shared: Vec<String>,
}

/// The session's distinctive words, best first, and the sessions related by them (and by
/// meaning), best first.
pub struct Related {
    pub words: Vec<String>,
    pub hits: Vec<RelatedHit>,
    /// With the meaning index: how many of the messages in scope it covers.
    pub coverage: Option<Coverage>,
}

/// The meaning index a related search reads: its store, and whether the distinctive words are
/// searched too (`both`) or not (`meaning`).
pub struct ByMeaning<'a> {
    pub store: &'a Store,
    pub words: bool,
}

/// A distinctive word and its weight relative to the best one (1).
#[derive(Debug, Clone, PartialEq)]
struct Weighted {
    word: String,
    weight: f32,
}

pub fn related(
    searchers: &Searchers,
    fields: &Fields,
    options: &RelatedOptions,
    meaning: Option<ByMeaning>,
) -> Result<Related> {
    if options.limit > MAX_LIMIT {
        return Err(RecallError::new(
            Code::BadInput,
            format!("limit must be at most {MAX_LIMIT}, not {}", options.limit),
        ));
    }
    let statistics = LiveStatistics::new(searchers, fields);
    let searcher = &searchers.main;
    let distinctive = distinctive_words(searcher, fields, &statistics, &options.path)?;
    let words: Vec<String> = distinctive.iter().map(|w| w.word.clone()).collect();
    let by_words_too = meaning.as_ref().is_none_or(|meaning| meaning.words);
    let nothing = |words, coverage| {
        Ok(Related {
            words,
            hits: Vec::new(),
            coverage,
        })
    };
    if options.limit == 0 || (distinctive.is_empty() && meaning.is_none()) {
        return nothing(words, None);
    }
    let Some(mut filters) = options.filters.with_tags_resolved(searcher, fields)? else {
        return nothing(words, meaning.map(|_| Coverage::default()));
    };
    filters.exclude_session_ids.extend(family(
        searcher,
        fields,
        &options.session_id,
        &options.path,
    )?);

    let by_words = match by_words_too && !distinctive.is_empty() {
        true => by_distinctive_words(
            searchers,
            fields,
            &statistics,
            &distinctive,
            &filters,
            options.coordination,
        )?,
        false => BySession::default(),
    };
    let (by_meaning, coverage) = match &meaning {
        Some(meaning) => {
            let (found, coverage) =
                nearest_sessions(searcher, fields, meaning.store, &options.path, &filters)?;
            (found, Some(coverage))
        }
        None => (None, None),
    };
    let by_meaning = by_meaning.unwrap_or_default();
    let wanted: PathKeys = by_words.keys().chain(by_meaning.keys()).copied().collect();
    let session_docs = session_documents(searcher, fields, &wanted)?;
    let last_activity: ByPathKey<i64> = session_docs
        .iter()
        .map(|(key, (ts, _))| (*key, *ts))
        .collect();
    let unranked = |source| {
        rank(
            source,
            &last_activity,
            Recency {
                now: 0,
                weight: 0.0,
            },
            if meaning.is_some() && by_words_too {
                usize::MAX
            } else {
                options.limit
            },
        )
    };
    let mut sources = Vec::with_capacity(2);
    if by_words_too {
        sources.push(Source {
            sessions: unranked(by_words),
            scale: Scale::Words { full: None },
            best: None,
        });
    }
    if meaning.is_some() {
        sources.push(Source {
            sessions: unranked(by_meaning),
            scale: Scale::Meaning {
                near: Near::Depth(MEANING_DEPTH),
            },
            best: None,
        });
    }
    let ranked: Vec<Ranked> = fuse(sources, &last_activity, options.limit);

    let parsed = ParsedQuery {
        loose: words.clone(),
        ..ParsedQuery::default()
    };
    let generator = snippet_generator(
        &statistics,
        fields.content,
        &parsed,
        &[],
        options.snippet_chars,
    )?;
    let mut sessions = Vec::with_capacity(ranked.len());
    for ranked in ranked {
        let Some((_, address)) = session_docs.get(&ranked.key) else {
            continue;
        };
        sessions.push((
            session_from_document(fields, &searcher.doc(*address)?),
            ranked,
        ));
    }
    let paths: Vec<String> = sessions
        .iter()
        .map(|(session, _)| session.path.clone())
        .collect();
    let mut shared = shared_words(searcher, fields, &words, &paths)?;
    let mut hits = Vec::with_capacity(sessions.len());
    for (session, ranked) in sessions {
        // The words' best message where they found the session, else the one nearest in meaning.
        let by_words = ranked.words.and_then(|c| c.best_message);
        let (message, snippet, spans) =
            match by_words.or(ranked.meaning.and_then(|c| c.best_message)) {
                Some(candidate) => {
                    let mut message = message_from_document(
                        fields,
                        &searchers.doc(candidate.origin.part, candidate.origin.address)?,
                    );
                    let (snippet, spans) = match by_words {
                        Some(_) => make_snippet(&generator, &message.text, options.snippet_chars),
                        None => (passage(&message.text, options.snippet_chars), Vec::new()),
                    };
                    message.text = String::new();
                    (Some(message), snippet, spans)
                }
                None => (None, String::new(), Vec::new()),
            };
        let shared = shared.remove(&ranked.key).unwrap_or_default();
        hits.push(RelatedHit {
            hit: Hit {
                session,
                score: ranked.score,
                message,
                snippet,
                spans,
                matched_by: ranked.matched_by,
            },
            shared,
        });
    }
    Ok(Related {
        words,
        hits,
        coverage,
    })
}

/// The sessions holding the distinctive words, each with its best document.
fn by_distinctive_words(
    searchers: &Searchers,
    fields: &Fields,
    statistics: &LiveStatistics,
    distinctive: &[Weighted],
    filters: &Filters,
    coordination: f32,
) -> Result<BySession> {
    let query = filtered(
        words_query(distinctive, coordination, fields),
        filters,
        fields,
    );
    // No floor: the sessions left out after ranking (the session itself, its copies) could fill the top.
    word_candidates(
        searchers,
        statistics,
        &[(Part::Main, query)],
        &mut SessionFloor::none(),
    )
}

/// Each distinctive word in the conversation and in the tag text (tags and names, boosted as a
/// search boosts them), weighted, with its coordination constant.
fn words_query(distinctive: &[Weighted], coordination: f32, fields: &Fields) -> Box<dyn Query> {
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(distinctive.len() * 2);
    for Weighted { word, weight } in distinctive {
        for (field, boost) in [(fields.content, 1.0), (fields.tag_text, TAG_BOOST)] {
            let scored = Box::new(BoostQuery::new(term_query(field, word), boost * weight));
            clauses.push((
                Occur::Should,
                Box::new(Coordinated::new(scored, coordination * weight)),
            ));
        }
    }
    Box::new(BooleanQuery::new(clauses))
}

/// The distinctive words of the session in the file `path`, best first (see the module's notes);
/// none for a session the index holds no conversation of.
fn distinctive_words(
    searcher: &Searcher,
    fields: &Fields,
    statistics: &LiveStatistics,
    path: &str,
) -> Result<Vec<Weighted>> {
    // Per word: its count in the session, and how many of the session's documents hold it.
    let mut counts: HashMap<String, (u32, u64)> = HashMap::new();
    for address in searcher.search(&of_file(fields, path, KIND_MESSAGE), &DocSetCollector)? {
        let doc: TantivyDocument = searcher.doc(address)?;
        let Some(text) = doc.get_first(fields.content).and_then(|v| v.as_str()) else {
            continue;
        };
        let mut seen: HashSet<String> = HashSet::new();
        for word in words(text) {
            let count = counts.entry(word.clone()).or_default();
            count.0 += 1;
            if seen.insert(word) {
                count.1 += 1;
            }
        }
    }
    let documents = statistics.total_num_docs()?;
    let mut weighted = Vec::new();
    for (word, (tf, own)) in counts {
        if word.chars().count() < 2
            || word.chars().all(|c| c.is_ascii_digit())
            || is_stopword(&word)
        {
            continue;
        }
        let df = statistics.doc_freq(&Term::from_field_text(fields.content, &word))?;
        if df <= own || df * 2 > documents {
            continue;
        }
        let idf = (1.0 + ((documents - df) as f64 + 0.5) / (df as f64 + 0.5)).ln();
        weighted.push(Weighted {
            word,
            weight: ((1.0 + f64::from(tf).ln()) * idf) as f32,
        });
    }
    weighted.sort_by(|a, b| {
        b.weight
            .total_cmp(&a.weight)
            .then_with(|| a.word.cmp(&b.word))
    });
    weighted.truncate(MAX_WORDS);
    if let Some(best) = weighted
        .first()
        .map(|w| w.weight)
        .filter(|best| *best > 0.0)
    {
        for w in &mut weighted {
            w.weight /= best;
        }
    }
    Ok(weighted)
}

/// The documents of one kind of the session file `path`.
fn of_file(fields: &Fields, path: &str, kind: &str) -> BooleanQuery {
    let file = Box::new(TermQuery::new(
        Term::from_field_text(fields.path, path),
        IndexRecordOption::Basic,
    ));
    BooleanQuery::new(vec![
        (Occur::Must, kind_is(fields, kind)),
        (Occur::Must, file),
    ])
}

/// The session ids a related search leaves out: the session's own (a copied file shares it), its
/// parent's, and its forks' (found by the file name their records name as their parent's).
fn family(
    searcher: &Searcher,
    fields: &Fields,
    session_id: &str,
    path: &str,
) -> Result<Vec<String>> {
    let mut ids = vec![session_id.to_owned()];
    let session_docs = searcher.search(&of_file(fields, path, KIND_SESSION), &DocSetCollector)?;
    for address in session_docs {
        let session = session_from_document(fields, &searcher.doc(address)?);
        ids.push(session.id);
        let Some(parent) = session.parent else {
            continue;
        };
        for parent_address in
            searcher.search(&of_file(fields, &parent, KIND_SESSION), &DocSetCollector)?
        {
            ids.push(session_from_document(fields, &searcher.doc(parent_address)?).id);
        }
    }
    if let Some(name) = Path::new(path).file_name().and_then(|name| name.to_str()) {
        ids.extend(
            read_records(
                searcher,
                fields,
                &Selector::ParentNames(vec![name.to_owned()]),
            )?
            .into_iter()
            .map(|record| record.session_id),
        );
    }
    ids.retain(|id| !id.is_empty());
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// Which of `words` each of the session files `paths` holds (in its conversation, tags or name),
/// in the order of `words`, by path key.
fn shared_words(
    searcher: &Searcher,
    fields: &Fields,
    words: &[String],
    paths: &[String],
) -> Result<ByPathKey<Vec<String>>> {
    let mut shared: ByPathKey<Vec<String>> = ByPathKey::default();
    if paths.is_empty() {
        return Ok(shared);
    }
    let wanted: HashSet<u64> = paths.iter().map(|path| path_key(path)).collect();
    for word in words {
        let in_text =
            |field: Field| -> (Occur, Box<dyn Query>) { (Occur::Should, term_query(field, word)) };
        let holding = BooleanQuery::new(vec![
            (
                Occur::Must,
                Box::new(BooleanQuery::new(vec![
                    in_text(fields.content),
                    in_text(fields.tag_text),
                ])),
            ),
            (Occur::Must, Box::new(AnyTerm::new(fields.path, paths))),
        ]);
        let weight = holding.weight(EnableScoring::disabled_from_searcher(searcher))?;
        let mut holders: HashSet<u64> = HashSet::new();
        for segment in searcher.segment_readers() {
            let keys = segment.fast_fields().u64("path_key")?;
            let alive = segment.alive_bitset();
            weight.for_each_no_score(segment, &mut |docs| {
                for &doc in docs {
                    if alive.is_none_or(|alive| alive.is_alive(doc)) {
                        holders.extend(keys.first(doc).filter(|key| wanted.contains(key)));
                    }
                }
            })?;
        }
        for key in holders {
            shared.entry(key).or_default().push(word.clone());
        }
    }
    Ok(shared)
}

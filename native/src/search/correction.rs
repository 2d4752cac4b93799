//! Typo tolerance. A word of the query that none of the searched text holds (`pyhton`,
//! `recieve`) is read as the word one edit away — a letter added, dropped or changed, or two
//! neighbouring letters swapped — that the most documents hold, as a "did you mean" would.
//!
//! A word the index holds is never changed, so a query without typos matches and ranks exactly as
//! before. Left alone too: quoted words (asked for as typed), the unfinished word of a
//! search-as-you-type (its completions stand for it), words under `MIN_CORRECTED_CHARS` letters
//! (one edit reaches too many others) and words with anything but ASCII letters (numbers, code,
//! pairs of CJK characters). At most `MAX_LOOKED_UP` words of a query are looked up: each look
//! takes up to milliseconds, and a query of many unknown words (a pasted log) is no typo.
//!
//! A caller that must get only the words it asked for (a script) asks for `Typos::Suggest`: the
//! query is searched as typed and the nearest words only named; `Typos::Off` looks nothing up.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use tantivy::index::SegmentId;
use tantivy::query::{Bm25StatisticsProvider, FuzzyTermQuery};
use tantivy::schema::Field;
use tantivy::{Opstamp, Term};

use crate::index::schema::Fields;
use crate::index::text_kind::TextKind;
use crate::search::query::ParsedQuery;
use crate::search::searchers::Searchers;
use crate::search::statistics::LiveStatistics;

const MIN_CORRECTED_CHARS: usize = 4;
const MAX_LOOKED_UP: usize = 4;
/// One edit: a single slip of the fingers. Two would reach unrelated words of a short query.
const EDITS: u8 = 1;
/// Nearest words found lately; emptied when it grows past this.
const MAX_CACHED: usize = 1024;

/// A word, the fields looked in, and the segments read (with their deletions): the same key
/// always has the same nearest word.
type NearestKey = (String, Vec<Field>, Vec<(SegmentId, Option<Opstamp>)>);

/// Looking through the dictionaries takes milliseconds with every kind of text (tool output holds
/// most of the words), and the snippets of a search's tool output hits ask again right after it.
fn cache() -> &'static Mutex<HashMap<NearestKey, Option<String>>> {
    static CACHE: OnceLock<Mutex<HashMap<NearestKey, Option<String>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// What a search does with a word that no searched text holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Typos {
    /// Reads it as its nearest word, and says so.
    #[default]
    Correct,
    /// Searches it as typed, and names its nearest word.
    Suggest,
    /// Searches it as typed, looking nothing up.
    Off,
}

impl Typos {
    /// `correct`, `suggest` or `off`.
    pub fn parse(name: &str) -> Option<Typos> {
        match name {
            "correct" => Some(Typos::Correct),
            "suggest" => Some(Typos::Suggest),
            "off" => Some(Typos::Off),
            _ => None,
        }
    }
}

/// A query with its typos read as other words.
pub struct Corrected {
    pub parsed: ParsedQuery,
    /// Each word read as another (with `Typos::Suggest`: that would have been), with that word, in
    /// query order, once each.
    pub read_as: Vec<(String, String)>,
}

/// `parsed` with each of its loose words that `searched` (fields of text) holds nowhere replaced
/// by its nearest word there, when it has one (with `Typos::Suggest`, `parsed` as it is, the
/// nearest words only named).
pub fn corrected(
    mut parsed: ParsedQuery,
    statistics: &LiveStatistics,
    searchers: &Searchers,
    searched: &[Field],
    typos: Typos,
) -> tantivy::Result<Corrected> {
    let mut nearest_of: HashMap<String, Option<String>> = HashMap::new();
    let mut read_as = Vec::new();
    if typos == Typos::Off {
        return Ok(Corrected { parsed, read_as });
    }
    for word in &parsed.loose {
        if nearest_of.contains_key(word)
            || parsed.prefix.as_ref() == Some(word)
            || !correctable(word)
            || held(word, statistics, searched)?
        {
            continue;
        }
        if nearest_of.len() == MAX_LOOKED_UP {
            break;
        }
        let nearest = remembered_nearest(word, statistics, searchers, searched)?;
        if let Some(nearest) = &nearest {
            read_as.push((word.clone(), nearest.clone()));
        }
        nearest_of.insert(word.clone(), nearest);
    }
    if typos == Typos::Correct {
        for word in &mut parsed.loose {
            if let Some(Some(nearest)) = nearest_of.get(word) {
                *word = nearest.clone();
            }
        }
    }
    Ok(Corrected { parsed, read_as })
}

/// The fields a search of `kinds` reads: each kind's text, and the tags and names of sessions.
pub fn searched_fields(kinds: &[TextKind], fields: &Fields) -> Vec<Field> {
    kinds
        .iter()
        .map(|kind| kind.field(fields))
        .chain([fields.tag_text])
        .collect()
}

fn correctable(word: &str) -> bool {
    word.len() >= MIN_CORRECTED_CHARS && word.bytes().all(|b| b.is_ascii_lowercase())
}

/// Whether a live document holds `word` in any of the fields.
fn held(word: &str, statistics: &LiveStatistics, searched: &[Field]) -> tantivy::Result<bool> {
    for &field in searched {
        if statistics.doc_freq(&Term::from_field_text(field, word))? > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `nearest`, from the cache when these segments were looked through for `word` before.
fn remembered_nearest(
    word: &str,
    statistics: &LiveStatistics,
    searchers: &Searchers,
    searched: &[Field],
) -> tantivy::Result<Option<String>> {
    let segments = searchers
        .parts()
        .flat_map(|(_, searcher)| {
            searcher
                .generation()
                .segments()
                .iter()
                .map(|(id, deletes)| (*id, *deletes))
        })
        .collect();
    let key: NearestKey = (word.to_owned(), searched.to_vec(), segments);
    if let Some(found) = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
    {
        return Ok(found.clone());
    }
    let found = nearest(word, statistics, searched)?;
    let mut cached = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if cached.len() >= MAX_CACHED {
        cached.clear();
    }
    cached.insert(key, found.clone());
    Ok(found)
}

/// The word one edit from `word` that the most documents hold in the fields (ties: the first in
/// byte order), counted over the term dictionaries, then checked against the live documents.
fn nearest(
    word: &str,
    statistics: &LiveStatistics,
    searched: &[Field],
) -> tantivy::Result<Option<String>> {
    let Some(&first) = searched.first() else {
        return Ok(None);
    };
    let automaton =
        FuzzyTermQuery::new(Term::from_field_text(first, word), EDITS, true).automaton()?;
    let mut counts: HashMap<Vec<u8>, u64> = HashMap::new();
    for &field in searched {
        for segment in statistics.segments(field) {
            let inverted = segment.inverted_index(field)?;
            let mut stream = inverted.terms().search(&automaton).into_stream()?;
            while stream.advance() {
                *counts.entry(stream.key().to_vec()).or_default() +=
                    u64::from(stream.value().doc_freq);
            }
        }
    }
    let mut ranked: Vec<(Vec<u8>, u64)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (bytes, _) in ranked {
        let Ok(candidate) = String::from_utf8(bytes) else {
            continue;
        };
        // Deleted documents still count in a dictionary: the word must be in a live one.
        if candidate != word && held(&candidate, statistics, searched)? {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

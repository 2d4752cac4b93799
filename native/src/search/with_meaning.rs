//! The meaning's side of a search by meaning, or by words and meaning (find.rs): what its thread
//! does beside the words' search, and which sessions it gives the fusion once the words are found.
//!
//! The thread embeds the query (with both, unless no text holds a word of it: then the words find
//! nothing, and nothing is fused). Where a session the words did not find may be a hit, it then
//! bounds each session's score for a first page of both (bounded.rs), or scores every vector;
//! else (one word and an unfinished one, or words no text holds and an unfinished one) the words'
//! sessions are bounded or scored after the words' search, and none when it found none. A query
//! of one word alone never comes here (find.rs).

use tantivy::{DocAddress, Searcher};

use crate::error::Result;
use crate::index::schema::Fields;
use crate::meaning::store::Store;
use crate::meaning::Model;
use crate::path_key::{ByPathKey, PathKeys};
use crate::search::bounded::{bounded, Fusing};
use crate::search::by_meaning::{
    meaning_bounds, meaning_candidates, meaning_coverage, Bounds, Coverage, Scored, UnitCache,
};
use crate::search::candidates::BySession;
use crate::search::fusion::{Recency, MEANING_FLOOR};
use crate::search::query::Filters;
use crate::search::sessions::{last_activities, session_documents};

/// A search by meaning (search/by_meaning.rs): the query's vector, the store of the units' vectors, and
/// whether the words are searched too (`both`), the two rankings of sessions then fused.
pub struct MeaningQuery<'a> {
    pub store: &'a Store,
    pub units: &'a UnitCache,
    pub vector: QueryVector<'a>,
    pub words: bool,
}

/// The query's vector: given, or embedded by the model on the meaning's thread while the words'
/// search runs on the other (a cold process then waits for no embedding of its own).
pub enum QueryVector<'a> {
    Given(&'a [f32]),
    Embedded { model: &'a Model, text: &'a str },
}

/// What the meaning's thread gives: every session scored, each session's bound (bounded.rs), or
/// nothing yet (the words' sessions are scored after the words).
pub enum MeaningFound {
    Scored(BySession, Coverage),
    Bounded(Bounds),
    Later,
}

/// A search's meaning: the query, where it searches, and what the search is.
pub struct MeaningSide<'a> {
    pub searcher: &'a Searcher,
    pub fields: &'a Fields,
    pub meaning: &'a MeaningQuery<'a>,
    pub filters: &'a Filters,
    /// A first page (no `After`): only then are sessions bounded.
    pub first_page: bool,
    /// Whether a session the words did not find may be a hit (find.rs: a query of two words or
    /// more, one of them held by some text).
    pub may_answer: bool,
    /// Whether the words' search may find a session: some text holds a word of the query, or it
    /// ends in a prefix to complete.
    pub words_may_find: bool,
}

/// The session document of each session the fusion may show: its last activity and address.
type SessionDocs = ByPathKey<(i64, DocAddress)>;

impl MeaningSide<'_> {
    /// What the meaning's thread does beside the words' search: the query's vector, and every
    /// session scored or bounded, or nothing yet. With both, a query the words can find nothing
    /// of is not embedded: the fusion then has no session to weigh.
    pub fn beside_words(&self) -> Result<(Option<Vec<f32>>, MeaningFound)> {
        let both = self.meaning.words;
        if both && !self.words_may_find {
            return Ok((None, MeaningFound::Later));
        }
        let vector = self.vector();
        if both && !self.may_answer {
            return Ok((Some(vector), MeaningFound::Later));
        }
        let bounds = match both && self.first_page {
            true => self.bounds(&vector, Scored::All)?,
            false => None,
        };
        let found = match bounds {
            Some(bounds) => MeaningFound::Bounded(bounds),
            None => {
                let (found, coverage) = self.candidates(&vector, Scored::All)?;
                MeaningFound::Scored(found, coverage)
            }
        };
        Ok((Some(vector), found))
    }

    /// The query's vector: given, or embedded.
    fn vector(&self) -> Vec<f32> {
        match self.meaning.vector {
            QueryVector::Given(vector) => vector.to_vec(),
            QueryVector::Embedded { model, text } => model.embed(text),
        }
    }

    /// The candidates of the fusion, once the words found `by_words`: with what the meaning's
    /// thread `found`, the sessions that decide the first `limit` (bounded.rs) or every session
    /// found; the coverage; and the session documents of those sessions.
    pub fn fusing(
        &self,
        by_words: BySession,
        (vector, found): (Option<Vec<f32>>, MeaningFound),
        limit: usize,
        full: Option<f64>,
        recency: Recency,
    ) -> Result<(Fusing, Coverage, SessionDocs)> {
        let vector = match vector {
            Some(vector) => vector,
            // Not embedded, and the words found nothing either (they could not).
            None if by_words.is_empty() => {
                let (store, units) = (self.meaning.store, self.meaning.units);
                let coverage =
                    meaning_coverage(self.searcher, self.fields, store, units, self.filters)?;
                let fusing = Fusing {
                    words: by_words,
                    meaning: BySession::default(),
                    words_best: None,
                };
                return Ok((fusing, coverage, SessionDocs::default()));
            }
            None => self.vector(),
        };
        let words_found: PathKeys = by_words.keys().copied().collect();
        // With a query meaning may not answer (`may_answer`), the words' sessions are bounded as
        // a first page's every session is.
        let found = match found {
            MeaningFound::Later if self.first_page => {
                match self.bounds(&vector, Scored::Only(&words_found))? {
                    Some(bounds) => MeaningFound::Bounded(bounds),
                    None => MeaningFound::Later,
                }
            }
            found => found,
        };
        let (searcher, fields) = (self.searcher, self.fields);
        let (by_meaning, coverage) = match found {
            MeaningFound::Bounded(bounds) => {
                let wanted: PathKeys = by_words
                    .keys()
                    .chain(
                        bounds
                            .by_session
                            .iter()
                            .filter(|(_, bound)| self.may_answer && **bound >= MEANING_FLOOR)
                            .map(|(key, _)| key),
                    )
                    .copied()
                    .collect();
                let session_docs = session_documents(searcher, fields, &wanted)?;
                let fusing = bounded(
                    by_words,
                    &bounds,
                    self.may_answer,
                    limit,
                    full.unwrap_or(1.0),
                    recency,
                    &last_activities(&session_docs),
                    |sessions| self.scored(&vector, sessions),
                )?;
                return Ok((fusing, bounds.coverage, session_docs));
            }
            MeaningFound::Scored(found, coverage) => (found, coverage),
            MeaningFound::Later => {
                let (store, units) = (self.meaning.store, self.meaning.units);
                (
                    self.scored(&vector, Scored::Only(&words_found))?,
                    meaning_coverage(searcher, fields, store, units, self.filters)?,
                )
            }
        };
        // With both, a session only the meaning found is a hit when it may answer and is near
        // enough; by meaning alone, every session found.
        let by_meaning: BySession = match self.meaning.words {
            true => by_meaning
                .into_iter()
                .filter(|(key, found)| {
                    by_words.contains_key(key)
                        || (self.may_answer
                            && found.best.is_some_and(|best| best.score >= MEANING_FLOOR))
                })
                .collect(),
            false => by_meaning,
        };
        let wanted: PathKeys = by_words.keys().chain(by_meaning.keys()).copied().collect();
        let session_docs = session_documents(searcher, fields, &wanted)?;
        let fusing = Fusing {
            words: by_words,
            meaning: by_meaning,
            words_best: None,
        };
        Ok((fusing, coverage, session_docs))
    }

    /// Each session's bound (`meaning_bounds`) of the sessions `bounded`; None before outlines.
    fn bounds(&self, vector: &[f32], bounded: Scored) -> Result<Option<Bounds>> {
        let (store, units) = (self.meaning.store, self.meaning.units);
        meaning_bounds(
            self.searcher,
            self.fields,
            store,
            units,
            vector,
            self.filters,
            bounded,
        )
    }

    /// The meaning's sessions (all, or some), scored as a search of all scores them.
    fn scored(&self, vector: &[f32], sessions: Scored) -> Result<BySession> {
        if let Scored::Only(sessions) = sessions {
            if sessions.is_empty() {
                return Ok(BySession::default());
            }
        }
        Ok(self.candidates(vector, sessions)?.0)
    }

    /// The meaning's candidates of the sessions `scored` (`meaning_candidates`).
    fn candidates(&self, vector: &[f32], scored: Scored) -> Result<(BySession, Coverage)> {
        let (store, units) = (self.meaning.store, self.meaning.units);
        let (searcher, fields, filters) = (self.searcher, self.fields, self.filters);
        meaning_candidates(searcher, fields, store, units, vector, filters, scored)
    }
}

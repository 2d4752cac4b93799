//! Candidates: what a search finds before it ranks sessions, keyed by session file and message.
//!
//! A candidate source answers with the best candidates of each session file it found
//! (`SessionCandidates`); fusion (fusion.rs) ranks the sessions from them. Today's one source is
//! the word index (`word_candidates`): each index part searched with its part of the query, all
//! weighted with one set of BM25 statistics, each document scored once and kept only if it is
//! its session's best (best_per_session.rs), once no better than the best `limit` sessions' need
//! (session_floor.rs) not even looked up. Nothing is cut to a window of documents first, so a
//! session with thousands of matching messages cannot crowd out the others.

use tantivy::query::{BooleanQuery, ConstScoreQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocAddress, Score, Term};

use crate::error::Result;
use crate::index::part::Part;
use crate::path_key::ByPathKey;
use crate::search::best_per_session::collect_segment;
use crate::search::searchers::Searchers;
use crate::search::session_floor::SessionFloor;
use crate::search::statistics::LiveStatistics;

/// One document a source found: a message, or a session document (whose tags matched).
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    /// The message's index in its session; `None` for the session document.
    pub message: Option<u64>,
    pub score: Score,
    /// Where the document is kept, to read its text for a snippet.
    pub origin: Origin,
}

/// Where a candidate's document is: which index part, and where in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    pub part: Part,
    pub address: DocAddress,
}

impl Candidate {
    /// Whether this candidate is better than `other`: a higher score, and among equal scores the
    /// later message (a message before the session document), then the main part. Nothing here
    /// depends on segments, so an index kept up to date picks what a rebuild would.
    fn beats(&self, other: &Candidate) -> bool {
        let order = |c: &Candidate| (c.message, c.origin.part == Part::Main);
        self.score.total_cmp(&other.score).then_with(|| order(self).cmp(&order(other))).is_gt()
    }
}

/// The best candidates of one session file: its best document, and its best message (the two
/// differ when the session's tags outscore every message).
#[derive(Debug, Default, Clone, Copy)]
pub struct SessionCandidates {
    pub best: Option<Candidate>,
    pub best_message: Option<Candidate>,
}

impl SessionCandidates {
    pub fn offer(&mut self, candidate: Candidate) {
        let beats = |slot: &Option<Candidate>| slot.as_ref().is_none_or(|held| candidate.beats(held));
        if candidate.message.is_some() && beats(&self.best_message) {
            self.best_message = Some(candidate);
        }
        if beats(&self.best) {
            self.best = Some(candidate);
        }
    }

    /// Keeps the better of each, from another segment, part or source.
    pub fn merge(&mut self, other: SessionCandidates) {
        for candidate in [other.best, other.best_message].into_iter().flatten() {
            self.offer(candidate);
        }
    }
}

/// The candidates of each session file found, by path key.
pub type BySession = ByPathKey<SessionCandidates>;

/// Merges `from` into `into`, session by session.
pub fn merge_sessions(into: &mut BySession, from: BySession) {
    for (key, candidates) in from {
        into.entry(key).or_default().merge(candidates);
    }
}

/// The word index as a source: each part searched with its query (parts not read are skipped).
/// Documents that cannot change the best `floor` sessions are skipped, so a session kept may lack
/// its best message when its tags outscore it: `best_message_of` finds it again.
/// (Reading the two parts on two threads was tried: no faster on two cores.)
pub fn word_candidates(searchers: &Searchers, statistics: &LiveStatistics, queries: &[(Part, Box<dyn Query>)], floor: &mut SessionFloor) -> Result<BySession> {
    let mut found = BySession::default();
    for (part, query) in queries {
        let Some(searcher) = searchers.of(*part) else { continue };
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(statistics, searcher))?;
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            collect_segment(weight.as_ref(), *part, ord as u32, segment, &mut found, floor)?;
        }
    }
    Ok(found)
}

/// The best message of one session file among the documents `queries` match, none skipped.
pub fn best_message_of(searchers: &Searchers, statistics: &LiveStatistics, queries: &[(Part, Box<dyn Query>)], path_key: Field, key: u64) -> Result<Option<Candidate>> {
    let of_session: Box<dyn Query> = Box::new(ConstScoreQuery::new(Box::new(TermQuery::new(Term::from_field_u64(path_key, key), IndexRecordOption::Basic)), 0.0));
    let mut found = BySession::default();
    for (part, query) in queries {
        let Some(searcher) = searchers.of(*part) else { continue };
        let query = BooleanQuery::new(vec![(Occur::Must, query.box_clone()), (Occur::Must, of_session.box_clone())]);
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(statistics, searcher))?;
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            collect_segment(weight.as_ref(), *part, ord as u32, segment, &mut found, &mut SessionFloor::none())?;
        }
    }
    Ok(found.get(&key).and_then(|candidates| candidates.best_message))
}

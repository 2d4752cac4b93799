//! Candidates: what a search finds before it ranks sessions, keyed by session file and message.
//!
//! A candidate source answers with the best candidates of each session file it found
//! (`SessionCandidates`); fusion (fusion.rs) ranks the sessions from them. The sources are the
//! word index (by_words.rs) and the meaning index (by_meaning.rs).

use tantivy::{DocAddress, Score};

use crate::index::part::Part;
use crate::path_key::ByPathKey;

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
        self.score
            .total_cmp(&other.score)
            .then_with(|| order(self).cmp(&order(other)))
            .is_gt()
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
        let beats =
            |slot: &Option<Candidate>| slot.as_ref().is_none_or(|held| candidate.beats(held));
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

//! Fusion and ranking of sessions: the candidates of every source (candidates.rs), merged per
//! session file, and the sessions ordered by score.
//!
//! A session's score is its best candidate's score × `1 + w·exp(-age / 7 days)`, where age is
//! the time since the session's last message. Equal scores fall to the more recent session, then
//! to the order of path keys (a hash of the path): nothing that depends on how the index's
//! segments came to be, so an index kept up to date ranks exactly as a rebuild would.

use crate::path_key::ByPathKey;
use crate::search::candidates::{merge_sessions, BySession, SessionCandidates};

pub const RECENCY_HALF_LIFE_MS: f64 = 7.0 * 24.0 * 3600.0 * 1000.0;

/// A session as ranked: its path key, score, last activity and candidates.
pub struct RankedSession {
    pub key: u64,
    pub score: f64,
    pub candidates: SessionCandidates,
}

/// How recency weighs in: the time it is measured from (ms since epoch), and `w`.
#[derive(Debug, Clone, Copy)]
pub struct Recency {
    pub now: i64,
    pub weight: f64,
}

/// The candidates of every source, merged per session.
pub fn fuse(sources: Vec<BySession>) -> BySession {
    let mut sources = sources.into_iter();
    let mut fused = sources.next().unwrap_or_default();
    for source in sources {
        merge_sessions(&mut fused, source);
    }
    fused
}

/// The best `limit` sessions, best first; `last_activity` is each session's last message time (a
/// session without one is left out: its session document is missing, the index is damaged).
pub fn rank(
    sessions: BySession,
    last_activity: &ByPathKey<i64>,
    recency: Recency,
    limit: usize,
) -> Vec<RankedSession> {
    let mut ranked: Vec<(RankedSession, i64)> = sessions
        .into_iter()
        .filter_map(|(key, candidates)| {
            let best = candidates.best?;
            let last = *last_activity.get(&key)?;
            let score = f64::from(best.score) * recency_factor(recency.now, last, recency.weight);
            Some((
                RankedSession {
                    key,
                    score,
                    candidates,
                },
                last,
            ))
        })
        .collect();
    let order = |(a, a_last): &(RankedSession, i64), (b, b_last): &(RankedSession, i64)| {
        b.score
            .total_cmp(&a.score)
            .then(b_last.cmp(a_last))
            .then(a.key.cmp(&b.key))
    };
    if ranked.len() > limit {
        ranked.select_nth_unstable_by(limit, order);
        ranked.truncate(limit);
    }
    ranked.sort_by(order);
    ranked.into_iter().map(|(session, _)| session).collect()
}

pub fn recency_factor(now: i64, last_activity: i64, weight: f64) -> f64 {
    let age = (now - last_activity).max(0) as f64;
    1.0 + weight * (-age / RECENCY_HALF_LIFE_MS).exp()
}

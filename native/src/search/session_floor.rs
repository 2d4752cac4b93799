//! The score a document must beat to matter to a search that keeps its best `limit` sessions.
//!
//! A session's final score is its best document's score × a recency factor in (1, 1 + w]
//! (fusion.rs). Once `limit` distinct sessions have been found with documents scoring at least
//! `floor`, each of them ends above `floor`, so a document whose score × (1 + w) stays below
//! `floor` can neither bring a new session into the top `limit` nor be the best of one that is
//! there. Such documents are skipped before they are looked up at all.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tantivy::Score;

/// Scores are compared at this relative margin below the exact bound, so that float rounding
/// (scores are f32, the final score f64) never skips a document that could tie.
const MARGIN: f64 = 1e-6;

pub struct SessionFloor {
    limit: usize,
    /// 1 + w: the most recency can multiply a score by.
    headroom: f64,
    /// The first score seen of each of the best `limit` sessions admitted, lowest on top. A
    /// session's best only grows, so each stays a lower bound of its session's final score.
    lowest: BinaryHeap<Reverse<OrderedScore>>,
}

impl SessionFloor {
    pub fn new(limit: usize, recency_weight: f64) -> SessionFloor {
        SessionFloor {
            limit,
            headroom: 1.0 + recency_weight.max(0.0),
            lowest: BinaryHeap::with_capacity(limit + 1),
        }
    }

    /// A floor that skips nothing (`limit` 0 reads as no limit).
    pub fn none() -> SessionFloor {
        SessionFloor::new(0, 0.0)
    }

    /// Notes a session seen for the first time, with the score of its first document.
    pub fn admit(&mut self, score: Score) {
        if self.limit == 0 {
            return;
        }
        self.lowest.push(Reverse(OrderedScore(score)));
        if self.lowest.len() > self.limit {
            self.lowest.pop();
        }
    }

    /// The document score at or below which nothing can change the top `limit` sessions.
    pub fn threshold(&self) -> Score {
        if self.limit == 0 || self.lowest.len() < self.limit {
            return Score::MIN;
        }
        let Reverse(OrderedScore(floor)) = self
            .lowest
            .peek()
            .copied()
            .unwrap_or(Reverse(OrderedScore(Score::MIN)));
        let bound = f64::from(floor) / self.headroom * (1.0 - MARGIN);
        // Rounded down to an f32, so that every score it lets pass is below the exact bound.
        let threshold = bound as Score;
        if f64::from(threshold) > bound {
            threshold.next_down()
        } else {
            threshold
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct OrderedScore(Score);

impl Eq for OrderedScore {}

impl PartialOrd for OrderedScore {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedScore {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_nothing_until_limit_sessions_are_seen() {
        let mut floor = SessionFloor::new(2, 0.2);
        assert_eq!(floor.threshold(), Score::MIN);
        floor.admit(3.0);
        assert_eq!(floor.threshold(), Score::MIN);
        floor.admit(6.0);
        // The lower of the two, 3, divided by the most recency can add.
        let threshold = floor.threshold();
        assert!(threshold < 2.5 && threshold > 2.4999, "{threshold}");
        floor.admit(12.0);
        assert!(floor.threshold() < 5.0 && floor.threshold() > 4.9999);
        floor.admit(1.0);
        assert!(
            floor.threshold() < 5.0 && floor.threshold() > 4.9999,
            "a lower session does not lower the floor"
        );
    }

    #[test]
    fn a_document_that_could_tie_is_never_skipped() {
        let mut floor = SessionFloor::new(1, 0.2);
        floor.admit(1.2);
        // 1.0 × 1.2 could equal the admitted session's final score: it must pass.
        assert!(floor.threshold() < 1.0);
    }

    #[test]
    fn no_limit_skips_nothing() {
        let mut floor = SessionFloor::none();
        floor.admit(9.0);
        assert_eq!(floor.threshold(), Score::MIN);
    }
}

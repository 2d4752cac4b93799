//! Ranking and fusion of sessions. Each candidate source (candidates.rs) — the words
//! (by_words.rs) and the meaning (by_meaning.rs) — ranks the sessions it found by its own scores
//! (`rank`); `fuse` makes one ranking of one source or of both.
//!
//! A source ranks a session by its best candidate's score × `1 + w·exp(-age / 7 days)`, where age
//! is the time since the session's last message. Equal scores fall to the more recent session,
//! then to the order of path keys (a hash of the path): nothing that depends on how the index's
//! segments came to be, so an index kept up to date ranks exactly as a rebuild would.
//!
//! Fused, a session's score is the sum of what each source that found it gives (`Scale`): the
//! meaning its cosine (× recency), the words a share of a whole query's match, at most
//! `WORDS_WEIGHT`, plus a lead when they hold most of the query. A lone source's scores are kept
//! as they are.

use crate::path_key::ByPathKey;
use crate::search::candidates::{BySession, SessionCandidates};

pub const RECENCY_HALF_LIFE_MS: f64 = 7.0 * 24.0 * 3600.0 * 1000.0;

/// The weight of the words beside the meaning: a match of every word of the query adds this much to
/// a session's cosine, a match of fewer words less. On the paraphrase eval (bench/meaning-eval,
/// BENCHMARKS.md) 0.2 keeps the keyword queries' R@1 at the words' own; more gives paraphrases
/// back to word matches of a word or two, less loses keyword queries. Reciprocal rank fusion was
/// tried first: every word match, however weak, outranked the meaning's (paraphrase R@5 11%,
/// keyword R@1 3 points below the words').
pub const WORDS_WEIGHT: f64 = 0.2;
/// A session whose words score more than this share of a whole query's match...
const STRONG_WORDS_FROM: f64 = 0.4;
/// ...gets this much more for each share beyond it: when most of what the query's words tell is in
/// one of its messages, the words lead the ranking and the meaning orders what they leave level.
/// See BENCHMARKS.md. Where no session's words score that much, the query is not one the words
/// answer (a paraphrase): every session's share of `WORDS_WEIGHT` is scaled by the best share over
/// this one, so a word or two held by chance lifts a session less than a small lead in meaning.
const STRONG_WORDS_WEIGHT: f64 = 5.0;
/// How deep into the meaning's ranking a related session the words found too is said to match by
/// meaning (`Near::Depth`): every session has some cosine with the session asked about.
pub const MEANING_DEPTH: usize = 100;

/// With `both`, a session the words did not find is a hit only if its score by meaning (unit.rs,
/// before recency) reaches this: every session has a nearest message, so without it a query about
/// nothing in the sessions would still find ten, and a word one session holds would bring nine
/// strangers with it. Measured by bench/meaning-floor.mjs (tuning corpus, 100 distractors, seed
/// 1): the best session of 28 queries about nothing there ("banana bread recipe", "yoga poses for
/// back pain", "xyzzy plugh") scores 0.09–0.35, median 0.155, p95 0.246 (the one above, "painting a
/// watercolor sunset", finds a session about a page's first paint); a paraphrase's own session
/// 0.227–0.553, five of 61 under 0.25. The floor is that p95, rounded up.
pub const MEANING_FLOOR: f32 = 0.25;

/// How `both` says a session the words found is found by meaning too: near enough that the
/// meaning alone would list it.
pub const NEAR: Near = Near::Score(MEANING_FLOOR);

/// A session as one source ranked it: its path key, score and candidates.
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

/// Which source found a hit's session: the words, the meaning, or both.
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

/// How a source's scores enter a fusion of two.
#[derive(Debug, Clone, Copy)]
pub enum Scale {
    /// Word scores, read as a share of `full`, what a match of the whole query scores (about): a
    /// session holding one word of a paraphrase is lifted by a fraction of `WORDS_WEIGHT`, one
    /// holding most of a word query leads. Without it (related sessions), the share of the best
    /// score found, and no lead.
    Words { full: Option<f64> },
    /// Cosines, as they are; a session the words found too is said to be found by meaning when
    /// it is `near`.
    Meaning { near: Near },
}

/// When a session the words found is near enough to be said found by meaning too.
#[derive(Debug, Clone, Copy)]
pub enum Near {
    /// Within the first this many of the meaning's ranking.
    Depth(usize),
    /// With a score by meaning (before recency) of at least this: what a session only the meaning
    /// found needs to be a hit (find.rs, `MEANING_FLOOR`), so it asks of that session alone.
    Score(f32),
}

impl Near {
    fn holds(self, place: usize, candidates: &SessionCandidates) -> bool {
        match self {
            Near::Depth(depth) => place < depth,
            Near::Score(floor) => candidates.best.is_some_and(|best| best.score >= floor),
        }
    }
}

impl Scale {
    pub(crate) fn of(self, score: f64, best: f64) -> f64 {
        match self {
            Scale::Words { full: Some(full) } => {
                let share = score / full;
                // How far the words answer the query at all: below a strong match in the best
                // session, a word or two held here is mostly chance.
                let answered = (best / full / STRONG_WORDS_FROM).min(1.0);
                WORDS_WEIGHT * share.min(1.0) * answered
                    + STRONG_WORDS_WEIGHT * (share - STRONG_WORDS_FROM).max(0.0)
            }
            Scale::Words { full: None } => WORDS_WEIGHT * (score / best).min(1.0),
            Scale::Meaning { .. } => score,
        }
    }

    fn found_by(self) -> MatchedBy {
        match self {
            Scale::Words { .. } => MatchedBy::Words,
            Scale::Meaning { .. } => MatchedBy::Meaning,
        }
    }
}

/// One source's ranking, best first, and how its scores weigh.
pub struct Source {
    pub sessions: Vec<RankedSession>,
    pub scale: Scale,
    /// The best score of the source's whole ranking, where `sessions` is a part of it (`None`: the
    /// first of `sessions`).
    pub best: Option<f64>,
}

/// A session as it will be shown: its fused score and, from each source that found it, its
/// candidates.
pub struct Ranked {
    pub key: u64,
    pub score: f64,
    pub words: Option<SessionCandidates>,
    pub meaning: Option<SessionCandidates>,
    pub matched_by: MatchedBy,
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

/// The sources' rankings as one, the best `limit` first. A lone source keeps its scores; two are
/// summed as each `Scale` says. Equal scores fall to the more recent session, then to the path key,
/// as `rank` orders them. A session found by both is said to match by meaning as the meaning's
/// `Near` says (the meaning's source comes after the words').
pub fn fuse(sources: Vec<Source>, last_activity: &ByPathKey<i64>, limit: usize) -> Vec<Ranked> {
    let alone = sources.len() == 1;
    let mut sessions: ByPathKey<Ranked> = ByPathKey::default();
    for Source {
        sessions: ranking,
        scale,
        best,
    } in sources
    {
        let best = best.unwrap_or_else(|| ranking.first().map_or(1.0, |s| s.score));
        for (place, session) in ranking.into_iter().enumerate() {
            let score = if alone {
                session.score
            } else {
                scale.of(session.score, best)
            };
            let entry = sessions.entry(session.key).or_insert(Ranked {
                key: session.key,
                score: 0.0,
                words: None,
                meaning: None,
                matched_by: scale.found_by(),
            });
            entry.score += score;
            match scale {
                Scale::Meaning { near } => {
                    entry.matched_by = match entry.words {
                        Some(_) if near.holds(place, &session.candidates) => MatchedBy::Both,
                        Some(_) => MatchedBy::Words,
                        None => MatchedBy::Meaning,
                    };
                    entry.meaning = Some(session.candidates);
                }
                Scale::Words { .. } => {
                    entry.words = Some(session.candidates);
                    if entry.matched_by == MatchedBy::Meaning {
                        entry.matched_by = MatchedBy::Both;
                    }
                }
            }
        }
    }
    let mut ranked: Vec<Ranked> = sessions.into_values().collect();
    let last = |key: &u64| last_activity.get(key).copied().unwrap_or(0);
    let order = |a: &Ranked, b: &Ranked| {
        b.score
            .total_cmp(&a.score)
            .then(last(&b.key).cmp(&last(&a.key)))
            .then(a.key.cmp(&b.key))
    };
    if ranked.len() > limit {
        ranked.select_nth_unstable_by(limit, order);
        ranked.truncate(limit);
    }
    ranked.sort_by(order);
    ranked
}

pub fn recency_factor(now: i64, last_activity: i64, weight: f64) -> f64 {
    let age = (now - last_activity).max(0) as f64;
    1.0 + weight * (-age / RECENCY_HALF_LIFE_MS).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(key: u64, score: f64) -> RankedSession {
        RankedSession {
            key,
            score,
            candidates: SessionCandidates::default(),
        }
    }

    /// The keys of `fuse`, best first, for sessions 1..: their words' scores (None: not found by
    /// the words) and cosines, with a whole query's match scoring 10.
    fn order(sessions: &[(Option<f64>, f64)]) -> Vec<u64> {
        let keys = 1..=sessions.len() as u64;
        let words = keys
            .clone()
            .zip(sessions)
            .filter_map(|(key, (words, _))| words.map(|score| ranked(key, score)))
            .collect();
        let meaning = keys
            .zip(sessions)
            .map(|(key, (_, cosine))| ranked(key, *cosine))
            .collect();
        let sources = vec![
            Source {
                sessions: words,
                scale: Scale::Words { full: Some(10.0) },
                best: None,
            },
            Source {
                sessions: meaning,
                scale: Scale::Meaning {
                    near: Near::Depth(MEANING_DEPTH),
                },
                best: None,
            },
        ];
        fuse(sources, &ByPathKey::default(), 10)
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
        // 1 holds a fifth of the query's weight of words, the most any session holds: half of
        // 0.2 × a fifth, as no session holds a strong match (STRONG_WORDS_FROM).
        assert_eq!(order(&[(Some(2.0), 0.5), (None, 0.6)]), vec![2, 1]);
        assert_eq!(order(&[(Some(2.0), 0.5), (None, 0.53)]), vec![2, 1]);
        assert_eq!(order(&[(Some(2.0), 0.5), (None, 0.51)]), vec![1, 2]);
    }

    #[test]
    fn a_word_or_two_lift_in_full_where_another_session_holds_the_query() {
        // 1 holds the whole query; 2 a fifth of it, and 0.2 × a fifth lifts it above 3.
        assert_eq!(
            order(&[(Some(10.0), 0.1), (Some(2.0), 0.5), (None, 0.535)]),
            vec![1, 2, 3]
        );
    }

    #[test]
    fn a_lone_source_keeps_its_scores_and_says_it_found_them() {
        let fused = fuse(
            vec![Source {
                sessions: vec![ranked(1, 7.5), ranked(2, 3.0)],
                scale: Scale::Words { full: Some(10.0) },
                best: None,
            }],
            &ByPathKey::default(),
            10,
        );
        let scores: Vec<(u64, f64, MatchedBy)> = fused
            .iter()
            .map(|r| (r.key, r.score, r.matched_by))
            .collect();
        assert_eq!(
            scores,
            vec![(1, 7.5, MatchedBy::Words), (2, 3.0, MatchedBy::Words)]
        );
    }

    #[test]
    fn a_session_the_words_found_is_found_by_meaning_too_when_near_enough_alone() {
        let near = |key, cosine: f32| {
            let mut session = ranked(key, f64::from(cosine));
            session.candidates.best = Some(crate::search::candidates::Candidate {
                message: Some(0),
                score: cosine,
                origin: crate::search::candidates::Origin {
                    part: crate::index::part::Part::Main,
                    address: tantivy::DocAddress::new(0, 0),
                },
            });
            session
        };
        let fused = fuse(
            vec![
                Source {
                    sessions: vec![ranked(1, 10.0), ranked(2, 10.0)],
                    scale: Scale::Words { full: Some(10.0) },
                    best: None,
                },
                Source {
                    // The first of the meaning's ranking, yet under the floor.
                    sessions: vec![near(2, MEANING_FLOOR - 0.01), near(1, MEANING_FLOOR - 0.02)],
                    scale: Scale::Meaning { near: NEAR },
                    best: None,
                },
            ],
            &ByPathKey::default(),
            10,
        );
        let by = |key| fused.iter().find(|r| r.key == key).unwrap().matched_by;
        assert_eq!((by(1), by(2)), (MatchedBy::Words, MatchedBy::Words));
        let fused = fuse(
            vec![
                Source {
                    sessions: vec![ranked(1, 10.0)],
                    scale: Scale::Words { full: Some(10.0) },
                    best: None,
                },
                Source {
                    sessions: vec![near(1, MEANING_FLOOR), near(3, 0.9)],
                    scale: Scale::Meaning { near: NEAR },
                    best: None,
                },
            ],
            &ByPathKey::default(),
            10,
        );
        let by = |key| fused.iter().find(|r| r.key == key).unwrap().matched_by;
        assert_eq!((by(1), by(3)), (MatchedBy::Both, MatchedBy::Meaning));
    }

    #[test]
    fn a_session_given_a_part_of_the_words_ranking_is_weighed_against_its_whole_best() {
        let words = |best| {
            fuse(
                vec![
                    Source {
                        sessions: vec![ranked(2, 2.0)],
                        scale: Scale::Words { full: Some(10.0) },
                        best,
                    },
                    Source {
                        sessions: vec![ranked(3, 0.1)],
                        scale: Scale::Meaning { near: NEAR },
                        best: None,
                    },
                ],
                &ByPathKey::default(),
                10,
            )
            .iter()
            .find(|r| r.key == 2)
            .unwrap()
            .score
        };
        // A fifth of a whole match: lifted in full only where another session holds the query.
        assert!(words(Some(10.0)) > words(None));
        assert_eq!(words(Some(2.0)), words(None));
    }

    #[test]
    fn a_session_deep_in_the_meanings_ranking_matched_by_words_alone() {
        let meaning: Vec<RankedSession> = (0..=MEANING_DEPTH as u64)
            .map(|key| ranked(key + 10, 0.5 - key as f64 * 0.001))
            .collect();
        let deepest = MEANING_DEPTH as u64 + 10;
        let fused = fuse(
            vec![
                Source {
                    sessions: vec![ranked(10, 10.0), ranked(deepest, 10.0)],
                    scale: Scale::Words { full: Some(10.0) },
                    best: None,
                },
                Source {
                    sessions: meaning,
                    scale: Scale::Meaning {
                        near: Near::Depth(MEANING_DEPTH),
                    },
                    best: None,
                },
            ],
            &ByPathKey::default(),
            usize::MAX,
        );
        let by = |key| fused.iter().find(|r| r.key == key).unwrap().matched_by;
        assert_eq!(by(10), MatchedBy::Both);
        assert_eq!(by(deepest), MatchedBy::Words);
        assert_eq!(by(11), MatchedBy::Meaning);
    }
}

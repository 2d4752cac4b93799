//! The first page of `both` without a product with every vector: each session's score by meaning
//! has a bound (by_meaning.rs, `meaning_bounds`: its opening's cosine, its outline's, its longest
//! vector's), so each candidate's fused score has one. The first few candidates by bound are
//! scored, then every candidate whose bound reaches the last score of the page they make, until
//! the page's last session outscores every bound left. What the page shows is what scoring every
//! session gives, in the same order with the same scores: a session left unscored could not have
//! been on it. Where too many candidates' bounds reach the page (the words' scores level and the
//! meaning close), every session is scored in one pass, as without bounds.
//!
//! On M (2,000 sessions, 65 k vectors), a query whose words lead scores a few dozen sessions'
//! messages instead of every message held (25 MB of codes read a search).

use crate::error::Result;
use crate::path_key::{ByPathKey, PathKeys};
use crate::search::by_meaning::{Bounds, Scored};
use crate::search::candidates::BySession;
use crate::search::fusion::{fuse, rank, Recency, Scale, Source, MEANING_FLOOR, NEAR};

/// The candidates of a fusion of words and meaning: each source's sessions, and the best score of
/// the words' whole ranking (`None`: the first of those given).
pub struct Fusing {
    pub words: BySession,
    pub meaning: BySession,
    pub words_best: Option<f64>,
}

/// Scoring some sessions reads their vectors where they lie, a few times the cost of each vector
/// read in one pass over all; past this share of the sessions held, all are scored in that pass.
/// On M (65 k vectors, I): ~200 ns a vector one at a time against ~75 in the pass, so a third of
/// the sessions one at a time costs about the pass (on L, 1,752 of 9,920 sessions alone and the
/// pass measured alike, within the machine's noise).
const SCORED_ALONE_AT_MOST: usize = 3;

/// The sessions that decide the first `limit` of a fusion of `words` (every session the words
/// found, their whole match worth `full`) and the meaning (`bounds`: the most each session with a
/// message in scope could score by meaning, before recency); sessions only the meaning finds are
/// candidates when `may_answer` and their bound reaches `MEANING_FLOOR`. `scored` gives the
/// sessions' scores by meaning, as a search of all would.
///
/// The first few by bound are scored; the page they make is a floor for the last score the whole
/// page will show, so every candidate whose bound reaches it is scored next, at once, or every
/// session in one pass where they are too many.
#[allow(clippy::too_many_arguments)]
pub fn bounded(
    words: BySession,
    bounds: &Bounds,
    may_answer: bool,
    limit: usize,
    full: f64,
    recency: Recency,
    last_activity: &ByPathKey<i64>,
    mut scored: impl FnMut(Scored) -> Result<BySession>,
) -> Result<Fusing> {
    let words_ranking = rank(words.clone(), last_activity, recency, usize::MAX);
    let best = words_ranking.first().map_or(1.0, |session| session.score);
    let scale = Scale::Words { full: Some(full) };
    // A score by meaning times the recency factor, which lies between these.
    let (least, most) = (1.0 + recency.weight.min(0.0), 1.0 + recency.weight.max(0.0));
    let with_recency = |bound: f32| (f64::from(bound) * least).max(f64::from(bound) * most);
    let by_session = &bounds.by_session;
    let mut order: Vec<(f64, u64)> = words_ranking
        .iter()
        .map(|session| {
            let meaning = by_session
                .get(&session.key)
                .map_or(0.0, |b| with_recency(*b));
            (scale.of(session.score, best) + meaning, session.key)
        })
        .collect();
    if may_answer {
        order.extend(
            by_session
                .iter()
                .filter(|(key, bound)| !words.contains_key(key) && **bound >= MEANING_FLOOR)
                .map(|(key, bound)| (with_recency(*bound), *key)),
        );
    }
    order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));

    let budget = bounds.sessions.div_ceil(SCORED_ALONE_AT_MOST);
    let mut meaning = BySession::default();
    let (mut taken, mut end) = (0, limit.saturating_mul(2).max(8).min(order.len()));
    loop {
        if end > budget {
            let all = scored(Scored::All)?;
            return Ok(fusing(&order, &words, &all, best));
        }
        let new: PathKeys = order[taken..end]
            .iter()
            .map(|(_, key)| *key)
            .filter(|key| by_session.contains_key(key))
            .collect();
        meaning.extend(scored(Scored::Only(&new))?);
        taken = end;
        let kept = fusing(&order[..taken], &words, &meaning, best);
        let Some(&(next, _)) = order.get(taken) else {
            return Ok(kept);
        };
        let sources = vec![
            Source {
                sessions: rank(kept.words.clone(), last_activity, recency, usize::MAX),
                scale,
                best: kept.words_best,
            },
            Source {
                sessions: rank(kept.meaning.clone(), last_activity, recency, usize::MAX),
                scale: Scale::Meaning { near: NEAR },
                best: None,
            },
        ];
        let page = fuse(sources, last_activity, limit);
        end = match page.get(limit.saturating_sub(1)) {
            Some(last) if page.len() >= limit && last.score > next => return Ok(kept),
            // Every candidate whose bound reaches the page's last score so far.
            Some(last) if page.len() >= limit => {
                taken + order[taken..].partition_point(|(bound, _)| *bound >= last.score)
            }
            _ => taken.saturating_mul(2),
        }
        .min(order.len());
    }
}

/// The candidates among `taken`: their words, and their meaning where the words found them or it
/// reaches `MEANING_FLOOR`.
fn fusing(taken: &[(f64, u64)], words: &BySession, meaning: &BySession, best: f64) -> Fusing {
    let mut kept = Fusing {
        words: BySession::default(),
        meaning: BySession::default(),
        words_best: Some(best),
    };
    for (_, key) in taken {
        let found_by_words = words.get(key);
        if let Some(found) = found_by_words {
            kept.words.insert(*key, *found);
        }
        if let Some(found) = meaning.get(key).filter(|found| {
            found_by_words.is_some() || found.best.is_some_and(|best| best.score >= MEANING_FLOOR)
        }) {
            kept.meaning.insert(*key, *found);
        }
    }
    kept
}

//! A search by meaning over the word index and the store (search/by_meaning.rs), with vectors
//! written by hand: no model needed.

mod support;

use recall_native::engine::Engine;
use recall_native::index::changes::SessionUpdate;
use recall_native::meaning::store::Store;
use recall_native::meaning::unit::unit_key;
use recall_native::meaning::DIMENSIONS;
use recall_native::path_key::path_key;
use recall_native::path_key::PathKeys;
use recall_native::search::by_meaning::{meaning_candidates, meaning_coverage, Scored, UnitCache};
use recall_native::search::query::Filters;

const T: i64 = 1_800_000_000_000;

/// The unit vector along dimension `axis`.
fn axis(axis: usize) -> Vec<f32> {
    let mut vector = vec![0f32; DIMENSIONS];
    vector[axis] = 1.0;
    vector
}

/// A session whose messages lie in two segments (an append committed after the first part) has
/// one centroid, the mean of all its messages' vectors, not that of the last segment read: its
/// score is (best + 2 · centroid) / 3 (no opening) with the centroid's cosine over both messages.
#[test]
fn a_session_over_two_segments_has_the_centroid_of_all_its_messages() {
    let engine = Engine::in_memory().unwrap();
    let (first, second, other) = (
        "the build fails on the ARM runner",
        "pinned the toolchain to the previous release",
        "a session in one segment, for the first to be found among",
    );
    support::write(
        &engine,
        vec![
            support::session("spread", "/p", T, &[first]),
            support::session("whole", "/p", T, &[other]),
        ],
    );
    let mut append = support::session("spread", "/p", T + 1000, &[first, second]);
    append.messages.remove(0);
    append.replace_from = Some(1);
    support::write(&engine, vec![append]);
    let searcher = engine.searcher();
    assert!(
        searcher.segment_readers().len() >= 2,
        "the append is a segment of its own"
    );

    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path(), "test").unwrap();
    let mut writer = store.writer().unwrap();
    store
        .append(
            &mut writer,
            &[
                (unit_key(first), axis(0)),
                (unit_key(second), axis(1)),
                (unit_key(other), axis(2)),
            ],
        )
        .unwrap();

    // Twice with one cache: the lengths made, then the lengths kept.
    let cache = UnitCache::default();
    for _ in 0..2 {
        let (found, coverage) = meaning_candidates(
            &searcher,
            engine.fields(),
            &store,
            &cache,
            &axis(0),
            &Filters::default(),
            Scored::All,
        )
        .unwrap();
        assert_eq!((coverage.embedded, coverage.messages), (3, 3));
        let spread = found[&path_key("/sessions/spread.jsonl")].best.unwrap();
        assert_eq!(spread.message, Some(0));
        // Best message 1; centroid (e0 + e1) / √2, its cosine with e0 1 / √2.
        let expected = (1.0 + 2.0 / 2f32.sqrt()) / 3.0;
        assert!(
            (spread.score - expected).abs() < 0.01,
            "score {} against {expected}",
            spread.score
        );
        // The other: best 0, centroid 0.
        let whole = found[&path_key("/sessions/whole.jsonl")].best.unwrap();
        assert!(whole.score.abs() < 0.01, "score {}", whole.score);
    }

    // A third message in a third segment, its vector along e0: the same cache sums again.
    let third = "the new toolchain builds on ARM too";
    let mut append = support::session("spread", "/p", T + 2000, &[first, second, third]);
    append.messages.drain(..2);
    append.replace_from = Some(2);
    support::write(&engine, vec![append]);
    store
        .append(&mut writer, &[(unit_key(third), axis(0))])
        .unwrap();
    let (found, _) = meaning_candidates(
        &engine.searcher(),
        engine.fields(),
        &store,
        &cache,
        &axis(0),
        &Filters::default(),
        Scored::All,
    )
    .unwrap();
    let spread = found[&path_key("/sessions/spread.jsonl")].best.unwrap();
    // Centroid (2 e0 + e1) / √5, its cosine with e0 2 / √5.
    let expected = (1.0 + 2.0 * 2.0 / 5f32.sqrt()) / 3.0;
    assert!(
        (spread.score - expected).abs() < 0.01,
        "score {} against {expected}",
        spread.score
    );
}

/// A vector of its own for each `seed`, of length 1, spread over every dimension.
fn spread(seed: u64) -> Vec<f32> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut vector: Vec<f32> = (0..DIMENSIONS)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 2001) as f32 / 1000.0 - 1.0
        })
        .collect();
    let length = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    vector.iter_mut().for_each(|x| *x /= length);
    vector
}

/// Scoring only some sessions gives each of them what scoring all gives it, to the bit (best
/// message, its place, the weighed score over opening and centroid), and `meaning_coverage` the
/// coverage of all, with and without filters, over sessions spread across segments and messages
/// with no vector.
#[test]
fn scoring_some_sessions_gives_them_what_scoring_all_does() {
    let engine = Engine::in_memory().unwrap();
    let texts = |name: usize, count: usize| -> Vec<String> {
        (0..count)
            .map(|i| format!("message {i} of session {name}"))
            .collect()
    };
    let session = |name: usize, count: usize, cwd: &str, at: i64| {
        let texts = texts(name, count);
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut update = support::session(&format!("s{name}"), cwd, at, &texts);
        update.session.opening = Some(format!("the opening of session {name}"));
        update
    };
    support::write(
        &engine,
        (0..12).map(|n| session(n, 3 + n % 4, "/a", T)).collect(),
    );
    // Appends to half of them, in a segment of their own.
    let appended: Vec<SessionUpdate> = (0..12)
        .step_by(2)
        .map(|n| {
            let mut update = session(n, 3 + n % 4 + 2, "/a", T + 5000);
            update.messages.drain(..3 + n % 4);
            update.replace_from = Some((3 + n % 4) as u32);
            update
        })
        .collect();
    support::write(&engine, appended);
    support::write(
        &engine,
        (12..20).map(|n| session(n, 4, "/b", T + 9000)).collect(),
    );
    let searcher = engine.searcher();
    assert!(searcher.segment_readers().len() >= 3);

    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path(), "test").unwrap();
    let mut writer = store.writer().unwrap();
    let mut vectors = Vec::new();
    for name in 0..20 {
        for (i, text) in texts(name, 8).iter().enumerate() {
            // A message of session 3 (scored) and one of 5 (not) have no vector yet.
            if (name, i) != (3, 1) && (name, i) != (5, 0) {
                vectors.push((unit_key(text), spread(100 * name as u64 + i as u64)));
            }
        }
        let opening = format!("the opening of session {name}");
        vectors.push((unit_key(&opening), spread(7000 + name as u64)));
    }
    store.append(&mut writer, &vectors).unwrap();

    let some: PathKeys = [1, 3, 4, 13, 19]
        .iter()
        .map(|n| path_key(&format!("/sessions/s{n}.jsonl")))
        .collect();
    let query = spread(42);
    for filters in [
        Filters::default(),
        Filters {
            cwds: Some(vec!["/b".to_owned()]),
            ..Filters::default()
        },
    ] {
        let cache = UnitCache::default();
        let run = |scored| {
            meaning_candidates(
                &searcher,
                engine.fields(),
                &store,
                &cache,
                &query,
                &filters,
                scored,
            )
            .unwrap()
        };
        let (all, all_coverage) = run(Scored::All);
        let (only, _) = run(Scored::Only(&some));
        let coverage =
            meaning_coverage(&searcher, engine.fields(), &store, &cache, &filters).unwrap();
        assert_eq!(
            (coverage.embedded, coverage.messages),
            (all_coverage.embedded, all_coverage.messages)
        );
        let kept: Vec<u64> = all
            .keys()
            .copied()
            .filter(|key| some.contains(key))
            .collect();
        assert!(!kept.is_empty());
        assert_eq!(only.len(), kept.len(), "only the sessions asked for");
        for key in kept {
            let (a, o) = (all[&key], only[&key]);
            let (a, o) = (a.best.unwrap(), o.best.unwrap());
            assert_eq!((a.message, a.origin), (o.message, o.origin));
            assert_eq!(a.score.to_bits(), o.score.to_bits(), "session {key}");
        }
    }
}

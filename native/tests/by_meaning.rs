//! A search by meaning over the word index and the store (search/by_meaning.rs), with vectors
//! written by hand: no model needed.

mod support;

use recall_native::engine::Engine;
use recall_native::index::changes::{ChangeSet, SessionUpdate};
use recall_native::meaning::store::Store;
use recall_native::meaning::unit::unit_key;
use recall_native::meaning::DIMENSIONS;
use recall_native::path_key::path_key;
use recall_native::search::by_meaning::{meaning_candidates, UnitCache};
use recall_native::search::query::Filters;

const T: i64 = 1_800_000_000_000;

fn write(engine: &Engine, sessions: Vec<SessionUpdate>) {
    engine.lock(std::time::Duration::from_secs(1), 1).unwrap();
    engine
        .apply(&ChangeSet {
            sessions,
            ..Default::default()
        })
        .unwrap();
    engine.commit("test", "").unwrap();
    engine.unlock().unwrap();
}

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
    write(
        &engine,
        vec![
            support::session("spread", "/p", T, &[first]),
            support::session("whole", "/p", T, &[other]),
        ],
    );
    let mut append = support::session("spread", "/p", T + 1000, &[first, second]);
    append.messages.remove(0);
    append.replace_from = Some(1);
    write(&engine, vec![append]);
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
    write(&engine, vec![append]);
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

//! A first page of `both` bounded (search/bounded.rs) shows what scoring every session shows: the
//! same sessions in the same order, with the same scores, messages, `matched_by` and coverage.
//! A unit cache's first search scores every session (its outlines are not made yet), its second
//! is bounded: each query runs on a new cache, then again on it.

mod support;

use recall_native::engine::Engine;
use recall_native::meaning::store::Store;
use recall_native::meaning::unit::unit_key;
use recall_native::meaning::DIMENSIONS;
use recall_native::search::by_meaning::UnitCache;
use recall_native::search::correction::Typos;
use recall_native::search::find::{Found, MeaningQuery, QueryVector, SearchOptions};
use recall_native::search::query::Filters;

const NOW: i64 = 1_800_000_000_000;
const HOUR: i64 = 3600 * 1000;
const WORDS: [&str; 12] = [
    "deploy", "cache", "timeout", "schema", "retry", "token", "parser", "socket", "build", "lint",
    "queue", "index",
];
const TOPICS: usize = 6;

/// A generator of numbers for the corpus: the same corpus every run.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn unit(&mut self) -> f32 {
        (self.next() % 2001) as f32 / 1000.0 - 1.0
    }
}

/// Topic `topic`'s direction plus `noise` times a random one, of length 1.
fn vector(numbers: &mut Numbers, topic: usize, noise: f32) -> Vec<f32> {
    let mut vector: Vec<f32> = (0..DIMENSIONS).map(|_| noise * numbers.unit()).collect();
    for d in 0..8 {
        vector[topic * 8 + d] += 1.0;
    }
    let length = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    vector.iter_mut().for_each(|x| *x /= length);
    vector
}

/// 150 sessions in two folders over three segments, each of a topic, its messages two or three
/// words of the vocabulary; the store holds a vector of each message but every seventh, and of
/// each opening.
fn corpus(dir: &std::path::Path) -> (Engine, Store) {
    let engine = Engine::in_memory().unwrap();
    let mut store = Store::open(dir, "test").unwrap();
    let mut writer = store.writer().unwrap();
    let mut numbers = Numbers(0x5eed);
    let mut vectors = Vec::new();
    for batch in 0..3 {
        let mut sessions = Vec::new();
        for n in 0..50 {
            let name = batch * 50 + n;
            let topic = numbers.below(TOPICS);
            let texts: Vec<String> = (0..2 + numbers.below(6))
                .map(|i| {
                    let words: Vec<&str> = (0..2 + numbers.below(2))
                        .map(|_| WORDS[numbers.below(WORDS.len())])
                        .collect();
                    format!("{} in session {name} message {i}", words.join(" "))
                })
                .collect();
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            let cwd = if name % 3 == 0 { "/b" } else { "/a" };
            let at = NOW - numbers.below(400) as i64 * HOUR;
            let mut update = support::session(&format!("s{name}"), cwd, at, &texts);
            let opening = format!("the opening of session {name}");
            for (i, text) in texts.iter().enumerate() {
                if (name + i) % 7 != 0 {
                    let noise = 0.02 + numbers.below(5) as f32 * 0.07;
                    vectors.push((unit_key(text), vector(&mut numbers, topic, noise)));
                }
            }
            vectors.push((unit_key(&opening), vector(&mut numbers, topic, 0.15)));
            update.session.opening = Some(opening);
            sessions.push(update);
        }
        support::write(&engine, sessions);
    }
    store.append(&mut writer, &vectors).unwrap();
    (engine, store)
}

fn options(query: &str, limit: usize, filters: &Filters) -> SearchOptions {
    SearchOptions {
        query: query.to_owned(),
        limit,
        prefix: false,
        filters: filters.clone(),
        content: Vec::new(),
        now: NOW,
        recency_weight: 0.2,
        coordination: recall_native::search::query::DEFAULT_COORDINATION,
        snippet_chars: 200,
        typos: Typos::Off,
        after: None,
    }
}

/// What a page shows, each float by its bits.
fn shown(found: &Found) -> Vec<String> {
    let mut shown: Vec<String> = found
        .hits
        .iter()
        .map(|hit| {
            format!(
                "{} {:x} {:?} {} {}",
                hit.session.path,
                hit.score.to_bits(),
                hit.message.as_ref().map(|m| m.index),
                hit.matched_by.name(),
                hit.snippet
            )
        })
        .collect();
    // A search the words answer alone says no coverage.
    if let Some(coverage) = found.coverage {
        shown.push(format!(
            "coverage {} of {}",
            coverage.embedded, coverage.messages
        ));
    }
    shown
}

#[test]
fn a_bounded_first_page_shows_what_scoring_every_session_shows() {
    let dir = tempfile::tempdir().unwrap();
    let (engine, store) = corpus(dir.path());
    let mut numbers = Numbers(0xfeed);
    // Each query, and whether its last word is being typed (a prefix to complete).
    let queries = [
        ("socket", false),
        ("deploy timeout", false),
        ("cache schema retry", false),
        ("parser lint", false),
        ("queue index token build", false),
        ("zzqqxx wqpz", false),
        ("socket zzqqxx", false),
        // One word and one being typed: the meaning ranks only the sessions the words found.
        ("socket dep", true),
    ];
    let scopes = [
        Filters::default(),
        Filters {
            cwds: Some(vec!["/b".to_owned()]),
            ..Filters::default()
        },
    ];
    let mut pages = 0;
    for (query, prefix) in queries {
        for filters in &scopes {
            for limit in [1, 3, 10, 40] {
                let (topic, noise) = (numbers.below(TOPICS), 0.05 + numbers.below(3) as f32 * 0.1);
                let vector = vector(&mut numbers, topic, noise);
                let cache = UnitCache::default();
                let search = || {
                    let meaning = MeaningQuery {
                        store: &store,
                        units: &cache,
                        vector: QueryVector::Given(&vector),
                        words: true,
                    };
                    let options = SearchOptions {
                        prefix,
                        ..options(query, limit, filters)
                    };
                    shown(&engine.find_matching(&options, meaning).unwrap())
                };
                let every = search();
                assert!(
                    !cache.outlined(),
                    "a cache's first search scores every session"
                );
                let bounded = search();
                // A query of one word is the words' alone, and one no text holds a word of asks
                // nothing of the meaning: neither is fused.
                let fused = !["socket", "zzqqxx wqpz"].contains(&query);
                assert_eq!(
                    every.last().unwrap().starts_with("coverage"),
                    query != "socket"
                );
                assert_eq!(cache.outlined(), fused, "its second is bounded: {query:?}");
                assert_eq!(bounded, every, "{query:?}, limit {limit}, {filters:?}");
                pages += usize::from(every.len() > 1);
            }
        }
    }
    assert!(pages > 30, "most pages show sessions: {pages}");
}

/// A cache kept across a sync and an embedding (a warm process) bounds the page of the index as
/// it is now: its outlines and coverage are made again, not read from the index before.
#[test]
fn a_warm_cache_follows_the_index_and_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let (engine, mut store) = corpus(dir.path());
    let mut numbers = Numbers(0xbeef);
    let query = vector(&mut numbers, 2, 0.05);
    let search = |store: &Store, cache: &UnitCache| {
        let meaning = MeaningQuery {
            store,
            units: cache,
            vector: QueryVector::Given(&query),
            words: true,
        };
        shown(
            &engine
                .find_matching(&options("socket deploy", 5, &Filters::default()), meaning)
                .unwrap(),
        )
    };
    let warm = UnitCache::default();
    search(&store, &warm);
    let before = search(&store, &warm);
    assert!(warm.outlined());

    // A new session of the query's topic, nearer than any, with its vectors.
    let text = "socket deploy for the new session";
    let mut update = support::session("newest", "/a", NOW, &[text]);
    update.session.opening = Some(text.to_owned());
    support::write(&engine, vec![update]);
    let mut writer = store.writer().unwrap();
    store
        .append(&mut writer, &[(unit_key(text), query.clone())])
        .unwrap();

    let after = search(&store, &warm);
    let fresh = UnitCache::default();
    assert_eq!(after, search(&store, &fresh));
    assert_ne!(after, before);
    assert!(after[0].starts_with("/sessions/newest.jsonl"), "{after:?}");
}

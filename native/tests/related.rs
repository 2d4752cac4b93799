//! Related sessions by their distinctive words (related.rs), each rule pinned by a test.

mod support;

use recall_native::engine::Engine;
use recall_native::index::changes::{ChangeSet, SessionUpdate};
use recall_native::index::files::FileRecord;
use recall_native::search::query::{Filters, DEFAULT_COORDINATION};
use recall_native::search::related::{Related, RelatedOptions};

const T: i64 = 1_800_000_000_000;

fn session(name: &str, cwd: &str, texts: &[&str]) -> SessionUpdate {
    support::session(name, cwd, T, texts)
}

fn write(engine: &Engine, changes: ChangeSet) {
    engine.lock(std::time::Duration::from_secs(1), 1).unwrap();
    engine.apply(&changes).unwrap();
    engine.commit("test", "").unwrap();
    engine.unlock().unwrap();
}

fn engine_with(sessions: Vec<SessionUpdate>) -> Engine {
    let engine = Engine::in_memory().unwrap();
    write(
        &engine,
        ChangeSet {
            sessions,
            ..Default::default()
        },
    );
    engine
}

fn related_to(engine: &Engine, name: &str, filters: Filters) -> Related {
    let options = RelatedOptions {
        path: format!("/sessions/{name}.jsonl"),
        session_id: format!("id-{name}"),
        limit: 10,
        filters,
        coordination: DEFAULT_COORDINATION,
        snippet_chars: 200,
    };
    engine.related(&options, None).unwrap()
}

fn names(related: &Related) -> Vec<String> {
    related
        .hits
        .iter()
        .map(|h| {
            h.hit
                .session
                .path
                .trim_start_matches("/sessions/")
                .trim_end_matches(".jsonl")
                .to_owned()
        })
        .collect()
}

/// Sessions on three topics, two of them on each, and filler that makes common words common.
fn corpus() -> Vec<SessionUpdate> {
    vec![
        session(
            "flaky-a",
            "/p",
            &[
                "the login spec is flaky on CI",
                "it fails when the clock passes midnight; use fake timers in the spec",
                "vitest fake timers fixed the flaky spec",
            ],
        ),
        session(
            "flaky-b",
            "/q",
            &[
                "another flaky spec: the session expiry test",
                "freeze the clock with fake timers, vitest has them",
            ],
        ),
        session(
            "deploy-a",
            "/p",
            &[
                "the staging deploy is red",
                "the readiness probe of nginx ingress fails after the rollout",
            ],
        ),
        session(
            "deploy-b",
            "/q",
            &[
                "nginx ingress returns 502 on staging",
                "the readiness probe timeout was too short for the rollout",
            ],
        ),
        session(
            "filler-1",
            "/p",
            &[
                "please fix the build and run the tests",
                "done, the build is green",
            ],
        ),
        session(
            "filler-2",
            "/p",
            &[
                "can you update the readme with the new options",
                "updated the readme",
            ],
        ),
        session(
            "filler-3",
            "/q",
            &[
                "rename the variable in the parser",
                "renamed, and the tests pass",
            ],
        ),
    ]
}

#[test]
fn a_session_finds_the_other_session_on_its_topic_first_with_the_words_they_share() {
    let engine = engine_with(corpus());
    let related = related_to(&engine, "flaky-a", Filters::default());
    assert_eq!(names(&related).first().map(String::as_str), Some("flaky-b"));
    let first = &related.hits[0];
    for word in ["flaky", "fake", "timers", "spec"] {
        assert!(
            first.shared.contains(&word.to_owned()),
            "{word} in {:?}",
            first.shared
        );
    }
    // The shared words are the session's distinctive words, in their order.
    let order: Vec<&String> = related
        .words
        .iter()
        .filter(|w| first.shared.contains(w))
        .collect();
    assert_eq!(order, first.shared.iter().collect::<Vec<_>>());
    assert!(!first.hit.snippet.is_empty() && !first.hit.spans.is_empty());
    // Unrelated sessions rank below, if they are found at all.
    let deploy = related_to(&engine, "deploy-b", Filters::default());
    assert_eq!(names(&deploy).first().map(String::as_str), Some("deploy-a"));
}

#[test]
fn the_session_itself_is_never_related() {
    let engine = engine_with(corpus());
    for name in ["flaky-a", "deploy-a", "filler-1"] {
        assert!(!names(&related_to(&engine, name, Filters::default())).contains(&name.to_owned()));
    }
}

#[test]
fn words_of_the_session_alone_or_stopwords_find_nothing() {
    let mut sessions = corpus();
    sessions.push(session(
        "unique",
        "/p",
        &["zorblax quintessor", "the and of zorblax"],
    ));
    let engine = engine_with(sessions);
    let related = related_to(&engine, "unique", Filters::default());
    assert!(
        related.words.is_empty() && related.hits.is_empty(),
        "{:?}",
        related.words
    );
    // A session the index holds nothing of has no words either.
    assert!(related_to(&engine, "absent", Filters::default())
        .hits
        .is_empty());
}

#[test]
fn copies_parents_and_forks_are_left_out() {
    let mut sessions = corpus();
    let mut copy = session(
        "flaky-a-copy",
        "/p",
        &["the login spec is flaky on CI, fake timers"],
    );
    copy.session.id = "id-flaky-a".into();
    let mut fork = session(
        "flaky-a-fork",
        "/p",
        &["after the fork: fake timers for the flaky login spec"],
    );
    fork.session.parent = Some("/sessions/flaky-a.jsonl".into());
    sessions.extend([copy, fork]);
    let engine = engine_with(sessions);
    let record = |path: &str, id: &str, parent: Option<&str>| FileRecord {
        path: path.into(),
        size: 1,
        mtime_ms: 1.0,
        ino: 1,
        session_id: id.into(),
        parent_name: parent.map(str::to_owned),
        state: String::new(),
    };
    write(
        &engine,
        ChangeSet {
            files: vec![record(
                "/sessions/flaky-a-fork.jsonl",
                "id-flaky-a-fork",
                Some("flaky-a.jsonl"),
            )],
            ..Default::default()
        },
    );
    let of_original = names(&related_to(&engine, "flaky-a", Filters::default()));
    assert_eq!(
        of_original.first().map(String::as_str),
        Some("flaky-b"),
        "{of_original:?}"
    );
    assert!(
        !of_original.iter().any(|name| name.starts_with("flaky-a")),
        "{of_original:?}"
    );
    // From the fork, its parent is left out, and the parent's copy with it.
    let of_fork = names(&related_to(&engine, "flaky-a-fork", Filters::default()));
    assert!(
        !of_fork.iter().any(|name| name.starts_with("flaky-a")),
        "{of_fork:?}"
    );
    assert!(of_fork.contains(&"flaky-b".to_owned()));
}

#[test]
fn the_filters_apply() {
    let engine = engine_with(corpus());
    let only_p = Filters {
        cwds: Some(vec!["/p".into()]),
        ..Default::default()
    };
    let found = names(&related_to(&engine, "flaky-a", only_p));
    assert!(!found.contains(&"flaky-b".to_owned()) && !found.is_empty());
}

#[test]
fn the_same_files_give_the_same_related_sessions_whatever_the_history_of_the_index() {
    let fresh = engine_with(corpus());
    // The same files, reached through a session written twice and one deleted.
    let kept = engine_with(corpus());
    let mut stale = session(
        "deploy-b",
        "/q",
        &["flaky flaky flaky fake timers everywhere"],
    );
    stale.session.message_count = 1;
    write(
        &kept,
        ChangeSet {
            sessions: vec![
                stale,
                session("gone", "/p", &["flaky spec with fake timers gone"]),
            ],
            ..Default::default()
        },
    );
    write(
        &kept,
        ChangeSet {
            sessions: vec![corpus().remove(3)],
            remove_paths: vec!["/sessions/gone.jsonl".into()],
            ..Default::default()
        },
    );
    for name in ["flaky-a", "deploy-b", "filler-1"] {
        let (a, b) = (
            related_to(&fresh, name, Filters::default()),
            related_to(&kept, name, Filters::default()),
        );
        assert_eq!(a.words, b.words);
        assert_eq!(names(&a), names(&b));
        let scores = |r: &Related| r.hits.iter().map(|h| h.hit.score).collect::<Vec<_>>();
        assert_eq!(scores(&a), scores(&b));
    }
}

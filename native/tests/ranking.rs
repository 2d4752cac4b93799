//! Each ranking rule of `search/find.rs` and `search/query.rs`, pinned by a test that fails without it.

mod support;

use recall_native::engine::Engine;
use recall_native::index::changes::{ChangeSet, SessionUpdate, TagUpdate};
use recall_native::index::session::MessageDoc;
use recall_native::search::correction::Typos;
use recall_native::search::find::{Hit, SearchOptions};
use recall_native::search::query::Filters;
use support::session;

const DAY: i64 = 24 * 3600 * 1000;
const NOW: i64 = 1_800_000_000_000;

fn engine_with(sessions: Vec<SessionUpdate>) -> Engine {
    let engine = Engine::in_memory().unwrap();
    support::write(&engine, sessions);
    engine
}

fn options(query: &str) -> SearchOptions {
    SearchOptions {
        query: query.to_owned(),
        limit: 10,
        prefix: false,
        filters: Filters::default(),
        content: Vec::new(),
        now: NOW,
        recency_weight: 1.0,
        coordination: recall_native::search::query::DEFAULT_COORDINATION,
        snippet_chars: 200,
        typos: Typos::Correct,
        after: None,
    }
}

fn run(engine: &Engine, options: &SearchOptions) -> Vec<Hit> {
    engine.search(options).unwrap()
}

fn names(hits: &[Hit]) -> Vec<String> {
    hits.iter()
        .map(|h| {
            h.session
                .path
                .trim_start_matches("/sessions/")
                .trim_end_matches(".jsonl")
                .to_owned()
        })
        .collect()
}

const OLD: i64 = NOW - 400 * DAY;

#[test]
fn plain_words_are_ored() {
    let engine = engine_with(vec![
        session("a", "/p", OLD, &["alpha only here"]),
        session("b", "/p", OLD, &["bravo only here"]),
        session("c", "/p", OLD, &["nothing relevant"]),
    ]);
    let mut found = names(&run(&engine, &options("alpha bravo")));
    found.sort();
    assert_eq!(found, vec!["a", "b"]);
}

#[test]
fn exact_phrase_outranks_scattered_words() {
    // "deploy" and "staging" occur more often in `scattered`, but only `phrase` has them in order.
    let engine = engine_with(vec![
        session(
            "scattered",
            "/p",
            OLD,
            &["deploy deploy the thing, then later staging staging checks"],
        ),
        session(
            "phrase",
            "/p",
            OLD,
            &["we fixed the staging deploy at last and went home early today"],
        ),
    ]);
    assert_eq!(
        names(&run(&engine, &options("staging deploy")))[0],
        "phrase"
    );
}

#[test]
fn one_result_per_session_with_its_best_message() {
    let engine = engine_with(vec![session(
        "a",
        "/p",
        OLD,
        &["kubectl once", "kubectl kubectl twice", "other"],
    )]);
    let hits = run(&engine, &options("kubectl"));
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].message.as_ref().unwrap().index, 1);
}

#[test]
fn later_message_wins_a_tie() {
    let engine = engine_with(vec![session(
        "a",
        "/p",
        OLD,
        &["rollback plan", "unrelated", "rollback plan"],
    )]);
    let hits = run(&engine, &options("rollback"));
    assert_eq!(hits[0].message.as_ref().unwrap().index, 2);
}

#[test]
fn a_long_session_does_not_crowd_out_the_others() {
    // Every message of the long one says the word once; each short one says it twice. Where a
    // later message counted for more than a near tie, the long session's last messages filled
    // every place before grouping, and the short ones were not found at all.
    let long: Vec<String> = (0..3_400)
        .map(|i| format!("step {i}: deploy then check the logs of the service"))
        .collect();
    let mut sessions = vec![session(
        "long",
        "/p",
        OLD,
        &long.iter().map(String::as_str).collect::<Vec<_>>(),
    )];
    sessions.extend((0..30).map(|i| {
        session(
            &format!("short{i}"),
            "/p",
            OLD,
            &["deploy it", "deploy again"],
        )
    }));
    let engine = engine_with(sessions);
    let hits = run(
        &engine,
        &SearchOptions {
            limit: 40,
            ..options("deploy")
        },
    );
    assert_eq!(hits.len(), 31);
    assert!(names(&hits).contains(&"long".to_owned()));
    let long_hit = hits
        .iter()
        .find(|h| h.session.path.ends_with("long.jsonl"))
        .unwrap();
    // Its messages score the same: the last one represents it.
    assert_eq!(long_hit.message.as_ref().unwrap().index, 3_399);
}

#[test]
fn recent_sessions_rank_higher_at_equal_relevance() {
    let engine = engine_with(vec![
        session(
            "old",
            "/p",
            NOW - 60 * DAY,
            &["migrate the database schema"],
        ),
        session("new", "/p", NOW - DAY, &["migrate the database schema"]),
    ]);
    let hits = run(&engine, &options("database"));
    assert_eq!(names(&hits), vec!["new", "old"]);
    // 1 + exp(-1/7) for the new one, about 1 for the old: the factor is applied to the score.
    let ratio = hits[0].score / hits[1].score;
    assert!(
        (ratio - (1.0 + (-1.0f64 / 7.0).exp()) / (1.0 + (-60.0f64 / 7.0).exp())).abs() < 1e-3,
        "{ratio}"
    );
    let mut flat = options("database");
    flat.recency_weight = 0.0;
    let flat_hits = run(&engine, &flat);
    assert!((flat_hits[0].score - flat_hits[1].score).abs() < 1e-6);
}

#[test]
fn tags_are_searchable_text_with_a_boost() {
    let mut tagged = session("tagged", "/p", OLD, &["nothing about the word here"]);
    tagged.session.tags = vec!["codebase".into()];
    let engine = engine_with(vec![
        tagged,
        session("text", "/p", OLD, &["the codebase is large"]),
    ]);
    let hits = run(&engine, &options("codebase"));
    assert_eq!(names(&hits), vec!["tagged", "text"]);
    assert!(hits[0].message.is_none(), "a tag-only match has no message");
}

#[test]
fn tag_update_rewrites_only_the_session_document() {
    let engine = engine_with(vec![session(
        "a",
        "/p",
        OLD,
        &["first message", "second message"],
    )]);
    let before = engine.stats().unwrap().documents;
    engine.lock(std::time::Duration::from_secs(1), 1).unwrap();
    engine
        .apply(&ChangeSet {
            tag_updates: vec![TagUpdate {
                session_id: "id-a".into(),
                tags: vec!["ready".into()],
            }],
            ..Default::default()
        })
        .unwrap();
    engine.commit("t2", "").unwrap();
    assert_eq!(engine.stats().unwrap().documents, before);
    let hits = run(&engine, &options("ready"));
    assert_eq!(hits[0].session.tags, vec!["ready"]);
    assert_eq!(run(&engine, &options("second")).len(), 1);
}

#[test]
fn tag_filters_use_the_tags_of_session_documents() {
    let tagged = |name: &str, tags: &[&str]| {
        let mut update = session(name, "/p", OLD, &["shared word"]);
        update.session.tags = tags.iter().map(|t| t.to_string()).collect();
        update
    };
    let engine = engine_with(vec![
        tagged("both", &["x", "y"]),
        tagged("x-only", &["x"]),
        tagged("none", &[]),
    ]);
    let found = |all: &[&str], none: &[&str]| {
        let mut o = options("shared");
        o.filters.tags_all = all.iter().map(|t| t.to_string()).collect();
        o.filters.tags_none = none.iter().map(|t| t.to_string()).collect();
        let mut names = names(&run(&engine, &o));
        names.sort();
        names
    };
    assert_eq!(found(&["x", "y"], &[]), vec!["both"]);
    assert_eq!(found(&["x"], &[]), vec!["both", "x-only"]);
    assert_eq!(found(&[], &["y"]), vec!["none", "x-only"]);
    assert!(found(&["x", "absent"], &[]).is_empty());
    let listed = recall_native::search::sessions::list(
        &engine.searcher(),
        engine.fields(),
        &Filters {
            tags_all: vec!["x".into()],
            ..Filters::default()
        },
        10,
    )
    .unwrap();
    assert_eq!(listed.len(), 2);
}

#[test]
fn filters_apply_in_the_query_not_after_it() {
    // 30 sessions elsewhere outscore the one in /mine: a filter applied to the best few
    // documents found would find nothing.
    let mut sessions: Vec<SessionUpdate> = (0..30)
        .map(|i| {
            session(
                &format!("other{i}"),
                "/other",
                OLD,
                &["tantivy tantivy tantivy"],
            )
        })
        .collect();
    sessions.push(session(
        "mine",
        "/mine",
        OLD,
        &["tantivy once in a long sentence with many other words around it"],
    ));
    let engine = engine_with(sessions);
    let mut scoped = options("tantivy");
    scoped.limit = 1;
    scoped.filters.cwds = Some(vec!["/mine".into()]);
    assert_eq!(names(&run(&engine, &scoped)), vec!["mine"]);
    scoped.filters = Filters {
        session_ids: Some(vec!["id-mine".into()]),
        ..Default::default()
    };
    assert_eq!(names(&run(&engine, &scoped)), vec!["mine"]);
    scoped.filters = Filters {
        exclude_session_ids: vec!["id-other0".into()],
        ..Default::default()
    };
    scoped.limit = 40;
    assert_eq!(run(&engine, &scoped).len(), 30);
}

#[test]
fn time_filters_use_message_time() {
    let engine = engine_with(vec![
        session("old", "/p", NOW - 30 * DAY, &["invoice export"]),
        session("new", "/p", NOW - DAY, &["invoice export"]),
    ]);
    let mut recent = options("invoice");
    recent.filters.since = Some(NOW - 7 * DAY);
    assert_eq!(names(&run(&engine, &recent)), vec!["new"]);
    recent.filters = Filters {
        until: Some(NOW - 7 * DAY),
        ..Default::default()
    };
    assert_eq!(names(&run(&engine, &recent)), vec!["old"]);
}

#[test]
fn prefix_matches_unfinished_word_weaker_than_whole_words() {
    let engine = engine_with(vec![
        session("prefix", "/p", OLD, &["the deployment finished"]),
        session("whole", "/p", OLD, &["one dep to add"]),
    ]);
    assert_eq!(names(&run(&engine, &options("dep"))), vec!["whole"]);
    let mut typing = options("dep");
    typing.prefix = true;
    assert_eq!(names(&run(&engine, &typing)), vec!["whole", "prefix"]);
}

#[test]
fn snippet_spans_are_byte_offsets() {
    let engine = engine_with(vec![session(
        "u",
        "/p",
        OLD,
        &["le café résumé mentions naïve deploys"],
    )]);
    let hit = &run(&engine, &options("naïve"))[0];
    let (start, end) = hit.spans[0];
    assert_eq!(&hit.snippet[start..end], "naïve");
}

#[test]
fn a_huge_message_gets_its_snippet_where_the_words_are_even_across_a_window_edge() {
    use recall_native::index::text_kind::TextKind;
    let engine = engine_with(vec![session("u", "/p", OLD, &["a zanzibar note"])]);
    let filler = "é plain filler words go on ".repeat(12_000);
    for at in [0, 16 * 1024 - 4, 16 * 1024 - 1, 100_000, filler.len() - 1] {
        let mut text = filler.clone();
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap();
        text.insert_str(at, " zanzibar! ");
        let made = engine
            .snippets(
                "zanzibar",
                false,
                Typos::Correct,
                TextKind::Conversation,
                &[TextKind::Conversation],
                &[text],
                200,
            )
            .unwrap();
        let (snippet, spans) = &made[0];
        assert_eq!(
            spans
                .iter()
                .map(|&(s, e)| &snippet[s..e])
                .collect::<Vec<_>>(),
            vec!["zanzibar"],
            "at {at}"
        );
        assert!(snippet.len() < 400, "at {at}");
    }
    let nothing = engine
        .snippets(
            "zanzibar",
            false,
            Typos::Correct,
            TextKind::Conversation,
            &[TextKind::Conversation],
            std::slice::from_ref(&filler),
            200,
        )
        .unwrap();
    assert!(nothing[0].1.is_empty() && filler.starts_with(&nothing[0].0));
}

#[test]
fn odd_queries_never_fail() {
    let engine = engine_with(vec![session("a", "/p", OLD, &["foo bar baz"])]);
    for query in [
        "\"",
        ":",
        "(",
        "*",
        "foo:bar",
        "\"foo",
        "(baz OR",
        "日本語",
        "-",
        "\\",
        "AND OR NOT",
        "",
    ] {
        run(&engine, &options(query));
    }
    assert_eq!(names(&run(&engine, &options("foo:bar (baz"))), vec!["a"]);
    assert!(run(&engine, &options("***")).is_empty());
}

#[test]
fn a_limit_past_the_bound_is_refused_not_tried() {
    let engine = engine_with(vec![session("a", "/p", OLD, &["foo bar baz"])]);
    // Tried, it asked for memory for a billion results and aborted the process.
    let error = engine
        .search(&SearchOptions {
            limit: 100_000_000,
            ..options("foo")
        })
        .unwrap_err();
    assert_eq!(error.code, recall_native::error::Code::BadInput);
    assert!(
        error.message.contains("at most 100000"),
        "{}",
        error.message
    );
    assert_eq!(
        names(&run(
            &engine,
            &SearchOptions {
                limit: recall_native::search::find::MAX_LIMIT,
                ..options("foo")
            }
        )),
        vec!["a"]
    );
    // A listing's limit is a count of the sessions at most (the library asks for all of them).
    let listed = recall_native::search::sessions::list(
        &engine.searcher(),
        engine.fields(),
        &Filters::default(),
        100_000_000,
    )
    .unwrap();
    assert_eq!(listed.len(), 1);
}

#[test]
fn more_of_the_words_beats_higher_term_frequency() {
    // `one` repeats one query word; `all` holds each of the three once, apart (no phrase). Other
    // sessions mention "retry" or "budget" alone, so those words are common and weigh little.
    let mut sessions = vec![
        session("one", "/p", OLD, &["gateway gateway gateway gateway gateway timeout"]),
        session("all", "/p", OLD, &["the gateway was slow so we raised the budget and set a retry limit in the config file today"]),
    ];
    for i in 0..8 {
        let word = if i % 2 == 0 { "retry" } else { "budget" };
        sessions.push(session(
            &format!("filler{i}"),
            "/p",
            OLD,
            &[&format!("a note that mentions {word} once")],
        ));
    }
    let engine = engine_with(sessions);
    let hits = names(&run(&engine, &options("gateway retry budget")));
    assert_eq!(hits[0], "all");
    assert!(
        hits.contains(&"one".to_owned()),
        "OR recall keeps the one-word match"
    );
    let mut without = options("gateway retry budget");
    without.coordination = 0.0;
    assert_eq!(
        names(&run(&engine, &without))[0],
        "one",
        "without coordination, term frequency would win"
    );
}

#[test]
fn exact_phrase_still_wins_over_the_same_words_apart() {
    let engine = engine_with(vec![
        session("apart", "/p", OLD, &["retry the budget of the gateway"]),
        session(
            "phrase",
            "/p",
            OLD,
            &["a gateway retry budget appears here in this somewhat longer message"],
        ),
    ]);
    assert_eq!(
        names(&run(&engine, &options("gateway retry budget")))[0],
        "phrase"
    );
}

#[test]
fn quoted_phrase_is_required() {
    let engine = engine_with(vec![
        session("both", "/p", OLD, &["the blue green deploy"]),
        session("apart", "/p", OLD, &["green is not blue"]),
    ]);
    assert_eq!(
        names(&run(&engine, &options("\"blue green\""))),
        vec!["both"]
    );
}

#[test]
fn append_replaces_only_the_tail() {
    let engine = engine_with(vec![session(
        "a",
        "/p",
        OLD,
        &["first words", "second words"],
    )]);
    let mut tail = session(
        "a",
        "/p",
        OLD + 1000,
        &["first words", "second words continued", "third words"],
    );
    tail.messages.remove(0);
    tail.replace_from = Some(1);
    engine.lock(std::time::Duration::from_secs(1), 1).unwrap();
    engine
        .apply(&ChangeSet {
            sessions: vec![tail],
            ..Default::default()
        })
        .unwrap();
    engine.commit("t2", "").unwrap();
    // 3 messages + 1 session document, the old second message gone.
    assert_eq!(engine.stats().unwrap().documents, 4);
    assert_eq!(
        run(&engine, &options("continued"))[0]
            .message
            .as_ref()
            .unwrap()
            .index,
        1
    );
    assert_eq!(run(&engine, &options("first")).len(), 1);
}

/// `session` with one document of each other kind of text after its messages, each holding `text`.
fn with_other_kinds(mut update: SessionUpdate, text: &str) -> SessionUpdate {
    let last = update.messages.len().saturating_sub(1) as u32;
    for (kind, tool) in [
        ("thinking", None),
        ("call", Some("bash")),
        ("output", Some("bash")),
    ] {
        update.messages.push(MessageDoc {
            index: last,
            role: if kind == "output" {
                "toolResult".into()
            } else {
                "assistant".into()
            },
            entry_id: format!("{kind}-entry"),
            timestamp: update.session.modified,
            text: text.to_owned(),
            kind: Some(kind.to_owned()),
            tool: tool.map(str::to_owned),
            files: None,
            line_offset: None,
        });
    }
    update
}

fn corpus() -> Vec<SessionUpdate> {
    vec![
        session(
            "deploy",
            "/p",
            NOW - DAY,
            &[
                "the staging deploy failed",
                "a readiness probe, then deploy again",
            ],
        ),
        session(
            "probe",
            "/p",
            NOW - 3 * DAY,
            &["why does the readiness probe fail", "the port is wrong"],
        ),
        session(
            "quiet",
            "/q",
            NOW - 9 * DAY,
            &[
                "nothing to see here",
                "deploy notes, deploy plans and deploy",
            ],
        ),
    ]
}

#[test]
fn other_kinds_of_text_change_nothing_of_a_conversation_search() {
    let plain = engine_with(corpus());
    let noisy = corpus()
        .into_iter()
        .map(|s| with_other_kinds(s, "deploy staging probe zanzibar deploy deploy"))
        .collect();
    let noisy = engine_with(noisy);
    for query in [
        "deploy",
        "readiness probe",
        "staging deploy zanzibar",
        "zanzibar",
    ] {
        let before = run(&plain, &options(query));
        let after = run(&noisy, &options(query));
        let scored = |hits: &[Hit]| {
            hits.iter()
                .map(|h| {
                    (
                        h.session.path.clone(),
                        h.score,
                        h.message.as_ref().map(|m| m.entry_id.clone()),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(scored(&before), scored(&after), "{query}");
    }
    assert!(run(&noisy, &options("zanzibar")).is_empty());
}

#[test]
fn each_kind_is_searched_when_asked_for_and_says_so() {
    use recall_native::index::text_kind::TextKind;
    let mut sessions = corpus();
    let quiet = sessions.pop().unwrap();
    sessions.push(with_other_kinds(quiet, "zanzibar"));
    let engine = engine_with(sessions);
    for kind in [TextKind::Thinking, TextKind::Call, TextKind::Output] {
        let hits = run(
            &engine,
            &SearchOptions {
                content: vec![kind],
                ..options("zanzibar")
            },
        );
        assert_eq!(names(&hits), vec!["quiet"]);
        let message = hits[0].message.as_ref().unwrap();
        assert_eq!(
            (message.kind, message.entry_id.as_str()),
            (kind, format!("{}-entry", kind.name()).as_str())
        );
        if kind.kept_whole() {
            assert!(hits[0].snippet.contains("zanzibar"));
        } else {
            // Tool output is not kept: the library reads its text back and has its snippet made.
            assert!(hits[0].snippet.is_empty());
            let made = engine
                .snippets(
                    "zanzibar",
                    false,
                    Typos::Correct,
                    kind,
                    &[kind],
                    &["a zanzibar log".to_owned()],
                    200,
                )
                .unwrap();
            let (snippet, spans) = &made[0];
            assert_eq!(
                spans
                    .iter()
                    .map(|&(s, e)| &snippet[s..e])
                    .collect::<Vec<_>>(),
                vec!["zanzibar"]
            );
        }
    }
    let all = run(
        &engine,
        &SearchOptions {
            content: TextKind::ALL.to_vec(),
            ..options("zanzibar")
        },
    );
    assert_eq!(all[0].message.as_ref().unwrap().kind, TextKind::Thinking);
}

#[test]
fn a_match_in_the_conversation_outranks_a_call_which_outranks_an_output() {
    use recall_native::index::text_kind::TextKind;
    let said = session("said", "/p", OLD, &["zanzibar plan"]);
    let mut called = with_other_kinds(session("called", "/p", OLD, &["x"]), "zanzibar plan");
    called
        .messages
        .retain(|m| m.kind.as_deref() != Some("thinking") && m.kind.as_deref() != Some("output"));
    let mut printed = with_other_kinds(session("printed", "/p", OLD, &["y"]), "zanzibar plan");
    printed
        .messages
        .retain(|m| m.kind.as_deref() != Some("thinking") && m.kind.as_deref() != Some("call"));
    let engine = engine_with(vec![printed, called, said]);
    let hits = run(
        &engine,
        &SearchOptions {
            content: TextKind::ALL.to_vec(),
            recency_weight: 0.0,
            ..options("zanzibar")
        },
    );
    assert_eq!(names(&hits), vec!["said", "called", "printed"]);
}

#[test]
fn a_session_its_tags_rank_first_keeps_its_best_message() {
    // The tagged session is written after sessions whose messages outscore its own message, so
    // that message is too weak to matter when it is read (their segment is read first); its
    // session still shows it as its best message.
    let strong = |name: &str| session(name, "/p", OLD, &["rollback rollback rollback"]);
    let mut tagged = session("tagged", "/p", OLD, &["a long message that names the rollback once among many other words of no interest at all here"]);
    tagged.session.tags = vec!["rollback".into()];
    let engine = engine_with(vec![strong("a"), strong("b"), strong("c")]);
    engine.lock(std::time::Duration::from_secs(1), 1).unwrap();
    engine
        .apply(&ChangeSet {
            sessions: vec![tagged],
            ..Default::default()
        })
        .unwrap();
    engine.commit("test", "").unwrap();
    let hits = run(
        &engine,
        &SearchOptions {
            limit: 1,
            recency_weight: 0.0,
            ..options("rollback")
        },
    );
    assert_eq!(names(&hits), vec!["tagged"]);
    assert_eq!(
        hits[0].message.as_ref().map(|m| m.index),
        Some(0),
        "the tagged session's message is its best message"
    );
    assert!(hits[0].snippet.contains("rollback"), "{}", hits[0].snippet);
}

#[test]
fn a_segment_written_with_other_statistics_loses_no_match() {
    // The first segment holds, in turn, a short message with the word once (the best match, each
    // session more recent than the last), a longer one with it three times, and long filler:
    // by the average length of that segment alone, the longer message is the best of each block
    // of postings, and that is what the segment recorded when it was written. The second segment
    // brings the live average length down, and with it the short message is the best match.
    let first = (0..600)
        .map(|n| {
            let text = match n % 3 {
                0 => "zeta word".to_owned(),
                1 => format!("zeta zeta zeta {}", "pad ".repeat(27)),
                _ => "filler ".repeat(400),
            };
            session(&format!("a{n:04}"), "/p", OLD + n * 1000, &[&text])
        })
        .collect();
    let engine = engine_with(first);
    engine.lock(std::time::Duration::from_secs(1), 1).unwrap();
    engine
        .apply(&ChangeSet {
            sessions: (0..3000)
                .map(|n| session(&format!("b{n:04}"), "/p", OLD, &["alpha beta"]))
                .collect(),
            ..Default::default()
        })
        .unwrap();
    engine.commit("test", "").unwrap();
    let found = |limit: usize| {
        names(&run(
            &engine,
            &SearchOptions {
                limit,
                recency_weight: 0.0,
                ..options("zeta")
            },
        ))
    };
    let all = found(1000);
    assert_eq!(all[0], "a0597", "the most recent short message ranks first");
    assert_eq!(found(10), all[..10]);
}

/// A later page continues after the place of the last session shown: walked a page at a time, the
/// sessions are those of one search of them all, in its order (equal scores and dates included),
/// and each page counts what came before it.
#[test]
fn pages_continue_after_the_last_place() {
    // Sessions of equal scores and dates (the path key orders them), and some that differ.
    let mut sessions = Vec::new();
    for i in 0..23 {
        let text = if i % 3 == 0 {
            "walk walk the dog"
        } else {
            "walk the dog"
        };
        sessions.push(session(
            &format!("s{i:02}"),
            "/p",
            OLD + (i % 4) * DAY,
            &[text],
        ));
    }
    let engine = engine_with(sessions);
    let all = engine
        .find(&SearchOptions {
            limit: 100,
            ..options("walk")
        })
        .unwrap();
    assert_eq!(all.hits.len(), 23);
    let mut walked = Vec::new();
    let mut after = None;
    loop {
        let page = engine
            .find(&SearchOptions {
                limit: 5,
                after,
                ..options("walk")
            })
            .unwrap();
        let ahead = page.ahead.unwrap_or_default();
        assert_eq!(ahead.sessions, walked.len());
        let shown: u64 = all.places[..walked.len()]
            .iter()
            .fold(0u64, |sum, place| sum.wrapping_add(place.key));
        if after.is_some() {
            assert_eq!(ahead.digest, shown);
        }
        assert_eq!(page.hits.len(), page.places.len());
        walked.extend(names(&page.hits));
        let Some(last) = page.places.last() else {
            break;
        };
        after = Some(recall_native::search::find::After {
            place: *last,
            shown: walked.len(),
        });
        if page.hits.len() < 5 {
            break;
        }
    }
    assert_eq!(walked, names(&all.hits));
}

//! What a word is, end to end through the index: CJK text, session names, prefixes of tags,
//! words misspelt.

mod support;

use recall_native::engine::Engine;
use recall_native::index::changes::SessionUpdate;
use recall_native::index::session::{MessageDoc, SessionMeta};
use recall_native::index::text_kind::TextKind;
use recall_native::search::correction::Typos;
use recall_native::search::find::{Hit, SearchOptions};
use recall_native::search::query::Filters;

const NOW: i64 = 1_800_000_000_000;
const OLD: i64 = NOW - 400 * 24 * 3600 * 1000;

fn session(name: &str, texts: &[&str]) -> SessionUpdate {
    let meta = SessionMeta {
        id: format!("id-{name}"),
        path: format!("/sessions/{name}.jsonl"),
        cwd: "/p".into(),
        created: OLD,
        modified: OLD,
        message_count: texts.len() as u32,
        first_message: texts.first().map_or(String::new(), |t| t.to_string()),
        ..Default::default()
    };
    let messages = texts
        .iter()
        .enumerate()
        .map(|(i, text)| MessageDoc {
            index: i as u32,
            role: "user".into(),
            entry_id: format!("e{i}"),
            timestamp: OLD,
            text: text.to_string(),
            kind: None,
            tool: None,
            files: None,
            line_offset: None,
        })
        .collect();
    SessionUpdate {
        session: meta,
        messages,
        replace_from: None,
        continued: None,
    }
}

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
        recency_weight: 0.0,
        coordination: recall_native::search::query::DEFAULT_COORDINATION,
        snippet_chars: 200,
        typos: Typos::Correct,
        after: None,
    }
}

fn find(engine: &Engine, query: &str, prefix: bool) -> Vec<Hit> {
    engine
        .search(&SearchOptions {
            prefix,
            ..options(query)
        })
        .unwrap()
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

fn marked(hit: &Hit) -> Vec<&str> {
    hit.spans.iter().map(|&(s, e)| &hit.snippet[s..e]).collect()
}

#[test]
fn two_or_more_cjk_characters_find_text_holding_them_in_a_row() {
    let engine = engine_with(vec![
        session("japanese", &["日本語の設定ファイルを直しました"]),
        session("chinese", &["我们在北京部署了服务器"]),
        session("korean", &["서울에서 배포를 확인했습니다"]),
        session("latin", &["the staging deploy of nginx"]),
    ]);
    for (query, expected, mark) in [
        ("日本", "japanese", "日本"),
        ("設定ファイル", "japanese", "設定ファイル"),
        ("北京", "chinese", "北京"),
        ("部署了", "chinese", "部署了"),
        ("서울", "korean", "서울"),
        ("배포", "korean", "배포"),
    ] {
        let hits = find(&engine, query, false);
        assert_eq!(names(&hits), vec![expected], "{query}");
        assert_eq!(marked(&hits[0]), vec![mark], "{query}");
    }
    assert_eq!(
        names(&find(&engine, "staging deploy", false)),
        vec!["latin"]
    );
    assert!(
        find(&engine, "京北", false).is_empty(),
        "characters out of order are not the word"
    );
}

#[test]
fn cjk_characters_in_a_row_outrank_the_same_characters_apart() {
    let engine = engine_with(vec![
        session("apart", &["東京の天気と京都の都市"]),
        session("together", &["東京都の予算"]),
    ]);
    assert_eq!(names(&find(&engine, "東京都", false))[0], "together");
}

#[test]
fn session_names_are_searchable_like_tags() {
    let mut named = session("named", &["we looked at the numbers"]);
    named.session.name = Some("Quarterly zebra audit".into());
    let mut deploy = session("deploy", &["check the logs"]);
    deploy.session.name = Some("Fix staging deploy".into());
    let engine = engine_with(vec![
        named,
        deploy,
        session(
            "chatty",
            &["fix the staging deploy, staging deploy fix, deploy staging fix again"],
        ),
    ]);
    assert_eq!(names(&find(&engine, "zebra", false)), vec!["named"]);
    assert_eq!(
        names(&find(&engine, "Fix staging deploy", false))[0],
        "deploy"
    );
}

#[test]
fn a_prefix_reaches_tags_and_names() {
    let mut tagged = session("tagged", &["nothing about it here"]);
    tagged.session.tags = vec!["codebase".into()];
    let mut named = session("named", &["more of nothing"]);
    named.session.name = Some("Kubernetes upgrade".into());
    let engine = engine_with(vec![tagged, named, session("other", &["unrelated words"])]);
    assert_eq!(names(&find(&engine, "codeba", true)), vec!["tagged"]);
    assert_eq!(names(&find(&engine, "kuber", true)), vec!["named"]);
    assert!(
        find(&engine, "codeba", false).is_empty(),
        "without prefix matching a word is whole"
    );
}

#[test]
fn a_word_found_nowhere_is_read_as_the_most_frequent_word_one_edit_away() {
    let engine = engine_with(vec![
        session("build", &["the python build failed again"]),
        session("receive", &["we receive the webhook twice"]),
        session("receive-too", &["they receive nothing on retry"]),
        session("relieve", &["that should relieve the queue"]),
        session("snakes", &["pythons are snakes"]),
    ]);
    // Swapped, dropped, doubled, changed: each one edit from a word the index holds.
    for typo in ["pyhton", "pyton", "pythhon", "pithon"] {
        let hits = find(&engine, typo, false);
        assert_eq!(names(&hits), ["build"], "{typo}");
        assert_eq!(marked(&hits[0]), ["python"], "{typo}");
    }
    // Both `receive` and `relieve` are one edit from `recieve`: the word more documents hold wins.
    let mut received = names(&find(&engine, "recieve", false));
    received.sort();
    assert_eq!(received, ["receive", "receive-too"]);
    // The search says which words it read as others, once each, in query order.
    let found = engine
        .find(&SearchOptions {
            query: "pyhton recieve python pyhton".into(),
            ..options("")
        })
        .unwrap();
    assert_eq!(
        found.read_as,
        [
            ("pyhton".to_owned(), "python".to_owned()),
            ("recieve".to_owned(), "receive".to_owned())
        ]
    );
    assert!(engine
        .find(&options("python receive"))
        .unwrap()
        .read_as
        .is_empty());
    // The corrected word counts as a word of the query: the message holding both words comes
    // first, above one that repeats the other word, as it would for the words spelt right.
    let repeats = engine_with(vec![
        session("build", &["the python build failed again"]),
        session("tests", &["python python python tests"]),
    ]);
    assert_eq!(names(&find(&repeats, "python", false)), ["tests", "build"]);
    assert_eq!(
        names(&find(&repeats, "python bulid", false)),
        ["build", "tests"]
    );
}

#[test]
fn a_search_that_only_suggests_finds_the_words_as_typed_and_names_the_nearest() {
    let engine = engine_with(vec![
        session("help", &["please help me with this"]),
        session("helm", &["deploy the chart"]),
    ]);
    let suggest = |query: &str| {
        engine
            .find(&SearchOptions {
                typos: Typos::Suggest,
                ..options(query)
            })
            .unwrap()
    };
    // `helpp` is held nowhere: nothing found, `help` named.
    let found = suggest("helpp");
    assert!(found.hits.is_empty());
    assert_eq!(found.read_as, [("helpp".to_owned(), "help".to_owned())]);
    // Another word still finds its session, marked as typed.
    let found = suggest("helpp chart");
    assert_eq!(names(&found.hits), ["helm"]);
    assert_eq!(marked(&found.hits[0]), ["chart"]);
    // Off: nothing looked up, nothing named.
    let off = engine
        .find(&SearchOptions {
            typos: Typos::Off,
            ..options("helpp")
        })
        .unwrap();
    assert!(off.hits.is_empty() && off.read_as.is_empty());
    // Snippets made as the search made them: the typo marks nothing.
    let made = engine
        .snippets(
            "helpp",
            false,
            Typos::Suggest,
            TextKind::Conversation,
            &[TextKind::Conversation],
            &["please help me".to_owned()],
            200,
        )
        .unwrap();
    assert!(made[0].1.is_empty());
    let made = engine
        .snippets(
            "helpp",
            false,
            Typos::Correct,
            TextKind::Conversation,
            &[TextKind::Conversation],
            &["please help me".to_owned()],
            200,
        )
        .unwrap();
    assert_eq!(made[0].1.len(), 1);
}

#[test]
fn words_the_index_holds_quoted_words_short_words_and_unfinished_words_stay_as_typed() {
    let engine = engine_with(vec![
        session("python", &["python python python everywhere"]),
        session("pythons", &["pythons once"]),
        session("bolt", &["a bolt of lightning"]),
    ]);
    // `pythons` is held (once), so it is not read as the more frequent `python`.
    assert_eq!(names(&find(&engine, "pythons", false)), ["pythons"]);
    // Quoted: asked for as typed.
    assert!(find(&engine, "\"pyhton\"", false).is_empty());
    // Under four letters, or anything but letters: no correction.
    assert!(find(&engine, "blt", false).is_empty());
    assert!(find(&engine, "pyth0n", false).is_empty());
    // At most four words of a query are looked up (in query order): a pasted log is no typo.
    let many = engine_with(vec![session(
        "alphabet",
        &["alpha bravo charlie delta echoes foxtrot"],
    )]);
    let hits = find(&many, "aplha brvao chralie detla ecohes fxotrot", false);
    assert_eq!(marked(&hits[0]), ["alpha", "bravo", "charlie", "delta"]);
    // The unfinished last word of a search-as-you-type is matched by its completions only.
    assert!(find(&engine, "pyhton", true).is_empty());
    assert_eq!(
        names(&find(&engine, "pyhton bol", true)),
        ["python", "bolt"]
    );
}

//! The same session files rank the same whatever the history of the index: an index kept up to
//! date through appends, rewrites and deletions (so with deleted documents in its segments, and
//! segments merged from them) scores exactly like a clean rebuild of the same files.

use std::time::Duration;

use recall_native::engine::Engine;
use recall_native::index::changes::{ChangeSet, SessionUpdate};
use recall_native::index::session::{MessageDoc, SessionMeta};
use recall_native::index::text_kind::TextKind;
use recall_native::search::correction::Typos;
use recall_native::search::find::SearchOptions;
use recall_native::search::query::Filters;

const NOW: i64 = 1_800_000_000_000;
const WORDS: &[&str] = &[
    "deploy",
    "staging",
    "nginx",
    "cluster",
    "helm",
    "chart",
    "probe",
    "readiness",
    "timeout",
    "retry",
    "cache",
    "index",
    "query",
    "token",
    "merge",
    "segment",
    "tantivy",
    "rust",
    "node",
    "socket",
    "error",
    "panic",
    "thread",
    "lock",
    "commit",
    "branch",
];

/// A small deterministic generator (xorshift), so the corpus is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

fn text(rng: &mut Rng) -> String {
    // Lengths vary a lot: field norms above ~40 tokens are the ones a merge would estimate.
    let length = 3 + rng.next(80);
    // Skewed: early words are common, later ones rare.
    (0..length)
        .map(|_| {
            let bound = rng.next(WORDS.len()) + 1;
            WORDS[rng.next(bound)]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn meta(n: usize, messages: usize) -> SessionMeta {
    SessionMeta {
        id: format!("id-{n}"),
        path: format!("/sessions/{n}.jsonl"),
        cwd: "/p".into(),
        created: NOW - 1000,
        modified: NOW - 1000,
        message_count: messages as u32,
        tags: if n.is_multiple_of(5) {
            vec!["deploy".into()]
        } else {
            Vec::new()
        },
        ..Default::default()
    }
}

fn message(index: usize, text: &str) -> MessageDoc {
    MessageDoc {
        index: index as u32,
        role: "user".into(),
        entry_id: format!("e{index}"),
        timestamp: NOW - 1000,
        text: text.to_owned(),
        kind: None,
        tool: None,
        files: None,
        line_offset: None,
    }
}

/// The message, and a tool call and its output after it (in the depth index): their documents
/// go through the same appends, rewrites and deletions.
fn with_tools(index: usize, text: &str) -> [MessageDoc; 3] {
    let tool = |kind: &str, words: String| MessageDoc {
        kind: Some(kind.to_owned()),
        tool: Some("bash".into()),
        entry_id: format!("{kind}{index}"),
        text: words,
        ..message(index, text)
    };
    let reversed = text.split(' ').rev().collect::<Vec<_>>().join(" ");
    [
        message(index, text),
        tool("call", reversed.clone()),
        tool("output", format!("{reversed} {text}")),
    ]
}

fn whole(n: usize, texts: &[String]) -> SessionUpdate {
    SessionUpdate {
        session: meta(n, texts.len()),
        messages: texts
            .iter()
            .enumerate()
            .flat_map(|(i, t)| with_tools(i, t))
            .collect(),
        replace_from: None,
        continued: None,
    }
}

fn write(engine: &Engine, changes: ChangeSet) {
    engine.lock(Duration::from_secs(1), 1).unwrap();
    engine.apply(&changes).unwrap();
    engine.commit("t", "").unwrap();
    engine.unlock().unwrap();
}

fn options(query: &str, content: &[TextKind]) -> SearchOptions {
    SearchOptions {
        query: query.to_owned(),
        limit: 20,
        prefix: true,
        filters: Filters::default(),
        content: content.to_vec(),
        now: NOW,
        recency_weight: 0.2,
        coordination: recall_native::search::query::DEFAULT_COORDINATION,
        snippet_chars: 200,
        typos: Typos::Correct,
        after: None,
    }
}

fn ranking(engine: &Engine, query: &str, content: &[TextKind]) -> Vec<(String, f64, String)> {
    engine
        .search(&options(query, content))
        .unwrap()
        .into_iter()
        .map(|hit| (hit.session.path, hit.score, hit.snippet))
        .collect()
}

#[test]
fn incremental_index_ranks_like_a_rebuild() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut sessions: Vec<Option<Vec<String>>> = Vec::new();
    let incremental = Engine::in_memory().unwrap();
    for round in 0..12 {
        let mut changes = ChangeSet::default();
        // New sessions.
        for _ in 0..6 {
            let texts: Vec<String> = (0..1 + rng.next(6)).map(|_| text(&mut rng)).collect();
            changes.sessions.push(whole(sessions.len(), &texts));
            sessions.push(Some(texts));
        }
        if round > 0 {
            for _ in 0..4 {
                let n = rng.next(sessions.len() - 6);
                let Some(texts) = sessions[n].as_mut() else {
                    continue;
                };
                if changes
                    .sessions
                    .iter()
                    .any(|s| s.session.path == meta(n, 0).path)
                {
                    continue;
                }
                match rng.next(3) {
                    // An append that continues the last message and adds one.
                    0 => {
                        let from = texts.len() - 1;
                        texts[from].push_str(&format!(" {}", text(&mut rng)));
                        texts.push(text(&mut rng));
                        let messages = texts
                            .iter()
                            .enumerate()
                            .skip(from)
                            .flat_map(|(i, t)| with_tools(i, t))
                            .collect();
                        changes.sessions.push(SessionUpdate {
                            session: meta(n, texts.len()),
                            messages,
                            replace_from: Some(from as u32),
                            continued: None,
                        });
                    }
                    // A rewrite.
                    1 => {
                        *texts = (0..1 + rng.next(6)).map(|_| text(&mut rng)).collect();
                        changes.sessions.push(whole(n, texts));
                    }
                    // A deletion.
                    _ => {
                        changes.remove_paths.push(meta(n, 0).path);
                        sessions[n] = None;
                    }
                }
            }
        }
        write(&incremental, changes);
    }
    let segments_with_deletes = incremental
        .searcher()
        .segment_readers()
        .iter()
        .filter(|s| s.has_deletes())
        .count();
    assert!(
        segments_with_deletes > 0,
        "the history left deleted documents in the segments"
    );

    let rebuilt = Engine::in_memory().unwrap();
    let all = sessions
        .iter()
        .enumerate()
        .filter_map(|(n, texts)| texts.as_ref().map(|t| whole(n, t)))
        .collect();
    write(
        &rebuilt,
        ChangeSet {
            sessions: all,
            ..Default::default()
        },
    );
    assert_eq!(
        incremental.stats().unwrap().documents,
        rebuilt.stats().unwrap().documents
    );

    for query in [
        "deploy",
        "staging nginx",
        "helm chart probe",
        "readiness timeout retry",
        "tantivy seg",
        "\"merge segment\" lock",
    ] {
        for content in [&[][..], &TextKind::ALL[..]] {
            let (incremental, rebuilt) = (
                ranking(&incremental, query, content),
                ranking(&rebuilt, query, content),
            );
            assert!(!rebuilt.is_empty(), "{query} finds nothing");
            assert_eq!(incremental, rebuilt, "{query} in {content:?}");
        }
    }
}

#[test]
fn ties_rank_the_same_in_an_incremental_index_and_a_rebuild() {
    // 200 sessions with the same text at the same time: every score ties, and so does recency.
    let tied = |n: usize| SessionUpdate {
        session: meta(n, 1),
        messages: vec![message(0, "alphacommon words here")],
        replace_from: None,
        continued: None,
    };
    let incremental = Engine::in_memory().unwrap();
    // Written in batches from the end, with some sessions rewritten and some removed and written
    // again: the segments hold them in another order than a rebuild does.
    for batch in (0..200).collect::<Vec<_>>().rchunks(25) {
        write(
            &incremental,
            ChangeSet {
                sessions: batch.iter().map(|&n| tied(n)).collect(),
                ..Default::default()
            },
        );
    }
    write(
        &incremental,
        ChangeSet {
            sessions: (0..200).step_by(7).map(tied).collect(),
            ..Default::default()
        },
    );
    write(
        &incremental,
        ChangeSet {
            remove_paths: (0..200).step_by(3).map(|n| meta(n, 0).path).collect(),
            ..Default::default()
        },
    );
    write(
        &incremental,
        ChangeSet {
            sessions: (0..200).step_by(3).map(tied).collect(),
            ..Default::default()
        },
    );

    let rebuilt = Engine::in_memory().unwrap();
    write(
        &rebuilt,
        ChangeSet {
            sessions: (0..200).map(tied).collect(),
            ..Default::default()
        },
    );

    for limit in [1, 8, 50] {
        let ranked = |engine: &Engine| {
            let options = SearchOptions {
                limit,
                ..options("alphacommon", &[])
            };
            engine
                .search(&options)
                .unwrap()
                .into_iter()
                .map(|hit| (hit.session.path, hit.score))
                .collect::<Vec<_>>()
        };
        let (incremental, rebuilt) = (ranked(&incremental), ranked(&rebuilt));
        assert_eq!(rebuilt.len(), limit);
        assert_eq!(incremental, rebuilt, "limit {limit}");
    }
}

#[test]
fn a_short_list_is_the_head_of_a_long_one() {
    // Documents too weak to reach the best `limit` sessions are skipped (session_floor.rs): the
    // first hits of a short list must still be exactly those of a long one, scores, snippets and
    // best messages included, with recency, tags (every fifth session), deletions and segments.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let engine = Engine::in_memory().unwrap();
    let aged = |n: usize, texts: &[String]| {
        let mut update = whole(n, texts);
        update.session.modified = NOW - (n % 17) as i64 * 86_400_000;
        update
    };
    // Each batch is a segment, its messages padded to another length: segments whose own BM25
    // statistics (written into their block maxima) differ from the live ones searches score with.
    for batch in 0..5 {
        let padding = " filler".repeat(batch * batch * 12);
        let texts = |rng: &mut Rng| {
            (0..1 + rng.next(5))
                .map(|_| format!("{}{padding}", text(rng)))
                .collect::<Vec<_>>()
        };
        let sessions = (batch * 200..batch * 200 + 200)
            .map(|n| aged(n, &texts(&mut rng)))
            .collect();
        write(
            &engine,
            ChangeSet {
                sessions,
                ..Default::default()
            },
        );
    }
    write(
        &engine,
        ChangeSet {
            remove_paths: (0..1000).step_by(9).map(|n| meta(n, 0).path).collect(),
            ..Default::default()
        },
    );
    let hits = |query: &str, content: &[TextKind], limit: usize| {
        let options = SearchOptions {
            limit,
            ..options(query, content)
        };
        engine
            .search(&options)
            .unwrap()
            .into_iter()
            .map(|hit| {
                (
                    hit.session.path,
                    hit.score,
                    hit.message.map(|m| m.index),
                    hit.snippet,
                )
            })
            .collect::<Vec<_>>()
    };
    for query in [
        "deploy",
        "staging nginx",
        "helm chart probe",
        "readiness timeout retry",
        "tantivy seg",
        "\"merge segment\" lock",
    ] {
        for content in [&[][..], &TextKind::ALL[..]] {
            let long = hits(query, content, 2000);
            assert!(long.len() > 10, "{query} finds only {}", long.len());
            for limit in [1, 3, 10] {
                assert_eq!(
                    hits(query, content, limit),
                    long[..limit],
                    "{query} in {content:?}, limit {limit}"
                );
            }
        }
    }
}

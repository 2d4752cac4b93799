//! What the engine's tests share: a session as the sync would hand it to the engine.

use recall_native::engine::Engine;
use recall_native::index::changes::{ChangeSet, SessionUpdate};
use recall_native::index::session::{MessageDoc, SessionMeta};

const DAY: i64 = 24 * 3600 * 1000;

/// A session file of `texts` (user and assistant in turn) in `cwd`, last active at `modified`.
#[allow(dead_code)] // Not every test file makes its sessions with it.
pub fn session(name: &str, cwd: &str, modified: i64, texts: &[&str]) -> SessionUpdate {
    let meta = SessionMeta {
        id: format!("id-{name}"),
        path: format!("/sessions/{name}.jsonl"),
        cwd: cwd.to_owned(),
        name: None,
        created: modified - DAY,
        modified,
        message_count: texts.len() as u32,
        first_message: texts.first().map_or(String::new(), |t| t.to_string()),
        opening: None,
        parent: None,
        tags: Vec::new(),
    };
    let messages = texts
        .iter()
        .enumerate()
        .map(|(i, text)| MessageDoc {
            index: i as u32,
            role: if i % 2 == 0 {
                "user".into()
            } else {
                "assistant".into()
            },
            entry_id: format!("e{i}"),
            timestamp: modified - (texts.len() - i) as i64 * 1000,
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

/// Writes `sessions` as one commit of a sync, the writer lock taken and given back.
#[allow(dead_code)] // Not every test file writes more than once.
pub fn write(engine: &Engine, sessions: Vec<SessionUpdate>) {
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

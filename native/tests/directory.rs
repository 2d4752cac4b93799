//! The index folder: `.managed.json` is written without a flush (directory.rs), and the index
//! must work the same with it up to date, lost, or older than the files.

use std::time::Duration;

use recall_native::changes::ChangeSet;
use recall_native::engine::Engine;

fn commit_one(engine: &Engine, path: &str) {
    let changes: ChangeSet = serde_json::from_value(serde_json::json!({ "sessions": [{
        "session": { "id": path, "path": path, "cwd": "/p", "created": 1, "modified": 2, "messageCount": 1 },
        "messages": [{ "index": 0, "role": "user", "entryId": "e0", "timestamp": 2, "text": format!("findme {path}") }],
    }]}))
    .unwrap();
    engine.lock(Duration::from_secs(1), 1).unwrap();
    engine.apply(&changes).unwrap();
    engine.commit("t", "").unwrap();
    engine.unlock().unwrap();
}

fn managed(dir: &std::path::Path) -> Vec<String> {
    let mut list: Vec<String> = serde_json::from_str(&std::fs::read_to_string(dir.join(".managed.json")).unwrap()).unwrap();
    list.sort();
    list
}

#[test]
fn the_managed_list_names_every_file_tantivy_wrote_and_a_lost_one_breaks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(dir.path()).unwrap();
    commit_one(&engine, "/s/a.jsonl");
    commit_one(&engine, "/s/b.jsonl");
    let listed = managed(dir.path());
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".idx") || name.ends_with(".store") {
            assert!(listed.contains(&name), "{name} is not in .managed.json: {listed:?}");
        }
    }
    assert!(!dir.path().join(".managed.json.tmp").exists());
    drop(engine);

    std::fs::remove_file(dir.path().join(".managed.json")).unwrap();
    let reopened = Engine::open(dir.path()).unwrap();
    commit_one(&reopened, "/s/c.jsonl");
    assert_eq!(reopened.stats().unwrap().sessions, 3);
}

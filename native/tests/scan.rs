//! The freshness check: session files on disk compared with the file records in the index.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use recall_native::changes::ChangeSet;
use recall_native::engine::Engine;
use recall_native::files::{FileRecord, Selector};
use recall_native::scan::{Layout, SessionFile};

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Records the files as a sync would, through JSON as the change set travels from Node.
fn record(engine: &Engine, files: &[SessionFile]) {
    let records: Vec<serde_json::Value> = files
        .iter()
        .map(|f| serde_json::json!({ "path": f.path, "size": f.size, "mtimeMs": f.mtime_ms, "ino": f.ino, "sessionId": "s", "state": "{}" }))
        .collect();
    let changes: ChangeSet = serde_json::from_value(serde_json::json!({ "files": records })).unwrap();
    engine.lock(Duration::from_secs(1), 1).unwrap();
    engine.apply(&changes).unwrap();
    engine.commit("t", "").unwrap();
    engine.unlock().unwrap();
}

#[test]
fn reports_new_then_nothing_then_what_grew_or_went() {
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    let a = sessions.join("--p--/a.jsonl");
    let b = sessions.join("--p--/b.jsonl");
    write(&a, "{}\n");
    write(&b, "{}\n");
    write(&sessions.join("--p--/notes.txt"), "not a session");
    write(&sessions.join("--p--/sub/deeper.jsonl"), "{}\n"); // nested too deep
    write(&sessions.join("top.jsonl"), "{}\n"); // not in a project folder
    let engine = Engine::in_memory().unwrap();
    let dir = sessions.to_str().unwrap();

    let first = engine.scan(dir, Layout::Projects, true).unwrap();
    let paths: Vec<&str> = first.changed.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec![a.to_str().unwrap(), b.to_str().unwrap()]);
    record(&engine, &first.changed);

    let second = engine.scan(dir, Layout::Projects, true).unwrap();
    assert_eq!((second.unchanged, second.changed.len(), second.removed.len()), (2, 0, 0));

    fs::OpenOptions::new().append(true).open(&a).unwrap().write_all(b"{}\n").unwrap();
    fs::remove_file(&b).unwrap();
    let third = engine.scan(dir, Layout::Projects, true).unwrap();
    assert_eq!(third.changed.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec![a.to_str().unwrap()]);
    assert_eq!(third.removed, vec![b.to_str().unwrap().to_owned()]);

    let everything = engine.scan(dir, Layout::Projects, false).unwrap();
    assert_eq!(everything.changed.len(), 1);
    assert_eq!(engine.scan(dir, Layout::Flat, true).unwrap().changed[0].path, sessions.join("top.jsonl").to_str().unwrap());
}

#[test]
fn a_folder_it_cannot_read_hides_its_files_instead_of_removing_them() {
    if is_root() {
        return; // root reads any folder
    }
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    let project = sessions.join("--p--");
    write(&project.join("a.jsonl"), "{}\n");
    let engine = Engine::in_memory().unwrap();
    let dir = sessions.to_str().unwrap();
    record(&engine, &engine.scan(dir, Layout::Projects, true).unwrap().changed);
    fs::set_permissions(&project, fs::Permissions::from_mode(0o000)).unwrap();
    let scan = engine.scan(dir, Layout::Projects, true).unwrap();
    fs::set_permissions(&project, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(scan.removed.is_empty());
    assert_eq!(scan.failures.len(), 1);
    assert!(scan.failures[0].reason.starts_with("EACCES"), "{}", scan.failures[0].reason);
}

fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .map(|s| s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

#[test]
fn a_missing_sessions_folder_is_no_failure() {
    let engine = Engine::in_memory().unwrap();
    let scan = engine.scan("/nonexistent/recall/sessions", Layout::Projects, true).unwrap();
    assert_eq!((scan.files_total, scan.failures.len()), (0, 0));
}

#[test]
fn many_files_are_looked_at_on_two_threads_with_the_same_result() {
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    for i in 0..600 {
        write(&sessions.join(format!("--p{}--/{i:04}.jsonl", i % 7)), "{}\n");
    }
    let engine = Engine::in_memory().unwrap();
    let dir = sessions.to_str().unwrap();
    let first = engine.scan(dir, Layout::Projects, true).unwrap();
    assert_eq!(first.changed.len(), 600);
    assert!(first.changed.windows(2).all(|w| w[0].path < w[1].path));
    record(&engine, &first.changed);
    let second = engine.scan(dir, Layout::Projects, true).unwrap();
    assert_eq!((second.unchanged, second.changed.len()), (600, 0));
}

#[test]
fn records_are_found_by_path_by_parent_name_and_by_session_id_prefix() {
    let engine = Engine::in_memory().unwrap();
    let records = serde_json::json!({ "files": [
        { "path": "/s/p/one.jsonl", "size": 1, "mtimeMs": 1.5, "ino": 1, "sessionId": "0199aaaa-1", "state": "{\"n\":1}" },
        { "path": "/s/p/two.jsonl", "size": 2, "mtimeMs": 2.5, "ino": 2, "sessionId": "0199bbbb-2", "parentName": "one.jsonl", "state": "{\"n\":2}" },
    ]});
    engine.lock(Duration::from_secs(1), 1).unwrap();
    engine.apply(&serde_json::from_value(records).unwrap()).unwrap();
    engine.commit("t", "").unwrap();
    let paths = |selector: Selector| engine.file_records(&selector).unwrap().into_iter().map(|r: FileRecord| r.path).collect::<Vec<_>>();
    assert_eq!(paths(Selector::All), vec!["/s/p/one.jsonl", "/s/p/two.jsonl"]);
    assert_eq!(paths(Selector::Paths(vec!["/s/p/two.jsonl".into()])), vec!["/s/p/two.jsonl"]);
    assert_eq!(paths(Selector::ParentNames(vec!["one.jsonl".into()])), vec!["/s/p/two.jsonl"]);
    assert_eq!(paths(Selector::SessionIdPrefix("0199a".into())), vec!["/s/p/one.jsonl"]);
    assert_eq!(paths(Selector::SessionIdPrefix("0199".into())).len(), 2);
    let one = &engine.file_records(&Selector::Paths(vec!["/s/p/one.jsonl".into()])).unwrap()[0];
    assert_eq!((one.size, one.mtime_ms, one.ino, one.state.as_str()), (1, 1.5, 1, "{\"n\":1}"));
}

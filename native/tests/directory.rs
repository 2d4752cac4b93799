//! The index folder: `.managed.json` is written without a flush and merged with the list on disk
//! (directory.rs), and the index must work the same with it up to date, lost, or older than the
//! files; several processes may create the index at once (engine.rs); an open index knows when
//! its folder was deleted or replaced under it.

use std::time::Duration;

use recall_native::engine::Engine;
use recall_native::index::changes::ChangeSet;
use recall_native::replace::open_or_replace;

fn commit_one(engine: &Engine, path: &str) {
    let changes: ChangeSet = serde_json::from_value(serde_json::json!({ "sessions": [{
        "session": { "id": path, "path": path, "cwd": "/p", "created": 1, "modified": 2, "messageCount": 1 },
        "messages": [
            { "index": 0, "role": "user", "entryId": "e0", "timestamp": 2, "text": format!("findme {path}") },
            { "index": 0, "role": "toolResult", "entryId": "e1", "timestamp": 2, "text": "output", "kind": "output", "lineOffset": 0 },
        ],
    }]}))
    .unwrap();
    engine.lock(Duration::from_secs(20), 1).unwrap();
    engine.apply(&changes).unwrap();
    engine.commit("t", "").unwrap();
    engine.unlock().unwrap();
}

fn managed(dir: &std::path::Path) -> Vec<String> {
    let mut list: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(dir.join(".managed.json")).unwrap()).unwrap();
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
            assert!(
                listed.contains(&name),
                "{name} is not in .managed.json: {listed:?}"
            );
        }
    }
    let temporary = std::fs::read_dir(dir.path()).unwrap().filter(|e| {
        e.as_ref()
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp")
    });
    assert_eq!(temporary.count(), 0, "a temporary list was left behind");
    drop(engine);

    std::fs::remove_file(dir.path().join(".managed.json")).unwrap();
    let reopened = Engine::open(dir.path()).unwrap();
    commit_one(&reopened, "/s/c.jsonl");
    assert_eq!(reopened.stats().unwrap().sessions, 3);
}

/// The two index folders of a cache (the main index and its `depth` one).
fn index_folders(dir: &std::path::Path) -> [std::path::PathBuf; 2] {
    [dir.to_path_buf(), dir.join("depth")]
}

/// The files of the segments `meta.json` names.
fn living_files(dir: &std::path::Path) -> std::collections::BTreeSet<String> {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    let ids: Vec<String> = meta["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["segment_id"].as_str().unwrap().replace('-', ""))
        .collect();
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.starts_with('.') && name != "meta.json" && !dir.join(name).is_dir())
        .filter(|name| !ids.iter().any(|id| name.starts_with(id.as_str())))
        .collect()
}

#[test]
fn files_another_process_wrote_are_deleted_once_unused_even_by_an_index_opened_before_they_existed()
{
    let dir = tempfile::tempdir().unwrap();
    // Two handles with their own view of the folder, as two processes have: one opened early and
    // kept open (the Pi extension), one that writes in between (a CLI sync).
    let early = Engine::open(dir.path()).unwrap();
    let other = Engine::open(dir.path()).unwrap();
    for round in 0..12 {
        commit_one(&other, &format!("/s/other-{round}.jsonl"));
        commit_one(&early, &format!("/s/early-{round}.jsonl"));
    }
    drop((early, other));
    for folder in index_folders(dir.path()) {
        let listed = managed(&folder);
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let is_folder = entry.file_type().unwrap().is_dir();
            assert!(
                name.starts_with('.') || is_folder || listed.contains(&name),
                "{name} is not in .managed.json, so nothing will ever delete it"
            );
        }
    }
    // A process opened now sees every file the two wrote, and deletes those no segment uses.
    let fresh = Engine::open(dir.path()).unwrap();
    commit_one(&fresh, "/s/last.jsonl");
    assert_eq!(fresh.stats().unwrap().sessions, 25);
    for folder in index_folders(dir.path()) {
        assert_eq!(
            living_files(&folder),
            Default::default(),
            "files no segment uses were left behind in {}",
            folder.display()
        );
    }
}

#[test]
fn processes_creating_the_index_at_once_all_open_it_and_lose_no_commit() {
    for _round in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        let threads: Vec<_> = (0..6)
            .map(|t| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let engine = Engine::open(&path).map_err(|e| e.to_string())?;
                    let changes: ChangeSet = serde_json::from_value(serde_json::json!({ "sessions": [{
                        "session": { "id": format!("s{t}"), "path": format!("/s/{t}.jsonl"), "cwd": "/p", "created": 1, "modified": 2, "messageCount": 1 },
                        "messages": [{ "index": 0, "role": "user", "entryId": "e0", "timestamp": 2, "text": "findme" }],
                    }]}))
                    .unwrap();
                    engine.lock(Duration::from_secs(20), 1).map_err(|e| e.to_string())?;
                    engine.apply(&changes).map_err(|e| e.to_string())?;
                    engine.commit("t", "").map_err(|e| e.to_string())?;
                    engine.unlock().map_err(|e| e.to_string())
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap().unwrap();
        }
        assert_eq!(Engine::open(&path).unwrap().stats().unwrap().sessions, 6);
    }
}

#[test]
fn processes_finding_the_same_unusable_index_replace_it_once() {
    for _round in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index");
        commit_one(&Engine::open(&path).unwrap(), "/s/a.jsonl");
        std::fs::write(path.join("meta.json"), "not json").unwrap();

        let start = std::sync::Arc::new(std::sync::Barrier::new(6));
        let threads: Vec<_> = (0..6)
            .map(|t| {
                let (path, start) = (path.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    let (engine, replaced_because) =
                        open_or_replace(&path).map_err(|e| e.to_string())?;
                    commit_one(&engine, &format!("/s/{t}.jsonl"));
                    Ok::<_, String>(replaced_because)
                })
            })
            .collect();
        let reasons: Vec<Option<String>> = threads
            .into_iter()
            .map(|t| t.join().unwrap().unwrap())
            .collect();
        assert_eq!(reasons.iter().flatten().count(), 1, "{reasons:?}");
        // Every commit went to the one new index; nothing is left aside.
        assert_eq!(Engine::open(&path).unwrap().stats().unwrap().sessions, 6);
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(!names.iter().any(|n| n.contains("unusable")), "{names:?}");
    }
}

#[test]
fn an_open_index_knows_when_its_folder_is_deleted_or_replaced() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("index");
    let engine = Engine::open(&dir).unwrap();
    commit_one(&engine, "/s/a.jsonl");
    assert!(engine.is_in_place());

    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!engine.is_in_place());
    // Opening again makes a new index there, which is in place; the old handle stays out of it.
    let again = Engine::open(&dir).unwrap();
    assert!(again.is_in_place());
    assert_eq!(again.stats().unwrap().documents, 0);

    // Moved aside and replaced by another folder (as replace.rs does with an unusable index).
    std::fs::rename(&dir, root.path().join("aside")).unwrap();
    std::fs::create_dir(&dir).unwrap();
    assert!(!again.is_in_place());
    assert!(Engine::in_memory().unwrap().is_in_place());
}

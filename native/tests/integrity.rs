//! Segment files damaged in place (same size, other bytes) are found by their checksums: on
//! opening when changed since the last commit, by `recall index` when written since every file
//! last passed (whatever its modification time says), always when every file is checked; the
//! index is then replaced by an empty one, and an intact index never is.

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use recall_native::engine::Engine;
use recall_native::index::changes::ChangeSet;
use recall_native::index::integrity::{damaged_files_in, files_to_check, Scope};
use recall_native::replace::{open_checked, open_or_replace};
use tantivy::Index;

fn indexed(dir: &Path) {
    let engine = Engine::open(dir).unwrap();
    let changes: ChangeSet = serde_json::from_value(serde_json::json!({ "sessions": [{
        "session": { "id": "s", "path": "/s/a.jsonl", "cwd": "/p", "created": 1, "modified": 2, "messageCount": 1 },
        "messages": [{ "index": 0, "role": "user", "entryId": "e0", "timestamp": 2, "text": "findme ".repeat(200) }],
    }]}))
    .unwrap();
    engine.lock(Duration::from_secs(20), 1).unwrap();
    engine.apply(&changes).unwrap();
    engine.commit("t", "").unwrap();
    engine.unlock().unwrap();
}

fn segment_file(dir: &Path, extension: &str) -> std::path::PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == extension))
        .unwrap()
}

/// Overwrites 8 bytes in the middle of the file; `keep_time` sets its modification time back.
fn damage(path: &Path, keep_time: bool) {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    let mut file = OpenOptions::new().write(true).open(path).unwrap();
    let middle = file.metadata().unwrap().len() / 2;
    file.seek(SeekFrom::Start(middle)).unwrap();
    file.write_all(&[0xA5; 8]).unwrap();
    if keep_time {
        file.set_modified(modified).unwrap();
    }
}

#[test]
fn an_intact_index_has_no_damaged_files_and_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    indexed(dir.path());
    assert_eq!(
        Engine::open(dir.path())
            .unwrap()
            .damaged_files(Scope::All)
            .unwrap(),
        Vec::<String>::new()
    );
    assert!(open_or_replace(dir.path()).unwrap().1.is_none());
    assert!(open_checked(dir.path(), Scope::All).unwrap().1.is_none());
}

#[test]
fn a_file_damaged_since_the_last_commit_is_found_on_opening_and_the_index_replaced() {
    for extension in ["idx", "term", "store", "fast", "pos"] {
        let dir = tempfile::tempdir().unwrap();
        indexed(dir.path());
        let file = segment_file(dir.path(), extension);
        // Modification times may be as coarse as the clock tick.
        std::thread::sleep(Duration::from_millis(20));
        damage(&file, false);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            damaged_files_in(dir.path(), Scope::All).unwrap(),
            vec![name.clone()],
            ".{extension}"
        );
        let (engine, reason) = open_or_replace(dir.path()).unwrap();
        assert_eq!(
            reason.as_deref(),
            Some(format!("1 file failed their checksum: {name}").as_str()),
            ".{extension}"
        );
        assert_eq!(
            engine.stats().unwrap().documents,
            0,
            ".{extension}: replaced by an empty index"
        );
    }
}

#[test]
fn damage_that_kept_the_file_time_is_found_only_when_every_file_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    indexed(dir.path());
    let file = segment_file(dir.path(), "pos");
    damage(&file, true);
    assert_eq!(damaged_files_in(dir.path(), Scope::All).unwrap().len(), 1);
    // Opening does not read positions: the index looks fine.
    assert!(open_or_replace(dir.path()).unwrap().1.is_none());
    let (engine, reason) = open_checked(dir.path(), Scope::All).unwrap();
    assert!(reason.unwrap().contains("failed their checksum"));
    assert_eq!(engine.stats().unwrap().documents, 0);
}

#[test]
fn a_file_whose_damage_makes_opening_panic_is_found_and_the_index_replaced() {
    let dir = tempfile::tempdir().unwrap();
    indexed(dir.path());
    // The store's own index is read on opening: damage there panics inside Tantivy.
    damage(&segment_file(dir.path(), "store"), true);
    let (engine, reason) = open_or_replace(dir.path()).unwrap();
    assert!(reason.unwrap().contains("failed their checksum"));
    assert_eq!(engine.stats().unwrap().documents, 0);
}

#[test]
fn recall_index_reads_only_the_files_written_since_every_file_last_passed() {
    let dir = tempfile::tempdir().unwrap();
    indexed(dir.path());
    let index = Index::open_in_dir(dir.path()).unwrap();
    let all = files_to_check(&index, dir.path(), Scope::All).unwrap();
    assert!(!all.is_empty());
    // Never checked whole: every file is read, and the check that finds none damaged is noted.
    assert_eq!(
        files_to_check(&index, dir.path(), Scope::SinceChecked)
            .unwrap()
            .len(),
        all.len()
    );
    // The files were written well before the check began (see CLOCK_TICK in integrity.rs).
    std::thread::sleep(Duration::from_millis(100));
    assert!(open_checked(dir.path(), Scope::SinceChecked)
        .unwrap()
        .1
        .is_none());
    assert_eq!(
        files_to_check(&index, dir.path(), Scope::SinceChecked).unwrap(),
        Vec::<String>::new()
    );
    // A check with nothing to read writes nothing.
    let note = std::fs::metadata(dir.path().join(".checked"))
        .unwrap()
        .modified()
        .unwrap();
    assert!(open_checked(dir.path(), Scope::SinceChecked)
        .unwrap()
        .1
        .is_none());
    assert_eq!(
        std::fs::metadata(dir.path().join(".checked"))
            .unwrap()
            .modified()
            .unwrap(),
        note
    );
    // Damage that set the modification time back is still a change of the file.
    let file = segment_file(dir.path(), "pos");
    damage(&file, true);
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        files_to_check(&index, dir.path(), Scope::SinceChecked).unwrap(),
        vec![name]
    );
    let (engine, reason) = open_checked(dir.path(), Scope::SinceChecked).unwrap();
    assert!(reason.unwrap().contains("failed their checksum"));
    assert_eq!(engine.stats().unwrap().documents, 0);
}

#[test]
fn a_check_that_finds_damage_is_not_noted() {
    let dir = tempfile::tempdir().unwrap();
    indexed(dir.path());
    damage(&segment_file(dir.path(), "pos"), true);
    let index = Index::open_in_dir(dir.path()).unwrap();
    assert_eq!(
        damaged_files_in(dir.path(), Scope::SinceChecked)
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        files_to_check(&index, dir.path(), Scope::SinceChecked)
            .unwrap()
            .len(),
        files_to_check(&index, dir.path(), Scope::All)
            .unwrap()
            .len()
    );
}

#[test]
fn a_file_the_last_check_did_not_know_is_read_although_older_than_it() {
    let dir = tempfile::tempdir().unwrap();
    indexed(dir.path());
    std::thread::sleep(Duration::from_millis(100));
    assert!(open_checked(dir.path(), Scope::SinceChecked)
        .unwrap()
        .1
        .is_none());
    // As if a commit had added a file after the check listed the files, written before it began.
    let note = dir.path().join(".checked");
    let noted = std::fs::metadata(&note).unwrap().modified().unwrap();
    let names = std::fs::read_to_string(&note).unwrap();
    let (unknown, known) = names
        .lines()
        .collect::<Vec<_>>()
        .split_first()
        .map(|(first, rest)| (first.to_string(), rest.join("\n")))
        .unwrap();
    std::fs::write(&note, known).unwrap();
    OpenOptions::new()
        .write(true)
        .open(&note)
        .unwrap()
        .set_modified(noted)
        .unwrap();
    let index = Index::open_in_dir(dir.path()).unwrap();
    assert_eq!(
        files_to_check(&index, dir.path(), Scope::SinceChecked).unwrap(),
        vec![unknown]
    );
}

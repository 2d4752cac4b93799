//! The freshness check: session files on disk compared with the file records in the index.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use recall_native::engine::Engine;
use recall_native::index::changes::ChangeSet;
use recall_native::index::files::{FileRecord, Selector};
use recall_native::index::listing::Listings;
use recall_native::index::scan::{look, look_remembering, EarlyLook, Layout, SessionFile};

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A temporary folder holding a sessions folder with these session files (paths inside it).
fn sessions_with(files: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    for file in files {
        write(&sessions.join(file), "{}\n");
    }
    (root, sessions)
}

/// Records the files as a sync would, through JSON as the change set travels from Node.
fn record(engine: &Engine, files: &[SessionFile]) {
    let records: Vec<serde_json::Value> = files.iter().map(|f| serde_json::json!({ "path": f.path, "size": f.size, "mtimeMs": f.mtime_ms, "ino": f.ino, "sessionId": "s", "state": "{}" })).collect();
    let changes: ChangeSet =
        serde_json::from_value(serde_json::json!({ "files": records })).unwrap();
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

    let first = engine
        .scan(dir, Layout::Projects, true, None, None)
        .unwrap();
    let paths: Vec<&str> = first.changed.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec![a.to_str().unwrap(), b.to_str().unwrap()]);
    record(&engine, &first.changed);

    let second = engine
        .scan(dir, Layout::Projects, true, None, None)
        .unwrap();
    assert_eq!(
        (second.unchanged, second.changed.len(), second.removed.len()),
        (2, 0, 0)
    );

    fs::OpenOptions::new()
        .append(true)
        .open(&a)
        .unwrap()
        .write_all(b"{}\n")
        .unwrap();
    fs::remove_file(&b).unwrap();
    let third = engine
        .scan(dir, Layout::Projects, true, None, None)
        .unwrap();
    assert_eq!(
        third
            .changed
            .iter()
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>(),
        vec![a.to_str().unwrap()]
    );
    assert_eq!(third.removed, vec![b.to_str().unwrap().to_owned()]);

    let everything = engine
        .scan(dir, Layout::Projects, false, None, None)
        .unwrap();
    assert_eq!(everything.changed.len(), 1);
    assert_eq!(
        engine
            .scan(dir, Layout::Flat, true, None, None)
            .unwrap()
            .changed[0]
            .path,
        sessions.join("top.jsonl").to_str().unwrap()
    );
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
    record(
        &engine,
        &engine
            .scan(dir, Layout::Projects, true, None, None)
            .unwrap()
            .changed,
    );
    fs::set_permissions(&project, fs::Permissions::from_mode(0o000)).unwrap();
    let scan = engine
        .scan(dir, Layout::Projects, true, None, None)
        .unwrap();
    fs::set_permissions(&project, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(scan.removed.is_empty());
    assert_eq!(scan.failures.len(), 1);
    assert!(
        scan.failures[0].reason.starts_with("EACCES"),
        "{}",
        scan.failures[0].reason
    );
}

fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

#[test]
fn a_missing_sessions_folder_is_no_failure() {
    let engine = Engine::in_memory().unwrap();
    let scan = engine
        .scan(
            "/nonexistent/recall/sessions",
            Layout::Projects,
            true,
            None,
            None,
        )
        .unwrap();
    assert_eq!((scan.files_total, scan.failures.len()), (0, 0));
}

#[test]
fn many_files_are_looked_at_on_two_threads_with_the_same_result() {
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    for i in 0..600 {
        write(
            &sessions.join(format!("--p{}--/{i:04}.jsonl", i % 7)),
            "{}\n",
        );
    }
    let engine = Engine::in_memory().unwrap();
    let dir = sessions.to_str().unwrap();
    let first = engine
        .scan(dir, Layout::Projects, true, None, None)
        .unwrap();
    assert_eq!(first.changed.len(), 600);
    assert!(first.changed.windows(2).all(|w| w[0].path < w[1].path));
    record(&engine, &first.changed);
    let second = engine
        .scan(dir, Layout::Projects, true, None, None)
        .unwrap();
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
    engine
        .apply(&serde_json::from_value(records).unwrap())
        .unwrap();
    engine.commit("t", "").unwrap();
    let paths = |selector: Selector| {
        engine
            .file_records(&selector)
            .unwrap()
            .into_iter()
            .map(|r: FileRecord| r.path)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        paths(Selector::All),
        vec!["/s/p/one.jsonl", "/s/p/two.jsonl"]
    );
    assert_eq!(
        paths(Selector::Paths(vec!["/s/p/two.jsonl".into()])),
        vec!["/s/p/two.jsonl"]
    );
    assert_eq!(
        paths(Selector::ParentNames(vec!["one.jsonl".into()])),
        vec!["/s/p/two.jsonl"]
    );
    assert_eq!(
        paths(Selector::SessionIdPrefix("0199a".into())),
        vec!["/s/p/one.jsonl"]
    );
    assert_eq!(paths(Selector::SessionIdPrefix("0199".into())).len(), 2);
    let one = &engine
        .file_records(&Selector::Paths(vec!["/s/p/one.jsonl".into()]))
        .unwrap()[0];
    assert_eq!(
        (one.size, one.mtime_ms, one.ino, one.state.as_str()),
        (1, 1.5, 1, "{\"n\":1}")
    );
}

#[test]
fn an_early_look_stands_for_the_look_of_its_own_folder_only() {
    let (root, sessions) = sessions_with(&["--p--/a.jsonl"]);
    let a = sessions.join("--p--/a.jsonl");
    let engine = Engine::in_memory().unwrap();
    let dir = sessions.to_str().unwrap();
    record(
        &engine,
        &engine
            .scan(dir, Layout::Projects, true, None, None)
            .unwrap()
            .changed,
    );

    let early = EarlyLook::start(dir, Layout::Projects, None);
    while !early.is_finished() {
        std::thread::sleep(Duration::from_millis(1));
    }
    fs::OpenOptions::new()
        .append(true)
        .open(&a)
        .unwrap()
        .write_all(b"{}\n")
        .unwrap();
    // The look was taken before the append: the scan reports what it saw.
    let scan = engine
        .scan(dir, Layout::Projects, true, Some(early), None)
        .unwrap();
    assert_eq!((scan.unchanged, scan.changed.len()), (1, 0));
    // One of another folder, or of another layout, is not used.
    let other = EarlyLook::start(root.path().to_str().unwrap(), Layout::Projects, None);
    assert_eq!(
        engine
            .scan(dir, Layout::Projects, true, Some(other), None)
            .unwrap()
            .changed
            .len(),
        1
    );
    let flat = EarlyLook::start(dir, Layout::Flat, None);
    assert_eq!(
        engine
            .scan(dir, Layout::Projects, true, Some(flat), None)
            .unwrap()
            .changed
            .len(),
        1
    );
}

#[test]
fn a_symlinked_session_file_is_followed_and_a_folder_named_like_one_is_not_a_session() {
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    let target = root.path().join("elsewhere.jsonl");
    write(&target, "{}\n{}\n");
    write(&sessions.join("--p--/real.jsonl"), "{}\n");
    std::os::unix::fs::symlink(&target, sessions.join("--p--/linked.jsonl")).unwrap();
    fs::create_dir_all(sessions.join("--p--/folder.jsonl")).unwrap();
    std::os::unix::fs::symlink(root.path(), sessions.join("--p--/folder-link.jsonl")).unwrap();
    let engine = Engine::in_memory().unwrap();
    let scan = engine
        .scan(
            sessions.to_str().unwrap(),
            Layout::Projects,
            true,
            None,
            None,
        )
        .unwrap();
    let found: Vec<(String, u64)> = scan
        .changed
        .iter()
        .map(|f| {
            (
                Path::new(&f.path)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                f.size,
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![("linked.jsonl".to_owned(), 6), ("real.jsonl".to_owned(), 3)]
    );
    assert!(scan.failures.is_empty(), "{:?}", scan.failures);
}

fn names_of(listings: &Listings, folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = listings.folders[folder.to_str().unwrap()]
        .names
        .iter()
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

#[test]
fn a_remembered_listing_stands_for_its_folder_until_the_folder_changes() {
    let root = tempfile::tempdir().unwrap();
    let sessions = root.path().join("sessions");
    let project = sessions.join("--p--");
    write(&project.join("a.jsonl"), "{}\n");
    write(&project.join("notes.txt"), "not a session");
    let dir = sessions.to_str().unwrap();

    let (first, listings) = look(
        dir,
        Layout::Projects,
        Listings::default(),
        Some(Duration::ZERO),
    );
    assert_eq!(first.file_count(), 1);
    let mut listings = listings.expect("a settled folder's listing is remembered");
    assert_eq!(names_of(&listings, &project), vec!["a.jsonl"]);

    // A name only the listing has: looked at means the listing was used instead of the folder.
    listings
        .folders
        .get_mut(project.to_str().unwrap())
        .unwrap()
        .names
        .push("ghost.jsonl");
    let (second, unchanged) = look(dir, Layout::Projects, listings, Some(Duration::ZERO));
    assert_eq!(second.file_count(), 1);
    assert_eq!(second.failures.len(), 1);
    assert!(
        second.failures[0].path.ends_with("ghost.jsonl")
            && second.failures[0].reason.starts_with("ENOENT")
    );
    assert!(unchanged.is_none(), "nothing new to remember");

    // A new file changes the folder: it is read again, and the stale listing replaced.
    let (_, mut listings) = look(
        dir,
        Layout::Projects,
        Listings::default(),
        Some(Duration::ZERO),
    );
    listings
        .as_mut()
        .unwrap()
        .folders
        .get_mut(project.to_str().unwrap())
        .unwrap()
        .names
        .push("ghost.jsonl");
    std::thread::sleep(Duration::from_millis(50)); // past the file system's timestamp granularity
    write(&project.join("b.jsonl"), "{}\n");
    let (third, listings) = look(
        dir,
        Layout::Projects,
        listings.unwrap(),
        Some(Duration::ZERO),
    );
    assert_eq!((third.file_count(), third.failures.len()), (2, 0));
    assert_eq!(
        names_of(&listings.unwrap(), &project),
        vec!["a.jsonl", "b.jsonl"]
    );
}

#[test]
fn a_listing_is_remembered_only_once_its_folder_has_settled_and_can_be_written_down() {
    let (_root, sessions) = sessions_with(&["--p--/a.jsonl", "--q--/line\nbreak.jsonl"]);
    let dir = sessions.to_str().unwrap();
    // Just changed: a file made in the same clock tick could be missing from the listing.
    let (found, listings) = look(
        dir,
        Layout::Projects,
        Listings::default(),
        Some(Duration::from_secs(3600)),
    );
    assert_eq!(found.file_count(), 2);
    assert!(listings.is_none());
    // A name with a line break cannot be written one to a line: that folder is always read.
    let (_, listings) = look(
        dir,
        Layout::Projects,
        Listings::default(),
        Some(Duration::ZERO),
    );
    let listings = listings.unwrap();
    assert_eq!(listings.folders.len(), 1);
    assert!(listings
        .folders
        .contains_key(sessions.join("--p--").to_str().unwrap()));

    // A folder that is gone is forgotten.
    fs::remove_dir_all(sessions.join("--p--")).unwrap();
    let (_, listings) = look(dir, Layout::Projects, listings, Some(Duration::ZERO));
    assert!(listings.unwrap().folders.is_empty());
}

#[test]
fn loaded_listings_share_the_file_text_and_a_name_added_to_one_stays_there() {
    let (root, sessions) = sessions_with(&["--p--/a.jsonl", "--p--/b.jsonl", "--q--/c.jsonl"]);
    let file = root.path().join("folder-listings");
    let (_, listings) = look(
        sessions.to_str().unwrap(),
        Layout::Projects,
        Listings::default(),
        Some(Duration::ZERO),
    );
    listings.unwrap().save(&file).unwrap();
    let mut loaded = Listings::load(&file);
    let (p, q) = (sessions.join("--p--"), sessions.join("--q--"));
    assert_eq!(
        (names_of(&loaded, &p), names_of(&loaded, &q)),
        (
            vec!["a.jsonl".to_owned(), "b.jsonl".to_owned()],
            vec!["c.jsonl".to_owned()]
        )
    );
    loaded
        .folders
        .get_mut(q.to_str().unwrap())
        .unwrap()
        .names
        .push("d.jsonl");
    assert_eq!(names_of(&loaded, &q), vec!["c.jsonl", "d.jsonl"]);
    assert_eq!(names_of(&loaded, &p), vec!["a.jsonl", "b.jsonl"]);
}

#[test]
fn listings_are_kept_in_a_file_and_a_garbled_one_only_costs_a_read_of_every_folder() {
    let (root, sessions) = sessions_with(&["--p--/a b.jsonl"]);
    let dir = sessions.to_str().unwrap();
    let file = root.path().join("folder-listings");
    let (_, listings) = look(
        dir,
        Layout::Projects,
        Listings::default(),
        Some(Duration::ZERO),
    );
    let listings = listings.unwrap();
    listings.save(&file).unwrap();
    assert_eq!(Listings::load(&file), listings);

    for garbled in [
        "",
        "recall folder listings 1\n1 2 3\n",
        "recall folder listings 1\n1 2 3 4 5 /p\nonly one\n",
        "recall folder listings 1\n1 2 3 4 1 /p\n../elsewhere.jsonl\n",
        "something else\n",
    ] {
        fs::write(&file, garbled).unwrap();
        assert_eq!(Listings::load(&file), Listings::default(), "{garbled:?}");
        assert_eq!(
            look_remembering(dir, Layout::Projects, Some(&file)).file_count(),
            1
        );
    }
    assert_eq!(
        look_remembering(
            dir,
            Layout::Projects,
            Some(&root.path().join("missing/folder-listings"))
        )
        .file_count(),
        1
    );
}

#[test]
fn an_early_look_writes_its_listings_only_when_a_scan_takes_it() {
    let (root, sessions) = sessions_with(&["--p--/a.jsonl"]);
    let dir = sessions.to_str().unwrap();
    let file = root.path().join("folder-listings");
    std::thread::sleep(recall_native::index::listing::SETTLE + Duration::from_millis(200));

    let left = EarlyLook::start(dir, Layout::Projects, Some(file.clone()));
    while !left.is_finished() {
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(left);
    assert!(!file.exists(), "a look no scan took wrote its listings");

    let engine = Engine::in_memory().unwrap();
    let taken = EarlyLook::start(dir, Layout::Projects, Some(file.clone()));
    assert_eq!(
        engine
            .scan(dir, Layout::Projects, true, Some(taken), Some(&file))
            .unwrap()
            .changed
            .len(),
        1
    );
    assert_eq!(
        Listings::load(&file).folders.len(),
        1,
        "a settled folder is remembered"
    );
}

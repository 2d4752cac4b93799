//! Whether the index's files are intact. Tantivy ends every segment file with a checksum of its
//! bytes; a file damaged in place (same size, other bytes) is otherwise read as if it were fine,
//! and what it then does is anyone's guess: wrong answers, errors, or a panic, one of which (on
//! Tantivy's own segment updater thread, which has no panic handler) aborts the process.
//!
//! Checking every file reads the whole index, so it happens only where its cost is expected (a
//! repair after a failure, `recall doctor`). Opening the index checks only the segment files
//! changed since the last commit: Tantivy writes a segment file once, before the commit
//! (`meta.json`) that makes it searchable, so an active file newer than `meta.json` was written by
//! something else since. That costs one `stat` per file. `recall index` checks every file written
//! since every file last passed (`Scope::SinceChecked`): by the file's change time, which no
//! write can keep (setting a file's modification time back changes it too), against the time of
//! the last such check, kept as the modification time of `.checked` in the index folder, which
//! names the files that check knew to be whole (one committed after it listed them is read next
//! time). An index that nothing wrote to since is not read again.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tantivy::index::SegmentComponent;
use tantivy::Index;

use crate::error::{Code, RecallError, Result};
use crate::index::directory::IndexDirectory;

/// How a damaged file's name says that the file is not there at all.
pub const MISSING: &str = " (missing)";

/// Which of the active segment files a check reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Those changed since the last commit (opening the index).
    SinceCommit,
    /// Those written since every file last passed (`recall index`).
    SinceChecked,
    /// All of them (a repair after a failure, `recall doctor`).
    All,
}

/// In each index folder: the segment files the last check that found none damaged knew to be
/// whole, one name a line; its modification time is when that check began.
const CHECKED: &str = ".checked";

/// The active segment files that are missing or whose checksum does not match their bytes, by
/// name (a missing one marked so), sorted; of the files `scope` says (a missing one has changed).
/// A check that reads every file it had to and finds none damaged is noted for `SinceChecked`.
pub fn damaged_files(index: &Index, dir: &Path, scope: Scope) -> Result<Vec<String>> {
    let began = SystemTime::now();
    let (active, to_read) = plan(index, dir, scope)?;
    // Nothing to read: the last note still holds (every active file is in it), and a no-change
    // `recall index` writes nothing.
    let note = !to_read.is_empty() || !dir.join(CHECKED).exists();
    let mut damaged: Vec<String> = to_read
        .into_iter()
        .filter(|name| !intact(index, name))
        .map(|name| {
            if dir.join(&name).exists() {
                name
            } else {
                format!("{name}{MISSING}")
            }
        })
        .collect();
    damaged.sort();
    if damaged.is_empty() && scope != Scope::SinceCommit && note {
        // A read-only cache keeps no note: it is checked whole each time.
        let _ = note_checked(dir, &active, began);
    }
    Ok(damaged)
}

/// The active segment files a check of `scope` reads, by name.
pub fn files_to_check(index: &Index, dir: &Path, scope: Scope) -> Result<Vec<String>> {
    Ok(plan(index, dir, scope)?.1)
}

/// The active segment files, and those of them a check of `scope` reads.
fn plan(index: &Index, dir: &Path, scope: Scope) -> Result<(Vec<String>, Vec<String>)> {
    let active = active_files(index)?;
    let mut to_read = active.clone();
    match scope {
        Scope::SinceCommit => {
            let committed = modified(&dir.join("meta.json"))
                .ok_or_else(|| RecallError::new(Code::Corrupt, "meta.json cannot be read"))?;
            to_read.retain(|name| modified(&dir.join(name)).is_none_or(|time| time > committed));
        }
        Scope::SinceChecked => {
            if let Some((checked, whole)) = last_check(dir) {
                // A file the last check did not know (committed since it listed the files), or
                // changed since it began, is read; equal times too (the same clock tick).
                to_read.retain(|name| {
                    !whole.contains(name)
                        || changed(&dir.join(name)).is_none_or(|time| time >= checked)
                });
            }
        }
        Scope::All => {}
    }
    Ok((active, to_read))
}

/// When the last check that found no damage began, and the files it knew to be whole.
fn last_check(dir: &Path) -> Option<(SystemTime, HashSet<String>)> {
    let path = dir.join(CHECKED);
    let checked = modified(&path)?;
    let names = std::fs::read_to_string(&path).ok()?;
    Some((checked, names.lines().map(str::to_owned).collect()))
}

/// A file's change time comes from the kernel's coarse clock (a tick of up to 10 ms), which may
/// lag the time a check began by that much: the note is made this much earlier.
const CLOCK_TICK: Duration = Duration::from_millis(50);

/// `.checked` naming the files found whole, with the time the check began: a file written while
/// it ran is read the next time. Written aside and renamed, so a reader never sees half a list.
fn note_checked(dir: &Path, whole: &[String], began: SystemTime) -> std::io::Result<()> {
    let aside = dir.join(format!("{CHECKED}.{}", std::process::id()));
    let mut file = File::create(&aside)?;
    file.write_all(
        whole
            .iter()
            .map(|name| format!("{name}\n"))
            .collect::<String>()
            .as_bytes(),
    )?;
    file.set_modified(began - CLOCK_TICK)?;
    drop(file);
    std::fs::rename(&aside, dir.join(CHECKED))
}

/// `damaged_files` of the files `scope` says of the index in `dir`, for an index that failed to
/// open as an `Engine` (a damaged file may be read on the way). Needs only `meta.json`.
pub fn damaged_files_in(dir: &Path, scope: Scope) -> Result<Vec<String>> {
    let index = Index::open(IndexDirectory::open(dir)?)?;
    damaged_files(&index, dir, scope)
}

/// One line for a person: `2 files failed their checksum: a.idx, a.term`.
pub fn describe(damaged: &[String]) -> String {
    const NAMED: usize = 3;
    let mut names = damaged
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if damaged.len() > NAMED {
        names.push_str(&format!(" and {} more", damaged.len() - NAMED));
    }
    let files = if damaged.len() == 1 { "file" } else { "files" };
    let what = if damaged.iter().any(|name| name.ends_with(MISSING)) {
        "are missing or failed their checksum"
    } else {
        "failed their checksum"
    };
    format!("{} {files} {what}: {names}", damaged.len())
}

/// The files of the segments the last commit made searchable, as its `meta.json` names them (not
/// as the folder lists them: a file deleted is damage too): each segment's component files, and
/// its deletes if it has any.
fn active_files(index: &Index) -> Result<Vec<String>> {
    let metas = index.load_metas()?;
    let mut files = metas.list_segment_files();
    for segment in metas
        .segments
        .iter()
        .filter(|segment| !segment.has_deletes())
    {
        files.remove(&segment.relative_path(SegmentComponent::Delete));
    }
    Ok(files
        .into_iter()
        .map(|path| path.to_string_lossy().into_owned())
        .collect())
}

/// Whether the file's bytes match its checksum. A footer that cannot be read, or a read that
/// panics, is damage too.
fn intact(index: &Index, name: &str) -> bool {
    let path = PathBuf::from(name);
    matches!(
        catch_unwind(AssertUnwindSafe(|| index
            .directory()
            .validate_checksum(&path))),
        Ok(Ok(true))
    )
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// When the file's bytes or attributes last changed (its ctime), which no write can set back.
fn changed(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    let seconds = u64::try_from(meta.ctime()).ok()?;
    let nanos = u32::try_from(meta.ctime_nsec()).ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::new(seconds, nanos))
}

/// The files of the index in the cache folder `dir` and of its depth index (`depth/`) that are
/// damaged, read without opening either (`recall doctor`): of each index, a `meta.json` that
/// cannot be read, and each segment file it names that is missing, empty or fails its checksum.
/// Named from `dir` (`depth/….term (missing)`), sorted; none when all is well.
pub fn inspect(dir: &Path) -> Vec<String> {
    let mut damaged = inspect_one(dir, "");
    let depth = dir.join("depth");
    if depth.is_dir() {
        damaged.extend(inspect_one(&depth, "depth/"));
    }
    damaged
}

fn inspect_one(dir: &Path, prefix: &str) -> Vec<String> {
    // A main index yet to be made (nothing indexed) is not damage; a depth index missing under a
    // main one with commits is the engine's to say (engine.rs).
    if !dir.join("meta.json").exists() {
        return Vec::new();
    }
    let files = IndexDirectory::open(dir)
        .map_err(RecallError::from)
        .and_then(|directory| {
            let index = Index::open(directory)?;
            Ok((active_files(&index)?, index))
        });
    let (mut files, index) = match files {
        Ok(opened) => opened,
        Err(error) => {
            return vec![format!(
                "{prefix}meta.json (cannot be read: {})",
                error.message
            )]
        }
    };
    files.sort();
    files
        .into_iter()
        .filter_map(|name| match std::fs::metadata(dir.join(&name)) {
            Err(_) => Some(format!("{prefix}{name}{MISSING}")),
            Ok(meta) if meta.len() == 0 => Some(format!("{prefix}{name} (empty)")),
            Ok(_) if !intact(&index, &name) => Some(format!("{prefix}{name}")),
            Ok(_) => None,
        })
        .collect()
}

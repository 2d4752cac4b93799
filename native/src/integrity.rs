//! Whether the index's files are intact. Tantivy ends every segment file with a checksum of its
//! bytes; a file damaged in place (same size, other bytes) is otherwise read as if it were fine,
//! and what it then does is anyone's guess: wrong answers, errors, or a panic, one of which (on
//! Tantivy's own segment updater thread, which has no panic handler) aborts the process.
//!
//! Checking every file reads the whole index, so it happens only where its cost is expected (a
//! repair after a failure, `recall index`, `recall doctor`). Opening the index checks only the
//! segment files changed since the last commit: Tantivy writes a segment file once, before the
//! commit (`meta.json`) that makes it searchable, so an active file newer than `meta.json` was
//! written by something else since. That costs one `stat` per file.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use tantivy::index::SegmentComponent;
use tantivy::Index;

use crate::directory::IndexDirectory;
use crate::error::{Code, RecallError, Result};

/// How a damaged file's name says that the file is not there at all.
pub const MISSING: &str = " (missing)";

/// The active segment files that are missing or whose checksum does not match their bytes, by
/// name (a missing one marked so), sorted; all of them (`only_changed` false) or those changed
/// since the last commit of `dir` (a missing file has changed).
pub fn damaged_files(index: &Index, dir: &Path, only_changed: bool) -> Result<Vec<String>> {
    let mut files = active_files(index)?;
    if only_changed {
        let committed = modified(&dir.join("meta.json")).ok_or_else(|| RecallError::new(Code::Corrupt, "meta.json cannot be read"))?;
        files.retain(|name| modified(&dir.join(name)).is_none_or(|time| time > committed));
    }
    let mut damaged: Vec<String> = files
        .into_iter()
        .filter(|name| !intact(index, name))
        .map(|name| if dir.join(&name).exists() { name } else { format!("{name}{MISSING}") })
        .collect();
    damaged.sort();
    Ok(damaged)
}

/// `damaged_files` of every segment file of the index in `dir`, for an index that failed to
/// open as an `Engine` (a damaged file may be read on the way). Needs only `meta.json`.
pub fn damaged_files_in(dir: &Path) -> Result<Vec<String>> {
    let index = Index::open(IndexDirectory::open(dir)?)?;
    damaged_files(&index, dir, false)
}

/// One line for a person: `2 files failed their checksum: a.idx, a.term`.
pub fn describe(damaged: &[String]) -> String {
    const NAMED: usize = 3;
    let mut names = damaged.iter().take(NAMED).cloned().collect::<Vec<_>>().join(", ");
    if damaged.len() > NAMED {
        names.push_str(&format!(" and {} more", damaged.len() - NAMED));
    }
    let files = if damaged.len() == 1 { "file" } else { "files" };
    let what = if damaged.iter().any(|name| name.ends_with(MISSING)) { "are missing or failed their checksum" } else { "failed their checksum" };
    format!("{} {files} {what}: {names}", damaged.len())
}

/// The files of the segments the last commit made searchable, as its `meta.json` names them (not
/// as the folder lists them: a file deleted is damage too): each segment's component files, and
/// its deletes if it has any.
fn active_files(index: &Index) -> Result<Vec<String>> {
    let metas = index.load_metas()?;
    let mut files = metas.list_segment_files();
    for segment in metas.segments.iter().filter(|segment| !segment.has_deletes()) {
        files.remove(&segment.relative_path(SegmentComponent::Delete));
    }
    Ok(files.into_iter().map(|path| path.to_string_lossy().into_owned()).collect())
}

/// Whether the file's bytes match its checksum. A footer that cannot be read, or a read that
/// panics, is damage too.
fn intact(index: &Index, name: &str) -> bool {
    let path = PathBuf::from(name);
    matches!(catch_unwind(AssertUnwindSafe(|| index.directory().validate_checksum(&path))), Ok(Ok(true)))
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
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
    let files = IndexDirectory::open(dir).map_err(RecallError::from).and_then(|directory| {
        let index = Index::open(directory)?;
        Ok((active_files(&index)?, index))
    });
    let (mut files, index) = match files {
        Ok(opened) => opened,
        Err(error) => return vec![format!("{prefix}meta.json (cannot be read: {})", error.message)],
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

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

use tantivy::Index;

use crate::directory::IndexDirectory;
use crate::error::{Code, RecallError, Result};

/// The active segment files whose checksum does not match their bytes, by name, sorted; all
/// of them (`only_changed` false) or those changed since the last commit of `dir`.
pub fn damaged_files(index: &Index, dir: &Path, only_changed: bool) -> Result<Vec<String>> {
    let mut files = active_files(index, dir)?;
    if only_changed {
        let committed = modified(&dir.join("meta.json")).ok_or_else(|| RecallError::new(Code::Corrupt, "meta.json cannot be read"))?;
        files.retain(|name| modified(&dir.join(name)).is_none_or(|time| time > committed));
    }
    let mut damaged: Vec<String> = files.into_iter().filter(|name| !intact(index, name)).collect();
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
    format!("{} {files} failed their checksum: {names}", damaged.len())
}

/// The names of the files of the segments the last commit made searchable.
fn active_files(index: &Index, dir: &Path) -> Result<Vec<String>> {
    let ids: Vec<String> = index.searchable_segment_metas()?.iter().map(|meta| meta.id().uuid_string()).collect();
    let io = |e: std::io::Error| RecallError::new(Code::Io, format!("{}: {e}", dir.display()));
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let name = entry.map_err(io)?.file_name().to_string_lossy().into_owned();
        if ids.iter().any(|id| name.starts_with(id.as_str())) {
            names.push(name);
        }
    }
    Ok(names)
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

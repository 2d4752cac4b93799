//! Opening an index that cannot be used (corrupt, with damaged files, or written by another schema
//! version): it is moved aside and an empty one takes its place, to be filled again from the
//! session files.
//!
//! Several processes may find the same unusable index at once. One at a time replaces it, holding
//! a lock file beside the index folder (inside it, the lock would move aside with the folder), and
//! each looks again once it has the lock: a process that finds the folder already replaced opens
//! the new index instead of moving it aside under the feet of the one that made it.

use std::fs::File;
use std::panic::catch_unwind;
use std::path::{Path, PathBuf};

use crate::engine::Engine;
use crate::error::{Code, RecallError, Result};
use crate::index::integrity::{damaged_files_in, describe, Scope};
use crate::panics;

/// The open index, and why it was replaced if this call replaced it. Of the segment files, only
/// those changed since the last commit are checked (see integrity.rs).
pub fn open_or_replace(dir: &Path) -> Result<(Engine, Option<String>)> {
    open_checked(dir, Scope::SinceCommit)
}

/// Like `open_or_replace`, checking the segment files `check` says: every one written since
/// they last all passed (`recall index`), or all of them (after a failure).
pub fn open_checked(dir: &Path, check: Scope) -> Result<(Engine, Option<String>)> {
    // Whatever the failure, look again under the lock: the folder may be missing for a moment
    // because another process is replacing it right now.
    if let Ok(engine) = open_engine(dir) {
        if damage(&engine, check).is_none() {
            return Ok((engine, None));
        }
    }
    let lock = File::create(sibling(dir, "lock")).map_err(|e| io_error(dir, e))?;
    lock.lock().map_err(|e| io_error(dir, e))?;
    let reason = match open_engine(dir) {
        Ok(engine) => match damage(&engine, check) {
            None => return Ok((engine, None)),
            Some(reason) => reason,
        },
        Err(error) if unusable(&error) => error.message,
        // Opening reads some segment files: a damaged one may be why it failed.
        Err(error) => match damaged_files_in(dir, Scope::All) {
            Ok(damaged) if !damaged.is_empty() => describe(&damaged),
            _ => return Err(error),
        },
    };
    let aside = sibling(dir, &format!("unusable-{}", std::process::id()));
    std::fs::rename(dir, &aside).map_err(|e| io_error(dir, e))?;
    // The folder is only a cache: if it cannot be removed, it stays aside and nothing is lost.
    let _ = std::fs::remove_dir_all(&aside);
    Ok((Engine::open(dir)?, Some(reason)))
}

/// `Engine::open`, with a panic (a damaged file read on the way) made an error.
fn open_engine(dir: &Path) -> Result<Engine> {
    catch_unwind(|| Engine::open(dir)).unwrap_or_else(|panic| {
        Err(RecallError::new(
            Code::Internal,
            format!("opening the index panicked ({})", panics::message(&*panic)),
        ))
    })
}

/// What is wrong with the files of an index that opened, if anything is.
fn damage(engine: &Engine, check: Scope) -> Option<String> {
    match engine.damaged_files(check) {
        Ok(damaged) if damaged.is_empty() => None,
        Ok(damaged) => Some(describe(&damaged)),
        Err(error) if unusable(&error) => Some(error.message),
        // Not the index's fault (a folder that cannot be listed): its use will tell.
        Err(_) => None,
    }
}

fn unusable(error: &RecallError) -> bool {
    matches!(error.code, Code::Incompatible | Code::Corrupt)
}

/// `<dir>.<suffix>`, in the folder that holds `dir`.
fn sibling(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = dir.as_os_str().to_owned();
    name.push(format!(".{suffix}"));
    PathBuf::from(name)
}

fn io_error(path: &Path, error: std::io::Error) -> RecallError {
    RecallError::new(Code::Io, format!("{}: {error}", path.display()))
}

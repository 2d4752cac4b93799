//! Opening an index that cannot be used (corrupt, or written by another schema version): it is
//! moved aside and an empty one takes its place, to be filled again from the session files.
//!
//! Several processes may find the same unusable index at once. One at a time replaces it, holding
//! a lock file beside the index folder (inside it, the lock would move aside with the folder), and
//! each looks again once it has the lock: a process that finds the folder already replaced opens
//! the new index instead of moving it aside under the feet of the one that made it.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::engine::Engine;
use crate::error::{Code, RecallError, Result};

/// The open index, and why it was replaced if this call replaced it.
pub fn open_or_replace(dir: &Path) -> Result<(Engine, Option<String>)> {
    // Whatever the failure, look again under the lock: the folder may be missing for a moment
    // because another process is replacing it right now.
    if let Ok(engine) = Engine::open(dir) {
        return Ok((engine, None));
    }
    let lock = File::create(sibling(dir, "lock")).map_err(|e| io_error(dir, e))?;
    lock.lock().map_err(|e| io_error(dir, e))?;
    let reason = match Engine::open(dir) {
        Err(error) if unusable(&error) => error.message,
        opened => return opened.map(|engine| (engine, None)),
    };
    let aside = sibling(dir, &format!("unusable-{}", std::process::id()));
    std::fs::rename(dir, &aside).map_err(|e| io_error(dir, e))?;
    // The folder is only a cache: if it cannot be removed, it stays aside and nothing is lost.
    let _ = std::fs::remove_dir_all(&aside);
    Ok((Engine::open(dir)?, Some(reason)))
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

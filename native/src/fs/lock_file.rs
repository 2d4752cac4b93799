//! A lock file that says a process is running, for as long as it runs, with a line of text in it
//! about that process. `recall watch` holds one beside the index and writes "ready" in it once the
//! index has caught up with the session files; a search that finds it held and ready skips its own
//! freshness check. The lock is the operating system's (`flock`), so it goes with the process even
//! when the process is killed, and a stale text in a lock nobody holds means nothing.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::fs::identity::Identity;

/// How long `hold` keeps trying: a reader takes the lock shared for a moment to test it.
const HOLD_PATIENCE: Duration = Duration::from_millis(200);

pub struct HeldLock {
    file: File,
    path: PathBuf,
}

impl HeldLock {
    /// Takes the lock, or None when another process holds it. The text starts empty.
    pub fn hold(path: &Path) -> io::Result<Option<HeldLock>> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let deadline = Instant::now() + HOLD_PATIENCE;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(error)) => return Err(error),
            }
        }
        let mut held = HeldLock {
            file,
            path: path.to_path_buf(),
        };
        held.set_text("")?;
        Ok(Some(held))
    }

    /// Whether its path still names the file this lock is on: the file may have been deleted (the
    /// cache folder removed by hand) and perhaps made again by another process.
    pub fn is_in_place(&self) -> bool {
        self.file
            .metadata()
            .is_ok_and(|held| Identity::of(&held).named_by(&self.path))
    }

    /// Replaces the text. A reader may catch it empty or partly written: readers must take
    /// anything but the exact text they look for as "not yet".
    pub fn set_text(&mut self, text: &str) -> io::Result<()> {
        self.file.set_len(0)?;
        let mut line = text.as_bytes().to_vec();
        line.push(b'\n');
        self.file.write_all_at(&line, 0)
    }
}

/// The text of the lock file at `path` if some process holds it, or None if none does.
pub fn text_if_held(path: &Path) -> io::Result<Option<String>> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(None),
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            file.read_to_string(&mut text)?;
            Ok(Some(text.trim_end().to_owned()))
        }
        Err(TryLockError::Error(error)) => Err(error),
    }
}

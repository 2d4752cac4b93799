//! Whether a path still names the file or folder a process opened: the cache folder may be
//! deleted by hand, or an unusable index moved aside and replaced, while a long-lived process
//! (the Pi extension, `recall watch`) keeps what it opened.

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A file or folder as it was when opened: its device and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub(crate) dev: u64,
    pub(crate) ino: u64,
}

impl Identity {
    pub fn of(meta: &Metadata) -> Identity {
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
        }
    }

    /// Whether `path` names this file or folder now; false when it names nothing.
    pub fn named_by(self, path: &Path) -> bool {
        std::fs::metadata(path).is_ok_and(|meta| Identity::of(&meta) == self)
    }
}

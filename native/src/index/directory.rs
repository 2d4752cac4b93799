//! The index folder as Tantivy sees it: its memory-mapped directory, with its own way of writing
//! the list of files Tantivy manages (`.managed.json`).
//!
//! Tantivy keeps that list in memory from the moment the index is opened, and rewrites it whole
//! for every file a commit creates. With writers in several processes over time (the Pi extension
//! opened for hours, CLI syncs in between), the list of a process opened early would drop the
//! files written since by others, and nothing would ever delete them. So the list written here
//! also keeps every name of the list on disk whose file still exists. Only the holder of the writer
//! lock (or the one process creating the index, see engine.rs) writes it.
//!
//! The list is not flushed to disk: each flush cost an append about a millisecond here. It only
//! tells garbage collection which files it may delete once no segment uses them; after a crash an
//! older list (or none) means some unused files are never deleted, and a file in use is never lost,
//! because segment names are never reused. `meta.json` and the segment files are flushed as
//! before, and an unreadable list makes the index "corrupt", which is rebuilt.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, FileSlice, Lock, MmapDirectory, WatchCallback,
    WatchHandle, WritePtr, META_LOCK,
};

const MANAGED_LIST: &str = ".managed.json";

#[derive(Clone, Debug)]
pub struct IndexDirectory {
    mmap: MmapDirectory,
    root: PathBuf,
}

impl IndexDirectory {
    pub fn open(root: &Path) -> tantivy::Result<IndexDirectory> {
        let mmap = MmapDirectory::open(root)?;
        Ok(IndexDirectory {
            mmap,
            root: root.to_path_buf(),
        })
    }
}

fn cannot_write(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ReadOnlyFilesystem | io::ErrorKind::PermissionDenied
    )
}

/// A name no other process or thread writes at the same time.
fn temporary_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        "{MANAGED_LIST}.{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

impl Directory for IndexDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.mmap.get_file_handle(path)
    }

    fn open_read(&self, path: &Path) -> Result<FileSlice, OpenReadError> {
        self.mmap.open_read(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.mmap.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.mmap.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.mmap.open_write(path)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.mmap.atomic_read(path)
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        if path != Path::new(MANAGED_LIST) {
            return self.mmap.atomic_write(path, data);
        }
        let mut names: BTreeSet<PathBuf> = serde_json::from_slice(data)?;
        if let Ok(on_disk) = std::fs::read(self.root.join(MANAGED_LIST)) {
            // An unreadable list on disk is replaced by this one, as Tantivy would.
            let on_disk: BTreeSet<PathBuf> = serde_json::from_slice(&on_disk).unwrap_or_default();
            let others: Vec<PathBuf> = on_disk
                .into_iter()
                .filter(|name| !names.contains(name) && self.root.join(name).exists())
                .collect();
            names.extend(others);
        }
        let mut merged = serde_json::to_vec(&names)?;
        merged.push(b'\n');
        let temporary = self.root.join(temporary_name());
        std::fs::write(&temporary, merged)?;
        std::fs::rename(&temporary, self.root.join(MANAGED_LIST))
    }

    fn sync_directory(&self) -> io::Result<()> {
        self.mmap.sync_directory()
    }

    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        match self.mmap.acquire_lock(lock) {
            // Readers hold this lock while they open segments, against a writer deleting them.
            // In a folder nobody can write to, there is no such writer, and the lock file cannot
            // be made or opened for writing: reading goes on without it.
            Err(LockError::IoError(error))
                if lock.filepath == META_LOCK.filepath && cannot_write(&error) =>
            {
                Ok(DirectoryLock::from(Box::new(())))
            }
            other => other,
        }
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.mmap.watch(watch_callback)
    }
}

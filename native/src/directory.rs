//! The index folder as Tantivy sees it: its memory-mapped directory, except that the list of files
//! Tantivy manages (`.managed.json`) is written without flushing it to disk. Tantivy rewrites that
//! list for every file a commit creates, and each flush cost an append about a millisecond here.
//!
//! The list only tells garbage collection which files it may delete once no segment uses them.
//! After a crash an older list (or none) means some unused files are never deleted; a file in use
//! is never lost, because segment names are never reused. `meta.json` and the segment files are
//! flushed as before, and an unreadable list makes the index "corrupt", which is rebuilt.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, FileSlice, Lock, MmapDirectory, WatchCallback, WatchHandle, WritePtr,
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
        Ok(IndexDirectory { mmap, root: root.to_path_buf() })
    }
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
        // Only the holder of the writer lock writes the list, so one temporary name is enough;
        // the rename still makes the change all-or-nothing for readers.
        let temporary = self.root.join(format!("{MANAGED_LIST}.tmp"));
        std::fs::write(&temporary, data)?;
        std::fs::rename(&temporary, self.root.join(MANAGED_LIST))
    }

    fn sync_directory(&self) -> io::Result<()> {
        self.mmap.sync_directory()
    }

    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        self.mmap.acquire_lock(lock)
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.mmap.watch(watch_callback)
    }
}

//! The tag database as one process shares it between the JavaScript thread and the thread pool:
//! a writing connection and a reading one, each behind a lock of its own. A write may wait up to
//! `BUSY_TIMEOUT` for another process's transaction, holding the writing connection meanwhile; a
//! read on the JavaScript thread (Pi's UI) must not wait for it, so it never takes that lock.

use std::sync::{Mutex, MutexGuard};

use crate::error::{Code, RecallError};
use crate::tags::store::{TagDb, TagReader};

pub struct SharedTagDb {
    writer: Mutex<Option<TagDb>>,
    reader: Mutex<Option<TagReader>>,
}

/// A panic inside a call leaves the connection as SQLite left it: usable.
fn held<T>(slot: &Mutex<Option<T>>) -> MutexGuard<'_, Option<T>> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn closed() -> RecallError {
    RecallError::new(Code::Internal, "the tag database was closed")
}

impl SharedTagDb {
    pub fn new(db: TagDb) -> Result<SharedTagDb, RecallError> {
        let reader = db.reader()?;
        Ok(SharedTagDb {
            writer: Mutex::new(Some(db)),
            reader: Mutex::new(Some(reader)),
        })
    }

    /// A call on the writing connection (writes, and reads that belong to a write's snapshot).
    pub fn write<T>(
        &self,
        call: impl FnOnce(&mut TagDb) -> Result<T, RecallError>,
    ) -> Result<T, RecallError> {
        call(held(&self.writer).as_mut().ok_or_else(closed)?)
    }

    /// A call on the reading connection: never waits for a write of this process.
    pub fn read<T>(
        &self,
        call: impl FnOnce(&TagReader) -> Result<T, RecallError>,
    ) -> Result<T, RecallError> {
        call(held(&self.reader).as_ref().ok_or_else(closed)?)
    }

    /// Ends both connections (the writer's once a write under way is done); every later call fails.
    pub fn close(&self) {
        held(&self.reader).take();
        held(&self.writer).take();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{mpsc, Arc};

    use super::*;
    use crate::tags::store::Kind;

    #[test]
    fn a_read_answers_while_a_write_waits_for_another_connections_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tags.db");
        let path = path.to_str().unwrap();
        let shared = Arc::new(SharedTagDb::new(TagDb::open(path, "id", "now").unwrap()).unwrap());
        shared
            .write(|db| db.set_kind("s1", &["before".to_owned()], Kind::Manual))
            .unwrap();

        // Another process's transaction: it holds the write lock until it ends.
        let mut other = rusqlite::Connection::open(path).unwrap();
        let transaction = other
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .unwrap();

        let (done, written) = mpsc::channel();
        let writing = Arc::clone(&shared);
        let writer = std::thread::spawn(move || {
            let result = writing.write(|db| db.set_kind("s1", &["after".to_owned()], Kind::Manual));
            done.send(result.is_ok()).unwrap();
        });
        // Once the write holds the writing connection, it waits on the other transaction's lock.
        while shared.writer.try_lock().is_ok() {
            std::thread::yield_now();
        }
        let tags = shared.read(|reader| reader.merged("s1")).unwrap();
        assert_eq!(tags, vec!["before".to_owned()]);
        // The read answered while the write was still waiting (behind one lock, it waited for it).
        assert!(written.try_recv().is_err());

        transaction.rollback().unwrap();
        writer.join().unwrap();
        assert!(written.recv().unwrap());
        assert_eq!(
            shared.read(|reader| reader.merged("s1")).unwrap(),
            vec!["after".to_owned(), "before".to_owned()]
        );
    }
}

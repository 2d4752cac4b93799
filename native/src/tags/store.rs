//! The storage of the user's tags: one SQLite database (`tags.db`), the schema recall has used
//! since its first tag store. What the tags mean (normalizing, manual over automatic, importing,
//! restoring) is the library's (src/tags/tag-store.ts); this file keeps the rows durable.
//!
//! Several processes (CLIs, a Pi session, an autotag run) edit tags at once. Every write is one
//! `BEGIN IMMEDIATE` transaction, so writers queue on SQLite's lock instead of overwriting each
//! other's read-modify-write; the lock is a kernel file lock, so a process that dies holding it
//! leaves nothing stale behind; and a commit is journaled and fsynced (`synchronous = FULL`), so a
//! crash at any point leaves either the old or the new state.

use std::path::Path;
use std::time::Duration;

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};

use crate::error::{Code, RecallError};

const SCHEMA_VERSION: i64 = 1;
/// How long a statement waits for another process's transaction before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

const SCHEMA: &str = "
  CREATE TABLE IF NOT EXISTS tags (
    session_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'auto', 'suppressed')),
    PRIMARY KEY (session_id, tag)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS tags_by_tag ON tags (tag);
  CREATE TABLE IF NOT EXISTS revisions (
    session_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS revisions_by_seq ON revisions (seq);
  CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
";

/// The meta key a database made in place of an empty (0-byte) file carries until the tags the
/// index still holds are copied back into it.
const RESTORE_KEY: &str = "restore-from-index";

const MERGED: &str = "SELECT tag FROM tags WHERE session_id = ? AND kind != 'suppressed' ORDER BY kind = 'auto', tag";

/// Gives the session the next revision number (inside the write transaction).
const BUMP: &str = "INSERT INTO revisions (session_id, seq) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM revisions))
  ON CONFLICT DO UPDATE SET seq = excluded.seq";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Manual,
    Auto,
    Suppressed,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Manual => "manual",
            Kind::Auto => "auto",
            Kind::Suppressed => "suppressed",
        }
    }
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TagSets {
    pub manual: Vec<String>,
    pub auto: Vec<String>,
    pub suppressed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionTags {
    pub session_id: String,
    pub tags: Vec<String>,
}

/// The sessions edited after a revision, with their merged tags, and the newest revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changes {
    pub seq: i64,
    pub sessions: Vec<SessionTags>,
}

/// The connection that writes (and opens, and reads what a write needs).
pub struct TagDb {
    path: String,
    conn: Connection,
    id: String,
}

/// A connection that only reads: a read never queues behind this process's writes, which may wait
/// up to `BUSY_TIMEOUT` for another process's transaction. It waits only while a commit is
/// being written.
pub struct TagReader {
    path: String,
    conn: Connection,
}

/// SQLite's errors in recall's codes, naming the database.
fn store_error(path: &str, error: rusqlite::Error) -> RecallError {
    let code = error.sqlite_error_code();
    match code {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            RecallError::new(Code::Locked, format!("another recall process kept the tag database {path} busy for over {} s; try again", BUSY_TIMEOUT.as_secs()))
        }
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
            RecallError::new(Code::Corrupt, format!("the tag database {path} is damaged ({error}); restore it from a backup or move it aside"))
        }
        _ => RecallError::new(Code::Io, format!("cannot use the tag database {path}: {error}")),
    }
}

impl TagDb {
    /// Opens the database at `path`, creating it (with `fresh_id`) if it is new. `now` stamps the
    /// restore marker a database made in place of an empty file gets.
    pub fn open(path: &str, fresh_id: &str, now: &str) -> Result<TagDb, RecallError> {
        let emptied = std::fs::metadata(path)
            .map(|m| m.is_file() && m.len() == 0)
            .unwrap_or(false);
        let fail = |error| store_error(path, error);
        let mut conn = Connection::open(path).map_err(fail)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(fail)?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(fail)?;
        if version > SCHEMA_VERSION {
            return Err(RecallError::new(Code::Incompatible, format!("the tag database {path} was written by a newer recall (schema {version}); upgrade recall")));
        }
        // Only a new database takes the write lock here. Processes creating it at once queue, and
        // each statement does nothing for all but the first.
        if version < SCHEMA_VERSION {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(fail)?;
            tx.execute_batch(SCHEMA).map_err(fail)?;
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)
                .map_err(fail)?;
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('id', ?) ON CONFLICT DO NOTHING",
                [fresh_id],
            )
            .map_err(fail)?;
            if emptied {
                tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    [RESTORE_KEY, now],
                )
                .map_err(fail)?;
            }
            tx.commit().map_err(fail)?;
        }
        let id: String = conn
            .query_row("SELECT value FROM meta WHERE key = 'id'", [], |row| {
                row.get(0)
            })
            .map_err(fail)?;
        Ok(TagDb {
            path: path.to_string(),
            conn,
            id,
        })
    }

    /// Random, made with the database: tells the index a replaced database from an edited one.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A connection of its own for reads.
    pub fn reader(&self) -> Result<TagReader, RecallError> {
        let fail = |error| store_error(&self.path, error);
        // Not read-only: a connection that may not write cannot roll back the journal a crashed
        // writer left, and would fail until another did.
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(fail)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        Ok(TagReader {
            path: self.path.clone(),
            conn,
        })
    }

    fn fail(&self, error: rusqlite::Error) -> RecallError {
        store_error(&self.path, error)
    }

    /// One `BEGIN IMMEDIATE` transaction: takes the write lock first, so no two writers interleave.
    fn write<T>(
        &mut self,
        change: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<T>,
    ) -> Result<T, RecallError> {
        let result = (|| {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = change(&tx)?;
            tx.commit()?;
            Ok(value)
        })();
        result.map_err(|error| store_error(&self.path, error))
    }

    /// Sets `tags` of a session to `kind` (manual or suppressed), whatever they were.
    pub fn set_kind(
        &mut self,
        session_id: &str,
        tags: &[String],
        kind: Kind,
    ) -> Result<(), RecallError> {
        self.write(|tx| {
            let mut upsert = tx.prepare_cached("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET kind = excluded.kind")?;
            for tag in tags {
                upsert.execute(params![session_id, tag, kind.as_str()])?;
            }
            tx.execute(BUMP, [session_id])?;
            Ok(())
        })
    }

    /// Replaces a session's automatic tags; those already manual or suppressed are left as they are.
    pub fn set_auto(&mut self, session_id: &str, tags: &[String]) -> Result<(), RecallError> {
        self.write(|tx| {
            tx.execute("DELETE FROM tags WHERE session_id = ? AND kind = 'auto'", [session_id])?;
            let mut insert = tx.prepare_cached("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, 'auto') ON CONFLICT DO NOTHING")?;
            for tag in tags {
                insert.execute([session_id, tag])?;
            }
            tx.execute(BUMP, [session_id])?;
            Ok(())
        })
    }

    /// The sessions edited after revision `seq`, with their current tags, read as one snapshot.
    pub fn changes_since(&mut self, seq: i64) -> Result<Changes, RecallError> {
        let result = (|| {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Deferred)?;
            let ids: Vec<String> = {
                let mut statement = tx.prepare_cached(
                    "SELECT session_id FROM revisions WHERE seq > ? ORDER BY seq",
                )?;
                let rows = statement.query_map([seq], |row| row.get(0))?;
                rows.collect::<rusqlite::Result<_>>()?
            };
            let newest: i64 =
                tx.query_row("SELECT COALESCE(MAX(seq), 0) FROM revisions", [], |row| {
                    row.get(0)
                })?;
            let mut sessions = Vec::with_capacity(ids.len());
            for session_id in ids {
                let tags = merged(&tx, &session_id)?;
                sessions.push(SessionTags { session_id, tags });
            }
            tx.commit()?;
            Ok(Changes {
                seq: newest,
                sessions,
            })
        })();
        result.map_err(|e| self.fail(e))
    }

    /// Adds tags from another source once: `None` if `marker` was recorded before. Rows already
    /// here win; within a session, the kinds are tried in the order given. Returns how many
    /// sessions gained a tag.
    pub fn import_once(
        &mut self,
        marker: &str,
        now: &str,
        rows: &[(String, Vec<(String, Kind)>)],
    ) -> Result<Option<u32>, RecallError> {
        self.write(|tx| {
            if tx
                .query_row("SELECT 1 FROM meta WHERE key = ?", [marker], |_| Ok(()))
                .optional()?
                .is_some()
            {
                return Ok(None);
            }
            let changed = insert_missing(tx, rows)?;
            tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", [marker, now])?;
            Ok(Some(changed))
        })
    }

    /// Takes tags back as manual ones if the restore marker is still there (removing it): `None`
    /// if another process did it first. Returns how many sessions got tags back.
    pub fn restore(
        &mut self,
        sessions: &[(String, Vec<String>)],
    ) -> Result<Option<u32>, RecallError> {
        let rows: Vec<(String, Vec<(String, Kind)>)> = sessions
            .iter()
            .map(|(id, tags)| {
                (
                    id.clone(),
                    tags.iter().map(|t| (t.clone(), Kind::Manual)).collect(),
                )
            })
            .collect();
        self.write(|tx| {
            if tx.execute("DELETE FROM meta WHERE key = ?", [RESTORE_KEY])? == 0 {
                return Ok(None);
            }
            Ok(Some(insert_missing(tx, &rows)?))
        })
    }
}

impl TagReader {
    fn fail(&self, error: rusqlite::Error) -> RecallError {
        store_error(&self.path, error)
    }

    /// Manual, automatic and suppressed tags of a session, each in name order.
    pub fn sets(&self, session_id: &str) -> Result<TagSets, RecallError> {
        let mut sets = TagSets::default();
        let mut statement = self
            .conn
            .prepare_cached("SELECT tag, kind FROM tags WHERE session_id = ? ORDER BY tag")
            .map_err(|e| self.fail(e))?;
        let rows = statement
            .query_map([session_id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(|e| self.fail(e))?;
        for row in rows {
            let (tag, kind) = row.map_err(|e| self.fail(e))?;
            match kind.as_str() {
                "manual" => sets.manual.push(tag),
                "auto" => sets.auto.push(tag),
                _ => sets.suppressed.push(tag),
            }
        }
        Ok(sets)
    }

    /// What a session is tagged with: manual tags, then automatic ones.
    pub fn merged(&self, session_id: &str) -> Result<Vec<String>, RecallError> {
        merged(&self.conn, session_id).map_err(|e| self.fail(e))
    }

    /// Every tag in use with its number of sessions, most used first.
    pub fn counts(&self) -> Result<Vec<(String, u32)>, RecallError> {
        let mut statement = self.conn.prepare_cached("SELECT tag, COUNT(*) AS sessions FROM tags WHERE kind != 'suppressed' GROUP BY tag ORDER BY sessions DESC, tag").map_err(|e| self.fail(e))?;
        let rows = statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .map_err(|e| self.fail(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.fail(e))
    }

    /// Whether the meta table has `key` (an import's marker, the restore marker).
    pub fn has_meta(&self, key: &str) -> Result<bool, RecallError> {
        let found = self
            .conn
            .query_row("SELECT 1 FROM meta WHERE key = ?", [key], |_| Ok(()))
            .optional()
            .map_err(|e| self.fail(e))?;
        Ok(found.is_some())
    }

    pub fn needs_restore(&self) -> Result<bool, RecallError> {
        self.has_meta(RESTORE_KEY)
    }
}

/// Inserts the rows a session does not have yet, bumping each session that gained one.
fn insert_missing(
    tx: &rusqlite::Transaction,
    rows: &[(String, Vec<(String, Kind)>)],
) -> rusqlite::Result<u32> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    )?;
    let mut changed = 0;
    for (session_id, tags) in rows {
        let mut added = 0;
        for (tag, kind) in tags {
            added += insert.execute(params![session_id, tag, kind.as_str()])?;
        }
        if added > 0 {
            tx.execute(BUMP, [session_id])?;
            changed += 1;
        }
    }
    Ok(changed)
}

fn merged(conn: &Connection, session_id: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare_cached(MERGED)?;
    let rows = statement.query_map([session_id], |row| row.get(0))?;
    rows.collect()
}

/// SQLite's `integrity_check` of the database at `path`, opened read-only: the problems it
/// names (none when it is sound). A file that is not a database is an error.
pub fn integrity_problems(path: &Path) -> Result<Vec<String>, RecallError> {
    let shown = path.display().to_string();
    let fail = |error| store_error(&shown, error);
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(fail)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
    let mut statement = conn.prepare("PRAGMA integrity_check").map_err(fail)?;
    let rows = statement
        .query_map([], |row| row.get::<_, String>(0))
        .map_err(fail)?;
    let problems: Vec<String> = rows.collect::<rusqlite::Result<_>>().map_err(fail)?;
    Ok(problems.into_iter().filter(|p| p != "ok").collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &tempfile::TempDir) -> TagDb {
        TagDb::open(dir.path().join("tags.db").to_str().unwrap(), "id-1", "now").unwrap()
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn manual_wins_over_auto_and_suppression_sticks() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = open(&dir);
        db.set_kind("s1", &strings(&["a"]), Kind::Manual).unwrap();
        db.set_auto("s1", &strings(&["a", "b"])).unwrap();
        db.set_kind("s1", &strings(&["c"]), Kind::Suppressed)
            .unwrap();
        db.set_auto("s1", &strings(&["c", "d"])).unwrap();
        let reader = db.reader().unwrap();
        let sets = reader.sets("s1").unwrap();
        assert_eq!(
            sets,
            TagSets {
                manual: strings(&["a"]),
                auto: strings(&["d"]),
                suppressed: strings(&["c"])
            }
        );
        assert_eq!(reader.merged("s1").unwrap(), strings(&["a", "d"]));
        let changes = db.changes_since(0).unwrap();
        assert_eq!(changes.seq, 4);
        // Every commit is fsynced: FULL is 2.
        let synchronous: i64 = db
            .conn
            .pragma_query_value(None, "synchronous", |row| row.get(0))
            .unwrap();
        assert_eq!(synchronous, 2);
        assert_eq!(
            changes.sessions,
            vec![SessionTags {
                session_id: "s1".into(),
                tags: strings(&["a", "d"])
            }]
        );
    }

    #[test]
    fn reopening_keeps_the_id_and_an_emptied_file_asks_for_a_restore() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tags.db");
        assert_eq!(open(&dir).id(), "id-1");
        let again = TagDb::open(path.to_str().unwrap(), "id-2", "now").unwrap();
        assert_eq!(again.id(), "id-1");
        assert!(!again.reader().unwrap().needs_restore().unwrap());
        drop(again);
        std::fs::write(&path, b"").unwrap();
        let mut emptied = TagDb::open(path.to_str().unwrap(), "id-3", "now").unwrap();
        assert_eq!(emptied.id(), "id-3");
        assert!(emptied.reader().unwrap().needs_restore().unwrap());
        assert_eq!(
            emptied.restore(&[("s1".into(), strings(&["x"]))]).unwrap(),
            Some(1)
        );
        assert_eq!(
            emptied.restore(&[("s1".into(), strings(&["y"]))]).unwrap(),
            None
        );
        assert_eq!(
            emptied.reader().unwrap().merged("s1").unwrap(),
            strings(&["x"])
        );
    }

    #[test]
    fn garbage_is_corrupt_and_a_sound_file_passes_the_check() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tags.db");
        drop(open(&dir));
        assert!(integrity_problems(&path).unwrap().is_empty());
        std::fs::write(&path, vec![7u8; 8192]).unwrap();
        let error = TagDb::open(path.to_str().unwrap(), "id", "now")
            .err()
            .unwrap();
        assert_eq!(error.code, Code::Corrupt);
    }
}

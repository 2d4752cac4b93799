//! The N-API surface of the tag database: one `TagDatabase` class. Reads are quick and answer on
//! the calling thread, on a connection of their own (tags/shared.rs); writes, which may wait up to
//! `BUSY_TIMEOUT` for another process's transaction, run on the libuv thread pool so the Pi UI
//! never waits on them.

use std::path::Path;
use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, ToNapiValue, TypeName};
use napi_derive::napi;

use crate::binding::job::{job, to_napi, Job};
use crate::error::RecallError;
use crate::panics;
use crate::tags::shared::SharedTagDb;
use crate::tags::store::{integrity_problems, Kind, TagDb, TagReader};

#[napi(object, js_name = "NativeTagSets")]
pub struct JsTagSets {
    pub manual: Vec<String>,
    pub auto: Vec<String>,
    pub suppressed: Vec<String>,
}

#[napi(object, js_name = "NativeSessionTagSets")]
pub struct JsSessionTagSets {
    pub session_id: String,
    pub manual: Vec<String>,
    pub auto: Vec<String>,
    pub suppressed: Vec<String>,
}

#[napi(object, js_name = "NativeSessionTags")]
pub struct JsSessionTags {
    pub session_id: String,
    pub tags: Vec<String>,
}

#[napi(object, js_name = "NativeTagCount")]
pub struct JsTagCount {
    pub tag: String,
    pub sessions: u32,
}

#[napi(object, js_name = "NativeTagChanges")]
pub struct JsTagChanges {
    pub seq: i64,
    pub sessions: Vec<JsSessionTags>,
}

/// An open tag database (see tags/store.rs); `close` ends it, after which every call fails.
#[napi]
pub struct TagDatabase {
    db: Arc<SharedTagDb>,
    id: String,
}

impl TagDatabase {
    /// A read, on this thread.
    fn with<T>(&self, call: impl FnOnce(&TagReader) -> Result<T, RecallError>) -> napi::Result<T> {
        self.db.read(call).map_err(to_napi)
    }

    /// A write (or a read in a write's snapshot), on the thread pool.
    fn later<T: ToNapiValue + TypeName + Send + 'static>(
        &self,
        call: impl FnOnce(&mut TagDb) -> Result<T, RecallError> + Send + 'static,
    ) -> AsyncTask<Job<T>> {
        let db = Arc::clone(&self.db);
        AsyncTask::new(job(move || db.write(call)))
    }
}

#[napi]
impl TagDatabase {
    /// Opens (or creates, with `freshId`) the tag database at `path`; `now` stamps the restore
    /// marker of a database made in place of an empty file.
    #[napi(factory, catch_unwind)]
    pub fn open(path: String, fresh_id: String, now: String) -> napi::Result<TagDatabase> {
        panics::quiet();
        let db = TagDb::open(&path, &fresh_id, &now).map_err(to_napi)?;
        let id = db.id().to_owned();
        Ok(TagDatabase {
            db: Arc::new(SharedTagDb::new(db).map_err(to_napi)?),
            id,
        })
    }

    /// Random, made with the database: tells the index a replaced database from an edited one.
    #[napi]
    pub fn id(&self) -> String {
        self.id.clone()
    }

    #[napi]
    pub fn close(&self) {
        self.db.close();
    }

    /// Manual, automatic and suppressed tags of a session, each in name order.
    #[napi(catch_unwind)]
    pub fn sets(&self, session_id: String) -> napi::Result<JsTagSets> {
        let sets = self.with(|db| db.sets(&session_id))?;
        Ok(JsTagSets {
            manual: sets.manual,
            auto: sets.auto,
            suppressed: sets.suppressed,
        })
    }

    /// A session's tags: manual ones, then automatic ones.
    #[napi(catch_unwind)]
    pub fn merged(&self, session_id: String) -> napi::Result<Vec<String>> {
        self.with(|db| db.merged(&session_id))
    }

    /// Makes `tags` manual tags of the session, whatever they were.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn add_manual(&self, session_id: String, tags: Vec<String>) -> AsyncTask<Job<()>> {
        self.later(move |db| db.set_kind(&session_id, &tags, Kind::Manual))
    }

    /// Makes `tags` suppressed on the session, whether or not it had them.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn suppress(&self, session_id: String, tags: Vec<String>) -> AsyncTask<Job<()>> {
        self.later(move |db| db.set_kind(&session_id, &tags, Kind::Suppressed))
    }

    /// Replaces the session's automatic tags; manual and suppressed ones stay as they are.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn set_auto(&self, session_id: String, tags: Vec<String>) -> AsyncTask<Job<()>> {
        self.later(move |db| db.set_auto(&session_id, &tags))
    }

    /// Every tag in use with its number of sessions, most used first.
    #[napi(catch_unwind)]
    pub fn counts(&self) -> napi::Result<Vec<JsTagCount>> {
        let counts = self.with(|db| db.counts())?;
        Ok(counts
            .into_iter()
            .map(|(tag, sessions)| JsTagCount { tag, sessions })
            .collect())
    }

    /// The sessions edited after revision `seq`, with their merged tags, as one snapshot.
    #[napi(ts_return_type = "Promise<NativeTagChanges>")]
    pub fn changes_since(&self, seq: i64) -> AsyncTask<Job<JsTagChanges>> {
        self.later(move |db| {
            let changes = db.changes_since(seq)?;
            let sessions = changes
                .sessions
                .into_iter()
                .map(|s| JsSessionTags {
                    session_id: s.session_id,
                    tags: s.tags,
                })
                .collect();
            Ok(JsTagChanges {
                seq: changes.seq,
                sessions,
            })
        })
    }

    /// Whether the database's meta table has `key`.
    #[napi(catch_unwind)]
    pub fn has_meta(&self, key: String) -> napi::Result<bool> {
        self.with(|db| db.has_meta(&key))
    }

    /// Adds the sessions' tags once, under `marker` (null if it was recorded before); rows already
    /// here win, and within a session manual beats suppressed beats automatic. Returns how many
    /// sessions gained a tag.
    #[napi(ts_return_type = "Promise<number | null>")]
    pub fn import_once(
        &self,
        marker: String,
        now: String,
        sessions: Vec<JsSessionTagSets>,
    ) -> AsyncTask<Job<Option<u32>>> {
        let rows: Vec<(String, Vec<(String, Kind)>)> = sessions
            .into_iter()
            .map(|s| {
                let mut tags: Vec<(String, Kind)> =
                    s.manual.into_iter().map(|t| (t, Kind::Manual)).collect();
                tags.extend(s.suppressed.into_iter().map(|t| (t, Kind::Suppressed)));
                tags.extend(s.auto.into_iter().map(|t| (t, Kind::Auto)));
                (s.session_id, tags)
            })
            .collect();
        self.later(move |db| db.import_once(&marker, &now, &rows))
    }

    /// Whether the database was made in place of an empty file and waits for the index's tags.
    #[napi(catch_unwind)]
    pub fn needs_restore(&self) -> napi::Result<bool> {
        self.with(|db| db.needs_restore())
    }

    /// Takes the given tags as manual ones, once: null if another process already did.
    #[napi(ts_return_type = "Promise<number | null>")]
    pub fn restore(&self, sessions: Vec<JsSessionTags>) -> AsyncTask<Job<Option<u32>>> {
        let rows: Vec<(String, Vec<String>)> = sessions
            .into_iter()
            .map(|s| (s.session_id, s.tags))
            .collect();
        self.later(move |db| db.restore(&rows))
    }
}

/// The problems SQLite's integrity check finds in the tag database at `path` (none: sound).
#[napi(catch_unwind)]
pub fn tag_database_problems(path: String) -> napi::Result<Vec<String>> {
    integrity_problems(Path::new(&path)).map_err(to_napi)
}

//! The index on disk: opening it, reading from it, and writing to it under the writer lock.
//!
//! Readers never wait: Tantivy searches the last committed state while a writer works. Writing
//! is a short session — `lock`, any number of `apply`, `commit`, `unlock` — so that the caller
//! can record its own state (file signatures) while it still holds the lock. The writer is never
//! kept between sessions: a long-lived Pi process must not block a `recall` command in a shell.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tantivy::collector::Count;
use tantivy::directory::error::LockError;
use tantivy::directory::{Directory, META_LOCK};
use tantivy::merge_policy::LogMergePolicy;
use tantivy::query::{BooleanQuery, Occur, Query, RangeQuery, TermQuery};
use tantivy::schema::{IndexRecordOption, Schema};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, TantivyError, Term};

use crate::changes::ChangeSet;
use crate::directory::IndexDirectory;
use crate::error::{Code, RecallError, Result};
use crate::files::{file_doc_query, file_document, read_records, FileRecord, Selector};
use crate::identity::Identity;
use crate::integrity;
use crate::panics;
use crate::scan::{scan, EarlyLook, Layout, Scan};
use crate::schema::{build_schema, kind_is, Fields, KIND_MESSAGE, KIND_SESSION, SCHEMA_VERSION};
use crate::session::{message_document, session_document, session_from_document};
use crate::sessions::documents_by_id;
use crate::tokenizer;

const WRITER_HEAP_BYTES: usize = 32 * 1024 * 1024;
const LOCK_RETRY: Duration = Duration::from_millis(25);
const MAX_DOCS_BEFORE_MERGE: usize = 250_000;
/// How often a wait for the segment updater looks whether it has stopped (see panics.rs).
const UPDATER_CHECK: Duration = Duration::from_millis(20);

/// What a commit records next to the segments: the schema version, a stamp that names the
/// commit, and the caller's own state (opaque JSON) as of that commit.
#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    schema: u32,
    stamp: String,
    #[serde(default)]
    state: String,
}

pub struct Engine {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    writer: Mutex<Option<Writer>>,
    /// The folder the index was opened in, and which folder it was; none for an index in memory.
    folder: Option<(PathBuf, Identity)>,
}

/// The writer, and the count of segment updater panics when it was made: any later one may be
/// its own updater's, whose tasks then never finish.
struct Writer {
    inner: IndexWriter,
    updater_panics: u64,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ApplyCounts {
    pub removed_paths: u32,
    pub sessions: u32,
    pub messages: u32,
    pub tag_updates: u32,
    pub files: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    pub documents: u64,
    pub sessions: u64,
    /// The stamp of the last commit; empty for a new index.
    pub stamp: String,
    /// The caller's state given to the last commit; empty for a new index.
    pub state: String,
}

impl Engine {
    /// Opens the index in `dir`, creating it when the folder holds none.
    pub fn open(dir: &Path) -> Result<Engine> {
        let io_error = |e: std::io::Error| RecallError::new(Code::Io, format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(io_error)?;
        let folder = (dir.to_path_buf(), Identity::of(&std::fs::metadata(dir).map_err(io_error)?));
        let directory = IndexDirectory::open(dir).map_err(|e| RecallError::new(Code::Io, e.to_string()))?;
        let index = if index_exists(&directory)? { Index::open(directory)? } else { create_once(directory)? };
        Engine::from_index(index, Some(folder))
    }

    pub fn in_memory() -> Result<Engine> {
        Engine::from_index(Index::create_in_ram(build_schema()), None)
    }

    fn from_index(index: Index, folder: Option<(PathBuf, Identity)>) -> Result<Engine> {
        check_compatible(&index)?;
        tokenizer::register(&index);
        let fields = Fields::from_schema(&index.schema())?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        Ok(Engine { index, reader, fields, writer: Mutex::new(None), folder })
    }

    /// Whether the folder the index was opened in is still there, and still the same folder: the
    /// cache may have been deleted by hand, or an unusable index replaced by another process.
    /// An index whose folder is gone can still be read, but nothing written to it would be kept.
    pub fn is_in_place(&self) -> bool {
        self.folder.as_ref().is_none_or(|(path, identity)| identity.named_by(path))
    }

    /// The active segment files that fail their checksum: all of them, or (`only_changed`) only
    /// those changed since the last commit (see integrity.rs). An index in memory has no files.
    pub fn damaged_files(&self, only_changed: bool) -> Result<Vec<String>> {
        match &self.folder {
            Some((dir, _)) => integrity::damaged_files(&self.index, dir, only_changed),
            None => Ok(Vec::new()),
        }
    }

    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    pub fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    /// Picks up commits made since the last reload, by this or another process.
    pub fn reload(&self) -> Result<()> {
        Ok(self.reader.reload()?)
    }

    pub fn stats(&self) -> Result<Stats> {
        let searcher = self.searcher();
        let sessions = searcher.search(&kind_is(&self.fields, KIND_SESSION), &Count)? as u64;
        let (stamp, state) = read_payload(&self.index)?.map(|p| (p.stamp, p.state)).unwrap_or_default();
        Ok(Stats { documents: searcher.num_docs(), sessions, stamp, state })
    }

    /// The session files in `sessions_dir` that differ from their records, as of the last commit
    /// of any process; `early`, a look already under way; `listings_file`, where folder listings
    /// are remembered (see `scan.rs`).
    pub fn scan(&self, sessions_dir: &str, layout: Layout, compare: bool, early: Option<EarlyLook>, listings_file: Option<&Path>) -> Result<Scan> {
        self.reload()?;
        scan(&self.searcher(), &self.fields, sessions_dir, layout, compare, early, listings_file)
    }

    pub fn file_records(&self, selector: &Selector) -> Result<Vec<FileRecord>> {
        read_records(&self.searcher(), &self.fields, selector)
    }

    /// Takes the writer lock, waiting up to `timeout` for another process to release it, with a
    /// writer of `threads` indexing threads (at most the machine's cores).
    pub fn lock(&self, timeout: Duration, threads: usize) -> Result<()> {
        panics::quiet();
        let mut slot = self.writer.lock().map_err(|_| poisoned())?;
        if slot.is_some() {
            return Ok(());
        }
        let deadline = Instant::now() + timeout;
        let threads = threads.clamp(1, std::thread::available_parallelism().map_or(1, |n| n.get()));
        loop {
            match self.index.writer_with_num_threads::<TantivyDocument>(threads, WRITER_HEAP_BYTES * threads) {
                Ok(writer) => {
                    writer.set_merge_policy(Box::new(merge_policy()));
                    let updater_panics = panics::updater_panics();
                    // A writer killed before its commit leaves files no commit uses; this commit
                    // would make some of the same names (a segment's `.del` of the same opstamp)
                    // and fail on them with FileAlreadyExists, every time. Remove them first.
                    let (writer, collected) = beside_updater(updater_panics, move || {
                        let collected = writer.garbage_collect_files().wait();
                        (writer, collected)
                    })?;
                    collected?;
                    *slot = Some(Writer { inner: writer, updater_panics });
                    return Ok(());
                }
                Err(TantivyError::LockFailure(LockError::LockBusy, _)) if Instant::now() < deadline => std::thread::sleep(LOCK_RETRY),
                Err(error) => return Err(error.into()),
            }
        }
    }

    pub fn apply(&self, changes: &ChangeSet) -> Result<ApplyCounts> {
        let slot = self.writer.lock().map_err(|_| poisoned())?;
        let writer = &slot.as_ref().ok_or_else(not_locked)?.inner;
        let fields = &self.fields;
        let mut counts = ApplyCounts::default();
        for path in &changes.remove_paths {
            writer.delete_term(Term::from_field_text(fields.path, path));
            counts.removed_paths += 1;
        }
        for update in &changes.sessions {
            let path = &update.session.path;
            match update.replace_from {
                None => {
                    writer.delete_term(Term::from_field_text(fields.path, path));
                }
                Some(from) => {
                    let tail = RangeQuery::new(
                        std::ops::Bound::Included(Term::from_field_u64(fields.msg_index, u64::from(from))),
                        std::ops::Bound::Unbounded,
                    );
                    writer.delete_query(Box::new(BooleanQuery::new(vec![
                        (Occur::Must, path_query(fields, path)),
                        (Occur::Must, kind_is(fields, KIND_MESSAGE)),
                        (Occur::Must, Box::new(tail)),
                    ])))?;
                    writer.delete_query(session_doc_query(fields, path))?;
                }
            }
            for message in &update.messages {
                writer.add_document(message_document(fields, &update.session, message))?;
                counts.messages += 1;
            }
            writer.add_document(session_document(fields, &update.session))?;
            counts.sessions += 1;
        }
        // After the sessions: replacing a session deletes every document of its path, its
        // record included.
        for record in &changes.files {
            writer.delete_query(file_doc_query(fields, &record.path))?;
            writer.add_document(file_document(fields, record))?;
            counts.files += 1;
        }
        // Tag edits rewrite committed session documents only; a session sent in this same change
        // set already carries its tags.
        let searcher = self.searcher();
        for update in &changes.tag_updates {
            for doc in documents_by_id(&searcher, fields, &update.session_id)? {
                let mut session = session_from_document(fields, &doc);
                if changes.sessions.iter().any(|s| s.session.path == session.path) {
                    continue;
                }
                session.tags = update.tags.clone();
                writer.delete_query(session_doc_query(fields, &session.path))?;
                writer.add_document(session_document(fields, &session))?;
            }
            counts.tag_updates += 1;
        }
        Ok(counts)
    }

    /// Drops every document (a rebuild), keeping the lock.
    pub fn clear(&self) -> Result<()> {
        let slot = self.writer.lock().map_err(|_| poisoned())?;
        slot.as_ref().ok_or_else(not_locked)?.inner.delete_all_documents()?;
        Ok(())
    }

    /// Commits what was applied. A commit that Tantivy's segment updater could not finish (it
    /// panicked: a damaged file read while applying deletes) is an error, and the writer is left
    /// behind, stopped; `unlock` then has nothing to release.
    pub fn commit(&self, stamp: &str, state: &str) -> Result<()> {
        let mut slot = self.writer.lock().map_err(|_| poisoned())?;
        let Writer { mut inner, updater_panics } = slot.take().ok_or_else(not_locked)?;
        let payload = serde_json::to_string(&Payload { schema: SCHEMA_VERSION, stamp: stamp.to_owned(), state: state.to_owned() })?;
        let (inner, committed) = beside_updater(updater_panics, move || {
            let committed = inner.prepare_commit().and_then(|mut prepared| {
                prepared.set_payload(&payload);
                prepared.commit()
            });
            (inner, committed)
        })?;
        *slot = Some(Writer { inner, updater_panics });
        committed?;
        drop(slot);
        self.reload()
    }

    /// Releases the writer lock, after letting background merges finish. Uncommitted changes
    /// are dropped.
    pub fn unlock(&self) -> Result<()> {
        let writer = self.writer.lock().map_err(|_| poisoned())?.take();
        if let Some(Writer { inner, updater_panics }) = writer {
            beside_updater(updater_panics, move || inner.wait_merging_threads())??;
        }
        Ok(())
    }
}

/// Runs `work` (a writer call that waits for Tantivy's segment updater) on a thread of its own,
/// and waits for it unless the updater stops meanwhile (a panic since `updater_panics`, see
/// panics.rs): then the wait is an error, and `work` and what it holds are left to that thread.
fn beside_updater<T: Send + 'static>(updater_panics: u64, work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    let (send, receive) = mpsc::channel();
    std::thread::Builder::new()
        .name("recall-writer".to_owned())
        .spawn(move || {
            let _ = send.send(catch_unwind(AssertUnwindSafe(work)));
        })
        .map_err(|e| RecallError::new(Code::Io, format!("cannot start a thread: {e}")))?;
    loop {
        match receive.recv_timeout(UPDATER_CHECK) {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(panic)) => return Err(RecallError::new(Code::Internal, format!("writing the index panicked ({})", panics::message(&*panic)))),
            Err(mpsc::RecvTimeoutError::Timeout) if panics::updater_panics() > updater_panics => {
                return Err(RecallError::new(
                    Code::Corrupt,
                    format!("Tantivy's segment updater panicked ({}); the index may be damaged", panics::last_updater_panic()),
                ));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(RecallError::new(Code::Internal, "the writer thread ended without an answer")),
        }
    }
}

/// Tantivy's default policy, except that segments stop growing at `MAX_DOCS_BEFORE_MERGE`
/// documents: merging ever larger segments is what made the memory of a first index grow with
/// the size of the history.
fn merge_policy() -> LogMergePolicy {
    let mut policy = LogMergePolicy::default();
    policy.set_max_docs_before_merge(MAX_DOCS_BEFORE_MERGE);
    policy
}

fn index_exists(directory: &IndexDirectory) -> Result<bool> {
    Index::exists(directory).map_err(|e| RecallError::new(Code::Corrupt, e.to_string()))
}

/// Creates the index, unless another process did since `open` looked. Creating writes an empty
/// `meta.json`, so two processes that both found none would otherwise race, and the slower one
/// would wipe out what the faster one had committed in the meantime. The lock is the one readers
/// hold while they open segments; it is released before this process opens its own reader.
fn create_once(directory: IndexDirectory) -> Result<Index> {
    let _creating = directory.acquire_lock(&META_LOCK).map_err(|e| RecallError::new(Code::Io, e.to_string()))?;
    if index_exists(&directory)? {
        return Ok(Index::open(directory)?);
    }
    Ok(Index::create(directory, build_schema(), tantivy::IndexSettings::default())?)
}

fn check_compatible(index: &Index) -> Result<()> {
    let expected = build_schema();
    if !same_fields(&index.schema(), &expected) {
        return Err(RecallError::new(Code::Incompatible, "the index was written with another schema"));
    }
    if let Some(payload) = read_payload(index)? {
        if payload.schema != SCHEMA_VERSION {
            return Err(RecallError::new(
                Code::Incompatible,
                format!("the index has schema version {}, this recall uses {SCHEMA_VERSION}", payload.schema),
            ));
        }
    }
    Ok(())
}

fn same_fields(a: &Schema, b: &Schema) -> bool {
    let names = |s: &Schema| s.fields().map(|(_, e)| (e.name().to_owned(), format!("{:?}", e.field_type()))).collect::<Vec<_>>();
    names(a) == names(b)
}

fn read_payload(index: &Index) -> Result<Option<Payload>> {
    let metas = index.load_metas()?;
    match metas.payload {
        None => Ok(None),
        Some(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| RecallError::new(Code::Corrupt, format!("unreadable commit payload: {e}"))),
    }
}

fn path_query(fields: &Fields, path: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(Term::from_field_text(fields.path, path), IndexRecordOption::Basic))
}

fn session_doc_query(fields: &Fields, path: &str) -> Box<dyn Query> {
    Box::new(BooleanQuery::new(vec![(Occur::Must, path_query(fields, path)), (Occur::Must, kind_is(fields, KIND_SESSION))]))
}

fn poisoned() -> RecallError {
    RecallError::new(Code::Internal, "a previous write panicked")
}

fn not_locked() -> RecallError {
    RecallError::new(Code::NotLocked, "Assertion failed: write without holding the writer lock")
}

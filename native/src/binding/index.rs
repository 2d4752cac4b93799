//! The N-API surface: one `NativeIndex` class in domain terms. Every call that touches the index
//! files runs on the libuv thread pool (an `AsyncTask`), so the Pi UI never waits on Tantivy.
//! Errors reach JavaScript as `Error` objects whose message starts with a `RECALL_*` code.

use std::path::{Path, PathBuf};
use std::time::Duration;

use napi::bindgen_prelude::{AbortSignal, AsyncTask};
use napi_derive::napi;

use crate::binding::handles::{refreshed, JsMeaningCoverage, MeaningIndex, NativeIndex};
use crate::binding::job::{job, to_napi, Job};
use crate::binding::meaning::MeaningModel;
use crate::error::{Code, RecallError};
use crate::fs::lock_file::{text_if_held, HeldLock};
use crate::index::changes::{ChangeSet, SessionUpdate, TagUpdate};
use crate::index::files::{FileRecord, Selector};
use crate::index::integrity::Scope;
use crate::index::scan::{every_file, project_folders, EarlyLook, Layout, Scan, SessionFile};
use crate::index::session::SessionMeta;
use crate::index::text_kind::TextKind;
use crate::panics;
use crate::replace::{open_checked, open_or_replace};
use crate::search::correction::Typos;
use crate::search::find::{
    After, Hit, MeaningQuery, Place, QueryVector, SearchOptions, DEFAULT_RECENCY_WEIGHT,
    DEFAULT_SNIPPET_CHARS,
};
use crate::search::query::{Filters, DEFAULT_COORDINATION};
use crate::search::related::{ByMeaning, Related, RelatedOptions};
use crate::search::sessions::list;
use crate::search::touched::FileCall;
use crate::words::marks::prefix_marks;
use crate::words::relevance::{question_terms, Scorer};

/// Byte ranges as JavaScript gets them.
fn js_spans(spans: Vec<(usize, usize)>) -> Vec<JsSpan> {
    spans
        .into_iter()
        .map(|(start, end)| JsSpan {
            start: start as u32,
            end: end as u32,
        })
        .collect()
}

#[napi(object, js_name = "NativeMessageRef")]
pub struct JsMessageRef {
    pub index: u32,
    pub role: String,
    pub entry_id: String,
    pub timestamp: f64,
    /// `conversation`, `thinking`, `call` or `output`.
    pub kind: String,
    /// The tool of a call or output.
    pub tool: Option<String>,
    /// Where the entry's line starts in the session file, for text the index does not keep
    /// whole (tool output): the hit has no snippet, `snippets` makes it from the entry's text.
    pub line_offset: Option<f64>,
}

#[napi(object, js_name = "NativeFileCall")]
pub struct JsFileCall {
    pub session_path: String,
    pub tool: String,
    pub entry_id: String,
    pub timestamp: f64,
}

impl From<FileCall> for JsFileCall {
    fn from(call: FileCall) -> Self {
        JsFileCall {
            session_path: call.session_path,
            tool: call.tool,
            entry_id: call.entry_id,
            timestamp: call.timestamp as f64,
        }
    }
}

#[napi(object, js_name = "NativeSpan")]
pub struct JsSpan {
    /// UTF-8 byte offset into the text it marks.
    pub start: u32,
    pub end: u32,
}

#[napi(object, js_name = "NativeHit")]
pub struct JsHit {
    pub session: SessionMeta,
    pub score: f64,
    pub message: Option<JsMessageRef>,
    pub snippet: String,
    pub spans: Vec<JsSpan>,
    /// `words`, `meaning` or `both`: which ranking found the session.
    pub matched_by: String,
}

impl From<Hit> for JsHit {
    fn from(hit: Hit) -> Self {
        JsHit {
            session: hit.session,
            score: hit.score,
            message: hit.message.map(|m| JsMessageRef {
                index: u32::try_from(m.index).unwrap_or(u32::MAX),
                role: m.role,
                entry_id: m.entry_id,
                timestamp: m.timestamp as f64,
                kind: m.kind.name().to_owned(),
                tool: m.tool,
                line_offset: m.line_offset.map(|offset| offset as f64),
            }),
            snippet: hit.snippet,
            spans: js_spans(hit.spans),
            matched_by: hit.matched_by.name().to_owned(),
        }
    }
}

/// A word of the query that no searched text holds, and the word one typo away it was read as.
#[napi(object, js_name = "NativeReadAs")]
pub struct JsReadAs {
    pub word: String,
    pub read_as: String,
}

/// A session's place in a search's ranking (search/find.rs, `Place`): where a next page continues.
#[napi(object, js_name = "NativePlace")]
pub struct JsPlace {
    pub score: f64,
    /// ms since epoch.
    pub last_activity: f64,
    /// The session file's path key, in decimal (a u64).
    pub key: String,
}

impl From<Place> for JsPlace {
    fn from(place: Place) -> Self {
        JsPlace {
            score: place.score,
            last_activity: place.last_activity as f64,
            key: place.key.to_string(),
        }
    }
}

/// A later page: the sessions after `place`, `shown` sessions having been shown up to it.
#[napi(object, js_name = "NativeAfter")]
pub struct JsAfter {
    pub place: JsPlace,
    pub shown: u32,
}

/// With `after`: the sessions ranked at or before it, and the wrapping sum of their path keys (decimal).
#[napi(object, js_name = "NativeAhead")]
pub struct JsAhead {
    pub sessions: u32,
    pub digest: String,
}

#[napi(object, js_name = "NativeFound")]
pub struct JsFound {
    pub hits: Vec<JsHit>,
    /// Each hit's place in the ranking, in the order of `hits`.
    pub places: Vec<JsPlace>,
    /// With `after`: what ranked at or before it.
    pub ahead: Option<JsAhead>,
    /// The words of the query read as others (typos), in query order.
    pub read_as: Vec<JsReadAs>,
    /// With `matching` meaning or both: how many of the messages in scope the meaning index covers.
    pub coverage: Option<JsMeaningCoverage>,
    /// With `matching` meaning or both: the vectors of the meaning index the search read, for a
    /// later page to read the same (`vectors` of the request).
    pub vectors: Option<f64>,
}

#[napi(object, js_name = "NativeFilters")]
pub struct JsFilters {
    pub cwds: Option<Vec<String>>,
    /// Only these sessions (by id): a session's summary by its id.
    pub session_ids: Option<Vec<String>>,
    /// ms since epoch, inclusive.
    pub since: Option<f64>,
    pub until: Option<f64>,
    /// Tags a session must all carry / must carry none of (normalized), as the index holds them.
    pub tags_all: Option<Vec<String>>,
    pub tags_none: Option<Vec<String>>,
    /// Only these session files (by path).
    pub paths: Option<Vec<String>>,
}

impl From<Option<JsFilters>> for Filters {
    fn from(filters: Option<JsFilters>) -> Self {
        let Some(f) = filters else {
            return Filters::default();
        };
        Filters {
            cwds: f.cwds,
            session_ids: f.session_ids,
            exclude_session_ids: Vec::new(),
            since: f.since.map(|v| v as i64),
            until: f.until.map(|v| v as i64),
            tags_all: f.tags_all.unwrap_or_default(),
            tags_none: f.tags_none.unwrap_or_default(),
            paths: f.paths,
        }
    }
}

/// A request's `typos`, `correct` when it has none.
fn typos_of(name: Option<&str>) -> std::result::Result<Typos, RecallError> {
    name.map_or(Ok(Typos::Correct), |name| {
        Typos::parse(name)
            .ok_or_else(|| RecallError::new(Code::BadInput, format!("unknown typos mode: {name}")))
    })
}

#[napi(object, js_name = "NativeSearchRequest")]
pub struct JsSearchRequest {
    pub query: String,
    pub limit: u32,
    /// Match the unfinished last word as a prefix too.
    pub prefix: Option<bool>,
    pub filters: Option<JsFilters>,
    /// The kinds of text to search: `conversation` (the default), `thinking`, `call`, `output`.
    pub content: Option<Vec<String>>,
    /// The time recency is measured from, ms since epoch (default: now).
    pub now: Option<f64>,
    /// Weight of the 7-day recency factor (default 0.2; 0 turns it off).
    pub recency_weight: Option<f64>,
    /// Score added per distinct query word a message contains (default 6; 0 turns it off).
    pub coordination: Option<f64>,
    pub snippet_chars: Option<u32>,
    /// What a word no searched text holds is read as: `correct` (the default: its nearest word,
    /// named in `readAs`), `suggest` (itself, its nearest word named in `readAs`) or `off`.
    pub typos: Option<String>,
    /// `meaning` or `both` (a `MeaningIndex` given with the request), `words` (the default).
    pub matching: Option<String>,
    /// The query's vector, with `matching` meaning or both; without it, the `model` given with
    /// the request embeds the query on the meaning's thread while the words are searched.
    pub vector: Option<Vec<f64>>,
    /// With `matching` meaning or both: read only the first this many vectors of the meaning
    /// index (what the first page of a search read: `vectors` of its answer), so that a build
    /// appending meanwhile does not reorder the pages.
    pub vectors: Option<f64>,
    /// A later page: continue after the place of the previous page's last session.
    pub after: Option<JsAfter>,
}

#[napi(object, js_name = "NativeRelatedRequest")]
pub struct JsRelatedRequest {
    /// The session's file, and its id.
    pub path: String,
    pub session_id: String,
    pub limit: u32,
    pub filters: Option<JsFilters>,
    pub snippet_chars: Option<u32>,
    /// "words" (the default), "meaning" or "both": the latter two read the meaning index given.
    pub matching: Option<String>,
}

#[napi(object, js_name = "NativeRelatedHit")]
pub struct JsRelatedHit {
    pub hit: JsHit,
    /// The distinctive words of the session asked about that this one holds, best first.
    pub shared: Vec<String>,
}

#[napi(object, js_name = "NativeRelated")]
pub struct JsRelated {
    /// The session's distinctive words, best first: what it was looked up by.
    pub words: Vec<String>,
    pub hits: Vec<JsRelatedHit>,
    /// With "meaning" or "both": how many of the messages in scope the meaning index covers.
    pub coverage: Option<JsMeaningCoverage>,
}

impl From<Related> for JsRelated {
    fn from(related: Related) -> Self {
        let hits = related
            .hits
            .into_iter()
            .map(|h| JsRelatedHit {
                hit: h.hit.into(),
                shared: h.shared,
            })
            .collect();
        JsRelated {
            words: related.words,
            hits,
            coverage: related.coverage.map(JsMeaningCoverage::from),
        }
    }
}

#[napi(object, js_name = "NativeSnippetRequest")]
pub struct JsSnippetRequest {
    /// The query as `search` was given it.
    pub query: String,
    pub prefix: Option<bool>,
    /// The kind of text the texts are.
    pub kind: String,
    /// The kinds of text the search read (default: `kind` alone), so that a word it read as
    /// another (a typo, see search/correction.rs) is read so here too.
    pub content: Option<Vec<String>>,
    pub texts: Vec<String>,
    pub snippet_chars: Option<u32>,
    /// As the search had it (`JsSearchRequest::typos`).
    pub typos: Option<String>,
}

#[napi(object, js_name = "NativeSnippet")]
pub struct JsSnippet {
    pub snippet: String,
    pub spans: Vec<JsSpan>,
}

#[napi(object, js_name = "NativeListRequest")]
pub struct JsListRequest {
    pub limit: u32,
    pub filters: Option<JsFilters>,
}

#[napi(object, js_name = "NativeStats")]
pub struct JsStats {
    pub documents: f64,
    pub sessions: f64,
    /// The stamp given to the last commit; empty for a new index.
    pub stamp: String,
    /// The state given to the last commit; empty for a new index.
    pub state: String,
}

#[napi(object, js_name = "NativeApplyCounts")]
pub struct JsApplyCounts {
    pub removed_paths: u32,
    pub sessions: u32,
    pub messages: u32,
    pub tag_updates: u32,
    pub files: u32,
}

/// A file's new record; `state` is the caller's own data about it, stored as given.
#[napi(object, js_name = "NativeFileRecordUpdate")]
pub struct JsFileRecordUpdate {
    pub path: String,
    pub size: f64,
    pub mtime_ms: f64,
    pub ino: f64,
    /// The session id in the file's header (empty when it has none).
    pub session_id: String,
    /// File name of the fork's parent session, if the file is a fork.
    pub parent_name: Option<String>,
    pub state: String,
}

/// What one `apply` changes (see index/changes.rs); an absent list changes nothing.
#[napi(object, js_name = "NativeChangeSet")]
pub struct JsChangeSet {
    /// Files that no longer exist: every document of theirs goes.
    pub remove_paths: Option<Vec<String>>,
    pub sessions: Option<Vec<SessionUpdate>>,
    /// New records of files, replacing their old ones.
    pub files: Option<Vec<JsFileRecordUpdate>>,
    pub tag_updates: Option<Vec<TagUpdate>>,
}

impl From<JsChangeSet> for ChangeSet {
    fn from(c: JsChangeSet) -> Self {
        ChangeSet {
            remove_paths: c.remove_paths.unwrap_or_default(),
            sessions: c.sessions.unwrap_or_default(),
            files: c
                .files
                .unwrap_or_default()
                .into_iter()
                .map(FileRecord::from)
                .collect(),
            tag_updates: c.tag_updates.unwrap_or_default(),
        }
    }
}

impl From<JsFileRecordUpdate> for FileRecord {
    fn from(r: JsFileRecordUpdate) -> Self {
        FileRecord {
            path: r.path,
            size: r.size as u64,
            mtime_ms: r.mtime_ms,
            ino: r.ino as u64,
            session_id: r.session_id,
            parent_name: r.parent_name,
            state: r.state,
        }
    }
}

#[napi(object, js_name = "NativeSessionFile")]
pub struct JsSessionFile {
    pub path: String,
    pub size: f64,
    pub mtime_ms: f64,
    pub ino: f64,
}

impl From<SessionFile> for JsSessionFile {
    fn from(f: SessionFile) -> Self {
        JsSessionFile {
            path: f.path,
            size: f.size as f64,
            mtime_ms: f.mtime_ms,
            ino: f.ino as f64,
        }
    }
}

#[napi(object, js_name = "NativeScanFailure")]
pub struct JsScanFailure {
    pub path: String,
    pub reason: String,
}

#[napi(object, js_name = "NativeScan")]
pub struct JsScan {
    pub files_total: u32,
    pub unchanged: u32,
    pub changed: Vec<JsSessionFile>,
    pub removed: Vec<String>,
    pub failures: Vec<JsScanFailure>,
}

impl From<Scan> for JsScan {
    fn from(s: Scan) -> Self {
        JsScan {
            files_total: s.files_total as u32,
            unchanged: s.unchanged as u32,
            changed: s.changed.into_iter().map(JsSessionFile::from).collect(),
            removed: s.removed,
            failures: s
                .failures
                .into_iter()
                .map(|f| JsScanFailure {
                    path: f.path,
                    reason: f.reason,
                })
                .collect(),
        }
    }
}

/// Which file records to read: exactly one of the fields, or none for all of them.
#[napi(object, js_name = "NativeRecordSelector")]
pub struct JsRecordSelector {
    pub paths: Option<Vec<String>>,
    /// Forks of these parent file names.
    pub parent_names: Option<Vec<String>>,
    pub session_id_prefix: Option<String>,
}

impl From<JsRecordSelector> for Selector {
    fn from(s: JsRecordSelector) -> Self {
        if let Some(paths) = s.paths {
            Selector::Paths(paths)
        } else if let Some(names) = s.parent_names {
            Selector::ParentNames(names)
        } else if let Some(prefix) = s.session_id_prefix {
            Selector::SessionIdPrefix(prefix)
        } else {
            Selector::All
        }
    }
}

#[napi(object, js_name = "NativeFileRecord")]
pub struct JsFileRecord {
    pub path: String,
    pub size: f64,
    pub mtime_ms: f64,
    pub ino: f64,
    pub session_id: String,
    /// The caller's own data, as it gave it.
    pub state: String,
}

impl From<FileRecord> for JsFileRecord {
    fn from(r: FileRecord) -> Self {
        JsFileRecord {
            path: r.path,
            size: r.size as f64,
            mtime_ms: r.mtime_ms,
            ino: r.ino as f64,
            session_id: r.session_id,
            state: r.state,
        }
    }
}

/// `flat`: session files directly in the sessions directory; otherwise one project folder down.
fn layout(flat: bool) -> Layout {
    if flat {
        Layout::Flat
    } else {
        Layout::Projects
    }
}

/// Every session file in `sessionsDir` with its signature (as `changed`), without an index.
#[napi(ts_return_type = "Promise<NativeScan>")]
pub fn list_session_files(sessions_dir: String, flat: bool) -> AsyncTask<Job<JsScan>> {
    AsyncTask::new(job(move || {
        Ok(every_file(&sessions_dir, layout(flat)).into())
    }))
}

/// What is wrong with the files of the index in the cache folder `dir` and of its depth index,
/// read without opening them (index/integrity.rs, for `recall doctor`): one line per problem.
#[napi(ts_return_type = "Promise<string[]>")]
pub fn index_file_problems(dir: String) -> AsyncTask<Job<Vec<String>>> {
    AsyncTask::new(job(move || {
        Ok(crate::index::integrity::inspect(Path::new(&dir)))
    }))
}

/// The distinct words of a question worth looking for, as the index cuts and folds them (words/relevance.rs).
#[napi(js_name = "questionTerms", catch_unwind)]
pub fn js_question_terms(question: String) -> Vec<String> {
    question_terms(&question)
}

#[napi(object, js_name = "NativeTextScore")]
pub struct JsTextScore {
    /// Position of the text among those added, from 0.
    pub index: u32,
    /// BM25 against the terms, above 0.
    pub score: f64,
    /// Where the text first holds its rarest term, as a JavaScript string index.
    pub focus: u32,
}

/// BM25 of one session's messages against a question's terms, the texts added a part at a time
/// (words/relevance.rs): only what scoring needs of each is kept, not the texts.
#[napi]
pub struct TextScorer {
    scorer: Scorer,
}

#[napi]
impl TextScorer {
    #[napi(constructor)]
    pub fn new(terms: Vec<String>) -> TextScorer {
        TextScorer {
            scorer: Scorer::new(terms),
        }
    }

    /// Counts the next texts of the collection.
    #[napi(catch_unwind)]
    pub fn add(&mut self, texts: Vec<String>) {
        self.scorer.add(&texts);
    }

    /// The score of each text added that holds a term (the others score 0), in the order added.
    #[napi(catch_unwind)]
    pub fn scores(&self) -> Vec<JsTextScore> {
        let js = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.scorer
            .scores()
            .into_iter()
            .map(|s| JsTextScore {
                index: js(s.index),
                score: s.score,
                focus: js(s.focus),
            })
            .collect()
    }
}

/// For each of `texts`, the spans of its words that start with a word of `query` (words/marks.rs).
#[napi(js_name = "prefixMarks", catch_unwind)]
pub fn js_prefix_marks(texts: Vec<String>, query: String) -> Vec<Vec<JsSpan>> {
    texts
        .iter()
        .map(|text| js_spans(prefix_marks(text, &query)))
        .collect()
}

/// The project folders of a sessions directory in Pi's layout, by the rules of the scan.
#[napi(catch_unwind)]
pub fn list_project_folders(sessions_dir: String) -> Vec<String> {
    project_folders(&sessions_dir)
}

/// Whether file descriptor `fd` is a terminal: what Node's `tty.isatty` says, without loading
/// Node's tty module (it loads net and streams, milliseconds of a short command's start).
#[napi(catch_unwind)]
pub fn is_terminal(fd: i32) -> bool {
    use std::io::IsTerminal;
    // SAFETY: the descriptor is only asked about (isatty), not owned or closed; an fd that is not
    // open answers false.
    fd >= 0 && unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) }.is_terminal()
}

fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

/// A look at the session files under way on a thread of its own (see index/scan.rs), for a scan to take.
#[napi(js_name = "EarlyLook")]
pub struct JsEarlyLook {
    look: Option<EarlyLook>,
}

#[napi]
impl JsEarlyLook {
    /// Starts looking at the session files in `sessionsDir` (`flat` and `listingsFile` as for `scan`).
    #[napi(factory, catch_unwind)]
    pub fn start(sessions_dir: String, flat: bool, listings_file: Option<String>) -> JsEarlyLook {
        JsEarlyLook {
            look: Some(EarlyLook::start(
                &sessions_dir,
                layout(flat),
                listings_file.map(PathBuf::from),
            )),
        }
    }
}

#[napi]
impl NativeIndex {
    /// Opens (or creates) the index in `dir`: reads the index's metadata and checks the segment
    /// files changed since its last commit. An index that cannot be used is replaced with an
    /// empty one (see replace.rs).
    #[napi(ts_return_type = "Promise<NativeIndex>")]
    pub fn open(dir: String) -> AsyncTask<Job<NativeIndex>> {
        panics::quiet();
        AsyncTask::new(job(move || {
            NativeIndex::of(open_or_replace(Path::new(&dir))?)
        }))
    }

    /// Like `open`, checking every segment file's checksum first: after a failure.
    #[napi(ts_return_type = "Promise<NativeIndex>")]
    pub fn open_verified(dir: String) -> AsyncTask<Job<NativeIndex>> {
        panics::quiet();
        AsyncTask::new(job(move || {
            NativeIndex::of(open_checked(Path::new(&dir), Scope::All)?)
        }))
    }

    /// Like `open`, first checking every segment file written since they all last passed their
    /// checksum (`recall index`; see index/integrity.rs): an index nothing wrote to since is not read.
    #[napi(ts_return_type = "Promise<NativeIndex>")]
    pub fn open_rechecked(dir: String) -> AsyncTask<Job<NativeIndex>> {
        panics::quiet();
        AsyncTask::new(job(move || {
            NativeIndex::of(open_checked(Path::new(&dir), Scope::SinceChecked)?)
        }))
    }

    /// Whether the index's folder is still the one it was opened in (not deleted or replaced).
    #[napi]
    pub fn is_in_place(&self) -> bool {
        self.engine.is_in_place()
    }

    /// Why `open` replaced the index in the folder with an empty one, or null if it did not.
    #[napi]
    pub fn replaced_because(&self) -> Option<String> {
        self.replaced_because.clone()
    }

    /// Counts of documents and sessions, and the last commit's stamp and state.
    #[napi(ts_return_type = "Promise<NativeStats>")]
    pub fn stats(&self) -> AsyncTask<Job<JsStats>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || {
            let stats = engine.stats()?;
            Ok(JsStats {
                documents: stats.documents as f64,
                sessions: stats.sessions as f64,
                stamp: stats.stamp,
                state: stats.state,
            })
        }))
    }

    /// The folders the indexed sessions were started in, each once, sorted.
    #[napi(ts_return_type = "Promise<string[]>")]
    pub fn folders(&self) -> AsyncTask<Job<Vec<String>>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || engine.folders()))
    }

    /// Picks up commits made since the index was opened or last reloaded.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn reload(&self) -> AsyncTask<Job<()>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || engine.reload()))
    }

    /// Takes the writer lock, waiting up to `timeoutMs`; fails with RECALL_LOCKED after that.
    /// A `heavy` write (a first index, a large batch) indexes with two threads, a light one with
    /// one (fewer segments to write and flush per commit).
    #[napi(ts_return_type = "Promise<void>")]
    pub fn lock(&self, timeout_ms: u32, heavy: Option<bool>) -> AsyncTask<Job<()>> {
        let engine = self.engine.clone();
        let threads = if heavy.unwrap_or(false) { 2 } else { 1 };
        AsyncTask::new(job(move || {
            engine.lock(Duration::from_millis(u64::from(timeout_ms)), threads)
        }))
    }

    /// Applies a change set under the writer lock; nothing is visible before `commit`.
    #[napi(ts_return_type = "Promise<NativeApplyCounts>")]
    pub fn apply(&self, changes: JsChangeSet) -> AsyncTask<Job<JsApplyCounts>> {
        let engine = self.engine.clone();
        let changes = ChangeSet::from(changes);
        AsyncTask::new(job(move || {
            let c = engine.apply(&changes)?;
            Ok(JsApplyCounts {
                removed_paths: c.removed_paths,
                sessions: c.sessions,
                messages: c.messages,
                tag_updates: c.tag_updates,
                files: c.files,
            })
        }))
    }

    /// Deletes every document (for a rebuild); needs the writer lock.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn clear(&self) -> AsyncTask<Job<()>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || engine.clear()))
    }

    /// Commits under `stamp`, recording `state` (the caller's, returned by `stats`) with it.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn commit(&self, stamp: String, state: String) -> AsyncTask<Job<()>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || engine.commit(&stamp, &state)))
    }

    /// Looks at the session files in `sessionsDir` (`flat`: directly in it; otherwise one project
    /// folder down) and reports those that differ from their records, after picking up other
    /// processes' commits. With `compare` false, every file is reported changed. Folder listings
    /// are remembered in `listingsFile` (see index/listing.rs). `early`, a look started before, is taken
    /// for this one if it was of the same folder (and used up either way).
    #[napi(ts_return_type = "Promise<NativeScan>")]
    pub fn scan(
        &self,
        sessions_dir: String,
        flat: bool,
        compare: bool,
        listings_file: Option<String>,
        early: Option<&mut JsEarlyLook>,
    ) -> AsyncTask<Job<JsScan>> {
        let engine = self.engine.clone();
        let layout = layout(flat);
        let early = early.and_then(|e| e.look.take());
        AsyncTask::new(job(move || {
            Ok(engine
                .scan(
                    &sessions_dir,
                    layout,
                    compare,
                    early,
                    listings_file.as_deref().map(Path::new),
                )?
                .into())
        }))
    }

    /// The records of the files the selector names, sorted by path.
    #[napi(ts_return_type = "Promise<NativeFileRecord[]>")]
    pub fn file_records(&self, selector: JsRecordSelector) -> AsyncTask<Job<Vec<JsFileRecord>>> {
        let engine = self.engine.clone();
        let selector: Selector = selector.into();
        AsyncTask::new(job(move || {
            Ok(engine
                .file_records(&selector)?
                .into_iter()
                .map(JsFileRecord::from)
                .collect())
        }))
    }

    #[napi(ts_return_type = "Promise<void>")]
    pub fn unlock(&self) -> AsyncTask<Job<()>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || engine.unlock()))
    }

    /// The hits of a search; by meaning or both (`request.matching`) with the meaning index given,
    /// and the query's vector (`request.vector`) or the model that embeds it.
    #[napi(ts_return_type = "Promise<NativeFound>")]
    pub fn search(
        &self,
        request: JsSearchRequest,
        signal: Option<AbortSignal>,
        meaning: Option<&MeaningIndex>,
        model: Option<&MeaningModel>,
    ) -> AsyncTask<Job<JsFound>> {
        let engine = self.engine.clone();
        let refuse = |error: RecallError, signal| {
            AsyncTask::with_optional_signal(job(move || Err(error)), signal)
        };
        let content = request.content.unwrap_or_default();
        if let Some(unknown) = content.iter().find(|name| TextKind::parse(name).is_none()) {
            return refuse(
                RecallError::new(Code::BadInput, format!("unknown kind of text: {unknown}")),
                signal,
            );
        }
        let typos = match typos_of(request.typos.as_deref()) {
            Ok(typos) => typos,
            Err(error) => return refuse(error, signal),
        };
        let vectors = request.vectors;
        // The query's vector given, or the model that embeds it.
        let vector = match (request.vector, model) {
            (Some(vector), _) => Some(Ok(vector
                .into_iter()
                .map(|x| x as f32)
                .collect::<Vec<f32>>())),
            (None, Some(model)) => Some(Err(model.model.clone())),
            (None, None) => None,
        };
        let by_meaning = match (request.matching.as_deref(), meaning, vector) {
            (None | Some("words"), _, _) => None,
            (Some(name @ ("meaning" | "both")), Some(meaning), Some(vector)) => Some((
                meaning.current.clone(),
                meaning.units.clone(),
                vector,
                name == "both",
            )),
            (Some(name @ ("meaning" | "both")), _, _) => {
                return refuse(
                    RecallError::new(
                        Code::BadInput,
                        format!(
                            "a search by {name} needs the meaning index and the query's vector or the model"
                        ),
                    ),
                    signal,
                )
            }
            (Some(name), _, _) => {
                return refuse(
                    RecallError::new(Code::BadInput, format!("unknown match: {name}")),
                    signal,
                )
            }
        };
        let after = match request.after.map(|after| {
            after.place.key.parse::<u64>().map(|key| After {
                place: Place {
                    score: after.place.score,
                    last_activity: after.place.last_activity as i64,
                    key,
                },
                shown: after.shown as usize,
            })
        }) {
            None => None,
            Some(Ok(after)) => Some(after),
            Some(Err(_)) => {
                return refuse(
                    RecallError::new(Code::BadInput, "after.place.key is not a path key"),
                    signal,
                )
            }
        };
        let options = SearchOptions {
            after,
            content: content
                .iter()
                .filter_map(|name| TextKind::parse(name))
                .collect(),
            query: request.query,
            limit: request.limit as usize,
            prefix: request.prefix.unwrap_or(false),
            filters: request.filters.into(),
            now: request.now.unwrap_or_else(now_ms) as i64,
            recency_weight: request.recency_weight.unwrap_or(DEFAULT_RECENCY_WEIGHT),
            coordination: request
                .coordination
                .map_or(DEFAULT_COORDINATION, |c| c as f32),
            snippet_chars: request
                .snippet_chars
                .map_or(DEFAULT_SNIPPET_CHARS, |c| c as usize),
            typos,
        };
        AsyncTask::with_optional_signal(
            job(move || {
                let (found, vectors) = match by_meaning {
                    None => (engine.find(&options)?, None),
                    Some((current, units, vector, words)) => {
                        // The snapshot a later page saw on its first, or the latest.
                        let latest = refreshed(&current)?;
                        let store = match vectors {
                            Some(vectors) => latest.limited(vectors as usize),
                            None => latest,
                        };
                        let found = engine.find_matching(
                            &options,
                            MeaningQuery {
                                store: &store,
                                units: &units,
                                vector: match &vector {
                                    Ok(vector) => QueryVector::Given(vector),
                                    Err(model) => QueryVector::Embedded {
                                        model,
                                        text: &options.query,
                                    },
                                },
                                words,
                            },
                        )?;
                        (found, Some(store.len() as f64))
                    }
                };
                Ok(JsFound {
                    hits: found.hits.into_iter().map(JsHit::from).collect(),
                    places: found.places.into_iter().map(JsPlace::from).collect(),
                    ahead: found.ahead.map(|ahead| JsAhead {
                        sessions: u32::try_from(ahead.sessions).unwrap_or(u32::MAX),
                        digest: ahead.digest.to_string(),
                    }),
                    read_as: found
                        .read_as
                        .into_iter()
                        .map(|(word, read_as)| JsReadAs { word, read_as })
                        .collect(),
                    coverage: found.coverage.map(JsMeaningCoverage::from),
                    vectors,
                })
            }),
            signal,
        )
    }

    /// The sessions that share the most of one session's distinctive words, or lie nearest it in
    /// meaning, or both (search/related.rs).
    #[napi(ts_return_type = "Promise<NativeRelated>")]
    pub fn related(
        &self,
        request: JsRelatedRequest,
        signal: Option<AbortSignal>,
        meaning: Option<&MeaningIndex>,
    ) -> AsyncTask<Job<JsRelated>> {
        let engine = self.engine.clone();
        let refuse = |error: RecallError, signal| {
            AsyncTask::with_optional_signal(job(move || Err(error)), signal)
        };
        let by_meaning = match (request.matching.as_deref(), meaning) {
            (None | Some("words"), _) => None,
            (Some(name @ ("meaning" | "both")), Some(meaning)) => {
                Some((meaning.current.clone(), name == "both"))
            }
            (Some(name @ ("meaning" | "both")), None) => {
                return refuse(
                    RecallError::new(
                        Code::BadInput,
                        format!("related sessions by {name} need the meaning index"),
                    ),
                    signal,
                )
            }
            (Some(name), _) => {
                return refuse(
                    RecallError::new(Code::BadInput, format!("unknown match: {name}")),
                    signal,
                )
            }
        };
        let options = RelatedOptions {
            path: request.path,
            session_id: request.session_id,
            limit: request.limit as usize,
            filters: request.filters.into(),
            coordination: DEFAULT_COORDINATION,
            snippet_chars: request
                .snippet_chars
                .map_or(DEFAULT_SNIPPET_CHARS, |c| c as usize),
        };
        AsyncTask::with_optional_signal(
            job(move || {
                let related = match by_meaning {
                    None => engine.related(&options, None)?,
                    Some((current, words)) => engine.related(
                        &options,
                        Some(ByMeaning {
                            store: &refreshed(&current)?,
                            words,
                        }),
                    )?,
                };
                Ok(related.into())
            }),
            signal,
        )
    }

    /// The snippet of each text, as `search` makes it for text of that kind it keeps.
    #[napi(ts_return_type = "Promise<NativeSnippet[]>")]
    pub fn snippets(&self, request: JsSnippetRequest) -> AsyncTask<Job<Vec<JsSnippet>>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || {
            let kind_of = |name: &String| {
                TextKind::parse(name).ok_or_else(|| {
                    RecallError::new(Code::BadInput, format!("unknown kind of text: {name}"))
                })
            };
            let kind = kind_of(&request.kind)?;
            let searched = match &request.content {
                Some(names) => names
                    .iter()
                    .map(kind_of)
                    .collect::<std::result::Result<Vec<_>, RecallError>>()?,
                None => vec![kind],
            };
            let chars = request
                .snippet_chars
                .map_or(DEFAULT_SNIPPET_CHARS, |c| c as usize);
            let typos = typos_of(request.typos.as_deref())?;
            let made = engine.snippets(
                &request.query,
                request.prefix.unwrap_or(false),
                typos,
                kind,
                &searched,
                &request.texts,
                chars,
            )?;
            Ok(made
                .into_iter()
                .map(|(snippet, spans)| JsSnippet {
                    snippet,
                    spans: js_spans(spans),
                })
                .collect())
        }))
    }

    /// The indexed tool calls that touched `file` (an absolute path), by session file.
    #[napi(ts_return_type = "Promise<NativeFileCall[]>")]
    pub fn calls_touching(&self, file: String) -> AsyncTask<Job<Vec<JsFileCall>>> {
        let engine = self.engine.clone();
        AsyncTask::new(job(move || {
            Ok(engine
                .calls_touching(&file)?
                .into_iter()
                .map(JsFileCall::from)
                .collect())
        }))
    }

    /// Sessions matching the filters, most recently active first.
    #[napi(ts_return_type = "Promise<NativeSession[]>")]
    pub fn list(&self, request: JsListRequest) -> AsyncTask<Job<Vec<SessionMeta>>> {
        let engine = self.engine.clone();
        let filters: Filters = request.filters.into();
        let limit = request.limit as usize;
        AsyncTask::new(job(move || {
            let sessions = list(&engine.searcher(), engine.fields(), &filters, limit)?;
            Ok(sessions)
        }))
    }
}

/// A lock file this process holds (see fs/lock_file.rs); released by `release` or when the process ends.
#[napi]
pub struct LockFile {
    held: Option<HeldLock>,
}

#[napi]
impl LockFile {
    /// Takes the lock at `path`; fails with RECALL_LOCKED when another process holds it.
    #[napi(factory, catch_unwind)]
    pub fn hold(path: String) -> napi::Result<LockFile> {
        match HeldLock::hold(Path::new(&path)) {
            Ok(Some(held)) => Ok(LockFile { held: Some(held) }),
            Ok(None) => Err(to_napi(RecallError::new(
                Code::Locked,
                format!("{path} is held by another process"),
            ))),
            Err(error) => Err(to_napi(RecallError::new(
                Code::Io,
                format!("{path}: {error}"),
            ))),
        }
    }

    #[napi(catch_unwind)]
    pub fn set_text(&mut self, text: String) -> napi::Result<()> {
        let held = self.held.as_mut().ok_or_else(|| {
            to_napi(RecallError::new(
                Code::NotLocked,
                "the lock file was released",
            ))
        })?;
        held.set_text(&text)
            .map_err(|e| to_napi(RecallError::new(Code::Io, e.to_string())))
    }

    /// Whether its path still names the locked file (see fs/lock_file.rs); false once released.
    #[napi(catch_unwind)]
    pub fn is_in_place(&self) -> bool {
        self.held.as_ref().is_some_and(HeldLock::is_in_place)
    }

    #[napi]
    pub fn release(&mut self) {
        self.held = None;
    }
}

/// The text of the lock file at `path` while another process holds it; null when none does.
#[napi(catch_unwind)]
pub fn text_of_held_lock(path: String) -> napi::Result<Option<String>> {
    text_if_held(Path::new(&path))
        .map_err(|e| to_napi(RecallError::new(Code::Io, format!("{path}: {e}"))))
}

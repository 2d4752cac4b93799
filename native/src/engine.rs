//! The index on disk: opening it, reading from it, and writing to it under the writer lock.
//!
//! Readers never wait: Tantivy searches the last committed state while a writer works. Writing
//! is a short session — `lock`, any number of `apply`, `commit`, `unlock` — so that the caller
//! can record its own state (file signatures) while it still holds the lock. The writer is never
//! kept between sessions: a long-lived Pi process must not block a `recall` command in a shell.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use tantivy::collector::Count;
use tantivy::directory::error::LockError;
use tantivy::merge_policy::LogMergePolicy;
use tantivy::query::{BooleanQuery, Occur, Query, RangeQuery, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{IndexWriter, TantivyDocument, TantivyError, Term};

use crate::error::{Code, RecallError, Result};
use crate::fs::identity::Identity;
use crate::index::changes::ChangeSet;
use crate::index::files::{file_doc_query, file_document, read_records, FileRecord, Selector};
use crate::index::integrity;
use crate::index::part::{IndexPart, Part, Payload};
use crate::index::scan::{scan, EarlyLook, Layout, Scan};
use crate::index::schema::{kind_is, Fields, KIND_MESSAGE, KIND_SESSION, SCHEMA_VERSION};
use crate::index::session::{message_document, session_document, session_to_rewrite};
use crate::index::text_kind::TextKind;
use crate::panics;
use crate::search::correction::Typos;
use crate::search::find::{find, find_matching, search, Found, Hit, MeaningQuery, SearchOptions};
use crate::search::related::{related, ByMeaning, Related, RelatedOptions};
use crate::search::searchers::Searchers;
use crate::search::sessions::documents_by_id;
use crate::search::snippet::{snippets_of, Snippet};
use crate::search::touched::{calls_touching, FileCall};

const WRITER_HEAP_BYTES: usize = 32 * 1024 * 1024;
const LOCK_RETRY: Duration = Duration::from_millis(25);
const MAX_DOCS_BEFORE_MERGE: usize = 250_000;
/// How often a wait for the segment updater looks whether it has stopped (see panics.rs).
const UPDATER_CHECK: Duration = Duration::from_millis(20);

pub struct Engine {
    /// The conversation, the session documents and the file records (index/part.rs).
    main: IndexPart,
    /// The other parts (`Part::others`), each opened when a search or a write first needs it.
    others: Vec<(Part, OnceLock<IndexPart>)>,
    fields: Fields,
    writer: Mutex<Option<Writer>>,
    /// The folder the index was opened in, and which folder it was; none for an index in memory.
    folder: Option<(PathBuf, Identity)>,
}

/// The writers of every part, in commit order (the main one last), and the count of segment
/// updater panics when they were made: any later one may be their own updater's, whose tasks
/// then never finish.
struct Writer {
    parts: Vec<PartWriter>,
    updater_panics: u64,
}

struct PartWriter {
    part: Part,
    writer: IndexWriter,
    /// Whether this part has anything to commit: most tag edits and file records touch only the
    /// main one, and a commit costs a flush to disk. The main part is committed every time.
    changed: bool,
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
    /// Documents of the main index (conversation, sessions, file records).
    pub documents: u64,
    pub sessions: u64,
    /// The stamp of the last commit; empty for a new index.
    pub stamp: String,
    /// The caller's state given to the last commit; empty for a new index.
    pub state: String,
}

impl Engine {
    /// Opens the index in `dir`, creating it when the folder holds none. The depth index is
    /// opened when first needed.
    pub fn open(dir: &Path) -> Result<Engine> {
        let io_error =
            |e: std::io::Error| RecallError::new(Code::Io, format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(io_error)?;
        let folder = (
            dir.to_path_buf(),
            Identity::of(&std::fs::metadata(dir).map_err(io_error)?),
        );
        let main = IndexPart::open(dir, true)?.ok_or_else(|| {
            RecallError::new(
                Code::Io,
                format!("{}: cannot create the index", dir.display()),
            )
        })?;
        let others = Part::others().map(|part| (part, OnceLock::new())).collect();
        Engine::from_parts(main, others, Some(folder))
    }

    pub fn in_memory() -> Result<Engine> {
        let others = Part::others()
            .map(|part| Ok((part, OnceLock::from(IndexPart::in_memory()?))))
            .collect::<Result<_>>()?;
        Engine::from_parts(IndexPart::in_memory()?, others, None)
    }

    fn from_parts(
        main: IndexPart,
        others: Vec<(Part, OnceLock<IndexPart>)>,
        folder: Option<(PathBuf, Identity)>,
    ) -> Result<Engine> {
        let fields = Fields::from_schema(&main.index.schema())?;
        Ok(Engine {
            main,
            others,
            fields,
            writer: Mutex::new(None),
            folder,
        })
    }

    /// A part other than the main one, opened (or, for a writer, `create`d) on first use; `None`
    /// when nothing has made it yet. Opening it checks the segment files changed since its last
    /// commit, as opening the main index does (integrity.rs).
    fn other(&self, part: Part, create: bool) -> Result<Option<&IndexPart>> {
        let Some((_, slot)) = self.others.iter().find(|(other, _)| *other == part) else {
            return Ok(Some(&self.main));
        };
        if let Some(opened) = slot.get() {
            return Ok(Some(opened));
        }
        let Some((dir, _)) = &self.folder else {
            return Ok(None);
        };
        let folder = part.folder(dir);
        if self.meta_missing(&folder)? {
            return Err(RecallError::new(
                Code::Corrupt,
                integrity::describe(&in_folder(
                    part,
                    vec![format!("meta.json{}", integrity::MISSING)],
                )),
            ));
        }
        let opened = match IndexPart::open(&folder, create) {
            Ok(Some(opened)) => opened,
            Ok(None) => return Ok(None),
            // Opening reads some segment files: a damaged one may be why it failed.
            Err(error) => {
                return Err(part_damage(
                    part,
                    integrity::damaged_files_in(&folder, integrity::Scope::All).unwrap_or_default(),
                )
                .unwrap_or(error))
            }
        };
        if let Some(damage) = part_damage(
            part,
            integrity::damaged_files(&opened.index, &folder, integrity::Scope::SinceCommit)?,
        ) {
            return Err(damage);
        }
        // Another thread may have opened it meanwhile: either copy serves.
        Ok(Some(slot.get_or_init(|| opened)))
    }

    /// The parts opened so far, the main one first.
    fn opened(&self) -> impl Iterator<Item = &IndexPart> {
        std::iter::once(&self.main).chain(self.others.iter().filter_map(|(_, slot)| slot.get()))
    }

    /// The writer slot. A panic while it was held (a damaged file read while applying changes,
    /// say) left a writer half way through its changes: it is dropped, and its changes with it
    /// (nothing was committed), so that the next `lock` starts afresh instead of every later
    /// write failing for the life of the process.
    fn writer(&self) -> MutexGuard<'_, Option<Writer>> {
        self.writer.lock().unwrap_or_else(|poisoned| {
            let mut slot = poisoned.into_inner();
            *slot = None;
            self.writer.clear_poison();
            slot
        })
    }

    /// Whether the folder the index was opened in is still there, and still the same folder: the
    /// cache may have been deleted by hand, or an unusable index replaced by another process.
    /// An index whose folder is gone can still be read, but nothing written to it would be kept.
    pub fn is_in_place(&self) -> bool {
        self.folder
            .as_ref()
            .is_none_or(|(path, identity)| identity.named_by(path))
    }

    /// The active segment files that fail their checksum, of those `scope` says (see
    /// integrity.rs). The other parts' files (named `depth/…`) are checked with the main one's;
    /// since the last commit, when the part is opened. An index in memory has no files.
    pub fn damaged_files(&self, scope: integrity::Scope) -> Result<Vec<String>> {
        let Some((dir, _)) = &self.folder else {
            return Ok(Vec::new());
        };
        let mut damaged = integrity::damaged_files(&self.main.index, dir, scope)?;
        for part in Part::others() {
            let folder = part.folder(dir);
            if self.meta_missing(&folder)? {
                damaged.extend(in_folder(
                    part,
                    vec![format!("meta.json{}", integrity::MISSING)],
                ));
            } else if scope != integrity::Scope::SinceCommit && folder.join("meta.json").exists() {
                damaged.extend(in_folder(
                    part,
                    integrity::damaged_files_in(&folder, scope)?,
                ));
            }
        }
        Ok(damaged)
    }

    /// Whether a part's `meta.json` is gone although the main index has a commit (the
    /// first write makes every part before it commits): its segments are lost to searches.
    fn meta_missing(&self, folder: &Path) -> Result<bool> {
        Ok(!folder.join("meta.json").exists() && self.main.payload()?.is_some())
    }

    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// The main index's searcher: sessions, file records, the conversation.
    pub fn searcher(&self) -> tantivy::Searcher {
        self.main.searcher()
    }

    /// What a search of `kinds` reads: the main index, and each other part that holds one of the
    /// kinds (a search of the conversation alone must rank the same whether or not they are open).
    pub fn searchers(&self, kinds: &[TextKind]) -> Result<Searchers> {
        let mut others = Vec::new();
        for part in Part::others().filter(|part| kinds.iter().any(|kind| Part::of(*kind) == *part))
        {
            if let Some(opened) = self.other(part, false)? {
                others.push((part, opened.searcher()));
            }
        }
        Ok(Searchers {
            main: self.main.searcher(),
            others,
        })
    }

    pub fn search(&self, options: &SearchOptions) -> Result<Vec<Hit>> {
        search(&self.searchers(&options.content)?, &self.fields, options)
    }

    /// The hits, and the words of the query read as others (search/find.rs, `Found`).
    pub fn find(&self, options: &SearchOptions) -> Result<Found> {
        find(&self.searchers(&options.content)?, &self.fields, options)
    }

    /// The sessions related to one by its distinctive words, and by meaning with the meaning
    /// index (related.rs); the conversation only.
    pub fn related(&self, options: &RelatedOptions, meaning: Option<ByMeaning>) -> Result<Related> {
        related(&self.searchers(&[])?, &self.fields, options, meaning)
    }

    /// The hits by meaning, or by words and meaning (search/find.rs, `find_matching`).
    pub fn find_matching(&self, options: &SearchOptions, meaning: MeaningQuery) -> Result<Found> {
        find_matching(
            &self.searchers(&options.content)?,
            &self.fields,
            options,
            Some(meaning),
        )
    }

    /// The snippet of each text of `kind`, as a search of the `searched` kinds makes it (snippet.rs).
    #[allow(clippy::too_many_arguments)]
    pub fn snippets(
        &self,
        query: &str,
        prefix: bool,
        typos: Typos,
        kind: TextKind,
        searched: &[TextKind],
        texts: &[String],
        chars: usize,
    ) -> Result<Vec<Snippet>> {
        let read: Vec<TextKind> = searched.iter().copied().chain([kind]).collect();
        snippets_of(
            &self.searchers(&read)?,
            &self.fields,
            query,
            prefix,
            typos,
            kind,
            searched,
            texts,
            chars,
        )
    }

    /// Every indexed tool call that touched `file` (touched.rs).
    pub fn calls_touching(&self, file: &str) -> Result<Vec<FileCall>> {
        match self.other(Part::of(TextKind::Call), false)? {
            Some(calls) => calls_touching(&calls.searcher(), &self.fields, file),
            None => Ok(Vec::new()),
        }
    }

    /// Picks up commits made since the last reload, by this or another process.
    pub fn reload(&self) -> Result<()> {
        for part in self.opened() {
            part.reader.reload()?;
        }
        Ok(())
    }

    /// The folders the indexed sessions were started in, each once, sorted: the `cwd` terms of
    /// the session index (a folder whose sessions were all deleted may linger until a merge).
    pub fn folders(&self) -> Result<Vec<String>> {
        let mut folders = std::collections::BTreeSet::new();
        for segment in self.searcher().segment_readers() {
            let index = segment.inverted_index(self.fields.cwd)?;
            let mut terms = index
                .terms()
                .stream()
                .map_err(tantivy::TantivyError::from)?;
            while terms.advance() {
                if let Ok(folder) = std::str::from_utf8(terms.key()) {
                    folders.insert(folder.to_owned());
                }
            }
        }
        Ok(folders.into_iter().collect())
    }

    pub fn stats(&self) -> Result<Stats> {
        let searcher = self.searcher();
        let sessions = searcher.search(&kind_is(&self.fields, KIND_SESSION), &Count)? as u64;
        let (stamp, state) = self
            .main
            .payload()?
            .map(|p| (p.stamp, p.state))
            .unwrap_or_default();
        Ok(Stats {
            documents: searcher.num_docs(),
            sessions,
            stamp,
            state,
        })
    }

    /// The session files in `sessions_dir` that differ from their records, as of the last commit
    /// of any process; `early`, a look already under way; `listings_file`, where folder listings
    /// are remembered (see `scan.rs`).
    pub fn scan(
        &self,
        sessions_dir: &str,
        layout: Layout,
        compare: bool,
        early: Option<EarlyLook>,
        listings_file: Option<&Path>,
    ) -> Result<Scan> {
        self.reload()?;
        scan(
            &self.searcher(),
            &self.fields,
            sessions_dir,
            layout,
            compare,
            early,
            listings_file,
        )
    }

    pub fn file_records(&self, selector: &Selector) -> Result<Vec<FileRecord>> {
        read_records(&self.searcher(), &self.fields, selector)
    }

    /// Takes the writer lock, waiting up to `timeout` for another process to release it, with
    /// writers of `threads` indexing threads (at most the machine's cores). The main index's lock
    /// is the one processes wait for; the depth index's is taken only by its holder.
    pub fn lock(&self, timeout: Duration, threads: usize) -> Result<()> {
        panics::quiet();
        let mut slot = self.writer();
        if slot.is_some() {
            return Ok(());
        }
        let deadline = Instant::now() + timeout;
        let threads = threads.clamp(
            1,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
        );
        let updater_panics = panics::updater_panics();
        let main = loop {
            match self
                .main
                .index
                .writer_with_num_threads::<TantivyDocument>(threads, WRITER_HEAP_BYTES * threads)
            {
                Ok(writer) => break writer,
                Err(TantivyError::LockFailure(LockError::LockBusy, _))
                    if Instant::now() < deadline =>
                {
                    std::thread::sleep(LOCK_RETRY)
                }
                Err(error) => return Err(error.into()),
            }
        };
        let mut parts = Vec::with_capacity(Part::ALL.len());
        for part in Part::others() {
            let other = self.other(part, true)?.ok_or_else(|| {
                RecallError::new(Code::Io, format!("cannot create the {part:?} index"))
            })?;
            let writer = other
                .index
                .writer_with_num_threads::<TantivyDocument>(threads, WRITER_HEAP_BYTES * threads)?;
            parts.push(PartWriter {
                part,
                writer: ready_to_write(writer, updater_panics)?,
                changed: false,
            });
        }
        parts.push(PartWriter {
            part: Part::Main,
            writer: ready_to_write(main, updater_panics)?,
            changed: false,
        });
        *slot = Some(Writer {
            parts,
            updater_panics,
        });
        Ok(())
    }

    pub fn apply(&self, changes: &ChangeSet) -> Result<ApplyCounts> {
        let mut slot = self.writer();
        let writer = slot.as_mut().ok_or_else(not_locked)?;
        let fields = &self.fields;
        let mut counts = ApplyCounts::default();
        for path in &changes.remove_paths {
            writer.delete_path(fields, path);
            counts.removed_paths += 1;
        }
        for update in &changes.sessions {
            let path = &update.session.path;
            match update.replace_from {
                _ if update.continued == Some(true) => {
                    writer
                        .main()?
                        .delete_query(session_doc_query(fields, path))?;
                }
                None => writer.delete_path(fields, path),
                Some(from) => {
                    let tail = || {
                        let tail = RangeQuery::new(
                            std::ops::Bound::Included(Term::from_field_u64(
                                fields.msg_index,
                                u64::from(from),
                            )),
                            std::ops::Bound::Unbounded,
                        );
                        Box::new(BooleanQuery::new(vec![
                            (Occur::Must, path_query(fields, path)),
                            (Occur::Must, kind_is(fields, KIND_MESSAGE)),
                            (Occur::Must, Box::new(tail)),
                        ]))
                    };
                    for part in &mut writer.parts {
                        part.writer.delete_query(tail())?;
                        part.changed = true;
                    }
                    writer
                        .main()?
                        .delete_query(session_doc_query(fields, path))?;
                }
            }
            for message in &update.messages {
                writer.add(
                    Part::of(message.text_kind()),
                    message_document(fields, &update.session, message),
                )?;
                counts.messages += 1;
            }
            writer.add(Part::Main, session_document(fields, &update.session))?;
            counts.sessions += 1;
        }
        // After the sessions: replacing a session deletes every document of its path, its
        // record included.
        for record in &changes.files {
            writer
                .main()?
                .delete_query(file_doc_query(fields, &record.path))?;
            writer.add(Part::Main, file_document(fields, record))?;
            counts.files += 1;
        }
        // Tag edits rewrite committed session documents only; a session sent in this same change
        // set already carries its tags.
        let searcher = self.searcher();
        for update in &changes.tag_updates {
            for doc in documents_by_id(&searcher, fields, &update.session_id)? {
                let mut session = session_to_rewrite(fields, &doc);
                if changes
                    .sessions
                    .iter()
                    .any(|s| s.session.path == session.path)
                {
                    continue;
                }
                session.tags = update.tags.clone();
                writer
                    .main()?
                    .delete_query(session_doc_query(fields, &session.path))?;
                writer.add(Part::Main, session_document(fields, &session))?;
            }
            counts.tag_updates += 1;
        }
        Ok(counts)
    }

    /// Drops every document (a rebuild), keeping the lock.
    pub fn clear(&self) -> Result<()> {
        let mut slot = self.writer();
        let writer = slot.as_mut().ok_or_else(not_locked)?;
        for part in &mut writer.parts {
            part.writer.delete_all_documents()?;
            part.changed = true;
        }
        Ok(())
    }

    /// Commits what was applied: the other parts first, then the main one, whose commit is the
    /// one that counts (index/part.rs). A commit that Tantivy's segment updater could not finish
    /// (it panicked: a damaged file read while applying deletes) is an error, and the writers are
    /// left behind, stopped; `unlock` then has nothing to release.
    pub fn commit(&self, stamp: &str, state: &str) -> Result<()> {
        let mut slot = self.writer();
        let Writer {
            parts,
            updater_panics,
        } = slot.take().ok_or_else(not_locked)?;
        let payload = |state: &str| {
            serde_json::to_string(&Payload {
                schema: SCHEMA_VERSION,
                stamp: stamp.to_owned(),
                state: state.to_owned(),
            })
        };
        let mut committed: tantivy::Result<()> = Ok(());
        let mut kept = Vec::with_capacity(parts.len());
        for PartWriter {
            part,
            writer,
            changed,
        } in parts
        {
            // No part is committed after a failed commit (the main one last): the files stay
            // changed for the next sync.
            if committed.is_err() || !(changed || part == Part::Main) {
                kept.push(PartWriter {
                    part,
                    writer,
                    changed,
                });
                continue;
            }
            let (writer, outcome) = commit_one(
                writer,
                payload(if part == Part::Main { state } else { "" })?,
                updater_panics,
            )?;
            kept.push(PartWriter {
                part,
                writer,
                changed: changed && outcome.is_err(),
            });
            committed = outcome;
        }
        *slot = Some(Writer {
            parts: kept,
            updater_panics,
        });
        committed?;
        drop(slot);
        self.reload()
    }

    /// Releases the writer lock, after letting background merges finish. Uncommitted changes
    /// are dropped.
    pub fn unlock(&self) -> Result<()> {
        let writer = self.writer().take();
        if let Some(Writer {
            parts,
            updater_panics,
        }) = writer
        {
            for PartWriter { writer, .. } in parts {
                beside_updater(updater_panics, move || writer.wait_merging_threads())??;
            }
        }
        Ok(())
    }
}

impl Writer {
    fn part(&mut self, part: Part) -> Result<&mut PartWriter> {
        self.parts
            .iter_mut()
            .find(|writer| writer.part == part)
            .ok_or_else(|| {
                RecallError::new(Code::Internal, format!("no writer of the {part:?} index"))
            })
    }

    fn main(&mut self) -> Result<&IndexWriter> {
        Ok(&self.part(Part::Main)?.writer)
    }

    /// Adds a document to `part`.
    fn add(&mut self, part: Part, document: TantivyDocument) -> Result<()> {
        let writer = self.part(part)?;
        writer.writer.add_document(document)?;
        writer.changed = true;
        Ok(())
    }

    /// Deletes every document of a session file, in every part.
    fn delete_path(&mut self, fields: &Fields, path: &str) {
        for part in &mut self.parts {
            part.writer
                .delete_term(Term::from_field_text(fields.path, path));
            part.changed = true;
        }
    }
}

/// A new writer with recall's merge policy, rid of the files no commit uses: a writer killed
/// before its commit leaves them, and this one's commit would make some of the same names (a
/// segment's `.del` of the same opstamp) and fail on them with FileAlreadyExists, every time.
fn ready_to_write(writer: IndexWriter, updater_panics: u64) -> Result<IndexWriter> {
    writer.set_merge_policy(Box::new(merge_policy()));
    let (writer, collected) = beside_updater(updater_panics, move || {
        let collected = writer.garbage_collect_files().wait();
        (writer, collected)
    })?;
    collected?;
    Ok(writer)
}

/// Names of a part's files as the main index's folder sees them (`depth/…`).
fn in_folder(part: Part, names: Vec<String>) -> Vec<String> {
    match part.folder_name() {
        None => names,
        Some(folder) => names
            .into_iter()
            .map(|name| format!("{folder}/{name}"))
            .collect(),
    }
}

/// The error for damaged files of a part, if any are.
fn part_damage(part: Part, damaged: Vec<String>) -> Option<RecallError> {
    (!damaged.is_empty()).then(|| {
        RecallError::new(
            Code::Corrupt,
            integrity::describe(&in_folder(part, damaged)),
        )
    })
}

/// Commits one writer with `payload`, giving it back (for more work, or for `unlock` after a
/// failed commit) with the commit's outcome.
fn commit_one(
    mut writer: IndexWriter,
    payload: String,
    updater_panics: u64,
) -> Result<(IndexWriter, tantivy::Result<()>)> {
    beside_updater(updater_panics, move || {
        let committed = writer.prepare_commit().and_then(|mut prepared| {
            prepared.set_payload(&payload);
            prepared.commit()
        });
        (writer, committed.map(|_| ()))
    })
}

/// Runs `work` (a writer call that waits for Tantivy's segment updater) on a thread of its own,
/// and waits for it unless the updater stops meanwhile (a panic since `updater_panics`, see
/// panics.rs): then the wait is an error, and `work` and what it holds are left to that thread.
fn beside_updater<T: Send + 'static>(
    updater_panics: u64,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
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
            Ok(Err(panic)) => {
                return Err(RecallError::new(
                    Code::Internal,
                    format!("writing the index panicked ({})", panics::message(&*panic)),
                ))
            }
            Err(mpsc::RecvTimeoutError::Timeout) if panics::updater_panics() > updater_panics => {
                return Err(RecallError::new(
                    Code::Corrupt,
                    format!(
                        "Tantivy's segment updater panicked ({}); the index may be damaged",
                        panics::last_updater_panic()
                    ),
                ));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(RecallError::new(
                    Code::Internal,
                    "the writer thread ended without an answer",
                ))
            }
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

fn path_query(fields: &Fields, path: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(fields.path, path),
        IndexRecordOption::Basic,
    ))
}

fn session_doc_query(fields: &Fields, path: &str) -> Box<dyn Query> {
    Box::new(BooleanQuery::new(vec![
        (Occur::Must, path_query(fields, path)),
        (Occur::Must, kind_is(fields, KIND_SESSION)),
    ]))
}

fn not_locked() -> RecallError {
    RecallError::new(
        Code::NotLocked,
        "Assertion failed: write without holding the writer lock",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::find::SearchOptions;

    fn session(word: &str) -> ChangeSet {
        serde_json::from_value(serde_json::json!({ "sessions": [{
            "session": { "id": word, "path": format!("/s/{word}.jsonl"), "cwd": "/p", "created": 1, "modified": 2, "messageCount": 1 },
            "messages": [{ "index": 0, "role": "user", "entryId": "e0", "timestamp": 2, "text": word }],
        }] }))
        .unwrap()
    }

    fn finds(engine: &Engine, word: &str) -> bool {
        let options = SearchOptions {
            query: word.to_owned(),
            limit: 5,
            prefix: false,
            filters: Default::default(),
            content: Vec::new(),
            now: 2,
            recency_weight: 0.0,
            coordination: crate::search::query::DEFAULT_COORDINATION,
            snippet_chars: 50,
            typos: crate::search::correction::Typos::Correct,
            after: None,
        };
        !engine.search(&options).unwrap().is_empty()
    }

    /// One update of session `/s/parts.jsonl`: `messages` as (index, word), its `replaceFrom` and `continued`.
    fn part(messages: &[(u32, &str)], replace_from: Option<u32>, continued: bool) -> ChangeSet {
        let messages: Vec<_> = messages.iter().map(|(index, word)| serde_json::json!({ "index": index, "role": "user", "entryId": word, "timestamp": 2, "text": word })).collect();
        serde_json::from_value(serde_json::json!({ "sessions": [{
            "session": { "id": "parts", "path": "/s/parts.jsonl", "cwd": "/p", "created": 1, "modified": 2, "messageCount": messages.len() },
            "messages": messages, "replaceFrom": replace_from, "continued": continued,
        }] }))
        .unwrap()
    }

    fn write(engine: &Engine, updates: &[ChangeSet]) {
        engine.lock(Duration::from_secs(1), 1).unwrap();
        for update in updates {
            engine.apply(update).unwrap();
        }
        engine.commit("t", "").unwrap();
        engine.unlock().unwrap();
    }

    #[test]
    fn a_session_sent_in_parts_is_indexed_as_if_sent_whole() {
        let whole = Engine::in_memory().unwrap();
        write(
            &whole,
            &[part(
                &[(0, "alpha"), (1, "beta"), (1, "gamma"), (2, "delta")],
                None,
                false,
            )],
        );
        // Written anew in parts over an older version: the first part replaces, the others add,
        // one of them at the index the part before ended on.
        let rewritten = Engine::in_memory().unwrap();
        write(
            &rewritten,
            &[part(&[(0, "stale"), (1, "staler")], None, false)],
        );
        write(
            &rewritten,
            &[
                part(&[(0, "alpha"), (1, "beta")], None, false),
                part(&[(1, "gamma")], None, true),
                part(&[(2, "delta")], Some(0), true),
            ],
        );
        // Appended to in parts: the first part replaces from its index on.
        let appended = Engine::in_memory().unwrap();
        write(
            &appended,
            &[part(&[(0, "alpha"), (1, "staler")], None, false)],
        );
        write(
            &appended,
            &[
                part(&[(1, "beta")], Some(1), false),
                part(&[(1, "gamma"), (2, "delta")], None, true),
            ],
        );
        for engine in [&rewritten, &appended] {
            let (a, b) = (whole.stats().unwrap(), engine.stats().unwrap());
            assert_eq!((a.documents, a.sessions), (b.documents, b.sessions));
            assert!(["alpha", "beta", "gamma", "delta"]
                .iter()
                .all(|word| finds(engine, word)));
            assert!(!finds(engine, "stale") && !finds(engine, "staler"));
        }
    }

    #[test]
    fn a_panic_while_writing_leaves_later_writes_working() {
        let engine = Engine::in_memory().unwrap();
        engine.lock(Duration::from_secs(1), 1).unwrap();
        engine.apply(&session("halfway")).unwrap();
        // A panic with the writer held (a damaged file read while applying changes) poisons it.
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            let _held = engine.writer.lock();
            panic!("a damaged file");
        }));
        assert!(panicked.is_err() && engine.writer.is_poisoned());
        // The caller gives the lock back after the failure, and writes again.
        engine.unlock().unwrap();
        engine.lock(Duration::from_secs(1), 1).unwrap();
        engine.apply(&session("afterwards")).unwrap();
        engine.commit("t", "").unwrap();
        engine.unlock().unwrap();
        assert!(finds(&engine, "afterwards"));
        // What the writer had applied when it panicked was dropped, not committed later.
        assert!(!finds(&engine, "halfway"));
    }
}

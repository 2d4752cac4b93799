//! Finding the session files on disk and comparing them with the file records: the freshness
//! check every search starts with, so it costs little more than one `stat` per file (on two
//! threads, relative to each open project folder) and never reads a file.
//!
//! The rules are Pi's: in the default layout, `*.jsonl` files one folder below the sessions
//! directory (symlinked folders included); in a custom directory, `*.jsonl` files directly in it.
//! Nothing deeper: subagent artifacts nested further down are not sessions.

use std::fs::{self, DirEntry, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, FileType};

use tantivy::schema::document::Value;
use tantivy::{DocAddress, Searcher, SegmentReader, TantivyDocument, Term};

use crate::error::Result;
use crate::index::listing::{fits_a_line, FolderState, Listing, Listings, Names, SETTLE};
use crate::index::schema::{for_each_of_kind, Fields, KIND_FILE};
use crate::path_key::{path_key, path_key_after, ByPathKey};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `<sessions>/<project folder>/<file>.jsonl`
    Projects,
    /// `<sessions>/<file>.jsonl`
    Flat,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SessionFile {
    pub path: String,
    pub size: u64,
    pub mtime_ms: f64,
    /// A replaced file gets a new inode.
    pub ino: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanFailure {
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct Scan {
    pub files_total: usize,
    pub unchanged: usize,
    /// New files and files whose signature differs from their record, sorted by path.
    pub changed: Vec<SessionFile>,
    /// Recorded files that are gone, sorted.
    pub removed: Vec<String>,
    /// Folders or files that could not be looked at. A recorded file there is not reported removed.
    pub failures: Vec<ScanFailure>,
}

/// `EACCES (scandir)`, like Node's error codes, so messages read the same from every layer.
fn reason(error: &io::Error, syscall: &str) -> String {
    let code = match error.raw_os_error() {
        Some(1) => "EPERM",
        Some(2) => "ENOENT",
        Some(5) => "EIO",
        Some(13) => "EACCES",
        Some(20) => "ENOTDIR",
        Some(40) => "ELOOP",
        Some(36) => "ENAMETOOLONG",
        _ => return format!("{error} ({syscall})"),
    };
    format!("{code} ({syscall})")
}

/// `f` applied to every item, results in order. Two threads take the items one at a time, so a
/// large project folder does not leave one of them idle. A panic on the other thread goes on here,
/// where the task turns it into an error: a file left unlooked-at must never pass for a removed one.
fn on_two_threads<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(&f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut results = std::thread::scope(|scope| {
        let other = scope.spawn(work);
        let mut results = work();
        results.extend(
            other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        );
        results
    });
    results.sort_unstable_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// What tells a file's records stale: they were taken of another size, mtime or inode.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Signature {
    size: u64,
    mtime_ms: f64,
    ino: u64,
}

/// The session files of one folder as a look found them. A file's path is made only when it is
/// needed (a changed file), not for each of the thousands a look finds unchanged.
#[derive(Debug)]
struct FolderLook {
    /// The folder's path with a slash.
    prefix: String,
    names: Names,
    /// For each name in turn, its path key (computed here, on the look's threads) and signature;
    /// nothing where the name is no regular file or could not be looked at.
    found: Vec<Option<(u64, Signature)>>,
}

impl FolderLook {
    fn files(&self) -> impl Iterator<Item = (&str, &(u64, Signature))> {
        self.names
            .iter()
            .zip(&self.found)
            .filter_map(|(name, found)| Some((name, found.as_ref()?)))
    }

    fn session_file(&self, name: &str, signature: &Signature) -> SessionFile {
        let Signature {
            size,
            mtime_ms,
            ino,
        } = *signature;
        SessionFile {
            path: self.prefix.clone() + name,
            size,
            mtime_ms,
            ino,
        }
    }
}

/// What a look at the session files found, before any comparison with the index.
#[derive(Debug, Default)]
pub struct Look {
    folders: Vec<FolderLook>,
    pub failures: Vec<ScanFailure>,
}

impl Look {
    /// How many session files it found.
    pub fn file_count(&self) -> usize {
        self.folders
            .iter()
            .map(|folder| folder.files().count())
            .sum()
    }
}

/// A folder's path with a slash, for `join`.
fn with_slash(dir: &str) -> String {
    let mut folder = dir.trim_end_matches('/').to_owned();
    folder.push('/');
    folder
}

fn join(dir: &str, name: &str) -> String {
    with_slash(dir) + name
}

/// A folder, or a symlink to one.
fn is_folder(entry: &DirEntry) -> bool {
    match entry.file_type() {
        Ok(t) if t.is_dir() => true,
        Ok(t) if t.is_symlink() => fs::metadata(entry.path())
            .map(|m| m.is_dir())
            .unwrap_or(false),
        _ => false,
    }
}

/// Why a folder could not be read. A missing sessions directory (`top`) is no failure: Pi has not
/// written a session yet.
fn unreadable(dir: &str, top: bool, error: &io::Error) -> Option<ScanFailure> {
    let missing = top && error.kind() == io::ErrorKind::NotFound;
    (!missing).then(|| ScanFailure {
        path: dir.to_owned(),
        reason: reason(error, "scandir"),
    })
}

/// The entries of a folder, or why it could not be read.
fn entries(dir: &str, top: bool) -> (Vec<DirEntry>, Option<ScanFailure>) {
    match fs::read_dir(dir) {
        Ok(entries) => (entries.filter_map(|e| e.ok()).collect(), None),
        Err(error) => (Vec::new(), unreadable(dir, top, &error)),
    }
}

/// The `*.jsonl` names in an open folder, and whether they may be remembered: a name that is not
/// UTF-8 is reported as a failure instead, and its folder read again next time.
fn read_names(
    folder: &File,
    dir: &str,
    failures: &mut Vec<ScanFailure>,
) -> io::Result<(Names, bool)> {
    let mut names = Names::default();
    let mut rememberable = fits_a_line(dir);
    for entry in rustix::fs::Dir::read_from(folder)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if !name.ends_with(b".jsonl") {
            continue;
        }
        match std::str::from_utf8(name) {
            Ok(name) => {
                rememberable &= fits_a_line(name);
                names.push(name);
            }
            Err(_) => {
                rememberable = false;
                let path = join(dir, &String::from_utf8_lossy(name));
                failures.push(ScanFailure {
                    path,
                    reason: "file name is not UTF-8".to_owned(),
                });
            }
        }
    }
    Ok((names, rememberable))
}

/// How a folder's names were found.
enum Listed {
    /// From its remembered listing.
    Remembered,
    /// By reading it; with its listing, if that may be remembered.
    Read(Option<Listing>),
}

/// The `*.jsonl` files of a folder, each with its signature, and how their names were found: from
/// `remembered` if it is of the folder as it is, else by reading the folder. `settle`: see `look`.
fn look_in_folder(
    dir: &str,
    top: bool,
    remembered: Option<&Listing>,
    settle: Option<Duration>,
) -> (Look, Listed) {
    let mut look = Look::default();
    let opened =
        File::open(dir).and_then(|folder| FolderState::of(&folder).map(|state| (folder, state)));
    let (folder, state) = match opened {
        Ok(opened) => opened,
        Err(error) => {
            look.failures.extend(unreadable(dir, top, &error));
            return (look, Listed::Read(None));
        }
    };
    if let Some(listing) = remembered.filter(|listing| listing.state == state) {
        look_at_names(&folder, dir, listing.names.clone(), &mut look);
        return (look, Listed::Remembered);
    }
    match read_names(&folder, dir, &mut look.failures) {
        Ok((names, rememberable)) => {
            look_at_names(&folder, dir, names.clone(), &mut look);
            let keep = rememberable
                && settle.is_some_and(|settle| state.settled(SystemTime::now(), settle));
            (look, Listed::Read(keep.then_some(Listing { state, names })))
        }
        Err(error) => {
            look.failures.extend(unreadable(dir, false, &error));
            (look, Listed::Read(None))
        }
    }
}

/// Looks at each named file relative to its open folder (`fstatat`), which spares the kernel a
/// walk down the whole path; a symlink is followed. The folder's part of the path keys is hashed
/// once, not again for each file.
fn look_at_names(folder: &File, dir: &str, names: Names, look: &mut Look) {
    let prefix = with_slash(dir);
    let prefix_key = path_key(&prefix);
    let mut found = Vec::with_capacity(names.len());
    for name in names.iter() {
        found.push(match rustix::fs::statat(folder, name, AtFlags::empty()) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile => {
                let mtime_ms = stat.st_mtime as f64 * 1000.0 + stat.st_mtime_nsec as f64 / 1e6;
                Some((
                    path_key_after(prefix_key, name),
                    Signature {
                        size: stat.st_size as u64,
                        mtime_ms,
                        ino: stat.st_ino,
                    },
                ))
            }
            Ok(_) => None, // a folder named *.jsonl, or a symlink to one
            Err(error) => {
                look.failures.push(ScanFailure {
                    path: prefix.clone() + name,
                    reason: reason(&error.into(), "stat"),
                });
                None
            }
        });
    }
    look.folders.push(FolderLook {
        prefix,
        names,
        found,
    });
}

/// The project folders of the sessions directory (or, in a flat one, the directory itself).
fn folders(sessions_dir: &str, layout: Layout) -> (Vec<String>, Option<ScanFailure>) {
    if layout == Layout::Flat {
        return (vec![sessions_dir.to_owned()], None);
    }
    let (entries, failure) = entries(sessions_dir, true);
    let folders = entries
        .into_iter()
        .filter(is_folder)
        .filter_map(|e| e.file_name().to_str().map(|name| join(sessions_dir, name)))
        .collect();
    (folders, failure)
}

/// The project folders of a sessions directory in Pi's layout (none when it cannot be read).
pub fn project_folders(sessions_dir: &str) -> Vec<String> {
    folders(sessions_dir, Layout::Projects).0
}

/// Every session file with its signature, the folders taken on two threads a folder at a time.
/// A folder whose listing `remembered` holds as it is now is not read (see listing.rs); with
/// `settle`, the listings to remember from now on come back when they differ from `remembered`:
/// those of folders read that last changed at least `settle` ago, and those that were used.
pub fn look(
    sessions_dir: &str,
    layout: Layout,
    mut remembered: Listings,
    settle: Option<Duration>,
) -> (Look, Option<Listings>) {
    let (folders, failure) = folders(sessions_dir, layout);
    let mut look = Look {
        folders: Vec::new(),
        failures: failure.into_iter().collect(),
    };
    let parts = on_two_threads(&folders, |dir| {
        look_in_folder(
            dir,
            layout == Layout::Flat,
            remembered.folders.get(dir),
            settle,
        )
    });
    let mut changed = false;
    let mut listings = Listings::default();
    for (dir, (part, listed)) in folders.into_iter().zip(parts) {
        look.folders.extend(part.folders);
        look.failures.extend(part.failures);
        let before = remembered.folders.remove(&dir);
        let listing = match listed {
            Listed::Remembered => before,
            Listed::Read(listing) => {
                changed |= listing.is_some() || before.is_some();
                listing
            }
        };
        if let Some(listing) = listing {
            listings.folders.insert(dir, listing);
        }
    }
    // Folders that are gone drop out too.
    changed |= !remembered.folders.is_empty();
    (look, changed.then_some(listings))
}

/// `look`, with the listings remembered in `listings_file` (see listing.rs), and those to write
/// back there if they changed. Without a file, every folder is read.
fn look_with_listings(
    sessions_dir: &str,
    layout: Layout,
    listings_file: Option<&Path>,
) -> (Look, Option<Listings>) {
    match listings_file {
        Some(file) => look(sessions_dir, layout, Listings::load(file), Some(SETTLE)),
        None => (
            look(sessions_dir, layout, Listings::default(), None).0,
            None,
        ),
    }
}

fn remember(listings: Option<Listings>, listings_file: Option<&Path>) {
    if let (Some(listings), Some(file)) = (listings, listings_file) {
        // Only a cache: without it, the next look reads every folder.
        let _ = listings.save(file);
    }
}

/// `look`, with the listings remembered in `listings_file`: read from it, and written back when
/// they changed.
pub fn look_remembering(sessions_dir: &str, layout: Layout, listings_file: Option<&Path>) -> Look {
    let (found, listings) = look_with_listings(sessions_dir, layout, listings_file);
    remember(listings, listings_file);
    found
}

/// Every session file as changed (no records to compare with), sorted by path.
pub fn every_file(sessions_dir: &str, layout: Layout) -> Scan {
    let Look { folders, failures } = look(sessions_dir, layout, Listings::default(), None).0;
    let mut files: Vec<SessionFile> = folders
        .iter()
        .flat_map(|folder| {
            folder
                .files()
                .map(|(name, (_, signature))| folder.session_file(name, signature))
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Scan {
        files_total: files.len(),
        unchanged: 0,
        changed: files,
        removed: Vec::new(),
        failures,
    }
}

struct Known {
    signature: Signature,
    address: DocAddress,
}

/// The signature of every recorded file, by path key, from the fast columns.
fn known_files(searcher: &Searcher, fields: &Fields) -> Result<ByPathKey<Known>> {
    let recorded = searcher.doc_freq(&Term::from_field_text(fields.kind, KIND_FILE))?;
    let mut known = ByPathKey::with_capacity_and_hasher(recorded as usize, Default::default());
    let columns = |segment: &SegmentReader| {
        let fast = segment.fast_fields();
        Ok((
            fast.u64("path_key")?,
            fast.u64("file_size")?,
            fast.f64("file_mtime")?,
            fast.u64("file_ino")?,
        ))
    };
    for_each_of_kind(
        searcher,
        fields,
        KIND_FILE,
        columns,
        |(keys, sizes, mtimes, inos), address| {
            let doc = address.doc_id;
            if let (Some(key), Some(size), Some(mtime_ms), Some(ino)) = (
                keys.first(doc),
                sizes.first(doc),
                mtimes.first(doc),
                inos.first(doc),
            ) {
                known.insert(
                    key,
                    Known {
                        signature: Signature {
                            size,
                            mtime_ms,
                            ino,
                        },
                        address,
                    },
                );
            }
        },
    )?;
    Ok(known)
}

/// A look at the session files running on a thread of its own, for the scan that follows to take
/// instead of looking itself: the CLI starts one before it has parsed its command line, so the
/// stats overlap the rest of its start. Its listings are written back only when a scan takes it,
/// so that a process ending before then never leaves the file half written.
pub struct EarlyLook {
    sessions_dir: String,
    layout: Layout,
    listings_file: Option<PathBuf>,
    thread: JoinHandle<(Look, Option<Listings>)>,
}

impl EarlyLook {
    /// Starts a `look_remembering`.
    pub fn start(sessions_dir: &str, layout: Layout, listings_file: Option<PathBuf>) -> EarlyLook {
        let (dir, file) = (sessions_dir.to_owned(), listings_file.clone());
        let thread = std::thread::spawn(move || look_with_listings(&dir, layout, file.as_deref()));
        EarlyLook {
            sessions_dir: sessions_dir.to_owned(),
            layout,
            listings_file,
            thread,
        }
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// What it found. A panic on its thread goes on here (see `on_two_threads`).
    fn finish(self) -> Look {
        let (found, listings) = self
            .thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        remember(listings, self.listings_file.as_deref());
        found
    }
}

/// Looks at the session files and tells which differ from their records. With `compare` off,
/// every file is reported changed (for a rebuild). The records are read while the files are
/// looked at (`look_remembering`, with `listings_file`); an early look of the same folder, if
/// given, stands for the look (one of another folder is dropped).
pub fn scan(
    searcher: &Searcher,
    fields: &Fields,
    sessions_dir: &str,
    layout: Layout,
    compare: bool,
    early: Option<EarlyLook>,
    listings_file: Option<&Path>,
) -> Result<Scan> {
    let early = early.filter(|e| e.sessions_dir == sessions_dir && e.layout == layout);
    if !compare {
        return Ok(every_file(sessions_dir, layout));
    }
    let (known, look) = std::thread::scope(|scope| {
        let known = scope.spawn(|| known_files(searcher, fields));
        let look = match early {
            Some(early) => early.finish(),
            None => look_remembering(sessions_dir, layout, listings_file),
        };
        (
            known
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            look,
        )
    });
    compare_with_records(searcher, fields, look, known?)
}

/// Whether a failure hides `path`: it could not be looked at, nor could its folder.
fn hidden_by(failures: &[ScanFailure], path: &str) -> bool {
    let parent = Path::new(path)
        .parent()
        .and_then(Path::to_str)
        .unwrap_or("");
    failures
        .iter()
        .any(|f| f.path == path || f.path.trim_end_matches('/') == parent)
}

/// Sorts the files looked at into unchanged (the signature their record has) and changed, and
/// finds the recorded files that are gone: the records no file was matched with.
fn compare_with_records(
    searcher: &Searcher,
    fields: &Fields,
    look: Look,
    mut known: ByPathKey<Known>,
) -> Result<Scan> {
    let Look { folders, failures } = look;
    let mut result = Scan {
        failures,
        ..Scan::default()
    };
    for folder in &folders {
        for (name, (key, signature)) in folder.files() {
            result.files_total += 1;
            match known.remove(key) {
                Some(k) if k.signature == *signature => result.unchanged += 1,
                _ => result.changed.push(folder.session_file(name, signature)),
            }
        }
    }
    result.changed.sort_by(|a, b| a.path.cmp(&b.path));
    for k in known.values() {
        let doc: TantivyDocument = searcher.doc(k.address)?;
        let path = doc
            .get_first(fields.path)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned();
        if !hidden_by(&result.failures, &path) {
            result.removed.push(path);
        }
    }
    result.removed.sort();
    Ok(result)
}

//! Finding the session files on disk and comparing them with the file records: the freshness
//! check every search starts with, so it costs little more than one `stat` per file (done on two
//! threads when there are many) and never reads a file.
//!
//! The rules are Pi's: in the default layout, `*.jsonl` files one folder below the sessions
//! directory (symlinked folders included); in a custom directory, `*.jsonl` files directly in it.
//! Nothing deeper: subagent artifacts nested further down are not sessions.

use std::collections::{HashMap, HashSet};
use std::fs::{self, DirEntry};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use tantivy::collector::DocSetCollector;
use tantivy::schema::document::Value;
use tantivy::{DocAddress, Searcher, TantivyDocument};

use crate::error::Result;
use crate::schema::{kind_is, path_key, Fields, KIND_FILE};

/// Below this many files one thread stats them all; above, two share the work.
const PARALLEL_FROM: usize = 256;

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

/// `f` applied to every item, on two threads once there are at least `from` items, results in
/// order. A panic on the other thread goes on here, where the task turns it into an error: a file
/// left unlooked-at must never pass for a removed one.
fn on_two_threads<T: Sync, R: Send>(items: &[T], from: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < from.max(2) {
        return items.iter().map(&f).collect();
    }
    let (first, second) = items.split_at(items.len() / 2);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| second.iter().map(&f).collect::<Vec<_>>());
        let mut results: Vec<R> = first.iter().map(&f).collect();
        results.extend(other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        results
    })
}

struct Listing {
    /// Paths of `*.jsonl` entries that are not folders, still to be looked at.
    candidates: Vec<String>,
    failures: Vec<ScanFailure>,
}

fn join(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches('/'))
}

/// A folder, or a symlink to one.
fn is_folder(entry: &DirEntry) -> bool {
    match entry.file_type() {
        Ok(t) if t.is_dir() => true,
        Ok(t) if t.is_symlink() => fs::metadata(entry.path()).map(|m| m.is_dir()).unwrap_or(false),
        _ => false,
    }
}

/// The entries of a folder, or why it could not be read. A missing sessions directory (`top`) is
/// no failure: Pi has not written a session yet.
fn entries(dir: &str, top: bool) -> (Vec<DirEntry>, Option<ScanFailure>) {
    match fs::read_dir(dir) {
        Ok(entries) => (entries.filter_map(|e| e.ok()).collect(), None),
        Err(error) if top && error.kind() == io::ErrorKind::NotFound => (Vec::new(), None),
        Err(error) => (Vec::new(), Some(ScanFailure { path: dir.to_owned(), reason: reason(&error, "scandir") })),
    }
}

/// The `*.jsonl` entries of a folder that are not folders.
fn read_folder(dir: &str, top: bool) -> Listing {
    let (entries, failure) = entries(dir, top);
    let mut listing = Listing { candidates: Vec::new(), failures: failure.into_iter().collect() };
    for entry in entries {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            if name.to_string_lossy().ends_with(".jsonl") {
                let path = join(dir, &name.to_string_lossy());
                listing.failures.push(ScanFailure { path, reason: "file name is not UTF-8".to_owned() });
            }
            continue;
        };
        if name.ends_with(".jsonl") && !is_folder(&entry) {
            listing.candidates.push(join(dir, name));
        }
    }
    listing
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

fn list(sessions_dir: &str, layout: Layout) -> Listing {
    let (folders, failure) = folders(sessions_dir, layout);
    let mut listing = Listing { candidates: Vec::new(), failures: failure.into_iter().collect() };
    for part in on_two_threads(&folders, 2, |dir| read_folder(dir, layout == Layout::Flat)) {
        listing.candidates.extend(part.candidates);
        listing.failures.extend(part.failures);
    }
    listing
}

type Looked = std::result::Result<Option<SessionFile>, ScanFailure>;

fn stat(path: &String) -> Looked {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(Some(SessionFile {
            path: path.clone(),
            size: meta.len(),
            mtime_ms: meta.mtime() as f64 * 1000.0 + meta.mtime_nsec() as f64 / 1e6,
            ino: meta.ino(),
        })),
        Ok(_) => Ok(None),
        Err(error) => Err(ScanFailure { path: path.clone(), reason: reason(&error, "stat") }),
    }
}

/// Every session file as changed (no records to compare with), sorted by path.
pub fn every_file(sessions_dir: &str, layout: Layout) -> Scan {
    look_at(list(sessions_dir, layout), &HashMap::new()).0
}

struct Known {
    size: u64,
    mtime_ms: f64,
    ino: u64,
    address: DocAddress,
}

/// The signature of every recorded file, by path key, from the fast columns.
fn known_files(searcher: &Searcher, fields: &Fields) -> Result<HashMap<u64, Known>> {
    let addresses = searcher.search(&*kind_is(fields, KIND_FILE), &DocSetCollector)?;
    let mut known = HashMap::with_capacity(addresses.len());
    let mut columns = HashMap::new();
    for address in addresses {
        let (keys, sizes, mtimes, inos) = match columns.entry(address.segment_ord) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let fast = searcher.segment_reader(address.segment_ord).fast_fields();
                e.insert((fast.u64("path_key")?, fast.u64("file_size")?, fast.f64("file_mtime")?, fast.u64("file_ino")?))
            }
        };
        let doc = address.doc_id;
        if let (Some(key), Some(size), Some(mtime_ms), Some(ino)) = (keys.first(doc), sizes.first(doc), mtimes.first(doc), inos.first(doc)) {
            known.insert(key, Known { size, mtime_ms, ino, address });
        }
    }
    Ok(known)
}

/// Stats the listed files (on two threads once there are many) and sorts them into unchanged (the
/// signature `known` has for them) and changed, by path; with the path keys of the files seen.
fn look_at(listing: Listing, known: &HashMap<u64, Known>) -> (Scan, HashSet<u64>) {
    let Listing { candidates, mut failures } = listing;
    let looked = on_two_threads(&candidates, PARALLEL_FROM, |path| {
        stat(path).map(|found| {
            found.map(|file| {
                let key = path_key(&file.path);
                let same = known.get(&key).is_some_and(|k| k.size == file.size && k.mtime_ms == file.mtime_ms && k.ino == file.ino);
                (key, same, file)
            })
        })
    });
    let mut result = Scan::default();
    let mut seen = HashSet::with_capacity(looked.len());
    for file in looked {
        match file {
            Ok(Some((key, same, file))) => {
                seen.insert(key);
                result.files_total += 1;
                if same {
                    result.unchanged += 1;
                } else {
                    result.changed.push(file);
                }
            }
            Ok(None) => {}
            Err(failure) => failures.push(failure),
        }
    }
    result.changed.sort_by(|a, b| a.path.cmp(&b.path));
    result.failures = failures;
    (result, seen)
}

/// Whether a failure hides `path`: it could not be looked at, nor could its folder.
fn hidden_by(failures: &[ScanFailure], path: &str) -> bool {
    let parent = Path::new(path).parent().and_then(Path::to_str).unwrap_or("");
    failures.iter().any(|f| f.path == path || f.path.trim_end_matches('/') == parent)
}

/// Looks at the session files and tells which differ from their records. With `compare` off,
/// every file is reported changed (for a rebuild). The records are read while the folders are
/// listed, and each file is compared on the thread that looked at it.
pub fn scan(searcher: &Searcher, fields: &Fields, sessions_dir: &str, layout: Layout, compare: bool) -> Result<Scan> {
    if !compare {
        return Ok(every_file(sessions_dir, layout));
    }
    let (known, listing) = std::thread::scope(|scope| {
        let known = scope.spawn(|| known_files(searcher, fields));
        let listing = list(sessions_dir, layout);
        (known.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), listing)
    });
    let known = known?;
    let (mut result, seen) = look_at(listing, &known);
    for (key, k) in &known {
        if seen.contains(key) {
            continue;
        }
        let doc: TantivyDocument = searcher.doc(k.address)?;
        let path = doc.get_first(fields.path).and_then(|v| v.as_str()).unwrap_or_default().to_owned();
        if !hidden_by(&result.failures, &path) {
            result.removed.push(path);
        }
    }
    result.removed.sort();
    Ok(result)
}

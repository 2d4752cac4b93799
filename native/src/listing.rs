//! Remembered folder listings, so that the freshness check need not read every project folder
//! again: only `stat` each session file in it. A folder's entries cannot change without its
//! change time (ctime) changing, and nothing can set a ctime back, so a listing is used again
//! while the folder's device, inode and ctime are the ones it was taken with.
//!
//! A listing taken within `SETTLE` of the folder's last change is not remembered: a file created
//! right after the folder was read could carry the same coarse timestamp and go unseen (git's
//! "racily clean" entries). A missing, unreadable or garbled file only means every folder is read.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::identity::Identity;

const HEADER: &str = "recall folder listings 1";

/// How long after its last change a folder's listing may be remembered: longer than the coarsest
/// timestamps a folder may have (FAT's 2 s), so that a later change always gets a later one.
pub const SETTLE: Duration = Duration::from_secs(3);

/// Which folder it is, and when its entries last changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FolderState {
    identity: Identity,
    ctime_sec: i64,
    ctime_nsec: i64,
}

impl FolderState {
    pub fn of(folder: &File) -> io::Result<FolderState> {
        let meta = folder.metadata()?;
        Ok(FolderState { identity: Identity::of(&meta), ctime_sec: meta.ctime(), ctime_nsec: meta.ctime_nsec() })
    }

    /// Whether the folder last changed at least `settle` before `now`.
    pub fn settled(&self, now: SystemTime, settle: Duration) -> bool {
        let Ok(since_epoch) = u64::try_from(self.ctime_sec) else { return false };
        let changed = UNIX_EPOCH + Duration::new(since_epoch, self.ctime_nsec.clamp(0, 999_999_999) as u32);
        now.duration_since(changed).is_ok_and(|age| age >= settle)
    }
}

/// File names, each followed by a NUL (the one byte no file name holds): a folder of thousands
/// of names is one allocation, not one per name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    text: String,
    count: usize,
}

impl Names {
    pub fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.text.push('\0');
        self.count += 1;
    }

    pub(crate) fn len(&self) -> usize {
        self.count
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.text.split_terminator('\0')
    }
}

/// The `*.jsonl` names a folder held in a state. The names are shared with the look that used
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub state: FolderState,
    pub names: Arc<Names>,
}

/// Listings by folder path.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Listings {
    pub folders: HashMap<String, Listing>,
}

impl Listings {
    /// The listings in `file`; none when it is missing or not one of ours.
    pub fn load(file: &Path) -> Listings {
        fs::read_to_string(file).ok().and_then(|text| parse(&text)).unwrap_or_default()
    }

    /// Writes the listings to `file` whole (a temporary file renamed over it), so that a reader
    /// never sees half of it and two writers never mix theirs.
    pub fn save(&self, file: &Path) -> io::Result<()> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let mut text = format!("{HEADER}\n");
        for (folder, Listing { state, names }) in &self.folders {
            let FolderState { identity: Identity { dev, ino }, ctime_sec, ctime_nsec } = state;
            text.push_str(&format!("{dev} {ino} {ctime_sec} {ctime_nsec} {} {folder}\n", names.len()));
            text.push_str(&names.text.replace('\0', "\n"));
        }
        let temporary = file.with_extension(format!("{}-{}.tmp", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
        fs::write(&temporary, text)?;
        fs::rename(&temporary, file).inspect_err(|_| {
            let _ = fs::remove_file(&temporary);
        })
    }
}

/// Whether a folder path or file name can be written one to a line.
pub fn fits_a_line(text: &str) -> bool {
    !text.contains('\n')
}

/// The line `text` starts with, and what follows it.
fn first_line(text: &str) -> Option<(&str, &str)> {
    text.split_once('\n')
}

fn parse(text: &str) -> Option<Listings> {
    let (header, mut rest) = first_line(text)?;
    if header != HEADER {
        return None;
    }
    let mut listings = Listings::default();
    while !rest.is_empty() {
        let (line, after) = first_line(rest)?;
        let mut fields = line.splitn(6, ' ');
        let mut field = || fields.next();
        let state = FolderState {
            identity: Identity { dev: field()?.parse().ok()?, ino: field()?.parse().ok()? },
            ctime_sec: field()?.parse().ok()?,
            ctime_nsec: field()?.parse().ok()?,
        };
        let count: usize = field()?.parse().ok()?;
        let folder = field()?.to_owned();
        // The next `count` lines are the folder's names.
        let names_start = after;
        rest = after;
        for _ in 0..count {
            let (name, next) = first_line(rest)?;
            // A name is looked at relative to its folder: one that leads elsewhere is no name of ours.
            if name.is_empty() || name.contains('/') {
                return None;
            }
            rest = next;
        }
        let text = names_start[..names_start.len() - rest.len()].replace('\n', "\0");
        listings.folders.insert(folder, Listing { state, names: Arc::new(Names { text, count }) });
    }
    Some(listings)
}

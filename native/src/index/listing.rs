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
use std::ops::Range;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::fs::identity::Identity;

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
        Ok(FolderState {
            identity: Identity::of(&meta),
            ctime_sec: meta.ctime(),
            ctime_nsec: meta.ctime_nsec(),
        })
    }

    /// Whether the folder last changed at least `settle` before `now`.
    pub fn settled(&self, now: SystemTime, settle: Duration) -> bool {
        let Ok(since_epoch) = u64::try_from(self.ctime_sec) else {
            return false;
        };
        let changed =
            UNIX_EPOCH + Duration::new(since_epoch, self.ctime_nsec.clamp(0, 999_999_999) as u32);
        now.duration_since(changed).is_ok_and(|age| age >= settle)
    }
}

/// File names, each followed by a NUL (the one byte no file name holds): a folder of thousands
/// of names is one slice of a text, not a string per name. The listings loaded from a file all
/// share its text, and a look shares the names it used with their listing.
#[derive(Debug, Clone, Default)]
pub struct Names {
    text: Arc<String>,
    span: Range<usize>,
    count: usize,
}

impl Names {
    fn as_str(&self) -> &str {
        &self.text[self.span.clone()]
    }

    /// Adds a name, after copying the names to a text of their own if they share one.
    pub fn push(&mut self, name: &str) {
        if self.span != (0..self.text.len()) || Arc::get_mut(&mut self.text).is_none() {
            self.text = Arc::new(self.as_str().to_owned());
        }
        let text = Arc::make_mut(&mut self.text);
        text.push_str(name);
        text.push('\0');
        self.span = 0..text.len();
        self.count += 1;
    }

    pub(crate) fn len(&self) -> usize {
        self.count
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.as_str().split_terminator('\0')
    }
}

impl PartialEq for Names {
    fn eq(&self, other: &Names) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Names {}

/// The `*.jsonl` names a folder held in a state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub state: FolderState,
    pub names: Names,
}

/// Listings by folder path.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Listings {
    pub folders: HashMap<String, Listing>,
}

impl Listings {
    /// The listings in `file`; none when it is missing or not one of ours.
    pub fn load(file: &Path) -> Listings {
        fs::read(file).ok().and_then(parse).unwrap_or_default()
    }

    /// Writes the listings to `file` whole (a temporary file renamed over it), so that a reader
    /// never sees half of it and two writers never mix theirs.
    pub fn save(&self, file: &Path) -> io::Result<()> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let mut text = format!("{HEADER}\n");
        for (folder, Listing { state, names }) in &self.folders {
            let FolderState {
                identity: Identity { dev, ino },
                ctime_sec,
                ctime_nsec,
            } = state;
            text.push_str(&format!(
                "{dev} {ino} {ctime_sec} {ctime_nsec} {} {folder}\n",
                names.len()
            ));
            text.push_str(&names.as_str().replace('\0', "\n"));
        }
        let temporary = file.with_extension(format!(
            "{}-{}.tmp",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
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

fn parse(mut bytes: Vec<u8>) -> Option<Listings> {
    // Every line ends in a NUL from here on, as each name does in `Names`: the names of a folder
    // are then a slice of this one text.
    for byte in &mut bytes {
        *byte = if *byte == b'\n' { 0 } else { *byte }; // a store either way, which vectorizes
    }
    let text = Arc::new(String::from_utf8(bytes).ok()?);
    // The line at `at`, and where the next one starts.
    let line_at = |at: usize| {
        text[at..]
            .find('\0')
            .map(|length| (&text[at..at + length], at + length + 1))
    };
    let (header, mut at) = line_at(0)?;
    if header != HEADER {
        return None;
    }
    let mut listings = Listings::default();
    while at < text.len() {
        let (line, names_at) = line_at(at)?;
        let mut fields = line.splitn(6, ' ');
        let mut field = || fields.next();
        let state = FolderState {
            identity: Identity {
                dev: field()?.parse().ok()?,
                ino: field()?.parse().ok()?,
            },
            ctime_sec: field()?.parse().ok()?,
            ctime_nsec: field()?.parse().ok()?,
        };
        let count: usize = field()?.parse().ok()?;
        let folder = field()?.to_owned();
        // The next `count` lines are the folder's names.
        at = names_at;
        for _ in 0..count {
            let (name, next) = line_at(at)?;
            // A name is looked at relative to its folder: one that leads elsewhere is no name of ours.
            if name.is_empty() || name.contains('/') {
                return None;
            }
            at = next;
        }
        let names = Names {
            text: Arc::clone(&text),
            span: names_at..at,
            count,
        };
        listings.folders.insert(folder, Listing { state, names });
    }
    Some(listings)
}

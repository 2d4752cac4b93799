//! The meaning store: the vector of each unit's text (unit.rs), by the text's key, in one
//! append-only file of the cache folder (`<cache>/meaning/vectors`).
//!
//! A vector is kept as 384 signed bytes and one scale (int8: a quarter of the floats' size, and
//! cosines within about 0.01 of the floats' on this model). The file is a header (magic, width,
//! the model's identity) and records of a fixed size, each with its checksum; a record cut short
//! or failing its checksum ends the file as read (a write killed half-way), and the writer drops it
//! before it appends, so a resumed embedding neither loses a whole record nor embeds one twice.
//! A store of another model (identity) or width is read as empty and written anew.
//!
//! The records a store finds in the file when it first reads it are read in place, from the file
//! mapped read-only once their checksums held (a cold search then copies none of the file's 26 MB
//! at 65 k vectors); those appended later are copied into chunks. Slot s is the file's record s.
//! The map covers only records found whole: a writer cuts the file short only after its last whole
//! record (a torn write), and a compaction writes another file.
//!
//! A `Store` is a snapshot: cloning it is cheap (its vectors are the shared map and shared chunks
//! of `CHUNK`, and what a clone adds is copied on write), so a search reads a snapshot nothing
//! changes under it while `refresh` (on the thread pool) reads what was appended since into
//! another, which then replaces it for later searches. `limited` shows only the first vectors of a
//! snapshot, as a cursor's later page saw them on its first.
//!
//! Readers write no vector, only a note of the records they found whole (`CHECKED_FILE`), which a
//! later process takes in place without checking them again while the file is the same one
//! (records are only appended; a compaction writes another file, which is checked whole); a note
//! that cannot be written is only not kept. One writer at a time holds `writer.lock`
//! (`StoreWriter`), with its process id as its text. `compact` writes the vectors still referenced
//! to a new file and renames it over the old one; readers see another file and read it whole.
//! What is in the way of the store is recall's own cache: a file where the folder should be, a
//! folder where the file or the lock should be, is removed by the writer (a reader reads it as an
//! empty store).

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Code, RecallError, Result};
use crate::fs::identity::Identity;
use crate::fs::lock_file::HeldLock;
use crate::meaning::product::QueryCodes;
use crate::meaning::DIMENSIONS;
use crate::path_key::{path_key, path_key_after, ByPathKey, PathKeys, FNV_PRIME};

use memmap2::Mmap;

pub const STORE_FILE: &str = "vectors";
pub const LOCK_FILE: &str = "writer.lock";
/// Which records of `STORE_FILE` a process last found whole (`Checked`): a later process takes
/// those in place without checking them again.
const CHECKED_FILE: &str = "vectors.checked";
const MAGIC: &[u8; 8] = b"RCLMEAN1";
const HEADER: usize = MAGIC.len() + 4 + 8;
/// Key, scale, codes, checksum.
const RECORD: usize = 8 + 4 + DIMENSIONS + 4;
/// Vectors a chunk holds (1.6 MB of codes): the most an append copies when a snapshot shares
/// the last chunk.
const CHUNK: usize = 4096;
/// Records a refresh reads at a time (1.6 MB).
const PIECE_RECORDS: usize = 4096;

#[derive(Clone)]
pub struct Store {
    dir: PathBuf,
    identity: u64,
    /// The file's first records, read in place: slots 0 to its count.
    mapped: Option<Arc<Mapped>>,
    /// The records after those mapped: every chunk holds CHUNK vectors but the last, so slot s is
    /// in chunk (s − mapped) / CHUNK.
    chunks: Vec<Arc<Chunk>>,
    slots: Arc<ByPathKey<u32>>,
    /// Vectors held.
    held: usize,
    /// Vectors shown (`limited`): the first `shown` of those held.
    shown: usize,
    /// Bytes of the file read and found whole (0: no usable file yet).
    whole: u64,
    /// Which file was read (device, inode), to see a compaction replace it.
    file: Option<(u64, u64)>,
}

/// The file mapped, and how many of its records (from HEADER) were found whole.
struct Mapped {
    map: Mmap,
    records: usize,
}

impl Mapped {
    fn record(&self, slot: usize) -> &[u8] {
        &self.map[HEADER + slot * RECORD..HEADER + (slot + 1) * RECORD]
    }
}

/// The records of the store's file a process found whole: the file (device and inode), how many
/// from the first, and the checksums of the first and the last of them, as `CHECKED_FILE` holds
/// them (one line of numbers).
struct Checked {
    device: u64,
    inode: u64,
    records: usize,
    first: u32,
    last: u32,
}

impl Checked {
    fn parse(text: &str) -> Option<Checked> {
        let numbers: Vec<u64> = text
            .split_ascii_whitespace()
            .map(|n| n.parse().ok())
            .collect::<Option<_>>()?;
        let [device, inode, records, first, last] = numbers[..] else {
            return None;
        };
        Some(Checked {
            device,
            inode,
            records: usize::try_from(records).ok()?,
            first: u32::try_from(first).ok()?,
            last: u32::try_from(last).ok()?,
        })
    }

    fn text(&self) -> String {
        let Checked {
            device,
            inode,
            records,
            first,
            last,
        } = self;
        format!("{device} {inode} {records} {first} {last}\n")
    }
}

/// A record's key, scale and codes.
fn parts(record: &[u8]) -> (u64, f32, &[i8]) {
    let key = u64::from_le_bytes(record[..8].try_into().unwrap_or_default());
    let scale = f32::from_le_bytes(record[8..12].try_into().unwrap_or_default());
    let codes = &record[12..12 + DIMENSIONS];
    // SAFETY: i8 and u8 have the same size and alignment, and every bit pattern is an i8.
    let codes = unsafe { std::slice::from_raw_parts(codes.as_ptr().cast::<i8>(), codes.len()) };
    (key, scale, codes)
}

#[derive(Clone, Default)]
struct Chunk {
    keys: Vec<u64>,
    scales: Vec<f32>,
    codes: Vec<i8>,
}

/// Which vectors a store holds: the file read, and how many of its vectors. A slot found in one
/// generation holds in the next only while the file is the same (records are only appended to it).
pub type Generation = (Option<(u64, u64)>, usize);

/// The writer's hold on the store: its lock, and the file it appends to.
pub struct StoreWriter {
    lock: HeldLock,
    file: File,
}

fn io(path: &Path, error: std::io::Error) -> RecallError {
    RecallError::new(Code::Io, format!("{}: {error}", path.display()))
}

/// An error that says nothing usable is at `path` yet: not there, or under a file, not a folder.
fn nothing_there(error: &std::io::Error) -> bool {
    matches!(error.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}

impl Store {
    /// The store in `dir` for the model named `identity`, as far as it is whole; empty when there
    /// is none yet, or it holds another model's vectors. Creates nothing.
    pub fn open(dir: &Path, identity: &str) -> Result<Store> {
        let mut store = Store {
            dir: dir.to_path_buf(),
            identity: path_key(identity),
            mapped: None,
            chunks: Vec::new(),
            slots: Arc::default(),
            held: 0,
            shown: 0,
            whole: 0,
            file: None,
        };
        store.refresh()?;
        Ok(store)
    }

    fn path(&self) -> PathBuf {
        self.dir.join(STORE_FILE)
    }

    /// The store's folder: notes derived from it are kept there (search/kept_lengths.rs).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Reads the records appended since the last look; the whole file again if it was replaced.
    /// A folder in place of the file, or a file in place of the folder, reads as an empty store.
    pub fn refresh(&mut self) -> Result<()> {
        let path = self.path();
        let mut file = match File::open(&path) {
            Ok(file) => file,
            Err(error) if nothing_there(&error) => {
                self.clear();
                return Ok(());
            }
            Err(error) => return Err(io(&path, error)),
        };
        let meta = file.metadata().map_err(|e| io(&path, e))?;
        if !meta.is_file() {
            self.clear();
            return Ok(());
        }
        let id = Some((meta.dev(), meta.ino()));
        if id != self.file || meta.len() < self.whole {
            self.clear();
            self.file = id;
        }
        let first_read = self.whole == 0;
        if first_read {
            let mut header = [0u8; HEADER];
            if meta.len() < HEADER as u64
                || file.read_exact(&mut header).is_err()
                || header != self.header()
            {
                return Ok(());
            }
            self.whole = HEADER as u64;
            self.take_checked(&file, &meta)?;
        }
        let checked_before = self.whole;
        file.seek(SeekFrom::Start(self.whole))
            .map_err(|e| io(&path, e))?;
        let appended = meta.len() - self.whole;
        let records = usize::try_from(appended).unwrap_or(usize::MAX) / RECORD;
        if records > 0 {
            Arc::make_mut(&mut self.slots).reserve(records);
        }
        // Checked a piece at a time through one buffer, each piece whole records, up to the torn
        // end of a killed write. On the first read of the file, its records are then read in place.
        let in_place = self.held == 0;
        let mut reader = (&file).take(appended);
        let mut piece = vec![0u8; PIECE_RECORDS.min(records) * RECORD];
        while !piece.is_empty() {
            let filled = fill(&mut reader, &mut piece).map_err(|e| io(&path, e))?;
            if !self.take_all(&piece[..filled - filled % RECORD], in_place) || filled < piece.len()
            {
                break;
            }
        }
        if in_place && self.held > 0 {
            // SAFETY: recall's own cache file, only appended to, cut short after its last whole
            // record, or replaced by rename; only the records found whole above are read.
            let map = unsafe { Mmap::map(&file) }.map_err(|e| io(&path, e))?;
            self.mapped = Some(Arc::new(Mapped {
                map,
                records: self.held,
            }));
        }
        if first_read && self.whole > checked_before {
            self.keep_checked(&meta);
        }
        Ok(())
    }

    /// On a first read of the file, takes in place the records that the last process to check
    /// them found whole (`CHECKED_FILE`), without checking them again: the file is the one it
    /// checked (device, inode, its first and last checked record's checksums) and holds them
    /// still. Records are only appended to a file; a compaction writes another.
    fn take_checked(&mut self, file: &File, meta: &std::fs::Metadata) -> Result<()> {
        let Some(checked) = std::fs::read_to_string(self.dir.join(CHECKED_FILE))
            .ok()
            .and_then(|text| Checked::parse(&text))
        else {
            return Ok(());
        };
        let records = checked.records;
        let Some(end) = records
            .checked_mul(RECORD)
            .and_then(|bytes| bytes.checked_add(HEADER))
        else {
            return Ok(());
        };
        if records == 0
            || (checked.device, checked.inode) != (meta.dev(), meta.ino())
            || meta.len() < end as u64
        {
            return Ok(());
        }
        // SAFETY: as in `refresh`; the map is read only up to `end`, which the file holds, and
        // a writer cuts a file only after its last whole record.
        let map = unsafe { Mmap::map(file) }.map_err(|e| io(&self.path(), e))?;
        let mapped = Mapped { map, records };
        let sum = |slot: usize| {
            u32::from_le_bytes(
                mapped.record(slot)[RECORD - 4..]
                    .try_into()
                    .unwrap_or_default(),
            )
        };
        if mapped.map.len() < end || sum(0) != checked.first || sum(records - 1) != checked.last {
            return Ok(());
        }
        Arc::make_mut(&mut self.slots).reserve(records);
        for slot in 0..records {
            let (key, _, _) = parts(mapped.record(slot));
            self.push(key, None);
        }
        self.whole = end as u64;
        self.mapped = Some(Arc::new(mapped));
        Ok(())
    }

    /// Notes the records this process checked for the next to take in place (`take_checked`);
    /// a cache that cannot be written is only not kept (the file is checked again next time).
    fn keep_checked(&self, meta: &std::fs::Metadata) {
        let records = usize::try_from((self.whole - HEADER as u64) / RECORD as u64).unwrap_or(0);
        if records == 0 {
            return;
        }
        let checked = Checked {
            device: meta.dev(),
            inode: meta.ino(),
            records,
            first: self.record_checksum(0),
            last: self.record_checksum(records as u32 - 1),
        };
        let path = self.dir.join(CHECKED_FILE);
        let fresh = self
            .dir
            .join(format!("{CHECKED_FILE}.{}", std::process::id()));
        if std::fs::write(&fresh, checked.text())
            .and_then(|()| std::fs::rename(&fresh, &path))
            .is_err()
        {
            let _ = std::fs::remove_file(&fresh);
        }
    }

    /// Adds the records of `records` (whole ones, one after another) up to the first that is
    /// not whole; false if one was not. `in_place`: their vectors are to be read from the file.
    fn take_all(&mut self, records: &[u8], in_place: bool) -> bool {
        for (record, sum) in records.chunks_exact(RECORD).zip(record_checksums(records)) {
            if sum.to_le_bytes() != record[RECORD - 4..] {
                return false;
            }
            let (key, scale, codes) = parts(record);
            self.push(key, (!in_place).then_some((scale, codes)));
            self.whole += RECORD as u64;
        }
        true
    }

    fn clear(&mut self) {
        self.mapped = None;
        self.chunks.clear();
        self.slots = Arc::default();
        self.held = 0;
        self.shown = 0;
        self.whole = 0;
        self.file = None;
    }

    fn header(&self) -> [u8; HEADER] {
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&(DIMENSIONS as u32).to_le_bytes());
        header[12..].copy_from_slice(&self.identity.to_le_bytes());
        header
    }

    /// Gives `key` the next slot, its vector (scale and codes) copied into the chunks, or, without
    /// one, read in place from the file's record. A key appended twice (two writers one after the
    /// other on the same text) keeps its first slot; the second record's slot is nobody's.
    fn push(&mut self, key: u64, vector: Option<(f32, &[i8])>) {
        let slot = self.held as u32;
        if !self.slots.contains_key(&key) {
            Arc::make_mut(&mut self.slots).insert(key, slot);
        }
        if let Some((scale, codes)) = vector {
            if (self.held - self.mapped_records()).is_multiple_of(CHUNK) {
                self.chunks.push(Arc::new(Chunk {
                    keys: Vec::with_capacity(CHUNK),
                    scales: Vec::with_capacity(CHUNK),
                    codes: Vec::with_capacity(CHUNK * DIMENSIONS),
                }));
            }
            let chunk = Arc::make_mut(self.chunks.last_mut().expect("a chunk was pushed"));
            chunk.keys.push(key);
            chunk.scales.push(scale);
            chunk.codes.extend_from_slice(codes);
        }
        self.held += 1;
        self.shown = self.held;
    }

    /// Records read in place.
    fn mapped_records(&self) -> usize {
        self.mapped.as_ref().map_or(0, |mapped| mapped.records)
    }

    /// This snapshot showing only its first `vectors` (all it holds if fewer): what a search saw
    /// when the store held that many, while the file is the same one.
    pub fn limited(&self, vectors: usize) -> Store {
        let mut limited = self.clone();
        limited.shown = vectors.min(self.held);
        limited
    }

    /// Vectors shown.
    pub fn len(&self) -> usize {
        self.shown
    }

    pub fn is_empty(&self) -> bool {
        self.shown == 0
    }

    /// What the store shows now, to tell whether slots looked up before still hold.
    pub fn generation(&self) -> Generation {
        (self.file, self.shown)
    }

    /// Where the vector of a unit's key is, if the store shows it.
    pub fn slot(&self, key: u64) -> Option<u32> {
        self.slots
            .get(&key)
            .copied()
            .filter(|&slot| (slot as usize) < self.shown)
    }

    /// The vector of `slot` as the store keeps it: its scale and codes.
    pub fn vector(&self, slot: u32) -> (f32, &[i8]) {
        let slot = slot as usize;
        if let Some(mapped) = self.mapped.as_ref().filter(|mapped| slot < mapped.records) {
            let (_, scale, codes) = parts(mapped.record(slot));
            return (scale, codes);
        }
        let after = slot - self.mapped_records();
        let (chunk, at) = (after / CHUNK, after % CHUNK);
        let chunk = &self.chunks[chunk];
        (
            chunk.scales[at],
            &chunk.codes[at * DIMENSIONS..(at + 1) * DIMENSIONS],
        )
    }

    /// Asks the processor to bring the vector of `slot` into its caches for a product soon
    /// after: the vectors of a few sessions lie scattered over the file, and a product with one
    /// the caches lack waits on memory longer than it multiplies.
    pub fn prefetch(&self, slot: u32) {
        let slot = slot as usize;
        let (start, length) = match self.mapped.as_ref().filter(|mapped| slot < mapped.records) {
            Some(mapped) => (mapped.record(slot).as_ptr().cast::<i8>(), RECORD),
            None => {
                let after = slot - self.mapped_records();
                let codes = &self.chunks[after / CHUNK].codes[after % CHUNK * DIMENSIONS..];
                (codes.as_ptr(), DIMENSIONS)
            }
        };
        #[cfg(target_arch = "x86_64")]
        for line in (0..length).step_by(64) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch reads nothing into the program and never faults; the address
            // lies in the vector's bytes anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(line)) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (start, length);
    }

    /// The checksum of the record of `slot` as the file holds it (records are written by `encode`).
    fn record_checksum(&self, slot: u32) -> u32 {
        let key = match self
            .mapped
            .as_ref()
            .filter(|mapped| (slot as usize) < mapped.records)
        {
            Some(mapped) => parts(mapped.record(slot as usize)).0,
            None => {
                let after = slot as usize - self.mapped_records();
                self.chunks[after / CHUNK].keys[after % CHUNK]
            }
        };
        let (scale, codes) = self.vector(slot);
        let mut record = Vec::with_capacity(RECORD);
        encode(&mut record, key, scale, codes);
        u32::from_le_bytes(record[RECORD - 4..].try_into().unwrap_or_default())
    }

    /// Each vector shown, by slot: its key, scale and codes.
    fn vectors(&self) -> impl Iterator<Item = (u64, f32, &[i8])> + '_ {
        let mapped = self
            .mapped
            .iter()
            .flat_map(|mapped| (0..mapped.records).map(|slot| parts(mapped.record(slot))));
        let chunks = self.chunks.iter().flat_map(|chunk| {
            chunk
                .keys
                .iter()
                .zip(&chunk.scales)
                .zip(chunk.codes.chunks_exact(DIMENSIONS))
                .map(|((&key, &scale), codes)| (key, scale, codes))
        });
        mapped.chain(chunks).take(self.shown)
    }

    /// The slot and key of every vector shown that its key's slot holds (not a key's second record).
    fn keys(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.vectors()
            .enumerate()
            .map(|(slot, (key, _, _))| (slot as u32, key))
            .filter(|&(slot, key)| self.slots.get(&key) == Some(&slot))
    }

    /// The cosine of `query` (length 1) with every vector shown, by slot.
    pub fn scores(&self, query: &[f32]) -> Vec<f32> {
        let (query_scale, query_codes) = query_codes(query);
        let score = |codes: &[i8], scale: f32| query_codes.dot(codes) as f32 * query_scale * scale;
        let mut scores = Vec::with_capacity(self.shown);
        // In two tight loops, over the mapped records and over the chunks, not through `vectors`
        // (whose steps took twice the time of the products over 65 k vectors).
        if let Some(mapped) = &self.mapped {
            let records = &mapped.map[HEADER..HEADER + mapped.records * RECORD];
            let fill = |records: &[u8], scores: &mut [f32]| {
                for (out, record) in scores.iter_mut().zip(records.chunks_exact(RECORD)) {
                    let (_, scale, codes) = parts(record);
                    *out = score(codes, scale);
                }
            };
            scores.resize(mapped.records, 0.0);
            if mapped.records >= HALVED_FROM && rayon::current_num_threads() > 1 {
                // Half the records on a second core: the same products, each in its place.
                let middle = mapped.records / 2;
                let (first, second) = scores.split_at_mut(middle);
                let (first_records, second_records) = records.split_at(middle * RECORD);
                rayon::join(
                    || fill(first_records, first),
                    || fill(second_records, second),
                );
            } else {
                fill(records, &mut scores);
            }
        }
        for chunk in &self.chunks {
            scores.extend(
                chunk
                    .codes
                    .chunks_exact(DIMENSIONS)
                    .zip(&chunk.scales)
                    .map(|(codes, &scale)| score(codes, scale)),
            );
        }
        scores.truncate(self.shown);
        scores
    }

    /// The cosine of `query` (length 1) with a vector at a time (`Scorer`).
    pub fn scorer(&self, query: &[f32]) -> Scorer<'_> {
        let (query_scale, query_codes) = query_codes(query);
        Scorer {
            store: self,
            query_scale,
            query_codes,
        }
    }

    /// The length of the vector of `slot` as its codes hold it.
    pub fn length(&self, slot: u32) -> f32 {
        let (scale, codes) = self.vector(slot);
        length(codes.iter().map(|&c| i64::from(c)), scale)
    }

    /// Adds the vector of `slot` (its codes times its scale) to `sum`, DIMENSIONS floats: with
    /// AVX-512 or AVX2 where the processor has it (four or two times the lanes; the same
    /// operations, the same sums).
    pub fn add_to(&self, slot: u32, sum: &mut [f32]) {
        let (scale, codes) = self.vector(slot);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the processor has AVX-512 F, checked above.
            return unsafe { add_scaled_avx512(codes, scale, sum) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked above.
            return unsafe { add_scaled_avx2(codes, scale, sum) };
        }
        add_scaled(codes, scale, sum);
    }

    /// Takes the writer's lock (RECALL_LOCKED, naming the process that holds it, when another
    /// does) and makes the file ready to append to: created with its header, or cut after its last
    /// whole record. A file where the store's folder should be, or a folder where its file or lock
    /// should be, is removed first.
    pub fn writer(&mut self) -> Result<StoreWriter> {
        if std::fs::metadata(&self.dir).is_ok_and(|meta| !meta.is_dir()) {
            std::fs::remove_file(&self.dir).map_err(|e| io(&self.dir, e))?;
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| io(&self.dir, e))?;
        let lock_path = self.dir.join(LOCK_FILE);
        remove_folder(&lock_path)?;
        let lock = HeldLock::hold(&lock_path).map_err(|e| io(&lock_path, e))?;
        let Some(mut lock) = lock else {
            let holder = crate::fs::lock_file::text_if_held(&lock_path)
                .ok()
                .flatten()
                .and_then(|text| text.trim().strip_prefix("pid ").map(str::to_string))
                .map_or_else(
                    || "another process".to_string(),
                    |pid| format!("process {pid}"),
                );
            return Err(RecallError::new(
                Code::Locked,
                format!("the meaning index is being built by {holder}"),
            ));
        };
        lock.set_text(&format!("pid {}", std::process::id()))
            .map_err(|e| io(&lock_path, e))?;
        let path = self.path();
        remove_folder(&path)?;
        self.refresh()?;
        if self.whole == 0 {
            self.start_file(&path)?;
        }
        let file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| io(&path, e))?;
        file.set_len(self.whole).map_err(|e| io(&path, e))?;
        Ok(StoreWriter { lock, file })
    }

    /// A new file holding only the header, in place of any other.
    fn start_file(&mut self, path: &Path) -> Result<()> {
        self.write_file(path, &[])
    }

    /// Writes the header and `records` to a new file, then renames it to `path`.
    fn write_file(&mut self, path: &Path, records: &[u8]) -> Result<()> {
        let fresh = self.dir.join(format!("{STORE_FILE}.new"));
        remove_folder(&fresh)?;
        let mut file = File::create(&fresh).map_err(|e| io(&fresh, e))?;
        file.write_all(&self.header())
            .and_then(|()| file.write_all(records))
            .and_then(|()| file.sync_all())
            .map_err(|e| io(&fresh, e))?;
        // What was checked of the file replaced says nothing of this one.
        let _ = std::fs::remove_file(self.dir.join(CHECKED_FILE));
        std::fs::rename(&fresh, path).map_err(|e| io(path, e))?;
        self.clear();
        self.refresh()
    }

    /// Appends the vectors of units (key, 384 floats each), and syncs them to disk. Refused when
    /// the store's folder was deleted since the writer took it (the cache folder removed by hand):
    /// what it appended would go nowhere.
    pub fn append(&mut self, writer: &mut StoreWriter, vectors: &[(u64, Vec<f32>)]) -> Result<()> {
        let path = self.path();
        writer.check_in_place(&path)?;
        let mut bytes = Vec::with_capacity(vectors.len() * RECORD);
        for (key, vector) in vectors {
            let (scale, codes) = quantize(vector);
            encode(&mut bytes, *key, scale, &codes);
        }
        writer
            .file
            .seek(SeekFrom::Start(self.whole))
            .and_then(|_| writer.file.write_all(&bytes))
            .and_then(|()| writer.file.sync_data())
            .map_err(|e| io(&path, e))?;
        self.refresh()
    }

    /// Keeps only the vectors of `live` keys: a new file, renamed over the old one.
    pub fn compact(&mut self, writer: &mut StoreWriter, live: &PathKeys) -> Result<()> {
        let path = self.path();
        writer.check_in_place(&path)?;
        let mut bytes = Vec::new();
        for (slot, key) in self.keys().filter(|(_, key)| live.contains(key)) {
            let (scale, codes) = self.vector(slot);
            encode(&mut bytes, key, scale, codes);
        }
        self.write_file(&path, &bytes)?;
        writer.file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| io(&path, e))?;
        Ok(())
    }

    /// Keys held that are not in `live`.
    pub fn unreferenced(&self, live: &PathKeys) -> usize {
        self.keys().filter(|(_, key)| !live.contains(key)).count()
    }
}

impl StoreWriter {
    /// Whether the lock and the file are still the ones their paths name.
    fn check_in_place(&self, path: &Path) -> Result<()> {
        let file_in_place = self
            .file
            .metadata()
            .is_ok_and(|meta| Identity::of(&meta).named_by(path));
        if self.lock.is_in_place() && file_in_place {
            return Ok(());
        }
        let folder = path.parent().unwrap_or(path);
        Err(RecallError::new(
            Code::Io,
            format!(
                "{} was deleted while the meaning index was being built; it stopped",
                folder.display()
            ),
        ))
    }
}

/// Reads from `reader` until `buffer` is full or the reader ends: the bytes read.
fn fill(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// Removes a folder at `path` (recall's own cache, where a file belongs); nothing else.
fn remove_folder(path: &Path) -> Result<()> {
    if std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir()) {
        std::fs::remove_dir_all(path).map_err(|e| io(path, e))?;
    }
    Ok(())
}

/// Mapped records from which `Store::scores` takes two cores where the pool has two threads (one
/// takes ~50 µs to start on it; 16 k products ~1 ms).
const HALVED_FROM: usize = 16_384;

#[inline(always)]
fn add_scaled(codes: &[i8], scale: f32, sum: &mut [f32]) {
    for (total, &code) in sum.iter_mut().zip(codes) {
        *total += f32::from(code) * scale;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn add_scaled_avx2(codes: &[i8], scale: f32, sum: &mut [f32]) {
    add_scaled(codes, scale, sum);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn add_scaled_avx512(codes: &[i8], scale: f32, sum: &mut [f32]) {
    add_scaled(codes, scale, sum);
}

/// Appends one record to `bytes`: key, scale, codes, and the checksum of the three.
fn encode(bytes: &mut Vec<u8>, key: u64, scale: f32, codes: &[i8]) {
    let start = bytes.len();
    bytes.extend_from_slice(&key.to_le_bytes());
    bytes.extend_from_slice(&scale.to_le_bytes());
    bytes.extend(codes.iter().map(|&c| c as u8));
    let check = checksum(&bytes[start..]);
    bytes.extend_from_slice(&check.to_le_bytes());
}

/// A vector as signed bytes and the scale that gives them back: code × scale ≈ float.
/// A query's cosine with one vector shown at a time, for a search that asks of a few sessions:
/// the same products as `Store::scores`, so the same cosine to the bit.
pub struct Scorer<'a> {
    store: &'a Store,
    query_scale: f32,
    query_codes: QueryCodes,
}

impl Scorer<'_> {
    /// The cosine with the vector of `slot`.
    pub fn score(&self, slot: u32) -> f32 {
        let (scale, codes) = self.store.vector(slot);
        self.score_codes(scale, codes)
    }

    /// The product with a vector in codes as the store keeps one (`quantize`).
    pub fn score_codes(&self, scale: f32, codes: &[i8]) -> f32 {
        self.query_codes.dot(codes) as f32 * self.query_scale * scale
    }

    /// The length of the query as its codes hold it: no product with a vector is more than this
    /// times the vector's length.
    pub fn query_length(&self) -> f32 {
        length(
            self.query_codes.codes().iter().map(|&c| i64::from(c)),
            self.query_scale,
        )
    }
}

/// The length of a vector in codes times `scale`.
fn length(codes: impl Iterator<Item = i64>, scale: f32) -> f32 {
    let squares: i64 = codes.map(|c| c * c).sum();
    (squares as f64).sqrt() as f32 * scale
}

/// A query quantized as the vectors are, its codes in the forms the products read.
fn query_codes(query: &[f32]) -> (f32, QueryCodes) {
    let (scale, codes) = quantize(query);
    (scale, QueryCodes::new(&codes))
}

/// A vector as the store keeps it: a scale, and codes that times it come nearest the vector.
pub fn quantize(vector: &[f32]) -> (f32, Vec<i8>) {
    let largest = vector.iter().fold(0f32, |m, x| m.max(x.abs()));
    if largest == 0.0 {
        return (0.0, vec![0; vector.len()]);
    }
    let scale = largest / 127.0;
    (
        scale,
        vector
            .iter()
            .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8)
            .collect(),
    )
}

const CHECKSUM_SEED: u64 = 0x7665_6374_6f72_7321;

fn checksum(bytes: &[u8]) -> u32 {
    folded(path_key_after(CHECKSUM_SEED, bytes))
}

fn folded(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// The checksum of each record of `records` (whole ones), as `checksum` gives it: sixteen at a
/// time with AVX-512 (`checksums_wide`), then four at a time (`checksums`), the rest one by one.
fn record_checksums(records: &[u8]) -> Vec<u32> {
    let mut sums = Vec::with_capacity(records.len() / RECORD);
    #[allow(unused_mut)]
    let mut rest = records;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
    {
        let groups = rest.chunks_exact(16 * RECORD);
        rest = groups.remainder();
        for group in groups {
            // SAFETY: the processor has AVX-512 F and DQ, checked above.
            sums.extend(unsafe { checksums_wide(group) });
        }
    }
    let groups = rest.chunks_exact(4 * RECORD);
    let tail = groups.remainder();
    sums.extend(groups.flat_map(checksums));
    sums.extend(
        tail.chunks_exact(RECORD)
            .map(|record| checksum(&record[..RECORD - 4])),
    );
    sums
}

/// `checksums` of sixteen records (`group`) at once, in the 64-bit lanes of two AVX-512 vectors:
/// the same FNV steps on each record's bytes, so the same sums, three to four times as fast.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
fn checksums_wide(group: &[u8]) -> [u32; 16] {
    use std::arch::x86_64::*;
    assert!(group.len() >= 16 * RECORD);
    let body = RECORD - 4;
    // Eight bytes of record r from `at` (inside the record: its checksum follows the body).
    let word = |r: usize, at: usize| {
        i64::from_le_bytes(
            group[r * RECORD + at..r * RECORD + at + 8]
                .try_into()
                .unwrap_or_default(),
        )
    };
    let prime = _mm512_set1_epi64(FNV_PRIME as i64);
    let low_byte = _mm512_set1_epi64(0xff);
    let mut hashes = [_mm512_set1_epi64(CHECKSUM_SEED as i64); 2];
    for at in (0..body).step_by(8) {
        for (half, hash) in hashes.iter_mut().enumerate() {
            let r = half * 8;
            let words = _mm512_set_epi64(
                word(r + 7, at),
                word(r + 6, at),
                word(r + 5, at),
                word(r + 4, at),
                word(r + 3, at),
                word(r + 2, at),
                word(r + 1, at),
                word(r, at),
            );
            for k in 0..(body - at).min(8) {
                let shift = _mm512_set1_epi64(8 * k as i64);
                let byte = _mm512_and_si512(_mm512_srlv_epi64(words, shift), low_byte);
                *hash = _mm512_mullo_epi64(_mm512_xor_si512(*hash, byte), prime);
            }
        }
    }
    let mut out = [0u64; 16];
    // SAFETY: `out` holds sixteen u64, two vectors' worth; the stores are unaligned.
    unsafe {
        _mm512_storeu_si512(out.as_mut_ptr().cast(), hashes[0]);
        _mm512_storeu_si512(out[8..].as_mut_ptr().cast(), hashes[1]);
    }
    out.map(folded)
}

/// The checksums of four records' bodies (`group`: four whole records), as `checksum` gives
/// them, computed side by side: one chain of FNV waits on its multiply at every byte, four keep
/// the processor busy (opening a store of 65 k vectors read 26 MB this way).
fn checksums(group: &[u8]) -> [u32; 4] {
    let body = RECORD - 4;
    let records: [&[u8]; 4] = std::array::from_fn(|r| &group[r * RECORD..r * RECORD + body]);
    let mut hashes = [CHECKSUM_SEED; 4];
    for i in 0..body {
        for (hash, record) in hashes.iter_mut().zip(records) {
            *hash = (*hash ^ u64::from(record[i])).wrapping_mul(FNV_PRIME);
        }
    }
    hashes.map(folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u64) -> Vec<f32> {
        let raw: Vec<f32> = (0..DIMENSIONS)
            .map(|i| ((i as u64 * 7919 + seed * 104_729) % 1000) as f32 / 1000.0 - 0.5)
            .collect();
        let length = raw.iter().map(|x| x * x).sum::<f32>().sqrt();
        raw.iter().map(|x| x / length).collect()
    }

    #[test]
    fn checksums_side_by_side_are_each_records_own() {
        let mut bytes = Vec::new();
        // Sixteen at a time, four at a time and one by one.
        for n in 0..23u64 {
            let codes: Vec<i8> = (0..DIMENSIONS)
                .map(|i| (i as u64 * 31 + n * 7) as i8)
                .collect();
            encode(&mut bytes, n * 1000 + 1, 0.5 + n as f32, &codes);
        }
        let side_by_side = record_checksums(&bytes);
        assert_eq!(side_by_side.len(), 23);
        for (record, sum) in bytes.chunks_exact(RECORD).zip(side_by_side) {
            assert_eq!(sum, checksum(&record[..RECORD - 4]));
            assert_eq!(sum.to_le_bytes(), record[RECORD - 4..]);
        }
    }

    #[test]
    fn one_vector_at_a_time_scores_what_all_at_once_does() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "model@1").unwrap();
        let mut writer = store.writer().unwrap();
        // Enough mapped records that `scores` takes them on two cores where there are two.
        let mapped = HALVED_FROM as u64 + 10;
        let first: Vec<(u64, Vec<f32>)> = (0..mapped).map(|k| (k, unit(k))).collect();
        store.append(&mut writer, &first).unwrap();
        drop(writer);
        // Mapped records from the file, then records appended into chunks.
        let mut store = Store::open(dir.path(), "model@1").unwrap();
        let mut writer = store.writer().unwrap();
        let more: Vec<(u64, Vec<f32>)> = (mapped..mapped + CHUNK as u64 + 20)
            .map(|k| (k, unit(k)))
            .collect();
        store.append(&mut writer, &more).unwrap();
        assert_eq!(store.mapped_records(), HALVED_FROM + 10);
        assert_eq!(store.len(), HALVED_FROM + 10 + CHUNK + 20);
        let query = unit(7);
        let (all, scorer) = (store.scores(&query), store.scorer(&query));
        for (slot, score) in all.iter().enumerate() {
            assert_eq!(
                scorer.score(slot as u32).to_bits(),
                score.to_bits(),
                "slot {slot}"
            );
        }
    }

    #[test]
    fn vectors_come_back_close_to_their_floats_and_persist() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "model@1").unwrap();
        let mut writer = store.writer().unwrap();
        store
            .append(&mut writer, &[(1, unit(1)), (2, unit(2))])
            .unwrap();
        let reopened = Store::open(dir.path(), "model@1").unwrap();
        assert_eq!(reopened.len(), 2);
        let scores = reopened.scores(&unit(1));
        let exact: f32 = unit(1).iter().zip(unit(2)).map(|(a, b)| a * b).sum();
        assert!((scores[0] - 1.0).abs() < 0.01, "{scores:?}");
        assert!(
            (scores[1] - exact).abs() < 0.01,
            "{scores:?} against {exact}"
        );
        let mut twice = vec![0f32; DIMENSIONS];
        reopened.add_to(0, &mut twice);
        reopened.add_to(0, &mut twice);
        assert!(
            twice
                .iter()
                .zip(unit(1))
                .all(|(sum, x)| (sum - 2.0 * x).abs() < 0.01),
            "the vector comes back from its codes"
        );
        assert!(
            Store::open(dir.path(), "model@2").unwrap().is_empty(),
            "another model's vectors are not read"
        );
    }

    #[test]
    fn a_torn_record_is_dropped_and_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "m").unwrap();
        let mut writer = store.writer().unwrap();
        store
            .append(&mut writer, &[(1, unit(1)), (2, unit(2))])
            .unwrap();
        drop(writer);
        // A write killed half-way through the second record.
        let path = dir.path().join(STORE_FILE);
        let len = std::fs::metadata(&path).unwrap().len();
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(len - 100)
            .unwrap();
        let mut store = Store::open(dir.path(), "m").unwrap();
        assert_eq!(store.len(), 1);
        let mut writer = store.writer().unwrap();
        store.append(&mut writer, &[(2, unit(2))]).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), len);
        assert_eq!(Store::open(dir.path(), "m").unwrap().len(), 2);
    }

    /// A store of `n` vectors (keys 1 to n) in `dir`, written and then opened once by a reader,
    /// which notes what it checked; the file's path.
    fn checked_store(dir: &Path, n: u64) -> PathBuf {
        let mut store = Store::open(dir, "m").unwrap();
        let mut writer = store.writer().unwrap();
        let vectors: Vec<(u64, Vec<f32>)> = (1..=n).map(|k| (k, unit(k))).collect();
        store.append(&mut writer, &vectors).unwrap();
        assert_eq!(Store::open(dir, "m").unwrap().len(), n as usize);
        dir.join(STORE_FILE)
    }

    /// Changes a byte of the codes of the record at `slot`, in place.
    fn damage(path: &Path, slot: usize) {
        let mut bytes = std::fs::read(path).unwrap();
        bytes[HEADER + slot * RECORD + 20] ^= 0x55;
        let mut file = OpenOptions::new().write(true).open(path).unwrap();
        file.write_all(&bytes).unwrap();
    }

    #[test]
    fn records_checked_once_are_read_in_place_without_checking_them_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = checked_store(dir.path(), 5);
        let note = std::fs::read_to_string(dir.path().join(CHECKED_FILE)).unwrap();
        let meta = std::fs::metadata(&path).unwrap();
        assert!(
            note.starts_with(&format!("{} {} 5 ", meta.dev(), meta.ino())),
            "{note}"
        );
        let first = Store::open(dir.path(), "m").unwrap().scores(&unit(2));
        // The same file, a byte changed in place (no writer does this): what was checked is
        // taken as it is, so the change goes unseen; the scores are the file's.
        damage(&path, 2);
        let again = Store::open(dir.path(), "m").unwrap();
        assert_eq!(again.len(), 5);
        assert_eq!(again.scores(&unit(2))[..2], first[..2]);
        assert_ne!(again.scores(&unit(2))[2], first[2]);
    }

    #[test]
    fn records_after_those_checked_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        checked_store(dir.path(), 3);
        let mut store = Store::open(dir.path(), "m").unwrap();
        let mut writer = store.writer().unwrap();
        store
            .append(&mut writer, &[(4, unit(4)), (5, unit(5))])
            .unwrap();
        drop(writer);
        damage(&dir.path().join(STORE_FILE), 4);
        let store = Store::open(dir.path(), "m").unwrap();
        assert_eq!(
            (store.len(), store.slot(4), store.slot(5)),
            (4, Some(3), None)
        );
        // The note now covers the four found whole.
        let note = std::fs::read_to_string(dir.path().join(CHECKED_FILE)).unwrap();
        assert_eq!(note.split(' ').nth(2), Some("4"), "{note}");
    }

    #[test]
    fn a_note_of_another_file_or_that_lies_is_not_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = checked_store(dir.path(), 4);
        let note_path = dir.path().join(CHECKED_FILE);
        let note = std::fs::read_to_string(&note_path).unwrap();
        let numbers: Vec<u64> = note
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        let with = |at: usize, value: u64| {
            let mut changed = numbers.clone();
            changed[at] = value;
            changed
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        damage(&path, 1);
        for lie in [
            with(1, numbers[1] + 1), // another inode
            with(2, 9),              // more records than the file holds
            with(2, (1 << 60) + 4),  // so many that their bytes wrap round to four records'
            with(2, u64::MAX),
            with(3, numbers[3] ^ 1), // another first record
            with(4, numbers[4] ^ 1), // another last record
            "garbage".to_string(),
            format!("{note} 7"),
            format!("{} x", note.trim()),
        ] {
            std::fs::write(&note_path, &lie).unwrap();
            assert_eq!(Store::open(dir.path(), "m").unwrap().len(), 1, "{lie}");
        }
        // A compaction writes another file: the note then is of that file, as checked.
        let mut store = Store::open(dir.path(), "m").unwrap();
        let mut writer = store.writer().unwrap();
        let vectors: Vec<(u64, Vec<f32>)> = (1..=4).map(|k| (k, unit(k))).collect();
        store.append(&mut writer, &vectors[1..]).unwrap();
        assert_eq!(Store::open(dir.path(), "m").unwrap().len(), 4);
        let live: PathKeys = [1, 2, 3].into_iter().collect();
        store.compact(&mut writer, &live).unwrap();
        let meta = std::fs::metadata(&path).unwrap();
        let note = std::fs::read_to_string(&note_path).unwrap();
        assert!(
            note.starts_with(&format!("{} {} 3 ", meta.dev(), meta.ino())),
            "{note}"
        );
    }

    #[test]
    fn a_reader_sees_appends_and_compaction() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "m").unwrap();
        let mut reader = Store::open(dir.path(), "m").unwrap();
        let mut writer = store.writer().unwrap();
        store
            .append(&mut writer, &[(1, unit(1)), (2, unit(2)), (3, unit(3))])
            .unwrap();
        reader.refresh().unwrap();
        assert_eq!(reader.len(), 3);
        let live: PathKeys = [2, 3].into_iter().collect();
        assert_eq!(store.unreferenced(&live), 1);
        store.compact(&mut writer, &live).unwrap();
        store.append(&mut writer, &[(4, unit(4))]).unwrap();
        reader.refresh().unwrap();
        assert_eq!(
            (reader.len(), reader.slot(1), reader.slot(4).is_some()),
            (3, None, true)
        );
    }

    #[test]
    fn a_key_appended_twice_keeps_its_first_slot_read_in_place_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "m").unwrap();
        let mut writer = store.writer().unwrap();
        store
            .append(&mut writer, &[(1, unit(1)), (2, unit(2))])
            .unwrap();
        store
            .append(&mut writer, &[(1, unit(3)), (4, unit(4))])
            .unwrap();
        // The writer read the first two in place, the next two into a chunk; a reader opening
        // the file now reads all four in place: the same slots either way.
        let reader = Store::open(dir.path(), "m").unwrap();
        for store in [&store, &reader] {
            assert_eq!(store.len(), 4);
            assert_eq!(
                (store.slot(1), store.slot(2), store.slot(4)),
                (Some(0), Some(1), Some(3))
            );
            let scores = store.scores(&unit(4));
            assert!((scores[3] - 1.0).abs() < 0.01, "{scores:?}");
            let live: PathKeys = [1, 4].into_iter().collect();
            assert_eq!(
                store.unreferenced(&live),
                1,
                "key 2; the second record of 1 is nobody's"
            );
        }
        assert_eq!(store.scores(&unit(3)), reader.scores(&unit(3)));
        let live: PathKeys = [1, 4].into_iter().collect();
        store.compact(&mut writer, &live).unwrap();
        let compacted = Store::open(dir.path(), "m").unwrap();
        assert_eq!(
            (compacted.len(), compacted.slot(1), compacted.slot(4)),
            (2, Some(0), Some(1))
        );
        let mut sum = vec![0f32; DIMENSIONS];
        compacted.add_to(0, &mut sum);
        assert!(
            sum.iter().zip(unit(1)).all(|(a, b)| (a - b).abs() < 0.01),
            "the first vector of key 1"
        );
    }

    #[test]
    fn one_writer_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = Store::open(dir.path(), "m").unwrap();
        let _held = first.writer().unwrap();
        let error = Store::open(dir.path(), "m")
            .unwrap()
            .writer()
            .err()
            .unwrap();
        assert_eq!(error.code, Code::Locked);
    }

    #[test]
    fn a_snapshot_keeps_what_it_held_and_a_limited_one_shows_its_first_vectors() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "m").unwrap();
        let mut writer = store.writer().unwrap();
        let many: Vec<(u64, Vec<f32>)> = (0..CHUNK as u64 + 10).map(|k| (k, unit(k))).collect();
        store.append(&mut writer, &many[..CHUNK - 1]).unwrap();
        let before = store.clone();
        store.append(&mut writer, &many[CHUNK - 1..]).unwrap();
        assert_eq!((before.len(), store.len()), (CHUNK - 1, CHUNK + 10));
        assert_eq!(
            (before.slot(CHUNK as u64), store.slot(CHUNK as u64)),
            (None, Some(CHUNK as u32))
        );
        let limited = store.limited(CHUNK - 1);
        assert_eq!(limited.generation(), before.generation());
        assert_eq!(limited.scores(&unit(3)), before.scores(&unit(3)));
        assert_eq!(limited.slot(CHUNK as u64 + 1), None);
        let scores = store.scores(&unit(CHUNK as u64 + 5));
        assert!(
            (scores[CHUNK + 5] - 1.0).abs() < 0.01,
            "a vector of the second chunk"
        );
        let mut sum = vec![0f32; DIMENSIONS];
        store.add_to(CHUNK as u32 + 5, &mut sum);
        assert!(sum
            .iter()
            .zip(unit(CHUNK as u64 + 5))
            .all(|(a, b)| (a - b).abs() < 0.01));
    }

    #[test]
    fn what_is_in_the_way_of_the_store_reads_as_empty_and_the_writer_removes_it() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("meaning");
        // A file where the folder should be.
        std::fs::write(&dir, b"not a folder").unwrap();
        let mut store = Store::open(&dir, "m").unwrap();
        assert!(store.is_empty());
        let mut writer = store.writer().unwrap();
        store.append(&mut writer, &[(1, unit(1))]).unwrap();
        drop(writer);
        // A folder where the file and the lock should be.
        for name in [STORE_FILE, LOCK_FILE] {
            std::fs::remove_file(dir.join(name)).unwrap();
            std::fs::create_dir_all(dir.join(name).join("inside")).unwrap();
        }
        let mut store = Store::open(&dir, "m").unwrap();
        assert!(store.is_empty());
        let mut writer = store.writer().unwrap();
        store.append(&mut writer, &[(2, unit(2))]).unwrap();
        assert_eq!(Store::open(&dir, "m").unwrap().len(), 1);
    }

    #[test]
    fn a_writer_whose_folder_was_deleted_stops_and_the_lock_names_its_process() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("meaning");
        let mut store = Store::open(&dir, "m").unwrap();
        let mut writer = store.writer().unwrap();
        let error = Store::open(&dir, "m").unwrap().writer().err().unwrap();
        assert_eq!(
            error.message,
            format!(
                "the meaning index is being built by process {}",
                std::process::id()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let error = store.append(&mut writer, &[(1, unit(1))]).unwrap_err();
        assert_eq!(error.code, Code::Io);
        assert!(
            error
                .message
                .ends_with("was deleted while the meaning index was being built; it stopped"),
            "{}",
            error.message
        );
    }
}

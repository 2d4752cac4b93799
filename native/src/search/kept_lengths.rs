//! The length of each session's centroid (by_meaning.rs, `UnitCache::lengths`) kept in the
//! meaning folder (`LENGTHS_FILE`), so that a new process does not sum every message's vector to
//! know them: a cold search on 65 k vectors spent ~10 ms doing that.
//!
//! The lengths hold for one state of the word index and the store, named by a fingerprint (the
//! caller's: which segments, their deletions, which store file and how many vectors). A file of
//! another fingerprint, damaged or of another form is not used; the search then sums them and
//! writes the file anew (by rename, so two processes at once each leave a whole file). A folder
//! that cannot be written is only not kept in.

use std::io::Write;
use std::path::Path;

use crate::path_key::{path_key_after, ByPathKey};

pub const LENGTHS_FILE: &str = "centroid-lengths";
const MAGIC: &[u8; 8] = b"RCLLEN01";
/// Magic, fingerprint, count, checksum.
const HEADER: usize = 8 + 8 + 8 + 8;
/// Path key, length.
const ENTRY: usize = 8 + 4;
const CHECKSUM_SEED: u64 = 0x6c65_6e67_7468_7321;

/// The lengths kept in `dir` for `fingerprint`, if they are whole and of it.
pub fn read(dir: &Path, fingerprint: u64) -> Option<ByPathKey<f32>> {
    let path = dir.join(LENGTHS_FILE);
    let meta = std::fs::metadata(&path).ok()?;
    // Ten thousand sessions take 120 kB: a file far larger is not one this wrote.
    if !meta.is_file() || meta.len() > 64 * 1024 * 1024 {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    let number = |at: usize| Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
    if bytes.get(..8)? != MAGIC || number(8)? != fingerprint {
        return None;
    }
    let count = usize::try_from(number(16)?).ok()?;
    let body = bytes.get(HEADER..)?;
    if body.len() != count.checked_mul(ENTRY)? || number(24)? != path_key_after(CHECKSUM_SEED, body)
    {
        return None;
    }
    Some(
        body.chunks_exact(ENTRY)
            .map(|entry| {
                let key = u64::from_le_bytes(entry[..8].try_into().unwrap_or_default());
                let length = f32::from_le_bytes(entry[8..].try_into().unwrap_or_default());
                (key, length)
            })
            .collect(),
    )
}

/// Keeps `lengths` in `dir` for `fingerprint`, in place of any other file of them.
pub fn write(dir: &Path, fingerprint: u64, lengths: &ByPathKey<f32>) {
    let mut body = Vec::with_capacity(lengths.len() * ENTRY);
    for (key, length) in lengths {
        body.extend_from_slice(&key.to_le_bytes());
        body.extend_from_slice(&length.to_le_bytes());
    }
    let mut bytes = Vec::with_capacity(HEADER + body.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&fingerprint.to_le_bytes());
    bytes.extend_from_slice(&(lengths.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&path_key_after(CHECKSUM_SEED, &body).to_le_bytes());
    bytes.extend_from_slice(&body);
    let path = dir.join(LENGTHS_FILE);
    let fresh = dir.join(format!("{LENGTHS_FILE}.{}", std::process::id()));
    let written = std::fs::File::create(&fresh)
        .and_then(|mut file| file.write_all(&bytes))
        .and_then(|()| std::fs::rename(&fresh, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&fresh);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths() -> ByPathKey<f32> {
        (1..=50u64).map(|key| (key, key as f32 / 7.0)).collect()
    }

    #[test]
    fn lengths_come_back_for_their_fingerprint_only() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path(), 7), None);
        write(dir.path(), 7, &lengths());
        assert_eq!(read(dir.path(), 7), Some(lengths()));
        assert_eq!(read(dir.path(), 8), None);
        write(dir.path(), 8, &ByPathKey::default());
        assert_eq!(read(dir.path(), 8), Some(ByPathKey::default()));
        assert_eq!(read(dir.path(), 7), None);
    }

    #[test]
    fn a_damaged_file_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), 7, &lengths());
        let path = dir.path().join(LENGTHS_FILE);
        let whole = std::fs::read(&path).unwrap();
        let mut changed = whole.clone();
        changed[HEADER + 9] ^= 1;
        let mut counted = whole.clone();
        counted[16] += 1;
        for damaged in [
            &whole[..whole.len() - 1],
            &whole[..HEADER - 1],
            &changed,
            &counted,
            b"x",
        ] {
            std::fs::write(&path, damaged).unwrap();
            assert_eq!(read(dir.path(), 7), None);
        }
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert_eq!(read(dir.path(), 7), None);
        write(dir.path(), 7, &lengths());
        assert_eq!(
            read(dir.path(), 7),
            None,
            "a folder in the way is left, and nothing kept"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}

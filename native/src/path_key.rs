//! Path keys: a session file's path as a number, the hash the index stores in `path_key` (and a
//! unit of meaning its text's key, meaning/unit.rs), and maps and sets keyed by them. Path keys
//! are hashes already: each is its own hash in those maps, which spares hashing them again with
//! SipHash for every lookup.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = path_key_after(self.0, bytes);
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

pub type ByPathKey<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;
pub type PathKeys = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// FNV-1a: a hash that never changes between builds, because it is stored in the index.
pub fn path_key(path: &str) -> u64 {
    path_key_after(0xcbf2_9ce4_8422_2325, path)
}

/// The path key of `path_key`'s path followed by `more`: the key of a folder's path and a slash
/// serves for each file in it.
pub fn path_key_after(key: u64, more: impl AsRef<[u8]>) -> u64 {
    let mut hash = key;
    for byte in more.as_ref() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// FNV-1a's 64-bit prime: each byte's step multiplies by it.
pub const FNV_PRIME: u64 = 0x0100_0000_01b3;

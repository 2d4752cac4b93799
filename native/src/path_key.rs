//! Maps and sets keyed by path key. Path keys are hashes already (FNV-1a, schema.rs): each is
//! its own hash, which spares hashing them again with SipHash for every lookup.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use crate::index::schema::path_key_after;

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

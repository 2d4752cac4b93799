//! The packed model file's format (packed.rs): numbers, texts and arrays written one after
//! another, arrays aligned so that they are read in place from the mapped file. The tokenizer
//! (tokens.rs, vocabulary.rs) and the encoder's weights write and read themselves with it.

use std::sync::Arc;

use memmap2::Mmap;

use crate::held::{bytes_of, Held, Plain};

/// Arrays start at multiples of this (and the body, after its header, at one too).
pub const ALIGN: usize = 64;

/// The packed file's body as it is written: numbers, texts and aligned arrays, one after another.
#[derive(Default)]
pub struct Packer {
    pub(crate) bytes: Vec<u8>,
}

impl Packer {
    pub fn number(&mut self, number: u64) {
        self.bytes.extend_from_slice(&number.to_ne_bytes());
    }

    pub fn text(&mut self, text: &str) {
        self.number(text.len() as u64);
        self.bytes.extend_from_slice(text.as_bytes());
    }

    pub fn array<T: Plain>(&mut self, values: &[T]) {
        self.number(values.len() as u64);
        // Offsets in the body; the body starts at HEADER, a multiple of ALIGN.
        self.bytes
            .resize(self.bytes.len().next_multiple_of(ALIGN), 0);
        self.bytes.extend_from_slice(bytes_of(values));
    }
}

/// Reads what a Packer wrote, from the mapped file; None at anything that does not fit.
pub struct Unpacker<'a> {
    pub(crate) map: &'a Arc<Mmap>,
    pub(crate) at: usize,
}

impl Unpacker<'_> {
    pub(crate) fn bytes(&mut self, count: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(count)?;
        let bytes = self.map.get(self.at..end)?;
        self.at = end;
        Some(bytes)
    }

    pub fn number(&mut self) -> Option<u64> {
        Some(u64::from_ne_bytes(self.bytes(8)?.try_into().ok()?))
    }

    /// A count of things that follow, each taking a byte at least: no more than the bytes left.
    pub fn count(&mut self) -> Option<usize> {
        let count = usize::try_from(self.number()?).ok()?;
        (count <= self.map.len() - self.at).then_some(count)
    }

    pub fn text(&mut self) -> Option<String> {
        let length = self.count()?;
        String::from_utf8(self.bytes(length)?.to_vec()).ok()
    }

    /// An array, read in place.
    pub fn array<T: Plain>(&mut self) -> Option<Held<T>> {
        let count = usize::try_from(self.number()?).ok()?;
        let at = self.at.next_multiple_of(ALIGN);
        let held = Held::mapped(self.map, at, count)?;
        self.at = at + count * std::mem::size_of::<T>();
        Some(held)
    }

    /// A small array, copied.
    pub(crate) fn vector<T: Plain>(&mut self) -> Option<Vec<T>> {
        Some(self.array::<T>()?.to_vec())
    }
}

#[cfg(test)]
impl Unpacker<'_> {
    /// What `read` reads of the bytes `packed` wrote, as if from the file (a map of its own).
    pub fn read<T>(packed: Packer, read: impl FnOnce(&mut Unpacker) -> Option<T>) -> Option<T> {
        let mut map = memmap2::MmapMut::map_anon(packed.bytes.len().max(1)).ok()?;
        map[..packed.bytes.len()].copy_from_slice(&packed.bytes);
        let map = Arc::new(map.make_read_only().ok()?);
        read(&mut Unpacker { map: &map, at: 0 })
    }
}

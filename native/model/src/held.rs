//! An array of the model's numbers as it is held: in memory of its own, or in the pages of the
//! pre-packed model file (packed.rs), mapped read-only, so a process that loads the model reads
//! from the disk cache only the pages it uses (a query touches a few rows of the 47 MB of token
//! embeddings) instead of copying the whole model first.

use std::ops::Deref;
use std::sync::Arc;

use memmap2::Mmap;

/// A number the packed file holds as its little-endian bytes: any bit pattern is a value.
///
/// # Safety
/// Implemented only for plain numbers without padding or invalid bit patterns.
pub unsafe trait Plain: Copy + 'static {}
// SAFETY: plain numbers; every bit pattern is one.
unsafe impl Plain for f32 {}
// SAFETY: as above.
unsafe impl Plain for i8 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for u8 {}

pub enum Held<T: Plain> {
    Owned(Vec<T>),
    /// `len` values from byte `at` of the mapped file (`at` a multiple of T's alignment).
    Mapped {
        map: Arc<Mmap>,
        at: usize,
        len: usize,
    },
}

impl<T: Plain> Held<T> {
    /// `len` values at byte `at` of `map`; None when they do not lie inside it, aligned.
    pub fn mapped(map: &Arc<Mmap>, at: usize, len: usize) -> Option<Held<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let end = at.checked_add(bytes)?;
        let aligned = (map.as_ptr() as usize + at).is_multiple_of(std::mem::align_of::<T>());
        (end <= map.len() && aligned).then(|| Held::Mapped {
            map: Arc::clone(map),
            at,
            len,
        })
    }
}

impl<T: Plain> Default for Held<T> {
    fn default() -> Self {
        Held::Owned(Vec::new())
    }
}

impl<T: Plain> From<Vec<T>> for Held<T> {
    fn from(values: Vec<T>) -> Self {
        Held::Owned(values)
    }
}

impl<T: Plain> Deref for Held<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Held::Owned(values) => values,
            // SAFETY: `mapped` checked that the values lie inside the map, aligned; T is Plain;
            // the map is read-only and lives as long as self (the Arc).
            Held::Mapped { map, at, len } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().add(*at).cast::<T>(), *len)
            },
        }
    }
}

/// The bytes of `values`, as the packed file holds them: in this processor's byte order (the file
/// is this machine's cache, read back only here).
pub fn bytes_of<T: Plain>(values: &[T]) -> &[u8] {
    // SAFETY: T is Plain (no padding); the bytes live as long as `values`.
    unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    }
}

//! The tokenizer's vocabulary: each WordPiece piece's id. Read from `tokenizer.json` it is a hash
//! map; the pre-packed model (packed.rs) keeps it as a table read in place, so a load builds no
//! map of 30 k strings: an open-addressing table of each piece's FNV hash, each slot naming an
//! entry (its number + 1; 0 is empty), entry e's piece the bytes of `text` from `starts[e]` to
//! `starts[e + 1]`, its id `ids[e]`.

use std::collections::HashMap;

use crate::held::Held;
use crate::packing::{Packer, Unpacker};

pub enum Vocabulary {
    Map(HashMap<String, u32>),
    Table {
        table: Held<u32>,
        starts: Held<u32>,
        ids: Held<u32>,
        text: Held<u8>,
    },
}

impl Vocabulary {
    /// The id of `piece`.
    pub fn get(&self, piece: &str) -> Option<u32> {
        match self {
            Vocabulary::Map(map) => map.get(piece).copied(),
            Vocabulary::Table {
                table,
                starts,
                ids,
                text,
            } => {
                let mask = table.len() - 1;
                let mut at = hash(piece.as_bytes()) & mask;
                loop {
                    let entry = table[at] as usize;
                    if entry == 0 {
                        return None;
                    }
                    let entry = entry - 1;
                    let bytes = &text[starts[entry] as usize..starts[entry + 1] as usize];
                    if bytes == piece.as_bytes() {
                        return Some(ids[entry]);
                    }
                    at = (at + 1) & mask;
                }
            }
        }
    }

    /// The largest id.
    pub fn largest_id(&self) -> u32 {
        match self {
            Vocabulary::Map(map) => map.values().copied().max(),
            Vocabulary::Table { ids, .. } => ids.iter().copied().max(),
        }
        .unwrap_or(0)
    }

    /// Each piece (its bytes) and its id, in no order.
    fn entries(&self) -> Vec<(&[u8], u32)> {
        match self {
            Vocabulary::Map(map) => map
                .iter()
                .map(|(piece, &id)| (piece.as_bytes(), id))
                .collect(),
            Vocabulary::Table {
                starts, ids, text, ..
            } => (0..ids.len())
                .map(|e| (&text[starts[e] as usize..starts[e + 1] as usize], ids[e]))
                .collect(),
        }
    }

    /// The vocabulary as the packed file keeps it: the table, ordered by id so the same
    /// vocabulary always packs the same.
    pub fn pack(&self, out: &mut Packer) {
        let mut entries = self.entries();
        entries.sort_unstable();
        let size = (entries.len() * 2).next_power_of_two().max(2);
        let mut table = vec![0u32; size];
        let (mut starts, mut ids, mut text) = (vec![0u32], Vec::new(), Vec::new());
        for (e, (piece, id)) in entries.iter().enumerate() {
            let mut at = hash(piece) & (size - 1);
            while table[at] != 0 {
                at = (at + 1) & (size - 1);
            }
            table[at] = e as u32 + 1;
            text.extend_from_slice(piece);
            starts.push(text.len() as u32);
            ids.push(*id);
        }
        out.array(&table);
        out.array(&starts);
        out.array(&ids);
        out.array(&text);
    }

    /// The vocabulary `pack` wrote, read in place; None when its parts do not fit together (a
    /// table not a power of two or with no empty slot, an entry out of range, pieces out of order).
    pub fn unpack(input: &mut Unpacker) -> Option<Vocabulary> {
        let table: Held<u32> = input.array()?;
        let starts: Held<u32> = input.array()?;
        let ids: Held<u32> = input.array()?;
        let text: Held<u8> = input.array()?;
        let entries = ids.len();
        let fits = table.len().is_power_of_two()
            && starts.len() == entries + 1
            && starts.first() == Some(&0)
            && starts.windows(2).all(|pair| pair[0] <= pair[1])
            && starts.last().is_some_and(|&end| end as usize == text.len())
            && table.iter().all(|&entry| entry as usize <= entries)
            && table.contains(&0);
        fits.then_some(Vocabulary::Table {
            table,
            starts,
            ids,
            text,
        })
    }
}

/// Where a piece's search in the table starts: its 64-bit FNV-1a hash, which never changes between
/// builds, since pre-packed tables are kept.
fn hash(piece: &[u8]) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in piece {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_finds_each_piece_the_map_does_and_no_other() {
        let map: HashMap<String, u32> = ["un", "##afford", "##able", "café", "中", "[UNK]"]
            .iter()
            .enumerate()
            .map(|(id, piece)| (piece.to_string(), id as u32 * 7))
            .collect();
        let map = Vocabulary::Map(map);
        let mut out = Packer::default();
        map.pack(&mut out);
        let table = Unpacker::read(out, Vocabulary::unpack).unwrap();
        for piece in [
            "un", "##afford", "##able", "café", "中", "[UNK]", "u", "unafford", "", "##",
        ] {
            assert_eq!(table.get(piece), map.get(piece), "{piece:?}");
        }
        assert_eq!(table.largest_id(), 35);
    }
}

//! The model pre-packed: what loading `model.onnx` and `tokenizer.json` makes of them (the
//! tokenizer's tables, the encoder's weights, the dense layers' matrices quantized and packed for
//! the integer kernels), written once to a file of the cache folder and mapped read-only by every
//! later load, which then parses no protobuf or JSON, quantizes nothing and reads from the disk
//! cache only the pages it uses. A cold `recall search` loaded the model in ~180 ms before; from
//! this file it takes a few.
//!
//! The file is the cache's, so never trusted as it is: its header names the model files it was
//! made from (device, inode, size, modification and change times: another or a changed file is
//! another model) and the arithmetic, and holds the length and a checksum of all that follows.
//! The checksum is computed over the whole file whenever the file is not the one a load last found
//! whole (its device, inode, size and times, kept beside it in `<file>.checked`; a write to it
//! changes its change time, which no program can set back). A file that fails any of this is made
//! again from the model files, as a missing one is. Numbers are in this processor's byte order,
//! arrays aligned to 64 bytes, so the weights are read in place.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::Arc;

use memmap2::Mmap;

use crate::arithmetic::Arithmetic;
use crate::held::Held;
use crate::int8::QuantizedMatrix;
use crate::package::{MODEL_FILE, TOKENIZER_FILE};
use crate::packing::{Packer, Unpacker};
use crate::tokens::Tokens;
use crate::weights::{Bert, Dense, Layer, Norm};

const MAGIC: &[u8; 8] = b"RCLPACK2";
/// Magic, arithmetic, the two model files' identities (5 numbers each), body length, checksum;
/// padded to the arrays' alignment.
const HEADER: usize = 128;

/// What the packed file was made from: the model files as they were, and the arithmetic.
fn sources(dir: &Path, arithmetic: Arithmetic) -> Option<Vec<u64>> {
    let mut numbers = vec![match arithmetic {
        Arithmetic::Float32 => 1,
        Arithmetic::Int8 => 2,
    }];
    for name in [MODEL_FILE, TOKENIZER_FILE] {
        let meta = std::fs::metadata(dir.join(name)).ok()?;
        if !meta.is_file() {
            return None;
        }
        numbers.extend(identity(&meta));
    }
    Some(numbers)
}

/// A file as it is now: changes whenever its bytes can have.
fn identity(meta: &std::fs::Metadata) -> [u64; 5] {
    let nanos = |seconds: i64, nanos: i64| {
        (seconds as u64)
            .wrapping_mul(1_000_000_000)
            .wrapping_add(nanos as u64)
    };
    [
        meta.dev(),
        meta.ino(),
        meta.len(),
        nanos(meta.mtime(), meta.mtime_nsec()),
        nanos(meta.ctime(), meta.ctime_nsec()),
    ]
}

/// The tokenizer and the encoder packed in the file at `path` for the model files in `dir`
/// and `arithmetic`; None when there is no such file, or it is not whole or not of these.
pub fn load(path: &Path, dir: &Path, arithmetic: Arithmetic) -> Option<(Tokens, Bert)> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() < HEADER as u64 {
        return None;
    }
    // SAFETY: recall's own cache file, replaced only by rename (never written in place by
    // recall); what another writer could change under the map is checked as any damage is.
    let map = Arc::new(unsafe { Mmap::map(&file) }.ok()?);
    let mut header = Unpacker { map: &map, at: 0 };
    if header.bytes(MAGIC.len())? != MAGIC {
        return None;
    }
    let expected = sources(dir, arithmetic)?;
    for number in expected {
        if header.number()? != number {
            return None;
        }
    }
    let (length, sum) = (header.number()?, header.number()?);
    if length != (map.len() - HEADER) as u64 {
        return None;
    }
    let seen = format!("{:?} {sum}", identity(&meta));
    let checked = checked_path(path);
    if std::fs::read_to_string(&checked).ok().as_deref() != Some(seen.as_str()) {
        if checksum(&map[HEADER..]) != sum {
            return None;
        }
        // A read-only cache: the file is checked again next time.
        let _ = std::fs::write(&checked, &seen);
    }
    let mut body = Unpacker {
        map: &map,
        at: HEADER,
    };
    let tokens = Tokens::unpack(&mut body)?;
    let bert = unpack_bert(&mut body)?;
    (body.at == map.len()).then_some((tokens, bert))
}

/// Writes `tokens` and `bert`, made from the model files in `dir` with `arithmetic`, to `path`
/// (a new file renamed over any other). Failing (a read-only or full cache) leaves none.
pub fn write(
    path: &Path,
    dir: &Path,
    arithmetic: Arithmetic,
    tokens: &Tokens,
    bert: &Bert,
) -> std::io::Result<()> {
    let Some(made_from) = sources(dir, arithmetic) else {
        return Ok(());
    };
    let mut body = Packer { bytes: Vec::new() };
    tokens.pack(&mut body);
    pack_bert(&mut body, bert);
    let mut header = Packer {
        bytes: MAGIC.to_vec(),
    };
    for number in made_from {
        header.number(number);
    }
    header.number(body.bytes.len() as u64);
    header.number(checksum(&body.bytes));
    header.bytes.resize(HEADER, 0);
    let fresh = path.with_extension(format!("new-{}", std::process::id()));
    let written = File::create(&fresh)
        .and_then(|mut file| {
            file.write_all(&header.bytes)
                .and_then(|()| file.write_all(&body.bytes))
        })
        .and_then(|()| std::fs::rename(&fresh, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&fresh);
    }
    written
}

/// Where a load keeps the identity of the file it last found whole.
fn checked_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".checked");
    name.into()
}

/// A checksum of `bytes` in four independent lanes (a few milliseconds for the whole model).
fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut lanes = [
        0x243f_6a88_85a3_08d3u64,
        0x1319_8a2e_0370_7344,
        0xa409_3822_299f_31d0,
        0x082e_fa98_ec4e_6c89,
    ];
    let words = bytes.chunks_exact(32);
    let tail = words.remainder();
    for chunk in words {
        for (lane, word) in lanes.iter_mut().zip(chunk.chunks_exact(8)) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            *lane = (*lane ^ word).wrapping_mul(PRIME).rotate_left(29);
        }
    }
    let mut sum = bytes.len() as u64;
    for (n, &byte) in tail.iter().enumerate() {
        sum ^= u64::from(byte) << ((n % 8) * 8);
        if n % 8 == 7 {
            sum = sum.wrapping_mul(PRIME);
        }
    }
    for lane in lanes {
        sum = (sum ^ lane).wrapping_mul(PRIME).rotate_left(31);
    }
    sum
}

fn pack_bert(out: &mut Packer, bert: &Bert) {
    out.number(bert.hidden as u64);
    out.number(u64::from(bert.epsilon.to_bits()));
    out.array(&bert.words);
    out.array(&bert.positions);
    out.array(&bert.token_type);
    pack_norm(out, &bert.embedding_norm);
    out.number(bert.layers.len() as u64);
    for layer in &bert.layers {
        pack_dense(out, &layer.qkv);
        pack_dense(out, &layer.attention_out);
        pack_norm(out, &layer.attention_norm);
        pack_dense(out, &layer.intermediate);
        pack_dense(out, &layer.output);
        pack_norm(out, &layer.output_norm);
    }
}

fn unpack_bert(input: &mut Unpacker) -> Option<Bert> {
    let hidden = usize::try_from(input.number()?).ok()?;
    let epsilon = f32::from_bits(u32::try_from(input.number()?).ok()?);
    let words = input.array()?;
    let positions = input.vector()?;
    let token_type = input.vector()?;
    let embedding_norm = unpack_norm(input)?;
    let count = input.count()?;
    let mut layers = Vec::with_capacity(count);
    for _ in 0..count {
        layers.push(Layer {
            qkv: unpack_dense(input)?,
            attention_out: unpack_dense(input)?,
            attention_norm: unpack_norm(input)?,
            intermediate: unpack_dense(input)?,
            output: unpack_dense(input)?,
            output_norm: unpack_norm(input)?,
        });
    }
    let bert = Bert {
        hidden,
        words,
        positions,
        token_type,
        embedding_norm,
        layers,
        epsilon,
    };
    shaped(&bert).then_some(bert)
}

/// Whether every array has the length its shape says, as the graph's reading checked.
fn shaped(bert: &Bert) -> bool {
    let h = bert.hidden;
    let norm = |norm: &Norm| norm.scale.len() == h && norm.shift.len() == h;
    let dense = |dense: &Dense, inputs: usize| {
        dense.inputs == inputs
            && dense.bias.len() == dense.outputs
            && (dense.quantized.is_some() || dense.weight.len() == inputs * dense.outputs)
    };
    h > 0
        && bert.words.len().is_multiple_of(h)
        && bert.positions.len().is_multiple_of(h)
        && bert.token_type.len() == h
        && norm(&bert.embedding_norm)
        && !bert.layers.is_empty()
        && bert.layers.iter().all(|layer| {
            dense(&layer.qkv, h)
                && layer.qkv.outputs == 3 * h
                && dense(&layer.attention_out, h)
                && layer.attention_out.outputs == h
                && dense(&layer.intermediate, h)
                && dense(&layer.output, layer.intermediate.outputs)
                && layer.output.outputs == h
                && norm(&layer.attention_norm)
                && norm(&layer.output_norm)
        })
}

fn pack_norm(out: &mut Packer, norm: &Norm) {
    out.array(&norm.scale);
    out.array(&norm.shift);
}

fn unpack_norm(input: &mut Unpacker) -> Option<Norm> {
    Some(Norm {
        scale: input.vector()?,
        shift: input.vector()?,
    })
}

fn pack_dense(out: &mut Packer, dense: &Dense) {
    out.number(dense.inputs as u64);
    out.number(dense.outputs as u64);
    out.array(&dense.bias);
    match &dense.quantized {
        Some(matrix) => {
            out.number(1);
            out.array(&matrix.packed);
            out.array(&matrix.scales);
            out.array(&matrix.sums);
        }
        None => {
            out.number(0);
            out.array(&dense.weight);
        }
    }
}

fn unpack_dense(input: &mut Unpacker) -> Option<Dense> {
    let inputs = usize::try_from(input.number()?).ok()?;
    let outputs = usize::try_from(input.number()?).ok()?;
    let bias = input.vector()?;
    let (weight, quantized) = match input.number()? {
        1 => {
            let (packed, scales, sums) = (input.array()?, input.array()?, input.array()?);
            (
                Held::default(),
                Some(QuantizedMatrix::from_parts(
                    packed, scales, sums, inputs, outputs,
                )?),
            )
        }
        0 => (input.array()?, None),
        _ => return None,
    };
    Some(Dense {
        weight,
        quantized,
        bias,
        inputs,
        outputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_sees_every_byte_and_the_length() {
        let bytes: Vec<u8> = (0..100u32).map(|n| (n * 7) as u8).collect();
        let sum = checksum(&bytes);
        for at in [0, 31, 32, 63, 99] {
            let mut changed = bytes.clone();
            changed[at] ^= 1;
            assert_ne!(checksum(&changed), sum, "byte {at}");
        }
        assert_ne!(checksum(&bytes[..99]), sum);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_ne!(checksum(&longer), sum);
    }
}

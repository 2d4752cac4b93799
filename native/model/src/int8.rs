//! A dense layer's matrix product in 8-bit integers, on processors that multiply bytes in one
//! instruction (VNNI's `vpdpbusd`: in each 32-bit lane, four byte products added to the lane's
//! sum; AVX-VNNI on 8 lanes, AVX-512 VNNI on 16), three to four times as fast as the float
//! product (encoder.rs) there. The weights are quantized once, at load, per output column (signed
//! bytes, symmetric); the activations as they come, per row (unsigned bytes with a zero point), so
//! a row's result depends on that row alone, as the float product's does. The integer sums are
//! exact, so both kernels give the same results: only the quantization rounds.

/// Output columns a block of the packed weights holds: two vectors of 8 lanes.
const COLUMNS: usize = 16;
/// Rows of activations one kernel call takes: 12 sums, 2 weight vectors and 1 broadcast fill 15 of
/// the 16 vector registers.
const ROWS: usize = 6;
/// Rows of activations the 512-bit kernel takes: 16 sums of 32, 2 weight registers, 1 broadcast.
const WIDE_ROWS: usize = 8;
/// Rows quantized at a time: their bytes stay in cache while every block of columns goes over them.
const ROW_CHUNK: usize = 96;

use crate::held::Held;

/// A matrix of weights (inputs × outputs) quantized for the kernel.
pub struct QuantizedMatrix {
    /// Blocks of COLUMNS output columns, one after another; in a block, for each group of 4
    /// inputs, each column's 4 codes.
    pub(crate) packed: Held<i8>,
    /// Each output column's scale: weight ≈ scale × code.
    pub(crate) scales: Held<f32>,
    /// Each output column's sum of codes, to take the activations' zero point out of the sums.
    pub(crate) sums: Held<i32>,
    pub(crate) inputs: usize,
    pub(crate) outputs: usize,
}

/// Whether this processor has the instructions the integer product needs: AVX2, and VNNI on 256-
/// or 512-bit registers.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2") && (narrow_registers() || wide_registers());
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Whether the kernels this processor has take a matrix of this shape: inputs a multiple of 4;
/// outputs of COLUMNS, or of two blocks where only 512-bit registers have VNNI.
fn fits(inputs: usize, outputs: usize) -> bool {
    let columns = if narrow_registers() {
        COLUMNS
    } else {
        2 * COLUMNS
    };
    inputs.is_multiple_of(4) && outputs.is_multiple_of(columns)
}

/// Whether this processor has AVX-VNNI (VNNI on 256-bit registers, a block of columns at a time).
fn narrow_registers() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avxvnni");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Whether this processor has AVX-512 VNNI, whose 512-bit registers take two blocks of columns at
/// once (the same integer sums as the 256-bit kernel: the same results).
fn wide_registers() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vnni");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// What a dense layer's product is added to: a bias for each output, and a residual (rows ×
/// outputs) when the layer has one.
#[derive(Clone, Copy)]
pub struct Addend<'a> {
    pub bias: &'a [f32],
    pub residual: Option<&'a [f32]>,
}

impl QuantizedMatrix {
    /// `weight` (inputs × outputs, row-major) quantized; None when its shape does not fit the
    /// kernels this processor has (inputs a multiple of 4; outputs of COLUMNS, or of two blocks
    /// where only 512-bit registers have VNNI).
    pub fn new(weight: &[f32], inputs: usize, outputs: usize) -> Option<QuantizedMatrix> {
        if !fits(inputs, outputs) || weight.len() != inputs * outputs {
            return None;
        }
        let mut largest = vec![0f32; outputs];
        for row in weight.chunks_exact(outputs) {
            for (m, w) in largest.iter_mut().zip(row) {
                *m = m.max(w.abs());
            }
        }
        let scales: Vec<f32> = largest
            .iter()
            .map(|&m| if m > 0.0 { m / 127.0 } else { 1.0 })
            .collect();
        let codes: Vec<i8> = weight
            .iter()
            .enumerate()
            .map(|(i, w)| (w / scales[i % outputs]).round().clamp(-127.0, 127.0) as i8)
            .collect();
        let mut sums = vec![0i32; outputs];
        for row in codes.chunks_exact(outputs) {
            for (sum, &code) in sums.iter_mut().zip(row) {
                *sum += i32::from(code);
            }
        }
        let mut packed = Vec::with_capacity(codes.len());
        for block in 0..outputs / COLUMNS {
            for group in 0..inputs / 4 {
                for column in block * COLUMNS..(block + 1) * COLUMNS {
                    packed.extend(
                        (group * 4..group * 4 + 4).map(|input| codes[input * outputs + column]),
                    );
                }
            }
        }
        Some(QuantizedMatrix {
            packed: packed.into(),
            scales: scales.into(),
            sums: sums.into(),
            inputs,
            outputs,
        })
    }

    /// The matrix as the packed model file held it (packed.rs); None when its parts do not fit
    /// its shape or the kernels of this processor cannot take it.
    pub fn from_parts(
        packed: Held<i8>,
        scales: Held<f32>,
        sums: Held<i32>,
        inputs: usize,
        outputs: usize,
    ) -> Option<QuantizedMatrix> {
        let whole = packed.len() == inputs.checked_mul(outputs)?
            && scales.len() == outputs
            && sums.len() == outputs;
        (whole && fits(inputs, outputs)).then_some(QuantizedMatrix {
            packed,
            scales,
            sums,
            inputs,
            outputs,
        })
    }

    /// `out` (rows × outputs) = `x` (rows × inputs) × the matrix + `addend`: the sum the float
    /// product makes of an `out` filled with the addend first ((bias + residual) + product),
    /// written in one pass. Only on a processor `available()` says has the instructions.
    pub fn product(&self, x: &[f32], rows: usize, addend: Addend, out: &mut [f32]) {
        assert!(available(), "the integer product needs VNNI");
        let size = rows * self.outputs;
        assert!(
            x.len() >= rows * self.inputs
                && out.len() >= size
                && addend.bias.len() == self.outputs
                && addend
                    .residual
                    .is_none_or(|residual| residual.len() >= size),
            "the product does not fit"
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the processor has AVX2, checked above.
        unsafe {
            self.product_avx2(x, rows, addend, out)
        }
    }

    /// `product`, compiled for AVX2 (the rows' quantization on 8 lanes).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn product_avx2(&self, x: &[f32], rows: usize, addend: Addend, out: &mut [f32]) {
        let mut codes = vec![0u8; ROW_CHUNK.min(rows) * self.inputs];
        let mut quantized = Vec::with_capacity(ROW_CHUNK);
        for first in (0..rows).step_by(ROW_CHUNK) {
            let count = ROW_CHUNK.min(rows - first);
            quantized.clear();
            for (row, codes) in x[first * self.inputs..(first + count) * self.inputs]
                .chunks_exact(self.inputs)
                .zip(codes.chunks_exact_mut(self.inputs))
            {
                quantized.push(quantize_row(row, codes));
            }
            // With 512-bit registers, two blocks at a time: one register holds a group's 16 columns.
            // Else AVX-VNNI, which `new` made sure of when the outputs are not of two blocks.
            let blocks = if wide_registers() && self.outputs.is_multiple_of(2 * COLUMNS) {
                2
            } else {
                1
            };
            let rows_at_once = if blocks == 2 { WIDE_ROWS } else { ROWS };
            for block in (0..self.outputs / COLUMNS).step_by(blocks) {
                let panel =
                    &self.packed[block * self.inputs * COLUMNS..][..blocks * self.inputs * COLUMNS];
                let columns = block * COLUMNS..(block + blocks) * COLUMNS;
                let mut row = 0;
                while row < count {
                    let take = rows_at_once.min(count - row);
                    // Where the tile's first row and column sit in `out` and the residual.
                    let at = (first + row) * self.outputs + columns.start;
                    let tile = Tile {
                        codes: &codes[row * self.inputs..(row + take) * self.inputs],
                        rows: &quantized[row..row + take],
                        panel,
                        scales: &self.scales[columns.clone()],
                        sums: &self.sums[columns.clone()],
                        bias: &addend.bias[columns.clone()],
                        residual: addend.residual.map(|residual| &residual[at..]),
                        inputs: self.inputs,
                    };
                    let out = &mut out[at..];
                    // The kernels check that the tile's slices hold every byte they read.
                    if blocks == 2 {
                        // SAFETY: wide_registers() said the processor has AVX-512 VNNI.
                        unsafe {
                            match take {
                                8 => kernel_512::<8>(&tile, out, self.outputs),
                                7 => kernel_512::<7>(&tile, out, self.outputs),
                                6 => kernel_512::<6>(&tile, out, self.outputs),
                                5 => kernel_512::<5>(&tile, out, self.outputs),
                                4 => kernel_512::<4>(&tile, out, self.outputs),
                                3 => kernel_512::<3>(&tile, out, self.outputs),
                                2 => kernel_512::<2>(&tile, out, self.outputs),
                                _ => kernel_512::<1>(&tile, out, self.outputs),
                            }
                        }
                    } else {
                        // SAFETY: one block at a time only where the processor has AVX-VNNI (above).
                        unsafe {
                            match take {
                                6 => kernel::<6>(&tile, out, self.outputs),
                                5 => kernel::<5>(&tile, out, self.outputs),
                                4 => kernel::<4>(&tile, out, self.outputs),
                                3 => kernel::<3>(&tile, out, self.outputs),
                                2 => kernel::<2>(&tile, out, self.outputs),
                                _ => kernel::<1>(&tile, out, self.outputs),
                            }
                        }
                    }
                    row += take;
                }
            }
        }
    }
}

/// A row's scale and zero point: value ≈ scale × (code − zero).
#[derive(Clone, Copy)]
struct RowQuantization {
    scale: f32,
    zero: i32,
}

/// `row` as unsigned bytes over its range (0 included, so that 0 is exact).
#[inline(always)]
fn quantize_row(row: &[f32], codes: &mut [u8]) -> RowQuantization {
    // Adding 1.5 × 2²³ and taking it away again rounds to a whole number (half to even) in two
    // additions the compiler runs on several lanes at once, where `round` calls the C library.
    const ROUND: f32 = 12_582_912.0;
    let (low, high) = range(row);
    let scale = if high > low {
        (high - low) / 255.0
    } else {
        1.0
    };
    let zero = ((-low / scale + ROUND) - ROUND).clamp(0.0, 255.0) as i32;
    let inverse = 1.0 / scale;
    for (code, x) in codes.iter_mut().zip(row) {
        // x × inverse is within ±255, so the sum's low mantissa bits hold it rounded; read as
        // bits and clamped as an integer, all of it runs on several lanes at once.
        let rounded = ((x * inverse + ROUND).to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
        *code = (rounded + zero).clamp(0, 255) as u8;
    }
    RowQuantization { scale, zero }
}

/// The lowest and the highest value of `row`, and 0 (so that 0 is exact).
fn range(row: &[f32]) -> (f32, f32) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked above.
        return unsafe { range_avx2(row) };
    }
    row.iter()
        .fold((0f32, 0f32), |(low, high), &x| (low.min(x), high.max(x)))
}

/// `range` on 8 lanes, one instruction each for their lows and highs: the compiler made
/// `f32::min` over an array of lanes three instructions a value (its care for NaN, which an
/// activation never is), a seventh of a text's whole time. Four registers of each take turns, so
/// that no instruction waits on the one before. Min and max are exact in any order, so the values
/// are `range`'s.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn range_avx2(row: &[f32]) -> (f32, f32) {
    use std::arch::x86_64::*;
    let chunks = row.chunks_exact(8);
    let (low, high) = chunks
        .remainder()
        .iter()
        .fold((0f32, 0f32), |(low, high), &x| (low.min(x), high.max(x)));
    let (mut lows, mut highs) = ([_mm256_setzero_ps(); 4], [_mm256_setzero_ps(); 4]);
    for (i, chunk) in chunks.enumerate() {
        // SAFETY: the chunk holds 8 floats; the load is unaligned.
        let x = unsafe { _mm256_loadu_ps(chunk.as_ptr()) };
        let turn = i % 4;
        lows[turn] = _mm256_min_ps(lows[turn], x);
        highs[turn] = _mm256_max_ps(highs[turn], x);
    }
    let lows = _mm256_min_ps(
        _mm256_min_ps(lows[0], lows[1]),
        _mm256_min_ps(lows[2], lows[3]),
    );
    let highs = _mm256_max_ps(
        _mm256_max_ps(highs[0], highs[1]),
        _mm256_max_ps(highs[2], highs[3]),
    );
    let (mut some_lows, mut some_highs) = ([0f32; 8], [0f32; 8]);
    // SAFETY: each array holds 8 floats; the stores are unaligned.
    unsafe {
        _mm256_storeu_ps(some_lows.as_mut_ptr(), lows);
        _mm256_storeu_ps(some_highs.as_mut_ptr(), highs);
    }
    (
        some_lows.into_iter().fold(low, f32::min),
        some_highs.into_iter().fold(high, f32::max),
    )
}

/// What one kernel call multiplies: a few rows of activation codes by one block of columns, and
/// what their product is added to.
struct Tile<'a> {
    codes: &'a [u8],
    rows: &'a [RowQuantization],
    panel: &'a [i8],
    scales: &'a [f32],
    sums: &'a [i32],
    /// The block's columns' biases.
    bias: &'a [f32],
    /// The residual from the tile's first row and column, its rows as far apart as `out`'s.
    residual: Option<&'a [f32]>,
    inputs: usize,
}

/// `R` rows × COLUMNS columns of the product, plus the bias and the residual, written to `out`
/// (rows `stride` floats apart): the byte products summed in 32-bit lanes over all inputs, then
/// the rows' zero points taken out and the scales applied.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avxvnni")]
fn kernel<const R: usize>(tile: &Tile, out: &mut [f32], stride: usize) {
    use std::arch::x86_64::*;
    let reach = (R - 1) * stride + COLUMNS;
    assert!(
        tile.codes.len() >= R * tile.inputs
            && tile.panel.len() >= tile.inputs * COLUMNS
            && tile.bias.len() >= COLUMNS
            && tile.residual.is_none_or(|residual| residual.len() >= reach)
            && out.len() >= reach
    );
    let mut sums = [[_mm256_setzero_si256(); 2]; R];
    let (codes, panel) = (tile.codes.as_ptr(), tile.panel.as_ptr());
    for group in 0..tile.inputs / 4 {
        // SAFETY: the two panel loads of this group are inside `tile.panel`, by the assert above.
        let (left, right) = unsafe {
            (
                _mm256_loadu_si256(panel.add(group * 64).cast()),
                _mm256_loadu_si256(panel.add(group * 64 + 32).cast()),
            )
        };
        for (r, sum) in sums.iter_mut().enumerate() {
            // SAFETY: four codes of row r from `group * 4`, inside `tile.codes` by the assert
            // above; the read is unaligned.
            let four = unsafe {
                codes
                    .add(r * tile.inputs + group * 4)
                    .cast::<i32>()
                    .read_unaligned()
            };
            let broadcast = _mm256_set1_epi32(four);
            sum[0] = _mm256_dpbusd_avx_epi32(sum[0], broadcast, left);
            sum[1] = _mm256_dpbusd_avx_epi32(sum[1], broadcast, right);
        }
    }
    for (r, sum) in sums.iter().enumerate() {
        let RowQuantization { scale, zero } = tile.rows[r];
        for (half, &lanes) in sum.iter().enumerate() {
            let at = half * 8;
            // SAFETY: 8 floats and 8 sums from `at`, inside their slices (COLUMNS each), and 8
            // floats of row r there in `out` and the residual, by the assert above.
            unsafe {
                let exact = _mm256_sub_epi32(
                    lanes,
                    _mm256_mullo_epi32(
                        _mm256_set1_epi32(zero),
                        _mm256_loadu_si256(tile.sums.as_ptr().add(at).cast()),
                    ),
                );
                let scales = _mm256_mul_ps(
                    _mm256_set1_ps(scale),
                    _mm256_loadu_ps(tile.scales.as_ptr().add(at)),
                );
                let mut base = _mm256_loadu_ps(tile.bias.as_ptr().add(at));
                if let Some(residual) = tile.residual {
                    base = _mm256_add_ps(
                        base,
                        _mm256_loadu_ps(residual.as_ptr().add(r * stride + at)),
                    );
                }
                _mm256_storeu_ps(
                    out.as_mut_ptr().add(r * stride + at),
                    _mm256_add_ps(base, _mm256_mul_ps(_mm256_cvtepi32_ps(exact), scales)),
                );
            }
        }
    }
}

/// `kernel` with 512-bit registers over two blocks of columns (32): a group's 16 columns of one
/// block in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn kernel_512<const R: usize>(tile: &Tile, out: &mut [f32], stride: usize) {
    use std::arch::x86_64::*;
    let block = tile.inputs * COLUMNS;
    let reach = (R - 1) * stride + 2 * COLUMNS;
    assert!(
        tile.codes.len() >= R * tile.inputs
            && tile.panel.len() >= 2 * block
            && tile.bias.len() >= 2 * COLUMNS
            && tile.residual.is_none_or(|residual| residual.len() >= reach)
            && out.len() >= reach
    );
    let mut sums = [[_mm512_setzero_si512(); 2]; R];
    let (codes, panel) = (tile.codes.as_ptr(), tile.panel.as_ptr());
    for group in 0..tile.inputs / 4 {
        // SAFETY: the two panel loads of this group are inside `tile.panel`, by the assert above.
        let (left, right) = unsafe {
            (
                _mm512_loadu_si512(panel.add(group * 64).cast()),
                _mm512_loadu_si512(panel.add(block + group * 64).cast()),
            )
        };
        for (r, sum) in sums.iter_mut().enumerate() {
            // SAFETY: four codes of row r from `group * 4`, inside `tile.codes` by the assert
            // above; the read is unaligned.
            let four = unsafe {
                codes
                    .add(r * tile.inputs + group * 4)
                    .cast::<i32>()
                    .read_unaligned()
            };
            let broadcast = _mm512_set1_epi32(four);
            sum[0] = _mm512_dpbusd_epi32(sum[0], broadcast, left);
            sum[1] = _mm512_dpbusd_epi32(sum[1], broadcast, right);
        }
    }
    for (r, sum) in sums.iter().enumerate() {
        let RowQuantization { scale, zero } = tile.rows[r];
        for (half, &lanes) in sum.iter().enumerate() {
            let at = half * COLUMNS;
            // SAFETY: 16 floats and 16 sums from `at`, inside their slices (2 × COLUMNS each),
            // and 16 floats of row r there in `out` and the residual, by the assert above.
            unsafe {
                let exact = _mm512_sub_epi32(
                    lanes,
                    _mm512_mullo_epi32(
                        _mm512_set1_epi32(zero),
                        _mm512_loadu_si512(tile.sums.as_ptr().add(at).cast()),
                    ),
                );
                let scales = _mm512_mul_ps(
                    _mm512_set1_ps(scale),
                    _mm512_loadu_ps(tile.scales.as_ptr().add(at)),
                );
                let mut base = _mm512_loadu_ps(tile.bias.as_ptr().add(at));
                if let Some(residual) = tile.residual {
                    base = _mm512_add_ps(
                        base,
                        _mm512_loadu_ps(residual.as_ptr().add(r * stride + at)),
                    );
                }
                _mm512_storeu_ps(
                    out.as_mut_ptr().add(r * stride + at),
                    _mm512_add_ps(base, _mm512_mul_ps(_mm512_cvtepi32_ps(exact), scales)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repeatable spread of values in -1..1.
    fn values(count: usize, seed: u32) -> Vec<f32> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn a_rows_range_is_its_lowest_and_highest_value_and_zero() {
        for length in 0..41 {
            for shift in [-2.0, 0.0, 2.0] {
                let row: Vec<f32> = values(length, length as u32)
                    .iter()
                    .map(|x| x + shift)
                    .collect();
                let lowest = row.iter().copied().fold(0f32, f32::min);
                let highest = row.iter().copied().fold(0f32, f32::max);
                assert_eq!(range(&row), (lowest, highest), "{length} values, {shift:+}");
            }
        }
    }

    #[test]
    fn a_row_quantizes_to_its_range_with_zero_exact() {
        let mut codes = [0u8; 4];
        let q = quantize_row(&[-1.0, 0.0, 0.5, 1.0], &mut codes);
        assert_eq!(codes[1] as i32, q.zero);
        assert_eq!(codes[0], 0);
        assert!(codes[3] >= 254);
        let back = |code: u8| q.scale * (code as i32 - q.zero) as f32;
        assert!((back(codes[2]) - 0.5).abs() <= q.scale / 2.0);
    }

    #[test]
    fn refuses_a_shape_the_kernel_cannot_take() {
        assert!(QuantizedMatrix::new(&[0.0; 6 * 16], 6, 16).is_none());
        assert!(QuantizedMatrix::new(&[0.0; 8 * 12], 8, 12).is_none());
    }

    #[test]
    fn the_product_is_the_integer_product_of_the_codes_and_near_the_float_one() {
        if !available() {
            eprintln!("skipped: this processor has no VNNI");
            return;
        }
        // 48 columns: blocks one at a time; 64: two at a time where the processor has AVX-512.
        for (inputs, outputs) in [(64, 48), (64, 64)] {
            let weight = values(inputs * outputs, 7);
            let Some(matrix) = QuantizedMatrix::new(&weight, inputs, outputs) else {
                assert!(
                    !narrow_registers(),
                    "only a processor without AVX-VNNI refuses {outputs} columns"
                );
                continue;
            };
            let code = |k: usize, n: usize| {
                i32::from(
                    matrix.packed[((n / COLUMNS) * (inputs / 4) + k / 4) * 4 * COLUMNS
                        + (n % COLUMNS) * 4
                        + k % 4],
                )
            };
            // Every tail of the kernels' rows: 1 to 17 rows.
            for rows in 1..=17 {
                let x = values(rows * inputs, rows as u32);
                let (bias, residual) = (values(outputs, 98), values(rows * outputs, 99));
                // Each way: with a residual, and without (over what the last product wrote).
                let mut out = vec![f32::NAN; rows * outputs];
                let with_residual = Addend {
                    bias: &bias,
                    residual: Some(&residual),
                };
                matrix.product(&x, rows, with_residual, &mut out);
                let mut alone = out.clone();
                let bias_alone = Addend {
                    bias: &bias,
                    residual: None,
                };
                matrix.product(&x, rows, bias_alone, &mut alone);
                for r in 0..rows {
                    let mut codes = vec![0u8; inputs];
                    let q = quantize_row(&x[r * inputs..(r + 1) * inputs], &mut codes);
                    for n in 0..outputs {
                        let sum: i32 = (0..inputs)
                            .map(|k| (i32::from(codes[k]) - q.zero) * code(k, n))
                            .sum();
                        let product = sum as f32 * (q.scale * matrix.scales[n]);
                        let base = bias[n] + residual[r * outputs + n];
                        // Added as the float product adds to a pre-filled matrix: the same bits.
                        assert_eq!(
                            out[r * outputs + n],
                            base + product,
                            "rows {rows}, ({r}, {n})"
                        );
                        assert_eq!(alone[r * outputs + n], bias[n] + product);
                        let float: f32 = (0..inputs)
                            .map(|k| x[r * inputs + k] * weight[k * outputs + n])
                            .sum::<f32>()
                            + base;
                        let got = out[r * outputs + n];
                        // 64 products, each off by at most half a step of each side's codes.
                        assert!(
                            (got - float).abs() < 0.15,
                            "rows {rows}, ({r}, {n}): {got} against the floats' {float}"
                        );
                    }
                }
            }
        }
    }
}

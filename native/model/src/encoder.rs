//! The BERT encoder's forward pass over one text's tokens, on the calling thread: embeddings, then
//! each layer's self-attention and feed-forward block, each followed by a residual sum and a layer
//! norm, as the ONNX graph computes them. The matrix products go through `matrixmultiply`'s sgemm
//! (pure Rust, its own SIMD kernels chosen at run time, one thread), or a dense layer's through the
//! integer product (int8.rs) when its matrix is quantized.

use crate::int8::Addend;
use crate::weights::{Bert, Dense, Norm};

/// The attention heads of all-MiniLM-L6-v2 (the graph's reshapes to 12 × 32): not among the weights.
pub const HEADS: usize = 12;

impl Bert {
    /// The last hidden states of each text of `texts` (token ids, each at most as many as there
    /// are positions): one row of `hidden` floats a token, the texts' rows one after another. The
    /// texts go through the dense layers together, as one matrix of all their rows (a row's
    /// values depend on that row alone there), and through self-attention each on its own, so
    /// a text gets the states it would get alone, at the cost of fewer, larger matrix products.
    pub fn forward(&self, texts: &[&[u32]]) -> Vec<f32> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked above.
            return unsafe { self.forward_avx2(texts) };
        }
        self.forward_here(texts)
    }

    /// `forward_here` compiled for AVX2: its loops (layer norms, softmax, GELU) on 8 lanes at a
    /// time instead of SSE2's 4, the same operations in the same order, so the same results (no
    /// fused multiply-adds: Rust never fuses on its own).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn forward_avx2(&self, texts: &[&[u32]]) -> Vec<f32> {
        self.forward_here(texts)
    }

    #[inline(always)]
    fn forward_here(&self, texts: &[&[u32]]) -> Vec<f32> {
        let hidden = self.hidden;
        let count: usize = texts.iter().map(|ids| ids.len()).sum();
        let mut x = vec![0f32; count * hidden];
        let positions = texts.iter().flat_map(|ids| 0..ids.len());
        let ids = texts.iter().flat_map(|ids| ids.iter());
        for ((row, &id), token) in x.chunks_exact_mut(hidden).zip(ids).zip(positions) {
            let word = &self.words[id as usize * hidden..][..hidden];
            let position = &self.positions[token * hidden..][..hidden];
            for (((value, w), p), t) in row.iter_mut().zip(word).zip(position).zip(&self.token_type)
            {
                *value = w + t + p;
            }
        }
        layer_norm(&mut x, &self.embedding_norm, self.epsilon);
        let mut scratch = Scratch::default();
        for layer in &self.layers {
            // Self-attention, then x + its projection, normed.
            dense(&x, count, &layer.qkv, None, &mut scratch.qkv);
            scratch.context.resize(count * hidden, 0.0);
            let mut first = 0;
            for ids in texts {
                let rows = first..first + ids.len();
                attention(
                    &scratch.qkv[rows.start * 3 * hidden..rows.end * 3 * hidden],
                    ids.len(),
                    hidden,
                    &mut scratch.scores,
                    &mut scratch.context[rows.start * hidden..rows.end * hidden],
                );
                first = rows.end;
            }
            dense(
                &scratch.context,
                count,
                &layer.attention_out,
                Some(&x),
                &mut scratch.sum,
            );
            layer_norm(&mut scratch.sum, &layer.attention_norm, self.epsilon);
            std::mem::swap(&mut x, &mut scratch.sum);
            // Feed-forward, then x + its output, normed.
            dense(&x, count, &layer.intermediate, None, &mut scratch.inner);
            for value in scratch.inner.iter_mut() {
                *value = gelu(*value);
            }
            dense(
                &scratch.inner,
                count,
                &layer.output,
                Some(&x),
                &mut scratch.sum,
            );
            layer_norm(&mut scratch.sum, &layer.output_norm, self.epsilon);
            std::mem::swap(&mut x, &mut scratch.sum);
        }
        x
    }
}

/// Buffers reused from layer to layer.
#[derive(Default)]
struct Scratch {
    qkv: Vec<f32>,
    scores: Vec<f32>,
    context: Vec<f32>,
    inner: Vec<f32>,
    sum: Vec<f32>,
}

/// `out` = `x` (`rows` × inputs) × weight + bias, + `residual` when given: in integers when the
/// layer's matrix is quantized (int8.rs), else in floats.
fn dense(x: &[f32], rows: usize, layer: &Dense, residual: Option<&[f32]>, out: &mut Vec<f32>) {
    if let Some(quantized) = &layer.quantized {
        // The integer product writes every value: `out` only needs its size (from the layer
        // before, mostly).
        out.resize(rows * layer.outputs, 0.0);
        let addend = Addend {
            bias: &layer.bias,
            residual,
        };
        return quantized.product(x, rows, addend, out);
    }
    out.clear();
    for row in 0..rows {
        match residual {
            Some(residual) => out.extend(
                layer
                    .bias
                    .iter()
                    .zip(&residual[row * layer.outputs..][..layer.outputs])
                    .map(|(b, r)| b + r),
            ),
            None => out.extend_from_slice(&layer.bias),
        }
    }
    let a = Matrix {
        data: x,
        rows,
        columns: layer.inputs,
        row_stride: layer.inputs,
        column_stride: 1,
    };
    let b = Matrix {
        data: &layer.weight,
        rows: layer.inputs,
        columns: layer.outputs,
        row_stride: layer.outputs,
        column_stride: 1,
    };
    product(1.0, a, b, 1.0, out, layer.outputs);
}

/// Multi-head self-attention of the `count` tokens of one text: `qkv` holds each token's query,
/// key and value (`hidden` floats each, `HEADS` heads of `hidden / HEADS`); `context` (`count`
/// rows of `hidden`) gets each token's heads' mixes of the values, side by side.
#[inline(always)]
fn attention(qkv: &[f32], count: usize, hidden: usize, scores: &mut Vec<f32>, context: &mut [f32]) {
    let width = hidden / HEADS;
    let stride = 3 * hidden;
    let scale = 1.0 / (width as f32).sqrt();
    scores.resize(count * count, 0.0);
    for head in 0..HEADS {
        let queries = Matrix {
            data: &qkv[head * width..],
            rows: count,
            columns: width,
            row_stride: stride,
            column_stride: 1,
        };
        // The keys transposed: key j's floats down column j.
        let keys = Matrix {
            data: &qkv[hidden + head * width..],
            rows: width,
            columns: count,
            row_stride: 1,
            column_stride: stride,
        };
        product(scale, queries, keys, 0.0, scores, count);
        // Loops, not `for_each`, in what forward_avx2 runs: an iterator's fold compiled on its
        // own would not get AVX2.
        for row in scores.chunks_exact_mut(count) {
            softmax(row);
        }
        let weights = Matrix {
            data: scores,
            rows: count,
            columns: count,
            row_stride: count,
            column_stride: 1,
        };
        let values = Matrix {
            data: &qkv[2 * hidden + head * width..],
            rows: count,
            columns: width,
            row_stride: stride,
            column_stride: 1,
        };
        product(
            1.0,
            weights,
            values,
            0.0,
            &mut context[head * width..],
            hidden,
        );
    }
}

/// A matrix laid out in a slice: element (i, j) at `data[i × row_stride + j × column_stride]`.
#[derive(Clone, Copy)]
struct Matrix<'a> {
    data: &'a [f32],
    rows: usize,
    columns: usize,
    row_stride: usize,
    column_stride: usize,
}

impl Matrix<'_> {
    /// Whether every element lies inside `data`.
    fn fits(&self) -> bool {
        self.rows == 0
            || self.columns == 0
            || (self.rows - 1) * self.row_stride + (self.columns - 1) * self.column_stride
                < self.data.len()
    }
}

/// `c` = alpha a × b + beta c, where `c` is a.rows × b.columns with rows `c_stride` apart.
fn product(alpha: f32, a: Matrix, b: Matrix, beta: f32, c: &mut [f32], c_stride: usize) {
    assert!(
        a.columns == b.rows && a.fits() && b.fits(),
        "matrix shapes do not fit"
    );
    assert!(
        a.rows == 0 || b.columns == 0 || (a.rows - 1) * c_stride + b.columns <= c.len(),
        "the product does not fit"
    );
    // SAFETY: the asserts keep every element sgemm reads or writes inside its slice; `c` is borrowed
    // mutably, so it overlaps neither `a` nor `b`.
    unsafe {
        matrixmultiply::sgemm(
            a.rows,
            a.columns,
            b.columns,
            alpha,
            a.data.as_ptr(),
            a.row_stride as isize,
            a.column_stride as isize,
            b.data.as_ptr(),
            b.row_stride as isize,
            b.column_stride as isize,
            beta,
            c.as_mut_ptr(),
            c_stride as isize,
            1,
        );
    }
}

/// Each row of `x` (as wide as the norm) brought to mean 0 and variance 1, then scaled and shifted.
#[inline(always)]
fn layer_norm(x: &mut [f32], norm: &Norm, epsilon: f32) {
    let width = norm.scale.len();
    for row in x.chunks_exact_mut(width) {
        let mean = sum_of(row, |value| value) / width as f32;
        for value in row.iter_mut() {
            *value -= mean;
        }
        let variance = sum_of(row, |value| value * value) / width as f32;
        let deviation = (variance + epsilon).sqrt();
        for ((value, scale), shift) in row.iter_mut().zip(&norm.scale).zip(&norm.shift) {
            *value = *value / deviation * scale + shift;
        }
    }
}

/// The row's exponentials, summing to 1 (the largest value subtracted first, so none overflows).
#[inline(always)]
fn softmax(row: &mut [f32]) {
    let largest = largest(row);
    for value in row.iter_mut() {
        *value = exp(*value - largest);
    }
    let sum = sum_of(row, |value| value);
    for value in row.iter_mut() {
        *value /= sum;
    }
}

/// The sum of `term` of each value, in 8 lanes: a single chain of additions waits on each in
/// turn, 8 lanes run side by side.
fn sum_of(values: &[f32], term: impl Fn(f32) -> f32) -> f32 {
    in_lanes(values, 0.0, |sum, value| sum + term(value), |a, b| a + b)
}

fn largest(values: &[f32]) -> f32 {
    in_lanes(values, f32::NEG_INFINITY, f32::max, f32::max)
}

/// `values` folded by `step` from `start` in 8 lanes, the lanes then joined by `join`.
fn in_lanes(
    values: &[f32],
    start: f32,
    step: impl Fn(f32, f32) -> f32,
    join: impl Fn(f32, f32) -> f32,
) -> f32 {
    let mut lanes = [start; 8];
    let chunks = values.chunks_exact(8);
    let rest = chunks.remainder().iter().fold(start, |a, &b| step(a, b));
    for chunk in chunks {
        for (lane, &value) in lanes.iter_mut().zip(chunk) {
            *lane = step(*lane, value);
        }
    }
    lanes.into_iter().fold(rest, join)
}

/// e^x within 4e-7 of it (relative), in operations the compiler can run on several lanes at once
/// (the C library's `expf`, called once a value, was most of a long text's time): x = n ln 2 + r
/// with |r| ≤ ln 2 / 2, e^r by its Taylor series to r⁶, 2ⁿ written into a float's exponent.
/// Beyond what a float holds, x is clamped: e^-87 is 0 for a softmax or an erf.
fn exp(x: f32) -> f32 {
    // Adding 1.5 × 2²³ rounds to a whole number, which then sits in the sum's low mantissa bits.
    const ROUND: f32 = 12_582_912.0;
    const LN_2_HIGH: f32 = 0.693_359_4;
    const LN_2_LOW: f32 = -2.121_944_4e-4;
    let x = x.clamp(-87.0, 88.0);
    let shifted = x * std::f32::consts::LOG2_E + ROUND;
    let n = shifted - ROUND;
    let r = x - n * LN_2_HIGH - n * LN_2_LOW;
    let series = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    let whole = (shifted.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    series * f32::from_bits(((whole + 127) << 23) as u32)
}

/// GELU as the graph computes it: x/2 × (1 + erf(x/√2)).
#[inline(always)]
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

/// The error function, within 1.5e-7 of it (Abramowitz and Stegun, Handbook of Mathematical
/// Functions, formula 7.1.26), odd in x.
fn erf(x: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * a);
    let poly = t
        * (0.254_829_6
            + t * (-0.284_496_74 + t * (1.421_413_7 + t * (-1.453_152_1 + t * 1.061_405_4))));
    (1.0 - poly * exp(-a * a)).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_is_within_4e_7_of_the_standard_one() {
        for step in -8_700..=8_800 {
            let x = step as f32 / 100.0;
            let (got, expected) = (exp(x), x.exp());
            assert!(
                (got - expected).abs() <= 4e-7 * expected,
                "exp({x}) = {got}, not {expected}"
            );
        }
        assert!(exp(-1000.0) < 1e-37 && exp(-1000.0) >= 0.0);
    }

    #[test]
    fn erf_is_close_to_known_values() {
        for (x, expected) in [
            (0.0, 0.0),
            (0.5, 0.520_499_9),
            (1.0, 0.842_700_8),
            (-1.0, -0.842_700_8),
            (2.0, 0.995_322_3),
            (4.0, 0.999_999_98),
        ] {
            assert!((erf(x) - expected).abs() < 3e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn product_follows_the_strides() {
        // a = [[1, 2], [3, 4]]; b given transposed through its strides: b = [[5, 6], [7, 8]].
        let a = Matrix {
            data: &[1.0, 2.0, 3.0, 4.0],
            rows: 2,
            columns: 2,
            row_stride: 2,
            column_stride: 1,
        };
        let b = Matrix {
            data: &[5.0, 7.0, 6.0, 8.0],
            rows: 2,
            columns: 2,
            row_stride: 1,
            column_stride: 2,
        };
        let mut c = vec![1.0; 4];
        product(1.0, a, b, 1.0, &mut c, 2);
        assert_eq!(c, vec![20.0, 23.0, 44.0, 51.0]);
    }

    #[test]
    fn softmax_sums_to_one_and_keeps_the_order() {
        let mut row = vec![1.0, 3.0, 2.0, 1000.0];
        softmax(&mut row);
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!(row[3], 1.0);
        let mut row = vec![0.0, 1.0];
        softmax(&mut row);
        assert!((row[1] / row[0] - std::f32::consts::E).abs() < 1e-5);
    }
}

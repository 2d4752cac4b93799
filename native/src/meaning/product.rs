//! The product of a query with a vector of the store, both in codes (store.rs, `quantize`):
//! integer sums, so every instruction set gives the same value to the bit. With AVX-512 VNNI a
//! step multiplies 64 codes (`vpdpbusd`), with AVX2 16, else the compiler's lanes.

use crate::meaning::DIMENSIONS;

// Every product steps over whole chunks of 64 or 16 codes.
const _: () = assert!(DIMENSIONS.is_multiple_of(64));

/// A query's codes in the forms the products read, and the product the processor runs best.
pub struct QueryCodes {
    /// Widened to i16, for the portable and the AVX2 product.
    widened: Vec<i16>,
    /// Offset by 128 into unsigned bytes, for VNNI, which multiplies unsigned bytes by signed
    /// ones: Σ (q + 128)·v − 128·Σ v = Σ q·v.
    offset: Vec<u8>,
    product: fn(&QueryCodes, &[i8]) -> i32,
}

impl QueryCodes {
    /// A query's codes (each in -127..=127, as `quantize` makes them).
    pub fn new(codes: &[i8]) -> QueryCodes {
        QueryCodes {
            widened: codes.iter().map(|&c| i16::from(c)).collect(),
            offset: codes.iter().map(|&c| (i16::from(c) + 128) as u8).collect(),
            product: product_here(),
        }
    }

    /// The codes, widened.
    pub fn codes(&self) -> &[i16] {
        &self.widened
    }

    /// The product with a vector's codes (as many as the query's).
    #[inline]
    pub fn dot(&self, vector: &[i8]) -> i32 {
        (self.product)(self, vector)
    }
}

/// Whether this processor has what `dot_vnni` runs on: AVX-512 F, BW and VNNI.
#[cfg(target_arch = "x86_64")]
fn has_vnni() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vnni")
}

/// The product this processor runs best, asked once per query.
fn product_here() -> fn(&QueryCodes, &[i8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_vnni() {
            return |query, vector| {
                // SAFETY: the processor has AVX-512 F, BW and VNNI, checked above.
                unsafe { dot_vnni(&query.offset, vector) }
            };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return |query, vector| {
                // SAFETY: the processor has AVX2, checked above.
                unsafe { dot_avx2(vector, &query.widened) }
            };
        }
    }
    |query, vector| dot(vector, &query.widened)
}

/// The product in AVX-512 VNNI, 64 codes a step: `offset` (the query's codes + 128, unsigned)
/// times `a`'s, four products summed into each of 16 i32 lanes, and `a`'s codes summed alike to
/// take 128 × their sum back out. A lane sums at most 4·255·128 a step, six steps a vector.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn dot_vnni(offset: &[u8], a: &[i8]) -> i32 {
    use std::arch::x86_64::{
        __m512i, _mm512_dpbusd_epi32, _mm512_loadu_si512, _mm512_reduce_add_epi32,
        _mm512_set1_epi8, _mm512_setzero_si512,
    };
    let ones = _mm512_set1_epi8(1);
    let (mut products, mut sums) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    for (q, a) in offset.chunks_exact(64).zip(a.chunks_exact(64)) {
        // SAFETY: each chunk holds 64 bytes; the loads are unaligned.
        let (q, a) = unsafe {
            (
                _mm512_loadu_si512(q.as_ptr().cast::<__m512i>()),
                _mm512_loadu_si512(a.as_ptr().cast::<__m512i>()),
            )
        };
        products = _mm512_dpbusd_epi32(products, q, a);
        sums = _mm512_dpbusd_epi32(sums, ones, a);
    }
    _mm512_reduce_add_epi32(products) - 128 * _mm512_reduce_add_epi32(sums)
}

/// The product in AVX2: each step widens 16 codes of `a` to i16 and multiplies them with 16 of
/// `b`, adding pairs of products into 8 i32 lanes (a pair's sum fits: 2 × 128 × 127 < 2³¹).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_avx2(a: &[i8], b: &[i16]) -> i32 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_add_epi32, _mm256_cvtepi8_epi16, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm_loadu_si128,
    };
    let mut sums = _mm256_setzero_si256();
    for (a, b) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
        // SAFETY: each chunk holds 16 codes (16 bytes of `a`, 32 of `b`); the loads are unaligned.
        let (a, b) = unsafe {
            (
                _mm256_cvtepi8_epi16(_mm_loadu_si128(a.as_ptr().cast::<__m128i>())),
                _mm256_loadu_si256(b.as_ptr().cast::<__m256i>()),
            )
        };
        sums = _mm256_add_epi32(sums, _mm256_madd_epi16(a, b));
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes; the store is unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sums) };
    lanes.iter().sum()
}

/// The product in 16 lanes the compiler keeps in SIMD registers on plain x86-64 (each product
/// fits in an i16: 128 × 127 < 2¹⁵).
fn dot(a: &[i8], b: &[i16]) -> i32 {
    let mut lanes = [0i32; 16];
    for (a, b) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
        for i in 0..16 {
            lanes[i] += i32::from(i16::from(a[i]) * b[i]);
        }
    }
    lanes.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every product this processor has, and the portable one.
    fn products(query: &QueryCodes, vector: &[i8]) -> Vec<i32> {
        let mut all = vec![query.dot(vector), dot(vector, &query.widened)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: checked above.
                all.push(unsafe { dot_avx2(vector, &query.widened) });
            }
            if has_vnni() {
                // SAFETY: checked above.
                all.push(unsafe { dot_vnni(&query.offset, vector) });
            }
        }
        all
    }

    #[test]
    fn every_product_gives_the_exact_sum() {
        let spread = |step: usize| -> Vec<i8> {
            (0..DIMENSIONS)
                .map(|i| ((i * step) % 255) as i32 - 127)
                .map(|x| x as i8)
                .collect()
        };
        let cases = [
            (spread(91), spread(37)),
            (vec![-127; DIMENSIONS], vec![-127; DIMENSIONS]),
            (vec![127; DIMENSIONS], vec![-127; DIMENSIONS]),
            // A vector's code may be -128 in a damaged record; a query's never is.
            (vec![-127; DIMENSIONS], vec![-128; DIMENSIONS]),
            (vec![0; DIMENSIONS], spread(53)),
        ];
        for (query, vector) in cases {
            let exact: i32 = query
                .iter()
                .zip(&vector)
                .map(|(q, v)| i32::from(*q) * i32::from(*v))
                .sum();
            let codes = QueryCodes::new(&query);
            for product in products(&codes, &vector) {
                assert_eq!(product, exact);
            }
        }
    }
}

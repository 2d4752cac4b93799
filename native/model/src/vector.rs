//! From the model's output to a text's vector: the mean of its tokens' last hidden states, scaled
//! to length 1 (as sentence-transformers pools this model), so that a dot product is the cosine.

/// The mean of `rows` (each `width` floats, laid end to end), scaled to length 1. No rows, or
/// rows that average to zero, give zeros.
pub fn mean_normalized(rows: &[f32], width: usize) -> Vec<f32> {
    let mut sum = vec![0f32; width];
    for row in rows.chunks_exact(width) {
        for (total, value) in sum.iter_mut().zip(row) {
            *total += value;
        }
    }
    // Scaling the sum is scaling the mean: the count cancels out.
    let length = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length > 0.0 {
        for value in &mut sum {
            *value /= length;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_the_rows_then_scales_to_length_one() {
        let v = mean_normalized(&[1.0, 0.0, 3.0, 4.0], 2);
        // mean (2, 2) → (0.7071, 0.7071)
        assert!((v[0] - 0.70710677).abs() < 1e-6 && (v[1] - 0.70710677).abs() < 1e-6);
        let length = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((length - 1.0).abs() < 1e-6);
    }

    #[test]
    fn zeros_stay_zeros() {
        assert_eq!(mean_normalized(&[0.0, 0.0], 2), vec![0.0, 0.0]);
        assert_eq!(mean_normalized(&[], 3), vec![0.0, 0.0, 0.0]);
    }
}

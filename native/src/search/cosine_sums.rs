//! Each session's sum of its messages' cosines with a query (its centroid's cosine, unnormed),
//! added as the units come, a run of one session's messages at a time.

use crate::path_key::ByPathKey;

/// The sums, each added one cosine at a time in the order given, as a map's entries would be
/// (the same sums to the bit), but looking its session up once a run, not once a message: over
/// every message held, the lookups took a third of the pass's own time.
#[derive(Default)]
pub struct CosineSums {
    sums: ByPathKey<f32>,
    run: Option<(u64, f32)>,
}

impl CosineSums {
    pub fn add(&mut self, key: u64, cosine: f32) {
        match &mut self.run {
            Some((run, sum)) if *run == key => *sum += cosine,
            _ => {
                self.end_run();
                self.run = Some((key, self.sums.get(&key).copied().unwrap_or(0.0) + cosine));
            }
        }
    }

    fn end_run(&mut self) {
        if let Some((key, sum)) = self.run.take() {
            self.sums.insert(key, sum);
        }
    }

    /// Each session's sum.
    pub fn sums(mut self) -> ByPathKey<f32> {
        self.end_run();
        self.sums
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_sum_to_the_bit_what_one_at_a_time_sums() {
        // Sessions in runs that come back (another segment), cosines whose order of addition
        // shows in the last bits.
        let units: Vec<(u64, f32)> = (0..200u32)
            .map(|i| {
                (
                    u64::from(i / 7 % 3),
                    1.0 / (1.0 + i as f32) * if i % 2 == 0 { 3.0 } else { -1.0 },
                )
            })
            .collect();
        let mut one_at_a_time: ByPathKey<f32> = ByPathKey::default();
        let mut runs = CosineSums::default();
        for &(key, cosine) in &units {
            *one_at_a_time.entry(key).or_default() += cosine;
            runs.add(key, cosine);
        }
        let runs = runs.sums();
        assert_eq!(runs.len(), 3);
        for (key, sum) in &one_at_a_time {
            assert_eq!(runs[key].to_bits(), sum.to_bits());
        }
    }
}

//! Workload vocabulary (DESIGN.md §6): how numbers are drawn (`Distribution`: sizes, counts,
//! attribute values), which member of a population an operation touches (`Popularity`: key
//! picks, an index in 0..n) and how a request rate moves over time (`RateShape`).
//!
//! Every draw is a pure function of `(seed, stream, index)`: draw #i of a stream can be computed
//! without drawing #0..i, so runs reproduce byte for byte and the simulator needs no RNG state.
//! Each draw seeds its own small generator ([`Draw`]) from the triple: its words are keyheat's
//! stable hash (`hash::combine`, then SplitMix64's finalizer over a counter), the same on every
//! platform, and rand's traits and rand_distr's distributions (Zipf by rejection-inversion,
//! normal, exponential, uniform) sample from it. A draw that needs several numbers (a rejection
//! loop, a weighted choice and then its branch) takes the generator's next words, or a child
//! generator for a branch. This module never reads a clock and never keeps state between draws.
//! `Distribution::sampler` and `Popularity::picker` only precompute constants (Zipf's), for hot
//! loops; they draw exactly what the plain calls draw.
//!
//! The types deserialize from RON as scenario files write them: `Uniform(1, 100)`,
//! `Normal(mean: 800, sd: 200)`, `Zipf(s: 0.99)`, `Hotspot(data: 0.2, ops: 0.8)`,
//! `Weighted([(3.0, Fixed(1)), (1.0, Uniform(2, 9))])`, `Diurnal(peak_hour: 20, factor: 3)`.

mod distribution;
mod popularity;
mod rate;

use std::convert::Infallible;

pub use distribution::{Distribution, Quick, Sampler};
pub use popularity::{Picker, Popularity};
pub use rate::{RateShape, rate_at};

use super::hash::{combine, combine_more, mix64};

/// The generator of one draw: the words of `(seed, stream, index)` in order. A counter-based
/// generator, so draw #i needs no draws before it, and its words are keyheat's stable hash, so
/// they are the same on every platform and Rust version (rand's own small generators promise
/// neither).
#[derive(Debug, Clone)]
pub(crate) struct Draw {
    key: u64,
    next: u64,
}

impl Draw {
    pub(crate) fn new(seed: u64, stream: u64, index: u64) -> Draw {
        Draw { key: combine(&[seed, stream, index]), next: 0 }
    }

    /// `Draw::new(seed, stream, index)` from the stream's key, `draw_key(seed, stream)`.
    pub(crate) fn keyed(key: u64, index: u64) -> Draw {
        Draw { key: combine_more(key, index), next: 0 }
    }

    /// An independent generator for a sub-distribution (a weighted branch).
    fn child(&self, tag: u64) -> Draw {
        Draw { key: mix64(self.key ^ mix64(tag ^ 0xa076_1d64_78bd_642f)), next: 0 }
    }

    /// The next 64-bit word. Distinct counters give independent words: the key is already
    /// uniform, and the finalizer is a bijection with full avalanche.
    fn word(&mut self) -> u64 {
        self.next += 1;
        mix64(self.key ^ self.next.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }
}

/// What every draw of `(seed, stream)` shares: computed once, it spares each draw two rounds of
/// the hash (`Draw::keyed`, `Sampler::sample_keyed`).
pub fn draw_key(seed: u64, stream: u64) -> u64 {
    combine(&[seed, stream])
}

/// Uniform in [0, 1) from `(seed, stream, index)` (rand's standard f64: 53 random bits).
pub fn unit(seed: u64, stream: u64, index: u64) -> f64 {
    rand::RngExt::random(&mut Draw::new(seed, stream, index))
}

/// Uniform in 0..n (n ≥ 1) from `(seed, stream, index)`, without bias (rand's `random_range`).
pub fn below(seed: u64, stream: u64, index: u64, n: u64) -> u64 {
    rand::RngExt::random_range(&mut Draw::new(seed, stream, index), 0..n.max(1))
}

impl rand::TryRng for Draw {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(u32::try_from(self.word() >> 32).unwrap_or(u32::MAX))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.word())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        rand::rand_core::utils::fill_bytes_via_next_word(dst, || Ok(self.word()))
    }
}

/// Picks a branch of a weighted choice: the first whose running total passes `u × total`.
/// Weights are positive (validated), so some branch always passes before the end.
fn choose<T>(branches: &[(f64, T)], u: f64) -> Option<(usize, &T)> {
    let total: f64 = branches.iter().map(|(w, _)| w).sum();
    let target = u * total;
    let mut running = 0.0;
    for (i, (weight, branch)) in branches.iter().enumerate() {
        running += weight;
        if target < running {
            return Some((i, branch));
        }
    }
    // Rounding can leave `target` a hair above the last running total.
    branches.iter().enumerate().last().map(|(i, (_, b))| (i, b))
}

/// A workload parameter a scenario gave out of its range: the choice as written, with what was
/// expected. The scenario loader places it at the value's line and column.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("{name}{values:?}: expected finite numbers")]
    NotFinite { name: &'static str, values: Vec<f64> },
    #[error("{name}({low}, {high}): the range is empty; expected {name}(low, high) with low < high")]
    EmptyRange { name: &'static str, low: f64, high: f64 },
    #[error("Seq({low}, {high}): expected at most 2^53 values")]
    SeqTooLong { low: f64, high: f64 },
    #[error("Normal(mean: {mean}, sd: {sd}): expected sd > 0")]
    NormalSd { mean: f64, sd: f64 },
    #[error("Zipf(n: 0): expected n ≥ 1")]
    ZipfNoValues,
    #[error("Zipf(n: {n}, s: {s}): expected s > 0 (YCSB uses 0.99)")]
    ZipfValuesExponent { n: u64, s: f64 },
    #[error("Zipf(s: {s}): expected s > 0 (YCSB uses 0.99)")]
    ZipfExponent { s: f64 },
    #[error("Hotspot(data: {data}): expected the hot fraction of the members in (0, 1]")]
    HotspotData { data: f64 },
    #[error("Hotspot(ops: {ops}): expected the fraction of operations on them in [0, 1]")]
    HotspotOps { ops: f64 },
    #[error("Diurnal(peak_hour: {peak_hour}): expected an hour of the day, 0 ≤ h < 24 (UTC)")]
    DiurnalPeakHour { peak_hour: f64 },
    #[error("Diurnal(factor: {factor}): expected a positive multiplier for the peak")]
    DiurnalFactor { factor: f64 },
    #[error("Spike(factor: {factor}): expected a multiplier ≥ 0 (0 is an outage)")]
    SpikeFactor { factor: f64 },
    #[error("Spike(duration: \"0s\"): expected a duration longer than zero")]
    SpikeDuration,
    #[error("Weighted needs at least one (weight, choice) pair")]
    NoChoices,
    /// `number` counts from 1, as a reader counts the list's entries.
    #[error("Weighted choice #{number} has weight {weight}; expected a positive number")]
    Weight { number: usize, weight: f64 },
    #[error("Weighted choice #{number}: {source}")]
    Choice { number: usize, source: Box<ParamError> },
}

/// Shared weight checks for `Weighted` lists.
fn validate_weights<T>(
    branches: &[(f64, T)],
    check: impl Fn(&T) -> Result<(), ParamError>,
) -> Result<(), ParamError> {
    if branches.is_empty() {
        return Err(ParamError::NoChoices);
    }
    for (i, (weight, branch)) in branches.iter().enumerate() {
        let number = i + 1;
        if !(weight.is_finite() && *weight > 0.0) {
            return Err(ParamError::Weight { number, weight: *weight });
        }
        check(branch).map_err(|e| ParamError::Choice { number, source: Box::new(e) })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_pure_functions_of_the_triple() {
        use rand::Rng;
        let word = |seed, stream, index| Draw::new(seed, stream, index).next_u64();
        let mut a = Draw::new(7, 1, 42);
        let first = a.next_u64();
        assert_eq!(first, word(7, 1, 42));
        assert_ne!(first, a.next_u64());
        assert_ne!(first, word(8, 1, 42));
        assert_ne!(first, word(7, 2, 42));
        assert_ne!(first, word(7, 1, 43));
        assert_ne!(a.child(0).next_u64(), a.child(1).next_u64());
    }

    #[test]
    fn units_cover_the_interval_evenly() {
        use rand::RngExt;
        // 100,000 consecutive indexes into 10 bins: each within 4% of 10,000; their mean within
        // 0.5% of 1/2.
        let mut bins = [0u32; 10];
        let mut sum = 0.0;
        for i in 0..100_000 {
            let mut d = Draw::new(1, 0, i);
            let u: f64 = d.random();
            assert!((0.0..1.0).contains(&u));
            sum += u;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // u is in [0, 1)
            let bin = (u * 10.0) as usize;
            bins[bin] += 1;
            assert!(d.random_range(0..3u64) < 3);
        }
        for count in bins {
            assert!((9_600..=10_400).contains(&count), "{bins:?}");
        }
        assert!((sum / 100_000.0 - 0.5).abs() < 0.0025, "{sum}");
    }

    #[test]
    fn chooses_by_weight() {
        let branches = [(3.0, 'a'), (1.0, 'b')];
        let cases = [(0.0, 'a'), (0.74, 'a'), (0.75, 'b'), (0.999_999, 'b')];
        for (u, expected) in cases {
            assert_eq!(choose(&branches, u).map(|(_, c)| *c), Some(expected), "{u}");
        }
        assert_eq!(choose::<char>(&[], 0.5), None);
    }
}

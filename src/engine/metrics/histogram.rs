//! Modelled latencies of an access pattern: a log-bucketed histogram (the HdrHistogram idea) whose
//! percentiles are within [`LatencyHistogram::RELATIVE_ERROR`] (1/128, under 0.8%) of the exact
//! ones, in a fixed 16 KiB, with O(1) recording and exact merging.
//!
//! A value's bucket is read off its `f64` bits: the exponent picks the octave, the top six
//! mantissa bits one of 64 equal slices of it. A slice is at most 1/64 of its lower bound wide,
//! and the slice's midpoint stands for every value in it, so the midpoint is off by at most 1/128.
//! Octaves run from 2^-10 ms (≈ 1 µs) to 2^22 ms (≈ 70 min). Values below share an underflow
//! bucket that stands for 0, values above an overflow bucket that stands for the max; answers are
//! clamped to the exact min and max, so below the range the error is under 2^-10 ms.

use super::MetricsError;

const MIN_EXP: i32 = -10;
const OCTAVES: usize = 32;
const SUB_BITS: u32 = 6;
const SUB: usize = 1 << SUB_BITS;
/// Underflow, the octaves' slices, overflow.
const BUCKETS: usize = OCTAVES * SUB + 2;
const MANTISSA_BITS: u32 = 52;

#[derive(Debug, Clone, PartialEq)]
pub struct LatencyHistogram {
    counts: Box<[u64]>,
    count: u64,
    sum: f64,
    min: f64,
    max: f64,
    /// Lowest and highest bucket with a count, so a clear or a scan of a narrow histogram (one
    /// tick's samples) touches only its own span.
    span: Option<(usize, usize)>,
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        LatencyHistogram::new()
    }
}

impl LatencyHistogram {
    /// Worst relative error of a percentile for values in the resolved range.
    pub const RELATIVE_ERROR: f64 = 1.0 / 128.0;
    /// Values from here (inclusive) to [`Self::RESOLVED_TO_MS`] (exclusive) get the relative error.
    pub const RESOLVED_FROM_MS: f64 = 1.0 / 1024.0;
    pub const RESOLVED_TO_MS: f64 = 4_194_304.0;
    /// The counts' fixed allocation.
    pub const HEAP_BYTES: usize = BUCKETS * size_of::<u64>();

    pub fn new() -> LatencyHistogram {
        LatencyHistogram {
            counts: vec![0; BUCKETS].into_boxed_slice(),
            count: 0,
            sum: 0.0,
            min: 0.0,
            max: 0.0,
            span: None,
        }
    }

    /// Records `calls` calls that each took `ms` milliseconds.
    pub fn record(&mut self, ms: f64, calls: u64) -> Result<(), MetricsError> {
        if !ms.is_finite() || ms < 0.0 {
            return Err(MetricsError::BadValue(ms));
        }
        if calls == 0 {
            return Ok(());
        }
        let i = bucket_of(ms);
        self.counts[i] += calls;
        if self.count == 0 {
            (self.min, self.max) = (ms, ms);
        } else {
            (self.min, self.max) = (self.min.min(ms), self.max.max(ms));
        }
        self.count += calls;
        self.sum += ms * calls as f64;
        self.widen(i, i);
        Ok(())
    }

    /// Adds every sample of `other`, as if each had been recorded here.
    pub fn merge(&mut self, other: &LatencyHistogram) {
        let Some((lo, hi)) = other.span else { return };
        for i in lo..=hi {
            self.counts[i] += other.counts[i];
        }
        if self.count == 0 {
            (self.min, self.max) = (other.min, other.max);
        } else {
            (self.min, self.max) = (self.min.min(other.min), self.max.max(other.max));
        }
        self.count += other.count;
        self.sum += other.sum;
        self.widen(lo, hi);
    }

    /// Empties the histogram, in time proportional to the span of buckets it used.
    pub fn clear(&mut self) {
        if let Some((lo, hi)) = self.span.take() {
            self.counts[lo..=hi].fill(0);
        }
        (self.count, self.sum, self.min, self.max) = (0, 0.0, 0.0, 0.0);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn min(&self) -> Option<f64> {
        (self.count > 0).then_some(self.min)
    }

    pub fn max(&self) -> Option<f64> {
        (self.count > 0).then_some(self.max)
    }

    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// The value at quantile `q` (0.5 = median, clamped to 0..=1) by the nearest-rank rule: the
    /// value a sorted list of the samples holds at position [`nearest_rank`]. `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let (lo, hi) = self.span?;
        let rank = nearest_rank(q, self.count);
        if rank == 1 {
            return Some(self.min);
        }
        if rank == self.count {
            return Some(self.max);
        }
        let mut seen = 0;
        for i in lo..=hi {
            seen += self.counts[i];
            if seen >= rank {
                return Some(representative(i).clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }

    pub fn p50(&self) -> Option<f64> {
        self.quantile(0.5)
    }

    pub fn p99(&self) -> Option<f64> {
        self.quantile(0.99)
    }

    fn widen(&mut self, lo: usize, hi: usize) {
        self.span = Some(match self.span {
            None => (lo, hi),
            Some((a, b)) => (a.min(lo), b.max(hi)),
        });
    }
}

/// The 1-based position in the sorted samples that quantile `q` names: ⌈q·n⌉, at least 1. A
/// billionth is taken off q·n first so that 0.99 × 1000, which `f64` computes as 990.000…01, is
/// rank 990 and not 991. Zero for no samples.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // a whole number in 1..=n by then
pub fn nearest_rank(q: f64, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let q = if q.is_nan() { 0.0 } else { q.clamp(0.0, 1.0) };
    (q * n as f64 - 1e-9).ceil().clamp(1.0, n as f64) as u64
}

fn bucket_of(ms: f64) -> usize {
    if ms < LatencyHistogram::RESOLVED_FROM_MS {
        return 0;
    }
    if ms >= LatencyHistogram::RESOLVED_TO_MS {
        return BUCKETS - 1;
    }
    let bits = ms.to_bits();
    // In range, the value is normal and its biased exponent lies in 1023 + MIN_EXP.. + OCTAVES.
    let octave = ((bits >> MANTISSA_BITS) & 0x7ff) - u64::from(1023 - MIN_EXP.unsigned_abs());
    let slice = (bits >> (MANTISSA_BITS - SUB_BITS)) & (SUB as u64 - 1);
    usize::try_from(1 + octave * SUB as u64 + slice).unwrap_or(BUCKETS - 1)
}

/// The value that stands for every value in bucket `i`: its midpoint; 0 for underflow and
/// infinity for overflow, which the caller clamps to the exact min and max.
fn representative(i: usize) -> f64 {
    if i == 0 {
        return 0.0;
    }
    if i == BUCKETS - 1 {
        return f64::INFINITY;
    }
    let (octave, slice) = ((i - 1) / SUB, (i - 1) % SUB);
    let exponent = MIN_EXP + i32::try_from(octave).unwrap_or(0);
    2f64.powi(exponent) * (1.0 + (slice as f64 + 0.5) / SUB as f64)
}

#[cfg(test)]
// Exact comparisons are the point: the figures under test are exact in f32 and f64.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn nearest_rank_follows_the_definition() {
        // (q, n, rank)
        let cases = [
            (0.5, 100, 50),
            (0.99, 100, 99),
            (0.99, 1000, 990),
            (0.999, 1000, 999),
            (1.0, 7, 7),
            (0.0, 7, 1),
            (0.5, 1, 1),
            (0.5, 3, 2),
            (-1.0, 5, 1),
            (2.0, 5, 5),
            (f64::NAN, 5, 1),
            (0.5, 0, 0),
        ];
        for (q, n, rank) in cases {
            assert_eq!(nearest_rank(q, n), rank, "q {q}, n {n}");
        }
    }

    #[test]
    fn buckets_tile_the_range() {
        let cases = [
            (0.0, 0),
            (0.0009, 0),
            (LatencyHistogram::RESOLVED_FROM_MS, 1),
            (1.0, 1 + 10 * SUB),
            (1.5, 1 + 10 * SUB + 32),
            (4_194_303.0, BUCKETS - 2),
            (LatencyHistogram::RESOLVED_TO_MS, BUCKETS - 1),
            (1e12, BUCKETS - 1),
        ];
        for (ms, bucket) in cases {
            assert_eq!(bucket_of(ms), bucket, "{ms} ms");
        }
        for i in 1..BUCKETS {
            assert!(representative(i) > representative(i - 1));
            let rep = representative(i);
            assert_eq!(bucket_of(rep), i, "bucket {i}");
        }
    }

    #[test]
    fn percentiles_of_a_known_list() {
        let mut h = LatencyHistogram::new();
        for ms in 1..=100 {
            h.record(f64::from(ms), 1).unwrap();
        }
        let cases = [(0.0, 1.0), (0.5, 50.0), (0.9, 90.0), (0.99, 99.0), (1.0, 100.0)];
        for (q, exact) in cases {
            let got = h.quantile(q).unwrap();
            assert!((got - exact).abs() <= exact * LatencyHistogram::RELATIVE_ERROR, "q {q}: {got}");
        }
        assert_eq!((h.min(), h.max(), h.mean(), h.count()), (Some(1.0), Some(100.0), Some(50.5), 100));
        // Weighted: 99 calls at 4 ms and one retried call at 250 ms.
        let mut h = LatencyHistogram::new();
        h.record(4.0, 99).unwrap();
        h.record(250.0, 1).unwrap();
        assert!((h.p50().unwrap() - 4.0).abs() <= 4.0 / 128.0);
        assert!((h.p99().unwrap() - 4.0).abs() <= 4.0 / 128.0);
        assert_eq!(h.quantile(1.0), Some(250.0));
    }

    #[test]
    fn empties_and_refusals() {
        let mut h = LatencyHistogram::new();
        assert_eq!((h.p50(), h.max(), h.mean(), h.is_empty()), (None, None, None, true));
        assert_eq!(h.record(-1.0, 1), Err(MetricsError::BadValue(-1.0)));
        assert!(h.record(f64::NAN, 1).is_err());
        h.record(3.0, 0).unwrap();
        assert!(h.is_empty(), "zero calls record nothing");
        h.record(0.0, 2).unwrap();
        h.record(5.0, 1).unwrap();
        // Below the resolved range the error is absolute: under 2^-10 ms.
        assert!(h.p50().unwrap() < LatencyHistogram::RESOLVED_FROM_MS, "{:?}", h.p50());
        assert_eq!((h.quantile(0.0), h.quantile(1.0)), (Some(0.0), Some(5.0)));
        h.clear();
        assert_eq!(h, LatencyHistogram::new());
    }

    fn ms() -> impl Strategy<Value = f64> {
        // Log-uniform from 1 µs to 1,000 s: every octave the histogram resolves.
        (-3.0f64..6.0).prop_map(|e| 10f64.powf(e))
    }

    proptest! {
        #[test]
        fn percentiles_match_a_sorted_list(samples in proptest::collection::vec((ms(), 1u64..4), 1..300)) {
            let mut h = LatencyHistogram::new();
            let mut sorted = Vec::new();
            for &(v, n) in &samples {
                h.record(v, n).unwrap();
                sorted.extend(std::iter::repeat_n(v, usize::try_from(n).unwrap()));
            }
            sorted.sort_by(f64::total_cmp);
            for q in [0.0, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0] {
                let rank = nearest_rank(q, sorted.len() as u64);
                let exact = sorted[usize::try_from(rank).unwrap() - 1];
                let got = h.quantile(q).unwrap();
                prop_assert!(
                    (got - exact).abs() <= exact * LatencyHistogram::RELATIVE_ERROR * (1.0 + 1e-12),
                    "q {}: {} vs {}", q, got, exact
                );
            }
            prop_assert_eq!(h.max(), sorted.last().copied());
        }

        #[test]
        fn merging_equals_recording_everything(
            a in proptest::collection::vec(ms(), 0..100),
            b in proptest::collection::vec(ms(), 0..100),
        ) {
            let mut ha = LatencyHistogram::new();
            let mut hb = LatencyHistogram::new();
            let mut all = LatencyHistogram::new();
            for &v in &a {
                ha.record(v, 1).unwrap();
                all.record(v, 1).unwrap();
            }
            for &v in &b {
                hb.record(v, 1).unwrap();
                all.record(v, 1).unwrap();
            }
            ha.merge(&hb);
            prop_assert_eq!(ha.count(), all.count());
            for q in [0.0, 0.5, 0.99, 1.0] {
                prop_assert_eq!(ha.quantile(q), all.quantile(q));
            }
        }
    }
}

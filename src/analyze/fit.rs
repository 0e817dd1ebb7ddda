//! The figures computed from counts: the item-size histogram, the share of items the busiest
//! partitions hold, and a Zipf exponent fitted to the ranked partition sizes.
//!
//! The Zipf fit is an estimate: ordinary least squares of ln(count) on ln(rank) over the
//! partitions ranked by item count, the exponent being minus the slope. Only ranks whose count is
//! at least [`FIT_MIN_COUNT`] take part (the tail of ones and twos is mostly sampling noise and
//! would flatten the line); when fewer than three do, every rank does. A table whose partitions
//! all hold the same number of items fits 0.

use serde::Serialize;

use crate::engine::store::{READ_UNIT_BYTES, WRITE_UNIT_BYTES};
use crate::engine::value::MAX_ITEM_BYTES;

/// Counts below this are left out of the Zipf fit (see the module documentation).
pub const FIT_MIN_COUNT: u64 = 5;

/// Upper bounds (inclusive, bytes) of the histogram's buckets; one more bucket holds the rest.
/// The first two are the capacity units' sizes, so a bucket tells what a write and a strongly
/// consistent read of its items cost; the last is the item size limit.
pub const BUCKET_BOUNDS: [u64; 6] =
    [WRITE_UNIT_BYTES, READ_UNIT_BYTES, 16 << 10, 64 << 10, 256 << 10, MAX_ITEM_BYTES as u64];

/// One bucket of the item-size histogram.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// The smallest size in the bucket, bytes (exclusive except for 0).
    pub above: u64,
    /// The largest, inclusive; `None` for the last bucket (over the item size limit).
    pub up_to: Option<u64>,
    pub items: u64,
    pub bytes: u64,
}

/// Empty buckets for [`BUCKET_BOUNDS`].
pub fn buckets() -> Vec<Bucket> {
    let mut above = 0;
    let mut out = Vec::new();
    for bound in BUCKET_BOUNDS {
        out.push(Bucket { above, up_to: Some(bound), items: 0, bytes: 0 });
        above = bound;
    }
    out.push(Bucket { above, up_to: None, items: 0, bytes: 0 });
    out
}

/// The index of the bucket an item of `size` bytes falls in.
pub fn bucket_of(size: u64) -> usize {
    BUCKET_BOUNDS.iter().position(|&bound| size <= bound).unwrap_or(BUCKET_BOUNDS.len())
}

/// How the items spread over partition keys.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skew {
    /// The share of the items the busiest partition holds.
    pub top_partition_share: f64,
    /// The share the busiest 1% of partitions hold (at least one partition).
    pub top_1pct_share: f64,
    /// The share the busiest 10% hold (at least one partition).
    pub top_10pct_share: f64,
    /// The fitted Zipf exponent; `None` with fewer than two partitions.
    pub zipf_s: Option<f64>,
}

impl Skew {
    /// From item counts per partition sorted from the largest down.
    pub fn of(ranked: &[u64]) -> Skew {
        Skew {
            top_partition_share: top_share(ranked, 0.0),
            top_1pct_share: top_share(ranked, 0.01),
            top_10pct_share: top_share(ranked, 0.10),
            zipf_s: zipf_exponent(ranked),
        }
    }
}

/// The share of the total the first `fraction` of `ranked` holds (at least its first entry).
pub fn top_share(ranked: &[u64], fraction: f64) -> f64 {
    let total: u64 = ranked.iter().sum();
    if total == 0 {
        return 0.0;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = ((ranked.len() as f64 * fraction).ceil() as usize).clamp(1, ranked.len());
    ranked[..n].iter().sum::<u64>() as f64 / total as f64
}

/// The Zipf exponent fitted to `ranked` (counts from the largest down), as the module
/// documentation says; `None` when fewer than two ranks hold anything.
pub fn zipf_exponent(ranked: &[u64]) -> Option<f64> {
    let heavy = ranked.iter().take_while(|&&c| c >= FIT_MIN_COUNT).count();
    let used = if heavy >= 3 { heavy } else { ranked.iter().take_while(|&&c| c > 0).count() };
    if used < 2 {
        return None;
    }
    let points: Vec<(f64, f64)> =
        ranked[..used].iter().enumerate().map(|(i, &c)| (((i + 1) as f64).ln(), (c as f64).ln())).collect();
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    let sxx: f64 = points.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    // Counts sorted from the largest down never rise, so the slope is ≤ 0 (a flat line may come
    // out a hair above, or as -0.0): both read as 0.
    let s = -sxy / sxx;
    Some(if s > 0.0 { s } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::workload::Popularity;

    fn ranked(mut counts: Vec<u64>) -> Vec<u64> {
        counts.sort_unstable_by(|a, b| b.cmp(a));
        counts
    }

    #[test]
    fn sizes_fall_in_the_buckets_the_capacity_units_draw() {
        // (size, bucket)
        let cases = [(0, 0), (1024, 0), (1025, 1), (4096, 1), (4097, 2), (409_600, 5), (409_601, 6)];
        for (size, bucket) in cases {
            assert_eq!(bucket_of(size), bucket, "{size} bytes");
        }
        let all = buckets();
        assert_eq!(all.len(), 7);
        assert_eq!((all[1].above, all[1].up_to), (1024, Some(4096)));
        assert_eq!((all[6].above, all[6].up_to), (409_600, None));
    }

    #[test]
    fn top_shares_take_at_least_one_partition() {
        // (counts, fraction, share)
        let cases: [(&[u64], f64, f64); 5] = [
            (&[50, 30, 20], 0.0, 0.5),
            (&[50, 30, 20], 0.01, 0.5),
            (&[50, 30, 20], 0.5, 0.8),
            (&[1; 200], 0.01, 0.01),
            (&[], 0.1, 0.0),
        ];
        for (counts, fraction, share) in cases {
            assert!((top_share(counts, fraction) - share).abs() < 1e-12, "{counts:?} {fraction}");
        }
    }

    #[test]
    fn fits_exact_power_laws_and_flat_tables() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let law = |s: f64| (1..=500).map(|r| (1e6 / f64::from(r).powf(s)).round() as u64).collect::<Vec<_>>();
        // (counts, exponent)
        let cases =
            [(law(0.8), Some(0.8)), (law(1.5), Some(1.5)), (vec![7; 100], Some(0.0)), (vec![3], None)];
        for (counts, expected) in cases {
            let got = zipf_exponent(&counts);
            match (got, expected) {
                (Some(g), Some(e)) => assert!((g - e).abs() < 0.01, "fitted {g}, expected {e}"),
                _ => assert_eq!(got, expected),
            }
        }
    }

    #[test]
    fn recovers_the_exponent_of_a_generated_zipf_sample() {
        // 200,000 picks of 1,000 keys under Zipf(1.0), drawn as the workload draws them.
        let picker = Popularity::Zipf { s: 1.0, scrambled: true }.picker(1000);
        let mut counts = vec![0u64; 1000];
        for i in 0..200_000 {
            let key = picker.pick(7, 0, i).expect("a population of 1,000 has members");
            counts[usize::try_from(key).unwrap()] += 1;
        }
        let s = zipf_exponent(&ranked(counts)).unwrap();
        assert!((s - 1.0).abs() < 0.1, "fitted s = {s}");
    }
}

//! Exact comparisons are the point: the figures under test are exact in f32 and f64.
#![allow(clippy::float_cmp)]

use super::*;
use proptest::prelude::*;

const YEAR_OF_MINUTES: u32 = 365 * 24 * 60;

fn counter(points: &[(u32, f64)]) -> Series {
    let mut s = Series::new(Kind::Counter);
    for &(t, v) in points {
        s.push(Tick(t), v).unwrap();
    }
    s
}

fn every_tick(n: u32, value: impl Fn(u32) -> f64) -> Series {
    let mut s = Series::new(Kind::Counter);
    for t in 0..n {
        s.push(Tick(t), value(t)).unwrap();
    }
    s
}

#[test]
fn columns_split_evenly() {
    // (start, end, columns wanted, the columns made)
    let cases: [(u32, u32, usize, &[Range<u32>]); 6] = [
        (0, 10, 5, &[0..2, 2..4, 4..6, 6..8, 8..10]),
        (0, 10, 3, &[0..3, 3..6, 6..10]),
        (5, 8, 10, &[5..6, 6..7, 7..8]),
        (0, 0, 4, &[]),
        (9, 3, 4, &[]),
        (0, 100, 0, &[]),
    ];
    for (start, end, cols, expected) in cases {
        let got: Vec<_> = columns(Tick(start)..Tick(end), cols).map(|c| c.start.0..c.end.0).collect();
        assert_eq!(got, expected, "{start}..{end} in {cols}");
    }
}

#[test]
fn recent_window_is_exact() {
    // Ticks 0..200 with value t + 1: the last 64 (136..=199) are exact, older ones only bucketed.
    let s = every_tick(200, |t| f64::from(t + 1));
    let cases =
        [(199, Some(200.0)), (136, Some(137.0)), (135, None), (0, None), (200, Some(0.0)), (9999, Some(0.0))];
    for (t, expected) in cases {
        assert_eq!(s.value_at(Tick(t)), expected, "tick {t}");
    }
    // A series that starts late reads zero before its first push, exactly.
    let late = counter(&[(500, 2.0), (510, 3.0)]);
    let cases = [
        (0, Some(0.0)),
        (499, Some(0.0)),
        (500, Some(2.0)),
        (505, Some(0.0)),
        (510, Some(3.0)),
        (511, Some(0.0)),
    ];
    for (t, expected) in cases {
        assert_eq!(late.value_at(Tick(t)), expected, "tick {t}");
    }
    let columns = late.resample(Tick(498)..Tick(512), 14);
    let values: Vec<f64> = columns.iter().map(|c| c.value).collect();
    assert_eq!(values, [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0]);
}

#[test]
fn bucket_width_doubles_with_the_span() {
    // (first tick, ticks pushed, expected width, expected buckets used)
    let cases = [
        (0, 1, 1, 1),
        (0, 64, 1, 64),
        (0, 65, 2, 33),
        (0, 128, 2, 64),
        (0, 129, 4, 33),
        (0, 4096, 64, 64),
        (1000, 64, 1, 64),
        // Aligned buckets: ticks 1000..1064 fall in 2-tick buckets 500..532.
        (1000, 65, 2, 33),
        (0, YEAR_OF_MINUTES, 16_384, 33),
    ];
    for (first, n, width, used) in cases {
        let mut s = Series::new(Kind::Counter);
        for t in first..first + n {
            s.push(Tick(t), 1.0).unwrap();
        }
        assert_eq!((s.bucket_width(), s.history.len()), (width, used), "{n} ticks from {first}");
        assert!(s.history.capacity() <= HISTORY_BUCKETS);
    }
}

#[test]
fn peaks_survive_downsampling() {
    let spike = 12_345;
    let s = every_tick(YEAR_OF_MINUTES, |t| if t == spike { 1000.0 } else { 1.0 });
    assert_eq!(s.peak(), Some(Peak { tick: Tick(spike), value: 1000.0 }));
    let range = Tick(0)..Tick(YEAR_OF_MINUTES);
    let cols = s.resample(range.clone(), 100);
    // The spike's bucket (16,384 ticks) is wider than a column (5,256): every column it
    // touches shows its peak, none shows less.
    let width = s.bucket_width();
    let bucket = u64::from(spike) / width * width..(u64::from(spike) / width + 1) * width;
    for (i, (c, span)) in cols.iter().zip(columns(range, 100)).enumerate() {
        let touches = u64::from(span.start.0) < bucket.end && bucket.start < u64::from(span.end.0);
        assert_eq!(c.max, if touches { 1000.0 } else { 1.0 }, "column {i}");
        // Means are not peaks: a column sums its ticks, it does not multiply the peak.
        assert!(c.value < 7000.0, "{c:?}");
    }
    // Where the spike is still in the recent ring, it stays in its own column.
    let recent = every_tick(1000, |t| if t == 990 { 1000.0 } else { 1.0 });
    let cols = recent.resample(Tick(980)..Tick(1000), 20);
    let maxes: Vec<f64> = cols.iter().map(|c| c.max).collect();
    assert_eq!(maxes.iter().filter(|&&m| m == 1000.0).count(), 1);
    assert_eq!(maxes[10], 1000.0);
}

#[test]
fn totals_are_exact_across_compaction() {
    // Integer amounts keep every f32 bucket sum exact, so the columns must add up exactly.
    for n in [1, 63, 64, 65, 1000, 100_000] {
        let s = every_tick(n, |t| f64::from((t * 7919) % 13));
        let expected: f64 = (0..n).map(|t| f64::from((t * 7919) % 13)).sum();
        assert_eq!(s.total(), expected, "{n} ticks");
        for cols in [1, 7, 64, 100, 1000] {
            let sum: f64 = s.resample(Tick(0)..Tick(n + 10), cols).iter().map(|c| c.value).sum();
            assert!(
                (sum - expected).abs() <= expected * 1e-12,
                "{n} ticks, {cols} columns: {sum} vs {expected}"
            );
        }
    }
}

#[test]
fn gauges_hold_their_level() {
    let mut s = Series::new(Kind::Gauge);
    for (t, v) in [(10, 100.0), (20, 250.0), (20, 300.0), (40, 120.0), (41, 0.0)] {
        s.push(Tick(t), v).unwrap();
    }
    let cases =
        [(0, 0.0), (10, 100.0), (19, 100.0), (20, 300.0), (39, 300.0), (40, 120.0), (41, 0.0), (500, 0.0)];
    for (t, expected) in cases {
        assert_eq!(s.value_at(Tick(t)), Some(expected), "tick {t}");
    }
    assert_eq!(s.total(), 0.0, "a gauge's total is its current level");
    assert_eq!(s.peak(), Some(Peak { tick: Tick(20), value: 300.0 }));
    let cols = s.resample(Tick(0)..Tick(50), 5);
    let expected = [(0.0, 0.0), (100.0, 100.0), (300.0, 300.0), (300.0, 300.0), (0.0, 120.0)];
    for (c, (value, max)) in cols.iter().zip(expected) {
        assert_eq!((c.value, c.max), (value, max));
    }
}

#[test]
fn gauges_hold_across_compaction() {
    // Bytes growing by 1 KB every 100th tick of a year, then a TTL sweep halves it.
    let mut s = Series::new(Kind::Gauge);
    let mut level = 0.0;
    for t in (0..YEAR_OF_MINUTES).step_by(100) {
        level += 1024.0;
        s.push(Tick(t), level).unwrap();
    }
    s.push(Tick(YEAR_OF_MINUTES), level / 2.0).unwrap();
    let cols = s.resample(Tick(0)..Tick(YEAR_OF_MINUTES + 1), 12);
    for pair in cols[..11].windows(2) {
        assert!(pair[1].value > pair[0].value, "{pair:?}");
    }
    assert_eq!(cols[11].value, level / 2.0);
    assert_eq!(cols[11].max, level);
    assert_eq!(s.peak().unwrap().value, level);
}

#[test]
fn rejects_bad_pushes() {
    let mut s = counter(&[(10, 1.0)]);
    let cases = [
        (9, 1.0, MetricsError::OutOfOrder { tick: Tick(9), last: Tick(10) }),
        (11, -1.0, MetricsError::BadValue(-1.0)),
        (11, f64::INFINITY, MetricsError::BadValue(f64::INFINITY)),
    ];
    for (t, v, error) in cases {
        assert_eq!(s.push(Tick(t), v), Err(error));
    }
    assert!(matches!(s.push(Tick(11), f64::NAN), Err(MetricsError::BadValue(_))));
    assert_eq!(s.total(), 1.0, "a refused push changes nothing");
    // The last tick numbers are ordinary ticks.
    let mut end = counter(&[(u32::MAX - 200, 1.0), (u32::MAX - 1, 2.0)]);
    end.push(Tick(u32::MAX), 3.0).unwrap();
    assert_eq!((end.total(), end.value_at(Tick(u32::MAX))), (6.0, Some(3.0)));
    let sum: f64 = end.resample(Tick(0)..Tick(u32::MAX), 10).iter().map(|c| c.value).sum();
    assert_eq!(sum, 3.0, "the range's end is exclusive: tick 2^32 − 1 lies outside");
    // The same tick again adds to it.
    s.push(Tick(10), 2.5).unwrap();
    assert_eq!((s.value_at(Tick(10)), s.peak().unwrap().value), (Some(3.5), 3.5));
}

#[test]
fn storable_takes_finite_values_of_zero_or_more() {
    let cases = [
        (0.0, true),
        (-0.0, true),
        (f64::MIN_POSITIVE / 2.0, true),
        (1.5, true),
        (f64::MAX, true),
        (f64::INFINITY, false),
        (f64::NEG_INFINITY, false),
        (f64::NAN, false),
        (-f64::NAN, false),
        (-f64::MIN_POSITIVE / 2.0, false),
        (-1.0, false),
        (f64::MIN, false),
    ];
    for (value, ok) in cases {
        assert_eq!(storable(value), ok, "{value:?}");
        assert_eq!(storable(value), value.is_finite() && value >= 0.0, "{value:?}, as the float tests say");
    }
}

#[test]
fn memory_bound_fits_a_year_of_a_hundred_thousand_partitions() {
    // 96 inline + 64 × 4 ring + 64 × 8 buckets on a 64-bit target.
    assert_eq!(size_of::<Series>(), 96);
    assert_eq!(Series::MAX_BYTES, 864);
    let series = 100_000 * 5;
    assert!(series * Series::MAX_BYTES < 512 << 20, "{} bytes", series * Series::MAX_BYTES);

    // A busy series over a year stays within its bound, and stops allocating.
    let mut s = Series::new(Kind::Counter);
    let mut buffer = None;
    for t in 0..YEAR_OF_MINUTES {
        s.push(Tick(t), 1.0 + f64::from(t % 5)).unwrap();
        if t == YEAR_OF_MINUTES / 2 {
            buffer = Some(s.history.as_ptr());
        }
    }
    assert!(s.heap_bytes() <= Series::MAX_BYTES - size_of::<Series>());
    assert_eq!(buffer, Some(s.history.as_ptr()), "no reallocation in the second half of the year");

    // A partition busy for one stretch of the year costs its ring and a few buckets; one
    // touched now and then across the year costs its bound (idle buckets between are zeros).
    let stretch = counter(&[(300_000, 1.0), (300_001, 4.0), (300_010, 1.0)]);
    assert_eq!(stretch.heap_bytes(), RECENT_TICKS * 4 + 16 * size_of::<Bucket>());
    let scattered = counter(&[(5, 1.0), (200_000, 1.0), (500_000, 1.0)]);
    assert!(scattered.heap_bytes() <= Series::MAX_BYTES - size_of::<Series>());
    assert_eq!(Series::new(Kind::Gauge).heap_bytes(), 0);
}

#[test]
fn an_empty_series_reads_as_zero() {
    let s = Series::new(Kind::Counter);
    assert_eq!((s.total(), s.peak(), s.latest(), s.value_at(Tick(3))), (0.0, None, None, Some(0.0)));
    assert_eq!(s.resample(Tick(0)..Tick(4), 2), vec![Column::default(); 2]);
    let zero = counter(&[(3, 0.0)]);
    assert_eq!((zero.latest(), zero.heap_bytes()), (None, 0), "a counter's zero is not stored");
}

proptest! {
    /// Against a dense vector: columns add up to the total, column peaks never understate the
    /// ticks under them, the highest column peak is the true peak, and exact ticks are exact.
    #[test]
    fn resampling_agrees_with_a_dense_oracle(
        steps in proptest::collection::vec((0u32..300, 1u32..1000), 1..200),
        cols in 1usize..90,
    ) {
        let mut s = Series::new(Kind::Counter);
        let mut dense = Vec::new();
        let mut t = 0u32;
        for (gap, amount) in steps {
            t += gap;
            s.push(Tick(t), f64::from(amount)).unwrap();
            dense.resize(t as usize + 1, 0.0);
            dense[t as usize] += f64::from(amount);
        }
        let end = t + 5;
        dense.resize(end as usize, 0.0);
        let total: f64 = dense.iter().sum();
        prop_assert_eq!(s.total(), total);
        let got = s.resample(Tick(0)..Tick(end), cols);
        let sum: f64 = got.iter().map(|c| c.value).sum();
        prop_assert!((sum - total).abs() <= total * 1e-9, "{} vs {}", sum, total);
        let mut top: f64 = 0.0;
        for (c, span) in got.iter().zip(columns(Tick(0)..Tick(end), cols)) {
            let ticks = &dense[span.start.0 as usize..span.end.0 as usize];
            let true_max = ticks.iter().copied().fold(0.0, f64::max);
            prop_assert!(c.max >= true_max, "{:?} under {}", c, true_max);
            top = top.max(c.max);
        }
        prop_assert_eq!(top, s.peak().unwrap().value);
        for (tick, &v) in dense.iter().enumerate() {
            if let Some(exact) = s.value_at(Tick(u32::try_from(tick).unwrap())) {
                prop_assert_eq!(exact, v, "tick {}", tick);
            }
        }
    }

    /// Gauges against a dense vector of held levels: exact ticks are exact, column peaks never
    /// understate, and a column's level is exact wherever its last tick is.
    #[test]
    fn gauges_agree_with_a_dense_oracle(
        steps in proptest::collection::vec((0u32..300, 0u32..1000), 1..150),
        cols in 1usize..60,
    ) {
        let mut s = Series::new(Kind::Gauge);
        let mut dense: Vec<f64> = Vec::new();
        let mut t = 0u32;
        for (gap, level) in steps {
            t += gap;
            s.push(Tick(t), f64::from(level)).unwrap();
            let held = dense.last().copied().unwrap_or(0.0);
            dense.resize(t as usize, held);
            dense.truncate(t as usize);
            dense.push(f64::from(level));
        }
        let end = t + 40;
        let held = dense.last().copied().unwrap_or(0.0);
        dense.resize(end as usize, held);
        prop_assert_eq!(s.total(), held);
        for (c, span) in s.resample(Tick(0)..Tick(end), cols).iter().zip(columns(Tick(0)..Tick(end), cols)) {
            let ticks = &dense[span.start.0 as usize..span.end.0 as usize];
            prop_assert!(c.max >= ticks.iter().copied().fold(0.0, f64::max), "{:?} under {:?}", c, ticks);
            if let Some(exact) = s.value_at(Tick(span.end.0 - 1)) {
                prop_assert_eq!(c.value, exact);
                prop_assert_eq!(exact, ticks[ticks.len() - 1]);
            }
        }
    }
}

proptest! {
    /// `push`'s shortcut (the same tick, or the next one in the open bucket) leaves a series
    /// exactly as the general path does, for every kind: same ring, buckets, totals and peaks,
    /// bit for bit. Gaps are mostly 0 and 1 (the shortcut's cases), sometimes longer (a bucket
    /// to open, ticks to void or fill, the width to double).
    #[test]
    fn the_push_shortcut_matches_the_general_path(
        kind in prop_oneof![Just(Kind::Counter), Just(Kind::Gauge), Just(Kind::Peak)],
        steps in proptest::collection::vec((0u32..100, 0u32..4000), 1..400),
    ) {
        let mut fast = Series::new(kind);
        let mut general = Series::new(kind);
        let mut t = 0u32;
        for (gap, amount) in steps {
            t += match gap {
                0..60 => 0,
                60..90 => 1,
                90..99 => gap - 88,
                _ => 300,
            };
            // Eighths: fractions that add up in f32 and f64 with rounding, as units do.
            let value = f64::from(amount) / 8.0;
            prop_assert_eq!(fast.push(Tick(t), value), Ok(()));
            if kind == Kind::Gauge || value != 0.0 {
                prop_assert_eq!(general.push_to(t, value), Ok(()));
            }
            prop_assert_eq!(format!("{fast:?}"), format!("{general:?}"), "after tick {}", t);
        }
    }
}

// A peak series (normalized RU): two busy seconds at 100% are 100%, never 200% and never a rate.
#[test]
fn a_peak_keeps_the_largest_tick_in_ticks_buckets_and_columns() {
    let mut s = Series::new(Kind::Peak);
    // Tick 0 pushed twice: the larger stays. Tick 1 idle reads 0, tick 3 is full.
    s.push(Tick(0), 40.0).unwrap();
    s.push(Tick(0), 25.0).unwrap();
    s.push(Tick(2), 60.0).unwrap();
    s.push(Tick(3), 100.0).unwrap();
    s.push(Tick(3), 0.0).unwrap();
    assert_eq!((s.total(), s.peak().map(|p| (p.tick, p.value))), (100.0, Some((Tick(3), 100.0))));
    assert_eq!(s.value_at(Tick(0)), Some(40.0));
    assert_eq!(s.value_at(Tick(1)), Some(0.0));
    assert_eq!(s.value_at(Tick(9)), Some(0.0), "no level holds after the last tick");
    // (columns over ticks 0..6, each column's value and max)
    let cases: [(usize, &[(f64, f64)]); 3] = [
        (1, &[(100.0, 100.0)]),
        (2, &[(60.0, 60.0), (100.0, 100.0)]),
        (6, &[(40.0, 40.0), (0.0, 0.0), (60.0, 60.0), (100.0, 100.0), (0.0, 0.0), (0.0, 0.0)]),
    ];
    for (cols, want) in cases {
        let got: Vec<(f64, f64)> =
            s.resample(Tick(0)..Tick(6), cols).iter().map(|c| (c.value, c.max)).collect();
        assert_eq!(got, want, "{cols} columns");
    }
}

#[test]
fn a_peak_survives_merged_history_buckets_as_a_max() {
    // A year of minutes at 50%, one minute at 100%: buckets merge many times over; no bucket,
    // column or total adds the minutes up.
    let mut s = Series::new(Kind::Peak);
    // Its bucket lies wholly inside column 3 (a bucket straddling two columns shows in both).
    let spike = 230_000;
    for t in 0..YEAR_OF_MINUTES {
        s.push(Tick(t), if t == spike { 100.0 } else { 50.0 }).unwrap();
    }
    assert!(s.bucket_width() > 1);
    assert_eq!(s.total(), 100.0);
    let cols = s.resample(Tick(0)..Tick(YEAR_OF_MINUTES), 8);
    for (i, c) in cols.iter().enumerate() {
        let want = if i == 3 { 100.0 } else { 50.0 };
        assert_eq!((c.value, c.max), (want, want), "column {i}");
    }
}

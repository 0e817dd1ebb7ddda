//! Exact comparisons are the point: the figures under test are exact in f32 and f64.
#![allow(clippy::float_cmp)]

use super::*;
use crate::engine::value::KeyValue;
use proptest::prelude::*;

/// A synthetic partition: its group, key text and cells.
struct Fake {
    group: u16,
    key: SortKey,
    label: String,
    cells: Vec<f32>,
}

fn fake(group: u16, key: &str, cells: &[f32]) -> Fake {
    Fake {
        group,
        key: SortKey::Key(KeyValue::S(key.to_owned())),
        label: key.to_owned(),
        cells: cells.to_vec(),
    }
}

fn build(fakes: &[Fake], rows: usize, order: RowOrdering) -> Result<HeatmapMatrix, MetricsError> {
    let cols = fakes.first().map_or(0, |f| f.cells.len());
    let sources: Vec<SourceRow<'_>> = (0u32..)
        .zip(fakes)
        .map(|(i, f)| SourceRow {
            id: PartitionId(i),
            group: GroupId(f.group),
            label: &f.label,
            key: &f.key,
            heat: f.cells.iter().copied().fold(0.0, f32::max),
        })
        .collect();
    let col_times =
        (0..cols as u64).map(|c| (SimTime::from_secs(60 * c), SimTime::from_secs(60 * (c + 1)))).collect();
    HeatmapMatrix::build(Metric::WriteUnits, order, col_times, &sources, rows, |i, out| {
        out.copy_from_slice(&fakes[i].cells);
    })
}

/// A row budget, the hot keys and their heat, the labels expected.
type Case<'a> = (usize, &'a [(usize, f32)], &'a [&'a str]);

fn labels(m: &HeatmapMatrix) -> Vec<&str> {
    m.rows.iter().map(|r| r.label.as_str()).collect()
}

/// 100 keys `k000..k099` in one group, all at 1 WCU/s except the hot ones.
fn hundred_with_hot(hot: &[(usize, f32)]) -> Vec<Fake> {
    (0..100)
        .map(|i| {
            let v = hot.iter().find(|(h, _)| *h == i).map_or(1.0 + (i % 3) as f32, |&(_, v)| v);
            fake(0, &format!("k{i:03}"), &[v, v / 2.0])
        })
        .collect()
}

#[test]
fn every_partition_keeps_its_row_when_they_fit() {
    let fakes = [fake(0, "b", &[1.0]), fake(0, "a", &[0.0]), fake(0, "c", &[5.0])];
    let m = build(&fakes, 3, RowOrdering::ByKey).unwrap();
    assert_eq!(labels(&m), ["a", "b", "c"]);
    assert!(m.rows.iter().all(|r| !r.is_merged()));
    assert_eq!((m.max, m.cols()), (5.0, 1));
}

#[test]
fn hot_partitions_keep_their_rows() {
    // (row budget, hot keys, expected labels)
    let cases: [Case<'_>; 4] = [
        (
            5,
            &[(17, 900.0), (60, 700.0)],
            &[
                "k000 … k016 (17 partitions)",
                "k017",
                "k018 … k059 (42 partitions)",
                "k060",
                "k061 … k099 (39 partitions)",
            ],
        ),
        // Only room for the hottest: the second stays merged, and its run still shows it.
        (
            4,
            &[(17, 900.0), (60, 700.0)],
            &["k000 … k016 (17 partitions)", "k017", "k018 … k099 (82 partitions)"],
        ),
        // At the edge of the order a kept row costs one row, not two.
        (2, &[(0, 900.0)], &["k000", "k001 … k099 (99 partitions)"]),
        (1, &[(50, 900.0)], &["k000 … k099 (100 partitions)"]),
    ];
    for (rows, hot, expected) in cases {
        let m = build(&hundred_with_hot(hot), rows, RowOrdering::ByKey).unwrap();
        assert_eq!(labels(&m), expected, "{rows} rows");
        assert!(m.rows.len() <= rows);
        let members: usize = m.rows.iter().map(|r| r.members.len()).sum();
        assert_eq!(members, 100);
    }
}

#[test]
fn merged_cells_are_the_members_max() {
    let m = build(&hundred_with_hot(&[(60, 700.0)]), 2, RowOrdering::ByKey).unwrap();
    // Budget 2 cannot split the run in the middle, so k060 merges — and its run shows 700, not a mean.
    assert_eq!(labels(&m), ["k000 … k099 (100 partitions)"]);
    assert_eq!(m.rows[0].cells, [700.0, 350.0]);
    assert_eq!(m.max, 700.0);
}

#[test]
fn groups_never_merge_across_their_border() {
    let mut fakes: Vec<Fake> = (0..10).map(|i| fake(0, &format!("t{i}"), &[1.0])).collect();
    fakes.extend((0..10).map(|i| fake(1, &format!("g{i}"), &[if i == 9 { 800.0 } else { 2.0 }])));
    // Budget 3: one row per group, and the index's hot last key costs one more.
    let m = build(&fakes, 3, RowOrdering::ByKey).unwrap();
    assert_eq!(labels(&m), ["t0 … t9 (10 partitions)", "g0 … g8 (9 partitions)", "g9"]);
    assert_eq!(m.rows.iter().map(|r| r.group).collect::<Vec<_>>(), [GroupId(0), GroupId(1), GroupId(1)]);
    for row in &m.rows {
        assert!(row.members.iter().all(|id| fakes[id.0 as usize].group == row.group.0), "{row:?}");
    }
    assert_eq!(build(&fakes, 1, RowOrdering::ByKey), Err(MetricsError::TooFewRows { groups: 2, rows: 1 }));
    assert_eq!(build(&[], 0, RowOrdering::ByKey).map(|m| m.rows.len()), Ok(0));
}

#[test]
fn orders_by_key_or_by_heat() {
    let fakes = [
        fake(0, "c", &[3.0]),
        fake(0, "a", &[1.0]),
        fake(0, "d", &[0.0]),
        fake(0, "b", &[9.0]),
        fake(1, "z", &[4.0]),
    ];
    let cases: [(RowOrdering, usize, &[&str]); 4] = [
        (RowOrdering::ByKey, 5, &["a", "b", "c", "d", "z"]),
        (RowOrdering::ByHeat, 5, &["b", "c", "a", "d", "z"]),
        // By heat, the cold tail of each group merges.
        (RowOrdering::ByHeat, 3, &["b", "c … d (3 partitions)", "z"]),
        (RowOrdering::ByKey, 3, &["a … d (4 partitions)", "z"]),
    ];
    for (order, rows, expected) in cases {
        let m = build(&fakes, rows, order).unwrap();
        assert_eq!(labels(&m), expected, "{order:?} in {rows}");
    }
}

#[test]
fn layout_is_deterministic_whatever_the_input_order() {
    let fakes = hundred_with_hot(&[(3, 50.0), (70, 50.0), (71, 50.0), (40, 900.0)]);
    let first = build(&fakes, 7, RowOrdering::ByHeat).unwrap();
    let mut reversed: Vec<Fake> = hundred_with_hot(&[(3, 50.0), (70, 50.0), (71, 50.0), (40, 900.0)]);
    reversed.reverse();
    let second = build(&reversed, 7, RowOrdering::ByHeat).unwrap();
    assert_eq!(labels(&first), labels(&second));
    let cells = |m: &HeatmapMatrix| m.rows.iter().map(|r| r.cells.clone()).collect::<Vec<_>>();
    assert_eq!(cells(&first), cells(&second));
    assert_eq!(first, build(&fakes, 7, RowOrdering::ByHeat).unwrap());
}

#[test]
fn colour_scales() {
    let wcu = ColorScale::for_metric(Metric::WriteUnits);
    assert_eq!(wcu, ColorScale::Absolute(1000.0));
    assert_eq!(ColorScale::for_metric(Metric::Throttled), ColorScale::Relative);
    // (scale, value, matrix max, intensity)
    let cases = [
        (wcu, 500.0, 600.0, 0.5),
        (wcu, 1000.0, 1000.0, 1.0),
        (wcu, 2500.0, 2500.0, 1.0),
        (wcu, -3.0, 1.0, 0.0),
        (ColorScale::Relative, 150.0, 600.0, 0.25),
        (ColorScale::Relative, 0.0, 0.0, 0.0),
        (ColorScale::Relative, f32::NAN, 10.0, 0.0),
        (ColorScale::Absolute(0.0), 5.0, 10.0, 0.0),
    ];
    for (scale, value, max, expected) in cases {
        assert_eq!(scale.intensity(value, max), expected, "{scale:?} {value} of {max}");
    }
}

proptest! {
    /// Any heats, groups and budget: at most `rows` rows, every partition in exactly one row of its
    /// own group, and no partition merged while a colder one has a row to itself.
    #[test]
    fn layout_respects_budget_groups_and_heat(
        parts in proptest::collection::vec((0u16..4, 0u32..50, 0.0f32..1000.0), 1..120),
        extra in 0usize..30,
        by_heat in any::<bool>(),
    ) {
        let fakes: Vec<Fake> = parts
            .iter()
            .enumerate()
            .map(|(i, &(g, k, heat))| fake(g, &format!("{k:02}-{i:03}"), &[heat, heat / 3.0]))
            .collect();
        let mut groups: Vec<u16> = parts.iter().map(|p| p.0).collect();
        groups.sort_unstable();
        groups.dedup();
        let rows = groups.len() + extra;
        let order = if by_heat { RowOrdering::ByHeat } else { RowOrdering::ByKey };
        let m = build(&fakes, rows, order).unwrap();
        prop_assert!(m.rows.len() <= rows);
        let mut seen = vec![0; fakes.len()];
        for row in &m.rows {
            for id in &row.members {
                seen[id.0 as usize] += 1;
                prop_assert_eq!(fakes[id.0 as usize].group, row.group.0);
            }
            let expected: Vec<f32> = (0..2)
                .map(|c| row.members.iter().map(|id| fakes[id.0 as usize].cells[c]).fold(0.0, f32::max))
                .collect();
            prop_assert_eq!(&row.cells, &expected);
        }
        prop_assert!(seen.iter().all(|&n| n == 1));
        // Keeping a row costs at most two, so the k hottest always fit: k = (rows − groups) / 2.
        let mut heats: Vec<f32> = fakes.iter().map(|f| f.cells[0]).collect();
        heats.sort_by(|a, b| b.total_cmp(a));
        let k = (rows - groups.len()) / 2;
        let bar = if fakes.len() <= rows { f32::NEG_INFINITY } else { heats[k] };
        for (i, f) in fakes.iter().enumerate() {
            if f.cells[0] > bar {
                let own = m.rows.iter().any(|r| r.members == [PartitionId(u32::try_from(i).unwrap())]);
                prop_assert!(own, "{} ({}) is in the {} hottest, without a row", f.label, f.cells[0], k);
            }
        }
    }
}

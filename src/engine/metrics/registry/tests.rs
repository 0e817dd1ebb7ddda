//! Exact comparisons are the point: the figures under test are exact in f32 and f64.
#![allow(clippy::float_cmp)]

use super::*;
use crate::engine::metrics::{ColorScale, PARTITION_WCU_PER_S, Shape, detect_shapes};
use crate::engine::time::SimDuration;

fn minute_metrics() -> Metrics {
    Metrics::new(Clock::new(SimTime::from_secs(1_700_000_000), SimDuration::from_secs(60)).unwrap())
}

fn table(m: &mut Metrics, name: &str, kind: GroupKind) -> GroupId {
    m.add_group(GroupInfo { name: name.to_owned(), kind }).unwrap()
}

fn logical(m: &mut Metrics, group: GroupId, key: &str) -> PartitionId {
    m.add_partition(RowInfo {
        group,
        layer: Layer::Logical,
        label: key.to_owned(),
        key: SortKey::Key(KeyValue::S(key.to_owned())),
    })
    .unwrap()
}

#[test]
fn records_partitions_and_their_group() {
    let mut m = minute_metrics();
    let t = table(&mut m, "orders", GroupKind::Table);
    let (a, b) = (logical(&mut m, t, "a"), logical(&mut m, t, "b"));
    assert_eq!((a, b), (PartitionId(0), PartitionId(1)));
    // Tick 0: a writes twice (adds up), b once; sizes are set.
    m.record_partition(a, Metric::WriteUnits, 600.0).unwrap();
    m.record_partition(a, Metric::WriteUnits, 600.0).unwrap();
    m.record_partition(b, Metric::WriteUnits, 60.0).unwrap();
    m.record_partition(a, Metric::Bytes, 1000.0).unwrap();
    m.record_partition(b, Metric::Bytes, 500.0).unwrap();
    assert_eq!(m.end_tick(), Ok(Tick(0)));
    // Tick 1 idle, tick 2: a shrinks (a TTL sweep), b grows.
    m.end_tick().unwrap();
    m.record_partition(a, Metric::Bytes, 400.0).unwrap();
    m.record_partition(b, Metric::Bytes, 700.0).unwrap();
    m.record_partition(a, Metric::WriteUnits, 120.0).unwrap();
    m.end_tick().unwrap();
    assert_eq!(m.now(), Tick(3));

    let writes = m.partition_summary(a, Metric::WriteUnits).unwrap();
    let start = m.clock().start();
    assert_eq!(
        writes,
        Summary {
            kind: Kind::Counter,
            total: 1320.0,
            peak: 1200.0,
            peak_per_s: 20.0,
            peak_at: Some(start),
            mean_per_s: 1320.0 / 180.0,
            latest: 120.0,
        }
    );
    let size = m.partition_summary(a, Metric::Bytes).unwrap();
    assert_eq!((size.total, size.peak, size.peak_per_s, size.latest), (400.0, 1000.0, 1000.0, 400.0));
    let group_writes = m.group_summary(t, Layer::Logical, Metric::WriteUnits).unwrap();
    assert_eq!((group_writes.total, group_writes.peak), (1380.0, 1260.0));
    let group_bytes = m.group_series(t, Layer::Logical, Metric::Bytes).unwrap();
    let levels: Vec<f64> = (0..3).map(|t| group_bytes.value_at(Tick(t)).unwrap()).collect();
    assert_eq!(levels, [1500.0, 1500.0, 1100.0]);
    assert_eq!(
        m.group_summary(t, Layer::Physical, Metric::WriteUnits).unwrap().total,
        0.0,
        "layers are summed apart"
    );
}

#[test]
fn patterns_keep_counts_and_latency() {
    let mut m = minute_metrics();
    let get = m.add_pattern("get order").unwrap();
    let scan = m.add_pattern("pending orders").unwrap();
    for tick in 0..10u32 {
        m.record_pattern(get, PatternMetric::Calls, 100.0).unwrap();
        m.record_latency(get, 4.0, 99).unwrap();
        m.record_latency(get, if tick == 7 { 900.0 } else { 30.0 }, 1).unwrap();
        if tick % 5 == 0 {
            m.record_pattern(scan, PatternMetric::Scans, 1.0).unwrap();
            m.record_latency(scan, 2500.0, 1).unwrap();
        }
        m.end_tick().unwrap();
    }
    assert_eq!(m.pattern_summary(get, PatternMetric::Calls).unwrap().total, 1000.0);
    assert_eq!(m.pattern_summary(scan, PatternMetric::Scans).unwrap().total, 2.0);
    let run = m.latency(get).unwrap();
    assert_eq!((run.count(), run.max()), (1000, Some(900.0)));
    assert!((run.p99().unwrap() - 4.0).abs() < 0.05, "{:?}", run.p99());
    // Per tick: p99 of 100 calls is the 99th, still 4 ms; the max shows the slow call at tick 7.
    let max = m.latency_series(get, LatencyStat::Max).unwrap();
    assert_eq!(max.peak().map(|p| (p.tick, p.value)), Some((Tick(7), 900.0)));
    let p99 = m.latency_series(get, LatencyStat::P99).unwrap();
    assert!((p99.peak().unwrap().value - 4.0).abs() < 0.05);
    let scan_p50 = m.latency_series(scan, LatencyStat::P50).unwrap();
    assert_eq!((scan_p50.value_at(Tick(5)), scan_p50.value_at(Tick(6))), (Some(2500.0), Some(0.0)));
    assert_eq!(m.patterns().map(|(_, name)| name).collect::<Vec<_>>(), ["get order", "pending orders"]);
}

#[test]
fn refuses_unknown_ids_and_bad_values() {
    let mut m = minute_metrics();
    let t = table(&mut m, "t", GroupKind::Table);
    let p = logical(&mut m, t, "a");
    let q = m.add_pattern("q").unwrap();
    let cases = [
        (
            m.record_partition(PartitionId(9), Metric::Items, 1.0),
            MetricsError::UnknownPartition(PartitionId(9)),
        ),
        (m.record_lag(GroupId(4), 1.0), MetricsError::UnknownGroup(GroupId(4))),
        (
            m.record_pattern(PatternId(2), PatternMetric::Calls, 1.0),
            MetricsError::UnknownPattern(PatternId(2)),
        ),
        (m.record_latency(PatternId(2), 1.0, 1), MetricsError::UnknownPattern(PatternId(2))),
        (m.record_partition(p, Metric::ReadUnits, -2.0), MetricsError::BadValue(-2.0)),
        (m.record_partition(p, Metric::Bytes, f64::INFINITY), MetricsError::BadValue(f64::INFINITY)),
        (m.record_latency(q, -1.0, 1), MetricsError::BadValue(-1.0)),
    ];
    for (got, expected) in cases {
        assert_eq!(got, Err(expected));
    }
    let orphan =
        RowInfo { group: GroupId(3), layer: Layer::Physical, label: "x".into(), key: SortKey::HashStart(0) };
    assert_eq!(m.add_partition(orphan), Err(MetricsError::UnknownGroup(GroupId(3))));
    assert_eq!(
        m.group_summary(t, Layer::Logical, Metric::ReadUnits).unwrap().total,
        0.0,
        "nothing leaked into the group"
    );
    m.now = u32::MAX;
    assert_eq!(m.end_tick(), Err(MetricsError::ClockOverflow));
    assert_eq!(m.partition_summary(PartitionId(7), Metric::Items), None);
}

#[test]
fn ranks_the_top_partitions() {
    let mut m = minute_metrics();
    let t = table(&mut m, "t", GroupKind::Table);
    let gsi = table(&mut m, "by-status", GroupKind::GlobalIndex);
    let ids: Vec<PartitionId> =
        (0..6).map(|i| logical(&mut m, if i < 4 { t } else { gsi }, &format!("k{i}"))).collect();
    // (partition, write units in tick 0, in tick 1)
    let load = [
        (0, 60.0, 60.0),
        (1, 600.0, 0.0),
        (2, 300.0, 300.0),
        (3, 0.0, 0.0),
        (4, 6000.0, 0.0),
        (5, 300.0, 300.0),
    ];
    for tick in 0..2 {
        for &(i, w0, w1) in &load {
            m.record_partition(ids[i], Metric::WriteUnits, if tick == 0 { w0 } else { w1 }).unwrap();
        }
        m.end_tick().unwrap();
    }
    let top = |group, rank, n| m.top_partitions(Layer::Logical, group, Metric::WriteUnits, rank, n);
    let p = |i: u32| PartitionId(i);
    assert_eq!(top(None, Rank::Total, 3), [(p(4), 6000.0), (p(1), 600.0), (p(2), 600.0)]);
    assert_eq!(top(None, Rank::Peak, 2), [(p(4), 100.0), (p(1), 10.0)]);
    assert_eq!(
        top(Some(t), Rank::Total, 10),
        [(p(1), 600.0), (p(2), 600.0), (p(0), 120.0)],
        "idle k3 is left out"
    );
    assert_eq!(top(Some(gsi), Rank::Peak, 1), [(p(4), 100.0)], "the index's hottest partition");
    assert_eq!(top(None, Rank::Total, 0), []);
    assert!(m.top_partitions(Layer::Physical, None, Metric::WriteUnits, Rank::Total, 5).is_empty());
}

/// A year-like run compressed: each "day" a new time-keyed partition takes all writes; one sensor
/// partition grows without bound; the heatmap names both shapes.
fn time_keyed_run() -> Metrics {
    let mut m = minute_metrics();
    let t = table(&mut m, "readings", GroupKind::Table);
    let days: Vec<PartitionId> =
        (0..12).map(|d| logical(&mut m, t, &format!("2024-01-{:02}", d + 1))).collect();
    let sensor = logical(&mut m, t, "sensor-1");
    for tick in 0..12 * 100u32 {
        let day = days[(tick / 100) as usize];
        m.record_partition(day, Metric::WriteUnits, 55_000.0).unwrap();
        m.record_partition(day, Metric::Bytes, f64::from(tick % 100 + 1) * 1e6).unwrap();
        m.record_partition(sensor, Metric::WriteUnits, 600.0).unwrap();
        m.record_partition(sensor, Metric::Bytes, f64::from(tick + 1) * 4e6).unwrap();
        m.end_tick().unwrap();
    }
    m
}

#[test]
fn heatmap_of_a_monotonic_key_shows_a_diagonal() {
    let m = time_keyed_run();
    let query = HeatmapQuery {
        metric: Metric::WriteUnits,
        layer: Layer::Logical,
        range: Tick(0)..m.now(),
        cols: 12,
        rows: 20,
        order: RowOrdering::ByKey,
    };
    let h = m.heatmap(&query).unwrap();
    assert_eq!((h.rows.len(), h.cols()), (13, 12));
    assert_eq!(h.col_times[0], (m.clock().start(), m.clock().start() + SimDuration::from_secs(100 * 60)));
    // 55,000 WCU in a minute is 916.7 WCU/s: near the 1,000 WCU/s limit, so near full brightness.
    let bright = h.intensity(h.rows[0].cells[0], ColorScale::for_metric(Metric::WriteUnits));
    assert!((f64::from(bright) - 55_000.0 / 60.0 / PARTITION_WCU_PER_S).abs() < 1e-6, "{bright}");
    assert_eq!(detect_shapes(&h, None), [Shape::Diagonal { from_row: 0, to_row: 11, columns: 12 }]);
    // Squeezed into 4 rows, the days merge but the walk across them remains.
    let squeezed = m.heatmap(&HeatmapQuery { rows: 4, ..query.clone() }).unwrap();
    assert!(squeezed.rows.len() <= 4);
    assert!(
        matches!(detect_shapes(&squeezed, None)[..], [Shape::Diagonal { .. }]),
        "{:?}",
        detect_shapes(&squeezed, None)
    );
    assert_eq!(m.heatmap(&HeatmapQuery { layer: Layer::Physical, ..query }).unwrap().rows, []);
}

#[test]
fn heatmap_of_sizes_shows_the_unbounded_partition() {
    let m = time_keyed_run();
    let query = HeatmapQuery {
        metric: Metric::Bytes,
        layer: Layer::Logical,
        range: Tick(0)..m.now(),
        cols: 24,
        rows: 13,
        order: RowOrdering::ByKey,
    };
    let h = m.heatmap(&query).unwrap();
    let sensor = h.rows.iter().position(|r| r.label == "sensor-1").unwrap();
    let shapes = detect_shapes(&h, Some(h.max));
    assert!(
        shapes.iter().any(|s| matches!(s, Shape::WideningBand { row, .. } if *row == sensor)),
        "{shapes:?}"
    );
    assert!(
        !shapes.iter().any(|s| matches!(s, Shape::WideningBand { row, .. } if *row != sensor)),
        "the daily partitions stop growing: {shapes:?}"
    );
}

#[test]
fn same_records_give_the_same_readings() {
    let (a, b) = (time_keyed_run(), time_keyed_run());
    let query = HeatmapQuery {
        metric: Metric::WriteUnits,
        layer: Layer::Logical,
        range: Tick(0)..a.now(),
        cols: 50,
        rows: 6,
        order: RowOrdering::ByHeat,
    };
    assert_eq!(a.heatmap(&query).unwrap(), b.heatmap(&query).unwrap());
    let top = |m: &Metrics| m.top_partitions(Layer::Logical, None, Metric::Bytes, Rank::Peak, 5);
    assert_eq!(top(&a), top(&b));
}

#[test]
fn a_year_of_a_hundred_thousand_partitions_fits() {
    // Worst case per partition: its entry and five full series.
    let per_partition =
        size_of::<PartitionEntry>() + 4 + Metric::COUNT * (Series::MAX_BYTES - size_of::<Series>());
    // 560 (row info and five series) + 4 (group and layer) + 5 × 768 (rings and full histories).
    assert_eq!(per_partition, 4404);
    let bound = 100_000 * per_partition;
    assert!(bound < 512 << 20, "{bound} bytes");

    // A real (small) year: 200 partitions, each busy in a different stretch, at 1-minute ticks.
    let mut m = minute_metrics();
    let t = table(&mut m, "t", GroupKind::Table);
    let ids: Vec<PartitionId> = (0..200).map(|i| logical(&mut m, t, &format!("k{i:03}"))).collect();
    let year: u32 = 365 * 24 * 60;
    for tick in 0..year {
        let busy = ids[usize::try_from(tick / 2628).unwrap() % ids.len()];
        m.record_partition(busy, Metric::ReadUnits, 30.0).unwrap();
        if tick % 60 == 0 {
            m.record_partition(busy, Metric::Items, f64::from(tick / 60)).unwrap();
        }
        m.end_tick().unwrap();
    }
    assert!(
        m.memory_bytes() <= 200 * per_partition + 10 * size_of::<GroupEntry>() + 100_000,
        "{}",
        m.memory_bytes()
    );
    let total: f64 = ids.iter().map(|&id| m.partition_summary(id, Metric::ReadUnits).unwrap().total).sum();
    assert_eq!(total, 30.0 * f64::from(year));
}

// Normalized RU is kept only on a run that asks for it (a Cosmos DB run), and the heatmap
// aggregates its ticks by their maximum: a cell of 5 seconds at 100%, 40% … is 100%.
#[test]
fn normalized_ru_is_a_max_per_cell_and_only_where_tracked() {
    let second = || Metrics::new(Clock::new(SimTime::EPOCH, SimDuration::from_secs(1)).unwrap());
    let mut m = second();
    let t = table(&mut m, "likes", GroupKind::Table);
    let hot = logical(&mut m, t, "COUNTER#stream-001");
    assert!(!m.tracks(Metric::NormalizedRu));
    assert_eq!(
        m.record_partition(hot, Metric::NormalizedRu, 50.0),
        Err(MetricsError::NotTracked(Metric::NormalizedRu))
    );
    assert_eq!(m.partition_series(hot, Metric::NormalizedRu).map(Series::kind), None);
    let query = |ticks: u32, cols: usize| HeatmapQuery {
        metric: Metric::NormalizedRu,
        layer: Layer::Logical,
        range: Tick(0)..Tick(ticks),
        cols,
        rows: 4,
        order: RowOrdering::ByKey,
    };
    assert_eq!(m.heatmap(&query(1, 1)), Err(MetricsError::NotTracked(Metric::NormalizedRu)));
    // Tracking covers the rows added before and after it.
    let untracked_bytes = m.memory_bytes();
    m.track_normalized_ru();
    let cold = logical(&mut m, t, "COUNTER#stream-002");
    assert!(m.tracks(Metric::NormalizedRu) && m.memory_bytes() > untracked_bytes);
    for (hot_pct, cold_pct) in
        [(100.0, 10.0), (40.0, 0.0), (100.0, 20.0), (70.0, 5.0), (90.0, 0.0), (30.0, 15.0)]
    {
        m.record_partition(hot, Metric::NormalizedRu, hot_pct).unwrap();
        m.record_partition(cold, Metric::NormalizedRu, cold_pct).unwrap();
        m.end_tick().unwrap();
    }
    let matrix = m.heatmap(&query(6, 2)).unwrap();
    let cells: Vec<Vec<f32>> = matrix.rows.iter().map(|r| r.cells.clone()).collect();
    assert_eq!(cells, vec![vec![100.0, 90.0], vec![20.0, 15.0]], "the max of each cell's seconds");
    assert_eq!(matrix.max, 100.0);
    assert_eq!(ColorScale::Absolute(100.0).intensity(matrix.rows[0].cells[0], matrix.max), 1.0);
    // The container's own series is the max over its partitions (Azure's container figure).
    let container = m.group_summary(t, Layer::Logical, Metric::NormalizedRu).unwrap();
    assert_eq!((container.total, container.peak_per_s, container.latest), (100.0, 100.0, 30.0));
    let hot_summary = m.partition_summary(hot, Metric::NormalizedRu).unwrap();
    assert_eq!((hot_summary.kind, hot_summary.peak, hot_summary.mean_per_s), (Kind::Peak, 100.0, 100.0));
    assert_eq!(
        m.top_partitions(Layer::Logical, None, Metric::NormalizedRu, Rank::Peak, 2),
        vec![(hot, 100.0), (cold, 20.0)]
    );
}

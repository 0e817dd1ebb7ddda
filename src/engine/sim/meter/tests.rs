#![allow(clippy::float_cmp, reason = "units are exact halves and sums of them: exact comparison is the test")]

use super::*;

/// Keys of a range as (hash, load).
type Keys<'a> = &'a [(u64, f64)];

/// A one-partition meter (1-second ticks) with a provisioned table allowance far above the
/// partition, so only the partition limits.
fn one_partition() -> Meter {
    Meter::new(1, Some([1e9, 1e9]), 1.0, &mut |_| 0)
}

// AWS developer guide, "Best practices for designing and using partition keys effectively": a
// partition serves "up to 3,000 read request units or 1,000 write request units, or a linear
// combination of both" per second.
#[test]
fn a_partition_serves_its_limit_per_second_and_throttles_past_it() {
    let mut m = one_partition();
    // 1,000 WCU in one second: served; the next unit throttles (nothing banked, ever).
    assert_eq!(m.consume(0, WRITE, &[(0, 1000.0)]), Ok(()));
    assert_eq!(m.consume(0, WRITE, &[(0, 1.0)]), Err(Refusal::Partition(0)));
    // The writes took the whole budget: no read fits in the same second either.
    assert_eq!(m.consume(0, READ, &[(0, 0.5)]), Err(Refusal::Partition(0)));
    // A refused request consumes nothing: the next second starts fresh, 3,000 RCU alone.
    assert_eq!(m.consume(1, READ, &[(0, 3000.0)]), Ok(()));
    assert_eq!(m.consume(1, READ, &[(0, 0.5)]), Err(Refusal::Partition(0)));
    assert_eq!(m.consume(2, WRITE, &[(0, 1000.0)]), Ok(()));
    assert!((m.peak(0, WRITE) - 1000.0).abs() < 1e-9);
}

#[test]
fn reads_and_writes_share_one_budget_as_a_linear_combination() {
    // (RCU, WCU) served in one second, and whether it fits: RCU/3000 + WCU/1000 ≤ 1.
    let cases = [
        (2800.0, 900.0, false),
        (1500.0, 500.0, true),
        (1500.0, 501.0, false),
        (2400.0, 200.0, true),
        (0.0, 1000.0, true),
        (3000.0, 0.5, false),
    ];
    for (rcu, wcu, fits) in cases {
        let mut m = one_partition();
        m.consume(0, READ, &[(0, rcu)]).unwrap();
        assert_eq!(m.consume(0, WRITE, &[(0, wcu)]).is_ok(), fits, "{rcu} RCU + {wcu} WCU");
        // The order does not matter.
        let mut m = one_partition();
        m.consume(0, WRITE, &[(0, wcu)]).unwrap();
        assert_eq!(m.consume(0, READ, &[(0, rcu)]).is_ok(), fits, "{wcu} WCU then {rcu} RCU");
    }
}

// AWS developer guide, "Burst capacity", and re:Post "How does DynamoDB handle spiky
// workloads?": burst is unused provisioned table capacity and never lifts a partition past
// 3,000 RCU / 1,000 WCU.
#[test]
fn idle_seconds_never_let_a_partition_exceed_its_limit() {
    let mut m = one_partition();
    m.consume(0, WRITE, &[(0, 400.0)]).unwrap();
    // After 1,000 idle seconds a partition still serves 1,000 WCU a second and no more.
    for t in [1, 1000, 1001] {
        assert_eq!(m.consume(t, WRITE, &[(0, 1000.0)]), Ok(()), "second {t}");
        assert_eq!(m.consume(t, WRITE, &[(0, 1.0)]), Err(Refusal::Partition(0)), "second {t}");
    }
    assert!((m.peak(0, WRITE) - 1000.0).abs() < 1e-9);
}

#[test]
fn a_provisioned_tables_burst_lifts_the_table_not_a_partition() {
    // The table allows 10,000 WCU/s: far more than one key's partition, so only the partition limits.
    let mut m = Meter::new(14, Some([3000.0, 10_000.0]), 1.0, &mut |_| 0);
    for t in 0..300 {
        m.consume(t, WRITE, &[(0, 500.0)]).unwrap();
    }
    // A spike to 1,500 WCU/s on one key: 1,000 served, the rest throttled, whatever was banked.
    assert_eq!(m.consume(300, WRITE, &[(0, 1000.0)]), Ok(()));
    assert_eq!(m.consume(300, WRITE, &[(0, 500.0)]), Err(Refusal::Partition(0)));
    assert!((m.peak(0, WRITE) - 1000.0).abs() < 1e-9);
}

#[test]
fn long_ticks_meter_the_tick_as_a_whole() {
    // A 60-second tick: 60,000 WCU of capacity, as an average.
    let mut m = Meter::new(1, Some([1e9, 1e9]), 60.0, &mut |_| 0);
    assert_eq!(m.consume(0, WRITE, &[(0, 60_000.0)]), Ok(()));
    assert_eq!(m.consume(0, WRITE, &[(0, 1.0)]), Err(Refusal::Partition(0)));
    assert!((m.peak(0, WRITE) - 1000.0).abs() < 1e-9, "peaks are per second");
}

#[test]
fn requests_touching_several_partitions_are_all_or_nothing() {
    let mut m = Meter::new(2, Some([1e9, 1e9]), 1.0, &mut |_| 0);
    m.consume(0, WRITE, &[(1, 990.0)]).unwrap();
    assert_eq!(m.consume(0, WRITE, &[(0, 20.0), (1, 20.0)]), Err(Refusal::Partition(1)));
    // Partition 0 was not charged by the refused request.
    assert_eq!(m.consume(0, WRITE, &[(0, 1000.0)]), Ok(()));
}

// AWS developer guide, "On-demand capacity mode": a new table serves "4,000 write request units
// or 12,000 read request units, or a linear combination of both", and up to double its previous
// peak.
#[test]
fn on_demand_allows_twice_the_previous_peak_and_a_new_peak_waits_30_minutes() {
    let mut m = Meter::new(100, None, 1.0, &mut |_| 0);
    let spread = |units: f64| -> Vec<(usize, f64)> { (0..100).map(|i| (i, units / 100.0)).collect() };
    // A new table: previous peak 2,000 WRU/s, so 4,000 at once.
    assert_eq!(m.consume(0, WRITE, &spread(4000.0)), Ok(()));
    assert_eq!(m.consume(0, WRITE, &spread(1.0)), Err(Refusal::Table));
    // The writes took the whole allowance: reads wait for the next second, then get 12,000.
    assert_eq!(m.consume(0, READ, &spread(1.0)), Err(Refusal::Table));
    assert_eq!(m.consume(1, READ, &spread(12_000.0)), Ok(()));
    assert_eq!(m.consume(1, READ, &spread(1.0)), Err(Refusal::Table));
    // A linear combination: 6,000 RRU leave half the writes.
    assert_eq!(m.consume(2, READ, &spread(6000.0)), Ok(()));
    assert_eq!(m.consume(2, WRITE, &spread(2000.0)), Ok(()));
    assert_eq!(m.consume(2, WRITE, &spread(1.0)), Err(Refusal::Table));
    // Serving 4,000 for a while does not raise the allowance before 30 minutes pass…
    for s in 3..1800 {
        m.consume(s, WRITE, &spread(4000.0)).unwrap();
        assert!(m.consume(s, WRITE, &spread(1.0)).is_err(), "second {s}");
    }
    // …after that the 4,000 peak counts: 8,000 are allowed.
    assert_eq!(m.consume(1801, WRITE, &spread(8000.0)), Ok(()));
    assert!(m.consume(1801, WRITE, &spread(1.0)).is_err());
}

#[test]
fn provisioned_tables_serve_their_rate_plus_banked_capacity() {
    let mut m = Meter::new(4, Some([100.0, 50.0]), 1.0, &mut |_| 0);
    assert_eq!(Meter::initial_partitions(Some([100.0, 50.0])), 1);
    assert_eq!(Meter::initial_partitions(Some([12_000.0, 10_000.0])), 14);
    assert_eq!(Meter::initial_partitions(None), 4);
    assert_eq!(m.consume(0, WRITE, &[(0, 50.0)]), Ok(()));
    assert_eq!(m.consume(0, WRITE, &[(1, 1.0)]), Err(Refusal::Table));
    // Ten idle seconds bank 500 WCU at the table too.
    assert_eq!(m.consume(11, WRITE, &[(0, 550.0)]), Ok(()));
    assert_eq!(m.consume(11, WRITE, &[(1, 1.0)]), Err(Refusal::Table));
}

#[test]
fn gsi_writes_queue_then_push_back_and_the_queue_is_the_lag() {
    let mut m = one_partition();
    let mut done = Vec::new();
    // 1,000 served at once, then 5,000 more queue (5 seconds of capacity), then refusal.
    assert_eq!(m.index_write(0, 0, 0, &[(7, 1000.0, 0)]), Ok(true));
    assert_eq!(m.parts[0].backlog, 0.0);
    for i in 0..5 {
        assert_eq!(m.index_write(0, 100 + i, 0, &[(7, 1000.0, 1 + i)]), Ok(false));
    }
    assert_eq!(m.parts[0].backlog, 5000.0);
    assert!(m.pending(0));
    assert!(!m.can_take(0, 0, 1.0));
    assert_eq!(m.index_write(0, 200, 0, &[(7, 1.0, 9)]), Err(Refusal::Backlog(0)));
    assert!((m.lag_secs(1000) - 0.9).abs() < 1e-9, "the oldest queued write waits since 100 ms");
    // Each second drains a second's capacity; the oldest entry waits until it is drained, and
    // an entry is done only when all of it is applied.
    assert!((m.drain(1, &mut done) - 1000.0).abs() < 1e-9);
    assert_eq!(done, [1]);
    assert_eq!(m.parts[0].backlog, 4000.0);
    assert!((m.lag_secs(3000) - 2.899).abs() < 1e-9);
    // Entries that arrive later wait behind the queue: after a drain, the lag is the age of the
    // oldest one still queued.
    m.drain(2, &mut done);
    assert_eq!(m.index_write(2, 2500, 0, &[(7, 1000.0, 6)]), Ok(false));
    m.enqueue_free(2600, 0, 7, 7);
    for tick in 3..=5 {
        m.drain(tick, &mut done);
    }
    assert_eq!(done, [1, 2, 3, 4, 5]);
    assert!((m.lag_secs(5000) - 2.5).abs() < 1e-9, "{}", m.lag_secs(5000));
    m.drain(6, &mut done);
    assert_eq!(done, [1, 2, 3, 4, 5, 6, 7], "the free write follows the one queued before it");
    assert_eq!((m.parts[0].backlog, m.parts[0].queue.len()), (0.0, 0));
    assert_eq!(m.lag_secs(6000), 0.0);
}

#[test]
fn a_split_takes_the_queued_writes_of_its_keys() {
    let mut m = one_partition();
    let mut done = Vec::new();
    assert_eq!(m.index_write(0, 0, 0, &[(10, 1000.0, 0)]), Ok(true));
    let (low, high) = (10u64, u64::MAX - 10);
    for (k, hash) in [low, high, low, high].into_iter().enumerate() {
        assert_eq!(m.index_write(0, 10, 0, &[(hash, 500.0, k as u64)]), Ok(false));
    }
    m.split(0, 1 << 63, 0, false, 0, (0, 0));
    assert_eq!((m.parts[0].backlog, m.parts[1].backlog), (1000.0, 1000.0));
    // Each half drains its own queue, in order.
    m.drain(1, &mut done);
    assert_eq!(done, [0, 2, 1, 3]);
}

#[test]
fn hot_windows_mark_partitions_for_a_split() {
    let mut m = one_partition();
    // 900 WCU/s (90%) for a whole 300-second window: hot.
    for s in 0..301 {
        m.consume(s, WRITE, &[(0, 900.0)]).unwrap();
    }
    assert!(m.split_candidates().contains(&(0, false)));
    m.split(0, 1 << 63, 301, false, 0, (0, 0));
    assert_eq!((m.parts.len(), m.splits_heat), (2, 1));
    assert_eq!(m.locate(1 << 62), 0);
    assert_eq!(m.locate(3 << 62), 1);
    // 70% is not hot.
    let mut cool = one_partition();
    for s in 0..301 {
        cool.consume(s, WRITE, &[(0, 700.0)]).unwrap();
    }
    assert!(cool.split_candidates().is_empty());
    // Past 10 GB splits for size.
    let mut big = one_partition();
    big.parts[0].bytes = SPLIT_BYTES + 1;
    assert_eq!(big.split_candidates(), vec![(0, true)]);
}

#[test]
fn a_heat_split_isolates_a_dominant_key() {
    // (keys as (hash, load), the boundaries)
    let cases: [(Keys, &[u64]); 5] = [
        (&[(10, 5.0), (20, 1540.0), (30, 5.0)], &[30, 20]),
        (&[(10, 1540.0), (20, 5.0), (30, 5.0)], &[20]),
        (&[(10, 5.0), (20, 5.0), (30, 1540.0)], &[30]),
        (&[(10, 1.0), (20, 1.0), (30, 1.0), (40, 1.0)], &[30]),
        (&[(10, 1540.0)], &[]),
    ];
    for (keys, expected) in cases {
        assert_eq!(heat_split_points(keys), expected, "{keys:?}");
    }
    // A split's new partition has one partition's budget from the next tick, and no more.
    let mut m = one_partition();
    m.consume(0, WRITE, &[(0, 1000.0)]).unwrap();
    m.split(0, 1 << 63, 0, false, 0, (0, 0));
    assert_eq!(m.consume(1, WRITE, &[(1, 1000.0)]), Ok(()));
    assert_eq!(m.consume(1, WRITE, &[(1, 1.0)]), Err(Refusal::Partition(1)));
}

#[test]
fn splits_divide_load_but_never_one_key() {
    // (keys as (hash, load), expected boundary)
    let cases: [(Keys, Option<u64>); 5] = [
        (&[(10, 1.0), (20, 1.0), (30, 1.0), (40, 1.0)], Some(30)),
        (&[(10, 1540.0), (20, 5.0), (30, 5.0)], Some(20)),
        (&[(10, 5.0), (20, 5.0), (30, 1540.0)], Some(30)),
        (&[(10, 1540.0)], None),
        (&[(10, 1540.0), (20, 0.0)], None),
    ];
    for (keys, expected) in cases {
        assert_eq!(split_point(keys), expected, "{keys:?}");
    }
}

/// A Cosmos DB container of `ru` RU/s manual throughput (1-second ticks).
fn container(ru: f64) -> Meter {
    Meter::shared(Throughput::Manual(ru), 1.0, &mut |_| 0)
}

// "Partitioning and horizontal scaling": throughput "is divided evenly among physical
// partitions", each serving at most 10,000 RU/s; "Best practices for scaling provisioned
// throughput": a new manual container gets about one partition per 6,000 RU/s.
#[test]
fn a_container_divides_its_throughput_evenly_among_its_partitions() {
    // (RU/s, partitions at creation, each one's share)
    let cases = [(400.0, 1, 400.0), (18_000.0, 3, 6_000.0), (200_000.0, 34, 200_000.0 / 34.0)];
    for (ru, partitions, share) in cases {
        let m = container(ru);
        assert_eq!(m.parts.len(), partitions, "{ru}");
        assert!((m.share_per_s().unwrap() - share).abs() < 1e-9, "{ru}");
        assert_eq!(m.provisioned_per_s(), Some(ru));
    }
    // DynamoDB's meter has no shares: its partitions' limits are fixed.
    assert_eq!(one_partition().share_per_s(), None);
}

// Request units are one currency: reads and writes share a partition's budget, and a request
// past it is refused (429) while the rest of the container idles ("Diagnose and troubleshoot
// request rate too large (429) exceptions": the budget resets every second).
#[test]
fn a_partition_refuses_past_its_share_while_the_container_has_room() {
    let mut m = container(18_000.0);
    assert_eq!(m.consume(0, WRITE, &[(0, 5_000.0)]), Ok(()));
    assert_eq!(m.consume(0, READ, &[(0, 1_000.0)]), Ok(()));
    assert_eq!(m.consume(0, READ, &[(0, 1.0)]), Err(Refusal::Partition(0)));
    // The other partitions still have their whole shares.
    assert_eq!(m.consume(0, WRITE, &[(1, 6_000.0), (2, 6_000.0)]), Ok(()));
    // A new second, a fresh budget.
    assert_eq!(m.consume(1, WRITE, &[(0, 6_000.0)]), Ok(()));
}

// A request is served while its partition has budget left, and what it takes past the share is
// owed by the next seconds (keyheat's assumption, `Meter::overdraws`): a request costing more than
// a whole second's share still succeeds, and the partition refuses until it has paid it back.
#[test]
fn a_request_past_the_share_is_paid_back_by_the_next_seconds() {
    let mut m = container(18_000.0);
    assert_eq!(m.consume(0, WRITE, &[(0, 15_000.0)]), Ok(()));
    assert_eq!(m.peak_share(0), 1.0, "a second past its share shows 100%");
    // 9,000 RU owed: the next second has nothing left.
    assert_eq!(m.consume(1, READ, &[(0, 1.0)]), Err(Refusal::Partition(0)));
    // 3,000 owed in the second after.
    assert_eq!(m.consume(2, READ, &[(0, 3_000.0)]), Ok(()));
    assert_eq!(m.consume(2, READ, &[(0, 1.0)]), Err(Refusal::Partition(0)));
    // Idle seconds pay back too: a whole share again.
    assert_eq!(m.consume(9, WRITE, &[(0, 6_000.0)]), Ok(()));
    assert_eq!(m.consume(9, WRITE, &[(0, 1.0)]), Err(Refusal::Partition(0)));
    // The other partitions never owed anything.
    assert_eq!(m.consume(1, WRITE, &[(1, 6_000.0)]), Ok(()));
}

// "How to monitor normalized RU/s": the metric is each partition's busiest second against its
// share; a partition answering 429 shows 100%.
#[test]
fn normalized_consumption_is_the_busiest_second_against_the_share() {
    let mut m = container(18_000.0);
    m.consume(0, WRITE, &[(0, 3_000.0), (1, 4_800.0)]).unwrap();
    m.consume(1, WRITE, &[(0, 1_200.0)]).unwrap();
    assert!((m.peak_share(0) - 0.5).abs() < 1e-9);
    assert!((m.peak_share(1) - 0.8).abs() < 1e-9);
    assert_eq!(m.peak_share(2), 0.0);
    // 5,995 RU used, a 10 RU request served on the 5 RU left, and the next one refused: the
    // partition's second was spent.
    m.consume(2, WRITE, &[(2, 5_995.0)]).unwrap();
    m.consume(2, WRITE, &[(2, 10.0)]).unwrap();
    assert!(m.consume(2, WRITE, &[(2, 1.0)]).is_err());
    m.throttled(2);
    assert_eq!(m.peak_share(2), 1.0);
    m.consume(3, READ, &[(2, 1.0)]).unwrap();
    assert_eq!(m.peak_share(2), 1.0, "a peak stays");
}

// The heatmap's normalized RU: per registry tick (here 3 seconds), the busiest second of the
// span against the share, at most 100%; every second counts in one span only, whether it closed
// before the span ended or was still open.
#[test]
fn a_spans_normalized_consumption_is_its_busiest_second_counted_once() {
    let mut m = container(18_000.0);
    // Span 1 (seconds 0–2): 3,000 then 4,800 of 6,000; second 2 idle.
    m.consume(0, WRITE, &[(0, 3_000.0)]).unwrap();
    m.consume(1, READ, &[(0, 4_800.0)]).unwrap();
    assert!((m.take_span_share(0, 2) - 0.8).abs() < 1e-9, "max over seconds, not their sum");
    assert_eq!(m.take_span_share(1, 2), 0.0, "an idle partition");
    // Span 2 (seconds 3–5): 600 in second 3. Second 1's 80% (still open at the last span's
    // end) closes now but was counted already.
    m.consume(3, WRITE, &[(0, 600.0)]).unwrap();
    m.consume(4, WRITE, &[(0, 300.0)]).unwrap();
    assert!((m.take_span_share(0, 5) - 0.1).abs() < 1e-9);
    // Span 3 (seconds 6–8): a request past the share is served on credit, and the span shows
    // 100%, never more; the next span, paying it back, shows what it owed.
    m.consume(6, WRITE, &[(0, 9_000.0)]).unwrap();
    assert_eq!(m.take_span_share(0, 8), 1.0);
    m.consume(8, READ, &[(1, 1.0)]).unwrap();
    assert!((m.take_span_share(1, 8) - 1.0 / 6_000.0).abs() < 1e-12);
    // A refused second is a full one (Azure Monitor shows a partition answering 429 at 100%).
    m.consume(9, WRITE, &[(2, 100.0)]).unwrap();
    m.throttled(2);
    assert_eq!(m.take_span_share(2, 11), 1.0);
    assert_eq!(m.take_span_share(2, 14), 0.0, "the refusal was counted in its own span");
    // The whole run's figure is unchanged by taking spans.
    assert_eq!(m.peak_share(0), 1.0);
}

// Cosmos DB splits a physical partition past 50 GB ("Partitioning and horizontal scaling") and
// never for a hot key: a partition at its share for a whole window is not split.
#[test]
fn a_container_splits_for_size_only() {
    let mut m = container(6_000.0);
    for s in 0..301 {
        m.consume(s, WRITE, &[(0, 6_000.0)]).unwrap();
    }
    assert!(m.split_candidates().is_empty(), "no split for heat");
    m.parts[0].bytes = SPLIT_BYTES + 1;
    assert!(m.split_candidates().is_empty(), "10 GB is DynamoDB's");
    m.parts[0].bytes = cosmos::PHYSICAL_PARTITION_BYTES + 1;
    assert_eq!(m.split_candidates(), vec![(0, true)]);
    // After the split each partition's share is half the container's.
    m.split(0, 1 << 63, 301, true, 0, (0, 0));
    assert!((m.share_per_s().unwrap() - 3_000.0).abs() < 1e-9);
}

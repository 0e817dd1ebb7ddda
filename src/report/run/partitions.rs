//! The Partitions section of a run report: the table's partition counts and splits, and the
//! largest and hottest keys looked for in the table and in every index, each saying where it is;
//! the notes under the partition lists (what "throttled attempts" counts, what a GSI key's write
//! figure is).

use std::fmt::Write as _;

use super::{is_cassandra, load_units, plural, words};
use crate::engine::model::Engine;
use crate::engine::planner::numbers;
use crate::engine::sim::report::{IndexType, PartitionReport, RequestUnitsReport, RunReport};

/// Where a listed partition is, for a reader: "the table" or "index by-score".
pub fn place(p: &PartitionReport, engine: Engine) -> String {
    p.index.as_ref().map_or_else(|| format!("the {}", engine.words().table), |i| format!("index {i}"))
}

/// The listed partition with the highest peak by `measure`, table or index (the simulator lists
/// each group's hottest); the table's on a tie. `None` when nothing was busy.
pub fn hottest(r: &RunReport, measure: fn(&PartitionReport) -> f64) -> Option<&PartitionReport> {
    let mut best: Option<&PartitionReport> = None;
    for p in r.partitions.top.iter().chain(&r.partitions.index_top) {
        if measure(p) > best.map_or(0.0, measure) {
            best = Some(p);
        }
    }
    best
}

/// The largest listed partition, table or index; the table's on a tie.
fn largest(r: &RunReport) -> Option<&PartitionReport> {
    r.partitions.top.iter().chain(&r.partitions.index_top).fold(None, |best, p| match best {
        Some(b) if b.bytes >= p.bytes => Some(b),
        _ => Some(p),
    })
}

/// The Partitions section. Figures of the table alone say "table"; the largest and hottest keys
/// are looked for in the indexes too and say where they are.
pub(crate) fn partition_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let p = &r.partitions;
    let (read, write) = load_units(r.engine);
    let by_cause = if p.splits > 0 {
        format!(": {} for size, {} for heat", p.splits_for_size, p.splits_for_heat)
    } else {
        String::new()
    };
    let refused = if p.heat_splits_refused > 0 {
        format!(
            "; {} refused: one key carried the load",
            plural(p.heat_splits_refused, "heat split", "heat splits")
        )
    } else {
        String::new()
    };
    let splits = format!("{}{by_cause}{refused}", plural(p.splits, "split", "splits"));
    // MongoDB's design is a collection per entity.
    let table = if r.documents.is_some() { "collections" } else { "table" };
    let mut logical = format!("{} in the {table}", numbers::count(p.logical as f64));
    for i in &r.indexes {
        let _ = write!(logical, ", {} in {}", numbers::count(i.partitions as f64), i.name);
    }
    let cassandra = is_cassandra(r.engine);
    // Cassandra lists every table's partitions (keys carry the table's name).
    let at = |p: &PartitionReport| match &p.index {
        None if cassandra => String::new(),
        Some(view) if cassandra => format!(" in view {view}"),
        _ => format!(" in {}", place(p, r.engine)),
    };
    let w = words(r.engine);
    if cassandra {
        logical = numbers::count(p.logical as f64);
    }
    let largest = largest(r).map_or_else(
        || {
            format!(
                "{}, {} (table)",
                numbers::bytes(p.max_bytes as f64),
                plural(p.max_items, w.item, w.items)
            )
        },
        |l| {
            format!(
                "{}, {}: {}{}",
                numbers::bytes(l.bytes as f64),
                plural(l.items, w.item, w.items),
                l.key,
                at(l)
            )
        },
    );
    let hot = |measure: fn(&PartitionReport) -> f64, unit: &str, writes: bool| {
        hottest(r, measure).map_or_else(
            || format!("0 {unit}/s"),
            |h| {
                let queued = if writes && in_gsi(r, h) { GSI_QUEUE } else { "" };
                format!("{} {unit}/s at its peak: {}{}{queued}", numbers::rate(measure(h)), h.key, at(h))
            },
        )
    };
    // MongoDB has no partitions outside a sharded cluster: what keyheat counts there is the
    // distinct key values, each the documents one find by key reads.
    let logical_label = if r.documents.is_some() { "distinct keys" } else { "logical partitions" };
    let mut rows = vec![
        (logical_label, logical),
        // Cassandra places partitions on the ring's nodes, and never splits one.
        if cassandra {
            ("nodes", format!("{} in the ring", numbers::count(p.physical as f64)))
        } else {
            ("physical partitions", format!("{} in the table ({splits})", numbers::count(p.physical as f64)))
        },
        ("largest", largest),
        ("hottest key, reads", hot(|p| p.peak_rcu_per_s, read, false)),
        ("hottest key, writes", hot(|p| p.peak_wcu_per_s, write, true)),
    ];
    if r.documents.is_some() {
        // One replica set holds every collection whole: there are no physical partitions.
        rows.retain(|(label, _)| *label != "physical partitions");
    }
    if let Some(ru) = &r.request_units {
        rows.extend(request_unit_rows(ru));
    } else if p.physical_peak_rcu_per_s > 0.0 || p.physical_peak_wcu_per_s > 0.0 {
        let mut busiest = format!(
            "table {} RCU/s, {} WCU/s",
            numbers::rate(p.physical_peak_rcu_per_s),
            numbers::rate(p.physical_peak_wcu_per_s)
        );
        // A GSI's partitions are metered on their own (its write peak; an LSI uses the table's).
        for i in r.indexes.iter().filter(|i| i.kind == IndexType::Global && i.peak_wcu_per_s > 0.0) {
            let _ = write!(busiest, "; {} {} WCU/s", i.name, numbers::rate(i.peak_wcu_per_s));
        }
        busiest.push_str(" at peak (limits 3,000 / 1,000 each)");
        rows.push(("busiest physical", busiest));
    }
    rows
}

/// Cosmos DB's rows: the busiest physical partition against its share of the throughput (Azure
/// Monitor's normalized RU consumption), and what the container used of what it was given.
fn request_unit_rows(ru: &RequestUnitsReport) -> Vec<(&'static str, String)> {
    let budget = format!(
        "each partition serves {} RU/s: {} RU/s over {}, at most 10,000",
        numbers::rate(ru.partition_ru_per_s),
        numbers::count(ru.provisioned_ru_per_s),
        plural(ru.physical_partitions, "partition", "partitions"),
    );
    let normalized = match ru.normalized_ru_consumption {
        Some(normalized) => {
            let shares = || ru.partitions.iter().filter_map(|p| Some((p, p.normalized_ru_consumption?)));
            let pinned = shares().filter(|(_, n)| *n >= 1.0).count() as u64;
            let busiest = shares()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or_else(String::new, |(p, _)| format!(" ({})", p.range));
            format!(
                "{} at the busiest partition's busiest second{busiest}; {} at 100% ({budget})",
                numbers::percent(normalized),
                plural(pinned, "partition", "partitions"),
            )
        }
        // A rates replay: a busiest second is a maximum of random demand it does not model.
        None => format!(
            "not modelled as rates (a partition's busiest second is a draw of its random demand; {budget})"
        ),
    };
    vec![
        ("normalized RU", normalized),
        (
            "container RU/s",
            format!(
                "{} RU/s on average, {} of the {} provisioned; 429s on {} of requests, {} of responses (retries counted)",
                numbers::rate(ru.mean_ru_per_s),
                numbers::percent(ru.mean_share_of_provisioned),
                numbers::count(ru.provisioned_ru_per_s),
                numbers::percent(ru.share_429),
                numbers::percent(ru.share_429_responses),
            ),
        ),
    ]
}

/// A GSI partition's write figure is the index writes of the table writes that landed, as they
/// landed; the GSI applies them through its own partitions, each at most 1,000 WCU a second,
/// and queues the rest (the busiest physical partition shows what was applied).
const GSI_QUEUE: &str = " (index writes as the table's writes landed; a GSI partition applies at most 1,000 \
                         a second and queues the rest)";

/// Whether a listed partition belongs to a GSI (an LSI's writes are metered with its table's).
fn in_gsi(r: &RunReport, p: &PartitionReport) -> bool {
    p.index
        .as_ref()
        .is_some_and(|name| r.indexes.iter().any(|i| &i.name == name && i.kind == IndexType::Global))
}

/// The note under the table's partitions: what the throttled column counts.
pub(crate) const THROTTLED_LEGEND: &str = "throttled attempts: reads and writes the partition refused, \
                                           every retry counted again (the totals count each throttled request \
                                           once; a Scan page names no key and is counted in the totals only)";

/// Which of the listed partitions a text or Markdown report shows when it has room for `n`:
/// the largest, the busiest for writes, for reads and the most throttled in turn (the first of
/// each, then the second…), so a hot key is never crowded out by large ones; shown in the
/// list's order. Partitions with nothing to show by a measure are not picked by it.
pub fn shown(top: &[PartitionReport], n: usize) -> Vec<&PartitionReport> {
    let measures: [fn(&PartitionReport) -> f64; 4] = [
        |p| p.bytes as f64,
        |p| p.peak_wcu_per_s,
        |p| p.peak_rcu_per_s,
        |p| p.throttled_attempts.unwrap_or(p.throttled_ops) as f64,
    ];
    let ranked: Vec<Vec<usize>> = measures
        .iter()
        .map(|measure| {
            let mut order: Vec<usize> = (0..top.len()).filter(|&i| measure(&top[i]) > 0.0).collect();
            order.sort_by(|&a, &b| measure(&top[b]).total_cmp(&measure(&top[a])).then(a.cmp(&b)));
            order
        })
        .collect();
    let mut picked = vec![false; top.len()];
    let mut count = 0;
    let longest = ranked.iter().map(Vec::len).max().unwrap_or(0);
    'rounds: for rank in 0..longest {
        for order in &ranked {
            if count == n {
                break 'rounds;
            }
            if let Some(&i) = order.get(rank)
                && !picked[i]
            {
                picked[i] = true;
                count += 1;
            }
        }
    }
    top.iter().zip(&picked).filter(|(_, p)| **p).map(|(t, _)| t).collect()
}

/// The note under the indexes' partitions: where their throttles are, and what a GSI
/// partition's write figure is.
pub(crate) fn index_legend(r: &RunReport) -> String {
    if is_cassandra(r.engine) {
        return "A materialized view's partitions: its rows, which the base table's replicas write as the table's writes land (Cassandra never throttles)."
            .to_owned();
    }
    if r.documents.is_some() {
        return "An index's partitions: its entries, which MongoDB writes with each document write (nothing throttles)."
            .to_owned();
    }
    let mut legend = "An index's throttles are counted per index, under Indexes.".to_owned();
    if r.partitions.index_top.iter().any(|p| in_gsi(r, p)) {
        legend.push_str(
            " A GSI partition's WCU/s are its index writes as the table's writes landed; the GSI \
             applies at most 1,000 a second per partition and queues the rest.",
        );
    }
    legend
}

#[cfg(test)]
mod tests {
    use super::*;

    fn partition(key: &str, bytes: u64, rcu: f64, wcu: f64, throttled: u64) -> PartitionReport {
        PartitionReport {
            key: key.to_owned(),
            index: None,
            bytes,
            items: 1,
            peak_rcu_per_s: rcu,
            peak_wcu_per_s: wcu,
            throttled_ops: throttled,
            throttled_attempts: Some(throttled),
        }
    }

    #[test]
    fn a_hot_key_is_shown_however_many_larger_ones_there_are() {
        // practice-shortener: ten new links a little larger than the one hot link everyone reads.
        let mut top: Vec<PartitionReport> =
            (0..10).map(|i| partition(&format!("new-{i}"), 4_477, 0.0, 5.0, 0)).collect();
        top.push(partition("hot", 4_474, 2_786.0, 0.0, 9_000));
        top.push(partition("warm", 4_474, 68.0, 0.0, 0));
        let cases: [(usize, &[&str]); 4] = [
            (1, &["new-0"]),
            (2, &["new-0", "hot"]),
            (3, &["new-0", "new-1", "hot"]),
            (10, &["new-0", "new-1", "new-2", "new-3", "new-4", "new-5", "new-6", "new-7", "hot", "warm"]),
        ];
        for (n, expected) in cases {
            let keys: Vec<&str> = shown(&top, n).iter().map(|p| p.key.as_str()).collect();
            assert_eq!(keys, expected, "room for {n}");
        }
        assert_eq!(shown(&top, 20).len(), top.len(), "room for all shows all");
    }
}

//! The key figures a comparison lines up: each with its JSON key, its label (the table's
//! partition figures say "table" when indexes are compared too), its unit and how it is read
//! from a report.

use super::{Delta, FigureRow};
use crate::engine::goals::GoalUnit;
use crate::engine::model::Engine;
use crate::engine::profile::{Indexes, Metering, Pricing};
use crate::engine::sim::report::{IndexType, RunReport};
use crate::engine::vocabulary::Noun;
use crate::report::run::{charge_units, is_cassandra};

type Extract = fn(&RunReport) -> f64;

/// Which partitions a figure reads: the whole run, the table's alone, or the indexes'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Run,
    /// Labelled as the table's when a run has indexes (its second label).
    Table,
    /// Shown only when a run has indexes.
    Indexes,
}

/// The key figures, in the order printed: key, label, label when indexes are compared too,
/// unit, scope, value.
const FIGURES: &[(&str, &str, &str, GoalUnit, Scope, Extract)] = &[
    ("goals_passed", "goals passed", "", GoalUnit::Count, Scope::Run, |r| {
        r.goals.iter().filter(|g| g.passed()).count() as f64
    }),
    ("monthly_cost_usd", "cost per month", "", GoalUnit::Usd, Scope::Run, |r| r.totals.monthly_cost_usd),
    ("cost_usd", "cost of the run", "", GoalUnit::Usd, Scope::Run, |r| r.totals.cost_usd),
    ("calls", "calls", "", GoalUnit::Count, Scope::Run, |r| r.totals.ops as f64),
    ("requests", "requests", "", GoalUnit::Count, Scope::Run, |r| r.totals.requests as f64),
    ("rcu", "read units (RCU)", "", GoalUnit::Count, Scope::Run, |r| r.totals.rcu),
    ("wcu", "write units (WCU)", "", GoalUnit::Count, Scope::Run, |r| r.totals.wcu),
    ("throttled_ratio", "throttled share", "", GoalUnit::Ratio, Scope::Run, |r| {
        if r.totals.requests == 0 { 0.0 } else { r.totals.throttled_ops as f64 / r.totals.requests as f64 }
    }),
    ("failed_ops", "failed requests", "", GoalUnit::Count, Scope::Run, |r| r.totals.failed_ops as f64),
    ("write_amplification", "write amplification", "", GoalUnit::Factor, Scope::Run, |r| {
        r.totals.write_amplification
    }),
    ("table_bytes", "table size", "", GoalUnit::Bytes, Scope::Run, |r| r.totals.table_bytes as f64),
    ("index_bytes", "index size", "", GoalUnit::Bytes, Scope::Run, |r| r.totals.index_bytes as f64),
    ("max_partition_bytes", "largest partition", "largest (table)", GoalUnit::Bytes, Scope::Table, |r| {
        r.partitions.max_bytes as f64
    }),
    ("max_index_partition_bytes", "", "largest (indexes)", GoalUnit::Bytes, Scope::Indexes, |r| {
        r.indexes.iter().map(|i| i.max_partition_bytes).max().unwrap_or(0) as f64
    }),
    ("max_partition_items", "most items in one", "most items (table)", GoalUnit::Items, Scope::Table, |r| {
        r.partitions.max_items as f64
    }),
    ("logical_partitions", "logical partitions", "logical (table)", GoalUnit::Count, Scope::Table, |r| {
        r.partitions.logical as f64
    }),
    ("physical_partitions", "physical partitions", "physical (table)", GoalUnit::Count, Scope::Table, |r| {
        r.partitions.physical as f64
    }),
    ("peak_rcu_per_s", "hottest key RCU/s", "hot table key RCU/s", GoalUnit::Count, Scope::Table, |r| {
        r.partitions.peak_rcu_per_s
    }),
    ("peak_wcu_per_s", "hottest key WCU/s", "hot table key WCU/s", GoalUnit::Count, Scope::Table, |r| {
        r.partitions.peak_wcu_per_s
    }),
    ("index_peak_rcu_per_s", "", "hot index key RCU/s", GoalUnit::Count, Scope::Indexes, |r| {
        r.partitions.index_top.iter().map(|p| p.peak_rcu_per_s).fold(0.0, f64::max)
    }),
    ("index_peak_wcu_per_s", "", "hot index key WCU/s", GoalUnit::Count, Scope::Indexes, |r| {
        r.partitions.index_top.iter().map(|p| p.peak_wcu_per_s).fold(0.0, f64::max)
    }),
    (
        "physical_peak_rcu_per_s",
        "busiest physical RCU/s",
        "table physical RCU/s",
        GoalUnit::Count,
        Scope::Table,
        |r| r.partitions.physical_peak_rcu_per_s,
    ),
    (
        "physical_peak_wcu_per_s",
        "busiest physical WCU/s",
        "table physical WCU/s",
        GoalUnit::Count,
        Scope::Table,
        |r| r.partitions.physical_peak_wcu_per_s,
    ),
    // A GSI's partitions are metered on their own; an LSI's load is its table's.
    ("index_physical_peak_wcu_per_s", "", "GSI physical WCU/s", GoalUnit::Count, Scope::Indexes, |r| {
        r.indexes.iter().filter(|i| i.kind == IndexType::Global).map(|i| i.peak_wcu_per_s).fold(0.0, f64::max)
    }),
    ("retries", "retries", "", GoalUnit::Count, Scope::Run, |r| r.totals.retries as f64),
];

/// How a store's own reports name its figures: DynamoDB's units and GSIs, Cassandra's reads,
/// rows and views. Any other store, and a comparison across stores, uses the plain labels and
/// puts each store's unit in its cells ("1,200 RU", "166 RCU/s", "3 rows").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Labels {
    DynamoDb,
    Cql,
    Plain,
}

impl Labels {
    fn of(engine: Engine) -> Labels {
        let profile = engine.profile();
        if is_cassandra(engine) {
            Labels::Cql
        } else if profile.metering == Metering::Units && profile.indexes == Indexes::Secondary {
            Labels::DynamoDb
        } else {
            Labels::Plain
        }
    }
}

/// Whether `engine` measures the figure `key`: a store without units has no unit totals, no
/// throttling and no retries; one without a sourced price list shows no cost; only a store
/// with GSIs has GSI partitions.
fn measures(engine: Engine, key: &str) -> bool {
    let profile = engine.profile();
    match key {
        "rcu"
        | "wcu"
        | "physical_peak_rcu_per_s"
        | "physical_peak_wcu_per_s"
        | "throttled_ratio"
        | "retries" => profile.metered(),
        "cost_usd" | "monthly_cost_usd" => profile.pricing != Pricing::Unlisted && profile.metered(),
        "index_physical_peak_wcu_per_s" => profile.metered() && profile.indexes == Indexes::Secondary,
        // Physical partitions are metered ones, or a ring's nodes; a store that meters nothing
        // and is not a ring (one MongoDB replica set) has none to count.
        "physical_partitions" => profile.metered() || profile.ring().is_some(),
        _ => true,
    }
}

/// Whether the figure counts in the store's own units (RCU, RU, reads; partitions or nodes):
/// a delta between two stores would subtract one unit from another, so there is none.
fn in_store_units(key: &str) -> bool {
    matches!(
        key,
        "rcu"
            | "wcu"
            | "peak_rcu_per_s"
            | "peak_wcu_per_s"
            | "index_peak_rcu_per_s"
            | "index_peak_wcu_per_s"
            | "physical_peak_rcu_per_s"
            | "physical_peak_wcu_per_s"
            | "index_physical_peak_wcu_per_s"
            | "physical_partitions"
    )
}

/// A plain label's unit in a cell, for `engine` and the value `value`: `RCU`, `RU/s`, `rows`,
/// `nodes`; `None` where the label says it all (bytes, dollars, a share, a count of calls).
fn cell_unit(key: &str, engine: Engine, value: f64) -> Option<&'static str> {
    let profile = engine.profile();
    let words = profile.words;
    let (read, write) = charge_units(engine);
    match key {
        "rcu" => Some(read),
        "wcu" => Some(write),
        "peak_rcu_per_s" | "index_peak_rcu_per_s" | "physical_peak_rcu_per_s" => Some(words.reads.per_second),
        "peak_wcu_per_s"
        | "index_peak_wcu_per_s"
        | "physical_peak_wcu_per_s"
        | "index_physical_peak_wcu_per_s" => Some(words.writes.per_second),
        "max_partition_items" => Some(words.item.of(value)),
        // The ring's nodes: Cassandra has no partitions of its own to split.
        "physical_partitions" if profile.ring().is_some() => {
            Some(Noun { one: "node", many: "nodes" }.of(value))
        }
        _ => None,
    }
}

/// The plain label of a figure whose cells carry their unit.
fn plain_label(
    key: &'static str,
    label: &'static str,
    indexed_label: &'static str,
    indexed: bool,
    scope: Scope,
) -> &'static str {
    let plain = match (key, indexed) {
        ("rcu", _) => "read units",
        ("wcu", _) => "write units",
        ("max_partition_items", false) => "most in one partition",
        ("max_partition_items", true) => "most in one (table)",
        ("peak_rcu_per_s", false) => "hottest key reads",
        ("peak_wcu_per_s", false) => "hottest key writes",
        ("peak_rcu_per_s", true) => "hot table key reads",
        ("peak_wcu_per_s", true) => "hot table key writes",
        ("index_peak_rcu_per_s", _) => "hot index key reads",
        ("index_peak_wcu_per_s", _) => "hot index key writes",
        ("physical_peak_rcu_per_s", false) => "physical peak reads",
        ("physical_peak_wcu_per_s", false) => "physical peak writes",
        ("physical_peak_rcu_per_s", true) => "table physical reads",
        ("physical_peak_wcu_per_s", true) => "table physical writes",
        ("index_physical_peak_wcu_per_s", _) => "GSI physical writes",
        _ => "",
    };
    match plain {
        "" if indexed && scope != Scope::Run => indexed_label,
        "" => label,
        plain => plain,
    }
}

/// CQL's words: rows, views, reads and writes (operations, not units).
fn cql_label(key: &str, indexed: bool) -> Option<&'static str> {
    match (key, indexed) {
        // The ring's nodes: Cassandra has no partitions of its own to split.
        ("physical_partitions", _) => Some("nodes"),
        ("index_bytes", _) => Some("view size"),
        ("max_index_partition_bytes", _) => Some("largest (views)"),
        ("max_partition_items", false) => Some("most rows in one"),
        ("max_partition_items", true) => Some("most rows (table)"),
        ("peak_rcu_per_s", false) => Some("hottest key reads/s"),
        ("peak_wcu_per_s", false) => Some("hottest key writes/s"),
        ("peak_rcu_per_s", true) => Some("hot table key reads/s"),
        ("peak_wcu_per_s", true) => Some("hot table key writes/s"),
        ("index_peak_rcu_per_s", _) => Some("hot view key reads/s"),
        ("index_peak_wcu_per_s", _) => Some("hot view key writes/s"),
        _ => None,
    }
}

/// The key figures of `reports`, in the order printed. A figure no store of the comparison
/// measures is left out, and a store that does not measure one shows nothing in its cell
/// (units and prices on Cassandra). With indexes, the table's partition figures say so and
/// the indexes' follow them. Runs on one store are labelled in its words (DynamoDB's, CQL's);
/// runs on several, or on another store, get plain labels with each store's unit in its cells,
/// and no delta between two stores' units.
pub(super) fn rows(reports: &[RunReport]) -> Vec<FigureRow> {
    let engines: Vec<Engine> = reports.iter().map(|r| r.engine).collect();
    let Some(&baseline) = engines.first() else { return Vec::new() };
    let labels = if engines.iter().all(|&e| e == baseline) { Labels::of(baseline) } else { Labels::Plain };
    let indexed = reports.iter().any(|r| !r.indexes.is_empty());
    FIGURES
        .iter()
        .filter(|(_, _, _, _, scope, _)| indexed || *scope != Scope::Indexes)
        .filter_map(|&(key, label, indexed_label, unit, scope, extract)| {
            let values: Vec<Option<f64>> =
                reports.iter().map(|r| measures(r.engine, key).then(|| extract(r))).collect();
            if values.iter().all(Option::is_none) {
                return None;
            }
            let (label, unit) = match labels {
                Labels::DynamoDb if indexed && scope != Scope::Run => (indexed_label, unit),
                Labels::DynamoDb => (label, unit),
                Labels::Cql => (
                    cql_label(key, indexed).unwrap_or(if indexed && scope != Scope::Run {
                        indexed_label
                    } else {
                        label
                    }),
                    if unit == GoalUnit::Items { GoalUnit::Rows } else { unit },
                ),
                // The cell says items or rows.
                Labels::Plain => (
                    plain_label(key, label, indexed_label, indexed, scope),
                    if unit == GoalUnit::Items { GoalUnit::Count } else { unit },
                ),
            };
            let deltas = values
                .iter()
                .zip(&engines)
                .map(|(value, &engine)| {
                    let comparable = engine == baseline || !in_store_units(key);
                    values[0].zip(*value).filter(|_| comparable).map(|(b, v)| Delta::new(b, v))
                })
                .collect();
            let units = if labels == Labels::Plain {
                values.iter().zip(&engines).map(|(v, &e)| v.and_then(|v| cell_unit(key, e, v))).collect()
            } else {
                Vec::new()
            };
            Some(FigureRow { key, label, unit, values, deltas, units })
        })
        .collect()
}

//! The key figures a comparison lines up: each with its JSON key, its label (the table's
//! partition figures say "table" when indexes are compared too), its unit and how it is read
//! from a report.

use super::{Delta, FigureRow};
use crate::engine::goals::GoalUnit;
use crate::engine::sim::report::{IndexType, RunReport};
use crate::report::run::is_cassandra;

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

/// The key figures of `reports`, in the order printed: Cassandra leaves out what it does not
/// measure (units, prices); with indexes, the table's partition figures say so and the indexes'
/// follow them.
pub(super) fn rows(reports: &[RunReport]) -> Vec<FigureRow> {
    let cassandra = reports.first().is_some_and(|r| is_cassandra(r.engine));
    // Cassandra has no capacity units and no price: those rows would be zeros.
    // Nor does it throttle or have GSIs.
    let unpriced = [
        "rcu",
        "wcu",
        "cost_usd",
        "monthly_cost_usd",
        "physical_peak_rcu_per_s",
        "physical_peak_wcu_per_s",
        "index_physical_peak_wcu_per_s",
        "throttled_ratio",
        "retries",
    ];
    let indexed = reports.iter().any(|r| !r.indexes.is_empty());
    FIGURES
        .iter()
        .filter(|(key, ..)| !(cassandra && unpriced.contains(key)))
        .filter(|(_, _, _, _, scope, _)| indexed || *scope != Scope::Indexes)
        .map(|&(key, label, indexed_label, unit, scope, extract)| {
            // CQL's words: rows, views, reads and writes (operations, not units).
            let cql_label = match (key, indexed) {
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
            };
            let unit = if cassandra && unit == GoalUnit::Items { GoalUnit::Rows } else { unit };
            let label = match cql_label {
                Some(cql) if cassandra => cql,
                _ if indexed && scope != Scope::Run => indexed_label,
                _ => label,
            };
            let values: Vec<f64> = reports.iter().map(extract).collect();
            let deltas = values.iter().map(|v| Delta::new(values[0], *v)).collect();
            FigureRow { key, label, unit, values, deltas }
        })
        .collect()
}

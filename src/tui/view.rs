//! What the workbench's data panels draw, as plain data: one snapshot per frame, filled by the
//! [`SimDriver`](super::driver::SimDriver) from the running simulation (or by a test by hand).
//! Panels never see the simulator; the simulator never sees a panel.

use crate::engine::metrics::{HeatmapMatrix, Layer, Metric, RowOrdering};
use crate::engine::planner::numbers;
use crate::engine::sim::RunReport;
use crate::engine::time::{SimDuration, SimTime};
use crate::engine::vocabulary::Noun;

/// What the UI wants drawn this frame: the heatmap's metric, layout and size in cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewRequest {
    pub metric: Metric,
    pub layer: Layer,
    pub order: RowOrdering,
    /// Rows the heatmap can show (partitions beyond them merge).
    pub rows: usize,
    /// Time columns the heatmap can show.
    pub cols: usize,
    /// Points wanted per partition-size series (the chart's width).
    pub size_points: usize,
    /// How many of the largest partitions the size chart draws.
    pub size_series: usize,
}

/// Where a replay is in simulated time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub start: SimTime,
    pub now: SimTime,
    pub end: SimTime,
    pub tick: SimDuration,
}

impl Progress {
    pub fn finished(&self) -> bool {
        self.now >= self.end
    }

    /// Share of the workload replayed, 0..=1.
    pub fn fraction(&self) -> f64 {
        let total = self.end.since(self.start).as_millis();
        if total == 0 { 1.0 } else { (self.now.since(self.start).as_millis() as f64 / total as f64).min(1.0) }
    }
}

/// One frame's worth of measurements.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkbenchView {
    pub heatmap: Option<HeatmapView>,
    pub sizes: SizesView,
    pub indexes: Vec<IndexRow>,
    pub goals: Vec<GoalRow>,
    pub patterns: Vec<PatternRow>,
    /// The run's report so far, judged: what compare lines up beside the baseline's with the
    /// figures of `keyheat compare` (`None` before the first measurement, or from a fake).
    pub report: Option<Box<RunReport>>,
    /// Set when the run was too large to replay call by call and was replayed as rates, whole.
    pub rates: Option<AsRates>,
}

/// A run replayed as rates (`sim::fluid`) because it makes too many calls to replay call by call
/// (`judge::too_large`), as `keyheat run --fidelity auto` replays it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AsRates {
    /// The calls the run makes, from the planner's mean rates.
    pub calls: f64,
}

impl AsRates {
    /// What the status line says, in the words of `keyheat run`'s note.
    pub fn label(self) -> String {
        format!("replayed as rates: {:.1e} calls are too many to replay per operation", self.calls)
    }

    /// Why the heatmap is empty for a metric the rates do not keep per partition (throttles,
    /// sizes): the fluid replay keeps no per-tick registry of partitions, only the expected
    /// load of the hottest ones (`fluid::ExpectedHeat`).
    pub const HEATMAP: &str = "Replayed as rates: this metric is not kept per partition over time. The fluid replay keeps the expected read and write load of each key group's hottest partitions (m shows them); throttles and sizes come from its report (expected values, median peaks), as keyheat run reports them.";
}

/// A heatmap of a run replayed as rates: each cell the expected load of a partition from the
/// model's rates (`fluid::ExpectedHeat`), not a measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    /// Partitions kept (the hottest of each key group) and the partitions of a time slot they
    /// are the hottest of.
    pub kept: usize,
    pub of: u64,
    /// Per matrix row: its first partition's key from each column on, (first column, key) — a
    /// rank stands for its member's key in the time slot current then.
    pub keys: Vec<Vec<(usize, String)>>,
    /// Per matrix row: its first partition's rank in its key group's popularity, hottest 0.
    pub ranks: Vec<usize>,
}

impl Expected {
    /// The key matrix row `row` stands for in column `col`.
    pub fn key(&self, row: usize, col: usize) -> Option<&str> {
        let keys = self.keys.get(row)?;
        keys.iter().rev().find(|(from, _)| *from <= col).or(keys.first()).map(|(_, k)| k.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapView {
    pub matrix: HeatmapMatrix,
    /// Per matrix row (same order): what the inspector shows about its partitions.
    pub facts: Vec<RowFacts>,
    /// The table or index each row's group is, by `GroupId` (row labels and the inspector).
    pub groups: Vec<String>,
    /// By `GroupId`, as `groups`: whether a partition of the group splits at the bytes scale's
    /// line rather than stops there (`SizeSeries::splits`: DynamoDB's 10 GB, a limit only for
    /// a table with a local index and its LSIs). Empty where unknown (a run replayed as rates
    /// keeps no bytes per partition over time).
    pub splits: Vec<bool>,
    /// The workload's start: the time axis counts from it.
    pub start: SimTime,
    /// Per matrix row: its first partition's key (a merged row's label names a range).
    pub first_keys: Vec<String>,
    /// Cosmos DB: the RU/s each physical partition of the run serves now, its share of the
    /// container's throughput (the report's `partition_ru_per_s`); `None` on other stores.
    pub partition_ru_per_s: Option<f64>,
    /// Set when the cells are expected loads of a run replayed as rates.
    pub expected: Option<Expected>,
}

/// A heatmap row's partitions (a merged row: summed over its members): their levels now, what
/// they throttled over the run so far, and what they throttled in each of the matrix's columns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowFacts {
    /// `None` for physical partitions (and Cassandra's nodes): the run counts the items of each
    /// key, not of the partition that holds many.
    pub items: Option<u64>,
    pub bytes: u64,
    /// Requests throttled over the run so far.
    pub throttled: u64,
    /// Requests throttled in each column's time range, one per column of the matrix.
    pub throttled_by_col: Vec<u64>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SizesView {
    /// The partition size the engine profile warns at (DynamoDB 10 GB, Cassandra ~100 MB).
    pub limit_bytes: f64,
    /// The largest partitions' sizes over time.
    pub series: Vec<SizeSeries>,
    /// What the panel says instead when it has no series to draw for a reason of the run's own
    /// (a run replayed as rates has sizes at the end only).
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SizeSeries {
    pub label: String,
    /// (simulated seconds since the start, bytes), oldest first.
    pub points: Vec<(f64, f64)>,
    /// Whether the line is where the store splits this partition rather than a limit it holds
    /// it to: DynamoDB splits a partition near 10 GB, and only an item collection of a table
    /// with a local index (its table and LSI partitions) may not grow past it (AWS: "Item
    /// collection size limit"); a global index's partitions split too.
    pub splits: bool,
    /// The longest time bucket of the partition's key, when every key of its table or index
    /// buckets time: the partition stops growing at most this long after its first write.
    pub bucket_secs: Option<f64>,
}

/// Live figures of one index, matched to the variant's index by name.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub name: String,
    /// Index write units per table write unit.
    pub wcu_vs_table: f64,
    /// Entry writes (view rows written, in the Cassandra profile).
    pub writes: u64,
    /// Index storage over table storage.
    pub storage_vs_base: f64,
    pub max_lag_s: f64,
    pub throttled: u64,
    pub hottest_key: Option<String>,
}

/// A goal's verdict so far, matched to the scenario's goal by name.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalRow {
    pub name: String,
    pub state: GoalState,
    /// The measured value as people read it (`312 MB`, `0.4 %`).
    pub value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalState {
    /// The replay is still running and the engine could not grade it yet (no call of its
    /// pattern, no request, no write or no item stored yet): a verdict now would be about zeros.
    Pending,
    Met,
    Missed,
    /// The replay ended and gave it nothing to judge: neither met nor missed, as `keyheat run`
    /// reports it.
    NotGraded,
}

/// Live figures of one access pattern, matched by name.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternRow {
    pub name: String,
    pub calls: u64,
    /// What a call costs, as the reports show it; `None` while nothing measures it.
    pub cost: Option<Cost>,
    pub p99: P99,
}

/// A pattern's modelled p99 so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum P99 {
    /// No call yet.
    Pending,
    /// The p99 call's latency, in ms.
    Ms(f64),
    /// More than 1% of the calls never completed, so the p99 call is one of them and has no
    /// latency (`PatternReport::p99_ms`); the p99 of the calls that completed, in ms.
    NeverCompleted(f64),
    /// Replayed as rates: the fluid replay does not model latency.
    NotModelled,
}

impl P99 {
    pub fn of(p: &crate::engine::sim::report::PatternReport) -> P99 {
        match p.p99_ms() {
            _ if p.calls == 0 => P99::Pending,
            Some(ms) => P99::Ms(ms),
            None => P99::NeverCompleted(p.latency_ms_p99),
        }
    }

    /// Whether it misses `target_ms`: a call that never completed misses any target.
    pub fn misses(self, target_ms: Option<f64>) -> bool {
        match (self, target_ms) {
            (P99::Ms(ms), Some(target)) => ms > target,
            (P99::NeverCompleted(_), Some(_)) => true,
            _ => false,
        }
    }
}

/// What one call of a pattern costs on average, in what the engine charges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cost {
    /// Capacity units (DynamoDB): RCU for a read, WCU for a write — fractions are real (½ RCU).
    Units(f64),
    /// Request units (Cosmos DB): one currency for reads and writes, fractions real too.
    RequestUnits(f64),
    /// Records read, in the store's noun (Cassandra's rows, MongoDB's documents: stores with no
    /// units): a mean of whole records.
    Read(f64, Noun),
    /// Write requests (Cassandra, MongoDB): a mean of whole requests.
    Writes(f64),
}

impl Cost {
    /// `0.5 RCU`, `9.9 RU`, `45 rows read`, `1 document read`, `2 writes`. A mean of whole
    /// things is written as counts are (`44.954` reads as `45`, `4.54` as `4.5`): three decimals
    /// of a row claim a precision the mean does not have. Units keep `factor`'s decimals (a
    /// sparse index's 0.006).
    pub fn describe(self, read: bool) -> String {
        // "1 row", never "1 rows": the count as written decides the form.
        let counted = |x: f64, one: &str, many: &str| {
            let text = numbers::count(x);
            let noun = if text == "1" { one } else { many };
            format!("{text} {noun}")
        };
        match self {
            Cost::Units(x) => format!("{} {}", numbers::factor(x), if read { "RCU" } else { "WCU" }),
            Cost::RequestUnits(x) => format!("{} RU", numbers::factor(x)),
            Cost::Read(x, noun) => format!("{} read", counted(x, noun.one, noun.many)),
            Cost::Writes(x) => counted(x, "write", "writes"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::Engine;

    #[test]
    fn a_mean_of_rows_reads_as_a_count_and_units_keep_their_fractions() {
        let (rows, documents) = (Engine::Cassandra.words().item, Engine::MongoDb.words().item);
        let cases = [
            (Cost::Read(44.954, rows), true, "45 rows read"),
            (Cost::Read(4.54, rows), true, "4.5 rows read"),
            (Cost::Read(1.0, rows), true, "1 row read"),
            (Cost::Read(1.02, rows), true, "1 row read"),
            (Cost::Read(12_345.6, rows), true, "12,346 rows read"),
            (Cost::Read(0.25, rows), true, "0.25 rows read"),
            (Cost::Read(1.0, documents), true, "1 document read"),
            (Cost::Read(3.0, documents), true, "3 documents read"),
            (Cost::RequestUnits(9.898), false, "9.898 RU"),
            (Cost::RequestUnits(1.0), true, "1 RU"),
            (Cost::Writes(1.0), false, "1 write"),
            (Cost::Writes(2.5), false, "2.5 writes"),
            (Cost::Units(0.5), true, "0.5 RCU"),
            (Cost::Units(1.003), false, "1.003 WCU"),
            (Cost::Units(2.0), false, "2 WCU"),
        ];
        for (cost, read, want) in cases {
            assert_eq!(cost.describe(read), want, "{cost:?}");
        }
    }
}

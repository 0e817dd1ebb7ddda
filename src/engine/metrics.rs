//! What the simulator measured: per-tick load on every partition, index and access pattern, kept
//! for a whole run in bounded memory, and the heatmap built from it.
//!
//! This module owns the numbers after they happen. It never decides what a request costs or
//! whether it throttles (that is the simulator's and the store's business), never reads the wall
//! clock (ticks are counted from the [`Clock`] it is given) and never draws (the TUI and the
//! reports read plain data from it).
//!
//! # Writing (the simulator)
//!
//! ```
//! use keyheat::engine::metrics::*;
//! use keyheat::engine::time::{SimDuration, SimTime};
//! use keyheat::engine::value::KeyValue;
//!
//! let mut m = Metrics::new(Clock::new(SimTime::EPOCH, SimDuration::from_secs(60))?);
//! let table = m.add_group(GroupInfo { name: "orders".into(), kind: GroupKind::Table })?;
//! let key = KeyValue::S("CUSTOMER#1".into());
//! let row = RowInfo { group: table, layer: Layer::Logical, label: key.to_string(), key: SortKey::Key(key) };
//! let p = m.add_partition(row)?;
//! let q = m.add_pattern("get order")?;
//! for minute in 0..3 {
//!     m.record_partition(p, Metric::WriteUnits, 30.0)?; // counters add up within the tick
//!     m.record_partition(p, Metric::WriteUnits, 30.0)?;
//!     m.record_partition(p, Metric::Bytes, 1024.0 * f64::from(minute + 1))?; // gauges: the level now
//!     m.record_pattern(q, PatternMetric::Calls, 2.0)?;
//!     m.record_latency(q, 4.2, 2)?; // 2 calls took 4.2 ms each
//!     m.end_tick()?; // closes the tick, opens the next
//! }
//! let writes = m.partition_summary(p, Metric::WriteUnits).unwrap();
//! assert_eq!((writes.total, writes.peak_per_s), (180.0, 1.0));
//! assert_eq!(m.group_summary(table, Layer::Logical, Metric::Bytes).unwrap().total, 3072.0);
//! # Ok::<(), MetricsError>(())
//! ```
//!
//! Records go to the open tick, [`Metrics::now`]; there is no tick argument, so nothing can be
//! recorded into a closed tick and the hot path checks no order. Partition ids are dense and handed
//! out in order from 0, so a simulator that registers partitions as it creates them can use its own
//! index as the id. A table's or index's own series (its total write units, its storage) are the
//! sums of its partitions' series, kept as they are recorded, per [`Layer`]; replication lag is
//! recorded per group with [`Metrics::record_lag`].
//!
//! # Reading (TUI, reports, goals)
//!
//! [`Summary`] (total, peak and peak per second, mean, latest) for a partition, group or pattern;
//! [`Metrics::top_partitions`]; the [`Series`] themselves for line charts
//! ([`Series::resample`] into N columns); [`LatencyHistogram`] p50/p99/max per pattern; and
//! [`Metrics::heatmap`], which builds a [`HeatmapMatrix`] that [`detect_shapes`] reads.
//!
//! # Retention and its memory bound
//!
//! A [`Series`] keeps the last [`RECENT_TICKS`] (64) ticks exactly and the whole history in at most
//! [`HISTORY_BUCKETS`] (64) equal buckets, each with the sum (a gauge: the last level) and the
//! max of its ticks; when the series' active span outgrows them, neighbours merge and the width
//! doubles. Peaks survive merging (a bucket keeps the max of single ticks), totals are kept exactly
//! beside the buckets. An idle tick costs nothing: only non-zero amounts (and gauge changes) are
//! pushed, gaps read as zero (or as the held level).
//!
//! Worst case per series on a 64-bit target: 96 bytes inline + 256 (the ring of 64 `f32`) + 512
//! (64 buckets of two `f32`) = [`Series::MAX_BYTES`] = 864 bytes, however long the run. A year at
//! 1-minute ticks (525,600 ticks) for 100,000 partitions × 5 metrics is 500,000 series: at most
//! 432,000,000 bytes (412 MiB). With each partition's row info (80 bytes, its label's text aside)
//! the registry's worst case is 4,404 bytes a partition, 440 MB (420 MiB) for 100,000. A partition
//! never recorded costs its 564 bytes of entry; one busy for a short stretch, a few hundred more.
//! Tests pin these figures.
//!
//! Cost: a record is O(1) and allocates nothing once a series has grown to its bound. Measured
//! in release: ~30 ns a record while the touched partitions fit in cache; ~300 ns when 10^8
//! records land at random on 100,000 partitions (each touch then misses the cache twice: the
//! series and its ring slot). `end_tick` costs O(patterns with latency samples in the tick).
//!
//! # Design choices
//!
//! - Sparse by series, not by frame: a series is pushed only on the ticks it has something, so an
//!   idle tick costs no work and no memory, and each row's whole history sits in one place (a
//!   heatmap row is one resample). A frame per tick would cost memory for every touched row of
//!   every tick kept, and reading one row would scan all frames.
//! - History buckets are aligned to multiples of their width, so a bucket's tick count is its width
//!   and needs no per-bucket count; the mean of a bucket is its sum over its width.
//! - History buckets have one width per series, not one per age: the heatmap of a whole run then
//!   has the same resolution in every column, and a partition that lived one day of a year-long run
//!   keeps its day at fine resolution. The exact recent ring covers the live edge; a view of the
//!   last hours of a long run sees the ring's 64 ticks exactly and older ticks at the run's width.
//! - Heatmap cells are a partition's peak per second (a gauge's highest level) in the column, and a
//!   merged row shows the max of its members: bright means near the limit, never an average that
//!   hides a throttling partition. Where a stored bucket is wider than a column, its peak shows in
//!   every column it covers.
//! - Latency per tick is kept as p50/p99/max series (read their peaks: the worst tick); the
//!   run's percentiles come from a histogram of every sample.

use std::fmt;
use std::ops::Range;

use super::time::{SimDuration, SimTime};

mod heatmap;
mod histogram;
mod registry;
mod series;
mod shapes;

pub use heatmap::{ColorScale, HeatRow, HeatmapMatrix, RowOrdering, SourceRow};
pub use histogram::{LatencyHistogram, nearest_rank};
pub use registry::{
    GroupInfo, GroupKind, HeatmapQuery, LatencyStat, Layer, Metrics, PatternMetric, Rank, RowInfo, SortKey,
    Summary,
};
pub use series::{Column, HISTORY_BUCKETS, Peak, RECENT_TICKS, Series, columns};
pub use shapes::{Shape, detect_shapes};

/// A tick's number: tick `n` covers `[start + n·len, start + (n+1)·len)` of its [`Clock`].
/// 32 bits hold 136 years of 1-second ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tick(pub u32);

/// A partition row, dense from 0 in the order [`Metrics::add_partition`] hands them out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartitionId(pub u32);

/// A table, an index or an entity: a border the heatmap never merges across.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupId(pub u16);

/// An access pattern, dense from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PatternId(pub u16);

impl fmt::Display for Tick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tick {}", self.0)
    }
}

/// How a metric's ticks combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An amount per tick (units consumed, requests throttled). Records within a tick add up; an
    /// idle tick is zero; buckets keep the sum.
    Counter,
    /// A level (bytes stored, items, lag). A record sets it and it holds until the next one;
    /// buckets keep the last level.
    Gauge,
    /// The highest value of a tick (a share of a budget in the busiest second). Records within a
    /// tick keep the largest; an idle tick is zero; buckets, columns and a table's own series
    /// keep the largest, never a sum or a rate: two seconds at 100% are 100%, not 200%.
    Peak,
}

/// What the simulator measures per partition (and, summed, per table or index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    ReadUnits,
    WriteUnits,
    Throttled,
    Bytes,
    Items,
    /// Cosmos DB's normalized RU consumption, in percent: the request units of the busiest second
    /// of a tick over the RU/s provisioned to the row's physical partition (its share of the
    /// container's throughput), at most 100% ("How to monitor normalized RU/s for an Azure Cosmos
    /// DB container or an account", Microsoft Learn: "the maximum RU/s utilization across all
    /// partition key ranges in the time interval"). Recorded only where
    /// [`Metrics::track_normalized_ru`] asked for it: a Cosmos DB run.
    NormalizedRu,
}

/// A full partition in [`Metric::NormalizedRu`]: all of its share, in percent.
pub const NORMALIZED_FULL: f64 = 100.0;

/// Per-second throughput of one physical partition, table and GSI alike (AWS, "Best practices for
/// designing and using partition keys effectively").
pub const PARTITION_RCU_PER_S: f64 = 3000.0;
pub const PARTITION_WCU_PER_S: f64 = 1000.0;
/// A partition splits near 10 GB; an item collection under an LSI may not pass it. AWS measures
/// sizes in binary units ("Constraints in Amazon DynamoDB": 1 GB = 1024 MB).
pub const PARTITION_BYTES: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;

impl Metric {
    pub const ALL: [Metric; 6] = [
        Metric::ReadUnits,
        Metric::WriteUnits,
        Metric::Throttled,
        Metric::Bytes,
        Metric::Items,
        Metric::NormalizedRu,
    ];
    /// What every run records, for every partition: each partition's entry holds these series
    /// inline. [`Metric::NormalizedRu`] is kept apart, so a run on another store pays nothing
    /// for it.
    pub const EVERY_RUN: [Metric; 5] =
        [Metric::ReadUnits, Metric::WriteUnits, Metric::Throttled, Metric::Bytes, Metric::Items];
    pub const COUNT: usize = Metric::EVERY_RUN.len();

    pub fn kind(self) -> Kind {
        match self {
            Metric::ReadUnits | Metric::WriteUnits | Metric::Throttled => Kind::Counter,
            Metric::Bytes | Metric::Items => Kind::Gauge,
            Metric::NormalizedRu => Kind::Peak,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::ReadUnits => "read units",
            Metric::WriteUnits => "write units",
            Metric::Throttled => "throttled",
            Metric::Bytes => "bytes",
            Metric::Items => "items",
            Metric::NormalizedRu => "normalized RU",
        }
    }

    /// The unit a heatmap cell is in: counters per second, gauges as levels.
    pub fn cell_unit(self) -> &'static str {
        match self {
            Metric::ReadUnits => "RCU/s",
            Metric::WriteUnits => "WCU/s",
            Metric::Throttled => "throttled/s",
            Metric::Bytes => "bytes",
            Metric::Items => "items",
            Metric::NormalizedRu => "% of its share",
        }
    }

    /// One partition's hard limit in the unit of [`Metric::cell_unit`], where DynamoDB has one
    /// (normalized RU, a Cosmos DB figure, is full at 100% of the partition's share).
    pub fn partition_limit(self) -> Option<f64> {
        match self {
            Metric::ReadUnits => Some(PARTITION_RCU_PER_S),
            Metric::WriteUnits => Some(PARTITION_WCU_PER_S),
            Metric::Bytes => Some(PARTITION_BYTES),
            Metric::NormalizedRu => Some(NORMALIZED_FULL),
            Metric::Throttled | Metric::Items => None,
        }
    }

    /// The slot of a metric of [`Metric::EVERY_RUN`] in a partition's inline series; `None` for
    /// one kept apart.
    fn index(self) -> Option<usize> {
        match self {
            Metric::NormalizedRu => None,
            m => Some(m as usize),
        }
    }
}

/// Stored values are `f32` by design (see "Retention"): seven significant digits draw and rank
/// load; the exact figures live beside them in `f64`.
#[allow(clippy::cast_possible_truncation)]
fn narrow(value: f64) -> f32 {
    value as f32
}

/// Maps ticks to simulated time: where the run starts and how long a tick is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    start: SimTime,
    tick: SimDuration,
}

impl Clock {
    pub fn new(start: SimTime, tick: SimDuration) -> Result<Clock, MetricsError> {
        if tick == SimDuration::ZERO {
            return Err(MetricsError::ZeroTick);
        }
        Ok(Clock { start, tick })
    }

    pub fn start(&self) -> SimTime {
        self.start
    }

    pub fn tick_len(&self) -> SimDuration {
        self.tick
    }

    pub fn tick_start(&self, tick: Tick) -> SimTime {
        self.start + SimDuration::from_millis(u64::from(tick.0).saturating_mul(self.tick.as_millis()))
    }

    /// The time a range of ticks covers, start inclusive, end exclusive.
    pub fn span(&self, ticks: Range<Tick>) -> (SimTime, SimTime) {
        (self.tick_start(ticks.start), self.tick_start(ticks.end))
    }

    /// The tick holding `time`; times before the start fall in tick 0, times past tick 2^32 − 1 in
    /// the last tick.
    pub fn tick_at(&self, time: SimTime) -> Tick {
        let n = time.since(self.start).as_millis() / self.tick.as_millis();
        Tick(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// An amount that happened in one tick, as a rate per second.
    pub fn per_second(&self, amount: f64) -> f64 {
        amount / self.tick.as_secs_f64()
    }
}

/// Why the metrics refused a call. Every one is a caller's mistake (the simulator's, or a view's
/// query); none is left to a panic.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MetricsError {
    #[error("a tick must last longer than zero")]
    ZeroTick,
    #[error("metric value {0} is not a finite number of zero or more")]
    BadValue(f64),
    #[error("{tick} came after {last}: a series takes its ticks in order")]
    OutOfOrder { tick: Tick, last: Tick },
    #[error("no partition {0:?} in these metrics")]
    UnknownPartition(PartitionId),
    #[error("no group {0:?} in these metrics")]
    UnknownGroup(GroupId),
    #[error("no access pattern {0:?} in these metrics")]
    UnknownPattern(PatternId),
    #[error("these metrics do not keep {0:?}: it is recorded only on a run that asked for it")]
    NotTracked(Metric),
    #[error("too many {0}: the metrics number them with {1} bits")]
    TooMany(&'static str, u32),
    #[error("the run has reached the last tick a 32-bit tick number can hold")]
    ClockOverflow,
    #[error(
        "{groups} tables and indexes need {groups} heatmap rows or more, not {rows}: rows never span two"
    )]
    TooFewRows { groups: usize, rows: usize },
}

#[cfg(test)]
// Exact comparisons are the point: the figures under test are exact in f32 and f64.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn clock_maps_ticks_to_time() {
        let clock = Clock::new(SimTime::from_secs(1000), SimDuration::from_secs(60)).unwrap();
        assert_eq!(clock.tick_start(Tick(2)), SimTime::from_secs(1120));
        assert_eq!(clock.span(Tick(1)..Tick(3)), (SimTime::from_secs(1060), SimTime::from_secs(1180)));
        let cases = [(0, 0), (999, 0), (1000, 0), (1059, 0), (1060, 1), (1000 + 60 * 525_600, 525_600)];
        for (secs, tick) in cases {
            assert_eq!(clock.tick_at(SimTime::from_secs(secs)), Tick(tick), "{secs}s");
        }
        assert_eq!(clock.per_second(120.0), 2.0);
        assert_eq!(Clock::new(SimTime::EPOCH, SimDuration::ZERO), Err(MetricsError::ZeroTick));
    }

    #[test]
    fn metric_kinds_and_limits() {
        let cases = [
            (Metric::ReadUnits, Kind::Counter, Some(3000.0)),
            (Metric::WriteUnits, Kind::Counter, Some(1000.0)),
            (Metric::Throttled, Kind::Counter, None),
            (Metric::Bytes, Kind::Gauge, Some(10_737_418_240.0)),
            (Metric::Items, Kind::Gauge, None),
            (Metric::NormalizedRu, Kind::Peak, Some(100.0)),
        ];
        for (i, (metric, kind, limit)) in cases.into_iter().enumerate() {
            assert_eq!(metric.index(), (i < Metric::COUNT).then_some(i));
            assert_eq!(metric.kind(), kind, "{metric:?}");
            assert_eq!(metric.partition_limit(), limit, "{metric:?}");
        }
    }
}

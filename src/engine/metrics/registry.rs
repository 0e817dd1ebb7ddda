//! The registry the simulator writes into every tick: a [`Series`] per partition and metric, per
//! group (table or index) and layer, per access pattern; latency histograms per pattern; and the
//! read side (summaries, top-N, the heatmap) built from them.

use std::ops::Range;

use super::heatmap::{HeatmapMatrix, RowOrdering, SourceRow};
use super::histogram::LatencyHistogram;
use super::series::{Column, Series, columns, storable};
use super::{Clock, GroupId, Kind, Metric, MetricsError, PartitionId, PatternId, Tick, narrow};
use crate::engine::time::SimTime;
use crate::engine::value::KeyValue;

/// Which partitions a row stands for: DynamoDB's logical partitions (one per partition-key value)
/// or the physical ones (hash ranges that hold many keys and split on size or heat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layer {
    Logical,
    Physical,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupKind {
    Table,
    GlobalIndex,
    LocalIndex,
    /// One entity's rows where a view splits a single table by entity.
    Entity,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupInfo {
    pub name: String,
    pub kind: GroupKind,
}

/// Where a row sorts when the heatmap orders it "by key".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SortKey {
    /// A logical partition: its partition-key value, in DynamoDB's key order.
    Key(KeyValue),
    /// A physical partition: the first hash its range holds.
    HashStart(u64),
}

/// What a partition row is, given once when it is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowInfo {
    pub group: GroupId,
    pub layer: Layer,
    /// The key text a person reads (`sensor-17#2024-03`, or a hash range).
    pub label: String,
    pub key: SortKey,
}

/// What the simulator counts per access pattern, per tick. All are counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatternMetric {
    Calls,
    PartitionsTouched,
    ItemsRead,
    ItemsReturned,
    ReadUnits,
    WriteUnits,
    Throttled,
    /// Calls served by a Scan.
    Scans,
}

impl PatternMetric {
    pub const ALL: [PatternMetric; 8] = [
        PatternMetric::Calls,
        PatternMetric::PartitionsTouched,
        PatternMetric::ItemsRead,
        PatternMetric::ItemsReturned,
        PatternMetric::ReadUnits,
        PatternMetric::WriteUnits,
        PatternMetric::Throttled,
        PatternMetric::Scans,
    ];
}

/// A per-tick latency figure of a pattern, kept as a series of one value per busy tick. Read its
/// columns' `max` (the worst tick in the column); a sum of percentiles means nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LatencyStat {
    P50,
    P99,
    Max,
}

/// How [`Metrics::top_partitions`] ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rank {
    /// By [`Summary::total`].
    Total,
    /// By [`Summary::peak_per_s`].
    Peak,
}

/// A series reduced to the figures a report prints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub kind: Kind,
    /// Counter: every amount added up. Gauge: the current level. Peak: the largest tick.
    pub total: f64,
    /// The largest value of any one tick: a counter's amount, a gauge's level.
    pub peak: f64,
    /// Counter: `peak` as a rate (its tick's amount over the tick's length). Gauge and peak:
    /// `peak`.
    pub peak_per_s: f64,
    /// The start of the first tick that reached the peak; `None` if nothing was recorded.
    pub peak_at: Option<SimTime>,
    /// Counter: `total` over the time of the closed ticks. Gauge: the current level. Peak: `peak`
    /// (a series of maxima keeps no mean).
    pub mean_per_s: f64,
    /// The value of the last closed tick; zero before any tick closed.
    pub latest: f64,
}

/// What [`Metrics::heatmap`] draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeatmapQuery {
    pub metric: Metric,
    pub layer: Layer,
    pub range: Range<Tick>,
    /// Columns wanted; the matrix has fewer if the range has fewer ticks.
    pub cols: usize,
    /// Rows available; partitions beyond them merge.
    pub rows: usize,
    pub order: RowOrdering,
}

#[derive(Debug, Clone)]
struct PartitionEntry {
    info: RowInfo,
    series: [Series; Metric::COUNT],
}

#[derive(Debug, Clone)]
struct GroupEntry {
    info: GroupInfo,
    /// The sums of the group's partitions, per layer (`Layer as usize`).
    series: [[Series; Metric::COUNT]; 2],
    /// The highest normalized RU of the group's partitions per tick, per layer: Azure's figure
    /// for a container is the maximum over its partition key ranges, never a sum.
    normalized: [Series; 2],
    lag: Series,
}

#[derive(Debug, Clone)]
struct PatternEntry {
    name: String,
    series: [Series; PatternMetric::ALL.len()],
    latency: LatencyHistogram,
    /// The open tick's samples; folded into `stats` by `end_tick`.
    tick_latency: LatencyHistogram,
    stats: [Series; 3],
}

/// Everything measured in one run. See the module doc of `metrics` for the calling pattern.
#[derive(Debug, Clone)]
pub struct Metrics {
    clock: Clock,
    now: u32,
    groups: Vec<GroupEntry>,
    partitions: Vec<PartitionEntry>,
    /// Each partition's group and layer again, 4 bytes apiece: the record path reads them from
    /// this small, cache-warm table and touches a partition's own memory only for its series.
    homes: Vec<(GroupId, Layer)>,
    patterns: Vec<PatternEntry>,
    /// Patterns with latency samples in the open tick.
    latency_touched: Vec<PatternId>,
    /// [`Metric::NormalizedRu`] per partition (by id), once [`Metrics::track_normalized_ru`]
    /// asked for it; `None` on a run that does not keep it, which then costs no memory a
    /// partition.
    normalized: Option<Vec<Series>>,
}

fn metric_series() -> [Series; Metric::COUNT] {
    Metric::EVERY_RUN.map(|m| Series::new(m.kind()))
}

impl Metrics {
    pub fn new(clock: Clock) -> Metrics {
        Metrics {
            clock,
            now: 0,
            groups: Vec::new(),
            partitions: Vec::new(),
            homes: Vec::new(),
            patterns: Vec::new(),
            latency_touched: Vec::new(),
            normalized: None,
        }
    }

    /// Keeps [`Metric::NormalizedRu`] for every partition, those added already and those to come
    /// (a Cosmos DB run asks for it before its first tick).
    pub fn track_normalized_ru(&mut self) {
        let normalized = self.normalized.get_or_insert_with(Vec::new);
        normalized.resize_with(self.partitions.len(), || Series::new(Kind::Peak));
    }

    /// Whether these metrics keep `metric` (every metric but [`Metric::NormalizedRu`] always).
    pub fn tracks(&self, metric: Metric) -> bool {
        metric.index().is_some() || self.normalized.is_some()
    }

    /// Partition `i`'s series of `metric`, if both exist here.
    fn own_series(&self, i: usize, metric: Metric) -> Option<&Series> {
        match metric.index() {
            Some(m) => self.partitions.get(i).map(|p| &p.series[m]),
            None => self.normalized.as_ref()?.get(i),
        }
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The open tick: records land here until [`Metrics::end_tick`].
    pub fn now(&self) -> Tick {
        Tick(self.now)
    }

    pub fn add_group(&mut self, info: GroupInfo) -> Result<GroupId, MetricsError> {
        let id = GroupId(u16::try_from(self.groups.len()).map_err(|_| MetricsError::TooMany("groups", 16))?);
        self.groups.push(GroupEntry {
            info,
            series: [metric_series(), metric_series()],
            normalized: [Series::new(Kind::Peak), Series::new(Kind::Peak)],
            lag: Series::new(Kind::Gauge),
        });
        Ok(id)
    }

    /// Adds a partition row; ids count up from 0 in the order rows are added.
    pub fn add_partition(&mut self, info: RowInfo) -> Result<PartitionId, MetricsError> {
        if usize::from(info.group.0) >= self.groups.len() {
            return Err(MetricsError::UnknownGroup(info.group));
        }
        let id = PartitionId(
            u32::try_from(self.partitions.len()).map_err(|_| MetricsError::TooMany("partitions", 32))?,
        );
        self.homes.push((info.group, info.layer));
        self.partitions.push(PartitionEntry { info, series: metric_series() });
        if let Some(normalized) = &mut self.normalized {
            normalized.push(Series::new(Kind::Peak));
        }
        Ok(id)
    }

    pub fn add_pattern(&mut self, name: impl Into<String>) -> Result<PatternId, MetricsError> {
        let id =
            PatternId(u16::try_from(self.patterns.len()).map_err(|_| MetricsError::TooMany("patterns", 16))?);
        self.patterns.push(PatternEntry {
            name: name.into(),
            series: PatternMetric::ALL.map(|_| Series::new(Kind::Counter)),
            latency: LatencyHistogram::new(),
            tick_latency: LatencyHistogram::new(),
            stats: [(); 3].map(|()| Series::new(Kind::Counter)),
        });
        Ok(id)
    }

    /// Records one partition's metric in the open tick: a counter's amount adds to the tick, a
    /// gauge's value is the partition's level from now on, a peak keeps the tick's largest. The
    /// partition's group follows (a peak: the largest of its partitions').
    pub fn record_partition(
        &mut self,
        id: PartitionId,
        metric: Metric,
        value: f64,
    ) -> Result<(), MetricsError> {
        let now = Tick(self.now);
        let &(group_id, layer) = self.homes.get(id.0 as usize).ok_or(MetricsError::UnknownPartition(id))?;
        // add_partition checked the group; a miss here is still an error, not a panic.
        let group =
            self.groups.get_mut(usize::from(group_id.0)).ok_or(MetricsError::UnknownGroup(group_id))?;
        let (own, sum) = if let Some(m) = metric.index() {
            let entry = self.partitions.get_mut(id.0 as usize).ok_or(MetricsError::UnknownPartition(id))?;
            (&mut entry.series[m], &mut group.series[layer as usize][m])
        } else {
            let own = self
                .normalized
                .as_mut()
                .ok_or(MetricsError::NotTracked(metric))?
                .get_mut(id.0 as usize)
                .ok_or(MetricsError::UnknownPartition(id))?;
            (own, &mut group.normalized[layer as usize])
        };
        if !storable(value) {
            return Err(MetricsError::BadValue(value));
        }
        // Each arm names its kind, so the pushes inline with their kind's steps only; the value,
        // checked once, serves the partition and its table.
        match metric.kind() {
            Kind::Counter => {
                own.push_checked_as(Kind::Counter, now, value)?;
                sum.push_checked_as(Kind::Counter, now, value)
            }
            Kind::Peak => {
                own.push_checked_as(Kind::Peak, now, value)?;
                sum.push_checked_as(Kind::Peak, now, value)
            }
            Kind::Gauge => {
                let before = own.total();
                own.push_checked_as(Kind::Gauge, now, value)?;
                // The group's level moves by this partition's change; rounding never takes it below 0.
                sum.push_as(Kind::Gauge, now, (sum.total() - before + value).max(0.0))
            }
        }
    }

    /// Records a global secondary index's replication lag in seconds (a level that holds).
    pub fn record_lag(&mut self, group: GroupId, seconds: f64) -> Result<(), MetricsError> {
        let now = Tick(self.now);
        let entry = self.groups.get_mut(usize::from(group.0)).ok_or(MetricsError::UnknownGroup(group))?;
        entry.lag.push(now, seconds)
    }

    pub fn record_pattern(
        &mut self,
        id: PatternId,
        metric: PatternMetric,
        value: f64,
    ) -> Result<(), MetricsError> {
        let now = Tick(self.now);
        let entry = self.patterns.get_mut(usize::from(id.0)).ok_or(MetricsError::UnknownPattern(id))?;
        entry.series[metric as usize].push(now, value)
    }

    /// Records `calls` calls of a pattern that each took `ms` modelled milliseconds.
    pub fn record_latency(&mut self, id: PatternId, ms: f64, calls: u64) -> Result<(), MetricsError> {
        let entry = self.patterns.get_mut(usize::from(id.0)).ok_or(MetricsError::UnknownPattern(id))?;
        entry.latency.record(ms, calls)?;
        if entry.tick_latency.is_empty() && calls > 0 {
            self.latency_touched.push(id);
        }
        entry.tick_latency.record(ms, calls)
    }

    /// Closes the open tick and opens the next; returns the tick closed. Costs O(patterns with
    /// latency samples in the tick): partitions need no end-of-tick work.
    pub fn end_tick(&mut self) -> Result<Tick, MetricsError> {
        let closed = Tick(self.now);
        let next = self.now.checked_add(1).ok_or(MetricsError::ClockOverflow)?;
        for id in self.latency_touched.drain(..) {
            let entry = &mut self.patterns[usize::from(id.0)];
            let h = &entry.tick_latency;
            if let (Some(p50), Some(p99), Some(max)) = (h.p50(), h.p99(), h.max()) {
                for (series, figure) in entry.stats.iter_mut().zip([p50, p99, max]) {
                    series.push(closed, figure)?;
                }
            }
            entry.tick_latency.clear();
        }
        self.now = next;
        Ok(closed)
    }

    pub fn groups(&self) -> impl Iterator<Item = (GroupId, &GroupInfo)> {
        (0u16..).zip(&self.groups).map(|(i, g)| (GroupId(i), &g.info))
    }

    pub fn partitions(&self) -> impl Iterator<Item = (PartitionId, &RowInfo)> {
        (0u32..).zip(&self.partitions).map(|(i, p)| (PartitionId(i), &p.info))
    }

    pub fn patterns(&self) -> impl Iterator<Item = (PatternId, &str)> {
        (0u16..).zip(&self.patterns).map(|(i, p)| (PatternId(i), p.name.as_str()))
    }

    pub fn row_info(&self, id: PartitionId) -> Option<&RowInfo> {
        self.partitions.get(id.0 as usize).map(|p| &p.info)
    }

    /// `None` for an unknown partition, or a metric these metrics do not keep.
    pub fn partition_series(&self, id: PartitionId, metric: Metric) -> Option<&Series> {
        self.own_series(id.0 as usize, metric)
    }

    /// The sum of a group's partitions of one layer (a peak: their largest); `None` for an
    /// unknown group, or a metric these metrics do not keep.
    pub fn group_series(&self, group: GroupId, layer: Layer, metric: Metric) -> Option<&Series> {
        let g = self.groups.get(usize::from(group.0))?;
        match metric.index() {
            Some(m) => Some(&g.series[layer as usize][m]),
            None => self.normalized.as_ref().map(|_| &g.normalized[layer as usize]),
        }
    }

    pub fn lag_series(&self, group: GroupId) -> Option<&Series> {
        self.groups.get(usize::from(group.0)).map(|g| &g.lag)
    }

    pub fn pattern_series(&self, id: PatternId, metric: PatternMetric) -> Option<&Series> {
        self.patterns.get(usize::from(id.0)).map(|p| &p.series[metric as usize])
    }

    /// One latency figure per busy tick of a pattern.
    pub fn latency_series(&self, id: PatternId, stat: LatencyStat) -> Option<&Series> {
        self.patterns.get(usize::from(id.0)).map(|p| &p.stats[stat as usize])
    }

    /// Every latency sample of a pattern over the run.
    pub fn latency(&self, id: PatternId) -> Option<&LatencyHistogram> {
        self.patterns.get(usize::from(id.0)).map(|p| &p.latency)
    }

    /// The figures of any series of these metrics, in the time of this run's clock.
    pub fn summarize(&self, series: &Series) -> Summary {
        let kind = series.kind();
        let peak = series.peak();
        let peak_value = peak.map_or(0.0, |p| p.value);
        // A series of this run always knows its last closed tick exactly (it is never older than
        // the ring's last push); a series from a longer run reads as 0 there.
        let latest = self.now.checked_sub(1).and_then(|t| series.value_at(Tick(t))).unwrap_or(0.0);
        let (peak_per_s, mean_per_s) = match kind {
            Kind::Counter => {
                let elapsed = f64::from(self.now) * self.clock.tick_len().as_secs_f64();
                let mean = if elapsed > 0.0 { series.total() / elapsed } else { 0.0 };
                (self.clock.per_second(peak_value), mean)
            }
            Kind::Gauge => (peak_value, series.total()),
            // Already a figure of the busiest second: no rate to take and no mean kept.
            Kind::Peak => (peak_value, peak_value),
        };
        Summary {
            kind,
            total: series.total(),
            peak: peak_value,
            peak_per_s,
            peak_at: peak.map(|p| self.clock.tick_start(p.tick)),
            mean_per_s,
            latest,
        }
    }

    pub fn partition_summary(&self, id: PartitionId, metric: Metric) -> Option<Summary> {
        self.partition_series(id, metric).map(|s| self.summarize(s))
    }

    pub fn group_summary(&self, group: GroupId, layer: Layer, metric: Metric) -> Option<Summary> {
        self.group_series(group, layer, metric).map(|s| self.summarize(s))
    }

    pub fn pattern_summary(&self, id: PatternId, metric: PatternMetric) -> Option<Summary> {
        self.pattern_series(id, metric).map(|s| self.summarize(s))
    }

    /// The `n` partitions of a layer (and of one group, if given) with the highest total or peak
    /// rate of `metric`, highest first; ties go to the lower id. Idle partitions are left out.
    pub fn top_partitions(
        &self,
        layer: Layer,
        group: Option<GroupId>,
        metric: Metric,
        rank: Rank,
        n: usize,
    ) -> Vec<(PartitionId, f64)> {
        let mut ranked: Vec<(PartitionId, f64)> = (0u32..)
            .zip(&self.partitions)
            .filter(|(_, p)| p.info.layer == layer && group.is_none_or(|g| p.info.group == g))
            .filter_map(|(i, _)| Some((i, self.own_series(i as usize, metric)?)))
            .map(|(i, series)| {
                let value = match (rank, metric.kind()) {
                    (Rank::Total, _) => series.total(),
                    (Rank::Peak, Kind::Counter) => {
                        self.clock.per_second(series.peak().map_or(0.0, |p| p.value))
                    }
                    (Rank::Peak, Kind::Gauge | Kind::Peak) => series.peak().map_or(0.0, |p| p.value),
                };
                (PartitionId(i), value)
            })
            .filter(|&(_, v)| v > 0.0)
            .collect();
        let order = |a: &(PartitionId, f64), b: &(PartitionId, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if ranked.len() > n && n > 0 {
            ranked.select_nth_unstable_by(n - 1, order);
        }
        ranked.truncate(n);
        ranked.sort_by(order);
        ranked
    }

    /// The time each column of `range` split into `cols` covers (as [`columns`] splits it).
    pub fn column_times(&self, range: Range<Tick>, cols: usize) -> Vec<(SimTime, SimTime)> {
        columns(range, cols).map(|c| self.clock.span(c)).collect()
    }

    /// The heatmap of one layer's partitions: each cell is the partition's peak per second in the
    /// column (a gauge: its highest level; a peak: its largest tick), merged rows show their
    /// members' max. A metric these metrics do not keep is refused.
    pub fn heatmap(&self, query: &HeatmapQuery) -> Result<HeatmapMatrix, MetricsError> {
        if !self.tracks(query.metric) {
            return Err(MetricsError::NotTracked(query.metric));
        }
        let cell = |c: &Column| -> f32 {
            let v = match query.metric.kind() {
                Kind::Counter => self.clock.per_second(c.max),
                Kind::Gauge | Kind::Peak => c.max,
            };
            narrow(v)
        };
        let rows: Vec<(PartitionId, &PartitionEntry, &Series)> = (0u32..)
            .zip(&self.partitions)
            .filter(|(_, p)| p.info.layer == query.layer)
            .filter_map(|(i, p)| Some((PartitionId(i), p, self.own_series(i as usize, query.metric)?)))
            .collect();
        let mut buffer = Vec::new();
        let sources: Vec<SourceRow<'_>> = rows
            .iter()
            .map(|&(id, p, series)| {
                // One column over the whole range: the row's peak, which ranks it.
                series.resample_into(query.range.clone(), 1, &mut buffer);
                SourceRow {
                    id,
                    group: p.info.group,
                    label: &p.info.label,
                    key: &p.info.key,
                    heat: buffer.first().map_or(0.0, cell),
                }
            })
            .collect();
        let col_times = self.column_times(query.range.clone(), query.cols);
        HeatmapMatrix::build(query.metric, query.order, col_times, &sources, query.rows, |i, out| {
            rows[i].2.resample_into(query.range.clone(), out.len(), &mut buffer);
            for (o, c) in out.iter_mut().zip(&buffer) {
                *o = cell(c);
            }
        })
    }

    /// Bytes these metrics hold now: rows, series and histograms (row labels' text aside).
    pub fn memory_bytes(&self) -> usize {
        let series = |s: &[Series]| s.iter().map(Series::heap_bytes).sum::<usize>();
        let partitions: usize =
            self.partitions.iter().map(|p| size_of::<PartitionEntry>() + 4 + series(&p.series)).sum();
        let groups: usize = self
            .groups
            .iter()
            .map(|g| {
                size_of::<GroupEntry>()
                    + series(&g.series[0])
                    + series(&g.series[1])
                    + series(&g.normalized)
                    + g.lag.heap_bytes()
            })
            .sum();
        let normalized =
            self.normalized.as_ref().map_or(0, |n| n.capacity() * size_of::<Series>() + series(n));
        let patterns: usize = self
            .patterns
            .iter()
            .map(|p| {
                size_of::<PatternEntry>()
                    + series(&p.series)
                    + series(&p.stats)
                    + 2 * LatencyHistogram::HEAP_BYTES
            })
            .sum();
        partitions + groups + patterns + normalized
    }
}

#[cfg(test)]
mod tests;

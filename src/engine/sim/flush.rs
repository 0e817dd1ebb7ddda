//! Moving the run's figures into `engine::metrics::Metrics` once per registry tick: the
//! partitions touched since the last one (logical rows that have a registry row, every physical
//! partition, every Cassandra node), every pattern, every GSI's lag. Records are summed locally
//! between flushes, because the registry costs 30–300 ns a record.

use crate::engine::metrics::{
    Layer, Metric, Metrics, NORMALIZED_FULL, PartitionId, PatternMetric, RowInfo, SortKey,
};

use super::Simulation;
use super::items::key_label;
use super::meter::{READ, WRITE};
use super::state::{NO_ROW, PatternStats, SpanStats, Totals};

/// What the run measured: the registry (`engine::metrics`) at its stride, and what is summed
/// locally between two flushes. Calls and requests add to `stats` and `totals` as they run; a
/// flush moves the span's sums into `metrics`.
#[derive(Debug)]
pub(super) struct Figures {
    pub metrics: Metrics,
    /// Simulation ticks per registry tick.
    pub stride: u32,
    /// The registry tick being summed (wraps); a logical partition queued for flushing
    /// remembers it.
    pub span: u32,
    /// (group, partition) of the logical partitions with a registry row touched this span.
    pub span_rows: Vec<(u32, u32)>,
    /// Cosmos DB only (`None` elsewhere, so no other run pays for it): per registry row, the
    /// request units of a logical partition's busiest tick in this span, for its normalized RU.
    /// Physical partitions keep theirs in their meter.
    pub span_ru: Option<Vec<f64>>,
    /// Registry rows given so far to logical partitions as they became active, and to ones
    /// that became hot later.
    pub logical_rows: u32,
    pub hot_rows: u32,
    pub totals: Totals,
    /// Per pattern.
    pub stats: Vec<PatternStats>,
}

impl Figures {
    /// Counts `n` requests a call of `pattern` sent, on its first attempt only.
    pub fn count_requests(&mut self, pattern: usize, first: bool, n: u64) {
        if first {
            self.stats[pattern].requests += n;
            self.totals.requests += n;
        }
    }

    /// Counts a put that replaced a different item at its key: PutItem (and a Cassandra INSERT)
    /// replaces whatever holds the key without an error, so the item that was there is lost.
    pub fn overwrote(&mut self, pattern: Option<usize>) {
        self.totals.overwritten += 1;
        if let Some(p) = pattern {
            self.stats[p].overwrote += 1;
        }
    }

    /// Every pattern's figures and latencies.
    fn flush_patterns(&mut self) {
        for stats in &mut self.stats {
            let Some(id) = stats.registry else { continue };
            let s = std::mem::take(&mut stats.span);
            let SpanStats {
                calls,
                partitions,
                items_read,
                items_returned,
                read_units,
                write_units,
                throttled,
                scans,
            } = s;
            for (metric, value) in [
                (PatternMetric::Calls, calls),
                (PatternMetric::PartitionsTouched, partitions),
                (PatternMetric::ItemsRead, items_read),
                (PatternMetric::ItemsReturned, items_returned),
                (PatternMetric::ReadUnits, read_units),
                (PatternMetric::WriteUnits, write_units),
                (PatternMetric::Throttled, throttled),
                (PatternMetric::Scans, scans),
            ] {
                if value > 0.0 {
                    let _ = self.metrics.record_pattern(id, metric, value);
                }
            }
            for (ms, calls) in stats.latencies.drain(..) {
                let _ = self.metrics.record_latency(id, ms, calls);
            }
        }
    }
}

impl Simulation {
    /// Gives logical partition `partition` of group `g` a registry row, if the bounds allow:
    /// the first `LOGICAL_ROWS` to become active, then up to `HOT_ROWS` hot ones.
    pub(super) fn register_logical(&mut self, g: usize, partition: u32, hot: bool) {
        let first = self.figures.logical_rows < super::LOGICAL_ROWS;
        if !first && (!hot || self.figures.hot_rows >= super::HOT_ROWS) {
            return;
        }
        let (t, index) = self.world.groups[g];
        let ledger = match index {
            None => &self.storage.tables[t].base,
            Some(i) => &self.storage.tables[t].indexes[i].1,
        };
        let part = ledger.partition(partition);
        let label = key_label(part.key_type, ledger.key_of(partition));
        let key = match part.key_type {
            crate::engine::value::KeyType::S => crate::engine::value::KeyValue::S(label.clone()),
            crate::engine::value::KeyType::B => {
                crate::engine::value::KeyValue::B(ledger.key_of(partition).to_vec())
            }
            crate::engine::value::KeyType::N => crate::engine::number::Number::parse(&label).map_or_else(
                |_| crate::engine::value::KeyValue::S(label.clone()),
                crate::engine::value::KeyValue::N,
            ),
        };
        let info = RowInfo {
            group: self.storage.groups[g].registry,
            layer: Layer::Logical,
            label,
            key: SortKey::Key(key),
        };
        let Ok(id) = self.figures.metrics.add_partition(info) else { return };
        if first {
            self.figures.logical_rows += 1;
        } else {
            self.figures.hot_rows += 1;
        }
        self.storage.load(g, partition).row = id.0;
    }

    /// Records everything since the last registry tick and closes it.
    pub(super) fn flush_metrics(&mut self) {
        self.flush_logical();
        self.flush_physical();
        self.figures.flush_patterns();
        let _ = self.figures.metrics.end_tick();
        self.figures.span = self.figures.span.wrapping_add(1);
    }

    /// Notes the request units logical partition row `row` has used in the open tick (`used`, a
    /// running total, so its largest value is the tick's), on a run that keeps normalized RU.
    pub(super) fn note_tick_ru(&mut self, row: u32, used: f64) {
        let Some(peaks) = self.figures.span_ru.as_mut() else { return };
        let row = row as usize;
        if peaks.len() <= row {
            peaks.resize(row + 1, 0.0);
        }
        peaks[row] = peaks[row].max(used);
    }

    /// A logical partition's normalized RU over the span, in percent: its busiest tick's request
    /// units against its physical partition's share of that tick, at most 100%. keyheat's
    /// reading of "How to monitor normalized RU/s" for one key: Azure reports the figure per
    /// partition key range (physical partition), and a logical partition draws on its range's
    /// share, so this is how much of that share the key alone used. `None` where the run keeps
    /// no normalized RU.
    fn logical_normalized_ru(&mut self, g: usize, row: u32) -> Option<f64> {
        let used = std::mem::take(self.figures.span_ru.as_mut()?.get_mut(row as usize)?);
        let metered_by = self.storage.groups[g].metered_by;
        let share = self.storage.groups[metered_by].meter.as_ref()?.share_per_s()?;
        let per_tick = share * self.pacing.tick_secs;
        Some(if per_tick > 0.0 { (used / per_tick).min(1.0) * NORMALIZED_FULL } else { 0.0 })
    }

    /// Logical partitions with a registry row that were touched since the last flush.
    fn flush_logical(&mut self) {
        let rows = std::mem::take(&mut self.figures.span_rows);
        for &(g, partition) in &rows {
            let g = g as usize;
            let part = self.ledger(g).partition(partition);
            let (items, bytes) = (part.items(), part.bytes);
            let row = self.storage.groups[g].loads[partition as usize].row;
            let normalized = self.logical_normalized_ru(g, row);
            let load = &mut self.storage.groups[g].loads[partition as usize];
            let id = PartitionId(load.row);
            let figures = [
                (Metric::ReadUnits, f64::from(load.span_units[READ])),
                (Metric::WriteUnits, f64::from(load.span_units[WRITE])),
                (Metric::Throttled, f64::from(load.span_throttled)),
                (Metric::NormalizedRu, normalized.unwrap_or(0.0)),
            ];
            load.span_units = [0.0; 2];
            load.span_throttled = 0;
            for (metric, value) in figures {
                if value > 0.0 {
                    let _ = self.figures.metrics.record_partition(id, metric, value);
                }
            }
            let _ = self.figures.metrics.record_partition(id, Metric::Bytes, bytes as f64);
            let _ = self.figures.metrics.record_partition(id, Metric::Items, items as f64);
        }
        let mut rows = rows;
        rows.clear();
        self.figures.span_rows = rows;
    }

    /// Every physical partition (and Cassandra node), and every GSI's lag.
    fn flush_physical(&mut self) {
        let now_ms = self.pacing.tick_start(self.pacing.tick);
        // The span's last tick: flushes come after a tick closed.
        let last = self.pacing.tick.saturating_sub(1);
        let normalized = self.figures.metrics.tracks(Metric::NormalizedRu);
        for g in 0..self.storage.groups.len() {
            let Some(meter) = self.storage.groups[g].meter.as_mut() else { continue };
            let shared = normalized && meter.share_per_s().is_some();
            for i in 0..meter.parts.len() {
                // Normalized RU, as Azure defines it: the range's busiest second over its share.
                let share = if shared { meter.take_span_share(i, last) * NORMALIZED_FULL } else { 0.0 };
                let part = &mut meter.parts[i];
                if part.row == NO_ROW {
                    continue;
                }
                let id = PartitionId(part.row);
                for (metric, value) in [
                    (Metric::ReadUnits, part.span[READ]),
                    (Metric::WriteUnits, part.span[WRITE]),
                    (Metric::Throttled, part.span_throttled as f64),
                    (Metric::NormalizedRu, share),
                ] {
                    if value > 0.0 {
                        let _ = self.figures.metrics.record_partition(id, metric, value);
                    }
                }
                let _ = self.figures.metrics.record_partition(id, Metric::Bytes, part.bytes as f64);
                part.span = [0.0; 2];
                part.span_throttled = 0;
            }
            let lag = meter.lag_secs(now_ms);
            if self.world.group_kind(g).is_some() {
                let registry = self.storage.groups[g].registry;
                let _ = self.figures.metrics.record_lag(registry, lag);
            }
        }
        if self.world.engine.profile().ring().is_some() {
            for node in &mut self.storage.nodes {
                let id = PartitionId(node.row);
                if node.span_ops > 0.0 {
                    let _ = self.figures.metrics.record_partition(id, Metric::ReadUnits, node.span_ops);
                }
                let _ = self.figures.metrics.record_partition(id, Metric::Bytes, node.stored as f64);
                node.span_ops = 0.0;
            }
        }
    }
}

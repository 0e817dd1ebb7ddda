//! The run's figures as a [`RunReport`]. Everything here is read from the run's own counters;
//! goals and costs are filled later by their own modules.

use crate::engine::model::{Action, Engine};

use super::items::key_label;
use super::meter::{READ, WRITE};
use super::report::{IndexReport, NodeReport, PartitionReport, Partitions, PatternReport, RunReport, Totals};
use super::table::IndexKind;
use super::{REPLICATION, RING_NODES, Simulation, latency};

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

impl Simulation {
    /// The report of the run so far (the whole run once `step` has returned false).
    pub fn report(&self) -> RunReport {
        #[expect(clippy::cast_possible_truncation, reason = "tick lengths are small")]
        let secs = self.tick_secs as f32;
        let cassandra = self.world.engine == Engine::Cassandra;
        let table_groups: Vec<usize> = self.world.tables.iter().map(|t| t.group).collect();
        let multi_table = table_groups.len() > 1;

        // Logical partitions of the table(s).
        let mut logical = 0;
        let (mut max_bytes, mut max_items, mut peak_r, mut peak_w) = (0u64, 0u64, 0.0f64, 0.0f64);
        let mut candidates: Vec<PartitionReport> = Vec::new();
        let (mut items, mut table_bytes) = (0u64, 0u64);
        for &g in &table_groups {
            let (t, _) = self.world.groups[g];
            let ledger = &self.tables[t].table;
            logical += ledger.live_partitions();
            items += ledger.items();
            table_bytes += ledger.bytes();
            let mut rows: Vec<(u32, u64, f64, f64, u64)> = Vec::new();
            for (q, part) in ledger.partitions().iter().enumerate() {
                let load = self.groups[g].loads.get(q).copied().unwrap_or_default();
                let (r, w) = (f64::from(load.peak_now(READ, secs)), f64::from(load.peak_now(WRITE, secs)));
                if part.items() == 0 && r == 0.0 && w == 0.0 {
                    continue;
                }
                max_bytes = max_bytes.max(part.bytes);
                max_items = max_items.max(part.items());
                peak_r = peak_r.max(r);
                peak_w = peak_w.max(w);
                rows.push((
                    u32::try_from(q).unwrap_or(u32::MAX),
                    part.bytes,
                    r,
                    w,
                    u64::from(load.throttled),
                ));
            }
            // The five largest and the five hottest of each dimension.
            let mut chosen: Vec<u32> = Vec::new();
            let mut pick = |rows: &mut Vec<(u32, u64, f64, f64, u64)>,
                            key: &dyn Fn(&(u32, u64, f64, f64, u64)) -> f64| {
                rows.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.0.cmp(&b.0)));
                for row in rows.iter().take(5).filter(|r| key(r) > 0.0) {
                    if !chosen.contains(&row.0) {
                        chosen.push(row.0);
                    }
                }
            };
            pick(&mut rows, &|r| r.1 as f64);
            pick(&mut rows, &|r| r.3);
            pick(&mut rows, &|r| r.2);
            pick(&mut rows, &|r| r.4 as f64);
            for q in chosen {
                let part = ledger.partition(q);
                let load = self.groups[g].loads.get(q as usize).copied().unwrap_or_default();
                let key = key_label(part.key_type, ledger.key_of(q));
                candidates.push(PartitionReport {
                    key: if multi_table { format!("{}/{key}", self.world.tables[t].name) } else { key },
                    bytes: part.bytes,
                    items: part.items(),
                    peak_rcu_per_s: f64::from(load.peak_now(READ, secs)),
                    peak_wcu_per_s: f64::from(load.peak_now(WRITE, secs)),
                    throttled_ops: u64::from(load.throttled),
                });
            }
        }
        candidates.sort_by(|a, b| {
            b.bytes.cmp(&a.bytes).then(b.peak_wcu_per_s.total_cmp(&a.peak_wcu_per_s)).then(a.key.cmp(&b.key))
        });
        let (physical, splits, splits_size, splits_heat, splits_refused) = if cassandra {
            (RING_NODES as u64, 0, 0, 0, 0)
        } else {
            table_groups.iter().filter_map(|&g| self.groups[g].meter.as_ref()).fold(
                (0, 0, 0, 0, 0),
                |acc, m| {
                    (
                        acc.0 + m.parts.len() as u64,
                        acc.1 + m.splits_size + m.splits_heat,
                        acc.2 + m.splits_size,
                        acc.3 + m.splits_heat,
                        acc.4 + m.splits_blocked,
                    )
                },
            )
        };
        let physical_peak = |dim: usize| {
            table_groups
                .iter()
                .filter_map(|&g| self.groups[g].meter.as_ref())
                .flat_map(|m| (0..m.parts.len()).map(move |i| m.peak(i, dim)))
                .fold(0.0, f64::max)
        };
        let nodes = self
            .nodes
            .iter()
            .enumerate()
            .map(|(n, node)| {
                let mut node = *node;
                node.roll(self.tick.saturating_add(1), self.tick_secs);
                NodeReport {
                    node: format!("node {}", n + 1),
                    stored_bytes: node.stored,
                    ops: node.ops,
                    peak_ops_per_s: node.peak_ops,
                    peak_bytes_per_s: node.peak_bytes,
                }
            })
            .collect();

        // Indexes.
        let table_wcu: f64 = table_groups.iter().map(|&g| self.groups[g].units[WRITE]).sum();
        let mut indexes = Vec::new();
        let mut index_bytes = 0;
        for (g, &(t, index)) in self.world.groups.iter().enumerate() {
            let Some(i) = index else { continue };
            let ledger = &self.tables[t].indexes[i].1;
            index_bytes += ledger.bytes();
            let group = &self.groups[g];
            let mut hottest: Option<(f64, u32)> = None;
            let mut peak = 0.0f64;
            let mut max_partition = 0u64;
            for (q, part) in ledger.partitions().iter().enumerate() {
                max_partition = max_partition.max(part.bytes);
                let load = group.loads.get(q).copied().unwrap_or_default();
                let w = f64::from(load.peak_now(WRITE, secs));
                peak = peak.max(w);
                let heat = load.total[WRITE] + load.total[READ];
                if heat > 0.0 && hottest.is_none_or(|(h, _)| heat > h) {
                    hottest = Some((heat, u32::try_from(q).unwrap_or(u32::MAX)));
                }
            }
            let kind = self.world.tables[t].indexes[i].kind;
            // A GSI's consumption is its physical partitions' (its entries may wait in a queue).
            if let Some(meter) = &group.meter {
                peak = (0..meter.parts.len()).map(|x| meter.peak(x, WRITE)).fold(0.0, f64::max);
            }
            indexes.push(IndexReport {
                name: self.world.group_name(g),
                kind: match kind {
                    IndexKind::Global => "GSI".to_owned(),
                    IndexKind::Local => "LSI".to_owned(),
                },
                wcu: group.units[WRITE],
                rcu: group.units[READ],
                bytes: ledger.bytes(),
                items: ledger.items(),
                wcu_vs_table: ratio(group.units[WRITE], table_wcu),
                max_lag_s: group.max_lag_secs,
                throttled_ops: group.throttled,
                hottest_key: hottest.map(|(_, q)| key_label(ledger.partition(q).key_type, ledger.key_of(q))),
                peak_wcu_per_s: peak,
                partitions: ledger.live_partitions(),
                max_partition_bytes: max_partition,
                entry_writes: group.entry_writes,
            });
        }

        // Patterns.
        let patterns = self
            .world
            .patterns
            .iter()
            .zip(&self.stats)
            .map(|(p, s)| {
                let calls = s.calls as f64;
                let histogram = s.registry.and_then(|id| self.metrics.latency(id));
                let quantile = |q: f64| {
                    let mut merged = histogram.cloned().unwrap_or_default();
                    for &(ms, n) in &s.latencies {
                        let _ = merged.record(ms, n);
                    }
                    if q < 0.9 { merged.p50() } else { merged.p99() }
                };
                PatternReport {
                    name: p.name.clone(),
                    kind: if p.action.is_read() { "read" } else { "write" }.to_owned(),
                    operation: p.operation.map(|o| o.name().to_owned()),
                    index: p.index.clone(),
                    calls: s.calls,
                    avg_fanout: ratio(s.fanout as f64, calls),
                    avg_items_read: ratio(s.items_read as f64, calls),
                    avg_items_returned: ratio(s.items_returned as f64, calls),
                    rcu: s.units[READ],
                    wcu: s.units[WRITE],
                    rcu_per_call_start: ratio(s.head.0, s.head.1 as f64),
                    rcu_per_call_end: ratio(s.tail.0, s.tail.1 as f64),
                    throttled: s.throttled,
                    failed: s.failed,
                    latency_ms_p50: quantile(0.5).unwrap_or(0.0),
                    latency_ms_p99: quantile(0.99).unwrap_or(0.0),
                    latency_target_ms: p.latency_target_ms,
                    requests: s.requests,
                    retries: s.retries,
                    avg_pages: ratio(s.pages as f64, calls),
                    scans: s.scans,
                    collection_errors: s.collection_errors,
                }
            })
            .collect();

        let base = self.totals.base_writes as f64;
        let amplified =
            base + (self.totals.entry_writes + self.totals.copy_writes + self.totals.aggregate_writes) as f64;
        let mut notes = latency::notes();
        notes.push(match self.world.engine {
            Engine::DynamoDb => "DynamoDB metering: 3,000 RCU/s and 1,000 WCU/s per physical partition with 300 s of burst; on-demand tables start at 4 partitions and serve twice their previous peak (2,000 WRU/s, 6,000 RRU/s for a new table), a new peak counting after 30 minutes; reads are eventually consistent. Limits hold per second of simulated time with ticks of one second or less, as averages over longer ticks.".to_owned(),
            Engine::Cassandra => format!("Cassandra profile: no capacity units, so the read and write figures of partitions and patterns count operations (rcu and wcu totals stay 0); a ring of {RING_NODES} nodes, replication factor {REPLICATION}: writes go to every replica, reads to a quorum."),
        });
        notes.push(format!(
            "Metrics are kept per {} of simulated time ({} tick{} per registry tick); per-second peaks in this report are exact.",
            crate::engine::time::SimDuration::from_millis(self.tick_ms * u64::from(self.stride)),
            self.stride,
            if self.stride == 1 { "" } else { "s" }
        ));
        if self.totals.unserved_calls > 0 {
            notes.push(format!(
                "{} calls of patterns no key serves were counted but sent nothing.",
                self.totals.unserved_calls
            ));
        }
        notes.extend(self.notes.iter().cloned());

        RunReport {
            scenario: self.scenario.clone(),
            variant: self.variant.clone(),
            seed: self.seed,
            engine: self.world.engine.id().to_owned(),
            duration_s: (u64::from(self.tick) * self.tick_ms) as f64 / 1000.0,
            tick_s: self.tick_secs,
            totals: Totals {
                ops: self.totals.ops,
                reads: self.totals.reads,
                writes: self.totals.writes,
                requests: self.totals.requests,
                rcu: self.totals.units[READ],
                wcu: self.totals.units[WRITE],
                throttled_ops: self.totals.throttled,
                failed_ops: self.totals.failed,
                items,
                table_bytes,
                index_bytes,
                write_amplification: if base > 0.0 { amplified / base } else { 1.0 },
                cost_usd: 0.0,
                monthly_cost_usd: 0.0,
                price_source: String::new(),
                retries: self.totals.retries,
                ttl_deletes: self.totals.ttl_deletes,
                collection_limit_errors: self.totals.collection_errors,
            },
            partitions: Partitions {
                logical,
                physical,
                max_bytes,
                max_items,
                peak_rcu_per_s: peak_r,
                peak_wcu_per_s: peak_w,
                top: candidates,
                physical_peak_rcu_per_s: physical_peak(READ),
                physical_peak_wcu_per_s: physical_peak(WRITE),
                splits,
                splits_for_size: splits_size,
                splits_for_heat: splits_heat,
                heat_splits_refused: splits_refused,
                nodes,
            },
            indexes,
            patterns,
            goals: Vec::new(),
            notes,
        }
    }

    /// Whether a pattern writes (for callers that group patterns).
    pub fn pattern_writes(&self, name: &str) -> Option<bool> {
        self.world
            .patterns
            .iter()
            .find(|p| p.name == name)
            .map(|p| !matches!(p.action, Action::Get | Action::List))
    }
}

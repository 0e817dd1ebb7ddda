//! The run's figures as a [`RunReport`]. Everything here is read from the run's own counters;
//! goals and costs are filled later by their own modules.

use crate::engine::planner::Kind;
use crate::engine::profile::{Indexes, Latency, Metering, mongo};
use crate::engine::time::SimDuration;

use super::items::key_label;
use super::ledger::Ledger;
use super::meter::{READ, WRITE};
use super::report::{
    CacheReport, DocumentsReport, IndexReport, IndexType, NodeReport, Operations, PartitionReport,
    Partitions, PatternReport, PhysicalRuReport, RequestUnitsReport, RunReport, Totals,
};
use super::state::PatternStats;
use super::table::IndexKind;
use super::{REPLICATION, RING_NODES, Simulation, latency, physical_label};

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// Read units per call of a window of the run, (units, calls): none without a call.
fn per_call((units, calls): (f64, u64)) -> Option<f64> {
    (calls > 0).then(|| units / calls as f64)
}

/// One logical partition's figures while the top list is chosen.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    partition: u32,
    bytes: u64,
    peak: [f64; 2],
    throttled: u64,
}

/// Largest first, then the busiest for writes; the key settles ties.
pub(super) fn sort_partitions(rows: &mut [PartitionReport]) {
    rows.sort_by(|a, b| {
        b.bytes.cmp(&a.bytes).then(b.peak_wcu_per_s.total_cmp(&a.peak_wcu_per_s)).then(a.key.cmp(&b.key))
    });
}

/// A write pattern's own item writes that landed: its first requests (`fanout` counts one per
/// call that named an item; the reads sent first to learn keys are not among them) less those that failed and those still waiting for a retry when
/// the run ended (`pending`). `failed` counts side writes (copies, aggregates) too, so the
/// figure is exact only when none was sent or nothing failed.
fn landed_writes(read: bool, s: &PatternStats, pending: u64) -> Option<u64> {
    let side = s.requests.saturating_sub(s.locating).saturating_sub(s.fanout);
    // A call that gave up in its first read never sent its write.
    let failed = s.failed - s.gave_up_locating;
    (!read && (failed == 0 || side == 0)).then(|| s.fanout.saturating_sub(failed).saturating_sub(pending))
}

/// The largest and the hottest: the five first by each of bytes, write peak, read peak and
/// throttles.
fn top_partitions(rows: &mut [Candidate]) -> Vec<u32> {
    top_rows(rows, |c| [c.bytes as f64, c.peak[WRITE], c.peak[READ], c.throttled as f64], |c| c.partition)
}

/// [`top_partitions`] of any rows: `figures` gives a row's bytes, write peak, read peak and
/// throttles, `id` names it (and settles ties, the lower first). The fluid replay's report
/// chooses its top list with it too, so both replays list the same partitions.
pub(super) fn top_rows<T, K: Ord + Clone>(
    rows: &mut [T],
    figures: impl Fn(&T) -> [f64; 4],
    id: impl Fn(&T) -> K,
) -> Vec<K> {
    let mut chosen: Vec<K> = Vec::new();
    for k in 0..4 {
        rows.sort_by(|a, b| figures(b)[k].total_cmp(&figures(a)[k]).then(id(a).cmp(&id(b))));
        for row in rows.iter().take(5).filter(|r| figures(r)[k] > 0.0) {
            if !chosen.contains(&id(row)) {
                chosen.push(id(row));
            }
        }
    }
    chosen
}

/// What the registry keeps, and what a peak per second in the report is: each peak is read
/// from one tick's load over the tick's length (never from the registry), so it is the busiest
/// second only when a tick is one second.
fn metrics_note(tick_ms: u64, stride: u32) -> String {
    let tick = SimDuration::from_millis(tick_ms);
    let peaks = match tick_ms.cmp(&1000) {
        std::cmp::Ordering::Equal => {
            "peaks per second in this report are exact: the busiest second".to_owned()
        }
        std::cmp::Ordering::Greater => format!(
            "peaks per second in this report are averages over a tick of {tick}: a burst shorter than a tick is spread over it"
        ),
        std::cmp::Ordering::Less => {
            format!("peaks per second in this report are the busiest tick of {tick} at its rate per second")
        }
    };
    format!(
        "Metrics are kept per {} of simulated time ({} tick{} per registry tick); {peaks}.",
        SimDuration::from_millis(tick_ms * u64::from(stride)),
        stride,
        if stride == 1 { "" } else { "s" }
    )
}

impl Simulation {
    /// The report of the run so far (the whole run once `step` has returned false).
    pub fn report(&self) -> RunReport {
        let table_groups: Vec<usize> = self.world.tables.iter().map(|t| t.group).collect();
        let (items, table_bytes) = table_groups.iter().fold((0, 0), |(i, b), &g| {
            let ledger = self.ledger(g);
            (i + ledger.items(), b + ledger.bytes())
        });
        let indexes = self.index_reports();
        let base_writes = self.figures.totals.base_writes as f64;
        // An index entry that is a key and a record id (MongoDB) is no item written.
        let entry_items = if self.world.engine.profile().index_entries.are_items() {
            self.figures.totals.entry_writes
        } else {
            0
        };
        let all_writes = base_writes
            + (entry_items
                + self.figures.totals.copy_writes
                + self.figures.totals.aggregate_writes
                + self.figures.totals.embed_writes) as f64;
        RunReport {
            scenario: self.scenario.clone(),
            variant: self.variant.clone(),
            seed: self.seed,
            engine: self.world.engine,
            retry_policy: self.world.engine.profile().metered().then(|| self.retries.policy.name.clone()),
            duration_s: (u64::from(self.pacing.tick) * self.pacing.tick_ms) as f64 / 1000.0,
            tick_s: self.pacing.tick_secs,
            totals: Totals {
                ops: self.figures.totals.ops,
                reads: self.figures.totals.reads,
                writes: self.figures.totals.writes,
                requests: self.figures.totals.requests,
                rcu: self.figures.totals.units[READ],
                wcu: self.figures.totals.units[WRITE],
                throttled_ops: self.figures.totals.throttled,
                failed_ops: self.figures.totals.failed,
                failed_writes: self.figures.totals.failed_writes,
                gave_up: self.figures.totals.gave_up,
                writes_gave_up: self.figures.totals.writes_gave_up,
                items,
                table_bytes,
                index_bytes: indexes.iter().map(|i| i.bytes).sum(),
                write_amplification: if base_writes > 0.0 { all_writes / base_writes } else { 1.0 },
                cost_usd: 0.0,
                monthly_cost_usd: 0.0,
                price_source: String::new(),
                retries: self.figures.totals.retries,
                ttl_deletes: self.figures.totals.ttl_deletes,
                collection_limit_errors: self.figures.totals.collection_errors,
                item_size_errors: self.figures.totals.item_size_errors,
                preload_item_size_errors: self.figures.totals.preload_refused,
                overwritten_items: self.figures.totals.overwritten,
                preload_overwritten_items: self.figures.totals.preload_overwritten,
                condition_failed_writes: self.figures.totals.condition_failed,
                version_conflicts: self.figures.totals.conflicts,
                largest_item_bytes: u64::from(self.figures.totals.largest_item),
            },
            partitions: self.partitions_report(&table_groups),
            indexes,
            patterns: self.pattern_reports(),
            goals: Vec::new(),
            notes: self.notes(),
            fidelity: super::report::Fidelity::Operations,
            bands: None,
            request_units: self.request_units(&table_groups),
            documents: self.documents(),
            shards: self.shards.as_ref().map(super::shards::Cluster::report),
        }
    }

    /// MongoDB's figures: documents against their limit and what updates rewrote (`None` for a
    /// store that does not write documents whole).
    fn documents(&self) -> Option<DocumentsReport> {
        let t = &self.figures.totals;
        let rewrites = (t.rewrites, t.rewritten_bytes, ratio(t.rewritten_bytes as f64, t.rewrites as f64));
        documents_report(self.world.engine.profile(), u64::from(t.largest_item), rewrites, t.item_size_errors)
    }

    /// Cosmos DB's figures: the container's meter, partition by partition (`None` for a store
    /// whose partitions do not share a provisioned throughput).
    fn request_units(&self, table_groups: &[usize]) -> Option<RequestUnitsReport> {
        let meter = table_groups.iter().find_map(|&g| self.storage.groups[g].meter.as_ref())?;
        let (provisioned, share) = (meter.provisioned_per_s()?, meter.share_per_s()?);
        let totals = &self.figures.totals;
        let consumed = totals.units[READ] + totals.units[WRITE];
        let secs = (u64::from(self.pacing.tick) * self.pacing.tick_ms) as f64 / 1000.0;
        let mean = if secs > 0.0 { consumed / secs } else { 0.0 };
        let partitions: Vec<PhysicalRuReport> = (0..meter.parts.len())
            .map(|i| {
                let p = &meter.parts[i];
                PhysicalRuReport {
                    range: physical_label(p.lo),
                    normalized_ru_consumption: Some(meter.peak_share(i)),
                    consumed_ru: p.total[READ] + p.total[WRITE],
                    throttled_attempts: p.throttled,
                }
            })
            .collect();
        let responses_429: u64 = partitions.iter().map(|p| p.throttled_attempts).sum();
        let responses = totals.requests + totals.retries;
        Some(RequestUnitsReport {
            provisioned_ru_per_s: provisioned,
            physical_partitions: meter.parts.len() as u64,
            partition_ru_per_s: share,
            consumed_ru: consumed,
            mean_ru_per_s: mean,
            mean_share_of_provisioned: if provisioned > 0.0 { mean / provisioned } else { 0.0 },
            requests_429: totals.throttled,
            share_429: if totals.requests > 0 {
                totals.throttled as f64 / totals.requests as f64
            } else {
                0.0
            },
            responses_429,
            share_429_responses: if responses > 0 { responses_429 as f64 / responses as f64 } else { 0.0 },
            normalized_ru_consumption: Some(
                partitions.iter().filter_map(|p| p.normalized_ru_consumption).fold(0.0, f64::max),
            ),
            partitions,
        })
    }

    /// The table's logical partitions (every table's, for Cassandra), its physical ones and
    /// the ring.
    fn partitions_report(&self, table_groups: &[usize]) -> Partitions {
        let multi_table = table_groups.len() > 1;
        let mut p = Partitions {
            logical: 0,
            physical: 0,
            max_bytes: 0,
            max_items: 0,
            peak_rcu_per_s: 0.0,
            peak_wcu_per_s: 0.0,
            top: Vec::new(),
            index_top: self.index_top(),
            physical_peak_rcu_per_s: 0.0,
            physical_peak_wcu_per_s: 0.0,
            splits: 0,
            splits_for_size: 0,
            splits_for_heat: 0,
            heat_splits_refused: 0,
            nodes: self.node_reports(),
        };
        for &g in table_groups {
            let (t, _) = self.world.groups[g];
            let ledger = self.ledger(g);
            p.logical += ledger.live_partitions();
            let mut rows = self.candidates(g);
            for c in &rows {
                p.max_bytes = p.max_bytes.max(c.bytes);
                p.max_items = p.max_items.max(ledger.partition(c.partition).items());
                p.peak_rcu_per_s = p.peak_rcu_per_s.max(c.peak[READ]);
                p.peak_wcu_per_s = p.peak_wcu_per_s.max(c.peak[WRITE]);
            }
            for q in top_partitions(&mut rows) {
                let key = key_label(ledger.partition(q).key_type, ledger.key_of(q));
                let key = if multi_table { format!("{}/{key}", self.world.tables[t].name) } else { key };
                p.top.push(self.partition_report(g, ledger, q, key, None));
            }
            if let Some(meter) = &self.storage.groups[g].meter {
                p.physical += meter.parts.len() as u64;
                p.splits_for_size += meter.splits_size;
                p.splits_for_heat += meter.splits_heat;
                p.heat_splits_refused += meter.splits_blocked;
                for i in 0..meter.parts.len() {
                    p.physical_peak_rcu_per_s = p.physical_peak_rcu_per_s.max(meter.peak(i, READ));
                    p.physical_peak_wcu_per_s = p.physical_peak_wcu_per_s.max(meter.peak(i, WRITE));
                }
            }
        }
        if let Some((nodes, ..)) = self.world.engine.profile().ring() {
            p.physical = nodes as u64;
        }
        p.splits = p.splits_for_size + p.splits_for_heat;
        sort_partitions(&mut p.top);
        p
    }

    /// The logical partitions of group `g` that hold items or saw load, with their peaks.
    fn candidates(&self, g: usize) -> Vec<Candidate> {
        let secs = self.pacing.tick_secs;
        let mut rows = Vec::new();
        for (q, part) in self.ledger(g).partitions().iter().enumerate() {
            let load = self.storage.load_of(g, q);
            let peak = [load.peak_now(READ, secs), load.peak_now(WRITE, secs)];
            if part.items() == 0 && peak[READ] <= 0.0 && peak[WRITE] <= 0.0 {
                continue;
            }
            let partition = u32::try_from(q).unwrap_or(u32::MAX);
            rows.push(Candidate { partition, bytes: part.bytes, peak, throttled: u64::from(load.throttled) });
        }
        rows
    }

    /// The largest and hottest logical partitions of every index, chosen as the table's are.
    fn index_top(&self) -> Vec<PartitionReport> {
        let mut top = Vec::new();
        for (g, &(_, index)) in self.world.groups.iter().enumerate() {
            if index.is_none() {
                continue;
            }
            let ledger = self.ledger(g);
            let mut rows = self.candidates(g);
            let name = self.world.group_name(g);
            for q in top_partitions(&mut rows) {
                let key = key_label(ledger.partition(q).key_type, ledger.key_of(q));
                top.push(self.partition_report(g, ledger, q, key, Some(name.clone())));
            }
        }
        sort_partitions(&mut top);
        top
    }

    fn partition_report(
        &self,
        group: usize,
        ledger: &Ledger,
        partition: u32,
        key: String,
        index: Option<String>,
    ) -> PartitionReport {
        let secs = self.pacing.tick_secs;
        let part = ledger.partition(partition);
        let load = self.storage.load_of(group, partition as usize);
        // Only a table partition counts the attempts it refused (an index counts its own).
        let attempts = index.is_none().then_some(u64::from(load.throttled));
        PartitionReport {
            key,
            index,
            bytes: part.bytes,
            items: part.items(),
            peak_rcu_per_s: load.peak_now(READ, secs),
            peak_wcu_per_s: load.peak_now(WRITE, secs),
            throttled_ops: attempts.unwrap_or(0),
            throttled_attempts: attempts,
        }
    }

    fn node_reports(&self) -> Vec<NodeReport> {
        let mut nodes = Vec::with_capacity(self.storage.nodes.len());
        for (n, node) in self.storage.nodes.iter().enumerate() {
            // Fold the open tick into the peaks.
            let mut node = *node;
            node.roll(self.pacing.tick.saturating_add(1), self.pacing.tick_secs);
            nodes.push(NodeReport {
                node: format!("node {}", n + 1),
                stored_bytes: node.stored,
                ops: node.ops,
                peak_ops_per_s: node.peak_ops,
                peak_bytes_per_s: node.peak_bytes,
            });
        }
        nodes
    }

    fn index_reports(&self) -> Vec<IndexReport> {
        let secs = self.pacing.tick_secs;
        let table_wcu: f64 =
            self.world.tables.iter().map(|t| self.storage.groups[t.group].units[WRITE]).sum();
        let mut out = Vec::new();
        for (g, &(t, index)) in self.world.groups.iter().enumerate() {
            let Some(i) = index else { continue };
            let ledger = self.ledger(g);
            let group = &self.storage.groups[g];
            // The hottest key is the one with the highest write peak, the figure reports print
            // beside it, as the Partitions section and the heatmap pick theirs; the first on a tie.
            let mut hottest: Option<(u32, f64)> = None;
            let (mut peak, mut max_partition) = (0.0f64, 0u64);
            for (q, part) in ledger.partitions().iter().enumerate() {
                max_partition = max_partition.max(part.bytes);
                let key_peak = self.storage.load_of(g, q).peak_now(WRITE, secs);
                peak = peak.max(key_peak);
                if key_peak > hottest.map_or(0.0, |(_, h)| h) {
                    hottest = Some((u32::try_from(q).unwrap_or(u32::MAX), key_peak));
                }
            }
            // A GSI's consumption is its physical partitions' (its entries may wait in a queue).
            if let Some(meter) = &group.meter {
                peak = (0..meter.parts.len()).map(|x| meter.peak(x, WRITE)).fold(0.0, f64::max);
            }
            out.push(IndexReport {
                name: self.world.group_name(g),
                // A store of views makes every index a view, whatever its key.
                kind: match self.world.tables[t].indexes[i].kind {
                    _ if self.world.engine.profile().indexes == Indexes::Views => IndexType::View,
                    IndexKind::Global => IndexType::Global,
                    IndexKind::Local => IndexType::Local,
                },
                wcu: group.units[WRITE],
                rcu: group.units[READ],
                bytes: ledger.bytes(),
                items: ledger.items(),
                wcu_vs_table: ratio(group.units[WRITE], table_wcu),
                max_lag_s: group.max_lag_secs,
                throttled_ops: group.throttled,
                hottest_key: hottest.map(|(q, _)| key_label(ledger.partition(q).key_type, ledger.key_of(q))),
                hottest_key_peak_wcu_per_s: hottest.map_or(0.0, |(_, h)| h),
                peak_wcu_per_s: peak,
                partitions: ledger.live_partitions(),
                max_partition_bytes: max_partition,
                entry_writes: group.entry_writes,
                stale_reads: group.stale_reads,
            });
        }
        out
    }

    fn pattern_reports(&self) -> Vec<PatternReport> {
        let mut out = Vec::with_capacity(self.figures.stats.len());
        // Each pattern's own requests (request 0) still waiting for a retry: not landed yet.
        let mut pending = vec![0u64; self.figures.stats.len()];
        for retry in self.retries.waiting() {
            if retry.request == 0
                && let Some(n) = pending.get_mut(usize::from(retry.pattern))
            {
                *n += 1;
            }
        }
        for ((p, s), &pending) in self.world.patterns.iter().zip(&self.figures.stats).zip(&pending) {
            let calls = s.calls as f64;
            // A read's figures per call are over the calls that completed: one that gave up or
            // still waits for its retry returned nothing yet.
            let read = p.action.is_read();
            let per = if read { s.served as f64 } else { calls };
            // The registry's histogram, plus what waits for the next registry tick.
            let mut latency =
                s.registry.and_then(|id| self.figures.metrics.latency(id)).cloned().unwrap_or_default();
            for &(ms, n) in &s.latencies {
                let _ = latency.record(ms, n);
            }
            out.push(PatternReport {
                name: p.name.clone(),
                kind: if p.action.is_read() { Kind::Read } else { Kind::Write },
                // A read split by entity names each part's operation: "GetItem + Query".
                // A write that reads its key first names that read first: "Scan + UpdateItem".
                operation: p.operation.map(|o| match p.locate.as_ref() {
                    Some((first, _)) => Operations::new(*first, [o]),
                    None => Operations::new(o, p.parts.iter().map(|part| part.operation)),
                }),
                index: p.index.clone(),
                calls: s.calls,
                served_calls: s.served,
                served_rcu: s.served_units,
                avg_fanout: ratio(s.fanout as f64, calls),
                max_fanout: s.max_fanout,
                max_requests: s.max_requests,
                avg_items_read: ratio(s.items_read as f64, per),
                avg_items_returned: ratio(s.items_returned as f64, per),
                rcu: s.units[READ],
                wcu: s.units[WRITE],
                rcu_per_call_start: per_call(s.head),
                rcu_per_call_end: per_call(s.tail),
                throttled: s.throttled,
                failed: s.failed,
                latency_ms_p50: latency.p50().unwrap_or(0.0),
                latency_ms_p99: latency.p99().unwrap_or(0.0),
                timed: true,
                // Calls nothing serves are sent nowhere: they did not stop short of finishing.
                unfinished: if p.operation.is_some() { s.calls.saturating_sub(latency.count()) } else { 0 },
                latency_target_ms: p.latency_target_ms,
                requests: s.requests,
                landed_writes: landed_writes(p.action.is_read(), s, pending),
                retries: s.retries,
                avg_pages: ratio(s.pages as f64, calls),
                scans: s.scans,
                collection_errors: s.collection_errors,
                item_size_errors: s.item_size_errors,
                overwrote: s.overwrote,
                condition_failed: s.condition_failed,
                version_conflicts: s.conflicts,
                duplicates: s.duplicates,
                stale_reads: s.stale_reads,
                cache: self.items.cache.as_ref().filter(|c| c.patterns[out.len()]).map(|_| CacheReport {
                    hits: s.cache_hits,
                    misses: s.cache_misses,
                    hit_ratio: ratio(s.cache_hits as f64, (s.cache_hits + s.cache_misses) as f64),
                    rcu_saved: s.cache_units_saved,
                }),
            });
        }
        out
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = latency::notes(self.world.engine.profile().latency, &self.retries.policy);
        let profile = self.world.engine.profile();
        let metering = match profile.metering {
            // A store that meters nothing off a ring says so in its latency notes (MongoDB).
            Metering::Operations if profile.ring().is_none() => None,
            Metering::Units => Some("DynamoDB metering: each physical partition serves 3,000 RCU/s or 1,000 WCU/s or a linear combination of both (RCU/3000 + WCU/1000 ≤ 1), and nothing lifts that; burst (300 s of unused capacity) belongs to a provisioned table's allowance, never to a partition. On-demand tables serve twice their previous peak as a linear combination (a new table's previous peak counts as 2,000 WRU/s and 6,000 RRU/s, so 4,000 WRU/s or 12,000 RRU/s), a new peak counting after 30 minutes, and have no burst. Initial partition counts (4 on demand, ceil(RCU/3000 + WCU/1000) provisioned) are keyheat's assumption: AWS documents no formula. Reads are eventually consistent. Limits hold per second of simulated time with ticks of one second or less, as averages over longer ticks.".to_owned()),
            Metering::RequestUnits => Some("Cosmos DB metering: every request is charged request units (RU), one currency for reads and writes, by Microsoft's table of charges by document size (\"Understand request units consumption\", which calls its figures illustrative): a point read of a 1 KB item 1 RU, of 64 KB 4.76 RU; a create or a delete of 1 KB 4.95 RU, of 128 KB 48.19 RU; a replace deletes the old document and inserts the new one, two writes by size. keyheat draws the straight line between the documented sizes and does not add the 0.2 RU per indexed term (it does not count an item's terms), so its writes are a floor by about 0.2 RU per indexed property; a query pays 2.5 RU per page on each partition plus 1 RU per started KB it loads (keyheat's reading of the documented ~2–3 RU per partition and ~1,000 RU for 1,000 items of 1 KB). The container's RU/s is divided evenly among its physical partitions, each serving at most 10,000 RU/s; a new container starts with ceil(RU/s ÷ 6,000) partitions manual, ceil(max ÷ 10,000) autoscale (Microsoft's planning heuristic); partitions split past 50 GB, never for a hot key. A partition serves a request while it has RU left in the second, even one costing more than what is left, and the next seconds pay the excess back (keyheat's assumption: Microsoft does not document it; users report it); once a second's RU are spent, a request gets 429 (Request rate too large), is not charged, and is retried. Limits hold per second of simulated time with ticks of one second or less.".to_owned()),
            Metering::Operations => Some(format!("Cassandra profile: no capacity units, so the read and write figures of partitions and patterns count operations (SELECTs and writes of a partition; the JSON report's rcu and wcu totals stay 0); a ring of {RING_NODES} nodes, replication factor {REPLICATION}: writes go to every replica, reads to a quorum.")),
        };
        notes.extend(metering);
        if let Some(grace) = profile.tombstone_grace_secs
            && self.figures.totals.ttl_deletes > 0
        {
            notes.push(format!(
                "Cassandra TTL: an expired row is invisible to reads at once (reads filter expired cells), so the replay drops it at the first tick after it expires; its tombstone stays on disk at least gc_grace_seconds ({} days by default) until a compaction purges it. Sizes and row counts here are live rows, not bytes on disk.",
                grace / 86_400
            ));
        }
        notes.push(metrics_note(self.pacing.tick_ms, self.figures.stride));
        if self.figures.totals.unserved_calls > 0 {
            notes.push(format!(
                "{} calls of patterns no key serves were counted but sent nothing.",
                self.figures.totals.unserved_calls
            ));
        }
        notes
    }
}

/// MongoDB's figures (`None` for a store that does not write documents whole): the largest
/// document against the limit, the new versions writes to a key holding a document built
/// (`rewrites`: how many, their bytes, and their mean) and the writes refused past the limit.
/// The fluid replay fills it from its expected values, the mean from the sums before they are
/// rounded (an expected 0.4 updates of 136 bytes is a mean of 136, not 0 or 70).
pub(super) fn documents_report(
    profile: &crate::engine::profile::Profile,
    largest: u64,
    (updates, new_version_bytes, mean): (u64, u64, f64),
    refused_too_large: u64,
) -> Option<DocumentsReport> {
    if profile.latency != Latency::Documents {
        return None;
    }
    let limit = profile.item_limit.map_or(0, |l| l as u64);
    Some(DocumentsReport {
        limit_bytes: limit,
        largest_document_bytes: largest,
        largest_share_of_limit: ratio(largest as f64, limit as f64),
        updates,
        new_version_bytes,
        mean_new_version_bytes_per_update: mean,
        refused_too_large,
        refusal: format!(
            "{} (an update: \"{}\", {}; an insert: \"{}\")",
            mongo::TOO_LARGE,
            mongo::TOO_LARGE_UPDATE,
            mongo::TOO_LARGE_UPDATE_CODES,
            mongo::TOO_LARGE_INSERT
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::metrics_note;

    #[test]
    fn the_metrics_note_calls_peaks_exact_only_with_one_second_ticks() {
        let cases = [
            (
                1000,
                1,
                "per 1s of simulated time (1 tick per registry tick); peaks per second in this report are exact: the busiest second.",
            ),
            (
                1000,
                4,
                "per 4s of simulated time (4 ticks per registry tick); peaks per second in this report are exact",
            ),
            (
                60_000,
                1,
                "peaks per second in this report are averages over a tick of 1m: a burst shorter than a tick is spread over it.",
            ),
            (100, 1, "peaks per second in this report are the busiest tick of 100ms at its rate per second."),
        ];
        for (tick_ms, stride, expected) in cases {
            let note = metrics_note(tick_ms, stride);
            assert!(note.contains(expected), "{tick_ms} ms × {stride}: {note}");
            assert_eq!(note.contains("exact"), tick_ms == 1000, "{note}");
        }
    }
}

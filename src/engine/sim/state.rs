//! Per-run bookkeeping: load on every logical partition, per-group and per-pattern totals, and
//! the retry queue's entries. Plain data; the simulator writes it, the report reads it.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::cache::ItemCache;
use super::items::Val;
use super::meter::{Meter, WRITE};
use super::table::{Table, Touch};
use crate::engine::metrics::{GroupId, PatternId};

/// No registry row.
pub const NO_ROW: u32 = u32::MAX;

/// The run's tables and what is known of their partitions: the rows (ledgers), the load and
/// meter of every table and index, the Cassandra ring. Requests (`exec`) and upkeep (TTL,
/// splits) change it.
#[derive(Debug)]
pub struct Storage {
    pub tables: Vec<Table>,
    /// Per group (a table or an index).
    pub groups: Vec<GroupState>,
    /// The Cassandra ring's nodes (none on DynamoDB).
    pub nodes: Vec<Node>,
    /// Per table: the group of the table, then of each index (touch groups to run groups).
    pub group_of: Vec<Vec<usize>>,
    /// The touches of the last write through a table (reused).
    pub touches: Vec<Touch>,
    /// Logical partitions (group, partition) with plain puts not yet counted
    /// (`Load::unsettled`).
    pub unsettled: Vec<(usize, u32)>,
}

impl Storage {
    /// The load of logical partition `p` of group `g`, created on first use.
    #[inline]
    pub fn load(&mut self, g: usize, p: u32) -> &mut Load {
        let loads = &mut self.groups[g].loads;
        if loads.len() <= p as usize {
            loads.resize(p as usize + 1, Load::default());
        }
        &mut loads[p as usize]
    }

    /// Whether a read of `hash` in GSI `group` sees a lagging partition (entry writes queued).
    pub fn lagging(&self, group: usize, hash: u64) -> bool {
        let g = &self.groups[group];
        g.metered_by == group && g.meter.as_ref().is_some_and(|m| m.pending(m.locate(hash)))
    }

    /// The load of logical partition `partition` of group `group` (none if never touched).
    pub fn load_of(&self, group: usize, partition: usize) -> Load {
        self.groups[group].loads.get(partition).copied().unwrap_or_default()
    }
}

/// What became of the items since they were born (their values are drawn again from the
/// seed, `regen`): the changes writes made, version stamps, pending expiries, and the counts
/// growth and numbering go on from. Writes (`exec`) and upkeep (TTL, copies) change it.
#[derive(Debug)]
pub struct ItemState {
    /// Per item handle: the attributes writes changed since its birth, (slot, value).
    pub overrides: HashMap<u32, Vec<(u16, Val)>>,
    /// When each item last took a version-checked update (ms): what a later read-modify-write
    /// of it conflicts with.
    pub versions: HashMap<u32, u64>,
    /// Per entity, (expiry in epoch seconds, item) soonest first. Writes set different lifetimes
    /// (a pattern's `ttl`, the variant's), so the expiries come in any order; an update that slid
    /// an item's expiry leaves its old entry, which the sweep finds stale and queues again.
    pub ttl: Vec<BinaryHeap<Reverse<(i64, u32)>>>,
    /// Members each population gained by growth so far.
    pub grown: Vec<u64>,
    /// Items written so far per (entity, member attribute, member): what `Nth` numbers from.
    pub nth: HashMap<(usize, usize, u64), u32>,
    /// Per copy: holders (item handles) by the member they copy from.
    pub copy_holders: Vec<HashMap<u64, Vec<u32>>>,
    /// The variant's read-through item cache, if it declares one (`None` costs the hot path
    /// one branch per GetItem request).
    pub cache: Option<ItemCache>,
}

impl ItemState {
    /// A landed write's changes become the item's overrides, each attribute's latest value
    /// replacing the one before.
    #[inline]
    pub fn keep_changes(&mut self, id: u32, changes: &[(u16, Val)]) {
        if changes.is_empty() {
            return;
        }
        merge_changes(self.overrides.entry(id).or_default(), changes);
    }

    /// Item `id`'s overrides with `changes` laid over them: the values a moved item carries to
    /// its new key.
    pub fn with_changes(&self, id: u32, changes: &[(u16, Val)]) -> Vec<(u16, Val)> {
        let mut merged = self.overrides.get(&id).cloned().unwrap_or_default();
        merge_changes(&mut merged, changes);
        merged
    }
}

/// Lays `changes` over `overrides`: each attribute's new value replaces the one before, or is
/// added.
fn merge_changes(overrides: &mut Vec<(u16, Val)>, changes: &[(u16, Val)]) {
    for &(attr, value) in changes {
        match overrides.iter_mut().find(|(a, _)| *a == attr) {
            Some(entry) => entry.1 = value,
            None => overrides.push((attr, value)),
        }
    }
}

/// Load on one logical partition. Per-tick amounts roll into peaks lazily, on the partition's
/// next touch in a later tick (or when the report reads them).
#[derive(Debug, Clone, Copy)]
pub struct Load {
    pub tick: u32,
    /// This tick's read and write units (operations in the Cassandra profile) and bytes moved.
    pub now: [f64; 2],
    pub now_bytes: f64,
    pub peak: [f64; 2],
    pub peak_bytes: f64,
    pub total: [f64; 2],
    pub requests: u64,
    pub throttled: u32,
    /// Stored bytes last added to the physical partition's total.
    pub seen_bytes: u64,
    pub row: u32,
    /// The registry span this partition was last queued for flushing in.
    pub span: u32,
    pub span_units: [f32; 2],
    pub span_throttled: u32,
    /// Heat: units in the current and the previous global window.
    pub window: u32,
    pub window_units: f32,
    pub previous_units: f32,
    /// Plain puts not yet counted on this load and the partition's replicas
    /// (`Simulation::defer_put`).
    pub unsettled: u32,
}

impl Default for Load {
    fn default() -> Load {
        Load {
            tick: 0,
            now: [0.0; 2],
            now_bytes: 0.0,
            peak: [0.0; 2],
            peak_bytes: 0.0,
            total: [0.0; 2],
            requests: 0,
            throttled: 0,
            seen_bytes: 0,
            row: NO_ROW,
            span: u32::MAX,
            span_units: [0.0; 2],
            span_throttled: 0,
            window: 0,
            window_units: 0.0,
            previous_units: 0.0,
            unsettled: 0,
        }
    }
}

impl Load {
    /// Moves to `tick`: the previous tick's amounts become peaks per second.
    pub fn roll(&mut self, tick: u32, tick_secs: f64) {
        if self.tick != tick {
            for d in 0..2 {
                self.peak[d] = self.peak[d].max(self.now[d] / tick_secs);
                self.now[d] = 0.0;
            }
            self.peak_bytes = self.peak_bytes.max(self.now_bytes / tick_secs);
            self.now_bytes = 0.0;
            self.tick = tick;
        }
    }

    /// Peak per second, counting the open tick.
    pub fn peak_now(&self, dim: usize, tick_secs: f64) -> f64 {
        self.peak[dim].max(self.now[dim] / tick_secs)
    }

    /// `puts` writes of one unit each, moving no bytes, in tick `tick` (`Simulation::touch` of
    /// each, at once). Exact as long as a partition's units of a heat window or registry span
    /// stay below 2^24, an f32's whole numbers, as they did one at a time.
    pub fn count_writes(&mut self, tick: u32, tick_secs: f64, window: u32, puts: u32) {
        self.roll(tick, tick_secs);
        let units = f64::from(puts);
        self.now[WRITE] += units;
        self.total[WRITE] += units;
        self.requests += u64::from(puts);
        #[expect(clippy::cast_precision_loss, reason = "a tick's puts on one partition, far below 2^24")]
        let units32 = puts as f32;
        self.add_window(window, units32);
        self.span_units[WRITE] += units32;
    }

    pub fn add_window(&mut self, window: u32, units: f32) {
        if self.window != window {
            self.previous_units = if window == self.window + 1 { self.window_units } else { 0.0 };
            self.window_units = 0.0;
            self.window = window;
        }
        self.window_units += units;
    }

    /// Units over the current and previous heat windows, as of `window`.
    pub fn recent(&self, window: u32) -> f32 {
        if self.window == window {
            self.window_units + self.previous_units
        } else if self.window + 1 == window {
            self.window_units
        } else {
            0.0
        }
    }
}

/// One table, GSI or LSI while the run goes.
#[derive(Debug, Clone)]
pub struct GroupState {
    /// The DynamoDB meter of a table or GSI (an LSI is metered by its table's partitions).
    pub meter: Option<Meter>,
    /// The group whose meter serves this one.
    pub metered_by: usize,
    pub loads: Vec<Load>,
    pub registry: GroupId,
    pub units: [f64; 2],
    /// Requests refused by this group's partitions (for a GSI: table writes refused by its
    /// back-pressure).
    pub throttled: u64,
    pub entry_writes: u64,
    pub max_lag_secs: f64,
    /// Query requests on a partition with entry writes queued.
    pub stale_reads: u64,
}

/// Figures of one access pattern.
#[derive(Debug, Clone, Default)]
pub struct PatternStats {
    pub calls: u64,
    /// Requests sent (every page of a Query or Scan counts), first attempts only.
    pub requests: u64,
    pub retries: u64,
    /// Of `requests`: those of the reads a write sent first to learn its key (each attempt of
    /// the call sends them again).
    pub locating: u64,
    /// Of `failed`: calls that gave up in the read sent first, before any write was sent.
    pub gave_up_locating: u64,
    /// Partitions (Query) or keys (GetItem/BatchGetItem) addressed per call, summed.
    pub fanout: u64,
    /// The most one call addressed.
    pub max_fanout: u64,
    /// The most requests one read call sent, every page counted (a retry is not another).
    pub max_requests: u64,
    pub pages: u64,
    /// Items read from the store and returned to the application: a read's by the calls that
    /// completed (the numerators of its items per call, over `served`), a write's by all.
    pub items_read: u64,
    pub items_returned: u64,
    pub partitions_touched: u64,
    pub units: [f64; 2],
    /// Calls that completed (a call that gave up, or still waits for a retry, has not).
    pub served: u64,
    /// Read units spent by the calls that completed: the numerator of a read's units per call,
    /// over `served` (a call that gave up partway spent units too, in `units` only).
    pub served_units: f64,
    /// Read units spent by the calls of the first and last tenth of the run that completed,
    /// and how many of those calls completed.
    pub head: (f64, u64),
    pub tail: (f64, u64),
    pub throttled: u64,
    pub failed: u64,
    pub scans: u64,
    /// Writes refused with ItemCollectionSizeLimitExceeded.
    pub collection_errors: u64,
    /// Writes refused because the item would pass 400 KB.
    pub item_size_errors: u64,
    /// Puts that replaced a different item at their key (that item is lost).
    pub overwrote: u64,
    /// Writes refused by their condition (ConditionalCheckFailedException): a create-once put
    /// onto a taken key, a version check another writer beat.
    pub condition_failed: u64,
    /// Version checks lost to another writer, each followed by a re-read and a retry.
    pub conflicts: u64,
    /// Puts that landed although their claim was taken (no transaction held them together):
    /// two items now share the value the claim keeps unique.
    pub duplicates: u64,
    /// Query requests on a GSI partition with entry writes queued.
    pub stale_reads: u64,
    /// Keys a read through the variant's cache found there (no table read) and did not.
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Read units the hits would have cost the table.
    pub cache_units_saved: f64,
    /// Since the registry's last tick.
    pub span: SpanStats,
    /// Latencies since the registry's last tick, equal values merged.
    pub latencies: Vec<(f64, u64)>,
    pub registry: Option<PatternId>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct SpanStats {
    pub calls: f64,
    pub partitions: f64,
    pub items_read: f64,
    pub items_returned: f64,
    pub read_units: f64,
    pub write_units: f64,
    pub throttled: f64,
    pub scans: f64,
}

impl PatternStats {
    #[inline]
    pub fn latency(&mut self, ms: f64) {
        if let Some(entry) = self.latencies.iter_mut().find(|(v, _)| (*v - ms).abs() < 1e-9) {
            entry.1 += 1;
        } else {
            self.latencies.push((ms, 1));
        }
    }
}

/// A request waiting for its retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Retry {
    pub due_ms: u64,
    pub seq: u64,
    pub pattern: u16,
    /// Which request of the call (0: the main request).
    pub request: u32,
    /// Retries made so far.
    pub retries: u32,
    pub call: u64,
    pub tick: u32,
    pub time_ms: u64,
    /// For a put: the ordinal it allocated.
    pub ordinal: u32,
    /// The call's latency without waits, as f64 bits (so the entry stays `Ord`).
    pub base_bits: u64,
    /// Whether this request reports the call's latency when it completes.
    pub reports: bool,
}

/// Run-wide counts.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    pub ops: u64,
    pub reads: u64,
    pub writes: u64,
    pub requests: u64,
    pub retries: u64,
    pub units: [f64; 2],
    pub throttled: u64,
    pub failed: u64,
    /// Item writes that landed (puts, updates, deletes, copies, aggregates), and index entry
    /// writes they caused.
    pub item_writes: u64,
    pub base_writes: u64,
    pub entry_writes: u64,
    pub copy_writes: u64,
    pub aggregate_writes: u64,
    /// Appends of a child to its parent's list besides the child's own put (the subset pattern).
    pub embed_writes: u64,
    pub collection_errors: u64,
    /// Writes refused because the item would pass 400 KB.
    pub item_size_errors: u64,
    /// Requests that ran out of retries, and the writes among them.
    pub gave_up: u64,
    pub writes_gave_up: u64,
    /// Writes that never landed, whatever the reason (refused, invalid, out of retries).
    pub failed_writes: u64,
    /// Items of the initial load refused because they pass 400 KB: never in the table.
    pub preload_refused: u64,
    /// Puts of new items (patterns and growth) that replaced a different item at their key, and
    /// initial items loaded onto a key an earlier one held: the replaced items are lost.
    pub overwritten: u64,
    pub preload_overwritten: u64,
    /// Writes refused by their condition, and the version conflicts among them.
    pub condition_failed: u64,
    pub conflicts: u64,
    /// Bytes of the largest item stored, preloaded or written.
    pub largest_item: u32,
    /// Writes that stored a new version of an item already there, and the bytes of those
    /// versions: what a store that writes a document whole rewrites (`profile::mongo`).
    pub rewrites: u64,
    pub rewritten_bytes: u64,
    pub ttl_deletes: u64,
    pub growth_writes: u64,
    pub unserved_calls: u64,
}

/// A Cassandra node of the ring.
#[derive(Debug, Clone, Copy, Default)]
pub struct Node {
    pub tick: u32,
    pub now_ops: f64,
    pub now_bytes: f64,
    pub peak_ops: f64,
    pub peak_bytes: f64,
    pub ops: u64,
    pub bytes_moved: u64,
    /// Bytes of the replicas it stores.
    pub stored: u64,
    pub row: u32,
    pub span_ops: f64,
}

impl Node {
    pub fn roll(&mut self, tick: u32, tick_secs: f64) {
        if self.tick != tick {
            self.peak_ops = self.peak_ops.max(self.now_ops / tick_secs);
            self.peak_bytes = self.peak_bytes.max(self.now_bytes / tick_secs);
            self.now_ops = 0.0;
            self.now_bytes = 0.0;
            self.tick = tick;
        }
    }

    /// `ops` operations, moving `bytes` in all, served by this replica in tick `tick`.
    pub fn took(&mut self, tick: u32, tick_secs: f64, ops: u32, bytes: u64) {
        self.roll(tick, tick_secs);
        self.now_ops += f64::from(ops);
        self.now_bytes += bytes as f64;
        self.ops += u64::from(ops);
        self.bytes_moved += bytes;
        self.span_ops += f64::from(ops);
    }
}

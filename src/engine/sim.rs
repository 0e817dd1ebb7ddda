//! The simulator: replays a scenario's workload against a key design in simulated time, with
//! DynamoDB's semantics (or Cassandra's guidance), and reports what a real table would feel.
//!
//! # What a run does
//!
//! Time advances in the scenario's ticks. In each tick every access pattern makes `rate × shape
//! factor × tick` calls (the fraction carried to the next tick, so counts are exact and
//! deterministic), spread evenly over the tick and interleaved by time. Each call does what the
//! planner's plan for the variant says (`planner::plan`): a GetItem, a BatchGetItem of every write
//! shard, the Queries of a fan-out (every time bucket over the range, every shard), a Scan paged
//! 1 MB at a time, a PutItem/UpdateItem/DeleteItem with its index entries and maintained
//! aggregates. Costs come from executing those requests against the compact table
//! ([`ledger`]), with `store::capacity`'s rules; nothing is estimated.
//!
//! Every draw is a function of (seed, stream, index): a pattern's picks of call `k`, an item's
//! attributes of ordinal `i`. The same scenario, variant and seed give byte-identical reports.
//!
//! # DynamoDB behaviour modelled (sources in [`meter`] and [`latency`])
//!
//! Physical partitions per table and GSI as hash ranges (4 for a new on-demand table), 3,000 RCU/s
//! and 1,000 WCU/s each with a 300-second burst bucket, a table-level allowance (on-demand: twice
//! the previous peak, which takes 30 minutes to move; provisioned: the provisioned rate plus
//! burst), splits on size (10 GB) and on heat (80% for 5 minutes, never below one key), never
//! merged. A throttled request is retried by the simulated client under the scenario's retry
//! policy ([`crate::engine::retry`]; by default the AWS SDK for Java v1's DynamoDB policy: 500 ms
//! doubling with equal jitter, capped at 20 s, 10 retries); a write that runs out of retries
//! never lands. The aggregate and denormalized-copy writes a
//! call causes are requests of their own, retried alike (an aggregate recomputed from its trigger
//! item, a copy rewritten with its source's value at the retry). A GSI has its own partitions; writes it cannot
//! take at once wait in a per-partition queue (the replication lag), and when a queue holds 5
//! seconds of the partition's capacity the table's writes that touch it are throttled
//! (back-pressure). The lag applies to reads: an entry change (put, delete, or both for a key
//! change) that queues is held back and reaches the index only when the queue drains past it, so
//! a Query of the index sees it as of its replication point; Queries of a partition with writes
//! queued are counted as stale reads (per pattern and per index). A queue follows its keys when
//! its partition splits; TTL deletes, free, still wait behind a queue. Entries still queued when
//! the run ends are not in the index's figures. An index that keeps up costs nothing extra. An
//! LSI's entries count toward the item collection, and a write past 10 GB fails with
//! ItemCollectionSizeLimitExceeded. TTL deletes expired items 48 hours after expiry, free.
//!
//! # Cassandra profile
//!
//! Each entity is its own table. No capacity units and no throttling: load is counted in
//! operations and bytes per second per partition and per node of a ring of 6 nodes with
//! replication factor 3 (a partition lives on the node owning its token and the next two; a
//! write touches all three replicas, a read a quorum of two). Reads of large partitions get
//! slower (see [`latency`]); partition sizes are held against ~100 MB and ~100,000 rows.
//!
//! # Memory
//!
//! Items are never materialized in bulk: a row is a few bytes, bit-packed ([`ledger`]), and values are
//! regenerated from the seed when something must look at them ([`items`]). Metrics go into
//! `engine::metrics::Metrics` at a resolution of at most [`METRIC_TICKS`] registry ticks per run;
//! logical partitions get a registry row for the first [`LOGICAL_ROWS`] to become active and up
//! to [`HOT_ROWS`] more that get hot later (at half a partition limit, or half the Cassandra size
//! guidance); every logical partition keeps its own cheap totals and peaks for the report.
//!
//! # Parts
//!
//! A `Simulation` is the compiled [`world::World`] and parts, each defined by the module that
//! changes it: [`pacing::Pacing`] (the clock and the open tick's calls, moved by
//! [`Simulation::advance`]), [`state::Storage`] (ledgers, group loads and meters, the ring),
//! [`state::ItemState`] (what happened to items since their birth), [`exec::Retries`] and
//! [`exec::Replication`] (throttled requests waiting, GSI entry changes held back),
//! [`upkeep::Upkeep`] (copies, aggregates, embedded lists, Scan marks), [`flush::Figures`]
//! (what the run measured) and [`Scratch`] (reused buffers). A method that needs one part is
//! that part's.
//!
//! Driving it step by step (the TUI): [`Simulation::new`], [`Simulation::step`],
//! [`Simulation::now`], [`Simulation::progress`], [`Simulation::metrics`],
//! [`Simulation::partitions`], [`Simulation::items_in`], [`Simulation::item`],
//! [`Simulation::report`]. [`run`] is a loop over them.

mod cache;
mod console;
mod embed;
mod exec;
pub mod fluid;
mod flush;
mod items;
mod keys;
mod latency;
mod ledger;
mod meter;
mod multikey;
pub mod observe;
mod pacing;
mod regen;
pub mod report;
mod reporting;
mod setup;
mod shards;
pub(crate) use setup::tick_count;
pub use setup::too_many_items;
mod state;
mod table;
mod templates;
mod upkeep;
mod world;

#[cfg(test)]
mod tests;

use std::cell::RefCell;

use super::metrics::{Metrics, MetricsError};
use super::model::{EntityId, Scenario, Variant};
use super::time::{SimDuration, SimTime};
use super::value::{Item, KeyValue};
use super::workload::rate_at;

pub use console::{ConsoleError, ConsoleRequest, IndexKeys, Read, TableKeys};
pub use meter::SPLIT_BYTES;
pub use report::RunReport;

use items::Val;
use pacing::{Pacing, TickCalls};
use state::NO_ROW;
use table::Placed;
use world::{Birth, Origin, World};

/// Most registry ticks one run records (the registry's tick is a whole number of simulation
/// ticks): a year of 1-second ticks is recorded at about 64-minute resolution.
pub const METRIC_TICKS: u64 = 8192;
/// Logical partitions that get a registry row as they first become active.
pub const LOGICAL_ROWS: u32 = 4096;
/// Further logical partitions that get one when they become hot later.
pub const HOT_ROWS: u32 = 1024;
/// Cassandra ring: nodes and replication factor.
pub const RING_NODES: usize = 6;
pub const REPLICATION: usize = 3;
/// Cassandra reads at QUORUM: two of three replicas.
pub const READ_REPLICAS: usize = 2;
/// TTL deletes happen this long after expiry (AWS: "typically within 48 hours").
pub const TTL_DELAY_SECS: i64 = 48 * 3600;
/// Cassandra: an expired cell is invisible to reads at once (reads filter expired cells; Apache
/// Cassandra docs, "Expiring data with time-to-live"): the replay drops the row at the first tick
/// after it expires. Its tombstone stays on disk until a compaction after `gc_grace_seconds`.
pub const CASSANDRA_TTL_DELAY_SECS: i64 = 0;
/// Cassandra's default `gc_grace_seconds`: 864,000 s (10 days), the least time a tombstone is kept
/// before a compaction may purge it (Apache Cassandra docs, "Compaction" / table options).
pub const CASSANDRA_GC_GRACE_SECS: i64 = 864_000;

/// How to run: the scenario's workload settings, optionally overridden.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Overrides the scenario's seed.
    pub seed: Option<u64>,
    /// Overrides the scenario's duration.
    pub duration: Option<SimDuration>,
}

/// Why a run could not start (the scenario was loaded and validated, so this is rare: e.g. a
/// duration shorter than one tick).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("the workload's tick must be longer than 0s")]
    ZeroTick,
    #[error("the duration ({duration}) is shorter than one tick ({tick})")]
    ShorterThanATick { duration: SimDuration, tick: SimDuration },
    #[error(
        "the duration ({duration}) is not a whole number of ticks ({tick}): the replay advances a tick at a time; use {below} or {above}"
    )]
    NotWholeTicks { duration: SimDuration, tick: SimDuration, below: SimDuration, above: SimDuration },
    #[error("{duration} in ticks of {tick} is more than 2^32 ticks; use a longer tick")]
    TooManyTicks { duration: SimDuration, tick: SimDuration },
    /// An entity would outgrow its item handles, every rate at its peak.
    #[error(
        "{entity} would need more than {limit} items in this run; shorten the duration or lower the rates"
    )]
    TooManyItems { entity: String, limit: u64 },
    /// Too large to replay call by call (`judge::too_large`, the rule by which `--fidelity
    /// auto` replays as rates), and the fluid replay cannot model it (`why`): the workbench
    /// can replay it neither way.
    #[error(
        "{calls:.1e} calls are too many to replay call by call (more than {budget:.0e}, or more items than the replay holds), and {why}, so it cannot be replayed as rates either; shorten the workload's duration (`keyheat run --duration` replays a part of it)"
    )]
    TooLarge { calls: f64, budget: f64, why: String },
    #[error("metrics: {0}")]
    Metrics(#[from] MetricsError),
    /// The caller gave up the preload of [`Simulation::new`] (it never does).
    #[error("the run was cancelled while loading")]
    Cancelled,
}

/// Replays the whole workload headless, as fast as possible, and reports. `progress` is called
/// now and then with the fraction done (0.0..=1.0) so a command can draw a progress indicator.
pub fn run(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<RunReport, SimError> {
    let mut sim = Simulation::new(scenario, variant, options)?;
    let every = (sim.pacing.ticks / 100).max(1);
    progress(0.0);
    while sim.step() {
        if sim.pacing.tick % every == 0 {
            progress(sim.progress());
        }
    }
    progress(1.0);
    Ok(sim.report())
}

/// A logical partition as the TUI's inspector and the heatmap's live edge see it.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionView {
    /// The table or index it belongs to.
    pub group: String,
    pub key: String,
    pub hash: u64,
    pub items: u64,
    /// Stored bytes (index entries with their 100-byte overhead).
    pub bytes: u64,
    pub peak_read_per_s: f64,
    pub peak_write_per_s: f64,
    pub throttled: u64,
    /// Its registry row, when it has one.
    pub row: Option<super::metrics::PartitionId>,
}

/// One item regenerated for people to read.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemView {
    pub entity: String,
    pub ordinal: u32,
    /// Write time (ms since the epoch).
    pub written_at: SimTime,
    pub size: u32,
    pub item: Item,
}

/// A memoized partition key: the time quantum it holds for (0 without a time slot), its hash
/// and text.
type MemoKey = (i64, u64, Box<[u8]>);

/// Reused buffers and memos of the hot path, and what the call in progress gathers. Nothing
/// here outlives a call except as a cache: a run's results never depend on it.
#[derive(Debug, Default)]
struct Scratch {
    vals: Vec<Val>,
    /// The values a read call knows (`Simulation::read`), lent to one read at a time.
    known: Vec<Val>,
    /// The values of the item whose identity a read is given (`Simulation::inputs`).
    item_vals: RefCell<Vec<Val>>,
    /// Lent to one item write at a time (`write_item`); a write nested in it gets its own.
    write: Option<Box<WriteBufs>>,
    /// The item the read a write sent first found: the item the write names.
    located: Option<u32>,
    /// Text a key template or a value is rendered into.
    text: RefCell<String>,
    /// The word the current call's `contains()` filter looks for.
    search: RefCell<String>,
    /// While a read's requests gather their times: a read split by entity running its parts, or
    /// the read a write sends first to learn its key.
    split: Option<exec::Gathering>,
    /// Per entity, by member: partition keys of templates that read only that member.
    pk_memo: RefCell<Vec<Vec<Option<MemoKey>>>>,
    /// Partition keys of reads by one member (`exec::KeyMemo`).
    read_keys: RefCell<exec::KeyMemo>,
    /// Lent to one Get at a time (`exec::GetBufs`).
    get: Option<Box<exec::GetBufs>>,
    /// The request times of the Query in progress (`Simulation::query`), lent to one Query
    /// at a time: one nested in it gets its own.
    query_times: Vec<f64>,
    /// What the read in progress gives of the sharded collection's shard key (set by
    /// `read_one` when the variant shards a collection).
    shard_key: shards::KeyGiven,
    /// Bytes of the items the write call in progress stored (its own writes, not the side
    /// writes it causes): what a store that writes documents whole spends time on.
    written: u64,
    /// Items the write call in progress wrote in its transaction: what a store that sends each
    /// write of a transaction as a statement of its own spends round trips on.
    transacted: usize,
}

/// What an item write places and compares: the item at its key, the item that held the key and
/// that item's values. Boxed, so lending them to a write and taking them back moves a pointer
/// rather than three structs, and drops nothing.
#[derive(Debug, Default)]
struct WriteBufs {
    placed: Placed,
    old_placed: Placed,
    old_vals: Vec<Val>,
}

/// A run in progress. See the module documentation.
pub struct Simulation {
    /// The scenario compiled for the variant: entities, templates, tables, patterns, by id.
    world: World,
    /// The scenario's and the variant's names, for the report.
    scenario: String,
    variant: String,
    /// Every draw of the run is a function of (seed, stream, index).
    seed: u64,
    /// Per entity and attribute, the draw key of the attribute's own stream
    /// (`workload::draw_key(seed, stream)`), which its born values are drawn from.
    draw_keys: Vec<Vec<u64>>,
    /// Simulated time and the open tick's calls.
    pacing: Pacing,
    /// The tables' rows and the load on their partitions.
    storage: state::Storage,
    /// What became of the items since they were born: changed values, versions, expiries.
    items: state::ItemState,
    /// Throttled requests waiting for their retries.
    retries: exec::Retries,
    /// What a write must keep up besides its item: copies, aggregates, embedded lists, Scan marks.
    upkeep: upkeep::Upkeep,
    /// What the run measured: the metrics registry, and the figures summed between flushes.
    figures: flush::Figures,
    /// Reused buffers and memos of the hot path, and the call in progress.
    scratch: Scratch,
    /// GSI entry changes waiting in their partitions' replication queues.
    replication: exec::Replication,
    /// The observer told every request served, if one is attached (`observe`).
    observing: Option<observe::Observing>,
    /// The sharded collection, if the variant shards one (MongoDB).
    shards: Option<shards::Cluster>,
}

impl std::fmt::Debug for Simulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Simulation")
            .field("scenario", &self.scenario)
            .field("variant", &self.variant)
            .field("tick", &self.pacing.tick)
            .field("ticks", &self.pacing.ticks)
            .finish_non_exhaustive()
    }
}

impl Simulation {
    /// The simulated time now (the start of the next tick to run).
    pub fn now(&self) -> SimTime {
        SimTime::from_millis(self.pacing.tick_start(self.pacing.tick))
    }

    /// The fraction of the run done.
    pub fn progress(&self) -> f64 {
        f64::from(self.pacing.tick) / f64::from(self.pacing.ticks.max(1))
    }

    pub fn is_finished(&self) -> bool {
        self.pacing.tick >= self.pacing.ticks
    }

    /// The metrics registry: series per partition (physical always, logical bounded), per table
    /// and index, per access pattern; latency histograms.
    pub fn metrics(&self) -> &Metrics {
        &self.figures.metrics
    }

    /// Simulation ticks per registry tick.
    pub fn metrics_stride(&self) -> u32 {
        self.figures.stride
    }

    /// Runs one tick; false when the run was already over.
    pub fn step(&mut self) -> bool {
        self.advance(u64::MAX).is_some()
    }

    /// Runs at most `max_events` calls and retries of the current tick (starting it first if it
    /// has not started), and closes the tick when its events are done. `Some(true)`: a tick was
    /// completed; `Some(false)`: the tick is still open; `None`: the run was already over.
    ///
    /// A tick of a busy scenario holds thousands of calls; a UI that must draw 20 frames a
    /// second bounds its work per call with this. The events run in the same order however the
    /// tick is cut, so the run's results do not depend on the chunking; metrics and the clock
    /// move only when a tick completes.
    pub fn advance(&mut self, max_events: u64) -> Option<bool> {
        if self.pacing.tick >= self.pacing.ticks {
            return None;
        }
        let t = self.pacing.tick;
        if !self.pacing.mid_tick {
            // Every pattern's calls of the tick, none made yet.
            self.start_tick(t);
            self.pacing.mid_tick = true;
        }
        let done = self.run_events(t, max_events);
        // Whoever looks between calls to `advance` sees every node as the puts left it.
        self.settle_deferred();
        if !done {
            return Some(false);
        }
        self.pacing.mid_tick = false;
        self.end_tick(t);
        self.pacing.next_tick();
        if self.pacing.tick.is_multiple_of(self.figures.stride) || self.pacing.tick == self.pacing.ticks {
            self.flush_metrics();
        }
        Some(true)
    }

    fn start_tick(&mut self, t: u32) {
        // Populations grow, then every pick in the tick sees them as they are now.
        self.grow(t);
        for pop in &mut self.world.pops {
            pop.start_tick(t);
        }
        let now = SimTime::from_millis(self.pacing.tick_start(t));
        let start = SimTime::from_millis(self.pacing.start_ms);
        for (p, pattern) in self.world.patterns.iter_mut().enumerate() {
            let expected =
                rate_at(pattern.rate, &pattern.shapes, start, now) * self.pacing.tick_secs + pattern.carry;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a count of calls, clamped"
            )]
            let n = expected.floor().clamp(0.0, f64::from(u32::MAX)) as u32;
            pattern.carry = expected - f64::from(n);
            self.pacing.calls[p] = TickCalls::new(&self.pacing, t, n, pattern.calls);
            if let (Some(keys), Some(&first)) = (&pattern.keys, pattern.givens.first()) {
                let ent = &self.world.entities[pattern.entity];
                if let Some(pop) = world::member_pop(&ent.attrs[first].source) {
                    let size = self.world.pops[pop].size;
                    if self.pacing.keys_pickers[p].as_ref().is_none_or(|k| k.population() != size) {
                        self.pacing.keys_pickers[p] = Some(keys.picker(size));
                    }
                }
            }
        }
        self.apply_drained(t);
        self.sweep_ttl(t);
    }

    /// Calls and due retries of tick `t`, in time order.
    /// Runs up to `max_events` of tick `t`'s calls and due retries; true when none is left.
    fn run_events(&mut self, t: u32, max_events: u64) -> bool {
        let end = self.pacing.tick_start(t) + self.pacing.tick_ms;
        let mut ran = 0u64;
        loop {
            if ran == max_events {
                break false;
            }
            ran += 1;
            // The next call: the pattern whose next call comes first (ties: pattern order), and
            // the first of the others' (`(u64::MAX, usize::MAX)`: none).
            let mut next: Option<(u64, usize)> = None;
            let mut others = (u64::MAX, usize::MAX);
            for (pattern, calls) in self.pacing.calls.iter().enumerate() {
                if calls.made < calls.n {
                    if next.is_none_or(|(best, _)| calls.next_ms < best) {
                        others = others.min(next.unwrap_or((u64::MAX, usize::MAX)));
                        next = Some((calls.next_ms, pattern));
                    } else {
                        others = others.min((calls.next_ms, pattern));
                    }
                }
            }
            let retry_due = self.retries.due_before(end);
            match (next, retry_due) {
                (None, None) => break true,
                (_, Some(due)) if next.is_none_or(|(at, _)| due <= at) => {
                    let retry = self.retries.pop().expect("peeked");
                    self.retry(retry, due.max(self.pacing.tick_start(t)));
                }
                (Some((at, pattern)), _) => {
                    self.make_call(t, pattern, at);
                    // The pattern's next calls while they still come first: only its own
                    // calls move, so choosing again would choose it (a tenth of a put went
                    // to choosing). A retry that falls due first is chosen above.
                    loop {
                        let calls = &self.pacing.calls[pattern];
                        let at = calls.next_ms;
                        if ran == max_events
                            || calls.made == calls.n
                            || (at, pattern) > others
                            || self.retries.due_before(end).is_some_and(|due| due <= at)
                        {
                            break;
                        }
                        ran += 1;
                        self.make_call(t, pattern, at);
                    }
                }
                (None, Some(_)) => unreachable!("handled above"),
            }
        }
    }

    /// Makes pattern `pattern`'s next call of tick `t`, due at `at`.
    fn make_call(&mut self, t: u32, pattern: usize, at: u64) {
        let calls = &mut self.pacing.calls[pattern];
        let index = calls.first + u64::from(calls.made);
        calls.step();
        self.world.patterns[pattern].calls = index + 1;
        self.call(exec::Call { pattern, index, tick: t, time_ms: at });
    }

    fn end_tick(&mut self, t: u32) {
        self.split_partitions(t);
        let now_ms = self.pacing.tick_start(t) + self.pacing.tick_ms;
        if let Some(cluster) = &mut self.shards {
            cluster.end_tick(now_ms);
        }
        for g in 0..self.storage.groups.len() {
            if let Some(meter) = &self.storage.groups[g].meter {
                let lag = meter.lag_secs(now_ms);
                let group = &mut self.storage.groups[g];
                group.max_lag_secs = group.max_lag_secs.max(lag);
            }
        }
    }

    /// Population growth (`growth_per_day`): new members, and for an owning entity their items,
    /// written as PutItems outside any access pattern.
    fn grow(&mut self, t: u32) {
        let elapsed_days = (u64::from(t) * self.pacing.tick_ms) as f64 / 86_400_000.0;
        for pop in 0..self.world.pops.len() {
            let rate = self.world.pops[pop].growth_per_day;
            if rate <= 0.0 {
                continue;
            }
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a non-negative count"
            )]
            let grown = (rate * elapsed_days).floor() as u64;
            let add = grown.saturating_sub(self.items.grown[pop]);
            if add == 0 {
                continue;
            }
            self.items.grown[pop] = grown;
            let owner = self
                .world
                .entities
                .iter()
                .position(|e| e.identity.is_some_and(|(_, q)| q == pop) && e.table.is_some());
            match owner {
                Some(e) => {
                    for _ in 0..add {
                        let ordinal = self.alloc(e, Born::outside_calls(Origin::Growth, t));
                        self.write_growth(e, ordinal, t);
                    }
                }
                None => self.world.pops[pop].size += add,
            }
        }
    }

    /// A new ordinal for `entity`, with its birth recorded (and its identity member). Inlined:
    /// called, it read its `born` back whole from the stack the caller had just written field
    /// by field, a load that waits for the stores to retire (half its time).
    #[expect(clippy::inline_always, reason = "plain `inline` left it a call")]
    #[inline(always)]
    fn alloc(&mut self, entity: usize, born: Born) -> u32 {
        let Born { origin, call, tick, tick_first, tick_calls, stepping } = born;
        let ent = &mut self.world.entities[entity];
        let ordinal = ent.next;
        ent.next += 1;
        let extends = ent.births.last().is_some_and(|b| {
            b.stepping
                && stepping
                && b.tick == tick
                && b.origin == origin
                && b.call + u64::from(ordinal - b.first) == call
        });
        if !extends {
            ent.births.push(Birth { first: ordinal, tick, origin, call, tick_first, tick_calls, stepping });
        }
        if let Some((_, pop)) = ent.identity {
            let p = &mut self.world.pops[pop];
            p.size = p.size.max(u64::from(ordinal) + 1);
        }
        ordinal
    }

    /// Logical partitions of every table and index as they stand now.
    pub fn partitions(&self) -> Vec<PartitionView> {
        let mut out = Vec::new();
        for (g, &(t, index)) in self.world.groups.iter().enumerate() {
            let table = &self.storage.tables[t];
            let ledger = match index {
                None => &table.base,
                Some(i) => &table.indexes[i].1,
            };
            let name = self.world.group_name(g);
            for (p, part) in ledger.partitions().iter().enumerate() {
                if part.items() == 0 {
                    continue;
                }
                let p = u32::try_from(p).unwrap_or(u32::MAX);
                let load = self.storage.groups[g].loads.get(p as usize).copied().unwrap_or_default();
                let secs = self.pacing.tick_secs;
                out.push(PartitionView {
                    group: name.clone(),
                    key: items::key_label(part.key_type, ledger.key_of(p)),
                    hash: part.hash,
                    items: part.items(),
                    bytes: part.bytes,
                    peak_read_per_s: load.peak_now(0, secs),
                    peak_write_per_s: load.peak_now(1, secs),
                    throttled: u64::from(load.throttled),
                    row: (load.row != NO_ROW).then_some(super::metrics::PartitionId(load.row)),
                });
            }
        }
        out
    }

    /// Up to `limit` items of a partition (by its key text) of a table or index (by name),
    /// regenerated from the seed, in sort-key order.
    pub fn items_in(&self, group: &str, key: &str, limit: usize) -> Vec<ItemView> {
        // Legitimate: the table or index name a user typed at the console.
        let Some(g) = (0..self.world.groups.len()).find(|&g| self.world.group_name(g) == group) else {
            return Vec::new();
        };
        let (t, index) = self.world.groups[g];
        let ledger = match index {
            None => &self.storage.tables[t].base,
            Some(i) => &self.storage.tables[t].indexes[i].1,
        };
        let hash = crate::engine::hash::hash_bytes(key.as_bytes());
        let found = [
            crate::engine::value::KeyType::S,
            crate::engine::value::KeyType::N,
            crate::engine::value::KeyType::B,
        ]
        .into_iter()
        .find_map(|ty| ledger.find(ty, key.as_bytes(), hash));
        let Some(p) = found else { return Vec::new() };
        ledger.partition(p).rows().iter().take(limit).filter_map(|row| self.item_by_handle(row.id)).collect()
    }

    /// Item `ordinal` of `entity` as it is now (or was when last written), regenerated; `None`
    /// for an ordinal not written yet, past what a handle holds, or of an entity this
    /// simulation's scenario does not have.
    pub fn item(&self, entity: EntityId, ordinal: u32) -> Option<ItemView> {
        // The world lays its entities out in the scenario's order.
        if entity.index() >= self.world.entities.len() || u64::from(ordinal) >= self.world.ordinal_limit() {
            return None;
        }
        self.item_by_handle(self.world.handle(entity.index(), ordinal))
    }

    /// `item` by the entity's name, for tests that name what they check.
    #[cfg(test)]
    pub fn item_named(&self, entity: &str, ordinal: u32) -> Option<ItemView> {
        let e = self.world.entities.iter().position(|x| x.name == entity)?;
        self.item(EntityId::new(e), ordinal)
    }

    fn item_by_handle(&self, handle: u32) -> Option<ItemView> {
        let e = self.world.entity_of(handle);
        let ordinal = self.world.ordinal_of(handle);
        let birth = self.birth(e, ordinal)?;
        let mut vals = Vec::new();
        self.current_vals(e, ordinal, &mut vals);
        let item = self.materialize(e, ordinal, &vals);
        let mut placed = Placed::default();
        let size = if self.place(e, ordinal, &vals, &mut placed) { placed.size } else { 0 };
        Some(ItemView {
            entity: self.world.entities[e].name.clone(),
            ordinal,
            written_at: SimTime::from_millis(birth.time_ms),
            size,
            item,
        })
    }

    /// A DynamoDB item's key attributes: the table's, and those of every index it is in (a
    /// sparse index's only where its gate holds).
    fn key_attributes(
        &self,
        e: usize,
        ordinal: u32,
        vals: &[Val],
    ) -> Vec<(String, super::value::AttributeValue)> {
        let ent = &self.world.entities[e];
        let Some(t) = ent.table else { return Vec::new() };
        let table = &self.world.tables[t];
        let shard_key = self.shard_key(e, ordinal);
        let mut shard = |slot: u32, count: u32| self.shard_draw(shard_key, slot, count);
        let mut out = Vec::new();
        let mut text = String::new();
        let mut add = |name: &str, template: &templates::TemplatePlan, out: &mut Vec<_>| {
            if let Some(key_type) =
                templates::expand(template, &ent.attrs, vals, &self.world.pops, &mut shard, &mut text)
            {
                out.push((name.to_owned(), key_value(key_type, &text).to_attribute()));
            }
        };
        if let Some(pk) = &ent.pk {
            add(&table.pk_name, pk, &mut out);
        }
        if let (Some(name), Some(sk)) = (&table.sk_name, &ent.sk) {
            add(name, sk, &mut out);
        }
        for (plan, index) in ent.entries.iter().zip(&table.indexes) {
            let Some(plan) = plan else { continue };
            if plan.gate.is_some_and(|(attr, value)| vals[attr] != value) {
                continue;
            }
            if let Some(pk) = &plan.pk {
                add(&index.pk_name, pk, &mut out);
            }
            if let (Some(name), Some(sk)) = (&index.sk_name, &plan.sk) {
                add(name, sk, &mut out);
            }
        }
        out
    }

    /// The ledger of a group (a table or an index).
    fn ledger(&self, group: usize) -> &ledger::Ledger {
        let (t, index) = self.world.groups[group];
        match index {
            None => &self.storage.tables[t].base,
            Some(i) => &self.storage.tables[t].indexes[i].1,
        }
    }
}

/// The birth `Simulation::alloc` records for a new item: what made it and when, from which its
/// values are drawn again (`regen`).
#[derive(Debug, Clone, Copy)]
struct Born {
    origin: Origin,
    /// The call that writes it (0 outside a pattern's calls).
    call: u64,
    tick: u32,
    /// The pattern's first call index of the tick, and its calls in the tick (the call's time).
    tick_first: u64,
    tick_calls: u32,
    /// A put's calls of one tick make their items in turn: consecutive ordinals share one
    /// birth record.
    stepping: bool,
}

impl Born {
    /// An item made outside any pattern's call (a population's growth, an aggregate item).
    fn outside_calls(origin: Origin, tick: u32) -> Self {
        Born { origin, call: 0, tick, tick_first: 0, tick_calls: 0, stepping: false }
    }
}

/// A key's text as a key value of its type.
fn key_value(key_type: super::value::KeyType, text: &str) -> KeyValue {
    match key_type {
        super::value::KeyType::N => {
            super::number::Number::parse(text).map_or_else(|_| KeyValue::S(text.to_owned()), KeyValue::N)
        }
        super::value::KeyType::B => KeyValue::B(text.as_bytes().to_vec()),
        super::value::KeyType::S => KeyValue::S(text.to_owned()),
    }
}

fn physical_label(lo: u64) -> String {
    format!("hash {:04x}…", lo >> 48)
}

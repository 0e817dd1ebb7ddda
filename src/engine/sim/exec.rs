//! Executing calls: what each pattern's call sends, what it costs, whether it is throttled, and
//! what it changes. `read` pages through the ledger; `write` goes through
//! `table::Table::write_into` with metering as its check. This file holds what both share: the
//! call context, throttling and retries, and the load bookkeeping of a request that landed.

mod condition;
mod locate;
mod plain;
mod read;
mod transact;
mod write;

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::engine::hash::combine;
use crate::engine::retry::RetryPolicy;

use super::Simulation;
use super::items::unit;
use super::ledger::ScanCursor;
use super::meter::{PARTITION_RATE, READ, Refusal, WRITE};
use super::state::{GroupState, NO_ROW, Retry};
use super::table::{Applied, EntryOp, PartKey, Placed, Touch, WriteRefused};

pub(super) use plain::{Shortcut, plain_patterns};
pub(super) use read::{Gathering, GetBufs, KeyMemo, WORD_LETTERS};
pub(super) use write::{ItemWrite, WriteStatus};

/// One call of a pattern: which pattern, the call's index among the pattern's calls, and the
/// tick and time it was made at. Every draw of a call is a function of these.
#[derive(Debug, Clone, Copy)]
pub(super) struct Call {
    pub pattern: usize,
    pub index: u64,
    pub tick: u32,
    pub time_ms: u64,
}

/// The simulated client's retries: its policy, and the throttled requests waiting for theirs.
/// `Simulation::throttled` queues them; the tick loop runs them when they fall due.
#[derive(Debug)]
pub(super) struct Retries {
    /// How the simulated client retries throttled requests.
    pub policy: RetryPolicy,
    /// Retries waiting, soonest first (ties: in the order they were queued).
    queue: BinaryHeap<Reverse<Retry>>,
    /// The sequence number the next retry queued gets.
    seq: u64,
    /// Throttled Scans waiting to resume, by retry sequence number.
    pub scan_resume: HashMap<u64, ScanResume>,
    /// Calls with a request waiting for a retry, by (pattern, call): the read units they spent
    /// and the items they read so far, which count in their pattern's figures per call only
    /// once the call completes.
    pub accounts: HashMap<(usize, u64), Account>,
    /// What the request running now did to its call's account (`Simulation::close_run`).
    pub running: Running,
    /// Calls with a request waiting for a retry, by (pattern, call): the items each part of the
    /// call's Queries returned so far, so that a retried shard adds only what the call's limit
    /// leaves (the application merges the shards and keeps the limit's worth).
    pub answered: HashMap<(usize, u64), Vec<u64>>,
}

/// A call some of whose requests wait for a retry.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Account {
    /// Read units its requests spent while the call's fate was open.
    pub units: f64,
    /// Items its requests read and returned meanwhile.
    pub items: Items,
    /// Its requests still queued for a retry.
    pub pending: u32,
    /// `Some(true)` once the call completed, `Some(false)` once it gave up.
    pub completed: Option<bool>,
}

/// One run of a call's requests (its first, or a retry): the read units they spent and the
/// items they read, whether the call completed or gave up in it, and the retries it queued.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Running {
    pub units: f64,
    pub items: Items,
    pub completed: bool,
    pub gave_up: bool,
    pub queued: u32,
}

/// Items a read's requests read from the store (a Query's or Scan's matches and misses alike)
/// and returned to the application.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Items {
    pub read: u64,
    pub returned: u64,
}

impl Items {
    fn add(&mut self, other: Items) {
        self.read += other.read;
        self.returned += other.returned;
    }
}

impl Retries {
    pub fn new(policy: RetryPolicy) -> Retries {
        Retries {
            policy,
            queue: BinaryHeap::new(),
            seq: 0,
            scan_resume: HashMap::new(),
            accounts: HashMap::new(),
            running: Running::default(),
            answered: HashMap::new(),
        }
    }

    /// Queues `retry` under the next sequence number, with the cursor a throttled Scan resumes
    /// from.
    fn push(&mut self, retry: Retry, cursor: Option<ScanResume>) {
        let seq = self.seq;
        self.seq += 1;
        if let Some(cursor) = cursor {
            self.scan_resume.insert(seq, cursor);
        }
        self.queue.push(Reverse(Retry { seq, ..retry }));
    }

    /// When the soonest retry falls due, if that is before `end_ms`.
    pub fn due_before(&self, end_ms: u64) -> Option<u64> {
        self.queue.peek().map(|Reverse(r)| r.due_ms).filter(|&due| due < end_ms)
    }

    /// Takes the soonest retry off the queue.
    pub fn pop(&mut self) -> Option<Retry> {
        self.queue.pop().map(|Reverse(r)| r)
    }

    /// The retries still waiting, in no particular order.
    pub fn waiting(&self) -> impl Iterator<Item = &Retry> {
        self.queue.iter().map(|Reverse(r)| r)
    }
}

/// GSI entry changes held back while their index partitions' replication queues drain
/// (`Simulation::write_through` holds them, `Simulation::apply_drained` applies them).
#[derive(Debug, Default)]
pub(super) struct Replication {
    /// The held changes by op id (see `Admission::admit`): (table, index, change).
    held: HashMap<u64, (usize, usize, EntryOp)>,
    /// The op id the next entry write that queues gets.
    next_op: u64,
    /// The op ids a drain released (reused).
    drained: Vec<u64>,
}

/// The stream the retry jitter draws from (apart from every pick and attribute stream).
const RETRY_STREAM: u64 = 0x7265_7472_795f_6a69;

/// Where a throttled Scan resumes, and the pages it was served before: a call's pages are
/// requests, however many retries they take.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ScanResume {
    pub cursor: ScanCursor,
    pub pages: u64,
}

/// A retried request: which request of the call, the retries made, what its first attempt fixed
/// (a put's ordinal, the call's latency without waits, a Scan's cursor) and when it runs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Resume {
    pub request: u32,
    pub retries: u32,
    pub ordinal: u32,
    pub base_ms: f64,
    /// This request reports the call's latency when it completes.
    pub reports: bool,
    pub cursor: Option<ScanResume>,
    pub at_ms: u64,
}

/// A request the partitions refused: what its retry needs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Refused {
    pub request: u32,
    pub now_ms: u64,
    pub base_ms: f64,
    pub reports: bool,
    pub ordinal: u32,
    pub cursor: Option<ScanResume>,
}

impl Simulation {
    /// A new call.
    pub(super) fn call(&mut self, call: Call) {
        let pattern = call.pattern;
        let action = self.world.patterns[pattern].action;
        let stats = &mut self.figures.stats[pattern];
        stats.calls += 1;
        stats.span.calls += 1.0;
        self.figures.totals.ops += 1;
        if action.is_read() {
            self.figures.totals.reads += 1;
        } else {
            self.figures.totals.writes += 1;
        }
        if self.world.patterns[pattern].operation.is_none() {
            self.figures.totals.unserved_calls += 1;
            return;
        }
        if self.upkeep.plain[pattern] && !self.observing() {
            // A plain put spends no read units, reads no items and is never retried: its run
            // would close with nothing to count (a tenth of a `sensors` put was spent on that).
            self.plain_put(call);
            return;
        }
        self.retries.running = Running::default();
        if action.is_read() {
            self.read(call, None);
        } else {
            self.write(call, None);
        }
        self.close_run(call, true);
    }

    /// After a run of a call's requests: the read units they spent and the items they read
    /// count in the pattern's figures per call (`served_units`, `items_read` and
    /// `items_returned`, over `served`) when the call completed, now or before; never when it
    /// gave up, and not while it waits for a retry — so the figures per call are those of the
    /// calls that completed, and only theirs.
    fn close_run(&mut self, call: Call, first: bool) {
        let run = std::mem::take(&mut self.retries.running);
        let key = (call.pattern, call.index);
        let mut account = if first {
            Account::default()
        } else {
            match self.retries.accounts.remove(&key) {
                Some(mut a) => {
                    a.pending = a.pending.saturating_sub(1);
                    a
                }
                // A retry queued outside a call's run (an aggregate's write-through): its units
                // count if it completed the call.
                None => Account { completed: Some(run.completed), ..Account::default() },
            }
        };
        account.pending += run.queued;
        if run.completed {
            account.completed = Some(true);
        } else if run.gave_up && account.completed.is_none() {
            account.completed = Some(false);
        }
        account.units += run.units;
        account.items.add(run.items);
        if account.completed == Some(true) {
            self.completed_units(call, account.units);
            let stats = &mut self.figures.stats[call.pattern];
            stats.items_read += account.items.read;
            stats.items_returned += account.items.returned;
            (account.units, account.items) = (0.0, Items::default());
        }
        if account.pending > 0 {
            self.retries.accounts.insert(key, account);
        } else if !self.retries.answered.is_empty() {
            // Most runs throttle nothing: an empty map is not worth hashing the key for.
            self.retries.answered.remove(&key);
        }
    }

    /// Read units of a call that completed, into its pattern's units per call.
    fn completed_units(&mut self, call: Call, units: f64) {
        let (head, tail) = (self.pacing.is_head(call.tick), self.pacing.is_tail(call.tick));
        let stats = &mut self.figures.stats[call.pattern];
        stats.served_units += units;
        if head {
            stats.head.0 += units;
        }
        if tail {
            stats.tail.0 += units;
        }
    }

    /// A retry that fell due at `at_ms`.
    pub(super) fn retry(&mut self, retry: Retry, at_ms: u64) {
        let pattern = usize::from(retry.pattern);
        self.figures.totals.retries += 1;
        self.figures.stats[pattern].retries += 1;
        let resume = Resume {
            request: retry.request,
            retries: retry.retries,
            ordinal: retry.ordinal,
            base_ms: f64::from_bits(retry.base_bits),
            reports: retry.reports,
            cursor: self.retries.scan_resume.remove(&retry.seq),
            at_ms,
        };
        let call = Call { pattern, index: retry.call, tick: retry.tick, time_ms: retry.time_ms };
        self.retries.running = Running::default();
        if self.world.patterns[pattern].action.is_read() {
            self.read(call, Some(resume));
        } else {
            self.write(call, Some(resume));
        }
        self.close_run(call, false);
    }

    /// Items a request read and returned: into the pattern's figures of the tick at once, and
    /// into its figures per call — a read's once its call completed (`close_run`), as its
    /// units; a write's (the reads it sends first to learn its key) at once, since a write's
    /// figures per call are over all its calls.
    fn read_items(&mut self, pattern: usize, items: Items) {
        let stats = &mut self.figures.stats[pattern];
        stats.span.items_read += items.read as f64;
        stats.span.items_returned += items.returned as f64;
        if self.world.patterns[pattern].action.is_read() {
            self.retries.running.items.add(items);
        } else {
            stats.items_read += items.read;
            stats.items_returned += items.returned;
        }
    }

    /// Units a request spent, into the pattern's figures and the run's.
    fn spend(&mut self, call: Call, dim: usize, units: f64) {
        let stats = &mut self.figures.stats[call.pattern];
        stats.units[dim] += units;
        if dim == READ {
            stats.span.read_units += units;
            // Per call once the call's fate is known (`close_run`).
            self.retries.running.units += units;
        } else {
            stats.span.write_units += units;
        }
        self.figures.totals.units[dim] += units;
    }

    /// A request was refused: counts it (once per request) and queues its retry,
    /// fast-forwarding the retries that would fall in this same tick — capacity does not come
    /// back within a tick, so they fail too. After the last retry the request fails.
    pub(super) fn throttled(&mut self, call: Call, resume: Option<&Resume>, refused: Refused) {
        let pattern = call.pattern;
        if resume.is_none() {
            self.figures.stats[pattern].throttled += 1;
            self.figures.stats[pattern].span.throttled += 1.0;
            self.figures.totals.throttled += 1;
        }
        let tick_end = self.pacing.tick_start(self.pacing.tick) + self.pacing.tick_ms;
        let mut retries = resume.map_or(0, |r| r.retries);
        let mut due = refused.now_ms;
        loop {
            if retries >= self.retries.policy.max_retries {
                self.figures.stats[pattern].failed += 1;
                if refused.request == locate::LOCATE_RETRY {
                    self.figures.stats[pattern].gave_up_locating += 1;
                }
                self.figures.totals.failed += 1;
                self.figures.totals.gave_up += 1;
                if !self.world.patterns[pattern].action.is_read() {
                    self.figures.totals.writes_gave_up += 1;
                    self.figures.totals.failed_writes += 1;
                }
                if refused.reports {
                    let ms = refused.base_ms + due.saturating_sub(call.time_ms) as f64;
                    self.figures.stats[pattern].latency(ms);
                    // The request that would have completed the call gave up: the call did.
                    self.retries.running.gave_up = true;
                }
                return;
            }
            retries += 1;
            // The jitter is a function of (seed, the call, the request, the retry): the same
            // run draws the same waits however its ticks are cut.
            let draw = unit(
                self.seed,
                RETRY_STREAM,
                combine(&[pattern as u64, call.index, u64::from(refused.request), u64::from(retries)]),
            );
            due += self.retries.policy.wait_ms(retries, draw);
            if due >= tick_end {
                break;
            }
            self.figures.stats[pattern].retries += 1;
            self.figures.totals.retries += 1;
        }
        self.retries.running.queued += 1;
        self.retries.push(
            Retry {
                due_ms: due,
                seq: 0,
                pattern: u16::try_from(pattern).unwrap_or(u16::MAX),
                request: refused.request,
                retries,
                call: call.index,
                tick: call.tick,
                time_ms: call.time_ms,
                ordinal: refused.ordinal,
                base_bits: refused.base_ms.to_bits(),
                reports: refused.reports,
            },
            refused.cursor,
        );
    }

    /// A request completed in `ms`: the call's latency, counting the waits of a retried one.
    #[inline]
    fn completed(&mut self, call: Call, resume: Option<&Resume>, ms: f64) {
        let ms = match resume {
            None => ms,
            Some(r) if r.reports => r.base_ms + r.at_ms.saturating_sub(call.time_ms) as f64 + ms,
            Some(_) => return,
        };
        let (head, tail) = (self.pacing.is_head(call.tick), self.pacing.is_tail(call.tick));
        let stats = &mut self.figures.stats[call.pattern];
        stats.latency(ms);
        stats.served += 1;
        self.retries.running.completed = true;
        stats.head.1 += u64::from(head);
        stats.tail.1 += u64::from(tail);
    }

    /// A request the partitions refused, counted wherever it was refused — the one rule for
    /// reads, writes and transactions: on its group (on its first attempt only: a retry is the
    /// same request), on the physical partition that refused it, and on the table's logical
    /// partitions it asked (a throttled request still hit its partition). Of a request that
    /// asked several keys, those on the physical partition that refused it; all of them when
    /// the table's allowance did. An index counts its throttles per index, not per key.
    pub(super) fn refused<'k>(
        &mut self,
        group: usize,
        refusal: Refusal,
        keys: impl IntoIterator<Item = &'k PartKey>,
        first: bool,
    ) {
        if first {
            self.storage.groups[group].throttled += 1;
        }
        let metered_by = self.storage.groups[group].metered_by;
        let refused_by = match refusal {
            Refusal::Partition(i) | Refusal::Backlog(i) => Some(i),
            Refusal::Table => None,
        };
        if let (Some(meter), Some(i)) = (self.storage.groups[metered_by].meter.as_mut(), refused_by) {
            meter.throttled(i);
        }
        if self.world.groups[group].1.is_some() {
            return;
        }
        let meter = self.storage.groups[metered_by].meter.as_ref();
        let mut partitions: Vec<u32> = Vec::new();
        for pk in keys {
            let on_it = match (meter, refused_by) {
                (Some(m), Some(i)) => m.locate(pk.hash) == i,
                _ => true,
            };
            if on_it && let Some(q) = self.ledger(group).find(pk.key_type, &pk.text, pk.hash) {
                partitions.push(q);
            }
        }
        for q in partitions {
            let load = self.storage.load(group, q);
            load.throttled += 1;
            load.span_throttled += 1;
        }
    }

    /// Adds load to logical partition `partition` of group `group` (and gives it a registry
    /// row when one is due).
    pub(super) fn touch(&mut self, group: usize, partition: u32, dim: usize, amount: f64, bytes: u64) {
        #[expect(clippy::cast_possible_truncation, reason = "per-tick amounts fit an f32")]
        let amount32 = amount as f32;
        let secs = self.pacing.tick_secs;
        let tick = self.pacing.tick;
        let span = self.figures.span;
        let window = self.pacing.window;
        let load = self.storage.load(group, partition);
        load.roll(tick, secs);
        load.now[dim] += amount;
        load.now_bytes += bytes as f64;
        load.total[dim] += amount;
        load.requests += 1;
        load.add_window(window, amount32);
        load.span_units[dim] += amount32;
        let needs_row = load.row == NO_ROW;
        let queued = load.span == span;
        let hot = load.now[dim] / secs >= 0.5 * PARTITION_RATE[dim];
        if needs_row {
            self.register_logical(group, partition, hot);
        }
        let load = self.storage.load(group, partition);
        let (row, used) = (load.row, load.now[READ] + load.now[WRITE]);
        if row != NO_ROW && !queued {
            load.span = span;
            self.figures.span_rows.push((u32::try_from(group).unwrap_or(u32::MAX), partition));
        }
        if row != NO_ROW {
            // Request units are one currency: reads and writes both spend the tick's share.
            self.note_tick_ru(row, used);
        }
    }

    /// Moves a logical partition's change of stored bytes into its physical partition (or the
    /// ring's nodes holding it).
    pub(super) fn settle(&mut self, group: usize, partition: u32) {
        if self.settle_written(group, partition, 0) {
            self.register_if_large(group, partition);
        }
    }

    /// [`Simulation::settle`] after `puts` writes to the partition, each taken by all of its
    /// replicas on the ring (`node_load` of them), in one pass over the replicas. True when the
    /// partition's stored bytes changed; the caller asks `register_if_large`.
    pub(super) fn settle_written(&mut self, group: usize, partition: u32, puts: u32) -> bool {
        let ledger = self.ledger(group);
        let part = ledger.partition(partition);
        let (bytes, hash) = (part.bytes, part.hash);
        let load = self.storage.load(group, partition);
        let delta = bytes.wrapping_sub(load.seen_bytes).cast_signed();
        load.seen_bytes = bytes;
        if delta == 0 && puts == 0 {
            return false;
        }
        let metered_by = self.storage.groups[group].metered_by;
        if delta != 0
            && let Some(meter) = self.storage.groups[metered_by].meter.as_mut()
        {
            let i = meter.locate(hash);
            meter.parts[i].bytes = meter.parts[i].bytes.wrapping_add_signed(delta);
        }
        if let Some((_, copies, _)) = self.world.engine.profile().ring() {
            let (tick, secs) = (self.pacing.tick, self.pacing.tick_secs);
            for n in replicas(hash, copies) {
                let node = &mut self.storage.nodes[n];
                if puts > 0 {
                    node.took(tick, secs, puts, 0);
                }
                node.stored = node.stored.wrapping_add_signed(delta);
            }
        }
        delta != 0
    }

    /// A plain put's `touch` and [`Simulation::settle_written`], left for the end of the events
    /// `advance` runs (`settle_deferred`): a partition takes several puts a tick (`sensors`:
    /// four a minute), and counting them at once leaves its load and its replicas as counting
    /// each did, their figures being sums of whole units (a store that does not meter counts
    /// every request as one). Nothing reads them before then: inside `advance`, other requests
    /// only add to them. What depends on the order is done at the put: the partition's place
    /// in the registry's flush. The caller makes sure the partition has a registry row (a
    /// put onto one without may be the one that gives it one) and the run keeps no
    /// normalized RU (which reads the tick's running load at every touch).
    pub(super) fn defer_put(&mut self, group: usize, partition: u32) {
        let span = self.figures.span;
        let load = self.storage.load(group, partition);
        load.unsettled += 1;
        let (first, queued) = (load.unsettled == 1, load.span == span);
        load.span = span;
        if !queued {
            self.figures.span_rows.push((u32::try_from(group).unwrap_or(u32::MAX), partition));
        }
        if first {
            self.storage.unsettled.push((group, partition));
        }
    }

    /// The puts `defer_put` left, counted once per partition.
    pub(super) fn settle_deferred(&mut self) {
        let (tick, secs, window) = (self.pacing.tick, self.pacing.tick_secs, self.pacing.window);
        let mut unsettled = std::mem::take(&mut self.storage.unsettled);
        for &(group, partition) in &unsettled {
            let load = self.storage.load(group, partition);
            let puts = std::mem::take(&mut load.unsettled);
            load.count_writes(tick, secs, window, puts);
            // The partition has its registry row: `register_if_large` has nothing to ask.
            self.settle_written(group, partition, puts);
        }
        unsettled.clear();
        self.storage.unsettled = unsettled;
    }

    /// A partition on the ring gets a registry row once it reaches half the store's size
    /// guidance (asked only of one without a row: most writes land on a partition that has one).
    fn register_if_large(&mut self, group: usize, partition: u32) {
        if self.storage.load(group, partition).row != NO_ROW {
            return;
        }
        let profile = self.world.engine.profile();
        if profile.ring().is_none() {
            return;
        }
        let guide = profile.partition_guide;
        let part = self.ledger(group).partition(partition);
        if part.bytes as f64 >= guide.bytes / 2.0
            || guide.rows.is_some_and(|rows| part.items() as f64 >= rows / 2.0)
        {
            self.register_logical(group, partition, true);
        }
    }

    /// Every logical partition's bytes into its physical partition (after the preload).
    pub(super) fn settle_bytes(&mut self, group: usize) {
        let count = u32::try_from(self.ledger(group).partitions().len()).unwrap_or(u32::MAX);
        for partition in 0..count {
            self.settle(group, partition);
        }
    }

    /// Operations and bytes on the replicas of a partition (Cassandra).
    fn node_load(&mut self, hash: u64, replicas_touched: usize, bytes: u64) {
        let tick = self.pacing.tick;
        let secs = self.pacing.tick_secs;
        for n in replicas(hash, replicas_touched) {
            self.storage.nodes[n].took(tick, secs, 1, bytes);
        }
    }
}

/// One write through a table: the item there before and the one after (`None`: absent), when
/// it lands, and whether it is free (a TTL delete or the preload, not metered).
#[derive(Debug, Clone, Copy)]
pub(super) struct Through<'a> {
    pub old: Option<&'a Placed>,
    pub new: Option<&'a Placed>,
    pub now_ms: u64,
    pub free: bool,
}

impl Simulation {
    /// Writes `through.new` over `through.old` in table `t_idx`, metered unless it is free; the
    /// touches go into `self.storage.touches`, a refusal's group and cause into `refused`. Index
    /// entry changes on GSI partitions with a queue are held back until their queue drains
    /// ([`Simulation::apply_drained`]).
    pub(super) fn write_through(
        &mut self,
        t_idx: usize,
        through: Through<'_>,
        refused: &mut Option<(usize, Refusal)>,
    ) -> Result<Applied, WriteRefused> {
        let result = self.write_table(t_idx, through, refused);
        if let (Some(cluster), Ok(applied)) = (&mut self.shards, &result)
            && cluster.table == t_idx
            && let Some(key) = through.new.or(through.old)
        {
            cluster.write(
                &key.pk,
                applied.replaced.map(|r| r.size),
                through.new.map(|n| n.size),
                !through.free,
            );
        }
        result
    }

    /// [`Simulation::write_through`] without the sharded collection's books.
    fn write_table(
        &mut self,
        t_idx: usize,
        through: Through<'_>,
        refused: &mut Option<(usize, Refusal)>,
    ) -> Result<Applied, WriteRefused> {
        let Through { old, new, now_ms, free } = through;
        let metered = self.world.engine.profile().metered();
        if !metered && self.storage.tables[t_idx].indexes.is_empty() {
            // Nothing to meter, no entries to hold back: the check and the deferral below
            // would say yes and no to every touch.
            let mut touches = std::mem::take(&mut self.storage.touches);
            let applied = self.storage.tables[t_idx].write_plain(old, new, &mut touches);
            self.storage.touches = touches;
            return Ok(applied);
        }
        let tick = self.pacing.tick;
        let groups = &mut self.storage.groups;
        let group_of = &self.storage.group_of[t_idx];
        let mut next_op = self.replication.next_op;
        let queued = RefCell::new(Vec::new());
        let mut held: Vec<(u64, usize, EntryOp)> = Vec::new();
        let mut touches = std::mem::take(&mut self.storage.touches);
        let result = self.storage.tables[t_idx].write_into(
            old,
            new,
            &mut |touches: &[Touch]| {
                if !metered {
                    return true;
                }
                let mut queued = queued.borrow_mut();
                let mut admission = Admission {
                    groups: &mut groups[..],
                    group_of,
                    tick,
                    now_ms,
                    next_op: &mut next_op,
                    queued: &mut queued,
                };
                if free { admission.admit_free(touches) } else { admission.admit(touches, refused) }
            },
            &mut |t, index, make| {
                let queued = queued.borrow();
                match queued.iter().find(|q| q.0 == t) {
                    Some(&(_, op)) => {
                        held.push((op, index, make()));
                        true
                    }
                    None => false,
                }
            },
            &mut touches,
        );
        self.storage.touches = touches;
        self.replication.next_op = next_op;
        for (op, index, change) in held {
            self.replication.held.insert(op, (t_idx, index, change));
        }
        result
    }

    /// Applies the held-back entry changes whose GSI queues drained, at the start of tick `t`:
    /// the queues take what tick `t - 1`'s reads and writes left of their partitions' budgets,
    /// so a lagging index partition still serves reads (stale ones) while it catches up.
    pub(super) fn apply_drained(&mut self, t: u32) {
        let Some(previous) = t.checked_sub(1) else { return };
        let mut done = std::mem::take(&mut self.replication.drained);
        for group in &mut self.storage.groups {
            if let Some(meter) = &mut group.meter {
                meter.drain(previous, &mut done);
            }
        }
        for op in done.drain(..) {
            let Some((t_idx, index, change)) = self.replication.held.remove(&op) else { continue };
            let q = self.storage.tables[t_idx].apply(index, &change);
            let group = self.storage.group_of[t_idx][index + 1];
            self.settle(group, q);
        }
        self.replication.drained = done;
    }
}

/// The `count` nodes holding the partition with this token: the owner and the next ones.
#[inline]
pub(super) fn replicas(hash: u64, count: usize) -> impl Iterator<Item = usize> {
    let owner = usize::try_from((u128::from(hash) * super::RING_NODES as u128) >> 64).unwrap_or(0);
    (0..count.min(super::RING_NODES)).map(move |i| (owner + i) % super::RING_NODES)
}

/// What the metering check of one write works on: every group's meters, the write's table's
/// groups, the tick and time it lands, and the op ids given to entry writes that queue
/// (`queued` lists them as (touch, op): the write must hold their changes back).
struct Admission<'a> {
    groups: &'a mut [GroupState],
    group_of: &'a [usize],
    tick: u32,
    now_ms: u64,
    next_op: &'a mut u64,
    queued: &'a mut Vec<(usize, u64)>,
}

impl Admission<'_> {
    /// The metering check of one write: the table's partition (and LSI entries, which live on
    /// it) must have room, and every GSI partition it writes must take the entries at once or
    /// queue them (back-pressure otherwise). All or nothing.
    fn admit(&mut self, touches: &[Touch], refused: &mut Option<(usize, Refusal)>) -> bool {
        let (tick, now_ms, group_of) = (self.tick, self.now_ms, self.group_of);
        let groups = &mut *self.groups;
        let table_group = group_of[0];
        // GSI queues first: a refusal there must leave the table untouched.
        let mut index_writes: Vec<(usize, usize, f64)> = Vec::new();
        let mut table_touches: Vec<(u64, f64)> = Vec::with_capacity(touches.len());
        for touch in touches {
            let group = group_of[touch.group];
            if touch.group == 0 || groups[group].metered_by != group {
                table_touches.push((touch.hash, touch.units));
                continue;
            }
            let Some(meter) = groups[group].meter.as_ref() else { continue };
            let i = meter.locate(touch.hash);
            match index_writes.iter_mut().find(|(g, p, _)| *g == group && *p == i) {
                Some(entry) => entry.2 += touch.units,
                None => index_writes.push((group, i, touch.units)),
            }
        }
        for &(group, i, units) in &index_writes {
            if groups[group].meter.as_ref().is_some_and(|m| !m.can_take(tick, i, units)) {
                *refused = Some((group, Refusal::Backlog(i)));
                return false;
            }
        }
        if let Some(meter) = groups[table_group].meter.as_mut() {
            let parts: Vec<(usize, f64)> =
                table_touches.iter().map(|&(hash, u)| (meter.locate(hash), u)).collect();
            if let Err(refusal) = meter.consume(tick, WRITE, &parts) {
                *refused = Some((table_group, refusal));
                return false;
            }
        }
        for (group, i, units) in index_writes {
            let Some(meter) = groups[group].meter.as_mut() else { continue };
            // The common case: nothing queued and room now (`index_write` would do the same).
            if !meter.pending(i) && meter.consume(tick, WRITE, &[(i, units)]).is_ok() {
                continue;
            }
            let mut ops = Vec::new();
            for (k, touch) in touches.iter().enumerate() {
                if touch.group > 0 && group_of[touch.group] == group && meter.locate(touch.hash) == i {
                    self.queued.push((k, *self.next_op));
                    ops.push((touch.hash, touch.units, *self.next_op));
                    *self.next_op += 1;
                }
            }
            // `can_take` said yes and nothing ran in between, so this queues.
            let _ = meter.index_write(tick, now_ms, i, &ops);
        }
        true
    }

    /// The check of a free write (TTL): nothing is metered, but an entry change on a GSI
    /// partition with writes queued waits behind them (with no units of its own).
    fn admit_free(&mut self, touches: &[Touch]) -> bool {
        for (k, touch) in touches.iter().enumerate() {
            let group = self.group_of[touch.group];
            if touch.group == 0 || self.groups[group].metered_by != group {
                continue;
            }
            let Some(meter) = self.groups[group].meter.as_mut() else { continue };
            let i = meter.locate(touch.hash);
            if meter.pending(i) {
                meter.enqueue_free(self.now_ms, i, touch.hash, *self.next_op);
                self.queued.push((k, *self.next_op));
                *self.next_op += 1;
            }
        }
        true
    }
}

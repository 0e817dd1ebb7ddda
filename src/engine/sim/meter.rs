//! Throughput as DynamoDB meters it: physical partitions (hash ranges of the partition key) of the
//! table and of each GSI, each with one budget shared by reads and writes, under a table-level
//! allowance; splits on size and on sustained heat. Sources, all AWS:
//!
//! - Per partition "up to 3,000 read request units or 1,000 write request units, or a linear
//!   combination of both" per second, table and GSI alike (developer guide, "Best practices for
//!   designing and using partition keys effectively"; re:Post, "Why is my on-demand DynamoDB
//!   table being throttled?"). Modelled: in every tick, RCU/3000 + WCU/1000 ≤ 1 per second of
//!   the tick. Nothing lifts it — not burst, not adaptive capacity, not a long tick.
//! - Burst: "DynamoDB currently retains up to 5 minutes (300 seconds) of unused read and write
//!   capacity" (developer guide, "Burst capacity"), which is unused *provisioned table* capacity:
//!   it lets a provisioned table exceed its provisioned rate for a while but never lifts a
//!   partition past its limit (re:Post, "How does DynamoDB handle spiky workloads?"). On-demand
//!   tables have no burst bucket.
//! - On-demand: a new table's previous peak is 2,000 WRU/s and 6,000 RRU/s, and it serves up to
//!   double its previous peak at once, "4,000 write request units or 12,000 read request units,
//!   or a linear combination of both"; "throttling can occur if you exceed double your previous
//!   peak within 30 minutes" (developer guide, "On-demand capacity mode"). Modelled: the
//!   allowance is twice the highest per-second consumption that is at least 30 minutes old (or
//!   the initial peak), reads and writes as a linear combination.
//! - Provisioned: the table serves its provisioned RCU and WCU per second (two settings, so two
//!   budgets) plus up to 300 seconds of unused table capacity in each.
//! - Splits: a partition splits when it passes 10 GB, at the byte median; and for heat when its
//!   consumption stays above 80% of its budget for a 5-minute window, at the load median — but a
//!   split never divides one partition key's load (one item, or an item collection; keyheat does
//!   not model DynamoDB's sort-key splits, which an LSI forbids anyway). Partitions never merge.
//!   The 80% share and the 5-minute window are keyheat's assumptions: AWS documents split for
//!   heat but not its thresholds.
//! - Initial partitions are keyheat's assumption too (AWS documents no formula): 4 for on-demand
//!   (what a new table's 4,000 WRU / 12,000 RRU need), and `max(1, ceil(RCU/3000 + WCU/1000))`
//!   for provisioned.
//!
//! With ticks of one second or less, limits hold per second of simulated time; with longer ticks
//! they hold as averages over the tick (capacity × tick).
//!
//! The same meter serves Cosmos DB ([`Meter::shared`]), with `profile::cosmos`'s rules: reads
//! and writes are request units of one budget; each physical partition's budget is the
//! container's RU/s divided evenly among the partitions, at most 10,000 RU/s; there is no
//! container allowance beyond the partitions' shares and no burst (burst capacity is opt-in and
//! not guaranteed, "Burst capacity in Azure Cosmos DB"); partitions split past 50 GB and never
//! for heat.

use std::collections::VecDeque;

use crate::engine::profile::cosmos::{self, Throughput};

/// Read and write dimension indexes.
pub const READ: usize = 0;
pub const WRITE: usize = 1;

/// Per-partition limits per second: 3,000 RCU, 1,000 WCU.
pub const PARTITION_RATE: [f64; 2] = [3000.0, 1000.0];
/// Seconds of unused provisioned table capacity the burst bucket keeps.
pub const BURST_SECS: f64 = 300.0;
/// A partition splits for size past 10 GB (AWS measures in binary units).
pub const SPLIT_BYTES: u64 = 10 << 30;
/// Heat: consumption above this share of a limit over a whole window splits the partition.
pub const HEAT_SHARE: f64 = 0.8;
/// The heat window.
pub const HEAT_WINDOW_SECS: f64 = 300.0;
/// A new on-demand table's previous peak: 6,000 RRU/s and 2,000 WRU/s.
pub const ON_DEMAND_INITIAL_PEAK: [f64; 2] = [6000.0, 2000.0];
/// A new peak raises the on-demand allowance after this long.
pub const ON_DEMAND_RAMP_SECS: f64 = 1800.0;
/// A GSI partition queues at most this many seconds of its write capacity before its table's
/// writes are throttled (back-pressure).
pub const GSI_BACKLOG_SECS: f64 = 5.0;
/// The most write units a GSI partition's queue holds: `GSI_BACKLOG_SECS` of its capacity.
pub const GSI_BACKLOG_UNITS: f64 = PARTITION_RATE[WRITE] * GSI_BACKLOG_SECS;

/// One GSI entry write waiting in a partition's queue: when it arrived, the units of it not yet
/// applied, the hash of its index partition key (it follows that hash when the partition
/// splits) and the caller's id for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Queued {
    pub since_ms: u64,
    pub units: f64,
    pub hash: u64,
    pub op: u64,
}

#[derive(Debug, Clone)]
pub struct Physical {
    /// First hash of the range (the range ends where the next partition starts).
    pub lo: u64,
    /// The tick `used` belongs to.
    tick: u32,
    used: [f64; 2],
    /// Heat window: units consumed since `window_start`.
    window: [f64; 2],
    window_start: u32,
    /// The last heat window closed above 80%.
    pub hot: bool,
    /// Stored bytes in the range (table plus LSI entries, or GSI entries).
    pub bytes: u64,
    pub peak: [f64; 2],
    /// The highest share of its one budget the partition used in a tick (1.0 = all of it):
    /// Cosmos DB's normalized RU consumption of the partition.
    peak_share: f64,
    /// The same since the registry's last tick, for the heatmap: the highest share of a tick
    /// closed since then ([`Meter::take_span_share`] adds the open one and starts over).
    span_share: f64,
    /// The tick whose share [`Meter::take_span_share`] already counted, so closing it does not
    /// count it again in the next span.
    span_counted: Option<u32>,
    /// Whether it refused a request in the tick `used` belongs to.
    refused_now: bool,
    /// Cosmos DB: request units served past the partition's share in earlier ticks and not yet
    /// paid back; they come off the next ticks' budgets. Always 0 on the other stores.
    debt: f64,
    pub total: [f64; 2],
    pub throttled: u64,
    /// GSI: write units waiting to be applied, and the entry writes themselves in arrival
    /// order. An entry becomes visible to reads when it leaves the queue.
    pub backlog: f64,
    pub queue: VecDeque<Queued>,
    /// Registry row.
    pub row: u32,
    /// Units and throttles since the registry's last tick.
    pub span: [f64; 2],
    pub span_throttled: u64,
}

impl Physical {
    fn new(lo: u64, tick: u32, row: u32) -> Physical {
        Physical {
            lo,
            tick,
            used: [0.0; 2],
            window: [0.0; 2],
            window_start: tick,
            hot: false,
            bytes: 0,
            peak: [0.0; 2],
            peak_share: 0.0,
            span_share: 0.0,
            span_counted: None,
            refused_now: false,
            debt: 0.0,
            total: [0.0; 2],
            throttled: 0,
            backlog: 0.0,
            queue: VecDeque::new(),
            row,
            span: [0.0; 2],
            span_throttled: 0,
        }
    }

    /// Units available in `dim` this tick: what the reads and writes so far leave of the one
    /// budget, in `dim`'s units (`caps` is the tick's capacity of each dimension).
    fn available(&self, dim: usize, caps: [f64; 2]) -> f64 {
        (1.0 - share(self.used, caps) - self.debt / caps[dim]).max(0.0) * caps[dim]
    }
}

#[derive(Debug, Clone)]
enum Allowance {
    /// Twice the previous peak; peaks wait `ON_DEMAND_RAMP_SECS` before they count.
    OnDemand {
        previous: [f64; 2],
        pending: VecDeque<(u32, [f64; 2])>,
    },
    Provisioned {
        rate: [f64; 2],
        burst: [f64; 2],
    },
    /// Cosmos DB: the container's RU/s divided evenly among its physical partitions; nothing
    /// beyond the partitions' shares.
    Shared {
        ru_per_s: f64,
    },
}

/// Why a request could not be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The physical partition (index into `parts`) had no capacity left.
    Partition(usize),
    /// The table-level allowance was used up.
    Table,
    /// A GSI partition's backlog is full (back-pressure onto the table's writes).
    Backlog(usize),
}

#[derive(Debug, Clone)]
pub struct Meter {
    pub parts: Vec<Physical>,
    tick_secs: f64,
    ticks_per_window: u32,
    allowance: Allowance,
    /// Group-wide units this tick, and its tick.
    used: [f64; 2],
    tick: u32,
    pub splits_size: u64,
    pub splits_heat: u64,
    /// Heat splits refused because one key carries the load.
    pub splits_blocked: u64,
    /// A partition past this many bytes splits.
    split_bytes: u64,
    /// Whether a partition splits for sustained heat.
    heat_splits: bool,
}

impl Meter {
    /// A meter with `count` equal hash ranges. `provisioned` is (RCU, WCU) per second.
    pub fn new(
        count: usize,
        provisioned: Option<[f64; 2]>,
        tick_secs: f64,
        rows: &mut dyn FnMut(u64) -> u32,
    ) -> Meter {
        let count = count.max(1) as u64;
        let parts = (0..count)
            .map(|i| {
                let lo = u64::try_from((u128::from(i) << 64) / u128::from(count))
                    .expect("i < count keeps it below 2^64");
                Physical::new(lo, 0, rows(lo))
            })
            .collect();
        let allowance = match provisioned {
            Some(rate) => Allowance::Provisioned { rate, burst: [0.0; 2] },
            None => Allowance::OnDemand { previous: ON_DEMAND_INITIAL_PEAK, pending: VecDeque::new() },
        };
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a positive count of ticks"
        )]
        let ticks_per_window = (HEAT_WINDOW_SECS / tick_secs).ceil().max(1.0) as u32;
        Meter {
            parts,
            tick_secs,
            ticks_per_window,
            allowance,
            used: [0.0; 2],
            tick: 0,
            splits_size: 0,
            splits_heat: 0,
            splits_blocked: 0,
            split_bytes: SPLIT_BYTES,
            heat_splits: true,
        }
    }

    /// A Cosmos DB container's meter: the physical partitions a new container of `throughput`
    /// starts with, each serving an even share of its ceiling (an autoscale container throttles
    /// only past its maximum, "Create Azure Cosmos DB containers … with autoscale throughput").
    pub fn shared(throughput: Throughput, tick_secs: f64, rows: &mut dyn FnMut(u64) -> u32) -> Meter {
        let count = usize::try_from(throughput.initial_partitions()).unwrap_or(1);
        Meter {
            allowance: Allowance::Shared { ru_per_s: throughput.ceiling() },
            split_bytes: cosmos::PHYSICAL_PARTITION_BYTES,
            heat_splits: false,
            ..Meter::new(count, None, tick_secs, rows)
        }
    }

    /// Each physical partition's budget per second, for a meter whose partitions share the
    /// container's throughput (Cosmos DB); `None` for DynamoDB's fixed per-partition limits.
    pub fn share_per_s(&self) -> Option<f64> {
        match self.allowance {
            Allowance::Shared { ru_per_s } => {
                Some(cosmos::partition_share(ru_per_s, u32::try_from(self.parts.len()).unwrap_or(u32::MAX)))
            }
            _ => None,
        }
    }

    /// Whether a request is served while its partition has any budget left in the tick, even if
    /// it costs more than what is left (the rest is owed by the next ticks): Cosmos DB. Microsoft
    /// does not document how a request larger than the remaining budget is treated; keyheat
    /// follows the behaviour users report (the request runs and the partition's budget goes
    /// negative), so a request larger than a partition's whole share can still succeed. Its
    /// assumption; DynamoDB's partitions refuse a request they cannot serve whole.
    pub fn overdraws(&self) -> bool {
        matches!(self.allowance, Allowance::Shared { .. })
    }

    /// The container's provisioned RU/s, for a meter whose partitions share it.
    pub fn provisioned_per_s(&self) -> Option<f64> {
        match self.allowance {
            Allowance::Shared { ru_per_s } => Some(ru_per_s),
            _ => None,
        }
    }

    /// The on-demand initial partition count: 4 (4,000 WCU and 12,000 RCU).
    pub fn initial_partitions(provisioned: Option<[f64; 2]>) -> usize {
        match provisioned {
            None => 4,
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a small positive count"
            )]
            Some([r, w]) => ((r / PARTITION_RATE[READ] + w / PARTITION_RATE[WRITE]).ceil() as usize).max(1),
        }
    }

    /// The partition holding `hash`.
    pub fn locate(&self, hash: u64) -> usize {
        self.parts.partition_point(|p| p.lo <= hash).max(1) - 1
    }

    /// Start hashes of the partitions, for Scan page attribution.
    pub fn starts(&self) -> Vec<u64> {
        self.parts.iter().map(|p| p.lo).collect()
    }

    /// A partition's capacity in a tick, per dimension (one budget: see [`share`]). Cosmos DB's
    /// request units are one currency: reads and writes each could take the whole share.
    pub fn caps(&self) -> [f64; 2] {
        match self.share_per_s() {
            Some(share) => [share * self.tick_secs; 2],
            None => PARTITION_RATE.map(|rate| rate * self.tick_secs),
        }
    }

    /// Brings a partition to `tick`: banks what earlier ticks left unused and closes heat
    /// windows.
    fn roll(&mut self, i: usize, tick: u32) {
        let caps = self.caps();
        let overdraws = self.overdraws();
        let per_window = self.ticks_per_window;
        let tick_secs = self.tick_secs;
        let p = &mut self.parts[i];
        if p.tick >= tick {
            return;
        }
        let owed = share(p.used, caps) + p.debt / caps[READ];
        let closed = if p.refused_now { 1.0 } else { owed };
        p.peak_share = p.peak_share.max(closed);
        if p.span_counted != Some(p.tick) {
            p.span_share = p.span_share.max(closed);
        }
        p.refused_now = false;
        if overdraws {
            // What the tick served past its budget is paid back by the ticks after it, idle
            // ones first.
            let idle = f64::from(tick - p.tick - 1);
            p.debt = ((owed - 1.0 - idle) * caps[READ]).max(0.0);
        }
        for dim in [READ, WRITE] {
            p.peak[dim] = p.peak[dim].max(p.used[dim] / tick_secs);
            p.used[dim] = 0.0;
        }
        if self.heat_splits && tick - p.window_start >= per_window {
            let secs = f64::from(tick - p.window_start) * tick_secs;
            p.hot = share(p.window, caps.map(|c| c / tick_secs * secs)) > HEAT_SHARE;
            p.window = [0.0; 2];
            p.window_start = tick;
        }
        p.tick = tick;
    }

    fn roll_table(&mut self, tick: u32) {
        if self.tick >= tick {
            return;
        }
        let secs = self.tick_secs;
        let idle = f64::from(tick - self.tick - 1);
        let used = self.used;
        match &mut self.allowance {
            Allowance::OnDemand { previous, pending } => {
                let peak = [used[0] / secs, used[1] / secs];
                // Only rising peaks matter (the allowance follows the highest one).
                let highest =
                    pending.back().map_or(*previous, |b| [b.1[0].max(previous[0]), b.1[1].max(previous[1])]);
                if peak.iter().zip(highest.iter()).any(|(p, q)| p > q) {
                    pending.push_back((self.tick, peak));
                }
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a positive count of ticks"
                )]
                let ramp = (ON_DEMAND_RAMP_SECS / secs).ceil() as u32;
                while let Some(&(at, peak)) = pending.front() {
                    if tick.saturating_sub(at) < ramp {
                        break;
                    }
                    previous[0] = previous[0].max(peak[0]);
                    previous[1] = previous[1].max(peak[1]);
                    pending.pop_front();
                }
            }
            Allowance::Provisioned { rate, burst } => {
                for dim in [READ, WRITE] {
                    let unused = (rate[dim] * secs - used[dim]).max(0.0) + idle * rate[dim] * secs;
                    burst[dim] = (burst[dim] + unused).min(rate[dim] * BURST_SECS);
                }
            }
            Allowance::Shared { .. } => {}
        }
        self.used = [0.0; 2];
        self.tick = tick;
    }

    fn table_available(&self, dim: usize) -> f64 {
        match &self.allowance {
            Allowance::OnDemand { previous, .. } => {
                let caps = previous.map(|p| 2.0 * p * self.tick_secs);
                (1.0 - share(self.used, caps)).max(0.0) * caps[dim]
            }
            Allowance::Provisioned { rate, burst } => {
                (rate[dim] * self.tick_secs - self.used[dim]).max(0.0) + burst[dim]
            }
            // The partitions' shares add up to the container's throughput: they are the limit.
            Allowance::Shared { .. } => f64::INFINITY,
        }
    }

    /// Serves `units` in `dim` on each partition of `touches` (partition index, units) if all of
    /// them and the table allowance have room; else consumes nothing.
    pub fn consume(&mut self, tick: u32, dim: usize, touches: &[(usize, f64)]) -> Result<(), Refusal> {
        self.check(tick, dim, touches)?;
        self.record(dim, touches);
        Ok(())
    }

    /// The share of `want` (units of each dimension) that partition `i` and the table's
    /// allowance can still serve in `tick`, from 0 to 1: the fluid replay's demand is a flow,
    /// served in part, where a request is served whole or refused ([`Meter::check`]'s rules).
    /// The partition may serve `over` (a share of its budget) past its budget: 0 on DynamoDB; a
    /// Cosmos DB partition serves whole the request that finds any budget left
    /// ([`Meter::overdraws`]), so a flow of requests passes its budget by what the last one
    /// served asks beyond it, owed by the next ticks.
    pub fn fits_over(&mut self, tick: u32, i: usize, want: [f64; 2], over: f64) -> f64 {
        self.roll_table(tick);
        self.roll(i, tick);
        let caps = self.caps();
        let need = share(want, caps);
        if need <= 0.0 {
            return 1.0;
        }
        let p = &self.parts[i];
        let part = (1.0 + over - share(p.used, caps) - p.debt / caps[READ]).max(0.0) / need;
        let table = match &self.allowance {
            Allowance::OnDemand { previous, .. } => {
                let caps = previous.map(|p| 2.0 * p * self.tick_secs);
                (1.0 - share(self.used, caps)).max(0.0) / share(want, caps)
            }
            Allowance::Provisioned { .. } => [READ, WRITE]
                .into_iter()
                .filter(|&dim| want[dim] > 0.0)
                .map(|dim| self.table_available(dim) / want[dim])
                .fold(f64::INFINITY, f64::min),
            Allowance::Shared { .. } => f64::INFINITY,
        };
        part.min(table).clamp(0.0, 1.0)
    }

    /// Serves `units` of each dimension on partition `i` unchecked: the caller asked
    /// [`Meter::fits_over`] how much would be served.
    pub fn take(&mut self, tick: u32, i: usize, units: [f64; 2]) {
        self.roll_table(tick);
        self.roll(i, tick);
        for dim in [READ, WRITE] {
            if units[dim] > 0.0 {
                self.record(dim, &[(i, units[dim])]);
            }
        }
    }

    /// The bookkeeping of units served: partitions, the table's tick and a provisioned
    /// table's burst.
    fn record(&mut self, dim: usize, touches: &[(usize, f64)]) {
        let total: f64 = touches.iter().map(|t| t.1).sum();
        for &(i, units) in touches {
            let p = &mut self.parts[i];
            p.used[dim] += units;
            p.window[dim] += units;
            p.total[dim] += units;
            p.span[dim] += units;
        }
        self.used[dim] += total;
        if let Allowance::Provisioned { rate, burst } = &mut self.allowance {
            let over = (self.used[dim] - rate[dim] * self.tick_secs).max(0.0);
            let before = (self.used[dim] - total - rate[dim] * self.tick_secs).max(0.0);
            burst[dim] = (burst[dim] - (over - before)).max(0.0);
        }
    }

    /// Whether [`Meter::consume`] would serve `touches` now, consuming nothing.
    pub fn check(&mut self, tick: u32, dim: usize, touches: &[(usize, f64)]) -> Result<(), Refusal> {
        self.roll_table(tick);
        let total: f64 = touches.iter().map(|t| t.1).sum();
        if total > self.table_available(dim) + 1e-9 {
            return Err(Refusal::Table);
        }
        let caps = self.caps();
        let overdraws = self.overdraws();
        for &(i, _) in touches {
            self.roll(i, tick);
            // Several touches of one partition in one request add up.
            let same: f64 = touches.iter().filter(|t| t.0 == i).map(|t| t.1).sum();
            let available = self.parts[i].available(dim, caps);
            let refused = if overdraws { available <= 1e-9 } else { same > available + 1e-9 };
            if refused {
                return Err(Refusal::Partition(i));
            }
        }
        Ok(())
    }

    /// GSI entry writes on partition `i` (each `(hash, units, op)`): served at once (`Ok(true)`)
    /// when the partition has capacity and nothing queued; else queued in order (`Ok(false)`),
    /// unless the queue already holds `GSI_BACKLOG_SECS` of capacity.
    pub fn index_write(
        &mut self,
        tick: u32,
        now_ms: u64,
        i: usize,
        ops: &[(u64, f64, u64)],
    ) -> Result<bool, Refusal> {
        self.roll(i, tick);
        let units: f64 = ops.iter().map(|o| o.1).sum();
        if self.parts[i].queue.is_empty() && self.consume(tick, WRITE, &[(i, units)]).is_ok() {
            return Ok(true);
        }
        let p = &mut self.parts[i];
        if p.backlog + units > GSI_BACKLOG_UNITS {
            return Err(Refusal::Backlog(i));
        }
        p.backlog += units;
        p.queue.extend(ops.iter().map(|&(hash, units, op)| Queued { since_ms: now_ms, units, hash, op }));
        Ok(false)
    }

    /// Whether partition `i` has entry writes queued (reads of it see the index as it was).
    pub fn pending(&self, i: usize) -> bool {
        !self.parts[i].queue.is_empty()
    }

    /// A free entry write (a TTL delete's) behind partition `i`'s queue: it costs nothing but
    /// must not overtake the writes queued before it.
    pub fn enqueue_free(&mut self, now_ms: u64, i: usize, hash: u64, op: u64) {
        self.parts[i].queue.push_back(Queued { since_ms: now_ms, units: 0.0, hash, op });
    }

    /// Whether a GSI write of `units` on partition `i` would be served or queued (not refused).
    pub fn can_take(&self, tick: u32, i: usize, units: f64) -> bool {
        let p = &self.parts[i];
        if p.queue.is_empty() {
            let caps = self.caps();
            let room = if p.tick == tick { p.available(WRITE, caps) } else { caps[WRITE] };
            let table =
                if self.tick == tick { self.table_available(WRITE) } else { self.table_capacity(WRITE) };
            if units <= room && units <= table {
                return true;
            }
        }
        p.backlog + units <= GSI_BACKLOG_UNITS
    }

    /// The table allowance of a fresh tick.
    fn table_capacity(&self, dim: usize) -> f64 {
        match &self.allowance {
            Allowance::OnDemand { previous, .. } => 2.0 * previous[dim] * self.tick_secs,
            Allowance::Provisioned { rate, burst } => rate[dim] * self.tick_secs + burst[dim],
            Allowance::Shared { .. } => f64::INFINITY,
        }
    }

    /// Applies queued GSI writes with what is left of tick `tick`'s budget (call once the tick's
    /// requests are done); the ids of the writes wholly applied go to `done`, in order. Returns
    /// the units applied.
    pub fn drain(&mut self, tick: u32, done: &mut Vec<u64>) -> f64 {
        let mut applied = 0.0;
        for i in 0..self.parts.len() {
            if self.parts[i].queue.is_empty() {
                continue;
            }
            self.roll(i, tick);
            self.roll_table(tick);
            let room = self.parts[i].available(WRITE, self.caps()).min(self.table_available(WRITE).max(0.0));
            let take = self.parts[i].backlog.min(room);
            if take > 0.0 {
                let _ = self.consume(tick, WRITE, &[(i, take)]);
                applied += take;
            }
            let p = &mut self.parts[i];
            p.backlog -= take.max(0.0);
            let mut left = take.max(0.0);
            // The backlog gone (to rounding), everything queued is applied.
            let all = p.backlog <= 1e-9;
            while let Some(front) = p.queue.front_mut() {
                if !all && front.units > left + 1e-9 {
                    front.units -= left;
                    break;
                }
                left = (left - front.units).max(0.0);
                done.push(front.op);
                p.queue.pop_front();
            }
            if p.queue.is_empty() {
                p.backlog = 0.0;
            }
        }
        applied
    }

    /// Replication lag now: the oldest queued GSI write's wait, in seconds.
    pub fn lag_secs(&self, now_ms: u64) -> f64 {
        self.parts
            .iter()
            .filter_map(|p| p.queue.front())
            .map(|q| now_ms.saturating_sub(q.since_ms) as f64 / 1000.0)
            .fold(0.0, f64::max)
    }

    /// Notes a refusal on a partition.
    pub fn throttled(&mut self, i: usize) {
        self.parts[i].refused_now = true;
        self.parts[i].throttled += 1;
        self.parts[i].span_throttled += 1;
    }

    /// Peak per-second consumption of partition `i`, the current tick included.
    pub fn peak(&self, i: usize, dim: usize) -> f64 {
        let p = &self.parts[i];
        p.peak[dim].max(p.used[dim] / self.tick_secs)
    }

    /// The highest share of its budget partition `i` used in a tick, the current tick included,
    /// at most 1: Cosmos DB's normalized RU consumption ([`cosmos::normalized_consumption`] over
    /// one partition). A tick in which the partition refused a request counts as 1: what it had
    /// left was less than the request asked, and Azure Monitor shows a partition answering 429
    /// at 100% ("How to monitor normalized RU/s").
    pub fn peak_share(&self, i: usize) -> f64 {
        let p = &self.parts[i];
        let caps = self.caps();
        let now = if p.refused_now { 1.0 } else { share(p.used, caps) + p.debt / caps[READ] };
        p.peak_share.max(now).min(1.0)
    }

    /// [`Meter::peak_share`] over the ticks since the last call instead of the whole run (at most
    /// 1), for the registry tick that ends with tick `last`; the next call starts after it.
    /// Every tick counts once: the open tick's share is taken here if it is `last` or earlier,
    /// and not again when it closes.
    pub fn take_span_share(&mut self, i: usize, last: u32) -> f64 {
        let caps = self.caps();
        let p = &mut self.parts[i];
        let mut span = std::mem::take(&mut p.span_share);
        // A partition split off after `last` has no tick of this span open.
        if p.tick <= last && p.span_counted != Some(p.tick) {
            let now = if p.refused_now { 1.0 } else { share(p.used, caps) + p.debt / caps[READ] };
            span = span.max(now);
            p.span_counted = Some(p.tick);
        }
        span.min(1.0)
    }

    /// Partitions due a split: (index, for size). Heat splits wait for a hot window.
    pub fn split_candidates(&self) -> Vec<(usize, bool)> {
        let mut out = Vec::new();
        for (i, p) in self.parts.iter().enumerate() {
            if p.bytes > self.split_bytes {
                out.push((i, true));
            } else if p.hot {
                out.push((i, false));
            }
        }
        out
    }

    /// Splits partition `i` at hash `at` (inside its range): the upper part becomes a new
    /// partition after it. Buckets and the heat window are shared by halves; queued GSI writes
    /// go with their keys' hashes, in order.
    pub fn split(&mut self, i: usize, at: u64, tick: u32, for_size: bool, row: u32, bytes: (u64, u64)) {
        let mut upper = Physical::new(at, tick, row);
        let lower = &mut self.parts[i];
        lower.hot = false;
        lower.window = [0.0; 2];
        lower.window_start = tick;
        lower.bytes = bytes.0;
        upper.bytes = bytes.1;
        if !lower.queue.is_empty() {
            let (stay, go): (VecDeque<Queued>, VecDeque<Queued>) =
                lower.queue.drain(..).partition(|q| q.hash < at);
            lower.backlog = stay.iter().map(|q| q.units).sum();
            upper.backlog = go.iter().map(|q| q.units).sum();
            lower.queue = stay;
            upper.queue = go;
        }
        // The new partition did not exist before the next tick: nothing of this tick to bank.
        upper.tick = tick + 1;
        upper.window_start = tick + 1;
        self.parts.insert(i + 1, upper);
        if for_size {
            self.splits_size += 1;
        } else {
            self.splits_heat += 1;
        }
    }

    /// A heat split that cannot help (one key carries the load): stop asking until the next
    /// window.
    pub fn refuse_split(&mut self, i: usize) {
        self.parts[i].hot = false;
        self.splits_blocked += 1;
    }

    /// The end hash (exclusive; `None` = 2^64) of partition `i`.
    pub fn end(&self, i: usize) -> Option<u64> {
        self.parts.get(i + 1).map(|p| p.lo)
    }
}

/// How much of one budget `used` takes, given what each dimension alone could take: AWS's
/// "linear combination" of reads and writes (RCU/3000 + WCU/1000 for a partition).
pub fn share(used: [f64; 2], caps: [f64; 2]) -> f64 {
    used[READ] / caps[READ] + used[WRITE] / caps[WRITE]
}

/// Where to split a range holding keys with these (hash, weight) pairs, sorted by hash, for
/// heat: when one key carries more than half the load, the boundaries around it (one or two
/// splits, so it ends alone); else the one boundary that leaves the heavier side lightest. Empty
/// when fewer than two keys carry weight (one key's load cannot be split).
pub fn heat_split_points(keys: &[(u64, f64)]) -> Vec<u64> {
    let total: f64 = keys.iter().map(|k| k.1).sum();
    if keys.iter().filter(|k| k.1 > 0.0).count() < 2 {
        return Vec::new();
    }
    let Some((hot, &(hash, weight))) = keys.iter().enumerate().max_by(|a, b| a.1.1.total_cmp(&b.1.1)) else {
        return Vec::new();
    };
    if weight > total / 2.0 {
        let mut points = Vec::new();
        if let Some(next) = keys[hot + 1..].iter().find(|k| k.0 != hash) {
            points.push(next.0);
        }
        if keys[..hot].iter().any(|k| k.0 != hash) {
            points.push(hash);
        }
        return points;
    }
    split_point(keys).into_iter().collect()
}

/// Where to split a range holding keys with these (hash, weight) pairs, sorted by hash: the
/// boundary (the first hash of the upper part) that leaves the heavier side lightest. `None`
/// when fewer than two keys carry weight.
pub fn split_point(keys: &[(u64, f64)]) -> Option<u64> {
    let total: f64 = keys.iter().map(|k| k.1).sum();
    if keys.iter().filter(|k| k.1 > 0.0).count() < 2 {
        return None;
    }
    let mut best: Option<(f64, u64)> = None;
    let mut below = 0.0;
    for pair in keys.windows(2) {
        below += pair[0].1;
        if pair[1].0 == pair[0].0 {
            continue;
        }
        let worse = below.max(total - below);
        if best.is_none_or(|(w, _)| worse < w) {
            best = Some((worse, pair[1].0));
        }
    }
    best.map(|(_, at)| at)
}

#[cfg(test)]
mod tests;

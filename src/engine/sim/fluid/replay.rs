//! The fluid time loop: each tick's call counts per pattern (the per-operation replay's exact
//! `rate × shape × tick + carry` sequence), gathered into histograms — per key group and time
//! bucket for sizes, per group and direction for peaks — and each bucket's partitions folded
//! into expected sizes when the bucket closes. No call is made and no item exists.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::engine::planner::Operation;
use crate::engine::time::SimTime;
use crate::engine::workload::rate_at;

use super::super::items::Val;
use super::super::templates::{Slot, render_slot};
use super::super::world::World;
use super::capacity::Capacity;
use super::extremes::{Maxima, Normal};
use super::heat::Recorder;
use super::model::{Flow, Growth, Model, Shares, batched, kid_tick_shares, tick_shares};
use super::pages::Paging;
use super::{FluidError, unsupported};

/// Closed partitions kept for the maximum: those that could still be the largest.
const KEEP_SD: f64 = 10.0;

/// One partition once its bucket has closed (or at the end): expected items and bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    pub member: u64,
    /// A time in the partition's bucket (seconds), for its key text.
    pub at_secs: i64,
    pub items: Normal,
    /// Of its items, those it held for certain before its writes (preloaded).
    pub pre: f64,
    pub bytes_per_item: f64,
    /// The chance that it holds no item (0 when preloaded): for the partitions two entities
    /// share (`shared::merge`).
    pub empty: f64,
}

/// What one key group gathered.
#[derive(Debug, Clone, Default)]
pub struct GroupState {
    /// The open bucket's text (empty without a time slot) and its first second.
    bucket: Option<(String, i64)>,
    /// Per write flow (of this group, in `write_flows` order), the open bucket's tick counts:
    /// (calls in the tick per flow) → ticks.
    open: BTreeMap<Vec<u64>, u64>,
    /// Per write flow: the pattern's first call index in the open bucket.
    seq_from: Vec<u64>,
    pub write_flows: Vec<usize>,
    pub read_flows: Vec<usize>,
    /// The flows whose calls the peaks count, [reads, writes]: the group's own, and those of the
    /// groups whose items share its partitions when it leads them (`Model::peak_flows`).
    pub peak_flows: [Vec<usize>; 2],
    /// Partitions that may be the largest.
    pub kept: Vec<Part>,
    pub items: f64,
    pub bytes: f64,
    /// Expected partitions holding an item.
    pub partitions: f64,
    pub writes: f64,
    /// Of `writes`, the aggregates' updates (not their calls' own writes).
    pub aggregate_writes: f64,
    pub overwritten: f64,
    /// Create-once puts refused because an item held their key (`condition`): the landed puts
    /// that made no item, which would otherwise have overwritten one.
    pub condition_failed: f64,
    /// Landed writes onto a key that held an item (the preload's, or an earlier write's): on a
    /// store of whole documents each builds a new version of the document (`DocumentsReport`),
    /// and the bytes of those versions — the mean item its writes leave, whether or not the
    /// key held one.
    pub rewrites: f64,
    pub rewritten_bytes: f64,
    /// Whether the preloaded items went into a bucket yet (the first one).
    preloaded: bool,
    /// The texts of the buckets closed so far: a time format whose text comes back (`%H`
    /// alone) puts a later hour's writes into an earlier partition, which the fluid replay
    /// does not model.
    closed: BTreeSet<String>,
    /// (calls in the tick per flow of `peak_flows[dim]`) → ticks, over the run, [reads, writes].
    pub peaks: [BTreeMap<Vec<u64>, u64>; 2],
    /// A grown population's draws instead, tick by tick (`growth`), [reads, writes].
    pub grown: [super::growth::GrownPeaks; 2],
}

impl GroupState {
    /// Counts landed writes onto a key that held an item, `replaced` of the bucket's `totals`
    /// calls of its write `flows`: each leaves an item of its flow's mean size, so the versions
    /// weigh the flows' mean item over those calls.
    fn count_rewrites(&mut self, replaced: f64, flows: &[&Flow], totals: &[f64]) {
        let called: f64 = totals.iter().sum();
        let written: f64 = flows.iter().zip(totals).map(|(f, t)| f.bytes * t).sum();
        self.rewrites += replaced;
        if called > 0.0 {
            self.rewritten_bytes += replaced * written / called;
        }
    }

    /// Counts landed writes of group `g` that left no item of their own: create-once puts
    /// refused by their condition, or else writes onto a key that held an item
    /// (`count_rewrites`) — overwrites, unless an upsert replaces on purpose — of the bucket's
    /// calls of its write flows.
    /// `versions`: the bytes of the new versions embeds' appends built (`embed`), each the
    /// document its parent's appends left, where the group's writes are such appends.
    fn count_replaced(
        &mut self,
        replaced: f64,
        (model, g): (&Model, usize),
        (flows, totals): (&[&Flow], &[f64]),
        versions: Option<f64>,
    ) {
        if let Some(versions) = versions {
            self.rewrites += replaced;
            self.rewritten_bytes += versions;
            return;
        }
        if model.create_once.contains(&g) {
            self.condition_failed += replaced;
            return;
        }
        self.count_rewrites(replaced, flows, totals);
        if !model.groups[g].upsert {
            self.overwritten += replaced;
        }
    }
}

/// Per pattern: calls, partitions asked.
#[derive(Debug, Clone, Copy, Default)]
pub struct PatternState {
    pub calls: u64,
    carry: f64,
    pub asked: f64,
    pub max_asked: u64,
    /// The BatchGetItems of its fetches from the table after a Query of an index (`fetch`):
    /// one a call whose Query returned an item, expected.
    pub fetch_requests: f64,
    /// On a row-paged store (`pages`): the pages a Query's or a Scan's calls sent, each a
    /// request, expected, and the most one call sent.
    pub pages: f64,
    pub most_pages: u64,
}

/// Each pattern's calls over `ticks` ticks of `tick_ms` from `start_ms`: the per-operation
/// replay's own `rate × shape × tick + carry` sequence, as `Replay::run` counts it.
pub fn calls_over(world: &World, (start_ms, tick_ms, ticks): (u64, u64, u32)) -> Vec<u64> {
    let tick_secs = tick_ms as f64 / 1000.0;
    let start = SimTime::from_millis(start_ms);
    let mut out = vec![0u64; world.patterns.len()];
    for (p, pattern) in world.patterns.iter().enumerate() {
        let mut carry = 0.0;
        for t in 0..ticks {
            let now = SimTime::from_millis(start_ms + u64::from(t) * tick_ms);
            let expected = rate_at(pattern.rate, &pattern.shapes, start, now) * tick_secs + carry;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a count of calls, clamped"
            )]
            let calls = expected.floor().clamp(0.0, f64::from(u32::MAX)) as u64;
            carry = expected - calls as f64;
            out[p] += calls;
        }
    }
    out
}

#[derive(Debug)]
pub struct Replay<'w> {
    pub world: &'w World,
    pub model: Model,
    pub start_ms: u64,
    pub tick_ms: u64,
    pub ticks: u32,
    pub groups: Vec<GroupState>,
    pub patterns: Vec<PatternState>,
    /// Partitions a read asks, by group and the buckets of its range's ends (`asked`).
    fanouts: RefCell<BTreeMap<(usize, String, String), u64>>,
    /// The report's peaks already weighed, by their draws (`extremes::Maxima`).
    pub maxima: Maxima,
    /// Per flow: the shards or hash slots a call asks in each bucket, on average and at most
    /// (`KeyGroup::shards_asked`; 1 for a read of one key).
    shards_asked: Vec<(f64, u64)>,
    /// A metered store's capacity (DynamoDB): what each tick's demand was served, by the
    /// table's meter (the first) and each global secondary index's.
    pub capacities: Vec<Capacity>,
    /// Per flow: the partitions one of its reads asked in the tick just run (`asked`), every
    /// shard counted (on average over its members' shard counts).
    asked_now: Vec<f64>,
    /// The expected heatmap, while the replay runs (`heat`).
    pub heat: Option<Recorder>,
    /// On a row-paged store (Cassandra), what counts a read's pages.
    pub paging: Option<Paging>,
}

impl<'w> Replay<'w> {
    pub fn new(
        world: &'w World,
        model: Model,
        (start_ms, tick_ms, ticks): (u64, u64, u32),
        capacities: Vec<Capacity>,
    ) -> Replay<'w> {
        let mut groups = vec![GroupState::default(); model.groups.len()];
        // A version check's read and lost races change no item and ask no partition of a read
        // call's: metered, and peaks, only (`Model::charges`).
        for (f, flow) in model.flows.iter().enumerate().filter(|(f, _)| !model.charges(*f)) {
            let g = &mut groups[flow.group];
            if flow.write { g.write_flows.push(f) } else { g.read_flows.push(f) }
        }
        for (g, state) in groups.iter_mut().enumerate() {
            state.seq_from = vec![0; state.write_flows.len()];
            state.peak_flows = [model.peak_flows(g, false), model.peak_flows(g, true)];
        }
        let patterns = vec![PatternState::default(); world.patterns.len()];
        let shards_asked = model
            .flows
            .iter()
            .map(|f| {
                if f.write {
                    (1.0, 1)
                } else {
                    model.groups[f.group].shards_asked(&f.shares, &world.patterns[f.pattern])
                }
            })
            .collect();
        let heat = Recorder::new(world, &model, (start_ms, tick_ms, ticks), !capacities.is_empty());
        let mut capacities = capacities;
        for capacity in &mut capacities {
            capacity.watch = heat.watched().to_vec();
            capacity.scan.set_ticks(ticks);
        }
        let paging = Paging::new(world, &model, (start_ms, tick_ms));
        Replay {
            world,
            paging,
            start_ms,
            tick_ms,
            ticks,
            groups,
            patterns,
            fanouts: RefCell::default(),
            maxima: Maxima::default(),
            shards_asked,
            capacities,
            asked_now: vec![0.0; model.flows.len()],
            heat: Some(heat),
            model,
        }
    }

    /// The table's capacity, on a metered store.
    pub fn capacity(&self) -> Option<&Capacity> {
        self.capacities.first()
    }

    /// The capacity that meters key group `g` (the table's or its index's), on a metered store.
    pub fn capacity_of(&self, g: usize) -> Option<&Capacity> {
        self.capacities.iter().find(|c| c.scope.groups[g])
    }

    /// Runs every tick, then closes the open buckets; false when `progress` gave it up (it
    /// returned false), with the run left unfinished.
    pub fn run(&mut self, progress: &mut dyn FnMut(f64) -> bool) -> Result<bool, FluidError> {
        // Writes that meet within a second are counted per second of a tick: a tick must be
        // whole seconds.
        if !self.tick_ms.is_multiple_of(1000) && self.model.groups.iter().any(|g| g.sort.per_second) {
            return Err(unsupported("a tick that is not a whole number of seconds", "workload"));
        }
        let tick_secs = self.tick_ms as f64 / 1000.0;
        let start = SimTime::from_millis(self.start_ms);
        let every = (self.ticks / 100).max(1);
        let mut n = vec![0u64; self.patterns.len()];
        for t in 0..self.ticks {
            let now_ms = self.start_ms + u64::from(t) * self.tick_ms;
            for (p, pattern) in self.world.patterns.iter().enumerate() {
                let state = &mut self.patterns[p];
                let expected = rate_at(pattern.rate, &pattern.shapes, start, SimTime::from_millis(now_ms))
                    * tick_secs
                    + state.carry;
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "a count of calls, clamped"
                )]
                let calls = expected.floor().clamp(0.0, f64::from(u32::MAX)) as u64;
                state.carry = expected - calls as f64;
                n[p] = calls;
            }
            self.grow(&n);
            self.cache_tick(&n);
            // The indexes first: once a GSI's full queue refuses writes (back-pressure), the
            // table takes only those its queue admitted.
            if let Some((table, indexes)) = self.capacities.split_first_mut() {
                for capacity in indexes.iter_mut() {
                    capacity.tick(self.world, &self.model, t, &n)?;
                }
                for p in 0..n.len() {
                    let pressed = indexes.iter().filter(|c| c.queues.pressed[p]);
                    table.queues.admitted_calls[p] =
                        pressed.map(|c| c.queues.admitted[p]).reduce(|a, b| a + b);
                }
                table.tick(self.world, &self.model, t, &n)?;
            }
            self.no_batch_refused()?;
            if let Some(cache) = &self.model.cache {
                let throttled: Vec<f64> = (0..n.len())
                    .map(|p| self.capacities.iter().map(|c| c.figures.throttled[p]).sum())
                    .collect();
                cache.check_throttled(self.world, &throttled)?;
            }
            if let Some(paging) = &mut self.paging {
                let patterns = &self.patterns;
                paging.record(|p| patterns[p].calls, &n);
            }
            self.count_scan_pages(now_ms, &n)?;
            for g in 0..self.groups.len() {
                self.tick_group(g, now_ms, &n)?;
            }
            if let Some(mut heat) = self.heat.take() {
                heat.tick(t, &n, self);
                self.heat = Some(heat);
            }
            for (p, &calls) in n.iter().enumerate() {
                self.patterns[p].calls += calls;
            }
            if t % every == 0 && !progress(f64::from(t) / f64::from(self.ticks.max(1))) {
                return Ok(false);
            }
        }
        for g in 0..self.groups.len() {
            self.close(g);
        }
        super::shared::merge(self);
        Ok(true)
    }

    /// Sets the shares of the flows onto a population grown by puts of new identities for the
    /// tick about to run (`model::Growth`): the put's calls make the members after those made so
    /// far, one each; the reads pick among the members at the tick's start.
    fn grow(&mut self, n: &[u64]) {
        let Some(mut growth) = self.model.growth.take() else { return };
        let from = self.patterns[growth.put].calls;
        let size = growth.first + from;
        for &f in &growth.flows {
            let flow = &self.model.flows[f];
            if let Some(fetch) = self.model.fetches.iter().find(|x| x.flow == f) {
                // The items fetched are those made so far, the tick's own at half their share.
                let shares = fetch.shares(growth.first, from, n[growth.put]);
                let p = flow.pattern;
                // The Query is asked at the tick's middle: after half the tick's puts.
                let puts = from as f64 + n[growth.put] as f64 / 2.0;
                self.patterns[p].fetch_requests += n[p] as f64 * fetch.returns_any(puts);
                self.model.flows[f].shares = Shares::Each(shares);
            } else if flow.write {
                let calls = n[growth.put];
                self.model.flows[f].shares = Shares::Fresh { first: growth.first, from, calls };
            } else if size != growth.size {
                let pattern = &self.world.patterns[flow.pattern];
                let shares: Rc<[f64]> = tick_shares(self.world, &growth, pattern, size, growth.seed).into();
                // A read the cache fronts keeps its picks there: its shares are its misses'.
                if !self.model.cache.as_mut().is_some_and(|c| c.set_picks(f, &shares)) {
                    self.model.flows[f].shares = Shares::Each(shares);
                }
            }
        }
        self.grow_kids(&growth, size, n);
        for capacity in &mut self.capacities {
            for &f in &growth.flows {
                capacity.forget_spread(growth.group, f);
            }
            for &(f, _) in &growth.kid_flows {
                capacity.forget_spread(self.model.flows[f].group, f);
            }
        }
        growth.size = size;
        self.model.growth = Some(growth);
    }

    /// Sets the shares of the puts onto a grown population's kids (`Growth::kids`) for the tick
    /// about to run: each picks among the `size` members at the tick's start (worked out anew
    /// when the population grew), and each member's mean share over the calls so far takes the
    /// tick's calls at those shares.
    fn grow_kids(&mut self, growth: &Growth, size: u64, n: &[u64]) {
        for &(f, attr) in &growth.kid_flows {
            let p = self.model.flows[f].pattern;
            let Shares::Recent { now, mean } = &self.model.flows[f].shares else { continue };
            let now: Rc<[f64]> = if size == growth.size {
                now.clone()
            } else {
                kid_tick_shares(self.world, growth, &self.world.patterns[p], attr, size, growth.seed).into()
            };
            let (before, calls) = (self.patterns[p].calls as f64, n[p] as f64);
            let mean: Rc<[f64]> = if calls > 0.0 {
                let total = before + calls;
                (0..now.len().max(mean.len()))
                    .map(|m| {
                        let old = mean.get(m).copied().unwrap_or(0.0);
                        (old * before + now.get(m).copied().unwrap_or(0.0) * calls) / total
                    })
                    .collect()
            } else {
                mean.clone()
            };
            self.model.flows[f].shares = Shares::Recent { now, mean };
        }
    }

    /// Sets the shares of the reads the variant's cache fronts to their expected misses in the
    /// tick about to run (`cache`): only those reach the table.
    fn cache_tick(&mut self, n: &[u64]) {
        let Some(mut cache) = self.model.cache.take() else { return };
        cache.tick(&mut self.model, n);
        for c in &cache.fronted {
            let g = self.model.flows[c.flow].group;
            for capacity in &mut self.capacities {
                capacity.forget_spread(g, c.flow);
            }
        }
        self.model.cache = Some(cache);
    }

    /// A batch is refused whole when one of its keys' partitions refuses it, and retried
    /// whole: the capacity model meters each key on its own, so a run stops once a batch
    /// would have been refused (half a request expected, over the run so far).
    fn no_batch_refused(&self) -> Result<(), FluidError> {
        for p in (0..self.world.patterns.len()).filter(|&p| batched(self.world, p)) {
            let refused: f64 = self.capacities.iter().map(|c| c.figures.throttled[p]).sum();
            if refused >= 0.5 {
                return Err(unsupported(
                    "a BatchGetItem refused by one of its partitions (the whole batch is retried)",
                    &format!("pattern {}", self.world.patterns[p].name),
                ));
            }
        }
        // A fetch after an index Query (`fetch`): a Query retried after a throttle fetches
        // nothing, and the batch is refused whole; rates follow neither.
        for fetch in &self.model.fetches {
            let p = self.model.flows[fetch.flow].pattern;
            let refused: f64 = self.capacities.iter().map(|c| c.figures.throttled[p]).sum();
            if refused >= 0.5 {
                return Err(unsupported(
                    "a Query of an index followed by a fetch from the table, throttled (a Query retried after a throttle fetches nothing; the batch is refused whole)",
                    &format!("pattern {}", self.world.patterns[p].name),
                ));
            }
        }
        Ok(())
    }

    /// The partitions one read of flow `f` asked in the tick just run (0 when it made none).
    pub fn asked_now(&self, f: usize) -> f64 {
        self.asked_now.get(f).copied().unwrap_or(0.0)
    }

    /// The text of group `g`'s time slot at `secs` (empty without one).
    fn bucket_text(&self, g: usize, secs: i64) -> String {
        let group = &self.model.groups[g];
        let ent = &self.world.entities[group.entity];
        let mut text = String::new();
        if let Some(time) = group.time {
            let mut vals = vec![Val::Absent; ent.attrs.len()];
            vals[time] = Val::time(secs);
            for slot in group.pk.slots.iter().filter(|s| matches!(s, Slot::Time { .. } | Slot::Bucket { .. }))
            {
                render_slot(slot, &ent.attrs, &vals, &self.world.pops, &mut text);
            }
        }
        text
    }

    fn secs(ms: u64) -> i64 {
        i64::try_from(ms / 1000).unwrap_or(i64::MAX)
    }

    fn tick_group(&mut self, g: usize, now_ms: u64, n: &[u64]) -> Result<(), FluidError> {
        let first = Self::secs(now_ms);
        let text = self.bucket_text(g, first);
        if self.model.groups[g].time.is_some()
            && self.bucket_text(g, Self::secs(now_ms + self.tick_ms - 1)) != text
        {
            let place = format!("key of {}", self.world.group_name(self.model.groups[g].group));
            return Err(unsupported("a time bucket that changes within a tick", &place));
        }
        if self.groups[g].bucket.as_ref().is_some_and(|(b, _)| *b != text) {
            self.no_late_landings(g)?;
            self.close(g);
        }
        if self.groups[g].bucket.is_none() {
            if self.groups[g].closed.contains(&text) {
                let place = format!("key of {}", self.world.group_name(self.model.groups[g].group));
                return Err(unsupported("a time format whose text repeats (add the year to it)", &place));
            }
            let from: Vec<u64> = self.groups[g]
                .write_flows
                .iter()
                .map(|&f| self.patterns[self.model.flows[f].pattern].calls)
                .collect();
            let state = &mut self.groups[g];
            state.bucket = Some((text, first));
            state.seq_from = from;
        }
        let writes: Vec<u64> =
            self.groups[g].write_flows.iter().map(|&f| n[self.model.flows[f].pattern]).collect();
        for (&f, &calls) in self.groups[g].write_flows.iter().zip(&writes) {
            // Seq's calls of one member come `members` calls apart: a second or more, or two of
            // them could share a write time (whole seconds) and a key.
            if let Shares::Seq(members) = self.model.flows[f].shares
                && self.model.groups[g].sort.per_second
                && calls > 0
                && members * self.tick_ms < calls * 1000
            {
                let place = format!("pattern {}", self.world.patterns[self.model.flows[f].pattern].name);
                return Err(unsupported("Seq picks that repeat a member within a second", &place));
            }
        }
        for &f in &self.groups[g].read_flows.clone() {
            let flow = &self.model.flows[f];
            let calls = n[flow.pattern];
            self.asked_now[f] = 0.0;
            // A fetch's items are the Query's partitions' (its requests: `grow`).
            if calls == 0 || self.model.fetches.iter().any(|x| x.flow == f) {
                continue;
            }
            // Every shard of every bucket: a read of a sharded key asks them all.
            let asked = self.asked(g, flow, now_ms + self.tick_ms / 2);
            let (shards, most) = self.shards_asked[f];
            self.asked_now[f] = asked as f64 * shards;
            let state = &mut self.patterns[flow.pattern];
            state.asked += asked as f64 * shards * calls as f64;
            state.max_asked = state.max_asked.max(asked * most);
            self.count_pages((g, f), now_ms, calls, asked)?;
        }
        let state = &mut self.groups[g];
        if !writes.is_empty() {
            *state.open.entry(writes).or_default() += 1;
        }
        // The peaks of a partition both entities load count every flow of either (`shared`).
        for (dim, flows) in state.peak_flows.iter().enumerate() {
            if !flows.is_empty() {
                let calls = flows.iter().map(|&f| n[self.model.flows[f].pattern]).collect();
                *state.peaks[dim].entry(calls).or_default() += 1;
            }
        }
        if self.model.growth.as_ref().is_some_and(|growth| growth.moves(g)) {
            self.grown_tick(g, n);
        }
        Ok(())
    }

    /// A bucket's items are counted when it closes, from the share of its writes that landed
    /// by then; a throttled write still waiting for its retry lands on the bucket's key later,
    /// which that count leaves out, whatever writes the bucket (puts, updates, index entries):
    /// a bucket closing with half a write or more still waiting is refused (practice-ratelimit
    /// `naive` past its first minute: the window's key serves 1,000 of its 1,500 write units a
    /// second, and its retries land through the next minute).
    fn no_late_landings(&self, g: usize) -> Result<(), FluidError> {
        let (Some((_, at_secs)), Some(capacity)) = (&self.groups[g].bucket, self.capacity_of(g)) else {
            return Ok(());
        };
        let waiting = capacity.writes_waiting(&self.model, g, *at_secs);
        if waiting >= 0.5 {
            let place = format!("key of {}", self.world.group_name(self.model.groups[g].group));
            return Err(unsupported(
                &format!(
                    "writes of a closed time bucket still waiting for their retry (~{waiting:.0} land on its key after its items are counted)"
                ),
                &place,
            ));
        }
        Ok(())
    }

    /// On a row-paged store, the pages `calls` reads of flow `f` (of group `g`) sent in the tick
    /// at `now_ms`, each asking `asked` buckets (`pages`).
    fn count_pages(
        &mut self,
        (g, f): (usize, usize),
        now_ms: u64,
        calls: u64,
        asked: u64,
    ) -> Result<(), FluidError> {
        let Some(paging) = &self.paging else { return Ok(()) };
        let flow = &self.model.flows[f];
        let pattern = &self.world.patterns[flow.pattern];
        let read = pattern.read.as_ref();
        let limit = read.and_then(|r| r.limit);
        let place = || format!("pattern {}", pattern.name);
        if limit.is_some() && read.is_some_and(|r| !r.filter.is_empty()) {
            return Err(unsupported(
                "a filtered read with a limit on a row-paged store (it reads pages until the limit's matches)",
                &place(),
            ));
        }
        // Only a Query pages (`query_partition`); a Get is one request a key, its partitions
        // asked (the report takes them as its requests).
        if pattern.operation != Some(Operation::Query) {
            return Ok(());
        }
        let (shards, most) = self.shards_asked[f];
        let at = (now_ms + self.tick_ms / 2) as f64 / 1000.0;
        let writes = &self.groups[g].write_flows;
        // A sort-key value the call gives or the pattern fixes, a range over another attribute
        // or one the key cannot apply (read through, then filtered): not a span of write time.
        let given = |a: usize| pattern.givens.contains(&a) || pattern.equals.iter().any(|(e, _)| *e == a);
        let partial = read.is_some_and(|r| {
            (r.range.is_some() && (flow.span_secs.is_none() || !r.ordered))
                || r.sk.as_ref().is_some_and(|sk| sk.attrs().any(given))
        });
        let pages = paging
            .call_pages(&self.model, (g, f, writes), (at, limit, shards, partial), asked)
            .map_err(|what| unsupported(what, &place()))?;
        let state = &mut self.patterns[flow.pattern];
        state.pages += pages.mean * calls as f64;
        state.most_pages = state.most_pages.max(pages.most * most);
        Ok(())
    }

    /// On a row-paged store, the pages of the tick's Scans (`n` calls per pattern), asked at the
    /// tick's middle (`Paging::scan_pages`).
    fn count_scan_pages(&mut self, now_ms: u64, n: &[u64]) -> Result<(), FluidError> {
        let Some(paging) = &self.paging else { return Ok(()) };
        let at = (now_ms + self.tick_ms / 2) as f64 / 1000.0;
        let scans = paging.scan_pages(&self.model, n, at).map_err(|write| {
            unsupported(
                "a row-paged Scan of a table whose rows a write adds in a way rates do not follow (an update, which may add a row or not, or puts whose sort keys repeat by a skewed pick)",
                &format!("pattern {write}"),
            )
        })?;
        for scan in scans {
            let state = &mut self.patterns[scan.pattern];
            state.pages += scan.pages.mean * n[scan.pattern] as f64;
            state.most_pages = state.most_pages.max(scan.pages.most);
        }
        Ok(())
    }

    /// Partitions one call at `at_ms` asks: every bucket over its range, or one — counted as the
    /// per-operation read counts them (`exec::read`'s `partition_keys`): a bucket slot's numbers
    /// from the range's first to its last, a time format's distinct texts between them.
    fn asked(&self, g: usize, flow: &Flow, at_ms: u64) -> u64 {
        let Some(span) = flow.span_secs else { return 1 };
        let to = Self::secs(at_ms);
        let from = to.saturating_sub(span);
        let slot = self.model.groups[g]
            .pk
            .slots
            .iter()
            .find(|slot| matches!(slot, Slot::Bucket { .. } | Slot::Time { .. }));
        match slot {
            Some(Slot::Bucket { width_ms, .. }) => {
                let bucket = |secs: i64| (i128::from(secs) * 1000).div_euclid(i128::from(*width_ms));
                u64::try_from(bucket(to) - bucket(from) + 1).unwrap_or(0)
            }
            Some(Slot::Time { format, .. }) => {
                let ends = (g, self.bucket_text(g, from), self.bucket_text(g, to));
                if let Some(&count) = self.fanouts.borrow().get(&ends) {
                    return count;
                }
                let texts = format.values_between(i128::from(from) * 1000, i128::from(to) * 1000, 100_000);
                let count = texts.map_or(0, |t| t.len() as u64);
                self.fanouts.borrow_mut().insert(ends, count);
                count
            }
            _ => 1,
        }
    }

    /// Of a partition's expected writes (each write flow's `share` of its `totals`), those of
    /// aggregates' updates and of embeds' appends (side writes of their calls).
    fn aggregate_writes(&self, g: usize, shares: &[f64], totals: &[f64]) -> f64 {
        // Most models have none: skip the walk over every member's write flows.
        if self.model.aggregate_flows.is_empty() && self.model.embeds.is_empty() {
            return 0.0;
        }
        let flows = self.groups[g].write_flows.iter().zip(shares.iter().zip(totals));
        flows.filter(|&(f, _)| self.model.side_write(*f)).map(|(_, (s, t))| s * t).sum()
    }

    /// Of a partition's expected writes (each write flow's `share` of its `totals`), those that
    /// moved an index entry (`Model::moved_flows`): each is one more entry write, its delete.
    fn moved_writes(&self, g: usize, shares: &[f64], totals: &[f64]) -> f64 {
        if self.model.moved_flows.is_empty() {
            return 0.0;
        }
        let flows = self.groups[g].write_flows.iter().zip(shares.iter().zip(totals));
        flows.filter(|(f, _)| self.model.moved_flows.contains(f)).map(|(_, (s, t))| s * t).sum()
    }

    /// Folds the open bucket of group `g` into expected partitions.
    fn close(&mut self, g: usize) {
        let Some((text, at_secs)) = self.groups[g].bucket.take() else { return };
        self.groups[g].closed.insert(text);
        let open = std::mem::take(&mut self.groups[g].open);
        let first_bucket = !std::mem::replace(&mut self.groups[g].preloaded, true);
        let group = &self.model.groups[g];
        let flows: Vec<&Flow> = self.groups[g].write_flows.iter().map(|&f| &self.model.flows[f]).collect();
        let to: Vec<u64> = flows.iter().map(|f| self.patterns[f.pattern].calls).collect();
        let from = self.groups[g].seq_from.clone();
        let totals: Vec<f64> =
            (0..flows.len()).map(|i| open.iter().map(|(v, &c)| (v[i] * c) as f64).sum()).collect();
        let tick_secs = (self.tick_ms / 1000).max(1);
        let preload = if first_bucket { self.model.preload.get(g) } else { None };
        // Writes naming their item by a picked sort-key member: each write flow's picks, in
        // `flows`' order (`None` for a flow that names no item so).
        let picks: Vec<Option<&[f64]>> = self.groups[g]
            .write_flows
            .iter()
            .map(|f| group.sort_picks.iter().find(|(p, _)| p == f).map(|(_, s)| &**s))
            .collect();
        let picked = picks.iter().any(Option::is_some);
        let mut parts = Vec::new();
        let (mut items, mut bytes, mut partitions, mut writes, mut aggregate_writes) =
            (0.0, 0.0, 0.0, 0.0, 0.0);
        // Per member, refilled: a million members would otherwise allocate two vectors each.
        let (mut shares, mut drawn) = (Vec::with_capacity(flows.len()), Vec::with_capacity(flows.len()));
        for m in 0..group.members {
            let member = usize::try_from(m).unwrap_or(usize::MAX);
            let pre = preload.and_then(|p| p.get(&m));
            let (pre_items, pre_bytes) = pre.map_or((0.0, 0.0), |p| (p.items, p.bytes));
            shares.clear();
            shares.extend(flows.iter().map(|f| f.shares.over_run(member)));
            fresh_shares(&flows, m, (&from, &to), &totals, &mut shares);
            let landed: f64 = (0..flows.len()).map(|i| shares[i] * totals[i]).sum();
            if landed <= 0.0 && pre_items <= 0.0 {
                continue;
            }
            drawn.clone_from(&shares);
            let Counts { exact, var, count, seq, log_empty, fresh } =
                member_counts(&flows, m, (&from, &to), &totals, &shares, &mut drawn);
            // Writes throttled until their client gave up never landed (1 without metering).
            let lam = self.capacity_of(g).map_or(1.0, |c| c.landed_share(&self.model, g, m, at_secs));
            let mut picked_var = 0.0;
            let kept = if picked {
                // One item per distinct member the landed updates picked (`distinct`).
                let (mean, var) = super::distinct::kept(&picks, &shares, &totals, lam);
                picked_var = var;
                pre_items + mean
            } else if group.sort.per_second {
                if flows.iter().all(|f| f.shares.exact()) {
                    // Seq spaces one member's calls a second or more apart (checked in
                    // `tick_group`): none replaces another.
                    pre_items + count
                } else {
                    kept_per_second(group.sort.collide, &open, &shares, tick_secs, pre_items, count)
                }
            } else {
                // Of writes that replace each other over the partition's life, those that
                // landed: each write lands with the partition's landed share, so a key is kept
                // if one of its landed writes reached it — not the share of its writes (a hot
                // counter's every update lands on one item).
                for s in &mut drawn {
                    *s *= lam;
                }
                // A new identity's one put leaves its item if it landed.
                kept_over_life(group.sort.collide, &open, &drawn, seq * lam, pre_items, (count - fresh) * lam)
                    + fresh * lam
            };
            let per_item = if landed > 0.0 {
                flows.iter().enumerate().map(|(i, f)| shares[i] * totals[i] * f.bytes).sum::<f64>() / landed
                    + group.overhead
            } else {
                0.0
            };
            let (count, var, log_empty) = (count * lam, var * lam, log_empty * lam);
            // Per second, the items kept are thinned alike (over its life, above).
            let kept = if group.sort.per_second { pre_items + (kept - pre_items) * lam } else { kept };
            let new_items = (kept - pre_items).max(0.0);
            let part_bytes = pre_bytes + new_items * per_item;
            let mean = kept;
            let one_key = !group.sort.per_second && group.sort.collide >= 1.0;
            // Which members the updates picked is a draw even where their count is exact.
            let sd = if picked {
                picked_var.sqrt()
            } else if exact {
                0.0
            } else {
                kept_sd(var, new_items, count, one_key)
            };
            let mut empty = if pre_items > 0.0 { 0.0 } else { log_empty.exp() };
            if fresh > 0.0 {
                empty *= (1.0 - lam).powf(fresh);
            }
            items += mean;
            bytes += part_bytes;
            partitions += 1.0 - empty;
            // A moved entry is two entry writes a request (a delete and a put).
            writes += count + lam * self.moved_writes(g, &shares, &totals);
            aggregate_writes += lam * self.aggregate_writes(g, &shares, &totals);
            let bytes_per_item = if mean > 0.0 { part_bytes / mean } else { 0.0 };
            let size = Normal { mean, sd };
            parts.push(Part { member: m, at_secs, items: size, pre: pre_items, bytes_per_item, empty });
        }
        // The subset pattern's lists in the parents, and the new versions their appends built.
        let versions = self.embedded_lists(g, &totals, (preload, at_secs), (&mut parts, &mut bytes));
        if let Some(capacity) = self.capacities.iter_mut().find(|c| c.scope.groups[g]) {
            capacity.closed_bucket(&self.model, g, at_secs, &parts);
        }
        let state = &mut self.groups[g];
        state.items += items;
        state.bytes += bytes;
        state.partitions += partitions;
        state.writes += writes;
        state.aggregate_writes += aggregate_writes;
        let replaced = (writes - (items - preload_items(preload))).max(0.0);
        state.count_replaced(replaced, (&self.model, g), (&flows, &totals), versions);
        self.keep(g, parts);
    }

    /// The subset pattern's appends onto group `g`'s parents (`embed`), if any, over the
    /// bucket's `totals` calls of its write flows: each closed parent's bytes grow by its
    /// expected list, added to the group's `bytes`; returns the new versions the appends built.
    fn embedded_lists(
        &self,
        g: usize,
        totals: &[f64],
        (preload, at_secs): (Option<&BTreeMap<u64, super::model::Preloaded>>, i64),
        (parts, bytes): (&mut [Part], &mut f64),
    ) -> Option<f64> {
        let appends = self.model.appends_to(g, &self.groups[g].write_flows)?;
        let flows = &self.groups[g].write_flows;
        let mut versions = 0.0;
        let mut shares = Vec::with_capacity(flows.len());
        for part in parts.iter_mut() {
            let member = usize::try_from(part.member).unwrap_or(usize::MAX);
            shares.clear();
            shares.extend(flows.iter().map(|&f| self.model.flows[f].shares.of(member)));
            let landed =
                self.capacity_of(g).map_or(1.0, |c| c.landed_share(&self.model, g, part.member, at_secs));
            let pre = preload.and_then(|p| p.get(&part.member)).map_or((0.0, 0.0), |p| (p.items, p.bytes));
            let (list, built) = appends.of(&shares, totals, landed, pre);
            if part.items.mean > 0.0 {
                part.bytes_per_item += list / part.items.mean;
            }
            *bytes += list;
            versions += built;
        }
        Some(versions)
    }

    /// Keeps group `g`'s closed partitions that may be the largest; a shared partition's every
    /// member, until `shared::merge` joins both entities' sizes.
    fn keep(&mut self, g: usize, parts: Vec<Part>) {
        let kept = &mut self.groups[g].kept;
        kept.extend(parts);
        if !self.model.shares_partitions(g) {
            prune(kept);
        }
    }
}

/// What a member's partition got of a bucket's write flows.
struct Counts {
    /// No draw decides its count (`Seq` and `Fresh` flows, or a share of 1).
    exact: bool,
    var: f64,
    count: f64,
    /// Seq's writes of this member, exactly.
    seq: f64,
    /// ln P(no write of this bucket landed here).
    log_empty: f64,
    /// Puts that made this member (`Shares::Fresh`): each landed with the partition's landed
    /// share, so the member holds its item with that chance.
    fresh: f64,
}

/// A put of a new identity made member `m` if its call is among the bucket's (`from..to` of each
/// flow's calls): once, for certain — its share of the bucket's calls, in `shares`.
fn fresh_shares(flows: &[&Flow], m: u64, (from, to): (&[u64], &[u64]), totals: &[f64], shares: &mut [f64]) {
    for (i, f) in flows.iter().enumerate() {
        if let Shares::Fresh { first, .. } = f.shares {
            let made = m >= first && (from[i]..to[i]).contains(&(m - first));
            shares[i] = if made && totals[i] > 0.0 { 1.0 / totals[i] } else { 0.0 };
        }
    }
}

/// Member `m`'s counts of the bucket's `totals` calls of its write `flows` at `shares`; `drawn`
/// keeps the shares of the flows a draw decides (0 for the exact ones).
fn member_counts(
    flows: &[&Flow],
    m: u64,
    (from, to): (&[u64], &[u64]),
    totals: &[f64],
    shares: &[f64],
    drawn: &mut [f64],
) -> Counts {
    let mut out = Counts { exact: true, var: 0.0, count: 0.0, seq: 0.0, log_empty: 0.0, fresh: 0.0 };
    for (i, f) in flows.iter().enumerate() {
        match f.shares {
            Shares::Seq(n) => {
                let k = seq_count(from[i], to[i], m, n) as f64;
                out.seq += k;
                out.count += k;
                drawn[i] = 0.0;
                if k > 0.0 {
                    out.log_empty = f64::NEG_INFINITY;
                }
            }
            Shares::Fresh { .. } => {
                let k = shares[i] * totals[i];
                out.fresh += k;
                out.count += k;
                drawn[i] = 0.0;
            }
            // A kid's puts (`Recent`) at their share over the run: the count is exact; its
            // variance Σ calls·s̄(1 − s̄) bounds the sum of the ticks' Binomial variances
            // Σ nₜ·sₜ(1 − sₜ) from above, and its chance of no write, (1 − s̄)^calls, is
            // Πₜ (1 − sₜ)^nₜ to first order in the shares (a Latest pick's newest takes ~10%).
            Shares::Each(_) | Shares::One | Shares::Recent { .. } => {
                out.exact = out.exact && shares[i] >= 1.0;
                out.var += totals[i] * shares[i] * (1.0 - shares[i]);
                out.count += totals[i] * shares[i];
                out.log_empty += log_missed(totals[i], shares[i]);
            }
        }
    }
    out
}

/// The spread of the items a partition kept of `count` writes of variance `var`: writes that
/// replaced another leave no item, so the items kept are the writes thinned to the share
/// kept, and their variance is thinned alike (a thinned Binomial's, for few writes a key).
/// A partition of `one_key` (no sort key) holds its item or not: a Bernoulli count, however
/// many writes reached it.
fn kept_sd(var: f64, kept: f64, count: f64, one_key: bool) -> f64 {
    if one_key {
        return (kept * (1.0 - kept).max(0.0)).sqrt();
    }
    let share = if count > 0.0 { (kept / count).min(1.0) } else { 1.0 };
    (var * share).sqrt()
}

fn preload_items(preload: Option<&BTreeMap<u64, super::model::Preloaded>>) -> f64 {
    preload.map_or(0.0, |p| p.values().map(|x| x.items).sum())
}

/// Calls k in `from..to` with k ≡ m (mod n): `Seq`'s exact count for member m.
pub fn seq_count(from: u64, to: u64, m: u64, n: u64) -> u64 {
    let upto = |x: u64| if x > m { (x - m - 1) / n + 1 } else { 0 };
    upto(to) - upto(from)
}

/// `calls × ln(1 − share)`: the log of the chance that none of `calls` calls, each landing
/// with `share`, landed. No calls: certain (0), even where a share of 1 makes the log −∞.
fn log_missed(calls: f64, share: f64) -> f64 {
    if calls <= 0.0 { 0.0 } else { calls * (-share).ln_1p() }
}

/// Expected distinct items of one partition whose sort key holds the write time (whole
/// seconds): only writes of one second can meet. With `V = 1 / collide` equally likely values
/// for the rest of the key, k writes of a second leave `V (1 − (1 − 1/V)^k)` distinct ones;
/// over Binomial k that is `V (1 − Π (1 − s·q)^c)` (calls c in the second, share s, per flow).
/// A tick's calls are spread over its seconds, the remainder on its first ones. (`pages`'s
/// `new_rows` counts a range's rows by this rule, but as a Poisson count of its expected puts
/// spread evenly: a range cuts ticks, so has no whole calls a second; equal as s·q → 0 only.)
fn kept_per_second(
    collide: f64,
    open: &BTreeMap<Vec<u64>, u64>,
    shares: &[f64],
    tick_secs: u64,
    pre: f64,
    count: f64,
) -> f64 {
    let q = collide;
    if q <= 0.0 || shares.iter().all(|&s| s <= 0.0) {
        return pre + count;
    }
    let v = 1.0 / q;
    let mut kept = 0.0;
    // A tick's seconds take one of at most `flows + 1` call counts (flow i's remainder r_i goes
    // to its first r_i seconds): each run of seconds with equal counts gets its term computed
    // once and added once per second, in order, so the sum is the one a term per second gives,
    // for a few `exp_m1` instead of one a second (a million members × 60 seconds × every
    // bucket, at Discord's scale).
    let mut ends: Vec<u64> = Vec::with_capacity(shares.len() + 1);
    for (calls, &ticks) in open {
        ends.clear();
        ends.extend(calls.iter().map(|c| c % tick_secs).filter(|&r| r > 0));
        ends.push(tick_secs);
        ends.sort_unstable();
        let mut tick = 0.0;
        let mut from = 0;
        for &to in &ends {
            if to <= from {
                continue;
            }
            let log: f64 = calls
                .iter()
                .zip(shares)
                .map(|(&c, &s)| log_missed((c / tick_secs + u64::from(from < c % tick_secs)) as f64, s * q))
                .sum();
            let term = -v * log.exp_m1();
            for _ in from..to {
                tick += term;
            }
            from = to;
        }
        kept += tick * ticks as f64;
    }
    pre + kept
}

/// Expected distinct items of one partition whose sort key does not hold the write time:
/// writes whose keys meet replace each other over the partition's whole life. `V = 1 /
/// collide` values; `seq` writes landed for certain (Seq), the drawn flows' calls each with
/// their share; `count` is every write's expectation. (`pages`'s `new_rows` counts a range's
/// rows by this rule, but as a Poisson count of its expected puts, e^(−w·q) where this takes
/// Π (1 − s·q)^c: equal as s·q → 0 only, so one function would move one report's figures.)
fn kept_over_life(
    collide: f64,
    open: &BTreeMap<Vec<u64>, u64>,
    drawn: &[f64],
    seq: f64,
    pre: f64,
    count: f64,
) -> f64 {
    let q = collide;
    if q <= 0.0 {
        return pre + count;
    }
    let v = 1.0 / q;
    let log: f64 = drawn
        .iter()
        .enumerate()
        .map(|(i, &s)| log_missed(open.iter().map(|(c, &t)| (c[i] * t) as f64).sum::<f64>(), s * q))
        .sum::<f64>()
        + log_missed(seq, q);
    (v - (v - pre).max(0.0) * log.exp()).max(pre)
}

/// Partitions kept whatever their size, the largest first: the report's top list.
const KEEP_TOP: usize = 8;

/// Drops partitions that can no longer be the largest, but for the `KEEP_TOP` largest.
pub(super) fn prune(parts: &mut Vec<Part>) {
    parts.sort_by(|a, b| (b.items.mean * b.bytes_per_item).total_cmp(&(a.items.mean * a.bytes_per_item)));
    let floor = parts.iter().map(|p| p.items.mean - KEEP_SD * p.items.sd).fold(f64::NEG_INFINITY, f64::max);
    let floor_bytes = parts
        .iter()
        .map(|p| (p.items.mean - KEEP_SD * p.items.sd) * p.bytes_per_item)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut rank = 0;
    parts.retain(|p| {
        rank += 1;
        rank <= KEEP_TOP
            || p.items.mean + KEEP_SD * p.items.sd + 1.0 >= floor
            || (p.items.mean + KEEP_SD * p.items.sd + 1.0) * p.bytes_per_item >= floor_bytes
    });
}

#[cfg(test)]
mod tests {
    use super::seq_count;

    #[test]
    fn seq_counts_the_calls_of_one_member() {
        // (from, to, member, n, calls of member in from..to)
        let cases = [
            (0, 10, 0, 5, 2),
            (0, 10, 4, 5, 2),
            (1, 10, 0, 5, 1),
            (0, 0, 0, 5, 0),
            (3, 4, 3, 5, 1),
            (0, 200, 7, 50, 4),
        ];
        for (from, to, m, n, want) in cases {
            assert_eq!(seq_count(from, to, m, n), want, "{from}..{to} of {m} mod {n}");
            let brute = (from..to).filter(|k| k % n == m).count() as u64;
            assert_eq!(brute, want);
        }
    }
}

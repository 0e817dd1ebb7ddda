//! Plain puts: a PutItem call whose item nothing but its own row hangs on, written in one pass.
//!
//! Most of a year's operations in a write-heavy scenario (`sensors`: 105 M of 115 M) are puts
//! of new items into a table of a store that neither meters nor checks them (Cassandra), with
//! no index, TTL, copy, embed, aggregate, condition, numbered attribute or Scan mark to keep
//! up. `write` takes each through every check those features need; this path does only what
//! such a put does — the same steps in the same order, so the run is the same to the bit
//! (`tests::plain_path`) — and skips the rest. Which patterns qualify is decided once, at
//! setup (`plain_patterns`); an observed replay never takes it (the observer is told each
//! write with its old item, which only the full path looks up).

use crate::engine::model::Action;
use crate::engine::planner::Operation;
use crate::engine::sim::Simulation;
use crate::engine::sim::latency;
use crate::engine::sim::meter::WRITE;
use crate::engine::sim::regen::BirthInfo;
use crate::engine::sim::table::Placed;
use crate::engine::sim::world::{Origin, World};

use super::Call;
use super::write::WriteStatus;

/// Per pattern, whether its calls are plain puts (see the module doc).
pub(in crate::engine::sim) fn plain_patterns(sim: &Simulation) -> Vec<bool> {
    let world = &sim.world;
    let profile = world.engine.profile();
    let store_plain = !profile.metered() && profile.blind_writes && sim.shards.is_none();
    world
        .patterns
        .iter()
        .map(|p| {
            store_plain
                && p.action == Action::Put
                && p.operation == Some(Operation::PutItem)
                && p.locate.is_none()
                && p.parts.is_empty()
                && p.aggregates.is_empty()
                && p.condition.is_none()
                && p.ttl_secs.is_none()
                && plain_entity(sim, world, p.entity)
        })
        .collect()
}

/// Whether an entity's new items keep nothing up but their own row: its table has no index
/// and no Scan marks, and the entity has no TTL, numbered attributes, copies or embedding.
fn plain_entity(sim: &Simulation, world: &World, entity: usize) -> bool {
    let ent = &world.entities[entity];
    let Some(t) = ent.table else { return false };
    sim.storage.tables[t].indexes.is_empty()
        && sim.upkeep.scan_marks[t].is_empty()
        && ent.added.ttl.is_none()
        && ent.numbered.is_empty()
        && ent.copies.is_empty()
        && !sim.upkeep.copies.iter().any(|c| c.to == entity)
        && sim.upkeep.embed_of(entity).is_none()
        && sim.upkeep.multikeys.is_empty()
}

impl Simulation {
    /// A plain put's first (and, on a store that never throttles, only) request: `write`'s
    /// steps for such a put, in its order.
    pub(super) fn plain_put(&mut self, call: Call) {
        let pattern = call.pattern;
        let entity = self.world.patterns[pattern].entity;
        let Some(t_idx) = self.world.entities[entity].table else { return };
        let origin = Origin::Pattern(u16::try_from(pattern).unwrap_or(u16::MAX));
        let ordinal = self.alloc_put(call, entity);
        self.scratch.located = None;
        let mut vals = std::mem::take(&mut self.scratch.vals);
        let birth = BirthInfo { origin, call: call.index, tick: call.tick, time_ms: call.time_ms };
        self.born_vals(entity, ordinal, birth, &mut vals);
        let figures = &mut self.figures.stats[pattern];
        figures.requests += 1;
        figures.fanout += 1;
        figures.max_fanout = figures.max_fanout.max(1);
        self.figures.totals.requests += 1;
        self.scratch.written = 0;
        self.scratch.transacted = 0;
        let mut bufs = self.scratch.write.take().unwrap_or_default();
        let status = if !self.place(entity, ordinal, &vals, &mut bufs.placed) {
            WriteStatus::Invalid
        } else if self.too_large(&bufs.placed) {
            WriteStatus::TooLarge
        } else {
            self.plain_landed(pattern, entity, t_idx, &bufs.placed);
            WriteStatus::Done
        };
        self.scratch.write = Some(bufs);
        self.scratch.vals = vals;
        let written = latency::write_extra_ms(self.world.engine.profile().latency, self.scratch.written);
        let ms = latency::WRITE_MS + written;
        if status != WriteStatus::Done {
            self.write_failed(pattern, status);
        }
        self.completed(call, None, ms);
    }

    /// The row written and its bookkeeping: `write_item`'s `landed` for a put nothing else
    /// hangs on, into a table nothing meters.
    fn plain_landed(&mut self, pattern: usize, entity: usize, t_idx: usize, placed: &Placed) {
        let mut touches = std::mem::take(&mut self.storage.touches);
        let applied = self.storage.tables[t_idx].write_plain(None, Some(placed), &mut touches);
        let touch = touches[0];
        self.storage.touches = touches;
        let totals = &mut self.figures.totals;
        totals.item_writes += 1;
        totals.base_writes += 1;
        let group = self.storage.group_of[t_idx][touch.group];
        self.touch(group, touch.partition, WRITE, 1.0, 0);
        if let Some((_, replicas, _)) = self.world.engine.profile().ring() {
            self.node_load(touch.hash, replicas, 0);
        }
        self.settle(group, touch.partition);
        let old = applied.replaced.map(|row| row.id);
        if let Some(h) = old
            && h != placed.id
        {
            self.items.overrides.remove(&h);
        }
        let totals = &mut self.figures.totals;
        totals.largest_item = totals.largest_item.max(placed.size);
        if old.is_some() {
            totals.rewrites += 1;
            totals.rewritten_bytes += u64::from(placed.size);
        }
        self.scratch.written += u64::from(placed.size);
        if !self.world.entities[entity].upsert && old.is_some_and(|h| h != placed.id) {
            self.figures.overwrote(Some(pattern));
        }
    }
}

//! Maintained aggregates as rates: each landed put of a pattern an aggregate is `on` brings one
//! UpdateItem of the aggregate item its values key (`upkeep`'s `aggregate`: a request of the
//! call's pattern, retried like any write when throttled), adding 1 (a count) or the put's
//! attribute (a sum) to it. Every aggregate of the pattern on one entity changes the same item
//! in the same request, so a put brings one update per aggregated entity.
//!
//! The fluid replay follows it as a write flow of the trigger's pattern onto the aggregated
//! entity's table: each member gets the put's share of the member its key attribute picks (an
//! aggregate item is as hot as its busiest trigger key, or hotter when many keys feed one), in
//! write units of the larger of the item's size before and after (DESIGN.md §4's UpdateItem).
//! The items it updates are preloaded ones, one per member, so items and bytes are the
//! preload's: the aggregated value's few bytes of growth are left out.
//!
//! An index whose sort key holds the value (practice-top-customers' total, the index sorted by
//! it) has the item's entry moved by each update: the store deletes the old entry and puts the
//! new one, on the index partition the item's other values give it (`add_moved_entries`). That
//! is a write flow onto the index of the trigger's pattern, each index partition the shares of
//! the members whose entries it holds, two entry writes a request; the index keeps its
//! preloaded entries, and a Query of it reads them.
//!
//! Refused by name: claims (a conditional put of a unique value), triggers other than a
//! PutItem, aggregated items that are not all preloaded (an update that creates one holds only
//! its keys and value, whose size grows with the count) or that puts or updates also write,
//! keys not made whole from the trigger's member, sharded or bucketed aggregate keys, and
//! index entries the update would rewrite in place (the value outside the index's sort key),
//! move to another partition (in the index's partition key) or make come or go (a sparse or
//! local index).

use crate::engine::model::Action;
use crate::engine::planner::Operation;

use super::super::items::{Val, field_size, number_size};
use super::super::regen::entry_bytes;
use super::super::templates::TemplatePlan;
use super::super::upkeep::{AggregatePlan, Fold};
use super::super::world::{BornStep, World};
use super::axes;
use super::model::{
    Flow, Model, SAMPLES, Shares, SortRepeats, Units, entry_plan, metered, popularity_of, preloaded_item,
    shares, spread,
};
use super::{FluidError, unsupported};

impl Model {
    /// The flows of every aggregate: one per trigger pattern and aggregated entity, as the
    /// per-operation replay sends one UpdateItem per landed put and aggregated item.
    pub fn add_aggregates(
        &mut self,
        world: &World,
        plans: &[AggregatePlan],
        (seed, start_secs): (u64, i64),
    ) -> Result<(), FluidError> {
        for (p, pattern) in world.patterns.iter().enumerate() {
            let mut entities: Vec<usize> = Vec::new();
            for &a in &pattern.aggregates {
                let Some(plan) = plans.get(a) else { continue };
                if entities.contains(&plan.entity) {
                    continue;
                }
                entities.push(plan.entity);
                self.add_aggregate(world, p, plan, (seed, start_secs))?;
            }
        }
        Ok(())
    }

    fn add_aggregate(
        &mut self,
        world: &World,
        p: usize,
        plan: &AggregatePlan,
        (seed, start_secs): (u64, i64),
    ) -> Result<(), FluidError> {
        let pattern = &world.patterns[p];
        let e = plan.entity;
        let ent = &world.entities[e];
        let place =
            format!("pattern {}, aggregate of {}.{}", pattern.name, ent.name, ent.attrs[plan.attr].name);
        if matches!(plan.fold, Fold::Claim(_)) {
            return Err(unsupported("aggregate claims (a conditional put of a unique value)", &place));
        }
        // A transaction writes its aggregates with its item (TransactWriteItems); an update's
        // aggregate depends on the item it updated.
        if pattern.action != Action::Put || pattern.operation != Some(Operation::PutItem) {
            return Err(unsupported("aggregates maintained by other writes than a PutItem", &place));
        }
        if world.patterns.iter().any(|q| q.entity == e && !q.action.is_read()) {
            return Err(unsupported(
                "an aggregate of items calls also write (the item holds what wrote it last)",
                &place,
            ));
        }
        // An update of the value moves an index entry whose sort key holds it: a delete and a
        // put on the partition the item's other values keep it in (`add_moved_entries`). An
        // entry it would rewrite in place, or move to another partition, is refused, and so is
        // a view's row or an index entry on a store that meters none (Cassandra's view updates
        // read the base row first: DESIGN.md; MongoDB's), which no run has held to the
        // per-operation replay.
        if ent.entries.iter().any(Option::is_some) && !metered(world) {
            return Err(unsupported(
                "an aggregate of items with view rows or index entries on a store that meters none (Cassandra's views, MongoDB's indexes)",
                &place,
            ));
        }
        for entry in ent.entries.iter().flatten() {
            let placed_by = entry.pk.as_ref().is_none_or(|pk| pk.attrs().any(|a| a == plan.attr));
            let sorted_by = entry.sk.as_ref().is_some_and(|sk| sk.attrs().any(|a| a == plan.attr));
            if entry.gate.is_some() || placed_by || !sorted_by {
                return Err(unsupported(
                    "an aggregate of items with index entries it rewrites in place, moves to another partition, or gates (a local or sparse index, or a value outside the index's sort key)",
                    &place,
                ));
            }
        }
        let Some(g) = self.groups.iter().position(|k| k.entity == e && !k.index) else {
            return Err(unsupported("an aggregate of an entity the fluid replay does not keep", &place));
        };
        let group = &self.groups[g];
        let one_item = !group.sort.per_second && group.sort.collide >= 1.0;
        let Some((member, pop)) = group
            .member
            .filter(|_| one_item && group.shards.is_none() && group.time.is_none() && group.axes.is_empty())
        else {
            return Err(unsupported(
                "an aggregate item not keyed by one member alone (a sort key that varies, a shard or a time slot)",
                &place,
            ));
        };
        // The item's key attributes all come from the trigger, the member's from an attribute
        // every put holds: a given or a pick of the same population.
        let keyed: Vec<usize> = ent.pk.iter().chain(&ent.sk).flat_map(TemplatePlan::attrs).collect();
        let from = |attr: usize| {
            plan.keys.iter().find(|&&(k, t, _)| k == attr && t == pattern.entity).map(|&(.., ta)| ta)
        };
        let trigger_attr = from(member).filter(|&ta| {
            pattern.givens.contains(&ta)
                || pattern.born.iter().any(|&(i, step)| i == ta && step == BornStep::Member(pop))
        });
        let Some(trigger_attr) = trigger_attr.filter(|_| keyed.iter().all(|&k| from(k).is_some())) else {
            return Err(unsupported(
                "an aggregate whose key is not the trigger's pick of the item's member",
                &place,
            ));
        };
        // Every member's item preloaded: each update finds its item and creates none.
        let preloaded = ent.identity.is_some_and(|(attr, q)| {
            attr == member && q == pop && world.pops[q].initial >= world.pops[q].size
        });
        if !preloaded {
            return Err(unsupported(
                "an aggregate of items not all preloaded (an update creates the item: its keys and value only)",
                &place,
            ));
        }
        // A Query or a Scan of the items reads what they hold, which the fluid replay takes for
        // every write landed (an update is not a new item there). A Query of an index whose
        // entries the updates move reads the preloaded entries (`Model::moved_flows`).
        let index_groups: Vec<usize> =
            ent.table.map_or(Vec::new(), |t| world.tables[t].indexes.iter().map(|i| i.group).collect());
        if let Some(q) = world.patterns.iter().find(|q| {
            q.read.as_ref().is_some_and(|r| match q.operation {
                Some(Operation::Query) => r.entities.contains(&e) && !index_groups.contains(&r.group),
                Some(Operation::Scan) => Some(r.table) == ent.table,
                _ => false,
            })
        }) {
            return Err(unsupported(
                &format!("a Query or Scan of aggregated items (pattern {})", q.name),
                &place,
            ));
        }
        let base = shares(world, popularity_of(world, pattern, trigger_attr, pop), pop, seed, &place)?;
        let shares = group.spread(base.clone(), false, &place)?;
        let (bytes, units) = update_units(world, e, plan.attr, (seed, start_secs), &place)?;
        // Updates of a key that holds an item are that item, on purpose: not overwrites.
        self.groups[g].upsert = true;
        self.aggregate_flows.push(self.flows.len());
        self.flows.push(Flow { pattern: p, group: g, write: true, shares, span_secs: None, bytes, units });
        let indexes: Vec<usize> =
            (0..self.groups.len()).filter(|&i| self.groups[i].entity == e && self.groups[i].index).collect();
        for i in indexes {
            self.add_moved_entries(world, (p, i), (&base, member), plan.attr, (seed, start_secs), &place)?;
        }
        Ok(())
    }

    /// The moves of aggregated items' entries in index key group `i`, as the per-operation
    /// replay's store makes them: each update of the value deletes the item's entry and puts the
    /// new one under the new sort key, on the index partition the item's other values give it —
    /// two entry writes, each of the write units of its entry (DESIGN.md §4). Each index
    /// partition gets the shares of the members whose entries it holds (the preloaded items'
    /// places, exactly); it keeps its preloaded entries, neither more nor fewer.
    pub(super) fn add_moved_entries(
        &mut self,
        world: &World,
        (pattern, i): (usize, usize),
        (base, member): (&Shares, usize),
        attr: usize,
        (seed, start_secs): (u64, i64),
        place: &str,
    ) -> Result<(), FluidError> {
        let group = &self.groups[i];
        let entity = group.entity;
        let ent = &world.entities[entity];
        if group.shards.is_some() || group.time.is_some() {
            return Err(unsupported("an index of aggregated items keyed by a shard or a time slot", place));
        }
        let Some((entry_index, _)) = entry_plan(world, group) else {
            return Err(unsupported("an index the fluid replay does not keep", place));
        };
        let count = ent.identity.map_or(0, |(_, q)| world.pops[q].initial);
        let stride = (count / SAMPLES).max(1);
        let sizing = world.engine.profile().sizing;
        let total = &ent.attrs[attr];
        let widest = sizing.field(total.name.len(), number_size(i64::MAX));
        let mut shares = vec![0.0; usize::try_from(group.members).unwrap_or(0)];
        let (mut vals, mut grown) = (vec![Val::Absent; ent.attrs.len()], Vec::new());
        let mut text = String::new();
        let (mut sizes, mut moved) = (Vec::new(), Vec::new());
        for ordinal in 0..count {
            let size = preloaded_item(world, entity, ordinal, (seed, start_secs), &mut vals, &mut text);
            // The member's entry, wherever its item's key values put it.
            let Val::Member(picked) = vals[member] else { continue };
            let at = group.member.map_or(0, |(key_attr, _)| match vals[key_attr] {
                Val::Member(number) => number,
                _ => u64::MAX,
            });
            let slot = axes::place(&group.axes, at, &vals)
                .and_then(|v| usize::try_from(v).ok())
                .and_then(|v| shares.get_mut(v))
                .ok_or_else(|| unsupported("an index entry the fluid replay cannot place", place))?;
            *slot += base.of(usize::try_from(picked).unwrap_or(usize::MAX));
            if ordinal % stride != 0 || sizes.len() as u64 >= SAMPLES {
                continue;
            }
            let Some(entry) = entry_bytes(world, entity, entry_index, &vals, size, &mut text) else {
                continue;
            };
            // The value may grow to the largest number's bytes (`update_units`).
            let held = if vals[attr] == Val::Absent {
                0
            } else {
                field_size(sizing, total, vals[attr], &world.pops)
            };
            grown.clone_from(&vals);
            grown[attr] = Val::Num(i64::MAX);
            let after =
                entry_bytes(world, entity, entry_index, &grown, size - held + widest.max(held), &mut text);
            sizes.push(entry);
            moved.push(after.unwrap_or(entry).max(entry));
        }
        let (bytes, _, smallest) = spread(&sizes);
        let (_, largest, _) = spread(&moved);
        let units = if metered(world) {
            let metering = world.engine.profile().metering;
            // A delete of the entry it held and a put of the one it leaves.
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "sizes in bytes")]
            let one =
                |size: f64| metering.write(Some(size as u64), None) + metering.write(None, Some(size as u64));
            let (most, least) = (one(largest), one(smallest));
            if (most - least).abs() > 1e-9 {
                return Err(unsupported(
                    &format!("moved index entries that fall in different write units ({least} to {most})"),
                    place,
                ));
            }
            most
        } else {
            0.0
        };
        // Its only writes move the preloaded entries (the aggregate refuses items calls write):
        // every written partition keeps the one count it was preloaded with, as if each write
        // met a held key, and none is an overwrite.
        let group = &mut self.groups[i];
        group.sort = SortRepeats { per_second: false, collide: 1.0, skew: super::model::Skew::None };
        group.upsert = true;
        self.moved_flows.push(self.flows.len());
        self.flows.push(Flow {
            pattern,
            group: i,
            write: true,
            shares: Shares::Each(shares.into()),
            span_secs: None,
            bytes,
            units: Units::Each(units),
        });
        Ok(())
    }
}

/// The mean size of entity `e`'s preloaded items, sampled, and the write units an update of
/// attribute `attr` of one costs: those of the larger of its size before and after (DESIGN.md
/// §4), where the value may take up to the largest number's bytes (`number_size`) — the same
/// for every sampled item, or refused.
pub(super) fn update_units(
    world: &World,
    e: usize,
    attr: usize,
    (seed, start_secs): (u64, i64),
    place: &str,
) -> Result<(f64, Units), FluidError> {
    let ent = &world.entities[e];
    let count = ent.identity.map_or(0, |(_, q)| world.pops[q].initial);
    let stride = (count / SAMPLES).max(1);
    let sizing = world.engine.profile().sizing;
    let a = &ent.attrs[attr];
    let widest = sizing.field(a.name.len(), number_size(i64::MAX));
    let mut vals = vec![Val::Absent; ent.attrs.len()];
    let mut text = String::new();
    let (mut sizes, mut grown) = (Vec::new(), Vec::new());
    for ordinal in (0..count)
        .step_by(usize::try_from(stride).unwrap_or(usize::MAX))
        .take(usize::try_from(SAMPLES).unwrap_or(usize::MAX))
    {
        let size = preloaded_item(world, e, ordinal, (seed, start_secs), &mut vals, &mut text);
        let held = if vals[attr] == Val::Absent { 0 } else { field_size(sizing, a, vals[attr], &world.pops) };
        sizes.push(size);
        grown.push(size - held + widest.max(held));
    }
    let (bytes, _, smallest) = spread(&sizes);
    let (_, largest, _) = spread(&grown);
    if !metered(world) {
        return Ok((bytes, Units::Each(0.0)));
    }
    let metering = world.engine.profile().metering;
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "sizes in bytes")]
    let (most, least) = (
        metering.write(Some(largest as u64), Some(largest as u64)),
        metering.write(Some(smallest as u64), Some(smallest as u64)),
    );
    if (most - least).abs() > 1e-9 {
        return Err(unsupported(
            &format!("aggregate updates whose items fall in different write units ({least} to {most})"),
            place,
        ));
    }
    Ok((bytes, Units::Each(most)))
}

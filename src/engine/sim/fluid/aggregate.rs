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
//! Refused by name: claims (a conditional put of a unique value), triggers other than a
//! PutItem, aggregated items that are not all preloaded (an update that creates one holds only
//! its keys and value, whose size grows with the count) or that puts or updates also write,
//! keys not made whole from the trigger's member, sharded or bucketed aggregate keys, and items
//! with index entries (each update of the value moves or rewrites them).

use crate::engine::model::Action;
use crate::engine::planner::Operation;

use super::super::items::{Val, field_size, number_size};
use super::super::templates::TemplatePlan;
use super::super::upkeep::{AggregatePlan, Fold};
use super::super::world::{BornStep, World};
use super::model::{Flow, Model, SAMPLES, Units, metered, popularity_of, preloaded_item, shares, spread};
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
        if ent.entries.iter().any(Option::is_some) {
            return Err(unsupported(
                "an aggregate of items with index entries (each update of the value moves or rewrites them)",
                &place,
            ));
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
        // every write landed (an update is not a new item there).
        if let Some(q) = world.patterns.iter().find(|q| {
            q.read.as_ref().is_some_and(|r| match q.operation {
                Some(Operation::Query) => r.entities.contains(&e),
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
        let shares = group.spread(base, false, &place)?;
        let (bytes, units) = update_units(world, e, plan.attr, (seed, start_secs), &place)?;
        // Updates of a key that holds an item are that item, on purpose: not overwrites.
        self.groups[g].upsert = true;
        self.aggregate_flows.push(self.flows.len());
        self.flows.push(Flow { pattern: p, group: g, write: true, shares, span_secs: None, bytes, units });
        Ok(())
    }
}

/// The mean size of entity `e`'s preloaded items, sampled, and the write units an update of
/// attribute `attr` of one costs: those of the larger of its size before and after (DESIGN.md
/// §4), where the value may take up to the largest number's bytes (`number_size`) — the same
/// for every sampled item, or refused.
fn update_units(
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

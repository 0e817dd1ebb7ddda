//! Updates that move their item's index entries, as rates: an UpdateItem that sets an attribute
//! of an index's sort key (leaderboard's game end, setting the score its board's index is
//! sorted by) makes the store delete the item's entry and put the new one (`store::index`), two
//! entry writes, each of the entry's write units (DESIGN.md §4). The per-operation replay names
//! the item by its identity (`exec::write`'s `named_row`): member `m` of the population is the
//! preloaded item of ordinal `m`.
//!
//! The fluid replay follows it as an aggregate's update of an indexed value (`aggregate`): a
//! write flow onto the table, each member the update's pick share, in write units of the larger
//! of the item's size before and after, whose items and bytes are the preload's (the fresh
//! draws of its `sets` are the generators the preload drew from); and a moved-entry flow onto
//! each index (`Model::add_moved_entries`), each index partition the shares of the members whose
//! preloaded entries it holds, two entry writes a request, the index keeping its entries.
//!
//! Refused by name: off a metered store (a view's row moved), items not all preloaded or not
//! named by their identity (an update that creates one holds only its keys and sets), a table
//! key other than the member alone, a Query or Scan of the items (it would count the updates as
//! new items), an entry the update moves to another partition (its partition key holds a set
//! attribute), an index whose entry it does not move (rewritten in place when it projects what
//! the update sets) or that projects another set attribute, a gated (sparse) or local index,
//! and a moved sort-key attribute other than one number.

use crate::engine::model::AttrType;
use crate::engine::planner::Operation;

use super::super::templates::TemplatePlan;
use super::super::world::{EntryPlan, PatternRt, Projected, World};
use super::model::{Flow, Model, Units, metered, popularity_of, shares, spread, write_samples};
use super::{FluidError, unsupported};

impl Model {
    /// The flows of update `p`, which sets an attribute of an index entry's key: onto the table
    /// (the preloaded item its identity names) and onto each index (the entry moved).
    pub(super) fn add_moving_update(
        &mut self,
        world: &World,
        p: usize,
        pattern: &PatternRt,
        (seed, start_secs): (u64, i64),
        place: &str,
    ) -> Result<(), FluidError> {
        let entity = pattern.entity;
        let (what, attr) = moved_attr(world, pattern, place)?;
        let (g, (identity, pop)) = self.named_item(world, pattern, &what, place)?;
        let base = shares(world, popularity_of(world, pattern, identity, pop), pop, seed, place)?;
        let table_shares = self.groups[g].spread(base.clone(), false, place)?;
        // Write units of the larger of the item before (preloaded, its value widened to the
        // largest number's bytes) and after (fresh draws of the sets): one unit for all, or refused.
        let (bytes, units) = super::aggregate::update_units(world, entity, attr, (seed, start_secs), place)?;
        let Units::Each(each) = units else {
            return Err(unsupported("an update whose units depend on what it reads", place));
        };
        let (after, _) = write_samples(world, pattern, seed, start_secs);
        let (_, largest, smallest) = spread(&after);
        let metering = world.engine.profile().metering;
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "sizes in bytes")]
        let range = (
            metering.write(Some(smallest as u64), Some(smallest as u64)).min(each),
            metering.write(Some(largest as u64), Some(largest as u64)).max(each),
        );
        if (range.1 - range.0).abs() > 1e-9 {
            return Err(unsupported(
                &format!("updates whose items fall in different write units ({} to {})", range.0, range.1),
                place,
            ));
        }
        self.largest = self.largest.max(largest);
        self.smallest = self.smallest.min(smallest);
        // An update of a key that holds an item is that item, on purpose: not an overwrite.
        self.groups[g].upsert = true;
        self.flows.push(Flow {
            pattern: p,
            group: g,
            write: true,
            shares: table_shares,
            span_secs: None,
            bytes,
            units,
        });
        let indexes: Vec<usize> = (0..self.groups.len())
            .filter(|&i| self.groups[i].entity == entity && self.groups[i].index)
            .collect();
        for i in indexes {
            self.add_moved_entries(world, (p, i), (&base, identity), attr, (seed, start_secs), place)?;
        }
        Ok(())
    }

    /// The table's key group of the item a moving update names, and the item's identity
    /// (attribute, population): a preloaded item, named by its identity, keyed by it alone, and
    /// read by no Query or Scan of the table (the fluid replay takes every write landed there
    /// for a new item; the updates write none).
    fn named_item(
        &self,
        world: &World,
        pattern: &PatternRt,
        what: &str,
        place: &str,
    ) -> Result<(usize, (usize, usize)), FluidError> {
        let entity = pattern.entity;
        let ent = &world.entities[entity];
        // The item is the preloaded one its identity names: every member preloaded, none added.
        let Some((identity, pop)) = ent.identity.filter(|&(attr, _)| pattern.givens.contains(&attr)) else {
            return Err(unsupported(&format!("{what}, of an item not named by its identity"), place));
        };
        if world.pops[pop].initial < world.pops[pop].size || world.pops[pop].growth_per_day > 0.0 {
            return Err(unsupported(
                &format!(
                    "{what}, of items not all preloaded (an update creates the item: its keys and sets only)"
                ),
                place,
            ));
        }
        let Some(g) = self.groups.iter().position(|k| k.entity == entity && !k.index) else {
            return Err(unsupported("an update of an entity the fluid replay does not keep", place));
        };
        let group = &self.groups[g];
        let one_item = !group.sort.per_second && group.sort.collide >= 1.0;
        if !one_item
            || group.member.is_none_or(|(attr, _)| attr != identity)
            || group.shards.is_some()
            || group.time.is_some()
            || !group.axes.is_empty()
        {
            return Err(unsupported(
                &format!(
                    "{what}, of an item not keyed by its identity alone (a sort key that varies, a shard, a time slot or another attribute)"
                ),
                place,
            ));
        }
        let table_group = group.group;
        if let Some(q) = world.patterns.iter().find(|q| {
            q.read.as_ref().is_some_and(|r| match q.operation {
                Some(Operation::Query) => r.entities.contains(&entity) && r.group == table_group,
                Some(Operation::Scan) => Some(r.table) == ent.table,
                _ => false,
            })
        }) {
            return Err(unsupported(
                &format!("{what}, of items a Query or Scan of the table reads (pattern {})", q.name),
                place,
            ));
        }
        Ok((g, (identity, pop)))
    }
}

/// The attribute update `pattern` sets that an index entry's key holds (the first entry's, in
/// the order of its sets), if any: what makes it move that entry.
pub(super) fn moving_attr(world: &World, pattern: &PatternRt) -> Option<usize> {
    let ent = &world.entities[pattern.entity];
    ent.entries
        .iter()
        .flatten()
        .find_map(|plan| pattern.sets.iter().copied().find(|&a| key_attrs(plan).any(|k| k == a)))
}

/// The attributes an index entry's key (partition and sort) holds.
fn key_attrs(plan: &EntryPlan) -> impl Iterator<Item = usize> + '_ {
    plan.pk.iter().chain(&plan.sk).flat_map(TemplatePlan::attrs)
}

/// What a moving update is named by (the attribute it sets that an entry's key holds), and the
/// one number attribute it moves every entry by: each entry moves within its partition and
/// holds nothing else the update sets, so its size after the move is its size before with the
/// new sort-key value (`add_moved_entries` bounds that value by the widest number).
fn moved_attr(world: &World, pattern: &PatternRt, place: &str) -> Result<(String, usize), FluidError> {
    let ent = &world.entities[pattern.entity];
    let Some(named) = moving_attr(world, pattern).map(|a| &ent.attrs[a]) else {
        return Err(unsupported("an update that moves no index entry", place));
    };
    // Named first: it is what such a run is about, and all a store without units can say.
    let what = format!(
        "an update that sets {}, an index key attribute (the entry moves: a delete and a put, two entry writes)",
        named.name
    );
    if !metered(world) {
        return Err(unsupported(
            &format!("{what}, on a store that meters none (a Cassandra view's row, a MongoDB index's entry)"),
            place,
        ));
    }
    let mut moved = None;
    for plan in ent.entries.iter().flatten() {
        let placed_by = plan.pk.as_ref().is_none_or(|pk| pk.attrs().any(|a| pattern.sets.contains(&a)));
        let sorted_by: Vec<usize> =
            plan.sk.iter().flat_map(TemplatePlan::attrs).filter(|a| pattern.sets.contains(a)).collect();
        let key: Vec<usize> = key_attrs(plan).collect();
        let projects = |a: usize| match &plan.projected {
            Projected::All => true,
            Projected::KeysOnly => false,
            Projected::Attrs(attrs) => attrs.contains(&a),
        };
        let rewritten = pattern.sets.iter().any(|&a| !key.contains(&a) && projects(a));
        if plan.gate.is_some() || placed_by || sorted_by.is_empty() || rewritten {
            return Err(unsupported(
                &format!(
                    "{what}, with index entries it rewrites in place, moves to another partition, or gates (a local or sparse index, an entry keyed or projecting another set attribute)"
                ),
                place,
            ));
        }
        match (sorted_by.as_slice(), moved) {
            ([attr], None) => moved = Some(*attr),
            ([attr], Some(before)) if *attr == before => {}
            _ => return Err(unsupported(&format!("{what}, of more than one sort-key attribute"), place)),
        }
    }
    match moved {
        Some(attr) if ent.attrs[attr].ty == AttrType::N => Ok((what, attr)),
        Some(_) => Err(unsupported(&format!("{what}, of a sort-key attribute other than a number"), place)),
        None => Err(unsupported(&what, place)),
    }
}

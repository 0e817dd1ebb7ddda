//! A write in a transaction: the call's own item (or, for an update that moves it, its delete
//! and its put) and the aggregate items it maintains go in one transaction, all or nothing —
//! DynamoDB's TransactWriteItems, MongoDB's multi-document transaction — held to the store's
//! limits ([`crate::engine::profile::transactions`]).
//!
//! DynamoDB writes every item of a transaction twice, once to prepare it and once to commit it
//! (AWS developer guide, "Amazon DynamoDB Transactions: How it works", capacity management). So
//! the transaction goes through only when every table partition it touches has room for twice
//! its items' write units; otherwise it is cancelled (throttled), nothing is charged and the
//! client retries it whole. When it goes through, the prepare is charged, then each item is
//! written as any write is (its GSI entries propagate after the commit, charged once). A
//! create-once condition that fails (the call's own, or a claim it takes) cancels it before
//! anything is written: the item whose condition failed is charged as a failed conditional
//! write, the others nothing — keyheat's reading, since AWS does not say what a cancelled
//! transaction consumes. Only a GSI too far behind to queue an entry can refuse a committed
//! item; keyheat then retries that item alone. MongoDB meters nothing to prepare: its
//! transaction writes each document once and commits them together, with no limit on their
//! total size since 4.2 and no rule against writing one document twice.

use crate::engine::model::Action;
use crate::engine::sim::Simulation;
use crate::engine::sim::items::Val;
use crate::engine::sim::meter::WRITE;
use crate::engine::sim::table::{PartKey, Placed};
use crate::engine::sim::upkeep::AggregateItem;
use crate::engine::sim::world::CondRt;
use crate::engine::store::failed_write_units;

use super::Call;
use super::write::{ItemWrite, Target, WriteStatus};

/// What the call writes: the pattern, its item and values, and how.
pub(super) struct Transaction<'a> {
    pub call: Call,
    pub entity: usize,
    pub target: &'a Target,
    pub vals: &'a [Val],
    pub now_ms: u64,
    pub first: bool,
    /// The update sets a key attribute: a delete at the old key and a put at the new one.
    pub moves: bool,
}

impl Simulation {
    /// Writes the call's transaction: its items placed and checked (conditions, size, room for
    /// the prepare and the commit), the prepare charged, then each item committed.
    pub(super) fn transact(&mut self, tx: &Transaction<'_>) -> WriteStatus {
        let pattern = tx.call.pattern;
        let action = self.world.patterns[pattern].action;
        let Some(t_idx) = self.world.entities[tx.entity].table else { return WriteStatus::Invalid };
        let mut own = Placed::default();
        if !self.place(tx.entity, tx.target.ordinal, tx.vals, &mut own) {
            return WriteStatus::Invalid;
        }
        let stored = self.storage.tables[t_idx].current(&own).map(|row| (row.id, row.size));
        if self.world.patterns[pattern].condition == Some(CondRt::NotExists)
            && let Some((id, size)) = stored
            && id != own.id
        {
            return self.condition_failed(t_idx, &own.pk, (size, own.size), Some(pattern), tx.first);
        }
        let mut actions = self.own_actions(tx, action, t_idx, own, stored.map(|(_, size)| size));
        let aggregates = if action == Action::Delete {
            Vec::new()
        } else {
            match self.aggregate_actions(tx, &mut actions) {
                Ok(aggregates) => aggregates,
                Err(cancelled) => return cancelled,
            }
        };
        if let Some(refused) = self.refused_transaction(&actions, tx.first) {
            return refused;
        }
        self.scratch.transacted = actions.len();
        // The prepare: every item once, which the check above left room for.
        for (table, placed, units) in &actions {
            self.charge_unchanged(*table, &placed.pk, WRITE, *units, Some(pattern), tx.first);
        }
        let status = self.commit_own(tx, action);
        if status == WriteStatus::Done {
            for (a, item) in &aggregates {
                self.write_aggregate(*a, item, tx.call, (tx.target.ordinal, true), None);
            }
        }
        status
    }

    /// The call's own items as (table, item placed, write units): the delete at its old key
    /// when it moves, then its write at `own`, `stored` bytes being held there now. Each
    /// item's units are those of the larger of the item before and after (a delete: before).
    fn own_actions(
        &self,
        tx: &Transaction<'_>,
        action: Action,
        t_idx: usize,
        own: Placed,
        stored: Option<u32>,
    ) -> Vec<(usize, Placed, f64)> {
        let mut actions: Vec<(usize, Placed, f64)> = Vec::new();
        if tx.moves {
            let mut old_vals = Vec::new();
            self.current_vals(tx.entity, tx.target.ordinal, &mut old_vals);
            let mut old = Placed::default();
            if self.place(tx.entity, tx.target.ordinal, &old_vals, &mut old) {
                let units = failed_write_units(u64::from(old.size), 0);
                actions.push((t_idx, old, units));
            }
        }
        let own_units = match action {
            Action::Delete => failed_write_units(u64::from(stored.unwrap_or(0)), 0),
            _ if tx.moves => failed_write_units(0, u64::from(own.size)),
            _ => failed_write_units(u64::from(stored.unwrap_or(0)), u64::from(own.size)),
        };
        actions.push((t_idx, own, own_units));
        actions
    }

    /// The aggregate items the call maintains, one per aggregated entity, added to `actions`
    /// with their write units. `Err` when a claim among them is taken: that cancels the
    /// transaction as a failed create-once put does.
    fn aggregate_actions(
        &mut self,
        tx: &Transaction<'_>,
        actions: &mut Vec<(usize, Placed, f64)>,
    ) -> Result<Vec<(usize, AggregateItem)>, WriteStatus> {
        let pattern = tx.call.pattern;
        let mut aggregates: Vec<(usize, AggregateItem)> = Vec::new();
        for a in self.world.patterns[pattern].aggregates.clone() {
            let entity = self.upkeep.aggregates[a].entity;
            if aggregates.iter().any(|(_, item)| item.entity == entity) {
                continue;
            }
            let Some(item) = self.aggregate_item(a, tx.entity, tx.vals, pattern) else { continue };
            let mut placed = Placed::default();
            let Some(table) = self.world.entities[item.entity].table else { continue };
            if !self.place(item.entity, item.ordinal, &item.current, &mut placed) {
                continue;
            }
            if let Some(stored) = item.taken {
                return Err(self.condition_failed(
                    table,
                    &placed.pk,
                    (stored, placed.size),
                    Some(pattern),
                    tx.first,
                ));
            }
            let before = self.storage.tables[table].current(&placed).map_or(0, |row| row.size);
            let units = failed_write_units(u64::from(before), u64::from(placed.size));
            actions.push((table, placed, units));
            aggregates.push((a, item));
        }
        Ok(aggregates)
    }

    /// Why the store refuses the transaction before preparing it, if it does: past its limits
    /// (on DynamoDB two of its items at one key, more than 100 items or 4 MB of them), or a
    /// table partition without room for its items twice (prepare and commit) — which cancels
    /// it as throttled, charged nothing. MongoDB has none of these limits, and meters nothing.
    fn refused_transaction(&mut self, actions: &[(usize, Placed, f64)], first: bool) -> Option<WriteStatus> {
        let Some(limits) = self.world.engine.profile().transactions else {
            return Some(WriteStatus::Invalid);
        };
        let same_key = limits.distinct_items
            && actions.iter().enumerate().any(|(i, (t, a, _))| {
                actions[..i].iter().any(|(u, b, _)| {
                    t == u && a.pk.hash == b.pk.hash && a.pk.text == b.pk.text && a.sk == b.sk
                })
            });
        if same_key {
            return Some(WriteStatus::Invalid);
        }
        let items = u32::try_from(actions.len()).unwrap_or(u32::MAX);
        if limits.too_large(actions.iter().map(|(_, p, _)| u64::from(p.size)).sum())
            || limits.too_many(items).is_some()
        {
            return Some(WriteStatus::TooLarge);
        }
        let tick = self.pacing.tick;
        let mut groups: Vec<usize> = actions.iter().map(|(t, ..)| self.storage.group_of[*t][0]).collect();
        groups.sort_unstable();
        groups.dedup();
        for group in groups {
            let metered_by = self.storage.groups[group].metered_by;
            let Some(meter) = self.storage.groups[metered_by].meter.as_mut() else { continue };
            let touches: Vec<(usize, f64)> = actions
                .iter()
                .filter(|(t, ..)| self.storage.group_of[*t][0] == group)
                .map(|(_, placed, units)| (meter.locate(placed.pk.hash), 2.0 * units))
                .collect();
            if let Err(refusal) = meter.check(tick, WRITE, &touches) {
                let keys: Vec<&PartKey> = actions
                    .iter()
                    .filter(|(t, ..)| self.storage.group_of[*t][0] == group)
                    .map(|(_, placed, _)| &placed.pk)
                    .collect();
                self.refused(group, refusal, keys, first);
                return Some(WriteStatus::Throttled);
            }
        }
        None
    }

    /// The commit of the call's own item: its write, or its delete and its put when it moves.
    fn commit_own(&mut self, tx: &Transaction<'_>, action: Action) -> WriteStatus {
        let pattern = tx.call.pattern;
        let write = ItemWrite {
            entity: tx.entity,
            ordinal: tx.target.ordinal,
            vals: (action != Action::Delete).then_some(tx.vals),
            changes: &tx.target.changes,
            pattern: Some(pattern),
            caller: Some(pattern),
            now_ms: tx.now_ms,
            first: tx.first,
            new_item: action == Action::Put && !self.world.entities[tx.entity].upsert,
            moved: false,
            condition: None,
        };
        if !tx.moves {
            return self.write_item(write);
        }
        let handle = self.world.handle(tx.entity, tx.target.ordinal);
        let changes = self.items.with_changes(handle, &tx.target.changes);
        let status = self.write_item(ItemWrite { vals: None, changes: &[], new_item: false, ..write });
        if status != WriteStatus::Done {
            return status;
        }
        self.write_item(ItemWrite { changes: &changes, new_item: false, moved: true, ..write })
    }
}

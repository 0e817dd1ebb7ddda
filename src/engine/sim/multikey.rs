//! Multikey indexes (MongoDB): an index on a field of the children a parent embeds whole holds
//! one entry per distinct value of that field in each parent's list, each pointing at the
//! parent's document (MongoDB manual, "Multikey Indexes": "MongoDB creates an index key for each
//! unique element in the array … If an array contains multiple instances of the same value, the
//! index only includes one entry").
//!
//! So an append writes one entry when its child brings a value the list did not hold yet, and
//! none when another child in the list already gave it; the index grows with the lists'
//! elements, not with the documents. A read through the index finds parents: it fetches each
//! whole document that holds a matching child (`ReadPlan::entities` ends with the parent). A
//! parent deleted, expired or replaced at its key takes its entries with it.

use std::collections::HashMap;

use super::Simulation;
use super::embed::Embedded;
use super::items::Val;
use super::table::{Entry, EntryOp, Placed};
use super::world::World;

/// One multikey index over one embed's lists.
#[derive(Debug, Clone)]
pub(super) struct Multikey {
    /// The embed whose lists it keys (position in `Upkeep::embeds`).
    pub embed: usize,
    /// The parent's table, and the index's position among its indexes.
    pub table: usize,
    pub index: usize,
    /// By parent, then entry position (partition key text, then the entry's key): the entry
    /// and how many children in that parent's list give it.
    entries: HashMap<u32, HashMap<Vec<u8>, (Entry, u32)>>,
}

/// The multikey indexes over the variant's embeds: each index of a parent's table in which the
/// embedded child has a place (`world::EntityRt::host`).
pub(super) fn compile(world: &World, embeds: &[Embedded]) -> Vec<Multikey> {
    let mut out = Vec::new();
    for (e, embedded) in embeds.iter().enumerate() {
        let child = &world.entities[embedded.plan.child];
        let Some((table, _)) = child.host else { continue };
        for (index, plan) in child.entries.iter().enumerate() {
            if plan.is_some() {
                out.push(Multikey { embed: e, table, index, entries: HashMap::new() });
            }
        }
    }
    out
}

/// Where an entry sits, as the refcount map names it.
fn position(entry: &Entry) -> Vec<u8> {
    let mut key = Vec::with_capacity(entry.pk.text.len() + 1 + entry.key.len());
    key.extend_from_slice(&entry.pk.text);
    key.push(0);
    key.extend_from_slice(&entry.key);
    key
}

impl Simulation {
    /// Child `ordinal` (values `vals`) has just been appended, by embed `e`, to the list of
    /// parent `parent`, placed at `placed`: its entry in each multikey index over that list —
    /// written when no other child in the list gives the same key (one entry write, loading the
    /// index partition it lands in), else counted as one more child behind it.
    pub(super) fn index_element(
        &mut self,
        e: usize,
        ordinal: u32,
        vals: &[Val],
        parent: u32,
        placed: &Placed,
    ) {
        let child = self.upkeep.embeds[e].plan.child;
        let handle = self.world.handle(self.upkeep.embeds[e].plan.parent, parent);
        for m in 0..self.upkeep.multikeys.len() {
            let Multikey { embed, table, index, .. } = self.upkeep.multikeys[m];
            if embed != e {
                continue;
            }
            let Some(entry) = self.element_entry((child, ordinal), vals, (table, index), placed) else {
                continue;
            };
            let list = self.upkeep.multikeys[m].entries.entry(parent).or_default();
            let slot = list.entry(position(&entry)).or_insert((entry, 0));
            slot.1 += 1;
            if slot.1 > 1 {
                continue;
            }
            let op = EntryOp::Put { entry: slot.0.clone(), id: handle };
            self.apply_entry(table, index, &op, true);
        }
    }

    /// Parent `handle`'s document is gone — deleted (`charged`: by a call, whose entry writes
    /// these are), expired, or replaced by a new document at its key — so its entries in every
    /// multikey index over its lists go with it.
    pub(super) fn unindex_parent(&mut self, handle: u32, charged: bool) {
        let (entity, parent) = (self.world.entity_of(handle), self.world.ordinal_of(handle));
        for m in 0..self.upkeep.multikeys.len() {
            let Multikey { embed, table, index, .. } = self.upkeep.multikeys[m];
            if self.upkeep.embeds[embed].plan.parent != entity {
                continue;
            }
            let Some(list) = self.upkeep.multikeys[m].entries.remove(&parent) else { continue };
            // In position order: the same removals, in the same order, every run.
            let mut gone: Vec<(Vec<u8>, Entry)> =
                list.into_iter().map(|(k, (entry, _))| (k, entry)).collect();
            gone.sort_by(|a, b| a.0.cmp(&b.0));
            for (_, entry) in gone {
                self.apply_entry(table, index, &EntryOp::Remove { entry }, charged);
            }
        }
    }

    /// Applies one entry change to index `index` of table `table`; `charged`: an entry write of
    /// a call (counted and loaded), else free (a TTL delete's).
    fn apply_entry(&mut self, table: usize, index: usize, op: &EntryOp, charged: bool) {
        let partition = self.storage.tables[table].apply(index, op);
        let group = self.storage.group_of[table][index + 1];
        if charged {
            self.figures.totals.entry_writes += 1;
            self.storage.groups[group].entry_writes += 1;
            self.touch(group, partition, super::meter::WRITE, 1.0, 0);
        }
        self.settle(group, partition);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sim::table::PartKey;
    use crate::engine::value::KeyType;

    /// Two entries are one key only when both their partition and their position agree.
    #[test]
    fn an_entry_is_named_by_its_partition_and_its_position() {
        let entry = |pk: &str, key: &[u8]| Entry {
            pk: PartKey::new(KeyType::S, pk.as_bytes()),
            key: key.to_vec(),
            size: 20,
            digest: 0,
        };
        // (first, second, same key)
        let cases = [
            (entry("cust-1", b"p1"), entry("cust-1", b"p1"), true),
            (entry("cust-1", b"p1"), entry("cust-2", b"p1"), false),
            (entry("cust-1", b"p1"), entry("cust-1", b"p2"), false),
            // The separator keeps "ab"+"c" apart from "a"+"bc".
            (entry("ab", b"c"), entry("a", b"bc"), false),
        ];
        for (a, b, same) in cases {
            assert_eq!(position(&a) == position(&b), same, "{a:?} vs {b:?}");
        }
    }
}

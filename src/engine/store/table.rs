//! One table: its partitions, its indexes and the bookkeeping every write goes through.
//!
//! Partitions are keyed by (hash of the partition key value, value), so iterating them is a Scan
//! in hash order; inside a partition items are ordered by sort key. Each item is stored with its
//! size, computed once on write. Every partition keeps its item count and bytes, for the table
//! and for each index, so the simulator reads them without walking items.
//!
//! `write` is the single path that changes items: it charges the write, keeps the indexes in
//! step (LSIs at once, GSIs after the table's index lag), enforces the item-collection limit of
//! tables with LSIs, and schedules TTL expiry.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::time::{SimDuration, SimTime};
use crate::engine::value::{Item, KeyValue};

use super::capacity::{ConsumedCapacity, EntryWrite, INDEX_ENTRY_OVERHEAD, Target, write_units};
use super::error::StoreError;
use super::index::{Index, Placement};
use super::key::{PartitionId, PrimaryKey};
use super::schema::{IndexKind, TableSpec};
use super::ttl::Ttl;

/// An item and its size in bytes (at most 409,600, so `u32`). Shared by the table and ALL
/// projections; a write replaces the `Arc`, never mutates through it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stored {
    pub item: Arc<Item>,
    pub size: u32,
}

/// Items and bytes in one partition (or a whole table or index). Index bytes include the
/// 100-byte overhead per entry; table bytes are item sizes (what `TableSizeBytes` reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PartitionStats {
    pub items: u64,
    pub bytes: u64,
}

impl PartitionStats {
    pub(crate) fn add(&mut self, bytes: u64) {
        self.items += 1;
        self.bytes += bytes;
    }

    pub(crate) fn remove(&mut self, bytes: u64) {
        self.items -= 1;
        self.bytes -= bytes;
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Partition {
    pub items: BTreeMap<Option<KeyValue>, Stored>,
    pub stats: PartitionStats,
}

/// A GSI change waiting for the replication lag to pass.
#[derive(Debug, Clone)]
struct PendingChange {
    index: usize,
    old: Option<Placement>,
    new: Option<(Placement, Stored)>,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub(crate) spec: TableSpec,
    created: SimTime,
    index_lag: SimDuration,
    collection_limit: u64,
    pub(crate) partitions: BTreeMap<PartitionId, Partition>,
    totals: PartitionStats,
    pub(crate) global: Vec<Index>,
    pub(crate) local: Vec<Index>,
    pending: BTreeMap<(SimTime, u64), PendingChange>,
    next_change: u64,
    pub(crate) ttl: Ttl,
}

impl Table {
    pub(crate) fn new(
        spec: TableSpec,
        created: SimTime,
        index_lag: SimDuration,
        collection_limit: u64,
        ttl_delay: SimDuration,
    ) -> Table {
        let global =
            spec.global.iter().map(|s| Index::new(s.clone(), IndexKind::Global, &spec.key)).collect();
        let local = spec.local.iter().map(|s| Index::new(s.clone(), IndexKind::Local, &spec.key)).collect();
        Table {
            spec,
            created,
            index_lag,
            collection_limit,
            partitions: BTreeMap::new(),
            totals: PartitionStats::default(),
            global,
            local,
            pending: BTreeMap::new(),
            next_change: 0,
            ttl: Ttl::new(ttl_delay),
        }
    }

    pub fn spec(&self) -> &TableSpec {
        &self.spec
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn created(&self) -> SimTime {
        self.created
    }

    pub fn index_lag(&self) -> SimDuration {
        self.index_lag
    }

    pub fn item_count(&self) -> u64 {
        self.totals.items
    }

    /// Sum of item sizes (DynamoDB's `TableSizeBytes`).
    pub fn size_bytes(&self) -> u64 {
        self.totals.bytes
    }

    pub fn global_indexes(&self) -> &[Index] {
        &self.global
    }

    pub fn local_indexes(&self) -> &[Index] {
        &self.local
    }

    pub fn index(&self, target: Target) -> Option<&Index> {
        match target {
            Target::Table => None,
            Target::Global(i) => self.global.get(i),
            Target::Local(i) => self.local.get(i),
        }
    }

    /// Item count and bytes of every partition, in hash (Scan) order.
    pub fn partition_stats(&self) -> impl Iterator<Item = (&PartitionId, PartitionStats)> {
        self.partitions.iter().map(|(id, p)| (id, p.stats))
    }

    /// Stats of the partition whose partition key is `key`.
    pub fn partition(&self, key: &KeyValue) -> Option<PartitionStats> {
        self.partitions.get(&PartitionId::new(key.clone())).map(|p| p.stats)
    }

    /// An item collection's size: the partition's items plus its LSI entries with their
    /// 100-byte overhead. Only tables with LSIs are limited by it.
    pub fn item_collection_bytes(&self, partition: &PartitionId) -> u64 {
        let table = self.partitions.get(partition).map_or(0, |p| p.stats.bytes);
        let local: u64 =
            self.local.iter().filter_map(|i| i.partitions.get(partition)).map(|p| p.stats.bytes).sum();
        table + local
    }

    /// Items deleted by the TTL sweeper so far.
    pub fn ttl_deletes(&self) -> u64 {
        self.ttl.deletes
    }

    /// The TTL attribute, when TTL is enabled.
    pub fn ttl_attribute(&self) -> Option<&str> {
        self.ttl.attribute.as_deref()
    }

    pub(crate) fn get(&self, key: &PrimaryKey) -> Option<&Stored> {
        self.partitions.get(&key.partition)?.items.get(&key.sort)
    }

    pub(crate) fn new_capacity(&self) -> ConsumedCapacity {
        ConsumedCapacity::new(self.global.len(), self.local.len())
    }

    /// The charge of a write that did not happen (failed condition): the table's write units for
    /// the larger of the old and the would-be new item, no index writes.
    pub(crate) fn failed_write_charge(
        &self,
        key: &PrimaryKey,
        old_size: u64,
        new_size: u64,
    ) -> ConsumedCapacity {
        let mut consumed = self.new_capacity();
        consumed.charge(
            Target::Table,
            &key.partition,
            0.0,
            super::capacity::failed_write_units(old_size, new_size),
        );
        consumed
    }

    /// Writes (`Some`) or deletes (`None`) the item at `key`, returning what was there and the
    /// capacity consumed: the table's `max(old, new)` in 1 KB units, and per index 0, 1 or 2
    /// entry writes each sized by its entry (AWS GSI docs, "Write activity"). An index entry that
    /// would not change costs nothing.
    pub(crate) fn write(
        &mut self,
        key: PrimaryKey,
        new: Option<Stored>,
        now: SimTime,
    ) -> Result<(Option<Stored>, ConsumedCapacity), StoreError> {
        let old = self.get(&key).cloned();
        let old_size = old.as_ref().map_or(0, |s| u64::from(s.size));
        let new_size = new.as_ref().map_or(0, |s| u64::from(s.size));
        let mut consumed = self.new_capacity();
        consumed.charge(Target::Table, &key.partition, 0.0, write_units(old_size.max(new_size)));

        let mut local_changes = Vec::new();
        let mut collection_delta = i128::from(new_size) - i128::from(old_size);
        for (i, index) in self.local.iter().enumerate() {
            if let Some(change) =
                index_change(index, Target::Local(i), &key, old.as_ref(), new.as_ref(), &mut consumed)
            {
                let bytes = |e: &Option<(Placement, Stored)>| {
                    e.as_ref().map_or(0, |(_, s)| i128::from(u64::from(s.size) + INDEX_ENTRY_OVERHEAD))
                };
                let old_bytes = old
                    .as_ref()
                    .filter(|_| change.0.is_some())
                    .map_or(0, |s| i128::from(index.entry_size(s) + INDEX_ENTRY_OVERHEAD));
                collection_delta += bytes(&change.1) - old_bytes;
                local_changes.push((i, change));
            }
        }
        if !self.local.is_empty() && collection_delta > 0 {
            let current = i128::from(self.item_collection_bytes(&key.partition));
            let would_be = u64::try_from(current + collection_delta).unwrap_or(u64::MAX);
            if would_be > self.collection_limit {
                return Err(StoreError::ItemCollectionSizeLimitExceeded {
                    partition_key: key.partition.key.to_string(),
                    would_be,
                    limit: self.collection_limit,
                });
            }
        }
        let mut global_changes = Vec::new();
        for (i, index) in self.global.iter().enumerate() {
            if let Some(change) =
                index_change(index, Target::Global(i), &key, old.as_ref(), new.as_ref(), &mut consumed)
            {
                global_changes.push((i, change));
            }
        }

        for (i, (old_place, new_place)) in local_changes {
            self.local[i].apply(old_place, new_place);
        }
        for (i, (old_place, new_place)) in global_changes {
            if self.index_lag == SimDuration::ZERO {
                self.global[i].apply(old_place, new_place);
            } else {
                self.global[i].pending += 1;
                let due = now + self.index_lag;
                self.pending.insert(
                    (due, self.next_change),
                    PendingChange { index: i, old: old_place, new: new_place },
                );
                self.next_change += 1;
            }
        }
        if let Some(stored) = &new {
            self.ttl.schedule(&key, &stored.item);
        }
        self.replace(key, new);
        Ok((old, consumed))
    }

    /// Puts or removes the table's copy and keeps the partition and table totals.
    fn replace(&mut self, key: PrimaryKey, new: Option<Stored>) {
        if let Some(stored) = new {
            let bytes = u64::from(stored.size);
            let partition = self.partitions.entry(key.partition).or_default();
            if let Some(old) = partition.items.insert(key.sort, stored) {
                partition.stats.remove(u64::from(old.size));
                self.totals.remove(u64::from(old.size));
            }
            partition.stats.add(bytes);
            self.totals.add(bytes);
            return;
        }
        let Some(partition) = self.partitions.get_mut(&key.partition) else { return };
        if let Some(old) = partition.items.remove(&key.sort) {
            partition.stats.remove(u64::from(old.size));
            self.totals.remove(u64::from(old.size));
        }
        if partition.items.is_empty() {
            self.partitions.remove(&key.partition);
        }
    }

    /// Applies GSI changes whose lag has passed by `now`; returns how many.
    pub(crate) fn apply_pending(&mut self, now: SimTime) -> usize {
        let mut applied = 0;
        while let Some(entry) = self.pending.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let change = entry.remove();
            let index = &mut self.global[change.index];
            index.pending -= 1;
            index.apply(change.old, change.new);
            applied += 1;
        }
        applied
    }
}

type IndexChange = (Option<Placement>, Option<(Placement, Stored)>);

/// How one index changes when `old` becomes `new`, charging its writes; `None` when untouched.
fn index_change(
    index: &Index,
    target: Target,
    key: &PrimaryKey,
    old: Option<&Stored>,
    new: Option<&Stored>,
    consumed: &mut ConsumedCapacity,
) -> Option<IndexChange> {
    let old_place = old.and_then(|s| index.placement(key, &s.item));
    let new_place = new.and_then(|s| index.placement(key, &s.item));
    let write = EntryWrite::between(
        old_place.as_ref().zip(old).as_ref(),
        new_place.as_ref().zip(new).as_ref(),
        |b, a| b.0 == a.0,
        |b, a| index.same_entry(&b.1.item, &a.1.item),
    );
    match (write, old, new, new_place) {
        (EntryWrite::None, ..) => None,
        (EntryWrite::InPlace, Some(old), Some(new), Some(new_place)) => {
            let bytes = index.entry_size(old).max(index.entry_size(new));
            consumed.charge(target, &new_place.partition, 0.0, write_units(bytes));
            Some((old_place, Some((new_place, index.entry_of(new)))))
        }
        (_, _, _, new_place) => {
            if let (Some(place), Some(stored)) = (&old_place, old) {
                consumed.charge(target, &place.partition, 0.0, write_units(index.entry_size(stored)));
            }
            let new_entry = match (new_place, new) {
                (Some(place), Some(stored)) => {
                    consumed.charge(target, &place.partition, 0.0, write_units(index.entry_size(stored)));
                    Some((place, index.entry_of(stored)))
                }
                _ => None,
            };
            Some((old_place, new_entry))
        }
    }
}

//! Secondary indexes (GSIs and LSIs): their own partitions, the entries an item projects into
//! them, and per-partition sizes.
//!
//! An index is sparse: an item lacking any index key attribute has no entry. An entry holds the
//! table key, the index key and the projected attributes; its size is the size of those
//! attributes, and storage adds 100 bytes per entry (AWS GSI/LSI docs). Within an index partition
//! entries are ordered by index sort key, ties by the table key (scan order), so pagination can
//! resume from any entry.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::value::{AttributeValue, Item, KeyValue};

use super::capacity::INDEX_ENTRY_OVERHEAD;
use super::key::{PartitionId, PrimaryKey};
use super::schema::{IndexKind, IndexSpec, KeySchema, ProjectionType};
use super::table::{PartitionStats, Stored};

/// Breaks ties between entries with equal index sort keys. `Min` and `Max` never label an
/// entry; they bound ranges ("every entry with sort key v").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tie {
    Min,
    Key(PrimaryKey),
    Max,
}

/// An entry's position inside its index partition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct EntryKey {
    pub sort: Option<KeyValue>,
    pub tie: Tie,
}

/// Where an item's entry sits in an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placement {
    pub partition: PartitionId,
    pub key: EntryKey,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct IndexPartition {
    pub entries: BTreeMap<EntryKey, Stored>,
    pub stats: PartitionStats,
}

#[derive(Debug, Clone)]
pub struct Index {
    spec: IndexSpec,
    kind: IndexKind,
    /// The attributes an entry keeps (table keys, index keys, `INCLUDE`d), sorted; `None` for ALL.
    projected: Option<Vec<String>>,
    pub(crate) partitions: BTreeMap<PartitionId, IndexPartition>,
    totals: PartitionStats,
    /// Changes written to the table but not yet applied here (GSI replication lag).
    pub(crate) pending: usize,
}

impl Index {
    pub(crate) fn new(spec: IndexSpec, kind: IndexKind, table_key: &KeySchema) -> Index {
        let projected = match &spec.projection {
            ProjectionType::All => None,
            ProjectionType::KeysOnly | ProjectionType::Include(_) => {
                let mut names: Vec<String> =
                    table_key.attributes().chain(spec.key.attributes()).map(|a| a.name.clone()).collect();
                if let ProjectionType::Include(extra) = &spec.projection {
                    names.extend(extra.iter().cloned());
                }
                names.sort();
                names.dedup();
                Some(names)
            }
        };
        Index {
            spec,
            kind,
            projected,
            partitions: BTreeMap::new(),
            totals: PartitionStats::default(),
            pending: 0,
        }
    }

    pub fn spec(&self) -> &IndexSpec {
        &self.spec
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn kind(&self) -> IndexKind {
        self.kind
    }

    /// Entries currently in the index (applied state).
    pub fn item_count(&self) -> u64 {
        self.totals.items
    }

    /// Storage: entry sizes plus 100 bytes per entry.
    pub fn size_bytes(&self) -> u64 {
        self.totals.bytes
    }

    /// Writes to the table not yet visible in this index (0 unless the GSI lags).
    pub fn pending_changes(&self) -> usize {
        self.pending
    }

    /// Item count and storage bytes of every index partition, in hash order.
    pub fn partition_stats(&self) -> impl Iterator<Item = (&PartitionId, PartitionStats)> {
        self.partitions.iter().map(|(id, p)| (id, p.stats))
    }

    /// Stats of the index partition whose partition key is `key`.
    pub fn partition(&self, key: &KeyValue) -> Option<PartitionStats> {
        self.partitions.get(&PartitionId::new(key.clone())).map(|p| p.stats)
    }

    /// True when `name` is kept in every entry.
    pub fn projects(&self, name: &str) -> bool {
        self.projected.as_ref().is_none_or(|names| names.binary_search_by(|n| n.as_str().cmp(name)).is_ok())
    }

    pub fn projects_all(&self) -> bool {
        self.projected.is_none()
    }

    /// Where `item` (stored under `table_key`) sits in this index, `None` if it is not in it.
    /// The item was validated on write, so a key attribute of the wrong type cannot occur here.
    pub(crate) fn placement(&self, table_key: &PrimaryKey, item: &Item) -> Option<Placement> {
        let read = |name: &str| item.get(name).and_then(AttributeValue::as_key);
        let partition = match self.kind {
            IndexKind::Local => table_key.partition.clone(),
            IndexKind::Global => PartitionId::new(read(&self.spec.key.partition.name)?),
        };
        let sort = match &self.spec.key.sort {
            Some(attribute) => Some(read(&attribute.name)?),
            None => None,
        };
        Some(Placement { partition, key: EntryKey { sort, tie: Tie::Key(table_key.clone()) } })
    }

    /// Bytes of the entry `item` projects (without the 100-byte storage overhead).
    pub(crate) fn entry_size(&self, stored: &Stored) -> u64 {
        match &self.projected {
            None => u64::from(stored.size),
            Some(names) => names
                .iter()
                .filter_map(|name| stored.item.get(name).map(|v| (name.len() + v.size()) as u64))
                .sum(),
        }
    }

    pub(crate) fn entry_of(&self, stored: &Stored) -> Stored {
        match &self.projected {
            None => stored.clone(),
            Some(names) => {
                let item: Item = names
                    .iter()
                    .filter_map(|name| stored.item.get(name).map(|v| (name.clone(), v.clone())))
                    .collect();
                let size =
                    u32::try_from(self.entry_size(stored)).expect("an entry is no larger than its item");
                Stored { item: Arc::new(item), size }
            }
        }
    }

    /// True when both items project the same entry (no index write needed).
    pub(crate) fn same_entry(&self, old: &Item, new: &Item) -> bool {
        match &self.projected {
            None => old == new,
            Some(names) => names.iter().all(|name| old.get(name) == new.get(name)),
        }
    }

    /// Moves an entry: removes it from `old` and inserts `new` (either may be absent).
    pub(crate) fn apply(&mut self, old: Option<Placement>, new: Option<(Placement, Stored)>) {
        if let Some(old) = old
            && let Some(partition) = self.partitions.get_mut(&old.partition)
        {
            if let Some(removed) = partition.entries.remove(&old.key) {
                let bytes = u64::from(removed.size) + INDEX_ENTRY_OVERHEAD;
                partition.stats.remove(bytes);
                self.totals.remove(bytes);
            }
            if partition.entries.is_empty() {
                self.partitions.remove(&old.partition);
            }
        }
        if let Some((placement, entry)) = new {
            let bytes = u64::from(entry.size) + INDEX_ENTRY_OVERHEAD;
            let partition = self.partitions.entry(placement.partition).or_default();
            if let Some(replaced) = partition.entries.insert(placement.key, entry) {
                let old_bytes = u64::from(replaced.size) + INDEX_ENTRY_OVERHEAD;
                partition.stats.remove(old_bytes);
                self.totals.remove(old_bytes);
            }
            partition.stats.add(bytes);
            self.totals.add(bytes);
        }
    }
}

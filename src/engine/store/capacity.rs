//! Capacity units: how much a request costs and where the cost lands.
//!
//! The rules are DESIGN.md §4's, from the AWS developer guide ("DynamoDB read and write
//! operations", "Global secondary indexes: provisioned throughput considerations", "Local
//! secondary indexes"): reads in 4 KB units (half for eventually consistent), writes in 1 KB
//! units, every request at least one unit. Units are halves at finest, so `f64` holds them exactly.
//!
//! A `ConsumedCapacity` carries the breakdown DynamoDB reports (table, each GSI, each LSI) and,
//! for the simulator, every partition the request touched with the units it spent there.

use crate::engine::value::KeyValue;

use super::key::PartitionId;

/// One read capacity unit reads up to 4 KB strongly consistent.
pub const READ_UNIT_BYTES: u64 = 4096;
/// One write capacity unit writes up to 1 KB.
pub const WRITE_UNIT_BYTES: u64 = 1024;
/// A Query or Scan page stops after 1 MB of items read (AWS Query/Scan docs).
pub const PAGE_BYTES: u64 = 1 << 20;
/// Storage overhead per secondary index item (AWS GSI/LSI docs).
pub const INDEX_ENTRY_OVERHEAD: u64 = 100;

/// Read units for `bytes` read in one rounding: `ceil(bytes / 4 KB)`, at least 1, halved when
/// eventually consistent.
pub fn read_units(bytes: u64, consistent: bool) -> f64 {
    let units = bytes.div_ceil(READ_UNIT_BYTES).max(1) as f64;
    if consistent { units } else { units / 2.0 }
}

/// Read units for a read of `bytes` that is a mean (the planner's estimates): the same rounding as
/// [`read_units`].
pub fn read_units_for(bytes: f64, consistent: bool) -> f64 {
    let units = (bytes / READ_UNIT_BYTES as f64).ceil().max(1.0);
    if consistent { units } else { units / 2.0 }
}

/// Write units for an item (or index entry) of `bytes`: `ceil(bytes / 1 KB)`, at least 1.
pub fn write_units(bytes: u64) -> f64 {
    bytes.div_ceil(WRITE_UNIT_BYTES).max(1) as f64
}

/// Write units for an item whose size is a mean (the planner's estimates): the same rounding as
/// [`write_units`], `ceil(bytes / 1 KB)`, at least 1.
pub fn write_units_for(bytes: f64) -> f64 {
    (bytes / WRITE_UNIT_BYTES as f64).ceil().max(1.0)
}

/// What one write does to an item's entry in one secondary index, the rule every writer of an
/// index uses (the store, the replay's tables and the planner's estimate): AWS developer guide,
/// "Global secondary indexes: provisioned throughput considerations" ("Write activity"), the same
/// for an LSI. An entry that stays where it was is rewritten only when a projected value changed;
/// an entry whose index key appeared, disappeared or changed is a delete and/or a put, each
/// charged for its own entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryWrite {
    /// Not in the index before or after, or in it unchanged: no write.
    None,
    /// Same index key, projected values changed: one write, sized by the larger entry.
    InPlace,
    /// Only before: one delete.
    Delete,
    /// Only after: one put.
    Put,
    /// Its index key changed: a delete of the old entry and a put of the new one.
    Move,
}

impl EntryWrite {
    /// The write that takes an item's entry from `before` to `after` (`None`: not in the index);
    /// for an entry in it both times, `same_key` says whether its index key (its position) is
    /// unchanged and, if so, `same_values` whether its projected values are too.
    pub fn between<E>(
        before: Option<&E>,
        after: Option<&E>,
        same_key: impl FnOnce(&E, &E) -> bool,
        same_values: impl FnOnce(&E, &E) -> bool,
    ) -> EntryWrite {
        match (before, after) {
            (None, None) => EntryWrite::None,
            (Some(_), None) => EntryWrite::Delete,
            (None, Some(_)) => EntryWrite::Put,
            (Some(b), Some(a)) => {
                if !same_key(b, a) {
                    EntryWrite::Move
                } else if same_values(b, a) {
                    EntryWrite::None
                } else {
                    EntryWrite::InPlace
                }
            }
        }
    }

    /// Entry writes it charges: 0, 1 or 2.
    pub fn writes(self) -> u32 {
        match self {
            EntryWrite::None => 0,
            EntryWrite::InPlace | EntryWrite::Delete | EntryWrite::Put => 1,
            EntryWrite::Move => 2,
        }
    }
}

/// Write units a write whose condition failed still consumes: the larger of the item stored at
/// the key (0 when none) and the item the request would have written, at least 1. AWS developer
/// guide, "DynamoDB read and write operations" (capacity unit consumption for writes): a
/// conditional write that fails still consumes write capacity, sized by the item — the same
/// rule for PutItem, UpdateItem and DeleteItem, and for `keyheat ops` and the replay alike.
pub fn failed_write_units(old_bytes: u64, new_bytes: u64) -> f64 {
    write_units(old_bytes.max(new_bytes))
}

/// What a partition belongs to: the table or one of its indexes, by position in the table's
/// definition (`TableSpec::global` / `TableSpec::local`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Table,
    Global(usize),
    Local(usize),
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Units {
    pub read: f64,
    pub write: f64,
}

impl Units {
    pub fn total(self) -> f64 {
        self.read + self.write
    }
}

/// Units a request spent in one partition of the table or of an index.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionTouch {
    pub target: Target,
    /// The partition key's stable hash (placement among physical partitions).
    pub hash: u64,
    pub key: KeyValue,
    pub read: f64,
    pub write: f64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConsumedCapacity {
    pub table: Units,
    /// One entry per GSI of the table, in definition order.
    pub global: Vec<Units>,
    /// One entry per LSI of the table, in definition order.
    pub local: Vec<Units>,
    pub partitions: Vec<PartitionTouch>,
}

impl ConsumedCapacity {
    pub fn new(globals: usize, locals: usize) -> ConsumedCapacity {
        ConsumedCapacity {
            table: Units::default(),
            global: vec![Units::default(); globals],
            local: vec![Units::default(); locals],
            partitions: Vec::new(),
        }
    }

    /// All units: table plus every index (DynamoDB's `CapacityUnits`).
    pub fn total(&self) -> f64 {
        self.table.total() + self.global.iter().chain(&self.local).map(|u| u.total()).sum::<f64>()
    }

    pub fn read_units(&self) -> f64 {
        self.table.read + self.global.iter().chain(&self.local).map(|u| u.read).sum::<f64>()
    }

    pub fn write_units(&self) -> f64 {
        self.table.write + self.global.iter().chain(&self.local).map(|u| u.write).sum::<f64>()
    }

    pub fn units(&self, target: Target) -> Units {
        match target {
            Target::Table => self.table,
            Target::Global(i) => self.global[i],
            Target::Local(i) => self.local[i],
        }
    }

    fn units_mut(&mut self, target: Target) -> &mut Units {
        match target {
            Target::Table => &mut self.table,
            Target::Global(i) => &mut self.global[i],
            Target::Local(i) => &mut self.local[i],
        }
    }

    /// Adds units to `target` and to the partition's touch; consecutive charges to one
    /// partition merge into one touch.
    pub(crate) fn charge(&mut self, target: Target, partition: &PartitionId, read: f64, write: f64) {
        let units = self.units_mut(target);
        units.read += read;
        units.write += write;
        if let Some(last) = self.partitions.last_mut()
            && last.target == target
            && last.hash == partition.hash
            && last.key == partition.key
        {
            last.read += read;
            last.write += write;
            return;
        }
        self.partitions.push(PartitionTouch {
            target,
            hash: partition.hash,
            key: partition.key.clone(),
            read,
            write,
        });
    }

    /// Adds `read` units to `target`, shared among the partitions read in proportion to their
    /// bytes. The target gets exactly `read` (a 1 MB page is 128.5 RCU, not the float sum of its
    /// shares); the partitions' shares are for placing the load.
    pub(crate) fn charge_shared(&mut self, target: Target, bytes: &[(&PartitionId, u64)], read: f64) {
        let total: u64 = bytes.iter().map(|(_, b)| b).sum();
        let before = self.units_mut(target).read;
        for (partition, b) in bytes {
            self.charge(target, partition, read * (*b as f64) / (total.max(1) as f64), 0.0);
        }
        self.units_mut(target).read = before + read;
    }

    /// Adds units to `target` without naming a partition (a Scan of an empty table).
    pub(crate) fn charge_unplaced(&mut self, target: Target, read: f64) {
        self.units_mut(target).read += read;
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp, reason = "capacity units are exact halves: exact comparison is the test")]
mod tests {
    use super::*;

    #[test]
    fn rounds_reads_to_4kb_and_writes_to_1kb() {
        // (bytes, strongly consistent RCU, eventually consistent RCU, WCU), AWS worked examples.
        let cases = [
            (0, 1.0, 0.5, 1.0),
            (1, 1.0, 0.5, 1.0),
            (1024, 1.0, 0.5, 1.0),
            (1025, 1.0, 0.5, 2.0),
            (3500, 1.0, 0.5, 4.0),
            (4096, 1.0, 0.5, 4.0),
            (4097, 2.0, 1.0, 5.0),
            (8192, 2.0, 1.0, 8.0),
            (10 * 1024, 3.0, 1.5, 10.0),
            (409_600, 100.0, 50.0, 400.0),
        ];
        for (bytes, strong, eventual, write) in cases {
            assert_eq!(read_units(bytes, true), strong, "RCU strong {bytes}");
            assert_eq!(read_units(bytes, false), eventual, "RCU eventual {bytes}");
            assert_eq!(write_units(bytes), write, "WCU {bytes}");
        }
    }

    #[test]
    fn an_entry_write_counts_what_the_index_key_and_values_did() {
        // An entry is (index key, projected values); `None` is not in the index.
        let cases = [
            (None, None, EntryWrite::None, 0),
            (Some((1, 'a')), Some((1, 'a')), EntryWrite::None, 0),
            (Some((1, 'a')), Some((1, 'b')), EntryWrite::InPlace, 1),
            (Some((1, 'a')), Some((2, 'a')), EntryWrite::Move, 2),
            (Some((1, 'a')), Some((2, 'b')), EntryWrite::Move, 2),
            (Some((1, 'a')), None, EntryWrite::Delete, 1),
            (None, Some((2, 'b')), EntryWrite::Put, 1),
        ];
        for (before, after, write, writes) in cases {
            let got =
                EntryWrite::between(before.as_ref(), after.as_ref(), |b, a| b.0 == a.0, |b, a| b.1 == a.1);
            assert_eq!(got, write, "{before:?} -> {after:?}");
            assert_eq!(got.writes(), writes, "{got:?}");
        }
    }

    #[test]
    fn a_mean_size_rounds_as_a_whole_one_does() {
        for bytes in [0_u64, 1, 1023, 1024, 1025, 4000, 409_600] {
            assert_eq!(write_units_for(bytes as f64), write_units(bytes), "{bytes}");
        }
        for bytes in [0_u64, 1, 4095, 4096, 4097, 409_600] {
            for consistent in [true, false] {
                assert_eq!(
                    read_units_for(bytes as f64, consistent),
                    read_units(bytes, consistent),
                    "{bytes}"
                );
            }
        }
        assert_eq!(write_units_for(1024.5), 2.0);
        assert_eq!(write_units_for(0.3), 1.0);
    }

    #[test]
    fn charges_merge_per_partition_and_sum_per_target() {
        let a = PartitionId::new(KeyValue::S("a".into()));
        let b = PartitionId::new(KeyValue::S("b".into()));
        let mut consumed = ConsumedCapacity::new(1, 0);
        consumed.charge(Target::Table, &a, 0.0, 2.0);
        consumed.charge(Target::Table, &a, 0.0, 1.0);
        consumed.charge(Target::Global(0), &b, 0.0, 1.0);
        consumed.charge(Target::Global(0), &a, 0.0, 1.0);
        assert_eq!(consumed.table, Units { read: 0.0, write: 3.0 });
        assert_eq!(consumed.units(Target::Global(0)).write, 2.0);
        assert_eq!(consumed.total(), 5.0);
        assert_eq!(consumed.write_units(), 5.0);
        assert_eq!(consumed.partitions.len(), 3);
        assert_eq!(consumed.partitions[0].write, 3.0);
    }

    #[test]
    fn a_shared_charge_totals_exactly_what_was_rounded() {
        // 128.5 RCU shared by 3,000 / 7,000 / 3,000 / 1,000 bytes: the float sum of the shares is
        // 128.49999999999997; the request reports 128.5, as DynamoDB does.
        let ids: Vec<PartitionId> =
            ["a", "b", "c", "d"].iter().map(|k| PartitionId::new(KeyValue::S((*k).into()))).collect();
        let bytes: Vec<(&PartitionId, u64)> = ids.iter().zip([3000, 7000, 3000, 1000]).collect();
        let mut consumed = ConsumedCapacity::new(0, 0);
        consumed.charge_shared(Target::Table, &bytes, 128.5);
        assert_eq!(consumed.total(), 128.5);
        assert_eq!(consumed.partitions.len(), 4);
        assert_eq!(consumed.partitions[1].read, 128.5 * 7.0 / 14.0);
    }
}

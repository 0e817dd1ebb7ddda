//! One simulated table: the table's [`Ledger`] and one per secondary index, and the single path
//! every write takes through them, with the store's capacity rules (DESIGN.md §4, from
//! `store::table::write`): the table charges `max(old, new)` in 1 KB units; each index charges 0
//! (not in it before or after, or the entry is unchanged), 1 (put, delete, or a projected
//! attribute changed in place) or 2 (the index key changed: delete + put) entry writes, each
//! sized by its entry; a table with LSIs refuses a write that would take an item collection past
//! its limit (10 GB).
//!
//! Items arrive already placed ([`Placed`]: keys, sizes, index entries and a digest of each
//! entry's projected values); the simulator computes them from generated values, the
//! equivalence test from real items. The write is offered to a check (the simulator's metering)
//! before anything changes, so a throttled write leaves no trace.

use super::keys::{Codec, SortBuf, SortRef};
use super::ledger::{Ledger, Row};
use crate::engine::hash::hash_bytes;
use crate::engine::profile::{Metering, cosmos};
use crate::engine::store::{EntryWrite, INDEX_ENTRY_OVERHEAD, write_units};
use crate::engine::value::KeyType;

/// A partition key: its type, its text (canonical for N, raw bytes for B) and its stable hash.
#[derive(Debug, PartialEq, Eq)]
pub struct PartKey {
    pub key_type: KeyType,
    pub text: Vec<u8>,
    pub hash: u64,
}

impl Clone for PartKey {
    fn clone(&self) -> PartKey {
        PartKey { key_type: self.key_type, text: self.text.clone(), hash: self.hash }
    }

    /// Copies into the buffer already held: a read that takes its key from a memo into a spare
    /// key allocates nothing (derived, `clone_from` would allocate a new text every time).
    fn clone_from(&mut self, source: &PartKey) {
        self.key_type = source.key_type;
        self.text.clone_from(&source.text);
        self.hash = source.hash;
    }
}

impl Default for PartKey {
    fn default() -> PartKey {
        PartKey { key_type: KeyType::S, text: Vec::new(), hash: 0 }
    }
}

impl PartKey {
    pub fn new(key_type: KeyType, text: &[u8]) -> PartKey {
        let mut key = PartKey::default();
        key.set(key_type, text);
        key
    }

    /// Replaces the key, reusing the buffer.
    pub fn set(&mut self, key_type: KeyType, text: &[u8]) {
        self.key_type = key_type;
        self.text.clear();
        self.text.extend_from_slice(text);
        // A hierarchical key (Cosmos DB) is placed by its prefix first; any other by its hash.
        self.hash = cosmos::placement(text, hash_bytes);
    }
}

/// Where an item's entry sits in one index.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    pub pk: PartKey,
    /// The entry's position bytes: index sort key component, then the table key (`keys`).
    pub key: Vec<u8>,
    pub size: u32,
    /// A digest of the projected attribute values: equal digests and positions mean an unchanged
    /// entry (no index write).
    pub digest: u64,
}

/// An item as the table sees it: its primary key, size, id, and its entry in each index.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placed {
    pub pk: PartKey,
    pub sk: Option<SortBuf>,
    pub size: u32,
    pub id: u32,
    /// One slot per index, in the table's index order; `None` where the item is not in it.
    pub entries: Vec<Option<Entry>>,
}

impl Placed {
    pub fn sort(&self) -> SortRef<'_> {
        self.sk.as_ref().map_or(SortRef::Inline(0), SortBuf::as_ref)
    }
}

/// An index entry change held back while its GSI partition lags: applied when it drains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryOp {
    Put { entry: Entry, id: u32 },
    Remove { entry: Entry },
}

/// Decides, per touch of an index (its position in the write's touches, and the index), whether
/// the change is held back; a held-back change is handed over (the last argument makes it).
pub type Defer<'a> = dyn FnMut(usize, usize, &dyn Fn() -> EntryOp) -> bool + 'a;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    Global,
    Local,
}

/// Units one write spends in one partition of the table (group 0) or of index `group - 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touch {
    pub group: usize,
    pub hash: u64,
    pub units: f64,
    /// The logical partition, once the write is applied.
    pub partition: u32,
}

/// What a write did.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WriteResult {
    pub touches: Vec<Touch>,
    /// Index entry writes (0, 1 or 2 per index).
    pub entry_writes: u32,
}

/// What a write that went through did to its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// Index entry writes (0, 1 or 2 per index).
    pub entry_writes: u32,
    /// The row the table's put replaced (an item at the same key), or the one its delete removed.
    pub replaced: Option<Row>,
}

/// The touches and entry writes of a write in progress.
struct Written<'a> {
    touches: &'a mut Vec<Touch>,
    entry_writes: u32,
}

/// Why a write was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteRefused {
    /// The check (throttling) said no.
    Throttled,
    /// ItemCollectionSizeLimitExceeded: the item collection would hold this many bytes.
    CollectionLimit { would_be: u64 },
}

/// How one index changes for one write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    None,
    /// Same position, projected values changed: one write.
    InPlace,
    /// Removed and/or added.
    Move,
}

#[derive(Debug, Clone)]
pub struct Table {
    /// The table itself.
    pub base: Ledger,
    pub indexes: Vec<(IndexKind, Ledger)>,
    /// The item collection limit, enforced when the table has an LSI or `partition_limited`.
    pub collection_limit: u64,
    /// Every partition key's items are held to `collection_limit`, LSI or not (Cosmos DB's
    /// logical partition).
    partition_limited: bool,
    /// How a write of the table's items is charged.
    metering: Metering,
}

/// How index `i` changes when its entry goes from `before` to `after`, charging its writes: none
/// for an unchanged entry, one in place for changed projected values, one per entry removed or
/// added otherwise (AWS GSI docs, "Write activity").
fn index_change(i: usize, before: Option<&Entry>, after: Option<&Entry>, result: &mut Written<'_>) -> Change {
    let mut charge = |e: &Entry, units: f64| {
        result.touches.push(Touch { group: i + 1, hash: e.pk.hash, units, partition: u32::MAX });
        result.entry_writes += 1;
    };
    let write = EntryWrite::between(
        before,
        after,
        |b, a| b.pk == a.pk && b.key == a.key,
        |b, a| b.digest == a.digest && b.size == a.size,
    );
    match (write, before, after) {
        (EntryWrite::None, ..) => Change::None,
        (EntryWrite::InPlace, Some(b), Some(a)) => {
            charge(a, write_units(u64::from(b.size.max(a.size))));
            Change::InPlace
        }
        _ => {
            for e in [before, after].into_iter().flatten() {
                charge(e, write_units(u64::from(e.size)));
            }
            Change::Move
        }
    }
}

fn entry(placed: Option<&Placed>, i: usize) -> Option<&Entry> {
    placed.and_then(|p| p.entries.get(i)?.as_ref())
}

impl Table {
    pub fn new(codec: Codec, indexes: &[IndexKind], collection_limit: u64) -> Table {
        Table {
            base: Ledger::new(codec, 0),
            indexes: indexes.iter().map(|&k| (k, Ledger::new(Codec::Bytes, INDEX_ENTRY_OVERHEAD))).collect(),
            collection_limit,
            partition_limited: false,
            metering: Metering::Units,
        }
    }

    /// Stores index entries with no per-entry overhead: DynamoDB's 100 bytes per index item
    /// are not a B-tree key's (MongoDB, whose entries are sized whole by the profile). Call
    /// before anything is written.
    pub fn entries_without_overhead(&mut self) {
        for (_, ledger) in &mut self.indexes {
            *ledger = Ledger::new(Codec::Bytes, 0);
        }
    }

    /// Holds every partition key's items to `bytes`, a hard limit a write past fails (Cosmos
    /// DB's 20 GB logical partition).
    pub fn limit_partitions(&mut self, bytes: u64) {
        self.collection_limit = bytes;
        self.partition_limited = true;
    }

    /// Charges the table's writes as `metering` does (DynamoDB's write units until told).
    pub fn charge_with(&mut self, metering: Metering) {
        self.metering = metering;
    }

    /// CQL reads: the table's and its views' pages end by rows only (the driver's fetch size).
    pub fn page_by_rows(&mut self) {
        self.base.page_by_rows();
        self.indexes.iter_mut().for_each(|(_, ledger)| ledger.page_by_rows());
    }

    #[cfg(test)]
    pub fn group(&self, group: usize) -> &Ledger {
        if group == 0 { &self.base } else { &self.indexes[group - 1].1 }
    }

    /// The item now stored under `key`'s primary key: its row, if any.
    pub fn current(&self, key: &Placed) -> Option<super::ledger::Row> {
        let p = self.base.find(key.pk.key_type, &key.pk.text, key.pk.hash)?;
        self.base.get(p, key.sort())
    }

    /// Writes `new` over `old` (both under the same primary key; `None`: absent before, or a
    /// delete). `check` sees every touch before anything changes and may refuse the write.
    #[cfg(test)]
    pub fn write(
        &mut self,
        old: Option<&Placed>,
        new: Option<&Placed>,
        check: &mut dyn FnMut(&[Touch]) -> bool,
    ) -> Result<WriteResult, WriteRefused> {
        let mut result = WriteResult::default();
        result.entry_writes =
            self.write_into(old, new, check, &mut |_, _, _| false, &mut result.touches)?.entry_writes;
        Ok(result)
    }

    /// `write`, with the touches into a reused buffer; returns the index entry writes and the
    /// row the table's put or delete replaced. `defer`
    /// may hold back an index entry change (a lagging GSI): its partition is still interned and
    /// filled into its touch, but the ledger changes only when the caller applies it
    /// ([`Table::apply`]).
    pub fn write_into(
        &mut self,
        old: Option<&Placed>,
        new: Option<&Placed>,
        check: &mut dyn FnMut(&[Touch]) -> bool,
        defer: &mut Defer<'_>,
        touches: &mut Vec<Touch>,
    ) -> Result<Applied, WriteRefused> {
        touches.clear();
        let Some(key) = new.or(old) else { return Ok(Applied { entry_writes: 0, replaced: None }) };
        let mut result = Written { touches, entry_writes: 0 };
        let (changes, collection_delta) = self.plan_write(old, new, key, &mut result);
        self.check_collection(&key.pk, collection_delta)?;
        if !check(result.touches) {
            return Err(WriteRefused::Throttled);
        }
        // Apply: the table row, then each index's entries, filling in the partitions touched.
        let p = self.base.intern(key.pk.key_type, &key.pk.text, key.pk.hash);
        let replaced = match new {
            Some(n) => self.base.put(p, n.sort(), n.size, n.id),
            None => self.base.remove(p, key.sort()),
        };
        result.touches[0].partition = p;
        self.apply_entries(old, new, &changes, defer, result.touches);
        Ok(Applied { entry_writes: result.entry_writes, replaced })
    }

    /// `write_into` for a table without indexes whose writes nothing checks (Cassandra, which
    /// never throttles): one touch, the table row, nothing held back. Returns what `write_into`
    /// would, with the same touch (`write_plain_writes_as_write_into` holds the two together).
    pub fn write_plain(
        &mut self,
        old: Option<&Placed>,
        new: Option<&Placed>,
        touches: &mut Vec<Touch>,
    ) -> Applied {
        debug_assert!(self.indexes.is_empty(), "a plain write has no index entries to move");
        touches.clear();
        let Some(key) = new.or(old) else { return Applied { entry_writes: 0, replaced: None } };
        let units = self.metering.write(old.map(|o| u64::from(o.size)), new.map(|n| u64::from(n.size)));
        let p = self.base.intern(key.pk.key_type, &key.pk.text, key.pk.hash);
        let replaced = match new {
            Some(n) => self.base.put(p, n.sort(), n.size, n.id),
            None => self.base.remove(p, key.sort()),
        };
        touches.push(Touch { group: 0, hash: key.pk.hash, units, partition: p });
        Applied { entry_writes: 0, replaced }
    }

    /// `write_plain` of a new item whose partition the caller already knows (`p`, interned
    /// from the key whose hash is `hash`): no key text to look up. Returns the row it replaced
    /// and the touch `write_plain` would push. Inlined: called, it returned the pair through
    /// the stack a field at a time, and the caller's wide loads of it waited for those stores
    /// to retire (a third of `write`'s samples in `sensors`).
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "a call returns its pair through the stack")]
    pub fn put_plain_at(
        &mut self,
        p: u32,
        hash: u64,
        sk: SortRef<'_>,
        size: u32,
        id: u32,
    ) -> (Option<Row>, Touch) {
        debug_assert!(self.indexes.is_empty(), "a plain write has no index entries to move");
        let units = self.metering.write(None, Some(u64::from(size)));
        let replaced = self.base.put(p, sk, size, id);
        (replaced, Touch { group: 0, hash, units, partition: p })
    }

    /// What a write will do, before anything changes: its touches into `result` (the table
    /// row's first, then each index entry written), each index's change, and how many bytes
    /// the item collection grows by (the table row's and the LSI entries' sizes).
    fn plan_write(
        &self,
        old: Option<&Placed>,
        new: Option<&Placed>,
        key: &Placed,
        result: &mut Written<'_>,
    ) -> (Vec<Change>, i128) {
        let old_size = old.map_or(0, |o| o.size);
        let new_size = new.map_or(0, |n| n.size);
        result.touches.push(Touch {
            group: 0,
            hash: key.pk.hash,
            units: self.metering.write(old.map(|o| u64::from(o.size)), new.map(|n| u64::from(n.size))),
            partition: u32::MAX,
        });
        let mut changes = Vec::with_capacity(self.indexes.len());
        let mut collection_delta = i128::from(new_size) - i128::from(old_size);
        for (i, (kind, _)) in self.indexes.iter().enumerate() {
            let (before, after) = (entry(old, i), entry(new, i));
            let change = index_change(i, before, after, result);
            if *kind == IndexKind::Local && change != Change::None {
                let stored =
                    |e: Option<&Entry>| e.map_or(0, |e| i128::from(u64::from(e.size) + INDEX_ENTRY_OVERHEAD));
                collection_delta += stored(after) - stored(before);
            }
            changes.push(change);
        }
        (changes, collection_delta)
    }

    /// Refuses a write that grows an item collection past its limit (on a table with an LSI,
    /// which is what imposes the limit).
    fn check_collection(&self, pk: &PartKey, delta: i128) -> Result<(), WriteRefused> {
        let limited = self.partition_limited || self.indexes.iter().any(|(k, _)| *k == IndexKind::Local);
        if limited && delta > 0 {
            let current = i128::from(self.collection_bytes(pk));
            let would_be = u64::try_from(current + delta).unwrap_or(u64::MAX);
            if would_be > self.collection_limit {
                return Err(WriteRefused::CollectionLimit { would_be });
            }
        }
        Ok(())
    }

    /// Applies each index's entry changes in the order their touches were listed (after the
    /// table row's), filling in each touch's partition; `defer` may hold a change back.
    fn apply_entries(
        &mut self,
        old: Option<&Placed>,
        new: Option<&Placed>,
        changes: &[Change],
        defer: &mut Defer<'_>,
        touches: &mut [Touch],
    ) {
        let mut t = 1;
        let id = new.map_or(0, |n| n.id);
        for (i, &change) in changes.iter().enumerate() {
            let (before, after) = (entry(old, i), entry(new, i));
            let ops: [Option<(&Entry, bool)>; 2] = match change {
                Change::None => [None, None],
                Change::InPlace => [after.map(|a| (a, true)), None],
                Change::Move => [before.map(|b| (b, false)), after.map(|a| (a, true))],
            };
            for (e, put) in ops.into_iter().flatten() {
                let ledger = &mut self.indexes[i].1;
                let q = ledger.intern(e.pk.key_type, &e.pk.text, e.pk.hash);
                touches[t].partition = q;
                let make = || {
                    if put {
                        EntryOp::Put { entry: e.clone(), id }
                    } else {
                        EntryOp::Remove { entry: e.clone() }
                    }
                };
                if !defer(t, i, &make) {
                    if put {
                        ledger.put(q, SortRef::Bytes(&e.key), e.size, id);
                    } else {
                        ledger.remove(q, SortRef::Bytes(&e.key));
                    }
                }
                t += 1;
            }
        }
    }

    /// Applies a held-back change to index `index`; returns its logical partition.
    pub fn apply(&mut self, index: usize, op: &EntryOp) -> u32 {
        let ledger = &mut self.indexes[index].1;
        let e = match op {
            EntryOp::Put { entry, .. } | EntryOp::Remove { entry } => entry,
        };
        let q = ledger.intern(e.pk.key_type, &e.pk.text, e.pk.hash);
        match op {
            EntryOp::Put { entry, id } => {
                ledger.put(q, SortRef::Bytes(&entry.key), entry.size, *id);
            }
            EntryOp::Remove { entry } => {
                ledger.remove(q, SortRef::Bytes(&entry.key));
            }
        }
        q
    }

    /// An item collection's stored bytes: the table partition plus its LSI entries (with their
    /// 100-byte overhead).
    pub fn collection_bytes(&self, pk: &PartKey) -> u64 {
        let of = |ledger: &Ledger| {
            ledger.find(pk.key_type, &pk.text, pk.hash).map_or(0, |p| ledger.partition(p).bytes)
        };
        of(&self.base)
            + self.indexes.iter().filter(|(k, _)| *k == IndexKind::Local).map(|(_, l)| of(l)).sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pk: &str, sk: u64, size: u32, id: u32, lsi: Option<u32>) -> Placed {
        let pk = PartKey::new(KeyType::S, pk.as_bytes());
        let entries = vec![lsi.map(|entry| Entry {
            pk: pk.clone(),
            key: sk.to_be_bytes().to_vec(),
            size: entry,
            digest: 0,
        })];
        Placed { pk, sk: Some(SortBuf::Inline(sk)), size, id, entries }
    }

    #[test]
    fn a_key_cloned_into_another_keeps_that_keys_buffer() {
        for (held, source) in [("sensor-00012", "sensor-00003"), ("a", "a-longer-key"), ("", "x")] {
            let source = PartKey::new(KeyType::S, source.as_bytes());
            let mut key = PartKey::new(KeyType::N, held.as_bytes());
            key.text.reserve(64);
            let buffer = key.text.as_ptr();
            key.clone_from(&source);
            assert_eq!(key, source);
            assert_eq!(key.text.as_ptr(), buffer, "{held} → {:?}: a new buffer", source.text);
        }
    }

    #[test]
    fn an_item_collection_stops_at_its_limit_on_a_table_with_an_lsi() {
        // A limit of 10,000 bytes: items of 2,000 bytes with 400-byte LSI entries (+100 each).
        let mut table = Table::new(Codec::Inline, &[IndexKind::Local], 10_000);
        let mut accepted = 0u64;
        for i in 0..10u32 {
            match table.write(None, Some(&item("p", u64::from(i), 2000, i, Some(400))), &mut |_| true) {
                Ok(_) => accepted += 1,
                Err(WriteRefused::CollectionLimit { would_be }) => {
                    assert_eq!(would_be, (accepted + 1) * 2500);
                    break;
                }
                Err(other) => panic!("{other:?}"),
            }
        }
        assert_eq!(accepted, 4, "4 × (2,000 + 400 + 100) = 10,000 fits, a fifth does not");
        assert_eq!(table.collection_bytes(&PartKey::new(KeyType::S, b"p")), 10_000);
        // Another partition key is another collection; a table without an LSI has no limit.
        assert!(table.write(None, Some(&item("q", 0, 2000, 9, Some(400))), &mut |_| true).is_ok());
        let mut plain = Table::new(Codec::Inline, &[], 10_000);
        for i in 0..10u32 {
            assert!(plain.write(None, Some(&item("p", u64::from(i), 2000, i, None)), &mut |_| true).is_ok());
        }
    }

    #[test]
    fn a_refused_check_changes_nothing() {
        let mut table = Table::new(Codec::Inline, &[IndexKind::Global], u64::MAX);
        let refused = table.write(None, Some(&item("p", 1, 500, 1, Some(100))), &mut |touches| {
            // Table write plus one GSI entry, each 1 WCU.
            assert_eq!(touches.iter().map(|t| (t.group, t.units)).collect::<Vec<_>>(), [(0, 1.0), (1, 1.0)]);
            false
        });
        assert_eq!(refused, Err(WriteRefused::Throttled));
        assert_eq!((table.base.items(), table.indexes[0].1.items()), (0, 0));
    }

    /// A table's rows as a list: (partition key, rows in order) per partition.
    fn contents(table: &Table) -> Vec<(Vec<u8>, Vec<Row>)> {
        (0..u32::try_from(table.base.partitions().len()).expect("few partitions"))
            .map(|p| {
                (
                    table.base.key_of(p).to_vec(),
                    table.base.partition(p).rows_in(0..table.base.partition(p).len()).collect(),
                )
            })
            .collect()
    }

    proptest::proptest! {
        /// Puts and deletes over a few keys, each with or without the item it replaces: the
        /// plain path touches, replaces and stores what the checked path does.
        #[test]
        fn write_plain_writes_as_write_into(
            ops in proptest::collection::vec((0u8..4, 0u64..8, 1u32..5000, 0u32..6000, 0u8..3), 0..120),
        ) {
            let (mut checked, mut plain) = (Table::new(Codec::Inline, &[], u64::MAX), Table::new(Codec::Inline, &[], u64::MAX));
            let (mut touches, mut expected_touches) = (Vec::new(), Vec::new());
            for (id, (pk, sk, size, old_size, kind)) in (0u32..).zip(ops) {
                let new = item(&format!("p{pk}"), sk, size, id, None);
                let old = Placed { size: old_size, ..new.clone() };
                // 0: a put that replaces an item known before; 1: one that learns it after; 2: a delete.
                let (old, new) = match kind {
                    0 => (Some(&old), Some(&new)),
                    1 => (None, Some(&new)),
                    _ => (Some(&old), None),
                };
                let expected = checked
                    .write_into(old, new, &mut |_| true, &mut |_, _, _| false, &mut expected_touches)
                    .expect("nothing refuses");
                let applied = plain.write_plain(old, new, &mut touches);
                proptest::prop_assert_eq!(&touches, &expected_touches);
                proptest::prop_assert_eq!(applied, expected);
                proptest::prop_assert_eq!(contents(&plain), contents(&checked));
                proptest::prop_assert_eq!(
                    (plain.base.items(), plain.base.bytes(), plain.base.live_partitions()),
                    (checked.base.items(), checked.base.bytes(), checked.base.live_partitions())
                );
            }
        }
    }
}

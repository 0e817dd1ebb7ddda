//! Which rows a console read reads: a GetItem's row, a Query's rows in its partition and
//! sort-key range past its ExclusiveStartKey, a Scan's rows in the store's scan order (partition
//! hash, then key) from its ExclusiveStartKey and within its segment, in reading order until the
//! page is full (`Limit` items, or 1 MB as the store sizes items and index entries).
//!
//! Bounds are found on the ledger's encoded sort keys (`sim::keys`): exactly for byte-coded keys
//! and index entries, a little wider for inline keys (whole epoch seconds, which a request may
//! bound with any number). Every regenerated item is then held against the request's range and
//! start position as the store orders them, so only what the store would read counts toward the
//! page; what the store then does with those items (filter, projection, capacity) is its own.

use std::cmp::Ordering;
use std::ops::Bound;

use crate::engine::expr::KeyOp;
use crate::engine::hash::hash_bytes;
use crate::engine::number::Number;
use crate::engine::sim::Simulation;
use crate::engine::sim::keys::{Codec, SortBuf, entry_bound, prefix_successor, push_component, push_number};
use crate::engine::sim::ledger::{Ledger, Partition, Row};
use crate::engine::store::{
    IndexSpec, KeyAttribute, KeySchema, PAGE_BYTES, PartitionId, PrimaryKey, ProjectionType, Query, Scan,
};
use crate::engine::value::{AttributeValue, Item, KeyType, KeyValue, item_size};

/// Rows read past the point where the page is full: the store decides where the page ends, and
/// a few more items than it reads cost little and make the window robust.
const SLACK_ROWS: usize = 2;

/// What a Query or Scan reads: a table or one of its indexes, with its key schema.
pub(super) struct Source<'a> {
    ledger: &'a Ledger,
    /// How the ledger read holds sort keys, and how the table's does (an index entry's position
    /// ends with the table's sort key in the table's codec).
    codec: Codec,
    table_codec: Codec,
    key: KeySchema,
    table_key: KeySchema,
    /// The index's spec (for entry sizes and the entry order); `None` for the table.
    index: Option<IndexSpec>,
}

impl Simulation {
    /// The item under a GetItem's key.
    pub(super) fn get_item(&self, t: usize, key: &Item) -> Option<Item> {
        let spec = self.table_spec(t, &[]);
        let ledger = &self.storage.tables[t].base;
        let codec = self.world.tables[t].codec;
        let pk = key.get(&spec.key.partition.name)?.as_key()?;
        let p = find_partition(ledger, &pk)?;
        let sk = match &spec.key.sort {
            Some(sort) => Some(key.get(&sort.name)?.as_key()?),
            None => None,
        };
        let at = match (&sk, codec) {
            (None, Codec::Inline) => SortBuf::Inline(0),
            (Some(KeyValue::N(n)), Codec::Inline) => SortBuf::Inline(u64::try_from(n.to_i64()?).ok()?),
            (Some(sk), Codec::Bytes) => SortBuf::Bytes(body(sk)),
            _ => return None,
        };
        let row = ledger.get(p, at.as_ref())?;
        self.console_item(row.id)
    }

    /// The table or index a Query or Scan reads.
    fn source(&self, t: usize, index: Option<&str>) -> Option<Source<'_>> {
        let spec = self.table_spec(t, &[]);
        let table = &self.storage.tables[t];
        let table_codec = self.world.tables[t].codec;
        let Some(name) = index else {
            let key = spec.key.clone();
            return Some(Source {
                ledger: &table.base,
                codec: table_codec,
                table_codec,
                key,
                table_key: spec.key,
                index: None,
            });
        };
        let i = self.world.tables[t].indexes.iter().position(|ix| ix.name == name)?;
        let index = spec.global.iter().chain(&spec.local).find(|s| s.name == name)?.clone();
        Some(Source {
            ledger: &table.indexes.get(i)?.1,
            codec: Codec::Bytes,
            table_codec,
            key: index.key.clone(),
            table_key: spec.key,
            index: Some(index),
        })
    }

    /// The items a Query page reads (and a few more): its partition's rows in the key
    /// condition's range, past the ExclusiveStartKey, in the requested order.
    pub(super) fn query_items(&self, t: usize, query: &Query) -> Vec<Item> {
        let Some(source) = self.source(t, query.index.as_deref()) else { return Vec::new() };
        let Some((pk, lo, hi)) = key_range(&source.key, query) else { return Vec::new() };
        let Some(p) = find_partition(source.ledger, &pk) else { return Vec::new() };
        let part = source.ledger.partition(p);
        let mut from = position(part, source.codec, &source.bound(&lo, true), true);
        let mut to = position(part, source.codec, &source.bound(&hi, false), false);
        let forward = query.scan_forward;
        let start = query.exclusive_start_key.as_ref().and_then(|k| Position::of(k, &source));
        if let Some(start) = &start {
            let rough = start.rough(&source, forward);
            if forward {
                from = from.max(position(part, source.codec, &rough, true));
            } else {
                to = to.min(position(part, source.codec, &rough, false));
            }
        }
        if from >= to {
            return Vec::new();
        }
        let ordered: Box<dyn Iterator<Item = Row>> = if forward {
            Box::new(part.rows_in(from..to))
        } else {
            Box::new((from..to).rev().map(|i| part.row(i)))
        };
        let keep = |item: &Item| {
            let sk = source.key.sort.as_ref().and_then(|s| item.get(&s.name)?.as_key());
            let in_range = sk.is_none_or(|sk| inside(&sk, &lo, &hi));
            let after = start.as_ref().is_none_or(|s| {
                Position::of(item, &source).is_some_and(|at| if forward { at > *s } else { at < *s })
            });
            in_range && after
        };
        self.page(ordered.map(|r| (r.id, true)), query.limit, &source, &keep)
    }

    /// The items a Scan page reads (and a few more): partitions in the store's scan order (hash,
    /// then key), from the ExclusiveStartKey's, within the segment.
    pub(super) fn scan_items(&self, t: usize, scan: &Scan) -> Vec<Item> {
        let Some(source) = self.source(t, scan.index.as_deref()) else { return Vec::new() };
        let (seg_lo, seg_hi) = match scan.segment {
            None => (0, None),
            Some((segment, total)) if total > 0 && total <= 1_000_000 && segment < total => {
                // The store's split: segment s of n covers hashes [s·2^64/n, (s+1)·2^64/n).
                let bound = |s: u64| (u128::from(s) << 64) / u128::from(total);
                (u64::try_from(bound(segment)).unwrap_or(u64::MAX), u64::try_from(bound(segment + 1)).ok())
            }
            Some(_) => return Vec::new(),
        };
        let ledger = source.ledger;
        let mut order: Vec<(PartitionId, u32)> = (0..u32::try_from(ledger.partitions().len())
            .unwrap_or(u32::MAX))
            .filter_map(|p| {
                let part = ledger.partition(p);
                let in_segment = part.hash >= seg_lo && seg_hi.is_none_or(|hi| part.hash < hi);
                (part.items() > 0 && in_segment).then(|| Some((partition_id(ledger, p)?, p))).flatten()
            })
            .collect();
        order.sort_unstable();
        let start = scan.exclusive_start_key.as_ref().and_then(|k| {
            let pk = k.get(&source.key.partition.name)?.as_key()?;
            Some((PartitionId::new(pk), Position::of(k, &source)?))
        });
        let first = start.as_ref().map_or(0, |(pid, _)| order.partition_point(|(q, _)| q < pid));
        let codec = source.codec;
        let rows = order[first..].iter().flat_map(|(pid, p)| {
            let part = ledger.partition(*p);
            // Only the start's own partition is read from inside, after the start.
            let (skip, check) = match &start {
                Some((start_pid, at)) if start_pid == pid => {
                    (position(part, codec, &at.rough(&source, true), true), true)
                }
                _ => (0, false),
            };
            part.rows_in(skip.min(part.len())..part.len()).map(move |r| (r.id, check))
        });
        let keep = |item: &Item| {
            start.as_ref().is_none_or(|(_, at)| Position::of(item, &source).is_some_and(|p| p > *at))
        };
        self.page(rows, scan.limit, &source, &keep)
    }

    /// Regenerates the items of `rows` (with whether `keep` must pass them) until `limit` items
    /// or 1 MB were read, sized as the store sizes what it reads, plus [`SLACK_ROWS`].
    fn page(
        &self,
        rows: impl Iterator<Item = (u32, bool)>,
        limit: Option<usize>,
        source: &Source<'_>,
        keep: &dyn Fn(&Item) -> bool,
    ) -> Vec<Item> {
        let limit = match limit {
            Some(0) => return Vec::new(),
            Some(n) => n,
            None => usize::MAX,
        };
        let mut out = Vec::new();
        let (mut count, mut bytes, mut extra) = (0usize, 0u64, 0usize);
        for (handle, check) in rows {
            let Some(item) = self.console_item(handle) else { continue };
            if check && !keep(&item) {
                continue;
            }
            if count >= limit || bytes >= PAGE_BYTES {
                extra += 1;
                if extra > SLACK_ROWS {
                    break;
                }
            }
            count += 1;
            bytes += source.read_size(&item);
            out.push(item);
        }
        out
    }
}

impl Source<'_> {
    /// Bytes the store counts for reading `item` here: the item, or its index entry (table
    /// keys, index keys and projected attributes; `store::index`).
    fn read_size(&self, item: &Item) -> u64 {
        let included = match self.index.as_ref().map(|i| &i.projection) {
            None | Some(ProjectionType::All) => return item_size(item) as u64,
            Some(ProjectionType::KeysOnly) => &[][..],
            Some(ProjectionType::Include(names)) => names.as_slice(),
        };
        let mut names: Vec<&String> = self
            .table_key
            .attributes()
            .chain(self.key.attributes())
            .map(|a| &a.name)
            .chain(included)
            .collect();
        names.sort_unstable();
        names.dedup();
        names.iter().filter_map(|n| item.get(*n).map(|v| (n.len() + v.size()) as u64)).sum()
    }

    /// A bound on the sort key read, in the ledger's encoding: exact for byte-coded keys and
    /// index entries; for inline (whole epoch seconds) keys, one that takes in at least every
    /// key inside the bound.
    fn bound(&self, bound: &Bound<KeyValue>, lower: bool) -> Bound<SortBuf> {
        let value = match bound {
            Bound::Included(v) | Bound::Excluded(v) => v,
            Bound::Unbounded => return Bound::Unbounded,
        };
        if self.index.is_some() {
            let body = body(value);
            let b = match bound {
                Bound::Included(_) => Bound::Included(body.as_slice()),
                _ => Bound::Excluded(body.as_slice()),
            };
            return match entry_bound(b, lower) {
                Bound::Included(v) => Bound::Included(SortBuf::Bytes(v)),
                Bound::Excluded(v) => Bound::Excluded(SortBuf::Bytes(v)),
                Bound::Unbounded => Bound::Unbounded,
            };
        }
        match (self.codec, value) {
            (Codec::Bytes, v) => match bound {
                Bound::Included(_) => Bound::Included(SortBuf::Bytes(body(v))),
                _ => Bound::Excluded(SortBuf::Bytes(body(v))),
            },
            (Codec::Inline, KeyValue::N(n)) => {
                let x = n.to_f64();
                match (lower, x) {
                    (_, x) if x.is_nan() => Bound::Unbounded,
                    (true, x) if x < 1.0 => Bound::Unbounded,
                    (true, x) => Bound::Included(SortBuf::Inline(whole(x.floor()).saturating_sub(1))),
                    (false, x) if x < 0.0 => Bound::Excluded(SortBuf::Inline(0)),
                    (false, x) => Bound::Included(SortBuf::Inline(whole(x.ceil()).saturating_add(1))),
                }
            }
            // Another type than the key's: the store refuses the request.
            (Codec::Inline, _) => Bound::Unbounded,
        }
    }
}

/// A non-negative whole `f64` as `u64`, saturating.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "clamped to the u64 range")]
fn whole(x: f64) -> u64 {
    x.clamp(0.0, u64::MAX as f64) as u64
}

/// Where an item (or an ExclusiveStartKey) sits in what is read, in the store's order: the
/// table's primary key; for an index, after the index sort key (`store::index`'s entry order).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Position {
    index_sort: Option<KeyValue>,
    table: PrimaryKey,
}

impl Position {
    fn of(item: &Item, source: &Source<'_>) -> Option<Position> {
        let read = |a: &KeyAttribute| item.get(&a.name).and_then(AttributeValue::as_key);
        let sort = match &source.table_key.sort {
            Some(s) => Some(read(s)?),
            None => None,
        };
        let table = PrimaryKey::new(read(&source.table_key.partition)?, sort);
        let index_sort = match (&source.index, &source.key.sort) {
            (Some(_), Some(s)) => Some(read(s)?),
            _ => None,
        };
        Some(Position { index_sort, table })
    }

    /// A ledger bound that takes in every row past this position in the reading direction (a
    /// lower bound forward, an upper one backward): exact where the encoding allows, else wider
    /// (the rows' own positions settle the rest).
    fn rough(&self, source: &Source<'_>, forward: bool) -> Bound<SortBuf> {
        if source.index.is_none() {
            return match &self.table.sort {
                // No sort key: the partition's one item is the start itself.
                None => Bound::Excluded(SortBuf::Inline(0)),
                Some(sk) => source.bound(&Bound::Included(sk.clone()), forward),
            };
        }
        // The entry's exact position: index sort key, then the table key (`sim::regen`'s
        // `entry_position`).
        let mut key = Vec::new();
        push_component(&self.index_sort.as_ref().map(body).unwrap_or_default(), &mut key);
        key.extend_from_slice(&self.table.partition.hash.to_be_bytes());
        push_component(&body(&self.table.partition.key), &mut key);
        let exact = match (&self.table.sort, source.table_codec) {
            (None, _) => true,
            (Some(KeyValue::N(n)), Codec::Inline) => match n.to_i64().and_then(|v| u64::try_from(v).ok()) {
                Some(v) => {
                    key.extend_from_slice(&v.to_be_bytes());
                    true
                }
                None => false,
            },
            (Some(sk), _) => {
                key.extend_from_slice(&body(sk));
                true
            }
        };
        if exact {
            return Bound::Excluded(SortBuf::Bytes(key));
        }
        match &self.index_sort {
            Some(sort) => source.bound(&Bound::Included(sort.clone()), forward),
            None => Bound::Unbounded,
        }
    }
}

/// A key value's order-preserving bytes as the ledger keeps them (S and B as they are, N by
/// `keys::push_number` of the canonical text).
fn body(value: &KeyValue) -> Vec<u8> {
    match value {
        KeyValue::S(s) => s.as_bytes().to_vec(),
        KeyValue::B(b) => b.clone(),
        KeyValue::N(n) => {
            let mut out = Vec::new();
            push_number(&n.to_string(), &mut out);
            out
        }
    }
}

/// The partition with this key in a ledger.
fn find_partition(ledger: &Ledger, key: &KeyValue) -> Option<u32> {
    let text = key.hash_bytes();
    ledger.find(key.key_type(), &text, hash_bytes(&text))
}

/// Partition `p`'s key as the store identifies it.
fn partition_id(ledger: &Ledger, p: u32) -> Option<PartitionId> {
    let text = ledger.key_of(p);
    let key = match ledger.partition(p).key_type {
        KeyType::S => KeyValue::S(String::from_utf8(text.to_vec()).ok()?),
        KeyType::N => KeyValue::N(Number::parse(std::str::from_utf8(text).ok()?).ok()?),
        KeyType::B => KeyValue::B(text.to_vec()),
    };
    Some(PartitionId::new(key))
}

/// Rows of a partition before a bound: the first row inside a lower bound, or the first past an
/// upper bound.
fn position(part: &Partition, codec: Codec, bound: &Bound<SortBuf>, lower: bool) -> usize {
    let cmp = |row: &Row, key: &SortBuf| match (codec, key) {
        (Codec::Inline, SortBuf::Inline(v)) => row.sk.cmp(v),
        (Codec::Bytes, SortBuf::Bytes(b)) => part.sk_bytes(row).cmp(b.as_slice()),
        // A bound is always built in the codec of what it bounds.
        _ => Ordering::Less,
    };
    match (bound, lower) {
        (Bound::Unbounded, true) => 0,
        (Bound::Unbounded, false) => part.len(),
        (Bound::Included(k), true) | (Bound::Excluded(k), false) => {
            part.partition_point(|r| cmp(r, k) == Ordering::Less)
        }
        (Bound::Excluded(k), true) | (Bound::Included(k), false) => {
            part.partition_point(|r| cmp(r, k) != Ordering::Greater)
        }
    }
}

/// A Query's partition key and sort-key range, read as `store::range` reads them; `None` where
/// the store refuses the condition (it then answers with the reason).
fn key_range(schema: &KeySchema, query: &Query) -> Option<(KeyValue, Bound<KeyValue>, Bound<KeyValue>)> {
    let terms = &query.key_condition.terms;
    let at = terms.iter().position(|t| t.attribute == schema.partition.name)?;
    let KeyOp::Eq(value) = &terms[at].op else { return None };
    let pk = value.as_key()?;
    let (mut lo, mut hi) = (Bound::Unbounded, Bound::Unbounded);
    for (i, term) in terms.iter().enumerate() {
        if i == at {
            continue;
        }
        schema.sort.as_ref().filter(|s| s.name == term.attribute)?;
        let key = |v: &AttributeValue| v.as_key();
        (lo, hi) = match &term.op {
            KeyOp::Eq(v) => (Bound::Included(key(v)?), Bound::Included(key(v)?)),
            KeyOp::Lt(v) => (Bound::Unbounded, Bound::Excluded(key(v)?)),
            KeyOp::Le(v) => (Bound::Unbounded, Bound::Included(key(v)?)),
            KeyOp::Gt(v) => (Bound::Excluded(key(v)?), Bound::Unbounded),
            KeyOp::Ge(v) => (Bound::Included(key(v)?), Bound::Unbounded),
            KeyOp::Between(a, b) => (Bound::Included(key(a)?), Bound::Included(key(b)?)),
            KeyOp::BeginsWith(v) => {
                let prefix = key(v)?;
                let next = successor(&prefix)?;
                (Bound::Included(prefix), next)
            }
        };
    }
    Some((pk, lo, hi))
}

/// The bound past every key that starts with `prefix` (`None`: not a string or binary).
fn successor(prefix: &KeyValue) -> Option<Bound<KeyValue>> {
    Some(match prefix {
        KeyValue::S(s) => prefix_successor(s).map_or(Bound::Unbounded, |n| Bound::Excluded(KeyValue::S(n))),
        KeyValue::B(b) => {
            let mut bytes = b.clone();
            while bytes.last() == Some(&u8::MAX) {
                bytes.pop();
            }
            match bytes.last_mut() {
                Some(last) => {
                    *last += 1;
                    Bound::Excluded(KeyValue::B(bytes))
                }
                None => Bound::Unbounded,
            }
        }
        KeyValue::N(_) => return None,
    })
}

fn inside(key: &KeyValue, lo: &Bound<KeyValue>, hi: &Bound<KeyValue>) -> bool {
    let above = match lo {
        Bound::Included(v) => key >= v,
        Bound::Excluded(v) => key > v,
        Bound::Unbounded => true,
    };
    let below = match hi {
        Bound::Included(v) => key <= v,
        Bound::Excluded(v) => key < v,
        Bound::Unbounded => true,
    };
    above && below
}

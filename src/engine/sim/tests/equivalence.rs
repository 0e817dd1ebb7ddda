//! The compact table against the reference store: one random stream of puts, overwrites,
//! deletes, gets, Queries (ranges, both directions, Limit, every page) on the table and on a GSI,
//! and Scans, through `engine::store::Store` and through `sim::table::Table`. Every answer must
//! agree: returned keys in order, counts, LastEvaluatedKey, consumed capacity; and at the end
//! every partition's item count and bytes, table and index.

// Capacity units are exact halves: exact comparison is the test.
#![allow(clippy::float_cmp)]

use std::collections::BTreeMap;
use std::ops::Bound;

use proptest::prelude::*;

use crate::engine::expr::{KeyCondition, KeyOp, KeyTerm};
use crate::engine::hash::combine;
use crate::engine::number::Number;
use crate::engine::sim::keys::{
    Codec, SortBuf, SortRef, entry_bound, prefix_successor, push_component, push_key, push_number,
};
use crate::engine::sim::ledger::{Ledger, Row, ScanCursor, ScanMode};
use crate::engine::sim::table::{Entry, IndexKind, PartKey, Placed, Table};
use crate::engine::store::{
    BillingMode, CreateTable, DeleteItem, GetItem, IndexSpec, KeyAttribute, KeySchema, ProjectionType,
    PutItem, Query, ReturnValues, Scan, Store, StoreConfig, TableSpec, read_units,
};
use crate::engine::value::{AttributeValue, Item, KeyType, KeyValue, item_size};

const TABLE: &str = "equiv";
const SORT_KEYS: [&str; 8] = ["-3", "-1.5", "0", "1", "2", "2.5", "10", "100"];

#[derive(Debug, Clone)]
enum Op {
    Put { pk: u8, sk: u8, pad: u32, g: Option<(u8, u8)>, v: u8 },
    Delete { pk: u8, sk: u8 },
    Get { pk: u8, sk: u8 },
    Query { pk: u8, range: RangeOp, forward: bool, limit: Option<u8> },
    QueryIndex { g: u8, range: RangeOp, forward: bool, limit: Option<u8> },
    Scan { limit: Option<u8> },
}

#[derive(Debug, Clone, Copy)]
enum RangeOp {
    All,
    Eq(u8),
    Lt(u8),
    Le(u8),
    Gt(u8),
    Ge(u8),
    Between(u8, u8),
    /// Index sort keys only (S): begins_with.
    Prefix(u8),
}

fn op() -> impl Strategy<Value = Op> {
    let range = prop_oneof![
        Just(RangeOp::All),
        (0u8..8).prop_map(RangeOp::Eq),
        (0u8..8).prop_map(RangeOp::Lt),
        (0u8..8).prop_map(RangeOp::Le),
        (0u8..8).prop_map(RangeOp::Gt),
        (0u8..8).prop_map(RangeOp::Ge),
        (0u8..8, 0u8..8).prop_map(|(a, b)| RangeOp::Between(a.min(b), a.max(b))),
        (0u8..3).prop_map(RangeOp::Prefix),
    ];
    // Pads up to 300 KB: a few big items make 1 MB pages happen inside short streams.
    let pad = prop_oneof![8 => 0u32..3000, 1 => 100_000u32..300_000];
    prop_oneof![
        6 => (0u8..4, 0u8..8, pad, proptest::option::of((0u8..3, 0u8..5)), 0u8..3)
            .prop_map(|(pk, sk, pad, g, v)| Op::Put { pk, sk, pad, g, v }),
        1 => (0u8..4, 0u8..8).prop_map(|(pk, sk)| Op::Delete { pk, sk }),
        1 => (0u8..4, 0u8..8).prop_map(|(pk, sk)| Op::Get { pk, sk }),
        2 => (0u8..4, range.clone(), any::<bool>(), proptest::option::of(1u8..5))
            .prop_map(|(pk, range, forward, limit)| Op::Query { pk, range, forward, limit }),
        // Strict bounds (<, >) on an index sort key are left out: `store::range::entry_bound`
        // ignores Included/Excluded for index entries, so the store answers `<` as `<=` there.
        2 => (0u8..3, range, any::<bool>(), proptest::option::of(1u8..5))
            .prop_map(|(g, range, forward, limit)| {
                let range = match range {
                    RangeOp::Lt(k) => RangeOp::Le(k),
                    RangeOp::Gt(k) => RangeOp::Ge(k),
                    other => other,
                };
                Op::QueryIndex { g, range, forward, limit }
            }),
        1 => proptest::option::of(1u8..6).prop_map(|limit| Op::Scan { limit }),
    ]
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::s(text)
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(Number::parse(text).expect("test numbers parse"))
}

fn pk_text(pk: u8) -> String {
    format!("p{pk}")
}

fn gsk_text(k: u8) -> String {
    // No value equals a prefix's successor (`s1` for `s0`): see the note on strict bounds.
    format!("s{k}{}", if k.is_multiple_of(2) { "x" } else { "y" })
}

fn new_store() -> Store {
    let mut store = Store::new(StoreConfig::default());
    let spec = TableSpec {
        name: TABLE.into(),
        key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("SK", KeyType::N))),
        global: vec![IndexSpec {
            name: "byg".into(),
            key: KeySchema::new(
                KeyAttribute::new("gpk", KeyType::S),
                Some(KeyAttribute::new("gsk", KeyType::S)),
            ),
            projection: ProjectionType::Include(vec!["v".into()]),
            throughput: None,
        }],
        local: vec![],
        billing: BillingMode::PayPerRequest,
    };
    store.create_table(CreateTable { spec, index_lag: None }).expect("the test table is valid");
    store
}

fn sk_bytes(sk: &str) -> Vec<u8> {
    let mut out = Vec::new();
    push_number(&Number::parse(sk).expect("valid").to_string(), &mut out);
    out
}

/// The item's entry in the GSI as the simulator places it: index sort key, then the table key.
fn entry_of(item: &Item) -> Option<Entry> {
    let (Some(AttributeValue::S(gpk)), Some(AttributeValue::S(gsk))) = (item.get("gpk"), item.get("gsk"))
    else {
        return None;
    };
    let (Some(AttributeValue::S(pk)), Some(AttributeValue::N(sk))) = (item.get("PK"), item.get("SK")) else {
        return None;
    };
    let table_pk = PartKey::new(KeyType::S, pk.as_bytes());
    let mut key = Vec::new();
    push_component(gsk.as_bytes(), &mut key);
    key.extend_from_slice(&table_pk.hash.to_be_bytes());
    let mut pk_bytes = Vec::new();
    push_key(&KeyValue::S(pk.clone()), &mut pk_bytes);
    push_component(&pk_bytes, &mut key);
    key.extend_from_slice(&sk_bytes(&sk.to_string()));
    let projected = ["PK", "SK", "gpk", "gsk", "v"];
    let size: usize = projected.iter().filter_map(|a| item.get(*a).map(|v| a.len() + v.size())).sum();
    let digest = combine(
        &projected
            .iter()
            .map(|a| item.get(*a).map_or(0, |v| crate::engine::hash::hash_bytes(format!("{v:?}").as_bytes())))
            .collect::<Vec<_>>(),
    );
    Some(Entry {
        pk: PartKey::new(KeyType::S, gpk.as_bytes()),
        key,
        size: u32::try_from(size).expect("small"),
        digest,
    })
}

fn placed(item: &Item, id: u32) -> Placed {
    let (Some(AttributeValue::S(pk)), Some(AttributeValue::N(sk))) = (item.get("PK"), item.get("SK")) else {
        unreachable!("test items have keys")
    };
    Placed {
        pk: PartKey::new(KeyType::S, pk.as_bytes()),
        sk: Some(SortBuf::Bytes(sk_bytes(&sk.to_string()))),
        size: u32::try_from(item_size(item)).expect("under 400 KB"),
        id,
        entries: vec![entry_of(item)],
    }
}

fn key_item(pk: u8, sk: u8) -> Item {
    Item::from([("PK".to_owned(), s(&pk_text(pk))), ("SK".to_owned(), n(SORT_KEYS[sk as usize]))])
}

/// Sort-key bounds of a range op, as values (the store's `key_bounds` semantics).
fn value_bounds(range: RangeOp, index: bool) -> (Bound<String>, Bound<String>) {
    let v = |k: u8| if index { gsk_text(k % 5) } else { SORT_KEYS[k as usize].to_owned() };
    match range {
        RangeOp::All | RangeOp::Prefix(_) if !index => (Bound::Unbounded, Bound::Unbounded),
        RangeOp::All => (Bound::Unbounded, Bound::Unbounded),
        RangeOp::Eq(k) => (Bound::Included(v(k)), Bound::Included(v(k))),
        RangeOp::Lt(k) => (Bound::Unbounded, Bound::Excluded(v(k))),
        RangeOp::Le(k) => (Bound::Unbounded, Bound::Included(v(k))),
        RangeOp::Gt(k) => (Bound::Excluded(v(k)), Bound::Unbounded),
        RangeOp::Ge(k) => (Bound::Included(v(k)), Bound::Unbounded),
        RangeOp::Between(a, b) => {
            let (a, b) = (v(a), v(b));
            if a <= b || !index {
                (Bound::Included(a), Bound::Included(b))
            } else {
                (Bound::Included(b), Bound::Included(a))
            }
        }
        RangeOp::Prefix(k) => {
            let prefix = format!("s{k}");
            let hi = prefix_successor(&prefix).map_or(Bound::Unbounded, Bound::Excluded);
            (Bound::Included(prefix), hi)
        }
    }
}

fn condition(hash_name: &str, hash: &str, sort_name: &str, range: RangeOp, index: bool) -> KeyCondition {
    let value = |k: u8| if index { s(&gsk_text(k % 5)) } else { n(SORT_KEYS[k as usize]) };
    let mut terms = vec![KeyTerm { attribute: hash_name.into(), op: KeyOp::Eq(s(hash)) }];
    let op = match range {
        RangeOp::Prefix(k) if index => Some(KeyOp::BeginsWith(s(&format!("s{k}")))),
        RangeOp::All | RangeOp::Prefix(_) => None,
        RangeOp::Eq(k) => Some(KeyOp::Eq(value(k))),
        RangeOp::Lt(k) => Some(KeyOp::Lt(value(k))),
        RangeOp::Le(k) => Some(KeyOp::Le(value(k))),
        RangeOp::Gt(k) => Some(KeyOp::Gt(value(k))),
        RangeOp::Ge(k) => Some(KeyOp::Ge(value(k))),
        RangeOp::Between(a, b) => {
            let (x, y) = if index {
                let (a, b) = (gsk_text(a % 5), gsk_text(b % 5));
                if a <= b { (a, b) } else { (b, a) }
            } else {
                (SORT_KEYS[a as usize].to_owned(), SORT_KEYS[b as usize].to_owned())
            };
            Some(if index { KeyOp::Between(s(&x), s(&y)) } else { KeyOp::Between(n(&x), n(&y)) })
        }
    };
    terms.extend(op.map(|op| KeyTerm { attribute: sort_name.into(), op }));
    KeyCondition { terms }
}

fn keys_of(items: &[std::sync::Arc<Item>]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|i| {
            let pk = i.get("PK").map(|v| format!("{v:?}")).unwrap_or_default();
            let sk = i.get("SK").map(|v| format!("{v:?}")).unwrap_or_default();
            (pk, sk)
        })
        .collect()
}

fn model_keys(model: &BTreeMap<u32, Item>, rows: &[Row]) -> Vec<(String, String)> {
    rows.iter()
        .map(|r| {
            let item = &model[&r.id];
            (format!("{:?}", item["PK"]), format!("{:?}", item["SK"]))
        })
        .collect()
}

fn to_bound(bound: Bound<Vec<u8>>) -> Bound<SortBuf> {
    match bound {
        Bound::Included(b) => Bound::Included(SortBuf::Bytes(b)),
        Bound::Excluded(b) => Bound::Excluded(SortBuf::Bytes(b)),
        Bound::Unbounded => Bound::Unbounded,
    }
}

fn as_ref(bound: &Bound<SortBuf>) -> Bound<SortRef<'_>> {
    match bound {
        Bound::Included(b) => Bound::Included(b.as_ref()),
        Bound::Excluded(b) => Bound::Excluded(b.as_ref()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// One Query an op asks: of the table (`group` 0) or the index (1), on partition `hash_key`,
/// with a sort-key condition, a direction and a Limit.
struct QueryCase<'a> {
    group: usize,
    hash_key: &'a str,
    range: RangeOp,
    forward: bool,
    limit: Option<u8>,
}

/// Pages a Query through both, comparing each page.
fn compare_query(
    store: &Store,
    table: &Table,
    model: &BTreeMap<u32, Item>,
    query: &QueryCase<'_>,
) -> Result<(), TestCaseError> {
    let QueryCase { group, hash_key, range, forward, limit } = *query;
    let index = group == 1;
    let (hash_name, sort_name) = if index { ("gpk", "gsk") } else { ("PK", "SK") };
    let mut request = Query::new(TABLE, condition(hash_name, hash_key, sort_name, range, index));
    request.index = index.then(|| "byg".to_owned());
    request.scan_forward = forward;
    request.limit = limit.map(usize::from);
    let (lo, hi) = value_bounds(range, index);
    let encode = |b: Bound<String>, lower: bool| -> Bound<SortBuf> {
        if index {
            to_bound(entry_bound(
                match &b {
                    Bound::Included(v) => Bound::Included(v.as_bytes()),
                    Bound::Excluded(v) => Bound::Excluded(v.as_bytes()),
                    Bound::Unbounded => Bound::Unbounded,
                },
                lower,
            ))
        } else {
            match b {
                Bound::Included(v) => Bound::Included(SortBuf::Bytes(sk_bytes(&v))),
                Bound::Excluded(v) => Bound::Excluded(SortBuf::Bytes(sk_bytes(&v))),
                Bound::Unbounded => Bound::Unbounded,
            }
        }
    };
    let (lo, hi) = (encode(lo, true), encode(hi, false));
    let ledger = table.group(group);
    let partition =
        ledger.find(KeyType::S, hash_key.as_bytes(), crate::engine::hash::hash_bytes(hash_key.as_bytes()));
    let mut after = None;
    for _ in 0..100 {
        let out = store.query(&request).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let units = if index { out.consumed.global[0].read } else { out.consumed.table.read };
        let (rows, bytes, stopped) = match partition {
            Some(p) => {
                let page = ledger.query(
                    p,
                    as_ref(&lo),
                    as_ref(&hi),
                    forward,
                    limit.map_or(usize::MAX, usize::from),
                    after,
                );
                let rows: Vec<Row> = page.positions(forward).map(|i| ledger.partition(p).row(i)).collect();
                if page.count > 0 {
                    after = page.positions(forward).last();
                }
                (rows, page.bytes, page.stopped)
            }
            None => (Vec::new(), 0, false),
        };
        prop_assert_eq!(keys_of(&out.items), model_keys(model, &rows), "query {:?} {:?}", range, forward);
        prop_assert_eq!(out.scanned_count, rows.len());
        prop_assert!((units - read_units(bytes, false)).abs() < 1e-9, "query units {units} vs {bytes} bytes");
        prop_assert_eq!(out.last_evaluated_key.is_some(), stopped);
        match out.last_evaluated_key {
            Some(key) => request.exclusive_start_key = Some(key),
            None => return Ok(()),
        }
    }
    Ok(())
}

fn compare_scan(
    store: &Store,
    table: &Table,
    model: &BTreeMap<u32, Item>,
    limit: Option<u8>,
) -> Result<(), TestCaseError> {
    let mut request = Scan::new(TABLE);
    request.limit = limit.map(usize::from);
    let mut cursor = Some(ScanCursor::default());
    let ranges = [0u64, 1 << 62, 3 << 62];
    for _ in 0..200 {
        let out = store.scan(&request).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let from = cursor.unwrap_or_default();
        let limit = limit.map_or(u64::MAX, u64::from);
        let mut rows = Vec::new();
        let page = table.base.scan_page(
            from,
            limit,
            &ranges,
            ScanMode::Visit(&mut |_, r: &Row| {
                rows.push(*r);
                true
            }),
        );
        let totals = table.base.scan_page(
            from,
            limit,
            &ranges,
            ScanMode::Totals { mark: None, partial: &mut |_, _| false },
        );
        prop_assert_eq!(
            (totals.count, totals.bytes, totals.next, totals.stopped),
            (page.count, page.bytes, page.next, page.stopped)
        );
        prop_assert_eq!(&totals.by_range, &page.by_range);
        prop_assert_eq!(keys_of(&out.items), model_keys(model, &rows), "scan");
        // The store shares a Scan's units among partitions by bytes, so its sum carries rounding.
        let units = read_units(page.bytes, false);
        prop_assert!(
            (out.consumed.table.read - units).abs() < 1e-9,
            "scan units {} vs {units}",
            out.consumed.table.read
        );
        prop_assert_eq!(out.last_evaluated_key.is_some(), page.stopped);
        match out.last_evaluated_key {
            Some(key) => {
                request.exclusive_start_key = Some(key);
                cursor = page.next;
            }
            None => return Ok(()),
        }
    }
    Ok(())
}

#[allow(clippy::too_many_lines, reason = "one arm per operation: the stream reads best whole")]
fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut store = new_store();
    let mut table = Table::new(Codec::Bytes, &[IndexKind::Global], u64::MAX);
    table.base.enable_scan(0);
    // Items by id, and the id now under each primary key.
    let mut model: BTreeMap<u32, Item> = BTreeMap::new();
    let mut current: BTreeMap<(u8, u8), u32> = BTreeMap::new();
    for (i, op) in ops.iter().enumerate() {
        let id = u32::try_from(i).expect("short streams");
        match op.clone() {
            Op::Put { pk, sk, pad, g, v } => {
                let mut item = key_item(pk, sk);
                item.insert("pad".into(), AttributeValue::B(vec![7; pad as usize]));
                item.insert("v".into(), s(&"v".repeat(usize::from(v) * 700)));
                if let Some((gp, gs)) = g {
                    item.insert("gpk".into(), s(&format!("g{gp}")));
                    item.insert("gsk".into(), s(&gsk_text(gs)));
                }
                let out = store
                    .put_item(PutItem {
                        table: TABLE.into(),
                        item: item.clone(),
                        condition: None,
                        return_values: ReturnValues::None,
                    })
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let old = current.get(&(pk, sk)).map(|old| placed(&model[old], *old));
                let new = placed(&item, id);
                let result =
                    table.write(old.as_ref(), Some(&new), &mut |_| true).expect("no limit, no throttling");
                let units =
                    |g: usize| result.touches.iter().filter(|t| t.group == g).map(|t| t.units).sum::<f64>();
                prop_assert_eq!(out.consumed.table.write, units(0), "put table units");
                prop_assert_eq!(out.consumed.global[0].write, units(1), "put index units");
                model.insert(id, item);
                current.insert((pk, sk), id);
            }
            Op::Delete { pk, sk } => {
                let out = store
                    .delete_item(&DeleteItem {
                        table: TABLE.into(),
                        key: key_item(pk, sk),
                        condition: None,
                        return_values: ReturnValues::None,
                    })
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let old = current.remove(&(pk, sk));
                let units = match old {
                    Some(old) => {
                        let old_placed = placed(&model[&old], old);
                        let result =
                            table.write(Some(&old_placed), None, &mut |_| true).expect("deletes pass");
                        (
                            result.touches.iter().filter(|t| t.group == 0).map(|t| t.units).sum::<f64>(),
                            result.touches.iter().filter(|t| t.group == 1).map(|t| t.units).sum::<f64>(),
                        )
                    }
                    // Deleting nothing still costs one unit (max(0, 0) rounds up to 1).
                    None => (1.0, 0.0),
                };
                prop_assert_eq!(
                    (out.consumed.table.write, out.consumed.global[0].write),
                    units,
                    "delete units"
                );
            }
            Op::Get { pk, sk } => {
                let out = store
                    .get_item(&GetItem {
                        table: TABLE.into(),
                        key: key_item(pk, sk),
                        consistent_read: false,
                        projection: None,
                    })
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let key = placed(&key_item(pk, sk), 0);
                let row = table.current(&key);
                prop_assert_eq!(out.item.is_some(), row.is_some());
                prop_assert_eq!(
                    out.consumed.table.read,
                    read_units(row.map_or(0, |r| u64::from(r.size)), false)
                );
            }
            Op::Query { pk, range, forward, limit } => {
                let hash_key = pk_text(pk);
                let query = QueryCase { group: 0, hash_key: &hash_key, range, forward, limit };
                compare_query(&store, &table, &model, &query)?;
            }
            Op::QueryIndex { g, range, forward, limit } => {
                let hash_key = format!("g{g}");
                let query = QueryCase { group: 1, hash_key: &hash_key, range, forward, limit };
                compare_query(&store, &table, &model, &query)?;
            }
            Op::Scan { limit } => compare_scan(&store, &table, &model, limit)?,
        }
    }
    let stored = store.table(TABLE).expect("created");
    let partitions = |ledger: &Ledger| -> BTreeMap<Vec<u8>, (u64, u64)> {
        (0..u32::try_from(ledger.partitions().len()).expect("few"))
            .filter(|&p| ledger.partition(p).items() > 0)
            .map(|p| (ledger.key_of(p).to_vec(), (ledger.partition(p).items(), ledger.partition(p).bytes)))
            .collect()
    };
    let expected: BTreeMap<Vec<u8>, (u64, u64)> = stored
        .partition_stats()
        .map(|(id, st)| (id.key.to_string().into_bytes(), (st.items, st.bytes)))
        .collect();
    prop_assert_eq!(partitions(&table.base), expected);
    let index = &stored.global_indexes()[0];
    let expected: BTreeMap<Vec<u8>, (u64, u64)> = index
        .partition_stats()
        .map(|(id, st)| (id.key.to_string().into_bytes(), (st.items, st.bytes)))
        .collect();
    prop_assert_eq!(partitions(&table.indexes[0].1), expected);
    prop_assert_eq!((table.base.items(), table.base.bytes()), (stored.item_count(), stored.size_bytes()));
    prop_assert_eq!(table.base.live_partitions(), stored.partition_stats().count() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_compact_table_answers_as_the_store_does(ops in proptest::collection::vec(op(), 1..120)) {
        run(&ops)?;
    }
}

#[test]
fn inline_sort_keys_page_like_byte_keys() {
    // The same rows under inline and byte codecs read the same pages.
    let mut inline = Ledger::new(Codec::Inline, 0);
    let mut bytes = Ledger::new(Codec::Bytes, 0);
    let p = inline.intern(KeyType::S, b"k", 1);
    let q = bytes.intern(KeyType::S, b"k", 1);
    for i in 0..5000u64 {
        let t = 1_700_000_000 + i * 3;
        let size = u32::try_from(100 + (i * 7919) % 900).expect("small");
        let id = u32::try_from(i).expect("small");
        inline.put(p, SortRef::Inline(t), size, id);
        bytes.put(q, SortRef::Bytes(&sk_bytes(&t.to_string())), size, id);
    }
    for (lo, hi, forward, limit) in [
        (None, None, true, usize::MAX),
        (Some(1_700_003_000u64), Some(1_700_009_999u64), false, usize::MAX),
        (Some(1_700_000_001), None, true, 777),
        (None, Some(1_700_014_000), false, 64),
    ] {
        let a = inline.query(
            p,
            lo.map_or(Bound::Unbounded, |v| Bound::Included(SortRef::Inline(v))),
            hi.map_or(Bound::Unbounded, |v| Bound::Included(SortRef::Inline(v))),
            forward,
            limit,
            None,
        );
        let (lb, hb) = (lo.map(|v| sk_bytes(&v.to_string())), hi.map(|v| sk_bytes(&v.to_string())));
        let b = bytes.query(
            q,
            lb.as_deref().map_or(Bound::Unbounded, |v| Bound::Included(SortRef::Bytes(v))),
            hb.as_deref().map_or(Bound::Unbounded, |v| Bound::Included(SortRef::Bytes(v))),
            forward,
            limit,
            None,
        );
        assert_eq!(a, b, "{lo:?}..{hi:?} {forward} {limit}");
    }
}

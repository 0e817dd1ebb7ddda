//! Secondary indexes: GSI write amplification, sparseness, projections, entry sizes, reads,
//! replication lag; LSI item collections and fetches; per-partition stats and DescribeTable.

use super::*;

#[test]
fn gsi_writes_cost_zero_one_or_two_entry_writes() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    let with_status = |status: Option<&str>, note: &str| {
        let mut item = key("c", "o1");
        item.insert("note".into(), s(note));
        if let Some(status) = status {
            item.insert("status".into(), s(status));
        }
        item
    };
    // (item written, GSI write units): not in the index → 0; enters → 1; unprojected attribute
    // changes → 0; index key changes → 2 (delete + put); leaves → 1.
    let steps = [
        (with_status(None, "a"), 0.0),
        (with_status(Some("PENDING"), "a"), 1.0),
        (with_status(Some("PENDING"), "b"), 0.0),
        (with_status(Some("SHIPPED"), "b"), 2.0),
        (with_status(None, "b"), 1.0),
    ];
    for (i, (item, units)) in steps.into_iter().enumerate() {
        let out = put(&mut store, item);
        assert_eq!(out.consumed.global[0].write, units, "step {i}");
        assert_eq!(out.consumed.table.write, 1.0, "step {i}");
        let touches = out.consumed.partitions.iter().filter(|t| t.target == Target::Global(0)).count();
        assert_eq!(touches as f64, units, "one touch per entry write, step {i}");
    }
}

#[test]
fn gsi_entry_writes_are_sized_by_the_entry() {
    // A 5 KB item: the table write is 5 WCU; a KEYS_ONLY entry (a few bytes) 1 WCU; an ALL entry 5.
    let table = TableSpec {
        global: vec![
            gsi("keys", "status", None, ProjectionType::KeysOnly),
            gsi("all", "status", None, ProjectionType::All),
            gsi("some", "status", None, ProjectionType::Include(vec!["data".into()])),
        ],
        ..spec("tbl")
    };
    let mut store = store_with(table);
    let mut item = sized("c", "o1", 5 * 1024 - 10);
    item.insert("status".into(), s("OPEN"));
    assert_eq!(crate::engine::value::item_size(&item), 5 * 1024);
    let out = put(&mut store, item);
    assert_eq!(out.consumed.table.write, 5.0);
    assert_eq!(out.consumed.global.iter().map(|u| u.write).collect::<Vec<_>>(), [1.0, 5.0, 5.0]);
    assert_eq!(out.consumed.total(), 16.0);
}

#[test]
fn gsis_are_sparse_and_project_what_they_declare() {
    let table = TableSpec {
        global: vec![
            gsi("keys", "status", None, ProjectionType::KeysOnly),
            gsi("some", "status", None, ProjectionType::Include(vec!["total".into()])),
            gsi("all", "status", None, ProjectionType::All),
        ],
        ..spec("tbl")
    };
    let mut store = store_with(table);
    put(
        &mut store,
        item(
            json!({"PK": {"S": "c"}, "SK": {"S": "o1"}, "status": {"S": "PENDING"}, "total": {"N": "5"}, "note": {"S": "hi"}}),
        ),
    );
    put(&mut store, item(json!({"PK": {"S": "c"}, "SK": {"S": "o2"}, "total": {"N": "7"}})));
    let t = store.table("tbl").unwrap();
    // Entry sizes: keys = PK(2+1) + SK(2+2) + status(6+7) = 20; +total(5+2) = 27; all +note(4+2) = 33.
    let sizes: Vec<u64> = t.global_indexes().iter().map(Index::size_bytes).collect();
    assert_eq!(sizes, [20 + 100, 27 + 100, 33 + 100]);
    assert!(t.global_indexes().iter().all(|i| i.item_count() == 1), "o2 has no status: not indexed");
    let expected = [
        json!({"PK": {"S": "c"}, "SK": {"S": "o1"}, "status": {"S": "PENDING"}}),
        json!({"PK": {"S": "c"}, "SK": {"S": "o1"}, "status": {"S": "PENDING"}, "total": {"N": "5"}}),
        json!({"PK": {"S": "c"}, "SK": {"S": "o1"}, "status": {"S": "PENDING"}, "total": {"N": "5"}, "note": {"S": "hi"}}),
    ];
    for (index, expected) in ["keys", "some", "all"].into_iter().zip(expected) {
        let query = Query {
            index: Some(index.into()),
            ..Query::new("tbl", KeyCondition { terms: vec![eq("status", s("PENDING"))] })
        };
        let out = store.query(&query).unwrap();
        assert_eq!(out.items.len(), 1, "{index}");
        assert_eq!(*out.items[0], item(expected), "{index}");
    }
}

#[test]
fn gsi_reads_are_eventually_consistent_and_sized_by_entries() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    for i in 0..3 {
        let mut item = sized("c", &format!("o{i}"), 8000);
        item.insert("status".into(), s("PENDING"));
        put(&mut store, item);
    }
    let query = Query {
        index: Some("byStatus".into()),
        ..Query::new("tbl", KeyCondition { terms: vec![eq("status", s("PENDING"))] })
    };
    let out = store.query(&query).unwrap();
    // Three small entries: one 4 KB unit, halved; the 8 KB items are never read.
    assert_eq!(out.consumed.total(), 0.5);
    assert_eq!(out.consumed.global[0].read, 0.5);
    assert_eq!(out.consumed.table.read, 0.0);
    let strong = Query { consistent_read: true, ..query };
    assert_eq!(
        message(store.query(&strong)),
        "Consistent reads are not supported on global secondary indexes"
    );
}

#[test]
fn index_lag_delays_gsi_visibility() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::All)], ..spec("tbl") };
    let config = StoreConfig { index_lag: SimDuration::from_secs(10), ..StoreConfig::default() };
    let mut store = store_with_config(table, config);
    let mut order = key("c", "o1");
    order.insert("status".into(), s("PENDING"));
    put(&mut store, order);
    let pending = Query {
        index: Some("byStatus".into()),
        ..Query::new("tbl", KeyCondition { terms: vec![eq("status", s("PENDING"))] })
    };
    assert_eq!(store.query(&pending).unwrap().count, 0, "not replicated yet");
    assert!(get(&store, key("c", "o1"), false).item.is_some(), "the table has it at once");
    assert_eq!(store.describe_table("tbl").unwrap().global[0].pending_changes, 1);
    assert_eq!(store.advance_by(SimDuration::from_secs(9)).index_changes_applied, 0);
    assert_eq!(store.query(&pending).unwrap().count, 0);
    assert_eq!(store.advance_by(SimDuration::from_secs(1)).index_changes_applied, 1);
    assert_eq!(store.query(&pending).unwrap().count, 1);
    // A table can override the store's lag.
    let mut other = spec("other");
    other.global = vec![gsi("gsi", "status", None, ProjectionType::All)];
    store.create_table(CreateTable { spec: other, index_lag: Some(SimDuration::ZERO) }).unwrap();
    assert_eq!(store.table("other").unwrap().index_lag(), SimDuration::ZERO);
}

#[test]
fn lsi_item_collections_are_limited() {
    let table = TableSpec { local: vec![lsi("byDate", "date", ProjectionType::All)], ..spec("tbl") };
    let config = StoreConfig { item_collection_limit: 10_000, ..StoreConfig::default() };
    let mut store = store_with_config(table, config);
    let dated = |sk: &str| {
        let mut item = sized("c", sk, 2000 - 12);
        item.insert("date".into(), s("2024-01-1"));
        assert_eq!(crate::engine::value::item_size(&item), 2001);
        item
    };
    // Each dated item adds 2,001 bytes to the table and 2,001 + 100 to the LSI.
    put(&mut store, dated("1"));
    put(&mut store, dated("2"));
    assert_eq!(
        store.table("tbl").unwrap().item_collection_bytes(&PartitionId::new(KeyValue::S("c".into()))),
        2 * 4102
    );
    let err = store
        .put_item(PutItem {
            table: "tbl".into(),
            item: dated("3"),
            condition: None,
            return_values: ReturnValues::None,
        })
        .unwrap_err();
    assert_eq!(err.type_name(), "ItemCollectionSizeLimitExceededException");
    assert!(err.to_string().contains("would hold 12306 bytes"), "{err}");
    // Another partition key is another collection; shrinking is always allowed.
    put(
        &mut store,
        dated("1").into_iter().map(|(k, v)| if k == "PK" { (k, s("d")) } else { (k, v) }).collect(),
    );
    put(&mut store, sized("c", "1", 100));
}

#[test]
fn lsi_reads_fetch_unprojected_attributes_at_extra_cost() {
    let table = TableSpec { local: vec![lsi("byDate", "date", ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    for sk in ["1", "2"] {
        let mut item = sized("c", sk, 5000);
        item.insert("date".into(), s("2024"));
        put(&mut store, item);
    }
    let by_date = |select| Query {
        index: Some("byDate".into()),
        select,
        consistent_read: true,
        ..Query::new("tbl", KeyCondition { terms: vec![eq("PK", s("c"))] })
    };
    // Projected attributes only: the small entries, one 4 KB unit.
    let projected = store.query(&by_date(None)).unwrap();
    assert_eq!(projected.consumed.total(), 1.0);
    assert!(projected.items.iter().all(|i| !i.contains_key("data")));
    // ALL_ATTRIBUTES fetches each 5,008-byte table item: 2 RCU each, plus the index read.
    let all = store.query(&by_date(Some(Select::AllAttributes))).unwrap();
    assert_eq!((all.consumed.local[0].read, all.consumed.table.read), (1.0, 4.0));
    assert!(all.items.iter().all(|i| i.contains_key("data")));
    let count = store.query(&by_date(Some(Select::Count))).unwrap();
    assert_eq!((count.count, count.items.len(), count.consumed.total()), (2, 0, 1.0));
}

#[test]
fn partition_stats_track_items_and_bytes() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    put(&mut store, sized("a", "1", 100));
    put(&mut store, sized("a", "2", 200));
    let mut with_status = sized("b", "1", 300);
    with_status.insert("status".into(), s("X"));
    put(&mut store, with_status.clone());
    let t = store.table("tbl").unwrap();
    assert_eq!(t.partition(&KeyValue::S("a".into())), Some(PartitionStats { items: 2, bytes: 300 }));
    assert_eq!(t.partition(&KeyValue::S("b".into())).unwrap().bytes, 300 + 7);
    assert_eq!((t.item_count(), t.size_bytes()), (3, 607));
    assert_eq!(t.partition_stats().count(), 2);
    let gsi = &t.global_indexes()[0];
    // Entry: PK(2+1) + SK(2+1) + status(6+1) = 13, plus 100 bytes of overhead.
    assert_eq!(gsi.partition(&KeyValue::S("X".into())), Some(PartitionStats { items: 1, bytes: 113 }));
    // Deleting the last item of a partition removes the partition.
    store
        .delete_item(&DeleteItem {
            table: "tbl".into(),
            key: key("b", "1"),
            condition: None,
            return_values: ReturnValues::AllOld,
        })
        .unwrap();
    let t = store.table("tbl").unwrap();
    assert_eq!(t.partition(&KeyValue::S("b".into())), None);
    assert_eq!(t.global_indexes()[0].item_count(), 0);
}

#[test]
fn describe_table_reports_counts_and_sizes() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    let mut item = sized("a", "1", 1000);
    item.insert("status".into(), s("X"));
    put(&mut store, item);
    let description = store.describe_table("tbl").unwrap();
    assert_eq!((description.item_count, description.size_bytes), (1, 1007));
    assert_eq!(description.global, [IndexDescription { item_count: 1, size_bytes: 113, pending_changes: 0 }]);
    assert_eq!(description.created_secs, 0);
}

#[test]
fn index_range_bounds_treat_equal_sort_keys_as_one_value() {
    // Four items share GSI sort key "2"; the bounds must take or leave all four together.
    let table = TableSpec {
        global: vec![gsi("byDay", "board", Some("day"), ProjectionType::KeysOnly)],
        ..spec("tbl")
    };
    let mut store = store_with(table);
    let days = ["1", "2", "2", "2", "2", "3"];
    for (i, day) in days.iter().enumerate() {
        let mut item = key("c", &format!("o{i}"));
        item.insert("board".into(), s("B"));
        item.insert("day".into(), s(day));
        put(&mut store, item);
    }
    let on = |op: KeyOp| Query {
        index: Some("byDay".into()),
        ..Query::new(
            "tbl",
            KeyCondition { terms: vec![eq("board", s("B")), KeyTerm { attribute: "day".into(), op }] },
        )
    };
    // (condition, entries returned)
    let cases = [
        (KeyOp::Gt(s("2")), 1),
        (KeyOp::Ge(s("2")), 5),
        (KeyOp::Lt(s("2")), 1),
        (KeyOp::Le(s("2")), 5),
        (KeyOp::Eq(s("2")), 4),
        (KeyOp::Between(s("2"), s("2")), 4),
        (KeyOp::BeginsWith(s("2")), 4),
    ];
    for (op, count) in cases {
        let label = format!("{op:?}");
        let forward = store.query(&on(op.clone())).unwrap();
        assert_eq!(forward.count, count, "{label}");
        let backward = store.query(&Query { scan_forward: false, ..on(op) }).unwrap();
        assert_eq!(backward.count, count, "{label}, backwards");
    }
}

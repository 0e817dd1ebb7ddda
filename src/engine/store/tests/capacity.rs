//! Capacity rules with AWS's worked examples: rounding, minimum charges, max(old, new), the
//! 400 KB item limit, batch writes, and the partitions a write touches.

use super::*;

#[test]
fn write_units_round_up_to_1kb() {
    // (item bytes, WCU): 1,024 bytes = 1 WCU but 1,025 = 2 (AWS).
    for (bytes, units) in
        [(100, 1.0), (1024, 1.0), (1025, 2.0), (2048, 2.0), (10 * 1024, 10.0), (409_600, 400.0)]
    {
        let mut store = store_with(spec("tbl"));
        let out = put(&mut store, sized("a", "b", bytes));
        assert_eq!(out.consumed.total(), units, "{bytes} bytes");
        assert_eq!(out.consumed.table.write, units);
    }
}

#[test]
fn get_item_rounds_each_item_to_4kb() {
    // (item bytes, strongly consistent RCU, eventually consistent RCU); 4,096 = 1 but 4,097 = 2.
    for (bytes, strong, eventual) in [(100, 1.0, 0.5), (4096, 1.0, 0.5), (4097, 2.0, 1.0), (10_000, 3.0, 1.5)]
    {
        let mut store = store_with(spec("tbl"));
        put(&mut store, sized("a", "b", bytes));
        assert_eq!(get(&store, key("a", "b"), true).consumed.total(), strong, "{bytes} strong");
        assert_eq!(get(&store, key("a", "b"), false).consumed.total(), eventual, "{bytes} eventual");
    }
}

#[test]
fn a_missing_item_still_costs_the_minimum_read() {
    let store = store_with(spec("tbl"));
    let strong = get(&store, key("nobody", "x"), true);
    assert!(strong.item.is_none());
    assert_eq!(strong.consumed.total(), 1.0);
    assert_eq!(get(&store, key("nobody", "x"), false).consumed.total(), 0.5);
}

#[test]
fn query_rounds_once_and_batch_get_rounds_each_item() {
    // Three items of 1.5 KB + 6.5 KB + 1.5 KB under one partition key (strongly consistent):
    // Query reads 9.5 KB → 3 RCU; BatchGetItem rounds each: 1 + 2 + 1 = 4 RCU.
    let mut store = store_with(spec("tbl"));
    for (sk, bytes) in [("1", 1536), ("2", 6656), ("3", 1536)] {
        put(&mut store, sized("CUSTOMER#42", sk, bytes));
    }
    let query = Query { consistent_read: true, ..query_pk("CUSTOMER#42") };
    let out = store.query(&query).unwrap();
    assert_eq!((out.count, out.scanned_count), (3, 3));
    assert_eq!(out.consumed.total(), 3.0);
    let batch = BatchGetItem {
        tables: vec![BatchGetTable {
            table: "tbl".into(),
            keys: ["1", "2", "3"].iter().map(|sk| key("CUSTOMER#42", sk)).collect(),
            consistent_read: true,
            projection: None,
        }],
    };
    let out = store.batch_get_item(&batch).unwrap();
    assert_eq!(out.responses["tbl"].len(), 3);
    assert_eq!(out.consumed[0].1.total(), 4.0);
}

#[test]
fn overwriting_charges_the_larger_of_old_and_new() {
    // A 10 KB item overwritten by a 9-byte one costs 10 WCU; deleting a missing item costs 1.
    let hash_only =
        TableSpec { key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), None), ..spec("tbl") };
    let mut store = store_with(hash_only);
    let mut big = item(json!({"PK": {"S": "abcdefg"}}));
    big.insert("data".into(), s(&"x".repeat(10 * 1024 - 13)));
    assert_eq!(put(&mut store, big).consumed.total(), 10.0);
    let small = item(json!({"PK": {"S": "abcdefg"}}));
    assert_eq!(crate::engine::value::item_size(&small), 9);
    assert_eq!(put(&mut store, small).consumed.total(), 10.0);
    let delete = DeleteItem {
        table: "tbl".into(),
        key: item(json!({"PK": {"S": "zz"}})),
        condition: None,
        return_values: ReturnValues::None,
    };
    assert_eq!(store.delete_item(&delete).unwrap().consumed.total(), 1.0);
}

#[test]
fn item_size_limit_is_400kb() {
    let mut store = store_with(spec("tbl"));
    put(&mut store, sized("a", "b", 409_600));
    let too_big = PutItem {
        table: "tbl".into(),
        item: sized("a", "c", 409_601),
        condition: None,
        return_values: ReturnValues::None,
    };
    assert_eq!(message(store.put_item(too_big)), "Item size has exceeded the maximum allowed size");
    assert_eq!(store.table("tbl").unwrap().item_count(), 1);
}

#[test]
fn writes_report_the_partitions_they_touch() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    let mut item = sized("CUSTOMER#42", "ORDER#1", 2000);
    item.insert("status".into(), s("PENDING"));
    let out = put(&mut store, item);
    let touches: Vec<_> =
        out.consumed.partitions.iter().map(|t| (t.target, t.key.clone(), t.read, t.write)).collect();
    assert_eq!(
        touches,
        [
            (Target::Table, KeyValue::S("CUSTOMER#42".into()), 0.0, 2.0),
            (Target::Global(0), KeyValue::S("PENDING".into()), 0.0, 1.0),
        ]
    );
    assert_eq!(out.consumed.partitions[0].hash, PartitionId::new(KeyValue::S("CUSTOMER#42".into())).hash);
}

#[test]
fn batch_write_applies_puts_and_deletes() {
    let mut store = store_with(spec("tbl"));
    put(&mut store, sized("a", "old", 3000));
    let out = store
        .batch_write_item(BatchWriteItem {
            tables: vec![(
                "tbl".into(),
                vec![
                    WriteRequest::Put(sized("a", "1", 1500)),
                    WriteRequest::Put(sized("a", "2", 100)),
                    WriteRequest::Delete(key("a", "old")),
                ],
            )],
        })
        .unwrap();
    assert_eq!(out.consumed[0].1.total(), 2.0 + 1.0 + 3.0);
    assert_eq!(store.table("tbl").unwrap().item_count(), 2);
}

#[test]
fn batch_get_stops_at_16mb_and_returns_the_rest_unprocessed() {
    // 50 items of 400 KB: the 41st takes the response past 16 MB; 9 keys come back unprocessed.
    let mut store = store_with(spec("tbl"));
    for i in 0..50 {
        put(&mut store, sized("p", &format!("{i:02}"), 409_600));
    }
    let request = BatchGetItem {
        tables: vec![BatchGetTable {
            table: "tbl".into(),
            keys: (0..50).map(|i| key("p", &format!("{i:02}"))).collect(),
            consistent_read: true,
            projection: None,
        }],
    };
    let out = store.batch_get_item(&request).unwrap();
    assert_eq!(out.responses["tbl"].len(), 41);
    assert_eq!(out.unprocessed.len(), 1);
    assert_eq!(out.unprocessed[0].keys.len(), 9);
    assert_eq!(out.unprocessed[0].keys[0], key("p", "41"));
    assert_eq!(out.consumed[0].1.total(), 41.0 * 100.0, "unprocessed keys cost nothing");
}

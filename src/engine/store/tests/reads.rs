//! Query and Scan: the 1 MB page, Limit and pagination in both directions, sort-key conditions,
//! Scan order and segments; and what writes return.

use super::*;

#[test]
fn pages_stop_after_1mb_read() {
    // 100 KB items: ten are 1,024,000 bytes, the eleventh crosses 1 MB and ends the page.
    let mut store = store_with(spec("tbl"));
    for i in 0..15 {
        put(&mut store, sized("big", &format!("{i:02}"), 102_400));
    }
    let first = store.query(&Query { consistent_read: true, ..query_pk("big") }).unwrap();
    assert_eq!(first.scanned_count, 11);
    assert_eq!(first.last_evaluated_key, Some(key("big", "10")));
    assert_eq!(first.consumed.total(), 275.0, "1,126,400 bytes / 4 KB");
    let second = store
        .query(&Query {
            consistent_read: true,
            exclusive_start_key: first.last_evaluated_key,
            ..query_pk("big")
        })
        .unwrap();
    assert_eq!(second.scanned_count, 4);
    assert_eq!(second.last_evaluated_key, None);
    let scan = store.scan(&Scan::new("tbl")).unwrap();
    assert_eq!((scan.scanned_count, scan.consumed.total()), (11, 137.5));
}

#[test]
fn limit_counts_items_read_and_pagination_resumes() {
    let mut store = store_with(spec("tbl"));
    for sk in ["a", "b", "c", "d", "e"] {
        put(&mut store, sized("p", sk, 50));
    }
    for (forward, expected) in [(true, "abcde"), (false, "edcba")] {
        let mut seen = String::new();
        let mut start = None;
        let mut pages = 0;
        loop {
            let query =
                Query { limit: Some(2), scan_forward: forward, exclusive_start_key: start, ..query_pk("p") };
            let out = store.query(&query).unwrap();
            pages += 1;
            for item in &out.items {
                let Some(AttributeValue::S(sk)) = item.get("SK") else { panic!("SK is a string") };
                seen.push_str(sk);
            }
            start = out.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        assert_eq!(seen, expected);
        // 2 + 2 + 1: the last page is short, so it has no LastEvaluatedKey.
        assert_eq!(pages, 3);
    }
    let limited = store.query(&Query { limit: Some(5), ..query_pk("p") }).unwrap();
    assert_eq!(
        limited.last_evaluated_key,
        Some(key("p", "e")),
        "Limit reached: DynamoDB returns a key even at the end"
    );
}

#[test]
fn sort_key_conditions_select_ranges() {
    let mut store = store_with(spec("tbl"));
    for sk in ["ORDER#1", "ORDER#2", "ORDER#3", "ORDER$", "PROFILE", "ORDER"] {
        put(&mut store, sized("c", sk, 60));
    }
    let sk_term = |op| KeyTerm { attribute: "SK".into(), op };
    let cases = [
        (KeyOp::BeginsWith(s("ORDER#")), vec!["ORDER#1", "ORDER#2", "ORDER#3"]),
        (KeyOp::Between(s("ORDER#2"), s("ORDER$")), vec!["ORDER#2", "ORDER#3", "ORDER$"]),
        (KeyOp::Lt(s("ORDER#2")), vec!["ORDER", "ORDER#1"]),
        (KeyOp::Le(s("ORDER#2")), vec!["ORDER", "ORDER#1", "ORDER#2"]),
        (KeyOp::Gt(s("ORDER$")), vec!["PROFILE"]),
        (KeyOp::Ge(s("ORDER$")), vec!["ORDER$", "PROFILE"]),
        (KeyOp::Eq(s("PROFILE")), vec!["PROFILE"]),
        (KeyOp::Eq(s("MISSING")), vec![]),
    ];
    for (op, expected) in cases {
        let condition = KeyCondition { terms: vec![eq("PK", s("c")), sk_term(op.clone())] };
        let out = store.query(&Query::new("tbl", condition)).unwrap();
        let got: Vec<_> = out.items.iter().map(|i| i["SK"].clone()).collect();
        let expected: Vec<_> = expected.into_iter().map(s).collect();
        assert_eq!(got, expected, "{op:?}");
    }
}

#[test]
fn scan_walks_hash_order_and_segments_split_it() {
    let mut store = store_with(spec("tbl"));
    for i in 0..40 {
        put(&mut store, sized(&format!("user-{i}"), "profile", 40));
    }
    let all = store.scan(&Scan::new("tbl")).unwrap();
    let hashes: Vec<u64> =
        all.items.iter().map(|i| PartitionId::new(i["PK"].as_key().expect("PK is a key")).hash).collect();
    assert!(hashes.windows(2).all(|w| w[0] < w[1]), "hash order");
    let mut paged = Vec::new();
    let mut start = None;
    loop {
        let out =
            store.scan(&Scan { limit: Some(7), exclusive_start_key: start, ..Scan::new("tbl") }).unwrap();
        paged.extend(out.items);
        start = out.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    assert_eq!(paged, all.items);
    let mut segmented: Vec<_> = (0..4)
        .flat_map(|seg| store.scan(&Scan { segment: Some((seg, 4)), ..Scan::new("tbl") }).unwrap().items)
        .collect();
    assert_eq!(segmented.len(), 40);
    segmented.sort_by_key(|i| PartitionId::new(i["PK"].as_key().expect("PK is a key")).hash);
    assert_eq!(segmented, all.items);
}

#[test]
fn put_return_values() {
    let mut store = store_with(spec("tbl"));
    let request = |return_values| PutItem {
        table: "tbl".into(),
        item: sized("a", "b", 30),
        condition: None,
        return_values,
    };
    assert!(store.put_item(request(ReturnValues::AllOld)).unwrap().attributes.is_none(), "nothing was there");
    let old = store.put_item(request(ReturnValues::AllOld)).unwrap().attributes.unwrap();
    assert_eq!(*old, sized("a", "b", 30));
    assert!(store.put_item(request(ReturnValues::None)).unwrap().attributes.is_none());
    for bad in [ReturnValues::AllNew, ReturnValues::UpdatedOld, ReturnValues::UpdatedNew] {
        assert_eq!(message(store.put_item(request(bad))), "ReturnValues can only be ALL_OLD or NONE");
        let delete =
            DeleteItem { table: "tbl".into(), key: key("a", "b"), condition: None, return_values: bad };
        assert_eq!(message(store.delete_item(&delete)), "ReturnValues can only be ALL_OLD or NONE");
    }
    let delete = DeleteItem {
        table: "tbl".into(),
        key: key("a", "b"),
        condition: None,
        return_values: ReturnValues::AllOld,
    };
    assert_eq!(*store.delete_item(&delete).unwrap().attributes.unwrap(), sized("a", "b", 30));
}

//! Store rules that need parsed expressions: filters (charged before filtering), conditions
//! (charged when they fail), updates (GSI key changes, key attributes, upserts, ReturnValues) and
//! projections (which never change the charge).

use crate::engine::expr::{
    self, Condition, ExpressionContext, ExpressionKind, Projection, Update, parse_condition,
    parse_projection, parse_update,
};
use crate::engine::value::item_from_json;

use super::*;

/// An expression context with `values` (DynamoDB JSON) and no names.
fn ctx(values: &Json) -> ExpressionContext {
    let values = item_from_json(values).expect("test values are valid");
    ExpressionContext::new(std::collections::BTreeMap::new(), values)
}

fn condition(text: &str, values: &Json) -> Condition {
    parse_condition(ExpressionKind::Condition, text, &mut ctx(values)).expect("test condition parses")
}

fn filter(text: &str, values: &Json) -> Condition {
    parse_condition(ExpressionKind::Filter, text, &mut ctx(values)).expect("test filter parses")
}

fn update(text: &str, values: &Json) -> Update {
    parse_update(text, &mut ctx(values)).expect("test update parses")
}

fn projection(text: &str) -> Projection {
    parse_projection(text, &mut ExpressionContext::default()).expect("test projection parses")
}

fn update_request(key: Item, update: Option<Update>, return_values: ReturnValues) -> UpdateItem {
    UpdateItem { table: "tbl".into(), key, update, condition: None, return_values }
}

#[test]
fn a_filter_that_matches_nothing_still_costs_the_full_read() {
    let mut store = store_with(spec("tbl"));
    for (sk, bytes) in [("1", 3000), ("2", 3000), ("3", 3000)] {
        put(&mut store, sized("c", sk, bytes));
    }
    let unfiltered = store.query(&Query { consistent_read: true, ..query_pk("c") }).unwrap();
    let filtered = store
        .query(&Query {
            consistent_read: true,
            filter: Some(filter("attribute_exists(nothing)", &json!({}))),
            ..query_pk("c")
        })
        .unwrap();
    assert_eq!((filtered.count, filtered.scanned_count), (0, 3));
    assert!(filtered.items.is_empty());
    assert_eq!(filtered.consumed.total(), 3.0, "9,000 bytes read → 3 RCU");
    assert_eq!(filtered.consumed.total(), unfiltered.consumed.total());
    // Select COUNT reads (and costs) the same.
    let count =
        store.scan(&Scan { select: Some(Select::Count), consistent_read: true, ..Scan::new("tbl") }).unwrap();
    assert_eq!((count.count, count.items.len(), count.consumed.total()), (3, 0, 3.0));
}

#[test]
fn a_failed_condition_still_charges_the_write() {
    let mut store = store_with(spec("tbl"));
    put(&mut store, sized("c", "1", 3000));
    let exists = || condition("attribute_not_exists(PK)", &json!({}));
    // (request, WCU charged): max(old 3,000, new) rounded to 1 KB; a delete's new size is 0.
    let put_small = PutItem {
        table: "tbl".into(),
        item: sized("c", "1", 100),
        condition: Some(exists()),
        return_values: ReturnValues::None,
    };
    let put_big = PutItem { item: sized("c", "1", 5000), ..put_small.clone() };
    let delete = DeleteItem {
        table: "tbl".into(),
        key: key("c", "1"),
        condition: Some(exists()),
        return_values: ReturnValues::None,
    };
    let grow = UpdateItem {
        condition: Some(exists()),
        ..update_request(
            key("c", "1"),
            Some(update("SET padding = :p", &json!({":p": {"S": "x".repeat(7000)}}))),
            ReturnValues::None,
        )
    };
    let results: Vec<(StoreError, f64)> = vec![
        (store.put_item(put_small).unwrap_err(), 3.0),
        (store.put_item(put_big).unwrap_err(), 5.0),
        (store.delete_item(&delete).unwrap_err(), 3.0),
        (store.update_item(&grow).unwrap_err(), 10.0),
    ];
    for (i, (error, units)) in results.into_iter().enumerate() {
        assert_eq!(error.type_name(), "ConditionalCheckFailedException", "case {i}");
        assert_eq!(error.to_string(), "The conditional request failed");
        let consumed = error.consumed().expect("a failed condition carries its charge");
        assert_eq!(consumed.total(), units, "case {i}");
        assert_eq!(consumed.global.len(), 0);
    }
    assert_eq!(*get(&store, key("c", "1"), true).item.unwrap(), sized("c", "1", 3000), "nothing changed");
}

#[test]
fn conditions_that_hold_let_the_write_through() {
    let mut store = store_with(spec("tbl"));
    let create = PutItem {
        table: "tbl".into(),
        item: sized("c", "1", 100),
        condition: Some(condition("attribute_not_exists(PK)", &json!({}))),
        return_values: ReturnValues::None,
    };
    assert!(store.put_item(create.clone()).is_ok(), "absent item: the condition sees an empty map");
    assert!(store.put_item(create).is_err(), "now it exists");
}

#[test]
fn an_update_that_changes_a_gsi_key_costs_two_index_writes() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    let mut order = key("c", "o1");
    order.insert("status".into(), s("PENDING"));
    put(&mut store, order);
    // `status` is a DynamoDB reserved word, hence `#s`.
    let set = |text: &str, values: &Json| {
        let names =
            [("#s".to_owned(), "status".to_owned())].into_iter().filter(|_| text.contains("#s")).collect();
        let mut context = ExpressionContext::new(names, item_from_json(values).expect("valid values"));
        let parsed = expr::parse_update(text, &mut context).expect("test update parses");
        update_request(key("c", "o1"), Some(parsed), ReturnValues::None)
    };
    // (update, GSI write units): key change → delete + put; unprojected attribute → none;
    // removing the key attribute → one delete; adding it back → one put.
    let steps = [
        (set("SET #s = :v", &json!({":v": {"S": "SHIPPED"}})), 2.0),
        (set("SET note = :v", &json!({":v": {"S": "fragile"}})), 0.0),
        (set("REMOVE #s", &json!({})), 1.0),
        (set("SET #s = :v", &json!({":v": {"S": "DONE"}})), 1.0),
    ];
    for (i, (request, units)) in steps.into_iter().enumerate() {
        let out = store.update_item(&request).unwrap();
        assert_eq!(out.consumed.global[0].write, units, "step {i}");
        assert_eq!(out.consumed.table.write, 1.0, "step {i}");
    }
    let t = store.table("tbl").unwrap();
    assert_eq!(t.global_indexes()[0].partition(&KeyValue::S("DONE".into())).map(|p| p.items), Some(1));
    assert_eq!(t.global_indexes()[0].item_count(), 1);
}

#[test]
fn updates_may_not_touch_key_attributes_and_upsert_missing_items() {
    let mut store = store_with(spec("tbl"));
    let touch_key = update_request(
        key("c", "1"),
        Some(update("SET SK = :v", &json!({":v": {"S": "2"}}))),
        ReturnValues::None,
    );
    let error = store.update_item(&touch_key).unwrap_err();
    assert_eq!(
        error.to_string(),
        "One or more parameter values were invalid: Cannot update attribute SK. This attribute is part of the key"
    );
    // UpdateItem on a missing item creates it: with the key alone when there is no update.
    let bare = store.update_item(&update_request(key("c", "1"), None, ReturnValues::AllNew)).unwrap();
    assert_eq!(*bare.attributes.unwrap(), key("c", "1"));
    assert_eq!(bare.consumed.total(), 1.0);
    // An update that grows the item past 400 KB is refused.
    let huge = update_request(
        key("c", "1"),
        Some(update("SET padding = :p", &json!({":p": {"S": "x".repeat(409_600)}}))),
        ReturnValues::None,
    );
    assert_eq!(
        store.update_item(&huge).unwrap_err().to_string(),
        "Item size to update has exceeded the maximum allowed size"
    );
}

#[test]
fn update_return_values() {
    let mut store = store_with(spec("tbl"));
    put(&mut store, item(json!({"PK": {"S": "c"}, "SK": {"S": "1"}, "n": {"N": "1"}, "keep": {"S": "k"}})));
    let bump = || update("SET n = n + :one, added = :one", &json!({":one": {"N": "1"}}));
    // n goes 1 → 2 → 3 → 4 → 5 → 6, one update per case.
    let cases = [
        (ReturnValues::None, None),
        (
            ReturnValues::AllOld,
            Some(
                json!({"PK": {"S": "c"}, "SK": {"S": "1"}, "n": {"N": "2"}, "keep": {"S": "k"}, "added": {"N": "1"}}),
            ),
        ),
        (ReturnValues::UpdatedOld, Some(json!({"n": {"N": "3"}, "added": {"N": "1"}}))),
        (
            ReturnValues::AllNew,
            Some(
                json!({"PK": {"S": "c"}, "SK": {"S": "1"}, "n": {"N": "5"}, "keep": {"S": "k"}, "added": {"N": "1"}}),
            ),
        ),
        (ReturnValues::UpdatedNew, Some(json!({"n": {"N": "6"}, "added": {"N": "1"}}))),
    ];
    for (return_values, expected) in cases {
        let out = store.update_item(&update_request(key("c", "1"), Some(bump()), return_values)).unwrap();
        assert_eq!(out.attributes.as_deref().cloned(), expected.map(item), "{return_values:?}");
    }
}

#[test]
fn projections_shape_the_result_but_not_the_charge() {
    let mut store = store_with(spec("tbl"));
    let mut order = sized("c", "1", 5000);
    order.insert("cost".into(), AttributeValue::n(7));
    put(&mut store, order);
    let got = store
        .get_item(&GetItem {
            table: "tbl".into(),
            key: key("c", "1"),
            consistent_read: true,
            projection: Some(projection("cost")),
        })
        .unwrap();
    assert_eq!(*got.item.unwrap(), item(json!({"cost": {"N": "7"}})));
    assert_eq!(got.consumed.total(), 2.0, "a 5,009-byte item costs 2 RCU however little is returned");
    let queried = store.query(&Query { projection: Some(projection("SK, cost")), ..query_pk("c") }).unwrap();
    assert_eq!(*queried.items[0], item(json!({"SK": {"S": "1"}, "cost": {"N": "7"}})));
    let mixed = Query { projection: Some(projection("SK")), select: Some(Select::Count), ..query_pk("c") };
    assert!(
        store
            .query(&mixed)
            .unwrap_err()
            .to_string()
            .contains("cannot be combined with a ProjectionExpression")
    );
}

#[test]
fn index_reads_see_only_what_the_index_projects() {
    let table = TableSpec {
        global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)],
        local: vec![lsi("byDate", "date", ProjectionType::KeysOnly)],
        ..spec("tbl")
    };
    let mut store = store_with(table);
    put(
        &mut store,
        item(
            json!({"PK": {"S": "c"}, "SK": {"S": "1"}, "status": {"S": "OPEN"}, "date": {"S": "d"}, "cost": {"N": "7"}}),
        ),
    );
    // A GSI never fetches: a projected-away attribute is simply absent.
    let gsi_query = Query {
        index: Some("byStatus".into()),
        projection: Some(projection("SK, cost")),
        ..Query::new("tbl", KeyCondition { terms: vec![eq("status", s("OPEN"))] })
    };
    let out = store.query(&gsi_query).unwrap();
    assert_eq!(*out.items[0], item(json!({"SK": {"S": "1"}})));
    assert_eq!(out.consumed.table.read, 0.0);
    // An LSI fetches the table item when the filter needs an unprojected attribute.
    let lsi_query = Query {
        index: Some("byDate".into()),
        filter: Some(filter("cost > :n", &json!({":n": {"N": "5"}}))),
        consistent_read: true,
        ..query_pk("c")
    };
    let out = store.query(&lsi_query).unwrap();
    assert_eq!(out.count, 1);
    assert_eq!((out.consumed.local[0].read, out.consumed.table.read), (1.0, 1.0));
    // The fetch serves the filter; the result is still the projected entry.
    assert_eq!(*out.items[0], item(json!({"PK": {"S": "c"}, "SK": {"S": "1"}, "date": {"S": "d"}})));
}

//! Limits that hold wherever a value enters the store: key attributes in a Query's filter, the
//! 32 nesting levels and non-empty names of an updated item, index key sizes, and the message
//! of an update that grows past 400 KB.

use std::collections::BTreeMap;

use crate::engine::expr::{Condition, ExpressionContext, ExpressionKind, parse_condition, parse_update};
use crate::engine::value::item_from_json;

use super::*;

/// An expression context with `names` and `values` (DynamoDB JSON).
fn ctx(names: &[(&str, &str)], values: &Json) -> ExpressionContext {
    let names: BTreeMap<String, String> =
        names.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    ExpressionContext::new(names, item_from_json(values).expect("test values are valid"))
}

fn filter(text: &str) -> Condition {
    parse_condition(ExpressionKind::Filter, text, &mut ctx(&[], &json!({":v": {"S": "x"}})))
        .expect("test filter parses")
}

fn update(text: &str, names: &[(&str, &str)], values: &Json) -> UpdateItem {
    let update = parse_update(text, &mut ctx(names, values)).expect("test update parses");
    UpdateItem {
        table: "tbl".into(),
        key: key("a", "1"),
        update: Some(update),
        condition: None,
        return_values: ReturnValues::None,
    }
}

/// `levels` maps around a string: the string sits `levels` levels below the map's own level.
fn nested_maps(levels: usize) -> Json {
    (0..levels).fold(json!({"S": "leaf"}), |inner, _| json!({"M": {"a": inner}}))
}

const TOO_DEEP: &str = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

#[test]
fn a_query_filter_may_not_read_the_queried_key_attributes() {
    let table = TableSpec {
        global: vec![gsi("byG", "gp", Some("gs"), ProjectionType::All)],
        local: vec![lsi("byLs", "ls", ProjectionType::All)],
        ..spec("tbl")
    };
    let mut store = store_with(table);
    put(
        &mut store,
        item(
            json!({"PK": {"S": "a"}, "SK": {"S": "1"}, "gp": {"S": "g"}, "gs": {"S": "t"}, "ls": {"S": "l"}}),
        ),
    );
    let refused = |name: &str| {
        format!(
            "Filter Expression can only contain non-primary key attributes: Primary key attribute: {name}"
        )
    };
    let table_query = query_pk("a");
    let global_query = Query {
        index: Some("byG".into()),
        ..Query::new("tbl", KeyCondition { terms: vec![eq("gp", s("g"))] })
    };
    let local_query = Query { index: Some("byLs".into()), ..query_pk("a") };
    // (query, filter, refused key attribute or None)
    let cases = [
        (&table_query, "SK = :v", Some("SK")),
        (&table_query, "PK = :v OR note = :v", Some("PK")),
        (&table_query, "size(SK) > size(:v)", Some("SK")),
        (&table_query, "note = :v", None),
        // An index query refuses the index's key attributes, not the table's.
        (&global_query, "gs = :v", Some("gs")),
        (&global_query, "gp <> :v", Some("gp")),
        (&global_query, "SK = :v AND PK = :v", None),
        (&local_query, "ls = :v", Some("ls")),
        (&local_query, "PK = :v", Some("PK")),
        (&local_query, "SK = :v", None),
    ];
    for (query, text, refused_key) in cases {
        let result = store.query(&Query { filter: Some(filter(text)), ..query.clone() });
        match refused_key {
            Some(name) => assert_eq!(message(result), refused(name), "{text}"),
            None => assert!(result.is_ok(), "{text}: {result:?}"),
        }
    }
    // The rule is Query's: a Scan may filter on key attributes.
    let scan = store.scan(&Scan { filter: Some(filter("SK = :v OR PK = :v")), ..Scan::new("tbl") }).unwrap();
    assert_eq!((scan.count, scan.scanned_count), (0, 1));
}

#[test]
fn an_update_may_not_nest_past_32_levels_or_write_an_empty_name() {
    let mut store = store_with(spec("tbl"));
    put(&mut store, item(json!({"PK": {"S": "a"}, "SK": {"S": "1"}, "d": {"M": {"a": {"M": {}}}}})));
    // `d` is level 1, `d.a` level 2, `d.a.b` level 3: a value of n maps ends n levels further down.
    // (update, names, values, error or None)
    let cases = [
        ("SET d.a.b = :v", vec![], json!({":v": nested_maps(29)}), None),
        ("SET d.a.b = :v", vec![], json!({":v": nested_maps(30)}), Some(TOO_DEEP)),
        ("SET d.a.c = list_append(:l, :l)", vec![], json!({":l": {"L": [nested_maps(28)]}}), None),
        ("SET d.a.c = list_append(:l, :l)", vec![], json!({":l": {"L": [nested_maps(29)]}}), Some(TOO_DEEP)),
        ("SET e = :v", vec![], json!({":v": nested_maps(31)}), None),
        (
            "SET #e = :v",
            vec![("#e", "")],
            json!({":v": {"N": "1"}}),
            Some(
                "One or more parameter values were invalid: An attribute name must be at least one character long",
            ),
        ),
        (
            "SET d.#e = :v",
            vec![("#e", "")],
            json!({":v": {"N": "1"}}),
            Some(
                "One or more parameter values were invalid: An attribute name must be at least one character long",
            ),
        ),
    ];
    for (text, names, values, error) in cases {
        let before = get(&store, key("a", "1"), true).item;
        let result = store.update_item(&update(text, &names, &values));
        match error {
            Some(text) => {
                assert_eq!(message(result), text);
                assert_eq!(get(&store, key("a", "1"), true).item, before, "a refused update writes nothing");
            }
            None => assert!(result.is_ok(), "{text}: {result:?}"),
        }
    }
}

#[test]
fn index_key_values_fit_the_key_quotas_on_every_write() {
    let table = TableSpec {
        global: vec![gsi("byStatus", "status", Some("at"), ProjectionType::KeysOnly)],
        ..spec("tbl")
    };
    let mut store = store_with(table);
    let hash_too_big = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes";
    let range_too_big = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes";
    let text = |n: usize| "x".repeat(n);
    let with = |attribute: &str, value: String| {
        let mut item = key("a", "1");
        item.insert(attribute.to_owned(), AttributeValue::S(value));
        PutItem { table: "tbl".into(), item, condition: None, return_values: ReturnValues::None }
    };
    assert!(store.put_item(with("status", text(2048))).is_ok());
    assert!(store.put_item(with("at", text(1024))).is_ok());
    assert_eq!(message(store.put_item(with("status", text(2049)))), hash_too_big);
    assert_eq!(message(store.put_item(with("at", text(1025)))), range_too_big);
    let set_at = update("SET #at = :v", &[("#at", "at")], &json!({":v": {"S": text(1025)}}));
    assert_eq!(message(store.update_item(&set_at)), range_too_big);
    let batch = BatchWriteItem {
        tables: vec![("tbl".into(), vec![WriteRequest::Put(with("status", text(2049)).item)])],
    };
    assert_eq!(message(store.batch_write_item(batch)), hash_too_big);
}

#[test]
fn an_update_past_400_kb_says_so_in_its_own_words() {
    let mut store = store_with(spec("tbl"));
    put(&mut store, sized("a", "1", 300_000));
    let grow = update("SET more = :v", &[], &json!({":v": {"S": "y".repeat(200_000)}}));
    assert_eq!(
        message(store.update_item(&grow)),
        "Item size to update has exceeded the maximum allowed size"
    );
    let put_big = PutItem {
        table: "tbl".into(),
        item: sized("a", "2", 409_601),
        condition: None,
        return_values: ReturnValues::None,
    };
    assert_eq!(message(store.put_item(put_big)), "Item size has exceeded the maximum allowed size");
    assert!(
        store
            .put_item(PutItem {
                table: "tbl".into(),
                item: sized("a", "2", 409_600),
                condition: None,
                return_values: ReturnValues::None
            })
            .is_ok()
    );
}

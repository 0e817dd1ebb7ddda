//! The console against the reference store: a replay runs for a while, every item of its table
//! is loaded (through `Simulation::partitions` and `Simulation::items_in`) into an
//! `engine::store::Store` with the same key schema, and a table of requests (every page of the
//! paged ones) must get byte-identical answers from both. Then: Cassandra's tables, refusals,
//! and no input of any shape panics.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value as Json, json};

use super::*;
use crate::engine::sim::RunOptions;
use crate::engine::store::PAGE_BYTES;
use crate::engine::time::SimDuration;
use crate::engine::value::AttributeValue;
use crate::ops::short::ConsoleRead;
use crate::scenario;

/// A console line answered as the workbench answers it: parsed by `keyheat ops`'s code, which
/// the engine does not depend on (only its tests do, to hold the two together).
fn ask(sim: &Simulation, line: &str) -> Result<Json, crate::ops::short::LineError> {
    crate::ops::short::console(sim, line)
}

/// A replay of a fixture scenario's text after `edits`, run for `ticks` ticks.
fn replay(name: &str, edits: &[(&str, &str)], variant: &str, ticks: u32) -> Simulation {
    let mut source = crate::engine::testing::fixture_source(name).to_owned();
    for (from, to) in edits {
        assert!(source.contains(from), "the edit {from:?} applies to {name}");
        source = source.replace(from, to);
    }
    let loaded = scenario::parse("test.ron", &source).unwrap_or_else(|e| panic!("{e}"));
    let variant = loaded.scenario.variant(variant).expect("the variant exists");
    let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(30 * 86_400)) };
    let mut sim = Simulation::new(&loaded.scenario, variant, &options).expect("the replay starts");
    for _ in 0..ticks {
        sim.step();
    }
    sim
}

/// `orders` made small, with two more indexes: a GSI without a sort key (entries tie on the
/// table key) and a keys-only LSI whose name DynamoDB would refuse (served under an alias).
fn orders() -> Simulation {
    let edits = [
        ("(name: \"customers\", count: 20000", "(name: \"customers\", count: 40"),
        ("(name: \"orders\", count: 20000", "(name: \"orders\", count: 300"),
        ("(name: \"products\", count: 50000", "(name: \"products\", count: 50"),
        (
            "only_when: (\"status\", \"PENDING\"),\n                ),",
            "only_when: (\"status\", \"PENDING\"),\n                ),
                (name: \"by-customer\", keys: {\"Order\": (pk: \"{customer_id}\")}, projection: KeysOnly),
                (name: \"by total\", kind: Local, keys: {\"Order\": (sk: \"{total}\")}, projection: KeysOnly),",
        ),
    ];
    // An hour of 10-second ticks: orders placed, items added, orders shipped (leaving the index).
    replay("orders", &edits, "recommended", 360)
}

/// `sensors` as a DynamoDB table with one sensor over two days: time sort keys (kept inline in
/// the rows) and a partition of more than 1 MB.
fn readings() -> Simulation {
    let edits = [
        ("engine: Cassandra", "engine: DynamoDB"),
        ("(name: \"sensors\", count: 50", "(name: \"sensors\", count: 1"),
        ("rate: 3.3333", "rate: 0.066667"),
        // The reads of whole days are what a replay spends its time on; they do not matter here.
        ("rate: 0.1,", "rate: 0.0001,"),
        ("rate: 0.00058,", "rate: 0.0000001,"),
        // Hour-long ticks: the replay's per-tick work is not what is tested.
        ("tick: \"1m\"", "tick: \"1h\""),
        // A sort key for sensors too (DynamoDB: all items of a table have one), in partitions of
        // their own.
        (
            "\"Sensor\": (pk: \"{sensor_id}\"),",
            "\"Sensor\": (pk: \"SENSOR#{sensor_id}\", sk: \"{installed_at}\"),",
        ),
    ];
    replay("sensors", &edits, "naive", 48)
}

/// Every item of the replay's tables in a store of the same schema.
fn reference_store(sim: &Simulation) -> Store {
    let aliases = sim.aliases();
    let mut store = Store::new(StoreConfig::default());
    for t in 0..sim.world.tables.len() {
        let spec = sim.table_spec(t, &aliases);
        store.create_table(CreateTable { spec, index_lag: None }).expect("the replay's schema is valid");
    }
    let mut loaded = 0;
    for view in sim.partitions() {
        let Some(t) = sim.table_named(&view.group) else { continue };
        let table = alias_of(&aliases, &sim.world.tables[t].name);
        for item in sim.items_in(&view.group, &view.key, usize::MAX) {
            let put = PutItem {
                table: table.clone(),
                item: item.item,
                condition: None,
                return_values: ReturnValues::None,
            };
            store.put_item(put).expect("regenerated items are valid DynamoDB items");
            loaded += 1;
        }
    }
    let items: u64 = sim.tables.iter().map(|t| t.base.items()).sum();
    assert_eq!(loaded, items, "every row of the replay was loaded");
    store
}

/// The reference answer: the request run on the whole table.
fn reference(sim: &Simulation, store: &mut Store, request: &str) -> Result<String, String> {
    let aliases = sim.aliases();
    let mut read = ConsoleRead::parse(request).map_err(|e| e.to_string())?;
    read.rename(&|name| aliases.iter().find(|(real, _)| real == name).map(|(_, a)| a.clone()));
    let mut answer =
        read.answer(store).map_err(|e| ConsoleError::Answer(unalias_error(&aliases, e)).to_string())?;
    unalias(&aliases, &mut answer);
    Ok(answer.to_string())
}

/// Sends `request` and each next page (by LastEvaluatedKey) to both; returns the pages read.
fn agree(sim: &Simulation, store: &mut Store, request: &Json) -> usize {
    let mut request = request.clone();
    for page in 1..=2000 {
        let text = request.to_string();
        let want = reference(sim, store, &text);
        let got = ask(sim, &text).map(|answer| answer.to_string()).map_err(|e| e.to_string());
        assert_eq!(got, want, "page {page} of {text}");
        let Ok(answer) = got else { return page };
        let answer: Json = serde_json::from_str(&answer).expect("answers are JSON");
        match answer.get("LastEvaluatedKey") {
            Some(key) => request["ExclusiveStartKey"] = key.clone(),
            None => return page,
        }
    }
    panic!("more than 2000 pages: {request}");
}

fn s(text: &str) -> Json {
    json!({ "S": text })
}

/// Distinct values of an attribute among items, sorted.
fn values(items: &[Item], name: &str) -> Vec<Json> {
    let mut out: Vec<Json> = items.iter().filter_map(|i| i.get(name)).map(AttributeValue::to_json).collect();
    out.sort_by_key(Json::to_string);
    out.dedup();
    out
}

/// Requests on one partition of `orders`: every sort-key operator, both orders, pages of a few
/// items, a filter with a projection, COUNT, GetItem (found and missing), the keys-only LSI.
fn partition_requests(sim: &Simulation, table: &str, pk: &str) -> Vec<Json> {
    let mut out = Vec::new();
    let items: Vec<Item> = sim.items_in(table, pk, usize::MAX).into_iter().map(|v| v.item).collect();
    let sks = values(&items, "SK");
    let mid = sks[sks.len() / 2].clone();
    let first = sks[0].clone();
    let query = |cond: &str, values: Json, extra: Json| {
        let mut q = json!({"op": "Query", "TableName": table, "KeyConditionExpression": cond,
            "ExpressionAttributeValues": values, "ReturnConsumedCapacity": "INDEXES"});
        if let (Json::Object(q), Json::Object(extra)) = (&mut q, extra) {
            q.extend(extra);
        }
        q
    };
    let pkv = json!({":p": s(pk)});
    let both = |v: &Json| json!({":p": s(pk), ":v": v});
    out.push(query("PK = :p", pkv.clone(), json!({})));
    out.push(query("PK = :p", pkv.clone(), json!({"Limit": 2})));
    out.push(query("PK = :p", pkv.clone(), json!({"Limit": 1, "ScanIndexForward": false})));
    out.push(query("PK = :p", pkv.clone(), json!({"Select": "COUNT", "Limit": 3})));
    for op in ["=", "<", "<=", ">", ">="] {
        out.push(query(&format!("PK = :p AND SK {op} :v"), both(&mid), json!({"Limit": 2})));
    }
    out.push(query(
        "PK = :p AND SK BETWEEN :v AND :w",
        json!({":p": s(pk), ":v": first, ":w": mid}),
        json!({"ScanIndexForward": false, "Limit": 2}),
    ));
    out.push(query("PK = :p AND begins_with(SK, :v)", both(&s("ORDER#")), json!({"Limit": 3})));
    out.push(query("PK = :p AND begins_with(SK, :v)", both(&s("ITEM#0")), json!({})));
    out.push(query(
        "PK = :p",
        json!({":p": s(pk), ":s": s("DELIVERED")}),
        json!({"FilterExpression": "#s = :s", "ExpressionAttributeNames": {"#s": "status", "#t": "total"},
            "ProjectionExpression": "order_id, #t", "Limit": 4}),
    ));
    for sk in sks.iter().take(2) {
        out.push(json!({"op": "GetItem", "TableName": table, "Key": {"PK": s(pk), "SK": sk},
            "ReturnConsumedCapacity": "TOTAL"}));
    }
    out.push(json!({"op": "GetItem", "TableName": table, "Key": {"PK": s(pk), "SK": s("NOPE")},
        "ProjectionExpression": "total", "ReturnConsumedCapacity": "INDEXES"}));
    // The keys-only LSI: its own entries, or the table's items fetched (ALL_ATTRIBUTES).
    let lsi = |extra: Json| {
        query("PK = :p AND LSI1SK > :v", both(&json!({"N": "50"})), json!({"IndexName": "by total"}))
            .as_object()
            .map(|q| {
                let mut q = q.clone();
                if let Json::Object(extra) = extra {
                    q.extend(extra);
                }
                Json::Object(q)
            })
            .expect("an object")
    };
    out.push(lsi(json!({})));
    out.push(lsi(json!({"Select": "ALL_ATTRIBUTES", "Limit": 1, "ScanIndexForward": false})));
    out
}

/// Requests across `orders`: the sparse GSI (pending orders by time), the GSI without a sort
/// key, Scans paged through the table and each index (filtered, counted, one segment),
/// BatchGetItem, and requests the store refuses.
fn table_requests(table: &str, pk: &str, customer: &str) -> Vec<Json> {
    let mut requests = Vec::new();
    let pending = json!({"op": "Query", "TableName": table, "IndexName": "pending",
        "KeyConditionExpression": "#s = :p", "ExpressionAttributeNames": {"#s": "status"},
        "ExpressionAttributeValues": {":p": s("PENDING")}, "ReturnConsumedCapacity": "INDEXES"});
    requests.push(pending.clone());
    let mut paged = pending.clone();
    paged["Limit"] = json!(2);
    requests.push(paged.clone());
    paged["ScanIndexForward"] = json!(false);
    paged["KeyConditionExpression"] = json!("#s = :p AND placed_at < :t");
    paged["ExpressionAttributeValues"][":t"] = json!({"N": "1735700000"});
    requests.push(paged);
    let mut consistent = pending.clone();
    consistent["ConsistentRead"] = json!(true);
    requests.push(consistent);
    requests.push(json!({"op": "Query", "TableName": table, "IndexName": "by-customer", "Limit": 1,
        "KeyConditionExpression": "customer_id = :c", "ExpressionAttributeValues": {":c": s(customer)},
        "ReturnConsumedCapacity": "INDEXES"}));
    requests.push(json!({"op": "Scan", "TableName": table, "Limit": 25, "ReturnConsumedCapacity": "TOTAL"}));
    requests.push(
        json!({"op": "Scan", "TableName": table, "Limit": 40, "FilterExpression": "attribute_exists(#s)",
        "ExpressionAttributeNames": {"#s": "status"}, "Select": "COUNT"}),
    );
    requests.push(json!({"op": "Scan", "TableName": table, "Segment": 2, "TotalSegments": 5, "Limit": 30}));
    requests.push(json!({"op": "Scan", "TableName": table, "IndexName": "pending", "Limit": 3}));
    requests.push(json!({"op": "Scan", "TableName": table, "IndexName": "by-customer", "Limit": 16}));
    requests.push(json!({"op": "Scan", "TableName": table, "IndexName": "by total", "Limit": 16,
        "ReturnConsumedCapacity": "INDEXES"}));
    requests.push(json!({"op": "BatchGetItem", "RequestItems": {table: {"Keys": [
        {"PK": s(pk), "SK": s("PROFILE")}, {"PK": s("CUSTOMER#nobody"), "SK": s("PROFILE")}]}},
        "ReturnConsumedCapacity": "INDEXES"}));
    requests.push(json!({"op": "GetItem", "TableName": "nope", "Key": {"PK": s("a")}}));
    requests.push(json!({"op": "GetItem", "TableName": table, "Key": {"PK": s("a")}}));
    requests.push(
        json!({"op": "Query", "TableName": table, "IndexName": "nope", "KeyConditionExpression": "PK = :p",
        "ExpressionAttributeValues": {":p": s("a")}}),
    );
    requests.push(json!({"op": "Query", "TableName": table, "KeyConditionExpression": "PK = :p AND SK > :v",
        "ExpressionAttributeValues": {":p": s("a"), ":v": {"N": "1"}}}));
    requests.push(json!({"op": "Query", "TableName": table, "KeyConditionExpression": "PK = :p",
        "ExpressionAttributeValues": {":p": s(pk)}, "ExclusiveStartKey": {"PK": s("elsewhere"), "SK": s("x")}}));
    requests
}

#[test]
fn the_console_answers_as_a_store_holding_the_whole_table() {
    let sim = orders();
    let mut store = reference_store(&sim);
    let table = "orders";
    // The busiest customer partitions (profile and orders), an order's line items, one with one item.
    let mut parts: Vec<_> = sim.partitions().into_iter().filter(|p| p.group == table).collect();
    parts.sort_by_key(|p| std::cmp::Reverse(p.items));
    let mut pks: Vec<String> = parts.iter().take(3).map(|p| p.key.clone()).collect();
    pks.extend(parts.iter().find(|p| p.key.starts_with("ORDER#")).map(|p| p.key.clone()));
    pks.extend(parts.last().map(|p| p.key.clone()));
    let customer = pks.iter().find_map(|k| k.strip_prefix("CUSTOMER#")).expect("a customer partition");
    let mut requests: Vec<Json> = pks.iter().flat_map(|pk| partition_requests(&sim, table, pk)).collect();
    requests.extend(table_requests(table, &pks[0], customer));
    let mut read = 0;
    for request in &requests {
        read += agree(&sim, &mut store, request);
    }
    assert!(read > requests.len() + 40, "the paged requests read many pages ({read})");
}

#[test]
fn one_megabyte_pages_and_time_sort_keys_match_the_store() {
    let sim = readings();
    let mut store = reference_store(&sim);
    let table = "sensors";
    let part = sim
        .partitions()
        .into_iter()
        .filter(|p| p.group == table)
        .max_by_key(|p| p.items)
        .expect("a partition");
    assert!(part.bytes > PAGE_BYTES, "a partition of more than a page ({} bytes)", part.bytes);
    let items: Vec<Item> = sim.items_in(table, &part.key, usize::MAX).into_iter().map(|v| v.item).collect();
    let sks = values(&items, "SK");
    let (a, b) = (sks[sks.len() / 3].clone(), sks[sks.len() / 2].clone());
    let q = |cond: &str, values: Json, forward: bool| {
        json!({"op": "Query", "TableName": table, "KeyConditionExpression": cond, "ExpressionAttributeValues": values,
            "ScanIndexForward": forward, "ReturnConsumedCapacity": "INDEXES"})
    };
    let pk = s(&part.key);
    let requests = [
        q("PK = :p", json!({":p": pk}), true),
        q("PK = :p", json!({":p": pk}), false),
        q("PK = :p AND SK BETWEEN :a AND :b", json!({":p": pk, ":a": a, ":b": b}), false),
        // Bounds between whole seconds, and below every key.
        q(
            "PK = :p AND SK > :a",
            json!({":p": pk, ":a": {"N": format!("{}.5", a["N"].as_str().unwrap_or("0"))}}),
            true,
        ),
        q("PK = :p AND SK < :a", json!({":p": pk, ":a": {"N": "-3.5"}}), true),
        q("PK = :p AND SK <= :a", json!({":p": pk, ":a": b}), false),
        json!({"op": "Scan", "TableName": table, "ReturnConsumedCapacity": "TOTAL"}),
        json!({"op": "Scan", "TableName": table, "FilterExpression": "temperature > :t",
            "ExpressionAttributeValues": {":t": {"N": "25"}}, "Select": "COUNT"}),
        json!({"op": "GetItem", "TableName": table, "Key": {"PK": pk, "SK": a}, "ReturnConsumedCapacity": "TOTAL"}),
        json!({"op": "GetItem", "TableName": table, "Key": {"PK": pk, "SK": {"N": "1.5"}}}),
    ];
    let mut pages = 0;
    for request in &requests {
        pages += agree(&sim, &mut store, request);
    }
    assert!(pages >= 14, "full pages of 1 MB: {pages}");
}

#[test]
fn short_forms_read_the_replay() {
    let sim = orders();
    let tables = sim.console_tables();
    assert_eq!(tables[0].name, "orders");
    assert_eq!((tables[0].pk.as_str(), tables[0].sk.as_deref()), ("PK", Some("SK")));
    let names: Vec<&str> = tables[0].indexes.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["pending", "by-customer", "by total"]);
    let get = ask(&sim, r#"get pk = "CUSTOMER#c0000001" and sk = "PROFILE""#).expect("answered").to_string();
    assert!(get.contains(r#""CapacityUnits":0.5"#) && get.contains(r#""email""#), "{get}");
    let query =
        ask(&sim, r#"query index pending pk = "PENDING" desc limit 2"#).expect("answered").to_string();
    assert!(
        query.contains(r#""Count":2"#) && query.contains(r#""GlobalSecondaryIndexes":{"pending""#),
        "{query}"
    );
    let lsi = ask(&sim, r#"query index "by total" pk = "CUSTOMER#c0000001" and sk > 0 count"#)
        .expect("answered")
        .to_string();
    assert!(lsi.contains(r#""LocalSecondaryIndexes":{"by total""#), "{lsi}");
    let scan = ask(&sim, "scan limit 5 filter status = \"DELIVERED\"").expect("answered").to_string();
    assert!(scan.contains(r#""ScannedCount":5"#), "{scan}");
    let mistakes = [
        ("get pk = ", r#"col 9: expected a quoted string or a number after "=""#),
        (r#"{"op": "PutItem", "TableName": "orders", "Item": {}}"#, "PutItem writes: the console only reads"),
        (r#"{"op": "Query", "TableName": "orders"}"#, "ValidationException: "),
        (
            r#"{"op": "GetItem", "TableName": "nope", "Key": {"PK": {"S": "a"}}}"#,
            "ResourceNotFoundException: ",
        ),
        (
            r#"{"op": "Query", "TableName": "orders", "IndexName": "by total", "KeyConditionExpression": "PK = :p", "ExpressionAttributeValues": {":p": {"S": "a"}}, "Select": "SPECIFIC_ATTRIBUTES"}"#,
            "ValidationException: One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires",
        ),
    ];
    for (request, want) in mistakes {
        let error = ask(&sim, request).expect_err(request).to_string();
        assert!(error.starts_with(want), "{request}: {error}");
        assert!(!error.contains("keyheat-alias"), "{error}");
    }
}

#[test]
fn cassandra_tables_are_read_per_entity_without_capacity_units() {
    let edits = [("(name: \"sensors\", count: 50", "(name: \"sensors\", count: 3")];
    let sim = replay("sensors", &edits, "recommended", 600);
    let names: Vec<String> = sim.console_tables().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["Sensor", "Reading"]);
    let sensor = ask(&sim, r#"get table Sensor pk = "sensor-00001""#).expect("answered").to_string();
    assert!(sensor.contains(r#""site""#) && sensor.contains("capacity units do not apply"), "{sensor}");
    assert!(!sensor.contains("ConsumedCapacity"), "{sensor}");
    let readings = ask(&sim, r#"query table Reading pk = "sensor-00002#2025-01-01" desc limit 3"#)
        .expect("answered")
        .to_string();
    let answer: Json = serde_json::from_str(&readings).expect("JSON");
    // CQL's words: rows, a row count, the rows read, a paging state.
    assert_eq!(answer["RowCount"], json!(3), "{readings}");
    assert_eq!(answer["RowsRead"], json!(3), "{readings}");
    assert!(answer["Rows"][0]["temperature"].is_object(), "{readings}");
    assert!(answer.get("PagingState").is_some(), "{readings}");
    for dynamodb in ["Items", "Count", "ScannedCount", "LastEvaluatedKey"] {
        assert!(answer.get(dynamodb).is_none(), "{dynamodb} in {readings}");
    }
    assert!(sensor.contains(r#""Row""#), "{sensor}");
    // The default table is the first; its key has no sort key.
    let error =
        ask(&sim, r#"get pk = "sensor-00001" and sk = 1"#).expect_err("Sensor has no sort key").to_string();
    assert!(error.contains("it has no sort key"), "{error}");
}

/// A JSON-ish request: pieces of real requests in arbitrary combinations.
fn request() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just(json!({"S": "CUSTOMER#c0000001"})),
        Just(json!({"S": "PROFILE"})),
        Just(json!({"S": ""})),
        Just(json!({"N": "1735689600"})),
        Just(json!({"N": "-1e100"})),
        Just(json!({"B": "AAE="})),
        Just(json!({"L": []})),
        Just(json!({"N": 5})),
        "[a-zA-Z#0-9]{0,12}".prop_map(|t| json!({"S": t})),
    ];
    let name = prop_oneof![
        Just("PK"),
        Just("SK"),
        Just("status"),
        Just("placed_at"),
        Just("customer_id"),
        Just("LSI1SK"),
        Just("x"),
    ];
    let key = proptest::collection::btree_map(name.clone(), value.clone(), 0..4)
        .prop_map(|m| Json::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()));
    let condition = prop_oneof![
        Just("PK = :a"),
        Just("PK = :a AND SK > :b"),
        Just("PK = :a AND SK BETWEEN :a AND :b"),
        Just("PK = :a AND begins_with(SK, :b)"),
        Just("#s = :a AND placed_at <= :b"),
        Just("customer_id = :a"),
        Just("PK = :a AND LSI1SK < :b"),
        Just("SK = :a"),
        Just("PK < :a"),
        Just("PK = :a OR SK = :b"),
        Just("(("),
    ];
    let fields = (
        prop_oneof![
            Just("GetItem"),
            Just("Query"),
            Just("Scan"),
            Just("BatchGetItem"),
            Just("PutItem"),
            Just("Nope")
        ],
        prop_oneof![Just("orders"), Just("nope"), Just("")],
        proptest::option::of(prop_oneof![Just("pending"), Just("by-customer"), Just("by total"), Just("x")]),
        proptest::option::of(condition),
        (value.clone(), value),
        (key.clone(), proptest::option::of(key)),
        (proptest::option::of(0u64..5), proptest::option::of(0u64..4), proptest::option::of(0u64..4)),
        (
            any::<bool>(),
            any::<bool>(),
            proptest::option::of(prop_oneof![Just("COUNT"), Just("ALL_ATTRIBUTES"), Just("X")]),
        ),
    );
    fields.prop_map(
        |(
            op,
            table,
            index,
            cond,
            (a, b),
            (key, start),
            (limit, segment, total),
            (forward, names, select),
        )| {
            let mut r = json!({"op": op, "TableName": table, "Key": key, "ScanIndexForward": forward,
            "ExpressionAttributeValues": {":a": a, ":b": b}, "ReturnConsumedCapacity": "INDEXES"});
            let mut set = |k: &str, v: Json| r[k] = v;
            if let Some(index) = index {
                set("IndexName", json!(index));
            }
            if let Some(cond) = cond {
                set("KeyConditionExpression", json!(cond));
            }
            if names {
                set("ExpressionAttributeNames", json!({"#s": "status"}));
            }
            if let Some(start) = start {
                set("ExclusiveStartKey", start);
            }
            if let Some(limit) = limit {
                set("Limit", json!(limit));
            }
            if let Some(segment) = segment {
                set("Segment", json!(segment));
            }
            if let Some(total) = total {
                set("TotalSegments", json!(total));
            }
            if let Some(select) = select {
                set("Select", json!(select));
            }
            if op == "BatchGetItem" {
                r = json!({"op": op, "RequestItems": {table: {"Keys": [r["Key"].clone()]}}});
            }
            r.to_string()
        },
    )
}

#[test]
fn no_request_makes_the_console_panic() {
    let sim = orders();
    let mut runner = TestRunner::new(Config { cases: 300, ..Config::default() });
    runner
        .run(&request(), |request| {
            let _ = ask(&sim, &request);
            Ok(())
        })
        .expect("no panic");
    runner
        .run(&"\\PC{0,60}", |line| {
            let _ = ask(&sim, &line);
            let _ = ask(&sim, &format!("{{{line}"));
            Ok(())
        })
        .expect("no panic");
}

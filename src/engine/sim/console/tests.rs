//! The console against the reference store: a replay runs for a while, every item of its table
//! is loaded (through `Simulation::partitions` and `Simulation::items_in`) into an
//! `engine::store::Store` with the same key schema, and a table of requests (every page of the
//! paged ones) must get identical answers from both. Then: Cassandra's tables, the store's
//! refusals under the real names, and no request of any shape panics.
//!
//! Requests are built from the store's own types ([`Direct`]), as a protocol builds them; the
//! engine knows no protocol. `ops::short`'s tests send the console lines through `keyheat ops`'s
//! parser.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value as Json, json};

use super::*;
use crate::engine::expr::{self, ExpressionContext, ExpressionKind};
use crate::engine::store::{BatchGetTable, ConsumedCapacity, PAGE_BYTES, QueryOutput, Select, Units};
use crate::engine::testing::requests::{attribute_value, index_name, key_condition, key_of, table_name};
use crate::engine::testing::{console_orders as orders, replay};
use crate::engine::value::{AttributeValue, item_from_json, item_to_json};

/// A read built from the store's request types, answered with the store's output under
/// `keyheat ops`'s field names, so the console's renaming and CQL words apply to it.
#[derive(Debug, Clone)]
enum Direct {
    Get(GetItem),
    Query(Query),
    Scan(Scan),
    Batch(BatchGetItem),
}

impl ConsoleRequest for Direct {
    fn read(&self) -> Read<'_> {
        match self {
            Direct::Get(get) => Read::GetItem(get),
            Direct::Query(query) => Read::Query(query),
            Direct::Scan(scan) => Read::Scan(scan),
            Direct::Batch(batch) => Read::BatchGetItem(batch),
        }
    }

    fn rename(&mut self, rename: &dyn Fn(&str) -> Option<String>) {
        let apply = |name: &mut String| {
            if let Some(new) = rename(name) {
                *name = new;
            }
        };
        match self {
            Direct::Get(get) => apply(&mut get.table),
            Direct::Query(query) => {
                apply(&mut query.table);
                query.index.iter_mut().for_each(apply);
            }
            Direct::Scan(scan) => {
                apply(&mut scan.table);
                scan.index.iter_mut().for_each(apply);
            }
            Direct::Batch(batch) => batch.tables.iter_mut().for_each(|t| apply(&mut t.table)),
        }
    }

    fn answer(self, store: &mut Store) -> Result<Json, StoreError> {
        let mut out = Map::new();
        match self {
            Direct::Get(get) => {
                let got = store.get_item(&get)?;
                if let Some(item) = &got.item {
                    out.insert("Item".into(), item_to_json(item));
                }
                out.insert("ConsumedCapacity".into(), consumed(store, &get.table, &got.consumed));
            }
            Direct::Query(query) => page(&mut out, store, &query.table, &store.query(&query)?),
            Direct::Scan(scan) => page(&mut out, store, &scan.table, &store.scan(&scan)?),
            Direct::Batch(batch) => {
                let got = store.batch_get_item(&batch)?;
                let items = |items: &[std::sync::Arc<Item>]| items.iter().map(|i| item_to_json(i)).collect();
                let responses = got.responses.iter().map(|(t, found)| (t.clone(), Json::Array(items(found))));
                out.insert("Responses".into(), Json::Object(responses.collect()));
                let unprocessed = got
                    .unprocessed
                    .iter()
                    .map(|t| (t.table.clone(), t.keys.iter().map(item_to_json).collect()));
                out.insert("UnprocessedKeys".into(), Json::Object(unprocessed.collect()));
                let charged = got.consumed.iter().map(|(t, c)| consumed(store, t, c)).collect();
                out.insert("ConsumedCapacity".into(), Json::Array(charged));
            }
        }
        Ok(Json::Object(out))
    }
}

/// A Query's or Scan's page.
fn page(out: &mut Map<String, Json>, store: &Store, table: &str, page: &QueryOutput) {
    out.insert("Items".into(), page.items.iter().map(|i| item_to_json(i)).collect());
    out.insert("Count".into(), Json::from(page.count));
    out.insert("ScannedCount".into(), Json::from(page.scanned_count));
    if let Some(key) = &page.last_evaluated_key {
        out.insert("LastEvaluatedKey".into(), item_to_json(key));
    }
    out.insert("ConsumedCapacity".into(), consumed(store, table, &page.consumed));
}

/// The units charged to the table and to each index, by name.
fn consumed(store: &Store, table: &str, charged: &ConsumedCapacity) -> Json {
    let units = |u: &Units| json!({ "Read": u.read, "Write": u.write });
    let mut out = json!({ "TableName": table, "Table": units(&charged.table) });
    if let Ok(description) = store.describe_table(table) {
        let named = |specs: &[IndexSpec], charged: &[Units]| -> Json {
            specs
                .iter()
                .zip(charged)
                .map(|(spec, u)| (spec.name.clone(), units(u)))
                .collect::<Map<_, _>>()
                .into()
        };
        out["GlobalSecondaryIndexes"] = named(&description.spec.global, &charged.global);
        out["LocalSecondaryIndexes"] = named(&description.spec.local, &charged.local);
    }
    out
}

/// A request's expressions read against its placeholders, as a protocol reads them.
struct Exprs(ExpressionContext);

impl Exprs {
    /// `names` (`{"#s": "status"}`) and `values` (`{":p": {"S": "a"}}`) as a request sends them.
    fn new(names: &Json, values: &Json) -> Exprs {
        Exprs::try_new(names, values).expect("valid placeholders")
    }

    /// `None` for a value that is no AttributeValue.
    fn try_new(names: &Json, values: &Json) -> Option<Exprs> {
        let names = names.as_object().into_iter().flatten();
        let names = names.map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned())).collect();
        let values = values.as_object().into_iter().flatten();
        let values = values
            .map(|(k, v)| Some((k.clone(), AttributeValue::from_json(v).ok()?)))
            .collect::<Option<_>>()?;
        Some(Exprs(ExpressionContext::new(names, values)))
    }

    fn query(&mut self, table: &str, index: Option<&str>, key: &str) -> Query {
        let key = expr::parse_key_condition(key, &mut self.0).expect("a valid key condition");
        Query { index: index.map(str::to_owned), ..Query::new(table, key) }
    }

    fn filter(&mut self, text: &str) -> expr::Condition {
        expr::parse_condition(ExpressionKind::Filter, text, &mut self.0).expect("a valid filter")
    }

    fn projection(&mut self, text: &str) -> expr::Projection {
        expr::parse_projection(text, &mut self.0).expect("a valid projection")
    }
}

/// A GetItem of `key` (an item in JSON).
fn get(table: &str, key: &Json) -> GetItem {
    let key = item_from_json(key).expect("a valid key");
    GetItem { table: table.to_owned(), key, consistent_read: false, projection: None }
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
    let items: u64 = sim.storage.tables.iter().map(|t| t.base.items()).sum();
    assert_eq!(loaded, items, "every row of the replay was loaded");
    store
}

/// The reference answer: the request run on the whole table, under the real names.
fn reference(sim: &Simulation, store: &mut Store, mut read: Direct) -> Result<Json, ConsoleError> {
    let aliases = sim.aliases();
    read.rename(&|name| aliases.iter().find(|(real, _)| real == name).map(|(_, a)| a.clone()));
    let mut answer = read.answer(store).map_err(|e| ConsoleError::Answer(unalias_error(&aliases, e)))?;
    unalias(&aliases, &mut answer);
    Ok(answer)
}

/// Sends `request` and each next page (by LastEvaluatedKey) to both; returns the pages read.
fn agree(sim: &Simulation, store: &mut Store, request: &Direct) -> usize {
    let mut request = request.clone();
    for page in 1..=2000 {
        let want = reference(sim, store, request.clone());
        let got = sim.console(request.clone());
        assert_eq!(got, want, "page {page} of {request:?}");
        let Some(key) = got.ok().and_then(|answer| answer.get("LastEvaluatedKey").cloned()) else {
            return page;
        };
        let key = Some(item_from_json(&key).expect("a key"));
        match &mut request {
            Direct::Query(query) => query.exclusive_start_key = key,
            Direct::Scan(scan) => scan.exclusive_start_key = key,
            Direct::Get(_) | Direct::Batch(_) => return page,
        }
    }
    panic!("more than 2000 pages: {request:?}");
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
fn partition_requests(sim: &Simulation, table: &str, pk: &str) -> Vec<Direct> {
    let items: Vec<Item> = sim.items_in(table, pk, usize::MAX).into_iter().map(|v| v.item).collect();
    let sks = values(&items, "SK");
    let mid = sks[sks.len() / 2].clone();
    let first = sks[0].clone();
    let q = |key: &str, values: &Json| Exprs::new(&json!({}), values).query(table, None, key);
    let pkv = json!({":p": s(pk)});
    let both = |v: &Json| json!({":p": s(pk), ":v": v});
    let mut queries = vec![
        q("PK = :p", &pkv),
        Query { limit: Some(2), ..q("PK = :p", &pkv) },
        Query { limit: Some(1), scan_forward: false, ..q("PK = :p", &pkv) },
        Query { select: Some(Select::Count), limit: Some(3), ..q("PK = :p", &pkv) },
    ];
    for op in ["=", "<", "<=", ">", ">="] {
        queries.push(Query { limit: Some(2), ..q(&format!("PK = :p AND SK {op} :v"), &both(&mid)) });
    }
    let between = json!({":p": s(pk), ":v": first, ":w": mid});
    queries.push(Query {
        scan_forward: false,
        limit: Some(2),
        ..q("PK = :p AND SK BETWEEN :v AND :w", &between)
    });
    queries.push(Query { limit: Some(3), ..q("PK = :p AND begins_with(SK, :v)", &both(&s("ORDER#"))) });
    queries.push(q("PK = :p AND begins_with(SK, :v)", &both(&s("ITEM#0"))));
    let mut e =
        Exprs::new(&json!({"#s": "status", "#t": "total"}), &json!({":p": s(pk), ":s": s("DELIVERED")}));
    queries.push(Query {
        filter: Some(e.filter("#s = :s")),
        projection: Some(e.projection("order_id, #t")),
        limit: Some(4),
        ..e.query(table, None, "PK = :p")
    });
    // The keys-only LSI: its own entries, or the table's items fetched (ALL_ATTRIBUTES).
    let lsi =
        |v: &Json| Exprs::new(&json!({}), &both(v)).query(table, Some("by total"), "PK = :p AND LSI1SK > :v");
    queries.push(lsi(&json!({"N": "50"})));
    queries.push(Query {
        select: Some(Select::AllAttributes),
        limit: Some(1),
        scan_forward: false,
        ..lsi(&json!({"N": "50"}))
    });
    let mut out: Vec<Direct> = queries.into_iter().map(Direct::Query).collect();
    for sk in sks.iter().take(2) {
        out.push(Direct::Get(get(table, &json!({"PK": s(pk), "SK": sk}))));
    }
    // (`total` is a reserved word: a projection names it through a placeholder.)
    let projection = Some(Exprs::new(&json!({"#t": "total"}), &json!({})).projection("#t"));
    out.push(Direct::Get(GetItem { projection, ..get(table, &json!({"PK": s(pk), "SK": s("NOPE")})) }));
    out
}

/// Requests across `orders`: the sparse GSI (pending orders by time), the GSI without a sort
/// key, Scans paged through the table and each index (filtered, counted, one segment),
/// BatchGetItem, and requests the store refuses.
fn table_requests(table: &str, pk: &str, customer: &str) -> Vec<Direct> {
    let status = json!({"#s": "status"});
    let pending = Exprs::new(&status, &json!({":p": s("PENDING")})).query(table, Some("pending"), "#s = :p");
    let before = json!({":p": s("PENDING"), ":t": {"N": "1735700000"}});
    let earlier = Exprs::new(&status, &before).query(table, Some("pending"), "#s = :p AND placed_at < :t");
    let by_customer = Exprs::new(&json!({}), &json!({":c": s(customer)})).query(
        table,
        Some("by-customer"),
        "customer_id = :c",
    );
    let mut requests = vec![
        Direct::Query(pending.clone()),
        Direct::Query(Query { limit: Some(2), ..pending.clone() }),
        Direct::Query(Query { limit: Some(2), scan_forward: false, ..earlier }),
        Direct::Query(Query { consistent_read: true, ..pending }),
        Direct::Query(Query { limit: Some(1), ..by_customer }),
    ];
    let scan = |index: Option<&str>, limit: usize| Scan {
        index: index.map(str::to_owned),
        limit: Some(limit),
        ..Scan::new(table)
    };
    let mut exists = Exprs::new(&status, &json!({}));
    requests.extend(
        [
            scan(None, 25),
            Scan {
                filter: Some(exists.filter("attribute_exists(#s)")),
                select: Some(Select::Count),
                ..scan(None, 40)
            },
            Scan { segment: Some((2, 5)), ..scan(None, 30) },
            scan(Some("pending"), 3),
            scan(Some("by-customer"), 16),
            scan(Some("by total"), 16),
        ]
        .map(Direct::Scan),
    );
    let keys =
        [json!({"PK": s(pk), "SK": s("PROFILE")}), json!({"PK": s("CUSTOMER#nobody"), "SK": s("PROFILE")})];
    let keys = keys.iter().map(|k| item_from_json(k).expect("a key")).collect();
    let batch = BatchGetTable { table: table.to_owned(), keys, consistent_read: false, projection: None };
    requests.push(Direct::Batch(BatchGetItem { tables: vec![batch] }));
    requests.push(Direct::Get(get("nope", &json!({"PK": s("a")}))));
    requests.push(Direct::Get(get(table, &json!({"PK": s("a")}))));
    let a = json!({":p": s("a")});
    requests.push(Direct::Query(Exprs::new(&json!({}), &a).query(table, Some("nope"), "PK = :p")));
    let mismatched = json!({":p": s("a"), ":v": {"N": "1"}});
    requests.push(Direct::Query(Exprs::new(&json!({}), &mismatched).query(
        table,
        None,
        "PK = :p AND SK > :v",
    )));
    let elsewhere = item_from_json(&json!({"PK": s("elsewhere"), "SK": s("x")})).expect("a key");
    let mut from = Exprs::new(&json!({}), &json!({":p": s(pk)}));
    requests.push(Direct::Query(Query {
        exclusive_start_key: Some(elsewhere),
        ..from.query(table, None, "PK = :p")
    }));
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
    let mut requests: Vec<Direct> = pks.iter().flat_map(|pk| partition_requests(&sim, table, pk)).collect();
    requests.extend(table_requests(table, &pks[0], customer));
    let mut read = 0;
    for request in &requests {
        read += agree(&sim, &mut store, request);
    }
    assert!(read > requests.len() + 40, "the paged requests read many pages ({read})");
}

#[test]
fn one_megabyte_pages_and_time_sort_keys_match_the_store() {
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
    // `sensors` as a DynamoDB table with one sensor over two days: time sort keys (kept inline
    // in the rows) and a partition of more than 1 MB.
    let sim = replay("sensors", &edits, "naive", 48);
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
    let q = |key: &str, values: &Json, forward: bool| Query {
        scan_forward: forward,
        ..Exprs::new(&json!({}), values).query(table, None, key)
    };
    let pk = s(&part.key);
    let mut warm = Exprs::new(&json!({}), &json!({":t": {"N": "25"}}));
    let requests = [
        Direct::Query(q("PK = :p", &json!({":p": pk}), true)),
        Direct::Query(q("PK = :p", &json!({":p": pk}), false)),
        Direct::Query(q("PK = :p AND SK BETWEEN :a AND :b", &json!({":p": pk, ":a": a, ":b": b}), false)),
        // Bounds between whole seconds, and below every key.
        Direct::Query(q(
            "PK = :p AND SK > :a",
            &json!({":p": pk, ":a": {"N": format!("{}.5", a["N"].as_str().unwrap_or("0"))}}),
            true,
        )),
        Direct::Query(q("PK = :p AND SK < :a", &json!({":p": pk, ":a": {"N": "-3.5"}}), true)),
        Direct::Query(q("PK = :p AND SK <= :a", &json!({":p": pk, ":a": b}), false)),
        Direct::Scan(Scan::new(table)),
        Direct::Scan(Scan {
            filter: Some(warm.filter("temperature > :t")),
            select: Some(Select::Count),
            ..Scan::new(table)
        }),
        Direct::Get(get(table, &json!({"PK": pk, "SK": a}))),
        Direct::Get(get(table, &json!({"PK": pk, "SK": {"N": "1.5"}}))),
    ];
    let mut pages = 0;
    for request in &requests {
        pages += agree(&sim, &mut store, request);
    }
    assert!(pages >= 14, "full pages of 1 MB: {pages}");
}

#[test]
fn the_stores_refusals_come_back_typed_under_the_real_names() {
    let sim = orders();
    let tables = sim.console_tables();
    assert_eq!(tables[0].name, "orders");
    assert_eq!((tables[0].pk.as_str(), tables[0].sk.as_deref()), ("PK", Some("SK")));
    let names: Vec<&str> = tables[0].indexes.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["pending", "by-customer", "by total"]);
    let missing = sim.console(Direct::Get(get("nope", &json!({"PK": s("a")})))).expect_err("no such table");
    assert_eq!(missing, ConsoleError::Answer(StoreError::ResourceNotFound("nope".to_owned())));
    assert!(missing.to_string().starts_with("ResourceNotFoundException: "), "{missing}");
    // The LSI is served under an alias; the store's message names it by its own name.
    let lsi = Query {
        select: Some(Select::SpecificAttributes),
        ..Exprs::new(&json!({}), &json!({":p": s("a")})).query("orders", Some("by total"), "PK = :p")
    };
    let mistakes = [
        (
            Direct::Query(lsi),
            "ValidationException: One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires",
        ),
        (
            Direct::Query(Exprs::new(&json!({}), &json!({":p": s("a")})).query(
                "orders",
                Some("nope"),
                "PK = :p",
            )),
            "ValidationException: ",
        ),
        (
            Direct::Scan(Scan { index: Some("nope".to_owned()), ..Scan::new("orders") }),
            "ValidationException: ",
        ),
    ];
    for (request, want) in mistakes {
        let error = sim.console(request.clone()).expect_err("refused");
        assert!(matches!(error, ConsoleError::Answer(StoreError::Validation(_))), "{request:?}: {error:?}");
        let error = error.to_string();
        assert!(error.starts_with(want), "{request:?}: {error}");
        assert!(!error.contains("keyheat-alias"), "{error}");
    }
}

#[test]
fn cassandra_tables_are_read_per_entity_without_capacity_units() {
    let edits = [("(name: \"sensors\", count: 50", "(name: \"sensors\", count: 3")];
    let sim = replay("sensors", &edits, "recommended", 600);
    let tables = sim.console_tables();
    let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Sensor", "Reading"]);
    let sensor_pk = tables[0].pk.as_str();
    let sensor = sim
        .console(Direct::Get(get("Sensor", &json!({ sensor_pk: s("sensor-00001") }))))
        .expect("answered")
        .to_string();
    assert!(sensor.contains(r#""site""#) && sensor.contains("capacity units do not apply"), "{sensor}");
    assert!(!sensor.contains("ConsumedCapacity"), "{sensor}");
    let mut day = Exprs::new(&json!({"#pk": tables[1].pk}), &json!({":pk": s("sensor-00002#2025-01-01")}));
    let query = Query { scan_forward: false, limit: Some(3), ..day.query("Reading", None, "#pk = :pk") };
    let answer = sim.console(Direct::Query(query)).expect("answered");
    let readings = answer.to_string();
    // CQL's words: rows, a row count, the rows read, a paging state.
    assert_eq!(answer["RowCount"], json!(3), "{readings}");
    assert_eq!(answer["RowsRead"], json!(3), "{readings}");
    assert!(answer["Rows"][0]["temperature"].is_object(), "{readings}");
    assert!(answer.get("PagingState").is_some(), "{readings}");
    for dynamodb in ["Items", "Count", "ScannedCount", "LastEvaluatedKey"] {
        assert!(answer.get(dynamodb).is_none(), "{dynamodb} in {readings}");
    }
    assert!(sensor.contains(r#""Row""#), "{sensor}");
}

/// Any read: pieces of real requests in arbitrary combinations, built as a protocol would
/// build them (`None` where a protocol would refuse the pieces before the console sees them).
fn request() -> impl Strategy<Value = Option<Direct>> {
    let value = attribute_value();
    let key = key_of(attribute_value());
    let select = prop_oneof![
        Just(Select::Count),
        Just(Select::AllAttributes),
        Just(Select::AllProjectedAttributes),
        Just(Select::SpecificAttributes),
    ];
    let fields = (
        0..4u8,
        table_name(),
        proptest::option::of(index_name()),
        key_condition(),
        (value.clone(), value),
        (key.clone(), proptest::option::of(key)),
        (proptest::option::of(0usize..5), proptest::option::of(0u64..4), proptest::option::of(0u64..4)),
        (any::<bool>(), any::<bool>(), proptest::option::of(select)),
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
            let names = if names { json!({"#s": "status"}) } else { json!({}) };
            let mut exprs = Exprs::try_new(&names, &json!({":a": a, ":b": b}))?;
            let key = item_from_json(&key).ok()?;
            let start = start.map(|k| item_from_json(&k)).transpose().ok()?;
            let index = index.map(str::to_owned);
            Some(match op {
                0 => Direct::Get(GetItem {
                    table: table.to_owned(),
                    key,
                    consistent_read: false,
                    projection: None,
                }),
                1 => {
                    let key_condition = expr::parse_key_condition(cond, &mut exprs.0).ok()?;
                    Direct::Query(Query {
                        index,
                        select,
                        scan_forward: forward,
                        limit,
                        exclusive_start_key: start,
                        ..Query::new(table, key_condition)
                    })
                }
                2 => Direct::Scan(Scan {
                    index,
                    select,
                    limit,
                    exclusive_start_key: start,
                    segment: segment.zip(total),
                    ..Scan::new(table)
                }),
                _ => Direct::Batch(BatchGetItem {
                    tables: vec![BatchGetTable {
                        table: table.to_owned(),
                        keys: vec![key],
                        consistent_read: false,
                        projection: None,
                    }],
                }),
            })
        },
    )
}

#[test]
fn no_request_makes_the_console_panic() {
    let sim = orders();
    let mut runner = TestRunner::new(Config { cases: 300, ..Config::default() });
    runner
        .run(&request(), |request| {
            if let Some(request) = request {
                let _ = sim.console(request);
            }
            Ok(())
        })
        .expect("no panic");
}

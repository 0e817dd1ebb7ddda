//! Short forms: table-driven expansions and errors, the read-only gate, and properties (no input
//! panics; every generated valid form expands to JSON the ops parser accepts).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value as Json, json};

use super::*;
use crate::engine::sim::{ConsoleError, ConsoleRequest};
use crate::engine::store::Store;
use crate::engine::testing::console_orders;
use crate::engine::testing::requests::{attribute_value, index_name, key_condition, key_of, table_name};
use crate::ops::request;

fn tables() -> Vec<TableKeys> {
    vec![
        TableKeys {
            name: "orders".into(),
            pk: "PK".into(),
            sk: Some("SK".into()),
            indexes: vec![
                IndexKeys { name: "pending".into(), pk: "status".into(), sk: Some("placed_at".into()) },
                IndexKeys { name: "by-customer".into(), pk: "customer_id".into(), sk: None },
            ],
        },
        TableKeys { name: "Sensor".into(), pk: "PK".into(), sk: None, indexes: vec![] },
    ]
}

fn expanded(line: &str) -> Json {
    expand(line, &tables()).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The ops parser's verdict on an expanded request.
fn ops_parse(text: &str) -> Result<(), String> {
    let json: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let object = json.as_object().ok_or("not an object")?;
    let op = object.get("op").and_then(Json::as_str).ok_or("no op")?;
    request::parse(op, object).map(|_| ()).map_err(|e| e.message)
}

#[test]
fn forms_expand_to_ops_json() {
    let cases = [
        (
            r#"get pk = "CUSTOMER#c1" and sk = "PROFILE""#,
            json!({"op": "GetItem", "TableName": "orders",
                "Key": {"PK": {"S": "CUSTOMER#c1"}, "SK": {"S": "PROFILE"}},
                "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            r#"GET table Sensor PK = "sensor-00001""#,
            json!({"op": "GetItem", "TableName": "Sensor", "Key": {"PK": {"S": "sensor-00001"}},
                "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            r#"query pk = "CUSTOMER#c1""#,
            json!({"op": "Query", "TableName": "orders", "KeyConditionExpression": "#pk = :pk0",
                "ExpressionAttributeNames": {"#pk": "PK"},
                "ExpressionAttributeValues": {":pk0": {"S": "CUSTOMER#c1"}},
                "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            r#"query pk = "C" and begins_with(sk, "ORDER#") desc limit 5"#,
            json!({"op": "Query", "TableName": "orders",
                "KeyConditionExpression": "#pk = :pk0 AND begins_with(#sk, :sk0)",
                "ExpressionAttributeNames": {"#pk": "PK", "#sk": "SK"},
                "ExpressionAttributeValues": {":pk0": {"S": "C"}, ":sk0": {"S": "ORDER#"}},
                "ScanIndexForward": false, "Limit": 5, "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            r#"query index pending status = "PENDING" and placed_at between 100 and 2e3 count"#,
            json!({"op": "Query", "TableName": "orders", "IndexName": "pending",
                "KeyConditionExpression": "#pk = :pk0 AND #sk BETWEEN :sk0 AND :sk1",
                "ExpressionAttributeNames": {"#pk": "status", "#sk": "placed_at"},
                "ExpressionAttributeValues": {":pk0": {"S": "PENDING"}, ":sk0": {"N": "100"}, ":sk1": {"N": "2000"}},
                "Select": "COUNT", "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            r#"query pk = "C" and sk >= "ORDER#" filter status = "PENDING" and total > 100 limit 10"#,
            json!({"op": "Query", "TableName": "orders",
                "KeyConditionExpression": "#pk = :pk0 AND #sk >= :sk0",
                "FilterExpression": "#f0 = :f0 AND #f1 > :f1",
                "ExpressionAttributeNames": {"#pk": "PK", "#sk": "SK", "#f0": "status", "#f1": "total"},
                "ExpressionAttributeValues": {":pk0": {"S": "C"}, ":sk0": {"S": "ORDER#"},
                    ":f0": {"S": "PENDING"}, ":f1": {"N": "100"}},
                "Limit": 10, "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "scan index by-customer limit 3 filter attribute_exists(a.b[2]) or not size(`odd name`) < 4 count",
            json!({"op": "Scan", "TableName": "orders", "IndexName": "by-customer",
                "FilterExpression": "attribute_exists(#f0.#f1[2]) OR NOT size(#f2) < :f0",
                "ExpressionAttributeNames": {"#f0": "a", "#f1": "b", "#f2": "odd name"},
                "ExpressionAttributeValues": {":f0": {"N": "4"}},
                "Limit": 3, "Select": "COUNT", "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            // A clause word where an operand is expected is a name; the same name twice is one
            // placeholder.
            "scan filter count = desc and count in (1, 2) consistent",
            json!({"op": "Scan", "TableName": "orders",
                "FilterExpression": "#f0 = #f1 AND #f0 IN (:f0, :f1)",
                "ExpressionAttributeNames": {"#f0": "count", "#f1": "desc"},
                "ExpressionAttributeValues": {":f0": {"N": "1"}, ":f1": {"N": "2"}},
                "ConsistentRead": true, "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            r#"query PK = "a\"b\\" and SK < -1.50"#,
            json!({"op": "Query", "TableName": "orders", "KeyConditionExpression": "#pk = :pk0 AND #sk < :sk0",
                "ExpressionAttributeNames": {"#pk": "PK", "#sk": "SK"},
                "ExpressionAttributeValues": {":pk0": {"S": "a\"b\\"}, ":sk0": {"N": "-1.5"}},
                "ReturnConsumedCapacity": "INDEXES"}),
        ),
    ];
    for (line, want) in cases {
        let got = expanded(line);
        assert_eq!(got, want, "{line}");
        let text = got.to_string();
        assert_eq!(ops_parse(&text), Ok(()), "{line} → {text}");
    }
}

#[test]
fn mistakes_name_the_column_and_what_was_expected() {
    let cases = [
        ("", "col 1: expected get, query or scan (or a JSON request starting with {)"),
        ("put pk = 1", "col 1: expected get, query or scan (or a JSON request starting with {)"),
        ("get pk =", r#"col 9: expected a quoted string or a number after "=""#),
        ("query pk = abc", r#"col 12: expected a quoted string or a number after "=""#),
        ("get pk \"x\"", r#"col 8: expected "=" after PK (a get names the whole key)"#),
        ("get foo = 1", "col 5: expected a key attribute: pk (PK) or sk (SK)"),
        (
            "get table Sensor pk = 1 and sk = 2",
            "col 29: expected a key attribute: pk (PK); it has no sort key",
        ),
        ("get pk = 1 and pk = 2", "col 16: PK is given twice"),
        ("get pk = 1 desc", "col 12: a get ends after its key"),
        ("get pk = 1 sk = 2", "col 12: a get ends after its key — join the sort key with and: … and SK = …"),
        ("query sk = 1", "col 7: a query starts with the partition key: pk (PK) = …"),
        ("query pk = 1 and sk ~ 2", "col 21: unexpected character '~'"),
        ("query pk = 1 and sk 2", "col 21: expected =, <, <=, >, >= or between after SK"),
        ("query pk = 1 and sk between 1 or 2", "col 31: expected and between the two bounds"),
        (
            "query pk = 1 and begins_with(sk \"a\")",
            r#"col 33: expected "," after the sort key in begins_with"#,
        ),
        ("query pk = 1 limit 0", "col 20: expected a whole number of items (1 or more) after limit"),
        ("query pk = 1 limit 2 limit 3", "col 22: limit is given twice"),
        (
            "query pk = 1 frobnicate",
            "col 14: expected desc, asc, limit N, filter …, count or consistent (or the end of the line)",
        ),
        ("scan desc", "col 6: a scan has no order; desc and asc are for query"),
        ("scan filter", "col 12: expected a filter expression after filter"),
        ("scan filter (a = 1", r#"col 19: expected ")" to close the "(" at col 13"#),
        ("scan filter a = 1)", "col 18: this ) closes nothing"),
        ("scan filter a. = 1", r#"col 16: expected an attribute name after ".""#),
        ("scan filter a[x] = 1", r#"col 15: expected a list index (a whole number) after "[""#),
        (
            "scan index nope",
            r#"col 12: table orders has no index "nope"; its indexes are pending, by-customer"#,
        ),
        ("scan table Sensor index x", "col 25: table Sensor has no indexes"),
        ("scan table nope", r#"col 12: no table "nope"; the tables are orders, Sensor"#),
        ("query pk = \"open", "col 12: this string has no closing \""),
        ("query pk = \"a\\q\"", r#"col 14: expected \" or \\ after a backslash"#),
        ("query pk = 12abc", "col 12: a number runs into letters; quote it if it is a string"),
        ("query pk = 1e999999", "col 12: 1e999999 is not a number: "),
        (
            "query table Sensor pk = 1 and sk = 2",
            "col 31: this has no sort key, so a query names only the partition key",
        ),
    ];
    for (line, want) in cases {
        let got = expand(line, &tables()).expect_err(line).to_string();
        assert!(got.starts_with(want), "{line}:\n got {got}\nwant {want}");
    }
    let at = |line: &str| match expand(line, &tables()) {
        Err(ShortError::At { col, .. }) => Some(col),
        _ => None,
    };
    assert_eq!((at("get pk = "), at("query pk = 12abc")), (Some(10), Some(12)), "the column is a number");
    assert_eq!(expand("scan", &[]), Err(ShortError::NoTable));
    assert_eq!(ShortError::NoTable.to_string(), "the replay has no table to read");
}

#[test]
fn the_console_reads_and_refuses_to_write() {
    let refused = [
        r#"{"op": "PutItem", "TableName": "t", "Item": {"PK": {"S": "a"}}}"#,
        r#"{"op": "UpdateItem"}"#,
        r#"{"op": "DeleteItem"}"#,
        r#"{"op": "BatchWriteItem"}"#,
        r#"{"op": "CreateTable"}"#,
        r#"{"op": "AdvanceTime", "Seconds": 5}"#,
    ];
    for line in refused {
        let error = ConsoleRead::parse(line).err().expect("refused");
        assert!(matches!(error, RequestError::Refused { .. }), "{line}: {error:?}");
        let error = error.to_string();
        assert!(error.contains("the console only reads the replay's table"), "{line}: {error}");
    }
    let errors = [
        ("not json", "SerializationException: The request is not valid JSON"),
        ("[1]", "SerializationException: Expected a JSON object"),
        (r#"{"TableName": "t"}"#, "ValidationException: Missing \"op\""),
        (r#"{"op": "Frob"}"#, "UnknownOperationException: Unknown op \"Frob\""),
        (
            r#"{"op": "Query", "TableName": "t"}"#,
            "ValidationException: 1 validation error detected: Value null at 'keyConditionExpression'",
        ),
        (
            r#"{"op": "Scan", "TableName": "t", "Limt": 1}"#,
            "ValidationException: Scan does not support parameter Limt",
        ),
    ];
    for (line, want) in errors {
        let error = ConsoleRead::parse(line).err().expect("refused");
        assert!(matches!(error, RequestError::Invalid(_)), "{line}: {error:?}");
        let error = error.to_string();
        assert!(error.starts_with(want), "{line}: {error}");
    }
    for (line, op) in [
        (r#"{"op": "GetItem", "TableName": "t", "Key": {"PK": {"S": "a"}}}"#, "GetItem"),
        (r#"{"op": "Scan", "TableName": "t"}"#, "Scan"),
        (r#"{"op": "BatchGetItem", "RequestItems": {"t": {"Keys": [{"PK": {"S": "a"}}]}}}"#, "BatchGetItem"),
    ] {
        let read = ConsoleRead::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let got = match read.read() {
            Read::GetItem(_) => "GetItem",
            Read::Query(_) => "Query",
            Read::Scan(_) => "Scan",
            Read::BatchGetItem(_) => "BatchGetItem",
        };
        assert_eq!(got, op);
    }
}

#[test]
fn renamed_reads_answer_from_the_store_as_ops_prints_them() {
    use crate::engine::store::{
        BillingMode, CreateTable, KeyAttribute, KeySchema, PutItem, StoreConfig, TableSpec,
    };
    use crate::engine::value::{AttributeValue, KeyType};
    let mut store = Store::new(StoreConfig::default());
    let spec = TableSpec {
        name: "alias-1".into(),
        key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), None),
        global: vec![],
        local: vec![],
        billing: BillingMode::PayPerRequest,
    };
    store.create_table(CreateTable { spec, index_lag: None }).expect("a valid table");
    let item = [("PK".to_owned(), AttributeValue::s("a")), ("v".to_owned(), AttributeValue::n(1))].into();
    let put = PutItem {
        table: "alias-1".into(),
        item,
        condition: None,
        return_values: crate::engine::store::ReturnValues::None,
    };
    store.put_item(put).expect("a valid item");
    let mut read = ConsoleRead::parse(
        r#"{"op": "GetItem", "TableName": "my table", "Key": {"PK": {"S": "a"}}, "ReturnConsumedCapacity": "TOTAL"}"#,
    )
    .expect("a read");
    read.rename(&|name| (name == "my table").then(|| "alias-1".to_owned()));
    let answer = read.answer(&mut store).expect("answered");
    assert_eq!(
        answer.to_string(),
        r#"{"ConsumedCapacity":{"CapacityUnits":0.5,"TableName":"alias-1"},"Item":{"PK":{"S":"a"},"v":{"N":"1"}}}"#
    );
}

/// A generated valid short form.
fn valid_form() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("status".to_owned()),
        Just("name".to_owned()),
        Just("`a b`".to_owned()),
        "[a-z][a-z0-9_]{0,6}".prop_filter("not a keyword", |n| {
            !["and", "or", "not", "between", "in", "limit", "desc", "asc", "count", "consistent", "filter"]
                .contains(&n.as_str())
                && !FUNCTIONS.contains(&n.as_str())
        }),
    ];
    let value = prop_oneof![
        "[a-zA-Z0-9#_ ]{1,8}".prop_map(|s| format!("\"{s}\"")),
        (-1000i64..100_000).prop_map(|n| n.to_string()),
        (0u32..1000, 1u32..99).prop_map(|(a, b)| format!("{a}.{b}")),
    ];
    // Both bounds of a BETWEEN have one type, in order (DynamoDB refuses the others).
    let pair = prop_oneof![
        ("[a-z]{1,4}", "[a-z]{1,4}").prop_map(|(a, b)| {
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            (format!("\"{a}\""), format!("\"{b}\""))
        }),
        (-1000i64..1000, -1000i64..1000).prop_map(|(a, b)| (a.min(b).to_string(), a.max(b).to_string())),
    ];
    let sort = prop_oneof![
        Just(String::new()),
        (prop_oneof![Just("="), Just("<"), Just("<="), Just(">"), Just(">=")], value.clone())
            .prop_map(|(op, v)| format!(" and sk {op} {v}")),
        pair.clone().prop_map(|(a, b)| format!(" and sk between {a} and {b}")),
        "[a-zA-Z#]{1,6}".prop_map(|p| format!(" and begins_with(sk, \"{p}\")")),
    ];
    let comparison = (name.clone(), prop_oneof![Just("="), Just("<>"), Just("<"), Just(">=")], value.clone())
        .prop_map(|(n, op, v)| format!("{n} {op} {v}"));
    let term = prop_oneof![
        comparison.clone(),
        name.clone().prop_map(|n| format!("attribute_exists({n})")),
        (name.clone(), value.clone()).prop_map(|(n, v)| format!("contains({n}, {v})")),
        (name.clone(), 0u8..5, value.clone()).prop_map(|(n, i, v)| format!("{n}.x[{i}] = {v}")),
        (name.clone(), pair).prop_map(|(n, (a, b))| format!("{n} between {a} and {b}")),
        (name, value.clone(), value.clone()).prop_map(|(n, a, b)| format!("not ({n} in ({a}, {b}))")),
    ];
    let filter =
        proptest::collection::vec(term, 1..4).prop_map(|terms| format!(" filter {}", terms.join(" or ")));
    let options = (
        proptest::option::of(prop_oneof![Just(" desc"), Just(" asc")]),
        proptest::option::of(1u32..500),
        proptest::option::of(filter),
        any::<bool>(),
    );
    let index = prop_oneof![Just(""), Just(" index pending")];
    prop_oneof![
        (value.clone(), proptest::option::of(value.clone())).prop_map(|(p, s)| match s {
            Some(s) => format!("get pk = {p} and sk = {s}"),
            None => format!("get pk = {p}"),
        }),
        (index.clone(), value, sort, options.clone()).prop_map(
            |(index, pk, sort, (order, limit, filter, count))| {
                let limit = limit.map(|l| format!(" limit {l}")).unwrap_or_default();
                format!(
                    "query{index} pk = {pk}{sort}{}{limit}{}{}",
                    order.unwrap_or_default(),
                    filter.unwrap_or_default(),
                    if count { " count" } else { "" }
                )
            }
        ),
        (index, options).prop_map(|(index, (_, limit, filter, count))| {
            let limit = limit.map(|l| format!(" limit {l}")).unwrap_or_default();
            format!("scan{index}{}{limit}{}", filter.unwrap_or_default(), if count { " count" } else { "" })
        }),
    ]
}

proptest! {
    #[test]
    fn any_line_expands_or_errs_without_panicking(line in "\\PC{0,60}") {
        let _ = expand(&line, &tables());
    }

    #[test]
    fn token_soup_expands_or_errs_without_panicking(words in proptest::collection::vec(
        prop_oneof![
            Just("get"), Just("query"), Just("scan"), Just("index"), Just("table"), Just("pending"),
            Just("pk"), Just("sk"), Just("="), Just("<"), Just("and"), Just("between"), Just("begins_with"),
            Just("("), Just(")"), Just(","), Just("filter"), Just("limit"), Just("desc"), Just("count"),
            Just("\"x\""), Just("7"), Just("-2.5"), Just("a"), Just("."), Just("["), Just("]"), Just("`q"),
        ],
        0..14,
    )) {
        let _ = expand(&words.join(" "), &tables());
    }

    #[test]
    fn valid_forms_expand_to_requests_ops_accepts(line in valid_form()) {
        let text = expand(&line, &tables()).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?.to_string();
        prop_assert_eq!(ops_parse(&text), Ok(()), "{} → {}", line, text);
    }

    #[test]
    fn any_json_line_parses_or_errs_without_panicking(line in "\\PC{0,80}") {
        let _ = ConsoleRead::parse(&line);
    }
}

/// A console line answered as the workbench answers it, against a replay.
fn ask(sim: &crate::engine::sim::Simulation, line: &str) -> Result<Json, LineError> {
    console(sim, line)
}

#[test]
fn short_forms_and_requests_read_the_replay() {
    let sim = console_orders();
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
    // Who refused each: the short form's parser, the request's, or the replay's store.
    let mistakes = [
        ("get pk = ", r#"col 9: expected a quoted string or a number after "=""#, "short form"),
        (
            r#"{"op": "PutItem", "TableName": "orders", "Item": {}}"#,
            "PutItem writes: the console only reads",
            "request",
        ),
        (r#"{"op": "Query", "TableName": "orders"}"#, "ValidationException: ", "request"),
        (
            r#"{"op": "GetItem", "TableName": "nope", "Key": {"PK": {"S": "a"}}}"#,
            "ResourceNotFoundException: ",
            "store",
        ),
        (
            r#"{"op": "Query", "TableName": "orders", "IndexName": "by total", "KeyConditionExpression": "PK = :p", "ExpressionAttributeValues": {":p": {"S": "a"}}, "Select": "SPECIFIC_ATTRIBUTES"}"#,
            "ValidationException: One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires",
            "store",
        ),
    ];
    for (line, want, refused_by) in mistakes {
        let error = ask(&sim, line).expect_err(line);
        let by = match &error {
            LineError::Short(ShortError::At { col: 9, .. }) => "short form",
            LineError::Request(_) => "request",
            LineError::Console(ConsoleError::Answer(_)) => "store",
            _ => "someone else",
        };
        assert_eq!(by, refused_by, "{line}: {error:?}");
        let error = error.to_string();
        assert!(error.starts_with(want), "{line}: {error}");
        assert!(!error.contains("keyheat-alias"), "{error}");
    }
}

#[test]
fn short_forms_read_cassandras_tables_by_entity() {
    let edits = [("(name: \"sensors\", count: 50", "(name: \"sensors\", count: 3")];
    let sim = crate::engine::testing::replay("sensors", &edits, "recommended", 600);
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

/// A JSON-ish request line: pieces of real requests in arbitrary combinations.
fn request_line() -> impl Strategy<Value = String> {
    // Any value a request sends, and now and then an N written as a JSON number, which the
    // parser refuses (weighted as one case of nine, so most lines still reach the requests).
    let value = prop_oneof![8 => attribute_value(), 1 => Just(json!({"N": 5}))];
    let key = key_of(value.clone());
    let fields = (
        prop_oneof![
            Just("GetItem"),
            Just("Query"),
            Just("Scan"),
            Just("BatchGetItem"),
            Just("PutItem"),
            Just("Nope")
        ],
        table_name(),
        proptest::option::of(index_name()),
        proptest::option::of(key_condition()),
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
fn no_line_makes_the_console_panic() {
    let sim = console_orders();
    let mut runner = TestRunner::new(Config { cases: 300, ..Config::default() });
    runner
        .run(&request_line(), |request| {
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

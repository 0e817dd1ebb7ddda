//! Every validation error the store raises, with DynamoDB's exception type and message.

use super::*;

#[test]
#[expect(clippy::too_many_lines, reason = "one row per error: a table reads best whole")]
fn validation_errors() {
    let table = TableSpec {
        global: vec![gsi("byStatus", "status", Some("at"), ProjectionType::KeysOnly)],
        ..spec("tbl")
    };
    let mut store = store_with(table.clone());
    let put_item =
        |item| PutItem { table: "tbl".into(), item, condition: None, return_values: ReturnValues::None };
    let cases: Vec<(Result<(), StoreError>, &str, &str)> = vec![
        (
            store.create_table(CreateTable { spec: table, index_lag: None }).map(|_| ()),
            "ResourceInUseException",
            "Table already exists: tbl",
        ),
        (
            store.put_item(PutItem { table: "nope".into(), ..put_item(key("a", "b")) }).map(|_| ()),
            "ResourceNotFoundException",
            "Requested resource not found: Table: nope not found",
        ),
        (
            store.describe_table("nope").map(|_| ()),
            "ResourceNotFoundException",
            "Requested resource not found: Table: nope not found",
        ),
        (
            store.put_item(put_item(item(json!({"PK": {"S": "a"}})))).map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Missing the key SK in the item",
        ),
        (
            store.put_item(put_item(item(json!({"PK": {"S": "a"}, "SK": {"N": "1"}})))).map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Type mismatch for key SK expected: S actual: N",
        ),
        (
            store.put_item(put_item(item(json!({"PK": {"S": ""}, "SK": {"S": "1"}})))).map(|_| ()),
            "ValidationException",
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK",
        ),
        (
            store
                .put_item(put_item(item(json!({"PK": {"S": "a"}, "SK": {"S": "1"}, "status": {"N": "1"}}))))
                .map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Type mismatch for Index Key status Expected: S Actual: N IndexName: byStatus",
        ),
        (
            store
                .put_item(put_item(item(json!({"PK": {"S": "a"}, "SK": {"S": "1"}, "at": {"S": ""}}))))
                .map(|_| ()),
            "ValidationException",
            "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: byStatus, IndexKey: at",
        ),
        (
            store
                .get_item(&GetItem {
                    table: "tbl".into(),
                    key: item(json!({"PK": {"S": "a"}})),
                    consistent_read: false,
                    projection: None,
                })
                .map(|_| ()),
            "ValidationException",
            "The provided key element does not match the schema",
        ),
        (
            store.query(&Query { limit: Some(0), ..query_pk("a") }).map(|_| ()),
            "ValidationException",
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
        ),
        (
            store.query(&Query { index: Some("nope".into()), ..query_pk("a") }).map(|_| ()),
            "ValidationException",
            "The table does not have the specified index: nope",
        ),
        (
            store.query(&Query::new("tbl", KeyCondition { terms: vec![eq("SK", s("a"))] })).map(|_| ()),
            "ValidationException",
            "Query condition missed key schema element: PK",
        ),
        (
            store
                .query(&Query::new(
                    "tbl",
                    KeyCondition { terms: vec![eq("PK", s("a")), eq("other", s("b"))] },
                ))
                .map(|_| ()),
            "ValidationException",
            "Query condition missed key schema element: SK",
        ),
        (
            store
                .query(&Query::new(
                    "tbl",
                    KeyCondition {
                        terms: vec![KeyTerm { attribute: "PK".into(), op: KeyOp::BeginsWith(s("a")) }],
                    },
                ))
                .map(|_| ()),
            "ValidationException",
            "Query key condition not supported",
        ),
        (
            store
                .query(&Query::new("tbl", KeyCondition { terms: vec![eq("PK", AttributeValue::n(1))] }))
                .map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Condition parameter type does not match schema type",
        ),
        (
            store
                .query(&Query::new(
                    "tbl",
                    KeyCondition {
                        terms: vec![
                            eq("PK", s("a")),
                            KeyTerm { attribute: "SK".into(), op: KeyOp::Between(s("b"), s("a")) },
                        ],
                    },
                ))
                .map(|_| ()),
            "ValidationException",
            "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}",
        ),
        (
            store
                .query(&Query {
                    index: Some("byStatus".into()),
                    ..Query::new("tbl", KeyCondition { terms: vec![eq("PK", s("a"))] })
                })
                .map(|_| ()),
            "ValidationException",
            "Query condition missed key schema element: status",
        ),
        (
            store
                .query(&Query { exclusive_start_key: Some(item(json!({"PK": {"S": "a"}}))), ..query_pk("a") })
                .map(|_| ()),
            "ValidationException",
            "The provided starting key is invalid: The provided key element does not match the schema",
        ),
        (
            store.query(&Query { select: Some(Select::AllProjectedAttributes), ..query_pk("a") }).map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is supported only for index queries",
        ),
        (
            store
                .scan(&Scan {
                    index: Some("byStatus".into()),
                    select: Some(Select::AllAttributes),
                    ..Scan::new("tbl")
                })
                .map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index byStatus because its projection type is not ALL",
        ),
        (
            store.scan(&Scan { select: Some(Select::SpecificAttributes), ..Scan::new("tbl") }).map(|_| ()),
            "ValidationException",
            "One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires a ProjectionExpression",
        ),
        (
            store.scan(&Scan { segment: Some((3, 3)), ..Scan::new("tbl") }).map(|_| ()),
            "ValidationException",
            "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 3 is out of bounds for TotalSegments: 3",
        ),
        (
            store
                .batch_get_item(&BatchGetItem {
                    tables: vec![BatchGetTable {
                        table: "tbl".into(),
                        keys: (0..101).map(|i| key("a", &i.to_string())).collect(),
                        consistent_read: false,
                        projection: None,
                    }],
                })
                .map(|_| ()),
            "ValidationException",
            "Too many items requested for the BatchGetItem call",
        ),
        (
            store
                .batch_get_item(&BatchGetItem {
                    tables: vec![BatchGetTable {
                        table: "tbl".into(),
                        keys: vec![key("a", "1"), key("a", "1")],
                        consistent_read: false,
                        projection: None,
                    }],
                })
                .map(|_| ()),
            "ValidationException",
            "Provided list of item keys contains duplicates",
        ),
        (
            store
                .batch_write_item(BatchWriteItem {
                    tables: vec![(
                        "tbl".into(),
                        (0..26).map(|i| WriteRequest::Put(key("a", &i.to_string()))).collect(),
                    )],
                })
                .map(|_| ()),
            "ValidationException",
            "Too many items requested for the BatchWriteItem call",
        ),
        (
            store
                .batch_write_item(BatchWriteItem {
                    tables: vec![(
                        "tbl".into(),
                        vec![WriteRequest::Put(key("a", "1")), WriteRequest::Delete(key("a", "1"))],
                    )],
                })
                .map(|_| ()),
            "ValidationException",
            "Provided list of item keys contains duplicates",
        ),
        (
            store
                .batch_write_item(BatchWriteItem {
                    tables: vec![("nope".into(), vec![WriteRequest::Delete(key("a", "1"))])],
                })
                .map(|_| ()),
            "ResourceNotFoundException",
            "Requested resource not found: Table: nope not found",
        ),
    ];
    for (result, type_name, text) in cases {
        let error = result.expect_err(text);
        assert_eq!((error.type_name(), error.to_string().as_str()), (type_name, text));
    }
    assert_eq!(store.table("tbl").unwrap().item_count(), 0, "nothing was written");
}

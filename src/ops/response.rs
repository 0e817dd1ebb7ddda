//! Typed store response → DynamoDB's JSON response body. Every object's keys are written in
//! sorted order (items are sorted maps already), so the output is byte-for-byte deterministic.

use serde_json::{Map, Value as Json};

use crate::engine::store::{
    AdvanceReport, BatchGetItemOutput, BatchWriteItemOutput, BillingMode, ConsumedCapacity, GetItemOutput,
    IndexDescription, IndexSpec, KeySchema, ProjectionType, QueryOutput, Store, Table, TableDescription,
    Throughput, Units, UpdateTimeToLive, WriteOutput,
};
use crate::engine::value::item_to_json;

use super::request::{BatchGetEcho, Capacity};

/// An object with its keys in sorted order.
fn object(mut fields: Vec<(&str, Json)>) -> Json {
    fields.sort_by(|a, b| a.0.cmp(b.0));
    Json::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn units(value: f64) -> Json {
    object(vec![("CapacityUnits", Json::from(value))])
}

/// `ConsumedCapacity` as DynamoDB shapes it: TOTAL names the table and the units; INDEXES adds
/// the table's share and each index that consumed anything.
fn consumed_json(store: &Store, table: &str, consumed: &ConsumedCapacity, mode: Capacity) -> Option<Json> {
    let mut fields = match mode {
        Capacity::None => return None,
        Capacity::Total | Capacity::Indexes => {
            vec![("TableName", Json::from(table)), ("CapacityUnits", Json::from(consumed.total()))]
        }
    };
    if mode == Capacity::Indexes {
        fields.push(("Table", units(consumed.table.total())));
        let spec = store.table(table).map(Table::spec);
        let breakdown = |indexes: &[IndexSpec], spent: &[Units]| -> Option<Json> {
            let map: Map<String, Json> = indexes
                .iter()
                .zip(spent)
                .filter(|(_, u)| u.total() > 0.0)
                .map(|(i, u)| (i.name.clone(), units(u.total())))
                .collect();
            let mut sorted: Vec<(String, Json)> = map.into_iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            (!sorted.is_empty()).then(|| Json::Object(sorted.into_iter().collect()))
        };
        if let Some(spec) = spec {
            if let Some(global) = breakdown(&spec.global, &consumed.global) {
                fields.push(("GlobalSecondaryIndexes", global));
            }
            if let Some(local) = breakdown(&spec.local, &consumed.local) {
                fields.push(("LocalSecondaryIndexes", local));
            }
        }
    }
    Some(object(fields))
}

pub(super) fn write_output(store: &Store, table: &str, output: &WriteOutput, mode: Capacity) -> Json {
    let mut fields = Vec::new();
    if let Some(attributes) = &output.attributes {
        fields.push(("Attributes", item_to_json(attributes)));
    }
    if let Some(consumed) = consumed_json(store, table, &output.consumed, mode) {
        fields.push(("ConsumedCapacity", consumed));
    }
    object(fields)
}

pub(super) fn get_item(store: &Store, table: &str, output: &GetItemOutput, mode: Capacity) -> Json {
    let mut fields = Vec::new();
    if let Some(item) = &output.item {
        fields.push(("Item", item_to_json(item)));
    }
    if let Some(consumed) = consumed_json(store, table, &output.consumed, mode) {
        fields.push(("ConsumedCapacity", consumed));
    }
    object(fields)
}

/// A Query or Scan response; `count_only` (Select COUNT) leaves out `Items`.
pub(super) fn query(
    store: &Store,
    table: &str,
    output: &QueryOutput,
    count_only: bool,
    mode: Capacity,
) -> Json {
    let mut fields =
        vec![("Count", Json::from(output.count)), ("ScannedCount", Json::from(output.scanned_count))];
    if !count_only {
        fields.push(("Items", output.items.iter().map(|i| item_to_json(i)).collect()));
    }
    if let Some(key) = &output.last_evaluated_key {
        fields.push(("LastEvaluatedKey", item_to_json(key)));
    }
    if let Some(consumed) = consumed_json(store, table, &output.consumed, mode) {
        fields.push(("ConsumedCapacity", consumed));
    }
    object(fields)
}

fn consumed_list<'a>(
    store: &Store,
    consumed: impl Iterator<Item = &'a (String, ConsumedCapacity)>,
    mode: Capacity,
) -> Option<Json> {
    let list: Vec<Json> = consumed.filter_map(|(table, c)| consumed_json(store, table, c, mode)).collect();
    (mode != Capacity::None).then(|| Json::Array(list))
}

pub(super) fn batch_get_item(
    store: &Store,
    output: &BatchGetItemOutput,
    echo: &BatchGetEcho,
    mode: Capacity,
) -> Json {
    let responses: Map<String, Json> = output
        .responses
        .iter()
        .map(|(table, items)| (table.clone(), items.iter().map(|i| item_to_json(i)).collect()))
        .collect();
    let mut unprocessed: Vec<(String, Json)> = output
        .unprocessed
        .iter()
        .map(|t| {
            let mut fields = vec![("Keys", t.keys.iter().map(item_to_json).collect())];
            if t.consistent_read {
                fields.push(("ConsistentRead", Json::Bool(true)));
            }
            // The rest of the entry as it was sent, so the whole of it can be sent again.
            if let Some(entry) = echo.get(&t.table) {
                if let Some(projection) = &entry.projection {
                    fields.push(("ProjectionExpression", Json::from(projection.as_str())));
                }
                if !entry.names.is_empty() {
                    let names =
                        entry.names.iter().map(|(k, v)| (k.clone(), Json::from(v.as_str()))).collect();
                    fields.push(("ExpressionAttributeNames", Json::Object(names)));
                }
            }
            (t.table.clone(), object(fields))
        })
        .collect();
    unprocessed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut fields = vec![
        ("Responses", Json::Object(responses)),
        ("UnprocessedKeys", Json::Object(unprocessed.into_iter().collect())),
    ];
    if let Some(consumed) = consumed_list(store, output.consumed.iter(), mode) {
        fields.push(("ConsumedCapacity", consumed));
    }
    object(fields)
}

pub(super) fn batch_write_item(store: &Store, output: &BatchWriteItemOutput, mode: Capacity) -> Json {
    let mut fields = vec![("UnprocessedItems", Json::Object(Map::new()))];
    if let Some(consumed) = consumed_list(store, output.consumed.iter(), mode) {
        fields.push(("ConsumedCapacity", consumed));
    }
    object(fields)
}

fn key_schema(key: &KeySchema) -> Json {
    let element = |name: &str, key_type: &str| {
        object(vec![("AttributeName", Json::from(name)), ("KeyType", Json::from(key_type))])
    };
    let mut elements = vec![element(&key.partition.name, "HASH")];
    if let Some(sort) = &key.sort {
        elements.push(element(&sort.name, "RANGE"));
    }
    Json::Array(elements)
}

fn throughput(t: Throughput) -> Json {
    object(vec![("ReadCapacityUnits", Json::from(t.read)), ("WriteCapacityUnits", Json::from(t.write))])
}

fn projection(projection: &ProjectionType) -> Json {
    let mut fields = vec![("ProjectionType", Json::from(projection.name()))];
    if let ProjectionType::Include(names) = projection {
        fields.push(("NonKeyAttributes", names.iter().map(|n| Json::from(n.as_str())).collect()));
    }
    object(fields)
}

pub(super) fn table_description(description: &TableDescription) -> Json {
    let spec = &description.spec;
    let mut definitions: Vec<(&str, &str)> = std::iter::once(&spec.key)
        .chain(spec.global.iter().chain(&spec.local).map(|i| &i.key))
        .flat_map(KeySchema::attributes)
        .map(|a| (a.name.as_str(), a.key_type.descriptor()))
        .collect();
    definitions.sort_unstable();
    definitions.dedup();
    let indexes = |specs: &[IndexSpec], stats: &[IndexDescription]| -> Json {
        specs
            .iter()
            .zip(stats)
            .map(|(spec, stats)| {
                let mut fields = vec![
                    ("IndexName", Json::from(spec.name.as_str())),
                    ("IndexSizeBytes", Json::from(stats.size_bytes)),
                    ("IndexStatus", Json::from("ACTIVE")),
                    ("ItemCount", Json::from(stats.item_count)),
                    ("KeySchema", key_schema(&spec.key)),
                    ("Projection", projection(&spec.projection)),
                ];
                if let Some(t) = spec.throughput {
                    fields.push(("ProvisionedThroughput", throughput(t)));
                }
                object(fields)
            })
            .collect()
    };
    let billing = match spec.billing {
        BillingMode::PayPerRequest => "PAY_PER_REQUEST",
        BillingMode::Provisioned(_) => "PROVISIONED",
    };
    let mut fields = vec![
        (
            "AttributeDefinitions",
            definitions
                .into_iter()
                .map(|(name, t)| {
                    object(vec![("AttributeName", Json::from(name)), ("AttributeType", Json::from(t))])
                })
                .collect(),
        ),
        ("BillingModeSummary", object(vec![("BillingMode", Json::from(billing))])),
        ("CreationDateTime", Json::from(description.created_secs)),
        ("ItemCount", Json::from(description.item_count)),
        ("KeySchema", key_schema(&spec.key)),
        ("TableName", Json::from(spec.name.as_str())),
        ("TableSizeBytes", Json::from(description.size_bytes)),
        ("TableStatus", Json::from("ACTIVE")),
    ];
    if !spec.global.is_empty() {
        fields.push(("GlobalSecondaryIndexes", indexes(&spec.global, &description.global)));
    }
    if !spec.local.is_empty() {
        fields.push(("LocalSecondaryIndexes", indexes(&spec.local, &description.local)));
    }
    if let BillingMode::Provisioned(t) = spec.billing {
        fields.push(("ProvisionedThroughput", throughput(t)));
    }
    object(fields)
}

pub(super) fn time_to_live(request: &UpdateTimeToLive) -> Json {
    object(vec![(
        "TimeToLiveSpecification",
        object(vec![
            ("AttributeName", Json::from(request.attribute.as_str())),
            ("Enabled", Json::Bool(request.enabled)),
        ]),
    )])
}

pub(super) fn advance(store: &Store, report: AdvanceReport) -> Json {
    object(vec![
        ("IndexChangesApplied", Json::from(report.index_changes_applied)),
        ("Now", Json::from(store.now().as_secs())),
        ("TimeToLiveDeletes", Json::from(report.ttl_deleted)),
    ])
}

/// An error line: `{"__type": ..., "message": ...}`.
pub(super) fn error(type_name: &str, message: &str) -> Json {
    object(vec![("__type", Json::from(type_name)), ("message", Json::from(message))])
}

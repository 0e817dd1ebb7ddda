//! `keyheat export cloudformation`: a variant's tables as a CloudFormation template, one
//! `AWS::DynamoDB::Table` resource per table ([`super::tables`]), in JSON or YAML.
//!
//! Per table (AWS CloudFormation reference, `AWS::DynamoDB::Table`): `AttributeDefinitions` lists
//! exactly the attributes that some key schema uses (AWS refuses others), `KeySchema` is HASH then
//! RANGE, GSIs and LSIs carry their projection (`INCLUDE` lists only non-key attributes: DynamoDB
//! projects the keys anyway), `BillingMode` is `PAY_PER_REQUEST` or `PROVISIONED` with the
//! variant's throughput on the table and on every GSI (as the simulator meters them), and
//! `TimeToLiveSpecification` names the variant's TTL attribute.
//!
//! The YAML is written by [`yaml`], a small writer of JSON values in block style: the template is
//! built once as JSON and both formats print that one value, so they cannot disagree.

use std::fmt::Write as _;

use serde_json::{Map, Value as Json, json};

use super::{IndexDesign, KeyAttr, TableDesign};
use crate::engine::model::{Capacity, IndexKind, Projection, Scenario, Variant};
use crate::engine::profile::{Language, Layout};

/// The template's text format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Yaml,
    Json,
}

/// The template for `variant`, as text.
pub fn render(scenario: &Scenario, variant: &Variant, format: Format) -> String {
    let template = template(scenario, variant);
    match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&template).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Yaml => yaml(&template),
    }
}

/// The template as a JSON value.
pub fn template(scenario: &Scenario, variant: &Variant) -> Json {
    let mut resources = Map::new();
    let mut used: Vec<String> = Vec::new();
    for table in super::tables(scenario, variant) {
        let mut id = logical_id(&table.name);
        let base = id.clone();
        let mut n = 2;
        while used.contains(&id) {
            id = format!("{base}{n}");
            n += 1;
        }
        used.push(id.clone());
        resources.insert(id, json!({"Type": "AWS::DynamoDB::Table", "Properties": properties(&table)}));
    }
    let mut description =
        format!("keyheat: {} ({}), variant {}", scenario.title, scenario.name, variant.name);
    if scenario.engine.profile().layout == Layout::TablePerEntity {
        // Each entity a table (Cassandra) or a collection (MongoDB) of its own, in its own words.
        let places =
            if scenario.engine.profile().language == Language::MongoDb { "collections" } else { "tables" };
        let _ = write!(
            description,
            ": the {} profile's {places} (one per entity) as DynamoDB tables",
            scenario.engine
        );
    }
    json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": truncate(&description, 1024),
        "Resources": resources,
    })
}

pub(super) fn properties(table: &TableDesign) -> Json {
    let mut p = Map::new();
    p.insert("TableName".into(), json!(table.name));
    p.insert(
        "AttributeDefinitions".into(),
        table
            .key_attributes()
            .iter()
            .map(|a| json!({"AttributeName": a.name, "AttributeType": a.ty.descriptor()}))
            .collect(),
    );
    p.insert("KeySchema".into(), key_schema(&table.pk, table.sk.as_ref()));
    let throughput = match table.capacity {
        Capacity::OnDemand => None,
        Capacity::Provisioned { read, write } => {
            Some(json!({"ReadCapacityUnits": read, "WriteCapacityUnits": write}))
        }
    };
    p.insert(
        "BillingMode".into(),
        json!(if throughput.is_some() { "PROVISIONED" } else { "PAY_PER_REQUEST" }),
    );
    if let Some(t) = &throughput {
        p.insert("ProvisionedThroughput".into(), t.clone());
    }
    let keys: Vec<&str> = table.key_attributes().iter().map(|a| a.name.as_str()).collect();
    let index = |i: &IndexDesign| {
        let mut out = Map::new();
        out.insert("IndexName".into(), json!(i.name));
        out.insert("KeySchema".into(), key_schema(&i.pk, i.sk.as_ref()));
        out.insert("Projection".into(), projection(&i.projection, &keys));
        if let (IndexKind::Global, Some(t)) = (i.kind, &throughput) {
            out.insert("ProvisionedThroughput".into(), t.clone());
        }
        Json::Object(out)
    };
    for (kind, field) in
        [(IndexKind::Global, "GlobalSecondaryIndexes"), (IndexKind::Local, "LocalSecondaryIndexes")]
    {
        let list: Vec<Json> = table.indexes.iter().filter(|i| i.kind == kind).map(index).collect();
        if !list.is_empty() {
            p.insert(field.into(), Json::Array(list));
        }
    }
    if let Some(ttl) = &table.ttl {
        p.insert("TimeToLiveSpecification".into(), json!({"AttributeName": ttl, "Enabled": true}));
    }
    Json::Object(p)
}

fn key_schema(pk: &KeyAttr, sk: Option<&KeyAttr>) -> Json {
    let mut out = vec![json!({"AttributeName": pk.name, "KeyType": "HASH"})];
    if let Some(sk) = sk {
        out.push(json!({"AttributeName": sk.name, "KeyType": "RANGE"}));
    }
    Json::Array(out)
}

/// An index's projection; key attributes are left out of `INCLUDE` (always projected), and an
/// `INCLUDE` of nothing else is `KEYS_ONLY`.
fn projection(projection: &Projection, keys: &[&str]) -> Json {
    match projection {
        Projection::All => json!({"ProjectionType": "ALL"}),
        Projection::KeysOnly => json!({"ProjectionType": "KEYS_ONLY"}),
        Projection::Include(names) => {
            let rest: Vec<&String> = names.iter().filter(|n| !keys.contains(&n.as_str())).collect();
            if rest.is_empty() {
                json!({"ProjectionType": "KEYS_ONLY"})
            } else {
                json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": rest})
            }
        }
    }
}

/// A CloudFormation logical id (alphanumeric): `social-feed` → `SocialFeedTable`.
fn logical_id(name: &str) -> String {
    let mut out = String::new();
    for word in name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'T');
    }
    out.push_str("Table");
    out
}

fn truncate(text: &str, max_bytes: usize) -> String {
    let mut end = text.len().min(max_bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// `value` as block-style YAML. Strings are plain where YAML reads them back as the same string
/// (a letter first, then letters, digits and `_ - . : /` with no `: `), double-quoted with JSON's
/// escapes (valid YAML) otherwise.
pub fn yaml(value: &Json) -> String {
    let mut out = String::new();
    match value {
        Json::Object(map) if !map.is_empty() => write_map(&mut out, map, 0),
        Json::Array(list) if !list.is_empty() => write_list(&mut out, list, 0),
        scalar => {
            out.push_str(&yaml_scalar(scalar));
            out.push('\n');
        }
    }
    out
}

fn write_map(out: &mut String, map: &Map<String, Json>, indent: usize) {
    for (i, (key, value)) in map.iter().enumerate() {
        // The first key of a map inside a list item shares the `- ` line.
        if i > 0 || !out.ends_with("- ") {
            out.push_str(&" ".repeat(indent));
        }
        out.push_str(&yaml_string(key));
        out.push(':');
        write_value(out, value, indent);
    }
}

fn write_list(out: &mut String, list: &[Json], indent: usize) {
    for (i, value) in list.iter().enumerate() {
        if i > 0 || !out.ends_with("- ") {
            out.push_str(&" ".repeat(indent));
        }
        out.push_str("- ");
        match value {
            Json::Object(map) if !map.is_empty() => write_map(out, map, indent + 2),
            Json::Array(inner) if !inner.is_empty() => write_list(out, inner, indent + 2),
            scalar => {
                out.push_str(&yaml_scalar(scalar));
                out.push('\n');
            }
        }
    }
}

/// The value after `key:`: a scalar on the same line, a collection on the lines below.
fn write_value(out: &mut String, value: &Json, indent: usize) {
    match value {
        Json::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_map(out, map, indent + 2);
        }
        Json::Array(list) if !list.is_empty() => {
            out.push('\n');
            write_list(out, list, indent + 2);
        }
        scalar => {
            out.push(' ');
            out.push_str(&yaml_scalar(scalar));
            out.push('\n');
        }
    }
}

fn yaml_scalar(value: &Json) -> String {
    match value {
        Json::String(s) => yaml_string(s),
        Json::Object(_) => "{}".to_owned(),
        Json::Array(_) => "[]".to_owned(),
        other => other.to_string(),
    }
}

fn yaml_string(s: &str) -> String {
    const WORDS: [&str; 16] = [
        "true", "false", "yes", "no", "on", "off", "null", "y", "n", "True", "False", "Yes", "No", "On",
        "Off", "Null",
    ];
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'))
        && !s.ends_with(':')
        && !WORDS.iter().any(|w| w.eq_ignore_ascii_case(s));
    if plain { s.to_owned() } else { Json::String(s.to_owned()).to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    fn render_bundled(name: &str, variant: &str, format: Format) -> String {
        let loaded = scenario::load(name).unwrap();
        render(&loaded.scenario, loaded.variant(Some(variant)).unwrap(), format)
    }

    #[test]
    fn yaml_strings_are_plain_only_where_they_read_back_the_same() {
        let cases = [
            ("PK", "PK"),
            ("AWS::DynamoDB::Table", "AWS::DynamoDB::Table"),
            ("2010-09-09", "\"2010-09-09\""),
            ("yes", "\"yes\""),
            ("NO", "\"NO\""),
            ("by status", "\"by status\""),
            ("a: b", "\"a: b\""),
            ("key:", "\"key:\""),
            ("", "\"\""),
            ("say \"hi\"\n", "\"say \\\"hi\\\"\\n\""),
        ];
        for (text, expected) in cases {
            assert_eq!(yaml_string(text), expected, "{text:?}");
        }
    }

    #[test]
    fn yaml_nests_maps_and_lists_in_block_style() {
        let value = json!({"a": 1, "b": [{"x": "v", "z": [true]}, "w"], "c": {}, "d": []});
        assert_eq!(yaml(&value), "a: 1\nb:\n  - x: v\n    z:\n      - true\n  - w\nc: {}\nd: []\n");
    }

    /// A store that keeps an entity per table or collection says which, in its own words.
    #[test]
    fn the_description_names_the_stores_tables_or_collections() {
        // (scenario, variant, the description's end)
        let cases = [
            (
                "sensors",
                "recommended",
                ": the Cassandra profile's tables (one per entity) as DynamoDB tables",
            ),
            (
                "shard-keys",
                "naive",
                ": the MongoDB profile's collections (one per entity) as DynamoDB tables",
            ),
            ("orders", "recommended", "variant recommended"),
        ];
        for (name, variant, end) in cases {
            let loaded = scenario::load(name).unwrap();
            let template = template(&loaded.scenario, loaded.variant(Some(variant)).unwrap());
            let description = template["Description"].as_str().unwrap_or_default();
            assert!(description.ends_with(end), "{name}: {description}");
        }
    }

    #[test]
    fn logical_ids_are_alphanumeric() {
        for (name, id) in [("orders", "OrdersTable"), ("social-feed", "SocialFeedTable"), ("9x", "T9xTable")]
        {
            assert_eq!(logical_id(name), id);
        }
    }

    #[test]
    fn the_recommended_orders_table_has_its_sparse_gsi_and_key_attributes_only() {
        let template = template(
            &scenario::load("orders").unwrap().scenario,
            scenario::load("orders").unwrap().variant(Some("recommended")).unwrap(),
        );
        let props = &template["Resources"]["OrdersTable"]["Properties"];
        assert_eq!(props["BillingMode"], "PAY_PER_REQUEST");
        let defined: Vec<&str> = props["AttributeDefinitions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["AttributeName"].as_str().unwrap())
            .collect();
        assert_eq!(defined, ["PK", "SK", "GSI1PK", "GSI1SK"]);
        let gsi = &props["GlobalSecondaryIndexes"][0];
        assert_eq!(gsi["IndexName"], "pending");
        assert_eq!(gsi["Projection"], json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["total"]}));
        assert_eq!(props["AttributeDefinitions"][3]["AttributeType"], "N", "placed_at is a Time");
    }

    #[test]
    fn provisioned_capacity_is_set_on_the_table_and_every_gsi() {
        let text = render_bundled("counters", "naive", Format::Json);
        let template: Json = serde_json::from_str(&text).unwrap();
        let props = &template["Resources"]["CountersTable"]["Properties"];
        assert_eq!(props["BillingMode"], "PROVISIONED");
        assert_eq!(
            props["ProvisionedThroughput"],
            json!({"ReadCapacityUnits": 12000, "WriteCapacityUnits": 16000})
        );
    }

    #[test]
    fn the_json_and_the_yaml_say_the_same() {
        for (name, variant) in [("orders", "recommended"), ("chat", "recommended"), ("leaderboard", "naive")]
        {
            let json_text = render_bundled(name, variant, Format::Json);
            let value: Json = serde_json::from_str(&json_text).unwrap();
            assert_eq!(yaml(&value), render_bundled(name, variant, Format::Yaml), "{name}");
        }
    }
}

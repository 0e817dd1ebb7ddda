//! NoSQL Workbench data models: the JSON its "Export data model" writes and "Import data model"
//! reads (AWS developer guide, "NoSQL Workbench" pages), in both directions.
//!
//! The format ([`Model`]): `ModelName`, `ModelMetadata`, and `DataModel`, a list of tables, each
//! with `TableName`, `KeyAttributes` (`PartitionKey`, `SortKey`: name and type), the declared
//! `NonKeyAttributes`, `TableFacets` (a facet is one kind of item: `FacetName`,
//! `KeyAttributeAlias` {`PartitionKeyAlias`, `SortKeyAlias`}, its attribute names, sometimes its
//! own `TableData`), `GlobalSecondaryIndexes` (`IndexName`, `KeyAttributes`, `Projection`),
//! `TableData` (sample items in DynamoDB JSON), `BillingMode` and
//! `ProvisionedCapacitySettings`.
//!
//! Terms: a facet is an entity, a key alias is a key template. [`export`] writes one facet per
//! entity whose aliases are the variant's templates themselves (`CUSTOMER#{customer_id}`), so a
//! model keyheat wrote reads back exactly; [`import`] also reads models drawn by hand, where an
//! alias is a name (`CustomerId`) and the sample items show the key's shape.

mod import;

pub use import::{Imported, NwbError, import};

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use super::TableDesign;
use crate::engine::model::{
    AttrType, Capacity, EntityId, Generator, IndexKind, Projection, Scenario, Variant,
};
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::template::{Part, Template};
use crate::engine::value::{AttributeValue, Item, item_to_json};

/// A data model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Model {
    pub model_name: String,
    #[serde(default)]
    pub model_metadata: Option<Metadata>,
    pub data_model: Vec<Table>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Metadata {
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub date_created: String,
    #[serde(default)]
    pub date_last_modified: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, rename = "AWSService")]
    pub aws_service: String,
    #[serde(default)]
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Table {
    pub table_name: String,
    pub key_attributes: KeyAttributes,
    #[serde(default)]
    pub non_key_attributes: Vec<AttributeDef>,
    #[serde(default)]
    pub table_facets: Vec<Facet>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub global_secondary_indexes: Vec<Gsi>,
    #[serde(default)]
    pub table_data: Vec<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_access: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billing_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisioned_capacity_settings: Option<CapacitySettings>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct KeyAttributes {
    pub partition_key: AttributeDef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_key: Option<AttributeDef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AttributeDef {
    pub attribute_name: String,
    #[serde(deserialize_with = "dynamodb_type")]
    pub attribute_type: String,
}

/// DynamoDB's attribute type descriptors (API reference, "AttributeValue"): a model naming any
/// other is not a model NoSQL Workbench wrote, so it is refused where it says so (serde_json
/// adds the line and column) rather than imported as a guess.
const DYNAMODB_TYPES: [&str; 10] = ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];

fn dynamodb_type<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let ty = String::deserialize(deserializer)?;
    if DYNAMODB_TYPES.contains(&ty.as_str()) {
        Ok(ty)
    } else {
        Err(serde::de::Error::invalid_value(
            serde::de::Unexpected::Str(&ty),
            &"a DynamoDB attribute type: S, N, B, BOOL, NULL, M, L, SS, NS or BS",
        ))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Facet {
    pub facet_name: String,
    pub key_attribute_alias: KeyAlias,
    #[serde(default)]
    pub table_data: Vec<Json>,
    #[serde(default)]
    pub non_key_attributes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_access: Option<Json>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct KeyAlias {
    pub partition_key_alias: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_key_alias: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Gsi {
    pub index_name: String,
    pub key_attributes: KeyAttributes,
    pub projection: GsiProjection,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GsiProjection {
    pub projection_type: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_key_attributes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct CapacitySettings {
    pub provisioned_throughput: Throughput,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Throughput {
    pub read_capacity_units: u32,
    pub write_capacity_units: u32,
}

/// Sample items written per facet.
pub const SAMPLES: usize = 4;
/// Items looked at per entity when choosing samples (so a sparse index gets an example).
const CANDIDATES: u32 = 1000;
/// Ticks replayed at most to find items of entities that only puts create.
const SAMPLE_TICKS: u32 = 120;

/// An exported model and what it could not say.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub json: String,
    /// One line per part of the design NoSQL Workbench has no place for.
    pub notes: Vec<String>,
}

/// Why a model could not be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("cannot replay {scenario} to draw sample items: {message}")]
    Replay { scenario: String, message: String },
}

/// `variant` as a NoSQL Workbench model: a table per [`super::tables`], a facet per entity (its
/// templates as aliases), the GSIs, and up to [`SAMPLES`] items per facet generated by the
/// scenario's own workload under its seed.
pub fn export(scenario: &Scenario, variant: &Variant) -> Result<Exported, ExportError> {
    let samples = samples(scenario, variant)?;
    let mut notes = Vec::new();
    let mut tables = Vec::new();
    for design in super::tables(scenario, variant) {
        tables.push(table(scenario, variant, &design, &samples, &mut notes));
    }
    for (what, count) in [
        ("denormalized copies", variant.copies.len()),
        ("maintained aggregates", variant.aggregates.len()),
        ("embeddings", variant.embeds.len()),
    ] {
        if count > 0 {
            notes.push(format!(
                "variant {}: its {what} ({count}) are application logic NoSQL Workbench does not model; not written",
                variant.name
            ));
        }
    }
    let start = scenario.workload.start.civil().date;
    let date = format!("{:04}-{:02}-{:02}", start.year(), start.month(), start.day());
    let model = Model {
        model_name: scenario.name.clone(),
        model_metadata: Some(Metadata {
            author: "keyheat".to_owned(),
            date_created: date.clone(),
            date_last_modified: date,
            description: format!("{} (variant {}): {}", scenario.title, variant.name, scenario.story),
            aws_service: "Amazon DynamoDB".to_owned(),
            version: "3.0".to_owned(),
        }),
        data_model: tables,
    };
    let mut json = serde_json::to_string_pretty(&model).unwrap_or_default();
    json.push('\n');
    Ok(Exported { json, notes })
}

fn table(
    scenario: &Scenario,
    variant: &Variant,
    design: &TableDesign,
    samples: &[(EntityId, Vec<Item>)],
    notes: &mut Vec<String>,
) -> Table {
    let key_def = |k: &super::KeyAttr| AttributeDef {
        attribute_name: k.name.clone(),
        attribute_type: k.ty.descriptor().to_owned(),
    };
    let key_names: Vec<&str> = design.key_attributes().iter().map(|k| k.name.as_str()).collect();
    let mut non_key: Vec<AttributeDef> = Vec::new();
    let mut facets = Vec::new();
    let mut data = Vec::new();
    for &id in &design.entities {
        let entity = &scenario.entities[id.index()];
        let name = &entity.name;
        let Some(keys) = variant.keys_for(id) else { continue };
        for a in &entity.attributes {
            if !key_names.contains(&a.name.as_str()) && !non_key.iter().any(|d| d.attribute_name == a.name) {
                non_key.push(AttributeDef {
                    attribute_name: a.name.clone(),
                    attribute_type: nwb_type(a.ty).to_owned(),
                });
            }
        }
        facets.push(Facet {
            facet_name: name.clone(),
            key_attribute_alias: KeyAlias {
                partition_key_alias: keys.pk.source().to_owned(),
                sort_key_alias: design.sk.as_ref().and(keys.sk.as_ref()).map(|sk| sk.source().to_owned()),
            },
            table_data: Vec::new(),
            non_key_attributes: entity.attributes.iter().map(|a| a.name.clone()).collect(),
            data_access: Some(json!({"MySql": {}})),
        });
        if let Some((_, items)) = samples.iter().find(|&&(e, _)| e == id) {
            data.extend(items.iter().map(item_to_json));
        } else {
            notes.push(format!(
                "facet {name}: the replay wrote no {name} item to sample; its TableData is empty"
            ));
        }
    }
    let gsis = design.indexes.iter().filter_map(|index| gsi(variant, index, notes)).collect();
    let (billing, settings) = match design.capacity {
        Capacity::OnDemand => ("PAY_PER_REQUEST", None),
        Capacity::Provisioned { read, write } => (
            "PROVISIONED",
            Some(CapacitySettings {
                provisioned_throughput: Throughput { read_capacity_units: read, write_capacity_units: write },
            }),
        ),
    };
    Table {
        table_name: design.name.clone(),
        key_attributes: KeyAttributes {
            partition_key: key_def(&design.pk),
            sort_key: design.sk.as_ref().map(key_def),
        },
        non_key_attributes: non_key,
        table_facets: facets,
        global_secondary_indexes: gsis,
        table_data: data,
        data_access: Some(json!({"MySql": {}})),
        billing_mode: Some(billing.to_owned()),
        provisioned_capacity_settings: settings,
    }
}

/// A GSI of the model (`None` for an LSI, which NoSQL Workbench does not model), with a note for
/// each part of it NoSQL Workbench cannot hold.
fn gsi(variant: &Variant, index: &super::IndexDesign, notes: &mut Vec<String>) -> Option<Gsi> {
    if index.kind == IndexKind::Local {
        notes.push(format!(
            "index {}: NoSQL Workbench models global secondary indexes only; this local index is not written",
            index.source
        ));
        return None;
    }
    let spec = variant.index(&index.source)?;
    if let Some((attribute, value)) = &spec.only_when {
        notes.push(format!(
            "index {}: `only_when: ({attribute:?}, {value:?})` has no NoSQL Workbench form; the sample items show it (only items with {attribute} = {value} carry the index keys)",
            index.source
        ));
    }
    // A computed slot's value is in the samples, not how it was computed.
    let computed =
        |t: &&Template| t.parts().iter().any(|p| !matches!(p, Part::Literal(_) | Part::Attr { .. }));
    for keys in &spec.keys {
        for template in std::iter::once(&keys.pk).chain(&keys.sk).filter(computed) {
            notes.push(format!(
                "index {}: {}'s key template {} computes its value (hash, shard, bucket or date); NoSQL Workbench holds only the values, so an import reads them back as plain slots",
                index.source,
                keys.entity,
                template.source()
            ));
        }
    }
    let (projection_type, attributes) = match &index.projection {
        Projection::All => ("ALL", Vec::new()),
        Projection::KeysOnly => ("KEYS_ONLY", Vec::new()),
        Projection::Include(names) => ("INCLUDE", names.clone()),
    };
    let key_def = |k: &super::KeyAttr| AttributeDef {
        attribute_name: k.name.clone(),
        attribute_type: k.ty.descriptor().to_owned(),
    };
    Some(Gsi {
        index_name: index.name.clone(),
        key_attributes: KeyAttributes {
            partition_key: key_def(&index.pk),
            sort_key: index.sk.as_ref().map(key_def),
        },
        projection: GsiProjection {
            projection_type: projection_type.to_owned(),
            non_key_attributes: attributes,
        },
    })
}

/// NoSQL Workbench's attribute type for a keyheat attribute type.
pub fn nwb_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::S => "S",
        AttrType::N | AttrType::Time => "N",
        AttrType::B => "B",
        AttrType::Bool => "BOOL",
    }
}

/// Up to [`SAMPLES`] items per entity, regenerated by the simulator (with their key attributes):
/// the first items of the workload, plus, for each index one of them lacks, the first candidate
/// that carries its keys. Entities only puts create get items by replaying up to
/// [`SAMPLE_TICKS`] ticks.
fn samples(scenario: &Scenario, variant: &Variant) -> Result<Vec<(EntityId, Vec<Item>)>, ExportError> {
    let mut sim = Simulation::new(scenario, variant, &RunOptions::default())
        .map_err(|e| ExportError::Replay { scenario: scenario.name.clone(), message: e.to_string() })?;
    let designs = super::tables(scenario, variant);
    let entities: Vec<EntityId> = designs.iter().flat_map(|t| t.entities.iter().copied()).collect();
    let ready = |sim: &Simulation| {
        entities.iter().all(|&e| sim.item(e, u32::try_from(SAMPLES - 1).unwrap_or(0)).is_some())
    };
    // A lifecycle (`States`) holds its first state until updates move it on: samples of items
    // that have not moved would show one state, and an import would read the attribute as a
    // constant. Replay on until the candidates hold more than one state of each.
    let lifecycles: Vec<(EntityId, &str)> = scenario
        .entities
        .iter()
        .filter(|e| entities.contains(&e.id()))
        .flat_map(|e| {
            e.attributes
                .iter()
                .filter(|a| matches!(a.generator, Generator::States(_)))
                .map(move |a| (e.id(), a.name.as_str()))
        })
        .collect();
    let varied = |sim: &Simulation| {
        lifecycles.iter().all(|&(entity, attribute)| {
            let mut seen = (0..CANDIDATES)
                .filter_map(|o| sim.item(entity, o))
                .filter_map(|v| v.item.get(attribute).cloned());
            seen.next().is_none_or(|first| seen.any(|v| v != first))
        })
    };
    let mut ticks = 0;
    while !(ready(&sim) && varied(&sim)) && ticks < SAMPLE_TICKS && sim.step() {
        ticks += 1;
    }
    let mut out = Vec::new();
    for design in &designs {
        for &entity in &design.entities {
            let candidates: Vec<Item> = (0..CANDIDATES)
                .filter_map(|ordinal| sim.item(entity, ordinal))
                .map(|view| view.item)
                .collect();
            let states: Vec<&str> =
                lifecycles.iter().filter(|&&(e, _)| e == entity).map(|&(_, a)| a).collect();
            let mut items = varied_samples(&candidates, &states)
                .into_iter()
                .map(|item| with_keys(scenario, variant, design, entity, item))
                .collect::<Vec<_>>();
            for index in &design.indexes {
                let carries = |item: &Item| item.contains_key(&index.pk.name);
                let holds = variant.index(&index.source).and_then(|i| i.keys_for(entity)).is_some();
                if !holds || items.iter().any(carries) {
                    continue;
                }
                let mut with = candidates.iter().map(|i| with_keys(scenario, variant, design, entity, i));
                if let Some(item) = with.find(carries) {
                    items.push(item);
                }
            }
            if !items.is_empty() {
                out.push((entity, items));
            }
        }
    }
    Ok(out)
}

/// `SAMPLES` of the candidates, in their order, but first one of each value the `lifecycles`
/// attributes hold, so the samples show that those values vary.
fn varied_samples<'a>(candidates: &'a [Item], lifecycles: &[&str]) -> Vec<&'a Item> {
    let mut chosen: Vec<usize> = Vec::new();
    for attribute in lifecycles {
        for (i, item) in candidates.iter().enumerate() {
            let shown = chosen.iter().any(|&c| candidates[c].get(*attribute) == item.get(*attribute));
            if chosen.len() < SAMPLES && !shown {
                chosen.push(i);
            }
        }
    }
    for i in 0..candidates.len() {
        if chosen.len() < SAMPLES && !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| &candidates[i]).collect()
}

/// The item with its key attributes. The simulator adds them in the DynamoDB profile; in the
/// Cassandra profile (a table per entity) they are expanded here from the templates, a write
/// shard drawn as shard 0.
fn with_keys(
    scenario: &Scenario,
    variant: &Variant,
    design: &TableDesign,
    entity: EntityId,
    item: &Item,
) -> Item {
    if scenario.engine.profile().key_attributes {
        return item.clone();
    }
    let mut out = item.clone();
    let mut shard = |_| 0;
    let mut add = |name: &str, template: &crate::engine::template::Template, out: &mut Item| {
        if let Some(key) = template.expand(item, &mut shard) {
            out.insert(name.to_owned(), key.to_attribute());
        }
    };
    if let Some(keys) = variant.keys_for(entity) {
        add(&design.pk.name, &keys.pk, &mut out);
        if let (Some(sk), Some(template)) = (&design.sk, &keys.sk) {
            add(&sk.name, template, &mut out);
        }
    }
    for index in &design.indexes {
        let Some(spec) = variant.index(&index.source) else { continue };
        let Some(keys) = spec.keys_for(entity) else { continue };
        let gated = |(attribute, value): &(String, String)| {
            item.get(attribute).and_then(AttributeValue::as_key).is_none_or(|k| k.to_string() != *value)
        };
        if spec.only_when.as_ref().is_some_and(gated) {
            continue;
        }
        add(&index.pk.name, &keys.pk, &mut out);
        if let (Some(sk), Some(template)) = (&index.sk, &keys.sk) {
            add(&sk.name, template, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    fn exported(name: &str, variant: &str) -> (Model, Vec<String>) {
        let loaded = scenario::load(name).unwrap();
        let out = export(&loaded.scenario, loaded.variant(Some(variant)).unwrap()).unwrap();
        (serde_json::from_str(&out.json).unwrap(), out.notes)
    }

    #[test]
    fn facets_carry_the_templates_and_the_samples_their_keys() {
        let (model, notes) = exported("orders", "recommended");
        let table = &model.data_model[0];
        let aliases: Vec<(&str, &str, Option<&str>)> = table
            .table_facets
            .iter()
            .map(|f| {
                let a = &f.key_attribute_alias;
                (f.facet_name.as_str(), a.partition_key_alias.as_str(), a.sort_key_alias.as_deref())
            })
            .collect();
        assert_eq!(
            aliases,
            [
                ("Customer", "CUSTOMER#{customer_id}", Some("PROFILE")),
                ("Order", "CUSTOMER#{customer_id}", Some("ORDER#{order_id}")),
                ("OrderItem", "ORDER#{order_id}", Some("ITEM#{line:03}")),
            ]
        );
        // Every sample item has the table's keys; the sparse index has an example.
        assert!(table.table_data.iter().all(|i| i.get("PK").is_some() && i.get("SK").is_some()));
        let indexed: Vec<&Json> = table.table_data.iter().filter(|i| i.get("GSI1PK").is_some()).collect();
        assert!(!indexed.is_empty(), "a pending order is among the samples");
        assert!(indexed.iter().all(|i| i["status"] == json!({"S": "PENDING"})));
        assert_eq!(table.global_secondary_indexes[0].projection.non_key_attributes, ["total"]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("index pending: `only_when"), "{notes:?}");
    }

    #[test]
    fn a_cassandra_scenario_is_a_table_per_entity_with_its_keys_expanded() {
        let (model, _) = exported("sensors", "recommended");
        let names: Vec<&str> = model.data_model.iter().map(|t| t.table_name.as_str()).collect();
        assert_eq!(names, ["Sensor", "Reading"]);
        let reading = &model.data_model[1];
        assert_eq!(reading.key_attributes.sort_key.as_ref().map(|k| k.attribute_type.as_str()), Some("N"));
        for item in &reading.table_data {
            let pk = item["PK"]["S"].as_str().unwrap();
            assert!(pk.starts_with("sensor-") && pk.ends_with("#2025-01-01"), "{pk}");
            assert!(item["SK"]["N"].is_string(), "{item}");
        }
    }

    #[test]
    fn what_nosql_workbench_cannot_hold_is_named() {
        let (_, notes) = exported("practice-social", "recommended");
        assert!(notes.iter().any(|n| n.contains("maintained aggregates (1)")), "{notes:?}");
    }
}

//! CreateTable's parameters → a `TableSpec`: key schemas typed by AttributeDefinitions,
//! secondary indexes with their projections, billing mode and provisioned throughput, with
//! DynamoDB's messages for the rules that live in the request's shape (unused definitions,
//! HASH before RANGE, NonKeyAttributes only with INCLUDE…). Rules on the spec itself are the
//! store's (`TableSpec::validate`).

use serde_json::{Map, Value as Json};

use crate::engine::store::{
    BillingMode, CreateTable, IndexSpec, KeyAttribute, KeySchema, ProjectionType, TableSpec, Throughput,
};
use crate::engine::value::KeyType;

use super::OpsError;
use super::params::{Params, missing, not_in_enum};

/// A KeySchema array: one HASH element, optionally one RANGE element; types come from
/// AttributeDefinitions.
fn key_schema(json: Option<&[Json]>, definitions: &[(String, KeyType)]) -> Result<KeySchema, OpsError> {
    let elements = json.ok_or_else(|| missing("KeySchema"))?;
    if elements.is_empty() || elements.len() > 2 {
        return Err(OpsError::validation(format!(
            "1 validation error detected: Value at 'keySchema' failed to satisfy constraint: Member must have length \
             {} 2",
            if elements.is_empty() {
                "greater than or equal to 1, less than or equal to"
            } else {
                "less than or equal to"
            }
        )));
    }
    let mut parsed = Vec::with_capacity(2);
    for element in elements {
        let mut e = Params::of("KeySchemaElement", element)?;
        let name = e.required_string("AttributeName")?;
        let key_type = e.choice("KeyType", &["HASH", "RANGE"])?.ok_or_else(|| missing("KeyType"))?;
        e.finish()?;
        let defined = definitions.iter().find(|(n, _)| n == name).ok_or_else(|| {
            let names: Vec<&str> = definitions.iter().map(|(n, _)| n.as_str()).collect();
            OpsError::validation(format!(
                "One or more parameter values were invalid: Some index key attributes are not defined in \
                 AttributeDefinitions. Keys: [{name}], AttributeDefinitions: [{}]",
                names.join(", ")
            ))
        })?;
        parsed.push((KeyAttribute::new(name, defined.1), key_type));
    }
    let mut parsed = parsed.into_iter();
    let (partition, first) = parsed.next().expect("one or two elements");
    if first != "HASH" {
        return Err(OpsError::validation(
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
        ));
    }
    let sort = match parsed.next() {
        None => None,
        Some((sort, "RANGE")) => Some(sort),
        Some(_) => {
            return Err(OpsError::validation(
                "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
            ));
        }
    };
    Ok(KeySchema::new(partition, sort))
}

fn throughput(json: Option<&Map<String, Json>>) -> Result<Option<Throughput>, OpsError> {
    let Some(map) = json else { return Ok(None) };
    let mut t = Params::new("ProvisionedThroughput", map);
    let read = t.integer("ReadCapacityUnits")?.ok_or_else(|| missing("ReadCapacityUnits"))?;
    let write = t.integer("WriteCapacityUnits")?.ok_or_else(|| missing("WriteCapacityUnits"))?;
    t.finish()?;
    Ok(Some(Throughput { read, write }))
}

fn index_specs(json: Option<&[Json]>, definitions: &[(String, KeyType)]) -> Result<Vec<IndexSpec>, OpsError> {
    let mut specs = Vec::new();
    for index in json.unwrap_or_default() {
        let mut i = Params::of("SecondaryIndex", index)?;
        let name = i.required_string("IndexName")?.to_owned();
        let key = key_schema(i.array("KeySchema")?, definitions)?;
        let projection_json = i.object("Projection")?.ok_or_else(|| missing("Projection"))?;
        let throughput = throughput(i.object("ProvisionedThroughput")?)?;
        i.finish()?;
        let mut pj = Params::new("Projection", projection_json);
        let projection_type = pj.choice("ProjectionType", &["ALL", "KEYS_ONLY", "INCLUDE"])?;
        let non_key = pj.array("NonKeyAttributes")?;
        pj.finish()?;
        let projection = match (projection_type, non_key) {
            (Some("INCLUDE"), Some(names)) => ProjectionType::Include(
                names
                    .iter()
                    .map(|n| {
                        n.as_str()
                            .map(str::to_owned)
                            .ok_or_else(|| OpsError::serialization("NonKeyAttributes must be strings"))
                    })
                    .collect::<Result<_, _>>()?,
            ),
            (Some("INCLUDE"), None) => ProjectionType::Include(Vec::new()),
            (Some(other), Some(_)) => {
                return Err(OpsError::validation(format!(
                    "One or more parameter values were invalid: ProjectionType is {other}, but NonKeyAttributes is specified"
                )));
            }
            (Some("KEYS_ONLY"), None) => ProjectionType::KeysOnly,
            (Some(_), None) => ProjectionType::All,
            (None, _) => return Err(missing("ProjectionType")),
        };
        specs.push(IndexSpec { name, key, projection, throughput });
    }
    Ok(specs)
}

pub(super) fn create_table(p: &mut Params<'_>) -> Result<CreateTable, OpsError> {
    let name = p.required_string("TableName")?.to_owned();
    let mut definitions: Vec<(String, KeyType)> = Vec::new();
    for definition in p.array("AttributeDefinitions")?.ok_or_else(|| missing("AttributeDefinitions"))? {
        let mut d = Params::of("AttributeDefinition", definition)?;
        let attribute = d.required_string("AttributeName")?.to_owned();
        let type_text = d.required_string("AttributeType")?;
        let key_type = KeyType::from_descriptor(type_text)
            .ok_or_else(|| not_in_enum("AttributeType", type_text, &["B", "N", "S"]))?;
        d.finish()?;
        if definitions.iter().any(|(n, _)| *n == attribute) {
            return Err(OpsError::validation("Cannot have two attributes with the same name"));
        }
        definitions.push((attribute, key_type));
    }
    let key = key_schema(p.array("KeySchema")?, &definitions)?;
    let global = index_specs(p.array("GlobalSecondaryIndexes")?, &definitions)?;
    let local = index_specs(p.array("LocalSecondaryIndexes")?, &definitions)?;
    let table_throughput = throughput(p.object("ProvisionedThroughput")?)?;
    let billing = match (p.choice("BillingMode", &["PROVISIONED", "PAY_PER_REQUEST"])?, table_throughput) {
        (Some("PAY_PER_REQUEST"), None) => BillingMode::PayPerRequest,
        (Some("PAY_PER_REQUEST"), Some(_)) => {
            return Err(OpsError::validation(
                "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be \
                 specified when BillingMode is PAY_PER_REQUEST",
            ));
        }
        (_, Some(t)) => BillingMode::Provisioned(t),
        (_, None) => {
            return Err(OpsError::validation(
                "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be \
                 specified when BillingMode is PROVISIONED",
            ));
        }
    };
    // Every definition must be a key of the table or an index (DynamoDB's rule).
    let used: Vec<&str> = std::iter::once(&key)
        .chain(global.iter().chain(&local).map(|i| &i.key))
        .flat_map(KeySchema::attributes)
        .map(|a| a.name.as_str())
        .collect();
    if definitions.iter().any(|(n, _)| !used.contains(&n.as_str())) {
        let mut defined: Vec<&str> = definitions.iter().map(|(n, _)| n.as_str()).collect();
        defined.sort_unstable();
        let mut keys = used.clone();
        keys.sort_unstable();
        keys.dedup();
        return Err(OpsError::validation(format!(
            "One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: \
             [{}], keys used: [{}]",
            defined.join(", "),
            keys.join(", ")
        )));
    }
    Ok(CreateTable { spec: TableSpec { name, key, global, local, billing }, index_lag: None })
}

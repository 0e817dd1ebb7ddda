//! Other tools' formats: a scenario's key design written for NoSQL Workbench, CloudFormation and
//! CQL. Each format is a module that owns
//! its syntax; this module owns what they share: the DynamoDB tables a variant stands for
//! ([`tables`]), with names DynamoDB accepts.
//!
//! Everything here is a pure function of the scenario, the variant (and, for sample items, the
//! seed): the same input gives the same bytes. Nothing here touches files; `cli` does.
//!
//! Tables: the DynamoDB profile is one table named after the scenario, holding every entity that
//! has items of its own (single-table design); the Cassandra profile is one table per entity,
//! named after it, as the simulator and the console model it. Key attribute types follow the
//! templates: a template that is exactly one `{attr}` slot has the attribute's type (N for `N`
//! and `Time`, B for `B`), every other template builds text (S).

pub mod cloudformation;
pub mod cql;
pub mod nwb;
pub mod trace;

use crate::engine::model::{
    AttrType, Capacity, Entity, EntityId, EntityKeys, IndexKind, Projection, Scenario, Variant,
};
use crate::engine::profile::Layout;
use crate::engine::template::Template;
use crate::engine::value::KeyType;

/// A key attribute of a table or index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAttr {
    pub name: String,
    pub ty: KeyType,
}

/// One DynamoDB table of a variant.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDesign {
    /// A name DynamoDB accepts (see [`dynamodb_name`]).
    pub name: String,
    /// The entities whose items it holds, in the scenario's order.
    pub entities: Vec<EntityId>,
    pub pk: KeyAttr,
    pub sk: Option<KeyAttr>,
    pub indexes: Vec<IndexDesign>,
    pub capacity: Capacity,
    /// The TTL attribute, when the variant expires items of this table.
    pub ttl: Option<String>,
}

/// A GSI or LSI of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexDesign {
    /// A name DynamoDB accepts; `source` is the variant's own.
    pub name: String,
    pub source: String,
    pub kind: IndexKind,
    pub pk: KeyAttr,
    pub sk: Option<KeyAttr>,
    pub projection: Projection,
}

impl TableDesign {
    /// Every key attribute of the table and its indexes, once each, in first-use order: what
    /// `AttributeDefinitions` must list (AWS: exactly the attributes used in key schemas).
    pub fn key_attributes(&self) -> Vec<&KeyAttr> {
        let mut out: Vec<&KeyAttr> = Vec::new();
        let all = std::iter::once(&self.pk)
            .chain(&self.sk)
            .chain(self.indexes.iter().flat_map(|i| std::iter::once(&i.pk).chain(&i.sk)));
        for attr in all {
            if !out.iter().any(|a| a.name == attr.name) {
                out.push(attr);
            }
        }
        out
    }
}

/// The DynamoDB tables `variant` stands for (see the module documentation).
pub fn tables(scenario: &Scenario, variant: &Variant) -> Vec<TableDesign> {
    let keyed: Vec<EntityId> = scenario
        .entities
        .iter()
        .map(Entity::id)
        .filter(|&e| variant.keys_for(e).is_some() && !variant.embedded_whole(e))
        .collect();
    let groups: Vec<(String, Vec<EntityId>)> = match scenario.engine.profile().layout {
        Layout::SingleTable => vec![(scenario.name.clone(), keyed)],
        Layout::TablePerEntity => {
            keyed.into_iter().map(|e| (scenario.entities[e.index()].name.clone(), vec![e])).collect()
        }
    };
    let mut used = Vec::new();
    groups
        .into_iter()
        .filter(|(_, entities)| !entities.is_empty())
        .map(|(name, entities)| {
            let name = unique(&dynamodb_name(&name), &mut used);
            table(scenario, variant, name, &entities)
        })
        .collect()
}

/// The type of the first key `pick` finds among `entities`' keys in one place (the table or an
/// index): DynamoDB fixes one type per key attribute.
fn key_type<'v>(
    scenario: &Scenario,
    entities: &[EntityId],
    keys: impl Fn(EntityId) -> Option<&'v EntityKeys>,
    sort: bool,
) -> KeyType {
    entities
        .iter()
        .find_map(|&e| {
            let k = keys(e)?;
            let template = if sort { k.sk.as_ref()? } else { &k.pk };
            Some(template_type(scenario, e, template))
        })
        .unwrap_or(KeyType::S)
}

fn table(scenario: &Scenario, variant: &Variant, name: String, entities: &[EntityId]) -> TableDesign {
    let table_keys = |e: EntityId| variant.keys_for(e);
    let pk = KeyAttr { name: variant.table_pk.clone(), ty: key_type(scenario, entities, table_keys, false) };
    let sk = variant
        .table_sk
        .as_ref()
        .filter(|_| entities.iter().any(|&e| variant.keys_for(e).is_some_and(|k| k.sk.is_some())))
        .map(|n| KeyAttr { name: n.clone(), ty: key_type(scenario, entities, table_keys, true) });
    let mut used = Vec::new();
    let indexes = variant
        .indexes
        .iter()
        .filter(|index| entities.iter().any(|&e| index.keys_for(e).is_some()))
        .map(|index| {
            let keys = |e: EntityId| index.keys_for(e);
            let ipk = match index.kind {
                IndexKind::Local => pk.clone(),
                IndexKind::Global => KeyAttr {
                    name: index.pk_attribute.clone(),
                    ty: key_type(scenario, entities, keys, false),
                },
            };
            let isk = index
                .sk_attribute
                .as_ref()
                .filter(|_| entities.iter().any(|&e| index.keys_for(e).is_some_and(|k| k.sk.is_some())))
                .map(|n| KeyAttr { name: n.clone(), ty: key_type(scenario, entities, keys, true) });
            IndexDesign {
                name: unique(&dynamodb_name(&index.name), &mut used),
                source: index.name.clone(),
                kind: index.kind,
                pk: ipk,
                sk: isk,
                projection: index.projection.clone(),
            }
        })
        .collect();
    let ttl =
        variant.ttl.as_ref().filter(|t| entities.iter().any(|&e| t.covers(e))).map(|t| t.attribute.clone());
    TableDesign { name, entities: entities.to_vec(), pk, sk, indexes, capacity: variant.capacity, ttl }
}

/// The key type a template gives an entity's items (see the module documentation).
fn template_type(scenario: &Scenario, entity: EntityId, template: &Template) -> KeyType {
    let entity = &scenario.entities[entity.index()];
    let attribute = template.single_attribute().and_then(|name| entity.attribute(name)).map(|a| a.ty);
    match attribute {
        Some(AttrType::N | AttrType::Time) => KeyType::N,
        Some(AttrType::B) => KeyType::B,
        _ => KeyType::S,
    }
}

/// `name` as DynamoDB accepts table and index names: 3 to 255 of `A-Z a-z 0-9 _ - .`; anything
/// else becomes `-`, a shorter name is padded with `_`, a longer one cut.
pub fn dynamodb_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '-' })
        .take(255)
        .collect();
    while out.len() < 3 {
        out.push('_');
    }
    out
}

/// `name`, or `name-2`, `name-3`… when an earlier name in `used` took it (two names that differ
/// only in characters DynamoDB refuses).
fn unique(name: &str, used: &mut Vec<String>) -> String {
    let mut candidate = name.to_owned();
    let mut n = 2;
    while used.contains(&candidate) {
        candidate = format!("{name}-{n}");
        n += 1;
    }
    used.push(candidate.clone());
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    #[test]
    fn names_dynamodb_refuses_are_rewritten() {
        let cases = [
            ("orders", "orders"),
            ("by status", "by-status"),
            ("ab", "ab_"),
            ("é", "-__"),
            ("conversations_by_user", "conversations_by_user"),
        ];
        for (name, expected) in cases {
            assert_eq!(dynamodb_name(name), expected, "{name}");
        }
        let mut used = Vec::new();
        assert_eq!(unique("a-b", &mut used), "a-b");
        assert_eq!(unique("a-b", &mut used), "a-b-2");
    }

    fn design(name: &str, variant: &str) -> Vec<TableDesign> {
        let loaded = scenario::load(name).unwrap();
        tables(&loaded.scenario, loaded.variant(Some(variant)).unwrap())
    }

    #[test]
    fn a_dynamodb_scenario_is_one_table_a_cassandra_one_a_table_per_entity() {
        let loaded = scenario::load("orders").unwrap();
        let orders = tables(&loaded.scenario, loaded.variant(Some("recommended")).unwrap());
        assert_eq!(orders.len(), 1);
        assert_eq!(orders[0].name, "orders");
        let entities: Vec<&str> =
            orders[0].entities.iter().map(|e| loaded.scenario.entities[e.index()].name.as_str()).collect();
        assert_eq!(entities, ["Customer", "Order", "OrderItem"]);
        assert_eq!(orders[0].key_attributes().len(), 4, "{:?}", orders[0].key_attributes());
        let sensors = design("sensors", "recommended");
        let names: Vec<&str> = sensors.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Sensor", "Reading"]);
        // Sensor has no sort key template: its table has no sort key.
        assert_eq!(sensors[0].sk, None);
        assert_eq!(sensors[1].sk.as_ref().map(|k| k.ty), Some(KeyType::N), "{{reading_time}} is a Time");
    }
}

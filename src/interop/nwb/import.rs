//! `keyheat import nwb`: a NoSQL Workbench model → a scenario file (RON text).
//!
//! One table of the model becomes the scenario's table (a DynamoDB-profile scenario has one);
//! each facet an entity. A facet's items are its own `TableData` and those of the table's that
//! its aliases match (an alias that is a keyheat template), or else that carry most of its
//! attributes.
//!
//! Key templates, per facet and key: an alias that is a keyheat template with a slot is taken as
//! it is (what `export nwb` writes). Otherwise the sample values show the shape: split at `#`, a
//! segment every item shares is literal text, one that varies is a slot — an attribute of the
//! item whose value it is (zero-padded numbers included: `{score:012}`), or a new id attribute
//! named after the literal before it (`CUSTOMER#c01` → `CUSTOMER#{customer_id}`) or the alias.
//! Without sample items the alias is kept as a constant, and a note says so. GSI keys are read
//! the same way from the items that carry them; when only some of a facet's items carry them
//! and one attribute value tells those apart, the index gets `only_when`.
//!
//! Everything the model does not say is a guess, marked `GUESS` in the file: population sizes,
//! rates, value generators drawn from the samples. The result is checked by loading it as a
//! scenario; a model that cannot be mapped fully still imports, with one note per part.

mod infer;
mod text;

use std::collections::BTreeSet;

use serde_json::Value as Json;

use self::infer::{alias_template, constant, gate, id_format, infer, is_id, key_text, match_template};
use self::text::ron_str;
use super::{Facet, Model, Table};
use crate::engine::model::AttrType;
use crate::engine::template::{Part, Template};
use crate::engine::value::{AttributeValue, Item, item_from_json};

/// A population size or a rate the model does not give.
const GUESS_POPULATION: u64 = 1000;
const GUESS_RATE: f64 = 1.0;

/// An imported scenario and what could not be mapped.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub ron: String,
    pub notes: Vec<String>,
}

/// Why a model could not be imported at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NwbError {
    #[error("{file}:{line}:{col}: {message}")]
    Json { file: String, line: usize, col: usize, message: String },
    #[error("{file}: the model has no tables (DataModel is empty)")]
    NoTables { file: String },
    #[error("{file}: the model has no table named {name:?}; its tables are: {tables}")]
    UnknownTable { file: String, name: String, tables: String },
    #[error("{file}: table {table}: {place} item {index} is not an item in DynamoDB JSON: {message}")]
    Item { file: String, table: String, place: String, index: usize, message: String },
    #[error("{file}: the scenario made from table {table} does not load ({message}); please report this")]
    Unloadable { file: String, table: String, message: String },
}

/// Reads the model in `text` (`file` names it in messages) and writes table `table` (default:
/// the first) as a scenario.
pub fn import(file: &str, text: &str, table: Option<&str>) -> Result<Imported, NwbError> {
    let model: Model = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        NwbError::Json {
            file: file.to_owned(),
            line: e.line(),
            col: e.column(),
            message: format!(
                "{message} (expected a NoSQL Workbench data model: ModelName, DataModel[…] with TableName, KeyAttributes, TableFacets…)"
            ),
        }
    })?;
    let chosen = match table {
        None => model.data_model.first().ok_or_else(|| NwbError::NoTables { file: file.to_owned() })?,
        Some(name) => {
            model.data_model.iter().find(|t| t.table_name == name).ok_or_else(|| NwbError::UnknownTable {
                file: file.to_owned(),
                name: name.to_owned(),
                tables: model.data_model.iter().map(|t| t.table_name.as_str()).collect::<Vec<_>>().join(", "),
            })?
        }
    };
    let mut notes: Vec<String> = model
        .data_model
        .iter()
        .filter(|t| t.table_name != chosen.table_name)
        .map(|t| {
            format!(
                "table {}: not imported (a scenario holds one table); import it with --table {}",
                t.table_name, t.table_name
            )
        })
        .collect();
    let ron = Importer::new(file, &model, chosen, &mut notes)?.ron();
    crate::scenario::parse(file, &ron).map_err(|e| NwbError::Unloadable {
        file: file.to_owned(),
        table: chosen.table_name.clone(),
        message: e.to_string(),
    })?;
    Ok(Imported { ron, notes })
}

/// One entity in the making.
#[derive(Debug, Default)]
struct EntityOut {
    name: String,
    items: Vec<Item>,
    /// Attributes in order: name, type, generator (RON), why when it is a guess.
    attrs: Vec<AttrOut>,
    pk: String,
    sk: Option<String>,
    /// Attributes the table key's slots read, in order.
    key_slots: Vec<String>,
}

#[derive(Debug, Clone)]
struct AttrOut {
    name: String,
    ty: AttrType,
    generator: String,
    guess: Option<String>,
}

#[derive(Debug)]
struct IndexOut {
    name: String,
    pk_attribute: String,
    sk_attribute: Option<String>,
    keys: Vec<(String, String, Option<String>)>,
    projection: String,
    only_when: Option<(String, String)>,
}

#[derive(Debug)]
struct PopulationOut {
    name: String,
    ids: String,
    samples: usize,
}

struct Importer<'a> {
    model: &'a Model,
    table: &'a Table,
    entities: Vec<EntityOut>,
    indexes: Vec<IndexOut>,
    populations: Vec<PopulationOut>,
    notes: &'a mut Vec<String>,
}

impl<'a> Importer<'a> {
    fn new(
        file: &str,
        model: &'a Model,
        table: &'a Table,
        notes: &'a mut Vec<String>,
    ) -> Result<Importer<'a>, NwbError> {
        let parse_items = |items: &[Json], place: &str| -> Result<Vec<Item>, NwbError> {
            items
                .iter()
                .enumerate()
                .map(|(i, json)| {
                    item_from_json(json).map_err(|e| NwbError::Item {
                        file: file.to_owned(),
                        table: table.table_name.clone(),
                        place: place.to_owned(),
                        index: i,
                        message: e.to_string(),
                    })
                })
                .collect()
        };
        let facets: Vec<Facet> = if table.table_facets.is_empty() {
            notes.push(format!(
                "table {}: no facets; every item is one entity named after the table",
                table.table_name
            ));
            vec![Facet {
                facet_name: table.table_name.clone(),
                key_attribute_alias: super::KeyAlias {
                    partition_key_alias: table.key_attributes.partition_key.attribute_name.clone(),
                    sort_key_alias: table.key_attributes.sort_key.as_ref().map(|k| k.attribute_name.clone()),
                },
                table_data: Vec::new(),
                non_key_attributes: table
                    .non_key_attributes
                    .iter()
                    .map(|a| a.attribute_name.clone())
                    .collect(),
                data_access: None,
            }]
        } else {
            table.table_facets.clone()
        };
        let mut entities: Vec<EntityOut> = Vec::new();
        for facet in &facets {
            let items = parse_items(&facet.table_data, &format!("facet {}", facet.facet_name))?;
            entities.push(EntityOut { name: facet.facet_name.clone(), items, ..EntityOut::default() });
        }
        let mut importer =
            Importer { model, table, entities, indexes: Vec::new(), populations: Vec::new(), notes };
        for (i, item) in parse_items(&table.table_data, "TableData")?.into_iter().enumerate() {
            match importer.facet_of(&facets, &item) {
                Some(f) => importer.entities[f].items.push(item),
                None => importer.notes.push(format!(
                    "table {}: TableData item {i} matches no facet; left out",
                    table.table_name
                )),
            }
        }
        for (f, facet) in facets.iter().enumerate() {
            importer.entity(f, facet);
        }
        importer.indexes();
        importer.generators(&facets);
        Ok(importer)
    }

    fn key_names(&self) -> Vec<&str> {
        let t = &self.table.key_attributes;
        std::iter::once(&t.partition_key)
            .chain(&t.sort_key)
            .chain(self.table.global_secondary_indexes.iter().flat_map(|g| {
                std::iter::once(&g.key_attributes.partition_key).chain(&g.key_attributes.sort_key)
            }))
            .map(|a| a.attribute_name.as_str())
            .collect()
    }

    /// The facet a table item belongs to (see the module documentation).
    fn facet_of(&self, facets: &[Facet], item: &Item) -> Option<usize> {
        let pk = &self.table.key_attributes.partition_key.attribute_name;
        let sk = self.table.key_attributes.sort_key.as_ref().map(|k| &k.attribute_name);
        // In a facet with a template alias, a plain alias is a constant the value must equal.
        let fits = |alias: Option<&String>, attribute: Option<&String>| {
            let (Some(alias), Some(attribute)) = (alias, attribute) else { return true };
            let value = item.get(attribute).and_then(key_text);
            match (alias_template(alias), value) {
                (Some(template), Some(value)) => match_template(&template, &value).is_some(),
                (None, Some(value)) => value == *alias,
                (_, None) => false,
            }
        };
        let templated = |f: &Facet| {
            alias_template(&f.key_attribute_alias.partition_key_alias).is_some()
                || f.key_attribute_alias.sort_key_alias.as_ref().and_then(|a| alias_template(a)).is_some()
        };
        if let Some(f) = facets.iter().position(|f| {
            templated(f)
                && fits(Some(&f.key_attribute_alias.partition_key_alias), Some(pk))
                && fits(f.key_attribute_alias.sort_key_alias.as_ref(), sk)
        }) {
            return Some(f);
        }
        let score = |f: &Facet| f.non_key_attributes.iter().filter(|a| item.contains_key(*a)).count();
        let best = facets
            .iter()
            .enumerate()
            .filter(|(_, f)| !templated(f))
            .max_by(|a, b| score(a.1).cmp(&score(b.1)).then(b.0.cmp(&a.0)))?;
        (score(best.1) > 0 || facets.len() == 1).then_some(best.0)
    }

    /// The facet's table key templates and attributes.
    fn entity(&mut self, f: usize, facet: &Facet) {
        let pk_name = self.table.key_attributes.partition_key.attribute_name.clone();
        let pk_type = self.table.key_attributes.partition_key.attribute_type.clone();
        let alias = &facet.key_attribute_alias;
        let (pk, _) = self.key_template(f, "partition key", &alias.partition_key_alias, &pk_name, &pk_type);
        pk.source().clone_into(&mut self.entities[f].pk);
        let mut slots: Vec<String> = pk.attributes().map(str::to_owned).collect();
        if let Some(sk_def) = self.table.key_attributes.sort_key.clone() {
            let sk_alias = alias.sort_key_alias.clone().unwrap_or_else(|| sk_def.attribute_name.clone());
            let (sk, _) =
                self.key_template(f, "sort key", &sk_alias, &sk_def.attribute_name, &sk_def.attribute_type);
            slots.extend(sk.attributes().map(str::to_owned));
            self.entities[f].sk = Some(sk.source().to_owned());
        }
        let mut seen = BTreeSet::new();
        slots.retain(|s| seen.insert(s.clone()));
        self.entities[f].key_slots = slots;
    }

    /// A key template for facet `f` (see the module documentation), and whether it came from
    /// sample values.
    fn key_template(
        &mut self,
        f: usize,
        what: &str,
        alias: &str,
        attribute: &str,
        ty: &str,
    ) -> (Template, bool) {
        if let Some(template) = alias_template(alias) {
            return (template, false);
        }
        let entity = &self.entities[f];
        let carrying: Vec<&Item> = entity.items.iter().filter(|i| i.contains_key(attribute)).collect();
        if carrying.is_empty() {
            self.notes.push(format!(
                "facet {}: {what} alias `{alias}` has no sample items; kept as a constant",
                entity.name
            ));
            return (constant(alias), false);
        }
        let key_names = self.key_names().into_iter().map(str::to_owned).collect::<Vec<_>>();
        let template = infer(&carrying, attribute, alias, ty == "N", &key_names);
        (template, true)
    }

    /// The GSIs, their per-facet templates from the items that carry their keys.
    fn indexes(&mut self) {
        let key_names: Vec<String> = self.key_names().into_iter().map(str::to_owned).collect();
        for gsi in &self.table.global_secondary_indexes {
            let pk = &gsi.key_attributes.partition_key;
            let sk = gsi.key_attributes.sort_key.as_ref();
            let mut keys = Vec::new();
            let mut gates: Vec<Option<(String, String)>> = Vec::new();
            for entity in &self.entities {
                let carrying: Vec<&Item> =
                    entity.items.iter().filter(|i| i.contains_key(&pk.attribute_name)).collect();
                if carrying.is_empty() {
                    continue;
                }
                let ipk = infer(
                    &carrying,
                    &pk.attribute_name,
                    &pk.attribute_name,
                    pk.attribute_type == "N",
                    &key_names,
                );
                let isk = sk.map(|sk| {
                    infer(
                        &carrying,
                        &sk.attribute_name,
                        &sk.attribute_name,
                        sk.attribute_type == "N",
                        &key_names,
                    )
                });
                keys.push((entity.name.clone(), ipk.source().to_owned(), isk.map(|t| t.source().to_owned())));
                if carrying.len() < entity.items.len() {
                    let gate = gate(&entity.items, &pk.attribute_name, &key_names);
                    if gate.is_none() {
                        self.notes.push(format!(
                            "index {}: only {} of facet {}'s {} sample items carry its keys and no attribute value tells them apart; keyheat indexes every {} item (add `only_when` if the application writes the keys on some items only)",
                            gsi.index_name,
                            carrying.len(),
                            entity.name,
                            entity.items.len(),
                            entity.name
                        ));
                    }
                    gates.push(gate);
                }
            }
            if keys.is_empty() {
                self.notes.push(format!(
                    "index {}: no sample item carries {}; the index is left out (add its keys by hand)",
                    gsi.index_name, pk.attribute_name
                ));
                continue;
            }
            // A facet whose gate was not found has its note already.
            let only_when = match gates.as_slice() {
                [Some(g)] => Some(g.clone()),
                many if many.len() > 1 && many.iter().all(Option::is_some) => {
                    self.notes.push(format!(
                        "index {}: several facets are sparse in it; keyheat's `only_when` takes one condition, so none is set",
                        gsi.index_name
                    ));
                    None
                }
                _ => None,
            };
            let projection = match gsi.projection.projection_type.as_str() {
                "KEYS_ONLY" => "KeysOnly".to_owned(),
                "INCLUDE" => format!(
                    "Include([{}])",
                    gsi.projection
                        .non_key_attributes
                        .iter()
                        .map(|a| ron_str(a))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "ALL" => "All".to_owned(),
                other => {
                    self.notes.push(format!(
                        "index {}: projection type {other:?} is not ALL, KEYS_ONLY or INCLUDE; imported as All",
                        gsi.index_name
                    ));
                    "All".to_owned()
                }
            };
            self.indexes.push(IndexOut {
                name: gsi.index_name.clone(),
                pk_attribute: pk.attribute_name.clone(),
                sk_attribute: sk.map(|s| s.attribute_name.clone()),
                keys,
                projection,
                only_when,
            });
        }
    }

    /// Every entity's attributes and their generators; the populations the key slots draw from.
    fn generators(&mut self, facets: &[Facet]) {
        let key_names: Vec<String> = self.key_names().into_iter().map(str::to_owned).collect();
        // Attributes each template slot reads, per entity, in template order.
        let mut slot_attrs: Vec<Vec<String>> = Vec::new();
        for e in &self.entities {
            let mut names: Vec<String> = e.key_slots.clone();
            for index in &self.indexes {
                for (entity, pk, sk) in &index.keys {
                    if *entity == e.name {
                        for source in std::iter::once(pk).chain(sk) {
                            if let Ok(t) = Template::parse(source) {
                                names.extend(t.attributes().map(str::to_owned));
                            }
                        }
                    }
                }
            }
            slot_attrs.push(names);
        }
        // Who owns each id: the first entity whose table key ends with it.
        let mut owners: Vec<(String, usize)> = Vec::new();
        for (i, e) in self.entities.iter().enumerate() {
            let last =
                e.key_slots.last().filter(|l| !owners.iter().any(|(a, _)| a == *l) && is_id(&e.items, l));
            if let Some(last) = last {
                owners.push((last.clone(), i));
            }
        }
        for (i, facet) in facets.iter().enumerate() {
            let mut names: Vec<String> = Vec::new();
            let push = |n: &str, names: &mut Vec<String>| {
                if !key_names.iter().any(|k| k == n) && !names.iter().any(|x| x == n) {
                    names.push(n.to_owned());
                }
            };
            for n in &slot_attrs[i] {
                push(n, &mut names);
            }
            for n in &facet.non_key_attributes {
                push(n, &mut names);
            }
            for item in &self.entities[i].items {
                for n in item.keys() {
                    push(n, &mut names);
                }
            }
            let mut attrs = Vec::new();
            for name in names {
                let is_table_slot = self.entities[i].key_slots.contains(&name);
                let attr = if is_table_slot && is_id(&self.entities[i].items, &name) {
                    let ids = self.slot_values(i, &name);
                    let population = self.population(&name, &ids);
                    let owned = owners.iter().any(|(a, o)| *a == name && *o == i);
                    AttrOut {
                        name: name.clone(),
                        ty: AttrType::S,
                        generator: format!(
                            "{}({})",
                            if owned { "New" } else { "Pick" },
                            ron_str(&population)
                        ),
                        guess: None,
                    }
                } else {
                    self.value_attribute(&facets[i], i, &name)
                };
                attrs.push(attr);
            }
            self.entities[i].attrs = attrs;
        }
    }

    /// The texts the table key's slot for `attribute` holds on entity `e`'s items (the
    /// attribute's own values when the items carry it).
    fn slot_values(&self, e: usize, attribute: &str) -> Vec<String> {
        let entity = &self.entities[e];
        let keys = &self.table.key_attributes;
        let mut out = BTreeSet::new();
        for item in &entity.items {
            if let Some(text) = item.get(attribute).and_then(key_text) {
                out.insert(text);
                continue;
            }
            let templates = std::iter::once((&entity.pk, &keys.partition_key.attribute_name))
                .chain(entity.sk.as_ref().zip(keys.sort_key.as_ref().map(|k| &k.attribute_name)));
            for (source, key) in templates {
                let (Ok(template), Some(value)) = (Template::parse(source), item.get(key).and_then(key_text))
                else {
                    continue;
                };
                let slots: Vec<&str> = template
                    .parts()
                    .iter()
                    .filter(|p| !matches!(p, Part::Literal(_)))
                    .filter_map(Part::attribute)
                    .collect();
                if let Some(texts) = match_template(&template, &value) {
                    out.extend(slots.iter().zip(texts).filter(|(n, _)| **n == attribute).map(|(_, t)| t));
                }
            }
        }
        out.into_iter().collect()
    }

    /// The population `attribute`'s ids come from, created on first use.
    fn population(&mut self, attribute: &str, samples: &[String]) -> String {
        let stem = attribute.strip_suffix("_id").unwrap_or(attribute);
        let name = format!("{stem}s");
        if let Some(p) = self.populations.iter_mut().find(|p| p.name == name) {
            p.samples = p.samples.max(samples.len());
            return name;
        }
        let ids = id_format(samples).unwrap_or_else(|| format!("{stem}-{{:05}}"));
        self.populations.push(PopulationOut { name: name.clone(), ids, samples: samples.len() });
        name
    }

    /// An attribute that is not an id: its type from the table's definitions or the samples,
    /// its generator drawn from the sample values (`Sometimes` when only some items carry it).
    fn value_attribute(&mut self, facet: &Facet, e: usize, name: &str) -> AttrOut {
        let entity = &self.entities[e];
        let values: Vec<&AttributeValue> = entity.items.iter().filter_map(|i| i.get(name)).collect();
        let declared = self
            .table
            .non_key_attributes
            .iter()
            .find(|a| a.attribute_name == name)
            .map(|a| a.attribute_type.as_str());
        let ty = declared.or_else(|| values.first().map(|v| infer::descriptor(v))).unwrap_or("S");
        let (ty, mut generator, guess) = infer::generator(name, ty, &values).unwrap_or_else(|other| {
            self.notes.push(format!(
                "facet {}: attribute {name} is {other}; keyheat models S, N, B and BOOL: imported as text of its size",
                facet.facet_name
            ));
            (AttrType::S, format!("Payload({})", infer::mean_size(&values, 16)), "text of the samples' mean size")
        });
        let entity = &self.entities[e];
        let present = entity.items.iter().filter(|i| i.contains_key(name)).count();
        if present > 0 && present < entity.items.len() {
            let share = present as f64 / entity.items.len() as f64;
            generator = format!("Sometimes({share:?}, {generator})");
        }
        AttrOut { name: name.to_owned(), ty, generator, guess: Some(guess.to_owned()) }
    }
}

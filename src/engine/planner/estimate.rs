//! The numbers the planner reasons with: a representative item per entity (generated from the
//! attribute generators, with its table and index keys) and its size, how fast each entity
//! grows, how many items it has at the end of the workload, and how a key template spreads the
//! load (distinct values, the hottest value's share).

mod classes;
mod spread;

use std::collections::BTreeMap;

pub use classes::{Class, ClassOf};

pub use spread::Spread;
use spread::value_share;

use super::load::{mean_rate, typical};
use crate::engine::model::{
    AccessPattern, Action, AttrId, AttrType, Bound, Embed, Entity, EntityId, Generator, Index, ItemAttr,
    PatternId, Scenario, SlotAttrs, Variant,
};
use crate::engine::number::Number;
use crate::engine::profile::{Sizing, bson, json};
use crate::engine::template::{Part, Template};
use crate::engine::time::SimDuration;
use crate::engine::value::{AttributeValue, Item, item_size};

/// Steps a run is cut into to average what a multikey index's readers and appends see as
/// the lists grow (`Estimator::multikey_reads`, `multikey_new_share`).
const MULTIKEY_STEPS: u32 = 64;

/// Items under one partition key value and how fast new ones arrive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionLoad {
    pub items: f64,
    pub rate: f64,
}

/// Estimates for one variant of one scenario.
pub struct Estimator<'a> {
    pub scenario: &'a Scenario,
    pub variant: &'a Variant,
    /// The workload's duration in seconds.
    pub secs: f64,
    /// The store's language: how the plan's conditions are written (`dialect`).
    pub language: crate::engine::profile::Language,
    /// How the store charges requests: the estimates' units are its units.
    pub metering: crate::engine::profile::Metering,
    /// The store's words (items or rows, …) for the planner's notes.
    pub words: &'static crate::engine::vocabulary::Vocabulary,
    /// Per entity (by [`EntityId`]), its representative item.
    items: Vec<Item>,
    /// Per entity, the average item size: attributes that only some items carry (`Sometimes`
    /// attributes, the key attributes of a sparse index) count by the share that carries them.
    bytes: Vec<f64>,
    /// Per entity, those shares by the representative item's attribute names
    /// (`carried_shares`).
    shares: Vec<BTreeMap<&'a str, f64>>,
}

impl<'a> Estimator<'a> {
    /// The same estimates over `secs` of the workload instead of its duration: how the
    /// partitions grow to a size goal's horizon.
    pub fn over(&self, secs: f64) -> Estimator<'a> {
        let mut far = Estimator::new(self.scenario, self.variant);
        far.secs = secs;
        far
    }

    /// Whether the store speaks CQL: rows in tables per entity, keyed by typed columns.
    pub fn cql(&self) -> bool {
        self.language == crate::engine::profile::Language::Cql
    }

    pub fn new(scenario: &'a Scenario, variant: &'a Variant) -> Estimator<'a> {
        let mut est = Estimator {
            scenario,
            variant,
            secs: scenario.workload.duration.as_secs_f64(),
            language: scenario.engine.profile().language,
            metering: scenario.engine.profile().metering,
            words: scenario.engine.words(),
            items: Vec::new(),
            bytes: Vec::new(),
            shares: Vec::new(),
        };
        let items = scenario.entities.iter().map(|e| est.representative(e)).collect();
        est.items = items;
        est.shares = scenario.entities.iter().map(|e| est.carried_shares(e)).collect();
        let bytes = scenario
            .entities
            .iter()
            .map(|e| {
                let shares = est.carried_shares(e);
                let weighted = (est.item(e.id()).iter()).map(|(name, value)| {
                    shares.get(name.as_str()).copied().unwrap_or(1.0) * est.field_bytes(e, name, value)
                });
                est.item_overhead() + weighted.sum::<f64>()
            })
            .collect();
        est.bytes = bytes;
        for embed in &variant.embeds {
            let list = est.list_bytes(embed);
            if let Some(bytes) = est.bytes.get_mut(embed.into_id().index()) {
                *bytes += list;
            }
        }
        est
    }

    /// Bytes an average parent's embedded list adds to it: its name, the list's 3 bytes and the
    /// children it holds.
    pub fn list_bytes(&self, embed: &Embed) -> f64 {
        let children = self.embedded_children(embed);
        if self.sizing() == Sizing::Json {
            // `"name":[…],`: brackets, the children and the commas between them.
            let list = 2.0 + children * self.element_bytes(embed) + (children - 1.0).max(0.0);
            return json::member_size(embed.as_name.len(), 0) as f64 + list;
        }
        if self.sizing() == Sizing::Bson {
            // An array element: type byte, name, NUL, the array's own frame, its elements, and
            // the decimal digits that name them ("0", "1", …).
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a count")]
            let names = Sizing::Bson.list_names(children.round() as usize) as f64;
            return Sizing::Bson.field(embed.as_name.len(), 5) as f64
                + children * self.element_bytes(embed)
                + names;
        }
        embed.as_name.len() as f64 + 3.0 + children * self.element_bytes(embed)
    }

    /// How the scenario's store counts an item's bytes.
    fn sizing(&self) -> Sizing {
        self.scenario.engine.profile().sizing
    }

    /// Bytes an item takes besides its attributes: JSON's braces, `id` and system properties on
    /// Cosmos DB; a BSON document's length and closing byte, and the `_id` ObjectId MongoDB adds
    /// on insert, on MongoDB; nothing under DynamoDB's rules.
    fn item_overhead(&self) -> f64 {
        self.sizing().document_overhead() as f64
    }

    /// Bytes attribute `name` holding `value` adds to an item of `entity`: as JSON on Cosmos DB,
    /// as a BSON element on MongoDB (a time an ISO 8601 date in JSON, a UTC datetime in BSON, as
    /// the replay writes them), else by DynamoDB's rules.
    fn field_bytes(&self, entity: &Entity, name: &str, value: &AttributeValue) -> f64 {
        let is_date = |n: &str| entity.attributes.iter().any(|a| a.name == n && a.ty == AttrType::Time);
        match self.sizing() {
            Sizing::Attributes => attr_bytes(name, value),
            Sizing::Json => json::dated_member_size(name, value, &is_date) as f64,
            Sizing::Bson => bson::dated_element_size(name, value, &is_date) as f64,
        }
    }

    /// Bytes one child takes in its parent's list: its attributes but the one naming the parent,
    /// as a map element of a list (AWS "Item sizes and formats": a list or map is 3 bytes plus 1
    /// byte per element, a map element also counting its name).
    pub fn element_bytes(&self, embed: &Embed) -> f64 {
        let e = self.entity(embed.entity_id());
        let item = self.item(embed.entity_id());
        let by = embed.by_id().map(AttrId::index);
        let fields: f64 = e
            .attributes
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != by)
            .filter_map(|(_, a)| item.get(&a.name).map(|v| 1.0 + attr_bytes(&a.name, v)))
            .sum();
        if self.sizing() == Sizing::Json {
            let fields = e
                .attributes
                .iter()
                .enumerate()
                .filter(|&(i, _)| Some(i) != by)
                .filter_map(|(_, a)| item.get(&a.name).map(|v| self.field_bytes(e, &a.name, v)))
                .sum::<f64>();
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "bytes")]
            return Sizing::Json.list_element(fields as usize) as f64;
        }
        if self.sizing() == Sizing::Bson {
            // BSON: an embedded document of the same fields, without the digits of its index
            // (`bson::uniform_array_size` counts those for a whole array); a time is a date, as
            // the replay stores it.
            let fields = e
                .attributes
                .iter()
                .enumerate()
                .filter(|&(i, _)| Some(i) != by)
                .filter_map(|(_, a)| {
                    let is_date = |_: &str| a.ty == AttrType::Time;
                    item.get(&a.name).map(|v| bson::dated_element_size(&a.name, v, &is_date))
                })
                .sum();
            return Sizing::Bson.list_element(fields) as f64;
        }
        1.0 + 3.0 + fields
    }

    /// Children an average parent holds at the end of the run (at most `keep_latest`). The
    /// busiest parent holds far more: see the embedding warning.
    pub fn embedded_children(&self, embed: &Embed) -> f64 {
        let children = self.put_rate(embed.entity_id()) * self.secs;
        let per_parent = children / self.items_total(embed.into_id()).max(1.0);
        embed.keep_latest.map_or(per_parent, |n| per_parent.min(f64::from(n)))
    }

    /// What a read through a multikey index over `embed`'s list finds on average over the run,
    /// for a key whose children are appended `key_rate` a second: (documents, bytes of those
    /// documents). The index holds one entry per distinct key value in a parent's list, so a
    /// key that has `n` children finds parent `j` (taking share `wⱼ` of the `R` appends a
    /// second) with chance `1 − (1 − wⱼ)ⁿ`, and fetches it whole: its own bytes and the
    /// `wⱼ·R·t` children it holds at time `t`. Parents are found through their children, so
    /// the busiest parents — the largest documents — are found most: a size-biased mean. Reads
    /// spread evenly over the run; no children before it; the digits naming BSON's elements
    /// left out.
    pub fn multikey_reads(&self, embed: &Embed, key_rate: f64) -> (f64, f64) {
        let element = self.element_bytes(embed);
        let whole = self.item_bytes(embed.into_id());
        let own = (whole - self.embedded_children(embed) * element).max(0.0);
        let per_parent = self.appends_per_parent(embed);
        let appends: f64 = per_parent.iter().sum();
        if appends <= 0.0 || self.secs <= 0.0 {
            return (0.0, 0.0);
        }
        // The run in even steps, each read at its middle.
        let (mut documents, mut bytes) = (0.0, 0.0);
        for step in 0..MULTIKEY_STEPS {
            let t = (f64::from(step) + 0.5) / f64::from(MULTIKEY_STEPS) * self.secs;
            let children = key_rate * t;
            for &rate in &per_parent {
                let found = -(children * (-(rate / appends)).ln_1p()).exp_m1();
                documents += found;
                bytes += found * (own + element * rate * t);
            }
        }
        (documents / f64::from(MULTIKEY_STEPS), bytes / f64::from(MULTIKEY_STEPS))
    }

    /// Appends a second to each parent of `embed`'s list, by the popularity with which the
    /// child's puts pick the parent (empty when they pick none).
    fn appends_per_parent(&self, embed: &Embed) -> Vec<f64> {
        let mut per_parent: Vec<f64> = Vec::new();
        let (Some(by), child) = (embed.by_id(), self.entity(embed.entity_id())) else { return per_parent };
        for p in self.writes(embed.entity_id(), Action::Put) {
            let Some(popularity) = self.pick_popularity(child, ItemAttr::Own(by), p) else { continue };
            let Some(Generator::Pick(pop)) =
                self.generator_of(child, ItemAttr::Own(by)).map(unwrap_sometimes)
            else {
                continue;
            };
            let n = super::numbers::floor_u64(self.population_size(self.scenario.population(pop))).max(1);
            let shares = popularity.shares(n, self.scenario.workload.seed);
            if per_parent.len() < shares.len() {
                per_parent.resize(shares.len(), 0.0);
            }
            let rate = mean_rate(p, self.secs);
            for (w, q) in per_parent.iter_mut().zip(shares) {
                *w += rate * q;
            }
        }
        per_parent
    }

    /// The share of appends to `embed`'s lists that add an entry to a multikey index over
    /// them: those whose key value the parent's list does not hold yet, when two children
    /// share a key value with chance `repeat`. A parent taking `wⱼ` of the `R` appends a second
    /// holds `wⱼ·R·t` children at time `t`, all new to a key with chance `(1 − repeat)^n`.
    pub fn multikey_new_share(&self, embed: &Embed, repeat: f64) -> f64 {
        let per_parent = self.appends_per_parent(embed);
        let appends: f64 = per_parent.iter().sum();
        if appends <= 0.0 || self.secs <= 0.0 {
            return 1.0;
        }
        let mut new = 0.0;
        for step in 0..MULTIKEY_STEPS {
            let t = (f64::from(step) + 0.5) / f64::from(MULTIKEY_STEPS) * self.secs;
            for &rate in &per_parent {
                new += rate / appends * (rate * t * (-repeat).ln_1p()).exp();
            }
        }
        new / f64::from(MULTIKEY_STEPS)
    }

    /// The share of the entity's items that carry the attribute `name` of its representative
    /// item (`carried_shares`).
    fn carried(&self, entity: EntityId, name: &str) -> f64 {
        self.shares.get(entity.index()).and_then(|s| s.get(name)).copied().unwrap_or(1.0)
    }

    /// The share of the entity's items that carry each attribute of its representative item, by
    /// the item's attribute name: an own attribute its generator's (a `Sometimes` attribute's
    /// share), a sparse index's key attribute the index's presence. An item has one attribute
    /// per name, and an own attribute's name comes first, then the table's key attributes. A
    /// name not given (a copy, the TTL, a table key) is carried by every item.
    fn carried_shares(&self, e: &'a Entity) -> BTreeMap<&'a str, f64> {
        let mut shares: BTreeMap<&'a str, f64> = BTreeMap::new();
        for a in &e.attributes {
            shares.entry(a.name.as_str()).or_insert_with(|| sometimes_share(&a.generator));
        }
        let table_keys =
            std::iter::once(self.variant.table_pk.as_str()).chain(self.variant.table_sk.as_deref());
        for name in table_keys {
            shares.entry(name).or_insert(1.0);
        }
        // A name several sparse indexes key on is carried by the items any of them holds.
        let mut indexed: BTreeMap<&'a str, f64> = BTreeMap::new();
        for index in self.variant.indexes.iter().filter(|i| i.keys_for(e.id()).is_some()) {
            let presence = self.presence(e.id(), Some(index));
            for name in std::iter::once(index.pk_attribute.as_str()).chain(index.sk_attribute.as_deref()) {
                let share = indexed.entry(name).or_insert(0.0);
                *share = share.max(presence);
            }
        }
        for (name, share) in indexed {
            shares.entry(name).or_insert(share);
        }
        shares
    }

    pub fn entity(&self, id: EntityId) -> &'a Entity {
        &self.scenario.entities[id.index()]
    }

    pub fn pattern(&self, id: PatternId) -> &'a AccessPattern {
        &self.scenario.patterns[id.index()]
    }

    /// A representative item of the entity: every attribute present (a sparse attribute as it
    /// is when present), plus its table and index key attributes in the DynamoDB profile.
    pub fn item(&self, entity: EntityId) -> &Item {
        &self.items[entity.index()]
    }

    /// The average size of the entity's items (see `carried_share`).
    pub fn item_bytes(&self, entity: EntityId) -> f64 {
        self.bytes.get(entity.index()).copied().unwrap_or_else(|| item_size(self.item(entity)) as f64)
    }

    /// Bytes of the entity's entry in `index` (table keys + index keys + projected attributes),
    /// or of the item itself for the table.
    pub fn entry_bytes(&self, index: Option<&Index>, entity: EntityId) -> f64 {
        let Some(index) = index else { return self.item_bytes(entity) };
        let item = self.item(entity);
        let mut key_names = vec![self.variant.table_pk.as_str(), index.pk_attribute.as_str()];
        key_names.extend(self.variant.table_sk.as_deref());
        key_names.extend(index.sk_attribute.as_deref());
        if self.cql() {
            // Cassandra has no key attributes: an index row carries the key columns.
            let keys = index.keys_for(entity).into_iter().chain(self.variant.keys_for(entity));
            for k in keys {
                key_names.extend(k.pk.attributes());
                key_names.extend(k.sk.iter().flat_map(Template::attributes));
            }
        }
        // Every entry carries the index's keys; a projected attribute that only some items
        // carry counts by its share.
        let own_keys: Vec<&str> = index
            .keys_for(entity)
            .into_iter()
            .flat_map(|k| k.pk.attributes().chain(k.sk.iter().flat_map(Template::attributes)))
            .chain([index.pk_attribute.as_str()])
            .chain(index.sk_attribute.as_deref())
            .collect();
        // An embedded list the index projects is copied into every entry.
        let lists: f64 = self
            .variant
            .embeds
            .iter()
            .filter(|x| x.into_id() == entity && index.projection.carries(&x.as_name))
            .map(|x| self.list_bytes(x))
            .sum();
        lists
            + item
                .iter()
                .filter(|(name, _)| key_names.contains(&name.as_str()) || index.projection.carries(name))
                .map(|(name, value)| {
                    let share =
                        if own_keys.contains(&name.as_str()) { 1.0 } else { self.carried(entity, name) };
                    share * self.field_bytes(self.entity(entity), name, value)
                })
                .sum::<f64>()
    }

    fn time_value(&self) -> u64 {
        // The end of the run: the longest epoch-second numbers the run writes.
        (self.scenario.workload.start + self.scenario.workload.duration).as_secs()
    }

    fn value_text(&self, generator: &Generator) -> Option<String> {
        Some(match generator {
            Generator::Pick(population) | Generator::New(population) => {
                let p = self.scenario.population(population);
                p.id(p.count.saturating_sub(1))
            }
            Generator::Now => self.time_value().to_string(),
            Generator::NowPlus(lifetime) => (self.time_value() + lifetime.as_secs()).to_string(),
            Generator::Text(text) => text.clone(),
            Generator::OneOf(choices) => choices
                .iter()
                .fold(None::<&(String, f64)>, |best, c| match best {
                    Some(b) if b.1 >= c.1 => Some(b),
                    _ => Some(c),
                })
                .map(|(v, _)| v.clone())?,
            Generator::Number(distribution) => {
                let mean = typical(distribution);
                if mean.fract() == 0.0 { format!("{mean:.0}") } else { format!("{mean:.2}") }
            }
            Generator::Payload(bytes) => "x".repeat(*bytes as usize),
            Generator::Chance(_) => "true".to_owned(),
            Generator::Sometimes(_, inner) => self.value_text(inner)?,
            Generator::Nth(_) => "1".to_owned(),
            // Sized by the longest state an item can hold.
            Generator::States(states) => states.iter().max_by_key(|s| s.len())?.clone(),
        })
    }

    fn value(&self, ty: AttrType, generator: &Generator) -> Option<AttributeValue> {
        let text = self.value_text(generator)?;
        Some(match ty {
            AttrType::S => AttributeValue::S(text),
            AttrType::N | AttrType::Time => AttributeValue::N(Number::parse(&text).ok()?),
            AttrType::B => AttributeValue::B(text.into_bytes()),
            AttrType::Bool => AttributeValue::Bool(true),
        })
    }

    fn representative(&self, entity: &Entity) -> Item {
        let mut item = Item::new();
        for attribute in &entity.attributes {
            if let Some(value) = self.value(attribute.ty, &attribute.generator) {
                item.insert(attribute.name.clone(), value);
            }
        }
        for copy in self.variant.copies.iter().filter(|c| c.ids.to() == entity.id()) {
            let from = self.entity(copy.ids.from());
            if let Some(a) = copy.ids.attribute().map(|a| &from.attributes[a.index()])
                && let Some(value) = self.value(a.ty, &a.generator)
            {
                item.insert(copy.as_name.clone(), value);
            }
        }
        if let Some(ttl) = self.variant.ttl.as_ref().filter(|t| t.covers(entity.id())) {
            let expires = self.time_value() + ttl.lifetime.as_secs();
            item.insert(ttl.attribute.clone(), AttributeValue::N(Number::from_u64(expires)));
        }
        if self.scenario.engine.profile().key_attributes {
            let mut keyed = item.clone();
            let mut put = |name: &str, template: &Template| {
                if let Some(key) = template.expand(&item, &mut |_| 0) {
                    keyed.insert(name.to_owned(), key.to_attribute());
                }
            };
            if let Some(k) = self.variant.keys_for(entity.id()) {
                put(&self.variant.table_pk, &k.pk);
                if let (Some(name), Some(sk)) = (&self.variant.table_sk, &k.sk) {
                    put(name, sk);
                }
            }
            for index in &self.variant.indexes {
                if let Some(k) = index.keys_for(entity.id()) {
                    put(&index.pk_attribute, &k.pk);
                    if let (Some(name), Some(sk)) = (&index.sk_attribute, &k.sk) {
                        put(name, sk);
                    }
                }
            }
            return keyed;
        }
        item
    }

    fn writes(&self, entity: EntityId, action: Action) -> impl Iterator<Item = &'a AccessPattern> {
        self.scenario.patterns.iter().filter(move |p| p.action == action && p.entity_id() == entity)
    }

    /// Whether a put makes a new item (its primary key holds a fresh id or the write time)
    /// rather than overwriting one of a bounded set of keys.
    pub fn creates_new(&self, entity: EntityId) -> bool {
        let e = self.entity(entity);
        let Some(k) = self.variant.keys_for(entity) else { return false };
        let key_attrs: Vec<ItemAttr> =
            k.pk_slots().iter().chain(k.sk_slots()).flat_map(|s| s.all()).collect();
        key_attrs.iter().any(|&a| {
            self.generator_of(e, a).is_some_and(|g| {
                matches!(
                    unwrap_sometimes(g),
                    Generator::New(_)
                        | Generator::Now
                        | Generator::NowPlus(_)
                        | Generator::Number(_)
                        | Generator::Payload(_)
                ) || self.numbered_by(e, a).is_some_and(|by| key_attrs.contains(&by))
            })
        })
    }

    /// For an attribute drawn `Nth(by)` on the entity's items: the attribute `by` is there.
    pub(in crate::engine::planner) fn numbered_by(&self, e: &Entity, attr: ItemAttr) -> Option<ItemAttr> {
        match attr {
            ItemAttr::Own(a) => e.attributes.get(a.index())?.numbered_by().map(ItemAttr::Own),
            // A copy's `by` names an attribute of the source; the holder's so named, if any.
            ItemAttr::Copy(i) => self.variant.copies.get(i)?.ids.numbered_by(),
            ItemAttr::Ttl | ItemAttr::List(_) => None,
        }
    }

    /// Seconds an item stays in the table: until its expiry, plus the engine's deletion delay
    /// (DynamoDB keeps an expired item, visible to reads, until its background sweep deletes it);
    /// the whole run when the variant does not expire the entity.
    pub fn lifetime(&self, entity: EntityId) -> f64 {
        self.expiry(entity).map_or(self.secs, |expiry| (expiry + self.deletion_delay()).min(self.secs))
    }

    /// Seconds from an item's write to its expiry, when the variant expires the entity: the
    /// lifetime its put gives it (the pattern's `ttl`, else the variant's), averaged over the
    /// puts by rate, or the longest an update sets when updates create its items. An update
    /// that sets a `ttl` slides the expiry from its own time, so an item lives at least that
    /// long after it is last touched; keyheat counts the longer of the two, which undercounts
    /// items touched again and again (each stays until its last touch + `ttl`).
    pub fn expiry(&self, entity: EntityId) -> Option<f64> {
        let table = self.variant.ttl.as_ref().filter(|t| t.covers(entity))?;
        let own = |p: &AccessPattern| p.ttl.unwrap_or(table.lifetime).as_secs_f64();
        let puts: Vec<&AccessPattern> = self.writes(entity, Action::Put).collect();
        let rate: f64 = puts.iter().map(|p| mean_rate(p, self.secs)).sum();
        let put_life = if rate > 0.0 {
            puts.iter().map(|p| mean_rate(p, self.secs) * own(p)).sum::<f64>() / rate
        } else if puts.is_empty() && self.writes(entity, Action::Update).next().is_some() {
            self.writes(entity, Action::Update).map(own).fold(0.0, f64::max)
        } else {
            table.lifetime.as_secs_f64()
        };
        let slide = self
            .writes(entity, Action::Update)
            .filter_map(|p| p.ttl.map(SimDuration::as_secs_f64))
            .fold(0.0, f64::max);
        Some(put_life.max(slide))
    }

    /// Seconds an expired item stays before the engine deletes it, the store profile's
    /// `ttl_delay_secs`: DynamoDB's TTL sweep (`sim::TTL_DELAY_SECS`, 48 h: AWS developer guide,
    /// "How it works: DynamoDB Time to Live", "typically within 48 hours"), MongoDB's TTL
    /// monitor (60 s), none on Cassandra or Cosmos DB (reads skip an expired row or item at
    /// once). The replay deletes with the same figures.
    #[allow(clippy::cast_precision_loss)] // 172,800, 60 and 0 are exact
    pub fn deletion_delay(&self) -> f64 {
        self.scenario.engine.profile().ttl_delay_secs as f64
    }

    /// Items of the entity at the end of the run: those it starts with (one per member of the
    /// population it owns) plus those its writes create, and never more than its table key can
    /// tell apart. Puts create items; an entity nobody puts and that owns no population is created
    /// by the updates that upsert it (a counter, an aggregate); one nobody writes is assumed to
    /// hold every key it can.
    pub fn items_total(&self, entity: EntityId) -> f64 {
        let e = self.entity(entity);
        let owned = e
            .owned_population()
            .map(|p| self.scenario.population(p))
            .map_or(0.0, |p| p.count as f64 + p.growth_per_day * self.secs / 86_400.0);
        let keys = self.key_space(entity);
        let puts = self.put_rate(entity);
        let upserts: f64 = self.writes(entity, Action::Update).map(|p| mean_rate(p, self.secs)).sum::<f64>()
            + self.aggregate_rate(entity);
        let created = if puts > 0.0 {
            let deletes: f64 = self.writes(entity, Action::Delete).map(|p| mean_rate(p, self.secs)).sum();
            (puts - deletes).max(0.0) * self.lifetime(entity)
        } else if owned > 0.0 {
            // Updates of an entity that starts with its members change those members.
            0.0
        } else {
            upserts * self.lifetime(entity)
        };
        let written = owned + created;
        if written <= 0.0 && keys.is_finite() {
            return keys;
        }
        written.min(keys).max(0.0)
    }

    /// Calls per second of the patterns that maintain an aggregate item of the entity.
    pub fn aggregate_rate(&self, entity: EntityId) -> f64 {
        self.variant
            .aggregates
            .iter()
            .filter(|a| a.ids.entity() == entity)
            .flat_map(|a| a.ids.patterns())
            .map(|&p| mean_rate(self.pattern(p), self.secs))
            .sum()
    }

    /// Distinct table keys the entity's items can take: the distinct values of the key's
    /// attributes counted jointly (an attribute in both keys counts once, and `hash(x, N)` next
    /// to `x` adds nothing), times the write shards. Infinite when a key holds a fresh value (a
    /// new id, the write time, a generated number).
    pub fn key_space(&self, entity: EntityId) -> f64 {
        // A child embedded whole is an element of its parent's list: every append adds one.
        if self.creates_new(entity) || self.variant.embedded_whole(entity) {
            return f64::INFINITY;
        }
        let Some(k) = self.variant.keys_for(entity) else { return 0.0 };
        let e = self.entity(entity);
        let parts: Vec<&Part> = k.pk.parts().iter().chain(k.sk.iter().flat_map(Template::parts)).collect();
        let slots: Vec<SlotAttrs> = k.pk_slots().iter().chain(k.sk_slots()).copied().collect();
        let plain: Vec<&str> =
            parts.iter().filter(|p| matches!(p, Part::Attr { .. })).filter_map(|p| p.attribute()).collect();
        let mut counted: Vec<&str> = Vec::new();
        let mut space = 1.0;
        for (i, part) in parts.into_iter().enumerate() {
            let bound = slots.get(i).and_then(|s| s.reads);
            // A class slot counts as the layout of the values it does not list: most of them.
            let part = part.class().map_or(part, |c| &c.other);
            match part {
                Part::Literal(_) | Part::Class(_) => {}
                Part::Shard { count } => space *= f64::from(*count),
                Part::Hash { name, count } => {
                    if !plain.contains(&name.as_str()) && !counted.contains(&name.as_str()) {
                        counted.push(name);
                        space *= self.distinct_values(e, bound).min(f64::from(*count));
                    }
                }
                Part::Attr { name, .. } | Part::Time { name, .. } | Part::Bucket { name, .. } => {
                    if counted.contains(&name.as_str()) {
                        continue;
                    }
                    counted.push(name);
                    let time = bound.and_then(|a| self.generator_of(e, a)).is_none_or(|g| {
                        matches!(unwrap_sometimes(g), Generator::Now | Generator::NowPlus(_))
                    });
                    space *= if time { f64::INFINITY } else { self.distinct_values(e, bound) };
                }
            }
        }
        space
    }

    /// Share of the entity's items that appear in the index: attributes its key templates need
    /// may be absent (`Sometimes`), and a sparse index only holds items matching `only_when`.
    pub fn presence(&self, entity: EntityId, index: Option<&Index>) -> f64 {
        let Some(index) = index else { return 1.0 };
        let e = self.entity(entity);
        let mut share = self.key_presence(entity, index);
        if let Some((_, value)) = &index.only_when {
            // An entity without the attribute never matches.
            share *=
                index.only_when_id(entity).map_or(0.0, |a| self.written_share(e, ItemAttr::Own(a), value));
        }
        share
    }

    /// Share of the entity's items that carry every attribute the index's key templates need
    /// (an attribute drawn `Sometimes` is absent from the rest), before any `only_when`.
    pub fn key_presence(&self, entity: EntityId, index: &Index) -> f64 {
        let e = self.entity(entity);
        let Some(k) = index.keys_for(entity) else { return 0.0 };
        let mut own: Vec<AttrId> = Vec::new();
        for attr in k.pk_slots().iter().chain(k.sk_slots()).flat_map(|s| s.all()) {
            if let ItemAttr::Own(a) = attr
                && !own.contains(&a)
            {
                own.push(a);
            }
        }
        own.iter()
            .map(|a| &e.attributes[a.index()])
            .map(|a| if let Generator::Sometimes(s, _) = a.generator { s } else { 1.0 })
            .product()
    }

    /// The share of the entity's items whose `attribute` holds `value`: the generator's share for
    /// the initial load and for puts that leave the value to it, and all or none of a put whose
    /// `equals` fixes it — each weighed by the items it writes over the run.
    pub fn written_share(&self, e: &Entity, attr: ItemAttr, value: &str) -> f64 {
        // Only the entity's own attributes: a put sets nothing else.
        let ItemAttr::Own(own) = attr else { return 0.0 };
        let Some(a) = e.attributes.get(own.index()) else { return 0.0 };
        // A lifecycle's items are spread over its states by how often they were advanced.
        if let Generator::States(states) = &a.generator {
            let held = super::transition::held(self, e.id(), attr).unwrap_or_default();
            return states.iter().position(|s| s == value).and_then(|k| held.get(k)).copied().unwrap_or(0.0);
        }
        let attribute = a.name.as_str();
        let generated = value_share(&a.generator, value);
        if !self.writes(e.id(), Action::Put).any(|p| p.equals.iter().any(|(a, _)| a == attribute)) {
            return generated;
        }
        let preload =
            e.owned_population().map(|p| self.scenario.population(p)).map_or(0.0, |p| p.count as f64);
        let (mut items, mut holding) = (preload, preload * generated);
        for p in self.writes(e.id(), Action::Put) {
            let puts = mean_rate(p, self.secs) * self.secs;
            let share = match p.equals.iter().find(|(a, _)| a == attribute) {
                Some((_, fixed)) => f64::from(u8::from(fixed == value)),
                None => generated,
            };
            items += puts;
            holding += puts * share;
        }
        if items > 0.0 { holding / items } else { generated }
    }

    /// How the entity's items get `attr`: its own attribute's generator, or the source's for a
    /// denormalized copy (the TTL attribute and embedded lists have none).
    pub fn generator_of(&self, e: &'a Entity, attr: ItemAttr) -> Option<&'a Generator> {
        match attr {
            ItemAttr::Own(a) => e.attributes.get(a.index()).map(|a| &a.generator),
            ItemAttr::Copy(i) => {
                let copy = self.variant.copies.get(i)?;
                let from = self.entity(copy.ids.from());
                copy.ids.attribute().map(|a| &from.attributes[a.index()].generator)
            }
            ItemAttr::Ttl | ItemAttr::List(_) => None,
        }
    }

    /// What the entity's items call `attr`: the name the patterns compare with and the notes
    /// print.
    pub fn attr_name(&self, e: &'a Entity, attr: ItemAttr) -> &'a str {
        match attr {
            ItemAttr::Own(a) => e.attributes.get(a.index()).map_or("", |a| a.name.as_str()),
            ItemAttr::Copy(i) => &self.variant.copies[i].as_name,
            ItemAttr::Ttl => self.variant.ttl.as_ref().map_or("", |t| t.attribute.as_str()),
            ItemAttr::List(i) => &self.variant.embeds[i].as_name,
        }
    }

    /// Items of `pk`'s entity under one partition key value of `pk` (in the table or `place`)
    /// at the end of the run, and how fast new ones arrive — for the value a typical call of
    /// `chooser` picks.
    pub fn partition_items(
        &self,
        place: Option<&Index>,
        pk: Bound<'_>,
        chooser: Option<&AccessPattern>,
    ) -> PartitionLoad {
        let entity = pk.entity;
        let presence = self.presence(entity, place);
        let spread = self.spread(place, pk, chooser);
        // Every append of a child adds an entry to a multikey index over its list (a repeated
        // value in one list adds none: check counts those too, an upper bound).
        let multikey = place.is_some_and(|ix| self.variant.multikey_of(ix).is_some());
        let new_per_sec = if self.creates_new(entity) || multikey { self.put_rate(entity) } else { 0.0 };
        let rate = new_per_sec * presence * spread.typical;
        let items = match spread.bucket_secs {
            Some(bucket) => rate * self.window_mean(bucket, entity),
            None => self.items_mean(entity) * presence * spread.typical,
        };
        PartitionLoad { items, rate }
    }

    /// Items of the entity a read finds on average over the run, reads being spread evenly over
    /// it: those it starts with plus half of those the run adds (less, when items expire before
    /// the run ends: they stop accumulating after their lifetime).
    pub fn items_mean(&self, entity: EntityId) -> f64 {
        let end = self.items_total(entity);
        let deletes: f64 = self.writes(entity, Action::Delete).map(|p| mean_rate(p, self.secs)).sum();
        let rate = (self.put_rate(entity) - deletes).max(0.0);
        let created = rate * self.lifetime(entity);
        if created <= 0.0 || end <= 0.0 || self.secs <= 0.0 {
            return end;
        }
        // What the entity starts with; the key space may cap the end below start + created.
        let e = self.entity(entity);
        let owned = e
            .owned_population()
            .map(|p| self.scenario.population(p))
            .map_or(0.0, |p| p.count as f64 + p.growth_per_day * self.secs / 86_400.0 / 2.0);
        (owned + rate * self.window_mean(f64::INFINITY, entity)).min(end)
    }

    /// Seconds of writes a read sees on average over the run when it looks back at most
    /// `window` seconds (a range `Last(d)`, or the current time bucket) at items that live
    /// `lifetime(entity)`: the mean over t in [0, T] of min(window, lifetime, t) —
    /// T/2 when the window reaches back past the start, L - L²/2T when it is L < T.
    pub fn window_mean(&self, window: f64, entity: EntityId) -> f64 {
        let t = self.secs.max(1e-9);
        let l = window.min(self.lifetime(entity));
        if l >= t { t / 2.0 } else { l - l * l / (2.0 * t) }
    }

    /// Puts per second of the entity, on average over the run.
    pub fn put_rate(&self, entity: EntityId) -> f64 {
        self.writes(entity, Action::Put).map(|p| mean_rate(p, self.secs)).sum()
    }

    /// How likely an update's fresh draw of `attribute` differs from the value the item holds,
    /// both drawn from the attribute's generator: 1 − Σ pᵢ² over its values (a status of three
    /// equally likely values changes on two updates in three; a constant never; a time, a
    /// filler or a number drawn from a range always, as good as). An index entry is rewritten
    /// only when what it holds changes.
    pub fn change_share(&self, entity: EntityId, attribute: ItemAttr) -> f64 {
        // A lifecycle advances unless the item is already in its final state.
        if let Some(found) = super::transition::found(self, entity, attribute) {
            return 1.0 - found.last().copied().unwrap_or(0.0);
        }
        let e = self.entity(entity);
        self.generator_of(e, attribute).map_or(1.0, |g| self.generator_change(g))
    }

    fn generator_change(&self, generator: &Generator) -> f64 {
        match generator {
            Generator::Text(_) => 0.0,
            Generator::OneOf(values) => {
                let total: f64 = values.iter().map(|(_, w)| w.max(0.0)).sum();
                if total <= 0.0 {
                    return 0.0;
                }
                1.0 - values.iter().map(|(_, w)| (w.max(0.0) / total).powi(2)).sum::<f64>()
            }
            Generator::Chance(p) => 2.0 * p * (1.0 - p),
            Generator::Sometimes(share, inner) => {
                let stay = (1.0 - share).powi(2) + share * share * (1.0 - self.generator_change(inner));
                1.0 - stay
            }
            Generator::Pick(name) => {
                let p = self.scenario.population(name);
                let n = self.population_size(p);
                #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a member count")]
                let n = n.round() as u64;
                1.0 - crate::engine::planner::load::meeting(
                    &p.popularity,
                    &p.popularity,
                    n,
                    self.scenario.workload.seed,
                )
            }
            _ => 1.0,
        }
    }

    /// Members of a population at the end of the run.
    pub fn population_size(&self, p: &crate::engine::model::Population) -> f64 {
        (p.count as f64 + self.population_added(p)).max(1.0)
    }

    /// Members of a population a read finds on average over the run: those it starts with,
    /// plus half of those its growth and the puts of `New` ids add by the end (members are never
    /// removed). A read picks among the members that exist when it is made, as `items_mean`
    /// counts the items it finds: a lookup of one id among them finds its item.
    pub fn population_mean_size(&self, p: &crate::engine::model::Population) -> f64 {
        (p.count as f64 + self.population_added(p) / 2.0).max(1.0)
    }

    /// Members the run adds to a population: its growth, and a member per put of a `New` id.
    fn population_added(&self, p: &crate::engine::model::Population) -> f64 {
        let grown = p.growth_per_day * self.secs / 86_400.0;
        let news: f64 = self
            .scenario
            .patterns
            .iter()
            .filter(|pat| pat.action == Action::Put)
            .filter(|pat| {
                self.entity(pat.entity_id()).attributes.iter().any(
                    |a| matches!(unwrap_sometimes(&a.generator), Generator::New(n) if n.id() == p.population_id()),
                )
            })
            .map(|pat| mean_rate(pat, self.secs) * self.secs)
            .sum();
        grown + news
    }
}

fn attr_bytes(name: &str, value: &AttributeValue) -> f64 {
    (name.len() + value.size()) as f64
}

/// The share of items on which a generator writes a value (`Sometimes` nests).
fn sometimes_share(g: &Generator) -> f64 {
    match g {
        Generator::Sometimes(share, inner) => share * sometimes_share(inner),
        _ => 1.0,
    }
}

fn unwrap_sometimes(g: &Generator) -> &Generator {
    match g {
        Generator::Sometimes(_, inner) => unwrap_sometimes(inner),
        other => other,
    }
}

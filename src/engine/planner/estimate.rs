//! The numbers the planner reasons with: a representative item per entity (generated from the
//! attribute generators, with its table and index keys) and its size, how fast each entity
//! grows, how many items it has at the end of the workload, and how a key template spreads the
//! load (distinct values, the hottest value's share).

use std::collections::BTreeMap;

use super::keys;
use super::load::{hottest_share, mean_rate, popularity_label, steady_share, typical};
use super::numbers;
use crate::engine::model::{AccessPattern, Action, AttrType, Entity, Generator, Index, Scenario, Variant};
use crate::engine::number::Number;
use crate::engine::template::{Part, Template};
use crate::engine::value::{AttributeValue, Item, item_size};
use crate::engine::workload::Popularity;

/// How one attribute's values spread (see `Spread`).
struct ValueSpread {
    distinct: f64,
    hottest: f64,
    steady: f64,
    typical: f64,
    note: String,
}

impl ValueSpread {
    /// `n` equally likely values.
    fn even(n: f64, note: String) -> ValueSpread {
        ValueSpread { distinct: n, hottest: 1.0 / n, steady: 1.0 / n, typical: 1.0 / n, note }
    }

    fn typical(self, typical: f64) -> ValueSpread {
        ValueSpread { typical, ..self }
    }
}

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
    pub cql: bool,
    items: BTreeMap<String, Item>,
    /// Per entity, the average item size: attributes that only some items carry (`Sometimes`
    /// attributes, the key attributes of a sparse index) count by the share that carries them.
    bytes: BTreeMap<String, f64>,
}

/// How a key template spreads items or requests over its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    /// Distinct values the template takes over the run.
    pub distinct: f64,
    /// The share of writes (or reads) that land on the most popular value at one time.
    pub hottest: f64,
    /// The share the busiest value keeps over the whole run: below `hottest` when the hot value
    /// moves on (`Latest` favours whichever member is newest).
    pub steady: f64,
    /// The share of items under a typical value, or under the value the pattern's constants
    /// pick (`status = "PENDING"`).
    pub typical: f64,
    /// When a slot buckets time, the longest bucket in seconds: a value only takes writes
    /// during its bucket.
    pub bucket_secs: Option<f64>,
    /// Why, one phrase per slot.
    pub notes: Vec<String>,
}

impl<'a> Estimator<'a> {
    pub fn new(scenario: &'a Scenario, variant: &'a Variant) -> Estimator<'a> {
        let mut est = Estimator {
            scenario,
            variant,
            secs: scenario.workload.duration.as_secs_f64(),
            cql: scenario.engine == crate::engine::model::Engine::Cassandra,
            items: BTreeMap::new(),
            bytes: BTreeMap::new(),
        };
        let items = scenario.entities.iter().map(|e| (e.name.clone(), est.representative(e))).collect();
        est.items = items;
        let bytes = scenario
            .entities
            .iter()
            .map(|e| {
                let weighted = est
                    .item(&e.name)
                    .iter()
                    .map(|(name, value)| est.carried_share(e, name) * attr_bytes(name, value));
                (e.name.clone(), weighted.sum())
            })
            .collect();
        est.bytes = bytes;
        est
    }

    /// The share of the entity's items that carry `name`: a `Sometimes` attribute's share, a
    /// sparse index's key attribute the index's presence; everything else 1.
    fn carried_share(&self, e: &Entity, name: &str) -> f64 {
        if let Some(a) = e.attribute(name) {
            return sometimes_share(&a.generator);
        }
        let table_key = name == self.variant.table_pk || self.variant.table_sk.as_deref() == Some(name);
        let index_keys: Vec<&Index> = self
            .variant
            .indexes
            .iter()
            .filter(|i| i.keys_of(&e.name).is_some())
            .filter(|i| i.pk_attribute == name || i.sk_attribute.as_deref() == Some(name))
            .collect();
        if table_key || index_keys.is_empty() {
            return 1.0;
        }
        index_keys.iter().map(|i| self.presence(&e.name, Some(i))).fold(0.0, f64::max)
    }

    pub fn entity(&self, name: &str) -> &'a Entity {
        self.scenario.entity(name).expect("the loader checked every entity name")
    }

    /// A representative item of the entity: every attribute present (a sparse attribute as it
    /// is when present), plus its table and index key attributes in the DynamoDB profile.
    pub fn item(&self, entity: &str) -> &Item {
        self.items.get(entity).expect("every entity has a representative item")
    }

    /// The average size of the entity's items (see `carried_share`).
    pub fn item_bytes(&self, entity: &str) -> f64 {
        self.bytes.get(entity).copied().unwrap_or_else(|| item_size(self.item(entity)) as f64)
    }

    /// Bytes of the entity's entry in `index` (table keys + index keys + projected attributes),
    /// or of the item itself for the table.
    pub fn entry_bytes(&self, index: Option<&Index>, entity: &str) -> f64 {
        let Some(index) = index else { return self.item_bytes(entity) };
        let item = self.item(entity);
        let mut key_names = vec![self.variant.table_pk.as_str(), index.pk_attribute.as_str()];
        key_names.extend(self.variant.table_sk.as_deref());
        key_names.extend(index.sk_attribute.as_deref());
        if self.cql {
            // Cassandra has no key attributes: an index row carries the key columns.
            let keys = index.keys_of(entity).into_iter().chain(self.variant.keys_of(entity));
            for k in keys {
                key_names.extend(k.pk.attributes());
                key_names.extend(k.sk.iter().flat_map(Template::attributes));
            }
        }
        // Every entry carries the index's keys; a projected attribute that only some items
        // carry counts by its share.
        let own_keys: Vec<&str> = index
            .keys_of(entity)
            .into_iter()
            .flat_map(|k| k.pk.attributes().chain(k.sk.iter().flat_map(Template::attributes)))
            .chain([index.pk_attribute.as_str()])
            .chain(index.sk_attribute.as_deref())
            .collect();
        let e = self.entity(entity);
        item.iter()
            .filter(|(name, _)| key_names.contains(&name.as_str()) || index.projection.carries(name))
            .map(|(name, value)| {
                let share = if own_keys.contains(&name.as_str()) { 1.0 } else { self.carried_share(e, name) };
                share * attr_bytes(name, value)
            })
            .sum()
    }

    fn time_value(&self) -> u64 {
        // The end of the run: the longest epoch-second numbers the run writes.
        (self.scenario.workload.start + self.scenario.workload.duration).as_secs()
    }

    fn value_text(&self, generator: &Generator) -> Option<String> {
        Some(match generator {
            Generator::Pick(population) | Generator::New(population) => {
                let p = self.scenario.population(population).expect("the loader checked population names");
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
        for copy in self.variant.copies.iter().filter(|c| c.to == entity.name) {
            let from = self.entity(&copy.from);
            if let Some(a) = from.attribute(&copy.attribute)
                && let Some(value) = self.value(a.ty, &a.generator)
            {
                item.insert(copy.as_name.clone(), value);
            }
        }
        if let Some(ttl) = self.variant.ttl.as_ref().filter(|t| t.entities.contains(&entity.name)) {
            let expires = self.time_value() + ttl.lifetime.as_secs();
            item.insert(ttl.attribute.clone(), AttributeValue::N(Number::from_u64(expires)));
        }
        if self.scenario.engine == crate::engine::model::Engine::DynamoDb {
            let mut keyed = item.clone();
            let mut put = |name: &str, template: &Template| {
                if let Some(key) = template.expand(&item, &mut |_| 0) {
                    keyed.insert(name.to_owned(), key.to_attribute());
                }
            };
            if let Some(k) = self.variant.keys_of(&entity.name) {
                put(&self.variant.table_pk, &k.pk);
                if let (Some(name), Some(sk)) = (&self.variant.table_sk, &k.sk) {
                    put(name, sk);
                }
            }
            for index in &self.variant.indexes {
                if let Some(k) = index.keys_of(&entity.name) {
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

    fn writes(&self, entity: &str, action: Action) -> impl Iterator<Item = &'a AccessPattern> {
        let entity = entity.to_owned();
        self.scenario.patterns.iter().filter(move |p| p.action == action && p.entity == entity)
    }

    /// Whether a put makes a new item (its primary key holds a fresh id or the write time)
    /// rather than overwriting one of a bounded set of keys.
    pub fn creates_new(&self, entity: &str) -> bool {
        let e = self.entity(entity);
        let Some(k) = self.variant.keys_of(entity) else { return false };
        k.pk.attributes().chain(k.sk.iter().flat_map(Template::attributes)).any(|name| {
            self.generator_of(e, name).is_some_and(|g| {
                matches!(
                    unwrap_sometimes(g),
                    Generator::New(_)
                        | Generator::Now
                        | Generator::NowPlus(_)
                        | Generator::Number(_)
                        | Generator::Payload(_)
                )
            })
        })
    }

    /// Seconds an item lives: its TTL lifetime when the variant expires it, else the whole run.
    pub fn lifetime(&self, entity: &str) -> f64 {
        self.variant
            .ttl
            .as_ref()
            .filter(|t| t.entities.iter().any(|e| e == entity))
            .map_or(self.secs, |t| t.lifetime.as_secs_f64().min(self.secs))
    }

    /// Items of the entity at the end of the run: those it starts with (one per member of the
    /// population it owns) plus those its writes create, and never more than its table key can
    /// tell apart. Puts create items; an entity nobody puts and that owns no population is created
    /// by the updates that upsert it (a counter, an aggregate); one nobody writes is assumed to
    /// hold every key it can.
    pub fn items_total(&self, entity: &str) -> f64 {
        let e = self.entity(entity);
        let owned = e
            .owned_population()
            .and_then(|p| self.scenario.population(p))
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
    fn aggregate_rate(&self, entity: &str) -> f64 {
        self.variant
            .aggregates
            .iter()
            .filter(|a| a.entity == entity)
            .flat_map(|a| a.on.iter())
            .filter_map(|name| self.scenario.pattern(name))
            .map(|p| mean_rate(p, self.secs))
            .sum()
    }

    /// Distinct table keys the entity's items can take: the distinct values of the key's
    /// attributes counted jointly (an attribute in both keys counts once, and `hash(x, N)` next
    /// to `x` adds nothing), times the write shards. Infinite when a key holds a fresh value (a
    /// new id, the write time, a generated number).
    pub fn key_space(&self, entity: &str) -> f64 {
        if self.creates_new(entity) {
            return f64::INFINITY;
        }
        let Some(k) = self.variant.keys_of(entity) else { return 0.0 };
        let e = self.entity(entity);
        let parts: Vec<&Part> = k.pk.parts().iter().chain(k.sk.iter().flat_map(Template::parts)).collect();
        let plain: Vec<&str> =
            parts.iter().filter(|p| matches!(p, Part::Attr { .. })).filter_map(|p| p.attribute()).collect();
        let mut counted: Vec<&str> = Vec::new();
        let mut space = 1.0;
        for part in parts {
            match part {
                Part::Literal(_) => {}
                Part::Shard { count } => space *= f64::from(*count),
                Part::Hash { name, count } => {
                    if !plain.contains(&name.as_str()) && !counted.contains(&name.as_str()) {
                        counted.push(name);
                        space *= self.value_spread(e, name, None).distinct.min(f64::from(*count));
                    }
                }
                Part::Attr { name, .. } | Part::Time { name, .. } | Part::Bucket { name, .. } => {
                    if counted.contains(&name.as_str()) {
                        continue;
                    }
                    counted.push(name);
                    let time = self.generator_of(e, name).is_none_or(|g| {
                        matches!(unwrap_sometimes(g), Generator::Now | Generator::NowPlus(_))
                    });
                    space *= if time { f64::INFINITY } else { self.value_spread(e, name, None).distinct };
                }
            }
        }
        space
    }

    /// Share of the entity's items that appear in the index: attributes its key templates need
    /// may be absent (`Sometimes`), and a sparse index only holds items matching `only_when`.
    pub fn presence(&self, entity: &str, index: Option<&Index>) -> f64 {
        let Some(index) = index else { return 1.0 };
        let e = self.entity(entity);
        let Some(k) = index.keys_of(entity) else { return 0.0 };
        let mut share: f64 =
            k.pk.attributes()
                .chain(k.sk.iter().flat_map(Template::attributes))
                .filter_map(|name| e.attribute(name))
                .map(|a| if let Generator::Sometimes(s, _) = a.generator { s } else { 1.0 })
                .product();
        if let Some((attribute, value)) = &index.only_when {
            share *= e.attribute(attribute).map_or(0.0, |a| value_share(&a.generator, value));
        }
        share
    }

    /// How `template` (in the table or `place`) spreads the entity's items (`chooser: None`) or
    /// one pattern's calls over its values. In a sparse index the `only_when` attribute is
    /// constant: `presence` accounts for the items left out.
    pub fn spread(
        &self,
        entity: &str,
        place: Option<&Index>,
        template: &Template,
        chooser: Option<&AccessPattern>,
    ) -> Spread {
        self.spread_for(entity, place, template, chooser, false)
    }

    /// How a reading pattern's calls spread over the partitions of `template`: a slot it fans
    /// out over (a write shard, a hash of an attribute it does not know) sends every call to
    /// each of its partitions, so such a slot spreads nothing.
    pub fn read_spread(
        &self,
        entity: &str,
        place: Option<&Index>,
        template: &Template,
        p: &AccessPattern,
    ) -> Spread {
        self.spread_for(entity, place, template, Some(p), true)
    }

    fn spread_for(
        &self,
        entity: &str,
        place: Option<&Index>,
        template: &Template,
        chooser: Option<&AccessPattern>,
        reader: bool,
    ) -> Spread {
        let e = self.entity(entity);
        let mut spread = Spread {
            distinct: 1.0,
            hottest: 1.0,
            steady: 1.0,
            typical: 1.0,
            bucket_secs: None,
            notes: Vec::new(),
        };
        let mut seen: Vec<&str> = Vec::new();
        let slot_attrs: Vec<&str> = template
            .parts()
            .iter()
            .filter(|p| matches!(p, Part::Attr { .. }))
            .filter_map(Part::attribute)
            .collect();
        for part in template.parts() {
            if let Part::Shard { count } = part {
                if reader {
                    spread.notes.push(format!("shard({count}): every call asks each of the {count} shards"));
                    continue;
                }
                spread.distinct *= f64::from(*count);
                spread.hottest /= f64::from(*count);
                spread.steady /= f64::from(*count);
                spread.typical /= f64::from(*count);
                spread.notes.push(format!("shard({count}) spreads writes over {count} keys"));
                continue;
            }
            let Some(name) = part.attribute() else { continue };
            if seen.contains(&name) && !matches!(part, Part::Hash { .. }) {
                continue;
            }
            if let Part::Hash { count, .. } = part
                && reader
                && chooser.is_some_and(|p| !p.knows(name))
            {
                spread.notes.push(format!(
                    "hash({name}, {count}) with {name} unknown: every call asks each of the {count}"
                ));
                continue;
            }
            seen.push(name);
            if let Some((_, value)) = place.and_then(|i| i.only_when.as_ref()).filter(|(a, _)| a == name) {
                spread.notes.push(format!("{name}: always {value:?} in this sparse index"));
                continue;
            }
            let generator = self.generator_of(e, name);
            let is_time = generator
                .is_none_or(|g| matches!(unwrap_sometimes(g), Generator::Now | Generator::NowPlus(_)));
            let known = chooser.is_some_and(|p| p.knows(name));
            if is_time && !known {
                let width = keys::bucket_width(part).map_or(1.0, |(_, longest)| longest);
                spread.bucket_secs = Some(spread.bucket_secs.map_or(width, |w: f64| w.min(width)));
                let label = if matches!(part, Part::Attr { .. }) {
                    "per-second".to_owned()
                } else {
                    keys::bucket_label(part)
                };
                spread.notes.push(format!("{name} in {label} buckets: all current writes share one bucket"));
                continue;
            }
            let ValueSpread { distinct, hottest, steady, typical, note } =
                self.value_spread(e, name, chooser);
            match part {
                Part::Hash { count, .. } if slot_attrs.contains(&name) => {
                    // hash(x, N) next to x itself adds nothing: x already picks the key.
                    let _ = count;
                }
                Part::Hash { count, .. } => {
                    let n = f64::from(*count);
                    spread.distinct *= distinct.min(n);
                    spread.hottest *= hottest + (1.0 - hottest) / n;
                    spread.steady *= steady + (1.0 - steady) / n;
                    spread.typical /= distinct.min(n);
                    spread.notes.push(format!("hash({name}, {count}) over {note}"));
                }
                _ => {
                    spread.distinct *= distinct;
                    spread.hottest *= hottest;
                    spread.steady *= steady;
                    spread.typical *= typical;
                    spread.notes.push(format!("{name}: {note}"));
                }
            }
        }
        spread
    }

    /// The entity's attributes that every item holds with the same text (`Text(…)`), and that text.
    pub fn constants(&self, entity: &str) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.entity(entity).attributes.iter().filter_map(|a| match &a.generator {
            Generator::Text(text) => Some((a.name.as_str(), text.as_str())),
            _ => None,
        })
    }

    /// The text every item of the entity holds in `name`, when it is a constant.
    pub fn constant(&self, entity: &str, name: &str) -> Option<&'a str> {
        self.constants(entity).find(|(a, _)| *a == name).map(|(_, v)| v)
    }

    /// The share of the entity's items whose attribute matches what a call of `chooser` asks
    /// for: a constant's share (`status = "PENDING"`), or one value among the attribute's
    /// distinct values for a given attribute.
    pub fn share_of(&self, entity: &str, name: &str, chooser: &AccessPattern) -> f64 {
        let e = self.entity(entity);
        self.value_spread(e, name, Some(chooser)).typical.clamp(0.0, 1.0)
    }

    /// The share of the entity's items whose attribute starts with `prefix`: by weight for
    /// `OneOf`, by counting (a sample of at most 10,000 evenly spaced) member ids for a
    /// population; 1 when the generator does not say.
    pub fn prefix_share(&self, entity: &str, name: &str, prefix: &str) -> f64 {
        const SAMPLE: u64 = 10_000;
        let e = self.entity(entity);
        let Some(generator) = self.generator_of(e, name) else { return 1.0 };
        let present = sometimes_share(generator);
        present
            * match unwrap_sometimes(generator) {
                Generator::Text(text) => f64::from(u8::from(text.starts_with(prefix))),
                Generator::OneOf(choices) => {
                    let total: f64 = choices.iter().map(|(_, w)| w).sum();
                    choices.iter().filter(|(v, _)| v.starts_with(prefix)).map(|(_, w)| w).sum::<f64>() / total
                }
                Generator::Pick(population) | Generator::New(population) => {
                    let pop =
                        self.scenario.population(population).expect("the loader checked population names");
                    let n = numbers::floor_u64(self.population_size(pop)).max(1);
                    let step = n.div_ceil(SAMPLE).max(1);
                    let sampled = (0..n).step_by(usize::try_from(step).unwrap_or(usize::MAX));
                    let (hits, total) = sampled.fold((0u64, 0u64), |(h, t), i| {
                        (h + u64::from(pop.id(i).starts_with(prefix)), t + 1)
                    });
                    hits as f64 / total.max(1) as f64
                }
                _ => 1.0,
            }
    }

    fn generator_of(&self, e: &'a Entity, name: &str) -> Option<&'a Generator> {
        if let Some(a) = e.attribute(name) {
            return Some(&a.generator);
        }
        let copy = self.variant.copies.iter().find(|c| c.to == e.name && c.as_name == name)?;
        self.entity(&copy.from).attribute(&copy.attribute).map(|a| &a.generator)
    }

    /// How one attribute's values spread, and a phrase saying why.
    fn value_spread(&self, e: &Entity, name: &str, chooser: Option<&AccessPattern>) -> ValueSpread {
        let generator = self.generator_of(e, name).map(unwrap_sometimes);
        if let Some((_, value)) = chooser.and_then(|p| p.equals.iter().find(|(a, _)| a == name)) {
            let share = generator.map_or(1.0, |g| value_share(g, value));
            return ValueSpread::even(1.0, format!("always {value:?}")).typical(share);
        }
        let population = match generator {
            Some(Generator::Pick(p) | Generator::New(p)) => self.scenario.population(p),
            _ => None,
        };
        let picked_by = |popularity: &Popularity, pop: &crate::engine::model::Population| {
            let n = self.population_size(pop);
            ValueSpread {
                distinct: n,
                hottest: hottest_share(popularity, n),
                steady: steady_share(popularity, n),
                typical: 1.0 / n,
                note: format!("{} over {} {}", popularity_label(popularity), numbers::count(n), pop.name),
            }
        };
        if let (Some(p), Some(pop)) = (chooser, population)
            && p.given.first().is_some_and(|g| g == name)
            && let Some(keys) = &p.keys
        {
            return picked_by(keys, pop);
        }
        // A reader (or an update) names an existing member: it picks by the population's
        // popularity, whether the entity picks its ids or owns them (`New`).
        let names_existing = chooser.is_some_and(|p| p.action != Action::Put && p.knows(name));
        match generator {
            Some(Generator::Pick(_)) => {
                let pop = population.expect("the loader checked population names");
                picked_by(&pop.popularity, pop)
            }
            Some(Generator::New(_)) if names_existing => {
                let pop = population.expect("the loader checked population names");
                picked_by(&pop.popularity, pop)
            }
            Some(Generator::Text(text)) => ValueSpread::even(1.0, format!("always {text:?}")),
            Some(Generator::OneOf(choices)) => {
                let total: f64 = choices.iter().map(|(_, w)| w).sum();
                let (top, weight) = choices
                    .iter()
                    .fold(("", 0.0), |(bv, bw), (v, w)| if *w > bw { (v.as_str(), *w) } else { (bv, bw) });
                let note = format!(
                    "one of {} values, {top:?} on {}",
                    choices.len(),
                    numbers::percent(weight / total)
                );
                ValueSpread {
                    hottest: weight / total,
                    steady: weight / total,
                    ..ValueSpread::even(choices.len() as f64, note)
                }
            }
            Some(Generator::Chance(p)) => {
                let top = p.max(1.0 - p);
                ValueSpread {
                    hottest: top,
                    steady: top,
                    ..ValueSpread::even(2.0, "true or false".to_owned())
                }
            }
            _ => {
                // Fresh values (new ids, numbers, payloads): about one item per value.
                ValueSpread::even(self.items_total(&e.name).max(1.0), "a new value per item".to_owned())
            }
        }
    }

    /// Items under one partition key value of `pk` (in the table or `place`) at the end of the
    /// run, and how fast new ones arrive — for the value a typical call of `chooser` picks.
    pub fn partition_items(
        &self,
        entity: &str,
        place: Option<&Index>,
        pk: &Template,
        chooser: Option<&AccessPattern>,
    ) -> PartitionLoad {
        let presence = self.presence(entity, place);
        let spread = self.spread(entity, place, pk, chooser);
        let new_per_sec = if self.creates_new(entity) { self.put_rate(entity) } else { 0.0 };
        let rate = new_per_sec * presence * spread.typical;
        let items = match spread.bucket_secs {
            Some(bucket) => rate * bucket.min(self.lifetime(entity)),
            None => self.items_total(entity) * presence * spread.typical,
        };
        PartitionLoad { items, rate }
    }

    /// Puts per second of the entity, on average over the run.
    pub fn put_rate(&self, entity: &str) -> f64 {
        self.writes(entity, Action::Put).map(|p| mean_rate(p, self.secs)).sum()
    }

    /// Members of a population at the end of the run.
    pub fn population_size(&self, p: &crate::engine::model::Population) -> f64 {
        let grown = p.count as f64 + p.growth_per_day * self.secs / 86_400.0;
        let news: f64 = self
            .scenario
            .patterns
            .iter()
            .filter(|pat| pat.action == Action::Put)
            .filter(|pat| {
                self.entity(&pat.entity)
                    .attributes
                    .iter()
                    .any(|a| matches!(unwrap_sometimes(&a.generator), Generator::New(n) if *n == p.name))
            })
            .map(|pat| mean_rate(pat, self.secs) * self.secs)
            .sum();
        (grown + news).max(1.0)
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

/// Share of items whose attribute (made by `g`) equals `value`.
fn value_share(g: &Generator, value: &str) -> f64 {
    match g {
        Generator::Text(text) => f64::from(u8::from(text == value)),
        Generator::OneOf(choices) => {
            let total: f64 = choices.iter().map(|(_, w)| w).sum();
            choices.iter().filter(|(v, _)| v == value).map(|(_, w)| w).sum::<f64>() / total
        }
        Generator::Sometimes(share, inner) => share * value_share(inner, value),
        Generator::Chance(p) => match value {
            "true" => *p,
            "false" => 1.0 - p,
            _ => 0.0,
        },
        _ => 1.0,
    }
}

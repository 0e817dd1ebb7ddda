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
        };
        let items = scenario.entities.iter().map(|e| (e.name.clone(), est.representative(e))).collect();
        est.items = items;
        est
    }

    pub fn entity(&self, name: &str) -> &'a Entity {
        self.scenario.entity(name).expect("the loader checked every entity name")
    }

    /// A representative item of the entity: every attribute present (a sparse attribute as it
    /// is when present), plus its table and index key attributes in the DynamoDB profile.
    pub fn item(&self, entity: &str) -> &Item {
        self.items.get(entity).expect("every entity has a representative item")
    }

    pub fn item_bytes(&self, entity: &str) -> f64 {
        item_size(self.item(entity)) as f64
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
        let size: usize = item
            .iter()
            .filter(|(name, _)| key_names.contains(&name.as_str()) || index.projection.carries(name))
            .map(|(name, value)| name.len() + value.size())
            .sum();
        size as f64
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

    /// Items of the entity at the end of the run.
    pub fn items_total(&self, entity: &str) -> f64 {
        let e = self.entity(entity);
        let owned = e
            .owned_population()
            .and_then(|p| self.scenario.population(p))
            .map_or(0.0, |p| p.count as f64 + p.growth_per_day * self.secs / 86_400.0);
        if self.creates_new(entity) {
            let puts = self.put_rate(entity);
            let deletes: f64 = self.writes(entity, Action::Delete).map(|p| mean_rate(p, self.secs)).sum();
            return (owned + (puts - deletes).max(0.0) * self.lifetime(entity)).max(0.0);
        }
        if owned > 0.0 {
            return owned;
        }
        // Puts overwrite a bounded set of keys: at most one item per key.
        let Some(k) = self.variant.keys_of(entity) else { return 0.0 };
        let pk = self.spread(entity, None, &k.pk, None);
        let sk = k.sk.as_ref().map_or(1.0, |sk| self.spread(entity, None, sk, None).distinct);
        pk.distinct * sk
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
        match generator {
            Some(Generator::Pick(_)) => {
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

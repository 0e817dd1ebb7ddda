//! How a key template spreads items and calls over its values: distinct values, the hottest
//! value's share, the share a pattern's inputs pick — per slot, from the attribute generators
//! and the populations' popularity.

use super::{Class, ClassOf};
use super::{Estimator, sometimes_share, unwrap_sometimes};
use crate::engine::model::{
    AccessPattern, Action, Bound, Entity, EntityId, Generator, Index, ItemAttr, Population,
};
use crate::engine::planner::finding::{SpreadNote, ValueNote};
use crate::engine::planner::keys;
use crate::engine::planner::load::mean_rate;
use crate::engine::planner::load::{
    MEETING_EXACT, meeting, placed_hottest_share, placed_steady_share, popularity_label,
};
use crate::engine::planner::numbers;
use crate::engine::template::{ClassSlot, Part};
use crate::engine::workload::Popularity;

/// How one attribute's values spread (see `Spread`).
struct ValueSpread {
    distinct: f64,
    hottest: f64,
    steady: f64,
    typical: f64,
    note: ValueNote,
}

impl ValueSpread {
    /// `n` equally likely values.
    fn even(n: f64, note: ValueNote) -> ValueSpread {
        ValueSpread { distinct: n, hottest: 1.0 / n, steady: 1.0 / n, typical: 1.0 / n, note }
    }

    fn typical(self, typical: f64) -> ValueSpread {
        ValueSpread { typical, ..self }
    }
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
    /// Why, one note per slot.
    pub notes: Vec<SpreadNote>,
}

impl<'a> Estimator<'a> {
    /// How `key` (in the table or `place`) spreads the entity's items (`chooser: None`) or
    /// one pattern's calls over its values. In a sparse index the `only_when` attribute is
    /// constant: `presence` accounts for the items left out.
    pub fn spread(&self, place: Option<&Index>, key: Bound<'_>, chooser: Option<&AccessPattern>) -> Spread {
        self.spread_for(place, key, chooser, false)
    }

    /// How a reading pattern's calls spread over the partitions of `key`: a slot it fans
    /// out over (a write shard, a hash of an attribute it does not know) sends every call to
    /// each of its partitions, so such a slot spreads nothing.
    pub fn read_spread(&self, place: Option<&Index>, key: Bound<'_>, p: &AccessPattern) -> Spread {
        self.spread_for(place, key, Some(p), true)
    }

    /// The spread of `key`'s values over the items of its entity, which its slots are bound on.
    fn spread_for(
        &self,
        place: Option<&Index>,
        key: Bound<'_>,
        chooser: Option<&AccessPattern>,
        reader: bool,
    ) -> Spread {
        let entity = key.entity;
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
        let slot_attrs: Vec<ItemAttr> = key
            .parts()
            .filter(|(p, _)| matches!(p, Part::Attr { .. }))
            .filter_map(|(_, s)| s.reads)
            .collect();
        for (part, slot) in key.parts() {
            if let Some(class) = part.class().filter(|c| matches!(c.other, Part::Shard { .. })) {
                self.spread_class_shard(entity, class, slot.by, reader, &mut spread);
                continue;
            }
            if let Part::Shard { count } = part {
                spread_shard(*count, reader, &mut spread);
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
                spread.notes.push(SpreadNote::HashUnknown { name: name.to_owned(), count: *count });
                continue;
            }
            seen.push(name);
            if let Some((_, value)) = place.and_then(|i| i.only_when.as_ref()).filter(|(a, _)| a == name) {
                spread.notes.push(SpreadNote::Sparse { name: name.to_owned(), value: value.clone() });
                continue;
            }
            let generator = slot.reads.and_then(|a| self.generator_of(e, a));
            let is_time = generator
                .is_none_or(|g| matches!(unwrap_sometimes(g), Generator::Now | Generator::NowPlus(_)));
            let known = chooser.is_some_and(|p| p.knows(name));
            // A caller that gives a time the items hold as their write time (`Now`) gives its
            // own clock: every current call asks for the same bucket, as the writes do.
            let clock = generator.is_some_and(|g| matches!(unwrap_sometimes(g), Generator::Now));
            if is_time && (!known || clock) {
                self.spread_time(entity, part, slot.by, name, &mut spread);
                continue;
            }
            // hash(x, N) next to x itself adds nothing: x already picks the key.
            let beside_itself = slot.reads.is_some_and(|a| slot_attrs.contains(&a));
            if !(matches!(part, Part::Hash { .. }) && beside_itself) {
                spread_value(part, name, self.value_spread(e, slot.reads, chooser), &mut spread);
            }
        }
        spread
    }

    /// A time attribute in the key that the caller does not pin (or gives as its own clock):
    /// every current write shares one bucket, as wide as the part's (per second for a plain
    /// attribute); with classes, each fills its own.
    fn spread_time(
        &self,
        entity: EntityId,
        part: &Part,
        by: Option<ItemAttr>,
        name: &str,
        spread: &mut Spread,
    ) {
        let width = match part.class() {
            // Each class fills its own bucket: the busiest partition is the member whose share
            // times its bucket is largest.
            Some(class) => {
                let (ratio, width) = self.class_bucket_busiest(entity, ClassOf { slot: class, by });
                spread.hottest *= ratio;
                spread.steady *= ratio;
                width
            }
            None => keys::bucket_width(part).map_or(1.0, |(_, longest)| longest),
        };
        spread.bucket_secs = Some(spread.bucket_secs.map_or(width, |w: f64| w.min(width)));
        let width = if matches!(part, Part::Attr { .. }) {
            "per-second".to_owned()
        } else {
            keys::bucket_label(part)
        };
        spread.notes.push(SpreadNote::Bucket { name: name.to_owned(), width });
    }

    /// A class shard: a reader asks every shard of its class, so it spreads no call; a writer's
    /// busiest key takes its value's share over its class's shard count.
    fn spread_class_shard(
        &self,
        entity: EntityId,
        class: &ClassSlot,
        by: Option<ItemAttr>,
        reader: bool,
        spread: &mut Spread,
    ) {
        let note = |writer_share| SpreadNote::ClassShard {
            by: class.by.clone(),
            counts: class.cases.iter().map(|(v, s)| (v.clone(), s.fanout())).collect(),
            others: class.other.fanout(),
            writer_share,
        };
        if reader {
            spread.notes.push(note(None));
            return;
        }
        let ratio = self.class_shard_ratio(entity, ClassOf { slot: class, by });
        let other = f64::from(class.other.fanout());
        spread.distinct *= other;
        spread.hottest *= ratio;
        spread.steady *= ratio;
        spread.typical /= other;
        spread.notes.push(note(Some(ratio)));
    }

    /// The entity's attributes that every item holds with the same text (`Text(…)`), and that text.
    pub fn constants(&self, entity: EntityId) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.entity(entity).attributes.iter().filter_map(|a| match &a.generator {
            Generator::Text(text) => Some((a.name.as_str(), text.as_str())),
            _ => None,
        })
    }

    /// The text every item of the entity holds in `attr`, when it is a constant.
    pub fn constant(&self, entity: EntityId, attr: ItemAttr) -> Option<&'a str> {
        match self.generator_of(self.entity(entity), attr)? {
            Generator::Text(text) if matches!(attr, ItemAttr::Own(_)) => Some(text),
            _ => None,
        }
    }

    /// The share of the entity's items whose attribute matches what a call of `chooser` asks
    /// for: a constant's share (`status = "PENDING"`), or one value among the attribute's
    /// distinct values for a given attribute.
    pub fn share_of(&self, entity: EntityId, attr: ItemAttr, chooser: &AccessPattern) -> f64 {
        let e = self.entity(entity);
        self.value_spread(e, Some(attr), Some(chooser)).typical.clamp(0.0, 1.0)
    }

    /// The share of the entity's items whose attribute starts with `prefix`: by weight for
    /// `OneOf`, by counting (a sample of at most 10,000 evenly spaced) member ids for a
    /// population; 1 when the generator does not say.
    pub fn prefix_share(&self, entity: EntityId, attr: ItemAttr, prefix: &str) -> f64 {
        const SAMPLE: u64 = 10_000;
        let e = self.entity(entity);
        let Some(generator) = self.generator_of(e, attr) else { return 1.0 };
        let present = sometimes_share(generator);
        present
            * match unwrap_sometimes(generator) {
                Generator::Text(text) => f64::from(u8::from(text.starts_with(prefix))),
                Generator::States(states) => {
                    let held = super::super::transition::held(self, entity, attr).unwrap_or_default();
                    states.iter().zip(&held).filter(|(v, _)| v.starts_with(prefix)).map(|(_, w)| w).sum()
                }
                Generator::OneOf(choices) => {
                    let total: f64 = choices.iter().map(|(_, w)| w).sum();
                    choices.iter().filter(|(v, _)| v.starts_with(prefix)).map(|(_, w)| w).sum::<f64>() / total
                }
                Generator::Pick(population) | Generator::New(population) => {
                    let pop = self.scenario.population(population);
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

    /// Distinct values the attribute takes over the run, as its generator writes them (as many
    /// as the entity's items when the items carry no such attribute).
    pub fn distinct_values(&self, e: &Entity, attr: Option<ItemAttr>) -> f64 {
        self.value_spread(e, attr, None).distinct
    }

    /// The share of the entity's items that hold the attribute's most common value.
    pub fn hottest_value_share(&self, e: &Entity, attr: Option<ItemAttr>) -> f64 {
        self.value_spread(e, attr, None).hottest.clamp(0.0, 1.0)
    }

    /// How the entity's items spread over the attribute's values, as its generator or the
    /// picks of its puts (`written_popularity`) draw them: what the chance that two items hold
    /// the same value (Σ pᵢ²) is computed from.
    pub fn value_chances(&self, e: &Entity, attr: Option<ItemAttr>) -> ValueChances {
        let Some(attr) = attr else { return ValueChances::even(self.distinct_values(e, None)) };
        let generator = self.generator_of(e, attr).map(unwrap_sometimes);
        let weighted = |weights: Vec<f64>, label: String| {
            let total: f64 = weights.iter().sum();
            let groups = weights.iter().filter(|w| **w > 0.0).map(|w| (w / total, 1.0)).collect();
            ValueChances { groups, label }
        };
        match generator {
            Some(Generator::Pick(members)) => {
                let pop = self.scenario.population(members);
                let popularity = self.written_popularity(e, attr).unwrap_or_else(|| pop.popularity.clone());
                let n = self.population_size(pop);
                // Puts that all pick alike are that popularity, not a mix.
                let label = match &popularity {
                    Popularity::Weighted(puts) if puts.iter().all(|(_, q)| *q == puts[0].1) => {
                        popularity_label(&puts[0].1)
                    }
                    other => popularity_label(other),
                };
                ValueChances { groups: picked_chances(&popularity, n, self.scenario.workload.seed), label }
            }
            Some(Generator::OneOf(choices)) => {
                weighted(choices.iter().map(|(_, w)| *w).collect(), "weighted choices".to_owned())
            }
            Some(Generator::Chance(p)) => weighted(vec![*p, 1.0 - p], "a coin".to_owned()),
            Some(Generator::States(states)) => {
                match super::super::transition::held(self, e.id(), attr)
                    .filter(|h| h.iter().sum::<f64>() > 0.0)
                {
                    Some(held) => weighted(held, "states as updates advance them".to_owned()),
                    None => ValueChances::even(states.len() as f64),
                }
            }
            _ => ValueChances::even(self.distinct_values(e, Some(attr))),
        }
    }

    /// How the values of `attr` spread over the entity's items, or over the calls of
    /// `chooser`; an attribute the items do not carry takes a new value per item.
    fn value_spread(
        &self,
        e: &Entity,
        attr: Option<ItemAttr>,
        chooser: Option<&AccessPattern>,
    ) -> ValueSpread {
        let Some(attr) = attr else { return self.generated_spread(e, None, None) };
        let name = self.attr_name(e, attr);
        let generator = self.generator_of(e, attr).map(unwrap_sometimes);
        if let Some((_, value)) = chooser.and_then(|p| p.equals.iter().find(|(a, _)| a == name)) {
            let share = match generator {
                Some(Generator::States(_)) => self.written_share(e, attr, value),
                g => g.map_or(1.0, |g| value_share(g, value)),
            };
            let asked = |not| ValueNote::Asked { value: value.clone(), not };
            let spread = ValueSpread::even(1.0, asked(None)).typical(share);
            if let Some(Generator::States(states)) = generator
                && let Some(busiest) = self.busiest_state(e, attr, states)
                && busiest != value.as_str()
            {
                return ValueSpread { hottest: 0.0, note: asked(Some(busiest.to_owned())), ..spread };
            }
            return spread;
        }
        if let (Some(Generator::States(states)), Some(p)) = (generator, chooser)
            && let Some(spread) = self.lifecycle_writes(e, attr, states, p)
        {
            return spread;
        }
        let population = match generator {
            Some(Generator::Pick(p) | Generator::New(p)) => Some(self.scenario.population(p)),
            _ => None,
        };
        let picked_by =
            |popularity: &Popularity, pop: &Population| self.picked_spread(e, attr, popularity, pop, chooser);
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
            Some(Generator::Pick(members)) => {
                let pop = self.scenario.population(members);
                picked_by(&pop.popularity, pop)
            }
            Some(Generator::New(members)) if names_existing => {
                let pop = self.scenario.population(members);
                picked_by(&pop.popularity, pop)
            }
            other => self.generated_spread(e, Some(attr), other),
        }
    }

    /// How the values of an attribute picked from `pop` by `popularity` spread. A reader (or an
    /// update) lands on the values its popularity favours, and those hold the share of the items
    /// their writers gave them: Σ qᵢ·wᵢ, not 1/n.
    ///
    /// Ids the entity's own puts make (`New`) are picked among those that exist when the call
    /// is made (`population_mean_size`), not those the run ends with: a population the puts
    /// grow from 1 to 120,001 ids holds 60,001 on average, as the items a read finds do
    /// (`items_mean`), so a lookup of one id finds its one item, not half of one. Ids another
    /// entity makes keep the population's final size: how their items spread over old and new
    /// members depends on how the writers pick (`Latest` puts them all on the newest).
    fn picked_spread(
        &self,
        e: &Entity,
        attr: ItemAttr,
        popularity: &Popularity,
        pop: &Population,
        chooser: Option<&AccessPattern>,
    ) -> ValueSpread {
        let n = self.population_size(pop);
        let own_ids = matches!(self.generator_of(e, attr).map(unwrap_sometimes), Some(Generator::New(_)));
        let typical = match chooser.filter(|p| p.action != Action::Put) {
            Some(_) => {
                let existing = if own_ids { self.population_mean_size(pop) } else { n };
                self.meeting_share_among(e, attr, popularity, existing).unwrap_or(1.0 / existing)
            }
            None => 1.0 / n,
        };
        ValueSpread {
            distinct: n,
            hottest: placed_hottest_share(popularity, n, self.scenario.workload.seed),
            steady: placed_steady_share(popularity, n, self.scenario.workload.seed),
            typical,
            note: ValueNote::Picked {
                popularity: popularity_label(popularity),
                members: n,
                population: pop.name.clone(),
            },
        }
    }

    /// How the values an attribute's own generator makes spread when no population's popularity
    /// picks them: a constant, weighted choices, a number per member, a lifecycle's states, a
    /// coin, or a fresh value per item.
    fn generated_spread(
        &self,
        e: &Entity,
        attr: Option<ItemAttr>,
        generator: Option<&Generator>,
    ) -> ValueSpread {
        match generator {
            Some(Generator::Text(text)) => ValueSpread::even(1.0, ValueNote::Constant(text.clone())),
            Some(Generator::OneOf(choices)) => {
                let total: f64 = choices.iter().map(|(_, w)| w).sum();
                let (top, weight) = choices
                    .iter()
                    .fold(("", 0.0), |(bv, bw), (v, w)| if *w > bw { (v.as_str(), *w) } else { (bv, bw) });
                let note =
                    ValueNote::OneOf { values: choices.len(), top: top.to_owned(), share: weight / total };
                ValueSpread {
                    hottest: weight / total,
                    steady: weight / total,
                    ..ValueSpread::even(choices.len() as f64, note)
                }
            }
            Some(Generator::Nth(by)) => {
                // 1, 2, … per member of `by`: as many values as the busiest member has items,
                // about the items per member on average; 1 is the commonest.
                let numbered_by = attr.and_then(|a| self.numbered_by(e, a));
                let members = match numbered_by.and_then(|by| self.generator_of(e, by)).map(unwrap_sometimes)
                {
                    Some(Generator::Pick(p)) => self.population_size(self.scenario.population(p)),
                    _ => f64::INFINITY,
                };
                let per_member = (self.put_rate(e.id()) * self.lifetime(e.id()) / members).max(1.0);
                ValueSpread::even(per_member.ceil(), ValueNote::Numbered { by: by.clone() })
            }
            Some(Generator::States(states)) => {
                // Items spread over the states by how far their updates advanced them.
                let held =
                    attr.and_then(|a| super::super::transition::held(self, e.id(), a)).unwrap_or_default();
                let (top, share) = states
                    .iter()
                    .zip(&held)
                    .fold(("", 0.0), |(bv, bw), (v, w)| if *w > bw { (v.as_str(), *w) } else { (bv, bw) });
                let note = ValueNote::States { states: states.len(), top: top.to_owned(), share };
                ValueSpread { hottest: share, steady: share, ..ValueSpread::even(states.len() as f64, note) }
            }
            Some(Generator::Chance(p)) => {
                let top = p.max(1.0 - p);
                ValueSpread { hottest: top, steady: top, ..ValueSpread::even(2.0, ValueNote::Coin) }
            }
            _ => {
                // Fresh values (new ids, numbers, payloads): about one item per value.
                ValueSpread::even(self.items_total(e.id()).max(1.0), ValueNote::Fresh)
            }
        }
    }
}

/// How likely each of an attribute's values is among the entity's items, as groups of equally
/// likely values.
pub struct ValueChances {
    /// (each value's chance, how many values have it); the chances sum to 1.
    pub groups: Vec<(f64, f64)>,
    /// How the values are drawn: `Zipf(s: 0.9)`, `uniform`.
    pub label: String,
}

impl ValueChances {
    fn even(n: f64) -> ValueChances {
        let n = n.max(1.0);
        ValueChances { groups: vec![(1.0 / n, n)], label: "uniform".to_owned() }
    }
}

/// The chance of each of `n` members under `popularity`: member by member (`Popularity::shares`)
/// up to `MEETING_EXACT` members. Beyond it, one group of equally likely members that repeat as
/// often as the popularity's do (`meeting`'s Σ pᵢ²): the busiest members' own weight is lost,
/// which matters little while items are far fewer than the key's values. `Latest` and `Seq`
/// count as even, as `meeting` takes them: the newest member moves on as the population grows,
/// and a sweep comes back to a member only after the others.
fn picked_chances(popularity: &Popularity, n: f64, seed: u64) -> Vec<(f64, f64)> {
    let members = numbers::floor_u64(n).max(1);
    match popularity {
        Popularity::Uniform | Popularity::Seq | Popularity::Latest => {
            vec![(1.0 / members as f64, members as f64)]
        }
        _ if members > MEETING_EXACT => {
            let repeat = meeting(popularity, popularity, members, seed);
            vec![(repeat, 1.0 / repeat)]
        }
        _ => popularity.shares(members, seed).into_iter().filter(|p| *p > 0.0).map(|p| (p, 1.0)).collect(),
    }
}

/// `shard(count)` in a key: a writer picks one shard at random, spreading its writes over
/// `count` keys; a reader asks every shard, which spreads nothing.
fn spread_shard(count: u32, reader: bool, spread: &mut Spread) {
    if reader {
        spread.notes.push(SpreadNote::Shard { count, reader });
        return;
    }
    spread.distinct *= f64::from(count);
    spread.hottest /= f64::from(count);
    spread.steady /= f64::from(count);
    spread.typical /= f64::from(count);
    spread.notes.push(SpreadNote::Shard { count, reader });
}

/// Folds one attribute's value spread into the key's: as it is, or through `hash(x, N)`, which
/// folds its values onto at most N keys.
fn spread_value(part: &Part, name: &str, value: ValueSpread, spread: &mut Spread) {
    let ValueSpread { distinct, hottest, steady, typical, note } = value;
    if let Part::Hash { count, .. } = part {
        let n = f64::from(*count);
        spread.distinct *= distinct.min(n);
        spread.hottest *= hottest + (1.0 - hottest) / n;
        spread.steady *= steady + (1.0 - steady) / n;
        spread.typical /= distinct.min(n);
        spread.notes.push(SpreadNote::Value { name: name.to_owned(), hash: Some(*count), values: note });
    } else {
        spread.distinct *= distinct;
        spread.hottest *= hottest;
        spread.steady *= steady;
        spread.typical *= typical;
        spread.notes.push(SpreadNote::Value { name: name.to_owned(), hash: None, values: note });
    }
}

impl Estimator<'_> {
    /// Where a write of a lifecycle attribute lands among its states: a put always on the first
    /// state; an update that advances it deletes the entry under the state it finds and puts it
    /// under the next (`planner::transition`), so state j takes found[j] + found[j − 1] of its
    /// entry writes (none from the final state, which an item keeps). The share each write
    /// puts on the state all of them load most (`busiest_state`): the loads on one key add up
    /// on one value, not each pattern's busiest.
    fn lifecycle_writes(
        &self,
        e: &Entity,
        attr: ItemAttr,
        states: &[String],
        p: &AccessPattern,
    ) -> Option<ValueSpread> {
        let busiest = self.busiest_state(e, attr, states)?;
        let name = self.attr_name(e, attr);
        match p.action {
            Action::Put => {
                let first = states.first()?;
                let note = |not| ValueNote::NewItem { first: first.clone(), not };
                if *first == busiest {
                    return Some(ValueSpread::even(1.0, note(None)));
                }
                Some(ValueSpread { hottest: 0.0, ..ValueSpread::even(1.0, note(Some(busiest.to_owned()))) })
            }
            Action::Update if p.sets.iter().any(|s| s == name) => {
                let writes = self.state_writes(e, attr, states)?;
                let total: f64 = writes.iter().sum();
                let at = states.iter().position(|s| *s == busiest)?;
                let share = writes[at] / total;
                let note = ValueNote::StateMoves { share, state: busiest.to_owned() };
                Some(ValueSpread {
                    hottest: share,
                    steady: share,
                    ..ValueSpread::even(states.len() as f64, note)
                })
            }
            _ => None,
        }
    }

    /// An update's entry writes under each state of a lifecycle, per call: the entry leaves the
    /// state the update finds and enters the next (`planner::transition::found`). `None` when
    /// no update advances it.
    fn state_writes(&self, e: &Entity, attr: ItemAttr, states: &[String]) -> Option<Vec<f64>> {
        let found = super::super::transition::found(self, e.id(), attr)?;
        let last = states.len() - 1;
        let writes: Vec<f64> = (0..states.len())
            .map(|j| if j < last { found[j] } else { 0.0 } + if j > 0 { found[j - 1] } else { 0.0 })
            .collect();
        (writes.iter().sum::<f64>() > 0.0).then_some(writes)
    }

    /// The state of a lifecycle whose index entries the entity's writes touch most a second:
    /// every put's (its `equals`, else the first state) and every advancing update's
    /// (`state_writes`).
    fn busiest_state<'s>(&self, e: &Entity, attr: ItemAttr, states: &'s [String]) -> Option<&'s str> {
        let name = self.attr_name(e, attr);
        let updates = self.state_writes(e, attr, states);
        let mut load = vec![0.0; states.len()];
        for q in self.scenario.patterns.iter().filter(|q| q.entity_id() == e.id()) {
            let calls = mean_rate(q, self.secs);
            match q.action {
                Action::Put => {
                    let value = q.equals.iter().find(|(a, _)| a == name).map(|(_, v)| v);
                    let at = value.map_or(Some(0), |v| states.iter().position(|s| s == v));
                    if let Some(at) = at {
                        load[at] += calls;
                    }
                }
                Action::Update if q.sets.iter().any(|s| s == name) => {
                    for (l, w) in load.iter_mut().zip(updates.iter().flatten()) {
                        *l += calls * w;
                    }
                }
                _ => {}
            }
        }
        let at = (0..states.len()).fold(0, |best, j| if load[j] > load[best] { j } else { best });
        states.get(at).map(String::as_str)
    }

    /// The popularity with which `p` picks the value of `attr` from a population: the
    /// pattern's own `keys` for its first given attribute, else the population's; `None` when
    /// each call makes a new member (a put of a `New` id) or the value is not a member's id.
    pub fn pick_popularity<'p>(
        &'p self,
        e: &Entity,
        attr: ItemAttr,
        p: &'p AccessPattern,
    ) -> Option<&'p Popularity> {
        let name = self.attr_name(e, attr);
        let generator = self.generator_of(e, attr).map(unwrap_sometimes)?;
        let population = match generator {
            Generator::Pick(pop) => self.scenario.population(pop),
            Generator::New(pop) if p.action != Action::Put && p.knows(name) => self.scenario.population(pop),
            _ => return None,
        };
        match &p.keys {
            Some(keys) if p.given.first().is_some_and(|g| g == name) => Some(keys),
            _ => Some(&population.popularity),
        }
    }

    /// The share of a copy's holders that refer to the source an update of `p` picks: the
    /// update's popularity over the source's ids met with how the holders' `by` attribute
    /// picked them, and a phrase saying so. `None` when the holders do not pick the source
    /// from a population the update picks from.
    pub fn copy_share(&self, p: &AccessPattern, copy: &crate::engine::model::Copy) -> Option<(f64, String)> {
        let holder = self.entity(copy.ids.to());
        let source = self.entity(copy.ids.from());
        let by = &holder.attributes[copy.ids.by()?.index()];
        let (Generator::Pick(members) | Generator::New(members)) = unwrap_sometimes(&by.generator) else {
            return None;
        };
        let population = self.scenario.population(members);
        let same_population = |attr: ItemAttr| {
            matches!(self.generator_of(source, attr).map(unwrap_sometimes),
                Some(Generator::Pick(pop) | Generator::New(pop)) if pop.id() == members.id())
        };
        // The source's attribute named as the holders' `by`, then the pattern's givens.
        let id = (copy.ids.by_on_source().into_iter().chain(p.given_ids().iter().copied()))
            .map(ItemAttr::Own)
            .find(|&attr| p.knows(self.attr_name(source, attr)) && same_population(attr))?;
        let popularity = self.pick_popularity(source, id, p)?;
        let share = self.meeting_share(holder, ItemAttr::Own(copy.ids.by()?), popularity, population)?;
        Some((
            share,
            format!(
                "the share referring to the {} {} picks, {} over {}",
                copy.from,
                p.name,
                popularity_label(popularity),
                population.name
            ),
        ))
    }

    /// How one reader's calls spread in size around their mean, as (weight, size ÷ mean)
    /// pairs: the partitions its pick of `pk`'s first known population lands on hold more or
    /// fewer items as their writers favoured them (wᵢ ÷ Σ qⱼwⱼ, weighted by the reader's qᵢ),
    /// and a partition that fills up over the run holds min(window, lifetime, t) seconds of
    /// writes at time t (sampled at 8 moments). A limit cuts each call, not the mean:
    /// E[min(X, limit)] is below min(E[X], limit) when X varies.
    ///
    /// `class`: only the calls on that class of a class slot, their weights summing to 1 — the
    /// sizes stay those of the members themselves (a whale tenant's calls read a whale's
    /// partitions).
    pub fn call_sizes(
        &self,
        pk: Bound<'_>,
        p: &AccessPattern,
        window: f64,
        class: Option<(ClassOf<'_>, Class<'_>)>,
    ) -> Vec<(f64, f64)> {
        const MOMENTS: u32 = 8;
        let entity = pk.entity;
        let e = self.entity(entity);
        let members = pk
            .parts()
            .filter(|(part, _)| matches!(part, Part::Attr { .. }))
            .filter_map(|(_, slot)| slot.reads)
            .filter(|&attr| p.knows(self.attr_name(e, attr)))
            .find_map(|attr| {
                let sizes = self.member_sizes(e, attr, p)?;
                let in_class = |i: u64| {
                    class.is_none_or(|(of, class)| {
                        of.by != Some(attr) || self.member_in_class(entity, of, class, i)
                    })
                };
                let kept: Vec<(f64, f64)> =
                    sizes.into_iter().filter(|(_, _, i)| in_class(*i)).map(|(q, r, _)| (q, r)).collect();
                let total: f64 = kept.iter().map(|(q, _)| q).sum();
                (total > 0.0).then(|| kept.into_iter().map(|(q, r)| (q / total, r)).collect())
            })
            .unwrap_or_else(|| vec![(1.0, 1.0)]);
        // Entities that start empty fill up over the run; those with items at the start are
        // taken as they are on average.
        let starts_empty = e.owned_population().is_none();
        let mean = self.window_mean(window, entity);
        let moments: Vec<f64> = if starts_empty && mean > 0.0 {
            (0..MOMENTS)
                .map(|j| {
                    let t = (f64::from(j) + 0.5) / f64::from(MOMENTS) * self.secs;
                    window.min(self.lifetime(entity)).min(t) / mean
                })
                .collect()
        } else {
            vec![1.0]
        };
        let each = 1.0 / moments.len() as f64;
        members.iter().flat_map(|&(q, r)| moments.iter().map(move |&g| (q * each, r * g))).collect()
    }

    /// (qᵢ, wᵢ ÷ Σ qⱼwⱼ, i) for the members a reader of `attr` picks (`Latest` taken as even, as
    /// `meeting` does); `None` when the value is not picked from a population.
    fn member_sizes(&self, e: &Entity, attr: ItemAttr, p: &AccessPattern) -> Option<Vec<(f64, f64, u64)>> {
        let even = |popularity: &Popularity| match popularity {
            Popularity::Latest => Popularity::Uniform,
            other => other.clone(),
        };
        let reader = even(self.pick_popularity(e, attr, p)?);
        let population = match self.generator_of(e, attr).map(unwrap_sometimes)? {
            Generator::Pick(pop) | Generator::New(pop) => self.scenario.population(pop),
            _ => return None,
        };
        let written = self.written_popularity(e, attr)?;
        let n = numbers::floor_u64(self.population_size(population)).max(1);
        if n > MEETING_EXACT {
            // Too many members to write out: calls are taken as the mean.
            return None;
        }
        let seed = self.scenario.workload.seed;
        let (picks, items) = (reader.shares(n, seed), even(&written).shares(n, seed));
        let met: f64 = picks.iter().zip(&items).map(|(a, b)| a * b).sum();
        if met <= 0.0 {
            return None;
        }
        Some(
            picks
                .iter()
                .zip(&items)
                .zip(0u64..)
                .filter(|((a, _), _)| **a > 0.0)
                .map(|((a, b), i)| (*a, b / met, i))
                .collect(),
        )
    }

    /// How the entity's puts (by their mean rates) spread its items over the members `attr`
    /// picks; even when nothing puts it (one item per member, or upserts).
    pub(super) fn written_popularity(&self, e: &Entity, attr: ItemAttr) -> Option<Popularity> {
        let puts: Vec<(f64, Popularity)> = self
            .scenario
            .patterns
            .iter()
            .filter(|p| p.action == Action::Put && p.entity_id() == e.id())
            .map(|p| (mean_rate(p, self.secs), self.pick_popularity(e, attr, p)))
            .filter(|(rate, _)| *rate > 0.0)
            .map(|(rate, q)| q.map(|q| (rate, q.clone())))
            .collect::<Option<_>>()?;
        Some(if puts.is_empty() { Popularity::Uniform } else { Popularity::Weighted(puts) })
    }

    /// The chance a pick made with `popularity` lands on the value of `attr` that a random item
    /// of `e` holds: Σ qᵢ·wᵢ over the population's members, w being how the entity's puts (by
    /// their mean rates) spread its items over them — for a reader that picks the way the
    /// items were written, Σ pᵢ² (Zipf: H(n, 2s) / H(n, s)²). `None` when the entity's items
    /// do not pick the value from the population.
    pub fn meeting_share(
        &self,
        e: &Entity,
        attr: ItemAttr,
        popularity: &Popularity,
        pop: &Population,
    ) -> Option<f64> {
        self.meeting_share_among(e, attr, popularity, self.population_size(pop))
    }

    /// `meeting_share` over `members` members of the population.
    fn meeting_share_among(
        &self,
        e: &Entity,
        attr: ItemAttr,
        popularity: &Popularity,
        members: f64,
    ) -> Option<f64> {
        let n = numbers::floor_u64(members).max(1);
        let written = self.written_popularity(e, attr)?;
        Some(meeting(popularity, &written, n, self.scenario.workload.seed))
    }
}

/// Share of items whose attribute (made by `g`) equals `value`.
pub(super) fn value_share(g: &Generator, value: &str) -> f64 {
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

//! `key-collision`: an entity whose table key cannot tell its items apart. DynamoDB's PutItem
//! with the key of an existing item replaces that item whole, without an error (AWS API
//! reference, PutItem), and a Cassandra INSERT with an existing primary key overwrites the row
//! (writes are upserts): an Order keyed `CUSTOMER#{customer_id}` / `ORDER#{customer_id}` keeps
//! one order per customer and silently drops the rest.
//!
//! Only the table's key is checked: index keys need not be unique (AWS GSI and LSI docs), and a
//! materialized view's key holds the base table's.
//!
//! The rule. A key identifies an item when one of its slots keeps a value that is new for every
//! item: an id drawn by `New(…)`, a generated number or payload — the values the planner already
//! treats as fresh. Otherwise the key takes a countable number of values (the distinct values of
//! its attributes counted jointly, times the time windows of its buckets over an item's life,
//! times its shards), and the entity's items — the members it starts with plus its puts over
//! their lifetime — are dropped into them. A class slot (`{shard(by: tenant_id, tenant-0000 = 8,
//! else = 1)}`) is counted class by class: each class's items, at the share of the puts it takes,
//! on that class's layout, a listed class holding its one value of the class attribute. The write
//! time is a value like any other, at the resolution the key writes it: `{at}` and
//! `{at:%Y-%m-%dT%H:%M:%S}` change once a second, so two events of one account in the same second
//! share `EVT#{at}`.
//!
//! The values are not equally likely: a Zipf-popular channel holds many memberships, a whale
//! account's appends all crowd its own seconds. Each slot's values come with their chances, as
//! its generator or its puts' picks draw them (`Estimator::value_chances`); independent slots
//! multiply, so the key's chances are the product of theirs. The items are independent draws
//! from them, and the items lost are the items less the distinct keys they are expected to take:
//! n − Σₖ (1 − (1 − pₖ)ⁿ), summed exactly over groups of equally likely values (`Odds`). While
//! items are far fewer than values that is the birthday count, C(n, 2)·Σₖ pₖ²: the key loses as
//! much as 1/Σ pₖ² equally likely values would (the collision-equivalent, or Rényi order-2,
//! count), the product of each slot's own. Zipf(s: 0.9) over 1,000 channels repeats like ~59
//! equally likely channels, so a membership keyed by channel and user (2,000 of them, uniform)
//! loses as if there were ~118,000 pairs, not 2,000,000: ~3.8% of 10,000 memberships. The warning
//! fires when at least 1% of the items land on a key another item already holds. An entity
//! marked `upsert` is the one its key names (a follow edge drawn twice, the latest value of a
//! sensor): it is not checked.

use super::super::estimate::{Class, ClassOf, Estimator};
use super::super::finding::{ClassValues, Collision, Finding, KeyValues, SlotTerm, WrittenTerm};
use super::super::keys::bucket_width;
use super::super::load::mean_rate;
use super::super::{Subject, Warning, WarningCode};
use crate::engine::model::{
    Action, Bound, Entity, EntityId, EntityKeys, Generator, ItemAttr, SlotAttrs, Variant,
};
use crate::engine::template::Part;
use crate::engine::workload::Popularity;

/// The share of items written onto a key another item holds above which the key is flagged.
const MIN_SHARE: f64 = 0.01;

pub fn collisions(est: &Estimator<'_>, out: &mut Vec<Warning>) {
    for entity in &est.scenario.entities {
        let Some((keys, space, written)) = assess(est, entity) else { continue };
        let lost = space.overwrites(written.items);
        if lost < 1.0 || lost / written.items < MIN_SHARE {
            continue;
        }
        out.push(warning(est, entity, keys, &space, written, lost));
    }
}

/// What `check` expects an entity's table key to lose over the run: the items its writes make,
/// and how many of them land on a key another of its items holds (the `key-collision`
/// arithmetic, whether or not it passes the warning's threshold).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyLoss {
    pub entity: EntityId,
    pub items: f64,
    pub lost: f64,
}

/// Every entity whose key can lose items, with what it is expected to lose.
pub fn losses(est: &Estimator<'_>) -> Vec<KeyLoss> {
    est.scenario
        .entities
        .iter()
        .filter_map(|e| {
            let (_, space, written) = assess(est, e)?;
            Some(KeyLoss { entity: e.id(), items: written.items, lost: space.overwrites(written.items) })
        })
        .collect()
}

/// The entity's table key, the values it takes and the items written onto them; `None` when
/// nothing can be lost: the key identifies each item, the entity is an upsert (its key is its
/// identity: a put onto a taken key writes the same item), every put is create-once, or
/// nothing is written.
fn assess<'v>(est: &Estimator<'v>, entity: &Entity) -> Option<(&'v EntityKeys, KeySpace<'v>, Written)> {
    if entity.upsert || created_once(est, entity.id()) {
        return None;
    }
    let keys = est.variant.keys_for(entity.id())?;
    let space = key_space(est, entity.id(), keys)?;
    let written = written(est, entity.id());
    (written.items > 0.0 && !written.terms.is_empty()).then_some((keys, space, written))
}

/// Whether every put of the entity is create-once (`NotExists`): a put onto a taken key is then
/// refused, not a replacement, and nothing is lost (`condition::plan` says how often).
fn created_once(est: &Estimator<'_>, entity: EntityId) -> bool {
    let puts: Vec<_> =
        est.scenario.patterns.iter().filter(|p| p.action == Action::Put && p.entity_id() == entity).collect();
    !puts.is_empty() && puts.iter().all(|p| p.condition == Some(crate::engine::model::Condition::NotExists))
}

/// The share of `entity`'s puts that land on a key another of its items holds (upsert or not):
/// what a create-once put (`NotExists`) is refused for, by the same arithmetic as the warning.
pub fn taken_share(est: &Estimator<'_>, entity: EntityId) -> f64 {
    let Some(keys) = est.variant.keys_for(entity) else { return 0.0 };
    let Some(space) = key_space(est, entity, keys) else { return 0.0 };
    let written = written(est, entity);
    // The initial load is not put by the pattern: only the puts after it can be refused.
    let preload = est
        .entity(entity)
        .owned_population()
        .map(|p| est.scenario.population(p))
        .map_or(0.0, |p| p.count as f64 + p.growth_per_day * est.secs / 86_400.0);
    let puts = written.items - preload;
    if puts <= 0.0 {
        return 0.0;
    }
    ((space.overwrites(written.items) - space.overwrites(preload)) / puts).clamp(0.0, 1.0)
}

/// How many values a key can take, and why: for each class of its class slot (one class holding
/// every item when it has none), the values the items of that class can take.
struct KeySpace<'k> {
    /// The class slot's class attribute; `None` without a class slot.
    by: Option<&'k str>,
    classes: Vec<ClassSpace<'k>>,
}

/// The values a key takes for the items of one class, on that class's layout.
struct ClassSpace<'k> {
    class: Class<'k>,
    /// The share of the entity's items the class holds.
    share: f64,
    space: Space,
}

impl KeySpace<'_> {
    /// How many of `n` items land on a key another item holds: each class's share of them on its
    /// own keys. Classes do not share keys: the class attribute in the key tells them apart, or
    /// their layouts do.
    fn overwrites(&self, n: f64) -> f64 {
        self.classes.iter().map(|c| c.space.overwrites(n * c.share)).sum()
    }

    /// The values the key takes, class by class.
    fn values(&self) -> KeyValues {
        let classes = self
            .classes
            .iter()
            .map(|c| ClassValues {
                class: c.class.map(str::to_owned),
                share: c.share,
                values: c.space.values,
                slots: c.space.terms.clone(),
                like: (!c.space.sequential && uneven(c.space.values, c.space.odds.effective()))
                    .then(|| c.space.odds.effective()),
            })
            .collect();
        KeyValues { by: self.by.map(str::to_owned), classes }
    }
}

/// How many values a key takes for the items of one class, how likely each is, and why.
struct Space {
    values: f64,
    /// The chances of the key's values: the product of its slots'.
    odds: Odds,
    /// Whether every value apart from time is picked in sequence (`Seq`): a sensor reporting on
    /// a schedule comes back to its key only after every other sensor has had its turn.
    sequential: bool,
    /// How each slot takes its values (`customer_id: 100,000 values`, `shard(4): 4`).
    terms: Vec<SlotTerm>,
}

impl Space {
    /// Adds a slot of `values` values with chances `odds`, shown as `term`.
    fn multiply(&mut self, values: f64, odds: &Odds, term: SlotTerm) {
        self.values *= values;
        self.odds = self.odds.times(odds);
        self.terms.push(term);
    }

    /// How many of `n` items land on a key another item holds, the items drawn independently
    /// from the key's chances.
    fn overwrites(&self, n: f64) -> f64 {
        if self.sequential {
            // Keys taken in turn: a key repeats only when items outnumber keys.
            return (n - self.values).max(0.0);
        }
        self.odds.overwrites(n)
    }
}

/// The values the entity's table key takes over an item's life, class by class of its class
/// slot, or `None` when a slot keeps a value that is new for every item (the key identifies it).
fn key_space<'k>(est: &Estimator<'_>, entity: EntityId, keys: &'k EntityKeys) -> Option<KeySpace<'k>> {
    let sk: Vec<(&Part, SlotAttrs)> = keys.sk_bound().into_iter().flat_map(Bound::parts).collect();
    let Some(of) = ClassOf::in_key(keys.pk_bound()) else {
        let parts: Vec<(&Part, SlotAttrs)> = keys.pk_bound().parts().chain(sk).collect();
        let space = class_space(est, entity, &parts, None)?;
        return Some(KeySpace { by: None, classes: vec![ClassSpace { class: None, share: 1.0, space }] });
    };
    let shares = item_shares(est, entity, of);
    let mut classes = Vec::new();
    for &(class, share) in shares.iter().filter(|(_, share)| *share > 0.0) {
        // The keys a writer of this class makes: its class's shard count or bucket width (its
        // part stands where the class slot was, reading the same).
        let pk = keys.pk.specialized(|slot| slot.case(class).clone());
        let pk = Bound { template: &pk, ..keys.pk_bound() };
        let parts: Vec<(&Part, SlotAttrs)> = pk.parts().chain(sk.iter().copied()).collect();
        let pin = Pin::of(est, entity, of, class, &shares);
        classes.push(ClassSpace { class, share, space: class_space(est, entity, &parts, Some(&pin))? });
    }
    Some(KeySpace { by: Some(&of.slot.by), classes })
}

/// The share of the entity's items each class of `slot` holds, listed values first: each put's
/// share of calls per class (`Estimator::class_shares`, by which the planner mixes a reader's
/// classes too) weighted by the put's mean rate. The members the entity starts with are taken
/// to spread as its puts do, as the attributes' busiest shares take them; with no put at all
/// nothing says how the items pick the class attribute, and they count at the other values'
/// layout.
fn item_shares<'c>(est: &Estimator<'_>, entity: EntityId, of: ClassOf<'c>) -> Vec<(Class<'c>, f64)> {
    let slot = of.slot;
    let mut shares: Vec<(Class<'c>, f64)> =
        slot.cases.iter().map(|(v, _)| Some(v.as_str())).chain([None]).map(|c| (c, 0.0)).collect();
    let mut total = 0.0;
    for p in est.scenario.patterns.iter().filter(|p| p.action == Action::Put && p.entity_id() == entity) {
        let rate = mean_rate(p, est.secs);
        if rate <= 0.0 {
            continue;
        }
        total += rate;
        for (sum, (_, share)) in shares.iter_mut().zip(est.class_shares(entity, of, p)) {
            sum.1 += rate * share;
        }
    }
    if total <= 0.0 {
        return vec![(None, 1.0)];
    }
    for (_, share) in &mut shares {
        *share /= total;
    }
    shares
}

/// The class attribute's values among the items of one class: a listed class holds its one
/// value; the other values hold the rest, the busiest of them the entity's busiest value unless
/// a listed class holds that one (then nothing says how the rest spread, and they count as even).
struct Pin {
    by: Option<ItemAttr>,
    values: f64,
    hottest: f64,
}

impl Pin {
    fn of(
        est: &Estimator<'_>,
        entity: EntityId,
        of: ClassOf<'_>,
        class: Class<'_>,
        shares: &[(Class<'_>, f64)],
    ) -> Self {
        let by = of.by;
        if class.is_some() {
            return Pin { by, values: 1.0, hottest: 1.0 };
        }
        let e = est.entity(entity);
        let values = (est.distinct_values(e, by) - of.slot.cases.len() as f64).max(1.0);
        let busiest = est.hottest_value_share(e, by);
        let share = shares.iter().find(|(c, _)| c.is_none()).map_or(1.0, |(_, s)| *s);
        let listed = shares.iter().filter(|(c, _)| c.is_some()).map(|(_, s)| *s).fold(0.0, f64::max);
        // Below it by a margin: the busiest member's share, computed twice, may differ in its
        // last digits.
        let hottest = if listed < busiest * 0.999 { (busiest / share).min(1.0) } else { 1.0 / values };
        Pin { by, values, hottest }
    }
}

/// What a key slot's attribute holds, for counting the key's values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    /// A value new for every item: the key identifies it.
    Fresh,
    /// The write time.
    WriteTime,
    /// A value items share: counted.
    Shared,
}

fn held(est: &Estimator<'_>, e: &Entity, attr: Option<ItemAttr>, whole: &[ItemAttr]) -> Held {
    let Some(attr) = attr else { return Held::Shared };
    match est.generator_of(e, attr).map(unwrap_sometimes) {
        Some(Generator::New(_) | Generator::Number(_) | Generator::Payload(_)) => Held::Fresh,
        // An item's number among those of one member tells them apart next to that member.
        Some(Generator::Nth(_)) if est.numbered_by(e, attr).is_some_and(|by| whole.contains(&by)) => {
            Held::Fresh
        }
        Some(Generator::Now | Generator::NowPlus(_)) => Held::WriteTime,
        _ => Held::Shared,
    }
}

/// The distinct values of a shared attribute among a class's items, their chances, and how they
/// are drawn. A class of a class slot knows only its busiest value's share: the rest count as
/// even.
fn spread(est: &Estimator<'_>, e: &Entity, attr: Option<ItemAttr>, pin: Option<&Pin>) -> (f64, Odds, String) {
    if let Some(pin) = pin.filter(|pin| pin.by.is_some() && pin.by == attr) {
        let hottest = pin.hottest.max(1.0 / pin.values);
        let rest = pin.values - 1.0;
        let groups =
            if rest < 1.0 { vec![(1.0, 1.0)] } else { vec![(hottest, 1.0), ((1.0 - hottest) / rest, rest)] };
        return (pin.values, Odds::of(groups), "the busiest and the rest even".to_owned());
    }
    let chances = est.value_chances(e, attr);
    (est.distinct_values(e, attr), Odds::of(chances.groups), chances.label)
}

/// The values a key of `parts` (its class slot, if any, resolved to one class's slot) takes for
/// the items `pin` says hold the class, or every item; `None` when a slot keeps a value that is
/// new for every item.
fn class_space(
    est: &Estimator<'_>,
    entity: EntityId,
    parts: &[(&Part, SlotAttrs)],
    pin: Option<&Pin>,
) -> Option<Space> {
    let e = est.entity(entity);
    let whole_names: Vec<&str> = parts
        .iter()
        .filter(|(p, _)| matches!(p, Part::Attr { .. }))
        .filter_map(|(p, _)| p.attribute())
        .collect();
    let whole: Vec<ItemAttr> =
        parts.iter().filter(|(p, _)| matches!(p, Part::Attr { .. })).filter_map(|(_, s)| s.reads).collect();
    let mut space = Space { values: 1.0, odds: Odds::even(1.0), sequential: false, terms: Vec::new() };
    let mut counted: Vec<&str> = Vec::new();
    // The write time's slots, by attribute: only the finest counts (`{bucket(at, 1d)}` next to
    // `{at}` adds no value `{at}` does not already tell apart).
    let mut times: Vec<(&str, f64, String)> = Vec::new();
    let mut in_sequence = Vec::new();
    for &(part, slot) in parts {
        let held = held(est, e, slot.reads, &whole);
        match part {
            // A class slot was resolved to its class's slot before.
            Part::Literal(_) | Part::Class(_) => {}
            Part::Shard { count: n } => {
                space.multiply(f64::from(*n), &Odds::even(f64::from(*n)), SlotTerm::Shard { count: *n });
                in_sequence.push(false);
            }
            Part::Hash { name, count: n } => {
                // A hash next to the whole value adds nothing; alone it keeps at most N values.
                if whole_names.contains(&name.as_str()) || counted.contains(&name.as_str()) {
                    continue;
                }
                counted.push(name);
                let (values, odds) = if held == Held::Shared {
                    let (values, odds, _) = spread(est, e, slot.reads, pin);
                    (values.min(f64::from(*n)), odds.hashed(f64::from(*n)))
                } else {
                    (f64::from(*n), Odds::even(f64::from(*n)))
                };
                space.multiply(values, &odds, SlotTerm::Hash { name: name.clone(), count: *n, values });
                in_sequence.push(false);
            }
            Part::Attr { .. } | Part::Time { .. } | Part::Bucket { .. } if held == Held::Fresh => {
                return None;
            }
            Part::Attr { name, .. } => {
                if counted.contains(&name.as_str()) {
                    continue;
                }
                counted.push(name);
                if held == Held::WriteTime {
                    // The write time as the key writes it: to the second.
                    times.push((name, 1.0, format!("{{{name}}}")));
                    continue;
                }
                let (values, odds, label) = spread(est, e, slot.reads, pin);
                space.multiply(values, &odds, attr_term(name, values, &odds, label));
                in_sequence.push(slot.reads.is_some_and(|a| picked_in_sequence(est, entity, a)));
            }
            Part::Time { name, format } => {
                let label = format!("{name}:{}", format.source());
                windows(&mut space, &mut times, part, name, label, held == Held::WriteTime);
            }
            Part::Bucket { name, width } => {
                let label = format!("bucket({name}, {width})");
                windows(&mut space, &mut times, part, name, label, held == Held::WriteTime);
            }
        }
    }
    finest_windows(&mut space, times, est.lifetime(entity));
    space.sequential = !in_sequence.is_empty() && in_sequence.iter().all(|&s| s);
    Some(space)
}

/// An attribute's values, and how many equally likely ones they repeat like when they are
/// uneven (`channel_id: 1,000 values (Zipf(s: 0.9): like ~59 equally likely)`).
fn attr_term(name: &str, values: f64, odds: &Odds, label: String) -> SlotTerm {
    let like = uneven(values, odds.effective()).then(|| (label, odds.effective()));
    SlotTerm::Attribute { name: name.to_owned(), values, like }
}

/// The windows of each write-time attribute's finest slot, from `(attribute, width, label)`.
fn finest_windows(space: &mut Space, mut times: Vec<(&str, f64, String)>, lifetime: f64) {
    times.sort_by(|a, b| a.0.cmp(b.0).then(a.1.total_cmp(&b.1)));
    times.dedup_by(|later, first| later.0 == first.0);
    for (_, width, label) in times {
        time_windows(space, &label, width, lifetime);
    }
}

/// A time bucket of a write-time attribute: the windows an item's life spans (the shortest
/// calendar windows, so the most keys). A time that is not the write time counts as one value:
/// the planner has no spread for it.
fn windows<'a>(
    space: &mut Space,
    times: &mut Vec<(&'a str, f64, String)>,
    part: &Part,
    name: &'a str,
    label: String,
    time: bool,
) {
    let Some((shortest, _)) = bucket_width(part).filter(|_| time) else {
        space.terms.push(SlotTerm::NotWriteTime { label, name: name.to_owned() });
        return;
    };
    times.push((name, shortest, label));
}

/// Whether every put of the entity picks the attribute's member in sequence (`Seq`), by the
/// pattern's `keys` or the population's popularity.
fn picked_in_sequence(est: &Estimator<'_>, entity: EntityId, attr: ItemAttr) -> bool {
    let e = est.entity(entity);
    let Some(Generator::Pick(pop)) = est.generator_of(e, attr).map(unwrap_sometimes) else { return false };
    let population = est.scenario.population(pop);
    let mut puts =
        est.scenario.patterns.iter().filter(|p| p.action == Action::Put && p.entity_id() == entity);
    puts.all(|p| {
        let first = p.given_ids().first().map(|&a| ItemAttr::Own(a));
        let chosen = p.keys.as_ref().filter(|_| first == Some(attr));
        matches!(chosen.unwrap_or(&population.popularity), Popularity::Seq)
    })
}

/// Windows of `width` seconds over an item's life. A format that cycles (`%H` alone) takes fewer
/// values than this: the count errs towards more keys, so towards fewer collisions.
fn time_windows(space: &mut Space, label: &str, width: f64, lifetime: f64) {
    let values = (lifetime / width).ceil().max(1.0);
    space.multiply(
        values,
        &Odds::even(values),
        SlotTerm::Windows { label: label.to_owned(), values, width, lifetime },
    );
}

/// The items an entity's writes make if each is new: the members it starts with, plus its puts
/// (net of deletes) over an item's life.
struct Written {
    items: f64,
    /// `200,000 to start`, `place-order 10/s over 30 d`.
    terms: Vec<WrittenTerm>,
    lifetime: f64,
}

fn written(est: &Estimator<'_>, entity: EntityId) -> Written {
    let e = est.entity(entity);
    let lifetime = est.lifetime(entity);
    let mut w = Written { items: 0.0, terms: Vec::new(), lifetime };
    if let Some(p) = e.owned_population().map(|p| est.scenario.population(p)) {
        let members = p.count as f64 + p.growth_per_day * est.secs / 86_400.0;
        if members > 0.0 {
            w.items += members;
            w.terms.push(WrittenTerm::Start { members });
        }
    }
    let rate_of = |action: Action| {
        est.scenario.patterns.iter().filter(move |p| p.action == action && p.entity_id() == entity)
    };
    let puts: f64 = rate_of(Action::Put).map(|p| mean_rate(p, est.secs)).sum();
    let deletes: f64 = rate_of(Action::Delete).map(|p| mean_rate(p, est.secs)).sum();
    let net = (puts - deletes).max(0.0);
    if net > 0.0 {
        w.items += net * lifetime;
        w.terms.push(WrittenTerm::Puts {
            puts: rate_of(Action::Put).map(|p| (p.name.clone(), mean_rate(p, est.secs))).collect(),
            deletes: (deletes > 0.0).then_some(deletes),
            lifetime,
        });
    }
    w
}

/// Whether `effective` equally likely values are far enough below `values` to be worth saying.
fn uneven(values: f64, effective: f64) -> bool {
    effective < values * 0.9
}

/// How likely each value of a key (or of one slot) is, as groups of equally likely values:
/// (each one's chance, how many values have it). A Zipf popularity is a group per member, an
/// even spread one group; slots drawn independently multiply.
#[derive(Debug, Clone, PartialEq)]
struct Odds {
    groups: Vec<(f64, f64)>,
}

/// Past this many groups a product's are merged (`Odds::merged`): two slots of 10,000 Zipf
/// members each would otherwise make 10⁸.
const MAX_GROUPS: usize = 2048;
/// Groups merge with those whose chance is within this ratio of theirs.
const MERGE_RATIO: f64 = 1.01;

impl Odds {
    /// `n` equally likely values.
    fn even(n: f64) -> Odds {
        let n = n.max(1.0);
        Odds { groups: vec![(1.0 / n, n)] }
    }

    /// From (chance, how many) groups whose chances sum to 1.
    fn of(groups: Vec<(f64, f64)>) -> Odds {
        let groups: Vec<(f64, f64)> = groups.into_iter().filter(|&(p, m)| p > 0.0 && m > 0.0).collect();
        if groups.is_empty() { Odds::even(1.0) } else { Odds { groups } }
    }

    /// The chance that two independent draws take the same value: Σ pₖ².
    fn repeat(&self) -> f64 {
        self.groups.iter().map(|(p, m)| m * p * p).sum()
    }

    /// As many equally likely values as would repeat as often, 1/Σ pₖ² (the Rényi entropy of
    /// order 2, exponentiated): the count itself when the values are even, fewer the more a few
    /// of them are favoured. Of independent slots, the product of theirs.
    fn effective(&self) -> f64 {
        1.0 / self.repeat()
    }

    /// The values of both, drawn independently: each pair of values, at the product of their
    /// chances.
    ///
    /// Past `MAX_GROUPS` pairs the product is formed bin by bin: each side's groups are binned
    /// as `merged` bins them, and a pair of bins i and j lands in bin i + j (chances multiply,
    /// their logarithms add), carrying the product of their total chances and of their Σ m·p²
    /// — both kept exactly, as `merged` keeps them, without forming every pair of groups.
    fn times(&self, other: &Odds) -> Odds {
        let (a, b) = (self.merged(), other.merged());
        if a.groups.len() * b.groups.len() <= MAX_GROUPS {
            let groups = a
                .groups
                .iter()
                .flat_map(|&(p, m)| b.groups.iter().map(move |&(q, n)| (p * q, m * n)))
                .collect();
            return Odds { groups };
        }
        let (a, b) = (a.bins(), b.bins());
        let (Some(a0), Some(b0)) = (a.first().map(|x| x.0), b.first().map(|x| x.0)) else {
            return Odds::even(1.0);
        };
        let span =
            |bins: &[(i64, f64, f64)]| bins.last().map_or(0, |x| x.0) - bins.first().map_or(0, |x| x.0);
        let mut sums = vec![(0.0, 0.0); usize::try_from(span(&a) + span(&b) + 1).unwrap_or(0)];
        for &(i, mass_a, squares_a) in &a {
            for &(j, mass_b, squares_b) in &b {
                let k = usize::try_from(i - a0 + j - b0).unwrap_or(0);
                sums[k].0 += mass_a * mass_b;
                sums[k].1 += squares_a * squares_b;
            }
        }
        let groups = sums.into_iter().filter(|&(mass, squares)| mass > 0.0 && squares > 0.0);
        Odds { groups: groups.map(|(mass, squares)| (squares / mass, mass * mass / squares)).collect() }
    }

    /// The groups binned by chance (`MERGE_RATIO` apart), in order: (bin, Σ m·p, Σ m·p²).
    fn bins(&self) -> Vec<(i64, f64, f64)> {
        let mut bins: std::collections::BTreeMap<i64, (f64, f64)> = std::collections::BTreeMap::new();
        for &(p, m) in &self.groups {
            let (mass, squares) = bins.entry(bin_of(p)).or_insert((0.0, 0.0));
            *mass += m * p;
            *squares += m * p * p;
        }
        bins.into_iter().map(|(bin, (mass, squares))| (bin, mass, squares)).collect()
    }

    /// The values hashed into `n` buckets: two draws share a bucket when they take the same value,
    /// or two values a random hash puts together (1/n of the rest), so Σ over buckets is
    /// Σ pₖ² + (1 − Σ pₖ²)/n. Taken as that many equally likely buckets: which bucket the
    /// busiest value lands in is not known.
    fn hashed(&self, n: f64) -> Odds {
        let repeat = self.repeat();
        let bucket = repeat + (1.0 - repeat) / n.max(1.0);
        Odds { groups: vec![(bucket, 1.0 / bucket)] }
    }

    /// Fewer groups when there are many: groups whose chances lie within `MERGE_RATIO` of each
    /// other become one that keeps both their total chance P = Σ m·p and their Σ m·p² (S): S/P
    /// each, for P²/S values. The draws' repeats (Σ p²) are kept exactly, the loss nearly so.
    fn merged(&self) -> Odds {
        if self.groups.len() <= MAX_GROUPS {
            return self.clone();
        }
        Odds {
            groups: (self.bins().into_iter())
                .map(|(_, mass, squares)| (squares / mass, mass * mass / squares))
                .collect(),
        }
    }

    /// Of `n` independent draws, how many take a value an earlier draw took: n less the distinct
    /// values expected among them, n − Σₖ (1 − (1 − pₖ)ⁿ) = Σₖ ((1 − pₖ)ⁿ − 1 + n·pₖ), summed
    /// over the groups. While n·pₖ is tiny the term is the birthday count C(n, 2)·pₖ² (the next
    /// term is n·pₖ/3 of it), taken directly: the difference of near-equal numbers would lose
    /// its digits.
    fn overwrites(&self, n: f64) -> f64 {
        if n <= 0.0 {
            return 0.0;
        }
        let lost: f64 = self
            .groups
            .iter()
            .filter(|&&(p, _)| p > 0.0)
            .map(|&(p, m)| {
                let np = n * p;
                let each =
                    if np < 1e-6 { n * (n - 1.0) / 2.0 * p * p } else { (n * (-p).ln_1p()).exp_m1() + np };
                m * each
            })
            .sum();
        lost.clamp(0.0, n)
    }
}

/// The bin of a chance for `Odds::merged`: ln p in steps of ln `MERGE_RATIO`.
#[expect(clippy::cast_possible_truncation, reason = "ln p / ln 1.01 of a positive f64 lies within ±75,000")]
fn bin_of(p: f64) -> i64 {
    (p.ln() / MERGE_RATIO.ln()).floor() as i64
}

fn warning(
    est: &Estimator<'_>,
    e: &Entity,
    keys: &EntityKeys,
    space: &KeySpace<'_>,
    written: Written,
    lost: f64,
) -> Warning {
    let id = e.attributes.iter().find_map(|a| match unwrap_sometimes(&a.generator) {
        Generator::New(population) => Some((a.name.clone(), population.name().to_owned())),
        _ => None,
    });
    let sort_key = keys
        .sk
        .as_ref()
        .map(|sk| (est.variant.table_sk.clone().unwrap_or_else(|| "SK".to_owned()), sk.source().to_owned()));
    Warning {
        code: WarningCode::KeyCollision,
        about: Subject::Entity(e.id()),
        subject: e.name.clone(),
        limit_after: None,
        engine: est.scenario.engine,
        finding: Finding::KeyCollision(Collision {
            entity: e.name.clone(),
            key: key_text(est.variant, keys, est.cql()),
            id,
            values: space.values(),
            items: written.items,
            terms: written.terms,
            lifetime: (written.lifetime < est.secs).then_some(written.lifetime),
            lost,
            sort_key,
        }),
    }
}

/// `PK = CUSTOMER#{customer_id}, SK = ORDER#{customer_id}`, or the CQL columns.
fn key_text(variant: &Variant, keys: &EntityKeys, cql: bool) -> String {
    if cql {
        return super::super::keys::CqlPrimaryKey::of(keys, None).to_string();
    }
    match (&keys.sk, &variant.table_sk) {
        (Some(sk), Some(name)) => {
            format!("{} = {}, {name} = {}", variant.table_pk, keys.pk.source(), sk.source())
        }
        _ => format!("{} = {}", variant.table_pk, keys.pk.source()),
    }
}

fn unwrap_sometimes(g: &Generator) -> &Generator {
    match g {
        Generator::Sometimes(_, inner) => unwrap_sometimes(inner),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner;

    /// Customers, their orders, who follows whom and a counter; the cases fill in the keys.
    const SHOP: &str = r#"(
        name: "shop", title: "Shop", ENGINE
        entities: [
            (name: "Customer", attributes: [(name: "customer_id", type: S, gen: New("customers"))]),
            (name: "Order", attributes: [
                (name: "order_id", type: S, gen: New("orders")),
                (name: "customer_id", type: S, gen: Pick("customers")),
                (name: "placed_at", type: Time, gen: Now),
                (name: "seq", type: N, gen: Number(Uniform(0, 4095))),
                (name: "status", type: S, gen: OneOf([("PENDING", 1), ("SHIPPED", 9)])),
            ]),
            (name: "Follow", attributes: [
                (name: "follow_id", type: S, gen: New("follows")),
                (name: "follower", type: S, gen: Pick("customers")),
                (name: "followee", type: S, gen: Pick("customers")),
            ]),
            (name: "Counter", attributes: [(name: "name", type: S, gen: Text("visits")), (name: "n", type: N, gen: Number(Fixed(1)))]),
            (name: "Visit", attributes: [
                (name: "customer_id", type: S, gen: Pick("customers")),
                (name: "at", type: Time, gen: Now),
            ]),
        ],
        populations: [
            (name: "customers", count: 10000, ids: "c{}"),
            (name: "orders", count: 100000, ids: "o{}"),
            (name: "follows", count: 1000, ids: "f{}"),
        ],
        patterns: [
            (name: "place-order", action: Put, entity: "Order", given: ["customer_id"], rate: 10),
            (name: "follow", action: Put, entity: "Follow", given: ["follower"], rate: 1),
            (name: "count", action: Update, entity: "Counter", given: ["name"], sets: ["n"], rate: 5),
            (name: "visit", action: Put, entity: "Visit", given: ["customer_id"], rate: 2),
        ],
        variants: [(name: "v", keys: {
            "Customer": (pk: "CUSTOMER_PK", sk: "PROFILE"),
            "Order": (pk: "ORDER_PK", sk: "ORDER_SK"),
            "Follow": (pk: "F#{follower}", sk: "FOLLOW_SK"),
            "Counter": (pk: "COUNTER#{name}", sk: "C"),
            "Visit": (pk: "V#{customer_id}", sk: "VISIT_SK"),
        })],
        workload: (duration: "1d", tick: "1s", seed: 1),
    )"#;

    fn collisions_with(engine: &str, keys: [&str; 5]) -> Vec<Warning> {
        let mut source = SHOP.replace("ENGINE", engine);
        for (slot, template) in
            ["CUSTOMER_PK", "ORDER_PK", "ORDER_SK", "FOLLOW_SK", "VISIT_SK"].iter().zip(keys)
        {
            source = source.replace(slot, template);
        }
        let loaded = crate::scenario::parse("shop.ron", &source).unwrap_or_else(|e| panic!("{e}"));
        let plan = planner::plan(&loaded.scenario, &loaded.scenario.variants[0]);
        plan.warnings.into_iter().filter(|w| w.code == WarningCode::KeyCollision).collect()
    }

    /// (Customer pk, Order pk, Order sk, Follow sk, Visit sk) → the entities flagged, with a
    /// fragment of each message.
    type Case = ([&'static str; 5], Vec<(&'static str, &'static str)>);

    #[test]
    fn flags_keys_that_cannot_tell_items_apart() {
        let ok =
            ("CUSTOMER#{customer_id}", "CUSTOMER#{customer_id}", "ORDER#{order_id}", "{followee}", "{at}");
        let cases: Vec<Case> = vec![
            // Every key holds the id or a natural pair: nothing to say.
            ([ok.0, ok.1, ok.2, ok.3, ok.4], vec![]),
            // An entity without an id: a visit keyed by customer and day keeps one a day.
            (
                [ok.0, ok.1, ok.2, ok.3, "DAY#{at:%Y-%m-%d}"],
                vec![(
                    "Visit",
                    "holds nothing new for each Visit item (no id drawn by New(…), no generated number): it takes ~10,000 values (customer_id: 10,000 values × at:%Y-%m-%d: 1 window in 24 h) for ~172,800 Visit items written (visit 2/s over 24 h)",
                )],
            ),
            // The order's own id left out: every order of a customer shares one key.
            (
                [ok.0, ok.1, "ORDER#{customer_id}", ok.3, ok.4],
                vec![(
                    "Order",
                    "leaves out order_id, the attribute that tells Order items apart (New(\"orders\")): it takes ~10,000 values (customer_id: 10,000 values) for ~964,000 Order items written (100,000 to start + place-order 10/s over 24 h), so an estimated ~954,000 of them (99%)",
                )],
            ),
            // The write time to the second, or a generated number, keeps items apart.
            ([ok.0, ok.1, "ORDER#{placed_at}", ok.3, ok.4], vec![]),
            ([ok.0, ok.1, "ORDER#{seq}", ok.3, ok.4], vec![]),
            // A day's bucket does not.
            (
                [ok.0, ok.1, "ORDER#{placed_at:%Y-%m-%d}", ok.3, ok.4],
                vec![("Order", "placed_at:%Y-%m-%d: 1 window in 24 h")],
            ),
            // Neither do shards, nor a hash of the id.
            ([ok.0, "C#{customer_id}#{shard(4)}", "ORDER", ok.3, ok.4], vec![("Order", "shard(4): 4")]),
            ([ok.0, ok.1, "ORDER#{hash(order_id, 8)}", ok.3, ok.4], vec![("Order", "hash(order_id, 8): 8")]),
            // A follow keyed by follower alone loses all but one per follower; by the pair, 1,000
            // follows on 100,000,000 even pairs lose next to nothing.
            ([ok.0, ok.1, ok.2, "FOLLOW", ok.4], vec![("Follow", "leaves out follow_id")]),
            // Customers start as members of their population: a literal key keeps one.
            (
                ["CUSTOMERS", ok.1, ok.2, ok.3, ok.4],
                vec![(
                    "Customer",
                    "it takes 1 value (a literal key) for ~10,000 Customer items written (10,000 to start)",
                )],
            ),
        ];
        for (keys, expected) in cases {
            let warnings = collisions_with("", keys);
            let flagged: Vec<&str> = warnings.iter().map(|w| w.subject.as_str()).collect();
            let wanted: Vec<&str> = expected.iter().map(|(entity, _)| *entity).collect();
            assert_eq!(flagged, wanted, "{keys:?}: {warnings:#?}");
            for (w, (_, fragment)) in warnings.iter().zip(&expected) {
                assert!(w.to_string().contains(fragment), "{keys:?}: {:?} lacks {fragment:?}", w.to_string());
                assert!(
                    w.to_string()
                        .contains("PutItem with the key of an existing item replaces that item whole")
                );
            }
        }
    }

    #[test]
    fn says_what_to_add_in_the_engines_words() {
        let keys =
            ["CUSTOMER#{customer_id}", "CUSTOMER#{customer_id}", "ORDER#{customer_id}", "{followee}", "{at}"];
        let dynamodb = collisions_with("", keys);
        assert!(
            dynamodb[0]
                .to_string()
                .ends_with("Add {order_id} to the sort key (SK = ORDER#{customer_id}#{order_id})."),
            "{dynamodb:?}"
        );
        let cassandra = collisions_with("engine: Cassandra,", keys);
        let message = &cassandra[0].to_string();
        for part in [
            "Order's table key PRIMARY KEY ((customer_id)) leaves out order_id",
            "~964,000 Order rows written",
            "another Order row already holds",
            "An INSERT with the primary key of an existing row overwrites that row (Cassandra writes are upserts)",
        ] {
            assert!(message.contains(part), "{part:?} missing from {message}");
        }
        assert!(message.ends_with("Add order_id to the primary key as a clustering column."), "{message}");
        let visit = collisions_with(
            "",
            ["CUSTOMER#{customer_id}", keys[1], "ORDER#{order_id}", keys[3], "D#{at:%Y-%m-%d}"],
        );
        assert!(
            visit[0].to_string().ends_with("the write time with a sequence number (`{sent_at}#{seq}`)."),
            "{visit:?}"
        );
    }

    #[test]
    fn only_the_fixture_memberships_and_follows_lose_items_to_their_key() {
        // Every variant, naive ones included. practice-chat keys a membership by (channel,
        // user), drawn independently: Zipf(0.99) over 10,000 channels repeats like ~63, so its
        // 20,360 memberships lose ~601 (the replay: 600 of the 20,000 it starts with and 18 of
        // the 360 joins). practice-social keys a follow by (follower, followee), the followee
        // Zipf(1.0) over 5,000 (like ~50): its 50,008 follows lose ~3,912 (the replay: 3,955).
        // No other design keys an entity so that puts overwrite.
        let mut flagged = Vec::new();
        for loaded in crate::engine::testing::fixtures() {
            let s = &loaded.scenario;
            for variant in &s.variants {
                let plan = planner::plan(s, variant);
                for w in plan.warnings.iter().filter(|w| w.code == WarningCode::KeyCollision) {
                    flagged.push(format!("{}/{}: {}", s.name, variant.name, w.subject));
                }
            }
        }
        let expected = [
            "practice-chat/naive: Membership",
            "practice-chat/recommended: Membership",
            "practice-social/naive: Follow",
            "practice-social/recommended: Follow",
        ];
        assert_eq!(flagged, expected);
    }

    /// A tenant's events keyed by tenant, shard and second: the whale (t0) writes three a
    /// second, the 99 others one a second between them. WHALE and OTHERS are the class slot's
    /// shard counts.
    const TENANTS: &str = r#"(
        name: "tenants", title: "Tenants",
        entities: [(name: "Event", attributes: [
            (name: "tenant_id", type: S, gen: Pick("tenants")),
            (name: "at", type: Time, gen: Now),
        ])],
        populations: [(name: "tenants", count: 100, ids: "t{}")],
        patterns: [
            (name: "whale-log", action: Put, entity: "Event", given: ["tenant_id"], keys: Fixed(0), rate: 3),
            (name: "log", action: Put, entity: "Event", given: ["tenant_id"], rate: 1),
        ],
        variants: [(name: "v", keys: {
            "Event": (pk: "T#{tenant_id}#{shard(by: tenant_id, t0 = WHALE, else = OTHERS)}", sk: "{at}"),
        })],
        workload: (duration: "1d", tick: "1s", seed: 1),
    )"#;

    #[test]
    fn counts_each_class_of_a_class_slot_on_its_own_layout() {
        // (whale's shards, the others' shards, flagged, a fragment of the message). The replay
        // loses ~50% of the items with one whale shard, ~0.3% with 256 (`keyheat run`).
        let cases = [
            // Three events a second on the whale's one key a second: two of them land on a taken
            // key, though the others' 64 shards would keep them apart.
            (
                1,
                64,
                true,
                "tenant_id = t0 (75.2% of the items) ~86,400 values (tenant_id: 1 value × shard(1): 1 × {at}: 86,400 windows of a second in 24 h)",
            ),
            (
                1,
                1,
                true,
                "other values (24.8% of the items) ~8,553,600 values (tenant_id: 99 values × shard(1): 1",
            ),
            // 256 shards keep the whale's seconds apart, though the others have one.
            (256, 1, false, ""),
            (256, 64, false, ""),
        ];
        for (whale, others, flagged, fragment) in cases {
            let source = TENANTS.replace("WHALE", &whale.to_string()).replace("OTHERS", &others.to_string());
            let loaded = crate::scenario::parse("tenants.ron", &source).unwrap_or_else(|e| panic!("{e}"));
            let plan = planner::plan(&loaded.scenario, &loaded.scenario.variants[0]);
            let warnings: Vec<&Warning> =
                plan.warnings.iter().filter(|w| w.code == WarningCode::KeyCollision).collect();
            assert_eq!(!warnings.is_empty(), flagged, "t0 = {whale}, else = {others}: {warnings:#?}");
            if let Some(w) = warnings.first() {
                assert!(w.to_string().contains(fragment), "t0 = {whale}, else = {others}: {w}");
            }
        }
    }

    #[test]
    fn counts_the_items_that_land_on_a_taken_key() {
        // (items, keys, overwritten).
        let cases = [
            (10.0, 1.0, 9.0),
            (0.0, 5.0, 0.0),
            (5.0, f64::INFINITY, 0.0),
            // Twice as many items as keys: at least half are overwritten.
            (200.0, 100.0, 200.0 - 100.0 * (1.0 - 0.99_f64.powi(200))),
            // Far more keys than items: the birthday count, about n²/2k.
            (20_000.0, 5e7, 4.0),
        ];
        for (n, k, lost) in cases {
            let got = Odds::even(k).overwrites(n);
            assert!((got - lost).abs() <= 0.01 * lost.max(1.0), "{n} on {k}: {got} ≠ {lost}");
        }
    }

    /// Zipf(s) over `n` members, rank by rank, as the workload draws it.
    fn zipf(n: u64, s: f64) -> Odds {
        let shares = Popularity::Zipf { s, scrambled: true }.shares(n, 7);
        Odds::of(shares.into_iter().map(|p| (p, 1.0)).collect())
    }

    /// 1/Σ pₖ² summed term by term from Zipf's law: k^-2s / H(n, s)².
    fn zipf_effective(n: u64, s: f64) -> f64 {
        let h: f64 = (1..=n).map(|k| (k as f64).powf(-s)).sum();
        let squares: f64 = (1..=n).map(|k| (k as f64).powf(-2.0 * s)).sum();
        h * h / squares
    }

    #[test]
    fn the_collision_equivalent_count_is_one_over_the_sum_of_squares() {
        let cases: Vec<(&str, Odds, f64)> = vec![
            ("uniform over 1,000", Odds::even(1000.0), 1000.0),
            ("one value", Odds::even(1.0), 1.0),
            // chat's channels: not ~96, but ~59.
            ("Zipf(0.9) over 1,000", zipf(1000, 0.9), zipf_effective(1000, 0.9)),
            ("Zipf(0.99) over 10,000", zipf(10_000, 0.99), zipf_effective(10_000, 0.99)),
            ("Zipf(1.2) over 50", zipf(50, 1.2), zipf_effective(50, 1.2)),
            ("weights 1 and 9", Odds::of(vec![(0.1, 1.0), (0.9, 1.0)]), 1.0 / (0.01 + 0.81)),
            // Independent slots multiply: chat's membership key.
            (
                "Zipf(0.9) × 2,000 even",
                zipf(1000, 0.9).times(&Odds::even(2000.0)),
                zipf_effective(1000, 0.9) * 2000.0,
            ),
            ("4 shards × 86,400 seconds", Odds::even(4.0).times(&Odds::even(86_400.0)), 4.0 * 86_400.0),
            // Past `MAX_GROUPS` the product's groups are merged, keeping Σ p².
            (
                "Zipf(0.99) over 10,000 × Zipf(0.9) over 3,000",
                zipf(10_000, 0.99).times(&zipf(3000, 0.9)),
                zipf_effective(10_000, 0.99) * zipf_effective(3000, 0.9),
            ),
            // Hashed into 8 buckets: same value, or 1/8 of the rest.
            ("1,000 even hashed into 8", Odds::even(1000.0).hashed(8.0), 1.0 / (0.001 + 0.999 / 8.0)),
        ];
        for (what, odds, effective) in cases {
            let got = odds.effective();
            assert!((got - effective).abs() <= 1e-9 * effective, "{what}: {got} ≠ {effective}");
        }
        let chat = zipf_effective(1000, 0.9);
        assert!((chat - 59.0).abs() < 0.5, "{chat}");
    }

    #[test]
    fn the_loss_is_the_items_less_the_distinct_keys_they_take() {
        // n − Σₖ (1 − (1 − pₖ)ⁿ) summed value by value, from the key's per-attribute shares.
        let brute = |a: &[f64], b: &[f64], n: f64| {
            let distinct: f64 =
                a.iter().flat_map(|p| b.iter().map(move |q| 1.0 - (1.0 - p * q).powf(n))).sum();
            n - distinct
        };
        let zipf_shares = |n: u64, s: f64| Popularity::Zipf { s, scrambled: true }.shares(n, 7);
        let even = |n: usize| vec![1.0 / n as f64; n];
        // (what, slot shares, slot shares, items, the run's figure where there is one).
        let cases = [
            // chat: 13,456 memberships on (channel Zipf(0.9) over 1,000, user over 2,000); the
            // replay loses 368 of the 10,000 it starts with and 304 of the 3,456 joins (672).
            ("chat", zipf_shares(1000, 0.9), even(2000), 13_456.0, Some(672.0)),
            ("chat's first 10,000", zipf_shares(1000, 0.9), even(2000), 10_000.0, None),
            // Merged groups (3,000 × 1,000 values) still give the loss.
            ("two Zipf slots", zipf_shares(3000, 0.99), zipf_shares(1000, 0.9), 5000.0, None),
            // More items than keys.
            ("crowded", zipf_shares(20, 1.0), even(5), 500.0, None),
        ];
        for (what, a, b, n, run) in cases {
            let odds = Odds::of(a.iter().map(|&p| (p, 1.0)).collect())
                .times(&Odds::of(b.iter().map(|&p| (p, 1.0)).collect()));
            let (got, exact) = (odds.overwrites(n), brute(&a, &b, n));
            assert!((got - exact).abs() <= 0.005 * exact, "{what}: {got} ≠ {exact}");
            if let Some(run) = run {
                assert!((got - run).abs() <= 0.1 * run, "{what}: {got} vs the run's {run}");
            }
        }
    }
}

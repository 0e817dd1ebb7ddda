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
//! share `EVT#{at}`. Items land on the busiest key value at its measured share (a whale account's
//! appends all crowd its own seconds) and on the rest evenly; the warning fires when at least 1%
//! of them land on a key another item already holds. A key built from two references that pair
//! up uniquely (a membership keyed by channel and user) has far more values than items and stays
//! quiet: that pair is the item's natural identity. An entity marked `upsert` is the one its key
//! names (a follow edge drawn twice, the latest value of a sensor): it is not checked.

use super::super::estimate::{Class, ClassOf, Estimator};
use super::super::keys::bucket_width;
use super::super::load::mean_rate;
use super::super::numbers::{count, percent, rate, span};
use super::super::{Subject, Warning, WarningCode};
use crate::engine::model::{
    Action, Bound, Entity, EntityId, EntityKeys, Generator, ItemAttr, SlotAttrs, Variant,
};
use crate::engine::template::Part;
use crate::engine::workload::Popularity;

/// The share of items written onto a key another item holds above which the key is flagged.
const MIN_SHARE: f64 = 0.01;

pub fn collisions(est: &Estimator<'_>, out: &mut Vec<Warning>) {
    // An upsert entity's key is its identity: a put onto a taken key writes the same item.
    for entity in est.scenario.entities.iter().filter(|e| !e.upsert && !created_once(est, e.id())) {
        let Some(keys) = est.variant.keys_for(entity.id()) else { continue };
        let Some(space) = key_space(est, entity.id(), keys) else { continue };
        let written = written(est, entity.id());
        if written.items <= 0.0 || written.terms.is_empty() {
            continue;
        }
        let lost = space.overwrites(written.items);
        let share = lost / written.items;
        if lost < 1.0 || share < MIN_SHARE {
            continue;
        }
        out.push(warning(est, entity, keys, &space, &written, share));
    }
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

    /// `~10,000 values (customer_id: 10,000 values)`, or that for each class.
    fn text(&self) -> String {
        let Some(by) = self.by else {
            return self.classes.iter().map(|c| c.space.text()).collect();
        };
        let each: Vec<String> = self
            .classes
            .iter()
            .map(|c| {
                let label = c.class.map_or_else(|| "other values".to_owned(), |v| format!("{by} = {v}"));
                format!("{label} ({} of the items) {}", percent(c.share), c.space.text())
            })
            .collect();
        format!("per class of {by}: {}", each.join("; "))
    }

    /// When the busiest value decides the count of a key without classes, a phrase saying so.
    fn busiest(&self, items: f64) -> String {
        match self.classes.as_slice() {
            [only] if self.by.is_none() => only.space.busiest(items),
            _ => String::new(),
        }
    }
}

/// How many values a key takes for the items of one class, and why.
struct Space {
    values: f64,
    /// Of them, the time windows an item's life spans (1 when the key holds no time).
    windows: f64,
    /// The share of the items on the key's busiest value apart from time.
    hottest: f64,
    /// Whether every value apart from time is picked in sequence (`Seq`): a sensor reporting on
    /// a schedule comes back to its key only after every other sensor has had its turn.
    sequential: bool,
    /// `customer_id: 100,000 values`, `shard(4): 4`.
    terms: Vec<String>,
}

impl Space {
    /// How many of `n` items land on a key another item holds: the busiest value's share of them
    /// spread over its time windows, the rest evenly over the other values; never fewer than if
    /// every key were equally likely.
    fn overwrites(&self, n: f64) -> f64 {
        if self.sequential {
            // Keys taken in turn: a key repeats only when items outnumber keys.
            return (n - self.values).max(0.0);
        }
        let even = expected_overwrites(n, self.values);
        let others = (self.values / self.windows - 1.0).max(0.0) * self.windows;
        let hot = n * self.hottest;
        let skewed = expected_overwrites(hot, self.windows) + expected_overwrites(n - hot, others);
        even.max(skewed)
    }

    /// `~10,000 values (customer_id: 10,000 values)`.
    fn text(&self) -> String {
        if self.terms.is_empty() {
            "1 value (a literal key)".to_owned()
        } else {
            format!("~{} values ({})", count(self.values), self.terms.join(" × "))
        }
    }

    /// When the busiest value decides the count, a phrase saying so: evenly spread, fewer of the
    /// `items` would collide.
    fn busiest(&self, items: f64) -> String {
        if self.hottest < 1.0
            && self.hottest * self.values / self.windows > 1.5
            && self.overwrites(items) > expected_overwrites(items, self.values) * 1.05
        {
            format!(
                " (the busiest key value alone takes ~{} of them{})",
                percent(self.hottest),
                if self.windows > 1.0 { ", crowding its own time windows" } else { "" }
            )
        } else {
            String::new()
        }
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

/// The distinct values of a shared attribute among a class's items, and the busiest one's share.
fn spread(est: &Estimator<'_>, e: &Entity, attr: Option<ItemAttr>, pin: Option<&Pin>) -> (f64, f64) {
    match pin.filter(|pin| pin.by.is_some() && pin.by == attr) {
        Some(pin) => (pin.values, pin.hottest),
        None => (est.distinct_values(e, attr), est.hottest_value_share(e, attr)),
    }
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
    let mut space = Space { values: 1.0, windows: 1.0, hottest: 1.0, sequential: false, terms: Vec::new() };
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
                space.values *= f64::from(*n);
                space.hottest /= f64::from(*n);
                in_sequence.push(false);
                space.terms.push(format!("shard({n}): {n}"));
            }
            Part::Hash { name, count: n } => {
                // A hash next to the whole value adds nothing; alone it keeps at most N values.
                if whole_names.contains(&name.as_str()) || counted.contains(&name.as_str()) {
                    continue;
                }
                counted.push(name);
                let (values, hottest) = if held == Held::Shared {
                    let (values, hottest) = spread(est, e, slot.reads, pin);
                    (values.min(f64::from(*n)), hottest)
                } else {
                    (f64::from(*n), 1.0 / f64::from(*n))
                };
                space.values *= values;
                // A hash keeps the busiest value's items together (and may add others to them).
                space.hottest *= hottest;
                in_sequence.push(false);
                space.terms.push(format!("hash({name}, {n}): {}", count(values)));
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
                let (values, hottest) = spread(est, e, slot.reads, pin);
                space.values *= values;
                space.hottest *= hottest;
                in_sequence.push(slot.reads.is_some_and(|a| picked_in_sequence(est, entity, a)));
                let noun = if values > 1.0 { "values" } else { "value" };
                space.terms.push(format!("{name}: {} {noun}", count(values)));
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
        space.terms.push(format!("{label}: {name} is not the write time, counted once"));
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
    space.values *= values;
    space.windows *= values;
    let noun = if values > 1.0 { "windows" } else { "window" };
    let of = if width <= 1.0 { " of a second".to_owned() } else { String::new() };
    space.terms.push(format!("{label}: {} {noun}{of} in {}", count(values), span(lifetime)));
}

/// The items an entity's writes make if each is new: the members it starts with, plus its puts
/// (net of deletes) over an item's life.
struct Written {
    items: f64,
    /// `200,000 to start`, `place-order 10/s`.
    terms: Vec<String>,
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
            w.terms.push(format!("{} to start", count(members)));
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
        let mut named: Vec<String> =
            rate_of(Action::Put).map(|p| format!("{} {}/s", p.name, rate(mean_rate(p, est.secs)))).collect();
        if deletes > 0.0 {
            named.push(format!("less {}/s of deletes", rate(deletes)));
        }
        w.terms.push(format!("{} over {}", named.join(" + "), span(lifetime)));
    }
    w
}

/// Of `n` items dropped on `k` equally likely keys, how many land on a key already taken:
/// n − k·(1 − (1 − 1/k)ⁿ). Uneven keys only make it more.
fn expected_overwrites(n: f64, k: f64) -> f64 {
    if n <= 0.0 || k <= 0.0 {
        return 0.0;
    }
    if !k.is_finite() {
        return 0.0;
    }
    // 1 − (1 − 1/k)ⁿ computed as −expm1(n·ln(1 − 1/k)), exact for k near 1 and for huge k.
    let occupied = if k <= 1.0 { 1.0_f64.min(n) } else { -k * (n * (-1.0 / k).ln_1p()).exp_m1() };
    (n - occupied).max(0.0)
}

fn warning(
    est: &Estimator<'_>,
    e: &Entity,
    keys: &EntityKeys,
    space: &KeySpace<'_>,
    written: &Written,
    share: f64,
) -> Warning {
    let entity = e.name.as_str();
    let id = e.attributes.iter().find(|a| matches!(unwrap_sometimes(&a.generator), Generator::New(_)));
    let key = key_text(est.variant, keys, est.cql);
    let left_out = match id {
        Some(a) => {
            let Generator::New(population) = unwrap_sometimes(&a.generator) else {
                unreachable!("found by its New generator")
            };
            format!(
                "leaves out {}, the attribute that tells {entity} items apart (New({population:?}))",
                a.name
            )
        }
        None => {
            format!("holds nothing new for each {entity} item (no id drawn by New(…), no generated number)")
        }
    };
    let (one, noun) = (est.words.item.one, est.words.item.many);
    let busiest = space.busiest(written.items);
    let values = space.text();
    let what_happens = if est.cql {
        "An INSERT with the primary key of an existing row overwrites that row (Cassandra writes are upserts), without an error"
    } else {
        "PutItem with the key of an existing item replaces that item whole, without an error"
    };
    let fix = match (id, &keys.sk) {
        (Some(a), _) if est.cql => format!("Add {} to the primary key as a clustering column", a.name),
        (Some(a), Some(sk)) => format!(
            "Add {{{}}} to the sort key ({} = {}#{{{}}})",
            a.name,
            est.variant.table_sk.as_deref().unwrap_or("SK"),
            sk.source(),
            a.name
        ),
        (Some(a), None) => format!("Add {{{}}} to the key", a.name),
        (None, _) => "Add an attribute that tells the items apart: an id drawn by New(…), or the write time with a sequence number (`{sent_at}#{seq}`)".to_owned(),
    };
    Warning {
        code: WarningCode::KeyCollision,
        about: Subject::Entity(e.id()),
        subject: entity.to_owned(),
        limit_after: None,
        message: format!(
            "{entity}'s table key {key} {left_out}: it takes {values} for ~{} {entity} {noun} written ({}{}), so {} of them land on a key another {entity} {one} already holds{busiest}. {what_happens}: those {noun} are silently lost. {fix}.",
            count(written.items),
            written.terms.join(" + "),
            if written.lifetime < est.secs {
                format!("; each expires {} after it is written", span(written.lifetime))
            } else {
                String::new()
            },
            if share > 0.995 { "nearly all".to_owned() } else { format!("~{}", percent(share)) },
        ),
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
                    "leaves out order_id, the attribute that tells Order items apart (New(\"orders\")): it takes ~10,000 values (customer_id: 10,000 values) for ~964,000 Order items written (100,000 to start + place-order 10/s over 24 h), so ~99% of them",
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
            // A follow keyed by follower alone loses all but one per follower; by the pair it is
            // its natural identity.
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
                assert!(w.message.contains(fragment), "{keys:?}: {:?} lacks {fragment:?}", w.message);
                assert!(
                    w.message.contains("PutItem with the key of an existing item replaces that item whole")
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
                .message
                .ends_with("Add {order_id} to the sort key (SK = ORDER#{customer_id}#{order_id})."),
            "{dynamodb:?}"
        );
        let cassandra = collisions_with("engine: Cassandra,", keys);
        let message = &cassandra[0].message;
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
            visit[0].message.ends_with("the write time with a sequence number (`{sent_at}#{seq}`)."),
            "{visit:?}"
        );
    }

    #[test]
    fn no_fixture_design_loses_items_to_its_key() {
        // Every variant, naive ones included: none of them keys an entity so that puts overwrite.
        for loaded in crate::engine::testing::fixtures() {
            let s = &loaded.scenario;
            for variant in &s.variants {
                let plan = planner::plan(s, variant);
                let flagged: Vec<&Warning> =
                    plan.warnings.iter().filter(|w| w.code == WarningCode::KeyCollision).collect();
                assert!(flagged.is_empty(), "{}/{}: {flagged:#?}", s.name, variant.name);
            }
        }
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
                assert!(w.message.contains(fragment), "t0 = {whale}, else = {others}: {}", w.message);
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
            let got = expected_overwrites(n, k);
            assert!((got - lost).abs() <= 0.01 * lost.max(1.0), "{n} on {k}: {got} ≠ {lost}");
        }
    }
}

//! Schema warnings: static checks of a key design against the scenario's rates, populations and
//! item sizes. Every warning carries its finding (`planner::finding`): the inputs and arithmetic
//! a reader needs to check it, which `report::findings` words.

use std::collections::BTreeMap;

pub(super) mod collision;

use super::estimate::Estimator;
use super::estimate::Spread;
use super::finding::{
    Amplification, CollectionOrder, CopyBurst, ExtraWrite, Finding, GrowthTerm, Guidance, HotLoad, KeyUpdate,
    LoadTerm, LowCardinality, PartitionGrowth, ScanCost, Shape, UnboundedItem, UnsafeClaim,
};
use super::load::{mean_rate, peak_rate};
use super::read::label;
use super::{
    IndexId, ItemWrite, Kind, LOW_CARDINALITY, Operation, PARTITION_RCU, PARTITION_WCU, PatternPlan, Subject,
    Via, WRITE_AMPLIFICATION_LIMIT, Warning, WarningCode, WriteTarget,
};
use crate::engine::model::{
    AccessPattern, Action, AttrType, Bound, Condition, EntityId, EntityKeys, Index, IndexKind, ItemAttr,
    SlotAttrs,
};
use crate::engine::profile::{Sizing, bson, cosmos, json};
use crate::engine::template::Template;

/// `version-contention`: a version-checked update whose calls lose their race more often than
/// `condition::CONTENTION_LIMIT` (keyheat's contention model, `planner::condition`).
fn version_contention(plan: &PatternPlan, est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let Some(c) = &plan.condition else { return };
    if c.busiest.is_none() {
        return;
    }
    if c.failure_rate <= super::condition::CONTENTION_LIMIT {
        return;
    }
    out.push(Warning {
        code: WarningCode::VersionContention,
        about: Subject::Pattern(plan.pattern),
        limit_after: None,
        subject: plan.name.clone(),
        engine: est.scenario.engine,
        finding: Finding::VersionContention { why: c.why.clone() },
    });
}

/// `unsafe-claim`: a put that takes a claim without a transaction. The put and the claim are
/// two requests, so a taken claim is refused after the put has landed: the value the claim was
/// there to keep unique now has two items.
fn unsafe_claim(plan: &PatternPlan, est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let Some(c) = &plan.claim else { return };
    let pattern = est.pattern(plan.pattern);
    if pattern.transaction {
        return;
    }
    let calls = mean_rate(pattern, est.secs) * est.secs;
    out.push(Warning {
        code: WarningCode::UnsafeClaim,
        about: Subject::Pattern(plan.pattern),
        limit_after: None,
        subject: plan.name.clone(),
        engine: est.scenario.engine,
        finding: Finding::UnsafeClaim(UnsafeClaim {
            pattern: plan.name.clone(),
            entity: pattern.entity.clone(),
            expression: c.expression.clone(),
            why: c.why.clone(),
            expected: (c.failure_rate > 0.0).then_some((c.failure_rate * calls, calls)),
        }),
    });
}

/// Index entries cost this much storage on top of their size (AWS GSI/LSI docs).
const INDEX_OVERHEAD_BYTES: f64 = 100.0;

pub fn collect(est: &Estimator<'_>, plans: &[PatternPlan]) -> Vec<Warning> {
    let mut out = Vec::new();
    for plan in plans {
        pattern_warnings(plan, est, &mut out);
        key_update(plan, est, &mut out);
        version_contention(plan, est, &mut out);
        collection_order(plan, est, &mut out);
        unsafe_claim(plan, est, &mut out);
    }
    collision::collisions(est, &mut out);
    // A size goal with a horizon past the replay (`within: "365d"`) is graded on the partitions'
    // growth to that horizon: warn about what the grade will project, not only the replay.
    match est.scenario.size_horizon() {
        Some(horizon) => partitions(&est.over(horizon.as_secs_f64()), &mut out),
        None => partitions(est, &mut out),
    }
    if !est.cql() {
        hot_partitions(est, plans, &mut out);
    }
    low_cardinality(est, plans, &mut out);
    if !est.cql() {
        unbounded_items(est, &mut out);
        oversized_items(est, &mut out);
    }
    guesses(est, &mut out);
    out
}

/// `key-update`: an update that sets a table key attribute is a delete and a put of the whole
/// item (`write::moving`), which a design that keeps the changing value out of the table key
/// avoids.
fn key_update(plan: &PatternPlan, est: &Estimator<'_>, out: &mut Vec<Warning>) {
    if !matches!(plan.operation, Some(Operation::DeleteAndPut | Operation::TransactWriteItems)) {
        return;
    }
    let pattern = est.pattern(plan.pattern);
    let Some(keys) = est.variant.keys_for(pattern.entity_id()) else { return };
    let moved = super::write::moved_key_attributes(pattern, keys);
    if moved.is_empty() {
        return;
    }
    out.push(Warning {
        code: WarningCode::KeyUpdate,
        about: Subject::Pattern(plan.pattern),
        limit_after: None,
        subject: plan.name.clone(),
        engine: est.scenario.engine,
        finding: Finding::KeyUpdate(KeyUpdate {
            pattern: plan.name.clone(),
            entity: pattern.entity.clone(),
            moved: moved.into_iter().map(str::to_owned).collect(),
            transaction: pattern.transaction,
            units_per_call: plan.units_per_call,
        }),
    });
}

/// `collection-order`: a List of a parent `with` its children in one Query of the table, in
/// `order` with a `limit`, reads the item collection from one end (Desc: the highest sort key);
/// when the parent's sort key sorts at the other end, a parent with `limit` children or more is
/// not in what the call returns. Decided on the sort keys' literal text (`PROFILE` against
/// `ORDER#…`); where one is a prefix of the other the slots decide, and nothing is said.
fn collection_order(plan: &PatternPlan, est: &Estimator<'_>, out: &mut Vec<Warning>) {
    if plan.operation != Some(Operation::Query) || plan.index.is_some() || !plan.parts.is_empty() {
        return;
    }
    let pattern = est.pattern(plan.pattern);
    let pattern = pattern.as_served_by(est.variant);
    let (Some(limit), false) = (pattern.limit, pattern.with.is_empty()) else { return };
    let Some(parent) = est.variant.keys_for(pattern.entity_id()).and_then(|k| k.sk.as_ref()) else { return };
    let desc = pattern.order == crate::engine::model::Order::Desc;
    for (child, &child_id) in pattern.with.iter().zip(pattern.with_ids()) {
        let Some(sk) = est.variant.keys_for(child_id).and_then(|k| k.sk.as_ref()) else { continue };
        let (ours, theirs) = (parent.literal_prefix(), sk.literal_prefix());
        let shared = ours.len().min(theirs.len());
        // Where one literal is a prefix of the other, a whole literal parent (no slots) sorts
        // first; else the slots decide.
        let parent_first = if ours.as_bytes()[..shared] != theirs.as_bytes()[..shared] {
            ours.as_bytes() < theirs.as_bytes()
        } else if ours.len() < theirs.len() && parent.parts().len() == 1 {
            true
        } else {
            continue;
        };
        if parent_first != desc {
            continue;
        }
        out.push(Warning {
            code: WarningCode::CollectionOrder,
            about: Subject::Pattern(plan.pattern),
            limit_after: None,
            subject: plan.name.clone(),
            engine: est.scenario.engine,
            finding: Finding::CollectionOrder(CollectionOrder {
                pattern: plan.name.clone(),
                entity: pattern.entity.clone(),
                child: child.clone(),
                desc,
                limit,
                parent_sk: parent.source().to_owned(),
                child_sk: sk.source().to_owned(),
            }),
        });
    }
}

/// `guess`: a population count or a pattern rate the file marks `guess: true` (what `keyheat
/// import nwb` writes where a model says nothing): sizes, loads and costs rest on it.
fn guesses(est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let s = est.scenario;
    for p in s.populations.iter().filter(|p| p.guess) {
        out.push(Warning {
            code: WarningCode::Guess,
            about: Subject::Count(p.population_id()),
            limit_after: None,
            subject: format!("population {}", p.name),
            engine: s.engine,
            finding: Finding::GuessedCount { population: p.name.clone(), count: p.count as f64 },
        });
    }
    for p in s.patterns.iter().filter(|p| p.guess) {
        out.push(Warning {
            code: WarningCode::Guess,
            about: Subject::Rate(p.id()),
            limit_after: None,
            subject: format!("pattern {}", p.name),
            engine: s.engine,
            finding: Finding::GuessedRate { pattern: p.name.clone(), rate: p.rate },
        });
    }
}

/// `oversized-item`: an entity whose items, every attribute present, pass the store's item
/// limit as generated (DynamoDB 400 KB, Cosmos DB 2 MB, MongoDB 16 MB), sized by the store's
/// own rules. Each put is refused, and so is each item of the initial load, which the replay
/// counts but never stores. A store that holds items to no limit (the Cassandra profile) has
/// nothing to warn of.
fn oversized_items(est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let profile = est.scenario.engine.profile();
    let Some(limit) = profile.item_limit else { return };
    for entity in est.scenario.entities.iter().filter(|e| est.variant.keys_for(e.id()).is_some()) {
        let item = est.item(entity.id());
        let is_date = |name: &str| entity.attributes.iter().any(|a| a.name == name && a.ty == AttrType::Time);
        let size = match profile.sizing {
            Sizing::Attributes => crate::engine::value::item_size(item),
            // As the replay stores it: times are dates, and the driver adds an `_id`.
            Sizing::Bson => bson::dated_document_size(item, &is_date) + bson::GENERATED_ID_BYTES,
            // As the replay stores it: times are ISO 8601 strings, with the `id` and the
            // service's own properties.
            Sizing::Json => json::dated_item_size(item, &is_date),
        };
        if size <= limit {
            continue;
        }
        out.push(Warning {
            code: WarningCode::OversizedItem,
            about: Subject::Entity(entity.id()),
            limit_after: None,
            subject: entity.name.clone(),
            engine: est.scenario.engine,
            finding: Finding::OversizedItem { entity: entity.name.clone(), size: size as f64 },
        });
    }
}

/// `unbounded-item`: a parent that embeds every child grows with each one; its busiest item
/// reaches the store's item limit (DynamoDB 400 KB, Cosmos DB 2 MB, MongoDB 16 MB) after (the
/// limit - its own size) / (bytes a child × its children a second), and every later child is
/// refused. A store that holds items to no limit (the Cassandra profile) refuses none.
fn unbounded_items(est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let profile = est.scenario.engine.profile();
    let Some(limit) = profile.item_limit else { return };
    for embed in est.variant.embeds.iter().filter(|e| e.keep_latest.is_none()) {
        // The busiest parent is the child's most picked `by` value (not the parent's partition:
        // a partition may hold many parents).
        let Ok(by) = Template::parse(&format!("{{{}}}", embed.by)) else { continue };
        let slots = [SlotAttrs { reads: embed.by_id().map(ItemAttr::Own), by: None }];
        let by = Bound { entity: embed.entity_id(), template: &by, slots: &slots };
        let element = est.element_bytes(embed);
        let mut per_s = 0.0;
        let mut terms = Vec::new();
        let puts = est.scenario.patterns.iter().filter(|p| p.action == Action::Put);
        for p in puts.filter(|p| p.entity_id() == embed.entity_id()) {
            // What one parent keeps over the run: the newest post is busiest only until the next.
            let share = est.spread(None, by, Some(p)).steady;
            let calls = mean_rate(p, est.secs);
            per_s += calls * share;
            terms.push((p.name.clone(), calls, share));
        }
        if per_s <= 0.0 {
            continue;
        }
        let own = est.item_bytes(embed.into_id()) - est.embedded_children(embed) * element;
        let children = match profile.sizing {
            // A BSON document's array pays its indexes' digits too: the most elements that fit.
            Sizing::Bson => bson_children(limit, own, element),
            // A JSON array's elements each take a comma but the first (those between the
            // average parent's children are in `own` so far).
            Sizing::Json => {
                let own = own - (est.embedded_children(embed) - 1.0).max(0.0);
                ((limit as f64 - own + 1.0) / (element + 1.0)).floor().max(0.0)
            }
            Sizing::Attributes => ((limit as f64 - own) / element).max(0.0),
        };
        let secs = children / per_s;
        out.push(Warning {
            code: WarningCode::UnboundedItem,
            about: Subject::Entity(embed.into_id()),
            limit_after: Some(secs),
            subject: embed.into.clone(),
            engine: est.scenario.engine,
            finding: Finding::UnboundedItem(UnboundedItem {
                parent: embed.into.clone(),
                child: embed.entity.clone(),
                list: embed.as_name.clone(),
                child_bytes: element,
                per_sec: per_s,
                terms,
                children,
                secs,
                within_run: secs <= est.secs,
            }),
        });
    }
}

/// How many elements of `element` bytes (type byte, name terminator and value; the name's
/// digits counted here) an array can hold in a document of `own` bytes besides it, before the
/// document passes `limit` (MongoDB: 16 MB).
fn bson_children(limit: usize, own: f64, element: f64) -> f64 {
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "sizes in bytes")]
    let (own, value) = (own.max(0.0).ceil() as usize, (element - 2.0).max(0.0).ceil() as usize);
    let fits = |n: usize| own + bson::uniform_array_size(n, value) <= limit;
    let (mut lo, mut hi) = (0, limit);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) { lo = mid } else { hi = mid - 1 }
    }
    lo as f64
}

fn pattern_warnings(plan: &PatternPlan, est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let pattern = est.pattern(plan.pattern);
    match plan.operation {
        Some(
            Operation::PutItem | Operation::UpdateItem | Operation::DeleteItem | Operation::DeleteAndPut,
        ) if !plan.served() => {
            out.push(Warning {
                code: WarningCode::Unserved,
                about: Subject::Pattern(plan.pattern),
                limit_after: None,
                subject: plan.name.clone(),
                engine: est.scenario.engine,
                finding: unserved(plan),
            });
        }
        None => out.push(Warning {
            code: WarningCode::Unserved,
            about: Subject::Pattern(plan.pattern),
            limit_after: None,
            subject: plan.name.clone(),
            engine: est.scenario.engine,
            finding: unserved(plan),
        }),
        Some(Operation::Scan) => out.push(scan_warning(plan, pattern, est)),
        _ => {}
    }
    if plan.kind == Kind::Write
        && let Some(amplification) = plan.write_amplification
        && amplification > WRITE_AMPLIFICATION_LIMIT
    {
        out.push(amplification_warning(plan, pattern, est, amplification));
    }
}

fn unserved(plan: &PatternPlan) -> Finding {
    Finding::Unserved { pattern: plan.name.clone(), verdict: plan.verdict.clone() }
}

/// A pattern only a Scan serves: what one call reads, at its rate, and why no key serves it.
fn scan_warning(plan: &PatternPlan, pattern: &AccessPattern, est: &Estimator<'_>) -> Warning {
    Warning {
        code: WarningCode::Scan,
        about: Subject::Pattern(plan.pattern),
        limit_after: None,
        subject: plan.name.clone(),
        engine: est.scenario.engine,
        finding: Finding::Scan(ScanCost {
            pattern: plan.name.clone(),
            items: plan.items_read.unwrap_or(0.0),
            bytes: plan.bytes_read.unwrap_or(0.0),
            secs: est.secs,
            units_per_call: plan.units_per_call,
            calls: mean_rate(pattern, est.secs),
            places: plan.alternatives.iter().map(|a| (a.index.clone(), a.considered.clone())).collect(),
        }),
    }
}

/// A write whose `amplification` is above the limit: every item it writes besides the base one.
fn amplification_warning(
    plan: &PatternPlan,
    pattern: &AccessPattern,
    est: &Estimator<'_>,
    amplification: f64,
) -> Warning {
    let writes = plan
        .writes
        .iter()
        .filter(|w| {
            w.target != WriteTarget::Table && w.target.is_item(est.scenario.engine) && w.per_call > 0.0
        })
        .map(|w| ExtraWrite { target: w.target.clone(), per_call: w.per_call, why: w.why.clone() })
        .collect();
    Warning {
        code: WarningCode::WriteAmplification,
        about: Subject::Pattern(plan.pattern),
        limit_after: None,
        subject: plan.name.clone(),
        engine: est.scenario.engine,
        finding: Finding::WriteAmplification(Amplification {
            pattern: plan.name.clone(),
            amplification,
            writes,
            calls: mean_rate(pattern, est.secs),
        }),
    }
}

/// The table or an index in the engine's words: a Cassandra index is a materialized view.
fn place_name(est: &Estimator<'_>, place: Option<&Index>) -> String {
    match place {
        Some(index) if est.cql() => format!("view {}", index.name),
        Some(_) => label(place),
        // The store's own word: a Cosmos DB container, a MongoDB collection.
        None => est.scenario.engine.words().table.to_owned(),
    }
}

/// The table (`None`) and every index, with its id.
fn places<'a>(est: &Estimator<'a>) -> impl Iterator<Item = (Option<IndexId>, Option<&'a Index>)> {
    let indexes = est.variant.indexes.iter().enumerate();
    std::iter::once((None, None))
        .chain(indexes.map(|(at, index)| (Some(IndexId::new(at, index)), Some(index))))
}

fn keys_in<'a>(
    est: &Estimator<'a>,
    place: Option<&'a Index>,
    entity: EntityId,
) -> Option<&'a crate::engine::model::EntityKeys> {
    match place {
        None => est.variant.keys_for(entity),
        Some(index) => index.keys_for(entity),
    }
}

/// One partition key (per table or index) and the entities whose items share it.
struct Group<'a> {
    place: Option<&'a Index>,
    /// `place`'s id.
    index: Option<IndexId>,
    pk: &'a Template,
    entities: Vec<EntityId>,
}

fn groups<'a>(est: &Estimator<'a>) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    for (index, place) in places(est) {
        for entity in &est.scenario.entities {
            let Some(keys) = keys_in(est, place, entity.id()) else { continue };
            match groups.iter_mut().find(|g| g.index == index && g.pk.source() == keys.pk.source()) {
                Some(g) => g.entities.push(entity.id()),
                None => groups.push(Group {
                    place,
                    index: index.clone(),
                    pk: &keys.pk,
                    entities: vec![entity.id()],
                }),
            }
        }
    }
    groups
}

/// How the busiest value of one partition key fills up over the run.
#[derive(Default)]
struct Growth {
    rows: f64,
    bytes: f64,
    rows_per_sec: f64,
    bytes_per_sec: f64,
    terms: Vec<GrowthTerm>,
    /// The bucket length when the key buckets time.
    bucketed: Option<f64>,
    /// The item lifetime when items expire before the run ends.
    expiring: Option<f64>,
    /// Of that lifetime, the part until the item expires (the rest is the deletion delay).
    expiry: Option<f64>,
    sort_keys: Vec<String>,
    /// The entities whose puts fill it.
    entities: Vec<EntityId>,
}

fn growth(est: &Estimator<'_>, group: &Group<'_>) -> Growth {
    let mut g = Growth::default();
    for &entity in group.entities.iter().filter(|&&e| est.creates_new(e)) {
        // The group's key, bound on this entity's items (its attributes sit where they sit).
        let Some(keys) = keys_in(est, group.place, entity) else { continue };
        let presence = est.presence(entity, group.place);
        let size = est.entry_bytes(group.place, entity)
            + if group.place.is_some() { INDEX_OVERHEAD_BYTES } else { 0.0 };
        let lifetime = est.lifetime(entity);
        for p in est.scenario.patterns.iter().filter(|p| p.action == Action::Put && p.entity_id() == entity) {
            let spread = est.spread(group.place, keys.pk_bound(), Some(p));
            // Growth accumulates over the run: the average rate, and the share the busiest value
            // keeps over time.
            let per_sec = mean_rate(p, est.secs) * presence * spread.steady;
            if per_sec <= 0.0 {
                continue;
            }
            let window = spread.bucket_secs.map_or(lifetime, |bucket| bucket.min(lifetime));
            g.bucketed = spread.bucket_secs.or(g.bucketed);
            if lifetime < est.secs {
                g.expiring = Some(lifetime);
                g.expiry = est.expiry(entity);
            }
            g.rows += per_sec * window;
            g.bytes += per_sec * window * size;
            g.rows_per_sec += per_sec;
            g.bytes_per_sec += per_sec * size;
            if !g.entities.contains(&entity) {
                g.entities.push(entity);
            }
            g.terms.push(GrowthTerm {
                pattern: p.name.clone(),
                calls: mean_rate(p, est.secs),
                share: spread.steady * presence,
                notes: spread.notes.clone(),
                per_sec,
                size,
            });
        }
        if let Some(sk) = keys_in(est, group.place, entity).and_then(|k| k.sk.as_ref()) {
            g.sort_keys.push(sk.source().to_owned());
        }
    }
    g
}

/// The busiest value of one partition key (of the table or an index) after `est.secs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Busiest {
    /// `table CH#{channel_id}`, `index by-user USER#{user_id}`.
    pub subject: String,
    pub rows: f64,
    pub bytes: f64,
    pub bytes_per_sec: f64,
    /// The bucket length or item lifetime that stops its growth, if any.
    pub window: Option<f64>,
}

/// Every partition key that puts fill, with how big its busiest value gets after `est.secs`:
/// the same arithmetic `unbounded-partition` and `large-partition` report.
pub fn busiest(est: &Estimator<'_>) -> Vec<Busiest> {
    groups(est)
        .iter()
        .filter_map(|group| {
            let g = growth(est, group);
            (!g.terms.is_empty()).then(|| Busiest {
                subject: format!("{} {}", place_name(est, group.place), group.pk.source()),
                rows: g.rows,
                bytes: g.bytes,
                bytes_per_sec: g.bytes_per_sec,
                window: match (g.bucketed, g.expiring) {
                    (Some(b), Some(l)) => Some(b.min(l)),
                    (b, l) => b.or(l),
                },
            })
        })
        .collect()
}

/// `unbounded-partition` and `large-partition`: how big the biggest partition of each key gets.
fn partitions(est: &Estimator<'_>, out: &mut Vec<Warning>) {
    let (limit_bytes, limit_rows) = super::partition_limits(est.scenario.engine);
    for group in groups(est) {
        let g = growth(est, &group);
        if g.terms.is_empty() || (g.bytes <= limit_bytes && limit_rows.is_none_or(|r| g.rows <= r)) {
            continue;
        }
        let guidance = match est.scenario.engine.profile().partition_guide.guidance {
            Guidance::DynamoDb
                if est.variant.indexes.iter().any(|i| i.kind == IndexKind::Local)
                    && group.place.is_none_or(|i| i.kind == IndexKind::Local) =>
            {
                Guidance::LocalIndex
            }
            store => store,
        };
        let reached = limit_rows.map_or(limit_bytes / g.bytes_per_sec, |r| {
            (limit_bytes / g.bytes_per_sec).min(r / g.rows_per_sec)
        });
        let window =
            est.secs.min(g.bucketed.unwrap_or(f64::INFINITY)).min(g.expiring.unwrap_or(f64::INFINITY));
        let (code, shape) = match (g.bucketed, g.expiring) {
            (Some(secs), _) => (WarningCode::LargePartition, Shape::Bucketed { secs }),
            (None, Some(life)) => (
                WarningCode::LargePartition,
                Shape::Expiring {
                    life,
                    expiry: g
                        .expiry
                        .filter(|_| est.deletion_delay() > 0.0)
                        .map(|expiry| (expiry, est.deletion_delay())),
                },
            ),
            (None, None) => (WarningCode::UnboundedPartition, Shape::Unbounded { sort_keys: g.sort_keys }),
        };
        out.push(Warning {
            code,
            about: Subject::PartitionKey { index: group.index.clone(), entities: g.entities },
            limit_after: Some(reached),
            subject: format!("{} {}", place_name(est, group.place), group.pk.source()),
            engine: est.scenario.engine,
            finding: Finding::Partition(PartitionGrowth {
                pk: group.pk.source().to_owned(),
                place: place_name(est, group.place),
                shape,
                terms: g.terms,
                rows: g.rows,
                bytes: g.bytes,
                window,
                guidance,
                reached,
            }),
        });
    }
}

/// Units per second at peak on the busiest value of one partition key.
#[derive(Default)]
struct Load {
    wcu: f64,
    rcu: f64,
    terms: Vec<LoadTerm>,
    single_item: bool,
    /// The most write units one call puts on the busiest value at once, when that alone is
    /// more than a partition serves in a second (a rename rewriting every copy under the
    /// popular source's key).
    burst: Option<CopyBurst>,
    /// Where the key is: the table (`None`) or an index.
    index: Option<IndexId>,
    /// The entities whose items the load lands on, in the order their load was counted.
    entities: Vec<EntityId>,
}

/// The load on the busiest value of `pk` in `index` (`None`: the table), counting `entity`'s
/// items among those it lands on.
fn load_on<'l>(
    est: &Estimator<'_>,
    loads: &'l mut BTreeMap<String, Load>,
    index: Option<&IndexId>,
    place: Option<&Index>,
    pk: &Template,
    entity: EntityId,
) -> &'l mut Load {
    // The table in the store's word (a container, a collection); an index by its label.
    let name = if place.is_some() { label(place) } else { est.scenario.engine.words().table.to_owned() };
    let load = loads.entry(format!("{name} {}", pk.source())).or_default();
    load.index = index.cloned();
    if !load.entities.contains(&entity) {
        load.entities.push(entity);
    }
    load
}

/// The write units a write pattern puts on the busiest value of each key it writes: its own
/// item and index entries, and the aggregates, copies and appends it makes, each weighted by
/// how the pattern's pick of a key reaches the key the write lands on.
fn write_loads(
    est: &Estimator<'_>,
    plan: &PatternPlan,
    p: &AccessPattern,
    loads: &mut BTreeMap<String, Load>,
) {
    let peak = peak_rate(p);
    let mut conditioned = plan.condition.as_ref();
    // A refused create-once put writes nothing but its charge (counted below as a failed
    // condition): its item, index entries and aggregates land on the calls that find the key
    // free. A lost version race is retried, so every call's writes land.
    let landing = match (&p.condition, &plan.condition) {
        (Some(Condition::NotExists), Some(c)) => Some(1.0 - c.failure_rate),
        _ => None,
    };
    for w in plan.writes.iter().filter(|w| w.per_call > 0.0) {
        let place = w.target.index().map(|id| id.resolve(est.variant));
        let Some(keys) = keys_in(est, place, w.lands.entity) else { continue };
        let spread = landing_spread(est, w, p, place, keys);
        let units = peak * spread.hottest * landing.unwrap_or(1.0) * w.per_call * w.units_each;
        let load = load_on(est, loads, w.target.index(), place, &keys.pk, w.lands.entity);
        load.wcu += units;
        // A table item that is overwritten in place (no fresh id or time in its key, no sort key
        // slot). An index partition holds the entries of every item sharing its key, so a split
        // by sort key range can still spread it.
        load.single_item |= place.is_none()
            && !est.creates_new(w.lands.entity)
            && keys.sk.as_ref().is_none_or(|sk| sk.parts().iter().all(|part| part.attribute().is_none()));
        if let Some(burst) = copy_burst(est, w, p, &keys.pk, spread.hottest)
            && load.burst.as_ref().is_none_or(|b| b.units < burst.units)
        {
            load.burst = Some(burst);
        }
        load.terms.push(LoadTerm::Write {
            pattern: p.name.clone(),
            via: w.lands.via,
            entity: est.entity(w.lands.entity).name.clone(),
            peak,
            share: spread.hottest,
            notes: spread.notes.clone(),
            landed: landing,
            units_each: w.units_each,
            per_call: w.per_call,
            units,
        });
        // A conditional write's failed attempts (and a version check's reads) land on its own
        // item's key too, at the busiest item's chance of losing.
        if w.lands.via == Via::Own
            && place.is_none()
            && let Some(c) = conditioned.take()
        {
            let lose = c.busiest.map_or(c.failure_rate, |(_, chance)| chance);
            let calls = peak * spread.hottest;
            let failed = calls * lose * c.failed_units_each;
            let read = c.read_units_per_call / (1.0 + c.failure_rate);
            let reads = calls * (1.0 + lose) * read;
            load.wcu += failed;
            load.rcu += reads;
            load.terms.push(LoadTerm::FailedConditions {
                pattern: p.name.clone(),
                calls,
                lose,
                units_each: c.failed_units_each,
                units: failed,
            });
            if reads > 0.0 {
                load.terms.push(LoadTerm::ReadsBeforeWriting { pattern: p.name.clone(), units: reads });
            }
        }
    }
}

/// A copy whose holders share the source's key (`REPO#{repo_id}` for the stars of a repo)
/// lands every copy one call rewrites on one partition, at once: the call that picks the
/// source with the most copies (`hottest` of them, at the end of the run) writes them all there.
/// Past what a partition serves in a second, that call throttles whatever the pattern's rate.
fn copy_burst(
    est: &Estimator<'_>,
    w: &ItemWrite,
    p: &AccessPattern,
    pk: &Template,
    hottest: f64,
) -> Option<CopyBurst> {
    if w.lands.via != Via::Copy {
        return None;
    }
    let copy =
        est.variant.copies.iter().find(|c| c.ids.from() == p.entity_id() && c.ids.to() == w.lands.entity)?;
    if pk.attributes().any(|a| a != copy.by) || pk.attributes().next().is_none() {
        return None;
    }
    let copies = est.items_total(copy.ids.to()) * hottest;
    let units = copies * w.units_each;
    (units > PARTITION_WCU).then(|| CopyBurst {
        pattern: p.name.clone(),
        source: copy.from.clone(),
        copy: copy.to.clone(),
        copies,
        units,
    })
}

/// How a write pattern's calls spread over the values of `pk` its write `w` lands on. An
/// aggregate or an append lands on the key the triggering item names (`CUSTOMER#{customer_id}`
/// of the order), so it follows the pattern's pick of those attributes; a copy lands on every
/// item referring to the source, spread as those items are.
fn landing_spread(
    est: &Estimator<'_>,
    w: &ItemWrite,
    p: &AccessPattern,
    place: Option<&Index>,
    keys: &EntityKeys,
) -> Spread {
    // `keys` are those of the entity the write lands on.
    let pk = keys.pk_bound();
    match w.lands.via {
        Via::Own => est.spread(place, pk, Some(p)),
        Via::Aggregate | Via::Append => {
            // The triggering item names every attribute of the key: the write follows its pick.
            let trigger = est.entity(p.entity_id());
            let carries = |attr: Option<ItemAttr>| attr.and_then(|a| est.generator_of(trigger, a)).is_some();
            let named = keys.pk_bound_on(p.entity_id()).filter(|on| {
                on.parts().all(|(part, slot)| {
                    (part.class().is_none() || carries(slot.by))
                        && (part.attribute().is_none() || carries(slot.reads))
                })
            });
            match named {
                Some(on) => est.spread(place, on, Some(p)),
                None => est.spread(place, pk, None),
            }
        }
        Via::Copy => est.spread(place, pk, None),
    }
}

/// The read units a read pattern puts on the busiest partition it reads.
fn read_load(est: &Estimator<'_>, plan: &PatternPlan, p: &AccessPattern, loads: &mut BTreeMap<String, Load>) {
    if !matches!(plan.operation, Some(Operation::GetItem | Operation::BatchGetItem | Operation::Query)) {
        return;
    }
    let place = plan.index.as_ref().map(|id| id.resolve(est.variant));
    let Some(keys) = keys_in(est, place, p.entity_id()) else { return };
    // A reader that fans out over shards or hashes sends each call to every one of them; one
    // that knows the hashed attribute hits only its own shard.
    let spread = est.read_spread(place, keys.pk_bound(), p);
    // The fetch of unprojected attributes lands on the table's partitions, not on this key's.
    // Behind a read-through cache only the busiest key's own misses reach its partition: a key
    // asked thousands of times a second is almost always a hit.
    let (uncached, hit) = match plan.cache.as_ref().filter(|c| c.applies) {
        Some(c) => (c.uncached_units_per_call, super::cache::key_hit(est, p, peak_rate(p) * spread.hottest)),
        None => (plan.units_per_call, 0.0),
    };
    let own_units = uncached - plan.fetch.as_ref().map_or(0.0, |f| f.units);
    let per_request = own_units * (1.0 - hit) / f64::from(plan.fanout.max(1));
    let units = peak_rate(p) * spread.hottest * per_request;
    let load = load_on(est, loads, plan.index.as_ref(), place, &keys.pk, p.entity_id());
    load.rcu += units;
    load.terms.push(LoadTerm::Read {
        pattern: p.name.clone(),
        peak: peak_rate(p),
        share: spread.hottest,
        notes: spread.notes.clone(),
        missing_cache: plan.cache.as_ref().is_some_and(|c| c.applies).then_some(1.0 - hit),
        per_request: own_units / f64::from(plan.fanout.max(1)),
        units,
    });
}

/// `hot-partition`: the busiest partition key value's units per second at peak rates.
fn hot_partitions(est: &Estimator<'_>, plans: &[PatternPlan], out: &mut Vec<Warning>) {
    let mut loads: BTreeMap<String, Load> = BTreeMap::new();
    for plan in plans {
        let p = est.pattern(plan.pattern);
        match plan.kind {
            Kind::Write => write_loads(est, plan, p, &mut loads),
            Kind::Read => read_load(est, plan, p, &mut loads),
        }
        // A write that reads its key first loads the partitions that read lands on too.
        if let Some(locate) = &plan.locate {
            read_load(est, locate, &p.locating(), &mut loads);
        }
    }
    // Cosmos DB: one logical partition lives on one physical partition, whose share of the
    // container's throughput its reads and writes together must fit in.
    let ru_share = est.scenario.engine.profile().request_units().then(|| {
        let throughput = est.variant.cosmos_throughput();
        cosmos::partition_share(throughput.ceiling(), throughput.initial_partitions())
    });
    for (subject, load) in loads {
        if let Some(share) = ru_share {
            if load.rcu + load.wcu > share {
                out.push(Warning {
                    code: WarningCode::HotPartition,
                    about: Subject::PartitionKey { index: load.index, entities: load.entities },
                    subject: subject.clone(),
                    limit_after: None,
                    engine: est.scenario.engine,
                    finding: Finding::HotPartition(HotLoad {
                        subject,
                        wcu: Some(load.wcu),
                        rcu: Some(load.rcu),
                        terms: load.terms,
                        single_item: load.single_item,
                        burst: None,
                        ru_share: Some(share),
                    }),
                });
            }
            continue;
        }
        let wcu = (load.wcu > PARTITION_WCU).then_some(load.wcu);
        let rcu = (load.rcu > PARTITION_RCU).then_some(load.rcu);
        if wcu.is_none() && rcu.is_none() && load.burst.is_none() {
            continue;
        }
        out.push(Warning {
            code: WarningCode::HotPartition,
            about: Subject::PartitionKey { index: load.index, entities: load.entities },
            subject: subject.clone(),
            limit_after: None,
            engine: est.scenario.engine,
            finding: Finding::HotPartition(HotLoad {
                subject,
                wcu,
                rcu,
                terms: load.terms,
                single_item: load.single_item,
                burst: load.burst,
                ru_share: None,
            }),
        });
    }
}

/// `low-cardinality-index`: a global index whose partition key takes only a few values (a status,
/// a type) gathers all its writes and storage on a few partitions. An index with `only_when` is
/// exempt: it is sparse by design, holding only the few items it answers. An index that is
/// sparse only because an attribute is sometimes absent is not: what it holds still lands on
/// those few values.
fn low_cardinality(est: &Estimator<'_>, plans: &[PatternPlan], out: &mut Vec<Warning>) {
    let indexes = est.variant.indexes.iter().enumerate();
    for (position, index) in indexes.filter(|(_, i)| i.kind == IndexKind::Global && i.only_when.is_none()) {
        for keys in &index.keys {
            let presence = est.presence(keys.entity_id(), Some(index));
            if presence <= 0.0 {
                continue;
            }
            let spread = est.spread(Some(index), keys.pk_bound(), None);
            if spread.bucket_secs.is_some() || spread.distinct > LOW_CARDINALITY {
                continue;
            }
            let items = est.items_total(keys.entity_id()) * presence;
            let entry = est.entry_bytes(Some(index), keys.entity_id()) + INDEX_OVERHEAD_BYTES;
            // Every entry write that lands in the index for this entity: the entity's own
            // writes and the aggregates, copies and appends other patterns make.
            let writes: f64 = plans
                .iter()
                .flat_map(|plan| plan.writes.iter().map(move |w| (plan, w)))
                .filter(|(_, w)| {
                    w.lands.entity == keys.entity_id()
                        && w.target.index().is_some_and(|id| id.position() == position)
                })
                .map(|(plan, w)| plan.peak_rate * w.per_call)
                .sum();
            out.push(Warning {
                code: WarningCode::LowCardinalityIndex,
                about: Subject::PartitionKey {
                    index: Some(IndexId::new(position, index)),
                    entities: vec![keys.entity_id()],
                },
                limit_after: None,
                subject: format!("{} {}", place_name(est, Some(index)), keys.pk.source()),
                engine: est.scenario.engine,
                finding: Finding::LowCardinality(LowCardinality {
                    place: place_name(est, Some(index)),
                    pk: keys.pk.source().to_owned(),
                    distinct: spread.distinct,
                    notes: spread.notes,
                    hottest: spread.hottest,
                    items,
                    entity: keys.entity.clone(),
                    entry_bytes: entry,
                    secs: est.secs,
                    writes,
                }),
            });
        }
    }
}

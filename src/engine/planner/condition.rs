//! Conditional writes, predicted: how often a write's condition fails and what that costs.
//!
//! DynamoDB refuses a write whose ConditionExpression is false (ConditionalCheckFailedException)
//! and still charges it: the larger of the stored and the would-be item in write units, at
//! least 1 (AWS developer guide, "DynamoDB read and write operations";
//! `store::failed_write_units`). A refused write writes nothing else: no index entry, no
//! aggregate.
//!
//! - `NotExists` (create once): refused when an item holds the key already — the share of puts
//!   that land on a taken key, by the `key-collision` arithmetic (`collision::taken_share`).
//!   Those are not lost writes: the caller learns the key is taken.
//! - `Version(v)` (optimistic concurrency): keyheat's own contention model, which the replay
//!   runs (`sim::exec::condition`). The caller reads the item (GetItem, strongly consistent),
//!   then updates it on `v = :read`; the time between the two is exponential with mean
//!   [`VERSION_WINDOW_MS`]. A call loses when the previous version-checked update of the same
//!   item landed within that time; the loser's write fails (charged), it reads again and its
//!   retry lands. The pattern's calls come evenly spaced, 1/λ apart, each picking item i with
//!   chance qᵢ: the k-th call back lies inside the window with chance rᵏ, r = e^(−1/(λ·W)), so a
//!   call on item i loses with chance r·qᵢ / (1 − r + r·qᵢ), and the pattern's calls with
//!   Σ qᵢ · r·qᵢ / (1 − r + r·qᵢ).

use super::estimate::Estimator;
use super::load::mean_rate;
use super::warnings::collision::taken_share;
use crate::engine::model::{AccessPattern, Aggregate, AggregateOp, Bound, Condition, Generator, ItemAttr};
use crate::engine::store::{failed_write_units, read_units};
use crate::engine::template::Part;

/// The mean time between a version-checked update's read and its write, in milliseconds: the
/// modelled GetItem and UpdateItem latencies (4 ms each, `sim::latency`). keyheat's assumption.
pub const VERSION_WINDOW_MS: f64 = 8.0;

/// A predicted failure share above which a version check is flagged (`version-contention`).
pub const CONTENTION_LIMIT: f64 = 0.10;

/// What a pattern's condition does to its calls.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ConditionPlan {
    /// The ConditionExpression sent (`attribute_not_exists(PK)`, `version = :read`).
    pub expression: String,
    /// The share of calls whose condition fails.
    pub failure_rate: f64,
    /// Write units each failed condition is charged.
    pub failed_units_each: f64,
    /// Read units per call: a version check's read (and its re-read after a lost race),
    /// strongly consistent. 0 for a create-once put.
    pub read_units_per_call: f64,
    /// For a version check: the busiest item's share of the calls and its chance to lose.
    pub busiest: Option<(f64, f64)>,
    /// The arithmetic, as values: `report::findings` words it (and writes it as `why` in
    /// `check`'s JSON).
    pub why: ConditionWhy,
}

/// Why a condition fails as often as it does, and what a failure does.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionWhy {
    /// A create-once put: `share` of the puts land on a key another `entity` item holds,
    /// counted key by key over the members each put picks (`by_member`) or by the key-collision
    /// arithmetic; each is refused and charged `failed_units` WCU (in a `transaction`, the
    /// whole transaction is cancelled).
    Refused { share: f64, entity: String, by_member: bool, transaction: bool, failed_units: f64 },
    /// A version check: each call reads the item first (`read` RCU for `item_bytes`); at `calls`
    /// a second the busiest item takes `busiest` of them and loses `lose` of its races; overall
    /// `chance` fail, each charged `failed_units` WCU.
    Version {
        read: f64,
        item_bytes: f64,
        calls: f64,
        busiest: f64,
        lose: f64,
        chance: f64,
        failed_units: f64,
    },
    /// A claim: `share` of the puts claim a value another put claimed first (`None`: not
    /// predicted); in a `transaction` a taken claim cancels the put, else the put has landed
    /// and `entity` now has two items with the value. A failed claim is charged `failed_units`.
    Claim { share: Option<f64>, entity: String, transaction: bool, failed_units: f64 },
}

/// The chance that a version-checked update of an item taking `share` of a pattern's calls
/// loses its race, at `calls_per_s` calls a second (see the module's docs).
pub fn conflict_chance(share: f64, calls_per_s: f64) -> f64 {
    if share <= 0.0 || calls_per_s <= 0.0 {
        return 0.0;
    }
    let r = (-1000.0 / (calls_per_s * VERSION_WINDOW_MS)).exp();
    r * share / (1.0 - r + r * share)
}

/// The condition's plan, or `None` for an unconditional write.
pub fn plan(est: &Estimator<'_>, p: &AccessPattern) -> Option<ConditionPlan> {
    let condition = p.condition.as_ref()?;
    let item = est.item_bytes(p.entity_id());
    let whole = super::numbers::floor_u64(item.ceil());
    let failed_units_each = failed_write_units(whole, whole);
    Some(match condition {
        Condition::NotExists => {
            let (share, by_member) = match picked_taken_share(est, p) {
                Some(share) => (share, true),
                None => (taken_share(est, p.entity_id()), false),
            };
            ConditionPlan {
                expression: "attribute_not_exists(PK)".to_owned(),
                failure_rate: share,
                failed_units_each,
                read_units_per_call: 0.0,
                busiest: None,
                why: ConditionWhy::Refused {
                    share,
                    entity: p.entity.clone(),
                    by_member,
                    transaction: p.transaction,
                    failed_units: failed_units_each,
                },
            }
        }
        Condition::Version(attribute) => {
            let calls = mean_rate(p, est.secs);
            let shares = item_shares(est, p);
            let chance: f64 = shares.iter().map(|&q| q * conflict_chance(q, calls)).sum();
            let busiest = shares.iter().copied().fold(0.0, f64::max);
            let read = read_units(whole, true);
            ConditionPlan {
                expression: format!("{attribute} = :read"),
                failure_rate: chance,
                failed_units_each,
                read_units_per_call: read * (1.0 + chance),
                busiest: Some((busiest, conflict_chance(busiest, calls))),
                why: ConditionWhy::Version {
                    read,
                    item_bytes: item,
                    calls,
                    busiest,
                    lose: conflict_chance(busiest, calls),
                    chance,
                    failed_units: failed_units_each,
                },
            }
        }
    })
}

/// The claims a put takes (`aggregates` with `op: Claim` whose `on` names it): how often the
/// claimed value is taken already, and what that does. In a transaction the taken claim cancels
/// the put (TransactionCanceledException), charged as a failed conditional write of the claim;
/// without one the put is a request of its own that has landed before the claim's PutItem is
/// refused — a duplicate of a value the claim was there to keep unique.
pub fn claim(est: &Estimator<'_>, p: &AccessPattern) -> Option<ConditionPlan> {
    let claims: Vec<&Aggregate> =
        est.variant.aggregates.iter().filter(|a| a.op == AggregateOp::Claim && a.ids.on(p.id())).collect();
    let first = claims.first()?;
    let mut free = 1.0;
    let mut counted = true;
    for a in &claims {
        // Every put of the claim's triggers claims from the same items.
        let puts: f64 = est
            .scenario
            .patterns
            .iter()
            .filter(|x| a.ids.on(x.id()))
            .map(|x| mean_rate(x, est.secs) * est.secs)
            .sum();
        let on = p.entity_id();
        let keys = est.variant.keys_for(a.ids.entity());
        match keys.and_then(|k| taken_share_of_picks(est, k.pk_bound_on(on)?, k.sk_bound_on(on), p, puts)) {
            Some(share) => free *= 1.0 - share,
            None => counted = false,
        }
    }
    let share = 1.0 - free;
    let whole = super::numbers::floor_u64(est.item_bytes(first.ids.entity()).ceil());
    let failed_units_each = failed_write_units(whole, whole);
    let names: Vec<&str> = claims.iter().map(|a| a.entity.as_str()).collect();
    Some(ConditionPlan {
        expression: format!("attribute_not_exists(PK) on {}", names.join(", ")),
        failure_rate: share,
        failed_units_each,
        read_units_per_call: 0.0,
        busiest: None,
        why: ConditionWhy::Claim {
            share: counted.then_some(share),
            entity: p.entity.clone(),
            transaction: p.transaction,
            failed_units: failed_units_each,
        },
    })
}

/// Keys this many values or fewer are counted value by value.
const MAX_JOINT_KEYS: f64 = 2e6;

/// The share of a create-once put's calls refused, counted key by key when its key is made of
/// members the put picks from populations (`EVENT#{event_id}` / `SEAT#{seat}`): each key value
/// takes the product of its members' shares, qₖ, of the n puts of the run, and of the nqₖ that
/// land on it all but the first find it taken (Poisson: nqₖ − (1 − e^(−nqₖ))). Picks are
/// independent, so a hot event's seats fill up as fast as its share says — which the
/// `key-collision` arithmetic (the busiest single value and an even rest) cannot see. `None`
/// when the key holds anything else (a time, a shard, a generated value), or too many values.
fn picked_taken_share(est: &Estimator<'_>, p: &AccessPattern) -> Option<f64> {
    // Other puts of the entity fill the same keys; the initial load starts with none here.
    if est.entity(p.entity_id()).owned_population().is_some() {
        return None;
    }
    let puts: f64 = est
        .scenario
        .patterns
        .iter()
        .filter(|x| x.action == crate::engine::model::Action::Put && x.entity_id() == p.entity_id())
        .map(|x| mean_rate(x, est.secs) * est.secs)
        .sum();
    let keys = est.variant.keys_for(p.entity_id())?;
    taken_share_of_picks(est, keys.pk_bound(), keys.sk_bound(), p, puts)
}

/// The share of `puts` puts (of `p`'s entity, drawing their members as `p` does) that find the
/// item they create, keyed by `pk` and `sk`, taken, counted key by key (see
/// `picked_taken_share`). The keys are bound on the items of `p`'s entity.
fn taken_share_of_picks(
    est: &Estimator<'_>,
    pk: Bound<'_>,
    sk: Option<Bound<'_>>,
    p: &AccessPattern,
    puts: f64,
) -> Option<f64> {
    let e = est.entity(p.entity_id());
    let mut joint = vec![1.0];
    let mut seen: Vec<ItemAttr> = Vec::new();
    for (part, slot) in pk.parts().chain(sk.into_iter().flat_map(Bound::parts)) {
        match part {
            Part::Literal(_) => continue,
            Part::Attr { .. } => {}
            _ => return None,
        }
        let attr = slot.reads?;
        if seen.contains(&attr) {
            continue;
        }
        seen.push(attr);
        let Some(Generator::Pick(pop)) = est.generator_of(e, attr) else { return None };
        let population = est.scenario.population(pop);
        let popularity = est.pick_popularity(e, attr, p)?;
        let n = super::numbers::floor_u64(est.population_size(population)).max(1);
        if joint.len() as f64 * n as f64 > MAX_JOINT_KEYS {
            return None;
        }
        let shares = popularity.shares(n, est.scenario.workload.seed);
        joint = joint.iter().flat_map(|a| shares.iter().map(move |b| a * b)).collect();
    }
    if puts <= 0.0 {
        return Some(0.0);
    }
    let taken: f64 = joint.iter().map(|q| puts * q - (-(-puts * q).exp_m1())).sum();
    Some((taken / puts).clamp(0.0, 1.0))
}

/// The share of the pattern's calls each item takes: its first given attribute's popularity
/// over the population, or every call on one item when there is none.
pub(super) fn item_shares(est: &Estimator<'_>, p: &AccessPattern) -> Vec<f64> {
    let e = est.entity(p.entity_id());
    let picked = p.given_ids().first().and_then(|&given| {
        let attr = ItemAttr::Own(given);
        let popularity = est.pick_popularity(e, attr, p)?;
        let population = match est.generator_of(e, attr)? {
            crate::engine::model::Generator::Pick(pop) | crate::engine::model::Generator::New(pop) => {
                est.scenario.population(pop)
            }
            _ => return None,
        };
        let n = super::numbers::floor_u64(est.population_size(population)).max(1);
        Some(popularity.shares(n, est.scenario.workload.seed))
    });
    let shares = picked.unwrap_or_else(|| vec![1.0]);
    // A write shard in the key (`ACCT#{account_id}#{shard(8)}`) spreads each member's calls
    // evenly over that many items.
    let spread_over: u32 = est.variant.keys_for(p.entity_id()).map_or(1, |k| {
        k.pk.parts()
            .iter()
            .chain(k.sk.iter().flat_map(|sk| sk.parts().iter()))
            .map(|part| if let Part::Shard { count } = part { *count } else { 1 })
            .product()
    });
    if spread_over <= 1 {
        return shares;
    }
    let each = 1.0 / f64::from(spread_over);
    shares.iter().flat_map(|&q| std::iter::repeat_n(q * each, spread_over as usize)).collect()
}

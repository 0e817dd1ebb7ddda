//! The per-call figures `check` cannot predict from the file alone. The planner's arithmetic is
//! a steady state: every key read exists, every parent is average. Where a pattern's figure
//! depends instead on *when* in the run a call comes — on how far the writes have got — `check`
//! says `?` and why, rather than a number the replay will not measure (issue 11). The planner
//! keeps its steady-state figure for the load checks; only what it shows as a prediction
//! changes.
//!
//! Each rule names one dependence on time:
//! - **newest first** — a read and the write that fills its items both pick the newest member
//!   (`Latest`): the member read is still gaining its items.
//! - **not there yet** — a read of exact keys of an entity that has no items when the run
//!   starts, and whose writes over the run are too few per key to fill it: a key exists once
//!   the run's writes create it (and throttled writes create it later). A key that does not exist still costs its read (AWS developer guide, "Read
//!   consumption": a GetItem of a missing item consumes the minimum), so only the items found
//!   are unknown.
//! - **a parent apart** — an append to an embedded list in a parent the pattern picks far more
//!   often than the others over the run: each append rewrites that parent whole, and its list
//!   is far longer than the average parent's the planner sizes (and, unbounded, grows through
//!   the run toward 400 KB).

use serde::Serialize;

use super::estimate::Estimator;
use super::load::{mean_rate, steady_share};
use super::{Kind, Operation, PatternPlan, Via};
use crate::engine::model::{AccessPattern, Action, Generator, Members};
use crate::engine::workload::Popularity;

/// A pattern's figures `check` shows as `?`, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unpredictable {
    /// The items a read call finds.
    pub items: bool,
    /// The read or write units a call costs.
    pub units: bool,
    /// Why, as values: `report::findings` words it (and writes it as `why` in `check`'s JSON).
    pub why: UnpredictableWhy,
}

/// Why a pattern's figures depend on when a call comes.
#[derive(Debug, Clone, PartialEq)]
pub enum UnpredictableWhy {
    /// `given` is picked newest first both by this read and by `filler`, which writes the
    /// `entity` items it lists.
    Newest { given: String, filler: String, entity: String },
    /// `entity` starts empty: its `writers` (none: an aggregate) make `creating` writes over
    /// the run for `keys` possible keys.
    NotThereYet { entity: String, writers: Vec<String>, creating: f64, keys: f64 },
    /// Each append rewrites the whole `parent`, and the pattern picks one `by` `times` as often
    /// as an even pick would; `kept`: the newest children the parent keeps; `units`: what check
    /// charges an average parent.
    ParentApart { parent: String, by: String, times: f64, list: String, kept: Option<u32>, units: f64 },
}

/// A pick this much more concentrated than an even one makes one parent grow apart from the
/// rest.
const SKEWED: f64 = 10.0;

/// With this many writes per key over the run, an even pick leaves ~5% of reads (1/x averaged
/// over the run) asking a key that does not exist yet: close enough to "every key is there".
const FILLED: f64 = 20.0;

/// Marks the patterns whose figures depend on when a call comes, and takes the number out of
/// the words that explain their plan.
pub fn mark(est: &Estimator<'_>, patterns: &mut [PatternPlan]) {
    for plan in patterns.iter_mut() {
        let p = est.pattern(plan.pattern);
        let found = match plan.kind {
            Kind::Read if plan.served() => newest_first(est, p, plan).or_else(|| not_there_yet(est, p, plan)),
            Kind::Write => parent_apart(est, p, plan),
            Kind::Read => None,
        };
        if let Some(unknown) = found {
            if unknown.items
                && let (Some(items), Some(bytes)) = (plan.items_read, plan.bytes_read)
            {
                plan.verdict.hide_items(items, bytes);
            }
            plan.unpredictable = Some(unknown);
        }
    }
}

/// The popularity with which `p` picks from `population`: its own `keys` when it gives one.
fn pick<'a>(est: &Estimator<'a>, p: &'a AccessPattern, population: &Members) -> &'a Popularity {
    p.keys.as_ref().unwrap_or_else(|| &est.scenario.population(population).popularity)
}

/// A read of the children of the newest member, filled by a write that also picks the newest.
fn newest_first(est: &Estimator<'_>, p: &AccessPattern, plan: &PatternPlan) -> Option<Unpredictable> {
    if p.action != Action::List {
        return None;
    }
    let entity = est.entity(p.entity_id());
    p.given_ids().iter().find_map(|&id| {
        let attribute = &entity.attributes[id.index()];
        let (given, Generator::Pick(population)) = (&attribute.name, &attribute.generator) else {
            return None;
        };
        if pick(est, p, population) != &Popularity::Latest {
            return None;
        }
        let filler = est
            .scenario
            .patterns
            .iter()
            .filter(|w| w.action == Action::Put && w.entity_id() == p.entity_id())
            .find(|w| pick(est, w, population) == &Popularity::Latest)?;
        Some(Unpredictable {
            items: true,
            // A request under one read unit costs its minimum whatever it finds.
            units: plan.bytes_read.unwrap_or(0.0) / f64::from(plan.fanout.max(1))
                > crate::engine::store::READ_UNIT_BYTES as f64,
            why: UnpredictableWhy::Newest {
                given: given.clone(),
                filler: filler.name.clone(),
                entity: p.entity.clone(),
            },
        })
    })
}

/// A read of exact keys of an entity the run's writes create, too few times per key for nearly
/// every key to exist by the time it is asked.
fn not_there_yet(est: &Estimator<'_>, p: &AccessPattern, plan: &PatternPlan) -> Option<Unpredictable> {
    if !matches!(plan.operation, Some(Operation::GetItem | Operation::BatchGetItem)) {
        return None;
    }
    let entity = est.entity(p.entity_id());
    let preloaded =
        entity.owned_population().map(|x| est.scenario.population(x)).is_some_and(|x| x.count > 0);
    let writers: Vec<&AccessPattern> = est
        .scenario
        .patterns
        .iter()
        .filter(|w| w.entity_id() == p.entity_id() && matches!(w.action, Action::Put | Action::Update))
        .collect();
    let keys = est.key_space(p.entity_id());
    let creating = (writers.iter().map(|w| mean_rate(w, est.secs)).sum::<f64>()
        + est.aggregate_rate(p.entity_id()))
        * est.secs;
    if preloaded || creating <= 0.0 || !keys.is_finite() || creating >= FILLED * keys {
        return None;
    }
    Some(Unpredictable {
        items: true,
        units: false,
        why: UnpredictableWhy::NotThereYet {
            entity: p.entity.clone(),
            writers: writers.iter().map(|w| w.name.clone()).collect(),
            creating,
            keys,
        },
    })
}

/// An append that rewrites a parent the pattern picks far more often than the rest: its units,
/// on a store that charges any (Cassandra and MongoDB meter none to mispredict).
fn parent_apart(est: &Estimator<'_>, p: &AccessPattern, plan: &PatternPlan) -> Option<Unpredictable> {
    if !est.scenario.engine.profile().metered() {
        return None;
    }
    let append = plan.writes.iter().find(|w| w.lands.via == Via::Append)?;
    let embed = est.variant.embed_of(p.entity_id())?;
    let child = est.entity(p.entity_id());
    let Generator::Pick(population) = &child.attributes[embed.by_id()?.index()].generator else {
        return None;
    };
    let members = est.scenario.population(population).count.max(1) as f64;
    // Over a run: a `Latest` pick favours whichever parent is newest, so no parent keeps it.
    let share = steady_share(pick(est, p, population), members);
    if share * members < SKEWED {
        return None;
    }
    Some(Unpredictable {
        items: false,
        units: true,
        why: UnpredictableWhy::ParentApart {
            parent: est.entity(append.lands.entity).name.clone(),
            by: embed.by.clone(),
            times: share * members,
            list: embed.as_name.clone(),
            kept: embed.keep_latest,
            units: append.units_each,
        },
    })
}

//! What the plan predicts for a `MaxShardShare` goal: what the variant's shard key says of the
//! busiest shard's share of the inserts, before any replay. Only what the key decides is
//! predicted; where the balancer puts a ranged key's ranges is the replay's to say.

use super::{Judged, RUN};
use crate::engine::model::{Generator, ItemAttr, Scenario, Sharding, Variant};
use crate::engine::planner::numbers;
use crate::engine::profile::sharding::Strategy;

/// Above an even share, how much margin a hashed key's prediction keeps for sampling noise.
const EVEN_MARGIN: f64 = 1.05;

/// What the shard key says of the busiest shard's share of the inserts: at least an even share
/// (`1/shards`); all of them when a ranged key's first field is the write time, as every insert
/// is then the largest key yet and goes to the range ending at MaxKey ("Choose a Shard Key",
/// Monotonically Changing Shard Keys); at least the busiest value's share when the key is one
/// field of few values, whose documents never split ("Clear jumbo Flag"); an even share when a
/// hashed key is new for every document ("Hashed Sharding"). Anything else depends on where
/// the balancer puts the ranges: the replay's to say.
pub(super) fn share(scenario: &Scenario, variant: &Variant, limit: f64) -> Judged {
    let (predicted, detail) = predict(scenario, variant, limit);
    (predicted, detail, &[], None)
}

fn predict(scenario: &Scenario, variant: &Variant, limit: f64) -> (Option<bool>, String) {
    let Some(s) = variant.sharding.as_ref() else {
        return (
            None,
            "the variant shards no collection: `keyheat run` leaves the goal not graded".to_owned(),
        );
    };
    let even = 1.0 / f64::from(s.shards.max(1));
    if even > limit {
        return (
            Some(false),
            format!(
                "{} shards: the busiest takes at least an even share of the inserts, {}",
                s.shards,
                against(even, limit)
            ),
        );
    }
    let run = format!(
        "{RUN} the busiest shard's share of the inserts into {}, against {}",
        s.entity,
        numbers::percent(limit)
    );
    let Some(keys) = variant.keys.iter().find(|k| k.entity_id() == s.entity_id) else { return (None, run) };
    let key = keys.pk.source();
    let fields = fields(scenario, variant, s);
    match (s.strategy, fields.as_slice()) {
        (Strategy::Ranged, [(name, Some(Generator::Now | Generator::NowPlus(_))), ..]) => (
            Some(1.0 <= limit),
            format!(
                "the ranged shard key {key} starts with {name}, the write time: every insert is the largest key yet and goes to the range ending at MaxKey, on one shard — {}",
                against(1.0, limit)
            ),
        ),
        (_, [(_, Some(Generator::OneOf(values)))]) => match busiest_value(values) {
            Some((value, share)) => {
                let few = format!(
                    "the shard key {key} takes {} values, {value} on {} of the inserts: one value's documents never split, so its shard takes at least that",
                    values.len(),
                    numbers::percent(share)
                );
                if share > limit {
                    (Some(false), format!("{few}, {}", against(share, limit)))
                } else {
                    (
                        None,
                        format!(
                            "{run}; {few} ({}), and where the other values' ranges sit is the balancer's doing",
                            against(share, limit)
                        ),
                    )
                }
            }
            None => (None, run),
        },
        (Strategy::Hashed, [_, ..])
            if even * EVEN_MARGIN <= limit
                && fields.iter().all(|(_, g)| matches!(g, Some(Generator::New(_)))) =>
        {
            (
                Some(true),
                format!(
                    "the hashed shard key {key} is new for every document: its hashes spread the inserts evenly over {} shards, ~{}",
                    s.shards,
                    against(even, limit)
                ),
            )
        }
        (strategy, _) => (None, format!("{run} (shard key {key}, {})", strategy.id())),
    }
}

/// `33.3% ≤ 50%`.
fn against(share: f64, limit: f64) -> String {
    let vs = if share <= limit { "≤" } else { ">" };
    format!("{} {vs} {}", numbers::percent(share), numbers::percent(limit))
}

/// The shard key's fields in order, with the generator of each (`None`: not one of the
/// collection's own attributes).
fn fields<'s>(
    scenario: &'s Scenario,
    variant: &'s Variant,
    s: &Sharding,
) -> Vec<(&'s str, Option<&'s Generator>)> {
    let entity = &scenario.entities[s.entity_id.index()];
    let Some(keys) = variant.keys.iter().find(|k| k.entity_id() == s.entity_id) else { return Vec::new() };
    keys.pk_bound()
        .parts()
        .filter_map(|(part, slot)| {
            let name = part.attribute()?;
            let generator = match slot.reads {
                Some(ItemAttr::Own(a)) => entity.attributes.get(a.index()).map(|a| &a.generator),
                _ => None,
            };
            Some((name, generator))
        })
        .collect()
}

/// The most weighted of a `OneOf`'s values and its share of them.
fn busiest_value(values: &[(String, f64)]) -> Option<(&str, f64)> {
    let total: f64 = values.iter().map(|(_, w)| w).sum();
    let (value, weight) = values.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    (total > 0.0).then(|| (value.as_str(), weight / total))
}

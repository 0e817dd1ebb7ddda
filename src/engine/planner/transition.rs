//! State transitions, predicted: where an update of a lifecycle attribute (`States`) finds an
//! item, and so how often it changes the value (an index key, a sparse index's membership).
//!
//! An update advances the item to its next state rather than drawing afresh, so it always
//! changes the value — except on an item already in the final state, which keeps it. How many
//! items are there depends on how often each one is updated: that is keyheat's own model, which
//! the replay (`sim::exec::write`, `Simulation::target`) plays out item by item. Every item
//! starts in the first state; the updates that advance the attribute come as a Poisson stream
//! over the run, item i taking a share qᵢ of them (its popularity), so it receives on average
//! mᵢ = U·T·qᵢ of them. An update arriving at a uniform time u·T finds the item after
//! Poisson(mᵢ·u) earlier ones, so it finds state j < n − 1 with chance
//! ∫₀¹ P(Poisson(mᵢu) = j) du = P(Poisson(mᵢ) > j) / mᵢ, and the final state with the rest.
//! Weighed by the updates each item takes (qᵢ), the pattern's calls find state j with chance
//! Σᵢ P(Poisson(mᵢ) > j) / (U·T). The model counts the items as present for the whole run
//! (an item put during the run has had less time to advance).

use super::condition::item_shares;
use super::estimate::Estimator;
use super::load::mean_rate;
use crate::engine::model::{AccessPattern, Action, EntityId, Generator, ItemAttr};

/// The states of `attribute` of `entity`, if it is a lifecycle.
pub fn states<'e>(est: &Estimator<'e>, entity: EntityId, attribute: ItemAttr) -> Option<&'e [String]> {
    match est.generator_of(est.entity(entity), attribute)? {
        Generator::States(states) => Some(states),
        _ => None,
    }
}

/// The updates that advance `attribute` of `entity` (one of its own: an update sets nothing
/// else).
fn advancing<'s>(est: &Estimator<'s>, entity: EntityId, attribute: ItemAttr) -> Vec<&'s AccessPattern> {
    let ItemAttr::Own(own) = attribute else { return Vec::new() };
    est.scenario
        .patterns
        .iter()
        .filter(|p| p.action == Action::Update && p.entity_id() == entity && p.sets_ids().contains(&own))
        .collect()
}

/// Updates each item receives over the run (mᵢ), summed over the patterns that advance it.
fn updates_per_item(est: &Estimator<'_>, entity: EntityId, attribute: ItemAttr) -> Vec<f64> {
    let mut per_item: Vec<f64> = Vec::new();
    for p in advancing(est, entity, attribute) {
        let calls = mean_rate(p, est.secs) * est.secs;
        let shares = item_shares(est, p);
        if per_item.len() < shares.len() {
            per_item.resize(shares.len(), 0.0);
        }
        for (m, q) in per_item.iter_mut().zip(shares) {
            *m += calls * q;
        }
    }
    per_item
}

/// P(Poisson(m) = j) for j = 0..n, by the recurrence pⱼ = pⱼ₋₁·m/j.
fn poisson(m: f64, n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    let mut p = (-m).exp();
    for j in 0..n {
        if j > 0 {
            p *= m / j as f64;
        }
        out.push(p);
    }
    out
}

/// The chance that an update of `attribute` finds the item in each state (first to final), by
/// the module's model; `None` when the attribute is not a lifecycle or nothing advances it.
pub fn found(est: &Estimator<'_>, entity: EntityId, attribute: ItemAttr) -> Option<Vec<f64>> {
    let n = states(est, entity, attribute)?.len();
    let per_item = updates_per_item(est, entity, attribute);
    let total: f64 = per_item.iter().sum();
    if total <= 0.0 {
        return None;
    }
    Some(found_by(&per_item, n))
}

/// `found` for items receiving `per_item` updates each, over `n` states.
fn found_by(per_item: &[f64], n: usize) -> Vec<f64> {
    let total: f64 = per_item.iter().sum();
    let mut out = vec![0.0; n];
    for &m in per_item.iter().filter(|&&m| m > 0.0) {
        let mut below = 0.0;
        for (j, p) in poisson(m, n - 1).into_iter().enumerate() {
            below += p;
            // P(Poisson(m) > j), over all updates.
            out[j] += (1.0 - below).max(0.0) / total;
        }
    }
    let earlier: f64 = out[..n - 1].iter().sum();
    out[n - 1] = (1.0 - earlier).max(0.0);
    out
}

/// The share of the entity's items in each state at the end of the run: item i is in state
/// j < n − 1 after exactly j updates, in the final one after n − 1 or more. Items nothing
/// advances stay in the first state.
pub fn held(est: &Estimator<'_>, entity: EntityId, attribute: ItemAttr) -> Option<Vec<f64>> {
    let n = states(est, entity, attribute)?.len();
    let per_item = updates_per_item(est, entity, attribute);
    Some(held_by(&per_item, n))
}

fn held_by(per_item: &[f64], n: usize) -> Vec<f64> {
    let mut out = vec![0.0; n];
    if per_item.is_empty() {
        out[0] = 1.0;
        return out;
    }
    let items = per_item.len() as f64;
    for &m in per_item {
        let p = poisson(m, n - 1);
        for (j, pj) in p.iter().enumerate() {
            out[j] += pj / items;
        }
        out[n - 1] += (1.0 - p.iter().sum::<f64>()).max(0.0) / items;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{found_by, held_by};

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3)
    }

    #[test]
    fn updates_find_items_further_along_the_more_each_is_updated() {
        // (updates per item, states, chance an update finds each state)
        let e = (-1.0f64).exp();
        let cases: [(&[f64], usize, Vec<f64>); 4] = [
            // Hardly updated: every update finds the first state.
            (&[1e-6, 1e-6], 3, vec![1.0, 0.0, 0.0]),
            // Once on average: P(Poisson(1) > 0) = 1 − 1/e finds the first state.
            (&[1.0], 2, vec![1.0 - e, e]),
            (&[1.0], 3, vec![1.0 - e, 1.0 - 2.0 * e, 3.0 * e - 1.0]),
            // Updated very often: nearly every update finds the final state.
            (&[1000.0], 3, vec![0.001, 0.001, 0.998]),
        ];
        for (per_item, n, want) in cases {
            let got = found_by(per_item, n);
            assert!(close(&got, &want), "{per_item:?} over {n}: {got:?} vs {want:?}");
            assert!((got.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn items_hold_the_state_their_update_count_reached() {
        let e = (-1.0f64).exp();
        let cases: [(&[f64], usize, Vec<f64>); 3] = [
            (&[], 3, vec![1.0, 0.0, 0.0]),
            (&[0.0, 0.0], 3, vec![1.0, 0.0, 0.0]),
            (&[1.0], 3, vec![e, e, 1.0 - 2.0 * e]),
        ];
        for (per_item, n, want) in cases {
            let got = held_by(per_item, n);
            assert!(close(&got, &want), "{per_item:?} over {n}: {got:?} vs {want:?}");
        }
    }
}

//! `Nth` attributes as rates: a put's `Nth(by)` attribute is one more than the items of its
//! `by` member written before it (`exec::write`'s `number`, counted when a put lands; a
//! throttled put takes its number again when its retry is sent, so two landed puts of one
//! member never share a number). What that changes for the fluid replay:
//!
//! - **What replaces what**: a key that holds the number beside its member (orders'
//!   `ORDER#{order_id}` / `ITEM#{line:03}`) never repeats, so each put is a new item
//!   (`model::sort_repeats` counts no meeting); a key that holds the number without its member
//!   would meet items of other members that took the same number, and is refused. A key that
//!   does not hold the number replaces as its other slots say.
//! - **Size**: a number's bytes depend on its digits (DESIGN.md §4: 1 + ⌈d/2⌉, +1 when d and
//!   the first digit's exponent are both even), and so does its text in a key without enough
//!   zero padding. The fluid replay samples every put's item with the number 1 and accepts the
//!   run only if every number it may reach takes the same bytes, in the item, its key and its
//!   index entries. The numbers a run reaches are bounded by the most puts one member may get:
//!   a Chernoff bound on the Binomial count of the member with the largest expected count,
//!   union-bounded over the members, at a chance of 10⁻⁶ (`largest_number`). An expectation's
//!   tail, not a certainty: a run past it is the one-in-a-million draw.
//!
//! Never: a number of preloaded items (the preload numbers its items in its own order), of a
//! member other than a picked one (the per-operation replay numbers nothing then), or in a
//! partition key.

use crate::engine::model::Action;

use super::super::items::{Gen, Val, field_size};
use super::super::regen::{entry_bytes, key_bytes};
use super::super::world::{World, member_pop};
use super::model::{Shares, popularity_of, shares, write_samples};
use super::{FluidError, unsupported};

/// The chance, over the run, that some member gets more items than the bound
/// `largest_number` gives.
const PAST_BOUND: f64 = 1e-6;

/// The value a put's `Nth` attribute takes in the items the fluid replay samples: the number
/// 1, whose bytes every number the run may reach shares (`check`). Numbers are kept in
/// hundredths (`Val::Num`), as `exec::write`'s `number` keeps them.
pub(super) const FIRST: Val = Val::Num(100);

/// Refuses entity `e`'s `Nth` attributes where rates cannot follow them (module doc). `puts`
/// is every pattern's calls over the run.
pub(super) fn check(
    world: &World,
    e: usize,
    seed: u64,
    start_secs: i64,
    puts: &[u64],
    place: &str,
) -> Result<(), FluidError> {
    let ent = &world.entities[e];
    if ent.numbered.is_empty() {
        return Ok(());
    }
    if ent.identity.is_some_and(|(_, pop)| world.pops[pop].initial > 0) {
        return Err(unsupported(
            "Nth attributes of preloaded items (the preload numbers them in its own order)",
            place,
        ));
    }
    for &(attr, by) in &ent.numbered {
        let place = format!("{place}, attribute {}", ent.attrs[attr].name);
        let pop = numbering_pop(world, &ent.attrs[by].source, &place)?;
        let pk_attrs = |pk: Option<&super::super::templates::TemplatePlan>| -> Vec<usize> {
            pk.map(|t| t.attrs().collect()).unwrap_or_default()
        };
        let table_pk = pk_attrs(ent.pk.as_ref());
        if table_pk.contains(&attr) {
            return Err(unsupported("an Nth attribute in a partition key", &place));
        }
        let sk_holds = ent.sk.as_ref().is_some_and(|sk| sk.attrs().any(|a| a == attr));
        if sk_holds && !table_pk.contains(&by) {
            return Err(unsupported(
                "an Nth attribute in a sort key without the member that numbers it in the partition key (items of two members with one number replace each other)",
                &place,
            ));
        }
        for plan in ent.entries.iter().flatten() {
            let pk = pk_attrs(plan.pk.as_ref().or(ent.pk.as_ref()));
            if pk.contains(&attr) {
                return Err(unsupported("an Nth attribute in an index's partition key", &place));
            }
        }
        let puts_of: Vec<usize> = world
            .patterns
            .iter()
            .enumerate()
            .filter(|(_, p)| p.entity == e && p.action == Action::Put)
            .map(|(i, _)| i)
            .collect();
        // The most items one member may get: each put pattern's calls at its pick's shares.
        let mut expected: Vec<f64> = Vec::new();
        let mut exact = 0.0_f64;
        for &p in &puts_of {
            let calls = puts.get(p).copied().unwrap_or(0) as f64;
            match shares(world, popularity_of(world, &world.patterns[p], by, pop), pop, seed, &place)? {
                Shares::Each(s) => {
                    expected.resize(expected.len().max(s.len()), 0.0);
                    for (m, share) in expected.iter_mut().zip(s.iter()) {
                        *m += calls * share;
                    }
                }
                Shares::Seq(n) => exact += (calls / n as f64).ceil(),
                Shares::One => exact += calls,
                Shares::Fresh { .. } => exact += 1.0,
                Shares::Recent { .. } => unreachable!("`shares` makes no grown pick"),
            }
        }
        let bound = exact + largest_number(&expected);
        let Some(&first_put) = puts_of.first() else { continue };
        // Every number up to the bound takes the bytes of 1: in the item, its key and its entries.
        let (_, samples) = write_samples(world, &world.patterns[first_put], seed, start_secs);
        let Some(vals) = samples.first() else { continue };
        let mut vals = vals.clone();
        let mut text = String::new();
        let mut bytes = |n: u64| {
            #[expect(clippy::cast_possible_wrap, reason = "a number of items")]
            let val = Val::Num(n as i64 * 100);
            vals[attr] = val;
            let sizing = world.engine.profile().sizing;
            let item = field_size(sizing, &ent.attrs[attr], val, &world.pops)
                + key_bytes(world, e, &vals, &mut text);
            let entries: Vec<Option<usize>> =
                (0..ent.entries.len()).map(|i| entry_bytes(world, e, i, &vals, item, &mut text)).collect();
            (item, entries)
        };
        let one = bytes(1);
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a number of items")]
        let most = bound.max(1.0) as u64;
        // Each number up to the bound is sized on its own (a number's size follows its digits,
        // a key's padding, a store's integer widths): past this many, refused rather than
        // looked at one by one for minutes.
        if most > MOST_NUMBERS_SIZED {
            return Err(unsupported(
                &format!(
                    "Nth numbers past {MOST_NUMBERS_SIZED} for a member (a member may get {most} items, each number sized on its own)"
                ),
                &place,
            ));
        }
        if let Some(n) = (2..=most).find(|&n| bytes(n) != one) {
            return Err(unsupported(
                &format!(
                    "Nth numbers whose size varies with their digits (a member may get {most} items; {n} takes other bytes than 1)"
                ),
                &place,
            ));
        }
    }
    Ok(())
}

/// The most numbers of one member [`check`] sizes one by one: a second or so of sizing.
const MOST_NUMBERS_SIZED: u64 = 1_000_000;

/// The most items a member whose counts are independent Binomials of means `expected` may get,
/// but with a chance of `PAST_BOUND`: the smallest `k` with `n · P(X ≥ k + 1) ≤ PAST_BOUND`
/// for the largest mean μ, by Chernoff's bound `P(X ≥ K) ≤ e^(−μ) (eμ/K)^K` (K > μ), which a
/// Binomial's tail keeps under as a Poisson's of its mean does, and grows with μ.
fn largest_number(expected: &[f64]) -> f64 {
    let mu = expected.iter().copied().fold(0.0_f64, f64::max);
    if mu <= 0.0 {
        return 0.0;
    }
    let members = expected.iter().filter(|&&m| m > 0.0).count() as f64;
    let ln_tail = |big_k: f64| members.ln() - mu + big_k * (1.0 + mu.ln() - big_k.ln());
    let mut k = mu.ceil();
    while ln_tail(k + 1.0) > PAST_BOUND.ln() {
        k += 1.0;
    }
    k
}

/// The member attribute that numbers attribute `attr` of entity `e`, if it is an `Nth` one.
pub(super) fn numbered_by(world: &World, e: usize, attr: usize) -> Option<usize> {
    world.entities[e].numbered.iter().find(|(a, _)| *a == attr).map(|&(_, by)| by)
}

/// The population whose members number an `Nth` attribute: its `by`'s, a picked member's. A
/// number's digits (its bytes) follow the most items a member gets, worked out from the shares
/// over the population's members at the start: refused where the population grows.
fn numbering_pop(world: &World, by: &Gen, place: &str) -> Result<usize, FluidError> {
    let Some(pop) = member_pop(by) else {
        return Err(unsupported("an Nth attribute numbered by a value that is not a picked member", place));
    };
    if super::model::grows(world, pop) {
        return Err(unsupported(
            "Nth numbers of a member picked from a population that grows (how many items a member gets follows the picks as they move on)",
            place,
        ));
    }
    Ok(pop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_number_bounds_the_busiest_members_count() {
        // (expected counts per member, the bound lies within)
        let cases: [(&[f64], f64, f64); 4] = [
            (&[], 0.0, 0.0),
            (&[0.0, 0.0], 0.0, 0.0),
            // One member at 10: its count passes 10 + 6·√10 ≈ 29 with a chance near 10⁻⁶.
            (&[10.0], 25.0, 35.0),
            // 20,000 members at 8.6 (orders' line items, uniform): the union over them costs
            // a few more.
            (&vec![8.6; 20_000], 30.0, 40.0),
        ];
        for (expected, low, high) in cases {
            let k = largest_number(expected);
            assert!((low..=high).contains(&k), "{expected:?}: {k}");
        }
    }

    #[test]
    fn the_bound_holds_the_counts_tail_under_its_chance() {
        // A Poisson of mean 10: P(X > k) summed exactly stays under the bound's chance.
        let k = largest_number(&[10.0]);
        let mut term = (-10.0_f64).exp();
        let mut below = term;
        let mut i = 1.0;
        while i <= k {
            term *= 10.0 / i;
            below += term;
            i += 1.0;
        }
        assert!(1.0 - below <= PAST_BOUND, "{k}: {}", 1.0 - below);
    }
}

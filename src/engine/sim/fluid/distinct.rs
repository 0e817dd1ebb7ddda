//! Updates of items whose sort key is a picked member (practice-ratelimit `naive`: pk
//! `RL#{bucket(at, 1m)}`, sk `{client_id}`): each call names the item of its pick within its
//! partition and creates it when the key holds none (an upsert, `exec::write`), so a partition
//! holds one item per distinct member its landed updates picked — not one item (a constant sort
//! key), nor one per write. What it must never do: size such a partition by how often two picks
//! meet (`SortRepeats::collide`, Σ share²: as if the values were equally likely), which for a
//! Zipf pick counts a few dozen items where there are thousands.
//!
//! A partition's item for value `j` exists once one of its updates landed: with `c` calls of a
//! flow onto the partition (its share `s` of the bucket's calls), each landing with the
//! partition's landed share `λ` and picking `j` with `pⱼ`, it is missing with the chance
//! `(1 − s·λ·pⱼ)^c` (a product over the flows), and the expected items are `Σⱼ 1 − that`:
//! the expected distinct draws of the pick over the landed updates, exactly. Their spread is
//! taken as that of independent items, `Σⱼ qⱼ(1 − qⱼ)` — an upper bound, since for a fixed
//! count of writes one more distinct value leaves fewer for the others (the draws' negative
//! covariance is left out), so the band on the largest partition is, if anything, wide.

use std::rc::Rc;

use crate::engine::model::Action;
use crate::engine::planner::Operation;

use super::super::items::Gen;
use super::super::templates::Slot;
use super::super::world::{PatternRt, World};
use super::model::{KeyGroup, Model, Shares, popularity_of, shares};
use super::{FluidError, unsupported};

/// (partition, sort-key value) pairs past which a bucket's close would take too long: each is
/// weighed at every close.
const MAX_PAIRS: u64 = 1 << 26;

/// The shares with which a write of `pattern` onto `group` (an update, or a put whose pick is
/// all that varies in its sort key: `model::Skew::Alone`) picks its item's sort-key member,
/// when its sort key holds one; `None` when the sort key keeps one item a partition (none, a
/// constant, or only the partition's own attributes). Anything else varying in the sort key is
/// refused by name.
pub(super) fn sort_picks(
    world: &World,
    pattern: &PatternRt,
    group: &KeyGroup,
    seed: u64,
    place: &str,
) -> Result<Option<Rc<[f64]>>, FluidError> {
    let ent = &world.entities[pattern.entity];
    let write = if pattern.action == Action::Put { "a put" } else { "an update" };
    let Some(sk) = ent.sk.as_ref() else { return Ok(None) };
    let in_pk =
        |attr: usize| group.pk.slots.iter().any(|s| matches!(s, Slot::Attr { attr: a, .. } if *a == attr));
    let other = || {
        unsupported(
            &format!(
                "{write} of an item with a sort key of attributes other than one picked member (a time, a drawn value, a bucket, a shard or a class)"
            ),
            place,
        )
    };
    let mut picked = None;
    for slot in &sk.slots {
        let attr = match slot {
            Slot::Lit(_) => continue,
            // The partition's own value: the same for all its items.
            Slot::Attr { attr, .. } if in_pk(*attr) => continue,
            Slot::Attr { attr, .. } => *attr,
            _ => return Err(other()),
        };
        let pop = match ent.attrs[attr].source {
            // A New attribute other than the identity picks a member as a Pick does
            // (`world::born_steps`, `Simulation::given_val`).
            Gen::Pick(pop) => pop,
            Gen::New(pop) if ent.identity.is_none_or(|(identity, _)| identity != attr) => pop,
            _ => return Err(other()),
        };
        if picked.is_some_and(|(a, _)| a != attr) {
            return Err(unsupported(
                &format!("{write} of an item with a sort key of two picked members"),
                place,
            ));
        }
        picked = Some((attr, pop));
    }
    let Some((attr, pop)) = picked else { return Ok(None) };
    let picks = match shares(world, popularity_of(world, pattern, attr, pop), pop, seed, place)? {
        Shares::Each(s) => s,
        Shares::Seq(_) | Shares::One | Shares::Fresh { .. } | Shares::Recent { .. } => {
            return Err(unsupported(&format!("{write} of an item with a Seq pick in its sort key"), place));
        }
    };
    if group.members.saturating_mul(picks.len() as u64) > MAX_PAIRS {
        return Err(unsupported(
            &format!("{write} of items keyed by more than {MAX_PAIRS} (partition, sort-key member) pairs"),
            place,
        ));
    }
    Ok(Some(picks))
}

impl Model {
    /// What rates cannot follow of a group whose items a write names by a picked sort-key
    /// member (`KeyGroup::sort_picks`): another write of them (each flow needs its picks), a
    /// version check (its races are per item, not per partition), a Query or a Scan of them
    /// (their units count the writes in a range, or the bytes landed, not the items kept), and
    /// puts onto preloaded partitions (which members the preload holds is not kept, so a put
    /// of one it holds would count as a new item).
    pub(super) fn check_sort_picks(&self, world: &World) -> Result<(), FluidError> {
        for (g, group) in self.groups.iter().enumerate().filter(|(_, k)| !k.sort_picks.is_empty()) {
            for (f, flow) in self.flows.iter().enumerate().filter(|(_, f)| f.group == g) {
                let pattern = &world.patterns[flow.pattern];
                let place = format!("pattern {}", pattern.name);
                let picked = group.sort_picks.iter().any(|(p, _)| *p == f);
                if picked && pattern.action == Action::Put && !self.preload[g].is_empty() {
                    return Err(unsupported(
                        "a put of an item with a sort key of a member picked with unequal shares, onto preloaded partitions",
                        &place,
                    ));
                }
                if self.charges(f) {
                    return Err(unsupported(
                        "a version-checked update of an item with a sort key of a picked member",
                        &place,
                    ));
                }
                if flow.write && !picked {
                    return Err(unsupported(
                        "another write of items a write names by a picked sort-key member",
                        &place,
                    ));
                }
                if !flow.write
                    && !matches!(pattern.operation, Some(Operation::GetItem | Operation::BatchGetItem))
                {
                    return Err(unsupported(
                        "a Query or Scan of items a write names by a picked sort-key member",
                        &place,
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The expected items of one partition whose writes name their item by a picked sort-key
/// member, and their variance (see the module doc): write flow `i`'s picks `picks[i]`, its
/// `shares[i]` of the bucket's `totals[i]` calls, each landing with `landed`. A flow without
/// picks names no item by one and adds none (`Model::check_sort_picks` refuses a group where
/// such a flow would write items).
pub(super) fn kept(picks: &[Option<&[f64]>], shares: &[f64], totals: &[f64], landed: f64) -> (f64, f64) {
    let values = picks.iter().flatten().map(|p| p.len()).max().unwrap_or(0);
    let (mut mean, mut var) = (0.0, 0.0);
    for j in 0..values {
        let log_none: f64 = picks
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((i, (*p)?)))
            .map(|(i, p)| log_missed(totals[i], shares[i] * landed * p.get(j).copied().unwrap_or(0.0)))
            .sum();
        let q = -log_none.exp_m1();
        mean += q;
        var += q * (1.0 - q);
    }
    (mean, var)
}

/// `calls × ln(1 − chance)`: none of `calls` calls hit, each with `chance`.
fn log_missed(calls: f64, chance: f64) -> f64 {
    if calls <= 0.0 || chance <= 0.0 { 0.0 } else { calls * (-chance.min(1.0)).ln_1p() }
}

#[cfg(test)]
mod tests {
    use super::kept;

    /// (picks per flow, shares, totals, landed, expected items)
    type Case<'a> = (&'a [Option<&'a [f64]>], &'a [f64], &'a [f64], f64, f64);

    #[test]
    fn kept_items_are_the_expected_distinct_picks_of_the_landed_updates() {
        let half: &[f64] = &[0.5, 0.5];
        let skewed: &[f64] = &[0.9, 0.1];
        let one: &[f64] = &[1.0];
        let quarters: &[f64] = &[0.25; 4];
        let cases: [Case; 9] = [
            // Every call names the one value: one item once a call landed.
            (&[Some(one)], &[1.0], &[5.0], 1.0, 1.0),
            // Two equally likely values, two calls: 2 − 2·½² = 1.5.
            (&[Some(half)], &[1.0], &[2.0], 1.0, 1.5),
            // Skewed: 1 − 0.1² + 1 − 0.9² = 1.18 (equally likely values would give 1.5).
            (&[Some(skewed)], &[1.0], &[2.0], 1.0, 1.18),
            // No call landed: no item.
            (&[Some(half)], &[1.0], &[4.0], 0.0, 0.0),
            // Half the calls land: each value missed with (1 − ¼)² ⇒ 2·(1 − 9/16).
            (&[Some(half)], &[1.0], &[2.0], 0.5, 0.875),
            // A partition taking half of a flow's calls: as landing half.
            (&[Some(half)], &[0.5], &[2.0], 1.0, 0.875),
            // Two flows, one call each: the values both pick missed with ¾ · ½, the others ¾.
            (&[Some(quarters), Some(half)], &[1.0, 1.0], &[1.0, 1.0], 1.0, 2.0 * 0.625 + 2.0 * 0.25),
            // Only the second flow picks: its own share and calls (½ of 2, as above), not the
            // first's (all of 7 calls, which would give 2·(1 − ½⁷)).
            (&[None, Some(half)], &[1.0, 0.5], &[7.0, 2.0], 1.0, 0.875),
            // Only the first picks: the second's calls add nothing.
            (&[Some(half), None], &[0.5, 1.0], &[2.0, 7.0], 1.0, 0.875),
        ];
        for (picks, shares, totals, landed, want) in cases {
            let (mean, _) = kept(picks, shares, totals, landed);
            assert!((mean - want).abs() < 1e-12, "{picks:?} × {totals:?} at {landed}: {mean}, not {want}");
        }
    }

    #[test]
    fn kept_items_match_a_count_of_draws() {
        // Zipf-like shares over 50 values, 80 draws: the mean over many runs of the drawn
        // distinct count, against the formula (a plain LCG; tolerance ~4 standard errors), and
        // the drawn count's variance, which the independent items' spread bounds from above
        // (the module doc: the draws' negative covariance is left out).
        let raw: Vec<f64> = (1..=50).map(|i| 1.0 / f64::from(i)).collect();
        let total: f64 = raw.iter().sum();
        let p: Vec<f64> = raw.iter().map(|x| x / total).collect();
        let (mean, var) = kept(&[Some(&p)], &[1.0], &[80.0], 1.0);
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let runs = 20_000;
        let (mut sum, mut squares) = (0.0, 0.0);
        for _ in 0..runs {
            let mut seen = [false; 50];
            for _ in 0..80 {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let u = (state >> 11) as f64 / (1u64 << 53) as f64;
                let mut acc = 0.0;
                let j = p.iter().position(|&x| {
                    acc += x;
                    u < acc
                });
                seen[j.unwrap_or(49)] = true;
            }
            let distinct = seen.iter().filter(|&&s| s).count() as f64;
            sum += distinct;
            squares += distinct * distinct;
        }
        let drawn = sum / f64::from(runs);
        assert!(
            (drawn - mean).abs() < 4.0 * (var / f64::from(runs)).sqrt() + 1e-3,
            "{drawn} drawn, {mean} expected"
        );
        // The sample variance's standard error is ~√(2 / runs) of it, 1%: 5% is far past noise.
        let drawn_var = (squares - sum * sum / f64::from(runs)) / f64::from(runs - 1);
        assert!(drawn_var <= var * 1.05, "drawn variance {drawn_var} past the bound {var}");
    }
}

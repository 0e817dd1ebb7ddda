//! Peaks of a population that puts of new identities grow (`model::Growth`): its reads' shares
//! change every tick (a Zipf's ranks placed anew over more members, `Latest` following the
//! newest), so the histogram of call counts under fixed shares that other groups' peaks are
//! drawn from (`Replay::peak`) does not hold. Each tick's counts are gathered instead, as they
//! come: every member's Binomial count of the tick, in bins of members whose shares are within
//! `SHARE_BIN` of each other, and per member its busiest tick, for its own row. Ticks in which a
//! member's partition throttled are its thinned draws (`Capacity::thinned`), as elsewhere.

use std::collections::BTreeMap;

use super::extremes::{Band, Draws};
use super::model::Units;
use super::replay::Replay;

/// The relative width of a bin of one tick's shares: a member's count is drawn at its bin's
/// mean share, within 0.1% of its own.
const SHARE_BIN: f64 = 0.001;

/// One direction's draws of a grown group, over the ticks so far.
#[derive(Debug, Clone, Default)]
pub struct GrownPeaks {
    /// (units per request to 1e-3, calls, share bin) → (Σ shares, members × ticks), and each
    /// class's units.
    bins: BTreeMap<(u64, u64, i64), (f64, f64)>,
    units: BTreeMap<u64, f64>,
    /// Per member: its busiest tick's (mean count, calls, share, units per request).
    best: Vec<(f64, u64, f64, f64)>,
}

impl Replay<'_> {
    /// Gathers the tick's draws of the grown group `g` (`n`: calls per pattern).
    pub(super) fn grown_tick(&mut self, g: usize, n: &[u64]) {
        let members = usize::try_from(self.model.groups[g].members).unwrap_or(0);
        let metered = self.capacity_of(g).is_some();
        let thinned: Vec<(usize, u64)> = self
            .capacity_of(g)
            .map(|c| c.thinned_now.iter().filter(|t| t.0 == g).map(|t| (t.1, t.2)).collect())
            .unwrap_or_default();
        for dim in 0..2 {
            let flows = self.groups[g].peak_flows[dim].clone();
            let calls: u64 = flows.iter().map(|&f| n[self.model.flows[f].pattern]).sum();
            if calls == 0 {
                continue;
            }
            // Reads a cache fronts reach a key at most once a tick (the first fills the entry;
            // `cache`): where they alone load a key, its count is a Bernoulli draw of its chance
            // of a miss (a Scan's flow on the group loads no member).
            let fronted: Vec<bool> =
                flows.iter().map(|&f| self.model.cache.as_ref().is_some_and(|c| c.fronts(f))).collect();
            let mut peaks = std::mem::take(&mut self.groups[g].grown[dim]);
            peaks.best.resize(members, (0.0, 0, 0.0, 0.0));
            for m in 0..members {
                let (mut mean, mut units, mut exact, mut missed) = (0.0, 0.0, true, true);
                for (&f, &cached) in flows.iter().zip(&fronted) {
                    let flow = &self.model.flows[f];
                    let requests = n[flow.pattern] as f64 * flow.shares.of(m);
                    missed &= cached || requests <= 0.0;
                    exact &= requests <= 0.0 || flow.shares.exact();
                    mean += requests;
                    units += requests
                        * match flow.units {
                            Units::Each(u) if metered => u,
                            _ => 1.0,
                        };
                }
                // A throttled partition's member is drawn thinned (`grown_peak`), but for a put's
                // one call, counted in its tick: it lands there or on a retry, once.
                if mean <= 0.0 || (!exact && thinned.contains(&(dim, m as u64))) {
                    continue;
                }
                // A put's member gets its one call for certain: a count of one, not a draw.
                #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a whole count")]
                let (calls, p) = if exact {
                    (mean.round() as u64, 1.0)
                } else if missed {
                    (1, mean.min(1.0))
                } else {
                    (calls, mean / calls as f64)
                };
                let u = units / mean;
                if mean > peaks.best[m].0 {
                    peaks.best[m] = (mean, calls, p, u);
                }
                #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a class key")]
                let class = (u * 1000.0).round() as u64;
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "a bin number: a share's log in 0.1% steps"
                )]
                let bin = (p.ln() / SHARE_BIN.ln_1p()).floor() as i64;
                let at = peaks.bins.entry((class, calls, bin)).or_default();
                at.0 += p;
                at.1 += 1.0;
                peaks.units.insert(class, u);
            }
            self.groups[g].grown[dim] = peaks;
        }
    }

    /// The peak of grown group `g` in direction `dim`, over its members (or those listed), in
    /// units on a metered store: the median and band of the maximum of the ticks' counts.
    pub(super) fn grown_peak(&self, g: usize, dim: usize, members: Option<&[u64]>) -> Band {
        let peaks = &self.groups[g].grown[dim];
        let thinned = self.capacity_of(g).map(|c| &c.thinned[g][dim].draws);
        // A member's units: its busiest tick's, else the class of the group's first.
        let first_units = peaks.units.values().next().copied().unwrap_or(1.0);
        let units_of = |m: u64| {
            let at = usize::try_from(m).ok().and_then(|m| peaks.best.get(m));
            at.filter(|b| b.0 > 0.0).map_or(first_units, |b| b.3)
        };
        let mut classes: BTreeMap<u64, (f64, Vec<Draws>)> = BTreeMap::new();
        let mut push = |u: f64, draws: Draws| {
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a class key")]
            let key = (u * 1000.0).round() as u64;
            classes.entry(key).or_insert_with(|| (u, Vec::new())).1.push(draws);
        };
        match members {
            Some(list) => {
                for &m in list {
                    let best = usize::try_from(m).ok().and_then(|i| peaks.best.get(i));
                    if let Some(&(mean, n, p, u)) = best.filter(|b| b.0 > 0.0) {
                        debug_assert!(mean > 0.0);
                        push(u, Draws { n, p, times: 1.0 });
                    }
                }
            }
            None => {
                for (&(key, n, _), &(sum, times)) in &peaks.bins {
                    let u = peaks.units.get(&key).copied().unwrap_or(1.0);
                    push(u, Draws { n, p: sum / times, times });
                }
            }
        }
        let exact = self.groups[g].peak_flows[dim].iter().all(|&f| self.model.flows[f].shares.exact());
        if let Some(draws) = thinned.filter(|_| !exact) {
            for (&(m, n, part), &ticks) in draws {
                if members.is_none_or(|list| list.contains(&m)) {
                    push(units_of(m), Draws { n, p: f64::from_bits(part), times: ticks as f64 });
                }
            }
        }
        classes
            .into_values()
            .map(|(u, draws)| self.maxima.binomial(&draws).scale(u))
            .reduce(Band::max)
            .unwrap_or_default()
    }
}

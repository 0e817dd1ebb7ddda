//! Version-checked updates as rates (`condition: Version`, optimistic concurrency): what the
//! per-operation replay's read-modify-write costs (`exec::condition`'s `version_read`), as flows.
//!
//! Per operation a call reads its item (a GetItem, strongly consistent), then sends the
//! UpdateItem on `version = :read`. It loses its race when another version-checked update of
//! the item landed within its read-to-write time before it — a draw per call, exponential with
//! mean `VERSION_WINDOW_MS` (8 ms): then its write fails (ConditionalCheckFailedException,
//! charged the larger of the item's size before and after, DESIGN.md §4), it reads the item
//! again, and its retry lands. So a call is a read and a write, and a lost race adds a failed
//! write and a read: four requests.
//!
//! The calls of a pattern come evenly spaced, 1/λ apart (`pacing`), and each picks item m with
//! its share qₘ (a sharded key's shard drawn uniformly: the share over the shards). The last
//! update of the item lies k calls back with chance qₘ(1 − qₘ)ᵏ⁻¹, and within the window with
//! chance rᵏ, r = e^(−1/(λ·W)); so a call on item m loses with chance
//! pₘ = r·qₘ / (1 − r + r·qₘ) — the planner's `condition::conflict_chance`, one rule in one
//! place. That holds while every call's update lands at its own call time: nothing throttles
//! them. A refused request retries the whole call later, reads and races again then, and the
//! race is decided by which writes landed when: the fluid replay does not follow that, so a
//! partition that throttles a version-checked update's requests refuses the run (`fluid::scopes`,
//! `Scope::versioned`: practice-ledger `naive`, whose settlement account asks ~1,470 write
//! units a second of its one key).
//!
//! The flows, beside the update's own (which writes the item): the read (the call's shares, a
//! strongly consistent read's units of the item), and the lost races' failed write and read
//! again, whose shares are qₘ·pₘ — each partition its own chance. They change no item: no
//! bytes, no items, no landed writes (`Model::charges`). The expected lost races (conditions
//! failed, version conflicts) are the calls times Σ qₘ·pₘ (`Versioned::lost_share`); a call's
//! requests are 2 + 2·Σ qₘ·pₘ. A peak counts the lost races' units with the call that lost them
//! (`Replay::lanes`): each call on item m brings its write units times 1 + pₘ, an expected
//! value — the band is that of the calls' count, without the spread of the races themselves.
//!
//! Refused, by name: version checks off a store metered in read and write units, of items
//! another pattern also writes (its writes would be races too, or not), under a rate shape
//! (the chance follows the rate of the moment), of `Seq` picks or a grown population, with a
//! Query or Scan of the items (a failed write is no item in its range), and of items whose
//! reads or failed writes fall in different units.

use crate::engine::model::Action;
use crate::engine::planner::Operation;
use crate::engine::planner::condition::conflict_chance;

use super::super::world::{PatternRt, World};
use super::model::{Flow, Model, Shares, Units, metered};
use super::{FluidError, unsupported};

/// A version-checked update pattern's flows beyond its update's.
#[derive(Debug, Clone)]
pub struct Versioned {
    pub pattern: usize,
    /// The flow of the update itself (its write), of the call's read, and of the lost races'
    /// failed writes and reads again.
    pub update: usize,
    pub read: usize,
    pub lost: [usize; 2],
    /// The share of the calls that lose their race: Σ qₘ·pₘ over the items.
    pub lost_share: f64,
}

impl Model {
    /// Adds the read and lost-race flows of pattern `p`'s version-checked update, whose own
    /// flow is `update` (just pushed, of the item's sampled sizes `(largest, smallest)`).
    pub(super) fn add_version_check(
        &mut self,
        world: &World,
        (p, pattern): (usize, &PatternRt),
        update: usize,
        (largest, smallest): (f64, f64),
        place: &str,
    ) -> Result<(), FluidError> {
        let profile = world.engine.profile();
        if !metered(world) || profile.request_units() {
            return Err(unsupported(
                &format!(
                    "version-checked updates on {} (rates follow them in read and write units)",
                    world.engine
                ),
                place,
            ));
        }
        let e = pattern.entity;
        if world
            .patterns
            .iter()
            .enumerate()
            .any(|(q, other)| q != p && other.entity == e && !other.action.is_read())
        {
            return Err(unsupported(
                "a version-checked update of items another pattern also writes (its writes race too, or not)",
                place,
            ));
        }
        if !pattern.shapes.is_empty() {
            return Err(unsupported(
                "a version-checked update under a rate shape (its chance to lose follows the rate of the moment)",
                place,
            ));
        }
        let table = world.entities[e].table;
        if let Some(q) = world.patterns.iter().find(|q| {
            q.read.as_ref().is_some_and(|r| match q.operation {
                Some(Operation::Query) => r.entities.contains(&e),
                Some(Operation::Scan) => Some(r.table) == table,
                _ => false,
            })
        }) {
            return Err(unsupported(
                &format!(
                    "a Query or Scan of version-checked items (pattern {}: a failed write is no item in its range)",
                    q.name
                ),
                place,
            ));
        }
        let metering = profile.metering;
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "sizes in bytes")]
        let (most, least) = (largest.ceil() as u64, smallest.floor() as u64);
        // A call's read finds no item before the item's first update (a missing item's units).
        let reads = [metering.latest_read(most), metering.latest_read(least), metering.latest_read(0)];
        if reads.iter().any(|&r| (r - reads[0]).abs() > 1e-9) {
            return Err(unsupported(
                "version-checked updates whose reads fall in different read units",
                place,
            ));
        }
        let failed = [metering.failed_write(most, most), metering.failed_write(least, least)];
        if (failed[0] - failed[1]).abs() > 1e-9 {
            return Err(unsupported(
                "version-checked updates whose failed writes fall in different write units",
                place,
            ));
        }
        let flow = self.flows[update].clone();
        let calls_per_s = pattern.rate;
        let by_item: Vec<f64> = match &flow.shares {
            Shares::Each(s) => s.iter().map(|&q| q * conflict_chance(q, calls_per_s)).collect(),
            Shares::One => vec![conflict_chance(1.0, calls_per_s)],
            Shares::Seq(_) | Shares::Fresh { .. } | Shares::Recent { .. } => {
                return Err(unsupported(
                    "version-checked updates of Seq picks or of a grown population",
                    place,
                ));
            }
        };
        let lost_share = by_item.iter().sum();
        let lost = Shares::Each(by_item.into());
        let charge = |write: bool, shares: Shares, units: f64| Flow {
            pattern: p,
            group: flow.group,
            write,
            shares,
            span_secs: None,
            bytes: 0.0,
            units: Units::Each(units),
        };
        let read = self.flows.len();
        self.flows.push(charge(false, flow.shares.clone(), reads[0]));
        self.flows.push(charge(true, lost.clone(), failed[0]));
        self.flows.push(charge(false, lost, reads[0]));
        self.versions.push(Versioned { pattern: p, update, read, lost: [read + 1, read + 2], lost_share });
        Ok(())
    }

    /// Whether flow `f` changes no item: a version check's read, or a lost race's failed write
    /// or read again. It is metered and charged, and leaves neither items nor bytes.
    pub fn charges(&self, f: usize) -> bool {
        self.versions.iter().any(|v| v.read == f || v.lost.contains(&f))
    }

    /// The flow whose calls flow `f`'s requests come with, when they are a lost race's: the
    /// update's for its failed write, the read's for its read again.
    pub fn lost_with(&self, f: usize) -> Option<usize> {
        self.versions.iter().find_map(|v| match v.lost {
            [w, _] if w == f => Some(v.update),
            [_, r] if r == f => Some(v.read),
            _ => None,
        })
    }

    /// Pattern `p`'s share of calls that lose their race (0 without a version check).
    pub fn lost_share(&self, p: usize) -> f64 {
        self.versions.iter().filter(|v| v.pattern == p).map(|v| v.lost_share).sum()
    }
}

/// Whether pattern `pattern` is a version-checked UpdateItem.
pub(super) fn version_checked(pattern: &PatternRt) -> bool {
    matches!(pattern.condition, Some(super::super::world::CondRt::Version(_)))
        && pattern.action == Action::Update
        && pattern.operation == Some(Operation::UpdateItem)
}

#[cfg(test)]
mod tests {
    use super::super::model::Model;
    use crate::engine::planner::condition::conflict_chance;

    /// practice-ledger's postings: 700 a second, the settlement account's share 0.6 (and its
    /// uniform part's), the rest uniform over 5,000 accounts.
    fn model(variant: &str) -> (Model, f64) {
        let loaded = crate::scenario::load("practice-ledger").expect("bundled");
        let variant = loaded.variant(Some(variant)).expect("variant");
        let plan = crate::engine::planner::plan(&loaded.scenario, variant);
        let world = super::super::super::world::compile(&loaded.scenario, variant, &plan.patterns);
        let model = Model::compile(&world, 31, 0, &vec![0; world.patterns.len()]).expect("compiles");
        (model, world.patterns[0].rate)
    }

    #[test]
    fn each_item_loses_its_race_with_its_own_chance_and_the_losses_write_nothing() {
        // (variant, items an account's balance is spread over)
        for (variant, shards) in [("naive", 1.0), ("recommended", 32.0)] {
            let (model, rate) = model(variant);
            let hot = (0.6 + 0.4 / 5000.0) / shards;
            let cold = 0.4 / 5000.0 / shards;
            let expected =
                shards * (hot * conflict_chance(hot, rate) + 4999.0 * cold * conflict_chance(cold, rate));
            let lost = model.lost_share(0);
            assert!((lost - expected).abs() < 1e-9 * expected, "{variant}: {lost} lost, {expected} expected");
            let [v] = &model.versions[..] else { panic!("{variant}: one version check") };
            for f in [v.read, v.lost[0], v.lost[1]] {
                assert!(model.charges(f) && model.flows[f].bytes == 0.0, "{variant}: flow {f}");
            }
            assert!(!model.charges(v.update));
            assert_eq!(
                (model.lost_with(v.lost[0]), model.lost_with(v.lost[1])),
                (Some(v.update), Some(v.read))
            );
            assert!(
                !model.flows[v.read].write && model.flows[v.lost[0]].write && !model.flows[v.lost[1]].write
            );
        }
    }
}

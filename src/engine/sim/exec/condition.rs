//! Conditional writes in the replay: what a create-once put or a version-checked update costs
//! when its condition holds and when it fails, and when two version checks on one item collide.
//!
//! DynamoDB's rules (AWS developer guide, "Condition expressions" and "DynamoDB read and write
//! operations"): a write whose condition is false is refused with
//! ConditionalCheckFailedException, changes nothing (no index entry either) and still consumes
//! write capacity — `store::capacity::failed_write_units`, the rule `keyheat ops` charges too.
//! Each store's charge is its profile's (`Metering::failed_write`, `Metering::latest_read`):
//! Cosmos DB charges a refused write (412) what the write would have cost, keyheat's assumption.
//!
//! The contention model is keyheat's own. A version-checked update is a read-modify-write: the
//! caller reads the item (GetItem, strongly consistent), then sends the UpdateItem with
//! `version = :read`. The time between the two is drawn per call from an exponential
//! distribution whose mean is the modelled GetItem and UpdateItem latencies (8 ms): the call
//! loses when another version-checked update of the same item landed within that time before
//! it. The loser's write fails (charged), it reads the item again and retries once, after the
//! write it lost to — a retry the model lets land. Draws come from (seed, pattern, call), so
//! the same run gives the same conflicts. `planner::write` predicts the rate from the same
//! model.

use crate::engine::hash::combine;
use crate::engine::planner::condition::VERSION_WINDOW_MS;
use crate::engine::sim::Simulation;
use crate::engine::sim::items::unit;
use crate::engine::sim::meter::{READ, WRITE};
use crate::engine::sim::table::PartKey;

use super::write::{NO_ORDINAL, Target};
use super::{Call, Refused, Resume};
use crate::engine::sim::items::Val;
use crate::engine::sim::latency;
use crate::engine::sim::table::Placed;

/// The stream the read-modify-write windows draw from.
const WINDOW_STREAM: u64 = 0x7665_7273_696f_6e77;

impl Simulation {
    /// Meters and charges a request that changes no item — the read of a read-modify-write, the
    /// write of a failed condition — on the table partition holding `pk`. False when the
    /// partition refused it (throttled).
    pub(in crate::engine::sim) fn charge_unchanged(
        &mut self,
        t_idx: usize,
        pk: &PartKey,
        dim: usize,
        units: f64,
        pattern: Option<usize>,
        first: bool,
    ) -> bool {
        let group = self.storage.group_of[t_idx][0];
        let metered = self.world.engine.profile().metered();
        if metered {
            let metered_by = self.storage.groups[group].metered_by;
            let tick = self.pacing.tick;
            if let Some(meter) = self.storage.groups[metered_by].meter.as_mut() {
                let i = meter.locate(pk.hash);
                if let Err(refusal) = meter.consume(tick, dim, &[(i, units)]) {
                    self.refused(group, refusal, [pk], first);
                    return false;
                }
            }
            self.storage.groups[group].units[dim] += units;
            match pattern {
                Some(pattern) => {
                    self.spend(Call { pattern, index: 0, tick: self.pacing.tick, time_ms: 0 }, dim, units);
                }
                None => self.figures.totals.units[dim] += units,
            }
        }
        if let Some(partition) = self.storage.tables[t_idx].base.find(pk.key_type, &pk.text, pk.hash) {
            self.touch(group, partition, dim, if metered { units } else { 1.0 }, 0);
        }
        true
    }

    /// The read of a version-checked update, and the race it may lose: when another
    /// version-checked update of the item landed within this call's read-to-write window, the
    /// call's write fails (charged for the item), and it reads the item again. Returns the item's
    /// handle (to record the update when it lands) and the time the reads took; `None` when a
    /// request was throttled, the call then queued for its retry.
    pub(super) fn version_read(
        &mut self,
        call: Call,
        entity: usize,
        target: &Target,
        vals: &[Val],
        now_ms: u64,
        resume: Option<&Resume>,
    ) -> Option<(Option<u32>, f64)> {
        let mut placed = Placed::default();
        let Some(t_idx) = self.world.entities[entity].table else { return Some((None, 0.0)) };
        if !self.place(entity, target.ordinal, vals, &mut placed) {
            return Some((None, 0.0));
        }
        let first = resume.is_none();
        let old = self.storage.tables[t_idx].current(&placed).map_or(0, |row| u64::from(row.size));
        let handle = self.world.handle(entity, target.ordinal);
        let metering = self.world.engine.profile().metering;
        let read = metering.latest_read(old);
        self.figures.count_requests(call.pattern, first, 1);
        let mut landed = self.charge_unchanged(t_idx, &placed.pk, READ, read, Some(call.pattern), first);
        let draw = unit(self.seed, WINDOW_STREAM, combine(&[call.pattern as u64, call.index]));
        let window = -VERSION_WINDOW_MS * (1.0 - draw).ln();
        let conflict = landed
            && self
                .items
                .versions
                .get(&handle)
                .is_some_and(|&last| last <= now_ms && ((now_ms - last) as f64) < window);
        if conflict {
            // The UpdateItem fails on its condition, then the GetItem again. A throttled
            // UpdateItem is refused before its condition is evaluated: no race lost yet, and no
            // read again (the retry reads first).
            self.figures.count_requests(call.pattern, first, 1);
            let failed = metering.failed_write(old, u64::from(placed.size));
            landed = self.charge_unchanged(t_idx, &placed.pk, WRITE, failed, Some(call.pattern), first);
            if landed {
                self.figures.stats[call.pattern].conflicts += 1;
                self.figures.stats[call.pattern].condition_failed += 1;
                self.figures.totals.conflicts += 1;
                self.figures.totals.condition_failed += 1;
                self.figures.count_requests(call.pattern, first, 1);
                landed = self.charge_unchanged(t_idx, &placed.pk, READ, read, Some(call.pattern), first);
            }
        }
        if !landed {
            // The retry names the item it would have made, or the one the read sent first
            // found: it does not send that read again (`locate`), so it has no other way to it.
            let located = self.world.patterns[call.pattern].locate.is_some();
            let ordinal = if target.created || located { target.ordinal } else { NO_ORDINAL };
            let refused = Refused {
                request: 0,
                now_ms,
                base_ms: latency::GET_MS,
                reports: true,
                ordinal,
                cursor: None,
            };
            self.throttled(call, resume, refused);
            return None;
        }
        let ms = if conflict { 2.0 * latency::GET_MS + latency::WRITE_MS } else { latency::GET_MS };
        Some((Some(handle), ms))
    }

    /// Records a version-checked update that landed: later ones within their window conflict.
    pub(in crate::engine::sim) fn version_landed(&mut self, handle: u32, now_ms: u64) {
        self.items.versions.insert(handle, now_ms);
    }

    /// Counts a create-once put refused because an item holds its key (not a lost write: the
    /// caller learns the key is taken).
    pub(in crate::engine::sim) fn create_refused(&mut self, pattern: usize) {
        self.figures.stats[pattern].condition_failed += 1;
        self.figures.totals.condition_failed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::VERSION_WINDOW_MS;
    use crate::engine::sim::latency;

    #[test]
    fn the_version_window_is_a_read_and_a_write_of_the_latency_model() {
        assert!((VERSION_WINDOW_MS - (latency::GET_MS + latency::WRITE_MS)).abs() < f64::EPSILON);
    }
}

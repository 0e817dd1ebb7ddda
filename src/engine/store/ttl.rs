//! Time to live: a table's TTL attribute, the sweeper's schedule, and the sweep.
//!
//! An item expires when its TTL attribute (a top-level N, epoch seconds) is at or before the
//! clock. Expired items stay visible to every read until the sweeper deletes them, `delay`
//! after they expire. AWS deletes "typically within 48 hours" (AWS knowledge center, "Why aren't
//! expired items deleted"; the guide now says "within a few days"), so the store's default delay
//! is 48 h. Sweeper deletes consume no capacity and remove the item's index entries like any
//! delete. An expiry more than five years in the past is ignored, as AWS documents ("Formatting
//! an item's TTL attribute"); five years here is 5 × 365 days.

use std::collections::BTreeSet;

use crate::engine::time::{SimDuration, SimTime};
use crate::engine::value::{AttributeValue, Item};

use super::key::PrimaryKey;
use super::table::Table;

/// Expiries older than this before the sweep are not deleted.
const MAX_PAST: SimDuration = SimDuration::from_secs(5 * 365 * 86_400);

#[derive(Debug, Clone, Default)]
pub(crate) struct Ttl {
    pub attribute: Option<String>,
    pub delay: SimDuration,
    /// (when the sweeper deletes, which item). Entries go stale when an item is rewritten or
    /// deleted; the sweep re-checks the item rather than hunting stale entries on every write.
    queue: BTreeSet<(SimTime, PrimaryKey)>,
    pub deletes: u64,
}

/// When the item expires, if it has a usable TTL attribute.
fn expiry(item: &Item, attribute: &str) -> Option<SimTime> {
    let AttributeValue::N(n) = item.get(attribute)? else { return None };
    let secs = n.to_f64();
    // Negative or absurdly far values never expire (u64 milliseconds end around 5.8e8 years).
    if !(0.0..1e15).contains(&secs) {
        return None;
    }
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "checked range above")]
    Some(SimTime::from_millis((secs * 1000.0).floor() as u64))
}

impl Ttl {
    pub(crate) fn new(delay: SimDuration) -> Ttl {
        Ttl { delay, ..Ttl::default() }
    }

    /// Notes a written item's expiry, if it has one.
    pub(crate) fn schedule(&mut self, key: &PrimaryKey, item: &Item) {
        let Some(attribute) = &self.attribute else { return };
        if let Some(at) = expiry(item, attribute) {
            self.queue.insert((at + self.delay, key.clone()));
        }
    }

    fn next_due(&self) -> Option<SimTime> {
        self.queue.first().map(|(due, _)| *due)
    }
}

impl Table {
    /// Turns TTL on (`Some`) or off (`None`) and rebuilds the sweeper's schedule.
    pub(crate) fn set_ttl(&mut self, attribute: Option<String>) {
        self.ttl.attribute = attribute;
        self.ttl.queue.clear();
        if self.ttl.attribute.is_none() {
            return;
        }
        let mut ttl = std::mem::take(&mut self.ttl);
        for (partition, p) in &self.partitions {
            for (sort, stored) in &p.items {
                let key = PrimaryKey { partition: partition.clone(), sort: sort.clone() };
                ttl.schedule(&key, &stored.item);
            }
        }
        self.ttl = ttl;
    }

    /// Runs the sweeper and the GSI replication up to `until`, in time order; `from` is the clock
    /// before the advance (a sweep that fell due earlier runs at `from`). Returns (index changes
    /// applied, items deleted).
    pub(crate) fn advance(&mut self, from: SimTime, until: SimTime) -> (usize, u64) {
        let mut applied = 0;
        let mut deleted = 0;
        while let Some(due) = self.ttl.next_due().filter(|due| *due <= until) {
            let (_, key) = self.ttl.queue.pop_first().expect("next_due saw an entry");
            let at = due.max(from);
            applied += self.apply_pending(at);
            let Some(attribute) = &self.ttl.attribute else { break };
            let Some(stored) = self.get(&key) else { continue };
            let Some(expires) = expiry(&stored.item, attribute) else { continue };
            // A rewrite with another expiry left this entry stale; its own entry will come.
            if expires + self.ttl.delay != due || expires + MAX_PAST < at {
                continue;
            }
            self.write(key, None, at).expect("a delete never grows an item collection");
            self.ttl.deletes += 1;
            deleted += 1;
        }
        applied += self.apply_pending(until);
        (applied, deleted)
    }
}

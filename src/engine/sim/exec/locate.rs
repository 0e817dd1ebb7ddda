//! The read an update or delete sends before it writes when the call cannot compute the item's
//! key from what it gives (`planner::write`'s locate): a Query of an index the givens serve, or
//! a Scan. It is metered on the partitions it reads and charged to the write's pattern like any
//! read, and its time adds to the call's. A refused request is not retried on its own: the
//! application retries the call, which reads again from the start ([`LOCATE_RETRY`]), each
//! attempt's requests counted as sent.

use super::read::Gathering;
use super::write::NO_ORDINAL;
use super::{Call, Refused, Resume};
use crate::engine::sim::{Simulation, latency};

/// The request number of a write call's retry that starts over at the read it sends first (a
/// write's own requests are numbered from 0).
pub(super) const LOCATE_RETRY: u32 = u32::MAX;

impl Simulation {
    /// Sends the read the call's pattern sends first, if it has one and this attempt starts
    /// there: `Some(ms)`, the read's time (0 without one), with the item it found in
    /// `scratch.located`; `None` when the partitions refused a request of it, and the call is
    /// queued to retry from the read.
    #[expect(clippy::inline_always, reason = "#[inline] did not inline it into `write`")]
    #[inline(always)]
    pub(super) fn locate(&mut self, call: Call, resume: Option<&Resume>) -> Option<f64> {
        self.scratch.located = None;
        if self.world.patterns[call.pattern].locate.is_none() {
            return Some(0.0);
        }
        self.send_locate(call, resume)
    }

    /// `locate` for a pattern that sends a read first (kept apart so the common case, a
    /// write that knows its key, inlines into the write).
    fn send_locate(&mut self, call: Call, resume: Option<&Resume>) -> Option<f64> {
        if let Some(r) = resume.filter(|r| r.request != LOCATE_RETRY) {
            // The write's own retry: it names the item the read found before.
            let entity = self.world.patterns[call.pattern].entity;
            self.scratch.located = (r.ordinal != NO_ORDINAL).then(|| self.world.handle(entity, r.ordinal));
            return Some(0.0);
        }
        let Some((operation, plan)) = self.world.patterns[call.pattern].locate.take() else {
            return Some(0.0);
        };
        let mut known = Vec::new();
        self.inputs(call, &mut known);
        // The read's requests are the call's, but its fan-out is not the write's: a write's
        // fan-out counts the items it names.
        let (requests, fanout) =
            (self.figures.stats[call.pattern].requests, self.figures.stats[call.pattern].fanout);
        self.scratch.split = Some(Gathering { locate: true, ..Gathering::default() });
        // A retry reads at its own time, which is when an observer sees it sent.
        let now_ms = resume.map_or(call.time_ms, |r| r.at_ms);
        self.read_one(Call { time_ms: now_ms, ..call }, &plan, operation, &known, None);
        let gathered = self.scratch.split.take().unwrap_or_default();
        let stats = &mut self.figures.stats[call.pattern];
        stats.locating += stats.requests - requests;
        stats.fanout = fanout;
        self.world.patterns[call.pattern].locate = Some((operation, plan));
        let done: Vec<f64> = gathered.times.iter().copied().filter(|t| !t.is_nan()).collect();
        let ms = latency::calls_ms(self.world.engine.profile().fanout, &done);
        if gathered.refused {
            let refused = Refused {
                request: LOCATE_RETRY,
                now_ms,
                base_ms: ms,
                reports: true,
                ordinal: NO_ORDINAL,
                cursor: None,
            };
            self.throttled(call, resume, refused);
            return None;
        }
        self.scratch.located = gathered.found.get();
        Some(ms)
    }
}

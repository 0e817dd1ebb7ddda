//! A Scan of a metered table as rates: its pages read the whole table, so a call's cost is the
//! table's size, not a key's. The per-operation replay (`exec::read`'s `scan`) reads the
//! table's items in hash order, a page stopping once it has read 1 MB (within the item that
//! passes it), each page `Metering::page` of its bytes — eventually consistent, 4 KB a half
//! unit — shared among the physical partitions it read by the bytes it read on each (DESIGN.md
//! §4: "1 MB of items read per Query/Scan call (before the filter)"). A filter decides what a
//! page returns, not what it reads.
//!
//! Here a call at a tick's middle reads what each physical partition holds then: its bytes so
//! far (the preload, and every write that landed) and half of the tick's writes. Its pages are
//! `F` full ones of 1 MB and half a mean item, and a last one of the rest; its units go to each
//! partition by its bytes, and so do its pages (the requests a refusal counts). The work per
//! tick is one pass over the physical partitions, whatever the table holds.
//!
//! What it must never do: serve a Scan the partitions throttle as if its pages were a flow. A
//! refused page holds back every page after it (the call resumes there after the client's
//! wait), and its call's budget leaves the rest of the tick's requests short: the run stops
//! with that named (`Scans::breach`). Overwrites are not taken off what a partition holds, as
//! for the splits (`capacity`'s module doc).

use crate::engine::store::PAGE_BYTES;

use super::super::model::{Model, Units};
use super::{Capacity, Demand, WRITE};

/// What a metered Scan pattern read, as expected values (`PatternReport`'s figures of it).
#[derive(Debug, Clone, Copy, Default)]
pub struct ScanFigures {
    /// Pages, each one request (the call's requests).
    pub pages: f64,
    /// The most pages one call read (its `max_requests`).
    pub most_pages: u64,
    /// (read units, calls) of the run's first tenth of ticks and of its last tenth: the
    /// pattern's units per call at the start and at the end.
    pub head: (f64, f64),
    pub tail: (f64, f64),
}

/// The Scans one meter serves: none but the table's.
#[derive(Debug, Clone, Default)]
pub struct Scans {
    /// Per flow: whether it is a Scan's (its demand comes from here, not from its shares).
    flows: Vec<bool>,
    /// The table's items so far: the preload's and the puts' that landed, expected.
    items: f64,
    /// The run's ticks, for its first and last tenth (`Pacing::is_head`, `is_tail`).
    ticks: u32,
    /// A Scan's pattern whose pages a partition or the table refused.
    breach: Option<usize>,
}

impl Scans {
    pub fn new(model: &Model, groups: &[bool]) -> Scans {
        let flows = model
            .flows
            .iter()
            .map(|f| groups[f.group] && model.scans.contains(&f.pattern) && !f.write)
            .collect();
        let items = (0..model.groups.len())
            .filter(|&g| groups[g] && !model.groups[g].index)
            .flat_map(|g| model.preload[g].values())
            .map(|p| p.items)
            .sum();
        Scans { flows, items, ticks: 0, breach: None }
    }

    pub fn set_ticks(&mut self, ticks: u32) {
        self.ticks = ticks;
    }

    fn any(&self) -> bool {
        self.flows.iter().any(|&s| s)
    }

    /// A slot of partition `i` served share `k` of its demand: a Scan's page refused there is
    /// outside what rates model.
    pub fn served(&mut self, f: usize, pattern: usize, requests: f64, k: f64) {
        if self.flows.get(f).copied().unwrap_or(false) && requests > 0.0 && 1.0 - k > 1e-9 {
            self.breach.get_or_insert(pattern);
        }
    }

    pub fn breach(&self) -> Option<usize> {
        self.breach
    }
}

/// The pages and units of one Scan of a table of `bytes` in `items`: full pages of 1 MB and
/// the overshoot of their last item (half a mean item, on average), then the rest.
fn pages(metering: crate::engine::profile::Metering, bytes: f64, items: f64) -> (f64, f64) {
    let mean_item = if items > 0.0 { bytes / items } else { 0.0 };
    let page = PAGE_BYTES as f64 + mean_item / 2.0;
    let full = (bytes / page).floor();
    let rest = (bytes - full * page).max(0.0);
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "bytes of one page")]
    let units = full * metering.page(page.ceil() as u64) + metering.page(rest.ceil() as u64);
    (full + 1.0, units)
}

impl Capacity {
    /// Tick `t`'s Scans (`n` calls per pattern), asked at the tick's middle, into `demand`: each
    /// call's pages and units on every physical partition, by the bytes it holds then.
    pub(super) fn scan_demand(&mut self, model: &Model, t: u32, n: &[u64], demand: &mut [Demand]) {
        if !self.scan.any() {
            return;
        }
        // Half of the tick's writes come before its middle (calls are spread over the tick).
        let holds: Vec<f64> = demand.iter().zip(&self.bytes).map(|(d, b)| b + d.bytes / 2.0).collect();
        let bytes: f64 = holds.iter().sum();
        let writes: f64 = model
            .flows
            .iter()
            .enumerate()
            .filter(|(_, f)| f.write && self.scope.groups[f.group] && !model.groups[f.group].index)
            .map(|(f, _)| demand.iter().map(|d| d.requests[f]).sum::<f64>())
            .sum();
        let items = self.scan.items + writes / 2.0;
        let (pages, units) = pages(self.metering, bytes, items);
        let head = t < self.scan.ticks.div_ceil(10);
        let tail = t >= self.scan.ticks.saturating_sub(self.scan.ticks.div_ceil(10));
        for f in (0..model.flows.len()).filter(|&f| self.scan.flows[f]) {
            let pattern = model.flows[f].pattern;
            let calls = n[pattern] as f64;
            if calls <= 0.0 {
                continue;
            }
            // An empty table still answers one page, from the partition holding hash 0.
            let empty = if bytes > 0.0 { None } else { Some(self.meter.locate(0)) };
            for (i, d) in demand.iter_mut().enumerate() {
                let part = match empty {
                    Some(first) => f64::from(u8::from(first == i)),
                    None => holds[i] / bytes,
                };
                d.requests[f] += calls * pages * part;
                d.units[f] += calls * units * part;
                d.live[f] += calls * units * part;
            }
            let figures = &mut self.figures.scans[pattern];
            figures.pages += calls * pages;
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a count of pages")]
            let most = pages.ceil() as u64;
            figures.most_pages = figures.most_pages.max(most);
            if head {
                figures.head.0 += calls * units;
                figures.head.1 += calls;
            }
            if tail {
                figures.tail.0 += calls * units;
                figures.tail.1 += calls;
            }
        }
    }

    /// The table's items after tick's `demand` was served (`served`: the share of each
    /// partition's writes that landed).
    pub(super) fn scan_landed(&mut self, model: &Model, demand: &[Demand]) {
        if !self.scan.any() {
            return;
        }
        for (f, flow) in model.flows.iter().enumerate() {
            if !flow.write || !self.scope.groups[flow.group] || model.groups[flow.group].index {
                continue;
            }
            debug_assert!(matches!(flow.units, Units::Each(_)), "a put's units are fixed");
            for (d, served) in demand.iter().zip(&self.served) {
                self.scan.items += d.requests[f] * served[WRITE];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pages;
    use crate::engine::profile::Metering;

    /// A page stops past 1 MB, within its last item: 128.5 units for items under 8 KB; the
    /// last page's units are its own bytes'.
    #[test]
    fn a_scans_pages_are_full_megabytes_and_the_rest() {
        // 3.5 MB of 500-byte items: 3 full pages and a last one of about 0.5 MB.
        let bytes = 3.5 * 1_048_576.0;
        let (pages_read, units) = pages(Metering::Units, bytes, bytes / 500.0);
        assert!((pages_read - 4.0).abs() < 1e-12);
        let rest = bytes - 3.0 * (1_048_576.0 + 250.0);
        let want = 3.0 * 128.5 + 0.5 * (rest / 4096.0).ceil();
        assert!((units - want).abs() < 1e-9, "{units} against {want}");
        // An empty table: one page of nothing, the least a read costs.
        assert_eq!(pages(Metering::Units, 0.0, 0.0), (1.0, 0.5));
    }
}

//! Executing calls: what each pattern's call sends, what it costs, whether it is throttled, and
//! what it changes. Reads page through the ledger; writes go through `table::Table::write`
//! with metering as its check.

use std::cmp::Reverse;
use std::ops::Bound;

use crate::engine::model::{Action, Engine, RangeSpan};
use crate::engine::planner::Operation;
use crate::engine::store::read_units;
use crate::engine::value::KeyType;

use super::Simulation;
use super::items::{Slot, Val, push_text, render_slot};
use super::keys::{Codec, SortBuf, SortRef, entry_bound, prefix_successor, push_number};
use super::latency::{self, MAX_RETRIES, backoff_ms};
use super::ledger::{Row, ScanCursor, ScanMode};
use super::meter::{READ, Refusal, WRITE};
use super::regen::BirthInfo;
use super::state::{NO_ROW, Retry};
use super::table::{PartKey, Placed, Touch, WriteRefused};
use super::world::{Filter, Origin, ReadPlan};

/// Where a retried request resumes: which request of the call, and for a Scan its cursor.
#[derive(Debug, Clone, Copy)]
pub(super) struct Resume {
    pub request: u16,
    pub retries: u32,
    pub ordinal: u32,
    pub base_ms: f64,
    pub reports: bool,
    pub cursor: Option<ScanCursor>,
}

/// A request's sort-key bounds in its group's encoding.
type Range = (Bound<SortBuf>, Bound<SortBuf>);

fn as_ref(bound: &Bound<SortBuf>) -> Bound<SortRef<'_>> {
    match bound {
        Bound::Included(b) => Bound::Included(b.as_ref()),
        Bound::Excluded(b) => Bound::Excluded(b.as_ref()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

impl Simulation {
    fn is_head(&self, t: u32) -> bool {
        t < self.ticks.div_ceil(10)
    }

    fn is_tail(&self, t: u32) -> bool {
        t >= self.ticks - self.ticks.div_ceil(10)
    }

    /// A new call of pattern `p`.
    pub(super) fn call(&mut self, p: usize, call: u64, t: u32, at: u64) {
        let action = self.world.patterns[p].action;
        let stats = &mut self.stats[p];
        stats.calls += 1;
        stats.span.calls += 1.0;
        self.totals.ops += 1;
        if action.is_read() {
            self.totals.reads += 1;
        } else {
            self.totals.writes += 1;
        }
        if self.is_head(t) {
            self.stats[p].head.1 += 1;
        }
        if self.is_tail(t) {
            self.stats[p].tail.1 += 1;
        }
        if self.world.patterns[p].operation.is_none() {
            self.totals.unserved_calls += 1;
            return;
        }
        if action.is_read() {
            self.read(p, call, t, at, None);
        } else {
            self.write(p, call, t, at, None);
        }
    }

    /// A retry that fell due.
    pub(super) fn retry(&mut self, r: Retry, at: u64) {
        let p = usize::from(r.pattern);
        self.totals.retries += 1;
        self.stats[p].retries += 1;
        let resume = Resume {
            request: r.request,
            retries: r.retries,
            ordinal: r.ordinal,
            base_ms: f64::from_bits(r.base_bits),
            reports: r.reports,
            cursor: self.scan_resume.remove(&r.seq),
        };
        if self.world.patterns[p].action.is_read() {
            self.read(p, r.call, r.tick, r.time_ms, Some((resume, at)));
        } else {
            self.write(p, r.call, r.tick, r.time_ms, Some((resume, at)));
        }
    }

    /// Units a read or write spent, into the pattern's figures.
    fn spend(&mut self, p: usize, t: u32, dim: usize, units: f64) {
        let stats = &mut self.stats[p];
        stats.units[dim] += units;
        if dim == READ {
            stats.span.read_units += units;
            if self.is_head(t) {
                self.stats[p].head.0 += units;
            }
            if self.is_tail(t) {
                self.stats[p].tail.0 += units;
            }
        } else {
            stats.span.write_units += units;
        }
        self.totals.units[dim] += units;
    }

    /// A request was throttled at `now_ms`: counts it and queues its retry, fast-forwarding the
    /// retries that would fall in this same tick (capacity does not come back within a tick, so
    /// they fail too).
    #[allow(clippy::too_many_arguments)]
    fn throttled(&mut self, p: usize, call: u64, t: u32, time_ms: u64, request: u16, resume: Option<Resume>, now_ms: u64, base_ms: f64, reports: bool, ordinal: u32, cursor: Option<ScanCursor>) {
        let first = resume.is_none();
        if first {
            self.stats[p].throttled += 1;
            self.stats[p].span.throttled += 1.0;
            self.totals.throttled += 1;
        }
        let tick_end = self.tick_start(self.tick) + self.tick_ms;
        let mut retries = resume.map_or(0, |r| r.retries);
        let mut due = now_ms;
        loop {
            if retries >= MAX_RETRIES {
                self.stats[p].failed += 1;
                self.totals.failed += 1;
                if reports {
                    let ms = base_ms + (due - time_ms) as f64;
                    self.stats[p].latency(ms);
                }
                return;
            }
            retries += 1;
            due += backoff_ms(retries);
            if due >= tick_end {
                break;
            }
            self.stats[p].retries += 1;
            self.totals.retries += 1;
        }
        let seq = self.retry_seq;
        self.retry_seq += 1;
        if let Some(cursor) = cursor {
            self.scan_resume.insert(seq, cursor);
        }
        self.retries.push(Reverse(Retry {
            due_ms: due,
            seq,
            pattern: u16::try_from(p).unwrap_or(u16::MAX),
            request,
            retries,
            call,
            tick: t,
            time_ms,
            ordinal,
            base_bits: base_ms.to_bits(),
            reports,
        }));
    }

    /// A request that succeeded after retries reports the call's latency.
    fn completed(&mut self, p: usize, resume: Option<(Resume, u64)>, time_ms: u64, ms: f64) {
        match resume {
            None => self.stats[p].latency(ms),
            Some((r, at)) if r.reports => {
                let waited = at.saturating_sub(time_ms) as f64;
                self.stats[p].latency(r.base_ms + waited + ms);
            }
            Some(_) => {}
        }
    }

    // ---------------------------------------------------------------- inputs and keys

    /// The values a call knows: its givens (with the identity's item's other givens) and the
    /// constants it compares with; everything else absent.
    fn inputs(&self, p: usize, call: u64, t: u32, time_ms: u64, out: &mut Vec<Val>) {
        let pattern = &self.world.patterns[p];
        let e = pattern.entity;
        let ent = &self.world.entities[e];
        out.clear();
        out.resize(ent.attrs.len(), Val::Absent);
        if let Some((ia, _)) = ent.identity
            && pattern.givens.contains(&ia)
        {
            let member = self.given_val(p, ia, call, t, time_ms);
            if let Val::Member(m) = member
                && let Ok(ordinal) = u32::try_from(m)
                && ordinal < ent.next
            {
                let mut vals = Vec::new();
                self.current_vals(e, ordinal, &mut vals);
                for &g in &pattern.givens {
                    out[g] = vals[g];
                }
            }
            out[ia] = member;
        } else {
            for &g in &pattern.givens {
                out[g] = self.given_val(p, g, call, t, time_ms);
            }
        }
        for &(a, v) in &pattern.equals {
            out[a] = v;
        }
    }

    /// The time window a range covers at `time_ms`: (from, to) in seconds.
    fn window(&self, span: &RangeSpan, time_ms: u64) -> (i64, i64) {
        let now = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX);
        match span {
            RangeSpan::Last(d) => (now - i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2), now),
            _ => (i64::try_from(self.start_ms / 1000).unwrap_or(0), now),
        }
    }

    /// Every partition key a read must ask: known slots rendered, unknown time slots over the
    /// range's buckets, shards and hashes of unknown attributes enumerated.
    fn partition_keys(&self, rp: &ReadPlan, entity: usize, known: &[Val], time_ms: u64) -> Vec<PartKey> {
        let ent = &self.world.entities[entity];
        let pops = &self.world.pops;
        let mut choices: Vec<Vec<String>> = Vec::new();
        for slot in &rp.pk.slots {
            let mut text = String::new();
            if render_slot(slot, &ent.attrs, known, pops, &mut text) {
                choices.push(vec![text]);
                continue;
            }
            let ranged = |attr: usize| rp.range.as_ref().filter(|(a, _)| *a == attr).map(|(_, s)| s);
            let values: Vec<String> = match slot {
                Slot::Shard { count, .. } | Slot::Hash { count, .. } => (0..*count).map(|i| i.to_string()).collect(),
                Slot::Time { attr, format } => match ranged(*attr) {
                    Some(span) => {
                        let (from, to) = self.window(span, time_ms);
                        format
                            .values_between(i128::from(from) * 1000, i128::from(to) * 1000, 100_000)
                            .unwrap_or_default()
                    }
                    None => Vec::new(),
                },
                Slot::Bucket { attr, width_ms } => match ranged(*attr) {
                    Some(span) => {
                        let (from, to) = self.window(span, time_ms);
                        let (a, b) = ((from * 1000).div_euclid(*width_ms), (to * 1000).div_euclid(*width_ms));
                        (a..=b).map(|i| i.to_string()).collect()
                    }
                    None => Vec::new(),
                },
                _ => Vec::new(),
            };
            if values.is_empty() {
                return Vec::new();
            }
            choices.push(values);
        }
        let mut keys = vec![String::new()];
        for options in choices {
            keys = keys
                .iter()
                .flat_map(|k| options.iter().map(move |o| format!("{k}{o}")))
                .collect();
        }
        keys.into_iter().map(|k| PartKey::new(rp.pk.key_type, k.as_bytes())).collect()
    }

    /// The sort-key range a Query asks in its group's encoding.
    fn sort_range(&self, rp: &ReadPlan, entity: usize, known: &[Val], time_ms: u64) -> Range {
        let whole = (Bound::Unbounded, Bound::Unbounded);
        let Some(sk) = &rp.sk else { return whole };
        if rp.entities.len() > 1 {
            return whole;
        }
        let ent = &self.world.entities[entity];
        let index = rp.index.is_some();
        let codec = if index { Codec::Bytes } else { self.world.tables[rp.table].codec };
        let numeric = sk.key_type == KeyType::N;
        // Text bounds first: (lower, upper) as sort key values.
        let mut prefix = String::new();
        let mut bounds: Option<(Bound<String>, Bound<String>)> = None;
        let last = sk.slots.len() - 1;
        for (i, slot) in sk.slots.iter().enumerate() {
            if render_slot(slot, &ent.attrs, known, &self.world.pops, &mut prefix) {
                continue;
            }
            let attr = match slot {
                Slot::Attr { attr, .. } | Slot::Time { attr, .. } | Slot::Bucket { attr, .. } | Slot::Hash { attr, .. } => Some(*attr),
                _ => None,
            };
            let span = rp.range.as_ref().filter(|(a, _)| Some(*a) == attr).map(|(_, s)| s);
            bounds = Some(match span {
                Some(span @ RangeSpan::Last(_)) => {
                    let (from, to) = self.window(span, time_ms);
                    let render = |secs: i64| {
                        let mut vals = known.to_vec();
                        vals[attr.expect("a ranged slot reads an attribute")] = Val::time(secs);
                        let mut text = prefix.clone();
                        render_slot(slot, &ent.attrs, &vals, &self.world.pops, &mut text);
                        text
                    };
                    let (lo, hi) = (render(from), render(to));
                    if i == last || numeric {
                        (Bound::Included(lo), Bound::Included(hi))
                    } else {
                        (Bound::Included(lo), prefix_successor(&hi).map_or(Bound::Unbounded, Bound::Excluded))
                    }
                }
                Some(RangeSpan::BeginsWith(text)) if matches!(slot, Slot::Attr { .. }) && !numeric => {
                    let start = format!("{prefix}{text}");
                    let hi = prefix_successor(&start).map_or(Bound::Unbounded, Bound::Excluded);
                    (Bound::Included(start), hi)
                }
                _ if prefix.is_empty() || numeric => (Bound::Unbounded, Bound::Unbounded),
                _ => (Bound::Included(prefix.clone()), prefix_successor(&prefix).map_or(Bound::Unbounded, Bound::Excluded)),
            });
            break;
        }
        let (lo, hi) = bounds.unwrap_or_else(|| (Bound::Included(prefix.clone()), Bound::Included(prefix)));
        let body = |text: &str| -> Vec<u8> {
            let mut out = Vec::new();
            if numeric { push_number(text, &mut out) } else { out.extend_from_slice(text.as_bytes()) }
            out
        };
        let map = |bound: Bound<String>, lower: bool| -> Bound<SortBuf> {
            match codec {
                Codec::Inline => match bound {
                    Bound::Included(t) => t.parse().map_or(Bound::Unbounded, |v| Bound::Included(SortBuf::Inline(v))),
                    Bound::Excluded(t) => t.parse().map_or(Bound::Unbounded, |v| Bound::Excluded(SortBuf::Inline(v))),
                    Bound::Unbounded => Bound::Unbounded,
                },
                Codec::Bytes if index => {
                    let owned = match &bound {
                        Bound::Included(t) | Bound::Excluded(t) => body(t),
                        Bound::Unbounded => Vec::new(),
                    };
                    let b = match bound {
                        Bound::Included(_) => Bound::Included(owned.as_slice()),
                        Bound::Excluded(_) => Bound::Excluded(owned.as_slice()),
                        Bound::Unbounded => Bound::Unbounded,
                    };
                    match entry_bound(b, lower) {
                        Bound::Included(v) => Bound::Included(SortBuf::Bytes(v)),
                        Bound::Excluded(v) => Bound::Excluded(SortBuf::Bytes(v)),
                        Bound::Unbounded => Bound::Unbounded,
                    }
                }
                Codec::Bytes => match bound {
                    Bound::Included(t) => Bound::Included(SortBuf::Bytes(body(&t))),
                    Bound::Excluded(t) => Bound::Excluded(SortBuf::Bytes(body(&t))),
                    Bound::Unbounded => Bound::Unbounded,
                },
            }
        };
        (map(lo, true), map(hi, false))
    }

    /// Whether an item read passes the read's filter (and is of an entity the read returns).
    fn passes(&self, rp: &ReadPlan, known: &[Val], handle: u32, time_ms: u64, vals: &mut Vec<Val>) -> bool {
        let e = self.world.entity_of(handle);
        if !rp.entities.contains(&e) {
            return false;
        }
        if rp.filter.is_empty() {
            return true;
        }
        if e != rp.entities[0] {
            return false;
        }
        self.current_vals(e, self.world.ordinal_of(handle), vals);
        let attrs = &self.world.entities[e].attrs;
        let now = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX);
        rp.filter.iter().all(|f| match f {
            Filter::Equals(a, v) => vals[*a] == *v,
            Filter::Given(a) => vals[*a] == known[*a],
            Filter::Since(a, secs) => vals[*a].secs().is_some_and(|s| s >= now - secs),
            Filter::Prefix(a, prefix) => {
                let mut text = String::new();
                push_text(&attrs[*a], vals[*a], &self.world.pops, &mut text) && text.starts_with(prefix.as_str())
            }
        })
    }

    // ---------------------------------------------------------------- reads

    fn read(&mut self, p: usize, call: u64, t: u32, time_ms: u64, resume: Option<(Resume, u64)>) {
        let Some(rp) = self.world.patterns[p].read.take() else {
            self.totals.unserved_calls += 1;
            return;
        };
        let operation = self.world.patterns[p].operation.unwrap_or(Operation::Query);
        let mut known = Vec::new();
        self.inputs(p, call, t, time_ms, &mut known);
        match operation {
            Operation::Scan => self.scan(p, &rp, call, t, time_ms, &known, resume),
            Operation::GetItem | Operation::BatchGetItem => self.get(p, &rp, operation, call, t, time_ms, &known, resume),
            _ => self.query(p, &rp, call, t, time_ms, &known, resume),
        }
        self.world.patterns[p].read = Some(rp);
    }

    /// Meters a read of `units` on the partition holding `hash` in group `group`.
    fn meter_read(&mut self, group: usize, touches: &[(u64, f64)], first: bool) -> Result<(), Refusal> {
        let g = self.groups[group].metered_by;
        let tick = self.tick;
        let Some(meter) = self.groups[g].meter.as_mut() else { return Ok(()) };
        let parts: Vec<(usize, f64)> = touches.iter().map(|&(hash, u)| (meter.locate(hash), u)).collect();
        match meter.consume(tick, READ, &parts) {
            Ok(()) => Ok(()),
            Err(refusal) => {
                if let Refusal::Partition(i) = refusal {
                    meter.throttled(i);
                }
                if first {
                    self.groups[group].throttled += 1;
                }
                Err(refusal)
            }
        }
    }

    /// Load of one request on a logical partition (reads).
    fn read_load(&mut self, group: usize, pk: &PartKey, units: f64, bytes: u64) {
        let (t, index) = self.world.groups[group];
        let ledger = match index {
            None => &self.tables[t].table,
            Some(i) => &self.tables[t].indexes[i].1,
        };
        let Some(partition) = ledger.find(pk.key_type, &pk.text, pk.hash) else { return };
        let cassandra = self.world.engine == Engine::Cassandra;
        let amount = if cassandra { 1.0 } else { units };
        self.groups[group].units[READ] += if cassandra { 0.0 } else { units };
        self.touch(group, partition, pk.hash, READ, amount, bytes);
        if cassandra {
            self.node_load(pk.hash, super::READ_REPLICAS, bytes);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn get(&mut self, p: usize, rp: &ReadPlan, operation: Operation, call: u64, t: u32, time_ms: u64, known: &[Val], resume: Option<(Resume, u64)>) {
        let e = rp.entities[0];
        let pks = self.partition_keys(rp, e, known, time_ms);
        let (lo, _) = self.sort_range(rp, e, known, time_ms);
        let sk = match lo {
            Bound::Included(sk) => Some(sk),
            _ => None,
        };
        let cassandra = self.world.engine == Engine::Cassandra;
        if resume.is_none() {
            self.stats[p].fanout += pks.len() as u64;
        }
        let per_request = if operation == Operation::BatchGetItem { crate::engine::store::MAX_BATCH_GET_KEYS } else { 1 };
        let mut times = Vec::new();
        for (j, chunk) in pks.chunks(per_request).enumerate() {
            let j = u16::try_from(j).unwrap_or(u16::MAX);
            if resume.is_some_and(|(r, _)| r.request != j) {
                continue;
            }
            let mut touches = Vec::with_capacity(chunk.len());
            let mut found = 0;
            let mut bytes = 0u64;
            let mut sizes = Vec::with_capacity(chunk.len());
            for pk in chunk {
                let table = &self.tables[rp.table];
                let row = table.table.find(pk.key_type, &pk.text, pk.hash).and_then(|q| {
                    table.table.get(q, sk.as_ref().map_or(SortRef::Inline(0), SortBuf::as_ref))
                });
                let size = row.map_or(0, |r| u64::from(r.size));
                found += u64::from(row.is_some());
                bytes += size;
                sizes.push(size);
                touches.push((pk.hash, if cassandra { 0.0 } else { read_units(size, false) }));
            }
            let units: f64 = touches.iter().map(|t| t.1).sum();
            let ms = latency::base_ms(operation) + sizes.iter().map(|&s| latency::PER_4KB_MS * s.div_ceil(4096) as f64).sum::<f64>();
            let now = resume.map_or(time_ms, |(_, at)| at);
            if resume.is_none() {
                self.stats[p].requests += 1;
                self.totals.requests += 1;
            }
            if !cassandra && self.meter_read(rp.group, &touches, resume.is_none()).is_err() {
                let reports = times.is_empty() && resume.map_or(true, |(r, _)| r.reports);
                self.throttled(p, call, t, time_ms, j, resume.map(|r| r.0), now, ms, reports, 0, None);
                times.push(f64::NAN);
                continue;
            }
            self.spend(p, t, READ, units);
            for (pk, (&(_, u), &size)) in chunk.iter().zip(touches.iter().zip(&sizes)) {
                self.read_load(rp.group, pk, u, size);
            }
            let stats = &mut self.stats[p];
            stats.items_read += found;
            stats.items_returned += found;
            stats.partitions_touched += chunk.len() as u64;
            stats.span.items_read += found as f64;
            stats.span.items_returned += found as f64;
            stats.span.partitions += chunk.len() as f64;
            let _ = bytes;
            times.push(ms);
        }
        self.finish_read(p, resume, time_ms, &times);
    }

    fn finish_read(&mut self, p: usize, resume: Option<(Resume, u64)>, time_ms: u64, times: &[f64]) {
        if times.is_empty() {
            return;
        }
        if times.iter().any(|t| t.is_nan()) && resume.is_none() {
            return; // the throttled request reports the call's latency when it completes
        }
        let done: Vec<f64> = times.iter().copied().filter(|t| !t.is_nan()).collect();
        if done.is_empty() {
            return;
        }
        let ms = if resume.is_some() { done[0] } else { latency::fanout_ms(&done) };
        self.completed(p, resume, time_ms, ms);
    }

    #[allow(clippy::too_many_arguments)]
    fn query(&mut self, p: usize, rp: &ReadPlan, call: u64, t: u32, time_ms: u64, known: &[Val], resume: Option<(Resume, u64)>) {
        let e = rp.entities[0];
        let pks = self.partition_keys(rp, e, known, time_ms);
        let (lo, hi) = self.sort_range(rp, e, known, time_ms);
        let cassandra = self.world.engine == Engine::Cassandra;
        // Limit goes into the request when the key orders the results and nothing filters them.
        let ordered = rp.range.is_some() && rp.sk.is_some();
        let request_limit = match rp.limit {
            Some(l) if rp.filter.is_empty() && (ordered || rp.range.is_none()) => l as usize,
            _ => usize::MAX,
        };
        let want = rp.limit.map_or(u64::MAX, u64::from);
        if resume.is_none() {
            self.stats[p].fanout += pks.len() as u64;
        }
        let (t_idx, index) = self.world.groups[rp.group];
        let mut times = Vec::new();
        let mut returned = 0u64;
        let mut vals = Vec::new();
        for (j, pk) in pks.iter().enumerate() {
            let j = u16::try_from(j).unwrap_or(u16::MAX);
            if resume.is_some_and(|(r, _)| r.request != j) {
                continue;
            }
            let ledger = match index {
                None => &self.tables[t_idx].table,
                Some(i) => &self.tables[t_idx].indexes[i].1,
            };
            let partition = ledger.find(pk.key_type, &pk.text, pk.hash);
            let mut units = 0.0;
            let mut ms = 0.0;
            let mut read = 0u64;
            let mut matched = 0u64;
            let mut pages = 0u64;
            let mut bytes_total = 0u64;
            let mut fetch_units = 0.0;
            let mut after = None;
            let partition_bytes = partition.map_or(0, |q| ledger.partition(q).bytes);
            loop {
                let page = match partition {
                    Some(q) => ledger.query(q, as_ref(&lo), as_ref(&hi), rp.forward, request_limit, after),
                    None => super::ledger::Page { first: 0, count: 0, bytes: 0, stopped: false },
                };
                pages += 1;
                units += if cassandra { 0.0 } else { read_units(page.bytes, false) };
                ms += latency::request_ms(Operation::Query, page.bytes);
                read += page.count as u64;
                bytes_total += page.bytes;
                if let Some(q) = partition {
                    if rp.look {
                        let rows = ledger.partition(q).rows();
                        for i in page.positions(rp.forward) {
                            let row = rows[i];
                            if rp.fetch && !cassandra {
                                fetch_units += read_units(u64::from(self.item_size(row.id)), false);
                            }
                            if matched + returned < want && self.passes(rp, known, row.id, time_ms, &mut vals) {
                                matched += 1;
                            }
                        }
                    } else {
                        matched += page.count as u64;
                    }
                    if page.count > 0 {
                        after = page.positions(rp.forward).last();
                    }
                }
                if !page.stopped || matched + returned >= want {
                    break;
                }
            }
            if cassandra {
                ms += latency::cassandra_partition_ms(partition_bytes);
            }
            let now = resume.map_or(time_ms, |(_, at)| at);
            if resume.is_none() {
                self.stats[p].requests += pages;
                self.stats[p].pages += pages;
                self.totals.requests += pages;
            }
            let total_units = units + fetch_units;
            if !cassandra && self.meter_read(rp.group, &[(pk.hash, total_units)], resume.is_none()).is_err() {
                let reports = times.is_empty() && resume.map_or(true, |(r, _)| r.reports);
                self.throttled(p, call, t, time_ms, j, resume.map(|r| r.0), now, ms, reports, 0, None);
                times.push(f64::NAN);
                continue;
            }
            self.spend(p, t, READ, total_units);
            self.read_load(rp.group, pk, total_units, bytes_total);
            returned += matched;
            let stats = &mut self.stats[p];
            stats.items_read += read;
            stats.partitions_touched += 1;
            stats.span.items_read += read as f64;
            stats.span.partitions += 1.0;
            times.push(ms);
        }
        let returned = returned.min(want);
        self.stats[p].items_returned += returned;
        self.stats[p].span.items_returned += returned as f64;
        self.finish_read(p, resume, time_ms, &times);
    }

    #[allow(clippy::too_many_arguments)]
    fn scan(&mut self, p: usize, rp: &ReadPlan, call: u64, t: u32, time_ms: u64, known: &[Val], resume: Option<(Resume, u64)>) {
        let cassandra = self.world.engine == Engine::Cassandra;
        // Without an order to honour, the reader stops once it has its limit.
        let stop_at = match (rp.limit, &rp.range) {
            (Some(l), None) => u64::from(l),
            _ => u64::MAX,
        };
        let mut cursor = resume.and_then(|(r, _)| r.cursor).unwrap_or_default();
        if resume.is_none() {
            self.stats[p].fanout += 1;
            self.stats[p].scans += 1;
            self.stats[p].span.scans += 1.0;
        }
        let group = self.world.tables[rp.table].group;
        let starts = self.groups[group].meter.as_ref().map(super::meter::Meter::starts).unwrap_or_else(|| vec![0]);
        let mut ms = resume.map_or(0.0, |(r, _)| r.base_ms);
        let mut matched = 0u64;
        let mut vals = Vec::new();
        loop {
            let ledger = &self.tables[rp.table].table;
            let page = {
                let mut check = |_: u32, row: &Row| self.passes(rp, known, row.id, time_ms, &mut vals);
                let mode = match rp.mark {
                    Some(mark) => ScanMode::Totals { mark: Some(mark), partial: &mut check },
                    None => ScanMode::Visit(&mut check),
                };
                ledger.scan_page(cursor, u64::MAX, &starts, mode)
            };
            let units = if cassandra { 0.0 } else { read_units(page.bytes, false) };
            let page_ms = latency::request_ms(Operation::Scan, page.bytes);
            self.stats[p].requests += 1;
            self.stats[p].pages += 1;
            self.totals.requests += 1;
            if !cassandra {
                let touches: Vec<(u64, f64)> = if page.bytes == 0 {
                    vec![(0, units)]
                } else {
                    page.by_range.iter().map(|&(r, b)| (starts[r], units * b as f64 / page.bytes as f64)).collect()
                };
                if self.meter_read(group, &touches, resume.is_none()).is_err() {
                    let now = resume.map_or(time_ms, |(_, at)| at) + ms as u64;
                    self.throttled(p, call, t, time_ms, 0, resume.map(|r| r.0), now, ms, true, 0, Some(cursor));
                    return;
                }
                for &(hash, u) in &touches {
                    let g = self.groups[group].metered_by;
                    if let Some(meter) = &self.groups[g].meter {
                        let _ = meter.locate(hash);
                    }
                    let _ = u;
                }
                self.groups[group].units[READ] += units;
            }
            self.spend(p, t, READ, units);
            ms += page_ms;
            matched += page.matched;
            let stats = &mut self.stats[p];
            stats.items_read += page.count;
            stats.span.items_read += page.count as f64;
            match page.next {
                Some(next) if page.stopped && matched < stop_at => cursor = next,
                _ => break,
            }
        }
        let returned = matched.min(rp.limit.map_or(u64::MAX, u64::from));
        let stats = &mut self.stats[p];
        stats.items_returned += returned;
        stats.span.items_returned += returned as f64;
        stats.partitions_touched += self.tables[rp.table].table.live_partitions();
        match resume {
            None => self.stats[p].latency(ms),
            Some((r, at)) if r.reports => {
                let waited = at.saturating_sub(time_ms) as f64;
                self.stats[p].latency(ms + waited);
            }
            Some(_) => {}
        }
    }

    /// An item's size now (for LSI fetches).
    fn item_size(&self, handle: u32) -> u32 {
        let e = self.world.entity_of(handle);
        let ordinal = self.world.ordinal_of(handle);
        let mut vals = Vec::new();
        self.current_vals(e, ordinal, &mut vals);
        let mut placed = Placed::default();
        if self.place(e, ordinal, &vals, &mut placed) { placed.size } else { 0 }
    }

    // ---------------------------------------------------------------- writes

    fn write(&mut self, p: usize, call: u64, t: u32, time_ms: u64, resume: Option<(Resume, u64)>) {
        let action = self.world.patterns[p].action;
        let e = self.world.patterns[p].entity;
        let now = resume.map_or(time_ms, |(_, at)| at);
        let mut vals = std::mem::take(&mut self.scratch.vals);
        let outcome = match action {
            Action::Put => {
                let ordinal = match resume {
                    Some((r, _)) => r.ordinal,
                    None => {
                        let (first, n) = (self.plan_first[p], self.plan_n[p]);
                        self.alloc(e, Origin::Pattern(u16::try_from(p).unwrap_or(u16::MAX)), call, t, first, n, true)
                    }
                };
                let birth = BirthInfo { origin: Origin::Pattern(u16::try_from(p).unwrap_or(u16::MAX)), call, tick: t, time_ms };
                self.born_vals(e, ordinal, birth, &mut vals);
                Some((ordinal, false))
            }
            Action::Update | Action::Delete => self.target(p, call, t, time_ms, action, &mut vals),
            Action::Get | Action::List => None,
        };
        let Some((ordinal, created)) = outcome else {
            self.scratch.vals = vals;
            return;
        };
        if resume.is_none() {
            self.stats[p].requests += 1;
            self.stats[p].fanout += 1;
            self.totals.requests += 1;
        }
        let delete = action == Action::Delete;
        let _ = created;
        let status = self.write_item(e, ordinal, if delete { None } else { Some(&vals) }, Some(p), t, now, resume.is_none());
        let ms = latency::WRITE_MS;
        match status {
            WriteStatus::Done => {
                self.completed(p, resume, time_ms, ms);
                if action == Action::Update && !self.copies.is_empty() {
                    let sets = self.world.patterns[p].sets.clone();
                    for s in sets {
                        self.rewrite_copies(e, ordinal, s, vals[s], p, t, now);
                    }
                }
                if action != Action::Delete {
                    let aggregates = self.world.patterns[p].aggregates.clone();
                    for a in aggregates {
                        self.aggregate(a, e, &vals, p, t, now);
                    }
                }
            }
            WriteStatus::Throttled => {
                self.throttled(p, call, t, time_ms, 0, resume.map(|r| r.0), now, ms, true, ordinal, None);
            }
            WriteStatus::Invalid | WriteStatus::Collection => {
                self.stats[p].failed += 1;
                self.totals.failed += 1;
                if status == WriteStatus::Collection {
                    self.stats[p].collection_errors += 1;
                    self.totals.collection_errors += 1;
                }
                self.completed(p, resume, time_ms, ms);
            }
        }
        self.scratch.vals = vals;
    }

    /// The item an update or delete names, and its new values (for an update: the sets drawn for
    /// this call). Creates the item for an update when it is missing (as UpdateItem does).
    fn target(&mut self, p: usize, call: u64, t: u32, time_ms: u64, action: Action, vals: &mut Vec<Val>) -> Option<(u32, bool)> {
        let pattern = &self.world.patterns[p];
        let e = pattern.entity;
        let ent = &self.world.entities[e];
        let mut ordinal = None;
        if let Some((ia, _)) = ent.identity
            && pattern.givens.contains(&ia)
            && let Val::Member(m) = self.given_val(p, ia, call, t, time_ms)
        {
            ordinal = u32::try_from(m).ok().filter(|&o| o < ent.next);
            ordinal?;
        }
        let mut existing = None;
        if let Some(o) = ordinal {
            // The named item; if another item now holds its key, that one is updated.
            self.current_vals(e, o, vals);
            let mut placed = Placed::default();
            if self.place(e, o, vals, &mut placed)
                && let Some(t_idx) = ent.table
                && let Some(row) = self.tables[t_idx].current(&placed)
            {
                existing = Some(row.id);
            }
            if existing.is_none() && action == Action::Delete {
                return None;
            }
        } else {
            // The key from the call's givens.
            let mut known = Vec::new();
            self.inputs(p, call, t, time_ms, &mut known);
            let mut placed = Placed::default();
            let probe_ordinal = ent.next;
            let t_idx = ent.table?;
            let key = (self.world.patterns[p].stream, call);
            if self.place_with(e, probe_ordinal, &known, Some(key), &mut placed) {
                existing = self.tables[t_idx].current(&placed).map(|r| r.id);
            } else {
                // The key needs attributes the call does not give: nothing to name.
                return None;
            }
            if existing.is_none() && action == Action::Delete {
                return None;
            }
        }
        let (e_now, ordinal_now, created) = match existing {
            Some(handle) => (self.world.entity_of(handle), self.world.ordinal_of(handle), false),
            None => {
                let o = match ordinal {
                    Some(o) => o,
                    None => self.alloc(e, Origin::Pattern(u16::try_from(p).unwrap_or(u16::MAX)), call, t, call, 1, false),
                };
                (e, o, true)
            }
        };
        if e_now != e {
            return None;
        }
        self.current_vals(e, ordinal_now, vals);
        if action == Action::Update {
            let sets = self.world.patterns[p].sets.clone();
            let handle = self.world.handle(e, ordinal_now);
            let changes = self.overrides.entry(handle).or_default();
            for &s in &sets {
                let v = {
                    let a = &self.world.entities[e].attrs[s];
                    let stream = crate::engine::hash::combine(&[self.world.patterns[p].stream, 0x5e7, s as u64]);
                    super::items::generate(&a.source, self.seed, stream, call, i64::try_from(time_ms / 1000).unwrap_or(0), a.ty)
                };
                let v = if v == Val::Absent { vals[s] } else { v };
                vals[s] = v;
                let slot = u16::try_from(s).unwrap_or(u16::MAX);
                match changes.iter_mut().find(|(a, _)| *a == slot) {
                    Some(entry) => entry.1 = v,
                    None => changes.push((slot, v)),
                }
            }
        }
        Some((ordinal_now, created))
    }

    /// Writes (or deletes) item `ordinal` of `entity` with `vals` through the table, metered.
    /// `first`: the request's first attempt (a refusal then counts as a throttled request).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_item(&mut self, e: usize, ordinal: u32, vals: Option<&[Val]>, p: Option<usize>, t: u32, now_ms: u64, first: bool) -> WriteStatus {
        let Some(t_idx) = self.world.entities[e].table else { return WriteStatus::Invalid };
        let mut placed = std::mem::take(&mut self.scratch.placed);
        let mut old_placed = std::mem::take(&mut self.scratch.old_placed);
        let key_vals: Vec<Val>;
        let vals_for_key: &[Val] = match vals {
            Some(v) => v,
            None => {
                let mut current = Vec::new();
                self.current_vals(e, ordinal, &mut current);
                key_vals = current;
                &key_vals
            }
        };
        if !self.place(e, ordinal, vals_for_key, &mut placed) {
            self.scratch.placed = placed;
            self.scratch.old_placed = old_placed;
            return WriteStatus::Invalid;
        }
        let table_has_more = !self.world.tables[t_idx].indexes.is_empty() || self.scan_marks[t_idx].len() > 0;
        let old_row = self.tables[t_idx].current(&placed);
        let mut old_vals = std::mem::take(&mut self.scratch.old_vals);
        let old = match old_row {
            None => None,
            Some(row) if table_has_more || !self.copies.is_empty() => {
                let oe = self.world.entity_of(row.id);
                let oo = self.world.ordinal_of(row.id);
                self.current_vals(oe, oo, &mut old_vals);
                if self.place(oe, oo, &old_vals, &mut old_placed) {
                    // The old item sits where the row is.
                    old_placed.pk = placed.pk.clone();
                    old_placed.sk.clone_from(&placed.sk);
                    old_placed.size = row.size;
                    Some(&old_placed)
                } else {
                    None
                }
            }
            Some(row) => {
                old_placed.pk = placed.pk.clone();
                old_placed.sk.clone_from(&placed.sk);
                old_placed.size = row.size;
                old_placed.id = row.id;
                old_placed.entries.clear();
                Some(&old_placed)
            }
        };
        if vals.is_none() && old.is_none() {
            // Deleting nothing still costs one write unit.
            self.scratch.placed = placed;
            self.scratch.old_placed = old_placed;
            self.scratch.old_vals = old_vals;
            return WriteStatus::Done;
        }
        let new = vals.is_some().then_some(&placed);
        let cassandra = self.world.engine == Engine::Cassandra;
        let tick = self.tick;
        let groups = &mut self.groups;
        let group_of = &self.group_of[t_idx];
        let mut refused: Option<(usize, Refusal)> = None;
        let mut touches = std::mem::take(&mut self.touches);
        let result = self.tables[t_idx].write_into(
            old,
            new,
            &mut |touches: &[Touch]| cassandra || admit(groups, group_of, tick, now_ms, touches, &mut refused),
            &mut touches,
        );
        let status = match result {
            Ok(entry_writes) => {
                let old_handle = old.map(|o| o.id);
                self.after_write(t_idx, &touches, entry_writes, p, t);
                // Marks for Scans with constant filters.
                for k in 0..self.scan_marks[t_idx].len() {
                    let sp = self.scan_marks[t_idx][k];
                    let Some(rp) = self.world.patterns[sp].read.as_ref() else { continue };
                    let matches = |vals: &[Val], entity: usize| {
                        rp.entities.first() == Some(&entity)
                            && rp.filter.iter().all(|f| match f {
                                Filter::Equals(a, v) => vals[*a] == *v,
                                _ => true,
                            })
                    };
                    let before = old_handle.is_some_and(|h| matches(&old_vals, self.world.entity_of(h)));
                    let after = vals.is_some_and(|v| matches(v, e));
                    if before != after {
                        let pidx = touches[0].partition;
                        self.tables[t_idx].table.mark(pidx, k, if after { 1 } else { -1 });
                    }
                }
                if let Some(h) = old_handle
                    && (vals.is_none() || h != placed.id)
                {
                    self.overrides.remove(&h);
                }
                if let Some(v) = vals
                    && old_handle != Some(placed.id)
                {
                    self.after_new_item(e, ordinal, v);
                }
                WriteStatus::Done
            }
            Err(WriteRefused::Throttled) => {
                if let Some((g, refusal)) = refused {
                    if first {
                        self.groups[g].throttled += 1;
                    }
                    let m = self.groups[g].metered_by;
                    if let Some(meter) = self.groups[m].meter.as_mut()
                        && let Refusal::Partition(i) | Refusal::Backlog(i) = refusal
                    {
                        meter.throttled(i);
                    }
                    // The logical partition counts the throttle too.
                    if let Some(pk) = if g == self.group_of[t_idx][0] { Some(placed.pk.clone()) } else { None } {
                        let ledger = &self.tables[t_idx].table;
                        if let Some(pidx) = ledger.find(pk.key_type, &pk.text, pk.hash) {
                            let load = self.load(g, pidx);
                            load.throttled += 1;
                            load.span_throttled += 1;
                        }
                    }
                }
                WriteStatus::Throttled
            }
            Err(WriteRefused::CollectionLimit { .. }) => WriteStatus::Collection,
        };
        self.touches = touches;
        self.scratch.placed = placed;
        self.scratch.old_placed = old_placed;
        self.scratch.old_vals = old_vals;
        status
    }

    /// Bookkeeping of a new item: its TTL expiry and, for copy holders, its source.
    fn after_new_item(&mut self, e: usize, ordinal: u32, vals: &[Val]) {
        let handle = self.world.handle(e, ordinal);
        if let Some(attr) = self.world.entities[e].ttl_attr
            && let Some(expires) = vals[attr].secs()
        {
            self.ttl[e].push_back((expires, handle));
        }
        for (c, copy) in self.copies.iter().enumerate() {
            if copy.to == e
                && let Val::Member(m) = vals[copy.by_attr]
            {
                self.copy_holders[c].entry(m).or_default().push(handle);
            }
        }
    }

    /// Units, loads and bytes of a write that landed.
    fn after_write(&mut self, t_idx: usize, touches: &[Touch], entry_writes: u32, p: Option<usize>, t: u32) {
        let cassandra = self.world.engine == Engine::Cassandra;
        let units: f64 = touches.iter().map(|t| t.units).sum();
        self.totals.item_writes += 1;
        self.totals.entry_writes += u64::from(entry_writes);
        if let Some(p) = p {
            self.totals.base_writes += 1;
            if !cassandra {
                self.spend(p, t, WRITE, units);
            }
        } else if !cassandra {
            self.totals.units[WRITE] += units;
        }
        for (k, touch) in touches.iter().enumerate() {
            let g = self.group_of[t_idx][touch.group];
            if touch.group > 0 {
                self.groups[g].entry_writes += 1;
            }
            if !cassandra {
                self.groups[g].units[WRITE] += touch.units;
            }
            let amount = if cassandra { 1.0 } else { touch.units };
            self.touch(g, touch.partition, touch.hash, WRITE, amount, 0);
            if cassandra && touch.group == 0 {
                self.node_load(touch.hash, super::REPLICATION, 0);
            }
            let first = !touches[..k].iter().any(|t| t.group == touch.group && t.partition == touch.partition);
            if first {
                self.settle(g, touch.partition);
            }
        }
    }

    /// Adds load to a logical partition (and registers its row when due).
    pub(super) fn touch(&mut self, g: usize, partition: u32, hash: u64, dim: usize, amount: f64, bytes: u64) {
        #[expect(clippy::cast_possible_truncation, reason = "per-tick amounts fit an f32")]
        let (amount32, secs) = (amount as f32, self.tick_secs as f32);
        let tick = self.tick;
        let span = self.span;
        let window = tick / self.window_ticks;
        let load = self.load(g, partition);
        load.roll(tick, secs);
        load.now[dim] += amount32;
        #[expect(clippy::cast_possible_truncation, reason = "bytes per tick fit an f32 well enough")]
        let b = bytes as f32;
        load.now_bytes += b;
        load.total[dim] += amount;
        load.requests += 1;
        load.add_window(window, amount32);
        load.span_units[dim] += amount32;
        let needs_row = load.row == NO_ROW;
        let queued = load.span == span;
        let hot = load.now[dim] / secs >= 0.5 * super::meter::PARTITION_RATE[dim] as f32;
        if needs_row {
            self.register_logical(g, partition, hot);
        }
        let load = self.load(g, partition);
        if load.row != NO_ROW && !queued {
            load.span = span;
            self.span_rows.push((u32::try_from(g).unwrap_or(u32::MAX), partition));
        }
        let _ = hash;
    }

    /// Moves a logical partition's stored bytes change into its physical partition (or nodes).
    pub(super) fn settle(&mut self, g: usize, partition: u32) {
        let (t, index) = self.world.groups[g];
        let ledger = match index {
            None => &self.tables[t].table,
            Some(i) => &self.tables[t].indexes[i].1,
        };
        let part = ledger.partition(partition);
        let (bytes, hash) = (part.bytes, part.hash);
        let load = self.load(g, partition);
        let delta = bytes.wrapping_sub(load.seen_bytes).cast_signed();
        load.seen_bytes = bytes;
        if delta == 0 {
            return;
        }
        let m = self.groups[g].metered_by;
        if let Some(meter) = self.groups[m].meter.as_mut() {
            let i = meter.locate(hash);
            meter.parts[i].bytes = meter.parts[i].bytes.wrapping_add_signed(delta);
        }
        if self.world.engine == Engine::Cassandra {
            for n in replicas(hash, super::REPLICATION) {
                self.nodes[n].stored = self.nodes[n].stored.wrapping_add_signed(delta);
            }
        }
        if self.world.engine == Engine::Cassandra
            && self.load(g, partition).row == NO_ROW
            && (bytes >= 50 << 20 || part_items(self, g, partition) >= 50_000)
        {
            self.register_logical(g, partition, true);
        }
    }

    /// Every logical partition's bytes into its physical partition (after the preload).
    pub(super) fn settle_bytes(&mut self, g: usize) {
        let (t, index) = self.world.groups[g];
        let count = match index {
            None => self.tables[t].table.partitions().len(),
            Some(i) => self.tables[t].indexes[i].1.partitions().len(),
        };
        for partition in 0..u32::try_from(count).unwrap_or(u32::MAX) {
            self.settle(g, partition);
        }
    }

    /// Operations and bytes on the replicas of a partition (Cassandra).
    fn node_load(&mut self, hash: u64, replicas_touched: usize, bytes: u64) {
        let tick = self.tick;
        let secs = self.tick_secs;
        for n in replicas(hash, replicas_touched) {
            let node = &mut self.nodes[n];
            node.roll(tick, secs);
            node.now_ops += 1.0;
            node.now_bytes += bytes as f64;
            node.ops += 1;
            node.bytes_moved += bytes;
            node.span_ops += 1.0;
        }
    }

    /// A write outside any pattern's call: the preload (free) and growth (metered PutItems).
    pub(super) fn write_free(&mut self, e: usize, ordinal: u32) {
        let birth = self.birth(e, ordinal).expect("allocated ordinals have a birth");
        let mut vals = Vec::new();
        self.born_vals(e, ordinal, birth, &mut vals);
        let Some(t_idx) = self.world.entities[e].table else { return };
        let mut placed = Placed::default();
        if !self.place(e, ordinal, &vals, &mut placed) {
            return;
        }
        let old = self.tables[t_idx].current(&placed).map(|row| {
            let mut o = placed.clone();
            o.size = row.size;
            o.id = row.id;
            o.entries.iter_mut().for_each(|entry| *entry = None);
            o
        });
        let old = if old.is_some() && !self.world.tables[t_idx].indexes.is_empty() {
            // Regenerate the replaced item for its index entries.
            let row = self.tables[t_idx].current(&placed).expect("just found");
            let (oe, oo) = (self.world.entity_of(row.id), self.world.ordinal_of(row.id));
            let mut ov = Vec::new();
            self.current_vals(oe, oo, &mut ov);
            let mut op = Placed::default();
            self.place(oe, oo, &ov, &mut op).then_some(op)
        } else {
            old
        };
        if self.tables[t_idx].write(old.as_ref(), Some(&placed), &mut |_| true).is_ok() {
            for k in 0..self.scan_marks[t_idx].len() {
                let sp = self.scan_marks[t_idx][k];
                let Some(rp) = self.world.patterns[sp].read.as_ref() else { continue };
                let matches = rp.entities.first() == Some(&e)
                    && rp.filter.iter().all(|f| match f {
                        Filter::Equals(a, v) => vals[*a] == *v,
                        _ => true,
                    });
                if matches {
                    let ledger = &mut self.tables[t_idx].table;
                    if let Some(pidx) = ledger.find(placed.pk.key_type, &placed.pk.text, placed.pk.hash) {
                        ledger.mark(pidx, k, 1);
                    }
                }
            }
            self.after_new_item(e, ordinal, &vals);
        }
    }

    pub(super) fn write_growth(&mut self, e: usize, ordinal: u32, t: u32) {
        let birth = self.birth(e, ordinal).expect("allocated ordinals have a birth");
        let mut vals = Vec::new();
        self.born_vals(e, ordinal, birth, &mut vals);
        let now = self.tick_start(t);
        self.totals.requests += 1;
        self.totals.growth_writes += 1;
        if self.write_item(e, ordinal, Some(&vals), None, t, now, true) != WriteStatus::Done {
            self.totals.failed += 1;
        }
    }
}

/// How a write went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WriteStatus {
    Done,
    Throttled,
    /// The item's table keys do not expand (a key attribute is missing).
    Invalid,
    /// ItemCollectionSizeLimitExceeded.
    Collection,
}

fn part_items(sim: &Simulation, g: usize, partition: u32) -> u64 {
    let (t, index) = sim.world.groups[g];
    match index {
        None => sim.tables[t].table.partition(partition).items(),
        Some(i) => sim.tables[t].indexes[i].1.partition(partition).items(),
    }
}

/// The `count` nodes holding the partition with this token: the owner and the next ones.
pub(super) fn replicas(hash: u64, count: usize) -> impl Iterator<Item = usize> {
    let owner = usize::try_from((u128::from(hash) * super::RING_NODES as u128) >> 64).unwrap_or(0);
    (0..count.min(super::RING_NODES)).map(move |i| (owner + i) % super::RING_NODES)
}

/// The metering check of one write: the table's partition (and LSI entries, which live on it)
/// must have room, and every GSI partition it writes must take the entries at once or queue them
/// (back-pressure otherwise). All or nothing.
fn admit(
    groups: &mut [super::state::GroupState],
    group_of: &[usize],
    tick: u32,
    now_ms: u64,
    touches: &[Touch],
    refused: &mut Option<(usize, Refusal)>,
) -> bool {
    let table_group = group_of[0];
    // GSI queues first: a refusal there must leave the table untouched.
    let mut index_writes: Vec<(usize, usize, f64)> = Vec::new();
    let mut table_touches: Vec<(u64, f64)> = Vec::new();
    for touch in touches {
        let g = group_of[touch.group];
        if groups[g].metered_by != g {
            table_touches.push((touch.hash, touch.units));
            continue;
        }
        if touch.group == 0 {
            table_touches.push((touch.hash, touch.units));
            continue;
        }
        let Some(meter) = groups[g].meter.as_ref() else { continue };
        let i = meter.locate(touch.hash);
        match index_writes.iter_mut().find(|(gg, ii, _)| *gg == g && *ii == i) {
            Some(entry) => entry.2 += touch.units,
            None => index_writes.push((g, i, touch.units)),
        }
    }
    for &(g, i, units) in &index_writes {
        if groups[g].meter.as_ref().is_some_and(|m| !m.can_take(tick, i, units)) {
            *refused = Some((g, Refusal::Backlog(i)));
            return false;
        }
    }
    if let Some(meter) = groups[table_group].meter.as_mut() {
        let parts: Vec<(usize, f64)> = table_touches.iter().map(|&(hash, u)| (meter.locate(hash), u)).collect();
        if let Err(refusal) = meter.consume(tick, WRITE, &parts) {
            *refused = Some((table_group, refusal));
            return false;
        }
    }
    for (g, i, units) in index_writes {
        if let Some(meter) = groups[g].meter.as_mut() {
            // `can_take` said yes and nothing ran in between, so this serves or queues.
            let _ = meter.index_write(tick, now_ms, i, units);
        }
    }
    true
}

//! Row-paged reads as rates (Cassandra: the driver's fetch size, `Profile::page_rows`): the
//! pages, each a request, that one call of a read flow sends to the partitions it asks. Per
//! operation (`exec::read`'s `query_partition`) a page stops once it holds the fetch size's R
//! rows, even when no row is left, so a range of K rows takes ⌊K/R⌋ + 1 requests, and a call
//! whose limit L fits in one page takes one. A Scan (`exec::read`'s `scan`) pages the same
//! way over every row of its table: ⌊N/R⌋ + 1 for N rows. Owns the write history it counts a
//! range's rows from; the partitions' sizes and the partitions a call asks stay the replay's
//! (`replay`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::engine::model::Action;
use crate::engine::planner::Operation;

use super::super::world::World;
use super::capacity::buckets::Buckets;
use super::extremes::normal_tail;
use super::model::{Model, Preloaded, Shares, Skew, SortRepeats};

/// How a rates report counts a row-paged read's requests (its notes).
pub const NOTE: &str = "Row-paged reads as rates: a read sends a request a page of the driver's fetch size (5,000 rows) on each partition it asks, ⌊rows in its range / 5,000⌋ + 1 (one where its limit fits in a page), the rows a member's expected puts in the range (less those whose sort key repeats a taken one, its values taken as equally likely) and its preloaded rows; a Scan the same over every row of its table, the preload's and the distinct keys of every put so far at its tick's middle. Requests are expected values. A call's most requests is an approximation, not the median of a maximum: the busiest member's pages at its expected rows at a tick's middle (one run's busiest call may ask later in its tick, or draw more rows).";

/// Members whose range's mean count is this many standard deviations (and a row) below a
/// page's rows take one page: P(K ≥ R) is below 1e-15 there.
const BELOW_SD: f64 = 8.0;

/// The pages one call of a read flow sends in a tick: expected, over the member it asks, and
/// the busiest member's at its rows' expected count (an approximation of one run's busiest
/// call, which may ask later in its tick or draw more rows: `NOTE`). `most` counts the
/// partitions, not their shards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CallPages {
    pub mean: f64,
    pub most: u64,
}

/// What a rates replay on a row-paged store keeps to count a range's rows.
#[derive(Debug)]
pub struct Paging {
    rows: f64,
    start_secs: f64,
    tick_secs: f64,
    /// Per pattern that writes a group a read flow asks: its calls before each tick so far
    /// (index t: the calls of ticks 0..t), and its calls in the tick running.
    history: Vec<Vec<u64>>,
    now: Vec<u64>,
    /// The patterns with a write flow, each once.
    written: Vec<usize>,
    buckets: Vec<Buckets>,
    /// Per group, the first second of the bucket the run starts in (its preloaded rows').
    first: Vec<i64>,
    /// Per group with calendar buckets, the periods met so far (first second → the second
    /// after): a read's range walks the same buckets tick after tick, and finding one period
    /// formats its text some forty times (`Buckets::start`).
    periods: RefCell<Vec<BTreeMap<i64, Option<i64>>>>,
    scans: Vec<ScanRows>,
    /// Per flow: whether it adds rows — a put's, not an aggregate's or an embed's side write
    /// onto an item that exists, nor an index entry's move.
    adds_rows: Vec<bool>,
    /// Per group: whether a write other than a put writes it (an update, which may add a row
    /// or not; a delete).
    updated: Vec<bool>,
    /// Per group a Query reads: its members by the largest share any put of its rows gives
    /// them, largest first — a read's member loop stops at the first that cannot reach a page,
    /// as none after it can (`call_pages`). Empty where the loop takes every member: a put's
    /// shares change with the ticks, or one member.
    order: Vec<Vec<(f64, u32)>>,
    /// Per read flow of such a group: its shares' sum over the members (the weight of those
    /// the loop stops before, each a page a bucket).
    picked: Vec<f64>,
    /// Per group, its members' most preloaded rows: a bound on any member's.
    most_pre: Vec<f64>,
    /// Per read flow: whether its picks and its group's puts' shares stay as the run starts
    /// them — not a grown population's, a kid's, nor a read the cache fronts — so its
    /// `Classes`, built at its first call that reaches a page, serve every later call.
    fixed: Vec<bool>,
    /// Per read flow with `fixed` shares, its member classes once built (`classes`).
    classes: RefCell<Vec<Option<Rc<Classes>>>>,
    /// Per read flow, the buckets its range walked last, by its ends' buckets (`walk`): a
    /// range walks the same buckets call after call until its ends move into the next, and
    /// each bucket met is a lookup in `periods`.
    #[expect(clippy::type_complexity, reason = "ends → buckets, read in `walk` only")]
    walks: RefCell<Vec<Option<((i64, i64), Rc<[(i64, Option<i64>)]>)>>>,
}

/// A read's members as its member loop meets them (`Paging::call_pages`), each run of
/// consecutive members that count alike — the same bound, pick, share of each put and
/// preloaded rows — taken as one class: a uniform pick's members are counted once a tick,
/// not once each.
#[derive(Debug)]
struct Classes {
    each: Vec<Class>,
    /// Each class's share of each put that adds rows (`puts` of them), class after class.
    shares: Vec<f64>,
    puts: usize,
}

#[derive(Debug, Clone, Copy)]
struct Class {
    /// The largest share any put gives its members and every member after them (∞ where the
    /// loop takes every member: `Paging::order`).
    top: f64,
    pick: f64,
    pre: f64,
    members: u32,
}

/// A Scan on a row-paged store: it reads every row of its table, whatever its call gives.
#[derive(Debug)]
struct ScanRows {
    pattern: usize,
    /// The table's preloaded rows.
    preload: f64,
    /// The table's key groups, each with the put flows that add its rows.
    groups: Vec<(usize, Vec<usize>)>,
    /// A write of the table whose rows are not followed — an update, which may add a row or
    /// not, or a put whose sort key repeats by a skewed pick: the Scan is refused when called.
    unfollowed: Option<String>,
}

/// The pages of one Scan's calls in a tick: expected, and the most one call read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScanPages {
    pub pattern: usize,
    pub pages: CallPages,
}

/// One partition's stretch of a call's range: `[lo, hi)` seconds within one bucket, and
/// whether it holds the preloaded rows.
struct Segment {
    lo: f64,
    hi: f64,
    preload: bool,
}

impl Paging {
    /// Paging for a store whose pages hold rows (`Profile::page_rows`); none elsewhere.
    pub fn new(world: &World, model: &Model, (start_ms, tick_ms): (u64, u64)) -> Option<Paging> {
        let rows = world.engine.profile().page_rows()? as f64;
        let patterns = model.flows.iter().map(|f| f.pattern + 1).max().unwrap_or(0);
        let adds_rows: Vec<bool> = (0..model.flows.len())
            .map(|f| {
                let flow = &model.flows[f];
                flow.write
                    && world.patterns[flow.pattern].action == Action::Put
                    && !model.side_write(f)
                    && !model.moved_flows.contains(&f)
            })
            .collect();
        let mut updated = vec![false; model.groups.len()];
        for (f, flow) in model.flows.iter().enumerate() {
            updated[flow.group] |=
                flow.write && !adds_rows[f] && !model.side_write(f) && !model.moved_flows.contains(&f);
        }
        let queried: Vec<bool> = (0..model.groups.len())
            .map(|g| {
                model.flows.iter().any(|f| {
                    f.group == g && !f.write && world.patterns[f.pattern].operation == Some(Operation::Query)
                })
            })
            .collect();
        let order: Vec<Vec<(f64, u32)>> = (0..model.groups.len())
            .map(|g| if queried[g] { by_top_share(model, g, &adds_rows) } else { Vec::new() })
            .collect();
        let picked = model
            .flows
            .iter()
            .map(|f| {
                if f.write || order[f.group].is_empty() {
                    return 0.0;
                }
                (0..usize::try_from(model.groups[f.group].members).unwrap_or(0)).map(|m| f.shares.of(m)).sum()
            })
            .collect();
        let buckets: Vec<Buckets> = model.groups.iter().map(Buckets::of).collect();
        let fixed_shares = |f: usize| {
            let grown = model.growth.as_ref().is_some_and(|growth| {
                growth.flows.contains(&f) || growth.kid_flows.iter().any(|&(k, _)| k == f)
            });
            !grown && !model.cache.as_ref().is_some_and(|c| c.fronts(f))
        };
        let fixed = (0..model.flows.len())
            .map(|f| {
                let group = model.flows[f].group;
                fixed_shares(f)
                    && (0..model.flows.len())
                        .all(|w| !model.flows[w].write || model.flows[w].group != group || fixed_shares(w))
            })
            .collect();
        #[expect(clippy::cast_possible_wrap, reason = "milliseconds since the epoch")]
        let start_secs = (start_ms / 1000) as i64;
        let mut written: Vec<usize> = model.flows.iter().filter(|f| f.write).map(|f| f.pattern).collect();
        written.sort_unstable();
        written.dedup();
        Some(Paging {
            rows,
            written,
            start_secs: start_ms as f64 / 1000.0,
            tick_secs: tick_ms as f64 / 1000.0,
            history: vec![Vec::new(); patterns],
            now: vec![0; patterns],
            first: buckets.iter().map(|b| b.start(start_secs)).collect(),
            periods: RefCell::new(vec![BTreeMap::new(); buckets.len()]),
            buckets,
            scans: model.scans.iter().map(|&p| ScanRows::of(world, model, p, &adds_rows, &updated)).collect(),
            adds_rows,
            updated,
            order,
            picked,
            most_pre: model.preload.iter().map(|p| p.values().map(|x| x.items).fold(0.0, f64::max)).collect(),
            fixed,
            classes: RefCell::new(vec![None; model.flows.len()]),
            walks: RefCell::new(vec![None; model.flows.len()]),
        })
    }

    /// Notes a tick about to run: each write pattern's `calls` before it, and `n` in it.
    pub fn record(&mut self, calls: impl Fn(usize) -> u64, n: &[u64]) {
        for &p in &self.written {
            self.history[p].push(calls(p));
            self.now[p] = n[p];
        }
    }

    /// Calls of write pattern `p` made before second `secs`: the ticks wholly before it, and
    /// the part of its own tick's calls made by then (a tick's calls are spread evenly over it,
    /// as the per-operation replay times them).
    fn calls_before(&self, p: usize, secs: f64) -> f64 {
        let history = &self.history[p];
        let at = (secs - self.start_secs) / self.tick_secs;
        if at <= 0.0 || history.is_empty() {
            return 0.0;
        }
        let running = history.len() - 1;
        let k = at.floor();
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a tick index, positive")]
        let k = k as usize;
        if k >= running {
            return history[running] as f64 + (at - running as f64).min(1.0) * self.now[p] as f64;
        }
        let (a, b) = (history[k] as f64, history[k + 1] as f64);
        a + (at - k as f64) * (b - a)
    }

    /// The stretches of the range a call of flow `f` (of group `g`) asks at second `at` (its
    /// span back from the whole second it asks at, as `Replay::asked` counts its partitions),
    /// bucket by bucket.
    fn segments(&self, (g, f): (usize, usize), span: Option<i64>, at: f64) -> Vec<Segment> {
        #[expect(clippy::cast_possible_truncation, reason = "seconds")]
        let to = at.floor() as i64;
        let (last, _) = self.period(g, to);
        let lo = span.map_or(f64::NEG_INFINITY, |s| to.saturating_sub(s) as f64);
        let from = span.map_or(last, |s| self.period(g, to.saturating_sub(s)).0);
        let first = self.first[g];
        let walk = self.walk((g, f), from, last);
        walk.iter()
            .map(|&(bucket, end)| {
                let seg_lo = lo.max(bucket as f64);
                let hi = end.map_or(at, |e| at.min(e as f64));
                Segment { lo: seg_lo, hi, preload: bucket == first && seg_lo <= self.start_secs }
            })
            .collect()
    }

    /// The buckets of group `g` from the one starting at second `from` to the one starting at
    /// `last`: each one's first second and the second after it. Flow `f`'s last walk serves
    /// while its range's ends stay in the same buckets (`walks`).
    fn walk(&self, (g, f): (usize, usize), from: i64, last: i64) -> Rc<[(i64, Option<i64>)]> {
        if let Some((ends, walk)) = &self.walks.borrow()[f]
            && *ends == (from, last)
        {
            return Rc::clone(walk);
        }
        let mut out = Vec::new();
        let mut bucket = from;
        loop {
            let (_, end) = self.period(g, bucket);
            out.push((bucket, end));
            match end {
                Some(next) if bucket < last && next > bucket => bucket = next,
                _ => break,
            }
        }
        let walk: Rc<[(i64, Option<i64>)]> = out.into();
        self.walks.borrow_mut()[f] = Some(((from, last), Rc::clone(&walk)));
        walk
    }

    /// The bucket of group `g` holding second `secs`: its first second, and the second after it
    /// (`None`: one bucket for the whole run).
    fn period(&self, g: usize, secs: i64) -> (i64, Option<i64>) {
        let buckets = &self.buckets[g];
        if !buckets.calendar() {
            let start = buckets.start(secs);
            return (start, buckets.end(start));
        }
        let known = self.periods.borrow()[g].range(..=secs).next_back().map(|(&s, &e)| (s, e));
        if let Some((start, end)) = known.filter(|(_, e)| e.is_none_or(|e| secs < e)) {
            return (start, end);
        }
        let start = buckets.start(secs);
        let end = buckets.end(start);
        self.periods.borrow_mut()[g].insert(start, end);
        (start, end)
    }

    /// Each Scan's pages in the tick whose middle is second `at`: ⌊N/R⌋ + 1 a call for the N rows
    /// its table holds then. Err: the name of a write whose rows are not followed.
    pub fn scan_pages(&self, model: &Model, n: &[u64], at: f64) -> Result<Vec<ScanPages>, String> {
        let mut out = Vec::new();
        for scan in self.scans.iter().filter(|s| n[s.pattern] > 0) {
            if let Some(write) = &scan.unfollowed {
                return Err(write.clone());
            }
            let rows = scan.preload
                + scan.groups.iter().map(|(g, puts)| self.table_rows(model, *g, puts, at)).sum::<f64>();
            let pages = CallPages {
                mean: expected_pages(rows, 0.0, self.rows, f64::INFINITY),
                most: pages_of(rows.floor(), self.rows, f64::INFINITY),
            };
            out.push(ScanPages { pattern: scan.pattern, pages });
        }
        Ok(out)
    }

    /// The rows group `g`'s `puts` added by second `at`: one a put where no sort key repeats,
    /// else each member's distinct keys (`new_rows`).
    fn table_rows(&self, model: &Model, g: usize, puts: &[usize], at: f64) -> f64 {
        let calls: Vec<f64> = puts.iter().map(|&w| self.calls_before(model.flows[w].pattern, at)).collect();
        let sort = &model.groups[g].sort;
        if sort.collide <= 0.0 || exact_within_second(model, sort, puts) {
            return calls.iter().sum();
        }
        let preload = model.preload.get(g);
        let secs = at - self.start_secs;
        (0..usize::try_from(model.groups[g].members).unwrap_or(0))
            .map(|member| {
                let w: f64 =
                    puts.iter().zip(&calls).map(|(&f, c)| model.flows[f].shares.of(member) * c).sum();
                let pre = preload.and_then(|p| p.get(&(member as u64))).map_or(0.0, |p| p.items);
                new_rows(w, sort, secs, pre)
            })
            .sum()
    }

    /// The pages one call of read flow `f` (of group `g`) sends at second `at`, `shards` the
    /// partitions a member's key spreads over; `limit` its rows wanted; `partial` whether its
    /// range leaves out rows other than by their write time. Err: what is not followed of a
    /// read whose partitions may hold a page of rows — their shards' rows, or a partial
    /// range's.
    pub fn call_pages(
        &self,
        model: &Model,
        (g, f, writes): (usize, usize, &[usize]),
        (at, limit, shards, partial): (f64, Option<u32>, f64, bool),
        asked: u64,
    ) -> Result<CallPages, &'static str> {
        let flow = &model.flows[f];
        // A page a partition: the partitions `Replay::asked` counts, each shard of them.
        let one = CallPages { mean: asked as f64 * shards, most: asked };
        // A limit within a page: the page stops at it, and the call has what it wants.
        let cap = limit.map_or(f64::INFINITY, f64::from);
        if cap <= self.rows {
            return Ok(one);
        }
        let segments = self.segments((g, f), flow.span_secs, at);
        let writes: Vec<usize> = writes.iter().copied().filter(|&w| self.adds_rows[w]).collect();
        // Per segment, each write flow's calls in it.
        let calls: Vec<Vec<f64>> = segments
            .iter()
            .map(|s| {
                let p = |w: usize| model.flows[w].pattern;
                let span = |w| (self.calls_before(p(w), s.hi) - self.calls_before(p(w), s.lo)).max(0.0);
                writes.iter().map(|&w| if s.hi > s.lo { span(w) } else { 0.0 }).collect()
            })
            .collect();
        let most_pre = self.most_pre.get(g).copied().unwrap_or(0.0);
        // Every write of the range on one member bounds any member's count.
        let reaches = calls.iter().zip(&segments).filter(|(c, s)| {
            let bound = c.iter().sum::<f64>() + if s.preload { most_pre } else { 0.0 };
            bound + BELOW_SD * bound.sqrt() + 1.0 >= self.rows
        });
        let reaching = reaches.count();
        if reaching == 0 {
            return Ok(one);
        }
        let sort = &model.groups[g].sort;
        self.followed(g, sort, (shards, partial), cap.is_finite() && segments.len() > 1)?;
        let classes = self.classes(model, g, f, &writes);
        let (mut weighed, mut weight, most) =
            self.count_classes(model, (g, &classes), (&writes, &segments, &calls), cap);
        // The members the loop stopped before: a page a bucket each.
        if !self.order[g].is_empty() {
            let rest = (self.picked[f] - weight).max(0.0);
            weighed += rest * segments.len() as f64;
            weight += rest;
        }
        let mean = if weight > 0.0 { weighed / weight } else { one.mean };
        Ok(CallPages { mean, most })
    }

    /// Read flow `f`'s member classes (`Classes`): built once where its shares stay fixed
    /// (`fixed`), else anew each call, as its shares move tick by tick.
    fn classes(&self, model: &Model, g: usize, f: usize, writes: &[usize]) -> Rc<Classes> {
        if let Some(known) = &self.classes.borrow()[f] {
            return Rc::clone(known);
        }
        let members = u32::try_from(model.groups[g].members).unwrap_or(u32::MAX);
        let ordered = &self.order[g];
        let every = (0..members).map(|m| (f64::INFINITY, m));
        let members: Box<dyn Iterator<Item = (f64, u32)>> =
            if ordered.is_empty() { Box::new(every) } else { Box::new(ordered.iter().copied()) };
        let built = Rc::new(Classes::of(model, members, f, writes, model.preload.get(g)));
        if self.fixed[f] {
            self.classes.borrow_mut()[f] = Some(Rc::clone(&built));
        }
        built
    }

    /// The member loop of `call_pages`: over group `g`'s `classes` in order, each member's
    /// pages weighed by its pick, the `writes`' `calls` in each of the range's `segments`, `cap`
    /// rows wanted. Returns the pick-weighted pages, the picks' sum, and the busiest member's.
    fn count_classes(
        &self,
        model: &Model,
        (g, classes): (usize, &Classes),
        (writes, segments, calls): (&[usize], &[Segment], &[Vec<f64>]),
        cap: f64,
    ) -> (f64, f64, u64) {
        let sort = &model.groups[g].sort;
        let most_pre = self.most_pre.get(g).copied().unwrap_or(0.0);
        let totals: Vec<f64> = calls.iter().map(|c| c.iter().sum()).collect();
        let exact = exact_within_second(model, sort, writes);
        let (mut weighed, mut weight, mut most) = (0.0, 0.0, segments.len() as u64);
        let mut memo: Vec<Option<([u64; 3], f64, u64)>> = vec![None; segments.len()];
        for (class, shares) in classes.iter() {
            // This class, and every one after it, writes at most `top` of each bucket's puts.
            let reachable = totals.iter().zip(segments).any(|(c, s)| {
                let bound = class.top * c + if s.preload { most_pre } else { 0.0 };
                bound + BELOW_SD * bound.sqrt() + 1.0 >= self.rows
            });
            if !reachable {
                break;
            }
            if class.pick <= 0.0 {
                continue;
            }
            let (mut pages, mut median) = (0.0, 0);
            for ((c, s), last) in calls.iter().zip(segments).zip(&mut memo) {
                let pre = if s.preload { class.pre } else { 0.0 };
                let (mut written, mut var) = (0.0, 0.0);
                for ((&w, &calls), &share) in writes.iter().zip(c).zip(shares) {
                    written += share * calls;
                    if !model.flows[w].shares.exact() {
                        var += calls * share * (1.0 - share);
                    }
                }
                // Classes apart whose bucket holds the same (a pick that differs, a bucket
                // without the preload) count alike: the last one's pages serve the next.
                let key = [written.to_bits(), var.to_bits(), pre.to_bits()];
                let (expected, busiest) = match *last {
                    Some((seen, expected, busiest)) if seen == key => (expected, busiest),
                    _ => {
                        let secs = s.hi - s.lo.max(self.start_secs);
                        let mean = pre + if exact { written } else { new_rows(written, sort, secs, pre) };
                        let counted = (
                            expected_pages(mean, var.sqrt(), self.rows, cap),
                            pages_of(mean.round(), self.rows, cap),
                        );
                        *last = Some((key, counted.0, counted.1));
                        counted
                    }
                };
                pages += expected;
                median += busiest;
            }
            // Member by member, in order, as a loop over the members sums them: the same bytes.
            for _ in 0..class.members {
                weighed += class.pick * pages;
                weight += class.pick;
            }
            most = most.max(median);
        }
        (weighed, weight, most)
    }
}

impl Paging {
    /// Whether the rows a read of group `g` counts are those it reads, where its partitions may
    /// hold a page of rows: Err names what is not followed.
    fn followed(
        &self,
        g: usize,
        sort: &SortRepeats,
        (shards, partial): (f64, bool),
        limit_spans: bool,
    ) -> Result<(), &'static str> {
        // Shards split a member's rows among them: their counts are not followed.
        if shards > 1.0 {
            return Err("a row-paged read of a sharded key whose shards may hold a page of rows");
        }
        // The rows counted are the member's in a span of write time: those a given sort-key
        // value, a prefix, or a range the key cannot apply (a filter) leaves out are not.
        if partial {
            return Err(
                "a row-paged read of part of a partition other than a span of write time, where the partition may hold a page of rows",
            );
        }
        if self.updated[g] {
            return Err(
                "a row-paged read of partitions an update or a delete writes (a row it may or may not add, or takes)",
            );
        }
        // `new_rows` takes a sort key's values as equally likely.
        if sort.collide > 0.0 && sort.skew != Skew::None {
            return Err("a row-paged read of partitions whose puts' sort keys repeat by a skewed pick");
        }
        // Past a page, a limit binds across the partitions a call asks in turn: each takes
        // what the ones before left of it (a bucket short of a page too), which is not followed.
        if limit_spans {
            return Err(
                "a row-paged read with a limit past a page, over several partitions that may hold a page of rows",
            );
        }
        Ok(())
    }
}

/// Group `g`'s members by the largest share of its puts any put flow (`adds_rows`) gives them,
/// largest first; empty where those shares change with the ticks (a grown population), or
/// where the group has one member.
fn by_top_share(model: &Model, g: usize, adds_rows: &[bool]) -> Vec<(f64, u32)> {
    let puts: Vec<&Shares> = (0..model.flows.len())
        .filter(|&f| adds_rows[f] && model.flows[f].group == g)
        .map(|f| &model.flows[f].shares)
        .collect();
    let members = u32::try_from(model.groups[g].members).unwrap_or(0);
    if members <= 1 || puts.iter().any(|s| matches!(s, Shares::Fresh { .. } | Shares::Recent { .. })) {
        return Vec::new();
    }
    let top = |m: u32| puts.iter().map(|s| s.of(m as usize)).fold(0.0, f64::max);
    let mut order: Vec<(f64, u32)> = (0..members).map(|m| (top(m), m)).collect();
    // Ties in member order, so the loop's sums come in one order every run.
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    order
}

/// Whether `puts` never meet on a key whose sort key holds the write time: each picks its
/// members in turn or makes its own (`Seq`, `Fresh`), so no two of one second share a member
/// — as the replay's own item counts take them (`replay`'s `kept_per_second`).
fn exact_within_second(model: &Model, sort: &SortRepeats, puts: &[usize]) -> bool {
    sort.per_second && puts.iter().all(|&w| model.flows[w].shares.exact())
}

/// The distinct rows `w` expected puts add to one member's partition when their sort keys
/// may repeat: each put's key one of `1 / collide` values alike, a Poisson count of puts on
/// each; where the key holds the write time, within its second (`secs` seconds of puts),
/// else less the values the partition's `pre` preloaded rows hold.
///
/// Not `replay`'s `kept_per_second` / `kept_over_life` in closed form, though the rule is
/// theirs: those draw each call of a closed bucket (Π (1 − s·q)^c a value missed, each flow
/// at its share) and split a tick's calls over its whole seconds, the remainder on the first;
/// a range here starts and ends inside ticks (`calls_before` spreads a tick's calls evenly),
/// so its `w` expected puts are a Poisson count (e^(−w·q)) spread evenly over its seconds.
/// The two agree as s·q → 0 only: one function for both would move one report's figures.
fn new_rows(w: f64, sort: &SortRepeats, secs: f64, pre: f64) -> f64 {
    if sort.collide <= 0.0 || w <= 0.0 {
        return w;
    }
    let values = 1.0 / sort.collide;
    if sort.per_second {
        let slots = values * secs.max(1.0);
        slots * -(-w / slots).exp_m1()
    } else {
        (values - pre).max(0.0) * -(-w / values).exp_m1()
    }
}

impl Classes {
    /// The classes of read flow `f`'s `members` (each with its bound `top`, in the loop's
    /// order), over the `writes` that add rows and the group's `preload`.
    fn of(
        model: &Model,
        members: impl Iterator<Item = (f64, u32)>,
        f: usize,
        writes: &[usize],
        preload: Option<&BTreeMap<u64, Preloaded>>,
    ) -> Classes {
        let puts = writes.len();
        let (mut classes, mut shares): (Vec<Class>, Vec<f64>) = (Vec::new(), Vec::new());
        let bits = |x: &[f64], y: &[f64]| x.iter().zip(y).all(|(a, b)| a.to_bits() == b.to_bits());
        for (top, m) in members {
            let member = m as usize;
            let class = Class {
                top,
                pick: model.flows[f].shares.of(member),
                pre: preload.and_then(|p| p.get(&u64::from(m))).map_or(0.0, |p| p.items),
                members: 1,
            };
            let at = shares.len();
            shares.extend(writes.iter().map(|&w| model.flows[w].shares.of(member)));
            // Bit for bit, so a class's pages are each of its members' to the last bit.
            let alike = classes.last().is_some_and(|last| {
                [last.top, last.pick, last.pre].map(f64::to_bits)
                    == [top, class.pick, class.pre].map(f64::to_bits)
                    && bits(&shares[at - puts..at], &shares[at..])
            });
            match classes.last_mut() {
                Some(last) if alike => {
                    last.members += 1;
                    shares.truncate(at);
                }
                _ => classes.push(class),
            }
        }
        Classes { each: classes, shares, puts }
    }

    /// Each class with its shares of the puts.
    fn iter(&self) -> impl Iterator<Item = (&Class, &[f64])> {
        let rows = self.shares.chunks(self.puts.max(1));
        self.each.iter().zip(rows.chain(std::iter::repeat(&[][..])))
    }
}

impl ScanRows {
    /// Scan pattern `p`'s table: its key groups' preloaded rows and the puts that add rows.
    fn of(world: &World, model: &Model, p: usize, adds_rows: &[bool], updated: &[bool]) -> ScanRows {
        let table = world.patterns[p].read.as_ref().map(|r| world.tables[r.table].group);
        let groups: Vec<usize> = (0..model.groups.len())
            .filter(|&g| Some(model.groups[g].group) == table && !model.groups[g].index)
            .collect();
        let preload = groups.iter().flat_map(|&g| model.preload[g].values()).map(|x| x.items).sum();
        let mut unfollowed = None;
        for &g in &groups {
            let writer = |f: &usize| model.flows[*f].write && model.flows[*f].group == g;
            let name = |f: usize| world.patterns[model.flows[f].pattern].name.clone();
            let sort = &model.groups[g].sort;
            if updated[g] || (sort.collide > 0.0 && sort.skew != Skew::None) {
                // The update, or else the put whose key repeats.
                let culprit =
                    |f: &usize| writer(f) && if updated[g] { !adds_rows[*f] } else { adds_rows[*f] };
                let f = (0..model.flows.len()).find(culprit);
                unfollowed = unfollowed.or(f.map(name));
            }
        }
        let groups = groups
            .into_iter()
            .map(|g| {
                (g, (0..model.flows.len()).filter(|&f| adds_rows[f] && model.flows[f].group == g).collect())
            })
            .collect();
        ScanRows { pattern: p, preload, groups, unfollowed }
    }
}

/// The pages a partition range of `k` rows takes, pages of `rows` rows, `cap` rows wanted:
/// one, and one more for each full page of rows that still leaves rows wanted.
fn pages_of(k: f64, rows: f64, cap: f64) -> u64 {
    let full = (k.min(cap) / rows).floor();
    // A range holding its limit, and the limit a whole number of pages: the last full page
    // has every row wanted, and the call stops there.
    let stops = if k >= cap && (cap / rows).fract() == 0.0 { 1.0 } else { 0.0 };
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a count of pages")]
    let pages = (full + 1.0 - stops).max(1.0) as u64;
    pages
}

/// E[pages] of a range of K rows, K about Normal(`mean`, `sd`) (continuity corrected; exact
/// where `sd` is 0): 1 + Σ_{j ≥ 1, jR < cap} P(K ≥ jR). Only the j within a few deviations of
/// the mean are weighed; those below count whole, those above not at all.
fn expected_pages(mean: f64, sd: f64, rows: f64, cap: f64) -> f64 {
    let bound = |j: f64| j * rows < cap;
    let wide = BELOW_SD * sd + 1.0;
    // Pages sure to be full (jR ≤ mean − wide): counted whole, those the limit leaves.
    let wanted = if cap.is_finite() { ((cap / rows).ceil() - 1.0).max(0.0) } else { f64::INFINITY };
    let sure = ((mean - wide) / rows).floor().max(0.0).min(wanted);
    let mut pages = 1.0 + sure;
    let mut j = sure + 1.0;
    // Pages that may be full: their chances.
    while j * rows <= mean + wide && bound(j) {
        pages += if sd > 0.0 {
            normal_tail((j * rows - 0.5 - mean) / sd)
        } else if mean >= j * rows {
            1.0
        } else {
            0.0
        };
        j += 1.0;
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::{expected_pages, pages_of};

    #[test]
    fn a_range_takes_a_page_for_each_full_page_and_one_more() {
        // (rows in range, rows wanted, pages) for pages of 5,000 rows.
        let cases = [
            (0.0, f64::INFINITY, 1),
            (4_999.0, f64::INFINITY, 1),
            (5_000.0, f64::INFINITY, 2),
            (36_000.0, f64::INFINITY, 8),
            (40_000.0, f64::INFINITY, 9),
            (36_000.0, 50.0, 1),
            (36_000.0, 5_000.0, 1),
            (36_000.0, 10_000.0, 2),
            (7_000.0, 10_000.0, 2),
            (12_000.0, 12_000.0, 3),
        ];
        for (k, cap, want) in cases {
            assert_eq!(pages_of(k, 5_000.0, cap), want, "{k} rows, {cap} wanted");
            // A count known exactly: the expectation is its pages.
            assert!((expected_pages(k, 0.0, 5_000.0, cap) - want as f64).abs() < 1e-12, "{k}, {cap}");
        }
    }

    #[test]
    fn a_count_near_a_page_boundary_weighs_both_sides() {
        // (mean, sd, expected pages): a page's boundary at the mean is a coin toss.
        let cases =
            [(4_999.5, 10.0, 1.5), (10_000.0, 0.001, 3.0), (100.0, 10.0, 1.0), (60_000.0, 245.0, 12.5)];
        for (mean, sd, want) in cases {
            let got = expected_pages(mean, sd, 5_000.0, f64::INFINITY);
            assert!((got - want).abs() < 2e-3, "mean {mean}, sd {sd}: {got}");
        }
    }
}

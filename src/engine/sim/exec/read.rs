//! Reads: which partition keys and sort-key range a call asks, GetItem and BatchGetItem, the
//! Queries of a fan-out (each paged 1 MB or `Limit` at a time), and Scans paged to the end of the
//! table (or until the reader has its limit, when no order binds it). Costs are
//! `store::read_units` of each page's bytes, eventually consistent; every request is metered.
//! The Cassandra profile reads by partitions and rows instead: one SELECT per partition, paged
//! by the driver's fetch size in rows, the partitions one after another, no units and no
//! metering (the model is in [`latency`]).

mod prefix;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Bound;

use crate::engine::hash::combine;
use crate::engine::model::{AttrType, RangeSpan};
use crate::engine::planner::Operation;
use crate::engine::profile::{Indexes, Latency, Profile};
use crate::engine::store::read_units;
use crate::engine::value::KeyType;

use super::{Call, Items, Refused, Resume, ScanResume};
use crate::engine::sim::Simulation;
use crate::engine::sim::cache;
use crate::engine::sim::items::{AttrPlan, Val, push_text};
use crate::engine::sim::keys::{Codec, SortBuf, SortRef, entry_bound, prefix_successor, push_number};
use crate::engine::sim::latency;
use crate::engine::sim::ledger::{Page, Row, ScanCursor, ScanMode, ScanPage};
use crate::engine::sim::meter::{READ, Refusal};
use crate::engine::sim::observe::ObservedRead;
use crate::engine::sim::shards::KeyGiven;
use crate::engine::sim::table::PartKey;
use crate::engine::sim::templates::{Memo, Slot, render_slot};
use crate::engine::sim::world::{Fetch, Filter, ReadPart, ReadPlan};

/// A read split by entity numbers its requests part by part: the part in the high bits, the
/// request within the part below (a fan-out never comes near 2^24 requests: shards and buckets
/// are bounded far lower).
const PART_SHIFT: u32 = 24;
const PART_MASK: u32 = (1 << PART_SHIFT) - 1;

/// A read whose requests gather their times instead of completing the call themselves: the
/// parts of a read split by entity (the call completes once, when its slowest request does), or
/// the read a write sends first to learn its key (its time adds to the write's).
#[derive(Debug, Default)]
pub(in crate::engine::sim) struct Gathering {
    /// The part running: a split read's retried request carries it in its number.
    pub part: u32,
    /// Every request's time so far (NaN: refused).
    pub times: Vec<f64>,
    /// The read a write sends first: a refused request is not queued on its own, since the
    /// application retries the whole call; `refused` says one was.
    pub locate: bool,
    pub refused: bool,
    /// The read a write sends first: the first item it found (the one the write names).
    pub found: std::cell::Cell<Option<u32>>,
}

/// What a Get reads at one key: its item's size, whether the item exists, its partition's bytes.
type KeySize = (u64, bool, u64);

/// A Get's buffers, lent to one Get at a time (`Scratch::get`) so a call allocates none: the
/// keys of the request being sent, their (item size, found, partition bytes) and (hash, units),
/// and the requests' times.
#[derive(Debug, Default)]
pub(in crate::engine::sim) struct GetBufs {
    chunk: Vec<PartKey>,
    sizes: Vec<KeySize>,
    touches: Vec<(u64, f64)>,
    times: Vec<f64>,
}

/// Slots of the memo of reads' partition keys (`KeyMemo`).
const KEY_MEMO_SLOTS: usize = 1024;

/// Partition keys of reads whose key template is literals and one population member
/// (`TemplatePlan::memo` without a time): the same text and hash every time that member is read
/// through that group, so a Get by id renders and hashes its key once rather than per call.
/// Keyed by (group, entity, member): a group is a table or one index, where an entity's key
/// template is fixed. Direct-mapped, so its memory stays the same whatever the population; a
/// cache only, what a read asks never depends on it.
#[derive(Debug, Default)]
pub(in crate::engine::sim) struct KeyMemo {
    slots: Vec<Option<(MemoId, PartKey)>>,
    /// A key to copy a memoized key into, handed back when its read is done
    /// (`Simulation::done_with_keys`): a Get by id then allocates no key text.
    spare: Option<PartKey>,
}

/// What a memoized key is of: (group, entity, member).
type MemoId = (usize, usize, u64);

/// A request's sort-key bounds in its group's encoding.
type Range = (Bound<SortBuf>, Bound<SortBuf>);

fn as_ref(bound: &Bound<SortBuf>) -> Bound<SortRef<'_>> {
    match bound {
        Bound::Included(b) => Bound::Included(b.as_ref()),
        Bound::Excluded(b) => Bound::Excluded(b.as_ref()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// A sort-key value's bytes: text as it is, numbers in their order-preserving form.
fn body(text: &str, numeric: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if numeric {
        push_number(text, &mut out);
    } else {
        out.extend_from_slice(text.as_bytes());
    }
    out
}

/// A bound on sort-key text in the codec of the group read (`index`: an index's entry keys).
fn encode(bound: &Bound<String>, lower: bool, codec: Codec, index: bool, numeric: bool) -> Bound<SortBuf> {
    let owned = match bound {
        Bound::Included(t) | Bound::Excluded(t) => t.clone(),
        Bound::Unbounded => return Bound::Unbounded,
    };
    let wrap = |v: SortBuf| {
        if matches!(bound, Bound::Included(_)) { Bound::Included(v) } else { Bound::Excluded(v) }
    };
    match codec {
        Codec::Inline => owned.parse().map_or(Bound::Unbounded, |v| wrap(SortBuf::Inline(v))),
        Codec::Bytes if index => {
            let bytes = body(&owned, numeric);
            let b = if matches!(bound, Bound::Included(_)) {
                Bound::Included(bytes.as_slice())
            } else {
                Bound::Excluded(bytes.as_slice())
            };
            match entry_bound(b, lower) {
                Bound::Included(v) => Bound::Included(SortBuf::Bytes(v)),
                Bound::Excluded(v) => Bound::Excluded(SortBuf::Bytes(v)),
                Bound::Unbounded => Bound::Unbounded,
            }
        }
        Codec::Bytes => wrap(SortBuf::Bytes(body(&owned, numeric))),
    }
}

/// The inclusive bound of an inline sort key at a time value in hundredths of a second: its
/// text (`push_number_text`) parses as epoch seconds only when it is whole and not negative;
/// any other text leaves the side open, as `encode` does.
fn inline_bound(hundredths: i64) -> Bound<SortBuf> {
    match u64::try_from(hundredths) {
        Ok(h) if h % 100 == 0 => Bound::Included(SortBuf::Inline(h / 100)),
        _ => Bound::Unbounded,
    }
}

/// The slot's attribute, if it reads one.
fn slot_attr(slot: &Slot) -> Option<usize> {
    match slot {
        Slot::Attr { attr, .. }
        | Slot::Time { attr, .. }
        | Slot::Bucket { attr, .. }
        | Slot::Hash { attr, .. } => Some(*attr),
        Slot::Class { other, .. } => slot_attr(other),
        _ => None,
    }
}

/// What one Query request read.
#[derive(Debug, Default)]
struct Read {
    units: f64,
    ms: f64,
    items: u64,
    matched: u64,
    pages: u64,
    bytes: u64,
    /// The items returned, when the application fetches them from the table afterwards.
    returned: Vec<u32>,
    /// For an observer: the last item of every page but the last.
    ends: Vec<u32>,
}

/// One call's read, what each of its requests needs: the call, its plan, the values it knows
/// and, on a retry, what the first attempt fixed.
#[derive(Clone, Copy)]
struct ReadCall<'a> {
    call: Call,
    plan: &'a ReadPlan,
    known: &'a [Val],
    resume: Option<&'a Resume>,
}

impl<'a> ReadCall<'a> {
    /// When this attempt is served: the call's time, or its retry's.
    fn at_ms(&self) -> u64 {
        self.resume.map_or(self.call.time_ms, |r| r.at_ms)
    }

    /// This attempt as an observer is told it.
    fn observed(&self) -> ObservedRead<'a> {
        ObservedRead {
            pattern: self.call.pattern,
            at_ms: self.at_ms(),
            call_ms: self.call.time_ms,
            plan: self.plan,
            known: self.known,
        }
    }
}

/// How every request of one Get reads: its operation, the exact sort key (if the table has
/// one), the store's profile, and whether the variant's cache answers first.
struct GetHow {
    operation: Operation,
    sk: Option<SortBuf>,
    profile: &'static Profile,
    transaction: bool,
    fronted: bool,
}

/// How far a Query reads: the limit that goes into each request, the call's, and how many
/// matches it wants.
pub(super) struct Limits {
    /// The limit goes into the request when the key orders the results and nothing filters
    /// them; when the key does not order them by the range ("the newest ten" on a key sorted by
    /// id), every match is read and the application keeps the limit's worth.
    pub request: usize,
    pub call: u64,
    /// The matches the call wants: its limit when the key orders them, else every one.
    pub want: u64,
}

impl Limits {
    pub fn of(plan: &ReadPlan) -> Limits {
        let request = match plan.limit {
            Some(l) if plan.filter.is_empty() && plan.ordered => l as usize,
            _ => usize::MAX,
        };
        let call = plan.limit.map_or(u64::MAX, u64::from);
        Limits { request, call, want: if plan.ordered { call } else { u64::MAX } }
    }
}

impl Simulation {
    /// The values a call knows: its givens (with the identity's item's other givens) and the
    /// constants it compares with; everything else absent.
    pub(super) fn inputs(&self, call: Call, out: &mut Vec<Val>) {
        let pattern = &self.world.patterns[call.pattern];
        let entity = pattern.entity;
        let ent = &self.world.entities[entity];
        out.clear();
        out.resize(ent.attrs.len(), Val::Absent);
        if let Some((identity, _)) = ent.identity
            && pattern.givens.contains(&identity)
        {
            let member = self.given_val(call.pattern, identity, call.index, call.tick, call.time_ms);
            // Only the identity's other givens come from its item: a call given the identity
            // alone (a Get by id) regenerates nothing.
            if let Val::Member(m) = member
                && let Ok(ordinal) = u32::try_from(m)
                && ordinal < ent.next
                && pattern.givens.iter().any(|&given| given != identity)
            {
                // The scratch is taken, not borrowed: a nested read gets a fresh one.
                let mut vals = self.scratch.item_vals.take();
                self.current_vals(entity, ordinal, &mut vals);
                for &given in &pattern.givens {
                    out[given] = vals[given];
                }
                self.scratch.item_vals.replace(vals);
            }
            out[identity] = member;
        } else {
            for &given in &pattern.givens {
                out[given] = self.given_val(call.pattern, given, call.index, call.tick, call.time_ms);
            }
        }
        for &(attr, value) in &pattern.equals {
            out[attr] = value;
        }
    }

    /// The time window a range covers at `time_ms`: (from, to) in seconds.
    fn window(&self, span: &RangeSpan, time_ms: u64) -> (i64, i64) {
        let now = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX);
        match span {
            RangeSpan::Last(d) => (now - i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2), now),
            _ => (i64::try_from(self.pacing.start_ms / 1000).unwrap_or(0), now),
        }
    }

    /// Every partition key a read must ask: known slots rendered, unknown time slots over the
    /// range's buckets, shards and hashes of unknown attributes enumerated — as a [`Keys`] that
    /// renders them one at a time, so a read's memory does not grow with its fan-out.
    fn partition_keys(&self, plan: &ReadPlan, known: &[Val], time_ms: u64) -> Keys {
        if let Some(Memo { member, time: None }) = plan.pk.memo
            && let Val::Member(m) = known[member]
            && let Some(key) = self.read_memo_key(plan, m, known)
        {
            return Keys::One(key);
        }
        let ent = &self.world.entities[plan.entities[0]];
        let pops = &self.world.pops;
        let mut choices: Vec<Choice> = Vec::new();
        for slot in &plan.pk.slots {
            let mut text = String::new();
            if render_slot(slot, &ent.attrs, known, pops, &mut text) {
                choices.push(Choice::One(text));
                continue;
            }
            let ranged = |attr: usize| plan.range.as_ref().filter(|(a, _)| *a == attr).map(|(_, span)| span);
            // A class slot asks its class's shards or buckets; a reader who does not know the
            // class asks every shard any class uses (the planner serves no such bucket read).
            let widest;
            let slot = match slot.select(&ent.attrs, known, pops) {
                Some(slot) => slot,
                None => match slot.widest_shard() {
                    Some(shard) => {
                        widest = shard;
                        &widest
                    }
                    None => slot,
                },
            };
            let choice = match slot {
                Slot::Shard { count, .. } | Slot::Hash { count, .. } => {
                    Choice::Numbers(0, i64::from(*count) - 1)
                }
                Slot::Time { attr, format, .. } => ranged(*attr).map_or(Choice::None, |span| {
                    let (from, to) = self.window(span, time_ms);
                    format
                        .values_between(i128::from(from) * 1000, i128::from(to) * 1000, 100_000)
                        .map_or(Choice::None, Choice::Texts)
                }),
                Slot::Bucket { attr, width_ms } => ranged(*attr).map_or(Choice::None, |span| {
                    let (from, to) = self.window(span, time_ms);
                    Choice::Numbers((from * 1000).div_euclid(*width_ms), (to * 1000).div_euclid(*width_ms))
                }),
                _ => Choice::None,
            };
            choices.push(choice);
        }
        Keys::new(plan.pk.key_type, choices)
    }

    /// The one partition key of a read whose key is literals and `member` of a population, from
    /// the memo (`KeyMemo`), rendered and hashed on a miss; `None` when a slot does not render.
    fn read_memo_key(&self, plan: &ReadPlan, member: u64, known: &[Val]) -> Option<PartKey> {
        let id = (plan.group, plan.entities[0], member);
        let mut memo = self.scratch.read_keys.borrow_mut();
        if memo.slots.is_empty() {
            memo.slots.resize(KEY_MEMO_SLOTS, None);
        }
        let at = usize::try_from(combine(&[id.0 as u64, id.1 as u64, member]) % KEY_MEMO_SLOTS as u64)
            .expect("a slot fits in usize");
        let KeyMemo { slots, spare } = &mut *memo;
        if let Some((held, key)) = &slots[at]
            && *held == id
        {
            let mut out = spare.take().unwrap_or_default();
            out.clone_from(key);
            return Some(out);
        }
        let ent = &self.world.entities[plan.entities[0]];
        let mut text = String::new();
        for slot in &plan.pk.slots {
            if !render_slot(slot, &ent.attrs, known, &self.world.pops, &mut text) {
                return None;
            }
        }
        let key = PartKey::new(plan.pk.key_type, text.as_bytes());
        memo.slots[at] = Some((id, key.clone()));
        Some(key)
    }

    /// Takes back a read's keys once the read is done: a memoized key becomes the memo's spare.
    fn done_with_keys(&self, keys: Keys) {
        if let Keys::One(key) = keys {
            self.scratch.read_keys.borrow_mut().spare = Some(key);
        }
    }

    /// The sort-key range a Query asks, as text: literals and known slots make a prefix; the
    /// first unknown slot ranges when it reads the pattern's range attribute, else the prefix is
    /// a `begins_with`; a fully known key is exact.
    pub(in crate::engine::sim) fn sort_text_range(
        &self,
        plan: &ReadPlan,
        known: &[Val],
        time_ms: u64,
    ) -> (Bound<String>, Bound<String>) {
        let Some(sk) = &plan.sk else { return (Bound::Unbounded, Bound::Unbounded) };
        if plan.entities.len() > 1 {
            return (Bound::Unbounded, Bound::Unbounded);
        }
        let ent = &self.world.entities[plan.entities[0]];
        let numeric = sk.key_type == KeyType::N;
        let last = sk.slots.len() - 1;
        let mut prefix = String::new();
        for (i, slot) in sk.slots.iter().enumerate() {
            if render_slot(slot, &ent.attrs, known, &self.world.pops, &mut prefix) {
                continue;
            }
            let attr = slot_attr(slot);
            let span = plan.range.as_ref().filter(|(a, _)| Some(*a) == attr).map(|(_, span)| span);
            let successor = |text: &str| prefix_successor(text).map_or(Bound::Unbounded, Bound::Excluded);
            return match (span, attr) {
                (Some(span @ RangeSpan::Last(_)), Some(attr)) => {
                    let (from, to) = self.window(span, time_ms);
                    let render = |secs: i64| {
                        let mut vals = known.to_vec();
                        vals[attr] = Val::time(secs);
                        let mut text = prefix.clone();
                        render_slot(slot, &ent.attrs, &vals, &self.world.pops, &mut text);
                        text
                    };
                    let (lo, hi) = (render(from), render(to));
                    // A suffix after the time slot: every key starting with `hi` is in range.
                    let upper = if i == last || numeric { Bound::Included(hi) } else { successor(&hi) };
                    (Bound::Included(lo), upper)
                }
                (Some(RangeSpan::BeginsWith(text)), _) if matches!(slot, Slot::Attr { .. }) && !numeric => {
                    let start = format!("{prefix}{text}");
                    let upper = successor(&start);
                    (Bound::Included(start), upper)
                }
                _ if prefix.is_empty() || numeric => (Bound::Unbounded, Bound::Unbounded),
                _ => (Bound::Included(prefix.clone()), successor(&prefix)),
            };
        }
        (Bound::Included(prefix.clone()), Bound::Included(prefix))
    }

    /// The sort-key range a Query asks, in its group's encoding.
    fn sort_range(&self, plan: &ReadPlan, known: &[Val], time_ms: u64) -> Range {
        let index = plan.index.is_some();
        let codec = if index { Codec::Bytes } else { self.world.tables[plan.table].codec };
        if codec == Codec::Inline
            && let Some(range) = self.inline_range(plan, known, time_ms)
        {
            return range;
        }
        let (lo, hi) = self.sort_text_range(plan, known, time_ms);
        let numeric = plan.sk.as_ref().is_some_and(|sk| sk.key_type == KeyType::N);
        (encode(&lo, true, codec, index, numeric), encode(&hi, false, codec, index, numeric))
    }

    /// The range of a table that keeps its sort keys inline (one time attribute's epoch
    /// seconds) for an exact key or a window of time, taken from the values: what
    /// `sort_text_range` renders as text and `encode` parses back, without the text. `None`
    /// leaves the other cases (a `begins_with`, several entities) to the text path.
    fn inline_range(&self, plan: &ReadPlan, known: &[Val], time_ms: u64) -> Option<Range> {
        let sk = plan.sk.as_ref()?;
        let [Slot::Attr { attr, pad: None, .. }] = sk.slots.as_slice() else { return None };
        if plan.entities.len() > 1 || self.world.entities[plan.entities[0]].attrs[*attr].ty == AttrType::B {
            return None;
        }
        match known[*attr] {
            Val::Num(h) => Some((inline_bound(h), inline_bound(h))),
            Val::Absent => match &plan.range {
                Some((a, span @ RangeSpan::Last(_))) if a == attr => {
                    let (from, to) = self.window(span, time_ms);
                    let hundredths = |secs: i64| match Val::time(secs) {
                        Val::Num(h) => h,
                        _ => unreachable!("a time is a number"),
                    };
                    Some((inline_bound(hundredths(from)), inline_bound(hundredths(to))))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether an item read passes the read's filter (and is of an entity the read returns).
    fn passes(&self, plan: &ReadPlan, known: &[Val], handle: u32, time_ms: u64, vals: &mut Vec<Val>) -> bool {
        let entity = self.world.entity_of(handle);
        if !plan.entities.contains(&entity) {
            return false;
        }
        if plan.filter.is_empty() {
            return true;
        }
        if entity != plan.entities[0] {
            return false;
        }
        let attrs = &self.world.entities[entity].attrs;
        if let [Filter::Contains(a)] = plan.filter.as_slice() {
            // A word search alone reads one attribute: regenerate only that one.
            let val = self.current_val(entity, self.world.ordinal_of(handle), *a);
            return self.contains_word(&attrs[*a], val);
        }
        self.current_vals(entity, self.world.ordinal_of(handle), vals);
        let now = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX);
        plan.filter.iter().all(|term| match term {
            Filter::Equals(a, v) => vals[*a] == *v,
            Filter::Given(a) => vals[*a] == known[*a],
            Filter::Since(a, secs) => vals[*a].secs().is_some_and(|s| s >= now - secs),
            Filter::Prefix(a, prefix) => {
                let mut text = String::new();
                push_text(&attrs[*a], vals[*a], &self.world.pops, &mut text)
                    && text.starts_with(prefix.as_str())
            }
            Filter::Contains(a) => self.contains_word(&attrs[*a], vals[*a]),
        })
    }

    /// Notes an item the read a write sends first found (the first one is the write's).
    fn found(&self, handle: u32) {
        if let Some(locating) = self.scratch.split.as_ref().filter(|g| g.locate && g.found.get().is_none()) {
            locating.found.set(Some(handle));
        }
    }

    /// Whether a text value holds the word the call searches for (`search_word`).
    fn contains_word(&self, attr: &AttrPlan, val: Val) -> bool {
        let mut text = self.scratch.text.borrow_mut();
        text.clear();
        push_text(attr, val, &self.world.pops, &mut text)
            && text.contains(self.scratch.search.borrow().as_str())
    }

    pub(super) fn read(&mut self, call: Call, resume: Option<Resume>) {
        let Some(plan) = self.world.patterns[call.pattern].read.take() else {
            self.figures.totals.unserved_calls += 1;
            return;
        };
        let operation = self.world.patterns[call.pattern].operation.unwrap_or(Operation::Query);
        let mut known = std::mem::take(&mut self.scratch.known);
        self.inputs(call, &mut known);
        for term in &plan.filter {
            if let Filter::Contains(a) = term {
                let word = search_word(self.seed, self.world.patterns[call.pattern].stream, call.index);
                let mut text = self.scratch.search.borrow_mut();
                text.clear();
                push_text(
                    &self.world.entities[plan.entities[0]].attrs[*a],
                    word,
                    &self.world.pops,
                    &mut text,
                );
            }
        }
        let parts = std::mem::take(&mut self.world.patterns[call.pattern].parts);
        let before = self.figures.stats[call.pattern].fanout;
        let requests_before = self.figures.stats[call.pattern].requests;
        if parts.is_empty() {
            self.read_one(call, &plan, operation, &known, resume.as_ref());
        } else {
            self.read_split(call, (&plan, operation, &known), &parts, resume.as_ref());
        }
        self.world.patterns[call.pattern].parts = parts;
        self.world.patterns[call.pattern].read = Some(plan);
        self.scratch.known = known;
        let stats = &mut self.figures.stats[call.pattern];
        stats.max_fanout = stats.max_fanout.max(stats.fanout - before);
        // A first attempt counts every request (pages included); a Scan counts its pages itself,
        // across the retries that resume it.
        if resume.is_none() && operation != Operation::Scan {
            stats.max_requests = stats.max_requests.max(stats.requests - requests_before);
        }
    }

    pub(super) fn read_one(
        &mut self,
        call: Call,
        plan: &ReadPlan,
        operation: Operation,
        known: &[Val],
        resume: Option<&Resume>,
    ) {
        if self.shards.is_some() {
            self.scratch.shard_key = self.shard_key_given(plan, known);
        }
        match operation {
            Operation::Scan => self.scan(call, plan, known, resume),
            Operation::GetItem | Operation::BatchGetItem | Operation::TransactGetItems => {
                self.get(call, plan, operation, known, resume);
            }
            _ => match plan.prefix {
                Some(prefix) => self.prefix_query(call, plan, known, resume, prefix),
                None => self.query(call, plan, known, resume),
            },
        }
    }

    /// What a read of the sharded collection gives of its shard key (the collection's `pk`
    /// template), from the values it knows, whatever path serves it ("Sharded Cluster Query
    /// Routing"): the whole key when every slot renders; else the text up to the first slot it
    /// cannot render, when that text holds at least one field (a slot reading an attribute) of
    /// a key that sorts as text; else nothing. A read of another collection gives nothing.
    fn shard_key_given(&self, plan: &ReadPlan, known: &[Val]) -> KeyGiven {
        let Some(cluster) = self.shards.as_ref() else { return KeyGiven::Nothing };
        let entity = plan.entities[0];
        if cluster.table != plan.table || cluster.entity != entity {
            return KeyGiven::Nothing;
        }
        let ent = &self.world.entities[entity];
        let Some(pk) = ent.pk.as_ref() else { return KeyGiven::Nothing };
        let mut text = String::new();
        let mut fields = 0;
        for slot in &pk.slots {
            let before = text.len();
            if !render_slot(slot, &ent.attrs, known, &self.world.pops, &mut text) {
                text.truncate(before);
                // A number sorts by its value, not its text: no text prefix picks its ranges.
                return if fields > 0 && pk.key_type != KeyType::N {
                    KeyGiven::Prefix(text.into_bytes())
                } else {
                    KeyGiven::Nothing
                };
            }
            fields += usize::from(slot.reads()[0].is_some());
        }
        KeyGiven::Whole(PartKey::new(pk.key_type, text.as_bytes()))
    }

    /// A read split by entity: every part's requests, sent together. A retried request carries
    /// its part in the high bits of its number and runs that part alone.
    fn read_split(
        &mut self,
        call: Call,
        first: (&ReadPlan, Operation, &[Val]),
        parts: &[ReadPart],
        resume: Option<&Resume>,
    ) {
        self.scratch.split = Some(Gathering::default());
        let mut carried = Vec::new();
        for k in 0..=parts.len() {
            let part = u32::try_from(k).unwrap_or(u32::MAX);
            let resume = match resume {
                Some(r) if r.request >> PART_SHIFT != part => continue,
                Some(r) => Some(Resume { request: r.request & PART_MASK, ..*r }),
                None => None,
            };
            if let Some(split) = &mut self.scratch.split {
                split.part = part;
            }
            let (plan, operation, known) = match k.checked_sub(1) {
                None => first,
                Some(i) => {
                    let part = &parts[i];
                    let entity = &self.world.entities[part.read.entities[0]];
                    carried.clear();
                    carried.resize(entity.attrs.len(), Val::Absent);
                    for &(from, to) in &part.carried {
                        carried[to] = first.2[from];
                    }
                    for &(attr, value) in &part.equals {
                        carried[attr] = value;
                    }
                    (&part.read, part.operation, carried.as_slice())
                }
            };
            self.read_one(call, plan, operation, known, resume.as_ref());
        }
        let times = self.scratch.split.take().map(|s| s.times).unwrap_or_default();
        self.finish_read(call, resume, &times);
    }

    /// Meters a read on the partitions holding these (hash, units); a refusal is for the caller
    /// to count (`refused`) on the keys it asked.
    fn meter_read(&mut self, group: usize, touches: &[(u64, f64)]) -> Result<(), Refusal> {
        let metered_by = self.storage.groups[group].metered_by;
        let tick = self.pacing.tick;
        let Some(meter) = self.storage.groups[metered_by].meter.as_mut() else { return Ok(()) };
        let parts: Vec<(usize, f64)> = touches.iter().map(|&(hash, u)| (meter.locate(hash), u)).collect();
        meter.consume(tick, READ, &parts)
    }

    /// Load of one read request on a logical partition.
    fn read_load(&mut self, group: usize, pk: &PartKey, units: f64, bytes: u64) {
        if let Some(cluster) = &mut self.shards {
            let (table, index) = self.world.groups[group];
            // A read of the collection's own key names the shard key's value; one through an
            // index gives what the read's values give of it.
            match (cluster.table == table, index) {
                (false, _) => {}
                (true, None) => cluster.read_key(pk),
                (true, Some(_)) => cluster.read(&self.scratch.shard_key),
            }
        }
        let Some(partition) = self.ledger(group).find(pk.key_type, &pk.text, pk.hash) else { return };
        let profile = self.world.engine.profile();
        if profile.metered() {
            self.storage.groups[group].units[READ] += units;
            self.touch(group, partition, READ, units, bytes);
        } else {
            self.touch(group, partition, READ, 1.0, bytes);
        }
        if let Some((_, _, read_replicas)) = profile.ring() {
            self.node_load(pk.hash, read_replicas, bytes);
        }
    }

    /// A refused read request of a fan-out: queued for retry; the first one refused reports the
    /// call's latency when it completes.
    fn read_refused(
        &mut self,
        call: Call,
        resume: Option<&Resume>,
        request: u32,
        ms: f64,
        first_refusal: bool,
    ) {
        // In a read split by entity, only the call's first refused request reports its latency,
        // and a request's number says which part it belongs to.
        let (first_refusal, request) = match &mut self.scratch.split {
            Some(locating) if locating.locate => {
                locating.refused = true;
                return;
            }
            Some(split) => {
                (first_refusal && !split.times.iter().any(|t| t.is_nan()), request | split.part << PART_SHIFT)
            }
            None => (first_refusal, request),
        };
        let reports = first_refusal && resume.is_none_or(|r| r.reports);
        let now_ms = resume.map_or(call.time_ms, |r| r.at_ms);
        let refused = Refused { request, now_ms, base_ms: ms, reports, ordinal: 0, cursor: None };
        self.throttled(call, resume, refused);
    }

    fn get(
        &mut self,
        call: Call,
        plan: &ReadPlan,
        operation: Operation,
        known: &[Val],
        resume: Option<&Resume>,
    ) {
        let read = ReadCall { call, plan, known, resume };
        let pks = self.partition_keys(plan, known, call.time_ms);
        let how = self.get_how(read, operation);
        if resume.is_none() {
            self.figures.stats[call.pattern].fanout += pks.len();
        }
        let per_request = keys_per_request(operation, how.profile, pks.len());
        // The buffers are taken, not borrowed: a Get nested in this one gets fresh ones.
        let mut bufs = self.scratch.get.take().unwrap_or_default();
        let GetBufs { chunk, sizes, touches, times } = &mut *bufs;
        times.clear();
        let mut keys = pks.iter();
        for request in 0u32.. {
            // Copied into the keys the buffer already holds, so a Get by id allocates no text.
            let mut taken = 0;
            for key in keys.by_ref().take(per_request) {
                match chunk.get_mut(taken) {
                    Some(held) => held.clone_from(&key),
                    None => chunk.push(key.into_owned()),
                }
                taken += 1;
            }
            chunk.truncate(taken);
            if chunk.is_empty() {
                break;
            }
            if resume.is_some_and(|r| r.request != request) {
                continue;
            }
            if how.fronted {
                let at = (read.at_ms(), resume.is_none());
                self.serve_from_cache(call, plan.group, how.sk.as_ref(), chunk, at);
                if chunk.is_empty() {
                    times.push(latency::CACHE_HIT_MS);
                    continue;
                }
            }
            let ms = self.get_request(read, &how, request, chunk, (sizes, touches), times);
            times.push(ms);
        }
        drop(keys);
        self.done_with_keys(pks);
        self.finish_read(call, resume, times);
        self.scratch.get = Some(bufs);
    }

    /// How a Get's requests read, fixed for the call: the exact sort key, and whether the
    /// variant's cache fronts them.
    fn get_how(&self, read: ReadCall<'_>, operation: Operation) -> GetHow {
        let sk = match self.sort_range(read.plan, read.known, read.call.time_ms).0 {
            Bound::Included(sk) => Some(sk),
            _ => None,
        };
        let transaction = operation == Operation::TransactGetItems;
        // Reads of a pattern the variant's cache fronts ask it first, a retry too (another
        // call may have filled its keys meanwhile). A read split by entity is not: the planner costs it uncached (DAX's item cache sees
        // single GetItem and BatchGetItem requests; keyheat does not model the query cache).
        let fronted = self.scratch.split.is_none()
            && !transaction
            && self.items.cache.as_ref().is_some_and(|c| c.patterns[read.call.pattern]);
        GetHow { operation, sk, profile: self.world.engine.profile(), transaction, fronted }
    }

    /// One request of a Get (a GetItem, a BatchGetItem, a TransactGetItems or a CQL SELECT) of
    /// the keys in `chunk` the cache did not answer: metered, spent, loaded and counted. Its
    /// time, or NaN when the partitions refused it (its retry is queued).
    fn get_request(
        &mut self,
        read: ReadCall<'_>,
        how: &GetHow,
        request: u32,
        chunk: &[PartKey],
        (sizes, touches): (&mut Vec<KeySize>, &mut Vec<(u64, f64)>),
        times: &[f64],
    ) -> f64 {
        let ReadCall { call, plan, resume, .. } = read;
        self.get_sizes(plan, how.sk.as_ref(), chunk, sizes);
        // Each item is rounded up to 4 KB on its own; a missing one still costs the minimum.
        touches.clear();
        touches.extend(
            chunk
                .iter()
                .zip(sizes.iter())
                .map(|(pk, &(size, ..))| (pk.hash, get_units(size, how.profile, how.transaction))),
        );
        let units: f64 = touches.iter().map(|t| t.1).sum();
        let ms = get_ms(how, sizes);
        if resume.is_none() {
            self.figures.stats[call.pattern].requests += 1;
            self.figures.totals.requests += 1;
        }
        if how.profile.metered()
            && let Err(refusal) = self.meter_read(plan.group, touches)
        {
            self.refused(plan.group, refusal, chunk, resume.is_none());
            self.read_refused(call, resume, request, ms, !times.iter().any(|t: &f64| t.is_nan()));
            return f64::NAN;
        }
        self.spend(call, READ, units);
        if how.fronted {
            self.fill_cache(plan.group, how.sk.as_ref(), chunk, sizes, read.at_ms());
        }
        if self.observing() {
            let batch = how.operation == Operation::BatchGetItem;
            self.tell_get(&read.observed(), chunk, batch);
        }
        for (pk, (&(_, u), &(size, ..))) in chunk.iter().zip(touches.iter().zip(sizes.iter())) {
            self.read_load(plan.group, pk, u, size);
        }
        self.count_get(call.pattern, sizes);
        ms
    }

    /// Per key of a Get request: (its item's size, whether the item exists, its partition's
    /// bytes, which a CQL read's time grows with).
    fn get_sizes(
        &self,
        plan: &ReadPlan,
        sk: Option<&SortBuf>,
        chunk: &[PartKey],
        out: &mut Vec<(u64, bool, u64)>,
    ) {
        let table = &self.storage.tables[plan.table].base;
        out.clear();
        out.extend(chunk.iter().map(|pk| {
            let partition = table.find(pk.key_type, &pk.text, pk.hash);
            let row = partition.and_then(|q| table.get(q, sk.map_or(SortRef::Inline(0), SortBuf::as_ref)));
            let partition_bytes = partition.map_or(0, |q| table.partition(q).bytes);
            (row.map_or(0, |r| u64::from(r.size)), row.is_some(), partition_bytes)
        }));
    }

    /// Counts what a served Get request read: its items (all returned) and its partitions.
    fn count_get(&mut self, pattern: usize, sizes: &[(u64, bool, u64)]) {
        let found = sizes.iter().filter(|s| s.1).count() as u64;
        self.read_items(pattern, Items { read: found, returned: found });
        let stats = &mut self.figures.stats[pattern];
        stats.partitions_touched += sizes.len() as u64;
        stats.span.partitions += sizes.len() as f64;
    }

    /// Answers from the cache the keys of `chunk` it holds unexpired at `at.0` ms, and leaves the
    /// misses in `chunk` for the table. A hit reads nothing from the table: its units are saved,
    /// its item (if it existed) is returned. Only a first attempt (`at.1`) counts hits, misses
    /// and savings: a retry's keys were counted as misses when they were first asked.
    fn serve_from_cache(
        &mut self,
        call: Call,
        group: usize,
        sk: Option<&SortBuf>,
        chunk: &mut Vec<PartKey>,
        at: (u64, bool),
    ) {
        let Some(cache) = self.items.cache.as_mut() else { return };
        let stats = &mut self.figures.stats[call.pattern];
        let (now_ms, first) = at;
        let mut returned = 0;
        chunk.retain(|pk| {
            let Some(hit) = cache.lookup(cache::item_key(group, pk.hash, sk), now_ms) else {
                stats.cache_misses += u64::from(first);
                return true;
            };
            if first {
                stats.cache_hits += 1;
                stats.cache_units_saved += read_units(u64::from(hit.size), false);
            }
            returned += u64::from(hit.found);
            false
        });
        self.read_items(call.pattern, Items { read: 0, returned });
    }

    /// Stores what the table answered for these keys (a missing item too): each serves hits
    /// until the cache's TTL runs out.
    fn fill_cache(
        &mut self,
        group: usize,
        sk: Option<&SortBuf>,
        chunk: &[PartKey],
        sizes: &[(u64, bool, u64)],
        at_ms: u64,
    ) {
        let Some(cache) = self.items.cache.as_mut() else { return };
        for (pk, &(size, found, _)) in chunk.iter().zip(sizes) {
            let size = u32::try_from(size).unwrap_or(u32::MAX);
            cache.fill(cache::item_key(group, pk.hash, sk), at_ms, size, found);
        }
    }

    /// The call's latency from its requests' times (NaN: refused, reported by its retry).
    fn finish_read(&mut self, call: Call, resume: Option<&Resume>, times: &[f64]) {
        if let Some(gathering) = &mut self.scratch.split {
            gathering.times.extend_from_slice(times);
            return;
        }
        let refused = times.iter().any(|t| t.is_nan());
        if refused && resume.is_none() {
            return;
        }
        // The times of the requests served: all of them, unless a retry's earlier ones were refused.
        let kept: Vec<f64>;
        let done = if refused {
            kept = times.iter().copied().filter(|t| !t.is_nan()).collect();
            kept.as_slice()
        } else {
            times
        };
        if done.is_empty() {
            return;
        }
        let ms = match resume {
            Some(_) => done[0],
            None => latency::calls_ms(self.world.engine.profile().fanout, done),
        };
        self.completed(call, resume, ms);
    }

    /// One Query request on one partition, every page until done or the limit is met.
    fn query_partition(
        &self,
        plan: &ReadPlan,
        known: &[Val],
        pk: &PartKey,
        range: &Range,
        time_ms: u64,
        limits: (usize, u64),
    ) -> Read {
        let (request_limit, still_wanted) = limits;
        let ledger = self.ledger(plan.group);
        let partition = ledger.find(pk.key_type, &pk.text, pk.hash);
        let profile = self.world.engine.profile();
        // A page of rows is the driver's fetch size (the ledger pages by rows only).
        let page_rows = profile.page_rows().map_or(request_limit, |rows| request_limit.min(rows));
        let mut read = Read::default();
        let mut after = None;
        let mut vals = Vec::new();
        // The key range is searched once: every page reads within it, after the last.
        let window = partition.map(|q| (q, ledger.window(q, as_ref(&range.0), as_ref(&range.1))));
        loop {
            let page = match &window {
                Some((q, rows)) => ledger.page_in(*q, rows.clone(), plan.forward, page_rows, after),
                None => Page { first: 0, count: 0, bytes: 0, stopped: false },
            };
            read.pages += 1;
            read.units += profile.metering.page(page.bytes);
            read.ms += latency::page_ms(profile.latency, Operation::Query, page.count as u64, page.bytes);
            read.items += page.count as u64;
            read.bytes += page.bytes;
            if let Some(q) = partition {
                if plan.look {
                    let part = ledger.partition(q);
                    for row in page.positions(plan.forward).map(|i| part.row(i)) {
                        if plan.fetch == Fetch::Lsi && profile.metered() {
                            // An LSI without the attributes: each item is read from the table too.
                            read.units += read_units(u64::from(self.item_size(row.id)), false);
                        }
                        if read.matched < still_wanted && self.passes(plan, known, row.id, time_ms, &mut vals)
                        {
                            self.found(row.id);
                            read.matched += 1;
                            if plan.fetch == Fetch::Documents {
                                // The FETCH stage reads the document whole, within the request.
                                let bytes = u64::from(self.item_size(row.id));
                                read.bytes += bytes;
                                read.ms += latency::read_bytes_ms(bytes);
                            }
                            if plan.fetch == Fetch::Table {
                                read.returned.push(row.id);
                            }
                        }
                    }
                } else {
                    read.matched += page.count as u64;
                    if let Some(i) = page.positions(plan.forward).next() {
                        self.found(ledger.partition(q).row(i).id);
                    }
                }
                if page.count > 0 {
                    after = page.positions(plan.forward).last();
                }
            }
            if !page.stopped || read.matched >= still_wanted {
                break;
            }
            if let (true, Some(q), Some(i)) = (self.observing(), partition, after) {
                read.ends.push(ledger.partition(q).row(i).id);
            }
        }
        if profile.latency == Latency::Statements {
            read.ms += latency::cassandra_partition_ms(partition.map_or(0, |q| ledger.partition(q).bytes));
        }
        read
    }

    fn query(&mut self, call: Call, plan: &ReadPlan, known: &[Val], resume: Option<&Resume>) {
        let read = ReadCall { call, plan, known, resume };
        let pks = self.partition_keys(plan, known, call.time_ms);
        let range = self.sort_range(plan, known, call.time_ms);
        let Limits { request: request_limit, call: limit, want } = Limits::of(plan);
        if resume.is_none() {
            self.figures.stats[call.pattern].fanout += pks.len();
        }
        // What this part of the call returned before this retry (`Retries::answered`).
        let part = self.scratch.split.as_ref().filter(|g| !g.locate).map_or(0, |g| g.part as usize);
        let answered = (call.pattern, call.index);
        let earlier = match resume {
            Some(_) => self.retries.answered.get(&answered).and_then(|a| a.get(part)).copied().unwrap_or(0),
            None => 0,
        };
        // Lent by the simulation: a Query of one request allocated it once a call.
        let mut times = std::mem::take(&mut self.scratch.query_times);
        times.clear();
        let mut returned = 0u64;
        let mut fetched = Vec::new();
        // The fetch after a GSI Query is the request after the Queries.
        let fetch_request = u32::try_from(pks.len()).unwrap_or(u32::MAX);
        for (request, pk) in (0u32..).zip(pks.iter()) {
            let pk = &*pk;
            if resume.is_some_and(|r| r.request != request) {
                if resume.is_some_and(|r| r.request == fetch_request) {
                    // A refused fetch retried: the items the Queries returned, read again free.
                    let limits = (request_limit, want - (fetched.len() as u64).min(want));
                    fetched
                        .extend(self.query_partition(plan, known, pk, &range, call.time_ms, limits).returned);
                }
                continue;
            }
            let limits = (request_limit, want - returned.min(want));
            match self.query_request(read, request, pk, &range, limits, &times) {
                Some(mut served) => {
                    returned += served.matched;
                    fetched.append(&mut served.returned);
                    times.push(served.ms);
                }
                None => times.push(f64::NAN),
            }
        }
        self.done_with_keys(pks);
        // Only the items the application keeps are fetched.
        fetched.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        self.fetch_after_query(read, &fetched, fetch_request, &mut times);
        // The application keeps the limit's worth of what all the call's requests returned,
        // however many retries they took: a retried shard adds what the limit still leaves.
        let counted = (earlier + returned).min(limit) - earlier.min(limit);
        self.read_items(call.pattern, Items { read: 0, returned: counted });
        if resume.is_some() || self.retries.running.queued > 0 {
            let parts = self.retries.answered.entry(answered).or_default();
            if parts.len() <= part {
                parts.resize(part + 1, 0);
            }
            parts[part] = earlier + returned;
        }
        self.finish_read(call, resume, &times);
        self.scratch.query_times = times;
    }

    /// One Query request (every page of it) on partition `pk`: metered, spent, loaded and
    /// counted. What it read, or `None` when the partition refused it (its retry is queued).
    fn query_request(
        &mut self,
        read: ReadCall<'_>,
        request: u32,
        pk: &PartKey,
        range: &Range,
        limits: (usize, u64),
        times: &[f64],
    ) -> Option<Read> {
        let ReadCall { call, plan, known, resume } = read;
        let stale = self.storage.lagging(plan.group, pk.hash);
        let served = self.query_partition(plan, known, pk, range, call.time_ms, limits);
        if resume.is_none() {
            self.figures.stats[call.pattern].requests += served.pages;
            self.figures.stats[call.pattern].pages += served.pages;
            self.figures.totals.requests += served.pages;
        }
        if self.world.engine.profile().metered()
            && let Err(refusal) = self.meter_read(plan.group, &[(pk.hash, served.units)])
        {
            self.refused(plan.group, refusal, [pk], resume.is_none());
            self.read_refused(call, resume, request, served.ms, !times.iter().any(|t: &f64| t.is_nan()));
            return None;
        }
        // A stale read is one the partition served while it had writes queued (a refused
        // attempt read nothing).
        if stale {
            self.figures.stats[call.pattern].stale_reads += 1;
            self.storage.groups[plan.group].stale_reads += 1;
        }
        if self.observing() {
            let limit = u32::try_from(limits.0).ok();
            self.tell_query(&read.observed(), pk, limit, &served.ends);
        }
        self.spend(call, READ, served.units);
        self.read_load(plan.group, pk, served.units, served.bytes);
        self.read_items(call.pattern, Items { read: served.items, returned: 0 });
        let stats = &mut self.figures.stats[call.pattern];
        stats.partitions_touched += 1;
        stats.span.partitions += 1.0;
        Some(served)
    }

    /// After the Queries of a read on an index that lacks attributes it needs, the fetch of the
    /// items kept from the table: on a first attempt, or on the fetch's own retry. Its time
    /// goes into `times`. A Query retried after a refusal fetches nothing more: the items it
    /// returns late are not fetched (keyheat's simplification; the first attempt's items are).
    fn fetch_after_query(
        &mut self,
        read: ReadCall<'_>,
        fetched: &[u32],
        fetch_request: u32,
        times: &mut Vec<f64>,
    ) {
        let ReadCall { call, plan, resume, .. } = read;
        if plan.fetch != Fetch::Table
            || self.world.engine.profile().indexes != Indexes::Secondary
            || fetched.is_empty()
        {
            return;
        }
        let retry = resume.filter(|r| r.request == fetch_request);
        if resume.is_some() && retry.is_none() {
            return;
        }
        match self.fetch_from_table(call, plan, fetched, retry) {
            Ok(ms) if retry.is_some() => times.push(ms),
            // The fetch follows the Queries: its time adds to each of theirs.
            Ok(ms) => times.iter_mut().filter(|t| !t.is_nan()).for_each(|t| *t += ms),
            Err(ms) => {
                self.read_refused(call, retry, fetch_request, ms, !times.iter().any(|t: &f64| t.is_nan()));
                times.push(f64::NAN);
            }
        }
    }

    /// The application's BatchGetItem of the items a GSI Query returned, for the attributes the
    /// index does not project: each item rounded up to 4 KB on its own, eventually consistent,
    /// at most 100 keys a request, metered on the table's partitions. `Ok`: its time;
    /// `Err`: the table refused it (its time so far).
    fn fetch_from_table(
        &mut self,
        call: Call,
        plan: &ReadPlan,
        handles: &[u32],
        retry: Option<&Resume>,
    ) -> Result<f64, f64> {
        let group = self.world.tables[plan.table].group;
        let mut touches: Vec<(u64, f64)> = Vec::with_capacity(handles.len());
        let mut keys: Vec<(PartKey, f64, u64)> = Vec::with_capacity(handles.len());
        let mut vals = Vec::new();
        for &handle in handles {
            let (entity, ordinal) = (self.world.entity_of(handle), self.world.ordinal_of(handle));
            self.current_vals(entity, ordinal, &mut vals);
            let mut placed = crate::engine::sim::table::Placed::default();
            if !self.place(entity, ordinal, &vals, &mut placed) {
                continue;
            }
            let units = read_units(u64::from(placed.size), false);
            touches.push((placed.pk.hash, units));
            keys.push((placed.pk.clone(), units, u64::from(placed.size)));
        }
        let batch = self.world.engine.profile().batch_get_keys.unwrap_or(1);
        let requests = handles.len().div_ceil(batch) as u64;
        let bytes: u64 = keys.iter().map(|k| k.2).sum();
        let ms = latency::request_ms(Operation::BatchGetItem, bytes);
        if retry.is_none() {
            self.figures.stats[call.pattern].requests += requests;
            self.figures.totals.requests += requests;
        }
        if let Err(refusal) = self.meter_read(group, &touches) {
            self.refused(group, refusal, keys.iter().map(|k| &k.0), retry.is_none());
            return Err(ms);
        }
        let units: f64 = touches.iter().map(|t| t.1).sum();
        if self.observing() {
            self.tell_fetch(call.pattern, retry.map_or(call.time_ms, |r| r.at_ms), plan.table, handles);
        }
        self.spend(call, READ, units);
        for (pk, units, bytes) in &keys {
            self.read_load(group, pk, *units, *bytes);
        }
        Ok(ms)
    }

    fn scan(&mut self, call: Call, plan: &ReadPlan, known: &[Val], resume: Option<&Resume>) {
        let read = ReadCall { call, plan, known, resume };
        let profile = self.world.engine.profile();
        // Without an order to honour, the reader stops once it has its limit.
        let stop_at = match (plan.limit, &plan.range) {
            (Some(l), None) => u64::from(l),
            _ => u64::MAX,
        };
        let ScanResume { mut cursor, mut pages } = resume.and_then(|r| r.cursor).unwrap_or_default();
        if resume.is_none() {
            let stats = &mut self.figures.stats[call.pattern];
            stats.fanout += 1;
            stats.scans += 1;
            stats.span.scans += 1.0;
            if let Some(cluster) = self.shards.as_mut().filter(|c| c.table == plan.table) {
                cluster.read(&self.scratch.shard_key);
            }
        }
        let group = self.world.tables[plan.table].group;
        let boundaries = self.storage.groups[group]
            .meter
            .as_ref()
            .map_or_else(|| vec![0], super::super::meter::Meter::starts);
        let mut ms = resume.map_or(0.0, |r| r.base_ms);
        let mut matched = 0u64;
        let mut vals = Vec::new();
        let observing = self.observing();
        // For an observer: the last item the served pages read (the next page's start).
        let mut from = if observing && resume.is_some() {
            self.observing.as_mut().and_then(|o| o.scan_from.remove(&(call.pattern, call.index)))
        } else {
            None
        };
        // A retry resumes at the page the partitions refused, which was counted as a request
        // (and as refused) when it was first sent: a page is one request however many retries
        // it takes, as the call's `pages` (its `max_requests`) counts it.
        let mut retried = resume.is_some_and(|r| r.cursor.is_some());
        loop {
            let (page, last) = self.read_scan_page(read, cursor, &boundaries, &mut vals);
            let units = profile.metering.page(page.bytes);
            if !retried {
                self.figures.stats[call.pattern].requests += 1;
                self.figures.stats[call.pattern].pages += 1;
                self.figures.totals.requests += 1;
            }
            if profile.metered() {
                if self.meter_scan_page(group, &boundaries, &page, units, !retried).is_err() {
                    self.scan_refused(read, ms, ScanResume { cursor, pages }, from);
                    return;
                }
                self.storage.groups[group].units[READ] += units;
            }
            retried = false;
            if observing {
                self.tell_scan(call.pattern, read.at_ms(), plan.table, from);
                from = last.or(from);
            }
            self.spend(call, READ, units);
            pages += 1;
            ms += latency::page_ms(profile.latency, Operation::Scan, page.count, page.bytes);
            matched += page.matched;
            self.read_items(call.pattern, Items { read: page.count, returned: 0 });
            match page.next {
                Some(next) if page.stopped && matched < stop_at => cursor = next,
                _ => break,
            }
        }
        let stats = &mut self.figures.stats[call.pattern];
        stats.max_requests = stats.max_requests.max(pages);
        self.finish_scan(read, matched, ms);
    }

    /// One Scan page of the read's table from `cursor`, each row read checked against the
    /// read's filter, and the last row it read. Rows a constant filter marks are counted
    /// without a look, unless an observer needs every row's key.
    fn read_scan_page(
        &self,
        read: ReadCall<'_>,
        cursor: ScanCursor,
        boundaries: &[u64],
        vals: &mut Vec<Val>,
    ) -> (ScanPage, Option<u32>) {
        let ReadCall { call, plan, known, .. } = read;
        let mut last = None;
        let ledger = &self.storage.tables[plan.table].base;
        let mut check = |_: u32, row: &Row| {
            last = Some(row.id);
            let passes = self.passes(plan, known, row.id, call.time_ms, vals);
            if passes {
                self.found(row.id);
            }
            passes
        };
        let mode = match plan.mark {
            Some(mark) if !self.observing() => ScanMode::Totals { mark: Some(mark), partial: &mut check },
            _ => ScanMode::Visit(&mut check),
        };
        // A range read paged by rows takes the driver's fetch size.
        let rows = self.world.engine.profile().page_rows().map_or(u64::MAX, |rows| rows as u64);
        let page = ledger.scan_page(cursor, rows, boundaries, mode);
        (page, last)
    }

    /// Meters a Scan page: its units shared among the physical partitions it read, by bytes. A
    /// refusal counts on the group and the physical partition: a page reads a range of the
    /// table, not keys.
    fn meter_scan_page(
        &mut self,
        group: usize,
        boundaries: &[u64],
        page: &ScanPage,
        units: f64,
        first: bool,
    ) -> Result<(), Refusal> {
        let touches: Vec<(u64, f64)> = if page.bytes == 0 {
            vec![(0, units)]
        } else {
            page.by_range
                .iter()
                .map(|&(r, b)| (boundaries[r], units * b as f64 / page.bytes as f64))
                .collect()
        };
        let result = self.meter_read(group, &touches);
        if let Err(refusal) = result {
            self.refused(group, refusal, std::iter::empty(), first);
        }
        result
    }

    /// A Scan page the partitions refused: the retry resumes at its cursor, carrying the time
    /// the served pages took; an observer's next page starts after the last row they read.
    fn scan_refused(&mut self, read: ReadCall<'_>, ms: f64, cursor: ScanResume, from: Option<u32>) {
        let ReadCall { call, resume, .. } = read;
        if let Some(locating) = self.scratch.split.as_mut().filter(|g| g.locate) {
            locating.refused = true;
            return;
        }
        let now_ms = read.at_ms() + latency_ms(ms);
        let refused =
            Refused { request: 0, now_ms, base_ms: ms, reports: true, ordinal: 0, cursor: Some(cursor) };
        if let (Some(o), Some(from)) = (self.observing.as_mut(), from) {
            o.scan_from.insert((call.pattern, call.index), from);
        }
        self.throttled(call, resume, refused);
    }

    /// Counts a finished Scan's answer and the partitions it read, and its latency (a retry's
    /// with the wait since the call, when it is the one that reports).
    fn finish_scan(&mut self, read: ReadCall<'_>, matched: u64, ms: f64) {
        let ReadCall { call, plan, resume, .. } = read;
        let answered = matched.min(plan.limit.map_or(u64::MAX, u64::from));
        let live = self.storage.tables[plan.table].base.live_partitions();
        self.read_items(call.pattern, Items { read: 0, returned: answered });
        let figures = &mut self.figures.stats[call.pattern];
        figures.partitions_touched += live;
        if let Some(gathering) = &mut self.scratch.split {
            gathering.times.push(ms);
            return;
        }
        // A resumed Scan's time so far is in `ms` (its base): none to add twice.
        let resume = resume.map(|r| Resume { base_ms: 0.0, ..*r });
        self.completed(call, resume.as_ref(), ms);
    }

    /// An item's size now (for LSI fetches).
    fn item_size(&self, handle: u32) -> u32 {
        let entity = self.world.entity_of(handle);
        let ordinal = self.world.ordinal_of(handle);
        let mut vals = Vec::new();
        self.current_vals(entity, ordinal, &mut vals);
        let mut placed = crate::engine::sim::table::Placed::default();
        if self.place(entity, ordinal, &vals, &mut placed) { placed.size } else { 0 }
    }
}

/// Whole milliseconds of a modelled time (for scheduling a retry after a Scan's pages).
/// How many keys one request of a Get reads: a store without a batch read (CQL) sends one
/// SELECT per partition; a TransactGetItems reads its items (no more than the store's
/// transaction holds, the planner's check) in one request.
fn keys_per_request(operation: Operation, profile: &Profile, keys: u64) -> usize {
    match (operation, profile.batch_get_keys) {
        (Operation::BatchGetItem, Some(batch)) => batch,
        (Operation::TransactGetItems, _) => usize::try_from(keys).unwrap_or(usize::MAX).max(1),
        _ => 1,
    }
}

/// A Get request's modelled time from its keys' (item size, found, partition bytes): one
/// single-row SELECT per key for statements (a request reads one key), else the request plus
/// its items' 4 KB pages (and the cache's hop when the cache fronts the table).
fn get_ms(how: &GetHow, sizes: &[(u64, bool, u64)]) -> f64 {
    if how.profile.latency == Latency::Statements {
        sizes
            .iter()
            .map(|&(_, found, partition)| {
                latency::cql_page_ms(Operation::GetItem, u64::from(found))
                    + latency::cassandra_partition_ms(partition)
            })
            .sum()
    } else {
        latency::base_ms(how.operation)
            + sizes.iter().map(|&(s, ..)| latency::PER_4KB_MS * s.div_ceil(4096) as f64).sum::<f64>()
            + if how.fronted { latency::CACHE_HIT_MS } else { 0.0 }
    }
}

/// The units of one item a Get reads: the profile's point read (`Metering::point_read`).
fn get_units(size: u64, profile: &Profile, transaction: bool) -> f64 {
    profile.metering.point_read(size, transaction)
}

#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a small positive time")]
fn latency_ms(ms: f64) -> u64 {
    ms.max(0.0).round() as u64
}

/// Letters in the word a `contains()` call searches for.
pub(in crate::engine::sim) const WORD_LETTERS: u32 = 5;

/// The word call `index` of a pattern searches for: five letters drawn from the seed, as a
/// payload value so it is compared with the text the same way an item's is generated. The
/// generated texts are random letters, so a given word is rare in them — about (n - 4) / 26⁵,
/// 1 in 80,000 for a 150-letter text — as a real word is rare among real messages; the Query
/// reads the whole range it reaches to find the few that match.
pub(in crate::engine::sim) fn search_word(seed: u64, stream: u64, index: u64) -> Val {
    let salt = combine(&[seed, stream, 0x5ea4_c4ed, index]) >> 32;
    Val::Payload(WORD_LETTERS, u32::try_from(salt).unwrap_or(0))
}

/// One slot's values in a read's partition keys.
#[derive(Debug)]
enum Choice {
    /// Known: one text.
    One(String),
    /// The integers `from..=to` (shards, hash values, bucket numbers).
    Numbers(i64, i64),
    /// Calendar texts over the range (at most 100,000, as the planner's `values_between` caps).
    Texts(Vec<String>),
    /// Nothing to ask: the key cannot be formed.
    None,
}

impl Choice {
    fn len(&self) -> u64 {
        match self {
            Choice::One(_) => 1,
            Choice::Numbers(from, to) => u64::try_from(i128::from(*to) - i128::from(*from) + 1).unwrap_or(0),
            Choice::Texts(texts) => texts.len() as u64,
            Choice::None => 0,
        }
    }

    fn write(&self, i: u64, out: &mut String) {
        match self {
            Choice::One(text) => out.push_str(text),
            Choice::Numbers(from, _) => {
                let _ = write!(out, "{}", i128::from(*from) + i128::from(i));
            }
            Choice::Texts(texts) => out.push_str(&texts[usize::try_from(i).unwrap_or(usize::MAX)]),
            Choice::None => {}
        }
    }
}

/// The partition keys of one read: one key known whole (from the memo), or every combination
/// of its slots' values, first slot slowest, rendered on demand (the memory is the slots',
/// whatever the count).
#[derive(Debug)]
enum Keys {
    One(PartKey),
    Product { key_type: KeyType, choices: Vec<Choice> },
}

impl Keys {
    fn new(key_type: KeyType, choices: Vec<Choice>) -> Keys {
        Keys::Product { key_type, choices }
    }

    /// How many keys (saturating; 0 when a slot has no value).
    fn len(&self) -> u64 {
        match self {
            Keys::One(_) => 1,
            Keys::Product { choices, .. } => choices.iter().fold(1u64, |n, c| n.saturating_mul(c.len())),
        }
    }

    /// The keys in order: the one key borrowed, a product's rendered one at a time.
    fn iter(&self) -> impl Iterator<Item = Cow<'_, PartKey>> + '_ {
        let (one, product) = match self {
            Keys::One(key) => (Some(Cow::Borrowed(key)), None),
            Keys::Product { key_type, choices } => (None, Some(Self::product(*key_type, choices))),
        };
        one.into_iter().chain(product.into_iter().flatten().map(Cow::Owned))
    }

    fn product(key_type: KeyType, choices: &[Choice]) -> impl Iterator<Item = PartKey> + '_ {
        let total = choices.iter().fold(1u64, |n, c| n.saturating_mul(c.len()));
        let mut text = String::new();
        let mut digits = vec![0u64; choices.len()];
        (0..total).map(move |mut n| {
            // The digits of n in the mixed radix of the slots' counts, last slot fastest.
            for (digit, choice) in digits.iter_mut().zip(choices).rev() {
                let len = choice.len();
                *digit = n % len;
                n /= len;
            }
            text.clear();
            for (choice, &i) in choices.iter().zip(&digits) {
                choice.write(i, &mut text);
            }
            PartKey::new(key_type, text.as_bytes())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(keys: &Keys) -> Vec<String> {
        keys.iter().map(|k| String::from_utf8(k.into_owned().text).unwrap()).collect()
    }

    fn text_bound(hundredths: i64) -> Bound<SortBuf> {
        let mut text = String::new();
        crate::engine::sim::items::push_number_text(hundredths, &mut text);
        encode(&Bound::Included(text), true, Codec::Inline, false, true)
    }

    #[test]
    fn an_inline_bound_is_the_parsed_text_at_the_edges() {
        for h in [0, 1, 99, 100, 150, 173_568_960_000, -1, -100, -150, i64::MAX, i64::MIN, i64::MAX - 7] {
            assert_eq!(inline_bound(h), text_bound(h), "{h}");
        }
    }

    proptest::proptest! {
        #[test]
        fn an_inline_bound_is_the_parsed_text(h in proptest::num::i64::ANY, secs in -1i64 << 40..1 << 40) {
            proptest::prop_assert_eq!(inline_bound(h), text_bound(h));
            proptest::prop_assert_eq!(inline_bound(secs * 100), text_bound(secs * 100));
        }
    }

    #[test]
    fn keys_are_every_combination_first_slot_slowest() {
        let keys = Keys::new(
            KeyType::S,
            vec![
                Choice::One("C#".into()),
                Choice::Numbers(0, 2),
                Choice::One("#".into()),
                Choice::Texts(vec!["2024-01".into(), "2024-02".into()]),
            ],
        );
        assert_eq!(keys.len(), 6);
        assert_eq!(
            texts(&keys),
            ["C#0#2024-01", "C#0#2024-02", "C#1#2024-01", "C#1#2024-02", "C#2#2024-01", "C#2#2024-02"]
        );
        // Negative bucket numbers, and a slot with no value: no key at all.
        assert_eq!(texts(&Keys::new(KeyType::S, vec![Choice::Numbers(-2, -1)])), ["-2", "-1"]);
        let none = Keys::new(KeyType::S, vec![Choice::Numbers(0, 9), Choice::None]);
        assert_eq!((none.len(), none.iter().count()), (0, 0));
    }

    #[test]
    fn a_large_fan_out_is_rendered_one_key_at_a_time() {
        // 10^12 keys: holding them would take terabytes; the set holds two ranges.
        let keys = Keys::new(
            KeyType::S,
            vec![Choice::Numbers(0, 999_999), Choice::One("#".into()), Choice::Numbers(0, 999_999)],
        );
        assert_eq!(keys.len(), 1_000_000_000_000);
        let first: Vec<String> =
            keys.iter().take(3).map(|k| String::from_utf8(k.into_owned().text).unwrap()).collect();
        assert_eq!(first, ["0#0", "0#1", "0#2"]);
        let key = keys.iter().nth(1_000_001).map(|k| String::from_utf8(k.into_owned().text).unwrap());
        assert_eq!(key.as_deref(), Some("1#1"));
    }
}

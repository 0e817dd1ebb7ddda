//! Embedded children (`model::Embed`): a put of a child is an UpdateItem of its parent that
//! appends the child to a list attribute, so the parent's item grows with every child — until it
//! reaches DynamoDB's 400 KB item limit and the update is refused (embedded whole), or for ever
//! at the size of its newest `keep_latest` children (the subset pattern, where the children are
//! items of their own too).
//!
//! The parent's list is a `Val::List(bytes, appends)` in its overrides, so its size flows into the
//! item's size, its index entries and its capacity units like any attribute's; the children it
//! holds (oldest first, with the bytes each takes) are kept here so that the inspector and the
//! console can show the real list, and so that the subset pattern drops exactly the bytes of the
//! child that falls out.

use std::collections::{HashMap, VecDeque};

use super::Simulation;
use super::exec::{Call, ItemWrite, Refused, Resume, WriteStatus};
use super::items::{Val, materialize, nested_field_size};
use super::table::Placed;
use super::world::World;
use crate::engine::model::Variant;
use crate::engine::value::{AttributeValue, Item};

/// Retry request numbers of embed side writes: embed `e` is `EMBED_REQUEST + e` (aggregates sit
/// below, copies above).
pub(super) const EMBED_REQUEST: u32 = 0x2000;

/// An embed bound to entity and attribute slots.
#[derive(Debug, Clone, Copy)]
pub(super) struct EmbedPlan {
    pub child: usize,
    pub parent: usize,
    /// The child's attribute naming its parent (a member of the parent's population).
    pub by_attr: usize,
    /// The parent's list attribute.
    pub list_attr: usize,
    /// `None`: embedded whole; `Some(n)`: the newest `n`, the children being items too.
    pub keep: Option<u32>,
}

/// One parent's list, oldest first: (child ordinal, bytes the element takes).
pub(super) type Children = VecDeque<(u32, u32)>;

/// An embed and, by parent ordinal, the children in each parent's list.
#[derive(Debug, Clone)]
pub(super) struct Embedded {
    pub plan: EmbedPlan,
    pub lists: HashMap<u32, Children>,
}

pub(super) fn compile(world: &World, variant: &Variant) -> Vec<Embedded> {
    variant
        .embeds
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (child, parent) = (e.entity_id().index(), e.into_id().index());
            let plan = EmbedPlan {
                child,
                parent,
                by_attr: e.by_id()?.index(),
                list_attr: world.entities[parent].added.list(i)?,
                keep: e.keep_latest,
            };
            Some(Embedded { plan, lists: HashMap::new() })
        })
        .collect()
}

impl Simulation {
    /// Bytes a child takes as one element of its parent's list: a map of its attributes (all
    /// but the one naming the parent), 3 bytes + 1 per field + names and values, and the list's
    /// 1 byte per element (AWS "Item sizes and formats"; `value::AttributeValue::size`).
    /// In BSON: the element's type byte and name terminator, and an embedded document of the
    /// fields (`profile::Sizing::list_element`); the digits of its index are the list's
    /// (`Sizing::list_names`), since they change as the subset pattern drops the oldest.
    fn element_size(&self, plan: &EmbedPlan, vals: &[Val]) -> u32 {
        let attrs = &self.world.entities[plan.child].attrs;
        let sizing = self.world.engine.profile().sizing;
        let fields: usize = attrs
            .iter()
            .zip(vals)
            .enumerate()
            .filter(|&(i, (_, v))| i != plan.by_attr && !matches!(v, Val::Absent | Val::List(..)))
            .map(|(_, (a, &v))| nested_field_size(sizing, a, v, &self.world.pops))
            .sum();
        u32::try_from(sizing.list_element(fields)).unwrap_or(u32::MAX)
    }

    /// Appends child `ordinal` (values `vals`) to its parent's list with an UpdateItem of the
    /// parent. `pattern` is the call's pattern when this update is the call's own write (a child
    /// embedded whole), `caller` the pattern whose call it is; a refused update changes nothing.
    pub(super) fn append(
        &mut self,
        e: usize,
        ordinal: u32,
        vals: &[Val],
        (pattern, caller): (Option<usize>, usize),
        now_ms: u64,
        first: bool,
    ) -> WriteStatus {
        let plan = self.upkeep.embeds[e].plan;
        let parent = match vals[plan.by_attr] {
            Val::Member(m) => u32::try_from(m).ok().filter(|&p| p < self.world.entities[plan.parent].next),
            _ => None,
        };
        let Some(parent) = parent else { return WriteStatus::Invalid };
        let mut parent_vals = Vec::new();
        self.current_vals(plan.parent, parent, &mut parent_vals);
        // The application appends with `attribute_exists` on the parent's key: a parent that was
        // deleted (or overwritten by another item) is not brought back by its child.
        let mut placed = Placed::default();
        let table = self.world.entities[plan.parent].table;
        let handle = self.world.handle(plan.parent, parent);
        let present = table.is_some_and(|t| {
            self.place(plan.parent, parent, &parent_vals, &mut placed)
                && self.storage.tables[t].current(&placed).is_some_and(|row| row.id == handle)
        });
        if !present {
            return WriteStatus::Invalid;
        }
        let element = self.element_size(&plan, vals);
        let sizing = self.world.engine.profile().sizing;
        let empty = u32::try_from(sizing.empty_list()).unwrap_or(u32::MAX);
        let (bytes, appends) = match parent_vals[plan.list_attr] {
            Val::List(bytes, appends) => (bytes, appends),
            _ => (empty, 0),
        };
        let fresh = appends == 0;
        let held = plan.keep.map_or(appends, |n| appends.min(n));
        let oldest =
            self.upkeep.embeds[e].lists.get(&parent).filter(|_| !fresh).and_then(|c| c.front()).map(|c| c.1);
        let drop = plan.keep.is_some_and(|n| held >= n).then_some(oldest).flatten();
        // The count of appends, not of elements: a list that keeps 10 changes with every append,
        // as an index that projects it must see.
        // The elements' names: BSON's indexes, renumbered when the oldest falls out.
        let len_before = if fresh { 0 } else { held as usize };
        let len_after = len_before + 1 - usize::from(drop.is_some());
        let names = |len: usize| u32::try_from(sizing.list_names(len)).unwrap_or(u32::MAX);
        let list = Val::List(
            (bytes + element + names(len_after)).saturating_sub(drop.unwrap_or(0) + names(len_before)),
            appends + 1,
        );
        parent_vals[plan.list_attr] = list;
        let changes = [(u16::try_from(plan.list_attr).unwrap_or(u16::MAX), list)];
        let write = ItemWrite {
            entity: plan.parent,
            ordinal: parent,
            vals: Some(&parent_vals),
            changes: &changes,
            pattern,
            caller: Some(caller),
            now_ms,
            first,
            new_item: false,
            moved: false,
            condition: None,
        };
        // An observer sees the parent with this child in its list (`observe`).
        if let Some(o) = self.observing.as_mut() {
            o.appending = Some((e, ordinal));
        }
        let status = self.write_item(write);
        if let Some(o) = self.observing.as_mut() {
            o.appending = None;
        }
        if status == WriteStatus::Done {
            self.index_element(e, ordinal, vals, parent, &placed);
            let children = self.upkeep.embeds[e].lists.entry(parent).or_default();
            if fresh {
                children.clear();
            }
            if drop.is_some() {
                children.pop_front();
            }
            children.push_back((ordinal, element));
        }
        status
    }

    /// The subset pattern's second write: the child, written as an item of its own, is also
    /// appended to its parent's list — one more request of the call's pattern, retried like an
    /// aggregate when throttled (`resume`: this is the retry).
    pub(super) fn append_side(
        &mut self,
        e: usize,
        ordinal: u32,
        vals: &[Val],
        call: Call,
        resume: Option<&Resume>,
    ) {
        let pattern = call.pattern;
        let now_ms = resume.map_or(call.time_ms, |r| r.at_ms);
        if resume.is_none() {
            self.figures.totals.requests += 1;
            self.figures.stats[pattern].requests += 1;
        }
        match self.append(e, ordinal, vals, (None, pattern), now_ms, resume.is_none()) {
            WriteStatus::Done => self.figures.totals.embed_writes += 1,
            WriteStatus::Throttled => {
                let request = EMBED_REQUEST + u32::try_from(e).unwrap_or(0);
                let refused =
                    Refused { request, now_ms, base_ms: 0.0, reports: false, ordinal, cursor: None };
                self.throttled(call, resume, refused);
            }
            status => self.write_failed(pattern, status),
        }
    }

    /// A refused append retried: the child's values now.
    pub(super) fn retry_append(&mut self, e: usize, call: Call, resume: &Resume) {
        let child = self.upkeep.embeds[e].plan.child;
        let mut vals = Vec::new();
        self.current_vals(child, resume.ordinal, &mut vals);
        self.append_side(e, resume.ordinal, &vals, call, Some(resume));
    }

    /// Puts the real embedded lists into a regenerated item of `entity` (item `ordinal`, values
    /// `vals`): each child as a map of its attributes, as the list's size counts them.
    /// `appending`: (embed, child) being appended now, whose write has not landed yet — the
    /// list as it will be (`vals` already counts the append).
    pub(super) fn embedded_lists(
        &self,
        entity: usize,
        ordinal: u32,
        vals: &[Val],
        item: &mut Item,
        appending: Option<(usize, u32)>,
    ) {
        for (e, Embedded { plan, lists }) in
            self.upkeep.embeds.iter().enumerate().filter(|(_, e)| e.plan.parent == entity)
        {
            let Val::List(_, appends) = vals[plan.list_attr] else { continue };
            let held = plan.keep.map_or(appends, |n| appends.min(n));
            let new = appending.filter(|&(a, _)| a == e).map(|(_, child)| child);
            // A first append starts a fresh list.
            let old = lists.get(&ordinal).filter(|_| !(new.is_some() && appends == 1));
            let children: Vec<u32> = old.into_iter().flatten().map(|&(child, _)| child).chain(new).collect();
            if children.is_empty() && old.is_none() {
                continue;
            }
            let attrs = &self.world.entities[plan.child].attrs;
            let mut list = Vec::with_capacity(children.len());
            let mut child_vals = Vec::new();
            let skip = children.len().saturating_sub(held as usize);
            for &child in children.iter().skip(skip) {
                self.current_vals(plan.child, child, &mut child_vals);
                child_vals[plan.by_attr] = Val::Absent;
                list.push(AttributeValue::M(materialize(attrs, &child_vals, &self.world.pops)));
            }
            let name = self.world.entities[entity].attrs[plan.list_attr].name.clone();
            item.insert(name, AttributeValue::L(list));
        }
    }
}

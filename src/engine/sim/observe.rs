//! Watching a replay's requests: an [`Observer`] attached to a [`Simulation`] is told every
//! request the replay served, in order, as the DynamoDB request a client would have sent — the
//! preload's PutItems, each call's PutItem/UpdateItem/DeleteItem, GetItem, BatchGetItem, every
//! Query page (IndexName, key condition, Limit, ExclusiveStartKey) and Scan page, the aggregate,
//! copy and append writes a call brings, the BatchGetItem that fetches what an index lacks.
//!
//! What is served is what is told: a throttled request is told once, when its retry lands (as
//! a client's SDK retries and its caller sees one request); a request that runs out of retries
//! changed nothing and is not told, nor are writes refused for their size or collection. TTL
//! deletes are the table's own work, not requests.
//!
//! The engine only builds the requests (typed, in DynamoDB's terms); the observer decides what
//! to do with them (`interop::trace` writes `keyheat ops` JSON Lines). Without an observer
//! nothing here runs: each hook is one `Option` test, and the items are materialized only for
//! an observer.

use std::any::Any;
use std::ops::Bound;

use crate::engine::time::SimTime;
use crate::engine::value::{AttributeValue, Item, KeyType};

use super::Simulation;
use super::exec::ItemWrite;
use super::items::{self, Val};
use super::table::PartKey;
use super::world::ReadPlan;

/// Told every request a replay served (see the module documentation).
pub trait Observer: Any + Send {
    /// `request` was served at simulated time `at`. `metered`: false for the preload, which
    /// the replay loads before the run at no cost.
    fn served(&mut self, at: SimTime, metered: bool, source: Source, request: Request<'_>);
}

/// Who sent a request: an access pattern's call (its own request, or a copy, aggregate or
/// append write the call brought, whose cost is the pattern's), or the table's own upkeep (the
/// preload and population growth). Lets an observer set what it measures beside the report's
/// per-pattern figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The pattern's position in the scenario's access patterns (`RunReport::patterns`).
    Pattern(usize),
    Upkeep,
}

/// A DynamoDB request, as the replay sent it.
#[derive(Debug, Clone, PartialEq)]
pub enum Request<'a> {
    PutItem {
        table: &'a str,
        item: Item,
    },
    /// Sets the attributes in `set` and removes those in `remove` (the difference between the
    /// item before and after the write).
    UpdateItem {
        table: &'a str,
        key: Item,
        set: Item,
        remove: Vec<String>,
    },
    DeleteItem {
        table: &'a str,
        key: Item,
    },
    GetItem {
        table: &'a str,
        key: Item,
    },
    /// At most 100 keys.
    BatchGetItem {
        table: &'a str,
        keys: Vec<Item>,
    },
    Query(Query<'a>),
    Scan {
        table: &'a str,
        start: Option<Item>,
    },
}

/// One Query request (one page).
#[derive(Debug, Clone, PartialEq)]
pub struct Query<'a> {
    pub table: &'a str,
    pub index: Option<&'a str>,
    pub pk: (&'a str, AttributeValue),
    pub sk: Option<(&'a str, SortCondition)>,
    pub forward: bool,
    pub limit: Option<u32>,
    /// The read needs attributes the (local) index does not project: `Select: ALL_ATTRIBUTES`.
    pub all_attributes: bool,
    pub start: Option<Item>,
}

/// A key condition on the sort key.
#[derive(Debug, Clone, PartialEq)]
pub enum SortCondition {
    Eq(AttributeValue),
    BeginsWith(AttributeValue),
    Between(AttributeValue, AttributeValue),
    Lt(AttributeValue),
    Le(AttributeValue),
    Gt(AttributeValue),
    Ge(AttributeValue),
}

/// The largest character: `BETWEEN lo AND hi\u{10FFFF}` holds every key that starts with `hi`
/// (the replay's "up to the end of `hi`'s prefix"), which one DynamoDB condition cannot say
/// exactly otherwise.
const LAST_CHAR: char = '\u{10FFFF}';

impl SortCondition {
    /// The condition for sort-key text bounds as the replay computes them (`begins_with` when
    /// the upper bound is the prefix's successor).
    pub(super) fn from_bounds(
        lo: &Bound<String>,
        hi: &Bound<String>,
        key_type: KeyType,
    ) -> Option<SortCondition> {
        let value = |text: &str| super::key_value(key_type, text).to_attribute();
        let successor = |text: &str| super::keys::prefix_successor(text);
        Some(match (lo, hi) {
            (Bound::Unbounded, Bound::Unbounded) => return None,
            (Bound::Included(a), Bound::Included(b)) if a == b => SortCondition::Eq(value(a)),
            (Bound::Included(a), Bound::Excluded(b))
                if key_type == KeyType::S && successor(a).as_ref() == Some(b) =>
            {
                SortCondition::BeginsWith(value(a))
            }
            (Bound::Included(a), Bound::Included(b)) => SortCondition::Between(value(a), value(b)),
            (Bound::Included(a), Bound::Excluded(b)) => {
                // [a, b) where b is the successor of a prefix p: every key starting with p.
                let p = b.strip_suffix(|_: char| true).unwrap_or(b);
                let mut upper = p.to_owned();
                if let Some(last) = b.chars().last() {
                    upper.push(char::from_u32(u32::from(last) - 1).unwrap_or(last));
                }
                upper.push(LAST_CHAR);
                SortCondition::Between(value(a), value(&upper))
            }
            (Bound::Included(a), Bound::Unbounded) => SortCondition::Ge(value(a)),
            (Bound::Unbounded, Bound::Included(b)) => SortCondition::Le(value(b)),
            (Bound::Unbounded, Bound::Excluded(b)) => SortCondition::Lt(value(b)),
            (Bound::Excluded(a), _) => SortCondition::Gt(value(a)),
        })
    }
}

/// A Get or Query an observer is told of: the pattern, when the request was served (a retry's
/// time), when its call was made (which fixes the sort-key range the request asked), and the
/// read plan and values the call knows, from which the request's keys are rebuilt.
#[derive(Clone, Copy)]
pub(super) struct ObservedRead<'a> {
    pub pattern: usize,
    pub at_ms: u64,
    pub call_ms: u64,
    pub plan: &'a ReadPlan,
    pub known: &'a [Val],
}

/// The observer and what it needs kept between requests.
pub(super) struct Observing {
    pub observer: Box<dyn Observer>,
    /// Per Scan call (pattern, call) refused mid-way: the last item its served pages read, the
    /// ExclusiveStartKey of its next page.
    pub scan_from: std::collections::HashMap<(usize, u64), u32>,
    /// An embedded child being appended to its parent now: (embed, child ordinal).
    pub appending: Option<(usize, u32)>,
}

impl Simulation {
    /// Whether an observer is attached.
    pub(super) fn observing(&self) -> bool {
        self.observing.is_some()
    }

    /// Tells the observer (if any).
    pub(super) fn tell(&mut self, at_ms: u64, metered: bool, source: Source, request: Request<'_>) {
        if let Some(o) = self.observing.as_mut() {
            o.observer.served(SimTime::from_millis(at_ms), metered, source, request);
        }
    }

    /// The attached observer, to look at while the run goes on.
    pub fn observer(&self) -> Option<&dyn Observer> {
        self.observing.as_ref().map(|o| &*o.observer)
    }

    /// Detaches the observer (to read what it gathered).
    pub fn take_observer(&mut self) -> Option<Box<dyn Observer>> {
        self.observing.take().map(|o| o.observer)
    }

    /// An item as DynamoDB holds it: its attributes, embedded lists and key attributes.
    pub(super) fn materialize(&self, entity: usize, ordinal: u32, vals: &[Val]) -> Item {
        self.materialize_with(entity, ordinal, vals, None)
    }

    /// [`Simulation::materialize`] with `appending`: an embedded child being appended to it
    /// (`embedded_lists`).
    fn materialize_with(
        &self,
        entity: usize,
        ordinal: u32,
        vals: &[Val],
        appending: Option<(usize, u32)>,
    ) -> Item {
        let ent = &self.world.entities[entity];
        let mut item = items::materialize(&ent.attrs, vals, &self.world.pops);
        self.embedded_lists(entity, ordinal, vals, &mut item, appending);
        if self.world.engine.profile().key_attributes {
            item.extend(self.key_attributes(entity, ordinal, vals));
        }
        item
    }

    /// The item a handle names as it is now.
    fn item_now(&self, handle: u32) -> Option<Item> {
        let (entity, ordinal) = (self.world.entity_of(handle), self.world.ordinal_of(handle));
        self.birth(entity, ordinal)?;
        let mut vals = Vec::new();
        self.current_vals(entity, ordinal, &mut vals);
        Some(self.materialize(entity, ordinal, &vals))
    }

    /// The key attributes of the item a handle names in table `t` (and index `index`): an
    /// ExclusiveStartKey, or a BatchGetItem key.
    pub(super) fn key_of(&self, t: usize, index: Option<usize>, handle: u32) -> Option<Item> {
        let item = self.item_now(handle)?;
        Some(self.key_in(t, index, &item))
    }

    fn key_in(&self, t: usize, index: Option<usize>, item: &Item) -> Item {
        let table = &self.world.tables[t];
        let mut names: Vec<&str> = vec![&table.pk_name];
        names.extend(table.sk_name.as_deref());
        if let Some(i) = index {
            names.push(&table.indexes[i].pk_name);
            names.extend(table.indexes[i].sk_name.as_deref());
        }
        item.iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect()
    }

    /// The item at a table key before a write, when an observer will need it.
    pub(super) fn before_write(&self, old_handle: Option<u32>) -> Option<Item> {
        if !self.observing() {
            return None;
        }
        self.item_now(old_handle?)
    }

    /// Tells a write that landed: a DeleteItem, a PutItem (a new item, or a put), or an
    /// UpdateItem of what changed.
    pub(super) fn tell_write(
        &mut self,
        t: usize,
        write: &ItemWrite<'_>,
        before: Option<Item>,
        metered: bool,
    ) {
        let table = self.world.tables[t].name.clone();
        let put =
            write.pattern.is_some_and(|p| self.world.patterns[p].action == crate::engine::model::Action::Put)
                || (write.pattern.is_none() && write.caller.is_none());
        let request = match (write.vals, before) {
            (None, Some(before)) => Request::DeleteItem { table: &table, key: self.key_in(t, None, &before) },
            (None, None) => return,
            (Some(vals), before) => {
                let appending = self.observing.as_ref().and_then(|o| o.appending);
                let after = self.materialize_with(write.entity, write.ordinal, vals, appending);
                match before {
                    Some(before) if !put => {
                        let key = self.key_in(t, None, &after);
                        let set: Item = after
                            .iter()
                            .filter(|(n, v)| !key.contains_key(*n) && before.get(*n) != Some(v))
                            .map(|(n, v)| (n.clone(), v.clone()))
                            .collect();
                        let remove = before.keys().filter(|n| !after.contains_key(*n)).cloned().collect();
                        Request::UpdateItem { table: &table, key, set, remove }
                    }
                    _ => Request::PutItem { table: &table, item: after },
                }
            }
        };
        let source = write.caller.map_or(Source::Upkeep, Source::Pattern);
        self.tell(write.now_ms, metered, source, request);
    }

    /// Tells the GetItem or BatchGetItem of these partition keys (the sort key, if the table has
    /// one, is the read's exact sort key).
    pub(super) fn tell_get(&mut self, read: &ObservedRead<'_>, chunk: &[PartKey], batch: bool) {
        let ObservedRead { pattern, at_ms, call_ms, plan, known } = *read;
        let table = &self.world.tables[plan.table];
        let sk = match (&table.sk_name, &plan.sk) {
            (Some(name), Some(sk)) => match self.sort_text_range(plan, known, call_ms).0 {
                Bound::Included(text) => {
                    Some((name.clone(), super::key_value(sk.key_type, &text).to_attribute()))
                }
                _ => None,
            },
            _ => None,
        };
        let keys: Vec<Item> = chunk
            .iter()
            .map(|pk| {
                let text = String::from_utf8_lossy(&pk.text);
                let mut key = Item::new();
                key.insert(table.pk_name.clone(), super::key_value(pk.key_type, &text).to_attribute());
                if let Some((name, value)) = &sk {
                    key.insert(name.clone(), value.clone());
                }
                key
            })
            .collect();
        let name = table.name.clone();
        let request = if batch {
            Request::BatchGetItem { table: &name, keys }
        } else {
            let Some(key) = keys.into_iter().next() else { return };
            Request::GetItem { table: &name, key }
        };
        self.tell(at_ms, true, Source::Pattern(pattern), request);
    }

    /// Tells the pages of one Query on partition `pk`: `ends` are the last items of every page
    /// but the last (each the next page's ExclusiveStartKey).
    pub(super) fn tell_query(
        &mut self,
        read: &ObservedRead<'_>,
        pk: &PartKey,
        limit: Option<u32>,
        ends: &[u32],
    ) {
        let ObservedRead { pattern, at_ms, call_ms, plan, known } = *read;
        let table = &self.world.tables[plan.table];
        let (pk_name, sk_name) = match plan.index {
            Some(i) => (table.indexes[i].pk_name.clone(), table.indexes[i].sk_name.clone()),
            None => (table.pk_name.clone(), table.sk_name.clone()),
        };
        let (lo, hi) = self.sort_text_range(plan, known, call_ms);
        let sk = sk_name
            .zip(plan.sk.as_ref())
            .and_then(|(name, sk)| SortCondition::from_bounds(&lo, &hi, sk.key_type).map(|c| (name, c)));
        let table_name = table.name.clone();
        let index_name = plan.index.map(|i| table.indexes[i].name.clone());
        let pk_value = super::key_value(pk.key_type, &String::from_utf8_lossy(&pk.text)).to_attribute();
        let mut starts: Vec<Option<Item>> = vec![None];
        for &end in ends {
            starts.push(self.key_of(plan.table, plan.index, end));
        }
        for start in starts {
            let request = Request::Query(Query {
                table: &table_name,
                index: index_name.as_deref(),
                pk: (&pk_name, pk_value.clone()),
                sk: sk.as_ref().map(|(n, c)| (n.as_str(), c.clone())),
                forward: plan.forward,
                limit,
                all_attributes: plan.fetch == super::world::Fetch::Lsi,
                start,
            });
            self.tell(at_ms, true, Source::Pattern(pattern), request);
        }
    }

    /// Tells the BatchGetItems (100 keys each) that fetch these items from table `t`.
    pub(super) fn tell_fetch(&mut self, pattern: usize, at_ms: u64, t: usize, handles: &[u32]) {
        let keys: Vec<Item> = handles.iter().filter_map(|&h| self.key_of(t, None, h)).collect();
        let table = self.world.tables[t].name.clone();
        for chunk in keys.chunks(crate::engine::store::MAX_BATCH_GET_KEYS) {
            let request = Request::BatchGetItem { table: &table, keys: chunk.to_vec() };
            self.tell(at_ms, true, Source::Pattern(pattern), request);
        }
    }

    /// Tells one Scan page of table `t` starting after the item `from` names.
    pub(super) fn tell_scan(&mut self, pattern: usize, at_ms: u64, t: usize, from: Option<u32>) {
        let start = from.and_then(|h| self.key_of(t, None, h));
        let table = self.world.tables[t].name.clone();
        self.tell(at_ms, true, Source::Pattern(pattern), Request::Scan { table: &table, start });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::s(text)
    }

    #[test]
    fn sort_bounds_become_one_key_condition() {
        let inc = |t: &str| Bound::Included(t.to_owned());
        let exc = |t: &str| Bound::Excluded(t.to_owned());
        let cases = [
            (Bound::Unbounded, Bound::Unbounded, None),
            (inc("A#1"), inc("A#1"), Some(SortCondition::Eq(s("A#1")))),
            (inc("ORDER#"), exc("ORDER$"), Some(SortCondition::BeginsWith(s("ORDER#")))),
            (inc("a"), inc("b"), Some(SortCondition::Between(s("a"), s("b")))),
            // Up to the end of a time slot's text followed by more: every key starting with "2025-01-02".
            (
                inc("2025-01-01"),
                exc("2025-01-03"),
                Some(SortCondition::Between(s("2025-01-01"), s("2025-01-02\u{10FFFF}"))),
            ),
            (inc("m"), Bound::Unbounded, Some(SortCondition::Ge(s("m")))),
            (Bound::Unbounded, exc("m"), Some(SortCondition::Lt(s("m")))),
        ];
        for (lo, hi, expected) in cases {
            assert_eq!(SortCondition::from_bounds(&lo, &hi, KeyType::S), expected, "{lo:?} {hi:?}");
        }
        let n = |t: &str| AttributeValue::N(crate::engine::number::Number::parse(t).unwrap());
        assert_eq!(
            SortCondition::from_bounds(&inc("10"), &inc("20"), KeyType::N),
            Some(SortCondition::Between(n("10"), n("20")))
        );
    }
}

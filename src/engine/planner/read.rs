//! Read patterns: try the table and every index, keep the cheapest that serves the pattern, say
//! why each other one does not (or costs more), and fall back to a Scan — or to "unserved" when
//! the pattern asks for something no key can answer.

use std::fmt::Write as _;

mod query;

use query::{Limited, fetch, filter, limited, missing, query_items};

use super::estimate::{Class, Estimator};
use super::keys::{self, SortCondition};
use super::numbers;
use super::{Alternative, CQL_PAGE_ROWS, Fetch, IndexId, Kind, Operation, PAGE_BYTES, PatternPlan};
use crate::engine::model::{AccessPattern, Entity, EntityId, Index, Order, RangeSpan};
use crate::engine::store::read_units_for;
use crate::engine::template::{ClassSlot, Template};

/// Eventually consistent reads cost half a unit per 4 KB (the default, and all a GSI allows):
/// what a transaction's strongly consistent reads, read twice, are a multiple of.
const EVENTUAL: f64 = 0.5;
/// A transaction holds at most 100 items (AWS developer guide, "Amazon DynamoDB Transactions: How
/// it works").
pub const MAX_TRANSACTION_ITEMS: u32 = 100;

/// BatchGetItem takes at most 100 keys per request (AWS API reference, BatchGetItem).
const BATCH_GET_KEYS: f64 = 100.0;

/// One way to serve a read, with its estimated cost.
#[derive(Clone)]
struct Candidate {
    operation: Operation,
    fanout: u32,
    key_condition: String,
    filter: Option<String>,
    units: f64,
    items_read: f64,
    bytes_read: f64,
    fetch: Option<Fetch>,
    reason: String,
}

pub fn plan(est: &Estimator<'_>, p: &AccessPattern) -> PatternPlan {
    let as_served = p.as_served_by(est.variant);
    let embedded: Vec<EntityId> =
        p.with_ids().iter().copied().filter(|w| !as_served.with_ids().contains(w)).collect();
    let p = as_served.as_ref();
    let mut out = PatternPlan::start(p, Kind::Read, est.secs);
    let places: Vec<Option<&Index>> =
        std::iter::once(None).chain(est.variant.indexes.iter().map(Some)).collect();
    let ids: Vec<Option<IndexId>> = std::iter::once(None)
        .chain(est.variant.indexes.iter().enumerate().map(|(i, ix)| Some(IndexId::new(i, ix))))
        .collect();
    let known = with_constants(est, p.entity_id(), p);
    let verdicts: Vec<Result<Candidate, Unserved>> =
        places.iter().map(|place| candidate(est, &known, *place)).collect();
    let best = cheapest(&verdicts);
    for (i, (id, verdict)) in ids.iter().zip(&verdicts).enumerate() {
        if best == Some(i) {
            continue;
        }
        let (serves, reason) = match verdict {
            Ok(c) => (true, format!("also serves it ({}), but costs more", cost_note(est, c))),
            Err(why) => (false, why.to_string()),
        };
        out.alternatives.push(Alternative { index: id.clone(), serves, reason });
    }
    let best = best.and_then(|i| verdicts[i].clone().ok().map(|c| (i, c)));
    match best {
        Some((i, c)) => serve(est, p, &embedded, ids[i].clone(), c, &mut out),
        None if p.contains.is_some() => {
            let attribute = p.contains.as_deref().unwrap_or_default();
            out.reason = format!(
                "contains({attribute}, word) looks for a word inside the text: no key condition can test that, and no \
                 key narrows the search to one partition, so a Scan with that filter would read the whole table on \
                 every call. Serve it with a search index fed by the same writes (e.g. OpenSearch via {})",
                streams(est)
            );
        }
        None if split(est, p, &mut out) => {}
        None => scan(est, p, &mut out),
    }
    if p.transaction {
        transactional(&mut out);
    }
    cached(est, p, out)
}

/// A read of items by their full primary keys, `reach.fanout` of them: a GetItem, or a
/// BatchGetItem of several. Each item is rounded up to 4 KB on its own.
fn by_key(
    est: &Estimator<'_>,
    reach: &keys::Reach,
    key_condition: String,
    filter: Option<String>,
    entry_bytes: f64,
) -> Candidate {
    let keys = f64::from(reach.fanout);
    Candidate {
        operation: if reach.fanout == 1 { Operation::GetItem } else { Operation::BatchGetItem },
        fanout: reach.fanout,
        key_condition,
        filter,
        units: keys * read_units_for(entry_bytes, false),
        items_read: keys,
        bytes_read: keys * entry_bytes,
        fetch: None,
        reason: if reach.fanout == 1 {
            format!("the full primary key is known: one {}", if est.cql { "row" } else { "item" })
        } else {
            format!("{} keys, one per {}", reach.fanout, reach.notes.join("; "))
        },
    }
}

/// The place that serves the pattern for the fewest units, then the fewest requests; the first
/// of equals (the table before the indexes, in the variant's order).
fn cheapest(verdicts: &[Result<Candidate, Unserved>]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, verdict) in verdicts.iter().enumerate() {
        if let Ok(c) = verdict {
            let better = best
                .and_then(|b| verdicts[b].as_ref().ok())
                .is_none_or(|b| (c.units, c.fanout) < (b.units, b.fanout));
            if better {
                best = Some(i);
            }
        }
    }
    best
}

/// Serves the pattern with candidate `c` at `index`, and says what else the read brings: the
/// `embedded` children that come with the item, and what a `contains` filter costs.
fn serve(
    est: &Estimator<'_>,
    p: &AccessPattern,
    embedded: &[EntityId],
    index: Option<IndexId>,
    c: Candidate,
    out: &mut PatternPlan,
) {
    out.operation = Some(c.operation);
    out.index = index;
    out.fanout = c.fanout;
    out.key_condition = Some(c.key_condition);
    out.filter = c.filter;
    out.served = true;
    out.reason = c.reason;
    out.units_per_call = c.units;
    out.items_read = Some(c.items_read);
    out.bytes_read = Some(c.bytes_read);
    out.fetch = c.fetch;
    for &child in embedded {
        if let Some(embed) = est.variant.embed_of_id(child) {
            let _ = write!(
                out.reason,
                "; its {} items come with it, embedded in its {} list{}",
                est.entity(child).name,
                embed.as_name,
                embed.keep_latest.map_or(String::new(), |n| format!(" (the newest {n})"))
            );
        }
    }
    if let Some(attribute) = &p.contains {
        let _ = write!(
            out.reason,
            "; contains({attribute}, :word) is a filter, so every item the key reaches is read to find the \
             matches — a search index fed by the same writes (e.g. OpenSearch via {}) finds them without \
             reading the rest",
            streams(est)
        );
    }
}

/// A Get in a transaction: TransactGetItems reads its items as one snapshot, each read twice
/// and strongly consistent — 2 RCU per 4 KB where an eventually consistent GetItem costs 0.5
/// (AWS developer guide, "Amazon DynamoDB Transactions: How it works", capacity management). It
/// holds at most 100 items, each named by its full key; DAX passes it through to the table
/// uncached ("Using transactional APIs in DynamoDB Accelerator").
fn transactional(out: &mut PatternPlan) {
    let keyed =
        matches!(out.operation, Some(Operation::GetItem | Operation::BatchGetItem)) && out.parts.is_empty();
    if !keyed || out.fanout > MAX_TRANSACTION_ITEMS {
        let _ = write!(
            out.reason,
            "; not a TransactGetItems: {}, so the call reads without the transaction",
            if keyed {
                format!(
                    "it reads {} items and a transaction holds at most {MAX_TRANSACTION_ITEMS}",
                    out.fanout
                )
            } else {
                "a transaction reads items by their full keys, and this design reads with a Query".to_owned()
            }
        );
        return;
    }
    out.operation = Some(Operation::TransactGetItems);
    out.units_per_call *= 2.0 / EVENTUAL;
    let _ = write!(
        out.reason,
        ", in one TransactGetItems (each item read twice, strongly consistent: 2 RCU per 4 KB)"
    );
}

/// A read-through cache in front of the pattern: only its misses reach the table, so the read
/// units, items and bytes per call are the misses' share of the uncached ones.
fn cached(est: &Estimator<'_>, p: &AccessPattern, mut out: PatternPlan) -> PatternPlan {
    let item_cache =
        matches!(out.operation, Some(Operation::GetItem | Operation::BatchGetItem)) && out.parts.is_empty();
    let Some(cache) = super::cache::plan(est, p, item_cache, out.units_per_call) else { return out };
    if cache.applies {
        let miss = 1.0 - cache.hit_ratio;
        out.units_per_call *= miss;
        out.items_read = out.items_read.map(|n| n * miss);
        out.bytes_read = out.bytes_read.map(|n| n * miss);
    }
    out.cache = Some(cache);
    out
}

/// A `with` pattern whose entities no single place holds under one partition key: one request
/// per entity, each served as the entity's own read with the inputs it has (a GetItem for the
/// customer, a Query for their orders), sent together. False, leaving `out` as it was, when any
/// entity's read is not served by a key — then the pattern is a Scan after all.
fn split(est: &Estimator<'_>, p: &AccessPattern, out: &mut PatternPlan) -> bool {
    if p.with.is_empty() || p.contains.is_some() {
        return false;
    }
    let mut parts = Vec::new();
    for entity in p.entity_ids() {
        let Some(part) = p.part(est.entity(entity)) else { return false };
        let plan = plan(est, &part);
        if !plan.served {
            return false;
        }
        parts.push(plan);
    }
    let first = &parts[0];
    out.operation = first.operation;
    out.index.clone_from(&first.index);
    out.key_condition.clone_from(&first.key_condition);
    out.filter.clone_from(&first.filter);
    out.fetch.clone_from(&first.fetch);
    out.served = true;
    out.fanout = parts.iter().map(|x| x.fanout).sum();
    out.units_per_call = parts.iter().map(|x| x.units_per_call).sum();
    out.items_read = Some(parts.iter().filter_map(|x| x.items_read).sum());
    out.bytes_read = Some(parts.iter().filter_map(|x| x.bytes_read).sum());
    let each: Vec<String> = p
        .entities()
        .zip(&parts)
        .map(|(entity, x)| {
            let operation = x.operation.map_or("?", |o| if est.cql { cql_verb(o) } else { o.name() });
            format!("{entity}: {operation} on the {} ({})", label_of(x.index.as_ref()), x.reason)
        })
        .collect();
    out.reason = format!(
        "{} are in different partitions, so one request cannot read them together: {} requests sent at once, \
         one per entity — {}",
        p.entities().collect::<Vec<_>>().join(" and "),
        parts.len(),
        each.join("; ")
    );
    out.parts = parts;
    true
}

fn label_of(index: Option<&IndexId>) -> String {
    index.map_or_else(|| "table".to_owned(), |id| format!("index {}", id.name()))
}

/// The pattern as the keys of `entity` see it: an attribute that always holds the same text
/// (`game` is always "tetris") is known to every caller, as if the pattern compared it with that
/// constant. `entity` is the pattern's own, or the parent an embedded child's put appends to.
pub fn with_constants(est: &Estimator<'_>, entity: EntityId, p: &AccessPattern) -> AccessPattern {
    let mut known = p.clone();
    for (name, value) in est.constants(entity) {
        if !known.knows(name) {
            known.equals.push((name.to_owned(), value.to_owned()));
        }
    }
    known
}

fn streams(est: &Estimator<'_>) -> &'static str {
    if est.cql { "Cassandra CDC" } else { "DynamoDB Streams" }
}

/// "Query ×2, ~5.5 RCU per call" (in the Cassandra profile, bytes read instead of units).
fn cost_note(est: &Estimator<'_>, c: &Candidate) -> String {
    let fanout = if c.fanout > 1 { format!(" ×{}", c.fanout) } else { String::new() };
    let fetch = if c.fetch.is_some() { " + fetch" } else { "" };
    if est.cql {
        format!("{}{fanout}{fetch}, ~{} read per call", cql_verb(c.operation), numbers::bytes(c.bytes_read))
    } else {
        format!("{}{fanout}{fetch}, ~{} RCU per call", c.operation.name(), numbers::count(c.units))
    }
}

/// The CQL statement an operation becomes in the Cassandra profile.
pub fn cql_verb(operation: Operation) -> &'static str {
    match operation {
        // The loader refuses transactions in the Cassandra profile.
        Operation::GetItem | Operation::BatchGetItem | Operation::Query | Operation::TransactGetItems => {
            "SELECT"
        }
        Operation::Scan => "SELECT … ALLOW FILTERING",
        Operation::PutItem => "INSERT",
        Operation::UpdateItem => "UPDATE",
        Operation::DeleteItem => "DELETE",
        Operation::DeleteAndPut => "DELETE + INSERT",
        Operation::TransactWriteItems => "BEGIN BATCH … APPLY BATCH",
    }
}

pub fn label(place: Option<&Index>) -> String {
    place.map_or_else(|| "table".to_owned(), |ix| format!("{} {}", ix.kind.short(), ix.name))
}

/// Read units for `requests` requests that together read `bytes`: each request is rounded up to
/// 4 KB on its own (a request that reads nothing still costs one unit's worth).
fn query_units(bytes: f64, requests: u32) -> f64 {
    let per = bytes / f64::from(requests.max(1));
    f64::from(requests.max(1)) * read_units_for(per, false)
}

/// `query_units` over `requests` requests on average (a range over time buckets sends one or
/// two): the whole requests' units, and the odd one's share.
fn mean_query_units(bytes: f64, requests: f64) -> f64 {
    let whole = requests.floor().max(1.0);
    let extra = (requests - whole).max(0.0);
    let units = |n: f64| {
        let n = numbers::ceil_u32(n);
        query_units(bytes, n)
    };
    (1.0 - extra) * units(whole) + extra * units(whole + 1.0)
}

/// `34 pages of 5,000 rows`: a CQL read's pages, by the driver's fetch size in rows.
pub fn cql_pages(rows: f64) -> String {
    let n = (rows / CQL_PAGE_ROWS as f64).ceil().max(1.0);
    let noun = if (n - 1.0).abs() < f64::EPSILON { "page" } else { "pages" };
    format!("{} {noun} of {} rows", numbers::count(n), numbers::count(CQL_PAGE_ROWS as f64))
}

/// `1 page` / `12 pages`.
pub fn pages(bytes: f64) -> String {
    let n = (bytes / PAGE_BYTES).ceil().max(1.0);
    format!("{} {} of 1 MB", numbers::count(n), if (n - 1.0).abs() < f64::EPSILON { "page" } else { "pages" })
}

/// The pattern's entities' templates in one place (table or index).
struct Located<'a> {
    templates: Vec<(EntityId, &'a Template, Option<&'a Template>)>,
}

/// Why the table or an index cannot serve a read: the plan's alternatives say so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unserved {
    #[error("{entity} {} are not in it", if *cql { "rows" } else { "items" })]
    NotHeld { entity: String, cql: bool },
    #[error(
        "{entity} and {other} have different partition keys there ({key} vs {other_key}), so one request cannot read both"
    )]
    KeysDiffer { entity: String, key: String, other: String, other_key: String },
    /// A sparse index's `only_when` that the pattern does not ask for.
    #[error("it only holds items where {attribute} = {value:?}; the pattern does not ask for that")]
    Sparse { attribute: String, value: String },
    #[error(transparent)]
    Key(#[from] keys::KeyGap),
}

/// Whether `place` holds every entity the pattern reads, under one partition key.
fn locate<'a>(
    est: &Estimator<'a>,
    p: &'a AccessPattern,
    place: Option<&'a Index>,
) -> Result<Located<'a>, Unserved> {
    let mut templates: Vec<(EntityId, &Template, Option<&Template>)> = Vec::new();
    for entity in p.entity_ids() {
        let keys = match place {
            None => est.variant.keys_for(entity),
            Some(ix) => ix.keys_for(entity),
        };
        let Some(keys) = keys else {
            return Err(Unserved::NotHeld { entity: est.entity(entity).name.clone(), cql: est.cql });
        };
        templates.push((entity, &keys.pk, keys.sk.as_ref()));
    }
    let pk = templates[0].1;
    if let Some((other, other_pk, _)) = templates.iter().find(|(_, t, _)| t.source() != pk.source()) {
        return Err(Unserved::KeysDiffer {
            entity: p.entity.clone(),
            key: pk.source().to_owned(),
            other: est.entity(*other).name.clone(),
            other_key: other_pk.source().to_owned(),
        });
    }
    Ok(Located { templates })
}

/// A sparse index holds only the items matching its `only_when`: it serves a pattern that asks
/// for exactly those (and then needs no filter on that attribute), and no other.
fn sparse_match<'a>(p: &AccessPattern, place: Option<&'a Index>) -> Result<Option<&'a str>, Unserved> {
    let Some((attribute, value)) = place.and_then(|ix| ix.only_when.as_ref()) else { return Ok(None) };
    if p.equals.iter().any(|(a, v)| a == attribute && v == value) {
        Ok(Some(attribute.as_str()))
    } else {
        Err(Unserved::Sparse { attribute: attribute.clone(), value: value.clone() })
    }
}

fn candidate(est: &Estimator<'_>, p: &AccessPattern, place: Option<&Index>) -> Result<Candidate, Unserved> {
    // The key first: a missing partition key input is the real blocker, whatever else differs.
    let located = locate(est, p, place)?;
    let (entity, pk, _) = located.templates[0];
    let Some(slot) = pk.class_slot().filter(|slot| p.knows(&slot.by)) else {
        return candidate_in(est, p, place, &located, None);
    };
    // A reader who knows the class asks only its class's shards or buckets: cost a call of
    // each class on its own layout, and mix them by the share of calls each class takes.
    let mut classes: Vec<(Class<'_>, f64, Candidate)> = Vec::new();
    for (class, share) in est.class_shares(entity, slot, p) {
        if share <= 0.0 {
            continue;
        }
        let special = pk.specialized(|slot| slot.case(class).clone());
        let templates = located
            .templates
            .iter()
            .map(|&(e, t, sk)| (e, if t.source() == pk.source() { &special } else { t }, sk))
            .collect();
        let c = candidate_in(est, p, place, &Located { templates }, Some((slot, class)))?;
        classes.push((class, share, c));
    }
    Ok(mix(&slot.by, &classes))
}

/// One candidate from a candidate per class, weighted by the share of calls each takes: the
/// units and items a call reads on average, and the largest fan-out any call makes (what a
/// `MaxFanout` goal and the replay's measured maximum compare with).
fn mix(by: &str, classes: &[(Class<'_>, f64, Candidate)]) -> Candidate {
    let total: f64 = classes.iter().map(|(_, s, _)| s).sum::<f64>().max(f64::MIN_POSITIVE);
    let weighted =
        |f: &dyn Fn(&Candidate) -> f64| classes.iter().map(|(_, s, c)| s / total * f(c)).sum::<f64>();
    let widest = classes.iter().max_by_key(|(_, _, c)| c.fanout).map(|(_, _, c)| c.clone());
    let Some(mut out) = widest else { unreachable!("a class slot has at least one class") };
    out.units = weighted(&|c| c.units);
    out.items_read = weighted(&|c| c.items_read);
    out.bytes_read = weighted(&|c| c.bytes_read);
    if let Some(fetch) = &mut out.fetch {
        fetch.items = weighted(&|c| c.fetch.as_ref().map_or(0.0, |f| f.items));
        fetch.units = weighted(&|c| c.fetch.as_ref().map_or(0.0, |f| f.units));
    }
    let mean_fanout = weighted(&|c| f64::from(c.fanout));
    let each: Vec<String> = classes
        .iter()
        .map(|(class, share, c)| {
            let label = class.map_or_else(|| "other values".to_owned(), |v| format!("{by} = {v}"));
            format!("{label} ({} of calls): {}", numbers::percent(share / total), c.reason)
        })
        .collect();
    out.reason = format!(
        "by {by}, each class on its own layout — ×{} requests a call on average; {}",
        numbers::factor(mean_fanout),
        each.join(" | ")
    );
    out
}

fn candidate_in(
    est: &Estimator<'_>,
    p: &AccessPattern,
    place: Option<&Index>,
    located: &Located<'_>,
    class: Option<(&ClassSlot, Class<'_>)>,
) -> Result<Candidate, Unserved> {
    let (pk_name, sk_name) = match place {
        None => (est.variant.table_pk.as_str(), est.variant.table_sk.as_deref()),
        Some(ix) => (ix.pk_attribute.as_str(), ix.sk_attribute.as_deref()),
    };
    let (entity, pk, sk) = located.templates[0];
    let reach = keys::reach(p, pk, false, est.secs)?;
    let sparse = sparse_match(p, place)?;
    let multi = located.templates.len() > 1;
    let sort = if multi {
        SortCondition::default()
    } else {
        keys::sort_condition(p, sk, sk_name.unwrap_or("SK"), est.cql)
    };
    let sort = if sk.is_none() { SortCondition { exact: true, ..sort } } else { sort };
    let filter = filter(est, p, place, located, &sort, sparse);
    let mut key_condition = keys::partition_condition(pk, pk_name, est.cql);
    if let Some(text) = &sort.text {
        key_condition = format!("{key_condition} AND {text}");
    }
    let entry_bytes =
        located.templates.iter().map(|&(e, _, _)| est.entry_bytes(place, e)).fold(0.0, f64::max);
    // GetItem needs the table's full primary key; an index key is not unique, so even a fully
    // known index key is a Query.
    if sort.exact && !multi && place.is_none() {
        return Ok(by_key(est, &reach, key_condition, filter.text, entry_bytes));
    }
    let all = query_items(est, p, place, located, &reach, &sort);
    // How far back a call reads: its range when the key applies it, else the time bucket it
    // is in, else everything.
    let window = match p.range.as_ref().map(|r| &r.span) {
        Some(RangeSpan::Last(d)) if sort.range_by_key => d.as_secs_f64(),
        _ => est.spread(entity, place, pk, Some(p)).bucket_secs.unwrap_or(f64::INFINITY),
    };
    let sizes = est.call_sizes(entity, pk, p, window, class);
    let Limited { read: items, returned, calls } = limited(p, &sort, &reach, &filter, all, &sizes);
    // Each call rounds its own bytes up, per request: the mean of the rounded units, not the
    // rounded mean, over the requests a call sends on average.
    let mut units: f64 =
        calls.iter().map(|(w, x)| w * mean_query_units(x * entry_bytes, reach.mean_fanout)).sum();
    let stopped = p.limit.filter(|_| items < all).map(|limit| (limit, filter.text.is_some()));
    let mut reason = describe(est, p, located, &reach, &sort, Reading { items, entry_bytes, stopped });
    let fetch = match place {
        Some(ix) if !multi => {
            let missing = missing(est, p, ix);
            (!missing.is_empty()).then(|| fetch(est, entity, ix, &missing, returned, &mut reason))
        }
        _ => None,
    };
    if let Some(f) = &fetch {
        units += f.units;
    }
    Ok(Candidate {
        operation: Operation::Query,
        fanout: reach.fanout,
        key_condition,
        filter: filter.text,
        units,
        items_read: items,
        bytes_read: items * entry_bytes,
        fetch,
        reason,
    })
}

/// What one Query call reads: items, the size of each, and the limit that stopped it early
/// (with whether it counts items that pass a filter).
#[derive(Clone, Copy)]
struct Reading {
    items: f64,
    entry_bytes: f64,
    stopped: Option<(u32, bool)>,
}

/// Why a Query serves the pattern, and what one call reads.
fn describe(
    est: &Estimator<'_>,
    p: &AccessPattern,
    located: &Located<'_>,
    reach: &keys::Reach,
    sort: &SortCondition,
    reading: Reading,
) -> String {
    let Reading { items, entry_bytes, stopped } = reading;
    let mut text = if located.templates.len() > 1 {
        format!(
            "one partition holds {} together: read the item collection",
            p.entities().collect::<Vec<_>>().join(" and ")
        )
    } else if sort.exact {
        "the whole index key is known".to_owned()
    } else if sort.range_by_key {
        "the sort key applies the range".to_owned()
    } else if sort.text.is_some() {
        "the sort key narrows the partition to this entity's items".to_owned()
    } else if stopped.is_some() {
        "reads the partition in sort key order".to_owned()
    } else {
        "reads the whole partition".to_owned()
    };
    if !reach.notes.is_empty() {
        text = format!("×{}: {}; {text}", reach.fanout, reach.notes.join("; "));
    }
    let bytes = items * entry_bytes;
    let per_request = bytes / f64::from(reach.fanout.max(1));
    let noun = if est.cql { "rows" } else { "items" };
    let _ = write!(text, "; {}", items_clause(items, bytes, noun));
    if est.cql {
        let rows = items / f64::from(reach.fanout.max(1));
        if rows > CQL_PAGE_ROWS as f64 {
            let _ = write!(text, ", {} per request", cql_pages(rows));
        }
    } else if per_request > PAGE_BYTES {
        let _ = write!(text, ", {} per request", pages(per_request));
    }
    if let Some((limit, filtered)) = stopped {
        let _ = write!(
            text,
            ", stopping at the limit of {limit}{}",
            if filtered { " items that pass the filter" } else { "" }
        );
    }
    if p.order == Order::Desc && sort.ordered {
        // "Newest" only when the order is over a time; a score or a name runs highest first.
        let by_time = p.range_id().is_some_and(|r| {
            let entity = est.entity(p.entity_id());
            entity.attributes[r.index()].ty == crate::engine::model::AttrType::Time
        });
        let first = if by_time { "newest first" } else { "highest first" };
        let clause = if est.cql { "ORDER BY … DESC" } else { "ScanIndexForward = false" };
        let _ = write!(text, ", {first} ({clause})");
    }
    if p.range.is_some() && !sort.ordered && p.limit.is_some() {
        text.push_str(", unordered by the range attribute: the limit applies only after reading every match");
    }
    text
}

/// "~45 items (4 KB) per call": what the plan's words say a call reads (and what `check` takes
/// out of them when it cannot predict it).
pub(super) fn items_clause(items: f64, bytes: f64, noun: &str) -> String {
    format!("~{} {noun} ({}) per call", numbers::count(items), numbers::bytes(bytes))
}

/// No key serves the pattern: a Scan of the table with the pattern's inputs as a filter. In
/// the Cassandra profile each entity is its own table, so only the pattern's are scanned.
fn scan(est: &Estimator<'_>, p: &AccessPattern, out: &mut PatternPlan) {
    let mut items = 0.0;
    let mut bytes = 0.0;
    let scanned: Vec<&Entity> = if est.cql {
        p.entity_ids().map(|e| est.entity(e)).collect()
    } else {
        est.variant.keys.iter().map(|k| est.entity(k.entity_id())).collect()
    };
    for entity in &scanned {
        let n = est.items_total(entity.id());
        items += n;
        bytes += n * est.item_bytes(entity.id());
    }
    let value = |a: &str| if est.cql { format!("{a} = ?") } else { format!("{a} = :{a}") };
    let mut filters: Vec<String> =
        p.given.iter().map(|a| value(a)).chain(p.equals.iter().map(|(a, _)| value(a))).collect();
    if let Some(range) = &p.range {
        match (&range.span, est.cql) {
            (RangeSpan::Last(_), false) => filters.push(format!("{} >= :from", range.attribute)),
            (RangeSpan::Last(_), true) => filters.push(format!("{} >= ?", range.attribute)),
            (RangeSpan::BeginsWith(_), false) => {
                filters.push(format!("begins_with({}, :prefix)", range.attribute));
            }
            (RangeSpan::BeginsWith(_), true) => {
                filters.push(format!("{0} >= ? AND {0} < ?", range.attribute));
            }
            (RangeSpan::All, _) => {}
        }
    }
    out.operation = Some(Operation::Scan);
    out.filter = (!filters.is_empty()).then(|| filters.join(" AND "));
    out.units_per_call = query_units(bytes, 1);
    out.items_read = Some(items);
    out.bytes_read = Some(bytes);
    out.reason = if est.cql {
        format!(
            "no key serves it: a full scan (SELECT … ALLOW FILTERING) reads all ~{} rows ({}) of the {} table{} on every call, {}",
            numbers::count(items),
            numbers::bytes(bytes),
            scanned.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" and "),
            if scanned.len() == 1 { "" } else { "s" },
            cql_pages(items)
        )
    } else {
        format!(
            "no key serves it: a Scan reads all ~{} items ({}) of the table on every call, {}",
            numbers::count(items),
            numbers::bytes(bytes),
            pages(bytes)
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_cql_pages_in_rows() {
        // (rows one partition request reads, words)
        let cases = [
            (0.0, "1 page of 5,000 rows"),
            (5_000.0, "1 page of 5,000 rows"),
            (5_001.0, "2 pages of 5,000 rows"),
            (165_701.0, "34 pages of 5,000 rows"),
        ];
        for (rows, text) in cases {
            assert_eq!(cql_pages(rows), text, "{rows}");
        }
    }

    #[test]
    fn counts_pages_in_words() {
        let mb = PAGE_BYTES;
        let cases = [
            (0.0, "1 page of 1 MB"),
            (mb, "1 page of 1 MB"),
            (mb + 1.0, "2 pages of 1 MB"),
            (12.5 * mb, "13 pages of 1 MB"),
        ];
        for (bytes, text) in cases {
            assert_eq!(pages(bytes), text, "{bytes}");
        }
    }
}

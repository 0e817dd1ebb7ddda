//! Read patterns: try the table and every index, keep the cheapest that serves the pattern, say
//! why each other one does not (or costs more), and fall back to a Scan — or to "unserved" when
//! the pattern asks for something no key can answer.

mod prefix;
mod query;

use query::{Limited, fetch, filter, limited, missing, query_items};

use super::dialect::{KeyCondition, Term, Test};
use super::estimate::{Class, ClassOf, Estimator};
use super::keys::{self, SortCondition};
use super::numbers;
use super::verdict::{
    Access, ClassAccess, Considered, Cost, Descending, Embedded, QueryReading, QueryShape, ReadHow,
    ReadVerdict, Scan, Served, Split, SplitPart, Stopped, TransactRead, Unserved, Verdict,
};
use super::{Alternative, Fetch, IndexId, Kind, Operation, PatternPlan};
use crate::engine::model::{AccessPattern, Bound, Entity, EntityId, Index, Order, RangeSpan};
use crate::engine::profile::Metering;

/// Eventually consistent reads cost half a unit per 4 KB (the default, and all a GSI allows):
/// what a transaction's strongly consistent reads, read twice, are a multiple of.
const EVENTUAL: f64 = 0.5;

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
    access: Access,
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
        let considered = match verdict {
            Ok(c) => Considered::CostsMore(cost(est, c)),
            Err(why) => Considered::Unserved(why.clone()),
        };
        out.alternatives.push(Alternative { index: id.clone(), considered });
    }
    let best = best.and_then(|i| verdicts[i].clone().ok().map(|c| (i, c)));
    match best {
        Some((i, c)) => serve(est, p, &embedded, ids[i].clone(), c, &mut out),
        None if p.contains.is_some() => {
            let attribute = p.contains.clone().unwrap_or_default();
            let how = ReadHow::Search { attribute, engine: est.scenario.engine };
            out.verdict = Verdict::Read(ReadVerdict { how, transaction: None });
        }
        None if split(est, p, &mut out) => {}
        None => scan(est, p, &mut out),
    }
    if p.transaction {
        transactional(est, &mut out);
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
        units: keys * est.metering.point_read_for(entry_bytes),
        items_read: keys,
        bytes_read: keys * entry_bytes,
        fetch: None,
        access: if reach.fanout == 1 {
            Access::Key { engine: est.scenario.engine }
        } else {
            Access::Keys { fanout: reach.fanout, notes: reach.notes.clone() }
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
    out.units_per_call = c.units;
    out.items_read = Some(c.items_read);
    out.bytes_read = Some(c.bytes_read);
    out.fetch = c.fetch;
    let embedded = embedded
        .iter()
        .filter_map(|&child| {
            let embed = est.variant.embed_of(child)?;
            let entity = est.entity(child).name.clone();
            Some(Embedded { entity, list: embed.as_name.clone(), keep_latest: embed.keep_latest })
        })
        .collect();
    let served =
        Served { access: c.access, embedded, contains: p.contains.clone(), engine: est.scenario.engine };
    out.verdict = Verdict::Read(ReadVerdict { how: ReadHow::Served(served), transaction: None });
}

/// A Get in a transaction: TransactGetItems reads its items as one snapshot, each read twice
/// and strongly consistent — 2 RCU per 4 KB where an eventually consistent GetItem costs 0.5
/// (AWS developer guide, "Amazon DynamoDB Transactions: How it works", capacity management). It
/// holds as many items as the store's transaction does (DynamoDB's 100; MongoDB names no count,
/// `profile::transactions`), each named by its full key; DAX passes it through to the table
/// uncached ("Using transactional APIs in DynamoDB Accelerator"). MongoDB meters no units: its
/// transaction reads each document once.
fn transactional(est: &Estimator<'_>, out: &mut PatternPlan) {
    let engine = est.scenario.engine;
    let profile = engine.profile();
    let keyed =
        matches!(out.operation, Some(Operation::GetItem | Operation::BatchGetItem)) && out.parts.is_empty();
    let too_many = profile.transactions.and_then(|limits| limits.too_many(out.fanout));
    let outcome = if !keyed {
        TransactRead::NotByKey { engine }
    } else if let Some(most) = too_many {
        TransactRead::TooMany { items: out.fanout, most, engine }
    } else {
        out.operation = Some(Operation::TransactGetItems);
        if profile.metering == Metering::Units {
            out.units_per_call *= 2.0 / EVENTUAL;
        }
        TransactRead::Joined { engine }
    };
    let Verdict::Read(read) = &mut out.verdict else {
        unreachable!("every read's plan ends in a read verdict")
    };
    read.transaction = Some(outcome);
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
        if !plan.served() {
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
    out.fanout = parts.iter().map(|x| x.fanout).sum();
    out.units_per_call = parts.iter().map(|x| x.units_per_call).sum();
    out.items_read = Some(parts.iter().filter_map(|x| x.items_read).sum());
    out.bytes_read = Some(parts.iter().filter_map(|x| x.bytes_read).sum());
    let each = p
        .entities()
        .zip(&parts)
        .map(|(entity, x)| SplitPart {
            entity: entity.to_owned(),
            operation: x.operation,
            index: x.index.clone(),
            verdict: x.verdict.clone(),
        })
        .collect();
    let how = ReadHow::Split(Split { parts: each, engine: est.scenario.engine });
    out.verdict = Verdict::Read(ReadVerdict { how, transaction: None });
    out.parts = parts;
    true
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

/// What candidate `c` costs a call, to compare with the one chosen.
fn cost(est: &Estimator<'_>, c: &Candidate) -> Cost {
    Cost {
        operation: c.operation,
        fanout: c.fanout,
        fetch: c.fetch.is_some(),
        units: c.units,
        bytes: c.bytes_read,
        engine: est.scenario.engine,
    }
}

pub fn label(place: Option<&Index>) -> String {
    place.map_or_else(|| "table".to_owned(), |ix| format!("{} {}", ix.kind.short(), ix.name))
}

/// Read units for `requests` requests that together read `bytes`: each request is charged as
/// one page of its own (DynamoDB rounds each up to 4 KB; a request that reads nothing still
/// costs one unit's worth).
fn query_units(metering: Metering, bytes: f64, requests: u32) -> f64 {
    let per = bytes / f64::from(requests.max(1));
    f64::from(requests.max(1)) * metering.page_for(per)
}

/// `query_units` over `requests` requests on average (a range over time buckets sends one or
/// two): the whole requests' units, and the odd one's share.
fn mean_query_units(metering: Metering, bytes: f64, requests: f64) -> f64 {
    let whole = requests.floor().max(1.0);
    let extra = (requests - whole).max(0.0);
    let units = |n: f64| {
        let n = numbers::ceil_u32(n);
        query_units(metering, bytes, n)
    };
    (1.0 - extra) * units(whole) + extra * units(whole + 1.0)
}

/// The pattern's entities' templates in one place (table or index).
struct Located<'a> {
    templates: Vec<(EntityId, Bound<'a>, Option<Bound<'a>>)>,
    /// The partition key above is the first levels of the place's (a query on a prefix of a
    /// hierarchical key), routed so.
    prefix: Option<prefix::Routed>,
}

/// Whether `place` holds every entity the pattern reads, under one partition key.
fn locate<'a>(
    est: &Estimator<'a>,
    p: &'a AccessPattern,
    place: Option<&'a Index>,
) -> Result<Located<'a>, Unserved> {
    let mut templates: Vec<(EntityId, Bound<'a>, Option<Bound<'a>>)> = Vec::new();
    for entity in p.entity_ids() {
        let keys = match place {
            None => est.variant.keys_for(entity),
            Some(ix) => ix.keys_for(entity),
        };
        let Some(keys) = keys else {
            return Err(Unserved::NotHeld {
                entity: est.entity(entity).name.clone(),
                engine: est.scenario.engine,
            });
        };
        templates.push((entity, keys.pk_bound(), keys.sk_bound()));
    }
    let pk = templates[0].1.template;
    if let Some((other, other_pk, _)) = templates.iter().find(|(_, t, _)| t.template.source() != pk.source())
    {
        return Err(Unserved::KeysDiffer {
            entity: p.entity.clone(),
            key: pk.source().to_owned(),
            other: est.entity(*other).name.clone(),
            other_key: other_pk.template.source().to_owned(),
            engine: est.scenario.engine,
        });
    }
    Ok(Located { templates, prefix: None })
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
    let Some(of) = ClassOf::in_key(pk).filter(|of| p.knows(&of.slot.by)) else {
        return candidate_in(est, p, place, &located, None);
    };
    // A reader who knows the class asks only its class's shards or buckets: cost a call of
    // each class on its own layout, and mix them by the share of calls each class takes.
    let mut classes: Vec<(Class<'_>, f64, Candidate)> = Vec::new();
    for (class, share) in est.class_shares(entity, of, p) {
        if share <= 0.0 {
            continue;
        }
        // The class's own part stands where the class slot was: each slot still reads the same.
        let special = pk.template.specialized(|slot| slot.case(class).clone());
        let same = |t: Bound<'_>| t.template.source() == pk.template.source();
        let templates = (located.templates.iter())
            .map(|&(e, t, sk)| (e, if same(t) { Bound { template: &special, ..t } } else { t }, sk))
            .collect();
        let c = candidate_in(est, p, place, &Located { templates, prefix: None }, Some((of, class)))?;
        classes.push((class, share, c));
    }
    Ok(mix(&of.slot.by, &classes))
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
    let classes = classes
        .iter()
        .map(|(class, share, c)| ClassAccess {
            value: class.map(str::to_owned),
            share: share / total,
            access: c.access.clone(),
        })
        .collect();
    out.access = Access::Classes { by: by.to_owned(), mean_fanout, classes };
    out
}

fn candidate_in(
    est: &Estimator<'_>,
    p: &AccessPattern,
    place: Option<&Index>,
    located: &Located<'_>,
    class: Option<(ClassOf<'_>, Class<'_>)>,
) -> Result<Candidate, Unserved> {
    let (pk_name, sk_name) = match place {
        None => (est.variant.table_pk.as_str(), est.variant.table_sk.as_deref()),
        Some(ix) => (ix.pk_attribute.as_str(), ix.sk_attribute.as_deref()),
    };
    let (entity, pk, sk) = located.templates[0];
    let reach = match keys::reach(p, pk.template, false, est.secs) {
        Ok(reach) => reach,
        // A store that routes a hierarchical key's prefix reads by the levels the pattern gives.
        Err(gap) => {
            let Some((short, routed)) = prefix::shorten(est, p, place, located, pk_name) else {
                return Err(Unserved::Key { gap, engine: est.scenario.engine });
            };
            let templates = (located.templates.iter())
                .map(|&(e, t, sk)| {
                    let slots = &t.slots[..short.parts().len().min(t.slots.len())];
                    (e, Bound { template: &short, slots, ..t }, sk)
                })
                .collect();
            return candidate_in(est, p, place, &Located { templates, prefix: Some(routed) }, class);
        }
    };
    let sparse = sparse_match(p, place)?;
    let multi = located.templates.len() > 1;
    let sort = if multi {
        SortCondition::default()
    } else {
        keys::sort_condition(p, sk.map(|sk| sk.template), sk_name.unwrap_or("SK"), est.language)
    };
    let sort = if sk.is_none() { SortCondition { exact: true, ..sort } } else { sort };
    let filter = filter(est, p, place, located, &sort, sparse);
    let mut terms = match &located.prefix {
        // Each level is a path of its own: the query tests the ones it gives.
        Some(routed) => {
            routed.key.given.iter().map(|path| Term::equals(path.as_str(), path.as_str())).collect()
        }
        None => keys::partition_condition(pk.template, pk_name, est.language),
    };
    terms.extend(sort.terms.iter().cloned());
    let descending_by = sk_name.filter(|_| p.order == Order::Desc && sort.ordered).map(str::to_owned);
    let key_condition =
        est.language.key_condition(&KeyCondition { terms, descending_by }).unwrap_or_default();
    let entry_bytes =
        located.templates.iter().map(|&(e, _, _)| est.entry_bytes(place, e)).fold(0.0, f64::max);
    // GetItem needs the table's full primary key; an index key is not unique, so even a fully
    // known index key is a Query.
    if sort.exact && !multi && place.is_none() && located.prefix.is_none() {
        return Ok(by_key(est, &reach, key_condition, filter.text, entry_bytes));
    }
    let mut all = query_items(est, p, place, located, &reach, &sort);
    // Through a multikey index: the distinct parents the key's children are in, and their size.
    let multikey = place.and_then(|ix| est.variant.multikey_of(ix)).map(|embed| {
        let key_rate = est.partition_items(place, pk, Some(p)).rate;
        let (documents, bytes) = est.multikey_reads(embed, key_rate);
        all = documents * f64::from(reach.fanout.max(1));
        if documents > 0.0 { bytes / documents } else { est.item_bytes(embed.into_id()) }
    });
    // How far back a call reads: its range when the key applies it, else the time bucket it
    // is in, else everything.
    let window = match p.range.as_ref().map(|r| &r.span) {
        Some(RangeSpan::Last(d)) if sort.range_by_key => d.as_secs_f64(),
        _ => est.spread(place, pk, Some(p)).bucket_secs.unwrap_or(f64::INFINITY),
    };
    let sizes = est.call_sizes(pk, p, window, class);
    let Limited { read: items, returned, calls } = limited(p, &sort, &reach, &filter, all, &sizes);
    // Each call rounds its own bytes up, per request: the mean of the rounded units, not the
    // rounded mean, over the requests a call sends on average (a prefix's: one a physical
    // partition holding it).
    let requests = located.prefix.as_ref().map_or(reach.mean_fanout, |r| f64::from(r.partitions));
    let mut units: f64 =
        calls.iter().map(|(w, x)| w * mean_query_units(est.metering, x * entry_bytes, requests)).sum();
    let stopped =
        p.limit.filter(|_| items < all).map(|limit| Stopped { limit, after_filter: filter.text.is_some() });
    let mut reading = describe(est, p, located, &reach, &sort, Reading { items, entry_bytes, stopped });
    if let Some(routed) = &located.prefix {
        reading.fanout = routed.partitions;
        reading.prefix = Some(Box::new(routed.key.clone()));
    }
    let fetch = match place {
        Some(ix) if !multi => {
            let missing = missing(est, p, ix);
            (!missing.is_empty()).then(|| {
                let (fetch, fetched) = fetch(est, entity, ix, &missing, returned, multikey);
                reading.fetch = Some(fetched);
                fetch
            })
        }
        _ => None,
    };
    if let Some(f) = &fetch {
        units += f.units;
    }
    // The documents a MongoDB query's FETCH stage reads are read bytes too.
    let fetched_bytes = reading.fetch.as_ref().and_then(|f| f.documents.as_ref()).map_or(0.0, |d| d.1);
    Ok(Candidate {
        operation: Operation::Query,
        fanout: located.prefix.as_ref().map_or(reach.fanout, |r| r.partitions),
        key_condition,
        filter: filter.text,
        units,
        items_read: items,
        bytes_read: items * entry_bytes + fetched_bytes,
        fetch,
        access: Access::Query(reading),
    })
}

/// What one Query call reads: items, the size of each, and the limit that stopped it early
/// (with whether it counts items that pass a filter).
#[derive(Clone, Copy)]
struct Reading {
    items: f64,
    entry_bytes: f64,
    stopped: Option<Stopped>,
}

/// Why a Query serves the pattern, and what one call reads.
fn describe(
    est: &Estimator<'_>,
    p: &AccessPattern,
    located: &Located<'_>,
    reach: &keys::Reach,
    sort: &SortCondition,
    reading: Reading,
) -> QueryReading {
    let Reading { items, entry_bytes, stopped } = reading;
    let shape = if located.templates.len() > 1 {
        QueryShape::Collection(p.entities().map(str::to_owned).collect())
    } else if sort.exact {
        QueryShape::WholeKey
    } else if sort.range_by_key {
        QueryShape::Range
    } else if !sort.terms.is_empty() {
        QueryShape::Narrowed
    } else if stopped.is_some() {
        QueryShape::InOrder
    } else {
        QueryShape::Whole
    };
    let descending = (p.order == Order::Desc && sort.ordered).then(|| {
        let by_time = p.range_id().is_some_and(|r| {
            let entity = est.entity(p.entity_id());
            entity.attributes[r.index()].ty == crate::engine::model::AttrType::Time
        });
        if by_time { Descending::NewestFirst } else { Descending::HighestFirst }
    });
    QueryReading {
        shape,
        fanout: reach.fanout,
        notes: reach.notes.clone(),
        items,
        bytes: items * entry_bytes,
        items_unknown: false,
        stopped,
        descending,
        limit_after_range: p.range.is_some() && !sort.ordered && p.limit.is_some(),
        fetch: None,
        prefix: None,
        engine: est.scenario.engine,
    }
}

/// No key serves the pattern: a Scan of the table with the pattern's inputs as a filter. In
/// the Cassandra profile each entity is its own table, so only the pattern's are scanned.
fn scan(est: &Estimator<'_>, p: &AccessPattern, out: &mut PatternPlan) {
    let mut items = 0.0;
    let mut bytes = 0.0;
    let scanned: Vec<&Entity> = if est.cql() {
        p.entity_ids().map(|e| est.entity(e)).collect()
    } else {
        est.variant.keys.iter().map(|k| est.entity(k.entity_id())).collect()
    };
    for entity in &scanned {
        let n = est.items_total(entity.id());
        items += n;
        bytes += n * est.item_bytes(entity.id());
    }
    let mut filters: Vec<Term> = p
        .given
        .iter()
        .chain(p.equals.iter().map(|(a, _)| a))
        .map(|a| Term::equals(a.as_str(), a.as_str()))
        .collect();
    if let Some(range) = &p.range {
        match &range.span {
            RangeSpan::Last(_) => filters.push(Term::new(&range.attribute, Test::AtLeast("from".to_owned()))),
            RangeSpan::BeginsWith(_) => {
                filters.push(Term::new(&range.attribute, Test::Prefix("prefix".to_owned())));
            }
            RangeSpan::All => {}
        }
    }
    out.operation = Some(Operation::Scan);
    out.filter = est.language.filter(&filters);
    out.units_per_call = query_units(est.metering, bytes, 1);
    out.items_read = Some(items);
    out.bytes_read = Some(bytes);
    let tables = est.cql().then(|| scanned.iter().map(|e| e.name.clone()).collect());
    let how = ReadHow::Scan(Scan { items, bytes, tables, engine: est.scenario.engine });
    out.verdict = Verdict::Read(ReadVerdict { how, transaction: None });
}

//! What one Query call reads: the filter for what its key condition does not apply (and the
//! share of items that pass it), the items before and after its limit, and the fetch of what
//! an index does not project.

use super::{BATCH_GET_KEYS, Located};
use crate::engine::model::{AccessPattern, EntityId, Index, IndexKind, ItemAttr, RangeSpan};
use crate::engine::planner::dialect::{Term, Test};
use crate::engine::planner::estimate::Estimator;
use crate::engine::planner::keys::{self, SortCondition};
use crate::engine::planner::numbers;
use crate::engine::planner::verdict::FetchReading;
use crate::engine::planner::{Fetch, Operation};
use crate::engine::profile::IndexEntries;
use crate::engine::store::read_units_for;
use crate::engine::template::Template;

/// The attributes the pattern needs that an index entry does not carry (the table's and the
/// index's key attributes always are).
pub(super) fn missing<'a>(est: &Estimator<'a>, p: &'a AccessPattern, ix: &'a Index) -> Vec<&'a str> {
    let needed: Vec<&str> = match &p.returns {
        Some(names) => names.iter().map(String::as_str).collect(),
        None => est.entity(p.entity_id()).attributes.iter().map(|a| a.name.as_str()).collect(),
    };
    let key_attrs: Vec<&str> = est
        .variant
        .keys_for(p.entity_id())
        .into_iter()
        .chain(ix.keys_for(p.entity_id()))
        .flat_map(|k| k.pk.attributes().chain(k.sk.iter().flat_map(Template::attributes)))
        .collect();
    // A MongoDB index entry is the indexed values and a record id, whatever it projects.
    let carries = |n: &str| !documents(est) && ix.projection.carries(n);
    needed.into_iter().filter(|n| !key_attrs.contains(n) && !carries(n)).collect()
}

/// Whether the store's index entries hold only the indexed values and a record id (MongoDB),
/// so a read through an index fetches each match's document whole, in the same request.
fn documents(est: &Estimator<'_>) -> bool {
    matches!(est.scenario.engine.profile().index_entries, IndexEntries::KeyAndRecordId { .. })
}

/// The filter a Query sends, and the share of the items it reads that pass it (`None`: not
/// known, as for a word search).
pub(super) struct Filter {
    pub text: Option<String>,
    pub share: Option<f64>,
}

/// Known attributes the key condition does not apply, a range it does not apply, and a word
/// search become a filter.
pub(super) fn filter(
    est: &Estimator<'_>,
    p: &AccessPattern,
    place: Option<&Index>,
    located: &Located<'_>,
    sort: &SortCondition,
    sparse: Option<&str>,
) -> Filter {
    let (entity, pk, _) = located.templates[0];
    let consumed: Vec<&str> =
        keys::partition_consumes(pk.template).chain(sort.consumed.iter().map(String::as_str)).collect();
    let mut terms: Vec<Term> = Vec::new();
    let mut share = Some(1.0);
    let mut seen: Vec<&str> = Vec::new();
    let given = p.given.iter().zip(p.given_ids());
    let equals = p.equals.iter().map(|(a, _)| a).zip(p.equals_ids());
    for (a, &id) in given.chain(equals) {
        let (a, attr) = (a.as_str(), ItemAttr::Own(id));
        // A constant needs no filter: every item has it.
        if consumed.contains(&a)
            || sparse == Some(a)
            || seen.contains(&a)
            || est.constant(entity, attr).is_some()
        {
            continue;
        }
        seen.push(a);
        terms.push(Term::equals(a, a));
        share = share.map(|s| s * est.share_of(entity, attr, p));
    }
    if let Some(range) = &p.range
        && let Some(range_attr) = p.range_id().map(ItemAttr::Own)
        && !consumed.contains(&range.attribute.as_str())
    {
        match &range.span {
            RangeSpan::Last(d) => {
                terms.push(Term::new(&range.attribute, Test::AtLeast("from".to_owned())));
                let per_key = est.partition_items(place, pk, Some(p));
                let matching = per_key.rate * est.window_mean(d.as_secs_f64(), entity);
                let s = if per_key.items > 0.0 { (matching / per_key.items).min(1.0) } else { 1.0 };
                share = share.map(|x| x * s);
            }
            RangeSpan::BeginsWith(prefix) => {
                terms.push(Term::new(&range.attribute, Test::Prefix("prefix".to_owned())));
                share = share.map(|x| x * est.prefix_share(entity, range_attr, prefix));
            }
            RangeSpan::All => {}
        }
    }
    if let Some(attribute) = &p.contains {
        terms.push(Term::new(attribute, Test::Contains("word".to_owned())));
        share = None;
    }
    Filter { text: est.language.filter(&terms), share }
}

/// Items a Query call reads in total over its requests, before any filter or limit.
pub(super) fn query_items(
    est: &Estimator<'_>,
    p: &AccessPattern,
    place: Option<&Index>,
    located: &Located<'_>,
    reach: &keys::Reach,
    sort: &SortCondition,
) -> f64 {
    let fanout = f64::from(reach.fanout.max(1));
    let mut items = 0.0;
    for &(entity, pk, sk) in &located.templates {
        let per_key = est.partition_items(place, pk, Some(p));
        items += match (&p.range, sort.range_by_key, sk) {
            // The range's items arrive at the partition's rate; time buckets split them, shards
            // hold a slice each.
            (Some(r), true, _) => match &r.span {
                // Over time buckets, only those the run has written hold items: the window's
                // writes, not the buckets' count times a full bucket.
                RangeSpan::Last(d) => {
                    let window = per_key.rate * est.window_mean(d.as_secs_f64(), entity);
                    let shards = f64::from(reach.shards.max(1));
                    if est.spread(place, pk, Some(p)).bucket_secs.is_some() {
                        window * shards
                    } else {
                        (window * shards).min(per_key.items * fanout)
                    }
                }
                RangeSpan::BeginsWith(prefix) => {
                    // The key applies a range only to a read of one entity (a `with` read's
                    // sort condition is empty): the pattern's own attribute.
                    let ranged = p.range_id().filter(|_| entity == p.entity_id()).map(ItemAttr::Own);
                    per_key.items * fanout * ranged.map_or(1.0, |a| est.prefix_share(entity, a, prefix))
                }
                RangeSpan::All => per_key.items * fanout,
            },
            // A fully known index key: the items sharing that sort key value.
            (_, _, Some(sk)) if sort.exact => per_key.items * est.spread(place, sk, Some(p)).typical * fanout,
            _ => per_key.items * fanout,
        };
    }
    items
}

/// Items one call reads and returns once the limit is applied. Query's `Limit` stops a request
/// after that many items read; a call over time buckets reads them one after another (newest
/// first for a descending range) until it has `limit`, while a call over write shards must take
/// `limit` from every shard to merge them in order. With a filter, it reads until `limit` items
/// pass: limit ÷ the share that passes. A range the key does not order must be read in full.
///
/// `sizes` says how calls spread around the mean `all` (see `Estimator::call_sizes`): the
/// limit cuts each call, so a reader that mostly lands on small partitions reads less than
/// min(mean, limit).
pub(super) fn limited(
    p: &AccessPattern,
    sort: &SortCondition,
    reach: &keys::Reach,
    filter: &Filter,
    all: f64,
    sizes: &[(f64, f64)],
) -> Limited {
    let share = filter.share.unwrap_or(1.0);
    let limit = p.limit.map_or(f64::INFINITY, f64::from);
    let per_shard = if p.range.is_some() { f64::from(reach.shards.max(1)) } else { 1.0 };
    // What one call reads before it stops: everything when the key does not order the range
    // (or there is no limit), else until `limit` items pass the filter on every shard.
    let cap = match filter.share {
        _ if p.limit.is_none() || (p.range.is_some() && !sort.ordered) => f64::INFINITY,
        Some(s) if s > 0.0 => limit * per_shard / s,
        _ => f64::INFINITY,
    };
    let calls: Vec<(f64, f64)> =
        sizes.iter().map(|(weight, size)| (*weight, (all * size).min(cap))).collect();
    let read = mean(&calls, |x| x);
    let returned = mean(&calls, |x| (x * share).min(limit));
    Limited { read, returned, calls }
}

/// The weighted mean of `f` over the calls; exactly the value when every call has the same
/// (a limit every call reaches), which a sum of many weights would miss by rounding.
fn mean(calls: &[(f64, f64)], f: impl Fn(f64) -> f64) -> f64 {
    let first = calls.first().map_or(0.0, |(_, x)| f(*x));
    if calls.iter().all(|(_, x)| (f(*x) - first).abs() <= f64::EPSILON * first.abs()) {
        return first;
    }
    calls.iter().map(|(w, x)| w * f(*x)).sum()
}

/// Items a Query call reads and returns on average, and how calls spread: (weight, items read).
pub(super) struct Limited {
    pub read: f64,
    pub returned: f64,
    pub calls: Vec<(f64, f64)>,
}

/// The table items a Query on an index must fetch for attributes the index does not project:
/// a GSI's results are fetched with BatchGetItem (at most 100 keys a request), an LSI's are
/// fetched by the Query itself; either way each item is rounded up to 4 KB on its own. With it,
/// what the plan's verdict says about it.
pub(super) fn fetch(
    est: &Estimator<'_>,
    entity: EntityId,
    ix: &Index,
    missing: &[&str],
    returned: f64,
    parent: Option<f64>,
) -> (Fetch, FetchReading) {
    // A multikey index's entries point at the documents holding the children.
    // A multikey index's entries point at the documents holding the children, `parent` bytes
    // each on average (`Estimator::multikey_reads`).
    let fetched = est.variant.multikey_of(ix).map_or(entity, crate::engine::model::Embed::into_id);
    let item = parent.unwrap_or_else(|| est.item_bytes(fetched));
    let units =
        if est.scenario.engine.profile().metered() { returned * read_units_for(item, false) } else { 0.0 };
    let (operation, requests) = match ix.kind {
        // The query's own FETCH stage: no request of its own.
        _ if documents(est) => (Operation::Query, 0),
        IndexKind::Global => (Operation::BatchGetItem, numbers::ceil_u32(returned / BATCH_GET_KEYS)),
        IndexKind::Local => (Operation::Query, 0),
    };
    let reading = FetchReading {
        documents: documents(est).then(|| Box::new((est.entity(fetched).name.clone(), returned * item))),
        index: ix.name.clone(),
        kind: ix.kind,
        projection: ix.projection.clone(),
        missing: missing.iter().map(|&a| a.to_owned()).collect(),
        returned,
        requests,
        units,
        engine: est.scenario.engine,
    };
    (Fetch { operation, requests, items: returned, units }, reading)
}

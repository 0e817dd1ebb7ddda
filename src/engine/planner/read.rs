//! Read patterns: try the table and every index, keep the cheapest that serves the pattern, say
//! why each other one does not (or costs more), and fall back to a Scan — or to "unserved" when
//! the pattern asks for something no key can answer.

use std::fmt::Write as _;

use super::estimate::Estimator;
use super::keys::{self, SortCondition};
use super::load;
use super::numbers;
use super::{Alternative, Kind, Operation, PAGE_BYTES, PatternPlan};
use crate::engine::model::{AccessPattern, Index, IndexKind, Order, Projection, RangeSpan};
use crate::engine::template::Template;

/// Bytes one read unit covers (AWS: 4 KB per RCU).
const READ_UNIT_BYTES: f64 = 4096.0;
/// Eventually consistent reads cost half a unit per 4 KB (the default, and all a GSI allows).
const EVENTUAL: f64 = 0.5;

/// One way to serve a read, with its estimated cost.
struct Candidate {
    operation: Operation,
    fanout: u32,
    key_condition: String,
    filter: Option<String>,
    units: f64,
    items_read: f64,
    bytes_read: f64,
    reason: String,
}

pub fn plan(est: &Estimator<'_>, p: &AccessPattern) -> PatternPlan {
    let mut out = PatternPlan {
        name: p.name.clone(),
        kind: Kind::Read,
        rate: p.rate,
        mean_rate: load::mean_rate(p, est.secs),
        peak_rate: load::peak_rate(p),
        operation: None,
        index: None,
        fanout: 1,
        key_condition: None,
        filter: None,
        served: false,
        reason: String::new(),
        alternatives: Vec::new(),
        units_per_call: 0.0,
        items_read: None,
        bytes_read: None,
        writes: Vec::new(),
        write_amplification: None,
    };
    if let Some(attribute) = &p.contains {
        out.reason = format!(
            "contains({attribute}, word) looks for a word inside the text: no key condition can test that, and a Scan \
             with that filter would read the whole table on every call. Serve it with a search index fed by the same \
             writes (e.g. OpenSearch via {})",
            if est.cql { "Cassandra CDC" } else { "DynamoDB Streams" }
        );
        return out;
    }
    let places: Vec<Option<&Index>> =
        std::iter::once(None).chain(est.variant.indexes.iter().map(Some)).collect();
    let mut best: Option<(usize, Candidate)> = None;
    let mut verdicts: Vec<Result<Candidate, String>> = Vec::new();
    for (i, place) in places.iter().enumerate() {
        let verdict = candidate(est, p, *place);
        if let Ok(c) = &verdict {
            let better = best.as_ref().is_none_or(|(_, b)| (c.units, c.fanout) < (b.units, b.fanout));
            if better {
                best = Some((i, clone_candidate(c)));
            }
        }
        verdicts.push(verdict);
    }
    for (i, (place, verdict)) in places.iter().zip(verdicts).enumerate() {
        if best.as_ref().is_some_and(|(b, _)| *b == i) {
            continue;
        }
        let (serves, reason) = match verdict {
            Ok(c) => (
                true,
                format!(
                    "also serves it ({} ×{}, ~{} RCU per call), but costs more",
                    c.operation.name(),
                    c.fanout,
                    numbers::count(c.units)
                ),
            ),
            Err(why) => (false, why),
        };
        out.alternatives.push(Alternative { index: label(*place), serves, reason });
    }
    match best {
        Some((i, c)) => {
            out.operation = Some(c.operation);
            out.index = places[i].map(|ix| ix.name.clone());
            out.fanout = c.fanout;
            out.key_condition = Some(c.key_condition);
            out.filter = c.filter;
            out.served = true;
            out.reason = c.reason;
            out.units_per_call = c.units;
            out.items_read = Some(c.items_read);
            out.bytes_read = Some(c.bytes_read);
        }
        None => scan(est, p, &mut out),
    }
    out
}

fn clone_candidate(c: &Candidate) -> Candidate {
    Candidate {
        operation: c.operation,
        fanout: c.fanout,
        key_condition: c.key_condition.clone(),
        filter: c.filter.clone(),
        units: c.units,
        items_read: c.items_read,
        bytes_read: c.bytes_read,
        reason: c.reason.clone(),
    }
}

pub fn label(place: Option<&Index>) -> String {
    place.map_or_else(|| "table".to_owned(), |ix| format!("{} {}", ix.kind.short(), ix.name))
}

/// Read units for `requests` requests that together read `bytes`: each request is rounded up to
/// 4 KB on its own (a request that reads nothing still costs one unit's worth).
fn query_units(bytes: f64, requests: u32) -> f64 {
    let per = bytes / f64::from(requests.max(1));
    f64::from(requests.max(1)) * (per / READ_UNIT_BYTES).ceil().max(1.0) * EVENTUAL
}

/// The pattern's entities' templates in one place (table or index).
struct Located<'a> {
    templates: Vec<(&'a str, &'a Template, Option<&'a Template>)>,
    /// The equality a sparse index answers by holding only matching items.
    sparse_match: Option<&'a str>,
}

/// Whether `place` holds what the pattern reads: every entity, under one partition key, with
/// the attributes it needs, and (for a sparse index) only items the pattern asks for.
fn locate<'a>(
    est: &Estimator<'a>,
    p: &'a AccessPattern,
    place: Option<&'a Index>,
) -> Result<Located<'a>, String> {
    let variant = est.variant;
    let mut templates: Vec<(&str, &Template, Option<&Template>)> = Vec::new();
    for entity in p.entities() {
        let keys = match place {
            None => variant.keys_of(entity),
            Some(ix) => ix.keys_of(entity),
        };
        let Some(keys) = keys else {
            return Err(format!("{entity} items are not in it"));
        };
        templates.push((entity, &keys.pk, keys.sk.as_ref()));
    }
    let pk = templates[0].1;
    if let Some((other, other_pk, _)) = templates.iter().find(|(_, t, _)| t.source() != pk.source()) {
        return Err(format!(
            "{} and {other} have different partition keys there ({} vs {}), so one request cannot read both",
            p.entity,
            pk.source(),
            other_pk.source()
        ));
    }
    let Some(ix) = place else { return Ok(Located { templates, sparse_match: None }) };
    let mut sparse_match = None;
    if let Some((attribute, value)) = &ix.only_when {
        if !p.equals.iter().any(|(a, v)| a == attribute && v == value) {
            return Err(format!(
                "it only holds items where {attribute} = {value:?}; the pattern does not ask for that"
            ));
        }
        sparse_match = Some(attribute.as_str());
    }
    let needed: Vec<&str> = match &p.returns {
        Some(names) => names.iter().map(String::as_str).collect(),
        None => est.entity(&p.entity).attributes.iter().map(|a| a.name.as_str()).collect(),
    };
    let key_attrs: Vec<&str> = variant
        .keys_of(&p.entity)
        .into_iter()
        .chain(ix.keys_of(&p.entity))
        .flat_map(|k| k.pk.attributes().chain(k.sk.iter().flat_map(Template::attributes)))
        .collect();
    let missing: Vec<&str> =
        needed.into_iter().filter(|n| !key_attrs.contains(n) && !ix.projection.carries(n)).collect();
    if !missing.is_empty() && ix.kind == IndexKind::Global {
        return Err(format!(
            "it projects {} and the pattern needs {} (a GetItem per result would fetch the rest)",
            ix.projection,
            missing.join(", ")
        ));
    }
    Ok(Located { templates, sparse_match })
}

/// Known attributes the key does not use, and a range the key does not apply, become a filter.
fn filter(
    est: &Estimator<'_>,
    p: &AccessPattern,
    located: &Located<'_>,
    sort: &SortCondition,
) -> Option<String> {
    let (_, pk, sk) = located.templates[0];
    let used: Vec<&str> = pk.attributes().chain(sk.iter().flat_map(|s| s.attributes())).collect();
    let mut filters: Vec<String> = p
        .given
        .iter()
        .map(String::as_str)
        .chain(p.equals.iter().map(|(a, _)| a.as_str()))
        .filter(|a| !used.contains(a) && located.sparse_match != Some(*a))
        .map(|a| if est.cql { format!("{a} = ?") } else { format!("{a} = :{a}") })
        .collect();
    if let Some(range) = &p.range
        && !sort.range_by_key
        && !used.contains(&range.attribute.as_str())
    {
        match &range.span {
            RangeSpan::Last(_) => filters.push(format!("{} >= :from", range.attribute)),
            RangeSpan::BeginsWith(_) => filters.push(format!("begins_with({}, :prefix)", range.attribute)),
            RangeSpan::All => {}
        }
    }
    (!filters.is_empty()).then(|| filters.join(" AND "))
}

/// Items a Query call reads in total over its requests, before any filter.
fn query_items(
    est: &Estimator<'_>,
    p: &AccessPattern,
    place: Option<&Index>,
    located: &Located<'_>,
    reach: &keys::Reach,
    sort: &SortCondition,
) -> f64 {
    let fanout = f64::from(reach.fanout.max(1));
    let mut items = 0.0;
    for (entity, pk, sk) in &located.templates {
        let per_key = est.partition_items(entity, place, pk, Some(p));
        items += match (&p.range, sort.range_by_key, sk) {
            // The range's items arrive at the partition's rate; time buckets split them, shards
            // hold a slice each.
            (Some(r), true, _) => match r.span {
                RangeSpan::Last(d) => per_key.rate * d.as_secs_f64() * f64::from(reach.shards.max(1)),
                _ => per_key.items * fanout,
            },
            // A fully known index key: the items sharing that sort key value.
            (_, _, Some(sk)) if sort.exact => {
                per_key.items * est.spread(entity, place, sk, Some(p)).typical * fanout
            }
            _ => per_key.items * fanout,
        };
    }
    items
}

fn candidate(est: &Estimator<'_>, p: &AccessPattern, place: Option<&Index>) -> Result<Candidate, String> {
    let (pk_name, sk_name) = match place {
        None => (est.variant.table_pk.as_str(), est.variant.table_sk.as_deref()),
        Some(ix) => (ix.pk_attribute.as_str(), ix.sk_attribute.as_deref()),
    };
    let located = locate(est, p, place)?;
    let (_, pk, sk) = located.templates[0];
    let reach = keys::reach(p, pk, false, est.secs)?;
    let multi = located.templates.len() > 1;
    let sort = if multi {
        SortCondition { text: None, exact: false, range_by_key: false, ordered: false }
    } else {
        keys::sort_condition(p, sk, sk_name.unwrap_or("SK"), est.cql)
    };
    let sort = if sk.is_none() { SortCondition { exact: true, ..sort } } else { sort };
    let filter = filter(est, p, &located, &sort);
    let mut key_condition = keys::partition_condition(pk, pk_name, est.cql);
    if let Some(text) = &sort.text {
        key_condition = format!("{key_condition} AND {text}");
    }
    let entry_bytes = located.templates.iter().map(|(e, _, _)| est.entry_bytes(place, e)).fold(0.0, f64::max);
    // GetItem needs the table's full primary key; an index key is not unique, so even a fully
    // known index key is a Query.
    if sort.exact && !multi && place.is_none() {
        let keys = f64::from(reach.fanout);
        return Ok(Candidate {
            operation: if reach.fanout == 1 { Operation::GetItem } else { Operation::BatchGetItem },
            fanout: reach.fanout,
            key_condition,
            filter,
            // Each item is rounded up to 4 KB on its own.
            units: keys * (entry_bytes / READ_UNIT_BYTES).ceil().max(1.0) * EVENTUAL,
            items_read: keys,
            bytes_read: keys * entry_bytes,
            reason: if reach.fanout == 1 {
                "the full primary key is known: one item".to_owned()
            } else {
                format!("{} keys, one per {}", reach.fanout, reach.notes.join("; "))
            },
        });
    }
    let mut items = query_items(est, p, place, &located, &reach, &sort);
    if let Some(limit) = p.limit
        && sort.ordered
        && filter.is_none()
    {
        items = items.min(f64::from(limit) * f64::from(reach.fanout));
    }
    let mut units = query_units(items * entry_bytes, reach.fanout);
    let mut reason = describe(est, p, &located, &reach, &sort, items, entry_bytes);
    if let Some(ix) = place.filter(|ix| ix.kind == IndexKind::Local && ix.projection != Projection::All) {
        // An LSI fetches unprojected attributes from the table, each item rounded to 4 KB.
        units += items * (est.item_bytes(&p.entity) / READ_UNIT_BYTES).ceil().max(1.0) * EVENTUAL;
        let _ = write!(
            reason,
            "; {} projects {}: unprojected attributes are fetched from the table",
            ix.name, ix.projection
        );
    }
    Ok(Candidate {
        operation: Operation::Query,
        fanout: reach.fanout,
        key_condition,
        filter,
        units,
        items_read: items,
        bytes_read: items * entry_bytes,
        reason,
    })
}

/// Why a Query serves the pattern, and what one call reads.
fn describe(
    est: &Estimator<'_>,
    p: &AccessPattern,
    located: &Located<'_>,
    reach: &keys::Reach,
    sort: &SortCondition,
    items: f64,
    entry_bytes: f64,
) -> String {
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
    } else {
        "reads the whole partition".to_owned()
    };
    if !reach.notes.is_empty() {
        text = format!("×{}: {}; {text}", reach.fanout, reach.notes.join("; "));
    }
    let bytes = items * entry_bytes;
    let per_request = bytes / f64::from(reach.fanout.max(1));
    let _ = write!(text, "; ~{} items ({}) per call", numbers::count(items), numbers::bytes(bytes));
    if per_request > PAGE_BYTES && !est.cql {
        let _ =
            write!(text, ", {} pages of 1 MB per request", numbers::count((per_request / PAGE_BYTES).ceil()));
    }
    if p.order == Order::Desc && sort.ordered {
        text.push_str(if est.cql {
            ", newest first (ORDER BY … DESC)"
        } else {
            ", newest first (ScanIndexForward = false)"
        });
    }
    if p.range.is_some() && !sort.ordered && p.limit.is_some() {
        text.push_str(", unordered by the range attribute: the limit applies only after reading every match");
    }
    text
}

fn scan(est: &Estimator<'_>, p: &AccessPattern, out: &mut PatternPlan) {
    let mut items = 0.0;
    let mut bytes = 0.0;
    for keys in &est.variant.keys {
        let n = est.items_total(&keys.entity);
        items += n;
        bytes += n * est.item_bytes(&keys.entity);
    }
    let mut filters: Vec<String> = p
        .given
        .iter()
        .map(|a| format!("{a} = :{a}"))
        .chain(p.equals.iter().map(|(a, _)| format!("{a} = :{a}")))
        .collect();
    if let Some(range) = &p.range {
        match &range.span {
            RangeSpan::Last(_) => filters.push(format!("{} >= :from", range.attribute)),
            RangeSpan::BeginsWith(_) => filters.push(format!("begins_with({}, :prefix)", range.attribute)),
            RangeSpan::All => {}
        }
    }
    let why: Vec<String> = out.alternatives.iter().map(|a| format!("{}: {}", a.index, a.reason)).collect();
    out.operation = Some(Operation::Scan);
    out.filter = (!filters.is_empty()).then(|| filters.join(" AND "));
    out.units_per_call = query_units(bytes, 1);
    out.items_read = Some(items);
    out.bytes_read = Some(bytes);
    out.reason = format!(
        "no key serves it ({}); a Scan reads all ~{} items ({}) of the table per call, {} pages of 1 MB",
        why.join("; "),
        numbers::count(items),
        numbers::bytes(bytes),
        numbers::count((bytes / PAGE_BYTES).ceil().max(1.0))
    );
}

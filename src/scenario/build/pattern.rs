//! An access pattern's checks: the entity and attributes it names, its range, its rate and
//! shapes, the member its `keys` pick, and the values it compares with.

use super::{
    Result, attribute_of, distinct_keys, duration, entity_named, fixed_members, large, problem, producible,
    unwrap_sometimes,
};
use crate::engine::model::{self, AccessPattern, Action, AttrType, Condition, Entity, Generator, RangeSpan};
use crate::engine::planner::numbers;
use crate::engine::time::SimDuration;
use crate::engine::workload::RateShape;
use crate::scenario::file;
use crate::scenario::source_map::Path;

/// The largest rate (calls per second, at the shapes' peak). The replay simulates every call one
/// by one, so the rate sizes its work; a million calls a second is 25 times what one DynamoDB
/// table serves by default (AWS "Service, account, and table quotas": 40,000 read and 40,000
/// write request units a second per table), so no design a table can carry is refused.
pub(crate) const MAX_RATE: f64 = 1e6;

pub(super) fn pattern(
    path: &Path,
    p: &file::Pattern,
    entities: &[Entity],
    populations: &[model::Population],
) -> Result<AccessPattern> {
    let entity = entity_named(&path.field("entity"), entities, &p.entity)?;
    let action = match p.action {
        file::Action::Get => Action::Get,
        file::Action::List => Action::List,
        file::Action::Put => Action::Put,
        file::Action::Update => Action::Update,
        file::Action::Delete => Action::Delete,
    };
    let range = range(&path.field("range"), p, entity, action)?;
    inputs(path, p, entities, entity, action, populations)?;
    if p.limit == Some(0) {
        return Err(problem(&path.field("limit"), "a limit must be at least 1"));
    }
    if !(p.rate.is_finite() && p.rate >= 0.0) {
        return Err(problem(
            &path.field("rate"),
            format!("the rate is calls per second, a number ≥ 0; found {}", p.rate),
        ));
    }
    for (i, shape) in p.shape.iter().enumerate() {
        shape.validate().map_err(|e| problem(&path.field("shape").index(i), e.to_string()))?;
    }
    // Each shape multiplies the rate; at the peak, by its largest factor.
    let peak = p.rate
        * p.shape
            .iter()
            .map(|shape| match shape {
                RateShape::Constant => 1.0,
                RateShape::Diurnal { factor, .. } | RateShape::Spike { factor, .. } => factor.max(1.0),
            })
            .product::<f64>();
    if peak.is_nan() || peak > MAX_RATE {
        return Err(problem(
            &path.field("rate"),
            format!(
                "the rate is at most {} calls per second (at the shapes' peak): the replay simulates every \
                 call, and a DynamoDB table serves 40,000 request units a second by default; found {}",
                numbers::count(MAX_RATE),
                if p.shape.is_empty() {
                    large(p.rate)
                } else {
                    format!("{} × the shapes' peak = {}", large(p.rate), large(peak))
                }
            ),
        ));
    }
    if let Some(ms) = p.latency_ms
        && !(ms.is_finite() && ms > 0.0)
    {
        return Err(problem(&path.field("latency_ms"), "a latency target is a number of milliseconds > 0"));
    }
    if let Some(keys) = &p.keys {
        if p.given.is_empty() {
            return Err(problem(
                &path.field("keys"),
                "`keys` chooses among the given attribute's values, but the pattern gives none",
            ));
        }
        keys.validate().map_err(|e| problem(&path.field("keys"), e.to_string()))?;
        let first = entity.attribute(&p.given[0]).map(|a| unwrap_sometimes(&a.generator));
        if let Some(Generator::Pick(members) | Generator::New(members)) = first {
            let count = populations[members.id().index()].count;
            fixed_members(&path.field("keys"), keys, count, members.name())?;
        }
    }
    let condition = condition(&path.field("condition"), p, entity, action)?;
    let ttl = ttl(&path.field("ttl"), p, action)?;
    if p.transaction && action == Action::List {
        return Err(problem(
            &path.field("transaction"),
            "a TransactGetItems reads items by their full keys (Get actions only); a List is a Query, which no transaction can hold. Make it a Get, or drop `transaction`",
        ));
    }
    Ok(AccessPattern {
        name: p.name.clone(),
        description: p.description.clone(),
        action,
        entity: p.entity.clone(),
        with: p.with.clone(),
        given: p.given.clone(),
        equals: p.equals.iter().map(|(k, v)| (k.to_owned(), v.clone())).collect(),
        range,
        order: match p.order {
            file::Order::Asc => model::Order::Asc,
            file::Order::Desc => model::Order::Desc,
        },
        limit: p.limit,
        sets: p.sets.clone(),
        returns: p.returns.clone(),
        contains: p.contains.clone(),
        rate: p.rate,
        shapes: p.shape.clone(),
        keys: p.keys.clone(),
        latency_target_ms: p.latency_ms,
        guess: p.guess,
        condition,
        ttl,
        transaction: p.transaction,
        ids: model::PatternIds::unresolved(),
    })
}

/// A write's expiry, `ttl: "15m"`: a put or an update sets the item's TTL attribute to now +
/// the duration (whether the variant has one is checked with the variant). A read or a delete
/// writes no attribute, and an expiry of zero deletes the item as it is written.
fn ttl(path: &Path, p: &file::Pattern, action: Action) -> Result<Option<SimDuration>> {
    let Some(text) = &p.ttl else { return Ok(None) };
    if !matches!(action, Action::Put | Action::Update) {
        return Err(problem(
            path,
            format!(
                "a ttl sets the expiry a write gives its item: a put (the item lives that long) or an update (its expiry slides forward); a {action} pattern writes no attribute"
            ),
        ));
    }
    if text.trim_start().starts_with('-') {
        return Err(problem(
            path,
            format!(
                "a ttl is how long the item lives after this write, a duration > 0 such as \"15m\"; found {text:?}"
            ),
        ));
    }
    let lifetime = duration(path, text)?;
    if lifetime == SimDuration::ZERO {
        return Err(problem(path, "a ttl must be longer than 0s: the item would expire as it is written"));
    }
    Ok(Some(lifetime))
}

/// A write's condition: `NotExists` creates an item once (a put), `Version(attribute)` checks a
/// number the update itself increments (an update of an item the caller names).
fn condition(path: &Path, p: &file::Pattern, entity: &Entity, action: Action) -> Result<Option<Condition>> {
    let Some(c) = &p.condition else { return Ok(None) };
    match c {
        file::Condition::NotExists if action == Action::Put => Ok(Some(Condition::NotExists)),
        file::Condition::NotExists => Err(problem(
            path,
            format!(
                "NotExists makes a put create its item once (attribute_not_exists); a {action} pattern writes an item that is already there. For optimistic concurrency on an update use Version(\"attribute\")"
            ),
        )),
        file::Condition::Version(name) => {
            if action != Action::Update {
                return Err(problem(
                    path,
                    format!(
                        "Version(…) is a read-modify-write: an Update that checks the number it read; a {action} pattern has nothing to read first{}",
                        if action == Action::Put { ". To create an item once, use NotExists" } else { "" }
                    ),
                ));
            }
            let attribute = attribute_of(&path.index(0), entity, name)?;
            if !matches!(attribute.ty, AttrType::N) {
                return Err(problem(
                    &path.index(0),
                    format!("a version is a number the update adds 1 to, but {name} is {}", attribute.ty),
                ));
            }
            if p.sets.contains(name) || p.given.contains(name) {
                return Err(problem(
                    &path.index(0),
                    format!(
                        "{name} is the version: the update checks it and adds 1 itself, so it is neither given nor in `sets`"
                    ),
                ));
            }
            Ok(Some(Condition::Version(name.clone())))
        }
    }
}

/// A value a reading (or updating) caller gives must be one it can know and the replay can draw:
/// a lookup by a value no item holds would be a free call that finds nothing, and grade as
/// served.
fn known_to_callers(path: &Path, attribute: &model::Attribute, action: Action) -> Result<()> {
    let name = &attribute.name;
    let why = match unwrap_sometimes(&attribute.generator) {
        Generator::Payload(_) => format!(
            "{name} is a Payload, bytes drawn anew for every item: no caller knows one, so a {action} given it would never find its item"
        ),
        Generator::Nth(by) => format!(
            "{name} numbers each {by}'s items (Nth): the replay cannot tell which number a caller means, so a {action} given it would never find its item. Give {by} alone and read its items with a List, or give an attribute the caller knows"
        ),
        _ => return Ok(()),
    };
    Err(problem(path, why))
}

/// The attribute a pattern ranges over, and how far.
fn range(path: &Path, p: &file::Pattern, entity: &Entity, action: Action) -> Result<Option<model::Range>> {
    let Some(r) = &p.range else { return Ok(None) };
    if !action.is_read() {
        return Err(problem(
            path,
            format!("a {action} pattern writes one item; only Get and List read a range"),
        ));
    }
    let attribute = attribute_of(&path.field("attribute"), entity, &r.attribute)?;
    let span = match &r.span {
        file::Span::Last(text) => {
            if !matches!(attribute.ty, AttrType::Time) {
                return Err(problem(
                    &path.field("span"),
                    format!("Last(…) ranges over time, but {} is {}", attribute.name, attribute.ty),
                ));
            }
            let span = duration(&path.field("span").index(0), text)?;
            if span == SimDuration::ZERO {
                return Err(problem(
                    &path.field("span").index(0),
                    "Last(…) needs a span longer than 0s, like Last(\"24h\")",
                ));
            }
            RangeSpan::Last(span)
        }
        file::Span::BeginsWith(prefix) => {
            if !matches!(attribute.ty, AttrType::S) {
                let instead = if matches!(attribute.ty, AttrType::Time) {
                    "; for recent time use Last(\"30d\")"
                } else {
                    ""
                };
                return Err(problem(
                    &path.field("span"),
                    format!(
                        "BeginsWith(…) compares the start of a text, but {} is {} (not text){instead}",
                        attribute.name, attribute.ty
                    ),
                ));
            }
            RangeSpan::BeginsWith(prefix.clone())
        }
        file::Span::All => RangeSpan::All,
    };
    Ok(Some(model::Range { attribute: r.attribute.clone(), span }))
}

/// Every attribute a pattern names exists on its entity, where the action allows it.
fn inputs(
    path: &Path,
    p: &file::Pattern,
    entities: &[Entity],
    entity: &Entity,
    action: Action,
    populations: &[model::Population],
) -> Result<()> {
    for (i, other) in p.with.iter().enumerate() {
        entity_named(&path.field("with").index(i), entities, other)?;
        if action != Action::List {
            return Err(problem(
                &path.field("with"),
                "only a List pattern can read other entities with its own",
            ));
        }
    }
    for (i, name) in p.given.iter().enumerate() {
        let attribute = attribute_of(&path.field("given").index(i), entity, name)?;
        if action != Action::Put {
            known_to_callers(&path.field("given").index(i), attribute, action)?;
        }
    }
    distinct_keys(&path.field("equals"), &p.equals)?;
    for (name, value) in p.equals.iter() {
        let attribute = attribute_of(&path.field("equals").key(name), entity, name)?;
        producible(&path.field("equals").key(name), attribute, value, populations, "equals:")?;
    }
    if !p.sets.is_empty() && action != Action::Update {
        return Err(problem(&path.field("sets"), "only an Update pattern sets attributes"));
    }
    for (i, name) in p.sets.iter().enumerate() {
        attribute_of(&path.field("sets").index(i), entity, name)?;
    }
    if let Some(returns) = &p.returns {
        for (i, name) in returns.iter().enumerate() {
            attribute_of(&path.field("returns").index(i), entity, name)?;
        }
    }
    if let Some(name) = &p.contains {
        let attribute = attribute_of(&path.field("contains"), entity, name)?;
        if !matches!(attribute.ty, AttrType::S) {
            return Err(problem(
                &path.field("contains"),
                format!("contains(…) searches text, but {name} is {}", attribute.ty),
            ));
        }
        if p.given.contains(name) || p.equals.iter().any(|(a, _)| a == name) {
            return Err(problem(
                &path.field("contains"),
                format!(
                    "the pattern already knows all of {name}; contains(…) looks for a word inside a text it does not know"
                ),
            ));
        }
    }
    Ok(())
}

//! A variant's checks: key templates against the entities they key, the table's key schema,
//! indexes and their projections, TTL, denormalized copies and maintained aggregates.

use super::{
    Problem, Result, attribute_of, distinct_keys, duration, entity_named, listing, problem, producible,
    unique,
};
use crate::engine::model::{
    self, AccessPattern, AttrType, Attribute, Entity, EntityKeys, Generator, Index, IndexKind, Projection,
    Variant,
};
use crate::engine::planner::numbers;
use crate::engine::profile::Indexes;
use crate::engine::profile::cosmos::{self, MAX_CONTAINER_RU_PER_S, Throughput};
use crate::engine::profile::sharding;
use crate::engine::template::{ClassSlot, MAX_SHARDS, Part, Template};
use crate::engine::time::SimDuration;
use crate::scenario::file;
use crate::scenario::source_map::Path;

pub(super) struct Context<'a> {
    pub entities: &'a [Entity],
    pub populations: &'a [model::Population],
    pub patterns: &'a [AccessPattern],
    /// The workload's length: a read over every value of a time attribute spans it.
    pub duration: SimDuration,
    /// Cassandra: each entity is its own table, so sort keys need not agree across entities.
    pub cql: bool,
    /// The store the scenario is built for.
    pub engine: model::Engine,
}

/// The attributes an entity's items carry in a variant: its own, the copies landing on it and
/// the TTL attribute.
fn carried<'a>(entity: &'a Entity, v: &'a file::Variant) -> Vec<&'a str> {
    let mut names: Vec<&str> = entity.attributes.iter().map(|a| a.name.as_str()).collect();
    for copy in v.copies.iter().filter(|c| c.to == entity.name) {
        names.push(copy.as_name.as_deref().unwrap_or(&copy.attribute));
    }
    if let Some(ttl) = v.ttl.as_ref().filter(|t| t.entities.contains(&entity.name)) {
        names.push(&ttl.attribute);
    }
    names
}

/// What the writer of an unknown attribute probably meant, as `did you mean …? ` (empty when
/// nothing is close): the nearest names the items carry, or, for a name that reads as a time
/// bucket (`day`, `reading_time_month`), the slot that makes one from a Time attribute.
fn unknown_hint(name: &str, entity: &Entity, carried: &[&str]) -> String {
    let near = crate::scenario::suggest::nearest(name, carried.iter().copied());
    let lower = name.to_lowercase();
    let bucket = [
        ("day", "%Y-%m-%d"),
        ("date", "%Y-%m-%d"),
        ("month", "%Y-%m"),
        ("year", "%Y"),
        ("hour", "%Y-%m-%dT%H"),
        ("week", "%G-W%V"),
    ]
    .iter()
    .find(|(word, _)| lower.ends_with(word));
    let time = entity
        .attributes
        .iter()
        .find(|a| a.ty == AttrType::Time && (near.contains(&a.name.as_str()) || near.is_empty()))
        .or_else(|| entity.attributes.iter().find(|a| a.ty == AttrType::Time));
    let mut hint = String::new();
    if !near.is_empty() {
        hint = format!("{} ", crate::scenario::suggest::did_you_mean(&near));
    }
    if let (Some((word, format)), Some(time)) = (bucket, time) {
        hint = format!("{hint}a {word} bucket is written {{{}:{format}}}; ", time.name);
    }
    hint
}

/// Byte offsets of each slot's `{` in a parsed template's text, in order (`{{` and `}}` are
/// literal braces, not slots).
fn slot_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'{', Some(b'{')) | (b'}', Some(b'}')) => i += 2,
            (b'{', _) => {
                starts.push(i);
                i += text[i..].find('}').map_or(text.len() - i, |n| n + 1);
            }
            _ => i += 1,
        }
    }
    starts
}

fn template(
    path: &Path,
    text: &str,
    entity: &Entity,
    carried: &[&str],
    cx: &Context<'_>,
) -> Result<Template> {
    if let Some(offset) = text.find(cosmos::LEVEL_SEPARATOR) {
        return Err(Problem {
            path: path.clone(),
            offset: Some(offset),
            message: format!(
                "bad key template {text:?}: the control character U+001F is keyheat's separator of a key's levels; write the levels as a list, pk: [\"…\", \"…\"]"
            ),
        });
    }
    let parsed = Template::parse(text).map_err(|e| Problem {
        path: path.clone(),
        offset: Some(e.offset),
        message: format!("bad key template {text:?}: {}, at byte {} of the template", e.message, e.offset),
    })?;
    let starts = slot_starts(text);
    let slots = parsed.parts().iter().filter(|part| !matches!(part, Part::Literal(_)));
    for (slot, part) in slots.enumerate() {
        let (name, needs_time) = match part {
            Part::Class(class) => {
                class_slot(path, text, starts.get(slot).copied().unwrap_or(0), class, (entity, carried, cx))?;
                match &class.other {
                    Part::Bucket { name, .. } => (name, true),
                    _ => continue,
                }
            }
            Part::Attr { name, .. } | Part::Hash { name, .. } => (name, false),
            Part::Time { name, .. } | Part::Bucket { name, .. } => (name, true),
            Part::Literal(_) | Part::Shard { .. } => continue,
        };
        // Point at the name inside its own slot, not at the same text earlier in the template.
        let start = starts.get(slot).copied().unwrap_or(0);
        let offset = text[start..].find(name.as_str()).map_or(start, |n| start + n);
        let at = |message: String| Problem { path: path.clone(), offset: Some(offset), message };
        if !carried.contains(&name.as_str()) {
            return Err(at(format!(
                "unknown attribute {name:?} in key template {text:?}; {}{} items carry: {}",
                unknown_hint(name, entity, carried),
                entity.name,
                listing(carried.iter().copied())
            )));
        }
        let attribute = entity.attribute(name);
        if needs_time
            && let Some(attribute) = attribute
            && !holds_time(attribute)
        {
            return Err(at(format!(
                "{name} is {} but a time format or bucket needs a Time attribute (epoch seconds){}",
                attribute.ty,
                if attribute.ty == AttrType::N { ", or an N written as Now" } else { "" }
            )));
        }
        if let Part::Attr { pad: Some(width), .. } = part
            && let Some(attribute) = attribute
            && !matches!(attribute.ty, AttrType::N | AttrType::Time)
        {
            return Err(at(format!(
                "{{{name}:0{width}}} zero-pads a number so it sorts as text, but {name} is {}; write {{{name}}}",
                attribute.ty
            )));
        }
    }
    Ok(parsed)
}

/// Whether an attribute holds epoch seconds, which a time format or bucket reads: a Time, or an
/// N whose items are written with the write's time (a number drawn from a distribution, a
/// temperature, is no time, and bucketing it by days would key items by nonsense).
fn holds_time(attribute: &Attribute) -> bool {
    fn timed(generator: &Generator) -> bool {
        match generator {
            Generator::Now | Generator::NowPlus(_) => true,
            Generator::Sometimes(_, inner) => timed(inner),
            _ => false,
        }
    }
    attribute.ty == AttrType::Time || (attribute.ty == AttrType::N && timed(&attribute.generator))
}

/// A class slot chooses where a class's items live: how many partitions its writes spread over,
/// how long a partition holds its items. In a sort key it would choose neither — the items stay
/// in their partition, only their order changes — so it is an error there, at the slot.
fn no_class_slot(path: &Path, text: &str, sk: &Template) -> Result<()> {
    if sk.class_slot().is_none() {
        return Ok(());
    }
    let at = text.find("by:").and_then(|by| text[..by].rfind('{')).unwrap_or(0);
    Err(Problem {
        path: path.clone(),
        offset: Some(at),
        message: format!(
            "a class slot in the sort key {text:?} spreads nothing: a class's shard count or bucket width chooses its partitions, so it goes in the partition key (pk)"
        ),
    })
}

/// A class slot's class attribute is one the items carry, and every value it lists is one the
/// attribute's generator writes: a listed value no item holds would be a layout nothing uses.
fn class_slot(
    path: &Path,
    text: &str,
    start: usize,
    class: &ClassSlot,
    (entity, carried, cx): (&Entity, &[&str], &Context<'_>),
) -> Result<()> {
    let after = |from: usize, needle: &str| text[from..].find(needle).map_or(from, |n| from + n);
    let by_at = after(after(start, "by"), class.by.as_str());
    if !carried.contains(&class.by.as_str()) {
        return Err(Problem {
            path: path.clone(),
            offset: Some(by_at),
            message: format!(
                "unknown class attribute {:?} in key template {text:?}; {}{} items carry: {}",
                class.by,
                unknown_hint(&class.by, entity, carried),
                entity.name,
                listing(carried.iter().copied())
            ),
        });
    }
    let Some(attribute) = entity.attribute(&class.by) else { return Ok(()) };
    let mut from = by_at;
    for (value, _) in &class.cases {
        let at = after(from, value);
        from = at;
        producible(path, attribute, value, cx.populations, "class value:").map_err(|e| Problem {
            path: path.clone(),
            offset: Some(at),
            ..e
        })?;
        // A member past the population's count exists only if the population grows.
        let member = match &attribute.generator {
            model::Generator::Pick(members) | model::Generator::New(members) => Some(members.id()),
            _ => None,
        };
        if let Some(id) = member
            && let pop = &cx.populations[id.index()]
            && model::parse_id(&pop.id_format, value).is_some_and(|i| i >= pop.count)
            && pop.growth_per_day <= 0.0
            && !cx
                .entities
                .iter()
                .flat_map(|e| &e.attributes)
                .any(|a| matches!(&a.generator, model::Generator::New(n) if n.id() == id))
        {
            return Err(Problem {
                path: path.clone(),
                offset: Some(at),
                message: format!(
                    "class value: {} = {value:?} is no member of {}, which has {} ({} … {}) and does not grow",
                    class.by,
                    pop.name,
                    pop.count,
                    pop.id(0),
                    pop.id(pop.count.saturating_sub(1))
                ),
            });
        }
    }
    Ok(())
}

/// A reader ranging over a time attribute asks every partition its time slot takes over the
/// range — `bucket(attr, width)` windows or calendar texts (`{attr:%Y-%m-%d}`) in the last `d`,
/// or over the whole workload for `All` — times the template's shards. Bounded like a template's
/// spread ([`MAX_SHARDS`] requests a call): the replay simulates each request of each call.
fn bucket_fanout(path: &Path, text: &str, pk: &Template, entity: &Entity, cx: &Context<'_>) -> Result<()> {
    let starts = slot_starts(text);
    let slots = pk.parts().iter().filter(|part| !matches!(part, Part::Literal(_)));
    // A class bucket's reader asks its own class's buckets: each width is bounded alike.
    let cases = slots.enumerate().flat_map(|(slot, part)| match part {
        Part::Class(class) => class.parts().map(|case| (slot, case)).collect::<Vec<_>>(),
        part => vec![(slot, part)],
    });
    for (slot, part) in cases {
        let (Part::Bucket { name, .. } | Part::Time { name, .. }) = part else { continue };
        for p in cx.patterns.iter().filter(|p| p.entity == entity.name && p.action.is_read()) {
            let Some(range) = p.range.as_ref().filter(|r| &r.attribute == name && !p.knows(name)) else {
                continue;
            };
            let (span, over) = match &range.span {
                model::RangeSpan::Last(span) => (*span, format!("the last {span} of {name}")),
                model::RangeSpan::All => (cx.duration, format!("{name} over the workload's {}", cx.duration)),
                model::RangeSpan::BeginsWith(_) => continue,
            };
            let limit = u64::from(MAX_SHARDS);
            let (buckets, unit) = match part {
                Part::Bucket { width, .. } => (
                    Some(span.as_millis().div_ceil(width.as_millis().max(1)).saturating_add(1)),
                    format!("buckets of {width}"),
                ),
                // `None`: more texts than the limit (the count stops there).
                Part::Time { format, .. } => (
                    format
                        .values_between(
                            0,
                            i128::from(span.as_millis()),
                            usize::try_from(limit).unwrap_or(usize::MAX),
                        )
                        .map(|values| values.len() as u64),
                    format!("the texts of {:?}", format.source()),
                ),
                _ => continue,
            };
            let requests = buckets.map_or(u64::MAX, |b| b.saturating_mul(u64::from(pk.fanout())));
            if requests > limit {
                let shown = buckets.map_or_else(
                    || format!("more than {}", numbers::count(limit as f64)),
                    |b| numbers::count(b as f64),
                );
                return Err(Problem {
                    path: path.clone(),
                    offset: Some(starts.get(slot).copied().unwrap_or(0)),
                    message: format!(
                        "pattern {:?} reads {over}: {unit} make that {shown} partitions{} a call, and a read \
                         may ask at most {} (one request each); widen the bucket or shorten the range",
                        p.name,
                        if pk.fanout() > 1 { format!(" × {} shards", pk.fanout()) } else { String::new() },
                        numbers::count(limit as f64),
                    ),
                });
            }
        }
    }
    Ok(())
}

/// One entity's templates from a `keys: {…}` map; `pk` is `None` only for a local index.
struct Templates {
    entity: String,
    pk: Option<Template>,
    sk: Option<Template>,
}

fn keys_map(
    path: &Path,
    map: &file::Entries<file::Keys>,
    v: &file::Variant,
    cx: &Context<'_>,
    needs_pk: bool,
) -> Result<Vec<Templates>> {
    distinct_keys(path, map)?;
    let mut out = Vec::new();
    for (name, keys) in map.iter() {
        let kpath = path.key(name);
        let entity = entity_named(&kpath, cx.entities, name)?;
        let carried = carried(entity, v);
        let pk = match (&keys.pk, needs_pk) {
            (Some(file::PartitionKey::One(text)), true) => {
                let pk = template(&kpath.field("pk"), text, entity, &carried, cx)?;
                bucket_fanout(&kpath.field("pk"), text, &pk, entity, cx)?;
                Some(pk)
            }
            (Some(file::PartitionKey::Levels(levels)), true) => {
                Some(levels_key(&kpath.field("pk"), levels, entity, &carried, cx)?)
            }
            (None, true) => {
                return Err(problem(&kpath, format!("{name} needs a partition key template: pk: \"…\"")));
            }
            (Some(_), false) => {
                return Err(problem(
                    &kpath.field("pk"),
                    "a local secondary index shares the table's partition key; give only sk",
                ));
            }
            (None, false) => None,
        };
        let sk = match &keys.sk {
            Some(text) => {
                let sk = template(&kpath.field("sk"), text, entity, &carried, cx)?;
                no_class_slot(&kpath.field("sk"), text, &sk)?;
                Some(sk)
            }
            None => None,
        };
        out.push(Templates { entity: name.to_owned(), pk, sk });
    }
    Ok(out)
}

/// A hierarchical partition key's levels (`pk: ["{tenant_id}", "{user_id}"]`), each a template
/// checked as any key template is, on a store whose partition key has levels (Cosmos DB: up to
/// three, "Hierarchical partition keys in Azure Cosmos DB"). One level is a plain key.
fn levels_key(
    path: &Path,
    levels: &[String],
    entity: &Entity,
    carried: &[&str],
    cx: &Context<'_>,
) -> Result<Template> {
    let most = cx.engine.profile().key_levels;
    if most < 2 {
        return Err(problem(
            path,
            format!(
                "a partition key of levels (a hierarchical partition key) is Cosmos DB's: the {} profile's partition key is one value. Write one template that joins the values, pk: \"{}\", or replay on Cosmos DB",
                cx.engine,
                levels.join("#")
            ),
        ));
    }
    if levels.is_empty() || levels.len() > most {
        return Err(problem(
            &if levels.is_empty() { path.clone() } else { path.index(most) },
            format!(
                "a hierarchical partition key has 1 to {most} levels (\"Hierarchical partition keys in Azure Cosmos DB\"); found {}",
                levels.len()
            ),
        ));
    }
    let templates = levels
        .iter()
        .enumerate()
        .map(|(i, text)| template(&path.index(i), text, entity, carried, cx))
        .collect::<Result<Vec<_>>>()?;
    if let [one] = templates.as_slice() {
        bucket_fanout(path, &levels[0], one, entity, cx)?;
        return Ok(one.clone());
    }
    let key = Template::levels(&templates);
    // The reads' fan-out is counted over every level at once.
    bucket_fanout(path, key.source(), &key, entity, cx)?;
    Ok(key)
}

/// Every entity of a container gives its partition key the same number of levels: a container
/// has one partition key definition, its paths.
fn same_levels(path: &Path, keys: &[EntityKeys]) -> Result<()> {
    let Some(first) = keys.first() else { return Ok(()) };
    let levels = first.pk.level_count();
    match keys.iter().find(|k| k.pk.level_count() != levels) {
        None => Ok(()),
        Some(other) => Err(problem(
            &path.key(&other.entity).field("pk"),
            format!(
                "{}'s partition key has {} level(s) and {}'s {levels}: the entities of a container share its partition key definition, so give each the same number of levels",
                other.entity,
                other.pk.level_count(),
                first.entity
            ),
        )),
    }
}

pub(super) fn variant(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<Variant> {
    let embeds = embeds(path, v, cx)?;
    let (keys, pk_name, sk_name) = table_keys(path, v, cx, &embeds)?;
    embed_keys(path, v, &embeds, &keys)?;
    unique(&path.field("indexes"), "index", v.indexes.iter().map(|i| i.name.as_str()).enumerate())?;
    let indexes = indexes(path, v, cx, &keys, &pk_name, sk_name.is_some())?;
    list_names(
        path,
        v,
        &embeds,
        [&pk_name]
            .into_iter()
            .chain(&sk_name)
            .chain(indexes.iter().flat_map(|i| std::iter::once(&i.pk_attribute).chain(&i.sk_attribute))),
    )?;
    transactions(path, v, cx)?;
    multikey(path, v, cx, &embeds, &indexes)?;
    let variant = Variant {
        name: v.name.clone(),
        description: v.description.clone(),
        capacity: capacity(path, v)?,
        throughput: throughput(path, v)?,
        table_pk: pk_name,
        table_sk: sk_name,
        aggregates: aggregates(path, v, cx, &keys)?,
        keys,
        indexes,
        ttl: ttl(path, v, cx)?,
        copies: copies(path, v, cx)?,
        embeds,
        cache: super::cache::cache(path, v, cx)?,
        sharding: sharding(path, v, cx)?,
    };
    added_names(path, &variant)?;
    // Every name the variant uses is checked: resolve them to ids, once.
    let mut variant = variant;
    variant.resolve(cx.entities, cx.patterns);
    Ok(variant)
}

/// The attributes a variant adds to an entity's items — its TTL attribute, the copies onto it,
/// the lists embedded in it — each need a name of their own: an item holds one attribute per
/// name, so a second one would overwrite the first (a copy named like the TTL attribute would
/// set the expiry). Nor may a copy take a key attribute's name (a list is checked in
/// `list_names`).
fn added_names(path: &Path, v: &Variant) -> Result<()> {
    let keys: Vec<&String> = std::iter::once(&v.table_pk)
        .chain(&v.table_sk)
        .chain(v.indexes.iter().flat_map(|i| std::iter::once(&i.pk_attribute).chain(&i.sk_attribute)))
        .collect();
    // (entity, name, what, where), in the order a reader meets them in the file.
    let mut added: Vec<(&str, &str, &str, Path)> = Vec::new();
    if let Some(ttl) = &v.ttl {
        for entity in &ttl.entities {
            if !added.iter().any(|(e, ..)| e == entity) {
                added.push((entity, &ttl.attribute, "TTL attribute", path.field("ttl").field("attribute")));
            }
        }
    }
    for (i, c) in v.copies.iter().enumerate() {
        let at = path.field("copies").index(i);
        if keys.contains(&&c.as_name) {
            return Err(problem(
                &at,
                format!("{:?} is a key attribute of this variant; name the copy with as: \"…\"", c.as_name),
            ));
        }
        added.push((&c.to, &c.as_name, "copy", at));
    }
    for (i, e) in v.embeds.iter().enumerate() {
        added.push((&e.into, &e.as_name, "list", path.field("embeds").index(i)));
    }
    for (i, (entity, name, what, at)) in added.iter().enumerate() {
        if let Some((_, _, first, _)) = added[..i].iter().find(|(e, n, _, _)| e == entity && n == name) {
            return Err(problem(
                at,
                format!(
                    "this {what} adds {name:?} to {entity} items, which the variant's {first} already adds; an item \
                     holds one attribute per name, so name the {what} with as: \"…\""
                ),
            ));
        }
    }
    Ok(())
}

/// The table's key templates per entity, and its key attribute names.
fn table_keys(
    path: &Path,
    v: &file::Variant,
    cx: &Context<'_>,
    embeds: &[model::Embed],
) -> Result<(Vec<EntityKeys>, String, Option<String>)> {
    let entity_names = || listing(cx.entities.iter().map(|e| e.name.as_str()));
    let table = keys_map(&path.field("keys"), &v.keys, v, cx, true)?;
    let with_sk = table.iter().filter(|t| t.sk.is_some()).count();
    if with_sk != 0 && with_sk != table.len() && !cx.cql {
        let without = table.iter().find(|t| t.sk.is_none()).expect("some entity lacks a sort key");
        return Err(problem(
            &path.field("keys").key(&without.entity),
            format!(
                "{} has no sort key template, but other entities in this table do; a table either has a sort key or not, so give it one (e.g. sk: \"{}\")",
                without.entity,
                without.entity.to_uppercase()
            ),
        ));
    }
    let table_has_sk = with_sk > 0;
    let keys: Vec<EntityKeys> = table
        .into_iter()
        .map(|t| EntityKeys::new(t.entity, t.pk.expect("table keys always have a pk"), t.sk))
        .collect();
    same_levels(&path.field("keys"), &keys)?;
    for (i, pattern) in cx.patterns.iter().enumerate() {
        for entity in pattern.entities() {
            // (A whole child given keys anyway is told to drop them, by `embed_keys`.)
            let whole = embeds.iter().find(|e| e.entity == entity && e.keep_latest.is_none());
            if let Some(embed) = whole.filter(|_| !keys.iter().any(|k| k.entity == entity)) {
                // A child embedded whole is read with its parent and written into it.
                let with_parent = pattern.entity == embed.into && pattern.with.iter().any(|w| w == entity);
                let put = pattern.entity == entity && pattern.action == model::Action::Put;
                // A read of the children alone, through a multikey index on their list (MongoDB;
                // `multikey` checks the index and that the read gives its key).
                let indexed = pattern.entity == entity
                    && pattern.action.is_read()
                    && pattern.with.is_empty()
                    && v.indexes.iter().any(|ix| ix.keys.iter().any(|(name, _)| name == entity));
                if with_parent || put || indexed {
                    continue;
                }
                return Err(problem(
                    &path.field("embeds"),
                    format!(
                        "pattern {:?} (patterns[{i}]) {} {entity}, which variant {:?} embeds whole in {}: its items exist only inside their {} item, so they can be put (appended) or read with it (entity: {:?}, with: [{entity:?}]); keep them as items too with keep_latest: Some(N)",
                        pattern.name,
                        if pattern.action.is_read() { "reads" } else { "changes" },
                        v.name,
                        embed.into,
                        embed.into,
                        embed.into,
                    ),
                ));
            }
            let subset = embeds.iter().any(|e| e.entity == entity && e.keep_latest.is_some());
            if !keys.iter().any(|k| k.entity == entity) && !subset {
                return Err(problem(
                    &path.field("keys"),
                    format!(
                        "pattern {:?} (patterns[{i}]) uses {entity}, which has no keys in variant {:?}; the entities are: {}",
                        pattern.name,
                        v.name,
                        entity_names()
                    ),
                ));
            }
        }
    }
    let (pk_name, sk_name) = match &v.table {
        Some(t) => (t.pk.clone(), t.sk.clone()),
        None => ("PK".to_owned(), table_has_sk.then(|| "SK".to_owned())),
    };
    if sk_name.is_some() != table_has_sk && !cx.cql {
        return Err(problem(
            &path.field("table"),
            if table_has_sk {
                "the entities have sort key templates, so the table needs a sort key attribute (sk: \"SK\")"
            } else {
                "the table names a sort key attribute, but no entity has a sort key template"
            },
        ));
    }
    Ok((keys, pk_name, sk_name))
}

fn indexes(
    path: &Path,
    v: &file::Variant,
    cx: &Context<'_>,
    keys: &[EntityKeys],
    table_pk: &str,
    table_has_sk: bool,
) -> Result<Vec<Index>> {
    let mut indexes = Vec::new();
    let (mut globals, mut locals) = (0, 0);
    for (i, ix) in v.indexes.iter().enumerate() {
        let ipath = path.field("indexes").index(i);
        if cx.engine.profile().indexes == Indexes::Automatic {
            return Err(problem(
                &ipath,
                format!(
                    "{} has no secondary indexes: it indexes every property of every item itself, and a read by {:?} that does not give the partition key is a query across every physical partition. keyheat does not yet replay that query in place of index {:?}: drop `indexes` from variant {:?} to replay it on {}",
                    cx.engine,
                    ix.pk_attribute.as_deref().unwrap_or(&ix.name),
                    ix.name,
                    v.name,
                    cx.engine
                ),
            ));
        }
        let kind = match ix.kind {
            file::IndexKind::Global => IndexKind::Global,
            file::IndexKind::Local => IndexKind::Local,
        };
        if ix.keys.is_empty() {
            return Err(problem(
                &ipath.field("keys"),
                "an index needs key templates for at least one entity",
            ));
        }
        let templates = keys_map(&ipath.field("keys"), &ix.keys, v, cx, kind == IndexKind::Global)?;
        let mut entries = Vec::with_capacity(templates.len());
        let (pk_attribute, sk_default) = match kind {
            IndexKind::Global => {
                globals += 1;
                entries.extend(templates.into_iter().map(|t| {
                    EntityKeys::new(t.entity, t.pk.expect("global index keys always have a pk"), t.sk)
                }));
                (
                    ix.pk_attribute.clone().unwrap_or_else(|| format!("GSI{globals}PK")),
                    format!("GSI{globals}SK"),
                )
            }
            IndexKind::Local => {
                locals += 1;
                if !table_has_sk {
                    return Err(problem(
                        &ipath.field("kind"),
                        "a local secondary index needs a table with a sort key",
                    ));
                }
                if ix.pk_attribute.is_some() {
                    return Err(problem(
                        &ipath.field("pk_attribute"),
                        "a local secondary index uses the table's partition key attribute",
                    ));
                }
                for t in templates {
                    let Some(table_keys) = keys.iter().find(|k| k.entity == t.entity) else {
                        return Err(problem(
                            &ipath.field("keys").key(&t.entity),
                            format!(
                                "{} has no table keys in this variant, so it cannot be in a local index",
                                t.entity
                            ),
                        ));
                    };
                    if t.sk.is_none() {
                        return Err(problem(
                            &ipath.field("keys").key(&t.entity),
                            "a local secondary index needs sk: \"…\"",
                        ));
                    }
                    entries.push(EntityKeys::new(t.entity, table_keys.pk.clone(), t.sk));
                }
                (table_pk.to_owned(), format!("LSI{locals}SK"))
            }
        };
        let with_sk = entries.iter().filter(|e| e.sk.is_some()).count();
        if with_sk != 0 && with_sk != entries.len() {
            return Err(problem(
                &ipath.field("keys"),
                "either every entity in an index has a sort key template or none does",
            ));
        }
        if cx.cql {
            super::views::check(&ipath.field("keys"), &ix.name, &entries, keys)?;
        }
        let sk_attribute = (with_sk > 0).then(|| ix.sk_attribute.clone().unwrap_or(sk_default));
        let projection = projection(&ipath, ix, v, cx, &entries)?;
        indexes.push(Index {
            name: ix.name.clone(),
            kind,
            pk_attribute,
            sk_attribute,
            keys: entries,
            projection,
            only_when: ix.only_when.clone(),
            ids: model::IndexIds::default(),
        });
    }
    Ok(indexes)
}

/// An index's projection, checked against its entities; and its sparse condition's attribute.
fn projection(
    ipath: &Path,
    ix: &file::Index,
    v: &file::Variant,
    cx: &Context<'_>,
    entries: &[EntityKeys],
) -> Result<Projection> {
    let index_entities: Vec<&Entity> =
        entries.iter().filter_map(|e| cx.entities.iter().find(|x| x.name == e.entity)).collect();
    let projection = match &ix.projection {
        file::Projection::KeysOnly => Projection::KeysOnly,
        file::Projection::All => Projection::All,
        file::Projection::Include(names) => {
            for (j, name) in names.iter().enumerate() {
                let list = v.embeds.iter().any(|x| {
                    x.as_name.clone().unwrap_or_else(|| format!("{}s", x.entity.to_lowercase())) == *name
                        && index_entities.iter().any(|e| e.name == x.into)
                });
                if !list && !index_entities.iter().any(|e| carried(e, v).contains(&name.as_str())) {
                    return Err(problem(
                        &ipath.field("projection").index(0).index(j),
                        format!("no entity in index {:?} has an attribute {name:?}", ix.name),
                    ));
                }
            }
            Projection::Include(names.clone())
        }
    };
    if let Some((attribute, value)) = &ix.only_when {
        if let Some(entity) = index_entities.iter().find(|e| e.attribute(attribute).is_none()) {
            return Err(problem(
                &ipath.field("only_when").index(0),
                format!("{} has no attribute {attribute:?}", entity.name),
            ));
        }
        for entity in &index_entities {
            if let Some(a) = entity.attribute(attribute) {
                producible(&ipath.field("only_when").index(1), a, value, cx.populations, "only_when:")?;
            }
        }
    }
    Ok(projection)
}

fn ttl(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<Option<model::Ttl>> {
    // A pattern's `ttl` writes the variant's TTL attribute: without one there is nothing to set
    // and nothing DynamoDB would delete.
    for (i, p) in cx.patterns.iter().enumerate().filter(|(_, p)| p.ttl.is_some()) {
        if !v.ttl.as_ref().is_some_and(|t| t.entities.contains(&p.entity)) {
            return Err(problem(
                &if v.ttl.is_some() { path.field("ttl").field("entities") } else { path.clone() },
                format!(
                    "pattern {:?} (patterns[{i}]) sets the expiry of {} items (ttl: {:?}), but variant {:?} has no TTL attribute for {}; add ttl: (attribute: \"expires_at\", lifetime: \"…\", entities: [{:?}])",
                    p.name,
                    p.entity,
                    p.ttl.map(|d| d.to_string()).unwrap_or_default(),
                    v.name,
                    p.entity,
                    p.entity,
                ),
            ));
        }
    }
    Ok(match &v.ttl {
        None => None,
        Some(t) => {
            let tpath = path.field("ttl");
            for (i, name) in t.entities.iter().enumerate() {
                let entity = entity_named(&tpath.field("entities").index(i), cx.entities, name)?;
                if entity.attribute(&t.attribute).is_some() {
                    return Err(problem(
                        &tpath.field("attribute"),
                        format!(
                            "{name} already has an attribute {:?}; the TTL attribute is set by the variant",
                            t.attribute
                        ),
                    ));
                }
            }
            let lifetime = duration(&tpath.field("lifetime"), &t.lifetime)?;
            if lifetime == crate::engine::time::SimDuration::ZERO {
                return Err(problem(
                    &tpath.field("lifetime"),
                    "a TTL lifetime must be longer than 0s: items would expire as they are written",
                ));
            }
            Some(model::Ttl {
                attribute: t.attribute.clone(),
                lifetime,
                entities: t.entities.clone(),
                ids: model::TtlIds::default(),
            })
        }
    })
}

/// An attribute a variant adds to an entity's items (a copy, an embedded list) needs a name the
/// entity does not use.
fn free_name(path: &Path, entity: &Entity, name: &str, what: &str) -> Result<()> {
    if entity.attribute(name).is_some() {
        return Err(problem(
            path,
            format!("{} already has an attribute {name:?}; name the {what} with as: \"…\"", entity.name),
        ));
    }
    Ok(())
}

/// A transactional write holds its own item and the aggregate items it maintains: a bounded,
/// known set of items. A copy rewritten onto every referring item, or a child appended to its
/// parent as well as written (a subset embed), is a fan-out no transaction of at most 100
/// actions can promise to hold (AWS developer guide, "Amazon DynamoDB Transactions: How it
/// works").
fn transactions(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<()> {
    for (i, p) in cx.patterns.iter().enumerate().filter(|(_, p)| p.transaction && !p.action.is_read()) {
        let copied = v.copies.iter().find(|c| c.from == p.entity && p.sets.contains(&c.attribute));
        let embedded = v
            .embeds
            .iter()
            .find(|e| e.entity == p.entity && e.keep_latest.is_some() && p.action == model::Action::Put);
        let why = match (copied, embedded) {
            (Some(c), _) => format!(
                "variant {:?} copies {}.{} onto every {} item that refers to it, a fan-out a transaction cannot hold",
                v.name, c.from, c.attribute, c.to
            ),
            (None, Some(e)) => format!(
                "variant {:?} also appends each {} to its {} item (keep_latest), a second write outside the transaction's own items",
                v.name, e.entity, e.into
            ),
            (None, None) => continue,
        };
        return Err(problem(
            path,
            format!(
                "pattern {:?} (patterns[{i}]) is a transaction: its own item and the aggregates it maintains; {why}. Drop `transaction` from the pattern, or the copy or embed from the variant",
                p.name
            ),
        ));
    }
    Ok(())
}

fn copies(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<Vec<model::Copy>> {
    let mut copies = Vec::new();
    for (i, c) in v.copies.iter().enumerate() {
        let cpath = path.field("copies").index(i);
        let from = entity_named(&cpath.field("from"), cx.entities, &c.from)?;
        let to = entity_named(&cpath.field("to"), cx.entities, &c.to)?;
        attribute_of(&cpath.field("attribute"), from, &c.attribute)?;
        attribute_of(&cpath.field("by"), from, &c.by)?;
        attribute_of(&cpath.field("by"), to, &c.by)?;
        let as_name = c.as_name.clone().unwrap_or_else(|| c.attribute.clone());
        free_name(&cpath, to, &as_name, "copy")?;
        copies.push(model::Copy {
            from: c.from.clone(),
            attribute: c.attribute.clone(),
            to: c.to.clone(),
            as_name,
            by: c.by.clone(),
            ids: model::CopyIds::unresolved(),
        });
    }
    Ok(copies)
}

fn aggregates(
    path: &Path,
    v: &file::Variant,
    cx: &Context<'_>,
    keys: &[EntityKeys],
) -> Result<Vec<model::Aggregate>> {
    let mut aggregates = Vec::new();
    for (i, a) in v.aggregates.iter().enumerate() {
        let apath = path.field("aggregates").index(i);
        let entity = entity_named(&apath.field("entity"), cx.entities, &a.entity)?;
        attribute_of(&apath.field("attribute"), entity, &a.attribute)?;
        let Some(entity_keys) = keys.iter().find(|k| k.entity == a.entity) else {
            return Err(problem(
                &apath.field("entity"),
                format!("{} needs table keys in this variant to hold the aggregate", a.entity),
            ));
        };
        for (j, name) in a.on.iter().enumerate() {
            let opath = apath.field("on").index(j);
            let Some(trigger) = cx.patterns.iter().find(|p| &p.name == name) else {
                return Err(problem(
                    &opath,
                    format!(
                        "unknown pattern {name:?}; the patterns are: {}",
                        listing(cx.patterns.iter().map(|p| p.name.as_str()))
                    ),
                ));
            };
            if trigger.action.is_read() {
                return Err(problem(
                    &opath,
                    format!("pattern {name:?} reads; an aggregate is maintained by writes"),
                ));
            }
            let source = entity_named(&opath, cx.entities, &trigger.entity)?;
            let key_parts =
                entity_keys.pk.parts().iter().chain(entity_keys.sk.iter().flat_map(Template::parts));
            for part in key_parts {
                if let Part::Attr { name: attr, .. } | Part::Hash { name: attr, .. } = part
                    && source.attribute(attr).is_none()
                {
                    return Err(problem(
                        &opath,
                        format!(
                            "the aggregate's key needs {attr}, but {} items (written by {name:?}) have no such attribute",
                            source.name
                        ),
                    ));
                }
            }
            if let file::AggregateOp::Sum(attr) = &a.op {
                attribute_of(&apath.field("op").index(0), source, attr)?;
            }
            if matches!(a.op, file::AggregateOp::Claim) {
                claim_trigger(&opath, a, trigger, source, v)?;
            }
        }
        aggregates.push(model::Aggregate {
            name: a.name.clone(),
            entity: a.entity.clone(),
            on: a.on.clone(),
            attribute: a.attribute.clone(),
            op: match &a.op {
                file::AggregateOp::Count => model::AggregateOp::Count,
                file::AggregateOp::Sum(attr) => model::AggregateOp::Sum(attr.clone()),
                file::AggregateOp::Claim => model::AggregateOp::Claim,
            },
            ids: model::AggregateIds::unresolved(),
        });
    }
    Ok(aggregates)
}

/// A claim is taken by a put that carries the value it records, and its item holds nothing but
/// the claim: releasing a claim on an update or a delete is not modelled, and a count kept on
/// the same item would make the claim's create-once put an update.
fn claim_trigger(
    path: &Path,
    claim: &file::Aggregate,
    trigger: &AccessPattern,
    source: &Entity,
    v: &file::Variant,
) -> Result<()> {
    if trigger.action != model::Action::Put {
        return Err(problem(
            path,
            format!(
                "pattern {:?} is not a Put: a claim is taken by the put that creates its owner (releasing one on an update or delete is not modelled)",
                trigger.name
            ),
        ));
    }
    if source.attribute(&claim.attribute).is_none() {
        return Err(problem(
            path,
            format!(
                "the claim records {}, but {} items (put by {:?}) have no such attribute",
                claim.attribute, source.name, trigger.name
            ),
        ));
    }
    let shared = v.aggregates.iter().find(|other| {
        other.name != claim.name && other.entity == claim.entity && other.on.contains(&trigger.name)
    });
    if let Some(other) = shared {
        return Err(problem(
            path,
            format!(
                "aggregate {:?} also keeps {} items on {:?}: a claim's item holds the claim alone",
                other.name, claim.entity, trigger.name
            ),
        ));
    }
    Ok(())
}

/// Embedded children: the child refers to its parent by the parent's id attribute, and a
/// parent is not itself embedded.
fn embeds(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<Vec<model::Embed>> {
    let mut embeds: Vec<model::Embed> = Vec::new();
    for (i, e) in v.embeds.iter().enumerate() {
        let epath = path.field("embeds").index(i);
        let child = entity_named(&epath.field("entity"), cx.entities, &e.entity)?;
        let parent = entity_named(&epath.field("into"), cx.entities, &e.into)?;
        if child.name == parent.name {
            return Err(problem(
                &epath.field("into"),
                format!("{} cannot be embedded in itself", child.name),
            ));
        }
        attribute_of(&epath.field("by"), child, &e.by)?;
        let parent_id = parent.owned_population().and_then(|pop| {
            parent.attributes.iter().find(|a| matches!(&a.generator, model::Generator::New(p) if p == pop))
        });
        let child_by = child.attribute(&e.by).map(|a| &a.generator);
        match parent_id {
            Some(id) if id.name == e.by => {
                let model::Generator::New(pop) = &id.generator else {
                    unreachable!("found by its New generator")
                };
                if !matches!(child_by, Some(model::Generator::Pick(p) | model::Generator::New(p)) if p == pop)
                {
                    return Err(problem(
                        &epath.field("by"),
                        format!(
                            "{}.{} must name a {} item: a member of {pop} (Pick({pop:?})), as {}.{} is",
                            child.name, e.by, parent.name, parent.name, id.name
                        ),
                    ));
                }
            }
            Some(id) => {
                return Err(problem(
                    &epath.field("by"),
                    format!(
                        "a child names its parent by the parent's id: {} items are identified by {:?}, so by: {:?} (and {} needs that attribute)",
                        parent.name, id.name, id.name, child.name
                    ),
                ));
            }
            None => {
                return Err(problem(
                    &epath.field("into"),
                    format!(
                        "{} has no id attribute (one with a New(population) generator), so a child cannot name the item it goes into",
                        parent.name
                    ),
                ));
            }
        }
        if e.keep_latest == Some(0) {
            return Err(problem(
                &epath.field("keep_latest"),
                "keep_latest: Some(N) keeps the newest N children in the parent; N must be at least 1 (leave the embed out to embed none)",
            ));
        }
        if embeds.iter().any(|o| o.entity == e.entity) {
            return Err(problem(&epath.field("entity"), format!("{} is embedded twice", e.entity)));
        }
        let as_name = e.as_name.clone().unwrap_or_else(|| format!("{}s", e.entity.to_lowercase()));
        free_name(&epath, parent, &as_name, "list")?;
        embeds.push(model::Embed {
            entity: e.entity.clone(),
            into: e.into.clone(),
            by: e.by.clone(),
            as_name,
            keep_latest: e.keep_latest,
            ids: model::EmbedIds::unresolved(),
        });
    }
    for (i, e) in embeds.iter().enumerate() {
        if embeds.iter().any(|o| o.entity == e.into) {
            return Err(problem(
                &path.field("embeds").index(i).field("into"),
                format!(
                    "{} is itself embedded; embed {} in the item that holds {} instead",
                    e.into, e.entity, e.into
                ),
            ));
        }
    }
    Ok(embeds)
}

/// An embedded list is an attribute of its parent: its name must not be a key attribute's or the
/// TTL attribute's, and a TTL cannot expire a child that has no items of its own.
fn list_names<'a>(
    path: &Path,
    v: &file::Variant,
    embeds: &[model::Embed],
    key_names: impl Iterator<Item = &'a String>,
) -> Result<()> {
    let key_names: Vec<&String> = key_names.collect();
    for (i, e) in embeds.iter().enumerate() {
        let ttl = v.ttl.as_ref().map(|t| &t.attribute);
        if key_names.contains(&&e.as_name) || ttl == Some(&e.as_name) {
            return Err(problem(
                &path.field("embeds").index(i),
                format!(
                    "{:?} is a key or TTL attribute of this variant; name the list with as: \"…\"",
                    e.as_name
                ),
            ));
        }
        if e.keep_latest.is_none() && v.ttl.as_ref().is_some_and(|t| t.entities.contains(&e.entity)) {
            return Err(problem(
                &path.field("ttl"),
                format!("{} is embedded whole in {}: it has no items of its own to expire", e.entity, e.into),
            ));
        }
    }
    Ok(())
}

/// A child embedded whole has no keys of its own; a parent, and a child kept as items too, do.
fn embed_keys(path: &Path, v: &file::Variant, embeds: &[model::Embed], keys: &[EntityKeys]) -> Result<()> {
    for (i, e) in embeds.iter().enumerate() {
        let epath = path.field("embeds").index(i);
        let has = |name: &str| keys.iter().any(|k| k.entity == name);
        if !has(&e.into) {
            return Err(problem(
                &epath.field("into"),
                format!("{} needs table keys to hold the embedded {}", e.into, e.entity),
            ));
        }
        match e.keep_latest {
            None if has(&e.entity) => {
                return Err(problem(
                    &path.field("keys").key(&e.entity),
                    format!(
                        "{} is embedded whole in {} (no keep_latest), so it has no items of its own: remove its keys, or keep its items too with keep_latest: Some(N)",
                        e.entity, e.into
                    ),
                ));
            }
            Some(n) if !has(&e.entity) => {
                return Err(problem(
                    &epath.field("keep_latest"),
                    format!(
                        "keep_latest: Some({n}) keeps {} items of their own besides the newest {n} in {}: give {} keys in this variant",
                        e.entity, e.into, e.entity
                    ),
                ));
            }
            _ => {}
        }
        if e.keep_latest.is_none()
            && let Some(c) = v.copies.iter().position(|c| c.to == e.entity || c.from == e.entity)
        {
            return Err(problem(
                &path.field("copies").index(c),
                format!(
                    "{} is embedded whole in {}: it has no items of its own to copy to or from",
                    e.entity, e.into
                ),
            ));
        }
    }
    Ok(())
}

/// An index whose keys name a child embedded whole is a multikey index over the parent's list
/// (`Variant::multikey_of`): MongoDB's alone, keying that one child, every entry the whole of
/// its key (no sparse gate, no projection: an entry is the key and the parent's record id). A
/// read of the children alone must give its partition key, since nothing else reaches them.
fn multikey(
    path: &Path,
    v: &file::Variant,
    cx: &Context<'_>,
    embeds: &[model::Embed],
    indexes: &[Index],
) -> Result<()> {
    for (i, ix) in indexes.iter().enumerate() {
        let ipath = path.field("indexes").index(i);
        let whole = |name: &str| embeds.iter().find(|e| e.entity == name && e.keep_latest.is_none());
        let Some((keys, embed)) = ix.keys.iter().find_map(|k| Some((k, whole(&k.entity)?))) else { continue };
        let at = ipath.field("keys").key(&keys.entity);
        if cx.engine != model::Engine::MongoDb {
            return Err(problem(
                &at,
                format!(
                    "{} is embedded whole in {}'s list {:?}: an index on the elements of a list is a MongoDB multikey index, and {} indexes top-level attributes only. Keep {} as items of their own too (keep_latest: Some(N)) and index those, or replay on MongoDB (`--engine mongodb`, when the file lists it)",
                    keys.entity, embed.into, embed.as_name, cx.engine, keys.entity
                ),
            ));
        }
        if ix.keys.len() > 1 {
            return Err(problem(
                &at,
                format!(
                    "index {:?} keys the elements of {}'s list {:?} (a multikey index), so it keys only {}: give the other entities an index of their own",
                    ix.name, embed.into, embed.as_name, keys.entity
                ),
            ));
        }
        if ix.only_when.is_some() || ix.projection != Projection::All {
            return Err(problem(
                &ipath,
                format!(
                    "index {:?} is a multikey index over {}'s list {:?}: keyheat models its entries as MongoDB stores them (each element's key and the {}'s record id), with no `only_when` and no `projection`",
                    ix.name, embed.into, embed.as_name, embed.into
                ),
            ));
        }
        for (p, pattern) in cx.patterns.iter().enumerate() {
            if pattern.entity != keys.entity || !pattern.action.is_read() {
                continue;
            }
            let knows =
                |a: &str| pattern.given.iter().any(|g| g == a) || pattern.equals.iter().any(|(e, _)| e == a);
            if let Some(missing) = keys.pk.attributes().find(|a| !knows(a)) {
                return Err(problem(
                    &path.field("embeds"),
                    format!(
                        "pattern {:?} (patterns[{p}]) reads {}, which variant {:?} embeds whole in {}: only the multikey index {:?} reaches them, and it needs {missing:?} given",
                        pattern.name, keys.entity, v.name, embed.into, ix.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A Cosmos DB container's throughput: manual at least 400 RU/s in steps of 100 ("Azure Cosmos DB
/// service quotas"), autoscale's maximum at least 1,000 in steps of 1,000 ("Create Azure Cosmos
/// DB containers and databases with autoscale throughput"), either at most 1,000,000 RU/s (the
/// quotas' default limit per container).
fn throughput(path: &Path, v: &file::Variant) -> Result<Option<Throughput>> {
    let Some(t) = v.throughput else { return Ok(None) };
    let path = path.field("throughput");
    match t {
        file::Throughput::Manual(ru) if ru < 400 || ru % 100 != 0 => Err(problem(
            &path,
            format!("manual throughput is at least 400 RU/s, in steps of 100; found {ru}"),
        )),
        file::Throughput::Autoscale { max } if max < 1000 || max % 1000 != 0 => Err(problem(
            &path,
            format!("autoscale's maximum is at least 1000 RU/s, in steps of 1000; found {max}"),
        )),
        file::Throughput::Manual(ru) | file::Throughput::Autoscale { max: ru }
            if f64::from(ru) > MAX_CONTAINER_RU_PER_S =>
        {
            Err(problem(
                &path,
                format!(
                    "a container's throughput is at most 1000000 RU/s (Azure's default limit; more needs a support ticket); found {ru}"
                ),
            ))
        }
        file::Throughput::Manual(ru) => Ok(Some(Throughput::Manual(f64::from(ru)))),
        file::Throughput::Autoscale { max } => Ok(Some(Throughput::Autoscale { max: f64::from(max) })),
    }
}

/// A sharded collection (MongoDB only): an entity of the scenario, 1 to
/// [`sharding::MAX_SHARDS`] shards, a range size between 1 and 1024 MB ("Modify Range Size in
/// a Sharded Cluster"), 128 MB when not given.
fn sharding(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<Option<model::Sharding>> {
    let Some(s) = &v.sharding else { return Ok(None) };
    let path = path.field("sharding");
    if cx.engine != model::Engine::MongoDb {
        return Err(problem(
            &path,
            format!(
                "sharding is MongoDB's (shard keys, ranges and the balancer): the {} profile has none. Replay on MongoDB (`--engine mongodb`, when the file lists it) or drop `sharding`",
                cx.engine
            ),
        ));
    }
    let Some(entity) = cx.entities.iter().find(|e| e.name == s.collection) else {
        return Err(problem(
            &path.field("collection"),
            format!(
                "no entity is named {:?}; the collections are: {}",
                s.collection,
                listing(cx.entities.iter().map(|e| e.name.as_str()))
            ),
        ));
    };
    if !(1..=sharding::MAX_SHARDS).contains(&s.shards) {
        return Err(problem(
            &path.field("shards"),
            format!("a sharded cluster here has 1 to {} shards; found {}", sharding::MAX_SHARDS, s.shards),
        ));
    }
    let range_bytes = match &s.range_size {
        None => sharding::DEFAULT_RANGE_BYTES,
        Some(text) => {
            let at = path.field("range_size");
            let bytes = super::parse_size(text).ok_or_else(|| {
                problem(&at, format!("expected a size like \"1MB\" or \"128MB\", found {text:?}"))
            })?;
            if !(sharding::MIN_RANGE_BYTES..=sharding::MAX_RANGE_BYTES).contains(&bytes) {
                return Err(problem(
                    &at,
                    format!(
                        "a range size is between 1MB and 1024MB (\"Modify Range Size in a Sharded Cluster\"); found {text}"
                    ),
                ));
            }
            bytes
        }
    };
    let strategy = match s.key {
        file::ShardKey::Ranged => sharding::Strategy::Ranged,
        file::ShardKey::Hashed => sharding::Strategy::Hashed,
    };
    Ok(Some(model::Sharding {
        entity: entity.name.clone(),
        entity_id: entity.id(),
        shards: s.shards,
        strategy,
        range_bytes,
    }))
}

fn capacity(path: &Path, v: &file::Variant) -> Result<model::Capacity> {
    Ok(match v.capacity {
        file::Capacity::OnDemand => model::Capacity::OnDemand,
        file::Capacity::Provisioned { read, write } => {
            if read == 0 || write == 0 {
                return Err(problem(
                    &path.field("capacity"),
                    "provisioned capacity needs read ≥ 1 and write ≥ 1",
                ));
            }
            model::Capacity::Provisioned { read, write }
        }
    })
}

//! The scenario compiled for replay: populations, entities with their key templates bound to
//! attribute slots, the tables and index groups they land in, and each access pattern with what
//! its calls send (from the planner's plan for the variant).
//!
//! DynamoDB: one table (single-table design) plus its indexes. Cassandra: one table per entity,
//! as CQL has it, each with the indexes over that entity.

use crate::engine::hash::combine;
use crate::engine::metrics::GroupKind;
use crate::engine::model::{
    self, Action, AttrType, Engine, EntityId, Generator, IndexKind as ModelIndexKind, ItemAttr, RangeSpan,
    Scenario, Variant,
};
use crate::engine::planner::{Operation, PatternPlan};
use crate::engine::profile::{IndexEntries, Layout};
use crate::engine::workload::{Popularity, RateShape};

use super::items::{Added, AttrPlan, Gen, Pop, Val, attr_plans, stream, to_hundredths};
use super::keys::Codec;
use super::table::IndexKind;
use super::templates::TemplatePlan;

/// What kind of thing created an item (regeneration replays its draws).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A member of the population the entity owns, there from the start.
    Initial,
    /// A member the population gained by `growth_per_day`.
    Growth,
    /// A write call of this pattern (a put, or an update of a missing item).
    Pattern(u16),
    /// A maintained aggregate's item (its keys and value live in the overrides).
    Aggregate,
}

/// A run of consecutive ordinals born in one tick from one origin. For pattern origins, ordinal
/// `first + i` came from call `call + i` when `stepping` (each call writes one new item), else
/// the run holds one ordinal.
#[derive(Debug, Clone, Copy)]
pub struct Birth {
    pub first: u32,
    pub tick: u32,
    pub origin: Origin,
    pub call: u64,
    /// The pattern's first call index of the tick, and its calls in the tick (the call's time).
    pub tick_first: u64,
    pub tick_calls: u32,
    pub stepping: bool,
}

/// Where a new item's attribute gets its value, decided once per entity from its generator
/// (`born_steps`), so regenerating an item does not match on every generator again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BornStep {
    /// The identity attribute (`New`): the item's own ordinal is its member.
    Ordinal,
    /// A member of this population (`Pick`, or a `New` that is not the identity).
    Member(usize),
    /// `items::generate` draws it.
    Drawn,
}

/// Which attributes an index entry carries besides keys.
#[derive(Debug, Clone)]
pub enum Projected {
    KeysOnly,
    Attrs(Vec<usize>),
    All,
}

/// An entity's place in one index.
#[derive(Debug, Clone)]
pub struct EntryPlan {
    /// `None` for an LSI: the table's partition key.
    pub pk: Option<TemplatePlan>,
    pub sk: Option<TemplatePlan>,
    /// The application writes the index keys only when this attribute has this value.
    pub gate: Option<(usize, Val)>,
    pub projected: Projected,
}

#[derive(Debug, Clone)]
pub struct EntityRt {
    pub name: String,
    pub attrs: Vec<AttrPlan>,
    /// The attribute that is the item's identity (`New(pop)`) and its population.
    pub identity: Option<(usize, usize)>,
    pub table: Option<usize>,
    /// A child embedded whole with a multikey index on its elements: its parent's table, which
    /// holds the index (`entries` are the child's place in it), and the parent, whose documents
    /// a read through the index finds.
    pub host: Option<(usize, usize)>,
    pub pk: Option<TemplatePlan>,
    pub sk: Option<TemplatePlan>,
    /// Per index of the entity's table.
    pub entries: Vec<Option<EntryPlan>>,
    pub next: u32,
    pub births: Vec<Birth>,
    /// Where the attributes the variant adds (copies, TTL, embedded lists) are in `attrs`.
    pub added: Added,
    /// `Nth` attributes and the member attribute each counts by.
    pub numbered: Vec<(usize, usize)>,
    /// Puts are upserts: a put onto a taken key is the same item (`model::Entity::upsert`).
    pub upsert: bool,
    /// How each attribute of an item born outside a call gets its value, in attribute order;
    /// copies and kept values are not in it (they start absent).
    pub born: Vec<(usize, BornStep)>,
    /// The denormalized copies: (attribute, copy), filled in after every other value.
    pub copies: Vec<(usize, usize)>,
}

#[derive(Debug, Clone)]
pub struct IndexRt {
    /// Its position in `Variant::indexes`, as the planner's `IndexId` names it.
    pub id: usize,
    pub name: String,
    pub kind: IndexKind,
    pub pk_name: String,
    pub sk_name: Option<String>,
    pub group: usize,
}

#[derive(Debug, Clone)]
pub struct TableRt {
    pub name: String,
    pub entities: Vec<usize>,
    pub codec: Codec,
    pub pk_name: String,
    pub sk_name: Option<String>,
    pub indexes: Vec<IndexRt>,
    pub group: usize,
}

/// Reading an index that does not project what the pattern returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetch {
    /// The index has it (or the read is of the table).
    No,
    /// An LSI: each item read costs a table read, within the Query.
    Lsi,
    /// A GSI: the application fetches the items the Query returned from the table with
    /// BatchGetItem (as the planner's plan says).
    Table,
    /// MongoDB: an index entry is the indexed values and a record id, so the query's FETCH
    /// stage reads each match's document whole, within the request.
    Documents,
}

/// One filter term a read applies to the items it reads.
#[derive(Debug, Clone)]
pub enum Filter {
    /// The attribute equals this constant.
    Equals(usize, Val),
    /// The attribute equals the call's given value.
    Given(usize),
    /// The (time) attribute is within the last this many seconds.
    Since(usize, i64),
    /// The attribute's text begins with this.
    Prefix(usize, String),
    /// The attribute's text contains the word the call searches for (its input for the
    /// attribute: `exec::search_word`).
    Contains(usize),
}

#[derive(Debug, Clone)]
pub struct ReadPlan {
    pub table: usize,
    pub group: usize,
    /// The index read, if any (position in the table's indexes).
    pub index: Option<usize>,
    pub pk: TemplatePlan,
    pub sk: Option<TemplatePlan>,
    /// Entities the read returns (the pattern's, then `with`).
    pub entities: Vec<usize>,
    pub range: Option<(usize, RangeSpan)>,
    pub forward: bool,
    pub limit: Option<u32>,
    /// Whether the key returns items in the order asked for: no range (the sort key's own
    /// order), or the range attribute is the sort key's first slot the caller does not fill.
    /// Otherwise a limit can only be applied after every match is read.
    pub ordered: bool,
    /// Terms the items read must pass (the entity check is implied).
    pub filter: Vec<Filter>,
    /// For a Scan with only constant terms: the ledger mark that counts its matches.
    pub mark: Option<usize>,
    /// How the items are read from the table when the index lacks what the pattern needs.
    pub fetch: Fetch,
    /// Whether the rows read must be looked at (a filter, an LSI fetch, or other entities
    /// sharing the partitions); else every row read is returned.
    pub look: bool,
    /// A query that gives only the first levels of a hierarchical partition key: routed to the
    /// physical partitions holding that prefix (`planner::verdict::KeyPrefix`).
    pub prefix: Option<PrefixPlan>,
}

/// The levels a prefix read gives, of how many the key has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrefixPlan {
    pub given: usize,
    pub levels: usize,
}

#[derive(Debug, Clone)]
pub struct PatternRt {
    pub name: String,
    pub action: Action,
    pub operation: Option<Operation>,
    pub index: Option<String>,
    pub entity: usize,
    pub rate: f64,
    pub shapes: Vec<RateShape>,
    pub carry: f64,
    /// Calls so far (the next call's index).
    pub calls: u64,
    pub stream: u64,
    /// The stream of a value a call gives, by attribute (`Simulation::given_val`): a function of
    /// `stream` and the attribute, combined once here rather than on every call.
    pub given_streams: Vec<u64>,
    pub givens: Vec<usize>,
    pub equals: Vec<(usize, Val)>,
    /// The popularity the first given's member is picked by.
    pub keys: Option<Popularity>,
    pub sets: Vec<usize>,
    /// Boxed: a read takes its plan out of the pattern while it runs and puts it back, and a
    /// plan moved whole was two copies of some hundreds of bytes on every read.
    pub read: Option<Box<ReadPlan>>,
    /// A read of entities in different partitions (`planner::read::split`): the requests for
    /// the entities after the first, sent with `read`'s.
    pub parts: Vec<ReadPart>,
    /// An update or delete whose key the call cannot compute: the read it sends first to learn
    /// it (`planner::write`'s locate), a Query or a Scan.
    pub locate: Option<(Operation, ReadPlan)>,
    pub latency_target_ms: Option<f64>,
    pub aggregates: Vec<usize>,
    pub condition: Option<CondRt>,
    /// Seconds a put's item lives, or an update pushes its item's expiry out to (`ttl: "15m"`).
    pub ttl_secs: Option<i64>,
    /// The entity's `born` steps without the givens (but for its identity): what an item a
    /// call of this pattern creates draws itself; the call gives the rest.
    pub born: Vec<(usize, BornStep)>,
}

/// A write's condition, resolved: create once, or a version check on this attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CondRt {
    NotExists,
    Version(usize),
}

/// One more entity's read in a read split by entity.
#[derive(Debug, Clone)]
pub struct ReadPart {
    pub operation: Operation,
    pub read: ReadPlan,
    /// The call's known values carried over: (attribute of the pattern's entity, attribute of
    /// this one), for each given the two share (`AccessPattern::carried_ids`).
    pub carried: Vec<(usize, usize)>,
    /// This entity's constants.
    pub equals: Vec<(usize, Val)>,
}

/// Everything static about a run.
#[derive(Debug, Clone)]
pub struct World {
    pub engine: Engine,
    pub pops: Vec<Pop>,
    pub entities: Vec<EntityRt>,
    pub tables: Vec<TableRt>,
    /// Per group: (table, index position or `None` for the table itself).
    pub groups: Vec<(usize, Option<usize>)>,
    pub patterns: Vec<PatternRt>,
    pub handle_shift: u32,
}

impl EntityRt {
    /// Where an attribute of the entity's items is in `attrs`.
    pub fn attr(&self, a: ItemAttr) -> Option<usize> {
        match a {
            ItemAttr::Own(id) => Some(id.index()),
            ItemAttr::Copy(copy) => self.added.copy(copy),
            ItemAttr::Ttl => self.added.ttl,
            ItemAttr::List(embed) => self.added.list(embed),
        }
    }
}

impl World {
    pub fn entity_of(&self, handle: u32) -> usize {
        if self.handle_shift >= 32 { 0 } else { (handle >> self.handle_shift) as usize }
    }

    pub fn ordinal_of(&self, handle: u32) -> u32 {
        if self.handle_shift >= 32 { handle } else { handle & ((1u32 << self.handle_shift) - 1) }
    }

    pub fn handle(&self, entity: usize, ordinal: u32) -> u32 {
        if self.handle_shift >= 32 {
            ordinal
        } else {
            (u32::try_from(entity).unwrap_or(0) << self.handle_shift) | ordinal
        }
    }

    /// Most ordinals one entity can hold.
    pub fn ordinal_limit(&self) -> u64 {
        1u64 << self.handle_shift.min(32)
    }

    pub fn group_name(&self, group: usize) -> String {
        let (t, i) = self.groups[group];
        match i {
            None => self.tables[t].name.clone(),
            Some(i) => self.tables[t].indexes[i].name.clone(),
        }
    }

    pub fn group_kind(&self, group: usize) -> Option<IndexKind> {
        let (t, i) = self.groups[group];
        i.map(|i| self.tables[t].indexes[i].kind)
    }

    /// What the metrics call `group`: the table or an index of its kind.
    pub fn metrics_kind(&self, group: usize) -> GroupKind {
        match self.group_kind(group) {
            None => GroupKind::Table,
            Some(IndexKind::Global) => GroupKind::GlobalIndex,
            Some(IndexKind::Local) => GroupKind::LocalIndex,
        }
    }
}

fn constant(attr: &mut AttrPlan, text: &str) -> Val {
    match attr.ty {
        AttrType::N | AttrType::Time => {
            text.parse::<f64>().map_or(Val::Absent, |x| Val::Num(to_hundredths(x, false)))
        }
        AttrType::Bool => Val::Bool(text == "true"),
        AttrType::S | AttrType::B => {
            let i = attr.texts.iter().position(|t| t == text).unwrap_or_else(|| {
                attr.texts.push(text.to_owned());
                attr.texts.len() - 1
            });
            Val::Choice(u32::try_from(i).unwrap_or(0))
        }
    }
}

/// Compiles the scenario for `variant`; `plans` is the planner's plan of every pattern, in the
/// scenario's order.
pub fn compile(scenario: &Scenario, variant: &Variant, plans: &[PatternPlan]) -> World {
    let engine = scenario.engine;
    let pops: Vec<Pop> = scenario.populations.iter().map(Pop::new).collect();
    let mut entities: Vec<EntityRt> =
        scenario.entities.iter().map(|e| entity_rt(scenario, variant, e)).collect();
    // Tables: one for a single-table store, one per keyed entity otherwise.
    let keyed: Vec<usize> = scenario
        .entities
        .iter()
        .filter(|e| variant.keys_for(e.id()).is_some())
        .map(|e| e.id().index())
        .collect();
    let table_sets: Vec<(String, Vec<usize>)> = match engine.profile().layout {
        Layout::SingleTable => vec![(scenario.name.clone(), keyed)],
        Layout::TablePerEntity => keyed.iter().map(|&e| (entities[e].name.clone(), vec![e])).collect(),
    };
    let mut tables: Vec<TableRt> = Vec::new();
    let mut groups: Vec<(usize, Option<usize>)> = Vec::new();
    for (name, members) in table_sets {
        let table = table_rt(engine, variant, name, members, &mut entities, tables.len(), &mut groups);
        tables.push(table);
    }
    let patterns = scenario
        .patterns
        .iter()
        .zip(plans)
        .map(|(p, plan)| compile_pattern(scenario, variant, p, plan, &mut entities, &tables))
        .collect();
    let bits = usize::BITS - entities.len().saturating_sub(1).leading_zeros();
    World { engine, pops, entities, tables, groups, patterns, handle_shift: 32 - bits }
}

/// An entity's attributes, identity and TTL attribute (its keys come with its table).
fn entity_rt(scenario: &Scenario, variant: &Variant, e: &model::Entity) -> EntityRt {
    let (attrs, added) = attr_plans(scenario, variant, e);
    let identity = attrs.iter().enumerate().find_map(|(i, a)| match a.source {
        Gen::New(pop) => Some((i, pop)),
        _ => None,
    });
    let numbered =
        e.attributes.iter().enumerate().filter_map(|(i, a)| Some((i, a.numbered_by()?.index()))).collect();
    let copies = attrs
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a.source {
            Gen::Copy(c) => Some((i, c)),
            _ => None,
        })
        .collect();
    EntityRt {
        born: born_steps(&attrs, identity.map(|(a, _)| a)),
        copies,
        name: e.name.clone(),
        attrs,
        numbered,
        upsert: e.upsert,
        identity,
        table: None,
        host: None,
        pk: None,
        sk: None,
        entries: Vec::new(),
        next: 0,
        births: Vec::new(),
        added,
    }
}

/// How each attribute of a new item gets its value (`Simulation::born_vals`): the identity is
/// the ordinal, members are picked, copies and kept values start absent (so have no step), and
/// every other generator is drawn.
fn born_steps(attrs: &[AttrPlan], identity: Option<usize>) -> Vec<(usize, BornStep)> {
    let step = |(i, a): (usize, &AttrPlan)| match a.source {
        Gen::New(_) if identity == Some(i) => Some((i, BornStep::Ordinal)),
        Gen::Pick(pop) | Gen::New(pop) => Some((i, BornStep::Member(pop))),
        Gen::Copy(_) | Gen::Kept => None,
        _ => Some((i, BornStep::Drawn)),
    };
    attrs.iter().enumerate().filter_map(step).collect()
}

/// Table `t` holding `members`: their key templates, the indexes over them (each a group) and
/// each member's entry plan per index.
fn table_rt(
    engine: Engine,
    variant: &Variant,
    name: String,
    members: Vec<usize>,
    entities: &mut [EntityRt],
    t: usize,
    groups: &mut Vec<(usize, Option<usize>)>,
) -> TableRt {
    let mut shard_base = 0;
    for &e in &members {
        let Some(keys) = variant.keys_for(EntityId::new(e)) else { continue };
        let ent = &mut entities[e];
        let pk = TemplatePlan::new(&keys.pk, keys.pk_slots(), ent, shard_base);
        shard_base += u32::try_from(pk.shard_slots().count()).unwrap_or(0);
        let sk = keys.sk.as_ref().map(|sk| TemplatePlan::new(sk, keys.sk_slots(), ent, shard_base));
        shard_base += sk.as_ref().map_or(0, |s| u32::try_from(s.shard_slots().count()).unwrap_or(0));
        ent.pk = Some(pk);
        ent.sk = sk;
        ent.table = Some(t);
    }
    let inline = members.iter().all(|&e| {
        let ent = &entities[e];
        ent.sk.as_ref().is_none_or(|sk| sk.inline_time(&ent.attrs))
    });
    let table_group = groups.len();
    groups.push((t, None));
    let mut indexes = Vec::new();
    for (id, index) in variant.indexes.iter().enumerate() {
        // A multikey index lives with the parent whose list it keys (`multikey`).
        let list = variant.multikey_of(index).filter(|e| members.contains(&e.into_id().index()));
        if list.is_none() && !members.iter().any(|&e| index.keys_for(EntityId::new(e)).is_some()) {
            continue;
        }
        let position = indexes.len();
        // A table per entity: an index over several entities becomes one per entity table.
        let index_name = if engine.profile().layout == Layout::TablePerEntity && index.keys.len() > 1 {
            format!("{} ({name})", index.name)
        } else {
            index.name.clone()
        };
        indexes.push(IndexRt {
            id,
            name: index_name,
            kind: match index.kind {
                ModelIndexKind::Global => IndexKind::Global,
                ModelIndexKind::Local => IndexKind::Local,
            },
            pk_name: index.pk_attribute.clone(),
            sk_name: index.sk_attribute.clone(),
            group: groups.len(),
        });
        groups.push((t, Some(position)));
        for &e in &members {
            let entry = entry_plan(index, EntityId::new(e), &mut entities[e]);
            entities[e].entries.push(entry);
        }
        if let Some(list) = list {
            // The child has no items: its entry plan keys the elements its appends add.
            let child = &mut entities[list.entity_id().index()];
            child.entries.resize(position, None);
            let entry = entry_plan(index, list.entity_id(), child);
            child.entries.push(entry);
            child.host = Some((t, list.into_id().index()));
        }
    }
    for &e in &members {
        entities[e].entries.resize(indexes.len(), None);
    }
    TableRt {
        entities: members,
        name,
        codec: if inline { Codec::Inline } else { Codec::Bytes },
        pk_name: variant.table_pk.clone(),
        sk_name: variant.table_sk.clone(),
        indexes,
        group: table_group,
    }
}

/// An entity's place in an index: its templates (an LSI keeps the table's partition key), the
/// sparse gate and the projection.
fn entry_plan(index: &model::Index, e: EntityId, ent: &mut EntityRt) -> Option<EntryPlan> {
    let keys = index.keys_for(e)?;
    let pk =
        (index.kind == ModelIndexKind::Global).then(|| TemplatePlan::new(&keys.pk, keys.pk_slots(), ent, 64));
    let sk = keys.sk.as_ref().map(|sk| TemplatePlan::new(sk, keys.sk_slots(), ent, 96));
    let gate = index.only_when.as_ref().and_then(|(_, value)| {
        let a = index.only_when_id(e)?.index();
        Some((a, constant(&mut ent.attrs[a], value)))
    });
    let projected = match &index.projection {
        model::Projection::KeysOnly => Projected::KeysOnly,
        model::Projection::All => Projected::All,
        model::Projection::Include(_) => {
            Projected::Attrs(index.include_ids(e).iter().filter_map(|&a| ent.attr(a)).collect())
        }
    };
    Some(EntryPlan { pk, sk, gate, projected })
}

fn compile_pattern(
    scenario: &Scenario,
    variant: &Variant,
    p: &model::AccessPattern,
    plan: &PatternPlan,
    entities: &mut [EntityRt],
    tables: &[TableRt],
) -> PatternRt {
    let e = p.entity_id().index();
    let (givens, equals) = inputs(scenario, p, e, entities);
    let sets = p.sets_ids().iter().map(|a| a.index()).collect();
    let aggregates =
        variant.aggregates.iter().enumerate().filter(|(_, a)| a.ids.on(p.id())).map(|(i, _)| i).collect();
    let (read, parts) = if !p.action.is_read() {
        (None, Vec::new())
    } else if plan.parts.is_empty() {
        let read = plan.operation.and_then(|op| {
            let p = p.as_served_by(variant);
            let spec = ReadSpec {
                p: &p,
                plan,
                operation: op,
                e,
                givens: &givens,
                equals: &equals,
                engine: scenario.engine,
            };
            read_plan(&spec, entities, tables)
        });
        (read, Vec::new())
    } else {
        split_reads(scenario, &p.as_served_by(variant), plan, entities, tables)
    };
    let locate = plan.locate.as_deref().filter(|_| !p.action.is_read()).and_then(|l| {
        let operation = l.operation?;
        let locating = p.locating();
        let spec = ReadSpec {
            p: &locating,
            plan: l,
            operation,
            e,
            givens: &givens,
            equals: &equals,
            engine: scenario.engine,
        };
        Some((operation, read_plan(&spec, entities, tables)?))
    });
    let identity = entities[e].identity.map(|(a, _)| a);
    // A call gives its givens; the identity is still the item's own (its ordinal).
    let born = entities[e]
        .born
        .iter()
        .copied()
        .filter(|&(i, _)| !givens.contains(&i) || identity == Some(i))
        .collect();
    let stream = stream(&["pattern", &p.name]);
    let given_streams = (0..entities[e].attrs.len()).map(|a| combine(&[stream, a as u64])).collect();
    PatternRt {
        born,
        name: p.name.clone(),
        action: p.action,
        operation: plan.operation,
        index: plan.index.as_ref().map(|id| id.name().to_owned()),
        entity: e,
        rate: p.rate,
        shapes: p.shapes.clone(),
        carry: 0.0,
        calls: 0,
        stream,
        given_streams,
        givens,
        equals,
        keys: p.keys.clone(),
        sets,
        read: read.map(Box::new),
        parts,
        locate,
        latency_target_ms: p.latency_target_ms,
        aggregates,
        condition: p.condition.as_ref().and_then(|c| match c {
            model::Condition::NotExists => Some(CondRt::NotExists),
            model::Condition::Version(_) => p.version_id().map(|a| CondRt::Version(a.index())),
        }),
        ttl_secs: p.ttl.map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
    }
}

/// The reads of a pattern split by entity (`planner::read::split`), one per entity of `p` (as
/// the variant serves it), each with the call's known values carried over from the pattern's
/// entity: the first read, and the parts sent with it.
fn split_reads(
    scenario: &Scenario,
    p: &model::AccessPattern,
    plan: &PatternPlan,
    entities: &mut [EntityRt],
    tables: &[TableRt],
) -> (Option<ReadPlan>, Vec<ReadPart>) {
    let entity_ids = std::iter::once(p.entity_id()).chain(p.with_ids().iter().copied());
    let mut reads = entity_ids.zip(&plan.parts).filter_map(|(k, part_plan)| {
        let k = k.index();
        let part = p.part(&scenario.entities[k])?;
        let (part_givens, part_equals) = inputs(scenario, &part, k, entities);
        let operation = part_plan.operation?;
        let spec = ReadSpec {
            p: &part,
            plan: part_plan,
            operation,
            e: k,
            givens: &part_givens,
            equals: &part_equals,
            engine: scenario.engine,
        };
        let read = read_plan(&spec, entities, tables)?;
        let carried = part.carried_ids().iter().map(|&(from, to)| (from.index(), to.index())).collect();
        Some(ReadPart { operation, read, carried, equals: part_equals })
    });
    let first = reads.next().map(|part| part.read);
    (first, reads.collect())
}

/// The attributes of entity `e` a call of `p` knows: its givens, and the constants it compares
/// with — including an attribute every item holds the same text in (`Text("season-12")`),
/// known to every caller as the planner assumes (`planner::read::with_constants`), so a Query
/// under a constant index key asks for that key.
fn inputs(
    scenario: &Scenario,
    p: &model::AccessPattern,
    e: usize,
    entities: &mut [EntityRt],
) -> (Vec<usize>, Vec<(usize, Val)>) {
    let givens: Vec<usize> = p.given_ids().iter().map(|a| a.index()).collect();
    let mut equals: Vec<(usize, Val)> = p
        .equals_ids()
        .iter()
        .zip(&p.equals)
        .map(|(a, (_, v))| (a.index(), constant(&mut entities[e].attrs[a.index()], v)))
        .collect();
    for (i, attribute) in scenario.entities[e].attributes.iter().enumerate() {
        let Generator::Text(text) = &attribute.generator else { continue };
        if !givens.contains(&i) && !equals.iter().any(|&(a, _)| a == i) {
            equals.push((i, constant(&mut entities[e].attrs[i], text)));
        }
    }
    (givens, equals)
}

/// One entity's read to compile: the pattern as that entity's read sees it, the planner's plan
/// of it, the entity, and what a call knows (its givens and constants).
struct ReadSpec<'a> {
    p: &'a model::AccessPattern,
    plan: &'a PatternPlan,
    operation: Operation,
    e: usize,
    givens: &'a [usize],
    equals: &'a [(usize, Val)],
    /// The store: what its index entries hold decides how an index read fetches.
    engine: model::Engine,
}

fn read_plan(spec: &ReadSpec<'_>, entities: &[EntityRt], tables: &[TableRt]) -> Option<ReadPlan> {
    let (p, e) = (spec.p, spec.e);
    let ent = &entities[e];
    let t = ent.table.or(ent.host.map(|(t, _)| t))?;
    let table = &tables[t];
    let index =
        spec.plan.index.as_ref().and_then(|id| table.indexes.iter().position(|i| i.id == id.position()));
    let (group, pk, sk) = match index {
        None => (table.group, ent.pk.clone()?, ent.sk.clone()),
        Some(i) => {
            let entry = ent.entries.get(i)?.as_ref()?;
            let pk = entry.pk.clone().or_else(|| ent.pk.clone())?;
            (table.indexes[i].group, pk, entry.sk.clone())
        }
    };
    let range = p.range.as_ref().and_then(|r| Some((p.range_id()?.index(), r.span.clone())));
    let with: Vec<usize> = p.with_ids().iter().map(|w| w.index()).collect();
    let used: Vec<usize> = pk.attrs().chain(sk.iter().flat_map(TemplatePlan::attrs)).collect();
    // The range is applied by the key when the sort key's first unknown slot reads it.
    let range_by_key = spec.operation != Operation::Scan
        && with.is_empty()
        && range.as_ref().is_some_and(|(attr, _)| {
            sk.as_ref().is_some_and(|sk| first_unknown(sk, spec.givens, spec.equals) == Some(*attr))
        });
    let gate = index.and_then(|i| ent.entries[i].as_ref()?.gate);
    let filter = read_filter(spec, &used, gate, range.as_ref().filter(|_| !range_by_key));
    let fetch = read_fetch(spec, ent, table, index, &used);
    // A multikey index's entries point at the parents whose lists hold the children.
    let returned: Vec<usize> = std::iter::once(e)
        .chain(with)
        .chain(ent.host.filter(|_| ent.table.is_none()).map(|(_, p)| p))
        .collect();
    // Other entities stored in the same table (or index) could share the partitions read.
    let shared = table.entities.iter().any(|&x| {
        !returned.contains(&x)
            && index.is_none_or(|i| entities[x].entries.get(i).is_some_and(Option::is_some))
    });
    let look = !filter.is_empty() || fetch != Fetch::No || shared;
    let ordered = range.is_none() || range_by_key;
    Some(ReadPlan {
        table: t,
        group,
        index,
        pk,
        sk,
        look,
        entities: returned,
        range,
        forward: p.order == model::Order::Asc,
        limit: p.limit,
        ordered,
        filter,
        mark: None,
        fetch,
        prefix: spec.plan.key_prefix().map(|k| PrefixPlan { given: k.given.len(), levels: k.levels }),
    })
}

/// The terms a read applies to the items it reads: what the call knows that its key (`used`)
/// does not test, or everything for a Scan; a sparse index's gate is implied. `range` is the
/// range the key does not apply, if any.
fn read_filter(
    spec: &ReadSpec<'_>,
    used: &[usize],
    gate: Option<(usize, Val)>,
    range: Option<&(usize, RangeSpan)>,
) -> Vec<Filter> {
    let scan = spec.operation == Operation::Scan;
    let mut filter = Vec::new();
    for &g in spec.givens {
        if scan || !used.contains(&g) {
            filter.push(Filter::Given(g));
        }
    }
    for &(a, v) in spec.equals {
        if (scan || !used.contains(&a)) && gate.is_none_or(|(ga, _)| ga != a) {
            filter.push(Filter::Equals(a, v));
        }
    }
    if let Some((attr, span)) = range
        && (scan || !used.contains(attr))
    {
        match span {
            RangeSpan::Last(d) => {
                filter.push(Filter::Since(*attr, i64::try_from(d.as_secs()).unwrap_or(i64::MAX)));
            }
            RangeSpan::BeginsWith(prefix) => filter.push(Filter::Prefix(*attr, prefix.clone())),
            RangeSpan::All => {}
        }
    }
    if let Some(attr) = spec.p.contains_id() {
        filter.push(Filter::Contains(attr.index()));
    }
    filter
}

/// How a read of index `index` gets what the index does not project: an LSI fetches from the
/// table within the Query when the pattern returns an attribute outside its projection and key
/// (`used`); a GSI read is followed by a BatchGetItem when the planner planned one.
fn read_fetch(
    spec: &ReadSpec<'_>,
    ent: &EntityRt,
    table: &TableRt,
    index: Option<usize>,
    used: &[usize],
) -> Fetch {
    let lsi_fetch = index.is_some_and(|i| {
        table.indexes[i].kind == IndexKind::Local
            && match &ent.entries[i].as_ref().map(|x| &x.projected) {
                Some(Projected::All) => false,
                Some(Projected::Attrs(attrs)) => match spec.p.returns_ids() {
                    Some(returned) => {
                        returned.iter().map(|a| a.index()).any(|a| !attrs.contains(&a) && !used.contains(&a))
                    }
                    None => true,
                },
                _ => true,
            }
    });
    if lsi_fetch {
        Fetch::Lsi
    } else if spec.plan.fetch.is_some()
        && index.is_some()
        && matches!(spec.engine.profile().index_entries, IndexEntries::KeyAndRecordId { .. })
    {
        Fetch::Documents
    } else if spec.plan.fetch.is_some() && index.is_some_and(|i| table.indexes[i].kind == IndexKind::Global) {
        Fetch::Table
    } else {
        Fetch::No
    }
}

/// The first slot of a sort key that the pattern's inputs do not fill.
pub fn first_unknown(sk: &TemplatePlan, givens: &[usize], equals: &[(usize, Val)]) -> Option<usize> {
    use super::templates::Slot;
    for slot in &sk.slots {
        match slot {
            Slot::Lit(_) => {}
            Slot::Shard { .. } | Slot::Missing => return None,
            Slot::Class { attr, other, .. } => {
                let time = match &**other {
                    Slot::Bucket { attr, .. } => Some(*attr),
                    _ => None,
                };
                for attr in std::iter::once(*attr).chain(time) {
                    if !givens.contains(&attr) && !equals.iter().any(|(a, _)| *a == attr) {
                        return Some(attr);
                    }
                }
                // A class shard reads nothing more: the sort key stops being known here.
                time?;
            }
            Slot::Attr { attr, .. }
            | Slot::Time { attr, .. }
            | Slot::Bucket { attr, .. }
            | Slot::Hash { attr, .. } => {
                if !givens.contains(attr) && !equals.iter().any(|(a, _)| a == attr) {
                    return Some(*attr);
                }
            }
        }
    }
    None
}

/// Whether an attribute's generator makes members of a population (`Pick`/`New`), and which.
#[inline]
pub fn member_pop(generator: &Gen) -> Option<usize> {
    match generator {
        Gen::Pick(p) | Gen::New(p) => Some(*p),
        Gen::Sometimes(_, inner) => member_pop(inner),
        _ => None,
    }
}

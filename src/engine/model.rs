//! The scenario model: what a workload is made of (entities, populations, access patterns), the
//! key schemas under test (variants), and what a good run looks like (goals).
//!
//! These are validated, resolved values: every name a pattern or a variant refers to exists and is
//! resolved, beside the name, to a typed id ([`EntityId`], [`AttrId`], [`PopulationId`],
//! [`PatternId`]) that only `scenario::build` sets; every key template is parsed. The names stay
//! for words, RON and exports; the engine follows the ids. `crate::scenario` builds them from a file and is the only place that
//! knows about RON; the planner and the simulator read them. Nothing here generates data or does
//! arithmetic on rates: that is the planner's and the workload's business.

use std::fmt;

use super::template::{Part, Template};
use super::time::{SimDuration, SimTime};
use super::workload::{Distribution, Popularity, RateShape};

/// Typed positions into the scenario's lists, resolved from the names a file writes once, by
/// `scenario::build` after it has checked them; the planner and the simulator index with them
/// and never look a name up again.
macro_rules! ids {
    ($($(#[$doc:meta])* $id:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $id(usize);

        impl $id {
            pub(crate) fn new(position: usize) -> $id {
                $id(position)
            }

            pub fn index(self) -> usize {
                self.0
            }
        }
    )*};
}

ids! {
    /// An entity: its position in `Scenario::entities`.
    EntityId;
    /// An attribute: its position in its entity's `attributes`.
    AttrId;
    /// A population: its position in `Scenario::populations`.
    PopulationId;
    /// An access pattern: its position in `Scenario::patterns`.
    PatternId;
}

/// One scenario: the story, the data, the access patterns and the key designs to compare.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub title: String,
    pub story: String,
    pub lesson: String,
    /// The store this replay runs on: the file's `engine`, or one its `engines` list names.
    pub engine: Engine,
    /// Every store the file can be replayed on: its own `engine` first, then the others it
    /// lists.
    pub engines: Vec<Engine>,
    pub entities: Vec<Entity>,
    pub populations: Vec<Population>,
    pub patterns: Vec<AccessPattern>,
    pub variants: Vec<Variant>,
    pub workload: Workload,
    pub goals: Vec<Goal>,
    pub practice: Option<Practice>,
}

impl Scenario {
    /// The longest horizon a size goal asks for, if it is longer than the replay: how far the
    /// planner's partition arithmetic must look so `check` warns about what the grade projects.
    pub fn size_horizon(&self) -> Option<crate::engine::time::SimDuration> {
        self.goals.iter().filter_map(|g| g.within).filter(|&h| h > self.workload.duration).max()
    }

    /// The entity named `name`, for callers holding a name a user wrote (exports, the
    /// workbench); the engine follows [`EntityId`]s.
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    /// The population a generator draws from.
    pub fn population(&self, members: &Members) -> &Population {
        &self.populations[members.id.0]
    }

    /// The pattern named `name`, for callers holding a name a user wrote; the engine follows
    /// [`PatternId`]s.
    pub fn pattern(&self, name: &str) -> Option<&AccessPattern> {
        self.patterns.iter().find(|p| p.name == name)
    }

    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    pub fn variant_names(&self) -> Vec<&str> {
        self.variants.iter().map(|v| v.name.as_str()).collect()
    }

    /// The hint a goal links to, as (number, text): `None` outside a practice problem or for a
    /// goal without a link.
    pub fn goal_hint(&self, goal: &Goal) -> Option<(usize, &str)> {
        let number = goal.hint?;
        self.practice.as_ref()?.hint(number).map(|text| (number, text))
    }
}

/// Which database's guidance the numbers are held against. The store always has DynamoDB's
/// semantics; the Cassandra profile changes the partition guidance (~100 MB, ~100,000 rows) and
/// how keys are printed (`PRIMARY KEY ((…), …)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    #[default]
    DynamoDb,
    Cassandra,
    /// Azure Cosmos DB's API for NoSQL: request units, physical partitions that each serve a
    /// share of the container's throughput.
    CosmosDb,
    /// MongoDB: collections of BSON documents, each with its `_id`; no capacity units.
    MongoDb,
}

impl Engine {
    /// Every store keyheat replays on.
    pub const ALL: [Engine; 4] = [Engine::DynamoDb, Engine::Cassandra, Engine::CosmosDb, Engine::MongoDb];

    /// The store whose [`Engine::id`] is `id`.
    pub fn from_id(id: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.id() == id)
    }

    /// The name used in JSON reports and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Engine::DynamoDb => "dynamodb",
            Engine::Cassandra => "cassandra",
            Engine::CosmosDb => "cosmosdb",
            Engine::MongoDb => "mongodb",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::DynamoDb => "DynamoDB",
            Engine::Cassandra => "Cassandra",
            Engine::CosmosDb => "Cosmos DB",
            Engine::MongoDb => "MongoDB",
        })
    }
}

/// A kind of item (User, Message, Reading). In a single-table design several entities share one
/// table; the variant's key templates decide where each one's items land.
#[derive(Debug, Clone)]
pub struct Entity {
    pub name: String,
    /// An item is the one its key names: a put onto a taken key writes that same item again (a
    /// follow edge drawn twice, the latest value of a sensor), so nothing is lost and the key is
    /// not checked for collisions. Otherwise every put makes a new item.
    pub upsert: bool,
    pub attributes: Vec<Attribute>,
    id: EntityId,
}

impl Entity {
    /// An entity at position `id` of the scenario's entities.
    pub(crate) fn new(id: EntityId, name: String, upsert: bool, attributes: Vec<Attribute>) -> Entity {
        Entity { name, upsert, attributes, id }
    }

    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The attribute named `name`, for callers holding a name someone typed or wrote (the
    /// loader's checks, the workbench's editor); the engine follows [`AttrId`]s.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub(crate) fn attribute_id(&self, name: &str) -> Option<AttrId> {
        self.attributes.iter().position(|a| a.name == name).map(AttrId)
    }

    /// The population this entity's items are the members of (its id attribute draws `New` ids
    /// from it), if any: such an entity starts with one item per member.
    pub fn owned_population(&self) -> Option<&Members> {
        self.attributes.iter().find_map(|a| match &a.generator {
            Generator::New(population) => Some(population),
            _ => None,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: String,
    pub ty: AttrType,
    pub generator: Generator,
    /// For `Nth(by)`: the attribute `by` names.
    numbered_by: Option<AttrId>,
}

impl Attribute {
    pub(crate) fn new(name: String, ty: AttrType, generator: Generator) -> Attribute {
        Attribute { name, ty, generator, numbered_by: None }
    }

    /// Resolves `Nth(by)` against the entity's attributes (`scenario::build`, once they exist).
    pub(crate) fn resolve(&mut self, attributes: &[(String, AttrId)]) {
        if let Generator::Nth(by) = &self.generator {
            self.numbered_by = attributes.iter().find(|(name, _)| name == by).map(|&(_, id)| id);
        }
    }

    /// The attribute whose member's items an `Nth` attribute numbers.
    pub fn numbered_by(&self) -> Option<AttrId> {
        self.numbered_by
    }
}

/// Something the scenario file names, once the loader has resolved it: the name as the file
/// wrote it (for words, RON and exports) and its typed id (for the engine). Only the loader
/// makes one. It debug-prints as its name, as the field did before it had an id (warnings quote
/// a generator with `{:?}`: `New("orders")`).
#[derive(Clone, PartialEq, Eq)]
pub struct Named<I> {
    name: String,
    id: I,
}

impl<I: std::marker::Copy> Named<I> {
    pub(crate) fn new(name: String, id: I) -> Named<I> {
        Named { name, id }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn id(&self) -> I {
        self.id
    }
}

impl<I> fmt::Display for Named<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl<I> fmt::Debug for Named<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.name, f)
    }
}

/// The population a `Pick` or `New` generator draws members of.
pub type Members = Named<PopulationId>;

/// An attribute's type. `Time` is stored as N, whole seconds since the Unix epoch (what a TTL
/// attribute holds and what calendar key templates format).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrType {
    S,
    N,
    Time,
    B,
    Bool,
}

impl fmt::Display for AttrType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttrType::S => "S",
            AttrType::N => "N",
            AttrType::Time => "Time",
            AttrType::B => "B",
            AttrType::Bool => "Bool",
        })
    }
}

/// How a written item gets an attribute's value when the access pattern does not give it.
#[derive(Debug, Clone, PartialEq)]
pub enum Generator {
    /// An existing member of the population, chosen by its popularity.
    Pick(Members),
    /// A new member of the population: the population grows by one per write.
    New(Members),
    /// The simulated time of the write (a `Time` attribute).
    Now,
    /// The simulated time of the write plus a fixed lifetime (an expiry).
    NowPlus(SimDuration),
    /// Always this text.
    Text(String),
    /// One of these values, each with its weight (weights need not sum to 1).
    OneOf(Vec<(String, f64)>),
    /// A number drawn from the distribution.
    Number(Distribution),
    /// Filler of this many bytes (an S of ASCII letters or a B).
    Payload(u32),
    /// `true` with this probability.
    Chance(f64),
    /// Present on this share of items, absent on the rest (what makes a sparse index sparse).
    Sometimes(f64, Box<Generator>),
    /// The item's number among the items written with the same value of this attribute (a
    /// member of a population): 1 for the first, 2 for the next — the lines of one order.
    Nth(String),
    /// A lifecycle, in order (PLACED → SHIPPED → DELIVERED): a new item holds the first state,
    /// and an update that `sets` the attribute advances it to the next rather than drawing a
    /// value afresh, so it always changes — except at the final state, which an item keeps (an
    /// update of a delivered order leaves its status as it is). At least two distinct states.
    States(Vec<String>),
}

/// A set of ids (sensors, customers): how many, what they look like, and how popular each is.
#[derive(Debug, Clone)]
pub struct Population {
    pub name: String,
    /// Members at the start of the workload.
    pub count: u64,
    /// How an id is written: `{}` is the member's index, `{:05}` the index zero-padded to 5.
    pub id_format: String,
    /// How often each member is picked (index 0 is the most popular where the shape has one).
    pub popularity: Popularity,
    /// Members added per simulated day, besides those `New` writes create.
    pub growth_per_day: f64,
    /// `count` is a guess someone must still set (an imported model does not say it).
    pub guess: bool,
    id: PopulationId,
}

impl Population {
    /// A population at position `id` of the scenario's populations: uniformly popular, not
    /// growing, not a guess until the loader sets what the file says.
    pub(crate) fn new(id: PopulationId, name: String, count: u64, id_format: String) -> Population {
        Population {
            name,
            count,
            id_format,
            popularity: Popularity::Uniform,
            growth_per_day: 0.0,
            guess: false,
            id,
        }
    }

    /// Its position in the scenario's populations.
    pub fn population_id(&self) -> PopulationId {
        self.id
    }

    /// The id of member `index`, following `id_format`.
    pub fn id(&self, index: u64) -> String {
        format_id(&self.id_format, index)
    }
}

/// Replaces the first `{}` or `{:0N}` in `format` by `index` (zero-padded to N digits).
pub fn format_id(format: &str, index: u64) -> String {
    let Some(open) = format.find('{') else {
        return format!("{format}{index}");
    };
    let Some(close) = format[open..].find('}').map(|c| open + c) else {
        return format!("{format}{index}");
    };
    let spec = &format[open + 1..close];
    let width = spec.strip_prefix(":0").and_then(|w| w.parse::<usize>().ok()).unwrap_or(0);
    format!("{}{index:0width$}{}", &format[..open], &format[close + 1..])
}

/// The member index an id written with `format` stands for (`"ch-0007"` in `"ch-{:04}"` is 7), or
/// `None` when no member's id looks like that.
pub fn parse_id(format: &str, id: &str) -> Option<u64> {
    let open = format.find('{')?;
    let close = format[open..].find('}').map(|c| open + c)?;
    let digits = id.strip_prefix(&format[..open])?.strip_suffix(&format[close + 1..])?;
    let spec = &format[open + 1..close];
    let width = spec.strip_prefix(":0").and_then(|w| w.parse::<usize>().ok()).unwrap_or(0);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits.len() == width.max(1) || (digits.len() > width && !digits.starts_with('0')));
    if canonical { digits.parse().ok() } else { None }
}

/// Whether `format` is a valid population id format (see [`format_id`]).
pub fn id_format_is_valid(format: &str) -> bool {
    let Some(open) = format.find('{') else { return false };
    let Some(close) = format[open..].find('}').map(|c| open + c) else { return false };
    let spec = &format[open + 1..close];
    let spec_ok = spec.is_empty() || spec.strip_prefix(":0").is_some_and(|w| w.parse::<u8>().is_ok());
    spec_ok && !format[close + 1..].contains(['{', '}']) && !format[..open].contains('}')
}

/// What a pattern does to the entity's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Read one item by its identity.
    Get,
    /// Read a set of items ("orders of a customer", "readings of the last 24 hours").
    List,
    Put,
    Update,
    Delete,
}

impl Action {
    pub fn is_read(self) -> bool {
        matches!(self, Action::Get | Action::List)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Get => "get",
            Action::List => "list",
            Action::Put => "put",
            Action::Update => "update",
            Action::Delete => "delete",
        })
    }
}

/// One thing the application does, at a rate. The planner decides how the schema serves it; the
/// simulator replays it.
#[derive(Debug, Clone)]
pub struct AccessPattern {
    pub name: String,
    pub description: String,
    pub action: Action,
    pub entity: String,
    /// Other entities read in the same request ("customer with orders").
    pub with: Vec<String>,
    /// Attributes the caller knows (equality inputs); for writes, the item's identity.
    pub given: Vec<String>,
    /// Attributes compared with a constant (`status = "PENDING"`).
    pub equals: Vec<(String, String)>,
    /// The attribute the pattern ranges or orders over, and how far.
    pub range: Option<Range>,
    pub order: Order,
    pub limit: Option<u32>,
    /// For updates: the attributes the update changes.
    pub sets: Vec<String>,
    /// The attributes the reader needs back; `None` is the whole item.
    pub returns: Option<Vec<String>>,
    /// A "text contains a word" predicate on this attribute, which no key can serve.
    pub contains: Option<String>,
    /// Calls per second before the shapes: the simulator's rate is this times every shape's
    /// factor at the moment (so a `Diurnal` pattern averages more than `rate`).
    pub rate: f64,
    /// The rate is `rate` times each shape's factor (a daily cycle, a spike).
    pub shapes: Vec<RateShape>,
    /// Which member of the first given attribute's population each call picks; `None` follows the
    /// population's popularity.
    pub keys: Option<Popularity>,
    pub latency_target_ms: Option<f64>,
    /// `rate` is a guess someone must still set (an imported model does not say it).
    pub guess: bool,
    /// A ConditionExpression the write sends: create-once, or an optimistic version check.
    pub condition: Option<Condition>,
    /// The expiry this write sets: the variant's TTL attribute = the write's time + this. A put
    /// creates an item that lives this long; an update that touches an item pushes its expiry
    /// out again (a sliding expiry, a session kept alive by use).
    pub ttl: Option<crate::engine::time::SimDuration>,
    /// The call is one transaction: a write and the aggregate items it maintains in one
    /// TransactWriteItems (all or nothing, each item written twice: prepare and commit), a Get in
    /// one TransactGetItems (each item read twice, strongly consistent).
    pub transaction: bool,
    /// What the names above resolve to, set by `scenario::build` (a clone keeps them).
    pub ids: PatternIds,
}

/// The ids a pattern's names resolve to, in the same order as the names: its entity and the
/// entities read `with` it, and the positions of the attributes it gives, compares, ranges over,
/// sets, returns, searches and versions, in its entity. Only `scenario::build` makes them
/// (through [`AccessPattern::resolve`]); the pattern's own derivations keep them in step.
#[derive(Debug, Clone)]
pub struct PatternIds {
    id: PatternId,
    entity: EntityId,
    with: Vec<EntityId>,
    given: Vec<AttrId>,
    equals: Vec<AttrId>,
    range: Option<AttrId>,
    sets: Vec<AttrId>,
    returns: Option<Vec<AttrId>>,
    contains: Option<AttrId>,
    version: Option<AttrId>,
    /// The read of each entity alone (`part`), for the entities that have one, own first.
    parts: Vec<AccessPattern>,
    /// For a part: the pattern's givens this entity has too, as (attribute of the pattern's
    /// entity, attribute of this one); a call's values carry over along them.
    carried: Vec<(AttrId, AttrId)>,
}

impl PatternIds {
    /// Ids for a pattern not resolved yet: `scenario::build` resolves it before anyone reads them.
    pub(crate) fn unresolved() -> PatternIds {
        PatternIds {
            id: PatternId(usize::MAX),
            entity: EntityId(usize::MAX),
            with: Vec::new(),
            given: Vec::new(),
            equals: Vec::new(),
            range: None,
            sets: Vec::new(),
            returns: None,
            contains: None,
            version: None,
            parts: Vec::new(),
            carried: Vec::new(),
        }
    }
}

/// The condition a write pattern puts on its request. DynamoDB evaluates it against the item
/// stored at the key and refuses the write with ConditionalCheckFailedException when it is
/// false — charging write capacity all the same (AWS developer guide, "Condition expressions").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// `attribute_not_exists(PK)` on a put: the item is created once; a put onto a key another
    /// item holds fails instead of replacing it (a uniqueness check, a seat booked once).
    NotExists,
    /// Optimistic concurrency on an update: the caller reads the item, then writes it on
    /// condition that this number attribute still holds what it read (`version = :read`),
    /// adding 1 to it. A write that lands between the read and the update makes it fail; the
    /// caller reads again and retries.
    Version(String),
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::NotExists => f.write_str("attribute_not_exists(PK)"),
            Condition::Version(attribute) => {
                write!(f, "{attribute} = :read, SET {attribute} = {attribute} + 1")
            }
        }
    }
}

impl AccessPattern {
    /// Resolves the pattern's names against the scenario's entities, once their names are
    /// checked (`scenario::build`); `id` is the pattern's position.
    pub(crate) fn resolve(&mut self, id: PatternId, entities: &[Entity]) {
        let entity_id = |name: &str| entities.iter().position(|e| e.name == name).map(EntityId);
        let Some(own) = entity_id(&self.entity) else { return };
        let with: Vec<EntityId> = self.with.iter().filter_map(|w| entity_id(w)).collect();
        self.ids = self.ids_in(&entities[own.0]);
        self.ids.id = id;
        self.ids.with.clone_from(&with);
        self.ids.parts = std::iter::once(own)
            .chain(with)
            .filter_map(|e| {
                let mut part = self.part_named(&entities[e.0])?;
                part.ids = part.ids_in(&entities[e.0]);
                part.ids.id = id;
                let (from, to) = (&entities[own.0], &entities[e.0]);
                part.ids.carried = self
                    .given
                    .iter()
                    .filter_map(|g| Some((from.attribute_id(g)?, to.attribute_id(g)?)))
                    .collect();
                Some(part)
            })
            .collect();
    }

    /// The ids of the pattern's attributes in `entity` (the pattern's own, or a part's).
    fn ids_in(&self, entity: &Entity) -> PatternIds {
        let attr = |name: &str| entity.attribute_id(name);
        let all = |names: &[String]| names.iter().filter_map(|n| attr(n)).collect::<Vec<_>>();
        PatternIds {
            id: self.ids.id,
            entity: entity.id,
            with: Vec::new(),
            given: all(&self.given),
            equals: self.equals.iter().filter_map(|(a, _)| attr(a)).collect(),
            range: self.range.as_ref().and_then(|r| attr(&r.attribute)),
            sets: all(&self.sets),
            returns: self.returns.as_deref().map(all),
            contains: self.contains.as_deref().and_then(attr),
            version: match &self.condition {
                Some(Condition::Version(name)) => attr(name),
                _ => None,
            },
            parts: Vec::new(),
            carried: Vec::new(),
        }
    }

    pub fn id(&self) -> PatternId {
        self.ids.id
    }

    pub fn entity_id(&self) -> EntityId {
        self.ids.entity
    }

    /// The entities read `with` the pattern's own, in order.
    pub fn with_ids(&self) -> &[EntityId] {
        &self.ids.with
    }

    pub fn given_ids(&self) -> &[AttrId] {
        &self.ids.given
    }

    /// The attributes of `equals`, in order.
    pub fn equals_ids(&self) -> &[AttrId] {
        &self.ids.equals
    }

    pub fn range_id(&self) -> Option<AttrId> {
        self.ids.range
    }

    pub fn sets_ids(&self) -> &[AttrId] {
        &self.ids.sets
    }

    pub fn returns_ids(&self) -> Option<&[AttrId]> {
        self.ids.returns.as_deref()
    }

    pub fn contains_id(&self) -> Option<AttrId> {
        self.ids.contains
    }

    /// For a part (`part`): the pattern's givens its entity has too, as (attribute of the
    /// pattern's entity, attribute of the part's).
    pub fn carried_ids(&self) -> &[(AttrId, AttrId)] {
        &self.ids.carried
    }

    /// The number attribute a `Version` condition checks.
    pub fn version_id(&self) -> Option<AttrId> {
        self.ids.version
    }

    /// Every entity the pattern touches, its own first.
    pub fn entities(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.entity.as_str()).chain(self.with.iter().map(String::as_str))
    }

    /// The ids of `entities`, in the same order.
    pub fn entity_ids(&self) -> impl Iterator<Item = EntityId> + '_ {
        std::iter::once(self.ids.entity).chain(self.ids.with.iter().copied())
    }

    /// The pattern as `variant` serves it: an entity read `with` this one that the variant embeds
    /// in this one's items comes with them, so it is no longer a read of its own.
    pub fn as_served_by(&self, variant: &Variant) -> std::borrow::Cow<'_, AccessPattern> {
        let embedded = |w: EntityId| variant.embed_of(w).is_some_and(|e| e.into_id() == self.ids.entity);
        if !self.ids.with.iter().any(|&w| embedded(w)) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut served = self.clone();
        let kept: Vec<bool> = self.ids.with.iter().map(|&w| !embedded(w)).collect();
        let mut keep = kept.iter().copied();
        served.with.retain(|_| keep.next().unwrap_or(true));
        let mut keep = kept.iter().copied();
        served.ids.with.retain(|_| keep.next().unwrap_or(true));
        std::borrow::Cow::Owned(served)
    }

    /// The read of `entity` alone that a `with` pattern becomes when its entities live in
    /// different partitions: the inputs `entity` has (its own givens, constants and range), the
    /// same order and limit. `None` when `entity` has none of the pattern's givens: nothing then
    /// says which of its items belong to the call.
    pub fn part(&self, entity: &Entity) -> Option<AccessPattern> {
        self.ids.parts.iter().find(|p| p.ids.entity == entity.id).cloned()
    }

    /// `part`, by names: what `resolve` computes once.
    fn part_named(&self, entity: &Entity) -> Option<AccessPattern> {
        let has = |name: &str| entity.attribute(name).is_some();
        let given: Vec<String> = self.given.iter().filter(|g| has(g)).cloned().collect();
        if given.is_empty() {
            return None;
        }
        Some(AccessPattern {
            entity: entity.name.clone(),
            with: Vec::new(),
            given,
            equals: self.equals.iter().filter(|(a, _)| has(a)).cloned().collect(),
            range: self.range.clone().filter(|r| has(&r.attribute)),
            returns: self.returns.as_ref().map(|r| r.iter().filter(|a| has(a)).cloned().collect()),
            contains: self.contains.clone().filter(|c| has(c)),
            ids: PatternIds::unresolved(),
            ..self.clone()
        })
    }

    /// The read an update or delete sends first when its key cannot be computed from what it
    /// gives: a Get of the same entity by the same givens and constants, at the same rate, that
    /// needs only the item's key back (every index projects the table's key attributes).
    pub fn locating(&self) -> AccessPattern {
        AccessPattern {
            action: Action::Get,
            with: Vec::new(),
            range: None,
            order: Order::default(),
            limit: None,
            sets: Vec::new(),
            returns: Some(Vec::new()),
            contains: None,
            condition: None,
            ttl: None,
            transaction: false,
            ids: PatternIds {
                with: Vec::new(),
                range: None,
                sets: Vec::new(),
                returns: Some(Vec::new()),
                contains: None,
                version: None,
                parts: Vec::new(),
                ..self.ids.clone()
            },
            ..self.clone()
        }
    }

    /// Whether the attribute's value is known to the caller (given or compared with a constant).
    pub fn knows(&self, attribute: &str) -> bool {
        self.given.iter().any(|g| g == attribute) || self.equals.iter().any(|(a, _)| a == attribute)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    pub attribute: String,
    pub span: RangeSpan,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RangeSpan {
    /// The most recent stretch of time (a `Time` attribute): `Last(24h)`.
    Last(SimDuration),
    /// Values starting with this text.
    BeginsWith(String),
    /// Every value, in order.
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

/// A key design over the scenario's entities.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub description: String,
    pub capacity: Capacity,
    /// The container's throughput on Cosmos DB, as the file states it; `None`: not stated
    /// ([`Variant::cosmos_throughput`]).
    pub throughput: Option<crate::engine::profile::cosmos::Throughput>,
    /// The table's key attribute names (`PK`, `SK` in a single-table design).
    pub table_pk: String,
    pub table_sk: Option<String>,
    /// Per entity, where its items land in the table.
    pub keys: Vec<EntityKeys>,
    pub indexes: Vec<Index>,
    pub ttl: Option<Ttl>,
    pub copies: Vec<Copy>,
    pub aggregates: Vec<Aggregate>,
    pub embeds: Vec<Embed>,
    /// A read-through cache in front of some read patterns (DAX's item cache), if any.
    pub cache: Option<ReadCache>,
    /// MongoDB: one collection sharded across several shards, if any
    /// (`profile::sharding`'s rules).
    pub sharding: Option<Sharding>,
}

/// A collection sharded by its partition key: the documents of `entity` go to ranges of the
/// key's values (or of their hashes), which live on `shards` shards and which the balancer
/// moves between them (`profile::sharding`).
#[derive(Debug, Clone, PartialEq)]
pub struct Sharding {
    /// The sharded collection's entity; the shard key is its `pk` template.
    pub entity: String,
    pub entity_id: EntityId,
    pub shards: u32,
    pub strategy: crate::engine::profile::sharding::Strategy,
    /// The range (chunk) size: what the balancer moves at once, and past which a range of one
    /// key value is jumbo.
    pub range_bytes: u64,
}

impl Variant {
    /// Resolves the names the variant's keys, TTL, copies, aggregates, embeds and cache use,
    /// once they are checked (`scenario::build`).
    pub(crate) fn resolve(&mut self, entities: &[Entity], patterns: &[AccessPattern]) {
        let entity = |name: &str| entities.iter().find(|e| e.name == name);
        let entity_id = |name: &str| entity(name).map_or(EntityId(usize::MAX), |e| e.id);
        let attr = |e: &str, name: &str| entity(e).and_then(|e| e.attribute_id(name));
        let pattern_ids = |names: &[String]| -> Vec<PatternId> {
            names.iter().filter_map(|n| patterns.iter().position(|p| &p.name == n)).map(PatternId).collect()
        };
        for keys in self.keys.iter_mut().chain(self.indexes.iter_mut().flat_map(|i| i.keys.iter_mut())) {
            keys.entity_id = entity_id(&keys.entity);
        }
        if let Some(sharding) = &mut self.sharding {
            sharding.entity_id = entity_id(&sharding.entity);
        }
        if let Some(ttl) = &mut self.ttl {
            ttl.ids.entities = ttl.entities.iter().map(|e| entity_id(e)).collect();
        }
        for c in &mut self.copies {
            c.ids = CopyIds {
                from: entity_id(&c.from),
                to: entity_id(&c.to),
                attribute: attr(&c.from, &c.attribute),
                by: attr(&c.to, &c.by),
                by_on_source: attr(&c.from, &c.by),
                numbered_by: None,
            };
        }
        for a in &mut self.aggregates {
            let on = pattern_ids(&a.on);
            let folded_name = match &a.op {
                AggregateOp::Count => None,
                AggregateOp::Sum(name) => Some(name.as_str()),
                AggregateOp::Claim => Some(a.attribute.as_str()),
            };
            let folded =
                (on.iter()).map(|p| folded_name.and_then(|name| attr(&patterns[p.0].entity, name))).collect();
            a.ids = AggregateIds {
                entity: entity_id(&a.entity),
                attribute: attr(&a.entity, &a.attribute),
                on,
                folded,
            };
        }
        for e in &mut self.embeds {
            e.ids = EmbedIds {
                entity: entity_id(&e.entity),
                into: entity_id(&e.into),
                by: attr(&e.entity, &e.by),
            };
        }
        if let Some(ttl) = &mut self.ttl {
            // An item has one attribute per name: a copy landing as the TTL attribute is it.
            let copied = |e: &EntityId| {
                (self.copies.iter())
                    .position(|c| c.ids.to == *e && c.as_name == ttl.attribute && c.ids.attribute.is_some())
            };
            ttl.ids.copies = ttl.ids.entities.iter().map(copied).collect();
        }
        if let Some(cache) = &mut self.cache {
            cache.ids.patterns = pattern_ids(&cache.patterns);
        }
        self.resolve_indexes(entities);
        self.bind_keys(entities, patterns);
        self.bind_copied_numbers(entities);
    }

    /// Each index's entries: the entity each key indexes, its sparse attribute and the
    /// attributes it projects.
    fn resolve_indexes(&mut self, entities: &[Entity]) {
        let index_ids: Vec<IndexIds> = (self.indexes.iter())
            .map(|index| IndexIds {
                entries: (index.keys.iter())
                    .filter_map(|k| entities.get(k.entity_id.0))
                    .map(|e| IndexEntryIds {
                        entity: e.id,
                        only_when: index.only_when.as_ref().and_then(|(name, _)| e.attribute_id(name)),
                        include: match &index.projection {
                            Projection::Include(names) => {
                                names.iter().filter_map(|n| self.item_attr(e, n)).collect()
                            }
                            Projection::KeysOnly | Projection::All => Vec::new(),
                        },
                    })
                    .collect(),
            })
            .collect();
        for (index, ids) in self.indexes.iter_mut().zip(index_ids) {
            index.ids = ids;
        }
    }

    /// What `name` is on `entity`'s items in this variant, once the copies, TTL and embeds are
    /// resolved: the first so named of its own attributes, the copies landing on it, the TTL
    /// attribute and the lists embedded in it — the order the simulator lays an item out in.
    pub(crate) fn item_attr(&self, entity: &Entity, name: &str) -> Option<ItemAttr> {
        if let Some(a) = entity.attribute_id(name) {
            return Some(ItemAttr::Own(a));
        }
        let copy = self.copies.iter().position(|c| c.ids.to == entity.id && c.as_name == name);
        let ttl = self.ttl.as_ref().filter(|t| t.covers(entity.id) && t.attribute == name);
        let list = self.embeds.iter().position(|e| e.ids.into == entity.id && e.as_name == name);
        copy.map(ItemAttr::Copy).or(ttl.map(|_| ItemAttr::Ttl)).or(list.map(ItemAttr::List))
    }

    /// Binds the slots of every table and index key template to what they read on the entity's
    /// items, and on the items of the entities whose writes land under them (`on_others`). Last
    /// in `resolve`: `item_attr` reads the copies', TTL's and embeds' resolved entities.
    fn bind_keys(&mut self, entities: &[Entity], patterns: &[AccessPattern]) {
        let bound: Vec<KeySlots> = (self.keys.iter().chain(self.indexes.iter().flat_map(|i| &i.keys)))
            .map(|keys| match entities.iter().find(|e| e.name == keys.entity) {
                Some(e) => KeySlots {
                    pk: self.bind(e, &keys.pk),
                    sk: keys.sk.as_ref().map_or_else(Vec::new, |sk| self.bind(e, sk)),
                },
                None => KeySlots::default(),
            })
            .collect();
        let all_keys = self.keys.iter_mut().chain(self.indexes.iter_mut().flat_map(|i| i.keys.iter_mut()));
        for (keys, slots) in all_keys.zip(bound) {
            keys.slots = slots;
        }
        let others: Vec<Vec<(EntityId, KeySlots)>> =
            (self.keys.iter().chain(self.indexes.iter().flat_map(|i| &i.keys)))
                .map(|keys| self.bind_on_others(keys, entities, patterns))
                .collect();
        let all_keys = self.keys.iter_mut().chain(self.indexes.iter_mut().flat_map(|i| i.keys.iter_mut()));
        for (keys, on_others) in all_keys.zip(others) {
            keys.on_others = on_others;
        }
    }

    /// For a copy of an `Nth(by)` attribute: the holder's attribute named `by`, which numbers
    /// the copies as the source's numbers its items. After the copies are resolved:
    /// `item_attr` reads them.
    fn bind_copied_numbers(&mut self, entities: &[Entity]) {
        let numbered: Vec<Option<ItemAttr>> = (self.copies.iter())
            .map(|c| {
                let from = entities.get(c.ids.from.index())?;
                let holder = entities.get(c.ids.to.index())?;
                let mut generator = &from.attributes.get(c.ids.attribute?.index())?.generator;
                while let Generator::Sometimes(_, inner) = generator {
                    generator = inner;
                }
                match generator {
                    Generator::Nth(by) => self.item_attr(holder, by),
                    _ => None,
                }
            })
            .collect();
        for (c, numbered_by) in self.copies.iter_mut().zip(numbered) {
            c.ids.numbered_by = numbered_by;
        }
    }

    /// `keys` bound on the items of each entity whose writes land under them: the triggers of an
    /// aggregate of the keyed entity, and the children appended to it as a list.
    fn bind_on_others(
        &self,
        keys: &EntityKeys,
        entities: &[Entity],
        patterns: &[AccessPattern],
    ) -> Vec<(EntityId, KeySlots)> {
        let triggers = (self.aggregates.iter().filter(|a| a.entity == keys.entity))
            .flat_map(|a| &a.on)
            .filter_map(|name| patterns.iter().find(|p| &p.name == name))
            .map(|p| p.entity.as_str());
        let children = self.embeds.iter().filter(|e| e.into == keys.entity).map(|e| e.entity.as_str());
        let mut bound: Vec<(EntityId, KeySlots)> = Vec::new();
        for e in triggers.chain(children).filter_map(|name| entities.iter().find(|e| e.name == name)) {
            if bound.iter().all(|(id, _)| *id != e.id) {
                let sk = keys.sk.as_ref().map_or_else(Vec::new, |sk| self.bind(e, sk));
                bound.push((e.id, KeySlots { pk: self.bind(e, &keys.pk), sk }));
            }
        }
        bound
    }

    /// What each part of `template` reads on `entity`'s items, in the template's order.
    fn bind(&self, entity: &Entity, template: &Template) -> Vec<SlotAttrs> {
        let attr = |name: &str| self.item_attr(entity, name);
        let slot = |part: &Part| SlotAttrs {
            reads: part.attribute().and_then(attr),
            by: part.class().and_then(|c| attr(&c.by)),
        };
        template.parts().iter().map(slot).collect()
    }

    /// The table keys of entity `entity`, if it has items in the table.
    pub fn keys_for(&self, entity: EntityId) -> Option<&EntityKeys> {
        self.keys.iter().find(|k| k.entity_id == entity)
    }

    /// How entity `entity` is embedded in another entity's items, if it is.
    pub fn embed_of(&self, entity: EntityId) -> Option<&Embed> {
        self.embeds.iter().find(|e| e.ids.entity == entity)
    }

    /// The list whose elements `index` keys, when it is a multikey index: its keys name an
    /// entity embedded whole in another's documents, so it holds one entry per distinct key
    /// value in each parent's list, pointing at the parent (MongoDB manual, "Multikey Indexes":
    /// "MongoDB creates an index key for each unique element in the array … If an array
    /// contains multiple instances of the same value, the index only includes one entry").
    /// Only MongoDB has one; the loader refuses it on every other store.
    pub fn multikey_of(&self, index: &Index) -> Option<&Embed> {
        index.keys.iter().find_map(|k| self.embed_of(k.entity_id).filter(|e| e.keep_latest.is_none()))
    }

    /// Whether `entity` lives only inside its parent's items (no items of its own).
    pub fn embedded_whole(&self, entity: EntityId) -> bool {
        self.embed_of(entity).is_some_and(|e| e.keep_latest.is_none())
    }

    /// The cache in front of `pattern`'s reads, if the variant declares one for it.
    pub fn cache_for(&self, pattern: PatternId) -> Option<&ReadCache> {
        self.cache.as_ref().filter(|c| c.serves(pattern))
    }

    /// The table keys of the entity named `entity`, for tests that name what they check.
    #[cfg(test)]
    pub fn keys_named(&self, entity: &str) -> Option<&EntityKeys> {
        self.keys.iter().find(|k| k.entity == entity)
    }

    /// The container's throughput on Cosmos DB: as stated, else 400 RU/s manual, the least a
    /// container is given ("Azure Cosmos DB service quotas") — keyheat's default, since a file
    /// that does not state it has no other figure to go by.
    pub fn cosmos_throughput(&self) -> crate::engine::profile::cosmos::Throughput {
        use crate::engine::profile::cosmos::{MIN_MANUAL_RU_PER_S, Throughput};
        self.throughput.unwrap_or(Throughput::Manual(MIN_MANUAL_RU_PER_S))
    }

    /// The index named `name`, for callers holding a name from outside the variant (a request
    /// of the replay's trace, the console); the engine follows positions.
    pub fn index(&self, name: &str) -> Option<&Index> {
        self.indexes.iter().find(|i| i.name == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Capacity {
    #[default]
    OnDemand,
    Provisioned {
        read: u32,
        write: u32,
    },
}

/// An entity's key templates in the table or in one index.
#[derive(Debug, Clone)]
pub struct EntityKeys {
    pub entity: String,
    pub pk: Template,
    pub sk: Option<Template>,
    entity_id: EntityId,
    slots: KeySlots,
    /// The templates bound on the items of other entities whose writes land under these keys:
    /// an aggregate's triggers, a list parent's appended children.
    on_others: Vec<(EntityId, KeySlots)>,
}

/// What the slots of an entity's key templates read, bound once by `Variant::resolve`: one entry
/// per part of `pk` and of `sk`, in order.
#[derive(Debug, Clone, Default)]
struct KeySlots {
    pk: Vec<SlotAttrs>,
    sk: Vec<SlotAttrs>,
}

/// The attributes one part of a key template reads on the entity's items: `reads` for a slot
/// naming an attribute (a class slot: the one its cases read), `by` for a class slot's class
/// attribute. `None` where the part reads nothing or the items carry no attribute so named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SlotAttrs {
    pub reads: Option<ItemAttr>,
    pub by: Option<ItemAttr>,
}

impl SlotAttrs {
    /// Every attribute the part reads: a class slot's class attribute, then its own (as
    /// [`Part::reads`] names them).
    pub fn all(self) -> impl Iterator<Item = ItemAttr> {
        self.by.into_iter().chain(self.reads)
    }
}

impl EntityKeys {
    /// Keys of the entity named `entity`; `Variant::resolve` gives them its id and binds their
    /// slots.
    pub(crate) fn new(entity: String, pk: Template, sk: Option<Template>) -> EntityKeys {
        let unresolved = EntityId(usize::MAX);
        EntityKeys {
            entity,
            pk,
            sk,
            entity_id: unresolved,
            slots: KeySlots::default(),
            on_others: Vec::new(),
        }
    }

    pub fn entity_id(&self) -> EntityId {
        self.entity_id
    }

    /// What each part of `pk` reads, in its order.
    pub fn pk_slots(&self) -> &[SlotAttrs] {
        &self.slots.pk
    }

    /// What each part of `sk` reads, in its order (empty without a sort key).
    pub fn sk_slots(&self) -> &[SlotAttrs] {
        &self.slots.sk
    }

    /// The partition key template with what its parts read.
    pub fn pk_bound(&self) -> Bound<'_> {
        Bound { entity: self.entity_id, template: &self.pk, slots: &self.slots.pk }
    }

    /// The partition key template with what its parts read on the items of `other`, an entity
    /// whose writes land under these keys (an aggregate's trigger, a list's appended child).
    pub fn pk_bound_on(&self, other: EntityId) -> Option<Bound<'_>> {
        let (_, slots) = self.on_others.iter().find(|(e, _)| *e == other)?;
        Some(Bound { entity: other, template: &self.pk, slots: &slots.pk })
    }

    /// The sort key template with what its parts read, if there is one.
    pub fn sk_bound(&self) -> Option<Bound<'_>> {
        self.sk.as_ref().map(|template| Bound { entity: self.entity_id, template, slots: &self.slots.sk })
    }

    /// The sort key template with what its parts read on the items of `other` (as
    /// [`EntityKeys::pk_bound_on`]), if there is one.
    pub fn sk_bound_on(&self, other: EntityId) -> Option<Bound<'_>> {
        let (_, slots) = self.on_others.iter().find(|(e, _)| *e == other)?;
        self.sk.as_ref().map(|template| Bound { entity: other, template, slots: &slots.sk })
    }
}

/// A key template with what each of its parts reads on one entity's items, so that whoever
/// reasons about the template's values finds each slot's attribute by id, not by name. The ids
/// are that entity's: whoever reads them reads them on `entity`'s items, never another's.
#[derive(Debug, Clone, Copy)]
pub struct Bound<'a> {
    /// The entity whose items the slots are bound on.
    pub entity: EntityId,
    pub template: &'a Template,
    /// One entry per part of `template`, in order.
    pub slots: &'a [SlotAttrs],
}

impl<'a> Bound<'a> {
    /// Each part of the template with what it reads (nothing, past the bound slots).
    pub fn parts(self) -> impl Iterator<Item = (&'a Part, SlotAttrs)> {
        let unbound = std::iter::repeat(SlotAttrs::default());
        self.template.parts().iter().zip(self.slots.iter().copied().chain(unbound))
    }
}

#[derive(Debug, Clone)]
pub struct Index {
    pub name: String,
    pub kind: IndexKind,
    /// The index's key attribute names (for an LSI, `pk_attribute` is the table's).
    pub pk_attribute: String,
    pub sk_attribute: Option<String>,
    /// Per entity in the index. An LSI's `pk` is a copy of the table's for that entity.
    pub keys: Vec<EntityKeys>,
    pub projection: Projection,
    /// The application writes this index's key attributes only on items where this attribute has
    /// this value: the index is sparse and holds only those items.
    pub only_when: Option<(String, String)>,
    /// What `only_when` and the projection name in each entity (`Variant::resolve`).
    pub ids: IndexIds,
}

/// An index's names resolved per entity: one `only_when` or INCLUDE name is a different
/// attribute of each entity in the index.
#[derive(Debug, Clone, Default)]
pub struct IndexIds {
    entries: Vec<IndexEntryIds>,
}

#[derive(Debug, Clone)]
struct IndexEntryIds {
    entity: EntityId,
    only_when: Option<AttrId>,
    include: Vec<ItemAttr>,
}

/// An attribute an entity's items carry in a variant: one of its own, or one the variant adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemAttr {
    Own(AttrId),
    /// The attribute copy `i` of `Variant::copies` lands as.
    Copy(usize),
    /// The variant's TTL attribute.
    Ttl,
    /// The list embed `i` of `Variant::embeds` appends to.
    List(usize),
}

impl Index {
    /// The attribute of `entity` whose value `only_when` tests.
    pub fn only_when_id(&self, entity: EntityId) -> Option<AttrId> {
        self.entry_ids(entity)?.only_when
    }

    /// The attributes of `entity`'s items an INCLUDE projection names, in its order (the names
    /// the entity's items do not carry left out).
    pub fn include_ids(&self, entity: EntityId) -> &[ItemAttr] {
        self.entry_ids(entity).map_or(&[], |e| e.include.as_slice())
    }

    fn entry_ids(&self, entity: EntityId) -> Option<&IndexEntryIds> {
        self.ids.entries.iter().find(|e| e.entity == entity)
    }

    /// The index keys of entity `entity`, if its items have entries in the index.
    pub fn keys_for(&self, entity: EntityId) -> Option<&EntityKeys> {
        self.keys.iter().find(|k| k.entity_id == entity)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    Global,
    Local,
}

impl IndexKind {
    pub fn short(self) -> &'static str {
        match self {
            IndexKind::Global => "GSI",
            IndexKind::Local => "LSI",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    KeysOnly,
    Include(Vec<String>),
    All,
}

impl Projection {
    /// Whether an entry carries the attribute (key attributes are always carried).
    pub fn carries(&self, attribute: &str) -> bool {
        match self {
            Projection::KeysOnly => false,
            Projection::Include(names) => names.iter().any(|n| n == attribute),
            Projection::All => true,
        }
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Projection::KeysOnly => f.write_str("KEYS_ONLY"),
            Projection::Include(names) => write!(f, "INCLUDE {}", names.join(", ")),
            Projection::All => f.write_str("ALL"),
        }
    }
}

/// Items of these entities get `attribute` = write time + `lifetime`; the store deletes them
/// some time after that.
#[derive(Debug, Clone)]
pub struct Ttl {
    pub attribute: String,
    pub lifetime: SimDuration,
    pub entities: Vec<String>,
    /// What `entities` resolve to (`Variant::resolve`).
    pub ids: TtlIds,
}

#[derive(Debug, Clone, Default)]
pub struct TtlIds {
    entities: Vec<EntityId>,
    /// Per entity of `entities`: the copy (in `Variant::copies`) landing as the TTL attribute.
    copies: Vec<Option<usize>>,
}

impl Ttl {
    pub fn covers(&self, entity: EntityId) -> bool {
        self.ids.entities.contains(&entity)
    }

    /// The copy of `Variant::copies` that lands on `entity`'s items under the TTL attribute's
    /// name, if any: the TTL attribute is then that copy.
    pub fn copy_on(&self, entity: EntityId) -> Option<usize> {
        let i = self.ids.entities.iter().position(|&e| e == entity)?;
        self.ids.copies.get(i).copied().flatten()
    }
}

/// A read-through item cache in front of the reads of `patterns`, modelled on DynamoDB
/// Accelerator (DAX). What AWS documents ("DAX: How it works", "DAX and DynamoDB consistency
/// models", "Configuring your DAX cluster"): GetItem and BatchGetItem are answered from the item
/// cache when the item is there and not expired — a hit consumes no table read capacity — and a
/// miss is passed to DynamoDB, charged as usual, and its result stored; entries live for the
/// item TTL (default 5 minutes) and, when the node's memory is full, the least recently used are
/// evicted; only eventually consistent reads are cached (a strongly consistent read passes
/// through). keyheat's own model: the capacity is a count of items rather than a node's memory,
/// and Query and Scan (DAX's query cache, keyed by the request's exact parameters) are not
/// cached — a pattern the plan serves with them reads the table as before.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadCache {
    /// How long an entry serves hits after the miss that filled it.
    pub ttl: SimDuration,
    /// The most items the cache holds; the least recently used goes first.
    pub items: u64,
    /// The read patterns whose requests go through the cache.
    pub patterns: Vec<String>,
    /// What `patterns` resolve to (`Variant::resolve`).
    pub ids: CacheIds,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct CacheIds {
    patterns: Vec<PatternId>,
}

impl CacheIds {
    #[cfg(test)]
    pub(crate) fn serving(patterns: Vec<PatternId>) -> CacheIds {
        CacheIds { patterns }
    }
}

impl ReadCache {
    pub fn serves(&self, pattern: PatternId) -> bool {
        self.ids.patterns.contains(&pattern)
    }
}

/// A denormalized copy: `from`'s `attribute` is also stored on every `to` item that refers to it
/// through `by` (as `as_name`), and rewritten there whenever it changes.
#[derive(Debug, Clone)]
pub struct Copy {
    pub from: String,
    pub attribute: String,
    pub to: String,
    pub as_name: String,
    pub by: String,
    /// What the names resolve to (`Variant::resolve`).
    pub ids: CopyIds,
}

/// A copy's entities, the copied attribute (in `from`) and the reference (in `to`).
#[derive(Debug, Clone)]
pub struct CopyIds {
    from: EntityId,
    to: EntityId,
    attribute: Option<AttrId>,
    by: Option<AttrId>,
    /// The attribute of `from` named as `by`: the source's own id, which the holders' `by`
    /// refers to.
    by_on_source: Option<AttrId>,
    /// For a copied `Nth(by)` number: the holder's attribute named `by`.
    numbered_by: Option<ItemAttr>,
}

impl CopyIds {
    pub(crate) fn unresolved() -> CopyIds {
        let none = EntityId(usize::MAX);
        CopyIds { from: none, to: none, attribute: None, by: None, by_on_source: None, numbered_by: None }
    }

    pub fn from(&self) -> EntityId {
        self.from
    }

    pub fn to(&self) -> EntityId {
        self.to
    }

    /// The copied attribute, in `from`.
    pub fn attribute(&self) -> Option<AttrId> {
        self.attribute
    }

    /// The attribute of `to` naming the `from` item.
    pub fn by(&self) -> Option<AttrId> {
        self.by
    }

    /// The attribute of `from` named as `by` is, if `from` has one.
    pub fn by_on_source(&self) -> Option<AttrId> {
        self.by_on_source
    }

    /// For a copied `Nth(by)` number, the holder's attribute named `by`, if it has one.
    pub fn numbered_by(&self) -> Option<ItemAttr> {
        self.numbered_by
    }
}

/// A maintained aggregate: an item of `entity` (keyed by attributes the triggering item carries)
/// updated on every write of the `on` patterns — a follower count, a lifetime spend.
#[derive(Debug, Clone)]
pub struct Aggregate {
    pub name: String,
    pub entity: String,
    pub on: Vec<String>,
    pub attribute: String,
    pub op: AggregateOp,
    /// What `entity` and `on` resolve to (`Variant::resolve`).
    pub ids: AggregateIds,
}

#[derive(Debug, Clone)]
pub struct AggregateIds {
    entity: EntityId,
    attribute: Option<AttrId>,
    on: Vec<PatternId>,
    /// Per pattern of `on`: the attribute of its entity a sum adds or a claim records.
    folded: Vec<Option<AttrId>>,
}

impl AggregateIds {
    pub(crate) fn unresolved() -> AggregateIds {
        AggregateIds { entity: EntityId(usize::MAX), attribute: None, on: Vec::new(), folded: Vec::new() }
    }

    pub fn entity(&self) -> EntityId {
        self.entity
    }

    /// The attribute of `entity` the aggregate keeps.
    pub fn attribute(&self) -> Option<AttrId> {
        self.attribute
    }

    /// The attribute of `pattern`'s entity a sum adds or a claim records (`None` for a count).
    pub fn folded(&self, pattern: PatternId) -> Option<AttrId> {
        self.on.iter().position(|&p| p == pattern).and_then(|i| self.folded[i])
    }

    /// Whether a write of pattern `pattern` maintains the aggregate.
    pub fn on(&self, pattern: PatternId) -> bool {
        self.on.contains(&pattern)
    }

    /// The patterns whose writes maintain the aggregate, in the order `on` names them.
    pub fn patterns(&self) -> &[PatternId] {
        &self.on
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AggregateOp {
    /// Adds one per write.
    Count,
    /// Adds the triggering item's attribute.
    Sum(String),
    /// A uniqueness item: the first put of a value claims the item keyed by it (a PutItem on
    /// `attribute_not_exists`, recording the putter's `attribute`); a later put of the same
    /// value finds it taken. In a transaction the taken claim cancels the put; without one the
    /// put has landed already, and two items now share the value.
    Claim,
}

/// Embedding: each `entity` item written is appended to a list attribute (`as_name`) of the
/// `into` item it refers to through `by` (the parent's id), so that reading the parent reads its
/// children too. With `keep_latest: None` the children live only there and the parent grows
/// with every one until it reaches DynamoDB's 400 KB item limit; with `Some(n)` (the subset
/// pattern) the children are also items of their own and the list keeps only the newest `n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embed {
    pub entity: String,
    pub into: String,
    pub by: String,
    pub as_name: String,
    pub keep_latest: Option<u32>,
    /// What `entity`, `into` and `by` resolve to (`Variant::resolve`).
    pub ids: EmbedIds,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedIds {
    entity: EntityId,
    into: EntityId,
    by: Option<AttrId>,
}

impl EmbedIds {
    pub(crate) fn unresolved() -> EmbedIds {
        EmbedIds { entity: EntityId(usize::MAX), into: EntityId(usize::MAX), by: None }
    }
}

impl Embed {
    pub fn entity_id(&self) -> EntityId {
        self.ids.entity
    }

    pub fn into_id(&self) -> EntityId {
        self.ids.into
    }

    /// The child's attribute naming its parent.
    pub fn by_id(&self) -> Option<AttrId> {
        self.ids.by
    }
}

/// How long to replay and how.
#[derive(Debug, Clone)]
pub struct Workload {
    pub duration: SimDuration,
    pub tick: SimDuration,
    pub seed: u64,
    /// Simulated time at the start (midnight UTC of the start date).
    pub start: SimTime,
    /// How the simulated client retries throttled requests.
    pub retry: crate::engine::retry::RetryPolicy,
}

/// A named check on a run's report.
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    pub name: String,
    pub check: GoalCheck,
    /// In a practice problem: the hint that helps with this goal, numbered from 1 as the hints
    /// are shown ("see hint 2" when the goal fails). Always within `Practice::hints`.
    pub hint: Option<usize>,
    /// Over what time a size goal must hold ("no partition past 10 GB within a year"), when that
    /// is longer than the replay: the grade projects the partitions' growth to it. Only size
    /// goals (`MaxPartitionBytes`, `MaxPartitionItems`) have one.
    pub within: Option<crate::engine::time::SimDuration>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GoalCheck {
    /// No partition (table or index) holds more than this many bytes.
    MaxPartitionBytes(u64),
    /// No partition holds more than this many items (rows).
    MaxPartitionItems(u64),
    /// Throttled requests / all requests stays at or below this.
    MaxThrottledRatio(f64),
    /// The pattern never runs a Scan.
    NoScan(PatternRef),
    /// The pattern never needs more than this many requests per call.
    MaxFanout(PatternRef, u32),
    /// Index writes per base-table write stay at or below this.
    MaxIndexWriteAmplification(f64),
    /// The pattern's p99 latency meets its latency target.
    LatencyTarget(PatternRef),
    /// The projected monthly bill in US dollars stays at or below this.
    MaxMonthlyCost(f64),
    /// At most this many writes never land: refused (an item past 400 KB, an item collection
    /// past 10 GB) or throttled past the client's last retry.
    MaxFailedWrites(u64),
    /// The busiest shard of the variant's sharded collection (MongoDB `sharding`) takes at most
    /// this share of the inserts into it.
    MaxShardShare(f64),
}

/// A pattern a goal names.
pub type PatternRef = Named<PatternId>;

/// A practice problem: what to design, hints, and the variant that solves it (kept out of sight
/// until asked for).
#[derive(Debug, Clone)]
pub struct Practice {
    pub prompt: String,
    pub hints: Vec<String>,
    pub solution: String,
}

impl Practice {
    /// The text of hint `number` (numbered from 1), if there is one.
    pub fn hint(&self, number: usize) -> Option<&str> {
        number.checked_sub(1).and_then(|i| self.hints.get(i)).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_population_ids() {
        let cases = [
            ("sensor-{}", 7, "sensor-7"),
            ("sensor-{:05}", 7, "sensor-00007"),
            ("{}", 123, "123"),
            ("c{:03}x", 1234, "c1234x"),
        ];
        for (format, index, id) in cases {
            assert_eq!(format_id(format, index), id, "{format}");
            assert!(id_format_is_valid(format), "{format}");
        }
        for bad in ["sensor", "s-{", "s-{x}", "{}-{}", "s-{:5}"] {
            assert!(!id_format_is_valid(bad), "{bad}");
        }
        // Reading an id back: only what `format_id` writes.
        let ids = [
            ("sensor-{:05}", "sensor-00007", Some(7)),
            ("sensor-{:05}", "sensor-123456", Some(123_456)),
            ("sensor-{:05}", "sensor-7", None),
            ("u{}", "u0", Some(0)),
            ("u{}", "u007", None),
            ("u{}", "nobody", None),
            ("c{:03}x", "c1234x", Some(1234)),
            ("c{:03}x", "c123", None),
        ];
        for (format, id, index) in ids {
            assert_eq!(parse_id(format, id), index, "{format} {id}");
            if let Some(i) = index {
                assert_eq!(format_id(format, i), id);
            }
        }
    }
}

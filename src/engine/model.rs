//! The scenario model: what a workload is made of (entities, populations, access patterns), the
//! key schemas under test (variants), and what a good run looks like (goals).
//!
//! These are validated, resolved values: every name a pattern or a variant refers to exists, every
//! key template is parsed. `crate::scenario` builds them from a file and is the only place that
//! knows about RON; the planner and the simulator read them. Nothing here generates data or does
//! arithmetic on rates: that is the planner's and the workload's business.

use std::fmt;

use super::template::Template;
use super::time::{SimDuration, SimTime};
use super::workload::{Distribution, Popularity, RateShape};

/// One scenario: the story, the data, the access patterns and the key designs to compare.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub title: String,
    pub story: String,
    pub lesson: String,
    pub engine: Engine,
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

    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    pub fn population(&self, name: &str) -> Option<&Population> {
        self.populations.iter().find(|p| p.name == name)
    }

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
}

impl Engine {
    /// The name used in JSON reports and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Engine::DynamoDb => "dynamodb",
            Engine::Cassandra => "cassandra",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::DynamoDb => "DynamoDB",
            Engine::Cassandra => "Cassandra",
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
}

impl Entity {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The population this entity's items are the members of (its id attribute draws `New` ids
    /// from it), if any: such an entity starts with one item per member.
    pub fn owned_population(&self) -> Option<&str> {
        self.attributes.iter().find_map(|a| match &a.generator {
            Generator::New(population) => Some(population.as_str()),
            _ => None,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: String,
    pub ty: AttrType,
    pub generator: Generator,
}

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
    Pick(String),
    /// A new member of the population: the population grows by one per write.
    New(String),
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
}

impl Population {
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
    /// Every entity the pattern touches, its own first.
    pub fn entities(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.entity.as_str()).chain(self.with.iter().map(String::as_str))
    }

    /// The pattern as `variant` serves it: an entity read `with` this one that the variant embeds
    /// in this one's items comes with them, so it is no longer a read of its own.
    pub fn as_served_by(&self, variant: &Variant) -> std::borrow::Cow<'_, AccessPattern> {
        let embedded = |w: &String| variant.embed_of(w).is_some_and(|e| e.into == self.entity);
        if !self.with.iter().any(embedded) {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut served = self.clone();
        served.with.retain(|w| !embedded(w));
        std::borrow::Cow::Owned(served)
    }

    /// The read of `entity` alone that a `with` pattern becomes when its entities live in
    /// different partitions: the inputs `entity` has (its own givens, constants and range), the
    /// same order and limit. `None` when `entity` has none of the pattern's givens: nothing then
    /// says which of its items belong to the call.
    pub fn part(&self, entity: &Entity) -> Option<AccessPattern> {
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
}

impl Variant {
    /// The cache in front of `pattern`'s reads, if the variant declares one for it.
    pub fn cache_for(&self, pattern: &str) -> Option<&ReadCache> {
        self.cache.as_ref().filter(|c| c.patterns.iter().any(|p| p == pattern))
    }

    pub fn keys_of(&self, entity: &str) -> Option<&EntityKeys> {
        self.keys.iter().find(|k| k.entity == entity)
    }

    /// How `entity` is embedded in another entity's items, if it is.
    pub fn embed_of(&self, entity: &str) -> Option<&Embed> {
        self.embeds.iter().find(|e| e.entity == entity)
    }

    /// Whether `entity` lives only inside its parent's items (no items of its own).
    pub fn embedded_whole(&self, entity: &str) -> bool {
        self.embed_of(entity).is_some_and(|e| e.keep_latest.is_none())
    }

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
}

impl Index {
    pub fn keys_of(&self, entity: &str) -> Option<&EntityKeys> {
        self.keys.iter().find(|k| k.entity == entity)
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
    NoScan(String),
    /// The pattern never needs more than this many requests per call.
    MaxFanout(String, u32),
    /// Index writes per base-table write stay at or below this.
    MaxIndexWriteAmplification(f64),
    /// The pattern's p99 latency meets its latency target.
    LatencyTarget(String),
    /// The projected monthly bill in US dollars stays at or below this.
    MaxMonthlyCost(f64),
    /// At most this many writes never land: refused (an item past 400 KB, an item collection
    /// past 10 GB) or throttled past the client's last retry.
    MaxFailedWrites(u64),
}

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

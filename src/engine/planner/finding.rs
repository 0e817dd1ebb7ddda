//! What each warning found, as values: the names, figures and arithmetic terms a reader needs to
//! check it. The planner decides and fills these in; `report::findings` words them, in `check`'s
//! text, Markdown and JSON, the CQL export's comments and the workbench alike.
//!
//! Why a key spreads its items or calls as it does is a value too (`SpreadNote`, one per slot),
//! and so is how each slot of a colliding key takes its values (`SlotTerm`).

use super::condition::ConditionWhy;
use super::{Considered, Via};
use super::{IndexId, Verdict, WriteTarget, WriteWhy};
pub use crate::engine::profile::Guidance;

/// What a warning found; one variant per `WarningCode` (two for `guess`, one for both
/// partition-size codes).
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    /// `unserved`: nothing serves the pattern, or a write cannot name its item.
    Unserved {
        pattern: String,
        verdict: Verdict,
    },
    Scan(ScanCost),
    WriteAmplification(Amplification),
    /// `unbounded-partition` and `large-partition`.
    Partition(PartitionGrowth),
    HotPartition(HotLoad),
    LowCardinality(LowCardinality),
    UnboundedItem(UnboundedItem),
    /// `oversized-item`: `entity`'s items take `size` bytes with every attribute present.
    OversizedItem {
        entity: String,
        size: f64,
    },
    KeyUpdate(KeyUpdate),
    /// `guess`: a population's count is a guess.
    GuessedCount {
        population: String,
        count: f64,
    },
    /// `guess`: a pattern's rate (calls a second) is a guess.
    GuessedRate {
        pattern: String,
        rate: f64,
    },
    /// `version-contention`: why version-checked updates of one item lose their race.
    VersionContention {
        why: ConditionWhy,
    },
    CollectionOrder(CollectionOrder),
    UnsafeClaim(UnsafeClaim),
    KeyCollision(Collision),
}

/// `scan`: a pattern only a Scan serves, what one call reads at its rate, and why each place
/// does not serve it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanCost {
    pub pattern: String,
    /// Items (rows) one call reads: the whole table after `secs`.
    pub items: f64,
    pub bytes: f64,
    pub secs: f64,
    pub units_per_call: f64,
    /// Calls a second on average.
    pub calls: f64,
    /// Each place considered (the table is `None`) and why it does not serve.
    pub places: Vec<(Option<IndexId>, Considered)>,
}

/// `write-amplification`: a write that writes more than the limit besides its base item.
#[derive(Debug, Clone, PartialEq)]
pub struct Amplification {
    pub pattern: String,
    pub amplification: f64,
    /// Every item written besides the base one.
    pub writes: Vec<ExtraWrite>,
    /// Calls a second on average.
    pub calls: f64,
}

/// One index entry, copy or aggregate a write writes per call, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtraWrite {
    pub target: WriteTarget,
    pub per_call: f64,
    pub why: WriteWhy,
}

/// `unbounded-partition` (no bucket, no expiry) or `large-partition`: how big the busiest value
/// of one partition key gets.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionGrowth {
    /// The key's template: `CH#{channel_id}`.
    pub pk: String,
    /// The table or index it keys: `table`, `GSI by-user`, `view by_user`.
    pub place: String,
    pub shape: Shape,
    pub terms: Vec<GrowthTerm>,
    /// Items (rows) the busiest value holds at the end of `window`, and their bytes.
    pub rows: f64,
    pub bytes: f64,
    /// How long it fills: the run, one bucket or an item's life, whichever is shortest.
    pub window: f64,
    pub guidance: Guidance,
    /// Seconds until it passes the limit.
    pub reached: f64,
}

/// Why the busiest value of a partition key keeps growing, or for how long.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Bucketed by time, yet one bucket of `secs` fills up.
    Bucketed { secs: f64 },
    /// Items expire after `life` seconds; with `expiry`, DynamoDB deletes them up to `delay`
    /// seconds after they expire.
    Expiring { life: f64, expiry: Option<(f64, f64)> },
    /// Neither: every put adds an item under these sort keys (none for a key with none).
    Unbounded { sort_keys: Vec<String> },
}

/// One put pattern's share of a partition's growth: `calls` a second × `share` of them on the
/// busiest value (`notes` say why) = `per_sec` items of `size` bytes a second.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthTerm {
    pub pattern: String,
    pub calls: f64,
    pub share: f64,
    pub notes: Vec<SpreadNote>,
    pub per_sec: f64,
    pub size: f64,
}

/// `hot-partition`: the units a second at peak on the busiest value of one partition key.
#[derive(Debug, Clone, PartialEq)]
pub struct HotLoad {
    /// `table CH#{channel_id}`, `GSI by-status {status}`.
    pub subject: String,
    /// Write units a second, when past what one partition serves.
    pub wcu: Option<f64>,
    /// Read units a second, when past what one partition serves.
    pub rcu: Option<f64>,
    pub terms: Vec<LoadTerm>,
    /// The key is one item: no split for heat can help.
    pub single_item: bool,
    /// The biggest rewrite of copies one call lands on the key at once, when that alone is
    /// more than a partition serves in a second.
    pub burst: Option<CopyBurst>,
    /// Cosmos DB: the RU/s one physical partition serves (its share of the container's
    /// throughput), which the key's reads and writes together pass — request units are one
    /// currency. `None` for DynamoDB's limits per kind of unit.
    pub ru_share: Option<f64>,
}

/// One term of a hot partition's load.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadTerm {
    /// A write pattern's items (or the aggregate, copies or parent it writes, `via`, on
    /// `entity`): `peak` calls a second × `share` on the busiest value (× `landed`, the share
    /// that finds a create-once key free) × `units_each` × `per_call` = `units`.
    Write {
        pattern: String,
        via: Via,
        entity: String,
        peak: f64,
        share: f64,
        notes: Vec<SpreadNote>,
        landed: Option<f64>,
        units_each: f64,
        per_call: f64,
        units: f64,
    },
    /// A conditional write's failed attempts: `calls` × `lose` × `units_each` = `units`.
    FailedConditions { pattern: String, calls: f64, lose: f64, units_each: f64, units: f64 },
    /// The reads a version-checked write makes first, in read units a second.
    ReadsBeforeWriting { pattern: String, units: f64 },
    /// A read pattern's requests: `peak` × `share` (× `missing_cache`) × `per_request` = `units`.
    Read {
        pattern: String,
        peak: f64,
        share: f64,
        notes: Vec<SpreadNote>,
        missing_cache: Option<f64>,
        per_request: f64,
        units: f64,
    },
}

/// One call of `pattern` that picks the `source` with the most copies rewrites `copies` of
/// its `copy` items under one key at once: `units` write units.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyBurst {
    pub pattern: String,
    pub source: String,
    pub copy: String,
    pub copies: f64,
    pub units: f64,
}

/// `low-cardinality-index`: a global index whose partition key takes a few values.
#[derive(Debug, Clone, PartialEq)]
pub struct LowCardinality {
    pub place: String,
    pub pk: String,
    pub distinct: f64,
    pub notes: Vec<SpreadNote>,
    /// The busiest value's share of the index.
    pub hottest: f64,
    /// `entity`'s entries in the index after `secs`, each `entry_bytes`.
    pub items: f64,
    pub entity: String,
    pub entry_bytes: f64,
    pub secs: f64,
    /// Entry writes a second at peak.
    pub writes: f64,
}

/// `unbounded-item`: a parent embedding every child, growing toward the item size limit.
#[derive(Debug, Clone, PartialEq)]
pub struct UnboundedItem {
    pub parent: String,
    pub child: String,
    /// The list the children are embedded in.
    pub list: String,
    pub child_bytes: f64,
    /// Children a second the busiest parent gets, and from which puts: (pattern, calls a
    /// second, share on the busiest parent).
    pub per_sec: f64,
    pub terms: Vec<(String, f64, f64)>,
    /// Children it holds when it passes the limit, and after how long.
    pub children: f64,
    pub secs: f64,
    pub within_run: bool,
}

/// `key-update`: an update that sets part of the table key.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyUpdate {
    pub pattern: String,
    pub entity: String,
    /// The key attributes it sets, in order.
    pub moved: Vec<String>,
    pub transaction: bool,
    pub units_per_call: f64,
}

/// `collection-order`: a read of a parent with its children starts at the children's end.
#[derive(Debug, Clone, PartialEq)]
pub struct CollectionOrder {
    pub pattern: String,
    pub entity: String,
    pub child: String,
    pub desc: bool,
    pub limit: u32,
    pub parent_sk: String,
    pub child_sk: String,
}

/// `unsafe-claim`: a put that takes a claim in a request of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct UnsafeClaim {
    pub pattern: String,
    pub entity: String,
    pub expression: String,
    pub why: ConditionWhy,
    /// Over the run: the puts expected to find their claim taken, of how many.
    pub expected: Option<(f64, f64)>,
}

/// `key-collision`: the table key cannot tell an entity's items apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Collision {
    pub entity: String,
    /// `PK = CUSTOMER#{customer_id}`, or the CQL primary key.
    pub key: String,
    /// The attribute that tells the items apart, and the population it is drawn from; `None`
    /// when nothing new is generated for each item.
    pub id: Option<(String, String)>,
    pub values: KeyValues,
    /// Items written over the run, and how (`100 to start`, `put 10/s over 1 d`).
    pub items: f64,
    pub terms: Vec<WrittenTerm>,
    /// Seconds an item lives, when it expires before the run ends.
    pub lifetime: Option<f64>,
    pub lost: f64,
    /// The table's sort key attribute and the entity's sort key template, when it has one.
    pub sort_key: Option<(String, String)>,
}

/// The values a colliding key takes, class by class of its class slot (`by`), or as one class.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValues {
    pub by: Option<String>,
    pub classes: Vec<ClassValues>,
}

/// The values the key takes for one class of items (`class`: its value; `None`: the other
/// values, or every item when the key has no class slot).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassValues {
    pub class: Option<String>,
    /// The class's share of the items.
    pub share: f64,
    pub values: f64,
    /// How each slot takes its values; none for a literal key.
    pub slots: Vec<SlotTerm>,
    /// When the values are far from equally likely: how many equally likely values would
    /// repeat as often (1/Σp²).
    pub like: Option<f64>,
}

/// Why a key spreads its items or calls as it does, one note per slot (`Spread::notes`).
#[derive(Debug, Clone, PartialEq)]
pub enum SpreadNote {
    /// `hash(name, count)` of an attribute the caller does not know: every call asks each.
    HashUnknown { name: String, count: u32 },
    /// A sparse index's `only_when` attribute: every entry holds `value`.
    Sparse { name: String, value: String },
    /// A time attribute: all current writes share one bucket, `width` wide (`per-second`,
    /// `10d`).
    Bucket { name: String, width: String },
    /// `shard(by: …)`: each class's shard count (`others` last); a writer's busiest key takes
    /// `writer_share` of its value's writes, a reader (`None`) asks every shard of its class.
    ClassShard { by: String, counts: Vec<(String, u32)>, others: u32, writer_share: Option<f64> },
    /// `shard(count)`: a writer spreads over `count` keys, a reader asks all of them.
    Shard { count: u32, reader: bool },
    /// An attribute's values, folded through `hash(name, count)` when `hash` is set.
    Value { name: String, hash: Option<u32>, values: ValueNote },
}

/// How one attribute's values spread.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueNote {
    /// The caller asks for one value (`status = "PENDING"`); `not`: the busiest state, when the
    /// value is another.
    Asked { value: String, not: Option<String> },
    /// Picked from `members` members of `population` by a popularity (`Zipf(s: 0.9)`).
    Picked { popularity: String, members: f64, population: String },
    /// Every item holds `Text(…)`.
    Constant(String),
    /// Weighted choices: `values` of them, `top` the commonest with `share`.
    OneOf { values: usize, top: String, share: f64 },
    /// The item's number among those of one member of `by`.
    Numbered { by: String },
    /// A lifecycle's `states`, `top` holding `share` of the items.
    States { states: usize, top: String, share: f64 },
    /// A coin: true or false.
    Coin,
    /// A new value per item.
    Fresh,
    /// A put's new item starts in state `first`; `not`: the busiest state, when it is another.
    NewItem { first: String, not: Option<String> },
    /// `share` of an update's entry writes move an entry out of or into `state`.
    StateMoves { share: f64, state: String },
}

/// How one slot of a colliding key takes its values. `label` is the slot as the template
/// writes it (`{at}`, `at:%Y-%m`, `bucket(at, 1d)`).
#[derive(Debug, Clone, PartialEq)]
pub enum SlotTerm {
    /// `shard(count)`: `count` values.
    Shard { count: u32 },
    /// `hash(name, count)`: `values` of its values.
    Hash { name: String, count: u32, values: f64 },
    /// An attribute's `values`; `like`: when they are uneven, their popularity and how many
    /// equally likely values repeat as often.
    Attribute { name: String, values: f64, like: Option<(String, f64)> },
    /// A time slot of a time that is not the write time: counted as one value.
    NotWriteTime { label: String, name: String },
    /// A write-time slot: `values` windows `width` seconds wide over an item's `lifetime`.
    Windows { label: String, values: f64, width: f64, lifetime: f64 },
}

/// How an entity's items are written: the members it starts with, or its puts (less its
/// deletes) over an item's `lifetime`.
#[derive(Debug, Clone, PartialEq)]
pub enum WrittenTerm {
    Start { members: f64 },
    Puts { puts: Vec<(String, f64)>, deletes: Option<f64>, lifetime: f64 },
}

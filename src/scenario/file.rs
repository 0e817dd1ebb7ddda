//! The scenario file as written: serde types that mirror the RON text one to one. Names, sizes,
//! durations and templates stay text here; `build` checks them and turns them into the model.
//!
//! Every struct denies unknown fields so that a typo is an error at its line and column rather
//! than a silently ignored setting. Type names are what a user may write before `(` (ron checks
//! them), so they read as the format's vocabulary: `Entity(…)`, `Pattern(…)`, `Index(…)`.
//!
//! Maps keep their entries in file order, duplicates included ([`Entries`]): a map type would
//! keep only the last of two equal keys and drop the first without a word.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};

use crate::engine::workload::{Distribution, Popularity, RateShape};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub title: String,
    #[serde(default)]
    pub story: String,
    #[serde(default)]
    pub lesson: String,
    #[serde(default)]
    pub engine: Engine,
    /// Other stores the scenario can be replayed on (`--engine`), besides `engine`.
    #[serde(default)]
    pub engines: Vec<Engine>,
    pub entities: Vec<Entity>,
    #[serde(default)]
    pub populations: Vec<Population>,
    pub patterns: Vec<Pattern>,
    pub variants: Vec<Variant>,
    pub workload: Workload,
    #[serde(default)]
    pub goals: Vec<Goal>,
    #[serde(default)]
    pub practice: Option<Practice>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Engine {
    #[default]
    DynamoDB,
    Cassandra,
    CosmosDB,
    MongoDB,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entity {
    pub name: String,
    #[serde(default)]
    pub upsert: bool,
    pub attributes: Vec<Attribute>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: AttrType,
    pub r#gen: Generator,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub enum AttrType {
    S,
    N,
    Time,
    B,
    Bool,
}

#[derive(Debug, Deserialize)]
pub enum Generator {
    Pick(String),
    New(String),
    Now,
    NowPlus(String),
    Text(String),
    OneOf(Vec<(String, f64)>),
    Number(Distribution),
    Payload(u32),
    Chance(f64),
    Sometimes(f64, Box<Generator>),
    Nth(String),
    /// `States(["PLACED", "SHIPPED", "DELIVERED"])`: a value that moves in order. A put writes
    /// the first state; an update whose `sets` name the attribute advances it to the next.
    States(Vec<String>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Population {
    pub name: String,
    pub count: u64,
    pub ids: String,
    #[serde(default)]
    pub popularity: Option<Popularity>,
    #[serde(default)]
    pub growth_per_day: f64,
    /// The count is a guess for the user to set (`keyheat import nwb` writes it); `check` warns.
    #[serde(default)]
    pub guess: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pattern {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub action: Action,
    pub entity: String,
    #[serde(default)]
    pub with: Vec<String>,
    #[serde(default)]
    pub given: Vec<String>,
    #[serde(default)]
    pub equals: Entries<String>,
    #[serde(default)]
    pub range: Option<Range>,
    #[serde(default)]
    pub order: Order,
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub sets: Vec<String>,
    #[serde(default)]
    pub returns: Option<Vec<String>>,
    #[serde(default)]
    pub contains: Option<String>,
    pub rate: f64,
    /// The rate is a guess for the user to set (`keyheat import nwb` writes it); `check` warns.
    #[serde(default)]
    pub guess: bool,
    #[serde(default)]
    pub shape: Vec<RateShape>,
    #[serde(default)]
    pub keys: Option<Popularity>,
    #[serde(default)]
    pub latency_ms: Option<f64>,
    #[serde(default)]
    pub condition: Option<Condition>,
    /// `ttl: "15m"`: the write sets the item's TTL attribute to now + 15 minutes.
    #[serde(default)]
    pub ttl: Option<String>,
    /// `transaction: true`: a write and the aggregates it maintains go in one
    /// TransactWriteItems; a Get is a TransactGetItems.
    #[serde(default)]
    pub transaction: bool,
}

/// `condition: NotExists` (create once) or `condition: Version("version")` (optimistic
/// concurrency on an update).
#[derive(Debug, Deserialize)]
pub enum Condition {
    NotExists,
    Version(String),
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub enum Action {
    Get,
    List,
    Put,
    Update,
    Delete,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub attribute: String,
    pub span: Span,
}

#[derive(Debug, Deserialize)]
pub enum Span {
    Last(String),
    BeginsWith(String),
    All,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub capacity: Capacity,
    /// The container's throughput when the scenario is replayed on Cosmos DB; `capacity` is
    /// DynamoDB's and says nothing about it.
    #[serde(default)]
    pub throughput: Option<Throughput>,
    #[serde(default)]
    pub table: Option<Table>,
    pub keys: Entries<Keys>,
    #[serde(default)]
    pub indexes: Vec<Index>,
    #[serde(default)]
    pub ttl: Option<Ttl>,
    #[serde(default)]
    pub copies: Vec<Copy>,
    #[serde(default)]
    pub aggregates: Vec<Aggregate>,
    #[serde(default)]
    pub embeds: Vec<Embed>,
    #[serde(default)]
    pub cache: Option<Cache>,
    /// MongoDB only: `sharding: (collection: "Order", shards: 3, key: Hashed)`.
    #[serde(default)]
    pub sharding: Option<Sharding>,
}

/// `sharding: (collection: "Order", shards: 3, key: Ranged, range_size: "1MB")`: the
/// collection's documents spread over `shards` shards by its partition key (`pk`), in ranges of
/// its values (`Ranged`) or of their hashes (`Hashed`); `range_size` defaults to 128 MB.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sharding {
    pub collection: String,
    pub shards: u32,
    pub key: ShardKey,
    #[serde(default)]
    pub range_size: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub enum ShardKey {
    Ranged,
    Hashed,
}

/// `cache: (ttl: "5m", items: 100000, patterns: ["resolve"])`: a read-through item cache (DAX)
/// in front of these read patterns.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    /// DAX's default item TTL is 5 minutes.
    #[serde(default = "default_cache_ttl")]
    pub ttl: String,
    pub items: u64,
    pub patterns: Vec<String>,
}

fn default_cache_ttl() -> String {
    "5m".to_owned()
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub enum Capacity {
    #[default]
    OnDemand,
    Provisioned {
        read: u32,
        write: u32,
    },
}

/// `throughput: Manual(20000)` or `Autoscale(max: 40000)`: a Cosmos DB container's RU/s.
#[derive(Debug, Clone, Copy, Deserialize)]
pub enum Throughput {
    Manual(u32),
    Autoscale { max: u32 },
}

/// The table's key attribute names, when not `PK` and `SK`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub pk: String,
    #[serde(default)]
    pub sk: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keys {
    #[serde(default)]
    pub pk: Option<PartitionKey>,
    #[serde(default)]
    pub sk: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Index {
    pub name: String,
    #[serde(default)]
    pub kind: IndexKind,
    #[serde(default)]
    pub pk_attribute: Option<String>,
    #[serde(default)]
    pub sk_attribute: Option<String>,
    pub keys: Entries<Keys>,
    #[serde(default)]
    pub projection: Projection,
    #[serde(default)]
    pub only_when: Option<(String, String)>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub enum IndexKind {
    #[default]
    Global,
    Local,
}

#[derive(Debug, Default, Deserialize)]
pub enum Projection {
    KeysOnly,
    Include(Vec<String>),
    #[default]
    All,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ttl {
    pub attribute: String,
    pub lifetime: String,
    pub entities: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Copy {
    pub from: String,
    pub attribute: String,
    pub to: String,
    #[serde(default, rename = "as")]
    pub as_name: Option<String>,
    pub by: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aggregate {
    pub name: String,
    pub entity: String,
    pub on: Vec<String>,
    pub attribute: String,
    pub op: AggregateOp,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Embed {
    pub entity: String,
    pub into: String,
    pub by: String,
    #[serde(default, rename = "as")]
    pub as_name: Option<String>,
    #[serde(default)]
    pub keep_latest: Option<u32>,
}

#[derive(Debug, Deserialize)]
pub enum AggregateOp {
    Count,
    Sum(String),
    Claim,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub duration: String,
    pub tick: String,
    pub seed: u64,
    #[serde(default)]
    pub start: Option<String>,
    /// The client's retry policy; the AWS SDK for Java 1.x DynamoDB policy when absent.
    #[serde(default)]
    pub retry: Option<Retry>,
}

/// A retry policy: one of `engine::retry::NAMED`, or its numbers.
#[derive(Debug, Deserialize)]
pub enum Retry {
    Named(String),
    Custom { base_ms: u64, cap_ms: u64, retries: u32, jitter: Jitter },
}

#[derive(Debug, Deserialize)]
pub enum Jitter {
    None,
    Equal,
    Full,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    pub name: String,
    pub check: GoalCheck,
    /// The practice hint (numbered from 1) that helps with this goal.
    #[serde(default)]
    pub hint: Option<usize>,
    /// For a size goal: the time over which it must hold (`"365d"`), graded by projection.
    #[serde(default)]
    pub within: Option<String>,
}

#[derive(Debug, Deserialize)]
pub enum GoalCheck {
    MaxPartitionSize(String),
    MaxPartitionItems(u64),
    MaxThrottledRatio(f64),
    NoScan(String),
    MaxFanout(String, u32),
    MaxIndexWriteAmplification(f64),
    LatencyTarget(String),
    MaxFailedWrites(u64),
    MaxMonthlyCost(f64),
    MaxShardShare(f64),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Practice {
    pub prompt: String,
    #[serde(default)]
    pub hints: Vec<String>,
    pub solution: String,
}

/// A partition key as written: one template (`pk: "TENANT#{tenant_id}"`), or a list of one to
/// three, the levels of a Cosmos DB hierarchical partition key (`pk: ["{tenant_id}",
/// "{user_id}"]`), as a container's partition key paths are listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartitionKey {
    One(String),
    Levels(Vec<String>),
}

impl<'de> Deserialize<'de> for PartitionKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = PartitionKey;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a key template like \"USER#{user_id}\", or a list of levels like [\"{tenant_id}\", \"{user_id}\"]",
                )
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<PartitionKey, E> {
                Ok(PartitionKey::One(text.to_owned()))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<PartitionKey, A::Error> {
                let mut levels = Vec::new();
                while let Some(level) = seq.next_element::<String>()? {
                    levels.push(level);
                }
                Ok(PartitionKey::Levels(levels))
            }
        }

        deserializer.deserialize_any(KeyVisitor)
    }
}

/// A `{key: value, …}` map as written: every entry in file order, a repeated key included, so
/// that `build` can point at the repetition instead of silently keeping one of the two.
#[derive(Debug)]
pub struct Entries<V>(pub Vec<(String, V)>);

impl<V> Default for Entries<V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<V> Entries<V> {
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Entries<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<V>(PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<V> {
            type Value = Entries<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map like {\"key\": value}")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<V>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, V>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }

        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}

//! The planner: static analysis of a key design before any workload runs. For every access
//! pattern it finds how the variant's keys serve it (GetItem, Query with the key condition it
//! would send, a fan-out of N requests, or a Scan — or nothing, with the reason), what each write
//! costs in items written (the write amplification), and it warns about designs that break under
//! load (unbounded or hot partitions, low-cardinality indexes, Scans) with the arithmetic shown.
//!
//! Estimates use the scenario's own numbers: pattern rates, population sizes and popularity, and
//! item sizes computed with `value::item_size` on a representative generated item. Reads are
//! costed as eventually consistent (DynamoDB's default; GSIs allow nothing else). The planner
//! never runs the store; the simulator measures what the planner predicts.

pub mod cache;
pub mod condition;
pub mod dialect;
mod estimate;
pub mod finding;
mod keys;
mod load;
pub mod numbers;
mod read;
pub mod transition;
mod unpredictable;
pub mod verdict;
mod warnings;

pub use keys::{ClassChoice, CqlPrimaryKey, FanoutNote, KeyGap, cql_column};
mod write;
pub use write::{EntryRewrite, EntryWhy, Membership, WriteWhy};

use std::fmt;

pub use finding::Finding;
use serde::Serialize;
pub use unpredictable::{Unpredictable, UnpredictableWhy};
pub use verdict::{Considered, Verdict};
pub use warnings::Busiest;
pub use warnings::collision::KeyLoss;

use super::model::{
    AccessPattern, Engine, EntityId, Index, IndexKind, PatternId, PopulationId, Scenario, Variant,
};
use super::profile::{Language, Paging};

/// DynamoDB: one physical partition serves at most this many write units per second
/// (AWS developer guide, "Designing partition keys to distribute your workload").
pub const PARTITION_WCU: f64 = 1000.0;
/// DynamoDB: and at most this many read units per second (same source).
pub const PARTITION_RCU: f64 = 3000.0;
/// DynamoDB: an item collection (table + LSI items of one partition key) stops at 10 GB when the
/// table has an LSI; without one, the guide still names 10 GB as the point a partition splits.
pub const DYNAMODB_PARTITION_BYTES: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;
/// Cassandra / DataStax guidance: keep a partition under ~100 MB…
pub const CASSANDRA_PARTITION_BYTES: f64 = 100.0 * 1024.0 * 1024.0;
/// …and under ~100,000 rows.
pub const CASSANDRA_PARTITION_ROWS: f64 = 100_000.0;

/// Seconds the longest time bucket of a partition key spans (a calendar month 31 days), if it
/// buckets the write time (`written_at`: whether an attribute is set to it) into windows that
/// never come back: a partition of it stops growing when its bucket closes. `None` for a key
/// with no such bucket, a class slot's, a drawn time's, or a format that prints the same text
/// again (`%H`: the same hour every day).
pub fn bucket_secs(pk: &crate::engine::template::Template, written_at: impl Fn(&str) -> bool) -> Option<f64> {
    use crate::engine::template::Part;
    pk.parts()
        .iter()
        .filter(|part| match part {
            Part::Bucket { name, .. } => written_at(name),
            Part::Time { name, format } => written_at(name) && format.never_repeats(),
            _ => false,
        })
        .filter_map(keys::bucket_width)
        .map(|(_, longest)| longest)
        .reduce(f64::max)
}

/// The partition size the engine's profile warns at, and the rows where it names a count.
pub fn partition_limits(engine: Engine) -> (f64, Option<f64>) {
    let guide = engine.profile().partition_guide;
    (guide.bytes, guide.rows)
}

/// Whether the partitions of `variant`'s table (`index`: `None`) or of its index of kind
/// `index` outgrow the size line of [`partition_limits`] by splitting rather than stopping
/// there. DynamoDB splits a partition past 10 GB, but a table with a local secondary index holds
/// each item collection (a key's items and their LSI entries) to 10 GB
/// (ItemCollectionSizeLimitExceeded; AWS developer guide, "Item collection size limit"), so
/// that table and its LSIs stop at the line while its GSIs split. keyheat's DynamoDB replay
/// holds one table, so an LSI anywhere in the variant is that table's, unless it keys no entity
/// (the replay builds no index that holds no item). On the other stores the line is a limit or
/// guidance.
pub fn splits_at_size(engine: Engine, variant: &Variant, index: Option<IndexKind>) -> bool {
    let local = variant.indexes.iter().any(|i| i.kind == IndexKind::Local && !i.keys.is_empty());
    engine == Engine::DynamoDb && (index == Some(IndexKind::Global) || !local)
}

/// A Query or Scan call reads at most 1 MB before it returns a page (AWS Query docs).
pub const PAGE_BYTES: f64 = 1024.0 * 1024.0;
/// A CQL read returns pages of this many rows: the DataStax Java driver's default fetch size
/// (`datastax-java-driver.basic.request.page-size = 5000`, driver manual "Paging"). Cassandra
/// pages by rows, not bytes.
pub const CQL_PAGE_ROWS: usize = 5_000;
/// An index whose partition key takes at most this many values concentrates its load.
pub const LOW_CARDINALITY: f64 = 10.0;
/// A write is flagged when its write amplification (index entries, copies and aggregates written
/// per base write; see `PatternPlan::write_amplification`) is above this.
pub const WRITE_AMPLIFICATION_LIMIT: f64 = 2.0;

/// How one variant of a scenario serves its access patterns, and what to worry about.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub scenario: String,
    pub variant: String,
    #[serde(serialize_with = "engine_id")]
    pub engine: Engine,
    /// Where each entity's items land, per table and index.
    pub layouts: Vec<Layout>,
    pub patterns: Vec<PatternPlan>,
    pub warnings: Vec<Warning>,
}

/// One entity's key in the table or an index, written the engine's way: `PK = CUSTOMER#{id},
/// SK = ORDER#{order_id}` for DynamoDB, `PRIMARY KEY ((sensor_id, day), reading_time)` for
/// Cassandra.
#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    pub entity: String,
    /// `None` for the table.
    pub index: Option<String>,
    /// The index's kind; `None` for the table. Written `table`, `GSI` or `LSI`.
    #[serde(serialize_with = "layout_kind")]
    pub index_kind: Option<IndexKind>,
    pub key: String,
}

#[expect(
    clippy::ref_option,
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's serialize_with lends the field"
)]
fn layout_kind<S: serde::Serializer>(kind: &Option<IndexKind>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(kind.map_or("table", IndexKind::short))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Read,
    Write,
}

/// The request a pattern sends (DynamoDB API names; the Cassandra profile maps them to CQL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Operation {
    GetItem,
    BatchGetItem,
    Query,
    Scan,
    PutItem,
    UpdateItem,
    DeleteItem,
    /// An update that changes a key attribute: UpdateItem cannot, so the application deletes
    /// the item and puts it at its new key (two requests).
    DeleteAndPut,
    /// A write and the aggregate items it maintains, all or nothing: each item written twice
    /// (prepare and commit).
    TransactWriteItems,
    /// Items read by their keys as one consistent snapshot: each read twice.
    TransactGetItems,
}

impl Operation {
    pub fn name(self) -> &'static str {
        match self {
            Operation::GetItem => "GetItem",
            Operation::BatchGetItem => "BatchGetItem",
            Operation::Query => "Query",
            Operation::Scan => "Scan",
            Operation::PutItem => "PutItem",
            Operation::UpdateItem => "UpdateItem",
            Operation::DeleteItem => "DeleteItem",
            Operation::DeleteAndPut => "DeleteItem + PutItem",
            Operation::TransactWriteItems => "TransactWriteItems",
            Operation::TransactGetItems => "TransactGetItems",
        }
    }

    /// Every operation, for looking one up by its name.
    pub const ALL: [Operation; 10] = [
        Operation::GetItem,
        Operation::BatchGetItem,
        Operation::Query,
        Operation::Scan,
        Operation::PutItem,
        Operation::UpdateItem,
        Operation::DeleteItem,
        Operation::DeleteAndPut,
        Operation::TransactWriteItems,
        Operation::TransactGetItems,
    ];

    /// The operation a report names (`name()`), if it is one.
    pub fn named(name: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|op| op.name() == name)
    }
}

/// The request `operation` becomes in a store that speaks `language`, as every report and
/// goal names it: DynamoDB's API, the CQL statement, Cosmos DB's request, MongoDB's method.
pub fn verb(language: Language, operation: Operation) -> &'static str {
    match language {
        Language::DynamoDbApi => operation.name(),
        Language::Cql => cql_verb(operation),
        Language::CosmosNoSql => cosmos_verb(operation),
        Language::MongoDb => mongo_verb(operation),
    }
}

/// The CQL statement an operation becomes in the Cassandra profile.
pub fn cql_verb(operation: Operation) -> &'static str {
    match operation {
        // The loader refuses transactions in the Cassandra profile.
        Operation::GetItem | Operation::BatchGetItem | Operation::Query | Operation::TransactGetItems => {
            "SELECT"
        }
        Operation::Scan => "SELECT … ALLOW FILTERING",
        Operation::PutItem => "INSERT",
        Operation::UpdateItem => "UPDATE",
        Operation::DeleteItem => "DELETE",
        Operation::DeleteAndPut => "DELETE + INSERT",
        Operation::TransactWriteItems => "BEGIN BATCH … APPLY BATCH",
    }
}

/// The request an operation becomes in Cosmos DB's API for NoSQL.
pub fn cosmos_verb(operation: Operation) -> &'static str {
    match operation {
        Operation::GetItem => "point read",
        // Each key a point read of its own (the profile has no batched read).
        Operation::BatchGetItem => "point reads",
        Operation::Query => "query",
        Operation::Scan => "cross-partition query",
        Operation::PutItem => "create",
        // keyheat charges an update as a replace of the whole item.
        Operation::UpdateItem => "replace",
        Operation::DeleteItem => "delete",
        Operation::DeleteAndPut => "delete + create",
        // The loader refuses transactions in the Cosmos DB profile.
        Operation::TransactWriteItems | Operation::TransactGetItems => "transactional batch",
    }
}

/// The MongoDB method that sends `operation`.
pub fn mongo_verb(operation: Operation) -> &'static str {
    match operation {
        Operation::GetItem => "findOne",
        Operation::BatchGetItem => "find $in",
        Operation::Query => "find",
        Operation::Scan => "find (collection scan)",
        Operation::PutItem => "insertOne",
        Operation::UpdateItem => "updateOne",
        Operation::DeleteItem => "deleteOne",
        Operation::DeleteAndPut => "deleteOne + insertOne",
        Operation::TransactWriteItems => "transaction (writes)",
        Operation::TransactGetItems => "transaction (reads)",
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PatternPlan {
    pub name: String,
    /// The pattern planned (a part's or a locating read's: the pattern it serves).
    #[serde(skip)]
    pub pattern: PatternId,
    pub kind: Kind,
    /// The base rate the file gives (calls per second), which the rate shapes multiply.
    pub rate: f64,
    /// Calls per second on average over the run.
    pub mean_rate: f64,
    /// Calls per second at the shapes' peak (what the hot-partition check uses).
    pub peak_rate: f64,
    /// `None` when nothing can serve the pattern.
    pub operation: Option<Operation>,
    /// The index that serves it; `None` for the table.
    pub index: Option<IndexId>,
    /// Requests per call: partitions queried or keys fetched.
    pub fanout: u32,
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    /// How the keys serve it, or why they do not (serialized as `served` and `reason`, worded
    /// by `report::reasons`).
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Every other place that was considered, and why it does not serve or costs more.
    pub alternatives: Vec<Alternative>,
    /// Estimated read units (eventually consistent) or write units per call.
    pub units_per_call: f64,
    /// Items a read call reads (before any filter) in total across its requests.
    pub items_read: Option<f64>,
    /// Bytes those items take.
    pub bytes_read: Option<f64>,
    /// For a Query on an index that does not project what the pattern needs: the table items
    /// fetched for the rest (their units are part of `units_per_call`).
    pub fetch: Option<Fetch>,
    /// What one write call writes.
    pub writes: Vec<ItemWrite>,
    /// The write amplification: index entries, copies and aggregates written per base write —
    /// every item one call writes except the base item itself (a put to a table with one GSI
    /// that holds the item: 1). `write-amplification` warns when it is above
    /// `WRITE_AMPLIFICATION_LIMIT`; the goal `MaxIndexWriteAmplification` reads the same number.
    pub write_amplification: Option<f64>,
    /// A read of several entities that live in different partitions: each entity's own read,
    /// one request (or fan-out) each, sent together. The fields above sum them (the operation,
    /// index and key condition are the first part's). Empty for everything else.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PatternPlan>,
    /// A conditional write's condition: how often it fails and what that costs (its failed
    /// writes are in `units_per_call`, its reads in `read_units_per_call`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<condition::ConditionPlan>,
    /// The claims a put takes (uniqueness items): how often the value is taken, and what a
    /// taken claim does to the call (its cancelled transactions are in `units_per_call`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<condition::ConditionPlan>,
    /// An update or delete whose key the caller cannot compute: the read the application sends
    /// first to learn it (`AccessPattern::locating`), planned as any read — a Query of an index
    /// the givens serve, or a Scan. Its read units are its own; `units_per_call` stays the
    /// write's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locate: Option<Box<PatternPlan>>,
    /// The figures `check` cannot predict from the file (shown as `?`, with why); the numbers
    /// above stay the planner's steady state, which the load checks use.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unpredictable: Option<Unpredictable>,
    /// A read-through cache in front of the pattern: its predicted hit ratio (`units_per_call`
    /// and `items_read` are the misses' share, what reaches the table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<cache::CachePlan>,
}

impl PatternPlan {
    /// Items one write call writes: the base item and every index entry, copy and aggregate,
    /// but a MongoDB index entry, which is no document (`WriteTarget::is_item`).
    pub fn items_written(&self, engine: Engine) -> f64 {
        // From +0.0: `f64`'s `sum` of nothing is −0.0, which prints as "-0".
        self.writes.iter().filter(|w| w.target.is_item(engine)).fold(0.0, |items, w| items + w.per_call)
    }

    /// The requests one call sends, as far as the plan knows them: the partitions or keys it
    /// addresses, unless a DynamoDB Query or Scan may read more than a page (1 MB) per call —
    /// every page is a request of its own, and how many a call takes only the replay counts.
    /// The Cassandra driver fetches a SELECT's pages itself: one statement per partition; a
    /// query on a hierarchical key's prefix is one page per physical partition it visits.
    /// `None` when nothing serves the pattern.
    pub fn requests_per_call(&self, engine: Engine) -> Option<u32> {
        let op = self.operation?;
        let pages = matches!(engine.profile().paging, Paging::Bytes(page) if matches!(op, Operation::Query | Operation::Scan)
            && self.bytes_read.is_none_or(|b| b > page as f64))
            && self.key_prefix().is_none();
        (!pages).then_some(self.fanout)
    }

    /// The prefix of a hierarchical partition key the read queries by, when it gives only the
    /// key's first levels (`verdict::KeyPrefix`): what the replay routes to the physical
    /// partitions holding it.
    pub fn key_prefix(&self) -> Option<&verdict::KeyPrefix> {
        let Verdict::Read(verdict::ReadVerdict { how: verdict::ReadHow::Served(served), .. }) = &self.verdict
        else {
            return None;
        };
        match &served.access {
            verdict::Access::Query(q) => q.prefix.as_deref(),
            _ => None,
        }
    }

    /// A pattern's plan before anything serves it: its rates over a run of `secs`, nothing
    /// read or written yet.
    fn start(p: &AccessPattern, kind: Kind, secs: f64) -> PatternPlan {
        PatternPlan {
            name: p.name.clone(),
            pattern: p.id(),
            kind,
            rate: p.rate,
            mean_rate: load::mean_rate(p, secs),
            peak_rate: load::peak_rate(p),
            operation: None,
            index: None,
            fanout: 1,
            key_condition: None,
            filter: None,
            verdict: Verdict::Pending,
            alternatives: Vec::new(),
            units_per_call: 0.0,
            items_read: None,
            bytes_read: None,
            fetch: None,
            writes: Vec::new(),
            write_amplification: None,
            parts: Vec::new(),
            condition: None,
            claim: None,
            locate: None,
            unpredictable: None,
            cache: None,
        }
    }

    /// Whether the keys serve the pattern: false for a Scan, for something no key can serve, and
    /// for an update or delete whose key the caller cannot compute.
    pub fn served(&self) -> bool {
        self.verdict.served()
    }

    /// The requests of one call, each operation named by `name`: "Query ×2", for a read split
    /// by entity "GetItem + Query", for a write that reads its key first "Scan + UpdateItem".
    /// Empty when nothing serves the pattern.
    pub fn requests(&self, name: impl Fn(Operation) -> &'static str) -> String {
        let one = |p: &PatternPlan| {
            let fanout = if p.fanout > 1 { format!(" ×{}", p.fanout) } else { String::new() };
            p.operation.map_or(String::new(), |op| format!("{}{fanout}", name(op)))
        };
        let own = if self.parts.is_empty() {
            one(self)
        } else {
            self.parts.iter().map(one).collect::<Vec<_>>().join(" + ")
        };
        match self.locate.as_deref().map(one).filter(|first| !first.is_empty() && !own.is_empty()) {
            Some(first) => format!("{first} + {own}"),
            None => own,
        }
    }
}

/// The table items a Query on an index fetches for attributes the index does not project.
#[derive(Debug, Clone, Serialize)]
pub struct Fetch {
    /// `BatchGetItem` after a Query on a GSI (the application fetches the results by key, at
    /// most 100 keys a request); `Query` for an LSI, which fetches from the table by itself.
    pub operation: Operation,
    /// BatchGetItem requests per call (0 for an LSI).
    pub requests: u32,
    /// Items fetched per call.
    pub items: f64,
    /// Read units those fetches cost per call (each item rounded up to 4 KB on its own).
    pub units: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Alternative {
    /// The table (`None`) or an index; shown as `table` or `GSI by-user`.
    #[serde(serialize_with = "place_label")]
    pub index: Option<IndexId>,
    /// Serialized as `serves` and `reason`.
    #[serde(flatten)]
    pub considered: Considered,
}

impl Alternative {
    /// Whether this place serves the pattern too (at a higher cost).
    pub fn serves(&self) -> bool {
        self.considered.serves()
    }
}

#[allow(clippy::ref_option, reason = "serde's `serialize_with` passes the field by reference")]
fn place_label<S: serde::Serializer>(index: &Option<IndexId>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&IndexId::place(index.as_ref()))
}

/// One of the variant's indexes, resolved once by the planner: its position in
/// `Variant::indexes`, which is all the simulator and the load checks match on. Its name and kind
/// come along only to be shown (and serialized as the name), never to find the index by.
#[derive(Debug, Clone, Eq)]
pub struct IndexId {
    position: usize,
    name: String,
    kind: IndexKind,
}

impl IndexId {
    /// The index at `position` of `variant.indexes`.
    pub fn of(variant: &Variant, position: usize) -> IndexId {
        IndexId::new(position, &variant.indexes[position])
    }

    /// `index`, which sits at `position` of its variant's indexes.
    pub fn new(position: usize, index: &Index) -> IndexId {
        IndexId { position, name: index.name.clone(), kind: index.kind }
    }

    /// Its position in `Variant::indexes`.
    pub fn position(&self) -> usize {
        self.position
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn kind(&self) -> IndexKind {
        self.kind
    }

    /// The index in `variant`, which must be the variant it was resolved in.
    pub fn resolve<'v>(&self, variant: &'v Variant) -> &'v Index {
        &variant.indexes[self.position]
    }

    /// `GSI by-user`, `LSI by-date`.
    pub fn label(&self) -> String {
        format!("{} {}", self.kind.short(), self.name)
    }

    /// `table`, or the index's `label`.
    pub fn place(index: Option<&IndexId>) -> String {
        index.map_or_else(|| "table".to_owned(), IndexId::label)
    }
}

/// Two ids are the same index when they sit at the same position.
impl PartialEq for IndexId {
    fn eq(&self, other: &IndexId) -> bool {
        self.position == other.position
    }
}

/// JSON reports name the index.
impl Serialize for IndexId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name)
    }
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's `serialize_with` passes the field by reference"
)]
fn engine_id<S: serde::Serializer>(engine: &Engine, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(engine.id())
}

/// One item (or index entry) a write call writes, with how many per call on average.
#[derive(Debug, Clone, Serialize)]
pub struct ItemWrite {
    pub target: WriteTarget,
    pub per_call: f64,
    pub units_each: f64,
    pub why: WriteWhy,
    /// Where the write lands, for the load checks (`target` says what is written).
    #[serde(skip)]
    pub lands: Lands,
}

/// What an `ItemWrite` writes, resolved: shown (and serialized) as `table`, `GSI by-user (copy)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteTarget {
    /// The pattern's own item in the table: `table`.
    Table,
    /// The parent item an embedded child is appended to, by the list it lands in: `table
    /// (comments list)`.
    List(String),
    /// The denormalized copies of an attribute on another entity's items: `copy Order.name`.
    Copy { entity: String, attribute: String },
    /// The aggregate item the named aggregates maintain: `aggregate orders + spend`.
    Aggregate(Vec<String>),
    /// The index entry of one of the items above: `GSI by-user`, `GSI by-user (aggregate)`.
    Entry { index: IndexId, of: Box<WriteTarget> },
}

impl WriteTarget {
    /// The index the write lands in; `None` for the table.
    pub fn index(&self) -> Option<&IndexId> {
        match self {
            WriteTarget::Entry { index, .. } => Some(index),
            _ => None,
        }
    }

    /// Whether writing it writes an item of `engine`'s: everything but a MongoDB index entry,
    /// which is a key and a record id (`IndexEntries::are_items`). Write amplification counts
    /// items only, in a plan as in a run.
    pub fn is_item(&self, engine: Engine) -> bool {
        self.index().is_none() || engine.profile().index_entries.are_items()
    }

    /// Why the pattern writes it.
    pub fn via(&self) -> Via {
        match self {
            WriteTarget::Table => Via::Own,
            WriteTarget::List(_) => Via::Append,
            WriteTarget::Copy { .. } => Via::Copy,
            WriteTarget::Aggregate(_) => Via::Aggregate,
            WriteTarget::Entry { of, .. } => of.via(),
        }
    }

    /// Shown in the engine's words: a Cassandra global index is a materialized view (`view
    /// by-user`), a MongoDB table a collection (`index by-user`, `collection`); everything else
    /// as `Display` has it.
    pub fn shown(&self, engine: Engine) -> String {
        let words = engine.words();
        match (self, engine.profile().language) {
            (WriteTarget::Entry { index, of }, Language::Cql) if index.kind() == IndexKind::Global => {
                format!("view {}{}", index.name(), of.entry_suffix())
            }
            // A MongoDB index is an index, whichever kind the variant declares; the records are
            // documents in a collection.
            (WriteTarget::Entry { index, of }, Language::MongoDb) => {
                format!("{} {}{}", words.global_index, index.name(), of.entry_suffix())
            }
            // The store's own place: a table, a Cosmos DB container, a MongoDB collection.
            (WriteTarget::Table, _) => words.table.to_owned(),
            (WriteTarget::List(list), _) => format!("{} ({list} list)", words.table),
            _ => self.to_string(),
        }
    }

    /// What follows an index entry's label to say whose entry it is.
    fn entry_suffix(&self) -> String {
        match self {
            WriteTarget::Table | WriteTarget::Entry { .. } => String::new(),
            WriteTarget::List(list) => format!(" ({list} list)"),
            WriteTarget::Copy { .. } => " (copy)".to_owned(),
            WriteTarget::Aggregate(_) => " (aggregate)".to_owned(),
        }
    }
}

impl fmt::Display for WriteTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteTarget::Table => f.write_str("table"),
            WriteTarget::List(list) => write!(f, "table ({list} list)"),
            WriteTarget::Copy { entity, attribute } => write!(f, "copy {entity}.{attribute}"),
            WriteTarget::Aggregate(names) => write!(f, "aggregate {}", names.join(" + ")),
            WriteTarget::Entry { index, of } => write!(f, "{}{}", index.label(), of.entry_suffix()),
        }
    }
}

/// A target equals the text it is shown as (for tests that name one).
impl PartialEq<&str> for WriteTarget {
    #[allow(clippy::cmp_owned, reason = "the text is made to be compared")]
    fn eq(&self, text: &&str) -> bool {
        self.to_string() == *text
    }
}

/// JSON reports show the target as people read it.
impl Serialize for WriteTarget {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The item (or index entry) a write lands on: whose key it is under (the table or index is the
/// write's `target`), and why the pattern writes it — which says how the pattern's pick of a key reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lands {
    pub entity: EntityId,
    pub via: Via,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// The pattern's own item.
    Own,
    /// An aggregate item keyed by attributes of the triggering item.
    Aggregate,
    /// A denormalized copy on every item that refers to the source.
    Copy,
    /// The parent item an embedded child is appended to (keyed by the child's reference).
    Append,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningCode {
    /// The table key cannot tell an entity's items apart: puts overwrite each other.
    KeyCollision,
    Unserved,
    Scan,
    UnboundedPartition,
    LargePartition,
    HotPartition,
    LowCardinalityIndex,
    WriteAmplification,
    UnboundedItem,
    /// An entity's items pass 400 KB as generated: every one is refused, the initial load too.
    OversizedItem,
    /// An update sets a table key attribute: a delete and a put, not an UpdateItem.
    KeyUpdate,
    /// A population's count or a pattern's rate is marked `guess: true`: every figure built on
    /// it is too.
    Guess,
    /// Version-checked updates of one item come faster than a read-modify-write takes: many
    /// lose the race, are charged, read again and retry.
    VersionContention,
    /// A read of a parent with its children, ordered and limited, starts at the end of the item
    /// collection the parent's sort key is not at: once a parent has `limit` children, the call
    /// returns children and not the parent.
    CollectionOrder,
    /// A put takes a claim (a uniqueness item) in a request of its own: a put whose claim is
    /// taken has landed already, and two items share the value.
    UnsafeClaim,
}

impl WarningCode {
    pub fn id(self) -> &'static str {
        match self {
            WarningCode::KeyCollision => "key-collision",
            WarningCode::Unserved => "unserved",
            WarningCode::Scan => "scan",
            WarningCode::UnboundedPartition => "unbounded-partition",
            WarningCode::LargePartition => "large-partition",
            WarningCode::HotPartition => "hot-partition",
            WarningCode::LowCardinalityIndex => "low-cardinality-index",
            WarningCode::WriteAmplification => "write-amplification",
            WarningCode::UnboundedItem => "unbounded-item",
            WarningCode::OversizedItem => "oversized-item",
            WarningCode::KeyUpdate => "key-update",
            WarningCode::Guess => "guess",
            WarningCode::VersionContention => "version-contention",
            WarningCode::CollectionOrder => "collection-order",
            WarningCode::UnsafeClaim => "unsafe-claim",
        }
    }
}

/// A warning about the design. Its words (`message` in `check`'s JSON) are `report::findings`'
/// `Display` of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    pub code: WarningCode,
    /// What the warning is about, by id: reports, goals and exports match warnings on this,
    /// never on `subject`'s text.
    pub about: Subject,
    /// The pattern, partition key or index the warning is about, as a reader names it.
    pub subject: String,
    /// What is wrong, with the inputs and arithmetic that show it.
    pub finding: Finding,
    /// The store the design is for, whose words the warning is told in.
    pub engine: Engine,
    /// Seconds into the workload when a growing item or partition passes its limit
    /// (`unbounded-item`, `unbounded-partition`, `large-partition`).
    pub limit_after: Option<f64>,
}

/// The thing a [`Warning`] is about.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// How a pattern is served or what its calls do.
    Pattern(PatternId),
    /// A pattern's rate (a `guess`).
    Rate(PatternId),
    /// A population's count (a `guess`).
    Count(PopulationId),
    /// An entity's items (their size, or the table key they share).
    Entity(EntityId),
    /// One partition key of the table (`index: None`) or of an index, with the entities whose
    /// items the warning counts under it.
    PartitionKey { index: Option<IndexId>, entities: Vec<EntityId> },
}

/// Plans every pattern of the scenario under `variant` (which must be one of its variants).
/// How big the busiest value of each partition key the puts fill gets after `secs` of the
/// workload (the arithmetic of the `unbounded-partition` warning, at any horizon).
pub fn busiest_partitions(scenario: &Scenario, variant: &Variant, secs: f64) -> Vec<Busiest> {
    let mut est = estimate::Estimator::new(scenario, variant);
    est.secs = secs;
    warnings::busiest(&est)
}

pub fn plan(scenario: &Scenario, variant: &Variant) -> Plan {
    let est = estimate::Estimator::new(scenario, variant);
    let patterns: Vec<PatternPlan> = scenario
        .patterns
        .iter()
        .map(|p| if p.action.is_read() { read::plan(&est, p) } else { write::plan(&est, p) })
        .collect();
    let mut patterns = patterns;
    unpredictable::mark(&est, &mut patterns);
    let mut warnings = warnings::collect(&est, &patterns);
    warnings.sort_by(|a, b| (a.code, &a.subject).cmp(&(b.code, &b.subject)));
    Plan {
        scenario: scenario.name.clone(),
        variant: variant.name.clone(),
        engine: scenario.engine,
        layouts: layouts(scenario, variant),
        patterns,
        warnings,
    }
}

/// What each entity's table key is expected to lose over the run (the `key-collision`
/// warning's arithmetic, below its threshold too): for holding `check` to `run`'s overwritten
/// items.
pub fn key_losses(scenario: &Scenario, variant: &Variant) -> Vec<KeyLoss> {
    warnings::collision::losses(&estimate::Estimator::new(scenario, variant))
}

fn layouts(scenario: &Scenario, variant: &Variant) -> Vec<Layout> {
    let mut out = Vec::new();
    let key = |pk_attr: &str, sk_attr: Option<&str>, keys: &super::model::EntityKeys| match scenario
        .engine
        .profile()
        .language
    {
        Language::Cql => keys::CqlPrimaryKey::of(keys, None).to_string(),
        Language::DynamoDbApi | Language::CosmosNoSql | Language::MongoDb => match (&keys.sk, sk_attr) {
            (Some(sk), Some(sk_attr)) => {
                format!("{pk_attr} = {}, {sk_attr} = {}", keys.pk.source(), sk.source())
            }
            _ => format!("{pk_attr} = {}", keys.pk.source()),
        },
    };
    for entity in &scenario.entities {
        if let Some(k) = variant.keys_for(entity.id()) {
            out.push(Layout {
                entity: entity.name.clone(),
                index: None,
                index_kind: None,
                key: key(&variant.table_pk, variant.table_sk.as_deref(), k),
            });
        }
        for index in &variant.indexes {
            if let Some(k) = index.keys_for(entity.id()) {
                // A materialized view's primary key must hold every column of the base table's.
                let key = match scenario.engine.profile().language {
                    Language::Cql => keys::CqlPrimaryKey::of(k, variant.keys_for(entity.id())).to_string(),
                    Language::DynamoDbApi | Language::CosmosNoSql | Language::MongoDb => {
                        key(&index.pk_attribute, index.sk_attribute.as_deref(), k)
                    }
                };
                out.push(Layout {
                    entity: entity.name.clone(),
                    index: Some(index.name.clone()),
                    index_kind: Some(index.kind),
                    key,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;

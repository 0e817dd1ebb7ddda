//! A store profile: everything that differs between the stores keyheat replays a design on, in
//! one place. The engine asks a profile what the store *does* — does it charge capacity units,
//! where do its partitions live, what does it page by — and never which store it is, so a new
//! store is a new [`Profile`] (with a new variant of a capability where the existing ones do not
//! describe it), not a branch in every module.
//!
//! Each figure a profile holds names its source where it is defined; the profiles' figures that
//! are keyheat's own assumptions say so there too.

pub mod bson;
pub mod cosmos;
pub mod json;
pub mod mongo;
pub mod sharding;
pub mod transactions;

use super::model::Engine;
use super::planner::{
    CASSANDRA_PARTITION_BYTES, CASSANDRA_PARTITION_ROWS, CQL_PAGE_ROWS, DYNAMODB_PARTITION_BYTES,
};
use super::sim::{
    CASSANDRA_GC_GRACE_SECS, CASSANDRA_TTL_DELAY_SECS, READ_REPLICAS, REPLICATION, RING_NODES, SPLIT_BYTES,
    TTL_DELAY_SECS,
};
use super::store::{
    MAX_BATCH_GET_KEYS, PAGE_BYTES, failed_write_units, read_units, read_units_for, write_units,
    write_units_for,
};
use super::value::MAX_ITEM_BYTES;
use super::vocabulary::{self, Vocabulary};
use cosmos::Consistency;
use transactions::Transactions;

/// One store's behaviour and words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// How reads and writes are charged and limited.
    pub metering: Metering,
    /// Where a partition's data lives, and what the heatmap's physical layer shows.
    pub placement: Placement,
    /// How a scenario's entities map to tables.
    pub layout: Layout,
    /// Whether each item stores the table's key attributes (DynamoDB's generic `PK`/`SK`),
    /// counted in its size and in its index entries' sizes. `false`: a row's primary key is made
    /// of its own columns, which it already holds.
    pub key_attributes: bool,
    /// What a scenario's indexes become in the store.
    pub indexes: Indexes,
    /// What one index entry holds, and whether writing it is a write of an item.
    pub index_entries: IndexEntries,
    /// Whether a write stores its values without reading the row it replaces: nothing it is
    /// charged depends on the old row (a CQL INSERT or UPDATE is an upsert, and Cassandra meters
    /// no units). `false`: the store reads the old item (DynamoDB charges the larger of the two).
    pub blind_writes: bool,
    /// What a transaction, several items written or read all or nothing, may hold and how it
    /// commits ([`transactions`]); a scenario's `transaction: true` needs one. `None`: the store
    /// has no transactions across partitions.
    pub transactions: Option<Transactions>,
    /// How an item's bytes are counted: what `item_limit` and every size in a report measure.
    pub sizing: Sizing,
    /// The largest item the store accepts; a write past it is refused. `None`: no hard limit
    /// the replay enforces.
    pub item_limit: Option<usize>,
    /// The most levels a partition key may have: 1, or Cosmos DB's hierarchical partition keys
    /// (`cosmos::MAX_KEY_LEVELS`).
    pub key_levels: usize,
    /// Where a read that gives only the first levels of a key of several levels goes.
    pub prefix_reads: PrefixReads,
    /// The partition size the store's guidance holds a design to: bytes, and rows where the
    /// guidance names a count.
    pub partition_guide: PartitionGuide,
    /// What one page of a range read holds.
    pub paging: Paging,
    /// How the requests of one call that reads several partitions are sent.
    pub fanout: Fanout,
    /// How long a request takes (`sim::latency`).
    pub latency: Latency,
    /// The most keys one batched read asks for; `None`: the store has no batch read, and a
    /// call reads each key with a request of its own.
    pub batch_get_keys: Option<usize>,
    /// How long after an item's expiry time the store deletes it.
    pub ttl_delay_secs: i64,
    /// How long a deleted or expired row's tombstone is kept at least, before a compaction may
    /// purge it; `None` for a store that deletes without tombstones the user must plan for.
    pub tombstone_grace_secs: Option<i64>,
    /// The language reports, warnings and the workbench speak to the user in.
    pub language: Language,
    /// Whether requests and storage have a public price.
    pub pricing: Pricing,
    /// The store's nouns.
    pub words: &'static Vocabulary,
}

/// How a store charges and limits load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metering {
    /// Read and write capacity units per request, metered per physical partition against its
    /// limits and a table-level allowance; a request past them is throttled and the client
    /// retries it (DynamoDB).
    Units,
    /// No units and no throttling: load is the operations themselves, counted per partition
    /// and per node (Cassandra).
    Operations,
    /// Request units, one currency for reads and writes, charged by [`cosmos`]'s rules; the
    /// container's provisioned RU/s is divided evenly among its physical partitions, each
    /// serving at most 10,000 RU/s, and a request past its partition's share in a second is
    /// refused with 429 and retried by the client (Cosmos DB).
    RequestUnits,
}

impl Metering {
    /// The units a point read of an item of `bytes` costs (0: the item is missing, which still
    /// costs the least a read does): DynamoDB's eventually consistent read units, or in a
    /// transaction twice the strongly consistent ones (prepare and commit); Cosmos DB's request
    /// units at session consistency; nothing where nothing is metered.
    pub fn point_read(self, bytes: u64, transaction: bool) -> f64 {
        match (self, transaction) {
            (Metering::Operations, _) => 0.0,
            (Metering::Units, true) => 2.0 * read_units(bytes, true),
            (Metering::Units, false) => read_units(bytes, false),
            (Metering::RequestUnits, _) => cosmos::point_read_ru(bytes, Consistency::Relaxed),
        }
    }

    /// The units one page of a range read that read `bytes` costs on one partition.
    pub fn page(self, bytes: u64) -> f64 {
        match self {
            Metering::Operations => 0.0,
            Metering::Units => read_units(bytes, false),
            Metering::RequestUnits => cosmos::query_page_ru(bytes, Consistency::Relaxed),
        }
    }

    /// The units a read that must see the latest write costs (a version check's read): DynamoDB's
    /// strongly consistent read units; on Cosmos DB a point read, since its session consistency
    /// already reads the session's own writes (keyheat's reading: the application's session).
    pub fn latest_read(self, bytes: u64) -> f64 {
        match self {
            Metering::Units | Metering::Operations => read_units(bytes, true),
            Metering::RequestUnits => cosmos::point_read_ru(bytes, Consistency::Relaxed),
        }
    }

    /// The units a write refused by its condition still costs, the item stored at the key being
    /// `old` bytes (0: none) and the one it would have written `new`: DynamoDB charges the
    /// larger per KB (`failed_write_units`); Cosmos DB charges failed requests (a 412) without
    /// saying how much, so keyheat charges what the write would have cost (its assumption).
    pub fn failed_write(self, old: u64, new: u64) -> f64 {
        match self {
            Metering::Units | Metering::Operations => failed_write_units(old, new),
            Metering::RequestUnits => self.write((old > 0).then_some(old), Some(new)),
        }
    }

    /// [`Metering::point_read`] of an item whose size is a mean (the planner's estimates).
    pub fn point_read_for(self, bytes: f64) -> f64 {
        match self {
            Metering::Units | Metering::Operations => read_units_for(bytes, false),
            Metering::RequestUnits => cosmos::point_read_ru(whole_bytes(bytes), Consistency::Relaxed),
        }
    }

    /// [`Metering::page`] of a page whose size is a mean (the planner's estimates).
    pub fn page_for(self, bytes: f64) -> f64 {
        match self {
            Metering::Units | Metering::Operations => read_units_for(bytes, false),
            Metering::RequestUnits => cosmos::query_page_ru(whole_bytes(bytes), Consistency::Relaxed),
        }
    }

    /// [`Metering::write`] of an item whose size is a mean (the planner's estimates): `replaces`
    /// says whether the item is there before (an update, a copy or aggregate rewritten) or not
    /// (a put of a new item, a delete).
    pub fn write_for(self, bytes: f64, replaces: bool) -> f64 {
        match self {
            Metering::Units | Metering::Operations => write_units_for(bytes),
            Metering::RequestUnits if replaces => cosmos::replace_ru(whole_bytes(bytes), whole_bytes(bytes)),
            Metering::RequestUnits => cosmos::insert_ru(whole_bytes(bytes)),
        }
    }

    /// The units a write of one item costs, from `old` to `new` bytes (`None`: absent before,
    /// or deleted). DynamoDB (and the operation counts' bookkeeping): the larger of the two
    /// per started KB. Cosmos DB: a create or a delete is one write by the document's size, a
    /// replace two (the old document deleted, the new inserted); a write that finds nothing is
    /// charged as the smallest create (keyheat's assumption).
    pub fn write(self, old: Option<u64>, new: Option<u64>) -> f64 {
        match (self, old, new) {
            (Metering::Units | Metering::Operations, ..) => {
                write_units(old.unwrap_or(0).max(new.unwrap_or(0)))
            }
            (Metering::RequestUnits, Some(old), Some(new)) => cosmos::replace_ru(old, new),
            (Metering::RequestUnits, None, Some(bytes)) => cosmos::insert_ru(bytes),
            (Metering::RequestUnits, Some(bytes), None) => cosmos::delete_ru(bytes),
            (Metering::RequestUnits, None, None) => cosmos::insert_ru(0),
        }
    }
}

/// A mean size in whole bytes, rounded up (the charges round sizes up to started KB anyway).
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a size in bytes")]
fn whole_bytes(bytes: f64) -> u64 {
    bytes.max(0.0).ceil() as u64
}

/// Where a store keeps a partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Physical partitions, each a range of partition-key hashes holding whole logical
    /// partitions, that split past `split_bytes` and, when `heat_splits`, on sustained heat;
    /// they never merge. DynamoDB splits at 10 GB and for heat; Cosmos DB splits at 50 GB and
    /// never for heat (a hot key is served by the share of its partition, or throttled).
    HashRanges { split_bytes: u64, heat_splits: bool },
    /// A token ring: a partition lives on the node owning its token and the next
    /// `replicas − 1`; a write touches every replica, a read `read_replicas` of them
    /// (Cassandra at QUORUM).
    Ring { nodes: usize, replicas: usize, read_replicas: usize },
}

/// How entities map to tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One table holds every entity, each keyed by the variant's templates (single-table
    /// design).
    SingleTable,
    /// Each entity is a table of its own.
    TablePerEntity,
}

/// The partition size a store's guidance holds a design to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionGuide {
    pub bytes: f64,
    pub rows: Option<f64>,
    /// Whose rule the figure is, and what passing it does: a warning words it from this.
    pub guidance: Guidance,
}

/// The rule a partition's size is held to, and what happens past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guidance {
    /// Cassandra's guidance: ~100 MB and ~100,000 rows; reads and compaction slow past it.
    Cassandra,
    /// A DynamoDB table with a local index refuses writes to an item collection past 10 GB.
    LocalIndex,
    /// DynamoDB's 10 GB guidance, past which a key's items split by sort key range.
    DynamoDb,
    /// Cosmos DB's hard limit: a logical partition (one whole partition key value) holds at most
    /// 20 GB, and writes past it are refused whatever the throughput (`cosmos`).
    CosmosDb,
    /// MongoDB limits a document to 16 MB, not the documents that share a key value: keyheat
    /// holds a key's documents to what one document embedding them could hold (its threshold).
    MongoDb,
}

/// What a scenario's indexes become in a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indexes {
    /// Global and local secondary indexes, as the variant declares them, each holding only the
    /// attributes it projects: a read that returns more fetches its items from the table after
    /// it (DynamoDB).
    Secondary,
    /// Materialized views: every index is a view, kept by the store, holding every column a
    /// read selects (a Cassandra view of `SELECT *`).
    Views,
    /// No secondary index to declare: the store indexes every property of every item itself,
    /// its charge part of each write's, and a read that does not give the partition key is a
    /// query across every physical partition (Cosmos DB's default indexing policy, "Indexing
    /// policies in Azure Cosmos DB"). A variant's declared indexes are refused on it.
    Automatic,
}

/// What one index entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexEntries {
    /// The index's keys, the table's keys and the attributes the index projects (the whole item
    /// for ALL): a copy of the item, written as an item of its own whenever what it carries
    /// changes, and counted in write amplification (a DynamoDB GSI or LSI, a Cassandra view row).
    Projected,
    /// The indexed fields' values and a record id pointing at the document, never a copy of
    /// the document: "The index stores the value of a specific field or set of fields, ordered
    /// by the value of the field" (MongoDB manual, "Indexes",
    /// mongodb.com/docs/manual/indexes/). It changes only when an indexed value does, is
    /// applied with the document's write (no replication lag), and is a key in the index's
    /// B-tree, not a document write. `record_id_bytes` is keyheat's assumption
    /// ([`mongo::RECORD_ID_BYTES`]).
    KeyAndRecordId { record_id_bytes: usize },
}

impl IndexEntries {
    /// Whether an entry written counts as an item written in write amplification.
    pub fn are_items(self) -> bool {
        self == IndexEntries::Projected
    }
}

/// Where a read goes that gives the first levels of a partition key of several levels
/// (`key_levels` above 1) but not all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrefixReads {
    /// The store's partition key is one value: a read without all of it reads every partition.
    Unrouted,
    /// To the physical partitions holding the prefix's placements ([`cosmos::prefix_range`]):
    /// "Queries that specify either `TenantId`, or both `TenantId` and `UserId`, are efficiently
    /// routed to only the subset of physical partitions that contain the relevant data"; a
    /// query giving only a later level is a cross-partition query ("Hierarchical partition keys
    /// in Azure Cosmos DB").
    ByPlacement,
}

/// What one page of a range read holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paging {
    /// At most this many bytes read (DynamoDB's 1 MB Query and Scan pages).
    Bytes(u64),
    /// At most this many rows (a CQL driver's fetch size).
    Rows(usize),
}

/// How the requests of a call that reads several partitions are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fanout {
    /// Together: the call takes as long as the slowest (an application's parallel fan-out).
    Parallel,
    /// One after another: the call takes their sum (a per-bucket loop; CQL pages an `IN` over
    /// partition keys the same way).
    Sequential,
}

/// How long a request takes: keyheat's own models (`sim::latency`), labelled "modelled"
/// wherever they are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Latency {
    /// Per request, plus per 4 KB read (DynamoDB).
    Requests,
    /// Per page of a statement, plus per row and per 10 MB of the partition read (CQL).
    Statements,
    /// Reads as [`Latency::Requests`]; a write also pays for building and writing the new
    /// version of its whole document, however little of it changed ([`mongo::update_ms`],
    /// keyheat's assumption): the server applies an update to the whole document (MongoDB).
    Documents,
}

/// How a store counts an item's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sizing {
    /// DynamoDB's rules ("Item sizes and formats"): each attribute's name and value, a list 3
    /// bytes and 1 per element, a map element its key too (`value::item_size`). The Cassandra
    /// profile is held to them too (keyheat's approximation there).
    Attributes,
    /// BSON's grammar ([`bson`]): a document's 4-byte length and terminator, each field's type
    /// byte, name and terminator, arrays as documents named by their indexes; and the `_id`
    /// ObjectId the driver adds (keyheat's reading: a scenario's key attributes are fields of
    /// their own, the `_id` is generated).
    Bson,
    /// The UTF-8 length of the item's JSON ([`json`]), as Cosmos DB measures it: quoted names
    /// and strings, numbers as decimal text, dates as ISO 8601 strings, and the `id` and the
    /// properties the service adds to every item.
    Json,
}

impl Sizing {
    /// Bytes of a whole item besides its fields: a BSON document's frame and `_id`.
    pub fn document_overhead(self) -> usize {
        match self {
            Sizing::Attributes => 0,
            Sizing::Bson => 5 + bson::GENERATED_ID_BYTES,
            Sizing::Json => json::ITEM_OVERHEAD_BYTES,
        }
    }

    /// Bytes of one top-level field whose name is `name_bytes` long and whose value (as this
    /// store sizes it) is `value_bytes`.
    pub fn field(self, name_bytes: usize, value_bytes: usize) -> usize {
        match self {
            Sizing::Attributes => name_bytes + value_bytes,
            Sizing::Bson => 1 + name_bytes + 1 + value_bytes,
            Sizing::Json => json::member_size(name_bytes, value_bytes),
        }
    }

    /// Bytes of one field of a map nested in a list: DynamoDB counts 1 byte per map element on
    /// top of its name and value.
    pub fn nested_field(self, name_bytes: usize, value_bytes: usize) -> usize {
        match self {
            Sizing::Attributes => 1 + name_bytes + value_bytes,
            Sizing::Bson | Sizing::Json => self.field(name_bytes, value_bytes),
        }
    }

    /// Bytes of an empty list.
    pub fn empty_list(self) -> usize {
        match self {
            Sizing::Attributes => 3,
            Sizing::Bson => 5,
            Sizing::Json => 2,
        }
    }

    /// Bytes one list element holding a map of `fields` bytes takes, besides its index's name:
    /// DynamoDB 1 byte per element and the map's 3; BSON the element's type byte, its name's
    /// terminator and an embedded document's 5; JSON an object's braces around its members, each
    /// of which `fields` counts with a comma the last one does not have.
    pub fn list_element(self, fields: usize) -> usize {
        match self {
            Sizing::Attributes => 1 + 3 + fields,
            Sizing::Bson => 2 + 5 + fields,
            Sizing::Json => 2 + fields.saturating_sub(1),
        }
    }

    /// Bytes that name or separate the elements of a list of `len`: none on DynamoDB, the
    /// decimal digits of every index in BSON ("0", "1", …), the commas between them in JSON.
    pub fn list_names(self, len: usize) -> usize {
        match self {
            Sizing::Attributes => 0,
            Sizing::Bson => bson::index_digits(len),
            Sizing::Json => len.saturating_sub(1),
        }
    }
}

/// The language a profile's reports speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// DynamoDB's API: GetItem, Query, Scan, PutItem; items, GSIs, RCU and WCU.
    DynamoDbApi,
    /// CQL: SELECT, INSERT, UPDATE; rows, tables per entity, materialized views.
    Cql,
    /// Cosmos DB's API for NoSQL: point reads, queries, create, replace, delete; items in one
    /// container, request units.
    CosmosNoSql,
    /// MongoDB's query language: findOne, find, insertOne, updateOne, deleteOne; documents in
    /// collections.
    MongoDb,
}

/// Whether a store's requests have a public price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pricing {
    /// AWS's on-demand price list (`engine::cost`).
    OnDemand,
    /// Self-managed: no per-request price.
    SelfManaged,
    /// A managed store keyheat holds no sourced price list for: no cost is shown rather than
    /// an invented one.
    Unlisted,
    /// Priced by the servers it runs on (self-run, or a hosted cluster's tier), not per request
    /// or per byte: no cost is shown.
    Servers,
}

/// DynamoDB: the store keyheat models first (DESIGN.md §4).
pub const DYNAMODB: Profile = Profile {
    metering: Metering::Units,
    placement: Placement::HashRanges { split_bytes: SPLIT_BYTES, heat_splits: true },
    layout: Layout::SingleTable,
    key_attributes: true,
    indexes: Indexes::Secondary,
    index_entries: IndexEntries::Projected,
    blind_writes: false,
    transactions: Some(transactions::DYNAMODB),
    sizing: Sizing::Attributes,
    item_limit: Some(MAX_ITEM_BYTES),
    key_levels: 1,
    prefix_reads: PrefixReads::Unrouted,
    partition_guide: PartitionGuide {
        bytes: DYNAMODB_PARTITION_BYTES,
        rows: None,
        guidance: Guidance::DynamoDb,
    },
    paging: Paging::Bytes(PAGE_BYTES),
    fanout: Fanout::Parallel,
    latency: Latency::Requests,
    batch_get_keys: Some(MAX_BATCH_GET_KEYS),
    ttl_delay_secs: TTL_DELAY_SECS,
    tombstone_grace_secs: None,
    language: Language::DynamoDbApi,
    pricing: Pricing::OnDemand,
    words: &vocabulary::DYNAMODB,
};

/// Cassandra: DataStax's partition guidance, a ring of nodes, CQL's words.
pub const CASSANDRA: Profile = Profile {
    metering: Metering::Operations,
    placement: Placement::Ring { nodes: RING_NODES, replicas: REPLICATION, read_replicas: READ_REPLICAS },
    layout: Layout::TablePerEntity,
    key_attributes: false,
    indexes: Indexes::Views,
    index_entries: IndexEntries::Projected,
    blind_writes: true,
    transactions: None,
    sizing: Sizing::Attributes,
    item_limit: None,
    key_levels: 1,
    prefix_reads: PrefixReads::Unrouted,
    partition_guide: PartitionGuide {
        bytes: CASSANDRA_PARTITION_BYTES,
        rows: Some(CASSANDRA_PARTITION_ROWS),
        guidance: Guidance::Cassandra,
    },
    paging: Paging::Rows(CQL_PAGE_ROWS),
    fanout: Fanout::Sequential,
    latency: Latency::Statements,
    batch_get_keys: None,
    ttl_delay_secs: CASSANDRA_TTL_DELAY_SECS,
    tombstone_grace_secs: Some(CASSANDRA_GC_GRACE_SECS),
    language: Language::Cql,
    pricing: Pricing::SelfManaged,
    words: &vocabulary::CASSANDRA,
};

/// Cosmos DB (API for NoSQL): one container, request units, physical partitions that each serve
/// an even share of the container's throughput. Figures from [`cosmos`], each with its source.
pub const COSMOSDB: Profile = Profile {
    metering: Metering::RequestUnits,
    placement: Placement::HashRanges { split_bytes: cosmos::PHYSICAL_PARTITION_BYTES, heat_splits: false },
    layout: Layout::SingleTable,
    // A single-container design stores its synthetic partition key (and id) as properties of
    // the item, as DynamoDB's generic PK/SK.
    key_attributes: true,
    indexes: Indexes::Automatic,
    index_entries: IndexEntries::Projected,
    // An upsert's charge depends on whether the item was there (a replace costs twice an
    // insert), so the store reads what it replaces.
    blind_writes: false,
    // A transactional batch covers one logical partition only ("Transactional batch operations
    // in Azure Cosmos DB"); a scenario's transactions span partitions.
    transactions: None,
    // Cosmos DB measures the 2 MB, and charges requests, by the item's JSON.
    sizing: Sizing::Json,
    item_limit: Some(cosmos::MAX_ITEM_BYTES),
    key_levels: cosmos::MAX_KEY_LEVELS,
    prefix_reads: PrefixReads::ByPlacement,
    // The 20 GB of a logical partition is a hard limit: a write past it fails.
    partition_guide: PartitionGuide {
        bytes: cosmos::LOGICAL_PARTITION_BYTES as f64,
        rows: None,
        guidance: Guidance::CosmosDb,
    },
    // keyheat pages queries by DynamoDB's 1 MB (a Cosmos DB page ends at its item count or 4 MB
    // of response, "Azure Cosmos DB service quotas"): keyheat's assumption.
    paging: Paging::Bytes(PAGE_BYTES),
    fanout: Fanout::Parallel,
    latency: Latency::Requests,
    // Each key is a point read of its own (ReadMany is not modelled).
    batch_get_keys: None,
    // Expired items are not returned by reads even before the background delete ("Time to
    // Live (TTL) in Azure Cosmos DB"): gone at once, as in the Cassandra profile.
    ttl_delay_secs: 0,
    tombstone_grace_secs: None,
    language: Language::CosmosNoSql,
    pricing: Pricing::Unlisted,
    words: &vocabulary::COSMOSDB,
};

/// MongoDB, one replica set (sharding is not modelled): collections of BSON documents, no
/// capacity units and no throttling, a document's whole new version built by every update. Figures from
/// [`mongo`] and [`bson`], each with its source.
pub const MONGODB: Profile = Profile {
    metering: Metering::Operations,
    // One replica set: the primary holds every collection whole and nothing splits (chunks and
    // shards are not modelled).
    placement: Placement::HashRanges { split_bytes: u64::MAX, heat_splits: false },
    // A design is one collection per entity ("Data Modeling": embed or reference).
    layout: Layout::TablePerEntity,
    // A document's key fields are its own; its `_id` is counted by `Sizing::Bson`.
    key_attributes: false,
    indexes: Indexes::Secondary,
    // A secondary index entry is the indexed key and a RecordId, not a projected copy.
    index_entries: IndexEntries::KeyAndRecordId { record_id_bytes: mongo::RECORD_ID_BYTES },
    // An update reads the document it changes and builds its whole new version (`mongo`).
    blind_writes: false,
    // Multi-document transactions on a replica set ("Transactions", MongoDB 4.0 and later),
    // held to MongoDB's limits, not DynamoDB's.
    transactions: Some(transactions::MONGODB),
    sizing: Sizing::Bson,
    item_limit: Some(bson::MAX_DOCUMENT_BYTES),
    key_levels: 1,
    prefix_reads: PrefixReads::Unrouted,
    // MongoDB limits documents, not the documents one key value groups: keyheat holds what one
    // key holds to the document limit, where one document embedding it all would be refused
    // (keyheat's choice; a sharded collection's jumbo ranges are the replay's `shards`).
    partition_guide: PartitionGuide {
        bytes: bson::MAX_DOCUMENT_BYTES as f64,
        rows: None,
        guidance: Guidance::MongoDb,
    },
    paging: Paging::Bytes(PAGE_BYTES),
    fanout: Fanout::Parallel,
    latency: Latency::Documents,
    batch_get_keys: None,
    // The TTL monitor deletes expired documents every 60 seconds ("TTL Indexes").
    ttl_delay_secs: mongo::TTL_MONITOR_SECS,
    tombstone_grace_secs: None,
    language: Language::MongoDb,
    pricing: Pricing::Servers,
    words: &vocabulary::MONGODB,
};

impl Engine {
    /// This store's profile.
    pub fn profile(self) -> &'static Profile {
        match self {
            Engine::DynamoDb => &DYNAMODB,
            Engine::Cassandra => &CASSANDRA,
            Engine::CosmosDb => &COSMOSDB,
            Engine::MongoDb => &MONGODB,
        }
    }
}

impl Profile {
    /// Whether requests are charged in units, capacity or request units (and can be
    /// throttled).
    pub fn metered(&self) -> bool {
        matches!(self.metering, Metering::Units | Metering::RequestUnits)
    }

    /// Whether requests are charged in request units (Cosmos DB).
    pub fn request_units(&self) -> bool {
        self.metering == Metering::RequestUnits
    }

    /// Whether reports speak CQL.
    pub fn cql(&self) -> bool {
        self.language == Language::Cql
    }

    /// The ring's nodes, replicas and read replicas, for a store that places partitions on a
    /// ring.
    pub fn ring(&self) -> Option<(usize, usize, usize)> {
        match self.placement {
            Placement::Ring { nodes, replicas, read_replicas } => Some((nodes, replicas, read_replicas)),
            Placement::HashRanges { .. } => None,
        }
    }

    /// Rows per page, for a store that pages range reads by rows.
    pub fn page_rows(&self) -> Option<usize> {
        match self.paging {
            Paging::Rows(rows) => Some(rows),
            Paging::Bytes(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each store's profile, capability by capability: a change to one is a change to what
    /// keyheat teaches about that store, so it shows here.
    #[test]
    fn each_store_has_its_own_behaviour() {
        // (engine, metered, ring, single table, key attributes, item limit, guide bytes, guide
        //  rows, page rows, fan-out, TTL delay, CQL, priced)
        let cases = [
            (
                Engine::DynamoDb,
                true,
                None,
                true,
                true,
                Some(400 * 1024),
                10.0 * 1024.0 * 1024.0 * 1024.0,
                None,
                None,
                Fanout::Parallel,
                48 * 3600,
                false,
                Pricing::OnDemand,
            ),
            (
                Engine::Cassandra,
                false,
                Some((6, 3, 2)),
                false,
                false,
                None,
                100.0 * 1024.0 * 1024.0,
                Some(100_000.0),
                Some(5000),
                Fanout::Sequential,
                0,
                true,
                Pricing::SelfManaged,
            ),
            (
                // Azure Cosmos DB service quotas: 2 MB items, 20 GB logical partitions.
                Engine::CosmosDb,
                true,
                None,
                true,
                true,
                Some(2 * 1024 * 1024),
                20.0 * 1024.0 * 1024.0 * 1024.0,
                None,
                None,
                Fanout::Parallel,
                0,
                false,
                Pricing::Unlisted,
            ),
            (
                // MongoDB Limits and Thresholds: 16 MB documents; TTL Indexes: a 60 s monitor.
                Engine::MongoDb,
                false,
                None,
                false,
                false,
                Some(16_777_216),
                16.0 * 1024.0 * 1024.0,
                None,
                None,
                Fanout::Parallel,
                60,
                false,
                Pricing::Servers,
            ),
        ];
        for (engine, metered, ring, single, keys, limit, bytes, rows, page_rows, fanout, ttl, cql, pricing) in
            cases
        {
            let p = engine.profile();
            assert_eq!(p.metered(), metered, "{engine}");
            assert_eq!(p.ring(), ring, "{engine}");
            assert_eq!(p.layout == Layout::SingleTable, single, "{engine}");
            assert_eq!(p.key_attributes, keys, "{engine}");
            assert_eq!(p.item_limit, limit, "{engine}");
            assert_eq!((p.partition_guide.bytes, p.partition_guide.rows), (bytes, rows), "{engine}");
            assert_eq!(p.page_rows(), page_rows, "{engine}");
            assert_eq!(p.fanout, fanout, "{engine}");
            assert_eq!(p.ttl_delay_secs, ttl, "{engine}");
            assert_eq!(p.cql(), cql, "{engine}");
            assert_eq!(p.pricing, pricing, "{engine}");
        }
    }

    /// The rest of each store's behaviour: what its indexes are, what a read and a write do.
    #[test]
    fn each_store_reads_and_writes_its_own_way() {
        // (engine, indexes, blind writes, transactions, latency, batch get keys, tombstone grace)
        let cases = [
            (
                Engine::DynamoDb,
                Indexes::Secondary,
                false,
                Some(transactions::DYNAMODB),
                Latency::Requests,
                Some(100),
                None,
            ),
            (Engine::Cassandra, Indexes::Views, true, None, Latency::Statements, None, Some(864_000)),
            (Engine::CosmosDb, Indexes::Automatic, false, None, Latency::Requests, None, None),
            // Transactions: multi-document on a replica set since MongoDB 4.0; a write pays for
            // building the whole document's new version (keyheat's assumption).
            (
                Engine::MongoDb,
                Indexes::Secondary,
                false,
                Some(transactions::MONGODB),
                Latency::Documents,
                None,
                None,
            ),
        ];
        for (engine, indexes, blind, transactions, latency, batch, grace) in cases {
            let p = engine.profile();
            assert_eq!(p.indexes, indexes, "{engine}");
            assert_eq!(p.blind_writes, blind, "{engine}");
            assert_eq!(p.transactions, transactions, "{engine}");
            assert_eq!(p.latency, latency, "{engine}");
            assert_eq!(p.batch_get_keys, batch, "{engine}");
            assert_eq!(p.tombstone_grace_secs, grace, "{engine}");
            assert!(std::ptr::eq(p.words, engine.words()), "{engine}");
        }
    }

    /// How each store meters and where its partitions split: DynamoDB at 10 GB and for heat
    /// (AWS, "partition key design"), Cosmos DB at 50 GB and never for a hot key
    /// ("Partitioning and horizontal scaling").
    #[test]
    fn each_store_meters_and_splits_its_own_way() {
        // (engine, metering, request units, placement)
        let cases = [
            (
                Engine::DynamoDb,
                Metering::Units,
                false,
                Placement::HashRanges { split_bytes: 10 << 30, heat_splits: true },
            ),
            (
                Engine::Cassandra,
                Metering::Operations,
                false,
                Placement::Ring { nodes: 6, replicas: 3, read_replicas: 2 },
            ),
            (
                Engine::CosmosDb,
                Metering::RequestUnits,
                true,
                Placement::HashRanges { split_bytes: 50 << 30, heat_splits: false },
            ),
            (
                // One replica set: nothing splits (sharding is not modelled).
                Engine::MongoDb,
                Metering::Operations,
                false,
                Placement::HashRanges { split_bytes: u64::MAX, heat_splits: false },
            ),
        ];
        for (engine, metering, ru, placement) in cases {
            let p = engine.profile();
            assert_eq!((p.metering, p.request_units(), p.placement), (metering, ru, placement), "{engine}");
        }
        assert_eq!(Engine::from_id("cosmosdb"), Some(Engine::CosmosDb));
        assert_eq!(Engine::CosmosDb.to_string(), "Cosmos DB");
        assert_eq!(Engine::from_id("mongodb"), Some(Engine::MongoDb));
        assert_eq!(Engine::MongoDb.to_string(), "MongoDB");
    }

    /// How each store counts an item's bytes: DynamoDB's attribute rules, BSON's grammar with
    /// the `_id` MongoDB adds (bsonspec.org; "MongoDB Limits and Thresholds"), or the length of
    /// the JSON Cosmos DB stores ("Azure Cosmos DB service quotas").
    #[test]
    fn each_store_sizes_items_its_own_way() {
        // (engine, sizing, bytes besides the fields, a field "body" of 150 bytes of text, an
        //  empty list, a list element of a 100-byte map, names of a 1,000-element list)
        let cases = [
            (Engine::DynamoDb, Sizing::Attributes, 0, 4 + 150, 3, 104, 0),
            (Engine::Cassandra, Sizing::Attributes, 0, 4 + 150, 3, 104, 0),
            // JSON: braces, the `id` and the service's properties; `"body":"…",`; `[]`; an
            // object's braces around 100 bytes of members less the last one's comma; 999 commas.
            (
                Engine::CosmosDb,
                Sizing::Json,
                json::ITEM_OVERHEAD_BYTES,
                1 + 4 + 1 + 1 + (150 + 2) + 1,
                2,
                101,
                999,
            ),
            // BSON: frame 5 + `_id` 17; a field's type byte, name, terminator and a string's
            // length, bytes and terminator; an element's type byte, terminator and a document's 5;
            // the indexes 0..999 take 10 + 90×2 + 900×3 digits.
            (Engine::MongoDb, Sizing::Bson, 22, 1 + 4 + 1 + (4 + 150 + 1), 5, 107, 2_890),
        ];
        for (engine, sizing, overhead, body, empty, element, names) in cases {
            let p = engine.profile();
            assert_eq!(p.sizing, sizing, "{engine}");
            assert_eq!(sizing.document_overhead(), overhead, "{engine}");
            let text = match sizing {
                Sizing::Attributes => 150,
                Sizing::Bson => bson::string_size(150),
                Sizing::Json => json::string_size(&"x".repeat(150)),
            };
            assert_eq!(sizing.field(4, text), body, "{engine}");
            assert_eq!(sizing.empty_list(), empty, "{engine}");
            assert_eq!(sizing.list_element(100), element, "{engine}");
            assert_eq!(sizing.list_names(1_000), names, "{engine}");
        }
        // A BSON list built element by element is the one `bson` sizes whole.
        let bson_list =
            Sizing::Bson.empty_list() + 3 * (Sizing::Bson.list_element(100)) + Sizing::Bson.list_names(3);
        assert_eq!(bson_list, bson::uniform_array_size(3, 5 + 100));
        // So is a JSON list: `[{…},{…},{…}]` around three objects of one 3-byte member
        // (`"a":1,` counted with its comma: 6 bytes).
        let json_list = Sizing::Json.empty_list()
            + 3 * Sizing::Json.list_element(json::member_size(1, 1))
            + Sizing::Json.list_names(3);
        assert_eq!(json_list, r#"[{"a":1},{"a":1},{"a":1}]"#.len());
    }

    /// What each request is charged, store by store, with where the figure comes from.
    #[test]
    fn each_store_charges_its_own_units() {
        let kb = 1024;
        // (what, charged, expected, source)
        let cases = [
            (
                "DynamoDB get 1 KB",
                Metering::Units.point_read(kb, false),
                0.5,
                "AWS: 4 KB per RCU, ½ eventually consistent",
            ),
            (
                "DynamoDB get in a transaction",
                Metering::Units.point_read(kb, true),
                2.0,
                "AWS: transactional reads 2×",
            ),
            ("DynamoDB page 9 KB", Metering::Units.page(9 * kb), 1.5, "AWS: summed, rounded up to 4 KB once"),
            (
                "DynamoDB update 1 KB → 2 KB",
                Metering::Units.write(Some(kb), Some(2 * kb)),
                2.0,
                "AWS: max(old, new) per KB",
            ),
            ("Cassandra get", Metering::Operations.point_read(kb, false), 0.0, "no units"),
            (
                "Cosmos DB point read 1 KB",
                Metering::RequestUnits.point_read(kb, false),
                1.0,
                "Request Units: 1 KB read = 1 RU",
            ),
            (
                "Cosmos DB point read, missing",
                Metering::RequestUnits.point_read(0, false),
                1.0,
                "keyheat: the least a read costs",
            ),
            (
                "Cosmos DB create 1 KB",
                Metering::RequestUnits.write(None, Some(kb)),
                4.95,
                "Understand RU: 1 KB write 4.95",
            ),
            (
                "Cosmos DB replace 1 KB",
                Metering::RequestUnits.write(Some(kb), Some(kb)),
                9.9,
                "Understand RU: replace = delete + insert",
            ),
            (
                "Cosmos DB delete 1 KB",
                Metering::RequestUnits.write(Some(kb), None),
                4.95,
                "Understand RU: delete = the write by size",
            ),
            (
                "Cosmos DB query page 1 KB",
                Metering::RequestUnits.page(kb),
                3.5,
                "keyheat: 2.5 RU a partition + 1 RU per KB",
            ),
            (
                "DynamoDB failed condition 1 KB",
                Metering::Units.failed_write(kb, 0),
                1.0,
                "AWS: a failed condition still charges",
            ),
            (
                "DynamoDB version read 5 KB",
                Metering::Units.latest_read(5 * kb),
                2.0,
                "AWS: strongly consistent, 4 KB per RCU",
            ),
            (
                "Cosmos DB failed replace 1 KB",
                Metering::RequestUnits.failed_write(kb, kb),
                9.9,
                "keyheat: as the write",
            ),
            (
                "Cosmos DB failed create 1 KB",
                Metering::RequestUnits.failed_write(0, kb),
                4.95,
                "keyheat: as the write",
            ),
            (
                "Cosmos DB version read 1 KB",
                Metering::RequestUnits.latest_read(kb),
                1.0,
                "session reads its own writes",
            ),
        ];
        for (what, charged, expected, source) in cases {
            assert!((charged - expected).abs() < 1e-9, "{what}: {charged}, expected {expected} ({source})");
        }
    }
}

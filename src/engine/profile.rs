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

use super::model::Engine;
use super::planner::{
    CASSANDRA_PARTITION_BYTES, CASSANDRA_PARTITION_ROWS, CQL_PAGE_ROWS, DYNAMODB_PARTITION_BYTES,
};
use super::sim::{
    CASSANDRA_GC_GRACE_SECS, CASSANDRA_TTL_DELAY_SECS, READ_REPLICAS, REPLICATION, RING_NODES, TTL_DELAY_SECS,
};
use super::store::{MAX_BATCH_GET_KEYS, PAGE_BYTES};
use super::value::MAX_ITEM_BYTES;
use super::vocabulary::{self, Vocabulary};

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
    /// Whether a write stores its values without reading the row it replaces: nothing it is
    /// charged depends on the old row (a CQL INSERT or UPDATE is an upsert, and Cassandra meters
    /// no units). `false`: the store reads the old item (DynamoDB charges the larger of the two).
    pub blind_writes: bool,
    /// Whether a request can write several items all or nothing (DynamoDB's
    /// TransactWriteItems); a scenario's `transaction: true` needs it.
    pub transactions: bool,
    /// The largest item the store accepts; a write past it is refused. `None`: no hard limit
    /// the replay enforces.
    pub item_limit: Option<usize>,
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
}

/// Where a store keeps a partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Physical partitions, each a range of partition-key hashes, that split on size and on
    /// sustained heat and never merge (DynamoDB).
    HashRanges,
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
}

/// The language a profile's reports speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// DynamoDB's API: GetItem, Query, Scan, PutItem; items, GSIs, RCU and WCU.
    DynamoDbApi,
    /// CQL: SELECT, INSERT, UPDATE; rows, tables per entity, materialized views.
    Cql,
}

/// Whether a store's requests have a public price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pricing {
    /// AWS's on-demand price list (`engine::cost`).
    OnDemand,
    /// Self-managed: no per-request price.
    SelfManaged,
}

/// DynamoDB: the store keyheat models first (DESIGN.md §4).
pub const DYNAMODB: Profile = Profile {
    metering: Metering::Units,
    placement: Placement::HashRanges,
    layout: Layout::SingleTable,
    key_attributes: true,
    indexes: Indexes::Secondary,
    blind_writes: false,
    transactions: true,
    item_limit: Some(MAX_ITEM_BYTES),
    partition_guide: PartitionGuide { bytes: DYNAMODB_PARTITION_BYTES, rows: None },
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
    blind_writes: true,
    transactions: false,
    item_limit: None,
    partition_guide: PartitionGuide {
        bytes: CASSANDRA_PARTITION_BYTES,
        rows: Some(CASSANDRA_PARTITION_ROWS),
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

impl Engine {
    /// This store's profile.
    pub fn profile(self) -> &'static Profile {
        match self {
            Engine::DynamoDb => &DYNAMODB,
            Engine::Cassandra => &CASSANDRA,
        }
    }
}

impl Profile {
    /// Whether requests are charged in capacity units (and can be throttled).
    pub fn metered(&self) -> bool {
        self.metering == Metering::Units
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
            Placement::HashRanges => None,
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
            assert_eq!(p.partition_guide, PartitionGuide { bytes, rows }, "{engine}");
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
            (Engine::DynamoDb, Indexes::Secondary, false, true, Latency::Requests, Some(100), None),
            (Engine::Cassandra, Indexes::Views, true, false, Latency::Statements, None, Some(864_000)),
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
}

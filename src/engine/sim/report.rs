//! What one run measured, as plain data: the JSON report's shape (`keyheat run --format json`),
//! read by the text and Markdown writers, `compare`, goal evaluation and the TUI.
//!
//! Every figure comes from executing the workload against the simulated table; none is estimated.
//! Field names are the JSON contract; add fields freely, rename none.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::engine::model::Engine;
use crate::engine::planner::{Kind, Operation};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    pub scenario: String,
    pub variant: String,
    pub seed: u64,
    /// `dynamodb` or `cassandra` in the JSON (`Engine::id`).
    #[serde(serialize_with = "engine_id")]
    pub engine: Engine,
    /// The simulated client's retry policy for throttled requests (`engine::retry::NAMED`, or
    /// `custom`); none for Cassandra, which never throttles.
    pub retry_policy: Option<String>,
    /// Simulated seconds replayed.
    pub duration_s: f64,
    /// Simulated seconds per tick.
    pub tick_s: f64,
    pub totals: Totals,
    pub partitions: Partitions,
    pub indexes: Vec<IndexReport>,
    #[serde(serialize_with = "patterns_json")]
    pub patterns: Vec<PatternReport>,
    /// Filled by goal evaluation (`crate::engine::goals` or the report layer) from the rest.
    pub goals: Vec<GoalResult>,
    /// How prices and the latency model were chosen, for the reader.
    pub notes: Vec<String>,
    /// How the workload was replayed: call by call, or as rates (`--fidelity`).
    pub fidelity: Fidelity,
    /// A rates replay's bands: the quantiles of each figure that is a maximum of random counts
    /// (the per-operation replay reports one draw of it). Left out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bands: Option<Bands>,
    /// Cosmos DB: the container's request units against what it was given, partition by
    /// partition. Left out of the JSON for the other stores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_units: Option<RequestUnitsReport>,
    /// MongoDB: documents against the 16 MB limit, and the bytes of the new versions updates of
    /// a document already there built. Left out of the JSON for the other stores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documents: Option<DocumentsReport>,
    /// MongoDB with a sharded collection: its shards, ranges and migrations. Left out of the
    /// JSON when the variant shards nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<ShardsReport>,
}

/// A sharded collection at the end of the run (`sim::shards`, by `profile::sharding`'s rules).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShardsReport {
    pub collection: String,
    /// The collection's `pk` template: the shard key.
    pub shard_key: String,
    /// `ranged` or `hashed`.
    pub strategy: String,
    pub range_bytes: u64,
    /// The data difference between two shards at which the balancer migrates (3 range sizes).
    pub migration_threshold_bytes: u64,
    /// Simulated seconds between balancing rounds (keyheat's assumption).
    pub balancer_round_s: i64,
    pub ranges: u64,
    /// Ranges past the range size holding one shard-key value: they cannot split or move.
    pub jumbo_ranges: u64,
    /// Documents the workload inserted, and the largest share of them one shard took.
    pub inserts: u64,
    pub hottest_share_of_inserts: f64,
    /// Read requests the router sent only to the shards owning the shard-key value they gave
    /// (one shard) or the prefix of it (the shards owning its ranges; `prefix_reads` of them),
    /// and those it sent to every shard (they gave none of it, whatever served them); the
    /// largest share of the shards' reads one shard served.
    pub targeted_reads: u64,
    pub prefix_reads: u64,
    pub broadcast_reads: u64,
    pub hottest_share_of_reads: f64,
    /// Ranges the balancer moved, and their bytes.
    pub migrations: u64,
    pub migrated_bytes: u64,
    pub shards: Vec<ShardReport>,
}

impl ShardsReport {
    /// The shard that took the largest share of the inserts (the first of equals).
    pub fn hottest_for_inserts(&self) -> Option<&ShardReport> {
        self.shards.iter().rev().max_by(|a, b| a.share_of_inserts.total_cmp(&b.share_of_inserts))
    }
}

/// One shard of a sharded collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShardReport {
    pub shard: String,
    pub documents: u64,
    pub bytes: u64,
    pub inserts: u64,
    pub updates: u64,
    /// Of the collection's inserts and updates.
    pub share_of_writes: f64,
    pub share_of_inserts: f64,
    /// Read requests it served (a broadcast one is served by every shard), and their share of
    /// all the shards served.
    pub reads: u64,
    pub share_of_reads: f64,
    /// The most inserts and updates it took in one tick.
    pub peak_writes_per_tick: u64,
    pub ranges: u64,
    pub jumbo_ranges: u64,
}

/// What a store whose updates build a document's whole new version did with them (MongoDB,
/// `profile::mongo`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentsReport {
    /// The largest document the store accepts, and the largest one stored in the run.
    pub limit_bytes: u64,
    pub largest_document_bytes: u64,
    pub largest_share_of_limit: f64,
    /// Writes that stored a new version of a document already there: the server built each
    /// version whole, so the bytes are the documents' sizes after each update (not bytes
    /// written to disk: WiredTiger flushes at checkpoint or eviction).
    pub updates: u64,
    pub new_version_bytes: u64,
    pub mean_new_version_bytes_per_update: f64,
    /// Writes refused because the document would pass the limit, and the server's error.
    pub refused_too_large: u64,
    pub refusal: String,
}

/// How a report's figures were produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fidelity {
    /// Every call made against the simulated store (`sim::run`).
    #[default]
    Operations,
    /// Rates and sizes per tick (`sim::fluid::run`): sums are expected values, maxima medians.
    Rates,
}

impl Fidelity {
    /// The word reports print.
    pub fn id(self) -> &'static str {
        match self {
            Fidelity::Operations => "operations",
            Fidelity::Rates => "rates",
        }
    }
}

/// A rates replay's bands for the figures that are maxima (0.1%, median, 99.9%).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Bands {
    /// The tables' largest partition, items and bytes.
    pub max_items: super::fluid::Band,
    pub max_bytes: super::fluid::Band,
    /// The tables' busiest partition, operations (or units) per second.
    pub peak_reads_per_s: super::fluid::Band,
    pub peak_writes_per_s: super::fluid::Band,
    /// The same per table and index.
    pub groups: Vec<GroupBands>,
}

/// One table's or index's bands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupBands {
    pub group: String,
    pub max_items: super::fluid::Band,
    pub max_bytes: super::fluid::Band,
    pub peak_reads_per_s: super::fluid::Band,
    pub peak_writes_per_s: super::fluid::Band,
}

/// A Cosmos DB container's throughput and what the run used of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestUnitsReport {
    /// The RU/s provisioned (autoscale: its maximum).
    pub provisioned_ru_per_s: f64,
    /// Physical partitions at the end, and each one's share of the throughput.
    pub physical_partitions: u64,
    pub partition_ru_per_s: f64,
    /// Request units charged over the run (reads and writes), and per second on average.
    pub consumed_ru: f64,
    pub mean_ru_per_s: f64,
    /// `mean_ru_per_s` as a share of `provisioned_ru_per_s`.
    pub mean_share_of_provisioned: f64,
    /// Requests refused with 429 at least once (`Totals::throttled_ops`), as a share of the
    /// requests sent.
    pub requests_429: u64,
    pub share_429: f64,
    /// 429 responses (every refused attempt, retries counted again: what Azure Monitor's Total
    /// Requests by status code counts) as a share of all responses (requests and retries).
    pub responses_429: u64,
    pub share_429_responses: f64,
    /// Azure Monitor's "Normalized RU Consumption" over the run: the highest share of its budget
    /// any physical partition used in one second, at most 1. `None` (left out of the JSON) in a
    /// rates replay, which does not model it: a partition's busiest second is a maximum of its
    /// random demand, which the expected demand the meter serves there falls short of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized_ru_consumption: Option<f64>,
    /// Every physical partition, in hash order.
    pub partitions: Vec<PhysicalRuReport>,
}

/// One Cosmos DB physical partition (a partition key range).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhysicalRuReport {
    /// Where its hash range starts.
    pub range: String,
    /// Its normalized RU consumption: the highest share of its budget it used in one second
    /// (`None` in a rates replay, as the container's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized_ru_consumption: Option<f64>,
    pub consumed_ru: f64,
    /// Attempts it refused with 429, each retry counted again.
    pub throttled_attempts: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Totals {
    /// Calls of all access patterns (a fan-out call counts once).
    pub ops: u64,
    pub reads: u64,
    pub writes: u64,
    /// Requests sent to the store (a fan-out call sends several).
    pub requests: u64,
    pub rcu: f64,
    pub wcu: f64,
    /// Requests throttled at least once.
    pub throttled_ops: u64,
    /// Requests that never completed: throttled past the client's last retry, or (writes)
    /// refused.
    pub failed_ops: u64,
    /// Writes that never landed: refused (an item past 400 KB, an item collection past 10 GB, a
    /// key that cannot be made, a parent that is not there) or throttled past the last retry.
    pub failed_writes: u64,
    /// Requests throttled past the client's last retry (reads and writes), and the writes
    /// among them.
    pub gave_up: u64,
    pub writes_gave_up: u64,
    /// Items in the table at the end.
    pub items: u64,
    pub table_bytes: u64,
    pub index_bytes: u64,
    /// Item and index-entry writes per base-item write (1.0 = no index or copy writes).
    pub write_amplification: f64,
    /// On-demand cost of the run's requests and its storage over the run, in US dollars.
    pub cost_usd: f64,
    /// The same, projected to 30 days at the run's average rates and final storage.
    pub monthly_cost_usd: f64,
    /// Region and date of the price list used.
    pub price_source: String,
    /// Retries the simulated client sent after throttles (each one is a request too).
    pub retries: u64,
    /// Items the TTL sweeper deleted (free).
    pub ttl_deletes: u64,
    /// Writes refused with ItemCollectionSizeLimitExceeded (tables with an LSI, 10 GB).
    pub collection_limit_errors: u64,
    /// Writes refused because the item would pass DynamoDB's 400 KB item limit.
    pub item_size_errors: u64,
    /// Items of the initial load (one per member of an owning population) refused because they
    /// pass the 400 KB item limit: they are not in the table, and not in `items`.
    pub preload_item_size_errors: u64,
    /// Items lost because a put of a new item landed on their key: PutItem (a Cassandra INSERT)
    /// replaces the item that holds the key whole, without an error. Upserts (`upsert: true`)
    /// replace on purpose and are not counted.
    pub overwritten_items: u64,
    /// Items of the initial load written onto a key an earlier initial item held: the table
    /// starts without the earlier one.
    pub preload_overwritten_items: u64,
    /// Bytes of the largest item stored in the run, preloaded or written.
    pub largest_item_bytes: u64,
    /// Writes refused by their condition (ConditionalCheckFailedException), charged but not
    /// lost: see `PatternReport::condition_failed`. Left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub condition_failed_writes: u64,
    /// Of those, version checks lost to a concurrent writer. Left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub version_conflicts: u64,
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's serialize_with passes a reference")]
pub(crate) fn engine_id<S: Serializer>(engine: &Engine, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(engine.id())
}

/// The patterns as the JSON gives them: a p99 call that never completed has no latency, so
/// `latency_ms_p99` is null there, `latency_p99_missing` says why and
/// `latency_ms_p99_completed` keeps the p99 of the calls that did (`PatternReport::p99_ms`).
/// A pattern the fluid replay made (`timed: false`) has neither latency nor items per call,
/// nor pages but where rows page its reads: they are null, and `latency_p99_missing` is
/// `not_modelled`.
fn patterns_json<S: Serializer>(patterns: &[PatternReport], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::{Error, SerializeSeq};
    let mut seq = s.serialize_seq(Some(patterns.len()))?;
    for p in patterns {
        if p.p99_ms().is_some() {
            seq.serialize_element(p)?;
            continue;
        }
        let mut value = serde_json::to_value(p).map_err(S::Error::custom)?;
        if let Some(fields) = value.as_object_mut() {
            fields.insert("latency_ms_p99".to_owned(), serde_json::Value::Null);
            if p.timed {
                fields.insert("latency_p99_missing".to_owned(), "never_completed".into());
                fields.insert("latency_ms_p99_completed".to_owned(), p.latency_ms_p99.into());
            } else {
                fields.insert("latency_p99_missing".to_owned(), "not_modelled".into());
                for untimed in ["latency_ms_p50", "avg_items_read", "avg_items_returned"] {
                    fields.insert(untimed.to_owned(), serde_json::Value::Null);
                }
                // Rates count pages only where rows page them (Cassandra's fetch size).
                if p.avg_pages <= 0.0 {
                    fields.insert("avg_pages".to_owned(), serde_json::Value::Null);
                }
            }
        }
        seq.serialize_element(&value)?;
    }
    seq.end()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Partitions {
    /// Distinct partition-key values (table) at the end.
    pub logical: u64,
    /// Physical partitions (hash ranges) of the table at the end, after splits.
    pub physical: u64,
    pub max_bytes: u64,
    pub max_items: u64,
    pub peak_rcu_per_s: f64,
    pub peak_wcu_per_s: f64,
    /// Hottest / largest logical partitions of the table.
    pub top: Vec<PartitionReport>,
    /// Hottest / largest logical partitions of the indexes (GSIs and LSIs), chosen as `top` is;
    /// each names its index. With `top`, it holds the run's hottest key by reads and by writes.
    pub index_top: Vec<PartitionReport>,
    /// The busiest physical partition's peak consumption per second (DynamoDB and Cosmos DB; 0
    /// for Cassandra). In a rates replay it is the meter's own under the expected demand, not
    /// the median of a maximum as the other peaks are (its notes say so).
    pub physical_peak_rcu_per_s: f64,
    pub physical_peak_wcu_per_s: f64,
    /// Physical partition splits (size and heat) during the run.
    pub splits: u64,
    pub splits_for_size: u64,
    pub splits_for_heat: u64,
    /// Heat splits that could not help: one partition key carried the load.
    pub heat_splits_refused: u64,
    /// Cassandra profile: the ring's nodes (empty for DynamoDB).
    pub nodes: Vec<NodeReport>,
}

/// One node of the Cassandra ring.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeReport {
    pub node: String,
    /// Bytes of the partition replicas it stores.
    pub stored_bytes: u64,
    /// Replica operations (a write counts on every replica, a read on a quorum).
    pub ops: u64,
    pub peak_ops_per_s: f64,
    pub peak_bytes_per_s: f64,
}

/// One logical partition: of the table (`index` is `None`) or of an index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionReport {
    pub key: String,
    /// The index the partition belongs to; `None` for the table.
    pub index: Option<String>,
    pub bytes: u64,
    pub items: u64,
    pub peak_rcu_per_s: f64,
    /// For a GSI partition: the index write units of the table writes that landed, per second as
    /// they landed. The GSI applies them through its own partitions (at most 1,000 WCU/s each)
    /// and queues the rest, so this can exceed what it applied (`IndexReport::peak_wcu_per_s`).
    pub peak_wcu_per_s: f64,
    /// Kept for readers of earlier reports: the same count as `throttled_attempts` (0 for an
    /// index partition). Not a count of requests, unlike `Totals::throttled_ops`.
    pub throttled_ops: u64,
    /// Read and write attempts this table partition refused (a Scan page names no key and is not
    /// counted here), each retry counted again (so one request
    /// refused four times counts 4; `Totals::throttled_ops` counts it once). `None` for an index
    /// partition: its refusals are counted per index, in `IndexReport::throttled_ops`.
    pub throttled_attempts: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexReport {
    pub name: String,
    pub kind: IndexType,
    pub wcu: f64,
    pub rcu: f64,
    /// Storage including the 100-byte overhead per entry.
    pub bytes: u64,
    pub items: u64,
    /// Index write units per table write unit.
    pub wcu_vs_table: f64,
    pub max_lag_s: f64,
    pub throttled_ops: u64,
    /// The index partition key with the highest peak write units per second (the measure the
    /// Partitions section's "hottest key, writes" uses); `None` when no key was written.
    pub hottest_key: Option<String>,
    /// That key's own peak write units per second (a physical partition may hold other keys too).
    pub hottest_key_peak_wcu_per_s: f64,
    /// The busiest physical partition's peak write units per second (its keys together), not a
    /// key's.
    pub peak_wcu_per_s: f64,
    /// Distinct index partition-key values holding entries at the end.
    pub partitions: u64,
    /// The largest index partition, with the 100-byte overhead per entry.
    pub max_partition_bytes: u64,
    /// Entry writes (a put or delete is 1, a key change 2).
    pub entry_writes: u64,
    /// Query requests that read a partition of this GSI while entry writes were queued on it
    /// (they saw the index as of its replication point, not as of the table).
    pub stale_reads: u64,
}

/// What an index is, as reports name it: `GSI` or `LSI`; `MV` (a materialized view) in the
/// Cassandra profile, whatever its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum IndexType {
    #[serde(rename = "GSI")]
    Global,
    #[serde(rename = "LSI")]
    Local,
    #[serde(rename = "MV")]
    View,
}

impl IndexType {
    /// The name reports print (the same as in JSON).
    pub fn short(self) -> &'static str {
        match self {
            IndexType::Global => "GSI",
            IndexType::Local => "LSI",
            IndexType::View => "MV",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternReport {
    pub name: String,
    /// `read` or `write`.
    pub kind: Kind,
    /// The planner's operation (`GetItem`, `Query`, `Scan`, …); `None` when nothing serves it.
    pub operation: Option<Operations>,
    pub index: Option<String>,
    pub calls: u64,
    /// Calls that completed: not one that gave up, nor one still waiting for a retry at the end.
    /// A read's figures per call (units, items read and returned) are over these.
    pub served_calls: u64,
    /// Read units the calls that completed spent: a read's units per call are these over
    /// `served_calls` (`rcu` adds what calls that gave up or still wait spent before).
    pub served_rcu: f64,
    pub avg_fanout: f64,
    /// The most partitions or keys one call addressed.
    pub max_fanout: u64,
    /// The most requests one call of a read sent, each page of a Query or Scan a request of its
    /// own (a retry is not another). 0 for a write.
    pub max_requests: u64,
    pub avg_items_read: f64,
    pub avg_items_returned: f64,
    pub rcu: f64,
    pub wcu: f64,
    /// Mean read units per call over the first and the last tenth of the run (a Scan's grow):
    /// the units the tenth's calls spent over those of them that completed; `None` (null in
    /// JSON) when none did: no call, no figure per call.
    pub rcu_per_call_start: Option<f64>,
    pub rcu_per_call_end: Option<f64>,
    pub throttled: u64,
    pub failed: u64,
    /// Modelled latency (see the latency model in the notes), over the calls that completed.
    /// When the p99 call never completed (`PatternReport::p99_ms` is `None`), the JSON gives
    /// `latency_ms_p99` as null, `latency_p99_missing: "never_completed"`, and this figure as
    /// `latency_ms_p99_completed` (a lower bound: the p99 call took longer, without end).
    pub latency_ms_p50: f64,
    pub latency_ms_p99: f64,
    /// Whether each call was replayed and timed, its items counted (the per-operation replay).
    /// `false` for the fluid replay, which models neither: its latency and per-call item
    /// figures are 0 here, null in the JSON, "—" in the reports, and their goals not graded.
    #[serde(skip)]
    pub timed: bool,
    /// Calls with no latency: still waiting for a retry when the run ended. (A call that gave up
    /// has one, its waits included, and is counted in `failed`.)
    pub unfinished: u64,
    pub latency_target_ms: Option<f64>,
    /// Requests sent (every page counts), retries not included.
    pub requests: u64,
    /// A write pattern's own item writes that landed (a call that gave up, was still waiting for
    /// a retry when the run ended, or named no item wrote nothing), where the run's counts tell
    /// them apart exactly: `None` for a read, and for a write whose side writes (copies,
    /// aggregates) failed too.
    pub landed_writes: Option<u64>,
    pub retries: u64,
    /// Query or Scan pages per call.
    pub avg_pages: f64,
    /// Calls served by a Scan.
    pub scans: u64,
    /// Writes refused with ItemCollectionSizeLimitExceeded.
    pub collection_errors: u64,
    /// Writes refused because the item would pass 400 KB.
    pub item_size_errors: u64,
    /// Puts that replaced a different item at their key (that item is lost).
    pub overwrote: u64,
    /// Writes refused by their condition (ConditionalCheckFailedException), each charged: a
    /// create-once put onto a taken key (the caller learns the key is taken; nothing is lost),
    /// or a version check another writer beat. Left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub condition_failed: u64,
    /// Of those, version checks lost to a concurrent writer (each followed by a re-read and a
    /// retry; keyheat's contention model). Left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub version_conflicts: u64,
    /// Puts that landed although their claim (a uniqueness item) was taken: without a
    /// transaction the put and its claim are separate requests, so each leaves two items with
    /// the value the claim keeps unique. Left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub duplicates: u64,
    /// Query requests on a GSI partition with entry writes still queued (replication lag).
    pub stale_reads: u64,
    /// A read the variant's cache fronts: what the cache answered. Left out of the JSON for
    /// other patterns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheReport>,
}

impl PatternReport {
    /// Calls that never completed: they gave up, or still waited for a retry at the end.
    pub fn never_completed(&self) -> u64 {
        self.failed + self.unfinished
    }

    /// The p99 call's modelled latency; `None` when that call never completed — past 1% of the
    /// calls, the p99 call is one of those, and it has no latency (`latency_ms_p99`, over the
    /// calls that completed, is then only a lower bound). The one rule for goals, reports and
    /// the TUI.
    pub fn p99_ms(&self) -> Option<f64> {
        if !self.timed {
            return None;
        }
        let never = self.never_completed();
        let missing = never > 0 && never as f64 > 0.01 * self.calls as f64;
        (!missing).then_some(self.latency_ms_p99)
    }

    /// The pattern's operation when a call sends one kind of request (not a read split by
    /// entity); `None` when nothing serves it.
    pub fn single_operation(&self) -> Option<Operation> {
        self.operation.as_ref().and_then(Operations::single)
    }
}

/// The requests one call of a pattern sends: the planner's operation and, for a read split by
/// entity, one per further part. The JSON names them joined by " + " ("GetItem + Query").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operations(Vec<Operation>);

impl Operations {
    pub fn new(first: Operation, parts: impl IntoIterator<Item = Operation>) -> Operations {
        Operations(std::iter::once(first).chain(parts).collect())
    }

    /// The operation, when there is only one.
    pub fn single(&self) -> Option<Operation> {
        match self.0[..] {
            [op] => Some(op),
            _ => None,
        }
    }

    /// Each part's operation, in the plan's order (never empty).
    pub fn iter(&self) -> impl Iterator<Item = Operation> + '_ {
        self.0.iter().copied()
    }
}

impl From<Operation> for Operations {
    fn from(op: Operation) -> Operations {
        Operations(vec![op])
    }
}

impl fmt::Display for Operations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, op) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            f.write_str(op.name())?;
        }
        Ok(())
    }
}

impl Serialize for Operations {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What a read-through cache (DAX's item cache) did for one read pattern.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CacheReport {
    /// Keys found unexpired in the cache: answered without a table read.
    pub hits: u64,
    /// Keys read from the table (and stored in the cache).
    pub misses: u64,
    /// hits / (hits + misses).
    pub hit_ratio: f64,
    /// Read units the hits would have cost the table (eventually consistent, 4 KB each).
    pub rcu_saved: f64,
}

/// Whether a goal was met. A goal the run gave nothing to judge (a latency target of a pattern
/// that made no calls) is neither met nor missed: it is not graded, and not passed either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalStatus {
    Passed,
    Failed,
    NotGraded,
}

impl GoalStatus {
    /// `Passed` when `met`, else `Failed`.
    pub fn of(met: bool) -> GoalStatus {
        if met { GoalStatus::Passed } else { GoalStatus::Failed }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct GoalResult {
    pub name: String,
    pub status: GoalStatus,
    /// The measured value, as the goal reads it; `None` when the run measured nothing for it: not
    /// graded, or failed on what the plan or the scenario says alone (a Scan that made no calls,
    /// a pattern nothing serves).
    pub value: Option<f64>,
    /// `value` is a bound the measure is past, not the measure: the p99 call of a latency goal
    /// never completed (it gave up, or still waited at the end), so it took longer than the p99
    /// of the calls that completed (`PatternReport::latency_ms_p99`, in JSON
    /// `latency_ms_p99_completed`). Shown as ">value".
    pub lower_bound: bool,
    pub target: f64,
    /// What `value` and `target` count (bytes, items, ratio, ms, usd…), for writers.
    pub unit: crate::engine::goals::GoalUnit,
    /// One line for people: what was measured against what (or why nothing could be).
    pub detail: String,
    /// In a practice problem: the hint the goal links to (`hint: N` in the scenario file).
    pub hint: Option<GoalHint>,
}

impl GoalResult {
    /// Whether the goal was met (a goal not graded was not).
    pub fn passed(&self) -> bool {
        self.status == GoalStatus::Passed
    }
}

/// In JSON: `passed` (true only when met, for readers that ask only that) and `status`
/// ("passed", "failed" or "not_graded"); `value` is null when the run measured nothing for it,
/// and `value_is_lower_bound: true` follows it where it is a bound the measure is past.
impl Serialize for GoalResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut g = s.serialize_struct("GoalResult", 9)?;
        g.serialize_field("name", &self.name)?;
        g.serialize_field("passed", &self.passed())?;
        g.serialize_field("status", &self.status)?;
        g.serialize_field("value", &self.value)?;
        // Only where it is one, so every other goal reads as it always has.
        if self.lower_bound && self.value.is_some() {
            g.serialize_field("value_is_lower_bound", &true)?;
        } else {
            g.skip_field("value_is_lower_bound")?;
        }
        g.serialize_field("target", &self.target)?;
        g.serialize_field("unit", &self.unit)?;
        g.serialize_field("detail", &self.detail)?;
        if let Some(hint) = &self.hint {
            g.serialize_field("hint", hint)?;
        } else {
            g.skip_field("hint")?;
        }
        g.end()
    }
}

/// A practice hint a goal links to: its number (from 1, as the hints are shown) and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GoalHint {
    pub number: usize,
    pub text: String,
}

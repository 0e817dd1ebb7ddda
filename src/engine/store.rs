//! An in-process DynamoDB: tables with GSIs, LSIs and TTL, DynamoDB's validation, and its
//! capacity math (DESIGN.md §4).
//!
//! The store owns a clock (`now`) that only its caller moves (`advance_to`/`advance_by`); moving
//! it replicates lagging GSI changes and runs the TTL sweeper. Requests are typed and carry parsed
//! expressions (`requests`), so callers parse once and execute many times; every response carries
//! a `ConsumedCapacity` with the DynamoDB breakdown and the partitions touched. The store knows
//! nothing of JSON (that is `crate::ops`) nor of throttling (that is the simulator's).
//!
//! - `schema`: key schemas, index definitions, CreateTable rules; `key`: partitions, primary keys
//!   and reading them out of items; `range`: key conditions as sort-key ranges.
//! - `table`: one table's partitions and stats, and the one write path.
//! - `index`: secondary index partitions and entries.
//! - `read` / `write`: the operations; `ttl`: expiry and the sweeper; `capacity`: units.

mod capacity;
mod error;
mod index;
mod key;
mod range;
mod read;
mod requests;
mod schema;
mod table;
mod ttl;
mod write;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

pub use capacity::{
    ConsumedCapacity, EntryWrite, INDEX_ENTRY_OVERHEAD, PAGE_BYTES, PartitionTouch, READ_UNIT_BYTES, Target,
    Units, WRITE_UNIT_BYTES, failed_write_units, read_units, read_units_for, write_units, write_units_for,
};
pub use error::StoreError;
pub use index::Index;
pub use key::{PartitionId, PrimaryKey};
pub(crate) use range::string_prefix_successor;
pub use requests::{
    AdvanceReport, BatchGetItem, BatchGetItemOutput, BatchGetTable, BatchWriteItem, BatchWriteItemOutput,
    CreateTable, DeleteItem, GetItem, GetItemOutput, IndexDescription, PutItem, Query, QueryOutput,
    ReturnValues, Scan, Select, TableDescription, UpdateItem, UpdateTimeToLive, WriteOutput, WriteRequest,
};
pub use schema::{
    BillingMode, IndexKind, IndexSpec, KeyAttribute, KeySchema, ProjectionType, TableSpec, Throughput,
};
pub use table::{PartitionStats, Table};

use crate::engine::time::{SimDuration, SimTime};
use crate::engine::value::item_size;

/// Most keys one BatchGetItem may read (AWS BatchGetItem reference).
pub const MAX_BATCH_GET_KEYS: usize = 100;
/// Most requests one BatchWriteItem may carry (AWS BatchWriteItem reference).
pub const MAX_BATCH_WRITE_REQUESTS: usize = 25;
/// A BatchGetItem response holds at most 16 MB; the rest comes back as UnprocessedKeys.
pub const MAX_BATCH_GET_RESPONSE_BYTES: u64 = 16 << 20;
/// An item collection of a table with LSIs holds at most 10 GB (AWS LSI docs).
pub const ITEM_COLLECTION_LIMIT: u64 = 10 << 30;
/// TTL deletes typically happen within 48 hours of expiry (AWS; see `ttl`).
pub const DEFAULT_TTL_DELAY: SimDuration = SimDuration::from_secs(48 * 3600);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreConfig {
    /// How long a GSI change takes to become visible (0: at once). A table may override it.
    pub index_lag: SimDuration,
    /// How long after expiry the TTL sweeper deletes an item.
    pub ttl_delay: SimDuration,
    /// The item collection limit of tables with LSIs (lowered by tests; DynamoDB's is 10 GB).
    pub item_collection_limit: u64,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            index_lag: SimDuration::ZERO,
            ttl_delay: DEFAULT_TTL_DELAY,
            item_collection_limit: ITEM_COLLECTION_LIMIT,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Store {
    config: StoreConfig,
    now: SimTime,
    tables: BTreeMap<String, Table>,
}

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::Validation(message.into())
}

impl Store {
    pub fn new(config: StoreConfig) -> Store {
        Store { config, now: SimTime::EPOCH, tables: BTreeMap::new() }
    }

    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Moves the clock to `at` (never backwards), applying lagging GSI changes and TTL deletes
    /// that fall due on the way.
    pub fn advance_to(&mut self, at: SimTime) -> AdvanceReport {
        let from = self.now;
        let at = at.max(from);
        let mut report = AdvanceReport::default();
        for table in self.tables.values_mut() {
            let (applied, deleted) = table.advance(from, at);
            report.index_changes_applied += applied;
            report.ttl_deleted += deleted;
        }
        self.now = at;
        report
    }

    pub fn advance_by(&mut self, by: SimDuration) -> AdvanceReport {
        self.advance_to(self.now + by)
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.get(name)
    }

    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    fn get_table(&self, name: &str) -> Result<&Table, StoreError> {
        self.tables.get(name).ok_or_else(|| StoreError::ResourceNotFound(name.to_owned()))
    }

    fn get_table_mut(&mut self, name: &str) -> Result<&mut Table, StoreError> {
        self.tables.get_mut(name).ok_or_else(|| StoreError::ResourceNotFound(name.to_owned()))
    }

    pub fn create_table(&mut self, request: CreateTable) -> Result<TableDescription, StoreError> {
        request.spec.validate()?;
        let name = request.spec.name.clone();
        if self.tables.contains_key(&name) {
            return Err(StoreError::ResourceInUse(name));
        }
        let lag = request.index_lag.unwrap_or(self.config.index_lag);
        let table =
            Table::new(request.spec, self.now, lag, self.config.item_collection_limit, self.config.ttl_delay);
        self.tables.insert(name.clone(), table);
        self.describe_table(&name)
    }

    pub fn describe_table(&self, name: &str) -> Result<TableDescription, StoreError> {
        let table = self.get_table(name)?;
        let describe = |index: &Index| IndexDescription {
            item_count: index.item_count(),
            size_bytes: index.size_bytes(),
            pending_changes: index.pending_changes(),
        };
        Ok(TableDescription {
            spec: table.spec().clone(),
            created_secs: table.created().as_secs(),
            item_count: table.item_count(),
            size_bytes: table.size_bytes(),
            global: table.global_indexes().iter().map(describe).collect(),
            local: table.local_indexes().iter().map(describe).collect(),
            ttl_attribute: table.ttl_attribute().map(str::to_owned),
        })
    }

    pub fn update_time_to_live(&mut self, request: &UpdateTimeToLive) -> Result<(), StoreError> {
        let table = self.get_table_mut(&request.table)?;
        if request.attribute.is_empty() || request.attribute.len() > 255 {
            return Err(invalid(
                "1 validation error detected: Value at 'timeToLiveSpecification.attributeName' failed to satisfy \
                 constraint: Member must have length between 1 and 255",
            ));
        }
        match (request.enabled, table.ttl_attribute()) {
            (true, Some(_)) => return Err(invalid("TimeToLive is already enabled")),
            (false, None) => return Err(invalid("TimeToLive is already disabled")),
            (false, Some(current)) if current != request.attribute => {
                return Err(invalid(format!(
                    "TimeToLive is enabled on attribute {current}, not {}",
                    request.attribute
                )));
            }
            _ => {}
        }
        table.set_ttl(request.enabled.then(|| request.attribute.clone()));
        Ok(())
    }

    pub fn put_item(&mut self, request: PutItem) -> Result<WriteOutput, StoreError> {
        let now = self.now;
        let table = self.get_table_mut(&request.table)?;
        table.put_item(request.item, request.condition.as_ref(), request.return_values, now)
    }

    pub fn get_item(&self, request: &GetItem) -> Result<GetItemOutput, StoreError> {
        let table = self.get_table(&request.table)?;
        table.get_item(&request.key, request.consistent_read, request.projection.as_ref())
    }

    pub fn update_item(&mut self, request: &UpdateItem) -> Result<WriteOutput, StoreError> {
        let now = self.now;
        let table = self.get_table_mut(&request.table)?;
        table.update_item(
            &request.key,
            request.update.as_ref(),
            request.condition.as_ref(),
            request.return_values,
            now,
        )
    }

    pub fn delete_item(&mut self, request: &DeleteItem) -> Result<WriteOutput, StoreError> {
        let now = self.now;
        let table = self.get_table_mut(&request.table)?;
        table.delete_item(&request.key, request.condition.as_ref(), request.return_values, now)
    }

    pub fn query(&self, request: &Query) -> Result<QueryOutput, StoreError> {
        self.get_table(&request.table)?.query(request)
    }

    pub fn scan(&self, request: &Scan) -> Result<QueryOutput, StoreError> {
        self.get_table(&request.table)?.scan(request)
    }

    /// Reads up to 100 keys across tables; each item is rounded to 4 KB separately and a missing
    /// one still costs the minimum (AWS, "DynamoDB read and write operations").
    pub fn batch_get_item(&self, request: &BatchGetItem) -> Result<BatchGetItemOutput, StoreError> {
        let keys: usize = request.tables.iter().map(|t| t.keys.len()).sum();
        if keys == 0 {
            return Err(invalid(
                "1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Member must have \
                 length greater than or equal to 1",
            ));
        }
        if keys > MAX_BATCH_GET_KEYS {
            return Err(invalid("Too many items requested for the BatchGetItem call"));
        }
        let mut seen_tables = BTreeSet::new();
        let mut parsed = Vec::with_capacity(request.tables.len());
        for entry in &request.tables {
            if !seen_tables.insert(entry.table.as_str()) {
                return Err(invalid(format!("Duplicate table in RequestItems: {}", entry.table)));
            }
            let table = self.get_table(&entry.table)?;
            let mut seen = BTreeSet::new();
            for key in &entry.keys {
                if !seen.insert(table.spec().key.key_from_request(key)?) {
                    return Err(invalid("Provided list of item keys contains duplicates"));
                }
            }
            parsed.push(table);
        }
        let mut output =
            BatchGetItemOutput { responses: BTreeMap::new(), unprocessed: Vec::new(), consumed: Vec::new() };
        let mut response_bytes = 0u64;
        for (entry, table) in request.tables.iter().zip(parsed) {
            let mut consumed = table.new_capacity();
            let mut items = Vec::new();
            let mut left = Vec::new();
            for key in &entry.keys {
                if response_bytes >= MAX_BATCH_GET_RESPONSE_BYTES {
                    left.push(key.clone());
                    continue;
                }
                let got = table.get_item(key, entry.consistent_read, entry.projection.as_ref())?;
                add_capacity(&mut consumed, got.consumed);
                if let Some(item) = got.item {
                    response_bytes += item_size(&item) as u64;
                    items.push(item);
                }
            }
            output.responses.insert(entry.table.clone(), items);
            output.consumed.push((entry.table.clone(), consumed));
            if !left.is_empty() {
                output.unprocessed.push(BatchGetTable { keys: left, ..entry.clone() });
            }
        }
        Ok(output)
    }

    /// Up to 25 puts and deletes across tables, validated together before any is applied (as
    /// DynamoDB rejects the whole batch on a validation error).
    pub fn batch_write_item(&mut self, request: BatchWriteItem) -> Result<BatchWriteItemOutput, StoreError> {
        let count: usize = request.tables.iter().map(|(_, r)| r.len()).sum();
        if count == 0 {
            return Err(invalid(
                "1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Member must have \
                 length greater than or equal to 1",
            ));
        }
        if count > MAX_BATCH_WRITE_REQUESTS {
            return Err(invalid("Too many items requested for the BatchWriteItem call"));
        }
        let mut seen_tables = BTreeSet::new();
        let mut plans = Vec::with_capacity(request.tables.len());
        for (name, requests) in request.tables {
            if !seen_tables.insert(name.clone()) {
                return Err(invalid(format!("Duplicate table in RequestItems: {name}")));
            }
            let table = self.get_table(&name)?;
            let mut seen = BTreeSet::new();
            let mut writes = Vec::with_capacity(requests.len());
            for request in requests {
                let (key, stored) = match request {
                    WriteRequest::Put(item) => {
                        let (key, stored) = table.prepare_item(item)?;
                        (key, Some(stored))
                    }
                    WriteRequest::Delete(key) => (table.spec().key.key_from_request(&key)?, None),
                };
                if !seen.insert(key.clone()) {
                    return Err(invalid("Provided list of item keys contains duplicates"));
                }
                writes.push((key, stored));
            }
            plans.push((name, writes));
        }
        let now = self.now;
        let mut consumed_by_table = Vec::with_capacity(plans.len());
        for (name, writes) in plans {
            let table = self.get_table_mut(&name)?;
            let mut consumed = table.new_capacity();
            for (key, stored) in writes {
                let (_, spent) = table.write(key, stored, now)?;
                add_capacity(&mut consumed, spent);
            }
            consumed_by_table.push((name, consumed));
        }
        Ok(BatchWriteItemOutput { consumed: consumed_by_table })
    }
}

/// Adds one request's capacity into a running total (same table, so same index layout).
fn add_capacity(total: &mut ConsumedCapacity, part: ConsumedCapacity) {
    let add = |a: &mut Units, b: Units| {
        a.read += b.read;
        a.write += b.write;
    };
    add(&mut total.table, part.table);
    for (a, b) in total.global.iter_mut().zip(part.global) {
        add(a, b);
    }
    for (a, b) in total.local.iter_mut().zip(part.local) {
        add(a, b);
    }
    total.partitions.extend(part.partitions);
}

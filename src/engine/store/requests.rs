//! Typed requests and responses, one pair per DynamoDB action. Expressions arrive parsed, so a
//! caller (the simulator) parses once and executes many times; the `ops` layer builds these from
//! JSON. Returned items are shared (`Arc`) with the store: reading never copies an item that is
//! returned whole.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::expr::{Condition, KeyCondition, Projection, Update};
use crate::engine::time::SimDuration;
use crate::engine::value::Item;

use super::capacity::ConsumedCapacity;
use super::schema::TableSpec;

/// What a write returns of the item (DynamoDB's `ReturnValues`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReturnValues {
    #[default]
    None,
    AllOld,
    UpdatedOld,
    AllNew,
    UpdatedNew,
}

impl ReturnValues {
    pub fn name(self) -> &'static str {
        match self {
            ReturnValues::None => "NONE",
            ReturnValues::AllOld => "ALL_OLD",
            ReturnValues::UpdatedOld => "UPDATED_OLD",
            ReturnValues::AllNew => "ALL_NEW",
            ReturnValues::UpdatedNew => "UPDATED_NEW",
        }
    }
}

/// What a Query or Scan returns per item (DynamoDB's `Select`). `None` in a request means
/// DynamoDB's default: ALL_ATTRIBUTES on a table, ALL_PROJECTED_ATTRIBUTES on an index,
/// SPECIFIC_ATTRIBUTES with a projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    AllAttributes,
    AllProjectedAttributes,
    SpecificAttributes,
    Count,
}

impl Select {
    pub fn name(self) -> &'static str {
        match self {
            Select::AllAttributes => "ALL_ATTRIBUTES",
            Select::AllProjectedAttributes => "ALL_PROJECTED_ATTRIBUTES",
            Select::SpecificAttributes => "SPECIFIC_ATTRIBUTES",
            Select::Count => "COUNT",
        }
    }
}

#[derive(Debug, Clone)]
pub struct CreateTable {
    pub spec: TableSpec,
    /// GSI replication lag for this table; `None` takes the store's.
    pub index_lag: Option<SimDuration>,
}

#[derive(Debug, Clone)]
pub struct UpdateTimeToLive {
    pub table: String,
    pub attribute: String,
    pub enabled: bool,
}

#[derive(Debug, Clone)]
pub struct PutItem {
    pub table: String,
    pub item: Item,
    pub condition: Option<Condition>,
    pub return_values: ReturnValues,
}

#[derive(Debug, Clone)]
pub struct GetItem {
    pub table: String,
    pub key: Item,
    pub consistent_read: bool,
    pub projection: Option<Projection>,
}

#[derive(Debug, Clone)]
pub struct UpdateItem {
    pub table: String,
    pub key: Item,
    /// `None` creates the item with only its key when it is missing (DynamoDB does).
    pub update: Option<Update>,
    pub condition: Option<Condition>,
    pub return_values: ReturnValues,
}

#[derive(Debug, Clone)]
pub struct DeleteItem {
    pub table: String,
    pub key: Item,
    pub condition: Option<Condition>,
    pub return_values: ReturnValues,
}

#[derive(Debug, Clone)]
pub struct Query {
    pub table: String,
    pub index: Option<String>,
    pub key_condition: KeyCondition,
    pub filter: Option<Condition>,
    pub projection: Option<Projection>,
    pub select: Option<Select>,
    pub consistent_read: bool,
    pub scan_forward: bool,
    pub limit: Option<usize>,
    pub exclusive_start_key: Option<Item>,
}

impl Query {
    /// A plain Query: ascending, eventually consistent, no filter, projection or limit.
    pub fn new(table: impl Into<String>, key_condition: KeyCondition) -> Query {
        Query {
            table: table.into(),
            index: None,
            key_condition,
            filter: None,
            projection: None,
            select: None,
            consistent_read: false,
            scan_forward: true,
            limit: None,
            exclusive_start_key: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Scan {
    pub table: String,
    pub index: Option<String>,
    pub filter: Option<Condition>,
    pub projection: Option<Projection>,
    pub select: Option<Select>,
    pub consistent_read: bool,
    pub limit: Option<usize>,
    pub exclusive_start_key: Option<Item>,
    /// Parallel scan: (segment, total segments); each segment covers an equal hash range.
    pub segment: Option<(u64, u64)>,
}

impl Scan {
    pub fn new(table: impl Into<String>) -> Scan {
        Scan {
            table: table.into(),
            index: None,
            filter: None,
            projection: None,
            select: None,
            consistent_read: false,
            limit: None,
            exclusive_start_key: None,
            segment: None,
        }
    }
}

/// Keys to read from one table in a BatchGetItem.
#[derive(Debug, Clone)]
pub struct BatchGetTable {
    pub table: String,
    pub keys: Vec<Item>,
    pub consistent_read: bool,
    pub projection: Option<Projection>,
}

#[derive(Debug, Clone)]
pub struct BatchGetItem {
    pub tables: Vec<BatchGetTable>,
}

#[derive(Debug, Clone)]
pub enum WriteRequest {
    Put(Item),
    Delete(Item),
}

#[derive(Debug, Clone)]
pub struct BatchWriteItem {
    pub tables: Vec<(String, Vec<WriteRequest>)>,
}

/// The response of PutItem, UpdateItem and DeleteItem.
#[derive(Debug, Clone)]
pub struct WriteOutput {
    /// What `ReturnValues` asked for; `None` when it is NONE or there is nothing to return.
    pub attributes: Option<Arc<Item>>,
    pub consumed: ConsumedCapacity,
}

#[derive(Debug, Clone)]
pub struct GetItemOutput {
    pub item: Option<Arc<Item>>,
    pub consumed: ConsumedCapacity,
}

/// The response of Query and Scan.
#[derive(Debug, Clone)]
pub struct QueryOutput {
    /// Empty for Select COUNT.
    pub items: Vec<Arc<Item>>,
    /// Items that passed the filter.
    pub count: usize,
    /// Items read (before the filter).
    pub scanned_count: usize,
    pub last_evaluated_key: Option<Item>,
    pub consumed: ConsumedCapacity,
}

#[derive(Debug, Clone)]
pub struct BatchGetItemOutput {
    pub responses: BTreeMap<String, Vec<Arc<Item>>>,
    /// Keys left unread because the response reached 16 MB (AWS BatchGetItem limit).
    pub unprocessed: Vec<BatchGetTable>,
    /// Per table, in the order tables were named.
    pub consumed: Vec<(String, ConsumedCapacity)>,
}

#[derive(Debug, Clone)]
pub struct BatchWriteItemOutput {
    /// Per table, in the order tables were named. Every request is processed: throttling, the
    /// usual source of `UnprocessedItems`, is the simulator's concern.
    pub consumed: Vec<(String, ConsumedCapacity)>,
}

/// A secondary index as DescribeTable reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexDescription {
    pub item_count: u64,
    /// Entry bytes plus 100 bytes per entry.
    pub size_bytes: u64,
    /// Table writes not yet replicated into a lagging GSI.
    pub pending_changes: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TableDescription {
    pub spec: TableSpec,
    pub created_secs: u64,
    pub item_count: u64,
    pub size_bytes: u64,
    pub global: Vec<IndexDescription>,
    pub local: Vec<IndexDescription>,
    pub ttl_attribute: Option<String>,
}

/// What moving the clock did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdvanceReport {
    pub index_changes_applied: usize,
    pub ttl_deleted: u64,
}

//! The table's life on the endpoint: created from the same description `keyheat export
//! cloudformation` writes (`interop::trace::create_table`), waited for until it and its indexes
//! are ACTIVE, counted after the run, deleted when keyheat made it. (`cli::endpoint` sends the
//! CreateTable itself: what happens next depends on whether it made the table.)

use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use super::EndpointError;
use super::client::{Client, Reply};
use crate::interop::TableDesign;
use crate::interop::trace;

/// How long a new table may take to become ACTIVE (AWS: seconds to a few minutes with GSIs).
pub const ACTIVE_TIMEOUT: Duration = Duration::from_secs(300);
const POLL: Duration = Duration::from_millis(250);
/// A Scan that counts stops after this many pages (1 MB each): the count is then a floor.
const COUNT_PAGES: u32 = 200;

/// What the table holds after the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contents {
    /// Counted with a Scan (`Select: COUNT`): DynamoDB's own `ItemCount` lags by hours.
    pub items: u64,
    /// Whether the count stopped at [`COUNT_PAGES`] pages.
    pub partial: bool,
    /// `TableSizeBytes` as DescribeTable gives it (AWS refreshes it about every six hours);
    /// `None` when it says 0 for a table that holds items (stale, or an emulator that does not
    /// keep it).
    pub bytes: Option<u64>,
}

fn ok(op: &'static str, table: &str, reply: Reply) -> Result<Json, EndpointError> {
    match reply.error() {
        None => Ok(reply.body),
        Some(kind) => Err(EndpointError::Service {
            op,
            table: table.to_owned(),
            kind: kind.to_owned(),
            message: reply.message().to_owned(),
        }),
    }
}

/// Waits until a table just created and its indexes are ACTIVE, then turns on its TTL.
pub fn prepare(client: &Client, design: &TableDesign, stop: &dyn Fn() -> bool) -> Result<(), EndpointError> {
    wait_active(client, &design.name, stop)?;
    if let Some(ttl) = trace::update_ttl(design) {
        ok("UpdateTimeToLive", &design.name, client.call("UpdateTimeToLive", &ttl)?)?;
    }
    Ok(())
}

/// DescribeTable's `Table`.
pub fn describe(client: &Client, table: &str) -> Result<Json, EndpointError> {
    let body = ok("DescribeTable", table, client.call("DescribeTable", &json!({"TableName": table}))?)?;
    Ok(body.get("Table").cloned().unwrap_or(Json::Null))
}

fn wait_active(client: &Client, table: &str, stop: &dyn Fn() -> bool) -> Result<(), EndpointError> {
    let started = Instant::now();
    loop {
        let described = describe(client, table)?;
        let status = described.get("TableStatus").and_then(Json::as_str).unwrap_or("?").to_owned();
        let indexes_active =
            described.get("GlobalSecondaryIndexes").and_then(Json::as_array).is_none_or(|list| {
                list.iter().all(|i| i.get("IndexStatus").and_then(Json::as_str) == Some("ACTIVE"))
            });
        if status == "ACTIVE" && indexes_active {
            return Ok(());
        }
        if stop() {
            return Err(EndpointError::Interrupted);
        }
        if started.elapsed() > ACTIVE_TIMEOUT {
            return Err(EndpointError::NotActive {
                table: table.to_owned(),
                seconds: ACTIVE_TIMEOUT.as_secs(),
                status,
            });
        }
        thread::sleep(POLL);
    }
}

/// What the table holds (see [`Contents`]).
pub fn contents(client: &Client, table: &str) -> Result<Contents, EndpointError> {
    let mut items = 0;
    let mut start: Option<Json> = None;
    let mut pages = 0;
    loop {
        let mut scan = json!({"TableName": table, "Select": "COUNT"});
        if let Some(key) = start.take() {
            scan["ExclusiveStartKey"] = key;
        }
        let page = ok("Scan", table, client.call("Scan", &scan)?)?;
        items += page.get("Count").and_then(Json::as_u64).unwrap_or(0);
        pages += 1;
        start = page.get("LastEvaluatedKey").cloned();
        if start.is_none() || pages >= COUNT_PAGES {
            break;
        }
    }
    let bytes = describe(client, table)?
        .get("TableSizeBytes")
        .and_then(Json::as_u64)
        .filter(|&b| b > 0 || items == 0);
    Ok(Contents { items, partial: start.is_some(), bytes })
}

/// Deletes the table (DynamoDB finishes deleting it in the background).
pub fn delete(client: &Client, table: &str) -> Result<(), EndpointError> {
    ok("DeleteTable", table, client.call("DeleteTable", &json!({"TableName": table}))?)?;
    Ok(())
}

//! The replay loop: each planned request is sent once, when it is due (the preload first, as
//! fast as the endpoint answers, then the workload on the scenario's clock × the rate scale);
//! a throttled request is retried with the scenario's retry policy; every answer's consumed
//! capacity, latency, throttles and errors are tallied by who sent it.
//!
//! One client sends one request at a time, as the simulator's client does: a retry's waits
//! delay the requests behind it, and when the endpoint is slower than the schedule the loop
//! falls behind (the report says by how much) instead of opening more connections.

use std::collections::{BTreeMap, HashMap};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value as Json;

use super::EndpointError;
use super::client::Client;
use super::pace::{self, Backoff};
use super::workload::Planned;
use crate::engine::sim::observe::Source;

/// The longest single sleep, so Ctrl-C is noticed quickly.
const NAP: Duration = Duration::from_millis(50);

/// What one source's requests met.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Tally {
    pub requests: u64,
    /// Requests throttled at least once (each counted once, however often).
    pub throttled: u64,
    pub retries: u64,
    /// Requests throttled past the policy's last retry.
    pub gave_up: u64,
    /// Other errors, by DynamoDB's name (`ValidationException`…).
    pub errors: BTreeMap<String, u64>,
    /// Capacity units the answers reported (`ConsumedCapacity`, table and indexes).
    pub units: f64,
    /// Successful metered requests whose answer had no `ConsumedCapacity`.
    pub unmetered: u64,
    /// Writes on a table with GSIs answered without a `GlobalSecondaryIndexes` breakdown.
    pub no_index_units: u64,
    /// Each request's time from its first send to its last answer, retry waits included (ms).
    #[serde(skip)]
    pub latencies_ms: Vec<f64>,
}

/// The whole run's measurements.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    pub by_source: HashMap<Source, Tally>,
    pub sent: u64,
    pub interrupted: bool,
    pub wall: Duration,
    /// How late the latest request was sent against its schedule.
    pub max_behind: Duration,
}

/// Sends `requests` (see the module documentation); `stop` is polled between requests and
/// during waits. An endpoint that stops answering ends the run with an error.
pub fn run(
    client: &Client,
    requests: &[Planned],
    gsis: bool,
    rate_scale: f64,
    backoff: &Backoff,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u64),
) -> Result<Measured, EndpointError> {
    let started = Instant::now();
    let mut measured = Measured::default();
    // The workload's clock starts once the preload is in, as the model's does.
    let mut clock: Option<Instant> = None;
    for (n, planned) in requests.iter().enumerate() {
        if planned.metered {
            let zero = *clock.get_or_insert_with(Instant::now);
            let due = zero + pace::due(planned.at_ms, rate_scale);
            if !nap_until(due, stop) {
                measured.interrupted = true;
                break;
            }
            measured.max_behind = measured.max_behind.max(Instant::now().saturating_duration_since(due));
        }
        if stop() {
            measured.interrupted = true;
            break;
        }
        let tally = measured.by_source.entry(planned.source).or_default();
        if !send_one(client, planned, n as u64, gsis, backoff, stop, tally)? {
            measured.interrupted = true;
            break;
        }
        measured.sent += 1;
        progress(measured.sent);
    }
    measured.wall = started.elapsed();
    Ok(measured)
}

/// Sends one request until it is answered other than by a throttle, or the policy gives up.
/// False when stopped during a retry wait (the request is then not counted).
fn send_one(
    client: &Client,
    planned: &Planned,
    n: u64,
    gsis: bool,
    backoff: &Backoff,
    stop: &dyn Fn() -> bool,
    tally: &mut Tally,
) -> Result<bool, EndpointError> {
    let body = Json::Object(planned.body.clone());
    let first = Instant::now();
    let mut retry = 0;
    loop {
        let reply = client.call(planned.op, &body)?;
        match reply.error() {
            Some(kind) if pace::is_throttle(kind) => {
                if retry == 0 {
                    tally.throttled += 1;
                }
                retry += 1;
                let Some(wait) = backoff.wait(n, retry) else {
                    tally.gave_up += 1;
                    break;
                };
                tally.retries += 1;
                if !nap_until(Instant::now() + wait, stop) {
                    return Ok(false);
                }
            }
            Some(kind) => {
                *tally.errors.entry(kind.to_owned()).or_default() += 1;
                break;
            }
            None => {
                let write = matches!(planned.op, "PutItem" | "UpdateItem" | "DeleteItem");
                if planned.metered
                    && write
                    && gsis
                    && reply.body["ConsumedCapacity"].get("GlobalSecondaryIndexes").is_none()
                {
                    tally.no_index_units += 1;
                }
                match consumed(&reply.body) {
                    Some(units) => tally.units += units,
                    None if planned.metered => tally.unmetered += 1,
                    None => {}
                }
                break;
            }
        }
    }
    tally.requests += 1;
    tally.latencies_ms.push(first.elapsed().as_secs_f64() * 1000.0);
    Ok(true)
}

/// The capacity units an answer reports: `ConsumedCapacity` is one object, or a list of one per
/// table for the batch calls.
pub fn consumed(body: &Json) -> Option<f64> {
    let units = |c: &Json| c.get("CapacityUnits").and_then(Json::as_f64);
    match body.get("ConsumedCapacity")? {
        Json::Array(list) => Some(list.iter().filter_map(units).sum()),
        one => units(one),
    }
}

/// Sleeps until `until` in short naps; false when `stop` said to stop first.
fn nap_until(until: Instant, stop: &dyn Fn() -> bool) -> bool {
    loop {
        if stop() {
            return false;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return true;
        }
        thread::sleep(left.min(NAP));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn consumed_capacity_is_one_object_or_a_list_per_table() {
        assert_eq!(
            consumed(&json!({"ConsumedCapacity": {"TableName": "t", "CapacityUnits": 1.5}})),
            Some(1.5)
        );
        let batch = json!({"ConsumedCapacity": [{"TableName": "t", "CapacityUnits": 2.0}, {"TableName": "u", "CapacityUnits": 0.5}]});
        assert_eq!(consumed(&batch), Some(2.5));
        assert_eq!(consumed(&json!({"Item": {}})), None);
    }

    #[test]
    fn a_stop_ends_a_wait_at_once() {
        let far = Instant::now() + Duration::from_secs(3600);
        assert!(!nap_until(far, &|| true));
        assert!(nap_until(Instant::now(), &|| false));
    }
}

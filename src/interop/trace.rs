//! `keyheat export trace`: the workload a replay generates, as the DynamoDB API requests it
//! served, in `keyheat ops` JSON Lines — so any DynamoDB client or emulator can replay exactly
//! what keyheat simulated.
//!
//! The file is: a `CreateTable` of the variant's table (as [`super::cloudformation`] describes
//! it), its `UpdateTimeToLive` when the variant expires items, an `AdvanceTime` to the
//! workload's start (the store's clock starts at the epoch; TTL compares against it), then every
//! request the replay served in the order it served them (`engine::sim::observe`): the preload's
//! PutItems (free in the replay: sent without `ReturnConsumedCapacity`), then the workload's
//! requests with `"ReturnConsumedCapacity": "INDEXES"`, and an `AdvanceTime` whenever simulated
//! time passes a whole second.
//!
//! Each request is there once, as a client sends it: a request the replay's simulated client
//! retried after throttling is where its retry landed, one that ran out of retries (it changed
//! nothing) is not. `keyheat ops` does not throttle, so replaying the trace gives the replay's
//! item counts and the consumed capacity of the requests it served. JSON Lines has no comments,
//! so this is said in `--help` and the README.
//!
//! The Cassandra profile is refused: its tables have no capacity units and its requests are
//! CQL, not DynamoDB's API.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{Map, Value as Json, json};

use super::TableDesign;
use crate::engine::model::{Engine, Scenario, Variant};
use crate::engine::profile::Language;
use crate::engine::sim::observe::{Observer, Query, Request, SortCondition, Source};
use crate::engine::sim::{RunOptions, SimError, Simulation};
use crate::engine::time::SimTime;
use crate::engine::value::{AttributeValue, Item, item_to_json};

/// What to replay and how much of it to write.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub run: RunOptions,
    /// At most this many requests (the table's setup and the clock's lines not counted).
    pub limit: Option<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error(
        "{scenario} uses the {engine} profile: a trace is DynamoDB API requests for `keyheat ops`, and \
         {}",
        not_dynamodb(*engine)
    )]
    NotDynamoDb { scenario: String, engine: Engine },
    #[error(
        "{scenario}'s pattern {pattern} is a transaction: keyheat's requests name each of its items \
         on its own, and `keyheat ops` has no TransactWriteItems or TransactGetItems, so neither a \
         trace nor a replay on an endpoint would send the calls keyheat modelled"
    )]
    Transaction { scenario: String, pattern: String },
    #[error("{scenario} has no table in variant {variant}: no entity has keys")]
    NoTable { scenario: String, variant: String },
    #[error(transparent)]
    Sim(#[from] SimError),
}

/// Why a store's design has no trace of DynamoDB requests: what its requests are instead.
fn not_dynamodb(engine: Engine) -> &'static str {
    match engine {
        Engine::CosmosDb => {
            "Cosmos DB's container takes its own API's requests and charges request units, not \
             capacity units, so there is nothing for `keyheat ops` to compare"
        }
        Engine::MongoDb => {
            "MongoDB's collections take its query language's methods and meter no units, so there \
             is nothing for `keyheat ops` to compare"
        }
        Engine::Cassandra | Engine::DynamoDb => {
            "the Cassandra profile's tables take CQL and have no capacity units to compare (its \
             design exports with `keyheat export cql`)"
        }
    }
}

/// The trace of `variant`'s replay as JSON Lines. `progress` gets the fraction replayed.
///
/// # Panics
///
/// Never: the observer taken back at the end is the one attached at the start.
pub fn render(
    scenario: &Scenario,
    variant: &Variant,
    options: &Options,
    progress: &mut dyn FnMut(f64),
) -> Result<String, TraceError> {
    if scenario.engine.profile().language != Language::DynamoDbApi {
        return Err(TraceError::NotDynamoDb { scenario: scenario.name.clone(), engine: scenario.engine });
    }
    if let Some(p) = scenario.patterns.iter().find(|p| p.transaction) {
        return Err(TraceError::Transaction { scenario: scenario.name.clone(), pattern: p.name.clone() });
    }
    let designs = super::tables(scenario, variant);
    let Some(design) = designs.first() else {
        return Err(TraceError::NoTable { scenario: scenario.name.clone(), variant: variant.name.clone() });
    };
    let mut text = String::new();
    line(&mut text, "CreateTable", &create_table(design));
    if let Some(ttl) = update_ttl(design) {
        line(&mut text, "UpdateTimeToLive", &ttl);
    }
    let start = scenario.workload.start.as_millis() / 1000;
    if start > 0 {
        line(&mut text, "AdvanceTime", &json!({"Seconds": start}));
    }
    let trace = Trace {
        requests: Requests::new(design),
        text,
        clock_s: start,
        sent: 0,
        limit: options.limit.unwrap_or(u64::MAX),
    };
    let mut sim = Simulation::observed(scenario, variant, &options.run, Box::new(trace))?;
    let full = |sim: &Simulation| {
        sim.observer()
            .and_then(|o| (o as &dyn std::any::Any).downcast_ref::<Trace>())
            .is_some_and(Trace::is_full)
    };
    progress(0.0);
    while !full(&sim) && sim.step() {
        progress(sim.progress());
    }
    progress(1.0);
    let observer: Box<dyn std::any::Any> = sim.take_observer().expect("attached above");
    let trace = observer.downcast::<Trace>().expect("the observer is a Trace");
    Ok(trace.text)
}

/// The `CreateTable` parameters of a table (as [`super::cloudformation`] describes it, less the
/// TTL, which DynamoDB sets with its own call: [`update_ttl`]).
pub fn create_table(design: &TableDesign) -> Json {
    let mut create = super::cloudformation::properties(design);
    if let Json::Object(fields) = &mut create {
        fields.remove("TimeToLiveSpecification");
    }
    create
}

/// The `UpdateTimeToLive` parameters that turn on the table's TTL, when the variant expires items.
pub fn update_ttl(design: &TableDesign) -> Option<Json> {
    let ttl = design.ttl.as_ref()?;
    Some(
        json!({"TableName": design.name, "TimeToLiveSpecification": {"AttributeName": ttl, "Enabled": true}}),
    )
}

/// The observer that writes the lines.
struct Trace {
    requests: Requests,
    text: String,
    /// The store's clock (seconds) as the lines so far have moved it.
    clock_s: u64,
    sent: u64,
    limit: u64,
}

impl Trace {
    fn is_full(&self) -> bool {
        self.sent >= self.limit
    }
}

impl Observer for Trace {
    fn served(&mut self, at: SimTime, metered: bool, _: Source, request: Request<'_>) {
        if self.is_full() {
            return;
        }
        self.sent += 1;
        let now = at.as_millis() / 1000;
        if now > self.clock_s {
            line(&mut self.text, "AdvanceTime", &json!({"Seconds": now - self.clock_s}));
            self.clock_s = now;
        }
        let (op, fields) = self.requests.fields(request, metered);
        line(&mut self.text, op, &Json::Object(fields));
    }
}

/// Turns the replay's typed requests into DynamoDB API parameters for one table: what the trace
/// writes and what `keyheat replay --endpoint` sends.
#[derive(Debug, Clone)]
pub struct Requests {
    table: String,
    /// The variant's index names → the names DynamoDB accepts (as `CreateTable` has them).
    indexes: HashMap<String, String>,
}

impl Requests {
    pub fn new(design: &TableDesign) -> Requests {
        Requests {
            table: design.name.clone(),
            indexes: design.indexes.iter().map(|i| (i.source.clone(), i.name.clone())).collect(),
        }
    }

    /// A request's action and its parameters; `metered` asks for `"ReturnConsumedCapacity":
    /// "INDEXES"` (the preload goes without: the replay loads it at no cost).
    pub fn fields(&self, request: Request<'_>, metered: bool) -> (&'static str, Map<String, Json>) {
        let (op, mut fields) = self.parameters(request);
        if metered {
            fields.insert("ReturnConsumedCapacity".into(), json!("INDEXES"));
        }
        (op, fields)
    }

    fn parameters(&self, request: Request<'_>) -> (&'static str, Map<String, Json>) {
        let mut f = Map::new();
        f.insert("TableName".into(), json!(self.table));
        let op = match request {
            Request::PutItem { item, .. } => {
                f.insert("Item".into(), item_to_json(&item));
                "PutItem"
            }
            Request::UpdateItem { key, set, remove, .. } => {
                f.insert("Key".into(), item_to_json(&key));
                let mut names = Map::new();
                let mut values = Map::new();
                let mut sets = Vec::new();
                for (i, (name, value)) in set.iter().enumerate() {
                    names.insert(format!("#s{i}"), json!(name));
                    values.insert(format!(":s{i}"), value.to_json());
                    sets.push(format!("#s{i} = :s{i}"));
                }
                let mut removes = Vec::new();
                for (i, name) in remove.iter().enumerate() {
                    names.insert(format!("#r{i}"), json!(name));
                    removes.push(format!("#r{i}"));
                }
                let mut expression = String::new();
                if !sets.is_empty() {
                    let _ = write!(expression, "SET {}", sets.join(", "));
                }
                if !removes.is_empty() {
                    let gap = if expression.is_empty() { "" } else { " " };
                    let _ = write!(expression, "{gap}REMOVE {}", removes.join(", "));
                }
                if !expression.is_empty() {
                    f.insert("UpdateExpression".into(), json!(expression));
                    f.insert("ExpressionAttributeNames".into(), Json::Object(names));
                }
                if !values.is_empty() {
                    f.insert("ExpressionAttributeValues".into(), Json::Object(values));
                }
                "UpdateItem"
            }
            Request::DeleteItem { key, .. } => {
                f.insert("Key".into(), item_to_json(&key));
                "DeleteItem"
            }
            Request::GetItem { key, .. } => {
                f.insert("Key".into(), item_to_json(&key));
                "GetItem"
            }
            Request::BatchGetItem { keys, .. } => {
                f.remove("TableName");
                let keys: Vec<Json> = keys.iter().map(item_to_json).collect();
                f.insert("RequestItems".into(), json!({ self.table.clone(): {"Keys": keys} }));
                "BatchGetItem"
            }
            Request::Query(query) => {
                self.query(&mut f, &query);
                "Query"
            }
            Request::Scan { start, .. } => {
                start_key(&mut f, start.as_ref());
                "Scan"
            }
        };
        (op, f)
    }

    fn query(&self, f: &mut Map<String, Json>, query: &Query<'_>) {
        if let Some(index) = query.index {
            let name = self.indexes.get(index).map_or(index, String::as_str);
            f.insert("IndexName".into(), json!(name));
        }
        let mut names = Map::new();
        let mut values = Map::new();
        names.insert("#pk".into(), json!(query.pk.0));
        values.insert(":pk".into(), query.pk.1.to_json());
        let mut condition = "#pk = :pk".to_owned();
        if let Some((name, sk)) = &query.sk {
            names.insert("#sk".into(), json!(name));
            let mut value = |key: &str, v: &AttributeValue| {
                values.insert(key.into(), v.to_json());
            };
            let term = match sk {
                SortCondition::Eq(v) => {
                    value(":sk", v);
                    "#sk = :sk"
                }
                SortCondition::BeginsWith(v) => {
                    value(":sk", v);
                    "begins_with(#sk, :sk)"
                }
                SortCondition::Between(lo, hi) => {
                    value(":lo", lo);
                    value(":hi", hi);
                    "#sk BETWEEN :lo AND :hi"
                }
                SortCondition::Lt(v) => {
                    value(":sk", v);
                    "#sk < :sk"
                }
                SortCondition::Le(v) => {
                    value(":sk", v);
                    "#sk <= :sk"
                }
                SortCondition::Gt(v) => {
                    value(":sk", v);
                    "#sk > :sk"
                }
                SortCondition::Ge(v) => {
                    value(":sk", v);
                    "#sk >= :sk"
                }
            };
            let _ = write!(condition, " AND {term}");
        }
        f.insert("KeyConditionExpression".into(), json!(condition));
        f.insert("ExpressionAttributeNames".into(), Json::Object(names));
        f.insert("ExpressionAttributeValues".into(), Json::Object(values));
        if !query.forward {
            f.insert("ScanIndexForward".into(), json!(false));
        }
        if let Some(limit) = query.limit {
            f.insert("Limit".into(), json!(limit));
        }
        if query.all_attributes {
            f.insert("Select".into(), json!("ALL_ATTRIBUTES"));
        }
        start_key(f, query.start.as_ref());
    }
}

fn start_key(f: &mut Map<String, Json>, start: Option<&Item>) {
    if let Some(start) = start {
        f.insert("ExclusiveStartKey".into(), item_to_json(start));
    }
}

/// One line: `{"op": ACTION, ...fields}`, the action first, then the fields in the order given.
fn line(text: &mut String, op: &str, fields: &Json) {
    let body = serde_json::to_string(fields).unwrap_or_default();
    let rest = body.strip_prefix('{').unwrap_or(&body);
    let comma = if rest == "}" { "" } else { "," };
    let _ = writeln!(text, "{{\"op\":{}{comma}{rest}", json!(op));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_starts_with_its_action() {
        let mut text = String::new();
        line(&mut text, "Scan", &json!({"TableName": "t", "ExclusiveStartKey": {"pk": {"S": "a"}}}));
        line(&mut text, "AdvanceTime", &json!({}));
        assert_eq!(
            text,
            "{\"op\":\"Scan\",\"TableName\":\"t\",\"ExclusiveStartKey\":{\"pk\":{\"S\":\"a\"}}}\n{\"op\":\"AdvanceTime\"}\n"
        );
    }

    #[test]
    fn the_cassandra_profile_is_refused_with_the_reason() {
        let loaded = crate::scenario::load("sensors").unwrap();
        let err = render(&loaded.scenario, loaded.variant(None).unwrap(), &Options::default(), &mut |_| {})
            .unwrap_err();
        let message = err.to_string();
        assert!(message.starts_with("sensors uses the Cassandra profile"), "{message}");
        assert!(message.contains("keyheat export cql"), "{message}");
    }

    #[test]
    fn the_limit_caps_the_requests() {
        let loaded = crate::scenario::load("counters").unwrap();
        let options = Options {
            run: RunOptions {
                duration: Some(crate::engine::time::SimDuration::from_millis(2000)),
                seed: None,
            },
            limit: Some(5),
        };
        let text =
            render(&loaded.scenario, loaded.variant(Some("recommended")).unwrap(), &options, &mut |_| {})
                .unwrap();
        let requests = text
            .lines()
            .filter(|l| !l.contains("\"op\":\"AdvanceTime\"") && !l.contains("\"op\":\"CreateTable\""))
            .count();
        assert_eq!(requests, 5, "{text}");
        assert!(text.starts_with("{\"op\":\"CreateTable\""), "{text}");
    }
}

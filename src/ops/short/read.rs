//! Read-only requests for the console: one `keyheat ops` request parsed by the protocol's own
//! code (same parameters, defaults and messages), refused when it writes or changes a store;
//! the caller looks at what it reads ([`ConsoleRead::read`]), builds a [`Store`] holding those
//! items, and [`ConsoleRead::answer`] executes the request there and serializes the response as
//! `keyheat ops` prints it.

use serde_json::Value as Json;

use crate::engine::sim::{ConsoleError, ConsoleRequest, Read, Simulation};
use crate::engine::store::{Store, StoreError};
use crate::ops::OpsError;
use crate::ops::request::{self, Request};

/// Answers one console line against `sim`'s table as it stands: `keyheat ops` JSON (a line
/// starting with `{`) or a short form ([`super::expand`]), parsed here and handed to the
/// replay as a value ([`Simulation::console`]).
pub fn console(sim: &Simulation, line: &str) -> Result<Json, ConsoleError> {
    let line = line.trim();
    let read = if line.starts_with('{') {
        ConsoleRead::parse(line)
    } else {
        super::expand(line, &sim.console_tables()).and_then(|request| ConsoleRead::from_json(&request))
    };
    sim.console(read.map_err(ConsoleError::Request)?)
}

/// Actions the console refuses, and why.
const REFUSED: &[(&str, &str)] = &[
    ("PutItem", "writes"),
    ("UpdateItem", "writes"),
    ("DeleteItem", "writes"),
    ("BatchWriteItem", "writes"),
    ("CreateTable", "creates a table"),
    ("UpdateTimeToLive", "changes the table"),
    ("AdvanceTime", "moves a store's clock"),
    ("DescribeTable", "is not answered here"),
];

/// One read request for the console, parsed as `keyheat ops` parses it.
pub struct ConsoleRead {
    request: Request,
}

fn message(error: &OpsError) -> String {
    format!("{}: {}", error.type_name, error.message)
}

impl ConsoleRead {
    /// Parses one request line of `keyheat ops` JSON. Errors are `"<Exception>: <message>"`
    /// with `keyheat ops`'s exception and message, or say why the console refuses the action.
    pub fn parse(line: &str) -> Result<ConsoleRead, String> {
        let json: Json = serde_json::from_str(line)
            .map_err(|e| message(&OpsError::serialization(format!("The request is not valid JSON: {e}"))))?;
        ConsoleRead::from_json(&json)
    }

    /// [`parse`](ConsoleRead::parse) for a request already held as a JSON value (a short form
    /// that `expand` built).
    pub fn from_json(json: &Json) -> Result<ConsoleRead, String> {
        let Json::Object(object) = json else {
            return Err(message(&OpsError::serialization(
                "Expected a JSON object: {\"op\": \"<Action>\", ...}",
            )));
        };
        let op = match object.get("op") {
            Some(Json::String(op)) => op.as_str(),
            Some(_) => {
                return Err(message(&OpsError::serialization("op must be a string naming the action")));
            }
            None => {
                return Err(message(&OpsError::validation(
                    "Missing \"op\": name the action, e.g. {\"op\": \"GetItem\", ...}",
                )));
            }
        };
        if let Some((_, why)) = REFUSED.iter().find(|(name, _)| *name == op) {
            return Err(format!(
                "{op} {why}: the console only reads the replay's table as it stands (GetItem, Query, Scan, \
                 BatchGetItem); changing it would change the run being measured"
            ));
        }
        match request::parse(op, object).map_err(|e| message(&e))? {
            request @ (Request::GetItem(..)
            | Request::Query(..)
            | Request::Scan(..)
            | Request::BatchGetItem(..)) => Ok(ConsoleRead { request }),
            _ => {
                Err(format!("{op} is not a read: the console answers GetItem, Query, Scan and BatchGetItem"))
            }
        }
    }
}

impl ConsoleRequest for ConsoleRead {
    fn read(&self) -> Read<'_> {
        match &self.request {
            Request::GetItem(get, _) => Read::GetItem(get),
            Request::Query(query, _) => Read::Query(query),
            Request::Scan(scan, _) => Read::Scan(scan),
            Request::BatchGetItem(batch, _, _) => Read::BatchGetItem(batch),
            _ => unreachable!("`parse` keeps only the four reads"),
        }
    }

    fn rename(&mut self, rename: &dyn Fn(&str) -> Option<String>) {
        let apply = |name: &mut String| {
            if let Some(new) = rename(name) {
                *name = new;
            }
        };
        match &mut self.request {
            Request::GetItem(get, _) => apply(&mut get.table),
            Request::Query(query, _) => {
                apply(&mut query.table);
                query.index.iter_mut().for_each(apply);
            }
            Request::Scan(scan, _) => {
                apply(&mut scan.table);
                scan.index.iter_mut().for_each(apply);
            }
            Request::BatchGetItem(batch, echo, _) => {
                batch.tables.iter_mut().for_each(|t| apply(&mut t.table));
                *echo = std::mem::take(echo)
                    .into_iter()
                    .map(|(mut name, entry)| {
                        apply(&mut name);
                        (name, entry)
                    })
                    .collect();
            }
            _ => {}
        }
    }

    fn answer(self, store: &mut Store) -> Result<Json, StoreError> {
        crate::ops::execute(store, self.request)
    }
}

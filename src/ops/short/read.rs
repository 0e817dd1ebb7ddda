//! Read-only requests for the console: one `keyheat ops` request parsed by the protocol's own
//! code (same parameters, defaults and messages), refused when it writes or changes a store;
//! the caller looks at what it reads ([`ConsoleRead::read`]), builds a [`Store`] holding those
//! items, and [`ConsoleRead::answer`] executes the request there and serializes the response as
//! `keyheat ops` prints it.

use serde_json::Value as Json;

use super::ShortError;
use crate::engine::sim::{ConsoleError, ConsoleRequest, Read, Simulation};
use crate::engine::store::{Store, StoreError};
use crate::ops::OpsError;
use crate::ops::request::{self, Request};

/// Why a console line got no answer: a short form's mistake, a request the console does not
/// take, or the replay's own answer (the store's exception).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LineError {
    #[error(transparent)]
    Short(#[from] ShortError),
    #[error(transparent)]
    Request(#[from] RequestError),
    #[error(transparent)]
    Console(#[from] ConsoleError),
}

/// Answers one console line against `sim`'s table as it stands: `keyheat ops` JSON (a line
/// starting with `{`) or a short form ([`super::expand`]), parsed here and handed to the
/// replay as a value ([`Simulation::console`]).
pub fn console(sim: &Simulation, line: &str) -> Result<Json, LineError> {
    let line = line.trim();
    let read = if line.starts_with('{') {
        ConsoleRead::parse(line)?
    } else {
        ConsoleRead::from_json(&super::expand(line, &sim.console_tables())?)?
    };
    Ok(sim.console(read)?)
}

/// Why the console does not take a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// `keyheat ops` would refuse it too: its exception and message.
    #[error("{kind}: {message}", kind = .0.type_name, message = .0.message)]
    Invalid(OpsError),
    /// An action that writes or changes a store, and what it would do.
    #[error(
        "{op} {why}: the console only reads the replay's table as it stands (GetItem, Query, Scan, \
         BatchGetItem); changing it would change the run being measured"
    )]
    Refused { op: String, why: &'static str },
    /// An action `keyheat ops` answers that is neither refused by name nor a read.
    #[error("{op} is not a read: the console answers GetItem, Query, Scan and BatchGetItem")]
    NotARead { op: String },
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

impl ConsoleRead {
    /// Parses one request line of `keyheat ops` JSON, with `keyheat ops`'s exceptions and
    /// messages, or refuses the action.
    pub fn parse(line: &str) -> Result<ConsoleRead, RequestError> {
        let json: Json = serde_json::from_str(line).map_err(|e| {
            RequestError::Invalid(OpsError::serialization(format!("The request is not valid JSON: {e}")))
        })?;
        ConsoleRead::from_json(&json)
    }

    /// [`parse`](ConsoleRead::parse) for a request already held as a JSON value (a short form
    /// that `expand` built).
    pub fn from_json(json: &Json) -> Result<ConsoleRead, RequestError> {
        let Json::Object(object) = json else {
            return Err(RequestError::Invalid(OpsError::serialization(
                "Expected a JSON object: {\"op\": \"<Action>\", ...}",
            )));
        };
        let op = match object.get("op") {
            Some(Json::String(op)) => op.as_str(),
            Some(_) => {
                return Err(RequestError::Invalid(OpsError::serialization(
                    "op must be a string naming the action",
                )));
            }
            None => {
                return Err(RequestError::Invalid(OpsError::validation(
                    "Missing \"op\": name the action, e.g. {\"op\": \"GetItem\", ...}",
                )));
            }
        };
        if let Some(&(_, why)) = REFUSED.iter().find(|(name, _)| *name == op) {
            return Err(RequestError::Refused { op: op.to_owned(), why });
        }
        match request::parse(op, object).map_err(RequestError::Invalid)? {
            request @ (Request::GetItem(..)
            | Request::Query(..)
            | Request::Scan(..)
            | Request::BatchGetItem(..)) => Ok(ConsoleRead { request }),
            _ => Err(RequestError::NotARead { op: op.to_owned() }),
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

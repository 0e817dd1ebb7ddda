//! `keyheat ops`: DynamoDB API requests as JSON Lines in, one DynamoDB response body per line
//! out (DESIGN.md §5).
//!
//! Each input line is `{"op": "<Action>", ...low-level API parameters}`; the answer is the
//! response body DynamoDB would send, or `{"__type": "<Exception>", "message": "..."}`. An error
//! never stops the run. Blank lines are skipped and get no answer. Input is streamed line by line
//! and output goes through a `BufWriter`, so a trace of any length runs in constant memory (apart
//! from the store). The non-AWS action `{"op": "AdvanceTime", "Seconds": N}` moves the store's
//! clock, which drives TTL and GSI lag. Throttling is the simulator's business, not this mode's.
//!
//! - `params`: reading a request object's fields, with DynamoDB's error kinds.
//! - `request`: JSON → typed store request (expressions parsed here); `table`: CreateTable.
//! - `response`: typed store response → JSON, keys sorted.

mod params;
mod request;
mod response;
pub mod short;
mod table;

use std::io::{self, BufRead, BufWriter, Write};

use serde_json::Value as Json;

use crate::engine::store::{DEFAULT_TTL_DELAY, Store, StoreConfig, StoreError};
use crate::engine::time::SimDuration;

use request::Request;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// GSI replication lag; zero makes index updates immediate.
    pub index_lag: SimDuration,
    /// How long after its expiry time the TTL sweeper deletes an item; until then it stays
    /// visible. DynamoDB deletes expired items "within a few days" (AWS TTL docs); the default
    /// is the store's 48 hours.
    pub ttl_delay: SimDuration,
}

impl Default for Options {
    fn default() -> Options {
        Options { index_lag: SimDuration::ZERO, ttl_delay: DEFAULT_TTL_DELAY }
    }
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Non-blank lines read, each answered by one output line.
    pub requests: u64,
    /// Lines answered with an error object.
    pub errors: u64,
}

/// An error line: a DynamoDB exception name and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpsError {
    pub type_name: &'static str,
    pub message: String,
}

impl OpsError {
    fn new(type_name: &'static str, message: impl Into<String>) -> OpsError {
        OpsError { type_name, message: message.into() }
    }

    fn validation(message: impl Into<String>) -> OpsError {
        OpsError::new("ValidationException", message)
    }

    fn serialization(message: impl Into<String>) -> OpsError {
        OpsError::new("SerializationException", message)
    }
}

impl From<StoreError> for OpsError {
    fn from(error: StoreError) -> OpsError {
        OpsError::new(error.type_name(), error.to_string())
    }
}

/// Answers every request in `input`, one line each, into `output`.
pub fn run(mut input: impl BufRead, output: impl Write, options: &Options) -> io::Result<Stats> {
    let mut out = BufWriter::new(output);
    let mut store = Store::new(StoreConfig {
        index_lag: options.index_lag,
        ttl_delay: options.ttl_delay,
        ..StoreConfig::default()
    });
    let mut stats = Stats::default();
    let mut line = Vec::new();
    // 1-based number of the input line being answered; blank lines count, so a message's line
    // is the file's.
    let mut number = 0u64;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        number += 1;
        let response = match std::str::from_utf8(&line) {
            Err(_) => Some(Err(OpsError::serialization(format!("Line {number} is not valid UTF-8")))),
            Ok(text) if text.trim().is_empty() => None,
            Ok(text) => {
                let request = text.trim_start();
                let indent = text.len() - request.len();
                Some(answer(&mut store, request.trim_end(), number, indent))
            }
        };
        let Some(response) = response else { continue };
        stats.requests += 1;
        let json = response.unwrap_or_else(|error| {
            stats.errors += 1;
            response::error(error.type_name, &error.message)
        });
        serde_json::to_writer(&mut out, &json)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(stats)
}

/// The response body for one request line: input line `number`, which had `indent` bytes of
/// leading white space before `line`.
fn answer(store: &mut Store, line: &str, number: u64, indent: usize) -> Result<Json, OpsError> {
    let json: Json = serde_json::from_str(line).map_err(|e| not_json(&e, number, indent))?;
    let Json::Object(object) = &json else {
        return Err(OpsError::serialization("Expected a JSON object: {\"op\": \"<Action>\", ...}"));
    };
    let op = match object.get("op") {
        Some(Json::String(op)) => op.as_str(),
        Some(_) => return Err(OpsError::serialization("op must be a string naming the action")),
        None => {
            return Err(OpsError::validation(
                "Missing \"op\": name the action, e.g. {\"op\": \"GetItem\", ...}",
            ));
        }
    };
    Ok(execute(store, request::parse(op, object)?)?)
}

/// serde_json places its error within the one line it was given ("at line 1 column 45"): the
/// message names the input's line instead, and the column within it (1-based, in bytes, as
/// serde_json counts, leading white space included).
fn not_json(error: &serde_json::Error, number: u64, indent: usize) -> OpsError {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let what = text.strip_suffix(&position).unwrap_or(&text);
    let place = if error.line() == 0 {
        format!("line {number}")
    } else {
        format!("line {number} column {}", error.column() + indent)
    };
    OpsError::serialization(format!("The line is not valid JSON: {what} at {place}"))
}

/// Only the store refuses a parsed request, so its error is the store's (the console reports it
/// as such).
fn execute(store: &mut Store, request: Request) -> Result<Json, StoreError> {
    Ok(match request {
        Request::CreateTable(create) => {
            let description = store.create_table(create)?;
            serde_json::json!({ "TableDescription": response::table_description(&description) })
        }
        Request::DescribeTable(name) => {
            let description = store.describe_table(&name)?;
            serde_json::json!({ "Table": response::table_description(&description) })
        }
        Request::UpdateTimeToLive(update) => {
            store.update_time_to_live(&update)?;
            response::time_to_live(&update)
        }
        Request::PutItem(put, mode) => {
            let table = put.table.clone();
            let output = store.put_item(put)?;
            response::write_output(store, &table, &output, mode)
        }
        Request::GetItem(get, mode) => response::get_item(store, &get.table, &store.get_item(&get)?, mode),
        Request::UpdateItem(update, mode) => {
            let output = store.update_item(&update)?;
            response::write_output(store, &update.table, &output, mode)
        }
        Request::DeleteItem(delete, mode) => {
            let output = store.delete_item(&delete)?;
            response::write_output(store, &delete.table, &output, mode)
        }
        Request::Query(query, mode) => {
            let count_only = query.select == Some(crate::engine::store::Select::Count);
            response::query(store, &query.table, &store.query(&query)?, count_only, mode)
        }
        Request::Scan(scan, mode) => {
            let count_only = scan.select == Some(crate::engine::store::Select::Count);
            response::query(store, &scan.table, &store.scan(&scan)?, count_only, mode)
        }
        Request::BatchGetItem(batch, echo, mode) => {
            response::batch_get_item(store, &store.batch_get_item(&batch)?, &echo, mode)
        }
        Request::BatchWriteItem(batch, mode) => {
            let output = store.batch_write_item(batch)?;
            response::batch_write_item(store, &output, mode)
        }
        Request::AdvanceTime(by) => {
            let report = store.advance_by(by);
            response::advance(store, report)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(input: &str) -> Vec<String> {
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, &Options::default()).expect("in-memory I/O cannot fail");
        String::from_utf8(output)
            .expect("ops writes UTF-8")
            .lines()
            .map(|l| {
                serde_json::from_str::<Json>(l).expect("JSON")["message"].as_str().unwrap_or("").to_owned()
            })
            .collect()
    }

    #[test]
    fn a_broken_line_is_placed_at_its_line_and_column_in_the_input() {
        // Blank lines get no answer but still count; leading white space counts in the column.
        let input =
            "{\"op\":\"AdvanceTime\",\"Seconds\":1}\n\n   \n{\"op\": \"PutItem\", \"Item\": \n  nope\n[1,\n";
        let cases = [
            (1, "The line is not valid JSON: EOF while parsing a value at line 4 column 25"),
            (2, "The line is not valid JSON: expected ident at line 5 column 4"),
            (3, "The line is not valid JSON: EOF while parsing a value at line 6 column 3"),
        ];
        let got = messages(input);
        assert_eq!(got.len(), 4, "{got:?}");
        for (i, want) in cases {
            assert_eq!(got[i], want);
        }
    }

    #[test]
    fn an_error_without_a_position_names_the_line() {
        let error = serde_json::from_value::<u8>(Json::Bool(true)).expect_err("a bool is not a u8");
        assert_eq!(error.line(), 0, "serde_json gives no position for a value error");
        assert_eq!(not_json(&error, 7, 0).message, format!("The line is not valid JSON: {error} at line 7"));
    }
}

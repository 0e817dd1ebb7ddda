//! `keyheat replay --endpoint` (feature `endpoint`): the workload a replay generates, sent to a
//! real DynamoDB-compatible service (AWS, DynamoDB Local, Alternator, LocalStack, dynalite) and
//! measured against keyheat's own model of the same run.
//!
//! - [`workload`]: the requests, gathered from the simulator's observer and rendered by
//!   `interop::trace` (no second request generator), with the modelled run's report.
//! - [`credentials`]: the access keys and region, from the environment and the shared files.
//! - [`client`]: one signed DynamoDB JSON 1.0 call over HTTP(S).
//! - [`tables`]: creating, waiting for, counting and deleting the tables it makes.
//! - [`pace`]: when each request is due on the wall clock, and the retry waits.
//! - [`send`]: the replay loop: send each request once, retry throttles, measure the answers.
//! - [`report`]: measured vs modelled, as text, JSON or Markdown into `impl Write`.
//!
//! This is the one part of keyheat that reads the wall clock and talks to a network; the engine
//! never imports it.

pub mod client;
pub mod credentials;
pub mod pace;
pub mod report;
pub mod send;
pub mod tables;
pub mod workload;

/// What can go wrong talking to an endpoint.
#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    #[error(transparent)]
    Client(#[from] client::ClientError),
    #[error(transparent)]
    Credentials(#[from] credentials::CredentialsError),
    #[error("{op} on {table} failed: {kind}: {message}")]
    Service { op: &'static str, table: String, kind: String, message: String },
    #[error("table {table} did not become ACTIVE within {seconds} s (last status: {status})")]
    NotActive { table: String, seconds: u64, status: String },
    #[error(transparent)]
    Workload(#[from] crate::interop::trace::TraceError),
    #[error("stopped (Ctrl-C)")]
    Interrupted,
}

//! keyheat: a workbench for NoSQL key design.
//!
//! - [`analyze`]: a real table's export or scan output, summed per partition key: sizes, skew,
//!   key shapes, and a starter scenario fitted to them.
//! - [`engine`]: the pure core: values, expressions, the store and its capacity math.
//! - [`interop`]: other tools' formats: NoSQL Workbench models in and out, CloudFormation and
//!   CQL out.
//! - [`ops`]: `keyheat ops`, DynamoDB requests as JSON Lines answered by the store.
//! - [`scenario`]: the scenario file format (RON) and the bundled scenarios, loaded into the
//!   engine's model with errors that carry file:line:col.
//! - [`quiz`]: the question bank (`assets/quiz.ron`) and `keyheat quiz`.
//! - [`report`]: text and JSON reports written into `impl Write`.
//! - [`cli`]: the command line, turning commands into engine calls and reports.
//! - `endpoint` (feature `endpoint`, off by default): `keyheat replay --endpoint`, the workload
//!   sent to a real DynamoDB-compatible service and measured against the model.
//! - `tui` (feature `tui`, on by default): the terminal workbench.

pub mod analyze;
pub mod cli;
#[cfg(feature = "endpoint")]
pub mod endpoint;
pub mod engine;
pub mod interop;
pub mod ops;
pub mod quiz;
pub mod report;
pub mod scenario;
#[cfg(feature = "tui")]
pub mod tui;

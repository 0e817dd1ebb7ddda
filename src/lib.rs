//! keyheat: a workbench for NoSQL key design.
//!
//! - [`engine`]: the pure core: values, expressions, the store and its capacity math.
//! - [`ops`]: `keyheat ops`, DynamoDB requests as JSON Lines answered by the store.
//! - [`cli`]: the command line, turning commands into engine calls and reports.

pub mod cli;
pub mod engine;
pub mod ops;

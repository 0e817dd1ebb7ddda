//! keyheat: a workbench for NoSQL key design.
//!
//! - [`engine`]: the pure core: values, expressions, the store and its capacity math.
//! - [`cli`]: the command line, turning commands into engine calls and reports.

pub mod cli;
pub mod engine;
pub mod scenario;

//! The engine: DynamoDB's data model, expressions, an in-process store with its capacity math,
//! key templates, the scenario model and its planner, workload distributions and metrics.
//!
//! The engine is pure. It never touches a terminal, never reads the wall clock (time is
//! `time::SimTime`, moved by its caller) and keeps no global state; all randomness comes from a
//! seed its caller provides. It builds and is tested with the `tui` feature off.

pub mod cost;
pub mod expr;
pub mod goals;
pub mod hash;
pub mod judge;
pub mod metrics;
pub mod model;
pub mod number;
pub mod planner;
pub mod profile;
pub mod retry;
pub mod sim;
pub mod store;
pub mod template;
#[cfg(test)]
pub mod testing;
pub mod time;
pub mod value;
pub mod vocabulary;
pub mod workload;

//! The planner's verdicts in words: how each pattern is served or why it is not, what a write
//! writes, why another place does not serve a read. The planner hands over values
//! (`engine::planner::verdict`); this module owns their `Display`, which `check`'s text and
//! Markdown print and the warnings that quote a plan show, and the `served`/`reason` (or
//! `serves`/`reason`) pairs `check`'s JSON writes. Nothing here decides anything: each figure
//! is the plan's, rounded the way the rest of the report rounds (`planner::numbers`).
//!
//! Reads are worded in `read.rs`, writes in `write.rs`, the places a read did not choose in
//! `considered.rs`.

mod considered;
mod keys;
mod read;
#[cfg(test)]
mod tests;
mod write;

use std::fmt::{self, Display, Formatter};

use serde::Serialize;
use serde::ser::SerializeStruct as _;

use crate::engine::planner::verdict::{Considered, Verdict};

impl Display for Verdict {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Pending => Ok(()),
            Verdict::Read(read) => read.fmt(f),
            Verdict::Write(write) => write.fmt(f),
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        flag_and_reason(serializer, ("Verdict", "served"), self.served(), self)
    }
}

impl Serialize for Considered {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        flag_and_reason(serializer, ("Considered", "serves"), self.serves(), self)
    }
}

/// A verdict as `check`'s JSON has it: whether it serves (under `flag`), then its words.
fn flag_and_reason<S: serde::Serializer>(
    serializer: S,
    (name, flag): (&'static str, &'static str),
    serves: bool,
    words: &impl Display,
) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_struct(name, 2)?;
    out.serialize_field(flag, &serves)?;
    out.serialize_field("reason", &words.to_string())?;
    out.end()
}

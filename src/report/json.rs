//! JSON reports: pretty-printed, one document per command, ending with a newline.

use std::io::{self, Write};

use serde::Serialize;

use super::ListEntry;

#[derive(Serialize)]
pub struct List<'a> {
    pub scenarios: &'a [ListEntry],
}

pub fn write(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

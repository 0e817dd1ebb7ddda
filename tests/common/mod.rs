//! What the CLI integration tests share: running the built `keyheat` binary and reading what it
//! printed. (A test-support module is the one place a `mod.rs` belongs: a `tests/common.rs`
//! would be a test binary of its own.)

// Each test binary uses some of these, not all.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the binary with `args` and waits for it.
pub fn keyheat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keyheat")).args(args).output().expect("the keyheat binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

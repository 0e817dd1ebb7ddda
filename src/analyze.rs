//! `keyheat analyze`: a real table's data — a DynamoDB export to S3 in DynamoDB JSON, loose files
//! of `{"Item": …}` lines, or the output of `aws dynamodb scan` — read as a stream and summed per
//! partition key: sizes, the largest partitions and items, an item-size histogram, the key shapes
//! and how skewed each is, and a starter scenario fitted to them.
//!
//! - `read`: finding the files and streaming their items, gzip or not, with file:line:col on
//!   every error. Values are read by the store's own `engine::value::item_from_json`.
//! - `keys`: which attributes are the partition and sort key, given or inferred from a sample.
//! - `shape`: the rule that turns a key value into its shape (`CUSTOMER#…`).
//! - `tally`: the per-partition sums and everything computed from them ([`Analysis`]).
//! - `fit`: the item-size histogram, the top shares and the fitted Zipf exponent.
//! - `starter`: the fitted starter scenario (RON text).
//!
//! Memory grows with the number of distinct partition keys, never with the number of items: an
//! item is sized (by `engine::value::item_size`, the store's rule) and dropped. Nothing here
//! writes to a terminal or a file; `cli` does, and `report` chooses the words.

mod fit;
mod keys;
mod read;
mod shape;
mod starter;
mod tally;

use std::path::Path;

pub use fit::{Bucket, Skew, zipf_exponent};
pub use keys::{How, KeyChoice, KeySchema};
pub use read::{Layout, SourceInfo};
pub use shape::Shape;
pub use starter::starter_scenario;
pub use tally::{Analysis, Finding, ItemRow, PartitionRow, ShapeRow, Totals};

/// Rows each "largest" list keeps.
pub const TOP: usize = 10;

/// What the user said about the table's keys; `None` means infer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    pub partition_key: Option<String>,
    pub sort_key: Option<String>,
}

/// Why a table's data could not be analyzed. Every message names the file, and the line (and
/// column, where serde_json knows it) of the input at fault.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error(
        "{path}: no .json or .json.gz files here (expected a DynamoDB export — manifest-summary.json and data/*.json.gz — or files of {{\"Item\": …}} lines, or the output of aws dynamodb scan)"
    )]
    NoFiles { path: String },
    #[error("{file}: {message}")]
    Manifest { file: String, message: String },
    #[error("{file}: the gzip stream is corrupt or cut short ({error}); was the file downloaded whole?")]
    Gzip { file: String, error: std::io::Error },
    #[error("{file}:{line}:{column}: {message}")]
    Json { file: String, line: u64, column: u64, message: String },
    #[error("{file}:{line}: {message}")]
    Item { file: String, line: u64, message: String },
    #[error("{path}: no items found")]
    NoItems { path: String },
    #[error("{0}")]
    Keys(#[from] keys::KeyError),
}

/// Reads every item under `path` and sums it up. `progress` gets the fraction of the input's
/// bytes read so far, now and then.
pub fn analyze(
    path: &Path,
    options: &Options,
    progress: &mut dyn FnMut(f64),
) -> Result<Analysis, AnalyzeError> {
    let mut source = read::Source::discover(path)?;
    let total = source.info.bytes.max(1) as f64;
    let mut sampler = keys::Sampler::new(options);
    let mut tally: Option<tally::Tally> = None;
    let mut seen = 0u64;
    source.items(&mut |item, place, read_bytes| {
        seen += 1;
        if seen.is_multiple_of(4096) {
            progress(read_bytes as f64 / total);
        }
        if let Some(t) = tally.as_mut() {
            return t.add(item, place);
        }
        if let Some(ready) = sampler.offer(item, place)? {
            tally = Some(start(ready)?);
        }
        Ok(())
    })?;
    progress(1.0);
    // Fewer items than the sample: the keys are chosen from all of them.
    let tally = if let Some(t) = tally {
        t
    } else {
        let Some(ready) = sampler.finish()? else {
            return Err(AnalyzeError::NoItems { path: path.display().to_string() });
        };
        start(ready)?
    };
    Ok(tally.finish(source.info, source.notes))
}

/// A tally of the sampled items, under the keys chosen from them.
fn start(ready: keys::Ready) -> Result<tally::Tally, AnalyzeError> {
    let mut tally = tally::Tally::new(ready.schema);
    for (item, place) in ready.sample {
        tally.add(item, &place)?;
    }
    Ok(tally)
}

#[cfg(test)]
mod tests;

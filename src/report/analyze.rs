//! The analysis of a table's data (`keyheat analyze`): text for an 80-column terminal, JSON (the
//! `Analysis` itself) and Markdown. Text and Markdown say the same things in the same order:
//! what was read and which keys, totals, skew, the largest partitions and items, the item-size
//! histogram, the key shapes, what the data says, notes. The sentences live here; the analysis
//! hands over figures and findings.

mod md;
mod text;

use std::io::{self, Write};

use super::{RunFormat, json};
use crate::analyze::{Analysis, Bucket, Finding, How, KeyChoice, ShapeRow, Skew};
use crate::engine::planner::numbers;

pub fn write(out: &mut impl Write, analysis: &Analysis, format: RunFormat) -> io::Result<()> {
    match format {
        RunFormat::Text => text::write(out, analysis),
        RunFormat::Json => json::write(out, analysis),
        RunFormat::Md => md::write(out, analysis),
    }
}

/// What the report is about: the table's name when the export gives it, else the path.
fn subject(a: &Analysis) -> String {
    match &a.source.table {
        Some(table) => format!("table {table} ({})", a.source.path),
        None => a.source.path.clone(),
    }
}

/// "a DynamoDB export, 4 files, 1.2 GB".
fn read_line(a: &Analysis) -> String {
    let what = match a.source.layout {
        crate::analyze::Layout::Export => "a DynamoDB export",
        crate::analyze::Layout::Files => "item files",
    };
    let files = if a.source.files == 1 { "1 file".to_owned() } else { format!("{} files", a.source.files) };
    format!("{what}, {files}, {} as stored", numbers::bytes(a.source.bytes as f64))
}

/// How a key attribute was chosen, in words.
fn how(choice: &KeyChoice, flag: &str) -> String {
    match choice.how {
        How::Given => "given".to_owned(),
        How::Named { sampled } => {
            format!(
                "inferred: a conventional key name, held by all of the first {} items",
                count(sampled as u64)
            )
        }
        How::MostDistinct { distinct, sampled } => format!(
            "inferred: of the attributes all of the first {} items hold, the one with the most distinct values ({}); name another with {flag} NAME",
            count(sampled as u64),
            count(distinct as u64)
        ),
    }
}

/// The key attributes and how each was chosen, one line each.
fn key_lines(a: &Analysis) -> Vec<String> {
    let partition = &a.keys.partition;
    let mut lines =
        vec![format!("partition key {} ({})", partition.attribute, how(partition, "--partition-key"))];
    lines.push(match &a.keys.sort {
        Some(sort) => format!("sort key {} ({})", sort.attribute, how(sort, "--sort-key")),
        None if partition.inferred() => {
            "sort key: none found by name (SK, sk, SortKey…); name it with --sort-key NAME if the table has one"
                .to_owned()
        }
        None => "sort key: none".to_owned(),
    });
    lines
}

fn count(n: u64) -> String {
    numbers::count(n as f64)
}

fn share(part: u64, whole: u64) -> String {
    if whole == 0 { "—".to_owned() } else { numbers::percent(part as f64 / whole as f64) }
}

/// The totals as (label, value).
fn totals_rows(a: &Analysis) -> Vec<(&'static str, String)> {
    let t = &a.totals;
    let mut rows = vec![
        ("items", count(t.items)),
        ("size", numbers::bytes(t.bytes as f64)),
        ("partition keys", count(t.partitions)),
        ("mean item", numbers::bytes(t.mean_item_bytes)),
        ("largest item", numbers::bytes(t.max_item_bytes as f64)),
        (
            "items over 1 KB",
            format!(
                "{} ({}): a write of one costs more than 1 WCU",
                count(t.items_over_1kb),
                share(t.items_over_1kb, t.items)
            ),
        ),
        (
            "items over 4 KB",
            format!(
                "{} ({}): a strongly consistent read of one costs more than 1 RCU",
                count(t.items_over_4kb),
                share(t.items_over_4kb, t.items)
            ),
        ),
        (
            "write every item once",
            format!("{} WCU ({} per item)", count(t.write_units), ratio(t.write_units, t.items)),
        ),
        (
            "read every item once",
            format!(
                "{} RCU strongly consistent ({} per item)",
                count(t.read_units),
                ratio(t.read_units, t.items)
            ),
        ),
    ];
    if a.keys.sort.is_some() && t.items_without_sort_key > 0 {
        rows.push(("items without sort key", count(t.items_without_sort_key)));
    }
    rows
}

fn ratio(a: u64, b: u64) -> String {
    if b == 0 { "—".to_owned() } else { numbers::factor(a as f64 / b as f64) }
}

/// The skew figures as (label, value).
fn skew_rows(skew: &Skew) -> Vec<(&'static str, String)> {
    vec![
        ("busiest partition", format!("{} of the items", numbers::percent(skew.top_partition_share))),
        ("busiest 1% of partitions", format!("{} of the items", numbers::percent(skew.top_1pct_share))),
        ("busiest 10% of partitions", format!("{} of the items", numbers::percent(skew.top_10pct_share))),
        ("Zipf exponent (fitted)", zipf(skew)),
    ]
}

fn zipf(skew: &Skew) -> String {
    skew.zipf_s.map_or_else(|| "— (one partition)".to_owned(), |s| format!("s ≈ {s:.2}"))
}

/// Under the skew figures: how the exponent was fitted.
const ZIPF_NOTE: &str = "The Zipf exponent is an estimate: a least-squares line through ln(items) against ln(rank) of the partitions ranked by items (ranks with at least 5 items, or all when fewer than 3 have that many). s = 0 is an even spread; s = 1 is Zipf's law, where the second busiest key holds half as much as the first, the third a third.";

/// Under the largest partitions.
const LIMIT_NOTE: &str = "% of 10 GB: of the item-collection limit, which applies to a partition key's items when the table has a local secondary index (the LSIs' entries count toward it too; these sizes are the table's items alone). Without an LSI a partition key's items may grow past 10 GB: DynamoDB spreads them over partitions by sort key.";

/// Under the histogram.
const HISTOGRAM_NOTE: &str = "A write costs 1 WCU per 1 KB of the item, a strongly consistent read 1 RCU per 4 KB (half for an eventually consistent one), each rounded up: an item over 1 KB costs more than 1 WCU to write, one over 4 KB more than 1 RCU to read. DynamoDB refuses items over 400 KB.";

/// "≤ 1 KB", "1–4 KB", "> 400 KB".
fn bucket_label(bucket: &Bucket) -> String {
    let size = |b: u64| numbers::bytes(b as f64);
    match bucket.up_to {
        Some(up) if bucket.above == 0 => format!("≤ {}", size(up)),
        Some(up) => {
            let (low, high) = (size(bucket.above), size(up));
            // "1–4 KB": the unit once when both ends share it.
            let low = match low.strip_suffix(" KB") {
                Some(number) if high.ends_with(" KB") => number.to_owned(),
                _ => low,
            };
            format!("{low}–{high}")
        }
        None => format!("> {}", size(bucket.above)),
    }
}

/// A shape's name: `CUSTOMER#…` or `CUSTOMER#… / ORDER#…`.
fn shape_name(row: &ShapeRow) -> String {
    match &row.sort_key {
        Some(sk) => format!("{} / {sk}", row.partition_key),
        None => row.partition_key.clone(),
    }
}

/// What the data says, a sentence per finding.
fn findings(a: &Analysis) -> Vec<String> {
    let mut out: Vec<String> = a
        .findings
        .iter()
        .map(|f| match f {
            Finding::HotPartition { key, share, partitions } => format!(
                "One partition key, {key}, holds {} of the items (of {} partition keys): a hot key for any access pattern that reads or writes it, as one partition serves at most 3,000 RCU and 1,000 WCU a second.",
                numbers::percent(*share),
                count(*partitions)
            ),
            Finding::LargePartition { key, bytes, limit_share } => format!(
                "{key} holds {}, {} of the 10 GB an item collection may reach when the table has a local secondary index: with one, writes to it fail at the limit.",
                numbers::bytes(*bytes as f64),
                numbers::percent(*limit_share)
            ),
            Finding::OversizedItems { count: n } => format!(
                "{} items are over DynamoDB's 400 KB item limit: a PutItem of any of them is refused.",
                count(*n)
            ),
            Finding::NearLimitItems { count: n } => format!(
                "{} items are over 300 KB, near the 400 KB limit: an update that grows one (a list append) will start to fail.",
                count(*n)
            ),
            Finding::CostlyWrites { share, mean_write_units } => format!(
                "{} of the items are over 1 KB: writing one costs {} WCU on average, not 1. Moving large attributes that rarely change into an item of their own makes the frequent writes cheaper.",
                numbers::percent(*share),
                numbers::factor(*mean_write_units)
            ),
            Finding::SteepSkew { shape, zipf_s, top_10pct_share } => format!(
                "{shape}: the busiest 10% of its partition keys hold {} of its items (Zipf s ≈ {zipf_s:.2}); traffic that follows the data will crowd onto the same keys.",
                numbers::percent(*top_10pct_share)
            ),
            Finding::EvenSpread { partitions, top_10pct_share } => format!(
                "The items spread evenly: the busiest 10% of the {} partition keys hold {} of them.",
                count(*partitions),
                numbers::percent(*top_10pct_share)
            ),
        })
        .collect();
    if out.is_empty() {
        out.push(
            "Nothing stands out: no partition key holds 10% of the items, none nears 10 GB, no item nears 400 KB."
                .to_owned(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_read_as_ranges_of_sizes() {
        let bucket = |above, up_to| Bucket { above, up_to, items: 0, bytes: 0 };
        // (bucket, label)
        let cases = [
            (bucket(0, Some(1024)), "≤ 1 KB"),
            (bucket(1024, Some(4096)), "1–4 KB"),
            (bucket(262_144, Some(409_600)), "256–400 KB"),
            (bucket(409_600, None), "> 400 KB"),
        ];
        for (b, label) in cases {
            assert_eq!(bucket_label(&b), label);
        }
        assert_eq!(zipf(&Skew::of(&[5])), "— (one partition)");
    }
}

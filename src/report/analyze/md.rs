//! The analysis as Markdown: the text report's sections as tables, for a README or an issue.

use std::io::{self, Write};

use super::{
    HISTOGRAM_NOTE, LIMIT_NOTE, ZIPF_NOTE, bucket_label, count, findings, key_lines, read_line, shape_name,
    share, skew_rows, subject, totals_rows,
};
use crate::analyze::{Analysis, PartitionRow, ShapeRow};
use crate::engine::planner::numbers;
use crate::report::markdown::{self, Align, escape};

pub(super) fn write(out: &mut impl Write, a: &Analysis) -> io::Result<()> {
    writeln!(out, "# keyheat analyze: {}", escape(&subject(a)))?;
    writeln!(out)?;
    writeln!(out, "{}", escape(&read_line(a)))?;
    writeln!(out)?;
    for line in key_lines(a) {
        writeln!(out, "- {}", escape(&line))?;
    }
    let figures = [("figure", Align::Left), ("value", Align::Left)];
    let pairs = |rows: Vec<(&str, String)>| -> Vec<Vec<String>> {
        rows.into_iter().map(|(label, value)| vec![label.to_owned(), value]).collect()
    };
    section(out, "Totals")?;
    markdown::table(out, &figures, &pairs(totals_rows(a)))?;
    section(out, "Skew")?;
    markdown::table(out, &figures, &pairs(skew_rows(&a.skew)))?;
    section(out, "Largest partitions by size")?;
    partitions(out, &a.largest_by_bytes)?;
    section(out, "Largest partitions by items")?;
    partitions(out, &a.largest_by_items)?;
    writeln!(out, "{LIMIT_NOTE}")?;
    section(out, "Largest items")?;
    let rows: Vec<Vec<String>> = a
        .largest_items
        .iter()
        .map(|r| {
            vec![
                r.partition_key.clone(),
                r.sort_key.clone().unwrap_or_default(),
                numbers::bytes(r.bytes as f64),
                r.at.clone(),
            ]
        })
        .collect();
    markdown::table(
        out,
        &[
            ("partition key", Align::Left),
            ("sort key", Align::Left),
            ("size", Align::Right),
            ("at", Align::Left),
        ],
        &rows,
    )?;
    writeln!(
        out,
        "{} items over the 400 KB limit; {} near it (over 300 KB).",
        count(a.totals.items_over_limit),
        count(a.totals.items_near_limit)
    )?;
    section(out, "Item sizes")?;
    let rows: Vec<Vec<String>> = a
        .histogram
        .iter()
        .map(|b| {
            vec![
                bucket_label(b),
                count(b.items),
                share(b.items, a.totals.items),
                numbers::bytes(b.bytes as f64),
            ]
        })
        .collect();
    markdown::table(
        out,
        &[("size", Align::Left), ("items", Align::Right), ("share", Align::Right), ("bytes", Align::Right)],
        &rows,
    )?;
    writeln!(out, "{HISTOGRAM_NOTE}")?;
    section(out, "Partition key shapes")?;
    shapes(out, &a.partition_shapes)?;
    section(out, "Key shapes (partition key / sort key): the entities")?;
    shapes(out, &a.shapes)?;
    writeln!(out, "{ZIPF_NOTE}")?;
    section(out, "What the data says")?;
    for finding in findings(a) {
        writeln!(out, "- {}", escape(&finding))?;
    }
    if !a.notes.is_empty() {
        section(out, "Notes")?;
        for note in &a.notes {
            writeln!(out, "- {}", escape(note))?;
        }
    }
    Ok(())
}

fn section(out: &mut impl Write, title: &str) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "## {title}")?;
    writeln!(out)
}

fn partitions(out: &mut impl Write, rows: &[PartitionRow]) -> io::Result<()> {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.key.clone(),
                numbers::bytes(r.bytes as f64),
                count(r.items),
                numbers::percent(r.item_share),
                numbers::percent(r.limit_share),
            ]
        })
        .collect();
    markdown::table(
        out,
        &[
            ("partition key", Align::Left),
            ("size", Align::Right),
            ("items", Align::Right),
            ("% of items", Align::Right),
            ("% of 10 GB", Align::Right),
        ],
        &rows,
    )
}

fn shapes(out: &mut impl Write, rows: &[ShapeRow]) -> io::Result<()> {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                shape_name(r),
                count(r.items),
                numbers::bytes(r.bytes as f64),
                count(r.partitions),
                numbers::bytes(r.mean_item_bytes),
                numbers::percent(r.skew.top_1pct_share),
                numbers::percent(r.skew.top_10pct_share),
                r.skew.zipf_s.map_or_else(|| "—".to_owned(), |s| format!("{s:.2}")),
            ]
        })
        .collect();
    markdown::table(
        out,
        &[
            ("shape", Align::Left),
            ("items", Align::Right),
            ("size", Align::Right),
            ("partition keys", Align::Right),
            ("mean item", Align::Right),
            ("busiest 1%", Align::Right),
            ("busiest 10%", Align::Right),
            ("Zipf s", Align::Right),
        ],
        &rows,
    )
}

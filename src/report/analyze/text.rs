//! The analysis as text for an 80-column terminal: labelled figures, tables with right-aligned
//! numbers, then the findings and notes as wrapped paragraphs.

use std::io::{self, Write};

use super::{
    HISTOGRAM_NOTE, LIMIT_NOTE, ZIPF_NOTE, bucket_label, count, findings, key_lines, read_line, shape_name,
    share, skew_rows, subject, totals_rows,
};
use crate::analyze::{Analysis, PartitionRow, ShapeRow};
use crate::engine::planner::numbers;
use crate::report::text::{WIDTH, paragraph, row};

/// Width of a figure's label.
const LABEL: usize = 26;
/// Width of a key in a table; longer keys are cut with `…`.
const KEY: usize = 30;

pub(super) fn write(out: &mut impl Write, a: &Analysis) -> io::Result<()> {
    paragraph(out, 0, &format!("keyheat analyze: {}", subject(a)))?;
    paragraph(out, 0, &read_line(a))?;
    for line in key_lines(a) {
        paragraph(out, 0, &line)?;
    }
    figures(out, "Totals", &totals_rows(a))?;
    figures(out, "Skew", &skew_rows(&a.skew))?;
    partitions(out, "Largest partitions by size", &a.largest_by_bytes)?;
    partitions(out, "Largest partitions by items", &a.largest_by_items)?;
    paragraph(out, 2, LIMIT_NOTE)?;
    items(out, a)?;
    histogram(out, a)?;
    shapes(out, "Partition key shapes", &a.partition_shapes)?;
    shapes(out, "Key shapes (partition key / sort key): the entities", &a.shapes)?;
    paragraph(out, 2, ZIPF_NOTE)?;
    writeln!(out)?;
    writeln!(out, "What the data says")?;
    for finding in findings(a) {
        bullet(out, &finding)?;
    }
    if !a.notes.is_empty() {
        writeln!(out)?;
        writeln!(out, "Notes")?;
        for note in &a.notes {
            bullet(out, note)?;
        }
    }
    Ok(())
}

fn figures(out: &mut impl Write, title: &str, rows: &[(&str, String)]) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{title}")?;
    for (label, value) in rows {
        row(out, &[("", 1), (label, LABEL), (value, WIDTH - LABEL - 4)])?;
    }
    Ok(())
}

fn bullet(out: &mut impl Write, text: &str) -> io::Result<()> {
    for (i, line) in crate::report::text::wrap(text, WIDTH - 4).into_iter().enumerate() {
        writeln!(out, "  {}{line}", if i == 0 { "- " } else { "  " })?;
    }
    Ok(())
}

/// `text` cut to `width` characters, the cut marked with `…`.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(width - 1).collect();
    short.push('…');
    short
}

/// `text` cut to its last `width` characters, the cut marked with `…` (a path's file name and line
/// matter more than its directories).
fn cut_left(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_owned();
    }
    let tail: String = text.chars().skip(n - width + 1).collect();
    format!("…{tail}")
}

fn partitions(out: &mut impl Write, title: &str, rows: &[PartitionRow]) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{title}")?;
    let w = [1, KEY, 10, 11, 10, 10];
    let line = |out: &mut _, cells: [String; 6]| {
        let cells: Vec<(&str, usize)> = cells.iter().map(String::as_str).zip(w).collect();
        row(out, &cells)
    };
    line(
        out,
        [
            String::new(),
            "partition key".to_owned(),
            format!("{:>10}", "size"),
            format!("{:>11}", "items"),
            format!("{:>10}", "% items"),
            format!("{:>10}", "% of 10 GB"),
        ],
    )?;
    for r in rows {
        line(
            out,
            [
                String::new(),
                cut(&r.key, KEY),
                format!("{:>10}", numbers::bytes(r.bytes as f64)),
                format!("{:>11}", count(r.items)),
                format!("{:>10}", numbers::percent(r.item_share)),
                format!("{:>10}", numbers::percent(r.limit_share)),
            ],
        )?;
    }
    Ok(())
}

fn items(out: &mut impl Write, a: &Analysis) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "Largest items")?;
    let w = [1, 38, 9, 28];
    let header = ["", "partition key / sort key", &format!("{:>9}", "size"), "at (file:line)"];
    row(out, &header.iter().copied().zip(w).collect::<Vec<_>>())?;
    for r in &a.largest_items {
        let key = match &r.sort_key {
            Some(sk) => format!("{} / {sk}", r.partition_key),
            None => r.partition_key.clone(),
        };
        let cells = [
            String::new(),
            cut(&key, w[1]),
            format!("{:>9}", numbers::bytes(r.bytes as f64)),
            cut_left(&r.at, w[3]),
        ];
        row(out, &cells.iter().map(String::as_str).zip(w).collect::<Vec<_>>())?;
    }
    let t = &a.totals;
    paragraph(
        out,
        2,
        &format!(
            "{} items over the 400 KB limit; {} near it (over 300 KB).",
            count(t.items_over_limit),
            count(t.items_near_limit)
        ),
    )
}

fn histogram(out: &mut impl Write, a: &Analysis) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "Item sizes")?;
    let w = [1, 14, 12, 9, 10];
    let header =
        ["", "size", &format!("{:>12}", "items"), &format!("{:>9}", "share"), &format!("{:>10}", "bytes")];
    row(out, &header.iter().copied().zip(w).collect::<Vec<_>>())?;
    for b in &a.histogram {
        let cells = [
            String::new(),
            bucket_label(b),
            format!("{:>12}", count(b.items)),
            format!("{:>9}", share(b.items, a.totals.items)),
            format!("{:>10}", numbers::bytes(b.bytes as f64)),
        ];
        row(out, &cells.iter().map(String::as_str).zip(w).collect::<Vec<_>>())?;
    }
    paragraph(out, 2, HISTOGRAM_NOTE)
}

fn shapes(out: &mut impl Write, title: &str, rows: &[ShapeRow]) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{title}")?;
    let w = [1, 21, 11, 7, 10, 7, 5, 6, 4];
    let header = [
        "",
        "shape",
        &format!("{:>11}", "items"),
        &format!("{:>7}", "size"),
        &format!("{:>10}", "keys"),
        &format!("{:>7}", "mean"),
        &format!("{:>5}", "top1%"),
        &format!("{:>6}", "top10%"),
        &format!("{:>4}", "s"),
    ];
    row(out, &header.iter().copied().zip(w).collect::<Vec<_>>())?;
    for r in rows {
        let cells = [
            String::new(),
            shape_name(r),
            format!("{:>11}", count(r.items)),
            format!("{:>7}", numbers::bytes(r.bytes as f64)),
            format!("{:>10}", count(r.partitions)),
            format!("{:>7}", numbers::bytes(r.mean_item_bytes)),
            format!("{:>5}", whole_percent(r.skew.top_1pct_share)),
            format!("{:>6}", whole_percent(r.skew.top_10pct_share)),
            format!("{:>4}", r.skew.zipf_s.map_or_else(|| "—".to_owned(), |s| format!("{s:.2}"))),
        ];
        row(out, &cells.iter().map(String::as_str).zip(w).collect::<Vec<_>>())?;
    }
    paragraph(
        out,
        2,
        "keys: distinct partition keys holding the shape; top1% / top10%: the share of the shape's items its busiest 1% / 10% of those keys hold; s: the fitted Zipf exponent.",
    )
}

/// `41%`: a share to the whole percent, for narrow columns.
fn whole_percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

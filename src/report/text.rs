//! Text reports for an 80-column terminal: tables with wrapped cells, then notes and warnings as
//! wrapped paragraphs. Widths count characters (every symbol used here is one column wide).

use std::io::{self, Write};

use super::ListEntry;
use crate::engine::model::Scenario;
use crate::engine::planner::numbers;
use crate::engine::planner::{Kind, PatternPlan, Plan};

pub(super) const WIDTH: usize = 80;

/// Splits `text` into lines of at most `width` characters at spaces (a longer word is cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let sep = usize::from(used > 0);
            if used + sep + word.len() <= width {
                if sep == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            let rest = word.split_off(width);
            lines.push(word.iter().collect());
            word = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Pads or keeps `text` to `width` characters.
pub(super) fn pad(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// Writes one table row whose cells wrap within their columns.
pub(super) fn row(out: &mut impl Write, cells: &[(&str, usize)]) -> io::Result<()> {
    // A cell that fits keeps its own spacing (right-aligned numbers); longer ones wrap.
    let wrapped: Vec<Vec<String>> = cells
        .iter()
        .map(|(text, width)| {
            text.split('\n')
                .flat_map(|line| {
                    if line.chars().count() <= *width { vec![line.to_owned()] } else { wrap(line, *width) }
                })
                .collect()
        })
        .collect();
    let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
    for i in 0..height {
        let mut line = String::new();
        for (j, (lines, (_, width))) in wrapped.iter().zip(cells).enumerate() {
            let cell = lines.get(i).map_or("", String::as_str);
            if j + 1 == cells.len() {
                line.push_str(cell);
            } else {
                line.push_str(&pad(cell, *width));
                line.push(' ');
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

pub(super) fn paragraph(out: &mut impl Write, indent: usize, text: &str) -> io::Result<()> {
    for line in wrap(text, WIDTH - indent) {
        writeln!(out, "{}{line}", " ".repeat(indent))?;
    }
    Ok(())
}

pub fn list(out: &mut impl Write, entries: &[ListEntry]) -> io::Result<()> {
    for (kind, heading) in [("scenario", "Scenarios"), ("practice", "Practice problems")] {
        let group: Vec<&ListEntry> = entries.iter().filter(|e| e.kind == kind).collect();
        if group.is_empty() {
            continue;
        }
        writeln!(out, "{heading}")?;
        for e in group {
            let detail = format!("{} ({}; variants: {})", e.title, e.engine, e.variants.join(", "));
            row(out, &[("", 1), (&e.name, 12), (&detail, WIDTH - 15)])?;
        }
        writeln!(out)?;
    }
    writeln!(out, "Run `keyheat check NAME` to see how each access pattern is served.")
}

/// "Query ×2" / "PutItem" / "unserved", then where on the next line.
fn served_by(p: &PatternPlan, plan: &Plan) -> String {
    let Some(op) = p.operation else { return "unserved".to_owned() };
    let fanout = if p.fanout > 1 { format!(" ×{}", p.fanout) } else { String::new() };
    let place = match &p.index {
        None => "table".to_owned(),
        Some(name) => {
            let kind = plan
                .layouts
                .iter()
                .find(|l| l.index.as_deref() == Some(name))
                .map_or("index", |l| l.index_kind);
            format!("{kind} {name}")
        }
    };
    format!("{}{fanout}\n{place}", op.name())
}

fn condition(p: &PatternPlan) -> String {
    let mut parts = Vec::new();
    if let Some(k) = &p.key_condition {
        parts.push(k.clone());
    }
    if let Some(f) = &p.filter {
        parts.push(format!("filter: {f}"));
    }
    if p.kind == Kind::Write
        && let Some(wa) = p.write_amplification
    {
        let noun = if (wa - 1.0).abs() < f64::EPSILON { "item" } else { "items" };
        parts.push(format!("{} {noun} written", numbers::factor(wa)));
    }
    if parts.is_empty() { "—".to_owned() } else { parts.join("; ") }
}

pub fn check(out: &mut impl Write, scenario: &Scenario, plan: &Plan) -> io::Result<()> {
    let engine = scenario.engine;
    paragraph(
        out,
        0,
        &format!("{} — {} (variant {}, {engine})", scenario.name, scenario.title, plan.variant),
    )?;
    if let Some(v) = scenario.variant(&plan.variant)
        && !v.description.is_empty()
    {
        paragraph(out, 2, &v.description)?;
    }
    writeln!(out)?;
    writeln!(out, "Keys")?;
    for layout in &plan.layouts {
        let place = layout
            .index
            .as_deref()
            .map_or_else(|| layout.entity.clone(), |i| format!("{} in {i}", layout.entity));
        row(out, &[("", 1), (&place, 16), (&layout.key, WIDTH - 19)])?;
    }
    writeln!(out)?;
    writeln!(out, "Access patterns")?;
    let widths = [1, 16, 8, 17, WIDTH - 1 - 16 - 8 - 17 - 4];
    row(
        out,
        &[
            ("", widths[0]),
            ("pattern", widths[1]),
            ("mean/s", widths[2]),
            ("served by", widths[3]),
            ("key condition / fan-out", widths[4]),
        ],
    )?;
    for p in &plan.patterns {
        let mark = if p.served { "✔" } else { "✘" };
        let rate = format!("{:>8}", numbers::rate(p.mean_rate));
        let mut cond = condition(p);
        let flagged: Vec<&str> =
            plan.warnings.iter().filter(|w| w.subject == p.name).map(|w| w.code.id()).collect();
        if !flagged.is_empty() {
            cond = format!("{cond} ⚠ {}", flagged.join(", "));
        }
        row(
            out,
            &[
                (mark, widths[0]),
                (&p.name, widths[1]),
                (&rate, widths[2]),
                (&served_by(p, plan), widths[3]),
                (&cond, widths[4]),
            ],
        )?;
    }
    writeln!(out)?;
    writeln!(out, "How each pattern is served")?;
    for p in &plan.patterns {
        paragraph(out, 2, &format!("{}: {}", p.name, p.reason))?;
    }
    writeln!(out)?;
    if plan.warnings.is_empty() {
        writeln!(out, "No warnings.")?;
        return Ok(());
    }
    writeln!(out, "Warnings ({})", plan.warnings.len())?;
    for w in &plan.warnings {
        paragraph(out, 2, &format!("⚠ {} — {}", w.code.id(), w.subject))?;
        paragraph(out, 4, &w.message)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        let cases: [(&str, usize, &[&str]); 4] = [
            ("PK = :pk AND begins_with(SK, :prefix)", 20, &["PK = :pk AND", "begins_with(SK,", ":prefix)"]),
            ("", 10, &[""]),
            ("abcdefghij", 4, &["abcd", "efgh", "ij"]),
            ("a b", 3, &["a b"]),
        ];
        for (text, width, lines) in cases {
            assert_eq!(wrap(text, width), lines, "{text:?} at {width}");
        }
    }
}

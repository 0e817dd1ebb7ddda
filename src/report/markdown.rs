//! Markdown building blocks for the run and compare reports: GitHub-flavoured tables whose cells
//! cannot break the table, for pasting into a README or an issue.

use std::io::{self, Write};

/// A cell's text with the characters that would end the cell or the row made harmless.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Writes a table; `columns` gives each header and its alignment, every row one cell per column.
pub fn table(out: &mut impl Write, columns: &[(&str, Align)], rows: &[Vec<String>]) -> io::Result<()> {
    let header: Vec<String> = columns.iter().map(|(h, _)| escape(h)).collect();
    writeln!(out, "| {} |", header.join(" | "))?;
    let rule: Vec<&str> = columns
        .iter()
        .map(|(_, align)| match align {
            Align::Left => "---",
            Align::Right => "---:",
        })
        .collect();
    writeln!(out, "|{}|", rule.join("|"))?;
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        writeln!(out, "| {} |", cells.join(" | "))?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_cells_and_aligns_columns() {
        assert_eq!(escape("a|b\nc\\d"), "a\\|b c\\\\d");
        let mut out = Vec::new();
        table(
            &mut out,
            &[("key", Align::Left), ("size", Align::Right)],
            &[vec!["PK|1".to_owned(), "1 KB".to_owned()]],
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "| key | size |\n|---|---:|\n| PK\\|1 | 1 KB |\n\n");
    }
}

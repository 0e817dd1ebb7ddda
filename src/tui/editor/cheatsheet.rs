//! The key-template cheat sheet the editor shows on a key: every slot form with its syntax, an
//! example and what it means, rendered from the template parser's own table
//! ([`SLOT_FORMS`]), so it lists exactly what the parser accepts. Also the line naming the
//! attributes a slot can read where the cursor is.

use ratatui::text::{Line, Span};

use crate::engine::template::SLOT_FORMS;
use crate::tui::theme::Theme;

/// The sheet for a pane `width` columns wide: a heading, then per slot form its syntax, an
/// example and what it means — on one line when they fit, else the meaning on a line of its own.
pub fn lines(theme: Theme, width: u16) -> Vec<Line<'static>> {
    let syntax_width = SLOT_FORMS.iter().map(|f| f.syntax.chars().count()).max().unwrap_or(0);
    let example_width = SLOT_FORMS.iter().map(|f| f.example.chars().count()).max().unwrap_or(0);
    let longest = SLOT_FORMS.iter().map(|f| f.description.chars().count()).max().unwrap_or(0);
    let one_line = usize::from(width) >= syntax_width + example_width + longest + 4;
    let mut out = vec![Line::from(vec![
        Span::styled("key templates", theme.header()),
        Span::styled(" — text and {…} slots; {{ }} are literal braces", theme.dim()),
    ])];
    for form in SLOT_FORMS {
        let mut line = vec![
            Span::styled(format!("{:<syntax_width$}  ", form.syntax), theme.key()),
            Span::raw(format!("{:<example_width$}  ", form.example)),
        ];
        if one_line {
            line.push(Span::styled(form.description, theme.dim()));
            out.push(Line::from(line));
        } else {
            out.push(Line::from(line));
            out.push(Line::styled(format!("{:syntax_width$}  {}", "", form.description), theme.dim()));
        }
    }
    out
}

/// `Reading: sensor_id, reading_time, …` — what a slot can read where the cursor is (every
/// entity's attributes when the cursor is in no entity's keys).
pub fn attributes_line(entity: Option<&str>, attributes: &[&str], theme: Theme) -> Line<'static> {
    let who = entity.map_or_else(|| "attributes".to_owned(), |e| format!("{e} attributes"));
    Line::from(vec![Span::styled(format!("{who}: "), theme.dim()), Span::raw(attributes.join(", "))])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sheet is the parser's table: one line per form, in its order, with its syntax and
    /// example, and nothing else that looks like a slot form.
    #[test]
    fn the_sheet_is_generated_from_the_parsers_table() {
        for width in [200, 60] {
            let text: Vec<String> = lines(Theme::MONO, width).iter().map(ToString::to_string).collect();
            let per_form = if width == 200 { 1 } else { 2 };
            assert_eq!(text.len(), SLOT_FORMS.len() * per_form + 1, "{text:#?}");
            for (rows, form) in text[1..].chunks(per_form).zip(SLOT_FORMS) {
                let all = rows.join("\n");
                assert!(rows[0].starts_with(form.syntax), "{all}");
                assert!(rows[0].contains(form.example) && all.contains(form.description), "{all}");
                // What the sheet shows parses with the parser it documents.
                let syntax = &rows[0][..rows[0].find("  ").unwrap()];
                let filled = syntax.replace("attr", "a").replace('N', "3");
                assert!(crate::engine::template::Template::parse(&filled).is_ok(), "{filled}");
                assert!(crate::engine::template::Template::parse(form.example).is_ok(), "{}", form.example);
            }
        }
    }

    #[test]
    fn names_the_attributes_of_the_entity_under_the_cursor() {
        let t = Theme::MONO;
        let line = attributes_line(Some("Reading"), &["sensor_id", "reading_time"], t).to_string();
        assert_eq!(line, "Reading attributes: sensor_id, reading_time");
        assert_eq!(attributes_line(None, &["a"], t).to_string(), "attributes: a");
    }
}

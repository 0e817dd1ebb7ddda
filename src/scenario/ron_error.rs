//! RON syntax errors in the format's words. ron names its parser's state ("Expected comma",
//! "Integer is out of bounds"); these messages say what the file should hold at that spot, and
//! move the position to where the fix goes when the mistake is earlier than where ron noticed
//! it: a string left open on an earlier line, the struct a field is missing from, the text after
//! the scenario.

use std::fmt::Write as _;

use super::source_map::{Mark, Position, marks};

/// Where to point and what to say for ron's error `code` at `at`.
pub fn explain(source: &str, code: &ron::Error, at: Position) -> (Position, String) {
    let tokens = marks(source);
    if let Some(string) = runaway_string(&tokens, at) {
        return (
            string,
            format!(
                "this string is not closed on line {}: it runs on to line {}, where the file stops making sense — a \
                 closing `\"` is probably missing",
                string.line, at.line
            ),
        );
    }
    match code {
        ron::Error::Eof => match unclosed(&tokens, Position { line: usize::MAX, col: usize::MAX }) {
            Some((open, c)) => (
                open,
                format!(
                    "the file ends before this `{c}` is closed: expected `{}` (and the rest of the value)",
                    closing(c)
                ),
            ),
            None => (at, "the file ends early: expected the rest of the value".to_owned()),
        },
        ron::Error::TrailingCharacters => {
            let next = tokens.iter().map(|(start, _, _)| *start).find(|start| *start >= at).unwrap_or(at);
            (next, "expected the end of the file after the scenario's closing `)`; remove this".to_owned())
        }
        ron::Error::MissingStructField { field, outer } => {
            let open = unclosed(&tokens, at).map_or(at, |(open, _)| open);
            let outer = outer.as_deref().unwrap_or("this value");
            (open, format!("missing field `{field}`: the {outer} that starts here needs `{field}: …`"))
        }
        // ron may stop before the spaces that precede the offending value.
        other => at_value(source, &tokens, other, skip_space(source, at)),
    }
}

/// An error about the value at `at`: what the field takes, and what was found instead.
fn at_value(
    source: &str,
    tokens: &[(Position, Position, Mark)],
    code: &ron::Error,
    at: Position,
) -> (Position, String) {
    let found = literal_at(source, at);
    let field = field_before(source, at);
    let name = |what: &str| field.as_ref().map_or_else(|| what.to_owned(), |f| format!("`{f}`"));
    match code {
        ron::Error::ExpectedComma if found.starts_with(['.', 'e', 'E']) && digit_before(source, at) => {
            let number = number_around(source, at);
            (
                Position { col: at.col.saturating_sub(number.1), ..at },
                format!("{} takes a whole number; found {}", name("this field"), number.0),
            )
        }
        ron::Error::ExpectedComma => (
            at,
            format!(
                "expected `,` before {}: the fields and items of a value are separated by commas (or a closing \
                 bracket is missing)",
                describe(&found)
            ),
        ),
        ron::Error::ExpectedIdentifier | ron::Error::ExpectedStructLikeEnd => {
            let mut message =
                format!("expected a field name (`name: value`) or `)`, found {}", describe(&found));
            if found.starts_with(['(', '[', '{'])
                && let Some((open, c)) = unclosed(tokens, at)
                && open.line < at.line
            {
                let _ = write!(
                    message,
                    "; the `{c}` at {}:{} is probably missing its `{}`",
                    open.line,
                    open.col,
                    closing(c)
                );
            }
            (at, message)
        }
        ron::Error::IntegerOutOfBounds => {
            let (number, back) = number_around(source, at);
            let range = field.as_deref().map_or("0 to what the field holds", bounds);
            (
                Position { col: at.col.saturating_sub(back), ..at },
                format!("{} takes a whole number from {range}; found {number}", name("this field")),
            )
        }
        ron::Error::ExpectedInteger => {
            (at, format!("{} takes a whole number; found {}", name("this field"), describe(&found)))
        }
        ron::Error::ExpectedFloat => {
            (at, format!("{} takes a number; found {}", name("this field"), describe(&found)))
        }
        ron::Error::ExpectedString | ron::Error::ExpectedStringEnd => (
            at,
            format!("{} takes a string in double quotes; found {}", name("this field"), describe(&found)),
        ),
        ron::Error::ExpectedArray => (
            at,
            format!(
                "{} takes a list in brackets, like [\"a\", \"b\"]; found {}",
                name("this field"),
                describe(&found)
            ),
        ),
        ron::Error::ExpectedMap => (
            at,
            format!(
                "{} takes a map in braces, like {{\"key\": value}}; found {}",
                name("this field"),
                describe(&found)
            ),
        ),
        ron::Error::ExpectedNamedStructLike(outer)
            if tokens.first().is_none_or(|(start, _, _)| *start >= at) =>
        {
            (
                at,
                format!(
                    "expected a {outer}: `(name: \"…\", title: \"…\", entities: […], …)` (see scenarios/README.md); found {}",
                    describe(&found)
                ),
            )
        }
        ron::Error::ExpectedNamedStructLike(outer) => (
            at,
            format!(
                "{} takes a {outer} in parentheses, `(…)`; found {}",
                name("this field"),
                describe(&found)
            ),
        ),
        ron::Error::InvalidEscape(what) => (
            at,
            format!(
                "bad escape in this string ({}): RON writes a character by its code as \\u{{23}}, and a key \
                 template's `{{` needs no escape",
                what.to_lowercase()
            ),
        ),
        other => (at, other.to_string()),
    }
}

fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// The innermost bracket opened before `at` and not closed before it.
fn unclosed(tokens: &[(Position, Position, Mark)], at: Position) -> Option<(Position, char)> {
    let mut stack: Vec<(Position, char)> = Vec::new();
    for (start, _, mark) in tokens.iter().take_while(|(start, _, _)| *start < at) {
        match mark {
            Mark::Open(c) => stack.push((*start, *c)),
            Mark::Close(_) => {
                stack.pop();
            }
            Mark::Str | Mark::Other => {}
        }
    }
    stack.pop()
}

/// A string that starts on an earlier line than `at` and ends on `at`'s line, just before it:
/// ron read the rest of the file as the string's text up to the next `"`.
fn runaway_string(tokens: &[(Position, Position, Mark)], at: Position) -> Option<Position> {
    tokens
        .iter()
        .filter(|(start, end, mark)| {
            *mark == Mark::Str && start.line < at.line && end.line == at.line && *end <= at
        })
        .map(|(start, _, _)| *start)
        .next_back()
}

/// Byte offset of a 1-based line and column (in characters).
fn offset_of(source: &str, at: Position) -> usize {
    let line_start: usize = source.split_inclusive('\n').take(at.line.saturating_sub(1)).map(str::len).sum();
    let line = &source[line_start.min(source.len())..];
    line_start + line.char_indices().nth(at.col.saturating_sub(1)).map_or(line.len(), |(i, _)| i)
}

/// The first position at or after `at` that is not white space.
fn skip_space(source: &str, at: Position) -> Position {
    let mut position = at;
    for c in source[offset_of(source, at).min(source.len())..].chars() {
        match c {
            '\n' => position = Position { line: position.line + 1, col: 1 },
            c if c.is_whitespace() => position.col += 1,
            _ => break,
        }
    }
    position
}

/// The text at `at` up to the next space or punctuation, for "found …".
fn literal_at(source: &str, at: Position) -> String {
    let rest = &source[offset_of(source, at).min(source.len())..];
    let mut chars = rest.chars();
    match chars.next() {
        None => String::new(),
        Some(c) if "()[]{},:;".contains(c) => c.to_string(),
        Some(c) => std::iter::once(c)
            .chain(chars.take_while(|c| !c.is_whitespace() && !"()[]{},:;".contains(*c)))
            .take(24)
            .collect(),
    }
}

fn describe(found: &str) -> String {
    if found.is_empty() { "the end of the file".to_owned() } else { format!("`{found}`") }
}

fn digit_before(source: &str, at: Position) -> bool {
    source[..offset_of(source, at).min(source.len())].chars().next_back().is_some_and(|c| c.is_ascii_digit())
}

/// The number literal around `at`, and how many characters of it come before `at`.
fn number_around(source: &str, at: Position) -> (String, usize) {
    let offset = offset_of(source, at).min(source.len());
    let numeric = |c: &char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+');
    let before: String =
        source[..offset].chars().rev().take_while(numeric).collect::<Vec<_>>().into_iter().rev().collect();
    let after: String = source[offset..].chars().take_while(numeric).collect();
    let back = before.chars().count();
    (format!("{before}{after}"), back)
}

/// The field whose value is at `at`: `count` in `count: 500.5`, `Payload` in `Payload(-1)`.
fn field_before(source: &str, at: Position) -> Option<String> {
    let offset = offset_of(source, at).min(source.len());
    let head = source[..offset]
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+'));
    let head = head.trim_end();
    let head = head.strip_suffix(':').or_else(|| head.strip_suffix('('))?.trim_end();
    // A map key is quoted: `"author": 5`.
    let head = head.strip_suffix('"').unwrap_or(head);
    let name: String = head.chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    let name: String = name.chars().rev().collect();
    (!name.is_empty()).then_some(name)
}

/// The whole numbers a field takes, by its name in the format.
fn bounds(field: &str) -> &'static str {
    match field {
        "count" => "0 to 1000000000000 (members of the population)",
        "seed" | "Fixed" | "MaxPartitionItems" => "0 to 18446744073709551615",
        "limit" | "read" | "write" | "Payload" | "MaxFanout" => "0 to 4294967295",
        _ => "0 up to what the field holds",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_field_and_the_number() {
        let source = "(\n  count: 500.5,\n  x: Payload(-1),\n)";
        assert_eq!(field_before(source, Position { line: 2, col: 13 }).as_deref(), Some("count"));
        assert_eq!(number_around(source, Position { line: 2, col: 13 }), ("500.5".to_owned(), 3));
        assert_eq!(field_before(source, Position { line: 3, col: 15 }).as_deref(), Some("Payload"));
        assert_eq!(literal_at(source, Position { line: 3, col: 6 }), "Payload");
        assert_eq!(offset_of(source, Position { line: 9, col: 9 }), source.len());
    }
}

//! RON syntax errors in the format's words. ron names its parser's state ("Expected comma",
//! "Integer is out of bounds"); these messages say what the file should hold at that spot, and
//! move the position to where the fix goes when the mistake is earlier than where ron noticed
//! it: a string left open on an earlier line, the struct a field is missing from, the text after
//! the scenario. A file cut short (a download or a copy that stopped) makes ron complain about
//! whatever token it stopped in ("Expected colon", "Expected opening `(`"); that is said as what
//! it is: the file ends early, where, and which bracket is left open.

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
    if !matches!(code, ron::Error::Eof)
        && let Some(explained) = cut_short(source, &tokens, at)
    {
        return explained;
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

/// The position just after the last character of `source`.
fn end_of(source: &str) -> Position {
    let line = source.matches('\n').count() + 1;
    let col = source.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
    Position { line, col }
}

/// The file stops inside the scenario (brackets are still open at its end) and ron's complaint
/// is about its last token or about what follows it (white space, an unfinished comment): the
/// cause is the missing rest, not the token. Points at the end of the file.
fn cut_short(
    source: &str,
    tokens: &[(Position, Position, Mark)],
    at: Position,
) -> Option<(Position, String)> {
    let end = end_of(source);
    let Some(&(last, last_end, last_mark)) = tokens.last() else {
        return Some((
            end,
            "the file ends before the scenario starts (it holds only comments or white space): expected \
             `(name: \"…\", title: \"…\", entities: […], …)` (see scenarios/README.md)"
                .to_owned(),
        ));
    };
    if skip_space(source, at) < last {
        return None;
    }
    let open: Vec<(Position, char)> = open_at_end(tokens);
    let &(outer, c) = open.last()?;
    let text: String = source
        [offset_of(source, last).min(source.len())..offset_of(source, last_end).min(source.len())]
        .chars()
        .take(24)
        .collect();
    let unterminated = last_mark == Mark::Str && last_end == end && !text.ends_with(['"', '#']);
    let what = if unterminated {
        format!("inside the string that starts at {}:{}", last.line, last.col)
    } else {
        format!("after `{text}`")
    };
    let more = match open.len() - 1 {
        0 => String::new(),
        1 => " (and 1 bracket around it)".to_owned(),
        n => format!(" (and {n} brackets around it)"),
    };
    Some((
        end,
        format!(
            "the file ends early, here {what}: the `{c}` at {}:{} is never closed{more} — is the file \
             complete?",
            outer.line, outer.col
        ),
    ))
}

/// The brackets still open at the end of the file, outermost first.
fn open_at_end(tokens: &[(Position, Position, Mark)]) -> Vec<(Position, char)> {
    let mut stack: Vec<(Position, char)> = Vec::new();
    for (start, _, mark) in tokens {
        match mark {
            Mark::Open(c) => stack.push((*start, *c)),
            Mark::Close(_) => {
                stack.pop();
            }
            Mark::Str | Mark::Other => {}
        }
    }
    stack
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
        ron::Error::SuggestRawIdentifier(_) => (at, field_expected(&found, field.as_deref())),
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
            let (shape, found) = (shape(outer), describe(&found));
            (at, format!("expected a {outer}: `{shape}` (see scenarios/README.md); found {found}"))
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

/// How the value ron expected is written, for the values a user writes whole: a scenario file,
/// or one variant in the schema editor.
fn shape(outer: &str) -> &'static str {
    match outer {
        "Variant" => "(name: \"…\", keys: {\"Entity\": (pk: \"…\", sk: \"…\")}, …)",
        _ => "(name: \"…\", title: \"…\", entities: […], …)",
    }
}

/// ron reads a bare value where a field name belongs as a malformed identifier, and suggests
/// Rust's raw-identifier syntax (`r#0.7`), which no scenario needs: say what is missing instead.
fn field_expected(found: &str, outer: Option<&str>) -> String {
    format!(
        "expected a field name before {}: this value's fields are named, `{}(field: value)`",
        describe(found),
        outer.unwrap_or("Name")
    )
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

/// The field whose value is at `at`: `count` in `count: 500.5`, `Payload` in `Payload(-1)`,
/// `MaxFanout` in `MaxFanout("feed", -1)` (a later value of a variant's tuple).
fn field_before(source: &str, at: Position) -> Option<String> {
    let offset = offset_of(source, at).min(source.len());
    let head = source[..offset]
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+'));
    let mut head = head.trim_end();
    // After a comma inside a variant's parentheses: the variant's name is before the `(`.
    if head.ends_with(',')
        && let Some(open) = head.rfind('(')
        && !head[open..].contains([')', ':', '\n'])
    {
        head = &head[..=open];
    }
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
        // (source, column of the value, the field named)
        let cases = [
            (r#"check: MaxFanout("feed", -1)"#, 26, Some("MaxFanout")),
            (r#"check: MaxFanout("a,b", 99999999999)"#, 25, Some("MaxFanout")),
            ("x: [1, -1]", 8, None),
        ];
        for (line, col, field) in cases {
            assert_eq!(field_before(line, Position { line: 1, col }).as_deref(), field, "{line}");
        }
        assert_eq!(literal_at(source, Position { line: 3, col: 6 }), "Payload");
        assert_eq!(offset_of(source, Position { line: 9, col: 9 }), source.len());
    }

    /// ron's own message for `source`, and ours.
    fn messages(source: &str) -> (String, Position, String) {
        let e = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str::<crate::scenario::file::Scenario>(source)
            .expect_err("the text is broken");
        let at = Position { line: e.span.start.line, col: e.span.start.col };
        let (position, message) = explain(source, &e.code, at);
        (e.code.to_string(), position, message)
    }

    #[test]
    fn a_file_cut_short_says_so_and_where() {
        let head =
            "// a scenario cut short\n(\n  name: \"x\",\n  variants: [\n    (\n      name: \"v\",\n      ";
        // (what the file ends with, what ron says, what we say after "the file ends early, here ",
        // where the file ends)
        let cases = [
            ("capacity: Provisioned", "Expected opening `(`", "after `Provisioned`", (7, 28)),
            ("capacity", "Expected colon", "after `capacity`", (7, 15)),
            ("descr", "Unexpected field", "after `descr`", (7, 12)),
            ("description: \"Shards the", "", "inside the string that starts at 7:20", (7, 31)),
            ("description:\n      // a comment cut", "", "after `:`", (8, 23)),
        ];
        for (tail, ron_says, we_say, (line, col)) in cases {
            let source = format!("{head}{tail}");
            let (code, position, message) = messages(&source);
            assert!(code.contains(ron_says), "{tail:?}: ron says {code:?}");
            assert!(
                message.starts_with(&format!("the file ends early, here {we_say}: ")),
                "{tail:?}: {message}"
            );
            assert!(
                message.ends_with(
                    "the `(` at 5:5 is never closed (and 2 brackets around it) — is the file complete?"
                ),
                "{tail:?}: {message}"
            );
            assert_eq!(position, Position { line, col }, "{tail:?}: points at the end of the file");
            assert_eq!(position, end_of(&source));
        }
        // Only comments: no scenario at all.
        let (_, position, message) = messages("// nothing yet");
        assert!(message.starts_with("the file ends before the scenario starts"), "{message}");
        assert_eq!(position, Position { line: 1, col: 15 });
    }

    #[test]
    fn a_bare_value_where_a_field_belongs_asks_for_the_field_not_a_raw_identifier() {
        let source = "(\n  name: \"x\",\n  populations: [(name: \"p\", count: 5, ids: \"p{}\", popularity: Zipf(0.7))],\n)";
        let (ron_says, at, message) = messages(source);
        assert!(ron_says.contains("raw identifier"), "{ron_says}");
        assert!(message.starts_with("expected a field name before `0.7`"), "{message}");
        assert!(message.contains("`Zipf(field: value)`") && !message.contains("r#"), "{message}");
        assert_eq!(at.line, 3);
    }

    #[test]
    fn a_mistake_before_the_end_is_not_called_a_cut() {
        // Brackets are open at the end, but ron's complaint is about an earlier token.
        let (_, _, message) = messages("(\n  name: 5,\n  title: \"x\",\n  variants: [");
        assert!(!message.contains("ends early"), "{message}");
        assert!(message.contains("`name` takes a string"), "{message}");
    }
}

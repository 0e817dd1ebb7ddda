//! The template grammar, and its inverse (parts → canonical source).
//!
//! ```text
//! template := ( text | "{{" | "}}" | slot )+
//! slot     := "{" ws ( call | name [ ":" spec ] ) ws "}"
//! call     := "shard(" count ")" | "hash(" name "," count ")" | "bucket(" name "," duration ")"
//! spec     := "0" width              zero-padded number, width 1..=40
//!           | time format            any text holding a `%` directive
//! name     := [A-Za-z0-9_-]+         count := 1..=10000          duration := 10d, 6h, 15m…
//! ```
//! The shard and hash counts of one template multiply to at most [`MAX_SHARDS`] too.
//! Whitespace is allowed around a slot's content and around call arguments. Every error names
//! the byte offset in the source of what was wrong and says what was expected there.

use std::fmt::Write as _;

use super::{Part, TemplateError};
use crate::engine::planner::numbers;
use crate::engine::time::{SimDuration, TimeFormat};

/// Widest zero padding: DynamoDB numbers have at most 38 significant digits, and a sort key
/// needs no more than that to order every integer it can hold.
pub const MAX_PAD: u8 = 40;

/// Most keys one template may spread an item over: the product of its `shard(N)` and
/// `hash(name, N)` counts. A reader who does not know the shard asks every one of them, one
/// request each, and the replay simulates every request of every call, so the count sizes each
/// read's work. Write sharding spreads a hot key over tens of shards (AWS "Using write sharding
/// to distribute workloads evenly" shows 1 to 200); 10,000 leaves room for any such design while
/// a read of all of them stays a bounded piece of work.
pub const MAX_SHARDS: u32 = 10_000;

const SLOT_FORMS: &str =
    "an attribute name, {name:010}, {name:%Y-%m}, {shard(N)}, {hash(name, N)} or {bucket(name, 10d)}";

pub(super) fn parse(source: &str) -> Result<Vec<Part>, TemplateError> {
    if source.is_empty() {
        return Err(error(
            0,
            format!("a key template cannot be empty: expected text and slots like {SLOT_FORMS}"),
        ));
    }
    let bytes = source.as_bytes();
    let mut parts = Vec::new();
    let mut literal = String::new();
    // The product of the shard and hash counts so far.
    let mut spread = 1u32;
    let mut i = 0;
    while i < bytes.len() {
        // Braces are ASCII, so they never sit inside a multi-byte character and every index
        // this loop stops at is a character boundary.
        let run_end = source[i..].find(['{', '}']).map_or(source.len(), |n| i + n);
        literal.push_str(&source[i..run_end]);
        i = run_end;
        if i == bytes.len() {
            break;
        }
        match (bytes[i], bytes.get(i + 1)) {
            (b'{', Some(b'{')) => {
                literal.push('{');
                i += 2;
            }
            (b'}', Some(b'}')) => {
                literal.push('}');
                i += 2;
            }
            (b'}', _) => return Err(error(i, "unmatched `}`: write `}}` for a literal brace".into())),
            _ => {
                let close = match source[i + 1..].find(['{', '}']) {
                    Some(n) if bytes[i + 1 + n] == b'}' => i + 1 + n,
                    Some(n) => {
                        return Err(error(
                            i + 1 + n,
                            "`{` inside a slot: expected `}` to close the slot opened before it".into(),
                        ));
                    }
                    None => {
                        return Err(error(
                            i,
                            "unclosed `{`: expected `}` to end the slot (write `{{` for a literal brace)"
                                .into(),
                        ));
                    }
                };
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                let part = slot(source, i + 1, close)?;
                spread = spread.saturating_mul(part.fanout());
                if spread > MAX_SHARDS && part.fanout() > 1 {
                    return Err(error(
                        i,
                        format!(
                            "this slot spreads an item over {} keys in all, and a template may spread it over at \
                             most {}: a reader who does not know the shard asks every key, one request each",
                            numbers::count(f64::from(spread)),
                            numbers::count(f64::from(MAX_SHARDS))
                        ),
                    ));
                }
                parts.push(part);
                i = close + 1;
            }
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    Ok(parts)
}

fn error(offset: usize, message: String) -> TemplateError {
    TemplateError { offset, message }
}

/// A piece of the source with its byte offset, so errors point into the whole template.
#[derive(Clone, Copy)]
struct Span<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Span<'a> {
    fn trim(self) -> Span<'a> {
        let start = self.text.len() - self.text.trim_start().len();
        Span { text: self.text.trim(), at: self.at + start }
    }

    fn split_at(self, mid: usize) -> (Span<'a>, Span<'a>) {
        let (a, b) = self.text.split_at(mid);
        (Span { text: a, at: self.at }, Span { text: b, at: self.at + mid })
    }

    fn end(self) -> usize {
        self.at + self.text.len()
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The slot between the braces at `source[start..end]`.
fn slot(source: &str, start: usize, end: usize) -> Result<Part, TemplateError> {
    let content = Span { text: &source[start..end], at: start }.trim();
    if content.text.is_empty() {
        return Err(error(start - 1, format!("empty slot `{{}}`: expected {SLOT_FORMS}")));
    }
    let name_len = content.text.find(|c| !is_name_char(c)).unwrap_or(content.text.len());
    let (name, rest) = content.split_at(name_len);
    if name.text.is_empty() {
        return Err(error(content.at, format!("expected {SLOT_FORMS}")));
    }
    if let Some(args) = rest.text.strip_prefix('(') {
        let Some(args) = args.strip_suffix(')') else {
            return Err(error(content.end(), format!("expected `)` to close `{}(`", name.text)));
        };
        let args = Span { text: args, at: rest.at + 1 };
        return call(name, args);
    }
    if rest.text.is_empty() {
        return Ok(Part::Attr { name: name.text.to_owned(), pad: None });
    }
    let Some(spec) = rest.text.strip_prefix(':') else {
        let bad = rest.text.chars().next().unwrap_or(' ');
        return Err(error(
            rest.at,
            format!(
                "unexpected `{bad}` after `{}`: expected `}}`, `:` and a format, or `(` for a call (names use letters, digits, _ and -)",
                name.text
            ),
        ));
    };
    let spec = Span { text: spec, at: rest.at + 1 };
    if spec.text.contains('%') {
        let format = TimeFormat::parse(spec.text).map_err(|e| error(spec.at + e.offset, e.message))?;
        return Ok(Part::Time { name: name.text.to_owned(), format });
    }
    let pad = spec
        .text
        .strip_prefix('0')
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|w| w.parse::<u8>().ok())
        .filter(|w| (1..=MAX_PAD).contains(w));
    match pad {
        Some(width) => Ok(Part::Attr { name: name.text.to_owned(), pad: Some(width) }),
        None => Err(error(
            spec.at,
            format!(
                "expected a zero-pad width like `:010` (1 to {MAX_PAD} digits) or a time format like `:%Y-%m` after `{}:`",
                name.text
            ),
        )),
    }
}

fn call(function: Span<'_>, args: Span<'_>) -> Result<Part, TemplateError> {
    let mut list = Vec::with_capacity(2);
    let mut rest = args;
    while let Some(comma) = rest.text.find(',') {
        let (arg, tail) = rest.split_at(comma);
        list.push(arg.trim());
        rest = tail.split_at(1).1;
    }
    list.push(rest.trim());
    let arity = |expected: usize, usage: &str| -> Result<(), TemplateError> {
        if list.len() == expected && list.iter().all(|a| !a.text.is_empty()) {
            Ok(())
        } else {
            Err(error(function.at, format!("expected {usage}")))
        }
    };
    match function.text {
        "shard" => {
            arity(1, "shard(N): the number of write shards, like shard(8)")?;
            Ok(Part::Shard { count: count(list[0])? })
        }
        "hash" => {
            arity(2, "hash(name, N): an attribute and a shard count, like hash(device_id, 8)")?;
            Ok(Part::Hash { name: attribute(list[0])?, count: count(list[1])? })
        }
        "bucket" => {
            arity(2, "bucket(name, width): a time attribute and a window, like bucket(sent_at, 10d)")?;
            let width = SimDuration::parse(list[1].text).map_err(|e| error(list[1].at, e.to_string()))?;
            if width == SimDuration::ZERO {
                return Err(error(list[1].at, "a bucket width must be longer than zero".into()));
            }
            Ok(Part::Bucket { name: attribute(list[0])?, width })
        }
        other => Err(error(
            function.at,
            format!("unknown function `{other}`: expected shard(N), hash(name, N) or bucket(name, width)"),
        )),
    }
}

fn attribute(arg: Span<'_>) -> Result<String, TemplateError> {
    match arg.text.find(|c| !is_name_char(c)) {
        None => Ok(arg.text.to_owned()),
        Some(bad) => Err(error(
            arg.at + bad,
            format!("expected an attribute name (letters, digits, _ and -), found {:?}", arg.text),
        )),
    }
}

fn count(arg: Span<'_>) -> Result<u32, TemplateError> {
    let digits = !arg.text.is_empty() && arg.text.bytes().all(|b| b.is_ascii_digit());
    match arg.text.parse::<u32>() {
        Ok(n) if digits && (1..=MAX_SHARDS).contains(&n) => Ok(n),
        // Digits past the limit (however many): say what the limit is and why.
        _ if digits && arg.text.trim_start_matches('0').len() >= 5 => Err(error(
            arg.at,
            format!(
                "a shard count is at most {}: a reader who does not know the shard asks every one, one \
                 request each; found {}",
                numbers::count(f64::from(MAX_SHARDS)),
                arg.text
            ),
        )),
        _ => Err(error(
            arg.at,
            format!(
                "expected a count from 1 to {}, found {:?}",
                numbers::count(f64::from(MAX_SHARDS)),
                arg.text
            ),
        )),
    }
}

/// The source text that parses back to `parts` (literal braces doubled, one space after commas).
pub(super) fn render(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        // Writing into a String cannot fail.
        let _ = match part {
            Part::Literal(text) => {
                for c in text.chars() {
                    match c {
                        '{' => out.push_str("{{"),
                        '}' => out.push_str("}}"),
                        c => out.push(c),
                    }
                }
                Ok(())
            }
            Part::Attr { name, pad: None } => write!(out, "{{{name}}}"),
            Part::Attr { name, pad: Some(width) } => write!(out, "{{{name}:0{width}}}"),
            Part::Time { name, format } => write!(out, "{{{name}:{format}}}"),
            Part::Bucket { name, width } => write!(out, "{{bucket({name}, {width})}}"),
            Part::Shard { count } => write!(out, "{{shard({count})}}"),
            Part::Hash { name, count } => write!(out, "{{hash({name}, {count})}}"),
        };
    }
    out
}

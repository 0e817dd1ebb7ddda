//! The template grammar, and its inverse (parts → canonical source).
//!
//! ```text
//! template := ( text | "{{" | "}}" | slot )+
//! slot     := "{" ws ( call | name [ ":" spec ] ) ws "}"
//! call     := "shard(" count ")" | "hash(" name "," count ")" | "bucket(" name "," duration ")"
//!           | "shard(" classes(count) ")" | "bucket(" name "," classes(duration) ")"
//! classes(x) := "by:" name ( "," value "=" x )+ "," "else" "=" x
//! value    := [A-Za-z0-9_.-]+        a class attribute's value, as the item holds it
//! spec     := "0" width              zero-padded number, width 1..=40
//!           | time format            any text holding a `%` directive
//! ```
//! A slot is parsed by the first form in [`SLOT_FORMS`] that claims it (by its function name, or
//! by what follows the attribute name); the editor's cheat sheet renders the same table.
//! ```text
//! name     := [A-Za-z0-9_-]+         count := 1..=10000          duration := 10d, 6h, 15m…
//! ```
//! The shard and hash counts of one template multiply to at most [`MAX_SHARDS`] too.
//! Whitespace is allowed around a slot's content and around call arguments. Every error names
//! the byte offset in the source of what was wrong and says what was expected there.

use std::fmt::Write as _;

use super::{ClassSlot, Part, TemplateError};
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

/// Most values one class slot may list: each is a layout the planner costs on its own.
pub const MAX_CLASSES: usize = 100;

/// One form a slot can take. [`SLOT_FORMS`] is the table the parser dispatches on and the schema
/// editor's cheat sheet shows, so what a learner reads there is what the parser accepts.
#[derive(Debug)]
pub struct SlotForm {
    /// What the form is, in a word or two.
    pub name: &'static str,
    /// The slot as a user writes it; `attr` and `N` stand for an attribute and a count.
    pub syntax: &'static str,
    /// A whole template that uses the form.
    pub example: &'static str,
    pub description: &'static str,
    /// Which slots the form reads.
    claim: Claim,
    /// Builds the part from the slot's leading name and what follows it (the spec after `:`, the
    /// arguments inside `(…)`, or nothing).
    parse: fn(&SlotForm, Span<'_>, Span<'_>) -> Result<Part, TemplateError>,
}

#[derive(Debug, Clone, Copy)]
enum Claim {
    /// `{name}`.
    Plain,
    /// `{name:spec}` for the specs the function accepts.
    Spec(fn(&str) -> bool),
    /// `{function(args)}`.
    Call(&'static str),
}

impl SlotForm {
    /// The function name of a call form (`bucket`), `None` for the forms that start with an
    /// attribute.
    pub fn function(&self) -> Option<&'static str> {
        match self.claim {
            Claim::Call(function) => Some(function),
            Claim::Plain | Claim::Spec(_) => None,
        }
    }

    /// The form of `part`; `None` for literal text. Every part a slot parses to has its form in
    /// the table (the tests hold the two together).
    pub fn of(part: &Part) -> Option<&'static SlotForm> {
        let name = match part {
            Part::Literal(_) => return None,
            Part::Attr { pad: None, .. } => "attribute",
            Part::Attr { pad: Some(_), .. } => "zero-padded number",
            Part::Time { .. } => "time format",
            Part::Bucket { .. } => "time bucket",
            Part::Shard { .. } => "write shard",
            Part::Hash { .. } => "calculated shard",
            Part::Class(class) => return SlotForm::of(&class.other),
        };
        SLOT_FORMS.iter().find(|f| f.name == name)
    }

    /// The syntax without its braces, for messages (`shard(N)`).
    fn bare(&self) -> &'static str {
        self.syntax.trim_start_matches('{').trim_end_matches('}')
    }
}

/// Every form a slot can take, in the order the cheat sheet lists them.
pub static SLOT_FORMS: &[SlotForm] = &[
    SlotForm {
        name: "attribute",
        syntax: "{attr}",
        example: "USER#{user_id}",
        description: "the attribute's value as text (a key that is only `{attr}` keeps its type)",
        claim: Claim::Plain,
        parse: |_, name, _| Ok(Part::Attr { name: name.text.to_owned(), pad: None }),
    },
    SlotForm {
        name: "time format",
        syntax: "{attr:%Y-%m-%d}",
        example: "{sensor_id}#{reading_time:%Y-%m-%d}",
        description: "a Time attribute formatted in UTC: a calendar bucket (day, month…)",
        claim: Claim::Spec(|spec| spec.contains('%')),
        parse: |_, name, spec| {
            let format = TimeFormat::parse(spec.text).map_err(|e| error(spec.at + e.offset, e.message))?;
            Ok(Part::Time { name: name.text.to_owned(), format })
        },
    },
    SlotForm {
        name: "zero-padded number",
        syntax: "{attr:010}",
        example: "SCORE#{score:010}",
        description: "a number zero-padded to a width, so keys sort as numbers do",
        claim: Claim::Spec(|spec| !spec.contains('%')),
        parse: |_, name, spec| {
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
        },
    },
    SlotForm {
        name: "time bucket",
        syntax: "{bucket(attr, 10d)}",
        example: "{channel_id}#{bucket(sent_at, 10d)}",
        description: "the index of the fixed time window holding a Time attribute",
        claim: Claim::Call("bucket"),
        parse: |form, function, args| {
            let list = split(args);
            if list.get(1).is_some_and(|a| a.text.starts_with("by")) {
                let name = attribute(list[0])?;
                let make =
                    |width: Span<'_>| Ok(Part::Bucket { name: name.clone(), width: bucket_width(width)? });
                return classes(function, &list[1..], make);
            }
            let [name, window] = arguments(form, function, args)?;
            Ok(Part::Bucket { name: attribute(name)?, width: bucket_width(window)? })
        },
    },
    SlotForm {
        name: "write shard",
        syntax: "{shard(N)}",
        example: "COUNTER#{shard(8)}",
        description: "a random shard 0..N-1: writes spread, a reader asks all N",
        claim: Claim::Call("shard"),
        parse: |form, function, args| {
            let list = split(args);
            if list.first().is_some_and(|a| a.text.starts_with("by")) {
                return classes(function, &list, |n| Ok(Part::Shard { count: count(n)? }));
            }
            let [n] = arguments(form, function, args)?;
            Ok(Part::Shard { count: count(n)? })
        },
    },
    SlotForm {
        name: "calculated shard",
        syntax: "{hash(attr, N)}",
        example: "{hash(device_id, 8)}",
        description: "a shard computed from an attribute: a reader who knows it asks one",
        claim: Claim::Call("hash"),
        parse: |form, function, args| {
            let [name, n] = arguments(form, function, args)?;
            Ok(Part::Hash { name: attribute(name)?, count: count(n)? })
        },
    },
];

/// The slot forms as a list for messages: `{attr}, {attr:010}, … or {hash(attr, N)}`.
fn slot_forms() -> String {
    let syntax: Vec<&str> = SLOT_FORMS.iter().map(|f| f.syntax).collect();
    match syntax.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The call forms' functions for messages: `bucket(attr, 10d), shard(N) or hash(attr, N)`.
fn call_forms() -> String {
    let calls: Vec<&str> = SLOT_FORMS.iter().filter(|f| f.function().is_some()).map(SlotForm::bare).collect();
    match calls.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

pub(super) fn parse(source: &str) -> Result<Vec<Part>, TemplateError> {
    if source.is_empty() {
        return Err(error(
            0,
            format!("a key template cannot be empty: expected text and slots like {}", slot_forms()),
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

/// The slot between the braces at `source[start..end]`, parsed by the form that claims it.
fn slot(source: &str, start: usize, end: usize) -> Result<Part, TemplateError> {
    let content = Span { text: &source[start..end], at: start }.trim();
    if content.text.is_empty() {
        return Err(error(start - 1, format!("empty slot `{{}}`: expected {}", slot_forms())));
    }
    let name_len = content.text.find(|c| !is_name_char(c)).unwrap_or(content.text.len());
    let (name, rest) = content.split_at(name_len);
    if name.text.is_empty() {
        return Err(error(content.at, format!("expected an attribute name or {}", slot_forms())));
    }
    if let Some(args) = rest.text.strip_prefix('(') {
        let Some(args) = args.strip_suffix(')') else {
            return Err(error(content.end(), format!("expected `)` to close `{}(`", name.text)));
        };
        let args = Span { text: args, at: rest.at + 1 };
        let Some(form) = SLOT_FORMS.iter().find(|f| f.function() == Some(name.text)) else {
            return Err(error(
                name.at,
                format!("unknown function `{}`: expected {}", name.text, call_forms()),
            ));
        };
        return (form.parse)(form, name, args);
    }
    let (spec, claims): (Span<'_>, &dyn Fn(&Claim) -> bool) = if rest.text.is_empty() {
        (rest, &|c| matches!(c, Claim::Plain))
    } else if let Some(spec) = rest.text.strip_prefix(':') {
        let spec = Span { text: spec, at: rest.at + 1 };
        (spec, &move |c| matches!(c, Claim::Spec(accepts) if accepts(spec.text)))
    } else {
        let bad = rest.text.chars().next().unwrap_or(' ');
        return Err(error(
            rest.at,
            format!(
                "unexpected `{bad}` after `{}`: expected `}}`, `:` and a format, or `(` for a call (names use letters, digits, _ and -)",
                name.text
            ),
        ));
    };
    match SLOT_FORMS.iter().find(|f| claims(&f.claim)) {
        Some(form) => (form.parse)(form, name, spec),
        None => Err(error(spec.at, format!("expected {}", slot_forms()))),
    }
}

/// A call's arguments, split at commas and trimmed.
fn split(args: Span<'_>) -> Vec<Span<'_>> {
    let mut list = Vec::new();
    let mut rest = args;
    while let Some(comma) = rest.text.find(',') {
        let (arg, tail) = rest.split_at(comma);
        list.push(arg.trim());
        rest = tail.split_at(1).1;
    }
    list.push(rest.trim());
    list
}

/// `by: class, value = x, …, else = x`: a slot per class value, each made by `make` from its
/// `x`. `args` starts at the `by:` argument.
fn classes(
    function: Span<'_>,
    args: &[Span<'_>],
    make: impl Fn(Span<'_>) -> Result<Part, TemplateError>,
) -> Result<Part, TemplateError> {
    let usage = || {
        format!(
            "expected {}(…, by: class_attr, value = …, else = …): the listed values of the class attribute take \
             their own {}, every other value the `else` one, like {}",
            function.text,
            if function.text == "shard" { "shard count" } else { "bucket width" },
            if function.text == "shard" {
                "{shard(by: tenant_id, tenant-0000 = 8, else = 1)}"
            } else {
                "{bucket(at, by: device_id, dev-0 = 1h, else = 30d)}"
            }
        )
    };
    let Some((by, cases)) = args.split_first() else { return Err(error(function.at, usage())) };
    let Some(class) = by.text.strip_prefix("by").map(str::trim_start).and_then(|t| t.strip_prefix(':'))
    else {
        return Err(error(by.at, usage()));
    };
    let class = Span { text: class, at: by.end() - class.len() }.trim();
    if class.text.is_empty() {
        return Err(error(by.end(), format!("expected the class attribute's name after `by:`; {}", usage())));
    }
    let by = attribute(class)?;
    let mut listed: Vec<(String, Part)> = Vec::new();
    let mut other = None;
    for case in cases {
        let Some(eq) = case.text.find('=') else {
            return Err(error(case.at, format!("expected `value = …` or `else = …`, found {:?}", case.text)));
        };
        let (value, rest) = case.split_at(eq);
        let (value, x) = (value.trim(), rest.split_at(1).1.trim());
        if x.text.is_empty() {
            return Err(error(rest.end(), format!("expected a value after `{} =`", value.text)));
        }
        if other.is_some() {
            return Err(error(case.at, "`else = …` comes last: list the class values before it".into()));
        }
        if value.text == "else" {
            other = Some(make(x)?);
            continue;
        }
        if let Some(bad) = value.text.find(|c: char| !is_name_char(c) && c != '.') {
            return Err(error(
                value.at + bad,
                format!("a class value uses letters, digits, _, - and . only, found {:?}", value.text),
            ));
        }
        if value.text.is_empty() {
            return Err(error(value.at, format!("expected a class value before `=`; {}", usage())));
        }
        if listed.iter().any(|(v, _)| v == value.text) {
            return Err(error(value.at, format!("class value {:?} is listed twice", value.text)));
        }
        if listed.len() == MAX_CLASSES {
            return Err(error(
                value.at,
                format!("a class slot lists at most {MAX_CLASSES} values: each is a layout of its own"),
            ));
        }
        listed.push((value.text.to_owned(), make(x)?));
    }
    if listed.is_empty() {
        return Err(error(function.at, format!("no class value is listed; {}", usage())));
    }
    let Some(other) = other else {
        return Err(error(
            args.last().map_or(function.at, |a| a.end()),
            format!(
                "expected `else = …` last: the {} of every value not listed",
                if function.text == "shard" { "shard count" } else { "bucket width" }
            ),
        ));
    };
    Ok(Part::Class(Box::new(ClassSlot { by, cases: listed, other })))
}

fn bucket_width(window: Span<'_>) -> Result<SimDuration, TemplateError> {
    let width = SimDuration::parse(window.text).map_err(|e| error(window.at, e.to_string()))?;
    if width == SimDuration::ZERO {
        return Err(error(window.at, "a bucket width must be longer than zero".into()));
    }
    Ok(width)
}

/// A call's `K` arguments, each trimmed and non-empty.
fn arguments<'a, const K: usize>(
    form: &SlotForm,
    function: Span<'a>,
    args: Span<'a>,
) -> Result<[Span<'a>; K], TemplateError> {
    let list = split(args);
    match <[Span<'a>; K]>::try_from(list) {
        Ok(list) if list.iter().all(|a| !a.text.is_empty()) => Ok(list),
        _ => Err(error(
            function.at,
            format!("expected {}: {}, like {}", form.bare(), form.description, form.example),
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
            Part::Class(class) => {
                let value = |part: &Part| match part {
                    Part::Shard { count } => count.to_string(),
                    Part::Bucket { width, .. } => width.to_string(),
                    other => format!("{other:?}"),
                };
                let cases: Vec<String> = class
                    .cases
                    .iter()
                    .map(|(v, part)| format!("{v} = {}", value(part)))
                    .chain(std::iter::once(format!("else = {}", value(&class.other))))
                    .collect();
                match &class.other {
                    Part::Bucket { name, .. } => {
                        write!(out, "{{bucket({name}, by: {}, {})}}", class.by, cases.join(", "))
                    }
                    _ => write!(out, "{{shard(by: {}, {})}}", class.by, cases.join(", ")),
                }
            }
        };
    }
    out
}

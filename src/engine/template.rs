//! Key templates (DESIGN.md §6): key text built from literal parts and `{…}` slots that read an
//! item's attributes: `USER#{user_id}`, `{channel_id}#{bucket(sent_at, 10d)}`,
//! `{score:010}`, `{sent_at:%Y-%m}`, `{shard(8)}`, `{hash(device_id, 8)}`.
//!
//! This module owns the grammar (`parse`), the slot semantics (expansion into key text) and the
//! facts about a template that the planner reasons with (attributes, literal prefix, fan-out). It
//! never decides which template a table uses, and its only randomness is the shard draw its
//! caller passes in.
//!
//! Slot semantics:
//! - `{name}`: the value's text: strings as they are, numbers in canonical form, binary as
//!   base64 (as `KeyValue` shows it). A template that is exactly one such slot passes the value
//!   through with its own key type (an N attribute gives an N key).
//! - `{name:0W}`: numbers in W-digit sortable form (`decimal` documents the encoding, including
//!   negatives); strings and binary are written as they are.
//! - `{name:FORMAT}`: the number of epoch seconds formatted in UTC (`time::TimeFormat`).
//! - `{bucket(name, width)}`: `floor(t / width)` for `t` epoch seconds, the index of the window.
//! - `{shard(N)}`: the draw the caller's `shard(N)` returns, 0..N.
//! - `{hash(name, N)}`: `hash_bytes(canonical bytes) % N`, the bytes `KeyValue::hash_bytes` uses.
//! - `{shard(by: class, v = 8, else = 1)}`, `{bucket(name, by: class, v = 1h, else = 30d)}`: the
//!   shard or bucket slot the class attribute's value selects ([`ClassSlot`]). Writer and reader
//!   both know the class (a list of whale tenants, a device type), so a reader asks only its
//!   class's shards or buckets.
//!
//! A slot whose attribute is missing, or holds a type it cannot read (BOOL, NULL, lists, maps,
//! sets; a string where a time slot needs a number), produces no key.

mod decimal;
mod parse;

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use self::decimal::{Decimal, StackText};
use super::hash::hash_bytes;
use super::profile::cosmos;
use super::time::{SimDuration, TimeFormat, push_integer, push_padded};
use super::value::{AttributeValue, Item, KeyValue};

pub use parse::{MAX_CLASSES, MAX_PAD, MAX_SHARDS, SLOT_FORMS, SlotForm};

/// One piece of a template, in source order. Adjacent literal text forms one `Literal`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    /// Text copied into the key, braces unescaped.
    Literal(String),
    /// `{name}` or `{name:0W}` (`pad: Some(W)`).
    Attr { name: String, pad: Option<u8> },
    /// `{name:%Y-%m}`.
    Time { name: String, format: TimeFormat },
    /// `{bucket(name, 10d)}`.
    Bucket { name: String, width: SimDuration },
    /// `{shard(N)}`.
    Shard { count: u32 },
    /// `{hash(name, N)}`.
    Hash { name: String, count: u32 },
    /// `{shard(by: …)}` or `{bucket(name, by: …)}`: a slot chosen per class. Boxed so the common
    /// parts stay small.
    Class(Box<ClassSlot>),
}

/// A shard or bucket slot whose count or width depends on the value of a class attribute `by`:
/// the listed values take their own slot, every other value `other`. Every case is the same kind
/// of slot (all `Shard`, or all `Bucket` over one time attribute).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClassSlot {
    pub by: String,
    pub cases: Vec<(String, Part)>,
    pub other: Part,
}

impl ClassSlot {
    /// The slot for a class value given as text (`None`: a value not listed).
    pub fn case(&self, class: Option<&str>) -> &Part {
        class.and_then(|c| self.cases.iter().find(|(v, _)| v == c)).map_or(&self.other, |(_, part)| part)
    }

    /// The slot for an item's class attribute value; `None` when it has none the key can read.
    pub fn select(&self, value: Option<&AttributeValue>) -> Option<&Part> {
        let listed = |text: &str| self.cases.iter().find(|(v, _)| v == text).map(|(_, part)| part);
        let part = match value? {
            AttributeValue::S(text) => listed(text),
            AttributeValue::N(number) => {
                let mut text = StackText::new();
                decimal::write_canonical(number, &mut text);
                std::str::from_utf8(text.as_bytes()).ok().and_then(listed)
            }
            _ => return None,
        };
        Some(part.unwrap_or(&self.other))
    }

    /// Every slot the class may take: the listed ones, then the other values'.
    pub fn parts(&self) -> impl Iterator<Item = &Part> {
        self.cases.iter().map(|(_, part)| part).chain(std::iter::once(&self.other))
    }
}

impl Part {
    /// The attribute the slot reads, if any.
    pub fn attribute(&self) -> Option<&str> {
        match self {
            Part::Attr { name, .. }
            | Part::Time { name, .. }
            | Part::Bucket { name, .. }
            | Part::Hash { name, .. } => Some(name),
            Part::Class(class) => class.other.attribute(),
            Part::Literal(_) | Part::Shard { .. } => None,
        }
    }

    /// Every attribute the slot reads: a class slot's class attribute, then its own.
    pub fn reads(&self) -> impl Iterator<Item = &str> + Clone {
        self.class().map(|c| c.by.as_str()).into_iter().chain(self.attribute())
    }

    /// The class attribute of a class slot: it picks the slot, and a reader must know it to ask
    /// only its class's partitions.
    pub fn class(&self) -> Option<&ClassSlot> {
        match self {
            Part::Class(class) => Some(class),
            _ => None,
        }
    }

    /// How many keys the slot can produce for one item (a reader who cannot compute it must try
    /// all): N for `shard(N)` and `hash(_, N)`, 1 otherwise.
    pub fn fanout(&self) -> u32 {
        match self {
            Part::Shard { count } | Part::Hash { count, .. } => *count,
            // A reader who does not know the class asks the largest class's shards.
            Part::Class(class) => class.parts().map(Part::fanout).max().unwrap_or(1),
            _ => 1,
        }
    }

    /// Appends this part's text for an attribute value (`None`: the item lacks the attribute).
    /// Returns false, leaving `out` with part of the text, when the slot cannot read the value.
    /// The planner uses this to expand slots one at a time with values it chose.
    pub fn write(
        &self,
        value: Option<&AttributeValue>,
        shard: &mut dyn FnMut(u32) -> u32,
        out: &mut String,
    ) -> bool {
        match self {
            // Needs the class value too: `Template::expand_with` selects the case and writes it.
            Part::Class(_) => return false,
            Part::Literal(text) => out.push_str(text),
            Part::Shard { count } => push_padded(out, u64::from(shard(*count) % count), 1),
            Part::Attr { pad, .. } => match (value, pad) {
                (Some(AttributeValue::S(text)), _) => out.push_str(text),
                (Some(AttributeValue::N(number)), None) => decimal::write_canonical(number, out),
                (Some(AttributeValue::N(number)), Some(width)) => {
                    Decimal::of(number).write_sortable(*width, out);
                }
                (Some(AttributeValue::B(bytes)), _) => BASE64.encode_string(bytes, out),
                _ => return false,
            },
            Part::Time { format, .. } => {
                let Some(AttributeValue::N(seconds)) = value else { return false };
                let Some(ms) = decimal::epoch_millis(seconds) else { return false };
                return format.write_epoch_millis(ms, out);
            }
            Part::Bucket { width, .. } => {
                let Some(AttributeValue::N(seconds)) = value else { return false };
                let Some(ms) = decimal::epoch_millis(seconds) else { return false };
                // 64-bit division when it fits (every real timestamp and width).
                let index = match (i64::try_from(ms), i64::try_from(width.as_millis())) {
                    (Ok(ms), Ok(width)) => i128::from(ms.div_euclid(width)),
                    _ => ms.div_euclid(i128::from(width.as_millis())),
                };
                push_integer(out, index);
            }
            Part::Hash { count, .. } => {
                let hash = match value {
                    Some(AttributeValue::S(text)) => hash_bytes(text.as_bytes()),
                    Some(AttributeValue::B(bytes)) => hash_bytes(bytes),
                    Some(AttributeValue::N(number)) => {
                        let mut text = StackText::new();
                        decimal::write_canonical(number, &mut text);
                        hash_bytes(text.as_bytes())
                    }
                    _ => return false,
                };
                push_padded(out, hash % u64::from(*count), 1);
            }
        }
        true
    }
}

/// Why a template did not parse: the byte offset in its source and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at byte {offset})")]
pub struct TemplateError {
    pub offset: usize,
    pub message: String,
}

/// A parsed key template. Equal templates have equal source text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Template {
    source: String,
    parts: Vec<Part>,
}

impl Template {
    pub fn parse(source: &str) -> Result<Template, TemplateError> {
        Ok(Template { source: source.to_owned(), parts: parse::parse(source)? })
    }

    /// Builds a template from parts (the planner's suggested fixes), writing its canonical
    /// source. Errors when the parts could not come from any source: an empty list, an invalid
    /// attribute name, a zero count or width, a time format without a directive or with a brace.
    pub fn from_parts(parts: Vec<Part>) -> Result<Template, TemplateError> {
        let template = Template::parse(&parse::render(&parts))?;
        let mut merged: Vec<Part> = Vec::with_capacity(parts.len());
        for part in parts {
            match (merged.last_mut(), part) {
                (_, Part::Literal(text)) if text.is_empty() => {}
                (Some(Part::Literal(previous)), Part::Literal(text)) => previous.push_str(&text),
                (_, part) => merged.push(part),
            }
        }
        if template.parts == merged {
            Ok(template)
        } else {
            Err(TemplateError {
                offset: 0,
                message: format!(
                    "these parts cannot be written as a template: {:?} reads back as {:?}",
                    merged, template.parts
                ),
            })
        }
    }

    /// A Cosmos DB hierarchical partition key: its levels, two or three templates, in order. Its
    /// value is the levels' values joined by [`cosmos::LEVEL_SEPARATOR`] (one part of its own
    /// between two levels, so the levels stay apart), which is what places the key by its
    /// prefix (`cosmos::placement`); its source is the levels as a JSON list, as written.
    pub fn levels(levels: &[Template]) -> Template {
        let source = serde_json::to_string(&levels.iter().map(Template::source).collect::<Vec<_>>())
            .unwrap_or_else(|_| unreachable!("a list of strings serializes"));
        let mut parts = Vec::new();
        for (i, level) in levels.iter().enumerate() {
            if i > 0 {
                parts.push(Part::Literal(cosmos::LEVEL_SEPARATOR.to_string()));
            }
            parts.extend(level.parts.iter().cloned());
        }
        Template { source, parts }
    }

    /// How many levels the key has: 1 unless built by [`Template::levels`].
    pub fn level_count(&self) -> usize {
        self.level_parts().count()
    }

    /// Each level's parts, in order (the whole template when it has one level).
    pub fn level_parts(&self) -> impl Iterator<Item = &[Part]> {
        self.parts.split(is_level_separator)
    }

    /// The key's first `given` levels as a key of their own: what every key sharing that prefix
    /// has in common (a one-level template when `given` is 1). `None` unless `given` is at least
    /// one and fewer than the key's levels.
    pub fn first_levels(&self, given: usize) -> Option<Template> {
        if given == 0 || given >= self.level_count() {
            return None;
        }
        let sources: Vec<String> = serde_json::from_str(&self.source).ok()?;
        let levels: Vec<Template> = sources
            .iter()
            .zip(self.level_parts())
            .take(given)
            .map(|(source, parts)| Template { source: source.clone(), parts: parts.to_vec() })
            .collect();
        Some(match levels.as_slice() {
            [one] => one.clone(),
            _ => Template::levels(&levels),
        })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The attributes the slots read, each once, in order of first use (a class slot reads its
    /// class attribute, then its time attribute).
    pub fn attributes(&self) -> impl Iterator<Item = &str> {
        let all = self.parts.iter().flat_map(Part::reads);
        all.clone()
            .enumerate()
            .filter_map(move |(i, name)| (!all.clone().take(i).any(|n| n == name)).then_some(name))
    }

    /// This template with every class slot replaced by the slot `choose` picks for it (the
    /// planner costs a class's reads on its own layout).
    #[must_use]
    pub fn specialized(&self, choose: impl Fn(&ClassSlot) -> Part) -> Template {
        let parts: Vec<Part> =
            self.parts.iter().map(|part| part.class().map_or_else(|| part.clone(), &choose)).collect();
        Template { source: parse::render(&parts), parts }
    }

    /// The template's class slot, if it has one.
    pub fn class_slot(&self) -> Option<&ClassSlot> {
        self.parts.iter().find_map(Part::class)
    }

    /// The literal text before the first slot (all of it when there is no slot): what every key
    /// of this template begins with, for `begins_with` conditions.
    pub fn literal_prefix(&self) -> &str {
        match self.parts.first() {
            Some(Part::Literal(text)) => text,
            _ => "",
        }
    }

    /// Keys one item may land on: the product of the shard and hash counts (saturating), 1 if none.
    pub fn fanout(&self) -> u32 {
        self.parts.iter().fold(1u32, |product, part| product.saturating_mul(part.fanout()))
    }

    /// The attribute when the template is exactly `{name}`: its keys are the attribute's values,
    /// with the attribute's own type.
    pub fn single_attribute(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [Part::Attr { name, pad: None }] => Some(name),
            _ => None,
        }
    }

    /// The key for `item`. `None` when the item lacks a referenced attribute or holds one with a
    /// type the slot cannot read (for a GSI: the item is not in the index). A template that is
    /// exactly one `{attr}` slot yields the attribute's own key type (N stays N); everything else
    /// yields S. `shard(N)` must return the random write shard in 0..N (a seeded draw).
    pub fn expand(&self, item: &Item, shard: &mut dyn FnMut(u32) -> u32) -> Option<KeyValue> {
        if let Some(name) = self.single_attribute() {
            return item.get(name)?.as_key();
        }
        let mut out = String::new();
        self.expand_into(item, shard, &mut out).then_some(KeyValue::S(out))
    }

    /// The key text for `item`, written into `out` (cleared first); false when there is no key
    /// (see `expand`). Does not allocate once `out` has grown to the key's length.
    pub fn expand_into(&self, item: &Item, shard: &mut dyn FnMut(u32) -> u32, out: &mut String) -> bool {
        self.expand_with(|name| item.get(name), shard, out)
    }

    /// `expand_into` reading attributes through `lookup`, for callers that hold values somewhere
    /// other than an `Item` (a generator's row, a query's known inputs).
    pub fn expand_with<'v>(
        &self,
        lookup: impl Fn(&str) -> Option<&'v AttributeValue>,
        shard: &mut dyn FnMut(u32) -> u32,
        out: &mut String,
    ) -> bool {
        out.clear();
        for part in &self.parts {
            let part = match part {
                Part::Class(class) => {
                    let Some(part) = class.select(lookup(&class.by)) else {
                        out.clear();
                        return false;
                    };
                    part
                }
                part => part,
            };
            let value = part.attribute().and_then(&lookup);
            if !part.write(value, shard, out) {
                out.clear();
                return false;
            }
        }
        true
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl std::str::FromStr for Template {
    type Err = TemplateError;
    fn from_str(source: &str) -> Result<Template, TemplateError> {
        Template::parse(source)
    }
}

/// The part [`Template::levels`] puts between two levels.
fn is_level_separator(part: &Part) -> bool {
    matches!(part, Part::Literal(text) if text.len() == 1 && text.starts_with(cosmos::LEVEL_SEPARATOR))
}

impl TryFrom<String> for Template {
    type Error = TemplateError;
    fn try_from(source: String) -> Result<Template, TemplateError> {
        // A hierarchical key's source is its levels as a JSON list (`Template::levels`).
        if source.starts_with('[')
            && let Ok(levels) = serde_json::from_str::<Vec<String>>(&source)
        {
            let levels = levels.iter().map(|l| Template::parse(l)).collect::<Result<Vec<_>, _>>()?;
            return Ok(Template::levels(&levels));
        }
        let parts = parse::parse(&source)?;
        Ok(Template { source, parts })
    }
}

impl From<Template> for String {
    fn from(template: Template) -> String {
        template.source
    }
}

#[cfg(test)]
mod tests;

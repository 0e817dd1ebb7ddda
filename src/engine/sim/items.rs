//! Items without storing them. Every attribute value of item `ordinal` of an entity is a pure
//! function of the seed, the entity, the ordinal and the item's birth (the tick and the call that
//! wrote it), plus the compact overrides an update leaves; so the simulator keeps a few bytes a row
//! and regenerates an item whenever something must look at it (a filter, an index entry, the
//! inspector).
//!
//! Values are [`Val`]s: a population member, a number in hundredths, one of the attribute's
//! texts, a payload length, a boolean. Their sizes follow DynamoDB's rules
//! (`value::AttributeValue::size`; numbers as `number::Number::size`) without building the
//! value; [`materialize`](Entities::materialize) builds the real `Item` for people to read.
//!
//! Generated numbers keep two decimals (`Normal(mean: 21.5, sd: 4)` gives `23.17`); `Time`
//! values are whole epoch seconds; payloads are ASCII letters (or bytes for B). A DynamoDB item
//! also carries its key attributes (`PK`, `SK`, `GSI1PK`…), whose text counts in its size, as the
//! planner's representative item does; a Cassandra row does not (its keys are its columns).

use std::fmt::Write as _;

use crate::engine::hash::{combine, hash_bytes, mix64};
use crate::engine::model::{self, AttrType, Generator, Population};
use crate::engine::number::Number;
use crate::engine::profile::{Sizing, bson, json};
use crate::engine::time::push_padded;
use crate::engine::value::{AttributeValue, Item, KeyType};
use crate::engine::workload::{Picker, Popularity, Sampler};

/// One attribute's value, compactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Val {
    #[default]
    Absent,
    /// Member `i` of the attribute's population.
    Member(u64),
    /// A number in hundredths.
    Num(i64),
    /// Text `i` of the attribute's choices.
    Choice(u32),
    /// Filler: length, and a salt that picks its letters.
    Payload(u32, u32),
    Bool(bool),
    /// An embedded list (`embed::Embedded`): its size in bytes (the list's overhead and every
    /// element's) and how many children were appended to it (it holds them all, or the newest
    /// `keep_latest`). The elements are the children the simulator keeps for it.
    List(u32, u32),
}

impl Val {
    /// Whole seconds of a time value (hundredths of a second dropped).
    pub fn secs(self) -> Option<i64> {
        match self {
            Val::Num(h) => Some(h.div_euclid(100)),
            _ => None,
        }
    }

    pub fn time(secs: i64) -> Val {
        Val::Num(secs.saturating_mul(100))
    }
}

/// Powers of ten that fit a u64: `POW10[k]` = 10^k.
const POW10: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut k = 1;
    while k < 20 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// Decimal digits of `n` (1 for 0). Every item's size asks this of each number it holds, so it
/// is read off the bit length (`bits × 1233 / 4096` is `bits × log10 2` rounded down, which is
/// ⌊log10 n⌋ or one more) and one compare with a power of ten, rather than `ilog10`'s chain of
/// compares. `n | 1` has the digits of `n` (no even number is one below a power of ten) and
/// gives 0 one digit.
pub const fn digits(n: u64) -> usize {
    let n = n | 1;
    let bits = (u64::BITS - n.leading_zeros()) as usize;
    let guess = (bits * 1233) >> 12;
    guess + 1 - (n < POW10[guess]) as usize
}

/// Bytes a number in hundredths takes in an item: DynamoDB's rule as `Number::size` applies it
/// (zero is 1 byte; else 1 + ceil(d/2) for d significant digits, +1 when d and the first digit's
/// exponent are both even, +1 when negative). Magnitudes below `SMALL_SIZES` (±163.84, where
/// most drawn numbers fall) are looked up: the rule's digit count and trailing-zero loop cost
/// more than the rest of making a reading, and whether a drawn number ends in 0 is a branch no
/// predictor learns.
pub fn number_size(hundredths: i64) -> usize {
    let m = hundredths.unsigned_abs();
    let sign = usize::from(hundredths < 0);
    match usize::try_from(m).ok().and_then(|i| NUMBER_SIZES.get(i)) {
        Some(&size) => usize::from(size) + sign,
        None => magnitude_size(m) + sign,
    }
}

/// Magnitudes in hundredths whose size `number_size` looks up.
const SMALL_SIZES: usize = 1 << 14;

/// `magnitude_size` of every magnitude below `SMALL_SIZES`.
#[expect(clippy::cast_possible_truncation, reason = "a size is at most 11 and a slot fits a u64")]
static NUMBER_SIZES: [u8; SMALL_SIZES] = {
    let mut table = [0u8; SMALL_SIZES];
    let mut m = 0;
    while m < SMALL_SIZES {
        // At most 1 + 10 bytes for 20 digits: fits a byte.
        table[m] = magnitude_size(m as u64) as u8;
        m += 1;
    }
    table
};

/// `number_size` of a magnitude in hundredths, before its sign.
#[expect(clippy::cast_possible_wrap, reason = "at most 20 digits")]
const fn magnitude_size(mut m: u64) -> usize {
    if m == 0 {
        return 1;
    }
    let total = digits(m);
    let mut trailing = 0;
    while m.is_multiple_of(10) {
        m /= 10;
        trailing += 1;
    }
    let d = total - trailing;
    // The first digit's exponent: 10^(total - 1) hundredths is 10^(total - 3).
    let leading = total as isize - 3;
    1 + d.div_ceil(2) + (d.is_multiple_of(2) && leading % 2 == 0) as usize
}

/// Canonical text of a number in hundredths (`2150` → `21.5`, `-5` → `-0.05`).
pub fn push_number_text(hundredths: i64, out: &mut String) {
    let m = hundredths.unsigned_abs();
    if hundredths < 0 {
        out.push('-');
    }
    push_padded(out, m / 100, 1);
    let frac = m % 100;
    if frac != 0 {
        out.push('.');
        if frac.is_multiple_of(10) {
            push_padded(out, frac / 10, 1);
        } else {
            push_padded(out, frac, 2);
        }
    }
}

/// A population id format split around its slot: `sensor-{:05}` → ("sensor-", 5, "").
#[derive(Debug, Clone)]
pub struct IdFormat {
    prefix: String,
    width: usize,
    suffix: String,
}

impl IdFormat {
    fn new(format: &str) -> IdFormat {
        let (Some(open), Some(close)) = (format.find('{'), format.find('}')) else {
            return IdFormat { prefix: format.to_owned(), width: 0, suffix: String::new() };
        };
        let spec = &format[open + 1..close];
        let width = spec.strip_prefix(":0").and_then(|w| w.parse().ok()).unwrap_or(0);
        IdFormat { prefix: format[..open].to_owned(), width, suffix: format[close + 1..].to_owned() }
    }

    fn len(&self, member: u64) -> usize {
        let (fixed, width) = self.lengths();
        fixed + digits(member).max(width)
    }

    /// The bytes around the slot, and the slot's least width.
    fn lengths(&self) -> (usize, usize) {
        (self.prefix.len() + self.suffix.len(), self.width)
    }

    fn push(&self, member: u64, out: &mut String) {
        out.push_str(&self.prefix);
        push_padded(out, member, self.width);
        out.push_str(&self.suffix);
    }
}

/// A population while the run goes: its size now, and its size at the start of every tick it
/// changed (picks in a tick see the population as the tick began, so a regenerated pick sees
/// what the original one saw).
#[derive(Debug, Clone)]
pub struct Pop {
    pub format: IdFormat,
    /// Ids are numbers (the id format is only `{}`).
    pub numeric: bool,
    pub popularity: Popularity,
    pub growth_per_day: f64,
    pub initial: u64,
    /// Members now.
    pub size: u64,
    log: Vec<(u32, u64)>,
    picker: Picker,
}

impl Pop {
    pub fn new(p: &Population) -> Pop {
        Pop {
            format: IdFormat::new(&p.id_format),
            numeric: p.id_format == "{}",
            popularity: p.popularity.clone(),
            growth_per_day: p.growth_per_day,
            initial: p.count,
            size: p.count,
            log: vec![(0, p.count)],
            picker: p.popularity.picker(p.count),
        }
    }

    /// Notes the size at the start of `tick` (call once per tick, in order).
    pub fn start_tick(&mut self, tick: u32) {
        if self.log.last().is_none_or(|&(_, size)| size != self.size) {
            self.log.push((tick, self.size));
        }
        if self.picker.population() != self.size {
            self.picker = self.popularity.picker(self.size);
        }
    }

    /// Members at the start of `tick`.
    pub fn size_at(&self, tick: u32) -> u64 {
        let i = self.log.partition_point(|&(t, _)| t <= tick);
        self.log[i.max(1) - 1].1
    }

    /// A member by the population's own popularity, as of the current tick.
    pub fn pick(&self, seed: u64, stream: u64, index: u64) -> Option<u64> {
        self.picker.pick(seed, stream, index)
    }
}

/// How an attribute gets its value.
#[derive(Debug, Clone)]
pub enum Gen {
    Pick(usize),
    New(usize),
    Now,
    /// The write time plus this many seconds.
    NowPlus(i64),
    /// One of `texts` by weight (`Text` is a choice of one).
    Choice(Vec<f64>),
    Number(Sampler),
    Payload(u32),
    Chance(f64),
    Sometimes(f64, Box<Gen>),
    /// A lifecycle of this many states (`texts`, in order): a new item holds the first; an
    /// update advances it (`Simulation::target`), the last state kept.
    States(u32),
    /// A denormalized copy: the value of attribute `attribute` of the `copy`-th copy's source item.
    Copy(usize),
    /// Kept in the overrides (a maintained aggregate); absent until written.
    Kept,
}

#[derive(Debug, Clone)]
pub struct AttrPlan {
    pub name: String,
    pub ty: AttrType,
    pub source: Gen,
    /// The texts a choice can take (and constants patterns compare with).
    pub texts: Vec<String>,
    pub stream: u64,
    /// The population of a member value, for its text.
    pub pop: Option<usize>,
}

pub use crate::engine::workload::unit;

/// A stable stream number for a name (`entity/Reading/temperature`).
pub fn stream(parts: &[&str]) -> u64 {
    hash_bytes(parts.join("/").as_bytes())
}

fn choose(weights: &[f64], u: f64) -> usize {
    let total: f64 = weights.iter().sum();
    let target = u * total;
    let mut running = 0.0;
    for (i, w) in weights.iter().enumerate() {
        running += w;
        if target < running {
            return i;
        }
    }
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// Values of one generator for one draw. `now_secs` is the write time.
///
/// Inlined for the generators nearly every item has (a time, a number), so that a write
/// regenerating its values does not pay a call into the whole match for each; the rest go
/// through `generate_other`.
#[inline]
pub fn generate(generator: &Gen, seed: u64, stream: u64, index: u64, now_secs: i64, ty: AttrType) -> Val {
    match generator {
        Gen::Now => Val::time(now_secs),
        Gen::Number(sampler) => number(sampler.sample(seed, stream, index), ty),
        _ => generate_other(generator, seed, stream, index, now_secs, ty),
    }
}

/// `generate` of an attribute's own values, with `key` its stream's draw key
/// (`workload::draw_key(seed, attr.stream)`): a number is drawn from the key, without hashing
/// the seed and the stream again; anything else as `generate` draws it.
#[inline]
pub fn generate_own(attr: &AttrPlan, key: u64, seed: u64, index: u64, now_secs: i64) -> Val {
    match &attr.source {
        Gen::Number(sampler) => number(sampler.sample_keyed(key, index), attr.ty),
        source => generate(source, seed, attr.stream, index, now_secs, attr.ty),
    }
}

/// A drawn number as a value of type `ty`.
fn number(x: f64, ty: AttrType) -> Val {
    Val::Num(to_hundredths(x, ty == AttrType::Time))
}

/// `generate` for the generators it does not inline.
#[inline(never)]
fn generate_other(generator: &Gen, seed: u64, stream: u64, index: u64, now_secs: i64, ty: AttrType) -> Val {
    match generator {
        // Members are filled in by the caller (they depend on the population and the call).
        Gen::Pick(_) | Gen::New(_) | Gen::Copy(_) | Gen::Kept => Val::Absent,
        // Drawn inline by `generate`.
        Gen::Now | Gen::Number(_) => generate(generator, seed, stream, index, now_secs, ty),
        Gen::NowPlus(secs) => Val::time(now_secs.saturating_add(*secs)),
        Gen::Choice(weights) => {
            let i = choose(weights, unit(seed, stream, index));
            Val::Choice(u32::try_from(i).unwrap_or(0))
        }
        Gen::Payload(len) => Val::Payload(*len, (combine(&[seed, stream, index]) >> 40) as u32),
        Gen::Chance(p) => Val::Bool(unit(seed, stream ^ 0x5bd1_e995, index) < *p),
        Gen::States(_) => Val::Choice(0),
        Gen::Sometimes(share, inner) => {
            if unit(seed, stream ^ 0x2545_f491, index) < *share {
                generate(inner, seed, mix64(stream), index, now_secs, ty)
            } else {
                Val::Absent
            }
        }
    }
}

/// A drawn number kept to two decimals (whole seconds for times), saturating.
#[expect(clippy::cast_possible_truncation, reason = "float-to-int `as` saturates, as documented")]
pub fn to_hundredths(x: f64, whole: bool) -> i64 {
    if !x.is_finite() {
        return 0;
    }
    if whole { (x.floor() as i64).saturating_mul(100) } else { round_half_away(x * 100.0) }
}

/// `y.round() as i64` for a finite `y` (half away from zero, saturating), without the call into
/// libm that `f64::round` makes: every drawn number passes here. `y - trunc(y)` is exact for
/// every finite `y`, so the comparisons with ±0.5 decide as `round` does. The step is added
/// rather than branched on: whether a drawn number rounds up is a coin toss no predictor
/// learns, and a mispredicted branch cost more than the rest of the rounding.
#[expect(clippy::cast_possible_truncation, reason = "float-to-int `as` truncates and saturates")]
fn round_half_away(y: f64) -> i64 {
    let whole = y as i64;
    let frac = y - whole as f64;
    whole.saturating_add(i64::from(frac >= 0.5) - i64::from(frac <= -0.5))
}

/// Bytes of a value (without the attribute name).
pub fn value_size(attr: &AttrPlan, val: Val, pops: &[Pop]) -> usize {
    match val {
        Val::Absent => 0,
        Val::Member(m) => match attr.pop.map(|p| &pops[p]) {
            Some(p) if p.numeric && attr.ty == AttrType::N => {
                number_size(i64::try_from(m).unwrap_or(i64::MAX).saturating_mul(100))
            }
            Some(p) => p.format.len(m),
            None => digits(m),
        },
        Val::Num(h) => number_size(h),
        Val::Choice(i) => attr.texts.get(i as usize).map_or(0, String::len),
        Val::Payload(len, _) => len as usize,
        Val::Bool(_) => 1,
        Val::List(bytes, _) => bytes as usize,
    }
}

/// Where `value_size` sizes `attr`'s members by their id format: its fixed bytes and the
/// slot's least width, so a member `m` takes `fixed + digits(m).max(width)`.
pub fn member_format(attr: &AttrPlan, pops: &[Pop]) -> Option<(usize, usize)> {
    let p = &pops[attr.pop?];
    (!(p.numeric && attr.ty == AttrType::N)).then(|| p.format.lengths())
}

/// Bytes a value takes in a BSON document, without its type byte and name (`profile::bson`,
/// keyheat's mapping of its types): a time is a UTC datetime (8), a whole number an int32 (4)
/// when it fits and an int64 (8) otherwise, a fraction a double (8), text a string (its length,
/// bytes and terminator), binary its length, subtype and bytes, a boolean 1, a list its bytes.
pub fn bson_value_size(attr: &AttrPlan, val: Val, pops: &[Pop]) -> usize {
    let int = |n: i64| if i32::try_from(n).is_ok() { 4 } else { 8 };
    match val {
        Val::Absent => 0,
        Val::Num(_) | Val::Member(_) if attr.ty == AttrType::Time => bson::DATETIME_BYTES,
        Val::Num(h) if h % 100 == 0 => int(h / 100),
        Val::Num(_) => 8,
        Val::Member(m) if attr.ty == AttrType::N => int(i64::try_from(m).unwrap_or(i64::MAX)),
        Val::Payload(len, _) if attr.ty == AttrType::B => bson::binary_size(len as usize),
        Val::Member(_) | Val::Choice(_) | Val::Payload(..) => bson::string_size(value_size(attr, val, pops)),
        Val::Bool(_) => 1,
        Val::List(bytes, _) => bytes as usize,
    }
}

/// Bytes a value takes as JSON (`profile::json`, keyheat's mapping of its types): a time is an
/// ISO 8601 date string, a number its decimal text, text a quoted string (generated text needs no
/// escapes; a scenario's own choices are escaped as written), binary a base64 string, a boolean
/// `true` or `false`, a list its bytes.
pub fn json_value_size(attr: &AttrPlan, val: Val, pops: &[Pop]) -> usize {
    match val {
        Val::Absent => 0,
        Val::Num(_) | Val::Member(_) if attr.ty == AttrType::Time => json::DATE_BYTES,
        Val::Num(h) => decimal_text_len(h),
        Val::Member(m) if attr.ty == AttrType::N && attr.pop.is_none_or(|p| pops[p].numeric) => digits(m),
        Val::Payload(len, _) if attr.ty == AttrType::B => json::base64_size(len as usize),
        Val::Choice(i) => attr.texts.get(i as usize).map_or(2, |t| json::string_size(t)),
        Val::Member(_) | Val::Payload(..) => 2 + value_size(attr, val, pops),
        Val::Bool(b) => {
            if b {
                4
            } else {
                5
            }
        }
        Val::List(bytes, _) => bytes as usize,
    }
}

/// Bytes a number in hundredths takes as a value as `sizing` counts it (a key attribute's, say).
pub fn sized_number(sizing: Sizing, hundredths: i64) -> usize {
    match sizing {
        Sizing::Attributes => number_size(hundredths),
        Sizing::Bson if hundredths % 100 == 0 && i32::try_from(hundredths / 100).is_ok() => 4,
        Sizing::Bson => 8,
        Sizing::Json => decimal_text_len(hundredths),
    }
}

/// Characters of a number in hundredths as its shortest decimal text: `-`, the whole part, and
/// a `.` with one or two digits when it has a fraction (`1250` is `12.5`, `-5` is `-0.05`).
fn decimal_text_len(hundredths: i64) -> usize {
    let m = hundredths.unsigned_abs();
    let sign = usize::from(hundredths < 0);
    let fraction = match m % 100 {
        0 => 0,
        f if f % 10 == 0 => 2,
        _ => 3,
    };
    sign + digits(m / 100) + fraction
}

/// Bytes one field (`attr` holding `val`) adds to an item as `sizing` counts them.
pub fn field_size(sizing: Sizing, attr: &AttrPlan, val: Val, pops: &[Pop]) -> usize {
    sizing.field(attr.name.len(), sized_value(sizing, attr, val, pops))
}

/// Bytes one field takes in a map nested in a list, as `sizing` counts them.
pub fn nested_field_size(sizing: Sizing, attr: &AttrPlan, val: Val, pops: &[Pop]) -> usize {
    sizing.nested_field(attr.name.len(), sized_value(sizing, attr, val, pops))
}

/// Bytes of a value, without its name, as `sizing` counts them.
pub fn sized_value(sizing: Sizing, attr: &AttrPlan, val: Val, pops: &[Pop]) -> usize {
    match sizing {
        Sizing::Attributes => value_size(attr, val, pops),
        Sizing::Bson => bson_value_size(attr, val, pops),
        Sizing::Json => json_value_size(attr, val, pops),
    }
}

/// Appends a value's key text; false when the value cannot be key text (absent, BOOL).
pub fn push_text(attr: &AttrPlan, val: Val, pops: &[Pop], out: &mut String) -> bool {
    match val {
        Val::Absent | Val::Bool(_) | Val::List(..) => return false,
        Val::Member(m) => match attr.pop.map(|p| &pops[p]) {
            Some(p) if !(p.numeric && attr.ty == AttrType::N) => p.format.push(m, out),
            _ => push_padded(out, m, 1),
        },
        Val::Num(h) => push_number_text(h, out),
        Val::Choice(i) => out.push_str(attr.texts.get(i as usize).map_or("", String::as_str)),
        Val::Payload(len, salt) => push_payload(len, salt, out),
    }
    true
}

/// `len` ASCII letters picked by `salt`.
pub fn push_payload(len: u32, salt: u32, out: &mut String) {
    let mut state = u64::from(salt) ^ 0x9e37_79b9_7f4a_7c15;
    for i in 0..len {
        if i % 12 == 0 {
            state = mix64(state.wrapping_add(u64::from(i)));
        }
        let letter = b'a' + u8::try_from((state >> ((i % 12) * 5)) % 26).unwrap_or(0);
        out.push(char::from(letter));
    }
}

/// The most likely a payload of `len` letters (`push_payload`) holds a given word of `word`
/// letters, whatever the word. A letter is the bits of a mixed state from its place on, modulo
/// 26: the last a state gives keeps 9 bits, so a letter is at most 20/512 likely; the letter
/// before another shares every bit of it but its own 5 (`6·next + r mod 26`), so given the next
/// it is at most 2/32 likely (two of its 32 values `r` give it). At each of the text's
/// `len − word + 1` places (the union bound) the word is then at most
/// `(20/512)·(2/32)^(word − 1)` likely. An upper bound, for a read that must know matches are
/// rare.
pub fn word_chance(len: u32, word: u32) -> f64 {
    if word == 0 {
        return 1.0;
    }
    let last = f64::from(512u32.div_ceil(26)) / 512.0;
    let given_next = 2.0 / 32.0;
    let places = len.saturating_sub(word - 1);
    let chance = last * f64::powi(given_next, i32::try_from(word - 1).unwrap_or(i32::MAX));
    (f64::from(places) * chance).min(1.0)
}

/// The value as a DynamoDB attribute (for the inspector and slow key paths).
pub fn to_attribute(attr: &AttrPlan, val: Val, pops: &[Pop]) -> Option<AttributeValue> {
    let mut text = String::new();
    Some(match val {
        // The simulator builds an embedded list from the children it keeps.
        Val::Absent | Val::List(..) => return None,
        Val::Bool(b) => AttributeValue::Bool(b),
        Val::Payload(len, salt) if attr.ty == AttrType::B => {
            push_payload(len, salt, &mut text);
            AttributeValue::B(text.into_bytes())
        }
        Val::Num(_) => {
            push_text(attr, val, pops, &mut text);
            AttributeValue::N(Number::parse(&text).ok()?)
        }
        Val::Member(m) if attr.ty == AttrType::N => AttributeValue::N(Number::from_u64(m)),
        _ => {
            push_text(attr, val, pops, &mut text);
            AttributeValue::S(text)
        }
    })
}

/// Names a `Copy` generator reads: the copy's source entity and attribute, and the attribute of
/// the holder that names the source item.
#[derive(Debug, Clone)]
pub struct CopyPlan {
    pub from: usize,
    pub from_attr: usize,
    pub to: usize,
    pub as_attr: usize,
    pub by_attr: usize,
}

/// A generator bound to population indexes; choice texts go into `texts`.
fn compile(g: &Generator, texts: &mut Vec<String>) -> Gen {
    match g {
        Generator::Pick(p) => Gen::Pick(p.id().index()),
        Generator::New(p) => Gen::New(p.id().index()),
        Generator::Now => Gen::Now,
        Generator::NowPlus(d) => Gen::NowPlus(i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
        Generator::Text(t) => {
            texts.push(t.clone());
            Gen::Choice(vec![1.0])
        }
        Generator::OneOf(choices) => {
            texts.extend(choices.iter().map(|(t, _)| t.clone()));
            Gen::Choice(choices.iter().map(|(_, w)| *w).collect())
        }
        Generator::States(states) => {
            texts.extend(states.iter().cloned());
            Gen::States(u32::try_from(states.len()).unwrap_or(u32::MAX))
        }
        Generator::Number(d) => Gen::Number(d.sampler()),
        Generator::Payload(n) => Gen::Payload(*n),
        Generator::Chance(p) => Gen::Chance(*p),
        Generator::Sometimes(s, inner) => Gen::Sometimes(*s, Box::new(compile(inner, texts))),
        // Numbered by the writer (`Simulation::number`), kept in the overrides.
        Generator::Nth(_) => Gen::Kept,
    }
}
/// The population a generator's members come from.
fn pop_of(g: &Generator) -> Option<usize> {
    match g {
        Generator::Pick(p) | Generator::New(p) => Some(p.id().index()),
        Generator::Sometimes(_, inner) => pop_of(inner),
        _ => None,
    }
}

/// Where [`attr_plans`] put the attributes a variant adds to an entity's items.
#[derive(Debug, Clone, Default)]
pub struct Added {
    /// (copy, attribute) for each copy landing on the entity, by its position in
    /// `Variant::copies`.
    pub copies: Vec<(usize, usize)>,
    pub ttl: Option<usize>,
    /// (embed, attribute) for each list embedded in the entity, by its position in
    /// `Variant::embeds`.
    pub lists: Vec<(usize, usize)>,
}

impl Added {
    pub fn copy(&self, copy: usize) -> Option<usize> {
        self.copies.iter().find(|&&(c, _)| c == copy).map(|&(_, attr)| attr)
    }

    pub fn list(&self, embed: usize) -> Option<usize> {
        self.lists.iter().find(|&&(e, _)| e == embed).map(|&(_, attr)| attr)
    }
}

/// Builds an entity's attribute plans: the declared ones, then copies it holds, its TTL
/// attribute and the lists embedded in it (an aggregate keeps one of the entity's own
/// attributes, as the loader checks); and where it put those the variant adds.
pub fn attr_plans(
    scenario: &model::Scenario,
    variant: &model::Variant,
    entity: &model::Entity,
) -> (Vec<AttrPlan>, Added) {
    let mut attrs: Vec<AttrPlan> = entity
        .attributes
        .iter()
        .map(|a| {
            let mut texts = Vec::new();
            let generator = compile(&a.generator, &mut texts);
            AttrPlan {
                name: a.name.clone(),
                ty: a.ty,
                source: generator,
                texts,
                stream: stream(&["attr", &entity.name, &a.name]),
                pop: pop_of(&a.generator),
            }
        })
        .collect();
    let mut added = Added::default();
    for (i, copy) in variant.copies.iter().enumerate().filter(|(_, c)| c.ids.to() == entity.id()) {
        let Some(attribute) = copy.ids.attribute() else { continue };
        let source = &scenario.entities[copy.ids.from().index()].attributes[attribute.index()];
        let mut texts = Vec::new();
        let _ = compile(&source.generator, &mut texts);
        added.copies.push((i, attrs.len()));
        attrs.push(AttrPlan {
            name: copy.as_name.clone(),
            ty: source.ty,
            source: Gen::Copy(i),
            texts,
            stream: stream(&["copy", &entity.name, &copy.as_name]),
            pop: pop_of(&source.generator),
        });
    }
    if let Some(ttl) = variant.ttl.as_ref().filter(|t| t.covers(entity.id())) {
        let copied = ttl.copy_on(entity.id()).and_then(|c| added.copy(c));
        added.ttl = Some(copied.unwrap_or(attrs.len()));
        if copied.is_none() {
            attrs.push(AttrPlan {
                name: ttl.attribute.clone(),
                ty: AttrType::N,
                source: Gen::NowPlus(i64::try_from(ttl.lifetime.as_secs()).unwrap_or(i64::MAX)),
                texts: Vec::new(),
                stream: stream(&["ttl", &entity.name]),
                pop: None,
            });
        }
    }
    for (i, embed) in variant.embeds.iter().enumerate().filter(|(_, e)| e.into_id() == entity.id()) {
        added.lists.push((i, attrs.len()));
        attrs.push(AttrPlan {
            name: embed.as_name.clone(),
            // Not a scalar: its `Val::List` says how big it is, the children what it holds.
            ty: AttrType::B,
            source: Gen::Kept,
            texts: Vec::new(),
            stream: stream(&["embed", &entity.name, &embed.as_name]),
            pop: None,
        });
    }
    (attrs, added)
}

/// Renders a compact item as an `Item` (attributes only; the caller adds key attributes).
pub fn materialize(attrs: &[AttrPlan], vals: &[Val], pops: &[Pop]) -> Item {
    attrs.iter().zip(vals).filter_map(|(a, &v)| Some((a.name.clone(), to_attribute(a, v, pops)?))).collect()
}

/// A short label for a partition key's text (keys are UTF-8 unless binary).
pub fn key_label(key_type: KeyType, text: &[u8]) -> String {
    match key_type {
        KeyType::B => {
            let mut out = String::from("0x");
            for b in text.iter().take(32) {
                let _ = write!(out, "{b:02x}");
            }
            out
        }
        // A hierarchical key's levels as a JSON list, as its template is shown.
        _ if text.contains(&(crate::engine::profile::cosmos::LEVEL_SEPARATOR as u8)) => {
            let levels: Vec<_> = String::from_utf8_lossy(text)
                .split(crate::engine::profile::cosmos::LEVEL_SEPARATOR)
                .map(str::to_owned)
                .collect();
            serde_json::to_string(&levels).unwrap_or_else(|_| unreachable!("a list of strings serializes"))
        }
        _ => String::from_utf8_lossy(text).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_words_chance_in_a_payload_is_at_most_its_bound() {
        // (text letters, word, whether the bound is tight for it): words whose letters are the
        // likeliest given the next (`aa`, `aaa`: `6·0 + 0`) against words whose are not; the
        // share of 200,000 texts holding the word stays within 4 standard deviations of the bound.
        let cases = [(12, "aa", true), (20, "aaa", true), (20, "abc", false), (40, "xyz", false)];
        for (len, word, tight) in cases {
            let bound = word_chance(len, u32::try_from(word.len()).expect("short"));
            let texts = 200_000u32;
            let mut text = String::new();
            let held = (0..texts)
                .filter(|&salt| {
                    text.clear();
                    push_payload(len, salt, &mut text);
                    text.contains(word)
                })
                .count() as f64;
            let (expected, sd) = (f64::from(texts) * bound, (f64::from(texts) * bound).sqrt());
            assert!(held <= expected + 4.0 * sd, "{word} in {len} letters: {held} of {texts}, bound {bound}");
            if tight {
                assert!(held >= 0.8 * expected, "{word} in {len} letters: {held} of {texts}, bound {bound}");
            }
        }
    }

    #[test]
    fn an_attributes_own_draws_from_its_key_are_its_draws() {
        use crate::engine::workload::{Distribution, draw_key};
        let sources = [
            (AttrType::N, Gen::Number(Distribution::Normal { mean: 21.5, sd: 4.0 }.sampler())),
            (AttrType::N, Gen::Number(Distribution::Uniform(0.0, 100.0).sampler())),
            (AttrType::Time, Gen::Number(Distribution::Uniform(0.0, 1e9).sampler())),
            (AttrType::N, Gen::Choice(vec![3.0, 1.0])),
            (AttrType::Time, Gen::Now),
            (AttrType::B, Gen::Payload(40)),
        ];
        for (k, (ty, source)) in sources.into_iter().enumerate() {
            let attr = AttrPlan {
                name: format!("a{k}"),
                ty,
                source,
                texts: vec!["x".into(), "y".into()],
                stream: stream(&["attr", "E", &format!("a{k}")]),
                pop: None,
            };
            for (seed, index) in [(42, 0), (42, 1), (7, 1 << 40), (u64::MAX, u64::MAX)] {
                let key = draw_key(seed, attr.stream);
                assert_eq!(
                    generate_own(&attr, key, seed, index, 1_700_000_000),
                    generate(&attr.source, seed, attr.stream, index, 1_700_000_000, attr.ty),
                    "{:?} at seed {seed}, index {index}",
                    attr.source
                );
            }
        }
    }

    #[test]
    fn digits_counts_the_decimal_digits_at_every_power_of_ten() {
        assert_eq!(digits(0), 1);
        assert_eq!(digits(u64::MAX), 20);
        let mut power = 1u64;
        for d in 1..20 {
            assert_eq!(digits(power), d, "10^{}", d - 1);
            assert_eq!(digits(power * 10 - 1), d, "10^{d} - 1");
            power *= 10;
        }
        // Every bit length, at its ends, agrees with ilog10.
        for bits in 0..64 {
            for n in [1u64 << bits, (1u64 << bits) - 1, (1u64 << bits) + 1, u64::MAX >> bits] {
                assert_eq!(digits(n), n.checked_ilog10().map_or(1, |d| d as usize + 1), "{n}");
            }
        }
    }

    #[test]
    fn every_looked_up_size_is_the_number_types() {
        for m in 0..i64::try_from(SMALL_SIZES).unwrap() {
            for h in [m, -m] {
                let mut text = String::new();
                push_number_text(h, &mut text);
                assert_eq!(number_size(h), Number::parse(&text).unwrap().size(), "size of {text}");
            }
        }
    }

    #[test]
    fn number_sizes_follow_the_number_type() {
        for h in [
            0i64,
            1,
            5,
            10,
            99,
            100,
            101,
            1234,
            2150,
            2153,
            -5,
            -2150,
            170_000_000_000,
            123_456_789,
            -100,
            1000,
            9999,
            10_000,
            123_400,
        ] {
            let mut text = String::new();
            push_number_text(h, &mut text);
            let number = Number::parse(&text).unwrap();
            assert_eq!(number.to_string(), text, "canonical text of {h}");
            assert_eq!(number_size(h), number.size(), "size of {text}");
        }
    }

    #[test]
    #[expect(clippy::cast_possible_truncation, reason = "the reference is `round` then `as`")]
    fn rounding_agrees_with_round_at_halves_and_the_ends() {
        for y in [
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.499_999_999_999_999_94,
            -0.499_999_999_999_999_94,
            1.5,
            2.5,
            -2.5,
            2_150.000_000_000_001,
            4_503_599_627_370_495.5,
            -4_503_599_627_370_495.5,
            9_007_199_254_740_993.0,
            9.223_372_036_854_775e18,
            1e19,
            -1e19,
            f64::MAX,
            f64::MIN,
        ] {
            assert_eq!(round_half_away(y), y.round() as i64, "{y}");
        }
    }

    proptest::proptest! {
        #[test]
        #[expect(clippy::cast_possible_truncation, reason = "the reference is `round` then `as`")]
        fn rounding_agrees_with_round(bits in proptest::prelude::any::<u64>(), scale in -30i32..30) {
            let y = f64::from_bits(bits);
            let y = if y.is_finite() { y } else { f64::from(scale) * 0.25 };
            proptest::prop_assert_eq!(round_half_away(y), y.round() as i64);
            let half = f64::from(scale) + 0.5;
            proptest::prop_assert_eq!(round_half_away(half), half.round() as i64);
            let near = half + y.fract() * 1e-9;
            proptest::prop_assert_eq!(round_half_away(near), near.round() as i64);
        }

        #[test]
        fn any_hundredths_size_and_print_as_numbers(h in -10_000_000_000_000i64..10_000_000_000_000) {
            let mut text = String::new();
            push_number_text(h, &mut text);
            let number = Number::parse(&text).unwrap();
            proptest::prop_assert_eq!(number.to_string(), text.clone());
            proptest::prop_assert_eq!(number_size(h), number.size());
        }
    }

    #[test]
    fn id_formats_print_and_size_as_format_id() {
        for (format, member) in
            [("sensor-{:05}", 7u64), ("sensor-{:05}", 1_234_567), ("c{}", 0), ("o{:09}x", 42)]
        {
            let f = IdFormat::new(format);
            let mut out = String::new();
            f.push(member, &mut out);
            assert_eq!(out, model::format_id(format, member));
            assert_eq!(f.len(member), out.len());
        }
    }

    #[test]
    fn a_member_format_sizes_members_as_value_size() {
        // Every bundled scenario's attributes, with the fixture's populations: a member sized
        // from its format's lengths is the size `value_size` gives it, and numeric ids of a
        // number attribute (sized as numbers) have no format.
        for loaded in crate::engine::testing::fixtures() {
            let name = &loaded.scenario.name;
            let variant = &loaded.scenario.variants[0];
            let options = crate::engine::sim::RunOptions { seed: None, duration: None };
            let sim = crate::engine::sim::Simulation::new(&loaded.scenario, variant, &options)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            let world = &sim.world;
            for attr in world.entities.iter().flat_map(|e| &e.attrs) {
                let format = member_format(attr, &world.pops);
                let Some(p) = attr.pop else {
                    assert_eq!(format, None, "{name}: {}", attr.name);
                    continue;
                };
                assert_eq!(format.is_none(), world.pops[p].numeric && attr.ty == AttrType::N);
                let Some((fixed, width)) = format else { continue };
                for m in [0, 7, 99_999, 100_000, 1_234_567, u64::MAX] {
                    let sized = fixed + digits(m).max(width);
                    assert_eq!(
                        sized,
                        value_size(attr, Val::Member(m), &world.pops),
                        "{name}: {} #{m}",
                        attr.name
                    );
                }
            }
        }
    }

    #[test]
    fn choices_follow_weights() {
        let weights = [0.3, 1.7, 95.0, 3.0];
        let mut counts = [0u32; 4];
        for i in 0..100_000 {
            counts[choose(&weights, unit(1, 2, i))] += 1;
        }
        assert!((200..=400).contains(&counts[0]), "{counts:?}");
        assert!((94_000..=96_000).contains(&counts[2]), "{counts:?}");
    }

    #[test]
    fn payloads_are_letters_of_the_length() {
        let mut out = String::new();
        push_payload(40, 7, &mut out);
        assert_eq!(out.len(), 40);
        assert!(out.bytes().all(|b| b.is_ascii_lowercase()));
        let mut other = String::new();
        push_payload(40, 8, &mut other);
        assert_ne!(out, other);
    }
}

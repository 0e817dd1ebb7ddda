//! Sort keys as the compact table holds them: in the row itself when they are small non-negative
//! integers (epoch seconds), else as order-preserving bytes in the partition's arena.
//!
//! The byte forms keep DynamoDB's key order (AWS, "Core components": strings and binary by
//! unsigned bytes, numbers numerically): S and B keys are their own bytes; N keys get the
//! encoding of [`push_number`]. An index entry's position is its index sort key, then the table
//! key as a tie-break, exactly as `store::index` orders entries; the components are joined with
//! [`push_component`], an escaping that keeps byte order when variable-length parts are
//! concatenated. Bounds over entries use the terminator bytes (see [`entry_bound`]).

use std::cmp::Ordering;
use std::ops::Bound;

#[cfg(test)]
use crate::engine::value::KeyValue;

/// How one group's rows hold their sort keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// A non-negative integer below 2^64 kept in the row (a `Time` attribute's epoch seconds),
    /// or no sort key at all (every row holds 0).
    Inline,
    /// Order-preserving bytes kept in the partition's arena.
    Bytes,
}

/// A sort key to look up, insert, or bound a range with, in the group's codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortRef<'a> {
    Inline(u64),
    Bytes(&'a [u8]),
}

/// An owned `SortRef`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SortBuf {
    Inline(u64),
    Bytes(Vec<u8>),
}

impl SortBuf {
    pub fn as_ref(&self) -> SortRef<'_> {
        match self {
            SortBuf::Inline(v) => SortRef::Inline(*v),
            SortBuf::Bytes(b) => SortRef::Bytes(b),
        }
    }
}

/// Terminates a component: every key that continues after a component sorts after its
/// terminator, and the terminator after nothing shorter.
const END: [u8; 2] = [0x00, 0x01];
/// Sorts after every entry whose component equals the one before it (an exclusive upper bound).
const AFTER: [u8; 2] = [0x00, 0x02];

/// Appends `bytes` so that concatenations compare as the sequence of components would: each 0x00
/// becomes 0x00 0xFF and the component ends with 0x00 0x01.
pub fn push_component(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&END);
}

/// Appends the order-preserving form of a number given as DynamoDB's canonical text (`-12.5`,
/// `1.5E+40`): a sign byte, the decimal exponent of the first digit (complemented when
/// negative), the significant digits (complemented when negative) and a terminator, so that
/// byte order is numeric order. Text that is not a number appends its raw bytes after 0xFF.
pub fn push_number(text: &str, out: &mut Vec<u8>) {
    let Some((negative, exponent, digits)) = decompose(text) else {
        out.push(0xFF);
        out.extend_from_slice(text.as_bytes());
        return;
    };
    if digits.is_empty() {
        out.push(0x02);
        return;
    }
    let biased = u16::try_from(exponent + 0x8000).unwrap_or(if exponent < 0 { 0 } else { u16::MAX });
    if negative {
        out.push(0x01);
        out.extend_from_slice(&(!biased).to_be_bytes());
        out.extend(digits.iter().map(|d| 0xFF - (d + 1)));
        out.push(0xFF);
    } else {
        out.push(0x03);
        out.extend_from_slice(&biased.to_be_bytes());
        out.extend(digits.iter().map(|d| d + 1));
        out.push(0x00);
    }
}

/// Sign, decimal exponent of the first significant digit, and the significant digits (0..=9,
/// no leading or trailing zeros; empty for zero).
fn decompose(text: &str) -> Option<(bool, i32, Vec<u8>)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i32>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut digits = Vec::with_capacity(int.len() + frac.len());
    for c in int.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return None;
        }
        digits.push(c - b'0');
    }
    let leading = digits.iter().position(|&d| d != 0);
    let Some(leading) = leading else { return Some((false, 0, Vec::new())) };
    let int_len = i32::try_from(int.len()).ok()?;
    let first = i32::try_from(leading).ok()?;
    let exponent = int_len - 1 - first + exp;
    let last = digits.iter().rposition(|&d| d != 0).unwrap_or(leading);
    Some((negative, exponent, digits[leading..=last].to_vec()))
}

/// Appends a key value's order-preserving bytes (S and B as they are, N by `push_number`).
#[cfg(test)]
pub fn push_key(key: &KeyValue, out: &mut Vec<u8>) {
    match key {
        KeyValue::S(s) => out.extend_from_slice(s.as_bytes()),
        KeyValue::B(b) => out.extend_from_slice(b),
        KeyValue::N(n) => push_number(&n.to_string(), out),
    }
}

/// Compares two partition keys of one type in DynamoDB's order, given as their key text
/// (canonical for numbers, base64 never: binary keys are held as raw bytes).
pub fn compare_key_text(a: &[u8], b: &[u8], numeric: bool) -> Ordering {
    if !numeric {
        return a.cmp(b);
    }
    let (mut x, mut y) = (Vec::new(), Vec::new());
    push_number(&String::from_utf8_lossy(a), &mut x);
    push_number(&String::from_utf8_lossy(b), &mut y);
    x.cmp(&y)
}

/// The bound over index entries for a bound on their index sort key (`body` is the sort key's
/// bytes, unescaped): a lower bound `≥ v` starts at v's terminator, `> v` after every entry with
/// v; an upper bound `≤ v` ends after every entry with v, `< v` before v's terminator.
pub fn entry_bound(bound: Bound<&[u8]>, lower: bool) -> Bound<Vec<u8>> {
    let with = |body: &[u8], tail: [u8; 2]| {
        let mut out = Vec::with_capacity(body.len() + 2);
        push_component(body, &mut out);
        out.truncate(out.len() - 2);
        out.extend_from_slice(&tail);
        out
    };
    match (bound, lower) {
        (Bound::Unbounded, _) => Bound::Unbounded,
        (Bound::Included(v), true) => Bound::Included(with(v, END)),
        (Bound::Excluded(v), true) => Bound::Included(with(v, AFTER)),
        (Bound::Included(v), false) => Bound::Excluded(with(v, AFTER)),
        (Bound::Excluded(v), false) => Bound::Excluded(with(v, END)),
    }
}

/// The least string greater than every string starting with `prefix`: the store's rule for a
/// `begins_with` range, so the compact table and the reference store bound prefixes alike.
pub(crate) use crate::engine::store::string_prefix_successor as prefix_successor;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::number::Number;

    fn encoded(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        push_number(text, &mut out);
        out
    }

    #[test]
    fn numbers_encode_in_numeric_order() {
        let texts = [
            "-1E+100", "-1000", "-999.5", "-12.5", "-12", "-1", "-0.5", "-0.05", "0", "1E-100", "0.05",
            "0.5", "1", "1.5", "9", "12", "12.5", "99", "100", "1200", "1.5E+40",
        ];
        for pair in texts.windows(2) {
            assert!(encoded(pair[0]) < encoded(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        // Canonical and non-canonical spellings of one value encode alike.
        assert_eq!(encoded("12.50"), encoded("12.5"));
        assert_eq!(encoded("0012"), encoded("12"));
        assert_eq!(encoded("-0"), encoded("0"));
    }

    proptest::proptest! {
        #[test]
        fn number_encoding_follows_number_order(a in -1_000_000i64..1_000_000, b in -1_000_000i64..1_000_000, sa in 0u32..4, sb in 0u32..4) {
            let x = Number::parse(&format!("{a}e-{sa}")).unwrap();
            let y = Number::parse(&format!("{b}e-{sb}")).unwrap();
            proptest::prop_assert_eq!(encoded(&x.to_string()).cmp(&encoded(&y.to_string())), x.cmp(&y));
        }

        #[test]
        fn components_concatenate_in_order(a in proptest::collection::vec(0u8..3, 0..5), b in proptest::collection::vec(0u8..3, 0..5), ta in 0u8..3, tb in 0u8..3) {
            let join = |first: &[u8], tail: u8| {
                let mut out = Vec::new();
                push_component(first, &mut out);
                out.push(tail);
                out
            };
            let expected = (a.as_slice(), ta).cmp(&(b.as_slice(), tb));
            proptest::prop_assert_eq!(join(&a, ta).cmp(&join(&b, tb)), expected);
        }
    }

    #[test]
    fn entry_bounds_cover_exactly_the_entries_with_the_sort_key() {
        let entry = |sk: &[u8], tie: &[u8]| {
            let mut out = Vec::new();
            push_component(sk, &mut out);
            out.extend_from_slice(tie);
            out
        };
        let inside = |bound: &Bound<Vec<u8>>, key: &[u8], lower: bool| match bound {
            Bound::Unbounded => true,
            Bound::Included(b) => {
                if lower {
                    key >= b.as_slice()
                } else {
                    key <= b.as_slice()
                }
            }
            Bound::Excluded(b) => {
                if lower {
                    key > b.as_slice()
                } else {
                    key < b.as_slice()
                }
            }
        };
        let sks: [&[u8]; 5] = [b"a", b"a\0", b"ab", b"b", b""];
        for v in sks {
            for sk in sks {
                for tie in [&b""[..], b"\0", b"\xff\xff"] {
                    let key = entry(sk, tie);
                    // (bound on the sort key, lower?, does sk satisfy it)
                    let cases = [
                        (Bound::Included(v), true, sk >= v),
                        (Bound::Excluded(v), true, sk > v),
                        (Bound::Included(v), false, sk <= v),
                        (Bound::Excluded(v), false, sk < v),
                    ];
                    for (bound, lower, expected) in cases {
                        let b = entry_bound(bound, lower);
                        assert_eq!(inside(&b, &key, lower), expected, "{sk:?} vs {bound:?} lower={lower}");
                    }
                }
            }
        }
    }
}

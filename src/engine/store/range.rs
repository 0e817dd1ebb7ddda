//! Key conditions as ranges: checking a KeyConditionExpression against the key schema it
//! queries, turning it into a partition key and a sort-key range, narrowing that range past an
//! ExclusiveStartKey, and splitting the hash space into parallel-scan segments.

use std::ops::Bound::{self, Excluded, Included, Unbounded};

use crate::engine::expr::{KeyCondition, KeyOp};
use crate::engine::value::{AttributeValue, KeyType, KeyValue};

use super::error::StoreError;
use super::index::{EntryKey, Tie};
use super::key::check_key_value;
use super::schema::KeySchema;

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::Validation(message.into())
}

/// A sort key range: the key condition's bounds.
pub(crate) struct SortRange {
    pub lo: Bound<KeyValue>,
    pub hi: Bound<KeyValue>,
}

/// Segment `segment` of `total` covers hashes [lo, hi) of the 64-bit space (`None` = to the end).
/// Both arrive as the request wrote them, so an out-of-range value is reported as it was sent.
pub(crate) fn segment_range(segment: u64, total: u64) -> Result<(u64, Option<u64>), StoreError> {
    if total == 0 || total > 1_000_000 {
        return Err(invalid(format!(
            "1 validation error detected: Value '{total}' at 'totalSegments' failed to satisfy constraint: \
             Member must have value between 1 and 1000000"
        )));
    }
    if segment >= total {
        return Err(invalid(format!(
            "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: {segment} \
             is out of bounds for TotalSegments: {total}"
        )));
    }
    let bound = |s: u64| (u128::from(s) << 64) / u128::from(total);
    let lo = u64::try_from(bound(segment)).expect("segment < total keeps the bound below 2^64");
    Ok((lo, u64::try_from(bound(segment + 1)).ok()))
}

/// Checks a key condition against the key schema it queries and turns it into a partition key
/// and a sort key range (messages as DynamoDB's).
pub(crate) fn key_bounds(
    schema: &KeySchema,
    condition: &KeyCondition,
) -> Result<(KeyValue, SortRange), StoreError> {
    if condition.terms.is_empty() || condition.terms.len() > 2 {
        return Err(invalid("Conditions can be of length 1 or 2 only"));
    }
    let mismatch = || {
        invalid(
            "One or more parameter values were invalid: Condition parameter type does not match schema type",
        )
    };
    let typed = |value: &AttributeValue, key_type: KeyType| {
        value.as_key().filter(|k| k.key_type() == key_type).ok_or_else(mismatch)
    };
    let partition = &schema.partition;
    let position =
        condition.terms.iter().position(|t| t.attribute == partition.name).ok_or_else(|| {
            invalid(format!("Query condition missed key schema element: {}", partition.name))
        })?;
    let KeyOp::Eq(value) = &condition.terms[position].op else {
        return Err(invalid("Query key condition not supported"));
    };
    let partition_value = typed(value, partition.key_type)?;
    check_key_value(&partition_value, &partition.name, true)?;
    let mut range = SortRange { lo: Unbounded, hi: Unbounded };
    for (i, term) in condition.terms.iter().enumerate() {
        if i == position {
            continue;
        }
        let Some(sort) = schema.sort.as_ref().filter(|s| s.name == term.attribute) else {
            return Err(match &schema.sort {
                Some(sort) if term.attribute != partition.name => {
                    invalid(format!("Query condition missed key schema element: {}", sort.name))
                }
                _ => invalid("Query key condition not supported"),
            });
        };
        // Sort key operands obey the key rules too: not empty, at most 1024 bytes.
        let t = |v: &AttributeValue| {
            let key = typed(v, sort.key_type)?;
            check_key_value(&key, &sort.name, false)?;
            Ok::<_, StoreError>(key)
        };
        range = match &term.op {
            KeyOp::Eq(v) => SortRange { lo: Included(t(v)?), hi: Included(t(v)?) },
            KeyOp::Lt(v) => SortRange { lo: Unbounded, hi: Excluded(t(v)?) },
            KeyOp::Le(v) => SortRange { lo: Unbounded, hi: Included(t(v)?) },
            KeyOp::Gt(v) => SortRange { lo: Excluded(t(v)?), hi: Unbounded },
            KeyOp::Ge(v) => SortRange { lo: Included(t(v)?), hi: Unbounded },
            KeyOp::Between(a, b) => {
                let (a, b) = (t(a)?, t(b)?);
                if a > b {
                    return Err(invalid(format!(
                        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than \
                         or equal to lower bound; lower bound operand: AttributeValue: {{{}:{a}}}, upper bound \
                         operand: AttributeValue: {{{}:{b}}}",
                        a.key_type().descriptor(),
                        b.key_type().descriptor()
                    )));
                }
                SortRange { lo: Included(a), hi: Included(b) }
            }
            KeyOp::BeginsWith(v) => {
                if sort.key_type == KeyType::N {
                    return Err(invalid(
                        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or \
                         function: begins_with, operand type: N",
                    ));
                }
                let prefix = t(v)?;
                let hi = prefix_successor(&prefix).map_or(Unbounded, Excluded);
                SortRange { lo: Included(prefix), hi }
            }
        };
    }
    Ok((partition_value, range))
}

/// The least key greater than every key starting with `prefix` (`None`: no such key). Key order
/// is byte order: binary keys bump their last byte below 0xFF, strings their last code point.
fn prefix_successor(prefix: &KeyValue) -> Option<KeyValue> {
    match prefix {
        KeyValue::S(s) => string_prefix_successor(s).map(KeyValue::S),
        KeyValue::B(b) => {
            let mut bytes = b.clone();
            while let Some(last) = bytes.pop() {
                if last < u8::MAX {
                    bytes.push(last + 1);
                    return Some(KeyValue::B(bytes));
                }
            }
            None
        }
        KeyValue::N(_) => None,
    }
}

/// The least string greater than every string starting with `prefix` (`None`: no such string):
/// the prefix with its last code point bumped, after dropping any trailing U+10FFFF. UTF-8's
/// byte order is code point order, so this is the bound of a `begins_with` range in key order;
/// the surrogates are not characters, so U+D7FF is followed by U+E000. The one rule for the
/// store's ranges and the simulator's compact table.
pub(crate) fn string_prefix_successor(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match u32::from(last) + 1 {
            0xD800 => Some('\u{E000}'),
            n => char::from_u32(n),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

pub(crate) fn map_bound<T, U>(bound: Bound<T>, f: impl FnOnce(T) -> U) -> Bound<U> {
    match bound {
        Included(v) => Included(f(v)),
        Excluded(v) => Excluded(f(v)),
        Unbounded => Unbounded,
    }
}

/// An index range bound from a sort-key bound. Entries sharing a sort key are told apart by the
/// table key (`Tie`), so an inclusive bound must reach past every entry with that sort key and an
/// exclusive one must stop short of all of them: lower `>= v` starts at (v, Min) and `> v` after
/// (v, Max); upper `<= v` ends at (v, Max) and `< v` before (v, Min).
pub(crate) fn entry_bound(bound: Bound<KeyValue>, lower: bool) -> Bound<EntryKey> {
    let at = |v, tie| EntryKey { sort: Some(v), tie };
    match (bound, lower) {
        (Included(v), true) => Included(at(v, Tie::Min)),
        (Excluded(v), true) => Excluded(at(v, Tie::Max)),
        (Included(v), false) => Included(at(v, Tie::Max)),
        (Excluded(v), false) => Excluded(at(v, Tie::Min)),
        (Unbounded, _) => Unbounded,
    }
}

/// Narrows a range to what lies strictly beyond `start` in the reading direction.
pub(crate) fn narrow<T: Ord>(
    lo: Bound<T>,
    hi: Bound<T>,
    start: Option<T>,
    forward: bool,
) -> (Bound<T>, Bound<T>) {
    let Some(start) = start else { return (lo, hi) };
    if forward { (tighter(lo, Excluded(start), true), hi) } else { (lo, tighter(hi, Excluded(start), false)) }
}

/// The tighter of two lower (or upper) bounds.
fn tighter<T: Ord>(a: Bound<T>, b: Bound<T>, lower: bool) -> Bound<T> {
    fn value<T>(x: &Bound<T>) -> Option<&T> {
        match x {
            Included(v) | Excluded(v) => Some(v),
            Unbounded => None,
        }
    }
    let (Some(x), Some(y)) = (value(&a), value(&b)) else {
        return if matches!(a, Unbounded) { b } else { a };
    };
    match (x.cmp(y), lower) {
        (std::cmp::Ordering::Greater, true) | (std::cmp::Ordering::Less, false) => a,
        (std::cmp::Ordering::Less, true) | (std::cmp::Ordering::Greater, false) => b,
        (std::cmp::Ordering::Equal, _) => {
            if matches!(a, Excluded(_)) {
                a
            } else {
                b
            }
        }
    }
}

/// True when no key lies in the range (BTreeMap::range panics on such ranges).
pub(crate) fn range_is_empty<T: Ord>(lo: &Bound<T>, hi: &Bound<T>) -> bool {
    match (lo, hi) {
        (Included(a), Included(b)) => a > b,
        (Included(a) | Excluded(a), Included(b) | Excluded(b)) => a >= b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_successors_bound_every_key_with_the_prefix() {
        let s = |x: &str| KeyValue::S(x.to_owned());
        assert_eq!(prefix_successor(&s("ORDER#")), Some(s("ORDER$")));
        assert_eq!(prefix_successor(&s("a\u{10FFFF}")), Some(s("b")));
        assert_eq!(prefix_successor(&s("\u{D7FF}")), Some(s("\u{E000}")));
        assert_eq!(prefix_successor(&s("\u{10FFFF}")), None);
        assert_eq!(prefix_successor(&s("")), None);
        assert_eq!(prefix_successor(&KeyValue::B(vec![1, 0xFF])), Some(KeyValue::B(vec![2])));
        assert_eq!(prefix_successor(&KeyValue::B(vec![0xFF])), None);
    }

    proptest::proptest! {
        /// Every string that starts with the prefix sorts below its successor (by bytes, as keys
        /// do), and the prefix's successor does not itself start with the prefix.
        #[test]
        fn a_string_successor_bounds_every_string_with_the_prefix(prefix in "\\PC{0,4}", rest in "\\PC{0,4}") {
            match string_prefix_successor(&prefix) {
                Some(next) => {
                    let key = format!("{prefix}{rest}");
                    proptest::prop_assert!(key.as_bytes() < next.as_bytes(), "{key:?} vs {next:?}");
                    proptest::prop_assert!(!next.starts_with(&prefix), "{next:?} starts with {prefix:?}");
                }
                None => proptest::prop_assert!(prefix.chars().all(|c| c == char::MAX)),
            }
        }
    }

    #[test]
    fn bounds_combine_and_detect_empty_ranges() {
        assert_eq!(tighter(Included(1), Excluded(1), true), Excluded(1));
        assert_eq!(tighter(Included(3), Excluded(1), true), Included(3));
        assert_eq!(tighter(Included(3), Excluded(1), false), Excluded(1));
        assert_eq!(tighter(Unbounded, Excluded(1), false), Excluded(1));
        assert!(range_is_empty(&Excluded(1), &Included(1)));
        assert!(range_is_empty(&Included(2), &Included(1)));
        assert!(!range_is_empty(&Included(1), &Included(1)));
        assert!(!range_is_empty::<i32>(&Unbounded, &Excluded(1)));
    }

    #[test]
    fn segments_split_the_hash_space() {
        assert_eq!(segment_range(0, 1).unwrap(), (0, None));
        assert_eq!(segment_range(0, 2).unwrap(), (0, Some(1 << 63)));
        assert_eq!(segment_range(1, 2).unwrap(), (1 << 63, None));
        assert!(segment_range(2, 2).is_err());
        assert!(segment_range(0, 0).is_err());
        // Values past u32 are reported as sent, not clamped.
        assert_eq!(
            segment_range(0, 5_000_000_000).unwrap_err().to_string(),
            "1 validation error detected: Value '5000000000' at 'totalSegments' failed to satisfy constraint: \
             Member must have value between 1 and 1000000"
        );
        assert_eq!(
            segment_range(4_294_967_296, 4).unwrap_err().to_string(),
            "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: \
             4294967296 is out of bounds for TotalSegments: 4"
        );
    }

    #[test]
    fn sort_key_operands_obey_the_key_rules() {
        use crate::engine::expr::{KeyCondition, KeyOp, KeyTerm};
        use crate::engine::store::schema::KeyAttribute;

        let schema =
            KeySchema::new(KeyAttribute::new("pk", KeyType::S), Some(KeyAttribute::new("sk", KeyType::S)));
        let s = |n: usize| AttributeValue::s("x".repeat(n));
        let condition = |op: KeyOp| KeyCondition {
            terms: vec![
                KeyTerm { attribute: "pk".into(), op: KeyOp::Eq(s(1)) },
                KeyTerm { attribute: "sk".into(), op },
            ],
        };
        let empty = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
                     contain an empty string value. Key: sk";
        let too_big = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded \
                       the size limit of 1024 bytes";
        // (sort key operator, error or None)
        let cases = [
            (KeyOp::Eq(s(1024)), None),
            (KeyOp::Eq(s(0)), Some(empty)),
            (KeyOp::Eq(s(1025)), Some(too_big)),
            (KeyOp::Lt(s(0)), Some(empty)),
            (KeyOp::Ge(s(1025)), Some(too_big)),
            (KeyOp::Between(s(1), s(1025)), Some(too_big)),
            (KeyOp::Between(s(0), s(1)), Some(empty)),
            (KeyOp::BeginsWith(s(0)), Some(empty)),
            (KeyOp::BeginsWith(s(1025)), Some(too_big)),
        ];
        for (op, error) in cases {
            let got = key_bounds(&schema, &condition(op.clone())).map(|_| ()).map_err(|e| e.to_string());
            assert_eq!(got, error.map_or(Ok(()), |m| Err(m.to_owned())), "{op:?}");
        }
    }
}

//! Evaluating a parsed condition against an item, without allocating.
//!
//! DynamoDB's rules (AWS guide "Comparison operator and function reference"; the Alternator test
//! suite, run against DynamoDB): values of different types are never equal and never ordered;
//! only S (by UTF-8 bytes, unsigned), N (numerically) and B (by unsigned bytes) are ordered; a
//! missing attribute makes `=`, the orderings, BETWEEN and IN false, while `<>` is true (a
//! missing attribute is "not equal" to anything, even another missing one).

use std::borrow::Cow;
use std::cmp::Ordering;

use super::ast::{Comparator, Cond, Operand};
use crate::engine::number::Number;
use crate::engine::value::{AttributeValue, Item};

pub(super) fn evaluate(cond: &Cond, item: &Item) -> bool {
    match cond {
        Cond::Compare(comparator, a, b) => {
            let (a, b) = (resolve(a, item), resolve(b, item));
            match comparator {
                Comparator::Eq => equal(a.as_deref(), b.as_deref()),
                Comparator::Ne => !equal(a.as_deref(), b.as_deref()),
                ordering => {
                    let Some(found) = a.zip(b).and_then(|(a, b)| order(&a, &b)) else {
                        return false;
                    };
                    match ordering {
                        Comparator::Lt => found == Ordering::Less,
                        Comparator::Le => found != Ordering::Greater,
                        Comparator::Gt => found == Ordering::Greater,
                        _ => found != Ordering::Less,
                    }
                }
            }
        }
        Cond::Between(a, low, high) => {
            let (Some(a), Some(low), Some(high)) =
                (resolve(a, item), resolve(low, item), resolve(high, item))
            else {
                return false;
            };
            matches!(order(&a, &low), Some(Ordering::Greater | Ordering::Equal))
                && matches!(order(&a, &high), Some(Ordering::Less | Ordering::Equal))
        }
        Cond::In(a, list) => {
            let Some(a) = resolve(a, item) else {
                return false;
            };
            list.iter().any(|candidate| resolve(candidate, item).is_some_and(|c| *c == *a))
        }
        Cond::And(terms) => terms.iter().all(|term| evaluate(term, item)),
        Cond::Or(terms) => terms.iter().any(|term| evaluate(term, item)),
        Cond::Not(inner) => !evaluate(inner, item),
        Cond::Exists(path) => path.lookup(item).is_some(),
        Cond::NotExists(path) => path.lookup(item).is_none(),
        Cond::Type(a, value_type) => resolve(a, item).is_some_and(|a| a.value_type() == *value_type),
        Cond::BeginsWith(a, prefix) => {
            match (resolve(a, item).as_deref(), resolve(prefix, item).as_deref()) {
                (Some(AttributeValue::S(s)), Some(AttributeValue::S(p))) => s.starts_with(p.as_str()),
                (Some(AttributeValue::B(b)), Some(AttributeValue::B(p))) => b.starts_with(p),
                _ => false,
            }
        }
        Cond::Contains(a, needle) => match (resolve(a, item), resolve(needle, item)) {
            (Some(a), Some(needle)) => contains(&a, &needle),
            _ => false,
        },
    }
}

/// An operand's value: borrowed from the item or the expression, or a computed `size`.
fn resolve<'a>(operand: &'a Operand, item: &'a Item) -> Option<Cow<'a, AttributeValue>> {
    match operand {
        Operand::Path(path) => path.lookup(item).map(Cow::Borrowed),
        Operand::Value(value) => Some(Cow::Borrowed(value)),
        Operand::Size(inner) => {
            let size = size(&*resolve(inner, item)?)?;
            Some(Cow::Owned(AttributeValue::N(Number::from_u64(size as u64))))
        }
    }
}

fn equal(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a == b)
}

/// The order of two values of one orderable type; `None` across types or for other types.
pub(super) fn order(a: &AttributeValue, b: &AttributeValue) -> Option<Ordering> {
    match (a, b) {
        (AttributeValue::S(a), AttributeValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (AttributeValue::N(a), AttributeValue::N(b)) => Some(a.cmp(b)),
        (AttributeValue::B(a), AttributeValue::B(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// `size()`: bytes of S and B, elements of sets, lists and maps; nothing for N, BOOL, NULL.
fn size(value: &AttributeValue) -> Option<usize> {
    Some(match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::B(b) => b.len(),
        AttributeValue::Ss(set) => set.len(),
        AttributeValue::Ns(set) => set.len(),
        AttributeValue::Bs(set) => set.len(),
        AttributeValue::L(list) => list.len(),
        AttributeValue::M(map) => map.len(),
        AttributeValue::N(_) | AttributeValue::Bool(_) | AttributeValue::Null => return None,
    })
}

/// `contains()`: a substring of S or B, a member of a set, an element of a list.
fn contains(haystack: &AttributeValue, needle: &AttributeValue) -> bool {
    match (haystack, needle) {
        (AttributeValue::S(s), AttributeValue::S(part)) => s.contains(part.as_str()),
        (AttributeValue::B(bytes), AttributeValue::B(part)) => {
            part.is_empty() || bytes.windows(part.len()).any(|window| window == part.as_slice())
        }
        (AttributeValue::Ss(set), AttributeValue::S(member)) => set.contains(member),
        (AttributeValue::Ns(set), AttributeValue::N(member)) => set.contains(member),
        (AttributeValue::Bs(set), AttributeValue::B(member)) => set.contains(member),
        (AttributeValue::L(list), element) => list.contains(element),
        _ => false,
    }
}

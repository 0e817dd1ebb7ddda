//! The parsed forms evaluation works on: every `#name` is a resolved attribute name and every
//! `:value` an owned `AttributeValue`, so evaluating never looks at the request again.

use std::collections::BTreeSet;

use super::path::Path;
use crate::engine::value::{AttributeValue, ValueType};

/// A condition operand.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Operand {
    Path(Path),
    Value(AttributeValue),
    /// `size(operand)`: a number, or nothing for types without a size.
    Size(Box<Operand>),
}

impl Operand {
    /// The type known at parse time: a value's own type, and N for `size`.
    pub fn static_type(&self) -> Option<ValueType> {
        match self {
            Operand::Path(_) => None,
            Operand::Value(value) => Some(value.value_type()),
            Operand::Size(_) => Some(ValueType::N),
        }
    }

    fn collect_attributes(&self, into: &mut BTreeSet<String>) {
        match self {
            Operand::Path(path) => {
                into.insert(path.top().to_owned());
            }
            Operand::Value(_) => {}
            Operand::Size(inner) => inner.collect_attributes(into),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Comparator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparator {
    pub fn symbol(self) -> &'static str {
        match self {
            Comparator::Eq => "=",
            Comparator::Ne => "<>",
            Comparator::Lt => "<",
            Comparator::Le => "<=",
            Comparator::Gt => ">",
            Comparator::Ge => ">=",
        }
    }

    pub fn is_ordering(self) -> bool {
        !matches!(self, Comparator::Eq | Comparator::Ne)
    }

    /// The comparator that holds with the operands swapped (`:v < a` is `a > :v`).
    pub fn flipped(self) -> Comparator {
        match self {
            Comparator::Eq => Comparator::Eq,
            Comparator::Ne => Comparator::Ne,
            Comparator::Lt => Comparator::Gt,
            Comparator::Le => Comparator::Ge,
            Comparator::Gt => Comparator::Lt,
            Comparator::Ge => Comparator::Le,
        }
    }
}

/// A ConditionExpression, FilterExpression or KeyConditionExpression. `And`/`Or` hold two or
/// more terms (a chain `a AND b AND c` is one node, evaluated left to right, short-circuiting).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Cond {
    Compare(Comparator, Operand, Operand),
    Between(Operand, Operand, Operand),
    In(Operand, Vec<Operand>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
    Exists(Path),
    NotExists(Path),
    Type(Operand, ValueType),
    BeginsWith(Operand, Operand),
    Contains(Operand, Operand),
}

impl Cond {
    pub fn collect_attributes(&self, into: &mut BTreeSet<String>) {
        match self {
            Cond::Compare(_, a, b) | Cond::BeginsWith(a, b) | Cond::Contains(a, b) => {
                a.collect_attributes(into);
                b.collect_attributes(into);
            }
            Cond::Between(a, b, c) => {
                for operand in [a, b, c] {
                    operand.collect_attributes(into);
                }
            }
            Cond::In(a, list) => {
                a.collect_attributes(into);
                for operand in list {
                    operand.collect_attributes(into);
                }
            }
            Cond::And(terms) | Cond::Or(terms) => {
                for term in terms {
                    term.collect_attributes(into);
                }
            }
            Cond::Not(inner) => inner.collect_attributes(into),
            Cond::Exists(path) | Cond::NotExists(path) => {
                into.insert(path.top().to_owned());
            }
            Cond::Type(operand, _) => operand.collect_attributes(into),
        }
    }
}

/// An operand on the right of `SET path =`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum SetOperand {
    Path(Path),
    Value(AttributeValue),
    /// `if_not_exists(path, operand)`: the path's value if it exists, else the operand's.
    IfNotExists(Path, Box<SetOperand>),
    /// `list_append(a, b)`: both lists, `a`'s elements first.
    ListAppend(Box<SetOperand>, Box<SetOperand>),
}

impl SetOperand {
    /// The type known at parse time (DynamoDB checks `:values` of `+`, `-` and `list_append`).
    pub fn static_type(&self) -> Option<ValueType> {
        match self {
            SetOperand::Path(_) => None,
            SetOperand::Value(value) => Some(value.value_type()),
            SetOperand::IfNotExists(_, fallback) => fallback.static_type(),
            SetOperand::ListAppend(..) => Some(ValueType::L),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum SetValue {
    Operand(SetOperand),
    Plus(SetOperand, SetOperand),
    Minus(SetOperand, SetOperand),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Action {
    Set(Path, SetValue),
    Remove(Path),
    /// A number to add, or a set to merge in.
    Add(Path, AttributeValue),
    /// A set whose elements to take out.
    Delete(Path, AttributeValue),
}

impl Action {
    pub fn path(&self) -> &Path {
        match self {
            Action::Set(path, _) | Action::Remove(path) | Action::Add(path, _) | Action::Delete(path, _) => {
                path
            }
        }
    }
}

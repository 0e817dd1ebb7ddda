//! KeyConditionExpression: a parsed condition narrowed to what Query accepts, `key = :v` and at
//! most one more term on another key attribute (`=`, `<`, `<=`, `>`, `>=`, BETWEEN,
//! `begins_with`), joined by AND. Which attribute is the partition key is the caller's business
//! (it knows the key schema). Messages are DynamoDB's (recorded by dynalite and moto).

use super::ast::{Comparator, Cond, Operand};
use super::path::Path;
use super::{ExprError, KeyCondition, KeyOp, KeyTerm};
use crate::engine::value::AttributeValue;

fn error(message: &str) -> ExprError {
    ExprError { message: message.to_owned() }
}

pub(super) fn from_condition(cond: Cond) -> Result<KeyCondition, ExprError> {
    let mut terms = Vec::with_capacity(2);
    collect(cond, &mut terms)?;
    if terms.len() > 2 {
        return Err(error("Conditions can be of length 1 or 2 only"));
    }
    Ok(KeyCondition { terms })
}

fn collect(cond: Cond, terms: &mut Vec<KeyTerm>) -> Result<(), ExprError> {
    let bad_operator =
        |name: &str| error(&format!("Invalid operator used in KeyConditionExpression: {name}"));
    let term = match cond {
        Cond::And(parts) => {
            for part in parts {
                collect(part, terms)?;
            }
            return Ok(());
        }
        Cond::Or(_) => return Err(bad_operator("OR")),
        Cond::Not(_) => return Err(bad_operator("NOT")),
        Cond::In(..) => return Err(bad_operator("IN")),
        Cond::Compare(Comparator::Ne, ..) => return Err(bad_operator("<>")),
        Cond::Exists(_) => return Err(bad_operator("attribute_exists")),
        Cond::NotExists(_) => return Err(bad_operator("attribute_not_exists")),
        Cond::Type(..) => return Err(bad_operator("attribute_type")),
        Cond::Contains(..) => return Err(bad_operator("contains")),
        Cond::Compare(comparator, a, b) => match (a, b) {
            (Operand::Path(path), Operand::Value(value)) => term(&path, compare(comparator, value))?,
            (Operand::Value(value), Operand::Path(path)) => {
                term(&path, compare(comparator.flipped(), value))?
            }
            (a, b) => return Err(shape_error([&a, &b])),
        },
        Cond::Between(a, low, high) => match (a, low, high) {
            (Operand::Path(path), Operand::Value(low), Operand::Value(high)) => {
                term(&path, KeyOp::Between(low, high))?
            }
            (Operand::Path(_), low, high) => return Err(shape_error([&low, &high])),
            _ => return Err(first_operand_error("BETWEEN")),
        },
        Cond::BeginsWith(a, prefix) => match (a, prefix) {
            (Operand::Path(path), Operand::Value(prefix)) => term(&path, KeyOp::BeginsWith(prefix))?,
            (Operand::Path(_), prefix) => return Err(shape_error([&prefix])),
            _ => return Err(first_operand_error("begins_with")),
        },
    };
    if terms.iter().any(|t| t.attribute == term.attribute) {
        return Err(error("KeyConditionExpressions must only contain one condition per key"));
    }
    terms.push(term);
    Ok(())
}

fn compare(comparator: Comparator, value: AttributeValue) -> KeyOp {
    match comparator {
        Comparator::Eq => KeyOp::Eq(value),
        Comparator::Ne => unreachable!("`<>` is refused before key terms are built"),
        Comparator::Lt => KeyOp::Lt(value),
        Comparator::Le => KeyOp::Le(value),
        Comparator::Gt => KeyOp::Gt(value),
        Comparator::Ge => KeyOp::Ge(value),
    }
}

fn term(path: &Path, op: KeyOp) -> Result<KeyTerm, ExprError> {
    if !path.is_top_level() {
        return Err(error("KeyConditionExpressions cannot have conditions on nested attributes"));
    }
    Ok(KeyTerm { attribute: path.top().to_owned(), op })
}

/// Why operands other than one key attribute and values do not make a key condition.
fn shape_error<const N: usize>(others: [&Operand; N]) -> ExprError {
    if others.iter().any(|o| matches!(o, Operand::Size(_))) {
        return error("KeyConditionExpressions cannot contain nested operations");
    }
    if others.iter().any(|o| matches!(o, Operand::Path(_))) {
        error("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition")
    } else {
        error("Invalid condition in KeyConditionExpression: No key attribute specified")
    }
}

fn first_operand_error(operator: &str) -> ExprError {
    error(&format!(
        "Invalid condition in KeyConditionExpression: {operator} operator must have the key attribute as its first operand"
    ))
}

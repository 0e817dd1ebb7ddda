//! DynamoDB expressions: key conditions, conditions and filters, updates and projections, with
//! `ExpressionAttributeNames` (`#n`) and `ExpressionAttributeValues` (`:v`) resolved at parse time.
//!
//! API CONTRACT (the bodies are being written on the `expr` branch; do not change signatures
//! without agreement). Parsers never panic on any input; every error is an `ExprError` whose
//! message is what DynamoDB would put in a ValidationException.

use std::collections::{BTreeMap, BTreeSet};

use super::value::{AttributeValue, Item};

/// Which request parameter an expression came from (DynamoDB names it in error messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpressionKind {
    KeyCondition,
    Condition,
    Filter,
    Update,
    Projection,
}

/// A ValidationException message, complete (e.g. `Invalid UpdateExpression: Syntax error; token: "=", near: "SET ="`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ExprError {
    pub message: String,
}

/// The names and values one request supplies, shared by all of its expressions; records which
/// were used so `finish` can reject unused ones as DynamoDB does.
#[derive(Debug, Clone, Default)]
pub struct ExpressionContext {
    names: BTreeMap<String, String>,
    values: BTreeMap<String, AttributeValue>,
}

impl ExpressionContext {
    pub fn new(names: BTreeMap<String, String>, values: BTreeMap<String, AttributeValue>) -> Self {
        ExpressionContext { names, values }
    }

    /// Errors if a name or value was supplied but no expression used it.
    pub fn finish(&self) -> Result<(), ExprError> {
        todo!()
    }
}

/// One or two terms: equality on the partition key and at most one condition on the sort key.
/// Which attribute is which is decided by the caller against the table or index key schema.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyCondition {
    pub terms: Vec<KeyTerm>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct KeyTerm {
    pub attribute: String,
    pub op: KeyOp,
}

#[derive(Debug, Clone, PartialEq)]
pub enum KeyOp {
    Eq(AttributeValue),
    Lt(AttributeValue),
    Le(AttributeValue),
    Gt(AttributeValue),
    Ge(AttributeValue),
    Between(AttributeValue, AttributeValue),
    BeginsWith(AttributeValue),
}

pub fn parse_key_condition(text: &str, ctx: &mut ExpressionContext) -> Result<KeyCondition, ExprError> {
    todo!()
}

/// A ConditionExpression or FilterExpression.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {}

/// `kind` is `Condition` or `Filter` (used in error messages).
pub fn parse_condition(
    kind: ExpressionKind,
    text: &str,
    ctx: &mut ExpressionContext,
) -> Result<Condition, ExprError> {
    todo!()
}

impl Condition {
    /// Evaluates against an item (an absent item is an empty map).
    pub fn evaluate(&self, item: &Item) -> Result<bool, ExprError> {
        todo!()
    }

    /// Top-level attribute names the condition reads.
    pub fn attributes(&self) -> BTreeSet<String> {
        todo!()
    }
}

/// An UpdateExpression (SET, REMOVE, ADD, DELETE clauses).
#[derive(Debug, Clone, PartialEq)]
pub struct Update {}

pub fn parse_update(text: &str, ctx: &mut ExpressionContext) -> Result<Update, ExprError> {
    todo!()
}

impl Update {
    /// Applies every action; operands read the item as it was before the update (DynamoDB semantics).
    pub fn apply(&self, item: &mut Item) -> Result<(), ExprError> {
        todo!()
    }

    /// Top-level attribute names the update writes or removes.
    pub fn attributes(&self) -> BTreeSet<String> {
        todo!()
    }

    /// The paths the update touches, as a projection (for ReturnValues UPDATED_OLD / UPDATED_NEW).
    pub fn updated_paths(&self) -> Projection {
        todo!()
    }
}

/// A ProjectionExpression: a list of document paths.
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {}

pub fn parse_projection(text: &str, ctx: &mut ExpressionContext) -> Result<Projection, ExprError> {
    todo!()
}

impl Projection {
    /// The item reduced to the projected paths (nested paths keep their enclosing maps/lists).
    pub fn apply(&self, item: &Item) -> Item {
        todo!()
    }

    /// Top-level attribute names the projection reads.
    pub fn attributes(&self) -> BTreeSet<String> {
        todo!()
    }
}

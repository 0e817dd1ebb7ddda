//! DynamoDB expressions: key conditions, conditions and filters, updates and projections, with
//! `ExpressionAttributeNames` (`#n`) and `ExpressionAttributeValues` (`:v`) resolved at parse time.
//!
//! Each expression is parsed once into a tree whose names and values are already resolved, so
//! evaluating a filter or applying an update never re-reads the text or the request. Parsers
//! never panic on any input; every error is an `ExprError` whose message is the one DynamoDB
//! puts in its ValidationException. This module knows nothing of tables or key schemas: which
//! attribute of a key condition is the partition key, and whether an update touches a key, are
//! the store's questions.
//!
//! Submodules: `lexer` (tokens), `parser` (shared parsing, limits, messages), `condition`,
//! `update` and `projection` (the three grammars), `key` (key-condition rules), `ast` (the
//! parsed forms), `eval` (conditions against items), `apply` (updates on items), `path`
//! (document paths), `reserved` (DynamoDB's reserved words).

mod apply;
mod ast;
mod condition;
mod eval;
mod key;
mod lexer;
mod parser;
mod path;
mod projection;
mod reserved;
#[cfg(test)]
mod tests;
mod update;

use std::collections::{BTreeMap, BTreeSet};

use self::ast::{Action, Cond};
use self::parser::Parser;
use self::path::Path;
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

impl ExpressionKind {
    /// The request parameter's name, as DynamoDB's messages spell it.
    pub fn parameter(self) -> &'static str {
        match self {
            ExpressionKind::KeyCondition => "KeyConditionExpression",
            ExpressionKind::Condition => "ConditionExpression",
            ExpressionKind::Filter => "FilterExpression",
            ExpressionKind::Update => "UpdateExpression",
            ExpressionKind::Projection => "ProjectionExpression",
        }
    }
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
    used_names: BTreeSet<String>,
    used_values: BTreeSet<String>,
}

impl ExpressionContext {
    pub fn new(names: BTreeMap<String, String>, values: BTreeMap<String, AttributeValue>) -> Self {
        ExpressionContext { names, values, used_names: BTreeSet::new(), used_values: BTreeSet::new() }
    }

    /// Errors if a name or value was supplied but no expression used it.
    pub fn finish(&self) -> Result<(), ExprError> {
        let unused = |parameter: &str, keys: &mut dyn Iterator<Item = &String>| {
            let keys: Vec<&str> = keys.map(String::as_str).collect();
            if keys.is_empty() {
                return Ok(());
            }
            Err(ExprError {
                message: format!(
                    "Value provided in {parameter} unused in expressions: keys: {{{}}}",
                    keys.join(", ")
                ),
            })
        };
        unused(
            "ExpressionAttributeNames",
            &mut self.names.keys().filter(|k| !self.used_names.contains(k.as_str())),
        )?;
        unused(
            "ExpressionAttributeValues",
            &mut self.values.keys().filter(|k| !self.used_values.contains(k.as_str())),
        )
    }

    /// The attribute name behind `#placeholder`, marking it used.
    fn use_name(&mut self, placeholder: &str) -> Option<&str> {
        let name = self.names.get(placeholder)?;
        if !self.used_names.contains(placeholder) {
            self.used_names.insert(placeholder.to_owned());
        }
        Some(name)
    }

    /// The value behind `:placeholder`, marking it used.
    fn use_value(&mut self, placeholder: &str) -> Option<&AttributeValue> {
        let value = self.values.get(placeholder)?;
        if !self.used_values.contains(placeholder) {
            self.used_values.insert(placeholder.to_owned());
        }
        Some(value)
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
    let cond = parse_cond(ExpressionKind::KeyCondition, text, ctx)?;
    key::from_condition(cond)
}

/// A ConditionExpression or FilterExpression.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    root: Cond,
}

/// `kind` is `Condition` or `Filter` (used in error messages).
pub fn parse_condition(
    kind: ExpressionKind,
    text: &str,
    ctx: &mut ExpressionContext,
) -> Result<Condition, ExprError> {
    Ok(Condition { root: parse_cond(kind, text, ctx)? })
}

fn parse_cond(kind: ExpressionKind, text: &str, ctx: &mut ExpressionContext) -> Result<Cond, ExprError> {
    let mut parser = Parser::new(kind, text, ctx)?;
    let cond = condition::parse(&mut parser)?;
    parser.finish()?;
    Ok(cond)
}

impl Condition {
    /// Evaluates against an item (an absent item is an empty map).
    pub fn evaluate(&self, item: &Item) -> Result<bool, ExprError> {
        // Every type mistake DynamoDB reports was caught at parse time; what is left evaluates
        // to true or false.
        Ok(eval::evaluate(&self.root, item))
    }

    /// Top-level attribute names the condition reads.
    pub fn attributes(&self) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        self.root.collect_attributes(&mut names);
        names
    }
}

/// An UpdateExpression (SET, REMOVE, ADD, DELETE clauses).
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// Sorted by path, the order `apply::apply` writes in.
    actions: Vec<Action>,
}

pub fn parse_update(text: &str, ctx: &mut ExpressionContext) -> Result<Update, ExprError> {
    let mut parser = Parser::new(ExpressionKind::Update, text, ctx)?;
    let mut actions = update::parse(&mut parser)?;
    parser.finish()?;
    actions.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(Update { actions })
}

impl Update {
    /// Applies every action; operands read the item as it was before the update (DynamoDB semantics).
    ///
    /// An item that does not exist yet is an empty map (DynamoDB ignores a REMOVE of a nested
    /// path on such an item, and refuses it on an item that exists). On error the item is
    /// unchanged.
    pub fn apply(&self, item: &mut Item) -> Result<(), ExprError> {
        apply::apply(&self.actions, item)
    }

    /// Top-level attribute names the update writes or removes.
    pub fn attributes(&self) -> BTreeSet<String> {
        self.actions.iter().map(|action| action.path().top().to_owned()).collect()
    }

    /// The paths the update touches, as a projection (for ReturnValues UPDATED_OLD / UPDATED_NEW).
    pub fn updated_paths(&self) -> Projection {
        Projection::from_paths(self.actions.iter().map(|action| action.path().clone()).collect())
    }
}

/// A ProjectionExpression: a list of document paths.
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    paths: Vec<Path>,
    tree: BTreeMap<String, projection::Node>,
}

pub fn parse_projection(text: &str, ctx: &mut ExpressionContext) -> Result<Projection, ExprError> {
    let mut parser = Parser::new(ExpressionKind::Projection, text, ctx)?;
    let paths = projection::parse(&mut parser)?;
    parser.finish()?;
    Ok(Projection::from_paths(paths))
}

impl Projection {
    fn from_paths(paths: Vec<Path>) -> Projection {
        let tree = projection::tree(&paths);
        Projection { paths, tree }
    }

    /// The item reduced to the projected paths (nested paths keep their enclosing maps/lists).
    pub fn apply(&self, item: &Item) -> Item {
        projection::apply(&self.tree, item)
    }

    /// Top-level attribute names the projection reads.
    pub fn attributes(&self) -> BTreeSet<String> {
        self.tree.keys().cloned().collect()
    }

    /// How many paths the expression lists.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}

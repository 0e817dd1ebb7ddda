//! ProjectionExpression: `path (',' path)*`, and cutting an item down to those paths.
//!
//! The paths become a tree, so one walk of the item serves them all. As DynamoDB returns them,
//! a nested path keeps its enclosing maps and lists (`a.b` → `{a: {b: …}}`), list elements keep
//! their index order but close up (`l[1], l[3]` → `{l: [l1, l3]}`), and a path that finds
//! nothing adds nothing (no empty map or list is left behind).

use std::collections::BTreeMap;

use super::ExprError;
use super::lexer::Kind;
use super::parser::{Parser, Problem};
use super::path::{Path, Relation, Step, relation_message};
use crate::engine::value::{AttributeValue, Item};

pub(super) fn parse(parser: &mut Parser<'_>) -> Result<Vec<Path>, ExprError> {
    let mut paths = vec![parser.path(&[])?];
    while parser.peek() == Kind::Comma {
        parser.advance();
        paths.push(parser.path(&[])?);
    }
    if !parser.at_eof() {
        return Err(parser.syntax_error());
    }
    for (i, later) in paths.iter().enumerate() {
        for earlier in &paths[..i] {
            let relation = earlier.relation(later);
            if let Some(message) = relation_message(relation, earlier, later) {
                let problem =
                    if relation == Relation::Overlap { Problem::Overlap } else { Problem::Conflict };
                parser.record(problem, message);
            }
        }
    }
    Ok(paths)
}

/// What to keep below one attribute.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    /// The whole value.
    All,
    Map(BTreeMap<String, Node>),
    List(BTreeMap<usize, Node>),
}

/// The paths as a tree keyed by top-level attribute name.
pub(super) fn tree<'p>(paths: impl IntoIterator<Item = &'p Path>) -> BTreeMap<String, Node> {
    let mut top = BTreeMap::new();
    for path in paths {
        let (first, rest) = (path.top(), &path.steps()[1..]);
        let node = top.entry(first.to_owned()).or_insert_with(|| empty_node(rest));
        add(node, rest);
    }
    top
}

fn empty_node(rest: &[Step]) -> Node {
    match rest.first() {
        None => Node::All,
        Some(Step::Key(_)) => Node::Map(BTreeMap::new()),
        Some(Step::Index(_)) => Node::List(BTreeMap::new()),
    }
}

/// Adds the path `rest` below `node`. A path inside one already kept whole changes nothing; one
/// that reads a map where another reads a list cannot occur (the parser refuses such pairs).
fn add(node: &mut Node, rest: &[Step]) {
    let Some((step, rest)) = rest.split_first() else {
        *node = Node::All;
        return;
    };
    match (node, step) {
        (Node::Map(children), Step::Key(key)) => {
            add(children.entry(key.clone()).or_insert_with(|| empty_node(rest)), rest);
        }
        (Node::List(children), Step::Index(index)) => {
            add(children.entry(*index).or_insert_with(|| empty_node(rest)), rest);
        }
        _ => {}
    }
}

pub(super) fn apply(tree: &BTreeMap<String, Node>, item: &Item) -> Item {
    tree.iter().filter_map(|(name, node)| Some((name.clone(), project(node, item.get(name)?)?))).collect()
}

fn project(node: &Node, value: &AttributeValue) -> Option<AttributeValue> {
    match (node, value) {
        (Node::All, value) => Some(value.clone()),
        (Node::Map(children), AttributeValue::M(map)) => {
            let kept: BTreeMap<String, AttributeValue> = children
                .iter()
                .filter_map(|(key, child)| Some((key.clone(), project(child, map.get(key)?)?)))
                .collect();
            (!kept.is_empty()).then_some(AttributeValue::M(kept))
        }
        (Node::List(children), AttributeValue::L(list)) => {
            let kept: Vec<AttributeValue> =
                children.iter().filter_map(|(index, child)| project(child, list.get(*index)?)).collect();
            (!kept.is_empty()).then_some(AttributeValue::L(kept))
        }
        _ => None,
    }
}

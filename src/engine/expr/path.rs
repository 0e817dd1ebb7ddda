//! Document paths (`a.b[2].c`) with their names resolved: reading them from an item, showing
//! them the way DynamoDB's messages do, and telling whether two of them overlap.

use std::fmt;

use crate::engine::value::{AttributeValue, Item};

/// One step of a path: a map key (or the top-level attribute name) or a list index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// A document path. Invariant: at least one step, and the first is a `Key` (the grammar has
/// no way to start a path with an index).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Path {
    steps: Vec<Step>,
}

/// How two paths written by one update (or projection) relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Relation {
    /// Neither is a prefix of the other and they never disagree on map-versus-list.
    Apart,
    /// One is a prefix of the other (equal paths included).
    Overlap,
    /// At the first step where they differ one reads a map key and the other a list index.
    Conflict,
}

impl Path {
    /// `None` when `steps` would break the invariant.
    pub fn new(steps: Vec<Step>) -> Option<Path> {
        matches!(steps.first(), Some(Step::Key(_))).then_some(Path { steps })
    }

    pub fn top(&self) -> &str {
        match self.steps.first() {
            Some(Step::Key(name)) => name,
            _ => unreachable!("a path starts with a key (Path::new checks)"),
        }
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn is_top_level(&self) -> bool {
        self.steps.len() == 1
    }

    /// The value at this path, if every step exists and has the right type.
    pub fn lookup<'a>(&self, item: &'a Item) -> Option<&'a AttributeValue> {
        lookup(item, &self.steps)
    }

    /// The path without its last step, if any remain.
    pub fn parent_steps(&self) -> &[Step] {
        &self.steps[..self.steps.len() - 1]
    }

    pub fn last(&self) -> &Step {
        self.steps.last().expect("a path has at least one step (Path::new checks)")
    }

    pub fn relation(&self, other: &Path) -> Relation {
        for (a, b) in self.steps.iter().zip(&other.steps) {
            match (a, b) {
                (Step::Key(x), Step::Key(y)) if x == y => {}
                (Step::Index(x), Step::Index(y)) if x == y => {}
                (Step::Key(_), Step::Key(_)) | (Step::Index(_), Step::Index(_)) => return Relation::Apart,
                _ => return Relation::Conflict,
            }
        }
        Relation::Overlap
    }
}

/// The value at `steps` inside `item`. `steps` must start with a key (else `None`).
pub(super) fn lookup<'a>(item: &'a Item, steps: &[Step]) -> Option<&'a AttributeValue> {
    let (Step::Key(first), rest) = steps.split_first()? else {
        return None;
    };
    let mut value = item.get(first)?;
    for step in rest {
        value = match (value, step) {
            (AttributeValue::M(map), Step::Key(key)) => map.get(key)?,
            (AttributeValue::L(list), Step::Index(index)) => list.get(*index)?,
            _ => return None,
        };
    }
    Some(value)
}

/// DynamoDB's form in messages: `[a, b, [2], c]`.
impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, step) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match step {
                Step::Key(key) => f.write_str(key)?,
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        f.write_str("]")
    }
}

/// The two messages DynamoDB gives for paths one request may not touch together.
pub(super) fn relation_message(relation: Relation, one: &Path, two: &Path) -> Option<String> {
    let verb = match relation {
        Relation::Apart => return None,
        Relation::Overlap => "overlap",
        Relation::Conflict => "conflict",
    };
    Some(format!(
        "Two document paths {verb} with each other; must remove or rewrite one of these paths; \
         path one: {one}, path two: {two}"
    ))
}

#[cfg(test)]
pub(super) fn path(text: &str) -> Path {
    // Test helper: `a.b[2].c` with no placeholders.
    let mut steps = Vec::new();
    for part in text.split('.') {
        let (name, indexes) = part.split_once('[').map_or((part, ""), |(n, rest)| (n, rest));
        steps.push(Step::Key(name.to_owned()));
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            steps.push(Step::Index(index.trim_end_matches(']').parse().expect("test path index")));
        }
    }
    Path::new(steps).expect("test path starts with a name")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::value::AttributeValue as V;

    #[test]
    fn shows_paths_like_dynamodb() {
        assert_eq!(path("a").to_string(), "[a]");
        assert_eq!(path("a.b[2][0].c").to_string(), "[a, b, [2], [0], c]");
    }

    #[test]
    fn relations() {
        let cases = [
            ("a", "a", Relation::Overlap),
            ("a", "a.b", Relation::Overlap),
            ("a.b.c", "a.b", Relation::Overlap),
            ("a[1]", "a[1][2]", Relation::Overlap),
            ("a", "b", Relation::Apart),
            ("a.b", "a.c", Relation::Apart),
            ("a[1]", "a[2]", Relation::Apart),
            ("a.b", "a[1]", Relation::Conflict),
            ("a.b.c", "a.b[2]", Relation::Conflict),
        ];
        for (one, two, relation) in cases {
            assert_eq!(path(one).relation(&path(two)), relation, "{one} vs {two}");
            assert_eq!(path(two).relation(&path(one)), relation, "{two} vs {one}");
        }
    }

    #[test]
    fn looks_up_nested_values() {
        let inner = V::M([("c".to_owned(), V::n(7))].into());
        let item: Item = [("a".to_owned(), V::L(vec![V::n(1), inner]))].into();
        assert_eq!(path("a[1].c").lookup(&item), Some(&V::n(7)));
        assert_eq!(path("a[0]").lookup(&item), Some(&V::n(1)));
        let missing = ["b", "a[2]", "a.c", "a[1].d", "a[0].c", "a[1][0]"];
        for text in missing {
            assert_eq!(path(text).lookup(&item), None, "path {text}");
        }
    }
}

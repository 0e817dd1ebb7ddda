//! Properties: no parser panics on any text, updates are all-or-nothing, and SET/REMOVE agree
//! with a plain model of an item.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::json;

use super::{context, item};
use crate::engine::expr::{
    ExpressionContext, ExpressionKind, parse_condition, parse_key_condition, parse_projection, parse_update,
};
use crate::engine::value::{AttributeValue, Item};

/// Pieces of every grammar, including the mistakes the parsers must refuse without panicking.
const TOKENS: &[&str] = &[
    "a",
    "b",
    "m",
    "l",
    "n",
    "s",
    "ss",
    "pk",
    "status",
    "#s",
    "#m",
    "#nope",
    ":n5",
    ":one",
    ":s",
    ":ss",
    ":l",
    ":true",
    ":nope",
    ":",
    "#",
    "(",
    ")",
    "((",
    "[",
    "]",
    "0",
    "1",
    "99999999999999999999999",
    ".",
    ",",
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "AND",
    "OR",
    "NOT",
    "BETWEEN",
    "IN",
    "and",
    "SET",
    "REMOVE",
    "ADD",
    "DELETE",
    "set",
    "size",
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "if_not_exists",
    "list_append",
    "dog",
    "_",
    "é",
    "\"",
    "!",
];

fn token_soup() -> impl Strategy<Value = String> {
    (proptest::collection::vec(proptest::sample::select(TOKENS), 0..24), any::<bool>())
        .prop_map(|(tokens, spaced)| tokens.join(if spaced { " " } else { "" }))
}

/// Items that exercise every type the operands can meet.
fn items() -> Vec<Item> {
    vec![
        Item::new(),
        item(&json!({"a": {"N": "1"}, "b": {"S": "x"}, "n": {"N": "5"}, "s": {"S": "hello"}})),
        item(&json!({
            "a": {"L": [{"N": "1"}, {"M": {"b": {"S": "y"}}}]},
            "m": {"M": {"a": {"SS": ["a", "b"]}, "b": {"L": []}}},
            "l": {"L": [{"N": "0"}, {"L": [{"N": "1"}]}]},
            "ss": {"SS": ["a"]}, "status": {"BOOL": true}, "pk": {"B": "AQ=="}, "n": {"NULL": true}
        })),
    ]
}

/// Parses `text` with every parser; runs whatever parses against the sample items.
fn exercise(text: &str) {
    let _ = parse_key_condition(text, &mut context());
    if let Ok(projection) = parse_projection(text, &mut context()) {
        for item in items() {
            let kept = projection.apply(&item);
            assert!(kept.keys().all(|name| item.contains_key(name)));
        }
    }
    if let Ok(condition) = parse_condition(ExpressionKind::Filter, text, &mut context()) {
        for item in items() {
            assert!(condition.evaluate(&item).is_ok());
        }
    }
    if let Ok(update) = parse_update(text, &mut context()) {
        for original in items() {
            let mut changed = original.clone();
            if update.apply(&mut changed).is_err() {
                assert_eq!(changed, original, "a failed update changed the item: {text}");
            }
        }
    }
}

/// One top-level action of the model test.
#[derive(Debug, Clone)]
enum Op {
    Set(i64),
    Copy(usize),
    Remove,
}

const NAMES: [&str; 5] = ["a", "b", "c", "d", "e"];

fn ops() -> impl Strategy<Value = Vec<(usize, Op)>> {
    let op =
        prop_oneof![any::<i64>().prop_map(Op::Set), (0..NAMES.len()).prop_map(Op::Copy), Just(Op::Remove)];
    // Each attribute at most once: DynamoDB refuses overlapping paths.
    proptest::collection::btree_map(0..NAMES.len(), op, 1..NAMES.len()).prop_map(|m| m.into_iter().collect())
}

fn start_item() -> impl Strategy<Value = BTreeMap<usize, i64>> {
    proptest::collection::btree_map(0..NAMES.len(), any::<i64>(), 0..NAMES.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_parser_panics_on_arbitrary_text(text in "\\PC{0,80}") {
        exercise(&text);
    }

    #[test]
    fn no_parser_panics_on_token_soup(text in token_soup()) {
        exercise(&text);
    }

    #[test]
    fn set_and_remove_agree_with_a_model(start in start_item(), ops in ops()) {
        let mut values = BTreeMap::new();
        let mut sets = Vec::new();
        let mut removes = Vec::new();
        for (i, (target, op)) in ops.iter().enumerate() {
            match op {
                Op::Set(v) => {
                    values.insert(format!(":v{i}"), AttributeValue::n(*v));
                    sets.push(format!("{} = :v{i}", NAMES[*target]));
                }
                Op::Copy(from) => sets.push(format!("{} = {}", NAMES[*target], NAMES[*from])),
                Op::Remove => removes.push(NAMES[*target].to_owned()),
            }
        }
        let mut clauses = Vec::new();
        if !sets.is_empty() {
            clauses.push(format!("SET {}", sets.join(", ")));
        }
        if !removes.is_empty() {
            clauses.push(format!("REMOVE {}", removes.join(", ")));
        }
        let text = clauses.join(" ");
        let mut ctx = ExpressionContext::new(BTreeMap::new(), values.clone());
        let update = parse_update(&text, &mut ctx).expect("the generated update parses");
        prop_assert_eq!(ctx.finish(), Ok(()));

        // The model: every operand reads the starting item.
        let mut model = start.clone();
        let mut missing_source = false;
        for (target, op) in &ops {
            match op {
                Op::Set(v) => { model.insert(*target, *v); }
                Op::Copy(from) => match start.get(from) {
                    Some(v) => { model.insert(*target, *v); }
                    None => missing_source = true,
                },
                Op::Remove => { model.remove(target); }
            }
        }
        let to_item = |m: &BTreeMap<usize, i64>| -> Item {
            m.iter().map(|(k, v)| (NAMES[*k].to_owned(), AttributeValue::n(*v))).collect()
        };
        let original = to_item(&start);
        let mut updated = original.clone();
        let result = update.apply(&mut updated);
        if missing_source {
            prop_assert!(result.is_err());
            prop_assert_eq!(&updated, &original);
            return Ok(());
        }
        prop_assert_eq!(result, Ok(()));
        prop_assert_eq!(&updated, &to_item(&model));

        // Conditions read the updated item as the model says.
        for (k, name) in NAMES.iter().enumerate() {
            let mut values = BTreeMap::new();
            values.insert(":v".to_owned(), AttributeValue::n(model.get(&k).copied().unwrap_or(0)));
            let mut ctx = ExpressionContext::new(BTreeMap::new(), values);
            let text = format!("attribute_exists({name}) AND {name} = :v OR attribute_not_exists({name})");
            let condition = parse_condition(ExpressionKind::Condition, &text, &mut ctx).expect("parses");
            prop_assert!(condition.evaluate(&updated).expect("evaluates"));
            let mut ctx = ExpressionContext::new(BTreeMap::new(), BTreeMap::new());
            let exists = parse_condition(ExpressionKind::Condition, &format!("attribute_exists({name})"), &mut ctx)
                .expect("parses");
            prop_assert_eq!(exists.evaluate(&updated).expect("evaluates"), model.contains_key(&k));
        }
    }

    #[test]
    fn list_element_sets_and_removes_use_the_original_indexes(
        len in 0usize..8,
        sets in proptest::collection::btree_map(0usize..12, any::<i64>(), 0..4),
        removes in proptest::collection::btree_set(0usize..12, 0..4),
    ) {
        let removes: Vec<usize> = removes.into_iter().filter(|i| !sets.contains_key(i)).collect();
        if sets.is_empty() && removes.is_empty() {
            return Ok(());
        }
        let mut values = BTreeMap::new();
        let mut actions = Vec::new();
        for (index, v) in &sets {
            values.insert(format!(":v{index}"), AttributeValue::n(*v));
            actions.push(format!("l[{index}] = :v{index}"));
        }
        let mut clauses = Vec::new();
        if !actions.is_empty() {
            clauses.push(format!("SET {}", actions.join(", ")));
        }
        if !removes.is_empty() {
            let paths: Vec<String> = removes.iter().map(|i| format!("l[{i}]")).collect();
            clauses.push(format!("REMOVE {}", paths.join(", ")));
        }
        let text = clauses.join(" ");
        let update = parse_update(&text, &mut ExpressionContext::new(BTreeMap::new(), values))
            .expect("the generated update parses");

        let list: Vec<AttributeValue> = (0..len).map(|i| AttributeValue::n(i64::try_from(i).expect("small"))).collect();
        let mut updated: Item = [("l".to_owned(), AttributeValue::L(list.clone()))].into();
        update.apply(&mut updated).expect("a list exists, so every path is valid");

        // The model: replace in place, drop removed indexes, then append the rest in index order.
        let mut model: Vec<AttributeValue> = list
            .iter()
            .enumerate()
            .filter(|(i, _)| !removes.contains(i))
            .map(|(i, v)| sets.get(&i).map_or_else(|| v.clone(), |n| AttributeValue::n(*n)))
            .collect();
        model.extend(sets.range(len..).map(|(_, n)| AttributeValue::n(*n)));
        prop_assert_eq!(updated.get("l"), Some(&AttributeValue::L(model)));
    }
}

//! ProjectionExpression, and the ExpressionContext bookkeeping shared by every expression.

use std::collections::BTreeMap;

use serde_json::json;

use super::{context, item, value};
use crate::engine::expr::{
    ExpressionContext, ExpressionKind, parse_condition, parse_projection, parse_update,
};
use crate::engine::value::item_to_json;

#[test]
fn keeps_paths_inside_their_maps_and_lists() {
    let source = item(&json!({
        "a": {"N": "1"},
        "b": {"S": "x"},
        "status": {"S": "on"},
        "l": {"L": [{"N": "0"}, {"N": "1"}, {"L": [{"N": "20"}, {"N": "21"}]}, {"M": {"k": {"S": "v"}, "j": {"N": "2"}}}]},
        "m": {"M": {
            "a": {"N": "1"},
            "kid": {"M": {"deep": {"S": "x"}, "other": {"S": "y"}}},
            "nums": {"L": [{"N": "10"}, {"N": "20"}]}
        }}
    }));
    let cases = [
        ("a, b", json!({"a": {"N": "1"}, "b": {"S": "x"}})),
        ("a, absent", json!({"a": {"N": "1"}})),
        ("#s", json!({"status": {"S": "on"}})),
        ("m.a", json!({"m": {"M": {"a": {"N": "1"}}}})),
        ("m.kid.deep, m.a", json!({"m": {"M": {"a": {"N": "1"}, "kid": {"M": {"deep": {"S": "x"}}}}}})),
        ("m.nums[1]", json!({"m": {"M": {"nums": {"L": [{"N": "20"}]}}}})),
        // List elements close up, in index order.
        ("l[3].k, l[0]", json!({"l": {"L": [{"N": "0"}, {"M": {"k": {"S": "v"}}}]}})),
        ("l[2][1]", json!({"l": {"L": [{"L": [{"N": "21"}]}]}})),
        // Nothing found, nothing kept: no empty map or list.
        ("l[9]", json!({})),
        ("m.zz", json!({})),
        ("m.a.b", json!({})),
        ("a.b, b[0]", json!({})),
        ("m, b", json!({"m": item_to_json(&source)["m"].clone(), "b": {"S": "x"}})),
    ];
    for (text, expected) in cases {
        let projection = parse_projection(text, &mut context()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(item_to_json(&projection.apply(&source)), expected, "{text}");
    }
}

#[test]
fn attributes_are_the_top_level_names() {
    let projection = parse_projection("m.a, l[0], #s, m.b", &mut context()).expect("parses");
    assert_eq!(projection.attributes().into_iter().collect::<Vec<_>>(), ["l", "m", "status"]);
    assert_eq!(projection.len(), 4);
}

#[test]
fn errors() {
    let cases = [
        ("", "The expression can not be empty;".to_owned()),
        ("a b", r#"Syntax error; token: "b", near: "a b""#.to_owned()),
        ("a,", r#"Syntax error; token: "<EOF>", near: ",""#.to_owned()),
        ("a, :s", r#"Syntax error; token: ":s", near: ", :s""#.to_owned()),
        ("size(a)", r#"Syntax error; token: "(", near: "size(a""#.to_owned()),
        ("status", "Attribute name is a reserved keyword; reserved keyword: status".to_owned()),
        (
            "a.#nope",
            "An expression attribute name used in the document path is not defined; attribute name: #nope"
                .to_owned(),
        ),
        (
            "a, a",
            "Two document paths overlap with each other; must remove or rewrite one of these paths; \
             path one: [a], path two: [a]"
                .to_owned(),
        ),
        (
            "a.b, a",
            "Two document paths overlap with each other; must remove or rewrite one of these paths; \
             path one: [a, b], path two: [a]"
                .to_owned(),
        ),
        (
            "a.b, a[0]",
            "Two document paths conflict with each other; must remove or rewrite one of these paths; \
             path one: [a, b], path two: [a, [0]]"
                .to_owned(),
        ),
    ];
    for (text, expected) in cases {
        let error = parse_projection(text, &mut context()).expect_err(text);
        assert_eq!(error.message, format!("Invalid ProjectionExpression: {expected}"), "{text}");
    }
}

#[test]
fn a_path_reaches_at_most_32_levels_deep() {
    // AWS "Constraints": documents nest up to 32 levels, and a path cannot reach deeper.
    let path = |parts: usize| format!("a{}", ".b".repeat(parts - 1));
    assert!(parse_projection(&path(32), &mut context()).is_ok());
    assert!(parse_projection("a[0][1][2][3][4][5][6][7][8][9][10][11][12][13][14][15][16][17][18][19][20][21][22][23][24][25][26][27][28][29][30]", &mut context()).is_ok());
    for parts in [33, 100, 500] {
        let error = parse_projection(&path(parts), &mut context()).expect_err("too deep");
        assert_eq!(
            error.message,
            format!(
                "Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: {parts}"
            )
        );
    }
    // The same rule holds wherever a path appears.
    let deep = format!("attribute_exists({})", path(33));
    let error = parse_condition(ExpressionKind::Condition, &deep, &mut context()).expect_err("too deep");
    assert!(error.message.ends_with("nesting levels: 33"), "{}", error.message);
    let deep = format!("SET {} = :s", path(33));
    let error = parse_update(&deep, &mut context()).expect_err("too deep");
    assert!(error.message.ends_with("nesting levels: 33"), "{}", error.message);
}

fn request_context(names: &[(&str, &str)], values: &[&str]) -> ExpressionContext {
    let names: BTreeMap<String, String> =
        names.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let values = values.iter().map(|k| ((*k).to_owned(), value(&json!({"S": "v"})))).collect();
    ExpressionContext::new(names, values)
}

#[test]
fn unused_names_and_values_are_refused() {
    let mut ctx = request_context(&[("#a", "a"), ("#b", "b")], &[":x", ":y"]);
    parse_condition(ExpressionKind::Condition, "#a = :y", &mut ctx).expect("parses");
    assert_eq!(
        ctx.finish().expect_err("#b and :x are unused").message,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"
    );

    let mut ctx = request_context(&[("#a", "a")], &[":x", ":y", ":z"]);
    parse_update("SET #a = :y", &mut ctx).expect("parses");
    assert_eq!(
        ctx.finish().expect_err(":x and :z are unused").message,
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x, :z}"
    );

    // Names and values are shared by every expression of a request.
    let mut ctx = request_context(&[("#a", "a"), ("#p", "p")], &[":x", ":y"]);
    parse_condition(ExpressionKind::Condition, "attribute_exists(#a) AND b = :x", &mut ctx).expect("parses");
    parse_update("SET c = :y", &mut ctx).expect("parses");
    parse_projection("#p", &mut ctx).expect("parses");
    assert_eq!(ctx.finish(), Ok(()));

    assert_eq!(ExpressionContext::default().finish(), Ok(()));
}

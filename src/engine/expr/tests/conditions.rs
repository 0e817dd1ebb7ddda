//! ConditionExpression / FilterExpression: evaluation and parse-time errors.

use serde_json::{Value as Json, json};

use super::{context, item};
use crate::engine::expr::{ExpressionKind, parse_condition};

/// One item with every type, used by the evaluation table.
fn sample() -> Json {
    json!({
        "pk": {"S": "user#1"},
        "n": {"N": "5"}, "five": {"N": "5"}, "neg": {"N": "-2.5"},
        "s": {"S": "hello"}, "str5": {"S": "5"}, "e": {"S": ""}, "status": {"S": "active"},
        "b": {"B": "aGVsbG8="},
        "t": {"BOOL": true}, "z": {"NULL": true},
        "l": {"L": [{"N": "1"}, {"S": "two"}, {"L": [{"N": "3"}]}]},
        "m": {"M": {
            "a": {"N": "1"},
            "kid": {"M": {"deep": {"S": "x"}}},
            "nums": {"L": [{"N": "10"}, {"N": "20"}]}
        }},
        "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": ["AQ=="]}
    })
}

fn evaluate(text: &str) -> bool {
    let mut ctx = context();
    let condition = parse_condition(ExpressionKind::Condition, text, &mut ctx)
        .unwrap_or_else(|e| panic!("{text:?} should parse: {e}"));
    condition.evaluate(&item(&sample())).expect("evaluation never fails")
}

#[test]
fn comparisons() {
    let cases = [
        ("n = :n5", true),
        ("n = :str5", false), // N and S are never equal
        ("n <> :str5", true),
        ("n <> :n5", false),
        ("n = five", true),
        ("absent = :n5", false),
        ("absent <> :n5", true), // a missing attribute is "not equal" to anything
        ("absent <> gone", true),
        ("absent = gone", false),
        ("n < :n6", true),
        ("n < :n5", false),
        ("n <= :n5", true),
        ("n > :n4", true),
        ("n >= :n6", false),
        (":n4 < n", true),
        ("neg < :n0", true),
        ("s < :x", true),
        ("s > :he", true),
        ("s > :str5", true),
        ("s > :Z", true),      // bytes: 'Z' (0x5A) < 'h'
        ("s < :eacute", true), // bytes: 'h' < 0xC3
        ("n < :str5", false),  // never ordered across types
        ("str5 < :n6", false),
        ("b > :b_he", true),
        ("b < :b_ll", true),
        ("absent < :n5", false),
        (":n5 > absent", false),
        ("absent < gone", false),
        ("l < :n5", false), // an item attribute of an unordered type is just false
        ("ss = :ss", true),
        ("m.a = :one", true),
        ("m.kid.deep = :x", true),
        ("m.nums[1] > m.nums[0]", true),
        ("l[0] = :one", true),
        ("l[2][0] = :three", true),
        ("l[5] = :one", false),
        ("l.a = :one", false),
        ("m[0] = :one", false),
        ("#m.a = :one", true),
        ("#s = :active", true),
        ("#dot = :one", false),
    ];
    for (text, expected) in cases {
        assert_eq!(evaluate(text), expected, "{text}");
    }
}

#[test]
fn between_and_in() {
    let cases = [
        ("n BETWEEN :n4 AND :n6", true),
        ("n BETWEEN :n5 AND :n5", true),
        ("n BETWEEN :n6 AND :n10", false),
        ("n between :n4 and :n6", true),
        ("s BETWEEN :a AND :x", true),
        ("n BETWEEN :a AND :x", false),
        ("absent BETWEEN :n4 AND :n6", false),
        ("n BETWEEN five AND :n6", true),
        ("n BETWEEN :n6 AND five", false), // bounds from the item may be reversed: just false
        ("n BETWEEN :n4 AND :n6 AND s = :s", true),
        ("n IN (:n4, :n5)", true),
        ("n IN (:n4, :str5)", false),
        ("s IN (:x, :s)", true),
        ("absent IN (:n5)", false),
        ("n IN (five)", true),
        ("n in (:n4,:n6)", false),
        ("ss IN (:ss)", true),
    ];
    for (text, expected) in cases {
        assert_eq!(evaluate(text), expected, "{text}");
    }
}

#[test]
fn logic_and_precedence() {
    let cases = [
        ("n = :n5 AND s = :s", true),
        ("n = :n5 and s = :x", false),
        ("n = :n4 OR s = :s", true),
        ("n = :n4 OR s = :x", false),
        ("NOT n = :n4", true),
        ("NOT NOT n = :n5", true),
        ("not n = :n5", false),
        // AND binds tighter than OR: true OR (false AND false).
        ("n = :n5 OR n = :n4 AND s = :x", true),
        // NOT binds tighter than AND: (NOT true) AND false, not NOT (true AND false).
        ("NOT n = :n5 AND n = :n4", false),
        ("NOT (n = :n5 AND n = :n4)", true),
        ("(n = :n4 OR n = :n5) AND s = :s", true),
        ("(n = :n4 OR n = :n5) AND (s = :x OR (t = :true AND z = :null))", true),
        ("(n) = :n5", true),
        ("n = (:n5)", true),
        ("NOT absent = :n5", true),
    ];
    for (text, expected) in cases {
        assert_eq!(evaluate(text), expected, "{text}");
    }
}

#[test]
fn functions() {
    let cases = [
        ("attribute_exists(n)", true),
        ("attribute_exists (n)", true),
        ("attribute_exists(absent)", false),
        ("attribute_exists(z)", true), // a NULL value exists
        ("attribute_exists(m.kid.deep)", true),
        ("attribute_exists(l[9])", false),
        ("attribute_not_exists(absent)", true),
        ("attribute_not_exists(n)", false),
        ("attribute_type(n, :N)", true),
        ("attribute_type(n, :S)", false),
        ("attribute_type(s, :S)", true),
        ("attribute_type(b, :B)", true),
        ("attribute_type(ss, :SS)", true),
        ("attribute_type(ns, :NS)", true),
        ("attribute_type(bs, :BS)", true),
        ("attribute_type(t, :BOOL)", true),
        ("attribute_type(z, :NULL)", true),
        ("attribute_type(l, :L)", true),
        ("attribute_type(m, :M)", true),
        ("attribute_type(absent, :S)", false),
        ("attribute_type(:s, :S)", true),
        ("begins_with(s, :he)", true),
        ("begins_with(s, :ell)", false),
        ("begins_with(s, :empty)", true),
        ("begins_with(b, :b_he)", true),
        ("begins_with(s, :b_he)", false),
        ("begins_with(n, :he)", false),
        ("begins_with(absent, :he)", false),
        ("begins_with(:s, s)", true),
        ("contains(s, :ell)", true),
        ("contains(s, :x)", false),
        ("contains(s, :empty)", true),
        ("contains(b, :b_ll)", true),
        ("contains(ss, :a)", true),
        ("contains(ss, :x)", false),
        ("contains(ns, :one)", true),
        ("contains(ns, :str5)", false),
        ("contains(bs, :b1)", true),
        ("contains(l, :one)", true),
        ("contains(l, :l3)", true), // a list element may itself be a list
        ("contains(n, :one)", false),
        ("contains(absent, :one)", false),
        ("size(s) = :n5", true),
        ("size(e) = :n0", true),
        ("size(b) = :n5", true),
        ("size(ss) = :two", true),
        ("size(l) = :three", true),
        ("size(m) = :three", true),
        ("size(m.nums) = :two", true),
        ("size(n) = :one", false), // N, BOOL and NULL have no size
        ("size(t) >= :n0", false),
        ("size(absent) = :n0", false),
        ("size(s) = :str5", false),
        ("size(s) > size(ss)", true),
        ("size(:s) = :n5", true),
        ("size(s) BETWEEN :n4 AND :n6", true),
        ("size(s) IN (:n5)", true),
    ];
    for (text, expected) in cases {
        assert_eq!(evaluate(text), expected, "{text}");
    }
}

fn parse_error(kind: ExpressionKind, text: &str) -> String {
    match parse_condition(kind, text, &mut context()) {
        Ok(condition) => panic!("{text:?} should not parse, got {condition:?}"),
        Err(e) => e.message,
    }
}

#[test]
fn syntax_errors_name_the_token_and_its_neighbours() {
    let cases = [
        ("a =", r#"token: "<EOF>", near: "=""#),
        ("a = :n5 b", r#"token: "b", near: ":n5 b""#),
        ("a", r#"token: "<EOF>", near: "a""#),
        ("a AND b = :s", r#"token: "AND", near: "a AND b""#),
        ("a IN ()", r#"token: ")", near: "()""#),
        ("a = :s AND", r#"token: "<EOF>", near: "AND""#),
        ("a ! b", r#"token: "!", near: "a ! b""#),
        ("and = :s", r#"token: "and", near: "and =""#),
        ("a = :s OR OR b = :s", r#"token: "OR", near: "OR OR b""#),
        ("a BETWEEN :n4 :n6", r#"token: ":n6", near: ":n4 :n6""#),
        ("a = \"x\"", r#"token: """, near: "= "x""#),
        ("a.in = :s", r#"token: "in", near: ".in =""#),
        ("a[x] = :s", r#"token: "x", near: "[x]""#),
        ("_a = :s", r#"token: "_", near: "_a""#),
        ("a = :s b = :s", r#"token: "b", near: ":s b =""#),
        ("(a = :s", r#"token: "<EOF>", near: ":s""#),
        ("é", r#"token: "é", near: "é""#),
        ("size(a) < size()", r#"token: ")", near: "()""#),
        ("a = :", r#"token: ":", near: "= :""#),
        ("# = :s", r##"token: "#", near: "# =""##),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_error(ExpressionKind::Condition, text),
            format!("Invalid ConditionExpression: Syntax error; {expected}"),
            "{text}"
        );
    }
    assert_eq!(
        parse_error(ExpressionKind::Filter, "a ="),
        r#"Invalid FilterExpression: Syntax error; token: "<EOF>", near: "=""#
    );
}

#[test]
fn placeholder_and_type_errors_read_as_dynamodb_writes_them() {
    let operand_type = "Incorrect operand type for operator or function; operator or function:";
    let cases = [
        ("", "The expression can not be empty;".to_owned()),
        ("   ", "The expression can not be empty;".to_owned()),
        ("status = :s", "Attribute name is a reserved keyword; reserved keyword: status".to_owned()),
        ("a.Status = :s", "Attribute name is a reserved keyword; reserved keyword: Status".to_owned()),
        (
            "#undefined = :s",
            "An expression attribute name used in the document path is not defined; attribute name: #undefined"
                .to_owned(),
        ),
        (
            "a = :nope",
            "An expression attribute value used in expression is not defined; attribute value: :nope".to_owned(),
        ),
        ("a < :true", format!("{operand_type} <, operand type: BOOL")),
        ("a >= :m", format!("{operand_type} >=, operand type: M")),
        (":l > a", format!("{operand_type} >, operand type: L")),
        ("a BETWEEN :null AND :n5", format!("{operand_type} BETWEEN, operand type: NULL")),
        (
            "a BETWEEN :n6 AND :n4",
            "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; \
             lower bound operand: AttributeValue: {N:6}, upper bound operand: AttributeValue: {N:4}"
                .to_owned(),
        ),
        (
            "a BETWEEN :n4 AND :s",
            "The BETWEEN operator requires same data type for lower and upper bounds; \
             lower bound operand: AttributeValue: {N:4}, upper bound operand: AttributeValue: {S:hello}"
                .to_owned(),
        ),
        ("begins_with(a, :n5)", format!("{operand_type} begins_with, operand type: N")),
        ("begins_with(a, size(b))", format!("{operand_type} begins_with, operand type: N")),
        ("size(:n5) = :n5", format!("{operand_type} size, operand type: N")),
        ("size(:true) = :n5", format!("{operand_type} size, operand type: BOOL")),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_error(ExpressionKind::Condition, text),
            format!("Invalid ConditionExpression: {expected}"),
            "{text}"
        );
    }
}

#[test]
fn function_errors_read_as_dynamodb_writes_them() {
    let operand_type = "Incorrect operand type for operator or function; operator or function:";
    let cases = [
        (
            "size(a)",
            "The function is not allowed to be used this way in an expression; function: size".to_owned(),
        ),
        (
            "attribute_exists(a) = :true",
            "The function is not allowed to be used this way in an expression; function: attribute_exists"
                .to_owned(),
        ),
        (
            "contains(begins_with(a, :s), :s)",
            "The function is not allowed to be used this way in an expression; function: begins_with".to_owned(),
        ),
        (
            "if_not_exists(a, :s) = :s",
            "The function is not allowed to be used this way in an expression; function: if_not_exists"
                .to_owned(),
        ),
        ("dog(a) = :s", "Invalid function name; function: dog".to_owned()),
        ("dog(a)", "Invalid function name; function: dog".to_owned()),
        ("BEGINS_WITH(a, :s)", "Invalid function name; function: BEGINS_WITH".to_owned()),
        (
            "attribute_exists(:s)",
            "Operator or function requires a document path; operator or function: attribute_exists".to_owned(),
        ),
        (
            "attribute_not_exists(size(a))",
            "Operator or function requires a document path; operator or function: attribute_not_exists"
                .to_owned(),
        ),
        (
            "attribute_exists(a, b)",
            "Incorrect number of operands for operator or function; operator or function: attribute_exists, \
             number of operands: 2"
                .to_owned(),
        ),
        (
            "size(a, a) = :n5",
            "Incorrect number of operands for operator or function; operator or function: size, number of operands: 2"
                .to_owned(),
        ),
        (
            "contains(a)",
            "Incorrect number of operands for operator or function; operator or function: contains, \
             number of operands: 1"
                .to_owned(),
        ),
        (
            "attribute_type(a, :dog)",
            "Invalid attribute type name found; type: DOG, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}".to_owned(),
        ),
        ("attribute_type(a, :n5)", format!("{operand_type} attribute_type, operand type: N")),
        ("attribute_type(a, b)", format!("{operand_type} attribute_type, operand type: {{NS,SS,L,BS,N,M,B,BOOL,NULL,S}}")),
        (
            "a = a",
            "The first operand must be distinct from the remaining operands for this operator or function; \
             operator: =, first operand: [a]"
                .to_owned(),
        ),
        (
            "contains(a.b[1], a.b[1])",
            "The first operand must be distinct from the remaining operands for this operator or function; \
             operator: contains, first operand: [a, b, [1]]"
                .to_owned(),
        ),
        ("((a = :s))", "The expression has redundant parentheses;".to_owned()),
        ("a = ((:s))", "The expression has redundant parentheses;".to_owned()),
        ("((a)) = :s", "The expression has redundant parentheses;".to_owned()),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_error(ExpressionKind::Condition, text),
            format!("Invalid ConditionExpression: {expected}"),
            "{text}"
        );
    }
}

#[test]
fn a_syntax_error_anywhere_outranks_other_mistakes() {
    assert_eq!(
        parse_error(ExpressionKind::Condition, "status = :nope AND"),
        r#"Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "AND""#
    );
    // Among the rest, an undefined placeholder comes before a type mistake.
    assert_eq!(
        parse_error(ExpressionKind::Condition, "a < :true AND b = :nope"),
        "Invalid ConditionExpression: An expression attribute value used in expression is not defined; \
         attribute value: :nope"
    );
}

#[test]
fn limits() {
    let in_list = |n: usize| format!("a IN ({})", vec![":s"; n].join(", "));
    // AWS: the list holds up to 100 values; the left operand is not counted.
    assert!(parse_condition(ExpressionKind::Condition, &in_list(100), &mut context()).is_ok());
    assert_eq!(
        parse_error(ExpressionKind::Condition, &in_list(101)),
        "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101"
    );

    // 151 comparisons and 150 ORs: 301 operators.
    let chain = |n: usize| vec!["a = :s"; n].join(" OR ");
    assert!(parse_condition(ExpressionKind::Condition, &chain(150), &mut context()).is_ok());
    assert_eq!(
        parse_error(ExpressionKind::Condition, &chain(151)),
        "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"
    );

    let long = format!("a = :s{}", " ".repeat(4091));
    assert_eq!(long.len(), 4097);
    assert_eq!(
        parse_error(ExpressionKind::Condition, &long),
        "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097"
    );
    assert!(parse_condition(ExpressionKind::Condition, &long[..4096], &mut context()).is_ok());

    // Pathological nesting is an error, not a stack overflow.
    let cases = [
        ("(".repeat(4000), r#"Syntax error; token: "<EOF>", near: "(""#),
        (
            format!("{}a = :s{}", "(".repeat(2000), ")".repeat(2000)),
            "The expression has redundant parentheses;",
        ),
        (
            format!("{}a = :s", "NOT ".repeat(1000)),
            "The expression contains too many operators; operator count: 301",
        ),
        (
            format!("{}a{} = :s", "size(".repeat(600), ")".repeat(600)),
            "The expression is nested too deeply; more than 128 levels of function calls or parentheses around an operand",
        ),
        (
            format!("a = {}:s{}", "(".repeat(2000), ")".repeat(2000)),
            "The expression is nested too deeply; more than 128 levels of function calls or parentheses around an operand",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_error(ExpressionKind::Condition, &text),
            format!("Invalid ConditionExpression: {expected}")
        );
    }
    let deep_but_fine = format!("{}a = :s{}", "(a = :s AND ".repeat(100), ")".repeat(100));
    assert!(parse_condition(ExpressionKind::Condition, &deep_but_fine, &mut context()).is_ok());
}

#[test]
fn attributes_are_the_top_level_names_read() {
    let condition = parse_condition(
        ExpressionKind::Filter,
        "a.b = :s AND size(c) > :n5 AND attribute_exists(#m.x) OR d IN (e, :s) OR NOT begins_with(f[1], g)",
        &mut context(),
    )
    .expect("parses");
    let names: Vec<String> = condition.attributes().into_iter().collect();
    assert_eq!(names, ["a", "c", "d", "e", "f", "g", "m"]);
}

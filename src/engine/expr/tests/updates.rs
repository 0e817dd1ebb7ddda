//! UpdateExpression: what each clause does to an item, and the errors before and during it.

use serde_json::{Value as Json, json};

use super::{context, item};
use crate::engine::expr::parse_update;

const MISSING: &str = "The provided expression refers to an attribute that does not exist in the item";
const WRONG_TYPE: &str = "An operand in the update expression has an incorrect data type";
const BAD_PATH: &str = "The document path provided in the update expression is invalid for update";

/// Applies `text` to `before`; the new item, or the error (and then the item must be untouched).
fn run(before: &Json, text: &str) -> Result<Json, String> {
    let update = parse_update(text, &mut context()).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"));
    let original = item(before);
    let mut changed = original.clone();
    match update.apply(&mut changed) {
        Ok(()) => Ok(crate::engine::value::item_to_json(&changed)),
        Err(e) => {
            assert_eq!(changed, original, "a failed update leaves the item as it was: {text}");
            Err(e.message)
        }
    }
}

fn n(x: &str) -> Json {
    json!({"N": x})
}

fn s(x: &str) -> Json {
    json!({"S": x})
}

#[test]
fn set() {
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (json!({}), "SET a = :n5", Ok(json!({"a": n("5")}))),
        (json!({}), "set a = :n5, b = :s", Ok(json!({"a": n("5"), "b": s("hello")}))),
        (json!({"a": s("x")}), "SET b = a", Ok(json!({"a": s("x"), "b": s("x")}))),
        (json!({"a": n("1")}), "SET a = :n5", Ok(json!({"a": n("5")}))),
        (json!({}), "SET b = absent", Err(MISSING)),
        // Operands read the item as it was: a swap works, and a value set earlier is not seen.
        (json!({"a": n("1"), "b": n("2")}), "SET a = b, b = a", Ok(json!({"a": n("2"), "b": n("1")}))),
        (json!({}), "SET x = :n5, y = x", Err(MISSING)),
        (json!({"a": s("x")}), "REMOVE a SET b = a", Ok(json!({"b": s("x")}))),
        (json!({"a": s("x")}), "SET b = a REMOVE a", Ok(json!({"b": s("x")}))),
        (json!({"#": s("x")}), "SET #s = :active", Ok(json!({"#": s("x"), "status": s("active")}))),
        (json!({}), "SET #dot = :one", Ok(json!({"a.b": n("1")}))),
        (json!({}), "SET a = (:n5)", Ok(json!({"a": n("5")}))),
        (json!({"b": n("1")}), "SET a = (b + :one)", Ok(json!({"a": n("2"), "b": n("1")}))),
        (json!({"b": n("1")}), "SET a = (b) + :one", Ok(json!({"a": n("2"), "b": n("1")}))),
    ];
    check(cases);
}

#[test]
fn arithmetic() {
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (json!({"n": n("5")}), "SET n = n + :one", Ok(json!({"n": n("6")}))),
        (json!({"n": n("5")}), "SET n = n - :n10", Ok(json!({"n": n("-5")}))),
        (json!({"n": n("5")}), "SET m = :n5 + n", Ok(json!({"m": n("10"), "n": n("5")}))),
        (json!({"n": n("5")}), "SET n = n + :neg", Ok(json!({"n": n("-2.5")}))),
        // Exact decimals, not floating point.
        (json!({"n": n("0.1")}), "SET n = n + :fifth", Ok(json!({"n": n("0.3")}))),
        (json!({}), "SET n = :tenth + :fifth", Ok(json!({"n": n("0.3")}))),
        (json!({"s": s("x")}), "SET n = s + :one", Err(WRONG_TYPE)),
        (json!({}), "SET n = absent + :one", Err(MISSING)),
        (json!({}), "SET n = if_not_exists(n, :n0) + :one", Ok(json!({"n": n("1")}))),
        (json!({"n": n("9")}), "SET n = if_not_exists(n, :n0) + :one", Ok(json!({"n": n("10")}))),
        (
            json!({"n": n("9E+125")}),
            "SET n = n + :big",
            Err("Number overflow. Attempting to store a number with magnitude larger than supported range"),
        ),
    ];
    check(cases);
}

#[test]
fn functions() {
    let l = |xs: &[Json]| json!({"L": xs});
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (json!({}), "SET a = if_not_exists(a, :n5)", Ok(json!({"a": n("5")}))),
        (json!({"a": n("1")}), "SET a = if_not_exists(a, :n5)", Ok(json!({"a": n("1")}))),
        (json!({"a": n("1")}), "SET b = if_not_exists(a, :n5)", Ok(json!({"a": n("1"), "b": n("1")}))),
        (json!({}), "SET b = if_not_exists(a, if_not_exists(c, :n5))", Ok(json!({"b": n("5")}))),
        (json!({}), "SET b = if_not_exists(a, c)", Err(MISSING)),
        (
            json!({"l": l(&[n("1")])}),
            "SET l = list_append(l, :l)",
            Ok(json!({"l": l(&[n("1"), s("x"), n("9")])})),
        ),
        (
            json!({"l": l(&[n("1")])}),
            "SET l = list_append(:l, l)",
            Ok(json!({"l": l(&[s("x"), n("9"), n("1")])})),
        ),
        (
            json!({}),
            "SET l = list_append(if_not_exists(l, :l3), :l)",
            Ok(json!({"l": l(&[n("3"), s("x"), n("9")])})),
        ),
        (json!({"l": s("x")}), "SET l = list_append(l, :l)", Err(WRONG_TYPE)),
        (json!({}), "SET l = list_append(l, :l)", Err(MISSING)),
    ];
    check(cases);
}

#[test]
fn nested_set() {
    let l = |xs: &[Json]| json!({"L": xs});
    let list = || json!({"l": l(&[n("0"), n("1"), n("2")])});
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (
            json!({"m": {"M": {"a": n("1")}}}),
            "SET m.b = :n5",
            Ok(json!({"m": {"M": {"a": n("1"), "b": n("5")}}})),
        ),
        (json!({"m": {"M": {"a": n("1")}}}), "SET #m.a = :n5", Ok(json!({"m": {"M": {"a": n("5")}}}))),
        (json!({}), "SET absent.b = :n5", Err(BAD_PATH)),
        (json!({"s": s("x")}), "SET s.b = :n5", Err(BAD_PATH)),
        (list(), "SET l[1] = :s", Ok(json!({"l": l(&[n("0"), s("hello"), n("2")])}))),
        // Past the end appends; several appends land in index order, whatever the written order.
        (list(), "SET l[10] = :s", Ok(json!({"l": l(&[n("0"), n("1"), n("2"), s("hello")])}))),
        (
            list(),
            "SET l[84] = :a, l[37] = :b, l[17] = :x",
            Ok(json!({"l": l(&[n("0"), n("1"), n("2"), s("x"), s("b"), s("a")])})),
        ),
        (json!({}), "SET l[0] = :n5", Err(BAD_PATH)),
        (list(), "SET l.x = :n5", Err(BAD_PATH)),
        (list(), "SET l[5].x = :n5", Err(BAD_PATH)),
        (
            json!({"a": {"M": {"c": l(&[s("hi"), json!({"M": {"x": {"M": {"y": l(&[n("3"), n("5")])}}}})])}}}),
            "SET a.c[1].x.y[1] = :n17",
            Ok(
                json!({"a": {"M": {"c": l(&[s("hi"), json!({"M": {"x": {"M": {"y": l(&[n("3"), n("17")])}}}})])}}}),
            ),
        ),
    ];
    check(cases);
}

#[test]
fn remove() {
    let l = |xs: &[&str]| json!({"L": xs.iter().map(|x| n(x)).collect::<Vec<_>>()});
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (json!({"a": n("1"), "b": n("2")}), "REMOVE a", Ok(json!({"b": n("2")}))),
        (json!({"a": n("1"), "b": n("2")}), "remove a, b", Ok(json!({}))),
        (json!({"a": n("1")}), "REMOVE absent", Ok(json!({"a": n("1")}))),
        // Indexes name the elements of the list as it was.
        (
            json!({"l": l(&["0", "1", "2", "3", "4"])}),
            "REMOVE l[1], l[3]",
            Ok(json!({"l": l(&["0", "2", "4"])})),
        ),
        (
            json!({"l": l(&["0", "1", "2", "3", "4"])}),
            "REMOVE l[3], l[1]",
            Ok(json!({"l": l(&["0", "2", "4"])})),
        ),
        (
            json!({"l": l(&["2", "3", "4", "5", "6", "7"])}),
            "REMOVE l[1] SET l[3] = :n17",
            Ok(json!({"l": l(&["2", "4", "17", "6", "7"])})),
        ),
        (
            json!({"l": l(&["2", "3", "4", "5", "6", "7"])}),
            "SET l[3] = :n17 REMOVE l[1]",
            Ok(json!({"l": l(&["2", "4", "17", "6", "7"])})),
        ),
        (json!({"l": l(&["0"])}), "REMOVE l[9]", Ok(json!({"l": l(&["0"])}))),
        (json!({"l": l(&["0"])}), "REMOVE l[0]", Ok(json!({"l": l(&[])}))),
        (json!({"m": {"M": {"a": n("1")}}}), "REMOVE m.a", Ok(json!({"m": {"M": {}}}))),
        (json!({"m": {"M": {"a": n("1")}}}), "REMOVE m.zz", Ok(json!({"m": {"M": {"a": n("1")}}}))),
        (json!({"a": n("1")}), "REMOVE absent.b", Err(BAD_PATH)),
        (json!({"s": s("x")}), "REMOVE s[0]", Err(BAD_PATH)),
        (json!({"s": s("x")}), "REMOVE s.a", Err(BAD_PATH)),
        // On an item that does not exist yet DynamoDB ignores any REMOVE.
        (json!({}), "REMOVE absent.b, x[0]", Ok(json!({}))),
    ];
    check(cases);
}

#[test]
fn add_and_delete() {
    let ss = |xs: &[&str]| json!({"SS": xs});
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (json!({}), "ADD n :n5", Ok(json!({"n": n("5")}))),
        (json!({"n": n("5")}), "ADD n :one", Ok(json!({"n": n("6")}))),
        (json!({"n": n("5")}), "add n :neg", Ok(json!({"n": n("-2.5")}))),
        (json!({"s": s("x")}), "ADD s :one", Err(WRONG_TYPE)),
        (json!({"ss": ss(&["a", "b"])}), "ADD ss :ss_bc", Ok(json!({"ss": ss(&["a", "b", "c"])}))),
        (json!({}), "ADD ss :ss", Ok(json!({"ss": ss(&["a", "b"])}))),
        (json!({"ss": ss(&["a"])}), "ADD ss :ns", Err(WRONG_TYPE)),
        (json!({"n": n("5")}), "ADD n :ss", Err(WRONG_TYPE)),
        (json!({"ns": {"NS": ["2"]}}), "ADD ns :ns", Ok(json!({"ns": {"NS": ["1", "2"]}}))),
        (json!({"bs": {"BS": ["Ag=="]}}), "ADD bs :bs", Ok(json!({"bs": {"BS": ["AQ==", "Ag=="]}}))),
        (json!({"m": {"M": {"c": n("1")}}}), "ADD m.c :one", Ok(json!({"m": {"M": {"c": n("2")}}}))),
        (json!({"m": {"M": {}}}), "ADD m.c :one", Ok(json!({"m": {"M": {"c": n("1")}}}))),
        (json!({}), "ADD absent.c :one", Err(BAD_PATH)),
        (json!({"ss": ss(&["a", "b"])}), "DELETE ss :ss_a", Ok(json!({"ss": ss(&["b"])}))),
        (json!({"ss": ss(&["a", "b"])}), "DELETE ss :ss_bc", Ok(json!({"ss": ss(&["a"])}))),
        // An emptied set is removed: DynamoDB stores no empty set.
        (json!({"ss": ss(&["a", "b"]), "x": n("1")}), "DELETE ss :ss", Ok(json!({"x": n("1")}))),
        (json!({}), "DELETE ss :ss_a", Ok(json!({}))),
        (json!({"ss": ss(&["a"])}), "DELETE ss :ns", Err(WRONG_TYPE)),
        (json!({"n": n("5")}), "DELETE n :ss", Err(WRONG_TYPE)),
        (json!({"ns": {"NS": ["1", "2"]}}), "DELETE ns :ns1", Ok(json!({"ns": {"NS": ["2"]}}))),
        (json!({"m": {"M": {"t": ss(&["a"])}}}), "DELETE m.t :ss_a", Ok(json!({"m": {"M": {}}}))),
    ];
    check(cases);
}

#[test]
fn every_clause_at_once_and_all_or_nothing() {
    let ss = |xs: &[&str]| json!({"SS": xs});
    let cases: Vec<(Json, &str, Result<Json, &str>)> = vec![
        (
            json!({"b": n("1"), "c": n("1"), "d": ss(&["a", "b"])}),
            "DELETE d :ss_a ADD c :one REMOVE b SET a = :n5",
            Ok(json!({"a": n("5"), "c": n("2"), "d": ss(&["b"])})),
        ),
        // `b` would be set before `s` fails; nothing may change.
        (json!({"a": n("1"), "s": s("x")}), "SET b = :n5 ADD s :one", Err(WRONG_TYPE)),
        (json!({"a": n("1"), "l": {"L": [n("1")]}}), "REMOVE a, l[0] SET z = absent", Err(MISSING)),
    ];
    check(cases);
}

fn check(cases: Vec<(Json, &str, Result<Json, &str>)>) {
    for (before, text, expected) in cases {
        let expected = expected.map_err(str::to_owned);
        assert_eq!(run(&before, text), expected, "{text} on {before}");
    }
}

#[test]
fn parse_errors() {
    let cases = [
        ("", "The expression can not be empty;".to_owned()),
        ("SET =", r#"Syntax error; token: "=", near: "SET =""#.to_owned()),
        ("SET a", r#"Syntax error; token: "<EOF>", near: "a""#.to_owned()),
        ("whatever", r#"Syntax error; token: "whatever", near: "whatever""#.to_owned()),
        ("HELLO b = :n5", r#"Syntax error; token: "HELLO", near: "HELLO b""#.to_owned()),
        ("SET a = b + c + d", r#"Syntax error; token: "+", near: "c + d""#.to_owned()),
        ("SET a = (b.c).d", r#"Syntax error; token: ".", near: ").d""#.to_owned()),
        ("SET a = if_not_exists(c, :n5 + :one)", r#"Syntax error; token: "+", near: ":n5 + :one""#.to_owned()),
        ("SET _123 = :n5", r#"Syntax error; token: "_", near: "SET _123""#.to_owned()),
        ("SET :n5 = a", r#"Syntax error; token: ":n5", near: "SET :n5 =""#.to_owned()),
        ("SET a[:n5] = :s", r#"Syntax error; token: ":n5", near: "[:n5]""#.to_owned()),
        ("SET a = :n5 REMOVE", r#"Syntax error; token: "<EOF>", near: "REMOVE""#.to_owned()),
        ("SET a = :n5,", r#"Syntax error; token: "<EOF>", near: ",""#.to_owned()),
        ("ADD a b", r#"Syntax error; token: "b", near: "a b""#.to_owned()),
        ("ADD hits : one", r#"Syntax error; token: ":", near: "hits : one""#.to_owned()),
        ("REMOVE a = b", r#"Syntax error; token: "=", near: "a = b""#.to_owned()),
        ("SET set = :n5", r#"Syntax error; token: "set", near: "SET set =""#.to_owned()),
        ("SET a = :n5 SET b = :n4", r#"The "SET" section can only be used once in an update expression;"#.to_owned()),
        ("REMOVE a SET b = :n5 REMOVE c", r#"The "REMOVE" section can only be used once in an update expression;"#.to_owned()),
        ("SET a = :n5, a = :n4", overlap("[a]", "[a]")),
        ("SET a = :n5 REMOVE a.b", overlap("[a]", "[a, b]")),
        ("SET #p = :n5 REMOVE pk", overlap("[pk]", "[pk]")),
        ("SET a[1][1] = :n5, a[1] = :n4", overlap("[a, [1], [1]]", "[a, [1]]")),
        (
            "SET a.b = :n5, a[1] = :n4",
            "Two document paths conflict with each other; must remove or rewrite one of these paths; \
             path one: [a, b], path two: [a, [1]]"
                .to_owned(),
        ),
        ("SET a = :s + :n5", operand_type("+", "S")),
        ("SET a = b - :true", operand_type("-", "BOOL")),
        ("SET a = if_not_exists(b, :s) + :one", operand_type("+", "S")),
        ("SET a = list_append(:s, b)", operand_type("list_append", "S")),
        ("SET a = list_append(b, :n5)", operand_type("list_append", "N")),
        (
            "SET a = list_append(list_append(a, :l), :l)",
            "The function is not allowed to be used this way in an expression; function: list_append".to_owned(),
        ),
        (
            "SET a = size(b)",
            "The function is not allowed to be used this way in an expression; function: size".to_owned(),
        ),
        (
            "SET a = if_not_exists(:s, b)",
            "Operator or function requires a document path; operator or function: if_not_exists".to_owned(),
        ),
        (
            "SET a = if_not_exists(a)",
            "Incorrect number of operands for operator or function; operator or function: if_not_exists, \
             number of operands: 1"
                .to_owned(),
        ),
        ("SET a = foo(b)", "Invalid function name; function: foo".to_owned()),
        ("SET a = LIST_APPEND(a, :l)", "Invalid function name; function: LIST_APPEND".to_owned()),
        ("ADD a :s", "Incorrect operand type for operator or function; operator: ADD, operand type: STRING".to_owned()),
        ("ADD a :l", "Incorrect operand type for operator or function; operator: ADD, operand type: LIST".to_owned()),
        ("ADD a :true", "Incorrect operand type for operator or function; operator: ADD, operand type: BOOLEAN".to_owned()),
        ("DELETE a :n5", "Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER".to_owned()),
        ("DELETE a :m", "Incorrect operand type for operator or function; operator: DELETE, operand type: MAP".to_owned()),
        ("REMOVE status", "Attribute name is a reserved keyword; reserved keyword: status".to_owned()),
        (
            "SET #undefined = :n5",
            "An expression attribute name used in the document path is not defined; attribute name: #undefined"
                .to_owned(),
        ),
        (
            "SET a = :nope",
            "An expression attribute value used in expression is not defined; attribute value: :nope".to_owned(),
        ),
    ];
    for (text, expected) in cases {
        let error = parse_update(text, &mut context()).expect_err(text);
        assert_eq!(error.message, format!("Invalid UpdateExpression: {expected}"), "{text}");
    }
}

fn overlap(one: &str, two: &str) -> String {
    format!(
        "Two document paths overlap with each other; must remove or rewrite one of these paths; \
         path one: {one}, path two: {two}"
    )
}

fn operand_type(function: &str, descriptor: &str) -> String {
    format!(
        "Incorrect operand type for operator or function; operator or function: {function}, operand type: {descriptor}"
    )
}

#[test]
fn attributes_and_updated_paths() {
    let update =
        parse_update("SET a.b = :n5, x[1] = :one REMOVE c ADD d :one DELETE e :ss_a", &mut context())
            .expect("parses");
    let names: Vec<String> = update.attributes().into_iter().collect();
    assert_eq!(names, ["a", "c", "d", "e", "x"]);
    let after = item(&json!({
        "a": {"M": {"b": n("5"), "other": n("0")}},
        "x": {"L": [n("0"), n("1"), n("2")]},
        "d": n("1"),
        "untouched": n("0")
    }));
    let shown = update.updated_paths().apply(&after);
    assert_eq!(
        crate::engine::value::item_to_json(&shown),
        json!({"a": {"M": {"b": n("5")}}, "x": {"L": [n("1")]}, "d": n("1")})
    );
}

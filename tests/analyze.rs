//! `keyheat analyze` as a user runs it: on an export the test writes (gzip data files and their
//! manifests), every format, `--scenario-out` and then `keyheat check` on the scenario it wrote,
//! the file rules (`--force`), and bad input (exit 2 with file:line).

mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use common::{keyheat, stderr, stdout};

/// A fresh, empty directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("analyze-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the test can make its scratch directory");
    dir
}

/// Writes a gzip export of a small shop: 30 customers with a profile each and 300 orders, a
/// third of them customer 7's. Returns (items, bytes) counted here: every attribute is a string,
/// so an item's size is the sum of its names' and values' bytes.
fn write_export(dir: &Path) -> (u64, u64) {
    let mut lines = String::new();
    let mut bytes = 0;
    let mut items = 0;
    let mut add = |pk: String, sk: String, note: &str| {
        let _ = writeln!(
            lines,
            r#"{{"Item":{{"PK":{{"S":"{pk}"}},"SK":{{"S":"{sk}"}},"note":{{"S":"{note}"}}}}}}"#
        );
        bytes += (2 + pk.len() + 2 + sk.len() + 4 + note.len()) as u64;
        items += 1;
    };
    for c in 0..30 {
        add(format!("CUSTOMER#c{c:02}"), "PROFILE".to_owned(), "a customer");
    }
    for o in 0..300 {
        let c = if o % 3 == 0 { 7 } else { o % 30 };
        add(format!("CUSTOMER#c{c:02}"), format!("ORDER#o{o:04}"), &"x".repeat(100 + o));
    }
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let file = std::fs::File::create(dir.join("data").join("abc.json.gz")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    gz.write_all(lines.as_bytes()).unwrap();
    gz.finish().unwrap();
    std::fs::write(
        dir.join("manifest-summary.json"),
        r#"{"tableArn":"arn:aws:dynamodb:eu-west-1:111122223333:table/Shop","itemCount":330,"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("manifest-files.json"),
        "{\"itemCount\":330,\"dataFileS3Key\":\"AWSDynamoDB/01234-x/data/abc.json.gz\"}\n",
    )
    .unwrap();
    (items, bytes)
}

fn ok(args: &[&str]) -> String {
    let out = keyheat(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn an_export_is_reported_in_every_format() {
    let dir = scratch_dir("formats");
    let (items, bytes) = write_export(&dir);
    let path = dir.to_str().unwrap();
    let json: serde_json::Value = serde_json::from_str(&ok(&["analyze", path, "--format", "json"])).unwrap();
    assert_eq!(json["totals"]["items"], items);
    assert_eq!(json["totals"]["bytes"], bytes);
    assert_eq!(json["totals"]["partitions"], 30);
    assert_eq!(json["source"]["table"], "Shop");
    assert_eq!(json["keys"]["partition"]["attribute"], "PK");
    assert_eq!(json["keys"]["partition"]["how"]["rule"], "named");
    assert_eq!(json["largest_by_items"][0]["key"], "CUSTOMER#c07");
    // Customer 7: a profile, orders 0, 3, 6, … 297, and 7, 37, … 277 (o % 30 = 7).
    assert_eq!(json["largest_by_items"][0]["items"], 111);
    assert_eq!(json["findings"][0]["code"], "hot-partition");

    let text = ok(&["analyze", path]);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    assert!(text.starts_with(&format!("keyheat analyze: table Shop ({path})\n")), "{text}");
    for expected in [
        "partition key PK (inferred: a conventional key name",
        "CUSTOMER#… / ORDER#…",
        "One partition key, CUSTOMER#c07, holds 33.6% of the items",
        "Zipf exponent (fitted)",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    let md = ok(&["analyze", path, "--format", "md", "--partition-key", "PK", "--sort-key", "SK"]);
    assert!(md.starts_with("# keyheat analyze: table Shop"), "{md}");
    assert!(md.contains("- partition key PK (given)") && md.contains("## Item sizes"), "{md}");
}

#[test]
fn the_starter_scenario_is_written_once_and_loads_in_check() {
    let dir = scratch_dir("scenario");
    let export = dir.join("export");
    write_export(&export);
    let ron = dir.join("shop.ron");
    let (export, ron_path) = (export.to_str().unwrap(), ron.to_str().unwrap());
    ok(&["analyze", export, "--scenario-out", ron_path]);
    let written = std::fs::read_to_string(&ron).unwrap();
    assert!(written.contains(r#"(name: "customers", count: 30"#), "{written}");
    let again = keyheat(&["analyze", export, "--scenario-out", ron_path]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("exists; pass --force to replace it"), "{}", stderr(&again));
    ok(&["analyze", export, "--scenario-out", ron_path, "--force"]);

    let check = ok(&["check", ron_path]);
    assert!(check.contains("CustomerOrder    PK = CUSTOMER#{customer_id}, SK = ORDER#{order_id}"), "{check}");
    // The replay preloads the table the scenario stands for: every item, by its shape.
    let run: serde_json::Value =
        serde_json::from_str(&ok(&["run", ron_path, "--duration", "2s", "--format", "json"])).unwrap();
    assert_eq!(run["totals"]["items"], 330, "{run}");
}

#[test]
fn bad_input_exits_2_with_the_file_and_line() {
    let dir = scratch_dir("bad");
    let file = dir.join("items.json");
    std::fs::write(&file, "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":{\"PK\":{\"Q\":\"b\"}}}\n").unwrap();
    let out = keyheat(&["analyze", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "keyheat: {}:2: attribute \"PK\": Supplied AttributeValue has an unknown datatype \"Q\"; expected one of S, N, B, BOOL, NULL, L, M, SS, NS, BS\n",
            file.display()
        )
    );
    let empty = scratch_dir("empty");
    let out = keyheat(&["analyze", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no .json or .json.gz files here"), "{}", stderr(&out));
}

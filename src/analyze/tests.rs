//! Whole analyses of inputs written here into a scratch directory — a gzip export with its
//! manifests, loose `{"Item"}` lines, `aws dynamodb scan` output — each held to a count the test
//! keeps itself while writing the items (sizes by the AWS rules worked by hand, not by
//! `item_size`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;

use super::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("keyheat-analyze-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Items written and the count kept beside them: per partition key, (items, bytes).
#[derive(Default)]
struct Written {
    lines: Vec<String>,
    partitions: BTreeMap<String, (u64, u64)>,
}

impl Written {
    /// An item of string attributes and one BOOL: its size is Σ name + value bytes, + 1 for the
    /// BOOL (AWS "Item sizes and formats").
    fn add(&mut self, attributes: &[(&str, &str)]) {
        let mut json = serde_json::Map::new();
        let mut size = 0;
        for (name, value) in attributes {
            json.insert((*name).to_owned(), serde_json::json!({"S": value}));
            size += name.len() + value.len();
        }
        json.insert("ok".to_owned(), serde_json::json!({"BOOL": true}));
        size += 2 + 1;
        let pk = attributes.iter().find(|(n, _)| *n == "PK").map(|(_, v)| (*v).to_owned()).unwrap();
        let entry = self.partitions.entry(pk).or_default();
        entry.0 += 1;
        entry.1 += size as u64;
        self.lines.push(serde_json::Value::Object(json).to_string());
    }

    fn items(&self) -> u64 {
        self.partitions.values().map(|p| p.0).sum()
    }

    fn bytes(&self) -> u64 {
        self.partitions.values().map(|p| p.1).sum()
    }

    /// Export lines, `{"Item": …}` each.
    fn export_lines(&self, range: std::ops::Range<usize>) -> String {
        self.lines[range].iter().fold(String::new(), |mut out, line| {
            let _ = writeln!(out, "{{\"Item\":{line}}}");
            out
        })
    }
}

/// A single-table shop: 40 customers with a profile each, 600 orders of which customer 0 places
/// half, padded so some orders pass 1 KB and one 4 KB.
fn shop() -> Written {
    let mut w = Written::default();
    for c in 0..40 {
        w.add(&[("PK", &format!("CUSTOMER#c{c:03}")), ("SK", "PROFILE"), ("name", "someone")]);
    }
    for o in 0..600 {
        let c = if o % 2 == 0 { 0 } else { o % 40 };
        let pad = "x".repeat(match o % 100 {
            0 => 5000,
            n if n < 30 => 1100,
            _ => 200,
        });
        w.add(&[("PK", &format!("CUSTOMER#c{c:03}")), ("SK", &format!("ORDER#o{o:04}")), ("note", &pad)]);
    }
    w
}

fn gzip_file(path: &Path, text: &str) {
    let mut encoder = GzEncoder::new(fs::File::create(path).unwrap(), Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap();
}

fn run(path: &Path) -> Result<Analysis, AnalyzeError> {
    analyze(path, &Options::default(), &mut |_| {})
}

/// The figures every layout must agree on with the count kept while writing.
fn assert_counts(analysis: &Analysis, written: &Written) {
    let t = &analysis.totals;
    assert_eq!(
        (t.items, t.bytes, t.partitions),
        (written.items(), written.bytes(), written.partitions.len() as u64)
    );
    let max = written.partitions.iter().max_by_key(|(k, p)| (p.0, std::cmp::Reverse(*k))).unwrap();
    let top = &analysis.largest_by_items[0];
    assert_eq!((top.key.as_str(), top.items, top.bytes), (max.0.as_str(), max.1.0, max.1.1));
    let mut by_bytes: Vec<u64> = written.partitions.values().map(|p| p.1).collect();
    by_bytes.sort_unstable_by(|a, b| b.cmp(a));
    let listed: Vec<u64> = analysis.largest_by_bytes.iter().map(|r| r.bytes).collect();
    assert_eq!(listed, by_bytes[..listed.len()]);
    assert_eq!(analysis.histogram.iter().map(|b| b.items).sum::<u64>(), written.items());
    assert_eq!(analysis.histogram.iter().map(|b| b.bytes).sum::<u64>(), written.bytes());
}

#[test]
fn a_gzip_export_with_its_manifests_is_read_whole() {
    let dir = scratch("export");
    let written = shop();
    fs::create_dir_all(dir.join("data")).unwrap();
    fs::write(
        dir.join("manifest-summary.json"),
        r#"{"version":"2020-06-30","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Shop","itemCount":640,"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"}"#,
    )
    .unwrap();
    let mut manifest = String::new();
    for (i, range) in [0..300, 300..640].into_iter().enumerate() {
        let name = format!("part{i}.json.gz");
        gzip_file(&dir.join("data").join(&name), &written.export_lines(range));
        let _ = writeln!(
            manifest,
            "{{\"itemCount\":1,\"md5Checksum\":\"x\",\"etag\":\"y\",\"dataFileS3Key\":\"AWSDynamoDB/0169-abc/data/{name}\"}}"
        );
    }
    fs::write(dir.join("manifest-files.json"), manifest).unwrap();
    // A stray file beside the data is not read: the manifest says what is.
    fs::write(dir.join("data").join("stray.json"), "not json").unwrap();

    let analysis = run(&dir).unwrap();
    assert_counts(&analysis, &written);
    assert_eq!(analysis.source.layout, Layout::Export);
    assert_eq!((analysis.source.table.as_deref(), analysis.source.files), (Some("Shop"), 2));
    assert_eq!(analysis.keys.partition.attribute, "PK");
    assert_eq!(analysis.keys.sort.as_ref().map(|k| k.attribute.as_str()), Some("SK"));
    assert!(analysis.notes.is_empty(), "{:?}", analysis.notes);
    // A manifest whose count is not what its data files hold says so.
    let summary = fs::read_to_string(dir.join("manifest-summary.json")).unwrap();
    fs::write(dir.join("manifest-summary.json"), summary.replace("\"itemCount\":640", "\"itemCount\":641"))
        .unwrap();
    assert_eq!(
        run(&dir).unwrap().notes,
        ["the export's manifest-summary.json gives 641 items; its data files hold 640"]
    );
    // Key shapes: the profile (one per customer) and the orders (customer 0 and the odd ones).
    let shapes: Vec<(&str, Option<&str>, u64, u64)> = analysis
        .shapes
        .iter()
        .map(|s| (s.partition_key.as_str(), s.sort_key.as_deref(), s.items, s.partitions))
        .collect();
    assert_eq!(shapes, [("CUSTOMER#…", Some("ORDER#…"), 600, 21), ("CUSTOMER#…", Some("PROFILE"), 40, 40)]);
    assert_eq!(analysis.shapes[1].constant_sort_key.as_deref(), Some("PROFILE"));
    // Orders over 1 KB: 30 of every 100 (the 1,100-byte and 5,000-byte pads); over 4 KB: 6.
    assert_eq!((analysis.totals.items_over_1kb, analysis.totals.items_over_4kb), (180, 6));
    let hot = analysis.findings.iter().find_map(|f| match f {
        Finding::HotPartition { key, share, .. } => Some((key.clone(), *share)),
        _ => None,
    });
    assert_eq!(hot, Some(("CUSTOMER#c000".to_owned(), 301.0 / 640.0)));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn loose_lines_and_scan_output_give_the_same_figures() {
    let dir = scratch("loose");
    let written = shop();
    fs::write(dir.join("a.json"), written.export_lines(0..200)).unwrap();
    gzip_file(&dir.join("b.JSON.GZ"), &written.export_lines(200..640));
    fs::write(dir.join("notes.txt"), "not read").unwrap();
    let loose = run(&dir).unwrap();
    assert_counts(&loose, &written);
    assert_eq!((loose.source.layout, loose.source.files), (Layout::Files, 2));

    let scan = dir.join("scan.out");
    let items = written.lines.join(",\n        ");
    fs::write(&scan, format!("{{\n    \"Items\": [\n        {items}\n    ],\n    \"Count\": 640,\n    \"ScannedCount\": 640\n}}\n"))
        .unwrap();
    let scanned = run(&scan).unwrap();
    assert_counts(&scanned, &written);
    assert_eq!(scanned.shapes, loose.shapes);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_skewed_key_value_table_is_fitted_and_called_hot() {
    // A key-value table (no sort key, no conventional names): user u0 holds 1,000 events, user
    // k holds about 1,000 / k — Zipf's law with s = 1 — in 200 users.
    let dir = scratch("skew");
    let mut written = Written::default();
    let mut lines = String::new();
    let mut n = 0;
    for user in 1..=200u32 {
        for _ in 0..(1000 / user).max(1) {
            let pk = format!("u{user}");
            let id = format!("e{n:06}");
            // `event` is the most distinct attribute: it becomes the inferred partition key, so
            // this test names the key it means.
            written.add(&[("PK", &pk), ("event", &id)]);
            n += 1;
        }
    }
    for line in &written.lines {
        let _ = writeln!(lines, "{{\"Item\":{}}}", line.replace("\"PK\"", "\"user\""));
    }
    fs::write(dir.join("events.json"), lines).unwrap();
    let options = Options { partition_key: Some("user".into()), sort_key: None };
    let analysis = analyze(&dir, &options, &mut |_| {}).unwrap();
    assert_eq!(analysis.totals.items, written.items());
    assert_eq!(analysis.largest_by_items[0].items, 1000);
    let s = analysis.skew.zipf_s.unwrap();
    assert!((s - 1.0).abs() < 0.1, "fitted {s}");
    assert_eq!(analysis.shapes[0].partition_key, "u…");
    // Without the name, the most distinct attribute is taken, and the report can say so.
    let inferred = run(&dir).unwrap();
    assert_eq!(inferred.keys.partition.attribute, "event");
    assert!(matches!(inferred.keys.partition.how, How::MostDistinct { sampled: 1000, .. }));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_layouts_are_errors_that_say_what_was_expected() {
    let empty = scratch("empty");
    let missing = scratch("missing-data");
    fs::write(missing.join("manifest-summary.json"), r#"{"itemCount": 1, "outputFormat": "DYNAMODB_JSON"}"#)
        .unwrap();
    fs::write(
        missing.join("manifest-files.json"),
        "{\"dataFileS3Key\":\"AWSDynamoDB/x/data/gone.json.gz\"}\n",
    )
    .unwrap();
    let ion = scratch("ion");
    fs::write(ion.join("manifest-summary.json"), r#"{"outputFormat": "ION"}"#).unwrap();
    let keyless = scratch("keyless");
    // The keys are inferred from the first 1,000 items; the 1,001st lacks the one chosen.
    let good = "{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n".repeat(1000);
    fs::write(keyless.join("t.json"), good + "{\"Item\":{\"pk\":{\"S\":\"b\"}}}\n").unwrap();
    let blank = scratch("blank");
    fs::write(blank.join("t.json"), "\n\n").unwrap();
    // (path, start of the message)
    let cases = [
        (empty.clone(), format!("{}: no .json or .json.gz files here", empty.display())),
        (
            missing.clone(),
            format!(
                "{}/manifest-files.json:1: data file AWSDynamoDB/x/data/gone.json.gz is not in",
                missing.display()
            ),
        ),
        (ion.clone(), format!("{}/manifest-summary.json: outputFormat is ION", ion.display())),
        (
            keyless.clone(),
            format!("{}/t.json:1001: the item has no partition key PK (inferred", keyless.display()),
        ),
        (blank.clone(), format!("{}: no items found", blank.display())),
        (empty.join("nope"), format!("cannot read {}/nope: ", empty.display())),
    ];
    for (path, start) in cases {
        let message = run(&path).unwrap_err().to_string();
        assert!(message.starts_with(&start), "{message}\n  not {start}");
    }
    for dir in [empty, missing, ion, keyless, blank] {
        fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn the_starter_scenario_loads_with_the_table_s_counts() {
    let dir = scratch("starter");
    let written = shop();
    fs::write(dir.join("shop.json"), written.export_lines(0..640)).unwrap();
    let analysis = run(&dir).unwrap();
    let ron = starter_scenario(&analysis, "Shop");
    let loaded = crate::scenario::parse("shop.ron", &ron).unwrap_or_else(|e| panic!("{e}\n{ron}"));
    let scenario = &loaded.scenario;
    assert_eq!(scenario.name, "shop");
    let counts: Vec<(&str, u64)> = scenario.populations.iter().map(|p| (p.name.as_str(), p.count)).collect();
    assert_eq!(counts, [("customers", 40), ("orders", 600)]);
    let entities: Vec<&str> = scenario.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(entities, ["CustomerOrder", "CustomerProfile"]);
    assert_eq!(
        scenario
            .entity("CustomerProfile")
            .and_then(|e| e.owned_population())
            .map(crate::engine::model::Members::name),
        Some("customers")
    );
    assert_eq!(
        scenario
            .entity("CustomerOrder")
            .and_then(|e| e.owned_population())
            .map(crate::engine::model::Members::name),
        Some("orders")
    );
    assert!(ron.contains("popularity: Zipf(s: "), "{ron}");
    let variant = loaded.variant(None).unwrap();
    let keys = variant.keys_named("CustomerOrder").unwrap();
    assert_eq!(
        (keys.pk.source(), keys.sk.as_ref().map(crate::engine::template::Template::source)),
        ("CUSTOMER#{customer_id}", Some("ORDER#{order_id}"))
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_starter_scenario_loads_for_keys_of_every_shape() {
    // A table without a sort key whose partition keys have every shape: prefixed, a marker, a
    // bare id, a number, binary.
    let dir = scratch("starter-shapes");
    let mut lines = String::new();
    let mut item = |key: &str| {
        let _ = writeln!(lines, r#"{{"Item":{{"id":{key},"v":{{"S":"some value"}}}}}}"#);
    };
    for i in 0..50 {
        item(&format!(r#"{{"S":"user-{i}"}}"#));
        item(&format!(r#"{{"S":"{i:04}-{i}"}}"#));
        item(&format!(r#"{{"N":"{i}"}}"#));
    }
    item(r#"{"S":"CONFIG"}"#);
    item(r#"{"B":"AQID"}"#);
    fs::write(dir.join("kv.json"), lines).unwrap();
    let analysis = run(&dir).unwrap();
    assert_eq!((analysis.keys.partition.attribute.as_str(), analysis.keys.sort.is_none()), ("id", true));
    let mut shapes: Vec<&str> = analysis.shapes.iter().map(|s| s.partition_key.as_str()).collect();
    shapes.sort_unstable();
    assert_eq!(shapes, ["(binary)", "(number)", "CONFIG", "user-…", "…"]);
    let ron = starter_scenario(&analysis, "kv table");
    let loaded = crate::scenario::parse("kv.ron", &ron).unwrap_or_else(|e| panic!("{e}\n{ron}"));
    let variant = loaded.variant(None).unwrap();
    let config = loaded
        .scenario
        .entities
        .iter()
        .find(|e| variant.keys_named(&e.name).is_some_and(|k| k.pk.source() == "CONFIG"));
    assert!(config.is_some(), "{ron}");
    assert_eq!(loaded.scenario.name, "kv-table");
    fs::remove_dir_all(&dir).unwrap();
}

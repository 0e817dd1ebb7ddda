//! `keyheat snapshot` as a user runs it: the workbench at a simulated time as an SVG file, written
//! whole, never over an existing file without `--force`, and every mistake an exit 2 with a message
//! before anything is replayed or written.
#![cfg(feature = "tui")]

mod common;

use common::keyheat;
use std::fs;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("keyheat-snapshot-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("the temp dir is writable");
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn draws_the_workbench_at_a_simulated_time_and_keeps_existing_files() {
    let dir = scratch("draws");
    let out = dir.join("orders.svg");
    let path = out.to_str().unwrap();
    let args = ["snapshot", "orders", "--variant", "naive", "--at", "1h", "--size", "100x30", "--out", path];
    let run = keyheat(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(run.stdout.is_empty(), "the picture goes to the file, not stdout");
    assert!(stderr.contains("wrote") && stderr.contains("orders / naive at +1h, 100x30"), "{stderr}");
    let svg = fs::read_to_string(&out).unwrap();
    // 9 × 18 pixels a cell; the panels, the clock at one simulated hour, the naive design's verdict.
    assert!(
        svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="540""#),
        "{svg:.200}"
    );
    for text in [
        ">Schema</text>",
        "Heatmap",
        ">Goals</text>",
        ">Partition sizes</text>",
        "⏸ 2025-01-01 01:00:00",
        "the warehouse never scans",
    ] {
        assert!(svg.contains(text), "{text} missing from the SVG");
    }
    // Colours are kept: the heatmap's cells are filled rectangles.
    assert!(svg.contains("<rect x="), "the SVG has coloured cells");
    assert!(svg.trim_end().ends_with("</svg>"));

    // The same run again does not write over the picture without --force.
    let again = keyheat(&args);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("exists; pass --force to replace it"), "{stderr}");
    assert_eq!(fs::read_to_string(&out).unwrap(), svg);
    // With --force it does, and the same seed draws the same picture.
    let forced = keyheat(&[&args[..], &["--force"]].concat());
    assert_eq!(forced.status.code(), Some(0), "{}", String::from_utf8_lossy(&forced.stderr));
    assert_eq!(fs::read_to_string(&out).unwrap(), svg, "deterministic");
    assert_eq!(files_in(&dir), ["orders.svg"], "no temporary file is left behind");
    // `--out -` is standard output: the same picture there, and no claim of a file named "-".
    let dash = keyheat(&[&args[..args.len() - 1], &["-"]].concat());
    let stderr = String::from_utf8_lossy(&dash.stderr);
    assert_eq!(dash.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&dash.stdout), svg);
    assert!(!stderr.contains("wrote"), "{stderr}");
    assert_eq!(files_in(&dir), ["orders.svg"]);

    // The metric the heatmap shows can be chosen, as `m` does.
    let bytes = dir.join("bytes.svg");
    let run = keyheat(&[
        "snapshot",
        "orders",
        "--at",
        "30m",
        "--metric",
        "bytes",
        "--out",
        bytes.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let svg = fs::read_to_string(&bytes).unwrap();
    assert!(svg.contains(r#"width="1080" height="720""#), "the default size is 120x40");
    assert!(svg.contains(">bytes</text>"), "the legend names the metric");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mistakes_exit_2_with_a_message_and_write_nothing() {
    let dir = scratch("mistakes");
    let out = dir.join("x.svg");
    let path = out.to_str().unwrap();
    let missing = dir.join("no-such-dir").join("x.svg");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["snapshot", "orders", "--at", "31d", "--out", path],
            "--at 31d is past the end of the workload (30d)",
        ),
        // Inside a tick: the replay stops at tick ends (it was drawn at the next one).
        (
            vec!["snapshot", "counters", "--at", "1500ms", "--out", path],
            "--at 1500ms is not a whole number of ticks (1s): the replay stops at the end of a tick; use 1s or 2s",
        ),
        // Replayed as rates, computed whole: it was drawn at its end, labelled +30d.
        (
            vec!["snapshot", "discord-scale", "--at", "30d", "--out", path],
            "replayed as rates, computed whole to its end (365d): it can be drawn at its end only",
        ),
        (vec!["snapshot", "orders", "--size", "60x20", "--out", path], "smaller than the workbench's 80x24"),
        (vec!["snapshot", "orders", "--size", "wide", "--out", path], "not a size: write COLSxROWS"),
        (vec!["snapshot", "orders", "--variant", "nope", "--out", path], "no variant named \"nope\""),
        (vec!["snapshot", "no-such-scenario", "--out", path], "no bundled scenario is named"),
        (vec!["snapshot", "orders", "--at", "soon", "--out", path], "invalid value 'soon' for '--at"),
        (vec!["snapshot", "orders", "--out", missing.to_str().unwrap()], "does not exist"),
        (vec!["snapshot", "orders"], "--out <FILE.svg>"),
    ];
    for (args, message) in cases {
        let run = keyheat(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(files_in(&dir).is_empty(), "nothing was written: {:?}", files_in(&dir));
    fs::remove_dir_all(&dir).unwrap();
}

/// `--theme` reaches the picture: the light palette on white with YlOrRd's ramp in the legend, the
/// projector palette on black with its shaded levels; an unknown theme is refused with the choices.
#[test]
fn the_theme_reaches_the_svg() {
    let dir = scratch("theme");
    let cases = [
        ("light", r##"fill="#ffffff"/>"##, "#800026"),
        ("high-contrast", r##"fill="#000000"/>"##, "▓"),
        ("dark", r##"fill="#1d1f21"/>"##, "#fde725"),
    ];
    for (theme, canvas, mark) in cases {
        let out = dir.join(format!("{theme}.svg"));
        let args = [
            "snapshot",
            "orders",
            "--variant",
            "naive",
            "--at",
            "10m",
            "--theme",
            theme,
            "--out",
            out.to_str().unwrap(),
        ];
        let run = keyheat(&args);
        assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
        let svg = fs::read_to_string(&out).unwrap();
        let head: String = svg.chars().take(200).collect();
        assert!(head.contains(canvas), "{theme}: {head}");
        assert!(svg.contains(mark), "{theme}: {mark} missing");
    }
    let bad = keyheat(&["snapshot", "orders", "--theme", "sepia", "--out", "-"]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("sepia") && stderr.contains("high-contrast"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}

/// Normalized RU is Cosmos DB's figure: asked of a replay on another store it is refused with a
/// message that says why and what to add, before anything is replayed or written; a store the
/// file does not list is refused too.
#[test]
fn normalized_ru_is_refused_off_cosmos_db() {
    let dir = scratch("normalized-ru");
    let out = dir.join("n.svg");
    let path = out.to_str().unwrap();
    // (arguments, what the message says)
    let cases: [(&[&str], &[&str]); 3] = [
        (&["orders"], &["orders: --metric normalized-ru", "on DynamoDB", "does not list Cosmos DB"]),
        (&["counters"], &["counters: --metric normalized-ru", "on DynamoDB", "add --engine cosmosdb"]),
        (&["counters", "--engine", "cassandra"], &["on Cassandra", "add --engine cosmosdb"]),
    ];
    for (scenario, wants) in cases {
        let mut args = vec!["snapshot"];
        args.extend_from_slice(scenario);
        args.extend_from_slice(&["--metric", "normalized-ru", "--out", path]);
        let run = keyheat(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        for want in wants {
            assert!(stderr.contains(want), "{want:?} missing for {args:?}: {stderr}");
        }
    }
    let unlisted =
        keyheat(&["snapshot", "orders", "--engine", "cosmosdb", "--metric", "normalized-ru", "--out", path]);
    let stderr = String::from_utf8_lossy(&unlisted.stderr);
    assert_eq!(unlisted.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("list it in `engines`"), "{stderr}");
    assert!(files_in(&dir).is_empty(), "nothing written");
    let _ = fs::remove_dir_all(&dir);
}

//! `keyheat record` as a user runs it: an asciinema v2 file any player reads (a JSON header, then
//! `[time, "o", data]` lines with times that never go back), the same file for the same
//! arguments, written under the rule every command's files follow, and every mistake an exit 2
//! with a message before anything is replayed or written.
#![cfg(feature = "tui")]

mod common;

use common::keyheat;
use std::fs;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("keyheat-record-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("the temp dir is writable");
    dir
}

const ARGS: [&str; 10] =
    ["record", "orders", "--variant", "naive", "--speed", "10m", "--duration", "3s", "--size", "80x24"];

#[test]
fn a_recording_is_asciicast_v2_that_a_player_reads() {
    let dir = scratch("format");
    let out = dir.join("orders.cast");
    let mut args = ARGS.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    let run = keyheat(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("wrote") && stderr.contains("16 frames, 3s of recording, 80x24"), "{stderr}");
    let text = fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).expect("the header is JSON");
    assert_eq!(header["version"], 2);
    assert_eq!(header["width"], 80);
    assert_eq!(header["height"], 24);
    assert!(header["title"].as_str().is_some_and(|t| t.contains("orders / naive")), "{header}");
    let mut last = -1.0;
    let mut events = 0;
    let mut screen = String::new();
    for line in lines {
        let event: serde_json::Value = serde_json::from_str(line).expect("every event line is JSON");
        let event = event.as_array().expect("an event is an array");
        assert_eq!(event.len(), 3, "{line}");
        let time = event[0].as_f64().expect("a time in seconds");
        assert!(time > last, "times go forward: {time} after {last}");
        assert!(time <= 3.0, "within the duration: {time}");
        assert_eq!(event[1], "o", "output events");
        screen.push_str(event[2].as_str().expect("the output is a string"));
        last = time;
        events += 1;
    }
    assert!(events > 3, "the replay moves: {events} events");
    // The first frame clears the screen; the workbench's panels, colours and the clock are there.
    assert!(screen.starts_with("\u{1b}[?25l"), "{:?}", &screen[..20]);
    for want in ["Heatmap", "Access patterns", "▶ 2025-01-01", "\u{1b}[0;38;2;"] {
        assert!(screen.contains(want), "{want:?} missing");
    }
    // Without --force the file stays as it is.
    let again = keyheat(&args);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_same_arguments_give_the_same_bytes() {
    let mut args = ARGS.to_vec();
    args.extend(["--theme", "high-contrast", "--out", "-"]);
    let first = keyheat(&args);
    let second = keyheat(&args);
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(!first.stdout.is_empty());
    assert!(first.stdout == second.stdout, "two recordings differ");
    // The theme reaches the frames: the projector palette's black background.
    assert!(String::from_utf8_lossy(&first.stdout).contains("48;2;0;0;0m"));
}

/// `--engine` records the same design on another store the file lists: the title says which, and
/// the panels speak that store's units.
#[test]
fn a_recording_replays_on_the_store_it_names() {
    let run = keyheat(&[
        "record",
        "counters",
        "--variant",
        "naive",
        "--engine",
        "cosmosdb",
        "--speed",
        "10m",
        "--duration",
        "2s",
        "--size",
        "100x30",
        "--out",
        "-",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8_lossy(&run.stdout);
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(
        header["title"].as_str().is_some_and(|t| t.contains("counters / naive on Cosmos DB")),
        "{header}"
    );
    assert!(text.contains(" RU"), "the panels count request units");
    assert!(!text.contains("WCU"), "no DynamoDB units on Cosmos DB");
}

#[test]
fn mistakes_exit_2_with_a_message_and_write_nothing() {
    let dir = scratch("mistakes");
    let out = dir.join("x.cast");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["record", "orders", "--duration", "11m", "--out", out], "longer than a recording may be (10m)"),
        // Replayed as rates, computed whole: nothing to record frame by frame (it was one frame).
        (
            &["record", "discord-scale", "--duration", "2s", "--out", out],
            "replayed as rates, computed whole to its end: there is no replay to record",
        ),
        (&["record", "orders", "--duration", "0s", "--out", out], "shorter than a recording may be"),
        (&["record", "orders", "--size", "600x40", "--out", out], "larger than 500x200"),
        (&["record", "orders", "--speed", "2h", "--out", out], "1s, 10s, 1m, 10m, 1h, 6h, 1d, 1w"),
        (&["record", "orders", "--variant", "nope", "--out", out], "nope"),
        (&["record", "orders", "--out", "/no/such/dir/x.cast"], "does not exist"),
        (&["record", "orders", "--engine", "cassandra", "--out", out], "list it in `engines`"),
        (&["record", "orders", "--engine", "oracle", "--out", out], "no store is named \"oracle\""),
    ];
    for (args, want) in cases {
        let run = keyheat(args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
    assert!(fs::read_dir(&dir).unwrap().next().is_none(), "nothing written");
    let _ = fs::remove_dir_all(&dir);
}

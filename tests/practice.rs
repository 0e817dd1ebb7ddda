//! `keyheat practice` as a mentor runs it headless: `--grade VARIANT` writes the Markdown grade
//! report and exits as `run --fail-on-goals` does; bad input exits 2 with a message.

use std::path::Path;
use std::process::{Command, Output};

fn keyheat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keyheat")).args(args).output().expect("the keyheat binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn scratch(name: &str) -> String {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path.display().to_string()
}

#[test]
fn grading_a_variant_headless_writes_the_report_and_exits_as_run_does() {
    // (variant, exit code, report fragments)
    let cases: [(&str, i32, &[&str]); 2] = [
        (
            "naive",
            3,
            &[
                "# Practice grade: the keys of a chat app",
                "**FAIL**: 2 of 5 goals met by variant `naive`",
                "projected: 25.5 GB at 1 year (table CH#{channel_id}) > 10 GB",
                "- no partition past 10 GB within a year — hint 2: A partition per channel",
                "graded headless from the file",
            ],
        ),
        ("recommended", 0, &["**PASS**: 5 of 5 goals met by variant `recommended`", "name: \"recommended\""]),
    ];
    for (variant, code, parts) in cases {
        let out = keyheat(&["practice", "practice-chat", "--grade", variant]);
        assert_eq!(out.status.code(), Some(code), "{variant}: {}", stderr(&out));
        let md = stdout(&out);
        for part in parts {
            assert!(md.contains(part), "{variant}: {part:?} missing from\n{md}");
        }
        let run = keyheat(&["run", "practice-chat", "--variant", variant, "--fail-on-goals"]);
        assert_eq!(run.status.code(), Some(code), "run disagrees on {variant}");
    }
}

#[test]
fn the_report_goes_to_a_file_never_over_another() {
    let path = scratch("practice-grade.md");
    let out = keyheat(&["practice", "practice-chat", "--grade", "naive", "--report", &path]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let md = std::fs::read_to_string(&path).expect("the report is written");
    assert!(md.starts_with("# Practice grade: "), "{md}");
    let again = keyheat(&["practice", "practice-chat", "--grade", "naive", "--report", &path]);
    assert_eq!(again.status.code(), Some(2), "{}", stdout(&again));
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    let forced = keyheat(&["practice", "practice-chat", "--grade", "naive", "--report", &path, "--force"]);
    assert_eq!(forced.status.code(), Some(3), "{}", stderr(&forced));
}

#[test]
fn a_scenario_that_is_not_a_practice_problem_or_a_missing_variant_exits_2() {
    let cases: [(&[&str], &str); 3] = [
        (&["practice", "orders", "--grade", "naive"], "orders is a scenario, not a practice problem"),
        (&["practice", "practice-chat", "--grade", "nope"], "nope"),
        (&["practice", "no-such-problem"], "no-such-problem"),
    ];
    for (args, message) in cases {
        let out = keyheat(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

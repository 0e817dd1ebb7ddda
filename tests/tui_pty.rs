//! The real binary in a real terminal: tmux runs `keyheat` in a 120×40 pane, `send-keys` types and
//! `capture-pane` reads the screen. It walks the newcomer's path: open `sensors` from the picker,
//! play, add a day bucket to the readings' partition key in the schema editor, apply it, compare
//! with the run before the edit, open help, quit; then checks that the process exited 0 and left
//! the terminal as it found it (cooked mode, main screen, no mouse reporting).
//!
//! Two more: every bundled scenario opened from the picker, with help, `r`, `v` and `G` pressed
//! while runs load and play, measuring the longest gap between frames the binary logs
//! (`KEYHEAT_FRAME_LOG`; fails above 250 ms); and `q` quitting while leaderboard still loads.
//!
//! And a newcomer who buckets sensors by day with only Tab completion and the editor's cheat
//! sheet, then watches the largest partition stop growing.
//!
//! Each step waits for the screen to show what it should, polling with a deadline; nothing
//! sleeps for a fixed time. tmux runs on a private socket so no user's server is touched. CI
//! installs tmux (`.ci/run`); where it cannot be found each test prints `SKIPPED: tmux not found`
//! and passes, except under CI (`CI` set), where it fails.
#![cfg(feature = "tui")]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server of this test's own, with one session running a command.
struct Tmux {
    socket: String,
    target: String,
}

impl Tmux {
    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux runs")
    }

    fn start(name: &str, command: &[&str], env: &[(&str, &Path)]) -> Tmux {
        let t =
            Tmux { socket: format!("keyheat-test-{}-{name}", std::process::id()), target: name.to_owned() };
        let mut args: Vec<String> =
            ["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "120", "-y", "40"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect();
        for (k, v) in env {
            args.push("-e".to_owned());
            args.push(format!("{k}={}", v.display()));
        }
        args.extend(command.iter().map(|s| (*s).to_owned()));
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = t.tmux(&refs);
        assert!(out.status.success(), "tmux new-session failed: {}", String::from_utf8_lossy(&out.stderr));
        t
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.target];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success(), "send-keys {keys:?}");
    }

    /// Types `text` literally.
    fn type_text(&self, text: &str) {
        assert!(
            self.tmux(&["send-keys", "-t", &self.target, "-l", text]).status.success(),
            "send-keys -l {text:?}"
        );
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", &self.target]).stdout).into_owned()
    }

    fn format(&self, format: &str) -> String {
        let out = self.tmux(&["display-message", "-p", "-t", &self.target, format]);
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Polls the screen until `ready` holds; fails with the last screen after `within`.
    fn wait(&self, what: &str, within: Duration, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + within;
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(Instant::now() < deadline, "waited {within:?} for {what}; the screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Polls the screen until `ready` holds or `within` has passed; whether it held.
    fn wait_up_to(&self, within: Duration, ready: impl Fn(&str) -> bool) -> bool {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if ready(&self.screen()) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("{text:?}"), Duration::from_secs(30), |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

fn tmux_found() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// Whether tmux is here to run the test. Without it the test is skipped visibly: one
/// `SKIPPED: tmux not found` line on stderr (past the test harness's capture) saying what went
/// untested. Under CI (`CI` set) a missing tmux fails the test instead: `.ci/run` installs it,
/// so a skip there would hide that the binary was never driven in a terminal.
fn tmux_or_skip(untested: &str) -> bool {
    if tmux_found() {
        return true;
    }
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    assert!(!ci, "tmux not found, and CI is set (.ci/run installs tmux): {untested} would go untested");
    // Straight to the process's stderr: libtest captures `eprintln!` of a passing test, which
    // would hide the skip.
    let _ =
        writeln!(std::io::stderr(), "SKIPPED: tmux not found; untested: {untested} (install tmux to run it)");
    false
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("keyheat-pty-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp dir is writable");
    dir
}

/// The status line's clock: the text after the play/pause sign up to the first parenthesis.
fn clock(screen: &str) -> String {
    let status = screen.lines().rev().find(|l| l.contains("seed 42")).unwrap_or_default();
    status.split(" (").next().unwrap_or_default().chars().skip(2).collect()
}

/// The picker's selected line (the one with the ▶ sign).
fn selected(screen: &str) -> String {
    screen.lines().find(|l| l.contains('▶')).unwrap_or_default().to_owned()
}

/// The editor's `cursor L:C` note.
fn cursor(screen: &str) -> String {
    screen.split("cursor ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap_or_default().to_owned()
}

#[test]
fn a_newcomer_opens_sensors_plays_edits_applies_compares_and_quits() {
    if !tmux_or_skip("the real binary driven in a terminal") {
        return;
    }
    let dir = scratch("newcomer");
    let state = dir.join("state");
    let status_file = dir.join("status");
    // The shell reports keyheat's exit code and the terminal's mode afterwards, then waits to be
    // read (the server is killed when the test ends).
    let script = format!(
        "\"$0\"; echo \"keyheat exited $?\"; stty -a > '{}'; echo stty-done; exec sleep 600",
        status_file.display()
    );
    let bin = env!("CARGO_BIN_EXE_keyheat");
    let t = Tmux::start(
        "newcomer",
        &["sh", "-c", &script, bin],
        &[("KEYHEAT_STATE_DIR", &state), ("TERM", Path::new("xterm-256color"))],
    );

    // The picker, sensors first and selected.
    t.wait("the picker with sensors selected", Duration::from_secs(30), |s| {
        s.contains("keyheat — pick a scenario") && s.contains("▶ sensors")
    });
    t.keys(&["Enter"]);
    t.wait("the workbench's panels, paused at the start of naive", Duration::from_secs(30), |s| {
        ["Schema", "Access patterns", "Heatmap", "Partition sizes", "Indexes", "Goals"]
            .iter()
            .all(|p| s.contains(p))
            && s.contains("⏸ 2025-01-01 00:00:00")
            && s.contains("variant naive")
    });
    assert_eq!(t.format("#{alternate_on}"), "1", "the UI draws on the alternate screen");

    // Play: the clock moves.
    t.keys(&["Space"]);
    t.wait("the clock to move", Duration::from_secs(30), |s| {
        s.contains("▶ 2025-")
            && !clock(s).contains("2025-01-01 00:00:00")
            && s.contains("record-reading INSERT")
    });

    // Edit the readings' partition key: line 6 is `"Reading": (pk: "{sensor_id}", sk: …`;
    // the cursor goes just after `{sensor_id}` and a day bucket is typed there.
    // The editor moves by screen rows (long lines wrap), so Down is pressed until the cursor
    // is on line 6, watching the cursor position the editor shows.
    t.keys(&["e"]);
    t.wait_for("editing naive");
    editor_line_end(&t, 6, 62);
    for _ in 0..25 {
        t.keys(&["Left"]);
    }
    t.wait_for("cursor 6:37 ");
    t.type_text("#{bucket(reading_time, 1d)}");
    // The line wraps in the editor; the editor says the draft loads.
    t.wait("the edit to be typed and valid", Duration::from_secs(30), |s| {
        s.contains("{sensor_id}#{bucket(reading_time, 1d") && s.contains("✔ loads")
    });

    // Apply: the replay restarts with the bucketed key, the run before it kept as the baseline.
    t.keys(&["C-s"]);
    t.wait_for("applied: the replay restarted");
    t.keys(&["Escape"]);
    // A capture can land while a frame is still being written: each step waits for everything
    // it checks rather than for one line of it.
    t.wait(
        "the schema panel to show the new key and the dashboard to ask two days",
        Duration::from_secs(30),
        |s| {
            // The panel writes keys as the editor takes them (a long one wraps after `pk:`).
            s.contains("\"Reading\": (pk:")
                && s.contains("\"{sensor_id}#{bucket(reading_time, 1d)}\"")
                && s.contains("last-24h SELECT ×2 partitions")
        },
    );

    // Compare: the edited run beside the run before the edit, same seed, same moment.
    t.keys(&["c"]);
    let headings = [
        "Figures: now vs before",
        "Heatmap — now: naive (edited)",
        "Heatmap — before: naive",
        "goals passed",
        "largest partition",
    ];
    t.wait("the compare view", Duration::from_secs(30), |s| headings.iter().all(|h| s.contains(h)));

    // Help, generated from the key table, the workbench's keys first; then back.
    t.keys(&["?"]);
    t.wait("the help overlay", Duration::from_secs(30), |s| {
        s.contains("Help — keys") && s.contains("play / pause the replay")
    });
    t.keys(&["?"]);
    t.wait("help to close", Duration::from_secs(10), |s| !s.contains("play / pause the replay"));

    // Quit: the applied edit is in no file yet, so keyheat asks, and keeps it for recovery.
    t.keys(&["q"]);
    t.wait_for("Quit with unsaved edits?");
    t.keys(&["y"]);
    let screen = t.wait_for("stty-done");
    assert!(screen.contains("keyheat exited 0"), "{screen}");
    assert_eq!(t.format("#{alternate_on}"), "0", "back on the main screen");
    assert_eq!(t.format("#{mouse_any_flag}"), "0", "mouse reporting is off");
    let stty = std::fs::read_to_string(&status_file).expect("the shell wrote stty -a");
    for flag in ["icanon", "echo", "isig"] {
        let on = stty.split_whitespace().any(|w| w == flag);
        assert!(on, "the terminal is back in cooked mode ({flag} on):\n{stty}");
    }
    let kept: Vec<_> = std::fs::read_dir(&state).map(|d| d.flatten().collect()).unwrap_or_default();
    assert!(!kept.is_empty(), "the unsaved edit went to the recovery file in {}", state.display());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The longest gap between two frames the binary logged (`KEYHEAT_FRAME_LOG`), in ms, and the
/// number of frames.
fn longest_gap(log: &Path) -> (f64, usize) {
    let text = std::fs::read_to_string(log).expect("the binary logged its frames");
    let times: Vec<u64> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    let gap = times.windows(2).map(|w| w[1].saturating_sub(w[0])).max().unwrap_or(0);
    (gap as f64 / 1000.0, times.len())
}

/// Whether the status line says the run has moved at full speed for a while (the speed achieved
/// is measured) or has reached the end.
fn running_or_done(s: &str) -> bool {
    s.contains("achieved") || s.contains("reached the end")
}

/// Whether the shell has written keyheat's exit status: the file exists as soon as the shell
/// opens it for the `echo`, before the line is in it.
fn exited(status: &Path) -> bool {
    std::fs::read_to_string(status).is_ok_and(|s| s.contains("keyheat exited"))
}

/// Whether the run is loaded (the status line's clock shows how far it is).
fn loaded(s: &str) -> bool {
    s.lines().last().is_some_and(|l| l.contains(" (+")) || s.lines().any(|l| l.contains("%) · "))
}

#[test]
fn frames_keep_coming_while_scenarios_open_restart_switch_and_run_flat_out() {
    /// The issue's bound; the budget aimed for is 50 ms.
    const LIMIT_MS: f64 = 250.0;
    if !tmux_or_skip("the gaps between frames") {
        return;
    }
    let dir = scratch("frames");
    let bin = env!("CARGO_BIN_EXE_keyheat");
    let long = Duration::from_secs(45);
    for name in ["sensors", "orders", "counters", "chat", "social-feed", "leaderboard"] {
        let frame_log = dir.join(format!("{name}.frames"));
        let status = dir.join(format!("{name}.status"));
        let script = format!("\"$0\"; echo \"keyheat exited $?\" > '{}'; exec sleep 600", status.display());
        let t = Tmux::start(
            &format!("frames-{name}"),
            &["sh", "-c", &script, bin],
            &[
                ("KEYHEAT_FRAME_LOG", &frame_log),
                ("KEYHEAT_STATE_DIR", &dir),
                ("TERM", Path::new("xterm-256color")),
            ],
        );
        t.wait("the picker", Duration::from_secs(30), |s| s.contains("keyheat — pick a scenario"));
        let marker = format!("▶ {name} ");
        // One Down at a time, each waiting for the selection to move: keys sent faster than the
        // picker draws would overshoot the scenario sought.
        for _ in 0..20 {
            let screen = t.screen();
            if screen.contains(&marker) {
                break;
            }
            let before = selected(&screen);
            t.keys(&["Down"]);
            t.wait("the selection to move", Duration::from_secs(10), |s| selected(s) != before);
        }
        t.wait(&format!("{name} selected"), Duration::from_secs(10), |s| s.contains(&marker));
        t.keys(&["Enter"]);
        t.wait("the workbench", Duration::from_secs(10), |s| s.contains("Heatmap") && s.contains("Goals"));
        // Help and pause answer while the run may still be loading.
        t.keys(&["?"]);
        t.wait("help", Duration::from_secs(10), |s| s.contains("Help — keys"));
        t.keys(&["?"]);
        t.wait("help to close", Duration::from_secs(10), |s| !s.contains("Help — keys"));
        // A large scenario loads for seconds (minutes in a debug build): the keys below are
        // pressed whether or not it has finished, which is the point.
        if t.wait_up_to(long, loaded) {
            t.keys(&["G"]);
            t.wait_up_to(long, running_or_done);
        }
        // Restart, and before it has loaded, the next variant (which cancels the restart), flat out.
        t.keys(&["r", "v", "G"]);
        t.wait("the next variant", Duration::from_secs(10), |s| !s.contains("variant naive (1/"));
        t.wait_up_to(long, |s| loaded(s) && running_or_done(s));
        t.keys(&["q"]);
        t.wait("keyheat to quit", Duration::from_secs(10), |_| exited(&status));
        let exit = std::fs::read_to_string(&status).unwrap_or_default();
        assert!(exit.contains("keyheat exited 0"), "{name}: {exit}");
        let (gap, frames) = longest_gap(&frame_log);
        eprintln!("{name}: longest gap between frames {gap:.0} ms over {frames} frames");
        assert!(
            gap <= LIMIT_MS,
            "{name}: a frame came {gap:.0} ms after the one before (limit {LIMIT_MS} ms)"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn q_quits_while_a_large_scenario_is_still_loading() {
    if !tmux_or_skip("quitting while a scenario loads") {
        return;
    }
    let dir = scratch("quit-loading");
    let status = dir.join("status");
    let script = format!(
        "\"$0\" tui leaderboard; echo \"keyheat exited $?\" > '{}'; exec sleep 600",
        status.display()
    );
    let bin = env!("CARGO_BIN_EXE_keyheat");
    let t = Tmux::start("quit-loading", &["sh", "-c", &script, bin], &[("KEYHEAT_STATE_DIR", &dir)]);
    t.wait("the load's progress", Duration::from_secs(30), |s| s.contains("loading the initial items"));
    t.keys(&["q"]);
    // leaderboard's load takes seconds; quitting does not wait for it.
    t.wait("keyheat to quit", Duration::from_secs(2), |_| exited(&status));
    assert!(std::fs::read_to_string(&status).unwrap_or_default().contains("keyheat exited 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `keyheat tui counters --engine cosmosdb` in a real terminal: the workbench opens on Cosmos DB
/// (the status line names it, the schema gives the container's throughput, the heatmap counts
/// request units), help lists the metrics `m` offers there, normalized RU included, and `q`
/// quits cleanly.
#[test]
fn tui_engine_opens_the_workbench_on_the_store_asked_for() {
    if !tmux_or_skip("the workbench opened with --engine") {
        return;
    }
    let dir = scratch("engine");
    let status = dir.join("status");
    let script = format!(
        "\"$0\" tui counters --engine cosmosdb; echo \"keyheat exited $?\" > '{}'; exec sleep 600",
        status.display()
    );
    let bin = env!("CARGO_BIN_EXE_keyheat");
    let t = Tmux::start("engine", &["sh", "-c", &script, bin], &[("KEYHEAT_STATE_DIR", &dir)]);
    t.wait("the workbench on Cosmos DB", Duration::from_secs(60), |s| {
        s.contains("· Cosmos DB · seed 3 · naive") && s.contains("RU/s manual") && s.contains("write RU")
    });
    t.keys(&["?"]);
    t.wait("help with Cosmos DB's metrics", Duration::from_secs(30), |s| {
        s.contains("heatmap metric: write RU, read RU") && s.contains("items, normalized RU")
    });
    t.keys(&["?"]);
    t.keys(&["q"]);
    t.wait("keyheat to quit", Duration::from_secs(30), |_| exited(&status));
    assert!(std::fs::read_to_string(&status).unwrap_or_default().contains("keyheat exited 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A newcomer turns sensors' naive keys into day buckets with nothing but what the editor shows:
/// Tab lists the slot's choices and completes the attribute, the cheat sheet (F2) shows how a
/// day is written, the verdict says what the planner makes of the draft. Applied, the replay's
/// largest partition stops growing, where under the naive keys it was heading for the limit.
#[test]
fn a_newcomer_buckets_sensors_by_day_with_tab_completion_and_the_cheat_sheet() {
    if !tmux_or_skip("the real binary driven in a terminal") {
        return;
    }
    let dir = scratch("buckets");
    let state = dir.join("state");
    let bin = env!("CARGO_BIN_EXE_keyheat");
    let t = Tmux::start(
        "buckets",
        &[bin, "tui", "sensors", "--variant", "naive"],
        &[("KEYHEAT_STATE_DIR", &state), ("TERM", Path::new("xterm-256color"))],
    );
    t.wait("the workbench on naive", Duration::from_secs(30), |s| {
        s.contains("Partition sizes") && s.contains("variant naive")
    });
    // Under the naive keys a sensor's partition grows toward the limit.
    t.keys(&["G"]);
    t.wait("the naive partition to head for the limit", Duration::from_secs(120), |s| {
        s.contains("limit in ~")
    });

    t.keys(&["e"]);
    t.wait_for("editing naive");
    editor_line_end(&t, 6, 62);
    for _ in 0..25 {
        t.keys(&["Left"]);
    }
    t.wait_for("cursor 6:37 ");
    t.type_text("#{");
    t.wait_for("cursor 6:39 ");
    // Tab in an empty slot: the Reading attributes and the slot functions.
    t.keys(&["Tab"]);
    t.wait("the completion list", Duration::from_secs(10), |s| {
        s.contains("reading_time attribute") && s.contains("bucket( time bucket")
    });
    // Three letters and Tab: the only attribute they can start.
    t.type_text("rea");
    t.wait("the list to close as typing goes on", Duration::from_secs(10), |s| {
        !s.contains("bucket( time bucket") && s.contains("cursor 6:42 ")
    });
    t.keys(&["Tab"]);
    t.wait_for("cursor 6:51 ");
    // The cheat sheet says how a calendar day is written.
    t.keys(&["F2"]);
    t.wait("the cheat sheet", Duration::from_secs(10), |s| {
        s.contains("{attr:%Y-%m-%d}") && s.contains("{sensor_id}#{reading_time:%Y-%m-%d}")
    });
    t.type_text(":%Y-%m-%d}");
    // Valid, and once typing pauses the verdict says what the dashboard's read becomes.
    t.wait("the draft to load and be planned", Duration::from_secs(30), |s| {
        s.contains("✔ loads · last-24h: SELECT, 2 partitions")
    });
    t.keys(&["C-s"]);
    t.wait_for("applied: the replay restarted");
    t.keys(&["Escape"]);
    // The Schema panel writes the key as the editor takes it.
    t.wait("the schema panel to show the new key", Duration::from_secs(30), |s| {
        !s.contains("editing naive")
            && s.contains("\"Reading\": (pk:")
            && s.contains("\"{sensor_id}#{reading_time:%Y-%m-%d}\"")
    });
    t.keys(&["G"]);
    t.wait("the largest partition to stop growing", Duration::from_secs(180), |s| {
        s.contains("stopped growing") && !s.contains("limit in ~")
    });
    t.keys(&["q"]);
    t.wait_for("Quit with unsaved edits?");
    t.keys(&["y"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Moves the editor's cursor to `line` (Down, one row at a time: long lines wrap), then to its
/// end, waiting for each move to show.
fn editor_line_end(t: &Tmux, line: usize, end_col: usize) {
    for _ in 0..30 {
        let screen = t.screen();
        if screen.contains(&format!("cursor {line}:")) {
            break;
        }
        let before = cursor(&screen);
        t.keys(&["Down"]);
        t.wait("the cursor to move", Duration::from_secs(10), |s| cursor(s) != before);
    }
    t.keys(&["End"]);
    t.wait_for(&format!("cursor {line}:{end_col} "));
}

/// Presses `key` `n` times, waiting for the editor's cursor to move each time.
fn editor_repeat(t: &Tmux, key: &str, n: usize) {
    for _ in 0..n {
        let before = cursor(&t.screen());
        t.keys(&[key]);
        t.wait("the cursor to move", Duration::from_secs(10), |s| cursor(s) != before);
    }
}

/// A candidate's interview: `keyheat practice` on practice-chat (cut to a 10-minute replay so a
/// debug build grades it in seconds). The first screen holds the prompt and no part of the
/// answer; hints come one by one; the starting design graded in the workbench fails on the
/// year's partition; the answer, typed in the editor and saved as a new variant, passes; submit
/// writes the Markdown grade report.
#[test]
fn a_candidate_plays_a_practice_problem_to_a_written_grade() {
    if !tmux_or_skip("a practice session played to its grade") {
        return;
    }
    let dir = scratch("practice");
    let problem = dir.join("practice-chat.ron");
    let text =
        include_str!("../scenarios/practice-chat.ron").replace(r#"duration: "1h""#, r#"duration: "10m""#);
    std::fs::write(&problem, text).expect("the temp dir is writable");
    let report = dir.join("grade.md");
    let script = format!(
        "\"$0\" practice '{}' --minutes 30 --report '{}'; echo \"keyheat exited $?\"; exec sleep 600",
        problem.display(),
        report.display()
    );
    let t = Tmux::start(
        "practice",
        &["sh", "-c", &script, env!("CARGO_BIN_EXE_keyheat")],
        &[("KEYHEAT_STATE_DIR", &dir.join("state")), ("TERM", Path::new("xterm-256color"))],
    );

    // The prompt and the countdown; nothing of the answer.
    let first = t.wait("the prompt and the countdown", Duration::from_secs(30), |s| {
        s.contains("Practice: Design the table keys") && s.contains("⏱ 2") && s.contains("left")
    });
    for leak in ["10-day bucket", "indexed by user", "Hint 1", "recommended", "Lesson:"] {
        assert!(!first.contains(leak), "{leak:?} on the first screen:\n{first}");
    }

    // Hints, one at a time.
    t.keys(&["h"]);
    let one = t.wait_for("Hint 1:");
    assert!(!one.contains("Hint 2:"), "{one}");
    t.keys(&["h"]);
    t.wait_for("Hint 2:");

    // The starting design, graded: the year's partition fails it.
    t.keys(&["g"]);
    // Every line the test reads is in the predicate: a capture can catch a frame half drawn, so
    // the test waits for the whole popup rather than asserting on the first glimpse of it.
    t.wait("the grade of naive", Duration::from_secs(120), |s| {
        s.contains("FAIL")
            && s.contains("Grade")
            && s.contains("✘ no partition past 10 GB within a year")
            && s.contains("projected: 25.5 GB")
    });
    t.keys(&["Escape"]);
    t.wait("the grade to close", Duration::from_secs(10), |s| !s.contains("↑↓ scroll · Esc close"));

    // The answer: rename, bucket the messages, index memberships by user; saved beside naive.
    t.keys(&["e"]);
    t.wait_for("editing naive");
    editor_line_end(&t, 2, 19);
    editor_repeat(&t, "Left", 2);
    editor_repeat(&t, "BSpace", 5);
    t.type_text("mine");
    t.wait_for("cursor 2:16 ");
    editor_line_end(&t, 5, 71);
    editor_repeat(&t, "Left", 30);
    t.type_text("#{bucket(sent_at, 10d)}");
    editor_line_end(&t, 7, 7);
    t.keys(&["Enter"]);
    t.wait_for("cursor 8:1 ");
    t.type_text(r#"    indexes: [(name: "by-user", keys: {"Membership": (pk: "USER#{user_id}", sk: "CH#{channel_id}")})],"#);
    t.wait("the answer to load", Duration::from_secs(30), |s| s.contains("✔ loads"));
    t.keys(&["C-n"]);
    t.wait_for("saved as variant mine beside naive");
    t.keys(&["Escape"]);
    t.wait("the schema panel on mine", Duration::from_secs(30), |s| s.contains("variant mine (2/2)"));

    // Graded again: it passes, and the lesson is earned.
    t.keys(&["g"]);
    t.wait("the grade of mine", Duration::from_secs(120), |s| {
        s.contains("PASS 5 of 5 goals met by variant mine") && s.contains("hints used: 2 of 3")
    });
    t.keys(&["Escape"]);
    t.wait("the grade to close", Duration::from_secs(10), |s| !s.contains("↑↓ scroll · Esc close"));

    // Submit: the report is written.
    t.keys(&["S"]);
    t.wait_for("grade report written to");
    let md = std::fs::read_to_string(&report).expect("the grade report is written");
    for part in [
        "**PASS**: 5 of 5 goals met by variant `mine`",
        "- hints used: 2 of 3",
        "- ended: submitted by the candidate",
        "name: \"mine\"",
        "CH#{channel_id}#{bucket(sent_at, 10d)}",
    ] {
        assert!(md.contains(part), "{part:?} missing from the report:\n{md}");
    }
    t.keys(&["Escape"]);
    t.wait("the grade to close", Duration::from_secs(10), |s| !s.contains("↑↓ scroll · Esc close"));
    t.keys(&["q"]);
    t.wait_for("Quit with unsaved edits?");
    t.keys(&["y"]);
    let screen = t.wait_for("keyheat exited");
    assert!(screen.contains("keyheat exited 0"), "{screen}");
    let _ = std::fs::remove_dir_all(&dir);
}

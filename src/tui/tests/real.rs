//! Keys through `App::update` with the real driver: the simulator replays, the frame loop's
//! budget bounds each frame's stepping, and the baseline keeps pace with the current run. The
//! budget here counts driver calls instead of reading a clock, so the tests are deterministic.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::*;
use crate::ops::short::LineError;
use crate::tui::driver::{DriverError, Run};
use crate::tui::overlay::Overlay;
use crate::tui::panels::status::MessageKind;
use crate::tui::workbench::Playback;

/// A frame's stepping allowed `calls` driver calls.
fn frame(a: &mut App, calls: u32) {
    let mut left = calls;
    a.tick(Duration::from_millis(40), &mut move || {
        if left == 0 {
            return true;
        }
        left -= 1;
        false
    });
    a.refresh(Rect::new(0, 0, 120, 40));
}

/// `counters` cut to `duration` as a scenario file (each of its ticks is 10,000 likes).
pub(super) fn short_counters(name: &str, duration: &str) -> String {
    let dir = temp_dir(name);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/counters.ron"))
        .expect("the bundled file is in the source tree");
    let text = text.replace(r#"duration: "15m""#, &format!(r#"duration: "{duration}""#));
    assert!(text.contains(duration), "the workload's duration is where the test expects it");
    let path = dir.join("counters.ron");
    std::fs::write(&path, text).expect("the temp dir is writable");
    path.display().to_string()
}

/// discord-scale cut to a day as a scenario file: still 1.7×10⁹ calls, too many to replay call
/// by call, so the workbench replays it as rates — in seconds, even in a debug build.
pub(super) fn discord_day(name: &str) -> String {
    let dir = temp_dir(name);
    let text = crate::scenario::load("discord-scale").expect("bundled").source().replacen(
        r#"duration: "365d""#,
        r#"duration: "1d""#,
        1,
    );
    assert!(text.contains(r#"duration: "1d""#), "the workload's duration is where the test expects it");
    let path = dir.join("discord-scale.ron");
    std::fs::write(&path, text).expect("the temp dir is writable");
    path.display().to_string()
}

#[test]
fn play_advances_the_real_run_and_the_panels_fill() {
    let mut a = real_app();
    a.open("orders", Some("naive"), None).unwrap();
    a.refresh(Rect::new(0, 0, 120, 40));
    assert!(workbench(&a).view.heatmap.is_none(), "nothing measured before the first tick");
    // Flat out (the top of the speed ladder): each frame gets as far as its calls allow.
    press(&mut a, &[key(KeyCode::Char(' '))]);
    for _ in 0..8 {
        press(&mut a, &[key(KeyCode::Char('+'))]);
    }
    for _ in 0..20 {
        frame(&mut a, 4);
    }
    let w = workbench(&a);
    let p = w.progress.expect("a replay");
    assert!(p.now > p.start && w.playback == Playback::Playing, "{p:?}");
    assert!(w.view.heatmap.is_some(), "the heatmap fills once ticks have closed");
    assert!(w.view.patterns.iter().any(|r| r.calls > 0));
    assert_eq!(w.view.goals.len(), w.loaded.scenario.goals.len());
    // Space pauses: frames then leave the clock alone.
    press(&mut a, &[key(KeyCode::Char(' '))]);
    frame(&mut a, 4);
    assert_eq!(workbench(&a).progress.map(|p| p.now), Some(p.now));
    // `.` steps exactly one tick.
    press(&mut a, &[key(KeyCode::Char('.'))]);
    assert_eq!(workbench(&a).progress.map(|p| p.now), Some(p.now + p.tick));
}

#[test]
fn a_new_variant_replays_beside_the_old_one_at_the_same_moment() {
    let mut a = real_app();
    a.open("orders", Some("naive"), None).unwrap();
    press(&mut a, &[key(KeyCode::Char('.')), key(KeyCode::Char('.'))]);
    // `v` restarts on the next variant; naive is replayed from the start as the baseline.
    press(&mut a, &[key(KeyCode::Char('v'))]);
    let w = workbench(&a);
    assert_eq!((w.run_label.as_str(), w.baseline_label.as_deref()), ("recommended", Some("naive")));
    for _ in 0..5 {
        press(&mut a, &[key(KeyCode::Char('.'))]);
    }
    press(&mut a, &[key(KeyCode::Char('c'))]);
    a.refresh(Rect::new(0, 0, 120, 40));
    let w = workbench(&a);
    let p = w.progress.expect("a replay");
    assert_eq!(p.now, p.start + SimDuration::from_millis(p.tick.as_millis() * 5));
    assert!(w.baseline.is_some(), "compare has the baseline's snapshot");
    // `r` restarts the same design: the run before (recommended) is the baseline now.
    press(&mut a, &[key(KeyCode::Esc), key(KeyCode::Char('r'))]);
    let w = workbench(&a);
    assert_eq!(w.baseline_label.as_deref(), Some("recommended"));
}

#[test]
fn each_side_of_compare_speaks_of_its_own_designs_splits() {
    // orders' naive with an LSI holds its item collections to 10 GB; recommended (a GSI, no LSI)
    // splits. After `v` the baseline is the naive run, and its legend keeps naive's words.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/orders.ron"))
        .expect("the bundled file is in the source tree");
    let lsi =
        r#"(name: "by-placed", kind: Local, keys: {"Order": (sk: "{placed_at}")}, projection: KeysOnly)"#;
    // The first variant's keys (naive's) end here; the index goes after them.
    let naive_keys = r#""OrderItem": (pk: "ORDER#{order_id}", sk: "ITEM#{line:03}"),
            },"#;
    assert!(text.contains(naive_keys), "naive's keys are where the test expects them");
    let edited = text.replacen(naive_keys, &format!("{naive_keys}\n            indexes: [{lsi}],"), 1);
    let path = temp_dir("compare-splits").join("orders.ron");
    std::fs::write(&path, edited).expect("the temp dir is writable");
    let mut a = real_app();
    a.open(&path.display().to_string(), Some("naive"), None).unwrap();
    assert_eq!(workbench(&a).run_splits, [false, false], "naive with an LSI: the table and the LSI stop");
    press(&mut a, &[key(KeyCode::Char('v'))]);
    let w = workbench(&a);
    assert_eq!(w.run_splits, [true, true], "recommended: the table and its GSI split");
    assert_eq!(w.baseline_splits.as_deref(), Some([false, false].as_slice()));
}

#[test]
fn jump_to_end_runs_out_the_workload_within_frame_budgets() {
    let path = short_counters("jump", "6s");
    let mut a = real_app();
    a.open(&path, Some("naive"), None).unwrap();
    press(&mut a, &[key(KeyCode::Char('G'))]);
    assert_eq!(workbench(&a).playback, Playback::ToEnd);
    // One driver call a frame: a call stops after a chunk of calls once its time is up, so the
    // six ticks of 10,000 likes (and their retries) take many frames, and the jump still ends.
    let mut frames = 0;
    while workbench(&a).playback == Playback::ToEnd {
        frame(&mut a, 1);
        frames += 1;
        assert!(frames <= 20_000, "the jump to the end finishes");
    }
    let w = workbench(&a);
    assert!(w.progress.is_some_and(|p| p.finished()), "{:?}", w.progress);
    assert_eq!(
        a.message.as_ref().map(|(m, k)| (m.as_str(), *k)),
        Some(("the replay reached the end of the workload", MessageKind::Info))
    );
    // At the end, play and `.` say so instead of doing nothing.
    press(&mut a, &[key(KeyCode::Char(' '))]);
    assert!(a.message.as_ref().is_some_and(|(m, _)| m.contains("r restarts it")), "{:?}", a.message);
    assert!(
        workbench(&a).view.goals.iter().any(|g| g.state == crate::tui::view::GoalState::Missed),
        "the hot counter fails its goals"
    );
}

#[test]
fn the_baseline_is_dropped_for_a_fresh_run_only_when_it_had_moved() {
    let path = short_counters("baseline", "4s");
    // No call limit: every call does what it is asked.
    let mut driver = SimReplay::new(Duration::from_secs(3600), Duration::ZERO);
    let loaded = crate::scenario::load(&path).unwrap();
    let (naive, sharded) = (&loaded.scenario.variants[0], &loaded.scenario.variants[1]);
    driver.restart(&loaded.scenario, naive, 3).unwrap();
    assert_eq!(driver.step(2), 2);
    driver.restart(&loaded.scenario, sharded, 3).unwrap();
    let (now, before) = (driver.progress(Run::Current).unwrap(), driver.progress(Run::Baseline).unwrap());
    assert_eq!((now.now, before.now), (now.start, before.start), "both start over");
    assert_eq!(driver.step(10), 4, "the workload has four ticks");
    assert_eq!(driver.progress(Run::Baseline).unwrap().now, driver.progress(Run::Current).unwrap().now);
    assert_eq!(driver.step(1), 0, "nothing left to step");
    // A call that has worked its limit returns after one chunk of simulated calls, inside the
    // tick (10,000 likes) it is on: short calls, whatever asked; the tick completes over calls.
    let mut short = SimReplay::new(Duration::ZERO, Duration::ZERO);
    short.restart(&loaded.scenario, naive, 3).unwrap();
    let start = short.progress(Run::Current).unwrap().now;
    assert_eq!((short.step(4), short.step(4)), (0, 0));
    assert_eq!(short.progress(Run::Current).unwrap().now, start, "the clock waits for the tick's end");
    let calls = std::iter::repeat_with(|| short.step(4)).take_while(|&done| done == 0).count();
    assert!(calls > 10, "a tick of 10,000 likes takes dozens of chunks ({calls} more calls)");
    assert!(short.progress(Run::Current).unwrap().now > start);
}

#[test]
fn the_console_reads_the_replays_table() {
    let mut a = real_app();
    a.open("orders", Some("naive"), None).unwrap();
    a.refresh(Rect::new(0, 0, 120, 40));
    press(&mut a, &[key(KeyCode::Char('.'))]);
    press(&mut a, &[key(KeyCode::Char(':'))]);
    // A short form, a JSON request, a write (refused) and a mistake, each answered in the history.
    for request in ["scan limit 2", r#"{"op":"Scan","TableName":"orders","Limit":1}"#, "put x", "query pk ="]
    {
        type_text(&mut a, request);
        press(&mut a, &[key(KeyCode::Enter)]);
    }
    let Some(Overlay::Console(c)) = &a.overlay else { panic!("the console stays open") };
    let answers: Vec<_> = c.history.iter().map(|(_, a)| a.as_ref()).collect();
    let scan = answers[0].expect("a scan of the replay's table is answered");
    assert!(scan.contains("\"Count\": 2") && scan.contains("\"ScannedCount\": 2"), "{scan}");
    assert!(scan.lines().count() > 5, "the answer is indented for reading: {scan}");
    assert!(answers[1].expect("JSON requests are answered too").contains("\"Count\": 1"));
    // Neither is a short form: the console's history keeps why, as the parser said it.
    for mistake in &answers[2..] {
        let short = matches!(mistake, Err(DriverError::Console(LineError::Short(_))));
        assert!(short, "{answers:?}");
    }
}

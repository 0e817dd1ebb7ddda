//! The threaded driver ([`Worker`]) behind the app: restarts answer at once, the newest wins, the
//! run paces itself and reaches the end, one tick is one tick, compare replays the previous
//! design only when asked. These tests wait for a real thread, so they poll with a deadline
//! (never a fixed sleep) for the state they expect.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::real::{discord_day, short_counters};
use super::*;
use crate::engine::time::SimDuration;
use crate::tui::driver::{Pace, Run, SimDriver, Stage};
use crate::tui::pacing::SPEEDS;
use crate::tui::replay::Worker;
use crate::tui::workbench::{Mode, Playback};

/// Polls `ready` until it holds; fails saying `what` after a generous deadline.
fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(180);
    while !ready() {
        assert!(Instant::now() < deadline, "waited 180 s for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn request() -> ViewRequest {
    ViewRequest {
        metric: crate::engine::metrics::Metric::WriteUnits,
        layer: crate::engine::metrics::Layer::Logical,
        order: crate::engine::metrics::RowOrdering::ByKey,
        rows: 20,
        cols: 40,
        size_points: 40,
        size_series: 3,
    }
}

/// A frame of the event loop: real time passes, then the snapshot.
fn frame(a: &mut App) {
    a.tick(Duration::from_millis(40), &mut || true);
    a.refresh(Rect::new(0, 0, 120, 40));
}

#[test]
fn a_restart_returns_at_once_and_a_newer_one_cancels_the_older() {
    let mut w = Worker::spawn().unwrap();
    // leaderboard loads 1,000,000 players before its first tick: seconds even in release.
    let slow = crate::scenario::load("leaderboard").unwrap();
    let quick = crate::scenario::load(&short_counters("worker-newest", "10s")).unwrap();
    let began = Instant::now();
    w.restart(&slow.scenario, &slow.scenario.variants[0], 1).unwrap();
    assert!(w.loading(Run::Current).is_some(), "the load shows at once");
    w.restart(&quick.scenario, &quick.scenario.variants[0], 1).unwrap();
    assert!(began.elapsed() < Duration::from_millis(100), "restarts return at once: {:?}", began.elapsed());
    until("the newer run", || w.progress(Run::Current).is_some());
    assert_eq!(w.loading(Run::Current), None);
    until("its first view", || w.snapshot(&request(), Run::Current).is_some());
    let view = w.snapshot(&request(), Run::Current).unwrap();
    let names: Vec<&str> = view.patterns.iter().map(|p| p.name.as_str()).collect();
    let want: Vec<&str> = quick.scenario.patterns.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), want.len());
    assert!(names.iter().all(|n| want.contains(n)), "the view is of the newer run: {names:?}");
    // The older load gave up: no baseline was made of a run that never played.
    assert_eq!((w.progress(Run::Baseline), w.loading(Run::Baseline)), (None, None));
}

#[test]
fn one_tick_is_one_tick_and_flat_out_reaches_the_end() {
    let mut w = Worker::spawn().unwrap();
    let loaded = crate::scenario::load(&short_counters("worker-ticks", "6s")).unwrap();
    w.restart(&loaded.scenario, &loaded.scenario.variants[0], 3).unwrap();
    until("the run", || w.progress(Run::Current).is_some());
    let start = w.progress(Run::Current).unwrap();
    let after = |n: u64| start.now + SimDuration::from_millis(start.tick.as_millis() * n);
    for n in 1..=2u64 {
        assert!(w.pace(Pace::OneTick));
        until("one tick", || w.progress(Run::Current).is_some_and(|p| p.now > after(n - 1)));
        assert_eq!(w.progress(Run::Current).unwrap().now, after(n));
    }
    w.pace(Pace::At(SPEEDS[SPEEDS.len() - 1]));
    until("the end", || w.progress(Run::Current).is_some_and(|p| p.finished()));
    assert_eq!(w.progress(Run::Current).unwrap().now, start.end);
}

#[test]
fn the_app_plays_to_the_end_and_compares_with_the_design_before() {
    let mut a = App::new(
        crate::tui::app::Config { theme: Theme::DARK, state_dir: None },
        Box::new(Worker::spawn().unwrap()),
    );
    a.open(&short_counters("worker-app", "8s"), Some("naive"), None).unwrap();
    // Play before the load is done: it plays once loaded, flat out with G.
    press(&mut a, &[key(KeyCode::Char('G'))]);
    assert_eq!(workbench(&a).playback, Playback::ToEnd);
    until("the end of the workload", || {
        frame(&mut a);
        workbench(&a).playback == Playback::Paused
    });
    assert!(workbench(&a).progress.is_some_and(|p| p.finished()));
    assert!(a.message.as_ref().is_some_and(|(m, _)| m.contains("reached the end")), "{:?}", a.message);
    until("the last view", || {
        frame(&mut a);
        workbench(&a).view.patterns.iter().any(|p| p.calls > 0)
    });
    // Another variant; compare replays naive to the same moment, then draws both.
    press(&mut a, &[key(KeyCode::Char('v')), key(KeyCode::Char('G'))]);
    until("the sharded run's end", || {
        frame(&mut a);
        workbench(&a).progress.is_some_and(|p| p.finished())
    });
    press(&mut a, &[key(KeyCode::Char('c'))]);
    assert_eq!(workbench(&a).mode, Mode::Compare);
    until("the baseline beside it", || {
        frame(&mut a);
        workbench(&a).baseline.is_some()
    });
    let w = workbench(&a);
    assert_eq!(w.baseline_loading, None);
    let naive = w.baseline.as_ref().unwrap();
    assert!(naive.report.is_some() && naive.report != w.view.report, "two designs, two reports");
}

/// A run too large to replay call by call is replayed as rates on the worker's thread: the
/// restart returns at once, the load says it is replaying as rates and how far, a newer restart
/// gives it up, and once done the run is at its end with the rates view; pacing it does nothing.
#[test]
fn a_run_replayed_as_rates_loads_on_the_worker_and_gives_way_to_a_newer_one() {
    let mut w = Worker::spawn().unwrap();
    let day = crate::scenario::load(&discord_day("worker-rates")).unwrap();
    let naive = day.variant(Some("naive")).unwrap();
    let began = Instant::now();
    w.restart(&day.scenario, naive, 2019).unwrap();
    assert!(began.elapsed() < Duration::from_millis(100), "restarts return at once: {:?}", began.elapsed());
    until("the rates stage", || w.loading(Run::Current).is_some_and(|l| l.stage == Stage::Rates));
    // Given up for a newer run, which plays.
    let quick = crate::scenario::load(&short_counters("worker-rates-newer", "10s")).unwrap();
    w.restart(&quick.scenario, &quick.scenario.variants[0], 1).unwrap();
    until("the newer run", || w.progress(Run::Current).is_some());
    assert!(!w.progress(Run::Current).unwrap().finished());
    // Asked again, it completes whole.
    w.restart(&day.scenario, naive, 2019).unwrap();
    until("the rates run", || w.progress(Run::Current).is_some());
    assert!(w.progress(Run::Current).unwrap().finished(), "computed whole");
    until("its view", || w.snapshot(&request(), Run::Current).is_some_and(|v| v.rates.is_some()));
    let view = w.snapshot(&request(), Run::Current).unwrap();
    // The heatmap is the expected load of the hottest partitions, not a measured one.
    assert!(view.heatmap.as_ref().is_some_and(|h| h.expected.is_some()) && view.report.is_some());
    assert!(w.pace(Pace::At(SPEEDS[SPEEDS.len() - 1])) && w.pace(Pace::OneTick));
    std::thread::sleep(Duration::from_millis(50));
    assert!(w.progress(Run::Current).unwrap().finished());
    assert_eq!(w.snapshot(&request(), Run::Current), Some(view));
    assert!(matches!(w.console("{}"), Err(crate::tui::driver::DriverError::NoStore)), "no store to ask");
}

//! One source of figures: the workbench's compare view (`c`) shows, for every bundled scenario,
//! the same key figures `keyheat compare` prints for the same two designs, seed and moment. The
//! view is driven as a user drives it (open the first design, switch to `recommended`, replay to
//! the moment, press `c`) and its screen is read back; the command's figures come from its own
//! path (`engine::judge::run` over `--duration`) and the words `report::compare` writes.
#![cfg(feature = "tui")]
// Exact equality is the point: both paths must compute the same numbers, not close ones.
#![allow(clippy::float_cmp)]

use keyheat::engine::judge;
use keyheat::engine::sim::{RunOptions, RunReport, fluid};
use keyheat::engine::time::SimDuration;
use keyheat::report::compare::Comparison;
use keyheat::tui::action::Action;
use keyheat::tui::app::{App, Config, Screen};
use keyheat::tui::replay::SimReplay;
use keyheat::tui::theme::Theme;
use keyheat::tui::ui;
use ratatui::layout::Rect;

/// Ticks each scenario is replayed: enough for every figure to move, short enough for a debug
/// build's replay of twelve scenarios twice over.
const TICKS: u64 = 60;
/// Calls a replay here may make: past it, fewer ticks (at least one).
const CALLS: f64 = 5e6;

#[test]
#[ignore = "two replays of every bundled scenario each way: run in release (`cargo test --release --test compare_view -- --ignored`)"]
fn the_compare_view_shows_keyheat_compares_figures_for_every_bundled_scenario() {
    for (name, _, _) in keyheat::scenario::BUNDLED {
        let loaded = keyheat::scenario::load(name).expect("bundled");
        let before = loaded.scenario.variants[0].name.clone();
        if before == "recommended" {
            continue;
        }
        let workload = loaded.scenario.workload.clone();
        // A run too large to replay call by call is replayed as rates, whole, in the workbench
        // as by `keyheat compare` (`--fidelity auto`): the figures are the whole run's.
        let whole = RunOptions { seed: None, duration: None };
        let recommended =
            loaded.variant(Some("recommended")).expect("every bundled scenario has recommended");
        let as_rates = judge::too_large(&loaded.scenario, recommended, &whole).is_some();
        let tick = RunOptions { seed: None, duration: Some(workload.tick) };
        let per_tick = loaded
            .scenario
            .variants
            .iter()
            .map(|v| fluid::expected_calls(&loaded.scenario, v, &tick))
            .fold(0.0, f64::max);
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a tick count ≥ 1")]
        let ticks = TICKS.min(((CALLS / per_tick.max(1.0)).floor() as u64).max(1));
        let at = if as_rates {
            workload.duration
        } else {
            SimDuration::from_millis((workload.tick.as_millis() * ticks).min(workload.duration.as_millis()))
        };

        // The workbench, as a user drives it.
        let mut app = App::new(Config { theme: Theme::DARK, state_dir: None }, Box::new(SimReplay::exact()));
        app.open(name, Some(&before), None).expect("opens");
        app.switch_variant("recommended").expect("every bundled scenario has recommended");
        app.run_to(workload.start + at, &mut |_| {});
        app.update(Action::Compare);
        let area = Rect::new(0, 0, 240, 80);
        app.refresh(area);
        let buf = ui::screen_buffer(&app, area);
        let screen: Vec<String> = (0..area.height)
            .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol().to_owned()).collect())
            .collect();
        let Screen::Workbench(w) = &app.screen else { panic!("{name}: the workbench is not up") };
        let view: Vec<&RunReport> = [w.baseline.as_ref(), Some(&w.view)]
            .into_iter()
            .flatten()
            .filter_map(|v| v.report.as_deref())
            .collect();
        assert_eq!(view.len(), 2, "{name}: both runs have a report");

        // `keyheat compare NAME --variant BEFORE --variant recommended --duration AT` (the
        // default `--fidelity auto`).
        let options = RunOptions { seed: None, duration: Some(at) };
        let reports: Vec<RunReport> = [before.as_str(), "recommended"]
            .iter()
            .map(|v| {
                let variant = loaded.variant(Some(v)).unwrap();
                judge::run_as(&loaded.scenario, variant, &options, judge::Replay::Auto, &mut |_| {}).unwrap()
            })
            .collect();
        let rates = reports.iter().all(|r| r.fidelity == keyheat::engine::sim::report::Fidelity::Rates);
        assert_eq!(rates, as_rates, "{name}: replayed as the command replays it");
        let command = Comparison::new(&reports).expect("comparable");
        let shown: Vec<RunReport> = view.into_iter().cloned().collect();
        let workbench = Comparison::new(&shown).expect("the view's runs are comparable");
        assert_eq!(workbench.seed, command.seed, "{name}");
        assert_eq!(workbench.duration_s, command.duration_s, "{name}: the same moment");
        for (ours, theirs) in workbench.figures.iter().zip(&command.figures) {
            assert_eq!(ours.key, theirs.key, "{name}");
            assert_eq!(ours.values, theirs.values, "{name}: {}", ours.label);
            // And the screen shows them as the command writes them: label, before, now.
            let (b, n) = (theirs.value(0), theirs.value(1));
            assert!(
                screen.iter().any(|l| l.contains(theirs.label) && l.contains(&b) && l.contains(&n)),
                "{name}: {} {b} → {n} not on the screen:\n{}",
                theirs.label,
                screen.join("\n")
            );
        }
        assert_eq!(workbench.figures.len(), command.figures.len(), "{name}");
        eprintln!(
            "{name}: {} figures agree at +{at}{}",
            command.figures.len(),
            if as_rates { " (replayed as rates)" } else { "" }
        );
    }
}

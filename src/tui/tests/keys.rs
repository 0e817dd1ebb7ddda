//! Key and mouse handling through `App::update`, with synthetic events: no terminal, no sleeps.

use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use super::*;
use crate::engine::metrics::{Metric, RowOrdering};
use crate::tui::action::Panel;
use crate::tui::keymap::Context;
use crate::tui::overlay::{Confirm, Overlay};
use crate::tui::pacing::{DEFAULT_SPEED, SPEEDS};
use crate::tui::panels::status::MessageKind;
use crate::tui::workbench::{Mode, Playback};

fn opened(name: &str) -> App {
    let mut a = app(true, None);
    a.open(name, None, None).unwrap();
    a.wait_for_plan();
    a.refresh(Rect::new(0, 0, 120, 40));
    a
}

fn message(app: &App) -> Option<(&str, MessageKind)> {
    app.message.as_ref().map(|(t, k)| (t.as_str(), *k))
}

#[test]
fn the_picker_opens_a_scenario_and_quits() {
    let mut a = app(true, None);
    assert_eq!(a.context(), Context::Picker);
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Enter)]);
    let w = workbench(&a);
    assert_eq!(w.loaded.scenario.name, "orders");
    assert_eq!(w.current().name, "naive");
    let mut b = app(true, None);
    press(&mut b, &[key(KeyCode::Char('q'))]);
    assert!(b.quit);
}

/// ←/→ choose among the stores a scenario's file lists, round the list; Enter opens it there, as
/// `keyheat tui --engine` would. A scenario on one store ignores them.
#[test]
fn the_picker_opens_a_scenario_on_the_store_chosen() {
    use crate::engine::model::Engine;
    let position = |name: &str| crate::scenario::BUNDLED.iter().position(|(n, _, _)| *n == name).unwrap();
    // (presses of →, then ←, and the store counters opens on; its file lists three)
    let cases = [
        (0, 0, Engine::DynamoDb),
        (1, 0, Engine::Cassandra),
        (2, 0, Engine::CosmosDb),
        (3, 0, Engine::DynamoDb),
        (0, 1, Engine::CosmosDb),
    ];
    for (right, left, want) in cases {
        let mut a = app(true, None);
        for _ in 0..position("counters") {
            press(&mut a, &[key(KeyCode::Down)]);
        }
        press(&mut a, &vec![key(KeyCode::Right); right]);
        press(&mut a, &vec![key(KeyCode::Left); left]);
        press(&mut a, &[key(KeyCode::Enter)]);
        let w = workbench(&a);
        assert_eq!(
            (w.loaded.scenario.name.as_str(), w.loaded.scenario.engine),
            ("counters", want),
            "→×{right} ←×{left}"
        );
    }
    let mut a = app(true, None);
    press(&mut a, &[key(KeyCode::Right), key(KeyCode::Enter)]);
    assert_eq!(workbench(&a).loaded.scenario.engine, Engine::Cassandra, "sensors lists one store");
}

#[test]
fn the_picker_opens_files_by_path_and_says_what_is_wrong() {
    let dir = temp_dir("open-file");
    let mut a = app(true, None);
    press(&mut a, &[key(KeyCode::Char('o'))]);
    assert_eq!(a.context(), Context::Prompt);
    type_text(&mut a, "no/such.ron");
    press(&mut a, &[key(KeyCode::Enter)]);
    let Some(Overlay::Prompt(p)) = &a.overlay else { panic!("the prompt stays open") };
    assert!(p.error.as_deref().unwrap_or_default().contains("no such file"), "{:?}", p.error);
    // A broken file: the error names file:line:col.
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, crate::scenario::BUNDLED[0].2.replacen("rate: 0.2,", "rate: fifty,", 1)).unwrap();
    for _ in 0.."no/such.ron".len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &broken.display().to_string());
    press(&mut a, &[key(KeyCode::Enter)]);
    let Some(Overlay::Prompt(p)) = &a.overlay else { panic!("the prompt stays open") };
    let error = p.error.clone().unwrap_or_default();
    let line = crate::scenario::BUNDLED[0].2.lines().position(|l| l.contains("rate: 0.2,")).unwrap() + 1;
    assert!(error.starts_with(&format!("{}:{line}:", broken.display())), "{error}");
    // A good file opens.
    let good = dir.join("good.ron");
    std::fs::write(&good, crate::scenario::BUNDLED[2].2).unwrap();
    for _ in 0..broken.display().to_string().len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &good.display().to_string());
    press(&mut a, &[key(KeyCode::Enter)]);
    assert!(a.overlay.is_none());
    assert_eq!(workbench(&a).loaded.scenario.name, "counters");
}

#[test]
fn replay_keys_drive_the_simulator_seam() {
    let mut a = opened("sensors");
    assert_eq!(workbench(&a).playback, Playback::Paused);
    press(&mut a, &[key(KeyCode::Char(' '))]);
    assert_eq!(workbench(&a).playback, Playback::Playing);
    press(&mut a, &[key(KeyCode::Char(' '))]);
    assert_eq!(workbench(&a).playback, Playback::Paused);
    press(&mut a, &[key(KeyCode::Char('+')), key(KeyCode::Char('+'))]);
    assert_eq!(workbench(&a).speed, DEFAULT_SPEED + 2);
    press(&mut a, &[key(KeyCode::Char('-'))]);
    assert_eq!(workbench(&a).speed, DEFAULT_SPEED + 1);
    for _ in 0..20 {
        press(&mut a, &[key(KeyCode::Char('+'))]);
    }
    assert_eq!(workbench(&a).speed, SPEEDS.len() - 1);
    // `.` steps exactly one tick.
    press(&mut a, &[key(KeyCode::Char('.'))]);
    let p = workbench(&a).progress.unwrap();
    assert_eq!(p.now.since(p.start), SimDuration::from_secs(60));
    // `r` restarts at the start with the same variant and seed.
    press(&mut a, &[key(KeyCode::Char('r'))]);
    let p = workbench(&a).progress.unwrap();
    assert_eq!(p.now, p.start);
    // `G` runs flat out to the end within the step budget, then pauses.
    press(&mut a, &[KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT)]);
    assert_eq!(workbench(&a).playback, Playback::ToEnd);
    let mut frames = 0;
    while workbench(&a).playback != Playback::Paused {
        let mut calls = 0;
        // A budget that allows four chunks a frame.
        a.tick(std::time::Duration::from_millis(40), &mut || {
            calls += 1;
            calls > 4
        });
        frames += 1;
        assert!(frames < 100, "never reached the end");
    }
    assert!(workbench(&a).progress.unwrap().finished());
    assert_eq!(message(&a), Some(("the replay reached the end of the workload", MessageKind::Info)));
    // At the end, play explains instead of playing.
    press(&mut a, &[key(KeyCode::Char(' '))]);
    assert_eq!(workbench(&a).playback, Playback::Paused);
    assert!(message(&a).is_some_and(|(t, k)| t.contains("r restarts") && k == MessageKind::Error));
}

#[test]
fn playing_steps_what_real_time_pays_for_and_no_more_than_the_budget() {
    let mut a = opened("sensors");
    press(&mut a, &[key(KeyCode::Char(' '))]);
    // One hour a second with one-minute ticks: 0.5 s of real time is 30 ticks.
    a.tick(std::time::Duration::from_millis(500), &mut || false);
    let p = workbench(&a).progress.unwrap();
    assert_eq!(p.now.since(p.start), SimDuration::from_secs(30 * 60));
    // A budget spent at once steps nothing, and the debt is forgiven rather than burst later.
    a.tick(std::time::Duration::from_secs(5), &mut || true);
    a.tick(std::time::Duration::ZERO, &mut || false);
    let p = workbench(&a).progress.unwrap();
    assert_eq!(p.now.since(p.start), SimDuration::from_secs(30 * 60));
}

#[test]
fn focus_heatmap_and_lesson_keys() {
    let mut a = opened("sensors");
    assert_eq!(a.focus(), Some(Panel::Heatmap));
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Sizes));
    press(&mut a, &[KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT), key(KeyCode::BackTab)]);
    assert_eq!(a.focus(), Some(Panel::Goals));
    for _ in 0..3 {
        press(&mut a, &[key(KeyCode::Tab)]);
    }
    assert_eq!(a.focus(), Some(Panel::Indexes));
    // The lesson is shown, so Tab reaches it (and scrolls it), then wraps to the schema.
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Lesson));
    press(&mut a, &[key(KeyCode::Down)]);
    assert_eq!(workbench(&a).scroll_of(Panel::Lesson), 1);
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Schema));
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Down)]);
    assert_eq!(workbench(&a).scroll_of(Panel::Schema), 2);
    press(&mut a, &[key(KeyCode::Char('m'))]);
    assert_eq!(workbench(&a).heat.metric, Metric::ReadUnits);
    press(&mut a, &[key(KeyCode::Char('s')), key(KeyCode::Char('o'))]);
    assert!(workbench(&a).heat.relative);
    assert_eq!(workbench(&a).heat.order, RowOrdering::ByHeat);
    assert!(workbench(&a).lesson);
    press(&mut a, &[key(KeyCode::Char('l'))]);
    assert!(!workbench(&a).lesson);
    // Hidden, the lesson is skipped: from the indexes Tab goes straight to the schema.
    while a.focus() != Some(Panel::Indexes) {
        press(&mut a, &[key(KeyCode::Tab)]);
    }
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Schema));
    // The heatmap cursor moves inside the matrix and no further.
    press(&mut a, &[key(KeyCode::Char(' ')), key(KeyCode::Char(' '))]);
    let mut a = opened("sensors");
    a.refresh(Rect::new(0, 0, 120, 40));
    // It opens on the hottest cell, and stays where the keys put it after that.
    let hottest =
        crate::tui::panels::heatmap::hottest_cell(&workbench(&a).view.heatmap.as_ref().unwrap().matrix);
    assert_eq!(Some(workbench(&a).heat.cursor), hottest);
    for _ in 0..500 {
        press(&mut a, &[key(KeyCode::Up), key(KeyCode::Left)]);
    }
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Right), key(KeyCode::Right)]);
    a.refresh(Rect::new(0, 0, 120, 40));
    assert_eq!(workbench(&a).heat.cursor, (1, 2));
    for _ in 0..500 {
        press(&mut a, &[key(KeyCode::Down), key(KeyCode::Right)]);
    }
    let h = workbench(&a).view.heatmap.as_ref().unwrap();
    assert_eq!(workbench(&a).heat.cursor, (h.matrix.rows.len() - 1, h.matrix.cols() - 1));
}

#[test]
fn help_opens_from_anywhere_and_closes() {
    let mut a = opened("sensors");
    press(&mut a, &[key(KeyCode::Char('?'))]);
    assert_eq!(a.context(), Context::Help);
    // Keys that mean something on the workbench do nothing under help.
    press(&mut a, &[key(KeyCode::Char(' ')), key(KeyCode::Down)]);
    assert_eq!(workbench(&a).playback, Playback::Paused);
    assert!(matches!(
        a.overlay,
        Some(Overlay::Help { scroll: 1, screen: Context::Workbench(Panel::Heatmap), .. })
    ));
    press(&mut a, &[key(KeyCode::Esc)]);
    assert!(a.overlay.is_none());
    press(&mut a, &[key(KeyCode::Char('?')), key(KeyCode::Char('?'))]);
    assert!(a.overlay.is_none());
}

#[test]
fn variants_cycle_and_compare_needs_a_previous_run() {
    let mut a = opened("orders");
    press(&mut a, &[key(KeyCode::Char('c'))]);
    assert!(message(&a).is_some_and(
        |(t, k)| t.contains("nothing to compare with yet: v switches variant") && k == MessageKind::Error
    ));
    press(&mut a, &[key(KeyCode::Char('v'))]);
    assert_eq!(workbench(&a).current().name, "recommended");
    a.wait_for_plan();
    assert_eq!(workbench(&a).plan().map(|p| p.variant.as_str()), Some("recommended"));
    press(&mut a, &[key(KeyCode::Char('c'))]);
    assert_eq!(workbench(&a).mode, Mode::Compare);
    a.refresh(Rect::new(0, 0, 120, 40));
    assert!(workbench(&a).baseline.is_some());
    press(&mut a, &[key(KeyCode::Esc)]);
    assert_eq!(workbench(&a).mode, Mode::Normal);
    press(&mut a, &[key(KeyCode::Char('v'))]);
    assert_eq!(workbench(&a).current().name, "naive");
}

#[test]
fn the_editor_takes_keys_and_applies_a_valid_edit() {
    let mut a = opened("sensors");
    press(&mut a, &[key(KeyCode::Char('v')), key(KeyCode::Char('e'))]);
    assert_eq!(a.context(), Context::Editor);
    // `q` is text here: it breaks the variant, and the error points into the editor's text.
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Home), key(KeyCode::Char('q'))]);
    assert!(!a.quit);
    let err = workbench(&a).drafts[&1].error.clone().expect("a stray q does not load");
    assert_eq!((err.line, err.in_variant), (2, true), "{err}");
    // Ctrl-S refuses while there is an error, and says why.
    press(&mut a, &[ctrl('s')]);
    assert!(message(&a).is_some_and(|(t, k)| t.starts_with("not applied: 2:") && k == MessageKind::Error));
    press(&mut a, &[key(KeyCode::Backspace)]);
    assert!(workbench(&a).drafts[&1].error.is_none());
    // Change the day bucket to a month bucket on the Reading line.
    let text = workbench(&a).drafts[&1].text();
    let line = text.lines().position(|l| l.contains("\"Reading\"")).unwrap();
    press(&mut a, &[key(KeyCode::Up)]);
    for _ in 0..line {
        press(&mut a, &[key(KeyCode::Down)]);
    }
    let col = text.lines().nth(line).unwrap().find("-%d}").unwrap();
    press(&mut a, &[key(KeyCode::Home)]);
    for _ in 0..col {
        press(&mut a, &[key(KeyCode::Right)]);
    }
    press(&mut a, &[key(KeyCode::Delete), key(KeyCode::Delete), key(KeyCode::Delete)]);
    assert!(workbench(&a).unsaved());
    press(&mut a, &[ctrl('s')]);
    assert!(message(&a).is_some_and(|(t, _)| t.starts_with("applied")), "{:?}", a.message);
    let w = workbench(&a);
    assert_eq!(w.current().keys_named("Reading").unwrap().pk.source(), "{sensor_id}#{reading_time:%Y-%m}");
    assert_eq!(w.mode, Mode::Edit);
    // Esc leaves the editor; the edit is applied but in no file: unsaved.
    press(&mut a, &[key(KeyCode::Esc)]);
    assert_eq!(a.context(), Context::Workbench(Panel::Heatmap));
    assert!(workbench(&a).unsaved());
    // The previous run is the baseline now.
    press(&mut a, &[key(KeyCode::Char('c'))]);
    assert_eq!(workbench(&a).mode, Mode::Compare);
}

#[test]
fn unsaved_edits_are_asked_about_kept_on_quit_and_offered_next_time() {
    let state = temp_dir("recovery");
    let mut first = app(true, Some(state.clone()));
    first.open("sensors", None, None).unwrap();
    press(&mut first, &[key(KeyCode::Char('e')), key(KeyCode::Down), key(KeyCode::End)]);
    type_text(&mut first, " // a note");
    press(&mut first, &[key(KeyCode::Esc), key(KeyCode::Char('q'))]);
    assert!(matches!(first.overlay, Some(Overlay::Confirm(_))));
    press(&mut first, &[key(KeyCode::Char('n'))]);
    assert!(!first.quit && first.overlay.is_none());
    press(&mut first, &[key(KeyCode::Char('q')), key(KeyCode::Char('y'))]);
    assert!(first.quit);
    // Next start: the draft is offered, and restored on y.
    let mut second = app(true, Some(state.clone()));
    second.open("sensors", None, None).unwrap();
    assert!(matches!(second.overlay, Some(Overlay::Recovery { applied: false, .. })));
    // "Decide later" keeps the file for the start after.
    press(&mut second, &[key(KeyCode::Esc), key(KeyCode::Char('q'))]);
    assert!(second.quit);
    let mut third = app(true, Some(state.clone()));
    third.open("sensors", None, None).unwrap();
    press(&mut third, &[key(KeyCode::Char('y'))]);
    assert!(workbench(&third).drafts[&0].text().contains("// a note"));
    assert!(workbench(&third).unsaved());
    // Discarding removes it.
    let mut fourth = app(true, Some(state.clone()));
    fourth.open("sensors", None, None).unwrap();
    press(&mut fourth, &[key(KeyCode::Char('n'))]);
    let mut fifth = app(true, Some(state.clone()));
    fifth.open("sensors", None, None).unwrap();
    assert!(fifth.overlay.is_none());
    std::fs::remove_dir_all(state).unwrap();
}

/// `w` writes the applied edits, not the draft: the draft is kept (and goes to the recovery
/// file on quit), and next time the dialog offers the draft without calling the applied edits,
/// which are in a file, unsaved.
#[test]
fn w_keeps_an_unapplied_draft_and_the_recovery_calls_written_edits_saved() {
    let state = temp_dir("write-draft");
    let path = state.join("mine.ron");
    let mut a = app(true, Some(state.clone()));
    a.open("sensors", None, None).unwrap();
    press(&mut a, &[key(KeyCode::Char('e')), key(KeyCode::Down), key(KeyCode::End)]);
    type_text(&mut a, " // applied");
    press(&mut a, &[ctrl('s'), key(KeyCode::End)]);
    type_text(&mut a, " // draft");
    press(&mut a, &[key(KeyCode::Esc), key(KeyCode::Char('w'))]);
    for _ in 0.."sensors-naive.ron".len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &path.display().to_string());
    press(&mut a, &[key(KeyCode::Enter)]);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains(" // applied") && !written.contains(" // draft"), "{written}");
    assert!(
        message(&a).is_some_and(|(t, _)| t.contains("without naive's unapplied edit (kept")),
        "{:?}",
        a.message
    );
    assert!(workbench(&a).unsaved(), "the draft is not saved anywhere yet");
    // The quit dialog does not say `w` writes the draft (it said "n, then w, writes them").
    press(&mut a, &[key(KeyCode::Char('q'))]);
    assert!(matches!(a.overlay, Some(Overlay::Confirm(Confirm::QuitUnsaved { drafts: true }))));
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("Ctrl-S in the editor applies a draft"), "{screen}");
    press(&mut a, &[key(KeyCode::Char('y'))]);
    assert!(a.quit);
    let mut b = app(true, Some(state.clone()));
    b.open("sensors", None, None).unwrap();
    assert!(matches!(b.overlay, Some(Overlay::Recovery { applied: false, .. })));
    press(&mut b, &[key(KeyCode::Char('y'))]);
    assert!(workbench(&b).drafts[&0].text().contains(" // applied // draft"));
    std::fs::remove_dir_all(state).unwrap();
}

#[test]
fn ctrl_c_quits_at_once_and_still_keeps_the_edits() {
    let state = temp_dir("ctrl-c");
    let mut a = app(true, Some(state.clone()));
    a.open("counters", None, None).unwrap();
    press(&mut a, &[key(KeyCode::Char('e')), key(KeyCode::Down), key(KeyCode::End)]);
    type_text(&mut a, " // edited");
    press(&mut a, &[ctrl('c')]);
    assert!(a.quit);
    let mut b = app(true, Some(state.clone()));
    b.open("counters", None, None).unwrap();
    assert!(matches!(b.overlay, Some(Overlay::Recovery { .. })));
    std::fs::remove_dir_all(state).unwrap();
}

#[test]
fn w_writes_the_edited_scenario_and_never_silently_over_a_file() {
    let dir = temp_dir("write");
    let path = dir.join("mine.ron");
    let mut a = opened("sensors");
    press(&mut a, &[key(KeyCode::Char('e')), key(KeyCode::Down), key(KeyCode::End)]);
    type_text(&mut a, " // mine");
    press(&mut a, &[key(KeyCode::Esc), key(KeyCode::Char('w'))]);
    let Some(Overlay::Prompt(p)) = &a.overlay else { panic!("w asks for a path") };
    assert_eq!(p.text(), "sensors-naive.ron");
    press(&mut a, &[ctrl('u')]);
    for _ in 0.."sensors-naive.ron".len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &path.display().to_string());
    press(&mut a, &[key(KeyCode::Enter)]);
    assert!(a.overlay.is_none(), "{:?}", a.message);
    // The draft was never applied: the file holds the variant as applied, and says so.
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(!written.contains(" // mine") && written.starts_with("// IoT sensor readings"));
    assert!(
        message(&a).is_some_and(|(t, _)| t.contains("without naive's unapplied edit (kept")),
        "{:?}",
        a.message
    );
    assert!(workbench(&a).drafts[&0].text().contains(" // mine"));
    // Applied (Ctrl-S), it is written.
    press(&mut a, &[key(KeyCode::Char('e')), ctrl('s'), key(KeyCode::Esc), key(KeyCode::Char('w'))]);
    for _ in 0.."sensors-naive.ron".len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &path.display().to_string());
    press(&mut a, &[key(KeyCode::Enter), key(KeyCode::Char('y'))]);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains(" // mine") && written.starts_with("// IoT sensor readings"));
    assert!(crate::scenario::parse("mine.ron", &written).is_ok());
    assert!(!workbench(&a).unsaved());
    // Again: the file exists, so it asks; n keeps the file as it was.
    std::fs::write(&path, "other").unwrap();
    press(&mut a, &[key(KeyCode::Char('w'))]);
    let Some(Overlay::Prompt(p)) = &a.overlay else { panic!("w asks for a path") };
    assert_eq!(p.text(), "sensors-naive.ron");
    for _ in 0.."sensors-naive.ron".len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &path.display().to_string());
    press(&mut a, &[key(KeyCode::Enter)]);
    assert!(matches!(a.overlay, Some(Overlay::Confirm(_))));
    press(&mut a, &[key(KeyCode::Char('n'))]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "other");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn x_exports_the_screen_as_svg() {
    let dir = temp_dir("export");
    let path = dir.join("screen.svg");
    let mut a = opened("orders");
    press(&mut a, &[key(KeyCode::Char('x'))]);
    let Some(Overlay::Prompt(p)) = &a.overlay else { panic!("x asks for a path") };
    assert_eq!(p.text(), "keyheat-orders-naive.svg");
    for _ in 0..p.text().len() {
        press(&mut a, &[key(KeyCode::Backspace)]);
    }
    type_text(&mut a, &path.display().to_string());
    press(&mut a, &[key(KeyCode::Enter)]);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(">Schema</text>") && svg.contains("Access patterns"));
    // The prompt itself is not in the picture.
    assert!(!svg.contains("Export the screen"));
    assert!(message(&a).is_some_and(|(t, _)| t.starts_with("exported the screen to")));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_console_sends_requests_to_the_seam() {
    let mut a = opened("orders");
    press(&mut a, &[key(KeyCode::Char(':'))]);
    assert_eq!(a.context(), Context::Console);
    type_text(&mut a, r#"{"op":"Scan"}"#);
    press(&mut a, &[key(KeyCode::Enter)]);
    let Some(Overlay::Console(c)) = &a.overlay else { panic!("the console stays open") };
    assert_eq!(c.history.len(), 1);
    assert!(c.history[0].1.as_ref().unwrap().contains("CUSTOMER#{customer_id}"));
    press(&mut a, &[key(KeyCode::Esc)]);
    assert!(a.overlay.is_none());
}

/// The console's history as drawn at 100 × 30: (the lines of the history area, the position note
/// in the bottom border).
fn console_screen(a: &mut App) -> (Vec<String>, String) {
    let screen = draw(a, 100, 30);
    let lines: Vec<String> = screen.lines().map(|l| l.trim_matches('"').to_owned()).collect();
    // The console has the keys, so its frame is the thick one.
    let border = lines.iter().rev().find(|l| l.contains('┗')).cloned().unwrap_or_default();
    (lines, border)
}

#[test]
fn the_console_history_scrolls_back_to_a_long_answers_start() {
    let mut a = opened("orders");
    a.refresh(Rect::new(0, 0, 100, 30));
    press(&mut a, &[key(KeyCode::Char(':'))]);
    // A long answer: the fake echoes the request, so a request of many lines' worth.
    let long = (0..60).map(|i| format!("line{i:02}")).collect::<Vec<_>>().join(" ");
    type_text(&mut a, &format!("first {long}"));
    press(&mut a, &[key(KeyCode::Enter)]);
    let Some(Overlay::Console(c)) = &mut a.overlay else { panic!("the console stays open") };
    c.history
        .push(("scan".to_owned(), Ok((0..60).map(|i| format!("row {i}")).collect::<Vec<_>>().join("\n"))));
    let (lines, border) = console_screen(&mut a);
    assert!(lines.iter().any(|l| l.contains("row 59")), "the newest line shows");
    assert!(!lines.iter().any(|l| l.contains("> first")), "the first request is scrolled off");
    assert!(border.contains("of ") && border.contains("scroll"), "{border}");
    // Up (the request line is empty or not: it is one line), PgUp, then back down to the end.
    press(&mut a, &[key(KeyCode::Up)]);
    let (lines, _) = console_screen(&mut a);
    assert!(lines.iter().any(|l| l.contains("row 58")) && !lines.iter().any(|l| l.contains("row 59")));
    for _ in 0..20 {
        press(&mut a, &[key(KeyCode::PageUp)]);
    }
    let (lines, border) = console_screen(&mut a);
    assert!(lines.iter().any(|l| l.contains("> first line00")), "scrolled to the start");
    assert!(border.contains(" lines 1–"), "{border}");
    let Some(Overlay::Console(c)) = &a.overlay else { panic!("the console stays open") };
    let top = c.back;
    press(&mut a, &[key(KeyCode::PageUp)]);
    let Some(Overlay::Console(c)) = &a.overlay else { panic!("the console stays open") };
    assert_eq!(c.back, top, "never past the start");
    // The wheel scrolls too; typing and Enter still work, and the answer brings the end back.
    let wheel =
        MouseEvent { kind: MouseEventKind::ScrollDown, column: 50, row: 10, modifiers: KeyModifiers::NONE };
    a.mouse(wheel);
    let Some(Overlay::Console(c)) = &a.overlay else { panic!("the console stays open") };
    assert_eq!(c.back, top - 3);
    type_text(&mut a, "get x");
    press(&mut a, &[key(KeyCode::Enter)]);
    let (lines, border) = console_screen(&mut a);
    assert!(lines.iter().any(|l| l.contains("> get x")), "the new answer shows");
    assert!(!border.contains("PgDn: newer"), "{border}");
    for _ in 0..3 {
        press(&mut a, &[key(KeyCode::PageDown)]);
    }
    let Some(Overlay::Console(c)) = &a.overlay else { panic!("the console stays open") };
    assert_eq!((c.back, c.history.len()), (0, 3));
    press(&mut a, &[key(KeyCode::Esc)]);
    assert!(a.overlay.is_none());
}

#[test]
fn help_lists_the_keys_of_the_screen_it_opened_on_first() {
    let first_section = |a: &mut App| {
        let screen = draw(a, 100, 40);
        let help: Vec<&str> = screen.lines().skip_while(|l| !l.contains("Help — keys")).collect();
        // The help's box is drawn over the screen: its text starts a column right of its corner.
        let corner = help.first()?.split("┏Help").next()?.chars().count();
        let text: String = help.get(1)?.chars().skip(corner + 1).take_while(|&c| c != '┃').collect();
        Some(text.trim().to_owned())
    };
    let mut picker = app(true, None);
    press(&mut picker, &[key(KeyCode::Char('?'))]);
    assert_eq!(first_section(&mut picker).as_deref(), Some("Scenario picker"));
    let mut wb = opened("orders");
    press(&mut wb, &[key(KeyCode::Char('?'))]);
    assert_eq!(first_section(&mut wb).as_deref(), Some("Workbench"));
}

/// The Shards panel is on the screen only while the variant shards a collection: there Tab
/// reaches it after the indexes, a click focuses it and the keys scroll it; elsewhere Tab goes
/// from the indexes to the lesson (`focus_heatmap_and_lesson_keys`).
#[test]
fn tab_and_the_mouse_reach_the_shards_panel_of_a_sharded_collection() {
    let mut a = opened("shard-keys");
    while a.focus() != Some(Panel::Indexes) {
        press(&mut a, &[key(KeyCode::Tab)]);
    }
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Shards));
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Down)]);
    assert_eq!(workbench(&a).scroll_of(Panel::Shards), 2);
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Lesson));
    press(&mut a, &[KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)]);
    assert_eq!(a.focus(), Some(Panel::Shards));
    press(&mut a, &[key(KeyCode::Tab)]);
    let shards = workbench(&a).layout.rect(Panel::Shards).expect("a sharded variant shows its shards");
    let click = |kind, column, row| MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE };
    a.mouse(click(MouseEventKind::Down(MouseButton::Left), shards.x + 2, shards.y + 1));
    assert_eq!(a.focus(), Some(Panel::Shards));
    a.mouse(click(MouseEventKind::ScrollUp, shards.x + 2, shards.y + 1));
    assert_eq!(workbench(&a).scroll_of(Panel::Shards), 0);
    let unsharded = opened("sensors");
    assert!(workbench(&unsharded).layout.rect(Panel::Shards).is_none());
}

/// At 80×24 the column Indexes and Shards share is too short for both: the focused one takes it
/// and the other is one row, its title and summary. Tab and a click on that row open it.
#[test]
fn at_80x24_tab_or_a_click_opens_the_collapsed_one_of_indexes_and_shards() {
    let mut a = opened("shard-keys");
    let small = Rect::new(0, 0, 80, 24);
    a.refresh(small);
    let rows = |a: &App| {
        let l = &workbench(a).layout;
        (l.collapsed, l.rect(Panel::Indexes).unwrap().height, l.rect(Panel::Shards).unwrap().height)
    };
    // Neither has the focus: the shards take the room.
    assert_eq!(rows(&a), (Some(Panel::Indexes), 1, 7));
    let indexes = workbench(&a).layout.rect(Panel::Indexes).unwrap();
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: indexes.x + 2,
        row: indexes.y,
        modifiers: KeyModifiers::NONE,
    };
    a.mouse(click);
    assert_eq!(a.focus(), Some(Panel::Indexes));
    a.refresh(small);
    assert_eq!(rows(&a), (Some(Panel::Shards), 7, 1));
    press(&mut a, &[key(KeyCode::Tab)]);
    assert_eq!(a.focus(), Some(Panel::Shards));
    a.refresh(small);
    assert_eq!(rows(&a), (Some(Panel::Indexes), 1, 7));
    // A terminal tall enough for both keeps both whole.
    a.refresh(Rect::new(0, 0, 120, 40));
    assert_eq!(workbench(&a).layout.collapsed, None);
}

#[test]
fn the_mouse_focuses_and_scrolls_panels() {
    let mut a = opened("orders");
    let goals = workbench(&a).layout.rect(Panel::Goals).unwrap();
    let click = |kind, column, row| MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE };
    a.mouse(click(MouseEventKind::Down(MouseButton::Left), goals.x + 2, goals.y + 1));
    assert_eq!(a.focus(), Some(Panel::Goals));
    a.mouse(click(MouseEventKind::ScrollDown, goals.x + 2, goals.y + 1));
    assert_eq!(workbench(&a).scroll_of(Panel::Goals), 3);
    a.mouse(click(MouseEventKind::ScrollUp, goals.x + 2, goals.y + 1));
    assert_eq!(workbench(&a).scroll_of(Panel::Goals), 0);
    // In the picker a click opens the row under it.
    let mut p = app(true, None);
    p.refresh(Rect::new(0, 0, 80, 24));
    p.mouse(click(MouseEventKind::Down(MouseButton::Left), 5, 3));
    assert_eq!(workbench(&p).loaded.scenario.name, "orders");
}

#[test]
fn a_launch_with_an_unknown_variant_is_an_error_with_the_choices() {
    let mut a = app(true, None);
    let e = a.open("orders", Some("fast"), None).unwrap_err().to_string();
    assert!(e.contains("no variant named \"fast\"; the variants are: naive, recommended"), "{e}");
    a.open("orders", Some("recommended"), Some(99)).unwrap();
    assert_eq!(workbench(&a).seed, 99);
}

/// `keyheat tui counters --engine cosmosdb` opens the workbench the way `keyheat snapshot
/// --engine` does: replayed on Cosmos DB, which the status line names beside the variant; a
/// store the file does not list is refused, naming the stores it does.
#[test]
fn a_launch_on_another_store_opens_there_and_names_it() {
    use crate::engine::model::Engine;
    use crate::tui::Launch;
    let config = || Config { theme: Theme::MONO, state_dir: None };
    let launch = |scenario: &str, engine| Launch {
        scenario: Some(scenario.to_owned()),
        variant: Some("naive".to_owned()),
        engine,
        ..Launch::default()
    };
    let mut a = crate::tui::open(
        &launch("counters", Some(Engine::CosmosDb)),
        config(),
        Box::new(FakeDriver::new(600)),
    )
    .expect("counters lists Cosmos DB");
    assert_eq!(workbench(&a).loaded.scenario.engine, Engine::CosmosDb);
    let screen = draw(&mut a, 120, 40);
    let status = screen.lines().rev().find(|l| l.contains("seed")).unwrap_or_default();
    assert!(status.contains("· 1h/s · Cosmos DB · seed 3 · naive │"), "{status}");
    assert!(screen.contains("RU/s manual"), "the schema gives the container's throughput:\n{screen}");
    // Without --engine: the file's own store, named too.
    let mut own =
        crate::tui::open(&launch("counters", None), config(), Box::new(FakeDriver::new(600))).unwrap();
    let screen = draw(&mut own, 120, 40);
    assert!(screen.contains("· 1h/s · DynamoDB · seed 3 · naive │"), "{screen}");
    let refused =
        crate::tui::open(&launch("orders", Some(Engine::CosmosDb)), config(), Box::new(FakeDriver::new(600)))
            .err()
            .expect("orders lists DynamoDB only");
    let message = refused.to_string();
    assert!(
        message
            .contains("orders is replayed on DynamoDB only; to replay it on Cosmos DB, list it in `engines`"),
        "{message}"
    );
}

//! A practice problem played as a candidate, through `App` with the real simulator: the first
//! screen gives nothing away, hints come one at a time, the grade waits for the replay's end and
//! agrees with `run --fail-on-goals`, an answer saved as a new variant keeps the starting point,
//! and a session writes its Markdown grade report.

use std::time::Duration;

use crossterm::event::KeyCode;
use ratatui::layout::Rect;

use super::*;
use crate::tui::editor::Editor;
use crate::tui::overlay::Overlay;
use crate::tui::practice::Session;

fn ch(c: char) -> crossterm::event::KeyEvent {
    key(KeyCode::Char(c))
}

/// Frames (each allowed a few driver calls) until the grade overlay is up.
fn until_graded(a: &mut App) -> String {
    for _ in 0..5000 {
        let mut left = 8u32;
        a.tick(Duration::from_millis(40), &mut move || {
            left = left.saturating_sub(1);
            left == 0
        });
        a.refresh(Rect::new(0, 0, 120, 40));
        if let Some(Overlay::Grade(g)) = &a.overlay {
            return g.lines.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
        }
    }
    panic!("no grade after 5000 frames: {:?}", a.message);
}

/// practice-chat with a 10-minute replay, as a file: the goals are the same (the size goal is
/// projected to its year either way), the debug build replays it in a few seconds.
fn short_chat(name: &str) -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/practice-chat.ron"))
        .expect("the bundled file is in the source tree");
    let short = text.replace(r#"duration: "1h""#, r#"duration: "10m""#);
    assert!(short.contains(r#"duration: "10m""#));
    let path = temp_dir(name).join("practice-chat.ron");
    std::fs::write(&path, short).expect("the temp dir is writable");
    path.display().to_string()
}

/// practice-chat's `naive` keys with a 10-day bucket and the by-user index: the answer.
fn answer(a: &App) -> String {
    let w = workbench(a);
    let naive = w.loaded.variant_source(w.variant).expect("naive").text;
    naive
        .replace("name: \"naive\"", "name: \"mine\"")
        .replacen("CH#{channel_id}\"", "CH#{channel_id}#{bucket(sent_at, 10d)}\"", 1)
        .replace(
            "\n)",
            "\n    indexes: [(name: \"by-user\", keys: {\"Membership\": (pk: \"USER#{user_id}\", sk: \"CH#{channel_id}\")})],\n)",
        )
}

#[test]
fn a_practice_problem_opens_on_its_prompt_with_nothing_given_away() {
    let mut a = app(false, None);
    a.open("practice-chat", None, None).unwrap();
    let screen = draw(&mut a, 120, 40);
    let s = &workbench(&a).loaded.scenario;
    let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Practice: Design the table keys"), "{screen}");
    for leak in ["10-day bucket", "indexed by user", "Hint 1", "recommended"] {
        assert!(!flat.contains(leak), "{leak:?} on the first screen:\n{screen}");
    }
    assert!(!s.lesson.is_empty());
    // The Schema panel counts the variants `v` offers: the solution is not one of them yet.
    assert!(screen.contains("variant naive (1/1)"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn hints_come_one_at_a_time_and_the_solution_only_when_confirmed() {
    let mut a = app(false, None);
    a.open("practice-chat", None, None).unwrap();
    let hints = workbench(&a).loaded.scenario.practice.as_ref().expect("practice").hints.clone();
    for n in 1..=hints.len() {
        press(&mut a, &[ch('h')]);
        assert_eq!(
            a.message.as_ref().map(|m| m.0.clone()),
            Some(format!("hint {n} of 3 is in the lesson pane"))
        );
        let flat = draw(&mut a, 120, 40).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&format!("Hint {n}:")), "{flat}");
        assert!(!flat.contains(&format!("Hint {}:", n + 1)), "{flat}");
    }
    press(&mut a, &[ch('h')]);
    assert_eq!(a.message.as_ref().map(|m| m.0.as_str()), Some("all 3 hints are shown"));
    // `v` has nothing else to offer until the solution is shown, and asking needs a yes.
    press(&mut a, &[ch('v')]);
    assert_eq!(workbench(&a).current().name, "naive");
    press(&mut a, &[ch('A'), ch('n')]);
    assert!(!workbench(&a).practice.as_ref().expect("practice").solution_shown);
    press(&mut a, &[ch('A'), ch('y')]);
    let flat = draw(&mut a, 120, 40).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Solution: the variant recommended"), "{flat}");
    press(&mut a, &[ch('v')]);
    assert_eq!(workbench(&a).current().name, "recommended");
}

/// The naive design fails on the year's partition; the answer, saved as a new variant beside
/// it, passes; both verdicts are `run --fail-on-goals`'s.
#[test]
fn the_workbench_grades_the_applied_design_as_run_does() {
    let mut a = real_app();
    a.open(&short_chat("practice-grade"), None, None).unwrap();
    a.refresh(Rect::new(0, 0, 120, 40));
    press(&mut a, &[ch('g')]);
    let naive = until_graded(&mut a);
    assert!(naive.starts_with("FAIL ") && naive.contains("of 5 goals met by variant naive"), "{naive}");
    assert!(naive.contains("✘ my conversations never scans"), "{naive}");
    assert!(naive.contains("✘ no partition past 10 GB within a year  25.5 GB"), "{naive}");
    assert!(naive.contains("projected: 25.5 GB at 1 year (table CH#{channel_id}) > 10 GB"), "{naive}");
    assert!(naive.contains("see hint 2:"), "{naive}");
    insta::assert_snapshot!("grade_of_the_naive_design", draw(&mut a, 100, 40));
    press(&mut a, &[key(KeyCode::Esc), ch('e')]);
    let text = answer(&a);
    let theme = a.theme;
    if let Screen::Workbench(w) = &mut a.screen {
        let editor = Editor::open(&w.loaded, w.variant, Some(&text), theme).expect("the variant's text");
        assert_eq!(editor.error, None, "{text}");
        w.drafts.insert(w.variant, editor);
    }
    press(&mut a, &[ctrl('n'), key(KeyCode::Esc)]);
    let w = workbench(&a);
    let names: Vec<&str> = w.loaded.scenario.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!((names, w.current().name.as_str()), (vec!["naive", "mine", "recommended"], "mine"));
    assert_eq!(w.visible_position(), (2, 2));
    press(&mut a, &[ch('g')]);
    let mine = until_graded(&mut a);
    assert!(mine.starts_with("PASS 5 of 5 goals met by variant mine"), "{mine}");
    // A pass has earned the solution and the lesson.
    press(&mut a, &[key(KeyCode::Esc)]);
    let flat = draw(&mut a, 120, 40).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Solution: the variant recommended"), "{flat}");
    assert!(flat.contains("Lesson: Each access pattern gets a key"), "{flat}");
}

#[test]
fn a_session_counts_down_and_writes_the_grade_report_when_time_is_up() {
    let dir = temp_dir("practice-session");
    let report = dir.join("grade.md");
    let mut a = real_app();
    a.open(&short_chat("practice-session-problem"), None, None).unwrap();
    a.start_session(Session {
        limit: Some(Duration::from_secs(60)),
        elapsed: Duration::ZERO,
        report: report.clone(),
        overwrite: false,
        ended: None,
    });
    press(&mut a, &[ch('h')]);
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("naive · ⏱ 1:00 left"), "{screen}");
    // A minute of frames: the clock runs out and the design as applied is graded.
    for _ in 0..1500 {
        a.tick(Duration::from_millis(40), &mut || true);
    }
    let grade = until_graded(&mut a);
    assert!(grade.contains(&format!("grade report written to {}", report.display())), "{grade}");
    let md = std::fs::read_to_string(&report).expect("the report is written");
    for part in [
        "**FAIL**: ",
        "- hints used: 1 of 3",
        "- time taken: 1 min of 1 min",
        "- ended: time ran out",
        "name: \"naive\"",
    ] {
        assert!(md.contains(part), "{part:?} missing:\n{md}");
    }
    press(&mut a, &[key(KeyCode::Esc), ch('S')]);
    assert!(a.message.as_ref().is_some_and(|m| m.0.contains("the session has ended")), "{:?}", a.message);
}

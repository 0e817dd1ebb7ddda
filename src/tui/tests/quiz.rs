//! The quiz screen through `App`: keys from the picker to an answer, its explanation, the score
//! and back; and the screens as insta snapshots (`TestBackend`).

use crossterm::event::KeyCode;

use super::*;
use crate::tui::keymap::Context;
use crate::tui::overlay::Overlay;
use crate::tui::quiz::{Phase, QUESTIONS, QuizScreen};

fn quiz(app: &App) -> &QuizScreen {
    match &app.screen {
        Screen::Quiz(q) => q,
        _ => panic!("the quiz is not up"),
    }
}

/// The key of the choice `i`.
fn letter(i: usize) -> KeyEvent {
    key(KeyCode::Char(crate::quiz::LETTERS[i]))
}

fn opened() -> App {
    let mut a = app(true, None);
    press(&mut a, &[key(KeyCode::Char('z'))]);
    a
}

#[test]
fn z_opens_the_quiz_and_esc_goes_back_to_the_same_picker_row() {
    let mut a = app(true, None);
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Char('z'))]);
    assert_eq!(a.context(), Context::Quiz);
    assert_eq!(quiz(&a).seed, 0);
    assert_eq!(quiz(&a).len(), QUESTIONS);
    press(&mut a, &[key(KeyCode::Esc)]);
    let Screen::Picker(p) = &a.screen else { panic!("the picker is back") };
    assert_eq!(p.selected, 1);
    // The next quiz is another one.
    press(&mut a, &[key(KeyCode::Char('z'))]);
    assert_eq!(quiz(&a).seed, 1);
}

#[test]
fn a_letter_answers_enter_moves_on_and_the_score_ends_it() {
    let mut a = opened();
    for i in 0..QUESTIONS {
        let q = quiz(&a).question().expect("a question is up").clone();
        // Right on even questions, wrong on odd ones.
        let choice = if i % 2 == 0 { q.answer() } else { (q.answer() + 1) % q.choices.len() };
        press(&mut a, &[letter(choice)]);
        assert_eq!(quiz(&a).phase, Phase::Answered(choice));
        press(&mut a, &[key(KeyCode::Enter)]);
    }
    let s = quiz(&a);
    assert_eq!(s.phase, Phase::Done);
    assert_eq!((s.score.right(), s.score.asked()), (QUESTIONS / 2, QUESTIONS));
    let screen = draw(&mut a, 80, 24);
    assert!(screen.contains(&format!("Score: {} of {QUESTIONS} (50%)", QUESTIONS / 2)), "{screen}");
    // Enter starts another quiz with the next seed.
    press(&mut a, &[key(KeyCode::Enter)]);
    assert_eq!((quiz(&a).phase, quiz(&a).seed, quiz(&a).score.asked()), (Phase::Asking, 1, 0));
}

#[test]
fn help_and_quit_work_from_the_quiz() {
    let mut a = opened();
    press(&mut a, &[key(KeyCode::Char('?'))]);
    assert!(matches!(a.overlay, Some(Overlay::Help { .. })));
    let help = draw(&mut a, 100, 60);
    assert!(help.contains("Quiz") && help.contains("back to the scenario picker"), "{help}");
    press(&mut a, &[key(KeyCode::Esc)]);
    assert!(a.overlay.is_none());
    assert_eq!(a.context(), Context::Quiz);
    press(&mut a, &[key(KeyCode::Char('q'))]);
    assert!(a.quit);
}

#[test]
fn a_question() {
    let mut a = opened();
    let screen = draw(&mut a, 80, 24);
    let q = quiz(&a).question().expect("a question is up");
    assert!(screen.contains("Quiz — question 1 of 10"), "{screen}");
    assert!(screen.contains("a) ") && screen.contains("answer"), "{screen}");
    assert!(!screen.contains("✔"), "no answer is shown before answering: {screen}");
    assert!(screen.contains(&q.question.split_whitespace().take(5).collect::<Vec<_>>().join(" ")));
    insta::assert_snapshot!(screen);
}

#[test]
fn an_explanation() {
    let mut a = opened();
    let q = quiz(&a).question().expect("a question is up").clone();
    let wrong = (q.answer() + 1) % q.choices.len();
    press(&mut a, &[letter(wrong)]);
    let screen = draw(&mut a, 100, 40);
    assert!(screen.contains(&format!("✘ Not quite: the answer is {}.", q.answer_letter())), "{screen}");
    assert!(screen.contains("← your answer"), "{screen}");
    assert!(screen.contains("Source: "), "{screen}");
    insta::assert_snapshot!(screen);
    // Scrolling moves the text up, and the drawing never scrolls past the end.
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Down)]);
    assert_eq!(quiz(&a).scroll, 2);
    let small = draw(&mut a, 80, 24);
    assert!(!small.contains(&q.question.split_whitespace().take(5).collect::<Vec<_>>().join(" ")));
    for _ in 0..50 {
        press(&mut a, &[key(KeyCode::Down)]);
    }
    let bottom = draw(&mut a, 80, 24);
    assert!(bottom.contains("Source: "), "{bottom}");
}

#[test]
fn the_score() {
    let mut a = opened();
    for _ in 0..QUESTIONS {
        let answer = quiz(&a).question().expect("a question is up").answer();
        press(&mut a, &[letter(answer), key(KeyCode::Enter)]);
    }
    insta::assert_snapshot!(draw(&mut a, 80, 24));
}

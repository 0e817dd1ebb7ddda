//! The quiz screen's state (`z` on the scenario picker): ten questions from the bundled bank in
//! an order fixed by a seed, one at a time; a choice key answers, the explanations follow, Enter
//! moves on, and the score per topic ends it. Pure: no terminal, no drawing (that is
//! `panels::quiz`), no clock (the seed comes from the app).

use super::action::{Action, Direction};
use super::picker::Picker;
use crate::quiz::{self, Bank, Question, Score};

/// Questions in one quiz.
pub const QUESTIONS: usize = 10;

/// Lines an arrow key scrolls, and how far scrolling may go (the drawing clamps to the text).
const PAGE: u16 = 10;
const MAX_SCROLL: u16 = 400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The current question is up, waiting for a choice.
    Asking,
    /// The current question was answered with this choice; its explanations are up.
    Answered(usize),
    /// Every question was answered; the score is up.
    Done,
}

pub struct QuizScreen {
    pub bank: Bank,
    /// Indexes into the bank's questions, in the order asked.
    order: Vec<usize>,
    pub seed: u64,
    /// The index into `order` of the question up.
    pub current: usize,
    pub phase: Phase,
    pub score: Score,
    /// Lines scrolled off the top of the question or the explanations.
    pub scroll: u16,
    /// The picker as it was, to go back to.
    pub picker: Picker,
}

impl QuizScreen {
    pub fn new(seed: u64, picker: Picker) -> QuizScreen {
        let bank = quiz::bundled();
        let order = order(&bank, seed);
        QuizScreen {
            bank,
            order,
            seed,
            current: 0,
            phase: Phase::Asking,
            score: Score::default(),
            scroll: 0,
            picker,
        }
    }

    /// The question up (none once the quiz is done).
    pub fn question(&self) -> Option<&Question> {
        match self.phase {
            Phase::Done => None,
            _ => self.order.get(self.current).map(|&i| &self.bank.questions()[i]),
        }
    }

    /// How many questions this quiz asks.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The quiz's own keys: a choice, Enter to go on, arrows to scroll. Others are ignored.
    pub fn update(&mut self, action: Action) {
        match (self.phase, action) {
            (Phase::Asking, Action::Answer(choice)) => self.answer(usize::from(choice)),
            (Phase::Answered(_), Action::Submit) => self.next(),
            (Phase::Done, Action::Submit) => {
                // Another quiz: the next seed asks other questions (or the same in another order).
                let picker = std::mem::take(&mut self.picker);
                *self = QuizScreen::new(self.seed.wrapping_add(1), picker);
            }
            (_, Action::Move(direction)) => self.scroll_by(direction),
            _ => {}
        }
    }

    fn answer(&mut self, choice: usize) {
        let Some(q) = self.question() else { return };
        // A letter beyond this question's choices (`e` on a four-choice question) is no answer.
        if choice >= q.choices.len() {
            return;
        }
        let (topic, right) = (q.topic.clone(), choice == q.answer());
        self.score.record(&topic, right);
        self.phase = Phase::Answered(choice);
        self.scroll = 0;
    }

    fn next(&mut self) {
        self.scroll = 0;
        if self.current + 1 < self.order.len() {
            self.current += 1;
            self.phase = Phase::Asking;
        } else {
            self.phase = Phase::Done;
        }
    }

    fn scroll_by(&mut self, direction: Direction) {
        self.scroll = match direction {
            Direction::Up => self.scroll.saturating_sub(1),
            Direction::Down => self.scroll.saturating_add(1),
            Direction::PageUp => self.scroll.saturating_sub(PAGE),
            Direction::PageDown => self.scroll.saturating_add(PAGE),
            Direction::Home => 0,
            Direction::End => MAX_SCROLL,
            Direction::Left | Direction::Right => self.scroll,
        }
        .min(MAX_SCROLL);
    }
}

/// The bank's questions a quiz of `seed` asks, as indexes.
fn order(bank: &Bank, seed: u64) -> Vec<usize> {
    // No topic is asked for, so selection cannot fail; an error would leave the quiz empty.
    quiz::select(bank, None, QUESTIONS, seed)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|q| bank.questions().iter().position(|other| other.id == q.id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(seed: u64) -> QuizScreen {
        QuizScreen::new(seed, Picker::default())
    }

    #[test]
    fn asks_the_seeded_selection() {
        let s = screen(4);
        let want: Vec<String> =
            quiz::select(&s.bank, None, QUESTIONS, 4).unwrap().iter().map(|q| q.id.clone()).collect();
        let got: Vec<String> = s.order.iter().map(|&i| s.bank.questions()[i].id.clone()).collect();
        assert_eq!(got, want);
        assert_eq!(s.len(), QUESTIONS);
    }

    #[test]
    fn answers_then_explains_then_moves_on() {
        let mut s = screen(4);
        let q = s.question().unwrap().clone();
        // Enter before an answer does nothing; a letter past the choices is no answer.
        s.update(Action::Submit);
        s.update(Action::Answer(u8::try_from(q.choices.len()).unwrap()));
        assert_eq!((s.phase, s.current), (Phase::Asking, 0));
        let answer = q.answer();
        s.update(Action::Answer(u8::try_from(answer).unwrap()));
        assert_eq!(s.phase, Phase::Answered(answer));
        // A second letter does not change the answer.
        s.update(Action::Answer(u8::try_from((answer + 1) % q.choices.len()).unwrap()));
        assert_eq!((s.phase, s.score.right(), s.score.asked()), (Phase::Answered(answer), 1, 1));
        s.update(Action::Submit);
        assert_eq!((s.phase, s.current), (Phase::Asking, 1));
    }

    #[test]
    fn ends_with_the_score_and_starts_another_quiz() {
        let mut s = screen(9);
        for _ in 0..s.len() {
            let wrong = (s.question().unwrap().answer() + 1) % s.question().unwrap().choices.len();
            s.update(Action::Answer(u8::try_from(wrong).unwrap()));
            s.update(Action::Submit);
        }
        assert_eq!(s.phase, Phase::Done);
        assert!(s.question().is_none());
        assert_eq!((s.score.right(), s.score.asked()), (0, QUESTIONS));
        s.update(Action::Submit);
        assert_eq!((s.phase, s.current, s.seed, s.score.asked()), (Phase::Asking, 0, 10, 0));
    }

    #[test]
    fn scrolling_stays_in_bounds() {
        let mut s = screen(1);
        s.update(Action::Move(Direction::Up));
        assert_eq!(s.scroll, 0);
        s.update(Action::Move(Direction::PageDown));
        s.update(Action::Move(Direction::Down));
        assert_eq!(s.scroll, PAGE + 1);
        s.update(Action::Move(Direction::End));
        s.update(Action::Move(Direction::PageDown));
        assert_eq!(s.scroll, MAX_SCROLL);
        s.update(Action::Move(Direction::Home));
        assert_eq!(s.scroll, 0);
    }
}

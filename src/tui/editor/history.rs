//! Undo and redo for the schema editor: whole-text snapshots (a variant is a few hundred bytes),
//! so every change — typing, a completion, a paste, a revert — is one step back, and a revert or
//! a discard can itself be undone (no edit is lost to a key). Typing is grouped into words: one
//! undo takes back a word, not a letter. Pure: no terminal, no text widget.

/// The text and the cursor (0-based line and column, in characters) at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub lines: Vec<String>,
    pub cursor: (usize, usize),
}

/// What a change was, for grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A character typed: runs of the same class (word, space, punctuation) group.
    Type(char),
    /// Backspace or Delete: a run of deletions groups.
    Delete,
    /// Anything else (a completion, a paste, a new line, a revert): a step of its own.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    Word,
    Space,
    Punctuation,
    Delete,
}

fn run_of(change: Change) -> Option<Run> {
    match change {
        Change::Type(c) if c.is_alphanumeric() || c == '_' => Some(Run::Word),
        Change::Type(c) if c.is_whitespace() => Some(Run::Space),
        Change::Type(_) => Some(Run::Punctuation),
        Change::Delete => Some(Run::Delete),
        Change::Other => None,
    }
}

/// The most steps kept; the oldest go first.
const DEPTH: usize = 1000;

#[derive(Debug, Clone, Default)]
pub struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The run the last change belongs to, while typing continues it.
    run: Option<Run>,
}

impl History {
    /// Records a change made to the text; `before` is the text as it was. A change that
    /// continues the current run (the next letter of a word) joins the step already recorded.
    pub fn record(&mut self, before: Snapshot, change: Change) {
        let run = run_of(change);
        if run.is_none() || run != self.run {
            if self.undo.len() == DEPTH {
                self.undo.remove(0);
            }
            self.undo.push(before);
        }
        self.run = run;
        self.redo.clear();
    }

    /// The cursor moved without an edit: the next change starts a step of its own.
    pub fn pause(&mut self) {
        self.run = None;
    }

    /// The text before the last step; `now` becomes redoable. `None` at the oldest step.
    pub fn undo(&mut self, now: Snapshot) -> Option<Snapshot> {
        let before = self.undo.pop()?;
        self.redo.push(now);
        self.run = None;
        Some(before)
    }

    /// The text the last undo took back; `None` when nothing was undone since the last change.
    pub fn redo(&mut self, now: Snapshot) -> Option<Snapshot> {
        let after = self.redo.pop()?;
        self.undo.push(now);
        self.run = None;
        Some(after)
    }

    #[cfg(test)]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-line text typed or deleted at its end, recorded as the editor records it.
    struct Typist {
        text: String,
        history: History,
    }

    impl Typist {
        fn now(&self) -> Snapshot {
            Snapshot { lines: vec![self.text.clone()], cursor: (0, self.text.chars().count()) }
        }

        fn type_str(&mut self, s: &str) {
            for c in s.chars() {
                let before = self.now();
                self.text.push(c);
                self.history.record(before, Change::Type(c));
            }
        }

        fn backspace(&mut self, n: usize) {
            for _ in 0..n {
                let before = self.now();
                self.text.pop();
                self.history.record(before, Change::Delete);
            }
        }

        fn replace(&mut self, text: &str) {
            let before = self.now();
            self.text = text.to_owned();
            self.history.record(before, Change::Other);
        }

        fn undo(&mut self) -> bool {
            let now = self.now();
            self.history.undo(now).map(|s| self.text = s.lines[0].clone()).is_some()
        }

        fn redo(&mut self) -> bool {
            let now = self.now();
            self.history.redo(now).map(|s| self.text = s.lines[0].clone()).is_some()
        }
    }

    #[test]
    fn undo_takes_back_words_and_redo_brings_them_again() {
        let mut t = Typist { text: "pk: ".into(), history: History::default() };
        t.type_str("{sensor_id}#day");
        // Steps: `{`, `sensor_id`, `}#`, `day`.
        let steps = ["pk: {sensor_id}#", "pk: {sensor_id", "pk: {", "pk: "];
        for want in steps {
            assert!(t.undo());
            assert_eq!(t.text, want);
        }
        assert!(!t.undo(), "nothing older");
        assert_eq!(t.text, "pk: ");
        for want in steps.iter().rev().skip(1).chain(["pk: {sensor_id}#day"].iter()) {
            assert!(t.redo());
            assert_eq!(t.text, *want);
        }
        assert!(!t.redo(), "nothing newer");
    }

    #[test]
    fn a_run_of_deletions_is_one_step_and_a_new_change_drops_the_redo() {
        let mut t = Typist { text: String::new(), history: History::default() };
        t.type_str("abc");
        t.backspace(2);
        assert_eq!(t.text, "a");
        assert!(t.undo());
        assert_eq!(t.text, "abc");
        assert!(t.history.can_redo());
        t.type_str("x");
        assert!(!t.history.can_redo(), "a new change starts a new future");
        assert_eq!(t.text, "abcx");
    }

    #[test]
    fn a_pause_splits_a_word_and_a_replacement_is_its_own_step() {
        let mut t = Typist { text: String::new(), history: History::default() };
        t.type_str("read");
        t.history.pause();
        t.type_str("ing");
        t.replace("reverted");
        let steps = ["reading", "read", ""];
        for want in steps {
            assert!(t.undo());
            assert_eq!(t.text, want);
        }
    }
}

//! Everything a user can ask of the UI, as one enum. Keys become actions in `keymap`, mouse
//! events in `App::mouse`; state changes only in `App::update`.

use crossterm::event::KeyEvent;

pub use super::editor::EditOp;

/// A panel of the workbench (also what keyboard focus and the mouse point at).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Panel {
    Schema,
    Patterns,
    Heatmap,
    Sizes,
    Indexes,
    /// Only while the variant shards a collection (MongoDB).
    Shards,
    Goals,
    Lesson,
}

impl Panel {
    /// The panels `Tab` moves through, in screen order (the shards only while the variant shards
    /// a collection, the lesson only while it is shown).
    pub const CYCLE: [Panel; 8] = [
        Panel::Schema,
        Panel::Patterns,
        Panel::Goals,
        Panel::Heatmap,
        Panel::Sizes,
        Panel::Indexes,
        Panel::Shards,
        Panel::Lesson,
    ];

    /// The title the panel's border shows (tests look for these).
    pub fn title(self) -> &'static str {
        match self {
            Panel::Schema => "Schema",
            Panel::Patterns => "Access patterns",
            Panel::Heatmap => "Heatmap",
            Panel::Sizes => "Partition sizes",
            Panel::Indexes => "Indexes",
            Panel::Shards => "Shards",
            Panel::Goals => "Goals",
            Panel::Lesson => "Lesson",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `q`: quit, asking first when edits are unsaved.
    Quit,
    /// Ctrl-C: quit now; unsaved edits still go to the recovery file.
    ForceQuit,
    Help,
    /// Esc: close the overlay, leave the editor (keeping the draft).
    Close,
    Move(Direction),
    /// Enter: open the selected scenario, submit a prompt.
    Submit,
    OpenFile,
    TogglePlay,
    Faster,
    Slower,
    StepTick,
    Restart,
    JumpToEnd,
    FocusNext,
    FocusPrev,
    EditSchema,
    Apply,
    JumpToError,
    /// An editor key that works on the draft (undo, completion, the cheat sheet…).
    Edit(EditOp),
    WriteScenario,
    NextVariant,
    Compare,
    CycleMetric,
    ToggleScale,
    ToggleLayer,
    ToggleOrder,
    ToggleLesson,
    /// The next palette: dark, light, high contrast.
    CycleTheme,
    Console,
    Export,
    Yes,
    No,
    /// A key typed into the editor or a prompt.
    Input(KeyEvent),
    /// The mouse clicked a panel.
    FocusPanel(Panel),
    /// The wheel turned over a panel (lines; negative is up).
    Scroll(Panel, i16),
    /// The mouse clicked row `n` of the scenario picker's list.
    PickRow(usize),
    /// `z` on the picker: open the quiz.
    Quiz,
    /// A quiz answer: the choice's index (key `a` is 0).
    Answer(u8),
    /// Practice: reveal the next hint.
    RevealHint,
    /// Practice: grade the current design (at the end of its replay).
    Grade,
    /// Practice: show the solution and the lesson (asks first).
    ShowSolution,
    /// Practice session: submit the current design; the grade report is written.
    SubmitPractice,
    /// Editor: save the draft as a new variant beside the one it came from.
    SaveAsVariant,
}

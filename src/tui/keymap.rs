//! The key table: every key the UI answers, where, and what it does. One table feeds both
//! dispatch ([`action`]) and the help overlay ([`help_sections`]), so help can never drift from
//! what the keys do. Pure: no state, no terminal.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::{Action, Direction, EditOp, Panel};

/// Who is receiving keys right now (the app derives it from its screen, overlay and focus).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Picker,
    Quiz,
    Workbench(Panel),
    Editor,
    /// A one-line prompt (a path).
    Prompt,
    /// The console: its request line, and its history to scroll.
    Console,
    /// A yes/no question (overwrite, quit with unsaved edits, restore a recovery file).
    Confirm,
    Help,
}

/// Where a binding applies. A context searches its scopes in order; the first match wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Anywhere,
    /// The picker, the quiz and the workbench (not while typing).
    Browse,
    Picker,
    Quiz,
    Workbench,
    Heatmap,
    Editor,
    Console,
    Prompt,
    Confirm,
    Help,
}

impl Scope {
    pub fn title(self) -> &'static str {
        match self {
            Scope::Anywhere => "Anywhere",
            Scope::Browse => "Picker, quiz and workbench",
            Scope::Picker => "Scenario picker",
            Scope::Quiz => "Quiz",
            Scope::Workbench => "Workbench",
            Scope::Heatmap => "Heatmap (when focused)",
            Scope::Editor => "Schema editor",
            Scope::Console => "Console",
            Scope::Prompt => "Prompts and console",
            Scope::Confirm => "Questions",
            Scope::Help => "This help",
        }
    }
}

/// A key with its modifiers. Shift is ignored when matching a chord that does not name it (`G`
/// and `?` arrive with it on some terminals and without it on others; the character already says
/// it); a chord that names Shift needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chord {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn ch(c: char) -> Chord {
    Chord { code: KeyCode::Char(c), mods: KeyModifiers::NONE }
}

const fn ctrl(c: char) -> Chord {
    Chord { code: KeyCode::Char(c), mods: KeyModifiers::CONTROL }
}

/// Ctrl with Shift: terminals that report Shift with Ctrl tell it apart from plain Ctrl.
const fn ctrl_shift(c: char) -> Chord {
    Chord { code: KeyCode::Char(c), mods: KeyModifiers::CONTROL.union(KeyModifiers::SHIFT) }
}

const fn alt(c: char) -> Chord {
    Chord { code: KeyCode::Char(c), mods: KeyModifiers::ALT }
}

const fn shift(code: KeyCode) -> Chord {
    Chord { code, mods: KeyModifiers::SHIFT }
}

const fn ctrl_code(code: KeyCode) -> Chord {
    Chord { code, mods: KeyModifiers::CONTROL }
}

const fn code(code: KeyCode) -> Chord {
    Chord { code, mods: KeyModifiers::NONE }
}

impl Chord {
    fn matches(self, key: &KeyEvent) -> bool {
        let mods = if self.mods.contains(KeyModifiers::SHIFT) {
            key.modifiers
        } else {
            key.modifiers.difference(KeyModifiers::SHIFT)
        };
        let code = match key.code {
            // Shift-Tab arrives as BackTab; some terminals add SHIFT, some do not.
            KeyCode::Char(c) if mods.contains(KeyModifiers::CONTROL) => KeyCode::Char(c.to_ascii_lowercase()),
            other => other,
        };
        self.code == code && self.mods == mods
    }

    /// How help and hints write the key.
    pub fn label(self) -> String {
        let name = match self.code {
            KeyCode::Char(' ') => "space".to_owned(),
            KeyCode::Char(c) if self.mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => {
                c.to_ascii_uppercase().to_string()
            }
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "Enter".to_owned(),
            KeyCode::Esc => "Esc".to_owned(),
            KeyCode::Tab => "Tab".to_owned(),
            KeyCode::BackTab => "Shift-Tab".to_owned(),
            KeyCode::Up => "↑".to_owned(),
            KeyCode::Down => "↓".to_owned(),
            KeyCode::Left => "←".to_owned(),
            KeyCode::Right => "→".to_owned(),
            KeyCode::PageUp => "PgUp".to_owned(),
            KeyCode::PageDown => "PgDn".to_owned(),
            KeyCode::Home => "Home".to_owned(),
            KeyCode::End => "End".to_owned(),
            KeyCode::Backspace => "Backspace".to_owned(),
            KeyCode::Delete => "Delete".to_owned(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        let mut label = String::new();
        for (m, prefix) in
            [(KeyModifiers::CONTROL, "Ctrl-"), (KeyModifiers::ALT, "Alt-"), (KeyModifiers::SHIFT, "Shift-")]
        {
            if self.mods.contains(m) {
                label.push_str(prefix);
            }
        }
        label + &name
    }
}

pub struct Binding {
    pub scope: Scope,
    pub keys: &'static [Chord],
    pub action: Action,
    pub help: &'static str,
}

const fn bind(scope: Scope, keys: &'static [Chord], action: Action, help: &'static str) -> Binding {
    Binding { scope, keys, action, help }
}

use Direction as D;
use Scope as S;

/// A binding whose keys go to the text as typed (listed for the help; dispatch passes the key).
const TEXT: Action = Action::Input(KeyEvent::new(KeyCode::Null, KeyModifiers::NONE));

/// The key table (DESIGN.md §8). Order is the help overlay's order within a scope.
pub const KEYS: &[Binding] = &[
    bind(S::Anywhere, &[ctrl('c')], Action::ForceQuit, "quit now (unsaved edits go to the recovery file)"),
    bind(S::Browse, &[ch('q')], Action::Quit, "quit (asks first when edits are unsaved)"),
    bind(S::Browse, &[ch('?')], Action::Help, "show or hide this help"),
    bind(S::Picker, &[code(KeyCode::Up), ch('k')], Action::Move(D::Up), "previous scenario"),
    bind(S::Picker, &[code(KeyCode::Down), ch('j')], Action::Move(D::Down), "next scenario"),
    bind(
        S::Picker,
        &[code(KeyCode::Left), ch('h')],
        Action::Move(D::Left),
        "previous store the scenario lists",
    ),
    bind(
        S::Picker,
        &[code(KeyCode::Right), ch('l')],
        Action::Move(D::Right),
        "next store the scenario lists",
    ),
    bind(
        S::Picker,
        &[code(KeyCode::Enter)],
        Action::Submit,
        "open the selected scenario on the chosen store",
    ),
    bind(S::Picker, &[ch('o')], Action::OpenFile, "open a scenario file by path"),
    bind(S::Picker, &[ch('z')], Action::Quiz, "quiz: questions on key design, with explanations"),
    // One row for every choice letter: `action` puts the pressed key's position in the answer.
    bind(
        S::Quiz,
        &[ch('a'), ch('b'), ch('c'), ch('d'), ch('e')],
        Action::Answer(0),
        "answer with the choice's letter",
    ),
    bind(
        S::Quiz,
        &[code(KeyCode::Enter), ch(' ')],
        Action::Submit,
        "next question; at the end, another quiz",
    ),
    bind(S::Quiz, &[code(KeyCode::Up), ch('k')], Action::Move(D::Up), "scroll up"),
    bind(S::Quiz, &[code(KeyCode::Down), ch('j')], Action::Move(D::Down), "scroll down"),
    bind(S::Quiz, &[code(KeyCode::Esc)], Action::Close, "back to the scenario picker"),
    bind(S::Workbench, &[ch(' ')], Action::TogglePlay, "play / pause the replay"),
    bind(S::Workbench, &[ch('+'), ch('=')], Action::Faster, "faster"),
    bind(S::Workbench, &[ch('-')], Action::Slower, "slower"),
    bind(S::Workbench, &[ch('.')], Action::StepTick, "advance one tick"),
    bind(S::Workbench, &[ch('r')], Action::Restart, "restart the replay"),
    bind(S::Workbench, &[ch('G'), code(KeyCode::End)], Action::JumpToEnd, "jump to the end of the workload"),
    bind(S::Workbench, &[code(KeyCode::Tab)], Action::FocusNext, "focus the next panel"),
    bind(S::Workbench, &[code(KeyCode::BackTab)], Action::FocusPrev, "focus the previous panel"),
    bind(S::Workbench, &[ch('e')], Action::EditSchema, "edit the variant's key schema"),
    bind(
        S::Workbench,
        &[ch('w')],
        Action::WriteScenario,
        "write the scenario as applied to a file (not drafts)",
    ),
    bind(S::Workbench, &[ch('v')], Action::NextVariant, "next variant of the scenario"),
    bind(S::Workbench, &[ch('c')], Action::Compare, "compare with the previous run"),
    // The metrics themselves depend on the store: `help_sections` adds them.
    bind(S::Workbench, &[ch('m')], Action::CycleMetric, "heatmap metric"),
    bind(
        S::Workbench,
        &[ch('s')],
        Action::ToggleScale,
        "heatmap colour: against the partition limit / relative",
    ),
    bind(S::Workbench, &[ch('p')], Action::ToggleLayer, "heatmap rows: logical / physical partitions"),
    bind(S::Workbench, &[ch('o')], Action::ToggleOrder, "heatmap rows: by key / by heat"),
    bind(S::Workbench, &[ch('l')], Action::ToggleLesson, "show / hide the lesson pane"),
    bind(S::Workbench, &[ch('t')], Action::CycleTheme, "theme: dark / light / high contrast (projector)"),
    bind(
        S::Workbench,
        &[ch(':')],
        Action::Console,
        "console: read the replay's table (get, query, scan, JSON)",
    ),
    bind(S::Workbench, &[ch('x')], Action::Export, "export the screen as SVG"),
    bind(
        S::Workbench,
        &[ch('h')],
        Action::RevealHint,
        "practice: reveal the next hint (counts in the grade)",
    ),
    bind(S::Workbench, &[ch('g')], Action::Grade, "practice: grade the current design (replays to the end)"),
    bind(
        S::Workbench,
        &[ch('A')],
        Action::ShowSolution,
        "practice: show the solution and the lesson (asks first)",
    ),
    bind(
        S::Workbench,
        &[ch('S')],
        Action::SubmitPractice,
        "practice session: submit; writes the grade report",
    ),
    bind(S::Workbench, &[code(KeyCode::Esc)], Action::Close, "leave compare view"),
    bind(S::Heatmap, &[code(KeyCode::Up)], Action::Move(D::Up), "cursor up a row"),
    bind(S::Heatmap, &[code(KeyCode::Down)], Action::Move(D::Down), "cursor down a row"),
    bind(S::Heatmap, &[code(KeyCode::Left)], Action::Move(D::Left), "cursor back in time"),
    bind(S::Heatmap, &[code(KeyCode::Right)], Action::Move(D::Right), "cursor forward in time"),
    bind(S::Workbench, &[code(KeyCode::Up)], Action::Move(D::Up), "scroll the focused panel up"),
    bind(S::Workbench, &[code(KeyCode::Down)], Action::Move(D::Down), "scroll the focused panel down"),
    bind(S::Workbench, &[code(KeyCode::PageUp)], Action::Move(D::PageUp), "scroll a page up"),
    bind(S::Workbench, &[code(KeyCode::PageDown)], Action::Move(D::PageDown), "scroll a page down"),
    bind(S::Editor, &[ctrl('s')], Action::Apply, "apply the edit and restart the replay"),
    bind(S::Editor, &[ctrl('g')], Action::JumpToError, "move the cursor to the error"),
    bind(
        S::Editor,
        &[ctrl('n')],
        Action::SaveAsVariant,
        "save the draft as a new variant (the one it came from stays)",
    ),
    bind(
        S::Editor,
        &[code(KeyCode::Esc)],
        Action::Close,
        "leave the editor, draft kept; or close the completion list",
    ),
    bind(
        S::Editor,
        &[code(KeyCode::Tab)],
        Action::Edit(EditOp::Complete),
        "complete an attribute, slot function, entity or index name",
    ),
    bind(S::Editor, &[code(KeyCode::F(1))], Action::Help, "show the keys (this help)"),
    bind(
        S::Editor,
        &[code(KeyCode::F(2)), ctrl('t')],
        Action::Edit(EditOp::CheatSheet),
        "show / hide the key-template cheat sheet",
    ),
    // Redo comes before undo: Ctrl-Shift-Z would also match Ctrl-Z, which ignores Shift.
    bind(S::Editor, &[ctrl('y'), ctrl_shift('z')], Action::Edit(EditOp::Redo), "redo"),
    bind(S::Editor, &[ctrl('z')], Action::Edit(EditOp::Undo), "undo (a word at a time)"),
    bind(S::Editor, &[ctrl('a')], Action::Edit(EditOp::SelectAll), "select all"),
    bind(S::Editor, &[alt('c')], Action::Edit(EditOp::Copy), "copy the selection"),
    bind(S::Editor, &[ctrl('x')], Action::Edit(EditOp::Cut), "cut the selection"),
    bind(S::Editor, &[ctrl('v')], Action::Edit(EditOp::Paste), "paste"),
    bind(
        S::Editor,
        &[ctrl('r')],
        Action::Edit(EditOp::Revert),
        "revert to the variant as the file has it (undoable)",
    ),
    bind(
        S::Editor,
        &[ctrl('d')],
        Action::Edit(EditOp::Discard),
        "drop unapplied edits, back to what is applied (undoable)",
    ),
    // Keys the text itself takes, listed so the help names every editor key.
    bind(
        S::Editor,
        &[
            shift(KeyCode::Left),
            shift(KeyCode::Right),
            shift(KeyCode::Up),
            shift(KeyCode::Down),
            shift(KeyCode::Home),
            shift(KeyCode::End),
        ],
        TEXT,
        "select text",
    ),
    bind(
        S::Editor,
        &[
            code(KeyCode::Left),
            code(KeyCode::Right),
            code(KeyCode::Up),
            code(KeyCode::Down),
            code(KeyCode::Home),
            code(KeyCode::End),
            code(KeyCode::PageUp),
            code(KeyCode::PageDown),
        ],
        TEXT,
        "move the cursor",
    ),
    bind(S::Editor, &[code(KeyCode::Backspace), code(KeyCode::Delete)], TEXT, "delete a character"),
    // The request line is one line, so the arrows are free to scroll the answers.
    bind(S::Console, &[code(KeyCode::Up)], Action::Move(D::Up), "scroll the answers up a line"),
    bind(S::Console, &[code(KeyCode::Down)], Action::Move(D::Down), "scroll the answers down a line"),
    bind(S::Console, &[code(KeyCode::PageUp)], Action::Move(D::PageUp), "scroll the answers a page up"),
    bind(S::Console, &[code(KeyCode::PageDown)], Action::Move(D::PageDown), "a page down (to the newest)"),
    // Home and End move the cursor in the request line; with Ctrl they jump through the answers.
    bind(S::Console, &[ctrl_code(KeyCode::Home)], Action::Move(D::Home), "the oldest answer"),
    bind(S::Console, &[ctrl_code(KeyCode::End)], Action::Move(D::End), "the newest answer"),
    bind(S::Prompt, &[code(KeyCode::Enter)], Action::Submit, "submit"),
    bind(S::Prompt, &[code(KeyCode::Esc)], Action::Close, "cancel"),
    bind(S::Confirm, &[ch('y')], Action::Yes, "yes"),
    bind(S::Confirm, &[ch('n')], Action::No, "no"),
    bind(S::Confirm, &[code(KeyCode::Esc)], Action::Close, "not now"),
    bind(S::Help, &[code(KeyCode::Esc), ch('?'), ch('q')], Action::Close, "close the help"),
    bind(S::Help, &[code(KeyCode::Up), ch('k')], Action::Move(D::Up), "scroll up"),
    bind(S::Help, &[code(KeyCode::Down), ch('j')], Action::Move(D::Down), "scroll down"),
];

/// The scopes a context searches, in order.
fn scopes(context: Context) -> &'static [Scope] {
    match context {
        Context::Picker => &[S::Anywhere, S::Browse, S::Picker],
        Context::Quiz => &[S::Anywhere, S::Browse, S::Quiz],
        Context::Workbench(Panel::Heatmap) => &[S::Anywhere, S::Browse, S::Heatmap, S::Workbench],
        Context::Workbench(_) => &[S::Anywhere, S::Browse, S::Workbench],
        Context::Editor => &[S::Anywhere, S::Editor],
        Context::Prompt => &[S::Anywhere, S::Prompt],
        Context::Console => &[S::Anywhere, S::Console, S::Prompt],
        Context::Confirm => &[S::Anywhere, S::Confirm],
        Context::Help => &[S::Anywhere, S::Help],
    }
}

/// What `key` means in `context`. In the editor and in prompts, any key the table does not claim
/// is text input. Key releases mean nothing (terminals that report them send presses too).
pub fn action(context: Context, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    for &scope in scopes(context) {
        if let Some(b) = KEYS.iter().find(|b| b.scope == scope && b.keys.iter().any(|k| k.matches(&key))) {
            return Some(match b.action {
                Action::Answer(_) => {
                    let i = b.keys.iter().position(|k| k.matches(&key)).and_then(|i| u8::try_from(i).ok());
                    Action::Answer(i.unwrap_or(0))
                }
                Action::Input(_) => Action::Input(key),
                other => other,
            });
        }
    }
    match context {
        Context::Editor | Context::Prompt | Context::Console => Some(Action::Input(key)),
        _ => None,
    }
}

/// The help overlay's content for help opened on `screen`, with a scenario open on `engine`:
/// per scope, each binding's keys and what it does (`m` lists the heatmap's metrics on that
/// store, as `m` cycles them). The screen's own keys come first, then the keys that work
/// everywhere, then the rest in a fixed order.
pub fn help_sections(
    screen: Context,
    engine: Option<crate::engine::model::Engine>,
) -> Vec<(&'static str, Vec<(String, String)>)> {
    const ORDER: [Scope; 11] = [
        S::Anywhere,
        S::Browse,
        S::Picker,
        S::Quiz,
        S::Workbench,
        S::Heatmap,
        S::Editor,
        S::Console,
        S::Prompt,
        S::Confirm,
        S::Help,
    ];
    let first: &[Scope] = match screen {
        Context::Picker => &[S::Picker],
        Context::Quiz => &[S::Quiz],
        Context::Workbench(_) => &[S::Workbench, S::Heatmap, S::Editor, S::Console],
        Context::Editor => &[S::Editor, S::Workbench, S::Heatmap, S::Console],
        Context::Prompt | Context::Console | Context::Confirm | Context::Help => &[],
    };
    let rest = ORDER.iter().filter(|s| !first.contains(s));
    first
        .iter()
        .chain(rest)
        .map(|&scope| {
            let rows = KEYS
                .iter()
                .filter(|b| b.scope == scope)
                .map(|b| {
                    (b.keys.iter().map(|k| k.label()).collect::<Vec<_>>().join(" "), describe(b, engine))
                })
                .collect();
            (scope.title(), rows)
        })
        .collect()
}

/// What a binding does, in the help's words: its own, and for `m` the metrics it offers.
fn describe(binding: &Binding, engine: Option<crate::engine::model::Engine>) -> String {
    match binding.action {
        Action::CycleMetric => {
            format!("{}: {}", binding.help, super::panels::heatmap::metric_choices(engine))
        }
        _ => binding.help.to_owned(),
    }
}

/// The first key bound to `action` in `scope`, for hints (`space play`).
pub fn label(scope: Scope, action: Action) -> Option<String> {
    KEYS.iter()
        .find(|b| b.scope == scope && b.action == action)
        .and_then(|b| b.keys.first())
        .map(|k| k.label())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn keys_map_to_actions_by_context() {
        let none = KeyModifiers::NONE;
        let shift = KeyModifiers::SHIFT;
        let ctl = KeyModifiers::CONTROL;
        let wb = Context::Workbench(Panel::Schema);
        let heat = Context::Workbench(Panel::Heatmap);
        let cases = [
            (wb, key(KeyCode::Char(' '), none), Some(Action::TogglePlay)),
            (wb, key(KeyCode::Char('+'), shift), Some(Action::Faster)),
            (wb, key(KeyCode::Char('='), none), Some(Action::Faster)),
            (wb, key(KeyCode::Char('G'), shift), Some(Action::JumpToEnd)),
            (wb, key(KeyCode::End, none), Some(Action::JumpToEnd)),
            (wb, key(KeyCode::Char('?'), shift), Some(Action::Help)),
            (wb, key(KeyCode::BackTab, shift), Some(Action::FocusPrev)),
            (wb, key(KeyCode::Char('c'), ctl), Some(Action::ForceQuit)),
            (wb, key(KeyCode::Char('z'), none), None),
            (wb, key(KeyCode::Up, none), Some(Action::Move(Direction::Up))),
            (heat, key(KeyCode::Left, none), Some(Action::Move(Direction::Left))),
            (heat, key(KeyCode::Char('m'), none), Some(Action::CycleMetric)),
            (Context::Picker, key(KeyCode::Char('o'), none), Some(Action::OpenFile)),
            (Context::Picker, key(KeyCode::Char('z'), none), Some(Action::Quiz)),
            (Context::Quiz, key(KeyCode::Char('a'), none), Some(Action::Answer(0))),
            (Context::Quiz, key(KeyCode::Char('c'), none), Some(Action::Answer(2))),
            (Context::Quiz, key(KeyCode::Char('e'), none), Some(Action::Answer(4))),
            (Context::Quiz, key(KeyCode::Enter, none), Some(Action::Submit)),
            (Context::Quiz, key(KeyCode::Esc, none), Some(Action::Close)),
            (Context::Quiz, key(KeyCode::Char('q'), none), Some(Action::Quit)),
            (Context::Quiz, key(KeyCode::Char('f'), none), None),
            (wb, key(KeyCode::Char('o'), none), Some(Action::ToggleOrder)),
            (Context::Editor, key(KeyCode::Char('s'), ctl), Some(Action::Apply)),
            (Context::Editor, key(KeyCode::Char('S'), ctl | shift), Some(Action::Apply)),
            (
                Context::Editor,
                key(KeyCode::Char('q'), none),
                Some(Action::Input(key(KeyCode::Char('q'), none))),
            ),
            (Context::Editor, key(KeyCode::Char('c'), ctl), Some(Action::ForceQuit)),
            (Context::Prompt, key(KeyCode::Enter, none), Some(Action::Submit)),
            (Context::Prompt, key(KeyCode::Up, none), Some(Action::Input(key(KeyCode::Up, none)))),
            (Context::Console, key(KeyCode::Enter, none), Some(Action::Submit)),
            (Context::Console, key(KeyCode::Esc, none), Some(Action::Close)),
            (Context::Console, key(KeyCode::Up, none), Some(Action::Move(Direction::Up))),
            (Context::Console, key(KeyCode::PageDown, none), Some(Action::Move(Direction::PageDown))),
            (
                Context::Console,
                key(KeyCode::Home, KeyModifiers::CONTROL),
                Some(Action::Move(Direction::Home)),
            ),
            (Context::Console, key(KeyCode::End, KeyModifiers::CONTROL), Some(Action::Move(Direction::End))),
            (
                Context::Console,
                key(KeyCode::Char('q'), none),
                Some(Action::Input(key(KeyCode::Char('q'), none))),
            ),
            (Context::Confirm, key(KeyCode::Char('y'), none), Some(Action::Yes)),
            (Context::Confirm, key(KeyCode::Char('x'), none), None),
            (Context::Help, key(KeyCode::Char('?'), none), Some(Action::Close)),
        ];
        for (context, event, want) in cases {
            assert_eq!(action(context, event), want, "{context:?} {event:?}");
        }
        let mut release = key(KeyCode::Char('q'), none);
        release.kind = KeyEventKind::Release;
        assert_eq!(action(wb, release), None);
    }

    #[test]
    fn no_key_is_bound_twice_in_scopes_searched_together() {
        for context in [
            Context::Picker,
            Context::Quiz,
            Context::Workbench(Panel::Heatmap),
            Context::Workbench(Panel::Goals),
            Context::Editor,
            Context::Prompt,
            Context::Console,
            Context::Confirm,
            Context::Help,
        ] {
            let mut seen: Vec<(Chord, Scope)> = Vec::new();
            for &scope in scopes(context) {
                for b in KEYS.iter().filter(|b| b.scope == scope) {
                    for k in b.keys {
                        // A more specific scope may shadow a broader one (the heatmap's arrows).
                        if let Some((_, other)) = seen.iter().find(|(c, _)| c == k) {
                            assert!(
                                *other == S::Heatmap && scope == S::Workbench,
                                "{} bound in {other:?} and {scope:?}",
                                k.label()
                            );
                        }
                        seen.push((*k, scope));
                    }
                }
            }
        }
    }

    #[test]
    fn help_lists_the_screens_keys_first() {
        let titles = |screen| help_sections(screen, None).iter().map(|(t, _)| *t).collect::<Vec<_>>();
        let cases: [(Context, &[&str]); 4] = [
            (Context::Picker, &["Scenario picker", "Anywhere", "Picker, quiz and workbench", "Quiz"]),
            (Context::Quiz, &["Quiz", "Anywhere", "Picker, quiz and workbench", "Scenario picker"]),
            (
                Context::Workbench(Panel::Goals),
                &["Workbench", "Heatmap (when focused)", "Schema editor", "Console"],
            ),
            (Context::Help, &["Anywhere", "Picker, quiz and workbench", "Scenario picker", "Quiz"]),
        ];
        for (screen, want) in cases {
            let got = titles(screen);
            assert_eq!(got[..want.len()], *want, "{screen:?}");
            // Every section, each once, whatever comes first.
            let mut sorted = got.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 11, "{got:?}");
        }
    }

    #[test]
    fn help_lists_every_binding_with_its_keys() {
        let sections = help_sections(Context::Picker, None);
        let total: usize = sections.iter().map(|(_, rows)| rows.len()).sum();
        assert_eq!(total, KEYS.len());
        let workbench = &sections.iter().find(|(t, _)| *t == "Workbench").unwrap().1;
        assert!(workbench.iter().any(|(k, h)| k == "space" && h.contains("play")));
        assert!(workbench.iter().any(|(k, _)| k == "G End"));
        assert_eq!(label(S::Editor, Action::Apply).as_deref(), Some("Ctrl-S"));
    }

    /// `m`'s line names the metrics `m` cycles through on the open scenario's store, in its words:
    /// normalized RU only on Cosmos DB; with no scenario open, which stores offer which.
    #[test]
    fn help_names_the_metrics_the_store_offers() {
        use crate::engine::model::Engine;
        let m_line = |engine| {
            help_sections(Context::Workbench(Panel::Heatmap), engine)
                .into_iter()
                .flat_map(|(_, rows)| rows)
                .find(|(k, _)| k == "m")
                .map(|(_, h)| h)
                .expect("m is bound")
        };
        let cases = [
            (Some(Engine::DynamoDb), "heatmap metric: write units, read units, throttled, bytes, items"),
            (
                Some(Engine::CosmosDb),
                "heatmap metric: write RU, read RU, throttled, bytes, items, normalized RU",
            ),
            (Some(Engine::Cassandra), "heatmap metric: writes, reads, throttled, bytes, rows"),
            (Some(Engine::MongoDb), "heatmap metric: writes, reads, throttled, bytes, documents"),
            (
                None,
                "heatmap metric: write units, read units, throttled, bytes, items; on Cosmos DB also normalized RU",
            ),
        ];
        for (engine, want) in cases {
            assert_eq!(m_line(engine), want, "{engine:?}");
        }
        // As many metrics as `m` steps through before it comes back.
        for engine in Engine::ALL {
            let mut metric = crate::engine::metrics::Metric::WriteUnits;
            let mut steps = 0;
            loop {
                metric = crate::tui::panels::heatmap::next_metric(metric, engine);
                steps += 1;
                if metric == crate::engine::metrics::Metric::WriteUnits {
                    break;
                }
            }
            assert_eq!(m_line(Some(engine)).matches(", ").count() + 1, steps, "{engine}");
        }
    }
}

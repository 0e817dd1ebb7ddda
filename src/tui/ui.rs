//! Drawing: the app's state into a `Buffer`, once per frame. Reads the snapshot `App::refresh`
//! took; changes nothing. [`render_workbench`] is what `keyheat snapshot` and the benchmark call.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::action::{Action, Panel};
use super::app::{App, Screen};
use super::driver::Stage;
use super::editor::EditorPanel;
use super::keymap::{self, Scope};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::overlay;
use super::pacing::{SPEEDS, rate_label};
use super::panels::goals::GoalsPanel;
use super::panels::heatmap::{Empty, HeatmapPanel};
use super::panels::indexes::IndexesPanel;
use super::panels::lesson::LessonPanel;
use super::panels::patterns::{self, PatternsPanel};
use super::panels::quiz::QuizView;
use super::panels::schema::{DraftNote, SchemaPanel};
use super::panels::shards::{ShardsPanel, UNSHARDED};
use super::panels::sizes::SizesPanel;
use super::panels::status::{Hint, MessageKind, StatusLine};
use super::panels::{block, collapsed, framed};
use super::picker::PickerView;
use super::replay::design_splits;
use super::theme::Theme;
use super::view::{AsRates, WorkbenchView};
use super::workbench::{Mode, Playback, Workbench};
use crate::engine::planner::numbers;
use crate::engine::sim::RunReport;
use crate::report::compare::{CompareError, Comparison};

/// Draws the whole screen.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    buf.set_style(area, theme.base());
    if !layout::fits(area) {
        too_small(area, buf, theme);
        return;
    }
    match &app.screen {
        Screen::Picker(p) => {
            PickerView { picker: p, theme }.render(area, buf);
            if let Some((text, kind)) = &app.message {
                let style = if *kind == MessageKind::Error { theme.bad() } else { theme.warn() };
                let line = Rect { y: area.bottom() - 1, height: 1, ..area };
                Paragraph::new(Span::styled(text.clone(), style)).render(line, buf);
            }
        }
        Screen::Workbench(w) => workbench(app, w, buf),
        Screen::Quiz(quiz) => QuizView { quiz, theme }.render(area, buf),
    }
    if let Some(o) = &app.overlay {
        overlay::render(o, area, buf, theme);
    }
}

/// The screen drawn into a fresh buffer of `area`'s size.
pub fn screen_buffer(app: &App, area: Rect) -> Buffer {
    let mut buf = Buffer::empty(area);
    render(app, area, &mut buf);
    buf
}

/// The workbench as it looks at `cols` × `rows` (refreshing its snapshot for that size first).
pub fn render_workbench(app: &mut App, cols: u16, rows: u16) -> Buffer {
    let area = Rect::new(0, 0, cols, rows);
    app.refresh(area);
    screen_buffer(app, area)
}

fn too_small(area: Rect, buf: &mut Buffer, theme: Theme) {
    let text = format!(
        "keyheat needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. Enlarge it, or press q to quit.",
        area.width, area.height
    );
    let height = 4.min(area.height);
    let rect = Rect { y: area.y + (area.height - height) / 2, height, ..area };
    Paragraph::new(Span::styled(text, theme.warn())).centered().wrap(Wrap { trim: true }).render(rect, buf);
}

fn workbench(app: &App, w: &Workbench, buf: &mut Buffer) {
    let theme = app.theme;
    let l = &w.layout;
    let focused = |p: Panel| w.focus == p && w.mode == Mode::Normal;
    let scenario = &w.loaded.scenario;
    let variant = w.current();
    let loading = w.loading.map(|l| format!("opening the replay — {}", l.label()));
    let empty = match (&loading, w.progress) {
        (Some(text), _) => text.as_str(),
        (None, None) => "no replay: the panels show the static plan",
        (None, Some(_)) if w.view.rates.is_some() => AsRates::HEATMAP,
        (None, Some(_)) => "space plays the replay",
    };
    if w.mode == Mode::Compare {
        compare(w, buf, theme);
    } else {
        for &(panel, rect) in &l.panels {
            match panel {
                Panel::Schema => SchemaPanel {
                    variant,
                    engine: scenario.engine,
                    position: w.visible_position(),
                    draft: match w.drafts.get(&w.variant) {
                        Some(d) if d.is_dirty(&w.loaded) && d.error.is_some() => DraftNote::Invalid,
                        Some(d) if d.is_dirty(&w.loaded) => DraftNote::Valid,
                        _ => DraftNote::None,
                    },
                    focused: focused(panel),
                    scroll: w.scroll_of(panel),
                    theme,
                }
                .render(rect, buf),
                Panel::Patterns => {
                    let plan = w.plan();
                    let targets = plan.map(|p| patterns::targets(p, scenario)).unwrap_or_default();
                    PatternsPanel {
                        plan,
                        targets: &targets,
                        live: &w.view.patterns,
                        focused: focused(panel),
                        scroll: w.scroll_of(panel),
                        theme,
                    }
                    .render(rect, buf);
                }
                Panel::Heatmap => heatmap(w, focused(panel), rect, buf, (theme, empty)),
                Panel::Sizes => {
                    let b = block(panel, focused(panel), theme);
                    let inner = b.inner(rect);
                    b.render(rect, buf);
                    SizesPanel { sizes: &w.view.sizes, empty, theme }.render(inner, buf);
                }
                Panel::Indexes => {
                    let indexes = IndexesPanel {
                        variant,
                        engine: scenario.engine,
                        live: &w.view.indexes,
                        focused: focused(panel),
                        scroll: w.scroll_of(panel),
                        theme,
                    };
                    if l.collapsed == Some(panel) {
                        collapsed(panel, indexes.summary(), rect, buf, theme);
                    } else {
                        indexes.render(rect, buf);
                    }
                }
                Panel::Shards => shards(w, focused(panel), l.collapsed == Some(panel), rect, buf, theme),
                Panel::Goals => GoalsPanel {
                    goals: &scenario.goals,
                    live: &w.view.goals,
                    focused: focused(panel),
                    scroll: w.scroll_of(panel),
                    theme,
                }
                .render(rect, buf),
                Panel::Lesson => {}
            }
        }
        if w.mode == Mode::Edit
            && let Some(editor) = w.drafts.get(&w.variant)
        {
            EditorPanel { editor, variant_name: &variant.name, theme }.render(l.editor, buf);
        }
    }
    if let Some(rect) = l.rect(Panel::Lesson) {
        lesson(w, focused(Panel::Lesson), rect, buf, theme);
    }
    status(app, w, l.status, buf);
}

/// The Heatmap panel of the current run, its legend in the current design's words before a
/// run is drawn; `empty`: what it says without a matrix.
fn heatmap(w: &Workbench, focused: bool, rect: Rect, buf: &mut Buffer, (theme, empty): (Theme, &str)) {
    let b = block(Panel::Heatmap, focused, theme);
    let inner = b.inner(rect);
    b.render(rect, buf);
    HeatmapPanel {
        view: w.view.heatmap.as_ref(),
        settings: &w.heat,
        hints: &w.hints,
        empty: heat_empty(Some(&w.view), empty),
        design: &design_splits(w.loaded.scenario.engine, w.current()),
        theme,
    }
    .render(inner, buf);
}

/// The Shards panel of a variant that shards a collection, from the snapshot's report (the
/// layout gives it no place otherwise), whole or `folded` to its summary.
fn shards(w: &Workbench, focused: bool, folded: bool, rect: Rect, buf: &mut Buffer, theme: Theme) {
    let variant = w.current();
    let Some(sharding) = &variant.sharding else { return };
    let key = variant.keys.iter().find(|k| k.entity_id() == sharding.entity_id);
    let panel = ShardsPanel {
        sharding,
        key: key.map_or("", |k| k.pk.source()),
        live: w.view.report.as_ref().and_then(|r| r.shards.as_ref()),
        focused,
        scroll: w.scroll_of(Panel::Shards),
        theme,
    };
    if folded {
        collapsed(Panel::Shards, panel.summary(), rect, buf, theme);
    } else {
        panel.render(rect, buf);
    }
}

/// Why a heatmap of `view` has no cells: a run replayed as rates never has any; otherwise
/// `waiting` says what it waits for.
fn heat_empty<'a>(view: Option<&WorkbenchView>, waiting: &'a str) -> Empty<'a> {
    if view.is_some_and(|v| v.rates.is_some()) { Empty::AsRates } else { Empty::Yet(waiting) }
}

fn lesson(w: &Workbench, focused: bool, rect: Rect, buf: &mut Buffer, theme: Theme) {
    let scroll = w.scroll_of(Panel::Lesson);
    LessonPanel { scenario: &w.loaded.scenario, practice: w.practice.as_ref(), focused, scroll, theme }
        .render(rect, buf);
}

fn status(app: &App, w: &Workbench, area: Rect, buf: &mut Buffer) {
    let state = match w.playback {
        Playback::Paused => "⏸",
        Playback::Playing => "▶",
        Playback::ToEnd => "⏭",
    };
    let play = if w.playback == Playback::Paused { "play" } else { "pause" };
    // (action, what it does, priority: lower stays longer on a short line). Help comes first:
    // it lists every other key.
    let (scope, actions): (Scope, Vec<(Action, &'static str, u8)>) = match w.mode {
        Mode::Edit => (Scope::Editor, vec![(Action::Apply, "apply", 0), (Action::Close, "leave", 1)]),
        Mode::Compare => {
            (Scope::Workbench, vec![(Action::Compare, "back", 1), (Action::TogglePlay, play, 2)])
        }
        Mode::Normal => (
            Scope::Workbench,
            vec![
                (Action::TogglePlay, play, 1),
                (Action::EditSchema, "edit", 3),
                (Action::NextVariant, "variant", 4),
                (Action::Compare, "compare", 5),
            ],
        ),
    };
    // Compare is offered once there is a run to compare with; play is not offered for a run
    // replayed as rates (computed whole).
    let actions: Vec<_> = actions
        .into_iter()
        .filter(|&(a, ..)| a != Action::Compare || w.baseline_label.is_some())
        .filter(|&(a, ..)| a != Action::TogglePlay || w.view.rates.is_none())
        .collect();
    let mut hints: Vec<Hint> = actions
        .iter()
        .filter_map(|&(a, what, priority)| keymap::label(scope, a).map(|key| Hint { key, what, priority }))
        .collect();
    if w.mode != Mode::Edit {
        for (a, what, priority) in [(Action::Help, "help", 0), (Action::Quit, "quit", 2)] {
            if let Some(key) = keymap::label(Scope::Browse, a) {
                hints.push(Hint { key, what, priority });
            }
        }
    }
    let asked = if w.playback == Playback::ToEnd { SPEEDS[SPEEDS.len() - 1] } else { SPEEDS[w.speed] };
    let speed = match (w.loading, w.speedometer.achieved()) {
        (Some(l), _) if l.stage == Stage::Rates => {
            format!("replaying as rates {}", numbers::percent(l.fraction))
        }
        (Some(l), _) => format!("{} · loading {}", asked.label(), numbers::percent(l.fraction)),
        // A run replayed as rates has no speed: it was computed whole. Say how it was replayed.
        (None, _) if w.view.rates.is_some() => w.view.rates.map(AsRates::label).unwrap_or_default(),
        (None, Some(rate)) if w.playback != Playback::Paused => {
            format!("{}, achieved {}", asked.label(), rate_label(rate))
        }
        _ => asked.label(),
    };
    // A practice session's countdown rides with the variant's name: always in sight.
    let countdown =
        w.practice.as_ref().and_then(|p| p.session.as_ref()).and_then(super::practice::Session::countdown);
    let variant = match countdown {
        Some(clock) => format!("{} · {clock}", w.current().name),
        None => w.current().name.clone(),
    };
    StatusLine {
        state,
        progress: w.progress,
        start: w.loaded.scenario.workload.start,
        speed: &speed,
        seed: w.seed,
        variant: &variant,
        store: &w.loaded.scenario.engine.to_string(),
        message: app.message.as_ref().map(|(t, k)| (t.as_str(), *k)),
        hints: &hints,
        theme: app.theme,
    }
    .render(area, buf);
}

/// Compare: the current run's heatmap beside the baseline's, each run's shards under them when
/// either run shards a collection, and the headline figures with deltas.
fn compare(w: &Workbench, buf: &mut Buffer, theme: Theme) {
    let l = &w.compare;
    let before = w.baseline_loading.map(|l| l.label());
    let not_yet = "no snapshot yet";
    let before_label = w.baseline_label.as_deref().unwrap_or("previous run");
    // Each side's legend speaks of the design its run replays (the baseline's may differ).
    let now_design = w.run_splits.as_slice();
    let before_design = w.baseline_splits.as_deref().unwrap_or(now_design);
    if let Some([left, right]) = l.heatmaps {
        for (rect, title, view, empty, design) in [
            (left, format!("Heatmap — now: {}", w.run_label), Some(&w.view), not_yet, now_design),
            (
                right,
                format!("Heatmap — before: {before_label}"),
                w.baseline.as_ref(),
                before.as_deref().unwrap_or(not_yet),
                before_design,
            ),
        ] {
            let b = framed(&title, false, theme);
            let inner = b.inner(rect);
            b.render(rect, buf);
            HeatmapPanel {
                view: view.and_then(|v| v.heatmap.as_ref()),
                settings: &w.heat,
                hints: &[],
                empty: heat_empty(view, empty),
                design,
                theme,
            }
            .render(inner, buf);
        }
    }
    if let Some([left, right]) = l.shards {
        for (rect, title, shards, view) in [
            (left, format!("Shards — now: {}", w.run_label), w.run_shards.as_ref(), Some(&w.view)),
            (
                right,
                format!("Shards — before: {before_label}"),
                w.baseline_shards.as_ref(),
                w.baseline.as_ref(),
            ),
        ] {
            let b = framed(&title, false, theme);
            let inner = b.inner(rect);
            b.render(rect, buf);
            // The figures are the worker's, in the snapshot's report, as in the Shards panel.
            let lines = match shards {
                Some(s) => ShardsPanel {
                    sharding: &s.sharding,
                    key: &s.key,
                    live: view.and_then(|v| v.report.as_ref()).and_then(|r| r.shards.as_ref()),
                    focused: false,
                    scroll: 0,
                    theme,
                }
                .compare_lines(usize::from(inner.width)),
                None => vec![Line::styled(UNSHARDED, theme.dim())],
            };
            Paragraph::new(lines).render(inner, buf);
        }
    }
    let figures = l.figures;
    let at = w.progress.map_or_else(String::new, |p| format!(" at {}", super::panels::clock_time(p.now)));
    let title = format!("Figures: now vs before, same seed{at} (as keyheat compare)");
    let block = framed(&title, false, theme);
    let inner = block.inner(figures);
    block.render(figures, buf);
    let Figures { rows, widths } = match figure_lines(&w.view, w.baseline.as_ref(), theme) {
        Ok(figures) => figures,
        Err(note) => {
            Paragraph::new(note).render(inner, buf);
            return;
        }
    };
    // Two columns when they fit side by side; the header above each.
    let width = widths.total();
    let columns: u16 = if inner.width >= 2 * width { 2 } else { 1 };
    let per_column = usize::from(inner.height.saturating_sub(1));
    let capacity = per_column * usize::from(columns);
    let mut shown: Vec<Line<'static>> = rows.iter().take(capacity).cloned().collect();
    if rows.len() > capacity && capacity > 0 {
        shown.pop();
        shown.push(Line::styled(
            format!("+{} more: keyheat compare lists them all", rows.len() - capacity + 1),
            theme.dim(),
        ));
    }
    let FigureWidths { label, before, now, .. } = widths;
    for (c, chunk) in (0u16..).zip(shown.chunks(per_column.max(1))) {
        let rect = Rect { x: inner.x + c * width, width: width.min(inner.width), ..inner };
        let mut lines = vec![Line::styled(
            format!("{:<label$}{:>before$}{:>now$}  {}", "", "before", "now", "change"),
            theme.header(),
        )];
        lines.extend(chunk.iter().cloned());
        Paragraph::new(lines).render(rect, buf);
    }
}

/// Columns of a compare figure's label, values and change: at least these, wider where a label
/// or a value is (a year's calls, 114,598,038, or a million partitions), so that no two run
/// together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FigureWidths {
    /// The label, with at least one column after it.
    label: usize,
    before: usize,
    /// The now column, with at least one column between it and the before value.
    now: usize,
    change: usize,
}

impl FigureWidths {
    /// The narrowest: what the columns took before any value outgrew them.
    const LEAST: FigureWidths = FigureWidths { label: 21, before: 9, now: 10, change: 17 };

    /// Columns one figure takes: label, before, now, two spaces, change.
    fn total(self) -> u16 {
        u16::try_from(self.label + self.before + self.now + 2 + self.change).unwrap_or(u16::MAX)
    }
}

/// The compare figures' lines and the widths they were laid out in.
struct Figures {
    rows: Vec<Line<'static>>,
    widths: FigureWidths,
}

/// The key figures of `keyheat compare`, before and now, with the change: the same rows, the
/// same numbers, the same words (`report::compare`). Only the colour is the workbench's own.
fn figure_lines(
    now: &WorkbenchView,
    before: Option<&WorkbenchView>,
    theme: Theme,
) -> Result<Figures, Line<'static>> {
    let reports: Vec<RunReport> = [before.and_then(|b| b.report.as_deref()), now.report.as_deref()]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let comparison = match Comparison::new(&reports) {
        Ok(comparison) => comparison,
        // One run replayed as rates and the other call by call: their figures do not line up.
        Err(CompareError::Fidelity { baseline, variant, expected, found }) => {
            return Err(Line::styled(
                format!(
                    "no figures: {variant} was replayed as {found}, {baseline} as {expected} (too many calls to replay call by call), and figures of the two do not line up"
                ),
                theme.dim(),
            ));
        }
        Err(_) => {
            return Err(Line::styled(
                "the figures appear once both runs have measured a tick at the same moment",
                theme.dim(),
            ));
        }
    };
    let cells: Vec<[String; 3]> =
        comparison.figures.iter().map(|f| [f.value(0), f.value(1), f.delta(1)]).collect();
    let most = |i: usize| cells.iter().map(|c| c[i].chars().count()).max().unwrap_or(0);
    let least = FigureWidths::LEAST;
    let label = comparison.figures.iter().map(|f| f.label.chars().count() + 1).max().unwrap_or(0);
    let widths = FigureWidths {
        label: least.label.max(label),
        before: least.before.max(most(0)),
        now: least.now.max(most(1) + 1),
        change: least.change.max(most(2)),
    };
    let FigureWidths { label: wl, before: wb, now: wn, .. } = widths;
    let line = |(f, [was, is, change]): (&crate::report::compare::FigureRow, [String; 3])| {
        let style = match (f.deltas[1], better(f.key)) {
            (None, _) => theme.dim(),
            (Some(delta), _) if delta.negligible() => theme.dim(),
            (Some(delta), Some(higher)) if (delta.absolute > 0.0) == higher => theme.ok(),
            (Some(_), Some(_)) => theme.bad(),
            (Some(_), None) => theme.plain(),
        };
        Line::from(vec![
            Span::styled(format!("{:<wl$}", f.label), theme.header()),
            Span::styled(format!("{was:>wb$}"), theme.dim()),
            Span::raw(format!("{is:>wn$}")),
            Span::raw("  "),
            Span::styled(change, style),
        ])
    };
    Ok(Figures { rows: comparison.figures.iter().zip(cells).map(line).collect(), widths })
}

/// Which way a compare figure is better: `Some(true)` higher, `Some(false)` lower, `None` neither
/// (a count of calls is neither good nor bad).
fn better(key: &str) -> Option<bool> {
    match key {
        "goals_passed" => Some(true),
        "calls" | "requests" | "logical_partitions" | "physical_partitions" => None,
        _ => Some(false),
    }
}

//! The workbench's state: the scenario as edited so far, the variant and seed, the planner's
//! verdicts (worked out on a thread of their own: `planning`), the drafts, what the heatmap
//! shows, the replay's pace, and the latest snapshot of the run. Its `update` handles the
//! actions that concern only the workbench; the app handles the rest (overlays, files, quitting).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use ratatui::layout::Rect;

use super::action::{Action, Direction, Panel};
use super::driver::{DriverError, Loading, Pace, Run, SimDriver, Stage};
use super::editor::Editor;
use super::layout::{self, CompareLayout, WorkbenchLayout};
use super::pacing::{DEFAULT_SPEED, Pacer, SPEEDS, Speedometer};
use super::panels::heatmap::{self, HeatSettings, clamp_cursor, next_metric};
use super::panels::lesson::{lesson_lines, wrapped_height};
use super::panels::patterns::{self, PatternsPanel};
use super::panels::shards::ShardsPanel;
use super::practice::Practice;
use super::replay::design_splits;
use super::theme::Theme;
use super::view::{Progress, SizesView, ViewRequest, WorkbenchView};
use crate::engine::metrics::{Layer, Metric, RowOrdering, Shape, detect_shapes};
use crate::engine::model::{Sharding, Variant};
use crate::engine::planner::{self, Plan, WarningCode};
use crate::engine::time::SimTime;
use crate::scenario::Loaded;
use planning::Planning;

mod planning;

/// How long headless runs and tests wait for a plan before drawing without it. Planning takes
/// milliseconds (~200 ms unoptimized); the bound only keeps a lost planner thread from hanging
/// `keyheat snapshot`.
const PLAN_WAIT: Duration = Duration::from_secs(120);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// The schema editor has the keys.
    Edit,
    /// The current run beside the baseline.
    Compare,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Playback {
    Paused,
    Playing,
    /// Flat out until the end of the workload, then paused.
    ToEnd,
}

/// Where the scenario came from: a bundled name or a file (also where `w` suggests writing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Bundled(String),
    File(PathBuf),
}

/// What the step budget asks between chunks: whether the frame's time for stepping is spent.
pub trait Budget {
    fn spent(&mut self) -> bool;
}

impl<F: FnMut() -> bool> Budget for F {
    fn spent(&mut self) -> bool {
        self()
    }
}

/// A workbench action's result for the status line: what happened, or why it did not.
pub type Note = Option<Result<String, Refusal>>;

/// Why a workbench action did not happen, for the status line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// The simulator could not start the run.
    #[error(transparent)]
    Driver(#[from] DriverError),
    /// The workbench's own reason, worded where it arose: an edit that does not check, nothing
    /// left to play, a variant that is not there.
    #[error("{0}")]
    Workbench(String),
}

impl From<String> for Refusal {
    fn from(reason: String) -> Refusal {
        Refusal::Workbench(reason)
    }
}

pub struct Workbench {
    pub loaded: Loaded,
    pub origin: Origin,
    /// The text as last read or written: edits are unsaved while the scenario's text differs.
    pub saved_source: String,
    pub variant: usize,
    pub seed: u64,
    /// The current variant's plan, computed off the thread that draws (see [`Workbench::plan`]).
    planning: Planning,
    pub focus: Panel,
    pub mode: Mode,
    /// Editor drafts by variant index; kept when the editor closes.
    pub drafts: BTreeMap<usize, Editor>,
    /// Each variant's text as the scenario file had it when it opened: what the editor's Revert
    /// goes back to, whatever has been applied since.
    pub pristine: Vec<String>,
    pub lesson: bool,
    pub heat: HeatSettings,
    /// The heatmap's cursor sits on the hottest cell until the user moves it.
    pub cursor_on_hottest: bool,
    pub scroll: BTreeMap<Panel, u16>,
    pub playback: Playback,
    pub speed: usize,
    pacer: Pacer,
    /// Real time the frame loop has reported (`tick`), and the speed achieved over it.
    wall: Duration,
    pub speedometer: Speedometer,
    pub progress: Option<Progress>,
    /// What the current run and the baseline are still preparing (a threaded driver's load).
    pub loading: Option<Loading>,
    pub baseline_loading: Option<Loading>,
    pub view: WorkbenchView,
    pub baseline: Option<WorkbenchView>,
    /// What the current run replays and what the baseline replays, as compare titles them
    /// (`naive`, `naive (edited)`).
    pub run_label: String,
    pub baseline_label: Option<String>,
    /// What the current run and the baseline shard, if anything: where compare shows shards.
    pub run_shards: Option<RunShards>,
    pub baseline_shards: Option<RunShards>,
    /// Per group of the design each run replays (`replay::design_splits`), whether its
    /// partitions split at the size line: what compare's legends say before a snapshot.
    pub run_splits: Vec<bool>,
    pub baseline_splits: Option<Vec<bool>>,
    pub hints: Vec<&'static str>,
    pub layout: WorkbenchLayout,
    /// Where compare draws, laid out with the workbench (the heatmaps' request is sized by it).
    pub compare: CompareLayout,
    /// Whether the recovery file on disk is one the user has not answered yet (so it must not
    /// be overwritten by this session's empty state).
    pub recovery_pending: bool,
    pub theme: Theme,
    /// A practice problem's state: hints shown, the solution, a pending grade, a session.
    pub practice: Option<Practice>,
    /// The lesson pane's line (by its start) to scroll to at the next layout.
    lesson_target: Option<String>,
}

impl Workbench {
    /// A workbench on `loaded` at variant `index`, with the replay started (a driver that cannot
    /// replay returns its reason, which the caller shows).
    pub fn open(
        loaded: Loaded,
        origin: Origin,
        index: usize,
        seed: Option<u64>,
        theme: Theme,
        driver: &mut dyn SimDriver,
    ) -> (Workbench, Note) {
        let seed = seed.unwrap_or(loaded.scenario.workload.seed);
        let heat = HeatSettings { engine: loaded.scenario.engine, ..HeatSettings::default() };
        let mut planning = Planning::new();
        planning.request(&loaded.scenario, index);
        let saved_source = loaded.source().to_owned();
        let pristine = (0..loaded.scenario.variants.len())
            .map(|i| loaded.variant_source(i).map(|v| v.text).unwrap_or_default())
            .collect();
        let mut w = Workbench {
            pristine,
            loaded,
            origin,
            saved_source,
            variant: index,
            seed,
            planning,
            focus: Panel::Heatmap,
            mode: Mode::Normal,
            drafts: BTreeMap::new(),
            lesson: true,
            heat,
            cursor_on_hottest: true,
            scroll: BTreeMap::new(),
            playback: Playback::Paused,
            speed: DEFAULT_SPEED,
            pacer: Pacer::default(),
            wall: Duration::ZERO,
            speedometer: Speedometer::default(),
            progress: None,
            loading: None,
            baseline_loading: None,
            view: WorkbenchView::default(),
            baseline: None,
            run_label: String::new(),
            baseline_label: None,
            run_shards: None,
            baseline_shards: None,
            run_splits: Vec::new(),
            baseline_splits: None,
            hints: Vec::new(),
            layout: WorkbenchLayout::default(),
            compare: CompareLayout::default(),
            recovery_pending: false,
            theme,
            practice: None,
            lesson_target: None,
        };
        w.practice = w.loaded.scenario.practice.as_ref().map(|_| Practice::default());
        let note = w.restart(driver, false).err().map(|e| Err(e.into()));
        (w, note)
    }

    pub fn current(&self) -> &Variant {
        &self.loaded.scenario.variants[self.variant]
    }

    /// The planner's verdicts on the current variant as it is now; `None` while they are being
    /// worked out (never the verdicts on a variant left or edited since).
    pub fn plan(&self) -> Option<&Plan> {
        self.planning.plan()
    }

    /// Plans the current variant again, on a thread: it changed, or another one is current.
    fn replan(&mut self) {
        self.planning.request(&self.loaded.scenario, self.variant);
    }

    /// Tests: the planning itself, to hold its requests and answer them in an order of their
    /// choosing.
    #[cfg(test)]
    pub(crate) fn planning_mut(&mut self) -> &mut Planning {
        &mut self.planning
    }

    /// Waits for the current variant's plan (headless runs and tests; the frame loop never
    /// waits, it shows the plan once it has come); whether it came.
    pub fn wait_for_plan(&mut self) -> bool {
        self.planning.wait(PLAN_WAIT)
    }

    /// Edits not yet written to a file: applied ones, or drafts that differ from the variant.
    pub fn unsaved(&self) -> bool {
        self.loaded.source() != self.saved_source || self.drafts.values().any(|d| d.is_dirty(&self.loaded))
    }

    /// Restarts the replay of the current variant (`edited`: with an edit just applied); the run
    /// that was playing becomes the baseline.
    fn restart(&mut self, driver: &mut dyn SimDriver, edited: bool) -> Result<(), DriverError> {
        self.pacer.forgive();
        self.speedometer.reset();
        self.cursor_on_hottest = true;
        let result = driver.restart(&self.loaded.scenario, self.current(), self.seed);
        self.progress = driver.progress(Run::Current);
        self.loading = driver.loading(Run::Current);
        match result {
            Ok(()) => {
                let label = if edited {
                    format!("{} (edited)", self.current().name)
                } else {
                    self.current().name.clone()
                };
                let previous = std::mem::replace(&mut self.run_label, label);
                // The first run has no run before it: no baseline, nothing it shards.
                let shards = RunShards::of(self.current());
                self.baseline_shards =
                    std::mem::replace(&mut self.run_shards, shards).filter(|_| !previous.is_empty());
                let splits = design_splits(self.loaded.scenario.engine, self.current());
                self.baseline_splits =
                    Some(std::mem::replace(&mut self.run_splits, splits)).filter(|_| !previous.is_empty());
                self.baseline_label = Some(previous).filter(|p| !p.is_empty());
            }
            Err(_) => self.playback = Playback::Paused,
        }
        result
    }

    /// Swaps in a new scenario text (an applied edit or a recovery) and restarts the replay.
    pub fn replace(&mut self, loaded: Loaded, driver: &mut dyn SimDriver) -> Note {
        self.loaded = loaded;
        self.variant = self.variant.min(self.loaded.scenario.variants.len() - 1);
        self.replan();
        let (n, open) =
            (self.loaded.scenario.variants.len(), (self.mode == Mode::Edit).then_some(self.variant));
        self.drafts.retain(|&i, d| i < n && (d.is_dirty(&self.loaded) || Some(i) == open));
        self.restart(driver, true).err().map(|e| Err(e.into()))
    }

    pub fn update(&mut self, action: Action, driver: &mut dyn SimDriver) -> Note {
        let note = match self.mode {
            Mode::Edit => self.update_editor(action, driver),
            Mode::Normal | Mode::Compare => self.update_normal(action, driver),
        };
        // A threaded driver learns a new pace at once (a synchronous one is paced by `tick`).
        driver.pace(self.pace());
        note
    }

    /// How the run should move now.
    fn pace(&self) -> Pace {
        match self.playback {
            Playback::Paused => Pace::Paused,
            Playback::Playing => Pace::At(SPEEDS[self.speed]),
            Playback::ToEnd => Pace::At(SPEEDS[SPEEDS.len() - 1]),
        }
    }

    /// A run exists or is on its way (a threaded driver still loading it).
    fn has_run(&self) -> bool {
        self.progress.is_some() || self.loading.is_some()
    }

    fn update_editor(&mut self, action: Action, driver: &mut dyn SimDriver) -> Note {
        let Some(editor) = self.drafts.get_mut(&self.variant) else {
            self.mode = Mode::Normal;
            return None;
        };
        match action {
            Action::Input(key) => editor.input(key, &self.loaded),
            Action::Edit(op) => return editor.edit(op, &self.loaded).map(Ok),
            Action::JumpToError => editor.jump_to_error(),
            Action::Close if editor.close_popup() => {}
            Action::Close => self.mode = Mode::Normal,
            Action::Apply => return self.apply(driver),
            Action::SaveAsVariant => return self.save_as_variant(driver),
            _ => {}
        }
        None
    }

    /// Applies the current variant's draft: the scenario takes the edited text and the replay
    /// restarts with it (the run that was playing becomes the comparison baseline).
    pub fn apply(&mut self, driver: &mut dyn SimDriver) -> Note {
        let editor = self.drafts.get_mut(&self.variant)?;
        let Some(next) = editor.check(&self.loaded) else {
            let e = editor.error.as_ref().map(ToString::to_string).unwrap_or_default();
            return Some(Err(format!("not applied: {e}").into()));
        };
        // The editor stays open on the applied text, which is no longer a draft.
        let problem = self.replace(next, driver);
        problem.or_else(|| {
            Some(Ok("applied: the replay restarted; c compares with the previous run".to_owned()))
        })
    }

    /// Saves the current draft as a new variant right after the one it was opened from, which
    /// stays as it was (the baseline to compare with); the editor moves to the new variant and
    /// the replay restarts with it.
    pub fn save_as_variant(&mut self, driver: &mut dyn SimDriver) -> Note {
        let editor = self.drafts.get_mut(&self.variant)?;
        let text = editor.text();
        let next = match self.loaded.with_new_variant(self.variant, &text) {
            Ok(next) => next,
            Err(e) => return Some(Err(format!("not saved as a new variant: {e}").into())),
        };
        let from = self.variant;
        // Drafts of the variants after it move down one place.
        let drafts = std::mem::take(&mut self.drafts);
        self.drafts = drafts
            .into_iter()
            .filter(|(i, _)| *i != from)
            .map(|(i, d)| (if i > from { i + 1 } else { i }, d))
            .collect();
        for (i, d) in &mut self.drafts {
            d.variant = *i;
        }
        self.loaded = next;
        self.variant = from + 1;
        self.replan();
        if let Some(editor) = Editor::open(&self.loaded, self.variant, None, self.theme) {
            self.drafts.insert(self.variant, editor);
        }
        let (name, base) = (self.current().name.clone(), self.loaded.scenario.variants[from].name.clone());
        match self.restart(driver, false) {
            Ok(()) => Some(Ok(format!(
                "saved as variant {name} beside {base} (unchanged); w writes both, c compares once {name} has run"
            ))),
            Err(e) => Some(Err(e.into())),
        }
    }

    fn update_normal(&mut self, action: Action, driver: &mut dyn SimDriver) -> Note {
        match action {
            Action::TogglePlay => return self.toggle_play(driver),
            Action::Faster | Action::Slower if self.as_rates() => {
                return Some(Err(self.computed_whole().into()));
            }
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.speed = self.speed.saturating_sub(1),
            Action::StepTick => {
                if self.progress.is_some_and(|p| p.finished()) || !self.has_run() || self.as_rates() {
                    return Some(Err(self.cannot_advance().into()));
                }
                self.playback = Playback::Paused;
                if driver.pace(Pace::OneTick) {
                    return None;
                }
                // One whole tick, however many short driver calls it takes.
                while driver.step(1) == 0 {
                    if driver.progress(Run::Current).is_none_or(|p| p.finished()) {
                        return Some(Err(self.cannot_advance().into()));
                    }
                }
                self.progress = driver.progress(Run::Current);
            }
            Action::Restart => return self.restart(driver, false).err().map(|e| Err(e.into())),
            Action::JumpToEnd => {
                if !self.has_run() || self.progress.is_some_and(|p| p.finished()) || self.as_rates() {
                    return Some(Err(self.cannot_advance().into()));
                }
                self.playback = Playback::ToEnd;
            }
            Action::FocusNext | Action::FocusPrev => {
                let sharded = self.current().sharding.is_some();
                self.focus = cycle(self.focus, action == Action::FocusNext, self.lesson, sharded);
            }
            Action::FocusPanel(panel) => self.focus = panel,
            Action::EditSchema => return self.edit(),
            Action::NextVariant => return self.next_variant(driver),
            Action::Compare => return self.toggle_compare(driver),
            Action::Close if self.mode == Mode::Compare => self.mode = Mode::Normal,
            Action::CycleMetric => {
                let mut metric = next_metric(self.heat.metric, self.heat.engine);
                // Items are counted per key, not per physical partition: `m` skips them there.
                if self.heat.layer == Layer::Physical && metric == Metric::Items {
                    metric = next_metric(metric, self.heat.engine);
                }
                self.heat.metric = metric;
            }
            Action::ToggleScale => self.heat.relative = !self.heat.relative,
            Action::ToggleLayer => {
                self.heat.layer = match self.heat.layer {
                    Layer::Logical => Layer::Physical,
                    Layer::Physical => Layer::Logical,
                };
                if self.heat.layer == Layer::Physical && self.heat.metric == Metric::Items {
                    self.heat.metric = Metric::Bytes;
                }
            }
            Action::ToggleOrder => {
                self.heat.order = match self.heat.order {
                    RowOrdering::ByKey => RowOrdering::ByHeat,
                    RowOrdering::ByHeat => RowOrdering::ByKey,
                }
            }
            Action::ToggleLesson => {
                self.lesson = !self.lesson;
                if !self.lesson && self.focus == Panel::Lesson {
                    self.focus = Panel::Heatmap;
                }
            }
            Action::RevealHint => return Some(self.reveal_hint().map_err(Refusal::from)),
            Action::Move(d) => self.move_in(self.focus, d),
            Action::Scroll(panel, lines) => {
                let d = if lines < 0 { Direction::Up } else { Direction::Down };
                for _ in 0..lines.unsigned_abs() {
                    self.move_in(panel, d);
                }
            }
            _ => {}
        }
        None
    }

    fn reveal_hint(&mut self) -> Result<String, String> {
        let Some(practice) = self.practice.as_mut() else {
            return Err("hints belong to practice problems: this scenario is not one".to_owned());
        };
        let total = self.loaded.scenario.practice.as_ref().map_or(0, |p| p.hints.len());
        match practice.next_hint(&self.loaded.scenario) {
            Some(n) => {
                self.lesson = true;
                self.scroll_lesson_to(&format!("Hint {n}:"));
                Ok(format!("hint {n} of {total} is in the lesson pane"))
            }
            None => Ok(format!("all {total} hints are shown")),
        }
    }

    /// Scrolls the lesson pane, at the next layout, so the line starting with `prefix` is its
    /// first: a hint just revealed, or the solution once shown, is in sight however short the pane.
    pub fn scroll_lesson_to(&mut self, prefix: &str) {
        self.lesson_target = Some(prefix.to_owned());
    }

    /// Whether variant `index` is a practice problem's solution still out of sight.
    pub fn hidden(&self, index: usize) -> bool {
        let solution = self.loaded.scenario.practice.as_ref().map(|p| p.solution.as_str());
        let shown = self.practice.as_ref().is_some_and(|p| p.solution_shown);
        !shown && self.loaded.scenario.variants.get(index).is_some_and(|v| Some(v.name.as_str()) == solution)
    }

    /// The variants a user can see (`v` cycles through them; the Schema panel counts them): the
    /// current one's 1-based position among them and how many there are.
    pub fn visible_position(&self) -> (usize, usize) {
        let visible: Vec<usize> = (0..self.loaded.scenario.variants.len())
            .filter(|&i| i == self.variant || !self.hidden(i))
            .collect();
        let at = visible.iter().position(|&i| i == self.variant).unwrap_or(0);
        (at + 1, visible.len())
    }

    /// The current run is replayed as rates, or being replayed so (computed whole: nothing to
    /// play, step, speed up or jump).
    fn as_rates(&self) -> bool {
        self.view.rates.is_some() || self.loading.is_some_and(|l| l.stage == Stage::Rates)
    }

    /// Why play, step, speed and jump do nothing to a run replayed as rates.
    fn computed_whole(&self) -> String {
        let how = self.view.rates.map_or_else(
            || "replaying as rates (too many calls to replay call by call)".to_owned(),
            crate::tui::view::AsRates::label,
        );
        format!("{how}: the run is computed whole, so play, step, speed and jump do not apply")
    }

    fn cannot_advance(&self) -> String {
        if self.as_rates() {
            return self.computed_whole();
        }
        match self.progress {
            Some(p) if p.finished() => "the replay is at its end: r restarts it".to_owned(),
            _ => "no replay to advance".to_owned(),
        }
    }

    fn toggle_play(&mut self, driver: &mut dyn SimDriver) -> Note {
        self.playback = match self.playback {
            Playback::Playing | Playback::ToEnd => Playback::Paused,
            Playback::Paused => {
                self.progress = driver.progress(Run::Current);
                self.loading = driver.loading(Run::Current);
                if self.as_rates() {
                    return Some(Err(self.cannot_advance().into()));
                }
                match self.progress {
                    // Still loading: it plays once loaded.
                    None if self.loading.is_some() => Playback::Playing,
                    None => return Some(Err(self.cannot_advance().into())),
                    Some(p) if p.finished() => return Some(Err(self.cannot_advance().into())),
                    Some(_) => Playback::Playing,
                }
            }
        };
        self.pacer.forgive();
        None
    }

    /// An editor on variant `index` holding `draft` (or the variant's text), whose Revert goes
    /// back to the variant as the file had it.
    pub fn open_editor(&self, index: usize, draft: Option<&str>) -> Option<Editor> {
        let mut editor = Editor::open(&self.loaded, index, draft, self.theme)?;
        if let Some(text) = self.pristine.get(index).filter(|t| !t.is_empty()) {
            editor.set_original(text.clone());
        }
        Some(editor)
    }

    fn edit(&mut self) -> Note {
        if !self.drafts.contains_key(&self.variant) {
            match self.open_editor(self.variant, None) {
                Some(editor) => {
                    self.drafts.insert(self.variant, editor);
                }
                None => {
                    return Some(Err("this variant's text could not be found in the file".to_owned().into()));
                }
            }
        }
        self.mode = Mode::Edit;
        None
    }

    /// Replays variant `index` (the run that was playing becomes the baseline), as `v` does.
    pub fn switch_variant(&mut self, index: usize, driver: &mut dyn SimDriver) -> Result<(), Refusal> {
        if index >= self.loaded.scenario.variants.len() {
            return Err(format!("the scenario has no variant {index}").into());
        }
        self.variant = index;
        self.replan();
        self.cursor_on_hottest = true;
        Ok(self.restart(driver, false)?)
    }

    /// The next variant, skipping a practice problem's solution until it is shown.
    fn next_variant(&mut self, driver: &mut dyn SimDriver) -> Note {
        let n = self.loaded.scenario.variants.len();
        let next = (1..=n).map(|k| (self.variant + k) % n).find(|&i| !self.hidden(i))?;
        if next == self.variant {
            return Some(Ok("the scenario has only this variant".to_owned()));
        }
        self.variant = next;
        self.replan();
        self.heat.cursor = (0, 0);
        match self.restart(driver, false) {
            Ok(()) => Some(Ok(format!("variant {}", self.current().name))),
            Err(e) => Some(Err(e.into())),
        }
    }

    fn toggle_compare(&mut self, driver: &mut dyn SimDriver) -> Note {
        if self.mode == Mode::Compare {
            self.mode = Mode::Normal;
        } else if driver.progress(Run::Baseline).is_some() || driver.loading(Run::Baseline).is_some() {
            self.mode = Mode::Compare;
        } else {
            return Some(Err(
                "nothing to compare with yet: v switches variant, e and Ctrl-S apply an edit, r restarts — the run before becomes the baseline"
                    .to_owned()
                    .into(),
            ));
        }
        None
    }

    fn move_in(&mut self, panel: Panel, d: Direction) {
        if panel == Panel::Heatmap {
            let (rows, cols) =
                self.view.heatmap.as_ref().map_or((0, 0), |h| (h.matrix.rows.len(), h.matrix.cols()));
            let (r, c) = self.heat.cursor;
            let page = 10;
            let moved = match d {
                Direction::Up => (r.saturating_sub(1), c),
                Direction::Down => (r + 1, c),
                Direction::Left => (r, c.saturating_sub(1)),
                Direction::Right => (r, c + 1),
                Direction::PageUp => (r.saturating_sub(page), c),
                Direction::PageDown => (r + page, c),
                Direction::Home => (r, 0),
                Direction::End => (r, cols),
            };
            self.heat.cursor = clamp_cursor(moved, rows, cols);
            self.cursor_on_hottest = false;
            return;
        }
        let scroll = self.scroll.entry(panel).or_insert(0);
        *scroll = match d {
            Direction::Up | Direction::Left => scroll.saturating_sub(1),
            Direction::Down | Direction::Right => scroll.saturating_add(1).min(500),
            Direction::PageUp => scroll.saturating_sub(10),
            Direction::PageDown => scroll.saturating_add(10).min(500),
            Direction::Home => 0,
            Direction::End => *scroll,
        };
    }

    /// Advances the replay for `elapsed` real time at the chosen speed, in chunks, until the
    /// budget is spent. Chunks grow while there is time so a fast simulator is not called per tick.
    pub fn tick(&mut self, elapsed: Duration, budget: &mut dyn Budget, driver: &mut dyn SimDriver) -> Note {
        self.wall += elapsed;
        // The draft is planned once typing pauses (a frame with no key in it comes here).
        if self.mode == Mode::Edit
            && let Some(editor) = self.drafts.get_mut(&self.variant)
        {
            editor.plan_due(std::time::Instant::now());
        }
        if driver.pace(self.pace()) {
            // The driver moves the run by itself: only look where it is.
            self.progress = driver.progress(Run::Current);
            self.loading = driver.loading(Run::Current);
            return self.after_moving();
        }
        if self.playback == Playback::Paused {
            self.speedometer.reset();
            return None;
        }
        let Some(progress) = driver.progress(Run::Current) else {
            self.playback = Playback::Paused;
            return None;
        };
        let speed =
            if self.playback == Playback::ToEnd { SPEEDS[SPEEDS.len() - 1] } else { SPEEDS[self.speed] };
        let mut owed = self.pacer.owed(elapsed, speed, progress.tick);
        let mut chunk: u32 = 1;
        while owed > 0 && !budget.spent() {
            let ask = chunk.min(u32::try_from(owed).unwrap_or(u32::MAX));
            let done = driver.step(ask);
            owed -= u64::from(done);
            // Fewer than asked (even none: the call stopped inside a busy tick) is a driver keeping
            // its call short, so the chunk only grows while calls come back complete; none at the
            // end of the workload is the end.
            if done == 0 && driver.progress(Run::Current).is_none_or(|p| p.finished()) {
                break;
            }
            if done == ask {
                chunk = chunk.saturating_mul(2).min(4096);
            }
        }
        if owed > 0 {
            self.pacer.forgive();
        }
        self.progress = driver.progress(Run::Current);
        self.after_moving()
    }

    /// After a frame's stepping: the speed achieved, and a pause at the end of the workload.
    fn after_moving(&mut self) -> Note {
        match (self.playback, self.progress) {
            (Playback::Paused, _) | (_, None) => self.speedometer.reset(),
            (_, Some(p)) => self.speedometer.sample(self.wall, p.now),
        }
        if self.playback != Playback::Paused && self.progress.is_some_and(|p| p.finished()) {
            self.playback = Playback::Paused;
            return Some(Ok("the replay reached the end of the workload".to_owned()));
        }
        None
    }

    /// Replays, paused, until the simulated clock reaches `at` or the workload ends, however long
    /// that takes (headless: `keyheat snapshot`), and waits for the plan; `progress` gets the
    /// fraction of the way done.
    pub fn run_to(&mut self, at: SimTime, driver: &mut dyn SimDriver, progress: &mut dyn FnMut(f64)) {
        self.playback = Playback::Paused;
        while let Some(p) = driver.progress(Run::Current) {
            self.progress = Some(p);
            let total = at.since(p.start).as_millis().max(1) as f64;
            progress((p.now.since(p.start).as_millis() as f64 / total).min(1.0));
            // Exactly the ticks up to `at`: the clock stops at the first tick start at or past it.
            let left = at.since(p.now).as_millis().div_ceil(p.tick.as_millis().max(1));
            let ask = u32::try_from(left.min(4096)).unwrap_or(4096);
            if p.now >= at || (driver.step(ask) == 0 && p.finished()) {
                break;
            }
        }
        // The baseline, if any, to the same moment (a driver call may stop before it is there).
        while let (Some(b), Some(c)) = (driver.progress(Run::Baseline), driver.progress(Run::Current)) {
            if b.finished() || b.now >= c.now {
                break;
            }
            driver.step(0);
        }
        self.progress = driver.progress(Run::Current);
        self.wait_for_plan();
    }

    /// Lays the workbench out in `area` and takes this frame's snapshot from the driver.
    pub fn refresh(&mut self, area: Rect, driver: &dyn SimDriver) {
        self.planning.poll();
        let theme = self.theme;
        let lesson = self.lesson.then(|| {
            let width = area.width.saturating_sub(2);
            wrapped_height(&lesson_lines(&self.loaded.scenario, self.practice.as_ref()), width)
        });
        let sharded = self.current().sharding.is_some();
        // A variant that shards nothing has no Shards panel to keep the focus on.
        if self.focus == Panel::Shards && !sharded {
            self.focus = Panel::Indexes;
        }
        self.layout = layout::workbench(area, lesson, self.mode == Mode::Edit, sharded, self.focus);
        if let Some(prefix) = self.lesson_target.take()
            && let Some(pane) = self.layout.rect(Panel::Lesson)
        {
            let lines = lesson_lines(&self.loaded.scenario, self.practice.as_ref());
            if let Some(at) = lines.iter().position(|l| l.starts_with(&prefix)) {
                let above = wrapped_height(&lines[..at], pane.width.saturating_sub(2));
                self.scroll.insert(Panel::Lesson, if at == 0 { 0 } else { above });
            }
        }
        let lesson_rows = self.layout.rect(Panel::Lesson).map_or(0, |r| r.height);
        let view = Rect { height: area.height.saturating_sub(1 + lesson_rows), ..area };
        self.compare = layout::compare(view, self.compare_shard_lines());
        let heat_area = match self.mode {
            Mode::Compare => self.compare.heatmaps.map(|[now, _]| now).unwrap_or_default(),
            _ => self.layout.rect(Panel::Heatmap).unwrap_or_default(),
        };
        let sizes = self.layout.rect(Panel::Sizes).unwrap_or_default();
        let (rows, cols) = heatmap::grid_size(inner(heat_area), theme.half_blocks());
        let request = ViewRequest {
            metric: self.heat.metric,
            layer: self.heat.layer,
            order: self.heat.order,
            rows,
            cols,
            size_points: usize::from(inner(sizes).width) * 2,
            size_series: 3,
        };
        self.progress = driver.progress(Run::Current);
        self.loading = driver.loading(Run::Current);
        self.baseline_loading = driver.loading(Run::Baseline);
        self.view = driver.snapshot(&request, Run::Current).unwrap_or_else(|| self.empty_view());
        self.baseline =
            (self.mode == Mode::Compare).then(|| driver.snapshot(&request, Run::Baseline)).flatten();
        if self.sizes_limit_missing() {
            self.view.sizes.limit_bytes = self.partition_limit();
        }
        self.clamp_scroll();
        // Until the plan comes no key is known to grow without bound, so no band is named so.
        let unbounded =
            self.plan().is_some_and(|p| p.warnings.iter().any(|w| w.code == WarningCode::UnboundedPartition));
        self.hints = self
            .view
            .heatmap
            .as_ref()
            // A widening band is named against the metric's limit per partition (bytes).
            .map(|h| {
                #[allow(clippy::cast_possible_truncation, reason = "a limit compared with f32 cells")]
                detect_shapes(&h.matrix, self.heat.for_view(Some(h)).limit().map(|l| l as f32))
            })
            .unwrap_or_default()
            .iter()
            // A physical partition is a hash range, not a key: it grows until it splits whatever
            // the key design, and it carries most of an index's load when it is the index's only
            // partition. Bands name keys, so they are a logical partition's. A widening band also
            // needs the planner to find a key that grows without bound: with time buckets (or
            // TTL) a partition grows only until its bucket closes — the open bucket of a 10-day
            // key looks, ten days in, just like the unbounded key it replaced.
            .filter(|s| match s {
                Shape::Diagonal { .. } => true,
                Shape::HotBand { .. } => self.heat.layer == Layer::Logical,
                Shape::WideningBand { .. } => self.heat.layer == Layer::Logical && unbounded,
            })
            .map(Shape::hint)
            .collect();
        if let Some(h) = &self.view.heatmap {
            if self.cursor_on_hottest
                && let Some(at) = heatmap::hottest_cell(&h.matrix)
            {
                self.heat.cursor = at;
            }
            self.heat.cursor = clamp_cursor(self.heat.cursor, h.matrix.rows.len(), h.matrix.cols());
        }
    }

    /// Keeps the lesson's and the patterns' scroll within what the current layout can show, so
    /// neither scrolls past its end and a terminal grown after scrolling shows the whole list
    /// again instead of one row and "6 above ↑".
    fn clamp_scroll(&mut self) {
        if let Some(pane) = self.layout.rect(Panel::Lesson) {
            let lines = lesson_lines(&self.loaded.scenario, self.practice.as_ref());
            let last = wrapped_height(&lines, inner(pane).width).saturating_sub(inner(pane).height);
            self.scroll.entry(Panel::Lesson).and_modify(|s| *s = (*s).min(last));
        }
        // While planning the panel shows one line: the scroll is kept for the plan to come.
        if let Some(rect) = self.layout.rect(Panel::Patterns)
            && let Some(plan) = self.plan()
        {
            let targets = patterns::targets(plan, &self.loaded.scenario);
            let panel = PatternsPanel {
                plan: Some(plan),
                targets: &targets,
                live: &self.view.patterns,
                focused: false,
                scroll: 0,
                theme: self.theme,
            };
            let last = panel.last_scroll(rect);
            self.scroll.entry(Panel::Patterns).and_modify(|s| *s = (*s).min(last));
        }
    }

    /// The lines the taller side of compare's shards takes when either run shards a collection
    /// (a side that does not says so in one line). Known from the variants, before the snapshot
    /// the heatmaps are requested for.
    fn compare_shard_lines(&self) -> Option<u16> {
        let sides = [self.run_shards.as_ref(), self.baseline_shards.as_ref()];
        if sides.iter().all(Option::is_none) {
            return None;
        }
        sides.iter().map(|s| s.map_or(1, |s| ShardsPanel::compare_height(&s.sharding))).max()
    }

    fn sizes_limit_missing(&self) -> bool {
        self.view.sizes.limit_bytes <= 0.0
    }

    /// The partition size the engine profile warns at.
    pub fn partition_limit(&self) -> f64 {
        planner::partition_limits(self.loaded.scenario.engine).0
    }

    fn empty_view(&self) -> WorkbenchView {
        WorkbenchView {
            sizes: SizesView { limit_bytes: self.partition_limit(), series: Vec::new(), note: None },
            ..WorkbenchView::default()
        }
    }

    /// Draws from now on in `theme`, the open editors too.
    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
        for editor in self.drafts.values_mut() {
            editor.set_theme(theme);
        }
    }

    pub fn scroll_of(&self, panel: Panel) -> u16 {
        self.scroll.get(&panel).copied().unwrap_or(0)
    }
}

/// The area inside a panel's border.
pub fn inner(area: Rect) -> Rect {
    Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(1),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

/// What a run shards: the collection's sharding and its shard key (the `pk` template's text),
/// kept with the run so the compare view knows the baseline's once the variant has changed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunShards {
    pub sharding: Sharding,
    pub key: String,
}

impl RunShards {
    fn of(variant: &Variant) -> Option<RunShards> {
        let sharding = variant.sharding.clone()?;
        let key = variant.keys.iter().find(|k| k.entity_id() == sharding.entity_id);
        Some(RunShards { key: key.map_or_else(String::new, |k| k.pk.source().to_owned()), sharding })
    }
}

fn cycle(focus: Panel, forward: bool, lesson: bool, sharded: bool) -> Panel {
    let shown = |p: Panel| match p {
        Panel::Lesson => lesson,
        Panel::Shards => sharded,
        _ => true,
    };
    let all: Vec<Panel> = Panel::CYCLE.into_iter().filter(|&p| shown(p)).collect();
    let at = all.iter().position(|&p| p == focus).unwrap_or(0);
    let n = all.len();
    all[if forward { (at + 1) % n } else { (at + n - 1) % n }]
}

//! UI tests without a terminal: a fake simulator behind the driver seam, a hand-built snapshot,
//! key and mouse events fed to `App`, and whole screens drawn into `TestBackend` and compared with
//! insta snapshots.

mod keys;
mod practice;
mod quiz;
mod real;
mod screens;
mod worker;

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::app::{App, Config, Screen};
use super::driver::{DriverError, Run, SimDriver};
use super::replay::SimReplay;
use super::theme::Theme;
use super::ui;
use super::view::{
    Cost, GoalRow, GoalState, HeatmapView, IndexRow, PatternRow, Progress, RowFacts, SizeSeries, SizesView,
    ViewRequest, WorkbenchView,
};
use super::workbench::Workbench;
use crate::engine::metrics::{GroupId, HeatmapMatrix, PartitionId, SortKey, SourceRow};
use crate::engine::model::{Scenario, Variant};
use crate::engine::time::{SimDuration, SimTime};
use crate::engine::value::KeyValue;

/// What a fake run knows: where it is and which variant (with its first entity's table key).
#[derive(Debug, Clone)]
struct FakeRun {
    variant: String,
    table_key: String,
    progress: Progress,
}

/// A simulator stand-in: time moves by the ticks asked for, snapshots are a fixed picture sized
/// to the request, and every call is recorded.
#[derive(Debug, Default)]
pub struct FakeDriver {
    current: Option<FakeRun>,
    baseline: Option<FakeRun>,
    /// Ticks stepped in total and calls to `step`.
    pub stepped: u64,
    pub step_calls: u32,
    /// (variant, table key of the first entity, seed) per restart.
    pub restarts: Vec<(String, String, u64)>,
    /// Ticks in the workload.
    pub ticks: u64,
}

impl FakeDriver {
    pub fn new(ticks: u64) -> FakeDriver {
        FakeDriver { ticks, ..FakeDriver::default() }
    }
}

impl SimDriver for FakeDriver {
    fn restart(&mut self, scenario: &Scenario, variant: &Variant, seed: u64) -> Result<(), DriverError> {
        let start = scenario.workload.start;
        let tick = SimDuration::from_secs(60);
        let end = start + SimDuration::from_secs(60 * self.ticks);
        let table_key = variant.keys.first().map(|k| k.pk.source().to_owned()).unwrap_or_default();
        self.restarts.push((variant.name.clone(), table_key.clone(), seed));
        self.baseline = self.current.take();
        self.current = Some(FakeRun {
            variant: variant.name.clone(),
            table_key,
            progress: Progress { start, now: start, end, tick },
        });
        Ok(())
    }

    fn step(&mut self, ticks: u32) -> u32 {
        self.step_calls += 1;
        let Some(run) = &mut self.current else { return 0 };
        let p = &mut run.progress;
        let left = p.end.since(p.now).as_millis() / p.tick.as_millis();
        let done = u64::from(ticks).min(left);
        p.now += SimDuration::from_millis(done * p.tick.as_millis());
        self.stepped += done;
        u32::try_from(done).expect("done <= ticks, a u32")
    }

    fn progress(&self, run: Run) -> Option<Progress> {
        match run {
            Run::Current => self.current.as_ref().map(|r| r.progress),
            Run::Baseline => self.baseline.as_ref().map(|r| r.progress),
        }
    }

    fn snapshot(&self, request: &ViewRequest, run: Run) -> Option<WorkbenchView> {
        let r = match run {
            Run::Current => self.current.as_ref()?,
            Run::Baseline => self.baseline.as_ref()?,
        };
        // The baseline is drawn hotter, so compare shows a difference.
        let heat = if run == Run::Baseline { 1.6 } else { 1.0 };
        Some(view(request, r.progress.start, heat, &r.variant))
    }

    fn console(&mut self, request: &str) -> Result<String, DriverError> {
        match &self.current {
            Some(run) => Ok(format!("{{\"Count\":0,\"echo\":{request:?},\"key\":{:?}}}", run.table_key)),
            None => Err(DriverError::NoReplay),
        }
    }
}

/// A hand-built snapshot: 48 sensor partitions over the requested columns, with a diagonal (a
/// moving hot key), one hot band near the limit, sizes growing toward the limit, an index, goals
/// (one failing) and pattern figures.
pub fn view(request: &ViewRequest, start: SimTime, heat: f32, variant: &str) -> WorkbenchView {
    let n = 48usize;
    let cols = request.cols.clamp(1, 400);
    let labels: Vec<String> = (0..n).map(|i| format!("sensor-{i:05}")).collect();
    let keys: Vec<SortKey> = labels.iter().map(|l| SortKey::Key(KeyValue::S(l.clone()))).collect();
    let cell = |row: usize, col: usize| -> f32 {
        let diagonal = if row == col * n / cols { 900.0 } else { 0.0 };
        let band = if row == 7 { 400.0 } else { 0.0 };
        #[allow(clippy::cast_precision_loss)]
        let base = 2.0 + ((row * 7 + col * 3) % 11) as f32;
        (base + diagonal + band) * heat
    };
    let sources: Vec<SourceRow<'_>> = (0..n)
        .map(|i| SourceRow {
            id: PartitionId(u32::try_from(i).expect("48 rows")),
            group: GroupId(0),
            label: &labels[i],
            key: &keys[i],
            heat: (0..cols).map(|c| cell(i, c)).fold(0.0, f32::max),
        })
        .collect();
    let col_times: Vec<(SimTime, SimTime)> = (0..cols as u64)
        .map(|c| (start + SimDuration::from_secs(c * 3600), start + SimDuration::from_secs((c + 1) * 3600)))
        .collect();
    let matrix = HeatmapMatrix::build(
        request.metric,
        request.order,
        col_times,
        &sources,
        request.rows.max(1),
        |i, out| {
            for (c, v) in out.iter_mut().enumerate() {
                *v = cell(i, c);
            }
        },
    )
    .ok();
    let heatmap = matrix.map(|matrix| heatmap_view(matrix, &labels, start));
    let series = (0..3)
        .map(|s| SizeSeries {
            label: format!("sensor-{:05}", s * 7),
            points: (0..20)
                .map(|t| (f64::from(t) * 3600.0, f64::from(t) * 2.0e6 / f64::from(s + 1)))
                .collect(),
            splits: false,
            bucket_secs: None,
        })
        .collect();
    WorkbenchView {
        heatmap,
        sizes: SizesView { limit_bytes: 100.0 * 1024.0 * 1024.0, series, note: None },
        indexes: vec![IndexRow {
            name: "pending".to_owned(),
            wcu_vs_table: 0.02,
            writes: 400,
            storage_vs_base: 0.004,
            max_lag_s: 0.8,
            throttled: 0,
            hottest_key: Some("PENDING".to_owned()),
        }],
        goals: vec![
            GoalRow {
                name: "the warehouse never scans".to_owned(),
                state: if variant == "naive" { GoalState::Missed } else { GoalState::Met },
                value: "0 scans".to_owned(),
            },
            GoalRow {
                name: "≤ 0.1% of requests throttled".to_owned(),
                state: GoalState::Missed,
                value: "0.4%".to_owned(),
            },
        ],
        patterns: vec![PatternRow {
            name: "get-customer".to_owned(),
            calls: 12_345,
            cost: Some(Cost::Units(0.5)),
            p99: crate::tui::view::P99::Ms(6.2),
        }],
        report: None,
        rates: None,
    }
}

/// The snapshot's heatmap over `matrix`: every row's facts made up from its members, one group.
fn heatmap_view(matrix: HeatmapMatrix, labels: &[String], start: SimTime) -> HeatmapView {
    let facts = matrix
        .rows
        .iter()
        .map(|r| {
            let members = r.members.len() as u64;
            let throttled_by_col: Vec<u64> = (0..matrix.cols() as u64).map(|c| c % 3 * members).collect();
            RowFacts {
                items: Some(1200 * members),
                bytes: 86_000,
                throttled: throttled_by_col.iter().sum(),
                throttled_by_col,
            }
        })
        .collect();
    let first_keys = matrix.rows.iter().map(|r| labels[r.members[0].0 as usize].clone()).collect();
    let (groups, splits) = (vec!["Reading".to_owned()], vec![true]);
    HeatmapView { matrix, facts, groups, splits, start, first_keys, partition_ru_per_s: None, expected: None }
}

/// A directory for one test's files, empty.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("keyheat-tui-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp dir is writable");
    dir
}

/// An app with the fake driver, colour on or off, recovery files in `state`.
pub fn app(color: bool, state: Option<PathBuf>) -> App {
    App::new(
        Config { theme: Theme { palette: crate::tui::theme::Palette::Dark, color }, state_dir: state },
        Box::new(FakeDriver::new(600)),
    )
}

/// An app with the real driver (the simulator), every snapshot built fresh.
pub fn real_app() -> App {
    App::new(Config { theme: Theme::DARK, state_dir: None }, Box::new(SimReplay::exact()))
}

pub fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

pub fn press(app: &mut App, keys: &[KeyEvent]) {
    for &k in keys {
        app.key(k);
    }
}

pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        app.key(key(KeyCode::Char(c)));
    }
}

pub fn workbench(app: &App) -> &Workbench {
    match &app.screen {
        Screen::Workbench(w) => w,
        Screen::Picker(_) | Screen::Quiz(_) => panic!("the workbench is not up"),
    }
}

/// The screen at `w` × `h` as text, through ratatui's test backend, once the workbench's plan
/// has come (it is worked out on a thread: see [`draw_now`] for the screen before it comes).
pub fn draw(app: &mut App, w: u16, h: u16) -> String {
    app.wait_for_plan();
    draw_now(app, w, h)
}

/// The screen at `w` × `h` as it is now, the plan come or not.
pub fn draw_now(app: &mut App, w: u16, h: u16) -> String {
    app.refresh(ratatui::layout::Rect::new(0, 0, w, h));
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("the test backend never fails");
    terminal
        .draw(|frame| ui::render(app, frame.area(), frame.buffer_mut()))
        .expect("the test backend never fails");
    terminal.backend().to_string()
}

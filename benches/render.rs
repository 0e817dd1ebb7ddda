//! One full workbench frame at 200×60 with 100,000 partitions behind the heatmap.
//!
//! The heatmap matrix is built with `HeatmapMatrix::build` from 100,000 synthetic partitions (a
//! diagonal of hot keys over a noisy floor, one hot band) into the rows the panel has, as the
//! simulator will build it each frame. Timed separately: that build; the frame itself (snapshot,
//! shape hints, layout, every panel drawn into a `Buffer`); and, as the baseline measured in the
//! same run, the same frame with no replay behind it. Target: the frame ≤ 5 ms.
//! The matrix is built once and reused: per frame the UI clones the snapshot, detects shapes,
//! lays out and draws.
//!
//! Then the frame loop of `keyheat tui` without the terminal, replaying for real: `sensors`
//! (naive) at full speed for 300 frames with the real driver, each frame as the loop does it
//! (snapshot and draw, the input window, stepping within the budget). Reported: the frame period
//! (frames/s), the work in a frame, and the longest a key can wait to see its answer drawn.
//! Target: at least 20 frames/s and keys answered within 50 ms.
//!
//! Run: `cargo bench --bench render`.

use std::cell::{Cell, RefCell};
use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use keyheat::engine::hash::combine;
use keyheat::engine::metrics::{GroupId, HeatmapMatrix, PartitionId, SortKey, SourceRow};
use keyheat::engine::model::{Scenario, Variant};
use keyheat::engine::time::{SimDuration, SimTime};
use keyheat::engine::value::KeyValue;
use keyheat::tui::app::{App, Config};
use keyheat::tui::driver::{NoReplay, Run, SimDriver};
use keyheat::tui::replay::SimReplay;
use keyheat::tui::theme::Theme;
use keyheat::tui::ui::render_workbench;
use keyheat::tui::view::{
    HeatmapView, Progress, RowFacts, SizeSeries, SizesView, ViewRequest, WorkbenchView,
};
use keyheat::tui::{INPUT_WINDOW, STEP_BUDGET};

const PARTITIONS: usize = 100_000;
const COLS: u16 = 200;
const ROWS: u16 = 60;
const FRAMES: usize = 200;

/// Partition `i`'s load in column `c` of `cols` (WCU/s).
fn cell(i: usize, c: usize, cols: usize) -> f32 {
    let noise = (combine(&[i as u64, c as u64]) % 1000) as f32 / 10.0;
    let diagonal = if i == c * PARTITIONS / cols.max(1) { 900.0 } else { 0.0 };
    let band = if i == 4242 { 600.0 } else { 0.0 };
    noise + diagonal + band
}

struct Partitions {
    labels: Vec<String>,
    keys: Vec<SortKey>,
}

impl Partitions {
    fn new() -> Partitions {
        let labels: Vec<String> = (0..PARTITIONS).map(|i| format!("sensor-{i:06}")).collect();
        let keys = labels.iter().map(|l| SortKey::Key(KeyValue::S(l.clone()))).collect();
        Partitions { labels, keys }
    }

    /// The matrix for `request`; the time `HeatmapMatrix::build` takes (cells precomputed, as a
    /// registry holds them) goes to `took`.
    fn matrix(&self, request: &ViewRequest, start: SimTime, took: &Cell<Duration>) -> HeatmapMatrix {
        let cols = request.cols;
        let cells: Vec<f32> =
            (0..PARTITIONS).flat_map(|i| (0..cols).map(move |c| cell(i, c, cols))).collect();
        let sources: Vec<SourceRow<'_>> = (0..PARTITIONS)
            .map(|i| SourceRow {
                id: PartitionId(u32::try_from(i).expect("100,000 partitions fit a u32")),
                group: GroupId(0),
                label: &self.labels[i],
                key: &self.keys[i],
                heat: cells[i * cols..(i + 1) * cols].iter().copied().fold(0.0, f32::max),
            })
            .collect();
        let col_times = (0..cols as u64)
            .map(|c| (start + SimDuration::from_secs(c * 600), start + SimDuration::from_secs((c + 1) * 600)))
            .collect();
        let t = Instant::now();
        let matrix = HeatmapMatrix::build(
            request.metric,
            request.order,
            col_times,
            &sources,
            request.rows,
            |i, out| {
                out.copy_from_slice(&cells[i * cols..(i + 1) * cols]);
            },
        )
        .expect("one group fits any row budget");
        took.set(t.elapsed());
        matrix
    }
}

/// A driver whose snapshot is a prebuilt view (the build is timed on its own).
struct Prebuilt {
    partitions: Partitions,
    progress: Option<Progress>,
    view: RefCell<Option<(ViewRequest, WorkbenchView)>>,
    build: Rc<Cell<Duration>>,
}

impl SimDriver for Prebuilt {
    fn restart(&mut self, scenario: &Scenario, _: &Variant, _: u64) -> Result<(), String> {
        let start = scenario.workload.start;
        let end = start + scenario.workload.duration;
        self.progress = Some(Progress {
            start,
            now: start + SimDuration::from_secs(86_400),
            end,
            tick: scenario.workload.tick,
        });
        Ok(())
    }

    fn step(&mut self, _: u32) -> u32 {
        0
    }

    fn progress(&self, run: Run) -> Option<Progress> {
        (run == Run::Current).then_some(self.progress).flatten()
    }

    fn snapshot(&self, request: &ViewRequest, run: Run) -> Option<WorkbenchView> {
        let start = self.progress?.start;
        if run == Run::Baseline {
            return None;
        }
        let mut cache = self.view.borrow_mut();
        if cache.as_ref().is_none_or(|(r, _)| r != request) {
            let matrix = self.partitions.matrix(request, start, &self.build);
            let facts = matrix
                .rows
                .iter()
                .map(|r| RowFacts { items: r.members.len() as u64 * 900, bytes: 1 << 20, throttled: 0 })
                .collect();
            let series = (0..request.size_series)
                .map(|s| SizeSeries {
                    label: format!("sensor-{s:06}"),
                    points: (0..request.size_points)
                        .map(|t| (t as f64 * 600.0, t as f64 * 1e5 * (s + 1) as f64))
                        .collect(),
                })
                .collect();
            let view = WorkbenchView {
                heatmap: Some(HeatmapView {
                    matrix,
                    facts,
                    groups: vec!["Reading".to_owned()],
                    start: SimTime::from_millis(0),
                    first_keys: Vec::new(),
                }),
                sizes: SizesView { limit_bytes: 100.0 * 1024.0 * 1024.0, series },
                ..WorkbenchView::default()
            };
            *cache = Some((request.clone(), view));
        }
        cache.as_ref().map(|(_, v)| v.clone())
    }

    fn console(&mut self, _: &str) -> Result<String, String> {
        Err("bench".to_owned())
    }
}

fn app(driver: Box<dyn SimDriver>) -> App {
    let mut app = App::new(Config { theme: Theme { color: true }, state_dir: None }, driver);
    app.open("sensors", None, None).expect("bundled scenario");
    app
}

/// Median and 95th percentile of `FRAMES` frames, in milliseconds.
fn frames(app: &mut App) -> (f64, f64) {
    let mut times: Vec<Duration> = (0..FRAMES)
        .map(|_| {
            let t = Instant::now();
            black_box(render_workbench(app, COLS, ROWS));
            t.elapsed()
        })
        .collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(times[FRAMES / 2]), ms(times[FRAMES * 95 / 100]))
}

/// Percentile `p` (0..=100) of sorted durations, in milliseconds.
fn pct(sorted: &[Duration], p: usize) -> f64 {
    sorted[(sorted.len() - 1) * p / 100].as_secs_f64() * 1000.0
}

/// `keyheat tui SCENARIO --variant V` played flat out: the event loop's work per frame, timed.
fn replay(scenario: &str, variant: &str, frames: usize) {
    let mut app =
        App::new(Config { theme: Theme { color: true }, state_dir: None }, Box::new(SimReplay::default()));
    app.open(scenario, Some(variant), None).expect("bundled scenario");
    let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    app.key(key(' '));
    for _ in 0..8 {
        app.key(key('+'));
    }
    let (mut periods, mut draws, mut steps) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = Instant::now();
    let started = Instant::now();
    for _ in 0..frames {
        let frame = Instant::now();
        // Snapshot and draw (the terminal's own output aside).
        black_box(render_workbench(&mut app, COLS, ROWS));
        draws.push(frame.elapsed());
        // The input window: idle unless a key comes.
        std::thread::sleep((frame + INPUT_WINDOW).saturating_duration_since(Instant::now()));
        let now = Instant::now();
        let deadline = now + STEP_BUDGET;
        app.tick(now - last, &mut || Instant::now() >= deadline);
        last = now;
        steps.push(now.elapsed());
        periods.push(frame.elapsed());
    }
    let wall = started.elapsed();
    let progress = app_progress(&app);
    for v in [&mut periods, &mut draws, &mut steps] {
        v.sort();
    }
    let max = |v: &[Duration]| v.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    // A key that lands just as stepping starts waits for the step and the draw; the frame that
    // handles it does not step, so the next draw shows its answer.
    let worst_key = max(&steps) + max(&draws) + max(&draws);
    println!(
        "replay: {scenario} / {variant} at max speed, {frames} frames of the event loop at {COLS}x{ROWS}"
    );
    println!(
        "  frame period: median {:.1} ms, p95 {:.1} ms, max {:.1} ms -> {:.1} frames/s (target >= 20)",
        pct(&periods, 50),
        pct(&periods, 95),
        max(&periods),
        frames as f64 / wall.as_secs_f64()
    );
    println!(
        "  snapshot + draw: median {:.2} ms, p95 {:.2} ms, max {:.2} ms; stepping: median {:.1} ms, max {:.1} ms",
        pct(&draws, 50),
        pct(&draws, 95),
        max(&draws),
        pct(&steps, 50),
        max(&steps)
    );
    println!("  longest wait for a key's answer to be drawn: {worst_key:.1} ms (target <= 50)");
    println!("  replayed {progress} in {:.1} s", wall.as_secs_f64());
}

fn app_progress(app: &App) -> String {
    match &app.screen {
        keyheat::tui::app::Screen::Workbench(w) => w.progress.map_or_else(
            || "nothing".to_owned(),
            |p| {
                format!(
                    "{} of simulated time",
                    keyheat::engine::planner::numbers::span(p.now.since(p.start).as_secs_f64())
                )
            },
        ),
        _ => "nothing".to_owned(),
    }
}

fn main() {
    let build = Rc::new(Cell::new(Duration::ZERO));
    let driver = Prebuilt {
        partitions: Partitions::new(),
        progress: None,
        view: RefCell::new(None),
        build: Rc::clone(&build),
    };
    let mut heat = app(Box::new(driver));
    // The first frame builds the matrix for the panel's size.
    black_box(render_workbench(&mut heat, COLS, ROWS));
    let (median, p95) = frames(&mut heat);
    let mut empty = app(Box::new(NoReplay));
    let (base_median, base_p95) = frames(&mut empty);
    println!("render: one 200x60 workbench frame, heatmap of {PARTITIONS} partitions ({FRAMES} frames)");
    println!(
        "  HeatmapMatrix::build, {PARTITIONS} partitions into the panel's rows: {:.2} ms (the simulator's side)",
        build.get().as_secs_f64() * 1000.0
    );
    println!("  frame with the heatmap:   median {median:.3} ms, p95 {p95:.3} ms (target <= 5 ms)");
    println!("  baseline, no replay:      median {base_median:.3} ms, p95 {base_p95:.3} ms");
    println!("  ratio frame / baseline:   {:.2}x", median / base_median);
    replay("sensors", "naive", 300);
    replay("counters", "naive", 100);
}

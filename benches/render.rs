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
//! Then throughput: the frame loop of `keyheat tui` without the terminal, replaying for real with
//! the worker thread and `G` pressed (each frame as the loop does it: snapshot and draw, the
//! input window, the tick), against the same scenario replayed headless as `keyheat run` does,
//! alternately, over the same opening stretch of the workload. Reported: simulated time per real
//! second both ways and their ratio (target: the workbench at >= 0.8x headless), and the frame
//! period and draw time while the worker runs flat out. Last, the same two ways over a whole
//! workload — `sensors` / `naive`, a simulated year — end to end: the time `G` takes to reach the
//! end against the headless replay's (target: <= 1.25x).
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
use keyheat::engine::sim::{RunOptions, Simulation};
use keyheat::engine::time::{SimDuration, SimTime};
use keyheat::engine::value::KeyValue;
use keyheat::tui::INPUT_WINDOW;
use keyheat::tui::app::{App, Config};
use keyheat::tui::driver::{DriverError, NoReplay, Run, SimDriver};
use keyheat::tui::replay::Worker;
use keyheat::tui::theme::Theme;
use keyheat::tui::ui::render_workbench;
use keyheat::tui::view::{
    HeatmapView, Progress, RowFacts, SizeSeries, SizesView, ViewRequest, WorkbenchView,
};

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
    fn restart(&mut self, scenario: &Scenario, _: &Variant, _: u64) -> Result<(), DriverError> {
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
                .map(|r| RowFacts {
                    items: Some(r.members.len() as u64 * 900),
                    bytes: 1 << 20,
                    throttled: 0,
                    throttled_by_col: vec![0; matrix.cols()],
                })
                .collect();
            let series = (0..request.size_series)
                .map(|s| SizeSeries {
                    label: format!("sensor-{s:06}"),
                    points: (0..request.size_points)
                        .map(|t| (t as f64 * 600.0, t as f64 * 1e5 * (s + 1) as f64))
                        .collect(),
                    splits: false,
                    bucket_secs: None,
                })
                .collect();
            let view = WorkbenchView {
                heatmap: Some(HeatmapView {
                    matrix,
                    facts,
                    groups: vec!["Reading".to_owned()],
                    splits: vec![true],
                    start: SimTime::from_millis(0),
                    first_keys: Vec::new(),
                    partition_ru_per_s: None,
                    expected: None,
                }),
                sizes: SizesView { limit_bytes: 100.0 * 1024.0 * 1024.0, series, note: None },
                ..WorkbenchView::default()
            };
            *cache = Some((request.clone(), view));
        }
        cache.as_ref().map(|(_, v)| v.clone())
    }

    fn console(&mut self, _: &str) -> Result<String, DriverError> {
        Err(DriverError::NoSimulator)
    }
}

fn app(driver: Box<dyn SimDriver>) -> App {
    let mut app = App::new(Config { theme: Theme::DARK, state_dir: None }, driver);
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

/// How far a replay got and how long it took: simulated seconds, real seconds.
#[derive(Clone, Copy)]
struct Played {
    simulated: f64,
    wall: f64,
}

impl Played {
    /// Simulated seconds per real second.
    fn rate(self) -> f64 {
        self.simulated / self.wall.max(1e-9)
    }
}

/// `scenario` / `variant` replayed headless, as `keyheat run` does (`Simulation::step` in a loop,
/// no UI), for `window` of real time after the load or to the end of the workload.
fn headless(scenario: &str, variant: &str, window: Duration) -> Played {
    let loaded = keyheat::scenario::load(scenario).expect("bundled scenario");
    let v = loaded.scenario.variant(variant).expect("bundled variant");
    let mut sim = Simulation::new(&loaded.scenario, v, &RunOptions::default()).expect("the scenario runs");
    let (start, began) = (sim.now(), Instant::now());
    while began.elapsed() < window && sim.step() {}
    Played { simulated: sim.now().since(start).as_secs_f64(), wall: began.elapsed().as_secs_f64() }
}

/// `keyheat tui SCENARIO --variant V` with `G` pressed: the event loop's frames (snapshot and
/// draw, the input window, the tick) on this thread, the simulation on the worker, for `window`
/// of real time after the load or until the run reaches its end. Prints the frame figures.
fn workbench(scenario: &str, variant: &str, window: Duration) -> Played {
    let worker = Worker::spawn().expect("a thread");
    let mut app = App::new(Config { theme: Theme::DARK, state_dir: None }, Box::new(worker));
    app.open(scenario, Some(variant), None).expect("bundled scenario");
    let (mut periods, mut draws) = (Vec::new(), Vec::new());
    let mut last = Instant::now();
    let mut origin: Option<(Instant, f64)> = None;
    let (t1, s1) = loop {
        let frame = Instant::now();
        black_box(render_workbench(&mut app, COLS, ROWS));
        draws.push(frame.elapsed());
        std::thread::sleep((frame + INPUT_WINDOW).saturating_duration_since(Instant::now()));
        let now = Instant::now();
        app.tick(now - last, &mut || true);
        last = now;
        let Some(at) = sim_secs(&app) else { continue };
        let (t0, _) = *origin.get_or_insert_with(|| {
            app.key(KeyEvent::new(KeyCode::Char('G'), KeyModifiers::NONE));
            (now, at)
        });
        periods.push(frame.elapsed());
        if now - t0 >= window || app_finished(&app) {
            break (now, at);
        }
    };
    let (t0, s0) = origin.expect("the loop ends on a loaded run");
    let played = Played { simulated: s1 - s0, wall: (t1 - t0).as_secs_f64() };
    for v in [&mut periods, &mut draws] {
        v.sort();
    }
    let max = |v: &[Duration]| v.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    println!(
        "  workbench frames at {COLS}x{ROWS}: period median {:.1} ms, max {:.1} ms; snapshot + draw median {:.2} ms, max {:.2} ms",
        pct(&periods, 50),
        max(&periods),
        pct(&draws, 50),
        max(&draws)
    );
    played
}

/// Simulated seconds since the start, once the run is loaded.
fn sim_secs(app: &App) -> Option<f64> {
    match &app.screen {
        keyheat::tui::app::Screen::Workbench(w) => w.progress.map(|p| p.now.since(p.start).as_secs_f64()),
        _ => None,
    }
}

fn app_finished(app: &App) -> bool {
    match &app.screen {
        keyheat::tui::app::Screen::Workbench(w) => w.progress.is_some_and(|p| p.finished()),
        _ => false,
    }
}

/// The target: flat out, the workbench replays at >= 0.8x the headless throughput. The
/// two are measured alternately (headless, workbench, headless, workbench) over the same opening
/// stretch of the workload, so a machine busy with something else weighs on both.
fn throughput(scenario: &str, variant: &str, window: Duration) {
    println!(
        "throughput: {scenario} / {variant}, flat out, {:.0} s of real time after the load",
        window.as_secs_f64()
    );
    let mut ratios = Vec::new();
    for _ in 0..2 {
        let headless = headless(scenario, variant, window).rate();
        let tui = workbench(scenario, variant, window).rate();
        println!(
            "  headless {} of simulated time a second; workbench (G) {}: {:.2}x (target >= 0.8)",
            keyheat::engine::planner::numbers::span(headless),
            keyheat::engine::planner::numbers::span(tui),
            tui / headless
        );
        ratios.push(tui / headless);
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    println!("  workbench / headless, mean of {}: {mean:.2}x", ratios.len());
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
    throughput("sensors", "recommended", Duration::from_secs(6));
    throughput("counters", "naive", Duration::from_secs(6));
    to_the_end("sensors", "naive");
}

/// The end-to-end target: `G` takes the workbench to the end of the workload in at most
/// 1.25x the time `keyheat run` takes to replay it headless, while drawing. One replay each way,
/// headless first, the whole workload after the load.
fn to_the_end(scenario: &str, variant: &str) {
    println!("to the end: {scenario} / {variant}, the whole workload flat out after the load");
    let alone = headless(scenario, variant, Duration::MAX);
    let drawn = workbench(scenario, variant, Duration::MAX);
    println!(
        "  headless {:.1} s, workbench (G) {:.1} s for {} of simulated time: {:.2}x (target <= 1.25; one run each, so a busy machine skews it)",
        alone.wall,
        drawn.wall,
        keyheat::engine::planner::numbers::span(drawn.simulated),
        drawn.wall / alone.wall
    );
}

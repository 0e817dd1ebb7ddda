//! `keyheat record`: the workbench replaying a scenario, as an asciinema v2 recording for slides
//! and talks. Each frame is drawn off-screen by the TUI's own renderer (as `keyheat snapshot`
//! draws one) and written as the terminal output that turns the last frame into it
//! (`tui::cast`). Time in the file is recording time counted in frames — [`FRAME_MS`] apart —
//! never the wall clock, and the replay advances `--speed` of simulated time per recorded second,
//! so the same arguments give the same bytes.
//!
//! The file is written under `cli/output`'s rule, as every command's: whole or not at all, an
//! existing file replaced only with `--force`, `-` for standard output.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::output;
use super::progress::Progress;
use super::snapshot::parse_size;
use crate::engine::judge;
use crate::engine::model::Engine;
use crate::engine::sim::RunOptions;
use crate::engine::time::SimDuration;
use crate::tui::app::{App, Config, Screen};
use crate::tui::cast::Recording;
use crate::tui::pacing::SPEEDS;
use crate::tui::replay::SimReplay;
use crate::tui::theme::{Palette, Theme};
use crate::tui::ui;
use crate::tui::workbench::Playback;

/// Recording time between two frames: five a second. The picture changes a heatmap column at a
/// time, so more would add bytes, not motion; a recording of the longest length is 3,000 frames.
pub const FRAME_MS: u64 = 200;
/// The longest recording: past ten minutes a slide's audience has stopped watching, and the file
/// grows to tens of megabytes.
const MAX_DURATION: SimDuration = SimDuration::from_secs(600);
/// The shortest: five frames.
const MIN_DURATION: SimDuration = SimDuration::from_secs(1);

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// A bundled scenario name (`sensors`) or a path to a .ron file
    pub scenario: String,
    /// The key design to replay (default: the file's first variant)
    #[arg(long)]
    pub variant: Option<String>,
    /// The store to replay on: dynamodb, cassandra, cosmosdb or mongodb (default: the file's
    /// `engine`; another must be listed in its `engines`)
    #[arg(long, value_parser = super::parse_engine)]
    pub engine: Option<Engine>,
    /// Seed for the workload (default: the scenario's)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated time per second of recording, one of the workbench's speeds: 1s, 10s, 1m, 10m,
    /// 1h, 6h, 1d, 1w
    #[arg(long, default_value = "1h", value_parser = parse_speed)]
    pub speed: usize,
    /// The terminal size to record, COLSxROWS (80x24 to 500x200)
    #[arg(long, default_value = "120x40", value_parser = parse_size)]
    pub size: (u16, u16),
    /// How long the recording plays (1s to 10m); it ends sooner when the workload does
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    pub duration: SimDuration,
    /// Colours: dark, light (dark text on white) or high-contrast (for a projector)
    #[arg(long, value_enum, default_value_t)]
    pub theme: Palette,
    /// The .cast file to write (whole or not at all; the directory must exist; `-` is stdout)
    #[arg(long, value_name = "FILE.cast")]
    pub out: PathBuf,
    /// Replace FILE if it exists
    #[arg(long)]
    pub force: bool,
}

/// A speed as the workbench's ladder has it (`1h` is an hour of simulated time a second): the
/// status line then shows the speed the recording plays at. Flat out has no rate to record at.
fn parse_speed(text: &str) -> Result<usize, String> {
    let ladder: Vec<String> = SPEEDS.iter().filter_map(|s| s.per_second()).map(speed_name).collect();
    let bad =
        || format!("{text:?} is not a speed: use one of {} (simulated time per second)", ladder.join(", "));
    let d = SimDuration::parse(text).map_err(|_| bad())?;
    if d.as_millis() % 1000 != 0 {
        return Err(bad());
    }
    SPEEDS.iter().position(|s| s.per_second().is_some_and(|p| u64::from(p) == d.as_secs())).ok_or_else(bad)
}

fn speed_name(per_second: u32) -> String {
    SimDuration::from_secs(u64::from(per_second)).to_string()
}

fn parse_duration(text: &str) -> Result<SimDuration, String> {
    let d = SimDuration::parse(text).map_err(|e| e.to_string())?;
    if d > MAX_DURATION {
        return Err(format!("{text} is longer than a recording may be ({MAX_DURATION})"));
    }
    if d < MIN_DURATION {
        return Err(format!("{text} is shorter than a recording may be ({MIN_DURATION})"));
    }
    Ok(d)
}

pub fn run(args: &RecordArgs) -> anyhow::Result<()> {
    // Everything that can be refused is refused before a long replay starts.
    output::check_new(&args.out, args.force)?;
    let theme = Theme { palette: args.theme, color: true };
    let mut app = App::new(Config { theme, state_dir: None }, Box::new(SimReplay::exact()));
    app.open_on(&args.scenario, args.variant.as_deref(), args.seed, args.engine)?;
    let Screen::Workbench(w) = &mut app.screen else { bail!("{}: the scenario did not open", args.scenario) };
    w.speed = args.speed;
    let (scenario, variant, workload) =
        (w.loaded.scenario.name.clone(), w.current().name.clone(), w.loaded.scenario.workload.clone());
    // The store is in the title whenever it was chosen, so two recordings of one design on two
    // stores say which is which.
    let on = args.engine.map_or_else(String::new, |e| format!(" on {e}"));
    if let Some(message) = app.message.as_ref().map(|(m, _)| m.clone()) {
        bail!("{scenario}: cannot replay variant {variant:?}: {message}");
    }
    // A run too large to replay call by call is replayed as rates, computed whole: there is no
    // replay to record frame by frame, only its end.
    let options = RunOptions { seed: args.seed, duration: None };
    if let Some(calls) = judge::too_large(&w.loaded.scenario, w.current(), &options) {
        bail!(
            "{scenario} / {variant}: {calls:.1e} calls are too many to replay call by call, so the run is replayed as rates, computed whole to its end: there is no replay to record; `keyheat snapshot` draws its end"
        );
    }
    let per_second = SPEEDS[args.speed].per_second().map_or(0, u64::from);
    let frames = args.duration.as_millis() / FRAME_MS;
    let (cols, rows) = args.size;
    let title = format!(
        "keyheat: {scenario} / {variant}{on} at {}/s",
        speed_name(SPEEDS[args.speed].per_second().unwrap_or(0))
    );
    let mut recording = Recording::new(cols, rows, &title);
    let mut progress = Progress::new(format!("recording {scenario} / {variant}"));
    let mut recorded = 0;
    for frame in 0..=frames {
        // `per_second` simulated seconds in each second of recording: that many ms a frame-ms.
        let sim = SimDuration::from_millis(per_second.saturating_mul(FRAME_MS).saturating_mul(frame));
        app.run_to(workload.start + sim.min(workload.duration), &mut |_| {});
        let Screen::Workbench(w) = &mut app.screen else { bail!("{scenario}: the workbench closed") };
        let finished = w.progress.is_some_and(|p| p.finished()) || sim >= workload.duration;
        // The status line shows the replay playing, as it would in the workbench; the last frame
        // of a finished workload shows it paused at the end.
        w.playback = if finished { Playback::Paused } else { Playback::Playing };
        recording.frame(frame * FRAME_MS, ui::render_workbench(&mut app, cols, rows));
        recorded = frame;
        #[allow(clippy::cast_precision_loss)]
        progress.update(frame as f64 / frames.max(1) as f64);
        if finished {
            break;
        }
    }
    progress.finish();
    output::write_new(&args.out, &recording.into_bytes(), args.force)?;
    if !output::is_stdout(&args.out) {
        let length = SimDuration::from_millis(recorded * FRAME_MS);
        eprintln!(
            "keyheat: wrote {} ({scenario} / {variant}{on}, {} frames, {length} of recording, {cols}x{rows})",
            args.out.display(),
            recorded + 1
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_are_the_workbenchs_and_durations_are_bounded() {
        let speeds = [
            ("1h", Ok(4)),
            ("1s", Ok(0)),
            ("1w", Ok(7)),
            ("2h", Err("not a speed")),
            ("fast", Err("1s, 10s")),
        ];
        for (text, want) in speeds {
            match (parse_speed(text), want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{text}"),
                (Err(e), Err(part)) => assert!(e.contains(part), "{text}: {e}"),
                (got, want) => panic!("{text}: {got:?}, wanted {want:?}"),
            }
        }
        let durations = [
            ("30s", Ok(30)),
            ("10m", Ok(600)),
            ("11m", Err("longer")),
            ("0s", Err("shorter")),
            ("x", Err("")),
        ];
        for (text, want) in durations {
            match (parse_duration(text), want) {
                (Ok(got), Ok(secs)) => assert_eq!(got.as_secs(), secs, "{text}"),
                (Err(e), Err(part)) => assert!(e.contains(part), "{text}: {e}"),
                (got, want) => panic!("{text}: {got:?}, wanted {want:?}"),
            }
        }
    }
}

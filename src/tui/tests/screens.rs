//! Whole screens through `TestBackend`, compared with insta snapshots (`cargo insta review` after
//! an intended change). Colours are not in the text; the heatmap's cell colours are checked on
//! the buffer directly.

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::style::Color;

use super::*;
use crate::engine::planner::numbers;
use crate::engine::time::SimTime;
use crate::tui::action::Panel;
use crate::tui::panels::shards::UNSHARDED;

#[test]
fn picker() {
    let mut a = app(true, None);
    insta::assert_snapshot!(draw(&mut a, 80, 24));
}

/// `orders` replayed for real (the simulator behind the driver) to two simulated hours, paused.
fn real_run(variant: &str) -> App {
    let mut a = real_app();
    a.open("orders", Some(variant), None).unwrap();
    a.run_to(SimTime::parse("2025-01-01T02:00:00Z").unwrap(), &mut |_| {});
    a
}

#[test]
fn workbench_of_a_real_run() {
    let mut a = real_run("naive");
    a.refresh(Rect::new(0, 0, 120, 40));
    press(&mut a, &[key(KeyCode::Down), key(KeyCode::Right)]);
    let screen = draw(&mut a, 120, 40);
    // The naive design scans for pending orders: the goal fails with the count of Scans.
    assert!(screen.contains("✘ the warehouse never scans"), "{screen}");
    assert!(screen.contains("2025-01-01 02:00:00 (+2 h"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// The heatmap of a real run reads like a key visualizer: a time axis counted from the start,
/// rows named by table and key, a legend with numbers and its unit, and an inspector whose every
/// figure is labelled; by heat, the hottest row first with the cursor on the hottest cell. At
/// 120 columns nothing in the panel is cut.
#[test]
fn a_real_heatmap_has_axes_labels_and_a_legend_at_80x24_and_120x40() {
    let mut a = real_run("recommended");
    press(&mut a, &[key(KeyCode::Char('o'))]);
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = draw(&mut a, w, h);
        let heat = workbench(&a).layout.rect(Panel::Heatmap).unwrap();
        let panel: Vec<String> = screen
            .lines()
            .skip(usize::from(heat.y) + 1)
            .take(usize::from(heat.height) - 2)
            .map(|l| l.chars().skip(usize::from(heat.x) + 2).take(usize::from(heat.width) - 2).collect())
            .collect();
        let text = panel.join("\n");
        for want in ["write units 0 ", "WCU/s (limit)", "╵+0s", "╵+1h", "▸ orders "] {
            assert!(text.contains(want), "{want:?} at {w}x{h}:\n{text}");
        }
        if w == 120 {
            // The cell's throttles are for its time; the partition's figures say "now", "so far".
            for want in ["by heat", "of limit)", "throttled 0 in ", "now 3 items, ", "throttled so far "] {
                assert!(text.contains(want), "{want:?} at {w}x{h}:\n{text}");
            }
            assert!(
                !text.contains('…') || text.lines().all(|l| !l.trim_end().ends_with('…')),
                "cut at 120:\n{text}"
            );
        }
        let view = workbench(&a).view.heatmap.as_ref().unwrap();
        let hottest = crate::tui::panels::heatmap::hottest_cell(&view.matrix).unwrap();
        assert_eq!(workbench(&a).heat.cursor, hottest, "the cursor opens on the hottest cell");
        let heat_of = |r: &crate::engine::metrics::HeatRow| r.cells.iter().copied().fold(0.0f32, f32::max);
        assert!(
            view.matrix.rows.iter().all(|r| heat_of(r) <= heat_of(&view.matrix.rows[0])),
            "hottest first"
        );
        insta::assert_snapshot!(format!("heatmap_{w}x{h}"), screen);
    }
}

/// `shard-keys` naive (sharded by creation time, ranged) replayed for real to +3 minutes: the
/// Shards panel under the indexes shows shard0 taking every insert while the balancer has begun
/// moving ranges off it, at 80x24 (the Shards take the column, the Indexes fold to their title
/// and summary) and at 120x40 (both whole).
#[test]
fn the_shards_panel_of_an_increasing_shard_key() {
    let mut a = real_app();
    a.open("shard-keys", Some("naive"), None).unwrap();
    a.run_to(SimTime::parse("2025-06-01T00:03:00Z").unwrap(), &mut |_| {});
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = draw(&mut a, w, h);
        let shards = workbench(&a).layout.rect(Panel::Shards).expect("naive shards its orders");
        let panel: String = screen
            .lines()
            .skip(usize::from(shards.y))
            .take(usize::from(shards.height))
            .map(|l| {
                l.chars().skip(usize::from(shards.x)).take(usize::from(shards.width)).collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n");
        for want in
            ["Shards", "inserts", "shard0     100%", "shard1       0%", "shard2       0%", "balancer: "]
        {
            assert!(panel.contains(want), "{want:?} at {w}x{h}:\n{panel}");
        }
        let folded = w == 80;
        assert_eq!(screen.contains("Indexes · 1 index: by-id"), folded, "at {w}x{h}:\n{screen}");
        insta::assert_snapshot!(format!("shards_{w}x{h}"), screen);
    }
}

/// The text of `rect` on a drawn screen.
fn region(screen: &str, rect: Rect) -> String {
    screen
        .lines()
        .skip(usize::from(rect.y))
        .take(usize::from(rect.height))
        .map(|l| l.chars().skip(usize::from(rect.x)).take(usize::from(rect.width)).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `shard-keys` naive, then recommended (`v`), replayed for real to +3 minutes and compared
/// (`c`): each run's shards, from its snapshot's report, under its heatmap at 120x40 and in the
/// heatmaps' place at 80x24. Naive's shard0 takes every insert (drawn as hot) and the router
/// sends every lookup to every shard; recommended spreads the inserts and targets the lookups.
#[test]
fn the_compare_view_shows_each_runs_shards() {
    let mut a = real_app();
    a.open("shard-keys", Some("naive"), None).unwrap();
    press(&mut a, &[key(KeyCode::Char('v'))]);
    a.run_to(SimTime::parse("2025-06-01T00:03:00Z").unwrap(), &mut |_| {});
    press(&mut a, &[key(KeyCode::Char('c'))]);
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = draw(&mut a, w, h);
        let wb = workbench(&a);
        assert_eq!(wb.compare.heatmaps.is_some(), w == 120, "{w}x{h}: the heatmaps give way at 80x24");
        let [now, before] = wb.compare.shards.expect("both runs shard their orders");
        let sides =
            [(now, "now: recommended", &wb.view), (before, "before: naive", wb.baseline.as_ref().unwrap())];
        for (rect, title, view) in sides {
            let panel = region(&screen, rect);
            let live = view.report.as_ref().and_then(|r| r.shards.as_ref()).expect("a sharded run's report");
            let hottest = live.hottest_for_inserts().unwrap();
            let migrations = crate::report::run::plural(live.migrations, "migration", "migrations");
            let targeted = format!("router: {} targeted", numbers::count(live.targeted_reads as f64));
            let share = format!("{}  ", numbers::percent(hottest.share_of_inserts));
            for want in [format!("Shards — {title}"), share, format!("balancer: {migrations}"), targeted] {
                assert!(panel.contains(&want), "{want:?} at {w}x{h}:\n{panel}");
            }
            assert!(panel.contains("jumbo"), "the jumbo column at {w}x{h}:\n{panel}");
        }
        let naive = &wb.baseline.as_ref().unwrap().report.as_ref().unwrap().shards.as_ref().unwrap();
        assert_eq!(
            (naive.hottest_share_of_inserts, naive.targeted_reads),
            (1.0, 0),
            "naive's inserts on one shard"
        );
        // The hot shard's share is drawn as bad: bold, as in the Shards panel.
        let buf = crate::tui::ui::screen_buffer(&a, Rect::new(0, 0, w, h));
        let hot = region(&screen, before).lines().position(|l| l.contains("shard0")).unwrap();
        let y = before.y + u16::try_from(hot).unwrap();
        let x = (before.x..before.right()).find(|&x| buf[(x, y)].symbol() == "%").unwrap();
        assert!(buf[(x, y)].modifier.contains(ratatui::style::Modifier::BOLD), "{w}x{h}");
        insta::assert_snapshot!(format!("compare_shards_{w}x{h}"), screen);
    }
}

/// A run that shards nothing beside one that does: its side of the shards says so in one line.
#[test]
fn in_the_compare_view_a_run_that_shards_nothing_says_so() {
    let text = crate::scenario::BUNDLED
        .iter()
        .find(|(name, ..)| *name == "shard-keys")
        .map(|(_, _, source)| *source)
        .unwrap();
    let hashed = r#"            sharding: (collection: "Order", shards: 3, key: Hashed, range_size: "1MB"),
"#;
    assert!(text.contains(hashed));
    let path = std::env::temp_dir().join(format!("keyheat-unsharded-{}.ron", std::process::id()));
    std::fs::write(&path, text.replace(hashed, "")).unwrap();
    let mut a = real_app();
    a.open(path.to_str().unwrap(), Some("naive"), None).unwrap();
    std::fs::remove_file(&path).unwrap();
    press(&mut a, &[key(KeyCode::Char('v'))]);
    a.run_to(SimTime::parse("2025-06-01T00:00:30Z").unwrap(), &mut |_| {});
    press(&mut a, &[key(KeyCode::Char('c'))]);
    let screen = draw(&mut a, 80, 24);
    let [now, before] = workbench(&a).compare.shards.expect("naive shards");
    let (now, before) = (region(&screen, now), region(&screen, before));
    assert!(now.contains("Shards — now: recommended") && now.contains(UNSHARDED), "{now}");
    assert!(before.contains("Shards — before: naive") && before.contains("shard0"), "{before}");
}

#[test]
fn workbench_at_80x24() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    let screen = draw(&mut a, 80, 24);
    for title in ["Schema", "Access patterns", "Heatmap", "Partition sizes", "Indexes", "Goals", "Lesson"] {
        assert!(screen.contains(title), "{title} missing at 80x24");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn help_overlay() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    press(&mut a, &[key(KeyCode::Char('?'))]);
    insta::assert_snapshot!(draw(&mut a, 100, 40));
}

/// Help on a scenario replayed on Cosmos DB (`keyheat tui counters --engine cosmosdb`): `m`
/// lists the metrics it cycles through there in Cosmos DB's words, normalized RU included,
/// wrapped under its column.
#[test]
fn help_on_cosmos_db_lists_the_metrics_m_offers_there() {
    let mut a = app(true, None);
    a.open_on("counters", Some("naive"), None, Some(crate::engine::model::Engine::CosmosDb)).unwrap();
    press(&mut a, &[key(KeyCode::Char('?'))]);
    let screen = draw(&mut a, 100, 40);
    for want in ["m             heatmap metric: write RU, read RU, throttled, bytes,", "items, normalized RU"]
    {
        assert!(screen.contains(want), "{want:?} missing:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn editor_error() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    press(&mut a, &[key(KeyCode::Char('e'))]);
    for _ in 0..5 {
        press(&mut a, &[key(KeyCode::Down)]);
    }
    press(&mut a, &[key(KeyCode::End)]);
    for _ in 0..4 {
        press(&mut a, &[key(KeyCode::Left)]);
    }
    type_text(&mut a, "_no");
    let screen = draw(&mut a, 100, 30);
    assert!(screen.contains("✘ 6:"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// sensors' naive variant in the editor with the cursor after `{sensor_id}` on the Reading line.
fn editing_the_reading_key() -> App {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    press(&mut a, &[key(KeyCode::Char('e'))]);
    for _ in 0..5 {
        press(&mut a, &[key(KeyCode::Down)]);
    }
    press(&mut a, &[key(KeyCode::Home)]);
    for _ in 0.."        \"Reading\": (pk: \"{sensor_id}".len() {
        press(&mut a, &[key(KeyCode::Right)]);
    }
    a
}

/// The cheat sheet lists every slot form from the parser's table under the text, and the line
/// under the heading names the attributes of the entity under the cursor.
#[test]
fn editor_with_the_cheat_sheet() {
    let mut a = editing_the_reading_key();
    press(&mut a, &[key(KeyCode::F(2))]);
    type_text(&mut a, "#{");
    let screen = draw(&mut a, 120, 40);
    for form in crate::engine::template::SLOT_FORMS {
        assert!(screen.contains(form.syntax), "{} missing:\n{screen}", form.syntax);
    }
    assert!(screen.contains("Reading attributes: sensor_id, reading_time"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// Tab in a slot with several ways to go: the popup lists the entity's attributes and the slot
/// functions.
#[test]
fn editor_with_the_completion_popup() {
    let mut a = editing_the_reading_key();
    type_text(&mut a, "#{");
    press(&mut a, &[key(KeyCode::Tab)]);
    let screen = draw(&mut a, 120, 40);
    for want in ["reading_time", "bucket(", "shard(", "hash(", "time bucket"] {
        assert!(screen.contains(want), "{want} missing:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

/// F1 in the editor opens the help with the editor's keys first, every one from the key table.
#[test]
fn help_in_the_editor_lists_the_editor_keys_first() {
    let mut a = editing_the_reading_key();
    press(&mut a, &[key(KeyCode::F(1))]);
    let screen = draw(&mut a, 100, 40);
    for want in ["Schema editor", "Ctrl-Z", "Ctrl-Y Ctrl-Shift-Z", "F2 Ctrl-T", "Shift-←", "Ctrl-R", "Ctrl-D"]
    {
        assert!(screen.contains(want), "{want} missing:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn compare_view_of_two_real_runs() {
    let mut a = real_app();
    a.open("orders", Some("naive"), None).unwrap();
    // v: the recommended design plays, and naive is replayed beside it as the baseline.
    press(&mut a, &[key(KeyCode::Char('v'))]);
    a.run_to(SimTime::parse("2025-01-01T02:00:00Z").unwrap(), &mut |_| {});
    press(&mut a, &[key(KeyCode::Char('c'))]);
    let screen = draw(&mut a, 120, 40);
    for heading in ["Heatmap — now: recommended", "Heatmap — before: naive", "Figures: now vs before"] {
        assert!(screen.contains(heading), "{heading} missing:\n{screen}");
    }
    // Same seed, same moment: the baseline caught up with the current run.
    let w = workbench(&a);
    let (before, now) =
        (w.baseline.as_ref().and_then(|b| b.report.as_deref()).unwrap(), w.view.report.as_deref().unwrap());
    assert_eq!((before.duration_s, before.seed), (now.duration_s, now.seed));
    // The rows of `keyheat compare`: the index's partitions are named apart from the table's.
    for row in ["largest (table)", "largest (indexes)", "throttled share", "cost per month"] {
        assert!(screen.contains(row), "{row} missing:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn a_small_terminal_gets_a_message() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    insta::assert_snapshot!(draw(&mut a, 40, 10));
    // Any size at all, including none, draws without a panic.
    for (w, h) in [(0, 0), (1, 1), (79, 24), (80, 23), (300, 5), (5, 300), (80, 24), (500, 200)] {
        let area = Rect::new(0, 0, w, h);
        a.refresh(area);
        ui::screen_buffer(&a, area);
    }
}

#[test]
fn resizing_keeps_the_cursor_inside() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    draw(&mut a, 200, 60);
    for _ in 0..100 {
        press(&mut a, &[key(KeyCode::Down), key(KeyCode::Right)]);
    }
    draw(&mut a, 80, 24);
    let w = workbench(&a);
    let h = w.view.heatmap.as_ref().unwrap();
    assert!(w.heat.cursor.0 < h.matrix.rows.len() && w.heat.cursor.1 < h.matrix.cols());
}

/// Scrolled to its last pattern at 80×24, the patterns panel of a terminal grown to 120×48
/// shows the whole list again, not one row and "6 above ↑".
#[test]
fn a_terminal_grown_after_scrolling_shows_every_pattern_again() {
    let mut a = app(true, None);
    a.open("orders", Some("naive"), None).unwrap();
    draw(&mut a, 80, 24);
    while a.focus() != Some(Panel::Patterns) {
        press(&mut a, &[key(KeyCode::Tab)]);
    }
    for _ in 0..20 {
        press(&mut a, &[key(KeyCode::Down)]);
    }
    let small = draw(&mut a, 80, 24);
    assert!(small.contains("above ↑"), "scrolled at 80x24:\n{small}");
    let scrolled = workbench(&a).scroll_of(Panel::Patterns);
    let patterns = workbench(&a).plan().expect("planned").patterns.len();
    assert!(scrolled > 0 && usize::from(scrolled) < patterns, "{scrolled} of {patterns}");
    let big = draw(&mut a, 120, 48);
    assert_eq!(workbench(&a).scroll_of(Panel::Patterns), 0, "everything fits at 120x48:\n{big}");
    assert!(!big.contains("above ↑") && !big.contains("more ↓"), "{big}");
    insta::assert_snapshot!(big);
}

/// The lesson scrolls to its last line and no further: Down past the end changes nothing, and
/// one Up shows an earlier line at once.
#[test]
fn the_lesson_stops_at_its_end() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    draw(&mut a, 80, 24);
    while a.focus() != Some(Panel::Lesson) {
        press(&mut a, &[key(KeyCode::Tab)]);
    }
    let pane = workbench(&a).layout.rect(Panel::Lesson).unwrap();
    let lines = crate::tui::panels::lesson::lesson_lines(&workbench(&a).loaded.scenario, None);
    let last = crate::tui::panels::lesson::wrapped_height(&lines, pane.width - 2) - (pane.height - 2);
    assert!(last > 0, "the sensors lesson is longer than its pane at 80x24");
    for _ in 0..(last + 10) {
        press(&mut a, &[key(KeyCode::Down)]);
        draw(&mut a, 80, 24);
    }
    assert_eq!(workbench(&a).scroll_of(Panel::Lesson), last);
    let end = draw(&mut a, 80, 24);
    // The pane's last text line is not blank: the lesson's end sits at the pane's bottom.
    let bottom: String = end
        .lines()
        .nth(usize::from(pane.y + pane.height - 2))
        .unwrap()
        .chars()
        .skip(usize::from(pane.x) + 2)
        .take(usize::from(pane.width) - 4)
        .collect();
    assert!(!bottom.trim().is_empty(), "{end}");
    press(&mut a, &[key(KeyCode::Up)]);
    draw(&mut a, 80, 24);
    assert_eq!(workbench(&a).scroll_of(Panel::Lesson), last - 1);
}

/// The heatmap's cells: two partitions per character in colour (`▀`, upper row as foreground),
/// one per character in shade characters without colour.
#[test]
fn heatmap_cells_are_half_blocks_in_colour_and_shades_without() {
    for color in [true, false] {
        let mut a = app(color, None);
        a.open("sensors", None, None).unwrap();
        let area = Rect::new(0, 0, 120, 40);
        a.refresh(area);
        let buf = ui::screen_buffer(&a, area);
        let heat = workbench(&a).layout.rect(Panel::Heatmap).unwrap();
        let rows = workbench(&a).view.heatmap.as_ref().unwrap().matrix.rows.len();
        // The border, the legend, the axis, two lines of inspector and the hint are not cells;
        // the row labels take the left of the panel.
        let lines = usize::from(heat.height) - 7;
        let labels = crate::tui::panels::heatmap::label_width(heat.width - 2);
        let cell = &buf[(heat.x + 2 + labels, heat.y + 2)];
        if color {
            // 48 partitions in up to 2 per line; merging may leave a row or two unused.
            assert!(rows > lines && rows <= 2 * lines, "{rows} rows in {lines} lines");
            assert_eq!(cell.symbol(), "▀");
            assert!(matches!(cell.fg, Color::Rgb(..)) && matches!(cell.bg, Color::Rgb(..)));
        } else {
            assert!(rows <= lines && rows > lines - 3, "{rows} rows in {lines} lines");
            assert!(["░", "▒", "▓", "█"].contains(&cell.symbol()), "{:?}", cell.symbol());
            assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset));
        }
    }
}

#[test]
fn no_color_draws_no_colour_anywhere() {
    let mut a = app(false, None);
    a.open("orders", Some("recommended"), None).unwrap();
    let area = Rect::new(0, 0, 120, 40);
    a.refresh(area);
    let buf = ui::screen_buffer(&a, area);
    assert!(buf.content().iter().all(|c| c.fg == Color::Reset && c.bg == Color::Reset));
}

#[test]
fn the_workbench_export_at_a_size_is_a_full_picture() {
    let mut a = app(true, None);
    a.open("sensors", None, None).unwrap();
    let buf = ui::render_workbench(&mut a, 160, 48);
    assert_eq!((buf.area.width, buf.area.height), (160, 48));
    let svg = crate::tui::svg::render(&buf, ratatui::style::Style::new());
    assert!(svg.contains(r#"width="1440" height="864""#));
    assert!(svg.contains("Heatmap") && svg.contains(">Schema</text>"));
}

/// `orders` opened for real and not yet played, at the size a tester first saw it: the Scan
/// leads the Access patterns panel, and before anything ran the goals show what the engine
/// grades — the plan's verdicts (a Scan that every call would run, a Query's one request),
/// with no measured value — while the goals only a replay can measure wait.
#[test]
fn orders_before_a_replay_puts_the_scan_first_and_judges_only_what_the_plan_decides() {
    let mut a = real_app();
    a.open("orders", Some("naive"), None).unwrap();
    let screen = draw(&mut a, 120, 40);
    let patterns: Vec<&str> =
        screen.lines().skip_while(|l| !l.contains("┌Access patterns")).skip(1).collect();
    assert!(patterns[0].contains("pending-orders ✘ Scan"), "{}", patterns[0]);
    let cases = [
        "✘ the warehouse never scans  —",
        "✔ the customer page is one request  1 request",
        "— ≤ 0.1% of requests throttled",
        "— the customer page meets its latency target",
    ];
    for line in cases {
        assert!(screen.contains(line), "{line:?} before a call:\n{screen}");
    }
    insta::assert_snapshot!(screen);
    // Played a little: the goals whose patterns ran are judged, with their values.
    a.run_to(SimTime::parse("2025-01-01T00:30:00Z").unwrap(), &mut |_| {});
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("✘ the warehouse never scans"), "{screen}");
}

/// Before a replay, a goal on what only the replay measures — partition sizes, writes lost, item
/// writes per write, throttles, latency — waits (`—`), never ✔ on the zeros of a run that has
/// measured nothing; the plan's verdicts stand (a size goal whose projection to its horizon
/// already breaks it fails at once, one that keeps within it waits). Played a little, each of
/// them is judged on what the replay measured.
#[test]
fn before_a_replay_goals_on_measurements_wait_and_the_plan_judges_the_rest() {
    let cases = [
        (
            "social-feed",
            "naive",
            "2025-05-01T00:01:00Z",
            vec![
                "— every write lands",
                "— at most 1.5 item writes per base write",
                "— ≤ 0.1% of requests throttled",
            ],
            vec![
                "every write lands",
                "at most 1.5 item writes per base write",
                "≤ 0.1% of requests throttled",
            ],
        ),
        (
            "sensors",
            "naive",
            "2025-01-01T01:00:00Z",
            vec!["— partitions stay under 100 MB", "— partitions stay under 100,000 rows"],
            vec!["partitions stay under 100 MB", "partitions stay under 100,000 rows"],
        ),
        (
            "practice-chat",
            "naive",
            "2025-01-01T00:01:00Z",
            vec!["✘ no partition past 10 GB within a year"],
            vec!["no partition past 10 GB within a year"],
        ),
        (
            "practice-chat",
            "recommended",
            "2025-01-01T00:01:00Z",
            vec!["— no partition past 10 GB within a year"],
            vec!["no partition past 10 GB within a year"],
        ),
    ];
    for (name, variant, until, before, after) in cases {
        let mut a = real_app();
        a.open(name, Some(variant), None).unwrap();
        let screen = draw(&mut a, 120, 40);
        for line in before {
            assert!(screen.contains(line), "{name} {variant}: {line:?} before a call:\n{screen}");
        }
        if name == "social-feed" {
            insta::assert_snapshot!(screen);
        }
        a.run_to(SimTime::parse(until).unwrap(), &mut |_| {});
        let screen = draw(&mut a, 120, 40);
        for goal in after {
            let judged = ["✔", "✘"].iter().any(|mark| screen.contains(&format!("{mark} {goal}")));
            assert!(judged, "{name} {variant}: {goal:?} judged once played:\n{screen}");
        }
    }
}

#[test]
fn the_picker_follows_the_selection_to_the_last_entry() {
    let mut a = app(true, None);
    for _ in 0..50 {
        press(&mut a, &[key(KeyCode::Down)]);
    }
    let screen = draw(&mut a, 80, 24);
    let last = crate::scenario::BUNDLED.last().map(|(n, _, _)| *n).unwrap();
    assert!(screen.contains(&format!("▶ {last}")), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn help_on_the_picker_lists_the_pickers_keys_first() {
    let mut a = app(true, None);
    press(&mut a, &[key(KeyCode::Char('?'))]);
    insta::assert_snapshot!(draw(&mut a, 100, 30));
}

#[test]
fn a_long_console_answer_scrolled_back_shows_its_start_and_where_it_is() {
    let mut a = app(true, None);
    a.open("orders", None, None).unwrap();
    a.refresh(Rect::new(0, 0, 100, 30));
    press(&mut a, &[key(KeyCode::Char(':'))]);
    type_text(&mut a, "scan limit 40");
    press(&mut a, &[key(KeyCode::Enter)]);
    if let Some(crate::tui::overlay::Overlay::Console(c)) = &mut a.overlay {
        let rows: Vec<String> = (0..40).map(|i| format!("  {{\"pk\": \"ORDER#{i:04}\"}},")).collect();
        c.history.push(("scan".to_owned(), Ok(format!("{{\n{}\n}}", rows.join("\n")))));
    }
    press(&mut a, &[key(KeyCode::PageUp)]);
    insta::assert_snapshot!(draw(&mut a, 100, 30));
}

#[test]
fn at_max_speed_the_status_line_keeps_whole_hints() {
    let mut a = app(true, None);
    a.open("orders", None, None).unwrap();
    for _ in 0..20 {
        press(&mut a, &[key(KeyCode::Char('+'))]);
    }
    press(&mut a, &[key(KeyCode::Char(' '))]);
    let screen = draw(&mut a, 80, 24);
    let status = screen.lines().last().unwrap_or_default().trim_matches('"').trim_end();
    assert!(status.contains("max speed"), "{status}");
    assert!(status.ends_with("? help"), "{status}");
    assert!(status.contains("space pause"), "{status}");
    insta::assert_snapshot!(status);
}

#[test]
fn the_schema_panel_says_what_a_variant_embeds() {
    for (variant, line) in [
        ("embedded-comments", "embed Comment in Post.comments (by post_id): all of them"),
        ("recommended", "embed Comment in Post.comments (by post_id): the newest 10"),
    ] {
        let mut a = app(true, None);
        a.open("social-feed", Some(variant), None).unwrap();
        let screen = draw(&mut a, 200, 60);
        assert!(screen.contains(line), "{variant}: {screen}");
    }
}

/// The Cassandra profile speaks CQL everywhere on the workbench: `chat` (a table per entity and a
/// materialized view) replayed for real to two simulated hours shows INSERT/SELECT, rows, views
/// and operations per second, and none of DynamoDB's words.
#[test]
fn a_cassandra_workbench_speaks_cql() {
    let mut a = real_app();
    a.open("chat", Some("recommended"), None).unwrap();
    a.run_to(SimTime::parse("2025-01-01T02:00:00Z").unwrap(), &mut |_| {});
    let screen = draw(&mut a, 120, 40);
    for want in ["INSERT", "SELECT", "view conversations_by_user", "view writes", "rows", "writes/s"] {
        assert!(screen.contains(want), "{want:?} missing:\n{screen}");
    }
    for dynamodb in
        ["PutItem", "GetItem", "Query", "Scan", "RCU", "WCU", "GSI", "write units", "on-demand", "items"]
    {
        assert!(!screen.contains(dynamodb), "{dynamodb:?} on a Cassandra screen:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

/// On Cosmos DB the Access patterns panel says where a read by a hierarchical key's first level
/// goes (`tenant-files` `recommended`, before a replay): the auditor's query on the prefix
/// [tenant_id], to the one physical partition of the container's ten that holds the tenant.
#[test]
fn the_patterns_panel_names_a_query_on_a_key_prefix_and_its_partitions() {
    let mut a = real_app();
    a.open("tenant-files", Some("recommended"), None).unwrap();
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("tenant-audit"), "{screen}");
    assert!(screen.contains("query on prefix [tenant_id] · ~1/10 partitions"), "{screen}");
}

/// The light and projector palettes at 120×40, colours included (the buffer's debug form lists
/// every style run): every cell has the palette's own colours, none the terminal's, so the
/// picture is the same on any terminal.
#[test]
fn light_and_high_contrast_themes_at_120x40() {
    use crate::tui::theme::Palette;
    for palette in [Palette::Light, Palette::HighContrast] {
        let mut a = App::new(
            Config { theme: Theme::new(palette, None), state_dir: None },
            Box::new(FakeDriver::new(600)),
        );
        a.open("sensors", None, None).unwrap();
        a.wait_for_plan();
        let area = Rect::new(0, 0, 120, 40);
        a.refresh(area);
        let buf = ui::screen_buffer(&a, area);
        let left: Vec<(usize, usize, &str)> = buf
            .content()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.fg == Color::Reset || c.bg == Color::Reset)
            .map(|(i, c)| (i % 120, i / 120, c.symbol()))
            .collect();
        assert!(left.is_empty(), "{palette:?} leaves cells to the terminal: {left:?}");
        let heat = workbench(&a).layout.rect(Panel::Heatmap).unwrap();
        let labels = crate::tui::panels::heatmap::label_width(heat.width - 2);
        let cell = &buf[(heat.x + 2 + labels, heat.y + 2)];
        match palette {
            Palette::HighContrast => {
                assert!(["░", "▒", "▓", "█"].contains(&cell.symbol()), "{:?}", cell.symbol());
                assert_eq!(cell.bg, Color::Rgb(0, 0, 0));
            }
            _ => assert_eq!(cell.symbol(), "▀"),
        }
        insta::assert_debug_snapshot!(format!("theme_{}_120x40", palette.name()), buf);
    }
}

/// `t` cycles the palette, says which one is on, and help lists it.
#[test]
fn t_cycles_the_theme_and_help_lists_it() {
    use crate::tui::theme::Palette;
    let mut a = app(true, None);
    a.open("orders", None, None).unwrap();
    let mut seen = vec![a.theme.palette];
    for _ in 0..3 {
        press(&mut a, &[key(KeyCode::Char('t'))]);
        let (message, _) = a.message.clone().expect("a note names the theme");
        assert_eq!(message, format!("theme: {}", a.theme.palette.name()));
        assert_eq!(workbench(&a).theme, a.theme);
        seen.push(a.theme.palette);
    }
    assert_eq!(seen, [Palette::Dark, Palette::Light, Palette::HighContrast, Palette::Dark]);
    press(&mut a, &[key(KeyCode::Char('?'))]);
    let help = draw(&mut a, 120, 40);
    assert!(help.contains("theme: dark / light / high contrast"), "{help}");
    let mut mono = app(false, None);
    mono.open("orders", None, None).unwrap();
    press(&mut mono, &[key(KeyCode::Char('t'))]);
    assert!(mono.message.as_ref().is_some_and(|(m, _)| m.contains("NO_COLOR")), "{:?}", mono.message);
    assert!(!mono.theme.color);
}

/// The thread that draws never plans: with the planner's answers held back, the Access patterns
/// panel says the variant is being planned, never shows the variant left behind as the new one,
/// and drops an answer that comes for a variant the user has since left.
#[test]
fn the_patterns_panel_says_planning_until_the_plan_comes_and_never_shows_a_stale_one() {
    fn w(a: &mut App) -> &mut Workbench {
        match &mut a.screen {
            Screen::Workbench(w) => w,
            Screen::Picker(_) | Screen::Quiz(_) => panic!("the workbench is not up"),
        }
    }
    let mut a = app(false, None);
    a.open("orders", Some("naive"), None).unwrap();
    let naive = draw(&mut a, 120, 40);
    assert!(naive.contains("pending-orders ✘ Scan"), "naive scans for pending orders:\n{naive}");
    w(&mut a).planning_mut().hold();
    // To recommended: its plan is held, so the panel has none to show.
    press(&mut a, &[key(KeyCode::Char('v'))]);
    let recommended = w(&mut a).planning_mut().generation();
    let screen = draw_now(&mut a, 120, 40);
    assert!(screen.contains("variant recommended"), "{screen}");
    assert!(screen.contains(crate::tui::panels::patterns::PLANNING), "{screen}");
    assert!(!screen.contains("✘ Scan"), "naive's verdicts shown as recommended's:\n{screen}");
    // Back to naive before recommended's plan came: that plan, when it comes, is stale.
    press(&mut a, &[key(KeyCode::Char('v'))]);
    let back = w(&mut a).planning_mut().generation();
    w(&mut a).planning_mut().run_held(recommended);
    let screen = draw_now(&mut a, 120, 40);
    assert!(
        screen.contains("variant naive") && screen.contains(crate::tui::panels::patterns::PLANNING),
        "{screen}"
    );
    assert!(workbench(&a).plan().is_none(), "recommended's plan was taken as naive's");
    w(&mut a).planning_mut().run_held(back);
    let screen = draw_now(&mut a, 120, 40);
    assert!(screen.contains("pending-orders ✘ Scan"), "naive's plan, once come, is drawn:\n{screen}");
    assert_eq!(workbench(&a).plan().map(|p| p.variant.as_str()), Some("naive"));
}

/// A physical partition's items are not counted (only each key's are): `p` from the items
/// heatmap shows bytes, `m` skips items there, and the inspector gives a physical partition its
/// bytes alone — it said "0 items" beside the bytes it holds.
#[test]
fn physical_partitions_show_no_item_count() {
    use crate::engine::metrics::{Layer, Metric};
    let mut a = real_app();
    a.open_on("counters", Some("naive"), None, None).unwrap();
    a.run_to(SimTime::parse("2025-06-01T00:00:20Z").unwrap(), &mut |_| {});
    // write → read → throttled → bytes → items.
    press(&mut a, &[key(KeyCode::Char('m')); 4]);
    assert_eq!(workbench(&a).heat.metric, Metric::Items);
    press(&mut a, &[key(KeyCode::Char('p'))]);
    assert_eq!((workbench(&a).heat.layer, workbench(&a).heat.metric), (Layer::Physical, Metric::Bytes));
    // Bytes → (items skipped; normalized RU is Cosmos DB's) → write units.
    press(&mut a, &[key(KeyCode::Char('m'))]);
    assert_eq!(workbench(&a).heat.metric, Metric::WriteUnits);
    let screen = draw(&mut a, 120, 40);
    assert!(!screen.contains(" 0 items"), "no item count for a physical partition:\n{screen}");
    let view = workbench(&a).view.heatmap.as_ref().unwrap();
    assert!(view.facts.iter().all(|f| f.items.is_none()), "{:?}", view.facts);
    // Back on keys, items are counted again.
    press(&mut a, &[key(KeyCode::Char('p'))]);
    draw(&mut a, 120, 40);
    let view = workbench(&a).view.heatmap.as_ref().unwrap();
    assert!(view.facts.iter().all(|f| f.items.is_some_and(|n| n > 0)), "{:?}", view.facts);
}

/// The counters lesson on Cosmos DB, replayed for real to +2 minutes, with `m` on normalized RU
/// and `p` on physical partitions, hottest first: the hot stream's physical partition is at 100%
/// of its share (its busiest second ÷ 200,000 RU/s over 34 partitions) while most of the others
/// stay far below theirs; the colour scale runs to 100% of the share.
#[test]
fn cosmos_counters_show_one_physical_partition_at_100_percent_normalized_ru() {
    use crate::engine::metrics::{Layer, Metric};
    use crate::engine::model::Engine;
    let mut a = real_app();
    a.open_on("counters", Some("naive"), None, Some(Engine::CosmosDb)).unwrap();
    a.run_to(SimTime::parse("2025-06-01T00:02:00Z").unwrap(), &mut |_| {});
    // write → read → throttled → bytes → items → normalized RU, on Cosmos DB only.
    press(&mut a, &[key(KeyCode::Char('m')); 5]);
    press(&mut a, &[key(KeyCode::Char('p')), key(KeyCode::Char('o'))]);
    assert_eq!(workbench(&a).heat.metric, Metric::NormalizedRu);
    assert_eq!(workbench(&a).heat.layer, Layer::Physical);
    let screen = draw(&mut a, 120, 40);
    for want in
        ["normalized RU 0 ", "100% of its share (limit)", "busiest second ÷ physical partition's share"]
    {
        assert!(screen.contains(want), "{want:?} missing:\n{screen}");
    }
    let view = workbench(&a).view.heatmap.as_ref().unwrap();
    let peak = |r: &crate::engine::metrics::HeatRow| r.cells.iter().copied().fold(0.0f32, f32::max);
    let peaks: Vec<f32> = view.matrix.rows.iter().map(peak).collect();
    // Measured: the partitions of the hottest streams reach 100% in their busiest second (three
    // of them by +2 min: Zipf's second and third streams ask more than a share too); every
    // other partition stays below, most of them far below.
    let full = peaks.iter().filter(|&&p| p >= 100.0).count();
    assert_eq!(peaks.first().copied(), Some(100.0), "the hot partition is full: {peaks:?}");
    assert!((1..=3).contains(&full), "a few hot partitions, not the container: {peaks:?}");
    assert!(peaks.iter().all(|&p| p <= 100.0), "capped at the share: {peaks:?}");
    let below_half = peaks.iter().filter(|&&p| p < 50.0).count();
    assert!(below_half * 2 > peaks.len(), "most stay under half their share: {peaks:?}");
    insta::assert_snapshot!(screen);
    // Back on write RU: coloured against the share the run's report gives each physical
    // partition (200,000 RU/s over 34 partitions), not the 10,000 RU/s a partition serves at most.
    press(&mut a, &[key(KeyCode::Char('m'))]);
    assert_eq!(workbench(&a).heat.metric, Metric::WriteUnits);
    let screen = draw(&mut a, 120, 40);
    let report =
        workbench(&a).view.report.as_ref().and_then(|r| r.request_units.clone()).expect("RU figures");
    assert_eq!(report.physical_partitions, 34);
    let view = workbench(&a).view.heatmap.as_ref().expect("a heatmap");
    assert_eq!(view.partition_ru_per_s, Some(report.partition_ru_per_s));
    assert!(screen.contains("5,882 RU/s (partition's share)"), "{screen}");
    assert!(!screen.contains("10,000 RU/s"), "{screen}");
}

/// discord-scale cut to a day (still 1.7×10⁹ calls: too many to replay call by call) as a
/// scenario file: the workbench replays it as rates and says so in the status line; the
/// heatmap draws the expected load of the hottest channels and says so, the panels the fluid
/// replay cannot feed say why, and play, speed and compare behave truthfully.
#[test]
fn a_run_too_large_to_replay_call_by_call_is_shown_as_rates() {
    use crate::engine::metrics::Metric;
    let mut a = real_app();
    a.open(&super::real::discord_day("screens-discord-day"), Some("naive"), None).unwrap();
    let screen = draw(&mut a, 120, 40);
    for words in [
        "replayed as rates: 1.7e9 calls are too many",
        "writes expected · 128 hottest of 1,000,000 · 0 ",
        "expected, replayed as rates: hottest #1 of its key group",
        "Replayed as rates: sizes at",
    ] {
        assert!(screen.contains(words), "{words} missing:\n{screen}");
    }
    // The hottest channel keeps a row of its own, labelled with its key, where the cursor
    // opens: 1/H(10⁶; 0.7) = 0.48% of 9,838 messages a second.
    let view = workbench(&a).view.heatmap.as_ref().expect("an expected heatmap");
    let peak = |r: &crate::engine::metrics::HeatRow| r.cells.iter().copied().fold(0.0f32, f32::max);
    let hottest = view.matrix.rows.iter().max_by(|a, b| peak(a).total_cmp(&peak(b))).expect("rows");
    assert!(!hottest.is_merged() && hottest.label.starts_with("ch-"), "{}", hottest.label);
    assert!(screen.contains(&format!("▸ Message {}", hottest.label)), "{}:\n{screen}", hottest.label);
    assert!((45.0..49.0).contains(&peak(hottest)), "{}", peak(hottest));
    insta::assert_snapshot!(screen);
    // Sizes are not kept per partition as rates: the legend claims no scale for them.
    press(&mut a, &[key(KeyCode::Char('m')), key(KeyCode::Char('m')), key(KeyCode::Char('m'))]);
    assert_eq!(workbench(&a).heat.metric, Metric::Bytes);
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("bytes · replayed as rates: not kept per partition"), "{screen}");
    assert!(!screen.contains("(limit)"), "{screen}");
    press(&mut a, &[key(KeyCode::Char('m')), key(KeyCode::Char('m'))]);
    assert_eq!(workbench(&a).heat.metric, Metric::WriteUnits);
    // Play, step, speed and jump: the run was computed whole, and the message says so.
    for k in [' ', '.', '+', 'G'] {
        press(&mut a, &[key(KeyCode::Char(k))]);
        let (text, kind) = a.message.clone().expect("a message");
        assert_eq!(kind, crate::tui::panels::status::MessageKind::Error, "{k}");
        assert!(text.contains("computed whole"), "{k}: {text}");
        assert_eq!(workbench(&a).playback, crate::tui::workbench::Playback::Paused, "{k}");
    }
    // Compare with another design, also replayed as rates: the figures of the two reports, in
    // two columns as wide as their numbers (a year's calls, 1,700,006,400): at 160 columns.
    press(&mut a, &[key(KeyCode::Char('v')), key(KeyCode::Char('c'))]);
    let screen = draw(&mut a, 160, 40);
    let w = workbench(&a);
    let reports: Vec<crate::engine::sim::RunReport> = [w.baseline.as_ref(), Some(&w.view)]
        .into_iter()
        .flatten()
        .filter_map(|v| v.report.as_deref().cloned())
        .collect();
    assert_eq!(reports.len(), 2, "{screen}");
    let comparison = crate::report::compare::Comparison::new(&reports).expect("two rates reports compare");
    // Each value apart from its neighbours: a million partitions, 1,000,000 → 12,000,000, once
    // ran into one another (`1,000,00012,000,000`) in columns sized for nine digits.
    for f in &comparison.figures {
        let (b, n) = (f.value(0), f.value(1));
        assert!(
            screen.lines().any(|l| l.contains(&format!("{} ", f.label))
                && l.contains(&format!(" {b} "))
                && l.contains(&format!(" {n}"))),
            "{} {b} → {n} missing or run together:\n{screen}",
            f.label
        );
    }
}

//! Where things go on the screen: pure functions of the terminal's size, used to draw and to hit
//! test mouse clicks against the same rectangles.

use ratatui::layout::{Constraint, Layout, Rect};

use super::action::Panel;

/// The smallest terminal the workbench is drawn in; smaller ones get a message.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

pub fn fits(area: Rect) -> bool {
    area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkbenchLayout {
    pub panels: Vec<(Panel, Rect)>,
    /// Where the schema editor goes: the whole left column.
    pub editor: Rect,
    pub status: Rect,
    /// The panel drawn as one row, its title and a one-line summary, to leave its place to the
    /// other of Indexes and Shards (a column too short for both).
    pub collapsed: Option<Panel>,
}

impl WorkbenchLayout {
    pub fn rect(&self, panel: Panel) -> Option<Rect> {
        self.panels.iter().find(|(p, _)| *p == panel).map(|(_, r)| *r)
    }

    /// The panel under a screen position.
    pub fn panel_at(&self, x: u16, y: u16) -> Option<Panel> {
        let at = ratatui::layout::Position { x, y };
        self.panels.iter().find(|(_, r)| r.contains(at)).map(|(p, _)| *p)
    }
}

/// The workbench: a left column (Schema, Access patterns, Goals), the heatmap above Partition
/// sizes and Indexes on the right, the lesson pane (when shown, `lesson` lines of text high) and
/// the status line at the bottom. While editing, the left column (the editor) is wider. A
/// variant that shards a collection (`sharded`) shares the Indexes panel's place with Shards;
/// in a column too short for both, the one of them that has the `focus` (Shards unless it is
/// Indexes) takes the column and the other collapses to one row.
pub fn workbench(
    area: Rect,
    lesson: Option<u16>,
    editing: bool,
    sharded: bool,
    focus: Panel,
) -> WorkbenchLayout {
    // The lesson takes up to an eighth of the screen (3 lines at 24 rows, 5 from 40); it scrolls.
    let cap = (area.height / 8).clamp(2, 5);
    let lesson_height = lesson.map_or(0, |lines| lines.clamp(1, cap) + 2);
    let [main, lesson_area, status] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(lesson_height), Constraint::Length(1)])
            .areas(area);
    let left_share = if editing { 55 } else { 40 };
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(left_share), Constraint::Fill(1)]).areas(main);
    let [schema, patterns, goals] =
        Layout::vertical([Constraint::Percentage(30), Constraint::Percentage(42), Constraint::Fill(1)])
            .areas(left);
    let [heatmap, bottom] = Layout::vertical([Constraint::Percentage(58), Constraint::Fill(1)]).areas(right);
    let [sizes, indexes] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Fill(1)]).areas(bottom);
    let mut panels = vec![
        (Panel::Schema, schema),
        (Panel::Patterns, patterns),
        (Panel::Goals, goals),
        (Panel::Heatmap, heatmap),
        (Panel::Sizes, sizes),
    ];
    let mut collapsed = None;
    if sharded {
        // The shards' lines (one per shard) matter more than the indexes' on a sharded run.
        let split = if indexes.height >= SPLIT_MIN {
            [Constraint::Percentage(40), Constraint::Fill(1)]
        } else if focus == Panel::Indexes {
            collapsed = Some(Panel::Shards);
            [Constraint::Fill(1), Constraint::Length(1)]
        } else {
            collapsed = Some(Panel::Indexes);
            [Constraint::Length(1), Constraint::Fill(1)]
        };
        let [indexes, shards] = Layout::vertical(split).areas(indexes);
        panels.extend([(Panel::Indexes, indexes), (Panel::Shards, shards)]);
    } else {
        panels.push((Panel::Indexes, indexes));
    }
    if lesson.is_some() {
        panels.push((Panel::Lesson, lesson_area));
    }
    WorkbenchLayout { panels, editor: left, status, collapsed }
}

/// The shortest column Indexes and Shards share by 40/60. Shorter (8 rows at 80×24 with the
/// lesson, 10 without) the split leaves Indexes a line or two and Shards fewer lines than a
/// table of three shards and the balancer's line: neither readable. From 12 rows (120×40 has 13)
/// Indexes gets three lines and Shards five.
pub const SPLIT_MIN: u16 = 12;

/// The compare view: the two runs' heatmaps side by side (now on the left), each run's shards
/// under its heatmap when either run shards a collection, and the figures across the bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CompareLayout {
    /// Now and before; `None` when the shards leave the heatmaps too few rows to show a cell.
    pub heatmaps: Option<[Rect; 2]>,
    /// Now and before, one height.
    pub shards: Option<[Rect; 2]>,
    pub figures: Rect,
}

/// The fewest rows a compare heatmap is drawn in: its border, legend, time axis and inspector
/// (`heatmap::chrome_lines`, 4 in a short panel) and two lines of cells.
pub const HEAT_MIN: u16 = 8;

/// The compare view in `area` (the screen above the lesson and the status line); `shard_lines`:
/// the lines the taller of the two runs' shards take, when either run shards a collection. The
/// heatmaps take two thirds and the figures the rest; the shards come out of the heatmaps' two
/// thirds. When what is left could not show a cell (80×24: 18 rows with the lesson, 23 without)
/// the heatmaps give way: the shards go on top and the figures take the rest — side by side, the
/// shards are what a sharded comparison is about, and the workbench still has its heatmap.
pub fn compare(area: Rect, shard_lines: Option<u16>) -> CompareLayout {
    let heat_share = area.height.saturating_sub(1) * 2 / 3;
    let figures = Rect { y: area.y + heat_share, height: area.height - heat_share, ..area };
    let halves = |rect: Rect| -> [Rect; 2] {
        let [now, before] =
            Layout::horizontal([Constraint::Length(rect.width / 2), Constraint::Fill(1)]).areas(rect);
        [now, before]
    };
    let top = Rect { height: heat_share, ..area };
    let Some(lines) = shard_lines else {
        return CompareLayout { heatmaps: Some(halves(top)), shards: None, figures };
    };
    // A long list of shards scrolls no further than half the view: the figures stay in sight.
    let shards = (lines + 2).min(area.height / 2);
    if heat_share >= shards + HEAT_MIN {
        let [heat, below] = Layout::vertical([Constraint::Fill(1), Constraint::Length(shards)]).areas(top);
        return CompareLayout { heatmaps: Some(halves(heat)), shards: Some(halves(below)), figures };
    }
    let [below, figures] = Layout::vertical([Constraint::Length(shards), Constraint::Fill(1)]).areas(area);
    CompareLayout { heatmaps: None, shards: Some(halves(below)), figures }
}

/// A box of at most `width` × `height` in the middle of `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_tile_the_screen_without_overlap() {
        let sizes = [(80, 24, Some(3)), (80, 24, None), (200, 60, Some(9)), (120, 40, Some(1))];
        let shapes = [(false, Panel::Heatmap), (true, Panel::Heatmap), (true, Panel::Indexes)];
        for ((w, h, lesson), (sharded, focus)) in sizes.into_iter().flat_map(|s| shapes.map(|x| (s, x))) {
            let area = Rect::new(0, 0, w, h);
            let l = workbench(area, lesson, false, sharded, focus);
            assert_eq!(l.rect(Panel::Shards).is_some(), sharded);
            let covered: u32 = l.panels.iter().map(|(_, r)| r.area()).sum::<u32>() + l.status.area();
            assert_eq!(covered, area.area(), "{w}x{h} {lesson:?} {sharded}");
            for (i, (p, a)) in l.panels.iter().enumerate() {
                let rows = if l.collapsed == Some(*p) { 1 } else { 3 };
                assert!(a.width >= 10 && a.height >= rows, "{w}x{h} {sharded}: {p:?} {a:?}");
                for (_, b) in &l.panels[i + 1..] {
                    assert!(!a.intersects(*b), "{a:?} overlaps {b:?}");
                }
            }
            assert_eq!(l.status.height, 1);
        }
    }

    /// Below `SPLIT_MIN` rows the focused one of Indexes and Shards (Shards when neither has the
    /// focus) takes the column and the other keeps one row; from it both keep their 40/60 split.
    #[test]
    fn in_a_short_column_the_focused_one_of_indexes_and_shards_takes_the_room() {
        // (columns, rows, the lesson's lines, focus, collapsed, Indexes' rows, Shards' rows)
        type Case = (u16, u16, Option<u16>, Panel, Option<Panel>, u16, u16);
        let cases: [Case; 7] = [
            (80, 24, Some(3), Panel::Heatmap, Some(Panel::Indexes), 1, 7),
            (80, 24, Some(3), Panel::Shards, Some(Panel::Indexes), 1, 7),
            (80, 24, Some(3), Panel::Indexes, Some(Panel::Shards), 7, 1),
            (80, 24, None, Panel::Shards, Some(Panel::Indexes), 1, 9),
            (80, 24, None, Panel::Indexes, Some(Panel::Shards), 9, 1),
            (120, 40, Some(5), Panel::Indexes, None, 5, 8),
            (120, 40, Some(5), Panel::Shards, None, 5, 8),
        ];
        for (w, h, lesson, focus, collapsed, indexes, shards) in cases {
            let l = workbench(Rect::new(0, 0, w, h), lesson, false, true, focus);
            let (i, s) = (l.rect(Panel::Indexes).unwrap(), l.rect(Panel::Shards).unwrap());
            let case = format!("{w}x{h} lesson {lesson:?} focus {focus:?}");
            assert_eq!(l.collapsed, collapsed, "{case}");
            assert_eq!((i.height, s.height), (indexes, shards), "{case}");
            assert_eq!((i.x, i.width, i.bottom()), (s.x, s.width, s.y), "{case}: one column");
            // A click on the collapsed row finds its panel: that is how it opens.
            assert_eq!(l.panel_at(i.x + 1, i.y), Some(Panel::Indexes), "{case}");
            assert_eq!(l.panel_at(s.x + 1, s.y), Some(Panel::Shards), "{case}");
        }
        let unsharded = workbench(Rect::new(0, 0, 80, 24), Some(3), false, false, Panel::Indexes);
        assert_eq!(unsharded.collapsed, None);
    }

    #[test]
    fn clicks_find_their_panel() {
        let l = workbench(Rect::new(0, 0, 100, 30), None, false, false, Panel::Heatmap);
        let heat = l.rect(Panel::Heatmap).unwrap();
        assert_eq!(l.panel_at(heat.x + 1, heat.y + 1), Some(Panel::Heatmap));
        assert_eq!(l.panel_at(0, 0), Some(Panel::Schema));
        assert_eq!(l.panel_at(0, 29), None);
        assert_eq!(l.rect(Panel::Lesson), None);
    }

    /// The compare view: the heatmaps over two thirds and the figures under them; the shards
    /// (when either run shards) come out of the heatmaps' rows, and take their place when what
    /// is left could not show a cell.
    #[test]
    fn the_compare_view_makes_room_for_the_shards() {
        // (columns, rows of the view, the shards' lines, the heatmaps' rows, the shards' rows,
        // the figures' rows)
        type Case = (u16, u16, Option<u16>, Option<u16>, Option<u16>, u16);
        let cases: [Case; 7] = [
            // 80x24 with the lesson (3 lines), without it, 120x40 with it (5 lines): 18, 23, 32.
            (80, 18, None, Some(11), None, 7),
            (80, 18, Some(6), None, Some(8), 10),
            (80, 23, Some(6), None, Some(8), 15),
            (120, 32, None, Some(20), None, 12),
            (120, 32, Some(6), Some(12), Some(8), 12),
            (120, 32, Some(1), Some(17), Some(3), 12),
            // Many shards stop at half the view.
            (120, 32, Some(40), None, Some(16), 16),
        ];
        for (w, h, lines, heat, shards, figures) in cases {
            let area = Rect::new(0, 0, w, h);
            let l = compare(area, lines);
            let case = format!("{w}x{h} {lines:?}");
            assert_eq!(l.heatmaps.map(|[now, _]| now.height), heat, "{case}");
            assert_eq!(l.shards.map(|[now, _]| now.height), shards, "{case}");
            assert_eq!(l.figures.height, figures, "{case}");
            let mut rects: Vec<Rect> = [l.heatmaps, l.shards].into_iter().flatten().flatten().collect();
            rects.push(l.figures);
            let covered: u32 = rects.iter().map(|r| r.area()).sum();
            assert_eq!(covered, area.area(), "{case}: the view is tiled");
            for (i, a) in rects.iter().enumerate() {
                assert!(a.height >= 3, "{case}: {a:?}");
                for b in &rects[i + 1..] {
                    assert!(!a.intersects(*b), "{case}: {a:?} overlaps {b:?}");
                }
            }
            for [now, before] in [l.heatmaps, l.shards].into_iter().flatten() {
                assert_eq!(
                    (now.width, now.right(), now.y, now.height),
                    (w / 2, before.x, before.y, before.height)
                );
            }
        }
    }

    #[test]
    fn centering_clamps_to_the_area() {
        assert_eq!(centered(Rect::new(0, 0, 80, 24), 40, 10), Rect::new(20, 7, 40, 10));
        assert_eq!(centered(Rect::new(0, 0, 30, 5), 40, 10), Rect::new(0, 0, 30, 5));
    }
}

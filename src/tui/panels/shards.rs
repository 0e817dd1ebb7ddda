//! The Shards panel, shown while the variant shards a MongoDB collection: per shard its share of
//! the inserts, documents, size, ranges and jumbo ranges, then what the router and the balancer
//! did — the report's Shards section (`report::run::shard_section`) as the replay stands. The
//! replay worker builds that section with each snapshot's report, so nothing here is worked out
//! on the drawing thread but the words.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{Chunk, PENDING, block, flow, one_line, text, width_of};
use crate::engine::model::Sharding;
use crate::engine::planner::numbers;
use crate::engine::sim::report::{ShardReport, ShardsReport};
use crate::report::run::plural;
use crate::tui::action::Panel;
use crate::tui::theme::Theme;

pub struct ShardsPanel<'a> {
    /// What the variant declares: the collection, its shard count and strategy.
    pub sharding: &'a Sharding,
    /// The shard key (the collection's `pk` template).
    pub key: &'a str,
    /// The replay's figures so far; `None` before it starts.
    pub live: Option<&'a ShardsReport>,
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

/// Lines after the first of a summary's indent this far.
const INDENT: usize = 2;

/// The table's columns, in the order they give way when the panel is narrow: the share of the
/// inserts is what a shard key is chosen by, the size and ranges what the balancer evens out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Inserts,
    Size,
    Ranges,
    Jumbo,
    Documents,
}

impl Column {
    fn header(self) -> &'static str {
        match self {
            Column::Inserts => "inserts",
            Column::Size => "size",
            Column::Ranges => "ranges",
            Column::Jumbo => "jumbo",
            Column::Documents => "docs",
        }
    }

    fn figure(self, shard: &ShardReport) -> String {
        match self {
            Column::Inserts => numbers::percent(shard.share_of_inserts),
            Column::Size => numbers::bytes(shard.bytes as f64),
            Column::Ranges => numbers::count(shard.ranges as f64),
            Column::Jumbo => numbers::count(shard.jumbo_ranges as f64),
            Column::Documents => numbers::count(shard.documents as f64),
        }
    }
}

/// Between two columns of the table.
const GAP: &str = "  ";

impl ShardsPanel<'_> {
    /// What the panel says, laid out `width` columns wide: a table of the shards (as many of its
    /// columns as fit), then what the balancer and the router did, the jumbo ranges and the shard
    /// key, each figure whole.
    pub fn lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let s = self.sharding;
        let jumbo = self.live.is_some_and(|l| l.jumbo_ranges > 0);
        let wanted: Vec<Column> =
            [Column::Inserts, Column::Size, Column::Ranges, Column::Jumbo, Column::Documents]
                .into_iter()
                .filter(|&c| c != Column::Jumbo || jumbo)
                .collect();
        let mut lines = self.table(width, &wanted);
        let dim = |text: String| Span::styled(text, t.dim());
        let summary = |chunks: Vec<(&'static str, Span<'static>)>| {
            flow(chunks.into_iter().map(|(sep, span)| Chunk::new(sep, vec![span])).collect(), width, INDENT)
        };
        if let Some(live) = self.live {
            let migrations = format!("balancer: {}", plural(live.migrations, "migration", "migrations"));
            let moved = numbers::bytes(live.migrated_bytes as f64);
            let threshold = format!("at {} apart", numbers::bytes(live.migration_threshold_bytes as f64));
            lines.extend(summary(vec![("", dim(migrations)), (", ", dim(moved)), (" · ", dim(threshold))]));
            let reads = live.targeted_reads + live.broadcast_reads;
            if reads > 0 {
                let mut targeted = format!("router: {} targeted", numbers::count(live.targeted_reads as f64));
                if live.prefix_reads > 0 {
                    let _ = write!(targeted, " ({} by prefix)", numbers::count(live.prefix_reads as f64));
                }
                let broadcast = format!("{} to every shard", numbers::count(live.broadcast_reads as f64));
                lines.extend(summary(vec![("", dim(targeted)), (" · ", dim(broadcast))]));
            }
            if live.jumbo_ranges > 0 {
                let jumbo = plural(live.jumbo_ranges, "jumbo range", "jumbo ranges");
                let why = format!(
                    "one key value past {}: cannot split or move",
                    numbers::bytes(s.range_bytes as f64)
                );
                lines.extend(summary(vec![("", Span::styled(jumbo, t.bad())), (": ", dim(why))]));
            }
        } else {
            lines.push(Line::styled(format!("balancer: {PENDING}"), t.dim()));
        }
        lines.extend(summary(vec![
            ("", Span::styled(s.entity.clone(), t.header())),
            (" ", dim(format!("by {} {}", s.strategy.id(), self.key))),
            (" · ", dim(format!("range size {}", numbers::bytes(s.range_bytes as f64)))),
        ]));
        lines
    }

    /// The panel collapsed to one line: the busiest shard's share of the inserts (marked when
    /// hot), the balancer's migrations and the jumbo ranges, leaving out what does not fit
    /// after the share; before the replay, the collection's shards and key.
    pub fn summary(&self) -> Vec<Chunk> {
        let t = self.theme;
        let Some(live) = self.live else {
            let s = self.sharding;
            let shards = plural(u64::from(s.shards), "shard", "shards");
            let key = format!("by {} {}", s.strategy.id(), self.key);
            return vec![
                Chunk::new("", vec![Span::styled(shards, t.dim())]),
                Chunk::new(" ", vec![Span::styled(key, t.dim())]),
            ];
        };
        let mut chunks = match live.hottest_for_inserts().filter(|_| live.inserts > 0) {
            Some(h) => {
                let style = if hot(live).is_some() { t.bad() } else { ratatui::style::Style::new() };
                let share = format!("{} {}", h.shard, numbers::percent(h.share_of_inserts));
                vec![
                    Chunk::new("", vec![Span::styled(share, style)]),
                    Chunk::new(" ", vec![Span::styled("of inserts", t.dim())]),
                ]
            }
            None => vec![Chunk::new("", vec![Span::styled("no inserts yet", t.dim())])],
        };
        let migrations = plural(live.migrations, "migration", "migrations");
        chunks.push(Chunk::new(" · ", vec![Span::styled(migrations, t.dim())]));
        if live.jumbo_ranges > 0 {
            let jumbo = format!("{} jumbo", numbers::count(live.jumbo_ranges as f64));
            chunks.push(Chunk::new(" · ", vec![Span::styled(jumbo, t.bad())]));
        }
        chunks
    }

    /// What the compare view shows of a run's shards, in `compare_height` lines whatever the
    /// replay has reached (the view is laid out before the snapshot comes): the table with the
    /// jumbo column always there and second, so that both sides line up and a narrow side keeps
    /// the share of the inserts and the jumbo ranges; then the balancer's line and the router's,
    /// each kept to one line by leaving out the figures that come last.
    pub fn compare_lines(&self, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let wanted = [Column::Inserts, Column::Jumbo, Column::Ranges, Column::Size, Column::Documents];
        let mut lines = self.table(width, &wanted);
        let dim = |text: String| Span::styled(text, t.dim());
        let Some(live) = self.live else {
            lines.push(Line::styled(format!("balancer: {PENDING}"), t.dim()));
            lines.push(Line::styled(format!("router: {PENDING}"), t.dim()));
            return lines;
        };
        let migrations = format!("balancer: {}", plural(live.migrations, "migration", "migrations"));
        lines.push(one_line(
            vec![
                Chunk::new("", vec![dim(migrations)]),
                Chunk::new(", ", vec![dim(numbers::bytes(live.migrated_bytes as f64))]),
                Chunk::new(
                    " · ",
                    vec![dim(format!("at {} apart", numbers::bytes(live.migration_threshold_bytes as f64)))],
                ),
            ],
            width,
        ));
        let router = if live.targeted_reads + live.broadcast_reads == 0 {
            vec![Chunk::new("", vec![dim("router: no reads so far".to_owned())])]
        } else {
            let mut chunks = vec![
                Chunk::new(
                    "",
                    vec![dim(format!("router: {} targeted", numbers::count(live.targeted_reads as f64)))],
                ),
                Chunk::new(
                    " · ",
                    vec![dim(format!("{} broadcast", numbers::count(live.broadcast_reads as f64)))],
                ),
            ];
            if live.prefix_reads > 0 {
                let prefix = format!("{} by prefix", numbers::count(live.prefix_reads as f64));
                chunks.push(Chunk::new(" · ", vec![dim(prefix)]));
            }
            chunks
        };
        lines.push(one_line(router, width));
        lines
    }

    /// The lines `compare_lines` takes: a header, a row a shard, the balancer and the router.
    pub fn compare_height(sharding: &Sharding) -> u16 {
        u16::try_from(sharding.shards).unwrap_or(u16::MAX).saturating_add(3)
    }

    /// One row a shard under a row of headers, the `wanted` columns in their order while they
    /// fit; before the replay every figure is pending. The workbench's table has the jumbo
    /// column only when a range is jumbo.
    fn table(&self, width: usize, wanted: &[Column]) -> Vec<Line<'static>> {
        let t = self.theme;
        let names: Vec<String> = match self.live {
            Some(live) => live.shards.iter().map(|x| x.shard.clone()).collect(),
            None => (0..self.sharding.shards).map(|i| format!("shard{i}")).collect(),
        };
        // Each column's cells, header first, as wide as its widest.
        let mut columns: Vec<(Column, Vec<String>, usize)> = Vec::new();
        let mut used = names.iter().map(|n| width_of(n)).max().unwrap_or(0);
        for &column in wanted {
            let mut cells = vec![column.header().to_owned()];
            match self.live {
                Some(live) => cells.extend(live.shards.iter().map(|x| column.figure(x))),
                None => cells.extend(names.iter().map(|_| PENDING.to_owned())),
            }
            let w = cells.iter().map(|c| width_of(c)).max().unwrap_or(0);
            if used + GAP.len() + w > width {
                break;
            }
            used += GAP.len() + w;
            columns.push((column, cells, w));
        }
        let name_width = names.iter().map(|n| width_of(n)).max().unwrap_or(0);
        let hot = self.live.and_then(hot).map(|h| h.shard.clone());
        let mut lines = Vec::new();
        for row in 0..=names.len() {
            let name = if row == 0 { String::new() } else { names[row - 1].clone() };
            let mut spans = vec![Span::styled(format!("{name:<name_width$}"), t.header())];
            for (column, cells, w) in &columns {
                let cell = format!("{GAP}{:>w$}", cells[row]);
                let style = match column {
                    _ if row == 0 => t.dim(),
                    Column::Inserts if hot.as_deref() == Some(name.as_str()) => t.bad(),
                    Column::Jumbo if cells[row] != "0" => t.bad(),
                    _ => ratatui::style::Style::new(),
                };
                spans.push(Span::styled(cell, style));
            }
            lines.push(Line::from(spans));
        }
        lines
    }
}

/// What the compare view says for a run that shards no collection.
pub const UNSHARDED: &str = "no collection sharded";

/// The shard whose share of the inserts an even spread would not give by chance: more than
/// three standard deviations of a binomial share (each insert landing on one of n shards with
/// chance 1/n) above 1/n — the three-sigma rule: a shard of an even spread passes it by chance
/// 0.13% of the time. A hashed key's busiest shard (33.4% of 120,000 inserts in `shard-keys`,
/// about half a deviation over) is not hot; an increasing key's (100%) is; and early in a replay
/// a shard ahead is hot only once there are inserts enough to tell.
fn hot(live: &ShardsReport) -> Option<&ShardReport> {
    let even = 1.0 / live.shards.len().max(1) as f64;
    let deviation = (even * (1.0 - even) / live.inserts.max(1) as f64).sqrt();
    live.hottest_for_inserts().filter(|h| live.inserts > 0 && h.share_of_inserts > even + 3.0 * deviation)
}

impl Widget for ShardsPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(usize::from(area.width.saturating_sub(2)));
        text(lines, block(Panel::Shards, self.focused, self.theme), self.scroll, area, buf);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::style::Modifier;

    use super::*;
    use crate::engine::model::EntityId;
    use crate::engine::profile::sharding::Strategy;

    const MB: u64 = 1 << 20;

    /// Orders sharded across 3 shards by their creation time, as `shard-keys` naive.
    fn orders_by_time() -> Sharding {
        Sharding {
            entity: "Order".to_owned(),
            entity_id: EntityId::new(0),
            shards: 3,
            strategy: Strategy::Ranged,
            range_bytes: MB,
        }
    }

    /// The panel of `sharding` over the replay's figures `live`, unfocused.
    fn panel<'a>(sharding: &'a Sharding, live: Option<&'a ShardsReport>) -> ShardsPanel<'a> {
        ShardsPanel {
            sharding,
            key: "{created_at}",
            live,
            focused: false,
            scroll: 0,
            theme: Theme::new(crate::tui::theme::Palette::Dark, None),
        }
    }

    /// The case: (what it shows, the replay's figures, the panel's inner width, the lines, the
    /// shards whose share of the inserts is highlighted).
    type Case<'a> = (&'a str, Option<&'a ShardsReport>, usize, &'a [&'a str], &'a [&'a str]);

    /// A collection of three shards, each given as (inserts, documents, bytes, ranges, jumbo
    /// ranges), after two 1 MB migrations and `reads` targeted reads.
    fn report(shards: [(u64, u64, u64, u64, u64); 3], reads: u64) -> ShardsReport {
        let inserts: u64 = shards.iter().map(|s| s.0).sum();
        let shards: Vec<ShardReport> = shards
            .iter()
            .enumerate()
            .map(|(i, &(n, documents, bytes, ranges, jumbo_ranges))| ShardReport {
                shard: format!("shard{i}"),
                documents,
                bytes,
                inserts: n,
                updates: 0,
                share_of_writes: n as f64 / inserts as f64,
                share_of_inserts: n as f64 / inserts as f64,
                reads: 0,
                share_of_reads: 0.0,
                peak_writes_per_tick: 0,
                ranges,
                jumbo_ranges,
            })
            .collect();
        ShardsReport {
            collection: "Order".to_owned(),
            shard_key: "{created_at}".to_owned(),
            strategy: "ranged".to_owned(),
            range_bytes: MB,
            migration_threshold_bytes: 3 * MB,
            balancer_round_s: 10,
            ranges: shards.iter().map(|s| s.ranges).sum(),
            jumbo_ranges: shards.iter().map(|s| s.jumbo_ranges).sum(),
            inserts,
            hottest_share_of_inserts: shards.iter().map(|s| s.share_of_inserts).fold(0.0, f64::max),
            targeted_reads: reads,
            prefix_reads: 0,
            broadcast_reads: 0,
            hottest_share_of_reads: 0.0,
            migrations: 2,
            migrated_bytes: 2 * MB,
            shards,
        }
    }

    fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    /// The shards whose share of the inserts is drawn as bad (bold, with or without colour).
    fn highlighted(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.spans.get(1).is_some_and(|s| s.style.add_modifier.contains(Modifier::BOLD)))
            .map(|l| l.spans[0].content.trim().to_owned())
            .collect()
    }

    fn check(cases: &[Case<'_>]) {
        let sharding = orders_by_time();
        for &(case, live, width, want, hot) in cases {
            let panel = panel(&sharding, live);
            let lines = panel.lines(width);
            let got = plain(&lines);
            assert!(got.iter().all(|l| width_of(l) <= width), "{case}: {got:#?}");
            if !want.is_empty() {
                assert_eq!(got, want, "{case}");
            }
            assert_eq!(highlighted(&lines), hot, "{case}");
        }
    }

    /// Collapsed to one line: the busiest shard's share (drawn as bad only when hot), the
    /// migrations and the jumbo ranges; before the replay, the shards and the key.
    #[test]
    fn the_summary_names_the_busiest_shard_the_migrations_and_the_jumbo_ranges() {
        let sharding = orders_by_time();
        let hot = report([(120_000, 1, MB, 12, 0), (0, 1, MB, 10, 0), (0, 0, 0, 1, 0)], 0);
        let even = report([(40_080, 1, MB, 4, 0), (39_960, 1, MB, 4, 0), (39_960, 1, MB, 4, 0)], 0);
        let jumbo = report([(69_360, 1, MB, 2, 2), (24_000, 1, MB, 2, 1), (26_640, 1, MB, 1, 0)], 0);
        let none = report([(0, 0, 0, 1, 0); 3], 0);
        let cases = [
            (None, "3 shards by ranged {created_at}", false),
            (Some(&hot), "shard0 100% of inserts · 2 migrations", true),
            (Some(&even), "shard0 33.4% of inserts · 2 migrations", false),
            (Some(&jumbo), "shard0 57.8% of inserts · 2 migrations · 3 jumbo", true),
            (Some(&none), "no inserts yet · 2 migrations", false),
        ];
        for (live, want, marked) in cases {
            let panel = panel(&sharding, live);
            let line = one_line(panel.summary(), 80);
            assert_eq!(plain(std::slice::from_ref(&line)), [want]);
            let bold = line.spans[0].style.add_modifier.contains(Modifier::BOLD);
            assert_eq!(bold, marked, "{want}");
            // Narrow (the folded row at 80x24 leaves it 15 columns), the share stays whole.
            let narrow = plain(&[one_line(panel.summary(), 15)]);
            assert!(want.starts_with(narrow[0].split(" · ").next().unwrap()), "{narrow:?}");
        }
    }

    /// Compare's lines: always `compare_height` of them, the jumbo column second so a narrow side
    /// keeps it, and the balancer and the router one line each, leaving out what comes last.
    #[test]
    fn compare_lines_keep_their_count_and_the_jumbo_ranges_at_any_width() {
        let sharding = orders_by_time();
        let mut hot =
            report([(120_000, 40_000, 21 * MB, 12, 0), (0, 40_000, 21 * MB, 10, 0), (0, 0, 0, 1, 0)], 0);
        hot.broadcast_reads = 18_000;
        let jumbo = report(
            [
                (69_360, 69_360, 34 * MB, 2, 2),
                (24_000, 24_000, 9 * MB, 2, 1),
                (26_640, 26_640, 10 * MB, 1, 0),
            ],
            36_000,
        );
        let cases: [(Option<&ShardsReport>, usize, &[&str]); 4] = [
            (
                None,
                38,
                &[
                    "        inserts  jumbo  ranges  size",
                    "shard0        —      —       —     —",
                    "shard1        —      —       —     —",
                    "shard2        —      —       —     —",
                    "balancer: —",
                    "router: —",
                ],
            ),
            (
                Some(&hot),
                38,
                &[
                    "        inserts  jumbo  ranges   size",
                    "shard0     100%      0      12  21 MB",
                    "shard1       0%      0      10  21 MB",
                    "shard2       0%      0       1    0 B",
                    "balancer: 2 migrations, 2 MB",
                    "router: 0 targeted · 18,000 broadcast",
                ],
            ),
            (
                Some(&jumbo),
                58,
                &[
                    "        inserts  jumbo  ranges   size    docs",
                    "shard0    57.8%      2       2  34 MB  69,360",
                    "shard1      20%      1       2   9 MB  24,000",
                    "shard2    22.2%      0       1  10 MB  26,640",
                    "balancer: 2 migrations, 2 MB · at 3 MB apart",
                    "router: 36,000 targeted · 0 broadcast",
                ],
            ),
            (
                Some(&jumbo),
                22,
                &[
                    "        inserts  jumbo",
                    "shard0    57.8%      2",
                    "shard1      20%      1",
                    "shard2    22.2%      0",
                    "balancer: 2 migrations",
                    "router: 36,000 target…",
                ],
            ),
        ];
        for (live, width, want) in cases {
            let panel = panel(&sharding, live);
            let got = plain(&panel.compare_lines(width));
            assert_eq!(got.len(), usize::from(ShardsPanel::compare_height(&sharding)), "{got:#?}");
            assert!(got.iter().all(|l| width_of(l) <= width), "{got:#?}");
            assert_eq!(got, want, "at {width}");
        }
    }

    #[test]
    fn before_the_replay_every_figure_waits() {
        check(&[(
            "before the replay",
            None,
            40,
            &[
                "        inserts  size  ranges  docs",
                "shard0        —     —       —     —",
                "shard1        —     —       —     —",
                "shard2        —     —       —     —",
                "balancer: —",
                "Order by ranged {created_at}",
                "  range size 1 MB",
            ],
            &[],
        )]);
    }

    #[test]
    fn a_shard_past_an_even_share_by_more_than_chance_stands_out_and_so_do_jumbo_ranges() {
        let hot =
            report([(120_000, 40_000, 21 * MB, 12, 0), (0, 40_000, 21 * MB, 10, 0), (0, 0, 0, 1, 0)], 0);
        let even =
            report([(40_080, 40_080, MB, 4, 0), (39_960, 39_960, MB, 4, 0), (39_960, 39_960, MB, 4, 0)], 500);
        // Ahead by 10 points after 30 inserts: chance, not yet a hot shard.
        let early = report([(13, 13, 7_000, 1, 0), (9, 9, 5_000, 1, 0), (8, 8, 4_000, 1, 0)], 0);
        let jumbo = report(
            [
                (69_360, 69_360, 34 * MB, 2, 2),
                (24_000, 24_000, 9 * MB, 2, 1),
                (26_640, 26_640, 10 * MB, 1, 0),
            ],
            0,
        );
        check(&[
            (
                "an increasing key",
                Some(&hot),
                80,
                &[
                    "        inserts   size  ranges    docs",
                    "shard0     100%  21 MB      12  40,000",
                    "shard1       0%  21 MB      10  40,000",
                    "shard2       0%    0 B       1       0",
                    "balancer: 2 migrations, 2 MB · at 3 MB apart",
                    "Order by ranged {created_at} · range size 1 MB",
                ],
                &["shard0"],
            ),
            (
                "an even spread, read by the key, narrow",
                Some(&even),
                22,
                &[
                    "        inserts  size",
                    "shard0    33.4%  1 MB",
                    "shard1    33.3%  1 MB",
                    "shard2    33.3%  1 MB",
                    "balancer: 2 migrations",
                    "  2 MB · at 3 MB apart",
                    "router: 500 targeted",
                    "  0 to every shard",
                    "Order",
                    "by ranged {created_at}",
                    "  range size 1 MB",
                ],
                &[],
            ),
            ("a shard ahead by chance", Some(&early), 80, &[], &[]),
            (
                "jumbo ranges",
                Some(&jumbo),
                80,
                &[
                    "        inserts   size  ranges  jumbo    docs",
                    "shard0    57.8%  34 MB       2      2  69,360",
                    "shard1      20%   9 MB       2      1  24,000",
                    "shard2    22.2%  10 MB       1      0  26,640",
                    "balancer: 2 migrations, 2 MB · at 3 MB apart",
                    "3 jumbo ranges: one key value past 1 MB: cannot split or move",
                    "Order by ranged {created_at} · range size 1 MB",
                ],
                &["shard0"],
            ),
        ]);
    }
}

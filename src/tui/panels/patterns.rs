//! The Access patterns panel: how the variant's keys serve each pattern (the planner's static
//! verdict: the operation that serves it — `GetItem`, `Query fan-out ×N` — or `✘ Scan`,
//! `✘ unserved`) and, once a replay runs, its calls, units per call and modelled p99 against the
//! pattern's target.
//!
//! A read behind the variant's read-through cache says so with its predicted hit ratio
//! (`GetItem · cached 97%`).
//!
//! The operation is written without a ✔: beside a p99 over its target a tick read as "passing",
//! when all it meant was "a key serves this". Patterns that need attention come first, so the one
//! that matters is never below the fold; rows that do not fit are counted in a `+N more` line.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Chunk, PENDING, block, flow};
use crate::engine::model::{Engine, Scenario};
use crate::engine::planner::{Kind, Operation, PatternPlan, Plan, numbers, verb};
use crate::tui::action::Panel;
use crate::tui::theme::Theme;
#[cfg(test)]
use crate::tui::view::Cost;
use crate::tui::view::{P99, PatternRow};

/// The verdict as the panel writes it, in the store's own words: `Query fan-out ×2 on
/// by-status`, `✘ Scan`, `✘ unserved` on DynamoDB; `SELECT ×2 partitions on view by-status`,
/// `✘ full scan` in CQL; `point read`, `query on prefix [tenant_id] · ~1/10 partitions`,
/// `✘ cross-partition query` on Cosmos DB; `find`, `✘ find (collection scan)` on MongoDB.
/// `true` when the keys serve the pattern.
pub fn verdict(p: &PatternPlan, engine: Engine) -> (bool, String) {
    let language = engine.profile().language;
    let cql = engine.profile().cql();
    let on = match &p.index {
        Some(view) if cql => format!(" on view {}", view.name()),
        Some(index) => format!(" on {}", index.name()),
        None => String::new(),
    };
    let name = |op: Operation| verb(language, op);
    match p.operation {
        Some(Operation::Scan) if cql => (false, format!("✘ full scan{on}")),
        Some(Operation::Scan) => (false, format!("✘ {}{on}", name(Operation::Scan))),
        None => (false, "✘ unserved".to_owned()),
        Some(op) if !p.served() => (false, format!("✘ {}{on}", name(op))),
        Some(op) => {
            // A hierarchical key's prefix: the physical partitions holding it, out of the
            // container's at the start when the plan knows them (`~1/10`: short enough for
            // the panel's width at 120 columns).
            let prefix = p.key_prefix().map(|prefix| {
                let given = prefix.given.join(", ");
                match prefix.of {
                    Some(of) => format!(" on prefix [{given}] · ~{}/{of} partitions", p.fanout),
                    None if p.fanout == 1 => format!(" on prefix [{given}] · ~1 partition"),
                    None => format!(" on prefix [{given}] · ~{} partitions", p.fanout),
                }
            });
            let fanout = match p.fanout {
                _ if !p.parts.is_empty() => String::new(),
                _ if prefix.is_some() => prefix.unwrap_or_default(),
                n if n > 1 && cql => format!(" ×{n} partitions"),
                n if n > 1 => format!(" fan-out ×{n}"),
                _ => String::new(),
            };
            let op = if p.parts.is_empty() { name(op).to_owned() } else { p.requests(name) };
            // The planner counts writes beyond the base item; the panel shows all items written.
            let writes = match p.write_amplification {
                Some(extra) if p.kind == Kind::Write && extra > 1e-9 => {
                    format!(" → {} {}", numbers::factor(1.0 + extra), engine.words().item.many)
                }
                _ => String::new(),
            };
            // A read behind the variant's read-through cache: the share of calls it answers.
            let cache = match &p.cache {
                Some(c) if c.applies => format!(" · cached {}", numbers::percent(c.hit_ratio)),
                Some(_) => " · cache unused".to_owned(),
                None => String::new(),
            };
            (true, format!("{op}{fanout}{on}{writes}{cache}"))
        }
    }
}

/// What a pattern's row asks of the reader, most urgent first: the panel's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Urgency {
    /// Nothing serves it, its keys cannot, or its measured p99 misses the target.
    Failing,
    /// A Scan serves it: every call reads the whole table.
    Scan,
    /// A call needs more than one request.
    FanOut,
    Fine,
}

pub fn urgency(p: &PatternPlan, p99: P99, target_ms: Option<f64>) -> Urgency {
    let late = p99.misses(target_ms);
    match p.operation {
        None => Urgency::Failing,
        Some(_) if late => Urgency::Failing,
        Some(Operation::Scan) => Urgency::Scan,
        Some(_) if !p.served() => Urgency::Failing,
        Some(_) if p.fanout > 1 => Urgency::FanOut,
        Some(_) => Urgency::Fine,
    }
}

/// The plan's patterns (indices) in the order the panel lists them: by urgency, then as the
/// scenario lists them. `targets` is by plan index; `live` is matched by name.
pub fn order(plan: &Plan, targets: &[Option<f64>], live: &[PatternRow]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..plan.patterns.len()).collect();
    // `sort_by_key` is stable: equal urgencies keep the scenario's order.
    order.sort_by_key(|&i| {
        let p = &plan.patterns[i];
        let p99 = live.iter().find(|l| l.name == p.name).map_or(P99::Pending, |l| l.p99);
        urgency(p, p99, targets.get(i).copied().flatten())
    });
    order
}

/// How the panel's rows fill `room` lines, scrolled past `skip` patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    /// Lines drawn from the first pattern shown on (the last pattern may be cut after its name:
    /// the verdict matters more than the figures under it).
    pub lines: usize,
    /// Patterns below the fold or cut short.
    pub below: usize,
    /// Whether the last line is the `+N more` note.
    pub note: bool,
}

/// Lays out patterns `heights` lines tall (in display order) in `room` lines from pattern `skip`.
pub fn fit(heights: &[usize], skip: usize, room: usize) -> Fit {
    let rest = &heights[skip.min(heights.len())..];
    let total: usize = rest.iter().sum();
    if skip == 0 && total <= room {
        return Fit { lines: total, below: 0, note: false };
    }
    let lines = total.min(room.saturating_sub(1));
    let mut end = 0;
    let whole = rest
        .iter()
        .take_while(|&&h| {
            end += h;
            end <= lines
        })
        .count();
    Fit { lines, below: rest.len() - whole, note: room > 0 }
}

/// The furthest the panel scrolls in `room` lines: the first pattern from which the rest fit
/// beside the note line, 0 when every pattern fits. Past it the panel would show blank lines and
/// "N above ↑" — what a terminal grown after scrolling used to show.
pub fn last_skip(heights: &[usize], room: usize) -> usize {
    let mut rest: usize = heights.iter().sum();
    if rest <= room {
        return 0;
    }
    let room = room.saturating_sub(1);
    for (skip, h) in heights.iter().enumerate() {
        if rest <= room {
            return skip;
        }
        rest -= h;
    }
    heights.len().saturating_sub(1)
}

/// Latency targets by pattern, in the plan's order, as the panel takes them.
pub fn targets(plan: &Plan, scenario: &Scenario) -> Vec<Option<f64>> {
    plan.patterns
        .iter()
        .map(|p| scenario.patterns.get(p.pattern.index()).and_then(|s| s.latency_target_ms))
        .collect()
}

/// What the panel says while the variant is being planned (on a thread of its own: the verdicts
/// shown before are another variant's, or the variant's before its edit).
pub const PLANNING: &str = "planning the access patterns…";

pub struct PatternsPanel<'a> {
    /// `None` while the variant is being planned.
    pub plan: Option<&'a Plan>,
    /// Latency targets by pattern, in the plan's order.
    pub targets: &'a [Option<f64>],
    pub live: &'a [PatternRow],
    pub focused: bool,
    /// Patterns scrolled past (the panel scrolls a pattern at a time).
    pub scroll: u16,
    pub theme: Theme,
}

impl PatternsPanel<'_> {
    /// The furthest `scroll` goes when the panel is drawn in `area` (see [`last_skip`]).
    pub fn last_scroll(&self, area: Rect) -> u16 {
        let inner = block(Panel::Patterns, self.focused, self.theme).inner(area);
        if inner.width == 0 || inner.height == 0 {
            return 0;
        }
        let Some(plan) = self.plan else { return 0 };
        let width = usize::from(inner.width);
        let heights: Vec<usize> = order(plan, self.targets, self.live)
            .into_iter()
            .map(|i| self.entry(plan, i, width).len())
            .collect();
        u16::try_from(last_skip(&heights, usize::from(inner.height))).unwrap_or(u16::MAX)
    }

    /// One pattern's lines at `width` columns: its name and verdict, then its figures.
    fn entry(&self, plan: &Plan, i: usize, width: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let p = &plan.patterns[i];
        let (ok, verdict) = verdict(p, plan.engine);
        let mut lines = flow(
            vec![
                Chunk::new("", vec![Span::styled(p.name.clone(), t.header())]),
                Chunk::new(" ", vec![Span::styled(verdict, if ok { t.ok() } else { t.bad() })]),
            ],
            width,
            2,
        );
        let live = self.live.iter().find(|l| l.name == p.name);
        // Nothing per call before the first call.
        let per_call = live
            .filter(|l| l.calls > 0)
            .and_then(|l| l.cost)
            .map_or(PENDING.to_owned(), |cost| cost.describe(p.kind == Kind::Read));
        let calls = live.map_or(PENDING.to_owned(), |l| numbers::count(l.calls as f64));
        let p99 = live.map_or(P99::Pending, |l| l.p99);
        let target = self.targets.get(i).copied().flatten();
        let late = p99.misses(target);
        // The p99 call never completed: all that is known is that it took longer than this.
        let p99 = match p99 {
            P99::Pending => PENDING.to_owned(),
            P99::Ms(ms) => format!("{}ms", numbers::count(ms)),
            P99::NeverCompleted(ms) => format!("never completed (>{}ms)", numbers::count(ms)),
            P99::NotModelled => "not modelled (as rates)".to_owned(),
        };
        let target = target.map(|ms| format!("/{}ms", numbers::count(ms))).unwrap_or_default();
        let figures = vec![
            Chunk::new("", vec![Span::styled(format!("{calls} calls"), t.dim())]),
            Chunk::new(" · ", vec![Span::styled(format!("{per_call} each"), t.dim())]),
            Chunk::new(
                " · ",
                vec![
                    Span::styled("p99 ", t.dim()),
                    Span::styled(format!("{p99}{target}"), if late { t.bad() } else { t.dim() }),
                ],
            ),
        ];
        // The figures sit under the name, indented; their own continuations a little more.
        let inset = 2.min(width.saturating_sub(1));
        for mut line in flow(figures, width - inset, 2) {
            line.spans.insert(0, Span::raw(" ".repeat(inset)));
            lines.push(line);
        }
        lines
    }
}

impl Widget for PatternsPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let b = block(Panel::Patterns, self.focused, t);
        let inner = b.inner(area);
        b.render(area, buf);
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        let Some(plan) = self.plan else {
            Paragraph::new(Line::styled(PLANNING, t.dim())).render(inner, buf);
            return;
        };
        if plan.patterns.is_empty() {
            Paragraph::new(Line::styled("the scenario has no access patterns", t.dim())).render(inner, buf);
            return;
        }
        let width = usize::from(inner.width);
        let entries: Vec<Vec<Line<'static>>> =
            order(plan, self.targets, self.live).into_iter().map(|i| self.entry(plan, i, width)).collect();
        let heights: Vec<usize> = entries.iter().map(Vec::len).collect();
        let room = usize::from(inner.height);
        let skip = usize::from(self.scroll).min(last_skip(&heights, room));
        let Fit { lines: shown, below, note } = fit(&heights, skip, room);
        let mut lines: Vec<Line<'static>> = entries.into_iter().skip(skip).flatten().take(shown).collect();
        if note {
            let mut text = if below > 0 { format!("+{below} more ↓") } else { String::new() };
            if skip > 0 {
                let sep = if text.is_empty() { "" } else { " · " };
                text = format!("{text}{sep}{skip} above ↑");
            }
            lines.resize(room - 1, Line::raw(""));
            lines.push(Line::styled(super::ellipsize(&text, width), t.warn()));
        }
        Paragraph::new(lines).render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner;

    fn plan_of(scenario: &str, variant: &str) -> Plan {
        let loaded = crate::scenario::load(scenario).expect("bundled");
        let v = loaded.variant(Some(variant)).expect("the variant exists");
        planner::plan(&loaded.scenario, v)
    }

    fn names(plan: &Plan, order: &[usize]) -> Vec<String> {
        order.iter().map(|&i| plan.patterns[i].name.clone()).collect()
    }

    fn row(name: &str, p99: f64) -> PatternRow {
        PatternRow { name: name.to_owned(), calls: 10, cost: Some(Cost::Units(1.0)), p99: P99::Ms(p99) }
    }

    #[test]
    fn the_scan_comes_first_and_the_rest_keep_the_scenarios_order() {
        let plan = plan_of("orders", "naive");
        let targets = vec![None; plan.patterns.len()];
        let listed: Vec<String> = plan.patterns.iter().map(|p| p.name.clone()).collect();
        let shown = names(&plan, &order(&plan, &targets, &[]));
        assert_eq!(listed.last().map(String::as_str), Some("pending-orders"), "{listed:?}");
        assert_eq!(shown[0], "pending-orders");
        assert_eq!(shown[1..], listed[..listed.len() - 1], "stable otherwise");
        assert_eq!(order(&plan, &targets, &[]), order(&plan, &targets, &[]), "deterministic");
    }

    #[test]
    fn a_missed_latency_target_outranks_a_scan_and_a_fan_out_outranks_the_fine() {
        let plan = plan_of("orders", "naive");
        let targets: Vec<Option<f64>> = plan.patterns.iter().map(|_| Some(10.0)).collect();
        let late = &plan.patterns[2].name;
        let live = [row(late, 25.0), row(&plan.patterns[0].name, 3.0)];
        let shown = names(&plan, &order(&plan, &targets, &live));
        assert_eq!(shown[..2], [late.clone(), "pending-orders".to_owned()]);
        let sensors = plan_of("sensors", "recommended");
        let fanout: Vec<&str> =
            sensors.patterns.iter().filter(|p| p.fanout > 1).map(|p| p.name.as_str()).collect();
        let shown = names(&sensors, &order(&sensors, &vec![None; sensors.patterns.len()], &[]));
        assert!(!fanout.is_empty());
        assert_eq!(shown[..fanout.len()], fanout[..], "{shown:?}");
    }

    #[test]
    fn urgency_reads_the_verdict_and_the_measured_p99() {
        let plan = plan_of("orders", "naive");
        let scan = plan.patterns.iter().find(|p| p.name == "pending-orders").expect("orders has it");
        let get = plan.patterns.iter().find(|p| p.name == "get-customer").expect("orders has it");
        let cases = [
            (scan, P99::Pending, None, Urgency::Scan),
            (scan, P99::Ms(80.0), Some(50.0), Urgency::Failing),
            (get, P99::Ms(3.0), Some(10.0), Urgency::Fine),
            (get, P99::Ms(10.0), Some(10.0), Urgency::Fine),
            (get, P99::Ms(11.0), Some(10.0), Urgency::Failing),
            (get, P99::Pending, Some(10.0), Urgency::Fine),
            // The p99 call never completed: late whatever those that did took.
            (get, P99::NeverCompleted(3.0), Some(10.0), Urgency::Failing),
            (get, P99::NeverCompleted(3.0), None, Urgency::Fine),
        ];
        for (p, p99, target, want) in cases {
            assert_eq!(urgency(p, p99, target), want, "{} {p99:?}/{target:?}", p.name);
        }
    }

    #[test]
    fn fit_counts_what_does_not_show_and_keeps_a_line_for_the_note() {
        let f = |lines, below, note| Fit { lines, below, note };
        let cases: [(&[usize], usize, usize, Fit); 9] = [
            (&[2, 2, 2], 0, 6, f(6, 0, false)),
            // The third pattern's name shows; its figures do not.
            (&[2, 2, 2], 0, 6 - 1, f(4, 1, true)),
            (&[2, 2, 2], 0, 4, f(3, 2, true)),
            (&[3, 3, 3, 3], 0, 6, f(5, 3, true)),
            // Scrolled: the note says what is above even when the rest fits.
            (&[2, 2, 2], 1, 6, f(4, 0, true)),
            (&[2, 2, 2], 2, 6, f(2, 0, true)),
            (&[5, 2], 0, 3, f(2, 2, true)),
            (&[2, 2], 0, 0, f(0, 2, false)),
            (&[], 0, 3, f(0, 0, false)),
        ];
        for (heights, skip, room, want) in cases {
            assert_eq!(fit(heights, skip, room), want, "{heights:?} from {skip} in {room}");
        }
    }

    #[test]
    fn scrolling_stops_where_the_last_pattern_shows_and_a_taller_panel_needs_none() {
        let cases: [(&[usize], usize, usize); 7] = [
            (&[2, 2, 2], 6, 0),
            (&[2, 2, 2], 10, 0),
            // Scrolled, the note takes a line: the last two patterns need 5.
            (&[2, 2, 2], 5, 1),
            (&[2, 2, 2], 4, 2),
            (&[2, 2, 2], 2, 2),
            (&[3, 1, 1], 3, 1),
            (&[], 3, 0),
        ];
        for (heights, room, want) in cases {
            assert_eq!(last_skip(heights, room), want, "{heights:?} in {room}");
            // From the last skip on, the rest fits (or only the last pattern is left).
            let fit = fit(heights, want, room);
            assert!(fit.below == 0 || want + 1 == heights.len(), "{heights:?} in {room}: {fit:?}");
        }
    }

    #[test]
    fn served_patterns_name_their_operation_without_a_tick() {
        let naive = plan_of("orders", "naive");
        let verdicts: Vec<(bool, String)> =
            naive.patterns.iter().map(|p| verdict(p, Engine::DynamoDb)).collect();
        assert!(verdicts.iter().all(|(_, v)| !v.contains('✔')), "{verdicts:?}");
        assert!(verdicts.contains(&(true, "GetItem".to_owned())), "{verdicts:?}");
        assert!(verdicts.contains(&(false, "✘ Scan".to_owned())), "{verdicts:?}");
    }

    #[test]
    fn a_cached_read_says_so_with_its_predicted_hit_ratio() {
        // (variant, resolve's verdict)
        let cases = [("naive", "GetItem"), ("recommended", "GetItem · cached 94.4%")];
        for (variant, want) in cases {
            let plan = plan_of("practice-shortener", variant);
            let p = plan.patterns.iter().find(|p| p.name == "resolve").expect("a bundled pattern");
            assert_eq!(verdict(p, Engine::DynamoDb), (true, want.to_owned()), "{variant}");
        }
    }

    #[test]
    fn the_cassandra_profile_names_cql_statements() {
        // (scenario, variant, pattern, verdict)
        let cases = [
            ("sensors", "recommended", "record-reading", "INSERT"),
            ("sensors", "recommended", "monthly-report", "SELECT ×31 partitions"),
            ("sensors", "naive", "get-sensor", "SELECT"),
            ("chat", "naive", "my-conversations", "✘ full scan"),
            ("chat", "recommended", "my-conversations", "SELECT on view conversations_by_user"),
            ("chat", "recommended", "join-channel", "INSERT → 2 rows"),
        ];
        for (scenario, variant, pattern, want) in cases {
            let plan = plan_of(scenario, variant);
            let p = plan.patterns.iter().find(|p| p.name == pattern).expect("a bundled pattern");
            assert_eq!(verdict(p, Engine::Cassandra).1, want, "{scenario} {variant} {pattern}");
        }
    }

    /// On Cosmos DB and MongoDB the panel names each store's own requests, never DynamoDB's API.
    #[test]
    fn cosmos_db_and_mongodb_name_their_own_requests() {
        // (scenario, engine, pattern, its verdict, the verdict were it a Scan)
        let cases = [
            ("counters", Engine::CosmosDb, "like", "replace", "✘ cross-partition query"),
            ("counters", Engine::CosmosDb, "read-count", "point read", "✘ cross-partition query"),
            ("social-feed", Engine::MongoDb, "profile", "findOne", "✘ find (collection scan)"),
            (
                "social-feed",
                Engine::MongoDb,
                "user-posts",
                "find on posts-by-author",
                "✘ find (collection scan) on posts-by-author",
            ),
        ];
        for (scenario, engine, pattern, want, scan) in cases {
            let loaded = crate::scenario::load(scenario)
                .and_then(|l| l.on_engine(engine))
                .unwrap_or_else(|e| panic!("{scenario}: {e}"));
            let v = loaded.variant(Some("naive")).expect("a bundled variant");
            let plan = crate::engine::planner::plan(&loaded.scenario, v);
            let p = plan.patterns.iter().find(|p| p.name == pattern).expect("a bundled pattern");
            assert_eq!(verdict(p, engine), (true, want.to_owned()), "{scenario} on {engine}: {pattern}");
            let scanned = PatternPlan { operation: Some(Operation::Scan), ..p.clone() };
            assert_eq!(
                verdict(&scanned, engine),
                (false, scan.to_owned()),
                "{scenario} on {engine}: {pattern}"
            );
        }
    }
}

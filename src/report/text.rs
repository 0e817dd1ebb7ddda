//! Text reports for an 80-column terminal: tables with wrapped cells, then notes and warnings as
//! wrapped paragraphs. Widths count characters (every symbol used here is one column wide).

use std::io::{self, Write};

use super::check::{self, CheckReport};
use super::{ListEntry, verdict};
use crate::engine::model::{Engine, IndexKind, Scenario};
use crate::engine::planner::numbers;
use crate::engine::planner::{
    IndexId, Kind, Operation, PatternPlan, Unpredictable, cosmos_verb, cql_verb, mongo_verb,
};
use crate::engine::profile::{Language, Metering};

pub(super) const WIDTH: usize = 80;

/// Splits `text` into lines of at most `width` characters at spaces. A longer word breaks after a
/// hyphen when one fits (`channel-with-` / `messages`), else it is cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let sep = usize::from(used > 0);
            if used + sep + word.len() <= width {
                if sep == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            let cut = word[..width].iter().rposition(|c| *c == '-').map_or(width, |i| i + 1);
            let rest = word.split_off(cut);
            lines.push(word.iter().collect());
            word = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Pads or keeps `text` to `width` characters.
pub(super) fn pad(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// Writes one table row whose cells wrap within their columns.
pub(super) fn row(out: &mut impl Write, cells: &[(&str, usize)]) -> io::Result<()> {
    // A cell that fits keeps its own spacing (right-aligned numbers); longer ones wrap.
    let wrapped: Vec<Vec<String>> = cells
        .iter()
        .map(|(text, width)| {
            text.split('\n')
                .flat_map(|line| {
                    if line.chars().count() <= *width { vec![line.to_owned()] } else { wrap(line, *width) }
                })
                .collect()
        })
        .collect();
    let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
    for i in 0..height {
        let mut line = String::new();
        for (j, (lines, (_, width))) in wrapped.iter().zip(cells).enumerate() {
            let cell = lines.get(i).map_or("", String::as_str);
            if j + 1 == cells.len() {
                line.push_str(cell);
            } else {
                line.push_str(&pad(cell, *width));
                line.push(' ');
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// A bullet whose wrapped lines hang under its text, not under the bullet.
fn bullet(out: &mut impl Write, indent: usize, text: &str) -> io::Result<()> {
    for (i, line) in wrap(text, WIDTH - indent - 2).into_iter().enumerate() {
        let lead = if i == 0 { "· " } else { "  " };
        writeln!(out, "{}{lead}{line}", " ".repeat(indent))?;
    }
    Ok(())
}

pub(super) fn paragraph(out: &mut impl Write, indent: usize, text: &str) -> io::Result<()> {
    for line in wrap(text, WIDTH - indent) {
        writeln!(out, "{}{line}", " ".repeat(indent))?;
    }
    Ok(())
}

pub fn list(out: &mut impl Write, entries: &[ListEntry]) -> io::Result<()> {
    for (kind, heading) in [("scenario", "Scenarios"), ("practice", "Practice problems")] {
        let group: Vec<&ListEntry> = entries.iter().filter(|e| e.kind == kind).collect();
        if group.is_empty() {
            continue;
        }
        writeln!(out, "{heading}")?;
        // Names never wrap: the column is as wide as the longest name in the group.
        let name_width = group.iter().map(|e| e.name.chars().count()).max().unwrap_or(0) + 1;
        for e in group {
            let detail = format!("{} ({}; variants: {})", e.title, e.engine, e.variants.join(", "));
            row(out, &[("", 1), (&e.name, name_width), (&detail, WIDTH.saturating_sub(name_width + 3))])?;
        }
        writeln!(out)?;
    }
    writeln!(out, "Run `keyheat check NAME` to see how each access pattern is served.")
}

/// How an index of this kind (`GSI`, `LSI`) is named in this engine's words: a Cassandra global
/// index is a materialized view.
pub(super) fn index_label(engine: Engine, kind: &str, name: &str) -> String {
    let kind = if kind == IndexKind::Global.short() { engine.words().global_index } else { kind };
    format!("{kind} {name}")
}

/// The table or an index, in this engine's words.
pub(super) fn place_label(engine: Engine, index: Option<&IndexId>) -> String {
    index.map_or_else(
        || engine.words().table.to_owned(),
        |id| index_label(engine, id.kind().short(), id.name()),
    )
}

/// The operation as the engine names it: DynamoDB's API, or the CQL statement.
fn operation_name(engine: Engine, op: Operation) -> &'static str {
    match engine.profile().language {
        Language::DynamoDbApi => op.name(),
        Language::Cql => match op {
            Operation::Scan => "SELECT (scan)",
            other => cql_verb(other),
        },
        Language::CosmosNoSql => cosmos_verb(op),
        Language::MongoDb => mongo_verb(op),
    }
}

/// "Query ×2" / "PutItem" / "unserved", then where on the next line.
pub(super) fn served_by(p: &PatternPlan, engine: Engine) -> String {
    if p.operation.is_none() {
        return "unserved".to_owned();
    }
    let requests = p.requests(|op| operation_name(engine, op));
    let fetch = if p.fetch.is_some() { " + fetch" } else { "" };
    let place = place_label(engine, p.index.as_ref());
    // A read-through cache answers part of the calls before the table sees them.
    let cache = match &p.cache {
        Some(c) if c.applies => format!("\ncache {} hits", numbers::percent(c.hit_ratio)),
        Some(_) => "\ncache unused".to_owned(),
        None => String::new(),
    };
    format!("{requests}{fetch}\n{place}{cache}")
}

pub(super) fn condition(p: &PatternPlan, engine: Engine) -> String {
    let mut parts = Vec::new();
    match engine.profile().language {
        // One `WHERE` clause tests a Cosmos DB query's key and filter alike.
        language @ Language::CosmosNoSql => {
            parts.extend(language.one_clause(p.key_condition.as_deref(), p.filter.as_deref()));
        }
        Language::DynamoDbApi | Language::MongoDb => {
            if let Some(k) = &p.key_condition {
                parts.push(k.clone());
            }
            if let Some(f) = &p.filter {
                parts.push(format!("filter: {f}"));
            }
        }
        Language::Cql => {
            let clauses: Vec<&str> = p.key_condition.iter().chain(&p.filter).map(String::as_str).collect();
            if !clauses.is_empty() {
                let filtering = if p.filter.is_some() { " ALLOW FILTERING" } else { "" };
                parts.push(format!("WHERE {}{filtering}", clauses.join(" AND ")));
            }
        }
    }
    if p.kind == Kind::Write && !p.writes.is_empty() {
        let items = p.items_written(engine);
        let noun = engine.words().item.of(items);
        parts.push(format!("{} {noun} written", numbers::factor(items)));
    }
    if parts.is_empty() { "—".to_owned() } else { parts.join("; ") }
}

/// "recent — Query ×2 on the table, ~1 RCU per call": what serves a pattern and what a call costs.
pub(super) fn headline(p: &PatternPlan, engine: Engine) -> String {
    if p.operation.is_none() {
        return format!("{} — unserved", p.name);
    }
    let requests = p.requests(|op| operation_name(engine, op));
    let fetch = if p.fetch.is_some() { " + fetch" } else { "" };
    let place = match &p.index {
        None => format!("the {}", engine.words().table),
        Some(id) => index_label(engine, id.kind().short(), id.name()),
    };
    let unknown = p.unpredictable.as_ref().is_some_and(|u| u.units);
    let cost = match (engine.profile().metering, p.kind) {
        (Metering::Units, Kind::Read) if unknown => ", ? RCU per call".to_owned(),
        (Metering::Units, Kind::Write) if unknown => ", ? WCU per call".to_owned(),
        (Metering::Units, Kind::Read) => format!(", ~{} RCU per call", numbers::count(p.units_per_call)),
        (Metering::Units, Kind::Write) => {
            // A write that reads its key first spends read units too.
            let first = p.locate.as_ref().filter(|l| l.operation.is_some());
            let read =
                first.map_or(String::new(), |l| format!(" + ~{} RCU", numbers::count(l.units_per_call)));
            format!(", {} WCU{read} per call", numbers::factor(p.units_per_call))
        }
        (Metering::Operations, Kind::Read) => {
            format!(", ~{} read per call", numbers::bytes(p.bytes_read.unwrap_or(0.0)))
        }
        (Metering::Operations, Kind::Write) => String::new(),
        (Metering::RequestUnits, _) if unknown => ", ? RU per call".to_owned(),
        (Metering::RequestUnits, _) => format!(", ~{} RU per call", numbers::count(p.units_per_call)),
    };
    format!("{} — {requests}{fetch} on {place}{cost}", p.name)
}

/// "items and units per call": what a `?` stands for.
pub(super) fn unknown_figures(u: &Unpredictable) -> &'static str {
    match (u.items, u.units) {
        (true, true) => "items and units per call",
        (true, false) => "items per call",
        _ => "units per call",
    }
}

pub fn check(out: &mut impl Write, scenario: &Scenario, report: &CheckReport<'_>) -> io::Result<()> {
    let plan = report.plan;
    let engine = scenario.engine;
    paragraph(
        out,
        0,
        &format!("{} — {} (variant {}, {engine})", scenario.name, scenario.title, plan.variant),
    )?;
    if let Some(v) = scenario.variant(&plan.variant)
        && !v.description.is_empty()
    {
        paragraph(out, 2, &v.description)?;
    }
    writeln!(out)?;
    if report.practice.is_some() {
        practice(out, scenario, report)?;
    }
    writeln!(out, "Keys")?;
    for layout in &plan.layouts {
        let place = layout
            .index
            .as_deref()
            .map_or_else(|| layout.entity.clone(), |i| format!("{} in {i}", layout.entity));
        row(out, &[("", 1), (&place, 16), (&layout.key, WIDTH - 19)])?;
    }
    writeln!(out)?;
    writeln!(out, "Access patterns")?;
    // The operation column fits its longest name (TransactWriteItems is one longer than most).
    let served = plan
        .patterns
        .iter()
        .filter_map(|p| p.operation)
        .map(|o| o.name().chars().count())
        .fold(17, usize::max)
        .min(20);
    let widths = [1, 16, 8, served, WIDTH - 1 - 16 - 8 - served - 4];
    row(
        out,
        &[
            ("", widths[0]),
            ("pattern", widths[1]),
            ("mean/s", widths[2]),
            ("served by", widths[3]),
            ("key condition / fan-out", widths[4]),
        ],
    )?;
    for p in &plan.patterns {
        let mark = if p.served() { "✔" } else { "✘" };
        let rate = format!("{:>8}", numbers::rate(p.mean_rate));
        let mut cond = condition(p, engine);
        let flagged = check::flags(plan, p.pattern);
        if !flagged.is_empty() {
            cond = format!("{cond} ⚠ {}", flagged.join(", "));
        }
        row(
            out,
            &[
                (mark, widths[0]),
                (&p.name, widths[1]),
                (&rate, widths[2]),
                (&served_by(p, engine), widths[3]),
                (&cond, widths[4]),
            ],
        )?;
    }
    writeln!(out)?;
    writeln!(out, "How each pattern is served")?;
    for p in &plan.patterns {
        paragraph(out, 2, &headline(p, engine))?;
        paragraph(out, 4, &p.verdict.to_string())?;
        if let Some(u) = &p.unpredictable {
            paragraph(out, 4, &format!("? {}: {}", unknown_figures(u), u.why))?;
        }
        if let Some(c) = &p.condition {
            paragraph(out, 4, &format!("condition {}: {}", c.expression, c.why))?;
        }
        if let Some(c) = &p.claim {
            paragraph(out, 4, &format!("claim {}: {}", c.expression, c.why))?;
        }
        if let Some(l) = p.locate.as_ref().filter(|l| l.operation.is_some()) {
            paragraph(out, 4, &format!("reads first: {}", l.verdict))?;
        }
        if let Some(c) = &p.cache {
            paragraph(out, 4, &format!("cache: {}", c.why))?;
        }
        for a in &p.alternatives {
            bullet(out, 4, &format!("{}: {}", place_label(engine, a.index.as_ref()), a.considered))?;
        }
    }
    writeln!(out)?;
    if plan.warnings.is_empty() {
        writeln!(out, "No warnings.")?;
    } else {
        writeln!(out, "Warnings ({})", plan.warnings.len())?;
        for w in &plan.warnings {
            paragraph(out, 2, &format!("⚠ {} — {}", w.code.id(), w.subject))?;
            paragraph(out, 4, &w.to_string())?;
        }
    }
    goals(out, report)
}

/// A practice problem's prompt, its numbered hints and how an answer is graded; never its
/// solution.
fn practice(out: &mut impl Write, scenario: &Scenario, report: &CheckReport<'_>) -> io::Result<()> {
    let Some(p) = &report.practice else { return Ok(()) };
    writeln!(out, "Practice")?;
    paragraph(out, 2, p.prompt)?;
    for (i, hint) in p.hints.iter().enumerate() {
        hanging(out, 2, &format!("Hint {}:", i + 1), hint)?;
    }
    paragraph(out, 2, &check::how_to_answer(scenario))?;
    writeln!(out)
}

/// Each goal with what the plan predicts for it, and the hint to read when it is predicted to fail.
fn goals(out: &mut impl Write, report: &CheckReport<'_>) -> io::Result<()> {
    writeln!(out)?;
    if report.goals.is_empty() {
        return writeln!(out, "Goals: none in this scenario");
    }
    paragraph(out, 0, &format!("Goals ({})", check::summary(&report.goals)))?;
    for g in &report.goals {
        hanging(out, 2, check::mark(g), &g.name)?;
        paragraph(out, 4, &check::detail(g))?;
        for related in &g.related {
            paragraph(out, 4, &format!("related warning above: ⚠ {related}"))?;
        }
        if g.predicted == Some(false)
            && let Some(hint) = &g.hint
        {
            let (link, own_line) = verdict::hint_link(hint);
            hanging(out, 4, "→", &link)?;
            if let Some(own_line) = own_line {
                paragraph(out, 6, &own_line)?;
            }
        }
    }
    Ok(())
}

/// `lead text…` with wrapped lines aligned under the text, not under the lead.
fn hanging(out: &mut impl Write, indent: usize, lead: &str, text: &str) -> io::Result<()> {
    let hang = indent + lead.chars().count() + 1;
    for (i, line) in wrap(text, WIDTH - hang).into_iter().enumerate() {
        let lead = if i == 0 { lead.to_owned() } else { " ".repeat(lead.chars().count()) };
        writeln!(out, "{}{lead} {line}", " ".repeat(indent))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner;
    use crate::scenario;

    /// Channels and their messages, read by channel and by author; two variants.
    const CHAT: &str = r#"(
        name: "chat", title: "Chat",
        entities: [(name: "Message", attributes: [
            (name: "channel_id", type: S, gen: Pick("channels")),
            (name: "sent_at", type: Time, gen: Now),
            (name: "author", type: S, gen: Pick("users")),
            (name: "body", type: S, gen: Payload(200)),
        ])],
        populations: [(name: "channels", count: 100, ids: "c{}"), (name: "users", count: 1000, ids: "u{}")],
        patterns: [
            (name: "post", action: Put, entity: "Message", given: ["channel_id"], rate: 1),
            (name: "channel-with-messages", action: List, entity: "Message", given: ["channel_id"], rate: 1),
            (name: "by-author", action: List, entity: "Message", given: ["author"], rate: 1),
            (name: "everything", action: List, entity: "Message", rate: 1),
        ],
        variants: [(name: "v", keys: {"Message": (pk: "C#{channel_id}", sk: "{sent_at}")}, indexes: [
            (name: "by-author", keys: {"Message": (pk: "{author}", sk: "{sent_at}")}),
            (name: "wide", keys: {"Message": (pk: "{author}")}, projection: KeysOnly),
            (name: "all", keys: {"Message": (pk: "ALL", sk: "{sent_at}")}, projection: KeysOnly),
        ])],
        workload: (duration: "1h", tick: "1s", seed: 1),
    )"#;

    fn render(source: &str) -> String {
        let loaded = scenario::parse("chat.ron", source).unwrap_or_else(|e| panic!("{e}"));
        let variant = &loaded.scenario.variants[0];
        let plan = planner::plan(&loaded.scenario, variant);
        let mut out = Vec::new();
        check(&mut out, &loaded.scenario, &CheckReport::new(&loaded.scenario, variant, &plan)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_check_report_shows_units_and_why_other_places_do_not_serve() {
        let text = render(CHAT);
        for line in text.lines() {
            assert!(line.chars().count() <= WIDTH, "{line:?}");
        }
        // Wrapped lines joined, so a phrase may cross a line end.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in [
            // Units per call, per pattern.
            "post — PutItem on the table, 4 WCU per call",
            "by-author — Query on GSI by-author, ~",
            // Why each other place does not serve, or costs more.
            "· table: its partition key C#{channel_id} needs channel_id, which the pattern does not give",
            "· GSI wide: also serves it (Query + fetch, ~",
            // A literal key named, not "takes only 1 values ()".
            "takes only 1 value (a literal key: every entry shares it)",
        ] {
            assert!(flat.contains(part), "{part:?} missing from\n{text}");
        }
        // A name breaks after a hyphen, not inside a word.
        assert!(text.contains("\n✔ channel-with-  ") && text.contains("\n  messages  "), "{text}");
        assert!(!text.contains("1 pages") && !text.contains("mes\n"), "{text}");
    }

    #[test]
    fn the_cassandra_profile_speaks_cql() {
        let source = CHAT.replace(r#"title: "Chat","#, r#"title: "Chat", engine: Cassandra,"#);
        let text = render(&source);
        for part in
            ["INSERT", "SELECT", "view by-author", "WHERE author = ?", "rows written", "read per call"]
        {
            assert!(text.contains(part), "{part:?} missing from\n{text}");
        }
        for dynamodb in ["PutItem", "GetItem", "Query", "RCU", "WCU", "GSI"] {
            assert!(!text.contains(dynamodb), "{dynamodb:?} in\n{text}");
        }
    }

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        let cases: [(&str, usize, &[&str]); 6] = [
            ("PK = :pk AND begins_with(SK, :prefix)", 20, &["PK = :pk AND", "begins_with(SK,", ":prefix)"]),
            ("", 10, &[""]),
            ("abcdefghij", 4, &["abcd", "efgh", "ij"]),
            ("a b", 3, &["a b"]),
            // A long name breaks after a hyphen, not mid-word.
            ("channel-with-messages", 16, &["channel-with-", "messages"]),
            ("by-time-after-author", 16, &["by-time-after-", "author"]),
        ];
        for (text, width, lines) in cases {
            assert_eq!(wrap(text, width), lines, "{text:?} at {width}");
        }
    }
}

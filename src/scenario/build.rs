//! From the file as written to the validated model: parses templates, durations, sizes and dates,
//! and checks every name against what the file declares. A problem is reported as a [`Problem`]
//! at a [`Path`] into the file; `scenario` turns the path into a line and column.

use std::collections::BTreeSet;

mod cache;
mod pattern;
mod variant;
mod views;

use super::file;
use super::source_map::Path;
use crate::engine::model::{self, AccessPattern, AttrType, Entity, Generator, Goal, GoalCheck};
use crate::engine::planner::numbers;
use crate::engine::profile::Language;
use crate::engine::retry::{self, RetryPolicy};
use crate::engine::time::{SimDuration, SimTime};
use crate::engine::workload::Popularity;

/// What is wrong, and where: `offset` is a byte offset inside the string at `path`.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub path: Path,
    pub offset: Option<usize>,
    pub message: String,
}

type Result<T> = std::result::Result<T, Problem>;

/// The largest population a file may declare (and the most members it may gain a day). A member
/// can own an item that the replay preloads and keeps in memory, about 500 bytes a member
/// (measured: 2,000,000 customers of `orders` took 1.1 GB), so ten million is a few GB; a key
/// space larger than that teaches nothing a smaller one does not.
const MAX_COUNT: f64 = 1e7;
/// The longest workload: 100 years.
const MAX_DURATION: SimDuration = SimDuration::from_secs(100 * 365 * 86_400);

fn problem(path: &Path, message: impl Into<String>) -> Problem {
    Problem { path: path.clone(), offset: None, message: message.into() }
}

/// "a, b, c" for messages, or "(none)".
fn listing<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() { "(none)".to_owned() } else { names.join(", ") }
}

fn unique<'a>(path: &Path, what: &str, names: impl IntoIterator<Item = (usize, &'a str)>) -> Result<()> {
    let mut seen = BTreeSet::new();
    for (i, name) in names {
        if name.is_empty() {
            return Err(problem(&path.index(i).field("name"), format!("a {what} needs a non-empty name")));
        }
        if !seen.insert(name) {
            return Err(problem(&path.index(i).field("name"), format!("two {what}s are named {name:?}")));
        }
    }
    Ok(())
}

/// A map gives each key once: of two entries with one key, ron's maps keep one silently.
/// The problem points at the second entry's key (`path.index(i)` of a map is its i-th key).
fn distinct_keys<V>(path: &Path, entries: &file::Entries<V>) -> Result<()> {
    let mut seen = BTreeSet::new();
    for (i, (key, _)) in entries.iter().enumerate() {
        if !seen.insert(key) {
            return Err(problem(
                &path.index(i),
                format!(
                    "{key:?} is given twice in this map; give each key once (the second would replace the first)"
                ),
            ));
        }
    }
    Ok(())
}

fn duration(path: &Path, text: &str) -> Result<SimDuration> {
    SimDuration::parse(text).map_err(|e| problem(path, e.to_string()))
}

/// `512B`, `4KB`, `100MB`, `10GB`: binary units, as DynamoDB's documented limits use them
/// (400 KB = 409,600 bytes).
pub fn parse_size(text: &str) -> Option<u64> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (digits, unit) = text.split_at(split);
    let factor: u64 = match unit.trim() {
        "B" => 1,
        "KB" => 1 << 10,
        "MB" => 1 << 20,
        "GB" => 1 << 30,
        "TB" => 1 << 40,
        _ => return None,
    };
    digits.parse::<u64>().ok()?.checked_mul(factor)
}

fn ratio(path: &Path, value: f64, what: &str) -> Result<f64> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(problem(path, format!("{what} must be between 0 and 1, found {value}")))
    }
}

/// The store a file's engine names.
pub fn engine_of(e: file::Engine) -> model::Engine {
    match e {
        file::Engine::DynamoDB => model::Engine::DynamoDb,
        file::Engine::Cassandra => model::Engine::Cassandra,
        file::Engine::CosmosDB => model::Engine::CosmosDb,
        file::Engine::MongoDB => model::Engine::MongoDb,
    }
}

/// Every store the file can be replayed on: its own `engine` first, then each one `engines`
/// lists, once.
fn engines(f: &file::Scenario) -> Result<Vec<model::Engine>> {
    let mut engines = vec![engine_of(f.engine)];
    for (i, &other) in f.engines.iter().enumerate() {
        let other = engine_of(other);
        if engines.contains(&other) {
            return Err(problem(
                &Path::root().field("engines").index(i),
                format!("{other} is listed already (as `engine` or earlier in `engines`)"),
            ));
        }
        engines.push(other);
    }
    Ok(engines)
}

/// Refuses a pattern's `transaction` on a store without transactions across partitions.
fn transactions(f: &file::Scenario, engine: model::Engine) -> Result<()> {
    let Some(i) = f.patterns.iter().position(|p| p.transaction) else { return Ok(()) };
    if engine.profile().transactions.is_some() {
        return Ok(());
    }
    Err(problem(
        &Path::root().field("patterns").index(i).field("transaction"),
        match engine.profile().language {
            Language::Cql => {
                "the Cassandra profile has no transactions across rows: a logged BATCH applies all or nothing eventually, but is not isolated, and a lightweight transaction (IF NOT EXISTS) covers one partition. Drop `transaction`"
            }
            _ => {
                "the Cosmos DB profile has no transactions across partitions: a transactional batch covers the items of one logical partition only (\"Transactional batch operations in Azure Cosmos DB\"). Drop `transaction`"
            }
        },
    ))
}

/// The scenario a file describes, replayed on `on` (its own `engine` when `None`). A store the
/// file does not list is the caller's to refuse: this builds for whichever it is given.
pub fn scenario(f: &file::Scenario, on: Option<model::Engine>) -> Result<model::Scenario> {
    let root = Path::root();
    if f.name.is_empty() {
        return Err(problem(&root.field("name"), "the scenario needs a non-empty name"));
    }
    unique(
        &root.field("populations"),
        "population",
        f.populations.iter().map(|p| p.name.as_str()).enumerate(),
    )?;
    let populations = f
        .populations
        .iter()
        .enumerate()
        .map(|(i, p)| population(&root.field("populations").index(i), model::PopulationId::new(i), p))
        .collect::<Result<Vec<_>>>()?;
    unique(&root.field("entities"), "entity", f.entities.iter().map(|e| e.name.as_str()).enumerate())?;
    let engines = engines(f)?;
    let engine = on.unwrap_or(engines[0]);
    let entities = f
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| {
            entity(&root.field("entities").index(i), model::EntityId::new(i), e, &populations, engine)
        })
        .collect::<Result<Vec<_>>>()?;
    let workload = workload(&root.field("workload"), &f.workload, engine)?;
    unique(&root.field("patterns"), "pattern", f.patterns.iter().map(|p| p.name.as_str()).enumerate())?;
    let mut patterns = f
        .patterns
        .iter()
        .enumerate()
        .map(|(i, p)| pattern::pattern(&root.field("patterns").index(i), p, &entities, &populations))
        .collect::<Result<Vec<_>>>()?;
    // Every name a pattern uses is checked: resolve them to ids, once.
    patterns.iter_mut().enumerate().for_each(|(i, p)| p.resolve(model::PatternId::new(i), &entities));
    transactions(f, engine)?;
    if f.variants.is_empty() {
        return Err(problem(&root.field("variants"), "a scenario needs at least one variant (a key design)"));
    }
    unique(&root.field("variants"), "variant", f.variants.iter().map(|v| v.name.as_str()).enumerate())?;
    let context = variant::Context {
        entities: &entities,
        populations: &populations,
        patterns: &patterns,
        duration: workload.duration,
        cql: engine.profile().cql(),
        engine,
    };
    let variants = f
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| variant::variant(&root.field("variants").index(i), v, &context))
        .collect::<Result<Vec<_>>>()?;
    let variant_names = || listing(variants.iter().map(|v| v.name.as_str()));
    let goals = f
        .goals
        .iter()
        .enumerate()
        .map(|(i, g)| goal(&root.field("goals").index(i), g, &patterns, engine))
        .collect::<Result<Vec<_>>>()?;
    let practice = match &f.practice {
        None => None,
        Some(p) => {
            if !variants.iter().any(|v| v.name == p.solution) {
                return Err(problem(
                    &root.field("practice").field("solution"),
                    format!("unknown variant {:?}; the variants are: {}", p.solution, variant_names()),
                ));
            }
            Some(model::Practice {
                prompt: p.prompt.clone(),
                hints: p.hints.clone(),
                solution: p.solution.clone(),
            })
        }
    };
    for (i, g) in f.goals.iter().enumerate() {
        hint_link(&root.field("goals").index(i).field("hint"), g.hint, practice.as_ref())?;
    }
    Ok(model::Scenario {
        name: f.name.clone(),
        title: f.title.clone(),
        story: f.story.clone(),
        lesson: f.lesson.clone(),
        engine,
        engines,
        entities,
        populations,
        patterns,
        variants,
        workload,
        goals,
        practice,
    })
}

fn population(path: &Path, id: model::PopulationId, p: &file::Population) -> Result<model::Population> {
    if !model::id_format_is_valid(&p.ids) {
        return Err(problem(
            &path.field("ids"),
            format!(
                "id format {:?} needs exactly one `{{}}` (or `{{:05}}` to zero-pad) where the number goes",
                p.ids
            ),
        ));
    }
    if !(p.growth_per_day.is_finite() && p.growth_per_day >= 0.0) {
        return Err(problem(&path.field("growth_per_day"), "growth_per_day must be a number ≥ 0"));
    }
    if let Some(popularity) = &p.popularity {
        popularity.validate().map_err(|e| problem(&path.field("popularity"), e.to_string()))?;
        fixed_members(&path.field("popularity"), popularity, p.count, &p.name)?;
    }
    if p.count as f64 > MAX_COUNT {
        return Err(problem(
            &path.field("count"),
            format!(
                "a population has at most {} members (each can own an item the replay keeps in memory); \
                 found {}",
                numbers::count(MAX_COUNT),
                numbers::count(p.count as f64)
            ),
        ));
    }
    if p.growth_per_day > MAX_COUNT {
        return Err(problem(
            &path.field("growth_per_day"),
            format!(
                "growth_per_day is at most {} members a day; found {}",
                numbers::count(MAX_COUNT),
                large(p.growth_per_day)
            ),
        ));
    }
    if p.count == 0 && p.growth_per_day == 0.0 {
        return Err(problem(
            &path.field("count"),
            "a population needs members: count > 0 or growth_per_day > 0",
        ));
    }
    let mut population = model::Population::new(id, p.name.clone(), p.count, p.ids.clone());
    population.popularity = p.popularity.clone().unwrap_or(Popularity::Uniform);
    population.growth_per_day = p.growth_per_day;
    population.guess = p.guess;
    Ok(population)
}

/// `Fixed(m)` always picks member m, which must exist: members are numbered from 0 to count - 1.
fn fixed_members(path: &Path, popularity: &Popularity, count: u64, population: &str) -> Result<()> {
    match popularity {
        Popularity::Fixed(member) if *member >= count => Err(problem(
            path,
            format!(
                "Fixed({member}) picks member {member}, but {population} has {count} member{} (numbered 0 to {})",
                if count == 1 { "" } else { "s" },
                count.saturating_sub(1)
            ),
        )),
        Popularity::Weighted(branches) => {
            for (_, branch) in branches {
                fixed_members(path, branch, count, population)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `g` ever writes `value` (for `equals` and `only_when`), and if not, what it writes.
fn produces(
    g: &Generator,
    value: &str,
    populations: &[model::Population],
) -> std::result::Result<(), String> {
    match g {
        Generator::Sometimes(_, inner) => produces(inner, value, populations),
        Generator::Text(text) if text == value => Ok(()),
        Generator::Text(text) => Err(format!("only {text:?}")),
        Generator::OneOf(choices) if choices.iter().any(|(v, _)| v == value) => Ok(()),
        Generator::States(states) if states.iter().any(|v| v == value) => Ok(()),
        Generator::States(states) => Err(format!(
            "one of the states {}",
            states.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ")
        )),
        Generator::OneOf(choices) => Err(format!(
            "one of {}",
            choices.iter().map(|(v, _)| format!("{v:?}")).collect::<Vec<_>>().join(", ")
        )),
        Generator::Chance(_) if matches!(value, "true" | "false") => Ok(()),
        Generator::Chance(_) => Err("\"true\" or \"false\"".to_owned()),
        Generator::Pick(members) | Generator::New(members) => {
            let p = &populations[members.id().index()];
            if model::parse_id(&p.id_format, value).is_some() {
                Ok(())
            } else {
                Err(format!("ids of {members} like {:?}", p.id(0)))
            }
        }
        Generator::Now | Generator::NowPlus(_) | Generator::Number(_) => {
            if crate::engine::number::Number::parse(value).is_ok() {
                Ok(())
            } else {
                Err("numbers".to_owned())
            }
        }
        Generator::Payload(_) => Ok(()),
        Generator::Nth(_) => match value.parse::<u64>() {
            Ok(n) if n >= 1 => Ok(()),
            _ => Err("whole numbers from 1".to_owned()),
        },
    }
}

/// `value` is one the attribute's generator can write; `what` names the comparison.
fn producible(
    path: &Path,
    attribute: &model::Attribute,
    value: &str,
    populations: &[model::Population],
    what: &str,
) -> Result<()> {
    produces(&attribute.generator, value, populations).map_err(|values| {
        problem(
            path,
            format!(
                "{what} {} = {value:?} never matches: the values of {} are {values}",
                attribute.name, attribute.name
            ),
        )
    })
}

fn entity(
    path: &Path,
    id: model::EntityId,
    e: &file::Entity,
    populations: &[model::Population],
    engine: model::Engine,
) -> Result<Entity> {
    let attrs = path.field("attributes");
    unique(&attrs, "attribute", e.attributes.iter().map(|a| a.name.as_str()).enumerate())?;
    let mut attributes = Vec::with_capacity(e.attributes.len());
    for (i, a) in e.attributes.iter().enumerate() {
        let ty = match a.ty {
            file::AttrType::S => AttrType::S,
            file::AttrType::N => AttrType::N,
            file::AttrType::Time => AttrType::Time,
            file::AttrType::B => AttrType::B,
            file::AttrType::Bool => AttrType::Bool,
        };
        let generator = generator(&attrs.index(i).field("gen"), &a.r#gen, ty, populations, engine)?;
        attributes.push(model::Attribute::new(a.name.clone(), ty, generator));
    }
    // Nth counts the items of one member: it names another attribute holding a member.
    for (i, a) in attributes.iter().enumerate() {
        let Generator::Nth(by) = &a.generator else { continue };
        let member = attributes.iter().find(|b| &b.name == by).map(|b| &b.generator);
        if !matches!(member, Some(Generator::Pick(_) | Generator::New(_))) {
            return Err(problem(
                &attrs.index(i).field("gen").index(0),
                format!(
                    "Nth({by:?}) numbers the items of one member: it needs an attribute of {} that holds a member (Pick or New); the attributes are: {}",
                    e.name,
                    listing(attributes.iter().map(|b| b.name.as_str()))
                ),
            ));
        }
    }
    let ids: Vec<(String, model::AttrId)> =
        attributes.iter().enumerate().map(|(i, a)| (a.name.clone(), model::AttrId::new(i))).collect();
    for a in &mut attributes {
        a.resolve(&ids);
    }
    Ok(Entity::new(id, e.name.clone(), e.upsert, attributes))
}

fn generator(
    path: &Path,
    g: &file::Generator,
    ty: AttrType,
    populations: &[model::Population],
    engine: model::Engine,
) -> Result<Generator> {
    let expect = |ok: bool, wanted: &str| {
        if ok {
            Ok(())
        } else {
            Err(problem(path, format!("this generator makes {wanted}, but the attribute's type is {ty}")))
        }
    };
    let population = |name: &str| {
        let Some(i) = populations.iter().position(|p| p.name == name) else {
            return Err(problem(
                path,
                format!(
                    "unknown population {name:?}; the populations are: {}",
                    listing(populations.iter().map(|p| p.name.as_str()))
                ),
            ));
        };
        let p = &populations[i];
        let numeric =
            p.id_format.trim_start_matches('{').starts_with(['}', ':']) && p.id_format.ends_with('}');
        expect(
            matches!(ty, AttrType::S) || (matches!(ty, AttrType::N) && numeric),
            "population ids (S, or N when the id format is only `{}`)",
        )?;
        Ok(model::Members::new(name.to_owned(), model::PopulationId::new(i)))
    };
    Ok(match g {
        file::Generator::Pick(name) => Generator::Pick(population(name)?),
        file::Generator::New(name) => Generator::New(population(name)?),
        file::Generator::Now => {
            expect(matches!(ty, AttrType::Time | AttrType::N), "a time")?;
            Generator::Now
        }
        file::Generator::NowPlus(text) => {
            expect(matches!(ty, AttrType::Time | AttrType::N), "a time")?;
            Generator::NowPlus(duration(&path.index(0), text)?)
        }
        file::Generator::Text(text) => {
            expect(matches!(ty, AttrType::S), "text (S)")?;
            Generator::Text(text.clone())
        }
        file::Generator::OneOf(choices) => {
            expect(matches!(ty, AttrType::S), "text (S)")?;
            if choices.is_empty() {
                return Err(problem(path, "OneOf needs at least one (value, weight) pair"));
            }
            for (i, (_, weight)) in choices.iter().enumerate() {
                if !(weight.is_finite() && *weight > 0.0) {
                    return Err(problem(
                        &path.index(0).index(i),
                        format!("weights must be > 0, found {weight}"),
                    ));
                }
            }
            Generator::OneOf(choices.clone())
        }
        file::Generator::Number(distribution) => {
            expect(matches!(ty, AttrType::N | AttrType::Time), "a number (N)")?;
            distribution.validate().map_err(|e| problem(&path.index(0), e.to_string()))?;
            Generator::Number(distribution.clone())
        }
        file::Generator::Payload(bytes) => {
            expect(matches!(ty, AttrType::S | AttrType::B), "filler (S or B)")?;
            payload_fits(path, *bytes, engine)?;
            Generator::Payload(*bytes)
        }
        file::Generator::Chance(p) => {
            expect(matches!(ty, AttrType::Bool), "a boolean")?;
            Generator::Chance(ratio(&path.index(0), *p, "a chance")?)
        }
        file::Generator::Nth(attribute) => {
            expect(matches!(ty, AttrType::N), "a whole number (N)")?;
            Generator::Nth(attribute.clone())
        }
        file::Generator::States(states) => {
            expect(matches!(ty, AttrType::S), "text (S)")?;
            states_in_order(path, states)?;
            Generator::States(states.clone())
        }
        file::Generator::Sometimes(_, inner) if on_every_item(inner).is_some() => {
            return Err(problem(&path.index(1), on_every_item(inner).unwrap_or_default()));
        }
        file::Generator::Sometimes(share, inner) => {
            let share = ratio(&path.index(0), *share, "the share of items")?;
            Generator::Sometimes(share, Box::new(generator(&path.index(1), inner, ty, populations, engine)?))
        }
    })
}

/// Why a generator cannot be `Sometimes`: every item needs its value.
/// A payload must fit in one item of the store the file is built for (DynamoDB 400 KB, Cosmos
/// DB 2 MB, MongoDB 16 MB). The Cassandra profile models no item limit; keyheat holds its
/// payloads to DynamoDB's 400 KB there (its own bound, so a generated row stays a size a real
/// table would take).
fn payload_fits(path: &Path, bytes: u32, engine: model::Engine) -> Result<()> {
    let size = |limit: usize| numbers::bytes(limit as f64);
    match engine.profile().item_limit {
        Some(limit) if bytes as usize > limit => Err(problem(
            path,
            format!("a payload of {bytes} bytes cannot fit in {engine}'s {} item limit", size(limit)),
        )),
        None if bytes as usize > crate::engine::value::MAX_ITEM_BYTES => Err(problem(
            path,
            format!(
                "a payload of {bytes} bytes is past the {} keyheat generates on {engine}, which has no item limit of its own",
                size(crate::engine::value::MAX_ITEM_BYTES)
            ),
        )),
        _ => Ok(()),
    }
}

fn on_every_item(g: &file::Generator) -> Option<&'static str> {
    match g {
        file::Generator::Nth(_) => Some(
            "Nth numbers every item of a member; it cannot be Sometimes (an item without its number would have no key)",
        ),
        file::Generator::States(_) => Some(
            "States is a lifecycle every item goes through; it cannot be Sometimes (an item without a state has nothing to advance)",
        ),
        _ => None,
    }
}

/// A lifecycle needs somewhere to go: two states or more, each named once and not empty.
fn states_in_order(path: &Path, states: &[String]) -> Result<()> {
    if states.len() < 2 {
        return Err(problem(
            path,
            "States needs at least two states in order (a value that never moves is Text(\"…\"))",
        ));
    }
    for (i, state) in states.iter().enumerate() {
        if state.is_empty() {
            return Err(problem(&path.index(0).index(i), "a state cannot be empty text"));
        }
        if states[..i].contains(state) {
            return Err(problem(
                &path.index(0).index(i),
                format!("{state:?} is listed twice: a lifecycle moves forward through distinct states"),
            ));
        }
    }
    Ok(())
}

/// A number as a user wrote it, or in scientific notation when it is too long to read (1e300).
fn large(x: f64) -> String {
    if x.abs() >= 1e15 { format!("{x:e}") } else { format!("{x}") }
}

fn unwrap_sometimes(g: &Generator) -> &Generator {
    match g {
        Generator::Sometimes(_, inner) => unwrap_sometimes(inner),
        other => other,
    }
}

fn workload(path: &Path, w: &file::Workload, engine: model::Engine) -> Result<model::Workload> {
    let total = duration(&path.field("duration"), &w.duration)?;
    let tick = duration(&path.field("tick"), &w.tick)?;
    if total == SimDuration::ZERO {
        return Err(problem(&path.field("duration"), "the workload's duration must be longer than 0s"));
    }
    if total > MAX_DURATION {
        return Err(problem(
            &path.field("duration"),
            format!("a workload lasts at most 100 years ({MAX_DURATION}); found {total}"),
        ));
    }
    if tick == SimDuration::ZERO || tick > total {
        return Err(problem(
            &path.field("tick"),
            format!("the tick must be longer than 0s and at most the duration ({total})"),
        ));
    }
    // The replay's rule for `--duration` too: a whole number of ticks.
    if let Err(e @ crate::engine::sim::SimError::NotWholeTicks { .. }) =
        crate::engine::sim::tick_count(tick, total)
    {
        return Err(problem(&path.field("duration"), e.to_string()));
    }
    let start = match &w.start {
        None => SimTime::EPOCH,
        Some(text) => SimTime::parse(text).map_err(|e| problem(&path.field("start"), e.to_string()))?,
    };
    let retry = match &w.retry {
        // Each store's own client by default: the Cosmos DB SDKs retry 429s their own way.
        None if engine.profile().request_units() => RetryPolicy::cosmos_sdk(),
        None => RetryPolicy::aws_java_v1_dynamodb(),
        Some(retry) => retry_policy(&path.field("retry"), retry)?,
    };
    Ok(model::Workload { duration: total, tick, seed: w.seed, start, retry })
}

fn retry_policy(path: &Path, retry: &file::Retry) -> Result<RetryPolicy> {
    match retry {
        file::Retry::Named(name) => RetryPolicy::named(name).ok_or_else(|| {
            let known: Vec<&str> = retry::NAMED.iter().map(|n| n.0).collect();
            problem(path, format!("unknown retry policy {name:?}; expected one of {}, or Custom(base_ms: …, cap_ms: …, retries: …, jitter: None | Equal | Full)", known.join(", ")))
        }),
        &file::Retry::Custom { base_ms, cap_ms, retries, ref jitter } => {
            if retries > retry::MAX_RETRIES_LIMIT {
                return Err(problem(
                    path,
                    format!("a client retries at most {} times here; found {retries}", retry::MAX_RETRIES_LIMIT),
                ));
            }
            if cap_ms < base_ms || cap_ms > 3_600_000 {
                return Err(problem(
                    path,
                    format!("cap_ms must be at least base_ms ({base_ms}) and at most an hour (3600000); found {cap_ms}"),
                ));
            }
            let jitter = match jitter {
                file::Jitter::None => retry::Jitter::None,
                file::Jitter::Equal => retry::Jitter::Equal,
                file::Jitter::Full => retry::Jitter::Full,
            };
            Ok(RetryPolicy { name: "custom".to_owned(), base_ms, cap_ms, max_retries: retries, jitter })
        }
    }
}

fn entity_named<'e>(path: &Path, entities: &'e [Entity], name: &str) -> Result<&'e Entity> {
    entities.iter().find(|e| e.name == name).ok_or_else(|| {
        problem(
            path,
            format!(
                "unknown entity {name:?}; the entities are: {}",
                listing(entities.iter().map(|e| e.name.as_str()))
            ),
        )
    })
}

fn attribute_of<'e>(path: &Path, entity: &'e Entity, name: &str) -> Result<&'e model::Attribute> {
    entity.attribute(name).ok_or_else(|| {
        problem(
            path,
            format!(
                "{} has no attribute {name:?}; its attributes are: {}",
                entity.name,
                listing(entity.attributes.iter().map(|a| a.name.as_str()))
            ),
        )
    })
}

fn goal(path: &Path, g: &file::Goal, patterns: &[AccessPattern], engine: model::Engine) -> Result<Goal> {
    let cpath = path.field("check");
    let pattern = |name: &str| {
        if let Some(i) = patterns.iter().position(|p| p.name == name) {
            Ok(model::PatternRef::new(name.to_owned(), model::PatternId::new(i)))
        } else {
            Err(problem(
                &cpath.index(0),
                format!(
                    "unknown pattern {name:?}; the patterns are: {}",
                    listing(patterns.iter().map(|p| p.name.as_str()))
                ),
            ))
        }
    };
    let check = match &g.check {
        file::GoalCheck::MaxPartitionSize(text) => {
            GoalCheck::MaxPartitionBytes(parse_size(text).ok_or_else(|| {
                problem(
                    &cpath.index(0),
                    format!("{text:?} is not a size: expected a whole number and a unit, like 100MB or 10GB"),
                )
            })?)
        }
        file::GoalCheck::MaxPartitionItems(n) => GoalCheck::MaxPartitionItems(*n),
        file::GoalCheck::MaxFailedWrites(n) => GoalCheck::MaxFailedWrites(*n),
        file::GoalCheck::MaxThrottledRatio(r) => {
            GoalCheck::MaxThrottledRatio(ratio(&cpath.index(0), *r, "a throttled ratio")?)
        }
        file::GoalCheck::NoScan(name) => GoalCheck::NoScan(pattern(name)?),
        file::GoalCheck::MaxFanout(name, n) => GoalCheck::MaxFanout(pattern(name)?, *n),
        file::GoalCheck::MaxIndexWriteAmplification(x) => {
            if !(x.is_finite() && *x >= 0.0) {
                return Err(problem(&cpath.index(0), "write amplification is a number ≥ 0"));
            }
            GoalCheck::MaxIndexWriteAmplification(*x)
        }
        file::GoalCheck::LatencyTarget(name) => {
            let target = pattern(name)?;
            if patterns[target.id().index()].latency_target_ms.is_none() {
                return Err(problem(
                    &cpath.index(0),
                    format!("pattern {name:?} has no latency_ms target to meet"),
                ));
            }
            GoalCheck::LatencyTarget(target)
        }
        file::GoalCheck::MaxMonthlyCost(dollars) => {
            if !(dollars.is_finite() && *dollars >= 0.0) {
                return Err(problem(&cpath.index(0), "a monthly cost is a number of US dollars ≥ 0"));
            }
            GoalCheck::MaxMonthlyCost(*dollars)
        }
        file::GoalCheck::MaxShardShare(share) => {
            // A share is of a sharded collection's inserts: only MongoDB shards one (as
            // `sharding` is refused elsewhere).
            if engine != model::Engine::MongoDb {
                return Err(problem(
                    &cpath,
                    format!(
                        "MaxShardShare grades the shards of a sharded MongoDB collection: the {engine} profile has none"
                    ),
                ));
            }
            if !(share.is_finite() && *share > 0.0 && *share <= 1.0) {
                return Err(problem(
                    &cpath.index(0),
                    format!(
                        "the busiest shard's share of the inserts is more than 0 and at most 1 (0.5 is half), found {share}"
                    ),
                ));
            }
            GoalCheck::MaxShardShare(*share)
        }
    };
    let within = match &g.within {
        None => None,
        Some(text) => {
            let wpath = path.field("within");
            if !matches!(check, GoalCheck::MaxPartitionBytes(_) | GoalCheck::MaxPartitionItems(_)) {
                return Err(problem(
                    &wpath,
                    "only a size goal (MaxPartitionSize, MaxPartitionItems) has a horizon: the others are judged on the replay itself",
                ));
            }
            let horizon = duration(&wpath, text)?;
            if horizon.as_millis() == 0 {
                return Err(problem(&wpath, "a horizon is longer than 0s"));
            }
            Some(horizon)
        }
    };
    Ok(Goal { name: g.name.clone(), check, hint: g.hint, within })
}

/// A goal's `hint: N` names one of the practice problem's hints, numbered from 1 as they are shown.
fn hint_link(path: &Path, hint: Option<usize>, practice: Option<&model::Practice>) -> Result<()> {
    let Some(number) = hint else { return Ok(()) };
    let Some(practice) = practice else {
        return Err(problem(
            path,
            "a goal's hint links to a practice problem's hints, and this scenario has no `practice`",
        ));
    };
    let count = practice.hints.len();
    if practice.hint(number).is_none() {
        let range = match count {
            0 => "the practice problem has no hints".to_owned(),
            1 => "the practice problem has 1 hint (hint: 1)".to_owned(),
            n => format!("the practice problem has {n} hints, numbered 1 to {n}"),
        };
        return Err(problem(path, format!("no hint {number}: {range}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_in_binary_units() {
        let cases = [
            ("512B", Some(512)),
            ("4KB", Some(4096)),
            ("100MB", Some(104_857_600)),
            ("10GB", Some(10 << 30)),
        ];
        for (text, bytes) in cases {
            assert_eq!(parse_size(text), bytes, "{text}");
        }
        for bad in ["", "MB", "10", "1.5GB", "10 XB", "-1MB"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }
}

//! A variant's read-through cache (`cache: (ttl: "5m", items: 100000, patterns: ["resolve"])`):
//! its TTL, its capacity and the read patterns it fronts, checked against the scenario.

use super::variant::Context;
use super::{MAX_COUNT, Result, duration, listing, problem, unique};
use crate::engine::model;
use crate::engine::time::SimDuration;
use crate::scenario::file;
use crate::scenario::source_map::Path;

/// The cache of variant `v`, or `None` when it declares none.
pub(super) fn cache(path: &Path, v: &file::Variant, cx: &Context<'_>) -> Result<Option<model::ReadCache>> {
    let Some(c) = &v.cache else { return Ok(None) };
    let cpath = path.field("cache");
    if cx.engine != model::Engine::DynamoDb {
        return Err(problem(
            &cpath,
            format!(
                "a read-through cache is modelled on DynamoDB Accelerator (DAX), which fronts DynamoDB only; the {} profile has none",
                cx.engine
            ),
        ));
    }
    let ttl = duration(&cpath.field("ttl"), &c.ttl)?;
    if ttl == SimDuration::ZERO {
        return Err(problem(
            &cpath.field("ttl"),
            "a cache TTL must be longer than 0s: no entry would ever serve a hit (DAX's default is 5m)",
        ));
    }
    // Each entry stands for an item the replay keeps a slot for, as a population member does.
    if c.items == 0 || c.items as f64 > MAX_COUNT {
        return Err(problem(
            &cpath.field("items"),
            format!(
                "a cache holds 1 to {} items; found {}",
                crate::engine::planner::numbers::count(MAX_COUNT),
                c.items
            ),
        ));
    }
    if c.patterns.is_empty() {
        return Err(problem(
            &cpath.field("patterns"),
            "name the read patterns the cache fronts, e.g. patterns: [\"resolve\"]",
        ));
    }
    unique(&cpath.field("patterns"), "pattern", c.patterns.iter().map(String::as_str).enumerate())?;
    for (i, name) in c.patterns.iter().enumerate() {
        let at = cpath.field("patterns").index(i);
        let Some(pattern) = cx.patterns.iter().find(|p| &p.name == name) else {
            return Err(problem(
                &at,
                format!(
                    "unknown pattern {name:?}; {}the patterns are: {}",
                    suggestion(name, cx),
                    listing(cx.patterns.iter().map(|p| p.name.as_str()))
                ),
            ));
        };
        if !pattern.action.is_read() {
            return Err(problem(
                &at,
                format!("pattern {name:?} writes; a read-through cache fronts read patterns (Get or List)"),
            ));
        }
    }
    Ok(Some(model::ReadCache {
        ttl,
        items: c.items,
        patterns: c.patterns.clone(),
        ids: model::CacheIds::default(),
    }))
}

/// `did you mean …? ` for a misspelt pattern name, or nothing.
fn suggestion(name: &str, cx: &Context<'_>) -> String {
    let near = crate::scenario::suggest::nearest(name, cx.patterns.iter().map(|p| p.name.as_str()));
    if near.is_empty() {
        String::new()
    } else {
        format!("{} ", crate::scenario::suggest::did_you_mean(&near))
    }
}

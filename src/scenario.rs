//! Scenario files: the RON format (`file`), its checks and conversion into the engine's model
//! (`build`), and the bundled scenarios compiled into the binary. Every error a file can cause is a
//! [`LoadError`] naming the file, line and column and saying what was expected; none panics.
//!
//! `scenarios/README.md` is the format's reference for users.

mod build;
mod file;
mod ron_error;
pub mod source_map;
pub mod suggest;
mod variant_text;

use crate::engine::model::{Engine, Scenario, Variant};
pub use build::parse_size;
use source_map::{Path, Position, SourceMap};
pub use variant_text::{EditError, VariantSource};

/// The scenarios and practice problems shipped inside the binary: (name, file name, text).
pub const BUNDLED: &[(&str, &str, &str)] = &[
    ("sensors", "scenarios/sensors.ron", include_str!("../scenarios/sensors.ron")),
    ("orders", "scenarios/orders.ron", include_str!("../scenarios/orders.ron")),
    ("counters", "scenarios/counters.ron", include_str!("../scenarios/counters.ron")),
    ("chat", "scenarios/chat.ron", include_str!("../scenarios/chat.ron")),
    ("social-feed", "scenarios/social-feed.ron", include_str!("../scenarios/social-feed.ron")),
    ("leaderboard", "scenarios/leaderboard.ron", include_str!("../scenarios/leaderboard.ron")),
    // A year of 6.2×10¹¹ calls: replayed as rates (`--fidelity auto` switches).
    ("discord-scale", "scenarios/discord-scale.ron", include_str!("../scenarios/discord-scale.ron")),
    ("shard-keys", "scenarios/shard-keys.ron", include_str!("../scenarios/shard-keys.ron")),
    ("tenant-files", "scenarios/tenant-files.ron", include_str!("../scenarios/tenant-files.ron")),
    ("reviews", "scenarios/reviews.ron", include_str!("../scenarios/reviews.ron")),
    // Practice problems: `keyheat list` shows them apart, without their solutions.
    ("practice-chat", "scenarios/practice-chat.ron", include_str!("../scenarios/practice-chat.ron")),
    ("practice-search", "scenarios/practice-search.ron", include_str!("../scenarios/practice-search.ron")),
    (
        "practice-top-customers",
        "scenarios/practice-top-customers.ron",
        include_str!("../scenarios/practice-top-customers.ron"),
    ),
    ("practice-social", "scenarios/practice-social.ron", include_str!("../scenarios/practice-social.ron")),
    ("practice-sensor", "scenarios/practice-sensor.ron", include_str!("../scenarios/practice-sensor.ron")),
    ("practice-saas", "scenarios/practice-saas.ron", include_str!("../scenarios/practice-saas.ron")),
    ("practice-tickets", "scenarios/practice-tickets.ron", include_str!("../scenarios/practice-tickets.ron")),
    ("practice-ledger", "scenarios/practice-ledger.ron", include_str!("../scenarios/practice-ledger.ron")),
    ("practice-shop", "scenarios/practice-shop.ron", include_str!("../scenarios/practice-shop.ron")),
    (
        "practice-ratelimit",
        "scenarios/practice-ratelimit.ron",
        include_str!("../scenarios/practice-ratelimit.ron"),
    ),
    (
        "practice-shortener",
        "scenarios/practice-shortener.ron",
        include_str!("../scenarios/practice-shortener.ron"),
    ),
    (
        "practice-sessions",
        "scenarios/practice-sessions.ron",
        include_str!("../scenarios/practice-sessions.ron"),
    ),
];

/// A scenario file could not be used. `Display` gives `file:line:col: message` for anything
/// found inside a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("{file}:{line}:{col}: {message}")]
    At { file: String, line: usize, col: usize, message: String },
    #[error("{file}: {message}")]
    File { file: String, message: String },
    #[error(
        "no bundled scenario is named {name:?} and no such file exists; the bundled scenarios are: {bundled}"
    )]
    Unknown { name: String, bundled: String },
}

/// A loaded scenario and the text it came from (to point at lines in later errors).
#[derive(Debug)]
pub struct Loaded {
    pub scenario: Scenario,
    pub file: String,
    source: String,
}

impl Loaded {
    /// The same scenario replayed on `engine`, which its file must list (`engine` or
    /// `engines`): the file is built again, since what a variant may declare depends on the
    /// store.
    pub fn on_engine(&self, engine: Engine) -> Result<Loaded, LoadError> {
        if !self.scenario.engines.contains(&engine) {
            let listed: Vec<String> = self.scenario.engines.iter().map(ToString::to_string).collect();
            return Err(self.error_at(
                &Path::root().field("engine"),
                None,
                format!(
                    "{} is replayed on {} only; to replay it on {engine}, list it in `engines` (the file must then be valid there too)",
                    self.scenario.name,
                    listed.join(" and ")
                ),
            ));
        }
        parse_on(&self.file, &self.source, Some(engine))
    }

    /// `source` read as this scenario's file, replayed on the store this one is replayed on:
    /// the workbench opened with `--engine` stays on that store when an edit is applied or a
    /// recovered text restored (a plain [`parse`] would go back to the file's own `engine`).
    /// The file is checked on every store its `engines` lists, as [`parse`] checks it.
    pub fn reread(&self, source: &str) -> Result<Loaded, LoadError> {
        let loaded = parse(&self.file, source)?;
        if loaded.scenario.engine == self.scenario.engine {
            Ok(loaded)
        } else {
            loaded.on_engine(self.scenario.engine)
        }
    }

    /// The named variant, or the first one (for a practice problem, the first that is not its
    /// solution). An unknown name is an error that lists the variants and points at where the
    /// file declares them.
    pub fn variant(&self, name: Option<&str>) -> Result<&Variant, LoadError> {
        let solution = self.scenario.practice.as_ref().map(|p| p.solution.as_str());
        let first = || {
            let mut names = self.scenario.variants.iter().map(|v| v.name.as_str());
            names.clone().find(|n| Some(*n) != solution).or_else(|| names.next())
        };
        let Some(name) = name.or_else(first) else {
            return Err(self.error_at(
                &Path::root().field("variants"),
                None,
                "the scenario has no variants".to_owned(),
            ));
        };
        self.scenario.variant(name).ok_or_else(|| {
            // A practice problem's solution is not named: a typo should not give the answer away.
            let names: Vec<&str> =
                self.scenario.variant_names().into_iter().filter(|n| Some(*n) != solution).collect();
            let listed = match (names.is_empty(), solution.is_some()) {
                (true, true) => "the only variant is the problem's solution".to_owned(),
                (false, true) => {
                    format!("the variants are: {} (and the problem's solution)", names.join(", "))
                }
                (_, false) => format!("the variants are: {}", names.join(", ")),
            };
            self.error_at(
                &Path::root().field("variants"),
                None,
                format!("no variant named {name:?}; {listed}"),
            )
        })
    }

    fn error_at(&self, path: &Path, offset: Option<usize>, message: String) -> LoadError {
        at(&self.file, &self.source, path, offset, message)
    }
}

fn at(file: &str, source: &str, path: &Path, offset: Option<usize>, message: String) -> LoadError {
    let map = SourceMap::new(source);
    let position = match offset {
        Some(offset) => map.locate_in_string(path, offset),
        None => map.locate(path),
    }
    .unwrap_or(Position { line: 1, col: 1 });
    LoadError::At { file: file.to_owned(), line: position.line, col: position.col, message }
}

/// Reads a scenario from its text. `file` is the name errors use. A file that lists other
/// stores in `engines` must be valid on each of them too: an error there says which store.
pub fn parse(file: &str, source: &str) -> Result<Loaded, LoadError> {
    parse_on(file, source, None)
}

/// Reads a scenario from its text, to be replayed on `on` (its own `engine` when `None`).
fn parse_on(file: &str, source: &str, on: Option<Engine>) -> Result<Loaded, LoadError> {
    // Editors on some systems start a UTF-8 file with a byte order mark; it is not RON.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let parsed: file::Scenario = options.from_str(source).map_err(|e| {
        let at = Position { line: e.span.start.line, col: e.span.start.col };
        let (position, message) = ron_error::explain(source, &e.code, at);
        LoadError::At { file: file.to_owned(), line: position.line, col: position.col, message }
    })?;
    let scenario =
        build::scenario(&parsed, on).map_err(|p| at(file, source, &p.path, p.offset, p.message))?;
    if on.is_none() {
        for &other in &scenario.engines[1..] {
            build::scenario(&parsed, Some(other)).map_err(|p| {
                let message = format!("{} (on {other}, which `engines` lists)", p.message);
                at(file, source, &p.path, p.offset, message)
            })?;
        }
    }
    Ok(Loaded { scenario, file: file.to_owned(), source: source.to_owned() })
}

/// A bundled scenario by name, or a file by path, replayed on `engine` (its own when `None`).
pub fn load_on(name_or_path: &str, engine: Option<Engine>) -> Result<Loaded, LoadError> {
    let loaded = load(name_or_path)?;
    match engine {
        Some(engine) if engine != loaded.scenario.engine => loaded.on_engine(engine),
        _ => Ok(loaded),
    }
}

/// A bundled scenario by name, or a file by path.
pub fn load(name_or_path: &str) -> Result<Loaded, LoadError> {
    if let Some((_, file, text)) = BUNDLED.iter().find(|(name, _, _)| *name == name_or_path) {
        return parse(file, text);
    }
    let path = std::path::Path::new(name_or_path);
    if !path.exists() {
        // A name with a directory or an extension is meant as a file, not a bundled scenario.
        if name_or_path.contains(['/', '\\']) || path.extension().is_some() {
            return Err(LoadError::File {
                file: name_or_path.to_owned(),
                message: "no such file (a bundled scenario is named without `.ron`: ".to_owned()
                    + &bundled_names()
                    + ")",
            });
        }
        return Err(LoadError::Unknown { name: name_or_path.to_owned(), bundled: bundled_names() });
    }
    if path.is_dir() {
        return Err(LoadError::File {
            file: name_or_path.to_owned(),
            message: "is a directory; expected a scenario file (.ron)".to_owned(),
        });
    }
    let text = std::fs::read_to_string(path).map_err(|e| LoadError::File {
        file: name_or_path.to_owned(),
        message: format!("cannot read the file: {e}"),
    })?;
    parse(name_or_path, &text)
}

fn bundled_names() -> String {
    BUNDLED.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join(", ")
}

/// Every bundled scenario, loaded.
///
/// # Panics
///
/// Never for the files shipped: a test loads every one of them.
pub fn bundled() -> Vec<Loaded> {
    BUNDLED
        .iter()
        .map(|(_, file, text)| parse(file, text).expect("bundled scenarios load (tested)"))
        .collect()
}

#[cfg(test)]
mod tests;

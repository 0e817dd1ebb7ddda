//! Scenario files: the RON format (`file`), its checks and conversion into the engine's model
//! (`build`), and the bundled scenarios compiled into the binary. Every error a file can cause is a
//! [`LoadError`] naming the file, line and column and saying what was expected; none panics.
//!
//! `scenarios/README.md` is the format's reference for users.

mod build;
mod file;
mod ron_error;
pub mod source_map;

use crate::engine::model::{Scenario, Variant};
pub use build::parse_size;
use source_map::{Path, Position, SourceMap};

/// The scenarios shipped inside the binary: (name, file name, text).
pub const BUNDLED: &[(&str, &str, &str)] = &[
    ("sensors", "scenarios/sensors.ron", include_str!("../scenarios/sensors.ron")),
    ("orders", "scenarios/orders.ron", include_str!("../scenarios/orders.ron")),
    ("counters", "scenarios/counters.ron", include_str!("../scenarios/counters.ron")),
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
            self.error_at(
                &Path::root().field("variants"),
                None,
                format!(
                    "no variant named {name:?}; the variants are: {}",
                    self.scenario.variant_names().join(", ")
                ),
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

/// Reads a scenario from its text. `file` is the name errors use.
pub fn parse(file: &str, source: &str) -> Result<Loaded, LoadError> {
    // Editors on some systems start a UTF-8 file with a byte order mark; it is not RON.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let parsed: file::Scenario = options.from_str(source).map_err(|e| {
        let at = Position { line: e.span.start.line, col: e.span.start.col };
        let (position, message) = ron_error::explain(source, &e.code, at);
        LoadError::At { file: file.to_owned(), line: position.line, col: position.col, message }
    })?;
    let scenario = build::scenario(&parsed).map_err(|p| at(file, source, &p.path, p.offset, p.message))?;
    Ok(Loaded { scenario, file: file.to_owned(), source: source.to_owned() })
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
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MINI: &str = r#"// A tiny scenario the tests break in one place at a time.
(
    name: "mini",
    title: "Mini",
    entities: [
        (
            name: "User",
            attributes: [
                (name: "user_id", type: S, gen: New("users")),
                (name: "name", type: S, gen: Payload(12)),
            ],
        ),
        (
            name: "Post",
            attributes: [
                (name: "user_id", type: S, gen: Pick("users")),
                (name: "posted_at", type: Time, gen: Now),
                (name: "body", type: S, gen: Payload(200)),
            ],
        ),
    ],
    populations: [(name: "users", count: 1000, ids: "u{}")],
    patterns: [
        (name: "user-posts", action: List, entity: "Post", given: ["user_id"], range: (attribute: "posted_at", span: Last("7d")), order: Desc, limit: 20, rate: 10),
        (name: "write-post", action: Put, entity: "Post", given: ["user_id"], rate: 1),
    ],
    variants: [
        (
            name: "only",
            keys: {
                "User": (pk: "USER#{user_id}", sk: "PROFILE"),
                "Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
            },
        ),
    ],
    workload: (duration: "30d", tick: "1s", seed: 1),
    practice: (prompt: "Design the keys.", hints: ["Start from the patterns."], solution: "only"),
)
"#;

    /// 1-based line and column (in characters) of byte `at` in `text`.
    fn position_of(text: &str, at: usize) -> (usize, usize) {
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    #[test]
    fn the_mini_scenario_loads() {
        let loaded = parse("mini.ron", MINI).unwrap();
        let s = &loaded.scenario;
        assert_eq!(
            (s.name.as_str(), s.entities.len(), s.patterns.len(), s.variants.len()),
            ("mini", 2, 2, 1)
        );
        assert_eq!(s.variants[0].table_sk.as_deref(), Some("SK"));
        assert_eq!(s.practice.as_ref().map(|p| p.solution.as_str()), Some("only"));
        // The solution is the only variant, so it is also the default.
        assert_eq!(loaded.variant(None).unwrap().name, "only");
    }

    #[test]
    fn every_bundled_scenario_loads_with_naive_and_recommended() {
        for (name, file, text) in BUNDLED {
            let loaded = parse(file, text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(loaded.scenario.name, *name);
            for variant in ["naive", "recommended"] {
                assert!(loaded.variant(Some(variant)).is_ok(), "{name} lacks {variant}");
            }
        }
        assert_eq!(bundled().len(), BUNDLED.len());
    }

    /// Each case breaks MINI by one replacement; the error must name the file, say what is wrong
    /// and point at `marker` (+ `shift` characters) in the broken text.
    #[test]
    fn errors_point_at_the_offending_value() {
        let cases: &[(&str, &str, &str, &str, usize)] = &[
            // (replace, with, message contains, marker, shift)
            (r#"title: "Mini","#, r#"title: "Mini""#, "comma", "entities: [", 0),
            (
                r#"(name: "name", type: S, gen: Payload(12))"#,
                r#"(name: "name", type: S, gen: Payload(12), colour: 3)"#,
                "colour",
                "colour",
                0,
            ),
            ("action: Put,", "action: Post,", "Post", "Post,", 0),
            (
                r#"sk: "POST#{posted_at}""#,
                r#"sk: "POST#{postedat}""#,
                r#"unknown attribute "postedat""#,
                "postedat}",
                0,
            ),
            (
                r#"sk: "POST#{posted_at}""#,
                r#"sk: "POST#{posted_at""#,
                "bad key template",
                r#""POST#{posted_at""#,
                6,
            ),
            (
                r#"solution: "only""#,
                r#"solution: "best""#,
                r#"unknown variant "best"; the variants are: only"#,
                r#""best""#,
                0,
            ),
            (
                r#"given: ["user_id"], rate: 1"#,
                r#"given: ["userid"], rate: 1"#,
                r#"Post has no attribute "userid""#,
                r#""userid""#,
                0,
            ),
            (
                r#"entity: "Post", given: ["user_id"], rate: 1"#,
                r#"entity: "Posts", given: ["user_id"], rate: 1"#,
                r#"unknown entity "Posts""#,
                r#""Posts""#,
                0,
            ),
            (
                r#"gen: Pick("users")"#,
                r#"gen: Pick("user")"#,
                r#"unknown population "user""#,
                r#"Pick("user")"#,
                0,
            ),
            (r#"Last("7d")"#, r#"Last("7 days")"#, "is not a duration", r#""7 days""#, 0),
            (
                r#""User": (pk: "USER#{user_id}", sk: "PROFILE"),"#,
                r#""User": (pk: "USER#{user_id}"),"#,
                "no sort key template",
                r#"(pk: "USER#{user_id}"),"#,
                0,
            ),
            (
                r#"(name: "write-post", action: Put"#,
                r#"(name: "user-posts", action: Put"#,
                r#"two patterns are named "user-posts""#,
                r#""user-posts", action: Put"#,
                0,
            ),
        ];
        for (from, to, message, marker, shift) in cases {
            assert!(MINI.contains(from), "case {from:?} does not apply");
            let broken = MINI.replacen(from, to, 1);
            let error = parse("mini.ron", &broken).err().unwrap_or_else(|| panic!("{to:?} loaded"));
            let LoadError::At { file, line, col, message: text } = &error else { panic!("{error:?}") };
            assert_eq!(file, "mini.ron");
            assert!(text.contains(message), "{to:?}: {text:?} lacks {message:?}");
            let at = broken.find(marker).unwrap_or_else(|| panic!("marker {marker:?} missing"));
            let (want_line, want_col) = position_of(&broken, at);
            assert_eq!((*line, *col), (want_line, want_col + shift), "{to:?}: {error}");
            assert!(error.to_string().starts_with(&format!("mini.ron:{line}:{col}: ")), "{error}");
        }
    }

    #[test]
    fn an_unknown_variant_lists_the_variants_and_points_at_them() {
        let loaded = parse("mini.ron", MINI).unwrap();
        let error = loaded.variant(Some("nope")).unwrap_err();
        let (line, col) = position_of(MINI, MINI.find("variants: [").unwrap() + "variants: ".len());
        assert_eq!(
            error.to_string(),
            format!("mini.ron:{line}:{col}: no variant named \"nope\"; the variants are: only")
        );
        assert_eq!(loaded.variant(None).unwrap().name, "only");
    }

    #[test]
    fn loads_files_and_names_what_is_missing() {
        let error = load("no-such-scenario").unwrap_err();
        assert!(
            error.to_string().contains("the bundled scenarios are: sensors, orders, counters"),
            "{error}"
        );
        assert!(load("sensors").is_ok());
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            let _ = parse("x.ron", &text);
        }

        #[test]
        fn mutated_scenarios_never_panic(cut in 0usize..MINI.len(), len in 0usize..12, insert in "[(){}\\[\\]\":,a-z0-9 ]{0,6}") {
            let mut text = MINI.to_owned();
            if text.is_char_boundary(cut) && text.is_char_boundary((cut + len).min(text.len())) {
                text.replace_range(cut..(cut + len).min(text.len()), &insert);
                let _ = parse("x.ron", &text);
            }
        }
    }
}

//! One variant of a loaded scenario as text, for the schema editor: cut its RON out of the file
//! (comments and layout kept), check an edited version with the loader's own machinery, and
//! splice it back into the file's text to save it.
//!
//! Editing works on the file's text rather than on a re-serialized model so that comments, field
//! order and formatting survive a round trip: what the user writes with `w` is their file with one
//! variant replaced. Errors come back in the editor's coordinates (line 1 is the variant's `(`).

use std::ops::Range;

use super::source_map::Position;
use super::source_map::{Path, SourceMap};
use super::{LoadError, Loaded, file, ron_error};

/// A variant's text as the editor shows it: the value from its `(` to its `)`, with the file's
/// indentation of that block removed so it starts at column 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSource {
    /// The variant's position in the file's `variants` list.
    pub index: usize,
    pub text: String,
    /// Bytes of the file's text the variant occupies.
    span: Range<usize>,
    /// 1-based line of the file where the variant starts.
    first_line: usize,
    /// Spaces removed from lines 2.. (the column of the `(` minus one).
    indent: usize,
}

/// An edited variant that does not load: where (in the editor's text when `in_variant`, else in
/// the whole file) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditError {
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// False when the problem shows elsewhere in the file (another variant's name clashes, or the
    /// practice problem names a variant that is gone): `line`/`col` are then the file's.
    pub in_variant: bool,
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.in_variant {
            write!(f, "{}:{}: {}", self.line, self.col, self.message)
        } else {
            write!(f, "file line {}:{}: {}", self.line, self.col, self.message)
        }
    }
}

impl Loaded {
    /// The text the scenario was loaded from (with any edits applied).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Variant `index` as editable text; `None` when there is no such variant.
    pub fn variant_source(&self, index: usize) -> Option<VariantSource> {
        if index >= self.scenario.variants.len() {
            return None;
        }
        let start = SourceMap::new(&self.source).locate(&Path::root().field("variants").index(index))?;
        let start_byte = byte_of(&self.source, start.line, start.col)?;
        if !self.source[start_byte..].starts_with('(') {
            return None;
        }
        let end = value_end(&self.source, start_byte)?;
        let line_start = self.source[..start_byte].rfind('\n').map_or(0, |i| i + 1);
        let before = &self.source[line_start..start_byte];
        // Only a block that starts its line is re-indented; anything else is kept verbatim.
        let indent = if before.chars().all(|c| c == ' ') { before.len() } else { 0 };
        let raw = &self.source[start_byte..end];
        let text = raw
            .split('\n')
            .enumerate()
            .map(|(i, line)| if i == 0 { line } else { strip_spaces(line, indent) })
            .collect::<Vec<_>>()
            .join("\n");
        Some(VariantSource { index, text, span: start_byte..end, first_line: start.line, indent })
    }

    /// The scenario with variant `at.index` replaced by `text`, loaded and checked as a whole: the
    /// text must read as a variant, and the scenario must still load with it.
    pub fn with_variant_text(&self, at: &VariantSource, text: &str) -> Result<Loaded, EditError> {
        let options =
            ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        // Syntax first, on the text alone, so an unclosed `(` is reported where the editor has it
        // rather than wherever the rest of the file stops making sense.
        if let Err(e) = options.from_str::<file::Variant>(text) {
            let at = Position { line: e.span.start.line, col: e.span.start.col };
            let (position, message) = ron_error::explain(text, &e.code, at);
            return Err(EditError { line: position.line, col: position.col, message, in_variant: true });
        }
        let spliced = self.splice(at, text);
        match self.reread(&spliced) {
            Ok(loaded) => Ok(loaded),
            Err(LoadError::At { line, col, message, .. }) => Err(at.to_editor(line, col, text, message)),
            Err(other) => Err(EditError { line: 1, col: 1, message: other.to_string(), in_variant: true }),
        }
    }

    /// The scenario with `text` as a new variant right after variant `after`, which stays as it
    /// is: an answer saved beside its starting point (the baseline `c` compares with). The new
    /// variant needs a name of its own; errors are in `text`'s coordinates when they are in it.
    pub fn with_new_variant(&self, after: usize, text: &str) -> Result<Loaded, EditError> {
        let Some(at) = self.variant_source(after) else {
            let message = "the variant is no longer in the scenario".to_owned();
            return Err(EditError { line: 1, col: 1, message, in_variant: false });
        };
        let options =
            ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let parsed = match options.from_str::<file::Variant>(text) {
            Ok(v) => v,
            Err(e) => {
                let position = Position { line: e.span.start.line, col: e.span.start.col };
                let (position, message) = ron_error::explain(text, &e.code, position);
                return Err(EditError { line: position.line, col: position.col, message, in_variant: true });
            }
        };
        if self.scenario.variants.iter().any(|v| v.name == parsed.name) {
            let (line, col) = position_of(text, "name").unwrap_or((1, 1));
            return Err(EditError {
                line,
                col,
                message: format!(
                    "the scenario has a variant named {:?} already: give the new one a name of its own",
                    parsed.name
                ),
                in_variant: true,
            });
        }
        let mut spliced = String::with_capacity(self.source.len() + text.len() + at.indent + 2);
        spliced.push_str(&self.source[..at.span.end]);
        spliced.push_str(",\n");
        spliced.push_str(&" ".repeat(at.indent));
        spliced.push_str(&at.indented(text));
        spliced.push_str(&self.source[at.span.end..]);
        let new = VariantSource {
            index: at.index + 1,
            text: text.to_owned(),
            span: 0..0,
            first_line: at.first_line + at.text.split('\n').count(),
            indent: at.indent,
        };
        match self.reread(&spliced) {
            Ok(loaded) => Ok(loaded),
            Err(LoadError::At { line, col, message, .. }) => Err(new.to_editor(line, col, text, message)),
            Err(other) => Err(EditError { line: 1, col: 1, message: other.to_string(), in_variant: true }),
        }
    }

    /// The file's text with variant `at.index` replaced by `text` (re-indented to where it was).
    pub fn splice(&self, at: &VariantSource, text: &str) -> String {
        let body = at.indented(text);
        let mut out = String::with_capacity(self.source.len() + text.len());
        out.push_str(&self.source[..at.span.start]);
        out.push_str(&body);
        out.push_str(&self.source[at.span.end..]);
        out
    }
}

/// 1-based (line, column) of the first `word` in `text`.
fn position_of(text: &str, word: &str) -> Option<(usize, usize)> {
    let at = text.find(word)?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    Some((text[..at].matches('\n').count() + 1, text[line_start..at].chars().count() + 1))
}

impl VariantSource {
    /// `text` with lines 2.. indented as the variant's block is in the file.
    fn indented(&self, text: &str) -> String {
        let pad = " ".repeat(self.indent);
        text.split('\n')
            .enumerate()
            .map(|(i, line)| if i == 0 || line.is_empty() { line.to_owned() } else { format!("{pad}{line}") })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Maps a position in the spliced file back into `text` when it falls inside the variant.
    fn to_editor(&self, line: usize, col: usize, text: &str, message: String) -> EditError {
        let lines = text.split('\n').count();
        let first_col = self.indent + 1;
        let inside = line >= self.first_line
            && line < self.first_line + lines
            && (line > self.first_line || col >= first_col);
        if !inside {
            return EditError { line, col, message, in_variant: false };
        }
        let editor_line = line - self.first_line + 1;
        let editor_col = if editor_line == 1 {
            col - self.indent
        } else {
            // Empty lines were not padded; every other line gained `indent` spaces.
            let empty = text.split('\n').nth(editor_line - 1).is_none_or(str::is_empty);
            if empty { col } else { col.saturating_sub(self.indent).max(1) }
        };
        EditError { line: editor_line, col: editor_col, message, in_variant: true }
    }
}

/// `line` without up to `n` leading spaces.
fn strip_spaces(line: &str, n: usize) -> &str {
    let spaces = line.bytes().take(n).take_while(|&b| b == b' ').count();
    &line[spaces..]
}

/// The byte offset of 1-based `line` and `col` (in characters).
fn byte_of(source: &str, line: usize, col: usize) -> Option<usize> {
    let line_start =
        if line == 1 { 0 } else { source.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1)? };
    let rest = &source[line_start..];
    let within = rest.char_indices().nth(col - 1).map_or(rest.len(), |(i, _)| i);
    Some(line_start + within)
}

/// The byte just past the bracketed value starting at `start` (a `(`, `[` or `{`), skipping
/// strings, raw strings, char literals and comments; `None` if it never closes.
fn value_end(source: &str, start: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => i = string_end(bytes, i + 1)?,
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) && !ident_before(bytes, i) => {
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let close: Vec<u8> =
                        std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                    let body = i + 2 + hashes;
                    let at = source[body..].find(std::str::from_utf8(&close).ok()?)?;
                    i = body + at + close.len() - 1;
                }
            }
            b'\'' => {
                // A char literal: 'x' or '\n' or '\''.
                let close = if bytes.get(i + 1) == Some(&b'\\') { i + 3 } else { i + 2 };
                let rest = source.get(close..)?;
                i = close + rest.find('\'')?;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = source[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = block_comment_end(bytes, i + 2)?,
            _ => {}
        }
        i += 1;
    }
    None
}

fn ident_before(bytes: &[u8], i: usize) -> bool {
    i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')
}

/// The index of the `"` closing a string whose body starts at `i`.
fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The index of the `/` ending a block comment whose body starts at `i` (RON nests them).
fn block_comment_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 1usize;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{self, BUNDLED};

    #[test]
    fn every_bundled_variant_round_trips_unchanged() {
        for (name, _, text) in BUNDLED {
            let loaded = scenario::load(name).unwrap();
            for index in 0..loaded.scenario.variants.len() {
                let at = loaded.variant_source(index).unwrap_or_else(|| panic!("{name} #{index}"));
                assert!(at.text.starts_with('(') && at.text.ends_with(')'), "{name}: {}", at.text);
                assert_eq!(loaded.splice(&at, &at.text), *text, "{name} #{index}");
                let again = loaded.with_variant_text(&at, &at.text).unwrap();
                assert_eq!(again.scenario.variants[index].name, loaded.scenario.variants[index].name);
            }
        }
    }

    /// An answer saved beside its starting point: both are in the file, the starting point as it
    /// was; the same name twice, or a bad field, is an error in the editor's coordinates.
    #[test]
    fn a_draft_saved_as_a_new_variant_keeps_the_one_it_came_from() {
        let loaded = scenario::load("practice-chat").unwrap();
        let naive = loaded.variant_source(0).unwrap();
        let mine = naive.text.replace("name: \"naive\"", "name: \"mine\"").replacen(
            "CH#{channel_id}\"",
            "CH#{channel_id}#{bucket(sent_at, 10d)}\"",
            1,
        );
        let after = loaded.with_new_variant(0, &mine).unwrap();
        let names: Vec<&str> = after.scenario.variants.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["naive", "mine", "recommended"]);
        assert_eq!(after.variant_source(0).unwrap().text, naive.text);
        assert_eq!(after.variant_source(1).unwrap().text, mine);
        assert_eq!(
            after.scenario.variants[1].keys_named("Message").unwrap().pk.source(),
            "CH#{channel_id}#{bucket(sent_at, 10d)}"
        );
        // The written file loads by itself, with both.
        let reread = scenario::parse(&after.file, after.source()).unwrap();
        assert_eq!(reread.scenario.variants.len(), 3);
        let same = loaded.with_new_variant(0, &naive.text).unwrap_err();
        assert!(same.in_variant && same.message.contains("\"naive\" already"), "{same}");
        assert_eq!((same.line, same.col), (2, 5), "{same}");
        let bad = mine.replace("keys:", "kees:");
        let err = loaded.with_new_variant(0, &bad).unwrap_err();
        assert!(err.in_variant && err.message.contains("kees"), "{err}");
    }

    #[test]
    fn the_editor_text_is_dedented_and_an_edit_lands_in_the_model() {
        let loaded = scenario::load("sensors").unwrap();
        let at = loaded.variant_source(1).unwrap();
        assert!(at.text.contains("\n    name: \"recommended\""), "{}", at.text);
        let edited = at.text.replace("{reading_time:%Y-%m-%d}", "{reading_time:%Y-%m}");
        let after = loaded.with_variant_text(&at, &edited).unwrap();
        let reading = after.scenario.variants[1].keys_named("Reading").unwrap();
        assert_eq!(reading.pk.source(), "{sensor_id}#{reading_time:%Y-%m}");
        // The rest of the file is untouched, comments included.
        assert!(after.source().starts_with("// IoT sensor readings"));
        assert_eq!(after.source().len(), loaded.source().len() - 3);
    }

    /// A scenario opened on another store its file lists (`keyheat tui --engine`) stays on it
    /// when an edit is applied or saved as a new variant: the workbench does not slip back to
    /// the file's own store.
    #[test]
    fn an_edit_keeps_the_store_the_scenario_is_replayed_on() {
        use crate::engine::model::Engine;
        let loaded = scenario::load_on("counters", Some(Engine::CosmosDb)).unwrap();
        assert_eq!(loaded.scenario.engine, Engine::CosmosDb);
        let at = loaded.variant_source(0).unwrap();
        let applied = loaded.with_variant_text(&at, &at.text).unwrap();
        assert_eq!(applied.scenario.engine, Engine::CosmosDb);
        let renamed = at.text.replacen(&format!("{:?}", loaded.scenario.variants[0].name), "\"mine\"", 1);
        let saved = loaded.with_new_variant(0, &renamed).unwrap();
        assert_eq!(saved.scenario.engine, Engine::CosmosDb);
        // On the file's own store, the same edit stays there.
        let own = scenario::load("counters").unwrap();
        let applied = own.with_variant_text(&own.variant_source(0).unwrap(), &at.text).unwrap();
        assert_eq!(applied.scenario.engine, own.scenario.engine);
        assert_ne!(own.scenario.engine, Engine::CosmosDb);
    }

    /// A hierarchical key written in the editor lands in the model with its levels, is saved
    /// as written, and reads back from the saved file; a bad level points into the editor text.
    #[test]
    fn a_key_of_levels_edited_in_the_workbench_is_saved_as_written() {
        let loaded = scenario::load("tenant-files").unwrap();
        let naive = loaded.variant_source(0).unwrap();
        let mine = naive.text.replace("name: \"naive\"", "name: \"mine\"").replacen(
            "(pk: \"{tenant_id}\"",
            "(pk: [\"T#{tenant_id}\", \"{seq}\"]",
            1,
        );
        let after = loaded.with_new_variant(0, &mine).unwrap();
        assert_eq!(after.variant_source(1).unwrap().text, mine);
        let reread = scenario::parse(&after.file, after.source()).unwrap();
        let pk = &reread.scenario.variants[1].keys_named("Document").unwrap().pk;
        assert_eq!((pk.level_count(), pk.source()), (2, r#"["T#{tenant_id}","{seq}"]"#));
        let bad = mine.replacen("\"{seq}\"]", "\"{sq}\"]", 1);
        let e = loaded.with_new_variant(0, &bad).unwrap_err();
        assert!(e.in_variant && e.message.contains("unknown attribute \"sq\""), "{e}");
        let byte = bad.find("sq}").unwrap();
        assert_eq!(e.line, bad[..byte].matches('\n').count() + 1, "{e}");
    }

    /// Each case edits the recommended variant once; the error must point at `marker` in the
    /// edited text (editor coordinates).
    #[test]
    fn errors_point_into_the_editor_text() {
        let loaded = scenario::load("sensors").unwrap();
        let at = loaded.variant_source(1).unwrap();
        let cases = [
            // (replace, with, message contains, marker)
            (
                "{reading_time:%Y-%m-%d}",
                "{reading_tme:%Y-%m-%d}",
                "unknown attribute \"reading_tme\"",
                "reading_tme",
            ),
            (
                "{reading_time:%Y-%m-%d}",
                "{reading_time_day}",
                "did you mean reading_time? a day bucket is written {reading_time:%Y-%m-%d}",
                "reading_time_day",
            ),
            ("{reading_time:%Y-%m-%d}", "{day}", "a day bucket is written {reading_time:%Y-%m-%d}", "day}"),
            ("keys: {", "kees: {", "kees", "kees"),
            ("\"Sensor\": (pk:", "\"Sensor\": (pkk:", "pkk", "pkk"),
        ];
        for (from, to, message, marker) in cases {
            assert!(at.text.contains(from), "{from}");
            let edited = at.text.replacen(from, to, 1);
            let e = loaded.with_variant_text(&at, &edited).unwrap_err();
            assert!(e.in_variant, "{e}");
            assert!(e.message.contains(message), "{e}");
            let byte = edited.find(marker).unwrap();
            let line = edited[..byte].matches('\n').count() + 1;
            let col = edited[..byte].rsplit('\n').next().unwrap().chars().count() + 1;
            assert_eq!((e.line, e.col), (line, col), "{to}: {e}");
        }
        // An unclosed paren is reported inside the editor text, not at the file's end.
        let e = loaded.with_variant_text(&at, &at.text[..at.text.len() - 1]).unwrap_err();
        assert!(e.in_variant && e.line <= at.text.lines().count() + 1, "{e}");
    }

    /// Text that is not a variant at all is told what a variant looks like, not a scenario.
    #[test]
    fn a_text_that_is_not_a_variant_is_shown_a_variants_shape() {
        let loaded = scenario::load("sensors").unwrap();
        let at = loaded.variant_source(0).unwrap();
        let e = loaded.with_variant_text(&at, "\"Counter\": (pk: \"COUNTER\"),").unwrap_err();
        assert!(e.message.contains("expected a Variant: `(name: \"…\", keys: {"), "{e}");
        assert!(!e.message.contains("entities"), "{e}");
        assert_eq!((e.line, e.col), (1, 1), "{e}");
    }

    #[test]
    fn a_name_clash_is_reported_where_it_shows() {
        let loaded = scenario::load("sensors").unwrap();
        let at = loaded.variant_source(1).unwrap();
        let edited = at.text.replacen("\"recommended\"", "\"naive\"", 1);
        let e = loaded.with_variant_text(&at, &edited).unwrap_err();
        assert!(e.message.contains("two variants are named \"naive\""), "{e}");
        assert!(e.in_variant);
        assert_eq!(e.line, 2);
    }

    #[test]
    fn value_end_skips_strings_and_comments() {
        let cases = [
            ("(a: \")\", b: 1) tail", 14),
            ("(a: r#\")\"# ) x", 12),
            ("(a: ')', /* ) /* ) */ */ b) z", 27),
            ("(a: 1, // )\n b: 2)", 18),
            ("[(1), {\"k\": (2)}]!", 17),
        ];
        for (text, end) in cases {
            assert_eq!(value_end(text, 0), Some(end), "{text}");
        }
        assert_eq!(value_end("(a: (1)", 0), None);
    }
}

//! Tab completion in the schema editor: what the word before the cursor can become, from the
//! scenario's own names — the attributes of the entity being edited inside a key template's
//! slot, the slot functions from the template parser's table, entity and index names inside
//! other strings. Pure: it reads text and names, and never edits.

use crate::engine::model::Scenario;
use crate::engine::template::SLOT_FORMS;

/// Where the cursor is, as far as completion cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Inside a `{…}` slot of a string; `in_call` after `function(`.
    Slot { in_call: bool },
    /// Inside a string, outside any slot.
    Text,
    /// Outside strings (field names, brackets).
    Code,
}

/// One way to finish the word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The whole word as it will read (`reading_time`, `bucket(`).
    pub word: String,
    /// What it is, shown beside it in the popup.
    pub note: &'static str,
}

/// The names completion offers, drawn from the scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vocabulary {
    /// (entity, its attribute names).
    pub entities: Vec<(String, Vec<String>)>,
    pub indexes: Vec<String>,
}

impl Vocabulary {
    pub fn of(scenario: &Scenario) -> Vocabulary {
        let entities = scenario
            .entities
            .iter()
            .map(|e| (e.name.clone(), e.attributes.iter().map(|a| a.name.clone()).collect()))
            .collect();
        let mut indexes: Vec<String> =
            scenario.variants.iter().flat_map(|v| v.indexes.iter().map(|i| i.name.clone())).collect();
        indexes.sort_unstable();
        indexes.dedup();
        Vocabulary { entities, indexes }
    }

    /// The attributes of `entity`, or of every entity (each name once) when it is not known.
    pub fn attributes(&self, entity: Option<&str>) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .entities
            .iter()
            .filter(|(e, _)| entity.is_none_or(|want| want == e))
            .flat_map(|(_, attrs)| attrs.iter().map(String::as_str))
            .collect();
        if entity.is_none() {
            names.sort_unstable();
            names.dedup();
        }
        names
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Where a cursor placed after `before` (the text from the start of the variant) stands.
pub fn place(before: &str) -> Place {
    let mut in_string = false;
    let mut escaped = false;
    let mut slot: Option<bool> = None;
    let mut chars = before.chars().peekable();
    while let Some(c) = chars.next() {
        if !in_string {
            match c {
                '"' => in_string = true,
                '/' if chars.peek() == Some(&'/') => {
                    // A line comment runs to the end of its line.
                    for skipped in chars.by_ref() {
                        if skipped == '\n' {
                            break;
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        match (c, slot) {
            (_, _) if escaped => escaped = false,
            ('\\', _) => escaped = true,
            ('"', _) => {
                in_string = false;
                slot = None;
            }
            ('{', None) if chars.peek() == Some(&'{') => {
                chars.next();
            }
            ('{', None) | (')', Some(_)) => slot = Some(false),
            ('(', Some(_)) => slot = Some(true),
            ('}', Some(_)) => slot = None,
            _ => {}
        }
    }
    match (in_string, slot) {
        (true, Some(in_call)) => Place::Slot { in_call },
        (true, None) => Place::Text,
        (false, _) => Place::Code,
    }
}

/// The entity whose keys the cursor is in: the last `"Entity":` before it.
pub fn entity_at<'v>(before: &str, vocabulary: &'v Vocabulary) -> Option<&'v str> {
    vocabulary
        .entities
        .iter()
        .filter_map(|(name, _)| {
            let quoted = format!("\"{name}\"");
            let mut found = None;
            for (at, _) in before.match_indices(&quoted) {
                if before[at + quoted.len()..].trim_start().starts_with(':') {
                    found = Some(at);
                }
            }
            found.map(|at| (at, name.as_str()))
        })
        .max_by_key(|(at, _)| *at)
        .map(|(_, name)| name)
}

/// The word being typed: the name characters just before the cursor.
pub fn word_before(before: &str) -> &str {
    let start =
        before.char_indices().rev().take_while(|(_, c)| is_word(*c)).last().map_or(before.len(), |(i, _)| i);
    &before[start..]
}

/// What the word before the cursor can become, in the order the popup lists them.
pub fn candidates(before: &str, vocabulary: &Vocabulary) -> Vec<Candidate> {
    let word = word_before(before);
    let entity = entity_at(before, vocabulary);
    let mut all: Vec<Candidate> = Vec::new();
    let mut add = |names: Vec<&str>, note: &'static str| {
        all.extend(names.into_iter().map(|w| Candidate { word: w.to_owned(), note }));
    };
    match place(before) {
        Place::Slot { in_call } => {
            add(
                vocabulary.attributes(entity),
                if entity.is_some() { "attribute" } else { "attribute (any entity)" },
            );
            if !in_call {
                for form in SLOT_FORMS {
                    if let Some(function) = form.function() {
                        all.push(Candidate { word: format!("{function}("), note: form.name });
                    }
                }
            }
        }
        Place::Text => {
            add(vocabulary.entities.iter().map(|(e, _)| e.as_str()).collect(), "entity");
            add(vocabulary.indexes.iter().map(String::as_str).collect(), "index");
            add(vocabulary.attributes(entity), "attribute");
        }
        Place::Code => {}
    }
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|c| c.word.starts_with(word) && c.word != word && seen.insert(c.word.clone()));
    all
}

/// The longest text every candidate starts with.
pub fn common_prefix(candidates: &[Candidate]) -> &str {
    let Some(first) = candidates.first() else { return "" };
    let mut prefix = first.word.as_str();
    for c in &candidates[1..] {
        let n: usize =
            prefix.chars().zip(c.word.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum();
        prefix = &prefix[..n];
    }
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    #[test]
    fn knows_whether_the_cursor_is_in_a_slot_a_string_or_code() {
        let cases = [
            ("keys: {", Place::Code),
            ("(pk: \"", Place::Text),
            ("(pk: \"USER#", Place::Text),
            ("(pk: \"{", Place::Slot { in_call: false }),
            ("(pk: \"{sensor_id}#{rea", Place::Slot { in_call: false }),
            ("(pk: \"{bucket(sen", Place::Slot { in_call: true }),
            ("(pk: \"{bucket(sent_at, 1d)", Place::Slot { in_call: false }),
            ("(pk: \"{{lit", Place::Text),
            ("(pk: \"{a}\", sk: ", Place::Code),
            ("// a \"quote\n(pk: \"{", Place::Slot { in_call: false }),
            ("(description: \"say \\\"hi\\\" ", Place::Text),
            ("(pk: \"a\\\"{", Place::Slot { in_call: false }),
        ];
        for (before, want) in cases {
            assert_eq!(place(before), want, "{before}");
        }
    }

    #[test]
    fn completes_attributes_functions_and_names_from_the_scenario() {
        let loaded = scenario::load("sensors").unwrap();
        let v = Vocabulary::of(&loaded.scenario);
        let words = |before: &str| candidates(before, &v).into_iter().map(|c| c.word).collect::<Vec<_>>();
        let reading = "keys: {\n  \"Sensor\": (pk: \"{sensor_id}\"),\n  \"Reading\": (pk: \"{sensor_id}#{";
        let all = words(reading);
        for want in ["reading_time", "bucket(", "shard(", "hash("] {
            assert!(all.iter().any(|w| w == want), "{want} in {all:?}");
        }
        assert_eq!(words(&format!("{reading}rea")), ["reading_time"]);
        assert_eq!(words(&format!("{reading}bu")), ["bucket("]);
        assert_eq!(words(&format!("{reading}bucket(rea")), ["reading_time"]);
        // In a string but not in a slot: entity names.
        assert_eq!(words("keys: {\n  \"Rea"), ["Reading"]);
        // The word already typed in full has nothing left to add; code has no completion.
        assert!(words(&format!("{reading}reading_time")).is_empty());
        assert!(words("keys: {\n  ").is_empty());
        assert_eq!(entity_at(reading, &v), Some("Reading"));
        assert_eq!(entity_at("keys: {", &v), None);
    }

    #[test]
    fn the_common_prefix_is_what_every_candidate_shares() {
        let c = |words: &[&str]| {
            words.iter().map(|w| Candidate { word: (*w).to_owned(), note: "" }).collect::<Vec<_>>()
        };
        assert_eq!(common_prefix(&c(&["reading_time", "reading_value"])), "reading_");
        assert_eq!(common_prefix(&c(&["a", "b"])), "");
        assert_eq!(common_prefix(&c(&["one"])), "one");
        assert_eq!(common_prefix(&[]), "");
    }
}

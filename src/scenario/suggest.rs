//! "Did you mean": the known names nearest to a name a file got wrong. Pure; knows nothing of
//! where the names come from.

/// The names in `known` close to `name`, nearest first: within a third of the name's length in
/// edits (at least 1, at most 3), or containing it, or contained in it (`reading_time_day` →
/// `reading_time`). At most three.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    let lower = name.to_lowercase();
    let mut close: Vec<(usize, &str)> = known
        .into_iter()
        .filter(|k| *k != name)
        .filter_map(|k| {
            let distance = edits(&lower, &k.to_lowercase());
            let overlaps =
                k.len() >= 3 && (lower.contains(&k.to_lowercase()) || k.to_lowercase().contains(&lower));
            (distance <= limit || (overlaps && lower.len() >= 3)).then_some((distance, k))
        })
        .collect();
    close.sort_unstable();
    close.dedup_by(|a, b| a.1 == b.1);
    close.into_iter().take(3).map(|(_, k)| k).collect()
}

/// `did you mean a, b or c?` for a non-empty list; empty otherwise.
pub fn did_you_mean(names: &[&str]) -> String {
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => format!("did you mean {last}?"),
        Some((last, rest)) => format!("did you mean {} or {last}?", rest.join(", ")),
    }
}

/// Levenshtein distance over characters (insertions, deletions, substitutions).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_names_a_slip_or_a_suffix_away() {
        let known = ["sensor_id", "reading_time", "value", "site"];
        let cases: [(&str, &[&str]); 7] = [
            ("reading_time_day", &["reading_time"]),
            ("reading_tme", &["reading_time"]),
            ("sensr_id", &["sensor_id"]),
            ("Value", &["value"]),
            ("day", &[]),
            ("x", &[]),
            ("sensor_id", &[]),
        ];
        for (name, want) in cases {
            assert_eq!(nearest(name, known), want, "{name}");
        }
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "abc"), 3);
    }

    #[test]
    fn says_the_suggestions_as_a_question() {
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(did_you_mean(&["a"]), "did you mean a?");
        assert_eq!(did_you_mean(&["a", "b", "c"]), "did you mean a, b or c?");
    }
}

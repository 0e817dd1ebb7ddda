//! The live consequence the editor shows beside its verdict: the first thing `keyheat check`
//! would say of the draft — its first planner warning, and how the first read is served. Pure:
//! takes a plan, returns words; the editor decides when to plan.

use crate::engine::planner::{Kind, Operation, Plan, cql_verb};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consequence {
    pub text: String,
    /// Whether the plan warns (the verdict is drawn as a warning).
    pub warning: bool,
}

/// `⚠ unbounded partition: Reading {sensor_id} · last-24h: Query, 1 partition`.
pub fn first(plan: &Plan) -> Consequence {
    let mut parts = Vec::new();
    let warning = plan.warnings.first();
    if let Some(w) = warning {
        parts.push(format!("⚠ {}: {}", w.code.id().replace('-', " "), w.subject));
    }
    // The Cassandra profile names its CQL statements.
    let cql = plan.engine.profile().cql();
    let name = |op: Operation| if cql { cql_verb(op) } else { op.name() };
    if let Some(read) = plan.patterns.iter().find(|p| p.kind == Kind::Read) {
        let how = match read.operation {
            None => "✘ no key serves it".to_owned(),
            Some(Operation::Scan) if cql => "✘ full scan".to_owned(),
            Some(Operation::Scan) => "✘ Scan".to_owned(),
            Some(op @ (Operation::GetItem | Operation::BatchGetItem)) => name(op).to_owned(),
            Some(op) if read.fanout == 1 => format!("{}, 1 partition", name(op)),
            Some(op) => format!("{}, {} partitions", name(op), read.fanout),
        };
        parts.push(format!("{}: {how}", read.name));
    }
    Consequence { text: parts.join(" · "), warning: warning.is_some() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner;
    use crate::scenario;

    #[test]
    fn says_the_first_warning_and_how_the_first_read_is_served() {
        let loaded = scenario::load("sensors").unwrap();
        let s = &loaded.scenario;
        let cases = [
            ("naive", "⚠ unbounded partition", "last-24h: SELECT, 1 partition", true),
            ("recommended", "last-24h: SELECT, 2 partitions", "last-24h: SELECT, 2 partitions", false),
        ];
        for (variant, starts, has, warns) in cases {
            let v = s.variants.iter().find(|v| v.name == variant).unwrap();
            let c = first(&planner::plan(s, v));
            assert!(c.text.starts_with(starts) && c.text.contains(has), "{variant}: {c:?}");
            assert_eq!(c.warning, warns, "{variant}: {c:?}");
        }
    }
}

//! Which figures `check` shows as `?`: each rule fires where the replay's figure depends on when
//! a call comes, and stays quiet where the steady state is what the replay measures.

use super::{UnpredictableWhy, pattern, plan_of};
use crate::engine::planner::verdict::{Access, ReadHow, Verdict};

/// (items `?`, units `?`); `None` where check predicts both.
type Unknown = Option<(bool, bool)>;

/// (scenario, variant, pattern, what check cannot predict).
const CASES: &[(&str, &str, &str, Unknown)] = &[
    // Lines are written to the newest order and read from the newest order: the one read is
    // still gaining lines. A Query under 4 KB costs its minimum, so the units are known.
    ("orders", "naive", "order-items", Some((true, false))),
    ("orders", "recommended", "order-items", Some((true, false))),
    // A customer is picked evenly, not newest first.
    ("orders", "recommended", "customer-page", None),
    // 32 balance shards per account, created by ~42,000 postings over the minute for 160,000
    // keys: most quiet accounts' shards do not exist yet. Each missing key still costs its read.
    ("practice-ledger", "recommended", "balance", Some((true, false))),
    // A counter per stream is written thousands of times over the run: it is there.
    ("counters", "naive", "read-count", None),
    ("counters", "recommended", "read-count", None),
    // The viral post takes every comment of its pattern; the ordinary comments pick the newest
    // post, which over the run is a different post each time.
    ("social-feed", "embedded-comments", "comment-viral", Some((false, true))),
    ("social-feed", "recommended", "comment-viral", Some((false, true))),
    ("social-feed", "embedded-comments", "comment", None),
    // Preloaded sessions exist from the start.
    ("practice-sessions", "recommended", "check-session", None),
];

#[test]
fn check_says_what_it_cannot_predict() {
    for &(scenario, variant, name, want) in CASES {
        let plan = plan_of(scenario, variant);
        let p = pattern(&plan, name);
        let got = p.unpredictable.as_ref().map(|u| (u.items, u.units));
        assert_eq!(got, want, "{scenario} {variant} {name}: {:?}", p.unpredictable);
        if let Some(u) = &p.unpredictable {
            // Only a parent picked apart leaves the units unknown; the other rules, the items.
            let apart = matches!(u.why, UnpredictableWhy::ParentApart { .. });
            assert_eq!(u.units, apart, "{scenario} {variant} {name}: {:?}", u.why);
            // The plan's words no longer state the figure it cannot predict ("~1.1 items (94 B)").
            assert!(!u.items || !shows_items(&p.verdict), "{:#?}", p.verdict);
        }
    }
}

/// Whether a read's verdict still shows how many items a call reads (a Query's own figures, or
/// a Scan's).
fn shows_items(verdict: &Verdict) -> bool {
    fn shown(access: &Access) -> bool {
        match access {
            Access::Query(q) => !q.items_unknown,
            Access::Classes { classes, .. } => classes.iter().any(|c| shown(&c.access)),
            Access::Key { .. } | Access::Keys { .. } => false,
        }
    }
    let Verdict::Read(read) = verdict else { return false };
    match &read.how {
        ReadHow::Served(served) => shown(&served.access),
        ReadHow::Split(split) => split.parts.iter().any(|part| shows_items(&part.verdict)),
        ReadHow::Scan(_) => true,
        ReadHow::Search { .. } => false,
    }
}

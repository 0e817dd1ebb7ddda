//! Why a place a read did not choose does not serve it, or what it would cost: the plan's
//! alternatives.

use std::fmt::{self, Display, Formatter};

use crate::engine::planner::verdict::{Considered, Cost, Unserved};
use crate::engine::planner::{cql_verb, numbers};

impl Display for Considered {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Considered::CostsMore(cost) => write!(f, "also serves it ({cost}), but costs more"),
            Considered::Unserved(why) => why.fmt(f),
        }
    }
}

impl Display for Unserved {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Unserved::NotHeld { entity, cql } => {
                write!(f, "{entity} {} are not in it", if *cql { "rows" } else { "items" })
            }
            Unserved::KeysDiffer { entity, key, other, other_key } => write!(
                f,
                "{entity} and {other} have different partition keys there ({key} vs {other_key}), so one request \
                 cannot read both"
            ),
            Unserved::Sparse { attribute, value } => write!(
                f,
                "it only holds items where {attribute} = {value:?}; the pattern does not ask for that"
            ),
            Unserved::Key(gap) => gap.fmt(f),
        }
    }
}

impl Display for Cost {
    /// "Query ×2, ~5.5 RCU per call" (in the Cassandra profile, bytes read instead of units).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let fanout = if self.fanout > 1 { format!(" ×{}", self.fanout) } else { String::new() };
        let fetch = if self.fetch { " + fetch" } else { "" };
        if self.cql {
            write!(
                f,
                "{}{fanout}{fetch}, ~{} read per call",
                cql_verb(self.operation),
                numbers::bytes(self.bytes)
            )
        } else {
            write!(
                f,
                "{}{fanout}{fetch}, ~{} RCU per call",
                self.operation.name(),
                numbers::count(self.units)
            )
        }
    }
}

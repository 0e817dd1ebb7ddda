//! Why a place a read did not choose does not serve it, or what it would cost: the plan's
//! alternatives.

use std::fmt::{self, Display, Formatter};

use crate::engine::planner::verdict::{Considered, Cost, Unserved};
use crate::engine::planner::{numbers, verb};

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
            Unserved::NotHeld { entity, engine } => {
                write!(f, "{entity} {} are not in it", engine.words().item.many)
            }
            Unserved::KeysDiffer { entity, key, other, other_key, engine } => write!(
                f,
                "{entity} and {other} have different {}s there ({key} vs {other_key}), so one request cannot read \
                 both",
                engine.words().partition_key
            ),
            Unserved::Sparse { attribute, value } => write!(
                f,
                "it only holds items where {attribute} = {value:?}; the pattern does not ask for that"
            ),
            Unserved::Key { gap, engine } => super::keys::gap(f, gap, engine.words().partition_key),
        }
    }
}

impl Display for Cost {
    /// "Query ×2, ~5.5 RCU per call" (where nothing is metered, Cassandra's and MongoDB's, bytes
    /// read instead of units).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let fanout = if self.fanout > 1 { format!(" ×{}", self.fanout) } else { String::new() };
        let fetch = if self.fetch { " + fetch" } else { "" };
        if self.engine.profile().metered() {
            write!(
                f,
                "{}{fanout}{fetch}, ~{} RCU per call",
                self.operation.name(),
                numbers::count(self.units)
            )
        } else {
            // A store that meters nothing is compared by the bytes a call reads.
            write!(
                f,
                "{}{fanout}{fetch}, ~{} read per call",
                verb(self.engine.profile().language, self.operation),
                numbers::bytes(self.bytes)
            )
        }
    }
}

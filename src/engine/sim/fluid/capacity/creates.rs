//! A key's first update creates its item (`Model::creates`): on Cosmos DB a create is one write
//! by the document's size and a replace two (the old document deleted, the new inserted:
//! `profile::cosmos`), so the per-operation replay charges an UpdateItem that finds its key
//! empty half what it charges one that finds the item. What this owns: each partition key's
//! chance of holding no item yet, and from it the expected units of a tick's requests. What it
//! must never do: charge a create by how many items the run ends with — the creates come when
//! a key's first write lands, which throttling decides.
//!
//! A member's key holds no item with the chance `π` (ln of it kept; 0 for a preloaded key). In
//! a tick whose `c_f` calls of each creating flow `f` take its share `s_f` of them and land with
//! the chance `λ`, the expected requests that find the key empty — a create each, served or
//! refused — are `π · (1 − Π_f (1 − s_f·λ)^{c_f}) / λ`: the requests before the first that lands
//! (all of them where none lands), of which the landed one is the create that makes the item.
//! They are the member's `Σ_f c_f·s_f` requests' creates, shared by the flows in proportion to
//! their requests, so each request of flow `f` asks `replace_f − (replace_f − create_f) · creates
//! / requests` units, the member's mean. `λ` is the landed share of the partition's write
//! demand in the last tick served (`Capacity::served`; 1 before the first, or after a split),
//! since this tick's is what the demand decides; once the tick is served its own `λ` takes the
//! key's chance of still being empty to `π · Π_f (1 − s_f·λ)^{c_f}`, as the items counted at a
//! bucket's close take it (`Replay::close`, with the bucket's landed share). A member whose key
//! is surely written (`π` under `SETTLED`) is weighed no more, and once every member is the
//! flow's demand is the fixed units' sums again.
//!
//! Left as expectations: a refused create waits for its retry at a create's units, though the
//! retry finds the item when another request of the key landed in between (a replace); the
//! peaks weigh every request at the replace's units (a key's first second asks one create's
//! saving less, at most).

use super::super::model::{Model, Units};
use super::Scope;

/// A chance of an empty key below which its first write is taken as landed: what it leaves
/// out is under 10⁻⁹ of a create's saving per member.
const SETTLED: f64 = 1e-9;

/// The creating flows of one key group, and its members' chances of holding no item.
#[derive(Debug, Clone)]
struct GroupCreates {
    group: usize,
    /// (flow, its replace's units less its create's).
    flows: Vec<(usize, f64)>,
    /// Per member, ln of the chance its key holds no item yet.
    log_empty: Vec<f64>,
    /// Members whose key may still hold no item, ascending.
    pending: Vec<usize>,
}

/// Every key group's creates, for one meter (`Capacity::creates`).
#[derive(Debug, Clone, Default)]
pub struct Creates {
    groups: Vec<GroupCreates>,
}

impl Creates {
    /// The creating flows of the groups `scope` meters (`Model::creates`), their keys empty but
    /// for the preloaded ones.
    pub fn new(model: &Model, scope: &Scope) -> Creates {
        let mut groups: Vec<GroupCreates> = Vec::new();
        for &(f, create) in &model.creates {
            let flow = &model.flows[f];
            let g = flow.group;
            if !scope.groups[g] {
                continue;
            }
            let Units::Each(replace) = flow.units else { continue };
            if let Some(at) = groups.iter_mut().find(|c| c.group == g) {
                at.flows.push((f, replace - create));
                continue;
            }
            let members = usize::try_from(model.groups[g].members).unwrap_or(0);
            let mut log_empty = vec![0.0; members];
            for (&m, pre) in &model.preload[g] {
                if let Some(at) = usize::try_from(m).ok().and_then(|m| log_empty.get_mut(m))
                    && pre.items > 0.0
                {
                    *at = f64::NEG_INFINITY;
                }
            }
            let pending = (0..members).filter(|&m| log_empty[m] > f64::NEG_INFINITY).collect();
            groups.push(GroupCreates { group: g, flows: vec![(f, replace - create)], log_empty, pending });
        }
        for c in &mut groups {
            c.drop_unwritten(model);
        }
        Creates { groups }
    }

    /// Whether flow `f`'s requests may still create an item: its demand is then weighed member
    /// by member (`demand`).
    pub fn pending(&self, f: usize) -> bool {
        self.groups.iter().any(|c| !c.pending.is_empty() && c.flows.iter().any(|&(x, _)| x == f))
    }

    /// Flow `f`'s requests this tick member by member, while some may create an item: (member,
    /// share of the calls, units per request), the calls being `calls(pattern)` and a member's
    /// partition's last landed share `landed(member)`. Settled members are at the replace's
    /// `units`.
    pub fn demand(
        &self,
        model: &Model,
        f: usize,
        units: f64,
        calls: &dyn Fn(usize) -> f64,
        landed: &dyn Fn(usize) -> f64,
        out: &mut Vec<(usize, f64, f64)>,
    ) {
        out.clear();
        let Some(c) = self.groups.iter().find(|c| c.flows.iter().any(|&(x, _)| x == f)) else { return };
        let Some(&(_, saving)) = c.flows.iter().find(|&&(x, _)| x == f) else { return };
        let shares = &model.flows[f].shares;
        let mut next = c.pending.iter().peekable();
        for m in 0..c.log_empty.len() {
            let share = shares.of(m);
            if share <= 0.0 {
                continue;
            }
            if next.peek().is_some_and(|&&p| p == m) {
                next.next();
                let (requests, creates) = c.creates(model, m, calls, landed(m));
                let each =
                    if requests > 0.0 { units - saving * (creates / requests).min(1.0) } else { units };
                out.push((m, share, each));
            } else {
                out.push((m, share, units));
            }
        }
    }

    /// The tick just served: each pending member's chance of an empty key after its requests
    /// landed with its partition's share `landed(group, member)`.
    pub fn served(
        &mut self,
        model: &Model,
        calls: &dyn Fn(usize) -> f64,
        landed: &dyn Fn(usize, usize) -> f64,
    ) {
        for c in &mut self.groups {
            let GroupCreates { group, flows, log_empty, pending } = c;
            pending.retain(|&m| {
                let lambda = landed(*group, m);
                let missed: f64 = flows
                    .iter()
                    .map(|&(f, _)| {
                        let flow = &model.flows[f];
                        log_missed(calls(flow.pattern), flow.shares.of(m) * lambda)
                    })
                    .sum();
                log_empty[m] += missed;
                log_empty[m] >= SETTLED.ln()
            });
        }
    }
}

impl GroupCreates {
    /// Members no creating flow writes never create an item: not pending.
    fn drop_unwritten(&mut self, model: &Model) {
        let flows = &self.flows;
        self.pending.retain(|&m| flows.iter().any(|&(f, _)| model.flows[f].shares.of(m) > 0.0));
    }

    /// Member `m`'s expected requests this tick over the group's creating flows, and of them
    /// those that find its key empty, its partition landing `lambda` of its writes.
    fn creates(&self, model: &Model, m: usize, calls: &dyn Fn(usize) -> f64, lambda: f64) -> (f64, f64) {
        let asked = self.flows.iter().map(|&(f, _)| {
            let flow = &model.flows[f];
            (calls(flow.pattern), flow.shares.of(m))
        });
        expected_creates(self.log_empty[m], asked, lambda)
    }
}

/// A key's expected requests in a tick, and of them those that find it empty (module doc):
/// `log_empty` the log of the chance it is empty before, `asked` each flow's (calls, share),
/// each request landing with `lambda`.
fn expected_creates(log_empty: f64, asked: impl Iterator<Item = (f64, f64)>, lambda: f64) -> (f64, f64) {
    let (mut requests, mut log_none) = (0.0, 0.0);
    for (calls, share) in asked {
        requests += calls * share;
        log_none += log_missed(calls, share * lambda);
    }
    // With nothing landing every request finds the key empty.
    let creates = if lambda > 1e-12 { -log_none.exp_m1() / lambda } else { requests };
    (requests, log_empty.exp() * creates.min(requests))
}

/// `calls × ln(1 − chance)`: none of `calls` calls landed, each with `chance`.
fn log_missed(calls: f64, chance: f64) -> f64 {
    if calls <= 0.0 || chance <= 0.0 { 0.0 } else { calls * (-chance.min(1.0)).ln_1p() }
}

#[cfg(test)]
mod tests {
    use super::expected_creates;

    /// (each flow's (calls, share), ln of the chance the key is empty before, landed share,
    /// expected creates)
    type Case = (&'static [(f64, f64)], f64, f64, f64);

    #[test]
    fn a_keys_creates_are_its_requests_up_to_the_first_that_lands() {
        let cases: [Case; 6] = [
            // Every call on one key, every one landing: the first creates, once.
            (&[(10.0, 1.0)], 0.0, 1.0, 1.0),
            // Half land: the requests up to the first landed one, 1/λ of them (of 10 calls).
            (&[(10.0, 1.0)], 0.0, 0.5, 2.0 * (1.0 - 0.5f64.powi(10))),
            // A key of two taking half of two calls: hit with 1 − ¼, its first request creates.
            (&[(2.0, 0.5)], 0.0, 1.0, 0.75),
            // Two flows onto it, one call each: missed by both with ½ · ¾.
            (&[(1.0, 0.5), (1.0, 0.25)], 0.0, 1.0, 1.0 - 0.5 * 0.75),
            // Written for certain before: no create.
            (&[(10.0, 1.0)], f64::NEG_INFINITY, 1.0, 0.0),
            // Nothing lands: every request finds the key empty (half the time, as empty before).
            (&[(3.0, 1.0)], 0.5f64.ln(), 0.0, 1.5),
        ];
        for (asked, log_empty, lambda, want) in cases {
            let (requests, creates) = expected_creates(log_empty, asked.iter().copied(), lambda);
            assert!((creates - want).abs() < 1e-12, "{asked:?} at {lambda}: {creates}, not {want}");
            assert!(creates <= requests, "{asked:?}: {creates} creates of {requests} requests");
        }
    }
}

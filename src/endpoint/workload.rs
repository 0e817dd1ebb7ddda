//! The requests `keyheat replay --endpoint` sends, and the model it measures them against: one
//! observed replay (`engine::sim::observe`) gives both. Each request is rendered by
//! `interop::trace::Requests`, as `keyheat export trace` writes it, for the table under the name
//! it will have on the endpoint.
//!
//! The observer sees what the simulated client served, each request once, where its retry
//! landed; a request that ran out of retries in the model is not there. Against a real service
//! each is sent once, as a client would, and the service throttles it or not.

use std::collections::HashMap;

use serde_json::{Map, Value as Json};

use crate::engine::judge;
use crate::engine::model::{Scenario, Variant};
use crate::engine::profile::Language;
use crate::engine::sim::observe::{Observer, Request, Source};
use crate::engine::sim::{RunOptions, RunReport, Simulation};
use crate::engine::time::SimTime;
use crate::interop::trace::{Requests, TraceError};
use crate::interop::{self, TableDesign};

/// One request to send.
#[derive(Debug, Clone)]
pub struct Planned {
    /// Simulated milliseconds after the workload's start.
    pub at_ms: u64,
    pub source: Source,
    /// False for the preload, which the model loads at no cost.
    pub metered: bool,
    pub op: &'static str,
    pub body: Map<String, Json>,
}

/// The table, the requests (at most the limit) and the model's judged report of the whole run.
#[derive(Debug)]
pub struct Workload {
    pub table: TableDesign,
    pub requests: Vec<Planned>,
    /// Requests the whole run served, per source (more than `requests` holds when the limit
    /// cut it): what a part sent stands for.
    pub totals: HashMap<Source, u64>,
    pub model: RunReport,
}

/// The table's name on the endpoint: `prefix` + the variant's table, or an existing table.
#[derive(Debug, Clone)]
pub enum Naming {
    Prefix(String),
    Existing(String),
}

/// Replays `variant` once with an observer, keeping the first `limit` requests.
///
/// # Panics
///
/// Never: the observer taken back at the end is the one attached at the start.
pub fn plan(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    naming: &Naming,
    limit: u64,
    progress: &mut dyn FnMut(f64),
) -> Result<Workload, TraceError> {
    if scenario.engine.profile().language != Language::DynamoDbApi {
        return Err(TraceError::NotDynamoDb { scenario: scenario.name.clone(), engine: scenario.engine });
    }
    if let Some(p) = scenario.patterns.iter().find(|p| p.transaction) {
        return Err(TraceError::Transaction { scenario: scenario.name.clone(), pattern: p.name.clone() });
    }
    let mut table = interop::tables(scenario, variant).into_iter().next().ok_or_else(|| {
        TraceError::NoTable { scenario: scenario.name.clone(), variant: variant.name.clone() }
    })?;
    table.name = match naming {
        Naming::Prefix(prefix) => interop::dynamodb_name(&format!("{prefix}{}", table.name)),
        Naming::Existing(name) => name.clone(),
    };
    let collect = Collect {
        requests: Requests::new(&table),
        start: scenario.workload.start,
        planned: Vec::new(),
        totals: HashMap::new(),
        limit,
    };
    let mut sim = Simulation::observed(scenario, variant, options, Box::new(collect))?;
    progress(0.0);
    while sim.step() {
        progress(sim.progress());
    }
    progress(1.0);
    let mut model = sim.report();
    judge::finish(scenario, variant, &mut model);
    let observer: Box<dyn std::any::Any> = sim.take_observer().expect("attached above");
    let collect = observer.downcast::<Collect>().expect("the observer is a Collect");
    Ok(Workload { table, requests: collect.planned, totals: collect.totals, model })
}

/// The observer that keeps the requests.
struct Collect {
    requests: Requests,
    start: SimTime,
    planned: Vec<Planned>,
    totals: HashMap<Source, u64>,
    limit: u64,
}

impl Observer for Collect {
    fn served(&mut self, at: SimTime, metered: bool, source: Source, request: Request<'_>) {
        *self.totals.entry(source).or_default() += 1;
        if self.planned.len() as u64 >= self.limit {
            return;
        }
        let (op, body) = self.requests.fields(request, metered);
        let at_ms = at.as_millis().saturating_sub(self.start.as_millis());
        self.planned.push(Planned { at_ms, source, metered, op, body });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::SimDuration;

    fn counters(limit: u64, naming: &Naming) -> Workload {
        let loaded = crate::scenario::load("counters").unwrap();
        let options = RunOptions { duration: Some(SimDuration::from_millis(2000)), seed: None };
        let variant = loaded.variant(Some("recommended")).unwrap();
        plan(&loaded.scenario, variant, &options, naming, limit, &mut |_| {}).unwrap()
    }

    #[test]
    fn the_requests_name_the_prefixed_table_and_stop_at_the_limit() {
        let w = counters(5, &Naming::Prefix("kh-test-".into()));
        assert_eq!(w.table.name, "kh-test-counters");
        assert_eq!(w.requests.len(), 5);
        assert!(w.totals.values().sum::<u64>() >= 5, "{:?}", w.totals);
        for r in &w.requests {
            let table = r.body.get("TableName").or_else(|| r.body.get("RequestItems"));
            assert!(table.is_some_and(|t| t.to_string().contains("kh-test-counters")), "{r:?}");
        }
        // The model is the whole run, whatever the limit.
        assert!(w.model.totals.requests > 0);
    }

    #[test]
    fn an_existing_table_keeps_its_name() {
        let w = counters(1, &Naming::Existing("mine".into()));
        assert_eq!(w.table.name, "mine");
    }

    #[test]
    fn the_cassandra_profile_is_refused() {
        let loaded = crate::scenario::load("sensors").unwrap();
        let variant = loaded.variant(None).unwrap();
        let naming = Naming::Prefix(String::new());
        let err = plan(&loaded.scenario, variant, &RunOptions::default(), &naming, 10, &mut |_| {});
        assert!(matches!(err, Err(TraceError::NotDynamoDb { .. })), "{err:?}");
    }

    #[test]
    fn a_transaction_is_refused() {
        let source = include_str!("../../tests/fixtures/transactions.ron");
        let loaded = crate::scenario::parse("transactions.ron", source).unwrap();
        let variant = loaded.variant(None).unwrap();
        let naming = Naming::Prefix(String::new());
        let err = plan(&loaded.scenario, variant, &RunOptions::default(), &naming, 10, &mut |_| {});
        assert!(matches!(err, Err(TraceError::Transaction { .. })), "{err:?}");
    }
}

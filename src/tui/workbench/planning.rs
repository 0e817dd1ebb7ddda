//! The plan of the variant the workbench shows, computed on a thread of its own: unoptimized,
//! planning `orders` takes ~200 ms, and the thread that draws never waits for it.
//!
//! Every request has a generation; an answer carries the generation it was asked for, and only
//! the newest request's answer is taken: the plan of a variant the user has since left or edited
//! is dropped, never shown. Until that answer comes there is no plan, and the panels that show
//! it say it is being planned. Nothing here waits except [`Planning::wait`], which headless runs
//! and tests call and the frame loop never does.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::engine::model::Scenario;
use crate::engine::planner::{self, Plan};

/// A plan and the request it answers.
struct Answer {
    generation: u64,
    plan: Plan,
}

/// One request: plans variant `index` of its own copy of the scenario and sends the answer.
struct Job {
    generation: u64,
    scenario: Scenario,
    index: usize,
    send: Sender<Answer>,
}

impl Job {
    fn run(self) {
        if let Some(variant) = self.scenario.variants.get(self.index) {
            let plan = planner::plan(&self.scenario, variant);
            // The workbench may have closed and dropped the receiver: nothing to do then.
            let _ = self.send.send(Answer { generation: self.generation, plan });
        }
    }
}

pub struct Planning {
    /// The newest request's; 0 before the first.
    generation: u64,
    /// The newest request's answer, once it has come.
    plan: Option<Plan>,
    send: Sender<Answer>,
    answers: Receiver<Answer>,
    /// Tests hold the jobs here instead of starting them, and run them when (and in the order)
    /// they choose.
    #[cfg(test)]
    held: Option<Vec<Job>>,
}

impl Planning {
    /// Nothing planned yet: [`Planning::request`] starts.
    pub fn new() -> Planning {
        let (send, answers) = mpsc::channel();
        Planning {
            generation: 0,
            plan: None,
            send,
            answers,
            #[cfg(test)]
            held: None,
        }
    }

    /// Plans variant `index` of `scenario` on a new thread; the plan until now is no longer
    /// shown, and an answer to an earlier request will be dropped when it comes.
    pub fn request(&mut self, scenario: &Scenario, index: usize) {
        self.generation += 1;
        self.plan = None;
        let job =
            Job { generation: self.generation, scenario: scenario.clone(), index, send: self.send.clone() };
        #[cfg(test)]
        if let Some(held) = &mut self.held {
            held.push(job);
            return;
        }
        let spawned = std::thread::Builder::new().name("keyheat-plan".to_owned()).spawn(move || job.run());
        if spawned.is_err() {
            // No thread to be had: planned here, slowly but right.
            self.plan = scenario.variants.get(index).map(|v| planner::plan(scenario, v));
        }
    }

    /// The plan of the newest request, once it has come.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Takes the answers that have come, never waiting; true when the newest request's did.
    pub fn poll(&mut self) -> bool {
        let mut arrived = false;
        while let Ok(answer) = self.answers.try_recv() {
            arrived |= self.take(answer);
        }
        arrived
    }

    /// Waits up to `within` for the newest request's plan (headless runs and tests: never the
    /// frame loop); whether it is here.
    pub fn wait(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        self.poll();
        while self.plan.is_none() && self.generation > 0 {
            match self.answers.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(answer) => {
                    self.take(answer);
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        self.plan.is_some()
    }

    /// Keeps `answer` if it is the newest request's; an older one is stale and dropped.
    fn take(&mut self, answer: Answer) -> bool {
        if answer.generation != self.generation {
            return false;
        }
        self.plan = Some(answer.plan);
        true
    }
}

#[cfg(test)]
impl Planning {
    /// From now on requests wait in [`Planning::run_held`] instead of starting a thread.
    pub fn hold(&mut self) {
        self.held.get_or_insert_with(Vec::new);
    }

    /// Runs the held request of `generation` (1 is the first request ever made) on this thread;
    /// its answer is taken, or dropped as stale, at the next poll.
    pub fn run_held(&mut self, generation: u64) {
        let held = self.held.as_mut().expect("requests are held");
        let at = held.iter().position(|j| j.generation == generation).expect("a held request");
        held.remove(at).run();
    }

    /// The newest request's generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orders() -> Scenario {
        crate::scenario::load("orders").expect("bundled").scenario
    }

    fn index(s: &Scenario, name: &str) -> usize {
        s.variants.iter().position(|v| v.name == name).expect("the variant exists")
    }

    #[test]
    fn nothing_is_shown_until_the_newest_requests_plan_comes() {
        let s = orders();
        let mut p = Planning::new();
        p.hold();
        p.request(&s, index(&s, "naive"));
        assert!(!p.poll() && p.plan().is_none(), "a held request has no plan");
        p.run_held(1);
        assert!(p.poll());
        assert_eq!(p.plan().map(|plan| plan.variant.as_str()), Some("naive"));
        // A new request takes the old plan off at once: it is not the new variant's.
        p.request(&s, index(&s, "recommended"));
        assert!(p.plan().is_none(), "the previous variant's plan is not shown as the new one's");
    }

    #[test]
    fn a_stale_plan_is_dropped_whenever_it_comes() {
        let s = orders();
        let mut p = Planning::new();
        p.hold();
        p.request(&s, index(&s, "naive"));
        p.request(&s, index(&s, "recommended"));
        // The older answer first: dropped, still planning.
        p.run_held(1);
        assert!(!p.poll());
        assert!(p.plan().is_none(), "naive's plan came after the user left it");
        p.run_held(2);
        assert!(p.poll());
        assert_eq!(p.plan().map(|plan| plan.variant.as_str()), Some("recommended"));
        // An older answer arriving after the newest one does not replace it.
        p.request(&s, index(&s, "naive"));
        p.request(&s, index(&s, "recommended"));
        p.run_held(4);
        p.run_held(3);
        p.poll();
        assert_eq!(p.plan().map(|plan| plan.variant.as_str()), Some("recommended"));
    }

    #[test]
    fn wait_returns_the_newest_plan_from_the_thread() {
        let s = orders();
        let mut p = Planning::new();
        assert!(!p.wait(Duration::ZERO), "nothing was asked");
        p.request(&s, index(&s, "naive"));
        p.request(&s, index(&s, "recommended"));
        assert!(p.wait(Duration::from_secs(120)));
        assert_eq!(p.plan().map(|plan| plan.variant.as_str()), Some("recommended"));
    }
}

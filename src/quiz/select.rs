//! Which questions a quiz asks, and how it scores. Selection is a pure function of the bank, the
//! topic, the count and the seed: the same seed asks the same questions in the same order, on
//! every machine, and adding a question to the bank does not reshuffle the others.

use std::collections::HashMap;

use super::{Bank, Question};
use crate::engine::hash::{combine, hash_bytes};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no quiz topic is named {name:?}; the topics are: {topics}")]
pub struct UnknownTopic {
    pub name: String,
    pub topics: String,
}

/// Up to `count` questions, on `topic` or on all topics, in an order fixed by `seed`.
///
/// Each question's place is a hash of the seed and its id. Across topics the quiz then takes one
/// question per topic in turn (topics in the order their first question drew), so a short quiz
/// covers as many topics as it can instead of whatever the shuffle bunched together.
pub fn select<'a>(
    bank: &'a Bank,
    topic: Option<&str>,
    count: usize,
    seed: u64,
) -> Result<Vec<&'a Question>, UnknownTopic> {
    if let Some(name) = topic
        && bank.topic(name).is_none()
    {
        return Err(UnknownTopic { name: name.to_owned(), topics: bank.topic_list() });
    }
    let mut drawn: Vec<(u64, &Question)> = bank
        .questions()
        .iter()
        .filter(|q| topic.is_none_or(|t| q.topic == t))
        .map(|q| (combine(&[seed, hash_bytes(q.id.as_bytes())]), q))
        .collect();
    // Ties need two equal 64-bit hashes; the id settles them anyway, so the order is total.
    drawn.sort_by(|(a, qa), (b, qb)| a.cmp(b).then_with(|| qa.id.cmp(&qb.id)));
    // Round-robin over topics: each question's rank within its topic, then the draw order.
    let mut drawn_per_topic: HashMap<&str, usize> = HashMap::new();
    let mut ranked: Vec<(usize, usize, &Question)> = drawn
        .iter()
        .enumerate()
        .map(|(position, &(_, q))| {
            let count = drawn_per_topic.entry(&q.topic).or_insert(0);
            let rank = *count;
            *count += 1;
            (rank, position, q)
        })
        .collect();
    ranked.sort_by_key(|&(rank, position, _)| (rank, position));
    Ok(ranked.into_iter().take(count).map(|(_, _, q)| q).collect())
}

/// Right answers out of questions asked, overall and per topic.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Score {
    /// Per topic, in the order the topics were first asked.
    pub topics: Vec<TopicScore>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TopicScore {
    pub topic: String,
    pub right: usize,
    pub asked: usize,
}

impl Score {
    pub fn record(&mut self, topic: &str, right: bool) {
        let i = self.topics.iter().position(|t| t.topic == topic).unwrap_or_else(|| {
            self.topics.push(TopicScore { topic: topic.to_owned(), right: 0, asked: 0 });
            self.topics.len() - 1
        });
        let entry = &mut self.topics[i];
        entry.asked += 1;
        entry.right += usize::from(right);
    }

    pub fn right(&self) -> usize {
        self.topics.iter().map(|t| t.right).sum()
    }

    pub fn asked(&self) -> usize {
        self.topics.iter().map(|t| t.asked).sum()
    }

    /// Whole percent right, rounded down (so 100% means every answer was right); `None` before
    /// anything was asked.
    pub fn percent(&self) -> Option<usize> {
        let asked = self.asked();
        (asked > 0).then(|| self.right() * 100 / asked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::bundled;

    #[test]
    fn the_same_seed_asks_the_same_questions() {
        let bank = bundled();
        let ids = |seed| -> Vec<String> {
            select(&bank, None, 10, seed).unwrap().iter().map(|q| q.id.clone()).collect()
        };
        assert_eq!(ids(7), ids(7));
        assert_ne!(ids(7), ids(8), "different seeds should usually differ");
        assert_eq!(ids(7).len(), 10);
    }

    #[test]
    fn a_short_quiz_spreads_over_topics() {
        let bank = bundled();
        for seed in 0..20 {
            let picked = select(&bank, None, bank.topics().len(), seed).unwrap();
            let mut topics: Vec<&str> = picked.iter().map(|q| q.topic.as_str()).collect();
            topics.sort_unstable();
            topics.dedup();
            assert_eq!(topics.len(), bank.topics().len(), "seed {seed}: one question per topic");
        }
    }

    #[test]
    fn a_topic_limits_the_questions_and_count_caps_them() {
        let bank = bundled();
        let gsi = select(&bank, Some("gsi"), 100, 3).unwrap();
        assert_eq!(gsi.len(), bank.count("gsi"));
        assert!(gsi.iter().all(|q| q.topic == "gsi"));
        assert_eq!(select(&bank, Some("gsi"), 2, 3).unwrap().len(), 2);
        assert_eq!(select(&bank, None, 0, 3).unwrap().len(), 0);
        // Every question, each once.
        let all = select(&bank, None, usize::MAX, 3).unwrap();
        let mut ids: Vec<&str> = all.iter().map(|q| q.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), bank.questions().len());
    }

    #[test]
    fn an_unknown_topic_lists_the_topics() {
        let bank = bundled();
        let e = select(&bank, Some("partitions"), 5, 0).unwrap_err();
        assert_eq!(e.name, "partitions");
        assert!(e.to_string().contains("hot-partitions") && e.to_string().contains("gsi"), "{e}");
    }

    #[test]
    fn scores_add_up_per_topic() {
        let mut s = Score::default();
        assert_eq!(s.percent(), None);
        s.record("gsi", true);
        s.record("ttl", false);
        s.record("gsi", false);
        s.record("gsi", true);
        assert_eq!((s.right(), s.asked(), s.percent()), (2, 4, Some(50)));
        assert_eq!(
            s.topics,
            vec![
                TopicScore { topic: "gsi".into(), right: 2, asked: 3 },
                TopicScore { topic: "ttl".into(), right: 0, asked: 1 },
            ]
        );
        let mut third = Score::default();
        third.record("x", true);
        third.record("x", false);
        third.record("x", false);
        assert_eq!(third.percent(), Some(33));
    }
}

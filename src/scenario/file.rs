//! The scenario file as written (format version 1): the serde shapes of the file, its topics
//! and its groups, unknown keys rejected. Validation into a [`Scenario`](super::Scenario) is in
//! `parse`.

use super::ActionSpec;
use crate::collections::VecMap;
use crate::sim::BrokerId;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A scenario file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Format version; must be 1.
    pub version: u32,
    /// Short machine name.
    #[serde(default)]
    pub name: Option<String>,
    /// Title for people.
    #[serde(default)]
    pub title: Option<String>,
    /// What the scenario shows.
    #[serde(default)]
    pub description: Option<String>,
    /// Seed of the world's RNG.
    #[serde(default)]
    pub seed: u64,
    /// Kafka release whose rules apply (default "3.9").
    #[serde(default)]
    pub profile: Option<String>,
    /// Setting overrides.
    #[serde(default)]
    pub config: VecMap<String, Value>,
    /// Broker ids, or `{"id": N, "start_ms": T}`.
    pub brokers: Vec<Value>,
    /// Topics, created once the brokers listed at t=0 are up.
    #[serde(default)]
    pub topics: Vec<TopicFile>,
    /// Consumer groups; with any, `__consumer_offsets` is created along with the topics.
    #[serde(default)]
    pub groups: Vec<GroupFile>,
    /// Timed actions, in time order.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
    /// When the run ends.
    #[serde(default)]
    pub until_ms: Option<u64>,
    /// Checkpoints.
    #[serde(default)]
    pub expect: Vec<Map<String, Value>>,
}

/// A topic as written: explicit `replicas`, or `partitions` and `replication_factor`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicFile {
    /// The topic's name.
    pub name: String,
    /// Each partition's replicas in assignment order.
    #[serde(default)]
    pub replicas: Option<Vec<Vec<BrokerId>>>,
    /// How many partitions (with `replication_factor`).
    #[serde(default)]
    pub partitions: Option<u32>,
    /// How many replicas each.
    #[serde(default)]
    pub replication_factor: Option<u32>,
    /// Topic-level settings.
    #[serde(default)]
    pub config: VecMap<String, Value>,
}

/// A consumer group as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFile {
    /// The group id.
    pub id: String,
    /// The topics its members subscribe to.
    pub topics: Vec<String>,
    /// `range` (the default) or `roundrobin`.
    #[serde(default)]
    pub assignor: Option<String>,
}

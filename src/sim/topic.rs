//! Topics and partitions: names, per-topic configuration and the producer's `acks`.

use super::net::BrokerId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Whether `name` is one of Kafka's internal topics (`Topic.isInternal` in
/// `org.apache.kafka.common.internals.Topic`: `__consumer_offsets` and `__transaction_state`
/// at 2.0.1, with `__share_group_state` added by 3.9.0). Scenario files refuse user topics
/// whose names start with `__`, so only the model's `__consumer_offsets` ever is one.
pub fn is_internal(name: &str) -> bool {
    matches!(
        name,
        "__consumer_offsets" | "__transaction_state" | "__share_group_state"
    )
}

/// One partition of one topic, written `T-0` as Kafka's logs write it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicPartition {
    /// The topic's name.
    pub topic: String,
    /// The partition number.
    pub partition: u32,
}

impl TopicPartition {
    /// `topic`-`partition`.
    pub fn new(topic: &str, partition: u32) -> Self {
        TopicPartition {
            topic: topic.to_string(),
            partition,
        }
    }
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// Topic-level overrides of the broker defaults (`kafka-configs --entity-type topics`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicConfig {
    /// `unclean.leader.election.enable` for this topic.
    pub unclean_leader_election_enable: Option<bool>,
    /// `min.insync.replicas` for this topic.
    pub min_insync_replicas: Option<u32>,
}

/// The topic-level setting names.
pub const TOPIC_SETTING_NAMES: [&str; 2] =
    ["unclean.leader.election.enable", "min.insync.replicas"];

impl TopicConfig {
    /// Applies one override; the error names the key and what is wrong with the value.
    pub fn set(&mut self, key: &str, value: &serde_json::Value) -> Result<(), String> {
        match key {
            "unclean.leader.election.enable" => {
                self.unclean_leader_election_enable = Some(as_bool(key, value)?)
            }
            "min.insync.replicas" => {
                let v = value
                    .as_u64()
                    .ok_or_else(|| format!("\"{key}\" must be a whole number, not {value}"))?;
                if !(1..=64).contains(&v) {
                    return Err(format!("\"{key}\" must be between 1 and 64, not {v}"));
                }
                self.min_insync_replicas = Some(v as u32);
            }
            _ => {
                return Err(format!(
                    "unknown topic setting \"{key}\"; topic settings: {}",
                    TOPIC_SETTING_NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

/// Reads a boolean setting: `true`/`false`, or the strings Kafka's tools accept.
pub fn as_bool(key: &str, value: &serde_json::Value) -> Result<bool, String> {
    match value {
        serde_json::Value::Bool(b) => Ok(*b),
        serde_json::Value::String(s) if s == "true" => Ok(true),
        serde_json::Value::String(s) if s == "false" => Ok(false),
        _ => Err(format!("\"{key}\" must be true or false, not {value}")),
    }
}

/// A topic as the cluster is set up with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicSpec {
    /// Its name.
    pub name: String,
    /// The replicas of each partition in assignment order (the first is the preferred replica).
    pub replicas: Vec<Vec<BrokerId>>,
    /// Topic-level overrides.
    pub config: TopicConfig,
}

/// The producer's `acks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Acks {
    /// `acks=0`: fire and forget; the producer never hears back.
    #[serde(rename = "0")]
    Zero,
    /// `acks=1`: the leader's own append is enough.
    #[serde(rename = "1")]
    One,
    /// `acks=all`: every in-sync replica has the records (the high watermark passed them).
    #[serde(rename = "all")]
    All,
}

impl Acks {
    /// As Kafka spells it: `0`, `1`, `all`.
    pub fn name(self) -> &'static str {
        match self {
            Acks::Zero => "0",
            Acks::One => "1",
            Acks::All => "all",
        }
    }

    /// Parses `0`, `1`, `all` (or `-1`).
    pub fn parse(s: &str) -> Result<Acks, String> {
        match s {
            "0" => Ok(Acks::Zero),
            "1" => Ok(Acks::One),
            "all" | "-1" => Ok(Acks::All),
            _ => Err(format!("acks must be \"0\", \"1\" or \"all\", not \"{s}\"")),
        }
    }
}

impl fmt::Display for Acks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

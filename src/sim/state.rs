//! The state a simulation shows at one moment: what `kafka-election run` prints, what
//! scenario `expect` blocks are checked against, and what the page draws.

use serde::Serialize;
use std::collections::BTreeMap;

use super::net::BrokerId;

/// The whole cluster at one virtual time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterState {
    /// Virtual time.
    pub time_ms: u64,
    /// The broker `/controller` names, or `null` while there is none.
    pub controller: Option<BrokerId>,
    /// The value of `/controller_epoch` (0 before the first election).
    pub controller_epoch: u64,
    /// Every broker by id (JSON writes the ids as string keys).
    pub brokers: BTreeMap<BrokerId, BrokerView>,
    /// Partitions by `topic-partition` (none are simulated yet).
    pub partitions: BTreeMap<String, serde_json::Value>,
    /// Consumer groups by id (none are simulated yet).
    pub groups: BTreeMap<String, serde_json::Value>,
    /// Acknowledged records lost, by partition.
    pub lost_records: BTreeMap<String, u64>,
    /// Broken safety invariants, as `"name: detail"`.
    pub violations: Vec<String>,
}

/// One broker as the state shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BrokerView {
    /// `not_started`, `running`, `paused`, `shutting_down`, `crashed` or `stopped`.
    pub state: &'static str,
    /// The czxid of its registration (the last one it had, when not registered).
    pub broker_epoch: Option<i64>,
    /// Whether `/brokers/ids/N` exists.
    pub registered: bool,
    /// Whether the process believes it is the controller (a zombie may, wrongly).
    pub acts_as_controller: bool,
    /// The epoch it acts with, while it acts as controller.
    pub acting_epoch: Option<u64>,
    /// The newest controller epoch the broker has accepted a request from.
    pub known_controller_epoch: u64,
    /// The controller that sent that request.
    pub known_controller: Option<BrokerId>,
    /// The broker's ZooKeeper client: `none`, `connecting`, `connected`, `disconnected`.
    pub zk_connection: &'static str,
    /// The live ZooKeeper session it owns, as ZooKeeper sees it (hex).
    pub zk_session: Option<String>,
    /// Time left before ZooKeeper expires that session if it hears nothing more.
    pub session_expires_in_ms: Option<u64>,
    /// When a paused broker froze.
    pub paused_since_ms: Option<u64>,
    /// When a paused broker wakes up.
    pub paused_until_ms: Option<u64>,
    /// Whether its link to ZooKeeper is cut.
    pub zk_link_cut: bool,
}

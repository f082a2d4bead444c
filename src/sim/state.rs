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
    /// Partitions by `topic-partition`, in topic and partition order.
    pub partitions: BTreeMap<String, PartitionView>,
    /// Consumer groups by id.
    pub groups: BTreeMap<String, GroupView>,
    /// Acknowledged records lost, by partition.
    pub lost_records: BTreeMap<String, u64>,
    /// The producer clients and the batches they are not done with.
    pub producer: ProducerView,
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
    /// What its fetchers skip: `"all"`, a topic, or a `topic-partition`.
    pub stalled_fetchers: Vec<String>,
}

/// One partition as the state shows it: ZooKeeper's partition state plus each replica's log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionView {
    /// The assignment, preferred replica first.
    pub replicas: Vec<BrokerId>,
    /// The leader in ZooKeeper's partition state; -1 while offline.
    pub leader: i64,
    /// The leader epoch in ZooKeeper's partition state.
    pub leader_epoch: u64,
    /// The ISR in ZooKeeper's partition state.
    pub isr: Vec<BrokerId>,
    /// The controller epoch that wrote the partition state.
    pub controller_epoch: u64,
    /// The leader's high watermark (while offline, the highest any replica knows).
    pub high_watermark: u64,
    /// Each replica's log end offset (logs survive crashes).
    pub log_end_offsets: BTreeMap<BrokerId, u64>,
    /// Each replica's role as its broker acts on it: `leader`, `in_sync`, `out_of_sync`,
    /// `offline` (its broker is down) or `frozen` (its broker is paused). In a split brain two
    /// replicas may act as leader.
    pub replica_states: BTreeMap<BrokerId, &'static str>,
    /// The preferred replica (the first of the assignment).
    pub preferred: BrokerId,
    /// `unclean.leader.election.enable` in force for the topic.
    pub unclean_leader_election: bool,
    /// `min.insync.replicas` in force for the topic.
    pub min_insync_replicas: u32,
    /// Records the producer had acknowledged (acks 1 or all).
    pub acked_records: u64,
    /// Records whose produce failed: the producer gave them up (an error it does not retry,
    /// or a timeout). Some of them may be in the log all the same.
    pub failed_records: u64,
    /// Records the producer sent again after an error (counted once per retry).
    pub retried_records: u64,
    /// Records in the leader's log (while offline, the longest log's) that are a second copy
    /// of a batch it already held: retries of a producer without idempotence.
    pub duplicate_records: u64,
    /// The producer's stream to this partition, if one runs: `{acks, rate_per_s}`.
    pub stream: Option<StreamView>,
}

/// A consumer group: as its coordinator holds it, and as its consumers see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupView {
    /// The broker coordinating it (the acting leader of its `__consumer_offsets` partition
    /// that holds the group), or `null`.
    pub coordinator: Option<BrokerId>,
    /// `abs(hashCode(group id)) % offsets.topic.num.partitions`.
    pub coordinator_partition: u32,
    /// `Empty`, `PreparingRebalance`, `CompletingRebalance`, `Stable`, or `null` while no
    /// coordinator holds the group.
    pub state: Option<&'static str>,
    /// The generation.
    pub generation: u32,
    /// The leader's name (client id).
    pub leader: Option<String>,
    /// The members' names, in the iteration order of the coordinator's member map.
    pub members: Vec<String>,
    /// Each member's id (`client-id-UUID`).
    pub member_ids: BTreeMap<String, String>,
    /// Each member's partitions in the current generation.
    pub assignment: BTreeMap<String, Vec<String>>,
    /// Every consumer of the group, as the client sees itself.
    pub consumers: BTreeMap<String, ConsumerView>,
}

/// A consumer, from its own side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsumerView {
    /// `finding_coordinator`, `joining`, `syncing`, `stable`, `left`, `crashed`.
    pub state: &'static str,
    /// Its member id (empty before the coordinator gave one).
    pub member_id: String,
    /// The generation it is in.
    pub generation: u32,
    /// The coordinator it talks to.
    pub coordinator: Option<BrokerId>,
    /// Whether it leads its generation.
    pub leader: bool,
    /// Its partitions.
    pub assignment: Vec<String>,
}

/// The producer clients and their batches in progress.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ProducerView {
    /// Each client that has sent anything, by its `acks` (`acks` is a producer setting, so
    /// each value is its own client), with the settings it runs with.
    pub clients: BTreeMap<String, ProducerClientView>,
    /// The batches not done yet, by partition and client: the ones in flight first, then the
    /// accumulator's queue in order. Consecutive batches in the same situation are one entry.
    pub batches: Vec<ProducerBatchView>,
}

/// One producer client's settings in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProducerClientView {
    /// `retries`.
    pub retries: u32,
    /// `enable.idempotence` in force (the defaults and Kafka's own overrides applied).
    pub enable_idempotence: bool,
    /// `delivery.timeout.ms` (`null` before 2.1).
    pub delivery_timeout_ms: Option<u64>,
    /// `request.timeout.ms`.
    pub request_timeout_ms: u64,
    /// `retry.backoff.ms`.
    pub retry_backoff_ms: u64,
}

/// Batches of one partition and client in the same situation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProducerBatchView {
    /// `topic-partition`.
    pub partition: String,
    /// The client's `acks`.
    pub acks: &'static str,
    /// Records in these batches.
    pub records: u64,
    /// How many batches (a stream makes one per 100 ms).
    pub batches: u64,
    /// Which try this is (1: the first; a retried batch counts up).
    pub attempt: u32,
    /// What they wait on: `in_flight` (sent to `broker`, answered or given up by
    /// `until_ms`, the request timeout), `retry_backoff` (sent again at `until_ms`),
    /// `waiting_for_leader` (no leader known, or `broker`, the leader the metadata names,
    /// refuses the connection) or `queued` (behind batches in flight); waiting ones expire at
    /// `until_ms` (`delivery.timeout.ms` from 2.1, `request.timeout.ms` in the accumulator
    /// before).
    pub waits: &'static str,
    /// The broker involved, if any.
    pub broker: Option<BrokerId>,
    /// When the timer they wait on fires.
    pub until_ms: Option<u64>,
    /// The error of their last try, if they are being retried.
    pub error: Option<&'static str>,
}

/// A steady produce stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamView {
    /// `0`, `1` or `all`.
    pub acks: &'static str,
    /// Records per second.
    pub rate_per_s: u64,
}

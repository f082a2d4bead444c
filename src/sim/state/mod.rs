//! The state a simulation shows at one moment: what `kafka-election run` prints, what
//! scenario `expect` blocks are checked against, and what the page draws.
//!
//! This module holds the view types; [`build`] builds them from the world's parts.

use crate::collections::VecMap;
use serde::{Deserialize, Serialize};

use super::net::BrokerId;
use super::topic::Acks;

pub mod build;

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
    pub brokers: VecMap<BrokerId, BrokerView>,
    /// Partitions by `topic-partition`, in topic and partition order.
    pub partitions: VecMap<String, PartitionView>,
    /// Consumer groups by id.
    pub groups: VecMap<String, GroupView>,
    /// Acknowledged records lost, by partition.
    pub lost_records: VecMap<String, u64>,
    /// The producer clients and the batches they are not done with.
    pub producer: ProducerView,
    /// Broken safety invariants, as `"name: detail"`.
    pub violations: Vec<String>,
    /// Every session ZooKeeper holds open, in the order it opened them, with the time left
    /// before it expires the session. A broker started again before ZooKeeper expired its old
    /// session has two while both live: the old one keeps its ephemeral znodes
    /// (`/brokers/ids/N`, perhaps `/controller`) until it expires. Not in the JSON state.
    #[serde(skip)]
    pub sessions: Vec<SessionView>,
}

/// A ZooKeeper session as the server holds it (`SessionTrackerImpl`), with the countdown to
/// its expiry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionView {
    /// The session id ([`BrokerView::zk_session`] writes it in hex).
    pub session: u64,
    /// The broker that opened it.
    pub owner: BrokerId,
    /// The negotiated timeout: the broker's `zookeeper.session.timeout.ms`, held between 2 and
    /// 20 of the server's ticks (`ZooKeeperServer.processConnectRequest`).
    pub timeout_ms: u64,
    /// When the server last heard from the client (a request, a ping or a reconnect:
    /// `SessionTrackerImpl.touchSession`).
    pub last_heard_ms: u64,
    /// Time left before the session tracker expires the session if it hears nothing more: it
    /// expires sessions on tick boundaries, at the first boundary after the last contact plus
    /// the timeout (`ExpiryQueue.roundToNextInterval`), so this is up to one tick more than
    /// the timeout. At zero ZooKeeper expires it and deletes its ephemeral znodes.
    pub expires_in_ms: u64,
}

/// What a stalled fetcher skips (a stall action).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StallScope {
    /// Every partition.
    All,
    /// Every partition of a topic.
    Topic(String),
    /// One partition, `topic-partition`.
    Partition(String),
}

/// One broker as the state shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BrokerView {
    /// `not_started`, `running`, `paused`, `shutting_down`, `crashed` or `stopped`.
    pub state: BrokerState,
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
    pub zk_connection: ZkConnection,
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
    /// The same, typed.
    #[serde(skip)]
    pub stalls: Vec<StallScope>,
    /// How the broker stands with respect to the controller role: whether it acts as
    /// controller (`KafkaController.isActive`) and whether ZooKeeper's `/controller` names it.
    /// Not in the JSON state (it follows from `acts_as_controller` and `controller`).
    #[serde(skip)]
    pub controller_role: ControllerRole,
    /// [`BrokerView::session_expires_in_ms`] while the session may be running out: the
    /// broker is not `running` (crashed, stopped, paused, shutting down), its link to
    /// ZooKeeper is cut or its client is not connected, so its heartbeats may not reach
    /// ZooKeeper, which expires the session, and deletes its ephemeral znodes, when this
    /// reaches zero (`zookeeper.session.timeout.ms` without a heartbeat). `None` while the
    /// broker is running and connected. Not in the JSON state.
    #[serde(skip)]
    pub session_countdown_ms: Option<u64>,
    /// While the broker acts as controller: each request it sent to a broker and has no
    /// answer to yet (`ControllerChannelManager` keeps one in flight per broker), by broker.
    /// Not in the JSON state.
    #[serde(skip)]
    pub controller_requests: Vec<ControllerRequestView>,
}

/// A controller-to-broker request awaiting its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerRequestView {
    /// The broker it was sent to.
    pub to: BrokerId,
    /// What it asks.
    pub request: ControllerRequest,
    /// Its correlation id.
    pub correlation_id: u64,
    /// Time left before the controller gives up waiting and sends it again
    /// (`controller.socket.timeout.ms`: `RequestSendThread` reconnects and retries for as long
    /// as the broker is live); 0 while the controller is paused past it. `None` if no such
    /// timer runs.
    pub timeout_in_ms: Option<u64>,
    /// Requests queued behind it for that broker.
    pub queued: usize,
}

/// A request of the controller to a broker (Kafka's `ApiKeys`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ControllerRequest {
    /// `LeaderAndIsr`: lead or follow these partitions.
    LeaderAndIsr,
    /// `UpdateMetadata`: the cluster metadata.
    UpdateMetadata,
    /// `StopReplica`: stop (and maybe delete) these replicas.
    StopReplica,
}

impl ControllerRequest {
    /// Kafka's name of the request.
    pub fn name(self) -> &'static str {
        match self {
            ControllerRequest::LeaderAndIsr => "LeaderAndIsr",
            ControllerRequest::UpdateMetadata => "UpdateMetadata",
            ControllerRequest::StopReplica => "StopReplica",
        }
    }
}

/// A broker process's state, as the state shows it (Kafka's own `BrokerState` in
/// `kafka.server.BrokerState`: `NotRunning`, `RunningAsBroker`, `PendingControlledShutdown`,
/// `BrokerShuttingDown`, with the model's pause and crash told apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BrokerState {
    /// Listed in the scenario, not started yet.
    NotStarted,
    /// Up and running.
    Running,
    /// Frozen (a long GC pause).
    Paused,
    /// Waiting for the controller to complete its controlled shutdown
    /// (`PendingControlledShutdown`).
    ShuttingDown,
    /// Killed without a goodbye.
    Crashed,
    /// Stopped after a (controlled or failed) shutdown.
    Stopped,
}

impl BrokerState {
    /// The name in the JSON state: `not_started`, `running`, `paused`, `shutting_down`,
    /// `crashed`, `stopped`.
    pub fn name(self) -> &'static str {
        match self {
            BrokerState::NotStarted => "not_started",
            BrokerState::Running => "running",
            BrokerState::Paused => "paused",
            BrokerState::ShuttingDown => "shutting_down",
            BrokerState::Crashed => "crashed",
            BrokerState::Stopped => "stopped",
        }
    }

    /// Whether the process exists (running, frozen or shutting down); a broker that is not
    /// alive can be started.
    pub fn is_alive(self) -> bool {
        matches!(
            self,
            BrokerState::Running | BrokerState::Paused | BrokerState::ShuttingDown
        )
    }
}

/// A broker's ZooKeeper client connection (ZooKeeper's `ClientCnxn` states as Kafka's
/// `ZooKeeperClient` sees them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ZkConnection {
    /// No session (the process is not running): `none` in the JSON state.
    #[serde(rename = "none")]
    Idle,
    /// Waiting for the server to open or resume a session.
    Connecting,
    /// Session open and the server heard from recently.
    Connected,
    /// Read timeout passed with no word from the server; retrying.
    Disconnected,
}

impl ZkConnection {
    /// The name in the JSON state: `none`, `connecting`, `connected`, `disconnected`.
    pub fn name(self) -> &'static str {
        match self {
            ZkConnection::Idle => "none",
            ZkConnection::Connecting => "connecting",
            ZkConnection::Connected => "connected",
            ZkConnection::Disconnected => "disconnected",
        }
    }
}

/// How a broker stands with respect to the controller role.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ControllerRole {
    /// Not acting as controller, and `/controller` does not name it.
    #[default]
    None,
    /// Acts as controller and ZooKeeper's `/controller` names it.
    Controller,
    /// Acts as controller but `/controller` names another broker, or none: a zombie (it has
    /// not yet seen its session expire, or its resignation is still to come).
    Zombie,
    /// `/controller` still names it, but it does not act (it crashed and ZooKeeper has not
    /// expired its session yet, so the ephemeral znode stays).
    Named,
}

impl ControllerRole {
    /// The role of a broker that acts as controller or not (`acts`) when `/controller`
    /// names it or not (`named`).
    pub fn of(acts: bool, named: bool) -> ControllerRole {
        match (acts, named) {
            (true, true) => ControllerRole::Controller,
            (true, false) => ControllerRole::Zombie,
            (false, true) => ControllerRole::Named,
            (false, false) => ControllerRole::None,
        }
    }
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
    pub log_end_offsets: VecMap<BrokerId, u64>,
    /// Each replica's role as its broker acts on it: `leader`, `in_sync`, `out_of_sync`,
    /// `offline` (its broker is down) or `frozen` (its broker is paused). In a split brain two
    /// replicas may act as leader.
    pub replica_states: VecMap<BrokerId, ReplicaState>,
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
    /// Whether the partition exists: the controller has written its state znode
    /// (`/brokers/topics/T/partitions/N/state`, `PartitionStateMachine`'s `NewPartition` ->
    /// `OnlinePartition`). Before that the other figures are placeholders. Not in the JSON
    /// state.
    #[serde(skip)]
    pub exists: bool,
    /// How far each replica of the assignment is behind: the log end offset of the leader
    /// ZooKeeper names minus its own (while the partition has no leader, or the leader's log
    /// is not known, the longest log's end offset minus its own); 0 for the leader. Kafka's
    /// leader compares a follower's fetch position with its own log end offset in the same
    /// way to decide whether it is caught up (`Partition.maybeShrinkIsr`,
    /// `Replica.lastCaughtUpTimeMs`); the follower's `FetcherLagMetrics` report it against
    /// the high watermark. Not in the JSON state.
    #[serde(skip)]
    pub lag: VecMap<BrokerId, u64>,
    /// What is wrong with the partition, as Kafka's partition metrics count it. Not in the
    /// JSON state.
    #[serde(skip)]
    pub health: PartitionHealth,
    /// For each follower in the acting leader's ISR whose lag clock runs: the time left before
    /// the leader counts it out of sync, `replica.lag.time.max.ms` after it was last caught up
    /// (the leader's `lastCaughtUpTimeMs` of it). It is 0 exactly when the rule holds:
    /// `now - lastCaughtUpTimeMs > replica.lag.time.max.ms`, and from 2.1 only while the
    /// follower is behind the leader's log end, so a caught-up follower has no entry
    /// (`Partition.isFollowerOutOfSync`, 2.4.1 and 3.9.0; `Partition.getOutOfSyncReplicas`,
    /// 2.0.1 and 0.10.2.2, where the lag time alone decides). A follower the leader has never
    /// heard of counts as out of sync (0). The leader's next ISR-expiration check
    /// ([`PartitionView::isr_check_in_ms`]) then removes it, unless an ISR change is already
    /// pending. Empty while no broker acts as the leader ZooKeeper names. Not in the JSON
    /// state.
    #[serde(skip)]
    pub isr_expiry_in_ms: VecMap<BrokerId, u64>,
    /// Time left before the acting leader's next ISR-expiration check (`ReplicaManager`'s
    /// `isr-expiration` task, every `replica.lag.time.max.ms` / 2); 0 while its process is
    /// paused past it. `None` while no broker acts as the leader ZooKeeper names. Not in the
    /// JSON state.
    #[serde(skip)]
    pub isr_check_in_ms: Option<u64>,
}

/// A replica's role as its broker acts on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplicaState {
    /// Its broker acts as the partition's leader (in a split brain, maybe a deposed one).
    Leader,
    /// A follower in ZooKeeper's ISR.
    InSync,
    /// A follower outside the ISR.
    OutOfSync,
    /// Its broker is down (crashed, stopped or not started).
    Offline,
    /// Its broker is paused.
    Frozen,
}

impl ReplicaState {
    /// The name in the JSON state: `leader`, `in_sync`, `out_of_sync`, `offline`, `frozen`.
    pub fn name(self) -> &'static str {
        match self {
            ReplicaState::Leader => "leader",
            ReplicaState::InSync => "in_sync",
            ReplicaState::OutOfSync => "out_of_sync",
            ReplicaState::Offline => "offline",
            ReplicaState::Frozen => "frozen",
        }
    }
}

/// What is wrong with a partition. Every field is `false` (or empty) for a healthy one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PartitionHealth {
    /// No leader: ZooKeeper's partition state has leader -1, nobody can read or write it
    /// (the partitions `KafkaController`'s `OfflinePartitionsCount` counts).
    pub offline: bool,
    /// ZooKeeper names a leader whose broker is down: the controller has not noticed yet (it
    /// moves leadership away in `onBrokerFailure` once the broker's session expires).
    pub leader_down: bool,
    /// ZooKeeper names a leader whose broker is paused: nothing is written until it wakes or
    /// loses leadership.
    pub leader_frozen: bool,
    /// Brokers other than the leader ZooKeeper names that still act as leader: a split brain
    /// (they never accepted the `LeaderAndIsr` request that deposed them). Only while
    /// ZooKeeper names a leader.
    pub split_brain: Vec<BrokerId>,
    /// The ISR is smaller than the assignment (`Partition.isUnderReplicated`, counted by
    /// `ReplicaManager`'s `UnderReplicatedPartitions`; Kafka counts it at the leader, this
    /// flag is set whether or not there is one).
    pub under_replicated: bool,
    /// A leader exists and the ISR is smaller than `min.insync.replicas`: `acks=all` writes
    /// fail with `NOT_ENOUGH_REPLICAS` (`Partition.isUnderMinIsr`, counted by
    /// `ReplicaManager`'s `UnderMinIsrPartitionCount`).
    pub under_min_isr: bool,
}

impl PartitionHealth {
    /// The health of a partition whose ZooKeeper state names `leader` (-1: none) with `isr`,
    /// given its `replicas`, each replica's state and `min.insync.replicas`.
    pub fn of(
        leader: i64,
        isr: &[BrokerId],
        replicas: &[BrokerId],
        replica_states: &VecMap<BrokerId, ReplicaState>,
        min_insync_replicas: u32,
    ) -> PartitionHealth {
        let named = BrokerId::try_from(leader).ok();
        let named_state = named.and_then(|l| replica_states.get(&l).copied());
        PartitionHealth {
            offline: leader < 0,
            leader_down: named_state == Some(ReplicaState::Offline),
            leader_frozen: named_state == Some(ReplicaState::Frozen),
            split_brain: match named {
                Some(l) => replica_states
                    .iter()
                    .filter(|(b, r)| **r == ReplicaState::Leader && **b != l)
                    .map(|(b, _)| *b)
                    .collect(),
                None => Vec::new(),
            },
            under_replicated: isr.len() < replicas.len(),
            under_min_isr: leader >= 0 && (isr.len() as u32) < min_insync_replicas,
        }
    }
}

/// How far each of `replicas` is behind, given each replica's log end offset and the leader
/// ZooKeeper names (-1: none): see [`PartitionView::lag`].
pub fn replica_lag(
    replicas: &[BrokerId],
    log_end_offsets: &VecMap<BrokerId, u64>,
    leader: i64,
) -> VecMap<BrokerId, u64> {
    let reference = BrokerId::try_from(leader)
        .ok()
        .and_then(|l| log_end_offsets.get(&l).copied())
        .unwrap_or_else(|| log_end_offsets.values().copied().max().unwrap_or(0));
    replicas
        .iter()
        .map(|r| {
            let own = log_end_offsets.get(r).copied().unwrap_or(0);
            (*r, reference.saturating_sub(own))
        })
        .collect()
}

/// A consumer group: as its coordinator holds it, and as its consumers see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupView {
    /// The broker coordinating it (the acting leader of its `__consumer_offsets` partition
    /// that holds the group), or `null`.
    pub coordinator: Option<BrokerId>,
    /// `abs(hashCode(group id)) % offsets.topic.num.partitions`.
    pub coordinator_partition: u32,
    /// The acting leader of that `__consumer_offsets` partition: the broker FindCoordinator
    /// names (`KafkaApis.getCoordinator`, 3.9.0), which coordinates the group from its first
    /// JoinGroup on, creating it then (`GroupCoordinator.handleJoinGroup`:
    /// `getOrMaybeCreateGroup`). Known before any consumer joins. Not in the JSON state.
    #[serde(skip)]
    pub offsets_leader: Option<BrokerId>,
    /// Whether no consumer of the group has started yet, so no broker has created the group
    /// (it is created at its first JoinGroup). Not in the JSON state.
    #[serde(skip)]
    pub awaits_first_join: bool,
    /// `Empty`, `PreparingRebalance`, `CompletingRebalance`, `Stable`, or `null` while no
    /// coordinator holds the group.
    pub state: Option<GroupState>,
    /// The generation.
    pub generation: u32,
    /// The leader's name (client id).
    pub leader: Option<String>,
    /// The members' names, in the iteration order of the coordinator's member map.
    pub members: Vec<String>,
    /// Each member's id (`client-id-UUID`).
    pub member_ids: VecMap<String, String>,
    /// Each member's partitions in the current generation.
    pub assignment: VecMap<String, Vec<String>>,
    /// Every consumer of the group, as the client sees itself.
    pub consumers: VecMap<String, ConsumerView>,
    /// What the coordinator's rebalance in progress waits on, and for how long yet. `None`
    /// while no rebalance runs or no coordinator holds the group. Not in the JSON state.
    #[serde(skip)]
    pub rebalance_countdown: Option<RebalanceCountdown>,
    /// Each member's session at the coordinator, by name: the time left before the
    /// coordinator removes it if no heartbeat (or other request) arrives, its
    /// `session.timeout.ms` after it was last heard from (`DelayedHeartbeat`,
    /// `GroupCoordinator.onExpireHeartbeat`; a member waiting in JoinGroup is kept alive when
    /// it falls due). Not in the JSON state.
    #[serde(skip)]
    pub session_expiry_in_ms: VecMap<String, u64>,
    /// While the coordinator holds the SyncGroup answers until the group's record (with the
    /// leader's assignment) is committed to `__consumer_offsets`: where it waits. Only in the
    /// JSON state while it waits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sync_wait: Option<SyncWait>,
}

/// A SyncGroup held by the coordinator until the group's record is replicated to the ISR of
/// its `__consumer_offsets` partition (`GroupMetadataManager.storeGroup` appends it with
/// acks=all; its callback answers the members: `DelayedProduce`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyncWait {
    /// The `__consumer_offsets` partition written, `topic-partition`.
    pub partition: String,
    /// The offset after the record: it is committed once the high watermark reaches it.
    pub record_end: u64,
    /// The partition's high watermark on the coordinator now.
    pub high_watermark: u64,
    /// The in-sync followers whose fetches (as the coordinator, their leader, last heard)
    /// have not reached `record_end` yet, in broker order.
    pub awaiting: Vec<BrokerId>,
}

/// The wait of a rebalance in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RebalanceCountdown {
    /// What it waits on.
    pub wait: RebalanceWait,
    /// Time left before the coordinator's timer fires; 0 while the coordinator is paused past
    /// it.
    pub left_ms: u64,
}

/// What a rebalance waits on (the coordinator's delayed operations in `DelayedJoin.scala`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RebalanceWait {
    /// `InitialDelayedJoin` (0.11+, KIP-134): a group that was Empty waits
    /// `group.initial.rebalance.delay.ms` for more members, again while new ones keep coming,
    /// at most the rebalance timeout in all; then the join completes with the members present.
    InitialDelay,
    /// `DelayedJoin`: the members must rejoin within the rebalance timeout (the largest
    /// `max.poll.interval.ms` among them); then the join completes without the missing ones
    /// (it completes earlier once every member has joined).
    JoinDeadline,
}

/// A group's state in its coordinator (`kafka.coordinator.group.GroupState`): the
/// coordinator's own state and the views' (and the group's record holds it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GroupState {
    /// No members.
    Empty,
    /// Waiting for the members to (re)join.
    PreparingRebalance,
    /// Joined; waiting for the leader's assignment.
    CompletingRebalance,
    /// Every member has its assignment.
    Stable,
    /// Gone from this coordinator.
    Dead,
}

impl GroupState {
    /// Kafka's name, as in the JSON state: `Empty`, `PreparingRebalance`,
    /// `CompletingRebalance`, `Stable`, `Dead`.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }
}

/// A consumer, from its own side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsumerView {
    /// `finding_coordinator`, `joining`, `syncing`, `stable`, `left`, `crashed`.
    pub state: ConsumerState,
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
    /// Its number in the world, which is its endpoint ([`super::net::Endpoint::Consumer`]):
    /// the world numbers its consumers in the order they first joined, across groups. Not in
    /// the JSON state.
    #[serde(skip)]
    pub index: u32,
    /// Whether it leads its group: as the coordinator records it (`GroupMetadata.leaderId`),
    /// or, while no broker holds the group (its coordinator is moving), as the consumer itself
    /// last heard it in its JoinGroup response, while it runs. Not in the JSON state.
    #[serde(skip)]
    pub leads_group: bool,
    /// The generation its group is in: the coordinator's, or while no broker holds the
    /// group, the consumer's own. Not in the JSON state.
    #[serde(skip)]
    pub group_generation: u32,
    /// Whether the coordinator counts it as a member (it is in the coordinator's member map).
    /// Not in the JSON state.
    #[serde(skip)]
    pub is_member: bool,
}

/// Where a consumer is in the group protocol (the client's `AbstractCoordinator` states, with
/// the model's names): the consumer's own state and the views'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsumerState {
    /// Looking for the coordinator (FindCoordinator).
    FindingCoordinator,
    /// In JoinGroup.
    Joining,
    /// In SyncGroup.
    Syncing,
    /// Has its assignment; heartbeats.
    Stable,
    /// Left the group (LeaveGroup).
    Left,
    /// Died.
    Crashed,
}

impl ConsumerState {
    /// The name in the JSON state: `finding_coordinator`, `joining`, `syncing`, `stable`,
    /// `left`, `crashed`.
    pub fn name(self) -> &'static str {
        match self {
            ConsumerState::FindingCoordinator => "finding_coordinator",
            ConsumerState::Joining => "joining",
            ConsumerState::Syncing => "syncing",
            ConsumerState::Stable => "stable",
            ConsumerState::Left => "left",
            ConsumerState::Crashed => "crashed",
        }
    }

    /// Whether the consumer process runs (it has not crashed or left).
    pub fn is_running(self) -> bool {
        !matches!(self, ConsumerState::Crashed | ConsumerState::Left)
    }
}

/// The producer clients and their batches in progress.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ProducerView {
    /// Each client that has sent anything, by its `acks` (`acks` is a producer setting, so
    /// each value is its own client), with the settings it runs with.
    pub clients: VecMap<String, ProducerClientView>,
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
    pub acks: Acks,
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
    pub waits: BatchWait,
    /// The broker involved, if any.
    pub broker: Option<BrokerId>,
    /// When the timer they wait on fires.
    pub until_ms: Option<u64>,
    /// The error of their last try, if they are being retried.
    pub error: Option<&'static str>,
}

/// What a producer batch waits on (the states of a batch in the client's `RecordAccumulator`
/// and `Sender`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BatchWait {
    /// Sent to a broker; answered or given up at the request timeout.
    InFlight,
    /// Waiting `retry.backoff.ms` before it is sent again.
    RetryBackoff,
    /// No leader known, or the leader the metadata names refuses the connection.
    WaitingForLeader,
    /// Behind batches in flight.
    Queued,
}

impl BatchWait {
    /// The name in the JSON state: `in_flight`, `retry_backoff`, `waiting_for_leader`,
    /// `queued`.
    pub fn name(self) -> &'static str {
        match self {
            BatchWait::InFlight => "in_flight",
            BatchWait::RetryBackoff => "retry_backoff",
            BatchWait::WaitingForLeader => "waiting_for_leader",
            BatchWait::Queued => "queued",
        }
    }
}

/// A steady produce stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamView {
    /// `0`, `1` or `all`.
    pub acks: Acks,
    /// Records per second.
    pub rate_per_s: u64,
}

#[cfg(test)]
#[path = "state_test.rs"]
mod tests;

//! The messages that cross the simulated network, and the outputs a state machine emits.
//!
//! Each state machine (ZooKeeper, a broker, the controller role) is sans-IO: it handles one
//! input and pushes what it wants done into an [`Out`]: messages to send, timers to set,
//! events to record. The world turns those into timed deliveries.

use super::cause::Cause;
use super::controller::timers::ControllerTimer;
use super::event::EventKind;
use super::label::Label;
pub use super::label::WatchChange;
use super::log::{BatchMark, Payload, Run};
use super::net::{BrokerId, Endpoint};
use super::replication::timers::ReplicaTimer;
use super::topic::{Acks, TopicPartition};

/// A ZooKeeper session id.
pub type SessionId = u64;

/// The fields of a znode's stat that the model uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// The zxid of the transaction that created the znode (a broker epoch, for `/brokers/ids/N`).
    pub czxid: i64,
    /// The zxid of the last change.
    pub mzxid: i64,
    /// Data version, bumped by every setData.
    pub version: i32,
    /// Owning session of an ephemeral znode.
    pub ephemeral_owner: Option<SessionId>,
}

/// One ZooKeeper operation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum ZkOp {
    /// Create a znode (ephemeral: deleted with the session).
    Create {
        path: String,
        data: String,
        ephemeral: bool,
    },
    /// Set data, if `version` matches (or unconditionally with `None`).
    SetData {
        path: String,
        data: String,
        version: Option<i32>,
    },
    /// Check a znode's version (a multi-op guard).
    Check { path: String, version: i32 },
    /// Read a znode if it exists; with `watch`, be told when it is created, changed or deleted.
    Exists { path: String, watch: bool },
    /// List the children with their czxid; with `watch`, be told when the list changes.
    GetChildren { path: String, watch: bool },
    /// Delete a znode (any version).
    Delete { path: String },
    /// All or nothing.
    Multi(Vec<ZkOp>),
    /// Independent operations sent together (Kafka pipelines its asynchronous requests); each
    /// gets its own result.
    Batch(Vec<ZkOp>),
}

impl ZkOp {
    /// Short label for the page: `"create /controller"`.
    pub fn label(&self) -> String {
        match self {
            ZkOp::Create { path, .. } => format!("create {path}"),
            ZkOp::SetData { path, .. } => format!("setData {path}"),
            ZkOp::Check { path, .. } => format!("check {path}"),
            ZkOp::Exists { path, .. } => format!("exists {path}"),
            ZkOp::GetChildren { path, .. } => format!("getChildren {path}"),
            ZkOp::Delete { path } => format!("delete {path}"),
            ZkOp::Multi(ops) => format!(
                "multi [{}]",
                ops.iter().map(|o| o.label()).collect::<Vec<_>>().join(", ")
            ),
            ZkOp::Batch(_) => self.words().english(),
        }
    }

    /// The label, structured: ZooKeeper's own names, but for a batch's count.
    pub fn words(&self) -> Label {
        match self {
            ZkOp::Batch(ops) => match ops.first() {
                Some(first) if ops.len() == 1 => first.words(),
                Some(first) => Label::Ops {
                    first: first.label(),
                    more: ops.len() - 1,
                },
                None => Label::NoOps,
            },
            op => Label::Name(op.label()),
        }
    }
}

/// A znode as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeData {
    /// The znode's data.
    pub data: String,
    /// Its stat.
    pub stat: Stat,
}

/// What a successful operation returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpResult {
    /// Created; the new znode's stat.
    Created(Stat),
    /// Data set; the new stat.
    Set(Stat),
    /// A version check passed.
    Checked,
    /// The znode, or `None` if it does not exist.
    Node(Option<NodeData>),
    /// Children and their creation zxids, in name order.
    Children(Vec<(String, i64)>),
    /// Deleted.
    Deleted,
    /// Every result of a multi-op, in order.
    Multi(Vec<OpResult>),
    /// Each result of a batch, in order.
    Batch(Vec<Result<OpResult, ZkError>>),
}

/// ZooKeeper's error codes that the model uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZkError {
    /// NONODE
    NoNode,
    /// NODEEXISTS
    NodeExists,
    /// BADVERSION
    BadVersion,
    /// SESSIONEXPIRED
    SessionExpired,
    /// BADVERSION on a multi-op's `check` of `/controller_epoch`: the controller moved.
    CheckFailed,
    /// NOTEMPTY: a delete of a znode that has children.
    NotEmpty,
    /// NOCHILDRENFOREPHEMERALS: a create under an ephemeral znode.
    NoChildrenForEphemerals,
}

impl ZkError {
    /// ZooKeeper's name for the code.
    pub fn name(self) -> &'static str {
        match self {
            ZkError::NoNode => "NONODE",
            ZkError::NodeExists => "NODEEXISTS",
            ZkError::BadVersion => "BADVERSION",
            ZkError::SessionExpired => "SESSIONEXPIRED",
            ZkError::CheckFailed => "BADVERSION",
            ZkError::NotEmpty => "NOTEMPTY",
            ZkError::NoChildrenForEphemerals => "NOCHILDRENFOREPHEMERALS",
        }
    }
}

/// Kafka's error codes on broker requests that the model uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KafkaError {
    /// STALE_CONTROLLER_EPOCH
    StaleControllerEpoch,
    /// STALE_BROKER_EPOCH
    StaleBrokerEpoch,
    /// NOT_CONTROLLER
    NotController,
    /// NOT_LEADER_OR_FOLLOWER (NOT_LEADER_FOR_PARTITION before 2.6)
    NotLeaderOrFollower,
    /// NOT_ENOUGH_REPLICAS
    NotEnoughReplicas,
    /// NOT_ENOUGH_REPLICAS_AFTER_APPEND
    NotEnoughReplicasAfterAppend,
    /// REQUEST_TIMED_OUT
    RequestTimedOut,
    /// FENCED_LEADER_EPOCH
    FencedLeaderEpoch,
    /// INVALID_UPDATE_VERSION (an AlterPartition built on an old partition state)
    InvalidUpdateVersion,
    /// INELIGIBLE_REPLICA (AlterPartition adding a replica that is not live, or shutting down)
    IneligibleReplica,
    /// LEADER_NOT_AVAILABLE
    LeaderNotAvailable,
    /// BROKER_NOT_AVAILABLE (a controlled shutdown from a broker the controller does not
    /// count as live)
    BrokerNotAvailable,
    /// COORDINATOR_NOT_AVAILABLE
    CoordinatorNotAvailable,
    /// NOT_COORDINATOR
    NotCoordinator,
    /// MEMBER_ID_REQUIRED (KIP-394: join again with this id)
    MemberIdRequired,
    /// UNKNOWN_MEMBER_ID
    UnknownMemberId,
    /// ILLEGAL_GENERATION
    IllegalGeneration,
    /// REBALANCE_IN_PROGRESS
    RebalanceInProgress,
    /// INVALID_REPLICA_ASSIGNMENT (a reassignment through the API adding a replica on a broker
    /// that is not live)
    InvalidReplicaAssignment,
}

impl KafkaError {
    /// Kafka's name for the code.
    pub fn name(self) -> &'static str {
        match self {
            KafkaError::StaleControllerEpoch => "STALE_CONTROLLER_EPOCH",
            KafkaError::StaleBrokerEpoch => "STALE_BROKER_EPOCH",
            KafkaError::NotController => "NOT_CONTROLLER",
            KafkaError::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            KafkaError::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            KafkaError::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            KafkaError::RequestTimedOut => "REQUEST_TIMED_OUT",
            KafkaError::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            KafkaError::InvalidUpdateVersion => "INVALID_UPDATE_VERSION",
            KafkaError::IneligibleReplica => "INELIGIBLE_REPLICA",
            KafkaError::LeaderNotAvailable => "LEADER_NOT_AVAILABLE",
            KafkaError::BrokerNotAvailable => "BROKER_NOT_AVAILABLE",
            KafkaError::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            KafkaError::NotCoordinator => "NOT_COORDINATOR",
            KafkaError::MemberIdRequired => "MEMBER_ID_REQUIRED",
            KafkaError::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            KafkaError::IllegalGeneration => "ILLEGAL_GENERATION",
            KafkaError::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            KafkaError::InvalidReplicaAssignment => "INVALID_REPLICA_ASSIGNMENT",
        }
    }
}

/// A partition's state as the controller sends it in LeaderAndIsr and UpdateMetadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionInfo {
    /// Which partition.
    pub tp: TopicPartition,
    /// The leader, or -1.
    pub leader: i64,
    /// The leader epoch.
    pub leader_epoch: u64,
    /// The in-sync replicas.
    pub isr: Vec<BrokerId>,
    /// The zkVersion of the partition state znode (the "partition epoch").
    pub zk_version: i32,
    /// The assignment.
    pub replicas: Vec<BrokerId>,
}

/// An ISR change a leader asked for: the ISR, and the leader epoch and partition epoch it was
/// built on. An answer belongs to the proposal it names, as Kafka's `AlterPartitionManager` hands
/// each answer to the request it sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsrProposal {
    /// The ISR asked for.
    pub isr: Vec<BrokerId>,
    /// The leader epoch of the request.
    pub leader_epoch: u64,
    /// The partition epoch (zkVersion) of the request.
    pub zk_version: i32,
}

/// One partition of a follower's fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchPartition {
    /// Which partition.
    pub tp: TopicPartition,
    /// The follower's log end offset: where it wants to read from.
    pub fetch_offset: u64,
    /// The leader epoch the follower knows.
    pub leader_epoch: u64,
    /// Set when the follower must first find where its log diverges from the leader's: the
    /// epoch of its last record (OffsetsForLeaderEpoch, KIP-101).
    pub diverging_check: Option<u64>,
}

/// One partition of a fetch response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchData {
    /// Which partition.
    pub tp: TopicPartition,
    /// An error instead of data.
    pub error: Option<KafkaError>,
    /// The leader's high watermark.
    pub hw: u64,
    /// The leader's log end offset.
    pub leader_leo: u64,
    /// Records from the fetch offset, as runs of one epoch each.
    pub runs: Vec<Run>,
    /// For a divergence check: the leader's largest epoch not above the asked one, and its end.
    pub epoch_end: Option<Option<(u64, u64)>>,
    /// The payloads of the records fetched (group metadata in `__consumer_offsets`).
    pub payloads: Vec<(u64, Payload)>,
    /// The producer batches among the records fetched, by base offset.
    pub batches: Vec<(u64, BatchMark)>,
}

/// Who sent a produce batch: Kafka's producer id and base sequence, which only an idempotent
/// producer puts on the wire (the model tags every batch so that it can tell a duplicate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProduceBatch {
    /// The producer id.
    pub producer: u64,
    /// The base sequence: records the producer sent to the partition before this batch.
    pub sequence: u64,
    /// Whether the producer is idempotent (`enable.idempotence` in force): only then does the
    /// leader look the batch up before appending it.
    pub idempotent: bool,
}

/// What a JoinGroup answer gives a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joined {
    /// The new generation.
    pub generation: u32,
    /// The member id of the group leader.
    pub leader: String,
    /// This member's id.
    pub member_id: String,
    /// The assignor chosen.
    pub protocol: String,
    /// For the leader only: every member with its subscribed topics.
    pub members: Vec<(String, Vec<String>)>,
}

/// What an admin tool asks the controller (through ZooKeeper znodes it watches).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminRequest {
    /// `/admin/preferred_replica_election`: these partitions (all when empty).
    PreferredElection(Vec<TopicPartition>),
    /// `/admin/reassign_partitions`.
    Reassign {
        /// The partition.
        tp: TopicPartition,
        /// The target replicas.
        replicas: Vec<BrokerId>,
    },
    /// `/config/changes`: a topic's unclean election was turned on (or the broker default).
    UncleanEnabled(Option<String>),
}

/// A message body.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum Body {
    /// Client asks for a new session.
    Connect { timeout_ms: u64 },
    /// Client asks to resume an existing session after a disconnection.
    Reconnect { session: SessionId },
    /// Client heartbeat.
    Ping { session: SessionId },
    /// A ZooKeeper operation.
    Request {
        session: SessionId,
        xid: u64,
        op: ZkOp,
    },
    /// Client closes its session (clean shutdown).
    Close { session: SessionId },
    /// Server: the session is open (new or resumed).
    Connected {
        session: SessionId,
        timeout_ms: u64,
        resumed: bool,
    },
    /// Server: that session has expired (a closed connection, from the client's side).
    Expired { session: SessionId },
    /// The connection to ZooKeeper broke while its link was cut (lost packets): the client
    /// finds out when the link carries traffic again.
    ConnectionLoss,
    /// Server: heartbeat answer.
    Pong { session: SessionId },
    /// Server: operation result.
    Response {
        session: SessionId,
        xid: u64,
        zxid: i64,
        result: Result<OpResult, ZkError>,
    },
    /// Server: a watch fired.
    Watch {
        session: SessionId,
        zxid: i64,
        path: String,
        change: WatchChange,
    },
    /// Client, after resuming a session: the watches it still holds and the last zxid it
    /// saw; the server fires those whose znode changed meanwhile and re-arms the rest.
    SetWatches {
        session: SessionId,
        last_zxid: i64,
        data: Vec<(String, bool)>,
        children: Vec<String>,
    },
    /// Controller to broker: the cluster's metadata, stamped with the controller epoch and the
    /// receiver's broker epoch (KIP-380).
    UpdateMetadata {
        controller: BrokerId,
        controller_epoch: u64,
        broker_epoch: i64,
        live_brokers: Vec<BrokerId>,
        partitions: Vec<PartitionInfo>,
        correlation_id: u64,
    },
    /// Controller to broker: lead or follow these partitions.
    LeaderAndIsr {
        controller: BrokerId,
        controller_epoch: u64,
        broker_epoch: i64,
        partitions: Vec<PartitionInfo>,
        correlation_id: u64,
    },
    /// Broker to controller: the answer.
    LeaderAndIsrResponse {
        controller_epoch: u64,
        correlation_id: u64,
        error: Option<KafkaError>,
    },
    /// Controller to broker: stop fetching (and with `delete`, drop) these replicas.
    StopReplica {
        controller: BrokerId,
        controller_epoch: u64,
        partitions: Vec<TopicPartition>,
        delete: bool,
        correlation_id: u64,
    },
    /// Broker to controller: the answer.
    StopReplicaResponse {
        controller_epoch: u64,
        correlation_id: u64,
    },
    /// Follower to leader: give me what follows these offsets.
    Fetch {
        correlation_id: u64,
        partitions: Vec<FetchPartition>,
    },
    /// Leader to follower.
    FetchResponse {
        correlation_id: u64,
        partitions: Vec<FetchData>,
    },
    /// Producer to leader, on the connection the producer opened to the broker's process
    /// `conn` (its incarnation): a restarted process never reads it.
    Produce {
        request: u64,
        tp: TopicPartition,
        records: u64,
        acks: Acks,
        batch: ProduceBatch,
        conn: u64,
    },
    /// Leader to producer: the base offset and leader epoch of the appended records, or an error.
    ProduceResponse {
        request: u64,
        tp: TopicPartition,
        result: Result<(u64, u64), KafkaError>,
    },
    /// Leader to controller (2.7+, KIP-497): please change the ISR.
    AlterPartition {
        broker_epoch: i64,
        tp: TopicPartition,
        leader_epoch: u64,
        isr: Vec<BrokerId>,
        zk_version: i32,
    },
    /// Controller to leader: the partition's state after the change, or why not; `proposed` is
    /// the request it answers (the leader matches the answer to its pending change).
    AlterPartitionResponse {
        tp: TopicPartition,
        proposed: IsrProposal,
        result: Result<PartitionInfo, KafkaError>,
    },
    /// ZooKeeper to the controller: an admin tool wrote a znode the controller watches.
    Admin(AdminRequest),
    /// Consumer to any broker: which broker coordinates this group?
    FindCoordinator { group: String },
    /// The answer: the leader of the group's `__consumer_offsets` partition.
    FindCoordinatorResponse {
        group: String,
        result: Result<BrokerId, KafkaError>,
    },
    /// Consumer to coordinator: join (or rejoin) the group.
    JoinGroup {
        group: String,
        member_id: String,
        client_id: String,
        topics: Vec<String>,
        assignor: String,
        session_timeout_ms: u64,
        rebalance_timeout_ms: u64,
        /// The id a new member would get, drawn from the world's one RNG on delivery (the
        /// coordinator's `UUID.randomUUID`).
        new_member_id: String,
    },
    /// Coordinator to consumer.
    JoinGroupResponse {
        group: String,
        result: Result<Joined, (KafkaError, String)>,
    },
    /// Consumer to coordinator: the leader's assignment (empty from followers).
    SyncGroup {
        group: String,
        generation: u32,
        member_id: String,
        assignment: Vec<(String, Vec<TopicPartition>)>,
    },
    /// Coordinator to consumer: this member's partitions.
    SyncGroupResponse {
        group: String,
        result: Result<Vec<TopicPartition>, KafkaError>,
    },
    /// Consumer to coordinator: still alive.
    Heartbeat {
        group: String,
        generation: u32,
        member_id: String,
    },
    /// Coordinator to consumer.
    HeartbeatResponse {
        group: String,
        error: Option<KafkaError>,
    },
    /// Consumer to coordinator: leaving.
    LeaveGroup { group: String, member_id: String },
    /// Coordinator to consumer.
    LeaveGroupResponse { group: String },
    /// Broker to controller: the answer.
    UpdateMetadataResponse {
        controller_epoch: u64,
        correlation_id: u64,
        error: Option<KafkaError>,
    },
    /// Broker to controller: please move my leaderships away, I am stopping.
    ControlledShutdown { broker_epoch: i64, attempt: u32 },
    /// Controller to broker: done (or not).
    ControlledShutdownResponse {
        attempt: u32,
        error: Option<KafkaError>,
        remaining: Vec<TopicPartition>,
    },
}

impl Body {
    /// Whether the message answers an earlier one.
    pub fn is_reply(&self) -> bool {
        matches!(
            self,
            Body::Connected { .. }
                | Body::Expired { .. }
                | Body::Pong { .. }
                | Body::Response { .. }
                | Body::UpdateMetadataResponse { .. }
                | Body::ControlledShutdownResponse { .. }
                | Body::LeaderAndIsrResponse { .. }
                | Body::StopReplicaResponse { .. }
                | Body::FetchResponse { .. }
                | Body::ProduceResponse { .. }
                | Body::AlterPartitionResponse { .. }
                | Body::FindCoordinatorResponse { .. }
                | Body::JoinGroupResponse { .. }
                | Body::SyncGroupResponse { .. }
                | Body::HeartbeatResponse { .. }
                | Body::LeaveGroupResponse { .. }
        )
    }

    /// Whether this is a fetch answered with no records: a caught-up follower's steady
    /// polling, which the page does not animate.
    pub fn is_empty_fetch_response(&self) -> bool {
        match self {
            Body::FetchResponse { partitions, .. } => partitions
                .iter()
                .all(|p| p.runs.iter().all(|r| r.end == r.start)),
            _ => false,
        }
    }

    /// Short label and colour class for the page: the label's English (`Label::english`).
    pub fn label(&self) -> (String, &'static str) {
        let (words, class) = self.words();
        (words.english(), class)
    }

    /// What the message's label says, structured, and its colour class.
    pub fn words(&self) -> (Label, &'static str) {
        let name = |s: &str| Label::Name(s.to_string());
        match self {
            Body::Connect { .. } => (Label::Connect, "zookeeper"),
            Body::Reconnect { .. } => (Label::Reconnect, "zookeeper"),
            Body::Ping { .. } => (name("ping"), "heartbeat"),
            Body::Request { op, .. } => (op.words(), "zookeeper"),
            Body::Close { .. } => (name("closeSession"), "zookeeper"),
            Body::ConnectionLoss => (Label::ConnectionReset, "zookeeper"),
            Body::SetWatches { .. } => (name("setWatches"), "zookeeper"),
            Body::Connected { .. } => (Label::Connected, "zookeeper"),
            Body::Expired { .. } => (Label::SessionExpired, "zookeeper"),
            Body::Pong { .. } => (Label::Pong, "heartbeat"),
            Body::Response { result, .. } => (
                match result {
                    Ok(_) => Label::ZkOk,
                    Err(e) => name(e.name()),
                },
                "zookeeper",
            ),
            Body::Watch { path, change, .. } => (
                Label::Watch {
                    path: path.clone(),
                    change: Some(*change),
                },
                "watch",
            ),
            Body::UpdateMetadata {
                controller_epoch, ..
            } => (
                Label::UpdateMetadata {
                    controller_epoch: *controller_epoch,
                },
                "request",
            ),
            Body::UpdateMetadataResponse { error, .. } => (
                match error {
                    None => Label::Ok("UpdateMetadata"),
                    Some(e) => name(e.name()),
                },
                "response",
            ),
            Body::ControlledShutdown { .. } => (name("ControlledShutdown"), "request"),
            Body::LeaderAndIsr {
                controller_epoch,
                partitions,
                ..
            } => (
                match partitions.as_slice() {
                    [one] => Label::LeaderAndIsr {
                        tp: one.tp.to_string(),
                        leader: one.leader,
                        leader_epoch: one.leader_epoch,
                        controller_epoch: *controller_epoch,
                    },
                    many => Label::LeaderAndIsrMany {
                        partitions: many.len(),
                        controller_epoch: *controller_epoch,
                    },
                },
                "request",
            ),
            Body::LeaderAndIsrResponse { error, .. } => (
                match error {
                    None => Label::Ok("LeaderAndIsr"),
                    Some(e) => name(e.name()),
                },
                "response",
            ),
            Body::StopReplica { .. } => (name("StopReplica"), "request"),
            Body::StopReplicaResponse { .. } => (Label::Ok("StopReplica"), "response"),
            Body::Fetch { partitions, .. } => (
                Label::Name(match partitions.as_slice() {
                    [one] => format!("Fetch {} @{}", one.tp, one.fetch_offset),
                    many => format!("Fetch ×{}", many.len()),
                }),
                "fetch",
            ),
            Body::FetchResponse { partitions, .. } => {
                let records: u64 = partitions
                    .iter()
                    .flat_map(|p| p.runs.iter().map(|r| r.end - r.start))
                    .sum();
                (Label::Fetched { records }, "fetch")
            }
            Body::Produce {
                tp, records, acks, ..
            } => (
                Label::Name(format!("Produce {tp} ×{records} acks={acks}")),
                "produce",
            ),
            Body::ProduceResponse { result, .. } => (
                match result {
                    Ok((base, _)) => Label::Produced { base: *base },
                    Err(e) => name(e.name()),
                },
                "produce",
            ),
            Body::AlterPartition { tp, isr, .. } => (
                Label::Name(format!("AlterPartition {tp} isr {isr:?}")),
                "request",
            ),
            Body::AlterPartitionResponse { result, .. } => (
                match result {
                    Ok(_) => Label::Ok("AlterPartition"),
                    Err(e) => name(e.name()),
                },
                "response",
            ),
            Body::FindCoordinator { .. } => (name("FindCoordinator"), "group"),
            Body::FindCoordinatorResponse { result, .. } => (
                match result {
                    Ok(b) => Label::Coordinator { broker: *b },
                    Err(e) => name(e.name()),
                },
                "group",
            ),
            Body::JoinGroup { .. } => (name("JoinGroup"), "group"),
            Body::JoinGroupResponse { result, .. } => (
                match result {
                    Ok(j) => Label::Joined {
                        generation: j.generation,
                    },
                    Err((e, _)) => name(e.name()),
                },
                "group",
            ),
            Body::SyncGroup { .. } => (name("SyncGroup"), "group"),
            Body::SyncGroupResponse { result, .. } => (
                match result {
                    Ok(a) => Label::Assigned {
                        partitions: a.len(),
                    },
                    Err(e) => name(e.name()),
                },
                "group",
            ),
            Body::Heartbeat { .. } => (name("Heartbeat"), "heartbeat"),
            Body::HeartbeatResponse { error, .. } => (
                match error {
                    None => Label::HeartbeatOk,
                    Some(e) => name(e.name()),
                },
                "heartbeat",
            ),
            Body::LeaveGroup { .. } => (name("LeaveGroup"), "group"),
            Body::LeaveGroupResponse { .. } => (Label::Left, "group"),
            Body::Admin(request) => (
                Label::Watch {
                    path: match request {
                        AdminRequest::PreferredElection(_) => "/admin/preferred_replica_election",
                        AdminRequest::Reassign { .. } => "/admin/reassign_partitions",
                        AdminRequest::UncleanEnabled(_) => "/config/changes",
                    }
                    .to_string(),
                    change: None,
                },
                "watch",
            ),
            Body::ControlledShutdownResponse { .. } => (Label::ShutdownDone, "response"),
        }
    }
}

/// A timer a state machine asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum Timer {
    /// ZooKeeper: check whether a session's deadline has passed.
    SessionDeadline(SessionId),
    /// Broker: send a heartbeat if idle / check the read timeout. Only the newest tick
    /// (by its number) counts; older ones are stale.
    ZkTick(u64),
    /// Broker: a paused process wakes up.
    Resume,
    /// Broker: a controlled shutdown attempt got no answer in time.
    ShutdownTimeout { attempt: u32 },
    /// Controller: one of the acting controller's timers.
    Controller(ControllerTimer),
    /// Broker: back-off before the next controlled shutdown attempt is over.
    ShutdownRetry { attempt: u32 },
    /// Replica manager: one of its timers.
    Replica(ReplicaTimer),
    /// Producer: a request waited `request.timeout.ms`.
    ProduceTimeout { request: u64 },
    /// Producer: the next batch of a steady stream.
    ProduceTick { stream: u64 },
    /// Producer: its sender loop has something to do at `at` (a backoff ends, a batch expires,
    /// a metadata refresh is due); only the newest wake-up counts.
    ProducerWake { at: u64 },
    /// Coordinator: one of its group timers (see the coordinator's timer table).
    Group { id: u64 },
    /// Consumer: send the next heartbeat (only the newest tick counts).
    ConsumerTick { tick: u64 },
    /// Consumer: a request got no answer in time.
    ConsumerTimeout { request: u64 },
}

/// What a state machine wants done after handling one input.
#[derive(Debug, Default)]
pub struct Out {
    /// Messages: (from, to, body).
    pub sends: Vec<(Endpoint, Endpoint, Body)>,
    /// Timers: (fire at, owner, timer).
    pub timers: Vec<(u64, Endpoint, Timer)>,
    /// Events with their causes.
    pub events: Vec<(EventKind, Cause)>,
}

impl Out {
    /// Queue a message.
    pub fn send(&mut self, from: Endpoint, to: Endpoint, body: Body) {
        self.sends.push((from, to, body));
    }
    /// Ask for a timer.
    pub fn timer(&mut self, at: u64, owner: Endpoint, timer: Timer) {
        self.timers.push((at, owner, timer));
    }
    /// Record an event.
    pub fn event(&mut self, kind: EventKind, cause: impl Into<Cause>) {
        self.events.push((kind, cause.into()));
    }
}

//! Events: the trace of everything that changed, each with the rule and setting that caused it.
//!
//! The page's event log, the command line's `--events` and the golden traces all print these.

use super::cause::Cause;
use super::net::BrokerId;
use crate::text::numbers::fmt_ms;
use serde::Serialize;
use std::fmt;

/// One state change at one virtual time, with its cause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Virtual milliseconds since the simulation began.
    pub time_ms: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
    /// The rule, and where one drives it the setting, that made it happen (in JSON, its
    /// English sentence).
    pub cause: Cause,
}

/// Why the controller elected a partition leader: the `reason` of `leader_elected`, after
/// the election strategy Kafka used (`PartitionLeaderElectionStrategy` in
/// `PartitionStateMachine`). Serialized in snake case, e.g. `"controlled_shutdown"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElectionReason {
    /// A new partition's first leader (`initializeLeaderAndIsrForPartitions`).
    NewPartition,
    /// The leader was lost and an in-sync replica took over
    /// (`OfflinePartitionLeaderElectionStrategy`, clean).
    Offline,
    /// No in-sync replica was alive and `unclean.leader.election.enable` let an out-of-sync one
    /// lead (`OfflinePartitionLeaderElectionStrategy(allowUnclean = true)`): acknowledged
    /// records it lacked are lost.
    Unclean,
    /// Leadership went back to the preferred replica
    /// (`PreferredReplicaPartitionLeaderElectionStrategy`).
    Preferred,
    /// Leadership moved off a broker in controlled shutdown
    /// (`ControlledShutdownPartitionLeaderElectionStrategy`).
    ControlledShutdown,
    /// A reassignment moved leadership to a target replica
    /// (`ReassignPartitionLeaderElectionStrategy`).
    Reassignment,
}

impl ElectionReason {
    /// The name in events: `new_partition`, `offline`, `unclean`, `preferred`,
    /// `controlled_shutdown`, `reassignment`.
    pub fn name(self) -> &'static str {
        match self {
            ElectionReason::NewPartition => "new_partition",
            ElectionReason::Offline => "offline",
            ElectionReason::Unclean => "unclean",
            ElectionReason::Preferred => "preferred",
            ElectionReason::ControlledShutdown => "controlled_shutdown",
            ElectionReason::Reassignment => "reassignment",
        }
    }
}

impl fmt::Display for ElectionReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What happened. Serialized with a `"kind"` tag in snake case, e.g. `"controller_elected"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum EventKind {
    /// A broker process started.
    BrokerStarted { broker: BrokerId },
    /// A broker's startup failed and the process stopped.
    BrokerStartFailed { broker: BrokerId },
    /// A broker process was killed without a goodbye.
    BrokerCrashed { broker: BrokerId },
    /// A broker process froze (a long GC pause).
    BrokerPaused { broker: BrokerId, until_ms: u64 },
    /// A frozen broker process carried on with the state it had.
    BrokerResumed { broker: BrokerId },
    /// A broker asked the controller to move its leadership away before stopping.
    ControlledShutdownRequested { broker: BrokerId, attempt: u32 },
    /// A controlled shutdown attempt failed (no answer, or an error).
    ControlledShutdownFailed { broker: BrokerId, attempt: u32 },
    /// The controller answered a controlled shutdown request.
    ControlledShutdownCompleted {
        broker: BrokerId,
        controller: BrokerId,
    },
    /// A broker process stopped after its shutdown.
    BrokerStopped { broker: BrokerId },
    /// A network link started dropping everything.
    LinkCut { from: String, to: String },
    /// A cut link carries messages again.
    LinkHealed { from: String, to: String },
    /// ZooKeeper opened a session for a broker, with the timeout it negotiated.
    ZkSessionCreated {
        broker: BrokerId,
        session: u64,
        timeout_ms: u64,
    },
    /// A broker's ZooKeeper client heard nothing from the server for its read timeout.
    ZkDisconnected { broker: BrokerId, session: u64 },
    /// A broker's ZooKeeper client got back to its still-valid session.
    ZkReconnected { broker: BrokerId, session: u64 },
    /// ZooKeeper expired a session and deleted its ephemeral znodes.
    SessionExpired { broker: BrokerId, session: u64 },
    /// A session was closed by its owner and its ephemeral znodes deleted.
    SessionClosed { broker: BrokerId, session: u64 },
    /// A broker learned that its ZooKeeper session had expired.
    SessionExpiryNoticed { broker: BrokerId, session: u64 },
    /// `/brokers/ids/N` was created; its czxid is the broker epoch.
    BrokerRegistered { broker: BrokerId, broker_epoch: i64 },
    /// ZooKeeper notified a broker of a change on a watched znode.
    WatchFired {
        broker: BrokerId,
        path: String,
        change: String,
    },
    /// A broker tried to become controller and another was faster.
    ControllerRaceLost {
        broker: BrokerId,
        error: String,
        controller: Option<BrokerId>,
    },
    /// Before 2.1: a broker created `/controller`, the first of its two election steps (the
    /// controller epoch comes next).
    ControllerZnodeCreated { broker: BrokerId },
    /// A broker created `/controller` and incremented `/controller_epoch`.
    ControllerElected { broker: BrokerId, epoch: u64 },
    /// A broker stopped acting as controller.
    ControllerResigned { broker: BrokerId, epoch: u64 },
    /// An operator deleted `/controller`, which named `controller` (the way to move the
    /// controller by hand).
    ControllerDeleted { controller: BrokerId },
    /// The controller saw a broker register (or re-register).
    BrokerOnline {
        controller: BrokerId,
        broker: BrokerId,
        broker_epoch: i64,
    },
    /// The controller saw a broker's registration disappear.
    BrokerLost {
        controller: BrokerId,
        broker: BrokerId,
    },
    /// A broker accepted metadata from a controller of a newer epoch.
    MetadataUpdated {
        broker: BrokerId,
        controller: BrokerId,
        controller_epoch: u64,
    },
    /// A broker refused a request from an old controller epoch or for an old broker epoch.
    StaleRequestRejected {
        broker: BrokerId,
        from: BrokerId,
        request: String,
        epoch: i64,
        current: i64,
        error: String,
    },
    /// The controller saw a new topic.
    TopicCreated {
        topic: String,
        partitions: u32,
        controller: BrokerId,
    },
    /// The controller elected a partition leader (`-1`: none) and wrote it to ZooKeeper.
    LeaderElected {
        partition: String,
        leader: i64,
        leader_epoch: u64,
        isr: Vec<BrokerId>,
        reason: ElectionReason,
        controller: BrokerId,
        controller_epoch: u64,
    },
    /// The controller wrote a new leader epoch without choosing a new leader, so that every
    /// replica hears a changed replica list (a reassignment's start and end).
    LeaderEpochBumped {
        partition: String,
        leader: i64,
        leader_epoch: u64,
        isr: Vec<BrokerId>,
        replicas: Vec<BrokerId>,
        controller: BrokerId,
        controller_epoch: u64,
    },
    /// No replica could lead: the partition stays offline.
    LeaderElectionFailed {
        partition: String,
        isr: Vec<BrokerId>,
    },
    /// The partition's leader became -1 (OfflineReplica of its last in-sync replica).
    PartitionOffline {
        partition: String,
        isr: Vec<BrokerId>,
        leader_epoch: u64,
    },
    /// Replicas left the ISR (by the leader, or by the controller for dead replicas).
    IsrShrunk {
        partition: String,
        by: BrokerId,
        removed: Vec<BrokerId>,
        isr: Vec<BrokerId>,
        leader_epoch: u64,
    },
    /// Replicas rejoined the ISR.
    IsrExpanded {
        partition: String,
        by: BrokerId,
        added: Vec<BrokerId>,
        isr: Vec<BrokerId>,
        leader_epoch: u64,
    },
    /// The controller wrote a leader's requested ISR (AlterPartition).
    IsrChangeAccepted {
        partition: String,
        controller: BrokerId,
        isr: Vec<BrokerId>,
    },
    /// A leader's ISR change did not go through.
    IsrUpdateFailed {
        broker: BrokerId,
        partition: String,
        error: String,
    },
    /// A replica cut records off the end of its log.
    ReplicaTruncated {
        broker: BrokerId,
        partition: String,
        from_offset: u64,
        to_offset: u64,
    },
    /// The automatic rebalance check: each broker's share of preferred partitions led by
    /// others (percent), and the partitions it moves.
    LeaderImbalanceChecked {
        controller: BrokerId,
        ratios: Vec<(BrokerId, u32)>,
        moving: Vec<String>,
    },
    /// A reassignment began.
    ReassignmentStarted {
        partition: String,
        controller: BrokerId,
        target: Vec<BrokerId>,
    },
    /// A reassignment was refused and nothing was written: by the reassignment tool
    /// (`controller` is `None`; before 3.0) or by the controller answering the
    /// AlterPartitionReassignments API; `error` is what Kafka answers or prints.
    ReassignmentRefused {
        partition: String,
        target: Vec<BrokerId>,
        error: String,
        controller: Option<BrokerId>,
    },
    /// A reassignment finished.
    ReassignmentCompleted {
        partition: String,
        controller: BrokerId,
        replicas: Vec<BrokerId>,
    },
    /// Acknowledged records are gone for good: offsets `from_offset..to_offset`.
    RecordsLost {
        partition: String,
        from_offset: u64,
        to_offset: u64,
        records: u64,
        acks: String,
        reason: String,
    },
    /// The producer started a steady stream.
    ProducerStarted {
        partition: String,
        acks: String,
        rate_per_s: u64,
    },
    /// The producer stopped a stream.
    ProducerStopped { partition: String },
    /// The producer began giving batches up (an error it does not retry, or a timeout).
    ProduceFailed {
        partition: String,
        error: String,
        records: u64,
    },
    /// The producer began sending batches again after an error.
    ProduceRetrying {
        partition: String,
        error: String,
        records: u64,
    },
    /// Produce requests are acknowledged again after retries or failures.
    ProduceRecovered {
        partition: String,
        retried: u64,
        failed: u64,
    },
    /// A leader wrote a batch its log already held (a retry of a producer without
    /// idempotence): offsets `from_offset..to_offset`, first copy at `first_offset`.
    DuplicateWritten {
        broker: BrokerId,
        partition: String,
        from_offset: u64,
        to_offset: u64,
        records: u64,
        first_offset: u64,
    },
    /// A leader recognised a retried batch of an idempotent producer and answered with the
    /// offset of the copy it held, writing nothing.
    DuplicateDropped {
        broker: BrokerId,
        partition: String,
        offset: u64,
        records: u64,
    },
    /// A setting changed at run time.
    ConfigChanged {
        key: String,
        value: String,
        topic: Option<String>,
    },
    /// A broker's fetchers stopped fetching (all partitions, a topic or one partition).
    FetcherStalled { broker: BrokerId, what: String },
    /// A broker's stalled fetchers fetch again.
    FetcherResumed { broker: BrokerId, what: String },
    /// A consumer joined a group (its coordinator added it).
    #[serde(rename = "member_joined")]
    GroupMemberJoined {
        group: String,
        member: String,
        member_id: String,
        coordinator: BrokerId,
    },
    /// A group began a rebalance.
    RebalanceStarted {
        group: String,
        generation: u32,
        reason: String,
        coordinator: BrokerId,
    },
    /// A group's leader for a generation, and why.
    GroupLeaderChosen {
        group: String,
        member: String,
        member_id: String,
        generation: u32,
    },
    /// A generation completed: every member has its assignment.
    GroupStable {
        group: String,
        generation: u32,
        coordinator: BrokerId,
        assignment: String,
    },
    /// A rebalance completed with no members.
    GroupEmpty {
        group: String,
        generation: u32,
        coordinator: BrokerId,
    },
    /// The coordinator removed a member (it left, or its session expired).
    #[serde(rename = "member_removed")]
    GroupMemberRemoved {
        group: String,
        member: String,
        member_id: String,
        coordinator: BrokerId,
    },
    /// Another broker became the group's coordinator and loaded it.
    CoordinatorMoved {
        group: String,
        broker: BrokerId,
        generation: u32,
        state: String,
    },
    /// A consumer process died without a word.
    ConsumerCrashed { group: String, member: String },
    /// A consumer asked to leave.
    ConsumerLeaving { group: String, member: String },
    /// A consumer found its group's coordinator.
    CoordinatorFound {
        group: String,
        member: String,
        coordinator: BrokerId,
    },
    /// A safety invariant was broken.
    InvariantViolated { invariant: String, detail: String },
}

impl EventKind {
    /// The snake-case name of the kind, as serialized.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::BrokerStarted { .. } => "broker_started",
            EventKind::BrokerStartFailed { .. } => "broker_start_failed",
            EventKind::BrokerCrashed { .. } => "broker_crashed",
            EventKind::BrokerPaused { .. } => "broker_paused",
            EventKind::BrokerResumed { .. } => "broker_resumed",
            EventKind::ControlledShutdownRequested { .. } => "controlled_shutdown_requested",
            EventKind::ControlledShutdownFailed { .. } => "controlled_shutdown_failed",
            EventKind::ControlledShutdownCompleted { .. } => "controlled_shutdown_completed",
            EventKind::BrokerStopped { .. } => "broker_stopped",
            EventKind::LinkCut { .. } => "link_cut",
            EventKind::LinkHealed { .. } => "link_healed",
            EventKind::ZkSessionCreated { .. } => "zk_session_created",
            EventKind::ZkDisconnected { .. } => "zk_disconnected",
            EventKind::ZkReconnected { .. } => "zk_reconnected",
            EventKind::SessionExpired { .. } => "session_expired",
            EventKind::SessionClosed { .. } => "session_closed",
            EventKind::SessionExpiryNoticed { .. } => "session_expiry_noticed",
            EventKind::BrokerRegistered { .. } => "broker_registered",
            EventKind::WatchFired { .. } => "watch_fired",
            EventKind::ControllerRaceLost { .. } => "controller_race_lost",
            EventKind::ControllerZnodeCreated { .. } => "controller_znode_created",
            EventKind::ControllerElected { .. } => "controller_elected",
            EventKind::ControllerResigned { .. } => "controller_resigned",
            EventKind::ControllerDeleted { .. } => "controller_deleted",
            EventKind::BrokerOnline { .. } => "broker_online",
            EventKind::BrokerLost { .. } => "broker_lost",
            EventKind::MetadataUpdated { .. } => "metadata_updated",
            EventKind::StaleRequestRejected { .. } => "stale_request_rejected",
            EventKind::TopicCreated { .. } => "topic_created",
            EventKind::LeaderElected { .. } => "leader_elected",
            EventKind::LeaderEpochBumped { .. } => "leader_epoch_bumped",
            EventKind::LeaderElectionFailed { .. } => "leader_election_failed",
            EventKind::PartitionOffline { .. } => "partition_offline",
            EventKind::IsrShrunk { .. } => "isr_shrunk",
            EventKind::IsrExpanded { .. } => "isr_expanded",
            EventKind::IsrChangeAccepted { .. } => "isr_change_accepted",
            EventKind::IsrUpdateFailed { .. } => "isr_update_failed",
            EventKind::ReplicaTruncated { .. } => "replica_truncated",
            EventKind::LeaderImbalanceChecked { .. } => "leader_imbalance_checked",
            EventKind::ReassignmentStarted { .. } => "reassignment_started",
            EventKind::ReassignmentRefused { .. } => "reassignment_refused",
            EventKind::ReassignmentCompleted { .. } => "reassignment_completed",
            EventKind::RecordsLost { .. } => "records_lost",
            EventKind::ProducerStarted { .. } => "producer_started",
            EventKind::ProducerStopped { .. } => "producer_stopped",
            EventKind::ProduceFailed { .. } => "produce_failed",
            EventKind::ProduceRetrying { .. } => "produce_retrying",
            EventKind::ProduceRecovered { .. } => "produce_recovered",
            EventKind::DuplicateWritten { .. } => "duplicate_written",
            EventKind::DuplicateDropped { .. } => "duplicate_dropped",
            EventKind::ConfigChanged { .. } => "config_changed",
            EventKind::FetcherStalled { .. } => "fetcher_stalled",
            EventKind::FetcherResumed { .. } => "fetcher_resumed",
            EventKind::GroupMemberJoined { .. } => "member_joined",
            EventKind::RebalanceStarted { .. } => "rebalance_started",
            EventKind::GroupLeaderChosen { .. } => "group_leader_chosen",
            EventKind::GroupStable { .. } => "group_stable",
            EventKind::GroupEmpty { .. } => "group_empty",
            EventKind::GroupMemberRemoved { .. } => "member_removed",
            EventKind::CoordinatorMoved { .. } => "coordinator_moved",
            EventKind::ConsumerCrashed { .. } => "consumer_crashed",
            EventKind::ConsumerLeaving { .. } => "consumer_leaving",
            EventKind::CoordinatorFound { .. } => "coordinator_found",
            EventKind::InvariantViolated { .. } => "invariant_violated",
        }
    }

    /// The broker the event is mainly about, if any (the page highlights it).
    pub fn broker(&self) -> Option<BrokerId> {
        use EventKind::*;
        match self {
            BrokerStarted { broker }
            | BrokerStartFailed { broker }
            | BrokerCrashed { broker }
            | BrokerPaused { broker, .. }
            | BrokerResumed { broker }
            | ControlledShutdownRequested { broker, .. }
            | ControlledShutdownFailed { broker, .. }
            | ControlledShutdownCompleted { broker, .. }
            | BrokerStopped { broker }
            | ZkSessionCreated { broker, .. }
            | ZkDisconnected { broker, .. }
            | ZkReconnected { broker, .. }
            | SessionExpired { broker, .. }
            | SessionClosed { broker, .. }
            | SessionExpiryNoticed { broker, .. }
            | BrokerRegistered { broker, .. }
            | WatchFired { broker, .. }
            | ControllerRaceLost { broker, .. }
            | ControllerZnodeCreated { broker }
            | ControllerElected { broker, .. }
            | ControllerResigned { broker, .. }
            | BrokerOnline { broker, .. }
            | BrokerLost { broker, .. }
            | MetadataUpdated { broker, .. }
            | StaleRequestRejected { broker, .. }
            | IsrUpdateFailed { broker, .. }
            | ReplicaTruncated { broker, .. }
            | FetcherStalled { broker, .. }
            | FetcherResumed { broker, .. }
            | DuplicateWritten { broker, .. }
            | DuplicateDropped { broker, .. } => Some(*broker),
            GroupMemberJoined { coordinator, .. }
            | RebalanceStarted { coordinator, .. }
            | GroupStable { coordinator, .. }
            | GroupEmpty { coordinator, .. }
            | GroupMemberRemoved { coordinator, .. }
            | CoordinatorFound { coordinator, .. } => Some(*coordinator),
            CoordinatorMoved { broker, .. } => Some(*broker),
            GroupLeaderChosen { .. } | ConsumerCrashed { .. } | ConsumerLeaving { .. } => None,
            TopicCreated { controller, .. }
            | ControllerDeleted { controller }
            | IsrChangeAccepted { controller, .. }
            | LeaderImbalanceChecked { controller, .. }
            | ReassignmentStarted { controller, .. }
            | ReassignmentCompleted { controller, .. } => Some(*controller),
            ReassignmentRefused { controller, .. } => *controller,
            LeaderElected { leader, .. } => BrokerId::try_from(*leader).ok(),
            LeaderEpochBumped { controller, .. } => Some(*controller),
            IsrShrunk { by, .. } | IsrExpanded { by, .. } => Some(*by),
            LinkCut { .. }
            | LinkHealed { .. }
            | InvariantViolated { .. }
            | LeaderElectionFailed { .. }
            | PartitionOffline { .. }
            | RecordsLost { .. }
            | ProducerStarted { .. }
            | ProducerStopped { .. }
            | ProduceFailed { .. }
            | ProduceRetrying { .. }
            | ProduceRecovered { .. }
            | ConfigChanged { .. } => None,
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EventKind::*;
        match self {
            BrokerStarted { broker } => write!(f, "broker {broker} started"),
            BrokerStartFailed { broker } => write!(f, "broker {broker} failed to start and stopped"),
            BrokerCrashed { broker } => write!(f, "broker {broker} crashed"),
            BrokerPaused { broker, until_ms } => {
                write!(f, "broker {broker} froze until {}", fmt_ms(*until_ms))
            }
            BrokerResumed { broker } => write!(f, "broker {broker} woke up with its old state"),
            ControlledShutdownRequested { broker, attempt } => write!(
                f,
                "broker {broker} asked the controller for a controlled shutdown (attempt {attempt})"
            ),
            ControlledShutdownFailed { broker, attempt } => {
                write!(f, "controlled shutdown attempt {attempt} of broker {broker} failed")
            }
            ControlledShutdownCompleted { broker, controller } => write!(
                f,
                "controller {controller} completed the controlled shutdown of broker {broker}"
            ),
            BrokerStopped { broker } => write!(f, "broker {broker} stopped"),
            LinkCut { from, to } => write!(f, "link {from} <-> {to} cut"),
            LinkHealed { from, to } => write!(f, "link {from} <-> {to} healed"),
            ZkSessionCreated {
                broker,
                session,
                timeout_ms,
            } => write!(
                f,
                "ZooKeeper opened session 0x{session:x} for broker {broker} ({timeout_ms} ms timeout)"
            ),
            ZkDisconnected { broker, session } => write!(
                f,
                "broker {broker} lost its ZooKeeper connection (session 0x{session:x} may still live)"
            ),
            ZkReconnected { broker, session } => {
                write!(f, "broker {broker} reconnected to session 0x{session:x}")
            }
            SessionExpired { broker, session } => write!(
                f,
                "ZooKeeper expired session 0x{session:x} of broker {broker}; its ephemeral znodes are gone"
            ),
            SessionClosed { broker, session } => write!(
                f,
                "broker {broker} closed session 0x{session:x}; its ephemeral znodes are gone"
            ),
            SessionExpiryNoticed { broker, session } => write!(
                f,
                "broker {broker} learned that its session 0x{session:x} had expired"
            ),
            BrokerRegistered {
                broker,
                broker_epoch,
            } => write!(
                f,
                "broker {broker} registered /brokers/ids/{broker} (broker epoch {broker_epoch})"
            ),
            WatchFired {
                broker,
                path,
                change,
            } => write!(f, "ZooKeeper notified broker {broker}: {path} {change}"),
            ControllerRaceLost {
                broker,
                error,
                controller,
            } => match controller {
                Some(c) => write!(
                    f,
                    "broker {broker} lost the controller race ({error}); broker {c} is controller, broker {broker} watches /controller"
                ),
                None => write!(
                    f,
                    "broker {broker} lost the controller race ({error}) and watches /controller"
                ),
            },
            ControllerZnodeCreated { broker } => write!(
                f,
                "broker {broker} created /controller; it increments /controller_epoch next"
            ),
            ControllerElected { broker, epoch } => {
                write!(f, "broker {broker} became controller (controller epoch {epoch})")
            }
            ControllerResigned { broker, epoch } => write!(
                f,
                "broker {broker} stopped acting as controller (it had epoch {epoch})"
            ),
            ControllerDeleted { controller } => write!(
                f,
                "an operator deleted /controller, which named broker {controller}"
            ),
            BrokerOnline {
                controller,
                broker,
                broker_epoch,
            } => write!(
                f,
                "controller {controller} sees broker {broker} online (broker epoch {broker_epoch})"
            ),
            BrokerLost { controller, broker } => {
                write!(f, "controller {controller} sees broker {broker} gone")
            }
            MetadataUpdated {
                broker,
                controller,
                controller_epoch,
            } => write!(
                f,
                "broker {broker} now follows controller {controller} (controller epoch {controller_epoch})"
            ),
            StaleRequestRejected {
                broker,
                from,
                request,
                epoch,
                current,
                error,
            } => write!(
                f,
                "broker {broker} rejected {request} from broker {from}: epoch {epoch} < {current} ({error})"
            ),
            TopicCreated {
                topic, partitions, controller,
            } => write!(f, "controller {controller} sees new topic {topic} with {partitions} partition(s)"),
            LeaderElected {
                partition,
                leader,
                leader_epoch,
                isr,
                reason,
                controller,
                controller_epoch,
            } => write!(
                f,
                "{partition}: leader {leader}, leader epoch {leader_epoch}, ISR {isr:?} ({reason} election by controller {controller}, epoch {controller_epoch})"
            ),
            LeaderEpochBumped {
                partition,
                leader,
                leader_epoch,
                isr,
                replicas,
                controller,
                controller_epoch,
            } => write!(
                f,
                "{partition}: leader epoch {leader_epoch} (leader {leader} stays, ISR {isr:?}, replicas {replicas:?}; by controller {controller}, epoch {controller_epoch})"
            ),
            LeaderElectionFailed { partition, isr } => write!(
                f,
                "{partition}: no replica can lead (ISR {isr:?} all gone)"
            ),
            PartitionOffline {
                partition,
                isr,
                leader_epoch,
            } => write!(
                f,
                "{partition}: OFFLINE, leader -1, leader epoch {leader_epoch}, ISR {isr:?}"
            ),
            IsrShrunk {
                partition,
                by,
                removed,
                isr,
                leader_epoch,
            } => write!(
                f,
                "{partition}: ISR shrunk to {isr:?} ({removed:?} out, by broker {by}; leader epoch {leader_epoch})"
            ),
            IsrExpanded {
                partition,
                by,
                added,
                isr,
                leader_epoch,
            } => write!(
                f,
                "{partition}: ISR expanded to {isr:?} ({added:?} in, by broker {by}; leader epoch {leader_epoch})"
            ),
            IsrChangeAccepted {
                partition,
                controller,
                isr,
            } => write!(f, "controller {controller} wrote {partition}'s ISR {isr:?}"),
            IsrUpdateFailed {
                broker,
                partition,
                error,
            } => write!(f, "broker {broker} could not change {partition}'s ISR ({error})"),
            ReplicaTruncated {
                broker,
                partition,
                from_offset,
                to_offset,
            } => write!(
                f,
                "broker {broker} truncated {partition}: offsets {from_offset}..{to_offset} removed"
            ),
            LeaderImbalanceChecked {
                controller,
                ratios,
                moving,
            } => {
                let r = ratios
                    .iter()
                    .map(|(b, p)| format!("broker {b}: {p}%"))
                    .collect::<Vec<_>>()
                    .join(", ");
                if moving.is_empty() {
                    write!(f, "controller {controller} checked leader imbalance ({r}): nothing to move")
                } else {
                    write!(
                        f,
                        "controller {controller} checked leader imbalance ({r}): moving {} back to preferred",
                        moving.join(", ")
                    )
                }
            }
            ReassignmentStarted {
                partition,
                controller,
                target,
            } => write!(f, "controller {controller} started reassigning {partition} to {target:?}"),
            ReassignmentRefused {
                partition,
                target,
                error,
                controller,
            } => match controller {
                Some(c) => write!(f, "controller {c} refused to reassign {partition} to {target:?}: {error}"),
                None => write!(f, "the reassignment tool refused to reassign {partition} to {target:?}: {error}"),
            },
            ReassignmentCompleted {
                partition,
                controller,
                replicas,
            } => write!(f, "controller {controller} finished reassigning {partition}: replicas {replicas:?}"),
            RecordsLost {
                partition,
                from_offset,
                to_offset,
                records,
                acks,
                reason,
            } => write!(
                f,
                "{partition}: {records} acknowledged record(s) LOST (offsets {from_offset}..{to_offset}, acks={acks}, {reason})"
            ),
            ProducerStarted {
                partition,
                acks,
                rate_per_s,
            } => write!(f, "producer writes {rate_per_s} records/s to {partition} with acks={acks}"),
            ProducerStopped { partition } => write!(f, "producer stopped writing to {partition}"),
            ProduceFailed {
                partition,
                error,
                records,
            } => write!(f, "produce to {partition} failed: {error} (a batch of {records} record(s) given up; more may follow)"),
            ProduceRetrying {
                partition,
                error,
                records,
            } => write!(f, "produce to {partition} got {error}: the producer sends the batch again (a batch of {records} record(s); more may follow)"),
            ProduceRecovered {
                partition,
                retried,
                failed,
            } => write!(
                f,
                "produce to {partition} is acknowledged again ({retried} record(s) retried, {failed} given up meanwhile)"
            ),
            DuplicateWritten {
                broker,
                partition,
                from_offset,
                to_offset,
                records,
                first_offset,
            } => write!(
                f,
                "broker {broker} wrote {records} record(s) of {partition} a second time, at offsets {from_offset}..{to_offset} (first copy at {first_offset})"
            ),
            DuplicateDropped {
                broker,
                partition,
                offset,
                records,
            } => write!(
                f,
                "broker {broker} already holds the retried batch of {records} record(s) of {partition} at offset {offset}: not written again"
            ),
            ConfigChanged { key, value, topic } => match topic {
                Some(t) => write!(f, "topic {t}: {key} = {value}"),
                None => write!(f, "{key} = {value}"),
            },
            FetcherStalled { broker, what } => {
                write!(f, "broker {broker} stopped fetching {what}")
            }
            FetcherResumed { broker, what } => {
                write!(f, "broker {broker} fetches {what} again")
            }
            GroupMemberJoined {
                group,
                member,
                member_id,
                coordinator,
            } => write!(f, "group {group}: coordinator {coordinator} added member {member} ({member_id})"),
            RebalanceStarted {
                group,
                generation,
                reason,
                coordinator,
            } => write!(f, "group {group}: rebalance started after generation {generation} ({reason}; coordinator {coordinator})"),
            GroupLeaderChosen {
                group,
                member,
                member_id,
                generation,
            } => write!(f, "group {group}: {member} ({member_id}) leads generation {generation}"),
            GroupStable {
                group,
                generation,
                coordinator,
                assignment,
            } => write!(f, "group {group}: generation {generation} is Stable on coordinator {coordinator}: {assignment}"),
            GroupEmpty {
                group,
                generation,
                coordinator,
            } => write!(f, "group {group}: Empty at generation {generation} (coordinator {coordinator})"),
            GroupMemberRemoved {
                group,
                member,
                member_id,
                coordinator,
            } => write!(f, "group {group}: coordinator {coordinator} removed member {member} ({member_id})"),
            CoordinatorMoved {
                group,
                broker,
                generation,
                state,
            } => write!(f, "group {group}: broker {broker} is the coordinator now; it loaded generation {generation}, {state}"),
            ConsumerCrashed { group, member } => {
                write!(f, "consumer {member} of group {group} crashed")
            }
            ConsumerLeaving { group, member } => {
                write!(f, "consumer {member} of group {group} leaves the group")
            }
            CoordinatorFound {
                group,
                member,
                coordinator,
            } => write!(f, "consumer {member}: broker {coordinator} coordinates group {group}"),
            InvariantViolated { invariant, detail } => {
                write!(f, "INVARIANT BROKEN: {invariant}: {detail}")
            }
        }
    }
}

impl Event {
    /// One readable line: time, kind, what happened, and why.
    pub fn line(&self) -> String {
        format!(
            "{:>9}  {:<30} {} [{}]",
            fmt_ms(self.time_ms),
            self.kind.name(),
            self.kind,
            self.cause
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_election_reason_serializes_and_prints_as_its_name() {
        let all = [
            (ElectionReason::NewPartition, "new_partition"),
            (ElectionReason::Offline, "offline"),
            (ElectionReason::Unclean, "unclean"),
            (ElectionReason::Preferred, "preferred"),
            (ElectionReason::ControlledShutdown, "controlled_shutdown"),
            (ElectionReason::Reassignment, "reassignment"),
        ];
        for (reason, name) in all {
            assert_eq!(reason.name(), name);
            assert_eq!(reason.to_string(), name);
            assert_eq!(serde_json::to_value(reason).unwrap(), name);
        }
        let e = EventKind::LeaderElected {
            partition: "T-0".into(),
            leader: 2,
            leader_epoch: 1,
            isr: vec![2],
            reason: ElectionReason::Unclean,
            controller: 1,
            controller_epoch: 1,
        };
        assert_eq!(serde_json::to_value(&e).unwrap()["reason"], "unclean");
        assert_eq!(
            e.to_string(),
            "T-0: leader 2, leader epoch 1, ISR [2] (unclean election by controller 1, epoch 1)"
        );
    }

    #[test]
    fn the_serialized_kind_is_the_name() {
        let kinds = [
            EventKind::GroupMemberJoined {
                group: "g".into(),
                member: "c".into(),
                member_id: "c-1".into(),
                coordinator: 1,
            },
            EventKind::GroupMemberRemoved {
                group: "g".into(),
                member: "c".into(),
                member_id: "c-1".into(),
                coordinator: 1,
            },
            EventKind::GroupLeaderChosen {
                group: "g".into(),
                member: "c".into(),
                member_id: "c-1".into(),
                generation: 1,
            },
            EventKind::LeaderImbalanceChecked {
                controller: 1,
                ratios: vec![],
                moving: vec![],
            },
            EventKind::IsrShrunk {
                partition: "T-0".into(),
                by: 1,
                removed: vec![],
                isr: vec![],
                leader_epoch: 0,
            },
            EventKind::RecordsLost {
                partition: "T-0".into(),
                from_offset: 0,
                to_offset: 1,
                records: 1,
                acks: "all".into(),
                reason: "r".into(),
            },
        ];
        for k in kinds {
            let v = serde_json::to_value(&k).unwrap();
            assert_eq!(v["kind"], k.name(), "{k:?}");
        }
    }
}

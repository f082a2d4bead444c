//! The controller's causes: the election race for `/controller` (`KafkaController.elect`,
//! `ZookeeperLeaderElector.elect` in 0.10, `registerControllerAndIncrementControllerEpoch` from
//! 2.1), resignations, the watches it handles, brokers coming and going (`onBrokerStartup`,
//! `onBrokerFailure`, KIP-380 bounces), partition and replica state changes
//! (`PartitionStateMachine`, `ReplicaStateMachine`, the election strategies), reassignments
//! (`onPartitionReassignment`), controlled shutdown and the preferred-leader rebalance.

use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::text::{causes as m, English, Words};

/// Why a partition's leader epoch goes up: an election or a bump of the replica list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EpochBump {
    /// No live ISR replica; `unclean.leader.election.enable=true` lets an out-of-sync one lead
    /// (`OfflinePartitionLeaderElectionStrategy(allowUnclean = true)`).
    Unclean {
        /// The ISR, none of it live.
        isr: Vec<BrokerId>,
    },
    /// The leader is gone: the first live ISR replica in assignment order leads
    /// (`OfflinePartitionLeaderElectionStrategy`).
    LeaderGone {
        /// The lost leader.
        leader: BrokerId,
        /// The assignment.
        assignment: Vec<BrokerId>,
    },
    /// There was no leader: the first live ISR replica in assignment order leads.
    NoLeader {
        /// The assignment.
        assignment: Vec<BrokerId>,
    },
    /// `auto.leader.rebalance.enable`: the preferred replica leads again
    /// (`PreferredReplicaPartitionLeaderElectionStrategy`).
    PreferredAutomatic {
        /// The assignment.
        assignment: Vec<BrokerId>,
    },
    /// A preferred replica election (`kafka-preferred-replica-election`,
    /// `kafka-leader-election`).
    PreferredRequested {
        /// The assignment.
        assignment: Vec<BrokerId>,
    },
    /// Leadership moves off a broker in controlled shutdown
    /// (`ControlledShutdownPartitionLeaderElectionStrategy`).
    ControlledShutdown {
        /// The broker shutting down.
        broker: BrokerId,
    },
    /// A reassignment's first step: the enlarged replica list, heard by every replica
    /// (`KafkaController.onPartitionReassignment`).
    ReassignmentListed {
        /// The partition.
        tp: TopicPartition,
        /// The target replicas.
        target: Vec<BrokerId>,
        /// The replica list, target and original together.
        assignment: Vec<BrokerId>,
    },
    /// The target replicas are in sync and the leader is one of them
    /// (`KafkaController.moveReassignedPartitionLeaderIfRequired`).
    ReassignmentLeaderStays {
        /// The partition.
        tp: TopicPartition,
        /// The target replicas.
        target: Vec<BrokerId>,
    },
    /// The target replicas are in sync but the leader is not one of them
    /// (`ReassignPartitionLeaderElectionStrategy`).
    ReassignmentLeader {
        /// The partition.
        tp: TopicPartition,
        /// The target replicas.
        target: Vec<BrokerId>,
    },
}

impl EpochBump {
    /// The English words.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The words in `tr`'s language; lists of brokers as `[1, 2]`.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            EpochBump::Unclean { isr } => tr.f(m::CAUSE_BUMP_UNCLEAN, &[("isr", &list(isr))]),
            EpochBump::LeaderGone { leader, assignment } => tr.f(
                m::CAUSE_BUMP_LEADER_GONE,
                &[("leader", leader), ("assignment", &list(assignment))],
            ),
            EpochBump::NoLeader { assignment } => tr.f(
                m::CAUSE_BUMP_NO_LEADER,
                &[("assignment", &list(assignment))],
            ),
            EpochBump::PreferredAutomatic { assignment } => tr.f(
                m::CAUSE_BUMP_PREFERRED_AUTOMATIC,
                &[("assignment", &list(assignment))],
            ),
            EpochBump::PreferredRequested { assignment } => tr.f(
                m::CAUSE_BUMP_PREFERRED_REQUESTED,
                &[("assignment", &list(assignment))],
            ),
            EpochBump::ControlledShutdown { broker } => {
                tr.f(m::CAUSE_BUMP_CONTROLLED_SHUTDOWN, &[("broker", broker)])
            }
            EpochBump::ReassignmentListed {
                tp,
                target,
                assignment,
            } => tr.f(
                m::CAUSE_BUMP_REASSIGNMENT_LISTED,
                &[
                    ("tp", tp),
                    ("target", &list(target)),
                    ("assignment", &list(assignment)),
                ],
            ),
            EpochBump::ReassignmentLeaderStays { tp, target } => tr.f(
                m::CAUSE_BUMP_REASSIGNMENT_LEADER_STAYS,
                &[("tp", tp), ("target", &list(target))],
            ),
            EpochBump::ReassignmentLeader { tp, target } => tr.f(
                m::CAUSE_BUMP_REASSIGNMENT_LEADER,
                &[("tp", tp), ("target", &list(target))],
            ),
        }
    }
}

/// A list of brokers as the causes write it: `[1, 2, 3]`.
fn list(brokers: &[BrokerId]) -> String {
    format!("{brokers:?}")
}

/// Why a broker's replicas go to OfflineReplica (`ReplicaStateMachine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfflineWhy {
    /// Controlled shutdown: the stopping broker's follower replicas.
    ControlledShutdown,
    /// The broker failed (`onBrokerFailure`).
    BrokerFailure,
    /// Failover: a replica on a dead broker (`ReplicaStateMachine.startup`, 2.3+, KAFKA-3143).
    Failover,
    /// A reassignment removes the replica.
    Reassignment,
}

impl OfflineWhy {
    /// The English words.
    pub fn english(self) -> String {
        self.render(&English)
    }

    /// The words in `tr`'s language.
    pub fn render(self, tr: &dyn Words) -> String {
        tr.t(match self {
            OfflineWhy::ControlledShutdown => m::CAUSE_OFFLINE_CONTROLLED_SHUTDOWN,
            OfflineWhy::BrokerFailure => m::CAUSE_OFFLINE_BROKER_FAILURE,
            OfflineWhy::Failover => m::CAUSE_OFFLINE_FAILOVER,
            OfflineWhy::Reassignment => m::CAUSE_OFFLINE_REASSIGNMENT,
        })
    }
}

/// What OfflineReplica did to one partition (`removeReplicasFromIsr`: the ISR never becomes
/// empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offlined {
    /// It led and was the last ISR member: the leader becomes -1 and the ISR keeps it.
    LastLeader {
        /// The broker.
        broker: BrokerId,
    },
    /// It led: the leader becomes -1 and it leaves the ISR.
    Leader {
        /// The ISR now.
        isr: Vec<BrokerId>,
    },
    /// A follower: it leaves the ISR.
    Follower,
}

/// Why the automatic rebalance leaves a partition of a broker above the threshold where it is
/// (`KafkaController.checkAndTriggerAutoLeaderRebalance`: a partition moves only where its
/// preferred replica can lead, `canPreferredReplicaBeLeader` in 3.9.0; before, a candidate whose
/// preferred replica is online and not in the ISR fails its preferred election; and up to 3.3
/// only while no partition is being reassigned).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImbalanceHeld {
    /// The broker is down (not among the controller's live brokers).
    Down,
    /// The broker is live, but its replica is not in the partition's ISR.
    OutOfSync,
    /// A reassignment is in progress (of this partition or any other): up to 3.3 the check
    /// moves nothing then.
    ReassignmentInProgress,
}

impl ImbalanceHeld {
    /// The words in `tr`'s language, about broker `b`.
    pub fn render(self, b: BrokerId, tr: &dyn Words) -> String {
        let msg = match self {
            ImbalanceHeld::Down => m::CAUSE_CTRL_HELD_DOWN,
            ImbalanceHeld::OutOfSync => m::CAUSE_CTRL_HELD_OUT_OF_SYNC,
            ImbalanceHeld::ReassignmentInProgress => m::CAUSE_CTRL_HELD_REASSIGNING,
        };
        tr.f(msg, &[("broker", &b)])
    }
}

/// Why the controller did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControllerCause {
    /// Before 2.1: first to create `/controller`; the epoch is a second step.
    ZnodeCreated,
    /// Before 2.1: its create's reply was lost, but the znode is its own session's
    /// (`checkedEphemeralCreate`).
    ZnodeCreatedOwnSession,
    /// Before 2.1: `incrementControllerEpoch` set `/controller_epoch` with a conditional
    /// setData.
    ElectedEpochSet {
        /// The epoch read.
        from: u64,
        /// The epoch written.
        to: u64,
    },
    /// Before 2.1: no `/controller_epoch` yet, created with 1 (`InitialControllerEpoch`).
    ElectedEpochCreated,
    /// 2.1+: one multi-op, the cluster's first controller (epoch 1).
    ElectedFirstMulti,
    /// 2.1+: one multi-op after `/controller` went away.
    ElectedMulti,
    /// 2.1+: its multi-op's reply was lost, but both znodes show its win
    /// (`checkControllerAndEpoch`).
    ElectedOwnMulti,
    /// Before 2.1: the epoch step failed (ControllerMovedException): it gives `/controller`
    /// up (`triggerControllerMove`).
    EpochMoved,
    /// BADVERSION: another election landed first.
    RaceLostEpochChanged,
    /// NODEEXISTS: `/controller` already exists; the first write wins.
    RaceLostZnodeExists,
    /// `/controller` names another broker now.
    ControllerNow {
        /// The broker it names.
        controller: BrokerId,
    },
    /// `/controller` is gone.
    ControllerGone,
    /// The Reelect event queued behind the event in progress resigns it now.
    ReelectAfterEvent,
    /// The watch on `/controller` fired: deleted (Reelect), perhaps while the controller is
    /// busy with an event.
    ControllerDeleted {
        /// It was in the middle of an event.
        busy: bool,
    },
    /// A fenced write failed: `/controller_epoch` changed (KAFKA-6082).
    FencedWriteFailed,
    /// A fenced write of an assignment failed.
    FencedAssignmentWriteFailed,
    /// The watch on `/brokers/ids` fired.
    BrokersChanged,
    /// A broker's registration was deleted.
    BrokerGone {
        /// The broker.
        broker: BrokerId,
    },
    /// A broker re-registered before its loss was processed (a bounce, KIP-380).
    BrokerBounced {
        /// The broker.
        broker: BrokerId,
    },
    /// A broker registered (`onBrokerStartup`).
    BrokerAppeared {
        /// The broker.
        broker: BrokerId,
    },
    /// A topic's assignment appeared under `/brokers/topics`.
    TopicCreated,
    /// A controlled shutdown's leaderships all moved.
    ShutdownCompleted,
    /// A reassignment began.
    ReassignmentStarted,
    /// The AlterPartitionReassignments API's request refused (`validateReplicas`, 3.9.0): some
    /// replicas it adds are not live brokers.
    ReassignmentRefused {
        /// The adding replicas that are not live.
        not_live: Vec<BrokerId>,
        /// The live brokers (`controllerContext.liveBrokerIds`: registered, not shutting down).
        live: Vec<BrokerId>,
    },
    /// A reassignment finished.
    ReassignmentCompleted {
        /// The replicas deleted (StopReplica).
        removed: Vec<BrokerId>,
    },
    /// The automatic preferred-leader rebalance check.
    ImbalanceChecked {
        /// `leader.imbalance.check.interval.seconds`.
        interval_s: u64,
        /// `leader.imbalance.per.broker.percentage`.
        percentage: u32,
        /// The brokers above the threshold some of whose partitions do not move, and why.
        held: Vec<(BrokerId, ImbalanceHeld)>,
    },
    /// No live ISR replica and unclean election off: the partition stays offline.
    ElectionFailed {
        /// The ISR.
        isr: Vec<BrokerId>,
        /// The topic.
        topic: String,
    },
    /// A new partition's first leader (`initializeLeaderAndIsrForPartitions`).
    NewPartition,
    /// A leader epoch bump, with its reason.
    EpochBumped {
        /// Why.
        why: EpochBump,
    },
    /// OfflineReplica of one broker's replica.
    ReplicaOffline {
        /// Why the replica goes offline.
        why: OfflineWhy,
        /// What it did to the partition.
        done: Offlined,
    },
    /// AlterPartition written (KIP-497).
    AlterPartitionWritten,
}

impl ControllerCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            ControllerCause::ZnodeCreated => tr.t(m::CAUSE_CTRL_ZNODE_CREATED),
            ControllerCause::ZnodeCreatedOwnSession => {
                tr.t(m::CAUSE_CTRL_ZNODE_CREATED_OWN_SESSION)
            }
            ControllerCause::ElectedEpochSet { from, to } => tr.f(
                m::CAUSE_CTRL_ELECTED_EPOCH_SET,
                &[("from", from), ("to", to)],
            ),
            ControllerCause::ElectedEpochCreated => tr.t(m::CAUSE_CTRL_ELECTED_EPOCH_CREATED),
            ControllerCause::ElectedFirstMulti => tr.t(m::CAUSE_CTRL_ELECTED_FIRST_MULTI),
            ControllerCause::ElectedMulti => tr.t(m::CAUSE_CTRL_ELECTED_MULTI),
            ControllerCause::ElectedOwnMulti => tr.t(m::CAUSE_CTRL_ELECTED_OWN_MULTI),
            ControllerCause::EpochMoved => tr.t(m::CAUSE_CTRL_EPOCH_MOVED),
            ControllerCause::RaceLostEpochChanged => tr.t(m::CAUSE_CTRL_RACE_LOST_EPOCH_CHANGED),
            ControllerCause::RaceLostZnodeExists => tr.t(m::CAUSE_CTRL_RACE_LOST_ZNODE_EXISTS),
            ControllerCause::ControllerNow { controller } => {
                tr.f(m::CAUSE_CTRL_CONTROLLER_NOW, &[("controller", controller)])
            }
            ControllerCause::ControllerGone => tr.t(m::CAUSE_CTRL_CONTROLLER_GONE),
            ControllerCause::ReelectAfterEvent => tr.t(m::CAUSE_CTRL_REELECT_AFTER_EVENT),
            ControllerCause::ControllerDeleted { busy: true } => {
                tr.t(m::CAUSE_CTRL_CONTROLLER_DELETED_BUSY)
            }
            ControllerCause::ControllerDeleted { busy: false } => {
                tr.t(m::CAUSE_CTRL_CONTROLLER_DELETED)
            }
            ControllerCause::FencedWriteFailed => tr.t(m::CAUSE_CTRL_FENCED_WRITE_FAILED),
            ControllerCause::FencedAssignmentWriteFailed => {
                tr.t(m::CAUSE_CTRL_FENCED_ASSIGNMENT_WRITE_FAILED)
            }
            ControllerCause::BrokersChanged => tr.t(m::CAUSE_CTRL_BROKERS_CHANGED),
            ControllerCause::BrokerGone { broker } => {
                tr.f(m::CAUSE_CTRL_BROKER_GONE, &[("broker", broker)])
            }
            ControllerCause::BrokerBounced { broker } => {
                tr.f(m::CAUSE_CTRL_BROKER_BOUNCED, &[("broker", broker)])
            }
            ControllerCause::BrokerAppeared { broker } => {
                tr.f(m::CAUSE_CTRL_BROKER_APPEARED, &[("broker", broker)])
            }
            ControllerCause::TopicCreated => tr.t(m::CAUSE_CTRL_TOPIC_CREATED),
            ControllerCause::ShutdownCompleted => tr.t(m::CAUSE_CTRL_SHUTDOWN_COMPLETED),
            ControllerCause::ReassignmentStarted => tr.t(m::CAUSE_CTRL_REASSIGNMENT_STARTED),
            ControllerCause::ReassignmentRefused { not_live, live } => tr.f(
                m::CAUSE_CTRL_REASSIGNMENT_REFUSED,
                &[("not_live", &list(not_live)), ("live", &list(live))],
            ),
            ControllerCause::ReassignmentCompleted { removed } => {
                if removed.is_empty() {
                    tr.t(m::CAUSE_CTRL_REASSIGNMENT_COMPLETED)
                } else {
                    tr.f(
                        m::CAUSE_CTRL_REASSIGNMENT_COMPLETED_REMOVED,
                        &[("removed", &list(removed))],
                    )
                }
            }
            ControllerCause::ImbalanceChecked {
                interval_s,
                percentage,
                held,
            } => held.iter().fold(
                tr.f(
                    m::CAUSE_CTRL_IMBALANCE_CHECKED,
                    &[("interval_s", interval_s), ("percentage", percentage)],
                ),
                |text, (b, why)| {
                    tr.f(
                        m::CAUSE_CTRL_IMBALANCE_HELD,
                        &[("text", &text), ("held", &why.render(*b, tr))],
                    )
                },
            ),
            ControllerCause::ElectionFailed { isr, topic } => tr.f(
                m::CAUSE_CTRL_ELECTION_FAILED,
                &[("isr", &list(isr)), ("topic", topic)],
            ),
            ControllerCause::NewPartition => tr.t(m::CAUSE_CTRL_NEW_PARTITION),
            ControllerCause::EpochBumped { why } => {
                tr.f(m::CAUSE_CTRL_EPOCH_BUMPED, &[("why", &why.render(tr))])
            }
            ControllerCause::ReplicaOffline { why, done } => {
                let why = why.render(tr);
                match done {
                    Offlined::LastLeader { broker } => tr.f(
                        m::CAUSE_CTRL_OFFLINE_LAST_LEADER,
                        &[("why", &why), ("broker", broker)],
                    ),
                    Offlined::Leader { isr } => tr.f(
                        m::CAUSE_CTRL_OFFLINE_LEADER,
                        &[("why", &why), ("isr", &list(isr))],
                    ),
                    Offlined::Follower => tr.f(m::CAUSE_CTRL_OFFLINE_FOLLOWER, &[("why", &why)]),
                }
            }
            ControllerCause::AlterPartitionWritten => tr.t(m::CAUSE_CTRL_ALTER_PARTITION_WRITTEN),
        }
    }
}

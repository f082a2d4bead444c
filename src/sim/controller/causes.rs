//! The controller's causes: the election race for `/controller` (`KafkaController.elect`,
//! `ZookeeperLeaderElector.elect` in 0.10, `registerControllerAndIncrementControllerEpoch` from
//! 2.1), resignations, the watches it handles, brokers coming and going (`onBrokerStartup`,
//! `onBrokerFailure`, KIP-380 bounces), partition and replica state changes
//! (`PartitionStateMachine`, `ReplicaStateMachine`, the election strategies), reassignments
//! (`onPartitionReassignment`), controlled shutdown and the preferred-leader rebalance.

use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;

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
        match self {
            EpochBump::Unclean { isr } => format!("no live replica of the ISR {isr:?}; unclean.leader.election.enable=true lets the first live replica in assignment order lead: records it lacks are lost"),
            EpochBump::LeaderGone { leader, assignment } => format!("leader {leader} is gone: the first live ISR replica in assignment order {assignment:?} leads (not the first in ISR order); the ISR keeps only live members"),
            EpochBump::NoLeader { assignment } => format!("the partition had no leader: the first live ISR replica in assignment order {assignment:?} leads"),
            EpochBump::PreferredAutomatic { assignment } => format!("auto.leader.rebalance.enable: the preferred replica (first in the assignment {assignment:?}) is live and in sync, so it leads again; the ISR is unchanged"),
            EpochBump::PreferredRequested { assignment } => format!("preferred replica election: the first replica of the assignment {assignment:?} is live and in sync; the ISR is unchanged"),
            EpochBump::ControlledShutdown { broker } => format!("broker {broker} is shutting down: the first live, in-sync replica that is not shutting down leads; the stopping broker leaves the ISR"),
            EpochBump::ReassignmentListed { tp, target, assignment } => format!("reassignment of {tp} to {target:?}: the replica list is {assignment:?}, target and original together, until every target replica is in the ISR; the controller bumps the leader epoch without changing leader or ISR so that every replica, old and new, hears that list (KafkaController.onPartitionReassignment)"),
            EpochBump::ReassignmentLeaderStays { tp, target } => format!("every target replica of {tp} is in the ISR: the replica list becomes the target {target:?} and the leader, already in it, stays; the leader epoch is bumped so the leader stops counting the replicas being removed (KafkaController.moveReassignedPartitionLeaderIfRequired)"),
            EpochBump::ReassignmentLeader { tp, target } => format!("every target replica of {tp} is in the ISR, but the leader is not one of the target {target:?} (or is dead): the first live, in-sync target replica leads (ReassignPartitionLeaderElectionStrategy); the ISR is unchanged until the removed replicas leave it"),
        }
    }
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
    pub fn english(self) -> &'static str {
        match self {
            OfflineWhy::ControlledShutdown => "controlled shutdown: the stopping broker's follower replicas go to OfflineReplica",
            OfflineWhy::BrokerFailure => "broker failure: its replicas go to OfflineReplica",
            OfflineWhy::Failover => "controller failover: a replica on a dead broker goes to OfflineReplica (ReplicaStateMachine.startup, 2.3+, KAFKA-3143)",
            OfflineWhy::Reassignment => "reassignment: a replica being removed goes to OfflineReplica and leaves the ISR",
        }
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
/// (`KafkaController.checkAndTriggerAutoLeaderRebalance`: only partitions whose preferred
/// replica can lead, `canPreferredReplicaBeLeader` in 2.4+ and `isReplicaOnline` before, and
/// that are not being reassigned are candidates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImbalanceHeld {
    /// The broker is down (not among the controller's live brokers).
    Down,
    /// The broker is live, but its replica is not in the partition's ISR.
    OutOfSync,
    /// The partition is being reassigned.
    Reassigning,
}

impl ImbalanceHeld {
    /// The English words, about broker `b`.
    pub fn english(self, b: BrokerId) -> String {
        match self {
            ImbalanceHeld::Down => format!("broker {b} is above it but down: a preferred replica on a broker that is not live cannot lead, so its partitions stay with their current leaders until it returns"),
            ImbalanceHeld::OutOfSync => format!("broker {b} is above it but its replica is not in the ISR of a partition it prefers: that partition moves back only once it catches up"),
            ImbalanceHeld::Reassigning => format!("broker {b} is above it but a partition it prefers is being reassigned, and the check leaves reassigning partitions alone"),
        }
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
        match self {
            ControllerCause::ZnodeCreated => "KafkaController.elect (ZookeeperLeaderElector.elect in 0.10): first broker to create the ephemeral /controller znode; before 2.1 the controller epoch is a second step (onControllerFailover's incrementControllerEpoch)".to_string(),
            ControllerCause::ZnodeCreatedOwnSession => "the reply to its create of /controller was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it had won (checkedEphemeralCreate); the controller epoch comes next".to_string(),
            ControllerCause::ElectedEpochSet { from, to } => format!("two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch set /controller_epoch from {from} to {to} with a conditional setData"),
            ControllerCause::ElectedEpochCreated => "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch found no /controller_epoch and created it with 1 (InitialControllerEpoch in 0.10.2.2 and 2.0.1)".to_string(),
            ControllerCause::ElectedFirstMulti => "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode; /controller_epoch, created with 0, set to 1 in the same transaction".to_string(),
            ControllerCause::ElectedMulti => "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode after it went away; /controller_epoch incremented in the same transaction".to_string(),
            ControllerCause::ElectedOwnMulti => "the reply to its multi-op was lost with the connection; sent again after the reconnect it failed, but /controller names this broker and /controller_epoch holds the epoch it wrote, so the first attempt had won (checkControllerAndEpoch)".to_string(),
            ControllerCause::EpochMoved => "it created /controller, but incrementing /controller_epoch failed: another controller moved the epoch (ControllerMovedException); it deletes /controller (triggerControllerMove), so every broker races again".to_string(),
            ControllerCause::RaceLostEpochChanged => "/controller_epoch changed since it was read: another broker's election landed first".to_string(),
            ControllerCause::RaceLostZnodeExists => "the ephemeral /controller znode already exists: the first write wins, there is no lowest-id rule".to_string(),
            ControllerCause::ControllerNow { controller } => format!("/controller now names broker {controller} (ControllerMovedException)"),
            ControllerCause::ControllerGone => "/controller is gone".to_string(),
            ControllerCause::ReelectAfterEvent => "/controller was deleted while it was handling an event; the Reelect event queued behind that event resigns it now".to_string(),
            ControllerCause::ControllerDeleted { busy: true } => "/controller is gone (its owner's session ended, or it was deleted); this controller is in the middle of an event, so the Reelect event waits behind it and what it writes meanwhile still goes out".to_string(),
            ControllerCause::ControllerDeleted { busy: false } => "/controller is gone (its owner's session ended, or it was deleted): Reelect".to_string(),
            ControllerCause::FencedWriteFailed => "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException, KAFKA-6082)".to_string(),
            ControllerCause::FencedAssignmentWriteFailed => "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException)".to_string(),
            ControllerCause::BrokersChanged => "the controller watches /brokers/ids to learn of brokers joining and leaving".to_string(),
            ControllerCause::BrokerGone { broker } => format!("/brokers/ids/{broker} was deleted: the broker's ZooKeeper session ended"),
            ControllerCause::BrokerBounced { broker } => format!("broker {broker} re-registered with a newer broker epoch before its loss was processed: a bounce (KIP-380) is handled as failure, then startup"),
            ControllerCause::BrokerAppeared { broker } => format!("/brokers/ids/{broker} appeared: onBrokerStartup sends it and every live broker the cluster metadata, then elects leaders for offline partitions"),
            ControllerCause::TopicCreated => "the controller watches /brokers/topics; an admin tool wrote the new topic's assignment there".to_string(),
            ControllerCause::ShutdownCompleted => "the controller moved every leadership of the stopping broker to another in-sync replica and took it out of the ISRs".to_string(),
            ControllerCause::ReassignmentStarted => "partition reassignment: the replica list becomes the target followed by the replicas being removed; the new replicas catch up before the old ones go".to_string(),
            ControllerCause::ReassignmentCompleted { removed } => {
                if removed.is_empty() {
                    "the assignment znode names only the target replicas: the reassignment is done".to_string()
                } else {
                    format!("the replicas {removed:?} left the ISR and were deleted (StopReplica); the assignment znode names only the target replicas: the reassignment is done")
                }
            }
            ControllerCause::ImbalanceChecked { interval_s, percentage, held } => {
                let mut text = format!("auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds ({interval_s} s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage ({percentage} %)");
                for (b, why) in held {
                    text.push_str("; ");
                    text.push_str(&why.english(*b));
                }
                text
            }
            ControllerCause::ElectionFailed { isr, topic } => format!("no live replica in the ISR {isr:?} and unclean.leader.election.enable=false for {topic}: the partition stays offline rather than lose acknowledged records"),
            ControllerCause::NewPartition => "a new partition: the first live replica in assignment order leads, the live replicas form the ISR, leader epoch 0".to_string(),
            ControllerCause::EpochBumped { why } => format!("{}; leader epoch +1", why.english()),
            ControllerCause::ReplicaOffline { why, done } => {
                let why = why.english();
                match done {
                    Offlined::LastLeader { broker } => format!("{why}; it led, so the leader becomes -1; it was the last member of the ISR, which never becomes empty, so the partition waits for broker {broker} to return; leader epoch +1"),
                    Offlined::Leader { isr } => format!("{why}; it led, so the leader becomes -1 and it leaves the ISR, now {isr:?}; an election follows; leader epoch +1"),
                    Offlined::Follower => format!("{why}: the controller removes it from the ISR; leader epoch +1"),
                }
            }
            ControllerCause::AlterPartitionWritten => "AlterPartition from the leader (KIP-497): the controller writes the new ISR; the leader epoch stays".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp() -> TopicPartition {
        TopicPartition::new("T", 0)
    }

    #[test]
    fn every_epoch_bump_renders_its_words() {
        let cases = [
            (EpochBump::Unclean { isr: vec![1] }, "no live replica of the ISR [1]; unclean.leader.election.enable=true lets the first live replica in assignment order lead: records it lacks are lost"),
            (EpochBump::LeaderGone { leader: 2, assignment: vec![2, 3, 1] }, "leader 2 is gone: the first live ISR replica in assignment order [2, 3, 1] leads (not the first in ISR order); the ISR keeps only live members"),
            (EpochBump::NoLeader { assignment: vec![1, 2, 3] }, "the partition had no leader: the first live ISR replica in assignment order [1, 2, 3] leads"),
            (EpochBump::PreferredAutomatic { assignment: vec![1, 2] }, "auto.leader.rebalance.enable: the preferred replica (first in the assignment [1, 2]) is live and in sync, so it leads again; the ISR is unchanged"),
            (EpochBump::PreferredRequested { assignment: vec![1, 2] }, "preferred replica election: the first replica of the assignment [1, 2] is live and in sync; the ISR is unchanged"),
            (EpochBump::ControlledShutdown { broker: 1 }, "broker 1 is shutting down: the first live, in-sync replica that is not shutting down leads; the stopping broker leaves the ISR"),
            (EpochBump::ReassignmentListed { tp: tp(), target: vec![4, 5], assignment: vec![4, 5, 1] }, "reassignment of T-0 to [4, 5]: the replica list is [4, 5, 1], target and original together, until every target replica is in the ISR; the controller bumps the leader epoch without changing leader or ISR so that every replica, old and new, hears that list (KafkaController.onPartitionReassignment)"),
            (EpochBump::ReassignmentLeaderStays { tp: tp(), target: vec![1, 4] }, "every target replica of T-0 is in the ISR: the replica list becomes the target [1, 4] and the leader, already in it, stays; the leader epoch is bumped so the leader stops counting the replicas being removed (KafkaController.moveReassignedPartitionLeaderIfRequired)"),
            (EpochBump::ReassignmentLeader { tp: tp(), target: vec![4, 5] }, "every target replica of T-0 is in the ISR, but the leader is not one of the target [4, 5] (or is dead): the first live, in-sync target replica leads (ReassignPartitionLeaderElectionStrategy); the ISR is unchanged until the removed replicas leave it"),
        ];
        for (why, text) in cases {
            assert_eq!(why.english(), text, "{why:?}");
            assert_eq!(
                ControllerCause::EpochBumped { why }.english(),
                format!("{text}; leader epoch +1")
            );
        }
    }

    #[test]
    fn every_controller_cause_renders_its_sentence() {
        let offline = |why, done| ControllerCause::ReplicaOffline { why, done };
        let cases = [
            (ControllerCause::ZnodeCreated, "KafkaController.elect (ZookeeperLeaderElector.elect in 0.10): first broker to create the ephemeral /controller znode; before 2.1 the controller epoch is a second step (onControllerFailover's incrementControllerEpoch)".to_string()),
            (ControllerCause::ZnodeCreatedOwnSession, "the reply to its create of /controller was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it had won (checkedEphemeralCreate); the controller epoch comes next".into()),
            (ControllerCause::ElectedEpochSet { from: 2, to: 3 }, "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch set /controller_epoch from 2 to 3 with a conditional setData".into()),
            (ControllerCause::ElectedEpochCreated, "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch found no /controller_epoch and created it with 1 (InitialControllerEpoch in 0.10.2.2 and 2.0.1)".into()),
            (ControllerCause::ElectedFirstMulti, "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode; /controller_epoch, created with 0, set to 1 in the same transaction".into()),
            (ControllerCause::ElectedMulti, "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode after it went away; /controller_epoch incremented in the same transaction".into()),
            (ControllerCause::ElectedOwnMulti, "the reply to its multi-op was lost with the connection; sent again after the reconnect it failed, but /controller names this broker and /controller_epoch holds the epoch it wrote, so the first attempt had won (checkControllerAndEpoch)".into()),
            (ControllerCause::EpochMoved, "it created /controller, but incrementing /controller_epoch failed: another controller moved the epoch (ControllerMovedException); it deletes /controller (triggerControllerMove), so every broker races again".into()),
            (ControllerCause::RaceLostEpochChanged, "/controller_epoch changed since it was read: another broker's election landed first".into()),
            (ControllerCause::RaceLostZnodeExists, "the ephemeral /controller znode already exists: the first write wins, there is no lowest-id rule".into()),
            (ControllerCause::ControllerNow { controller: 2 }, "/controller now names broker 2 (ControllerMovedException)".into()),
            (ControllerCause::ControllerGone, "/controller is gone".into()),
            (ControllerCause::ReelectAfterEvent, "/controller was deleted while it was handling an event; the Reelect event queued behind that event resigns it now".into()),
            (ControllerCause::ControllerDeleted { busy: true }, "/controller is gone (its owner's session ended, or it was deleted); this controller is in the middle of an event, so the Reelect event waits behind it and what it writes meanwhile still goes out".into()),
            (ControllerCause::ControllerDeleted { busy: false }, "/controller is gone (its owner's session ended, or it was deleted): Reelect".into()),
            (ControllerCause::FencedWriteFailed, "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException, KAFKA-6082)".into()),
            (ControllerCause::FencedAssignmentWriteFailed, "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException)".into()),
            (ControllerCause::BrokersChanged, "the controller watches /brokers/ids to learn of brokers joining and leaving".into()),
            (ControllerCause::BrokerGone { broker: 2 }, "/brokers/ids/2 was deleted: the broker's ZooKeeper session ended".into()),
            (ControllerCause::BrokerBounced { broker: 2 }, "broker 2 re-registered with a newer broker epoch before its loss was processed: a bounce (KIP-380) is handled as failure, then startup".into()),
            (ControllerCause::BrokerAppeared { broker: 2 }, "/brokers/ids/2 appeared: onBrokerStartup sends it and every live broker the cluster metadata, then elects leaders for offline partitions".into()),
            (ControllerCause::TopicCreated, "the controller watches /brokers/topics; an admin tool wrote the new topic's assignment there".into()),
            (ControllerCause::ShutdownCompleted, "the controller moved every leadership of the stopping broker to another in-sync replica and took it out of the ISRs".into()),
            (ControllerCause::ReassignmentStarted, "partition reassignment: the replica list becomes the target followed by the replicas being removed; the new replicas catch up before the old ones go".into()),
            (ControllerCause::ReassignmentCompleted { removed: vec![] }, "the assignment znode names only the target replicas: the reassignment is done".into()),
            (ControllerCause::ReassignmentCompleted { removed: vec![1, 2] }, "the replicas [1, 2] left the ISR and were deleted (StopReplica); the assignment znode names only the target replicas: the reassignment is done".into()),
            (ControllerCause::ImbalanceChecked { interval_s: 300, percentage: 10, held: vec![] }, "auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds (300 s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage (10 %)".into()),
            (ControllerCause::ImbalanceChecked { interval_s: 300, percentage: 10, held: vec![(1, ImbalanceHeld::Down), (2, ImbalanceHeld::OutOfSync), (3, ImbalanceHeld::Reassigning)] }, "auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds (300 s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage (10 %); broker 1 is above it but down: a preferred replica on a broker that is not live cannot lead, so its partitions stay with their current leaders until it returns; broker 2 is above it but its replica is not in the ISR of a partition it prefers: that partition moves back only once it catches up; broker 3 is above it but a partition it prefers is being reassigned, and the check leaves reassigning partitions alone".into()),
            (ControllerCause::ElectionFailed { isr: vec![2], topic: "T".into() }, "no live replica in the ISR [2] and unclean.leader.election.enable=false for T: the partition stays offline rather than lose acknowledged records".into()),
            (ControllerCause::NewPartition, "a new partition: the first live replica in assignment order leads, the live replicas form the ISR, leader epoch 0".into()),
            (offline(OfflineWhy::BrokerFailure, Offlined::LastLeader { broker: 2 }), "broker failure: its replicas go to OfflineReplica; it led, so the leader becomes -1; it was the last member of the ISR, which never becomes empty, so the partition waits for broker 2 to return; leader epoch +1".into()),
            (offline(OfflineWhy::Failover, Offlined::Leader { isr: vec![1, 3] }), "controller failover: a replica on a dead broker goes to OfflineReplica (ReplicaStateMachine.startup, 2.3+, KAFKA-3143); it led, so the leader becomes -1 and it leaves the ISR, now [1, 3]; an election follows; leader epoch +1".into()),
            (offline(OfflineWhy::ControlledShutdown, Offlined::Follower), "controlled shutdown: the stopping broker's follower replicas go to OfflineReplica: the controller removes it from the ISR; leader epoch +1".into()),
            (offline(OfflineWhy::Reassignment, Offlined::Follower), "reassignment: a replica being removed goes to OfflineReplica and leaves the ISR: the controller removes it from the ISR; leader epoch +1".into()),
            (ControllerCause::AlterPartitionWritten, "AlterPartition from the leader (KIP-497): the controller writes the new ISR; the leader epoch stays".into()),
        ];
        for (cause, text) in cases {
            assert_eq!(cause.english(), text, "{cause:?}");
        }
    }
}

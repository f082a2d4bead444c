//! Every controller cause and leader-epoch reason renders its English sentence.

use super::causes::*;
use crate::sim::topic::TopicPartition;

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
    let zh = crate::i18n::testing::zh();
    for (why, text) in cases {
        assert_eq!(why.english(), text, "{why:?}");
        crate::i18n::testing::assert_chinese(&why.render(&zh), &why.english());
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
        (ControllerCause::ImbalanceChecked { interval_s: 300, percentage: 10, held: vec![(1, ImbalanceHeld::Down), (2, ImbalanceHeld::OutOfSync), (3, ImbalanceHeld::ReassignmentInProgress)] }, "auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds (300 s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage (10 %); broker 1 is above it but down: a preferred replica on a broker that is not live cannot lead, so its partitions stay with their current leaders until it returns; broker 2 is above it but its replica is not in the ISR of a partition it prefers: that partition moves back only once it catches up; broker 3 is above it but a reassignment is in progress, and up to Kafka 3.3 the check moves no leader while any partition is being reassigned".into()),
        (ControllerCause::ImbalanceChecked { interval_s: 300, percentage: 10, held: vec![] }, "auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds (300 s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage (10 %)".into()),
        (ControllerCause::ElectionFailed { isr: vec![2], topic: "T".into() }, "no live replica in the ISR [2] and unclean.leader.election.enable=false for T: the partition stays offline rather than lose acknowledged records".into()),
        (ControllerCause::NewPartition, "a new partition: the first live replica in assignment order leads, the live replicas form the ISR, leader epoch 0".into()),
        (offline(OfflineWhy::BrokerFailure, Offlined::LastLeader { broker: 2 }), "broker failure: its replicas go to OfflineReplica; it led, so the leader becomes -1; it was the last member of the ISR, which never becomes empty, so the partition waits for broker 2 to return; leader epoch +1".into()),
        (offline(OfflineWhy::Failover, Offlined::Leader { isr: vec![1, 3] }), "controller failover: a replica on a dead broker goes to OfflineReplica (ReplicaStateMachine.startup, 2.3+, KAFKA-3143); it led, so the leader becomes -1 and it leaves the ISR, now [1, 3]; an election follows; leader epoch +1".into()),
        (offline(OfflineWhy::ControlledShutdown, Offlined::Follower), "controlled shutdown: the stopping broker's follower replicas go to OfflineReplica: the controller removes it from the ISR; leader epoch +1".into()),
        (offline(OfflineWhy::Reassignment, Offlined::Follower), "reassignment: a replica being removed goes to OfflineReplica and leaves the ISR: the controller removes it from the ISR; leader epoch +1".into()),
        (ControllerCause::AlterPartitionWritten, "AlterPartition from the leader (KIP-497): the controller writes the new ISR; the leader epoch stays".into()),
    ];
    let zh = crate::i18n::testing::zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        crate::i18n::testing::assert_chinese(&cause.render(&zh), &cause.english());
    }
}

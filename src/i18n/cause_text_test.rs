//! Every cause of the core renders its English sentence (the one the traces, the command line
//! and the JSON say, through `text::English`) and, through the page's words (a `Tr` is a
//! `text::Words`, `cause_text.rs`), a Chinese one from `www/i18n/zh-CN.json` with every
//! placeholder filled. The core says its causes in English and imports no language, so the
//! tests that read the catalogue live here, one layer up.

use super::testing::{assert_chinese, zh};
use crate::sim::broker::causes::{BrokerCause, ShutdownFailure, ShutdownNext};
use crate::sim::consumer::causes::ConsumerCause;
use crate::sim::controller::causes::{
    ControllerCause, EpochBump, ImbalanceHeld, OfflineWhy, Offlined,
};
use crate::sim::coordinator::causes::{CoordinatorCause, MapHead, MapWalk};
use crate::sim::producer::causes::{NoRetry, ProduceError, ProducerCause, RetryBackoff};
use crate::sim::replication::causes::{IsrWrite, ReplicationCause, ShrinkRule};
use crate::sim::topic::TopicPartition;
use crate::sim::world::causes::{ToolRefusal, WorldCause};
use crate::sim::zk_client::causes::ZkClientCause;
use crate::sim::zookeeper::causes::ZkCause;

// The ZooKeeper server's causes (`src/sim/zookeeper/causes.rs`).
#[test]
fn every_zookeeper_cause_renders_its_sentence() {
    let cases = [
        (
            ZkCause::SessionCreated,
            "a new ZooKeeper client connects and gets a new session",
        ),
        (
            ZkCause::SessionCreatedBounded {
                requested_ms: 90_000,
                min_ms: 6_000,
                max_ms: 60_000,
                tick_ms: 3_000,
            },
            "a new ZooKeeper client connects and gets a new session; it asked for 90000 ms, but the server grants only timeouts from minSessionTimeout (6000 ms) to maxSessionTimeout (60000 ms), 2 and 20 ticks of tickTime (3000 ms)",
        ),
        (
            ZkCause::SessionClosed,
            "clean shutdown closes the ZooKeeper session at once",
        ),
        (
            ZkCause::SessionTimedOut {
                timeout_ms: 18_000,
                tick_ms: 3_000,
                after_last_contact_ms: 18_204,
            },
            "no heartbeat for zookeeper.session.timeout.ms (18000 ms); the session tracker expires sessions on its tickTime (3000 ms) boundaries, here the first after the last contact + the timeout (18204 ms after it)",
        ),
        (
            ZkCause::ExpiredOnRequest,
            "ZooKeeper expired the session on request (expire_session)",
        ),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// A broker's ZooKeeper client's causes (`src/sim/zk_client/causes.rs`).
#[test]
fn every_zookeeper_client_cause_renders_its_sentence() {
    let cases = [
        (
            ZkClientCause::ReadTimeout {
                read_timeout_ms: 4_000,
            },
            "nothing heard from ZooKeeper for the client's readTimeout (4000 ms, 2/3 of the negotiated session timeout)",
        ),
        (
            ZkClientCause::ConnectionLostOnCut,
            "the connection to ZooKeeper lost packets while the link was cut; the client reconnects",
        ),
        (
            ZkClientCause::SessionNotExpiredYet,
            "the session had not expired yet, so the client resumes it",
        ),
        (
            ZkClientCause::ServerSaysExpired,
            "the ZooKeeper server answers that the session expired",
        ),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// A broker process's causes (`src/sim/broker/causes.rs`).
#[test]
fn every_broker_cause_renders_its_sentence() {
    let failed = |why, next| BrokerCause::ShutdownFailed { why, next };
    let retry = ShutdownNext::RetryAfter { backoff_ms: 5_000 };
    let cases = [
        (BrokerCause::Paused, "the process freezes (a long garbage-collection pause): no heartbeats, no work".to_string()),
        (BrokerCause::Resumed, "the pause is over; the process still holds the state it had before it froze".into()),
        (BrokerCause::RegisteredAtStartup, "startup: registerBroker creates the ephemeral /brokers/ids/N; its czxid is the broker epoch (KIP-380)".into()),
        (BrokerCause::RegisteredAfterExpiry, "new session after expiry: the broker creates /brokers/ids/N again (RegisterBrokerAndReelect from 1.1, KafkaHealthCheck's handleNewSession in 0.10), so the broker epoch grows".into()),
        (BrokerCause::RegisteredOwnSession, "the reply to its create of /brokers/ids/N was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it is registered (checkedEphemeralCreate)".into()),
        (BrokerCause::StartFailedZnodeHeld { broker: 2, session_timeout_ms: 18_000 }, "/brokers/ids/2 still belongs to the previous process's ZooKeeper session, which lives until zookeeper.session.timeout.ms (18000 ms) passes without heartbeats (NODEEXISTS)".into()),
        (BrokerCause::StaleControllerEpoch, "a request from an older controller epoch than the broker has seen is refused: this fences zombie controllers".into()),
        (BrokerCause::StaleBrokerEpoch, "the request was meant for an earlier registration of this broker (broker epoch, KIP-380)".into()),
        (BrokerCause::MetadataFromController, "a request from the controller; brokers learn the controller epoch only from requests".into()),
        (BrokerCause::ShutdownRequested, "controlled shutdown: the broker asks the controller to move its leaderships before it stops".into()),
        (failed(ShutdownFailure::NoAnswer { socket_timeout_ms: 30_000 }, retry.clone()), "no answer within controller.socket.timeout.ms (30000 ms); retrying after controlled.shutdown.retry.backoff.ms (5000 ms)".into()),
        (failed(ShutdownFailure::NoController, retry.clone()), "no controller is known; retrying after controlled.shutdown.retry.backoff.ms (5000 ms)".into()),
        (failed(ShutdownFailure::LeadershipsLeft { partitions: vec![TopicPartition::new("T", 0), TopicPartition::new("T", 2)] }, retry), "the controller could not move leadership of T-0, T-2 elsewhere (no other live in-sync replica); retrying after controlled.shutdown.retry.backoff.ms (5000 ms)".into()),
        (failed(ShutdownFailure::Error { error: "NOT_CONTROLLER" }, ShutdownNext::GiveUp { max_retries: 3 }), "NOT_CONTROLLER; all controlled.shutdown.max.retries (3) attempts are used up, so the broker stops without a controlled shutdown".into()),
        (BrokerCause::Stopped, "the broker process exits after closing its ZooKeeper session".into()),
        (BrokerCause::ZombieResigns, "the controller handles its session expiry only after the ZooKeeper client (I0Itec zkclient) re-created the session and the event it was handling finished with its writes on it (0.10: SessionExpirationListener.handleNewSession waits for the controllerLock)".into()),
        (BrokerCause::ResignsOnNewSession, "its ZooKeeper session expired and it had no unfinished ZooKeeper work: the new session's handleNewSession resigns it (onControllerResignation)".into()),
        (BrokerCause::ResignsOnExpiry, "its ZooKeeper session expired: ZooKeeperClient fails the requests of the old session and the Expire event resigns the controller (onControllerResignation) before the new session is made (beforeInitializingSession, from 1.1)".into()),
        (BrokerCause::ResignsOnShutdown, "the controller is shutting down (KafkaController.shutdown)".into()),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// The controller's causes and leader-epoch reasons (`src/sim/controller/causes.rs`).

/// The partition the controller's cases name.
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
    let zh = zh();
    for (why, text) in cases {
        assert_eq!(why.english(), text, "{why:?}");
        assert_chinese(&why.render(&zh), &why.english());
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
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// The replica manager's causes (`src/sim/replication/causes.rs`).
#[test]
fn every_replication_cause_renders_its_sentence() {
    let cases = [
        (ReplicationCause::TruncatedAtDivergence, "the follower's log diverged from the new leader's: it truncates to where their leader epochs part (KIP-101, KIP-279)"),
        (ReplicationCause::TruncatedToLeaderEnd, "the follower is ahead of the new leader (OFFSET_OUT_OF_RANGE): it truncates to the leader's log end"),
        (ReplicationCause::TruncatedToHighWatermark, "before 0.11 a follower truncates its log to its high watermark when it starts following (KafkaTruncateToHighWatermark): acknowledged records above it can be lost"),
        (ReplicationCause::OlderLeaderEpochIgnored, "a partition whose leader epoch is not newer than the broker's is ignored"),
        (ReplicationCause::IsrZkVersionChanged, "cached zkVersion not equal to that in ZooKeeper, skip updating ISR: the controller changed the partition since this leader's last LeaderAndIsr"),
        (ReplicationCause::IsrIneligibleReplica, "the controller refused the ISR change: it names a replica that is not live or is shutting down (INELIGIBLE_REPLICA, KIP-841); the leader goes back to its last committed ISR"),
        (ReplicationCause::IsrStalePartitionState, "the controller refused the ISR change: it was built on an older partition state (AlterPartition, KIP-497); the leader makes no ISR change until the controller's next LeaderAndIsr"),
        (ReplicationCause::IsrShrunk { replica_lag_time_max_ms: 30_000, rule: ShrinkRule::BehindLogEnd, via: IsrWrite::AlterPartition }, "the follower was behind the leader's log end for longer than replica.lag.time.max.ms (30000 ms); AlterPartition to the controller (KIP-497), no leader epoch bump"),
        (ReplicationCause::IsrShrunk { replica_lag_time_max_ms: 10_000, rule: ShrinkRule::LagTimeAlone, via: IsrWrite::ZkCompareAndSet }, "the follower had not caught up with the leader's log end for longer than replica.lag.time.max.ms (10000 ms): before 2.1 the lag time alone decides, so a follower that stops fetching leaves the ISR even when nothing is written (KAFKA-7152); the leader's compare-and-set of the partition state znode, no leader epoch bump"),
        (ReplicationCause::IsrExpanded { via: IsrWrite::ZkCompareAndSet }, "the follower caught up to the leader's high watermark; the leader's compare-and-set of the partition state znode, no leader epoch bump"),
        (ReplicationCause::IsrExpanded { via: IsrWrite::AlterPartition }, "the follower caught up to the leader's high watermark; AlterPartition to the controller (KIP-497), no leader epoch bump"),
        (ReplicationCause::DuplicateDropped { producer_id: 1000, sequence: 7, first_epoch: 2 }, "enable.idempotence=true: the batch (producer id 1000, sequence 7) is already in the log, written in leader epoch 2; the leader answers with its offset and writes nothing (ProducerStateEntry.findDuplicateBatch)"),
        (ReplicationCause::DuplicateWritten, "enable.idempotence=false: the producer sent a batch again after an error although its first copy had been written; the leader cannot tell (the batch carries no producer id or sequence) and writes it twice"),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// The group coordinator's causes (`src/sim/coordinator/causes.rs`).
#[test]
fn every_coordinator_cause_renders_its_sentence() {
    let head = |walk, head_option| MapHead {
        kafka: "2.4",
        scala: "2.12",
        head_option,
        walk,
        member: "c2".into(),
        bucket: 15,
        buckets: 16,
        hash: -0x1234_5678,
        code: 0x0abc_def0,
    };
    let tp = TopicPartition::new("__consumer_offsets", 7);
    let cases = [
        (CoordinatorCause::MemberAdded, "JoinGroup: the coordinator adds the member (its id is the client id plus a random UUID)".to_string()),
        (CoordinatorCause::FirstMemberLeads, "the first member added to the group leads (GroupMetadata.add: there was no leader yet)".into()),
        (CoordinatorCause::LeaderLeft { left: "c1".into(), head: head(MapWalk::HashTable { doubled: false }, true), order: vec!["c2".into(), "c3".into()], by_join: "c3".into() }, "leader c1 left; Kafka 2.4's Scala 2.12 build takes members.keys.headOption of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top 4 bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first: c2 is in bucket 15 of 16, the highest holding a member (improved hash 0xedcba988, from String.hashCode 0x0abcdef0), so the map yields c2, c3 in that order; by join order c3 would lead".into()),
        (CoordinatorCause::LeaderLeft { left: "c1".into(), head: MapHead { buckets: 32, ..head(MapWalk::HashTable { doubled: true }, false) }, order: vec!["c2".into()], by_join: "c2".into() }, "leader c1 left; Kafka 2.4's Scala 2.12 build takes members.keys.head of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top 5 bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first (each doubling of the table reversed the order within a bucket): c2 is in bucket 15 of 32, the highest holding a member (improved hash 0xedcba988, from String.hashCode 0x0abcdef0), so the map yields c2 in that order; by join order c2 would lead".into()),
        (CoordinatorCause::LeaderLeft { left: "c1".into(), head: MapHead { kafka: "3.9", scala: "2.13", ..head(MapWalk::Scala213, true) }, order: vec!["c2".into(), "c3".into()], by_join: "c3".into() }, "leader c1 left; Kafka 3.9's Scala 2.13 build takes members.keys.headOption of its mutable.HashMap of member ids, which walks its buckets from 0 up (bucket = hash & (buckets - 1), hash = h ^ (h >>> 16) of String.hashCode h) and each bucket by ascending hash: c2 is in bucket 15 of 16 (hash 0xedcba988, from String.hashCode 0x0abcdef0), so the map yields c2, c3 in that order; by join order c3 would lead".into()),
        (CoordinatorCause::LeftCleanly, "LeaveGroup: the consumer left cleanly".into()),
        (CoordinatorCause::SessionExpired { session_timeout_ms: 10_000 }, "session expired: no heartbeat within session.timeout.ms (10000 ms)".into()),
        (CoordinatorCause::DidNotRejoin, "it did not rejoin within the rebalance timeout (max.poll.interval.ms)".into()),
        (CoordinatorCause::NoSyncInTime { rebalance_timeout_ms: 300_000 }, "no SyncGroup in time: the member had not sent SyncGroup within the rebalance timeout (max.poll.interval.ms, 300000 ms) after the join completed, so the coordinator removes it and rebalances (KAFKA-12890, 3.0)".into()),
        (CoordinatorCause::NewMemberJoinTimedOut { timeout_ms: 300_000 }, "new member's JoinGroup expired: the rebalance did not complete within NewMemberJoinTimeoutMs (300000 ms) of its joining, so the coordinator removes it and answers UNKNOWN_MEMBER_ID; the consumer joins again as a new member".into()),
        (CoordinatorCause::NoInitialDelay, "Kafka 0.10 has no initial rebalance delay (KIP-134 came in 0.11): the join completes as soon as every member has joined, here at once; a later member starts another rebalance".into()),
        (CoordinatorCause::EveryMemberRejoins, "every member must rejoin (JoinGroup) before the new generation starts; max.poll.interval.ms bounds the wait".into()),
        (CoordinatorCause::InitialDelayNewGroup { delay_ms: 3_000 }, "a brand-new group (generation 0) waits group.initial.rebalance.delay.ms (3000 ms) for more members, and another delay (up to max.poll.interval.ms in all) each time a new member arrived during the last one, then completes the join".into()),
        (CoordinatorCause::InitialDelayExtendedOnce { generation: 2, delay_ms: 3_000 }, "an emptied group (generation 2) waits group.initial.rebalance.delay.ms (3000 ms), then completes the join with the members that came; only a brand-new group's delay is extended, but the new-member flag left set by its generation-0 delay extends this one once more".into()),
        (CoordinatorCause::InitialDelayOnce { generation: 2, delay_ms: 3_000 }, "an emptied group (generation 2) waits group.initial.rebalance.delay.ms (3000 ms) once, then completes the join with the members that came: only a brand-new group (generation 0) extends the delay while members keep arriving".into()),
        (CoordinatorCause::EmptyAfterRebalance, "the rebalance completed with no members: the group is Empty, and the generation still moves on".into()),
        (CoordinatorCause::AssignmentStored { assignor: "range".into(), tp: tp.clone() }, "the leader's range assignment was written to __consumer_offsets-7 and committed; SyncGroup hands each member its part".into()),
        (CoordinatorCause::CoordinatorMoved { broker: 2, tp }, "broker 2 now leads __consumer_offsets-7, so it coordinates the group: it loads the group as stored there (same state, generation, leader and members) and gives every member a fresh session deadline, so there is no rebalance".into()),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// A consumer's causes (`src/sim/consumer/causes.rs`).
#[test]
fn every_consumer_cause_renders_its_sentence() {
    let cases = [
        (ConsumerCause::LeaveAction, "leave action: the consumer closes and sends LeaveGroup, so the coordinator need not wait for its session to expire"),
        (ConsumerCause::CrashAction, "crash_consumer action: no LeaveGroup, no more heartbeats; the coordinator notices only when session.timeout.ms passes"),
        (ConsumerCause::CoordinatorFound, "FindCoordinator: the coordinator is the leader of partition abs(hashCode(group id)) % offsets.topic.num.partitions of __consumer_offsets"),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// The producer's errors and causes (`src/sim/producer/causes.rs`).
#[test]
fn every_produce_error_renders_its_words() {
    let cases = [
        (ProduceError::NotEnoughReplicas, "acks=all and the ISR is smaller than min.insync.replicas: the leader refuses the write and appends nothing"),
        (ProduceError::NotEnoughReplicasAfterAppend, "the ISR fell below min.insync.replicas while the write waited for the followers: appended but not acknowledged"),
        (ProduceError::NotLeaderOrFollower, "the broker the producer's metadata named is no longer the leader"),
        (ProduceError::LeaderNotAvailable, "no broker knows a leader for the partition: it is offline"),
        (ProduceError::NoAnswer, "no answer within request.timeout.ms (a frozen broker, a cut link, or acks=all followers that do not catch up): the producer closed the connection and cannot know whether the records were written"),
        (ProduceError::FollowersTooSlow, "acks=all: the followers did not catch up within request.timeout.ms"),
        (ProduceError::ConnectionClosed, "the connection closed with the request in flight (the leader's process died, or request.timeout.ms passed without an answer; NETWORK_EXCEPTION names both before 3.5): the producer cannot know whether the records were written"),
        (ProduceError::NoAnswerDisconnect, "no answer within request.timeout.ms: the producer closed the connection (reported as NETWORK_EXCEPTION before 3.5, KAFKA-14317) and cannot know whether the records were written"),
        (ProduceError::LeaderDied, "the leader's process died: the connection reset with the request in flight, so the producer cannot know whether the records were written"),
        (ProduceError::DeliveryTimeout, "the batch was created delivery.timeout.ms ago and is still not acknowledged: TimeoutException (\"Expiring N record(s) ... since batch creation\")"),
        (ProduceError::BatchExpired, "the batch waited in the accumulator (no reachable leader) longer than request.timeout.ms: TimeoutException (\"Expiring N record(s)\", RecordBatch.maybeExpire before 2.1)"),
        (ProduceError::Other, "the request failed"),
    ];
    let zh = zh();
    for (error, text) in cases {
        assert_eq!(error.english(), text, "{error:?}");
        assert_chinese(&error.render(&zh), &error.english());
    }
}

#[test]
fn every_producer_cause_renders_its_sentence() {
    let cases = [
        (ProducerCause::StreamDone, "the stream's duration or record count is done".to_string()),
        (ProducerCause::Retrying { error: ProduceError::NotLeaderOrFollower, retries: 2147483647, delivery_timeout_ms: Some(120_000), backoff: RetryBackoff::Exponential { backoff_ms: 100, max_ms: 1_000 }, idempotent: true }, "the broker the producer's metadata named is no longer the leader; the producer sends it again (retries=2147483647 within delivery.timeout.ms=120000, retry.backoff.ms=100 doubling up to retry.backoff.max.ms=1000); enable.idempotence=true: a batch the leader already wrote is not written again".into()),
        (ProducerCause::Retrying { error: ProduceError::ConnectionClosed, retries: 3, delivery_timeout_ms: None, backoff: RetryBackoff::Fixed { backoff_ms: 100 }, idempotent: false }, "the connection closed with the request in flight (the leader's process died, or request.timeout.ms passed without an answer; NETWORK_EXCEPTION names both before 3.5): the producer cannot know whether the records were written; the producer sends it again (retries=3, retry.backoff.ms=100); enable.idempotence=false: a batch that was written before the error is written again".into()),
        (ProducerCause::GaveUp { error: ProduceError::Other, because: NoRetry::NotRetriable }, "the request failed".into()),
        (ProducerCause::GaveUp { error: ProduceError::NotEnoughReplicas, because: NoRetry::DeliveryTimeoutPassed { delivery_timeout_ms: 120_000 } }, "acks=all and the ISR is smaller than min.insync.replicas: the leader refuses the write and appends nothing; delivery.timeout.ms (120000) has passed since the batch was created".into()),
        (ProducerCause::GaveUp { error: ProduceError::LeaderDied, because: NoRetry::NoRetries }, "the leader's process died: the connection reset with the request in flight, so the producer cannot know whether the records were written; the producer does not retry (retries=0)".into()),
        (ProducerCause::GaveUp { error: ProduceError::FollowersTooSlow, because: NoRetry::RetriesUsedUp { retries: 3 } }, "acks=all: the followers did not catch up within request.timeout.ms; its 3 retries are used up".into()),
        (ProducerCause::ExpiredQueued { delivery_timeout_ms: 120_000 }, "the batch was created delivery.timeout.ms ago and is still not acknowledged: TimeoutException (\"Expiring N record(s) ... since batch creation\") (delivery.timeout.ms=120000)".into()),
        (ProducerCause::ExpiredInAccumulator { request_timeout_ms: 30_000 }, "the batch waited in the accumulator (no reachable leader) longer than request.timeout.ms: TimeoutException (\"Expiring N record(s)\", RecordBatch.maybeExpire before 2.1) (request.timeout.ms=30000; delivery.timeout.ms came with 2.1)".into()),
        (ProducerCause::ExpiredInFlight { delivery_timeout_ms: 120_000 }, "the batch was created delivery.timeout.ms ago and is still not acknowledged: TimeoutException (\"Expiring N record(s) ... since batch creation\") (delivery.timeout.ms=120000); its request was still unanswered".into()),
        (ProducerCause::AckedAgain { offset: 42, leader_epoch: 3 }, "the leader acknowledged a batch again (offset 42, leader epoch 3)".into()),
        (ProducerCause::SentAgainAcksZero { leader: 3 }, "acks=0: a batch went out to leader 3 again, which is all the producer learns".into()),
        (ProducerCause::OffsetsGone { leader: 2, leader_epoch: 5, acked_epoch: 4 }, "leader 2 (leader epoch 5) does not hold these offsets from leader epoch 4".into()),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

// The world's own causes (`src/sim/world/causes.rs`).
#[test]
fn every_world_cause_renders_its_sentence() {
    let cases = [
        (WorldCause::StartInOrder, "the scenario's brokers start in the listed order"),
        (WorldCause::StartAction, "start action: a new process, a new ZooKeeper session"),
        (WorldCause::CrashAction, "crash action: the process dies at once; ZooKeeper notices only when the session times out"),
        (WorldCause::CutAction, "cut action: the link drops every message, in flight or new"),
        (WorldCause::HealAction, "heal action: the link carries messages again"),
        (WorldCause::ProduceAction, "produce action: a steady stream of records"),
        (WorldCause::StopAction, "stop action"),
        (WorldCause::StallAction, "stall action: the follower stops sending fetch requests (a slow disk, a stuck thread); the leader sees it fall behind"),
        (WorldCause::ResumeAction, "resume action: the follower fetches again and catches up"),
        (WorldCause::SetConfigAction, "set_config action: a dynamic configuration change (kafka-configs --alter)"),
        (WorldCause::DeleteControllerAction, "delete_controller action: an operator deletes /controller (zookeeper-shell), the way to move the controller; the brokers' watches fire and they race again, while the old controller finishes the event it is handling first"),
        (WorldCause::MonitorCheck, "the safety monitor checks every invariant after every step"),
        (WorldCause::ReassignToolRefused(ToolRefusal::NonExistentBrokers(vec![4, 5])), "reassign action before Kafka 3.0: kafka-reassign-partitions checks the proposed replicas against the brokers registered in /brokers/ids before it writes anything, and these brokers are not registered: 4, 5"),
        (WorldCause::ReassignToolRefused(ToolRefusal::InProgress), "reassign action before Kafka 3.0: kafka-reassign-partitions starts nothing while /admin/reassign_partitions exists, that is while a reassignment is in progress; it waits for that one to complete"),
    ];
    let zh = zh();
    for (cause, text) in cases {
        assert_eq!(cause.english(), text, "{cause:?}");
        assert_chinese(&cause.render(&zh), &cause.english());
    }
}

//! Version profiles and settings.
//!
//! A profile is the Kafka release whose rules and defaults apply (each default as that release
//! ships it, each rule as its source has it). Scenario `config` overrides a profile's defaults
//! using Kafka's own setting names; the simulator's own knobs (network latency) live under the
//! `sim.` prefix.

use crate::collections::VecMap;

/// The Kafka releases the simulator can imitate. `3.9` is the default: the last release
/// that still runs on ZooKeeper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Profile {
    /// Kafka 0.10: 6 s ZooKeeper sessions, no controller fencing, no broker epochs.
    V0_10,
    /// Kafka 2.0: like 0.10 for elections; the zombie-controller split brain is still possible.
    V2_0,
    /// Kafka 2.4: controller writes fenced (2.1, KAFKA-6082), broker epochs (2.2, KIP-380), 6 s sessions.
    V2_4,
    /// Kafka 3.9: 18 s ZooKeeper sessions (2.5, KIP-537) and everything above.
    #[default]
    V3_9,
}

/// How the `reassign` action is carried to the controller in a profile (see
/// [`Profile::reassigns_through`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReassignPath {
    /// 0.10.2.2's `ReassignPartitionsCommand.parseAndValidate` checks that the partitions exist,
    /// not the brokers, and writes `/admin/reassign_partitions` unless it exists already ("There
    /// is an existing assignment running.").
    ZnodeUnchecked,
    /// 2.0.1's and 2.4.1's tool also refuses broker ids missing from `/brokers/ids` ("The
    /// proposed assignment contains non-existent brokerIDs"), then writes the znode the same way.
    ZnodeChecked,
    /// The AlterPartitionReassignments API (the only way from 3.0): the controller refuses a
    /// target whose adding replicas are not live brokers (`validateReplicas`, 3.9.0:
    /// INVALID_REPLICA_ASSIGNMENT), and a new reassignment of another partition may start while
    /// one is in progress.
    Api,
}

impl Profile {
    /// Every profile, oldest first.
    pub const ALL: [Profile; 4] = [Profile::V0_10, Profile::V2_0, Profile::V2_4, Profile::V3_9];

    /// The profile's name as scenarios spell it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::V0_10 => "0.10",
            Profile::V2_0 => "2.0",
            Profile::V2_4 => "2.4",
            Profile::V3_9 => "3.9",
        }
    }

    /// Parses a profile name such as `"2.4"`.
    pub fn parse(name: &str) -> Result<Profile, String> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown profile \"{name}\"; the profiles are {}",
                    Profile::ALL.map(|p| format!("\"{}\"", p.name())).join(", ")
                )
            })
    }

    /// Whether the controller's ZooKeeper writes carry a check of `/controller_epoch`'s
    /// zkVersion (Kafka 2.1, KAFKA-6082).
    pub fn fences_controller_writes(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether a broker becomes controller by one multi-op that creates `/controller` and
    /// increments `/controller_epoch` together (Kafka 2.1, KAFKA-6082:
    /// `KafkaZkClient.registerControllerAndIncrementControllerEpoch`). Before (0.10.2.2's
    /// `ZookeeperLeaderElector.elect`, 2.0.1's `KafkaController.elect`) it took two steps: the
    /// checked ephemeral create of `/controller`, then `onControllerFailover`'s
    /// `incrementControllerEpoch`, a conditional setData of `/controller_epoch`.
    pub fn elects_with_one_multi_op(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether a controller's unfinished ZooKeeper work survives the expiry of its session.
    /// Kafka 0.10.2 ran on the I0Itec zkclient 0.10, whose `retryUntilConnected` retries an
    /// operation that failed with SESSIONEXPIRED once the client has opened a new session, and
    /// whose new-session callback (`SessionExpirationListener.handleNewSession`) waits for the
    /// `controllerLock` the blocked operation holds: the expired controller's writes land
    /// before it resigns. From 1.1 (KAFKA-5642) Kafka's own `ZooKeeperClient` fails the
    /// requests of an expired session and `KafkaController`'s `beforeInitializingSession`
    /// holds the new session back until the `Expire` event is being handled, so an expired
    /// controller resigns without writing.
    pub fn retries_zk_work_across_sessions(self) -> bool {
        self == Profile::V0_10
    }

    /// Whether requests carry broker epochs and brokers reject stale ones (Kafka 2.2, KIP-380).
    pub fn has_broker_epochs(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether followers truncate by leader epoch (0.11, KIP-101) rather than to their high
    /// watermark.
    pub fn truncates_by_leader_epoch(self) -> bool {
        self >= Profile::V2_0
    }

    /// Whether leaders ask the controller to change the ISR with AlterPartition (2.7, KIP-497)
    /// rather than writing the partition state znode themselves.
    pub fn uses_alter_partition(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether the high watermark stays put while the ISR is smaller than
    /// `min.insync.replicas` (3.7).
    pub fn freezes_hw_under_min_isr(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether `min.insync.replicas` is capped at the replication factor (3.7,
    /// `Partition.effectiveMinIsr`): a topic of RF 2 with `min.insync.replicas` 3 acts as 2.
    pub fn caps_min_isr_at_replication_factor(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether the leader drops a follower from the ISR only when it is behind the leader's log
    /// end (2.1, KAFKA-7152, `Partition.isFollowerOutOfSync`). Before, the lag time alone decides
    /// (`Partition.getOutOfSyncReplicas` in 0.10.2 and 2.0): a follower that stops fetching
    /// leaves the ISR even when nothing is written.
    pub fn shrinks_isr_only_when_behind(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether a follower must also have reached the start offset of the leader's current
    /// epoch to rejoin the ISR (2.0.1 and 2.1, `Partition.maybeExpandIsr` checks
    /// `leaderEpochStartOffsetOpt`, KAFKA-7128; not in 2.0.0). In 0.10 the high watermark alone
    /// decides.
    pub fn expands_isr_from_epoch_start(self) -> bool {
        self >= Profile::V2_0
    }

    /// Whether turning `unclean.leader.election.enable` on broker-wide at run time makes the
    /// controller elect the offline partitions at once (`KafkaController.
    /// enableDefaultUncleanLeaderElection` → `UncleanLeaderElectionEnable`, KAFKA-6526; in 2.0.1,
    /// not in 0.10.2.2, where the new value waits for the next election).
    pub fn elects_when_unclean_enabled_broker_wide(self) -> bool {
        self >= Profile::V2_0
    }

    /// The same for a topic's own setting (`TopicUncleanLeaderElectionEnable`, 2.1, KAFKA-6835;
    /// in 2.4.1, not in 2.0.1).
    pub fn elects_when_unclean_enabled_for_topic(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether a leader takes a follower back into the ISR only if its metadata cache lists the
    /// follower's broker as alive (`Partition.isReplicaIsrEligible`, KAFKA-14140, 3.4; in ZooKeeper
    /// mode `ZkMetadataCache.hasAliveBroker`, 3.9.0).
    pub fn leader_checks_follower_is_alive(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether partition reassignment follows KIP-455 (2.4): the replica list during the move is
    /// the target followed by the original replicas not in it. Before, the controller wrote
    /// `(target ++ original).toSet.toSeq`, the iteration order of a Scala 2.11 immutable set.
    pub fn lists_reassignment_target_first(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether the automatic leader rebalance moves a partition while reassignments are in
    /// progress. Up to 3.3 `checkAndTriggerAutoLeaderRebalance` keeps only candidates for which
    /// `controllerContext.partitionsBeingReassigned.isEmpty` (2.4.1, 2.0.1; in
    /// `checkAndTriggerPartitionRebalance`, 0.10.2.2), so nothing moves while any partition is
    /// being moved; from 3.4 (KAFKA-10149) there is no such condition (3.9.0), and a partition
    /// being reassigned moves to its new preferred replica like any other.
    pub fn rebalances_during_reassignment(self) -> bool {
        self >= Profile::V3_9
    }

    /// How the `reassign` action reaches the controller, and what refuses it first. Before 2.4
    /// and in 2.4, `kafka-reassign-partitions --execute` writes `/admin/reassign_partitions`; from
    /// 3.0 the tool has only `--bootstrap-server` and the AlterPartitionReassignments API, which
    /// the controller validates (`processApiPartitionReassignment`, 3.9.0).
    pub fn reassigns_through(self) -> ReassignPath {
        match self {
            Profile::V0_10 => ReassignPath::ZnodeUnchecked,
            Profile::V2_0 | Profile::V2_4 => ReassignPath::ZnodeChecked,
            Profile::V3_9 => ReassignPath::Api,
        }
    }

    /// Whether controller failover moves replicas on dead brokers offline before electing
    /// (2.3, KAFKA-3143, `ReplicaStateMachine.startup`; 2.4 is the first profile with it).
    pub fn offlines_dead_replicas_on_failover(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether an empty group waits `group.initial.rebalance.delay.ms` before it completes its
    /// join (Kafka 0.11, KIP-134: `GroupCoordinator.prepareRebalance` makes an
    /// `InitialDelayedJoin` for an Empty group). Kafka 0.10.2.2's `prepareRebalance` makes a
    /// plain `DelayedJoin`, which completes as soon as every member has joined.
    pub fn has_initial_rebalance_delay(self) -> bool {
        self >= Profile::V2_0
    }

    /// Whether a known member's JoinGroup also updates its session and rebalance timeouts
    /// (`GroupMetadata.updateMember` sets `member.rebalanceTimeoutMs` and
    /// `member.sessionTimeoutMs`, KAFKA-14009, 3.4; 3.9.0). Before, `updateMember` (2.4.1) and
    /// `updateMemberAndRebalance` (2.0.1) replace only the protocols: the member keeps the
    /// timeouts of its first JoinGroup.
    pub fn updates_member_timeouts_on_rejoin(self) -> bool {
        self >= Profile::V3_9
    }

    /// The Scala library of the profile's recommended Kafka download, whose
    /// `mutable.HashMap` orders a group's members (and so picks the next group leader):
    /// 2.11 for 0.10.2 and 2.0 (`gradle.properties` `scalaVersion=2.11.12` at 2.0.1), 2.12
    /// for 2.4 (`2.12.10` at 2.4.1), 2.13 from 2.6 (KAFKA-9907 made 2.13 the default build;
    /// `2.13.14` at 3.9). 2.11 and 2.12 share the `HashTable` order, 2.13 has its own.
    pub fn scala_version(self) -> super::group_order::ScalaVersion {
        use super::group_order::ScalaVersion;
        match self {
            Profile::V0_10 | Profile::V2_0 => ScalaVersion::V2_11,
            Profile::V2_4 => ScalaVersion::V2_12,
            Profile::V3_9 => ScalaVersion::V2_13,
        }
    }

    /// The producer's default `acks`: 1 until 2.8, all from 3.0 (KIP-679).
    pub fn default_acks(self) -> super::topic::Acks {
        if self >= Profile::V3_9 {
            super::topic::Acks::All
        } else {
            super::topic::Acks::One
        }
    }

    /// The producer's default `retries`: 0 until 2.0 (`ProducerConfig`, 0.10.2.2 and 2.0.1);
    /// `Integer.MAX_VALUE` from 2.1 (KIP-91), where `delivery.timeout.ms` bounds the retrying.
    pub fn default_retries(self) -> u32 {
        if self >= Profile::V2_4 {
            i32::MAX as u32
        } else {
            0
        }
    }

    /// Whether the producer has `delivery.timeout.ms` (2.1, KIP-91): a batch fails once that
    /// long has passed since it was created, wherever it is (`ProducerBatch.hasReachedDeliveryTimeout`,
    /// `RecordAccumulator.expiredBatches`, `Sender.getExpiredInflightBatches`). Before, a batch
    /// still in the accumulator expired after `request.timeout.ms` (`RecordBatch.maybeExpire`
    /// in 0.10.2.2, `ProducerBatch.maybeExpire` in 2.0.1) and one in flight failed only with its
    /// request.
    pub fn has_delivery_timeout(self) -> bool {
        self >= Profile::V2_4
    }

    /// Whether the producer has `enable.idempotence` (0.11, KIP-98).
    pub fn has_idempotent_producer(self) -> bool {
        self >= Profile::V2_0
    }

    /// Whether `enable.idempotence` is on by default (3.0, KIP-679); a producer that did not
    /// set it turns it off when `acks` is not `all` or `retries` is 0
    /// (`ProducerConfig.postProcessAndValidateIdempotenceConfigs`).
    pub fn idempotence_by_default(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether a produce request that reached `request.timeout.ms` fails with REQUEST_TIMED_OUT
    /// (3.5, KAFKA-14317: `Sender.handleProduceResponse` checks `wasTimedOut`); before, the
    /// disconnect the timeout causes made it NETWORK_EXCEPTION.
    pub fn reports_client_timeouts(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether the producer's retry and metadata-refresh backoffs grow exponentially from
    /// `retry.backoff.ms` to `retry.backoff.max.ms` (1000) with 20 % jitter (3.7, KIP-580:
    /// `ExponentialBackoff` in `RecordAccumulator` and `Metadata`); before, a flat
    /// `retry.backoff.ms`.
    pub fn exponential_retry_backoff(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether a retried batch skips its backoff once the partition's leader changed (3.7,
    /// KIP-951: `ProducerBatch.hasLeaderChangedForTheOngoingRetry`), and the producer takes the
    /// new leader from a NOT_LEADER_OR_FOLLOWER answer without waiting for a metadata refresh.
    pub fn skips_backoff_on_new_leader(self) -> bool {
        self >= Profile::V3_9
    }

    /// Whether the reconnect backoff grows exponentially from `reconnect.backoff.ms` (50) to
    /// `reconnect.backoff.max.ms` (1000) with 20 % jitter (0.11, KIP-144:
    /// `ClusterConnectionStates.updateReconnectBackoff`); before, a flat 50 ms.
    pub fn exponential_reconnect_backoff(self) -> bool {
        self >= Profile::V2_0
    }

    fn default_session_timeout_ms(self) -> u64 {
        if self >= Profile::V3_9 {
            18_000
        } else {
            6_000
        }
    }
}

/// The settings a simulation runs with: a profile's defaults plus overrides.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The Kafka release whose rules apply.
    pub profile: Profile,
    /// `zookeeper.session.timeout.ms`: how long ZooKeeper waits without a heartbeat before it
    /// expires a session (6000 until 2.4, 18000 from 2.5).
    pub zookeeper_session_timeout_ms: u64,
    /// `controlled.shutdown.max.retries` (3): how many controlled shutdown attempts a broker
    /// makes in all before it stops anyway.
    pub controlled_shutdown_max_retries: u32,
    /// `controlled.shutdown.retry.backoff.ms` (5000).
    pub controlled_shutdown_retry_backoff_ms: u64,
    /// `controller.socket.timeout.ms` (30000): how long a request to or from the controller may go unanswered.
    pub controller_socket_timeout_ms: u64,
    /// `replica.lag.time.max.ms`: how long a follower may stay behind before the leader drops it
    /// from the ISR (10000 until 2.4, 30000 from 2.5).
    pub replica_lag_time_max_ms: u64,
    /// `unclean.leader.election.enable` (true until 0.10.2, false from 0.11).
    pub unclean_leader_election_enable: bool,
    /// `min.insync.replicas` (1).
    pub min_insync_replicas: u32,
    /// `auto.leader.rebalance.enable` (true).
    pub auto_leader_rebalance_enable: bool,
    /// `leader.imbalance.per.broker.percentage` (10).
    pub leader_imbalance_per_broker_percentage: u32,
    /// `leader.imbalance.check.interval.seconds` (300).
    pub leader_imbalance_check_interval_seconds: u64,
    /// `replica.fetch.wait.max.ms` (500): how long a leader holds a fetch that finds no new data.
    pub replica_fetch_wait_max_ms: u64,
    /// `replica.fetch.backoff.ms` (1000): a follower's pause after a fetch error.
    pub replica_fetch_backoff_ms: u64,
    /// `request.timeout.ms` of the producer (30000): how long it waits for an answer before it
    /// closes the connection.
    pub request_timeout_ms: u64,
    /// The producer's `retries`, when set (the default is [`Profile::default_retries`]).
    pub retries: Option<u32>,
    /// The producer's `retry.backoff.ms` (100).
    pub retry_backoff_ms: u64,
    /// The producer's `delivery.timeout.ms`, when set (2.1+; the default is 120000, raised to
    /// `request.timeout.ms` if that is larger, as `KafkaProducer.configureDeliveryTimeout` does).
    pub delivery_timeout_ms: Option<u64>,
    /// The producer's `enable.idempotence`, when set (0.11+; the default is
    /// [`Profile::idempotence_by_default`]).
    pub enable_idempotence: Option<bool>,
    /// `offsets.topic.num.partitions` (50).
    pub offsets_topic_num_partitions: u32,
    /// `offsets.topic.replication.factor` (3).
    pub offsets_topic_replication_factor: u32,
    /// `group.initial.rebalance.delay.ms` (3000 from 0.11, KIP-134; none before).
    pub group_initial_rebalance_delay_ms: u64,
    /// The consumers' `session.timeout.ms` (10000 until 2.8, 45000 from 3.0, KIP-735).
    pub consumer_session_timeout_ms: u64,
    /// The consumers' `heartbeat.interval.ms` (3000).
    pub heartbeat_interval_ms: u64,
    /// The consumers' `max.poll.interval.ms` (300000): their rebalance timeout.
    pub max_poll_interval_ms: u64,
    /// Topic-level overrides, by topic.
    pub topics: VecMap<String, super::topic::TopicConfig>,
    /// `sim.network.latency.ms`: the one-way latency of every message (simulator knob).
    pub network_latency_ms: u64,
    /// `sim.network.jitter.ms`: a seeded random extra delay of 0..=jitter on every message.
    pub network_jitter_ms: u64,
}

/// The setting names a scenario's `config` accepts, with what each means.
pub const SETTING_NAMES: [(&str, &str); 25] = [
    (
        "offsets.topic.num.partitions",
        "partitions of __consumer_offsets",
    ),
    (
        "offsets.topic.replication.factor",
        "replicas of each __consumer_offsets partition",
    ),
    (
        "group.initial.rebalance.delay.ms",
        "how long an empty group waits for more members",
    ),
    (
        "session.timeout.ms",
        "how long a consumer may go without a heartbeat",
    ),
    ("heartbeat.interval.ms", "how often a consumer heartbeats"),
    ("max.poll.interval.ms", "a consumer's rebalance timeout"),
    (
        "replica.lag.time.max.ms",
        "how long a follower may lag before it leaves the ISR",
    ),
    (
        "unclean.leader.election.enable",
        "whether a replica outside the ISR may become leader",
    ),
    (
        "min.insync.replicas",
        "ISR size below which acks=all writes are refused",
    ),
    (
        "auto.leader.rebalance.enable",
        "whether the controller moves leadership back to preferred replicas",
    ),
    (
        "leader.imbalance.per.broker.percentage",
        "imbalance a broker may have before a rebalance",
    ),
    (
        "leader.imbalance.check.interval.seconds",
        "how often the controller checks the imbalance",
    ),
    (
        "replica.fetch.wait.max.ms",
        "how long a leader holds an empty fetch",
    ),
    (
        "replica.fetch.backoff.ms",
        "a follower's pause after a fetch error",
    ),
    (
        "request.timeout.ms",
        "how long the producer waits for an answer",
    ),
    ("retries", "how often the producer resends a failed batch"),
    ("retry.backoff.ms", "the producer's pause before a retry"),
    (
        "delivery.timeout.ms",
        "how long a batch may take in all, retries included (2.1+)",
    ),
    (
        "enable.idempotence",
        "whether the leader drops batches it already has (0.11+)",
    ),
    ("zookeeper.session.timeout.ms", "ZooKeeper session timeout"),
    (
        "controlled.shutdown.max.retries",
        "controlled shutdown attempts in all",
    ),
    (
        "controlled.shutdown.retry.backoff.ms",
        "wait between controlled shutdown attempts",
    ),
    (
        "controller.socket.timeout.ms",
        "how long a controller request may go unanswered",
    ),
    (
        "sim.network.latency.ms",
        "one-way message latency (simulator)",
    ),
    (
        "sim.network.jitter.ms",
        "random extra latency per message, 0..=this (simulator)",
    ),
];

impl Settings {
    /// The defaults of `profile`.
    pub fn for_profile(profile: Profile) -> Settings {
        Settings {
            profile,
            zookeeper_session_timeout_ms: profile.default_session_timeout_ms(),
            controlled_shutdown_max_retries: 3,
            controlled_shutdown_retry_backoff_ms: 5_000,
            controller_socket_timeout_ms: 30_000,
            replica_lag_time_max_ms: if profile >= Profile::V3_9 {
                30_000
            } else {
                10_000
            },
            unclean_leader_election_enable: profile == Profile::V0_10,
            min_insync_replicas: 1,
            auto_leader_rebalance_enable: true,
            leader_imbalance_per_broker_percentage: 10,
            leader_imbalance_check_interval_seconds: 300,
            replica_fetch_wait_max_ms: 500,
            replica_fetch_backoff_ms: 1_000,
            request_timeout_ms: 30_000,
            retries: None,
            retry_backoff_ms: 100,
            delivery_timeout_ms: None,
            enable_idempotence: None,
            offsets_topic_num_partitions: 50,
            offsets_topic_replication_factor: 3,
            // KIP-134 (0.11) added the initial rebalance delay.
            group_initial_rebalance_delay_ms: if profile == Profile::V0_10 { 0 } else { 3_000 },
            consumer_session_timeout_ms: if profile >= Profile::V3_9 {
                45_000
            } else {
                10_000
            },
            heartbeat_interval_ms: 3_000,
            max_poll_interval_ms: 300_000,
            topics: VecMap::new(),
            network_latency_ms: 2,
            network_jitter_ms: 3,
        }
    }

    /// Applies one override; the error names the key and what is wrong with the value.
    pub fn set(&mut self, key: &str, value: &serde_json::Value) -> Result<(), String> {
        let as_u64 = |min: u64, max: u64| -> Result<u64, String> {
            let v = value
                .as_u64()
                .ok_or_else(|| format!("\"{key}\" must be a whole number, not {value}"))?;
            if v < min || v > max {
                return Err(format!(
                    "\"{key}\" must be between {min} and {max}, not {v}"
                ));
            }
            Ok(v)
        };
        match key {
            "zookeeper.session.timeout.ms" => {
                self.zookeeper_session_timeout_ms = as_u64(300, 600_000)?
            }
            "controlled.shutdown.max.retries" => {
                self.controlled_shutdown_max_retries = as_u64(0, 100)? as u32
            }
            "controlled.shutdown.retry.backoff.ms" => {
                self.controlled_shutdown_retry_backoff_ms = as_u64(0, 600_000)?
            }
            "controller.socket.timeout.ms" => {
                self.controller_socket_timeout_ms = as_u64(1, 600_000)?
            }
            "replica.lag.time.max.ms" => self.replica_lag_time_max_ms = as_u64(2, 3_600_000)?,
            "unclean.leader.election.enable" => {
                self.unclean_leader_election_enable = super::topic::as_bool(key, value)?
            }
            "min.insync.replicas" => self.min_insync_replicas = as_u64(1, 64)? as u32,
            "auto.leader.rebalance.enable" => {
                self.auto_leader_rebalance_enable = super::topic::as_bool(key, value)?
            }
            "leader.imbalance.per.broker.percentage" => {
                self.leader_imbalance_per_broker_percentage = as_u64(0, 100)? as u32
            }
            "leader.imbalance.check.interval.seconds" => {
                self.leader_imbalance_check_interval_seconds = as_u64(1, 86_400)?
            }
            "replica.fetch.wait.max.ms" => self.replica_fetch_wait_max_ms = as_u64(1, 60_000)?,
            "replica.fetch.backoff.ms" => self.replica_fetch_backoff_ms = as_u64(1, 60_000)?,
            "request.timeout.ms" => self.request_timeout_ms = as_u64(1, 600_000)?,
            "retries" => self.retries = Some(as_u64(0, i32::MAX as u64)? as u32),
            "retry.backoff.ms" => self.retry_backoff_ms = as_u64(0, 600_000)?,
            "delivery.timeout.ms" => {
                if !self.profile.has_delivery_timeout() {
                    return Err(format!(
                        "\"delivery.timeout.ms\" came with Kafka 2.1 (KIP-91); the {} profile's producer does not have it (a waiting batch expires after request.timeout.ms)",
                        self.profile.name()
                    ));
                }
                self.delivery_timeout_ms = Some(as_u64(1, 86_400_000)?)
            }
            "enable.idempotence" => {
                if !self.profile.has_idempotent_producer() {
                    return Err(format!(
                        "\"enable.idempotence\" came with Kafka 0.11 (KIP-98); the {} profile's producer does not have it",
                        self.profile.name()
                    ));
                }
                self.enable_idempotence = Some(super::topic::as_bool(key, value)?)
            }
            "offsets.topic.num.partitions" => {
                self.offsets_topic_num_partitions = as_u64(1, 200)? as u32
            }
            "offsets.topic.replication.factor" => {
                self.offsets_topic_replication_factor = as_u64(1, 64)? as u32
            }
            "group.initial.rebalance.delay.ms" => {
                if !self.profile.has_initial_rebalance_delay() {
                    return Err(format!(
                        "\"{key}\" came with Kafka 0.11 (KIP-134): the {} profile has no initial rebalance delay",
                        self.profile.name()
                    ));
                }
                self.group_initial_rebalance_delay_ms = as_u64(0, 600_000)?
            }
            "session.timeout.ms" => self.consumer_session_timeout_ms = as_u64(1, 3_600_000)?,
            "heartbeat.interval.ms" => self.heartbeat_interval_ms = as_u64(1, 3_600_000)?,
            "max.poll.interval.ms" => self.max_poll_interval_ms = as_u64(1, 86_400_000)?,
            "sim.network.latency.ms" => self.network_latency_ms = as_u64(1, 10_000)?,
            "sim.network.jitter.ms" => self.network_jitter_ms = as_u64(0, 10_000)?,
            _ => {
                return Err(format!(
                    "unknown setting \"{key}\"; known settings: {}",
                    SETTING_NAMES.map(|(k, _)| k).join(", ")
                ))
            }
        }
        Ok(())
    }

    /// A profile's defaults with `overrides` applied in key order.
    pub fn with_overrides(
        profile: Profile,
        overrides: &VecMap<String, serde_json::Value>,
    ) -> Result<Settings, String> {
        let mut s = Settings::for_profile(profile);
        for (k, v) in overrides {
            s.set(k, v)?;
        }
        s.check_producer()?;
        Ok(s)
    }

    /// The checks across producer settings that `KafkaProducer` makes when it is built
    /// (`configureDeliveryTimeout`): a `delivery.timeout.ms` set below `linger.ms` (0) +
    /// `request.timeout.ms` is refused.
    pub fn check_producer(&self) -> Result<(), String> {
        if let Some(d) = self.delivery_timeout_ms {
            if d < self.request_timeout_ms {
                return Err(format!(
                    "delivery.timeout.ms ({d}) should be equal to or larger than linger.ms (0) + request.timeout.ms ({})",
                    self.request_timeout_ms
                ));
            }
        }
        Ok(())
    }

    /// `delivery.timeout.ms` in force (2.1+): as set, else 120000, or `request.timeout.ms` if
    /// that is larger (`KafkaProducer.configureDeliveryTimeout`).
    pub fn delivery_timeout(&self) -> u64 {
        self.delivery_timeout_ms
            .unwrap_or_else(|| 120_000.max(self.request_timeout_ms))
    }

    /// The `acks` of a produce that does not name one: the profile's default, or `all` when
    /// `enable.idempotence` is set to true (2.0.1 `KafkaProducer.configureAcks`: "Overriding
    /// the default acks to all since idempotence is enabled").
    pub fn default_acks(&self) -> super::topic::Acks {
        if self.enable_idempotence == Some(true) {
            super::topic::Acks::All
        } else {
            self.profile.default_acks()
        }
    }

    /// The configuration of the producer client that sends with `acks`: Kafka's defaults and
    /// checks for `retries` and `enable.idempotence` (`KafkaProducer.configureRetries` and
    /// `configureAcks` in 2.0.1, `ProducerConfig.postProcessAndValidateIdempotenceConfigs` in
    /// 3.9.0). The error is Kafka's `ConfigException` message.
    pub fn producer_client(&self, acks: super::topic::Acks) -> Result<ProducerClient, String> {
        let p = self.profile;
        let user_idempotence = self.enable_idempotence;
        let mut idempotent = p.has_idempotent_producer()
            && user_idempotence.unwrap_or_else(|| p.idempotence_by_default());
        let mut retries = self.retries.unwrap_or_else(|| p.default_retries());
        if idempotent {
            if self.retries == Some(0) {
                if user_idempotence.is_some() {
                    return Err(
                        "Must set retries to non-zero when using the idempotent producer.".into(),
                    );
                }
                idempotent = false;
            } else if acks != super::topic::Acks::All {
                if user_idempotence.is_some() {
                    return Err("Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.".into());
                }
                idempotent = false;
            } else if self.retries.is_none() {
                // 2.0: "Overriding the default retries config to the recommended value of
                // 2147483647 since the idempotent producer is enabled."
                retries = i32::MAX as u32;
            }
        }
        Ok(ProducerClient {
            acks,
            retries,
            idempotent,
            request_timeout_ms: self.request_timeout_ms,
            retry_backoff_ms: self.retry_backoff_ms,
            delivery_timeout_ms: p.has_delivery_timeout().then(|| self.delivery_timeout()),
        })
    }

    /// `min.insync.replicas` of a topic (its override, else the broker default).
    pub fn topic_min_insync(&self, topic: &str) -> u32 {
        self.topics
            .get(topic)
            .and_then(|c| c.min_insync_replicas)
            .unwrap_or(self.min_insync_replicas)
    }

    /// `unclean.leader.election.enable` of a topic (its override, else the broker default).
    pub fn topic_unclean(&self, topic: &str) -> bool {
        self.topics
            .get(topic)
            .and_then(|c| c.unclean_leader_election_enable)
            .unwrap_or(self.unclean_leader_election_enable)
    }
}

/// One producer client's configuration, as `KafkaProducer` settles it. `acks` is a producer
/// setting, so each `acks` a scenario uses is its own client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProducerClient {
    /// `acks`.
    pub acks: super::topic::Acks,
    /// `retries`: how many times a failed batch is sent again.
    pub retries: u32,
    /// `enable.idempotence` in force.
    pub idempotent: bool,
    /// `request.timeout.ms`.
    pub request_timeout_ms: u64,
    /// `retry.backoff.ms`.
    pub retry_backoff_ms: u64,
    /// `delivery.timeout.ms` (none before 2.1).
    pub delivery_timeout_ms: Option<u64>,
}

/// `max.in.flight.requests.per.connection` (5, every release): requests a producer sends on
/// one connection before it waits for answers.
pub const MAX_IN_FLIGHT_PER_CONNECTION: usize = 5;

/// `retry.backoff.max.ms` (1000, 3.7+, KIP-580).
pub const RETRY_BACKOFF_MAX_MS: u64 = 1_000;

/// `reconnect.backoff.ms` (50) and `reconnect.backoff.max.ms` (1000, 0.11+, KIP-144).
pub const RECONNECT_BACKOFF_MS: (u64, u64) = (50, 1_000);

/// `metadata.max.age.ms` (300000): the producer refreshes its metadata at least this often.
pub const METADATA_MAX_AGE_MS: u64 = 300_000;

impl Default for Settings {
    fn default() -> Self {
        Settings::for_profile(Profile::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_timeout_follows_the_profile() {
        assert_eq!(
            Settings::for_profile(Profile::V0_10).zookeeper_session_timeout_ms,
            6_000
        );
        assert_eq!(
            Settings::for_profile(Profile::V2_4).zookeeper_session_timeout_ms,
            6_000
        );
        assert_eq!(
            Settings::for_profile(Profile::V3_9).zookeeper_session_timeout_ms,
            18_000
        );
    }

    #[test]
    fn fencing_and_broker_epochs_arrive_with_their_releases() {
        assert!(!Profile::V2_0.fences_controller_writes());
        assert!(!Profile::V0_10.elects_with_one_multi_op());
        assert!(Profile::V0_10.retries_zk_work_across_sessions());
        assert!(!Profile::V2_0.retries_zk_work_across_sessions());
        assert!(!Profile::V2_0.elects_with_one_multi_op());
        assert!(Profile::V2_4.elects_with_one_multi_op());
        assert!(Profile::V2_4.fences_controller_writes());
        assert!(!Profile::V0_10.has_broker_epochs());
        assert!(Profile::V3_9.has_broker_epochs());
    }

    #[test]
    fn overrides_are_checked() {
        let mut s = Settings::default();
        assert!(s
            .set("zookeeper.session.timeout.ms", &serde_json::json!(6000))
            .is_ok());
        assert_eq!(s.zookeeper_session_timeout_ms, 6000);
        let e = s
            .set("zookeeper.session.timeout", &serde_json::json!(6000))
            .unwrap_err();
        assert!(e.contains("unknown setting"), "{e}");
        let e = s
            .set("zookeeper.session.timeout.ms", &serde_json::json!("x"))
            .unwrap_err();
        assert!(e.contains("whole number"), "{e}");
        let e = s
            .set("zookeeper.session.timeout.ms", &serde_json::json!(1))
            .unwrap_err();
        assert!(e.contains("between"), "{e}");
        assert_eq!(s.zookeeper_session_timeout_ms, 6000);
    }

    #[test]
    fn the_initial_rebalance_delay_arrives_with_0_11() {
        assert!(!Profile::V0_10.has_initial_rebalance_delay());
        assert!(Profile::V2_0.has_initial_rebalance_delay());
        assert!(Profile::V3_9.has_initial_rebalance_delay());
        let mut s = Settings::for_profile(Profile::V0_10);
        let e = s
            .set("group.initial.rebalance.delay.ms", &serde_json::json!(3000))
            .unwrap_err();
        assert_eq!(
            e,
            "\"group.initial.rebalance.delay.ms\" came with Kafka 0.11 (KIP-134): the 0.10 profile has no initial rebalance delay"
        );
        assert_eq!(s.group_initial_rebalance_delay_ms, 0);
        let mut s = Settings::for_profile(Profile::V2_4);
        s.set("group.initial.rebalance.delay.ms", &serde_json::json!(100))
            .unwrap();
        assert_eq!(s.group_initial_rebalance_delay_ms, 100);
    }

    #[test]
    fn scala_versions_follow_the_recommended_builds() {
        use crate::sim::group_order::ScalaVersion;
        let names: Vec<&str> = Profile::ALL.map(|p| p.scala_version().name()).to_vec();
        assert_eq!(names, ["2.11", "2.11", "2.12", "2.13"]);
        assert_eq!(Profile::V3_9.scala_version(), ScalaVersion::V2_13);
    }

    #[test]
    fn profile_names_round_trip() {
        for p in Profile::ALL {
            assert_eq!(Profile::parse(p.name()), Ok(p));
        }
        assert!(Profile::parse("1.0").unwrap_err().contains("\"3.9\""));
    }
}

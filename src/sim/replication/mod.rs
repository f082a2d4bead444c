//! The broker side of replication: each replica's log, the leader's view of its followers,
//! follower fetching, the high watermark, ISR shrink and expand, produce with acks, and
//! truncation after a leader change.
//!
//! Sources: `kafka.cluster.Partition` (`makeLeader`, `makeFollower`, `maybeShrinkIsr`,
//! `maybeExpandIsr`, `maybeIncrementLeaderHW`, `appendRecordsToLeader`),
//! `kafka.server.ReplicaManager` (`becomeLeaderOrFollower`, the ISR-expiration task every
//! `replica.lag.time.max.ms` / 2), `ReplicaFetcherThread` (truncation to the high watermark
//! before 0.11, by leader epoch from 0.11, KIP-101/KIP-279), `DelayedFetch`
//! (`replica.fetch.wait.max.ms`), `DelayedProduce` (acks=all) and `AlterPartitionManager`
//! (KIP-497, 2.7+; before it the leader writes the partition state znode itself by
//! compare-and-set and leaves an `/isr_change_notification`).

use super::config::Settings;
use super::coordinator::{Coordinator, CoordinatorState, OffsetsLogs};
use super::log::{Log, Payload};
use super::message::{FetchPartition, OpResult, Out, PartitionInfo, Timer, ZkError};
use super::net::{BrokerId, Endpoint};
use super::topic::TopicPartition;
use super::zk_client::ZkClient;
use crate::collections::VecMap;
pub use timers::{ReplicaPending, ReplicaTimer};

/// `replica.socket.timeout.ms`: how long a follower waits for a fetch answer.
pub const REPLICA_SOCKET_TIMEOUT_MS: u64 = 30_000;

/// One replica of one partition on one broker.
#[derive(Debug, Clone, Default)]
pub struct Replica {
    /// The log, kept on disk: it survives crashes and restarts.
    pub log: Log,
    /// What the broker process knows of the partition (memory; gone with the process).
    pub state: Option<ReplicaState>,
}

/// The group coordinator's view of the broker's replicas: leadership of an offsets partition,
/// its log, and the append of a group record in the leader epoch the broker knows.
impl OffsetsLogs for VecMap<TopicPartition, Replica> {
    fn leads(&self, tp: &TopicPartition) -> bool {
        self.get(tp)
            .and_then(|r| r.state.as_ref())
            .is_some_and(|s| matches!(s.role, Role::Leader(_)))
    }

    fn log(&self, tp: &TopicPartition) -> Option<&Log> {
        self.get(tp).map(|r| &r.log)
    }

    fn append(&mut self, tp: &TopicPartition, payload: Payload) -> Option<u64> {
        let r = self.get_mut(tp)?;
        let epoch = r.state.as_ref()?.leader_epoch;
        Some(r.log.append_payload(epoch, payload))
    }
}

/// A replica's in-memory state, from the last LeaderAndIsr it accepted.
#[derive(Debug, Clone)]
pub struct ReplicaState {
    /// The leader, `None` while the partition has none.
    pub leader: Option<BrokerId>,
    /// The leader epoch.
    pub leader_epoch: u64,
    /// The ISR as this broker knows it (the leader's is authoritative).
    pub isr: Vec<BrokerId>,
    /// The assignment.
    pub replicas: Vec<BrokerId>,
    /// The zkVersion of the partition state znode (the partition epoch).
    pub zk_version: i32,
    /// The controller epoch of the request that set this state.
    pub controller_epoch: u64,
    /// Leader or follower.
    pub role: Role,
}

/// What a replica does.
#[derive(Debug, Clone)]
pub enum Role {
    /// Leads: tracks its followers.
    Leader(LeaderState),
    /// Follows `leader`.
    Follower {
        /// The follower must first find where its log diverges from the new leader's.
        check_divergence: bool,
    },
}

/// The leader's view of one follower (`kafka.cluster.Replica`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// The follower's log end offset, from its last fetch (0 until it fetches).
    pub leo: u64,
    /// The last time the follower was caught up.
    pub last_caught_up_ms: u64,
    /// When the last fetch arrived, and the leader's log end then.
    pub last_fetch_ms: u64,
    /// The leader's log end offset at the last fetch.
    pub last_fetch_leader_leo: u64,
}

/// A leader's state.
#[derive(Debug, Clone, Default)]
pub struct LeaderState {
    /// Each follower's progress.
    pub followers: VecMap<BrokerId, Progress>,
    /// The log end offset when this leader epoch began.
    pub epoch_start_offset: u64,
    /// An ISR change sent and not yet confirmed.
    pub pending_isr: Option<Vec<BrokerId>>,
    /// The pending change was refused because this leader's partition state is out of date
    /// (FENCED_LEADER_EPOCH, INVALID_UPDATE_VERSION): no ISR change until the controller's next
    /// LeaderAndIsr brings the current state (`Partition.handleAlterPartitionError`, 3.9).
    pub isr_blocked: bool,
    /// The last error an ISR change met (reported once until a change succeeds).
    pub isr_error: Option<String>,
}

/// An acks=all produce waiting for the high watermark (`DelayedProduce`).
#[derive(Debug, Clone)]
pub struct WaitingProduce {
    /// The partition.
    pub tp: TopicPartition,
    /// One past the last offset appended.
    pub end: u64,
    /// Base offset and leader epoch of the append.
    pub base: (u64, u64),
    /// Who asked.
    pub from: Endpoint,
}

/// A follower's fetcher for one leader.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fetcher {
    /// The fetch in flight, by correlation id.
    pub in_flight: Option<u64>,
    /// Backing off after an error.
    pub backing_off: bool,
}

/// A stalled fetcher rule: all partitions, one topic, or one partition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stall {
    /// The topic, or every topic.
    pub topic: Option<String>,
    /// The partition, or every partition of the topic.
    pub partition: Option<u32>,
}

impl Stall {
    fn covers(&self, tp: &TopicPartition) -> bool {
        self.topic.as_ref().is_none_or(|t| *t == tp.topic)
            && self.partition.is_none_or(|p| p == tp.partition)
    }
}

/// From when the leader counts a follower in its ISR out of sync (the ISR-expiration check
/// drops it at its first run from then on), or `None` while it cannot be: once it has not caught
/// up for longer than `replica.lag.time.max.ms` (`now - lastCaughtUpTime > lag`); from 2.1 only
/// while it is also behind the leader's log end `leader_leo`, so an idle partition keeps a
/// stalled follower (`Partition.isFollowerOutOfSync`, 2.4.1 and 3.9.0;
/// `Partition.getOutOfSyncReplicas`, 2.0.1 and 0.10.2.2). An ISR member the leader has no
/// progress for (not an assigned replica any more) is out of sync at once (3.9.0:
/// `getReplica(..).fold(true)`).
pub(crate) fn out_of_sync_from(
    progress: Option<&Progress>,
    leader_leo: u64,
    settings: &Settings,
) -> Option<u64> {
    match progress {
        None => Some(0),
        Some(p) if settings.profile.shrinks_isr_only_when_behind() && p.leo == leader_leo => None,
        Some(p) => Some(p.last_caught_up_ms + settings.replica_lag_time_max_ms + 1),
    }
}

/// The leader's view of its followers after a LeaderAndIsr that makes or keeps it leader
/// (`Partition.makeLeader` and `Replica.resetReplicaState`, 3.9.0; `Partition.makeLeader` with
/// `resetLastCaughtUpTime`, 2.0.1 and 0.10.2.2).
///
/// The followers are the request's replicas: one removed by the controller (a reassignment) is
/// forgotten, so it can never rejoin the ISR; one added starts unknown. A broker that *newly*
/// becomes leader knows nothing of its followers' logs. A leader that stays leader through a
/// leader-epoch bump keeps each follower's log end offset. Either way a follower in the ISR
/// counts as caught up now, one outside it as never.
pub(super) fn leader_followers(
    me: BrokerId,
    info: &PartitionInfo,
    kept: Option<VecMap<BrokerId, Progress>>,
    leader_leo: u64,
    now: u64,
) -> VecMap<BrokerId, Progress> {
    info.replicas
        .iter()
        .filter(|r| **r != me)
        .map(|r| {
            let in_sync = info.isr.contains(r);
            let caught_up = if in_sync { now } else { 0 };
            let progress = match kept.as_ref().and_then(|k| k.get(r)) {
                Some(old) => Progress {
                    leo: old.leo,
                    last_caught_up_ms: caught_up,
                    last_fetch_ms: caught_up,
                    last_fetch_leader_leo: leader_leo,
                },
                None => Progress {
                    leo: 0,
                    last_caught_up_ms: caught_up,
                    last_fetch_ms: 0,
                    last_fetch_leader_leo: 0,
                },
            };
            (*r, progress)
        })
        .collect()
}

/// The replica manager at work (`kafka.server.ReplicaManager` and the partitions it holds): it
/// borrows the broker's replicas, fetchers and waiting requests, reads what the broker knows
/// of itself and its controller, writes ISR changes through the ZooKeeper client (before 2.7),
/// and hands the group coordinator what concerns it (an offsets partition gained or lost, a
/// high watermark that commits a group record).
pub(crate) struct ReplicaManager<'a> {
    /// The broker's id.
    pub(crate) id: BrokerId,
    /// Whether the broker's fetcher threads run (the process is running or shutting down).
    pub(crate) fetching: bool,
    /// The broker epoch of its registration (KIP-380), sent with AlterPartition.
    pub(crate) broker_epoch: Option<i64>,
    /// The controller of the latest accepted metadata.
    pub(crate) metadata_controller: Option<BrokerId>,
    /// The live brokers of the latest accepted metadata.
    pub(crate) metadata_live: &'a [BrokerId],
    /// The partition states of the latest accepted UpdateMetadata (the group coordinator reads
    /// them).
    pub(crate) metadata_partitions: &'a VecMap<TopicPartition, PartitionInfo>,
    /// Replicas by partition.
    pub(crate) replicas: &'a mut VecMap<TopicPartition, Replica>,
    /// Follower fetchers by leader.
    pub(crate) fetchers: &'a mut VecMap<BrokerId, Fetcher>,
    /// Stalled fetchers (a stall action).
    pub(crate) stalls: &'a [Stall],
    /// Fetches held for lack of data, by follower.
    pub(crate) delayed_fetches: &'a mut VecMap<BrokerId, (u64, Vec<FetchPartition>)>,
    /// acks=all produces waiting for the high watermark, by request id.
    pub(crate) waiting_produce: &'a mut VecMap<u64, WaitingProduce>,
    /// The next fetch's correlation id.
    pub(crate) next_fetch: &'a mut u64,
    /// How many `/isr_change_notification` znodes it wrote.
    pub(crate) isr_notifications: &'a mut u64,
    /// The ZooKeeper client (ISR writes before 2.7).
    pub(crate) zk: &'a mut ZkClient,
    /// The group coordinator's state, for what the replicas tell it.
    pub(crate) coordinator: &'a mut CoordinatorState,
}

impl ReplicaManager<'_> {
    fn me(&self) -> Endpoint {
        Endpoint::Broker(self.id)
    }

    /// Hands the group coordinator an input, then completes the appends it made.
    #[inline(never)]
    pub(crate) fn with_coordinator(
        &mut self,
        now: u64,
        settings: &Settings,
        out: &mut Out,
        input: impl FnOnce(&mut Coordinator<'_>),
    ) {
        let mut c = Coordinator::new(
            self.id,
            now,
            settings,
            self.coordinator,
            self.replicas,
            self.metadata_partitions,
            out,
        );
        input(&mut c);
        for tp in c.into_appended() {
            self.after_append(now, &tp, settings, out);
        }
    }
}

impl ReplicaManager<'_> {
    /// The `min.insync.replicas` the leader of `tp` enforces: the topic's setting, capped at the
    /// partition's replica count from 3.7 (`Partition.effectiveMinIsr`, 3.7.0 and 3.9.0: "the
    /// effective min ISR of min(replication factor, min ISR)"); before 3.7 the setting as it is,
    /// so a topic of RF 2 with `min.insync.replicas` 3 refuses every acks=all write
    /// (`Partition.appendRecordsToLeader`, 2.4.1).
    pub(super) fn min_insync(&self, settings: &Settings, tp: &TopicPartition) -> usize {
        let configured = settings.topic_min_insync(&tp.topic) as usize;
        let replicas = self
            .replicas
            .get(tp)
            .and_then(|r| r.state.as_ref())
            .map(|s| s.replicas.len());
        match replicas {
            Some(n) if settings.profile.caps_min_isr_at_replication_factor() => configured.min(n),
            _ => configured,
        }
    }

    /// One of the replica manager's timers fired.
    pub(crate) fn on_timer(
        &mut self,
        now: u64,
        timer: ReplicaTimer,
        settings: &Settings,
        out: &mut Out,
    ) {
        match timer {
            ReplicaTimer::IsrExpiration => self.on_isr_expiration(now, settings, out),
            ReplicaTimer::DelayedFetch {
                follower,
                correlation_id,
            } => self.on_delayed_fetch(follower, correlation_id, settings, out),
            ReplicaTimer::FetchTimeout {
                leader,
                correlation_id,
            } => self.on_fetch_timeout(now, leader, correlation_id, out),
            ReplicaTimer::FetchBackoff { leader } => self.on_fetch_backoff(now, leader, out),
            ReplicaTimer::ProduceTimeout { request } => self.on_produce_timeout(request, out),
        }
    }

    /// The answer to one of its ZooKeeper requests.
    pub(crate) fn on_zk_response(
        &mut self,
        now: u64,
        purpose: ReplicaPending,
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        match purpose {
            ReplicaPending::WriteIsr {
                tp,
                isr,
                leader_epoch,
            } => self.on_isr_update_result(now, (tp, isr, leader_epoch), result, settings, out),
            ReplicaPending::CheckIsrWrite {
                tp,
                isr,
                leader_epoch,
            } => self.on_isr_update_check(now, (tp, isr, leader_epoch), result, settings, out),
            ReplicaPending::NotifyIsrChange => {}
        }
    }

    /// Starts the periodic ISR-expiration check of a fresh process.
    pub(crate) fn start_replica_manager(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        out.timer(
            now + (settings.replica_lag_time_max_ms / 2).max(1),
            self.me(),
            Timer::Replica(ReplicaTimer::IsrExpiration),
        );
    }
}

pub mod causes;
mod follower;
mod isr;
mod leader;
mod leader_and_isr;
mod produce;
pub(crate) mod timers;

#[cfg(test)]
mod isr_test;
#[cfg(test)]
mod tests;

//! A Kafka broker process in ZooKeeper mode, as a router of its parts: its lifecycle (start,
//! crash, pause, resume) here; its ZooKeeper session and registration (`session.rs`; the
//! client itself is [`super::zk_client`]); the requests of the controller and their epoch
//! checks (`metadata.rs`); controlled shutdown (`shutdown.rs`); and `router.rs`, which hands
//! each message and timer to its part: the replica manager ([`super::replication`]), the
//! controller role ([`super::controller`]) or the group coordinator ([`super::coordinator`]).
//!
//! Sources: `kafka.server.KafkaServer` (`startup`, `controlledShutdown`),
//! `kafka.zk.KafkaZkClient.registerBroker` (the czxid of `/brokers/ids/N` is the broker epoch,
//! KIP-380) and `ReplicaManager.maybeUpdateMetadataCache` (stale controller epochs are rejected
//! with STALE_CONTROLLER_EPOCH).

pub mod causes;

use self::causes::BrokerCause;
use super::config::Settings;
use super::controller::ControllerRole;
use super::coordinator::{Coordinator, CoordinatorState};
use super::event::EventKind;
use super::message::{FetchPartition, PartitionInfo};
use super::message::{Out, Timer, ZkOp};
use super::net::{BrokerId, Endpoint};
use super::replication::{Fetcher, Replica, ReplicaManager, Stall, WaitingProduce};
use super::topic::TopicPartition;
use super::world::causes::WorldCause;
pub use super::zk_client::{Pending, ZkClient};
use crate::collections::VecMap;

/// Where a broker process is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum BrokerStatus {
    /// Listed in the scenario, not started yet.
    NotStarted,
    /// Up and running.
    Running,
    /// Frozen (a long GC pause) from `since_ms` until `until_ms`.
    Paused { since_ms: u64, until_ms: u64 },
    /// Waiting for the controller to complete its controlled shutdown.
    ShuttingDown,
    /// Killed without a goodbye.
    Crashed,
    /// Stopped after a (controlled or failed) shutdown.
    Stopped,
}

impl BrokerStatus {
    /// The name used in state output and on the page.
    pub fn name(self) -> &'static str {
        match self {
            BrokerStatus::NotStarted => "not_started",
            BrokerStatus::Running => "running",
            BrokerStatus::Paused { .. } => "paused",
            BrokerStatus::ShuttingDown => "shutting_down",
            BrokerStatus::Crashed => "crashed",
            BrokerStatus::Stopped => "stopped",
        }
    }

    /// Whether the process exists (running, frozen or shutting down).
    pub fn is_alive(self) -> bool {
        matches!(
            self,
            BrokerStatus::Running | BrokerStatus::Paused { .. } | BrokerStatus::ShuttingDown
        )
    }
}

/// One broker.
#[derive(Debug, Clone)]
pub struct Broker {
    /// `broker.id`.
    pub id: BrokerId,
    /// Lifecycle state.
    pub status: BrokerStatus,
    /// Bumped at every start and crash: timers of an older incarnation are void.
    pub incarnation: u64,
    /// The ZooKeeper client.
    pub zk: ZkClient,
    /// The czxid of its current registration, as the broker knows it.
    pub broker_epoch: Option<i64>,
    /// The last broker epoch it had, kept after a crash for display.
    pub last_broker_epoch: Option<i64>,
    /// Whether it believes `/brokers/ids/N` is its own and alive.
    pub registered: bool,
    /// The controller named by `/controller` when it last read it.
    pub active_controller: Option<BrokerId>,
    /// The newest controller epoch seen in a controller request.
    pub metadata_epoch: u64,
    /// The controller that sent that request.
    pub metadata_controller: Option<BrokerId>,
    /// Brokers alive according to the latest accepted metadata.
    pub metadata_live: Vec<BrokerId>,
    /// Present while this broker acts as controller.
    pub controller: Option<ControllerRole>,
    /// Controlled shutdown attempt under way (1-based), if shutting down.
    pub shutdown_attempt: u32,
    /// Whether this start is the process's first registration (startup), not a re-registration.
    starting_up: bool,
    /// Replicas by partition: logs on disk, state in memory.
    pub replicas: VecMap<TopicPartition, Replica>,
    /// Partition states from the latest accepted UpdateMetadata (the metadata cache).
    pub metadata_partitions: VecMap<TopicPartition, PartitionInfo>,
    /// Follower fetchers by leader.
    pub fetchers: VecMap<BrokerId, Fetcher>,
    /// Stalled fetchers (a stall action).
    pub stalls: Vec<Stall>,
    /// Fetches a leader holds for lack of data, by follower: (correlation id, partitions).
    pub delayed_fetches: VecMap<BrokerId, (u64, Vec<FetchPartition>)>,
    /// acks=all produces waiting for the high watermark, by request id.
    pub waiting_produce: VecMap<u64, WaitingProduce>,
    pub(crate) next_fetch: u64,
    pub(crate) isr_notifications: u64,
    /// Controller writes to replay on the next session (0.10's zkclient).
    pub(crate) zk_replay: Vec<(ZkOp, Pending)>,
    /// The group coordinator's groups, timers and pending writes.
    pub coordinator: CoordinatorState,
}

mod metadata;
mod router;
mod session;
mod shutdown;

impl Broker {
    /// A broker that has not started.
    pub fn new(id: BrokerId) -> Self {
        Broker {
            id,
            status: BrokerStatus::NotStarted,
            incarnation: 0,
            zk: ZkClient::new(id),
            broker_epoch: None,
            last_broker_epoch: None,
            registered: false,
            active_controller: None,
            metadata_epoch: 0,
            metadata_controller: None,
            metadata_live: Vec::new(),
            controller: None,
            shutdown_attempt: 0,
            starting_up: false,
            replicas: VecMap::new(),
            metadata_partitions: VecMap::new(),
            fetchers: VecMap::new(),
            stalls: Vec::new(),
            delayed_fetches: VecMap::new(),
            waiting_produce: VecMap::new(),
            next_fetch: 1,
            isr_notifications: 0,
            zk_replay: Vec::new(),
            coordinator: Default::default(),
        }
    }

    pub(crate) fn me(&self) -> Endpoint {
        Endpoint::Broker(self.id)
    }

    /// Hands one input to the group coordinator, which borrows its own state, the replicas and
    /// the metadata cache; a group record it appended then goes through the replica manager.
    /// The replica manager, borrowing the broker's replicas, fetchers and waiting requests.
    pub(crate) fn replica_manager(&mut self) -> ReplicaManager<'_> {
        ReplicaManager {
            id: self.id,
            fetching: matches!(
                self.status,
                BrokerStatus::Running | BrokerStatus::ShuttingDown
            ),
            broker_epoch: self.broker_epoch,
            metadata_controller: self.metadata_controller,
            metadata_live: &self.metadata_live,
            metadata_partitions: &self.metadata_partitions,
            replicas: &mut self.replicas,
            fetchers: &mut self.fetchers,
            stalls: &self.stalls,
            delayed_fetches: &mut self.delayed_fetches,
            waiting_produce: &mut self.waiting_produce,
            next_fetch: &mut self.next_fetch,
            isr_notifications: &mut self.isr_notifications,
            zk: &mut self.zk,
            coordinator: &mut self.coordinator,
        }
    }

    #[inline(never)]
    pub(crate) fn with_coordinator(
        &mut self,
        now: u64,
        settings: &Settings,
        out: &mut Out,
        input: impl FnOnce(&mut Coordinator<'_>),
    ) {
        // The replica manager holds what the coordinator borrows, and completes its appends.
        self.replica_manager()
            .with_coordinator(now, settings, out, input);
    }

    /// Forgets everything a process keeps in memory (a crash, or a fresh start).
    fn reset_memory(&mut self) {
        self.zk = ZkClient::new(self.id);
        self.broker_epoch = None;
        self.registered = false;
        self.active_controller = None;
        self.metadata_epoch = 0;
        self.metadata_controller = None;
        self.metadata_live.clear();
        self.controller = None;
        self.shutdown_attempt = 0;
        // The logs stay on disk; what the process knew of them goes.
        for r in self.replicas.values_mut() {
            r.state = None;
        }
        self.metadata_partitions.clear();
        self.fetchers.clear();
        self.stalls.clear();
        self.delayed_fetches.clear();
        self.waiting_produce.clear();
        self.zk_replay.clear();
        self.coordinator = Default::default();
    }

    /// The process is gone (crashed or stopped): its memory and timers with it; the last
    /// broker epoch is kept for display.
    fn end_process(&mut self, status: BrokerStatus) {
        let epoch = self.broker_epoch.or(self.last_broker_epoch);
        self.reset_memory();
        self.last_broker_epoch = epoch;
        self.incarnation += 1;
        self.status = status;
    }

    /// Starts the process: a new ZooKeeper session, then registration, then `elect()`.
    pub fn start(&mut self, now: u64, settings: &Settings, cause: WorldCause, out: &mut Out) {
        self.reset_memory();
        self.incarnation += 1;
        self.status = BrokerStatus::Running;
        self.starting_up = true;
        out.event(EventKind::BrokerStarted { broker: self.id }, cause);
        self.replica_manager()
            .start_replica_manager(now, settings, out);
        self.zk
            .connect(now, settings.zookeeper_session_timeout_ms, out);
    }

    /// Kills the process. Its ZooKeeper session lives on at the server until it times out.
    pub fn crash(&mut self, cause: WorldCause, out: &mut Out) {
        self.end_process(BrokerStatus::Crashed);
        out.event(EventKind::BrokerCrashed { broker: self.id }, cause);
    }

    /// Freezes the process until `until_ms`.
    pub fn pause(&mut self, now: u64, until_ms: u64, out: &mut Out) {
        self.status = BrokerStatus::Paused {
            since_ms: now,
            until_ms,
        };
        out.timer(until_ms, self.me(), Timer::Resume);
        out.event(
            EventKind::BrokerPaused {
                broker: self.id,
                until_ms,
            },
            BrokerCause::Paused,
        );
    }

    /// The process carries on where it froze; its fetcher threads pick up what changed
    /// meanwhile (a fetch resumed while it was frozen, say).
    pub fn resume(&mut self, now: u64, out: &mut Out) {
        self.status = if self.shutdown_attempt > 0 {
            BrokerStatus::ShuttingDown
        } else {
            BrokerStatus::Running
        };
        out.event(
            EventKind::BrokerResumed { broker: self.id },
            BrokerCause::Resumed,
        );
        self.replica_manager().kick_fetchers(now, out);
    }
}

#[cfg(test)]
pub(crate) mod tests;

//! A Kafka broker process in ZooKeeper mode: its ZooKeeper session (the client itself is
//! [`super::zk_client`]; expiry is handled here), its registration under `/brokers/ids`, the metadata it learns
//! from the controller, and its lifecycle (start, crash, pause, controlled shutdown).
//!
//! Sources: `kafka.zookeeper.ZooKeeperClient`, `kafka.zk.KafkaZkClient.registerBroker`
//! (the czxid of `/brokers/ids/N` is the broker epoch, KIP-380), `KafkaServer.startup` /
//! `controlledShutdown`, and `ReplicaManager.maybeUpdateMetadataCache` (stale controller
//! epochs are rejected with STALE_CONTROLLER_EPOCH). The controller role of a broker is in
//! [`super::controller`].

pub mod causes;

use self::causes::{BrokerCause, ShutdownFailure, ShutdownNext};
use super::config::Settings;
use super::controller::{ControllerPending, ControllerRole};
use super::coordinator::{Coordinator, CoordinatorState};
use super::event::EventKind;
use super::message::{Body, KafkaError, OpResult, Out, SessionId, Timer, ZkError, ZkOp};
use super::message::{FetchPartition, PartitionInfo};
use super::net::{BrokerId, Endpoint};
use super::replication::{Fetcher, Replica, ReplicaManager, Stall, WaitingProduce};
use super::topic::TopicPartition;
use super::world::causes::WorldCause;
use super::zk_client::causes::ZkClientCause;
use super::zk_client::SessionStart;
pub use super::zk_client::{
    Pending, ZkClient, ZkState, ZK_MAX_SEND_PING_INTERVAL_MS, ZK_RECONNECT_BACKOFF_MS,
};
use std::collections::BTreeMap;

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
    pub replicas: BTreeMap<TopicPartition, Replica>,
    /// Partition states from the latest accepted UpdateMetadata (the metadata cache).
    pub metadata_partitions: BTreeMap<TopicPartition, PartitionInfo>,
    /// Follower fetchers by leader.
    pub fetchers: BTreeMap<BrokerId, Fetcher>,
    /// Stalled fetchers (a stall action).
    pub stalls: Vec<Stall>,
    /// Fetches a leader holds for lack of data, by follower: (correlation id, partitions).
    pub delayed_fetches: BTreeMap<BrokerId, (u64, Vec<FetchPartition>)>,
    /// acks=all produces waiting for the high watermark, by request id.
    pub waiting_produce: BTreeMap<u64, WaitingProduce>,
    pub(crate) next_fetch: u64,
    pub(crate) isr_notifications: u64,
    /// Controller writes to replay on the next session (0.10's zkclient).
    pub(crate) zk_replay: Vec<(ZkOp, Pending)>,
    /// The group coordinator's groups, timers and pending writes.
    pub coordinator: CoordinatorState,
}

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
            replicas: BTreeMap::new(),
            metadata_partitions: BTreeMap::new(),
            fetchers: BTreeMap::new(),
            stalls: Vec::new(),
            delayed_fetches: BTreeMap::new(),
            waiting_produce: BTreeMap::new(),
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
            &mut self.coordinator,
            &mut self.replicas,
            &self.metadata_partitions,
            out,
        );
        input(&mut c);
        for tp in c.into_appended() {
            self.replica_manager().after_append(now, &tp, settings, out);
        }
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

    // ----- ZooKeeper session and registration -----

    /// Sends a ZooKeeper request through the broker's client (now, or when the connection is
    /// back).
    pub(crate) fn zk_request(&mut self, now: u64, op: ZkOp, purpose: Pending, out: &mut Out) {
        self.zk.request(now, op, purpose, out);
    }

    /// The server opened or resumed a session: on a new one, the broker replays what its
    /// controller had left unfinished (0.10) and registers again.
    fn on_connected(&mut self, now: u64, connected: (SessionId, u64, bool), out: &mut Out) {
        if self.zk.on_connected(now, connected, out) == Some(SessionStart::New) {
            // New session: register (KafkaZkClient.registerBroker), then elect.
            for (op, purpose) in std::mem::take(&mut self.zk_replay) {
                self.zk.request(now, op, purpose, out);
            }
            self.register(now, out);
            self.zk.flush_queued(now, out);
        }
    }

    /// The client learns its session is gone: resign if controller, then a new session,
    /// re-registration and `elect()` (ZooKeeperClient's Expired state, then Kafka's
    /// `RegisterBrokerAndReelect`).
    fn on_expired(&mut self, now: u64, session: SessionId, settings: &Settings, out: &mut Out) {
        if self.zk.session != Some(session) {
            return;
        }
        out.event(
            EventKind::SessionExpiryNoticed {
                broker: self.id,
                session,
            },
            ZkClientCause::ServerSaysExpired,
        );
        // 0.10 (the I0Itec zkclient) re-creates the session and retries the controller's
        // unfinished ZooKeeper work on it before the controller handles the expiry. From 1.1
        // (Kafka's ZooKeeperClient) those requests fail with the session, and the Expire event
        // resigns the controller before the new session is made.
        let replay: Vec<(ZkOp, Pending)> = if self.controller.is_some()
            && settings.profile.retries_zk_work_across_sessions()
        {
            let mut ops = self.zk.take_unfinished();
            ops.retain(|(_, p)| matches!(p, Pending::Controller(ControllerPending::Step { .. })));
            ops
        } else {
            Vec::new()
        };
        if self.controller.is_some() && replay.is_empty() {
            self.resign(
                if settings.profile.retries_zk_work_across_sessions() {
                    BrokerCause::ResignsOnNewSession
                } else {
                    BrokerCause::ResignsOnExpiry
                },
                out,
            );
        }
        self.zk_replay = replay;
        self.drop_isr_updates_in_flight();
        self.last_broker_epoch = self.broker_epoch.or(self.last_broker_epoch);
        self.broker_epoch = None;
        self.registered = false;
        self.active_controller = None;
        self.zk.drop_requests();
        if self.status == BrokerStatus::Running || self.status == BrokerStatus::ShuttingDown {
            self.starting_up = false;
            self.zk
                .connect(now, settings.zookeeper_session_timeout_ms, out);
        }
    }

    /// Hands a ZooKeeper reply to the part of the broker that sent the request.
    fn on_zk_reply(
        &mut self,
        now: u64,
        purpose: Pending,
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        match purpose {
            Pending::Register => self.on_registered(now, result, out),
            Pending::RegisterCheck => self.on_register_check(now, result, settings, out),
            Pending::IsrUpdate {
                tp,
                isr,
                leader_epoch,
            } => self.replica_manager().on_isr_update_result(
                now,
                (tp, isr, leader_epoch),
                result,
                settings,
                out,
            ),
            Pending::IsrUpdateCheck {
                tp,
                isr,
                leader_epoch,
            } => self.replica_manager().on_isr_update_check(
                now,
                (tp, isr, leader_epoch),
                result,
                settings,
                out,
            ),
            Pending::IsrNotify => {}
            Pending::Election(p) => self.on_election_response(now, p, result, settings, out),
            Pending::Controller(p) => {
                self.with_controller(now, settings, out, |c| c.on_zk_response(p, result))
            }
        }
    }

    fn on_registered(&mut self, now: u64, result: Result<OpResult, ZkError>, out: &mut Out) {
        match result {
            Ok(OpResult::Created(stat)) => {
                let cause = if self.starting_up {
                    BrokerCause::RegisteredAtStartup
                } else {
                    BrokerCause::RegisteredAfterExpiry
                };
                self.registered_as(now, stat.czxid, cause, out);
            }
            Err(ZkError::NodeExists) => {
                // checkedEphemeralCreate: NODEEXISTS is not the end of it; whose is the znode?
                self.zk_request(
                    now,
                    ZkOp::Exists {
                        path: format!("/brokers/ids/{}", self.id),
                        watch: false,
                    },
                    Pending::RegisterCheck,
                    out,
                );
            }
            _ => {}
        }
    }

    /// The second half of a checked ephemeral create (`KafkaZkClient.CheckedEphemeral.
    /// getAfterNodeExists` in 2.0.1 to 3.9.0, `ZKCheckedEphemeral.GetDataCallback` in 0.10.2.2):
    /// a znode owned by this client's own session is its own create, whose reply was lost with
    /// the connection and which was sent again after the reconnect: success. One owned by
    /// another session is a real NODEEXISTS; one that has gone away is created again.
    fn on_register_check(
        &mut self,
        now: u64,
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Ok(OpResult::Node(node)) = result else {
            return;
        };
        match node {
            Some(n)
                if n.stat.ephemeral_owner.is_some()
                    && n.stat.ephemeral_owner == self.zk.session =>
            {
                self.registered_as(now, n.stat.czxid, BrokerCause::RegisteredOwnSession, out);
            }
            Some(_) => {
                // The znode belongs to an older session that has not expired yet.
                // KafkaServer.startup fails and the broker shuts down.
                out.event(
                    EventKind::BrokerStartFailed { broker: self.id },
                    BrokerCause::StartFailedZnodeHeld {
                        broker: self.id,
                        session_timeout_ms: settings.zookeeper_session_timeout_ms,
                    },
                );
                self.stop(now, out);
            }
            None => self.register(now, out),
        }
    }

    /// `KafkaZkClient.registerBroker`: the ephemeral `/brokers/ids/N`.
    fn register(&mut self, now: u64, out: &mut Out) {
        self.zk_request(
            now,
            ZkOp::Create {
                path: format!("/brokers/ids/{}", self.id),
                data: format!(
                    r#"{{"version":5,"host":"broker-{0}","port":9092,"jmx_port":-1,"timestamp":"{now}"}}"#,
                    self.id
                ),
                ephemeral: true,
            },
            Pending::Register,
            out,
        );
    }

    /// Registered with broker epoch `czxid`: then `elect()`.
    fn registered_as(&mut self, now: u64, czxid: i64, cause: BrokerCause, out: &mut Out) {
        self.broker_epoch = Some(czxid);
        self.last_broker_epoch = Some(czxid);
        self.registered = true;
        self.starting_up = false;
        out.event(
            EventKind::BrokerRegistered {
                broker: self.id,
                broker_epoch: czxid,
            },
            cause,
        );
        if let Some(role) = self.controller.as_mut() {
            // The zombie handles the expiry once the event it was in is done.
            role.expired = true;
            if role.partitions.running.is_none() {
                self.resign(BrokerCause::ZombieResigns, out);
            }
        }
        self.elect(now, out);
    }

    /// Handles a message delivered to this broker.
    pub fn handle(
        &mut self,
        now: u64,
        from: Endpoint,
        body: Body,
        settings: &Settings,
        out: &mut Out,
    ) {
        match body {
            Body::Connected {
                session,
                timeout_ms,
                resumed,
            } => self.on_connected(now, (session, timeout_ms, resumed), out),
            Body::ConnectionLoss => {
                self.zk
                    .on_connection_loss(now, settings.zookeeper_session_timeout_ms, out)
            }
            Body::Pong { session } => self.zk.on_pong(now, session, out),
            Body::Expired { session } => self.on_expired(now, session, settings, out),
            Body::Response {
                session,
                xid,
                zxid,
                result,
            } => {
                if let Some((purpose, result)) =
                    self.zk.on_response(now, (session, xid, zxid), result, out)
                {
                    self.on_zk_reply(now, purpose, result, settings, out);
                }
            }
            Body::Watch {
                session,
                zxid,
                path,
                change,
            } => {
                if self.zk.on_watch(now, (session, zxid), &path, &change, out) {
                    self.on_watch(now, &path, change, settings, out);
                }
            }
            Body::UpdateMetadata {
                controller,
                controller_epoch,
                broker_epoch,
                live_brokers,
                partitions,
                correlation_id,
            } => self.on_update_metadata(
                controller,
                (controller_epoch, broker_epoch, correlation_id),
                (live_brokers, partitions),
                settings,
                out,
            ),
            Body::LeaderAndIsr {
                controller,
                controller_epoch,
                broker_epoch,
                partitions,
                correlation_id,
            } => {
                let ok = self.accept_controller_request(
                    controller,
                    "LeaderAndIsr",
                    (controller_epoch, broker_epoch),
                    settings,
                    out,
                );
                let error = ok.err();
                if error.is_none() {
                    self.replica_manager().apply_leader_and_isr(
                        now,
                        controller,
                        controller_epoch,
                        partitions,
                        settings,
                        out,
                    );
                }
                out.send(
                    self.me(),
                    Endpoint::Broker(controller),
                    Body::LeaderAndIsrResponse {
                        controller_epoch,
                        correlation_id,
                        error,
                    },
                );
            }
            Body::StopReplica {
                controller,
                controller_epoch,
                partitions,
                delete,
                correlation_id,
            } => {
                if controller_epoch >= self.metadata_epoch {
                    self.replica_manager().stop_replicas(&partitions, delete);
                }
                out.send(
                    self.me(),
                    Endpoint::Broker(controller),
                    Body::StopReplicaResponse {
                        controller_epoch,
                        correlation_id,
                    },
                );
            }
            Body::UpdateMetadataResponse {
                controller_epoch,
                correlation_id,
                ..
            }
            | Body::LeaderAndIsrResponse {
                controller_epoch,
                correlation_id,
                ..
            }
            | Body::StopReplicaResponse {
                controller_epoch,
                correlation_id,
            } => {
                if let Endpoint::Broker(from) = from {
                    self.on_channel_response(
                        now,
                        from,
                        controller_epoch,
                        correlation_id,
                        settings,
                        out,
                    )
                }
            }
            Body::Fetch {
                correlation_id,
                partitions,
            } => {
                if let Endpoint::Broker(from) = from {
                    self.replica_manager().on_fetch(
                        now,
                        from,
                        correlation_id,
                        partitions,
                        settings,
                        out,
                    )
                }
            }
            Body::FetchResponse {
                correlation_id,
                partitions,
            } => {
                if let Endpoint::Broker(from) = from {
                    self.replica_manager().on_fetch_response(
                        now,
                        from,
                        correlation_id,
                        partitions,
                        settings,
                        out,
                    )
                }
            }
            Body::Produce {
                request,
                tp,
                records,
                acks,
                batch,
                ..
            } => self.replica_manager().on_produce(
                now,
                from,
                (request, tp, records, acks, batch),
                settings,
                out,
            ),
            Body::AlterPartition {
                broker_epoch,
                tp,
                leader_epoch,
                isr,
                zk_version,
            } => {
                if let Endpoint::Broker(from) = from {
                    self.on_alter_partition(
                        now,
                        from,
                        (broker_epoch, tp, leader_epoch, isr, zk_version),
                        settings,
                        out,
                    )
                }
            }
            Body::AlterPartitionResponse {
                tp,
                proposed,
                result,
            } => self
                .replica_manager()
                .on_alter_partition_response(now, tp, proposed, result, settings, out),
            Body::Admin(request) => self.on_admin(now, request, settings, out),
            Body::FindCoordinator { group } => {
                self.with_coordinator(now, settings, out, |c| c.on_find_coordinator(from, group))
            }
            Body::JoinGroup {
                group,
                member_id,
                client_id,
                topics,
                assignor,
                session_timeout_ms,
                rebalance_timeout_ms,
                new_member_id,
            } => self.with_coordinator(now, settings, out, |c| {
                c.on_join_group(
                    from,
                    (group, member_id, client_id),
                    (topics, assignor),
                    (session_timeout_ms, rebalance_timeout_ms),
                    new_member_id,
                )
            }),
            Body::SyncGroup {
                group,
                generation,
                member_id,
                assignment,
            } => self.with_coordinator(now, settings, out, |c| {
                c.on_sync_group(from, (group, generation, member_id), assignment)
            }),
            Body::Heartbeat {
                group,
                generation,
                member_id,
            } => self.with_coordinator(now, settings, out, |c| {
                c.on_heartbeat(from, (group, generation, member_id))
            }),
            Body::LeaveGroup { group, member_id } => {
                self.with_coordinator(now, settings, out, |c| {
                    c.on_leave_group(from, (group, member_id))
                })
            }
            Body::FindCoordinatorResponse { .. }
            | Body::JoinGroupResponse { .. }
            | Body::SyncGroupResponse { .. }
            | Body::HeartbeatResponse { .. }
            | Body::LeaveGroupResponse { .. } => {}
            Body::ProduceResponse { .. } => {}
            Body::ControlledShutdown {
                broker_epoch,
                attempt,
            } => {
                if let Endpoint::Broker(from) = from {
                    self.on_controlled_shutdown_request(
                        now,
                        from,
                        broker_epoch,
                        attempt,
                        settings,
                        out,
                    )
                }
            }
            Body::ControlledShutdownResponse {
                attempt,
                error,
                remaining,
            } => {
                self.on_controlled_shutdown_response(now, attempt, error, remaining, settings, out)
            }
            Body::Connect { .. }
            | Body::Reconnect { .. }
            | Body::Ping { .. }
            | Body::Request { .. }
            | Body::SetWatches { .. }
            | Body::Close { .. } => {}
        }
    }

    /// Handles one of this broker's timers.
    pub fn on_timer(&mut self, now: u64, timer: Timer, settings: &Settings, out: &mut Out) {
        match timer {
            Timer::ZkTick(tick) => {
                self.zk
                    .on_tick(now, tick, settings.zookeeper_session_timeout_ms, out)
            }
            Timer::ShutdownTimeout { attempt } => {
                if self.status == BrokerStatus::ShuttingDown && self.shutdown_attempt == attempt {
                    self.controlled_shutdown_failed(
                        now,
                        ShutdownFailure::NoAnswer {
                            socket_timeout_ms: settings.controller_socket_timeout_ms,
                        },
                        settings,
                        out,
                    );
                }
            }
            Timer::ShutdownRetry { attempt } => {
                if self.status == BrokerStatus::ShuttingDown && self.shutdown_attempt == attempt {
                    self.send_controlled_shutdown(now, attempt + 1, settings, out);
                }
            }
            Timer::Controller(t) => self.with_controller(now, settings, out, |c| c.on_timer(t)),
            Timer::IsrExpiration => self.replica_manager().on_isr_expiration(now, settings, out),
            Timer::DelayedFetch {
                follower,
                correlation_id,
            } => self
                .replica_manager()
                .on_delayed_fetch(follower, correlation_id, settings, out),
            Timer::FetchTimeout {
                leader,
                correlation_id,
            } => self
                .replica_manager()
                .on_fetch_timeout(now, leader, correlation_id, out),
            Timer::FetchBackoff { leader } => {
                self.replica_manager().on_fetch_backoff(now, leader, out)
            }
            Timer::ProduceTimeout { request } => {
                self.replica_manager().on_produce_timeout(request, out)
            }
            Timer::Group { id } => self.with_coordinator(now, settings, out, |c| c.on_timer(id)),
            Timer::Resume
            | Timer::SessionDeadline(_)
            | Timer::ProduceTick { .. }
            | Timer::ProducerWake { .. }
            | Timer::ConsumerTick { .. }
            | Timer::ConsumerTimeout { .. } => {}
        }
    }

    /// The epoch checks every controller request passes (`ReplicaManager`): an older
    /// controller epoch is refused with STALE_CONTROLLER_EPOCH; since 2.2 an older broker epoch
    /// with STALE_BROKER_EPOCH. On success the broker follows that controller.
    pub(crate) fn accept_controller_request(
        &mut self,
        controller: BrokerId,
        request: &str,
        (controller_epoch, broker_epoch): (u64, i64),
        settings: &Settings,
        out: &mut Out,
    ) -> Result<(), KafkaError> {
        if controller_epoch < self.metadata_epoch {
            out.event(
                EventKind::StaleRequestRejected {
                    broker: self.id,
                    from: controller,
                    request: request.into(),
                    epoch: controller_epoch as i64,
                    current: self.metadata_epoch as i64,
                    error: KafkaError::StaleControllerEpoch.name().into(),
                },
                BrokerCause::StaleControllerEpoch,
            );
            return Err(KafkaError::StaleControllerEpoch);
        }
        if settings.profile.has_broker_epochs() {
            let mine = self.broker_epoch.unwrap_or(-1);
            if broker_epoch >= 0 && broker_epoch < mine {
                out.event(
                    EventKind::StaleRequestRejected {
                        broker: self.id,
                        from: controller,
                        request: request.into(),
                        epoch: broker_epoch,
                        current: mine,
                        error: KafkaError::StaleBrokerEpoch.name().into(),
                    },
                    BrokerCause::StaleBrokerEpoch,
                );
                return Err(KafkaError::StaleBrokerEpoch);
            }
        }
        let changed =
            controller_epoch != self.metadata_epoch || self.metadata_controller != Some(controller);
        self.metadata_epoch = controller_epoch;
        self.metadata_controller = Some(controller);
        if changed {
            out.event(
                EventKind::MetadataUpdated {
                    broker: self.id,
                    controller,
                    controller_epoch,
                },
                BrokerCause::MetadataFromController,
            );
        }
        Ok(())
    }

    /// `ReplicaManager.maybeUpdateMetadataCache`.
    fn on_update_metadata(
        &mut self,
        controller: BrokerId,
        (controller_epoch, broker_epoch, correlation_id): (u64, i64, u64),
        (live_brokers, partitions): (Vec<BrokerId>, Vec<PartitionInfo>),
        settings: &Settings,
        out: &mut Out,
    ) {
        let result = self.accept_controller_request(
            controller,
            "UpdateMetadata",
            (controller_epoch, broker_epoch),
            settings,
            out,
        );
        if result.is_ok() {
            self.metadata_live = live_brokers;
            for p in partitions {
                self.metadata_partitions.insert(p.tp.clone(), p);
            }
        }
        out.send(
            Endpoint::Broker(self.id),
            Endpoint::Broker(controller),
            Body::UpdateMetadataResponse {
                controller_epoch,
                correlation_id,
                error: result.err(),
            },
        );
    }

    /// Forgets the ISR changes this leader had in flight (their answers will not come).
    fn drop_isr_updates_in_flight(&mut self) {
        for r in self.replicas.values_mut() {
            if let Some(super::replication::Role::Leader(ls)) =
                r.state.as_mut().map(|s| &mut s.role)
            {
                ls.pending_isr = None;
                ls.isr_blocked = false;
            }
        }
    }

    // ----- controlled shutdown -----

    /// Begins a controlled shutdown (`KafkaServer.controlledShutdown`).
    pub fn begin_shutdown(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        self.status = BrokerStatus::ShuttingDown;
        if settings.controlled_shutdown_max_retries == 0 {
            // No attempt at all: the broker just stops (its session closes cleanly).
            self.stop(now, out);
            return;
        }
        self.send_controlled_shutdown(now, 1, settings, out);
    }

    fn send_controlled_shutdown(
        &mut self,
        now: u64,
        attempt: u32,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.shutdown_attempt = attempt;
        let target = self.metadata_controller.or(self.active_controller);
        out.event(
            EventKind::ControlledShutdownRequested {
                broker: self.id,
                attempt,
            },
            BrokerCause::ShutdownRequested,
        );
        match target {
            Some(c) => {
                out.send(
                    self.me(),
                    Endpoint::Broker(c),
                    Body::ControlledShutdown {
                        broker_epoch: self.broker_epoch.unwrap_or(-1),
                        attempt,
                    },
                );
                out.timer(
                    now + settings.controller_socket_timeout_ms,
                    self.me(),
                    Timer::ShutdownTimeout { attempt },
                );
            }
            None => {
                self.controlled_shutdown_failed(now, ShutdownFailure::NoController, settings, out)
            }
        }
    }

    fn controlled_shutdown_failed(
        &mut self,
        now: u64,
        why: ShutdownFailure,
        settings: &Settings,
        out: &mut Out,
    ) {
        let attempt = self.shutdown_attempt;
        // KafkaServer.controlledShutdown makes controlled.shutdown.max.retries attempts in all.
        let retry = attempt < settings.controlled_shutdown_max_retries;
        out.event(
            EventKind::ControlledShutdownFailed {
                broker: self.id,
                attempt,
            },
            BrokerCause::ShutdownFailed {
                why,
                next: if retry {
                    ShutdownNext::RetryAfter {
                        backoff_ms: settings.controlled_shutdown_retry_backoff_ms,
                    }
                } else {
                    ShutdownNext::GiveUp {
                        max_retries: settings.controlled_shutdown_max_retries,
                    }
                },
            },
        );
        if retry {
            out.timer(
                now + settings.controlled_shutdown_retry_backoff_ms,
                self.me(),
                Timer::ShutdownRetry { attempt },
            );
        } else {
            self.stop(now, out);
        }
    }

    fn on_controlled_shutdown_response(
        &mut self,
        now: u64,
        attempt: u32,
        error: Option<KafkaError>,
        remaining: Vec<TopicPartition>,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.status != BrokerStatus::ShuttingDown || attempt != self.shutdown_attempt {
            return;
        }
        match (error, remaining.is_empty()) {
            (None, true) => self.stop(now, out),
            (None, false) => self.controlled_shutdown_failed(
                now,
                ShutdownFailure::LeadershipsLeft {
                    partitions: remaining,
                },
                settings,
                out,
            ),
            (Some(e), _) => self.controlled_shutdown_failed(
                now,
                ShutdownFailure::Error { error: e.name() },
                settings,
                out,
            ),
        }
    }

    /// Stops the process: resign if controller, close the ZooKeeper session (its ephemeral
    /// znodes go at once), and exit.
    fn stop(&mut self, _now: u64, out: &mut Out) {
        if self.controller.is_some() {
            self.resign(BrokerCause::ResignsOnShutdown, out);
        }
        if let Some(session) = self.zk.session {
            out.send(self.me(), Endpoint::Zk, Body::Close { session });
        }
        self.end_process(BrokerStatus::Stopped);
        out.event(
            EventKind::BrokerStopped { broker: self.id },
            BrokerCause::Stopped,
        );
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sim::config::Profile;

    /// A running broker whose client is connected to session 7.
    pub(crate) fn connected_broker(id: BrokerId) -> Broker {
        let mut b = Broker::new(id);
        b.status = BrokerStatus::Running;
        b.zk.state = ZkState::Connected;
        b.zk.session = Some(7);
        b.zk.read_timeout_ms = 4_000;
        b
    }

    /// Answers the request `xid` (which must be pending) and returns what the broker did.
    pub(crate) fn answer(b: &mut Broker, xid: u64, result: Result<OpResult, ZkError>) -> Out {
        answer_in(Profile::V3_9, b, xid, result)
    }

    /// [`answer`] under the rules of `profile`.
    pub(crate) fn answer_in(
        profile: Profile,
        b: &mut Broker,
        xid: u64,
        result: Result<OpResult, ZkError>,
    ) -> Out {
        assert!(b.zk.pending.contains_key(&xid), "{xid} pending");
        let mut out = Out::default();
        let settings = Settings::for_profile(profile);
        b.handle(
            10,
            Endpoint::Zk,
            Body::Response {
                session: 7,
                xid,
                zxid: 50,
                result,
            },
            &settings,
            &mut out,
        );
        out
    }

    /// The requests the broker sent: (xid, op).
    pub(crate) fn requests(out: &Out) -> Vec<(u64, ZkOp)> {
        out.sends
            .iter()
            .filter_map(|(_, _, b)| match b {
                Body::Request { xid, op, .. } => Some((*xid, op.clone())),
                _ => None,
            })
            .collect()
    }

    pub(crate) fn node(data: &str, czxid: i64, version: i32, owner: Option<SessionId>) -> OpResult {
        OpResult::Node(Some(crate::sim::message::NodeData {
            data: data.into(),
            stat: crate::sim::message::Stat {
                czxid,
                mzxid: czxid,
                version,
                ephemeral_owner: owner,
            },
        }))
    }

    fn registering(b: &mut Broker) -> u64 {
        let mut out = Out::default();
        b.register(0, &mut out);
        requests(&out)[0].0
    }

    #[test]
    fn a_registration_that_meets_its_own_znode_succeeds() {
        let mut b = connected_broker(1);
        let xid = registering(&mut b);
        let out = answer(&mut b, xid, Err(ZkError::NodeExists));
        let reqs = requests(&out);
        assert_eq!(
            reqs,
            vec![(
                xid + 1,
                ZkOp::Exists {
                    path: "/brokers/ids/1".into(),
                    watch: false
                }
            )],
            "NODEEXISTS: read the znode's owner"
        );
        assert!(out.events.is_empty());
        // Owned by session 7, this client's: the lost reply's create. Registered, then elect().
        let out = answer(&mut b, xid + 1, Ok(node("{}", 12, 0, Some(7))));
        assert_eq!(
            out.events[0].0,
            EventKind::BrokerRegistered {
                broker: 1,
                broker_epoch: 12
            }
        );
        assert_eq!(out.events[0].1, BrokerCause::RegisteredOwnSession.into());
        assert!(b.registered);
        assert_eq!(b.broker_epoch, Some(12));
        assert!(
            matches!(&requests(&out)[0].1, ZkOp::Exists { path, watch: true } if path == "/controller")
        );
    }

    #[test]
    fn a_registration_that_meets_another_sessions_znode_fails_and_a_vanished_one_is_created_again()
    {
        let mut b = connected_broker(1);
        let xid = registering(&mut b);
        answer(&mut b, xid, Err(ZkError::NodeExists));
        let out = answer(&mut b, xid + 1, Ok(node("{}", 12, 0, Some(6))));
        assert_eq!(out.events[0].0, EventKind::BrokerStartFailed { broker: 1 });
        assert_eq!(b.status, BrokerStatus::Stopped);
        assert!(!b.registered);

        let mut b = connected_broker(1);
        let xid = registering(&mut b);
        answer(&mut b, xid, Err(ZkError::NodeExists));
        let out = answer(&mut b, xid + 1, Ok(OpResult::Node(None)));
        assert!(out.events.is_empty());
        assert!(matches!(
            &requests(&out)[0].1,
            ZkOp::Create { path, ephemeral: true, .. } if path == "/brokers/ids/1"
        ));
    }
}

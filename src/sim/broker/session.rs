//! The broker's ZooKeeper session and registration: a new or resumed session, the expiry and what it ends (a controller's role, the registration), replies routed to the part that asked, and the ephemeral `/brokers/ids/N` whose czxid is the broker epoch (`KafkaZkClient.registerBroker`, KIP-380; the checked ephemeral create).

use super::causes::BrokerCause;
use super::{Broker, BrokerStatus};
use crate::sim::config::Settings;
use crate::sim::controller::ControllerPending;
use crate::sim::event::EventKind;
use crate::sim::message::{OpResult, Out, SessionId, ZkError, ZkOp};
use crate::sim::zk_client::causes::ZkClientCause;
use crate::sim::zk_client::{Pending, SessionStart};

impl Broker {
    /// Sends a ZooKeeper request through the broker's client (now, or when the connection is
    /// back).
    pub(crate) fn zk_request(&mut self, now: u64, op: ZkOp, purpose: Pending, out: &mut Out) {
        self.zk.request(now, op, purpose, out);
    }

    /// The server opened or resumed a session: on a new one, the broker replays what its
    /// controller had left unfinished (0.10) and registers again.
    pub(super) fn on_connected(
        &mut self,
        now: u64,
        connected: (SessionId, u64, bool),
        out: &mut Out,
    ) {
        if self.zk.on_connected(now, connected, out) == Some(SessionStart::New) {
            // New session: register (KafkaZkClient.registerBroker), then elect.
            for (op, purpose) in std::mem::take(&mut self.zk_replay) {
                self.zk.request(now, op, purpose, out);
            }
            self.register(now, out);
        }
    }

    /// The client learns its session is gone: resign if controller, then a new session,
    /// re-registration and `elect()` (ZooKeeperClient's Expired state, then Kafka's
    /// `RegisterBrokerAndReelect`).
    #[inline(never)]
    pub(super) fn on_expired(
        &mut self,
        now: u64,
        session: SessionId,
        settings: &Settings,
        out: &mut Out,
    ) {
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
    pub(super) fn on_zk_reply(
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
            Pending::Replica(p) => self
                .replica_manager()
                .on_zk_response(now, p, result, settings, out),
            Pending::Election(p) => self.on_election_response(now, p, result, settings, out),
            Pending::Controller(p) => {
                self.with_controller(now, settings, out, |c| c.on_zk_response(p, result))
            }
        }
    }

    pub(super) fn on_registered(
        &mut self,
        now: u64,
        result: Result<OpResult, ZkError>,
        out: &mut Out,
    ) {
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
    pub(super) fn on_register_check(
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
    pub(super) fn register(&mut self, now: u64, out: &mut Out) {
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
    pub(super) fn registered_as(
        &mut self,
        now: u64,
        czxid: i64,
        cause: BrokerCause,
        out: &mut Out,
    ) {
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
}

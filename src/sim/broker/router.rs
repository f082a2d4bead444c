//! The broker as a router: each message and timer is handed to the part that owns it (the ZooKeeper client, the registration, the replica manager, the controller role, the group coordinator, controlled shutdown).

use super::causes::ShutdownFailure;
use super::{Broker, BrokerStatus};
use crate::sim::config::Settings;
use crate::sim::message::{Body, Out, Timer};
use crate::sim::net::Endpoint;

impl Broker {
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
            Timer::Replica(t) => self.replica_manager().on_timer(now, t, settings, out),
            Timer::Group { id } => self.with_coordinator(now, settings, out, |c| c.on_timer(id)),
            Timer::Resume
            | Timer::ProduceTimeout { .. }
            | Timer::SessionDeadline(_)
            | Timer::ProduceTick { .. }
            | Timer::ProducerWake { .. }
            | Timer::ConsumerTick { .. }
            | Timer::ConsumerTimeout { .. } => {}
        }
    }
}

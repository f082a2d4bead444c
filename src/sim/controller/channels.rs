//! The requests the controller sends to brokers (`ControllerChannelManager`): one queue per
//! broker with one request in flight at a time, resent after `controller.socket.timeout.ms`
//! until the broker answers, as long as it is live.

use super::timers::ControllerTimer;
use super::Controller;
use crate::collections::VecMap;
use crate::sim::message::{Body, PartitionInfo, Timer};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;
use std::collections::VecDeque;

/// A controller-to-broker request waiting in a channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Req {
    /// The cluster metadata (built when sent).
    UpdateMetadata,
    /// Lead or follow these partitions (their state when the request was made).
    LeaderAndIsr(Vec<PartitionInfo>),
    /// Stop (and maybe delete) these replicas.
    StopReplica(Vec<TopicPartition>, bool),
}

/// `ControllerChannelManager`'s queue to one broker: one request in flight at a time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Channel {
    /// Waiting requests.
    pub queue: VecDeque<Req>,
    /// The request sent and not yet answered, with its correlation id.
    pub in_flight: Option<(u64, Req)>,
}

impl Controller<'_> {
    /// LeaderAndIsr for `tps` to every live replica of each (but `except`).
    pub(super) fn send_leader_and_isr(&mut self, tps: &[TopicPartition], except: Option<BrokerId>) {
        let live = self.live_set();
        let ctx = &mut self.role.partitions;
        // The request holds the states as they are now: resent, it says the same thing
        // (ControllerChannelManager's RequestSendThread retries the request it built).
        let mut by_broker: VecMap<BrokerId, Vec<PartitionInfo>> = VecMap::new();
        for tp in tps {
            let Some(info) = ctx.info(tp) else {
                continue;
            };
            for r in &info.replicas {
                if live.contains(r) && Some(*r) != except {
                    by_broker.entry(*r).or_default().push(info.clone());
                }
            }
        }
        for (b, infos) in by_broker {
            self.enqueue(b, Req::LeaderAndIsr(infos));
        }
    }

    /// UpdateMetadata to every live broker.
    pub(crate) fn broadcast_metadata(&mut self) {
        for b in self.live_set() {
            self.enqueue(b, Req::UpdateMetadata);
        }
    }

    pub(crate) fn enqueue(&mut self, broker: BrokerId, req: Req) {
        let ctx = &mut self.role.partitions;
        let ch = ctx.channels.entry(broker).or_default();
        if req == Req::UpdateMetadata && ch.queue.contains(&Req::UpdateMetadata) {
            return;
        }
        ch.queue.push_back(req);
        self.pump(broker);
    }

    fn pump(&mut self, broker: BrokerId) {
        let ctx = &mut self.role.partitions;
        let Some(ch) = ctx.channels.get_mut(&broker) else {
            return;
        };
        if ch.in_flight.is_some() {
            return;
        }
        let Some(req) = ch.queue.pop_front() else {
            return;
        };
        self.send_req(broker, req);
    }

    fn send_req(&mut self, broker: BrokerId, req: Req) {
        let me = Endpoint::Broker(self.me);
        let id = self.me;
        let role = &mut *self.role;
        let Some(broker_epoch) = role.live.get(&broker).copied() else {
            return;
        };
        let correlation_id = role.next_correlation;
        role.next_correlation += 1;
        let controller_epoch = role.epoch;
        let ctx = &mut role.partitions;
        let body = match &req {
            Req::UpdateMetadata => Body::UpdateMetadata {
                controller: id,
                controller_epoch,
                broker_epoch,
                live_brokers: role.live.keys().copied().collect(),
                partitions: ctx
                    .partitions()
                    .iter()
                    .filter_map(|tp| ctx.info(tp))
                    .collect(),
                correlation_id,
            },
            Req::LeaderAndIsr(infos) => Body::LeaderAndIsr {
                controller: id,
                controller_epoch,
                broker_epoch,
                partitions: infos.clone(),
                correlation_id,
            },
            Req::StopReplica(tps, delete) => Body::StopReplica {
                controller: id,
                controller_epoch,
                partitions: tps.clone(),
                delete: *delete,
                correlation_id,
            },
        };
        ctx.channels.entry(broker).or_default().in_flight = Some((correlation_id, req));
        self.out.send(me, Endpoint::Broker(broker), body);
        self.out.timer(
            self.now + self.settings.controller_socket_timeout_ms,
            me,
            Timer::Controller(ControllerTimer::RequestTimeout {
                broker,
                correlation_id,
            }),
        );
    }

    /// A broker answered a controller request: the channel sends its next one.
    pub(crate) fn on_channel_response(&mut self, from: BrokerId, epoch: u64, correlation_id: u64) {
        let role = &mut *self.role;
        if role.epoch != epoch {
            return;
        }
        let Some(ch) = role.partitions.channels.get_mut(&from) else {
            return;
        };
        if ch.in_flight.as_ref().map(|(c, _)| *c) == Some(correlation_id) {
            ch.in_flight = None;
            self.pump(from);
        }
    }

    /// No answer within controller.socket.timeout.ms: the RequestSendThread reconnects and
    /// sends the request again, for as long as the broker is live.
    pub(crate) fn on_controller_request_timeout(&mut self, broker: BrokerId, correlation_id: u64) {
        let role = &mut *self.role;
        if !role.live.contains_key(&broker) {
            return;
        }
        let Some(ch) = role.partitions.channels.get_mut(&broker) else {
            return;
        };
        if ch.in_flight.as_ref().map(|(c, _)| *c) != Some(correlation_id) {
            return;
        }
        let (_, req) = ch.in_flight.take().expect("checked");
        self.send_req(broker, req);
    }
}

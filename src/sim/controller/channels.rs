//! The requests the controller sends to brokers (`ControllerChannelManager`): one queue per
//! broker with one request in flight at a time, resent after `controller.socket.timeout.ms`
//! until the broker answers, as long as it is live.

use crate::sim::broker::Broker;
use crate::sim::config::Settings;
use crate::sim::message::{Body, Out, PartitionInfo, Timer};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;
use std::collections::{BTreeMap, VecDeque};

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

impl Broker {
    /// LeaderAndIsr for `tps` to every live replica of each (but `except`).
    pub(super) fn send_leader_and_isr(
        &mut self,
        now: u64,
        tps: &[TopicPartition],
        except: Option<BrokerId>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let live = self.live_set();
        let Some(ctx) = self.ctx() else { return };
        // The request holds the states as they are now: resent, it says the same thing
        // (ControllerChannelManager's RequestSendThread retries the request it built).
        let mut by_broker: BTreeMap<BrokerId, Vec<PartitionInfo>> = BTreeMap::new();
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
            self.enqueue(now, b, Req::LeaderAndIsr(infos), settings, out);
        }
    }

    /// UpdateMetadata to every live broker.
    pub(crate) fn broadcast_metadata(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        for b in self.live_set() {
            self.enqueue(now, b, Req::UpdateMetadata, settings, out);
        }
    }

    pub(crate) fn enqueue(
        &mut self,
        now: u64,
        broker: BrokerId,
        req: Req,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(ctx) = self.ctx() else { return };
        let ch = ctx.channels.entry(broker).or_default();
        if req == Req::UpdateMetadata && ch.queue.contains(&Req::UpdateMetadata) {
            return;
        }
        ch.queue.push_back(req);
        self.pump(now, broker, settings, out);
    }

    fn pump(&mut self, now: u64, broker: BrokerId, settings: &Settings, out: &mut Out) {
        let Some(ctx) = self.ctx() else { return };
        let Some(ch) = ctx.channels.get_mut(&broker) else {
            return;
        };
        if ch.in_flight.is_some() {
            return;
        }
        let Some(req) = ch.queue.pop_front() else {
            return;
        };
        self.send_req(now, broker, req, settings, out);
    }

    fn send_req(
        &mut self,
        now: u64,
        broker: BrokerId,
        req: Req,
        settings: &Settings,
        out: &mut Out,
    ) {
        let me = self.me();
        let id = self.id;
        let Some(role) = self.controller.as_mut() else {
            return;
        };
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
        out.send(me, Endpoint::Broker(broker), body);
        out.timer(
            now + settings.controller_socket_timeout_ms,
            me,
            Timer::ControllerRequestTimeout {
                broker,
                correlation_id,
            },
        );
    }

    /// A broker answered a controller request: the channel sends its next one.
    pub(crate) fn on_channel_response(
        &mut self,
        now: u64,
        from: BrokerId,
        epoch: u64,
        correlation_id: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        if role.epoch != epoch {
            return;
        }
        let Some(ch) = role.partitions.channels.get_mut(&from) else {
            return;
        };
        if ch.in_flight.as_ref().map(|(c, _)| *c) == Some(correlation_id) {
            ch.in_flight = None;
            self.pump(now, from, settings, out);
        }
    }

    /// No answer within controller.socket.timeout.ms: the RequestSendThread reconnects and
    /// sends the request again, for as long as the broker is live.
    pub(crate) fn on_controller_request_timeout(
        &mut self,
        now: u64,
        broker: BrokerId,
        correlation_id: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
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
        self.send_req(now, broker, req, settings, out);
    }
}

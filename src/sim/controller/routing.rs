//! The broker's side of its controller role: for each input meant for the role it builds the
//! [`Controller`] handler from disjoint borrows of its fields, sends the ZooKeeper requests the
//! role made through its own ZooKeeper client, and resigns the role when the input ends it.
//! Requests for a controller that reach a broker that is not one are answered here.

use super::isr_changes::refuse_alter_partition;
use super::shutdown::refuse_controlled_shutdown;
use super::{Controller, Exit};
use crate::sim::broker::causes::BrokerCause;
use crate::sim::broker::{Broker, Pending};
use crate::sim::config::Settings;
use crate::sim::message::{AdminRequest, Out};
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;

impl Broker {
    /// Hands one input to the controller role, if this broker holds one (else nothing).
    pub(crate) fn with_controller(
        &mut self,
        now: u64,
        settings: &Settings,
        out: &mut Out,
        input: impl FnOnce(&mut Controller<'_>),
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        let mut requests = Vec::new();
        let mut controller = Controller::new(self.id, now, settings, role, &mut requests, out);
        input(&mut controller);
        let exit = controller.exit.take();
        for (op, purpose) in requests {
            self.zk.request(now, op, Pending::Controller(purpose), out);
        }
        match exit {
            None => {}
            Some(Exit::Zombie) => self.resign(BrokerCause::ZombieResigns, out),
            Some(Exit::Reelect) => self.reelect(now, true, out),
            Some(Exit::Moved(cause)) => self.resign_moved(now, cause, out),
        }
    }

    /// A broker answered a controller request.
    pub(crate) fn on_channel_response(
        &mut self,
        now: u64,
        from: BrokerId,
        epoch: u64,
        correlation_id: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.with_controller(now, settings, out, |c| {
            c.on_channel_response(from, epoch, correlation_id)
        });
    }

    /// A leader's AlterPartition (2.7+); NOT_CONTROLLER if this broker is not controller.
    #[inline(never)]
    pub(crate) fn on_alter_partition(
        &mut self,
        now: u64,
        from: BrokerId,
        (broker_epoch, tp, leader_epoch, isr, zk_version): (
            i64,
            TopicPartition,
            u64,
            Vec<BrokerId>,
            i32,
        ),
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.controller.is_none() {
            refuse_alter_partition(self.id, from, (tp, leader_epoch, isr, zk_version), out);
            return;
        }
        self.with_controller(now, settings, out, |c| {
            c.on_alter_partition(from, (broker_epoch, tp, leader_epoch, isr, zk_version))
        });
    }

    /// A broker's ControlledShutdown request; NOT_CONTROLLER if this broker is not controller.
    #[inline(never)]
    pub(crate) fn on_controlled_shutdown_request(
        &mut self,
        now: u64,
        from: BrokerId,
        broker_epoch: i64,
        attempt: u32,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.controller.is_none() {
            refuse_controlled_shutdown(self.id, from, attempt, out);
            return;
        }
        self.with_controller(now, settings, out, |c| {
            c.on_controlled_shutdown_request(from, broker_epoch, attempt)
        });
    }

    /// An admin tool's request; ignored by a broker that is not controller.
    #[inline(never)]
    pub(crate) fn on_admin(
        &mut self,
        now: u64,
        request: AdminRequest,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.with_controller(now, settings, out, |c| c.on_admin(request));
    }
}

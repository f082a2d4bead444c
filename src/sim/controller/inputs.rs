//! The controller role's own inputs: the purposes of its ZooKeeper requests and its timers.
//!
//! A leaf module (it imports nothing of the simulation but broker ids), so that the broker's
//! request table and the shared timer type can name them without an import circle.

use crate::sim::net::BrokerId;

/// What one of the acting controller's ZooKeeper requests was for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControllerPending {
    /// Controller failover: read the live brokers and their epochs (`onControllerFailover`).
    LoadBrokers {
        /// The controller epoch it was made in.
        epoch: u64,
    },
    /// A step of the controller's current event (see [`super::Task`]).
    Step {
        /// The controller epoch it was made in.
        epoch: u64,
        /// The step's number.
        step: u64,
    },
}

/// One of the acting controller's timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerTimer {
    /// A request to a broker got no answer within controller.socket.timeout.ms.
    RequestTimeout {
        /// The broker.
        broker: BrokerId,
        /// The request's correlation id.
        correlation_id: u64,
    },
    /// The automatic preferred-leader rebalance check.
    RebalanceCheck {
        /// The controller epoch that scheduled it.
        epoch: u64,
    },
}

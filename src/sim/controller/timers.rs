//! The acting controller's own timers.
//!
//! A leaf module (it imports nothing of the simulation but broker ids), so that the shared
//! timer type can name them without an import circle.

use crate::sim::net::BrokerId;

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

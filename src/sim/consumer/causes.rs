//! A consumer's causes: the actions that end it (`KafkaConsumer.close` sends LeaveGroup; a
//! crash sends nothing) and the coordinator it finds (`FindCoordinator`).

use crate::text::{causes as m, English, Words};

/// Why a consumer did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsumerCause {
    /// `leave`: the consumer closes and sends LeaveGroup.
    LeaveAction,
    /// `crash_consumer`: no LeaveGroup, no more heartbeats.
    CrashAction,
    /// FindCoordinator answered: the leader of the group's `__consumer_offsets` partition.
    CoordinatorFound,
}

impl ConsumerCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        tr.t(match self {
            ConsumerCause::LeaveAction => m::CAUSE_CONSUMER_LEAVE_ACTION,
            ConsumerCause::CrashAction => m::CAUSE_CONSUMER_CRASH_ACTION,
            ConsumerCause::CoordinatorFound => m::CAUSE_CONSUMER_COORDINATOR_FOUND,
        })
    }
}

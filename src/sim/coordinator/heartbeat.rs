//! Heartbeat: a member's session goes on, and it learns of a rebalance.
//!
//! Sources: `GroupCoordinator.handleHeartbeat` (the answer's error by the group's state; a
//! member's session deadline is pushed back by `completeAndScheduleNextHeartbeatExpiration`).

use super::state::GroupState;
use super::Coordinator;
use crate::sim::message::{Body, KafkaError};
use crate::sim::net::Endpoint;

impl Coordinator<'_> {
    /// `handleHeartbeat`.
    pub(crate) fn on_heartbeat(
        &mut self,
        from: Endpoint,
        (group_id, generation, member_id): (String, u32, String),
    ) {
        let error = match self.group_check(&group_id) {
            Err(e) => Some(e),
            Ok(()) => match self.state.groups.get(&group_id) {
                None => Some(KafkaError::UnknownMemberId),
                Some(g) if !g.members.contains_key(&member_id) => Some(KafkaError::UnknownMemberId),
                Some(g) if g.generation != generation => Some(KafkaError::IllegalGeneration),
                Some(g) => match g.state {
                    GroupState::PreparingRebalance => Some(KafkaError::RebalanceInProgress),
                    _ => None,
                },
            },
        };
        if !matches!(
            error,
            Some(
                KafkaError::NotCoordinator
                    | KafkaError::UnknownMemberId
                    | KafkaError::IllegalGeneration
            )
        ) {
            let timeout = self
                .state
                .groups
                .get(&group_id)
                .and_then(|g| g.members.get(&member_id))
                .map(|m| m.session_timeout_ms)
                .unwrap_or(self.settings.consumer_session_timeout_ms);
            self.schedule_session(&group_id, &member_id, timeout);
        }
        let me = self.endpoint();
        self.out.send(
            me,
            from,
            Body::HeartbeatResponse {
                group: group_id,
                error,
            },
        );
    }
}

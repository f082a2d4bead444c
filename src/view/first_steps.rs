//! First steps that teach one thing at a time: the partition free play's produce controls
//! pick before the learner picks one.

use super::format::PartitionRef;
use crate::sim::ClusterState;

/// The partition the produce controls act on when the learner has not picked one: the first
/// of `list` whose leader is not the controller, so that crashing the stream's leader shows
/// one election (the partition's) and not the controller's at the same time; the first of
/// `list` when every leader is the controller (or none is known yet).
pub fn default_produce_target(state: &ClusterState, list: &[PartitionRef]) -> Option<String> {
    let controller = state.controller.map(i64::from);
    list.iter()
        .find(|r| {
            state
                .partitions
                .get(&r.key)
                .is_some_and(|p| p.exists && p.leader >= 0 && Some(p.leader) != controller)
        })
        .or_else(|| list.first())
        .map(|r| r.key.clone())
}

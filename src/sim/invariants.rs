//! The safety monitor: checked after every step of the simulation.
//!
//! Each invariant has a plain-English name (after stateright's properties) and the Kafka
//! rule it comes from. A broken invariant is recorded in the state and the event log.

use super::broker::Broker;
use super::net::BrokerId;
use super::zookeeper::ZooKeeper;
use std::collections::BTreeMap;

/// "Election Safety": at most one live broker acts as controller in any one epoch.
/// The whole point of `controller_epoch` (KafkaZkClient.registerControllerAndIncrementControllerEpoch):
/// two brokers may both believe they are controller for a while, but never in the same epoch.
pub const ONE_CONTROLLER_PER_EPOCH: &str = "one controller per epoch";

/// "Epochs only grow": `/controller_epoch` never goes back, and no broker ever accepts a
/// controller epoch older than one it has accepted.
pub const EPOCHS_ONLY_GROW: &str = "controller epochs only grow";

/// "One acting controller": a partition state whose leader changed can only be written by the
/// controller of the current epoch. Before 2.1 a zombie controller's write could still land
/// (KAFKA-6082); from 2.1 it is fenced by a check of `/controller_epoch`.
pub const ONE_ACTING_CONTROLLER: &str = "only the current controller changes leaders";

/// "Leader epochs only grow" in ZooKeeper's partition state.
pub const LEADER_EPOCHS_ONLY_GROW: &str = "leader epochs only grow";

/// "The leader is in its ISR" (an unclean election makes the ISR just the leader).
pub const LEADER_IN_ISR: &str = "the leader is in the ISR";

/// "The high watermark stays within the ISR": no ISR member's log ends below the leader's
/// high watermark (what is committed is on every in-sync replica). Only the replicas the
/// leader is assigned count, as in Kafka's own high watermark (`Partition.maybeIncrementLeaderHW`
/// walks `remoteReplicasMap`, 3.9.0): when a reassignment completes, the new leader's
/// LeaderAndIsr lists only the target replicas while the ISR still holds the ones being removed,
/// for the few milliseconds until the controller takes them out one by one.
pub const HW_WITHIN_ISR: &str = "the high watermark never exceeds an ISR member's log end";

/// "The ISR holds only assigned replicas": every member of a partition's ISR in ZooKeeper is
/// one of the partition's replicas in its assignment znode. A leader never adds a broker that
/// its latest LeaderAndIsr did not list (`Partition.maybeExpandIsr` checks the assigned
/// replicas), and a reassignment takes each removed replica out of the ISR before the
/// assignment drops it (`KafkaController.onPartitionReassignment`, B4 before B6).
pub const ISR_WITHIN_ASSIGNMENT: &str = "the ISR holds only replicas of the assignment";

/// "One group leader per generation" (`GroupMetadata`): a generation has one leader, the
/// member that computes the assignment.
pub const ONE_GROUP_LEADER: &str = "one group leader per generation";

/// The monitor's memory between steps.
#[derive(Debug, Clone, Default)]
pub struct Monitor {
    zk_epoch: u64,
    seen: BTreeMap<BrokerId, u64>,
    reported: Vec<(String, String)>,
}

impl Monitor {
    /// Checks every invariant; returns the violations not reported before, as (name, detail).
    pub fn check(
        &mut self,
        zk: &ZooKeeper,
        brokers: &BTreeMap<BrokerId, Broker>,
    ) -> Vec<(String, String)> {
        let mut found = Vec::new();

        let mut by_epoch: BTreeMap<u64, Vec<BrokerId>> = BTreeMap::new();
        for b in brokers.values() {
            if let (true, Some(role)) = (b.status.is_alive(), b.controller.as_ref()) {
                by_epoch.entry(role.epoch).or_default().push(b.id);
            }
        }
        for (epoch, ids) in by_epoch {
            if ids.len() > 1 {
                found.push((
                    ONE_CONTROLLER_PER_EPOCH.to_string(),
                    format!("brokers {ids:?} all act as controller in epoch {epoch}"),
                ));
            }
        }

        let epoch = zk.controller_epoch();
        if epoch < self.zk_epoch {
            found.push((
                EPOCHS_ONLY_GROW.to_string(),
                format!(
                    "/controller_epoch went back from {} to {epoch}",
                    self.zk_epoch
                ),
            ));
        }
        self.zk_epoch = self.zk_epoch.max(epoch);
        for b in brokers.values() {
            if !b.status.is_alive() {
                self.seen.remove(&b.id);
                continue;
            }
            let prev = self.seen.insert(b.id, b.metadata_epoch).unwrap_or(0);
            if b.metadata_epoch < prev {
                found.push((
                    EPOCHS_ONLY_GROW.to_string(),
                    format!(
                        "broker {} went back from controller epoch {prev} to {}",
                        b.id, b.metadata_epoch
                    ),
                ));
            }
        }

        found
    }

    /// The violations not reported before (each is reported once).
    pub fn fresh(&mut self, mut found: Vec<(String, String)>) -> Vec<(String, String)> {
        found.retain(|v| !self.reported.contains(v));
        self.reported.extend(found.iter().cloned());
        found
    }
}

//! The safety properties the monitor checks after every step of the simulation.
//!
//! Each property is one function named after what must hold (in the manner of stateright's
//! properties), with its plain-English name as it appears in the state and the event log and
//! the Kafka rule that guarantees it. A function returns the violations it finds as
//! (name, detail); the [`Monitor`](super::monitor::Monitor) decides when to call it and
//! reports each violation once.

use super::broker::Broker;
use super::commands::GroupSpec;
use super::consumer::{Consumer, ConsumerState};
use super::net::BrokerId;
use super::topic::TopicPartition;
use super::znodes::PartitionState;
use crate::collections::VecMap;

/// A broken invariant: its name and what was seen.
pub type Violation = (String, String);

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

/// [`ONE_CONTROLLER_PER_EPOCH`]: no two live brokers act as controller in the same epoch.
/// Each election increments `/controller_epoch` with a conditional write
/// (KafkaZkClient.registerControllerAndIncrementControllerEpoch from 2.0; the two steps of
/// `ZookeeperLeaderElector.elect` and `KafkaController.incrementControllerEpoch` in 0.10), so
/// two winners never share an epoch.
pub fn at_most_one_controller_per_epoch(brokers: &VecMap<BrokerId, Broker>) -> Vec<Violation> {
    let mut found = Vec::new();
    let mut by_epoch: VecMap<u64, Vec<BrokerId>> = VecMap::new();
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
    found
}

/// What [`controller_epochs_only_grow`] remembers between steps: the highest
/// `/controller_epoch` seen, and the controller epoch each live broker last accepted.
#[derive(Debug, Clone, Default)]
pub struct EpochsSeen {
    zk_epoch: u64,
    brokers: VecMap<BrokerId, u64>,
}

/// [`EPOCHS_ONLY_GROW`]: `/controller_epoch` never goes back (it is only ever incremented),
/// and no live broker's accepted controller epoch goes back (a broker refuses a request with
/// an older controller epoch, STALE_CONTROLLER_EPOCH: `ReplicaManager.becomeLeaderOrFollower`,
/// `maybeUpdateMetadataCache`, all releases modelled). A broker that dies starts afresh.
pub fn controller_epochs_only_grow(
    seen: &mut EpochsSeen,
    zk_epoch: u64,
    brokers: &VecMap<BrokerId, Broker>,
) -> Vec<Violation> {
    let mut found = Vec::new();
    if zk_epoch < seen.zk_epoch {
        found.push((
            EPOCHS_ONLY_GROW.to_string(),
            format!(
                "/controller_epoch went back from {} to {zk_epoch}",
                seen.zk_epoch
            ),
        ));
    }
    seen.zk_epoch = seen.zk_epoch.max(zk_epoch);
    for b in brokers.values() {
        if !b.status.is_alive() {
            seen.brokers.remove(&b.id);
            continue;
        }
        let prev = seen.brokers.insert(b.id, b.metadata_epoch).unwrap_or(0);
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

/// [`ONE_ACTING_CONTROLLER`]: every partition-state write that changed a leader carried the
/// current controller epoch. `stale_writes` are the writes ZooKeeper saw with an older one
/// (path, state written, current epoch): a zombie controller's. From 2.1 they cannot land
/// (`KafkaZkClient.wrapRequestWithControllerEpochCheck`, KAFKA-6082); before, they can.
pub fn only_the_current_controller_changes_leaders(
    stale_writes: Vec<(String, PartitionState, u64)>,
) -> Vec<Violation> {
    stale_writes
        .into_iter()
        .map(|(path, state, current)| {
            (
                ONE_ACTING_CONTROLLER.to_string(),
                format!(
                    "{path} was rewritten by controller epoch {} (leader {}, leader epoch {}) while epoch {current} rules: a zombie controller's write landed (split brain)",
                    state.controller_epoch, state.leader, state.leader_epoch
                ),
            )
        })
        .collect()
}

/// [`LEADER_EPOCHS_ONLY_GROW`]: a partition's leader epoch in ZooKeeper never goes back from
/// `prev`, the last one seen. Every election writes the leader epoch + 1 with a conditional
/// update of the partition state (`KafkaZkClient.updateLeaderAndIsr` from 2.0,
/// `ReplicationUtils.updateLeaderAndIsr` in 0.10).
pub fn leader_epochs_only_grow(
    tp: &TopicPartition,
    prev: u64,
    st: &PartitionState,
) -> Option<Violation> {
    (st.leader_epoch < prev).then(|| {
        (
            LEADER_EPOCHS_ONLY_GROW.to_string(),
            format!(
                "{tp}: leader epoch went back from {prev} to {}",
                st.leader_epoch
            ),
        )
    })
}

/// [`ISR_WITHIN_ASSIGNMENT`]: every member of the partition's ISR in ZooKeeper is one of
/// `replicas`, its assignment znode's replicas (`Partition.maybeExpandIsr`,
/// `KafkaController.onPartitionReassignment`).
pub fn isr_within_assignment(
    tp: &TopicPartition,
    st: &PartitionState,
    replicas: &[BrokerId],
) -> Option<Violation> {
    let strangers: Vec<BrokerId> = st
        .isr
        .iter()
        .copied()
        .filter(|r| !replicas.contains(r))
        .collect();
    (!strangers.is_empty()).then(|| {
        (
            ISR_WITHIN_ASSIGNMENT.to_string(),
            format!(
                "{tp}: the ISR {:?} holds {strangers:?}, which the assignment {replicas:?} does not list",
                st.isr
            ),
        )
    })
}

/// [`LEADER_IN_ISR`]: a partition's leader in ZooKeeper is a member of its ISR. A clean
/// election picks a live ISR member and an unclean one makes the ISR just the leader
/// (`Election.scala` 2.4.1 and 3.9.0, `PartitionLeaderElectionAlgorithms` 2.0.1,
/// `PartitionLeaderSelector.scala` 0.10.2.2).
pub fn leader_in_isr(tp: &TopicPartition, st: &PartitionState) -> Option<Violation> {
    let l = st.leader_id()?;
    (!st.isr.contains(&l)).then(|| {
        (
            LEADER_IN_ISR.to_string(),
            format!("{tp}: leader {l} is not in the ISR {:?}", st.isr),
        )
    })
}

/// [`HW_WITHIN_ISR`]: the acting `leader`'s high watermark of `tp` is at most the log end of
/// each ISR member it is assigned (`Partition.maybeIncrementLeaderHW`, 3.9.0).
pub fn high_watermark_within_isr(
    tp: &TopicPartition,
    leader: BrokerId,
    brokers: &VecMap<BrokerId, Broker>,
) -> Vec<Violation> {
    let mut found = Vec::new();
    let r = &brokers[&leader].replicas[tp];
    let rst = r.state.as_ref().expect("acting leader");
    // Only the replicas the leader is assigned (see HW_WITHIN_ISR).
    for m in rst.isr.iter().filter(|m| rst.replicas.contains(m)) {
        let leo = brokers
            .get(m)
            .and_then(|x| x.replicas.get(tp))
            .map_or(0, |x| x.log.leo);
        if leo < r.log.hw {
            found.push((
                HW_WITHIN_ISR.to_string(),
                format!(
                    "{tp}: leader {leader}'s high watermark {} is above ISR member {m}'s log end offset {leo}",
                    r.log.hw
                ),
            ));
        }
    }
    found
}

/// [`ONE_GROUP_LEADER`]: no two consumers that completed a generation both believe they lead
/// it (`GroupMetadata` has one leader per generation; the coordinator names it in JoinGroup).
pub fn one_group_leader_per_generation(
    groups: &[GroupSpec],
    consumers: &[Consumer],
) -> Vec<Violation> {
    let mut found = Vec::new();
    if groups.is_empty() {
        return found;
    }
    for g in groups {
        let mut claims: VecMap<u32, Vec<String>> = VecMap::new();
        for c in consumers {
            // A generation is settled once its SyncGroup succeeded (the coordinator had
            // committed the group); a zombie coordinator cannot get that far.
            let settled = c.state == ConsumerState::Stable;
            if settled && c.group == g.id && c.is_leader {
                claims.entry(c.generation).or_default().push(c.name.clone());
            }
        }
        for (generation, names) in claims {
            if names.len() > 1 {
                found.push((
                    ONE_GROUP_LEADER.to_string(),
                    format!(
                        "group {}: consumers {names:?} all lead generation {generation}",
                        g.id
                    ),
                ));
            }
        }
    }
    found
}

//! The safety monitor's memory between steps, and the order in which it checks the
//! invariants of [`super::invariants`].
//!
//! The monitor runs after every step, so it keeps what it parsed: each partition's state znode
//! and each topic's assignment znode, parsed once per change (by their mzxid); the versions the
//! ZooKeeper-only invariants of a partition were last checked at; the acting leaders at the
//! last loss check; and a digest of what the partition invariants read besides ZooKeeper, so a
//! step that changed none of it checks no partition. Each violation is reported once.

use super::broker::Broker;
use super::invariants::{self, EpochsSeen, Violation};
use super::net::BrokerId;
use super::replication::Role;
use super::topic::{TopicPartition, TopicSpec};
use super::znodes::{partition_state_path, topic_path, PartitionState};
use super::zookeeper::ZooKeeper;
use std::collections::BTreeMap;

/// The monitor's memory between steps.
#[derive(Debug, Clone)]
pub struct Monitor {
    /// What the controller epoch check remembers.
    epochs: EpochsSeen,
    /// Every violation reported so far.
    reported: Vec<Violation>,
    /// Every partition, in order.
    partitions: Vec<TopicPartition>,
    /// Each partition's place in `partitions`.
    partition_index: BTreeMap<TopicPartition, usize>,
    /// Each partition's state znode path, in partition order.
    state_paths: Vec<String>,
    /// Partition states parsed from ZooKeeper, with the mzxid they were parsed at.
    zk_states: Vec<Option<(i64, PartitionState)>>,
    /// The zxid `zk_states` was refreshed at.
    zk_states_zxid: i64,
    /// Each topic's assignment znode, parsed, with the mzxid it was parsed at.
    zk_assignments: BTreeMap<String, (i64, BTreeMap<u32, Vec<BrokerId>>)>,
    /// The versions (partition state mzxid, assignment mzxid) the ZooKeeper-only invariants
    /// were last checked at, in partition order.
    zk_checked: Vec<Option<(i64, i64)>>,
    /// The newest leader epoch seen in ZooKeeper per partition, in partition order (leader
    /// epochs only grow).
    zk_leader_epochs: Vec<Option<u64>>,
    /// The acting leaders at the last loss check.
    last_leaders: Vec<Option<(BrokerId, u64)>>,
    /// ZooKeeper's zxid and the replication digest at the last partition check.
    last_digest: (i64, u64),
}

impl Monitor {
    /// A monitor of the partitions of `topics`, in order, that has seen nothing yet.
    pub fn new(topics: &[TopicSpec]) -> Monitor {
        let partitions: Vec<TopicPartition> = topics
            .iter()
            .flat_map(|t| (0..t.replicas.len() as u32).map(|p| TopicPartition::new(&t.name, p)))
            .collect();
        let n = partitions.len();
        Monitor {
            epochs: EpochsSeen::default(),
            reported: Vec::new(),
            partition_index: partitions
                .iter()
                .enumerate()
                .map(|(i, tp)| (tp.clone(), i))
                .collect(),
            state_paths: partitions
                .iter()
                .map(|tp| partition_state_path(&tp.topic, tp.partition))
                .collect(),
            partitions,
            zk_states: vec![None; n],
            zk_states_zxid: -1,
            zk_assignments: BTreeMap::new(),
            zk_checked: vec![None; n],
            zk_leader_epochs: vec![None; n],
            last_leaders: vec![None; n],
            last_digest: (-1, 0),
        }
    }

    /// Every partition, in order.
    pub fn partitions(&self) -> &[TopicPartition] {
        &self.partitions
    }

    /// The invariants of the controllers: at most one per epoch, and epochs only grow.
    pub fn check_controllers(
        &mut self,
        zk: &ZooKeeper,
        brokers: &BTreeMap<BrokerId, Broker>,
    ) -> Vec<Violation> {
        let mut found = invariants::at_most_one_controller_per_epoch(brokers);
        found.extend(invariants::controller_epochs_only_grow(
            &mut self.epochs,
            zk.controller_epoch(),
            brokers,
        ));
        found
    }

    /// Whether the partitions need checking: ZooKeeper or a live replica changed since the
    /// last check, or an acknowledgement arrived (`new_acks`). Remembers what it saw.
    pub fn partitions_changed(
        &mut self,
        zk: &ZooKeeper,
        brokers: &BTreeMap<BrokerId, Broker>,
        new_acks: bool,
    ) -> bool {
        let digest = (zk.zxid(), replication_digest(brokers));
        if digest == self.last_digest && !new_acks {
            return false;
        }
        self.last_digest = digest;
        true
    }

    /// Re-parses the partition states and topic assignments that changed since the last step.
    pub fn refresh(&mut self, zk: &ZooKeeper, topics: &[TopicSpec]) {
        if zk.zxid() == self.zk_states_zxid {
            return;
        }
        self.zk_states_zxid = zk.zxid();
        for t in topics {
            let Some(node) = zk.node(&topic_path(&t.name)) else {
                continue;
            };
            if self.zk_assignments.get(&t.name).map(|(m, _)| *m) != Some(node.stat.mzxid) {
                if let Some(a) = node.value.topic() {
                    self.zk_assignments
                        .insert(t.name.clone(), (node.stat.mzxid, a.by_partition()));
                }
            }
        }
        for (cached, path) in self.zk_states.iter_mut().zip(&self.state_paths) {
            let Some(node) = zk.node(path) else {
                continue;
            };
            if cached.as_ref().map(|(m, _)| *m) != Some(node.stat.mzxid) {
                if let Some(st) = node.value.partition_state() {
                    *cached = Some((node.stat.mzxid, st.clone()));
                }
            }
        }
    }

    /// Checks the invariants of every partition whose state is in ZooKeeper (those that read
    /// only ZooKeeper again only when the partition's state or its topic's assignment
    /// changed); returns what it found and the acting leader of each partition, in order.
    pub fn check_partitions(
        &mut self,
        brokers: &BTreeMap<BrokerId, Broker>,
    ) -> (Vec<Violation>, Vec<Option<(BrokerId, u64)>>) {
        let mut found = Vec::new();
        let mut leaders: Vec<Option<(BrokerId, u64)>> = vec![None; self.partitions.len()];
        for (i, tp) in self.partitions.iter().enumerate() {
            let Some((mzxid, st)) = self.zk_states[i].as_ref() else {
                continue;
            };
            let assignment = self.zk_assignments.get(&tp.topic);
            // What reads only ZooKeeper is checked again only when the partition's state or its
            // topic's assignment changed (a violation is reported once anyway).
            let version = (*mzxid, assignment.map_or(-1, |(m, _)| *m));
            if self.zk_checked[i] != Some(version) {
                self.zk_checked[i] = Some(version);
                let prev = self.zk_leader_epochs[i]
                    .replace(st.leader_epoch)
                    .unwrap_or(0);
                found.extend(invariants::leader_epochs_only_grow(tp, prev, st));
                if let Some(replicas) = assignment.and_then(|(_, a)| a.get(&tp.partition)) {
                    found.extend(invariants::isr_within_assignment(tp, st, replicas));
                }
                found.extend(invariants::leader_in_isr(tp, st));
            }
            // The leader's high watermark never passes what its ISR holds.
            let Some((leader, epoch)) = acting_leader_of(brokers, tp, st) else {
                continue;
            };
            leaders[i] = Some((leader, epoch));
            found.extend(invariants::high_watermark_within_isr(tp, leader, brokers));
        }
        (found, leaders)
    }

    /// The acting leaders by partition when acknowledged records must be checked for loss:
    /// they can only go missing when the acting leaders change, or when an acknowledgement
    /// arrives (it may come from a leader that has since been replaced). Remembers `leaders`.
    pub fn loss_check_due(
        &mut self,
        leaders: Vec<Option<(BrokerId, u64)>>,
        new_acks: bool,
    ) -> Option<BTreeMap<TopicPartition, (BrokerId, u64)>> {
        if leaders == self.last_leaders && !new_acks {
            return None;
        }
        let by_partition = self
            .partitions
            .iter()
            .zip(&leaders)
            .filter_map(|(tp, l)| l.map(|l| (tp.clone(), l)))
            .collect();
        self.last_leaders = leaders;
        Some(by_partition)
    }

    /// The violations not reported before (each is reported once).
    pub fn fresh(&mut self, mut found: Vec<Violation>) -> Vec<Violation> {
        found.retain(|v| !self.reported.contains(v));
        self.reported.extend(found.iter().cloned());
        found
    }

    /// ZooKeeper's partition state of `tp`, if written (the znode's value, parsed when written).
    pub fn zk_state(&self, zk: &ZooKeeper, tp: &TopicPartition) -> Option<PartitionState> {
        zk.node(&partition_state_path(&tp.topic, tp.partition))?
            .value
            .partition_state()
            .cloned()
    }

    /// The partition state parsed at the last refresh, with its mzxid.
    fn cached_zk_state(&self, tp: &TopicPartition) -> Option<&(i64, PartitionState)> {
        let i = *self.partition_index.get(tp)?;
        self.zk_states[i].as_ref()
    }

    /// The replicas of `tp` in its topic's assignment znode: from the copy parsed at the last
    /// step while ZooKeeper has not changed since, else parsed now.
    pub fn zk_assignment(&self, zk: &ZooKeeper, tp: &TopicPartition) -> Option<Vec<BrokerId>> {
        if self.zk_states_zxid == zk.zxid() {
            return self
                .zk_assignments
                .get(&tp.topic)
                .and_then(|(_, a)| a.get(&tp.partition).cloned());
        }
        zk.node(&topic_path(&tp.topic))
            .and_then(|n| n.value.topic())
            .and_then(|a| a.by_partition().remove(&tp.partition))
    }

    /// The broker that leads `tp` now: ZooKeeper names it and it has taken that leader epoch.
    pub fn acting_leader(
        &self,
        zk: &ZooKeeper,
        brokers: &BTreeMap<BrokerId, Broker>,
        tp: &TopicPartition,
    ) -> Option<(BrokerId, u64)> {
        match self.cached_zk_state(tp) {
            Some((_, st)) => acting_leader_of(brokers, tp, st),
            None => acting_leader_of(brokers, tp, &self.zk_state(zk, tp)?),
        }
    }
}

/// The broker that leads `tp` now, given ZooKeeper's state of it.
fn acting_leader_of(
    brokers: &BTreeMap<BrokerId, Broker>,
    tp: &TopicPartition,
    st: &PartitionState,
) -> Option<(BrokerId, u64)> {
    let leader = st.leader_id()?;
    let b = brokers.get(&leader)?;
    let r = b.replicas.get(tp)?.state.as_ref()?;
    (b.status.is_alive() && r.leader_epoch == st.leader_epoch && matches!(r.role, Role::Leader(_)))
        .then_some((leader, st.leader_epoch))
}

/// A cheap digest of everything the partition invariants read besides ZooKeeper: each
/// live replica's log end, high watermark, leader epoch, role and ISR.
fn replication_digest(brokers: &BTreeMap<BrokerId, Broker>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: u64| {
        h = (h ^ v).wrapping_mul(0x0100_0000_01b3);
    };
    for b in brokers.values() {
        mix(u64::from(b.id));
        mix(u64::from(b.status.is_alive()));
        for r in b.replicas.values() {
            mix(r.log.leo);
            mix(r.log.hw);
            if let Some(st) = &r.state {
                mix(st.leader_epoch);
                mix(u64::from(matches!(st.role, Role::Leader(_))));
                for m in &st.isr {
                    mix(u64::from(*m));
                }
            }
        }
    }
    h
}

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
use crate::collections::{VecMap, VecSet};

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
    partition_index: VecMap<TopicPartition, usize>,
    /// Each partition's state znode path, in partition order.
    state_paths: Vec<String>,
    /// Partition states parsed from ZooKeeper, with the mzxid they were parsed at.
    zk_states: Vec<Option<(i64, PartitionState)>>,
    /// The zxid `zk_states` was refreshed at.
    zk_states_zxid: i64,
    /// Each topic's assignment znode, parsed, with the mzxid it was parsed at.
    zk_assignments: VecMap<String, (i64, VecMap<u32, Vec<BrokerId>>)>,
    /// The versions (partition state mzxid, assignment mzxid) the ZooKeeper-only invariants
    /// were last checked at, in partition order.
    zk_checked: Vec<Option<(i64, i64)>>,
    /// The newest leader epoch seen in ZooKeeper per partition, in partition order (leader
    /// epochs only grow).
    zk_leader_epochs: Vec<Option<u64>>,
    /// ZooKeeper's zxid at the last partition check.
    last_zxid: i64,
    /// What the partition checks read of each broker's replicas at the last partition check
    /// ([`BrokerSeen`]).
    checked: VecMap<BrokerId, BrokerSeen>,
    /// The brokers changed since the last partition check (the world names each broker it
    /// lent out mutably), with what they hold now.
    unchecked: VecMap<BrokerId, BrokerSeen>,
    /// The acting leader of each partition at the last partition check, in partition order.
    checked_leaders: Vec<Option<(BrokerId, u64)>>,
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
            zk_assignments: VecMap::new(),
            zk_checked: vec![None; n],
            zk_leader_epochs: vec![None; n],
            last_zxid: -1,
            checked: VecMap::new(),
            unchecked: VecMap::new(),
            checked_leaders: vec![None; n],
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
        brokers: &VecMap<BrokerId, Broker>,
    ) -> Vec<Violation> {
        let mut found = invariants::at_most_one_controller_per_epoch(brokers);
        found.extend(invariants::controller_epochs_only_grow(
            &mut self.epochs,
            zk.controller_epoch(),
            brokers,
        ));
        found
    }

    /// Whether the partitions need checking: ZooKeeper or a replica changed since the last
    /// check, or an acknowledgement arrived (`new_acks`). `touched` names the brokers the step
    /// may have changed; no other broker is read. Remembers what it saw.
    ///
    /// What counts as a change of the replicas is what the checks before this one compared:
    /// a broker's liveness, and each replica's log end, high watermark, leader epoch, role
    /// and ISR (the digest). A change only in a replica's assigned replicas is picked up at
    /// the next check, as it was.
    pub fn partitions_changed(
        &mut self,
        zk: &ZooKeeper,
        brokers: &VecMap<BrokerId, Broker>,
        touched: &VecSet<BrokerId>,
        new_acks: bool,
    ) -> bool {
        for id in touched {
            if let Some(b) = brokers.get(id) {
                let then = self.checked.get(id);
                let now = BrokerSeen::of(b, then, &self.partitions, &self.partition_index);
                self.unchecked.insert(*id, now);
            }
        }
        let replicas_changed = self.unchecked.iter().any(|(id, now)| {
            self.checked
                .get(id)
                .is_none_or(|then| then.digest_differs(now))
        });
        if !replicas_changed && zk.zxid() == self.last_zxid && !new_acks {
            return false;
        }
        self.last_zxid = zk.zxid();
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

    /// Checks the invariants of every partition whose state is in ZooKeeper; returns what it
    /// found and whether any partition's acting leader changed ([`Monitor::checked_leader`]
    /// tells each).
    ///
    /// A partition is checked again only when what its checks read changed since the last
    /// check: its state or its topic's assignment in ZooKeeper (the checks that read only
    /// ZooKeeper), or one of its replicas on a broker (the acting leader and the high
    /// watermark check). Any other partition would give what it gave last time: its leader is
    /// kept, and its violations were reported then.
    pub fn check_partitions(
        &mut self,
        brokers: &VecMap<BrokerId, Broker>,
    ) -> (Vec<Violation>, bool) {
        let replicas_changed = self.replicas_changed();
        let mut found = Vec::new();
        let mut leaders_changed = false;
        for (i, tp) in self.partitions.iter().enumerate() {
            let Some((mzxid, st)) = self.zk_states[i].as_ref() else {
                continue;
            };
            let assignment = self.zk_assignments.get(&tp.topic);
            let version = (*mzxid, assignment.map_or(-1, |(m, _)| *m));
            let zk_changed = self.zk_checked[i] != Some(version);
            if zk_changed {
                self.zk_checked[i] = Some(version);
                let prev = self.zk_leader_epochs[i]
                    .replace(st.leader_epoch)
                    .unwrap_or(0);
                found.extend(invariants::leader_epochs_only_grow(tp, prev, st));
                if let Some(replicas) = assignment.and_then(|(_, a)| a.get(&tp.partition)) {
                    found.extend(invariants::isr_within_assignment(tp, st, replicas));
                }
                found.extend(invariants::leader_in_isr(tp, st));
            } else if !replicas_changed[i] {
                continue;
            }
            let leader = acting_leader_of(brokers, tp, st);
            leaders_changed |= leader != self.checked_leaders[i];
            self.checked_leaders[i] = leader;
            // The leader's high watermark never passes what its ISR holds.
            if let Some((leader, _)) = leader {
                found.extend(invariants::high_watermark_within_isr(tp, leader, brokers));
            }
        }
        #[cfg(debug_assertions)]
        self.assert_same_as_full_check(brokers, &found);
        (found, leaders_changed)
    }

    /// In debug builds (every test), the partial check against a full one: the same acting
    /// leaders, and every violation a full check finds either found now or reported before.
    #[cfg(debug_assertions)]
    fn assert_same_as_full_check(&self, brokers: &VecMap<BrokerId, Broker>, found: &[Violation]) {
        for (i, tp) in self.partitions.iter().enumerate() {
            let Some((_, st)) = self.zk_states[i].as_ref() else {
                continue;
            };
            let leader = acting_leader_of(brokers, tp, st);
            assert_eq!(leader, self.checked_leaders[i], "acting leader of {tp}");
            if let Some((leader, _)) = leader {
                for v in invariants::high_watermark_within_isr(tp, leader, brokers) {
                    assert!(
                        found.contains(&v) || self.reported.contains(&v),
                        "{v:?} missed by the partial check"
                    );
                }
            }
        }
    }

    /// Which partitions, in partition order, have a replica that changed in what the checks
    /// read since the last check, or a replica added or removed; then remembers the brokers
    /// changed since as the last check's.
    fn replicas_changed(&mut self) -> Vec<bool> {
        let mut changed = vec![false; self.partitions.len()];
        for (id, now) in std::mem::take(&mut self.unchecked) {
            match self.checked.get(&id) {
                Some(then) => then.changed_places(&now, &mut changed),
                None => now.mark_all(&mut changed),
            }
            self.checked.insert(id, now);
        }
        changed
    }

    /// The acting leader of `tp` at the last partition check.
    pub fn checked_leader(&self, tp: &TopicPartition) -> Option<(BrokerId, u64)> {
        self.checked_leaders[*self.partition_index.get(tp)?]
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
        brokers: &VecMap<BrokerId, Broker>,
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
    brokers: &VecMap<BrokerId, Broker>,
    tp: &TopicPartition,
    st: &PartitionState,
) -> Option<(BrokerId, u64)> {
    let leader = st.leader_id()?;
    let b = brokers.get(&leader)?;
    let r = b.replicas.get(tp)?.state.as_ref()?;
    (b.status.is_alive() && r.leader_epoch == st.leader_epoch && matches!(r.role, Role::Leader(_)))
        .then_some((leader, st.leader_epoch))
}

/// What the partition checks read of one broker's replicas, in its replica order.
#[derive(Debug, Clone, PartialEq)]
struct BrokerSeen {
    alive: bool,
    replicas: Vec<ReplicaSeen>,
}

/// What the partition checks read of one replica.
#[derive(Debug, Clone, PartialEq)]
struct ReplicaSeen {
    /// The partition's place in the monitor's partitions (`None` for one it does not know).
    place: Option<usize>,
    /// The log end, high watermark, leader epoch, role and ISR, digested.
    digest: u64,
    /// The digest with the replicas its state names.
    all: u64,
}

impl BrokerSeen {
    /// What `b` holds now. The places are those of `then` (what it held at the last check)
    /// while it holds the same partitions in the same order, else looked up in `index`.
    fn of(
        b: &Broker,
        then: Option<&BrokerSeen>,
        partitions: &[TopicPartition],
        index: &VecMap<TopicPartition, usize>,
    ) -> BrokerSeen {
        let mut kept = then.map(|t| t.replicas.iter().map(|r| r.place));
        BrokerSeen {
            alive: b.status.is_alive(),
            replicas: b
                .replicas
                .iter()
                .map(|(tp, r)| {
                    let known = kept.as_mut().and_then(|k| k.next()).flatten();
                    let place = match known {
                        Some(i) if partitions[i] == *tp => Some(i),
                        _ => index.get(tp).copied(),
                    };
                    let mut digest = Digest::new();
                    digest.mix(r.log.leo);
                    digest.mix(r.log.hw);
                    let mut all = digest;
                    if let Some(st) = &r.state {
                        digest.mix(st.leader_epoch);
                        digest.mix(u64::from(matches!(st.role, Role::Leader(_))));
                        for m in &st.isr {
                            digest.mix(u64::from(*m));
                        }
                        all = digest;
                        all.mix(u64::MAX);
                        for m in &st.replicas {
                            all.mix(u64::from(*m));
                        }
                    }
                    ReplicaSeen {
                        place,
                        digest: digest.0,
                        all: all.0,
                    }
                })
                .collect(),
        }
    }

    /// Whether the broker holds other partitions than `now` does (compared by place: the
    /// same partitions in the same order).
    fn other_partitions(&self, now: &BrokerSeen) -> bool {
        self.replicas.len() != now.replicas.len()
            || self
                .replicas
                .iter()
                .zip(&now.replicas)
                .any(|(a, b)| a.place != b.place)
    }

    /// Whether the digest of the replicas differs between `self` (then) and `now`.
    fn digest_differs(&self, now: &BrokerSeen) -> bool {
        self.alive != now.alive
            || self.other_partitions(now)
            || self
                .replicas
                .iter()
                .zip(&now.replicas)
                .any(|(a, b)| a.digest != b.digest)
    }

    /// Marks the places of the partitions whose replica here changed between `self` (then)
    /// and `now` in anything the checks read, or was added or removed.
    fn changed_places(&self, now: &BrokerSeen, changed: &mut [bool]) {
        if self.alive != now.alive || self.other_partitions(now) {
            self.mark_all(changed);
            now.mark_all(changed);
            return;
        }
        for (a, b) in self.replicas.iter().zip(&now.replicas) {
            if a.all != b.all {
                if let Some(i) = b.place {
                    changed[i] = true;
                }
            }
        }
    }

    /// Marks the places of all its partitions.
    fn mark_all(&self, changed: &mut [bool]) {
        for i in self.replicas.iter().filter_map(|r| r.place) {
            changed[i] = true;
        }
    }
}

/// A running digest of numbers (FNV-1a's mixing, a number at a time).
#[derive(Debug, Clone, Copy)]
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn mix(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x0100_0000_01b3);
    }
}

//! Controller failover after the election (`KafkaController.onControllerFailover`): the topics
//! and reassignments in progress are read, every partition's state is loaded, every broker
//! hears the cluster metadata and the first rebalance check is scheduled; and topic creation
//! (`/brokers/topics` watched: `onNewPartitionCreation`).

use super::broker_changes::parse_brokers;
use super::causes::{ControllerCause, OfflineWhy};
use super::queue::{online_partition_state_change, Phase, Reason, Task};
use super::reassignment::Reassignment;
use super::timers::ControllerTimer;
use super::Controller;
use crate::collections::{VecMap, VecSet};
use crate::sim::event::EventKind;
use crate::sim::message::{OpResult, Timer, ZkError, ZkOp};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::{topic_path, ReassignPartitions, TopicAssignment};

impl Controller<'_> {
    /// The live brokers and their epochs, read at failover: then the topics. An answer to a
    /// controller that has since resigned (or been re-elected) is void.
    pub(super) fn on_brokers_loaded(&mut self, epoch: u64, result: Result<OpResult, ZkError>) {
        if self.role.epoch != epoch {
            return;
        }
        let Ok(OpResult::Children(children)) = result else {
            return;
        };
        self.role.live = parse_brokers(&children);
        self.push_task(Task::LoadTopics);
    }

    pub(super) fn on_list_topics(&mut self, task: Task, results: Vec<Result<OpResult, ZkError>>) {
        let mut it = results.into_iter();
        let topics: Vec<String> = match it.next() {
            Some(Ok(OpResult::Children(c))) => c.into_iter().map(|(n, _)| n).collect(),
            _ => Vec::new(),
        };
        let notifications = matches!(it.next(), Some(Ok(OpResult::Children(c))) if !c.is_empty());
        if notifications {
            self.push_front(vec![Task::IsrNotification]);
        }
        // Before 2.4 the reassignments in progress are in /admin/reassign_partitions
        // (`initializePartitionReassignment`, 2.0.1).
        if let Some(Ok(OpResult::Node(Some(n)))) = it.next() {
            if let Some(list) = ReassignPartitions::from_json(&n.data) {
                let ctx = &mut self.role.partitions;
                for p in list.partitions {
                    ctx.recovered.insert(
                        TopicPartition::new(&p.topic, p.partition),
                        (None, p.replicas),
                    );
                }
            }
        }
        let known: VecSet<String> = self.role.partitions.topics.keys().cloned().collect();
        let new: Vec<String> = topics.into_iter().filter(|t| !known.contains(t)).collect();
        if new.is_empty() && task != Task::LoadTopics {
            return;
        }
        let op = ZkOp::Batch(
            new.iter()
                .map(|t| ZkOp::Exists {
                    path: topic_path(t),
                    watch: false,
                })
                .collect(),
        );
        self.zk_step(task, Phase::ReadTopics(new), 0, op);
    }

    pub(super) fn on_read_topics(
        &mut self,
        task: Task,
        topics: Vec<String>,
        results: Vec<Result<OpResult, ZkError>>,
    ) {
        let mut new_tps = Vec::new();
        for (t, r) in topics.iter().zip(results) {
            let Ok(OpResult::Node(Some(n))) = r else {
                continue;
            };
            let Some(a) = TopicAssignment::from_json(&n.data) else {
                continue;
            };
            let parts: Vec<Vec<BrokerId>> = a.by_partition().into_values().collect();
            for p in 0..parts.len() as u32 {
                new_tps.push(TopicPartition::new(t, p));
            }
            // From 2.4 a reassignment in progress is in the assignment znode itself: the
            // replicas being added and removed (`initializePartitionReassignments`, 3.9.0).
            if task == Task::LoadTopics {
                let key_of = |m: &VecMap<String, Vec<BrokerId>>| -> Vec<(u32, Vec<BrokerId>)> {
                    m.iter()
                        .filter_map(|(p, r)| p.parse().ok().map(|p| (p, r.clone())))
                        .collect()
                };
                let adding: VecMap<u32, Vec<BrokerId>> =
                    key_of(&a.adding_replicas).into_iter().collect();
                let removing: VecMap<u32, Vec<BrokerId>> =
                    key_of(&a.removing_replicas).into_iter().collect();
                let moving: VecSet<u32> = adding.keys().chain(removing.keys()).copied().collect();
                let ctx = &mut self.role.partitions;
                for p in moving {
                    let Some(rs) = parts.get(p as usize) else {
                        continue;
                    };
                    let (add, rem) = (
                        adding.get(&p).cloned().unwrap_or_default(),
                        removing.get(&p).cloned().unwrap_or_default(),
                    );
                    let original: Vec<BrokerId> =
                        rs.iter().copied().filter(|r| !add.contains(r)).collect();
                    let target: Vec<BrokerId> =
                        rs.iter().copied().filter(|r| !rem.contains(r)).collect();
                    ctx.recovered
                        .insert(TopicPartition::new(t, p), (Some(original), target));
                }
            }
            if task == Task::TopicsChanged {
                self.out.event(
                    EventKind::TopicCreated {
                        topic: t.clone(),
                        partitions: parts.len() as u32,
                        controller: self.me,
                    },
                    ControllerCause::TopicCreated,
                );
            }
            let ctx = &mut self.role.partitions;
            ctx.topics.insert(t.clone(), parts);
        }
        if task == Task::LoadTopics {
            // Read every partition's state, then finish the failover.
            let all = self.role.partitions.partitions();
            self.read_states(Task::LoadTopics, all, 0);
        } else {
            // onNewPartitionCreation: the first live replica leads, the live replicas are the ISR.
            self.push_front(vec![Task::Elect {
                reason: Reason::NewPartition,
                partitions: Some(new_tps),
            }]);
        }
    }

    /// The end of `onControllerFailover`: tell every broker, move dead replicas offline
    /// (2.4+), elect, send LeaderAndIsr to every live replica, schedule the first rebalance
    /// check 5 s later.
    pub(super) fn finish_failover(&mut self) {
        let live = self.live_set();
        let ctx = &mut self.role.partitions;
        ctx.loaded = true;
        let mut dead: VecSet<BrokerId> = VecSet::new();
        for a in ctx.topics.values().flatten() {
            for r in a {
                if !live.contains(r) {
                    dead.insert(*r);
                }
            }
        }
        let mut tasks = Vec::new();
        if self.settings.profile.offlines_dead_replicas_on_failover() {
            for b in dead {
                tasks.push(Task::OfflineReplica {
                    broker: b,
                    why: OfflineWhy::Failover,
                    partitions: None,
                });
            }
        }
        tasks.extend(online_partition_state_change());
        // The reassignments in progress carry on under this controller.
        let recovered = std::mem::take(&mut self.role.partitions.recovered);
        for (tp, (original, target)) in recovered {
            let ctx = &mut self.role.partitions;
            let Some(current) = ctx.assignment(&tp).cloned() else {
                continue;
            };
            if target.iter().all(|r| current.contains(r)) {
                let original = original.unwrap_or(current);
                ctx.reassigning
                    .insert(tp.clone(), Reassignment { original, target });
                tasks.push(Task::ReassignStep { tp, resume: true });
            } else {
                tasks.push(Task::Reassign { tp, target });
            }
        }
        self.push_front(tasks);
        self.broadcast_metadata();
        // ReplicaStateMachine.startup: every live replica hears its partition's state.
        let all = self.role.partitions.partitions();
        self.send_leader_and_isr(&all, None);
        if self.settings.auto_leader_rebalance_enable {
            {
                let epoch = self.role.epoch;
                self.out.timer(
                    self.now + 5_000,
                    Endpoint::Broker(self.me),
                    Timer::Controller(ControllerTimer::RebalanceCheck { epoch }),
                );
            }
        }
    }
}

//! Partition reassignment (`KafkaController.onPartitionReassignment`, KIP-455 from 2.4): the
//! assignment znode lists target and original replicas until every target replica is in the
//! ISR, then the leader moves if it must, the removed replicas leave the ISR one write at a
//! time and are deleted, and the assignment znode names the target alone.

use super::causes::{ControllerCause, OfflineWhy};
use super::channels::Req;
use super::queue::{Phase, Task};
use super::{Controller, Exit, Known};
use crate::collections::VecMap;
use crate::sim::config::ReassignPath;
use crate::sim::election;
use crate::sim::event::EventKind;
use crate::sim::message::{KafkaError, OpResult, ZkError, ZkOp};
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::{
    fenced, topic_path, ReassignPartitions, TopicAssignment, REASSIGN_PARTITIONS_PATH,
};

/// A partition reassignment in progress (`ReplicaAssignment` with its adding and removing
/// replicas, KIP-455).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reassignment {
    /// The replicas before the move (ORS).
    pub original: Vec<BrokerId>,
    /// The replicas after it (TRS).
    pub target: Vec<BrokerId>,
}

impl Reassignment {
    /// The replicas being removed (ORS − TRS), in original order.
    pub fn removing(&self) -> Vec<BrokerId> {
        self.original
            .iter()
            .copied()
            .filter(|r| !self.target.contains(r))
            .collect()
    }

    /// Whether every target replica is in `isr` (`isReassignmentComplete`, 3.9.0).
    pub fn is_complete_in(&self, isr: &[BrokerId]) -> bool {
        self.target.iter().all(|r| isr.contains(r))
    }

    /// The replicas being added (TRS − ORS), in target order.
    pub fn adding(&self) -> Vec<BrokerId> {
        self.target
            .iter()
            .copied()
            .filter(|r| !self.original.contains(r))
            .collect()
    }
}

/// The assignment znode of `topic` as `updateReplicaAssignmentForPartition` writes it: every
/// partition's replica list and, from 2.4, the adding and removing replicas of each of the
/// topic's reassignments in progress (`partitionFullReplicaAssignmentForTopic`, 3.9.0).
fn assignment_znode(
    topic: &str,
    parts: &[Vec<BrokerId>],
    reassigning: &VecMap<TopicPartition, Reassignment>,
    with_moves: bool,
) -> TopicAssignment {
    let mut a = TopicAssignment::new(parts);
    if with_moves {
        for (tp, re) in reassigning.iter().filter(|(tp, _)| tp.topic == topic) {
            let (adding, removing) = (re.adding(), re.removing());
            if !adding.is_empty() {
                a.adding_replicas.insert(tp.partition.to_string(), adding);
            }
            if !removing.is_empty() {
                a.removing_replicas
                    .insert(tp.partition.to_string(), removing);
            }
        }
    }
    a
}

impl Controller<'_> {
    /// `onPartitionReassignment` begins (`updateCurrentReassignment`, U1 and U2; 3.9.0 and
    /// 2.4.1; steps 1 to 3 of 2.0.1 and 0.10.2.2): the assignment znode lists the target followed
    /// by the original replicas not in it (see [`election::reassignment_replicas`]), with the
    /// adding and removing replicas from 2.4. What follows is a [`Task::ReassignStep`].
    pub(super) fn begin_reassignment(&mut self, tp: TopicPartition, target: Vec<BrokerId>) {
        let live = self.live_set();
        let role = &*self.role;
        let target_first = role.profile.lists_reassignment_target_first();
        let ctx = &role.partitions;
        let Some(original) = ctx.assignment(&tp).cloned() else {
            return;
        };
        if role.profile.reassigns_through() == ReassignPath::Api {
            // processApiPartitionReassignment → validateReplicas (3.9.0): the replicas the move
            // adds must be among `controllerContext.liveBrokerIds` (registered, not shutting
            // down); else INVALID_REPLICA_ASSIGNMENT, and nothing is written.
            let live: Vec<BrokerId> = live
                .iter()
                .copied()
                .filter(|b| !ctx.shutting_down.contains(b))
                .collect();
            let not_live: Vec<BrokerId> = target
                .iter()
                .copied()
                .filter(|r| !original.contains(r) && !live.contains(r))
                .collect();
            if !not_live.is_empty() {
                let me = self.me;
                self.out.event(
                    EventKind::ReassignmentRefused {
                        partition: tp.to_string(),
                        target,
                        error: KafkaError::InvalidReplicaAssignment.name().into(),
                        controller: Some(me),
                    },
                    ControllerCause::ReassignmentRefused { not_live, live },
                );
                return;
            }
        }
        let Some(mut parts) = ctx.topics.get(&tp.topic).cloned() else {
            return;
        };
        let re = Reassignment {
            original: original.clone(),
            target: target.clone(),
        };
        parts[tp.partition as usize] =
            election::reassignment_replicas(&original, &target, target_first);
        let mut reassigning = ctx.reassigning.clone();
        reassigning.insert(tp.clone(), re.clone());
        let a = assignment_znode(&tp.topic, &parts, &reassigning, target_first);
        let op = self.fenced_write(ZkOp::SetData {
            path: topic_path(&tp.topic),
            data: a.to_json(),
            version: None,
        });
        let ctx = &mut self.role.partitions;
        ctx.reassigning.insert(tp.clone(), re);
        self.zk_step(
            Task::Reassign { tp, target },
            Phase::WriteAssignment(a),
            0,
            op,
        );
    }

    fn fenced_write(&self, write: ZkOp) -> ZkOp {
        fenced(self.role.profile, self.role.epoch_zk_version, write)
    }

    // Not inlined: a step a first view does not take, which the page's build then leaves to the
    // module's second part.
    #[inline(never)]
    pub(super) fn on_assignment_written(
        &mut self,
        task: Task,
        assignment: TopicAssignment,
        results: Vec<Result<OpResult, ZkError>>,
    ) {
        if matches!(results.first(), Some(Err(ZkError::CheckFailed))) {
            self.exit = Some(Exit::Moved(ControllerCause::FencedAssignmentWriteFailed));
            return;
        }
        if !matches!(results.first(), Some(Ok(_))) {
            return;
        }
        let me = self.me;
        match task {
            Task::Reassign { tp, target } => {
                let ctx = &mut self.role.partitions;
                ctx.topics.insert(
                    tp.topic.clone(),
                    assignment.by_partition().into_values().collect(),
                );
                self.out.event(
                    EventKind::ReassignmentStarted {
                        partition: tp.to_string(),
                        controller: me,
                        target,
                    },
                    ControllerCause::ReassignmentStarted,
                );
                self.push_front(vec![Task::ReassignStep { tp, resume: true }]);
                self.broadcast_metadata();
            }
            Task::ReassignDone { tp } => {
                let Some(re) = self.role.partitions.reassigning.remove(&tp) else {
                    return;
                };
                let removed = re.removing();
                self.out.event(
                    EventKind::ReassignmentCompleted {
                        partition: tp.to_string(),
                        controller: me,
                        replicas: re.target,
                    },
                    ControllerCause::ReassignmentCompleted { removed },
                );
                self.broadcast_metadata();
            }
            _ => {}
        }
    }

    /// B2 of `onPartitionReassignment`, once every target replica is in the ISR (`read` is the
    /// state just read from ZooKeeper, as `isReassignmentComplete` reads it): the replica list
    /// becomes the target in memory, and after this step's leader change come one
    /// OfflineReplica per replica being removed (B4: each leaves the ISR with its own write and
    /// leader-epoch bump) and the final [`Task::ReassignDone`].
    pub(super) fn maybe_complete_reassignment(
        &mut self,
        tp: &TopicPartition,
        read: Option<&Known>,
    ) {
        let ctx = &mut self.role.partitions;
        let Some(re) = ctx.reassigning.get(tp).cloned() else {
            return;
        };
        let in_sync = read.is_some_and(|k| re.is_complete_in(&k.state.isr));
        if !in_sync || ctx.tasks.contains(&Task::ReassignDone { tp: tp.clone() }) {
            return;
        }
        if let Some(parts) = ctx.topics.get_mut(&tp.topic) {
            parts[tp.partition as usize] = re.target.clone();
        }
        let mut tasks: Vec<Task> = re
            .removing()
            .into_iter()
            .map(|r| Task::OfflineReplica {
                broker: r,
                why: OfflineWhy::Reassignment,
                partitions: Some(vec![tp.clone()]),
            })
            .collect();
        tasks.push(Task::ReassignDone { tp: tp.clone() });
        self.push_front(tasks);
    }

    /// Queues a [`Task::ReassignStep`] once the ISR the controller knows holds every target
    /// replica (after a leader's ISR change: `processPartitionReassignmentIsrChange` /
    /// `maybeCompleteReassignment`).
    pub(super) fn maybe_queue_reassignment_step(&mut self, tp: &TopicPartition) {
        let ctx = &mut self.role.partitions;
        let Some(re) = ctx.reassigning.get(tp) else {
            return;
        };
        let in_sync = ctx
            .states
            .get(tp)
            .is_some_and(|k| re.is_complete_in(&k.state.isr));
        let step = Task::ReassignStep {
            tp: tp.clone(),
            resume: false,
        };
        if in_sync && !ctx.tasks.contains(&step) {
            ctx.tasks.push_back(step);
        }
    }

    /// B5 and B6: the removed replicas are deleted (StopReplica with delete) and the assignment
    /// znode gets the target alone.
    pub(super) fn finish_reassignment(&mut self, tp: TopicPartition) {
        let ctx = &mut self.role.partitions;
        let Some(re) = ctx.reassigning.get(&tp).cloned() else {
            return;
        };
        let Some(mut parts) = ctx.topics.get(&tp.topic).cloned() else {
            return;
        };
        parts[tp.partition as usize] = re.target.clone();
        let mut others = ctx.reassigning.clone();
        others.remove(&tp);
        let a = assignment_znode(
            &tp.topic,
            &parts,
            &others,
            self.settings.profile.lists_reassignment_target_first(),
        );
        let live = self.live_set();
        for r in re.removing() {
            if live.contains(&r) {
                self.enqueue(r, Req::StopReplica(vec![tp.clone()], true));
            }
        }
        let mut ops = vec![self.fenced_write(ZkOp::SetData {
            path: topic_path(&tp.topic),
            data: a.to_json(),
            version: None,
        })];
        if self.settings.profile.reassigns_through() == ReassignPath::Api {
            // Through the API (3.x) the assignment znode is the only record of the move.
        } else {
            let ctx = &mut self.role.partitions;

            // Through the tool: `removePartitionsFromReassignedPartitions` (2.0.1) or
            // `maybeRemoveFromZkReassignment` (2.4.1) writes the ones left, or deletes
            // /admin/reassign_partitions when none is.
            let mut left = ReassignPartitions {
                version: 1,
                partitions: Vec::new(),
            };
            for (other, re) in &ctx.reassigning {
                if *other != tp {
                    left.put(&other.topic, other.partition, re.target.clone());
                }
            }
            ops.push(if left.partitions.is_empty() {
                ZkOp::Delete {
                    path: REASSIGN_PARTITIONS_PATH.into(),
                }
            } else {
                ZkOp::SetData {
                    path: REASSIGN_PARTITIONS_PATH.into(),
                    data: left.to_json(),
                    version: None,
                }
            });
        }
        let op = if ops.len() == 1 {
            ops.remove(0)
        } else {
            ZkOp::Batch(ops)
        };
        self.zk_step(Task::ReassignDone { tp }, Phase::WriteAssignment(a), 0, op);
    }
}

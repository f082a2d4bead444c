//! The partition state machine at work (`PartitionStateMachine`, `ReplicaStateMachine`): an
//! event reads the partition states it touches, computes the new ones (elections,
//! OfflineReplica, an AlterPartition, a reassignment step) and writes them, each with a
//! conditional `setData` on the state's zkVersion, fenced from 2.1 by a check of
//! `/controller_epoch` (see [`crate::sim::znodes::fenced`]).

use super::causes::{ControllerCause, EpochBump, Offlined};
use super::queue::{Change, Phase, Reason, Task};
use super::{Controller, Exit, Known};
use crate::collections::VecMap;
use crate::sim::election;
use crate::sim::event::{ElectionReason, EventKind};
use crate::sim::message::{Body, IsrProposal, KafkaError, OpResult, ZkError, ZkOp};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::{fenced, partition_state_path, PartitionState};

impl Controller<'_> {
    pub(super) fn on_read_states(
        &mut self,
        task: Task,
        tps: Vec<TopicPartition>,
        results: Vec<Result<OpResult, ZkError>>,
        retries: u32,
    ) {
        let mut read: VecMap<TopicPartition, Known> = VecMap::new();
        for (tp, r) in tps.iter().zip(results) {
            if let Ok(OpResult::Node(Some(n))) = r {
                if let Some(state) = PartitionState::from_json(&n.data) {
                    read.insert(
                        tp.clone(),
                        Known {
                            state,
                            version: n.stat.version,
                        },
                    );
                }
            }
        }
        let ctx = &mut self.role.partitions;
        for (tp, k) in &read {
            ctx.states.insert(tp.clone(), k.clone());
        }
        if task == Task::LoadTopics {
            self.finish_failover();
            return;
        }
        if task == Task::IsrNotification {
            // processIsrChangeNotification: the leaders changed these ISRs; tell every broker.
            for tp in &tps {
                self.maybe_queue_reassignment_step(tp);
            }
            self.broadcast_metadata();
            return;
        }
        if let Task::ReassignStep { tp, .. } = &task {
            self.maybe_complete_reassignment(tp, read.get(tp));
        }
        let changes = self.compute(&task, &tps, &read);
        if changes.is_empty() {
            return;
        }
        let (profile, zkv) = (self.settings.profile, self.role.epoch_zk_version);
        let op = ZkOp::Batch(
            changes
                .iter()
                .map(|c| {
                    let path = partition_state_path(&c.tp.topic, c.tp.partition);
                    let write = match c.version {
                        Some(v) => ZkOp::SetData {
                            path,
                            data: c.new.to_json(),
                            version: Some(v),
                        },
                        None => ZkOp::Create {
                            path,
                            data: c.new.to_json(),
                            ephemeral: false,
                        },
                    };
                    fenced(profile, zkv, write)
                })
                .collect(),
        );
        self.zk_step(task, Phase::Write(changes), retries, op);
    }

    /// What a task changes, from the states just read.
    fn compute(
        &mut self,
        task: &Task,
        tps: &[TopicPartition],
        read: &VecMap<TopicPartition, Known>,
    ) -> Vec<Change> {
        let me = self.me;
        let live = self.live_set();
        let role = &*self.role;
        let epoch = role.epoch;
        let ctx = &role.partitions;
        let mut changes = Vec::new();
        let mut failed: Vec<(TopicPartition, Vec<BrokerId>)> = Vec::new();
        let mut answer = None;
        for tp in tps {
            let Some(assignment) = ctx.assignment(tp).cloned() else {
                continue;
            };
            let Some(k) = read.get(tp) else {
                // No state znode yet: a new partition (NewPartition -> OnlinePartition).
                if matches!(
                    task,
                    Task::Elect {
                        reason: Reason::NewPartition,
                        ..
                    }
                ) {
                    let isr: Vec<BrokerId> = assignment
                        .iter()
                        .copied()
                        .filter(|r| live.contains(r))
                        .collect();
                    if let Some(&leader) = isr.first() {
                        let new = PartitionState {
                            controller_epoch: epoch,
                            leader: leader as i64,
                            version: 1,
                            leader_epoch: 0,
                            isr: isr.clone(),
                        };
                        changes.push(Change {
                            tp: tp.clone(),
                            event: EventKind::LeaderElected {
                                partition: tp.to_string(),
                                leader: leader as i64,
                                leader_epoch: 0,
                                isr,
                                reason: ElectionReason::NewPartition,
                                controller: me,
                                controller_epoch: epoch,
                            },
                            cause: ControllerCause::NewPartition,
                            new,
                            version: None,
                        });
                    }
                }
                continue;
            };
            let s = &k.state;
            let leader = s.leader_id();
            let bump = |leader: i64, isr: Vec<BrokerId>| PartitionState {
                controller_epoch: epoch,
                leader,
                version: 1,
                leader_epoch: s.leader_epoch + 1,
                isr,
            };
            match task {
                Task::Elect { reason, .. } => {
                    let (elected, why) = match reason {
                        Reason::NewPartition => continue,
                        Reason::Offline | Reason::UncleanEnabled => {
                            if leader.is_some_and(|l| live.contains(&l)) {
                                continue;
                            }
                            let unclean = self.settings.topic_unclean(&tp.topic);
                            match election::offline(&assignment, &s.isr, &live, unclean) {
                                Some(e) => {
                                    let why = if e.unclean {
                                        EpochBump::Unclean { isr: s.isr.clone() }
                                    } else {
                                        match leader {
                                            Some(l) => EpochBump::LeaderGone {
                                                leader: l,
                                                assignment: assignment.clone(),
                                            },
                                            None => EpochBump::NoLeader {
                                                assignment: assignment.clone(),
                                            },
                                        }
                                    };
                                    (e, why)
                                }
                                None => {
                                    if !s.isr.is_empty() {
                                        failed.push((tp.clone(), s.isr.clone()));
                                    }
                                    continue;
                                }
                            }
                        }
                        Reason::Preferred { automatic } => {
                            if assignment.first().map(|&p| p as i64) == Some(s.leader) {
                                continue;
                            }
                            match election::preferred(&assignment, &s.isr, &live) {
                                Some(e) => (
                                    e,
                                    if *automatic {
                                        EpochBump::PreferredAutomatic {
                                            assignment: assignment.clone(),
                                        }
                                    } else {
                                        EpochBump::PreferredRequested {
                                            assignment: assignment.clone(),
                                        }
                                    },
                                ),
                                None => continue,
                            }
                        }
                        Reason::ControlledShutdown(b) => {
                            if s.leader != *b as i64 || assignment.len() < 2 {
                                continue;
                            }
                            match election::controlled_shutdown(
                                &assignment,
                                &s.isr,
                                &live,
                                &ctx.shutting_down,
                            ) {
                                Some(e) => (e, EpochBump::ControlledShutdown { broker: *b }),
                                None => continue,
                            }
                        }
                    };
                    let reason_name = match reason {
                        _ if elected.unclean => ElectionReason::Unclean,
                        Reason::NewPartition => ElectionReason::NewPartition,
                        Reason::Offline | Reason::UncleanEnabled => ElectionReason::Offline,
                        Reason::Preferred { .. } => ElectionReason::Preferred,
                        Reason::ControlledShutdown(_) => ElectionReason::ControlledShutdown,
                    };
                    let new = bump(elected.leader as i64, elected.isr.clone());
                    changes.push(Change {
                        tp: tp.clone(),
                        event: EventKind::LeaderElected {
                            partition: tp.to_string(),
                            leader: elected.leader as i64,
                            leader_epoch: new.leader_epoch,
                            isr: elected.isr,
                            reason: reason_name,
                            controller: me,
                            controller_epoch: epoch,
                        },
                        cause: ControllerCause::EpochBumped { why },
                        new,
                        version: Some(k.version),
                    });
                }
                Task::OfflineReplica { broker, why, .. } => {
                    if !s.isr.contains(broker) {
                        continue;
                    }
                    // removeReplicasFromIsr: the ISR never becomes empty.
                    let new_leader = if s.leader == *broker as i64 {
                        -1
                    } else {
                        s.leader
                    };
                    let isr = if s.isr.len() == 1 {
                        s.isr.clone()
                    } else {
                        s.isr.iter().copied().filter(|r| r != broker).collect()
                    };
                    let new = bump(new_leader, isr.clone());
                    let (event, cause) = if new_leader == -1 {
                        (
                            EventKind::PartitionOffline {
                                partition: tp.to_string(),
                                isr: isr.clone(),
                                leader_epoch: new.leader_epoch,
                            },
                            ControllerCause::ReplicaOffline {
                                why: *why,
                                done: if isr == [*broker] {
                                    Offlined::LastLeader { broker: *broker }
                                } else {
                                    Offlined::Leader { isr: isr.clone() }
                                },
                            },
                        )
                    } else {
                        (
                            EventKind::IsrShrunk {
                                partition: tp.to_string(),
                                by: me,
                                removed: vec![*broker],
                                isr: isr.clone(),
                                leader_epoch: new.leader_epoch,
                            },
                            ControllerCause::ReplicaOffline {
                                why: *why,
                                done: Offlined::Follower,
                            },
                        )
                    };
                    changes.push(Change {
                        tp: tp.clone(),
                        new,
                        version: Some(k.version),
                        event,
                        cause,
                    });
                }
                Task::AlterPartition {
                    from,
                    broker_epoch,
                    leader_epoch,
                    isr,
                    zk_version,
                    ..
                } => {
                    // KafkaController.tryProcessAlterPartition (3.9.0), in its order: a stale
                    // broker epoch; a leader ahead of this controller (NOT_CONTROLLER); a stale
                    // leader epoch; a partition already in the asked state (answered as it is, so
                    // a repeated request is harmless); a stale partition epoch; and KIP-841's
                    // check that every member of the new ISR is live and not shutting down.
                    let error = if role.live.get(from) != Some(broker_epoch) {
                        Some(KafkaError::StaleBrokerEpoch)
                    } else if *zk_version > k.version || *leader_epoch > s.leader_epoch {
                        Some(KafkaError::NotController)
                    } else if *leader_epoch < s.leader_epoch || s.leader != *from as i64 {
                        Some(KafkaError::FencedLeaderEpoch)
                    } else if *isr == s.isr {
                        answer = ctx.info(tp).map(|i| {
                            let mut i = i;
                            i.isr = s.isr.clone();
                            i.zk_version = k.version;
                            (*from, Ok(i))
                        });
                        continue;
                    } else if *zk_version < k.version {
                        Some(KafkaError::InvalidUpdateVersion)
                    } else if isr
                        .iter()
                        .any(|r| !live.contains(r) || ctx.shutting_down.contains(r))
                    {
                        Some(KafkaError::IneligibleReplica)
                    } else {
                        None
                    };
                    match error {
                        Some(e) => answer = Some((*from, Err(e))),
                        None => {
                            let new = PartitionState {
                                controller_epoch: epoch,
                                leader: s.leader,
                                version: 1,
                                leader_epoch: s.leader_epoch,
                                isr: isr.clone(),
                            };
                            changes.push(Change {
                                tp: tp.clone(),
                                new,
                                version: Some(k.version),
                                event: EventKind::IsrChangeAccepted {
                                    partition: tp.to_string(),
                                    controller: me,
                                    isr: isr.clone(),
                                },
                                cause: ControllerCause::AlterPartitionWritten,
                            });
                        }
                    }
                }
                Task::ReassignStep { resume, .. } => {
                    let Some(re) = ctx.reassigning.get(tp) else {
                        continue;
                    };
                    let target = &re.target;
                    let in_sync = re.is_complete_in(&s.isr);
                    let bumped = |why: EpochBump| Change {
                        tp: tp.clone(),
                        new: bump(s.leader, s.isr.clone()),
                        version: Some(k.version),
                        event: EventKind::LeaderEpochBumped {
                            partition: tp.to_string(),
                            leader: s.leader,
                            leader_epoch: s.leader_epoch + 1,
                            isr: s.isr.clone(),
                            replicas: assignment.clone(),
                            controller: me,
                            controller_epoch: epoch,
                        },
                        cause: ControllerCause::EpochBumped { why },
                    };
                    if !in_sync {
                        // A1: every replica of the enlarged list hears it; the new ones start
                        // following (`updateLeaderEpochAndSendRequest`, then NewReplica).
                        if *resume {
                            changes.push(bumped(EpochBump::ReassignmentListed {
                                tp: tp.clone(),
                                target: target.clone(),
                                assignment: assignment.clone(),
                            }));
                        }
                        continue;
                    }
                    // B3 (`moveReassignedPartitionLeaderIfRequired`): the replica list is now the
                    // target; a leader outside it, or a dead one, gives way to the first live
                    // in-sync target replica; otherwise the epoch is bumped so the leader learns
                    // that the list shrank. The ISR is left as it is: the replicas being removed
                    // leave it one write at a time next (OfflineReplica).
                    let leader_stays =
                        leader.is_some_and(|l| target.contains(&l) && live.contains(&l));
                    if leader_stays {
                        changes.push(bumped(EpochBump::ReassignmentLeaderStays {
                            tp: tp.clone(),
                            target: target.clone(),
                        }));
                        continue;
                    }
                    let Some(e) = election::reassignment(target, &s.isr, &live) else {
                        failed.push((tp.clone(), s.isr.clone()));
                        continue;
                    };
                    let new = bump(e.leader as i64, e.isr.clone());
                    changes.push(Change {
                        tp: tp.clone(),
                        event: EventKind::LeaderElected {
                            partition: tp.to_string(),
                            leader: e.leader as i64,
                            leader_epoch: new.leader_epoch,
                            isr: e.isr,
                            reason: ElectionReason::Reassignment,
                            controller: me,
                            controller_epoch: epoch,
                        },
                        cause: ControllerCause::EpochBumped {
                            why: EpochBump::ReassignmentLeader {
                                tp: tp.clone(),
                                target: target.clone(),
                            },
                        },
                        new,
                        version: Some(k.version),
                    });
                }
                _ => {}
            }
        }
        for (tp, isr) in failed {
            self.out.event(
                EventKind::LeaderElectionFailed {
                    partition: tp.to_string(),
                    isr: isr.clone(),
                },
                ControllerCause::ElectionFailed {
                    isr: isr.clone(),
                    topic: tp.topic.clone(),
                },
            );
        }
        if let Some((to, result)) = answer {
            let proposed = match task {
                Task::AlterPartition {
                    isr,
                    leader_epoch,
                    zk_version,
                    ..
                } => IsrProposal {
                    isr: isr.clone(),
                    leader_epoch: *leader_epoch,
                    zk_version: *zk_version,
                },
                _ => return changes,
            };
            self.out.send(
                Endpoint::Broker(self.me),
                Endpoint::Broker(to),
                Body::AlterPartitionResponse {
                    tp: tps[0].clone(),
                    proposed,
                    result,
                },
            );
        }
        changes
    }

    pub(super) fn on_written(
        &mut self,
        task: Task,
        changes: Vec<Change>,
        results: Vec<Result<OpResult, ZkError>>,
        retries: u32,
    ) {
        let mut done = Vec::new();
        let mut retry = Vec::new();
        for (c, r) in changes.into_iter().zip(results) {
            let version = match r {
                Ok(OpResult::Set(stat)) | Ok(OpResult::Created(stat)) => Some(stat.version),
                Ok(OpResult::Multi(rs)) => rs.iter().find_map(|x| match x {
                    OpResult::Set(stat) | OpResult::Created(stat) => Some(stat.version),
                    _ => None,
                }),
                Err(ZkError::CheckFailed) => {
                    self.exit = Some(Exit::Moved(ControllerCause::FencedWriteFailed));
                    return;
                }
                _ => None,
            };
            match version {
                Some(v) => done.push((c, v)),
                None => retry.push(c.tp),
            }
        }
        let me = self.me;
        let mut touched = Vec::new();
        for (c, version) in done {
            self.out.event(c.event.clone(), c.cause.clone());
            let ctx = &mut self.role.partitions;
            ctx.states.insert(
                c.tp.clone(),
                Known {
                    state: c.new.clone(),
                    version,
                },
            );
            if let Some((from, proposed)) = task.isr_proposal() {
                let info = self.role.partitions.info(&c.tp);
                if let Some(info) = info {
                    self.out.send(
                        Endpoint::Broker(me),
                        Endpoint::Broker(from),
                        Body::AlterPartitionResponse {
                            tp: c.tp.clone(),
                            proposed,
                            result: Ok(info),
                        },
                    );
                }
            } else {
                touched.push(c.tp);
            }
        }
        if !touched.is_empty() {
            let except = match &task {
                Task::OfflineReplica { broker, .. } => Some(*broker),
                _ => None,
            };
            self.send_leader_and_isr(&touched, except);
        }
        self.broadcast_metadata();
        if !retry.is_empty() && retries < 5 {
            // The znode changed under the controller (a leader's ISR update): read and redo.
            self.read_states(task.clone(), retry, retries + 1);
            return;
        }
        if let (Task::AlterPartition { tp, .. }, Some((from, proposed))) =
            (&task, task.isr_proposal())
        {
            if !retry.is_empty() {
                self.out.send(
                    Endpoint::Broker(me),
                    Endpoint::Broker(from),
                    Body::AlterPartitionResponse {
                        tp: tp.clone(),
                        proposed,
                        result: Err(KafkaError::InvalidUpdateVersion),
                    },
                );
            }
            self.maybe_queue_reassignment_step(tp);
        }
    }
}

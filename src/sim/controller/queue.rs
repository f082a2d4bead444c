//! The controller's event queue (`ControllerEventManager`, from 1.1; the `controllerLock` in
//! 0.10.2.2): the events it handles one at a time, each of which may read and write ZooKeeper
//! several times before the next one starts, and the dispatch of ZooKeeper's answers to the
//! step of the event that waits for them.

use super::causes::{ControllerCause, OfflineWhy};
use super::channels::Req;
use super::pending::ControllerPending;
use super::timers::ControllerTimer;
use super::{Controller, Exit};
use crate::sim::event::EventKind;
use crate::sim::message::{Body, IsrProposal, OpResult, WatchChange, ZkError, ZkOp};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::{
    partition_state_path, PartitionState, TopicAssignment, REASSIGN_PARTITIONS_PATH,
};

/// Why the controller elects a leader (the `reason` of `leader_elected`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A new partition gets its first leader.
    NewPartition,
    /// The leader is gone (or there is none): offline election, unclean if allowed.
    Offline,
    /// Unclean election was just turned on: elect offline partitions now.
    UncleanEnabled,
    /// Preferred replica election (on demand or by the automatic rebalance).
    Preferred {
        /// By the automatic rebalance, not on demand.
        automatic: bool,
    },
    /// A broker's controlled shutdown moves its leadership away.
    ControlledShutdown(BrokerId),
}

/// One event the controller handles, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Task {
    /// Failover: read the topics and partition states, then elect and inform.
    LoadTopics,
    /// `/brokers/topics` changed: a topic was created.
    TopicsChanged,
    /// Elect leaders for these partitions.
    Elect {
        /// Why.
        reason: Reason,
        /// Which (all partitions when `None`).
        partitions: Option<Vec<TopicPartition>>,
    },
    /// OfflineReplica for one broker's replicas: out of the ISR (and leader -1 if it led).
    OfflineReplica {
        /// The broker whose replicas go offline.
        broker: BrokerId,
        /// Why, for the event log.
        why: OfflineWhy,
        /// Only these partitions (all of the broker's when `None`).
        partitions: Option<Vec<TopicPartition>>,
    },
    /// `/brokers/ids` changed: read it and handle the brokers that came, went or bounced.
    BrokerChange,
    /// `/isr_change_notification` changed (leaders' ISR changes before 2.7).
    IsrNotification,
    /// A leader's AlterPartition (2.7+).
    AlterPartition {
        /// The leader.
        from: BrokerId,
        /// Its broker epoch.
        broker_epoch: i64,
        /// The partition.
        tp: TopicPartition,
        /// The leader epoch it built on.
        leader_epoch: u64,
        /// The ISR it wants.
        isr: Vec<BrokerId>,
        /// The partition epoch it built on.
        zk_version: i32,
    },
    /// A broker asks for a controlled shutdown.
    ControlledShutdown {
        /// The broker.
        broker: BrokerId,
        /// Its broker epoch.
        broker_epoch: i64,
        /// Which attempt.
        attempt: u32,
    },
    /// Answer a controlled shutdown once its elections are done.
    ControlledShutdownReply {
        /// The broker.
        broker: BrokerId,
        /// Which attempt.
        attempt: u32,
    },
    /// `onBrokerStartup`: the new broker hears its partitions' state.
    BrokerStartup(BrokerId),
    /// `onBrokerStartup` for these brokers: [`Task::BrokerStartup`] for each, then elections and
    /// resumed reassignments.
    BrokersStarted(Vec<BrokerId>),
    /// `onBrokerFailure` for these brokers: elections, then OfflineReplica.
    BrokerFailure(Vec<BrokerId>),
    /// While a broker change is handled, these brokers count as live (`Some(true)`), as dead
    /// (`Some(false)`) or as ZooKeeper says (`None`): the steps of `processBrokerChange` update
    /// the controller's live brokers in between.
    LiveOverride {
        /// The brokers.
        brokers: Vec<BrokerId>,
        /// How they count.
        live: Option<bool>,
    },
    /// The automatic preferred-leader rebalance check.
    RebalanceCheck,
    /// Start a reassignment.
    Reassign {
        /// The partition.
        tp: TopicPartition,
        /// The target replicas.
        target: Vec<BrokerId>,
    },
    /// `onPartitionReassignment` on a reassignment in progress: complete it if every target
    /// replica is in the ISR; else, with `resume`, bump the leader epoch so that every replica
    /// hears the replica list again (a restarted target broker).
    ReassignStep {
        /// The partition.
        tp: TopicPartition,
        /// Whether an unfinished reassignment is sent out again.
        resume: bool,
    },
    /// The end of a completed reassignment: the removed replicas are deleted and the
    /// assignment znode names only the target.
    ReassignDone {
        /// The partition.
        tp: TopicPartition,
    },
    /// `/controller` was deleted while an event was in progress: the Reelect event, queued
    /// behind it (see `Broker::reelect` in `race.rs`).
    Reelect,
}

impl Task {
    /// The leader and its proposal, for an AlterPartition.
    pub(super) fn isr_proposal(&self) -> Option<(BrokerId, IsrProposal)> {
        match self {
            Task::AlterPartition {
                from,
                isr,
                leader_epoch,
                zk_version,
                ..
            } => Some((
                *from,
                IsrProposal {
                    isr: isr.clone(),
                    leader_epoch: *leader_epoch,
                    zk_version: *zk_version,
                },
            )),
            _ => None,
        }
    }
}

/// The step of the current task that waits for ZooKeeper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Phase {
    /// Failover: the children of `/brokers/topics` and `/isr_change_notification`.
    ListTopics,
    /// The assignments of these topics.
    ReadTopics(Vec<String>),
    /// The states of these partitions, to compute changes from.
    ReadStates(Vec<TopicPartition>),
    /// Writes of these partitions' new states.
    Write(Vec<Change>),
    /// The children of `/brokers/ids` with their broker epochs.
    ReadBrokers,
    /// The notifications under `/isr_change_notification`.
    ListNotifications,
    /// Their data.
    ReadNotifications(Vec<String>),
    /// The reassignment's new assignment znode.
    WriteAssignment(TopicAssignment),
}

/// One partition's new state and what to say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Change {
    pub(super) tp: TopicPartition,
    pub(super) new: PartitionState,
    /// The version the write is conditional on; `None`: create the znode.
    pub(super) version: Option<i32>,
    pub(super) event: EventKind,
    pub(super) cause: ControllerCause,
}

/// The task being handled and the ZooKeeper step it waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    pub(super) task: Task,
    pub(super) phase: Phase,
    pub(super) step: u64,
    pub(super) retries: u32,
}

/// `PartitionStateMachine.triggerOnlinePartitionStateChange`: elect the new partitions, then the
/// offline ones.
pub(super) fn online_partition_state_change() -> [Task; 2] {
    [
        Task::Elect {
            reason: Reason::NewPartition,
            partitions: None,
        },
        Task::Elect {
            reason: Reason::Offline,
            partitions: None,
        },
    ]
}

impl Controller<'_> {
    /// Queues a task and starts it if the controller is idle.
    pub(crate) fn push_task(&mut self, task: Task) {
        let ctx = &mut self.role.partitions;
        ctx.tasks.push_back(task);
        self.next_task();
    }

    pub(super) fn push_front(&mut self, tasks: Vec<Task>) {
        let ctx = &mut self.role.partitions;
        for t in tasks.into_iter().rev() {
            ctx.tasks.push_front(t);
        }
    }

    /// Starts the next task if none is running.
    fn next_task(&mut self) {
        loop {
            if self.exit.is_some() {
                return;
            }
            let role = &*self.role;
            if role.partitions.running.is_some() {
                return;
            }
            if role.expired {
                self.exit = Some(Exit::Zombie);
                return;
            }
            let ctx = &mut self.role.partitions;
            let Some(task) = ctx.tasks.pop_front() else {
                return;
            };
            self.start_task(task);
        }
    }

    pub(super) fn zk_step(&mut self, task: Task, phase: Phase, retries: u32, op: ZkOp) {
        let role = &mut *self.role;
        let epoch = role.epoch;
        role.partitions.next_step += 1;
        let step = role.partitions.next_step;
        role.partitions.running = Some(Running {
            task,
            phase,
            step,
            retries,
        });
        self.zk_request(op, ControllerPending::Step { epoch, step });
    }

    pub(super) fn read_states(&mut self, task: Task, tps: Vec<TopicPartition>, retries: u32) {
        let op = ZkOp::Batch(
            tps.iter()
                .map(|tp| ZkOp::Exists {
                    path: partition_state_path(&tp.topic, tp.partition),
                    watch: false,
                })
                .collect(),
        );
        self.zk_step(task, Phase::ReadStates(tps), retries, op);
    }

    /// `PartitionStateMachine.triggerOnlinePartitionStateChange` (3.9.0, 2.4.1, 2.0.1; the loop
    /// over `partitionState` in 0.10.2.2): only the partitions the controller holds in memory as
    /// new (no state known) or offline (no leader, or a leader that is not live) are elected,
    /// and so only their states are read; with none, ZooKeeper is not asked at all. `among`
    /// narrows it to some partitions (one topic's, when unclean election is turned on for it).
    fn new_or_offline(
        &self,
        reason: &Reason,
        among: Option<&[TopicPartition]>,
    ) -> Vec<TopicPartition> {
        let live = self.live_set();
        let ctx = &self.role.partitions;
        let all;
        let among = match among {
            Some(tps) => tps,
            None => {
                all = ctx.partitions();
                &all
            }
        };
        among
            .iter()
            .filter(|tp| match (reason, ctx.states.get(tp)) {
                (Reason::NewPartition, known) => known.is_none(),
                (_, Some(k)) => !k.state.leader_id().is_some_and(|l| live.contains(&l)),
                (_, None) => false,
            })
            .cloned()
            .collect()
    }

    /// A controlled shutdown's answer: the partitions the broker still leads (with other
    /// replicas to lead them), none once it is done (`KafkaController.processControlledShutdown`).
    #[inline(never)]
    fn controlled_shutdown_reply(&mut self, broker: BrokerId, attempt: u32) {
        let ctx = &self.role.partitions;
        let remaining: Vec<TopicPartition> = ctx
            .states
            .iter()
            .filter(|(tp, k)| {
                k.state.leader == broker as i64 && ctx.assignment(tp).is_some_and(|a| a.len() > 1)
            })
            .map(|(tp, _)| tp.clone())
            .collect();
        let me = self.me;
        if remaining.is_empty() {
            self.out.event(
                EventKind::ControlledShutdownCompleted {
                    broker,
                    controller: me,
                },
                ControllerCause::ShutdownCompleted,
            );
        }
        self.out.send(
            Endpoint::Broker(self.me),
            Endpoint::Broker(broker),
            Body::ControlledShutdownResponse {
                attempt,
                error: None,
                remaining,
            },
        );
    }

    fn start_task(&mut self, task: Task) {
        let ctx = &self.role.partitions;
        match &task {
            Task::LoadTopics => {
                let op = ZkOp::Batch(vec![
                    ZkOp::GetChildren {
                        path: "/brokers/topics".into(),
                        watch: true,
                    },
                    ZkOp::GetChildren {
                        path: "/isr_change_notification".into(),
                        watch: true,
                    },
                    ZkOp::Exists {
                        path: REASSIGN_PARTITIONS_PATH.into(),
                        watch: false,
                    },
                ]);
                self.zk_step(task, Phase::ListTopics, 0, op);
            }
            Task::TopicsChanged => {
                let op = ZkOp::Batch(vec![ZkOp::GetChildren {
                    path: "/brokers/topics".into(),
                    watch: true,
                }]);
                self.zk_step(task, Phase::ListTopics, 0, op);
            }
            Task::BrokerChange => {
                let op = ZkOp::GetChildren {
                    path: "/brokers/ids".into(),
                    watch: true,
                };
                self.zk_step(task, Phase::ReadBrokers, 0, op);
            }
            Task::IsrNotification => {
                let op = ZkOp::GetChildren {
                    path: "/isr_change_notification".into(),
                    watch: true,
                };
                self.zk_step(task, Phase::ListNotifications, 0, op);
            }
            Task::Elect { reason, partitions } => {
                let tps = match (reason, partitions) {
                    (Reason::NewPartition | Reason::Offline | Reason::UncleanEnabled, tps) => {
                        self.new_or_offline(reason, tps.as_deref())
                    }
                    (_, Some(tps)) => tps.clone(),
                    (_, None) => ctx.partitions(),
                };
                if tps.is_empty() {
                    return;
                }
                self.read_states(task, tps, 0);
            }
            Task::OfflineReplica {
                broker, partitions, ..
            } => {
                let tps: Vec<TopicPartition> = partitions.clone().unwrap_or_else(|| {
                    ctx.partitions()
                        .into_iter()
                        .filter(|tp| ctx.assignment(tp).is_some_and(|a| a.contains(broker)))
                        .collect()
                });
                if tps.is_empty() {
                    return;
                }
                self.read_states(task, tps, 0);
            }
            Task::AlterPartition { tp, .. } => {
                let tps = vec![tp.clone()];
                self.read_states(task, tps, 0);
            }
            Task::ControlledShutdown {
                broker,
                broker_epoch,
                attempt,
            } => {
                let (broker, broker_epoch, attempt) = (*broker, *broker_epoch, *attempt);
                self.begin_controlled_shutdown(broker, broker_epoch, attempt);
            }
            Task::ControlledShutdownReply { broker, attempt } => {
                let (broker, attempt) = (*broker, *attempt);
                self.controlled_shutdown_reply(broker, attempt);
            }
            Task::RebalanceCheck => self.rebalance_check(),
            Task::BrokersStarted(new) => {
                let new = new.clone();
                self.brokers_started(&new);
            }
            Task::BrokerFailure(dead) => {
                let dead = dead.clone();
                self.broker_failure(&dead);
            }
            Task::LiveOverride { brokers, live } => {
                let (brokers, live) = (brokers.clone(), *live);
                let ctx = &mut self.role.partitions;
                for b in brokers {
                    match live {
                        Some(l) => ctx.live_override.insert(b, l),
                        None => ctx.live_override.remove(&b),
                    };
                }
            }
            Task::BrokerStartup(b) => {
                let b = *b;
                let theirs: Vec<TopicPartition> = ctx
                    .partitions()
                    .into_iter()
                    .filter(|tp| {
                        ctx.assignment(tp).is_some_and(|a| a.contains(&b))
                            && ctx.states.contains_key(tp)
                    })
                    .collect();
                let live = self.role.live.contains_key(&b);
                if live && !theirs.is_empty() {
                    let infos = theirs.iter().filter_map(|tp| ctx.info(tp)).collect();
                    self.enqueue(b, Req::LeaderAndIsr(infos));
                }
            }
            Task::Reassign { tp, target } => {
                let (tp, target) = (tp.clone(), target.clone());
                self.begin_reassignment(tp, target);
            }
            Task::ReassignStep { tp, .. } => {
                if ctx.reassigning.contains_key(tp) {
                    let tps = vec![tp.clone()];
                    self.read_states(task, tps, 0);
                }
            }
            Task::ReassignDone { tp } => {
                let tp = tp.clone();
                self.finish_reassignment(tp);
            }
            Task::Reelect => self.exit = Some(Exit::Reelect),
        }
    }

    /// A ZooKeeper answer to one of the role's requests.
    pub(crate) fn on_zk_response(
        &mut self,
        purpose: ControllerPending,
        result: Result<OpResult, ZkError>,
    ) {
        match purpose {
            ControllerPending::LoadBrokers { epoch } => self.on_brokers_loaded(epoch, result),
            ControllerPending::Step { epoch, step } => self.on_ctrl_response(epoch, step, result),
        }
    }

    /// One of the role's timers.
    pub(crate) fn on_timer(&mut self, timer: ControllerTimer) {
        match timer {
            ControllerTimer::RequestTimeout {
                broker,
                correlation_id,
            } => self.on_controller_request_timeout(broker, correlation_id),
            ControllerTimer::RebalanceCheck { epoch } => self.on_rebalance_timer(epoch),
        }
    }

    /// A notification of one of the watches only the controller sets: each queues an event.
    pub(crate) fn on_watch(&mut self, path: &str, change: WatchChange) {
        match (path, change) {
            ("/brokers/ids", WatchChange::ChildrenChanged) => {
                self.out.event(
                    EventKind::WatchFired {
                        broker: self.me,
                        path: path.into(),
                        change: change.words().into(),
                    },
                    ControllerCause::BrokersChanged,
                );
                // BrokerChange is an event of the controller's queue (ControllerEventManager): it
                // runs, reading /brokers/ids, after the events queued before it and before the
                // ones queued after.
                self.push_task(Task::BrokerChange);
            }
            ("/brokers/topics", WatchChange::ChildrenChanged) => {
                self.push_task(Task::TopicsChanged)
            }
            ("/isr_change_notification", WatchChange::ChildrenChanged) => {
                self.push_task(Task::IsrNotification)
            }
            _ => {}
        }
    }

    /// A ZooKeeper answer for the current task.
    pub(crate) fn on_ctrl_response(
        &mut self,
        epoch: u64,
        step: u64,
        result: Result<OpResult, ZkError>,
    ) {
        let role = &mut *self.role;
        if role.epoch != epoch {
            return;
        }
        let Some(running) = role.partitions.running.take() else {
            return;
        };
        if running.step != step {
            role.partitions.running = Some(running);
            return;
        }
        let results = match result {
            Ok(OpResult::Batch(rs)) => rs,
            Ok(other) => vec![Ok(other)],
            Err(e) => vec![Err(e)],
        };
        let Running {
            task,
            phase,
            retries,
            ..
        } = running;
        match phase {
            Phase::ListTopics => self.on_list_topics(task, results),
            Phase::ReadTopics(topics) => self.on_read_topics(task, topics, results),
            Phase::ReadStates(tps) => self.on_read_states(task, tps, results, retries),
            Phase::Write(changes) => self.on_written(task, changes, results, retries),
            Phase::ReadBrokers => self.on_read_brokers(results),
            Phase::ListNotifications => self.on_list_notifications(task, results),
            Phase::ReadNotifications(names) => self.on_read_notifications(task, names, results),
            Phase::WriteAssignment(assignment) => {
                self.on_assignment_written(task, assignment, results)
            }
        }
        self.next_task();
    }
}

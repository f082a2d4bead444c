//! The controller's partition and replica state machines: topic creation, broker failure and
//! startup, controller failover, leader elections (offline, unclean, preferred, controlled
//! shutdown, reassignment), OfflineReplica handling, ISR changes from leaders, automatic
//! preferred-leader rebalance and the requests the controller sends to brokers.
//!
//! Sources: `KafkaController` (`onControllerFailover`, `onBrokerFailure`, `onBrokerStartup`,
//! `onReplicasBecomeOffline`, `doControlledShutdown`, `checkAndTriggerAutoLeaderRebalance`,
//! `processAlterPartition`, `processIsrChangeNotification`, `onPartitionReassignment`),
//! `PartitionStateMachine` / `ReplicaStateMachine` (`removeReplicasFromIsr`) and
//! `ControllerChannelManager` (one request in flight per broker, resent until answered).
//!
//! Like Kafka's controller, this one handles one event at a time from a queue; an event may
//! read and write ZooKeeper several times before the next one starts. Every write is a
//! conditional `setData` on the partition state's zkVersion, fenced from 2.1 by a check of
//! `/controller_epoch` (see [`super::znodes::fenced`]). Every controller write bumps the
//! leader epoch.

use super::broker::{Broker, Pending};
use super::config::Settings;
use super::election;
use super::event::{ElectionReason, EventKind};
use super::message::{
    AdminRequest, Body, IsrProposal, KafkaError, OpResult, Out, PartitionInfo, Timer, ZkError, ZkOp,
};
use super::net::{BrokerId, Endpoint};
use super::topic::TopicPartition;
use super::znodes::{
    fenced, partition_state_path, topic_path, PartitionState, ReassignPartitions, TopicAssignment,
    REASSIGN_PARTITIONS_PATH,
};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

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
        why: &'static str,
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
    /// behind it (see [`Broker::reelect`]).
    Reelect,
}

impl Task {
    /// The leader and its proposal, for an AlterPartition.
    fn isr_proposal(&self) -> Option<(BrokerId, IsrProposal)> {
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

/// A controller-to-broker request waiting in a channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Req {
    /// The cluster metadata (built when sent).
    UpdateMetadata,
    /// Lead or follow these partitions (their state when the request was made).
    LeaderAndIsr(Vec<PartitionInfo>),
    /// Stop (and maybe delete) these replicas.
    StopReplica(Vec<TopicPartition>, bool),
}

/// `ControllerChannelManager`'s queue to one broker: one request in flight at a time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Channel {
    /// Waiting requests.
    pub queue: VecDeque<Req>,
    /// The request sent and not yet answered, with its correlation id.
    pub in_flight: Option<(u64, Req)>,
}

/// A partition as the controller knows it: the last state it read or wrote, and the znode's
/// version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    /// The state.
    pub state: PartitionState,
    /// The zkVersion.
    pub version: i32,
}

/// The step of the current task that waits for ZooKeeper.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
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
struct Change {
    tp: TopicPartition,
    new: PartitionState,
    /// The version the write is conditional on; `None`: create the znode.
    version: Option<i32>,
    event: EventKind,
    cause: String,
}

/// The task being handled and the ZooKeeper step it waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    task: Task,
    phase: Phase,
    step: u64,
    retries: u32,
}

/// What the controller knows of topics and partitions, and its work queue.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PartitionContext {
    /// Assignments by topic, partition by partition.
    pub topics: BTreeMap<String, Vec<Vec<BrokerId>>>,
    /// Partition states.
    pub states: BTreeMap<TopicPartition, Known>,
    /// Brokers in controlled shutdown.
    pub shutting_down: BTreeSet<BrokerId>,
    /// Brokers that count as live (true) or dead (false) whatever `/brokers/ids` says, while a
    /// broker change is handled (see [`Task::LiveOverride`]).
    pub live_override: BTreeMap<BrokerId, bool>,
    /// Reassignments in progress.
    pub reassigning: BTreeMap<TopicPartition, Reassignment>,
    /// Reassignments found in ZooKeeper on failover, resumed once the topics are loaded: the
    /// original replicas where ZooKeeper keeps them (2.4+), and the target.
    pub recovered: BTreeMap<TopicPartition, (Option<Vec<BrokerId>>, Vec<BrokerId>)>,
    /// Events waiting.
    pub tasks: VecDeque<Task>,
    /// The event being handled.
    pub running: Option<Running>,
    /// Whether failover has loaded the topics.
    pub loaded: bool,
    /// Request channels by broker.
    pub channels: BTreeMap<BrokerId, Channel>,
    next_step: u64,
}

impl PartitionContext {
    /// The assignment of a partition.
    pub fn assignment(&self, tp: &TopicPartition) -> Option<&Vec<BrokerId>> {
        self.topics.get(&tp.topic)?.get(tp.partition as usize)
    }

    /// Every partition, in order.
    pub fn partitions(&self) -> Vec<TopicPartition> {
        self.topics
            .iter()
            .flat_map(|(t, ps)| (0..ps.len() as u32).map(|p| TopicPartition::new(t, p)))
            .collect()
    }

    fn info(&self, tp: &TopicPartition) -> Option<PartitionInfo> {
        let k = self.states.get(tp)?;
        Some(PartitionInfo {
            tp: tp.clone(),
            leader: k.state.leader,
            leader_epoch: k.state.leader_epoch,
            isr: k.state.isr.clone(),
            zk_version: k.version,
            replicas: self.assignment(tp).cloned().unwrap_or_default(),
        })
    }
}

/// `PartitionStateMachine.triggerOnlinePartitionStateChange`: elect the new partitions, then the
/// offline ones.
fn online_partition_state_change() -> [Task; 2] {
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

/// The assignment znode of `topic` as `updateReplicaAssignmentForPartition` writes it: every
/// partition's replica list and, from 2.4, the adding and removing replicas of each of the
/// topic's reassignments in progress (`partitionFullReplicaAssignmentForTopic`, 3.9.0).
fn assignment_znode(
    topic: &str,
    parts: &[Vec<BrokerId>],
    reassigning: &BTreeMap<TopicPartition, Reassignment>,
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

fn parse_tp(name: &str) -> Option<TopicPartition> {
    let i = name.rfind('-')?;
    Some(TopicPartition::new(&name[..i], name[i + 1..].parse().ok()?))
}

impl Broker {
    fn ctx(&mut self) -> Option<&mut PartitionContext> {
        self.controller.as_mut().map(|c| &mut c.partitions)
    }

    fn live_set(&self) -> BTreeSet<BrokerId> {
        let Some(c) = self.controller.as_ref() else {
            return BTreeSet::new();
        };
        let mut live: BTreeSet<BrokerId> = c.live.keys().copied().collect();
        for (b, counts) in &c.partitions.live_override {
            if *counts {
                live.insert(*b);
            } else {
                live.remove(b);
            }
        }
        live
    }

    /// Queues a task and starts it if the controller is idle.
    pub(crate) fn push_task(&mut self, now: u64, task: Task, settings: &Settings, out: &mut Out) {
        if let Some(ctx) = self.ctx() {
            ctx.tasks.push_back(task);
        }
        self.next_task(now, settings, out);
    }

    fn push_front(&mut self, tasks: Vec<Task>) {
        if let Some(ctx) = self.ctx() {
            for t in tasks.into_iter().rev() {
                ctx.tasks.push_front(t);
            }
        }
    }

    /// Starts the next task if none is running.
    fn next_task(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        loop {
            let Some(role) = self.controller.as_ref() else {
                return;
            };
            if role.partitions.running.is_some() {
                return;
            }
            if role.expired {
                self.resign(super::broker::ZOMBIE_RESIGNS, out);
                return;
            }
            let Some(ctx) = self.ctx() else { return };
            let Some(task) = ctx.tasks.pop_front() else {
                return;
            };
            self.start_task(now, task, settings, out);
        }
    }

    fn zk_step(
        &mut self,
        now: u64,
        task: Task,
        phase: Phase,
        retries: u32,
        op: ZkOp,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        let epoch = role.epoch;
        role.partitions.next_step += 1;
        let step = role.partitions.next_step;
        role.partitions.running = Some(Running {
            task,
            phase,
            step,
            retries,
        });
        self.zk_request(now, op, Pending::Ctrl { epoch, step }, out);
    }

    fn read_states(
        &mut self,
        now: u64,
        task: Task,
        tps: Vec<TopicPartition>,
        retries: u32,
        out: &mut Out,
    ) {
        let op = ZkOp::Batch(
            tps.iter()
                .map(|tp| ZkOp::Exists {
                    path: partition_state_path(&tp.topic, tp.partition),
                    watch: false,
                })
                .collect(),
        );
        self.zk_step(now, task, Phase::ReadStates(tps), retries, op, out);
    }

    fn start_task(&mut self, now: u64, task: Task, settings: &Settings, out: &mut Out) {
        let Some(ctx) = self.controller.as_ref().map(|c| &c.partitions) else {
            return;
        };
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
                self.zk_step(now, task, Phase::ListTopics, 0, op, out);
            }
            Task::TopicsChanged => {
                let op = ZkOp::Batch(vec![ZkOp::GetChildren {
                    path: "/brokers/topics".into(),
                    watch: true,
                }]);
                self.zk_step(now, task, Phase::ListTopics, 0, op, out);
            }
            Task::BrokerChange => {
                let op = ZkOp::GetChildren {
                    path: "/brokers/ids".into(),
                    watch: true,
                };
                self.zk_step(now, task, Phase::ReadBrokers, 0, op, out);
            }
            Task::IsrNotification => {
                let op = ZkOp::GetChildren {
                    path: "/isr_change_notification".into(),
                    watch: true,
                };
                self.zk_step(now, task, Phase::ListNotifications, 0, op, out);
            }
            Task::Elect { partitions, .. } => {
                let tps = partitions.clone().unwrap_or_else(|| ctx.partitions());
                if tps.is_empty() {
                    return;
                }
                self.read_states(now, task, tps, 0, out);
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
                self.read_states(now, task, tps, 0, out);
            }
            Task::AlterPartition { tp, .. } => {
                let tps = vec![tp.clone()];
                self.read_states(now, task, tps, 0, out);
            }
            Task::ControlledShutdown {
                broker,
                broker_epoch,
                attempt,
            } => {
                let (broker, broker_epoch, attempt) = (*broker, *broker_epoch, *attempt);
                self.begin_controlled_shutdown(now, broker, broker_epoch, attempt, settings, out);
            }
            Task::ControlledShutdownReply { broker, attempt } => {
                let (broker, attempt) = (*broker, *attempt);
                let remaining: Vec<TopicPartition> = ctx
                    .states
                    .iter()
                    .filter(|(tp, k)| {
                        k.state.leader == broker as i64
                            && ctx.assignment(tp).is_some_and(|a| a.len() > 1)
                    })
                    .map(|(tp, _)| tp.clone())
                    .collect();
                let me = self.id;
                if remaining.is_empty() {
                    out.event(
                        EventKind::ControlledShutdownCompleted {
                            broker,
                            controller: me,
                        },
                        "the controller moved every leadership of the stopping broker to another in-sync replica and took it out of the ISRs",
                    );
                }
                out.send(
                    self.me(),
                    Endpoint::Broker(broker),
                    Body::ControlledShutdownResponse {
                        attempt,
                        error: None,
                        remaining,
                    },
                );
            }
            Task::RebalanceCheck => self.rebalance_check(now, settings, out),
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
                if let Some(ctx) = self.ctx() {
                    for b in brokers {
                        match live {
                            Some(l) => ctx.live_override.insert(b, l),
                            None => ctx.live_override.remove(&b),
                        };
                    }
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
                let live = self
                    .controller
                    .as_ref()
                    .is_some_and(|c| c.live.contains_key(&b));
                if live && !theirs.is_empty() {
                    let infos = theirs.iter().filter_map(|tp| ctx.info(tp)).collect();
                    self.enqueue(now, b, Req::LeaderAndIsr(infos), settings, out);
                }
            }
            Task::Reassign { tp, target } => {
                let (tp, target) = (tp.clone(), target.clone());
                self.begin_reassignment(now, tp, target, out);
            }
            Task::ReassignStep { tp, .. } => {
                if ctx.reassigning.contains_key(tp) {
                    let tps = vec![tp.clone()];
                    self.read_states(now, task, tps, 0, out);
                }
            }
            Task::ReassignDone { tp } => {
                let tp = tp.clone();
                self.finish_reassignment(now, tp, settings, out);
            }
            Task::Reelect => self.reelect(now, true, out),
        }
    }

    /// A ZooKeeper answer for the current task.
    pub(crate) fn on_ctrl_response(
        &mut self,
        now: u64,
        epoch: u64,
        step: u64,
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
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
            Phase::ListTopics => self.on_list_topics(now, task, results, out),
            Phase::ReadTopics(topics) => {
                self.on_read_topics(now, task, topics, results, settings, out)
            }
            Phase::ReadStates(tps) => {
                self.on_read_states(now, task, tps, results, retries, settings, out)
            }
            Phase::Write(changes) => {
                self.on_written(now, task, changes, results, retries, settings, out)
            }
            Phase::ReadBrokers => {
                if let Some(Ok(OpResult::Children(children))) = results.into_iter().next() {
                    let live = super::controller::parse_brokers(&children);
                    self.on_broker_change(now, live, settings, out);
                }
            }
            Phase::ListNotifications => self.on_list_notifications(now, task, results, out),
            Phase::ReadNotifications(names) => {
                self.on_read_notifications(now, task, names, results, out)
            }
            Phase::WriteAssignment(assignment) => {
                self.on_assignment_written(now, task, assignment, results, settings, out)
            }
        }
        self.next_task(now, settings, out);
    }

    // ----- failover and topic creation -----

    fn on_list_topics(
        &mut self,
        now: u64,
        task: Task,
        results: Vec<Result<OpResult, ZkError>>,
        out: &mut Out,
    ) {
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
            if let (Some(list), Some(ctx)) = (ReassignPartitions::from_json(&n.data), self.ctx()) {
                for p in list.partitions {
                    ctx.recovered.insert(
                        TopicPartition::new(&p.topic, p.partition),
                        (None, p.replicas),
                    );
                }
            }
        }
        let known: BTreeSet<String> = self
            .controller
            .as_ref()
            .map(|c| c.partitions.topics.keys().cloned().collect())
            .unwrap_or_default();
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
        self.zk_step(now, task, Phase::ReadTopics(new), 0, op, out);
    }

    fn on_read_topics(
        &mut self,
        now: u64,
        task: Task,
        topics: Vec<String>,
        results: Vec<Result<OpResult, ZkError>>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let mut new_tps = Vec::new();
        for (t, r) in topics.iter().zip(results) {
            let Ok(OpResult::Node(Some(n))) = r else {
                continue;
            };
            let Ok(a) = serde_json::from_str::<TopicAssignment>(&n.data) else {
                continue;
            };
            let parts: Vec<Vec<BrokerId>> = a.by_partition().into_values().collect();
            for p in 0..parts.len() as u32 {
                new_tps.push(TopicPartition::new(t, p));
            }
            // From 2.4 a reassignment in progress is in the assignment znode itself: the
            // replicas being added and removed (`initializePartitionReassignments`, 3.9.0).
            if task == Task::LoadTopics {
                let key_of = |m: &BTreeMap<String, Vec<BrokerId>>| -> Vec<(u32, Vec<BrokerId>)> {
                    m.iter()
                        .filter_map(|(p, r)| p.parse().ok().map(|p| (p, r.clone())))
                        .collect()
                };
                let adding: BTreeMap<u32, Vec<BrokerId>> =
                    key_of(&a.adding_replicas).into_iter().collect();
                let removing: BTreeMap<u32, Vec<BrokerId>> =
                    key_of(&a.removing_replicas).into_iter().collect();
                let moving: BTreeSet<u32> = adding.keys().chain(removing.keys()).copied().collect();
                if let Some(ctx) = self.ctx() {
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
            }
            if task == Task::TopicsChanged {
                out.event(
                    EventKind::TopicCreated {
                        topic: t.clone(),
                        partitions: parts.len() as u32,
                        controller: self.id,
                    },
                    "the controller watches /brokers/topics; an admin tool wrote the new topic's assignment there",
                );
            }
            if let Some(ctx) = self.ctx() {
                ctx.topics.insert(t.clone(), parts);
            }
        }
        if task == Task::LoadTopics {
            // Read every partition's state, then finish the failover.
            let all = self.ctx().map(|c| c.partitions()).unwrap_or_default();
            self.read_states(now, Task::LoadTopics, all, 0, out);
        } else {
            // onNewPartitionCreation: the first live replica leads, the live replicas are the ISR.
            self.push_front(vec![Task::Elect {
                reason: Reason::NewPartition,
                partitions: Some(new_tps),
            }]);
            let _ = settings;
        }
    }

    /// The end of `onControllerFailover`: tell every broker, move dead replicas offline
    /// (2.4+), elect, send LeaderAndIsr to every live replica, schedule the first rebalance
    /// check 5 s later.
    fn finish_failover(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        let live = self.live_set();
        let Some(ctx) = self.ctx() else { return };
        ctx.loaded = true;
        let mut dead: BTreeSet<BrokerId> = BTreeSet::new();
        for a in ctx.topics.values().flatten() {
            for r in a {
                if !live.contains(r) {
                    dead.insert(*r);
                }
            }
        }
        let mut tasks = Vec::new();
        if settings.profile.offlines_dead_replicas_on_failover() {
            for b in dead {
                tasks.push(Task::OfflineReplica {
                    broker: b,
                    why: "controller failover: a replica on a dead broker goes to OfflineReplica (ReplicaStateMachine.startup, 2.3+, KAFKA-3143)",
                    partitions: None,
                });
            }
        }
        tasks.extend(online_partition_state_change());
        // The reassignments in progress carry on under this controller.
        let recovered = self
            .ctx()
            .map(|c| std::mem::take(&mut c.recovered))
            .unwrap_or_default();
        for (tp, (original, target)) in recovered {
            let Some(ctx) = self.ctx() else { break };
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
        self.broadcast_metadata(now, settings, out);
        // ReplicaStateMachine.startup: every live replica hears its partition's state.
        let all = self.ctx().map(|c| c.partitions()).unwrap_or_default();
        self.send_leader_and_isr(now, &all, None, settings, out);
        if settings.auto_leader_rebalance_enable {
            if let Some(epoch) = self.controller.as_ref().map(|c| c.epoch) {
                out.timer(now + 5_000, self.me(), Timer::RebalanceCheck { epoch });
            }
        }
    }

    // ----- reading states, computing and writing changes -----

    #[allow(clippy::too_many_arguments)]
    fn on_read_states(
        &mut self,
        now: u64,
        task: Task,
        tps: Vec<TopicPartition>,
        results: Vec<Result<OpResult, ZkError>>,
        retries: u32,
        settings: &Settings,
        out: &mut Out,
    ) {
        let mut read: BTreeMap<TopicPartition, Known> = BTreeMap::new();
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
        if let Some(ctx) = self.ctx() {
            for (tp, k) in &read {
                ctx.states.insert(tp.clone(), k.clone());
            }
        }
        if task == Task::LoadTopics {
            self.finish_failover(now, settings, out);
            return;
        }
        if task == Task::IsrNotification {
            // processIsrChangeNotification: the leaders changed these ISRs; tell every broker.
            for tp in &tps {
                self.maybe_queue_reassignment_step(tp);
            }
            self.broadcast_metadata(now, settings, out);
            return;
        }
        if let Task::ReassignStep { tp, .. } = &task {
            self.maybe_complete_reassignment(tp, read.get(tp));
        }
        let changes = self.compute(now, &task, &tps, &read, settings, out);
        if changes.is_empty() {
            return;
        }
        let (profile, zkv) = match self.controller.as_ref() {
            Some(c) => (settings.profile, c.epoch_zk_version),
            None => return,
        };
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
        self.zk_step(now, task, Phase::Write(changes), retries, op, out);
    }

    /// What a task changes, from the states just read.
    fn compute(
        &mut self,
        now: u64,
        task: &Task,
        tps: &[TopicPartition],
        read: &BTreeMap<TopicPartition, Known>,
        settings: &Settings,
        out: &mut Out,
    ) -> Vec<Change> {
        let me = self.id;
        let live = self.live_set();
        let Some(role) = self.controller.as_ref() else {
            return Vec::new();
        };
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
                            cause: "a new partition: the first live replica in assignment order leads, the live replicas form the ISR, leader epoch 0".into(),
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
                            let unclean = settings.topic_unclean(&tp.topic);
                            match election::offline(&assignment, &s.isr, &live, unclean) {
                                Some(e) => {
                                    let why = if e.unclean {
                                        format!("no live replica of the ISR {:?}; unclean.leader.election.enable=true lets the first live replica in assignment order lead: records it lacks are lost", s.isr)
                                    } else {
                                        match leader {
                                            Some(l) => format!("leader {l} is gone: the first live ISR replica in assignment order {assignment:?} leads (not the first in ISR order); the ISR keeps only live members"),
                                            None => format!("the partition had no leader: the first live ISR replica in assignment order {assignment:?} leads"),
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
                                        format!("auto.leader.rebalance.enable: the preferred replica (first in the assignment {assignment:?}) is live and in sync, so it leads again; the ISR is unchanged")
                                    } else {
                                        format!("preferred replica election: the first replica of the assignment {assignment:?} is live and in sync; the ISR is unchanged")
                                    },
                                ),
                                None => continue,
                            }
                        }
                        Reason::ControlledShutdown(b) => {
                            if s.leader != *b as i64 || assignment.len() < 2 {
                                continue;
                            }
                            match election::controlled_shutdown(&assignment, &s.isr, &live, &ctx.shutting_down) {
                                Some(e) => (e, format!("broker {b} is shutting down: the first live, in-sync replica that is not shutting down leads; the stopping broker leaves the ISR")),
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
                        cause: format!("{why}; leader epoch +1"),
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
                            if isr == [*broker] {
                                format!("{why}; it led, so the leader becomes -1; it was the last member of the ISR, which never becomes empty, so the partition waits for broker {broker} to return; leader epoch +1")
                            } else {
                                format!("{why}; it led, so the leader becomes -1 and it leaves the ISR, now {isr:?}; an election follows; leader epoch +1")
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
                            format!(
                                "{why}: the controller removes it from the ISR; leader epoch +1"
                            ),
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
                                cause: "AlterPartition from the leader (KIP-497): the controller writes the new ISR; the leader epoch stays".into(),
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
                    let bumped = |why: String| Change {
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
                        cause: format!("{why}; leader epoch +1"),
                    };
                    if !in_sync {
                        // A1: every replica of the enlarged list hears it; the new ones start
                        // following (`updateLeaderEpochAndSendRequest`, then NewReplica).
                        if *resume {
                            changes.push(bumped(format!(
                                "reassignment of {tp} to {target:?}: the replica list is {assignment:?}, target and original together, until every target replica is in the ISR; the controller bumps the leader epoch without changing leader or ISR so that every replica, old and new, hears that list (KafkaController.onPartitionReassignment)"
                            )));
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
                        changes.push(bumped(format!(
                            "every target replica of {tp} is in the ISR: the replica list becomes the target {target:?} and the leader, already in it, stays; the leader epoch is bumped so the leader stops counting the replicas being removed (KafkaController.moveReassignedPartitionLeaderIfRequired)"
                        )));
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
                        cause: format!(
                            "every target replica of {tp} is in the ISR, but the leader is not one of the target {target:?} (or is dead): the first live, in-sync target replica leads (ReassignPartitionLeaderElectionStrategy); the ISR is unchanged until the removed replicas leave it; leader epoch +1"
                        ),
                        new,
                        version: Some(k.version),
                    });
                }
                _ => {}
            }
        }
        for (tp, isr) in failed {
            out.event(
                EventKind::LeaderElectionFailed {
                    partition: tp.to_string(),
                    isr: isr.clone(),
                },
                format!(
                    "no live replica in the ISR {isr:?} and unclean.leader.election.enable=false for {}: the partition stays offline rather than lose acknowledged records",
                    tp.topic
                ),
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
            out.send(
                self.me(),
                Endpoint::Broker(to),
                Body::AlterPartitionResponse {
                    tp: tps[0].clone(),
                    proposed,
                    result,
                },
            );
        }
        let _ = now;
        changes
    }

    #[allow(clippy::too_many_arguments)]
    fn on_written(
        &mut self,
        now: u64,
        task: Task,
        changes: Vec<Change>,
        results: Vec<Result<OpResult, ZkError>>,
        retries: u32,
        settings: &Settings,
        out: &mut Out,
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
                    self.resign_moved(
                        now,
                        "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException, KAFKA-6082)",
                        out,
                    );
                    return;
                }
                _ => None,
            };
            match version {
                Some(v) => done.push((c, v)),
                None => retry.push(c.tp),
            }
        }
        let me = self.id;
        let mut touched = Vec::new();
        for (c, version) in done {
            out.event(c.event.clone(), c.cause.clone());
            if let Some(ctx) = self.ctx() {
                ctx.states.insert(
                    c.tp.clone(),
                    Known {
                        state: c.new.clone(),
                        version,
                    },
                );
            }
            if let Some((from, proposed)) = task.isr_proposal() {
                let info = self.ctx().and_then(|ctx| ctx.info(&c.tp));
                if let Some(info) = info {
                    out.send(
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
            self.send_leader_and_isr(now, &touched, except, settings, out);
        }
        self.broadcast_metadata(now, settings, out);
        if !retry.is_empty() && retries < 5 {
            // The znode changed under the controller (a leader's ISR update): read and redo.
            self.read_states(now, task.clone(), retry, retries + 1, out);
            return;
        }
        if let (Task::AlterPartition { tp, .. }, Some((from, proposed))) =
            (&task, task.isr_proposal())
        {
            if !retry.is_empty() {
                out.send(
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

    // ----- requests to brokers -----

    /// LeaderAndIsr for `tps` to every live replica of each (but `except`).
    fn send_leader_and_isr(
        &mut self,
        now: u64,
        tps: &[TopicPartition],
        except: Option<BrokerId>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let live = self.live_set();
        let Some(ctx) = self.ctx() else { return };
        // The request holds the states as they are now: resent, it says the same thing
        // (ControllerChannelManager's RequestSendThread retries the request it built).
        let mut by_broker: BTreeMap<BrokerId, Vec<PartitionInfo>> = BTreeMap::new();
        for tp in tps {
            let Some(info) = ctx.info(tp) else {
                continue;
            };
            for r in &info.replicas {
                if live.contains(r) && Some(*r) != except {
                    by_broker.entry(*r).or_default().push(info.clone());
                }
            }
        }
        for (b, infos) in by_broker {
            self.enqueue(now, b, Req::LeaderAndIsr(infos), settings, out);
        }
    }

    /// UpdateMetadata to every live broker.
    pub(crate) fn broadcast_metadata(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        for b in self.live_set() {
            self.enqueue(now, b, Req::UpdateMetadata, settings, out);
        }
    }

    pub(crate) fn enqueue(
        &mut self,
        now: u64,
        broker: BrokerId,
        req: Req,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(ctx) = self.ctx() else { return };
        let ch = ctx.channels.entry(broker).or_default();
        if req == Req::UpdateMetadata && ch.queue.contains(&Req::UpdateMetadata) {
            return;
        }
        ch.queue.push_back(req);
        self.pump(now, broker, settings, out);
    }

    fn pump(&mut self, now: u64, broker: BrokerId, settings: &Settings, out: &mut Out) {
        let Some(ctx) = self.ctx() else { return };
        let Some(ch) = ctx.channels.get_mut(&broker) else {
            return;
        };
        if ch.in_flight.is_some() {
            return;
        }
        let Some(req) = ch.queue.pop_front() else {
            return;
        };
        self.send_req(now, broker, req, settings, out);
    }

    fn send_req(
        &mut self,
        now: u64,
        broker: BrokerId,
        req: Req,
        settings: &Settings,
        out: &mut Out,
    ) {
        let me = self.me();
        let id = self.id;
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        let Some(broker_epoch) = role.live.get(&broker).copied() else {
            return;
        };
        let correlation_id = role.next_correlation;
        role.next_correlation += 1;
        let controller_epoch = role.epoch;
        let ctx = &mut role.partitions;
        let body = match &req {
            Req::UpdateMetadata => Body::UpdateMetadata {
                controller: id,
                controller_epoch,
                broker_epoch,
                live_brokers: role.live.keys().copied().collect(),
                partitions: ctx
                    .partitions()
                    .iter()
                    .filter_map(|tp| ctx.info(tp))
                    .collect(),
                correlation_id,
            },
            Req::LeaderAndIsr(infos) => Body::LeaderAndIsr {
                controller: id,
                controller_epoch,
                broker_epoch,
                partitions: infos.clone(),
                correlation_id,
            },
            Req::StopReplica(tps, delete) => Body::StopReplica {
                controller: id,
                controller_epoch,
                partitions: tps.clone(),
                delete: *delete,
                correlation_id,
            },
        };
        ctx.channels.entry(broker).or_default().in_flight = Some((correlation_id, req));
        out.send(me, Endpoint::Broker(broker), body);
        out.timer(
            now + settings.controller_socket_timeout_ms,
            me,
            Timer::ControllerRequestTimeout {
                broker,
                correlation_id,
            },
        );
    }

    /// A broker answered a controller request: the channel sends its next one.
    pub(crate) fn on_channel_response(
        &mut self,
        now: u64,
        from: BrokerId,
        epoch: u64,
        correlation_id: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        if role.epoch != epoch {
            return;
        }
        let Some(ch) = role.partitions.channels.get_mut(&from) else {
            return;
        };
        if ch.in_flight.as_ref().map(|(c, _)| *c) == Some(correlation_id) {
            ch.in_flight = None;
            self.pump(now, from, settings, out);
        }
    }

    /// No answer within controller.socket.timeout.ms: the RequestSendThread reconnects and
    /// sends the request again, for as long as the broker is live.
    pub(crate) fn on_controller_request_timeout(
        &mut self,
        now: u64,
        broker: BrokerId,
        correlation_id: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        if !role.live.contains_key(&broker) {
            return;
        }
        let Some(ch) = role.partitions.channels.get_mut(&broker) else {
            return;
        };
        if ch.in_flight.as_ref().map(|(c, _)| *c) != Some(correlation_id) {
            return;
        }
        let (_, req) = ch.in_flight.take().expect("checked");
        self.send_req(now, broker, req, settings, out);
    }

    // ----- broker changes -----

    /// `processBrokerChange`, after the diff of `/brokers/ids`, in Kafka's order (3.9.0 and
    /// 2.4.1): `onBrokerStartup` for the new brokers; for the bounced ones (re-registered with a
    /// newer broker epoch before the controller saw them go, KIP-380) `onBrokerFailure` while
    /// they count as dead, then `onBrokerStartup`; last `onBrokerFailure` for the dead ones, which
    /// still count as live until then. Before 2.2 (2.0.1, 0.10.2.2) there are no bounces and the
    /// dead brokers leave the live set before the new ones start up.
    pub(crate) fn on_brokers_changed(
        &mut self,
        now: u64,
        (new, bounced, dead): (Vec<BrokerId>, Vec<BrokerId>, Vec<BrokerId>),
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(ctx) = self.ctx() else { return };
        for b in new.iter().chain(&bounced).chain(&dead) {
            ctx.channels.remove(b);
            ctx.shutting_down.remove(b);
        }
        let loaded = ctx.loaded;
        let dead_live_at_startup = settings.profile.has_broker_epochs();
        if dead_live_at_startup && !dead.is_empty() && loaded {
            ctx.live_override.extend(dead.iter().map(|b| (*b, true)));
        }
        self.broadcast_metadata(now, settings, out);
        if !loaded {
            return;
        }
        let mut tasks = Vec::new();
        if !new.is_empty() {
            tasks.push(Task::BrokersStarted(new));
        }
        if !bounced.is_empty() {
            tasks.push(Task::LiveOverride {
                brokers: bounced.clone(),
                live: Some(false),
            });
            tasks.push(Task::BrokerFailure(bounced.clone()));
            tasks.push(Task::LiveOverride {
                brokers: bounced.clone(),
                live: None,
            });
            tasks.push(Task::BrokersStarted(bounced));
        }
        if !dead.is_empty() {
            if dead_live_at_startup {
                tasks.push(Task::LiveOverride {
                    brokers: dead.clone(),
                    live: None,
                });
            }
            tasks.push(Task::BrokerFailure(dead));
        }
        // Part of this BrokerChange event: before the events queued after it.
        self.push_front(tasks);
    }

    /// `onBrokerFailure` → `onReplicasBecomeOffline`: first elect every partition whose leader
    /// died, then move each dead broker's replicas to OfflineReplica (one write per broker
    /// still in an ISR).
    fn broker_failure(&mut self, dead: &[BrokerId]) {
        let Some(ctx) = self.ctx() else { return };
        let mut tasks = Vec::new();
        let led: Vec<TopicPartition> = ctx
            .states
            .iter()
            .filter(|(_, k)| k.state.leader_id().is_some_and(|l| dead.contains(&l)))
            .map(|(tp, _)| tp.clone())
            .collect();
        if !led.is_empty() {
            tasks.push(Task::Elect {
                reason: Reason::Offline,
                partitions: Some(led),
            });
        }
        for &b in dead {
            tasks.push(Task::OfflineReplica {
                broker: b,
                why: "broker failure: its replicas go to OfflineReplica",
                partitions: None,
            });
        }
        self.push_front(tasks);
    }

    /// `onBrokerStartup`: the new brokers hear their partitions' state, then offline and new
    /// partitions are elected, and a reassignment with a target replica on a new broker is sent
    /// out again (`maybeResumeReassignments`, 3.9.0; `partitionsWithReplicasOnNewBrokers`, 2.0.1).
    fn brokers_started(&mut self, new: &[BrokerId]) {
        let Some(ctx) = self.ctx() else { return };
        let mut tasks: Vec<Task> = new.iter().map(|b| Task::BrokerStartup(*b)).collect();
        tasks.extend(online_partition_state_change());
        for (tp, re) in &ctx.reassigning {
            if re.target.iter().any(|r| new.contains(r)) {
                tasks.push(Task::ReassignStep {
                    tp: tp.clone(),
                    resume: true,
                });
            }
        }
        self.push_front(tasks);
    }

    // ----- controlled shutdown -----

    fn begin_controlled_shutdown(
        &mut self,
        now: u64,
        broker: BrokerId,
        broker_epoch: i64,
        attempt: u32,
        settings: &Settings,
        out: &mut Out,
    ) {
        let error = self
            .controller
            .as_ref()
            .and_then(|c| match c.live.get(&broker) {
                None => Some(KafkaError::BrokerNotAvailable),
                Some(known) if settings.profile.has_broker_epochs() && broker_epoch < *known => {
                    Some(KafkaError::StaleBrokerEpoch)
                }
                Some(_) => None,
            });
        if let Some(error) = error {
            out.send(
                self.me(),
                Endpoint::Broker(broker),
                Body::ControlledShutdownResponse {
                    attempt,
                    error: Some(error),
                    remaining: Vec::new(),
                },
            );
            return;
        }
        let Some(ctx) = self.ctx() else { return };
        ctx.shutting_down.insert(broker);
        let mut led = Vec::new();
        let mut followed = Vec::new();
        for (tp, k) in &ctx.states {
            let Some(a) = ctx.assignment(tp) else {
                continue;
            };
            if a.len() < 2 || !a.contains(&broker) {
                continue;
            }
            if k.state.leader == broker as i64 {
                led.push(tp.clone());
            } else {
                followed.push(tp.clone());
            }
        }
        let mut tasks = Vec::new();
        if !led.is_empty() {
            tasks.push(Task::Elect {
                reason: Reason::ControlledShutdown(broker),
                partitions: Some(led),
            });
        }
        if !followed.is_empty() {
            tasks.push(Task::OfflineReplica {
                broker,
                why: "controlled shutdown: the stopping broker's follower replicas go to OfflineReplica",
                partitions: Some(followed.clone()),
            });
            self.enqueue(
                now,
                broker,
                Req::StopReplica(followed, false),
                settings,
                out,
            );
        }
        tasks.push(Task::ControlledShutdownReply { broker, attempt });
        self.push_front(tasks);
    }

    /// `KafkaController.doControlledShutdown` entry point.
    pub(crate) fn on_controlled_shutdown_request(
        &mut self,
        now: u64,
        from: BrokerId,
        broker_epoch: i64,
        attempt: u32,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.controller.is_none() {
            out.send(
                self.me(),
                Endpoint::Broker(from),
                Body::ControlledShutdownResponse {
                    attempt,
                    error: Some(KafkaError::NotController),
                    remaining: Vec::new(),
                },
            );
            return;
        }
        self.push_task(
            now,
            Task::ControlledShutdown {
                broker: from,
                broker_epoch,
                attempt,
            },
            settings,
            out,
        );
    }

    // ----- ISR changes from leaders -----

    /// A leader's AlterPartition (2.7+).
    pub(crate) fn on_alter_partition(
        &mut self,
        now: u64,
        from: BrokerId,
        (broker_epoch, tp, leader_epoch, isr, zk_version): (
            i64,
            TopicPartition,
            u64,
            Vec<BrokerId>,
            i32,
        ),
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.controller.is_none() {
            out.send(
                self.me(),
                Endpoint::Broker(from),
                Body::AlterPartitionResponse {
                    tp,
                    proposed: IsrProposal {
                        isr,
                        leader_epoch,
                        zk_version,
                    },
                    result: Err(KafkaError::NotController),
                },
            );
            return;
        }
        self.push_task(
            now,
            Task::AlterPartition {
                from,
                broker_epoch,
                tp,
                leader_epoch,
                isr,
                zk_version,
            },
            settings,
            out,
        );
    }

    fn on_list_notifications(
        &mut self,
        now: u64,
        task: Task,
        results: Vec<Result<OpResult, ZkError>>,
        out: &mut Out,
    ) {
        let names: Vec<String> = match results.into_iter().next() {
            Some(Ok(OpResult::Children(c))) => c.into_iter().map(|(n, _)| n).collect(),
            _ => Vec::new(),
        };
        if names.is_empty() {
            return;
        }
        let op = ZkOp::Batch(
            names
                .iter()
                .map(|n| ZkOp::Exists {
                    path: format!("/isr_change_notification/{n}"),
                    watch: false,
                })
                .chain(names.iter().map(|n| ZkOp::Delete {
                    path: format!("/isr_change_notification/{n}"),
                }))
                .collect(),
        );
        self.zk_step(now, task, Phase::ReadNotifications(names), 0, op, out);
    }

    fn on_read_notifications(
        &mut self,
        now: u64,
        _task: Task,
        names: Vec<String>,
        results: Vec<Result<OpResult, ZkError>>,
        out: &mut Out,
    ) {
        let mut tps = BTreeSet::new();
        for r in results.into_iter().take(names.len()) {
            if let Ok(OpResult::Node(Some(n))) = r {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&n.data) {
                    for p in v["partitions"].as_array().into_iter().flatten() {
                        if let Some(tp) = p.as_str().and_then(parse_tp) {
                            tps.insert(tp);
                        }
                    }
                }
            }
        }
        // processIsrChangeNotification: re-read those partitions and tell every broker.
        let tps: Vec<TopicPartition> = tps.into_iter().collect();
        if !tps.is_empty() {
            self.read_states(now, Task::IsrNotification, tps, 0, out);
        }
    }

    // ----- rebalance, admin requests, reassignment -----

    pub(crate) fn on_rebalance_timer(
        &mut self,
        now: u64,
        epoch: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.controller.as_ref().is_some_and(|c| c.epoch == epoch) {
            self.push_task(now, Task::RebalanceCheck, settings, out);
        }
    }

    /// `checkAndTriggerAutoLeaderRebalance`.
    fn rebalance_check(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        let live = self.live_set();
        let me = self.id;
        let Some(role) = self.controller.as_ref() else {
            return;
        };
        let epoch = role.epoch;
        let ctx = &role.partitions;
        let tps = ctx.partitions();
        let leaderships: Vec<election::Leadership> = tps
            .iter()
            .map(|tp| election::Leadership {
                assignment: ctx.assignment(tp).cloned().unwrap_or_default(),
                leader: ctx.states.get(tp).and_then(|k| k.state.leader_id()),
            })
            .collect();
        let mut ratios: Vec<(BrokerId, u32)> = Vec::new();
        let mut preferred_of: BTreeMap<BrokerId, (u32, u32)> = BTreeMap::new();
        for l in &leaderships {
            if let Some(&b) = l.assignment.first() {
                let e = preferred_of.entry(b).or_default();
                e.0 += 1;
                if l.leader != Some(b) {
                    e.1 += 1;
                }
            }
        }
        for (b, (total, not_led)) in &preferred_of {
            ratios.push((*b, not_led * 100 / (*total).max(1)));
        }
        let pct = settings.leader_imbalance_per_broker_percentage;
        let imbalanced = election::imbalanced(&leaderships, pct);
        let mut elect = Vec::new();
        for (b, idx) in &imbalanced {
            for &i in idx {
                let tp = &tps[i];
                let in_sync = ctx.states.get(tp).is_some_and(|k| k.state.isr.contains(b));
                if live.contains(b) && in_sync && !ctx.reassigning.contains_key(tp) {
                    elect.push(tp.clone());
                }
            }
        }
        out.event(
            EventKind::LeaderImbalanceChecked {
                controller: me,
                ratios,
                moving: elect.iter().map(|t| t.to_string()).collect(),
            },
            format!(
                "auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds ({} s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage ({pct} %)",
                settings.leader_imbalance_check_interval_seconds
            ),
        );
        if !elect.is_empty() {
            self.push_front(vec![Task::Elect {
                reason: Reason::Preferred { automatic: true },
                partitions: Some(elect),
            }]);
        }
        out.timer(
            now + settings.leader_imbalance_check_interval_seconds * 1000,
            self.me(),
            Timer::RebalanceCheck { epoch },
        );
    }

    /// An admin tool's request, through a znode the controller watches.
    pub(crate) fn on_admin(
        &mut self,
        now: u64,
        request: AdminRequest,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.controller.is_none() {
            return;
        }
        let task = match request {
            AdminRequest::PreferredElection(tps) => Task::Elect {
                reason: Reason::Preferred { automatic: false },
                partitions: (!tps.is_empty()).then_some(tps),
            },
            AdminRequest::UncleanEnabled(topic) => {
                let tps = self.ctx().map(|c| c.partitions()).unwrap_or_default();
                Task::Elect {
                    reason: Reason::UncleanEnabled,
                    partitions: Some(
                        tps.into_iter()
                            .filter(|tp| topic.as_ref().is_none_or(|t| *t == tp.topic))
                            .collect(),
                    ),
                }
            }
            AdminRequest::Reassign { tp, replicas } => Task::Reassign {
                tp,
                target: replicas,
            },
        };
        self.push_task(now, task, settings, out);
    }

    /// `onPartitionReassignment` begins (`updateCurrentReassignment`, U1 and U2; 3.9.0 and
    /// 2.4.1; steps 1 to 3 of 2.0.1 and 0.10.2.2): the assignment znode lists the target followed
    /// by the original replicas not in it (see [`election::reassignment_replicas`]), with the
    /// adding and removing replicas from 2.4. What follows is a [`Task::ReassignStep`].
    fn begin_reassignment(
        &mut self,
        now: u64,
        tp: TopicPartition,
        target: Vec<BrokerId>,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_ref() else {
            return;
        };
        let target_first = role.profile.lists_reassignment_target_first();
        let ctx = &role.partitions;
        let Some(original) = ctx.assignment(&tp).cloned() else {
            return;
        };
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
            data: serde_json::to_string(&a).expect("an assignment serializes"),
            version: None,
        });
        if let Some(ctx) = self.ctx() {
            ctx.reassigning.insert(tp.clone(), re);
        }
        self.zk_step(
            now,
            Task::Reassign { tp, target },
            Phase::WriteAssignment(a),
            0,
            op,
            out,
        );
    }

    fn fenced_write(&self, write: ZkOp) -> ZkOp {
        match self.controller.as_ref() {
            Some(c) => fenced(c.profile, c.epoch_zk_version, write),
            None => write,
        }
    }

    fn on_assignment_written(
        &mut self,
        now: u64,
        task: Task,
        assignment: TopicAssignment,
        results: Vec<Result<OpResult, ZkError>>,
        settings: &Settings,
        out: &mut Out,
    ) {
        if matches!(results.first(), Some(Err(ZkError::CheckFailed))) {
            self.resign_moved(
                now,
                "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException)",
                out,
            );
            return;
        }
        if !matches!(results.first(), Some(Ok(_))) {
            return;
        }
        let me = self.id;
        match task {
            Task::Reassign { tp, target } => {
                if let Some(ctx) = self.ctx() {
                    ctx.topics.insert(
                        tp.topic.clone(),
                        assignment.by_partition().into_values().collect(),
                    );
                }
                out.event(
                    EventKind::ReassignmentStarted {
                        partition: tp.to_string(),
                        controller: me,
                        target,
                    },
                    "partition reassignment: the replica list becomes the target followed by the replicas being removed; the new replicas catch up before the old ones go",
                );
                self.push_front(vec![Task::ReassignStep { tp, resume: true }]);
                self.broadcast_metadata(now, settings, out);
            }
            Task::ReassignDone { tp } => {
                let Some(re) = self.ctx().and_then(|c| c.reassigning.remove(&tp)) else {
                    return;
                };
                let removed = re.removing();
                out.event(
                    EventKind::ReassignmentCompleted {
                        partition: tp.to_string(),
                        controller: me,
                        replicas: re.target,
                    },
                    if removed.is_empty() {
                        "the assignment znode names only the target replicas: the reassignment is done".to_string()
                    } else {
                        format!("the replicas {removed:?} left the ISR and were deleted (StopReplica); the assignment znode names only the target replicas: the reassignment is done")
                    },
                );
                self.broadcast_metadata(now, settings, out);
            }
            _ => {}
        }
    }

    /// B2 of `onPartitionReassignment`, once every target replica is in the ISR (`read` is the
    /// state just read from ZooKeeper, as `isReassignmentComplete` reads it): the replica list
    /// becomes the target in memory, and after this step's leader change come one
    /// OfflineReplica per replica being removed (B4: each leaves the ISR with its own write and
    /// leader-epoch bump) and the final [`Task::ReassignDone`].
    fn maybe_complete_reassignment(&mut self, tp: &TopicPartition, read: Option<&Known>) {
        let Some(ctx) = self.ctx() else { return };
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
                why: "reassignment: a replica being removed goes to OfflineReplica and leaves the ISR",
                partitions: Some(vec![tp.clone()]),
            })
            .collect();
        tasks.push(Task::ReassignDone { tp: tp.clone() });
        self.push_front(tasks);
    }

    /// Queues a [`Task::ReassignStep`] once the ISR the controller knows holds every target
    /// replica (after a leader's ISR change: `processPartitionReassignmentIsrChange` /
    /// `maybeCompleteReassignment`).
    fn maybe_queue_reassignment_step(&mut self, tp: &TopicPartition) {
        let Some(ctx) = self.ctx() else { return };
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
    fn finish_reassignment(
        &mut self,
        now: u64,
        tp: TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(ctx) = self.ctx() else { return };
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
            settings.profile.lists_reassignment_target_first(),
        );
        let live = self.live_set();
        for r in re.removing() {
            if live.contains(&r) {
                self.enqueue(
                    now,
                    r,
                    Req::StopReplica(vec![tp.clone()], true),
                    settings,
                    out,
                );
            }
        }
        let mut ops = vec![self.fenced_write(ZkOp::SetData {
            path: topic_path(&tp.topic),
            data: serde_json::to_string(&a).expect("an assignment serializes"),
            version: None,
        })];
        if settings.profile.lists_reassignment_target_first() {
            // From 2.4 the assignment znode was the only record of the move.
        } else if let Some(ctx) = self.ctx() {
            // Before 2.4: `removePartitionsFromReassignedPartitions` writes the ones left, or
            // deletes /admin/reassign_partitions when none is (2.0.1).
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
        self.zk_step(
            now,
            Task::ReassignDone { tp },
            Phase::WriteAssignment(a),
            0,
            op,
            out,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::config::Profile;
    use crate::sim::controller::ControllerRole;

    /// Broker 1 acting as controller of a cluster whose topics are loaded.
    fn controller(profile: Profile) -> (Broker, Settings) {
        let settings = Settings::for_profile(profile);
        let mut b = Broker::new(1);
        b.controller = Some(ControllerRole {
            epoch: 1,
            epoch_zk_version: 0,
            profile,
            live: BTreeMap::from([(1, 10), (2, 11), (3, 12), (4, 13)]),
            next_correlation: 1,
            partitions: PartitionContext {
                loaded: true,
                running: Some(Running {
                    task: Task::RebalanceCheck,
                    phase: Phase::ListTopics,
                    step: 1,
                    retries: 0,
                }),
                ..Default::default()
            },
            expired: false,
        });
        (b, settings)
    }

    #[test]
    fn a_broker_change_handles_new_brokers_then_bounced_then_dead() {
        // processBrokerChange (3.9.0, 2.4.1): startup of the new, failure then startup of the
        // bounced (counted as dead in between), failure of the dead, which count as live until then.
        let (mut b, settings) = controller(Profile::V3_9);
        let mut out = Out::default();
        b.on_brokers_changed(0, (vec![4], vec![2], vec![3]), &settings, &mut out);
        let ctx = &b.controller.as_ref().unwrap().partitions;
        assert_eq!(
            ctx.tasks.iter().cloned().collect::<Vec<_>>(),
            [
                Task::BrokersStarted(vec![4]),
                Task::LiveOverride {
                    brokers: vec![2],
                    live: Some(false)
                },
                Task::BrokerFailure(vec![2]),
                Task::LiveOverride {
                    brokers: vec![2],
                    live: None
                },
                Task::BrokersStarted(vec![2]),
                Task::LiveOverride {
                    brokers: vec![3],
                    live: None
                },
                Task::BrokerFailure(vec![3]),
            ]
        );
        assert_eq!(ctx.live_override, BTreeMap::from([(3, true)]));
        // Before 2.2 there are no bounces, and the dead brokers are out before the new ones start.
        let (mut b, settings) = controller(Profile::V2_0);
        b.on_brokers_changed(0, (vec![4], vec![], vec![3]), &settings, &mut out);
        let ctx = &b.controller.as_ref().unwrap().partitions;
        assert_eq!(
            ctx.tasks.iter().cloned().collect::<Vec<_>>(),
            [Task::BrokersStarted(vec![4]), Task::BrokerFailure(vec![3])]
        );
        assert!(ctx.live_override.is_empty());
    }
}

//! Consumers as clients of the classic group protocol (`AbstractCoordinator` /
//! `ConsumerCoordinator`): find the coordinator, JoinGroup (with KIP-394's member-id round
//! trip), SyncGroup (the leader computes the assignment with the group's assignor), heartbeat
//! every `heartbeat.interval.ms`, rejoin when the coordinator says a rebalance is on, find the
//! coordinator again when it moves, LeaveGroup, or die silently.
//!
//! A request to a broker whose process is gone fails at once (the connection is refused); one
//! to a frozen broker waits for `request.timeout.ms`.

pub mod causes;

use self::causes::ConsumerCause;
use super::assignors::{Assignor, Subscription};
use super::event::EventKind;
use super::message::{Body, Joined, KafkaError, Out, Timer};
use super::net::{BrokerId, Endpoint};
pub use super::state::ConsumerState;
use super::topic::TopicPartition;
use crate::collections::VecMap;

/// How long a consumer waits before retrying after an error (`retry.backoff.ms` is 100; the
/// model waits a little longer so that a dead coordinator is not hammered).
pub const RETRY_BACKOFF_MS: u64 = 500;

/// One consumer.
#[derive(Debug, Clone)]
pub struct Consumer {
    /// Its index (its endpoint).
    pub index: u32,
    /// Its client id: the member's name.
    pub name: String,
    /// The group.
    pub group: String,
    /// Subscribed topics.
    pub topics: Vec<String>,
    /// The assignor it asks for.
    pub assignor: String,
    /// Where it is.
    pub state: ConsumerState,
    /// Its member id (empty until the coordinator gives one).
    pub member_id: String,
    /// The generation it is in.
    pub generation: u32,
    /// The coordinator it talks to.
    pub coordinator: Option<BrokerId>,
    /// Its partitions.
    pub assignment: Vec<TopicPartition>,
    /// Whether it leads its generation.
    pub is_leader: bool,
    in_flight: Option<(u64, &'static str)>,
    /// The coordinator it last found (the event log tells only of changes).
    last_found: Option<BrokerId>,
    /// It lost the coordinator in the middle of a rebalance: it must join again.
    needs_join: bool,
    next_request: u64,
    tick: u64,
    bootstrap: usize,
}

/// The world's consumers.
#[derive(Debug, Clone, Default)]
pub struct Consumers {
    /// By index.
    pub list: Vec<Consumer>,
}

/// What the world tells a consumer about the cluster when it acts.
pub struct Cluster<'a> {
    /// Brokers whose process is running, in id order.
    pub running: &'a [BrokerId],
    /// Partition counts of the topics.
    pub partitions: &'a VecMap<String, u32>,
    /// `session.timeout.ms`, `heartbeat.interval.ms`, `max.poll.interval.ms`,
    /// `request.timeout.ms`.
    pub timeouts: (u64, u64, u64, u64),
}

impl Consumers {
    /// The consumer named `name` in `group`.
    pub fn find(&self, group: &str, name: &str) -> Option<&Consumer> {
        self.list
            .iter()
            .find(|c| c.group == group && c.name == name)
    }

    /// A consumer starts (or restarts, with a fresh member id) and looks for its coordinator.
    pub fn join(
        &mut self,
        now: u64,
        (group, name, topics, assignor): (&str, &str, Vec<String>, &str),
        cluster: &Cluster,
        out: &mut Out,
    ) {
        let index = match self
            .list
            .iter()
            .position(|c| c.group == group && c.name == name)
        {
            Some(i) => i,
            None => {
                self.list.push(Consumer {
                    index: self.list.len() as u32,
                    name: name.to_string(),
                    group: group.to_string(),
                    topics: Vec::new(),
                    assignor: String::new(),
                    state: ConsumerState::Left,
                    member_id: String::new(),
                    generation: 0,
                    coordinator: None,
                    assignment: Vec::new(),
                    is_leader: false,
                    in_flight: None,
                    last_found: None,
                    needs_join: false,
                    next_request: 0,
                    tick: 0,
                    bootstrap: 0,
                });
                self.list.len() - 1
            }
        };
        let c = &mut self.list[index];
        c.topics = topics;
        c.assignor = assignor.to_string();
        c.member_id.clear();
        c.generation = 0;
        c.assignment.clear();
        c.is_leader = false;
        c.tick += 1;
        c.find_coordinator(now, cluster, out);
    }

    /// A clean LeaveGroup.
    pub fn leave(&mut self, now: u64, group: &str, name: &str, cluster: &Cluster, out: &mut Out) {
        let Some(c) = self
            .list
            .iter_mut()
            .find(|c| c.group == group && c.name == name)
        else {
            return;
        };
        out.event(
            EventKind::ConsumerLeaving {
                group: group.to_string(),
                member: name.to_string(),
            },
            ConsumerCause::LeaveAction,
        );
        if let (Some(b), false) = (c.coordinator, c.member_id.is_empty()) {
            let body = Body::LeaveGroup {
                group: group.to_string(),
                member_id: c.member_id.clone(),
            };
            c.send(now, b, body, "leave", cluster, out);
        }
        c.state = ConsumerState::Left;
        c.assignment.clear();
        c.tick += 1;
    }

    /// The consumer dies without a word; the coordinator finds out when its session expires.
    pub fn crash(&mut self, group: &str, name: &str, out: &mut Out) {
        if let Some(c) = self
            .list
            .iter_mut()
            .find(|c| c.group == group && c.name == name)
        {
            c.state = ConsumerState::Crashed;
            c.in_flight = None;
            c.tick += 1;
            out.event(
                EventKind::ConsumerCrashed {
                    group: group.to_string(),
                    member: name.to_string(),
                },
                ConsumerCause::CrashAction,
            );
        }
    }

    /// A message for consumer `index`.
    #[inline(never)]
    pub fn handle(&mut self, now: u64, index: u32, body: Body, cluster: &Cluster, out: &mut Out) {
        if let Some(c) = self.list.get_mut(index as usize) {
            c.handle(now, body, cluster, out);
        }
    }

    /// A timer of consumer `index`.
    #[inline(never)]
    pub fn on_timer(
        &mut self,
        now: u64,
        index: u32,
        timer: Timer,
        cluster: &Cluster,
        out: &mut Out,
    ) {
        if let Some(c) = self.list.get_mut(index as usize) {
            c.on_timer(now, timer, cluster, out);
        }
    }

    /// A request to a broker whose process is gone: the connection is refused at once.
    #[inline(never)]
    pub fn refused(&mut self, now: u64, index: u32, cluster: &Cluster, out: &mut Out) {
        if let Some(c) = self.list.get_mut(index as usize) {
            if c.in_flight.is_some() && c.active() {
                c.in_flight = None;
                c.coordinator_lost(now, cluster, out);
            }
        }
    }
}

impl Consumer {
    fn me(&self) -> Endpoint {
        Endpoint::Consumer(self.index)
    }

    fn active(&self) -> bool {
        !matches!(self.state, ConsumerState::Left | ConsumerState::Crashed)
    }

    fn send(
        &mut self,
        now: u64,
        to: BrokerId,
        body: Body,
        kind: &'static str,
        cluster: &Cluster,
        out: &mut Out,
    ) {
        self.next_request += 1;
        let id = self.next_request;
        let (_, _, rebalance, request) = cluster.timeouts;
        let timeout = if kind == "join" {
            // JoinGroup may wait for the whole rebalance.
            rebalance + 5_000
        } else {
            request
        };
        self.in_flight = (kind != "leave").then_some((id, kind));
        out.send(self.me(), Endpoint::Broker(to), body);
        out.timer(
            now + timeout,
            self.me(),
            Timer::ConsumerTimeout { request: id },
        );
    }

    fn find_coordinator(&mut self, now: u64, cluster: &Cluster, out: &mut Out) {
        self.state = ConsumerState::FindingCoordinator;
        self.coordinator = None;
        if cluster.running.is_empty() {
            self.retry_later(now, out);
            return;
        }
        let b = cluster.running[self.bootstrap % cluster.running.len()];
        let body = Body::FindCoordinator {
            group: self.group.clone(),
        };
        self.send(now, b, body, "find", cluster, out);
    }

    fn retry_later(&mut self, now: u64, out: &mut Out) {
        self.tick += 1;
        out.timer(
            now + RETRY_BACKOFF_MS,
            self.me(),
            Timer::ConsumerTick { tick: self.tick },
        );
    }

    fn join_group(&mut self, now: u64, cluster: &Cluster, out: &mut Out) {
        let Some(b) = self.coordinator else {
            self.find_coordinator(now, cluster, out);
            return;
        };
        self.state = ConsumerState::Joining;
        self.tick += 1;
        let (session, _, rebalance, _) = cluster.timeouts;
        let body = Body::JoinGroup {
            group: self.group.clone(),
            member_id: self.member_id.clone(),
            client_id: self.name.clone(),
            topics: self.topics.clone(),
            assignor: self.assignor.clone(),
            session_timeout_ms: session,
            rebalance_timeout_ms: rebalance,
            new_member_id: String::new(),
        };
        self.send(now, b, body, "join", cluster, out);
    }

    fn coordinator_lost(&mut self, now: u64, _cluster: &Cluster, out: &mut Out) {
        // markCoordinatorUnknown: find it again after a back-off; the member id and generation
        // are kept, so a moved coordinator that loaded the group accepts the heartbeats.
        self.coordinator = None;
        self.bootstrap += 1;
        if matches!(self.state, ConsumerState::Joining | ConsumerState::Syncing) {
            self.needs_join = true;
        }
        self.state = ConsumerState::FindingCoordinator;
        self.retry_later(now, out);
    }

    fn schedule_heartbeat(&mut self, now: u64, cluster: &Cluster, out: &mut Out) {
        self.tick += 1;
        let (_, interval, _, _) = cluster.timeouts;
        out.timer(
            now + interval,
            self.me(),
            Timer::ConsumerTick { tick: self.tick },
        );
    }

    fn handle(&mut self, now: u64, body: Body, cluster: &Cluster, out: &mut Out) {
        if !self.active() {
            return;
        }
        let kind = self.in_flight.map(|(_, k)| k);
        match body {
            Body::FindCoordinatorResponse { result, .. } if kind == Some("find") => {
                self.in_flight = None;
                match result {
                    Ok(b) => {
                        self.coordinator = Some(b);
                        if self.last_found.replace(b) != Some(b) {
                            out.event(
                                EventKind::CoordinatorFound {
                                    group: self.group.clone(),
                                    member: self.name.clone(),
                                    coordinator: b,
                                },
                                ConsumerCause::CoordinatorFound,
                            );
                        }
                        if self.member_id.is_empty() || self.generation == 0 || self.needs_join {
                            self.needs_join = false;
                            self.join_group(now, cluster, out);
                        } else {
                            // Back to heartbeating at the (maybe new) coordinator.
                            self.state = ConsumerState::Stable;
                            self.heartbeat(now, cluster, out);
                        }
                    }
                    Err(_) => {
                        self.bootstrap += 1;
                        self.retry_later(now, out);
                    }
                }
            }
            Body::JoinGroupResponse { result, .. } if kind == Some("join") => {
                self.in_flight = None;
                match result {
                    Ok(joined) => self.on_joined(now, joined, cluster, out),
                    Err((KafkaError::MemberIdRequired, id)) => {
                        self.member_id = id;
                        self.join_group(now, cluster, out);
                    }
                    Err((KafkaError::UnknownMemberId, _)) => {
                        self.member_id.clear();
                        self.join_group(now, cluster, out);
                    }
                    Err((KafkaError::NotCoordinator | KafkaError::CoordinatorNotAvailable, _)) => {
                        self.coordinator_lost(now, cluster, out)
                    }
                    Err(_) => self.join_group(now, cluster, out),
                }
            }
            Body::SyncGroupResponse { result, .. } if kind == Some("sync") => {
                self.in_flight = None;
                match result {
                    Ok(assignment) => {
                        self.assignment = assignment;
                        self.state = ConsumerState::Stable;
                        self.schedule_heartbeat(now, cluster, out);
                    }
                    Err(KafkaError::NotCoordinator | KafkaError::CoordinatorNotAvailable) => {
                        self.coordinator_lost(now, cluster, out)
                    }
                    Err(KafkaError::UnknownMemberId) => {
                        self.member_id.clear();
                        self.join_group(now, cluster, out);
                    }
                    Err(_) => self.join_group(now, cluster, out),
                }
            }
            Body::HeartbeatResponse { error, .. } if kind == Some("heartbeat") => {
                self.in_flight = None;
                match error {
                    None => self.schedule_heartbeat(now, cluster, out),
                    Some(KafkaError::RebalanceInProgress | KafkaError::IllegalGeneration) => {
                        self.join_group(now, cluster, out)
                    }
                    Some(KafkaError::UnknownMemberId) => {
                        self.member_id.clear();
                        self.generation = 0;
                        self.assignment.clear();
                        self.join_group(now, cluster, out);
                    }
                    Some(_) => self.coordinator_lost(now, cluster, out),
                }
            }
            _ => {}
        }
    }

    fn on_joined(&mut self, now: u64, joined: Joined, cluster: &Cluster, out: &mut Out) {
        self.member_id = joined.member_id.clone();
        self.generation = joined.generation;
        self.is_leader = joined.leader == joined.member_id;
        self.state = ConsumerState::Syncing;
        let assignment = if self.is_leader {
            // The leader computes everyone's assignment with the group's assignor.
            let members: VecMap<String, Subscription> = joined
                .members
                .iter()
                .map(|(id, topics)| (id.clone(), Subscription::new(topics.iter().cloned())))
                .collect();
            let assignor = Assignor::from_name(&joined.protocol).unwrap_or(Assignor::Range);
            assignor
                .assign(&members, cluster.partitions)
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        let Some(b) = self.coordinator else {
            return;
        };
        let body = Body::SyncGroup {
            group: self.group.clone(),
            generation: self.generation,
            member_id: self.member_id.clone(),
            assignment,
        };
        self.send(now, b, body, "sync", cluster, out);
    }

    fn heartbeat(&mut self, now: u64, cluster: &Cluster, out: &mut Out) {
        let Some(b) = self.coordinator else {
            self.find_coordinator(now, cluster, out);
            return;
        };
        let body = Body::Heartbeat {
            group: self.group.clone(),
            generation: self.generation,
            member_id: self.member_id.clone(),
        };
        self.send(now, b, body, "heartbeat", cluster, out);
    }

    fn on_timer(&mut self, now: u64, timer: Timer, cluster: &Cluster, out: &mut Out) {
        if !self.active() {
            return;
        }
        match timer {
            Timer::ConsumerTick { tick } if tick == self.tick => match self.state {
                ConsumerState::Stable if self.in_flight.is_none() => {
                    self.heartbeat(now, cluster, out)
                }
                ConsumerState::FindingCoordinator if self.in_flight.is_none() => {
                    self.find_coordinator(now, cluster, out)
                }
                _ => {}
            },
            Timer::ConsumerTimeout { request }
                if self.in_flight.is_some_and(|(id, _)| id == request) =>
            {
                self.in_flight = None;
                self.coordinator_lost(now, cluster, out);
            }
            _ => {}
        }
    }
}

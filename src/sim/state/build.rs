//! Building the views from the world's parts: each broker as its process and ZooKeeper see
//! it, each partition as ZooKeeper's partition state and the replicas' logs hold it, each group
//! as its coordinator and its consumers hold it, and what the consumers see of the cluster.
//!
//! The world lends its parts through [`Sources`]; nothing here changes them, and nothing here
//! decides anything about Kafka that the roles do not already hold: the values are read from
//! the same state the rules use.

use super::{
    replica_lag, BrokerView, ClusterState, ConsumerView, ControllerRequest, ControllerRequestView,
    ControllerRole, GroupView, PartitionHealth, PartitionView, RebalanceCountdown, RebalanceWait,
    ReplicaState, SessionView, StallScope, StreamView, SyncWait,
};
use crate::collections::VecMap;
use crate::sim::broker::{Broker, BrokerStatus};
use crate::sim::commands::GroupSpec;
use crate::sim::config::Settings;
use crate::sim::consumer::{Cluster, Consumer, Consumers};
use crate::sim::controller::channels::Req;
use crate::sim::controller::timers::ControllerTimer;
use crate::sim::coordinator::{group_partition, CoordinatorState, Group, GroupTimer};
use crate::sim::message::Timer;
use crate::sim::monitor::Monitor;
use crate::sim::net::{BrokerId, Endpoint, Network};
use crate::sim::producer::Producer;
use crate::sim::replication::timers::ReplicaTimer;
use crate::sim::replication::{out_of_sync_from, Role};
use crate::sim::topic::{TopicPartition, TopicSpec};
use crate::sim::znodes::PartitionState;
use crate::sim::zookeeper::ZooKeeper;

/// Whether the views count down to `timer`: a controller request's timeout, a group timer
/// (rebalance delay, join deadline, member session), the leader's next ISR-expiration check.
/// The world lends the views only these, so that building them does not scan every fetch and
/// produce timer in flight.
pub(crate) fn counts_down(timer: &Timer) -> bool {
    matches!(
        timer,
        Timer::Controller(ControllerTimer::RequestTimeout { .. })
            | Timer::Group { .. }
            | Timer::Replica(ReplicaTimer::IsrExpiration)
    )
}

/// The parts of the world the views are built from, borrowed for the time of one build.
pub struct Sources<'a> {
    /// Virtual time now.
    pub now: u64,
    /// The settings in force.
    pub settings: &'a Settings,
    /// ZooKeeper.
    pub zk: &'a ZooKeeper,
    /// The brokers by id.
    pub brokers: &'a VecMap<BrokerId, Broker>,
    /// The network (which links are cut).
    pub net: &'a Network,
    /// The safety monitor (the partitions, parsed partition states and assignments).
    pub monitor: &'a Monitor,
    /// The topics as set up.
    pub topics: &'a [TopicSpec],
    /// The consumer groups as set up.
    pub groups: &'a [GroupSpec],
    /// The consumers.
    pub consumers: &'a Consumers,
    /// The producer.
    pub producer: &'a Producer,
    /// Broken invariants so far.
    pub violations: &'a [String],
    /// The timers the brokers' current processes wait on.
    pub timers: &'a [PendingTimer<'a>],
}

/// A timer a broker's current process waits on, as the world holds it.
#[derive(Debug, Clone, Copy)]
pub struct PendingTimer<'a> {
    /// When it falls due. One that fell due while the process was paused waits for it to
    /// wake: it counts as due now.
    pub due_ms: u64,
    /// The broker whose process set it.
    pub broker: BrokerId,
    /// The timer.
    pub timer: &'a Timer,
}

impl Sources<'_> {
    /// The state now, as `kafka-election run` prints it.
    pub fn cluster_state(&self) -> ClusterState {
        let brokers = self
            .brokers
            .values()
            .map(|b| {
                // The session the broker uses, while ZooKeeper keeps it; else (a crashed or
                // stopped broker) the one ZooKeeper still keeps for it.
                let live =
                    b.zk.session
                        .and_then(|id| {
                            self.zk
                                .session(id)
                                .filter(|s| s.ended.is_none())
                                .map(|s| (id, s))
                        })
                        .or_else(|| self.zk.live_session_of(b.id));
                let registered = self.zk.registration(b.id);
                let state = broker_state(b.status);
                let zk_connection = b.zk.state;
                let zk_link_cut = self.net.is_cut(Endpoint::Broker(b.id), Endpoint::Zk);
                let session_expires_in_ms =
                    live.map(|(_, s)| s.deadline_ms().saturating_sub(self.now));
                // The broker may not be heartbeating: ZooKeeper's countdown runs.
                let quiet = state != super::BrokerState::Running
                    || zk_link_cut
                    || zk_connection != super::ZkConnection::Connected;
                let view = BrokerView {
                    state,
                    broker_epoch: registered.or(b.broker_epoch).or(b.last_broker_epoch),
                    registered: registered.is_some(),
                    acts_as_controller: b.controller.is_some(),
                    acting_epoch: b.controller.as_ref().map(|c| c.epoch),
                    known_controller_epoch: b.metadata_epoch,
                    known_controller: b.metadata_controller,
                    zk_connection,
                    zk_session: live.map(|(id, _)| format!("0x{id:x}")),
                    session_expires_in_ms,
                    paused_since_ms: match b.status {
                        BrokerStatus::Paused { since_ms, .. } => Some(since_ms),
                        _ => None,
                    },
                    paused_until_ms: match b.status {
                        BrokerStatus::Paused { until_ms, .. } => Some(until_ms),
                        _ => None,
                    },
                    zk_link_cut,
                    stalled_fetchers: b
                        .stalls
                        .iter()
                        .map(|s| match (&s.topic, s.partition) {
                            (None, _) => "all".to_string(),
                            (Some(t), None) => t.clone(),
                            (Some(t), Some(p)) => format!("{t}-{p}"),
                        })
                        .collect(),
                    stalls: b
                        .stalls
                        .iter()
                        .map(|s| match (&s.topic, s.partition) {
                            (None, _) => StallScope::All,
                            (Some(t), None) => StallScope::Topic(t.clone()),
                            (Some(t), Some(p)) => StallScope::Partition(format!("{t}-{p}")),
                        })
                        .collect(),
                    controller_role: ControllerRole::of(
                        b.controller.is_some(),
                        self.zk.controller() == Some(b.id),
                    ),
                    session_countdown_ms: session_expires_in_ms.filter(|_| quiet),
                    controller_requests: self.controller_requests(b),
                };
                (b.id, view)
            })
            .collect();
        ClusterState {
            time_ms: self.now,
            controller: self.zk.controller(),
            controller_epoch: self.zk.controller_epoch(),
            brokers,
            partitions: self.partition_views(),
            groups: self.group_views(),
            lost_records: self
                .all_partitions()
                .into_iter()
                .map(|tp| {
                    let lost = self.producer.ledgers.get(&tp).map_or(0, |l| l.lost_records);
                    (tp.to_string(), lost)
                })
                .collect(),
            producer: self.producer.view(self.settings),
            violations: self.violations.to_vec(),
            sessions: self
                .zk
                .sessions()
                .filter(|(_, s)| s.ended.is_none())
                .map(|(id, s)| SessionView {
                    session: id,
                    owner: s.owner,
                    timeout_ms: s.timeout_ms,
                    last_heard_ms: s.last_heard_ms,
                    expires_in_ms: s.deadline_ms().saturating_sub(self.now),
                })
                .collect(),
        }
    }

    /// The time left before the first timer of `broker`'s process that `which` picks falls
    /// due, if one runs (among the timers [`counts_down`] keeps).
    fn due_in(&self, broker: BrokerId, which: impl Fn(&Timer) -> bool) -> Option<u64> {
        self.timers
            .iter()
            .filter(|t| t.broker == broker && which(t.timer))
            .map(|t| t.due_ms.saturating_sub(self.now))
            .min()
    }

    /// The requests a broker acting as controller awaits answers to, by broker.
    fn controller_requests(&self, b: &Broker) -> Vec<ControllerRequestView> {
        let Some(role) = b.controller.as_ref() else {
            return Vec::new();
        };
        role.partitions
            .channels
            .iter()
            .filter_map(|(to, ch)| {
                let (correlation_id, req) = ch.in_flight.as_ref()?;
                let timeout_in_ms = self.due_in(b.id, |t| {
                    matches!(t, Timer::Controller(ControllerTimer::RequestTimeout { broker, correlation_id: c })
                        if broker == to && c == correlation_id)
                });
                Some(ControllerRequestView {
                    to: *to,
                    request: match req {
                        Req::LeaderAndIsr(_) => ControllerRequest::LeaderAndIsr,
                        Req::UpdateMetadata => ControllerRequest::UpdateMetadata,
                        Req::StopReplica(..) => ControllerRequest::StopReplica,
                    },
                    correlation_id: *correlation_id,
                    timeout_in_ms,
                    queued: ch.queue.len(),
                })
            })
            .collect()
    }

    /// The acting leader's ISR countdowns of `tp`: see [`PartitionView::isr_expiry_in_ms`].
    fn isr_expiry(&self, leader: BrokerId, tp: &TopicPartition) -> VecMap<BrokerId, u64> {
        let Some(r) = self.brokers[&leader].replicas.get(tp) else {
            return VecMap::new();
        };
        let Some(st) = r.state.as_ref() else {
            return VecMap::new();
        };
        let Role::Leader(ls) = &st.role else {
            return VecMap::new();
        };
        // The ISR-expiration check's own rule.
        st.isr
            .iter()
            .copied()
            .filter(|f| *f != leader)
            .filter_map(|f| {
                out_of_sync_from(ls.followers.get(&f), r.log.leo, self.settings)
                    .map(|at| (f, at.saturating_sub(self.now)))
            })
            .collect()
    }

    /// Where the SyncGroup answers of `group` wait on its coordinator `b`: the stored
    /// assignment of the current generation not yet committed (see [`SyncWait`]).
    fn sync_wait(&self, b: BrokerId, group: &Group) -> Option<SyncWait> {
        if group.state != super::GroupState::CompletingRebalance {
            return None;
        }
        let broker = &self.brokers[&b];
        let write = broker.coordinator.writes.iter().find(|w| {
            w.group == group.id && w.generation == group.generation && w.assignment.is_some()
        })?;
        let r = broker.replicas.get(&write.tp)?;
        let st = r.state.as_ref()?;
        let Role::Leader(ls) = &st.role else {
            return None;
        };
        let awaiting = st
            .isr
            .iter()
            .copied()
            .filter(|f| *f != b)
            .filter(|f| ls.followers.get(f).map_or(0, |p| p.leo) < write.end)
            .collect();
        Some(SyncWait {
            partition: write.tp.to_string(),
            record_end: write.end,
            high_watermark: r.log.hw,
            awaiting,
        })
    }

    /// The countdowns of a group on its coordinator `b`: the rebalance's wait and each
    /// member's session.
    fn group_countdowns(
        &self,
        b: BrokerId,
        coordinator: &CoordinatorState,
        group: &Group,
    ) -> (Option<RebalanceCountdown>, VecMap<String, u64>) {
        let due = |id: u64| self.due_in(b, |t| matches!(t, Timer::Group { id: x } if *x == id));
        let rebalance = group.rebalance.as_ref().and_then(|r| {
            coordinator.timers.iter().find_map(|(id, t)| {
                let wait = match t {
                    GroupTimer::InitialDelay { group: g, seq }
                        if *g == group.id && *seq == r.seq =>
                    {
                        RebalanceWait::InitialDelay
                    }
                    GroupTimer::JoinDeadline { group: g, seq }
                        if *g == group.id && *seq == r.seq =>
                    {
                        RebalanceWait::JoinDeadline
                    }
                    _ => return None,
                };
                due(*id).map(|left_ms| RebalanceCountdown { wait, left_ms })
            })
        });
        let sessions = group
            .members
            .values()
            .filter(|m| {
                matches!(coordinator.timers.get(&m.session_timer),
                    Some(GroupTimer::Session { group: g, member_id, .. })
                        if *g == group.id && *member_id == m.member_id)
            })
            .filter_map(|m| due(m.session_timer).map(|left| (m.client_id.clone(), left)))
            .collect();
        (rebalance, sessions)
    }

    fn partition_views(&self) -> VecMap<String, PartitionView> {
        let mut views = VecMap::new();
        for tp in self.all_partitions() {
            let replicas = self.assignment(&tp);
            let st = self.zk_state(&tp);
            let (leader, leader_epoch, isr, controller_epoch) = match &st {
                Some(s) => (s.leader, s.leader_epoch, s.isr.clone(), s.controller_epoch),
                None => (-1, 0, Vec::new(), 0),
            };
            let mut leos = VecMap::new();
            let mut roles = VecMap::new();
            let mut max_hw = 0;
            for r in &replicas {
                let b = &self.brokers[r];
                let log = b.replicas.get(&tp).map(|x| &x.log);
                leos.insert(*r, log.map_or(0, |l| l.leo));
                max_hw = max_hw.max(log.map_or(0, |l| l.hw));
                // The broker's own view: a deposed leader that has not heard so (a split
                // brain) still shows as leader.
                let acts_as_leader = b
                    .replicas
                    .get(&tp)
                    .and_then(|x| x.state.as_ref())
                    .is_some_and(|st| matches!(st.role, Role::Leader(_)));
                let role = match b.status {
                    BrokerStatus::Paused { .. } => ReplicaState::Frozen,
                    s if !s.is_alive() => ReplicaState::Offline,
                    _ if acts_as_leader => ReplicaState::Leader,
                    _ if isr.contains(r) => ReplicaState::InSync,
                    _ => ReplicaState::OutOfSync,
                };
                roles.insert(*r, role);
            }
            let acting = self.acting_leader(&tp);
            let (high_watermark, duplicate_records) = match acting {
                Some((l, _)) => {
                    let log = &self.brokers[&l].replicas[&tp].log;
                    (log.hw, log.duplicate_records())
                }
                None => (
                    max_hw,
                    replicas
                        .iter()
                        .filter_map(|r| self.brokers[r].replicas.get(&tp))
                        .max_by_key(|x| x.log.leo)
                        .map_or(0, |x| x.log.duplicate_records()),
                ),
            };
            let ledger = self.producer.ledgers.get(&tp);
            let stream = self
                .producer
                .streams
                .values()
                .find(|s| s.tp == tp)
                .map(|s| StreamView {
                    acks: s.acks,
                    rate_per_s: s.rate_per_s,
                });
            let min_insync_replicas = self.settings.topic_min_insync(&tp.topic);
            let health = PartitionHealth::of(leader, &isr, &replicas, &roles, min_insync_replicas);
            let lag = replica_lag(&replicas, &leos, leader);
            let (isr_expiry_in_ms, isr_check_in_ms) = match acting {
                Some((l, _)) => (
                    self.isr_expiry(l, &tp),
                    self.due_in(l, |t| {
                        matches!(t, Timer::Replica(ReplicaTimer::IsrExpiration))
                    }),
                ),
                None => (VecMap::new(), None),
            };
            views.insert(
                tp.to_string(),
                PartitionView {
                    preferred: replicas.first().copied().unwrap_or_default(),
                    replicas,
                    leader,
                    leader_epoch,
                    isr,
                    controller_epoch,
                    high_watermark,
                    log_end_offsets: leos,
                    replica_states: roles,
                    unclean_leader_election: self.settings.topic_unclean(&tp.topic),
                    min_insync_replicas,
                    acked_records: ledger.map_or(0, |l| l.acked_records),
                    failed_records: ledger.map_or(0, |l| l.failed_records),
                    retried_records: ledger.map_or(0, |l| l.retried_records),
                    duplicate_records,
                    stream,
                    exists: st.is_some(),
                    lag,
                    health,
                    isr_expiry_in_ms,
                    isr_check_in_ms,
                },
            );
        }
        views
    }

    fn group_views(&self) -> VecMap<String, GroupView> {
        let mut views = VecMap::new();
        for g in self.groups {
            let tp = group_partition(&g.id, self.settings);
            let held = self.acting_leader(&tp).and_then(|(b, _)| {
                self.brokers[&b]
                    .coordinator
                    .groups
                    .get(&g.id)
                    .map(|group| (b, group))
            });
            let held_leader = held
                .and_then(|(_, group)| group.leader.as_deref().map(|id| member_name(group, id)));
            let consumers: VecMap<String, ConsumerView> = self
                .consumers
                .list
                .iter()
                .filter(|c| c.group == g.id)
                .map(|c| consumer_view(c, held.map(|(_, group)| group), held_leader.as_deref()))
                .collect();
            let view = match held {
                Some((b, group)) => self.held_group_view(b, group, tp.partition, consumers),
                None => GroupView {
                    coordinator: None,
                    coordinator_partition: tp.partition,
                    offsets_leader: self.acting_leader(&tp).map(|(b, _)| b),
                    awaits_first_join: consumers.is_empty(),
                    state: None,
                    generation: 0,
                    leader: None,
                    members: Vec::new(),
                    member_ids: VecMap::new(),
                    assignment: VecMap::new(),
                    consumers,
                    rebalance_countdown: None,
                    session_expiry_in_ms: VecMap::new(),
                    sync_wait: None,
                },
            };
            views.insert(g.id.clone(), view);
        }
        views
    }

    /// The view of a group its coordinator `b` holds, with its `consumers`. In a function of
    /// its own, like [`consumer_view`]: the first view has no consumer, so the build leaves it
    /// to the module's second part.
    #[inline(never)]
    fn held_group_view(
        &self,
        b: BrokerId,
        group: &Group,
        coordinator_partition: u32,
        consumers: VecMap<String, ConsumerView>,
    ) -> GroupView {
        let name = |id: &str| member_name(group, id);
        let (rebalance_countdown, session_expiry_in_ms) =
            self.group_countdowns(b, &self.brokers[&b].coordinator, group);
        GroupView {
            coordinator: Some(b),
            coordinator_partition,
            offsets_leader: Some(b),
            awaits_first_join: false,
            state: Some(group.state),
            generation: group.generation,
            leader: group.leader.as_deref().map(name),
            members: group.order.keys().iter().map(|id| name(id)).collect(),
            member_ids: group
                .members
                .values()
                .map(|m| (m.client_id.clone(), m.member_id.clone()))
                .collect(),
            assignment: group
                .members
                .values()
                .map(|m| {
                    (
                        m.client_id.clone(),
                        m.assignment
                            .iter()
                            .map(|(t, p)| format!("{t}-{p}"))
                            .collect(),
                    )
                })
                .collect(),
            consumers,
            rebalance_countdown,
            session_expiry_in_ms,
            sync_wait: self.sync_wait(b, group),
        }
    }

    /// Every partition, in order.
    fn all_partitions(&self) -> Vec<TopicPartition> {
        self.monitor.partitions().to_vec()
    }

    /// ZooKeeper's partition state of `tp`, if written (parsed once per change).
    fn zk_state(&self, tp: &TopicPartition) -> Option<PartitionState> {
        self.monitor.zk_state(self.zk, tp)
    }

    /// The assignment in ZooKeeper (a reassignment changes it), else as set up.
    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        assignment(self.monitor, self.zk, self.topics, tp)
    }

    /// The broker that leads `tp` now: ZooKeeper names it and it has taken that leader epoch.
    fn acting_leader(&self, tp: &TopicPartition) -> Option<(BrokerId, u64)> {
        self.monitor.acting_leader(self.zk, self.brokers, tp)
    }
}

/// The name (client id) the coordinator knows a member id by.
fn member_name(group: &Group, id: &str) -> String {
    group
        .members
        .get(id)
        .map_or_else(|| id.to_string(), |m| m.client_id.clone())
}

/// Consumer `c` as the page shows it; `held`: its group on the coordinator, if one holds it,
/// and `held_leader` the name of that group's leader. In a function of its own: the first view
/// has no consumer, so the build leaves it to the module's second part.
#[inline(never)]
fn consumer_view(
    c: &Consumer,
    held: Option<&Group>,
    held_leader: Option<&str>,
) -> (String, ConsumerView) {
    let state = c.state;
    let (leads_group, group_generation, is_member) = match held {
        Some(group) => (
            held_leader == Some(c.name.as_str()),
            group.generation,
            group
                .order
                .keys()
                .iter()
                .any(|id| member_name(group, id) == c.name),
        ),
        None => (c.is_leader && state.is_running(), c.generation, false),
    };
    (
        c.name.clone(),
        ConsumerView {
            state,
            member_id: c.member_id.clone(),
            generation: c.generation,
            coordinator: c.coordinator,
            leader: c.is_leader,
            assignment: c.assignment.iter().map(|tp| tp.to_string()).collect(),
            index: c.index,
            leads_group,
            group_generation,
            is_member,
        },
    )
}

/// The assignment of `tp` in ZooKeeper (a reassignment changes it), else as set up.
pub fn assignment(
    monitor: &Monitor,
    zk: &ZooKeeper,
    topics: &[TopicSpec],
    tp: &TopicPartition,
) -> Vec<BrokerId> {
    monitor
        .zk_assignment(zk, tp)
        .or_else(|| {
            topics
                .iter()
                .find(|t| t.name == tp.topic)
                .and_then(|t| t.replicas.get(tp.partition as usize).cloned())
        })
        .unwrap_or_default()
}

/// A broker process's state as the views show it.
fn broker_state(s: BrokerStatus) -> super::BrokerState {
    match s {
        BrokerStatus::NotStarted => super::BrokerState::NotStarted,
        BrokerStatus::Running => super::BrokerState::Running,
        BrokerStatus::Paused { .. } => super::BrokerState::Paused,
        BrokerStatus::ShuttingDown => super::BrokerState::ShuttingDown,
        BrokerStatus::Crashed => super::BrokerState::Crashed,
        BrokerStatus::Stopped => super::BrokerState::Stopped,
    }
}

/// What the consumers see of the cluster, owned so the world can lend it while it changes.
pub struct ClusterView {
    running: Vec<BrokerId>,
    partitions: VecMap<String, u32>,
    timeouts: (u64, u64, u64, u64),
}

impl ClusterView {
    /// What the consumers see of the cluster now: the brokers that accept requests, the
    /// topics' partition counts and the consumers' timeouts.
    pub fn of(
        brokers: &VecMap<BrokerId, Broker>,
        topics: &[TopicSpec],
        settings: &Settings,
    ) -> ClusterView {
        ClusterView {
            running: brokers
                .values()
                .filter(|b| matches!(b.status, BrokerStatus::Running | BrokerStatus::ShuttingDown))
                .map(|b| b.id)
                .collect(),
            partitions: topics
                .iter()
                .map(|t| (t.name.clone(), t.replicas.len() as u32))
                .collect(),
            timeouts: (
                settings.consumer_session_timeout_ms,
                settings.heartbeat_interval_ms,
                settings.max_poll_interval_ms,
                settings.request_timeout_ms,
            ),
        }
    }

    /// The view as the consumers take it.
    pub fn as_cluster(&self) -> Cluster<'_> {
        Cluster {
            running: &self.running,
            partitions: &self.partitions,
            timeouts: self.timeouts,
        }
    }
}

#[cfg(test)]
#[path = "build_test.rs"]
mod tests;

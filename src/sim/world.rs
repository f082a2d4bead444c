//! The discrete-event world: a virtual clock, one seeded RNG and a queue of timed
//! deliveries, timers and actions. It applies commands (a click on the page, an action of a
//! scenario) once [`check`] passes them, hands each item that falls due to its owner
//! (ZooKeeper, a broker, the producer, a consumer), sends what they output through the
//! [`Network`], and runs the safety [`Monitor`] after every step.

pub mod causes;

use self::causes::WorldCause;
use super::broker::{Broker, BrokerStatus, ZkState};
use super::cause::Cause;
use super::commands::{check, scope, Command, GroupSpec, Layout, Live, Setup, STARTUP_SPACING_MS};
use super::config::Settings;
use super::consumer::{Cluster, ConsumerState, Consumers};
use super::coordinator::{group_partition, Group, GroupState};
use super::event::{ElectionReason, Event, EventKind};
use super::invariants;
use super::message::{AdminRequest, Body, Out, Timer};
use super::monitor::Monitor;
use super::net::{BrokerId, Endpoint, Envelope, MessageRecord, Network};
use super::producer::{Producer, ProducerOut};
use super::replication::{Role, Stall};
use super::rng::Rng;
use super::state::{
    self as view, replica_lag, BrokerView, ClusterState, ConsumerView, ControllerRole, GroupView,
    PartitionHealth, PartitionView, ReplicaState, StreamView,
};
use super::topic::{Acks, TopicPartition, TopicSpec};
use super::znodes::{
    topic_path, PartitionState, ReassignPartitions, TopicAssignment, ZnodeValue,
    REASSIGN_PARTITIONS_PATH,
};
use super::zookeeper::ZooKeeper;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone)]
enum Item {
    Deliver {
        msg: u64,
        from: Endpoint,
        to: Endpoint,
        body: Body,
        /// Already received (parked while the receiver was frozen): no longer on the wire.
        received: bool,
    },
    Timer {
        owner: Endpoint,
        incarnation: u64,
        timer: Timer,
    },
    Start(BrokerId),
    CreateTopics,
}

/// Where ZooKeeper's session-tracker ticks fall: a phase in `[0, tickTime)` derived from the
/// seed by a generator of its own, so that it draws nothing from the world's RNG.
pub fn zk_clock(seed: u64) -> super::zookeeper::ZkClock {
    let tick = super::zookeeper::ZK_TICK_TIME_MS;
    super::zookeeper::ZkClock::new(tick, Rng::new(seed ^ 0x7a6b_7469_636b).up_to(tick - 1))
}

/// The simulated cluster.
#[derive(Debug, Clone)]
pub struct World {
    settings: Settings,
    seed: u64,
    now: u64,
    seq: u64,
    queue: BTreeMap<(u64, u64), Item>,
    rng: Rng,
    zk: ZooKeeper,
    brokers: BTreeMap<BrokerId, Broker>,
    parked: BTreeMap<BrokerId, Vec<Item>>,
    net: Network,
    events: Vec<Event>,
    monitor: Monitor,
    violations: Vec<String>,
    topics: Vec<TopicSpec>,
    groups: Vec<GroupSpec>,
    consumers: Consumers,
    producer: Producer,
}

impl World {
    /// A world at t=0 with the brokers of `setup` scheduled to start.
    pub fn new(setup: &Setup) -> World {
        let topics = setup.world_topics();
        let mut w = World {
            settings: setup.settings.clone(),
            seed: setup.seed,
            now: 0,
            seq: 0,
            queue: BTreeMap::new(),
            rng: Rng::new(setup.seed),
            zk: ZooKeeper::with_clock(zk_clock(setup.seed)),
            brokers: BTreeMap::new(),
            parked: BTreeMap::new(),
            net: Network::default(),
            events: Vec::new(),
            monitor: Monitor::new(&topics),
            violations: Vec::new(),
            topics,
            groups: setup.groups.clone(),
            consumers: Consumers::default(),
            producer: Producer::default(),
        };
        for t in &setup.topics {
            w.settings.topics.insert(t.name.clone(), t.config.clone());
        }
        if !w.topics.is_empty() {
            w.push(setup.topics_created_ms(), Item::CreateTopics);
        }
        let mut initial = 0;
        for (id, start) in &setup.brokers {
            w.brokers.insert(*id, Broker::new(*id));
            match start {
                Some(0) => {
                    w.push(initial * STARTUP_SPACING_MS, Item::Start(*id));
                    initial += 1;
                }
                Some(t) => w.push(*t, Item::Start(*id)),
                None => {}
            }
        }
        w
    }

    /// Virtual time now.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every event so far, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The most recent messages (up to [`MESSAGE_HISTORY`](super::net::MESSAGE_HISTORY)), oldest
    /// first.
    pub fn messages(&self) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        self.net.messages()
    }

    /// The kept messages whose id is `id` or later, oldest first (without scanning the rest).
    pub fn messages_since(
        &self,
        id: u64,
    ) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        self.net.messages_since(id)
    }

    /// Broker ids in order.
    pub fn broker_ids(&self) -> Vec<BrokerId> {
        self.brokers.keys().copied().collect()
    }

    /// A broker, by id.
    pub fn broker(&self, id: BrokerId) -> Option<&Broker> {
        self.brokers.get(&id)
    }

    /// ZooKeeper.
    pub fn zookeeper(&self) -> &ZooKeeper {
        &self.zk
    }

    /// Whether the link between two endpoints is cut.
    pub fn is_cut(&self, a: Endpoint, b: Endpoint) -> bool {
        self.net.is_cut(a, b)
    }

    /// Virtual time of the next thing due, if any.
    pub fn next_due(&self) -> Option<u64> {
        self.queue.keys().next().map(|(t, _)| *t)
    }

    fn push(&mut self, at: u64, item: Item) {
        self.seq += 1;
        self.queue.insert((at, self.seq), item);
    }

    /// Runs everything due up to and including `t`, then sets the clock to `t`.
    pub fn advance_to(&mut self, t: u64) {
        while let Some(entry) = self.queue.first_entry() {
            let (at, _) = *entry.key();
            if at > t {
                break;
            }
            let item = entry.remove();
            self.now = at;
            self.process(item);
        }
        self.now = self.now.max(t);
    }

    /// Applies a command now. A command that makes no sense in the current state changes
    /// nothing and says why.
    pub fn apply(&mut self, cmd: Command) -> Result<(), String> {
        let ids = self.broker_ids();
        let layout = Layout {
            brokers: &ids,
            topics: &self.topics,
            groups: &self.groups,
            settings: &self.settings,
        };
        check(&cmd, &layout, Some(self))?;
        let now = self.now;
        let mut out = Out::default();
        match cmd {
            Command::Start(b) => {
                let settings = self.settings.clone();
                self.broker_mut(b)
                    .start(now, &settings, WorldCause::StartAction, &mut out);
                self.parked.remove(&b);
                self.finish(out);
            }
            Command::Crash(b) => {
                self.broker_mut(b).crash(WorldCause::CrashAction, &mut out);
                self.parked.remove(&b);
                self.finish(out);
            }
            Command::Shutdown(b) => {
                let settings = self.settings.clone();
                self.broker_mut(b).begin_shutdown(now, &settings, &mut out);
                self.finish(out);
            }
            Command::Pause { broker, for_ms } => {
                self.broker_mut(broker).pause(now, now + for_ms, &mut out);
                self.finish(out);
            }
            Command::ExpireSession(b) => {
                self.zk.force_expire(b, &mut out);
                self.finish(out);
            }
            Command::Cut(a, b) => {
                self.net.cut(a, b);
                self.record(
                    EventKind::LinkCut {
                        from: a.short_name(),
                        to: b.short_name(),
                    },
                    WorldCause::CutAction.into(),
                );
            }
            Command::Heal(a, b) => {
                let reset = self.net.heal(a, b);
                self.record(
                    EventKind::LinkHealed {
                        from: a.short_name(),
                        to: b.short_name(),
                    },
                    WorldCause::HealAction.into(),
                );
                // A ZooKeeper connection that lost packets is reset now; the client
                // reconnects, replays what went unanswered and re-arms its watches.
                if let Some(x) = reset {
                    let msg = self.net.next_id();
                    self.push(
                        now,
                        Item::Deliver {
                            msg,
                            from: Endpoint::Zk,
                            to: Endpoint::Broker(x),
                            body: Body::ConnectionLoss,
                            received: true,
                        },
                    );
                }
            }
            Command::Produce {
                topic,
                partition,
                records,
                acks,
                rate_per_s,
                for_ms,
            } => {
                let tp = TopicPartition::new(&topic, partition);
                let mut pout = ProducerOut::default();
                match rate_per_s {
                    None => self.producer.send(
                        now,
                        &tp,
                        records.unwrap_or(0),
                        acks,
                        &self.brokers,
                        &self.settings,
                        &mut self.rng,
                        &mut pout,
                    ),
                    Some(rate) => {
                        self.producer.stop(&tp);
                        let stream = Producer::stream(
                            tp.clone(),
                            acks,
                            rate,
                            for_ms.map(|f| now + f),
                            records,
                        );
                        let id = self.producer.start_stream(stream);
                        self.record(
                            EventKind::ProducerStarted {
                                partition: tp.to_string(),
                                acks: acks.name().into(),
                                rate_per_s: rate,
                            },
                            WorldCause::ProduceAction.into(),
                        );
                        self.push(
                            now,
                            Item::Timer {
                                owner: Endpoint::Client,
                                incarnation: 0,
                                timer: Timer::ProduceTick { stream: id },
                            },
                        );
                    }
                }
                self.finish_producer(pout);
            }
            Command::StopProducing { topic, partition } => {
                let tp = TopicPartition::new(&topic, partition);
                self.producer.stop(&tp);
                self.record(
                    EventKind::ProducerStopped {
                        partition: tp.to_string(),
                    },
                    WorldCause::StopAction.into(),
                );
            }
            Command::StallFetcher {
                broker,
                topic,
                partition,
            } => {
                let what = scope(&topic, &partition);
                self.broker_mut(broker)
                    .stalls
                    .push(Stall { topic, partition });
                self.record(
                    EventKind::FetcherStalled { broker, what },
                    WorldCause::StallAction.into(),
                );
            }
            Command::ResumeFetcher {
                broker,
                topic,
                partition,
            } => {
                let what = scope(&topic, &partition);
                let b = self.broker_mut(broker);
                b.stalls
                    .retain(|s| !(s.topic == topic && s.partition == partition));
                b.replica_manager().kick_fetchers(now, &mut out);
                self.record(
                    EventKind::FetcherResumed { broker, what },
                    WorldCause::ResumeAction.into(),
                );
                self.finish(out);
            }
            Command::SetConfig { key, value, topic } => {
                let unclean_on = key == "unclean.leader.election.enable"
                    && super::topic::as_bool(&key, &value).unwrap_or(false);
                match &topic {
                    Some(t) => {
                        let mut c = self.settings.topics.get(t).cloned().unwrap_or_default();
                        c.set(&key, &value)?;
                        self.settings.topics.insert(t.clone(), c);
                    }
                    None => self.settings.set(&key, &value)?,
                }
                self.record(
                    EventKind::ConfigChanged {
                        key,
                        value: match &value {
                            serde_json::Value::String(s) => s.clone(),
                            v => v.to_string(),
                        },
                        topic: topic.clone(),
                    },
                    WorldCause::SetConfigAction.into(),
                );
                let elects_now = match &topic {
                    None => self
                        .settings
                        .profile
                        .elects_when_unclean_enabled_broker_wide(),
                    Some(_) => self
                        .settings
                        .profile
                        .elects_when_unclean_enabled_for_topic(),
                };
                if unclean_on && elects_now {
                    // The controller elects offline partitions at once (UncleanLeaderElectionEnable,
                    // TopicUncleanLeaderElectionEnable); before, the new setting is used at the
                    // next election a broker change starts.
                    self.admin(AdminRequest::UncleanEnabled(topic));
                }
            }
            Command::PreferredElection { topic, partition } => {
                let tps: Vec<TopicPartition> = match (&topic, partition) {
                    (None, _) => Vec::new(),
                    (Some(t), None) => self
                        .topics
                        .iter()
                        .filter(|s| s.name == *t)
                        .flat_map(|s| {
                            (0..s.replicas.len() as u32).map(|p| TopicPartition::new(&s.name, p))
                        })
                        .collect(),
                    (Some(t), Some(p)) => vec![TopicPartition::new(t, p)],
                };
                self.admin(AdminRequest::PreferredElection(tps));
            }
            Command::Reassign {
                topic,
                partition,
                replicas,
            } => {
                if !self.settings.profile.lists_reassignment_target_first() {
                    // kafka-reassign-partitions before 2.4 writes /admin/reassign_partitions,
                    // which the controller watches and reads again after a failover.
                    let mut list = self
                        .zk
                        .node(REASSIGN_PARTITIONS_PATH)
                        .and_then(|n| match &n.value {
                            ZnodeValue::ReassignPartitions(list) => Some(list.clone()),
                            _ => None,
                        })
                        .unwrap_or(ReassignPartitions {
                            version: 1,
                            partitions: Vec::new(),
                        });
                    list.put(&topic, partition, replicas.clone());
                    self.zk
                        .admin_put(REASSIGN_PARTITIONS_PATH, &list.to_json(), &mut out);
                    self.finish(std::mem::take(&mut out));
                }
                self.admin(AdminRequest::Reassign {
                    tp: TopicPartition::new(&topic, partition),
                    replicas,
                });
            }
            Command::Join { group, member } => {
                let spec = self.groups.iter().find(|g| g.id == group).cloned();
                let (topics, assignor) = spec
                    .map(|g| (g.topics, g.assignor))
                    .unwrap_or_else(|| (Vec::new(), "range".into()));
                let cluster = self.cluster_view();
                self.consumers.join(
                    now,
                    (&group, &member, topics, &assignor),
                    &cluster.as_cluster(),
                    &mut out,
                );
                self.finish(out);
            }
            Command::Leave { group, member } => {
                let cluster = self.cluster_view();
                self.consumers
                    .leave(now, &group, &member, &cluster.as_cluster(), &mut out);
                self.finish(out);
            }
            Command::CrashConsumer { group, member } => {
                self.consumers.crash(&group, &member, &mut out);
                self.finish(out);
            }
            Command::DeleteController => {
                if let Some(controller) = self.zk.controller() {
                    self.zk.admin_delete("/controller", &mut out);
                    out.event(
                        EventKind::ControllerDeleted { controller },
                        WorldCause::DeleteControllerAction,
                    );
                }
                self.finish(out);
            }
        }
        self.monitor_step();
        Ok(())
    }

    fn cluster_view(&self) -> ClusterView {
        ClusterView {
            running: self
                .brokers
                .values()
                .filter(|b| matches!(b.status, BrokerStatus::Running | BrokerStatus::ShuttingDown))
                .map(|b| b.id)
                .collect(),
            partitions: self
                .topics
                .iter()
                .map(|t| (t.name.clone(), t.replicas.len() as u32))
                .collect(),
            timeouts: (
                self.settings.consumer_session_timeout_ms,
                self.settings.heartbeat_interval_ms,
                self.settings.max_poll_interval_ms,
                self.settings.request_timeout_ms,
            ),
        }
    }

    /// An admin tool's znode write that the controller watches: delivered from ZooKeeper to
    /// the broker `/controller` names.
    fn admin(&mut self, request: AdminRequest) {
        if let Some(c) = self.zk.controller() {
            self.send(Endpoint::Zk, Endpoint::Broker(c), Body::Admin(request));
        }
    }

    fn finish_producer(&mut self, pout: ProducerOut) {
        for (kind, cause) in pout.events {
            self.record(kind, cause);
        }
        for (at, request) in pout.timeouts {
            self.push(
                at,
                Item::Timer {
                    owner: Endpoint::Client,
                    incarnation: 0,
                    timer: Timer::ProduceTimeout { request },
                },
            );
        }
        if let Some(at) = pout.wake {
            self.push(
                at,
                Item::Timer {
                    owner: Endpoint::Client,
                    incarnation: 0,
                    timer: Timer::ProducerWake { at },
                },
            );
        }
        for (leader, body) in pout.sends {
            self.send(Endpoint::Client, Endpoint::Broker(leader), body);
        }
        for (name, detail) in pout.violations {
            self.violation(name, detail);
        }
    }

    fn violation(&mut self, name: String, detail: String) {
        self.violations.push(format!("{name}: {detail}"));
        self.record(
            EventKind::InvariantViolated {
                invariant: name,
                detail,
            },
            WorldCause::MonitorCheck.into(),
        );
    }

    fn broker_mut(&mut self, id: BrokerId) -> &mut Broker {
        self.brokers.get_mut(&id).expect("checked by the caller")
    }

    fn record(&mut self, kind: EventKind, cause: Cause) {
        if let EventKind::LeaderElected {
            partition,
            leader_epoch,
            reason,
            ..
        } = &kind
        {
            if *reason == ElectionReason::Unclean {
                if let Some(tp) = self.tp_by_name(partition) {
                    self.producer
                        .unclean
                        .entry(tp)
                        .or_default()
                        .insert(*leader_epoch);
                }
            }
        }
        self.events.push(Event {
            time_ms: self.now,
            kind,
            cause,
        });
    }

    fn process(&mut self, item: Item) {
        let settings = self.settings.clone();
        let now = self.now;
        match item {
            Item::Start(b) => {
                if !self.brokers[&b].status.is_alive() {
                    let mut out = Out::default();
                    self.broker_mut(b)
                        .start(now, &settings, WorldCause::StartInOrder, &mut out);
                    self.finish(out);
                }
            }
            Item::CreateTopics => {
                // kafka-topics --create: the assignment goes to /brokers/topics/T; the
                // controller's watch does the rest.
                let mut out = Out::default();
                for t in self.topics.clone() {
                    let data = serde_json::to_string(&TopicAssignment::new(&t.replicas))
                        .expect("an assignment serializes");
                    self.zk.admin_create(&topic_path(&t.name), &data, &mut out);
                    for p in 0..t.replicas.len() {
                        self.zk.admin_create(
                            &format!("{}/partitions/{p}", topic_path(&t.name)),
                            "",
                            &mut out,
                        );
                    }
                }
                self.finish(out);
            }
            Item::Deliver {
                msg,
                from,
                to,
                body,
                received,
            } => {
                if !received && self.is_cut(from, to) {
                    self.net.lose(msg, from, to);
                    return;
                }
                let mut out = Out::default();
                match to {
                    Endpoint::Consumer(i) => {
                        let cluster = self.cluster_view();
                        self.consumers
                            .handle(now, i, body, &cluster.as_cluster(), &mut out);
                    }
                    Endpoint::Client => {
                        if let Body::ProduceResponse {
                            request, result, ..
                        } = body
                        {
                            let mut pout = ProducerOut::default();
                            self.producer.on_response(
                                now,
                                request,
                                result,
                                &self.brokers,
                                &settings,
                                &mut self.rng,
                                &mut pout,
                            );
                            self.finish_producer(pout);
                        }
                    }
                    Endpoint::Zk => {
                        if let Endpoint::Broker(b) = from {
                            self.zk.handle(now, b, body, &mut out);
                        }
                    }
                    Endpoint::Broker(b) => {
                        let status = self.brokers[&b].status;
                        match status {
                            BrokerStatus::Paused { .. } => {
                                self.parked.entry(b).or_default().push(Item::Deliver {
                                    msg,
                                    from,
                                    to,
                                    body,
                                    received: true,
                                });
                                return;
                            }
                            s if s.is_alive() => {
                                if let Body::Produce { conn, .. } = &body {
                                    if *conn != self.brokers[&b].incarnation {
                                        // Sent to a process that has since died: its
                                        // connection reset, and the new process never
                                        // reads it (the producer already failed it).
                                        self.net.mark_dropped(msg);
                                        return;
                                    }
                                }
                                let mut body = body;
                                // The coordinator's UUID.randomUUID, from the world's RNG.
                                if let Body::JoinGroup {
                                    client_id,
                                    new_member_id,
                                    ..
                                } = &mut body
                                {
                                    *new_member_id =
                                        super::group_order::member_id(client_id, &mut self.rng);
                                }
                                self.broker_mut(b)
                                    .handle(now, from, body, &settings, &mut out)
                            }
                            _ => {
                                self.net.mark_dropped(msg);
                                if let Endpoint::Consumer(i) = from {
                                    // No process behind the port: the connection is refused.
                                    let cluster = self.cluster_view();
                                    self.consumers
                                        .refused(now, i, &cluster.as_cluster(), &mut out);
                                    self.finish(out);
                                    self.monitor_step();
                                }
                                return;
                            }
                        }
                    }
                }
                self.finish(out);
            }
            Item::Timer {
                owner,
                incarnation,
                timer,
            } => {
                let mut out = Out::default();
                match owner {
                    Endpoint::Consumer(i) => {
                        let cluster = self.cluster_view();
                        self.consumers
                            .on_timer(now, i, timer, &cluster.as_cluster(), &mut out);
                    }
                    Endpoint::Client => {
                        let mut pout = ProducerOut::default();
                        match timer {
                            Timer::ProduceTick { stream } => {
                                let brokers = &self.brokers;
                                if self.producer.tick(
                                    now,
                                    stream,
                                    brokers,
                                    &settings,
                                    &mut self.rng,
                                    &mut pout,
                                ) {
                                    self.push(
                                        now + super::producer::TICK_MS,
                                        Item::Timer {
                                            owner,
                                            incarnation,
                                            timer,
                                        },
                                    );
                                }
                            }
                            Timer::ProduceTimeout { request } => self.producer.on_request_timeout(
                                now,
                                request,
                                &self.brokers,
                                &settings,
                                &mut self.rng,
                                &mut pout,
                            ),
                            Timer::ProducerWake { at } => self.producer.on_wake(
                                now,
                                at,
                                &self.brokers,
                                &settings,
                                &mut self.rng,
                                &mut pout,
                            ),
                            _ => {}
                        }
                        self.finish_producer(pout);
                    }
                    Endpoint::Zk => self.zk.on_timer(now, timer, &mut out),
                    Endpoint::Broker(b) => {
                        let broker = &self.brokers[&b];
                        if broker.incarnation != incarnation || !broker.status.is_alive() {
                            return;
                        }
                        match (broker.status, timer) {
                            (BrokerStatus::Paused { until_ms, .. }, Timer::Resume)
                                if until_ms == now =>
                            {
                                self.broker_mut(b).resume(now, &mut out);
                                // What arrived or fell due while frozen is handled now, in order.
                                let parked = self.parked.remove(&b).unwrap_or_default();
                                self.finish(out);
                                for item in parked {
                                    self.push(now, item);
                                }
                                self.monitor_step();
                                return;
                            }
                            (BrokerStatus::Paused { .. }, Timer::Resume) => return,
                            (BrokerStatus::Paused { .. }, _) => {
                                self.parked.entry(b).or_default().push(Item::Timer {
                                    owner,
                                    incarnation,
                                    timer,
                                });
                                return;
                            }
                            _ => self.broker_mut(b).on_timer(now, timer, &settings, &mut out),
                        }
                    }
                }
                self.finish(out);
            }
        }
        self.monitor_step();
    }

    /// Turns a state machine's outputs into queue items and events.
    fn finish(&mut self, out: Out) {
        for (kind, cause) in out.events {
            self.record(kind, cause);
        }
        for (at, who, timer) in out.timers {
            let incarnation = match who {
                Endpoint::Broker(b) => self.brokers[&b].incarnation,
                Endpoint::Zk | Endpoint::Client | Endpoint::Consumer(_) => 0,
            };
            self.push(
                at,
                Item::Timer {
                    owner: who,
                    incarnation,
                    timer,
                },
            );
        }
        for (from, to, body) in out.sends {
            self.send(from, to, body);
        }
    }

    fn send(&mut self, from: Endpoint, to: Endpoint, body: Body) {
        let (label, class) = body.label();
        let envelope = Envelope {
            from,
            to,
            label,
            class,
            reply: body.is_reply(),
        };
        let sent = self.net.send(
            self.now,
            envelope,
            self.settings.network_latency_ms,
            self.settings.network_jitter_ms,
            &mut self.rng,
        );
        if let Some(arrive) = sent.arrive_ms {
            self.push(
                arrive,
                Item::Deliver {
                    msg: sent.id,
                    from,
                    to,
                    body,
                    received: false,
                },
            );
        }
    }

    fn tp_by_name(&self, name: &str) -> Option<TopicPartition> {
        let i = name.rfind('-')?;
        let tp = TopicPartition::new(&name[..i], name[i + 1..].parse().ok()?);
        self.topics.iter().any(|t| t.name == tp.topic).then_some(tp)
    }

    /// Every partition, in order.
    fn all_partitions(&self) -> Vec<TopicPartition> {
        self.monitor.partitions().to_vec()
    }

    /// ZooKeeper's partition state of `tp`, if written (parsed once per change).
    fn zk_state(&self, tp: &TopicPartition) -> Option<PartitionState> {
        self.monitor.zk_state(&self.zk, tp)
    }

    /// The assignment in ZooKeeper (a reassignment changes it), else as set up.
    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        self.monitor
            .zk_assignment(&self.zk, tp)
            .or_else(|| {
                self.topics
                    .iter()
                    .find(|t| t.name == tp.topic)
                    .and_then(|t| t.replicas.get(tp.partition as usize).cloned())
            })
            .unwrap_or_default()
    }

    /// The broker that leads `tp` now: ZooKeeper names it and it has taken that leader epoch.
    fn acting_leader(&self, tp: &TopicPartition) -> Option<(BrokerId, u64)> {
        self.monitor.acting_leader(&self.zk, &self.brokers, tp)
    }

    /// Runs the safety monitor after a step: every invariant, each violation reported once.
    fn monitor_step(&mut self) {
        // The producer's connections to a broker whose process died reset now: it learns at
        // once, as a client whose TCP connection is closed does.
        if self.producer.has_connections() {
            let mut pout = ProducerOut::default();
            if self.producer.check_connections(
                self.now,
                &self.brokers,
                &self.settings,
                &mut self.rng,
                &mut pout,
            ) {
                self.finish_producer(pout);
            }
        }
        let mut found = self.monitor.check_controllers(&self.zk, &self.brokers);
        found.extend(invariants::one_group_leader_per_generation(
            &self.groups,
            &self.consumers.list,
        ));
        let new_acks = self.producer.take_new_acks();
        if self
            .monitor
            .partitions_changed(&self.zk, &self.brokers, new_acks)
        {
            self.monitor.refresh(&self.zk, &self.topics);
            // A zombie controller's leader change that landed in ZooKeeper (before 2.1).
            found.extend(invariants::only_the_current_controller_changes_leaders(
                self.zk.take_stale_controller_writes(),
            ));
            let (in_partitions, leaders) = self.monitor.check_partitions(&self.brokers);
            found.extend(in_partitions);
            if let Some(by_partition) = self.monitor.loss_check_due(leaders, new_acks) {
                let mut pout = ProducerOut::default();
                self.producer
                    .check_losses(&self.brokers, &by_partition, &self.settings, &mut pout);
                self.finish_producer(pout);
            }
        }
        let found = self.monitor.fresh(found);
        for (name, detail) in found {
            self.violation(name, detail);
        }
    }

    /// Broken invariants so far.
    pub fn violations(&self) -> &[String] {
        &self.violations
    }

    /// The state now, as `kafka-election run` prints it.
    pub fn state(&self) -> ClusterState {
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
                let zk_connection = zk_connection(b.zk.state);
                let zk_link_cut = self.is_cut(Endpoint::Broker(b.id), Endpoint::Zk);
                let session_expires_in_ms =
                    live.map(|(_, s)| s.deadline_ms().saturating_sub(self.now));
                // The broker may not be heartbeating: ZooKeeper's countdown runs.
                let quiet = state != view::BrokerState::Running
                    || zk_link_cut
                    || zk_connection != view::ZkConnection::Connected;
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
                    controller_role: ControllerRole::of(
                        b.controller.is_some(),
                        self.zk.controller() == Some(b.id),
                    ),
                    session_countdown_ms: session_expires_in_ms.filter(|_| quiet),
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
            producer: self.producer.view(&self.settings),
            violations: self.violations.clone(),
        }
    }
}

impl World {
    fn partition_views(&self) -> BTreeMap<String, PartitionView> {
        let mut views = BTreeMap::new();
        for tp in self.all_partitions() {
            let replicas = self.assignment(&tp);
            let st = self.zk_state(&tp);
            let (leader, leader_epoch, isr, controller_epoch) = match &st {
                Some(s) => (s.leader, s.leader_epoch, s.isr.clone(), s.controller_epoch),
                None => (-1, 0, Vec::new(), 0),
            };
            let mut leos = BTreeMap::new();
            let mut roles = BTreeMap::new();
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
            let (high_watermark, duplicate_records) = match self.acting_leader(&tp) {
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
                },
            );
        }
        views
    }

    fn group_views(&self) -> BTreeMap<String, GroupView> {
        let mut views = BTreeMap::new();
        for g in &self.groups {
            let tp = group_partition(&g.id, &self.settings);
            let held = self.acting_leader(&tp).and_then(|(b, _)| {
                self.brokers[&b]
                    .coordinator
                    .groups
                    .get(&g.id)
                    .map(|group| (b, group))
            });
            // The name (client id) the coordinator knows a member id by.
            let name = |group: &Group, id: &str| {
                group
                    .members
                    .get(id)
                    .map_or_else(|| id.to_string(), |m| m.client_id.clone())
            };
            let held_leader =
                held.and_then(|(_, group)| group.leader.as_deref().map(|id| name(group, id)));
            let consumers: BTreeMap<String, ConsumerView> = self
                .consumers
                .list
                .iter()
                .filter(|c| c.group == g.id)
                .map(|c| {
                    let state = consumer_state(c.state);
                    let (leads_group, group_generation, is_member) = match held {
                        Some((_, group)) => (
                            held_leader.as_deref() == Some(c.name.as_str()),
                            group.generation,
                            group
                                .order
                                .keys()
                                .iter()
                                .any(|id| name(group, id) == c.name),
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
                })
                .collect();
            let view = match held {
                Some((b, group)) => {
                    let name = |id: &str| name(group, id);
                    GroupView {
                        coordinator: Some(b),
                        coordinator_partition: tp.partition,
                        state: Some(group_state(group.state)),
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
                    }
                }
                None => GroupView {
                    coordinator: None,
                    coordinator_partition: tp.partition,
                    state: None,
                    generation: 0,
                    leader: None,
                    members: Vec::new(),
                    member_ids: BTreeMap::new(),
                    assignment: BTreeMap::new(),
                    consumers,
                },
            };
            views.insert(g.id.clone(), view);
        }
        views
    }

    /// The topics as set up.
    pub fn topics(&self) -> &[TopicSpec] {
        &self.topics
    }
}

/// A broker process's state as the views show it.
fn broker_state(s: BrokerStatus) -> view::BrokerState {
    match s {
        BrokerStatus::NotStarted => view::BrokerState::NotStarted,
        BrokerStatus::Running => view::BrokerState::Running,
        BrokerStatus::Paused { .. } => view::BrokerState::Paused,
        BrokerStatus::ShuttingDown => view::BrokerState::ShuttingDown,
        BrokerStatus::Crashed => view::BrokerState::Crashed,
        BrokerStatus::Stopped => view::BrokerState::Stopped,
    }
}

/// A ZooKeeper client's connection as the views show it.
fn zk_connection(s: ZkState) -> view::ZkConnection {
    match s {
        ZkState::Idle => view::ZkConnection::Idle,
        ZkState::Connecting => view::ZkConnection::Connecting,
        ZkState::Connected => view::ZkConnection::Connected,
        ZkState::Disconnected => view::ZkConnection::Disconnected,
    }
}

/// A group's coordinator state as the views show it.
fn group_state(s: GroupState) -> view::GroupState {
    match s {
        GroupState::Empty => view::GroupState::Empty,
        GroupState::PreparingRebalance => view::GroupState::PreparingRebalance,
        GroupState::CompletingRebalance => view::GroupState::CompletingRebalance,
        GroupState::Stable => view::GroupState::Stable,
        GroupState::Dead => view::GroupState::Dead,
    }
}

/// A consumer's state as the views show it.
fn consumer_state(s: ConsumerState) -> view::ConsumerState {
    match s {
        ConsumerState::FindingCoordinator => view::ConsumerState::FindingCoordinator,
        ConsumerState::Joining => view::ConsumerState::Joining,
        ConsumerState::Syncing => view::ConsumerState::Syncing,
        ConsumerState::Stable => view::ConsumerState::Stable,
        ConsumerState::Left => view::ConsumerState::Left,
        ConsumerState::Crashed => view::ConsumerState::Crashed,
    }
}

/// The world answers the checks of a command about its state now.
impl Live for World {
    fn status(&self, broker: BrokerId) -> BrokerStatus {
        self.brokers[&broker].status
    }

    fn is_stalled(&self, broker: BrokerId, stall: &Stall) -> bool {
        self.brokers[&broker].stalls.contains(stall)
    }

    fn has_live_session(&self, broker: BrokerId) -> bool {
        self.zk.live_session_of(broker).is_some()
    }

    fn is_cut(&self, a: Endpoint, b: Endpoint) -> bool {
        World::is_cut(self, a, b)
    }

    fn is_streaming_to(&self, tp: &TopicPartition) -> bool {
        self.producer.streams.values().any(|s| s.tp == *tp)
    }

    fn producer_clients_in_use(&self) -> BTreeSet<Acks> {
        self.producer.clients_in_use()
    }

    fn controller(&self) -> Option<BrokerId> {
        self.zk.controller()
    }

    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        World::assignment(self, tp)
    }

    fn is_reassigning(&self, tp: &TopicPartition) -> bool {
        self.zk
            .controller()
            .and_then(|c| self.brokers.get(&c))
            .and_then(|b| b.controller.as_ref())
            .is_some_and(|c| c.partitions.reassigning.contains_key(tp))
    }

    fn consumer_state(&self, group: &str, member: &str) -> Option<ConsumerState> {
        self.consumers.find(group, member).map(|c| c.state)
    }
}

/// What the consumers see of the cluster, owned so the world can lend it while it changes.
struct ClusterView {
    running: Vec<BrokerId>,
    partitions: BTreeMap<String, u32>,
    timeouts: (u64, u64, u64, u64),
}

impl ClusterView {
    fn as_cluster(&self) -> Cluster<'_> {
        Cluster {
            running: &self.running,
            partitions: &self.partitions,
            timeouts: self.timeouts,
        }
    }
}

//! The discrete-event world: a virtual clock, one seeded RNG and a queue of timed
//! deliveries, timers and actions. It applies commands (a click on the page, an action of a
//! scenario) once [`check`](super::commands::check) passes them (in `apply.rs`), hands each item
//! that falls due to its owner (ZooKeeper, a broker, the producer, a consumer), sends what they
//! output through the [`Network`], and runs the safety [`Monitor`] after every step.

use self::causes::WorldCause;
use super::broker::{Broker, BrokerStatus};
use super::cause::Cause;
use super::commands::{GroupSpec, Setup, STARTUP_SPACING_MS};
use super::config::Settings;
use super::consumer::Consumers;
use super::event::{ElectionReason, Event, EventKind};
use super::history::History;
use super::invariants;
use super::message::{Body, Out, Timer};
use super::monitor::Monitor;
use super::net::{BrokerId, Endpoint, Envelope, MessageRecord, Network};
use super::producer::{Producer, ProducerOut};
use super::rng::Rng;
use super::state::build::{self, ClusterView, PendingTimer, Sources};
use super::state::ClusterState;
use super::topic::{TopicPartition, TopicSpec};
use super::znodes::{topic_path, TopicAssignment};
use super::zookeeper::ZooKeeper;
use crate::collections::{VecMap, VecSet};
// The event queue and its countdowns: thousands of items, taken from the front (`World`).
#[allow(clippy::disallowed_types)]
use std::collections::{BTreeMap, BTreeSet};

mod apply;
pub mod causes;

#[derive(Debug, Clone)]
enum Item {
    Deliver {
        msg: u64,
        from: Endpoint,
        to: Endpoint,
        /// Boxed: a body is several times the size of a timer, and the queue holds thousands
        /// of timers (each queue entry, and each snapshot's copy of it, is as large as the
        /// largest kind).
        body: Box<Body>,
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

/// A world kept to be restored later ([`World::pack`]).
#[derive(Debug, Clone)]
pub struct PackedWorld {
    /// The world with an empty queue.
    world: World,
    /// The queue, in order.
    queue: Vec<((u64, u64), Item)>,
}

impl PackedWorld {
    /// The world as it was packed.
    pub fn unpack(&self) -> World {
        let mut world = self.world.clone();
        world.queue = self.queue.iter().cloned().collect();
        world
    }

    /// Its virtual time.
    pub fn now(&self) -> u64 {
        self.world.now
    }
}

/// The simulated cluster.
#[derive(Debug, Clone)]
pub struct World {
    settings: Settings,
    seed: u64,
    now: u64,
    seq: u64,
    /// Everything due, by (time, sequence number). A `BTreeMap`, not a
    /// [`VecMap`](crate::collections::VecMap): it holds thousands of items, taken from the front.
    #[allow(clippy::disallowed_types)]
    queue: BTreeMap<(u64, u64), Item>,
    /// The keys in `queue` of the broker timers the views count down to
    /// ([`build::counts_down`]), so that building a view does not scan the whole queue. A
    /// `BTreeSet` like the queue: the group coordinators' session timers alone can be thousands.
    #[allow(clippy::disallowed_types)]
    countdowns: BTreeSet<(u64, u64)>,
    rng: Rng,
    zk: ZooKeeper,
    brokers: VecMap<BrokerId, Broker>,
    parked: VecMap<BrokerId, Vec<Item>>,
    net: Network,
    events: History<Event>,
    monitor: Monitor,
    violations: Vec<String>,
    topics: Vec<TopicSpec>,
    groups: Vec<GroupSpec>,
    consumers: Consumers,
    producer: Producer,
    /// The brokers lent out mutably since the monitor last ran ([`World::broker_mut`]): the
    /// only ones a step can have changed.
    touched: VecSet<BrokerId>,
    /// How many of the newest events the trace keeps at least, if it is bounded
    /// ([`World::keep_events`]).
    event_window: Option<usize>,
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
            #[allow(clippy::disallowed_types)] // thousands of items, taken from the front (`World`)
            queue: BTreeMap::new(),
            #[allow(clippy::disallowed_types)]
            countdowns: BTreeSet::new(),
            rng: Rng::new(setup.seed),
            zk: ZooKeeper::with_clock(zk_clock(setup.seed)),
            brokers: VecMap::new(),
            parked: VecMap::new(),
            net: Network::default(),
            events: History::new(),
            monitor: Monitor::new(&topics),
            violations: Vec::new(),
            topics,
            groups: setup.groups.clone(),
            consumers: Consumers::default(),
            producer: Producer::default(),
            touched: VecSet::new(),
            event_window: None,
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
            w.touched.insert(*id);
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

    /// Every event so far, in order. The trace is a [`History`]: a clone of the world (a
    /// snapshot) shares what was already written instead of copying it.
    pub fn events(&self) -> &History<Event> {
        &self.events
    }

    /// Bounds the event trace for a long run: from now on it keeps at least the newest
    /// `window` events, dropping older ones a sealed chunk (256 events) at a
    /// time once more than `window` plus a chunk are kept ([`History::compact_before`]: every
    /// event kept keeps its index, and [`History::first_index`] says how many went). `None`, the
    /// default, keeps every event. Nothing the simulation does reads past events, so the run
    /// itself is the same either way.
    pub fn keep_events(&mut self, window: Option<usize>) {
        self.event_window = window;
        self.compact_events();
    }

    fn compact_events(&mut self) {
        if let Some(window) = self.event_window {
            let kept = self.events.len() - self.events.first_index();
            if kept > window + super::history::CHUNK {
                self.events.compact_before(self.events.len() - window);
            }
        }
    }

    /// The most recent messages (up to `MESSAGE_HISTORY`), oldest
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

    /// A copy of the world packed to be kept ([`World::into_packed`]).
    pub fn pack(&self) -> PackedWorld {
        self.clone().into_packed()
    }

    /// The world packed to be kept, as a snapshot on the timeline keeps it: without the
    /// records of past messages (those the page draws in flight; the simulation never reads
    /// them, so the world runs on exactly as it would), and the queue of deliveries and timers
    /// due (most of a busy world's memory: thousands of pending timeouts) held as a sorted
    /// list, about half the size of its tree. [`PackedWorld::unpack`] gives the world back.
    pub fn into_packed(mut self) -> PackedWorld {
        self.net.forget_messages();
        let queue = std::mem::take(&mut self.queue).into_iter().collect();
        PackedWorld { world: self, queue }
    }

    /// Virtual time of the next thing due, if any.
    pub fn next_due(&self) -> Option<u64> {
        self.queue.keys().next().map(|(t, _)| *t)
    }

    /// The virtual time of the next event the trace would record, looking at most
    /// `horizon_ms` ahead: the world runs on a clone (which shares the trace already written)
    /// until its event count grows, so this one is not moved and nothing is drawn from its
    /// random generator. Messages and timers that record nothing (heartbeats, empty fetches)
    /// do not count. `None` when nothing happens within the horizon.
    pub fn next_event_time(&self, horizon_ms: u64) -> Option<u64> {
        let limit = self.now.saturating_add(horizon_ms);
        let mut ahead = self.clone();
        let count = ahead.events.len();
        while let Some(at) = ahead.next_due().filter(|at| *at <= limit) {
            ahead.advance_to(at);
            if ahead.events.len() > count {
                return Some(at);
            }
        }
        None
    }

    fn push(&mut self, at: u64, item: Item) {
        self.seq += 1;
        if let Item::Timer {
            owner: Endpoint::Broker(_),
            timer,
            ..
        } = &item
        {
            if build::counts_down(timer) {
                self.countdowns.insert((at, self.seq));
            }
        }
        self.queue.insert((at, self.seq), item);
    }

    /// Runs everything due up to and including `t`, then sets the clock to `t`.
    pub fn advance_to(&mut self, t: u64) {
        while let Some(entry) = self.queue.first_entry() {
            let key = *entry.key();
            let at = key.0;
            if at > t {
                break;
            }
            let item = entry.remove();
            self.countdowns.remove(&key);
            self.now = at;
            self.process(item);
        }
        self.now = self.now.max(t);
    }

    /// Runs the one thing due first (a message or a timer), whatever its time, and returns
    /// that time: the finest step there is, so that a test sees the state each event leaves.
    /// [`World::advance_to`] runs the same items in the same order.
    #[cfg(test)]
    pub(crate) fn step_one(&mut self) -> Option<u64> {
        let (key, item) = self.queue.pop_first()?;
        self.countdowns.remove(&key);
        self.now = key.0;
        self.process(item);
        Some(key.0)
    }

    fn cluster_view(&self) -> ClusterView {
        ClusterView::of(&self.brokers, &self.topics, &self.settings)
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

    /// The broker `id`, to change: the only way to change a broker once the world is made,
    /// so that the monitor knows which brokers a step changed.
    fn broker_mut(&mut self, id: BrokerId) -> &mut Broker {
        self.touched.insert(id);
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
        self.compact_events();
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
                    let data = TopicAssignment::new(&t.replicas).to_json();
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
                let body = *body;
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
                                    body: Box::new(body),
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
        let (words, class) = body.words();
        let envelope = Envelope {
            from,
            to,
            words,
            class,
            reply: body.is_reply(),
            empty_fetch: body.is_empty_fetch_response(),
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
                    body: Box::new(body),
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

    /// The assignment in ZooKeeper (a reassignment changes it), else as set up.
    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        build::assignment(&self.monitor, &self.zk, &self.topics, tp)
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
        let changed =
            self.monitor
                .partitions_changed(&self.zk, &self.brokers, &self.touched, new_acks);
        self.touched.clear();
        if changed {
            self.monitor.refresh(&self.zk, &self.topics);
            // A zombie controller's leader change that landed in ZooKeeper (before 2.1).
            found.extend(invariants::only_the_current_controller_changes_leaders(
                self.zk.take_stale_controller_writes(),
            ));
            let (in_partitions, leaders_changed) = self.monitor.check_partitions(&self.brokers);
            found.extend(in_partitions);
            // Acknowledged records can only go missing when the acting leaders change, or
            // when an acknowledgement arrives (it may come from a leader since replaced).
            if leaders_changed || new_acks {
                let monitor = &self.monitor;
                let mut pout = ProducerOut::default();
                self.producer.check_losses(
                    &self.brokers,
                    |tp| monitor.checked_leader(tp),
                    &self.settings,
                    &mut pout,
                );
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

    /// The topics as set up.
    pub fn topics(&self) -> &[TopicSpec] {
        &self.topics
    }

    /// The state now, as `kafka-election run` prints it.
    pub fn state(&self) -> ClusterState {
        let timers = self.broker_timers();
        self.sources(&timers).cluster_state()
    }

    /// The timers of the brokers' current processes that the views count down to
    /// ([`build::counts_down`]): in the queue, or parked while the process is paused (due now).
    fn broker_timers(&self) -> Vec<PendingTimer<'_>> {
        let queued = self
            .countdowns
            .iter()
            .filter_map(|key| self.queue.get(key).map(|item| (key.0, item)));
        let parked = self.parked.values().flatten().map(|item| (self.now, item));
        queued
            .chain(parked)
            .filter_map(|(due_ms, item)| match item {
                Item::Timer {
                    owner: Endpoint::Broker(broker),
                    incarnation,
                    timer,
                } if build::counts_down(timer)
                    && self.brokers[broker].incarnation == *incarnation =>
                {
                    Some(PendingTimer {
                        due_ms,
                        broker: *broker,
                        timer,
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// The world's parts, lent to build the views.
    fn sources<'a>(&'a self, timers: &'a [PendingTimer<'a>]) -> Sources<'a> {
        Sources {
            now: self.now,
            settings: &self.settings,
            zk: &self.zk,
            brokers: &self.brokers,
            net: &self.net,
            monitor: &self.monitor,
            topics: &self.topics,
            groups: &self.groups,
            consumers: &self.consumers,
            producer: &self.producer,
            violations: &self.violations,
            timers,
        }
    }
}

#[cfg(test)]
#[path = "next_event_test.rs"]
mod next_event_test;

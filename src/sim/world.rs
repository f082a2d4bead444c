//! The discrete-event world: a virtual clock, one seeded RNG and a queue of timed
//! deliveries, timers and actions. It routes messages between ZooKeeper and the brokers,
//! applies commands (a click on the page, an action of a scenario) and runs the safety
//! monitor after every step.

use super::broker::{Broker, BrokerStatus};
use super::config::Settings;
use super::event::{Event, EventKind};
use super::invariants::Monitor;
use super::message::{Body, Out, Timer};
use super::net::{link, BrokerId, Endpoint, MessageRecord};
use super::rng::Rng;
use super::state::{BrokerView, ClusterState};
use super::zookeeper::ZooKeeper;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// How many message records the world keeps for the page.
pub const MESSAGE_HISTORY: usize = 4096;

/// Gap between the starts of the brokers listed at t=0, so the first listed registers first.
pub const STARTUP_SPACING_MS: u64 = 100;

/// Something a user or a scenario does to the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum Command {
    /// Start (or restart) a broker: a new ZooKeeper session and a new broker epoch.
    Start(BrokerId),
    /// Kill a broker without a goodbye.
    Crash(BrokerId),
    /// Controlled shutdown, then stop.
    Shutdown(BrokerId),
    /// Freeze a broker's process for a while.
    Pause { broker: BrokerId, for_ms: u64 },
    /// ZooKeeper expires the broker's session now.
    ExpireSession(BrokerId),
    /// Drop everything between two endpoints.
    Cut(Endpoint, Endpoint),
    /// Restore a cut link.
    Heal(Endpoint, Endpoint),
}

impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Command::Start(b) => write!(f, "start broker {b}"),
            Command::Crash(b) => write!(f, "crash broker {b}"),
            Command::Shutdown(b) => write!(f, "shut broker {b} down"),
            Command::Pause { broker, for_ms } => {
                write!(
                    f,
                    "pause broker {broker} for {}",
                    super::event::fmt_ms(*for_ms)
                )
            }
            Command::ExpireSession(b) => write!(f, "expire the session of broker {b}"),
            Command::Cut(a, b) => write!(f, "cut {a} from {b}"),
            Command::Heal(a, b) => write!(f, "heal the link {a} <-> {b}"),
        }
    }
}

/// How the world is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// The seed of the world's one RNG.
    pub seed: u64,
    /// Profile and settings.
    pub settings: Settings,
    /// Broker ids with their start times (`None`: not started until a `start`).
    pub brokers: Vec<(BrokerId, Option<u64>)>,
}

impl Setup {
    /// `n` brokers with ids 1..=n, started at t=0 in order.
    pub fn with_brokers(seed: u64, settings: Settings, n: u32) -> Setup {
        Setup {
            seed,
            settings,
            brokers: (1..=n).map(|b| (b, Some(0))).collect(),
        }
    }
}

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
    cut: BTreeSet<(Endpoint, Endpoint)>,
    last_arrival: BTreeMap<(Endpoint, Endpoint), u64>,
    /// Brokers whose ZooKeeper connection lost a message to a cut link.
    zk_conn_lost: BTreeSet<BrokerId>,
    events: Vec<Event>,
    messages: VecDeque<MessageRecord>,
    next_msg: u64,
    monitor: Monitor,
    violations: Vec<String>,
}

impl World {
    /// A world at t=0 with the brokers of `setup` scheduled to start.
    pub fn new(setup: &Setup) -> World {
        let mut w = World {
            settings: setup.settings.clone(),
            seed: setup.seed,
            now: 0,
            seq: 0,
            queue: BTreeMap::new(),
            rng: Rng::new(setup.seed),
            zk: ZooKeeper::new(),
            brokers: BTreeMap::new(),
            parked: BTreeMap::new(),
            cut: BTreeSet::new(),
            last_arrival: BTreeMap::new(),
            zk_conn_lost: BTreeSet::new(),
            events: Vec::new(),
            messages: VecDeque::new(),
            next_msg: 0,
            monitor: Monitor::default(),
            violations: Vec::new(),
        };
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

    /// The most recent messages (up to [`MESSAGE_HISTORY`]), oldest first.
    pub fn messages(&self) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        self.messages.iter()
    }

    /// The kept messages whose id is `id` or later, oldest first (without scanning the rest).
    pub fn messages_since(
        &self,
        id: u64,
    ) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        let first = self.messages.front().map_or(0, |m| m.id);
        let skip = (id.saturating_sub(first) as usize).min(self.messages.len());
        self.messages.range(skip..)
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
        self.cut.contains(&link(a, b))
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
        self.check(&cmd)?;
        let now = self.now;
        let mut out = Out::default();
        match cmd {
            Command::Start(b) => {
                let cause = "start action: a new process, a new ZooKeeper session";
                let settings = self.settings.clone();
                self.broker_mut(b).start(now, &settings, cause, &mut out);
                self.parked.remove(&b);
                self.finish(out);
            }
            Command::Crash(b) => {
                self.broker_mut(b).crash(
                    "crash action: the process dies at once; ZooKeeper notices only when the session times out",
                    &mut out,
                );
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
                self.cut.insert(link(a, b));
                self.record(
                    EventKind::LinkCut {
                        from: name(a),
                        to: name(b),
                    },
                    "cut action: the link drops every message, in flight or new".into(),
                );
            }
            Command::Heal(a, b) => {
                self.cut.remove(&link(a, b));
                self.record(
                    EventKind::LinkHealed {
                        from: name(a),
                        to: name(b),
                    },
                    "heal action: the link carries messages again".into(),
                );
                // A ZooKeeper connection that lost packets is reset now; the client
                // reconnects, replays what went unanswered and re-arms its watches.
                if let (Endpoint::Zk, Endpoint::Broker(x)) | (Endpoint::Broker(x), Endpoint::Zk) =
                    (a, b)
                {
                    if self.zk_conn_lost.remove(&x) {
                        let msg = self.next_msg;
                        self.next_msg += 1;
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
            }
        }
        self.monitor_step();
        Ok(())
    }

    fn check(&self, cmd: &Command) -> Result<(), String> {
        let status = |b: &BrokerId| -> Result<BrokerStatus, String> {
            self.brokers
                .get(b)
                .map(|x| x.status)
                .ok_or_else(|| format!("there is no broker {b}"))
        };
        let endpoint = |e: &Endpoint| -> Result<(), String> {
            match e {
                Endpoint::Zk => Ok(()),
                Endpoint::Broker(b) => status(b).map(|_| ()),
            }
        };
        match cmd {
            Command::Start(b) => {
                let s = status(b)?;
                if s.is_alive() {
                    return Err(format!("broker {b} is already {}", s.name()));
                }
            }
            Command::Crash(b) => {
                let s = status(b)?;
                if !s.is_alive() {
                    return Err(format!("broker {b} is not running (it is {})", s.name()));
                }
            }
            Command::Shutdown(b) => {
                let s = status(b)?;
                if s != BrokerStatus::Running {
                    return Err(format!("broker {b} cannot shut down: it is {}", s.name()));
                }
            }
            Command::Pause { broker, for_ms } => {
                let s = status(broker)?;
                if !matches!(s, BrokerStatus::Running | BrokerStatus::ShuttingDown) {
                    return Err(format!("broker {broker} cannot pause: it is {}", s.name()));
                }
                if *for_ms == 0 {
                    return Err("a pause must last at least 1 ms".into());
                }
            }
            Command::ExpireSession(b) => {
                status(b)?;
                if self.zk.live_session_of(*b).is_none() {
                    return Err(format!("broker {b} has no live ZooKeeper session"));
                }
            }
            Command::Cut(a, b) | Command::Heal(a, b) => {
                endpoint(a)?;
                endpoint(b)?;
                if a == b {
                    return Err(format!("{a} cannot be cut from itself"));
                }
                let is_cut = self.is_cut(*a, *b);
                if matches!(cmd, Command::Cut(..)) && is_cut {
                    return Err(format!("the link {a} <-> {b} is already cut"));
                }
                if matches!(cmd, Command::Heal(..)) && !is_cut {
                    return Err(format!("the link {a} <-> {b} is not cut"));
                }
            }
        }
        Ok(())
    }

    fn broker_mut(&mut self, id: BrokerId) -> &mut Broker {
        self.brokers.get_mut(&id).expect("checked by the caller")
    }

    fn record(&mut self, kind: EventKind, cause: String) {
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
                    self.broker_mut(b).start(
                        now,
                        &settings,
                        "the scenario's brokers start in the listed order",
                        &mut out,
                    );
                    self.finish(out);
                }
            }
            Item::Deliver {
                msg,
                from,
                to,
                body,
                received,
            } => {
                if !received && self.is_cut(from, to) {
                    self.lost_on_link(from, to);
                    self.mark_dropped(msg);
                    return;
                }
                let mut out = Out::default();
                match to {
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
                            s if s.is_alive() => self
                                .broker_mut(b)
                                .handle(now, from, body, &settings, &mut out),
                            _ => {
                                self.mark_dropped(msg);
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
                                self.broker_mut(b).resume(&mut out);
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

    fn lost_on_link(&mut self, from: Endpoint, to: Endpoint) {
        if let (Endpoint::Zk, Endpoint::Broker(b)) | (Endpoint::Broker(b), Endpoint::Zk) =
            (from, to)
        {
            self.zk_conn_lost.insert(b);
        }
    }

    fn mark_dropped(&mut self, msg: u64) {
        if let Some(first) = self.messages.front().map(|m| m.id) {
            if msg >= first {
                if let Some(m) = self.messages.get_mut((msg - first) as usize) {
                    m.dropped = true;
                }
            }
        }
    }

    /// Turns a state machine's outputs into queue items and events.
    fn finish(&mut self, out: Out) {
        for (kind, cause) in out.events {
            self.record(kind, cause);
        }
        for (at, who, timer) in out.timers {
            let incarnation = match who {
                Endpoint::Broker(b) => self.brokers[&b].incarnation,
                Endpoint::Zk => 0,
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
        let id = self.next_msg;
        self.next_msg += 1;
        let arrive = if from == to {
            self.now
        } else {
            let latency =
                self.settings.network_latency_ms + self.rng.up_to(self.settings.network_jitter_ms);
            // One directed link is one TCP connection: messages arrive in the order sent.
            let last = self.last_arrival.get(&(from, to)).copied().unwrap_or(0);
            let at = (self.now + latency).max(last);
            self.last_arrival.insert((from, to), at);
            at
        };
        let dropped = self.is_cut(from, to);
        let (label, class) = body.label();
        let reply = body.is_reply();
        self.messages.push_back(MessageRecord {
            id,
            from,
            to,
            label,
            class,
            reply,
            sent_ms: self.now,
            arrive_ms: arrive,
            dropped,
        });
        if self.messages.len() > MESSAGE_HISTORY {
            self.messages.pop_front();
        }
        if dropped {
            self.lost_on_link(from, to);
        } else {
            self.push(
                arrive,
                Item::Deliver {
                    msg: id,
                    from,
                    to,
                    body,
                    received: false,
                },
            );
        }
    }

    fn monitor_step(&mut self) {
        for (name, detail) in self.monitor.check(&self.zk, &self.brokers) {
            self.violations.push(format!("{name}: {detail}"));
            self.record(
                EventKind::InvariantViolated {
                    invariant: name,
                    detail,
                },
                "the safety monitor checks every invariant after every step".into(),
            );
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
                let view = BrokerView {
                    state: b.status.name(),
                    broker_epoch: registered.or(b.broker_epoch).or(b.last_broker_epoch),
                    registered: registered.is_some(),
                    acts_as_controller: b.controller.is_some(),
                    acting_epoch: b.controller.as_ref().map(|c| c.epoch),
                    known_controller_epoch: b.metadata_epoch,
                    known_controller: b.metadata_controller,
                    zk_connection: b.zk.state.name(),
                    zk_session: live.map(|(id, _)| format!("0x{id:x}")),
                    session_expires_in_ms: live
                        .map(|(_, s)| s.deadline_ms().saturating_sub(self.now)),
                    paused_since_ms: match b.status {
                        BrokerStatus::Paused { since_ms, .. } => Some(since_ms),
                        _ => None,
                    },
                    paused_until_ms: match b.status {
                        BrokerStatus::Paused { until_ms, .. } => Some(until_ms),
                        _ => None,
                    },
                    zk_link_cut: self.is_cut(Endpoint::Broker(b.id), Endpoint::Zk),
                };
                (b.id, view)
            })
            .collect();
        ClusterState {
            time_ms: self.now,
            controller: self.zk.controller(),
            controller_epoch: self.zk.controller_epoch(),
            brokers,
            partitions: BTreeMap::new(),
            groups: BTreeMap::new(),
            lost_records: BTreeMap::new(),
            violations: self.violations.clone(),
        }
    }
}

fn name(e: Endpoint) -> String {
    match e {
        Endpoint::Zk => "zk".into(),
        Endpoint::Broker(b) => b.to_string(),
    }
}

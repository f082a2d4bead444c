//! The discrete-event world: a virtual clock, one seeded RNG and a queue of timed
//! deliveries, timers and actions. It routes messages between ZooKeeper and the brokers,
//! applies commands (a click on the page, an action of a scenario) and runs the safety
//! monitor after every step.

use super::broker::{Broker, BrokerStatus, ZkState};
use super::config::Settings;
use super::consumer::{Cluster, ConsumerState, Consumers};
use super::coordinator::{group_partition, Group, GroupState, OFFSETS_TOPIC};
use super::event::{ElectionReason, Event, EventKind};
use super::invariants::Monitor;
use super::message::{AdminRequest, Body, Out, Timer};
use super::net::{link, BrokerId, Endpoint, MessageRecord};
use super::producer::{Producer, ProducerOut};
use super::replication::{Role, Stall};
use super::rng::Rng;
use super::state::{
    self as view, replica_lag, BrokerView, ClusterState, ConsumerView, ControllerRole, GroupView,
    PartitionHealth, PartitionView, ReplicaState, StreamView,
};
use super::topic::{Acks, TopicConfig, TopicPartition, TopicSpec};
use super::znodes::{
    partition_state_path, topic_path, PartitionState, ReassignPartitions, TopicAssignment,
    REASSIGN_PARTITIONS_PATH,
};
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
    /// The producer writes to a partition: one batch of `records`, or with `rate_per_s` a
    /// steady stream (for `for_ms`, or until `records` are sent, or until stopped).
    Produce {
        topic: String,
        partition: u32,
        records: Option<u64>,
        acks: Acks,
        rate_per_s: Option<u64>,
        for_ms: Option<u64>,
    },
    /// Stop the producer's stream to a partition.
    StopProducing { topic: String, partition: u32 },
    /// A broker's fetchers stop fetching (every partition, a topic, or one partition).
    StallFetcher {
        broker: BrokerId,
        topic: Option<String>,
        partition: Option<u32>,
    },
    /// Lift a stall.
    ResumeFetcher {
        broker: BrokerId,
        topic: Option<String>,
        partition: Option<u32>,
    },
    /// Change a setting at run time (`kafka-configs --alter`), broker-wide or for a topic.
    SetConfig {
        key: String,
        value: serde_json::Value,
        topic: Option<String>,
    },
    /// Preferred replica election for one partition, a topic, or all.
    PreferredElection {
        topic: Option<String>,
        partition: Option<u32>,
    },
    /// Move a partition to other replicas.
    Reassign {
        topic: String,
        partition: u32,
        replicas: Vec<BrokerId>,
    },
    /// A consumer (the member `member` of `group`) starts and joins its group.
    Join { group: String, member: String },
    /// A consumer leaves its group cleanly (LeaveGroup).
    Leave { group: String, member: String },
    /// A consumer dies silently.
    CrashConsumer { group: String, member: String },
    /// An operator deletes `/controller` to move the controller.
    DeleteController,
}

fn scope(topic: &Option<String>, partition: &Option<u32>) -> String {
    match (topic, partition) {
        (None, _) => "every partition".into(),
        (Some(t), None) => format!("topic {t}"),
        (Some(t), Some(p)) => format!("{t}-{p}"),
    }
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
            Command::Produce {
                topic,
                partition,
                records,
                acks,
                rate_per_s,
                for_ms,
            } => match rate_per_s {
                Some(r) => write!(
                    f,
                    "produce {r} records/s to {topic}-{partition} (acks={acks})"
                )
                .and_then(|_| match for_ms {
                    Some(ms) => write!(f, " for {}", super::event::fmt_ms(*ms)),
                    None => Ok(()),
                }),
                None => write!(
                    f,
                    "produce {} record(s) to {topic}-{partition} (acks={acks})",
                    records.unwrap_or(0)
                ),
            },
            Command::StopProducing { topic, partition } => {
                write!(f, "stop producing to {topic}-{partition}")
            }
            Command::StallFetcher {
                broker,
                topic,
                partition,
            } => write!(
                f,
                "stall broker {broker}'s fetching of {}",
                scope(topic, partition)
            ),
            Command::ResumeFetcher {
                broker,
                topic,
                partition,
            } => write!(
                f,
                "resume broker {broker}'s fetching of {}",
                scope(topic, partition)
            ),
            Command::SetConfig { key, value, topic } => match topic {
                Some(t) => write!(f, "set {key}={value} on topic {t}"),
                None => write!(f, "set {key}={value}"),
            },
            Command::PreferredElection { topic, partition } => {
                write!(
                    f,
                    "preferred leader election for {}",
                    scope(topic, partition)
                )
            }
            Command::Reassign {
                topic,
                partition,
                replicas,
            } => write!(f, "reassign {topic}-{partition} to {replicas:?}"),
            Command::Join { group, member } => write!(f, "consumer {member} joins group {group}"),
            Command::Leave { group, member } => write!(f, "consumer {member} leaves group {group}"),
            Command::CrashConsumer { group, member } => {
                write!(f, "crash consumer {member} of group {group}")
            }
            Command::DeleteController => write!(f, "delete /controller"),
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
    /// Topics, created by an admin write [`TOPIC_CREATION_DELAY_MS`] after the last broker
    /// listed at t=0 starts.
    pub topics: Vec<TopicSpec>,
    /// Consumer groups. With any, `__consumer_offsets` is created along with the topics.
    pub groups: Vec<GroupSpec>,
}

/// A consumer group as set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSpec {
    /// The group id.
    pub id: String,
    /// The topics its members subscribe to.
    pub topics: Vec<String>,
    /// `range` or `roundrobin`.
    pub assignor: String,
}

/// How long after the last broker listed at t=0 starts the topics are created.
pub const TOPIC_CREATION_DELAY_MS: u64 = 500;

impl Setup {
    /// `n` brokers with ids 1..=n, started at t=0 in order.
    pub fn with_brokers(seed: u64, settings: Settings, n: u32) -> Setup {
        Setup {
            seed,
            settings,
            brokers: (1..=n).map(|b| (b, Some(0))).collect(),
            topics: Vec::new(),
            groups: Vec::new(),
        }
    }

    /// When the topics are created.
    pub fn topics_created_ms(&self) -> u64 {
        let initial = self.brokers.iter().filter(|(_, s)| *s == Some(0)).count() as u64;
        initial.saturating_sub(1) * STARTUP_SPACING_MS + TOPIC_CREATION_DELAY_MS
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
    CreateTopics,
}

/// The assignment of `__consumer_offsets` over `brokers` (seeded, as Kafka's rack-unaware
/// assignment), or why it cannot be made.
pub fn offsets_topic(
    settings: &Settings,
    brokers: &[BrokerId],
    seed: u64,
) -> Result<TopicSpec, String> {
    let rf = settings.offsets_topic_replication_factor;
    if rf as usize > brokers.len() {
        return Err(format!(
            "offsets.topic.replication.factor ({rf}) is more than the {} broker(s): Kafka cannot create __consumer_offsets; set it lower in \"config\"",
            brokers.len()
        ));
    }
    let replicas = super::assignment::assign(
        brokers,
        settings.offsets_topic_num_partitions,
        rf,
        super::assignment::Start::Random,
        &mut Rng::new(seed ^ 0x6f66_6673),
    )?;
    Ok(TopicSpec {
        name: OFFSETS_TOPIC.into(),
        replicas,
        config: TopicConfig::default(),
    })
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
    cut: BTreeSet<(Endpoint, Endpoint)>,
    last_arrival: BTreeMap<(Endpoint, Endpoint), u64>,
    /// Brokers whose ZooKeeper connection lost a message to a cut link.
    zk_conn_lost: BTreeSet<BrokerId>,
    events: Vec<Event>,
    messages: VecDeque<MessageRecord>,
    next_msg: u64,
    monitor: Monitor,
    violations: Vec<String>,
    topics: Vec<TopicSpec>,
    groups: Vec<GroupSpec>,
    consumers: Consumers,
    producer: Producer,
    /// The newest leader epoch seen in ZooKeeper per partition, in partition order (leader
    /// epochs only grow).
    zk_leader_epochs: Vec<Option<u64>>,
    /// The versions (partition state mzxid, assignment mzxid) the ZooKeeper-only invariants
    /// were last checked at, in partition order.
    zk_checked: Vec<Option<(i64, i64)>>,
    /// Every partition, in order.
    partitions: Vec<TopicPartition>,
    /// Partition states parsed from ZooKeeper, with the mzxid they were parsed at.
    zk_states: Vec<Option<(i64, PartitionState)>>,
    /// Each partition's place in `partitions`.
    partition_index: BTreeMap<TopicPartition, usize>,
    /// Each partition's state znode path, in partition order.
    state_paths: Vec<String>,
    /// The zxid `zk_states` was refreshed at.
    zk_states_zxid: i64,
    /// Each topic's assignment znode, parsed, with the mzxid it was parsed at.
    zk_assignments: BTreeMap<String, (i64, BTreeMap<u32, Vec<BrokerId>>)>,
    /// The acting leaders at the last loss check.
    last_leaders: Vec<Option<(BrokerId, u64)>>,
    /// ZooKeeper's zxid and the replication digest at the last partition check.
    last_digest: (i64, u64),
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
            zk: ZooKeeper::with_clock(zk_clock(setup.seed)),
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
            topics: setup.topics.clone(),
            groups: setup.groups.clone(),
            consumers: Consumers::default(),
            producer: Producer::default(),
            zk_leader_epochs: Vec::new(),
            zk_checked: Vec::new(),
            partitions: setup
                .topics
                .iter()
                .flat_map(|t| (0..t.replicas.len() as u32).map(|p| TopicPartition::new(&t.name, p)))
                .collect(),
            zk_states: Vec::new(),
            partition_index: BTreeMap::new(),
            state_paths: Vec::new(),
            zk_states_zxid: -1,
            zk_assignments: BTreeMap::new(),
            last_leaders: Vec::new(),
            last_digest: (-1, 0),
        };
        if !setup.groups.is_empty() {
            let ids: Vec<BrokerId> = setup.brokers.iter().map(|(b, _)| *b).collect();
            if let Ok(spec) = offsets_topic(&setup.settings, &ids, setup.seed) {
                w.partitions.extend(
                    (0..spec.replicas.len() as u32).map(|p| TopicPartition::new(OFFSETS_TOPIC, p)),
                );
                w.topics.push(spec);
            }
        }
        for t in &setup.topics {
            w.settings.topics.insert(t.name.clone(), t.config.clone());
        }
        w.zk_leader_epochs = vec![None; w.partitions.len()];
        w.zk_states = vec![None; w.partitions.len()];
        w.last_leaders = vec![None; w.partitions.len()];
        w.partition_index = w
            .partitions
            .iter()
            .enumerate()
            .map(|(i, tp)| (tp.clone(), i))
            .collect();
        w.zk_checked = vec![None; w.partitions.len()];
        w.state_paths = w
            .partitions
            .iter()
            .map(|tp| partition_state_path(&tp.topic, tp.partition))
            .collect();
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
                            "produce action: a steady stream of records".into(),
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
                    "stop action".into(),
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
                    "stall action: the follower stops sending fetch requests (a slow disk, a stuck thread); the leader sees it fall behind".into(),
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
                    "resume action: the follower fetches again and catches up".into(),
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
                    "set_config action: a dynamic configuration change (kafka-configs --alter)"
                        .into(),
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
                        .and_then(|n| ReassignPartitions::from_json(&n.data))
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
                        "delete_controller action: an operator deletes /controller (zookeeper-shell), the way to move the controller; the brokers' watches fire and they race again, while the old controller finishes the event it is handling first",
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
            "the safety monitor checks every invariant after every step".into(),
        );
    }

    fn find_topic(&self, topic: &str) -> Result<&TopicSpec, String> {
        self.topics.iter().find(|t| t.name == topic).ok_or_else(|| {
            if self.topics.is_empty() {
                format!("there is no topic \"{topic}\": this cluster has no topics")
            } else {
                format!(
                    "there is no topic \"{topic}\"; the topics are {}",
                    self.topics
                        .iter()
                        .map(|t| format!("\"{}\"", t.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        })
    }

    fn check_partition(&self, topic: &str, partition: u32) -> Result<&TopicSpec, String> {
        let t = self.find_topic(topic)?;
        if partition as usize >= t.replicas.len() {
            return Err(format!(
                "topic \"{topic}\" has partitions 0..{}, not {partition}",
                t.replicas.len() - 1
            ));
        }
        Ok(t)
    }

    fn check_scope(&self, topic: &Option<String>, partition: &Option<u32>) -> Result<(), String> {
        match (topic, partition) {
            (None, Some(_)) => Err("a partition needs its topic".into()),
            (Some(t), None) => self.find_topic(t).map(|_| ()),
            (Some(t), Some(p)) => self.check_partition(t, *p).map(|_| ()),
            (None, None) => Ok(()),
        }
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
                Endpoint::Client | Endpoint::Consumer(_) => {
                    Err("only links between ZooKeeper and brokers can be cut".to_string())
                }
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
            Command::Produce {
                topic,
                partition,
                records,
                rate_per_s,
                for_ms,
                ..
            } => {
                self.check_partition(topic, *partition)?;
                match (records, rate_per_s) {
                    (None, None) => {
                        return Err("produce needs \"records\" or \"rate_per_s\"".into())
                    }
                    (Some(0), None) => return Err("produce needs at least 1 record".into()),
                    (_, Some(0)) => return Err("rate_per_s must be at least 1".into()),
                    (_, Some(r)) if *r > 100_000 => {
                        return Err("rate_per_s can be at most 100000".into())
                    }
                    (Some(r), _) if *r > 100_000_000 => {
                        return Err("records can be at most 100000000".into())
                    }
                    _ => {}
                }
                if for_ms.is_some() && rate_per_s.is_none() {
                    return Err("for_ms needs rate_per_s (a steady stream)".into());
                }
                if *for_ms == Some(0) {
                    return Err("for_ms must be at least 1".into());
                }
                if let Command::Produce { acks, .. } = cmd {
                    self.settings
                        .producer_client(*acks)
                        .map_err(|e| format!("KafkaProducer refuses its settings: {e}"))?;
                }
            }
            Command::StopProducing { topic, partition } => {
                self.check_partition(topic, *partition)?;
                let tp = TopicPartition::new(topic, *partition);
                if !self.producer.streams.values().any(|s| s.tp == tp) {
                    return Err(format!("the producer is not streaming to {tp}"));
                }
            }
            Command::StallFetcher {
                broker,
                topic,
                partition,
            } => {
                status(broker)?;
                self.check_scope(topic, partition)?;
                let stall = Stall {
                    topic: topic.clone(),
                    partition: *partition,
                };
                if self.brokers[broker].stalls.contains(&stall) {
                    return Err(format!(
                        "broker {broker}'s fetching of {} is already stalled",
                        scope(topic, partition)
                    ));
                }
                if !self.brokers[broker].status.is_alive() {
                    return Err(format!("broker {broker} is not running"));
                }
            }
            Command::ResumeFetcher {
                broker,
                topic,
                partition,
            } => {
                status(broker)?;
                let stall = Stall {
                    topic: topic.clone(),
                    partition: *partition,
                };
                if !self.brokers[broker].stalls.contains(&stall) {
                    return Err(format!(
                        "broker {broker}'s fetching of {} is not stalled",
                        scope(topic, partition)
                    ));
                }
            }
            Command::SetConfig { key, value, topic } => match topic {
                Some(t) => {
                    self.find_topic(t)?;
                    TopicConfig::default().set(key, value)?;
                }
                None => {
                    let mut s = self.settings.clone();
                    s.set(key, value)?;
                    s.check_producer()?;
                    for acks in self.producer.clients_in_use() {
                        s.producer_client(acks).map_err(|e| {
                            format!("the producer with acks={acks} would refuse it: {e}")
                        })?;
                    }
                }
            },
            Command::PreferredElection { topic, partition } => {
                self.check_scope(topic, partition)?;
                if self.zk.controller().is_none() {
                    return Err("there is no controller right now to run the election".into());
                }
            }
            Command::Reassign {
                topic,
                partition,
                replicas,
            } => {
                self.check_partition(topic, *partition)?;
                if replicas.is_empty() {
                    return Err("a reassignment needs at least one replica".into());
                }
                let mut seen = BTreeSet::new();
                for r in replicas {
                    status(r)?;
                    if !seen.insert(r) {
                        return Err(format!("broker {r} is listed twice"));
                    }
                }
                let tp = TopicPartition::new(topic, *partition);
                if self.assignment(&tp) == *replicas {
                    return Err(format!("{tp} already has the replicas {replicas:?}"));
                }
                let Some(controller) = self.zk.controller() else {
                    return Err("there is no controller right now to run the reassignment".into());
                };
                let in_progress = self
                    .brokers
                    .get(&controller)
                    .and_then(|b| b.controller.as_ref())
                    .is_some_and(|c| c.partitions.reassigning.contains_key(&tp));
                if in_progress {
                    return Err(format!(
                        "a reassignment of {tp} is already in progress; wait until it completes"
                    ));
                }
            }
            Command::Join { group, member } => {
                let spec = self
                    .groups
                    .iter()
                    .find(|g| g.id == *group)
                    .ok_or_else(|| format!("there is no group \"{group}\""))?;
                if member.is_empty() || member.len() > 64 {
                    return Err("a member name has 1 to 64 characters".into());
                }
                if let Some(c) = self.consumers.find(group, member) {
                    if !matches!(
                        c.state,
                        super::consumer::ConsumerState::Left
                            | super::consumer::ConsumerState::Crashed
                    ) {
                        return Err(format!("consumer {member} is already in group {group}"));
                    }
                }
                let _ = spec;
                if !self.topics.iter().any(|t| t.name == OFFSETS_TOPIC) {
                    return Err("__consumer_offsets does not exist in this cluster".into());
                }
            }
            Command::Leave { group, member } | Command::CrashConsumer { group, member } => {
                match self.consumers.find(group, member) {
                    None => return Err(format!("there is no consumer {member} in group {group}")),
                    Some(c)
                        if matches!(
                            c.state,
                            super::consumer::ConsumerState::Left
                                | super::consumer::ConsumerState::Crashed
                        ) =>
                    {
                        return Err(format!(
                            "consumer {member} of group {group} is not running (it is {})",
                            c.state.name()
                        ))
                    }
                    Some(_) => {}
                }
            }
            Command::DeleteController => {
                if self.zk.controller().is_none() {
                    return Err(
                        "there is no controller to move: /controller does not exist right now"
                            .into(),
                    );
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
                    self.broker_mut(b).start(
                        now,
                        &settings,
                        "the scenario's brokers start in the listed order",
                        &mut out,
                    );
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
                    self.lost_on_link(from, to);
                    self.mark_dropped(msg);
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
                                        self.mark_dropped(msg);
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
                                self.mark_dropped(msg);
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

    fn tp_by_name(&self, name: &str) -> Option<TopicPartition> {
        let i = name.rfind('-')?;
        let tp = TopicPartition::new(&name[..i], name[i + 1..].parse().ok()?);
        self.topics.iter().any(|t| t.name == tp.topic).then_some(tp)
    }

    /// Every partition, in order.
    fn all_partitions(&self) -> Vec<TopicPartition> {
        self.partitions.clone()
    }

    /// ZooKeeper's partition state of `tp`, if written (parsed once per change).
    fn zk_state(&self, tp: &TopicPartition) -> Option<PartitionState> {
        let node = self
            .zk
            .node(&partition_state_path(&tp.topic, tp.partition))?;
        match self.cached_zk_state(tp) {
            Some((mzxid, st)) if *mzxid == node.stat.mzxid => Some(st.clone()),
            _ => PartitionState::from_json(&node.data),
        }
    }

    /// The partition state parsed at the last refresh, with its mzxid.
    fn cached_zk_state(&self, tp: &TopicPartition) -> Option<&(i64, PartitionState)> {
        let i = *self.partition_index.get(tp)?;
        self.zk_states[i].as_ref()
    }

    /// Re-parses the partition states and topic assignments that changed since the last step.
    fn refresh_zk_states(&mut self) {
        if self.zk.zxid() == self.zk_states_zxid {
            return;
        }
        self.zk_states_zxid = self.zk.zxid();
        for t in &self.topics {
            let Some(node) = self.zk.node(&topic_path(&t.name)) else {
                continue;
            };
            if self.zk_assignments.get(&t.name).map(|(m, _)| *m) != Some(node.stat.mzxid) {
                if let Ok(a) = serde_json::from_str::<TopicAssignment>(&node.data) {
                    self.zk_assignments
                        .insert(t.name.clone(), (node.stat.mzxid, a.by_partition()));
                }
            }
        }
        for (cached, path) in self.zk_states.iter_mut().zip(&self.state_paths) {
            let Some(node) = self.zk.node(path) else {
                continue;
            };
            if cached.as_ref().map(|(m, _)| *m) != Some(node.stat.mzxid) {
                if let Some(st) = PartitionState::from_json(&node.data) {
                    *cached = Some((node.stat.mzxid, st));
                }
            }
        }
    }

    /// The assignment in ZooKeeper (a reassignment changes it), else as set up.
    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        self.zk_assignment(tp)
            .or_else(|| {
                self.topics
                    .iter()
                    .find(|t| t.name == tp.topic)
                    .and_then(|t| t.replicas.get(tp.partition as usize).cloned())
            })
            .unwrap_or_default()
    }

    /// The replicas of `tp` in its topic's assignment znode: from the copy parsed at the last
    /// step while ZooKeeper has not changed since, else parsed now.
    fn zk_assignment(&self, tp: &TopicPartition) -> Option<Vec<BrokerId>> {
        if self.zk_states_zxid == self.zk.zxid() {
            return self
                .zk_assignments
                .get(&tp.topic)
                .and_then(|(_, a)| a.get(&tp.partition).cloned());
        }
        self.zk
            .node(&topic_path(&tp.topic))
            .and_then(|n| serde_json::from_str::<TopicAssignment>(&n.data).ok())
            .and_then(|a| a.by_partition().remove(&tp.partition))
    }

    /// The broker that leads `tp` now: ZooKeeper names it and it has taken that leader epoch.
    fn acting_leader(&self, tp: &TopicPartition) -> Option<(BrokerId, u64)> {
        match self.cached_zk_state(tp) {
            Some((_, st)) => self.acting_leader_of(tp, st),
            None => self.acting_leader_of(tp, &self.zk_state(tp)?),
        }
    }

    /// The broker that leads `tp` now, given ZooKeeper's state of it.
    fn acting_leader_of(
        &self,
        tp: &TopicPartition,
        st: &PartitionState,
    ) -> Option<(BrokerId, u64)> {
        let leader = st.leader_id()?;
        let b = self.brokers.get(&leader)?;
        let r = b.replicas.get(tp)?.state.as_ref()?;
        (b.status.is_alive()
            && r.leader_epoch == st.leader_epoch
            && matches!(r.role, Role::Leader(_)))
        .then_some((leader, st.leader_epoch))
    }

    /// A cheap digest of everything the partition invariants read besides ZooKeeper: each
    /// live replica's log end, high watermark, leader epoch, role and ISR.
    fn replication_digest(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h = (h ^ v).wrapping_mul(0x0100_0000_01b3);
        };
        for b in self.brokers.values() {
            mix(u64::from(b.id));
            mix(u64::from(b.status.is_alive()));
            for r in b.replicas.values() {
                mix(r.log.leo);
                mix(r.log.hw);
                if let Some(st) = &r.state {
                    mix(st.leader_epoch);
                    mix(u64::from(matches!(st.role, Role::Leader(_))));
                    for m in &st.isr {
                        mix(u64::from(*m));
                    }
                }
            }
        }
        h
    }

    /// "One group leader per generation": no two consumers that completed a generation both
    /// believe they lead it.
    fn group_checks(&self) -> Vec<(String, String)> {
        let mut found = Vec::new();
        if self.groups.is_empty() {
            return found;
        }
        for g in &self.groups {
            let mut claims: BTreeMap<u32, Vec<String>> = BTreeMap::new();
            for c in &self.consumers.list {
                // A generation is settled once its SyncGroup succeeded (the coordinator had
                // committed the group); a zombie coordinator cannot get that far.
                let settled = c.state == super::consumer::ConsumerState::Stable;
                if settled && c.group == g.id && c.is_leader {
                    claims.entry(c.generation).or_default().push(c.name.clone());
                }
            }
            for (generation, names) in claims {
                if names.len() > 1 {
                    found.push((
                        super::invariants::ONE_GROUP_LEADER.to_string(),
                        format!(
                            "group {}: consumers {names:?} all lead generation {generation}",
                            g.id
                        ),
                    ));
                }
            }
        }
        found
    }

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
        let mut found = self.monitor.check(&self.zk, &self.brokers);
        found.extend(self.group_checks());
        let digest = (self.zk.zxid(), self.replication_digest());
        let new_acks = self.producer.take_new_acks();
        if digest == self.last_digest && !new_acks {
            let found = self.monitor.fresh(found);
            for (name, detail) in found {
                self.violation(name, detail);
            }
            return;
        }
        self.last_digest = digest;
        self.refresh_zk_states();
        // A zombie controller's leader change that landed in ZooKeeper (before 2.1).
        for (path, state, current) in self.zk.take_stale_controller_writes() {
            found.push((
                super::invariants::ONE_ACTING_CONTROLLER.to_string(),
                format!(
                    "{path} was rewritten by controller epoch {} (leader {}, leader epoch {}) while epoch {current} rules: a zombie controller's write landed (split brain)",
                    state.controller_epoch, state.leader, state.leader_epoch
                ),
            ));
        }
        let mut leaders: Vec<Option<(BrokerId, u64)>> = vec![None; self.partitions.len()];
        for (i, tp) in self.partitions.iter().enumerate() {
            let Some((mzxid, st)) = self.zk_states[i].as_ref() else {
                continue;
            };
            let assignment = self.zk_assignments.get(&tp.topic);
            // What reads only ZooKeeper is checked again only when the partition's state or its
            // topic's assignment changed (a violation is reported once anyway).
            let version = (*mzxid, assignment.map_or(-1, |(m, _)| *m));
            if self.zk_checked[i] != Some(version) {
                self.zk_checked[i] = Some(version);
                let prev = self.zk_leader_epochs[i]
                    .replace(st.leader_epoch)
                    .unwrap_or(0);
                if st.leader_epoch < prev {
                    found.push((
                        super::invariants::LEADER_EPOCHS_ONLY_GROW.to_string(),
                        format!(
                            "{tp}: leader epoch went back from {prev} to {}",
                            st.leader_epoch
                        ),
                    ));
                }
                if let Some(replicas) = assignment.and_then(|(_, a)| a.get(&tp.partition)) {
                    let strangers: Vec<BrokerId> = st
                        .isr
                        .iter()
                        .copied()
                        .filter(|r| !replicas.contains(r))
                        .collect();
                    if !strangers.is_empty() {
                        found.push((
                            super::invariants::ISR_WITHIN_ASSIGNMENT.to_string(),
                            format!(
                                "{tp}: the ISR {:?} holds {strangers:?}, which the assignment {replicas:?} does not list",
                                st.isr
                            ),
                        ));
                    }
                }
                if let Some(l) = st.leader_id() {
                    if !st.isr.contains(&l) {
                        found.push((
                            super::invariants::LEADER_IN_ISR.to_string(),
                            format!("{tp}: leader {l} is not in the ISR {:?}", st.isr),
                        ));
                    }
                }
            }
            // The leader's high watermark never passes what its ISR holds.
            let Some((leader, epoch)) = self.acting_leader_of(tp, st) else {
                continue;
            };
            leaders[i] = Some((leader, epoch));
            let r = &self.brokers[&leader].replicas[tp];
            let rst = r.state.as_ref().expect("acting leader");
            // Only the replicas the leader is assigned (see HW_WITHIN_ISR).
            for m in rst.isr.iter().filter(|m| rst.replicas.contains(m)) {
                let leo = self
                    .brokers
                    .get(m)
                    .and_then(|x| x.replicas.get(tp))
                    .map_or(0, |x| x.log.leo);
                if leo < r.log.hw {
                    found.push((
                        super::invariants::HW_WITHIN_ISR.to_string(),
                        format!(
                            "{tp}: leader {leader}'s high watermark {} is above ISR member {m}'s log end offset {leo}",
                            r.log.hw
                        ),
                    ));
                }
            }
        }
        // Acknowledged records can only go missing when the acting leaders change, or when an
        // acknowledgement arrives (it may come from a leader that has since been replaced).
        if leaders != self.last_leaders || new_acks {
            let by_partition: BTreeMap<TopicPartition, (BrokerId, u64)> = self
                .partitions
                .iter()
                .zip(&leaders)
                .filter_map(|(tp, l)| l.map(|l| (tp.clone(), l)))
                .collect();
            let mut pout = ProducerOut::default();
            self.producer
                .check_losses(&self.brokers, &by_partition, &self.settings, &mut pout);
            self.finish_producer(pout);
            self.last_leaders = leaders;
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

fn name(e: Endpoint) -> String {
    match e {
        Endpoint::Zk => "zk".into(),
        Endpoint::Broker(b) => b.to_string(),
        Endpoint::Client => "producer".into(),
        Endpoint::Consumer(c) => format!("consumer-{c}"),
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

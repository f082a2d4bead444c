//! The world's inputs: how a cluster is set up ([`Setup`], [`GroupSpec`]) and what a user or
//! a scenario does to it ([`Command`]), with the one check of a command ([`check`]).
//!
//! A command is checked against a [`Layout`] (the brokers, topics and groups set up, and the
//! settings in force) and, in a running world, against its state now ([`Live`]). A scenario
//! checks its actions against the layout alone before any world exists; the world checks
//! every command against both before applying it. A command that fails its check changes
//! nothing and says why.

use super::assignment;
use super::broker::BrokerStatus;
use super::config::{ReassignPath, Settings};
use super::consumer::ConsumerState;
use super::coordinator::OFFSETS_TOPIC;
use super::net::{BrokerId, Endpoint};
use super::replication::Stall;
use super::rng::Rng;
use super::topic::{Acks, TopicConfig, TopicPartition, TopicSpec};
use crate::collections::VecSet;
use crate::text::numbers::fmt_ms;

/// Gap between the starts of the brokers listed at t=0, so the first listed registers first.
pub const STARTUP_SPACING_MS: u64 = 100;

/// How long after the last broker listed at t=0 starts the topics are created.
pub const TOPIC_CREATION_DELAY_MS: u64 = 500;

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

/// What a fetcher stall or a preferred election covers, in words: every partition, a
/// topic, or one partition.
pub fn scope(topic: &Option<String>, partition: &Option<u32>) -> String {
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
                write!(f, "pause broker {broker} for {}", fmt_ms(*for_ms))
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
                    Some(ms) => write!(f, " for {}", fmt_ms(*ms)),
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
    /// Topics, created by an admin write `TOPIC_CREATION_DELAY_MS` after the last broker
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

    /// The broker ids, as listed.
    pub fn broker_ids(&self) -> Vec<BrokerId> {
        self.brokers.iter().map(|(b, _)| *b).collect()
    }

    /// Every topic a world made from this setup holds: the topics set up and, with any
    /// group, `__consumer_offsets` (left out when it cannot be made).
    pub fn world_topics(&self) -> Vec<TopicSpec> {
        let mut topics = self.topics.clone();
        if !self.groups.is_empty() {
            if let Ok(spec) = offsets_topic(&self.settings, &self.broker_ids(), self.seed) {
                topics.push(spec);
            }
        }
        topics
    }
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
    let replicas = assignment::assign(
        brokers,
        settings.offsets_topic_num_partitions,
        rf,
        assignment::Start::Random,
        &mut Rng::new(seed ^ 0x6f66_6673),
    )?;
    Ok(TopicSpec {
        name: OFFSETS_TOPIC.into(),
        replicas,
        config: TopicConfig::default(),
    })
}

/// The cluster as set up, which a command is checked against even before a world exists:
/// its brokers, its topics (`__consumer_offsets` included), its groups, and the settings in
/// force.
#[derive(Debug, Clone, Copy)]
pub struct Layout<'a> {
    /// Every broker id.
    pub brokers: &'a [BrokerId],
    /// Every topic.
    pub topics: &'a [TopicSpec],
    /// Every consumer group.
    pub groups: &'a [GroupSpec],
    /// The settings in force.
    pub settings: &'a Settings,
}

/// What a running cluster tells the check of a command about its state now.
pub trait Live {
    /// The status of a broker of the layout.
    fn status(&self, broker: BrokerId) -> BrokerStatus;
    /// Whether a broker of the layout has this fetcher stall.
    fn is_stalled(&self, broker: BrokerId, stall: &Stall) -> bool;
    /// Whether ZooKeeper keeps a live session for the broker.
    fn has_live_session(&self, broker: BrokerId) -> bool;
    /// Whether the link between two endpoints is cut.
    fn is_cut(&self, a: Endpoint, b: Endpoint) -> bool;
    /// Whether the producer streams to a partition.
    fn is_streaming_to(&self, tp: &TopicPartition) -> bool;
    /// The `acks` of the producer clients in use.
    fn producer_clients_in_use(&self) -> VecSet<Acks>;
    /// The broker `/controller` names.
    fn controller(&self) -> Option<BrokerId>;
    /// A partition's replicas now (a reassignment changes them).
    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId>;
    /// Whether the controller is moving a partition now.
    fn is_reassigning(&self, tp: &TopicPartition) -> bool;
    /// The state of a consumer, if it ever started.
    fn consumer_state(&self, group: &str, member: &str) -> Option<ConsumerState>;
}

impl<'a> Layout<'a> {
    fn broker(&self, b: &BrokerId) -> Result<(), String> {
        if self.brokers.contains(b) {
            Ok(())
        } else {
            Err(format!("there is no broker {b}"))
        }
    }

    fn topic(&self, topic: &str) -> Result<&'a TopicSpec, String> {
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

    fn partition(&self, topic: &str, partition: u32) -> Result<&'a TopicSpec, String> {
        let t = self.topic(topic)?;
        if partition as usize >= t.replicas.len() {
            return Err(format!(
                "topic \"{topic}\" has partitions 0..{}, not {partition}",
                t.replicas.len() - 1
            ));
        }
        Ok(t)
    }

    fn scope(&self, topic: &Option<String>, partition: &Option<u32>) -> Result<(), String> {
        match (topic, partition) {
            (None, Some(_)) => Err("a partition needs its topic".into()),
            (Some(t), None) => self.topic(t).map(|_| ()),
            (Some(t), Some(p)) => self.partition(t, *p).map(|_| ()),
            (None, None) => Ok(()),
        }
    }

    fn group(&self, group: &str) -> Result<(), String> {
        if self.groups.iter().any(|g| g.id == group) {
            Ok(())
        } else {
            Err(format!("there is no group \"{group}\""))
        }
    }

    fn endpoint(&self, e: &Endpoint) -> Result<(), String> {
        match e {
            Endpoint::Zk => Ok(()),
            Endpoint::Broker(b) => self.broker(b),
            Endpoint::Client | Endpoint::Consumer(_) => {
                Err("only links between ZooKeeper and brokers can be cut".to_string())
            }
        }
    }
}

/// Checks a command against the layout and, with `live`, against the state of the running
/// cluster; says what is wrong with it. Without `live` only what the layout decides is
/// checked (the names exist, the values are in range); the rest waits for the world.
pub fn check(cmd: &Command, layout: &Layout, live: Option<&dyn Live>) -> Result<(), String> {
    match cmd {
        Command::Start(b) => {
            layout.broker(b)?;
            if let Some(live) = live {
                let s = live.status(*b);
                if s.is_alive() {
                    return Err(format!("broker {b} is already {}", s.name()));
                }
            }
        }
        Command::Crash(b) => {
            layout.broker(b)?;
            if let Some(live) = live {
                let s = live.status(*b);
                if !s.is_alive() {
                    return Err(format!("broker {b} is not running (it is {})", s.name()));
                }
            }
        }
        Command::Join { group, member } => {
            layout.group(group)?;
            if member.is_empty() || member.len() > 64 {
                return Err("a member name has 1 to 64 characters".into());
            }
            let state = live.and_then(|live| live.consumer_state(group, member));
            if state.is_some_and(|s| !matches!(s, ConsumerState::Left | ConsumerState::Crashed)) {
                return Err(format!("consumer {member} is already in group {group}"));
            }
            if !layout.topics.iter().any(|t| t.name == OFFSETS_TOPIC) {
                return Err("__consumer_offsets does not exist in this cluster".into());
            }
        }
        // The rest, in a function of its own: the page's first view checks only starts, crashes
        // and joins, and the build leaves what it does not run to the module's second part.
        _ => return check_rest(cmd, layout, live),
    }
    Ok(())
}

/// [`check`] for the commands other than a start, a crash or a join.
#[inline(never)]
fn check_rest(cmd: &Command, layout: &Layout, live: Option<&dyn Live>) -> Result<(), String> {
    match cmd {
        Command::Shutdown(b) => {
            layout.broker(b)?;
            if let Some(live) = live {
                let s = live.status(*b);
                if s != BrokerStatus::Running {
                    return Err(format!("broker {b} cannot shut down: it is {}", s.name()));
                }
            }
        }
        Command::Pause { broker, for_ms } => {
            layout.broker(broker)?;
            if let Some(live) = live {
                let s = live.status(*broker);
                if !matches!(s, BrokerStatus::Running | BrokerStatus::ShuttingDown) {
                    return Err(format!("broker {broker} cannot pause: it is {}", s.name()));
                }
            }
            if *for_ms == 0 {
                return Err("a pause must last at least 1 ms".into());
            }
        }
        Command::ExpireSession(b) => {
            layout.broker(b)?;
            if live.is_some_and(|live| !live.has_live_session(*b)) {
                return Err(format!("broker {b} has no live ZooKeeper session"));
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
            layout.partition(topic, *partition)?;
            if topic == OFFSETS_TOPIC {
                // Only the group coordinator writes there: a client's produce is refused
                // (ReplicaManager.appendToLocalLog: "Cannot append to internal topic", an
                // InvalidTopicException, in every release modelled).
                return Err(format!(
                    "cannot produce to {OFFSETS_TOPIC}: it is Kafka's internal topic, which only the group coordinator writes"
                ));
            }
            match (records, rate_per_s) {
                (None, None) => return Err("produce needs \"records\" or \"rate_per_s\"".into()),
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
            layout
                .settings
                .producer_client(*acks)
                .map_err(|e| format!("KafkaProducer refuses its settings: {e}"))?;
        }
        Command::StopProducing { topic, partition } => {
            layout.partition(topic, *partition)?;
            let tp = TopicPartition::new(topic, *partition);
            if live.is_some_and(|live| !live.is_streaming_to(&tp)) {
                return Err(format!("the producer is not streaming to {tp}"));
            }
        }
        Command::StallFetcher {
            broker,
            topic,
            partition,
        } => {
            layout.broker(broker)?;
            layout.scope(topic, partition)?;
            if let Some(live) = live {
                let stall = Stall {
                    topic: topic.clone(),
                    partition: *partition,
                };
                if live.is_stalled(*broker, &stall) {
                    return Err(format!(
                        "broker {broker}'s fetching of {} is already stalled",
                        scope(topic, partition)
                    ));
                }
                if !live.status(*broker).is_alive() {
                    return Err(format!("broker {broker} is not running"));
                }
            }
        }
        Command::ResumeFetcher {
            broker,
            topic,
            partition,
        } => {
            layout.broker(broker)?;
            layout.scope(topic, partition)?;
            if let Some(live) = live {
                let stall = Stall {
                    topic: topic.clone(),
                    partition: *partition,
                };
                if !live.is_stalled(*broker, &stall) {
                    return Err(format!(
                        "broker {broker}'s fetching of {} is not stalled",
                        scope(topic, partition)
                    ));
                }
            }
        }
        Command::SetConfig { key, value, topic } => match topic {
            Some(t) => {
                layout.topic(t)?;
                TopicConfig::default().set(key, value)?;
            }
            None => {
                let mut s = layout.settings.clone();
                s.set(key, value)?;
                if let Some(live) = live {
                    s.check_producer()?;
                    for acks in live.producer_clients_in_use() {
                        s.producer_client(acks).map_err(|e| {
                            format!("the producer with acks={acks} would refuse it: {e}")
                        })?;
                    }
                }
            }
        },
        Command::PreferredElection { topic, partition } => {
            layout.scope(topic, partition)?;
            if live.is_some_and(|live| live.controller().is_none()) {
                return Err("there is no controller right now to run the election".into());
            }
        }
        Command::Reassign {
            topic,
            partition,
            replicas,
        } => {
            layout.partition(topic, *partition)?;
            if replicas.is_empty() {
                return Err("a reassignment needs at least one replica".into());
            }
            let mut seen = VecSet::new();
            for r in replicas {
                layout.broker(r)?;
                if !seen.insert(r) {
                    return Err(format!("broker {r} is listed twice"));
                }
            }
            if let Some(live) = live {
                let tp = TopicPartition::new(topic, *partition);
                if live.assignment(&tp) == *replicas {
                    return Err(format!("{tp} already has the replicas {replicas:?}"));
                }
                if live.controller().is_none() {
                    return Err("there is no controller right now to run the reassignment".into());
                }
                // Before 3.0 the reassignment tool itself refuses while any reassignment is in
                // progress (an event, see `World::apply`); the API would replace the one in
                // progress, which the model does not simulate.
                let api = layout.settings.profile.reassigns_through() == ReassignPath::Api;
                if api && live.is_reassigning(&tp) {
                    return Err(format!(
                        "a reassignment of {tp} is already in progress; wait until it completes"
                    ));
                }
            }
        }
        Command::Leave { group, member } | Command::CrashConsumer { group, member } => {
            layout.group(group)?;
            if let Some(live) = live {
                match live.consumer_state(group, member) {
                    None => return Err(format!("there is no consumer {member} in group {group}")),
                    Some(s @ (ConsumerState::Left | ConsumerState::Crashed)) => {
                        return Err(format!(
                            "consumer {member} of group {group} is not running (it is {})",
                            s.name()
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
        Command::DeleteController => {
            if live.is_some_and(|live| live.controller().is_none()) {
                return Err(
                    "there is no controller to move: /controller does not exist right now".into(),
                );
            }
        }
        Command::Cut(a, b) | Command::Heal(a, b) => {
            layout.endpoint(a)?;
            layout.endpoint(b)?;
            if a == b {
                return Err(format!("{a} cannot be cut from itself"));
            }
            if let Some(live) = live {
                let is_cut = live.is_cut(*a, *b);
                if matches!(cmd, Command::Cut(..)) && is_cut {
                    return Err(format!("the link {a} <-> {b} is already cut"));
                }
                if matches!(cmd, Command::Heal(..)) && !is_cut {
                    return Err(format!("the link {a} <-> {b} is not cut"));
                }
            }
        }
        Command::Start(_) | Command::Crash(_) | Command::Join { .. } => {}
    }
    Ok(())
}

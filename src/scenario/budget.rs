//! The work budget: how much simulating a run will take, estimated from its setup, its actions
//! and its length before anything runs, and a run that would take too long refused with one
//! message saying what to reduce.
//!
//! The times, brokers and partitions a scenario may name are each bounded (one day, 64
//! brokers, 256 partitions), but not their product: a day of 64 brokers fetching 256
//! partitions from each other is hours of CPU. Most of a run's work is the brokers talking on a
//! schedule, so the estimate counts the messages of each schedule over the run's length:
//!
//! - **replica fetching**: each follower has one fetcher per leader broker, and each fetcher
//!   sends a fetch the leader holds for `replica.fetch.wait.max.ms` when it has nothing new
//!   (`ReplicaFetcherThread`, `DelayedFetch`): a request, a timer and a response per broker
//!   pair per cycle of the wait plus the round trip, with a little more for each partition the
//!   fetch carries. A producer's stream wakes the followers of its partition with each batch
//!   (the producer sends about ten a second: `linger.ms` 0 and the simulator's 100 ms stream
//!   tick), and each batch is a request and a response;
//! - **consumer heartbeats**: a request and a response per consumer every
//!   `heartbeat.interval.ms` plus the round trip;
//! - **ZooKeeper pings**: a ping and its answer per broker every third of the session timeout
//!   (`ClientCnxn`: a client idle for `readTimeout / 2`, two thirds of the session timeout,
//!   pings);
//! - a little for each broker's other timers.
//!
//! The estimate takes the leaders to be the preferred replicas, every listed broker to run
//! the whole time, each stream to run from its start until it is stopped or its `for_ms`
//! ends, each consumer to run from its join until it leaves or crashes, and a setting changed
//! by an action to apply from then on. Its unit is one message (or timer) handled in a
//! cluster of three brokers and one partition; a message costs more in a bigger cluster
//! (`size_factor`). Measured natively (the release build, CPU time, on the two shared cores
//! the figures were chosen on), a second does 1.3 to 3.3 million units, so [`MAX_WORK`] is at
//! most about 20 seconds natively. It is set so that the page's own heaviest session fits: the
//! loading benchmark's hour of 9 brokers, 12 partitions, 6 consumers and 4 streams
//! (www/scripts/bench-seek.mjs), about 27 million units and 10 s, whose link replays it all.
//! Refused, for example: an hour of 64 brokers with 256 partitions (77 million units, 46 s), a
//! day of 9 brokers with 12 partitions (32 million), an hour of 6 consumers heartbeating every
//! millisecond on 3 brokers (37 million); accepted: a day of 3 brokers with 3 partitions (5
//! million, 4 s), 10 minutes of 64 brokers with 256 partitions (13 million, 8 s).

use crate::sim::commands::offsets_topic;
use crate::sim::{BrokerId, Command, Settings, Setup, TopicSpec};
// B-trees: with 64 brokers and 256 partitions the tables reach thousands, filled in no order.
#[allow(clippy::disallowed_types)]
use std::collections::{BTreeMap, BTreeSet};

/// The most work a run may take (at most about 20 seconds natively in the release build, a
/// few times that in a browser). Every committed story, lesson and example takes less than a
/// five-hundredth of it (tests/work_budget.rs); an hour of free play's largest cluster on the
/// page (9 brokers, 12 partitions, 6 consumers) with 4 streams fits.
pub const MAX_WORK: f64 = 30_000_000.0;

/// The work of one fetch cycle of one broker pair: the fetch, the leader's wait and the
/// response.
const FETCH_CYCLE: f64 = 3.0;

/// The work each partition adds to a fetch cycle that carries it.
const FETCH_PARTITION: f64 = 0.3;

/// The batches a stream sends each second (its 100 ms tick).
const STREAM_BATCHES_PER_S: f64 = 10.0;

/// How much more a message of a stream's batch costs than an idle fetch's (measured: 1.3 to
/// 2 times).
const STREAM_WEIGHT: f64 = 1.5;

/// The work of each broker's other timers, each second.
const BROKER_TIMERS: f64 = 1.0;

/// The estimated work of a run, by where it goes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Work {
    /// Replica fetching, streams' batches included.
    pub fetching: f64,
    /// Consumer heartbeats.
    pub heartbeats: f64,
    /// ZooKeeper pings and the brokers' own timers.
    pub brokers: f64,
}

impl Work {
    /// All of it.
    pub fn total(&self) -> f64 {
        self.fetching + self.heartbeats + self.brokers
    }
}

/// What runs during one stretch of the run.
#[allow(clippy::disallowed_types)] // B-trees: see the `use` above
struct Stretch<'a> {
    settings: &'a Settings,
    brokers: usize,
    /// Each fetching broker pair (follower, leader) with the partitions it fetches.
    pairs: &'a BTreeMap<(BrokerId, BrokerId), usize>,
    /// The followers of each partition, by `topic-partition`.
    followers: &'a BTreeMap<(String, u32), usize>,
    streams: &'a BTreeSet<(String, u32)>,
    consumers: usize,
}

impl Stretch<'_> {
    /// The work of a second of this stretch.
    fn per_second(&self) -> Work {
        let s = self.settings;
        let round_trip = 2 * s.network_latency_ms + s.network_jitter_ms;
        let cycles = 1000.0 / (s.replica_fetch_wait_max_ms + round_trip).max(1) as f64;
        let carried: usize = self.pairs.values().sum();
        let idle =
            cycles * (self.pairs.len() as f64 * FETCH_CYCLE + carried as f64 * FETCH_PARTITION);
        let streamed: f64 = self
            .streams
            .iter()
            .map(|tp| {
                let followers = self.followers.get(tp).copied().unwrap_or(0) as f64;
                // The batch's request and response, and a fetch cycle of each follower, each
                // carrying records (the log, the ledger): measured at 1.3 to 2 times an idle one.
                STREAM_BATCHES_PER_S
                    * STREAM_WEIGHT
                    * (2.0 + followers * (FETCH_CYCLE + FETCH_PARTITION))
            })
            .sum();
        // A consumer sends its next heartbeat once the last one is answered.
        let heartbeats = self.consumers as f64 * 2.0 * 1000.0
            / (s.heartbeat_interval_ms + round_trip).max(1) as f64;
        let ping_every = (s.zookeeper_session_timeout_ms / 3).max(1) as f64;
        let brokers = self.brokers as f64 * (BROKER_TIMERS + 2.0 * 1000.0 / ping_every);
        let k = self.size_factor();
        Work {
            fetching: k * (idle + streamed),
            heartbeats: k * heartbeats,
            brokers: k * brokers,
        }
    }

    /// How much more each message costs in this cluster than in one of three brokers and one
    /// partition: every message is handled among more brokers and partitions (the views, the
    /// monitor's checks). Measured: about 1.6 times with 9 brokers and 12 partitions, 3 times
    /// with 64 brokers and none, 8 times with 64 or more partitions (256 cost no more than 64).
    fn size_factor(&self) -> f64 {
        1.0 + self.brokers as f64 / 32.0 + self.followers.len().min(64) as f64 / 10.0
    }
}

/// Estimates the work of running `setup` with `actions` until `until_ms`.
#[allow(clippy::disallowed_types)] // B-trees: see the `use` above
pub fn estimate(setup: &Setup, actions: &[(u64, Command)], until_ms: u64) -> Work {
    let ids: Vec<BrokerId> = setup.brokers.iter().map(|(b, _)| *b).collect();
    let mut topics: Vec<TopicSpec> = setup.topics.clone();
    if !setup.groups.is_empty() {
        if let Ok(offsets) = offsets_topic(&setup.settings, &ids, setup.seed) {
            topics.push(offsets);
        }
    }
    let mut pairs: BTreeMap<(BrokerId, BrokerId), usize> = BTreeMap::new();
    let mut followers: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for t in &topics {
        for (p, replicas) in t.replicas.iter().enumerate() {
            let Some((&leader, rest)) = replicas.split_first() else {
                continue;
            };
            for &f in rest {
                *pairs.entry((f, leader)).or_default() += 1;
            }
            followers.insert((t.name.clone(), p as u32), rest.len());
        }
    }
    let mut settings = setup.settings.clone();
    let mut streams: BTreeMap<(String, u32), Option<u64>> = BTreeMap::new();
    let mut consumers: BTreeSet<(String, String)> = BTreeSet::new();
    let mut work = Work::default();
    let mut from = 0;
    // The work from `from` to `to`, split where a stream's for_ms ends.
    let stretch = |mut from: u64,
                   to: u64,
                   settings: &Settings,
                   streams: &mut BTreeMap<(String, u32), Option<u64>>,
                   consumers: usize,
                   work: &mut Work| {
        while from < to {
            let end = streams
                .values()
                .filter_map(|e| *e)
                .filter(|e| *e > from)
                .min()
                .unwrap_or(to)
                .min(to);
            let running: BTreeSet<(String, u32)> = streams.keys().cloned().collect();
            let seconds = (end - from) as f64 / 1000.0;
            let w = Stretch {
                settings,
                brokers: ids.len(),
                pairs: &pairs,
                followers: &followers,
                streams: &running,
                consumers,
            }
            .per_second();
            work.fetching += w.fetching * seconds;
            work.heartbeats += w.heartbeats * seconds;
            work.brokers += w.brokers * seconds;
            streams.retain(|_, e| e.is_none_or(|e| e > end));
            from = end;
        }
    };
    for (at, cmd) in actions.iter().filter(|(at, _)| *at < until_ms) {
        stretch(
            from,
            *at,
            &settings,
            &mut streams,
            consumers.len(),
            &mut work,
        );
        from = *at;
        match cmd {
            Command::SetConfig {
                key,
                value,
                topic: None,
            } => {
                // A setting the reader refused never reaches here; one the world would refuse
                // when it applies changes nothing.
                let _ = settings.set(key, value);
            }
            Command::Produce {
                topic,
                partition,
                rate_per_s: Some(_),
                for_ms,
                ..
            } => {
                streams.insert((topic.clone(), *partition), for_ms.map(|f| at + f));
            }
            Command::StopProducing { topic, partition } => {
                streams.remove(&(topic.clone(), *partition));
            }
            Command::Join { group, member } => {
                consumers.insert((group.clone(), member.clone()));
            }
            Command::Leave { group, member } | Command::CrashConsumer { group, member } => {
                consumers.remove(&(group.clone(), member.clone()));
            }
            _ => {}
        }
    }
    stretch(
        from,
        until_ms,
        &settings,
        &mut streams,
        consumers.len(),
        &mut work,
    );
    work
}

/// Refuses a run whose estimated work is over [`MAX_WORK`], saying how much it is, where most
/// of it goes and what to reduce; `shorter` names how to shorten it (`until_ms` for a scenario).
pub fn check(
    setup: &Setup,
    actions: &[(u64, Command)],
    until_ms: u64,
    shorter: &str,
) -> Result<(), String> {
    let work = estimate(setup, actions, until_ms);
    if work.total() <= MAX_WORK {
        return Ok(());
    }
    let share = |part: f64| (100.0 * part / work.total()).round();
    let most = if work.fetching >= work.heartbeats && work.fetching >= work.brokers {
        format!(
            "{}% of it is replica fetching (replica.fetch.wait.max.ms {} ms): use fewer brokers or partitions, a smaller replication factor, fewer streams or a longer replica.fetch.wait.max.ms",
            share(work.fetching),
            setup.settings.replica_fetch_wait_max_ms
        )
    } else if work.heartbeats >= work.brokers {
        format!(
            "{}% of it is consumer heartbeats (heartbeat.interval.ms {} ms): use fewer consumers or a longer heartbeat.interval.ms",
            share(work.heartbeats),
            setup.settings.heartbeat_interval_ms
        )
    } else {
        format!(
            "{}% of it is the brokers' ZooKeeper pings and timers: use fewer brokers or a longer zookeeper.session.timeout.ms",
            share(work.brokers)
        )
    };
    Err(format!(
        "this run would take too long to simulate: its work is about {:.1} million messages in {} of virtual time, over the limit of {}; {most}, or {shorter}",
        work.total() / 1e6,
        duration(until_ms),
        millions(MAX_WORK),
    ))
}

/// A number of millions in words: `2.5 million`, `3 million`.
fn millions(n: f64) -> String {
    let m = n / 1e6;
    if m.fract() == 0.0 {
        format!("{m:.0} million")
    } else {
        format!("{m:.1} million")
    }
}

/// A virtual duration in words: `10 min`, `1 h 30 min`, `45 s`.
fn duration(ms: u64) -> String {
    let s = ms / 1000;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, 0) => format!("{m} min"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, 0, _) => format!("{h} h"),
        (h, m, _) => format!("{h} h {m} min"),
    }
}

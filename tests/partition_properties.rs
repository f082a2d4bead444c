//! Property tests for partitions: random schedules of crashes, starts, controlled shutdowns,
//! pauses, session expiries, cut links, stalled fetchers, operators deleting `/controller` and
//! produce bursts and streams on random clusters with random topics.
//!
//! Under the 3.9 profile every safety invariant holds (one acting controller, leader epochs
//! only grow, the leader is in its ISR, the high watermark stays within the ISR, acknowledged
//! acks=all records survive), and once the faults stop every partition has a leader, every
//! replica is back in sync and the logs agree. Under every profile the run is deterministic
//! and nothing panics.
//!
//! Written with proptest: a failing schedule shrinks to a short one, kept in
//! `tests/partition_properties.proptest-regressions` and replayed first by every run. The
//! environment (`PROPERTY_CASES`, `PROPERTY_SEED`, `PROPERTY_PROFILE`, `PROPERTY_TRACE`) is
//! described in `tests/common/mod.rs`; `PRINT_PARTITION_CASE=N` prints the case drawn with
//! seed N and its trace (`PRINT_PROFILE=3.9` runs it under that profile).
#![cfg(not(target_arch = "wasm32"))]
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod common;

use common::fault;
use kafka_election_playground::{
    Acks, BrokerId, Command, Event, Profile, ReplicaState, Settings, Setup, TopicConfig, TopicSpec,
    World,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A topic: its partitions' replicas and its `min.insync.replicas`, if set.
#[derive(Debug, Clone)]
struct Topic {
    replicas: Vec<Vec<BrokerId>>,
    min_insync_replicas: Option<u32>,
}

/// A step of a schedule: a fault, or records produced to a topic's partition (both numbers
/// taken modulo the topics and the topic's partitions).
#[derive(Debug, Clone)]
enum Step {
    Fault(Command),
    Burst {
        topic: usize,
        partition: u32,
        records: u64,
        acks: Acks,
    },
    Stream {
        topic: usize,
        partition: u32,
        acks: Acks,
        rate_per_s: u64,
        for_ms: u64,
    },
}

/// A cluster, its topics and its schedule.
#[derive(Debug, Clone)]
struct Case {
    /// The world's seed (message latencies).
    seed: u64,
    profile: Profile,
    brokers: u32,
    topics: Vec<Topic>,
    /// ZooKeeper sessions of 6 s and `replica.lag.time.max.ms` of 10 s: more happens per
    /// virtual minute.
    short_timeouts: bool,
    /// The steps, each after a gap in ms.
    steps: Vec<(u64, Step)>,
}

/// A topic as drawn: its replication factor (1 to 3), for each of its 1 to 4 partitions an
/// order of the brokers, and one time in four a `min.insync.replicas` of 1 to 3; [`topic`]
/// fits it to the cluster.
fn raw_topic() -> impl Strategy<Value = (u32, Vec<Vec<u32>>, Option<u32>)> {
    (
        1u32..=3,
        proptest::collection::vec(common::broker_order(), 1..=4),
        proptest::option::weighted(0.25, 1u32..=3),
    )
}

/// The topic a drawn one gives on `n` brokers: each partition's replicas the first brokers
/// of its order (as many as the replication factor, at most `n`), `min.insync.replicas` at
/// most the replication factor.
fn topic((rf, orders, min_isr): (u32, Vec<Vec<u32>>, Option<u32>), n: u32) -> Topic {
    let rf = rf.min(n);
    Topic {
        replicas: orders.iter().map(|o| common::replicas(o, rf, n)).collect(),
        min_insync_replicas: min_isr.map(|m| m.min(rf)),
    }
}

fn acks() -> impl Strategy<Value = Acks> {
    prop_oneof![Just(Acks::Zero), Just(Acks::One), Just(Acks::All)]
}

fn step() -> impl Strategy<Value = Step> {
    let f = |s: BoxedStrategy<Command>| s.prop_map(Step::Fault);
    let target = (0usize..2, 0u32..4);
    prop_oneof![
        2 => f(fault::crash()),
        2 => f(fault::start()),
        1 => f(fault::shutdown()),
        1 => f(fault::pause(30_000)),
        1 => f(fault::expire()),
        1 => f(fault::cut()),
        1 => f(fault::heal()),
        1 => f(fault::stall()),
        1 => f(fault::resume()),
        1 => f(fault::delete_controller()),
        1 => (target.clone(), 1u64..=50, acks()).prop_map(|((topic, partition), records, acks)| {
            Step::Burst { topic, partition, records, acks }
        }),
        2 => (target, acks(), 1u64..=100, 1u64..=60_000).prop_map(
            |((topic, partition), acks, rate_per_s, for_ms)| Step::Stream {
                topic,
                partition,
                acks,
                rate_per_s,
                for_ms,
            }
        ),
    ]
}

/// 1 to 6 brokers under `profile`, 1 or 2 topics, 1 to 30 steps 0 to 12 s apart.
fn case(profile: BoxedStrategy<Profile>) -> impl Strategy<Value = Case> {
    (
        (any::<u64>(), profile, 1u32..=6, any::<bool>()),
        proptest::collection::vec(raw_topic(), 1..=2),
        proptest::collection::vec((0u64..=12_000, step()), 1..=30),
    )
        .prop_map(
            |((seed, profile, brokers, short_timeouts), topics, steps)| Case {
                seed,
                profile,
                brokers,
                topics: topics.into_iter().map(|t| topic(t, brokers)).collect(),
                short_timeouts,
                steps: steps
                    .into_iter()
                    .map(|(gap, step)| match step {
                        Step::Fault(c) => (gap, Step::Fault(common::within(c, brokers))),
                        produce => (gap, produce),
                    })
                    .collect(),
            },
        )
}

fn setup(case: &Case) -> Setup {
    let mut settings = Settings::for_profile(case.profile);
    if case.short_timeouts {
        settings.zookeeper_session_timeout_ms = 6_000;
        settings.replica_lag_time_max_ms = 10_000;
    }
    let mut s = Setup::with_brokers(case.seed, settings, case.brokers);
    s.topics = case
        .topics
        .iter()
        .enumerate()
        .map(|(i, t)| TopicSpec {
            name: format!("t{i}"),
            replicas: t.replicas.clone(),
            config: TopicConfig {
                min_insync_replicas: t.min_insync_replicas,
                ..TopicConfig::default()
            },
        })
        .collect();
    s
}

/// The command a step gives, its topic and partition brought into range.
fn command(case: &Case, step: &Step) -> Command {
    let target = |topic: usize, partition: u32| {
        let i = topic % case.topics.len();
        let partitions = case.topics[i].replicas.len() as u32;
        (format!("t{i}"), partition % partitions)
    };
    match step {
        Step::Fault(c) => c.clone(),
        Step::Burst {
            topic,
            partition,
            records,
            acks,
        } => {
            let (topic, partition) = target(*topic, *partition);
            Command::Produce {
                topic,
                partition,
                records: Some(*records),
                acks: *acks,
                rate_per_s: None,
                for_ms: None,
            }
        }
        Step::Stream {
            topic,
            partition,
            acks,
            rate_per_s,
            for_ms,
        } => {
            let (topic, partition) = target(*topic, *partition);
            Command::Produce {
                topic,
                partition,
                records: None,
                acks: *acks,
                rate_per_s: Some(*rate_per_s),
                for_ms: Some(*for_ms),
            }
        }
    }
}

/// Runs a case: its schedule, then the faults stop and the cluster settles.
fn run(case: &Case) -> World {
    let mut w = World::new(&setup(case));
    let steps: Vec<(u64, Command)> = case
        .steps
        .iter()
        .map(|(gap, step)| (*gap, command(case, step)))
        .collect();
    let (t, _) = common::play(&mut w, 0, &steps);
    common::stop_faults(&mut w, t, 120_000);
    w
}

fn keeps_every_invariant_and_heals(case: &Case) -> Result<(), TestCaseError> {
    let w = run(case);
    let s = w.state();
    let trace = || common::trace(&w);
    prop_assert!(
        s.violations.is_empty(),
        "violations: {:?}\n{}",
        s.violations,
        trace()
    );
    prop_assert!(s.controller.is_some(), "no controller\n{}", trace());
    for (name, p) in &s.partitions {
        prop_assert!(
            p.leader >= 0,
            "{} has no leader: {:?}\n{}",
            name,
            p,
            trace()
        );
        let mut isr = p.isr.clone();
        isr.sort_unstable();
        let mut replicas = p.replicas.clone();
        replicas.sort_unstable();
        prop_assert_eq!(
            isr,
            replicas,
            "{} is not fully in sync: {:?}\n{}",
            name,
            p,
            trace()
        );
        let leo = p.log_end_offsets[&(p.leader as u32)];
        prop_assert!(
            p.log_end_offsets.values().all(|l| *l == leo),
            "{}'s logs differ: {:?}\n{}",
            name,
            p,
            trace()
        );
        prop_assert_eq!(p.high_watermark, leo, "{}: {:?}\n{}", name, p, trace());
        prop_assert_eq!(
            p.replica_states
                .values()
                .filter(|r| **r == ReplicaState::Leader)
                .count(),
            1,
            "{}: {:?}\n{}",
            name,
            p,
            trace()
        );
    }
    Ok(())
}

fn ends_led(case: &Case) -> Result<(), TestCaseError> {
    let w = run(case);
    let s = w.state();
    prop_assert!(
        s.controller.is_some(),
        "no controller\n{}",
        common::trace(&w)
    );
    for (name, p) in &s.partitions {
        prop_assert!(
            p.leader >= 0,
            "{} has no leader: {:?}\n{}",
            name,
            p,
            common::trace(&w)
        );
    }
    Ok(())
}

fn events(case: &Case) -> Vec<Event> {
    run(case).events().to_vec()
}

proptest! {
    #![proptest_config(common::config(common::cases(200)))]

    #[test]
    fn under_3_9_random_schedules_keep_every_invariant_and_heal(
        case in case(Just(Profile::V3_9).boxed())
    ) {
        keeps_every_invariant_and_heals(&case)?;
    }
}

proptest! {
    #![proptest_config(common::config((common::cases(200) / 2).max(20)))]

    #[test]
    fn random_schedules_under_every_profile_run_without_panics_and_end_led(
        case in case(common::profile(&Profile::ALL))
    ) {
        ends_led(&case)?;
    }
}

proptest! {
    #![proptest_config(common::config((common::cases(200) / 10).max(10)))]

    #[test]
    fn random_partition_schedules_are_deterministic(case in case(common::profile(&Profile::ALL))) {
        prop_assert_eq!(events(&case), events(&case));
    }
}

#[test]
fn print_partition_case() {
    let Some(seed) = std::env::var("PRINT_PARTITION_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
    else {
        return;
    };
    let profile = match std::env::var("PRINT_PROFILE") {
        Ok(p) => Just(Profile::parse(&p).unwrap()).boxed(),
        Err(_) => common::profile(&Profile::ALL),
    };
    let case = common::draw(&case(profile), seed);
    println!("{case:?}");
    let w = run(&case);
    for e in w.events() {
        println!("{}", e.line());
    }
    println!("{}", serde_json::to_string_pretty(&w.state()).unwrap());
}

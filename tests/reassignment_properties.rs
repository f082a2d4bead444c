//! Property tests for partition reassignment, written with proptest so that a failing schedule
//! shrinks to a small one (and is kept in `tests/reassignment_properties.proptest-regressions`).
//!
//! Random clusters of 3 to 6 brokers under the 3.9 profile run random schedules of
//! reassignments mixed with crashes, starts, controlled shutdowns, pauses, session expiries,
//! cut links, stalled fetchers and produce bursts. While the faults go on, every safety
//! invariant holds (among them: the ISR holds only replicas of the assignment, the high
//! watermark stays within the ISR, acknowledged acks=all records survive). Once they stop,
//! every reassignment the controller took on is complete: each partition's replicas are its
//! original ones or the target of a reassignment that was asked for, and its ISR is exactly
//! those replicas.
//!
//! `PROPERTY_CASES=N` runs more cases than the default; `PROPERTY_SEED=N` draws other cases
//! (the default seed is fixed, so that every run tries the same ones); the rest of the
//! environment is described in `tests/common/mod.rs`.
#![cfg(not(target_arch = "wasm32"))]
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod common;

use kafka_election_playground::{
    Acks, Command, Endpoint, Profile, Settings, Setup, TopicConfig, TopicSpec, World,
};
use proptest::prelude::*;

/// One step of a schedule, with broker ids and partition numbers inside the cluster's range.
#[derive(Debug, Clone)]
enum Step {
    Crash(u32),
    Start(u32),
    Shutdown(u32),
    Pause(u32, u64),
    ExpireSession(u32),
    Cut(u32, Option<u32>),
    Heal(u32, Option<u32>),
    Stall(u32),
    Resume(u32),
    Produce(u32, u64, Acks),
    Reassign(u32, Vec<u32>),
}

#[derive(Debug, Clone)]
struct Case {
    brokers: u32,
    assignment: Vec<Vec<u32>>,
    short_timeouts: bool,
    steps: Vec<(u64, Step)>,
}

/// A replica list: 1 to 3 distinct brokers of `1..=n`, in a random order.
fn replicas(n: u32) -> impl Strategy<Value = Vec<u32>> {
    (1..=n.min(3) as usize).prop_flat_map(move |rf| {
        proptest::sample::subsequence((1..=n).collect::<Vec<u32>>(), rf).prop_shuffle()
    })
}

fn step(n: u32, partitions: u32) -> impl Strategy<Value = Step> {
    let b = 1..=n;
    let peer = proptest::option::of(1..=n);
    let acks = prop_oneof![Just(Acks::Zero), Just(Acks::One), Just(Acks::All)];
    prop_oneof![
        2 => b.clone().prop_map(Step::Crash),
        2 => b.clone().prop_map(Step::Start),
        1 => b.clone().prop_map(Step::Shutdown),
        1 => (b.clone(), 1u64..20_000).prop_map(|(b, ms)| Step::Pause(b, ms)),
        1 => b.clone().prop_map(Step::ExpireSession),
        1 => (b.clone(), peer.clone()).prop_map(|(b, p)| Step::Cut(b, p)),
        1 => (b.clone(), peer).prop_map(|(b, p)| Step::Heal(b, p)),
        1 => b.clone().prop_map(Step::Stall),
        1 => b.prop_map(Step::Resume),
        2 => (0..partitions, 1u64..50, acks).prop_map(|(p, r, a)| Step::Produce(p, r, a)),
        4 => (0..partitions, replicas(n)).prop_map(|(p, r)| Step::Reassign(p, r)),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (3u32..=6, 1u32..=3)
        .prop_flat_map(|(n, partitions)| {
            (
                Just(n),
                proptest::collection::vec(replicas(n), partitions as usize),
                any::<bool>(),
                proptest::collection::vec((0u64..12_000, step(n, partitions)), 5..30),
            )
        })
        .prop_map(|(brokers, assignment, short_timeouts, steps)| Case {
            brokers,
            assignment,
            short_timeouts,
            steps,
        })
}

fn endpoint(peer: Option<u32>) -> Endpoint {
    peer.map_or(Endpoint::Zk, Endpoint::Broker)
}

fn command(step: &Step) -> Command {
    let all = |broker| (broker, None, None);
    match step.clone() {
        Step::Crash(b) => Command::Crash(b),
        Step::Start(b) => Command::Start(b),
        Step::Shutdown(b) => Command::Shutdown(b),
        Step::Pause(broker, for_ms) => Command::Pause { broker, for_ms },
        Step::ExpireSession(b) => Command::ExpireSession(b),
        Step::Cut(b, p) => Command::Cut(Endpoint::Broker(b), endpoint(p)),
        Step::Heal(b, p) => Command::Heal(Endpoint::Broker(b), endpoint(p)),
        Step::Stall(b) => {
            let (broker, topic, partition) = all(b);
            Command::StallFetcher {
                broker,
                topic,
                partition,
            }
        }
        Step::Resume(b) => {
            let (broker, topic, partition) = all(b);
            Command::ResumeFetcher {
                broker,
                topic,
                partition,
            }
        }
        Step::Produce(partition, records, acks) => Command::Produce {
            topic: "t".into(),
            partition,
            records: Some(records),
            acks,
            rate_per_s: None,
            for_ms: None,
        },
        Step::Reassign(partition, replicas) => Command::Reassign {
            topic: "t".into(),
            partition,
            replicas,
        },
    }
}

/// Runs a case: its schedule, then the faults stop and the cluster settles. Returns the world
/// and, per partition, every replica list it may end with (the original and each target asked
/// for).
fn run(case: &Case) -> (World, Vec<Vec<Vec<u32>>>) {
    let mut settings = Settings::for_profile(Profile::V3_9);
    if case.short_timeouts {
        settings.zookeeper_session_timeout_ms = 6_000;
        settings.replica_lag_time_max_ms = 10_000;
    }
    let mut setup = Setup::with_brokers(7, settings, case.brokers);
    setup.topics = vec![TopicSpec {
        name: "t".into(),
        replicas: case.assignment.clone(),
        config: TopicConfig::default(),
    }];
    let mut w = World::new(&setup);
    let mut allowed: Vec<Vec<Vec<u32>>> = case.assignment.iter().map(|a| vec![a.clone()]).collect();
    let mut t = 2_000;
    for (gap, step) in &case.steps {
        t += gap;
        w.advance_to(t);
        // Commands that make no sense now are refused and change nothing: that is fine here.
        if w.apply(command(step)).is_ok() {
            if let Step::Reassign(p, r) = step {
                allowed[*p as usize].push(r.clone());
            }
        }
    }
    common::stop_faults(&mut w, t, 120_000);
    (w, allowed)
}

proptest! {
    #![proptest_config(common::config(common::cases(48)))]

    #[test]
    fn under_3_9_reassignments_during_faults_keep_every_invariant_and_complete(case in case()) {
        let (w, allowed) = run(&case);
        let s = w.state();
        prop_assert!(s.violations.is_empty(), "violations: {:?}", s.violations);
        let controller = s.controller;
        prop_assert!(controller.is_some(), "no controller");
        let in_progress = controller
            .and_then(|c| w.broker(c))
            .and_then(|b| b.controller.as_ref())
            .map(|c| c.partitions.reassigning.len());
        prop_assert_eq!(in_progress, Some(0), "reassignments left unfinished");
        for (p, options) in allowed.iter().enumerate() {
            let name = format!("t-{p}");
            let view = &s.partitions[&name];
            prop_assert!(view.leader >= 0, "{} has no leader: {:?}", name, view);
            prop_assert!(
                options.contains(&view.replicas),
                "{} ends on {:?}, which is neither its original replicas nor a target asked for ({:?})",
                name, view.replicas, options
            );
            let mut isr = view.isr.clone();
            isr.sort_unstable();
            let mut replicas = view.replicas.clone();
            replicas.sort_unstable();
            prop_assert_eq!(isr, replicas, "{} is not fully in sync: {:?}", name, view);
        }
    }
}

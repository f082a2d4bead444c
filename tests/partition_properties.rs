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
//! `PROPERTY_CASES=N` runs more cases than the default (the CI default is kept short);
//! `PRINT_PARTITION_CASE=N` prints one case's trace.

mod common;

use kafka_election_playground::assignment::{assign, Start};
use kafka_election_playground::Rng;
use kafka_election_playground::{
    Acks, Command, Endpoint, Event, Profile, ReplicaState, Settings, Setup, TopicConfig, TopicSpec,
    World,
};

fn cases() -> u64 {
    std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

fn setup(rng: &mut Rng, case: u64, profile: Profile) -> Setup {
    let brokers = 1 + rng.up_to(5) as u32;
    let ids: Vec<u32> = (1..=brokers).collect();
    let mut topics = Vec::new();
    for t in 0..(1 + rng.up_to(1)) {
        let partitions = 1 + rng.up_to(3) as u32;
        let rf = 1 + rng.up_to(u64::from(brokers.min(3)) - 1) as u32;
        let replicas = assign(&ids, partitions, rf, Start::Random, rng).expect("valid");
        let mut config = TopicConfig::default();
        if rng.up_to(3) == 0 {
            config.min_insync_replicas = Some(1 + rng.up_to(u64::from(rf) - 1) as u32);
        }
        topics.push(TopicSpec {
            name: format!("t{t}"),
            replicas,
            config,
        });
    }
    let mut settings = Settings::for_profile(profile);
    // Shorter timeouts make more happen per virtual minute.
    if rng.up_to(2) == 0 {
        settings.zookeeper_session_timeout_ms = 6_000;
        settings.replica_lag_time_max_ms = 10_000;
    }
    let mut s = Setup::with_brokers(case, settings, brokers);
    s.topics = topics;
    s
}

fn random_command(rng: &mut Rng, setup: &Setup) -> Command {
    let n = setup.brokers.len() as u64;
    let b = 1 + rng.up_to(n - 1) as u32;
    let other = 1 + rng.up_to(n - 1) as u32;
    let topic = &setup.topics[rng.up_to(setup.topics.len() as u64 - 1) as usize];
    let partition = rng.up_to(topic.replicas.len() as u64 - 1) as u32;
    let peer = if rng.up_to(2) == 0 {
        Endpoint::Zk
    } else {
        Endpoint::Broker(other)
    };
    let acks = [Acks::Zero, Acks::One, Acks::All][rng.up_to(2) as usize];
    match rng.up_to(14) {
        0 | 1 => Command::Crash(b),
        2 | 3 => Command::Start(b),
        4 => Command::Shutdown(b),
        5 => Command::Pause {
            broker: b,
            for_ms: 1 + rng.up_to(30_000),
        },
        6 => Command::ExpireSession(b),
        7 => Command::Cut(Endpoint::Broker(b), peer),
        8 => Command::Heal(Endpoint::Broker(b), peer),
        9 => Command::StallFetcher {
            broker: b,
            topic: None,
            partition: None,
        },
        10 => Command::ResumeFetcher {
            broker: b,
            topic: None,
            partition: None,
        },
        13 => Command::DeleteController,
        11 => Command::Produce {
            topic: topic.name.clone(),
            partition,
            records: Some(1 + rng.up_to(50)),
            acks,
            rate_per_s: None,
            for_ms: None,
        },
        _ => Command::Produce {
            topic: topic.name.clone(),
            partition,
            records: None,
            acks,
            rate_per_s: Some(1 + rng.up_to(100)),
            for_ms: Some(1 + rng.up_to(60_000)),
        },
    }
}

/// Runs one random schedule; returns the trace and the final world.
fn run_case(case: u64, profile: Option<Profile>) -> (Vec<Event>, World) {
    let mut rng = Rng::new(case.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x7061_7274);
    let profile = profile.unwrap_or(Profile::ALL[rng.up_to(3) as usize]);
    let setup = setup(&mut rng, case, profile);
    let mut w = World::new(&setup);
    let mut t = 0;
    for _ in 0..(5 + rng.up_to(25)) {
        t += rng.up_to(12_000);
        w.advance_to(t);
        // Commands that make no sense now are refused and change nothing: that is fine here.
        let _ = w.apply(random_command(&mut rng, &setup));
    }
    common::stop_faults(&mut w, t, 120_000);
    (w.events().to_vec(), w)
}

#[test]
fn under_3_9_random_schedules_keep_every_invariant_and_heal() {
    for case in 0..cases() {
        let (_, w) = run_case(case, Some(Profile::V3_9));
        let s = w.state();
        assert!(s.violations.is_empty(), "case {case}: {:?}", s.violations);
        assert!(s.controller.is_some(), "case {case}: no controller");
        for (name, p) in &s.partitions {
            assert!(p.leader >= 0, "case {case}: {name} has no leader: {p:?}");
            let mut isr = p.isr.clone();
            isr.sort_unstable();
            let mut replicas = p.replicas.clone();
            replicas.sort_unstable();
            assert_eq!(
                isr, replicas,
                "case {case}: {name} is not fully in sync: {p:?}"
            );
            let leo = p.log_end_offsets[&(p.leader as u32)];
            assert!(
                p.log_end_offsets.values().all(|l| *l == leo),
                "case {case}: {name}'s logs differ: {p:?}"
            );
            assert_eq!(p.high_watermark, leo, "case {case}: {name}: {p:?}");
            assert_eq!(
                p.replica_states
                    .values()
                    .filter(|r| **r == ReplicaState::Leader)
                    .count(),
                1,
                "case {case}: {name}: {p:?}"
            );
        }
    }
}

#[test]
fn random_schedules_under_every_profile_run_without_panics_and_end_led() {
    for case in 0..(cases() / 2).max(20) {
        let (_, w) = run_case(case, None);
        let s = w.state();
        assert!(s.controller.is_some(), "case {case}: no controller");
        for (name, p) in &s.partitions {
            assert!(p.leader >= 0, "case {case}: {name} has no leader: {p:?}");
        }
    }
}

#[test]
fn random_partition_schedules_are_deterministic() {
    for case in 0..(cases() / 10).max(10) {
        let (a, _) = run_case(case, None);
        let (b, _) = run_case(case, None);
        assert_eq!(a, b, "case {case}");
    }
}

#[test]
fn print_partition_case() {
    if let Some(case) = std::env::var("PRINT_PARTITION_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        let profile = std::env::var("PRINT_PROFILE")
            .ok()
            .and_then(|p| Profile::parse(&p).ok());
        let (events, w) = run_case(case, profile);
        for e in events {
            println!("{}", e.line());
        }
        println!("{}", serde_json::to_string_pretty(&w.state()).unwrap());
    }
}

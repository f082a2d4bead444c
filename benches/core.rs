//! Speed of the election core, measured (not asserted): how much virtual time a cluster
//! simulates per second of real time, and how long the committed stories take to run.
//!
//! `cargo bench --bench core` (add a number to repeat each measurement more often).
// A benchmark, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::assignment::{assign, Start};
use kafka_election_playground::scenario::{self, Runner};
use kafka_election_playground::Rng;
use kafka_election_playground::{
    Acks, Command, Profile, Settings, Setup, TopicConfig, TopicSpec, World,
};
use std::time::{Duration, Instant};

fn measure<F: FnMut() -> u64>(name: &str, repeat: u32, mut f: F) -> Duration {
    let mut best = Duration::MAX;
    let mut work = 0;
    for _ in 0..repeat {
        let start = Instant::now();
        work = f();
        best = best.min(start.elapsed());
    }
    println!(
        "{name:<58} best of {repeat}: {:>9.3} ms  ({work} events)",
        best.as_secs_f64() * 1e3
    );
    best
}

/// From `start` to `until`: every 5 virtual minutes one broker crashes and is started again a
/// minute later, the brokers taking turns.
fn crash_in_turn(w: &mut World, start: u64, until: u64, brokers: u32) {
    let mut t = start;
    let mut victim = 1;
    while t < until {
        t += 300_000;
        w.advance_to(t);
        let _ = w.apply(Command::Crash(victim));
        w.advance_to(t + 60_000);
        let _ = w.apply(Command::Start(victim));
        victim = victim % brokers + 1;
    }
}

fn main() {
    let repeat: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);

    for brokers in [3, 9] {
        let virtual_ms = 3_600_000;
        let name = format!("{brokers} brokers, one virtual hour, a crash every 5 min");
        let best = measure(&name, repeat, || {
            let mut w = World::new(&Setup::with_brokers(
                1,
                Settings::for_profile(Profile::V3_9),
                brokers,
            ));
            crash_in_turn(&mut w, 0, virtual_ms, brokers);
            w.events().len() as u64
        });
        let per_second = virtual_ms as f64 / 1000.0 / best.as_secs_f64();
        println!("{:<58} {per_second:>12.0} virtual s per real s", "");
    }

    for (brokers, partitions) in [(3, 3), (9, 12)] {
        let virtual_ms = 3_600_000;
        let name = format!(
            "{brokers} brokers, {partitions} partitions, 100 records/s each, one hour, a crash every 5 min"
        );
        let best = measure(&name, repeat.min(3), || {
            let ids: Vec<u32> = (1..=brokers).collect();
            let mut setup = Setup::with_brokers(1, Settings::for_profile(Profile::V3_9), brokers);
            setup.topics = vec![TopicSpec {
                name: "orders".into(),
                replicas: assign(&ids, partitions, 3, Start::Fixed(0), &mut Rng::new(1))
                    .expect("valid"),
                config: TopicConfig::default(),
            }];
            let mut w = World::new(&setup);
            w.advance_to(2_000);
            for p in 0..partitions {
                let _ = w.apply(Command::Produce {
                    topic: "orders".into(),
                    partition: p,
                    records: None,
                    acks: Acks::All,
                    rate_per_s: Some(100),
                    for_ms: None,
                });
            }
            crash_in_turn(&mut w, 2_000, virtual_ms, brokers);
            w.events().len() as u64
        });
        let per_second = virtual_ms as f64 / 1000.0 / best.as_secs_f64();
        println!("{:<58} {per_second:>12.0} virtual s per real s", "");
    }

    for file in [
        "cold-start",
        "controller-crash",
        "paused-controller",
        "controller-cut-from-zookeeper",
        "leader-crash",
        "auto-rebalance",
        "truncation-0.10",
        "zombie-controller-2.0",
        "group-first-join",
        "group-coordinator-failover",
    ] {
        let text =
            std::fs::read_to_string(format!("www/scenarios/{file}.json")).expect("scenario file");
        let s = scenario::parse(&text).expect("scenario parses");
        measure(&format!("scenario {file}"), repeat, || {
            let mut r = Runner::new(&s);
            r.advance_to(s.until_ms).expect("runs");
            r.world.events().len() as u64
        });
    }
}

//! The cost of a snapshot, measured (not asserted): how long cloning a world takes, and how
//! much memory a kept clone holds, after 5 and after 60 virtual minutes of a cluster with
//! traffic (3 brokers, 3 partitions with a produce stream of 100 records/s each, a consumer
//! group of two, a broker crashed and restarted every 5 minutes).
//!
//! `cargo bench --bench snapshot`. The memory figure is the growth of the process's resident
//! set while it keeps a number of clones (Linux `/proc/self/statm`), divided by that number: an
//! estimate, printed as `n/a` where the file does not exist.
// A benchmark, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::{
    Acks, Command, GroupSpec, Profile, Settings, Setup, TopicConfig, TopicSpec, World,
};
use std::time::Instant;

/// How many clones are kept to measure the memory one holds.
const KEPT: usize = 40;

/// How many copies of the event trace are kept to measure the memory one holds.
const KEPT_EVENTS: usize = 200;

/// The process's resident set in bytes, if the system says.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn busy_world() -> World {
    let mut setup = Setup::with_brokers(7, Settings::for_profile(Profile::V3_9), 3);
    setup.topics = vec![TopicSpec {
        name: "orders".into(),
        replicas: vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        config: TopicConfig::default(),
    }];
    setup.groups = vec![GroupSpec {
        id: "readers".into(),
        topics: vec!["orders".into()],
        assignor: "range".into(),
    }];
    let mut w = World::new(&setup);
    w.advance_to(3_000);
    for p in 0..3 {
        w.apply(Command::Produce {
            topic: "orders".into(),
            partition: p,
            records: None,
            acks: Acks::All,
            rate_per_s: Some(100),
            for_ms: None,
        })
        .expect("the stream starts");
    }
    for member in ["c1", "c2"] {
        w.apply(Command::Join {
            group: "readers".into(),
            member: member.into(),
        })
        .expect("the consumer joins");
    }
    w
}

/// Runs `w` to `until`, crashing a broker every 5 minutes and starting it a minute later.
fn run_to(w: &mut World, until: u64) {
    let mut t = w.now();
    while t < until {
        let next = (t / 300_000 + 1) * 300_000;
        if next > until {
            break;
        }
        w.advance_to(next);
        let victim = (next / 300_000 % 3) as u32 + 1;
        let _ = w.apply(Command::Crash(victim));
        w.advance_to(next + 60_000);
        let _ = w.apply(Command::Start(victim));
        t = next + 60_000;
    }
    w.advance_to(until);
}

fn main() {
    let mut w = busy_world();
    for minutes in [5u64, 60] {
        run_to(&mut w, minutes * 60_000);
        // The event trace alone: what a snapshot of it costs (`to_owned` clones what
        // `World::events` lends).
        let mut best_events = f64::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..20 {
                std::hint::black_box(w.events().to_owned());
            }
            best_events = best_events.min(start.elapsed().as_secs_f64() / 20.0);
        }
        let before = resident_bytes();
        let kept: Vec<_> = (0..KEPT_EVENTS).map(|_| w.events().to_owned()).collect();
        let after = resident_bytes();
        let events_per_clone = match (before, after) {
            (Some(b), Some(a)) => format!("{:>9} bytes", a.saturating_sub(b) / KEPT_EVENTS as u64),
            _ => "n/a".to_string(),
        };
        drop(kept);
        // Time: the best of 5 rounds of 20 clones, each dropped at once.
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..20 {
                std::hint::black_box(w.clone());
            }
            best = best.min(start.elapsed().as_secs_f64() / 20.0);
        }
        // Memory: keep KEPT clones and see the resident set grow.
        let before = resident_bytes();
        let kept: Vec<World> = (0..KEPT).map(|_| w.clone()).collect();
        let after = resident_bytes();
        let per_clone = match (before, after) {
            (Some(b), Some(a)) => format!("{:>9} bytes", a.saturating_sub(b) / KEPT as u64),
            _ => "n/a".to_string(),
        };
        drop(kept);
        println!(
            "{minutes:>2} virtual min, {:>7} events: world clone {:>9.1} µs, {per_clone} kept per clone; \
             events alone {:>7.1} µs, {events_per_clone} kept per copy ({} bytes an event inline)",
            w.events().len(),
            best * 1e6,
            best_events * 1e6,
            std::mem::size_of::<kafka_election_playground::Event>(),
        );
    }
}

//! The soak: a day of virtual time on 9 brokers with steady traffic (a produce stream to each
//! of 12 partitions, a group of 6 consumers) and a random fault every few minutes, natively,
//! with the core's heap measured.
//!
//! The heap is measured by counting every allocation of the process (`stats_alloc` as the
//! global allocator): the process holds nothing but the world, so its live bytes are the
//! core's memory, every structure included (the queue of timers, the replica logs, the
//! ledger of records, the event trace), where summing the sizes of chosen structures would
//! miss whatever was not chosen. The run fails (exit 1) when the heap at 24 h is more than 1.5
//! times the heap at 1 h, or when an invariant breaks.
//!
//! What would grow with the run is bounded: the world keeps the newest [`EVENT_WINDOW`] events
//! of its trace ([`World::keep_events`]), and a log's producer-batch marks are runs, one per
//! run of batches rather than one per batch. The table shows both: the events written and
//! kept, and the marks of every replica's log.
//!
//! `cargo bench --bench soak` runs the day; `cargo bench --bench soak -- HOURS` runs fewer
//! hours (the bound is then checked at the last hour against the first).
// A benchmark, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::{
    Acks, Command, Endpoint, GroupSpec, Profile, Rng, Settings, Setup, TopicConfig, TopicSpec,
    World,
};
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::time::Instant;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const HOUR_MS: u64 = 3_600_000;
const BROKERS: u32 = 9;
const PARTITIONS: u32 = 12;
const CONSUMERS: u32 = 6;
/// The newest events the trace keeps (a few virtual hours of this run).
const EVENT_WINDOW: usize = 4_096;

/// The bytes the process holds now.
fn live_bytes() -> u64 {
    let s = GLOBAL.stats();
    // A reallocation's growth or shrinkage is already in these two.
    s.bytes_allocated.saturating_sub(s.bytes_deallocated) as u64
}

fn setup() -> Setup {
    let mut setup = Setup::with_brokers(2026, Settings::for_profile(Profile::V3_9), BROKERS);
    setup.topics = vec![TopicSpec {
        name: "orders".into(),
        // Kafka's rack-unaware placement with a fixed start: broker p+1 leads partition p.
        replicas: (0..PARTITIONS)
            .map(|p| (0..3).map(|r| (p + r) % BROKERS + 1).collect())
            .collect(),
        config: TopicConfig::default(),
    }];
    setup.groups = vec![GroupSpec {
        id: "soak".into(),
        topics: vec!["orders".into()],
        assignor: "range".into(),
    }];
    setup
}

/// A stream to every partition, for the whole run (re-issued each hour: a stream asks for
/// how long it runs).
fn streams(w: &mut World) {
    for p in 0..PARTITIONS {
        let _ = w.apply(Command::Produce {
            topic: "orders".into(),
            partition: p,
            records: None,
            acks: [Acks::One, Acks::All][p as usize % 2],
            rate_per_s: Some(20),
            for_ms: Some(HOUR_MS),
        });
    }
}

/// A fault and, a while later, its repair (on the same broker, or the same consumer).
fn fault(rng: &mut Rng) -> (Command, Option<Command>, u64) {
    let b = 1 + rng.up_to(u64::from(BROKERS) - 1) as u32;
    let other = 1 + (b % BROKERS);
    let member = format!("c{}", 1 + rng.up_to(u64::from(CONSUMERS) - 1));
    let group = "soak".to_string();
    let heal_after = 20_000 + rng.up_to(100_000);
    match rng.up_to(8) {
        0 | 1 => (Command::Crash(b), Some(Command::Start(b)), heal_after),
        2 => (Command::Shutdown(b), Some(Command::Start(b)), heal_after),
        3 => (
            Command::Pause {
                broker: b,
                for_ms: 1 + rng.up_to(30_000),
            },
            None,
            0,
        ),
        4 => (Command::ExpireSession(b), None, 0),
        5 => {
            let peer = if rng.up_to(1) == 0 {
                Endpoint::Zk
            } else {
                Endpoint::Broker(other)
            };
            (
                Command::Cut(Endpoint::Broker(b), peer),
                Some(Command::Heal(Endpoint::Broker(b), peer)),
                heal_after,
            )
        }
        6 => (
            Command::StallFetcher {
                broker: b,
                topic: None,
                partition: None,
            },
            Some(Command::ResumeFetcher {
                broker: b,
                topic: None,
                partition: None,
            }),
            heal_after,
        ),
        7 => (
            Command::CrashConsumer {
                group: group.clone(),
                member: member.clone(),
            },
            Some(Command::Join { group, member }),
            heal_after,
        ),
        _ => (Command::DeleteController, None, 0),
    }
}

fn main() {
    let hours: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(24);
    let started = Instant::now();
    let mut w = World::new(&setup());
    w.keep_events(Some(EVENT_WINDOW));
    let mut rng = Rng::new(7);
    for c in 1..=CONSUMERS {
        let _ = w.apply(Command::Join {
            group: "soak".into(),
            member: format!("c{c}"),
        });
    }
    let mut t = 0;
    let mut at_hour: Vec<(u64, u64)> = Vec::new();
    let mut repairs: Vec<(u64, Command)> = Vec::new();
    let mut faults = 0;
    println!("hour   heap (KiB)   events (kept)    batch marks   wall (s)");
    for hour in 1..=hours {
        streams(&mut w);
        let end = hour * HOUR_MS;
        while t < end {
            // A fault every 1 to 5 minutes; its repair when it falls due.
            t = (t + 60_000 + rng.up_to(240_000)).min(end);
            repairs.sort_by_key(|(at, _)| *at);
            while let Some(pos) = repairs.iter().position(|(at, _)| *at <= t) {
                let (at, repair) = repairs.remove(pos);
                w.advance_to(at);
                let _ = w.apply(repair);
            }
            w.advance_to(t);
            if t < end {
                let (f, repair, after) = fault(&mut rng);
                if w.apply(f).is_ok() {
                    faults += 1;
                    if let Some(r) = repair {
                        repairs.push((t + after, r));
                    }
                }
            }
        }
        let heap = live_bytes();
        let wall = started.elapsed().as_secs_f64();
        // The producer batches every replica's log remembers (see the module doc).
        let marks: usize = w
            .broker_ids()
            .iter()
            .filter_map(|b| w.broker(*b))
            .flat_map(|b| b.replicas.values())
            .map(|r| r.log.batch_count())
            .sum();
        let events = w.events();
        println!(
            "{hour:>4}   {:>10}   {:>6} ({:>5})   {marks:>11}   {wall:>8.1}",
            heap / 1024,
            events.len(),
            events.len() - events.first_index()
        );
        at_hour.push((hour, heap));
    }
    let s = w.state();
    println!(
        "{faults} faults; {} violations; wall {:.1} s",
        s.violations.len(),
        started.elapsed().as_secs_f64()
    );
    let first = at_hour.first().map_or(0, |h| h.1);
    let last = at_hour.last().map_or(0, |h| h.1);
    let ratio = last as f64 / first.max(1) as f64;
    println!(
        "heap at {} h / heap at 1 h: {ratio:.2} (bound 1.5)",
        at_hour.len()
    );
    if !s.violations.is_empty() {
        eprintln!("invariants broke: {:?}", s.violations);
        std::process::exit(1);
    }
    if ratio > 1.5 {
        eprintln!("the heap grew more than 1.5 times");
        std::process::exit(1);
    }
}

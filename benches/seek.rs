//! Seeking on the timeline, measured (not asserted): a one-hour session of free play with 9
//! brokers, 12 partitions and 6 consumers, steady streams to 4 partitions and a broker
//! crashed and restarted every 5 minutes; then the time to show 200 points of that hour
//! spread at random (median and worst), the snapshots kept, and the process's resident memory
//! after 5 minutes and after the hour (Linux `/proc/self/statm`; `n/a` elsewhere).
//!
//! `cargo bench --bench seek`.
// A benchmark, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::session::{Session, SNAPSHOT_EVERY_MS};
use kafka_election_playground::{Acks, Command, Rng};
use std::time::Instant;

mod common;

const HOUR_MS: u64 = 3_600_000;
const POINTS: usize = 200;

fn resident_mb() -> String {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or("n/a".into(), |pages| {
            format!("{:.1} MB", (pages * 4096) as f64 / 1e6)
        })
}

/// Runs the session to `until`, crashing a broker every 5 minutes and starting it a minute
/// later, as a learner would.
fn run_to(s: &mut Session, until: u64) {
    let mut t = s.now_ms();
    while t < until {
        let next = (t / 300_000 + 1) * 300_000;
        if next > until {
            break;
        }
        s.seek(next);
        let victim = (next / 300_000 % 9) as u32 + 1;
        let _ = s.apply(Command::Crash(victim));
        s.seek(next + 60_000);
        let _ = s.apply(Command::Start(victim));
        t = next + 60_000;
    }
    s.seek(until);
}

fn main() {
    let start = common::busy_free_play();
    let before = resident_mb();
    let mut s = Session::new(start);
    s.seek(8_000);
    for p in [1, 4, 7, 10] {
        s.apply(Command::Produce {
            topic: "orders".into(),
            partition: p,
            records: None,
            acks: Acks::All,
            rate_per_s: Some(10),
            for_ms: None,
        })
        .expect("the stream starts");
    }
    let began = Instant::now();
    run_to(&mut s, 300_000);
    let at_5 = resident_mb();
    run_to(&mut s, HOUR_MS);
    let ran = began.elapsed();
    let at_60 = resident_mb();
    let mut rng = Rng::new(2026);
    let mut times: Vec<f64> = (0..POINTS)
        .map(|_| {
            let t = rng.next_u64() % (HOUR_MS + 1);
            let began = Instant::now();
            s.seek(t);
            began.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "one hour (9 brokers, 12 partitions, 6 consumers, 4 streams of 10 records/s): run in {:.1} s, {} events, {} snapshots (every {} s at the end)",
        ran.as_secs_f64(),
        s.world().events().len(),
        s.snapshot_count(),
        SNAPSHOT_EVERY_MS / 1000
    );
    println!(
        "seek to {POINTS} random points: median {:.1} ms, 90th percentile {:.1} ms, worst {:.1} ms",
        times[POINTS / 2],
        times[POINTS * 9 / 10],
        times[POINTS - 1]
    );
    println!("resident memory: at start {before}, after 5 min {at_5}, after 60 min {at_60}");
}

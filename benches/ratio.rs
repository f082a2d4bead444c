//! The core's speed natively, for the wasm/native ratio (`www/scripts/bench-ratio.mjs` runs the
//! same work in the page, through its JavaScript API, and divides): a fresh free-play session
//! with 9 brokers, 12 partitions and 6 consumers, seeked from t = 0 to ten virtual minutes.
//! Prints the median of `RUNS` runs (default 5) in milliseconds on its last line, and the
//! number of events, so the two sides can be checked to have done the same work.
//!
//! `cargo bench --bench ratio`.
// A benchmark, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::session::Session;
use std::time::Instant;

mod common;

/// How far the session is taken, in virtual milliseconds (the same in the page's run).
const UNTIL_MS: u64 = 600_000;

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(5);
    let mut times = Vec::with_capacity(runs);
    let mut events = 0;
    for _ in 0..runs {
        let start = common::busy_free_play();
        let began = Instant::now();
        let mut s = Session::new(start);
        s.seek(UNTIL_MS);
        times.push(began.elapsed().as_secs_f64() * 1e3);
        events = s.world().events().len();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "native: 9 brokers, 12 partitions, 6 consumers, t = 0 to {} s: {events} events",
        UNTIL_MS / 1000
    );
    println!("native median ms: {:.1}", times[runs / 2]);
}

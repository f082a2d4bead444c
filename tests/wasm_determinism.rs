//! The core gives the same trace in wasm as natively: the golden traces (made by the native
//! build) are replayed by the wasm build and compared line by line.
//!
//! Runs with `cargo test --target wasm32-unknown-unknown --test wasm_determinism` and
//! `wasm-bindgen-test-runner` as the wasm32 runner (www/scripts/test.sh sets it up).
#![cfg(target_arch = "wasm32")]
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::scenario::{self, Runner};
use wasm_bindgen_test::wasm_bindgen_test;

fn trace(scenario_json: &str) -> String {
    let s = scenario::parse(scenario_json).expect("the scenario parses");
    let mut r = Runner::new(&s);
    r.advance_to(s.until_ms).expect("the scenario runs");
    r.world.events().iter().map(|e| e.line() + "\n").collect()
}

#[wasm_bindgen_test]
fn paused_controller_matches_the_native_golden_trace() {
    assert_eq!(
        trace(include_str!("../www/scenarios/paused-controller.json")),
        include_str!("golden/paused-controller.txt")
    );
}

#[wasm_bindgen_test]
fn controller_crash_matches_the_native_golden_trace() {
    assert_eq!(
        trace(include_str!("../www/scenarios/controller-crash.json")),
        include_str!("golden/controller-crash.txt")
    );
}

#[wasm_bindgen_test]
fn controller_cut_matches_the_native_golden_trace() {
    assert_eq!(
        trace(include_str!(
            "../www/scenarios/controller-cut-from-zookeeper.json"
        )),
        include_str!("golden/controller-cut-from-zookeeper.txt")
    );
}

#[wasm_bindgen_test]
fn partition_stories_match_the_native_golden_traces() {
    assert_eq!(
        trace(include_str!("../www/scenarios/leader-crash.json")),
        include_str!("golden/leader-crash.txt")
    );
    assert_eq!(
        trace(include_str!("../www/scenarios/truncation-0.10.json")),
        include_str!("golden/truncation-0.10.txt")
    );
    assert_eq!(
        trace(include_str!("../www/scenarios/zombie-controller-2.0.json")),
        include_str!("golden/zombie-controller-2.0.txt")
    );
    assert_eq!(
        trace(include_str!("../www/scenarios/zombie-controller-0.10.json")),
        include_str!("golden/zombie-controller-0.10.txt")
    );
    assert_eq!(
        trace(include_str!("../www/scenarios/reassignment.json")),
        include_str!("golden/reassignment.txt")
    );
    assert_eq!(
        trace(include_str!("../www/scenarios/idle-follower-2.0.json")),
        include_str!("golden/idle-follower-2.0.txt")
    );
}

#[wasm_bindgen_test]
fn group_stories_match_the_native_golden_traces() {
    assert_eq!(
        trace(include_str!("../www/scenarios/group-leader-leaves.json")),
        include_str!("golden/group-leader-leaves.txt")
    );
    assert_eq!(
        trace(include_str!(
            "../www/scenarios/group-coordinator-failover.json"
        )),
        include_str!("golden/group-coordinator-failover.txt")
    );
}

#[wasm_bindgen_test]
fn scenario_checkpoints_pass_in_wasm() {
    for text in [
        include_str!("../www/scenarios/cold-start.json"),
        include_str!("../www/scenarios/clean-shutdown.json"),
        include_str!("../www/scenarios/controller-crash-2.4.json"),
        include_str!("../www/scenarios/unclean-election.json"),
        include_str!("../www/scenarios/min-insync-replicas.json"),
    ] {
        let s = scenario::parse(text).unwrap();
        for r in s.check().unwrap() {
            assert!(r.differences.is_empty(), "{:?}", r.differences);
        }
    }
}

#[wasm_bindgen_test]
fn lessons_resolve_to_the_native_answers() {
    use kafka_election_playground::lesson;
    for (text, golden) in [
        (
            include_str!("../www/lessons/first-controller.json"),
            include_str!("golden/lessons/first-controller.txt"),
        ),
        (
            include_str!("../www/lessons/isr-leader-election.json"),
            include_str!("golden/lessons/isr-leader-election.txt"),
        ),
        (
            include_str!("../www/lessons/controller-session-timeout.json"),
            include_str!("golden/lessons/controller-session-timeout.txt"),
        ),
        (
            include_str!("../www/lessons/zombie-controller.json"),
            include_str!("golden/lessons/zombie-controller.txt"),
        ),
        (
            include_str!("../www/lessons/lagging-follower.json"),
            include_str!("golden/lessons/lagging-follower.txt"),
        ),
        (
            include_str!("../www/lessons/unclean-election.json"),
            include_str!("golden/lessons/unclean-election.txt"),
        ),
        (
            include_str!("../www/lessons/preferred-replica.json"),
            include_str!("golden/lessons/preferred-replica.txt"),
        ),
        (
            include_str!("../www/lessons/controlled-shutdown.json"),
            include_str!("golden/lessons/controlled-shutdown.txt"),
        ),
        (
            include_str!("../www/lessons/group-coordinator.json"),
            include_str!("golden/lessons/group-coordinator.txt"),
        ),
        (
            include_str!("../www/lessons/truncation-hw.json"),
            include_str!("golden/lessons/truncation-hw.txt"),
        ),
        (
            include_str!("../www/lessons/truncation-leader-epoch.json"),
            include_str!("golden/lessons/truncation-leader-epoch.txt"),
        ),
        (
            include_str!("../www/lessons/group-leader-leaves.json"),
            include_str!("golden/lessons/group-leader-leaves.txt"),
        ),
        (
            include_str!("../www/lessons/coordinator-failover.json"),
            include_str!("golden/lessons/coordinator-failover.txt"),
        ),
    ] {
        let (l, r) = lesson::load(text).expect("the lesson loads");
        assert_eq!(lesson::report(&l, &r), golden);
    }
}

/// The layout's own sine and cosine (`view::trig`) are the WebAssembly build's maths library's,
/// bit for bit, so that the first frame drawn natively is the one the page draws.
#[wasm_bindgen_test]
fn the_layouts_sine_and_cosine_are_the_maths_librarys() {
    use kafka_election_playground::view::trig::{cos, sin};
    let steps = 200_000;
    let pi = std::f64::consts::PI;
    let mut xs: Vec<f64> = (0..=steps)
        .map(|i| -8.0 * pi + 16.0 * pi * i as f64 / steps as f64)
        .collect();
    for k in -8..=8 {
        for d in [0.0, 1e-12, -1e-12] {
            xs.push(k as f64 * pi / 2.0 + d);
        }
    }
    xs.extend([0.0, -0.0, 1e-300, 2f64.powi(-27), 1e10]);
    for x in xs {
        assert_eq!(sin(x).to_bits(), x.sin().to_bits(), "sin({x:e})");
        assert_eq!(cos(x).to_bits(), x.cos().to_bits(), "cos({x:e})");
    }
}

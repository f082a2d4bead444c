//! Golden traces: the readable event lines of the classic stories, committed under
//! tests/golden and compared line by line. After a deliberate change of the model, rewrite
//! them with `UPDATE_GOLDEN=1 cargo test --test golden` and review the diff.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::scenario::{self, Runner};
use std::path::Path;

fn trace(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(format!("www/scenarios/{name}.json"))).unwrap();
    let s = scenario::parse(&text).unwrap();
    let mut r = Runner::new(&s);
    r.advance_to(s.until_ms).unwrap();
    let mut out = String::new();
    for e in r.world.events() {
        out.push_str(&e.line());
        out.push('\n');
    }
    out
}

fn golden(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{name}.txt"));
    let actual = trace(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing: run UPDATE_GOLDEN=1 cargo test --test golden",
            path.display()
        )
    });
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name}: the trace differs from {} at line {}:\n  golden: {}\n  actual: {}\n(rewrite with UPDATE_GOLDEN=1 after a deliberate change)",
            path.display(),
            first + 1,
            expected.lines().nth(first).unwrap_or("<end>"),
            actual.lines().nth(first).unwrap_or("<end>"),
        );
    }
}

#[test]
fn controller_crash() {
    golden("controller-crash");
}

#[test]
fn clean_shutdown() {
    golden("clean-shutdown");
}

#[test]
fn paused_controller() {
    golden("paused-controller");
}

#[test]
fn controller_cut_from_zookeeper() {
    golden("controller-cut-from-zookeeper");
}

#[test]
fn leader_crash() {
    golden("leader-crash");
}

#[test]
fn lagging_follower() {
    golden("lagging-follower");
}

#[test]
fn unclean_enabled_while_offline() {
    golden("unclean-enabled-while-offline");
}

#[test]
fn controlled_shutdown() {
    golden("controlled-shutdown");
}

#[test]
fn truncation_0_10() {
    golden("truncation-0.10");
}

#[test]
fn zombie_controller_0_10() {
    golden("zombie-controller-0.10");
}

#[test]
fn zombie_controller_2_0() {
    golden("zombie-controller-2.0");
}

#[test]
fn reassignment() {
    golden("reassignment");
}

#[test]
fn idle_follower_2_0() {
    golden("idle-follower-2.0");
}

#[test]
fn group_leader_leaves() {
    golden("group-leader-leaves");
}

#[test]
fn group_coordinator_failover() {
    golden("group-coordinator-failover");
}

#[test]
fn the_trace_is_the_same_on_every_run() {
    assert_eq!(trace("paused-controller"), trace("paused-controller"));
    assert_eq!(trace("leader-crash"), trace("leader-crash"));
}

//! Running: an action that cannot apply stops the run with its place; the page skips it.

use super::{parse, Runner};
use crate::sim::Command;

#[test]
fn an_action_that_cannot_apply_stops_the_run_with_its_place() {
    let s = parse(
        r#"{"version": 1, "brokers": [1, 2], "actions": [
        {"at_ms": 1000, "do": "crash", "broker": 2},
        {"at_ms": 2000, "do": "crash", "broker": 2}]}"#,
    )
    .unwrap();
    let e = Runner::new(&s).advance_to(5000).unwrap_err().to_string();
    assert!(
        e.starts_with("actions[1] (at 2000 ms): broker 2 is not running"),
        "{e}"
    );
}

#[test]
fn the_page_skips_a_story_step_that_no_longer_applies() {
    let s = parse(
        r#"{"version": 1, "brokers": [1, 2], "actions": [
        {"at_ms": 1000, "do": "crash", "broker": 2},
        {"at_ms": 2000, "do": "start", "broker": 2}]}"#,
    )
    .unwrap();
    let mut r = Runner::new(&s);
    r.advance_to(500).unwrap();
    assert_eq!(r.upcoming().len(), 2);
    r.world.apply(Command::Crash(2)).unwrap();
    let skipped = r.advance_to_skipping(1500);
    assert_eq!(skipped.len(), 1);
    assert!(
        skipped[0].contains("crash broker 2") && skipped[0].contains("not running"),
        "{skipped:?}"
    );
    assert_eq!(r.upcoming(), &[(2000, Command::Start(2))]);
    assert!(r.advance_to_skipping(2500).is_empty());
    assert!(r.upcoming().is_empty());
}

//! [`World::next_event_time`]: the next time the trace grows, found on a clone.

use crate::sim::{Command, Profile, Settings, Setup, World};

const TEN_MINUTES_MS: u64 = 600_000;

/// A cluster of `n` brokers, up and quiet at 6 s (past the controller's first leader
/// imbalance check, at about 5 s), with or without `auto.leader.rebalance.enable`.
fn settled(n: u32, auto_rebalance: bool) -> World {
    let mut settings = Settings::for_profile(Profile::V3_9);
    settings.auto_leader_rebalance_enable = auto_rebalance;
    let mut w = World::new(&Setup::with_brokers(7, settings, n));
    w.advance_to(6_000);
    w
}

#[test]
fn after_a_crash_the_next_event_is_the_session_expiry() {
    let mut w = settled(3, false);
    w.apply(Command::Crash(2)).unwrap();
    let deadline = w
        .zookeeper()
        .live_session_of(2)
        .map(|(_, s)| s.deadline_ms())
        .unwrap();
    let before = (w.now(), w.events().len());
    assert_eq!(w.next_event_time(TEN_MINUTES_MS), Some(deadline));
    // The world itself did not move.
    assert_eq!((w.now(), w.events().len()), before);
    // Running it there records the expiry at that time, and nothing before.
    w.advance_to(deadline - 1);
    assert_eq!(w.events().len(), before.1);
    w.advance_to(deadline);
    let first_new = w.events().get(before.1).unwrap();
    assert_eq!(first_new.time_ms, deadline);
    assert_eq!(first_new.kind.name(), "session_expired");
}

#[test]
fn a_quiet_cluster_has_no_next_event() {
    let w = settled(3, false);
    assert_eq!(w.next_event_time(TEN_MINUTES_MS), None);
}

#[test]
fn the_controllers_periodic_check_is_an_event() {
    // Heartbeats and pings record nothing; the leader imbalance check, every
    // leader.imbalance.check.interval.seconds (300 s), does.
    let w = settled(3, true);
    let last_check = w
        .events()
        .iter()
        .filter(|e| e.kind.name() == "leader_imbalance_checked")
        .map(|e| e.time_ms)
        .next_back()
        .unwrap();
    assert_eq!(
        w.next_event_time(TEN_MINUTES_MS),
        Some(last_check + 300_000)
    );
}

#[test]
fn the_horizon_caps_the_search() {
    let mut w = settled(3, false);
    w.apply(Command::Crash(2)).unwrap();
    let expiry = w.next_event_time(TEN_MINUTES_MS).unwrap();
    assert_eq!(w.next_event_time(expiry - w.now() - 1), None);
    assert_eq!(w.next_event_time(expiry - w.now()), Some(expiry));
}

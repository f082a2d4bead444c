//! The waits' wording, from states of the default cluster.

use super::format::consumer_list;
use super::frame::default_world;
use super::waits::*;
use crate::i18n::Tr;
use crate::sim::{Acks, Command, World};

fn join(w: &mut World, member: &str) {
    w.apply(Command::Join {
        group: "my-group".into(),
        member: member.into(),
    })
    .unwrap();
}

#[test]
fn nothing_within_names_the_horizon() {
    assert_eq!(
        nothing_within(JUMP_HORIZON_MS, &Tr::en()),
        "Next event: nothing happens in the next 10 min of virtual time"
    );
    assert_eq!(
        nothing_within(1_500, &Tr::en()),
        "Next event: nothing happens in the next 1.5 s of virtual time"
    );
}

/// The default cluster with c1 and c2 in my-group, stable at 12 s.
fn with_group() -> World {
    let mut w = default_world();
    w.advance_to(3_000);
    join(&mut w, "c1");
    join(&mut w, "c2");
    w.advance_to(12_000);
    w
}

#[test]
fn the_initial_rebalance_delay_names_its_setting() {
    let mut w = default_world();
    w.advance_to(3_000);
    join(&mut w, "c1");
    w.advance_to(3_500);
    let s = w.state();
    let wait = rebalance_wait(&s.groups["my-group"], &Tr::en()).unwrap();
    assert_eq!(
        wait.sentence(&Tr::en()),
        "the join completes with the members present in 2.6 s (group.initial.rebalance.delay.ms)"
    );
    // Stable: no rebalance, no wait.
    let s = with_group().state();
    assert_eq!(rebalance_wait(&s.groups["my-group"], &Tr::en()), None);
}

#[test]
fn a_crashed_consumer_waits_for_its_session_timeout() {
    let mut w = with_group();
    w.apply(Command::CrashConsumer {
        group: "my-group".into(),
        member: "c2".into(),
    })
    .unwrap();
    w.advance_to(13_000);
    let s = w.state();
    let waits: Vec<_> = consumer_list(&s)
        .iter()
        .map(|c| {
            consumer_wait(c, &Tr::en()).map(|w| (w.sentence(&Tr::en()), w.in_words(&Tr::en())))
        })
        .collect();
    assert_eq!(
        waits,
        [
            None,
            Some((
                "removed from my-group in 41.1 s (session.timeout.ms)".to_string(),
                "in 41.1 s".to_string()
            ))
        ]
    );
    // Once the coordinator removed it, nothing is awaited.
    w.advance_to(60_000);
    let s = w.state();
    assert!(consumer_list(&s)
        .iter()
        .all(|c| consumer_wait(c, &Tr::en()).is_none()));
}

#[test]
fn a_stalled_follower_counts_down_to_leaving_the_isr_and_holds_acks_all() {
    let mut w = with_group();
    w.apply(Command::Produce {
        topic: "orders".into(),
        partition: 1,
        records: None,
        acks: Acks::All,
        rate_per_s: Some(10),
        for_ms: None,
    })
    .unwrap();
    w.advance_to(14_000);
    let s = w.state();
    assert!(s
        .partitions
        .iter()
        .all(|(k, p)| isr_waits(k, p, &Tr::en()).is_empty()));
    assert_eq!(produce_wait(&s, "orders-1", &Tr::en()), None);
    // orders-1 is led by broker 2, with followers 3 and 1.
    assert_eq!(s.partitions["orders-1"].leader, 2);
    w.apply(Command::StallFetcher {
        broker: 3,
        topic: None,
        partition: None,
    })
    .unwrap();
    w.advance_to(20_000);
    let s = w.state();
    let waits: Vec<(String, u32, String)> = s
        .partitions
        .iter()
        .flat_map(|(k, p)| {
            isr_waits(k, p, &Tr::en())
                .into_iter()
                .map(move |(b, w)| (k.clone(), b, w.sentence(&Tr::en())))
        })
        .collect();
    assert_eq!(
        waits,
        [(
            "orders-1".to_string(),
            3,
            "broker 3 leaves the ISR of orders-1 in 24.0 s (replica.lag.time.max.ms)".to_string()
        )]
    );
    assert_eq!(
        broker_isr_lines(&s, 3, &Tr::en()),
        [
            ("leaves ISR of orders-1".to_string(), "countdown isr-wait"),
            ("in 24.0 s".to_string(), "countdown strong isr-wait")
        ]
    );
    assert!(broker_isr_lines(&s, 1, &Tr::en()).is_empty());
    assert_eq!(
        produce_wait(&s, "orders-1", &Tr::en()).as_deref(),
        Some("acks=all: 5 records wait for the ISR to reach offset 25: the leader waits for broker 3 · request.timeout.ms gives up in 24.0 s")
    );
    // Out of the ISR: nothing waits for it any more.
    w.advance_to(50_000);
    let s = w.state();
    assert!(s
        .partitions
        .iter()
        .all(|(k, p)| isr_waits(k, p, &Tr::en()).is_empty()));
    assert_eq!(produce_wait(&s, "orders-1", &Tr::en()), None);
}

#[test]
fn a_sync_group_waits_for_the_groups_record_on_the_isr() {
    let mut w = default_world();
    w.advance_to(3_000);
    let s = w.state();
    let g = &s.groups["my-group"];
    let key = format!("__consumer_offsets-{}", g.coordinator_partition);
    let p = &s.partitions[&key];
    let leader = p.leader as u32;
    let follower = p.replicas.iter().copied().find(|b| *b != leader).unwrap();
    // The follower stops fetching: the group's record cannot be committed until the leader
    // drops it from the ISR.
    w.apply(Command::StallFetcher {
        broker: follower,
        topic: None,
        partition: None,
    })
    .unwrap();
    join(&mut w, "c1");
    w.advance_to(7_000);
    let s = w.state();
    let g = &s.groups["my-group"];
    let wait = g.sync_wait.as_ref().unwrap();
    assert_eq!(wait.awaiting, [follower]);
    assert_eq!(
        sync_wait(g, &Tr::en()).as_deref(),
        Some(format!(
            "SyncGroup answers wait for the group's record to be committed to {key} (high watermark {}, needs {}): broker {follower} has not fetched it yet (offsets.commit.required.acks = -1, all the ISR)",
            wait.high_watermark, wait.record_end
        ).as_str())
    );
    assert!(wait.high_watermark < wait.record_end);
    // The JSON state shows it while it waits.
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(
        json["groups"]["my-group"]["sync_wait"]["awaiting"],
        serde_json::json!([follower])
    );
    // Once the follower leaves the ISR the record is committed and the group is stable.
    w.advance_to(60_000);
    let s = w.state();
    let g = &s.groups["my-group"];
    assert_eq!(g.sync_wait, None);
    assert_eq!(sync_wait(g, &Tr::en()), None);
    let json = serde_json::to_value(&s).unwrap();
    assert!(json["groups"]["my-group"].get("sync_wait").is_none());
}

#[test]
fn a_waiting_question_sees_no_countdown_but_what_happened() {
    let mut world = crate::view::frame::default_world();
    world.advance_to(3_000);
    let c = world.state().controller.expect("a controller by 3 s");
    world.apply(crate::sim::Command::Crash(c)).expect("crash");
    world.advance_to(4_000);
    let mut state = world.state();
    assert!(state.brokers[&c].session_countdown_ms.is_some());
    assert!(state
        .partitions
        .values()
        .any(|p| p.isr_check_in_ms.is_some()));
    super::waits::without_forecasts(&mut state);
    let b = &state.brokers[&c];
    assert_eq!(
        (b.session_countdown_ms, b.session_expires_in_ms),
        (None, None)
    );
    assert!(state
        .partitions
        .values()
        .all(|p| p.isr_check_in_ms.is_none() && p.isr_expiry_in_ms.is_empty()));
    // The crash itself, and who /controller names, are still there.
    assert_eq!(b.state, crate::sim::BrokerState::Crashed);
    assert_eq!(state.controller, Some(c));
}

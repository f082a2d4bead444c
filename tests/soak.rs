//! The soak's short version (the day itself is `cargo bench --bench soak`): what would grow with
//! a long run stays bounded, and bounding it changes nothing the run does.
//!
//! A cluster of 3 brokers streams to 3 partitions for 20 virtual minutes with a broker crashed
//! and started again every 2 minutes, once keeping every event and once keeping only the
//! newest 16 ([`World::keep_events`]; the trace drops a chunk of 256 at a time).
#![cfg(not(target_arch = "wasm32"))]
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::{
    Acks, Command, Profile, Settings, Setup, TopicConfig, TopicSpec, World,
};

fn run(window: Option<usize>) -> World {
    let mut setup = Setup::with_brokers(5, Settings::for_profile(Profile::V3_9), 3);
    setup.topics = vec![TopicSpec {
        name: "t".into(),
        replicas: vec![vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        config: TopicConfig::default(),
    }];
    let mut w = World::new(&setup);
    w.keep_events(window);
    w.advance_to(1_000);
    for p in 0..3 {
        w.apply(Command::Produce {
            topic: "t".into(),
            partition: p,
            records: None,
            acks: [Acks::One, Acks::All, Acks::All][p as usize],
            rate_per_s: Some(50),
            for_ms: Some(1_200_000),
        })
        .expect("a stream starts");
    }
    for k in 1..=10u64 {
        let broker = (k % 3) as u32 + 1;
        w.advance_to(k * 120_000);
        w.apply(Command::Crash(broker))
            .expect("a running broker crashes");
        w.advance_to(k * 120_000 + 30_000);
        w.apply(Command::Start(broker))
            .expect("a crashed broker starts");
    }
    w.advance_to(1_260_000);
    w
}

#[test]
fn a_long_run_keeps_few_batch_marks_and_a_bounded_trace_with_its_indices_and_runs_the_same() {
    let full = run(None);
    let bounded = run(Some(16));
    let (all, kept) = (full.events(), bounded.events());
    assert_eq!(all.first_index(), 0);
    assert_eq!(kept.len(), all.len(), "every event is counted");
    assert!(
        kept.first_index() > 0,
        "{} events: nothing was dropped",
        all.len()
    );
    let held = kept.len() - kept.first_index();
    assert!((16..=16 + 256).contains(&held), "{held} events kept");
    assert_eq!(kept.get(kept.first_index() - 1), None);
    for (i, e) in kept.indexed() {
        assert_eq!(Some(e), all.get(i), "event {i}");
    }
    assert_eq!(bounded.state(), full.state());
    assert!(bounded.state().violations.is_empty());

    // The logs' producer-batch marks: a steady stream keeps a few runs per log, not a mark per
    // batch.
    let acked: u64 = bounded
        .state()
        .partitions
        .values()
        .map(|p| p.acked_records)
        .sum();
    assert!(acked > 100_000, "{acked} records acknowledged");
    for id in bounded.broker_ids() {
        for (tp, replica) in &bounded.broker(id).unwrap().replicas {
            let marks = replica.log.batch_count();
            // A run is cut only by a leader change, a retry or a truncation.
            assert!(marks <= 60, "broker {id}, {tp}: {marks} marks");
        }
    }
}

//! What one animation frame of the page costs the core, measured natively (not asserted): the
//! page at 50x moves the world about 833 virtual ms per 16.7 ms frame and then builds the
//! views. The cluster is the page's heavy case: 9 brokers, a topic of 12 partitions with a
//! produce stream of 100 records/s (acks=all) on each, and a group of 6 consumers.
//!
//! `cargo bench --bench frame`: prints the mean cost per frame of `World::advance_to` and of
//! `World::state` over 600 frames (8 virtual minutes).
// A benchmark, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::{
    assignment::{assign, Start},
    Acks, Command, GroupSpec, Profile, Rng, Settings, Setup, TopicConfig, TopicSpec, World,
};
use std::time::Instant;

fn main() {
    let (brokers, partitions) = (9u32, 12u32);
    let ids: Vec<u32> = (1..=brokers).collect();
    let mut setup = Setup::with_brokers(1, Settings::for_profile(Profile::V3_9), brokers);
    setup.topics = vec![TopicSpec {
        name: "orders".into(),
        replicas: assign(&ids, partitions, 3, Start::Fixed(0), &mut Rng::new(1)).expect("valid"),
        config: TopicConfig::default(),
    }];
    setup.groups = vec![GroupSpec {
        id: "g".into(),
        topics: vec!["orders".into()],
        assignor: "range".into(),
    }];
    let mut w = World::new(&setup);
    w.advance_to(3_000);
    for i in 0..6 {
        w.apply(Command::Join {
            group: "g".into(),
            member: format!("c{i}"),
        })
        .expect("a consumer joins");
    }
    for p in 0..partitions {
        w.apply(Command::Produce {
            topic: "orders".into(),
            partition: p,
            records: None,
            acks: Acks::All,
            rate_per_s: Some(100),
            for_ms: None,
        })
        .expect("a stream starts");
    }
    let frames = 600;
    let mut t = 3_000u64;
    let (mut advance, mut view) = (0f64, 0f64);
    for _ in 0..frames {
        t += 833;
        let a = Instant::now();
        w.advance_to(t);
        let b = Instant::now();
        std::hint::black_box(w.state());
        let c = Instant::now();
        advance += (b - a).as_secs_f64();
        view += (c - b).as_secs_f64();
    }
    let per = |s: f64| s * 1000.0 / frames as f64;
    println!(
        "per frame at 50x (9 brokers, 12 partitions with streams, 6 consumers): advance_to {:.3} ms, state {:.3} ms ({} events)",
        per(advance),
        per(view),
        w.events().len()
    );
}

//! Property tests for consumer groups: random joins, clean leaves, consumer crashes and broker
//! crashes and restarts, on random clusters. Every safety invariant holds (one group leader per
//! generation among them); once the faults stop and the consumers that are meant to run are
//! running, the group is Stable with one leader, every partition of the subscribed topics is
//! assigned to exactly one member, and every consumer is in the coordinator's generation. Runs
//! are deterministic.
//!
//! `PROPERTY_CASES=N` runs more cases; `PRINT_GROUP_CASE=N` prints one case's trace.

use kafka_election_playground::assignment::{assign, Start};
use kafka_election_playground::GroupSpec;
use kafka_election_playground::Rng;
use kafka_election_playground::{
    Command, ConsumerState, Event, GroupState, Profile, Settings, Setup, TopicConfig, TopicSpec,
    World,
};
use std::collections::BTreeSet;

fn cases() -> u64 {
    std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

const NAMES: [&str; 5] = ["c1", "c2", "c3", "c4", "c5"];

fn run_case(case: u64) -> (Vec<Event>, World, Vec<&'static str>) {
    let mut rng = Rng::new(case.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x6772_6f75);
    let brokers = 3 + rng.up_to(1) as u32;
    let ids: Vec<u32> = (1..=brokers).collect();
    let profile = [Profile::V2_4, Profile::V3_9][rng.up_to(1) as usize];
    let mut settings = Settings::for_profile(profile);
    settings.offsets_topic_num_partitions = 1 + rng.up_to(9) as u32;
    settings.zookeeper_session_timeout_ms = 6_000;
    let partitions = 1 + rng.up_to(5) as u32;
    let mut setup = Setup::with_brokers(case, settings, brokers);
    setup.topics = vec![TopicSpec {
        name: "t".into(),
        replicas: assign(&ids, partitions, 2, Start::Random, &mut rng).unwrap(),
        config: TopicConfig::default(),
    }];
    setup.groups = vec![GroupSpec {
        id: format!("group-{}", rng.up_to(1000)),
        topics: vec!["t".into()],
        assignor: ["range", "roundrobin"][rng.up_to(1) as usize].into(),
    }];
    let group = setup.groups[0].id.clone();
    let mut w = World::new(&setup);
    let mut t = 2_000;
    w.advance_to(t);
    for _ in 0..(4 + rng.up_to(16)) {
        t += rng.up_to(8_000);
        w.advance_to(t);
        let member = NAMES[rng.up_to(NAMES.len() as u64 - 1) as usize].to_string();
        let b = 1 + rng.up_to(u64::from(brokers) - 1) as u32;
        let cmd = match rng.up_to(9) {
            0..=3 => Command::Join {
                group: group.clone(),
                member,
            },
            4 => Command::Leave {
                group: group.clone(),
                member,
            },
            5 => Command::CrashConsumer {
                group: group.clone(),
                member,
            },
            6 => Command::Crash(b),
            7 => Command::Start(b),
            _ => Command::Pause {
                broker: b,
                for_ms: 1 + rng.up_to(10_000),
            },
        };
        let _ = w.apply(cmd);
    }
    // The faults stop: every broker runs again, then the consumers meant to run (re)join.
    for _round in 0..3 {
        t += 60_000;
        w.advance_to(t);
        for b in &ids {
            let _ = w.apply(Command::Start(*b));
        }
    }
    let wanted: Vec<&'static str> = NAMES
        .iter()
        .copied()
        .take(1 + rng.up_to(3) as usize)
        .collect();
    for m in &wanted {
        let _ = w.apply(Command::Join {
            group: group.clone(),
            member: m.to_string(),
        });
    }
    // Long enough for crashed members' sessions (45 s) and a rebalance to pass.
    t += 400_000;
    w.advance_to(t);
    (w.events().to_vec(), w, wanted)
}

#[test]
fn random_group_schedules_keep_one_leader_per_generation_and_settle() {
    for case in 0..cases() {
        let (_, w, _) = run_case(case);
        let s = w.state();
        assert!(s.violations.is_empty(), "case {case}: {:?}", s.violations);
        let (id, g) = s.groups.iter().next().unwrap();
        assert_eq!(
            g.state,
            Some(GroupState::Stable),
            "case {case}: group {id}: {g:?}"
        );
        let running: BTreeSet<String> = g
            .consumers
            .iter()
            .filter(|(_, c)| c.state == ConsumerState::Stable)
            .map(|(n, _)| n.clone())
            .collect();
        let members: BTreeSet<String> = g.members.iter().cloned().collect();
        assert_eq!(members, running, "case {case}: {g:?}");
        let leader = g.leader.clone().expect("a leader");
        assert!(members.contains(&leader), "case {case}: {g:?}");
        let leaders: Vec<&String> = g
            .consumers
            .iter()
            .filter(|(_, c)| c.state == ConsumerState::Stable && c.leader)
            .map(|(n, _)| n)
            .collect();
        assert_eq!(leaders, vec![&leader], "case {case}: {g:?}");
        for (n, c) in g
            .consumers
            .iter()
            .filter(|(_, c)| c.state == ConsumerState::Stable)
        {
            assert_eq!(c.generation, g.generation, "case {case}: {n}: {g:?}");
            assert_eq!(
                Some(&c.assignment),
                g.assignment.get(n),
                "case {case}: {n}: {g:?}"
            );
        }
        let mut assigned: Vec<String> = g.assignment.values().flatten().cloned().collect();
        assigned.sort();
        let partitions = w
            .topics()
            .iter()
            .find(|t| t.name == "t")
            .unwrap()
            .replicas
            .len();
        let mut expected: Vec<String> = (0..partitions).map(|p| format!("t-{p}")).collect();
        expected.sort();
        assert_eq!(
            assigned, expected,
            "case {case}: every partition exactly once: {g:?}"
        );
    }
}

#[test]
fn random_group_schedules_are_deterministic() {
    for case in 0..(cases() / 6).max(5) {
        let (a, _, _) = run_case(case);
        let (b, _, _) = run_case(case);
        assert_eq!(a, b, "case {case}");
    }
}

#[test]
fn print_group_case() {
    if let Some(case) = std::env::var("PRINT_GROUP_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        let (events, w, wanted) = run_case(case);
        for e in events {
            println!("{}", e.line());
        }
        println!("wanted: {wanted:?}");
        println!(
            "{}",
            serde_json::to_string_pretty(&w.state().groups).unwrap()
        );
    }
}

//! Property tests for consumer groups: random joins, clean leaves, consumer crashes and broker
//! crashes, restarts and pauses, on random clusters. Every safety invariant holds (one group
//! leader per generation among them); once the faults stop and the consumers that are meant to
//! run are running, the group is Stable with one leader, every partition of the subscribed
//! topics is assigned to exactly one member, and every consumer is in the coordinator's
//! generation. Runs are deterministic.
//!
//! Written with proptest: a failing schedule shrinks to a short one, kept in
//! `tests/group_properties.proptest-regressions` and replayed first by every run. The
//! environment (`PROPERTY_CASES`, `PROPERTY_SEED`, `PROPERTY_PROFILE`, `PROPERTY_TRACE`) is
//! described in `tests/common/mod.rs`; `PRINT_GROUP_CASE=N` prints the case drawn with seed N
//! and its trace.
#![cfg(not(target_arch = "wasm32"))]
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod common;

use common::fault;
use kafka_election_playground::{
    BrokerId, Command, ConsumerState, Event, GroupSpec, GroupState, Profile, Settings, Setup,
    TopicConfig, TopicSpec, World,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::BTreeSet;

/// The consumers' names.
const NAMES: [&str; 5] = ["c1", "c2", "c3", "c4", "c5"];

/// A step of a schedule: a consumer (of [`NAMES`]) joins, leaves or crashes, or a broker fault.
#[derive(Debug, Clone)]
enum Step {
    Join(usize),
    Leave(usize),
    CrashConsumer(usize),
    Fault(Command),
}

/// A cluster, its group and its schedule.
#[derive(Debug, Clone)]
struct Case {
    /// The world's seed (message latencies, member ids).
    seed: u64,
    brokers: u32,
    profile: Profile,
    offsets_topic_num_partitions: u32,
    /// The replicas of topic `t`'s partitions (two each).
    replicas: Vec<Vec<BrokerId>>,
    /// The group is `group-N` (its id decides its coordinator).
    group: u32,
    assignor: &'static str,
    /// The steps, each after a gap in ms.
    steps: Vec<(u64, Step)>,
    /// How many consumers (the first of [`NAMES`]) are meant to run at the end.
    wanted: usize,
}

fn step() -> impl Strategy<Value = Step> {
    let member = 0..NAMES.len();
    let f = |s: BoxedStrategy<Command>| s.prop_map(Step::Fault);
    prop_oneof![
        4 => member.clone().prop_map(Step::Join),
        1 => member.clone().prop_map(Step::Leave),
        1 => member.prop_map(Step::CrashConsumer),
        1 => f(fault::crash()),
        1 => f(fault::start()),
        2 => f(fault::pause(10_000)),
    ]
}

/// 3 or 4 brokers under 2.4 or 3.9 (or the pinned profile), 1 to 10 partitions of
/// `__consumer_offsets`, a topic of 1 to 6 partitions with two replicas each, 1 to 20 steps 0
/// to 8 s apart, and 1 to 4 consumers meant to run at the end.
fn case() -> impl Strategy<Value = Case> {
    (
        (
            any::<u64>(),
            3u32..=4,
            common::profile(&[Profile::V2_4, Profile::V3_9]),
            1u32..=10,
        ),
        proptest::collection::vec(common::broker_order(), 1..=6),
        (
            0u32..=1000,
            proptest::sample::select(vec!["range", "roundrobin"]),
        ),
        proptest::collection::vec((0u64..=8_000, step()), 1..=20),
        1..=4usize,
    )
        .prop_map(
            |(
                (seed, brokers, profile, offsets_topic_num_partitions),
                orders,
                (group, assignor),
                steps,
                wanted,
            )| Case {
                seed,
                brokers,
                profile,
                offsets_topic_num_partitions,
                replicas: orders
                    .iter()
                    .map(|o| common::replicas(o, 2, brokers))
                    .collect(),
                group,
                assignor,
                steps: steps
                    .into_iter()
                    .map(|(gap, step)| match step {
                        Step::Fault(c) => (gap, Step::Fault(common::within(c, brokers))),
                        other => (gap, other),
                    })
                    .collect(),
                wanted,
            },
        )
}

/// Runs a case; returns the world and the consumers meant to run at the end.
fn run(case: &Case) -> (World, Vec<&'static str>) {
    let mut settings = Settings::for_profile(case.profile);
    settings.offsets_topic_num_partitions = case.offsets_topic_num_partitions;
    settings.zookeeper_session_timeout_ms = 6_000;
    let mut setup = Setup::with_brokers(case.seed, settings, case.brokers);
    setup.topics = vec![TopicSpec {
        name: "t".into(),
        replicas: case.replicas.clone(),
        config: TopicConfig::default(),
    }];
    let group = format!("group-{}", case.group);
    setup.groups = vec![GroupSpec {
        id: group.clone(),
        topics: vec!["t".into()],
        assignor: case.assignor.into(),
    }];
    let mut w = World::new(&setup);
    let member = |i: usize| (group.clone(), NAMES[i].to_string());
    let steps: Vec<(u64, Command)> = case
        .steps
        .iter()
        .map(|(gap, step)| {
            let command = match step {
                Step::Join(i) => {
                    let (group, member) = member(*i);
                    Command::Join { group, member }
                }
                Step::Leave(i) => {
                    let (group, member) = member(*i);
                    Command::Leave { group, member }
                }
                Step::CrashConsumer(i) => {
                    let (group, member) = member(*i);
                    Command::CrashConsumer { group, member }
                }
                Step::Fault(c) => c.clone(),
            };
            (*gap, command)
        })
        .collect();
    let mut t = 2_000;
    w.advance_to(t);
    (t, _) = common::play(&mut w, t, &steps);
    // The faults stop: every broker runs again, then the consumers meant to run (re)join.
    for _round in 0..3 {
        t += 60_000;
        w.advance_to(t);
        for b in w.broker_ids() {
            let _ = w.apply(Command::Start(b));
        }
    }
    let wanted: Vec<&'static str> = NAMES[..case.wanted].to_vec();
    for m in &wanted {
        let _ = w.apply(Command::Join {
            group: group.clone(),
            member: m.to_string(),
        });
    }
    // Long enough for crashed members' sessions (45 s) and a rebalance to pass.
    t += 400_000;
    w.advance_to(t);
    (w, wanted)
}

fn keeps_one_leader_per_generation_and_settles(case: &Case) -> Result<(), TestCaseError> {
    let (w, _) = run(case);
    let s = w.state();
    let trace = || common::trace(&w);
    prop_assert!(
        s.violations.is_empty(),
        "violations: {:?}\n{}",
        s.violations,
        trace()
    );
    let Some((id, g)) = s.groups.iter().next() else {
        return Err(TestCaseError::fail("no group"));
    };
    prop_assert_eq!(
        g.state,
        Some(GroupState::Stable),
        "group {}: {:?}\n{}",
        id,
        g,
        trace()
    );
    let running: BTreeSet<String> = g
        .consumers
        .iter()
        .filter(|(_, c)| c.state == ConsumerState::Stable)
        .map(|(n, _)| n.clone())
        .collect();
    let members: BTreeSet<String> = g.members.iter().cloned().collect();
    prop_assert_eq!(&members, &running, "{:?}\n{}", g, trace());
    let Some(leader) = g.leader.clone() else {
        return Err(TestCaseError::fail(format!(
            "no leader: {g:?}\n{}",
            trace()
        )));
    };
    prop_assert!(members.contains(&leader), "{:?}\n{}", g, trace());
    let leaders: Vec<&String> = g
        .consumers
        .iter()
        .filter(|(_, c)| c.state == ConsumerState::Stable && c.leader)
        .map(|(n, _)| n)
        .collect();
    prop_assert_eq!(leaders, vec![&leader], "{:?}\n{}", g, trace());
    for (n, c) in g
        .consumers
        .iter()
        .filter(|(_, c)| c.state == ConsumerState::Stable)
    {
        prop_assert_eq!(c.generation, g.generation, "{}: {:?}\n{}", n, g, trace());
        prop_assert_eq!(
            Some(&c.assignment),
            g.assignment.get(n),
            "{}: {:?}\n{}",
            n,
            g,
            trace()
        );
    }
    let mut assigned: Vec<String> = g.assignment.values().flatten().cloned().collect();
    assigned.sort();
    let mut expected: Vec<String> = (0..case.replicas.len()).map(|p| format!("t-{p}")).collect();
    expected.sort();
    prop_assert_eq!(
        assigned,
        expected,
        "every partition exactly once: {:?}\n{}",
        g,
        trace()
    );
    Ok(())
}

fn events(case: &Case) -> Vec<Event> {
    run(case).0.events().to_vec()
}

proptest! {
    #![proptest_config(common::config(common::cases(60)))]

    #[test]
    fn random_group_schedules_keep_one_leader_per_generation_and_settle(case in case()) {
        keeps_one_leader_per_generation_and_settles(&case)?;
    }
}

proptest! {
    #![proptest_config(common::config((common::cases(60) / 6).max(5)))]

    #[test]
    fn random_group_schedules_are_deterministic(case in case()) {
        prop_assert_eq!(events(&case), events(&case));
    }
}

#[test]
fn print_group_case() {
    let Some(seed) = std::env::var("PRINT_GROUP_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
    else {
        return;
    };
    let case = common::draw(&case(), seed);
    println!("{case:?}");
    let (w, wanted) = run(&case);
    for e in w.events() {
        println!("{}", e.line());
    }
    println!("wanted: {wanted:?}");
    println!(
        "{}",
        serde_json::to_string_pretty(&w.state().groups).unwrap()
    );
}

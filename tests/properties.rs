//! Property tests over random fault schedules (crashes, starts, shutdowns, pauses, session
//! expiries, cut and healed links, deletions of `/controller`) on random clusters under every
//! profile: the safety invariants hold, the run is deterministic, and once the faults stop the
//! cluster settles on one controller that every broker follows.
//!
//! Written with proptest: a failing schedule shrinks to a short one, kept in
//! `tests/properties.proptest-regressions` and replayed first by every run. The environment
//! (`PROPERTY_CASES`, `PROPERTY_SEED`, `PROPERTY_PROFILE`, `PROPERTY_TRACE`) is described in
//! `tests/common/mod.rs`; `PRINT_CASE=N` prints the case drawn with seed N and its trace.
#![cfg(not(target_arch = "wasm32"))]
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod common;

use common::fault;
use kafka_election_playground::{
    BrokerState, Command, Event, EventKind, Profile, Settings, Setup, World,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::BTreeSet;

/// A cluster and its fault schedule.
#[derive(Debug, Clone)]
struct Case {
    /// The world's seed (message latencies).
    seed: u64,
    brokers: u32,
    profile: Profile,
    /// The faults, each after a gap in ms.
    steps: Vec<(u64, Command)>,
}

fn step() -> impl Strategy<Value = Command> {
    prop_oneof![
        2 => fault::crash(),
        1 => fault::start(),
        1 => fault::shutdown(),
        1 => fault::pause(40_000),
        1 => fault::expire(),
        1 => fault::cut(),
        1 => fault::delete_controller(),
        2 => fault::heal(),
    ]
}

/// 1 to 7 brokers under any profile (or the pinned one), 1 to 25 faults 0 to 15 s apart.
fn case() -> impl Strategy<Value = Case> {
    (
        any::<u64>(),
        1..=common::MAX_BROKERS,
        common::profile(&Profile::ALL),
        proptest::collection::vec((0u64..=15_000, step()), 1..=25),
    )
        .prop_map(|(seed, brokers, profile, steps)| Case {
            seed,
            brokers,
            profile,
            steps: steps
                .into_iter()
                .map(|(gap, c)| (gap, common::within(c, brokers)))
                .collect(),
        })
}

/// Runs a case: its schedule, then the faults stop and the cluster settles.
fn run(case: &Case) -> World {
    let setup = Setup::with_brokers(case.seed, Settings::for_profile(case.profile), case.brokers);
    let mut w = World::new(&setup);
    let (t, _) = common::play(&mut w, 0, &case.steps);
    common::stop_faults(&mut w, t, 60_000);
    w
}

fn keeps_every_invariant_and_settles(case: &Case) -> Result<(), TestCaseError> {
    let w = run(case);
    let s = w.state();
    let trace = || common::trace(&w);
    prop_assert!(
        s.violations.is_empty(),
        "violations: {:?}\n{}",
        s.violations,
        trace()
    );
    let Some(c) = s.controller else {
        return Err(TestCaseError::fail(format!(
            "no controller at the end\n{}",
            trace()
        )));
    };
    for (id, b) in &s.brokers {
        prop_assert_eq!(
            b.state,
            BrokerState::Running,
            "broker {} is {:?}\n{}",
            id,
            b.state,
            trace()
        );
        prop_assert!(b.registered, "broker {} not registered\n{}", id, trace());
        prop_assert_eq!(
            b.known_controller,
            Some(c),
            "broker {} follows another controller\n{}",
            id,
            trace()
        );
        prop_assert_eq!(
            b.known_controller_epoch,
            s.controller_epoch,
            "broker {}\n{}",
            id,
            trace()
        );
        prop_assert_eq!(b.acts_as_controller, *id == c, "broker {}\n{}", id, trace());
    }
    // Every election took its own epoch; /controller_epoch holds the newest. (An election can
    // land in ZooKeeper and its winner die before it hears so, or freeze and hear so only when
    // it wakes, after newer elections: its event comes late, then it learns of its expiry.)
    let epochs: Vec<u64> = w
        .events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ControllerElected { epoch, .. } => Some(epoch),
            _ => None,
        })
        .collect();
    let distinct: BTreeSet<u64> = epochs.iter().copied().collect();
    prop_assert_eq!(distinct.len(), epochs.len(), "{:?}\n{}", epochs, trace());
    prop_assert_eq!(
        distinct.last().copied(),
        Some(s.controller_epoch),
        "{:?}\n{}",
        epochs,
        trace()
    );
    Ok(())
}

fn events(case: &Case) -> Vec<Event> {
    run(case).events().to_vec()
}

proptest! {
    #![proptest_config(common::config(common::cases(150)))]

    #[test]
    fn random_fault_schedules_keep_every_invariant_and_settle_on_one_controller(case in case()) {
        keeps_every_invariant_and_settles(&case)?;
    }
}

proptest! {
    #![proptest_config(common::config((common::cases(150) / 5).max(10)))]

    #[test]
    fn random_fault_schedules_are_deterministic(case in case()) {
        prop_assert_eq!(events(&case), events(&case));
    }
}

/// `PRINT_CASE=N cargo test --test properties print_case -- --nocapture` prints the case drawn
/// with seed N, its trace, each broker's watches and the final state (`PRINT_MESSAGES=1` adds the
/// last messages).
#[test]
fn print_case() {
    let Some(seed) = std::env::var("PRINT_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
    else {
        return;
    };
    let case = common::draw(&case(), seed);
    println!("{case:?}");
    let w = run(&case);
    for e in w.events() {
        println!("{}", e.line());
    }
    for id in w.broker_ids() {
        let b = w.broker(id).unwrap();
        println!(
            "broker {id}: data watches {:?}, child watches {:?}, last zxid {}",
            b.zk.data_watches, b.zk.child_watches, b.zk.last_zxid
        );
    }
    if std::env::var_os("PRINT_MESSAGES").is_some() {
        for m in w.messages() {
            println!("{m:?}");
        }
    }
    println!("{}", serde_json::to_string_pretty(&w.state()).unwrap());
}

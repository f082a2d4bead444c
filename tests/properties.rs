//! Property tests over random fault schedules (crashes, starts, shutdowns, pauses, session
//! expiries, cut and healed links, deletions of `/controller`) on random clusters: the safety invariants hold, the run
//! is deterministic, and once the faults stop the cluster settles on one controller that
//! every broker follows.
//!
//! `PROPERTY_CASES=N` runs more cases than the default (the CI default is kept short).

mod common;

use kafka_election_playground::Rng;
use kafka_election_playground::{
    BrokerState, Command, Endpoint, Event, Profile, Settings, Setup, World,
};

fn cases() -> u64 {
    std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

fn random_command(rng: &mut Rng, brokers: u32) -> Command {
    let b = 1 + rng.up_to(u64::from(brokers) - 1) as u32;
    let other = 1 + rng.up_to(u64::from(brokers) - 1) as u32;
    let peer = if rng.up_to(2) == 0 {
        Endpoint::Zk
    } else {
        Endpoint::Broker(other)
    };
    match rng.up_to(9) {
        0 | 1 => Command::Crash(b),
        2 => Command::Start(b),
        3 => Command::Shutdown(b),
        4 => Command::Pause {
            broker: b,
            for_ms: 1 + rng.up_to(40_000),
        },
        5 => Command::ExpireSession(b),
        6 => Command::Cut(Endpoint::Broker(b), peer),
        7 => Command::DeleteController,
        _ => Command::Heal(Endpoint::Broker(b), peer),
    }
}

/// Runs one random schedule; returns the trace and the final world.
fn run_case(case: u64) -> (Vec<Event>, World) {
    let mut rng = Rng::new(case.wrapping_mul(0x9E37_79B9));
    let brokers = 1 + rng.up_to(6) as u32;
    let profile = Profile::ALL[rng.up_to(3) as usize];
    let setup = Setup::with_brokers(case, Settings::for_profile(profile), brokers);
    let mut w = World::new(&setup);
    let mut t = 0;
    for _ in 0..(5 + rng.up_to(20)) {
        t += rng.up_to(15_000);
        w.advance_to(t);
        // Commands that make no sense now are refused and change nothing: that is fine here.
        let _ = w.apply(random_command(&mut rng, brokers));
    }
    common::stop_faults(&mut w, t, 60_000);
    (w.events().to_vec(), w)
}

#[test]
fn random_fault_schedules_keep_every_invariant_and_settle_on_one_controller() {
    for case in 0..cases() {
        let (_, w) = run_case(case);
        let s = w.state();
        assert!(s.violations.is_empty(), "case {case}: {:?}", s.violations);
        let c = s
            .controller
            .unwrap_or_else(|| panic!("case {case}: no controller at the end"));
        for (id, b) in &s.brokers {
            assert_eq!(
                b.state,
                BrokerState::Running,
                "case {case}: broker {id} is {:?}",
                b.state
            );
            assert!(b.registered, "case {case}: broker {id} not registered");
            assert_eq!(
                b.known_controller,
                Some(c),
                "case {case}: broker {id} follows another controller"
            );
            assert_eq!(
                b.known_controller_epoch, s.controller_epoch,
                "case {case}: broker {id}"
            );
            assert_eq!(b.acts_as_controller, *id == c, "case {case}: broker {id}");
        }
        // Every election took its own epoch; /controller_epoch holds the newest. (An election can
        // land in ZooKeeper and its winner die before it hears so, or freeze and hear so only when
        // it wakes, after newer elections: its event comes late, then it learns of its expiry.)
        let epochs: Vec<u64> = w
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                kafka_election_playground::EventKind::ControllerElected { epoch, .. } => {
                    Some(epoch)
                }
                _ => None,
            })
            .collect();
        let distinct: std::collections::BTreeSet<u64> = epochs.iter().copied().collect();
        assert_eq!(distinct.len(), epochs.len(), "case {case}: {epochs:?}");
        assert_eq!(
            distinct.last().copied(),
            Some(s.controller_epoch),
            "case {case}: {epochs:?}"
        );
    }
}

/// `PRINT_CASE=N cargo test --test properties print_case -- --nocapture` prints one case's trace.
#[test]
fn print_case() {
    if let Some(case) = std::env::var("PRINT_CASE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        let (events, w) = run_case(case);
        for e in events {
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
}

#[test]
fn random_fault_schedules_are_deterministic() {
    for case in 0..(cases() / 5).max(10) {
        let (a, _) = run_case(case);
        let (b, _) = run_case(case);
        assert_eq!(a, b, "case {case}");
    }
}

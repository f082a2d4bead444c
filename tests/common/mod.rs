//! What the property suites share: their proptest configuration (cases, seed, the profile to
//! pin, where a failing case is kept), the faults they draw, and the end of a random schedule,
//! when the faults stop.
//!
//! Environment:
//! - `PROPERTY_CASES=N` (or proptest's own `PROPTEST_CASES=N`) runs N cases instead of the
//!   suite's default (the default keeps `cargo test` short);
//! - `PROPERTY_SEED=N` draws other cases (the default seed is fixed, so that every run, CI's
//!   too, tries the same ones);
//! - `PROPERTY_PROFILE=3.9` (any profile name) pins the profile of the suites that otherwise
//!   draw it at random;
//! - `PROPERTY_TRACE=1` adds the event trace of a failing case to its message (so the trace of
//!   the shrunk case is printed with it).
//!
//! A failing case is shrunk by proptest and its seed kept in `tests/SUITE.proptest-regressions`,
//! which every later run replays first.

// Every suite includes this module and uses only some of it.
#![allow(dead_code)]

use kafka_election_playground::{Command, Endpoint, Profile, World};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{FileFailurePersistence, RngSeed, TestRunner};

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    match value.parse() {
        Ok(n) => Some(n),
        Err(_) => panic!("{name}={value:?} is not a whole number"),
    }
}

/// How many cases to run: `PROPERTY_CASES`, else `PROPTEST_CASES`, else `default`.
pub fn cases(default: u32) -> u32 {
    env_number("PROPERTY_CASES")
        .or_else(|| env_number("PROPTEST_CASES"))
        .map_or(default, |n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// The seed of proptest's generator: fixed (1), or `PROPERTY_SEED`.
pub fn seed() -> RngSeed {
    RngSeed::Fixed(env_number("PROPERTY_SEED").unwrap_or(1))
}

/// A suite's configuration: `cases` cases (see [`cases`]) drawn from [`seed`], a failing one
/// kept beside the suite's source.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: seed(),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// The profile `PROPERTY_PROFILE` pins, if it is set.
pub fn pinned_profile() -> Option<Profile> {
    let name = std::env::var("PROPERTY_PROFILE").ok()?;
    match Profile::parse(&name) {
        Ok(p) => Some(p),
        Err(e) => panic!("PROPERTY_PROFILE: {e}"),
    }
}

/// One of `profiles`, or the pinned one.
pub fn profile(profiles: &[Profile]) -> BoxedStrategy<Profile> {
    match pinned_profile() {
        Some(p) => Just(p).boxed(),
        None => proptest::sample::select(profiles.to_vec()).boxed(),
    }
}

/// The value `strategy` draws with proptest's generator seeded by `seed`: how the suites'
/// `PRINT_…` tests show one case.
pub fn draw<S: Strategy>(strategy: &S, seed: u64) -> S::Value {
    let mut runner = TestRunner::new(ProptestConfig {
        rng_seed: RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    });
    match strategy.new_tree(&mut runner) {
        Ok(tree) => tree.current(),
        Err(e) => panic!("no case drawn: {e}"),
    }
}

/// The trace of a failing run, one event a line, when `PROPERTY_TRACE` is set; else a hint.
pub fn trace(w: &World) -> String {
    if std::env::var_os("PROPERTY_TRACE").is_none() {
        return "(PROPERTY_TRACE=1 prints the case's trace)".into();
    }
    let lines: Vec<String> = w.events().iter().map(|e| e.line()).collect();
    format!("trace:\n{}", lines.join("\n"))
}

/// The most brokers a suite's cluster has: faults are drawn on brokers `1..=MAX_BROKERS` and
/// brought into the cluster by [`within`], so that the cluster's size is drawn apart from the
/// schedule and both shrink on their own (a strategy that depended on the size would draw the
/// schedule anew each time the size shrank).
pub const MAX_BROKERS: u32 = 7;

/// A broker of `1..=MAX_BROKERS`.
fn broker() -> std::ops::RangeInclusive<u32> {
    1..=MAX_BROKERS
}

/// The other end of a link cut or healed: ZooKeeper one time in three, else a broker.
fn peer() -> impl Strategy<Value = Endpoint> {
    proptest::option::weighted(2.0 / 3.0, broker())
        .prop_map(|b| b.map_or(Endpoint::Zk, Endpoint::Broker))
}

/// `command` with each broker id it names brought into `1..=n` (modulo `n`).
pub fn within(command: Command, n: u32) -> Command {
    let b = |id: u32| (id - 1) % n + 1;
    let e = |end: Endpoint| match end {
        Endpoint::Broker(id) => Endpoint::Broker(b(id)),
        other => other,
    };
    match command {
        Command::Crash(id) => Command::Crash(b(id)),
        Command::Start(id) => Command::Start(b(id)),
        Command::Shutdown(id) => Command::Shutdown(b(id)),
        Command::ExpireSession(id) => Command::ExpireSession(b(id)),
        Command::Pause { broker, for_ms } => Command::Pause {
            broker: b(broker),
            for_ms,
        },
        Command::Cut(x, y) => Command::Cut(e(x), e(y)),
        Command::Heal(x, y) => Command::Heal(e(x), e(y)),
        Command::StallFetcher {
            broker,
            topic,
            partition,
        } => Command::StallFetcher {
            broker: b(broker),
            topic,
            partition,
        },
        Command::ResumeFetcher {
            broker,
            topic,
            partition,
        } => Command::ResumeFetcher {
            broker: b(broker),
            topic,
            partition,
        },
        other => other,
    }
}

/// An order of the brokers `1..=MAX_BROKERS`: a replica list is its first brokers that the
/// cluster has ([`replicas`]).
pub fn broker_order() -> impl Strategy<Value = Vec<u32>> {
    Just(broker().collect::<Vec<u32>>()).prop_shuffle()
}

/// The first `rf` brokers of `order` that are in `1..=n` (fewer if `n` is smaller).
pub fn replicas(order: &[u32], rf: u32, n: u32) -> Vec<u32> {
    order
        .iter()
        .copied()
        .filter(|b| *b <= n)
        .take(rf as usize)
        .collect()
}

/// The faults a schedule draws, on brokers `1..=MAX_BROKERS` (see [`within`]).
pub mod fault {
    use super::*;

    /// A broker crashes.
    pub fn crash() -> BoxedStrategy<Command> {
        broker().prop_map(Command::Crash).boxed()
    }

    /// A broker starts.
    pub fn start() -> BoxedStrategy<Command> {
        broker().prop_map(Command::Start).boxed()
    }

    /// A broker shuts down cleanly.
    pub fn shutdown() -> BoxedStrategy<Command> {
        broker().prop_map(Command::Shutdown).boxed()
    }

    /// A broker freezes for 1 to `max_ms` ms.
    pub fn pause(max_ms: u64) -> BoxedStrategy<Command> {
        (broker(), 1..=max_ms)
            .prop_map(|(broker, for_ms)| Command::Pause { broker, for_ms })
            .boxed()
    }

    /// ZooKeeper expires a broker's session.
    pub fn expire() -> BoxedStrategy<Command> {
        broker().prop_map(Command::ExpireSession).boxed()
    }

    /// A broker's link to ZooKeeper or another broker is cut.
    pub fn cut() -> BoxedStrategy<Command> {
        (broker(), peer())
            .prop_map(|(b, p)| Command::Cut(Endpoint::Broker(b), p))
            .boxed()
    }

    /// A broker's link to ZooKeeper or another broker heals.
    pub fn heal() -> BoxedStrategy<Command> {
        (broker(), peer())
            .prop_map(|(b, p)| Command::Heal(Endpoint::Broker(b), p))
            .boxed()
    }

    /// A broker's fetchers stall.
    pub fn stall() -> BoxedStrategy<Command> {
        broker()
            .prop_map(|broker| Command::StallFetcher {
                broker,
                topic: None,
                partition: None,
            })
            .boxed()
    }

    /// A broker's fetchers resume.
    pub fn resume() -> BoxedStrategy<Command> {
        broker()
            .prop_map(|broker| Command::ResumeFetcher {
                broker,
                topic: None,
                partition: None,
            })
            .boxed()
    }

    /// An operator deletes `/controller`.
    pub fn delete_controller() -> BoxedStrategy<Command> {
        Just(Command::DeleteController).boxed()
    }
}

/// Runs a schedule of `(gap in ms, command)` from `t`: each command at its time, those that
/// make no sense then (starting a running broker) refused, changing nothing. Returns the time
/// reached and which commands were taken.
pub fn play(w: &mut World, mut t: u64, steps: &[(u64, Command)]) -> (u64, Vec<bool>) {
    let mut taken = Vec::with_capacity(steps.len());
    for (gap, command) in steps {
        t += gap;
        w.advance_to(t);
        taken.push(w.apply(command.clone()).is_ok());
    }
    (t, taken)
}

/// The faults stop at `t`: every link heals and every fetcher resumes; then, three times
/// 200 s apart (so that paused brokers wake and old sessions expire), every broker that is down
/// starts; then `settle_ms` more pass. Commands that make no sense (healing a link that is not
/// cut, starting a running broker) are refused and change nothing. Returns the time reached.
pub fn stop_faults(w: &mut World, mut t: u64, settle_ms: u64) -> u64 {
    let ids = w.broker_ids();
    for a in &ids {
        let _ = w.apply(Command::Heal(Endpoint::Broker(*a), Endpoint::Zk));
        let _ = w.apply(Command::ResumeFetcher {
            broker: *a,
            topic: None,
            partition: None,
        });
        for b in &ids {
            let _ = w.apply(Command::Heal(Endpoint::Broker(*a), Endpoint::Broker(*b)));
        }
    }
    for _round in 0..3 {
        t += 200_000;
        w.advance_to(t);
        for b in &ids {
            let _ = w.apply(Command::Start(*b));
        }
    }
    t += settle_ms;
    w.advance_to(t);
    t
}

//! Every cause is true of the run it describes: each story of `www/scenarios/` (and each
//! scenario of `tests/scenarios/`) runs one message or timer at a time, and after each step
//! the figures the new events and their causes state (a leader, an ISR, a leader epoch, a
//! controller epoch, a broker epoch, a session timeout, a lag setting, brokers alive or down,
//! a group's leader and generation, an imbalance ratio) are compared with the world's state
//! at that moment. Claims about what comes next ("an election follows", "the partition waits
//! for broker 2 to return") are compared with the rest of the run.
//!
//! It checks the core's causes, but it reads the scenario files (`scenario`) and opens free
//! play as the page does (`view::setup`), so it stands here, above both.

use crate::sim::cause::Cause;
use crate::sim::controller::causes::{ControllerCause, EpochBump, ImbalanceHeld, Offlined};
use crate::sim::coordinator::causes::CoordinatorCause;
use crate::sim::replication::causes::ReplicationCause;
use crate::sim::state::{BrokerState, ClusterState};
use crate::sim::zookeeper::causes::ZkCause;
use crate::sim::{Command, Event, EventKind, Setup, World};

/// When a run ends.
struct Until {
    until_ms: u64,
}
use crate::collections::VecSet;
use crate::scenario::{parse_value, Scenario};

/// The scenarios the test runs: every story, every lesson's scenario, and the tests' own
/// scenarios, each with its file name.
fn scenarios() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for dir in ["www/scenarios", "www/lessons", "tests/scenarios"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut here: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            // The lesson index lists lessons; it is no scenario.
            .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
            .collect();
        here.sort();
        for path in here {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).expect("the file reads");
            let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            // A lesson holds its scenario under "scenario".
            let value = match value.get("steps") {
                Some(_) => value["scenario"].clone(),
                None => value,
            };
            let scenario = parse_value(value).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, scenario));
        }
    }
    out
}

/// Whether the controller counts `b` as live: registered under `/brokers/ids` and not
/// crashed or stopped (a crashed broker's registration outlives it until its session ends,
/// so a registration alone is what the controller sees).
fn registered(state: &ClusterState, b: u32) -> bool {
    state.brokers.get(&b).is_some_and(|v| v.registered)
}

fn running(state: &ClusterState, b: u32) -> bool {
    state.brokers.get(&b).is_some_and(|v| {
        matches!(
            v.state,
            BrokerState::Running | BrokerState::Paused | BrokerState::ShuttingDown
        )
    })
}

fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

/// What one event states that the state after its step contradicts, if anything.
fn check_now(e: &Event, state: &ClusterState, world: &World, problems: &mut Vec<String>) {
    let mut bad = |what: String| problems.push(format!("{}: {what}", e.line()));
    let part = |p: &str| state.partitions.get(p);
    match (&e.kind, &e.cause) {
        (EventKind::ControllerElected { broker, epoch }, cause) => {
            if state.controller != Some(*broker) || state.controller_epoch != *epoch {
                bad(format!(
                    "the state has controller {:?} at epoch {}",
                    state.controller, state.controller_epoch
                ));
            }
            if let Cause::Controller(ControllerCause::ElectedEpochSet { from, to }) = cause {
                if *to != *epoch || *from + 1 != *to {
                    bad(format!("the cause's epochs {from} -> {to}"));
                }
            }
        }
        (
            EventKind::ControllerRaceLost {
                controller: Some(c),
                ..
            },
            _,
        ) if state.controller != Some(*c) => {
            bad(format!("/controller names {:?}", state.controller));
        }
        (
            EventKind::BrokerRegistered {
                broker,
                broker_epoch,
            },
            _,
        ) => {
            let v = &state.brokers[broker];
            if !v.registered || v.broker_epoch != Some(*broker_epoch) {
                bad(format!(
                    "registered {} with broker epoch {:?}",
                    v.registered, v.broker_epoch
                ));
            }
        }
        (EventKind::BrokerCrashed { broker }, _)
            if state.brokers[broker].state != BrokerState::Crashed =>
        {
            bad(format!("broker state {:?}", state.brokers[broker].state));
        }
        (
            EventKind::MetadataUpdated {
                broker,
                controller,
                controller_epoch,
            },
            _,
        ) => {
            let v = &state.brokers[broker];
            if v.known_controller != Some(*controller)
                || v.known_controller_epoch != *controller_epoch
            {
                bad(format!(
                    "the broker knows controller {:?} at epoch {}",
                    v.known_controller, v.known_controller_epoch
                ));
            }
        }
        (
            EventKind::StaleRequestRejected {
                broker,
                epoch,
                current,
                error,
                ..
            },
            _,
        ) => {
            if epoch >= current {
                bad("the rejected epoch is not older".into());
            }
            if error == "STALE_CONTROLLER_EPOCH"
                && state.brokers[broker].known_controller_epoch as i64 != *current
            {
                bad(format!(
                    "the broker knows controller epoch {}",
                    state.brokers[broker].known_controller_epoch
                ));
            }
        }
        (
            EventKind::ZkSessionCreated {
                session,
                timeout_ms,
                ..
            },
            _,
        ) => {
            let hex = format!("0x{session:x}");
            let s = state
                .sessions
                .iter()
                .find(|s| format!("0x{:x}", s.session) == hex);
            if s.is_none_or(|s| s.timeout_ms != *timeout_ms) {
                bad(format!(
                    "the session's timeout is {:?}",
                    s.map(|s| s.timeout_ms)
                ));
            }
        }
        (
            EventKind::SessionExpired { session, .. },
            Cause::ZooKeeper(ZkCause::SessionTimedOut { timeout_ms, .. }),
        ) => {
            // The timeout ZooKeeper negotiated when it opened the session.
            let negotiated = world.events().iter().find_map(|o| match &o.kind {
                EventKind::ZkSessionCreated {
                    session: s,
                    timeout_ms,
                    ..
                } if s == session => Some(*timeout_ms),
                _ => None,
            });
            if negotiated != Some(*timeout_ms) {
                bad(format!("the session was opened with {negotiated:?} ms"));
            }
        }
        (
            EventKind::LeaderElected {
                partition,
                leader,
                leader_epoch,
                isr,
                controller_epoch,
                ..
            },
            cause,
        ) => {
            let Some(p) = part(partition) else {
                bad("no such partition".into());
                return;
            };
            if p.leader != *leader || p.leader_epoch != *leader_epoch || p.isr != *isr {
                bad(format!(
                    "the state has leader {}, leader epoch {}, ISR {:?}",
                    p.leader, p.leader_epoch, p.isr
                ));
            }
            if p.controller_epoch != *controller_epoch {
                bad(format!(
                    "the state's controller epoch {}",
                    p.controller_epoch
                ));
            }
            let first_in_isr = p.replicas.iter().find(|r| isr.contains(r)).copied();
            if let Cause::Controller(ControllerCause::EpochBumped { why }) = cause {
                match why {
                    EpochBump::LeaderGone { assignment, .. }
                    | EpochBump::NoLeader { assignment } => {
                        if *assignment != p.replicas {
                            bad(format!("the assignment is {:?}", p.replicas));
                        }
                        if first_in_isr.map(i64::from) != Some(*leader) {
                            bad(format!(
                                "the first ISR replica in assignment order is {first_in_isr:?}"
                            ));
                        }
                        if let EpochBump::LeaderGone { leader: old, .. } = why {
                            if i64::from(*old) == *leader || isr.contains(old) {
                                bad(format!("broker {old} is not gone from the ISR"));
                            }
                        }
                    }
                    EpochBump::Unclean { isr: old_isr } => {
                        if old_isr.iter().any(|b| i64::from(*b) == *leader) {
                            bad("the unclean leader was in the ISR".into());
                        }
                        if let Some(b) = old_isr.iter().find(|b| registered(state, **b)) {
                            bad(format!("broker {b} of the old ISR is live"));
                        }
                    }
                    EpochBump::PreferredAutomatic { assignment }
                    | EpochBump::PreferredRequested { assignment } => {
                        if *assignment != p.replicas
                            || assignment.first().map(|b| i64::from(*b)) != Some(*leader)
                        {
                            bad(format!("the preferred replica is {:?}", p.replicas.first()));
                        }
                    }
                    EpochBump::ControlledShutdown { broker } => {
                        if i64::from(*broker) == *leader || isr.contains(broker) {
                            bad(format!("broker {broker} still leads or is in the ISR"));
                        }
                    }
                    EpochBump::ReassignmentLeader { target, .. } => {
                        if !target.iter().any(|b| i64::from(*b) == *leader) {
                            bad(format!("the leader is not one of the target {target:?}"));
                        }
                    }
                    EpochBump::ReassignmentListed { .. }
                    | EpochBump::ReassignmentLeaderStays { .. } => {}
                }
            }
            if let Cause::Controller(ControllerCause::NewPartition) = cause {
                if *leader_epoch != 0 || first_in_isr.map(i64::from) != Some(*leader) {
                    bad("not the first live replica at leader epoch 0".into());
                }
            }
        }
        (
            EventKind::LeaderEpochBumped {
                partition,
                leader,
                leader_epoch,
                isr,
                replicas,
                ..
            },
            cause,
        ) => {
            if let Some(p) = part(partition) {
                // The bump that completes a move sends the target alone (B2 of
                // onPartitionReassignment); the assignment znode keeps the replicas being
                // removed until the move's last write.
                let completing = matches!(
                    cause,
                    Cause::Controller(ControllerCause::EpochBumped {
                        why: EpochBump::ReassignmentLeaderStays { target, .. }
                    }) if target == replicas
                );
                let replicas_agree = if completing {
                    replicas.iter().all(|r| p.replicas.contains(r))
                } else {
                    p.replicas == *replicas
                };
                if p.leader != *leader
                    || p.leader_epoch != *leader_epoch
                    || p.isr != *isr
                    || !replicas_agree
                {
                    bad(format!(
                        "the state has leader {}, leader epoch {}, ISR {:?}, replicas {:?}",
                        p.leader, p.leader_epoch, p.isr, p.replicas
                    ));
                }
            }
        }
        (EventKind::LeaderElectionFailed { partition, isr }, cause) => {
            if let Some(p) = part(partition) {
                if p.isr != *isr {
                    bad(format!("the state's ISR is {:?}", p.isr));
                }
                if let Some(b) = isr.iter().find(|b| registered(state, **b)) {
                    bad(format!("broker {b} of the ISR is live"));
                }
                if let Cause::Controller(ControllerCause::ElectionFailed { isr: c, .. }) = cause {
                    if c != isr || p.unclean_leader_election {
                        bad("the cause's ISR or unclean setting differs".into());
                    }
                }
            }
        }
        (
            EventKind::PartitionOffline {
                partition,
                isr,
                leader_epoch,
            },
            cause,
        ) => {
            if let Some(p) = part(partition) {
                if p.leader != -1 || p.isr != *isr || p.leader_epoch != *leader_epoch {
                    bad(format!(
                        "the state has leader {}, leader epoch {}, ISR {:?}",
                        p.leader, p.leader_epoch, p.isr
                    ));
                }
                match cause {
                    Cause::Controller(ControllerCause::ReplicaOffline {
                        done: Offlined::LastLeader { broker },
                        ..
                    }) if *isr != [*broker] => {
                        bad(format!("broker {broker} is not the ISR's last member"));
                    }
                    Cause::Controller(ControllerCause::ReplicaOffline {
                        done: Offlined::Leader { isr: c },
                        ..
                    }) if c != isr => {
                        bad(format!("the cause's ISR {c:?}"));
                    }
                    _ => {}
                }
            }
        }
        (
            EventKind::IsrShrunk {
                partition,
                removed,
                isr,
                ..
            }
            | EventKind::IsrExpanded {
                partition,
                added: removed,
                isr,
                ..
            },
            cause,
        ) => {
            if let Some(p) = part(partition) {
                if sorted(&p.isr) != sorted(isr) {
                    bad(format!("the state's ISR is {:?}", p.isr));
                }
                let shrunk = matches!(e.kind, EventKind::IsrShrunk { .. });
                if removed.iter().any(|b| isr.contains(b) == shrunk) {
                    bad("the brokers named are on the wrong side of the ISR".into());
                }
            }
            if let Cause::Replication(ReplicationCause::IsrShrunk {
                replica_lag_time_max_ms,
                ..
            }) = cause
            {
                let setting = world.settings().replica_lag_time_max_ms;
                if *replica_lag_time_max_ms != setting {
                    bad(format!("replica.lag.time.max.ms is {setting}"));
                }
            }
        }
        (EventKind::IsrChangeAccepted { partition, isr, .. }, _) => {
            if let Some(p) = part(partition) {
                if p.isr != *isr {
                    bad(format!("the state's ISR is {:?}", p.isr));
                }
            }
        }
        (
            EventKind::LeaderImbalanceChecked { ratios, moving, .. },
            Cause::Controller(ControllerCause::ImbalanceChecked {
                percentage, held, ..
            }),
        ) if state.violations.is_empty() => {
            // (After a zombie controller's unfenced write, which the monitor reports, the
            // acting controller reckons from the leaders it knows, not the ones ZooKeeper
            // holds: Kafka's controller context is just as stale then.)
            for (b, pct) in ratios {
                let preferred: Vec<_> = state
                    .partitions
                    .iter()
                    .filter(|(_, p)| p.exists && p.replicas.first() == Some(b))
                    .collect();
                let total = preferred.len() as u32;
                let not_led: Vec<_> = preferred
                    .iter()
                    .filter(|(_, p)| p.leader != i64::from(*b))
                    .collect();
                let n = not_led.len() as u32;
                if n * 100 / total.max(1) != *pct {
                    bad(format!("broker {b}'s share is {n} of {total}, not {pct} %"));
                }
                let above = n * 100 > total * percentage;
                let mine: Vec<ImbalanceHeld> = held
                    .iter()
                    .filter(|(h, _)| h == b)
                    .map(|(_, w)| *w)
                    .collect();
                if !above {
                    if !mine.is_empty() {
                        bad(format!("broker {b} is held but not above the threshold"));
                    }
                    continue;
                }
                // Above the threshold: each partition it prefers moves back, or the cause
                // says why not, and each reason it gives is true of one that stays.
                let stays: Vec<_> = not_led
                    .iter()
                    .filter(|(name, _)| !moving.contains(name))
                    .collect();
                if !stays.is_empty() && mine.is_empty() {
                    bad(format!(
                        "broker {b} is above {percentage} % but {} stay(s) and the cause says nothing of it",
                        stays.len()
                    ));
                }
                let live = registered(state, *b) && running(state, *b);
                for w in &mine {
                    let true_of_one = stays.iter().any(|(_, p)| match w {
                        ImbalanceHeld::Down => !live,
                        ImbalanceHeld::OutOfSync => live && !p.isr.contains(b),
                        ImbalanceHeld::ReassignmentInProgress => live && p.isr.contains(b),
                    });
                    if !true_of_one {
                        bad(format!(
                            "broker {b}: {w:?} is true of none of its partitions that stay"
                        ));
                    }
                }
            }
        }
        (
            EventKind::RecordsLost {
                partition, records, ..
            },
            _,
        ) if state.lost_records.get(partition).copied().unwrap_or(0) < *records => {
            bad(format!(
                "the state counts {:?} lost",
                state.lost_records.get(partition)
            ));
        }
        (
            EventKind::GroupLeaderChosen {
                group,
                member,
                generation,
                ..
            },
            cause,
        ) => {
            if let Some(g) = state.groups.get(group) {
                if g.leader.as_deref() != Some(member.as_str()) || g.generation != *generation {
                    bad(format!(
                        "the group's leader is {:?} at generation {}",
                        g.leader, g.generation
                    ));
                }
                if let Cause::Coordinator(CoordinatorCause::LeaderLeft { left, order, .. }) = cause
                {
                    if g.members.contains(left) {
                        bad(format!("{left} is still a member"));
                    }
                    if order.first() != Some(member) {
                        bad(format!("the order's head is {:?}", order.first()));
                    }
                }
            }
        }
        (
            EventKind::GroupStable {
                group, generation, ..
            },
            _,
        ) => {
            if let Some(g) = state.groups.get(group) {
                if g.generation != *generation {
                    bad(format!("the group is at generation {}", g.generation));
                }
            }
        }
        (EventKind::GroupMemberJoined { group, member, .. }, _) => {
            if let Some(g) = state.groups.get(group) {
                if !g.members.contains(member) {
                    bad(format!("members {:?}", g.members));
                }
            }
        }
        (EventKind::GroupMemberRemoved { group, member, .. }, cause) => {
            if let Some(g) = state.groups.get(group) {
                if g.members.contains(member) {
                    bad(format!("members {:?}", g.members));
                }
            }
            if let Cause::Coordinator(CoordinatorCause::SessionExpired { session_timeout_ms }) =
                cause
            {
                let setting = world.settings().consumer_session_timeout_ms;
                if *session_timeout_ms != setting {
                    bad(format!("session.timeout.ms is {setting}"));
                }
            }
        }
        (
            EventKind::CoordinatorMoved {
                group,
                broker,
                generation,
                ..
            },
            _,
        ) => {
            if let Some(g) = state.groups.get(group) {
                if g.coordinator != Some(*broker) || g.generation != *generation {
                    bad(format!(
                        "the group's coordinator is {:?} at generation {}",
                        g.coordinator, g.generation
                    ));
                }
            }
        }
        (EventKind::ControllerResigned { broker, .. }, _)
            if state.brokers[broker].acts_as_controller =>
        {
            bad("it still acts as controller".into());
        }
        _ => {}
    }
}

/// Claims about the rest of the run: an offline partition whose cause says it waits for its
/// last ISR member gets that member back as its next leader (or an unclean election after
/// the setting changed); one whose cause says an election follows gets one.
fn check_after(events: &[Event], problems: &mut Vec<String>) {
    for (i, e) in events.iter().enumerate() {
        let EventKind::PartitionOffline { partition, .. } = &e.kind else {
            continue;
        };
        let Cause::Controller(ControllerCause::ReplicaOffline { done, .. }) = &e.cause else {
            continue;
        };
        let rest = &events[i + 1..];
        let next = rest.iter().position(|n| {
            matches!(&n.kind,
                EventKind::LeaderElected { partition: p, .. }
                | EventKind::LeaderElectionFailed { partition: p, .. } if p == partition)
        });
        match done {
            Offlined::LastLeader { broker } => {
                if let Some(k) = next {
                    if let EventKind::LeaderElected { leader, .. } = &rest[k].kind {
                        let config_changed = rest[..k]
                            .iter()
                            .any(|n| matches!(n.kind, EventKind::ConfigChanged { .. }));
                        if *leader != i64::from(*broker) && !config_changed {
                            problems.push(format!(
                                "{}: waits for broker {broker}, but {}",
                                e.line(),
                                rest[k].line()
                            ));
                        }
                    }
                }
            }
            Offlined::Leader { .. } => {
                let last = events.last().map_or(0, |l| l.time_ms);
                if next.is_none() && last > e.time_ms + 1_000 {
                    problems.push(format!("{}: no election follows", e.line()));
                }
            }
            Offlined::Follower => {}
        }
    }
}

/// Runs a scenario file's world.
fn check_scenario(name: &str, scenario: &Scenario) -> Vec<String> {
    check_run(name, &scenario.setup, &scenario.actions, scenario.until_ms)
}

/// A run of free play: its name, its actions and when it ends.
type Run = (&'static str, Vec<(u64, Command)>, u64);

/// Free play as the page opens (with two consumers), under every profile, through a
/// controller crash, two brokers lost and one back, and a controlled shutdown with the
/// automatic rebalance after the broker's return.
fn free_play_runs() -> Vec<String> {
    use crate::sim::{Command, Profile};
    use crate::view::setup::FreePlay;
    let mut problems = Vec::new();
    for profile in [Profile::V0_10, Profile::V2_0, Profile::V2_4, Profile::V3_9] {
        let start = FreePlay {
            profile,
            consumers: 2,
            ..FreePlay::default()
        }
        .start()
        .0;
        let runs: [Run; 3] = [
            (
                "controller crash",
                vec![(10_000, Command::Crash(1))],
                60_000,
            ),
            (
                "two brokers lost, one back",
                vec![
                    (10_000, Command::Crash(2)),
                    (12_000, Command::Crash(3)),
                    (40_000, Command::Start(2)),
                ],
                80_000,
            ),
            (
                "controlled shutdown and return",
                vec![(10_000, Command::Shutdown(2)), (30_000, Command::Start(2))],
                400_000,
            ),
        ];
        for (what, actions, until) in runs {
            let mut all = start.script.clone();
            all.extend(actions);
            all.sort_by_key(|(t, _)| *t);
            problems.extend(check_run(
                &format!("free play {}, {what}", profile.name()),
                &start.setup,
                &all,
                until,
            ));
        }
    }
    problems
}

/// Runs a world one step at a time, applying `actions` on the way, and checks every event as
/// it comes, then the claims about the rest of the run.
fn check_run(name: &str, setup: &Setup, actions: &[(u64, Command)], until_ms: u64) -> Vec<String> {
    let scenario = Until { until_ms };
    let mut world = World::new(setup);
    let mut actions = actions.iter().peekable();
    let mut problems = Vec::new();
    let mut seen = 0;
    let mut check_new = |world: &World, problems: &mut Vec<String>| {
        let events = world.events();
        if events.len() > seen {
            let state = world.state();
            let new: Vec<&Event> = events.iter().skip(seen).collect();
            // One step may state a partition twice; the last word is the one the state shows.
            let mut said: VecSet<&str> = VecSet::new();
            for e in new.iter().rev() {
                if let Some(p) = partition_of(&e.kind) {
                    if !said.insert(p) {
                        continue;
                    }
                }
                check_now(e, &state, world, problems);
            }
            seen = events.len();
        }
    };
    loop {
        let next_action = actions.peek().map(|(t, _)| *t);
        let next_item = world.next_due().filter(|t| *t <= scenario.until_ms);
        match (next_action, next_item) {
            (Some(a), item) if item.is_none_or(|i| a < i) && a <= scenario.until_ms => {
                let (_, cmd) = actions.next().expect("peeked");
                world.advance_to(a);
                world
                    .apply(cmd.clone())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            (_, Some(_)) => {
                world.step_one();
            }
            _ => break,
        }
        check_new(&world, &mut problems);
    }
    let events: Vec<Event> = world.events().iter().cloned().collect();
    check_after(&events, &mut problems);
    problems
        .into_iter()
        .map(|p| format!("{name}: {p}"))
        .collect()
}

/// The partition an event is about, if it is about one.
fn partition_of(kind: &EventKind) -> Option<&str> {
    match kind {
        EventKind::LeaderElected { partition, .. }
        | EventKind::LeaderEpochBumped { partition, .. }
        | EventKind::LeaderElectionFailed { partition, .. }
        | EventKind::PartitionOffline { partition, .. }
        | EventKind::IsrShrunk { partition, .. }
        | EventKind::IsrExpanded { partition, .. }
        | EventKind::IsrChangeAccepted { partition, .. } => Some(partition),
        _ => None,
    }
}

#[test]
fn every_cause_states_what_the_run_shows() {
    let mut problems = Vec::new();
    let all = scenarios();
    assert!(
        all.len() > 60,
        "the stories, lessons and scenarios are found"
    );
    for (name, scenario) in &all {
        problems.extend(check_scenario(name, scenario));
    }
    problems.extend(free_play_runs());
    assert!(
        problems.is_empty(),
        "{} cause(s) contradict the state:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

use super::codec::{self, decode, encode};
use super::*;
use crate::scenario::budget::{estimate, MAX_WORK};
use crate::scenario::{self, Runner};
use crate::sim::{Acks, Endpoint};
use crate::view::setup::FreePlay;

fn free(consumers: u32) -> Start {
    FreePlay {
        consumers,
        ..FreePlay::default()
    }
    .start()
    .0
}

fn trace(world: &World) -> String {
    world
        .events()
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

fn state(world: &World) -> String {
    serde_json::to_string(&world.state()).unwrap()
}

fn stream() -> Command {
    Command::Produce {
        topic: "orders".into(),
        partition: 1,
        records: None,
        acks: Acks::All,
        rate_per_s: Some(20),
        for_ms: None,
    }
}

/// A session driven by hand: a stream, a crash, a restart, a consumer leaving.
fn driven() -> Session {
    let mut s = Session::new(free(2));
    s.seek(6_000);
    s.apply(stream()).unwrap();
    s.seek(9_000);
    s.apply(Command::Crash(2)).unwrap();
    s.seek(31_000);
    s.apply(Command::Start(2)).unwrap();
    s.seek(40_000);
    s.apply(Command::Leave {
        group: "my-group".into(),
        member: "c1".into(),
    })
    .unwrap();
    s.seek(52_345);
    s
}

#[test]
fn seeking_back_and_forth_shows_exactly_the_state_of_that_time() {
    let mut s = driven();
    let end_state = state(s.world());
    let end_trace = trace(s.world());
    // A plain run with the same commands.
    let mut plain = Session::new(free(2));
    plain.recorded = s.recorded().to_vec();
    for t in [0, 1, 4_999, 5_000, 9_000, 17_250, 31_000, 44_444] {
        let mut p = plain.probe();
        p.advance_plain(t);
        s.seek(t);
        assert_eq!(s.now_ms(), t);
        assert_eq!(state(s.world()), state(&p.now.world), "state at {t}");
        assert_eq!(trace(s.world()), trace(&p.now.world), "events at {t}");
        assert!(!s.world().events().iter().any(|e| e.time_ms > t));
    }
    s.seek(52_345);
    assert_eq!(state(s.world()), end_state);
    assert_eq!(trace(s.world()), end_trace);
    assert_eq!(s.end_ms(), 52_345);
    assert!(s.fork().is_none(), "seeking is not acting");
}

#[test]
fn acting_in_the_past_forks_and_the_fork_can_be_undone() {
    let mut s = driven();
    let end_trace = trace(s.world());
    s.seek(20_000);
    assert!(s.in_past());
    assert_eq!(s.ahead().len(), 2, "the restart and the leave lie ahead");
    s.apply(Command::Crash(3)).unwrap();
    let fork = s.fork().expect("a fork").clone();
    assert_eq!(fork.at_ms, 20_000);
    assert_eq!(fork.dropped.len(), 2);
    assert_eq!(fork.old_end_ms, 52_345);
    assert_eq!(s.end_ms(), 20_000);
    assert_eq!(s.recorded().len(), 3);
    assert_eq!(s.recorded()[2], (20_000, Command::Crash(3)));
    s.seek(30_000);
    assert_eq!(s.end_ms(), 30_000);
    assert!(!trace(s.world()).is_empty());
    assert!(s.undo_fork());
    assert_eq!(s.now_ms(), 20_000);
    assert_eq!(s.end_ms(), 52_345);
    assert_eq!(s.recorded().len(), 4);
    s.seek(52_345);
    assert_eq!(trace(s.world()), end_trace, "the old future is back");
    assert!(!s.undo_fork(), "one undo per fork");
}

#[test]
fn a_refused_command_changes_nothing_and_does_not_fork() {
    let mut s = driven();
    s.seek(10_000);
    let before = state(s.world());
    let err = s.apply(Command::Crash(2)).unwrap_err();
    assert!(err.contains("broker 2"), "{err}");
    assert!(s.fork().is_none());
    assert_eq!(s.recorded().len(), 4);
    assert_eq!(state(s.world()), before);
    assert_eq!(s.end_ms(), 52_345);
}

#[test]
fn steps_move_from_event_to_event() {
    let mut s = driven();
    s.seek(9_000);
    let back = s.step_back().expect("an earlier event");
    assert!(back < 9_000);
    assert!(s.world().events().iter().any(|e| e.time_ms == back));
    assert!(s.world().events().iter().all(|e| e.time_ms <= back));
    let fwd = s.step_forward().expect("a later event");
    assert!(fwd > back);
    assert!(s.world().events().iter().any(|e| e.time_ms == fwd));
    let mut s0 = Session::new(free(0));
    let second = s0.step_forward().expect("the brokers start");
    let first = s0.world().events()[0].time_ms;
    assert!(second > 0 && first <= second);
    s0.seek(first);
    assert_eq!(s0.step_back(), None, "nothing before the first event");
}

#[test]
fn next_event_of_a_quiet_crash_is_the_session_expiry() {
    // A crashed broker: nothing is logged until ZooKeeper expires its session, which the
    // step finds instead of stopping at the heartbeats in between.
    let mut s = Session::new(free(0));
    s.seek(8_000);
    s.apply(Command::Crash(3)).unwrap();
    let crashed_at = s.now_ms();
    let events = s.world().events().len();
    let t = s.step_forward().unwrap();
    assert!(t > crashed_at);
    assert!(s.world().events().len() > events);
    assert!(s
        .world()
        .events()
        .iter()
        .skip(events)
        .all(|e| e.time_ms == t));
}

#[test]
fn a_long_session_keeps_few_snapshots_and_each_spacing_divides_the_next() {
    let mut s = Session::new(free(0));
    s.seek(5 * 3_600_000);
    let times = s.snapshot_times();
    // 12 in the last 2 minutes, 8 to 10 minutes, 10 to an hour, 12 to four hours, 2 to five.
    assert!(times.len() <= 46, "{} snapshots", times.len());
    assert!(times.len() >= 42, "{} snapshots", times.len());
    let end = s.end_ms();
    for w in times.windows(2) {
        assert!(w[1] - w[0] <= spacing_for_age(end - w[1]).max(1_800_000));
    }
    let spacings: Vec<u64> = [0, 200_000, 1_000_000, 5_000_000, 20_000_000]
        .into_iter()
        .map(spacing_for_age)
        .collect();
    for w in spacings.windows(2) {
        assert!(w[1] > w[0] && w[1] % w[0] == 0, "{spacings:?}");
    }
    s.seek(2 * 3_600_000 + 1_234);
    let mut p = Session::new(free(0));
    p.seek(2 * 3_600_000 + 1_234);
    assert_eq!(state(s.world()), state(p.world()));
}

#[test]
fn snapshots_are_thinned_as_they_age() {
    let mut s = Session::new(free(0));
    s.seek(3_600_000);
    let times = s.snapshot_times();
    assert!(times.len() <= 35, "{} snapshots", times.len());
    assert_eq!(times[0], 0);
    let end = s.end_ms();
    for w in times.windows(2) {
        assert!(w[1] - w[0] <= spacing_for_age(end - w[1]).max(300_000));
    }
    // The last two minutes keep every 10 s, the ten before every minute.
    assert!(times.contains(&(3_600_000 - 10_000)));
    assert!(times.contains(&(3_600_000 - 110_000)));
    assert!(times.contains(&(3_600_000 - 540_000)));
    assert!(!times.contains(&(3_600_000 - 530_000)));
    // Seeking into old history still shows exactly that time.
    s.seek(1_234_567);
    let mut p = Session::new(free(0));
    p.seek(1_234_567);
    assert_eq!(state(s.world()), state(p.world()));
}

#[test]
fn a_link_reopens_the_same_session() {
    let mut s = driven();
    s.seek(33_000);
    let link = encode(&s.start().base, s.now_ms(), s.end_ms(), s.recorded());
    assert!(
        link.starts_with(&format!(
            "v=1&m={}&consumers=2&t=33000&e=52345&c=",
            super::MODEL_VERSION
        )),
        "{link}"
    );
    let read = decode(&link).unwrap();
    assert_eq!(read.base, vec![("consumers".to_string(), "2".to_string())]);
    assert_eq!(read.model_note(), None);
    let reopened = Session::replay(free(2), read.commands, read.now_ms, read.end_ms).unwrap();
    assert_eq!(reopened.now_ms(), 33_000);
    assert_eq!(reopened.end_ms(), 52_345);
    assert_eq!(state(reopened.world()), state(s.world()));
    assert_eq!(trace(reopened.world()), trace(s.world()));
}

#[test]
fn twenty_commands_fit_in_a_thousand_characters() {
    let mut s = Session::new(free(3));
    s.seek(6_000);
    s.apply(stream()).unwrap();
    let mut t = 6_000;
    for i in 0..19 {
        t += 30_000;
        s.seek(t);
        let b = 1 + (i / 4) % 3;
        let cmd = match i % 4 {
            0 => Command::StallFetcher {
                broker: b,
                topic: Some("orders".into()),
                partition: Some(1),
            },
            1 => Command::ResumeFetcher {
                broker: b,
                topic: Some("orders".into()),
                partition: Some(1),
            },
            2 => Command::Crash(b),
            _ => Command::Start(b),
        };
        s.apply(cmd).unwrap();
    }
    assert_eq!(s.recorded().len(), 20);
    let link = encode(&s.start().base, s.now_ms(), s.end_ms(), s.recorded());
    assert!(link.len() <= 1_000, "{} characters: {link}", link.len());
}

#[test]
fn every_command_survives_the_link() {
    let commands = vec![
        Command::Start(1),
        Command::Crash(2),
        Command::Shutdown(3),
        Command::ExpireSession(4),
        Command::Pause {
            broker: 5,
            for_ms: 20_000,
        },
        Command::Cut(Endpoint::Broker(1), Endpoint::Zk),
        Command::Heal(Endpoint::Zk, Endpoint::Broker(2)),
        Command::Produce {
            topic: "a,b;c&d=e%f g/ü".into(),
            partition: 7,
            records: Some(100),
            acks: Acks::One,
            rate_per_s: None,
            for_ms: Some(9),
        },
        Command::StopProducing {
            topic: "orders".into(),
            partition: 0,
        },
        Command::StallFetcher {
            broker: 2,
            topic: None,
            partition: None,
        },
        Command::ResumeFetcher {
            broker: 2,
            topic: Some("orders".into()),
            partition: None,
        },
        Command::SetConfig {
            key: "unclean.leader.election.enable".into(),
            value: serde_json::json!(true),
            topic: Some("orders".into()),
        },
        Command::SetConfig {
            key: "x".into(),
            value: serde_json::json!({"a": [1, "b,c"]}),
            topic: None,
        },
        Command::PreferredElection {
            topic: None,
            partition: None,
        },
        Command::Reassign {
            topic: "orders".into(),
            partition: 2,
            replicas: vec![3, 1, 2],
        },
        Command::Join {
            group: "my-group".into(),
            member: "c1".into(),
        },
        Command::Leave {
            group: "g".into(),
            member: "m m".into(),
        },
        Command::CrashConsumer {
            group: "g".into(),
            member: "c2".into(),
        },
        Command::DeleteController,
    ];
    let timed: Vec<(u64, Command)> = commands
        .into_iter()
        .enumerate()
        .map(|(i, c)| (i as u64 * 10, c))
        .collect();
    let base = vec![("story".to_string(), "a b&c".to_string())];
    let link = encode(&base, 5, 5, &timed);
    let read = decode(&link).unwrap();
    assert_eq!(read.commands, timed);
    assert_eq!(read.base, base);
    // Each also survives the scenario format.
    for (at, cmd) in &timed {
        let v = crate::scenario::to_action(*at, cmd);
        let spec: scenario::ActionSpec = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(spec.at_ms, *at);
        assert_eq!(
            &spec
                .to_command(&crate::sim::Settings::default())
                .unwrap_or_else(|e| panic!("{v}: {e}")),
            cmd
        );
    }
}

#[test]
fn bad_links_get_one_message_each() {
    let cases: [(&str, &str); 11] = [
        ("t=5", "no format version"),
        ("v=2&m=1&t=5", "format 2"),
        ("v=1&t=5", "no model version"),
        ("v=1&m=1", "names no time"),
        ("v=1&m=1&t=x", "not a whole number"),
        ("v=1&m=1&t=99999999999", "past the longest session"),
        ("v=1&m=1&t=5&c=10c2;5c3", "before the previous command"),
        ("v=1&m=1&t=5&c=10q2", "not a command letter"),
        ("v=1&m=1&t=5&c=10p2", "takes 2 argument"),
        ("v=1&m=1&t=5&c=c2", "does not start with its time"),
        ("v=1&m=1&story=%zz&t=5", "two hexadecimal digits"),
    ];
    for (link, want) in cases {
        let err = decode(link).unwrap_err();
        assert!(err.contains(want), "{link}: {err}");
    }
    let err = decode(&"a".repeat(codec::MAX_LINK_CHARS + 1)).unwrap_err();
    assert!(err.contains("characters long"), "{err}");
    let old = decode("v=1&m=0&t=0").unwrap();
    assert!(old
        .model_note()
        .unwrap()
        .contains("older version of the model"));
}

#[test]
fn a_link_whose_command_cannot_apply_is_refused_with_its_place() {
    let err = Session::replay(free(0), vec![(1_000, Command::Crash(7))], 2_000, 2_000).unwrap_err();
    assert!(err.starts_with("command 1 (crash broker 7 at "), "{err}");
    let err = Session::replay(
        free(0),
        vec![(9_000, Command::Crash(1)), (1_000, Command::Crash(2))],
        9_000,
        9_000,
    )
    .unwrap_err();
    assert!(err.contains("time order"), "{err}");
}

#[test]
fn base64url_round_trips() {
    for n in 0..40 {
        let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
        assert_eq!(
            codec::from_base64url(&codec::base64url(&bytes)).unwrap(),
            bytes
        );
    }
    assert_eq!(codec::base64url(b"Kafka"), "S2Fma2E");
    assert!(codec::from_base64url("a").is_err());
    assert!(codec::from_base64url("ab*c").is_err());
}

fn run_file(text: &str) -> World {
    let sc = scenario::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut r = Runner::new(&sc);
    r.advance_to(sc.until_ms).unwrap();
    r.world
}

#[test]
fn an_exported_free_play_session_runs_to_the_same_trace() {
    let mut s = driven();
    s.seek(30_000);
    let text = s.export();
    let world = run_file(&text);
    s.seek(s.end_ms());
    assert_eq!(world.now(), s.now_ms());
    assert_eq!(trace(&world), trace(s.world()));
    assert_eq!(state(&world), state(s.world()));
}

#[test]
fn an_exported_story_leaves_out_its_skipped_steps_and_runs_to_the_same_trace() {
    let text = include_str!("../../www/scenarios/controller-crash.json");
    let sc = scenario::parse(text).unwrap();
    let start = Start::from_scenario(vec![("story".into(), "controller-crash".into())], &sc, text);
    let (first_at, first) = sc.actions[0].clone();
    let mut s = Session::new(start);
    // The learner does the story's first step just before it: the story's own is skipped.
    s.seek(first_at - 1);
    s.apply(first.clone()).unwrap();
    s.seek(first_at + 2_000);
    let skipped = s.take_skipped();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(s.skipped_script(), &[0]);
    let text = s.export();
    assert!(!text.contains("\"expect\""));
    let world = run_file(&text);
    assert_eq!(trace(&world), trace(s.world()));
}

/// Steps that take a session forward by small and large leaps, with commands, past several
/// snapshot times, and back.
fn drive(s: &mut Session, hold_until_ms: Option<u64>) -> Vec<(u64, String, String)> {
    let mut seen = Vec::new();
    s.hold_snapshots(hold_until_ms.is_some());
    for (i, t) in [
        16u64, 33, 2_000, 9_999, 10_000, 10_001, 24_000, 31_000, 47_500, 61_000,
    ]
    .into_iter()
    .enumerate()
    {
        if hold_until_ms.is_some_and(|h| t >= h) {
            s.hold_snapshots(false);
        }
        s.seek(t);
        match i {
            3 => s.apply(stream()).unwrap(),
            5 => s.apply(Command::Crash(2)).unwrap(),
            7 => s.apply(Command::Start(2)).unwrap(),
            _ => {}
        }
        seen.push((t, state(s.world()), trace(s.world())));
    }
    for t in [45_000, 12_345, 9_000, 0, 33_333, 61_000] {
        s.seek(t);
        seen.push((t, state(s.world()), trace(s.world())));
    }
    seen
}

/// Holding the snapshots (as the page does until the second part of its module has arrived)
/// changes nothing the session shows: the same world at every moment, going forward with
/// commands and seeking back into the stretch held, which replays from the snapshot before.
/// Released, the session takes the snapshots due from then on. And a session's first
/// snapshot, a world of its own, is the world it starts from.
#[test]
fn held_snapshots_change_nothing_but_how_far_a_seek_replays() {
    let mut taken = Session::new(free(2));
    let plain = drive(&mut taken, None);
    for hold in [Some(0), Some(30_000), Some(u64::MAX)] {
        let mut held = Session::new(free(2));
        assert_eq!(drive(&mut held, hold), plain, "held until {hold:?}");
        let times = held.snapshot_times();
        match hold {
            Some(u64::MAX) => assert_eq!(times, vec![0]),
            Some(30_000) => {
                assert!(!times.iter().any(|t| (1..30_000).contains(t)), "{times:?}");
                assert!(times.contains(&40_000), "{times:?}");
            }
            _ => assert_eq!(times, taken.snapshot_times()),
        }
    }
    let s = Session::new(free(2));
    assert_eq!(
        format!("{:?}", s.snapshots[0].world),
        format!("{:?}", World::new(&free(2).setup).pack())
    );
}

// The work budget (`scenario::budget`) on the page's sessions: free play's largest
// cluster, and a link to a session too long to replay.

#[test]
fn an_hour_of_the_largest_page_cluster_with_four_streams_fits() {
    // The loading benchmark's session (www/scripts/bench-seek.mjs): its link replays it all.
    let start = FreePlay {
        brokers: 9,
        partitions: 12,
        consumers: 6,
        ..FreePlay::default()
    }
    .start()
    .0;
    let mut commands = start.script.clone();
    for partition in [1, 4, 7, 10] {
        commands.push((
            10_000,
            crate::sim::Command::Produce {
                topic: "orders".into(),
                partition,
                records: None,
                acks: crate::sim::Acks::All,
                rate_per_s: Some(20),
                for_ms: None,
            },
        ));
    }
    let hour = estimate(&start.setup, &commands, 3_600_000).total();
    assert!(hour < MAX_WORK, "{hour}");
    assert!(estimate(&start.setup, &commands, 86_400_000).total() > MAX_WORK);
}

#[test]
fn a_link_to_a_session_too_long_to_replay_is_refused_before_it_runs() {
    let start = |brokers| -> Start {
        FreePlay {
            brokers,
            partitions: 12,
            ..FreePlay::default()
        }
        .start()
        .0
    };
    let Err(e) = Session::replay(start(9), Vec::new(), 86_400_000, 86_400_000) else {
        panic!("a day of 9 brokers and 12 partitions is refused");
    };
    assert!(
        e.starts_with("this run would take too long to simulate"),
        "{e}"
    );
    assert!(e.ends_with("or a shorter session"), "{e}");
    assert!(Session::replay(start(3), Vec::new(), 60_000, 60_000).is_ok());
}

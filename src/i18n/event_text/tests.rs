//! Every event of every story, lesson and free play reads as a plain sentence in both
//! languages, every key event says why in plain words, and none of it names a source, a KIP,
//! a czxid or a hash value.

use super::*;
use crate::i18n::{placeholders, Catalogue};
use crate::scenario::{parse_value, Runner};
use std::rc::Rc;

const ZH: &str = include_str!("../../../www/i18n/zh-CN.json");

fn zh() -> Tr {
    Tr::new(
        Lang::ZhCn,
        Some(Rc::new(Catalogue::parse(ZH).expect("zh-CN.json reads"))),
    )
}

/// The events of every story, lesson and checked scenario, and of free play with two
/// consumers and its controller crashed.
fn all_events() -> Vec<Event> {
    let mut out = Vec::new();
    for dir in ["www/scenarios", "www/lessons", "tests/scenarios"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the folder reads")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            // The lesson index lists lessons; it is no scenario.
            .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
            .collect();
        files.sort();
        for path in files {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).expect("reads"))
                    .expect("JSON");
            let v = if v.get("steps").is_some() {
                v["scenario"].clone()
            } else {
                v
            };
            let s = parse_value(v).expect("the scenario reads");
            let mut run = Runner::new(&s);
            run.advance_to(s.until_ms).expect("the scenario runs");
            out.extend(run.world.events().iter().cloned());
        }
    }
    let start = crate::view::setup::FreePlay {
        consumers: 2,
        ..Default::default()
    }
    .start()
    .0;
    let mut world = crate::sim::World::new(&start.setup);
    for (at, cmd) in start.script {
        world.advance_to(at);
        world.apply(cmd).expect("a join applies");
    }
    world.advance_to(10_000);
    world
        .apply(crate::sim::Command::Crash(1))
        .expect("the crash applies");
    world.advance_to(60_000);
    out.extend(world.events().iter().cloned());
    out
}

fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Words a plain sentence must not hold: sources, KIPs, issue numbers, czxids, hash values.
const NOT_PLAIN: [&str; 8] = [
    "KIP-",
    "KAFKA-",
    "czxid",
    "0x",
    "hash",
    "StateMachine",
    "Controller.",
    ".scala",
];

#[test]
fn every_event_reads_as_a_plain_sentence_in_both_languages() {
    let events = all_events();
    let (en, zh) = (Tr::en(), zh());
    let mut kinds = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for e in &events {
        kinds.insert(e.kind.name());
        for (tr, lang) in [(&en, "en"), (&zh, "zh-CN")] {
            let text = what(&e.kind, tr);
            let because = why(e, tr);
            for t in std::iter::once(&text).chain(because.iter()) {
                if t.trim().is_empty() || !placeholders(t).is_empty() {
                    problems.push(format!("{lang}: {}: {t:?}", e.line()));
                }
                if NOT_PLAIN.iter().any(|w| t.contains(w)) {
                    problems.push(format!("{lang}: not plain: {t:?}"));
                }
                if lang == "zh-CN" && !is_chinese(t) {
                    problems.push(format!("zh-CN: not Chinese: {t:?}"));
                }
            }
        }
        // A key event says why, except a leader election that found none and a broken
        // invariant (whose detail is the why).
        let why_expected = e.kind.is_key()
            && !matches!(
                e.kind,
                EventKind::InvariantViolated { .. } | EventKind::LeaderElected { leader: -1, .. }
            );
        if why_expected && why(e, &en).is_none() {
            problems.push(format!("a key event without its why: {}", e.line()));
        }
        if !e.kind.is_key() && why(e, &en).is_some() {
            problems.push(format!("a minor event with a why: {}", e.line()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The runs show most kinds; the match in `what` covers the rest at compile time.
    assert!(
        kinds.len() >= 40,
        "only {} kinds seen: {kinds:?}",
        kinds.len()
    );
}

#[test]
fn sentences_fill_the_events_figures() {
    let e = Event {
        time_ms: 27_176,
        kind: EventKind::LeaderElected {
            partition: "orders-0".into(),
            leader: 2,
            leader_epoch: 2,
            isr: vec![2, 3],
            reason: ElectionReason::Offline,
            controller: 3,
            controller_epoch: 2,
        },
        cause: Cause::from(ControllerCause::NewPartition),
    };
    assert_eq!(
        what(&e.kind, &Tr::en()),
        "orders-0: broker 2 is the leader now (leader epoch 2); ISR [2, 3]."
    );
    let z = what(&e.kind, &zh());
    assert!(
        z.contains("orders-0") && z.contains("[2、3]") && z.contains("首领"),
        "{z}"
    );
    assert_eq!(
        why(&e, &Tr::en()).as_deref(),
        Some("Its leader was lost: the controller picked the first in-sync replica, in assignment order, that is still alive.")
    );
    assert_eq!(tag(&e.kind, &Tr::en()).as_deref(), Some("offline election"));
    // The detail is the cause's own text.
    assert_eq!(cause_text(&e.cause, &Tr::en()), e.cause.english());
}

#[test]
fn invariant_names_read_in_the_readers_language() {
    use crate::sim::invariants as inv;
    let names = [
        inv::ONE_CONTROLLER_PER_EPOCH,
        inv::EPOCHS_ONLY_GROW,
        inv::ONE_ACTING_CONTROLLER,
        inv::LEADER_EPOCHS_ONLY_GROW,
        inv::LEADER_IN_ISR,
        inv::HW_WITHIN_ISR,
        inv::ISR_WITHIN_ASSIGNMENT,
        inv::ONE_GROUP_LEADER,
    ];
    let (en, zh) = (Tr::en(), zh());
    let mut seen = Vec::new();
    for name in names {
        let msg = invariant_msg(name).unwrap_or_else(|| panic!("{name} has no message"));
        // The English is the core's name, byte for byte.
        assert_eq!(msg.en(), name);
        let kind = EventKind::InvariantViolated {
            invariant: name.to_string(),
            detail: "seen".to_string(),
        };
        assert_eq!(
            what(&kind, &en),
            format!("A safety rule is broken: {name}.")
        );
        let z = what(&kind, &zh);
        assert!(!z.contains(name), "{z}");
        assert!(!seen.contains(&msg.key), "{} twice", msg.key);
        seen.push(msg.key);
    }
    assert_eq!(invariant_name("no such rule", &zh), "no such rule");
    let kind = EventKind::InvariantViolated {
        invariant: inv::ONE_ACTING_CONTROLLER.to_string(),
        detail: String::new(),
    };
    assert_eq!(
        what(&kind, &zh),
        "安全规则被打破：只有当前控制器才能变更首领。"
    );
}

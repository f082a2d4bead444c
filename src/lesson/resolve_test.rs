//! Resolving lessons (each probe's answer and deciding event from the run), refusing the
//! questions a run cannot decide, and grading answers.

use super::parse_test::{asking, lesson, lesson_over, T};
use super::{grade, load, never_label, parse, report, Answer, Lang, Measured, Resolution};

/// Parses and resolves; panics with the message when either fails.
fn resolve(text: &str) -> Resolution {
    let l = parse(text).unwrap_or_else(|e| panic!("{e}"));
    l.resolve().unwrap_or_else(|e| panic!("{e}"))
}

/// The message resolution gives (the lesson must parse).
fn refusal(text: &str) -> String {
    let l = parse(text).unwrap_or_else(|e| panic!("{e}"));
    match l.resolve() {
        Ok(r) => panic!(
            "resolves, to {:?}",
            r.answers
                .iter()
                .map(|a| a.value.to_string())
                .collect::<Vec<_>>()
        ),
        Err(e) => e.to_string(),
    }
}

/// The kind and time of a resolved answer's deciding event.
fn decider(r: &Resolution, step: usize) -> Option<(&'static str, u64)> {
    r.for_step(step)
        .unwrap()
        .decider
        .as_ref()
        .map(|d| (d.event.kind.name(), d.event.time_ms))
}

const NODE: &str = r#""kind": "node""#;
const ZERO: &str = r#""kind": "number", "tolerance": 0"#;

#[test]
fn state_probes_give_the_state_and_the_event_that_set_it() {
    // SCENARIO: broker 1 is controller and leads T-0; brokers 1 and 3 crash at 10 s; their
    // sessions expire at 24.5 s (broker 3) and 27.5 s (broker 1), when broker 2 becomes
    // controller, moves the dead replicas offline and elects itself for T-0. T-1, only on
    // broker 3, stays offline. c1 and c2 join g, whose coordinator is broker 2.
    let steps = [
        asking(
            5000,
            &format!(r#"{NODE}, "probe": {{"what": "controller"}}"#),
        ),
        asking(
            6000,
            &format!(r#"{ZERO}, "probe": {{"what": "controller_epoch"}}"#),
        ),
        asking(
            8000,
            &format!(r#"{NODE}, "probe": {{"what": "group.coordinator", "group": "g"}}"#),
        ),
        asking(
            9000,
            &format!(
                r#""kind": "choice", "options": [{{"label": {T}, "value": "c1"}}, {{"label": {T}, "value": "c2"}}], "probe": {{"what": "group.leader", "group": "g"}}"#
            ),
        ),
        asking(
            9500,
            &format!(r#"{ZERO}, "probe": {{"what": "group.generation", "group": "g"}}"#),
        ),
        asking(
            30000,
            &format!(r#"{NODE}, "probe": {{"what": "controller"}}"#),
        ),
        asking(
            31000,
            &format!(
                r#""kind": "choice", "options": [{{"label": {T}, "value": [2, 3]}}, {{"label": {T}, "value": [2]}}], "probe": {{"what": "partition.isr", "partition": "T-0"}}"#
            ),
        ),
        asking(
            32000,
            &format!(r#"{NODE}, "probe": {{"what": "partition.leader", "partition": "T-0"}}"#),
        ),
        asking(
            33000,
            &format!(
                r#"{ZERO}, "probe": {{"what": "partition.leader_epoch", "partition": "T-0"}}"#
            ),
        ),
        asking(
            34000,
            &format!(
                r#"{ZERO}, "probe": {{"what": "partition.lost_records", "partition": "T-0"}}"#
            ),
        ),
    ];
    let r = resolve(&lesson(&steps.join(",")));
    assert_eq!(r.answers.len(), 10);
    let value = |s: usize| r.for_step(s).unwrap().value.clone();
    assert_eq!(value(0), Measured::Broker(1));
    assert_eq!(decider(&r, 0), Some(("controller_elected", 46)));
    assert_eq!(value(1), Measured::Number(1.0));
    assert_eq!(decider(&r, 1), Some(("controller_elected", 46)));
    assert_eq!(value(2), Measured::Broker(2));
    assert_eq!(
        decider(&r, 2).map(|d| d.0),
        Some("leader_elected"),
        "the coordinator is the leader of the group's __consumer_offsets partition"
    );
    assert_eq!(value(3), Measured::Member("c1".into()));
    assert_eq!(r.for_step(3).unwrap().option, Some(0));
    assert_eq!(decider(&r, 3), Some(("group_leader_chosen", 7016)));
    assert_eq!(value(4), Measured::Number(1.0));
    assert_eq!(decider(&r, 4), Some(("group_leader_chosen", 7016)));
    assert_eq!(value(5), Measured::Broker(2));
    assert_eq!(decider(&r, 5), Some(("controller_elected", 27533)));
    assert_eq!(value(6), Measured::Brokers(vec![2]));
    assert_eq!(r.for_step(6).unwrap().option, Some(1));
    assert_eq!(
        decider(&r, 6),
        Some(("partition_offline", 27592)),
        "the controller's offline write shrank the ISR to [2]; the election kept it"
    );
    assert_eq!(value(7), Measured::Broker(2));
    assert_eq!(decider(&r, 7), Some(("leader_elected", 27605)));
    assert_eq!(value(8), Measured::Number(3.0));
    assert_eq!(decider(&r, 8), Some(("leader_elected", 27605)));
    assert_eq!(value(9), Measured::Number(0.0));
    assert_eq!(
        decider(&r, 9),
        None,
        "nothing was lost: no event decided it"
    );
    // The deciding event's index points into the run's history.
    let d = r.for_step(7).unwrap().decider.as_ref().unwrap();
    let l = parse(&lesson(&steps.join(","))).unwrap();
    let mut runner = crate::scenario::Runner::new(&l.scenario);
    runner.advance_to(32000).unwrap();
    assert_eq!(runner.world.events().get(d.index), Some(&d.event));
    assert_eq!(
        resolve(&lesson(&steps.join(","))),
        r,
        "resolution is deterministic"
    );
}

#[test]
fn event_probes_give_a_time_or_yes_and_no() {
    let yes_no = format!(
        r#""kind": "choice", "options": [{{"label": {T}, "value": true}}, {{"label": {T}, "value": false}}]"#
    );
    let steps = [
        asking(
            27560,
            r#""kind": "number", "tolerance": 2, "probe": {"what": "event_time", "from_ms": 10000, "event": {"kind": "controller_elected", "epoch": 2}}"#,
        ),
        asking(
            28000,
            r#""kind": "number", "tolerance": 50, "probe": {"what": "event_time", "from_ms": 27000, "event": {"kind": "leader_election_failed", "partition": "T-1"}, "unit": "ms"}"#,
        ),
        asking(
            35000,
            &format!(
                r#"{yes_no}, "probe": {{"what": "event_happened", "event": {{"kind": "leader_imbalance_checked", "controller": 2}}}}"#
            ),
        ),
        asking(
            36000,
            &format!(
                r#"{yes_no}, "probe": {{"what": "event_happened", "from_ms": 1000, "at_ms": 35500, "event": {{"kind": "records_lost"}}}}"#
            ),
        ),
    ];
    let r = resolve(&lesson(&steps.join(",")));
    assert_eq!(r.for_step(0).unwrap().value, Measured::Number(17.533));
    assert_eq!(decider(&r, 0), Some(("controller_elected", 27533)));
    assert_eq!(r.for_step(1).unwrap().value, Measured::Number(601.0));
    assert_eq!(decider(&r, 1), Some(("leader_election_failed", 27601)));
    assert_eq!(r.for_step(2).unwrap().value, Measured::YesNo(true));
    assert_eq!(r.for_step(2).unwrap().option, Some(0));
    assert_eq!(decider(&r, 2), Some(("leader_imbalance_checked", 32563)));
    assert_eq!(r.for_step(3).unwrap().value, Measured::YesNo(false));
    assert_eq!(r.for_step(3).unwrap().option, Some(1));
    assert_eq!(
        decider(&r, 3),
        None,
        "no event decides that nothing happened"
    );
}

#[test]
fn the_first_member_leads_from_when_it_is_added() {
    let r = resolve(&lesson(&asking(
        3000,
        r#""kind": "choice", "options": [{"label": {"en": "a", "zh-CN": "甲"}, "value": "c1"}, {"label": {"en": "b", "zh-CN": "乙"}, "value": "c2"}], "probe": {"what": "group.leader", "group": "g"}"#,
    )));
    assert_eq!(r.for_step(0).unwrap().value, Measured::Member("c1".into()));
    assert_eq!(decider(&r, 0), Some(("member_joined", 1016)));
}

#[test]
fn lost_records_are_decided_by_the_loss() {
    let unclean = include_str!("../../www/scenarios/unclean-election.json");
    let r = resolve(&lesson_over(
        unclean,
        &asking(
            70000,
            r#""kind": "number", "tolerance": 100, "probe": {"what": "partition.lost_records", "partition": "orders-0"}"#,
        ),
    ));
    assert_eq!(r.for_step(0).unwrap().value, Measured::Number(2395.0));
    assert_eq!(decider(&r, 0), Some(("records_lost", 68278)));
}

#[test]
fn a_question_the_run_cannot_decide_is_refused() {
    let one = |at: u64, q: &str| refusal(&lesson(&asking(at, q)));
    assert_eq!(
        one(20, &format!(r#"{NODE}, "probe": {{"what": "controller"}}"#)),
        "steps[0].question.probe: at 20 ms there is no controller (/controller does not exist), so the run gives no broker: the run cannot decide the answer"
    );
    assert_eq!(
        one(500, &format!(r#"{NODE}, "probe": {{"what": "partition.leader", "partition": "T-0"}}"#)),
        "steps[0].question.probe: at 500 ms T-0 does not exist yet (the controller has not created it): the run cannot decide the answer"
    );
    assert_eq!(
        one(30000, &format!(r#"{NODE}, "probe": {{"what": "partition.leader", "partition": "T-1"}}"#)),
        "steps[0].question.probe: at 30000 ms T-1 is offline (leader -1): it has no leader to ask about: the run cannot decide the answer"
    );
    assert_eq!(
        one(500, &format!(r#"{NODE}, "probe": {{"what": "group.coordinator", "group": "g"}}"#)),
        "steps[0].question.probe: at 500 ms no broker coordinates g (no consumer has joined yet, or the leader of its __consumer_offsets partition is down): the run cannot decide the answer"
    );
    let emptied = lesson_over(
        r#"{"version": 1, "brokers": [1], "topics": [{"name": "T", "replicas": [[1]]}],
            "config": {"offsets.topic.num.partitions": 1, "offsets.topic.replication.factor": 1},
            "groups": [{"id": "g", "topics": ["T"]}],
            "actions": [{"at_ms": 1000, "do": "join", "group": "g", "member": "c1"},
                        {"at_ms": 2000, "do": "join", "group": "g", "member": "c2"},
                        {"at_ms": 9000, "do": "leave", "group": "g", "member": "c1"},
                        {"at_ms": 9000, "do": "leave", "group": "g", "member": "c2"}]}"#,
        &[
            asking(3000, r#""kind": "choice", "options": [{"label": {"en": "a", "zh-CN": "甲"}, "value": "c1"}, {"label": {"en": "b", "zh-CN": "乙"}, "value": "c2"}], "probe": {"what": "group.leader", "group": "g"}"#),
            asking(12000, r#""kind": "choice", "options": [{"label": {"en": "a", "zh-CN": "甲"}, "value": "c1"}, {"label": {"en": "b", "zh-CN": "乙"}, "value": "c2"}], "probe": {"what": "group.leader", "group": "g"}"#),
        ]
        .join(","),
    );
    assert_eq!(
        refusal(&emptied),
        "steps[1].question.probe: at 12000 ms g has no leader (it has no members): the run cannot decide the answer"
    );
    assert_eq!(
        one(800, &format!(r#"{ZERO}, "probe": {{"what": "group.generation", "group": "g"}}"#)),
        "steps[0].question.probe: at 800 ms no coordinator holds g (no consumer has joined yet, or its coordinator is down): the run cannot decide the answer"
    );
    assert_eq!(
        one(30000, r#""kind": "choice", "options": [{"label": {"en": "a", "zh-CN": "甲"}, "value": 1}, {"label": {"en": "b", "zh-CN": "乙"}, "value": 3}], "probe": {"what": "controller"}"#),
        "steps[0].question.options: the run gives broker 2 at 30000 ms, which is none of the options (broker 1, broker 3): add it, or ask about another moment"
    );
    assert_eq!(
        one(30000, r#""kind": "number", "tolerance": 20, "probe": {"what": "event_time", "from_ms": 10000, "event": {"kind": "controller_elected", "epoch": 2}}"#),
        "steps[0].question.tolerance: the run gives 17.533 s; a tolerance of 20 would also accept 0 s: give less than 17.533"
    );
    assert_eq!(
        one(34000, r#""kind": "number", "tolerance": 1, "probe": {"what": "partition.lost_records", "partition": "T-0"}"#),
        "steps[0].question.tolerance: the run gives 0; a tolerance of 1 would also accept 1: give less than 1"
    );
    assert_eq!(
        one(
            30000,
            r#""kind": "number", "tolerance": 1, "probe": {"what": "event_time", "event": {"kind": "controller_elected", "epoch": 3}}"#
        ),
        r#"steps[0].question.probe: no event matching {"epoch":3,"kind":"controller_elected"} happened after 0 ms and by 30000 ms, so the run gives no time (when "it does not happen" is the answer, give the probe "never": true): the run cannot decide the answer"#
    );
    let seen = format!(
        r#"{{"at_ms": 30000, "text": {T}}}, {}"#,
        asking(
            40000,
            r#""kind": "number", "tolerance": 1, "probe": {"what": "event_time", "from_ms": 10000, "event": {"kind": "controller_elected", "epoch": 2}}"#
        )
    );
    assert_eq!(
        refusal(&lesson(&seen)),
        "steps[1].question.probe: the matching event (controller_elected at 27533 ms) happened before the question is asked, at 30000 ms: the learner has already seen it; open the window later (from_ms)"
    );
    let failing = lesson_over(
        r#"{"version": 1, "brokers": [1, 2], "actions": [{"at_ms": 100, "do": "crash", "broker": 1}, {"at_ms": 200, "do": "crash", "broker": 1}]}"#,
        &asking(
            5000,
            &format!(r#"{NODE}, "probe": {{"what": "controller"}}"#),
        ),
    );
    assert_eq!(
        refusal(&failing),
        "scenario.actions[1] (at 200 ms): broker 1 is not running (it is crashed)"
    );
    assert_eq!(
        load(&failing).map(|_| ()).unwrap_err(),
        parse(&failing).unwrap().resolve().unwrap_err()
    );
}

#[test]
fn grading_compares_with_the_run_within_the_tolerance() {
    let text = lesson(
        &[
            asking(5000, &format!(r#"{NODE}, "probe": {{"what": "controller"}}"#)),
            asking(
                30000,
                r#""kind": "number", "tolerance": 2, "probe": {"what": "event_time", "from_ms": 10000, "event": {"kind": "controller_elected", "epoch": 2}}"#,
            ),
            asking(
                31000,
                r#""kind": "choice", "options": [{"label": {"en": "a", "zh-CN": "甲"}, "value": 1}, {"label": {"en": "b", "zh-CN": "乙"}, "value": 2}], "probe": {"what": "controller"}"#,
            ),
        ]
        .join(","),
    );
    let (l, r) = load(&text).unwrap();
    let q = |s: usize| l.steps[s].question.as_ref().unwrap();
    let a = |s: usize| r.for_step(s).unwrap();
    let node = grade(q(0), &Answer::Node(1), a(0)).unwrap();
    assert!(node.correct);
    assert_eq!(node.expected, Measured::Broker(1));
    assert_eq!(node.event, a(0).decider.as_ref().map(|d| d.index));
    assert!(!grade(q(0), &Answer::Node(2), a(0)).unwrap().correct);
    assert_eq!(
        grade(q(0), &Answer::Node(9), a(0)).unwrap_err(),
        "there is no broker 9 in the lesson's cluster"
    );
    // 17.533 s, tolerance 2: 15.533 and 19.533 are in, just beyond them is out.
    for (x, right) in [
        (17.533, true),
        (15.533, true),
        (19.533, true),
        (18.0, true),
        (15.5, false),
        (19.6, false),
        (0.0, false),
    ] {
        assert_eq!(
            grade(q(1), &Answer::Number(x), a(1)).unwrap().correct,
            right,
            "{x}"
        );
    }
    assert_eq!(
        grade(q(1), &Answer::Number(f64::NAN), a(1)).unwrap_err(),
        "NaN is not a number the question can grade"
    );
    let choice = grade(q(2), &Answer::Choice(1), a(2)).unwrap();
    assert!(choice.correct);
    assert_eq!(choice.expected_option, Some(1));
    assert!(!grade(q(2), &Answer::Choice(0), a(2)).unwrap().correct);
    assert_eq!(
        grade(q(2), &Answer::Choice(2), a(2)).unwrap_err(),
        "there is no option 2: the question has 2 options, counted from 0"
    );
    assert_eq!(
        grade(q(2), &Answer::Number(2.0), a(2)).unwrap_err(),
        "a choice question is answered with one of its options, not a number"
    );
    assert_eq!(
        grade(q(1), &Answer::Node(2), a(1)).unwrap_err(),
        "a number question is answered with a number, not a broker"
    );
}

#[test]
fn never_is_the_answer_when_nothing_matches_by_the_checkpoint() {
    // SCENARIO: T-0 streams with acks=1 and loses nothing; broker 2 becomes controller at
    // 27.533 s.
    let never = |event: &str| {
        format!(
            r#""kind": "number", "tolerance": 2, "probe": {{"what": "event_time", "from_ms": 10000, "never": true, "event": {event}}}"#
        )
    };
    let text = lesson(
        &[
            asking(30000, &never(r#"{"kind": "controller_elected", "epoch": 2}"#)),
            asking(31000, &never(r#"{"kind": "records_lost", "partition": "T-0"}"#)),
            asking(
                32000,
                &format!(
                    r#""kind": "choice", "options": [{{"label": {T}, "value": 3}}, {{"label": {T}, "value": "never"}}], "probe": {{"what": "event_time", "from_ms": 31000, "never": true, "event": {{"kind": "records_lost"}}}}"#
                ),
            ),
        ]
        .join(","),
    );
    let (l, r) = load(&text).unwrap_or_else(|e| panic!("{e}"));
    let q = |s: usize| l.steps[s].question.as_ref().unwrap();
    let a = |s: usize| r.for_step(s).unwrap();
    // When the event does happen, it is a number like any other, and never is wrong.
    assert_eq!(a(0).value, Measured::Number(17.533));
    assert_eq!(a(0).decided_at_ms(), 27533);
    assert!(!grade(q(0), &Answer::Never, a(0)).unwrap().correct);
    let graded = grade(q(0), &Answer::Number(18.0), a(0)).unwrap();
    assert!(graded.correct);
    assert_eq!(graded.decided_at_ms, 27533);
    // Nothing is lost: the answer is never, decided by the checkpoint.
    assert_eq!(a(1).value, Measured::Never);
    assert_eq!(a(1).decider, None);
    assert_eq!(a(1).decided_at_ms(), 31000, "the checkpoint decides it");
    assert_eq!(a(1).value.label(Lang::ZhCn, None), never_label(Lang::ZhCn));
    assert_eq!(never_label(Lang::ZhCn), "不会发生");
    assert_eq!(a(1).value.to_string(), "never");
    let right = grade(q(1), &Answer::Never, a(1)).unwrap();
    assert!(right.correct);
    assert_eq!((right.event, right.decided_at_ms), (None, 31000));
    assert!(!grade(q(1), &Answer::Number(0.0), a(1)).unwrap().correct);
    assert!(!grade(q(1), &Answer::Number(20.0), a(1)).unwrap().correct);
    assert_eq!(
        a(2).option,
        Some(1),
        "the option \"never\" is the right one"
    );
    assert_eq!(
        grade(q(2), &Answer::Never, a(2)).unwrap_err(),
        "a choice question is answered with one of its options, not \"it does not happen\""
    );
    let report = report(&l, &r);
    assert!(
        report.contains(
            "  number question (± 2 s, or never), probe event_time of {\"kind\":\"records_lost\",\"partition\":\"T-0\"} after 10.000s, by 31.000s (in s, or never)\n  answer: never: no matching event by the checkpoint\n  decided at the checkpoint, 31.000s: no matching event by then\n"
        ),
        "{report}"
    );
    // A question without "never" is not answered that way.
    let plain = lesson(&asking(
        30000,
        r#""kind": "number", "tolerance": 2, "probe": {"what": "event_time", "from_ms": 10000, "event": {"kind": "controller_elected", "epoch": 2}}"#,
    ));
    let (l, r) = load(&plain).unwrap();
    assert_eq!(
        grade(
            l.steps[0].question.as_ref().unwrap(),
            &Answer::Never,
            r.for_step(0).unwrap()
        )
        .unwrap_err(),
        "this question has no \"it does not happen\" answer: answer with a number"
    );
}

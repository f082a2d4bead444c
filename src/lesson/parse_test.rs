//! Parsing lessons: what a valid lesson becomes, and one clear message naming the place of
//! every mistake a teacher could make.

use super::{parse, Lang, Measure, Measured, PartitionField, QuestionKind, TimeUnit, Tolerance};

/// A small cluster: three brokers, a topic `T` with two partitions, a group `g` that `c1` and
/// `c2` join, a stream to `T-0`, brokers 1 and 3 crashing at 10 s.
pub(super) const SCENARIO: &str = r#"{"version": 1, "seed": 7, "brokers": [1, 2, 3],
  "topics": [{"name": "T", "replicas": [[1, 2, 3], [3]]}],
  "config": {"offsets.topic.num.partitions": 3},
  "groups": [{"id": "g", "topics": ["T"]}],
  "actions": [
    {"at_ms": 1000, "do": "join", "group": "g", "member": "c1"},
    {"at_ms": 1500, "do": "join", "group": "g", "member": "c2"},
    {"at_ms": 2000, "do": "produce", "topic": "T", "partition": 0, "rate_per_s": 10, "acks": "1"},
    {"at_ms": 10000, "do": "crash", "broker": 1},
    {"at_ms": 10000, "do": "crash", "broker": 3}],
  "until_ms": 40000}"#;

/// A text in both languages.
pub(super) const T: &str = r#"{"en": "x", "zh-CN": "某"}"#;

/// A lesson over `scenario` with the given steps (a JSON list's inside).
pub(super) fn lesson_over(scenario: &str, steps: &str) -> String {
    format!(
        r#"{{"version": 1, "id": "l", "title": {T}, "summary": {T}, "scenario": {scenario}, "steps": [{steps}]}}"#
    )
}

/// A lesson over [`SCENARIO`].
pub(super) fn lesson(steps: &str) -> String {
    lesson_over(SCENARIO, steps)
}

/// A step at `at_ms` asking `question` (a JSON object's inside, without the prompt).
pub(super) fn asking(at_ms: u64, question: &str) -> String {
    format!(r#"{{"at_ms": {at_ms}, "text": {T}, "question": {{"prompt": {T}, {question}}}}}"#)
}

/// The one-line message parsing gives.
pub(super) fn err(text: &str) -> String {
    parse(text).map(|_| ()).unwrap_err().to_string()
}

/// The message of a lesson with one step at `at_ms` asking `question`.
fn q_err(at_ms: u64, question: &str) -> String {
    err(&lesson(&asking(at_ms, question)))
}

#[test]
fn a_lesson_parses_with_its_scenario_steps_and_questions() {
    let text = lesson(&format!(
        r#"{{"at_ms": 500, "text": {T}}},
        {},
        {},
        {}"#,
        asking(5000, r#""kind": "node", "probe": {"what": "controller"}"#),
        asking(
            9000,
            r#""kind": "choice", "options": [{"label": {"en": "a", "zh-CN": "甲"}, "value": [2, 1, 3]},
               {"label": {"en": "b", "zh-CN": "乙"}, "value": [1, 2]}],
               "probe": {"what": "partition.isr", "partition": "T-0", "at_ms": 8000}"#
        ),
        asking(
            30000,
            r#""kind": "number", "tolerance": 2, "probe": {"what": "event_time", "from_ms": 10000,
               "event": {"kind": "controller_elected", "epoch": 2}}"#
        ),
    ));
    let l = parse(&text).unwrap();
    assert_eq!(l.id, "l");
    assert_eq!(l.title.get(Lang::ZhCn), "某");
    assert_eq!(l.scenario.setup.brokers.len(), 3);
    assert_eq!(l.steps.len(), 4);
    assert!(l.steps[0].question.is_none());
    assert_eq!(l.asked_at_ms(0), 0);
    assert_eq!(l.asked_at_ms(2), 5000);
    let q = l.steps[1].question.as_ref().unwrap();
    assert_eq!(
        q.kind,
        QuestionKind::Node {
            brokers: vec![1, 2, 3]
        }
    );
    assert_eq!(
        q.probe.at_ms, 5000,
        "the probe looks at its step's time by default"
    );
    assert_eq!(q.probe.measure, Measure::Controller);
    let q = l.steps[2].question.as_ref().unwrap();
    assert_eq!(q.probe.at_ms, 8000);
    assert_eq!(
        q.probe.measure,
        Measure::Partition {
            partition: "T-0".into(),
            field: PartitionField::Isr
        }
    );
    let QuestionKind::Choice { options } = &q.kind else {
        panic!("a choice")
    };
    assert_eq!(
        options[0].value,
        Measured::Brokers(vec![1, 2, 3]),
        "an ISR is a set"
    );
    let q = l.steps[3].question.as_ref().unwrap();
    assert_eq!(q.kind, QuestionKind::Number { tolerance: 2.0 });
    let Measure::EventTime {
        from_ms,
        unit,
        never,
        ..
    } = &q.probe.measure
    else {
        panic!("event_time")
    };
    assert_eq!((*from_ms, *unit, *never), (10000, TimeUnit::Seconds, false));
    assert!(!q.accepts_never());
    assert_eq!(
        q.probe.to_string(),
        r#"event_time of {"epoch":2,"kind":"controller_elected"} after 10.000s, by 30.000s (in s)"#
    );
}

#[test]
fn a_number_question_states_its_tolerance_with_the_unit() {
    let number = |tolerance: &str, probe: &str| {
        let text = lesson(&asking(
            30000,
            &format!(r#""kind": "number", "tolerance": {tolerance}, "probe": {probe}"#),
        ));
        let l = parse(&text).unwrap_or_else(|e| panic!("{e}"));
        l.steps[0].question.as_ref().unwrap().tolerance().unwrap()
    };
    let elected =
        r#"{"what": "event_time", "from_ms": 10000, "event": {"kind": "controller_elected"}}"#;
    let t = number("2", elected);
    assert_eq!(
        t,
        Tolerance {
            amount: 2.0,
            unit: Some(TimeUnit::Seconds)
        }
    );
    assert_eq!(t.label(Lang::En), "± 2 s");
    assert_eq!(t.label(Lang::ZhCn), "± 2 秒");
    assert_eq!(t.to_string(), "± 2 s");
    assert_eq!(t.accepted(16.585), (14.585, 18.585));
    let ms = r#"{"what": "event_time", "from_ms": 10000, "unit": "ms", "event": {"kind": "controller_elected"}}"#;
    assert_eq!(number("250", ms).label(Lang::En), "± 250 ms");
    assert_eq!(number("250", ms).label(Lang::ZhCn), "± 250 毫秒");
    let count = r#"{"what": "partition.lost_records", "partition": "T-0"}"#;
    assert_eq!(number("2.5", count).label(Lang::En), "± 2.5");
    let epoch = number("0", r#"{"what": "controller_epoch"}"#);
    assert_eq!(epoch.unit, None);
    assert_eq!(epoch.label(Lang::En), "exact");
    assert_eq!(epoch.label(Lang::ZhCn), "精确值");
    let node = parse(&lesson(&asking(
        30000,
        r#""kind": "node", "probe": {"what": "controller"}"#,
    )))
    .unwrap();
    assert_eq!(node.steps[0].question.as_ref().unwrap().tolerance(), None);
}

#[test]
fn never_is_an_answer_only_where_the_probe_offers_it() {
    let never_probe = r#"{"what": "event_time", "never": true, "event": {"kind": "records_lost"}}"#;
    let l = parse(&lesson(&asking(
        30000,
        &format!(r#""kind": "number", "tolerance": 1, "probe": {never_probe}"#),
    )))
    .unwrap_or_else(|e| panic!("{e}"));
    let q = l.steps[0].question.as_ref().unwrap();
    assert!(q.accepts_never());
    assert_eq!(
        q.probe.to_string(),
        r#"event_time of {"kind":"records_lost"} after 0.000s, by 30.000s (in s, or never)"#
    );
    let opt = |v: &str| format!(r#"{{"label": {T}, "value": {v}}}"#);
    let l = parse(&lesson(&asking(
        30000,
        &format!(
            r#""kind": "choice", "options": [{}, {}], "probe": {never_probe}"#,
            opt("5"),
            opt(r#""never""#)
        ),
    )))
    .unwrap_or_else(|e| panic!("{e}"));
    let QuestionKind::Choice { options } = &l.steps[0].question.as_ref().unwrap().kind else {
        panic!("a choice")
    };
    assert_eq!(options[1].value, Measured::Never);
    assert_eq!(
        q_err(
            30000,
            &format!(
                r#""kind": "choice", "options": [{}, {}], "probe": {{"what": "event_time", "event": {{"kind": "records_lost"}}}}"#,
                opt("5"),
                opt(r#""never""#)
            )
        ),
        r#"steps[0].question.options[1].value: an option "never" (it does not happen) needs the probe's "never": true"#
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "number", "tolerance": 1, "probe": {"what": "event_time", "never": "yes", "event": {"kind": "records_lost"}}"#
        ),
        r#"steps[0].question.probe.never: must be true ("it does not happen" is an answer) or false, not "yes""#
    );
    assert_eq!(
        q_err(
            30000,
            &format!(
                r#""kind": "choice", "options": [{}, {}], "probe": {{"what": "event_happened", "never": true, "event": {{"kind": "records_lost"}}}}"#,
                opt("true"),
                opt("false")
            )
        ),
        "steps[0].question.probe.never: the probe event_happened takes only what, at_ms, event, from_ms"
    );
}

#[test]
fn the_file_itself_gets_one_clear_message() {
    assert!(err("{").starts_with("not valid JSON"), "{}", err("{"));
    assert_eq!(
        err("[1]"),
        r#"a lesson is a JSON object ({"version": 1, ...}), not a list"#
    );
    let good = lesson(&format!(r#"{{"at_ms": 1, "text": {T}}}"#));
    assert!(parse(&good).is_ok());
    assert!(
        err(&good.replace(r#""id": "l""#, r#""id": "l", "tittle": 1"#))
            .contains("unknown field `tittle`")
    );
    assert_eq!(
        err(&good.replace(r#""version": 1, "id""#, r#""version": 2, "id""#)),
        "version: version 2 is not supported; this program reads lesson version 1"
    );
    assert_eq!(
        err(&good.replace(r#""id": "l""#, r#""id": "First Lesson""#)),
        r#"id: a lesson id has 1 to 64 lowercase letters, digits and '-', not "First Lesson""#
    );
    assert!(err(&good.replace(
        r#""title": {"en": "x", "zh-CN": "某"}"#,
        r#""title": {"en": "x"}"#
    ))
    .starts_with("title: missing field `zh-CN`"));
    assert!(err(&good.replace(
        r#""title": {"en": "x", "zh-CN": "某"}"#,
        r#""title": {"en": "x", "zh-CN": "某", "fr": "y"}"#
    ))
    .starts_with("title.fr: unknown field `fr`"));
    assert_eq!(
        err(&good.replace(r#""summary": {"en": "x", "zh-CN": "某"}"#, r#""summary": {"en": "x", "zh-CN": " "}"#)),
        "summary.zh-CN: is empty: every text a learner reads has English (en) and Simplified Chinese (zh-CN)"
    );
    assert_eq!(
        err(&lesson_over(
            r#"{"version": 1, "brokers": []}"#,
            &format!(r#"{{"at_ms": 1, "text": {T}}}"#)
        )),
        "scenario.brokers: at least one broker is needed"
    );
    assert_eq!(
        err(&lesson_over(
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 5, "do": "crash", "broker": 7}]}"#,
            &format!(r#"{{"at_ms": 1, "text": {T}}}"#)
        )),
        "scenario.actions[0]: there is no broker 7"
    );
    assert_eq!(
        err(&lesson_over(
            "[]",
            &format!(r#"{{"at_ms": 1, "text": {T}}}"#)
        )),
        r#"scenario: a scenario is a JSON object ({"version": 1, ...}), not a list"#
    );
    assert_eq!(err(&lesson("")), "steps: a lesson needs at least one step");
    assert_eq!(
        err(&lesson(&format!(
            r#"{{"at_ms": 5, "text": {T}}}, {{"at_ms": 4, "text": {T}}}"#
        ))),
        "steps[1].at_ms: 4 is before steps[0]'s 5: steps must be in time order"
    );
    assert!(
        err(&lesson(&format!(r#"{{"at_ms": 86400001, "text": {T}}}"#)))
            .starts_with("steps[0].at_ms: at_ms 86400001 is past")
    );
    assert_eq!(
        err(&lesson(r#"{"at_ms": 5, "text": {"en": "", "zh-CN": "某"}}"#)),
        "steps[0].text.en: is empty: every text a learner reads has English (en) and Simplified Chinese (zh-CN)"
    );
}

#[test]
fn a_probe_names_what_exists_and_a_moment_not_yet_seen() {
    let node = |probe: &str| q_err(5000, &format!(r#""kind": "node", "probe": {probe}"#));
    assert_eq!(
        node("{}"),
        "steps[0].question.probe: \"what\" is required: one of controller, controller_epoch, partition.leader, partition.isr, partition.leader_epoch, partition.high_watermark, partition.acked_records, partition.lost_records, group.leader, group.generation, group.coordinator, event_time, event_happened"
    );
    assert!(node(r#"{"what": "leader"}"#).starts_with(
        r#"steps[0].question.probe.what: unknown probe "leader"; the probes are controller, "#
    ));
    assert_eq!(
        node(r#"{"what": "controller", "partition": "T-0"}"#),
        "steps[0].question.probe.partition: the probe controller takes only what, at_ms"
    );
    assert_eq!(
        node(r#"{"what": "partition.leader"}"#),
        r#"steps[0].question.probe: the probe partition.leader needs "partition" (a partition ("topic-N"))"#
    );
    assert_eq!(
        node(r#"{"what": "partition.leader", "partition": "orders-7"}"#),
        r#"steps[0].question.probe.partition: there is no partition "orders-7" in the scenario"#
    );
    assert_eq!(
        node(r#"{"what": "group.coordinator", "group": "my-group"}"#),
        r#"steps[0].question.probe.group: there is no group "my-group" in the scenario"#
    );
    assert_eq!(
        node(r#"{"what": "controller", "at_ms": 6000}"#),
        "steps[0].question.probe.at_ms: 6000 is after the step's at_ms (5000 ms): an answer is graded once its step has run, so the probe looks at or before it"
    );
    assert_eq!(
        node(r#"{"what": "controller", "at_ms": "soon"}"#),
        r#"steps[0].question.probe.at_ms: must be a whole number of milliseconds, not "soon""#
    );
    assert_eq!(
        q_err(0, r#""kind": "node", "probe": {"what": "controller"}"#),
        "steps[0].question.probe: the probe looks at 0 ms (the step's at_ms), which the learner has already seen (the lesson opens at 0 ms): a question asks about a later moment"
    );
    assert_eq!(
        err(&lesson(&format!(
            r#"{{"at_ms": 5000, "text": {T}}}, {}"#,
            asking(9000, r#""kind": "node", "probe": {"what": "controller", "at_ms": 5000}"#)
        ))),
        "steps[1].question.probe.at_ms: the probe looks at 5000 ms, which the learner has already seen (steps[0] ran to 5000 ms): a question asks about a later moment"
    );
}

#[test]
fn an_event_pattern_names_a_kind_its_fields_and_what_exists() {
    let yes_no = r#""kind": "choice", "options": [{"label": {"en": "y", "zh-CN": "是"}, "value": true}, {"label": {"en": "n", "zh-CN": "否"}, "value": false}]"#;
    let happened = |probe: &str| q_err(30000, &format!(r#"{yes_no}, "probe": {probe}"#));
    let ok = lesson(&asking(
        30000,
        &format!(
            r#"{yes_no}, "probe": {{"what": "event_happened", "event": {{"kind": "leader_elected", "partition": ["T-0", "T-1"], "leader": 2, "isr": [2]}}}}"#
        ),
    ));
    assert!(parse(&ok).is_ok(), "{}", err(&ok));
    assert_eq!(
        happened(r#"{"what": "event_happened"}"#),
        r#"steps[0].question.probe: "event" is required: the pattern of the event to look for, e.g. {"kind": "controller_elected", "epoch": 2}"#
    );
    assert_eq!(
        happened(r#"{"what": "event_happened", "event": {"epoch": 2}}"#),
        r#"steps[0].question.probe.event: an event pattern needs "kind", an event kind such as "leader_elected""#
    );
    assert_eq!(
        happened(r#"{"what": "event_happened", "event": {"kind": "controller_electd"}}"#),
        r#"steps[0].question.probe.event.kind: there is no event kind "controller_electd" (the kinds are listed in docs/scenario-format.md, "The events")"#
    );
    assert_eq!(
        happened(
            r#"{"what": "event_happened", "event": {"kind": "controller_elected", "controller": 2}}"#
        ),
        r#"steps[0].question.probe.event.controller: controller_elected has no field "controller"; its fields are broker, epoch"#
    );
    assert!(happened(
        r#"{"what": "event_happened", "event": {"kind": "controller_elected", "count": 1}}"#
    )
    .starts_with("steps[0].question.probe.event.count: a probe's pattern takes no count"));
    assert_eq!(
        happened(
            r#"{"what": "event_happened", "event": {"kind": "isr_shrunk", "partition": "T-9"}}"#
        ),
        r#"steps[0].question.probe.event.partition: there is no partition "T-9" in the scenario"#
    );
    assert_eq!(
        happened(
            r#"{"what": "event_happened", "event": {"kind": "controller_elected", "broker": [2, 9]}}"#
        ),
        "steps[0].question.probe.event.broker: there is no broker 9 in the scenario"
    );
    assert_eq!(
        happened(r#"{"what": "event_happened", "event": {"kind": "group_stable", "group": "h"}}"#),
        r#"steps[0].question.probe.event.group: there is no group "h" in the scenario"#
    );
    assert_eq!(
        happened(r#"{"what": "event_happened", "event": {"kind": "broker_crashed"}, "from_ms": 30000}"#),
        "steps[0].question.probe.from_ms: the window of events opens after 30000 ms and closes at the probe's time, 30000 ms: it is empty"
    );
    assert_eq!(
        happened(r#"{"what": "event_happened", "event": {"kind": "broker_crashed"}, "unit": "s"}"#),
        "steps[0].question.probe.unit: the probe event_happened takes only what, at_ms, event, from_ms"
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "number", "tolerance": 1, "probe": {"what": "event_time", "event": {"kind": "broker_crashed"}, "unit": "min"}"#
        ),
        r#"steps[0].question.probe.unit: "min" is not a unit; use "s" (the default) or "ms""#
    );
}

#[test]
fn each_kind_of_question_is_checked_against_its_probe() {
    assert_eq!(
        q_err(30000, r#""kind": "node", "probe": {"what": "partition.isr", "partition": "T-0"}"#),
        "steps[0].question.kind: a node question is answered by clicking a broker, so its probe must give a broker (controller, partition.leader, group.coordinator), not a list of broker ids (partition.isr)"
    );
    assert_eq!(
        q_err(30000, r#""kind": "number", "tolerance": 0, "probe": {"what": "controller"}"#),
        "steps[0].question.kind: a number question needs a probe that gives a number; controller gives a broker id"
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "number", "probe": {"what": "controller_epoch"}"#
        ),
        r#"steps[0].question: a number question needs "tolerance": how far from the answer a number may be and still count (0 for an exact answer)"#
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "number", "tolerance": -1, "probe": {"what": "controller_epoch"}"#
        ),
        "steps[0].question.tolerance: must be 0 or more, not -1"
    );
    assert_eq!(
        q_err(30000, r#""kind": "number", "tolerance": 1, "probe": {"what": "controller_epoch"}"#),
        "steps[0].question.tolerance: controller_epoch is a whole number where each step is another answer: a tolerance of 1 would also accept the numbers next to it; give less than 1 (0 for exact)"
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "number", "tolerance": 0, "options": [], "probe": {"what": "controller_epoch"}"#
        ),
        "steps[0].question.options: only a choice question has options"
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "node", "tolerance": 0, "probe": {"what": "controller"}"#
        ),
        "steps[0].question.tolerance: only a number question has a tolerance"
    );
    assert!(q_err(30000, r#""kind": "nod", "probe": {"what": "controller"}"#)
        .starts_with("steps[0].question.kind: unknown variant `nod`, expected one of `choice`, `number`, `node`"));
    let choice = |options: &str, probe: &str| {
        q_err(
            30000,
            &format!(r#""kind": "choice", "options": [{options}], "probe": {probe}"#),
        )
    };
    let opt = |v: &str| format!(r#"{{"label": {T}, "value": {v}}}"#);
    assert_eq!(
        choice(&opt("1"), r#"{"what": "controller"}"#),
        r#"steps[0].question.options: a choice question needs "options", at least two"#
    );
    assert_eq!(
        q_err(
            30000,
            r#""kind": "choice", "probe": {"what": "controller"}"#
        ),
        r#"steps[0].question: a choice question needs "options", at least two"#
    );
    assert_eq!(
        choice(
            &format!("{}, {}", opt("1"), opt(r#""two""#)),
            r#"{"what": "controller"}"#
        ),
        r#"steps[0].question.options[1].value: the probe controller gives a broker id, not "two""#
    );
    assert_eq!(
        choice(
            &format!("{}, {}", opt("1"), opt("7")),
            r#"{"what": "controller"}"#
        ),
        "steps[0].question.options[1].value: there is no broker 7 in the scenario"
    );
    assert_eq!(
        choice(&format!("{}, {}", opt("[1, 2]"), opt("[2, 1]")), r#"{"what": "partition.isr", "partition": "T-0"}"#),
        "steps[0].question.options[1].value: the same answer as options[0] ([1, 2]): no two options may mean the same"
    );
    assert_eq!(
        choice(
            &format!("{}, {}", opt("[1, 1]"), opt("[2]")),
            r#"{"what": "partition.isr", "partition": "T-0"}"#
        ),
        "steps[0].question.options[0].value: broker 1 is listed twice"
    );
    assert_eq!(
        choice(
            &format!("{}, {}", opt(r#""c1""#), opt(r#""c3""#)),
            r#"{"what": "group.leader", "group": "g"}"#
        ),
        r#"steps[0].question.options[1].value: no join action of the scenario adds a consumer "c3" to g (it adds c1, c2)"#
    );
    assert_eq!(
        choice(&format!("{}, {}", opt("1"), opt("-2")), r#"{"what": "controller_epoch"}"#),
        "steps[0].question.options[1].value: controller_epoch is never negative, so -2 cannot be its answer"
    );
    assert_eq!(
        choice(
            &format!("{}, {}", opt("true"), opt("1")),
            r#"{"what": "event_happened", "event": {"kind": "broker_crashed"}}"#
        ),
        "steps[0].question.options[1].value: the probe event_happened gives true or false, not 1"
    );
    assert_eq!(
        choice(
            &format!(r#"{}, {{"label": {{"en": "b"}}, "value": 2}}"#, opt("1")),
            r#"{"what": "controller"}"#
        )
        .split(':')
        .next()
        .unwrap(),
        "steps[0].question.options[1].label"
    );
}

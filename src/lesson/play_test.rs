//! A learner's way through a lesson: asking, running, showing, resuming from what the browser
//! kept.

use super::play::{Phase, Play, Progress, StoredAnswer};
use super::{load, Answer, Lesson, Measured, Resolution};

const FIRST: &str = include_str!("../../docs/examples/lessons/first-lesson.json");

fn first() -> (Lesson, Resolution) {
    load(FIRST).expect("the example lesson loads")
}

#[test]
fn a_learner_goes_through_every_step_in_order() {
    let (l, r) = first();
    let mut p = Play::start(&l);
    // Step 0 asks at 0 ms who leads orders-0.
    assert_eq!((p.step, p.phase), (0, Phase::Ask));
    assert_eq!(p.stop_ms(&l), 0);
    assert!(!p.reached(&l, 10_000), "nothing runs before the answer");
    let g = p.answer(&l, &r, Answer::Node(1)).unwrap().clone();
    assert!(g.correct);
    assert_eq!(g.expected, Measured::Broker(1));
    assert_eq!(p.phase, Phase::Running);
    assert_eq!(p.stop_ms(&l), 1_000);
    assert!(!p.reached(&l, 999));
    assert!(p.reached(&l, 1_000));
    assert_eq!(p.phase, Phase::Shown);
    // Step 1 asks nothing: it runs at once.
    p.next(&l);
    assert_eq!((p.step, p.phase), (1, Phase::Running));
    assert!(p.reached(&l, 5_000));
    p.next(&l);
    // Step 2 asks at 5 s; a wrong answer is graded wrong, with the right option.
    assert_eq!((p.step, p.phase), (2, Phase::Ask));
    assert_eq!(p.stop_ms(&l), 5_000);
    let g = p.answer(&l, &r, Answer::Choice(1)).unwrap().clone();
    assert!(!g.correct);
    assert_eq!(g.expected_option, Some(0));
    assert!(p.reached(&l, 15_000));
    p.next(&l);
    assert_eq!((p.step, p.phase), (3, Phase::Ask));
    let right = match &r.for_step(3).unwrap().value {
        Measured::Number(n) => *n,
        v => panic!("a time, not {v:?}"),
    };
    assert!(
        p.answer(&l, &r, Answer::Number(right + 1.5))
            .unwrap()
            .correct
    );
    assert!(p.reached(&l, 30_000));
    p.next(&l);
    assert_eq!(p.phase, Phase::Done);
    assert_eq!(p.step, 3);
    assert_eq!(p.score(&l), (2, 3));
    assert_eq!(p.stop_ms(&l), 30_000);
}

#[test]
fn a_bad_answer_changes_nothing() {
    let (l, r) = first();
    let mut p = Play::start(&l);
    let before = p.clone();
    assert!(
        p.answer(&l, &r, Answer::Choice(0)).is_err(),
        "a node question takes a broker"
    );
    assert!(p.answer(&l, &r, Answer::Node(9)).is_err(), "no broker 9");
    assert_eq!(p, before);
    p.answer(&l, &r, Answer::Node(2)).unwrap();
    let after = p.clone();
    assert_eq!(
        p.answer(&l, &r, Answer::Node(1)).unwrap_err(),
        "no question is waiting for an answer"
    );
    assert_eq!(p, after, "a question is answered once");
}

#[test]
fn progress_round_trips_and_resumes_where_the_learner_was() {
    let (l, r) = first();
    let mut p = Play::start(&l);
    p.answer(&l, &r, Answer::Node(1)).unwrap();
    p.reached(&l, 1_000);
    p.next(&l);
    p.reached(&l, 5_000);
    p.next(&l);
    let kept = p.progress(&l);
    assert_eq!(kept.step, 2);
    assert_eq!((kept.right, kept.total, kept.done), (1, 3, false));
    let mut all = Progress::default();
    all.lessons.insert(l.id.clone(), kept);
    let text = all.to_json();
    let back = Progress::parse(&text).unwrap();
    assert_eq!(back.version, 1);
    let resumed = Play::resume(&l, &r, &back.lessons[&l.id]).unwrap();
    assert_eq!(
        resumed, p,
        "the same step, asking again, the first answer graded again"
    );

    // Shown steps resume shown; a done lesson resumes done.
    p.answer(&l, &r, Answer::Choice(0)).unwrap();
    let kept = p.progress(&l);
    let resumed = Play::resume(&l, &r, &kept).unwrap();
    assert_eq!((resumed.step, resumed.phase), (2, Phase::Shown));
    let mut done = kept.clone();
    done.done = true;
    let resumed = Play::resume(&l, &r, &done).unwrap();
    assert_eq!(resumed.phase, Phase::Done);
}

#[test]
fn stored_progress_that_does_not_fit_is_refused() {
    let (l, r) = first();
    assert!(Progress::parse("not json").is_err());
    assert!(Progress::parse(r#"{"version":2,"lessons":{}}"#)
        .unwrap_err()
        .contains("version 2"));
    let mut kept = Play::start(&l).progress(&l);
    kept.step = 99;
    assert!(
        Play::resume(&l, &r, &kept).is_none(),
        "a step the lesson lacks"
    );
    kept.step = 0;
    kept.answers.insert(0, StoredAnswer::Choice(0));
    assert!(
        Play::resume(&l, &r, &kept).is_none(),
        "an answer its question cannot take"
    );
    kept.answers.clear();
    kept.answers.insert(1, StoredAnswer::Node(1));
    assert!(
        Play::resume(&l, &r, &kept).is_none(),
        "an answer to a step that asks nothing"
    );
}

#[test]
fn the_score_counts_an_answer_once_the_run_has_shown_it() {
    let (l, r) = first();
    let mut p = Play::start(&l);
    assert_eq!(p.revealed(), (0, 0));
    p.answer(&l, &r, Answer::Node(1)).unwrap();
    // Answered, but the run still goes on to show it: not graded for the learner yet.
    assert_eq!(p.phase, Phase::Running);
    assert_eq!(p.revealed(), (0, 0));
    assert!(p.reached(&l, 1_000));
    assert_eq!(p.revealed(), (1, 1));
    p.next(&l);
    assert!(p.reached(&l, 5_000));
    p.next(&l);
    p.answer(&l, &r, Answer::Choice(1)).unwrap();
    assert_eq!(
        p.revealed(),
        (1, 1),
        "the wrong answer waits for its moment"
    );
    assert!(p.reached(&l, 15_000));
    assert_eq!(p.revealed(), (1, 2));
}

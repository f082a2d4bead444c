//! Resolving a lesson (running its scenario and measuring every question's probe) and grading
//! a learner's answer against the result.

use super::measure::measure;
use super::{
    Answer, Decider, Grade, Lesson, LessonError, Measured, Question, QuestionKind, Resolution,
    Resolved, ValueType,
};
use crate::scenario::Runner;

/// How close a number must be to the edge of the tolerance to count as inside it: the answers
/// are whole milliseconds or counts, so this only absorbs the rounding of decimals.
const EPSILON: f64 = 1e-9;

impl Lesson {
    /// Runs the scenario to each question's probe time and computes its answer, with the event
    /// that decided it. Deterministic: the same lesson always gives the same answers, natively
    /// and in wasm. A question the run cannot decide is refused with one message naming the
    /// step and the question.
    pub fn resolve(&self) -> Result<Resolution, LessonError> {
        let mut runner = Runner::new(&self.scenario);
        let mut answers = Vec::new();
        let run =
            |runner: &mut Runner, t: u64| runner.advance_to(t).map_err(|e| e.under("scenario"));
        for (i, step) in self.steps.iter().enumerate() {
            if let Some(q) = &step.question {
                let place = format!("steps[{i}].question");
                run(&mut runner, q.probe.at_ms)?;
                let (value, index) = measure(
                    &q.probe.measure,
                    q.probe.at_ms,
                    &runner.world.state(),
                    runner.world.events(),
                )
                .map_err(|m| {
                    LessonError::at(
                        format!("{place}.probe"),
                        format!("{m}: the run cannot decide the answer"),
                    )
                })?;
                let decider = index.map(|index| Decider {
                    index,
                    event: runner
                        .world
                        .events()
                        .get(index)
                        .expect("a deciding event is in the history")
                        .clone(),
                });
                let asked = self.asked_at_ms(i);
                if let Some(d) = decider
                    .as_ref()
                    .filter(|d| q.probe.measure.is_event_probe() && d.event.time_ms <= asked)
                {
                    return Err(LessonError::at(
                        format!("{place}.probe"),
                        format!(
                            "the matching event ({} at {} ms) happened before the question is asked, at {asked} ms: the learner has already seen it; open the window later (from_ms)",
                            d.event.kind.name(),
                            d.event.time_ms
                        ),
                    ));
                }
                let option = check_answer(&place, q, &value)?;
                answers.push(Resolved {
                    step: i,
                    at_ms: q.probe.at_ms,
                    value,
                    option,
                    decider,
                });
            }
            run(&mut runner, step.at_ms)?;
        }
        Ok(Resolution { answers })
    }
}

/// Checks that the question can tell the run's answer from the wrong ones: a choice has
/// exactly one option with it (its index is returned); a number question's tolerance does not
/// reach the answer that nothing happened (0), or the answer that something did (1) when it is
/// 0. A number question whose answer is "never" has no number to reach.
fn check_answer(place: &str, q: &Question, value: &Measured) -> Result<Option<usize>, LessonError> {
    match &q.kind {
        QuestionKind::Choice { options } => {
            let i = options.iter().position(|o| o.value == *value).ok_or_else(|| {
                let values: Vec<String> = options.iter().map(|o| o.value.to_string()).collect();
                LessonError::at(
                    format!("{place}.options"),
                    format!(
                        "the run gives {value} at {} ms, which is none of the options ({}): add it, or ask about another moment",
                        q.probe.at_ms,
                        values.join(", ")
                    ),
                )
            })?;
            Ok(Some(i))
        }
        QuestionKind::Number { .. } if *value == Measured::Never => Ok(None),
        QuestionKind::Number { tolerance } => {
            let Measured::Number(n) = value else {
                return Err(LessonError::at(
                    format!("{place}.kind"),
                    format!("a number question needs a probe that gives a number, not {value}"),
                ));
            };
            let unit = match q.probe.measure.value_type() {
                ValueType::Time(u) => format!(" {}", u.name()),
                _ => String::new(),
            };
            let (other, limit) = if *n > 0.0 { (0.0, *n) } else { (1.0, 1.0) };
            if *tolerance >= limit {
                return Err(LessonError::at(
                    format!("{place}.tolerance"),
                    format!(
                        "the run gives {n}{unit}; a tolerance of {tolerance} would also accept {other}{unit}: give less than {limit}"
                    ),
                ));
            }
            Ok(None)
        }
        QuestionKind::Node { .. } => match value {
            Measured::Broker(_) => Ok(None),
            other => Err(LessonError::at(
                format!("{place}.kind"),
                format!("a node question needs a probe that gives a broker, not {other}"),
            )),
        },
    }
}

/// Grades a learner's answer to `question` against its resolved answer (`resolved`, from
/// [`Lesson::resolve`] for the same question). A number is right within the question's
/// tolerance (inclusive), "it does not happen" ([`Answer::Never`]) when the run's answer is
/// [`Measured::Never`]; a choice when it is the option with the run's answer; a click when it
/// is the broker. An answer of the wrong kind (including "it does not happen" to a question
/// whose probe does not offer it), an option or a broker that does not exist, or a number that
/// is not finite is an error.
pub fn grade(question: &Question, answer: &Answer, resolved: &Resolved) -> Result<Grade, String> {
    let correct = match (&question.kind, answer) {
        (QuestionKind::Choice { options }, Answer::Choice(i)) => {
            if *i >= options.len() {
                return Err(format!(
                    "there is no option {i}: the question has {} options, counted from 0",
                    options.len()
                ));
            }
            resolved.option == Some(*i)
        }
        (QuestionKind::Number { tolerance }, Answer::Number(x)) => {
            if !x.is_finite() {
                return Err(format!("{x} is not a number the question can grade"));
            }
            match resolved.value {
                Measured::Number(n) => (x - n).abs() <= tolerance + EPSILON,
                _ => false,
            }
        }
        (QuestionKind::Number { .. }, Answer::Never) => {
            if !question.accepts_never() {
                return Err(
                    "this question has no \"it does not happen\" answer: answer with a number"
                        .to_string(),
                );
            }
            resolved.value == Measured::Never
        }
        (QuestionKind::Node { brokers }, Answer::Node(b)) => {
            if !brokers.contains(b) {
                return Err(format!("there is no broker {b} in the lesson's cluster"));
            }
            resolved.value == Measured::Broker(*b)
        }
        (kind, answer) => {
            let expects = match kind {
                QuestionKind::Choice { .. } => "one of its options",
                QuestionKind::Number { .. } => "a number",
                QuestionKind::Node { .. } => "a broker",
            };
            let got = match answer {
                Answer::Choice(_) => "an option",
                Answer::Number(_) => "a number",
                Answer::Node(_) => "a broker",
                Answer::Never => "\"it does not happen\"",
            };
            return Err(format!(
                "a {} question is answered with {expects}, not {got}",
                kind.name()
            ));
        }
    };
    Ok(Grade {
        correct,
        expected: resolved.value.clone(),
        expected_option: resolved.option,
        event: resolved.decider.as_ref().map(|d| d.index),
        decided_at_ms: resolved.decided_at_ms(),
    })
}

//! Lesson files (version 1): lessons that ask before they show (described in
//! `docs/lesson-format.md`).
//!
//! A lesson is a sequence of steps over one scripted scenario. Each step runs the simulation to
//! a virtual time and explains what happened there; a step may first ask a question (pick one
//! of some options, give a number within a stated tolerance, or click a broker). A question's
//! right answer is never written in the lesson: its **probe** names what to measure in the run
//! (the controller, a partition's ISR, the time of an event...) and when, and
//! [`Lesson::resolve`] runs the scenario and measures it, with the event that decided it. So a
//! lesson stays right when the model or a setting changes, and a question the run cannot decide
//! is refused when the lesson loads, with one message naming its place.
//!
//! Every text a learner reads has English and Simplified Chinese ([`Text`]).
//!
//! - `file.rs`: the file as written (its serde shapes).
//! - `parse.rs`: validation into a [`Lesson`], with the exact place of every problem.
//! - `probe.rs`: the probe vocabulary: parsing and validating a probe and its event pattern.
//! - `events.rs`: every event kind with its fields, which event patterns are checked against.
//! - `measure.rs`: measuring a probe on a run's state and events, with the deciding event.
//! - `resolve.rs`: [`Lesson::resolve`] and [`grade`].
//! - `index.rs`: the lesson list ([`index::Entry`]) from the index of committed lessons.
//! - `play.rs`: a learner's way through a lesson ([`play::Play`]) and what the browser keeps
//!   of it ([`play::Progress`]).
//! - `report.rs`: the teacher's [`report`] of a resolved lesson (what `kafka-election lesson`
//!   prints).
//!
//! The core reads lessons from text and runs them in memory, natively and in wasm alike.

use crate::scenario::{Scenario, ScenarioError};
use crate::sim::{BrokerId, Event};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

mod events;
mod file;
pub mod index;
mod measure;
mod parse;
pub mod play;
mod probe;
mod report;
mod resolve;

pub use events::event_fields;
pub use file::{KindName, LessonFile, OptionFile, QuestionFile, StepFile};
pub use parse::parse;
pub use report::report;
pub use resolve::grade;

#[cfg(test)]
mod parse_test;
#[cfg(test)]
mod play_test;
#[cfg(test)]
mod resolve_test;

/// A problem with a lesson file: where it is (`steps[3].question.probe.partition`) and what is
/// wrong. The same type as a scenario's, so the problems of the embedded scenario carry over
/// (under `scenario.`).
pub type LessonError = ScenarioError;

/// A language a lesson speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lang {
    /// English, `en`.
    En,
    /// Simplified Chinese, `zh-CN`.
    ZhCn,
}

impl Lang {
    /// Every language a lesson has, in the order files write them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// Its code in lesson files: `en`, `zh-CN`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language of a code (`en`, `zh-CN`), if a lesson has it.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }
}

/// A text a learner reads, in English and in Simplified Chinese: `{"en": "...", "zh-CN":
/// "..."}`. Both are required and neither may be blank.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN")]
    pub zh_cn: String,
}

impl Text {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::ZhCn => &self.zh_cn,
        }
    }
}

/// A validated lesson: its scenario parsed, every question's probe checked against it.
#[derive(Debug, Clone)]
pub struct Lesson {
    /// Short machine name (the file's name without `.json`, for the committed lessons).
    pub id: String,
    /// Title.
    pub title: Text,
    /// What the lesson teaches, in a sentence or two.
    pub summary: Text,
    /// The scenario the steps run.
    pub scenario: Scenario,
    /// The steps, in time order.
    pub steps: Vec<Step>,
}

impl Lesson {
    /// The virtual time the learner has seen when step `step` begins (and its question is
    /// asked): where the previous step stopped, or 0 for the first.
    pub fn asked_at_ms(&self, step: usize) -> u64 {
        step.checked_sub(1)
            .and_then(|p| self.steps.get(p))
            .map_or(0, |s| s.at_ms)
    }
}

/// One step: the simulation runs to `at_ms`, then `text` explains what happened. With a
/// question the learner answers first.
#[derive(Debug, Clone)]
pub struct Step {
    /// The virtual time the step runs to.
    pub at_ms: u64,
    /// What happened, shown once the step has run (after the answer, when there is a
    /// question).
    pub text: Text,
    /// The question asked before the step runs, if any.
    pub question: Option<Question>,
}

/// A question: asked before its step runs, graded against the run at its probe's time.
#[derive(Debug, Clone)]
pub struct Question {
    /// What is asked.
    pub prompt: Text,
    /// How the learner answers.
    pub kind: QuestionKind,
    /// What is measured in the run to know the right answer, and when.
    pub probe: Probe,
}

impl Question {
    /// A number question's tolerance, with the unit of its answer, for the page to state
    /// (`± 2 s`); `None` for the other kinds.
    pub fn tolerance(&self) -> Option<Tolerance> {
        match self.kind {
            QuestionKind::Number { tolerance } => Some(Tolerance {
                amount: tolerance,
                unit: self.unit(),
            }),
            _ => None,
        }
    }

    /// The unit of the answer when the probe measures a time.
    pub fn unit(&self) -> Option<TimeUnit> {
        match self.probe.measure.value_type() {
            ValueType::Time(u) => Some(u),
            _ => None,
        }
    }

    /// Whether "it does not happen" ([`Answer::Never`], or an option `"never"`) is an answer
    /// the learner may give: the probe is an `event_time` with `"never": true`.
    pub fn accepts_never(&self) -> bool {
        matches!(self.probe.measure, Measure::EventTime { never: true, .. })
    }
}

/// How a question is answered.
#[derive(Debug, Clone, PartialEq)]
pub enum QuestionKind {
    /// Pick one of the options; exactly one is the run's answer.
    Choice {
        /// The options, at least two, no two with the same value.
        options: Vec<ChoiceOption>,
    },
    /// Give a number; right when within `tolerance` of the run's answer.
    Number {
        /// How far from the answer a number may be and still count as right (0: exact).
        tolerance: f64,
    },
    /// Click a broker.
    Node {
        /// The brokers the learner may click: the scenario's.
        brokers: Vec<BrokerId>,
    },
}

impl QuestionKind {
    /// The name in lesson files: `choice`, `number`, `node`.
    pub fn name(&self) -> &'static str {
        match self {
            QuestionKind::Choice { .. } => "choice",
            QuestionKind::Number { .. } => "number",
            QuestionKind::Node { .. } => "node",
        }
    }
}

/// One option of a choice question.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceOption {
    /// What the learner reads.
    pub label: Text,
    /// What it stands for, of the type the probe gives (a broker id, a number, a list of
    /// broker ids, a member, yes or no).
    pub value: Measured,
}

/// What a question measures in the run, and when.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The checkpoint: the virtual time at which it is measured (by default the step's
    /// `at_ms`).
    pub at_ms: u64,
    /// What is measured.
    pub measure: Measure,
}

/// The probe vocabulary (the `what` of a probe). State probes read the state object at the
/// probe's time; event probes look for an event matching a pattern in a window of time.
#[derive(Debug, Clone, PartialEq)]
pub enum Measure {
    /// `controller`: the broker `/controller` names.
    Controller,
    /// `controller_epoch`: the value of `/controller_epoch`.
    ControllerEpoch,
    /// `partition.FIELD`: a field of a partition.
    Partition {
        /// `topic-N`.
        partition: String,
        /// Which field.
        field: PartitionField,
    },
    /// `group.FIELD`: a field of a consumer group.
    Group {
        /// The group id.
        group: String,
        /// Which field.
        field: GroupField,
    },
    /// `event_time`: how long after `from_ms` the first event matching `event` happened.
    EventTime {
        /// The event pattern (as a checkpoint's `events` entries, without `count`).
        event: Map<String, Value>,
        /// The window opens after this time (the event must be later).
        from_ms: u64,
        /// The unit of the answer.
        unit: TimeUnit,
        /// `"never": true`: when no event matches by the probe's time, the answer is
        /// [`Measured::Never`] (the learner may answer "it does not happen") instead of a
        /// question the run cannot decide.
        never: bool,
    },
    /// `event_happened`: whether an event matching `event` happened after `from_ms`.
    EventHappened {
        /// The event pattern.
        event: Map<String, Value>,
        /// The window opens after this time.
        from_ms: u64,
    },
}

/// The fields of a partition a probe can read (the state's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartitionField {
    /// `leader`: the leader in ZooKeeper's partition state (refused while offline).
    Leader,
    /// `isr`: the ISR in ZooKeeper's partition state, as a set.
    Isr,
    /// `leader_epoch`.
    LeaderEpoch,
    /// `high_watermark`: the acting leader's.
    HighWatermark,
    /// `acked_records`: records the producer had acknowledged.
    AckedRecords,
    /// `lost_records`: acknowledged records lost for good (the state's `lost_records` entry).
    LostRecords,
}

/// The fields of a group a probe can read (the state's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupField {
    /// `leader`: the leader's client id.
    Leader,
    /// `generation`.
    Generation,
    /// `coordinator`: the broker holding the group.
    Coordinator,
}

/// The unit of an `event_time` answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// `s`: seconds (with milliseconds as decimals).
    Seconds,
    /// `ms`: milliseconds.
    Milliseconds,
}

impl TimeUnit {
    /// Its name in lesson files: `s`, `ms`.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Milliseconds => "ms",
        }
    }

    /// How a learner reads it after a number: `s` and `ms` in English, `秒` and `毫秒` in
    /// Chinese.
    pub fn label(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, u) => u.name(),
            (Lang::ZhCn, TimeUnit::Seconds) => "秒",
            (Lang::ZhCn, TimeUnit::Milliseconds) => "毫秒",
        }
    }
}

/// A number question's tolerance as the learner is told it: how far from the run's answer a
/// number may be and still count, in the answer's unit (a time's `s` or `ms`; a count or an
/// epoch has none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// How far, at least 0 (0: the exact answer).
    pub amount: f64,
    /// The unit of the answer, for a time.
    pub unit: Option<TimeUnit>,
}

impl Tolerance {
    /// What a page shows beside the number box: `± 2 s`, `± 0.5`, `± 2 秒`; `exact` (`精确值`)
    /// for a tolerance of 0.
    pub fn label(&self, lang: Lang) -> String {
        if self.amount == 0.0 {
            return match lang {
                Lang::En => "exact".to_string(),
                Lang::ZhCn => "精确值".to_string(),
            };
        }
        match self.unit {
            Some(u) => format!("± {} {}", fmt_number(self.amount), u.label(lang)),
            None => format!("± {}", fmt_number(self.amount)),
        }
    }

    /// The numbers that count as right around `answer`: `(answer - amount, answer + amount)`.
    pub fn accepted(&self, answer: f64) -> (f64, f64) {
        (answer - self.amount, answer + self.amount)
    }
}

impl fmt::Display for Tolerance {
    /// The English label: `± 2 s`, `exact`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label(Lang::En))
    }
}

/// The type of what a probe measures: it decides which questions can ask it and what their
/// options hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// A broker id (a node question clicks it).
    Broker,
    /// An epoch or a generation: a whole number where each step is a different answer, so a
    /// number question's tolerance must be under 1.
    Epoch,
    /// A count of records or an offset.
    Count,
    /// A time, in the unit given.
    Time(TimeUnit),
    /// A set of broker ids (an ISR).
    Brokers,
    /// A group member's client id.
    Member,
    /// Yes or no.
    YesNo,
}

impl ValueType {
    /// How lesson files write such a value, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            ValueType::Broker => "a broker id",
            ValueType::Epoch | ValueType::Count | ValueType::Time(_) => "a number",
            ValueType::Brokers => "a list of broker ids",
            ValueType::Member => "a member's client id (a string)",
            ValueType::YesNo => "true or false",
        }
    }

    /// Whether a number question can ask it.
    pub fn is_number(self) -> bool {
        matches!(
            self,
            ValueType::Epoch | ValueType::Count | ValueType::Time(_)
        )
    }
}

/// A value measured in the run (or an option's value). In JSON: a number, a list of numbers,
/// a string or a boolean.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Measured {
    /// A broker id.
    Broker(BrokerId),
    /// An epoch, a count or a time.
    Number(f64),
    /// A set of broker ids, sorted.
    Brokers(Vec<BrokerId>),
    /// A member's client id.
    Member(String),
    /// Yes or no.
    YesNo(bool),
    /// The event an `event_time` probe with `"never": true` looks for did not happen by the
    /// probe's time. In JSON: `null`; an option writes it `"never"`.
    Never,
}

impl Measured {
    /// The answer as a learner reads it: the run's value in `lang` (a broker, a number with
    /// its unit when `unit` is given, a list of brokers, a member, yes or no, or "never").
    pub fn label(&self, lang: Lang, unit: Option<TimeUnit>) -> String {
        let zh = lang == Lang::ZhCn;
        match self {
            Measured::Number(n) => match unit {
                Some(u) => format!("{} {}", fmt_number(*n), u.label(lang)),
                None => fmt_number(*n),
            },
            // As the page's lesson panel says it (LESSON_YES, LESSON_NO).
            Measured::YesNo(true) if zh => "会".to_string(),
            Measured::YesNo(false) if zh => "不会".to_string(),
            Measured::Never => never_label(lang).to_string(),
            other => other.to_string(),
        }
    }
}

/// What a page shows for the answer "it does not happen" of a question whose probe has
/// `"never": true`: `never`, `不会发生`.
pub fn never_label(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "never",
        Lang::ZhCn => "不会发生",
    }
}

impl fmt::Display for Measured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Measured::Broker(b) => write!(f, "broker {b}"),
            Measured::Number(n) => f.write_str(&fmt_number(*n)),
            Measured::Brokers(bs) => write!(f, "{bs:?}"),
            Measured::Member(m) => write!(f, "{m}"),
            Measured::YesNo(true) => write!(f, "yes"),
            Measured::YesNo(false) => write!(f, "no"),
            Measured::Never => write!(f, "never"),
        }
    }
}

/// A number as lessons print it: at most three decimals (times in seconds have milliseconds),
/// without trailing zeros: `2`, `16.585`.
pub fn fmt_number(n: f64) -> String {
    let s = format!("{n:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The event that decided an answer: its index in the run's event history
/// ([`crate::World::events`]) and the event itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Decider {
    /// Its index in the event history.
    pub index: usize,
    /// The event.
    pub event: Event,
}

/// A question's answer as the run gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The step that asks the question.
    pub step: usize,
    /// The probe's time.
    pub at_ms: u64,
    /// The right answer.
    pub value: Measured,
    /// For a choice question: the index of the option that is right.
    pub option: Option<usize>,
    /// The event that decided it; `None` when no single event did (a count of records, a
    /// high watermark, an event that never happened, an epoch still 0).
    pub decider: Option<Decider>,
}

impl Resolved {
    /// The moment that decided the answer: the deciding event's time, or, when no single
    /// event decided it (an event that did not happen, a count), the probe's checkpoint.
    pub fn decided_at_ms(&self) -> u64 {
        self.decider
            .as_ref()
            .map_or(self.at_ms, |d| d.event.time_ms)
    }
}

/// Every question's answer, in step order.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    /// One for each step with a question.
    pub answers: Vec<Resolved>,
}

impl Resolution {
    /// The answer of step `step`'s question.
    pub fn for_step(&self, step: usize) -> Option<&Resolved> {
        self.answers.iter().find(|a| a.step == step)
    }
}

/// A learner's answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Answer {
    /// The index of the option picked (choice questions).
    Choice(usize),
    /// A number (number questions).
    Number(f64),
    /// The broker clicked (node questions).
    Node(BrokerId),
    /// "It does not happen" (number questions whose probe has `"never": true`).
    Never,
}

/// The grade of an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    /// Whether it is right.
    pub correct: bool,
    /// The right answer.
    pub expected: Measured,
    /// For a choice question: the index of the right option.
    pub expected_option: Option<usize>,
    /// The index in the event history of the event that decided the answer (the page
    /// highlights it and explains its cause).
    pub event: Option<usize>,
    /// The moment that decided it: the deciding event's time, or the probe's checkpoint when
    /// no single event did ("by 60 s the ISR had not shrunk").
    pub decided_at_ms: u64,
}

/// Whether a file reads as a lesson rather than a scenario: a JSON object with `steps` (a
/// page that is handed a file opens a lesson as an exercise, anything else as a scenario).
pub fn looks_like_lesson(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.as_object().map(|o| o.contains_key("steps")))
        .unwrap_or(false)
}

/// Parses a lesson and resolves its questions: what a page does when it loads a lesson. A
/// question the run cannot decide is refused here.
pub fn load(text: &str) -> Result<(Lesson, Resolution), LessonError> {
    let lesson = parse(text)?;
    let resolution = lesson.resolve()?;
    Ok((lesson, resolution))
}

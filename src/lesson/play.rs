//! A learner going through a lesson: which step they are at, what they answered, and where
//! the lesson's run may go next. The page drives it; it holds no clock and no world, only the
//! lesson's state, so every transition is tested natively.
//!
//! A step with a question starts **asking**: the run waits where the previous step stopped
//! ([`Lesson::asked_at_ms`]) until the learner answers. The answer is graded at once (against
//! the run's answer, [`Resolution`]), and the step **runs** to its time; there it is
//! **shown**: the grade, the deciding event and the step's text. A step without a question
//! runs as soon as it begins. After the last step the lesson is **done**.
//!
//! [`Progress`] is what the browser keeps of every lesson between visits (the step reached,
//! the answers given, whether it is done); it is plain JSON, and a stored progress that does
//! not read (or no longer fits its lesson) is dropped rather than trusted.

use super::{grade, Answer, Grade, Lesson, Resolution};
use crate::collections::VecMap;
use crate::session::Start;
use serde::{Deserialize, Serialize};

/// Where a learner is within a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The step's question waits for an answer; the run waits where the step begins.
    Ask,
    /// The run goes on to the step's time.
    Running,
    /// The step's time is reached: its grade and text are shown.
    Shown,
    /// Every step is shown.
    Done,
}

/// A learner's way through one lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Play {
    /// The step the learner is at (the last one once done).
    pub step: usize,
    /// Where within it.
    pub phase: Phase,
    /// Each answered step's answer and grade.
    pub answers: VecMap<usize, (Answer, Grade)>,
}

impl Play {
    /// The beginning of `lesson`: its first step asks, or runs.
    pub fn start(lesson: &Lesson) -> Play {
        let mut p = Play {
            step: 0,
            phase: Phase::Running,
            answers: VecMap::new(),
        };
        p.enter(lesson, 0);
        p
    }

    fn enter(&mut self, lesson: &Lesson, step: usize) {
        self.step = step;
        self.phase = match lesson.steps.get(step) {
            None => Phase::Done,
            Some(s) if s.question.is_some() && !self.answers.contains_key(&step) => Phase::Ask,
            Some(_) => Phase::Running,
        };
    }

    /// The virtual time the lesson's run may not pass now: where the step begins while its
    /// question waits, else the step's time (the last step's once done).
    pub fn stop_ms(&self, lesson: &Lesson) -> u64 {
        match self.phase {
            Phase::Ask => lesson.asked_at_ms(self.step),
            Phase::Running | Phase::Shown => lesson.steps.get(self.step).map_or(0, |s| s.at_ms),
            Phase::Done => lesson.steps.last().map_or(0, |s| s.at_ms),
        }
    }

    /// Answers the step's question: graded against the run's answer, the step then runs. An
    /// answer when nothing is asked, or one the question cannot take, is an error and changes
    /// nothing.
    pub fn answer(
        &mut self,
        lesson: &Lesson,
        resolution: &Resolution,
        answer: Answer,
    ) -> Result<&Grade, String> {
        if self.phase != Phase::Ask {
            return Err("no question is waiting for an answer".into());
        }
        let question = lesson
            .steps
            .get(self.step)
            .and_then(|s| s.question.as_ref())
            .ok_or("this step asks nothing")?;
        let resolved = resolution
            .for_step(self.step)
            .ok_or("this question has no answer from the run")?;
        let g = grade(question, &answer, resolved)?;
        self.answers.insert(self.step, (answer, g));
        self.phase = Phase::Running;
        Ok(&self.answers[&self.step].1)
    }

    /// The run has reached `now_ms`: a running step whose time has come is shown. Tells
    /// whether it was.
    pub fn reached(&mut self, lesson: &Lesson, now_ms: u64) -> bool {
        if self.phase == Phase::Running && now_ms >= self.stop_ms(lesson) {
            self.phase = Phase::Shown;
            true
        } else {
            false
        }
    }

    /// On to the next step once this one is shown (or done, after the last).
    pub fn next(&mut self, lesson: &Lesson) {
        if self.phase == Phase::Shown {
            self.enter(lesson, self.step + 1);
            if self.phase == Phase::Done {
                self.step = lesson.steps.len().saturating_sub(1);
            }
        }
    }

    /// The score as far as the run has shown it: the questions answered right and the
    /// questions answered, counting a step's answer only once its moment is shown (an answer
    /// whose run is still going on to show it is not graded yet, for the learner).
    pub fn revealed(&self) -> (usize, usize) {
        let shown =
            |step: usize| step < self.step || matches!(self.phase, Phase::Shown | Phase::Done);
        let graded: Vec<&Grade> = self
            .answers
            .iter()
            .filter(|(step, _)| shown(**step))
            .map(|(_, (_, g))| g)
            .collect();
        (graded.iter().filter(|g| g.correct).count(), graded.len())
    }

    /// The questions answered right, and the questions the lesson has.
    pub fn score(&self, lesson: &Lesson) -> (usize, usize) {
        let right = self.answers.values().filter(|(_, g)| g.correct).count();
        let total = lesson.steps.iter().filter(|s| s.question.is_some()).count();
        (right, total)
    }

    /// What the browser keeps of it.
    pub fn progress(&self, lesson: &Lesson) -> LessonProgress {
        let (right, total) = self.score(lesson);
        LessonProgress {
            step: self.step,
            done: self.phase == Phase::Done,
            right,
            total,
            answers: self
                .answers
                .iter()
                .map(|(step, (a, _))| (*step, StoredAnswer::from(*a)))
                .collect(),
        }
    }

    /// Where a learner left `lesson`, from what the browser kept: every stored answer is
    /// graded again against this run (so a changed model grades them afresh), and the
    /// learner is back at the step they reached, at its beginning (asking again if that
    /// step's question was not answered, shown if it was). A stored progress that does not
    /// fit the lesson (a step it does not have, an answer its question cannot take) gives
    /// `None`: the lesson starts over.
    pub fn resume(lesson: &Lesson, resolution: &Resolution, kept: &LessonProgress) -> Option<Play> {
        if kept.step >= lesson.steps.len() {
            return None;
        }
        let mut answers = VecMap::new();
        for (step, a) in &kept.answers {
            let answer = Answer::from(*a);
            let question = lesson.steps.get(*step)?.question.as_ref()?;
            let g = grade(question, &answer, resolution.for_step(*step)?).ok()?;
            answers.insert(*step, (answer, g));
        }
        let mut p = Play {
            step: 0,
            phase: Phase::Running,
            answers,
        };
        if kept.done {
            p.step = lesson.steps.len() - 1;
            p.phase = Phase::Done;
        } else {
            p.enter(lesson, kept.step);
            if p.phase == Phase::Running && lesson.steps[kept.step].question.is_some() {
                p.phase = Phase::Shown;
            }
        }
        Some(p)
    }
}

/// An answer as the browser keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredAnswer {
    /// The option picked.
    Choice(usize),
    /// The number given.
    Number(f64),
    /// The broker clicked.
    Node(crate::sim::BrokerId),
    /// "It does not happen".
    Never,
}

impl From<Answer> for StoredAnswer {
    fn from(a: Answer) -> Self {
        match a {
            Answer::Choice(i) => StoredAnswer::Choice(i),
            Answer::Number(x) => StoredAnswer::Number(x),
            Answer::Node(b) => StoredAnswer::Node(b),
            Answer::Never => StoredAnswer::Never,
        }
    }
}

impl From<StoredAnswer> for Answer {
    fn from(a: StoredAnswer) -> Self {
        match a {
            StoredAnswer::Choice(i) => Answer::Choice(i),
            StoredAnswer::Number(x) => Answer::Number(x),
            StoredAnswer::Node(b) => Answer::Node(b),
            StoredAnswer::Never => Answer::Never,
        }
    }
}

/// What the browser keeps of one lesson.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// The step reached.
    pub step: usize,
    /// Whether every step was shown.
    pub done: bool,
    /// Questions answered right.
    pub right: usize,
    /// Questions the lesson has.
    pub total: usize,
    /// The answers given, by step.
    pub answers: VecMap<usize, StoredAnswer>,
}

/// What the browser keeps of every lesson, by lesson id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The format's version (1).
    pub version: u32,
    /// Each lesson's, by id.
    pub lessons: VecMap<String, LessonProgress>,
}

impl Progress {
    /// Reads what the browser kept; anything that does not read as version 1 is an error
    /// (the page then starts afresh and says so).
    pub fn parse(text: &str) -> Result<Progress, String> {
        let p: Progress = serde_json::from_str(text)
            .map_err(|e| format!("the lesson progress kept in this browser does not read: {e}"))?;
        if p.version != 1 {
            return Err(format!(
                "the lesson progress kept in this browser is version {}, not 1",
                p.version
            ));
        }
        Ok(p)
    }

    /// As the browser keeps it.
    pub fn to_json(&self) -> String {
        let mut p = self.clone();
        p.version = 1;
        serde_json::to_string(&p).unwrap_or_default()
    }
}

/// The session a page runs for `lesson` (read from `text`, its file): the lesson's scenario as
/// a scripted start, with `base` as the page parameters that name it. Its run is the run the
/// lesson's answers come from (`tests/lesson_sessions.rs` checks every committed lesson).
pub fn session_start(lesson: &Lesson, text: &str, base: Vec<(String, String)>) -> Start {
    let scenario = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("scenario").map(|s| s.to_string()))
        .unwrap_or_default();
    Start::from_scenario(base, &lesson.scenario, &scenario)
}

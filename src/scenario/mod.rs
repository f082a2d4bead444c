//! Scenario files (version 1): the whole input of one simulation (described in
//! `docs/scenario-format.md`). Parsed with serde, unknown keys rejected; every problem is
//! reported as one line naming the place and what is wrong, and nothing runs.
//!
//! - `file.rs`: the file as written (its serde shapes).
//! - `json.rs`: reading JSON with every key of an object once.
//! - `parse.rs`: parsing and validation into a [`Scenario`], with the exact place of every
//!   problem.
//! - `actions.rs`: the timed actions and the [`Command`] each stands for.
//! - `checkpoints.rs`: the `expect` checkpoints, their validation and their comparison with a
//!   run's state and events.
//! - `run.rs`: the [`Runner`] that plays a scenario's actions on a world.
//! - `budget.rs`: the work budget, which refuses a run that would take too long to simulate.

use crate::sim::{Command, Setup};
use std::fmt;

mod actions;
pub mod budget;
mod checkpoints;
mod file;
mod json;
mod parse;
mod run;

pub use actions::{command_from_json, to_action, ActionSpec};
pub(crate) use checkpoints::pattern_matches;
pub use checkpoints::{compare_checkpoint, CheckResult, Checkpoint};
pub use file::{GroupFile, ScenarioFile, TopicFile};
pub(crate) use parse::read_file;
pub use parse::{parse, parse_value};
pub use run::Runner;

#[cfg(test)]
mod actions_test;
#[cfg(test)]
mod budget_test;
#[cfg(test)]
mod checkpoints_test;
#[cfg(test)]
mod parse_test;
#[cfg(test)]
mod run_test;

/// The most brokers a scenario may list.
pub const MAX_BROKERS: usize = 64;

/// The latest virtual time a scenario may name (one day): it bounds how long a run can take.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// Checks that a time is within [`MAX_TIME_MS`].
pub fn check_time(what: &str, ms: u64) -> Result<u64, String> {
    if ms > MAX_TIME_MS {
        Err(format!(
            "{what} {ms} is past the longest run a scenario may have ({MAX_TIME_MS} ms, one day)"
        ))
    } else {
        Ok(ms)
    }
}

/// The most partitions a scenario's topics may have in all.
pub const MAX_PARTITIONS: usize = 256;

/// A problem with a scenario (or a lesson, which holds one): where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The place, e.g. `actions[2]` or `steps[3].question.probe` (empty for the whole file).
    pub place: String,
    /// What is wrong.
    pub message: String,
}

impl ScenarioError {
    pub(crate) fn at(place: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            place: place.into(),
            message: message.into(),
        }
    }

    /// The same problem placed under `prefix` (a scenario inside a lesson is under
    /// `scenario`: `actions[1]` becomes `scenario.actions[1]`).
    pub(crate) fn under(self, prefix: &str) -> Self {
        let place = if self.place.is_empty() {
            prefix.to_string()
        } else {
            format!("{prefix}.{}", self.place)
        };
        ScenarioError { place, ..self }
    }
}

/// `text` on one line: a control character (a newline, a tab, a NUL) a file put into a name
/// is written as its escape (`\n`, `\t`, `\0`), so that a message quoting the name stays one
/// line.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = one_line(&self.message);
        if self.place.is_empty() {
            write!(f, "{message}")
        } else {
            write!(f, "{}: {message}", one_line(&self.place))
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A validated scenario, ready to run.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The file as written.
    pub file: ScenarioFile,
    /// The world's setup.
    pub setup: Setup,
    /// Actions with their times, in order.
    pub actions: Vec<(u64, Command)>,
    /// When the run ends.
    pub until_ms: u64,
    /// Checkpoints in time order.
    pub checkpoints: Vec<Checkpoint>,
}

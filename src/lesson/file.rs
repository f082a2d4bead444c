//! The lesson file as written (format version 1): the serde shapes of the file, its steps,
//! questions and options, unknown keys rejected. The scenario and the probe are kept as JSON
//! here and validated in `parse` (the scenario by the scenario parser, the probe by `probe`).

use super::Text;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A lesson file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonFile {
    /// Format version; must be 1.
    pub version: u32,
    /// Short machine name.
    pub id: String,
    /// Title.
    pub title: Text,
    /// What the lesson teaches.
    pub summary: Text,
    /// The scenario, the same object a scenario file holds.
    pub scenario: Value,
    /// The steps, in time order.
    pub steps: Vec<StepFile>,
}

/// A step as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepFile {
    /// The virtual time the step runs to.
    pub at_ms: u64,
    /// What happened, shown once the step has run.
    pub text: Text,
    /// The question asked before it runs.
    #[serde(default)]
    pub question: Option<QuestionFile>,
}

/// The kind of a question as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KindName {
    /// Pick an option.
    Choice,
    /// Give a number.
    Number,
    /// Click a broker.
    Node,
}

/// A question as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionFile {
    /// What is asked.
    pub prompt: Text,
    /// `choice`, `number` or `node`.
    pub kind: KindName,
    /// A choice question's options.
    #[serde(default)]
    pub options: Option<Vec<OptionFile>>,
    /// A number question's tolerance.
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// What is measured in the run.
    pub probe: Map<String, Value>,
}

/// An option of a choice question as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionFile {
    /// What the learner reads.
    pub label: Text,
    /// What it stands for.
    pub value: Value,
}

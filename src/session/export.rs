//! A session written as a scenario file (format version 1): its start's setup, the scripted
//! steps that applied and the learner's commands as timed actions, and `until_ms` at the
//! session's end. `kafka-election run` on the file gives the session's trace.

use super::Session;
use crate::scenario::to_action;
use serde_json::Value;

impl Session {
    /// The session as a scenario file's text (pretty JSON). The scripted steps that were
    /// skipped (they could not apply) are left out; a story's checkpoints are left out too,
    /// since the learner's commands may have changed what they check.
    pub fn export(&self) -> String {
        // Which scripted steps the whole session skips: a replay to the end tells.
        let mut probe = self.probe();
        probe.advance_plain(self.end_ms);
        let skipped = probe.now.skipped;
        let end = self.end_ms;
        let mut actions: Vec<(u64, usize, Value)> = Vec::new();
        for (i, (at, cmd)) in self.start.script.iter().enumerate() {
            if *at <= end && !skipped.contains(&i) {
                actions.push((*at, 0, to_action(*at, cmd)));
            }
        }
        for (at, cmd) in &self.recorded {
            actions.push((*at, 1, to_action(*at, cmd)));
        }
        // In time order; at the same time the script's step first, as the session ran them.
        crate::collections::sort_by_key(&mut actions, |(at, from_learner, _)| (*at, *from_learner));
        let mut file = match self.start.file() {
            Value::Object(o) => o,
            _ => serde_json::Map::new(),
        };
        file.remove("expect");
        file.insert(
            "actions".into(),
            Value::Array(actions.into_iter().map(|(_, _, a)| a).collect()),
        );
        file.insert("until_ms".into(), Value::from(end));
        serde_json::to_string_pretty(&Value::Object(file)).unwrap_or_default()
    }

    /// A copy of the present without snapshots, for looking ahead.
    pub(super) fn probe(&self) -> Session {
        Session {
            start: self.start.clone(),
            recorded: self.recorded.clone(),
            now: self.now.clone(),
            end_ms: self.end_ms,
            snapshots: Vec::new(),
            hold_snapshots: false,
            fork: None,
            skipped_messages: Vec::new(),
        }
    }
}

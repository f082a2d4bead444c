//! Running a scenario: the [`Runner`] applies the scripted actions as virtual time reaches
//! them (stopping at one that cannot apply, or on the page skipping it), and
//! [`Scenario::check`] runs to every checkpoint and compares.

use super::checkpoints::compare_checkpoint;
use super::{CheckResult, Scenario, ScenarioError};
use crate::sim::{Command, World};

/// A scenario being run: the world and how far through the actions it is.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The world.
    pub world: World,
    actions: Vec<(u64, Command)>,
    next: usize,
}

impl Runner {
    /// A fresh run of `scenario`.
    pub fn new(scenario: &Scenario) -> Runner {
        Runner {
            world: World::new(&scenario.setup),
            actions: scenario.actions.clone(),
            next: 0,
        }
    }

    /// A run of a plain world with no scripted actions (free play on the page).
    pub fn free(world: World) -> Runner {
        Runner {
            world,
            actions: Vec::new(),
            next: 0,
        }
    }

    /// Runs to `t`, applying the actions due on the way. An action that cannot apply (say,
    /// crashing a broker that is not running) stops the run with a message naming it.
    pub fn advance_to(&mut self, t: u64) -> Result<(), ScenarioError> {
        while let Some((at, cmd)) = self.due(t) {
            self.world.advance_to(at);
            self.world.apply(cmd).map_err(|e| {
                ScenarioError::at(format!("actions[{}] (at {at} ms)", self.next), e)
            })?;
            self.next += 1;
        }
        self.world.advance_to(t);
        Ok(())
    }

    /// Runs to `t` like [`Runner::advance_to`], but an action that cannot apply (on the page a
    /// learner may already have crashed the broker a story was about to crash) is skipped;
    /// the messages of the skipped actions are returned.
    pub fn advance_to_skipping(&mut self, t: u64) -> Vec<String> {
        let mut skipped = Vec::new();
        while let Some((at, cmd)) = self.due(t) {
            self.world.advance_to(at);
            let what = cmd.to_string();
            if let Err(e) = self.world.apply(cmd) {
                skipped.push(format!("the story's next step ({what}) was skipped: {e}"));
            }
            self.next += 1;
        }
        self.world.advance_to(t);
        skipped
    }

    fn due(&self, t: u64) -> Option<(u64, Command)> {
        self.actions
            .get(self.next)
            .filter(|(at, _)| *at <= t)
            .cloned()
    }

    /// The scripted actions not applied yet, in order.
    pub fn upcoming(&self) -> &[(u64, Command)] {
        &self.actions[self.next.min(self.actions.len())..]
    }
}

impl Scenario {
    /// Runs every checkpoint and reports what differed.
    pub fn check(&self) -> Result<Vec<CheckResult>, ScenarioError> {
        let mut runner = Runner::new(self);
        let mut results = Vec::new();
        for cp in &self.checkpoints {
            runner.advance_to(cp.at_ms)?;
            results.push(CheckResult {
                at_ms: cp.at_ms,
                differences: compare_checkpoint(cp, &runner.world.state(), runner.world.events()),
            });
        }
        Ok(results)
    }
}

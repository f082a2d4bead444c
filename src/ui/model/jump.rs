//! "Next event": skip a wait by moving virtual time to the next moment the world does
//! something the event log records (or the story's next step, or a starting consumer's join).

use super::{Host, Model};
use crate::view::waits::{nothing_within, JUMP_HORIZON_MS};

impl Host {
    /// The virtual time of the next thing a learner would see, within
    /// [`JUMP_HORIZON_MS`]: the world's next event ([`crate::sim::World::next_event_time`]),
    /// the story's next scripted step or free play's next starting consumer, whichever
    /// comes first.
    pub fn next_event_at(&self) -> Option<u64> {
        let world = &self.runner.world;
        let now = world.now();
        let limit = now.saturating_add(JUMP_HORIZON_MS);
        let scripted = self
            .runner
            .upcoming()
            .first()
            .map(|(at, _)| *at)
            .into_iter()
            .chain(self.pending_joins.first().map(|(at, _)| *at))
            .filter(|at| *at >= now && *at <= limit);
        world
            .next_event_time(JUMP_HORIZON_MS)
            .into_iter()
            .chain(scripted)
            .min()
    }

    /// Moves the world to `t` as the clock would, without drawing the messages sent on the
    /// way; returns the story steps that had to be skipped.
    fn jump_to(&mut self, t: u64) -> Vec<String> {
        let skipped = self.advance_to(t);
        self.virt = self.virt.max(t as f64);
        self.flights.skip_sent_before(&self.runner.world, t);
        let anim = self.anim_now;
        self.flights.ingest(&self.runner.world, t, t, anim, anim);
        skipped
    }
}

impl Model {
    /// Jumps to the next event: the new model, with a message when nothing happens within
    /// the horizon (the clock then stays) or story steps were skipped.
    pub(super) fn jump_next(&self) -> Model {
        let mut m = self.next();
        let mut host = m.host.borrow_mut();
        let result = match host.next_event_at() {
            Some(t) => {
                let skipped = host.jump_to(t);
                (!skipped.is_empty()).then(|| skipped.join("; "))
            }
            None => Some(nothing_within(JUMP_HORIZON_MS)),
        };
        drop(host);
        m.error = result;
        m
    }
}

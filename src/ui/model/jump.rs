//! "Next event": skip a wait by moving virtual time to the next moment the world does
//! something the event log records (or the story's next step, or a starting consumer's join).

use super::{tell_skipped, Host, Model};
use crate::view::waits::nothing_within;

impl Host {
    /// The virtual time of the next thing a learner would see, within
    /// [`crate::session::STEP_HORIZON_MS`]: the next moment the event log grows, with the
    /// story's steps, free play's starting consumers and the recorded commands applied on
    /// the way ([`crate::session::Session::next_event_ms`]).
    pub fn next_event_at(&self) -> Option<u64> {
        self.session.next_event_ms()
    }

    /// Moves the world to `t` as the clock would, without drawing the messages sent on the
    /// way; returns the story steps that had to be skipped.
    fn jump_to(&mut self, t: u64) -> Vec<String> {
        let skipped = self.advance_to(t);
        self.virt = self.virt.max(t as f64);
        self.flights.skip_sent_before(self.session.world(), t);
        let anim = self.anim_now;
        self.flights.ingest(self.session.world(), t, t, anim, anim);
        skipped
    }
}

impl Model {
    /// Jumps to the next event: the new model, with a message when nothing happens within
    /// the horizon (the clock then stays) or story steps were skipped.
    pub(super) fn jump_next(&self) -> Model {
        let mut m = self.next();
        let next = m.host.borrow().next_event_at();
        match next {
            Some(t) => {
                let skipped = m.host.borrow_mut().jump_to(t);
                m.error = None;
                tell_skipped(&mut m.notice, &skipped);
            }
            None => m.error = Some(nothing_within(crate::session::STEP_HORIZON_MS, &self.tr())),
        }
        m
    }
}

//! What holds a story back before its first step: a story the page's address opens starts
//! when the page comes into view, or, opened paused (`paused=1`), when the learner presses
//! the play overlay on the graph (or runs the clock, or moves it by hand).

use super::Model;

/// What the clock waits for before it first runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StartGate {
    /// Nothing: the play button alone decides.
    #[default]
    Open,
    /// A story opened by the address: it runs once the page is in view.
    WhenSeen,
    /// A story opened paused: the graph shows a play overlay until the clock runs.
    Overlay,
}

impl StartGate {
    /// The gate of a page opened with a story (or not) and paused (or not).
    pub fn opened(story: bool, paused: bool) -> StartGate {
        match (story, paused) {
            (false, _) => StartGate::Open,
            (true, false) => StartGate::WhenSeen,
            (true, true) => StartGate::Overlay,
        }
    }
}

impl Model {
    /// The page came into view: a story waiting for it starts.
    pub(super) fn seen(&self) -> Model {
        let mut m = self.next();
        if m.gate == StartGate::WhenSeen {
            m.playing = true;
            m.gate = StartGate::Open;
        }
        m
    }

    /// The clock was moved by hand (a seek or a scrub, a step, the next event, an event picked
    /// in the log): the learner has taken the story in hand, so a paused story's play overlay
    /// leaves the graph (the toolbar's play button still starts the clock).
    pub(super) fn moved_by_hand(&mut self) {
        if self.gate == StartGate::Overlay {
            self.gate = StartGate::Open;
        }
    }
}

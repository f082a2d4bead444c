//! What the page can ask of the model: the reducer's actions.

use crate::i18n::{Catalogue, Lang};
use crate::lesson::index::LessonFiles;
use crate::lesson::Answer;
use crate::sim::assignors::Assignor;
use crate::sim::{Acks, BrokerId, Command, Profile};
use std::rc::Rc;

/// What the page can ask of the model.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// An animation frame at this `performance.now()` timestamp.
    Frame(f64),
    /// Apply a command to the world now.
    Apply(Command),
    /// Play or pause the clock.
    TogglePlay,
    /// Run (`true`) or stop the clock.
    SetPlaying(bool),
    /// Something outside the page (the JavaScript API) changed the world: draw it again.
    Refresh,
    /// Change the speed.
    SetSpeed(f64),
    /// A new world with the same settings.
    Reset,
    /// A new world with this many brokers.
    SetBrokers(u32),
    /// A new world with this profile.
    SetProfile(Profile),
    /// A new world with this seed.
    SetSeed(u64),
    /// Play a story (or go back to free play with `None`).
    SetStory(Option<usize>),
    /// Open (or close) a broker's panel.
    Select(Option<BrokerId>),
    /// Show an error.
    ShowError(String),
    /// Hide the error.
    DismissError,
    /// Show a passing notice (not an error), e.g. "link copied".
    ShowNotice(String),
    /// Show only the key events, or all.
    SetKeyOnly(bool),
    /// The text of the pause-length field changed.
    SetPauseText(String),
    /// A new world whose topic has this many partitions.
    SetPartitions(u32),
    /// A new world whose topic has this replication factor.
    SetRf(u32),
    /// The produce controls act on this partition (`T-0`).
    SetProduceTo(String),
    /// The text of the rate field changed.
    SetRateText(String),
    /// The acks chosen for the next stream or batch.
    SetAcks(Acks),
    /// The text of the send-count field changed.
    SetSendText(String),
    /// A new consumer (the next free name, `cN`) joins this group.
    AddConsumer(String),
    /// A new world whose group uses this assignor (free play).
    SetAssignor(Assignor),
    /// List every partition of `__consumer_offsets` in the table, or only the coordinators'.
    SetShowInternal(bool),
    /// Show virtual time `t` (the timeline): the clock stops there.
    Seek(u64),
    /// Show the moment of the event with this index and highlight what it is about.
    PickEvent(usize),
    /// Move to the next moment at which an event happens.
    StepForward,
    /// Move back to the previous moment at which an event happened.
    StepBack,
    /// Undo the last fork: the commands it dropped come back.
    UndoFork,
    /// Keep the last fork (hide its note; it can no longer be undone).
    KeepFork,
    /// Open a session from a link's fragment (without `#`); a bad link leaves the session as
    /// it is and says why.
    OpenLink(String),
    /// Open a scenario file's text as a new session; a bad file leaves the session as it is
    /// and says why.
    Import(String),
    /// Skip the wait: move the clock to the next event (`Host::next_event_at`).
    JumpNext,
    /// The page came into view (a story waiting to be seen starts).
    Seen,
    /// Show the page in this language (the session goes on as it is).
    SetLang(Lang),
    /// The Chinese catalogue arrived, or could not be fetched (why).
    Catalogue(Result<Rc<Catalogue>, String>),
    /// The lesson list shown (`true`) or closed.
    Lessons(bool),
    /// The lesson list's files arrived, `(id, text)` in teaching order (or the index could not
    /// be fetched).
    Catalog(Result<LessonFiles, String>),
    /// A committed lesson asked for (by id): the page fetches it.
    OpenLesson(String),
    /// A committed lesson's file arrived (or could not be fetched).
    LessonArrived(String, Result<String, String>),
    /// The learner's answer to the question asked.
    LessonAnswer(Answer),
    /// On to the lesson's next step.
    LessonNext,
    /// The running step's time, at once.
    LessonSkip,
    /// Back to the lesson's run after acting on the cluster.
    LessonReturn,
    /// The lesson from its first step.
    LessonRestart,
    /// Out of the lesson, back to the list.
    LessonExit,
    /// Every lesson's progress forgotten.
    ResetProgress,
}

impl Action {
    /// Whether the action sets up another cluster (or opens another session), ending a
    /// lesson.
    pub(super) fn leaves_lesson(&self) -> bool {
        matches!(
            self,
            Action::SetBrokers(_)
                | Action::SetProfile(_)
                | Action::SetSeed(_)
                | Action::SetStory(_)
                | Action::SetPartitions(_)
                | Action::SetRf(_)
                | Action::SetAssignor(_)
                | Action::OpenLink(_)
                | Action::OpenLesson(_)
        )
    }
}

//! The world's causes: the actions of a scenario or a click (each names the action and what
//! it does), the scenario's startup order, and the safety monitor.

use crate::i18n::{msg_causes as m, Tr};

/// Why the world did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorldCause {
    /// The scenario's brokers start one after the other.
    StartInOrder,
    /// `start`: a new process with a new session.
    StartAction,
    /// `crash`: the process dies without a goodbye.
    CrashAction,
    /// `cut`: a link drops everything.
    CutAction,
    /// `heal`: a link carries messages again.
    HealAction,
    /// `produce` with a rate: a steady stream.
    ProduceAction,
    /// `stop_producing`.
    StopAction,
    /// `stall_fetcher`.
    StallAction,
    /// `resume_fetcher`.
    ResumeAction,
    /// `set_config`: a dynamic configuration change (`kafka-configs --alter`).
    SetConfigAction,
    /// `delete_controller`: an operator deletes `/controller` (zookeeper-shell).
    DeleteControllerAction,
    /// The safety monitor found an invariant broken.
    MonitorCheck,
}

impl WorldCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&Tr::en())
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &Tr) -> String {
        tr.t(match self {
            WorldCause::StartInOrder => m::CAUSE_WORLD_START_IN_ORDER,
            WorldCause::StartAction => m::CAUSE_WORLD_START_ACTION,
            WorldCause::CrashAction => m::CAUSE_WORLD_CRASH_ACTION,
            WorldCause::CutAction => m::CAUSE_WORLD_CUT_ACTION,
            WorldCause::HealAction => m::CAUSE_WORLD_HEAL_ACTION,
            WorldCause::ProduceAction => m::CAUSE_WORLD_PRODUCE_ACTION,
            WorldCause::StopAction => m::CAUSE_WORLD_STOP_ACTION,
            WorldCause::StallAction => m::CAUSE_WORLD_STALL_ACTION,
            WorldCause::ResumeAction => m::CAUSE_WORLD_RESUME_ACTION,
            WorldCause::SetConfigAction => m::CAUSE_WORLD_SET_CONFIG_ACTION,
            WorldCause::DeleteControllerAction => m::CAUSE_WORLD_DELETE_CONTROLLER_ACTION,
            WorldCause::MonitorCheck => m::CAUSE_WORLD_MONITOR_CHECK,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_world_cause_renders_its_sentence() {
        let cases = [
            (WorldCause::StartInOrder, "the scenario's brokers start in the listed order"),
            (WorldCause::StartAction, "start action: a new process, a new ZooKeeper session"),
            (WorldCause::CrashAction, "crash action: the process dies at once; ZooKeeper notices only when the session times out"),
            (WorldCause::CutAction, "cut action: the link drops every message, in flight or new"),
            (WorldCause::HealAction, "heal action: the link carries messages again"),
            (WorldCause::ProduceAction, "produce action: a steady stream of records"),
            (WorldCause::StopAction, "stop action"),
            (WorldCause::StallAction, "stall action: the follower stops sending fetch requests (a slow disk, a stuck thread); the leader sees it fall behind"),
            (WorldCause::ResumeAction, "resume action: the follower fetches again and catches up"),
            (WorldCause::SetConfigAction, "set_config action: a dynamic configuration change (kafka-configs --alter)"),
            (WorldCause::DeleteControllerAction, "delete_controller action: an operator deletes /controller (zookeeper-shell), the way to move the controller; the brokers' watches fire and they race again, while the old controller finishes the event it is handling first"),
            (WorldCause::MonitorCheck, "the safety monitor checks every invariant after every step"),
        ];
        let zh = crate::i18n::testing::zh();
        for (cause, text) in cases {
            assert_eq!(cause.english(), text, "{cause:?}");
            crate::i18n::testing::assert_chinese(&cause.render(&zh), &cause.english());
        }
    }
}

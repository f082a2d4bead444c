//! The world's causes: the actions of a scenario or a click (each names the action and what
//! it does), the scenario's startup order, and the safety monitor.

use crate::text::{causes as m, English, Words};

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
    /// `reassign` before 3.0: `kafka-reassign-partitions --execute` refused it and wrote
    /// nothing.
    ReassignToolRefused(ToolRefusal),
    /// The safety monitor found an invariant broken.
    MonitorCheck,
}

/// Why the reassignment tool of a release before 3.0 refused a `reassign`
/// (`ReassignPartitionsCommand.executeAssignment`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolRefusal {
    /// `parseAndValidate` (2.0.1, 2.4.1): some brokers of the proposed assignment are not in
    /// `/brokers/ids`.
    NonExistentBrokers(Vec<crate::sim::net::BrokerId>),
    /// `/admin/reassign_partitions` exists: a reassignment is in progress (0.10.2.2, 2.0.1,
    /// 2.4.1), and the tool only adjusts its throttle.
    InProgress,
}

impl ToolRefusal {
    /// What the tool prints, in Kafka's words.
    pub fn kafka_text(&self) -> String {
        match self {
            ToolRefusal::NonExistentBrokers(ids) => format!(
                "The proposed assignment contains non-existent brokerIDs: {}",
                ids.iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            ToolRefusal::InProgress => "There is an existing assignment running.".into(),
        }
    }
}

impl WorldCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
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
            WorldCause::ReassignToolRefused(ToolRefusal::NonExistentBrokers(ids)) => {
                let ids: Vec<String> = ids.iter().map(|b| b.to_string()).collect();
                return tr.f(
                    m::CAUSE_WORLD_REASSIGN_NON_EXISTENT,
                    &[("brokers", &ids.join(", "))],
                );
            }
            WorldCause::ReassignToolRefused(ToolRefusal::InProgress) => {
                m::CAUSE_WORLD_REASSIGN_IN_PROGRESS
            }
        })
    }
}

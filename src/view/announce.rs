//! What the page says about the moment: the latest key event as the event log's sentence for
//! it (read out to screen readers and shown beside the graph as "just now"), and what to try
//! next in free play. The key events are the log's own ([`EventKind::is_key`]): the strip, the
//! screen reader and the log's default filter pick the same events.

use super::format::click_starts;
use crate::i18n::event_text::what;
use crate::i18n::{msg_graph as g, Tr};
use crate::sim::{fmt_ms, BrokerState, ClusterState, ControllerRole, Event, EventKind, History};

/// The sentence announcing `kind` in the reader's language, if it is a key event: the event
/// log's own plain sentence for it ([`what`]), so the strip, the screen reader and the log say
/// the same thing.
pub fn announcement(kind: &EventKind, tr: &Tr) -> Option<String> {
    kind.is_key().then(|| what(kind, tr))
}

/// The latest key event of `events`: its index, its time and its sentence.
pub fn latest(events: &History<Event>, tr: &Tr) -> Option<(usize, u64, String)> {
    let n = events.len();
    events
        .iter()
        .rev()
        .enumerate()
        .find_map(|(k, e)| announcement(&e.kind, tr).map(|s| (n - 1 - k, e.time_ms, s)))
}

/// The latest key event as the page shows it beside the graph: `t = 1.234s: …`.
pub fn latest_line(events: &History<Event>, tr: &Tr) -> Option<String> {
    latest(events, tr).map(|(_, at, s)| format!("t = {}: {s}", fmt_ms(at)))
}

/// What to try next in free play, from the cluster as it stands.
pub fn next_try(state: &ClusterState, tr: &Tr) -> String {
    let down: Vec<u32> = state
        .brokers
        .iter()
        .filter(|(_, b)| click_starts(b) && b.state != BrokerState::NotStarted)
        .map(|(id, _)| *id)
        .collect();
    let counting: Vec<u32> = state
        .brokers
        .iter()
        .filter(|(_, b)| b.session_countdown_ms.is_some())
        .map(|(id, _)| *id)
        .collect();
    let zombie = state
        .brokers
        .iter()
        .find(|(_, b)| b.controller_role == ControllerRole::Zombie)
        .map(|(id, _)| *id);
    if let Some(z) = zombie {
        return tr.f(g::TRY_ZOMBIE, &[("broker", &z)]);
    }
    match state.controller {
        None if !counting.is_empty() => tr.f(g::TRY_WATCH_RING, &[("broker", &counting[0])]),
        None if !down.is_empty() && down.len() == state.brokers.len() => tr.t(g::TRY_ALL_DOWN),
        None => tr.t(g::TRY_WAIT_RACE),
        Some(c) if down.contains(&c) => tr.f(g::TRY_CONTROLLER_DOWN, &[("broker", &c)]),
        Some(c) => match down.first() {
            Some(d) => tr.f(g::TRY_START_OR_CRASH, &[("down", d), ("controller", &c)]),
            None => tr.f(g::TRY_CRASH_CONTROLLER, &[("controller", &c)]),
        },
    }
}

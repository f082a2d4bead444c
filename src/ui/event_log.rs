//! The event log: every event of the world with its virtual time, a readable sentence and
//! the rule that caused it. Elections, ISR changes, offline partitions, lost records and the
//! consumer groups' steps each have their own look (by `data-kind` and a family class); a
//! leader election names its reason in a tag, a group leader's pick its generation, with the
//! reason it was picked set out below. Runs of events about `__consumer_offsets` partitions
//! that hold no group fold into one line that opens on demand. Newest at the bottom; it
//! follows new events unless the reader scrolled up. It renders again only when the number
//! of events, the world or the filter changes, not on every animation frame.

use super::model::Host;
use crate::i18n::{msg, Tr};
use crate::sim::coordinator::OFFSETS_TOPIC;
use crate::sim::{fmt_ms, Event as SimEvent, EventKind};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Whether the log draws attention to an event.
fn highlighted(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::ControllerElected { .. }
            | EventKind::StaleRequestRejected { .. }
            | EventKind::InvariantViolated { .. }
            | EventKind::LeaderElected { .. }
            | EventKind::PartitionOffline { .. }
            | EventKind::RecordsLost { .. }
            | EventKind::GroupLeaderChosen { .. }
            | EventKind::CoordinatorMoved { .. }
    )
}

/// The family an event belongs to, for its look.
fn family(kind: &EventKind) -> Option<&'static str> {
    Some(match kind {
        EventKind::LeaderElected { .. } | EventKind::LeaderEpochBumped { .. } => "ev-election",
        EventKind::PartitionOffline { .. } | EventKind::LeaderElectionFailed { .. } => "ev-offline",
        EventKind::IsrShrunk { .. } => "ev-isr-shrunk",
        EventKind::IsrExpanded { .. } => "ev-isr-expanded",
        EventKind::IsrChangeAccepted { .. } | EventKind::IsrUpdateFailed { .. } => "ev-isr",
        EventKind::RecordsLost { .. } => "ev-loss",
        EventKind::ReplicaTruncated { .. } => "ev-truncated",
        EventKind::ProduceFailed { .. } => "ev-produce-failed",
        EventKind::ProduceRetrying { .. } => "ev-produce-retrying",
        EventKind::ProduceRecovered { .. } | EventKind::DuplicateDropped { .. } => "ev-produce-ok",
        EventKind::DuplicateWritten { .. } => "ev-duplicate",
        EventKind::ProducerStarted { .. }
        | EventKind::ProducerStopped { .. }
        | EventKind::ConfigChanged { .. }
        | EventKind::FetcherStalled { .. }
        | EventKind::FetcherResumed { .. }
        | EventKind::TopicCreated { .. }
        | EventKind::LeaderImbalanceChecked { .. }
        | EventKind::ReassignmentStarted { .. }
        | EventKind::ReassignmentCompleted { .. } => "ev-data",
        EventKind::GroupLeaderChosen { .. } => "ev-group-leader",
        EventKind::RebalanceStarted { .. } => "ev-rebalance",
        EventKind::GroupStable { .. } => "ev-group-stable",
        EventKind::GroupEmpty { .. } => "ev-group-empty",
        EventKind::GroupMemberRemoved { .. } => "ev-member-removed",
        EventKind::CoordinatorMoved { .. } => "ev-coordinator",
        EventKind::ConsumerCrashed { .. } => "ev-consumer-crashed",
        EventKind::GroupMemberJoined { .. }
        | EventKind::ConsumerLeaving { .. }
        | EventKind::CoordinatorFound { .. } => "ev-group",
        _ => return None,
    })
}

/// A tag that says at a glance why: a leader election's reason.
fn tag(kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::LeaderElected { reason, .. } => {
            Some(format!("{} election", reason.name().replace('_', " ")))
        }
        EventKind::GroupLeaderChosen { generation, .. } => {
            Some(format!("leader · gen {generation}"))
        }
        EventKind::RebalanceStarted { generation, .. } => {
            Some(format!("rebalance → gen {}", generation + 1))
        }
        EventKind::GroupStable { generation, .. } => Some(format!("gen {generation} stable")),
        EventKind::GroupEmpty { generation, .. } => Some(format!("gen {generation} empty")),
        EventKind::CoordinatorMoved { broker, .. } => {
            Some(format!("coordinator → broker {broker}"))
        }
        _ => None,
    }
}

/// One event as the log lists it; its time is a button that shows the cluster at that
/// moment, with the nodes it is about highlighted.
fn entry(i: usize, e: &SimEvent, text: &str, on_pick: &Callback<usize>) -> Html {
    let kind = e.kind.name();
    let hl = highlighted(&e.kind);
    let tag = tag(&e.kind);
    // A group leader's pick: the reason is the point, so it reads as a sentence of its own.
    let why_first = matches!(e.kind, EventKind::GroupLeaderChosen { .. });
    html! {
        <li key={i} class={classes!("event", hl.then_some("hl"), family(&e.kind))} data-kind={kind} data-index={i.to_string()}>
            <button class="when-pick" data-testid="event-time"
                    title="Show the cluster at this moment, with the nodes this event is about highlighted"
                    aria-label={format!("Show the cluster at t = {}", fmt_ms(e.time_ms))}
                    onclick={ let p = on_pick.clone(); Callback::from(move |_: MouseEvent| p.emit(i)) }>
                <time class="when">{ fmt_ms(e.time_ms) }</time>
            </button>
            // Spaces keep the entry's text readable as words ("0.051s broker 1 …").
            { " " }
            <div class="body">
                <p class="what">{ text.to_string() }</p>
                { " " }
                if why_first {
                    <p class="because"><span class="because-label">{ "why: " }</span>{ e.cause.english() }</p>
                    { " " }
                }
                <p class="why">
                    <span class="kind">{ kind }</span>
                    if let Some(t) = tag {
                        { " " }<span class="reason-tag">{ t }</span>
                    }
                    if !why_first {
                        { " · " }{ e.cause.english() }
                    }
                </p>
            </div>
        </li>
    }
}

/// A run of events about `__consumer_offsets` partitions that hold no group, folded.
fn fold(part: &[(usize, &SimEvent, String)], on_pick: &Callback<usize>) -> Html {
    let first = part.first().map_or(0, |(i, _, _)| *i);
    let at = part.first().map_or(0, |(_, e, _)| e.time_ms);
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for (_, e, _) in part {
        let k = e.kind.name();
        match kinds.iter_mut().find(|(n, _)| *n == k) {
            Some((_, c)) => *c += 1,
            None => kinds.push((k, 1)),
        }
    }
    let summary = format!(
        "{} events about other {OFFSETS_TOPIC} partitions ({})",
        part.len(),
        kinds
            .iter()
            .map(|(k, c)| format!("{k} ×{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    html! {
        <li key={format!("fold-{first}")} class="event folded">
            <time class="when">{ fmt_ms(at) }</time>
            { " " }
            <div class="body">
                <details>
                    <summary>{ summary }</summary>
                    <ol class="folded-events">
                        { for part.iter().map(|(i, e, text)| entry(*i, e, text, on_pick)) }
                    </ol>
                </details>
            </div>
        </li>
    }
}

/// How close to the bottom (px) still counts as "at the bottom".
const STICK_PX: i32 = 24;

/// The log's inputs. It compares by event count and world generation, not by content.
#[derive(Properties)]
pub struct EventLogProps {
    /// The world.
    pub host: Rc<RefCell<Host>>,
    /// How many events the world has (changes when one is added).
    pub count: usize,
    /// Which world (changes on reset).
    pub generation: u64,
    /// Whether only key events are listed.
    pub key_only: bool,
    /// The `__consumer_offsets` partitions whose events are always shown (those holding a
    /// group); the others' are folded.
    pub keep_internal: Vec<String>,
    /// Turns the filter on or off.
    pub on_key_only: Callback<bool>,
    /// An event picked (by its index): the page shows its moment.
    pub on_pick: Callback<usize>,
    /// The page's words (for the log's own chrome; its entries are the core's English).
    pub tr: Tr,
    /// The id of the log's heading (unique on the page, whatever else it holds).
    pub title_id: AttrValue,
}

impl PartialEq for EventLogProps {
    fn eq(&self, o: &Self) -> bool {
        // The callback always does the same thing; comparing it would re-render every frame.
        Rc::ptr_eq(&self.host, &o.host)
            && self.count == o.count
            && self.generation == o.generation
            && self.key_only == o.key_only
            && self.keep_internal == o.keep_internal
            && self.title_id == o.title_id
    }
}

/// The event log.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let list = use_node_ref();
    let stick = use_state(|| true);

    {
        let list = list.clone();
        let stick = *stick;
        use_effect_with(
            (props.count, props.generation, props.key_only, stick),
            move |_| {
                if stick {
                    if let Some(el) = list.cast::<web_sys::Element>() {
                        el.set_scroll_top(el.scroll_height());
                    }
                }
            },
        );
    }

    let onscroll = {
        let list = list.clone();
        let stick = stick.clone();
        Callback::from(move |_: Event| {
            if let Some(el) = list.cast::<web_sys::Element>() {
                let at_bottom =
                    el.scroll_top() + el.client_height() >= el.scroll_height() - STICK_PX;
                if at_bottom != *stick {
                    stick.set(at_bottom);
                }
            }
        })
    };
    let jump = {
        let stick = stick.clone();
        Callback::from(move |_: MouseEvent| stick.set(true))
    };
    let onchange = {
        let cb = props.on_key_only.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                cb.emit(input.checked());
            }
        })
    };

    let host = props.host.borrow();
    let events = host.world().events();
    let total = events.len();
    let listed: Vec<(usize, &SimEvent, String)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| !props.key_only || e.kind.is_key())
        .map(|(i, e)| (i, e, e.kind.to_string()))
        .collect();
    let shown = listed.len();
    // Runs of two or more events about __consumer_offsets partitions that hold no group
    // fold into one entry.
    let folded = |text: &str| {
        text.strip_prefix(OFFSETS_TOPIC).is_some_and(|_| {
            let key = text.split([':', ' ']).next().unwrap_or("");
            !props.keep_internal.iter().any(|k| k == key)
        })
    };
    let mut rows: Vec<Html> = Vec::new();
    let mut k = 0;
    while k < listed.len() {
        let run = listed[k..]
            .iter()
            .take_while(|(_, _, text)| folded(text))
            .count();
        if run >= 2 {
            let part = &listed[k..k + run];
            rows.push(fold(part, &props.on_pick));
            k += run;
        } else {
            let (i, e, text) = &listed[k];
            rows.push(entry(*i, e, text, &props.on_pick));
            k += 1;
        }
    }
    let tr = &props.tr;
    let count_text = if shown == total {
        tr.f(msg::LOG_COUNT, &[("total", &total)])
    } else {
        tr.f(
            msg::LOG_COUNT_SHOWN,
            &[("shown", &shown), ("total", &total)],
        )
    };

    html! {
        <section class="log panel" aria-labelledby={props.title_id.clone()}>
            <header class="log-head">
                <h2 id={props.title_id.clone()}>{ tr.t(msg::LOG_TITLE) }</h2>
                <span class="log-count" aria-live="off">{ count_text }</span>
                <label class="toggle">
                    <input type="checkbox" data-testid="key-only" checked={props.key_only} {onchange} />
                    { tr.t(msg::LOG_KEY_ONLY) }
                </label>
            </header>
            <ol class="events" ref={list} {onscroll} tabindex="0" aria-label={tr.t(msg::LOG_LIST_LABEL)}>
                if rows.is_empty() {
                    <li class="empty">{ tr.t(msg::LOG_EMPTY) }</li>
                }
                { for rows }
            </ol>
            if !*stick {
                <button class="jump" onclick={jump}>{ tr.t(msg::LOG_NEWEST) }</button>
            }
        </section>
    }
}

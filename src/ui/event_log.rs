//! The event log: every event of the world with its virtual time and two layers: a plain
//! sentence in the reader's language (what happened, and for a key event why), and one click
//! away, behind a disclosure, the Kafka detail (the core's own line and its cause: the rule,
//! the setting, the source). Elections, ISR changes, offline partitions, lost records and the
//! consumer groups' steps each have their own look (by `data-kind` and a family class); a
//! leader election names its reason in a tag, a group leader's pick its generation, with the
//! reason it was picked set out below. Runs of events about `__consumer_offsets` partitions
//! that hold no group fold into one line that opens on demand. Newest at the bottom; it
//! follows new events unless the reader scrolled up. It renders again only when the number
//! of events, the world or the filter changes, not on every animation frame.

use super::later::{use_later, waiting, Later};
use super::model::Host;
use crate::collections::VecSet;
use crate::i18n::event_text::{cause_text, tag, what, why};
use crate::i18n::{msg, msg_events, Lang, Tr};
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
        | EventKind::ReassignmentRefused { .. }
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

/// How an entry is drawn: the reader's words, whether its detail is open, and where to say
/// so.
struct Look<'a> {
    tr: &'a Tr,
    open: &'a VecSet<usize>,
    on_toggle: &'a Callback<usize>,
    on_pick: &'a Callback<usize>,
    /// A prefix for the entries' element ids, unique on the page.
    ids: &'a str,
    /// Where the module's second part stands: the Kafka detail is drawn from it.
    later: Later,
}

/// One event as the log lists it: its time is a button that shows the cluster at that moment,
/// with the nodes it is about highlighted; its plain sentence, the reason of a key event, and
/// a disclosure of the Kafka detail (the core's line and the cause).
fn entry(i: usize, e: &SimEvent, look: &Look) -> Html {
    let tr = look.tr;
    let kind = e.kind.name();
    let hl = highlighted(&e.kind);
    let tag = tag(&e.kind, tr);
    let because = why(e, tr);
    let open = look.open.contains(&i);
    let detail_id = format!("{}-detail-{i}", look.ids);
    let when = fmt_ms(e.time_ms);
    html! {
        <li key={i} class={classes!("event", hl.then_some("hl"), family(&e.kind))} data-kind={kind} data-index={i.to_string()}>
            <button class="when-pick" data-testid="event-time"
                    title={tr.t(msg_events::LOG_TIME_TITLE)}
                    aria-label={tr.f(msg_events::LOG_TIME_LABEL, &[("time", &when)])}
                    onclick={ let p = look.on_pick.clone(); Callback::from(move |_: MouseEvent| p.emit(i)) }>
                <time class="when">{ when.clone() }</time>
            </button>
            // Spaces keep the entry's text readable as words ("0.051s Broker 1 …").
            { " " }
            <div class="body">
                <p class="what">{ what(&e.kind, tr) }</p>
                { " " }
                if let Some(b) = because {
                    <p class="because"><span class="because-label">{ tr.t(msg_events::LOG_WHY) }</span>{ b }</p>
                    { " " }
                }
                <p class="why">
                    if let Some(t) = tag {
                        <span class="reason-tag">{ t }</span>{ " " }
                    }
                    <button class="detail-toggle" data-testid="event-detail-toggle"
                            aria-expanded={ open.to_string() }
                            aria-controls={detail_id.clone()}
                            title={tr.t(msg_events::LOG_DETAIL_TITLE)}
                            onclick={ let t = look.on_toggle.clone(); Callback::from(move |_: MouseEvent| t.emit(i)) }>
                        { tr.t(msg_events::LOG_DETAIL) }
                    </button>
                </p>
                // In the page even when closed, so that a search of the page finds it.
                <div class="detail" id={detail_id} data-testid="event-detail" hidden={!open}>
                    if look.later.here() {
                        { detail(e, kind, tr) }
                    } else if open {
                        { waiting(look.later, None, tr) }
                    }
                </div>
            </div>
        </li>
    }
}

/// An entry's Kafka detail: the core's line and the cause. Drawn from the second part of the
/// module (`super::later`), like the other parts of the page the first view does not show.
#[inline(never)]
fn detail(e: &SimEvent, kind: &str, tr: &Tr) -> Html {
    html! {
        <>
            // The core's own line is the command line's English: in another language the
            // plain sentence above says it, and the kind's name stays.
            <p class="detail-line"><code class="kind">{ kind }</code>
                if tr.lang() == Lang::En {
                    { " " }{ e.kind.to_string() }
                }
            </p>
            { " " }
            <p class="detail-cause">{ cause_text(&e.cause, tr) }</p>
        </>
    }
}

/// A run of events about `__consumer_offsets` partitions that hold no group, folded.
fn fold(part: &[(usize, &SimEvent)], look: &Look) -> Html {
    let first = part.first().map_or(0, |(i, _)| *i);
    let at = part.first().map_or(0, |(_, e)| e.time_ms);
    let summary = look.tr.f(msg_events::LOG_FOLDED, &[("count", &part.len())]);
    html! {
        <li key={format!("fold-{first}")} class="event folded">
            <time class="when">{ fmt_ms(at) }</time>
            { " " }
            <div class="body">
                <details>
                    <summary>{ summary }</summary>
                    <ol class="folded-events">
                        { for part.iter().map(|(i, e)| entry(*i, e, look)) }
                    </ol>
                </details>
            </div>
        </li>
    }
}

/// The partition an event is about, if it names one.
fn partition_of(kind: &EventKind) -> Option<&str> {
    use EventKind::*;
    match kind {
        LeaderElected { partition, .. }
        | LeaderEpochBumped { partition, .. }
        | LeaderElectionFailed { partition, .. }
        | PartitionOffline { partition, .. }
        | IsrShrunk { partition, .. }
        | IsrExpanded { partition, .. }
        | IsrChangeAccepted { partition, .. }
        | IsrUpdateFailed { partition, .. }
        | ReplicaTruncated { partition, .. } => Some(partition),
        _ => None,
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
    /// The page's words: the log's chrome and its entries' sentences.
    pub tr: Tr,
    /// The id of the log's heading (unique on the page, whatever else it holds).
    pub title_id: AttrValue,
    /// An event listed even when the filter would hide it: the one that decided the answer
    /// of the lesson step shown, which the log marks.
    #[prop_or_default]
    pub also: Option<usize>,
    /// Whether the log's tab is the one shown (on a narrow page, where the log is a tab): when
    /// it comes into view the log follows the newest entry again, unless the reader scrolled up.
    #[prop_or_default]
    pub shown: bool,
    /// Whether a lesson's question waits for its answer (the run waits with it).
    #[prop_or_default]
    pub asking: bool,
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
            && self.tr.lang() == o.tr.lang()
            && self.also == o.also
            && self.shown == o.shown
            && self.asking == o.asking
    }
}

/// The event log.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let list = use_node_ref();
    let stick = use_state(|| true);
    let later = use_later();
    // Every event's sentence, not only the key events', comes with the module's second part
    // (`event_text::what_rest`): until it is here the log lists the key events, and its
    // checkbox waits.
    let key_only = props.key_only || !later.here();
    // The entries whose Kafka detail is open, in the world they belong to.
    let open = use_state(|| (props.generation, VecSet::<usize>::new()));

    {
        let list = list.clone();
        let stick = *stick;
        use_effect_with(
            (props.count, props.generation, key_only, stick, props.shown),
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

    let on_toggle = {
        let open = open.clone();
        let generation = props.generation;
        Callback::from(move |i: usize| {
            let mut set = if open.0 == generation {
                open.1.clone()
            } else {
                VecSet::new()
            };
            if !set.remove(&i) {
                set.insert(i);
            }
            open.set((generation, set));
        })
    };
    let no_open = VecSet::new();
    let look = Look {
        tr: &props.tr,
        open: if open.0 == props.generation {
            &open.1
        } else {
            &no_open
        },
        on_toggle: &on_toggle,
        on_pick: &props.on_pick,
        ids: &props.title_id,
        later,
    };

    let host = props.host.borrow();
    let events = host.world().events();
    let total = events.len();
    let listed: Vec<(usize, &SimEvent)> = events
        .iter()
        .enumerate()
        .filter(|(i, e)| !key_only || e.kind.is_key() || props.also == Some(*i))
        .collect();
    let shown = listed.len();
    // Runs of two or more events about __consumer_offsets partitions that hold no group
    // fold into one entry.
    let folded = |e: &SimEvent| {
        partition_of(&e.kind).is_some_and(|p| {
            p.rsplit_once('-').is_some_and(|(t, _)| t == OFFSETS_TOPIC)
                && !props.keep_internal.iter().any(|k| k == p)
        })
    };
    let mut rows: Vec<Html> = Vec::new();
    let mut k = 0;
    while k < listed.len() {
        let run = listed[k..].iter().take_while(|(_, e)| folded(e)).count();
        if run >= 2 {
            let part = &listed[k..k + run];
            rows.push(fold(part, &look));
            k += run;
        } else {
            let (i, e) = &listed[k];
            rows.push(entry(*i, e, &look));
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
                    <input type="checkbox" data-testid="key-only" checked={key_only} disabled={!later.here()}
                           aria-busy={(!later.here()).then_some("true")} {onchange} />
                    { tr.t(msg::LOG_KEY_ONLY) }
                </label>
            </header>
            <ol class="events" ref={list} {onscroll} tabindex="0" aria-label={tr.t(msg::LOG_LIST_LABEL)}>
                if rows.is_empty() {
                    <li class="empty">{ tr.t(if props.asking { msg::LOG_EMPTY_ASKING } else { msg::LOG_EMPTY }) }</li>
                }
                { for rows }
            </ol>
            if !*stick {
                <button class="jump" onclick={jump}>{ tr.t(msg::LOG_NEWEST) }</button>
            }
        </section>
    }
}

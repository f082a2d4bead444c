//! The page: header with the controller stat, the intro, the toolbar, the graph with its
//! legend and broker panel, and the event log.

use super::controls::controls;
use super::event_log::EventLog;
use super::graph::{graph, GraphView};
use super::groups::groups;
use super::hooks::use_animation_frames;
use super::model::{Action, Model};
use super::overlay::play_overlay;
use super::panel::panel;
use super::partitions::partitions;
use super::seen::use_when_seen;
use super::stories;
use super::timeline::{read_file, timeline};
use crate::sim::{fmt_ms, BrokerId, ClusterState, Command};
use crate::view::format::{
    consumer_list, coordinator_keys, is_internal, partition_list, visible_partitions,
};
use crate::view::frame::cut_broker_links;
use yew::prelude::*;

const LEGEND: [(&str, &str); 5] = [
    ("heartbeat", "heartbeat (ping / pong)"),
    ("zookeeper", "ZooKeeper request / reply"),
    ("watch", "watch notification"),
    ("request", "controller request"),
    ("response", "broker response"),
];

/// The message classes of replication and the producer (shown when there are partitions).
const LEGEND_DATA: [(&str, &str); 2] = [
    ("fetch", "follower fetch (sampled)"),
    ("produce", "produce request / response"),
];

/// The message classes of consumer groups (shown when there is a group).
const LEGEND_GROUP: [(&str, &str); 1] = [(
    "group",
    "group request / response (FindCoordinator, JoinGroup, SyncGroup, LeaveGroup)",
)];

/// The replica badges' states.
const REPLICA_LEGEND: [(&str, &str, &str); 4] = [
    ("leader", "T-0 e1", "leader, leader epoch"),
    ("in_sync", "T-0", "in-sync follower"),
    ("out_of_sync", "T-0", "out-of-sync follower"),
    ("offline", "T-0", "offline"),
];

fn controller_stat(state: &ClusterState) -> Html {
    let who = match state.controller {
        Some(c) => format!("broker {c}"),
        None => "none".to_string(),
    };
    html! {
        <p class={classes!("stat", state.controller.is_none().then_some("vacant"))}
           data-testid="controller-epoch" aria-live="polite">
            <span class="stat-label">{ "controller: " }</span>
            <strong>{ who }</strong>
            <span class="sep" aria-hidden="true">{ " · " }</span>
            <span class="stat-epoch">{ format!("epoch {}", state.controller_epoch) }</span>
        </p>
    }
}

fn intro(
    session_timeout_ms: u64,
    lag_max_ms: u64,
    profile: &str,
    with_topic: bool,
    with_group: bool,
) -> Html {
    html! {
        <section class="intro" aria-label="What to try">
            <p>
                { "One broker is the " }<strong>{ "controller" }</strong>
                { ": the one that created the ephemeral znode " }<code>{ "/controller" }</code>{ " in ZooKeeper. " }
                <strong>{ "Click the controller to crash it." }</strong>
                { " ZooKeeper notices only after " }<code>{ "zookeeper.session.timeout.ms" }</code>
                { format!(" ({} s in Kafka {profile}) without a heartbeat. Then it expires the session and deletes ", session_timeout_ms / 1000) }
                <code>{ "/controller" }</code>
                { "; the watches fire and the other brokers race to create it. The winner raises the " }
                <strong>{ "controller epoch" }</strong>{ "." }
            </p>
            if with_topic {
                <p>
                    { "Under each broker are its " }<strong>{ "replicas" }</strong>
                    { " of the topic's partitions: the filled badge is the partition's " }<strong>{ "leader" }</strong>
                    { " with its leader epoch. Start a stream in the partition table, crash the broker leading it, and watch the controller elect a new leader from the ISR (the in-sync replicas) and raise the " }
                    <strong>{ "leader epoch" }</strong>{ "." }
                </p>
            }
            if with_group {
                <p>
                    { "Below the brokers are the " }<strong>{ "consumers" }</strong>{ " of the group " }<code>{ "my-group" }</code>
                    { ". Add a few: the first member the coordinator adds becomes the " }<strong>{ "group leader" }</strong>
                    { " (the crown) and hands out the partitions. " }<strong>{ "Click the leader to crash it" }</strong>
                    { " (shift-click: it leaves cleanly) and see who leads the next " }<strong>{ "generation" }</strong>
                    { ": not the next in join order, but the first in Kafka's hash map of member ids." }
                </p>
            }
            <details class="try">
                <summary>{ "More to try" }</summary>
                <ul>
                    if with_topic {
                        <li>{ format!("Stall a follower's fetchers (broker ⋯) while a stream runs: after replica.lag.time.max.ms ({} s in Kafka {profile}) the leader drops it from the ISR; resume and it catches up and rejoins.", lag_max_ms / 1000) }</li>
                        <li>{ "Let a follower fall out of the ISR (stall its fetchers while a stream runs), then crash the other replicas: the partition goes offline. Turn on unclean.leader.election.enable and the out-of-sync follower leads: the partition is back, and the acknowledged records it lacked are lost." }</li>
                        <li>{ "Crash and restart a leader, then run a preferred election to move leadership back to each partition's first replica." }</li>
                    }
                    if with_group {
                        <li>{ "Crash the broker that coordinates my-group: the consumers look for it again, and once the controller elects a new leader for its __consumer_offsets partition the group moves there as it was, with no rebalance." }</li>
                        <li>{ "Make the leader leave instead of crashing it: the coordinator removes it at once instead of after session.timeout.ms." }</li>
                    }
                    <li>{ "Click a crashed broker to start it again: it can register only once its old session is gone." }</li>
                    <li>{ "Open a broker's ⋯ and shut it down cleanly: its session closes at once, nobody waits for a timeout." }</li>
                    <li>{ "Pause the controller for longer than the session timeout: it wakes up as a zombie that still thinks it is in charge." }</li>
                    <li>{ "Cut a broker's ZooKeeper link, or switch to an older profile to see what epoch fencing prevents." }</li>
                    <li>{ "Open a broker's ⋯ and press Delete /controller, as an operator moves the controller: the brokers race again and nobody crashes. The zombie-controller-2.0 story shows why it was risky before 2.1." }</li>
                </ul>
            </details>
        </section>
    }
}

/// The story (or imported scenario) being replayed: what it shows and the next scripted step.
fn story_box(
    tag: &str,
    title: String,
    description: String,
    upcoming: Option<(u64, String)>,
    dispatch: &Callback<Action>,
) -> Html {
    let leave = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::SetStory(None)))
    };
    html! {
        <section class="intro story" aria-label="Story" data-testid="story-box">
            <p class="story-title"><span class="story-tag">{ tag.to_string() }</span><strong data-testid="story-title">{ title }</strong></p>
            <p>{ description }</p>
            <p class="story-next" data-testid="story-next">
                { match upcoming {
                    Some((at, what)) => html! { <>{ "Next scripted step: " }<strong>{ what }</strong>{ format!(" at t = {}", fmt_ms(at)) }</> },
                    None => html! { { "Every scripted step has happened: watch the log, or click the brokers yourself." } },
                } }
            </p>
            <button class="ghost" onclick={leave}>{ "Back to free play" }</button>
        </section>
    }
}

fn legend(with_topic: bool, with_group: bool) -> Html {
    html! {
        <>
            <ul class="legend" aria-label="Message colours">
                { for LEGEND.iter().map(|(class, text)| {
                    // Consumers heartbeat their coordinator too (drawn smaller, sampled).
                    let text = if with_group && *class == "heartbeat" {
                        "heartbeat (ZooKeeper ping / pong, consumer Heartbeat)"
                    } else {
                        text
                    };
                    html! {
                        <li><span class={classes!("swatch", format!("msg-{class}"))} aria-hidden="true"></span>{ text }</li>
                    }
                }) }
                if with_topic {
                    { for LEGEND_DATA.iter().map(|(class, text)| html! {
                        <li><span class={classes!("swatch", format!("msg-{class}"))} aria-hidden="true"></span>{ *text }</li>
                    }) }
                }
                if with_group {
                    { for LEGEND_GROUP.iter().map(|(class, text)| html! {
                        <li><span class={classes!("swatch", format!("msg-{class}"))} aria-hidden="true"></span>{ *text }</li>
                    }) }
                }
                <li><span class="swatch dropped" aria-hidden="true"></span>{ "dropped (cut link)" }</li>
            </ul>
            if with_topic {
                <ul class="legend replica-legend" aria-label="Replica badges">
                    { for REPLICA_LEGEND.iter().map(|(state, sample, text)| html! {
                        <li><span class={classes!("replica-swatch", format!("rs-{state}"))} aria-hidden="true">{ *sample }</span>{ *text }</li>
                    }) }
                </ul>
            }
        </>
    }
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let model = use_reducer(Model::from_location);

    {
        let d = model.dispatcher();
        use_animation_frames(Callback::from(move |ts: f64| d.dispatch(Action::Frame(ts))));
    }
    {
        let d = model.dispatcher();
        use_when_seen(Callback::from(move |_| d.dispatch(Action::Seen)));
    }
    let dispatch = {
        let d = model.dispatcher();
        Callback::from(move |a: Action| d.dispatch(a))
    };
    let on_command = {
        let d = model.dispatcher();
        Callback::from(move |c: Command| d.dispatch(Action::Apply(c)))
    };
    let on_select = {
        let d = model.dispatcher();
        Callback::from(move |b: Option<BrokerId>| d.dispatch(Action::Select(b)))
    };
    let on_add = {
        let d = model.dispatcher();
        Callback::from(move |g: String| d.dispatch(Action::AddConsumer(g)))
    };
    let on_key_only = {
        let d = model.dispatcher();
        Callback::from(move |k: bool| d.dispatch(Action::SetKeyOnly(k)))
    };
    let dismiss = {
        let d = model.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::DismissError))
    };
    let onkeydown = {
        let d = model.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                d.dispatch(Action::Select(None));
            }
        })
    };

    let last_link = use_mut_ref(|| (f64::NEG_INFINITY, String::new()));
    {
        let model = model.clone();
        let last_link = last_link.clone();
        use_effect(move || write_link(&model, &last_link));
    }
    {
        let d = model.dispatcher();
        let last_link = last_link.clone();
        use_effect_with((), move |_| listen_for_links(d, last_link));
    }
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let ondrop = {
        let d = dispatch.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(file) = e
                .data_transfer()
                .and_then(|t| t.files())
                .and_then(|f| f.get(0))
            {
                read_file(file, d.clone());
            }
        })
    };

    let m: &Model = &model;
    let host = m.host.borrow();
    let world = host.world();
    let state = world.state();
    let settings = world.settings();
    let cut_links = cut_broker_links(world);
    let topics = world.topics();
    let plist = partition_list(topics);
    // The graph draws the user's topics; the broker panel adds the partitions holding groups.
    let user_partitions: Vec<_> = plist
        .iter()
        .filter(|r| !is_internal(&r.topic))
        .cloned()
        .collect();
    let panel_partitions = visible_partitions(&plist, &state);
    let with_topic = !user_partitions.is_empty();
    let with_group = !state.groups.is_empty();
    let consumers = consumer_list(&state);
    let add_to: Vec<String> = state
        .groups
        .iter()
        .filter(|(_, g)| m.next_consumer(Some(g)).is_some())
        .map(|(id, _)| id.clone())
        .collect();
    let view = GraphView {
        state: &state,
        session_timeout_ms: settings.zookeeper_session_timeout_ms,
        flights: host.flights.iter().collect(),
        anim_now: host.anim_now,
        speed: m.speed,
        selected: m.selected,
        compact: host.compact,
        cut_links,
        partitions: &user_partitions,
        topic_count: topics.iter().filter(|t| !is_internal(&t.name)).count(),
        consumers: consumers.clone(),
        add_to,
    };
    let event_count = world.events().len();
    let keep_internal = coordinator_keys(&state);

    html! {
        <div class="page" {onkeydown} {ondragover} {ondrop}>
            <main class="layout">
                <div class="stage">
                    <header class="top">
                        <div class="title">
                            <h1>{ "Kafka Election Playground" }</h1>
                            <p class="subtitle">{ "how a ZooKeeper-mode cluster elects its controller, its partition leaders and its consumer groups' leaders" }</p>
                        </div>
                        { controller_stat(&state) }
                    </header>
                    { match (&m.imported, m.story) {
                        (Some(file), _) => story_box("imported", file.1.clone(),
                            file.0.file.get("description").and_then(|d| d.as_str()).unwrap_or_default().to_string(),
                            host.session.upcoming().first().map(|(at, c)| (*at, c.to_string())), &dispatch),
                        (None, Some(i)) => story_box("story", stories::title(i),
                            stories::load(i).ok().and_then(|s| s.file.description).unwrap_or_default(),
                            host.session.upcoming().first().map(|(at, c)| (*at, c.to_string())), &dispatch),
                        (None, None) => intro(settings.zookeeper_session_timeout_ms, settings.replica_lag_time_max_ms, settings.profile.name(), with_topic, with_group),
                    } }
                    { controls(m, state.time_ms, &dispatch) }
                    { timeline(m, &dispatch) }
                    <div class="graph-wrap panel">
                        <p class="graph-hint">
                            { "Tap the crowned controller to crash it; tap ⋯ for more." }
                            if with_group {
                                { " Tap a consumer to crash it, a crashed one to start it again; shift-click (or Leave in the group panel) makes it leave." }
                            }
                            { " The explanation is below." }
                        </p>
                        { graph(&view, &on_command, &on_select, &on_add) }
                        { play_overlay(m, &dispatch) }
                        { legend(with_topic, with_group) }
                    </div>
                    { panel(m, &state, &panel_partitions, &dispatch) }
                    { groups(m, &state, &consumers, settings, &dispatch) }
                    { partitions(m, &state, topics, &dispatch) }
                </div>
                <EventLog host={m.host.clone()} count={event_count} generation={m.generation}
                          key_only={m.key_only} {keep_internal} {on_key_only} />
            </main>
            if let Some(n) = &m.notice {
                <div class="notice" role="status" data-testid="notice">
                    <span class="alert-text">{ n.clone() }</span>
                    <button class="ghost" onclick={dismiss.clone()} aria-label="Dismiss the notice">{ "×" }</button>
                </div>
            }
            if let Some(err) = &m.error {
                <div class="alert" role="alert" data-testid="error">
                    <span class="alert-icon" aria-hidden="true">{ "!" }</span>
                    <span class="alert-text">{ err.clone() }</span>
                    <button class="ghost" onclick={dismiss} aria-label="Dismiss the message">{ "×" }</button>
                </div>
            }
        </div>
    }
}

/// The page address's parameters that set a session up: a session link carries them in its
/// fragment instead.
const SETUP_PARAMS: [&str; 8] = [
    "story",
    "seed",
    "brokers",
    "partitions",
    "rf",
    "profile",
    "consumers",
    "assignor",
];

/// Keeps the address's fragment on the session as it changes (at most once a second while
/// the clock runs), so that the address bar always holds a link that reopens it. The setup
/// parameters leave the query then: the fragment carries them.
fn write_link(model: &Model, last: &std::rc::Rc<std::cell::RefCell<(f64, String)>>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let now = window.performance().map_or(0.0, |p| p.now());
    if model.playing && now - last.borrow().0 < 1_000.0 {
        return;
    }
    let fragment = model.link_fragment();
    if last.borrow().1 == fragment {
        return;
    }
    *last.borrow_mut() = (now, fragment.clone());
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let kept: Vec<(String, String)> = stories::location_pairs()
        .into_iter()
        .filter(|(k, _)| !SETUP_PARAMS.contains(&k.as_str()))
        .collect();
    let query = if kept.is_empty() {
        String::new()
    } else {
        format!(
            "?{}",
            kept.iter()
                .map(|(k, v)| format!(
                    "{}={}",
                    crate::session::codec::escape(k),
                    crate::session::codec::escape(v)
                ))
                .collect::<Vec<_>>()
                .join("&")
        )
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}#{fragment}")),
        );
    }
}

/// Opens a session link pasted into the address bar (a `hashchange` the page did not make).
fn listen_for_links(
    d: UseReducerDispatcher<Model>,
    last: std::rc::Rc<std::cell::RefCell<(f64, String)>>,
) -> impl FnOnce() {
    use wasm_bindgen::JsCast;
    let window = web_sys::window();
    let closure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        let hash = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .unwrap_or_default();
        let fragment = hash.strip_prefix('#').unwrap_or(&hash).to_string();
        if crate::session::codec::is_session(&fragment) && last.borrow().1 != fragment {
            d.dispatch(Action::OpenLink(fragment));
        }
    });
    if let Some(w) = &window {
        let _ = w.add_event_listener_with_callback("hashchange", closure.as_ref().unchecked_ref());
    }
    move || {
        if let Some(w) = window {
            let _ = w.remove_event_listener_with_callback(
                "hashchange",
                closure.as_ref().unchecked_ref(),
            );
        }
    }
}

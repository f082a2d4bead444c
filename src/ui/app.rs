//! The page: header with the controller stat, the intro, the toolbar, the graph with its
//! legend and broker panel, and the event log.

use super::controls::controls;
use super::embed::Bridge;
use super::event_log::EventLog;
use super::graph::{graph, GraphView};
use super::groups::groups;
use super::hooks::use_animation_frames;
use super::model::{Action, Model};
use super::panel::panel;
use super::partitions::partitions;
use super::stories;
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

/// The story being replayed: what it shows and the next scripted step.
fn story_box(index: usize, upcoming: Option<(u64, String)>, dispatch: &Callback<Action>) -> Html {
    let scenario = stories::load(index).ok();
    let title = stories::title(index);
    let description = scenario
        .and_then(|s| s.file.description)
        .unwrap_or_default();
    let leave = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::SetStory(None)))
    };
    html! {
        <section class="intro story" aria-label="Story" data-testid="story-box">
            <p class="story-title"><span class="story-tag">{ "story" }</span><strong>{ title }</strong></p>
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

/// What the page is mounted with.
#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// The page parameters: the address's (`index.html`), or the JavaScript API's options.
    pub params: Vec<(String, String)>,
    /// Whoever drives the page from outside (the JavaScript API, a parent page), if anyone.
    pub bridge: Option<Bridge>,
}

/// The whole page.
#[component]
pub fn App(props: &AppProps) -> Html {
    let model = use_reducer(|| {
        props
            .bridge
            .as_ref()
            .and_then(Bridge::take_initial)
            .unwrap_or_else(|| Model::from_params(&props.params))
    });
    {
        // After each render: the bridge learns the dispatcher and hands on the new events.
        let bridge = props.bridge.clone();
        let model = model.clone();
        use_effect(move || {
            if let Some(b) = bridge {
                b.after_render(&model.dispatcher().to_callback(), &model);
            }
        });
    }

    {
        let d = model.dispatcher();
        use_animation_frames(Callback::from(move |ts: f64| d.dispatch(Action::Frame(ts))));
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

    let m: &Model = &model;
    let host = m.host.borrow();
    let world = &host.runner.world;
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

    let embed = m.chrome.embed;
    html! {
        <div class={classes!("page", embed.then_some("embed"))} {onkeydown}>
            <main class="layout">
                <div class="stage">
                    <header class="top">
                        if !embed {
                            <div class="title">
                                <h1>{ "Kafka Election Playground" }</h1>
                                <p class="subtitle">{ "how a ZooKeeper-mode cluster elects its controller, its partition leaders and its consumer groups' leaders" }</p>
                            </div>
                        }
                        { controller_stat(&state) }
                    </header>
                    if !embed {
                        { match m.story {
                            Some(i) => story_box(i, host.runner.upcoming().first().map(|(at, c)| (*at, c.to_string())), &dispatch),
                            None => intro(settings.zookeeper_session_timeout_ms, settings.replica_lag_time_max_ms, settings.profile.name(), with_topic, with_group),
                        } }
                    }
                    if m.chrome.controls {
                        { controls(m, state.time_ms, &dispatch) }
                    }
                    <div class="graph-wrap panel">
                        <p class="graph-hint">
                            { "Tap the crowned controller to crash it; tap ⋯ for more." }
                            if with_group {
                                { " Tap a consumer to crash it, a crashed one to start it again; shift-click (or Leave in the group panel) makes it leave." }
                            }
                            { " The explanation is below." }
                        </p>
                        { graph(&view, &on_command, &on_select, &on_add) }
                        { legend(with_topic, with_group) }
                    </div>
                    { panel(m, &state, &panel_partitions, &dispatch) }
                    { groups(m, &state, &consumers, settings, &dispatch) }
                    { partitions(m, &state, topics, &dispatch) }
                </div>
                <EventLog host={m.host.clone()} count={event_count} generation={m.generation}
                          title_id={m.chrome.id("log-title")}
                          key_only={m.key_only} {keep_internal} {on_key_only} />
            </main>
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

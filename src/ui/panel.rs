//! The selected-broker panel: what one broker believes, the replicas it holds (role, log end
//! offset, lag, the partition's high watermark) and the actions beyond crash/start
//! (controlled shutdown, pause, session expiry, cutting its ZooKeeper link, stalling its
//! fetchers), plus the cluster action of moving the controller (deleting `/controller`).
//! Whether an action makes sense is the world's call: the buttons always send, and a refusal
//! is shown.

use super::model::{Action, Model, MAX_PAUSE_SECS};
use crate::sim::{
    BrokerId, ClusterState, Command, ControllerRole, Endpoint, ReplicaState, StallScope,
};
use crate::view::format::{
    click_starts, lag, replica_words, replicas_of, secs, state_words, PartitionRef,
};
use crate::view::waits::isr_waits;
use web_sys::HtmlInputElement;
use yew::prelude::*;

fn chips(state: &ClusterState, selected: Option<BrokerId>, dispatch: &Callback<Action>) -> Html {
    html! {
        <div class="chips" role="group" aria-label="Select a broker">
            { for state.brokers.iter().map(|(&id, b)| {
                let on = selected == Some(id);
                let d = dispatch.clone();
                let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::Select(if on { None } else { Some(id) })));
                let marker = match b.controller_role {
                    ControllerRole::Controller => " ♛",
                    ControllerRole::Zombie => " (zombie)",
                    ControllerRole::Named | ControllerRole::None => "",
                };
                html! {
                    <button class={classes!("chip", format!("state-{}", b.state.name()), on.then_some("on"))}
                            aria-pressed={on.to_string()} data-testid={format!("select-{id}")} {onclick}>
                        { format!("broker {id}{marker}") }
                    </button>
                }
            }) }
        </div>
    }
}

/// The operator's way to move the controller: delete `/controller`.
fn delete_controller_button(dispatch: &Callback<Action>) -> Html {
    let d = dispatch.clone();
    let onclick =
        Callback::from(move |_: MouseEvent| d.emit(Action::Apply(Command::DeleteController)));
    html! {
        <button data-testid="delete-controller" {onclick}
                title="Move the controller as an operator does: delete the /controller znode. Every broker's watch fires and they race again; a controller in the middle of an event finishes it first.">
            { "Delete /controller" }
        </button>
    }
}

/// The replicas broker `id` holds, as a small table.
fn replicas_table(state: &ClusterState, list: &[PartitionRef], id: BrokerId) -> Html {
    let held = replicas_of(state, list, id);
    if held.is_empty() {
        return html! {};
    }
    html! {
        <div class="table-wrap">
            <table class="replica-table" data-testid="broker-replicas">
                <caption>{ format!("Replicas on broker {id}") }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ "partition" }</th>
                        <th scope="col">{ "role" }</th>
                        <th scope="col" title="this replica's log end offset">{ "LEO" }</th>
                        <th scope="col" title="the partition's high watermark">{ "HW" }</th>
                        <th scope="col" title="the leader's log end offset minus this replica's">{ "lag" }</th>
                        <th scope="col">{ "leader epoch" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for held.iter().map(|(r, p, st)| html! {
                        <tr data-replica={r.key.clone()} data-state={st.name()}>
                            <th scope="row">{ r.key.clone() }</th>
                            <td>
                                <span class={classes!("role-tag", format!("rs-{}", st.name()))}>{ replica_words(*st) }</span>
                                { for isr_waits(&r.key, p).into_iter().filter(|(b, _)| *b == id).map(|(_, w)| html! {
                                    <span class="wait isr-wait" data-testid="replica-isr-wait">{ w.sentence() }</span>
                                }) }
                            </td>
                            <td class="num">{ p.log_end_offsets.get(&id).copied().unwrap_or(0) }</td>
                            <td class="num">{ p.high_watermark }</td>
                            <td class="num">{ if *st == ReplicaState::Leader { "—".to_string() } else { lag(p, id).to_string() } }</td>
                            <td class="num">{ p.leader_epoch }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// Renders the panel.
pub fn panel(
    m: &Model,
    state: &ClusterState,
    list: &[PartitionRef],
    dispatch: &Callback<Action>,
) -> Html {
    let Some((id, b)) = m
        .selected
        .and_then(|id| state.brokers.get(&id).map(|b| (id, b)))
    else {
        return html! {
            <section class="panel broker-panel" aria-labelledby={m.chrome.id("panel-title")}>
                <h2 id={m.chrome.id("panel-title")}>{ "Broker actions" }</h2>
                <p class="hint">{ "Pick a broker (or shift-click one in the graph, or its ⋯) for controlled shutdown, pause, session expiry, cutting its ZooKeeper link and stalling its fetchers." }</p>
                { chips(state, None, dispatch) }
                <div class="actions">{ delete_controller_button(dispatch) }</div>
            </section>
        };
    };
    let now = state.time_ms;
    let cmd = |c: Command| {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Apply(c.clone())))
    };
    let close = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Select(None)))
    };
    let pause_input = {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                d.emit(Action::SetPauseText(i.value()));
            }
        })
    };
    let pause = {
        let d = dispatch.clone();
        let secs = m.pause_secs();
        Callback::from(move |_: MouseEvent| match secs {
            Some(s) => d.emit(Action::Apply(Command::Pause {
                broker: id,
                for_ms: s * 1000,
            })),
            None => d.emit(Action::ShowError(format!(
                "a pause lasts a whole number of seconds, from 1 to {MAX_PAUSE_SECS}"
            ))),
        })
    };

    let (toggle_label, toggle_cmd) = if click_starts(b) {
        ("Start", Command::Start(id))
    } else {
        ("Crash", Command::Crash(id))
    };
    let (link_label, link_cmd) = if b.zk_link_cut {
        (
            "Heal ZooKeeper link",
            Command::Heal(Endpoint::Broker(id), Endpoint::Zk),
        )
    } else {
        (
            "Cut ZooKeeper link",
            Command::Cut(Endpoint::Broker(id), Endpoint::Zk),
        )
    };

    let stalled_all = b.stalls.contains(&StallScope::All);
    let (stall_label, stall_cmd) = if stalled_all {
        (
            "Resume fetchers",
            Command::ResumeFetcher {
                broker: id,
                topic: None,
                partition: None,
            },
        )
    } else {
        (
            "Stall fetchers",
            Command::StallFetcher {
                broker: id,
                topic: None,
                partition: None,
            },
        )
    };

    let role_text = match b.controller_role {
        ControllerRole::Controller => format!("controller (epoch {})", b.acting_epoch.unwrap_or(0)),
        ControllerRole::Zombie => format!(
            "acts as controller with epoch {}, but /controller names {} — a zombie",
            b.acting_epoch.unwrap_or(0),
            state
                .controller
                .map_or("no broker".to_string(), |c| format!("broker {c}"))
        ),
        ControllerRole::Named => {
            "not acting, but /controller still names it until its session expires".to_string()
        }
        ControllerRole::None => "not the controller".to_string(),
    };
    let session = match (&b.zk_session, b.session_expires_in_ms) {
        (Some(s), Some(left)) => format!("{s}, expires in {} without a heartbeat", secs(left)),
        (Some(s), None) => s.clone(),
        (None, _) => "none".into(),
    };
    let registration = match (b.registered, b.broker_epoch) {
        (true, Some(e)) => format!("/brokers/ids/{id} exists (broker epoch {e})"),
        (true, None) => format!("/brokers/ids/{id} exists"),
        (false, _) => "not registered".into(),
    };
    let follows = match b.known_controller {
        Some(c) => format!("broker {c} (epoch {})", b.known_controller_epoch),
        None => "no controller has reached it yet".into(),
    };
    let mut rows = vec![
        (
            "state",
            match b.paused_until_ms {
                Some(u) => format!("paused, wakes in {}", secs(u.saturating_sub(now))),
                None => state_words(b.state.name()),
            },
        ),
        ("role", role_text),
        ("ZooKeeper client", state_words(b.zk_connection.name())),
        ("ZooKeeper session", session),
        ("registration", registration),
        ("follows controller", follows),
    ];
    if b.zk_link_cut {
        rows.push(("ZooKeeper link", "cut: every message is dropped".into()));
    }
    if !b.stalls.is_empty() {
        let what: Vec<String> = b
            .stalls
            .iter()
            .map(|s| match s {
                StallScope::All => "every partition".to_string(),
                StallScope::Topic(t) | StallScope::Partition(t) => t.clone(),
            })
            .collect();
        rows.push((
            "fetchers",
            format!(
                "stalled ({}): its follower replicas fall behind",
                what.join(", ")
            ),
        ));
    }

    html! {
        <section class="panel broker-panel" aria-labelledby={m.chrome.id("panel-title")} data-selected={id.to_string()}>
            <div class="panel-head">
                <h2 id={m.chrome.id("panel-title")}>{ format!("Broker {id}") }</h2>
                <button class="ghost close" onclick={close} aria-label="Close the broker panel">{ "×" }</button>
            </div>
            { chips(state, Some(id), dispatch) }
            <dl class="facts">
                { for rows.into_iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
            </dl>
            { replicas_table(state, list, id) }
            <div class="actions">
                <button class="danger" onclick={cmd(toggle_cmd)}>{ format!("{toggle_label} broker {id}") }</button>
                <button onclick={cmd(Command::Shutdown(id))}>{ "Controlled shutdown" }</button>
                <span class="pause-group">
                    <button onclick={pause}>
                        { match m.pause_secs() {
                            Some(s) => format!("Pause for {s} s"),
                            None => "Pause".to_string(),
                        } }
                    </button>
                    <label class="field compact">
                        <span class="sr-only">{ "pause length in seconds" }</span>
                        <input type="number" min="1" max={MAX_PAUSE_SECS.to_string()} step="1" value={m.pause_text.clone()}
                               oninput={pause_input} aria-label="Pause length in seconds" />
                        <span aria-hidden="true">{ "s" }</span>
                    </label>
                </span>
                <button onclick={cmd(Command::ExpireSession(id))}>{ "Expire ZooKeeper session" }</button>
                <button onclick={cmd(link_cmd)}>{ link_label }</button>
                if !list.is_empty() {
                    <button data-testid="stall-fetchers" aria-pressed={stalled_all.to_string()}
                            class={classes!(stalled_all.then_some("pressed"))}
                            title="Its follower replicas stop fetching from their leaders (for every partition)"
                            onclick={cmd(stall_cmd)}>{ stall_label }</button>
                }
                { delete_controller_button(dispatch) }
            </div>
        </section>
    }
}

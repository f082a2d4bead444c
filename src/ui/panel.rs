//! The selected-broker panel: what one broker believes, the replicas it holds (role, log end
//! offset, lag, the partition's high watermark) and the actions beyond crash/start
//! (controlled shutdown, pause, session expiry, cutting its ZooKeeper link, stalling its
//! fetchers), plus the cluster action of moving the controller (deleting `/controller`).
//! Whether an action makes sense is the world's call: the buttons always send, and a refusal
//! is shown.

use super::model::{Action, Model, MAX_PAUSE_SECS};
use crate::i18n::{msg_graph as g, Tr};
use crate::sim::{
    BrokerId, ClusterState, Command, ControllerRole, Endpoint, ReplicaState, StallScope,
};
use crate::view::format::{
    broker_state_words, click_starts, connection_words, lag, replica_words, replicas_of, secs,
    PartitionRef,
};
use crate::view::waits::isr_waits;
use web_sys::HtmlInputElement;
use yew::prelude::*;

fn chips(
    state: &ClusterState,
    selected: Option<BrokerId>,
    dispatch: &Callback<Action>,
    tr: &Tr,
) -> Html {
    html! {
        <div class="chips" role="group" aria-label={tr.t(g::PANEL_SELECT_BROKER)}>
            { for state.brokers.iter().map(|(&id, b)| {
                let on = selected == Some(id);
                let d = dispatch.clone();
                let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::Select(if on { None } else { Some(id) })));
                let marker = match b.controller_role {
                    ControllerRole::Controller => " ♛".to_string(),
                    ControllerRole::Zombie => tr.t(g::PANEL_CHIP_ZOMBIE),
                    ControllerRole::Named | ControllerRole::None => String::new(),
                };
                html! {
                    <button class={classes!("chip", format!("state-{}", b.state.name()), on.then_some("on"))}
                            aria-pressed={on.to_string()} data-testid={format!("select-{id}")} {onclick}>
                        { tr.f(g::BROKER_N, &[("broker", &id)]) }{ marker }
                    </button>
                }
            }) }
        </div>
    }
}

/// The operator's way to move the controller: delete `/controller`.
fn delete_controller_button(dispatch: &Callback<Action>, tr: &Tr) -> Html {
    let d = dispatch.clone();
    let onclick =
        Callback::from(move |_: MouseEvent| d.emit(Action::Apply(Command::DeleteController)));
    html! {
        <button data-testid="delete-controller" {onclick} title={tr.t(g::PANEL_DELETE_CONTROLLER_TITLE)}>
            { tr.t(g::PANEL_DELETE_CONTROLLER) }
        </button>
    }
}

/// The replicas broker `id` holds, as a small table.
#[inline(never)]
fn replicas_table(state: &ClusterState, list: &[PartitionRef], id: BrokerId, tr: &Tr) -> Html {
    let held = replicas_of(state, list, id);
    if held.is_empty() {
        return html! {};
    }
    let caption = tr.f(g::PANEL_REPLICAS_ON, &[("broker", &id)]);
    html! {
        <div class="table-wrap" role="region" tabindex="0" aria-label={caption.clone()}>
            <table class="replica-table" data-testid="broker-replicas">
                <caption>{ caption }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ tr.t(g::COL_PARTITION) }</th>
                        <th scope="col">{ tr.t(g::COL_ROLE) }</th>
                        <th scope="col" title={tr.t(g::COL_LEO_TITLE)}>{ tr.t(g::COL_LEO) }</th>
                        <th scope="col" title={tr.t(g::COL_HW_TITLE)}>{ tr.t(g::COL_HW) }</th>
                        <th scope="col" title={tr.t(g::COL_LAG_TITLE)}>{ tr.t(g::COL_LAG) }</th>
                        <th scope="col">{ "leader epoch" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for held.iter().map(|(r, p, st)| html! {
                        <tr data-replica={r.key.clone()} data-state={st.name()}>
                            <th scope="row">{ r.key.clone() }</th>
                            <td>
                                <span class={classes!("role-tag", format!("rs-{}", st.name()))}>{ replica_words(*st, tr) }</span>
                                { for isr_waits(&r.key, p, tr).into_iter().filter(|(b, _)| *b == id).map(|(_, w)| html! {
                                    <span class="wait isr-wait" data-testid="replica-isr-wait">{ w.sentence(tr) }</span>
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
#[inline(never)]
pub fn panel(
    m: &Model,
    state: &ClusterState,
    list: &[PartitionRef],
    dispatch: &Callback<Action>,
) -> Html {
    let tr = &m.tr();
    let Some((id, b)) = m
        .selected
        .and_then(|id| state.brokers.get(&id).map(|b| (id, b)))
    else {
        return html! {
            <section class="panel broker-panel" aria-labelledby={m.chrome.id("panel-title")}>
                <h2 id={m.chrome.id("panel-title")}>{ tr.t(g::PANEL_TITLE) }</h2>
                <p class="hint">{ tr.t(g::PANEL_HINT) }</p>
                { chips(state, None, dispatch, tr) }
                <div class="actions">{ delete_controller_button(dispatch, tr) }</div>
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
        let invalid = tr.f(g::PANEL_PAUSE_INVALID, &[("max", &MAX_PAUSE_SECS)]);
        Callback::from(move |_: MouseEvent| match secs {
            Some(s) => d.emit(Action::Apply(Command::Pause {
                broker: id,
                for_ms: s * 1000,
            })),
            None => d.emit(Action::ShowError(invalid.clone())),
        })
    };

    let (toggle_label, toggle_cmd) = if click_starts(b) {
        (g::PANEL_START_BROKER, Command::Start(id))
    } else {
        (g::PANEL_CRASH_BROKER, Command::Crash(id))
    };
    let (link_label, link_cmd) = if b.zk_link_cut {
        (
            g::PANEL_HEAL_LINK,
            Command::Heal(Endpoint::Broker(id), Endpoint::Zk),
        )
    } else {
        (
            g::PANEL_CUT_LINK,
            Command::Cut(Endpoint::Broker(id), Endpoint::Zk),
        )
    };

    let stalled_all = b.stalls.contains(&StallScope::All);
    let (stall_label, stall_cmd) = if stalled_all {
        (
            g::PANEL_RESUME_FETCHERS,
            Command::ResumeFetcher {
                broker: id,
                topic: None,
                partition: None,
            },
        )
    } else {
        (
            g::PANEL_STALL_FETCHERS,
            Command::StallFetcher {
                broker: id,
                topic: None,
                partition: None,
            },
        )
    };

    let epoch = b.acting_epoch.unwrap_or(0);
    let role_text = match b.controller_role {
        ControllerRole::Controller => tr.f(g::PANEL_ROLE_CONTROLLER, &[("epoch", &epoch)]),
        ControllerRole::Zombie => tr.f(
            g::PANEL_ROLE_ZOMBIE,
            &[
                ("epoch", &epoch),
                (
                    "named",
                    &state.controller.map_or(tr.t(g::PANEL_NO_BROKER), |c| {
                        tr.f(g::BROKER_N, &[("broker", &c)])
                    }),
                ),
            ],
        ),
        ControllerRole::Named => tr.t(g::PANEL_ROLE_NAMED),
        ControllerRole::None => tr.t(g::PANEL_ROLE_NONE),
    };
    let session = match (&b.zk_session, b.session_expires_in_ms) {
        (Some(s), Some(left)) => tr.f(
            g::PANEL_SESSION_EXPIRES,
            &[("session", s), ("time", &secs(left, tr))],
        ),
        (Some(s), None) => s.clone(),
        (None, _) => tr.t(g::PANEL_NONE),
    };
    let registration = match (b.registered, b.broker_epoch) {
        (true, Some(e)) => tr.f(g::PANEL_REGISTERED_EPOCH, &[("broker", &id), ("epoch", &e)]),
        (true, None) => tr.f(g::PANEL_REGISTERED, &[("broker", &id)]),
        (false, _) => tr.t(g::PANEL_NOT_REGISTERED),
    };
    let follows = match b.known_controller {
        Some(c) => tr.f(
            g::PANEL_FOLLOWS,
            &[("broker", &c), ("epoch", &b.known_controller_epoch)],
        ),
        None => tr.t(g::PANEL_FOLLOWS_NONE),
    };
    let mut rows = vec![
        (
            g::FACT_STATE,
            match b.paused_until_ms {
                Some(u) => tr.f(
                    g::PANEL_PAUSED_WAKES,
                    &[("time", &secs(u.saturating_sub(now), tr))],
                ),
                None => broker_state_words(b.state, tr),
            },
        ),
        (g::FACT_ROLE, role_text),
        (g::FACT_ZK_CLIENT, connection_words(b.zk_connection, tr)),
        (g::FACT_ZK_SESSION, session),
        (g::FACT_REGISTRATION, registration),
        (g::FACT_FOLLOWS, follows),
    ];
    if b.zk_link_cut {
        rows.push((g::FACT_ZK_LINK, tr.t(g::PANEL_LINK_CUT)));
    }
    if !b.stalls.is_empty() {
        let what: Vec<String> = b
            .stalls
            .iter()
            .map(|s| match s {
                StallScope::All => tr.t(g::PANEL_EVERY_PARTITION),
                StallScope::Topic(t) | StallScope::Partition(t) => t.clone(),
            })
            .collect();
        rows.push((
            g::FACT_FETCHERS,
            tr.f(
                g::PANEL_STALLED,
                &[("what", &what.join(&tr.t(g::ENUM_SEP)))],
            ),
        ));
    }

    html! {
        <section class="panel broker-panel" aria-labelledby={m.chrome.id("panel-title")} data-selected={id.to_string()}>
            <div class="panel-head">
                <h2 id={m.chrome.id("panel-title")}>{ tr.f(g::PANEL_BROKER_TITLE, &[("broker", &id)]) }</h2>
                <button class="ghost close" onclick={close} aria-label={tr.t(g::PANEL_CLOSE)}>{ "×" }</button>
            </div>
            { chips(state, Some(id), dispatch, tr) }
            <dl class="facts">
                { for rows.into_iter().map(|(k, v)| html! { <><dt>{ tr.t(k) }</dt><dd>{ v }</dd></> }) }
            </dl>
            { replicas_table(state, list, id, tr) }
            <div class="actions">
                <button class="danger" onclick={cmd(toggle_cmd)}>{ tr.f(toggle_label, &[("broker", &id)]) }</button>
                <button onclick={cmd(Command::Shutdown(id))}>{ tr.t(g::PANEL_SHUTDOWN) }</button>
                <span class="pause-group">
                    <button onclick={pause}>
                        { match m.pause_secs() {
                            Some(s) => tr.f(g::PANEL_PAUSE_FOR, &[("secs", &s)]),
                            None => tr.t(g::PANEL_PAUSE),
                        } }
                    </button>
                    <label class="field compact">
                        <span class="sr-only">{ tr.t(g::PANEL_PAUSE_LENGTH) }</span>
                        <input type="number" min="1" max={MAX_PAUSE_SECS.to_string()} step="1" value={m.pause_text.clone()}
                               oninput={pause_input} aria-label={tr.t(g::PANEL_PAUSE_LENGTH_LABEL)} />
                        <span aria-hidden="true">{ tr.t(g::PANEL_SECONDS_UNIT) }</span>
                    </label>
                </span>
                <button onclick={cmd(Command::ExpireSession(id))}>{ tr.t(g::PANEL_EXPIRE) }</button>
                <button onclick={cmd(link_cmd)}>{ tr.t(link_label) }</button>
                if !list.is_empty() {
                    <button data-testid="stall-fetchers" aria-pressed={stalled_all.to_string()}
                            class={classes!(stalled_all.then_some("pressed"))}
                            title={tr.t(g::PANEL_STALL_TITLE)}
                            onclick={cmd(stall_cmd)}>{ tr.t(stall_label) }</button>
                }
                { delete_controller_button(dispatch, tr) }
            </div>
        </section>
    }
}

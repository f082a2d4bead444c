//! The group panel: each consumer group as its coordinator holds it (state, generation,
//! leader, the members in the coordinator's own map order with their member ids and
//! partitions) beside each consumer's own view, with the actions on consumers: add one,
//! crash it, make it leave, start it again.
//!
//! Everything shown is the world's [`GroupView`] and [`ConsumerView`]s; every button sends a
//! [`Command`] and shows the world's refusal, if any. The rules (who leads, which broker
//! coordinates, when a member is removed) are the core's: the panel only says them.
//!
//! [`ConsumerView`]: crate::sim::ConsumerView

use super::i18n::rich;
use super::model::{Action, Model};
use crate::i18n::{msg_graph as t, Tr};
use crate::sim::assignors::Assignor;
use crate::sim::coordinator::OFFSETS_TOPIC;
use crate::sim::{ClusterState, Command, ConsumerState, GroupState, GroupView, Settings};
use crate::view::format::{consumer_words, short_member_id, ConsumerRef};
use crate::view::waits::{consumer_wait, rebalance_wait, sync_wait};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The assignors free play offers.
const ASSIGNORS: [Assignor; 2] = [Assignor::Range, Assignor::RoundRobin];

/// What a group state means, in a few words.
fn state_meaning(state: Option<GroupState>, tr: &Tr) -> String {
    tr.t(match state {
        Some(GroupState::Empty) => t::GROUP_EMPTY,
        Some(GroupState::PreparingRebalance) => t::GROUP_PREPARING,
        Some(GroupState::CompletingRebalance) => t::GROUP_COMPLETING,
        Some(GroupState::Stable) => t::GROUP_STABLE,
        Some(GroupState::Dead) => t::GROUP_DEAD,
        None => t::GROUP_UNHELD,
    })
}

fn command_button(
    label: String,
    action: &'static str,
    class: Option<&'static str>,
    title: String,
    cmd: Command,
    dispatch: &Callback<Action>,
) -> Html {
    let d = dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::Apply(cmd.clone())));
    html! {
        <button class={classes!("small", class)} data-action={action} {title} {onclick}>{ label }</button>
    }
}

/// One consumer's row: its place in the coordinator's member map, name, member id, state,
/// partitions and actions.
fn member_row(
    c: &ConsumerRef<'_>,
    place: Option<usize>,
    dispatch: &Callback<Action>,
    tr: &Tr,
) -> Html {
    let g = c.group_view;
    let leads = c.leads();
    let in_group = place.is_some();
    // The coordinator's record of the member, else the consumer's own.
    let member_id = g
        .member_ids
        .get(c.name)
        .cloned()
        .unwrap_or_else(|| c.view.member_id.clone());
    let assignment: Vec<String> = match g.assignment.get(c.name) {
        Some(a) if in_group => a.clone(),
        _ if c.alive() => c.view.assignment.clone(),
        _ => Vec::new(),
    };
    let state = match c.view.state {
        ConsumerState::Stable => tr.f(t::NODE_STABLE_GEN, &[("generation", &c.view.generation)]),
        s => consumer_words(s, tr),
    };
    let actions = if c.alive() {
        html! {
            <>
                { command_button(tr.t(t::MEMBER_CRASH), "crash", Some("danger"),
                    tr.f(t::MEMBER_CRASH_TITLE, &[("member", &c.name)]),
                    c.click(), dispatch) }
                if let Some(leave) = c.leave() {
                    { command_button(tr.t(t::MEMBER_LEAVE), "leave", None,
                        tr.f(t::MEMBER_LEAVE_TITLE, &[("member", &c.name)]),
                        leave, dispatch) }
                }
            </>
        }
    } else {
        command_button(
            tr.t(t::MEMBER_REJOIN),
            "rejoin",
            Some("primary"),
            tr.f(t::MEMBER_REJOIN_TITLE, &[("member", &c.name)]),
            c.click(),
            dispatch,
        )
    };
    html! {
        <li class={classes!("member", format!("cs-{}", c.look()), leads.then_some("is-leader"), (!in_group).then_some("outside"))}
            data-member-row={c.name.to_string()} data-in-group={in_group.to_string()} data-state={c.view.state.name()}>
            <span class="m-place" title={tr.t(if in_group { t::MEMBER_PLACE_TITLE } else { t::MEMBER_NOT_MEMBER })}>
                { place.map_or("–".to_string(), |p| (p + 1).to_string()) }
            </span>
            <span class="m-who">
                <strong class="m-name">{ c.name.to_string() }</strong>
                if leads {
                    <span class="leader-tag" title={tr.t(t::LEADER_TAG_TITLE)}>{ format!("♛ {}", tr.f(t::PILL_LEADER, &[("generation", &c.group_generation())])) }</span>
                }
                if !member_id.is_empty() {
                    <code class="m-id" title={member_id.clone()}>{ short_member_id(c.name, &member_id) }</code>
                }
            </span>
            <span class="m-state">
                { state }
                if let Some(w) = consumer_wait(c, tr) {
                    <span class="m-wait wait" data-testid="member-wait">{ w.sentence(tr) }</span>
                }
            </span>
            <span class="m-assign">
                if assignment.is_empty() {
                    <span class="m-none">{ if c.alive() { tr.t(t::MEMBER_NO_PARTITIONS) } else { String::new() } }</span>
                }
                { for assignment.iter().map(|p| html! { <span class="pchip">{ p.clone() }</span> }) }
            </span>
            <span class="m-actions">{ actions }</span>
        </li>
    }
}

/// The group's facts: state, generation, leader, coordinator.
fn stats(g: &GroupView, tr: &Tr) -> Html {
    // While no broker holds the group, the coordinator's figures are not known.
    let held = g.state.is_some();
    let generation = if held {
        g.generation.to_string()
    } else {
        String::new()
    };
    // Before its first JoinGroup a group does not exist yet; the broker leading its offsets
    // partition will create it.
    let to_be = g.awaits_first_join.then_some(g.offsets_leader).flatten();
    let (state, meaning, look) = match (g.state, to_be) {
        (Some(s), _) => (s.name().to_string(), state_meaning(Some(s), tr), s.name()),
        (None, Some(b)) => (
            tr.t(t::GROUP_NOT_CREATED),
            tr.f(t::GROUP_CREATED_BY, &[("broker", &b)]),
            "pending",
        ),
        (None, None) => (
            tr.t(t::GROUP_NO_COORDINATOR),
            state_meaning(None, tr),
            "none",
        ),
    };
    let coordinator = match (g.coordinator, to_be) {
        (Some(b), _) => tr.f(t::BROKER_N, &[("broker", &b)]),
        (None, Some(b)) => tr.f(t::GROUP_COORDINATOR_FIRST_JOIN, &[("broker", &b)]),
        (None, None) => tr.t(t::PANEL_NONE),
    };
    html! {
        <dl class="group-stats">
            <div class={classes!("gstat", "gstate", format!("gs-{look}"))} data-testid="group-state" data-state={g.state.map_or("none", GroupState::name)}>
                <dt>{ tr.t(t::FACT_STATE) }</dt>
                <dd><strong>{ state }</strong><small>{ meaning }</small></dd>
            </div>
            <div class="gstat" data-testid="group-generation" data-generation={generation}>
                <dt>{ tr.t(t::GROUP_GENERATION) }</dt>
                if held {
                    <dd><strong>{ g.generation }</strong><small>{ tr.t(t::GROUP_GENERATION_HELD) }</small></dd>
                } else if to_be.is_some() {
                    <dd><strong>{ "—" }</strong><small>{ tr.t(t::GROUP_GENERATION_TO_BE) }</small></dd>
                } else {
                    <dd><strong>{ "—" }</strong><small>{ tr.t(t::GROUP_GENERATION_UNKNOWN) }</small></dd>
                }
            </div>
            <div class="gstat gleader" data-testid="group-leader" data-leader={g.leader.clone().unwrap_or_default()}>
                <dt>{ tr.t(t::GROUP_LEADER) }</dt>
                if held {
                    <dd><strong>{ g.leader.clone().unwrap_or_else(|| tr.t(t::PANEL_NONE)) }</strong><small>{ tr.t(t::GROUP_LEADER_HELD) }</small></dd>
                } else if to_be.is_some() {
                    <dd><strong>{ "—" }</strong><small>{ tr.t(t::GROUP_LEADER_TO_BE) }</small></dd>
                } else {
                    <dd><strong>{ "—" }</strong><small>{ tr.t(t::GROUP_LEADER_UNKNOWN) }</small></dd>
                }
            </div>
            <div class="gstat" data-testid="group-coordinator" data-coordinator={g.coordinator.map(|b| b.to_string()).unwrap_or_default()}>
                <dt>{ tr.t(t::GROUP_COORDINATOR) }</dt>
                <dd><strong>{ coordinator }</strong><small>{ tr.f(t::GROUP_COORDINATOR_OF, &[("partition", &format!("{OFFSETS_TOPIC}-{}", g.coordinator_partition))]) }</small></dd>
            </div>
        </dl>
    }
}

/// One group's panel.
fn group_panel(
    m: &Model,
    id: &str,
    g: &GroupView,
    consumers: &[ConsumerRef<'_>],
    settings: &Settings,
    dispatch: &Callback<Action>,
) -> Html {
    let tr = &m.tr();
    let mine: Vec<&ConsumerRef<'_>> = consumers.iter().filter(|c| c.group == id).collect();
    // Members first, in the coordinator's map order; then the consumers it does not count.
    let mut rows: Vec<Html> = g
        .members
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            mine.iter()
                .find(|c| c.name == name)
                .map(|c| member_row(c, Some(i), dispatch, tr))
        })
        .collect();
    rows.extend(
        mine.iter()
            .filter(|c| !c.is_member())
            .map(|c| member_row(c, None, dispatch, tr)),
    );
    let next = m.next_consumer(Some(g));
    let add = {
        let d = dispatch.clone();
        let group = id.to_string();
        Callback::from(move |_: MouseEvent| d.emit(Action::AddConsumer(group.clone())))
    };
    let on_assignor = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_dyn_into::<HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(a) = Assignor::from_name(&value) {
                d.emit(Action::SetAssignor(a));
            }
        })
    };
    let partitions = settings.offsets_topic_num_partitions;
    let session_s = settings.consumer_session_timeout_ms / 1000;
    let title_id = m.chrome.id(&format!("group-title-{id}"));
    html! {
        <section class="panel group-panel" data-testid="group-panel" data-group={id.to_string()} aria-labelledby={title_id.clone()}>
            <div class="panel-head">
                <h2 id={title_id}>{ tr.t(t::GROUP_TITLE) }<code>{ id.to_string() }</code></h2>
                <div class="group-controls">
                    if m.story.is_none() {
                        <label class="field" title={tr.t(t::ASSIGNOR_TITLE)}>
                            <span>{ tr.t(t::ASSIGNOR) }</span>
                            <select data-testid="assignor" onchange={on_assignor} aria-label={tr.t(t::ASSIGNOR_LABEL)}>
                                { for ASSIGNORS.iter().map(|a| html! {
                                    <option value={a.name()} selected={*a == m.assignor}>{ a.name() }</option>
                                }) }
                            </select>
                        </label>
                    }
                    <button class="primary" data-testid="add-consumer" onclick={add} disabled={next.is_none()}
                            title={tr.t(t::ADD_CONSUMER_TITLE)}>
                        { match &next {
                            Some(n) => tr.f(t::ADD_CONSUMER_N, &[("member", n)]),
                            None => tr.t(t::ADD_CONSUMER),
                        } }
                    </button>
                </div>
            </div>
            { stats(g, tr) }
            if let Some(w) = rebalance_wait(g, tr) {
                <p class="wait group-wait" data-testid="group-wait">{ w.sentence(tr) }</p>
            }
            if let Some(text) = sync_wait(g, tr) {
                <p class="wait group-wait" data-testid="sync-wait">{ text }</p>
            }
            <p class="hint">
                { rich(&tr.f(t::GROUP_HINT, &[
                    ("partition", &format!("{OFFSETS_TOPIC}-{}", g.coordinator_partition)),
                    ("formula", &format!("abs(\"{id}\".hashCode()) % {partitions} = {}", g.coordinator_partition)),
                    ("secs", &session_s),
                    ("profile", &settings.profile.name()),
                ])) }
            </p>
            if rows.is_empty() {
                <p class="members-empty">{ tr.t(t::MEMBERS_EMPTY) }</p>
            } else {
                <ol class="members" aria-label={tr.f(t::MEMBERS_LABEL, &[("group", &id)])}>
                    { for rows }
                </ol>
            }
        </section>
    }
}

/// Renders a panel for every group (nothing when the world has none).
#[inline(never)]
pub fn groups(
    m: &Model,
    state: &ClusterState,
    consumers: &[ConsumerRef<'_>],
    settings: &Settings,
    dispatch: &Callback<Action>,
) -> Html {
    html! {
        { for state.groups.iter().map(|(id, g)| group_panel(m, id, g, consumers, settings, dispatch)) }
    }
}

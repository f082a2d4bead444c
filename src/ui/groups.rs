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

use super::model::{Action, Model};
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
fn state_meaning(state: Option<GroupState>) -> &'static str {
    match state {
        Some(GroupState::Empty) => "no members",
        Some(GroupState::PreparingRebalance) => "waiting for every member to join (JoinGroup)",
        Some(GroupState::CompletingRebalance) => "waiting for the leader's assignment (SyncGroup)",
        Some(GroupState::Stable) => "every member has its partitions",
        Some(GroupState::Dead) => "the group is gone",
        None => "no broker holds the group: its partition has no acting leader",
    }
}

fn command_button(
    label: &str,
    action: &'static str,
    class: Option<&'static str>,
    title: String,
    cmd: Command,
    dispatch: &Callback<Action>,
) -> Html {
    let d = dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::Apply(cmd.clone())));
    html! {
        <button class={classes!("small", class)} data-action={action} {title} {onclick}>{ label.to_string() }</button>
    }
}

/// One consumer's row: its place in the coordinator's member map, name, member id, state,
/// partitions and actions.
fn member_row(c: &ConsumerRef<'_>, place: Option<usize>, dispatch: &Callback<Action>) -> Html {
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
        ConsumerState::Stable => format!("stable · gen {}", c.view.generation),
        s => consumer_words(s).to_string(),
    };
    let actions = if c.alive() {
        html! {
            <>
                { command_button("Crash", "crash", Some("danger"),
                    format!("Consumer {} dies without a word: the coordinator notices only when its session times out", c.name),
                    c.click(), dispatch) }
                if let Some(leave) = c.leave() {
                    { command_button("Leave", "leave", None,
                        format!("Consumer {} sends LeaveGroup: the coordinator removes it at once", c.name),
                        leave, dispatch) }
                }
            </>
        }
    } else {
        command_button(
            "Rejoin",
            "rejoin",
            Some("primary"),
            format!(
                "Start consumer {} again: it joins with a fresh member id",
                c.name
            ),
            c.click(),
            dispatch,
        )
    };
    html! {
        <li class={classes!("member", format!("cs-{}", c.look()), leads.then_some("is-leader"), (!in_group).then_some("outside"))}
            data-member-row={c.name.to_string()} data-in-group={in_group.to_string()} data-state={c.view.state.name()}>
            <span class="m-place" title={if in_group { "place in the coordinator's member map" } else { "not a member" }}>
                { place.map_or("–".to_string(), |p| (p + 1).to_string()) }
            </span>
            <span class="m-who">
                <strong class="m-name">{ c.name.to_string() }</strong>
                if leads {
                    <span class="leader-tag" title="the group leader: it computes the assignment">{ format!("♛ leader · gen {}", c.group_generation()) }</span>
                }
                if !member_id.is_empty() {
                    <code class="m-id" title={member_id.clone()}>{ short_member_id(c.name, &member_id) }</code>
                }
            </span>
            <span class="m-state">
                { state }
                if let Some(w) = consumer_wait(c) {
                    <span class="m-wait wait" data-testid="member-wait">{ w.sentence() }</span>
                }
            </span>
            <span class="m-assign">
                if assignment.is_empty() {
                    <span class="m-none">{ if c.alive() { "no partitions" } else { "" } }</span>
                }
                { for assignment.iter().map(|p| html! { <span class="pchip">{ p.clone() }</span> }) }
            </span>
            <span class="m-actions">{ actions }</span>
        </li>
    }
}

/// The group's facts: state, generation, leader, coordinator.
fn stats(g: &GroupView) -> Html {
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
        (Some(s), _) => (s.name(), state_meaning(Some(s)).to_string(), s.name()),
        (None, Some(b)) => (
            "not created yet",
            format!("broker {b} creates it at the first JoinGroup"),
            "pending",
        ),
        (None, None) => ("no coordinator", state_meaning(None).to_string(), "none"),
    };
    let coordinator = match (g.coordinator, to_be) {
        (Some(b), _) => format!("broker {b}"),
        (None, Some(b)) => format!("broker {b}, from the first join"),
        (None, None) => "none".to_string(),
    };
    html! {
        <dl class="group-stats">
            <div class={classes!("gstat", "gstate", format!("gs-{look}"))} data-testid="group-state" data-state={g.state.map_or("none", GroupState::name)}>
                <dt>{ "state" }</dt>
                <dd><strong>{ state }</strong><small>{ meaning }</small></dd>
            </div>
            <div class="gstat" data-testid="group-generation" data-generation={generation}>
                <dt>{ "generation" }</dt>
                if held {
                    <dd><strong>{ g.generation }</strong><small>{ "+1 at every completed rebalance" }</small></dd>
                } else if to_be.is_some() {
                    <dd><strong>{ "—" }</strong><small>{ "1 once the first rebalance completes" }</small></dd>
                } else {
                    <dd><strong>{ "—" }</strong><small>{ "unknown until a broker loads the group" }</small></dd>
                }
            </div>
            <div class="gstat gleader" data-testid="group-leader" data-leader={g.leader.clone().unwrap_or_default()}>
                <dt>{ "leader" }</dt>
                if held {
                    <dd><strong>{ g.leader.clone().unwrap_or_else(|| "none".to_string()) }</strong><small>{ "computes the assignment" }</small></dd>
                } else if to_be.is_some() {
                    <dd><strong>{ "—" }</strong><small>{ "the first consumer to join" }</small></dd>
                } else {
                    <dd><strong>{ "—" }</strong><small>{ "the consumers still follow the one they know" }</small></dd>
                }
            </div>
            <div class="gstat" data-testid="group-coordinator" data-coordinator={g.coordinator.map(|b| b.to_string()).unwrap_or_default()}>
                <dt>{ "coordinator" }</dt>
                <dd><strong>{ coordinator }</strong><small>{ format!("leader of {OFFSETS_TOPIC}-{}", g.coordinator_partition) }</small></dd>
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
    let mine: Vec<&ConsumerRef<'_>> = consumers.iter().filter(|c| c.group == id).collect();
    // Members first, in the coordinator's map order; then the consumers it does not count.
    let mut rows: Vec<Html> = g
        .members
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            mine.iter()
                .find(|c| c.name == name)
                .map(|c| member_row(c, Some(i), dispatch))
        })
        .collect();
    rows.extend(
        mine.iter()
            .filter(|c| !c.is_member())
            .map(|c| member_row(c, None, dispatch)),
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
                <h2 id={title_id}>{ "Consumer group " }<code>{ id.to_string() }</code></h2>
                <div class="group-controls">
                    if m.story.is_none() {
                        <label class="field" title="How the leader spreads the partitions over the members. Changing it starts again.">
                            <span>{ "assignor" }</span>
                            <select data-testid="assignor" onchange={on_assignor} aria-label="Partition assignor (resets)">
                                { for ASSIGNORS.iter().map(|a| html! {
                                    <option value={a.name()} selected={*a == m.assignor}>{ a.name() }</option>
                                }) }
                            </select>
                        </label>
                    }
                    <button class="primary" data-testid="add-consumer" onclick={add} disabled={next.is_none()}
                            title="Start a new consumer: it finds the coordinator and joins the group">
                        { match &next {
                            Some(n) => format!("+ Add consumer {n}"),
                            None => "+ Add consumer".to_string(),
                        } }
                    </button>
                </div>
            </div>
            { stats(g) }
            if let Some(w) = rebalance_wait(g) {
                <p class="wait group-wait" data-testid="group-wait">{ w.sentence() }</p>
            }
            if let Some(text) = sync_wait(g) {
                <p class="wait group-wait" data-testid="sync-wait">{ text }</p>
            }
            <p class="hint">
                { "The coordinator is the broker leading " }
                <code>{ format!("{OFFSETS_TOPIC}-{}", g.coordinator_partition) }</code>
                { format!(": abs(\"{id}\".hashCode()) % {partitions} = {}. ", g.coordinator_partition) }
                { "The first member added leads and computes the assignment. When the leader goes, Kafka takes the first key of its member map, a Scala HashMap keyed by member id: the members are listed in that map's order, not in join order. A crashed consumer stays a member until " }
                <code>{ "session.timeout.ms" }</code>
                { format!(" ({session_s} s in Kafka {}) passes without its heartbeat; one that leaves is removed at once.", settings.profile.name()) }
            </p>
            if rows.is_empty() {
                <p class="members-empty">{ "No consumers yet. Add one: it asks any broker for the coordinator (FindCoordinator), then joins (JoinGroup)." }</p>
            } else {
                <ol class="members" aria-label={format!("Consumers of group {id}, members in the coordinator's map order")}>
                    { for rows }
                </ol>
            }
        </section>
    }
}

/// Renders a panel for every group (nothing when the world has none).
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

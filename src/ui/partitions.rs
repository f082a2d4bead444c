//! The partitions panel: the producer's controls, each topic's settings (unclean leader
//! election, `min.insync.replicas`, preferred election) and a live table of every partition:
//! replicas (preferred first), leader, leader epoch, ISR, high watermark, each replica's log
//! end offset and lag, and the producer's record account (acknowledged, failed, duplicated,
//! lost), with what each partition waits on (a follower counting down to leaving the ISR,
//! acks=all requests waiting for the ISR).
//!
//! The internal topic `__consumer_offsets` shows only the partitions that hold a group (their
//! leader is the group's coordinator), unless the reader asks for all of them.
//!
//! Everything shown is the world's [`PartitionView`]; every control sends a [`Command`] and
//! shows the world's refusal, if any. Nothing here decides a Kafka rule.

use super::i18n::rich;
use super::model::{Action, Model, MAX_BROKERS, MAX_PARTITIONS, MAX_SEND};
use crate::i18n::{msg_graph as g, Tr};
use crate::sim::{Acks, ClusterState, Command, PartitionView, ReplicaState, TopicSpec};
use crate::view::first_steps::default_produce_target;
use crate::view::format::{
    coordinator_keys, is_internal, lag, partition_list, replica_state, replica_words, PartitionRef,
};
use crate::view::waits::{isr_waits, produce_wait};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The acks the selector offers, in Kafka's spelling.
const ACKS: [Acks; 3] = [Acks::Zero, Acks::One, Acks::All];

fn select_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlSelectElement>().map(|s| s.value())
}

fn input_value(e: &InputEvent) -> Option<String> {
    e.target_dyn_into::<HtmlInputElement>().map(|i| i.value())
}

fn ids(list: &[u32], tr: &Tr) -> String {
    if list.is_empty() {
        tr.t(g::PANEL_NONE)
    } else {
        list.iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Why a row needs attention, as the world's [`PartitionView::health`] says: short tags
/// (class, text, explanation).
fn attention(p: &PartitionView, lost: u64, tr: &Tr) -> Vec<(&'static str, String, String)> {
    let h = &p.health;
    let l = p.leader;
    let mut tags = Vec::new();
    if h.offline {
        tags.push(("bad", tr.t(g::TAG_OFFLINE), tr.t(g::TAG_OFFLINE_TITLE)));
    }
    if h.leader_down {
        tags.push((
            "bad",
            tr.t(g::TAG_LEADER_DOWN),
            tr.f(g::TAG_LEADER_DOWN_TITLE, &[("broker", &l)]),
        ));
    }
    if h.leader_frozen {
        tags.push((
            "warn",
            tr.t(g::TAG_LEADER_FROZEN),
            tr.f(g::TAG_LEADER_FROZEN_TITLE, &[("broker", &l)]),
        ));
    }
    // Two views of the leader: ZooKeeper names one broker, another acts as leader.
    if !h.split_brain.is_empty() {
        tags.push((
            "bad",
            tr.t(g::TAG_SPLIT_BRAIN),
            tr.f(
                g::TAG_SPLIT_BRAIN_TITLE,
                &[
                    ("broker", &l),
                    (
                        "acting",
                        &h.split_brain
                            .iter()
                            .map(|b| b.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                ],
            ),
        ));
    }
    if lost > 0 {
        tags.push((
            "bad",
            tr.f(g::TAG_LOST, &[("lost", &lost)]),
            tr.f(g::TAG_LOST_TITLE, &[("lost", &lost)]),
        ));
    }
    if h.under_replicated {
        tags.push((
            "warn",
            tr.t(g::TAG_UNDER_REPLICATED),
            tr.f(
                g::TAG_UNDER_REPLICATED_TITLE,
                &[("isr", &p.isr.len()), ("replicas", &p.replicas.len())],
            ),
        ));
    }
    if h.under_min_isr {
        tags.push((
            "warn",
            tr.t(g::TAG_BELOW_MIN_ISR),
            tr.f(
                g::TAG_BELOW_MIN_ISR_TITLE,
                &[("isr", &p.isr.len()), ("min", &p.min_insync_replicas)],
            ),
        ));
    }
    tags
}

/// What the partition waits on, in a row of its own under it: followers counting down to
/// leaving the ISR, and the producer's acks=all requests waiting for the ISR.
fn waits_row(key: &str, p: &PartitionView, produce: Option<String>, tr: &Tr) -> Html {
    let isr = isr_waits(key, p, tr);
    if isr.is_empty() && produce.is_none() {
        return html! {};
    }
    html! {
        <tr class="waits-row" data-waits-for={key.to_string()}>
            <td colspan="11">
                <ul class="waits" aria-label={tr.f(g::WAITS_LABEL, &[("partition", &key)])}>
                    { for isr.iter().map(|(b, w)| html! {
                        <li class="wait isr-wait" data-testid="isr-wait" data-broker={b.to_string()}>{ w.sentence(tr) }</li>
                    }) }
                    if let Some(text) = produce {
                        <li class="wait produce-wait" data-testid="produce-wait">{ text }</li>
                    }
                </ul>
            </td>
        </tr>
    }
}

/// One replica's log end offset and lag.
fn leo_cell(p: &PartitionView, tr: &Tr) -> Html {
    html! {
        <ul class="leos">
            { for p.replicas.iter().map(|&b| {
                let st = replica_state(p, b);
                let leo = p.log_end_offsets.get(&b).copied().unwrap_or(0);
                let behind = lag(p, b);
                let title = tr.f(
                    g::LEO_TITLE,
                    &[("broker", &b), ("role", &replica_words(st, tr)), ("leo", &leo), ("lag", &behind)],
                );
                html! {
                    <li class={classes!("leo", format!("rs-{}", st.name()))} data-leo-broker={b.to_string()} data-state={st.name()} {title}>
                        <span class="leo-broker">{ b }</span>
                        <span class="leo-value">{ leo }</span>
                        if st == ReplicaState::Leader {
                            <span class="leo-lag leader-mark">{ tr.t(g::REPLICA_LEADER) }</span>
                        } else if behind > 0 {
                            <span class="leo-lag">{ tr.f(g::LEO_LAG, &[("lag", &behind)]) }</span>
                        }
                    </li>
                }
            }) }
        </ul>
    }
}

fn row(
    r: &PartitionRef,
    p: Option<&PartitionView>,
    lost: u64,
    producing_to: bool,
    groups_here: &[&str],
    produce: Option<String>,
    tr: &Tr,
) -> Html {
    let Some(p) = p.filter(|p| p.exists) else {
        return html! {
            <tr data-partition={r.key.clone()} class="pending">
                <th scope="row">{ r.key.clone() }</th>
                <td colspan="9" class="pending-note">{ tr.t(g::PARTITION_PENDING) }</td>
            </tr>
        };
    };
    let tags = attention(p, lost, tr);
    let leader = if p.health.offline {
        tr.t(g::LEADER_NONE_OFFLINE)
    } else {
        p.leader.to_string()
    };
    let stream = p.stream.as_ref().map(|s| {
        html! { <span class="tag stream" title={tr.t(g::TAG_STREAM_TITLE)}>{ format!("▶ {}/s acks={}", s.rate_per_s, s.acks) }</span> }
    });
    html! {
        <>
        <tr data-partition={r.key.clone()}
            class={classes!(
                (!tags.is_empty()).then_some("attn"),
                tags.iter().any(|(c, _, _)| *c == "bad").then_some("attn-bad"),
                producing_to.then_some("target"),
            )}
            data-attention={(!tags.is_empty()).to_string()}>
            <th scope="row">
                <span class="pname">{ r.key.clone() }</span>
                <span class="tags">
                    { for groups_here.iter().map(|grp| html! {
                        <span class="tag group" title={tr.f(g::TAG_GROUP_TITLE, &[("group", grp)])}>{ tr.f(g::TAG_GROUP, &[("group", grp)]) }</span>
                    }) }
                    { stream.unwrap_or_default() }
                    { for tags.iter().map(|(class, text, title)| html! {
                        <span class={classes!("tag", *class)} title={title.clone()}>{ text.clone() }</span>
                    }) }
                </span>
            </th>
            <td data-field="replicas" data-label={tr.t(g::COL_REPLICAS)} class="ids">
                { for p.replicas.iter().enumerate().map(|(i, b)| html! {
                    <>
                        if i > 0 { { ", " } }
                        if *b == p.preferred {
                            <span class="preferred" title={tr.t(g::PREFERRED_TITLE)}>{ format!("{b}★") }</span>
                        } else {
                            { b.to_string() }
                        }
                    </>
                }) }
            </td>
            <td data-field="leader" data-label={tr.t(g::COL_LEADER)} class={classes!(p.health.offline.then_some("offline"))}>{ leader }</td>
            <td data-field="leader_epoch" data-label="leader epoch" class="num">{ p.leader_epoch }</td>
            <td data-field="isr" data-label="ISR" class="ids">{ ids(&p.isr, tr) }</td>
            <td data-field="hw" data-label={tr.t(g::LABEL_HW)} class="num">{ p.high_watermark }</td>
            <td data-field="leo" data-label={tr.t(g::LABEL_LEO_LAG)} class="leo-cell">{ leo_cell(p, tr) }</td>
            <td data-field="acked" data-label={tr.t(g::COL_ACKED)} class="num">{ p.acked_records }</td>
            <td data-field="failed" data-label={tr.t(g::COL_FAILED)} class={classes!("num", (p.failed_records > 0).then_some("warn"))}
                title={tr.f(g::FAILED_CELL_TITLE, &[("failed", &p.failed_records), ("retried", &p.retried_records)])}>{ p.failed_records }</td>
            <td data-field="dup" data-label={tr.t(g::LABEL_DUP)} class={classes!("num", (p.duplicate_records > 0).then_some("warn"))}
                title={tr.t(g::DUP_CELL_TITLE)}>{ p.duplicate_records }</td>
            <td data-field="lost" data-label={tr.t(g::COL_LOST)} class={classes!("num", (lost > 0).then_some("bad"))}>
                if lost > 0 {
                    <span class="lost-pill">{ lost }</span>
                } else {
                    { lost }
                }
            </td>
        </tr>
        { waits_row(&r.key, p, produce, tr) }
        </>
    }
}

/// A topic's settings and actions.
fn topic_head(
    t: &TopicSpec,
    first: Option<&PartitionView>,
    dispatch: &Callback<Action>,
    tr: &Tr,
) -> Html {
    let name = t.name.clone();
    let unclean = first.is_some_and(|p| p.unclean_leader_election);
    let min_isr = first.map_or(1, |p| p.min_insync_replicas);
    let rf = t.replicas.iter().map(Vec::len).max().unwrap_or(1).max(1) as u32;
    let on_unclean = {
        let d = dispatch.clone();
        let topic = name.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                d.emit(Action::Apply(Command::SetConfig {
                    key: "unclean.leader.election.enable".into(),
                    value: serde_json::Value::Bool(i.checked()),
                    topic: Some(topic.clone()),
                }));
            }
        })
    };
    let on_min_isr = {
        let d = dispatch.clone();
        let topic = name.clone();
        Callback::from(move |e: Event| {
            if let Some(n) = select_value(&e).and_then(|v| v.parse::<u64>().ok()) {
                d.emit(Action::Apply(Command::SetConfig {
                    key: "min.insync.replicas".into(),
                    value: serde_json::Value::from(n),
                    topic: Some(topic.clone()),
                }));
            }
        })
    };
    let preferred = {
        let d = dispatch.clone();
        let topic = name.clone();
        Callback::from(move |_: MouseEvent| {
            d.emit(Action::Apply(Command::PreferredElection {
                topic: Some(topic.clone()),
                partition: None,
            }))
        })
    };
    html! {
        <div class="topic-head" data-topic={name.clone()}>
            <h3>{ tr.t(g::TOPIC) }<code>{ name.clone() }</code></h3>
            <label class="toggle" title={tr.t(g::UNCLEAN_TITLE)}>
                <input type="checkbox" data-testid="unclean-toggle" data-topic={name.clone()} checked={unclean} onchange={on_unclean} />
                <code>{ "unclean.leader.election.enable" }</code>
            </label>
            <label class="field" title={tr.t(g::MIN_ISR_TITLE)}>
                <code>{ "min.insync.replicas" }</code>
                <select data-testid="min-isr" data-topic={name.clone()} onchange={on_min_isr} aria-label={tr.f(g::MIN_ISR_LABEL, &[("topic", &name)])}>
                    { for (1..=rf.max(min_isr)).map(|n| html! {
                        <option value={n.to_string()} selected={n == min_isr}>{ n }</option>
                    }) }
                </select>
            </label>
            <button data-testid="preferred-election" data-topic={name.clone()} onclick={preferred}
                    title={tr.t(g::PREFERRED_ELECTION_TITLE)}>
                { tr.t(g::PREFERRED_ELECTION) }
            </button>
        </div>
    }
}

/// The internal topic's head: what it is, and whether every partition is listed.
fn internal_head(
    t: &TopicSpec,
    (shown, show_all): (usize, bool),
    dispatch: &Callback<Action>,
    tr: &Tr,
) -> Html {
    let total = t.replicas.len();
    let onchange = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                d.emit(Action::SetShowInternal(i.checked()));
            }
        })
    };
    html! {
        <div class="topic-head internal" data-topic={t.name.clone()}>
            <h3>{ tr.t(g::TOPIC) }<code>{ t.name.clone() }</code>{ " " }<span class="internal-tag">{ tr.t(g::INTERNAL) }</span></h3>
            <span class="topic-note">
                { tr.f(g::INTERNAL_NOTE, &[("total", &total)]) }
                if !show_all {
                    { tr.f(g::INTERNAL_SHOWING, &[("shown", &shown)]) }
                }
            </span>
            <label class="toggle">
                <input type="checkbox" data-testid="show-internal" checked={show_all} {onchange} />
                { tr.f(g::INTERNAL_SHOW_ALL, &[("total", &total)]) }
            </label>
        </div>
    }
}

/// The producer's controls: a partition, rate, acks, a steady stream and single batches.
fn produce_controls(
    m: &Model,
    state: &ClusterState,
    list: &[PartitionRef],
    dispatch: &Callback<Action>,
) -> Html {
    let Some(target) = m
        .produce_to
        .clone()
        .filter(|k| list.iter().any(|r| r.key == *k))
        .or_else(|| default_produce_target(state, list))
    else {
        return html! {};
    };
    let Some(tref) = list.iter().find(|r| r.key == target).cloned() else {
        return html! {};
    };
    let stream = state.partitions.get(&target).and_then(|p| p.stream.clone());
    let acks = m.acks();
    let default_acks = m.profile.default_acks();
    let rate = m.rate();
    let produce = {
        let tref = tref.clone();
        move |acks: Acks, rate: u64| Command::Produce {
            topic: tref.topic.clone(),
            partition: tref.partition,
            records: None,
            acks,
            rate_per_s: Some(rate),
            for_ms: None,
        }
    };

    let on_target = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                d.emit(Action::SetProduceTo(v));
            }
        })
    };
    let on_rate_input = {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = input_value(&e) {
                d.emit(Action::SetRateText(v));
            }
        })
    };
    // A running stream takes a new rate once the field is left (or Enter pressed).
    let on_rate_change = {
        let d = dispatch.clone();
        let streaming = stream.as_ref().map(|s| s.rate_per_s);
        let produce = produce.clone();
        let rate = rate.clone();
        Callback::from(move |_: Event| {
            if let (Some(current), Ok(r)) = (streaming, rate.clone()) {
                if r != current {
                    d.emit(Action::Apply(produce(acks, r)));
                }
            }
        })
    };
    let on_acks = {
        let d = dispatch.clone();
        let streaming = stream.is_some();
        let produce = produce.clone();
        let rate = rate.clone();
        Callback::from(move |e: Event| {
            if let Some(a) = select_value(&e).and_then(|v| Acks::parse(&v).ok()) {
                d.emit(Action::SetAcks(a));
                if let (true, Ok(r)) = (streaming, rate.clone()) {
                    d.emit(Action::Apply(produce(a, r)));
                }
            }
        })
    };
    let toggle = {
        let d = dispatch.clone();
        let streaming = stream.is_some();
        let target_key = target.clone();
        let tref = tref.clone();
        let rate = rate.clone();
        Callback::from(move |_: MouseEvent| {
            if streaming {
                d.emit(Action::Apply(Command::StopProducing {
                    topic: tref.topic.clone(),
                    partition: tref.partition,
                }));
            } else {
                match rate.clone() {
                    Ok(r) => {
                        // The partition picked for the learner stays the stream's.
                        d.emit(Action::SetProduceTo(target_key.clone()));
                        d.emit(Action::Apply(produce(acks, r)));
                    }
                    Err(e) => d.emit(Action::ShowError(e)),
                }
            }
        })
    };
    let on_send_input = {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = input_value(&e) {
                d.emit(Action::SetSendText(v));
            }
        })
    };
    let send = {
        let d = dispatch.clone();
        let count = m.send_count();
        let tref = tref.clone();
        Callback::from(move |_: MouseEvent| match count.clone() {
            Ok(n) => d.emit(Action::Apply(Command::Produce {
                topic: tref.topic.clone(),
                partition: tref.partition,
                records: Some(n),
                acks,
                rate_per_s: None,
                for_ms: None,
            })),
            Err(e) => d.emit(Action::ShowError(e)),
        })
    };
    let streaming = stream.is_some();
    let toggle_class = match streaming {
        true => "danger",
        false => "primary",
    };
    let tr = &m.tr();
    let send_label = match m.send_count() {
        Ok(n) => tr.f(g::SEND_N, &[("count", &n)]),
        Err(_) => tr.t(g::SEND),
    };

    html! {
        <div class="produce" role="group" aria-label={tr.t(g::PRODUCER_LABEL)}>
            <span class="produce-title">{ tr.t(g::CAPTION_PRODUCER) }</span>
            <label class="field">
                <span>{ tr.t(g::PRODUCE_TO) }</span>
                <select data-testid="stream-partition" onchange={on_target} aria-label={tr.t(g::PRODUCE_TO_LABEL)}>
                    { for list.iter().map(|r| html! {
                        <option value={r.key.clone()} selected={r.key == target}>{ r.key.clone() }</option>
                    }) }
                </select>
            </label>
            <label class="field">
                <span>{ tr.t(g::RATE) }</span>
                <input type="number" min="1" step="1" data-testid="stream-rate" value={m.rate_text.clone()}
                       oninput={on_rate_input} onchange={on_rate_change} aria-label={tr.t(g::RATE_LABEL)} />
                <span>{ "/s" }</span>
            </label>
            <label class="field">
                <span>{ "acks" }</span>
                <select data-testid="stream-acks" onchange={on_acks} aria-label="acks">
                    { for ACKS.iter().map(|a| html! {
                        <option value={a.name()} selected={*a == acks}>
                            { if *a == default_acks { tr.f(g::ACKS_DEFAULT, &[("acks", a)]) } else { a.to_string() } }
                        </option>
                    }) }
                </select>
            </label>
            <button data-testid="stream-toggle" class={classes!(toggle_class)}
                    aria-pressed={streaming.to_string()} onclick={toggle}>
                { match (&stream, streaming) {
                    (Some(st), true) => tr.f(g::STREAM_STOP_RATE, &[("partition", &target), ("rate", &st.rate_per_s), ("acks", &st.acks)]),
                    (_, true) => tr.f(g::STREAM_STOP, &[("partition", &target)]),
                    _ => tr.f(g::STREAM_START, &[("partition", &target)]),
                } }
            </button>
            <span class="send-group">
                <button data-testid="send-records" onclick={send} title={tr.t(g::SEND_TITLE)}>{ send_label }</button>
                <label class="field compact">
                    <input type="number" min="1" max={MAX_SEND.to_string()} step="1" data-testid="send-count"
                           value={m.send_text.clone()} oninput={on_send_input} aria-label={tr.t(g::SEND_COUNT_LABEL)} />
                    <span aria-hidden="true">{ tr.t(g::RECORDS_UNIT) }</span>
                </label>
            </span>
        </div>
    }
}

/// Free play's topic shape: partitions and replication factor (changing either starts again).
fn shape(m: &Model, dispatch: &Callback<Action>) -> Html {
    let on_partitions = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(n) = select_value(&e).and_then(|v| v.parse::<u32>().ok()) {
                d.emit(Action::SetPartitions(n));
            }
        })
    };
    let on_rf = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(n) = select_value(&e).and_then(|v| v.parse::<u32>().ok()) {
                d.emit(Action::SetRf(n));
            }
        })
    };
    let rf = m.rf();
    let tr = &m.tr();
    html! {
        <div class="shape">
            <label class="field" title={tr.t(g::PARTITIONS_TITLE)}>
                <span>{ tr.t(g::PARTITIONS_FIELD) }</span>
                <select data-testid="partition-count" onchange={on_partitions} aria-label={tr.t(g::PARTITIONS_LABEL)}>
                    { for (1..=MAX_PARTITIONS).map(|n| html! {
                        <option value={n.to_string()} selected={n == m.partitions}>{ n }</option>
                    }) }
                </select>
            </label>
            <label class="field" title={tr.t(g::RF_TITLE)}>
                <span>{ tr.t(g::RF_FIELD) }</span>
                <select data-testid="replication-factor" onchange={on_rf} aria-label={tr.t(g::RF_LABEL)}>
                    { for (1..=m.brokers.min(MAX_BROKERS)).map(|n| html! {
                        <option value={n.to_string()} selected={n == rf}>{ n }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// Renders the panel (nothing when the world has no topics).
#[inline(never)]
pub fn partitions(
    m: &Model,
    state: &ClusterState,
    topics: &[TopicSpec],
    dispatch: &Callback<Action>,
) -> Html {
    let list = partition_list(topics);
    if list.is_empty() {
        return html! {};
    }
    let tr = &m.tr();
    // The producer writes to the user's topics only.
    let user: Vec<PartitionRef> = list
        .iter()
        .filter(|r| !is_internal(&r.topic))
        .cloned()
        .collect();
    let target = m
        .produce_to
        .clone()
        .or_else(|| default_produce_target(state, &user));
    let holding = coordinator_keys(state);
    let groups_in = |key: &str| -> Vec<&str> {
        state
            .groups
            .iter()
            .filter(|(_, g)| {
                key.strip_prefix(crate::sim::coordinator::OFFSETS_TOPIC)
                    .and_then(|rest| rest.strip_prefix('-'))
                    .and_then(|p| p.parse::<u32>().ok())
                    == Some(g.coordinator_partition)
            })
            .map(|(id, _)| id.as_str())
            .collect()
    };
    let tables = topics.iter().map(|t| {
        let internal = is_internal(&t.name);
        let rows: Vec<&PartitionRef> = list
            .iter()
            .filter(|r| r.topic == t.name)
            .filter(|r| !internal || m.show_internal || holding.contains(&r.key))
            .collect();
        let first = rows.first().and_then(|r| state.partitions.get(&r.key));
        let caption = tr.f(g::PTABLE_CAPTION, &[("topic", &t.name)]);
        html! {
            <div class={classes!("topic", internal.then_some("internal"))}>
                if internal {
                    { internal_head(t, (rows.len(), m.show_internal), dispatch, tr) }
                } else {
                    { topic_head(t, first, dispatch, tr) }
                }
                // A region the keyboard can scroll when the table is wider than the screen.
                <div class="table-wrap" role="region" tabindex="0" aria-label={caption.clone()}>
                    <table class="ptable">
                        <caption class="sr-only">{ caption }</caption>
                        <thead>
                            <tr>
                                <th scope="col">{ tr.t(g::COL_PARTITION) }</th>
                                <th scope="col">{ tr.t(g::COL_REPLICAS) }</th>
                                <th scope="col">{ tr.t(g::COL_LEADER) }</th>
                                <th scope="col" title="leader epoch">{ "epoch" }</th>
                                <th scope="col">{ "ISR" }</th>
                                <th scope="col" title={tr.t(g::COL_HW_PTABLE_TITLE)}>{ tr.t(g::COL_HW) }</th>
                                <th scope="col">{ tr.t(g::COL_LEO_LAG) }</th>
                                <th scope="col" title={tr.t(g::COL_ACKED_TITLE)}>{ tr.t(g::COL_ACKED) }</th>
                                <th scope="col" title={tr.t(g::COL_FAILED_TITLE)}>{ tr.t(g::COL_FAILED) }</th>
                                <th scope="col" title={tr.t(g::COL_DUP_TITLE)}>{ tr.t(g::COL_DUP) }</th>
                                <th scope="col" title={tr.t(g::COL_LOST_TITLE)}>{ tr.t(g::COL_LOST) }</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for rows.iter().map(|r| {
                                let lost = state.lost_records.get(&r.key).copied().unwrap_or(0);
                                let here = if internal { groups_in(&r.key) } else { Vec::new() };
                                row(r, state.partitions.get(&r.key), lost, target.as_deref() == Some(r.key.as_str()), &here, produce_wait(state, &r.key, tr), tr)
                            }) }
                        </tbody>
                    </table>
                </div>
            </div>
        }
    });
    html! {
        <section class="panel partitions-panel" aria-labelledby={m.chrome.id("partitions-title")} data-testid="partitions">
            <div class="panel-head">
                <h2 id={m.chrome.id("partitions-title")}>{ tr.t(g::PARTITIONS_TITLE_H) }</h2>
                if m.story.is_none() {
                    { shape(m, dispatch) }
                }
            </div>
            <p class="hint">
                { rich(&tr.t(g::PARTITIONS_HINT)) }
            </p>
            { produce_controls(m, state, &user, dispatch) }
            { for tables }
        </section>
    }
}

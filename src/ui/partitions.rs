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

use super::model::{Action, Model, MAX_BROKERS, MAX_PARTITIONS, MAX_SEND};
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

fn ids(list: &[u32]) -> String {
    if list.is_empty() {
        "none".to_string()
    } else {
        list.iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Why a row needs attention, as the world's [`PartitionView::health`] says: short tags
/// (class, text, explanation).
fn attention(p: &PartitionView, lost: u64) -> Vec<(&'static str, String, String)> {
    let h = &p.health;
    let l = p.leader;
    let mut tags = Vec::new();
    if h.offline {
        tags.push((
            "bad",
            "offline".to_string(),
            "no leader: nobody can read or write this partition".to_string(),
        ));
    }
    if h.leader_down {
        tags.push((
            "bad",
            "leader down".to_string(),
            format!("ZooKeeper still names broker {l} the leader, but it is down: the controller has not noticed yet"),
        ));
    }
    if h.leader_frozen {
        tags.push((
            "warn",
            "leader frozen".to_string(),
            format!("the leader, broker {l}, is paused: nothing is written until it wakes or loses leadership"),
        ));
    }
    // Two views of the leader: ZooKeeper names one broker, another acts as leader.
    if !h.split_brain.is_empty() {
        tags.push((
            "bad",
            "split brain".to_string(),
            format!(
                "ZooKeeper names broker {l} the leader, but broker {} still acts as leader: it never accepted the request that deposed it",
                h.split_brain.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    if lost > 0 {
        tags.push((
            "bad",
            format!("{lost} lost"),
            format!("{lost} acknowledged record(s) are gone for good"),
        ));
    }
    if h.under_replicated {
        tags.push((
            "warn",
            "under-replicated".to_string(),
            format!(
                "the ISR holds {} of {} replicas",
                p.isr.len(),
                p.replicas.len()
            ),
        ));
    }
    if h.under_min_isr {
        tags.push((
            "warn",
            "below min ISR".to_string(),
            format!(
                "ISR of {} < min.insync.replicas {}: acks=all writes fail",
                p.isr.len(),
                p.min_insync_replicas
            ),
        ));
    }
    tags
}

/// What the partition waits on, in a row of its own under it: followers counting down to
/// leaving the ISR, and the producer's acks=all requests waiting for the ISR.
fn waits_row(key: &str, p: &PartitionView, produce: Option<String>) -> Html {
    let isr = isr_waits(key, p);
    if isr.is_empty() && produce.is_none() {
        return html! {};
    }
    html! {
        <tr class="waits-row" data-waits-for={key.to_string()}>
            <td colspan="11">
                <ul class="waits" aria-label={format!("What {key} waits on")}>
                    { for isr.iter().map(|(b, w)| html! {
                        <li class="wait isr-wait" data-testid="isr-wait" data-broker={b.to_string()}>{ w.sentence() }</li>
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
fn leo_cell(p: &PartitionView) -> Html {
    html! {
        <ul class="leos">
            { for p.replicas.iter().map(|&b| {
                let st = replica_state(p, b);
                let leo = p.log_end_offsets.get(&b).copied().unwrap_or(0);
                let behind = lag(p, b);
                let title = format!("broker {b}: {}, log end offset {leo}, lag {behind}", replica_words(st));
                html! {
                    <li class={classes!("leo", format!("rs-{}", st.name()))} data-leo-broker={b.to_string()} data-state={st.name()} {title}>
                        <span class="leo-broker">{ b }</span>
                        <span class="leo-value">{ leo }</span>
                        if st == ReplicaState::Leader {
                            <span class="leo-lag leader-mark">{ "leader" }</span>
                        } else if behind > 0 {
                            <span class="leo-lag">{ format!("lag {behind}") }</span>
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
) -> Html {
    let Some(p) = p.filter(|p| p.exists) else {
        return html! {
            <tr data-partition={r.key.clone()} class="pending">
                <th scope="row">{ r.key.clone() }</th>
                <td colspan="9" class="pending-note">{ "not created yet: the admin writes the topic once the brokers are up" }</td>
            </tr>
        };
    };
    let tags = attention(p, lost);
    let leader = if p.health.offline {
        "none (offline)".to_string()
    } else {
        p.leader.to_string()
    };
    let stream = p.stream.as_ref().map(|s| {
        html! { <span class="tag stream" title="the producer streams to this partition">{ format!("▶ {}/s acks={}", s.rate_per_s, s.acks) }</span> }
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
                    { for groups_here.iter().map(|g| html! {
                        <span class="tag group" title={format!("holds group {g}: its leader is the group's coordinator")}>{ format!("group {g}") }</span>
                    }) }
                    { stream.unwrap_or_default() }
                    { for tags.iter().map(|(class, text, title)| html! {
                        <span class={classes!("tag", *class)} title={title.clone()}>{ text.clone() }</span>
                    }) }
                </span>
            </th>
            <td data-field="replicas" data-label="replicas" class="ids">
                { for p.replicas.iter().enumerate().map(|(i, b)| html! {
                    <>
                        if i > 0 { { ", " } }
                        if *b == p.preferred {
                            <span class="preferred" title="preferred replica (first in the assignment)">{ format!("{b}★") }</span>
                        } else {
                            { b.to_string() }
                        }
                    </>
                }) }
            </td>
            <td data-field="leader" data-label="leader" class={classes!(p.health.offline.then_some("offline"))}>{ leader }</td>
            <td data-field="leader_epoch" data-label="leader epoch" class="num">{ p.leader_epoch }</td>
            <td data-field="isr" data-label="ISR" class="ids">{ ids(&p.isr) }</td>
            <td data-field="hw" data-label="high watermark" class="num">{ p.high_watermark }</td>
            <td data-field="leo" data-label="log end offset, lag" class="leo-cell">{ leo_cell(p) }</td>
            <td data-field="acked" data-label="acked" class="num">{ p.acked_records }</td>
            <td data-field="failed" data-label="failed" class={classes!("num", (p.failed_records > 0).then_some("warn"))}
                title={format!("{} record(s) given up; {} record(s) sent again after an error", p.failed_records, p.retried_records)}>{ p.failed_records }</td>
            <td data-field="dup" data-label="duplicates" class={classes!("num", (p.duplicate_records > 0).then_some("warn"))}
                title="records in the leader's log written twice: a producer without idempotence retried a batch that had been written">{ p.duplicate_records }</td>
            <td data-field="lost" data-label="lost" class={classes!("num", (lost > 0).then_some("bad"))}>
                if lost > 0 {
                    <span class="lost-pill">{ lost }</span>
                } else {
                    { lost }
                }
            </td>
        </tr>
        { waits_row(&r.key, p, produce) }
        </>
    }
}

/// A topic's settings and actions.
fn topic_head(t: &TopicSpec, first: Option<&PartitionView>, dispatch: &Callback<Action>) -> Html {
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
            <h3>{ "topic " }<code>{ name.clone() }</code></h3>
            <label class="toggle" title="Let an out-of-sync replica become leader when no in-sync replica is left: the partition comes back, acknowledged records may be lost.">
                <input type="checkbox" data-testid="unclean-toggle" data-topic={name.clone()} checked={unclean} onchange={on_unclean} />
                <code>{ "unclean.leader.election.enable" }</code>
            </label>
            <label class="field" title="acks=all needs at least this many in-sync replicas">
                <code>{ "min.insync.replicas" }</code>
                <select data-testid="min-isr" data-topic={name.clone()} onchange={on_min_isr} aria-label={format!("min.insync.replicas of topic {name}")}>
                    { for (1..=rf.max(min_isr)).map(|n| html! {
                        <option value={n.to_string()} selected={n == min_isr}>{ n }</option>
                    }) }
                </select>
            </label>
            <button data-testid="preferred-election" data-topic={name.clone()} onclick={preferred}
                    title="Move leadership back to each partition's preferred replica, where it is alive and in sync">
                { "Preferred election" }
            </button>
        </div>
    }
}

/// The internal topic's head: what it is, and whether every partition is listed.
fn internal_head(t: &TopicSpec, shown: usize, show_all: bool, dispatch: &Callback<Action>) -> Html {
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
            <h3>{ "topic " }<code>{ t.name.clone() }</code>{ " " }<span class="internal-tag">{ "internal" }</span></h3>
            <span class="topic-note">
                { format!("{total} partitions; the consumer groups live here, each in one partition whose leader is its coordinator.") }
                if !show_all {
                    { format!(" Showing the {shown} that hold a group.") }
                }
            </span>
            <label class="toggle">
                <input type="checkbox" data-testid="show-internal" checked={show_all} {onchange} />
                { format!("show all {total}") }
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
    let send_label = match m.send_count() {
        Ok(n) => format!("Send {n}"),
        Err(_) => "Send".to_string(),
    };

    html! {
        <div class="produce" role="group" aria-label="Producer">
            <span class="produce-title">{ "producer" }</span>
            <label class="field">
                <span>{ "to" }</span>
                <select data-testid="stream-partition" onchange={on_target} aria-label="Partition to produce to">
                    { for list.iter().map(|r| html! {
                        <option value={r.key.clone()} selected={r.key == target}>{ r.key.clone() }</option>
                    }) }
                </select>
            </label>
            <label class="field">
                <span>{ "rate" }</span>
                <input type="number" min="1" step="1" data-testid="stream-rate" value={m.rate_text.clone()}
                       oninput={on_rate_input} onchange={on_rate_change} aria-label="Stream rate, records per second" />
                <span>{ "/s" }</span>
            </label>
            <label class="field">
                <span>{ "acks" }</span>
                <select data-testid="stream-acks" onchange={on_acks} aria-label="acks">
                    { for ACKS.iter().map(|a| html! {
                        <option value={a.name()} selected={*a == acks}>
                            { if *a == default_acks { format!("{a} (default)") } else { a.to_string() } }
                        </option>
                    }) }
                </select>
            </label>
            <button data-testid="stream-toggle" class={classes!(if streaming { "danger" } else { "primary" })}
                    aria-pressed={streaming.to_string()} onclick={toggle}>
                { match (&stream, streaming) {
                    (Some(st), true) => format!("Stop stream to {target} ({}/s, acks={})", st.rate_per_s, st.acks),
                    (_, true) => format!("Stop stream to {target}"),
                    _ => format!("Start stream to {target}"),
                } }
            </button>
            <span class="send-group">
                <button data-testid="send-records" onclick={send} title="Send one batch of records">{ send_label }</button>
                <label class="field compact">
                    <input type="number" min="1" max={MAX_SEND.to_string()} step="1" data-testid="send-count"
                           value={m.send_text.clone()} oninput={on_send_input} aria-label="Records to send" />
                    <span aria-hidden="true">{ "records" }</span>
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
    html! {
        <div class="shape">
            <label class="field" title="How many partitions the topic has. Changing it starts again.">
                <span>{ "partitions" }</span>
                <select data-testid="partition-count" onchange={on_partitions} aria-label="Number of partitions (resets)">
                    { for (1..=MAX_PARTITIONS).map(|n| html! {
                        <option value={n.to_string()} selected={n == m.partitions}>{ n }</option>
                    }) }
                </select>
            </label>
            <label class="field" title="How many replicas each partition has (at most the brokers). Changing it starts again.">
                <span>{ "replication factor" }</span>
                <select data-testid="replication-factor" onchange={on_rf} aria-label="Replication factor (resets)">
                    { for (1..=m.brokers.min(MAX_BROKERS)).map(|n| html! {
                        <option value={n.to_string()} selected={n == rf}>{ n }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// Renders the panel (nothing when the world has no topics).
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
        html! {
            <div class={classes!("topic", internal.then_some("internal"))}>
                if internal {
                    { internal_head(t, rows.len(), m.show_internal, dispatch) }
                } else {
                    { topic_head(t, first, dispatch) }
                }
                <div class="table-wrap">
                    <table class="ptable">
                        <caption class="sr-only">{ format!("Partitions of topic {}", t.name) }</caption>
                        <thead>
                            <tr>
                                <th scope="col">{ "partition" }</th>
                                <th scope="col">{ "replicas" }</th>
                                <th scope="col">{ "leader" }</th>
                                <th scope="col" title="leader epoch">{ "epoch" }</th>
                                <th scope="col">{ "ISR" }</th>
                                <th scope="col" title="high watermark: the last offset every in-sync replica has">{ "HW" }</th>
                                <th scope="col">{ "log end offset · lag, by broker" }</th>
                                <th scope="col" title="records the producer saw acknowledged">{ "acked" }</th>
                                <th scope="col" title="records the producer gave up (an error it does not retry, or a timeout); some may be in the log all the same">{ "failed" }</th>
                                <th scope="col" title="records in the log twice: retries of a producer without enable.idempotence">{ "dup" }</th>
                                <th scope="col" title="acknowledged records that are gone">{ "lost" }</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for rows.iter().map(|r| {
                                let lost = state.lost_records.get(&r.key).copied().unwrap_or(0);
                                let here = if internal { groups_in(&r.key) } else { Vec::new() };
                                row(r, state.partitions.get(&r.key), lost, target.as_deref() == Some(r.key.as_str()), &here, produce_wait(state, &r.key))
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
                <h2 id={m.chrome.id("partitions-title")}>{ "Partitions" }</h2>
                if m.story.is_none() {
                    { shape(m, dispatch) }
                }
            </div>
            <p class="hint">
                { "The leader takes the writes; followers fetch from it. The ISR holds the replicas caught up within " }
                <code>{ "replica.lag.time.max.ms" }</code>
                { "; the high watermark is the last offset all of them have. Crash a leader and watch the controller elect another from the ISR." }
            </p>
            { produce_controls(m, state, &user, dispatch) }
            { for tables }
        </section>
    }
}

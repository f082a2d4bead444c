//! What a learner waits on, and for how long: every timer the world counts down, as "what is
//! awaited, in how long, and the setting that sets it", for the graph's nodes and the
//! panels. Pure functions of the core's views; the page only renders them.

use super::format::{in_secs, join_and, secs, ConsumerRef};
use crate::i18n::{msg_graph as g, Tr};
use crate::sim::{
    Acks, BatchWait, BrokerId, ClusterState, ConsumerState, GroupView, PartitionView, RebalanceWait,
};

/// How far ahead "next event" looks: 10 virtual minutes.
pub const JUMP_HORIZON_MS: u64 = crate::session::STEP_HORIZON_MS;

/// What "next event" says when nothing happens within `horizon_ms`, e.g. `nothing happens in
/// the next 10 min`.
pub fn nothing_within(horizon_ms: u64, tr: &Tr) -> String {
    let amount = if horizon_ms >= 60_000 && horizon_ms % 60_000 == 0 {
        tr.f(g::MINUTES, &[("min", &(horizon_ms / 60_000))])
    } else {
        secs(horizon_ms, tr)
    };
    tr.f(g::NOTHING_WITHIN, &[("time", &amount)])
}

/// One wait: what is awaited, the time left and the setting that sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    /// What happens when the time is up, e.g. `removed from my-group`.
    pub what: String,
    /// Virtual time left.
    pub left_ms: u64,
    /// The setting (or settings) that set the wait, e.g. `session.timeout.ms`.
    pub setting: String,
}

impl Wait {
    /// The wait as one sentence: `removed from my-group in 8.3 s (session.timeout.ms)`.
    pub fn sentence(&self, tr: &Tr) -> String {
        tr.f(
            g::WAIT_SENTENCE,
            &[
                ("what", &self.what),
                ("time", &secs(self.left_ms, tr)),
                ("setting", &self.setting),
            ],
        )
    }

    /// The time left as a node shows it under the wait: `in 8.3 s`.
    pub fn in_words(&self, tr: &Tr) -> String {
        in_secs(self.left_ms, tr)
    }
}

/// A crashed consumer's wait: the coordinator removes it from the group once
/// `session.timeout.ms` passes without a heartbeat. `None` while it runs, after it left, or
/// once the coordinator no longer counts it.
pub fn consumer_wait(c: &ConsumerRef<'_>, tr: &Tr) -> Option<Wait> {
    if c.view.state != ConsumerState::Crashed {
        return None;
    }
    let left_ms = *c.group_view.session_expiry_in_ms.get(c.name)?;
    Some(Wait {
        what: tr.f(g::WAIT_REMOVED_FROM, &[("group", &c.group)]),
        left_ms,
        setting: "session.timeout.ms".to_string(),
    })
}

/// The wait of a group's rebalance in progress: the initial delay for more members, or the
/// deadline for the members to rejoin.
pub fn rebalance_wait(group: &GroupView, tr: &Tr) -> Option<Wait> {
    let countdown = group.rebalance_countdown?;
    let (what, setting) = match countdown.wait {
        RebalanceWait::InitialDelay => (
            g::WAIT_JOIN_WITH_PRESENT,
            "group.initial.rebalance.delay.ms".to_string(),
        ),
        RebalanceWait::JoinDeadline => (g::WAIT_JOIN_WITHOUT_LATE, tr.t(g::SETTING_JOIN_DEADLINE)),
    };
    Some(Wait {
        what: tr.t(what),
        left_ms: countdown.left_ms,
        setting,
    })
}

/// The followers of partition `key` whose lag clock runs, with the wait before the leader
/// drops each from the ISR (`replica.lag.time.max.ms` after it was last caught up; at zero,
/// the leader's next ISR check removes it), in broker order.
pub fn isr_waits(key: &str, p: &PartitionView, tr: &Tr) -> Vec<(BrokerId, Wait)> {
    p.isr_expiry_in_ms
        .iter()
        .map(|(b, left)| {
            let (what, left_ms) = match (*left, p.isr_check_in_ms) {
                (0, Some(check)) => (
                    tr.f(g::WAIT_ISR_CHECK, &[("broker", b), ("partition", &key)]),
                    check,
                ),
                _ => (
                    tr.f(g::WAIT_LEAVES_ISR, &[("broker", b), ("partition", &key)]),
                    *left,
                ),
            };
            (
                *b,
                Wait {
                    what,
                    left_ms,
                    setting: "replica.lag.time.max.ms".to_string(),
                },
            )
        })
        .collect()
}

/// The lines under broker `id`'s node for its soonest ISR wait: `leaves ISR of orders-0`
/// (`+N` when more of its replicas count down), then the time left.
pub fn broker_isr_lines(
    state: &ClusterState,
    id: BrokerId,
    tr: &Tr,
) -> Vec<(String, &'static str)> {
    let mut waits: Vec<(&str, u64)> = state
        .partitions
        .iter()
        .filter_map(|(key, p)| {
            isr_waits(key, p, tr)
                .into_iter()
                .find(|(b, _)| *b == id)
                .map(|(_, w)| (key.as_str(), w.left_ms))
        })
        .collect();
    crate::collections::sort_by_key(&mut waits, |(key, left)| (*left, *key));
    let Some((key, left)) = waits.first() else {
        return Vec::new();
    };
    let more = match waits.len() {
        1 => String::new(),
        n => format!(" +{}", n - 1),
    };
    vec![
        (
            tr.f(g::NODE_LEAVES_ISR, &[("partition", key), ("more", &more)]),
            "countdown isr-wait",
        ),
        (in_secs(*left, tr), "countdown strong isr-wait"),
    ]
}

/// What the producer's acks=all requests to partition `key` wait for, while one is in flight
/// and an in-sync follower has not fetched up to the leader's log end offset yet: the ISR to
/// reach that offset, and which followers it waits for, e.g. `acks=all: 5 records wait for the ISR to reach offset 42: the leader
/// waits for broker 3 · request.timeout.ms gives up in 28.4 s`.
pub fn produce_wait(state: &ClusterState, key: &str, tr: &Tr) -> Option<String> {
    let p = state.partitions.get(key)?;
    let batches: Vec<_> = state
        .producer
        .batches
        .iter()
        .filter(|b| b.partition == key && b.acks == Acks::All && b.waits == BatchWait::InFlight)
        .collect();
    if batches.is_empty() {
        return None;
    }
    let records: u64 = batches.iter().map(|b| b.records).sum();
    let leader = BrokerId::try_from(p.leader).ok()?;
    let target = p.log_end_offsets.get(&leader).copied().unwrap_or(0);
    let behind: Vec<String> = p
        .isr
        .iter()
        .filter(|b| **b != leader && p.log_end_offsets.get(b).copied().unwrap_or(0) < target)
        .map(|b| tr.f(g::BROKER_N, &[("broker", b)]))
        .collect();
    if behind.is_empty() {
        // Every in-sync replica has it: the answer is on its way.
        return None;
    }
    let mut out = tr.f(
        if records == 1 {
            g::PRODUCE_WAIT_ONE
        } else {
            g::PRODUCE_WAIT_MANY
        },
        &[
            ("records", &records),
            ("offset", &target),
            ("brokers", &join_and(&behind, tr)),
        ],
    );
    let until = batches.iter().filter_map(|b| b.until_ms).min();
    if let Some(until) = until {
        out.push_str(&tr.f(
            g::PRODUCE_GIVES_UP,
            &[("time", &secs(until.saturating_sub(state.time_ms), tr))],
        ));
    }
    Some(out)
}

/// What a group's SyncGroup waits for while the coordinator holds the answers: the group's
/// record to be committed to its `__consumer_offsets` partition, and which in-sync replicas
/// have not fetched it yet, e.g. `SyncGroup answers wait for the group's record to be
/// committed to __consumer_offsets-12 (high watermark 4, needs 5): broker 3 has not fetched
/// it yet (offsets.commit.required.acks = -1, all the ISR)`.
pub fn sync_wait(group: &GroupView, tr: &Tr) -> Option<String> {
    let w = group.sync_wait.as_ref()?;
    let who = match w.awaiting.as_slice() {
        [] => tr.t(g::SYNC_ALL_HAVE_IT),
        [one] => tr.f(g::SYNC_ONE_MISSING, &[("broker", one)]),
        many => tr.f(
            g::SYNC_MANY_MISSING,
            &[(
                "brokers",
                &join_and(
                    &many
                        .iter()
                        .map(|b| tr.f(g::BROKER_N, &[("broker", b)]))
                        .collect::<Vec<_>>(),
                    tr,
                ),
            )],
        ),
    };
    Some(tr.f(
        g::SYNC_WAIT,
        &[
            ("partition", &w.partition),
            ("hw", &w.high_watermark),
            ("needs", &w.record_end),
            ("who", &who),
        ],
    ))
}

/// The state as the page shows it while a lesson's question waits for its answer: every
/// countdown taken out (a session's expiry, an ISR check, a follower's lag, a rebalance's wait,
/// a member's session at the coordinator). A countdown forecasts the run, which is what a
/// question asks the learner to work out: "16 s after the crash, which broker does /controller
/// name?" answers itself beside "ZK session expires in 20.1 s". What has happened stays shown.
pub fn without_forecasts(state: &mut ClusterState) {
    for b in state.brokers.values_mut() {
        b.session_expires_in_ms = None;
        b.session_countdown_ms = None;
    }
    for p in state.partitions.values_mut() {
        p.isr_expiry_in_ms.clear();
        p.isr_check_in_ms = None;
    }
    for g in state.groups.values_mut() {
        g.rebalance_countdown = None;
        g.session_expiry_in_ms.clear();
    }
}

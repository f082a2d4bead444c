//! Small text helpers shared by the page's parts.

use crate::i18n::{msg_graph as g, Tr};
use crate::sim::coordinator::OFFSETS_TOPIC;
use crate::sim::{
    BrokerId, BrokerState, BrokerView, ClusterState, Command, ConsumerState, ConsumerView,
    ControllerRole, GroupView, PartitionView, ReplicaState, TopicSpec, ZkConnection,
};
use crate::text::numbers::Short;

/// Time left, in seconds with one decimal rounded up, e.g. `12.4 s` for 12 301 ms (`12.4 秒`
/// in Chinese): a countdown shows 0.0 s only when nothing is left.
pub fn secs(ms: u64, tr: &Tr) -> String {
    let tenths = ms.div_ceil(100);
    tr.f(
        g::SECONDS,
        &[("secs", &format_args!("{}.{}", tenths / 10, tenths % 10))],
    )
}

/// A speed as the select shows it, e.g. `0.25×`.
pub fn speed_label(speed: f64) -> String {
    format!("{}×", Short(speed))
}

/// Whether a plain click starts the broker (otherwise it crashes it): its process is not
/// running.
pub fn click_starts(view: &BrokerView) -> bool {
    !view.state.is_alive()
}

/// A broker's state as words, e.g. `shutting down`.
pub fn broker_state_words(state: BrokerState, tr: &Tr) -> String {
    tr.t(match state {
        BrokerState::NotStarted => g::BROKER_NOT_STARTED,
        BrokerState::Running => g::BROKER_RUNNING,
        BrokerState::Paused => g::BROKER_PAUSED,
        BrokerState::ShuttingDown => g::BROKER_SHUTTING_DOWN,
        BrokerState::Crashed => g::BROKER_CRASHED,
        BrokerState::Stopped => g::BROKER_STOPPED,
    })
}

/// A broker's ZooKeeper connection as words, e.g. `connected`.
pub fn connection_words(c: ZkConnection, tr: &Tr) -> String {
    tr.t(match c {
        ZkConnection::Idle => g::ZK_IDLE,
        ZkConnection::Connecting => g::ZK_CONNECTING,
        ZkConnection::Connected => g::ZK_CONNECTED,
        ZkConnection::Disconnected => g::ZK_DISCONNECTED,
    })
}

/// Time left as a countdown says it: `in 8.3 s`.
pub fn in_secs(ms: u64, tr: &Tr) -> String {
    tr.f(g::IN_TIME, &[("time", &secs(ms, tr))])
}

/// The lines under a broker's node: its state, then what it is waiting for.
pub fn status_lines(view: &BrokerView, now: u64, tr: &Tr) -> Vec<(String, &'static str)> {
    let mut lines = vec![(broker_state_words(view.state, tr), "state")];
    if let Some(until) = view.paused_until_ms {
        lines.push((
            tr.f(
                g::WAKES_IN,
                &[("time", &secs(until.saturating_sub(now), tr))],
            ),
            "wake",
        ));
    }
    if let Some(left) = view.session_countdown_ms {
        lines.push((tr.t(g::NODE_SESSION_EXPIRES), "countdown"));
        lines.push((in_secs(left, tr), "countdown strong"));
    }
    if view.zk_link_cut {
        lines.push((tr.t(g::NODE_LINK_CUT), "cut-note"));
    }
    lines
}

/// One partition as the page lists it: its key in [`ClusterState::partitions`] (`T-0`), its
/// topic and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionRef {
    /// `topic-partition`.
    pub key: String,
    /// The topic.
    pub topic: String,
    /// The partition number.
    pub partition: u32,
}

/// Every partition in topic order, then by number (the state's map sorts `T-10` before `T-2`).
pub fn partition_list(topics: &[TopicSpec]) -> Vec<PartitionRef> {
    topics
        .iter()
        .flat_map(|t| {
            (0..t.replicas.len() as u32).map(move |p| PartitionRef {
                key: format!("{}-{p}", t.name),
                topic: t.name.clone(),
                partition: p,
            })
        })
        .collect()
}

/// A replica's role as words, e.g. `in-sync follower`.
pub fn replica_words(state: ReplicaState, tr: &Tr) -> String {
    tr.t(match state {
        ReplicaState::Leader => g::REPLICA_LEADER,
        ReplicaState::InSync => g::REPLICA_IN_SYNC,
        ReplicaState::OutOfSync => g::REPLICA_OUT_OF_SYNC,
        ReplicaState::Offline => g::REPLICA_OFFLINE,
        ReplicaState::Frozen => g::REPLICA_FROZEN,
    })
}

/// The replicas broker `id` holds, in partition order: (partition, its view, the replica's state).
pub fn replicas_of<'a>(
    state: &'a ClusterState,
    list: &'a [PartitionRef],
    id: BrokerId,
) -> Vec<(&'a PartitionRef, &'a PartitionView, ReplicaState)> {
    list.iter()
        .filter_map(|r| {
            let p = state.partitions.get(&r.key)?;
            if !p.exists || !p.replicas.contains(&id) {
                return None;
            }
            let st = replica_state(p, id);
            Some((r, p, st))
        })
        .collect()
}

/// The state of broker `id`'s replica of `p` (offline if the world has none for it).
pub fn replica_state(p: &PartitionView, id: BrokerId) -> ReplicaState {
    p.replica_states
        .get(&id)
        .copied()
        .unwrap_or(ReplicaState::Offline)
}

/// How far broker `id`'s replica of `p` is behind, as the world computes it.
pub fn lag(p: &PartitionView, id: BrokerId) -> u64 {
    p.lag.get(&id).copied().unwrap_or(0)
}

/// The accessible name of a broker node, e.g. "Broker 2, running, controller, epoch 2".
pub fn aria_label(id: u32, view: &BrokerView, now: u64, tr: &Tr) -> String {
    tr.f(
        g::ARIA_THEN_ACTION,
        &[
            ("what", &aria_description(id, view, now, tr)),
            ("action", &aria_action(view, tr)),
        ],
    )
}

/// What a broker node's accessible name says it is: its id, state, role and countdowns.
pub fn aria_description(id: u32, view: &BrokerView, now: u64, tr: &Tr) -> String {
    let mut parts = vec![
        tr.f(g::ARIA_BROKER, &[("broker", &id)]),
        broker_state_words(view.state, tr),
    ];
    let epoch = view.acting_epoch.unwrap_or(0);
    match view.controller_role {
        ControllerRole::Controller => {
            parts.push(tr.t(g::ARIA_CONTROLLER));
            parts.push(tr.f(g::ARIA_EPOCH, &[("epoch", &epoch)]));
        }
        ControllerRole::Zombie => {
            parts.push(tr.t(g::ARIA_ZOMBIE));
            parts.push(tr.f(g::ARIA_EPOCH, &[("epoch", &epoch)]));
        }
        ControllerRole::Named => parts.push(tr.t(g::ARIA_NAMED)),
        ControllerRole::None => {}
    }
    if let Some(until) = view.paused_until_ms {
        parts.push(tr.f(
            g::WAKES_IN,
            &[("time", &secs(until.saturating_sub(now), tr))],
        ));
    }
    if let Some(left) = view.session_countdown_ms {
        parts.push(tr.f(g::ARIA_SESSION_EXPIRES, &[("time", &secs(left, tr))]));
    }
    if view.zk_link_cut {
        parts.push(tr.t(g::ARIA_LINK_CUT));
    }
    parts.join(&tr.t(g::LIST_SEP))
}

/// What pressing a broker node does, as its accessible name says it.
pub fn aria_action(view: &BrokerView, tr: &Tr) -> String {
    tr.t(if click_starts(view) {
        g::ARIA_PRESS_START
    } else {
        g::ARIA_PRESS_CRASH
    })
}

/// Whether a topic is one of Kafka's internal topics (the core's rule).
pub fn is_internal(topic: &str) -> bool {
    crate::sim::topic::is_internal(topic)
}

/// The keys of the `__consumer_offsets` partitions that hold the groups (one per group).
pub fn coordinator_keys(state: &ClusterState) -> Vec<String> {
    let mut keys: Vec<String> = state
        .groups
        .values()
        .map(|g| format!("{OFFSETS_TOPIC}-{}", g.coordinator_partition))
        .collect();
    crate::collections::sort(&mut keys);
    keys.dedup();
    keys
}

/// The partitions worth listing beside the brokers: every partition of the user's topics,
/// and of `__consumer_offsets` only those that hold a group.
pub fn visible_partitions(list: &[PartitionRef], state: &ClusterState) -> Vec<PartitionRef> {
    let keep = coordinator_keys(state);
    list.iter()
        .filter(|r| !is_internal(&r.topic) || keep.contains(&r.key))
        .cloned()
        .collect()
}

/// One consumer as the page lists it.
#[derive(Debug, Clone, Copy)]
pub struct ConsumerRef<'a> {
    /// Its number in the world (its endpoint).
    pub index: u32,
    /// Its group.
    pub group: &'a str,
    /// Its name (client id).
    pub name: &'a str,
    /// How the consumer sees itself.
    pub view: &'a ConsumerView,
    /// Its group, as the coordinator holds it.
    pub group_view: &'a GroupView,
}

impl ConsumerRef<'_> {
    /// Whether the process runs (it has not crashed or left).
    pub fn alive(&self) -> bool {
        self.view.state.is_running()
    }

    /// Whether it leads the group, as the world says ([`ConsumerView::leads_group`]).
    pub fn leads(&self) -> bool {
        self.view.leads_group
    }

    /// The generation its group is in, as the world says ([`ConsumerView::group_generation`]).
    pub fn group_generation(&self) -> u32 {
        self.view.group_generation
    }

    /// Whether the coordinator counts it as a member.
    pub fn is_member(&self) -> bool {
        self.view.is_member
    }

    /// The look of its state: `stable`, `rebalancing`, `crashed` or `left`.
    pub fn look(&self) -> &'static str {
        match self.view.state {
            ConsumerState::Stable => "stable",
            ConsumerState::Crashed => "crashed",
            ConsumerState::Left => "left",
            ConsumerState::FindingCoordinator | ConsumerState::Joining | ConsumerState::Syncing => {
                "rebalancing"
            }
        }
    }

    /// What a click does: crash it while it runs, start it again (it rejoins) once it is down.
    pub fn click(&self) -> Command {
        let (group, member) = (self.group.to_string(), self.name.to_string());
        if self.alive() {
            Command::CrashConsumer { group, member }
        } else {
            Command::Join { group, member }
        }
    }

    /// LeaveGroup (shift-click), while it runs.
    pub fn leave(&self) -> Option<Command> {
        self.alive().then(|| Command::Leave {
            group: self.group.to_string(),
            member: self.name.to_string(),
        })
    }
}

/// Every consumer of every group, in the world's numbering (the order they first joined).
pub fn consumer_list(state: &ClusterState) -> Vec<ConsumerRef<'_>> {
    let mut out: Vec<ConsumerRef<'_>> = state
        .groups
        .iter()
        .flat_map(|(g, gv)| {
            gv.consumers.iter().map(move |(n, view)| ConsumerRef {
                index: view.index,
                group: g.as_str(),
                name: n.as_str(),
                view,
                group_view: gv,
            })
        })
        .collect();
    crate::collections::sort_by_key(&mut out, |c| c.index);
    out
}

/// A consumer's state as words, e.g. `finding the coordinator`.
pub fn consumer_words(state: ConsumerState, tr: &Tr) -> String {
    tr.t(match state {
        ConsumerState::FindingCoordinator => g::CONSUMER_FINDING,
        ConsumerState::Joining => g::CONSUMER_JOINING,
        ConsumerState::Syncing => g::CONSUMER_SYNCING,
        ConsumerState::Stable => g::CONSUMER_STABLE,
        ConsumerState::Left => g::CONSUMER_LEFT,
        ConsumerState::Crashed => g::CONSUMER_CRASHED,
    })
}

/// `a`, `a and b`, `a, b and c` (`a、b 和 c` in Chinese).
pub fn join_and(items: &[String], tr: &Tr) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => tr.f(
            g::AND,
            &[("first", &rest.join(&tr.t(g::ENUM_SEP))), ("last", last)],
        ),
    }
}

/// A member id (`client-id-UUID`) made short enough for a node or a table: the client id and
/// the UUID's first eight characters, `c1-efe6c102…`.
pub fn short_member_id(name: &str, id: &str) -> String {
    match id
        .strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('-'))
    {
        Some(uuid) if uuid.chars().count() > 8 => {
            format!("{name}-{}…", uuid.chars().take(8).collect::<String>())
        }
        _ => id.to_string(),
    }
}

/// The brokers and the consumers (by client id) an event is about: the ones its fields name
/// (`broker`, `controller`, `leader`, `coordinator`, `by`, `isr`, `removed`, `from`, `to`,
/// `member`, a group's `leader`). The page highlights them when the event is picked in the
/// log.
pub fn event_subjects(e: &crate::sim::Event) -> (Vec<crate::sim::BrokerId>, Vec<String>) {
    use serde_json::Value;
    let mut brokers = Vec::new();
    let mut members = Vec::new();
    let Ok(Value::Object(fields)) = serde_json::to_value(e) else {
        return (brokers, members);
    };
    let mut add = |v: &Value| {
        if let Some(id) = v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            if !brokers.contains(&id) {
                brokers.push(id);
            }
        }
    };
    for key in [
        "broker",
        "controller",
        "leader",
        "coordinator",
        "by",
        "isr",
        "removed",
        "from",
        "to",
    ] {
        match fields.get(key) {
            Some(Value::Array(items)) => items.iter().for_each(&mut add),
            Some(v) => add(v),
            None => {}
        }
    }
    for key in ["member", "leader"] {
        if let Some(Value::String(m)) = fields.get(key) {
            if !members.contains(m) {
                members.push(m.clone());
            }
        }
    }
    crate::collections::sort(&mut brokers);
    (brokers, members)
}

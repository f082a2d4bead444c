//! Small text helpers shared by the page's parts.

use crate::sim::coordinator::OFFSETS_TOPIC;
use crate::sim::{
    BrokerId, BrokerView, ClusterState, Command, ConsumerView, GroupView, PartitionView, TopicSpec,
};

/// Time left, in seconds with one decimal rounded up, e.g. `12.4 s` for 12 301 ms: a
/// countdown shows 0.0 s only when nothing is left.
pub fn secs(ms: u64) -> String {
    let tenths = ms.div_ceil(100);
    format!("{}.{} s", tenths / 10, tenths % 10)
}

/// A speed as the select shows it, e.g. `0.25×`.
pub fn speed_label(speed: f64) -> String {
    format!("{speed}×")
}

/// How a broker stands with respect to the controller role, as the graph marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Not acting as controller.
    None,
    /// Acts as controller and ZooKeeper's `/controller` names it.
    Controller,
    /// Acts as controller but `/controller` names another broker, or none: a zombie.
    Zombie,
    /// `/controller` still names it, but it does not act (it crashed and ZooKeeper has not
    /// expired its session yet).
    Named,
}

/// The role of broker `id` in `state`.
pub fn role(state: &ClusterState, id: u32, view: &BrokerView) -> Role {
    match (view.acts_as_controller, state.controller == Some(id)) {
        (true, true) => Role::Controller,
        (true, false) => Role::Zombie,
        (false, true) => Role::Named,
        (false, false) => Role::None,
    }
}

/// Whether a plain click starts the broker (otherwise it crashes it).
pub fn click_starts(view: &BrokerView) -> bool {
    matches!(view.state, "crashed" | "stopped" | "not_started")
}

/// A broker's state as words, e.g. `shutting down`.
pub fn state_words(state: &str) -> String {
    state.replace('_', " ")
}

/// The time left before ZooKeeper expires the broker's session, when that matters: the
/// broker is not heartbeating (crashed, paused, cut off, reconnecting). ZooKeeper keeps the
/// session, and its ephemeral znodes, until then.
pub fn session_countdown(view: &BrokerView) -> Option<u64> {
    let quiet = view.state != "running" || view.zk_link_cut || view.zk_connection != "connected";
    view.session_expires_in_ms.filter(|_| quiet)
}

/// The lines under a broker's node: its state, then what it is waiting for.
pub fn status_lines(view: &BrokerView, now: u64) -> Vec<(String, &'static str)> {
    let mut lines = vec![(state_words(view.state), "state")];
    if let Some(until) = view.paused_until_ms {
        lines.push((
            format!("wakes in {}", secs(until.saturating_sub(now))),
            "wake",
        ));
    }
    if let Some(left) = session_countdown(view) {
        lines.push(("ZK session expires".into(), "countdown"));
        lines.push((format!("in {}", secs(left)), "countdown strong"));
    }
    if view.zk_link_cut {
        lines.push(("ZooKeeper link cut".into(), "cut-note"));
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

/// Whether the controller has created the partition yet (written its first state).
pub fn created(p: &PartitionView) -> bool {
    p.controller_epoch > 0 || !p.isr.is_empty()
}

/// A replica's role as words, e.g. `in-sync follower`.
pub fn replica_words(state: &str) -> &'static str {
    match state {
        "leader" => "leader",
        "in_sync" => "in-sync follower",
        "out_of_sync" => "out-of-sync follower",
        "offline" => "offline (broker down)",
        "frozen" => "frozen (broker paused)",
        _ => "unknown",
    }
}

/// The replicas broker `id` holds, in partition order: (partition, its view, the replica's state).
pub fn replicas_of<'a>(
    state: &'a ClusterState,
    list: &'a [PartitionRef],
    id: BrokerId,
) -> Vec<(&'a PartitionRef, &'a PartitionView, &'static str)> {
    list.iter()
        .filter_map(|r| {
            let p = state.partitions.get(&r.key)?;
            if !created(p) || !p.replicas.contains(&id) {
                return None;
            }
            let st = p.replica_states.get(&id).copied().unwrap_or("offline");
            Some((r, p, st))
        })
        .collect()
}

/// How far a replica is behind: the leader's log end offset minus its own; while the partition
/// has no leader, behind the longest log.
pub fn lag(p: &PartitionView, id: BrokerId) -> u64 {
    let own = p.log_end_offsets.get(&id).copied().unwrap_or(0);
    let reference = u64::try_from(p.leader)
        .ok()
        .and_then(|l| p.log_end_offsets.get(&(l as BrokerId)).copied())
        .unwrap_or_else(|| p.log_end_offsets.values().copied().max().unwrap_or(0));
    reference.saturating_sub(own)
}

/// The accessible name of a broker node, e.g. "Broker 2, running, controller, epoch 2".
pub fn aria_label(state: &ClusterState, id: u32, view: &BrokerView, now: u64) -> String {
    let mut parts = vec![format!("Broker {id}"), state_words(view.state)];
    match role(state, id, view) {
        Role::Controller => {
            parts.push("controller".into());
            parts.push(format!("epoch {}", view.acting_epoch.unwrap_or(0)));
        }
        Role::Zombie => {
            parts.push("zombie controller (ZooKeeper names another)".into());
            parts.push(format!("epoch {}", view.acting_epoch.unwrap_or(0)));
        }
        Role::Named => parts.push("still named by ZooKeeper's /controller".into()),
        Role::None => {}
    }
    if let Some(until) = view.paused_until_ms {
        parts.push(format!("wakes in {}", secs(until.saturating_sub(now))));
    }
    if let Some(left) = session_countdown(view) {
        parts.push(format!("ZooKeeper session expires in {}", secs(left)));
    }
    if view.zk_link_cut {
        parts.push("ZooKeeper link cut".into());
    }
    let action = if click_starts(view) {
        "press to start"
    } else {
        "press to crash"
    };
    parts.push(action.into());
    parts.join(", ")
}

/// Whether a topic is one of Kafka's internal topics (`__consumer_offsets`).
pub fn is_internal(topic: &str) -> bool {
    topic.starts_with("__")
}

/// The keys of the `__consumer_offsets` partitions that hold the groups (one per group).
pub fn coordinator_keys(state: &ClusterState) -> Vec<String> {
    let mut keys: Vec<String> = state
        .groups
        .values()
        .map(|g| format!("{OFFSETS_TOPIC}-{}", g.coordinator_partition))
        .collect();
    keys.sort();
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
    /// Its number in the world (its endpoint), when the page knows it.
    pub index: Option<u32>,
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
        !matches!(self.view.state, "crashed" | "left")
    }

    /// Whether it leads the group: as the coordinator says, or, while no broker holds the
    /// group (its coordinator is moving), as the running consumer itself believes.
    pub fn leads(&self) -> bool {
        match self.group_view.state {
            Some(_) => self.group_view.leader.as_deref() == Some(self.name),
            None => self.view.leader && self.alive(),
        }
    }

    /// The generation its group is in: the coordinator's, or while no broker holds the group,
    /// the consumer's own.
    pub fn generation(&self) -> u32 {
        match self.group_view.state {
            Some(_) => self.group_view.generation,
            None => self.view.generation,
        }
    }

    /// Whether the coordinator counts it as a member.
    pub fn is_member(&self) -> bool {
        self.group_view.members.iter().any(|m| m == self.name)
    }

    /// The look of its state: `stable`, `rebalancing`, `crashed` or `left`.
    pub fn look(&self) -> &'static str {
        match self.view.state {
            "stable" => "stable",
            "crashed" => "crashed",
            "left" => "left",
            _ => "rebalancing",
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

/// Every consumer of every group: first those the page saw join, in that order (the world's
/// own numbering), then any other, by group and name.
pub fn consumer_list<'a>(
    state: &'a ClusterState,
    order: &[(String, String)],
) -> Vec<ConsumerRef<'a>> {
    let mut out: Vec<ConsumerRef<'a>> = Vec::new();
    for (i, (g, name)) in order.iter().enumerate() {
        if let Some(gv) = state.groups.get(g) {
            if let Some((n, view)) = gv.consumers.get_key_value(name) {
                out.push(ConsumerRef {
                    index: Some(i as u32),
                    group: state
                        .groups
                        .get_key_value(g)
                        .map_or("", |(k, _)| k.as_str()),
                    name: n.as_str(),
                    view,
                    group_view: gv,
                });
            }
        }
    }
    for (g, gv) in &state.groups {
        for (n, view) in &gv.consumers {
            if !out.iter().any(|c| c.group == g && c.name == n) {
                out.push(ConsumerRef {
                    index: None,
                    group: g.as_str(),
                    name: n.as_str(),
                    view,
                    group_view: gv,
                });
            }
        }
    }
    out
}

/// A consumer's state as words, e.g. `finding the coordinator`.
pub fn consumer_words(state: &str) -> &'static str {
    match state {
        "finding_coordinator" => "finding the coordinator",
        "joining" => "joining (JoinGroup)",
        "syncing" => "syncing (SyncGroup)",
        "stable" => "stable",
        "left" => "left the group",
        "crashed" => "crashed",
        _ => "unknown",
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

//! Test builders: a coordinator on broker 1 in a given state, fed one input at a time, and a
//! driver that plays a group's requests and timers through it.

use super::state::{CoordinatorState, Group, GroupState};
use super::{group_partition, member_ids_required, Coordinator, OffsetsLogs};
use crate::collections::VecMap;
use crate::sim::config::{Profile, Settings};
use crate::sim::log::{Log, Payload};
use crate::sim::message::{Body, Joined, KafkaError, Out, PartitionInfo, Timer};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;
use std::collections::BTreeSet;

/// The group of the tests.
pub(super) const G: &str = "my-group";

/// The rebalance timeout (`max.poll.interval.ms`) the members send unless a test sets another.
pub(super) const REBALANCE_TIMEOUT: u64 = 300_000;

/// The session timeout the members send.
pub(super) const SESSION_TIMEOUT: u64 = 600_000;

/// One offsets partition on the broker: whether the broker leads it, the leader epoch it knows,
/// and the log.
#[derive(Debug, Clone, Default)]
pub(super) struct FakeReplica {
    pub(super) leads: bool,
    pub(super) epoch: u64,
    pub(super) log: Log,
}

/// The broker's offsets partitions, as the coordinator sees them.
#[derive(Debug, Clone, Default)]
pub(super) struct FakeLogs(pub(super) VecMap<TopicPartition, FakeReplica>);

impl OffsetsLogs for FakeLogs {
    fn leads(&self, tp: &TopicPartition) -> bool {
        self.0.get(tp).is_some_and(|r| r.leads)
    }

    fn log(&self, tp: &TopicPartition) -> Option<&Log> {
        self.0.get(tp).map(|r| &r.log)
    }

    fn append(&mut self, tp: &TopicPartition, payload: Payload) -> Option<u64> {
        let r = self.0.get_mut(tp)?;
        Some(r.log.append_payload(r.epoch, payload))
    }
}

/// The coordinator of broker 1 with everything it borrows, owned.
pub(super) struct Node {
    pub(super) settings: Settings,
    pub(super) state: CoordinatorState,
    pub(super) logs: FakeLogs,
    pub(super) metadata: VecMap<TopicPartition, PartitionInfo>,
}

impl Node {
    /// Broker 1 leading [`G`]'s offsets partition in leader epoch 1, with no group yet.
    pub(super) fn new(profile: Profile) -> Node {
        let settings = Settings::for_profile(profile);
        let mut logs = FakeLogs::default();
        logs.0.insert(
            group_partition(G, &settings),
            FakeReplica {
                leads: true,
                epoch: 1,
                log: Log::default(),
            },
        );
        Node {
            settings,
            state: CoordinatorState::default(),
            logs,
            metadata: VecMap::new(),
        }
    }

    /// [`G`]'s offsets partition.
    pub(super) fn tp(&self) -> TopicPartition {
        group_partition(G, &self.settings)
    }

    /// Hands the coordinator one input at `now`: what it did, and the partitions it appended
    /// a group record to.
    pub(super) fn input(
        &mut self,
        now: u64,
        f: impl FnOnce(&mut Coordinator<'_>),
    ) -> (Out, Vec<TopicPartition>) {
        let mut out = Out::default();
        let mut c = Coordinator::new(
            1,
            now,
            &self.settings,
            &mut self.state,
            &mut self.logs,
            &self.metadata,
            &mut out,
        );
        f(&mut c);
        let appended = c.into_appended();
        (out, appended)
    }

    /// [`G`] as the coordinator holds it.
    pub(super) fn group(&self) -> &Group {
        &self.state.groups[G]
    }

    /// The group's (state, generation, number of members).
    pub(super) fn summary(&self) -> (GroupState, u32, usize) {
        let g = self.group();
        (g.state, g.generation, g.members.len())
    }

    /// The numbers of the coordinator's timers, oldest first.
    pub(super) fn timer_ids(&self) -> Vec<u64> {
        self.state.timers.keys().copied().collect()
    }

    /// The last group record appended to [`G`]'s partition.
    pub(super) fn last_record(&self) -> super::state::GroupRecord {
        let payload = self.logs.0[&self.tp()]
            .log
            .payloads
            .values()
            .last()
            .expect("a record");
        super::state::GroupRecord::clone(payload)
    }
}

/// A lone broker 1 that leads the group's `__consumer_offsets` partition (ISR [1], so every
/// group write commits at once), fed requests and its own timers by hand.
pub(super) struct Harness {
    pub(super) node: Node,
    /// Coordinator timers not fired yet: (fire at, timer id).
    timers: BTreeSet<(u64, u64)>,
    /// The rebalance timeout the members send.
    pub(super) rebalance_timeout: u64,
    /// The session timeout the members send.
    pub(super) session_timeout: u64,
}

impl Harness {
    pub(super) fn new(profile: Profile) -> Self {
        Harness {
            node: Node::new(profile),
            timers: BTreeSet::new(),
            rebalance_timeout: REBALANCE_TIMEOUT,
            session_timeout: SESSION_TIMEOUT,
        }
    }

    /// One input, then what the replica manager does with an append on a partition whose ISR
    /// is this broker alone: the high watermark moves to the log end and the write completes.
    pub(super) fn feed(&mut self, now: u64, f: impl FnOnce(&mut Coordinator<'_>)) -> Out {
        let (mut out, appended) = self.node.input(now, f);
        for tp in appended {
            let log = &mut self.node.logs.0.get_mut(&tp).expect("appended").log;
            log.hw = log.leo;
            let hw = log.hw;
            let (more, again) = self.node.input(now, |c| c.complete_writes(&tp, hw));
            assert!(again.is_empty(), "a commit appends nothing");
            out.sends.extend(more.sends);
            out.timers.extend(more.timers);
            out.events.extend(more.events);
        }
        for (at, _, t) in &out.timers {
            if let Timer::Group { id } = t {
                self.timers.insert((*at, *id));
            }
        }
        out
    }

    /// Fires the coordinator timers due up to `to`, in time order; returns what they did.
    pub(super) fn advance(&mut self, to: u64) -> Out {
        let mut all = Out::default();
        while let Some(&(at, id)) = self.timers.iter().next().filter(|(at, _)| *at <= to) {
            self.timers.remove(&(at, id));
            let out = self.feed(at, |c| c.on_timer(id));
            all.sends.extend(out.sends);
            all.timers.extend(out.timers);
            all.events.extend(out.events);
        }
        all
    }

    fn no_timer_due_before(&self, at: u64) {
        assert!(
            self.timers.iter().next().is_none_or(|(t, _)| *t >= at),
            "advance first: a timer is due before {at}"
        );
    }

    /// A JoinGroup from consumer `c` with member id `id` ("" for none); `new_id` is the id the
    /// coordinator hands out if it makes one.
    pub(super) fn join_raw(
        &mut self,
        at: u64,
        c: u32,
        client: &str,
        id: &str,
        new_id: &str,
        topics: &[&str],
    ) -> Out {
        self.no_timer_due_before(at);
        let (rebalance_timeout, session_timeout) = (self.rebalance_timeout, self.session_timeout);
        self.feed(at, |co| {
            co.on_join_group(
                Endpoint::Consumer(c),
                (G.into(), id.into(), client.into()),
                (
                    topics.iter().map(|t| t.to_string()).collect(),
                    "range".into(),
                ),
                (session_timeout, rebalance_timeout),
                new_id.into(),
            )
        })
    }

    /// A new member joins and gets member id `id` (through KIP-394's MEMBER_ID_REQUIRED
    /// round trip where the profile has it).
    pub(super) fn join_new(&mut self, at: u64, c: u32, client: &str, id: &str) -> Out {
        if member_ids_required(self.node.settings.profile) {
            let out = self.join_raw(at, c, client, "", id, &["orders"]);
            assert!(matches!(
                &out.sends[..],
                [(_, _, Body::JoinGroupResponse { result: Err((KafkaError::MemberIdRequired, given)), .. })] if given == id
            ));
            self.join_raw(at, c, client, id, "unused", &["orders"])
        } else {
            self.join_raw(at, c, client, "", id, &["orders"])
        }
    }

    pub(super) fn leave(&mut self, at: u64, c: u32, id: &str) -> Out {
        self.no_timer_due_before(at);
        self.feed(at, |co| {
            co.on_leave_group(Endpoint::Consumer(c), (G.into(), id.into()))
        })
    }

    pub(super) fn sync(
        &mut self,
        at: u64,
        c: u32,
        id: &str,
        assignment: Vec<(String, Vec<TopicPartition>)>,
    ) -> Out {
        self.no_timer_due_before(at);
        let generation = self.group().generation;
        self.feed(at, |co| {
            co.on_sync_group(
                Endpoint::Consumer(c),
                (G.into(), generation, id.into()),
                assignment,
            )
        })
    }

    pub(super) fn heartbeat(&mut self, at: u64, c: u32, id: &str) -> Out {
        self.no_timer_due_before(at);
        let generation = self.group().generation;
        self.feed(at, |co| {
            co.on_heartbeat(Endpoint::Consumer(c), (G.into(), generation, id.into()))
        })
    }

    pub(super) fn group(&self) -> &Group {
        self.node.group()
    }

    pub(super) fn state(&self) -> (GroupState, u32, usize) {
        self.node.summary()
    }
}

/// The kinds of the events, in order.
pub(super) fn kinds(out: &Out) -> Vec<&'static str> {
    out.events.iter().map(|(k, _)| k.name()).collect()
}

/// The cause of the first event of `kind`.
pub(super) fn cause_of(out: &Out, kind: &str) -> String {
    out.events
        .iter()
        .find(|(k, _)| k.name() == kind)
        .map(|(_, c)| c.english())
        .unwrap_or_else(|| panic!("no {kind} event in {:?}", kinds(out)))
}

/// A successful JoinGroup response to consumer `c` (member `id`), listing `members` (each
/// subscribed to `orders`).
pub(super) fn joined(
    c: u32,
    generation: u32,
    leader: &str,
    id: &str,
    members: &[&str],
) -> (Endpoint, Endpoint, Body) {
    (
        Endpoint::Broker(1),
        Endpoint::Consumer(c),
        Body::JoinGroupResponse {
            group: G.into(),
            result: Ok(Joined {
                generation,
                leader: leader.into(),
                member_id: id.into(),
                protocol: "range".into(),
                members: members
                    .iter()
                    .map(|m| (m.to_string(), vec!["orders".to_string()]))
                    .collect(),
            }),
        },
    )
}

/// A coordinator timer `id` at `at`, as the broker is asked for it.
pub(super) fn group_timer(at: u64, id: u64) -> (u64, Endpoint, Timer) {
    (at, Endpoint::Broker(1), Timer::Group { id })
}

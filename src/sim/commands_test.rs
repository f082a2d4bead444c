//! The check of a command, one command at a time: against the layout alone (a scenario
//! before any world exists) and against a running cluster's state (a fake [`Live`]).

use super::broker::BrokerStatus;
use super::commands::{check, Command, GroupSpec, Layout, Live, Setup};
use super::config::Settings;
use super::consumer::ConsumerState;
use super::net::{link, BrokerId, Endpoint};
use super::replication::Stall;
use super::topic::{Acks, TopicPartition, TopicSpec};
use crate::collections::{VecMap, VecSet};

/// A running cluster's state, as the check reads it.
#[derive(Default)]
struct Fake {
    status: VecMap<BrokerId, BrokerStatus>,
    stalls: Vec<(BrokerId, Stall)>,
    sessions: VecSet<BrokerId>,
    cut: VecSet<(Endpoint, Endpoint)>,
    streams: Vec<TopicPartition>,
    clients: VecSet<Acks>,
    controller: Option<BrokerId>,
    assignment: VecMap<TopicPartition, Vec<BrokerId>>,
    reassigning: VecSet<TopicPartition>,
    consumers: VecMap<(String, String), ConsumerState>,
}

impl Live for Fake {
    fn status(&self, broker: BrokerId) -> BrokerStatus {
        self.status
            .get(&broker)
            .copied()
            .unwrap_or(BrokerStatus::Running)
    }
    fn is_stalled(&self, broker: BrokerId, stall: &Stall) -> bool {
        self.stalls.iter().any(|(b, s)| *b == broker && s == stall)
    }
    fn has_live_session(&self, broker: BrokerId) -> bool {
        self.sessions.contains(&broker)
    }
    fn is_cut(&self, a: Endpoint, b: Endpoint) -> bool {
        self.cut.contains(&link(a, b))
    }
    fn is_streaming_to(&self, tp: &TopicPartition) -> bool {
        self.streams.contains(tp)
    }
    fn producer_clients_in_use(&self) -> VecSet<Acks> {
        self.clients.clone()
    }
    fn controller(&self) -> Option<BrokerId> {
        self.controller
    }
    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        self.assignment.get(tp).cloned().unwrap_or_default()
    }
    fn is_reassigning(&self, tp: &TopicPartition) -> bool {
        self.reassigning.contains(tp)
    }
    fn consumer_state(&self, group: &str, member: &str) -> Option<ConsumerState> {
        self.consumers
            .get(&(group.to_string(), member.to_string()))
            .copied()
    }
}

/// Brokers 1 to 3, topic T with partitions 0 and 1, group g on T.
fn setup() -> Setup {
    let mut s = Setup::with_brokers(1, Settings::default(), 3);
    s.topics.push(TopicSpec {
        name: "T".into(),
        replicas: vec![vec![1, 2], vec![2, 3]],
        config: Default::default(),
    });
    s.groups.push(GroupSpec {
        id: "g".into(),
        topics: vec!["T".into()],
        assignor: "range".into(),
    });
    s
}

/// The check of `cmd` against [`setup`], with `live` or without.
fn run(cmd: Command, live: Option<&Fake>) -> Result<(), String> {
    let s = setup();
    let topics = s.world_topics();
    let ids = s.broker_ids();
    let layout = Layout {
        brokers: &ids,
        topics: &topics,
        groups: &s.groups,
        settings: &s.settings,
    };
    check(&cmd, &layout, live.map(|l| l as &dyn Live))
}

fn produce(topic: &str, partition: u32, records: Option<u64>, rate: Option<u64>) -> Command {
    Command::Produce {
        topic: topic.into(),
        partition,
        records,
        acks: Acks::All,
        rate_per_s: rate,
        for_ms: None,
    }
}

#[test]
fn the_world_topics_add_consumer_offsets_when_there_are_groups() {
    let s = setup();
    let names: Vec<String> = s.world_topics().into_iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        vec!["T".to_string(), "__consumer_offsets".to_string()]
    );
    assert_eq!(s.broker_ids(), vec![1, 2, 3]);
    let mut alone = s.clone();
    alone.groups.clear();
    assert_eq!(alone.world_topics().len(), 1);
}

#[test]
fn an_unknown_broker_is_named() {
    assert_eq!(
        run(Command::Crash(7), None),
        Err("there is no broker 7".into())
    );
    assert_eq!(
        run(Command::Cut(Endpoint::Zk, Endpoint::Broker(9)), None),
        Err("there is no broker 9".into())
    );
}

#[test]
fn the_layout_alone_leaves_the_state_to_the_world() {
    // Crashing a broker that is not running, healing a link that is not cut, moving a
    // controller that does not exist: only a running cluster can tell.
    for cmd in [
        Command::Crash(1),
        Command::Start(1),
        Command::Heal(Endpoint::Zk, Endpoint::Broker(1)),
        Command::DeleteController,
        Command::ExpireSession(2),
    ] {
        assert_eq!(run(cmd.clone(), None), Ok(()), "{cmd}");
    }
}

#[test]
fn a_running_cluster_refuses_what_does_not_apply_now() {
    let mut live = Fake::default();
    live.status.insert(2, BrokerStatus::Crashed);
    assert_eq!(
        run(Command::Crash(2), Some(&live)),
        Err("broker 2 is not running (it is crashed)".into())
    );
    assert_eq!(
        run(Command::Start(1), Some(&live)),
        Err("broker 1 is already running".into())
    );
    assert_eq!(run(Command::Start(2), Some(&live)), Ok(()));
    assert_eq!(
        run(Command::DeleteController, Some(&live)),
        Err("there is no controller to move: /controller does not exist right now".into())
    );
    assert_eq!(
        run(Command::ExpireSession(1), Some(&live)),
        Err("broker 1 has no live ZooKeeper session".into())
    );
    assert_eq!(
        run(
            Command::Heal(Endpoint::Zk, Endpoint::Broker(1)),
            Some(&live)
        ),
        Err("the link ZooKeeper <-> broker 1 is not cut".into())
    );
    live.cut.insert(link(Endpoint::Broker(1), Endpoint::Zk));
    assert_eq!(
        run(Command::Cut(Endpoint::Zk, Endpoint::Broker(1)), Some(&live)),
        Err("the link ZooKeeper <-> broker 1 is already cut".into())
    );
}

#[test]
fn a_produce_names_its_bad_value() {
    assert_eq!(
        run(produce("T", 2, Some(1), None), None),
        Err("topic \"T\" has partitions 0..1, not 2".into())
    );
    assert_eq!(
        run(produce("T", 0, Some(0), None), None),
        Err("produce needs at least 1 record".into())
    );
    assert_eq!(
        run(produce("T", 0, None, Some(100_001)), None),
        Err("rate_per_s can be at most 100000".into())
    );
    assert_eq!(run(produce("T", 1, Some(5), None), None), Ok(()));
}

#[test]
fn a_reassignment_needs_distinct_known_brokers_and_a_controller() {
    let reassign = |replicas: Vec<BrokerId>| Command::Reassign {
        topic: "T".into(),
        partition: 0,
        replicas,
    };
    assert_eq!(
        run(reassign(vec![1, 1]), None),
        Err("broker 1 is listed twice".into())
    );
    assert_eq!(
        run(reassign(vec![3, 8]), None),
        Err("there is no broker 8".into())
    );
    let mut live = Fake::default();
    live.assignment
        .insert(TopicPartition::new("T", 0), vec![1, 2]);
    assert_eq!(
        run(reassign(vec![1, 2]), Some(&live)),
        Err("T-0 already has the replicas [1, 2]".into())
    );
    assert_eq!(
        run(reassign(vec![3, 1]), Some(&live)),
        Err("there is no controller right now to run the reassignment".into())
    );
    live.controller = Some(1);
    live.reassigning.insert(TopicPartition::new("T", 0));
    assert_eq!(
        run(reassign(vec![3, 1]), Some(&live)),
        Err("a reassignment of T-0 is already in progress; wait until it completes".into())
    );
}

#[test]
fn a_consumer_joins_a_known_group_once() {
    let join = |member: &str| Command::Join {
        group: "g".into(),
        member: member.into(),
    };
    assert_eq!(
        run(join(""), None),
        Err("a member name has 1 to 64 characters".into())
    );
    let mut live = Fake::default();
    live.consumers
        .insert(("g".into(), "c1".into()), ConsumerState::Stable);
    assert_eq!(
        run(join("c1"), Some(&live)),
        Err("consumer c1 is already in group g".into())
    );
    live.consumers
        .insert(("g".into(), "c1".into()), ConsumerState::Left);
    assert_eq!(run(join("c1"), Some(&live)), Ok(()));
    assert_eq!(
        run(
            Command::Leave {
                group: "g".into(),
                member: "c1".into()
            },
            Some(&live)
        ),
        Err("consumer c1 of group g is not running (it is left)".into())
    );
}

#[test]
fn a_stall_is_set_once_and_lifted_once() {
    let stall = Command::StallFetcher {
        broker: 2,
        topic: Some("T".into()),
        partition: None,
    };
    let resume = Command::ResumeFetcher {
        broker: 2,
        topic: Some("T".into()),
        partition: None,
    };
    let mut live = Fake::default();
    assert_eq!(run(stall.clone(), Some(&live)), Ok(()));
    assert_eq!(
        run(resume.clone(), Some(&live)),
        Err("broker 2's fetching of topic T is not stalled".into())
    );
    live.stalls.push((
        2,
        Stall {
            topic: Some("T".into()),
            partition: None,
        },
    ));
    assert_eq!(
        run(stall, Some(&live)),
        Err("broker 2's fetching of topic T is already stalled".into())
    );
    assert_eq!(run(resume, Some(&live)), Ok(()));
}

#[test]
fn a_resume_and_a_leave_name_what_does_not_exist() {
    assert_eq!(
        run(
            Command::ResumeFetcher {
                broker: 1,
                topic: Some("X".into()),
                partition: None,
            },
            Some(&Fake::default())
        ),
        Err("there is no topic \"X\"; the topics are \"T\", \"__consumer_offsets\"".into())
    );
    assert_eq!(
        run(
            Command::Leave {
                group: "h".into(),
                member: "c1".into()
            },
            None
        ),
        Err("there is no group \"h\"".into())
    );
    assert_eq!(
        run(
            Command::CrashConsumer {
                group: "g".into(),
                member: "c9".into()
            },
            Some(&Fake::default())
        ),
        Err("there is no consumer c9 in group g".into())
    );
}

#[test]
fn no_client_produces_to_consumer_offsets() {
    assert_eq!(
        run(produce("__consumer_offsets", 0, Some(1), None), None),
        Err("cannot produce to __consumer_offsets: it is Kafka's internal topic, which only the group coordinator writes".into())
    );
    // A stall of its fetching is fine: it is replicated as any topic.
    assert_eq!(
        run(
            Command::StallFetcher {
                broker: 1,
                topic: Some("__consumer_offsets".into()),
                partition: Some(3),
            },
            None
        ),
        Ok(())
    );
}

#[test]
fn a_stream_length_needs_a_stream() {
    let mut cmd = produce("T", 0, Some(5), None);
    if let Command::Produce { for_ms, .. } = &mut cmd {
        *for_ms = Some(1000);
    }
    assert_eq!(
        run(cmd, None),
        Err("for_ms needs rate_per_s (a steady stream)".into())
    );
}

//! The graph's model for a few states of the default cluster: a crashed broker, a partition
//! without a leader, a group with a leader. Each test feeds one state and asserts the exact
//! shapes, texts and presses.

use super::{Edge, Press, StatusIcon};
use crate::sim::assignors::Assignor;
use crate::sim::{
    BrokerState, Command, ConsumerState, ControllerRole, Profile, ReplicaState, World,
};
use crate::view::frame::{default_world, default_world_with_group, graph_of};
use crate::view::geometry::{Path, Pt};
use crate::view::setup::free_setup;
use crate::view::svg::graph_element;

const CROSS: &str = "M-4.5,-4.5 L4.5,4.5 M4.5,-4.5 L-4.5,4.5";

fn round1(p: Pt) -> (f64, f64) {
    ((p.x * 10.0).round() / 10.0, (p.y * 10.0).round() / 10.0)
}

/// The default cluster, settled (broker 1 controls, each broker leads one partition), with
/// broker 2 crashed a second ago: ZooKeeper has not yet expired its session.
#[test]
fn a_crashed_broker() {
    let mut w = default_world();
    w.advance_to(10_000);
    w.apply(Command::Crash(2)).expect("crash");
    w.advance_to(11_000);
    let g = graph_of(&w, false);
    let b = g.brokers.iter().find(|b| b.id == 2).expect("broker 2");
    assert_eq!(b.state, BrokerState::Crashed);
    assert_eq!(b.role, ControllerRole::None);
    assert_eq!(
        b.aria,
        "Broker 2, crashed, ZooKeeper session expires in 16.1 s; replicas \
         orders-0 (offline (broker down)), orders-1 (offline (broker down)), orders-2 \
         (offline (broker down)): press Enter to start it, m for its menu"
    );
    assert_eq!(b.title, "Start broker 2");
    assert_eq!(
        b.press,
        Press::Broker {
            command: Command::Start(2),
            panel: 2
        }
    );
    assert_eq!(
        b.status,
        Some(StatusIcon {
            d: CROSS,
            class: "crashed"
        })
    );
    assert_eq!(b.crown, None);
    // 16.1 s of the 18 s session left.
    assert_eq!(b.ring.as_deref(), Some("M0,-45.0 A45,45 0 1 1 -27.9,-35.3"));
    let labels: Vec<(&str, &str, f64)> = b
        .labels
        .iter()
        .map(|l| (l.text.as_str(), l.class, l.y))
        .collect();
    assert_eq!(
        labels,
        [
            ("crashed", "state", 116.0),
            ("ZK session expires", "countdown", 133.0),
            ("in 16.1 s", "countdown strong", 150.0),
        ]
    );
    // Three badges in two rows; ZooKeeper still names it the leader of orders-1.
    let badges: Vec<(&str, ReplicaState, bool, Option<&str>, usize)> = b
        .badges
        .iter()
        .map(|x| {
            (
                x.name.as_str(),
                x.state,
                x.named_leader,
                x.epoch.as_deref(),
                x.row,
            )
        })
        .collect();
    assert_eq!(
        badges,
        [
            ("orders-0", ReplicaState::Offline, false, None, 0),
            ("orders-1", ReplicaState::Offline, true, Some("e0"), 0),
            ("orders-2", ReplicaState::Offline, false, None, 1),
        ]
    );
    assert_eq!(
        b.badges[1].title,
        "orders-1: offline (broker down) on broker 2, leader epoch 0, log end offset 0, lag 0; \
         ZooKeeper still names it the leader"
    );
    assert_eq!(b.reach, 105.0);
    assert_eq!(
        b.label_press,
        Press::Select {
            click: Some(2),
            key: None
        }
    );
    assert_eq!(round1(b.more_at), (258.4, 57.5));
    // Its ZooKeeper link is down; the controller's channel goes to broker 3 only.
    let spoke = g
        .edges
        .iter()
        .find_map(|e| match e {
            Edge::Spoke {
                broker: 2,
                connection,
                cut,
                ..
            } => Some((*connection, *cut)),
            _ => None,
        })
        .expect("broker 2's spoke");
    assert_eq!(spoke, ("none", false));
    let channels = g
        .edges
        .iter()
        .filter(|e| matches!(e, Edge::Channel { .. }))
        .count();
    assert_eq!(channels, 1);
    // The markup says the same.
    let svg = graph_element(&g).to_markup();
    // The node's tooltip is the group's, outside the button; the session ring follows it.
    assert!(svg.contains("<g class=\"broker state-crashed\"><title>"));
    assert!(svg.contains(
        "</title><g transform=\"translate(223.4,92.4)\" class=\"session-ring\" aria-hidden=\"true\">"
    ));
    assert!(svg.contains(
        "<g class=\"status-badge crashed\" transform=\"translate(27,27)\"><circle r=\"11\"/>"
    ));
    assert!(svg.contains("<g class=\"replica rs-offline named-leader\" data-replica=\"orders-1\""));
}

/// One replica per partition: once broker 2's session has expired, the controller finds no
/// live replica for orders-1, whose leader becomes none (-1) at leader epoch 1.
#[test]
fn a_partition_without_a_leader() {
    let (setup, error) = free_setup(42, Profile::default(), (3, 3, 1), Assignor::Range);
    assert_eq!(error, None);
    let mut w = World::new(&setup);
    w.advance_to(10_000);
    w.apply(Command::Crash(2)).expect("crash");
    w.advance_to(40_000);
    assert_eq!(w.state().partitions["orders-1"].leader, -1);
    let g = graph_of(&w, false);
    let b = g.brokers.iter().find(|b| b.id == 2).expect("broker 2");
    assert_eq!(
        b.aria,
        "Broker 2, crashed; replicas orders-1 (offline (broker down)): press Enter to start it, \
         m for its menu"
    );
    assert_eq!(b.ring, None, "the session is gone");
    assert_eq!(b.badges.len(), 1);
    let badge = &b.badges[0];
    assert_eq!(
        (
            badge.name.as_str(),
            badge.state,
            badge.named_leader,
            badge.epoch.as_deref()
        ),
        ("orders-1", ReplicaState::Offline, false, None)
    );
    assert_eq!(
        badge.title,
        "orders-1: offline (broker down) on broker 2, leader epoch 1, log end offset 0, lag 0"
    );
    assert_eq!((badge.x, badge.y, badge.w), (0.0, 65.0, 70.4));
    // Nobody leads it: no badge anywhere says "leader" for orders-1.
    let leaders: Vec<(u32, &str)> = g
        .brokers
        .iter()
        .flat_map(|b| b.badges.iter().map(move |x| (b.id, x)))
        .filter(|(_, x)| x.state == ReplicaState::Leader)
        .map(|(id, x)| (id, x.key.as_str()))
        .collect();
    assert_eq!(leaders, [(1, "orders-0"), (3, "orders-2")]);
    assert_eq!(g.zookeeper.ids, "/brokers/ids: [1,3]");
    assert_eq!(
        g.zookeeper.aria,
        "ZooKeeper: /controller = 1, /controller_epoch = 1, /brokers/ids: [1,3]"
    );
    assert_eq!(g.view_box, "-353 -310 689 688");
}

/// Two consumers of my-group, stable in generation 1: c1 leads and holds two partitions,
/// both talk to broker 3, which coordinates the group.
#[test]
fn a_group_with_a_leader() {
    let w = default_world_with_group(12_000);
    let g = graph_of(&w, false);
    assert_eq!(
        g.aria,
        "Cluster graph: ZooKeeper and 3 brokers, 2 consumers"
    );
    assert_eq!(g.consumers.len(), 2);
    let c1 = &g.consumers[0];
    assert_eq!((c1.member.as_str(), c1.group.as_str()), ("c1", "my-group"));
    assert_eq!(
        (c1.state, c1.look, c1.leads, c1.generation),
        (ConsumerState::Stable, "stable", true, 1)
    );
    assert_eq!(round1(c1.at), (-150.0, 350.5));
    let pill = c1.pill.as_ref().expect("the leader's crown");
    assert_eq!((pill.text.as_str(), pill.y), ("leader · gen 1", -51.0));
    assert!((pill.w - 140.4).abs() < 1e-9);
    assert_eq!(c1.state_line, "stable · gen 1");
    assert_eq!(
        c1.aria,
        "Consumer c1 of group my-group, stable, group leader (generation 1), partitions \
         orders-0, orders-1: press Enter to crash it, Shift+Enter to make it leave the group"
    );
    assert_eq!(
        c1.press,
        Press::Consumer {
            command: Command::CrashConsumer {
                group: "my-group".into(),
                member: "c1".into()
            },
            shift: Some(Command::Leave {
                group: "my-group".into(),
                member: "c1".into()
            }),
        }
    );
    let chips: Vec<(&str, f64, f64, f64)> = c1
        .chips
        .iter()
        .map(|c| (c.text.as_str(), c.x, c.y, c.w))
        .collect();
    assert_eq!(
        chips,
        [
            ("orders-0", -35.8, 49.0, 67.6),
            ("orders-1", 35.8, 49.0, 67.6)
        ]
    );
    assert_eq!(c1.member_id, None, "its partitions are shown instead");
    let c2 = &g.consumers[1];
    assert_eq!((c2.leads, c2.pill.is_none()), (false, true));
    assert_eq!(c2.chips.len(), 1);
    // Their lines run to broker 3, the coordinator, around the cluster's left.
    let links: Vec<(&str, u32, &str, bool)> = g
        .edges
        .iter()
        .filter_map(|e| match e {
            Edge::GroupLink {
                member,
                broker,
                look,
                stale,
                ..
            } => Some((member.as_str(), *broker, *look, *stale)),
            _ => None,
        })
        .collect();
    assert_eq!(
        links,
        [("c1", 3, "stable", false), ("c2", 3, "stable", false)]
    );
    let Some(Edge::GroupLink {
        path: Path::Poly(points),
        ..
    }) = g
        .edges
        .iter()
        .find(|e| matches!(e, Edge::GroupLink { member, .. } if member == "c1"))
    else {
        panic!("c1's line is a polyline");
    };
    let points: Vec<(f64, f64)> = points.iter().map(|p| round1(*p)).collect();
    assert_eq!(
        points,
        [
            (-150.0, 327.5),
            (-150.0, 283.5),
            (-103.4, 283.5),
            (-103.4, 92.5),
            (-183.4, 92.5)
        ]
    );
    let b3 = g.brokers.iter().find(|b| b.id == 3).expect("broker 3");
    assert_eq!(
        b3.labels.last().map(|l| (l.text.as_str(), l.class)),
        Some(("coordinator of my-group", "coord-note"))
    );
    assert!(b3
        .aria
        .ends_with("; group coordinator of my-group: press Enter to crash it, m for its menu"));
    // The markup: the leader's crown and data attributes the browser tests look for.
    let svg = graph_element(&g).to_markup();
    // The node's tooltip is the group's, outside the button, which comes next.
    assert!(svg.contains(
        "<g class=\"consumer cs-stable is-leader\" transform=\"translate(-150.0,350.5)\"><title>"
    ));
    assert!(svg.contains(
        "</title><g class=\"cnode\" data-member=\"c1\" data-group=\"my-group\" data-state=\"stable\" \
         data-group-leader=\"true\" data-generation=\"1\""
    ));
    // The crown's pill, beside the button.
    assert!(
        svg.contains("<g class=\"cnode-marks\" aria-hidden=\"true\"><g class=\"leader-badge\">")
    );
    assert!(svg.contains("<text x=\"9\" y=\"-35.5\" text-anchor=\"middle\">leader · gen 1</text>"));
}

/// Two crashed consumers side by side on a phone: each counts down to its removal in lines
/// short enough not to run into its neighbour's (on a wide screen one line names the setting).
#[test]
fn crashed_consumers_count_down_in_short_lines_on_a_phone() {
    let mut w = default_world_with_group(12_000);
    for m in ["c1", "c2"] {
        w.apply(Command::CrashConsumer {
            group: "my-group".into(),
            member: m.into(),
        })
        .expect("crash");
    }
    w.advance_to(13_000);
    let wide = graph_of(&w, false);
    assert_eq!(wide.consumers[0].wait_lines[1], "session.timeout.ms");
    let phone = graph_of(&w, true);
    let (a, b) = (&phone.consumers[0], &phone.consumers[1]);
    let gap = (b.at.x - a.at.x).abs();
    for c in [a, b] {
        assert_eq!(c.wait_lines.len(), 2, "{:?}", c.wait_lines);
        assert_eq!(c.wait_lines[0], "removed");
        assert!(c.wait_lines[1].starts_with("in "), "{:?}", c.wait_lines);
        // 12 px text is at most 7.5 px a character: each line stays within its half of the gap.
        for line in &c.wait_lines {
            assert!(
                line.chars().count() as f64 * 7.5 < gap,
                "{line:?} in a gap of {gap}"
            );
        }
    }
}

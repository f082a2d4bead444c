//! The cluster graph as plain data: ZooKeeper in the middle, the brokers around it, the
//! links between them and the messages travelling on those links, computed from the world's
//! [`ClusterState`] with every shape's place, class, text and accessible name. The page
//! renders this model with Yew; [`crate::view::svg`] writes it as an SVG string.
//!
//! Under each broker, a badge per replica it holds (`T-0`), styled by the replica's role:
//! leader (with its leader epoch), in-sync follower, out-of-sync follower, offline, frozen.
//! While the producer writes, it is drawn too, with its requests flying to the leaders.
//!
//! A plain click (or Enter/Space) on a broker crashes it, or starts it when it is down;
//! shift-click or its label opens the broker's panel; its "⋯" (or a long press, the menu
//! key, Shift+F10 or `m` on the focused node) opens its menu beside it.
//!
//! Consumers sit in a row below the cluster, each with its state, its partitions and, for the
//! group's leader, a crown with the generation. A line runs from each live consumer to the
//! broker it takes for its group coordinator: up from the consumer to a shared lane under the
//! cluster, along it, and up a free gutter beside the brokers, so it never crosses ZooKeeper
//! (consumers of this protocol never talk to ZooKeeper). A click crashes a consumer, or
//! starts a crashed or departed one again (it rejoins); shift-click makes it leave the group.

pub mod badges;
pub mod broker;
pub mod consumer;
mod parts;

#[cfg(test)]
mod graph_test;

pub use badges::{Badge, BadgeText};
pub use broker::{BrokerNode, Crown, Label, StatusIcon};
pub use consumer::{AddPlace, Chip, ConsumerIcon, ConsumerNode, Pill};
pub use parts::{FlightDot, ProducerBox, ZooKeeperBox};

use super::flights::Flight;
use super::format::{click_starts, ConsumerRef, PartitionRef};
use super::geometry::{consumer_geo, Path, Pt};
use super::layout::{Layout, ROW_MAX};
use crate::i18n::{msg_graph as m, Tr};
use crate::sim::{BrokerId, ClusterState, Command, Endpoint};

/// What the graph needs to draw one frame.
#[derive(Clone)]
pub struct GraphView<'a> {
    /// The cluster now.
    pub state: &'a ClusterState,
    /// `zookeeper.session.timeout.ms` in force, for the countdown ring.
    pub session_timeout_ms: u64,
    /// Messages in the air.
    pub flights: Vec<&'a Flight>,
    /// The animation clock now, for the flights.
    pub anim_now: f64,
    /// Clock speed, to decide whether flights carry labels.
    pub speed: f64,
    /// The broker whose panel is open.
    pub selected: Option<BrokerId>,
    /// Whether the graph is drawn for a narrow screen.
    pub compact: bool,
    /// The graph's box on the page (CSS px, width and height) where the page sizes the graph
    /// to its box (an embed): the layout that fits it at the larger scale is drawn.
    pub area: Option<(f64, f64)>,
    /// Whether a link is cut (the world answers).
    pub cut_links: Vec<(Endpoint, Endpoint)>,
    /// Every partition, in topic and partition order.
    pub partitions: &'a [PartitionRef],
    /// How many topics there are.
    pub topic_count: usize,
    /// Every consumer, in the order the page saw them join.
    pub consumers: Vec<ConsumerRef<'a>>,
    /// The groups that can take another consumer (an "add" place is drawn for each).
    pub add_to: Vec<String>,
    /// The page's words.
    pub tr: Tr,
}

/// What pressing a shape does. The page only carries it out: a command to the world, or
/// which broker's panel is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Press {
    /// A broker's node: a click, Enter or Space sends `command`; shift-click opens broker
    /// `panel`'s panel instead.
    Broker {
        /// Crash it, or start it when it is down.
        command: Command,
        /// The broker whose panel shift-click opens.
        panel: BrokerId,
    },
    /// A broker's label or its "⋯": a click opens `click`'s panel (`None` closes it); Enter
    /// or Space opens `key`'s, when there is a `key`.
    Select {
        /// The panel a click opens.
        click: Option<BrokerId>,
        /// The panel Enter or Space opens.
        key: Option<BrokerId>,
    },
    /// A consumer: a press sends `command`; with shift held, `shift` when there is one.
    Consumer {
        /// Crash it, or start it again.
        command: Command,
        /// LeaveGroup, while it runs.
        shift: Option<Command>,
    },
    /// A broker's "⋯": a click, Enter or Space opens broker `broker`'s menu beside its node.
    Menu {
        /// The broker.
        broker: BrokerId,
    },
    /// An "add a consumer" place: the page adds its next consumer to `group`.
    Add {
        /// The group.
        group: String,
    },
}

/// One link under the nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum Edge {
    /// ZooKeeper to a broker, styled by the broker's connection.
    Spoke {
        /// The broker.
        broker: BrokerId,
        /// Its ZooKeeper connection's state, e.g. `connected`.
        connection: &'static str,
        /// Whether the link is cut.
        cut: bool,
        /// The line.
        path: Path,
    },
    /// The "cut" mark on a cut link.
    CutMark {
        /// Its centre.
        at: Pt,
    },
    /// The acting controller's channel to a live broker, or a cut link between two brokers.
    Channel {
        /// Whether it is a cut link.
        cut: bool,
        /// The curve.
        path: Path,
    },
    /// A live consumer's line to the broker it takes for its group coordinator.
    GroupLink {
        /// The consumer.
        member: String,
        /// The broker.
        broker: BrokerId,
        /// The consumer's look, e.g. `stable`.
        look: &'static str,
        /// Whether that broker no longer coordinates the group (drawn dashed).
        stale: bool,
        /// The way.
        path: Path,
    },
}

/// One frame of the graph, as shapes.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// The SVG's `viewBox`.
    pub view_box: String,
    /// Whether it is drawn for a narrow screen.
    pub compact: bool,
    /// Whether consumers (or "add" places) are drawn.
    pub with_consumers: bool,
    /// Whether it takes the dense layout (a narrow screen, four brokers or more).
    pub dense: bool,
    /// The graph's accessible name.
    pub aria: String,
    /// The word on a cut link's mark, `cut`.
    pub cut_text: String,
    /// The links, drawn first.
    pub edges: Vec<Edge>,
    /// ZooKeeper's box.
    pub zookeeper: ZooKeeperBox,
    /// The producer, while it writes or its requests are in the air.
    pub producer: Option<ProducerBox>,
    /// The consumers.
    pub consumers: Vec<ConsumerNode>,
    /// The "add a consumer" places.
    pub adds: Vec<AddPlace>,
    /// The messages in the air.
    pub flights: Vec<FlightDot>,
    /// The brokers, drawn last (on top).
    pub brokers: Vec<BrokerNode>,
}

/// Where the graph of `v` puts everything.
pub fn layout(v: &GraphView<'_>) -> Layout {
    let (_, rows) = badges::all_badges(v);
    layout_with(v, rows)
}

/// Where the graph of `v` puts everything, with `badge_rows` rows of replica badges under
/// every broker.
fn layout_with(v: &GraphView<'_>, badge_rows: usize) -> Layout {
    let ids: Vec<BrokerId> = v.state.brokers.keys().copied().collect();
    let slots: Vec<u32> = v.consumers.iter().map(|c| c.index).collect();
    let with = |row: bool| {
        Layout::new(
            &ids,
            v.compact,
            row,
            badges::badges_height(badge_rows, v.compact),
            !v.partitions.is_empty(),
            &slots,
            v.add_to.len(),
        )
    };
    let ring = with(false);
    match v.area {
        Some((w, h)) if !v.compact && ids.len() <= ROW_MAX && w > 0.0 && h > 0.0 => {
            // The scale at which a layout's view fits the box ("meet").
            let fit = |l: &Layout| (w / l.view.2).min(h / l.view.3);
            let row = with(true);
            if fit(&row) > fit(&ring) {
                row
            } else {
                ring
            }
        }
        _ => ring,
    }
}

/// The graph of one frame.
pub fn graph(v: &GraphView<'_>) -> Graph {
    let ids: Vec<BrokerId> = v.state.brokers.keys().copied().collect();
    let (mut all_badges, rows) = badges::all_badges(v);
    let layout = layout_with(v, rows);
    let now = v.state.time_ms;
    let view = |id: BrokerId| v.state.brokers.get(&id);

    // Links: ZooKeeper to every broker, and the controller's channels to the others.
    let mut edges: Vec<Edge> = Vec::new();
    for (id, p) in &layout.nodes {
        let Some(b) = view(*id) else { continue };
        let path = layout.spoke(*p);
        let cut = b.zk_link_cut;
        // Nearer ZooKeeper than the broker, clear of the broker's labels.
        let mark = cut.then(|| path.at(0.3));
        edges.push(Edge::Spoke {
            broker: *id,
            connection: b.zk_connection.name(),
            cut,
            path,
        });
        if let Some(at) = mark {
            edges.push(Edge::CutMark { at });
        }
    }
    // The controller's channels to the live brokers, while it acts (not while it lies dead
    // and /controller still names it).
    let acting = v
        .state
        .controller
        .filter(|c| view(*c).is_some_and(|b| b.acts_as_controller));
    if let Some(c) = acting {
        if let Some(cp) = layout.centre(Endpoint::Broker(c)) {
            for (id, p) in &layout.nodes {
                let alive = view(*id).is_some_and(|b| !click_starts(b));
                if *id == c || !alive {
                    continue;
                }
                edges.push(Edge::Channel {
                    cut: false,
                    path: layout.chord(cp, *p),
                });
            }
        }
    }
    for (a, b) in &v.cut_links {
        if let (Endpoint::Broker(_), Endpoint::Broker(_)) = (a, b) {
            if let (Some(pa), Some(pb)) = (layout.centre(*a), layout.centre(*b)) {
                let path = layout.chord(pa, pb);
                let at = path.at(0.5);
                edges.push(Edge::Channel { cut: true, path });
                edges.push(Edge::CutMark { at });
            }
        }
    }

    // Each live consumer's line to the broker it takes for its coordinator: solid once it is
    // stable with the broker that holds its group, dashed while it (re)joins or talks to a
    // broker that no longer coordinates.
    for (c, at) in v.consumers.iter().zip(&layout.slots) {
        let Some(b) = c.view.coordinator.filter(|_| c.alive()) else {
            continue;
        };
        let Some(path) = layout.consumer_route(*at, b) else {
            continue;
        };
        edges.push(Edge::GroupLink {
            member: c.name.to_string(),
            broker: b,
            look: c.look(),
            stale: c.group_view.coordinator != Some(b),
            path,
        });
    }
    let g = consumer_geo(v.compact);
    let consumers = v
        .consumers
        .iter()
        .zip(&layout.slots)
        .map(|(c, at)| consumer::consumer_node(v, c, *at, &g))
        .collect();
    let adds = v
        .add_to
        .iter()
        .zip(layout.slots.iter().skip(v.consumers.len()))
        .map(|(group, at)| consumer::add_place(group, v.add_to.len() > 1, *at, &v.tr))
        .collect();

    let brokers = layout
        .nodes
        .iter()
        .filter_map(|(id, p)| {
            let badges = all_badges
                .iter_mut()
                .find(|(b, _)| b == id)
                .map(|(_, list)| std::mem::take(list))
                .unwrap_or_default();
            view(*id).map(|b| broker::broker_node(v, layout.extra, (*id, b), *p, badges, now))
        })
        .collect();

    let tr = &v.tr;
    let mut aria = tr.f(
        if ids.len() == 1 {
            m::ARIA_GRAPH_ONE
        } else {
            m::ARIA_GRAPH_MANY
        },
        &[("brokers", &ids.len())],
    );
    if !v.consumers.is_empty() {
        aria.push_str(&tr.f(
            if v.consumers.len() == 1 {
                m::ARIA_GRAPH_CONSUMER
            } else {
                m::ARIA_GRAPH_CONSUMERS
            },
            &[("consumers", &v.consumers.len())],
        ));
    }
    Graph {
        view_box: layout.view_box.clone(),
        compact: v.compact,
        with_consumers: !layout.slots.is_empty(),
        dense: super::layout::dense(v.compact, ids.len()),
        aria,
        cut_text: tr.t(m::CUT_MARK),
        edges,
        zookeeper: parts::zookeeper(v.state, layout.zk_w, tr),
        producer: parts::producer(v, &layout),
        consumers,
        adds,
        flights: parts::flights(v, &layout),
        brokers,
    }
}

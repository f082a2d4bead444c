//! The default page's first frame, natively: free play's world at t = 0, seen as the page
//! sees it before the clock moves, drawn as the graph's model and as a standalone SVG.

use super::format::{consumer_list, is_internal, partition_list};
use super::graph::{graph, layout, Graph, GraphView};
use super::layout::Layout;
use super::setup::default_setup;
use super::svg::svg_string;
use crate::i18n::Tr;
use crate::sim::{Endpoint, World};

/// The links between two brokers that the world has cut, each pair once, in broker order.
pub fn cut_broker_links(world: &World) -> Vec<(Endpoint, Endpoint)> {
    let ids = world.broker_ids();
    let mut cut = Vec::new();
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            if world.is_cut(Endpoint::Broker(*a), Endpoint::Broker(*b)) {
                cut.push((Endpoint::Broker(*a), Endpoint::Broker(*b)));
            }
        }
    }
    cut
}

/// Calls `f` with the page's view of `world` now, with nothing in the air, no panel open,
/// the clock at normal speed and an "add" place for every group (`compact`: the portrait
/// layout of a narrow window).
pub fn with_view<R>(world: &World, compact: bool, f: impl FnOnce(&GraphView<'_>) -> R) -> R {
    with_view_in(world, compact, &Tr::en(), f)
}

/// As [`with_view`], in the words of `tr`.
pub fn with_view_in<R>(
    world: &World,
    compact: bool,
    tr: &Tr,
    f: impl FnOnce(&GraphView<'_>) -> R,
) -> R {
    let state = world.state();
    let topics = world.topics();
    // The graph draws the user's topics only.
    let partitions: Vec<_> = partition_list(topics)
        .into_iter()
        .filter(|r| !is_internal(&r.topic))
        .collect();
    let view = GraphView {
        state: &state,
        session_timeout_ms: world.settings().zookeeper_session_timeout_ms,
        flights: Vec::new(),
        anim_now: 0.0,
        speed: 1.0,
        selected: None,
        compact,
        area: None,
        cut_links: cut_broker_links(world),
        partitions: &partitions,
        topic_count: topics.iter().filter(|t| !is_internal(&t.name)).count(),
        consumers: consumer_list(&state),
        add_to: state.groups.keys().cloned().collect(),
        tr: tr.clone(),
    };
    f(&view)
}

/// The graph of `world` now, as [`with_view`] sees it.
pub fn graph_of(world: &World, compact: bool) -> Graph {
    with_view(world, compact, graph)
}

/// The graph of `world` now, as [`with_view`] sees it, in the words of `tr`.
pub fn graph_in(world: &World, compact: bool, tr: &Tr) -> Graph {
    with_view_in(world, compact, tr, graph)
}

/// Where the graph of `world` now puts everything, as [`with_view`] sees it.
pub fn layout_of(world: &World, compact: bool) -> Layout {
    with_view(world, compact, layout)
}

/// The default page's world (free play, no parameters) at t = 0.
pub fn default_world() -> World {
    World::new(&default_setup().0)
}

/// The default page's world with consumers c1 and c2 joined to my-group at 2 s, run to
/// `until_ms` (tests of what the page shows of a group).
#[cfg(test)]
pub fn default_world_with_group(until_ms: u64) -> World {
    let mut w = default_world();
    w.advance_to(2_000);
    for m in ["c1", "c2"] {
        w.apply(crate::sim::Command::Join {
            group: "my-group".into(),
            member: m.into(),
        })
        .expect("join");
    }
    w.advance_to(until_ms);
    w
}

/// The graph the default page draws first, at t = 0.
pub fn first_frame(compact: bool) -> Graph {
    graph_of(&default_world(), compact)
}

/// The graph the default page draws first, as a standalone SVG document.
pub fn first_frame_svg(compact: bool) -> String {
    svg_string(&first_frame(compact))
}

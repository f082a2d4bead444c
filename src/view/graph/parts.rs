//! The graph's other shapes: ZooKeeper's box with its znodes, the producer with its links
//! to the leaders it writes to, and the messages in the air.

use super::GraphView;
use crate::i18n::{msg_graph as g, Tr};
use crate::sim::{BrokerId, ClusterState, Endpoint};
use crate::view::flights::{flight_label, Flight};
use crate::view::geometry::{
    overlaps, producer_link, producer_size, text_units, Path, Pt, Rect, ZK_H,
};
use crate::view::layout::Layout;

/// At most this many flights carry their label.
const LABELLED_FLIGHTS: usize = 6;
/// Flights carry labels only when the clock is this slow.
const LABELLED_SPEED: f64 = 2.0;

/// ZooKeeper's box, centred on the origin, with the znodes it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ZooKeeperBox {
    /// Its left edge.
    pub x: f64,
    /// Its top edge.
    pub y: f64,
    /// Its width.
    pub w: f64,
    /// Its height.
    pub h: f64,
    /// `/controller = 2`, or `/controller: (none)`.
    pub controller: String,
    /// Whether `/controller` exists.
    pub controller_set: bool,
    /// `/controller_epoch`.
    pub controller_epoch: u64,
    /// `/brokers/ids: [1,2,3]`: the registered brokers.
    pub ids: String,
    /// Its accessible name.
    pub aria: String,
}

/// ZooKeeper's box, `zk_w` wide.
pub fn zookeeper(state: &ClusterState, zk_w: f64, tr: &Tr) -> ZooKeeperBox {
    let controller = match state.controller {
        Some(c) => format!("/controller = {c}"),
        None => tr.t(g::ZNODE_CONTROLLER_NONE),
    };
    let registered: Vec<String> = state
        .brokers
        .iter()
        .filter(|(_, b)| b.registered)
        .map(|(id, _)| id.to_string())
        .collect();
    let ids = if registered.is_empty() {
        "/brokers/ids: []".to_string()
    } else {
        format!("/brokers/ids: [{}]", registered.join(","))
    };
    ZooKeeperBox {
        x: -zk_w / 2.0,
        y: -ZK_H / 2.0,
        w: zk_w,
        h: ZK_H,
        aria: format!(
            "ZooKeeper: {controller}, /controller_epoch = {}, {ids}",
            state.controller_epoch
        ),
        controller,
        controller_set: state.controller.is_some(),
        controller_epoch: state.controller_epoch,
        ids,
    }
}

/// The producer's box, with dashed links to the leaders it writes to.
#[derive(Debug, Clone, PartialEq)]
pub struct ProducerBox {
    /// Its centre.
    pub at: Pt,
    /// Its width.
    pub w: f64,
    /// Its height.
    pub h: f64,
    /// Its links to the leaders of the partitions it streams to.
    pub links: Vec<Path>,
    /// Its title, `producer`.
    pub title: String,
    /// The line under its title: `idle`, or `20 records/s`.
    pub sub: String,
    /// Its accessible name.
    pub aria: String,
}

/// The producer, while it writes (or its requests are still in the air).
pub fn producer(v: &GraphView<'_>, layout: &Layout) -> Option<ProducerBox> {
    let streams: Vec<(&str, u64, i64)> = v
        .partitions
        .iter()
        .filter_map(|r| {
            let p = v.state.partitions.get(&r.key)?;
            p.stream
                .as_ref()
                .map(|s| (r.key.as_str(), s.rate_per_s, p.leader))
        })
        .collect();
    let producing = !streams.is_empty()
        || v.flights
            .iter()
            .any(|f| f.from == Endpoint::Client || f.to == Endpoint::Client);
    let at = layout.producer.filter(|_| producing)?;
    Some(producer_box(v, layout, at, &streams))
}

/// The producer's box at `at`, writing `streams` (partition, records per second, leader).
// Not inlined: the default page draws no producer, and the build leaves what its first view does
// not run to the module's second part.
#[inline(never)]
fn producer_box(
    v: &GraphView<'_>,
    layout: &Layout,
    at: Pt,
    streams: &[(&str, u64, i64)],
) -> ProducerBox {
    let (w, h) = producer_size(v.compact);
    let rate: u64 = streams.iter().map(|(_, r, _)| r).sum();
    let mut leaders: Vec<BrokerId> = streams
        .iter()
        .filter_map(|(_, _, l)| BrokerId::try_from(*l).ok())
        .collect();
    crate::collections::sort(&mut leaders);
    leaders.dedup();
    let links = leaders
        .iter()
        .filter_map(|l| layout.centre(Endpoint::Broker(*l)))
        .map(|b| producer_link(at, b, v.compact))
        .collect();
    let tr = &v.tr;
    let sub = if streams.is_empty() {
        tr.t(g::PRODUCER_IDLE)
    } else {
        tr.f(g::PRODUCER_RATE, &[("rate", &rate)])
    };
    let aria = match streams {
        [] => tr.t(g::ARIA_PRODUCER_IDLE),
        _ => tr.f(
            g::ARIA_PRODUCER_WRITING,
            &[(
                "streams",
                &streams
                    .iter()
                    .map(|(k, r, _)| {
                        tr.f(g::ARIA_PRODUCER_STREAM, &[("partition", k), ("rate", r)])
                    })
                    .collect::<Vec<_>>()
                    .join(&tr.t(g::LIST_SEP)),
            )],
        ),
    };
    ProducerBox {
        at,
        w,
        h,
        links,
        title: tr.t(g::CAPTION_PRODUCER),
        sub,
        aria,
    }
}

/// A message in the air: a dot on its way, at the animation clock's time.
#[derive(Debug, Clone, PartialEq)]
pub struct FlightDot {
    /// The message's running number in the world.
    pub id: u64,
    /// Its colour class, e.g. `request`.
    pub class: &'static str,
    /// Whether the world dropped it.
    pub dropped: bool,
    /// Whether a consumer sends or receives it.
    pub consumer: bool,
    /// Where it is.
    pub at: Pt,
    /// Its opacity: it fades out as it lands (or, dropped, halfway).
    pub opacity: f64,
    /// The dot's radius.
    pub r: &'static str,
    /// Its name, when it carries one.
    pub label: Option<String>,
    /// Whether the name is drawn to the dot's left (its right would cover the graph's words).
    pub label_left: bool,
}

/// The part of a message's way (as a share of it) where its name is drawn.
const LABEL_FROM: f64 = 0.25;
const LABEL_TO: f64 = 0.75;

/// The messages in the air. At slow speeds the oldest message in the air on each link,
/// either way (heartbeats aside), carries its name: a request before its reply.
pub fn flights(v: &GraphView<'_>, layout: &Layout) -> Vec<FlightDot> {
    let mut labelled: Vec<u64> = Vec::new();
    if v.speed <= LABELLED_SPEED {
        let mut links: Vec<(Endpoint, Endpoint)> = Vec::new();
        for f in v.flights.iter() {
            if labelled.len() >= LABELLED_FLIGHTS {
                break;
            }
            let in_air = f.progress(v.anim_now) < 1.0 && !f.dropped;
            let link = (f.from.min(f.to), f.from.max(f.to));
            // Heartbeats, fetches and produce requests come steadily: their names would
            // hide the election's.
            let steady = matches!(f.class, "heartbeat" | "fetch" | "produce");
            if steady || !in_air || links.contains(&link) {
                continue;
            }
            links.push(link);
            labelled.push(f.id);
        }
    }
    // The graph's words, once a frame, when some message may carry its name.
    let words = if labelled.is_empty() {
        Vec::new()
    } else {
        layout.words()
    };
    v.flights
        .iter()
        .filter_map(|f| {
            let label = labelled.contains(&f.id).then_some(words.as_slice());
            flight(layout, f, v.anim_now, label, &v.tr)
        })
        .collect()
}

/// One message's dot; `words` (the graph's words, [`Layout::words`]) when it carries its name.
fn flight(
    layout: &Layout,
    f: &Flight,
    anim_now: f64,
    words: Option<&[Rect]>,
    tr: &Tr,
) -> Option<FlightDot> {
    let path = layout.path(f.from, f.to)?;
    let t = f.progress(anim_now);
    if t >= 1.0 || anim_now < f.start_at {
        return None;
    }
    // A dropped message fades out and vanishes halfway.
    let opacity = if f.dropped {
        if t >= 0.5 {
            return None;
        }
        1.0 - ((t - 0.2) / 0.3).clamp(0.0, 1.0)
    } else {
        1.0 - ((t - 0.9) / 0.1).clamp(0.0, 1.0)
    };
    // The name shows only while the dot is well away from both ends: near a node it would
    // cover the node's own words (its number, its state, its countdown).
    let away_from_nodes = (LABEL_FROM..=LABEL_TO).contains(&t);
    let at = path.at(t);
    // The name and whether it goes to the dot's left.
    let placed = words.filter(|_| away_from_nodes).and_then(|words| {
        let name = flight_label(&f.words, tr);
        let mut text: String = name.chars().take(30).collect();
        if name.chars().count() > 30 {
            text.push('…');
        }
        // Beside the dot, to its right or else its left, only where it covers none of the
        // graph's own words (the style sheet's size, a Latin character about 0.62 em).
        let size = if layout.compact { 15.0 } else { 11.5 };
        let w = text_units(&text) * size * 0.62;
        let (top, bottom) = (at.y - 8.0 - size, at.y - 8.0 + 0.3 * size);
        let right = (at.x + 9.0, top, at.x + 9.0 + w, bottom);
        let left = (at.x - 9.0 - w, top, at.x - 9.0, bottom);
        let clear = |r: Rect| !words.iter().any(|o| overlaps(*o, r));
        [(right, false), (left, true)]
            .into_iter()
            .find(|(r, _)| clear(*r))
            .map(|(_, on_left)| (text, on_left))
    });
    let label_left = placed.as_ref().is_some_and(|(_, l)| *l);
    let label = placed.map(|(text, _)| text);
    let consumer = matches!(f.from, Endpoint::Consumer(_)) || matches!(f.to, Endpoint::Consumer(_));
    Some(FlightDot {
        id: f.id,
        class: f.class,
        dropped: f.dropped,
        consumer,
        at,
        opacity,
        r: match (f.class, consumer) {
            ("fetch", _) | ("heartbeat", true) => "3.5",
            ("produce", _) => "5",
            _ => "6",
        },
        label,
        label_left,
    })
}

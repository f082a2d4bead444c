//! The cluster graph: ZooKeeper in the middle, the brokers around it, the links between
//! them and the messages travelling on those links, as one SVG that scales with its box.
//!
//! Under each broker, a badge per replica it holds (`T-0`), styled by the replica's role:
//! leader (with its leader epoch), in-sync follower, out-of-sync follower, offline, frozen.
//! While the producer writes, it is drawn too, with its requests flying to the leaders.
//!
//! A plain click (or Enter/Space) on a broker crashes it, or starts it when it is down;
//! shift-click, its label or its "⋯" opens the broker's panel for the other actions.
//!
//! Consumers sit in a row below the cluster, each with its state, its partitions and, for the
//! group's leader, a crown with the generation. A line runs from each live consumer to the
//! broker it takes for its group coordinator: up from the consumer to a shared lane under the
//! cluster, along it, and up a free gutter beside the brokers, so it never crosses ZooKeeper
//! (consumers of this protocol never talk to ZooKeeper). A click crashes a consumer, or
//! starts a crashed or departed one again (it rejoins); shift-click makes it leave the group.

use super::flights::Flight;
use super::format::{
    aria_label, click_starts, consumer_words, lag, replica_words, replicas_of, short_member_id,
    status_lines, ConsumerRef, PartitionRef,
};
use crate::sim::{
    BrokerId, BrokerState, BrokerView, ClusterState, Command, ConsumerState, ControllerRole,
    Endpoint, ReplicaState,
};
use std::f64::consts::PI;
use yew::prelude::*;

/// Radius of a broker's circle.
const NODE_R: f64 = 38.0;
/// ZooKeeper's box: its height, and its width at least (it grows to fit `/brokers/ids`).
const ZK_MIN_W: f64 = 224.0;
const ZK_H: f64 = 112.0;
/// Room a broker needs around its centre: labels below, crown and badge above.
const LABEL_HALF_W: f64 = 106.0;
const ABOVE: f64 = NODE_R + 52.0;
/// Line height of the labels under a node (the compact layout draws them bigger).
fn line_h(compact: bool) -> f64 {
    if compact {
        21.0
    } else {
        17.0
    }
}
/// Room under a node's centre for four lines of labels.
fn below(compact: bool) -> f64 {
    NODE_R + 24.0 + 3.0 * line_h(compact) + 8.0
}
/// Replica badges: where the first row starts under a node's centre, the widest a row may be.
const BADGE_TOP: f64 = NODE_R + 17.0;
const BADGE_ROW_W: f64 = 2.0 * LABEL_HALF_W - 8.0;
const BADGE_GAP: f64 = 5.0;
/// A badge's height, and the width of one character of its text (an estimate for layout).
fn badge_h(compact: bool) -> f64 {
    if compact {
        27.0
    } else {
        20.0
    }
}
fn badge_char_w(compact: bool) -> f64 {
    if compact {
        10.6
    } else {
        7.3
    }
}
/// The producer's box.
fn producer_size(compact: bool) -> (f64, f64) {
    if compact {
        (104.0, 54.0)
    } else {
        (124.0, 46.0)
    }
}
/// A consumer node's geometry: its box, its slot in the row, the leader's badge above it,
/// the state line and up to [`CHIP_ROWS`] rows of partition chips below it.
#[derive(Debug, Clone, Copy)]
struct ConsumerGeo {
    w: f64,
    h: f64,
    slot: f64,
    pill_h: f64,
    above: f64,
    state_dy: f64,
    chips_top: f64,
    chip_h: f64,
    chip_cw: f64,
    chip_pad: f64,
    below: f64,
}

/// Rows of partition chips a consumer shows at most.
const CHIP_ROWS: usize = 2;
/// Room between two rows of consumers, where a later row's lane runs.
const ROW_GAP: f64 = 22.0;
/// How far beyond the rows' ends a later row's lane rises to the first.
const RISER_GAP: f64 = 12.0;
/// Room between two partition chips.
const CHIP_GAP: f64 = 4.0;

fn consumer_geo(compact: bool) -> ConsumerGeo {
    let (w, h, slot, pill_h, state_dy, chip_h, chip_cw, chip_pad) = if compact {
        (124.0, 56.0, 150.0, 26.0, 22.0, 25.0, 9.6, 12.0)
    } else {
        (108.0, 46.0, 150.0, 22.0, 18.0, 19.0, 7.2, 10.0)
    };
    let chips_top = h / 2.0 + state_dy + 8.0;
    ConsumerGeo {
        w,
        h,
        slot,
        pill_h,
        above: h / 2.0 + pill_h + 10.0,
        state_dy,
        chips_top,
        chip_h,
        chip_cw,
        chip_pad,
        below: chips_top + CHIP_ROWS as f64 * (chip_h + CHIP_GAP),
    }
}

/// At most this many flights carry their label, and only when the clock is this slow.
const LABELLED_FLIGHTS: usize = 6;
const LABELLED_SPEED: f64 = 2.0;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Pt {
    x: f64,
    y: f64,
}

impl Pt {
    fn lerp(self, o: Pt, t: f64) -> Pt {
        Pt {
            x: self.x + (o.x - self.x) * t,
            y: self.y + (o.y - self.y) * t,
        }
    }
    fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

/// Where the brokers sit: on an ellipse around ZooKeeper, the first at the top, with room
/// enough between neighbours for their labels.
struct Layout {
    nodes: Vec<(BrokerId, Pt)>,
    view_box: String,
    zk_w: f64,
    /// Height of the replica badges under each node (the labels sit below them).
    extra: f64,
    /// Where the producer is drawn, when the world has topics.
    producer: Option<Pt>,
    /// The consumer rows' places (consumers, then the "add" places), by centre.
    slots: Vec<Pt>,
    /// Each consumer's endpoint number and centre.
    consumers: Vec<(u32, Pt)>,
    /// The lane under the cluster that the consumers' lines follow.
    bus_y: f64,
    /// Each place's own lane: the first row's is `bus_y`; a later row's runs above it.
    lanes: Vec<f64>,
    /// Where the consumer rows start and end, across.
    rows_x: (f64, f64),
    /// The middle of the consumers, across.
    consumers_x: f64,
    /// What a consumer's line must go around: ZooKeeper, each broker with its labels, the
    /// producer.
    obstacles: Vec<Rect>,
    compact: bool,
}

/// An axis-aligned box: x0, y0, x1, y1.
type Rect = (f64, f64, f64, f64);

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

impl Layout {
    /// Wide screens get a landscape ellipse; narrow ones (`compact`) a portrait one, so the
    /// labels stay legible when the graph is scaled down to a phone's width. `extra` is the
    /// height of the replica badges under every node: the nodes above ZooKeeper move up by
    /// as much. `with_producer` keeps a place for the producer.
    fn new(
        ids: &[BrokerId],
        compact: bool,
        extra: f64,
        with_producer: bool,
        slots: &[u32],
        adds: usize,
    ) -> Layout {
        let count = ids.len().max(1);
        let n = count as f64;
        // The longest znode line is "/brokers/ids: [1,2,…,n]" when every broker is registered.
        let chars = 15.0 + 2.0 * n;
        let zk_w = (chars * if compact { 8.9 } else { 8.2 } + 34.0).max(ZK_MIN_W);
        let on_ellipse = |rx: f64, ry: f64, start: f64| -> Vec<Pt> {
            (0..count)
                .map(|k| {
                    let a = start + k as f64 * 2.0 * PI / n;
                    Pt {
                        x: rx * a.cos(),
                        y: ry * a.sin(),
                    }
                })
                .collect()
        };
        let top = -PI / 2.0;
        let points = if compact {
            match count {
                1 | 2 => on_ellipse(0.0, 210.0, top),
                // A phone's default: one broker above ZooKeeper, two below, close enough to read.
                3 => vec![
                    Pt { x: 0.0, y: -245.0 },
                    Pt { x: 112.0, y: 180.0 },
                    Pt {
                        x: -112.0,
                        y: 180.0,
                    },
                ],
                // Tall and narrow; even counts turn half a step so nobody sits beside ZooKeeper.
                _ => {
                    let rx = zk_w / 2.0 + 60.0 + (n - 4.0) * 12.0;
                    let ry = 320.0 + (n - 4.0) * 14.0;
                    let start = if count % 2 == 0 { top + PI / n } else { top };
                    on_ellipse(rx, ry, start)
                }
            }
        } else {
            let spacing = 200.0;
            let r = if count < 2 {
                215.0
            } else {
                (spacing / (2.0 * (PI / n).sin())).max(215.0)
            };
            on_ellipse(r * 1.2, r * 0.86, top)
        };
        // The badges lengthen every node downwards: the nodes above ZooKeeper make room.
        let points = points.into_iter().map(|p| Pt {
            x: p.x,
            y: if p.y < -1.0 { p.y - extra } else { p.y },
        });
        let nodes: Vec<(BrokerId, Pt)> = ids.iter().copied().zip(points).collect();
        let (mut x0, mut y0, mut x1, mut y1) = (-zk_w / 2.0, -ZK_H / 2.0, zk_w / 2.0, ZK_H / 2.0);
        let mut taken: Vec<Rect> = vec![(x0 - 10.0, y0 - 10.0, x1 + 10.0, y1 + 10.0)];
        for (_, p) in &nodes {
            let r = (
                p.x - LABEL_HALF_W,
                p.y - ABOVE,
                p.x + LABEL_HALF_W,
                p.y + below(compact) + extra,
            );
            x0 = x0.min(r.0);
            x1 = x1.max(r.2);
            y0 = y0.min(r.1);
            y1 = y1.max(r.3);
            taken.push(r);
        }
        // The producer: beside ZooKeeper if there is room, else in a corner, else at the left.
        let producer = with_producer.then(|| {
            let (w, h) = producer_size(compact);
            let beside = -zk_w / 2.0 - 18.0 - w / 2.0;
            let mut candidates: Vec<Pt> = [0.0, -0.6, 0.6, -1.2, 1.2, -1.8, 1.8]
                .iter()
                .map(|k| Pt {
                    x: beside,
                    y: k * h,
                })
                .collect();
            candidates.push(Pt {
                x: x0 + w / 2.0,
                y: y0 + h / 2.0,
            });
            candidates.push(Pt {
                x: x0 + w / 2.0,
                y: y1 - h / 2.0,
            });
            let free = |c: &Pt| {
                let r = (
                    c.x - w / 2.0 - 4.0,
                    c.y - h / 2.0 - 4.0,
                    c.x + w / 2.0 + 4.0,
                    c.y + h / 2.0 + 4.0,
                );
                !taken.iter().any(|t| overlaps(*t, r))
            };
            let at = candidates.into_iter().find(free).unwrap_or(Pt {
                x: x0 - 12.0 - w / 2.0,
                y: 0.0,
            });
            x0 = x0.min(at.x - w / 2.0);
            x1 = x1.max(at.x + w / 2.0);
            y0 = y0.min(at.y - h / 2.0);
            y1 = y1.max(at.y + h / 2.0);
            taken.push((
                at.x - w / 2.0,
                at.y - h / 2.0,
                at.x + w / 2.0,
                at.y + h / 2.0,
            ));
            at
        });
        // The consumers: rows under everything else, each centred. The first row's lines rise
        // straight to the lane under the cluster; a later row has a lane of its own above it
        // that joins the first beyond the rows' end, so no line crosses a consumer. The "add"
        // places come last; a row of nothing else is only as tall as they are.
        let g = consumer_geo(compact);
        let bus_y = y1 + 16.0;
        let mut centres = Vec::new();
        let mut lanes = Vec::new();
        let total = slots.len() + adds;
        if total > 0 {
            let fit = (((x1 - x0) + 60.0) / g.slot).floor() as usize;
            let per_row = fit.max(if compact { 3 } else { 4 });
            let full_h = g.above + g.below + ROW_GAP;
            let mut y = bus_y + 12.0 + g.above;
            for k in 0..total {
                let (r, i) = (k / per_row, k % per_row);
                if i == 0 && r > 0 {
                    let only_adds = k >= slots.len();
                    y += if only_adds {
                        g.below + ROW_GAP + g.h / 2.0
                    } else {
                        full_h
                    };
                }
                let in_row = per_row.min(total - r * per_row);
                let c = Pt {
                    x: (i as f64 - (in_row as f64 - 1.0) / 2.0) * g.slot,
                    y,
                };
                let bottom = if k < slots.len() {
                    g.below
                } else {
                    g.h / 2.0 + g.state_dy + 6.0
                };
                x0 = x0.min(c.x - g.slot / 2.0);
                x1 = x1.max(c.x + g.slot / 2.0);
                y1 = y1.max(c.y + bottom);
                centres.push(c);
                lanes.push(if r == 0 {
                    bus_y
                } else {
                    y - g.above - ROW_GAP / 2.0
                });
            }
        }
        let rows_x = (
            centres
                .iter()
                .map(|c| c.x - g.slot / 2.0)
                .fold(f64::INFINITY, f64::min),
            centres
                .iter()
                .map(|c| c.x + g.slot / 2.0)
                .fold(f64::NEG_INFINITY, f64::max),
        );
        if lanes.iter().any(|l| *l != bus_y) {
            // The risers run just beyond the rows' ends.
            x0 = x0.min(rows_x.0 - RISER_GAP - 4.0);
            x1 = x1.max(rows_x.1 + RISER_GAP + 4.0);
        }
        let consumers = slots.iter().zip(&centres).map(|(i, c)| (*i, *c)).collect();
        let mut layout = Layout {
            nodes,
            view_box: String::new(),
            zk_w,
            extra,
            producer,
            consumers_x: if centres.is_empty() {
                0.0
            } else {
                centres.iter().map(|c| c.x).sum::<f64>() / centres.len() as f64
            },
            slots: centres,
            lanes,
            rows_x,
            consumers,
            bus_y,
            obstacles: taken,
            compact,
        };
        // A consumer's line may run outside the brokers (a gutter beyond the outermost one):
        // the box holds the gutter of every broker, so the graph does not rescale when the
        // coordinator moves.
        if let Some(first) = layout.slots.first().copied() {
            for id in ids {
                if let Some(Path::Poly(points)) = layout.consumer_route(first, *id) {
                    for p in points {
                        x0 = x0.min(p.x - 4.0);
                        x1 = x1.max(p.x + 4.0);
                    }
                }
            }
        }
        let pad = 6.0;
        layout.view_box = format!(
            "{:.0} {:.0} {:.0} {:.0}",
            x0 - pad,
            y0 - pad,
            x1 - x0 + 2.0 * pad,
            y1 - y0 + 2.0 * pad
        );
        layout
    }

    /// The way from the consumer centred at `c` to broker `b`: up to the lane under the
    /// cluster, along it, up a gutter beside the broker that nothing stands in, and into
    /// the broker's side. Of the two sides, the one with fewer collisions, then the one
    /// nearer the consumers' middle.
    fn consumer_route(&self, c: Pt, b: BrokerId) -> Option<Path> {
        let bp = self.centre(Endpoint::Broker(b))?;
        let g = consumer_geo(self.compact);
        let start = Pt {
            x: c.x,
            y: c.y - g.h / 2.0,
        };
        let hits = |r: Rect| self.obstacles.iter().filter(|o| overlaps(**o, r)).count();
        // A consumer of a later row has a lane of its own.
        let lane = self
            .slots
            .iter()
            .zip(&self.lanes)
            .find(|(p, _)| dist(**p, c) < 0.5)
            .map(|(_, l)| *l)
            .filter(|l| (*l - self.bus_y).abs() > 0.5);
        let mut best: Option<(usize, f64, Vec<Pt>)> = None;
        for side in [-1.0, 1.0] {
            let mut xg = bp.x + side * (LABEL_HALF_W + 14.0);
            for _ in 0..16 {
                let lane = (xg - 3.0, bp.y, xg + 3.0, self.bus_y);
                let blocking = self
                    .obstacles
                    .iter()
                    .filter(|o| overlaps(**o, lane))
                    .map(|o| if side > 0.0 { o.2 } else { o.0 })
                    .fold(None, |acc: Option<f64>, e| {
                        Some(acc.map_or(e, |a| if side > 0.0 { a.max(e) } else { a.min(e) }))
                    });
                match blocking {
                    Some(edge) => xg = edge + side * 14.0,
                    None => break,
                }
            }
            let end = Pt {
                x: bp.x + side * (NODE_R + 2.0),
                y: bp.y,
            };
            // The last stretch runs inside the broker's own box, beside its circle.
            let own = |o: &&Rect| o.0 <= bp.x && bp.x <= o.2 && o.1 <= bp.y && bp.y <= o.3;
            let last = (xg.min(end.x), bp.y - 3.0, xg.max(end.x), bp.y + 3.0);
            let collisions = hits((xg - 3.0, bp.y, xg + 3.0, self.bus_y))
                + self
                    .obstacles
                    .iter()
                    .filter(|o| !own(o) && overlaps(**o, last))
                    .count();
            // Measured from the middle of the consumers, not from this one: every consumer of
            // a broker takes the same gutter, so their lines merge into one.
            let length = (start.y - self.bus_y).abs()
                + (self.consumers_x - xg).abs()
                + (self.bus_y - bp.y).abs()
                + (xg - end.x).abs();
            let mut points = vec![start];
            match lane {
                Some(y) => {
                    // A later row: along its own lane to the rows' end nearer the gutter,
                    // then up to the first lane.
                    let riser = if xg >= self.consumers_x {
                        self.rows_x.1 + RISER_GAP
                    } else {
                        self.rows_x.0 - RISER_GAP
                    };
                    points.push(Pt { x: c.x, y });
                    points.push(Pt { x: riser, y });
                    points.push(Pt {
                        x: riser,
                        y: self.bus_y,
                    });
                }
                None => points.push(Pt {
                    x: c.x,
                    y: self.bus_y,
                }),
            }
            points.extend([
                Pt {
                    x: xg,
                    y: self.bus_y,
                },
                Pt { x: xg, y: bp.y },
                end,
            ]);
            let better = best
                .as_ref()
                .is_none_or(|(h, l, _)| (collisions, length) < (*h, *l));
            if better {
                best = Some((collisions, length, points));
            }
        }
        best.map(|(_, _, points)| Path::Poly(points))
    }

    fn centre(&self, e: Endpoint) -> Option<Pt> {
        match e {
            Endpoint::Zk => Some(Pt { x: 0.0, y: 0.0 }),
            Endpoint::Broker(b) => self.nodes.iter().find(|(id, _)| *id == b).map(|(_, p)| *p),
            Endpoint::Client => self.producer,
            Endpoint::Consumer(i) => self
                .consumers
                .iter()
                .find(|(n, _)| *n == i)
                .map(|(_, p)| *p),
        }
    }

    /// The path a message takes from one endpoint to another, edge to edge.
    fn path(&self, from: Endpoint, to: Endpoint, compact: bool) -> Option<Path> {
        let (a, b) = (self.centre(from)?, self.centre(to)?);
        match (from, to) {
            (Endpoint::Consumer(_), Endpoint::Broker(id)) => self.consumer_route(a, id),
            (Endpoint::Broker(id), Endpoint::Consumer(_)) => {
                self.consumer_route(b, id).map(Path::reversed)
            }
            (Endpoint::Zk, Endpoint::Broker(_)) => Some(self.spoke(b)),
            (Endpoint::Broker(_), Endpoint::Zk) => match self.spoke(a) {
                Path::Line(z, n) => Some(Path::Line(n, z)),
                p => Some(p),
            },
            (Endpoint::Client, _) => Some(producer_link(a, b, compact)),
            (_, Endpoint::Client) => match producer_link(b, a, compact) {
                Path::Line(p, n) => Some(Path::Line(n, p)),
                p => Some(p),
            },
            _ => Some(self.chord(a, b)),
        }
    }

    /// The link from ZooKeeper's box to the broker at `p`.
    fn spoke(&self, p: Pt) -> Path {
        Path::Line(self.zk_edge(p), node_edge(p, Pt { x: 0.0, y: 0.0 }))
    }

    /// Where the ray from ZooKeeper's centre towards `towards` leaves ZooKeeper's box.
    fn zk_edge(&self, towards: Pt) -> Pt {
        let (dx, dy) = (towards.x, towards.y);
        let tx = if dx.abs() > 1e-9 {
            (self.zk_w / 2.0) / dx.abs()
        } else {
            f64::INFINITY
        };
        let ty = if dy.abs() > 1e-9 {
            (ZK_H / 2.0) / dy.abs()
        } else {
            f64::INFINITY
        };
        let t = tx.min(ty).min(1.0);
        Pt {
            x: dx * t,
            y: dy * t,
        }
    }

    /// A curve between two brokers that bows away from ZooKeeper, far enough to clear its box.
    fn chord(&self, a: Pt, b: Pt) -> Path {
        let mid = a.lerp(b, 0.5);
        let d = Pt {
            x: b.x - a.x,
            y: b.y - a.y,
        };
        let l = d.len().max(1e-9);
        let mut perp = Pt {
            x: -d.y / l,
            y: d.x / l,
        };
        let mut away = perp.x * mid.x + perp.y * mid.y;
        if away < 0.0 {
            perp = Pt {
                x: -perp.x,
                y: -perp.y,
            };
            away = -away;
        }
        // The curve's middle lies half the control point's offset from the chord's middle; it
        // must pass outside ZooKeeper's box (its extent in that direction, plus a margin).
        let extent = perp.x.abs() * self.zk_w / 2.0 + perp.y.abs() * ZK_H / 2.0;
        let clear = 2.0 * (extent + 18.0 - away);
        let bow = (0.22 * l).max(clear).max(20.0);
        let c = Pt {
            x: mid.x + perp.x * bow,
            y: mid.y + perp.y * bow,
        };
        Path::Quad(node_edge(a, c), c, node_edge(b, c))
    }
}

/// The line from the producer's box at `p` to the broker at `b`.
fn producer_link(p: Pt, b: Pt, compact: bool) -> Path {
    let (w, h) = producer_size(compact);
    let (dx, dy) = (b.x - p.x, b.y - p.y);
    let tx = if dx.abs() > 1e-9 {
        (w / 2.0) / dx.abs()
    } else {
        f64::INFINITY
    };
    let ty = if dy.abs() > 1e-9 {
        (h / 2.0) / dy.abs()
    } else {
        f64::INFINITY
    };
    let t = tx.min(ty).min(1.0);
    Path::Line(
        Pt {
            x: p.x + dx * t,
            y: p.y + dy * t,
        },
        node_edge(b, p),
    )
}

/// The point on the circle around `centre` facing `towards`.
fn node_edge(centre: Pt, towards: Pt) -> Pt {
    let d = Pt {
        x: towards.x - centre.x,
        y: towards.y - centre.y,
    };
    let l = d.len().max(1e-9);
    Pt {
        x: centre.x + d.x / l * (NODE_R + 2.0),
        y: centre.y + d.y / l * (NODE_R + 2.0),
    }
}

#[derive(Debug, Clone)]
enum Path {
    Line(Pt, Pt),
    Quad(Pt, Pt, Pt),
    /// Straight stretches through these points, drawn with rounded corners.
    Poly(Vec<Pt>),
}

/// The radius of a polyline's rounded corners.
const CORNER_R: f64 = 12.0;

fn dist(a: Pt, b: Pt) -> f64 {
    Pt {
        x: b.x - a.x,
        y: b.y - a.y,
    }
    .len()
}

impl Path {
    fn at(&self, t: f64) -> Pt {
        match self {
            Path::Line(a, b) => a.lerp(*b, t),
            Path::Quad(a, c, b) => a.lerp(*c, t).lerp(c.lerp(*b, t), t),
            Path::Poly(points) => {
                let total: f64 = points.windows(2).map(|w| dist(w[0], w[1])).sum();
                let mut left = t.clamp(0.0, 1.0) * total;
                for w in points.windows(2) {
                    let l = dist(w[0], w[1]);
                    if left <= l && l > 0.0 {
                        return w[0].lerp(w[1], left / l);
                    }
                    left -= l;
                }
                points.last().copied().unwrap_or(Pt { x: 0.0, y: 0.0 })
            }
        }
    }

    fn reversed(self) -> Path {
        match self {
            Path::Line(a, b) => Path::Line(b, a),
            Path::Quad(a, c, b) => Path::Quad(b, c, a),
            Path::Poly(mut points) => {
                points.reverse();
                Path::Poly(points)
            }
        }
    }

    fn d(&self) -> String {
        match self {
            Path::Line(a, b) => format!("M{:.1},{:.1} L{:.1},{:.1}", a.x, a.y, b.x, b.y),
            Path::Quad(a, c, b) => format!(
                "M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
                a.x, a.y, c.x, c.y, b.x, b.y
            ),
            Path::Poly(points) => {
                let mut pts: Vec<Pt> = Vec::with_capacity(points.len());
                for p in points {
                    if pts.last().is_none_or(|q| dist(*q, *p) > 0.5) {
                        pts.push(*p);
                    }
                }
                let Some(first) = pts.first() else {
                    return String::new();
                };
                let mut d = format!("M{:.1},{:.1}", first.x, first.y);
                for i in 1..pts.len() {
                    let p = pts[i];
                    if i + 1 < pts.len() {
                        let (a, b) = (pts[i - 1], pts[i + 1]);
                        let r = CORNER_R.min(dist(a, p) / 2.0).min(dist(p, b) / 2.0);
                        let before = p.lerp(a, r / dist(a, p).max(1e-9));
                        let after = p.lerp(b, r / dist(p, b).max(1e-9));
                        d.push_str(&format!(
                            " L{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
                            before.x, before.y, p.x, p.y, after.x, after.y
                        ));
                    } else {
                        d.push_str(&format!(" L{:.1},{:.1}", p.x, p.y));
                    }
                }
                d
            }
        }
    }
}

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
}

/// How much a replica badge says: everything, no epoch, or a short name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BadgeText {
    Full,
    NoEpoch,
    Short,
}

/// One replica badge under a broker.
#[derive(Debug, Clone)]
struct Badge {
    key: String,
    state: ReplicaState,
    /// ZooKeeper names it the leader, but it cannot act (its broker is down or frozen).
    named_leader: bool,
    name: String,
    epoch: Option<String>,
    title: String,
    w: f64,
    x: f64,
    row: usize,
}

/// The badges of broker `id`, laid out in rows, with the number of rows.
fn badges(v: &GraphView<'_>, id: BrokerId, text: BadgeText) -> (Vec<Badge>, usize) {
    let cw = badge_char_w(v.compact);
    let pad = if v.compact { 14.0 } else { 12.0 };
    let mut out: Vec<Badge> = replicas_of(v.state, v.partitions, id)
        .into_iter()
        .map(|(r, p, st)| {
            let name = match text {
                BadgeText::Short if v.topic_count <= 1 => format!("P{}", r.partition),
                BadgeText::Short => {
                    format!("{}-{}", r.topic.chars().next().unwrap_or('?'), r.partition)
                }
                _ => r.key.clone(),
            };
            // ZooKeeper may still name a down or frozen broker as the leader: say so.
            let named = p.leader == i64::from(id);
            let epoch = (named && text == BadgeText::Full).then(|| format!("e{}", p.leader_epoch));
            let chars = name.chars().count() + epoch.as_ref().map_or(0, |e| e.chars().count() + 1);
            let leo = p.log_end_offsets.get(&id).copied().unwrap_or(0);
            let mut title = format!(
                "{}: {} on broker {id}, leader epoch {}, log end offset {leo}",
                r.key,
                replica_words(st),
                p.leader_epoch
            );
            if st != ReplicaState::Leader {
                title.push_str(&format!(", lag {}", lag(p, id)));
            }
            if named && st != ReplicaState::Leader {
                title.push_str("; ZooKeeper still names it the leader");
            }
            Badge {
                key: r.key.clone(),
                state: st,
                named_leader: named && st != ReplicaState::Leader,
                name,
                epoch,
                title,
                w: chars as f64 * cw + pad,
                x: 0.0,
                row: 0,
            }
        })
        .collect();
    // Rows, filled left to right, each centred under the node.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut width = 0.0;
    for (i, b) in out.iter().enumerate() {
        match rows.last_mut() {
            Some(row) if width + BADGE_GAP + b.w <= BADGE_ROW_W => {
                row.push(i);
                width += BADGE_GAP + b.w;
            }
            _ => {
                rows.push(vec![i]);
                width = b.w;
            }
        }
    }
    for (r, row) in rows.iter().enumerate() {
        let total: f64 =
            row.iter().map(|&i| out[i].w).sum::<f64>() + BADGE_GAP * (row.len() as f64 - 1.0);
        let mut x = -total / 2.0;
        for &i in row {
            out[i].x = x + out[i].w / 2.0;
            out[i].row = r;
            x += out[i].w + BADGE_GAP;
        }
    }
    (out, rows.len())
}

/// Every broker's badges, said as fully as fits in [`MAX_BADGE_ROWS`] rows.
fn all_badges(v: &GraphView<'_>) -> (Vec<(BrokerId, Vec<Badge>)>, usize) {
    let tiers: &[BadgeText] = if v.compact {
        &[BadgeText::NoEpoch, BadgeText::Short]
    } else {
        &[BadgeText::Full, BadgeText::NoEpoch, BadgeText::Short]
    };
    let mut best = (Vec::new(), 0);
    for &t in tiers {
        let mut rows = 0;
        let all: Vec<(BrokerId, Vec<Badge>)> = v
            .state
            .brokers
            .keys()
            .map(|&id| {
                let (b, r) = badges(v, id, t);
                rows = rows.max(r);
                (id, b)
            })
            .collect();
        best = (all, rows);
        if rows <= MAX_BADGE_ROWS {
            break;
        }
    }
    best
}

/// More rows than this and the badges say less.
const MAX_BADGE_ROWS: usize = 2;

/// The badges' total height for `rows` rows.
fn badges_height(rows: usize, compact: bool) -> f64 {
    if rows == 0 {
        0.0
    } else {
        rows as f64 * (badge_h(compact) + BADGE_GAP) + 4.0
    }
}

fn badge_view(b: &Badge, compact: bool) -> Html {
    let h = badge_h(compact);
    let y = BADGE_TOP + b.row as f64 * (h + BADGE_GAP) + h / 2.0;
    html! {
        <g class={classes!("replica", format!("rs-{}", b.state.name()), b.named_leader.then_some("named-leader"))}
           data-replica={b.key.clone()} data-state={b.state.name()}
           transform={format!("translate({:.1},{:.1})", b.x, y)}>
            <title>{ b.title.clone() }</title>
            <rect x={format!("{:.1}", -b.w / 2.0)} y={format!("{:.1}", -h / 2.0)}
                  width={format!("{:.1}", b.w)} height={format!("{h:.1}")} rx={format!("{:.1}", h / 2.0)} />
            <text y={if compact { "6" } else { "4.3" }} text-anchor="middle">
                { b.name.clone() }
                if let Some(e) = &b.epoch {
                    <tspan class="replica-epoch">{ format!(" {e}") }</tspan>
                }
            </text>
        </g>
    }
}

/// Renders the graph.
pub fn graph(
    v: &GraphView<'_>,
    on_command: &Callback<Command>,
    on_select: &Callback<Option<BrokerId>>,
    on_add: &Callback<String>,
) -> Html {
    let ids: Vec<BrokerId> = v.state.brokers.keys().copied().collect();
    let (mut all_badges, rows) = all_badges(v);
    let slots: Vec<u32> = v.consumers.iter().map(|c| c.index).collect();
    let layout = Layout::new(
        &ids,
        v.compact,
        badges_height(rows, v.compact),
        !v.partitions.is_empty(),
        &slots,
        v.add_to.len(),
    );
    let now = v.state.time_ms;
    let view = |id: BrokerId| v.state.brokers.get(&id);

    // Links: ZooKeeper to every broker, and the controller's channels to the others.
    let mut edges: Vec<Html> = Vec::new();
    for (id, p) in &layout.nodes {
        let Some(b) = view(*id) else { continue };
        let path = layout.spoke(*p);
        let cut = b.zk_link_cut;
        edges.push(html! {
            <path class={classes!("spoke", format!("conn-{}", b.zk_connection.name()), cut.then_some("cut"))}
                  d={path.d()} />
        });
        if cut {
            // Nearer ZooKeeper than the broker, clear of the broker's labels.
            let m = path.at(0.3);
            edges.push(cut_mark(m));
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
                edges.push(html! { <path class="channel" d={layout.chord(cp, *p).d()} /> });
            }
        }
    }
    for (a, b) in &v.cut_links {
        if let (Endpoint::Broker(_), Endpoint::Broker(_)) = (a, b) {
            if let (Some(pa), Some(pb)) = (layout.centre(*a), layout.centre(*b)) {
                let ch = layout.chord(pa, pb);
                edges.push(html! { <path class="channel cut" d={ch.d()} /> });
                edges.push(cut_mark(ch.at(0.5)));
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
        let current = c.group_view.coordinator == Some(b);
        edges.push(html! {
            <path class={classes!("group-link", format!("cs-{}", c.look()), (!current).then_some("stale"))}
                  data-link-member={c.name.to_string()} data-link-broker={b.to_string()}
                  d={path.d()} />
        });
    }
    let consumer_nodes: Html = v
        .consumers
        .iter()
        .zip(&layout.slots)
        .map(|(c, at)| consumer_node(v, c, *at, on_command))
        .chain(
            v.add_to
                .iter()
                .zip(layout.slots.iter().skip(v.consumers.len()))
                .map(|(g, at)| add_node(g, v.add_to.len() > 1, *at, v.compact, on_add)),
        )
        .collect();

    let nodes: Html = layout
        .nodes
        .iter()
        .filter_map(|(id, p)| {
            let badges = all_badges
                .iter_mut()
                .find(|(b, _)| b == id)
                .map(|(_, list)| std::mem::take(list))
                .unwrap_or_default();
            view(*id)
                .map(|b| broker_node(v, &layout, *id, b, *p, &badges, now, on_command, on_select))
        })
        .collect();

    // The producer, while it writes (or its requests are still in the air).
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
    let producer = layout
        .producer
        .filter(|_| producing)
        .map(|at| producer_node(&layout, at, &streams, v.compact));

    // At slow speeds the oldest message in the air on each link, either way (heartbeats
    // aside), carries its name: a request before its reply.
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
    let flights: Html = v
        .flights
        .iter()
        .filter_map(|f| flight(&layout, f, v.anim_now, labelled.contains(&f.id), v.compact))
        .collect();

    let mut aria = format!(
        "Cluster graph: ZooKeeper and {} broker{}",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" }
    );
    if !v.consumers.is_empty() {
        aria.push_str(&format!(
            ", {} consumer{}",
            v.consumers.len(),
            if v.consumers.len() == 1 { "" } else { "s" }
        ));
    }
    let with_consumers = !layout.slots.is_empty();
    html! {
        <svg class={classes!("graph", v.compact.then_some("compact"), with_consumers.then_some("with-consumers"))} viewBox={layout.view_box.clone()} role="group" aria-label={aria}
             preserveAspectRatio="xMidYMid meet">
            <g class="edges">{ for edges }</g>
            { zookeeper(v.state, layout.zk_w) }
            { producer.unwrap_or_default() }
            <g class="consumers">{ consumer_nodes }</g>
            <g class="flights" aria-hidden="true">{ flights }</g>
            { nodes }
        </svg>
    }
}

/// The producer's box, with dashed links to the leaders it writes to.
fn producer_node(layout: &Layout, at: Pt, streams: &[(&str, u64, i64)], compact: bool) -> Html {
    let (w, h) = producer_size(compact);
    let rate: u64 = streams.iter().map(|(_, r, _)| r).sum();
    let mut leaders: Vec<BrokerId> = streams
        .iter()
        .filter_map(|(_, _, l)| BrokerId::try_from(*l).ok())
        .collect();
    leaders.sort_unstable();
    leaders.dedup();
    let links: Html = leaders
        .iter()
        .filter_map(|l| layout.centre(Endpoint::Broker(*l)))
        .map(|b| html! { <path class="produce-link" d={producer_link(at, b, compact).d()} /> })
        .collect();
    let sub = if streams.is_empty() {
        "idle".to_string()
    } else {
        format!("{rate} records/s")
    };
    let aria = match streams {
        [] => "Producer, idle".to_string(),
        _ => format!(
            "Producer, writing to {}",
            streams
                .iter()
                .map(|(k, r, _)| format!("{k} at {r} records/s"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    html! {
        <g class="producer" data-producer="true" role="img" aria-label={aria}>
            { links }
            <g transform={format!("translate({:.1},{:.1})", at.x, at.y)}>
                <rect x={format!("{:.1}", -w / 2.0)} y={format!("{:.1}", -h / 2.0)}
                      width={format!("{w:.1}")} height={format!("{h:.1}")} rx="10" />
                <text class="producer-title" y={if compact { "-4" } else { "-3" }} text-anchor="middle">{ "producer" }</text>
                <text class="producer-sub" y={if compact { "17" } else { "14" }} text-anchor="middle">{ sub }</text>
            </g>
        </g>
    }
}

fn cut_mark(m: Pt) -> Html {
    html! {
        <g class="cut-mark" transform={format!("translate({:.1},{:.1})", m.x, m.y)}>
            <rect x="-17" y="-10" width="34" height="20" rx="6" />
            <text y="4.5" text-anchor="middle">{ "cut" }</text>
        </g>
    }
}

fn zookeeper(state: &ClusterState, zk_w: f64) -> Html {
    let controller = match state.controller {
        Some(c) => format!("/controller = {c}"),
        None => "/controller: (none)".to_string(),
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
    let x = -zk_w / 2.0;
    let y = -ZK_H / 2.0;
    html! {
        <g class="zk" role="img" data-zookeeper="true"
           aria-label={format!("ZooKeeper: {controller}, /controller_epoch = {}, {ids}", state.controller_epoch)}>
            <rect x={x.to_string()} y={y.to_string()} width={zk_w.to_string()} height={ZK_H.to_string()} rx="14" />
            <text class="zk-title" x="0" y={(y + 25.0).to_string()} text-anchor="middle">{ "ZooKeeper" }</text>
            <text class="znode" x={(x + 16.0).to_string()} y={(y + 50.0).to_string()}
                  data-set={state.controller.is_some().to_string()}>{ controller }</text>
            <text class="znode" x={(x + 16.0).to_string()} y={(y + 72.0).to_string()}>
                { "/controller_epoch = " }<tspan class="znode-epoch">{ state.controller_epoch }</tspan>
            </text>
            <text class="znode" x={(x + 16.0).to_string()} y={(y + 94.0).to_string()}>{ ids }</text>
        </g>
    }
}

#[allow(clippy::too_many_arguments)]
fn broker_node(
    v: &GraphView<'_>,
    layout: &Layout,
    id: BrokerId,
    b: &BrokerView,
    p: Pt,
    badges: &[Badge],
    now: u64,
    on_command: &Callback<Command>,
    on_select: &Callback<Option<BrokerId>>,
) -> Html {
    let role = b.controller_role;
    let starts = click_starts(b);
    let activate = {
        let on_command = on_command.clone();
        move || {
            on_command.emit(if starts {
                Command::Start(id)
            } else {
                Command::Crash(id)
            })
        }
    };
    let onclick = {
        let activate = activate.clone();
        let on_select = on_select.clone();
        Callback::from(move |e: MouseEvent| {
            if e.shift_key() {
                on_select.emit(Some(id));
            } else {
                activate();
            }
        })
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            activate();
        }
    });
    let select = {
        let on_select = on_select.clone();
        let selected = v.selected == Some(id);
        Callback::from(move |_: MouseEvent| on_select.emit(if selected { None } else { Some(id) }))
    };
    let select_key = {
        let on_select = on_select.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                on_select.emit(Some(id));
            }
        })
    };

    let t = format!("translate({:.1},{:.1})", p.x, p.y);
    let epoch = b.acting_epoch.unwrap_or(0);
    let badge = match role {
        ControllerRole::Controller => {
            Some((format!("CONTROLLER · epoch {epoch}"), "badge controller"))
        }
        ControllerRole::Zombie => Some((format!("ZOMBIE · epoch {epoch}"), "badge zombie")),
        ControllerRole::Named => Some(("still in /controller".to_string(), "badge named")),
        ControllerRole::None => None,
    };
    let crown = badge.map(|(label, class)| {
        // Capitals in bold are wider than the lower-case "still in /controller".
        let per_char = match (role, v.compact) {
            (ControllerRole::Named, false) => 7.6,
            (ControllerRole::Named, true) => 8.4,
            (_, false) => 8.8,
            (_, true) => 9.7,
        };
        let w = label.chars().count() as f64 * per_char + 18.0;
        html! {
            <g class={class}>
                <path class="crown" d="M-15,0 L-17,-17 L-8,-8 L0,-21 L8,-8 L17,-17 L15,0 Z"
                      transform={format!("translate(0,{:.1})", -NODE_R + 5.0)} />
                <rect x={format!("{:.1}", -w / 2.0)} y={format!("{:.1}", -NODE_R - 48.0)}
                      width={format!("{w:.1}")} height="22" rx="11" />
                <text y={format!("{:.1}", -NODE_R - 32.5)} text-anchor="middle">{ label }</text>
            </g>
        }
    });
    let status_icon = match b.state {
        BrokerState::Crashed => Some(("M-4.5,-4.5 L4.5,4.5 M4.5,-4.5 L-4.5,4.5", "crashed")),
        BrokerState::Paused => Some(("M-2.8,-5 L-2.8,5 M2.8,-5 L2.8,5", "paused")),
        BrokerState::Stopped => Some(("M-3.5,-3.5 L3.5,-3.5 L3.5,3.5 L-3.5,3.5 Z", "stopped")),
        BrokerState::ShuttingDown => Some(("M0,-5.5 L0,0.5 M0,4.6 L0,4.8", "shutting")),
        BrokerState::NotStarted | BrokerState::Running => None,
    }
    .map(|(d, class)| {
        html! {
            <g class={classes!("status-badge", class)} transform="translate(27,27)">
                <circle r="11" />
                <path d={d} />
            </g>
        }
    });
    // The countdown ring: how much of the session is left before ZooKeeper gives up on it.
    let ring = b
        .session_countdown_ms
        .filter(|_| v.session_timeout_ms > 0)
        .map(|left| {
            arc(
                NODE_R + 7.0,
                (left as f64 / v.session_timeout_ms as f64).clamp(0.0, 1.0),
            )
        });
    let mut label_lines = status_lines(b, now);
    // The group coordinator it is (it leads the group's __consumer_offsets partition).
    let coordinates: Vec<&str> = v
        .state
        .groups
        .iter()
        .filter(|(_, g)| g.coordinator == Some(id))
        .map(|(name, _)| name.as_str())
        .collect();
    if !coordinates.is_empty() && label_lines.len() < 4 {
        label_lines.push((
            format!("coordinator of {}", coordinates.join(", ")),
            "coord-note",
        ));
    }
    let label_top = NODE_R + 24.0 + layout.extra;
    // The node's box must stay centred on its circle (a click lands at the box's centre), so
    // an invisible mark above balances the badges below.
    let reach = badges.iter().map(|b| b.row + 1).max().map_or(0.0, |rows| {
        BADGE_TOP + rows as f64 * (badge_h(v.compact) + BADGE_GAP)
    });
    let mut aria = aria_label(id, b, now);
    if !badges.is_empty() {
        let leads: Vec<&str> = badges
            .iter()
            .filter(|x| x.state == ReplicaState::Leader)
            .map(|x| x.key.as_str())
            .collect();
        let rest: Vec<String> = badges
            .iter()
            .filter(|x| x.state != ReplicaState::Leader)
            .map(|x| format!("{} ({})", x.key, replica_words(x.state)))
            .collect();
        let mut parts = Vec::new();
        if !leads.is_empty() {
            parts.push(format!("leads {}", leads.join(", ")));
        }
        if !rest.is_empty() {
            parts.push(format!("replicas {}", rest.join(", ")));
        }
        aria.push_str(&format!("; {}", parts.join("; ")));
    }
    if !coordinates.is_empty() {
        aria.push_str(&format!(
            "; group coordinator of {}",
            coordinates.join(", ")
        ));
    }
    let selected = v.selected == Some(id);
    let more_at = Pt {
        x: NODE_R * 0.92,
        y: -NODE_R * 0.92,
    };

    html! {
        <g class={classes!("broker", format!("state-{}", b.state.name()), selected.then_some("selected"))}>
            if let Some(d) = ring {
                <g transform={t.clone()} class="session-ring" aria-hidden="true">
                    <circle class="ring-track" r={(NODE_R + 7.0).to_string()} />
                    <path class="ring-left" d={d} />
                </g>
            }
            <g class={classes!("node", match role { ControllerRole::Controller => Some("is-controller"), ControllerRole::Zombie => Some("is-zombie"), ControllerRole::Named | ControllerRole::None => None })}
               transform={t.clone()}
               data-broker={id.to_string()}
               data-state={b.state.name()}
               data-controller={(role == ControllerRole::Controller).then_some("true")}
               data-zombie={(role == ControllerRole::Zombie).then_some("true")}
               role="button" tabindex="0"
               aria-label={aria}
               {onclick} {onkeydown}>
                <title>{ if starts { format!("Start broker {id}") } else { format!("Crash broker {id} (shift-click for more)") } }</title>
                <circle class="focus-ring" r={(NODE_R + 13.0).to_string()} />
                <circle class="body" r={NODE_R.to_string()} />
                <text class="node-caption" y="-11" text-anchor="middle">{ "broker" }</text>
                <text class="node-id" y="17" text-anchor="middle">{ id }</text>
                { status_icon.unwrap_or_default() }
                { crown.unwrap_or_default() }
                if reach > 0.0 {
                    <rect class="balance" x="-0.5" y={format!("{:.1}", -reach)} width="1" height="1" />
                    <g class="replicas">{ for badges.iter().map(|x| badge_view(x, v.compact)) }</g>
                }
            </g>
            <g class="node-label" transform={t.clone()} onclick={select.clone()}>
                { for label_lines.iter().enumerate().map(|(i, (text, class))| html! {
                    <text class={*class} y={format!("{:.1}", label_top + i as f64 * line_h(v.compact))} text-anchor="middle">{ text.clone() }</text>
                }) }
            </g>
            <g class="more" transform={format!("translate({:.1},{:.1})", p.x + more_at.x, p.y + more_at.y)}
               role="button" tabindex="0" aria-label={format!("More actions for broker {id}")}
               aria-pressed={selected.to_string()}
               onclick={select} onkeydown={select_key}>
                <title>{ format!("More actions for broker {id}") }</title>
                <circle r="11" />
                <text y="4.5" text-anchor="middle">{ "⋯" }</text>
            </g>
        </g>
    }
}

/// A clockwise arc from 12 o'clock covering fraction `f` of a circle of radius `r`.
fn arc(r: f64, f: f64) -> String {
    if f >= 0.999 {
        return format!(
            "M0,{:.1} A{r},{r} 0 1 1 0,{:.1} A{r},{r} 0 1 1 0,{:.1}",
            -r, r, -r
        );
    }
    let a = -PI / 2.0 + f * 2.0 * PI;
    let (x, y) = (r * a.cos(), r * a.sin());
    let large = if f > 0.5 { 1 } else { 0 };
    format!("M0,{:.1} A{r},{r} 0 {large} 1 {x:.1},{y:.1}", -r)
}

fn flight(
    layout: &Layout,
    f: &Flight,
    anim_now: f64,
    labelled: bool,
    compact: bool,
) -> Option<Html> {
    let path = layout.path(f.from, f.to, compact)?;
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
    let p = path.at(t);
    let label = labelled.then(|| {
        let mut text: String = f.label.chars().take(30).collect();
        if f.label.chars().count() > 30 {
            text.push('…');
        }
        html! { <text class="flight-label" x="9" y="-8">{ text }</text> }
    });
    let consumer = matches!(f.from, Endpoint::Consumer(_)) || matches!(f.to, Endpoint::Consumer(_));
    Some(html! {
        <g key={f.id.to_string()} class={classes!("flight", format!("msg-{}", f.class), f.dropped.then_some("dropped"), consumer.then_some("consumer-msg"))}
           transform={format!("translate({:.1},{:.1})", p.x, p.y)} opacity={format!("{opacity:.2}")}>
            <circle r={match (f.class, consumer) { ("fetch", _) | ("heartbeat", true) => "3.5", ("produce", _) => "5", _ => "6" }} />
            { label.unwrap_or_default() }
        </g>
    })
}

/// A consumer's partition chips, laid out in rows under its node: (text, x, row, width).
/// The full names when they fit in [`CHIP_ROWS`] rows, else shorter ones, else as many as fit
/// and a "+N".
fn chips(names: &[String], g: &ConsumerGeo, single_topic: bool) -> Vec<(String, f64, usize, f64)> {
    let row_w = g.slot - 10.0;
    let layout = |texts: &[String]| -> (Vec<(String, f64, usize, f64)>, usize) {
        let mut rows: Vec<Vec<(String, f64)>> = Vec::new();
        let mut width = 0.0;
        for t in texts {
            let w = t.chars().count() as f64 * g.chip_cw + g.chip_pad;
            match rows.last_mut() {
                Some(row) if width + CHIP_GAP + w <= row_w => {
                    row.push((t.clone(), w));
                    width += CHIP_GAP + w;
                }
                _ => {
                    rows.push(vec![(t.clone(), w)]);
                    width = w;
                }
            }
        }
        let mut out = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let total: f64 =
                row.iter().map(|(_, w)| w).sum::<f64>() + CHIP_GAP * (row.len() as f64 - 1.0);
            let mut x = -total / 2.0;
            for (t, w) in row {
                out.push((t.clone(), x + w / 2.0, r, *w));
                x += w + CHIP_GAP;
            }
        }
        (out, rows.len())
    };
    let (full, rows) = layout(names);
    if rows <= CHIP_ROWS {
        return full;
    }
    // "orders-3" becomes "P3" when there is one topic, else "o-3".
    let short: Vec<String> = names
        .iter()
        .map(|n| match n.rsplit_once('-') {
            Some((_, p)) if single_topic => format!("P{p}"),
            Some((t, p)) => format!("{}-{p}", t.chars().next().unwrap_or('?')),
            None => n.clone(),
        })
        .collect();
    let (out, rows) = layout(&short);
    if rows <= CHIP_ROWS {
        return out;
    }
    // Still too many: keep what fits and say how many more.
    let mut keep = short.len();
    while keep > 0 {
        keep -= 1;
        let mut texts: Vec<String> = short[..keep].to_vec();
        texts.push(format!("+{}", short.len() - keep));
        let (out, rows) = layout(&texts);
        if rows <= CHIP_ROWS {
            return out;
        }
    }
    Vec::new()
}

/// One consumer: its box, the leader's crown with the generation, its state and its
/// partitions. A click crashes it (or starts it again once down); shift-click, LeaveGroup.
fn consumer_node(
    v: &GraphView<'_>,
    c: &ConsumerRef<'_>,
    at: Pt,
    on_command: &Callback<Command>,
) -> Html {
    let g = consumer_geo(v.compact);
    let name = c.name.to_string();
    let alive = c.alive();
    let leads = c.leads();
    let primary = c.click();
    let leave = c.leave();
    let onclick = {
        let on_command = on_command.clone();
        let primary = primary.clone();
        let leave = leave.clone();
        Callback::from(move |e: MouseEvent| match (&leave, e.shift_key()) {
            (Some(l), true) => on_command.emit(l.clone()),
            _ => on_command.emit(primary.clone()),
        })
    };
    let onkeydown = {
        let on_command = on_command.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                match (&leave, e.shift_key()) {
                    (Some(l), true) => on_command.emit(l.clone()),
                    _ => on_command.emit(primary.clone()),
                }
            }
        })
    };
    let generation = c.group_generation();
    let assigned: Vec<String> = if alive {
        c.view.assignment.clone()
    } else {
        Vec::new()
    };
    let single_topic = v.topic_count <= 1;
    let chip_list = chips(&assigned, &g, single_topic);
    // Short enough to stay within the node's slot.
    let state_line = match c.view.state {
        ConsumerState::Stable => format!("stable · gen {}", c.view.generation),
        ConsumerState::FindingCoordinator => "FindCoordinator…".to_string(),
        ConsumerState::Joining => "joining…".to_string(),
        ConsumerState::Syncing => "syncing…".to_string(),
        s @ (ConsumerState::Left | ConsumerState::Crashed) => consumer_words(s).to_string(),
    };
    let mut aria = format!(
        "Consumer {name} of group {}, {}",
        c.group,
        consumer_words(c.view.state)
    );
    if leads {
        aria.push_str(&format!(", group leader (generation {generation})"));
    }
    if !assigned.is_empty() {
        aria.push_str(&format!(", partitions {}", assigned.join(", ")));
    }
    aria.push_str(if alive {
        "; press to crash it, shift+press to make it leave the group"
    } else {
        "; press to start it again: it rejoins the group"
    });
    let title = if alive {
        format!("Crash consumer {name} (shift-click: it leaves the group)")
    } else {
        format!("Start consumer {name} again: it rejoins {}", c.group)
    };
    let member_id = if c.view.member_id.is_empty() {
        String::new()
    } else {
        short_member_id(c.name, &c.view.member_id)
    };
    let icon = match c.view.state {
        ConsumerState::Crashed => Some(("M-4.5,-4.5 L4.5,4.5 M4.5,-4.5 L-4.5,4.5", "crashed")),
        ConsumerState::Left => Some(("M4,-4 L-4,4 M-4,4 L-4,-1 M-4,4 L1,4", "left")),
        _ => None,
    };
    let pill = leads.then(|| {
        let text = format!("leader · gen {generation}");
        let w = text.chars().count() as f64 * if v.compact { 9.4 } else { 7.6 } + 34.0;
        let y = -g.h / 2.0 - g.pill_h - 6.0;
        html! {
            <g class="leader-badge">
                <rect x={format!("{:.1}", -w / 2.0)} y={format!("{y:.1}")} width={format!("{w:.1}")}
                      height={format!("{:.1}", g.pill_h)} rx={format!("{:.1}", g.pill_h / 2.0)} />
                <path class="crown" d="M-15,0 L-17,-17 L-8,-8 L0,-21 L8,-8 L17,-17 L15,0 Z"
                      transform={format!("translate({:.1},{:.1}) scale(0.55)", -w / 2.0 + 16.0, y + g.pill_h / 2.0 + 5.5)} />
                <text x="9" y={format!("{:.1}", y + g.pill_h / 2.0 + if v.compact { 6.0 } else { 4.5 })} text-anchor="middle">{ text }</text>
            </g>
        }
    });
    html! {
        <g class={classes!("consumer", format!("cs-{}", c.look()), leads.then_some("is-leader"))}
           transform={format!("translate({:.1},{:.1})", at.x, at.y)}>
            <g class="cnode"
               data-member={name.clone()}
               data-group={c.group.to_string()}
               data-state={c.view.state.name()}
               data-group-leader={leads.then_some("true")}
               data-generation={generation.to_string()}
               role="button" tabindex="0"
               aria-label={aria}
               {onclick} {onkeydown}>
                <title>{ title }</title>
                <rect class="focus-ring" x={format!("{:.1}", -g.w / 2.0 - 6.0)} y={format!("{:.1}", -g.h / 2.0 - 6.0)}
                      width={format!("{:.1}", g.w + 12.0)} height={format!("{:.1}", g.h + 12.0)} rx="16" />
                <rect class="body" x={format!("{:.1}", -g.w / 2.0)} y={format!("{:.1}", -g.h / 2.0)}
                      width={format!("{:.1}", g.w)} height={format!("{:.1}", g.h)} rx="12" />
                <text class="node-caption" y={if v.compact { "-9" } else { "-7" }} text-anchor="middle">{ "consumer" }</text>
                <text class="consumer-name" y={if v.compact { "17" } else { "14" }} text-anchor="middle">{ name.clone() }</text>
                if let Some((d, class)) = icon {
                    <g class={classes!("status-badge", class)}
                       transform={format!("translate({:.1},{:.1})", g.w / 2.0 - 4.0, -g.h / 2.0 + 4.0)}>
                        <circle r="10" />
                        <path d={d} />
                    </g>
                }
                { pill.unwrap_or_default() }
            </g>
            <g class="consumer-label" aria-hidden="true">
                <text class="cstate" y={format!("{:.1}", g.h / 2.0 + g.state_dy)} text-anchor="middle">{ state_line }</text>
                if !member_id.is_empty() && chip_list.is_empty() && alive {
                    <text class="cid" y={format!("{:.1}", g.chips_top + g.chip_h * 0.7)} text-anchor="middle">{ member_id }</text>
                }
                { for chip_list.iter().map(|(text, x, row, w)| {
                    let y = g.chips_top + *row as f64 * (g.chip_h + CHIP_GAP);
                    html! {
                        <g class="chip-p" data-assigned={text.clone()} transform={format!("translate({x:.1},{y:.1})")}>
                            <rect x={format!("{:.1}", -w / 2.0)} y="0" width={format!("{w:.1}")}
                                  height={format!("{:.1}", g.chip_h)} rx={format!("{:.1}", g.chip_h / 2.0)} />
                            <text y={format!("{:.1}", g.chip_h / 2.0 + if v.compact { 5.5 } else { 4.2 })} text-anchor="middle">{ text.clone() }</text>
                        </g>
                    }
                }) }
            </g>
        </g>
    }
}

/// The "add a consumer" place at the end of the row.
fn add_node(
    group: &str,
    name_group: bool,
    at: Pt,
    compact: bool,
    on_add: &Callback<String>,
) -> Html {
    let g = consumer_geo(compact);
    let onclick = {
        let on_add = on_add.clone();
        let group = group.to_string();
        Callback::from(move |_: MouseEvent| on_add.emit(group.clone()))
    };
    let onkeydown = {
        let on_add = on_add.clone();
        let group = group.to_string();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                on_add.emit(group.clone());
            }
        })
    };
    let label = format!("Add a consumer to group {group}");
    html! {
        <g class="add-consumer" transform={format!("translate({:.1},{:.1})", at.x, at.y)}
           data-testid="graph-add-consumer" data-group={group.to_string()}
           role="button" tabindex="0" aria-label={label.clone()} {onclick} {onkeydown}>
            <title>{ label }</title>
            <rect class="focus-ring" x={format!("{:.1}", -g.w / 2.0 - 6.0)} y={format!("{:.1}", -g.h / 2.0 - 6.0)}
                  width={format!("{:.1}", g.w + 12.0)} height={format!("{:.1}", g.h + 12.0)} rx="16" />
            <rect class="body" x={format!("{:.1}", -g.w / 2.0)} y={format!("{:.1}", -g.h / 2.0)}
                  width={format!("{:.1}", g.w)} height={format!("{:.1}", g.h)} rx="12" />
            <text class="add-text" y={if compact { "7" } else { "5" }} text-anchor="middle">{ "+ consumer" }</text>
            if name_group {
                <text class="add-group" y={format!("{:.1}", g.h / 2.0 + g.state_dy)} text-anchor="middle">{ group.to_string() }</text>
            }
        </g>
    }
}

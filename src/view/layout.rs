//! Where the graph puts everything: ZooKeeper in the middle, the brokers on an ellipse
//! around it, the producer beside it, the consumers in rows below, and the ways the links
//! and the messages take between them. Pure geometry: the same brokers, badges and
//! consumers give the same places, natively and in the browser.

use super::geometry::{
    below, consumer_geo, dist, node_edge, overlaps, producer_link, producer_size, Path, Pt, Rect,
    ABOVE, LABEL_HALF_W, NODE_R, RISER_GAP, ROW_GAP, ZK_H, ZK_MIN_W,
};
use super::trig;
use crate::sim::{BrokerId, Endpoint};
use crate::text::numbers::Fixed;
use std::f64::consts::PI;

/// Below this width (CSS px) the graph takes its portrait layout.
pub const NARROW_PX: f64 = 700.0;

/// Below this width (CSS px) an embedded graph takes the portrait layout too, whatever the
/// window's width: a mount under 560 px (the style sheet's narrow `kafka-embed` container,
/// less its padding), where the graph scrolls in its tab at the phone's size.
pub const EMBED_NARROW_PX: f64 = 540.0;

/// Whether a window `width_px` CSS pixels wide gets the compact (portrait) layout.
pub fn compact_at(width_px: f64) -> bool {
    width_px < NARROW_PX
}

/// How far from the middle the dense layout's two columns of brokers stand.
pub const DENSE_DX: f64 = 110.0;

/// Whether the graph takes its dense layout: a narrow screen and four brokers or more, in two
/// columns under ZooKeeper, with its type a little bigger so that it stays 12 px or more on
/// a phone.
pub fn dense(compact: bool, brokers: usize) -> bool {
    compact && brokers >= 4
}

/// The most brokers the row layout puts in its one row (see [`Layout::new`]'s `row`).
pub const ROW_MAX: usize = 5;

/// How far apart the row layout's brokers stand: their labels' width and a gap.
const ROW_STEP: f64 = 2.0 * LABEL_HALF_W + 14.0;

/// Where the brokers sit: on an ellipse around ZooKeeper, the first at the top, with room
/// enough between neighbours for their labels; or, for a short, wide graph, in a row under it.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Each broker's centre, in broker order.
    pub nodes: Vec<(BrokerId, Pt)>,
    /// The SVG's `viewBox`: everything drawn fits in it.
    pub view_box: String,
    /// The `viewBox` as numbers: x, y, width, height (before rounding).
    pub view: (f64, f64, f64, f64),
    /// ZooKeeper's width.
    pub zk_w: f64,
    /// Height of the replica badges under each node (the labels sit below them).
    pub extra: f64,
    /// Where the producer is drawn, when the world has topics.
    pub producer: Option<Pt>,
    /// The consumer rows' places (consumers, then the "add" places), by centre.
    pub slots: Vec<Pt>,
    /// Each consumer's endpoint number and centre.
    pub consumers: Vec<(u32, Pt)>,
    /// The lane under the cluster that the consumers' lines follow.
    pub bus_y: f64,
    /// Each place's own lane: the first row's is `bus_y`; a later row's runs above it.
    pub lanes: Vec<f64>,
    /// Where the consumer rows start and end, across.
    pub rows_x: (f64, f64),
    /// The middle of the consumers, across.
    pub consumers_x: f64,
    /// What a consumer's line must go around: ZooKeeper (with a margin), each broker with
    /// its labels, the producer.
    pub obstacles: Vec<Rect>,
    /// Whether this is the compact (portrait) layout.
    pub compact: bool,
    /// Whether the brokers stand in one row under ZooKeeper (the row layout).
    pub row: bool,
}

impl Layout {
    /// Wide screens get a landscape ellipse; narrow ones (`compact`) a portrait one, so the
    /// labels stay legible when the graph is scaled down to a phone's width. `extra` is the
    /// height of the replica badges under every node: the nodes above ZooKeeper move up by
    /// as much. `with_producer` keeps a place for the producer; `slots` are the consumers'
    /// endpoint numbers and `adds` the number of "add a consumer" places after them.
    ///
    /// `row` (wide layouts only, up to [`ROW_MAX`] brokers) stands the brokers in one row
    /// under ZooKeeper instead: about half as tall as the ellipse, for a graph area much
    /// wider than tall (an embed beside its log), where the ellipse would be scaled down to
    /// type of 6 or 7 px.
    pub fn new(
        ids: &[BrokerId],
        compact: bool,
        row: bool,
        extra: f64,
        with_producer: bool,
        slots: &[u32],
        adds: usize,
    ) -> Layout {
        let count = ids.len().max(1);
        let n = count as f64;
        // The longest znode line is "/brokers/ids: [1,2,…,n]" when every broker is registered.
        let chars = 15.0 + 2.0 * n;
        // The dense layout draws the znodes bigger (see `dense`).
        let per_char = match (compact, dense(compact, count)) {
            (true, true) => 10.4,
            (true, false) => 8.9,
            (false, _) => 8.2,
        };
        let zk_w = (chars * per_char + 34.0).max(ZK_MIN_W);
        let on_ellipse = |rx: f64, ry: f64, start: f64| -> Vec<Pt> {
            (0..count)
                .map(|k| {
                    let a = start + k as f64 * 2.0 * PI / n;
                    Pt {
                        x: rx * trig::cos(a),
                        y: ry * trig::sin(a),
                    }
                })
                .collect()
        };
        let top = -PI / 2.0;
        let row = row && !compact && count <= ROW_MAX;
        let points = if row {
            // Under ZooKeeper, their crowns clear of its box, centred.
            (0..count)
                .map(|k| Pt {
                    x: (k as f64 - (n - 1.0) / 2.0) * ROW_STEP,
                    y: ZK_H / 2.0 + 18.0 + ABOVE,
                })
                .collect()
        } else if compact {
            match count {
                1 | 2 => on_ellipse(0.0, 210.0, top),
                // A phone's default: one broker above ZooKeeper, two below, close enough to read.
                3 => vec![
                    Pt { x: 0.0, y: -222.0 },
                    Pt { x: 112.0, y: 164.0 },
                    Pt {
                        x: -112.0,
                        y: 164.0,
                    },
                ],
                // Two columns under ZooKeeper, row by row (an odd last one in the middle): a
                // phone's width holds two brokers with their labels at a readable size.
                _ => {
                    let step = ABOVE + below(true) + extra + 12.0;
                    (0..count)
                        .map(|k| {
                            let (row, col) = (k / 2, k % 2);
                            let alone = k + 1 == count && col == 0;
                            Pt {
                                x: if alone {
                                    0.0
                                } else if col == 0 {
                                    -DENSE_DX
                                } else {
                                    DENSE_DX
                                },
                                y: ZK_H / 2.0 + 16.0 + ABOVE + row as f64 * step,
                            }
                        })
                        .collect()
                }
            }
        } else {
            let spacing = 200.0;
            let r = if count < 2 {
                215.0
            } else {
                (spacing / (2.0 * trig::sin(PI / n))).max(215.0)
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
            if dense(compact, count) {
                // Above ZooKeeper at the left, inside the columns' width.
                let at = Pt {
                    x: x0.min(-zk_w / 2.0) + w / 2.0,
                    y: -ZK_H / 2.0 - 14.0 - h / 2.0,
                };
                y0 = y0.min(at.y - h / 2.0);
                taken.push((
                    at.x - w / 2.0,
                    at.y - h / 2.0,
                    at.x + w / 2.0,
                    at.y + h / 2.0,
                ));
                return at;
            }
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
            let per_row = if dense(compact, ids.len()) {
                // As wide as the two columns, no wider.
                (((x1 - x0) / g.slot).floor() as usize).max(1)
            } else {
                fit.max(if compact { 3 } else { 4 })
            };
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
            view: (0.0, 0.0, 0.0, 0.0),
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
            row,
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
        layout.view = (x0 - pad, y0 - pad, x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad);
        let (vx, vy, vw, vh) = layout.view;
        layout.view_box = format!(
            "{} {} {} {}",
            Fixed(vx, 0),
            Fixed(vy, 0),
            Fixed(vw, 0),
            Fixed(vh, 0)
        );
        layout
    }

    /// The way from the consumer centred at `c` to broker `b`: up to the lane under the
    /// cluster, along it, up a gutter beside the broker that nothing stands in, and into
    /// the broker's side. Of the two sides, the one with fewer collisions, then the one
    /// nearer the consumers' middle.
    pub fn consumer_route(&self, c: Pt, b: BrokerId) -> Option<Path> {
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
        // The dense layout keeps its gutters close, to stay narrow.
        let gap = if dense(self.compact, self.nodes.len()) {
            6.0
        } else {
            14.0
        };
        for side in [-1.0, 1.0] {
            let mut xg = bp.x + side * (LABEL_HALF_W + gap);
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
                    Some(edge) => xg = edge + side * gap,
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

    /// Where the graph's own words are: each broker's circle, the crown and badge above it,
    /// its replica badges and lines below; ZooKeeper's box; the producer's; each consumer's. A
    /// message's name is drawn only clear of them (see `graph::parts::flights`).
    pub fn words(&self) -> Vec<Rect> {
        let r = NODE_R + 4.0;
        let mut out = Vec::new();
        for (_, p) in &self.nodes {
            out.push((p.x - r, p.y - r, p.x + r, p.y + r));
            out.push((p.x - 80.0, p.y - ABOVE, p.x + 80.0, p.y - r));
            out.push((
                p.x - LABEL_HALF_W,
                p.y + r,
                p.x + LABEL_HALF_W,
                p.y + below(self.compact) + self.extra,
            ));
        }
        // ZooKeeper's box (the first obstacle, less its margin), and the producer's.
        out.extend(
            self.obstacles
                .first()
                .map(|z| (z.0 + 10.0, z.1 + 10.0, z.2 - 10.0, z.3 - 10.0)),
        );
        out.extend(self.obstacles.iter().skip(1 + self.nodes.len()).copied());
        let g = consumer_geo(self.compact);
        out.extend(self.slots.iter().map(|c| {
            (
                c.x - g.w / 2.0,
                c.y - g.above,
                c.x + g.w / 2.0,
                c.y + g.below,
            )
        }));
        out
    }

    /// Where an endpoint is drawn, by its centre (ZooKeeper's is the origin).
    pub fn centre(&self, e: Endpoint) -> Option<Pt> {
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
    pub fn path(&self, from: Endpoint, to: Endpoint) -> Option<Path> {
        let compact = self.compact;
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
    pub fn spoke(&self, p: Pt) -> Path {
        Path::Line(self.zk_edge(p), node_edge(p, Pt { x: 0.0, y: 0.0 }))
    }

    /// Where the ray from ZooKeeper's centre towards `towards` leaves ZooKeeper's box.
    pub fn zk_edge(&self, towards: Pt) -> Pt {
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
    /// In the row layout it bows up towards ZooKeeper instead (under the row are the brokers'
    /// words): a little between neighbours, and over the crowns of the brokers between
    /// farther ones, still under ZooKeeper's box.
    pub fn chord(&self, a: Pt, b: Pt) -> Path {
        let mid = a.lerp(b, 0.5);
        let d = Pt {
            x: b.x - a.x,
            y: b.y - a.y,
        };
        let l = d.len().max(1e-9);
        if self.row {
            let bow = if l < 1.5 * ROW_STEP {
                40.0
            } else {
                2.0 * (ABOVE + 4.0)
            };
            let c = Pt {
                x: mid.x,
                y: mid.y - bow,
            };
            return Path::Quad(node_edge(a, c), c, node_edge(b, c));
        }
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

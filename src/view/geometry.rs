//! The graph's geometry: points, boxes and paths in the SVG's coordinates (ZooKeeper's
//! centre is the origin, y grows downwards), the sizes of every shape, and the `d` strings
//! the paths are drawn with.

use super::trig;
use crate::text::numbers::{Fixed, Short};
use std::f64::consts::PI;
use std::fmt;

/// Radius of a broker's circle.
pub const NODE_R: f64 = 38.0;
/// ZooKeeper's box: its width at least (it grows to fit `/brokers/ids`).
pub const ZK_MIN_W: f64 = 224.0;
/// ZooKeeper's box: its height.
pub const ZK_H: f64 = 112.0;
/// Room a broker needs around its centre: half the width of its labels.
pub const LABEL_HALF_W: f64 = 106.0;
/// Room a broker needs above its centre: crown and badge.
pub const ABOVE: f64 = NODE_R + 52.0;

/// Line height of the labels under a node (the compact layout draws them bigger).
pub fn line_h(compact: bool) -> f64 {
    if compact {
        21.0
    } else {
        17.0
    }
}

/// Room under a node's centre for four lines of labels.
pub fn below(compact: bool) -> f64 {
    NODE_R + 24.0 + 3.0 * line_h(compact) + 8.0
}

/// Replica badges: where the first row starts under a node's centre.
pub const BADGE_TOP: f64 = NODE_R + 17.0;
/// Replica badges: the widest a row may be.
pub const BADGE_ROW_W: f64 = 2.0 * LABEL_HALF_W - 8.0;
/// Room between two replica badges, across and down.
pub const BADGE_GAP: f64 = 5.0;

/// A badge's height.
pub fn badge_h(compact: bool) -> f64 {
    if compact {
        27.0
    } else {
        20.0
    }
}

/// A text's width in Latin characters, for the width estimates: a CJK character or
/// full-width punctuation mark is drawn an em wide, about 1.7 Latin characters.
pub fn text_units(text: &str) -> f64 {
    text.chars()
        .map(|c| {
            let wide = ('\u{2e80}'..='\u{9fff}').contains(&c)
                || ('\u{f900}'..='\u{faff}').contains(&c)
                || ('\u{ff00}'..='\u{ff60}').contains(&c);
            if wide {
                1.7
            } else {
                1.0
            }
        })
        .sum()
}

/// The width of one character of a badge's text (an estimate for layout).
pub fn badge_char_w(compact: bool) -> f64 {
    if compact {
        10.6
    } else {
        7.3
    }
}

/// The producer's box: width and height.
pub fn producer_size(compact: bool) -> (f64, f64) {
    if compact {
        (104.0, 54.0)
    } else {
        (124.0, 46.0)
    }
}

/// A consumer node's geometry: its box, its slot in the row, the leader's badge above it,
/// the state line and up to [`CHIP_ROWS`] rows of partition chips below it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConsumerGeo {
    /// The box's width.
    pub w: f64,
    /// The box's height.
    pub h: f64,
    /// The width of its place in the row.
    pub slot: f64,
    /// The height of the leader's badge.
    pub pill_h: f64,
    /// Room above its centre.
    pub above: f64,
    /// The state line, under the box's bottom edge.
    pub state_dy: f64,
    /// Where the chips start, under its centre.
    pub chips_top: f64,
    /// A chip's height.
    pub chip_h: f64,
    /// The width of one character of a chip's text.
    pub chip_cw: f64,
    /// A chip's padding across.
    pub chip_pad: f64,
    /// Room below its centre.
    pub below: f64,
}

/// Rows of partition chips a consumer shows at most.
pub const CHIP_ROWS: usize = 2;
/// Room between two rows of consumers, where a later row's lane runs.
pub const ROW_GAP: f64 = 22.0;
/// How far beyond the rows' ends a later row's lane rises to the first.
pub const RISER_GAP: f64 = 12.0;
/// Room between two partition chips.
pub const CHIP_GAP: f64 = 4.0;

/// A consumer node's geometry, in the wide or the compact layout.
pub fn consumer_geo(compact: bool) -> ConsumerGeo {
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

/// A point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pt {
    /// Across, rightwards.
    pub x: f64,
    /// Down.
    pub y: f64,
}

impl Pt {
    /// The point a fraction `t` of the way to `o`.
    pub fn lerp(self, o: Pt, t: f64) -> Pt {
        Pt {
            x: self.x + (o.x - self.x) * t,
            y: self.y + (o.y - self.y) * t,
        }
    }

    /// The length of the vector to this point.
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

/// The distance between two points.
pub fn dist(a: Pt, b: Pt) -> f64 {
    Pt {
        x: b.x - a.x,
        y: b.y - a.y,
    }
    .len()
}

/// An axis-aligned box: x0, y0, x1, y1.
pub type Rect = (f64, f64, f64, f64);

/// Whether two boxes overlap (touching is not overlapping).
pub fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The point on the circle around `centre` facing `towards`.
pub fn node_edge(centre: Pt, towards: Pt) -> Pt {
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

/// The line from the producer's box at `p` to the broker at `b`.
pub fn producer_link(p: Pt, b: Pt, compact: bool) -> Path {
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

/// A point as SVG writes it (path data, a `translate`): `x,y`, each to one decimal.
pub fn xy(p: Pt) -> impl fmt::Display {
    struct Xy(Pt);
    impl fmt::Display for Xy {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{},{}", Fixed(self.0.x, 1), Fixed(self.0.y, 1))
        }
    }
    Xy(p)
}

/// A clockwise arc from 12 o'clock covering fraction `f` of a circle of radius `r`.
pub fn arc(r: f64, f: f64) -> String {
    let top = Fixed(-r, 1);
    if f >= 0.999 {
        let (bottom, r) = (Fixed(r, 1), Short(r));
        return format!("M0,{top} A{r},{r} 0 1 1 0,{bottom} A{r},{r} 0 1 1 0,{top}");
    }
    let a = -PI / 2.0 + f * 2.0 * PI;
    let end = Pt {
        x: r * trig::cos(a),
        y: r * trig::sin(a),
    };
    let large = if f > 0.5 { 1 } else { 0 };
    format!("M0,{top} A{r},{r} 0 {large} 1 {}", xy(end), r = Short(r))
}

/// A link or a message's way.
#[derive(Debug, Clone, PartialEq)]
pub enum Path {
    /// A straight line.
    Line(Pt, Pt),
    /// A quadratic curve: start, control point, end.
    Quad(Pt, Pt, Pt),
    /// Straight stretches through these points, drawn with rounded corners.
    Poly(Vec<Pt>),
}

/// The radius of a polyline's rounded corners.
pub const CORNER_R: f64 = 12.0;

impl Path {
    /// The point a fraction `t` of the way along (by length for a polyline).
    pub fn at(&self, t: f64) -> Pt {
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

    /// The same way, the other way round.
    pub fn reversed(self) -> Path {
        match self {
            Path::Line(a, b) => Path::Line(b, a),
            Path::Quad(a, c, b) => Path::Quad(b, c, a),
            Path::Poly(mut points) => {
                points.reverse();
                Path::Poly(points)
            }
        }
    }

    /// The SVG path data, to one decimal.
    pub fn d(&self) -> String {
        match self {
            Path::Line(a, b) => format!("M{} L{}", xy(*a), xy(*b)),
            Path::Quad(a, c, b) => format!("M{} Q{} {}", xy(*a), xy(*c), xy(*b)),
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
                let mut d = format!("M{}", xy(*first));
                for i in 1..pts.len() {
                    let p = pts[i];
                    if i + 1 < pts.len() {
                        let (a, b) = (pts[i - 1], pts[i + 1]);
                        let r = CORNER_R.min(dist(a, p) / 2.0).min(dist(p, b) / 2.0);
                        let before = p.lerp(a, r / dist(a, p).max(1e-9));
                        let after = p.lerp(b, r / dist(p, b).max(1e-9));
                        d.push_str(&format!(" L{} Q{} {}", xy(before), xy(p), xy(after)));
                    } else {
                        d.push_str(&format!(" L{}", xy(p)));
                    }
                }
                d
            }
        }
    }
}

//! The layout of the default cluster at a phone's width (360 px) and a desktop's (1440 px):
//! exact places, nothing overlapping, everything inside the `viewBox`.

use super::frame::{default_world, layout_of};
use super::geometry::{consumer_geo, overlaps, Pt, Rect};
use super::layout::{compact_at, Layout};

const EPS: f64 = 1e-9;

fn near(a: Pt, x: f64, y: f64) -> bool {
    (a.x - x).abs() < EPS && (a.y - y).abs() < EPS
}

/// Every box the layout places: ZooKeeper, each broker with its labels, the producer, then
/// each consumer or "add" place with its badge above and its chips below.
fn boxes(l: &Layout) -> Vec<Rect> {
    let g = consumer_geo(l.compact);
    let mut all = l.obstacles.clone();
    // The consumers' lines keep 10 px off ZooKeeper; the brokers' labels may come closer.
    let zk = all[0];
    assert_eq!(zk, (-l.zk_w / 2.0 - 10.0, -66.0, l.zk_w / 2.0 + 10.0, 66.0));
    all[0] = (zk.0 + 10.0, zk.1 + 10.0, zk.2 - 10.0, zk.3 - 10.0);
    all.extend(l.slots.iter().map(|c| {
        (
            c.x - g.slot / 2.0,
            c.y - g.above,
            c.x + g.slot / 2.0,
            c.y + g.below,
        )
    }));
    all
}

fn assert_apart_and_inside(l: &Layout) {
    let all = boxes(l);
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(!overlaps(*a, *b), "{a:?} overlaps {b:?}");
        }
    }
    let (vx, vy, vw, vh) = l.view;
    // The "add" place is only as tall as its box and its group's name: its chips' room may
    // run below the view.
    let g = consumer_geo(l.compact);
    let add_bottom = g.h / 2.0 + g.state_dy + 6.0;
    for (k, r) in all.iter().enumerate() {
        let bottom = if k >= l.obstacles.len() + l.consumers.len() {
            r.1 + g.above + add_bottom
        } else {
            r.3
        };
        assert!(
            r.0 >= vx && r.1 >= vy && r.2 <= vx + vw && bottom <= vy + vh,
            "{r:?} outside the view {:?}",
            l.view
        );
    }
}

#[test]
fn a_phone_gets_the_compact_layout_and_a_desktop_the_wide_one() {
    assert!(compact_at(360.0));
    assert!(compact_at(699.0));
    assert!(!compact_at(700.0));
    assert!(!compact_at(1440.0));
}

#[test]
fn default_cluster_at_360_px() {
    let l = layout_of(&default_world(), compact_at(360.0));
    assert!(l.compact);
    // One broker above ZooKeeper, two below.
    let ids: Vec<u32> = l.nodes.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [1, 2, 3]);
    assert!(near(l.nodes[0].1, 0.0, -222.0));
    assert!(near(l.nodes[1].1, 112.0, 164.0));
    assert!(near(l.nodes[2].1, -112.0, 164.0));
    assert_eq!(l.zk_w, 224.0);
    assert_eq!(l.extra, 0.0, "no partition exists at t = 0: no badges");
    assert!(near(
        l.producer.expect("a place for the producer"),
        -182.0,
        0.0
    ));
    assert_eq!(l.slots.len(), 1, "the group's \"add\" place");
    assert!(near(l.slots[0], 0.0, 389.0));
    assert_eq!(l.bus_y, 313.0);
    assert_eq!(l.view_box, "-242 -318 484 769");
    assert_eq!(l.view, (-242.0, -318.0, 484.0, 769.0));
    assert_apart_and_inside(&l);
}

#[test]
fn default_cluster_at_1440_px() {
    let l = layout_of(&default_world(), compact_at(1440.0));
    assert!(!l.compact);
    // A landscape ellipse: the first broker at the top, the others below either side.
    assert!(near(l.nodes[0].1, 0.0, -184.9));
    assert!(near(l.nodes[1].1, 223.434_554_176_385_18, 92.45));
    assert!(near(l.nodes[2].1, -223.434_554_176_385_12, 92.45));
    assert!(near(
        l.producer.expect("a place for the producer"),
        -192.0,
        -27.6
    ));
    assert!(near(l.slots[0], 0.0, 296.45));
    assert_eq!(l.view_box, "-353 -281 689 630");
    assert_apart_and_inside(&l);
}

/// The default world with consumers c1 to c5 joined at 2 s, at 15 s: every broker has
/// badges, and the group two rows.
fn five_consumers_at_15_s() -> crate::sim::World {
    let mut w = default_world();
    w.advance_to(2_000);
    for m in ["c1", "c2", "c3", "c4", "c5"] {
        w.apply(crate::sim::Command::Join {
            group: "my-group".into(),
            member: m.into(),
        })
        .expect("join");
    }
    w.advance_to(15_000);
    w
}

#[test]
fn running_cluster_with_badges_and_consumers_stays_apart_at_both_widths() {
    let w = five_consumers_at_15_s();
    for width in [360.0, 1440.0] {
        let l = layout_of(&w, compact_at(width));
        // Two rows of badges under every broker push the top broker up.
        assert_eq!(l.extra, if l.compact { 68.0 } else { 54.0 });
        assert_eq!(l.consumers.len(), 5);
        assert_eq!(l.slots.len(), 6, "five consumers and the \"add\" place");
        assert_apart_and_inside(&l);
    }
    // At 360 px three to a row: the later rows have lanes of their own.
    let l = layout_of(&w, true);
    assert_eq!(l.lanes.iter().filter(|y| **y == l.bus_y).count(), 3);
    assert!(near(l.nodes[0].1, 0.0, -222.0 - 68.0));
}

#[test]
fn nine_brokers_on_a_phone_stand_in_two_columns_narrow_enough_to_read() {
    use crate::sim::Profile;
    use crate::view::setup::{free_setup, DEFAULT_SEED};
    let (setup, _) = free_setup(
        DEFAULT_SEED,
        Profile::default(),
        (9, 3, 3),
        crate::sim::assignors::Assignor::Range,
    );
    let mut w = crate::sim::World::new(&setup);
    w.advance_to(5_000);
    let l = layout_of(&w, true);
    let xs: Vec<f64> = l.nodes.iter().map(|(_, p)| p.x).collect();
    assert_eq!(
        xs,
        [-110.0, 110.0, -110.0, 110.0, -110.0, 110.0, -110.0, 110.0, 0.0]
    );
    assert!(
        l.nodes.windows(2).all(|p| p[0].1.y <= p[1].1.y),
        "row by row"
    );
    // At most 470 across: in a phone's 340 px the type is drawn at 0.72 of its size or more.
    assert!(l.view.2 <= 470.0, "{:?}", l.view);
    assert_apart_and_inside(&l);
    // Four brokers take it too; three keep the phone's own layout.
    assert!(crate::view::layout::dense(true, 4));
    assert!(!crate::view::layout::dense(true, 3));
    assert!(!crate::view::layout::dense(false, 9));
}

/// The layout the graph draws for `world` in a box `w` × `h` CSS px (an embed's graph).
fn layout_in_box(world: &crate::sim::World, compact: bool, w: f64, h: f64) -> Layout {
    super::frame::with_view(world, compact, |v| {
        let mut v = v.clone();
        v.area = Some((w, h));
        super::graph::layout(&v)
    })
}

/// The scale at which `l` fits a box `w` × `h` (the SVG's "meet").
fn fit(l: &Layout, w: f64, h: f64) -> f64 {
    (w / l.view.2).min(h / l.view.3)
}

#[test]
fn a_short_wide_box_gets_the_brokers_in_a_row_under_zookeeper() {
    // The README's embed at 1440 px: the graph's box beside the log is 974 × 352.
    let w = default_world();
    let ring = layout_of(&w, false);
    let row = layout_in_box(&w, false, 974.0, 352.0);
    assert!(!ring.row);
    assert!(row.row);
    assert!(!row.compact);
    let xs: Vec<f64> = row.nodes.iter().map(|(_, p)| p.x).collect();
    assert_eq!(xs, [-226.0, 0.0, 226.0], "centred, a label's width apart");
    assert!(
        row.nodes.iter().all(|(_, p)| near(*p, p.x, 164.0)),
        "one row"
    );
    assert!(
        row.nodes.iter().all(|(_, p)| p.y - 90.0 > 56.0),
        "crowns below ZooKeeper's box"
    );
    assert_apart_and_inside(&row);
    // Drawn about 1.4 times as big as the ellipse would be in the same box.
    let gain = fit(&row, 974.0, 352.0) / fit(&ring, 974.0, 352.0);
    assert!(
        gain > 1.3,
        "{gain} ({:?} against {:?})",
        row.view,
        ring.view
    );
    // The default page's box is not asked: the ellipse, as before.
    assert_eq!(ring.view_box, "-353 -281 689 630");
}

#[test]
fn a_square_box_a_phone_and_a_big_cluster_keep_their_layouts() {
    let w = default_world();
    assert!(!layout_in_box(&w, false, 600.0, 600.0).row, "a square box");
    assert!(
        !layout_in_box(&w, true, 974.0, 352.0).row,
        "the phone's layout"
    );
    use crate::sim::Profile;
    use crate::view::setup::{free_setup, DEFAULT_SEED};
    let (setup, _) = free_setup(
        DEFAULT_SEED,
        Profile::default(),
        (6, 3, 3),
        crate::sim::assignors::Assignor::Range,
    );
    let six = crate::sim::World::new(&setup);
    assert!(
        !layout_in_box(&six, false, 2000.0, 300.0).row,
        "more than ROW_MAX"
    );
}

#[test]
fn the_row_keeps_badges_consumers_and_the_producer_apart() {
    let w = five_consumers_at_15_s();
    let l = layout_in_box(&w, false, 1400.0, 500.0);
    assert!(l.row);
    assert_eq!(l.extra, 54.0, "two rows of badges");
    assert!(l.producer.is_some());
    assert_eq!(l.consumers.len(), 5);
    assert_apart_and_inside(&l);
    // Every consumer's line reaches its broker's side.
    for (id, _) in &l.nodes {
        assert!(l.consumer_route(l.slots[0], *id).is_some());
    }
}

#[test]
fn in_the_row_a_message_between_far_brokers_passes_over_the_crowns_between() {
    let l = layout_in_box(&default_world(), false, 974.0, 352.0);
    let (a, b) = (l.nodes[0].1, l.nodes[2].1);
    let path = l.path(
        crate::sim::Endpoint::Broker(1),
        crate::sim::Endpoint::Broker(3),
    );
    let top = (0..=20)
        .map(|k| path.as_ref().expect("a path").at(k as f64 / 20.0).y)
        .fold(f64::INFINITY, f64::min);
    // Above broker 2's crown (90 px over its centre), under ZooKeeper's box (56).
    assert!(top < a.y - 90.0 && top > 56.0, "apex at {top}");
    assert!(near(l.nodes[1].1, 0.0, a.y) && near(b, 226.0, a.y));
    // Neighbours: a shallow curve, up.
    let near_path = l
        .path(
            crate::sim::Endpoint::Broker(1),
            crate::sim::Endpoint::Broker(2),
        )
        .expect("a path");
    let mid = near_path.at(0.5);
    assert!(mid.y < a.y && mid.y > a.y - 40.0, "{mid:?}");
}

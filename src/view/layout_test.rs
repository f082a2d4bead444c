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

#[test]
fn running_cluster_with_badges_and_consumers_stays_apart_at_both_widths() {
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

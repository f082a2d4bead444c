//! The group in `__consumer_offsets`: the stored record, a reload on a new leader, and a
//! coordinator that loses its offsets partition.

use super::harness::{kinds, Harness};
use super::state::GroupState;
use crate::sim::config::Profile;

#[test]
fn the_stored_member_order_is_the_map_order_and_a_reload_adds_them_back_in_it() {
    // c-6 and c-12 share bucket 4 under Scala 2.12. Added c-6 then c-12, the map yields
    // c-12 first (newest first); the record lists them so; loadGroup adds c-12, then c-6,
    // so the reloaded map yields c-6 first.
    let mut h = Harness::new(Profile::V2_4);
    h.join_new(0, 1, "c1", "c-6");
    h.join_new(1_000, 2, "c2", "c-12");
    h.advance(6_000);
    assert_eq!(h.group().order.keys(), ["c-12", "c-6"]);
    h.sync(6_100, 1, "c-6", Vec::new());
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
    let tp = h.node.tp();
    let record = h.node.last_record();
    let stored: Vec<&str> = record
        .members
        .iter()
        .map(|m| m.member_id.as_str())
        .collect();
    assert_eq!(stored, ["c-12", "c-6"]);
    assert_eq!(record.joined_order, ["c-6", "c-12"]);
    let (out, appended) = h.node.input(20_000, |c| c.load_groups(&tp));
    assert!(appended.is_empty());
    assert_eq!(kinds(&out), ["coordinator_moved"]);
    let g = h.group();
    assert_eq!(g.order.keys(), ["c-6", "c-12"]);
    assert_eq!(g.joined_order, ["c-6", "c-12"]);
    assert_eq!(
        (g.state, g.generation, g.leader.as_deref()),
        (GroupState::Stable, 1, Some("c-6"))
    );
}

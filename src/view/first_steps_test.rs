//! The default produce target, from states of the default cluster.

use super::first_steps::default_produce_target;
use super::format::{is_internal, partition_list};
use super::frame::default_world;

#[test]
fn the_default_stream_goes_to_a_partition_the_controller_does_not_lead() {
    let mut w = default_world();
    let user: Vec<_> = partition_list(w.topics())
        .into_iter()
        .filter(|r| !is_internal(&r.topic))
        .collect();
    // Before the topic exists: the first partition.
    assert_eq!(
        default_produce_target(&w.state(), &user).as_deref(),
        Some("orders-0")
    );
    w.advance_to(5_000);
    let s = w.state();
    // Broker 1 is the controller and leads orders-0; orders-1 is led by broker 2.
    assert_eq!(s.controller, Some(1));
    assert_eq!(s.partitions["orders-0"].leader, 1);
    assert_eq!(s.partitions["orders-1"].leader, 2);
    assert_eq!(
        default_produce_target(&s, &user).as_deref(),
        Some("orders-1")
    );
    // Only partitions the controller leads: the first.
    assert_eq!(
        default_produce_target(&s, &user[..1]).as_deref(),
        Some("orders-0")
    );
    assert_eq!(default_produce_target(&s, &[]), None);
}

//! The network, one message at a time: latency with seeded jitter, per-link order, cut links,
//! lost messages and the records kept for the page.

use super::label::Label;
use super::net::{Endpoint, Envelope, Network, Sent, MESSAGE_HISTORY};
use super::rng::Rng;

const ZK: Endpoint = Endpoint::Zk;
const B1: Endpoint = Endpoint::Broker(1);
const B2: Endpoint = Endpoint::Broker(2);

fn envelope(from: Endpoint, to: Endpoint, label: &str) -> Envelope {
    Envelope {
        from,
        to,
        words: Label::Name(label.into()),
        class: "request",
        reply: false,
        empty_fetch: false,
    }
}

#[test]
fn a_message_arrives_after_the_latency_plus_a_jitter_from_the_world_rng() {
    let mut net = Network::default();
    let mut rng = Rng::new(7);
    let jitter = Rng::new(7).up_to(20);
    let sent = net.send(1000, envelope(B1, B2, "Fetch"), 5, 20, &mut rng);
    assert_eq!(
        sent,
        Sent {
            id: 0,
            arrive_ms: Some(1005 + jitter)
        }
    );
    let record = net.messages().next().unwrap();
    assert_eq!(
        (record.id, record.sent_ms, record.arrive_ms, record.dropped),
        (0, 1000, 1005 + jitter, false)
    );
    assert_eq!(record.label, "Fetch");
}

#[test]
fn a_message_to_oneself_arrives_at_once_and_draws_nothing() {
    let mut net = Network::default();
    let mut rng = Rng::new(3);
    let sent = net.send(40, envelope(B1, B1, "self"), 5, 20, &mut rng);
    assert_eq!(sent.arrive_ms, Some(40));
    assert_eq!(rng.next_u64(), Rng::new(3).next_u64());
}

#[test]
fn messages_on_one_directed_link_arrive_in_the_order_sent() {
    let mut net = Network::default();
    let mut rng = Rng::new(11);
    let mut arrivals = Vec::new();
    for i in 0..50 {
        let sent = net.send(i, envelope(B1, ZK, "ping"), 1, 100, &mut rng);
        arrivals.push(sent.arrive_ms.unwrap());
    }
    assert!(arrivals.windows(2).all(|w| w[0] <= w[1]), "{arrivals:?}");
    // Some were held back behind a slower one sent before them (the seed decides which).
    assert!(arrivals.windows(2).any(|w| w[0] == w[1]), "{arrivals:?}");
    // The other direction is another connection: its first message is not held back.
    let back = net.send(49, envelope(ZK, B1, "pong"), 1, 0, &mut rng);
    assert_eq!(back.arrive_ms, Some(50));
}

#[test]
fn a_cut_link_drops_what_is_sent_and_heal_resets_the_zookeeper_connection() {
    let mut net = Network::default();
    let mut rng = Rng::new(1);
    net.cut(ZK, B2);
    assert!(net.is_cut(B2, ZK));
    let sent = net.send(10, envelope(B2, ZK, "ping"), 5, 0, &mut rng);
    assert_eq!(
        sent,
        Sent {
            id: 0,
            arrive_ms: None
        }
    );
    assert!(net.messages().next().unwrap().dropped);
    assert_eq!(net.heal(B2, ZK), Some(2));
    assert!(!net.is_cut(ZK, B2));
    // Healed again with nothing lost meanwhile: no reset.
    net.cut(ZK, B2);
    assert_eq!(net.heal(ZK, B2), None);
    // A link between brokers resets no ZooKeeper connection.
    net.cut(B1, B2);
    let _ = net.send(11, envelope(B1, B2, "Fetch"), 5, 0, &mut rng);
    assert_eq!(net.heal(B1, B2), None);
}

#[test]
fn a_message_lost_in_flight_is_marked_dropped() {
    let mut net = Network::default();
    let mut rng = Rng::new(1);
    let sent = net.send(0, envelope(ZK, B1, "watch"), 5, 0, &mut rng);
    assert_eq!(sent.arrive_ms, Some(5));
    net.cut(ZK, B1);
    net.lose(sent.id, ZK, B1);
    assert!(net.messages().next().unwrap().dropped);
    assert_eq!(net.heal(ZK, B1), Some(1));
}

#[test]
fn the_network_keeps_the_latest_records() {
    let mut net = Network::default();
    let mut rng = Rng::new(1);
    for i in 0..(MESSAGE_HISTORY as u64 + 5) {
        net.send(i, envelope(B1, B2, "Fetch"), 1, 0, &mut rng);
    }
    assert_eq!(net.messages().len(), MESSAGE_HISTORY);
    assert_eq!(net.messages().next().unwrap().id, 5);
    assert_eq!(net.messages_since(10).next().unwrap().id, 10);
    assert_eq!(net.messages_since(0).len(), MESSAGE_HISTORY);
    assert_eq!(net.messages_since(u64::MAX).len(), 0);
}

#[test]
fn records_are_found_by_id_past_a_message_that_never_went_on_the_wire() {
    let mut net = Network::default();
    let mut rng = Rng::new(1);
    net.send(0, envelope(B1, B2, "a"), 1, 0, &mut rng);
    // The reset of a ZooKeeper connection after a heal takes an id and leaves no record.
    assert_eq!(net.next_id(), 1);
    let c = net.send(0, envelope(B1, B2, "c"), 1, 0, &mut rng);
    let d = net.send(0, envelope(B1, B2, "d"), 1, 0, &mut rng);
    assert_eq!((c.id, d.id), (2, 3));
    net.mark_dropped(c.id);
    let dropped: Vec<(u64, bool)> = net.messages().map(|m| (m.id, m.dropped)).collect();
    assert_eq!(dropped, vec![(0, false), (2, true), (3, false)]);
    let since: Vec<u64> = net.messages_since(2).map(|m| m.id).collect();
    assert_eq!(since, vec![2, 3]);
    let since: Vec<u64> = net.messages_since(1).map(|m| m.id).collect();
    assert_eq!(since, vec![2, 3]);
    // An id without a record marks nothing.
    net.mark_dropped(1);
    assert_eq!(net.messages().filter(|m| m.dropped).count(), 1);
}

#[test]
fn only_a_fetch_answered_with_no_records_is_an_empty_fetch() {
    use crate::sim::log::Run;
    use crate::sim::message::{Body, FetchData};
    use crate::sim::topic::TopicPartition;
    let answer = |runs: Vec<Run>| Body::FetchResponse {
        correlation_id: 1,
        partitions: vec![FetchData {
            tp: TopicPartition::new("T", 0),
            error: None,
            hw: 4,
            leader_leo: 6,
            runs,
            epoch_end: None,
            payloads: Vec::new(),
            batches: Vec::new(),
        }],
    };
    assert!(answer(Vec::new()).is_empty_fetch_response());
    let records = Run {
        epoch: 1,
        start: 4,
        end: 6,
    };
    assert!(!answer(vec![records]).is_empty_fetch_response());
    assert!(!Body::ConnectionLoss.is_empty_fetch_response());
}

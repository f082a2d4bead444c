//! The default page's first frame, rendered natively.

use super::frame::{default_world, first_frame, first_frame_svg};
use super::graph::Press;
use crate::sim::Command;

#[test]
fn the_default_world_at_t0_has_three_brokers_not_yet_started() {
    let w = default_world();
    assert_eq!(w.now(), 0);
    assert_eq!(w.broker_ids(), [1, 2, 3]);
    assert_eq!(w.topics().len(), 2, "orders and __consumer_offsets");
    assert_eq!(w.topics()[0].name, "orders");
}

#[test]
fn first_frame_draws_every_broker_zookeeper_and_the_add_place() {
    for compact in [false, true] {
        let svg = first_frame_svg(compact);
        let graph = first_frame(compact);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph"));
        assert!(svg.ends_with("</svg>"));
        assert_eq!(graph.brokers.len(), 3);
        for (id, b) in (1..=3).zip(&graph.brokers) {
            assert_eq!(b.id, id);
            let node = format!(
                "<g class=\"node\" transform=\"translate({:.1},{:.1})\" data-broker=\"{id}\" \
                 data-state=\"not_started\" role=\"button\" tabindex=\"0\" \
                 aria-label=\"Broker {id}, not started: press Enter to start it, m for its menu\">",
                b.at.x, b.at.y
            );
            assert!(svg.contains(&node), "broker {id} (compact: {compact})");
            assert!(svg.contains(&format!("aria-label=\"More actions for broker {id}\"")));
        }
        assert!(svg.contains(
            "aria-label=\"ZooKeeper: /controller: (none), /controller_epoch = 0, /brokers/ids: []\""
        ));
        assert!(svg.contains("data-testid=\"graph-add-consumer\" data-group=\"my-group\""));
        assert!(
            !svg.contains("data-producer"),
            "the producer is idle and not drawn"
        );
        assert!(svg.contains("<g class=\"flights\" aria-hidden=\"true\"/>"));
    }
}

#[test]
fn first_frame_at_a_phone_width_is_the_compact_layout() {
    let svg = first_frame_svg(true);
    assert!(svg.contains(
        "class=\"graph compact with-consumers\" viewBox=\"-242 -318 484 769\" role=\"group\" \
         aria-label=\"Cluster graph: ZooKeeper and 3 brokers\""
    ));
    assert!(svg.contains("<g class=\"node\" transform=\"translate(0.0,-222.0)\" data-broker=\"1\""));
    assert!(
        svg.contains("<g class=\"node\" transform=\"translate(112.0,164.0)\" data-broker=\"2\"")
    );
    assert!(
        svg.contains("<g class=\"node\" transform=\"translate(-112.0,164.0)\" data-broker=\"3\"")
    );
}

#[test]
fn first_frame_presses_start_the_brokers() {
    let g = first_frame(false);
    let presses: Vec<&Press> = g.brokers.iter().map(|b| &b.press).collect();
    assert_eq!(
        presses,
        [1, 2, 3]
            .map(|id| Press::Broker {
                command: Command::Start(id),
                panel: id
            })
            .iter()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        g.adds.iter().map(|a| &a.press).collect::<Vec<_>>(),
        [&Press::Add {
            group: "my-group".into()
        }]
    );
}

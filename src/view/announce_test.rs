//! The page's announcements and hints, on a real world: the key events read out, the hint
//! following the cluster.

use super::announce::{announcement, latest, latest_line, next_try};
use super::frame::default_world;
use super::menu::broker_menu;
use crate::i18n::Tr;
use crate::sim::{Command, EventKind};

#[test]
fn key_events_are_announced_and_minor_ones_are_not() {
    assert_eq!(
        announcement(
            &EventKind::ControllerElected {
                broker: 2,
                epoch: 3
            },
            &Tr::en()
        )
        .as_deref(),
        Some("Broker 2 is the new controller (controller epoch 3).")
    );
    assert_eq!(
        announcement(&EventKind::BrokerCrashed { broker: 1 }, &Tr::en()).as_deref(),
        Some("Broker 1 crashed.")
    );
    assert_eq!(
        announcement(
            &EventKind::BrokerRegistered {
                broker: 1,
                broker_epoch: 5
            },
            &Tr::en()
        ),
        None
    );
}

#[test]
fn the_first_election_is_the_latest_key_event_and_the_hint_follows_the_cluster() {
    let mut world = default_world();
    assert_eq!(latest(world.events(), &Tr::en()), None);
    assert!(next_try(&world.state(), &Tr::en()).starts_with("Wait a moment"));
    world.advance_to(3_000);
    let line = latest_line(world.events(), &Tr::en()).expect("something happened");
    assert!(line.starts_with("t = "), "{line}");
    // Internal partitions' elections are not announced; the topic's are.
    assert!(!line.contains("__consumer_offsets"), "{line}");
    let state = world.state();
    let c = state.controller.expect("a controller by 3 s");
    assert_eq!(
        next_try(&state, &Tr::en()),
        format!("Press the crowned controller, broker {c}, to crash it (its ⋯ menu has a clean shutdown).")
    );

    world.apply(Command::Crash(c)).expect("crash");
    let (_, _, said) = latest(world.events(), &Tr::en()).expect("the crash");
    assert_eq!(said, format!("Broker {c} crashed."));
    assert!(next_try(&world.state(), &Tr::en()).contains("still names it"));
    // Once its session expired another broker leads, and the hint offers the restart.
    world.advance_to(30_000);
    let state = world.state();
    let new = state.controller.expect("re-elected");
    assert_ne!(new, c);
    assert_eq!(
        next_try(&state, &Tr::en()),
        format!("Press broker {c} to start it again, or crash the controller, broker {new}.")
    );
    assert!(latest(world.events(), &Tr::en()).is_some_and(|(_, at, _)| at <= 30_000));
}

#[test]
fn a_brokers_menu_offers_what_its_panel_does() {
    let mut world = default_world();
    world.advance_to(3_000);
    let state = world.state();
    let b = &state.brokers[&2];
    let items = broker_menu(2, b, true, 20, &crate::i18n::Tr::en());
    let ids: Vec<&str> = items.iter().map(|i| i.testid).collect();
    assert_eq!(
        ids,
        [
            "menu-crash",
            "menu-shutdown",
            "menu-pause",
            "menu-expire",
            "menu-link",
            "menu-stall",
            "menu-delete-controller"
        ]
    );
    assert_eq!(items[0].command, Command::Crash(2));
    assert!(items[0].danger);
    assert_eq!(items[1].command, Command::Shutdown(2));
    assert_eq!(items[2].label, "Pause for 20 s (a long GC pause)");
    // Without partitions there is nothing to stall; a crashed broker's first item starts it.
    world.apply(Command::Crash(2)).expect("crash");
    let state = world.state();
    let items = broker_menu(2, &state.brokers[&2], false, 20, &crate::i18n::Tr::en());
    assert_eq!(items[0].command, Command::Start(2));
    assert!(!items.iter().any(|i| i.testid == "menu-stall"));
}

#[test]
fn announcements_are_in_the_readers_language() {
    let zh = crate::i18n::testing::zh();
    let kind = EventKind::BrokerCrashed { broker: 2 };
    let said = announcement(&kind, &zh).expect("a crash is announced");
    crate::i18n::testing::assert_chinese(&said, "Broker 2 crashed.");
    assert!(said.contains('2'), "{said}");
    let mut world = default_world();
    world.advance_to(3_000);
    let (_, _, first) = latest(world.events(), &zh).expect("an election by 3 s");
    let (_, _, en) = latest(world.events(), &Tr::en()).expect("an election by 3 s");
    crate::i18n::testing::assert_chinese(&first, &en);
}

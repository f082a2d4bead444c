//! A broker's menu, opened next to its node (by its "⋯", a long press, the menu key, Shift+F10
//! or `m`): the actions beyond a plain crash or start, each a command for the world. Whether
//! an action makes sense is the world's call: every item sends, and a refusal is shown.

use super::format::click_starts;
use crate::sim::{BrokerId, BrokerView, Command, Endpoint, StallScope};

/// One item of a broker's menu.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuItem {
    /// What the button says.
    pub label: String,
    /// What it sends to the world.
    pub command: Command,
    /// Its hook for the browser tests (`data-testid`).
    pub testid: &'static str,
    /// Whether it breaks something (drawn in red).
    pub danger: bool,
}

fn item(label: impl Into<String>, command: Command, testid: &'static str) -> MenuItem {
    MenuItem {
        label: label.into(),
        command,
        testid,
        danger: false,
    }
}

/// The menu of broker `id`, seen as `b`: `with_partitions` adds stalling its fetchers,
/// `pause_secs` is how long "pause" freezes it.
pub fn broker_menu(
    id: BrokerId,
    b: &BrokerView,
    with_partitions: bool,
    pause_secs: u64,
) -> Vec<MenuItem> {
    let mut items = Vec::new();
    if click_starts(b) {
        items.push(item(
            format!("Start broker {id}"),
            Command::Start(id),
            "menu-start",
        ));
    } else {
        items.push(MenuItem {
            danger: true,
            ..item(
                format!("Crash broker {id}"),
                Command::Crash(id),
                "menu-crash",
            )
        });
    }
    items.push(item(
        "Shut down cleanly (controlled shutdown)",
        Command::Shutdown(id),
        "menu-shutdown",
    ));
    items.push(item(
        format!("Pause for {pause_secs} s (a long GC pause)"),
        Command::Pause {
            broker: id,
            for_ms: pause_secs * 1000,
        },
        "menu-pause",
    ));
    items.push(item(
        "Expire its ZooKeeper session",
        Command::ExpireSession(id),
        "menu-expire",
    ));
    items.push(if b.zk_link_cut {
        item(
            "Heal its ZooKeeper link",
            Command::Heal(Endpoint::Broker(id), Endpoint::Zk),
            "menu-link",
        )
    } else {
        item(
            "Cut its ZooKeeper link",
            Command::Cut(Endpoint::Broker(id), Endpoint::Zk),
            "menu-link",
        )
    });
    if with_partitions {
        items.push(if b.stalls.contains(&StallScope::All) {
            item(
                "Resume its fetchers",
                Command::ResumeFetcher {
                    broker: id,
                    topic: None,
                    partition: None,
                },
                "menu-stall",
            )
        } else {
            item(
                "Stall its fetchers",
                Command::StallFetcher {
                    broker: id,
                    topic: None,
                    partition: None,
                },
                "menu-stall",
            )
        });
    }
    items.push(item(
        "Delete /controller (move the controller)",
        Command::DeleteController,
        "menu-delete-controller",
    ));
    items
}

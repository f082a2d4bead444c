//! A broker's menu, opened next to its node (by its "⋯", a long press, the menu key, Shift+F10
//! or `m`): the actions beyond a plain crash or start, each a command for the world. Whether
//! an action makes sense is the world's call: every item sends, and a refusal is shown.

use super::format::click_starts;
use crate::i18n::{msg, Tr};
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
/// `pause_secs` is how long "pause" freezes it; the labels are in `tr`'s language.
pub fn broker_menu(
    id: BrokerId,
    b: &BrokerView,
    with_partitions: bool,
    pause_secs: u64,
    tr: &Tr,
) -> Vec<MenuItem> {
    let mut items = Vec::new();
    if click_starts(b) {
        items.push(item(
            tr.f(msg::MENU_START, &[("broker", &id)]),
            Command::Start(id),
            "menu-start",
        ));
    } else {
        items.push(MenuItem {
            danger: true,
            ..item(
                tr.f(msg::MENU_CRASH, &[("broker", &id)]),
                Command::Crash(id),
                "menu-crash",
            )
        });
    }
    items.push(item(
        tr.t(msg::MENU_SHUTDOWN),
        Command::Shutdown(id),
        "menu-shutdown",
    ));
    items.push(item(
        tr.f(msg::MENU_PAUSE, &[("secs", &pause_secs)]),
        Command::Pause {
            broker: id,
            for_ms: pause_secs * 1000,
        },
        "menu-pause",
    ));
    items.push(item(
        tr.t(msg::MENU_EXPIRE),
        Command::ExpireSession(id),
        "menu-expire",
    ));
    items.push(if b.zk_link_cut {
        item(
            tr.t(msg::MENU_HEAL),
            Command::Heal(Endpoint::Broker(id), Endpoint::Zk),
            "menu-link",
        )
    } else {
        item(
            tr.t(msg::MENU_CUT),
            Command::Cut(Endpoint::Broker(id), Endpoint::Zk),
            "menu-link",
        )
    });
    if with_partitions {
        items.push(if b.stalls.contains(&StallScope::All) {
            item(
                tr.t(msg::MENU_RESUME),
                Command::ResumeFetcher {
                    broker: id,
                    topic: None,
                    partition: None,
                },
                "menu-stall",
            )
        } else {
            item(
                tr.t(msg::MENU_STALL),
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
        tr.t(msg::MENU_DELETE_CONTROLLER),
        Command::DeleteController,
        "menu-delete-controller",
    ));
    items
}

//! The page's keyboard shortcuts, in one table: the keys, what they do, and the name of the
//! page action they carry out. The help overlay lists this table; the page's key handler
//! looks a key up in it ([`lookup`]) and carries out the action by its name.

use crate::i18n::{msg, Msg};

/// One shortcut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortcut {
    /// The keys, as `KeyboardEvent.key` names them (`" "` is Space); any of them works.
    pub keys: &'static [&'static str],
    /// How the help overlay shows the keys, e.g. `Space or k`: the keys themselves, or a
    /// message when words are needed.
    pub shown: Shown,
    /// What it does, as the help overlay says it.
    pub description: Msg,
    /// The action it carries out: one of the `*_ACTION` names below.
    pub action: &'static str,
}

/// How the help overlay shows a shortcut's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The key as it is written on it (`.`, `Escape`): the same in every language.
    Key(&'static str),
    /// Keys described in words.
    Words(Msg),
}

/// Play or pause the clock.
pub const PLAY_PAUSE: &str = "play_pause";
/// Move the clock one step forward.
pub const STEP_FORWARD: &str = "step_forward";
/// Move the clock one step back.
pub const STEP_BACK: &str = "step_back";
/// Run the clock to the next event.
pub const JUMP_NEXT: &str = "jump_next";
/// Open the help overlay.
pub const HELP: &str = "help";
/// Open the focused broker's menu.
pub const BROKER_MENU: &str = "broker_menu";
/// Crash the focused node, or start it when it is down (the node handles this key itself).
pub const PRESS_NODE: &str = "press_node";
/// Close the open menu or overlay (each handles this key itself).
pub const CLOSE: &str = "close";

/// Every shortcut, in the order the help overlay lists them.
pub const SHORTCUTS: [Shortcut; 8] = [
    Shortcut {
        keys: &[" ", "k"],
        shown: Shown::Words(msg::KEYS_PLAY),
        description: msg::DO_PLAY,
        action: PLAY_PAUSE,
    },
    Shortcut {
        keys: &["."],
        shown: Shown::Key("."),
        description: msg::DO_STEP_FORWARD,
        action: STEP_FORWARD,
    },
    Shortcut {
        keys: &[","],
        shown: Shown::Key(","),
        description: msg::DO_STEP_BACK,
        action: STEP_BACK,
    },
    Shortcut {
        keys: &["n"],
        shown: Shown::Key("n"),
        description: msg::DO_JUMP,
        action: JUMP_NEXT,
    },
    Shortcut {
        keys: &["?"],
        shown: Shown::Key("?"),
        description: msg::DO_HELP,
        action: HELP,
    },
    Shortcut {
        keys: &["Enter"],
        shown: Shown::Words(msg::KEYS_PRESS),
        description: msg::DO_PRESS,
        action: PRESS_NODE,
    },
    Shortcut {
        keys: &["m", "ContextMenu", "F10"],
        shown: Shown::Words(msg::KEYS_MENU),
        description: msg::DO_MENU,
        action: BROKER_MENU,
    },
    Shortcut {
        keys: &["Escape"],
        shown: Shown::Key("Escape"),
        description: msg::DO_CLOSE,
        action: CLOSE,
    },
];

/// Where a key was pressed, as far as shortcuts care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// A text field or a list box: every key is typing.
    Typing,
    /// A button (or anything that Space presses).
    Button,
    /// A broker's node.
    Broker,
    /// Anything else (the page itself, a table, the graph).
    Other,
}

/// The action a key press carries out at `focus`, if any: `key` as `KeyboardEvent.key`
/// names it, `shift` whether Shift was held, `other_modifier` whether Ctrl, Alt or Meta was.
/// Keys that a focused control handles itself (Space on a button, Enter anywhere) are not
/// shortcuts; neither is anything typed into a field.
pub fn lookup(key: &str, shift: bool, other_modifier: bool, focus: Focus) -> Option<&'static str> {
    if other_modifier || focus == Focus::Typing {
        return None;
    }
    // Shift+F10 is the menu key's stand-in; F10 alone is not a shortcut.
    if key == "F10" && !shift {
        return None;
    }
    let s = SHORTCUTS.iter().find(|s| s.keys.contains(&key))?;
    match s.action {
        PRESS_NODE | CLOSE => None,
        PLAY_PAUSE if key == " " && matches!(focus, Focus::Button | Focus::Broker) => None,
        BROKER_MENU if focus != Focus::Broker => None,
        a => Some(a),
    }
}

//! The page's keyboard shortcuts, in one table: the keys, what they do, and the name of the
//! page action they carry out. The help overlay lists this table; the page's key handler
//! looks a key up in it ([`lookup`]) and carries out the action by its name.

/// One shortcut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortcut {
    /// The keys, as `KeyboardEvent.key` names them (`" "` is Space); any of them works.
    pub keys: &'static [&'static str],
    /// How the help overlay shows the keys, e.g. `Space or k`.
    pub shown: &'static str,
    /// What it does, as the help overlay says it.
    pub description: &'static str,
    /// The action it carries out: one of the `*_ACTION` names below.
    pub action: &'static str,
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
        shown: "Space or k",
        description: "play or pause the clock (Space only when a button is not focused)",
        action: PLAY_PAUSE,
    },
    Shortcut {
        keys: &["."],
        shown: ".",
        description: "step forward to the next event on the timeline (the clock stops there)",
        action: STEP_FORWARD,
    },
    Shortcut {
        keys: &[","],
        shown: ",",
        description: "step back to the previous event on the timeline",
        action: STEP_BACK,
    },
    Shortcut {
        keys: &["n"],
        shown: "n",
        description: "jump to the next event (skip a wait; the clock keeps its state)",
        action: JUMP_NEXT,
    },
    Shortcut {
        keys: &["?"],
        shown: "?",
        description: "show these shortcuts",
        action: HELP,
    },
    Shortcut {
        keys: &["Enter"],
        shown: "Enter or Space on a broker or consumer",
        description: "crash it, or start it again when it is down",
        action: PRESS_NODE,
    },
    Shortcut {
        keys: &["m", "ContextMenu", "F10"],
        shown: "m, the menu key or Shift+F10 on a broker",
        description: "open its menu (or long-press it, or press its ⋯)",
        action: BROKER_MENU,
    },
    Shortcut {
        keys: &["Escape"],
        shown: "Escape",
        description: "close the menu or this overlay",
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

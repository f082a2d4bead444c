//! The shortcut table: no key does two things, every action is named once, and the lookup
//! leaves typing and focused controls alone.

use super::shortcuts::*;

#[test]
fn no_key_is_listed_twice() {
    let mut seen: Vec<&str> = Vec::new();
    for s in SHORTCUTS {
        assert!(!s.description.en().is_empty());
        if let Shown::Key(k) = s.shown {
            assert!(!k.is_empty());
        }
        for k in s.keys {
            assert!(!seen.contains(k), "key {k:?} is listed twice");
            seen.push(k);
        }
    }
}

#[test]
fn every_action_appears_once_and_the_clock_steps_are_in_the_table() {
    let actions: Vec<&str> = SHORTCUTS.iter().map(|s| s.action).collect();
    for (i, a) in actions.iter().enumerate() {
        assert!(!actions[i + 1..].contains(a), "{a} twice");
    }
    for a in [PLAY_PAUSE, STEP_FORWARD, STEP_BACK, JUMP_NEXT] {
        assert!(actions.contains(&a), "{a} is not in the table");
    }
}

#[test]
fn keys_map_to_their_actions() {
    assert_eq!(lookup(" ", false, false, Focus::Other), Some(PLAY_PAUSE));
    assert_eq!(lookup("k", false, false, Focus::Button), Some(PLAY_PAUSE));
    assert_eq!(lookup(".", false, false, Focus::Other), Some(STEP_FORWARD));
    assert_eq!(lookup(",", false, false, Focus::Other), Some(STEP_BACK));
    assert_eq!(lookup("n", false, false, Focus::Broker), Some(JUMP_NEXT));
    assert_eq!(lookup("?", true, false, Focus::Other), Some(HELP));
    assert_eq!(lookup("m", false, false, Focus::Broker), Some(BROKER_MENU));
    assert_eq!(
        lookup("ContextMenu", false, false, Focus::Broker),
        Some(BROKER_MENU)
    );
    assert_eq!(lookup("F10", true, false, Focus::Broker), Some(BROKER_MENU));
}

#[test]
fn focused_controls_and_typing_keep_their_keys() {
    // Space presses a focused button or node; Enter and Escape are theirs too.
    assert_eq!(lookup(" ", false, false, Focus::Button), None);
    assert_eq!(lookup(" ", false, false, Focus::Broker), None);
    assert_eq!(lookup("Enter", false, false, Focus::Broker), None);
    assert_eq!(lookup("Escape", false, false, Focus::Other), None);
    // Nothing typed into a field is a shortcut, and nothing with Ctrl, Alt or Meta.
    for key in ["k", " ", ".", "?", "m"] {
        assert_eq!(lookup(key, false, false, Focus::Typing), None);
        assert_eq!(lookup(key, false, true, Focus::Other), None);
    }
    // The broker menu needs a broker; F10 alone is the browser's.
    assert_eq!(lookup("m", false, false, Focus::Other), None);
    assert_eq!(lookup("F10", false, false, Focus::Broker), None);
    assert_eq!(lookup("x", false, false, Focus::Other), None);
}

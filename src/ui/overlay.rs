//! What the page shows over itself: the play overlay on the graph of a story opened paused (one
//! clear button that starts it), a passing notice and an error, each with its button to
//! dismiss it.

use super::model::{Action, Model, StartGate};
use crate::i18n::{msg, Tr};
use yew::prelude::*;

/// The overlay, while the story waits for its first press (nothing otherwise).
pub fn play_overlay(m: &Model, dispatch: &Callback<Action>) -> Html {
    if m.gate != StartGate::Overlay || m.playing {
        return html! {};
    }
    let tr = m.tr();
    let onclick = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::TogglePlay))
    };
    html! {
        <button class="play-overlay" data-testid="play-overlay" {onclick}
                aria-label={tr.t(msg::OVERLAY_LABEL)} title={tr.t(msg::OVERLAY_TITLE)}>
            <span class="play-disc"><span aria-hidden="true">{ "▶" }</span>{ tr.t(msg::OVERLAY_LABEL) }</span>
        </button>
    }
}

/// A notice, with its button to dismiss it.
#[inline(never)]
pub fn notice(text: &str, dismiss: Callback<MouseEvent>, tr: &Tr) -> Html {
    html! {
        <div class="notice" role="status" data-testid="notice">
            <span class="alert-text">{ text.to_string() }</span>
            <button class="ghost" onclick={dismiss} aria-label={tr.t(msg::DISMISS_NOTICE)}>{ "×" }</button>
        </div>
    }
}

/// An error, with its button to dismiss it.
#[inline(never)]
pub fn error_box(text: &str, dismiss: Callback<MouseEvent>, tr: &Tr) -> Html {
    html! {
        <div class="alert" role="alert" data-testid="error">
            <span class="alert-icon" aria-hidden="true">{ "!" }</span>
            <span class="alert-text">{ text.to_string() }</span>
            <button class="ghost" onclick={dismiss} aria-label={tr.t(msg::DISMISS_ERROR)}>{ "×" }</button>
        </div>
    }
}

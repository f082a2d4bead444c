//! The play overlay on the graph of a story opened paused: one clear button that starts it.

use super::model::{Action, Model, StartGate};
use crate::i18n::msg;
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

//! The play overlay on the graph of a story opened paused: one clear button that starts it.

use super::model::{Action, Model, StartGate};
use yew::prelude::*;

/// The overlay, while the story waits for its first press (nothing otherwise).
pub fn play_overlay(m: &Model, dispatch: &Callback<Action>) -> Html {
    if m.gate != StartGate::Overlay || m.playing {
        return html! {};
    }
    let onclick = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::TogglePlay))
    };
    html! {
        <button class="play-overlay" data-testid="play-overlay" {onclick}
                aria-label="Play the story" title="Run the story's clock">
            <span class="play-disc"><span aria-hidden="true">{ "▶" }</span>{ "Play the story" }</span>
        </button>
    }
}

//! The toolbar: play/pause, next event, speed, reset, broker count, profile, seed and the virtual clock.

use super::model::{Action, Model, MAX_BROKERS, SPEEDS};
use super::stories::{self, STORIES};
use crate::sim::{fmt_ms, Profile, Settings};
use crate::view::format::speed_label;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

fn select_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlSelectElement>().map(|s| s.value())
}

/// A profile as the selector lists it, from the core's own settings.
pub fn profile_label(p: Profile) -> String {
    let s = Settings::for_profile(p);
    let mut label = format!(
        "{} · {} s session",
        p.name(),
        s.zookeeper_session_timeout_ms / 1000
    );
    if !p.fences_controller_writes() {
        label.push_str(" · unfenced");
    }
    label
}

/// Draws a seed from the browser's randomness (the core itself never does).
fn random_seed() -> Result<u64, String> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| format!("could not draw a random seed: {e}"))?;
    // Keep it short enough to read out in class.
    Ok(u64::from_le_bytes(buf) % 1_000_000)
}

/// Renders the toolbar. On a narrow screen the cluster's setup (story, brokers, profile,
/// seed, reset) folds behind a button: `setup_open` says whether it is shown, `setup_id`
/// is its id (unique to this playground) and `on_setup` flips it.
pub fn controls(
    m: &Model,
    now_ms: u64,
    dispatch: &Callback<Action>,
    (setup_open, setup_id, on_setup): (bool, &str, &Callback<()>),
) -> Html {
    let toggle_setup = {
        let on_setup = on_setup.clone();
        Callback::from(move |_: MouseEvent| on_setup.emit(()))
    };
    let play = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::TogglePlay))
    };
    let jump = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::JumpNext))
    };
    let reset = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Reset))
    };
    let new_seed = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| match random_seed() {
            Ok(s) => d.emit(Action::SetSeed(s)),
            Err(e) => d.emit(Action::ShowError(e)),
        })
    };
    let speed = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e).and_then(|v| v.parse::<f64>().ok()) {
                d.emit(Action::SetSpeed(v));
            }
        })
    };
    let brokers = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e).and_then(|v| v.parse::<u32>().ok()) {
                d.emit(Action::SetBrokers(v));
            }
        })
    };
    let profile = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(p) = select_value(&e).and_then(|v| Profile::parse(&v).ok()) {
                d.emit(Action::SetProfile(p));
            }
        })
    };

    let story = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                d.emit(Action::SetStory(stories::find(&v)));
            }
        })
    };

    let (play_icon, play_text) = if m.playing {
        ("❚❚", "Pause")
    } else {
        ("▶", "Play")
    };

    html! {
        <div class="toolbar" role="toolbar" aria-label="Simulation controls">
            <div class="group run-group">
                <button class="primary play" data-testid="play" onclick={play}
                        title={if m.playing { "Pause the clock" } else { "Run the clock" }}>
                    <span class="icon" aria-hidden="true">{ play_icon }</span>{ play_text }
                </button>
                <button class="next-event" data-testid="jump-next" onclick={jump}
                        title="Skip the wait: move the clock to the next event in the log (at most 10 min ahead)"
                        aria-label="Next event: skip the wait">
                    <span class="icon" aria-hidden="true">{ "»" }</span><span class="hide-narrow">{ "Next event" }</span>
                </button>
                <label class="field">
                    <span class="hide-narrow">{ "speed" }</span>
                    <select data-testid="speed" onchange={speed} aria-label="Speed">
                        { for SPEEDS.iter().map(|s| html! {
                            <option value={s.to_string()} selected={*s == m.speed}>{ speed_label(*s) }</option>
                        }) }
                    </select>
                </label>
                <div class="clock" title="virtual time since the cluster started">
                    <span class="clock-label hide-narrow">{ "t =" }</span>
                    <output data-testid="clock" aria-label="Virtual clock" aria-live="off">{ fmt_ms(now_ms) }</output>
                </div>
                <button class="setup-toggle" aria-expanded={setup_open.to_string()} aria-controls={setup_id.to_string()}
                        onclick={toggle_setup} data-testid="setup-toggle">
                    <span class="icon" aria-hidden="true">{ "⚙" }</span><span class="setup-text">{ "Setup" }</span>
                </button>
            </div>
            <div class={classes!("setup", setup_open.then_some("open"))} id={setup_id.to_string()}>
            <div class="group story-group">
                <label class="field" title="Replay one of the classic stories, step by step, or play freely.">
                    <span>{ "story" }</span>
                    <select data-testid="story" onchange={story} aria-label="Story (resets)">
                        <option value="" selected={m.story.is_none()}>{ "free play" }</option>
                        { for STORIES.iter().enumerate().map(|(i, (name, _))| html! {
                            <option value={*name} selected={m.story == Some(i)}>{ stories::title(i) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="group cluster-group">
                <label class="field" title="How many brokers the cluster has. Changing it starts again.">
                    <span>{ "brokers" }</span>
                    <select data-testid="broker-count" onchange={brokers} aria-label="Number of brokers (resets)">
                        { for (1..=MAX_BROKERS).map(|n| html! {
                            <option value={n.to_string()} selected={n == m.brokers}>{ n }</option>
                        }) }
                    </select>
                </label>
                <label class="field" title="The Kafka release imitated: its default zookeeper.session.timeout.ms, and whether controller writes are fenced. Changing it starts again.">
                    <span>{ "Kafka" }</span>
                    <select data-testid="profile" onchange={profile} aria-label="Kafka version profile (resets)">
                        { for Profile::ALL.iter().map(|p| html! {
                            <option value={p.name()} selected={*p == m.profile}>{ profile_label(*p) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="group seed-group">
                <span class="seed" title="the seed of the simulation's random number generator: the same seed replays the same story">
                    { "seed " }<code data-testid="seed">{ m.seed }</code>
                </span>
                <button data-testid="new-seed" onclick={new_seed}>{ "New seed" }</button>
                <button data-testid="reset" onclick={reset} title="Start the same cluster again from t = 0">
                    <span class="icon" aria-hidden="true">{ "↺" }</span>{ "Reset" }
                </button>
            </div>
            </div>
        </div>
    }
}

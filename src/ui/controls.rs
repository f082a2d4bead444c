//! The toolbar: play/pause, next event, speed, reset, broker count, profile, seed and the virtual clock.

use super::lesson::run_waits_for_answer;
use super::model::{Action, Model, MAX_BROKERS, SPEEDS};
use super::said::reader;
use super::stories::{self, STORIES};
use crate::i18n::{msg, Tr};
use crate::sim::{fmt_ms, Profile, Settings};
use crate::text::numbers::Short;
use crate::view::format::speed_label;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

fn select_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlSelectElement>().map(|s| s.value())
}

/// A profile as the selector lists it, from the core's own settings.
pub fn profile_label(p: Profile, tr: &Tr) -> String {
    let s = Settings::for_profile(p);
    let mut label = tr.f(
        msg::PROFILE_OPTION,
        &[
            ("name", &p.name()),
            ("secs", &(s.zookeeper_session_timeout_ms / 1000)),
        ],
    );
    if !p.fences_controller_writes() {
        label.push_str(&tr.t(msg::PROFILE_UNFENCED));
    }
    label
}

/// Draws a seed from the browser's randomness (the core itself never does).
fn random_seed(tr: &Tr) -> Result<u64, String> {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).map_err(|e| tr.f(msg::SEED_FAILED, &[("error", &e)]))?;
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
    let tr = m.tr();
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
        let (d, tr) = (dispatch.clone(), tr.clone());
        Callback::from(move |_: MouseEvent| match random_seed(&tr) {
            Ok(s) => d.emit(Action::SetSeed(s)),
            Err(e) => d.emit(Action::ShowError(e)),
        })
    };
    let speed = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e).and_then(|v| speed_value(&v)) {
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
        // The story shown, by name ("" for free play), as the selector's value.
        let shown = m.story.and_then(|i| STORIES.get(i).copied()).unwrap_or("");
        Callback::from(move |e: Event| {
            let Some(select) = e.target_dyn_into::<HtmlSelectElement>() else {
                return;
            };
            let Some(i) = stories::find(&select.value()) else {
                d.emit(Action::SetStory(None));
                return;
            };
            // The story's file is fetched first; if it cannot be, the page says so and keeps
            // what it shows, the selector too.
            let (d, shown) = (d.clone(), shown);
            stories::fetch(
                i,
                Callback::from(move |got: Result<(), String>| match got {
                    Ok(()) => d.emit(Action::SetStory(Some(i))),
                    Err(why) => {
                        select.set_value(shown);
                        d.emit(Action::ShowError(reader().f(
                            msg::ERR_STORY_FETCH,
                            &[("name", &STORIES[i]), ("why", &why)],
                        )))
                    }
                }),
            );
        })
    };

    let (play_icon, play_text, play_title) = if m.playing {
        ("❚❚", msg::PAUSE, msg::PAUSE_TITLE)
    } else {
        ("▶", msg::PLAY, msg::PLAY_TITLE)
    };

    // While a lesson's question waits at its point, the run waits for the answer.
    let held = run_waits_for_answer(m, now_ms);
    let play_title = if held {
        tr.t(crate::i18n::msg_lessons::LESSON_ANSWER_FIRST)
    } else {
        tr.t(play_title)
    };
    html! {
        <div class="toolbar" role="toolbar" aria-label={tr.t(msg::TOOLBAR_LABEL)}>
            <div class="group run-group">
                <button class="primary play" data-testid="play" onclick={play} disabled={held}
                        title={play_title}>
                    <span class="icon" aria-hidden="true">{ play_icon }</span>{ tr.t(play_text) }
                </button>
                <button class="next-event" data-testid="jump-next" onclick={jump} disabled={held}
                        title={tr.t(msg::NEXT_EVENT_TITLE)}
                        aria-label={tr.t(msg::NEXT_EVENT_LABEL)}>
                    <span class="icon icon-next" aria-hidden="true"></span><span class="hide-narrow">{ tr.t(msg::NEXT_EVENT) }</span>
                </button>
                <label class="field">
                    <span class="hide-narrow">{ tr.t(msg::SPEED) }</span>
                    <select data-testid="speed" onchange={speed} aria-label={tr.t(msg::SPEED_LABEL)}>
                        { for SPEEDS.iter().map(|s| html! {
                            <option value={Short(*s).to_string()} selected={*s == m.speed}>{ speed_label(*s) }</option>
                        }) }
                    </select>
                </label>
                <div class="clock" title={tr.t(msg::CLOCK_TITLE)}>
                    <span class="clock-label hide-narrow">{ "t =" }</span>
                    <output data-testid="clock" aria-label={tr.t(msg::CLOCK_LABEL)} aria-live="off">{ fmt_ms(now_ms) }</output>
                </div>
                <button class="setup-toggle" aria-expanded={setup_open.to_string()} aria-controls={setup_id.to_string()}
                        onclick={toggle_setup} data-testid="setup-toggle">
                    <span class="icon" aria-hidden="true">{ "⚙" }</span><span class="setup-text">{ tr.t(msg::SETUP) }</span>
                </button>
            </div>
            <div class={classes!("setup", setup_open.then_some("open"))} id={setup_id.to_string()}>
            <div class="group story-group">
                <label class="field" title={tr.t(msg::STORY_TITLE)}>
                    <span>{ tr.t(msg::STORY) }</span>
                    <select data-testid="story" onchange={story} aria-label={tr.t(msg::STORY_LABEL)}>
                        <option value="" selected={m.story.is_none()}>{ tr.t(msg::FREE_PLAY) }</option>
                        { for STORIES.iter().enumerate().map(|(i, name)| html! {
                            <option value={*name} selected={m.story == Some(i)}>{ stories::title_in(i, &tr) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="group cluster-group">
                <label class="field count" title={tr.t(msg::BROKERS_TITLE)}>
                    <span>{ tr.t(msg::BROKERS) }</span>
                    <select data-testid="broker-count" onchange={brokers} aria-label={tr.t(msg::BROKERS_LABEL)}>
                        { for (1..=MAX_BROKERS).map(|n| html! {
                            <option value={n.to_string()} selected={n == m.brokers}>{ n }</option>
                        }) }
                    </select>
                </label>
                <label class="field" title={tr.t(msg::PROFILE_TITLE)}>
                    <span>{ "Kafka" }</span>
                    <select data-testid="profile" onchange={profile} aria-label={tr.t(msg::PROFILE_LABEL)}>
                        { for Profile::ALL.iter().map(|p| html! {
                            <option value={p.name()} selected={*p == m.profile}>{ profile_label(*p, &tr) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="group seed-group">
                <span class="seed" title={tr.t(msg::SEED_TITLE)}>
                    { tr.t(msg::SEED) }<code data-testid="seed">{ m.seed }</code>
                </span>
                <button data-testid="new-seed" onclick={new_seed}>{ tr.t(msg::NEW_SEED) }</button>
                <button data-testid="reset" onclick={reset} title={tr.t(msg::RESET_TITLE)}>
                    <span class="icon" aria-hidden="true">{ "↺" }</span>{ tr.t(msg::RESET) }
                </button>
            </div>
            </div>
        </div>
    }
}

/// A speed from the select's value: one it offers, as [`Short`] writes it (without reading a
/// number: the first view has no other use for float parsing), else the number it reads as.
fn speed_value(value: &str) -> Option<f64> {
    SPEEDS
        .iter()
        .copied()
        .find(|s| Short(*s).to_string() == value)
        .or_else(|| value.parse().ok())
}

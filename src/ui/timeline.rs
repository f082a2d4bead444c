//! The timeline: a scrubber over the session's whole history, steps from event to event, the
//! note of a fork with its undo, and the session's link, export and import. Embed mode has a
//! compact one ([`compact_timeline`]): one row under the graph, without sharing (the
//! embedding page owns that).

use super::model::{Action, Model};
use crate::i18n::{msg, Tr};
use crate::session::Fork;
use crate::sim::fmt_ms;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The file name an exported session is saved under.
pub const EXPORT_NAME: &str = "kafka-election-session.json";

/// The largest scenario file the page imports (bytes).
pub const MAX_IMPORT_BYTES: f64 = 1_000_000.0;

/// The scrubber between its step buttons, and the time shown with the session's end: the part
/// the full and the compact timeline share.
fn scrub_row(now: u64, end: u64, dispatch: &Callback<Action>, tr: &Tr) -> Html {
    let scrub = {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<HtmlInputElement>()
                .and_then(|i| i.value().parse::<u64>().ok())
            {
                d.emit(Action::Seek(v));
            }
        })
    };
    let back = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::StepBack))
    };
    let fwd = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::StepForward))
    };
    html! {
        <>
            <button class="ghost step" data-testid="step-back" onclick={back}
                    title={tr.t(msg::STEP_BACK_TITLE)} aria-label={tr.t(msg::STEP_BACK_LABEL)}>{ "◀" }</button>
            <input type="range" class="scrubber" data-testid="scrubber" min="0" max={end.to_string()}
                   step="1" value={now.to_string()} oninput={scrub}
                   aria-label={tr.t(msg::SCRUBBER_LABEL)}
                   aria-valuetext={tr.f(msg::SCRUBBER_VALUE, &[("now", &fmt_ms(now)), ("end", &fmt_ms(end))])} />
            <button class="ghost step" data-testid="step-forward" onclick={fwd}
                    title={tr.t(msg::STEP_FORWARD_TITLE)} aria-label={tr.t(msg::STEP_FORWARD_LABEL)}>{ "▶" }</button>
            <span class="timeline-times" data-testid="timeline-times">
                { format!("{} / {}", fmt_ms(now), fmt_ms(end)) }
            </span>
        </>
    }
}

/// The fork's Undo and Keep buttons.
#[inline(never)]
fn fork_buttons(dispatch: &Callback<Action>, tr: &Tr) -> Html {
    let undo = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::UndoFork))
    };
    let keep = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::KeepFork))
    };
    html! {
        <>
            <button data-testid="undo-fork" onclick={undo}
                    title={tr.t(msg::UNDO_TITLE)}>{ tr.t(msg::UNDO) }</button>
            <button class="ghost" data-testid="keep-fork" onclick={keep}
                    title={tr.t(msg::KEEP_TITLE)}>{ tr.t(msg::KEEP) }</button>
        </>
    }
}

/// The time shown, the session's end (at least the time shown), how many recorded commands
/// lie ahead, and the fork, if any.
fn position(m: &Model) -> (u64, u64, usize, Option<Fork>) {
    let host = m.host.borrow();
    let s = &host.session;
    let now = s.now_ms();
    (now, s.end_ms().max(now), s.ahead().len(), s.fork().cloned())
}

/// The compact note of a fork: when, and what it dropped.
fn fork_summary(f: &Fork, tr: &Tr) -> String {
    let at = fmt_ms(f.at_ms);
    match f.dropped.len() {
        0 => tr.f(msg::FORK_SUMMARY_NEW, &[("at", &at)]),
        n => tr.f(msg::FORK_SUMMARY_DROPPED, &[("at", &at), ("count", &n)]),
    }
}

/// Embed mode's timeline: one row under the graph with the scrubber, its step buttons and
/// the time shown with the end; after a change in the past, a short note with Undo and Keep.
#[inline(never)]
pub fn compact_timeline(m: &Model, dispatch: &Callback<Action>) -> Html {
    let tr = m.tr();
    let (now, end, _, fork) = position(m);
    html! {
        <div class="timeline timeline-compact" role="group" aria-label={tr.t(msg::TIMELINE_LABEL)} data-testid="timeline">
            { scrub_row(now, end, dispatch, &tr) }
            if let Some(f) = fork {
                <span class="timeline-fork" role="status" data-testid="fork-note">
                    <span class="fork-text">{ fork_summary(&f, &tr) }</span>
                    { fork_buttons(dispatch, &tr) }
                </span>
            }
        </div>
    }
}

/// Renders the timeline row.
pub fn timeline(m: &Model, dispatch: &Callback<Action>) -> Html {
    let tr = m.tr();
    let (now, end, ahead, fork) = position(m);
    let to_end = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Seek(end)))
    };
    let copy = {
        let (d, tr) = (dispatch.clone(), tr.clone());
        Callback::from(move |_: MouseEvent| copy_link(&d, &tr))
    };
    let export = {
        let (d, tr) = (dispatch.clone(), tr.clone());
        let host = m.host.clone();
        Callback::from(move |_: MouseEvent| {
            let text = host.borrow().session.export();
            if let Err(e) = download(EXPORT_NAME, &text, &tr) {
                d.emit(Action::ShowError(e));
            }
        })
    };
    let import = {
        let (d, tr) = (dispatch.clone(), tr.clone());
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                    read_file(file, d.clone(), &tr);
                }
                input.set_value("");
            }
        })
    };

    html! {
        <div class="timeline" role="group" aria-label={tr.t(msg::TIMELINE_LABEL)} data-testid="timeline">
            { scrub_row(now, end, dispatch, &tr) }
            if now < end {
                <span class="timeline-past" data-testid="timeline-past">
                    { tr.t(msg::VIEWING_PAST) }
                    { if ahead > 0 { tr.f(msg::PAST_AHEAD, &[("count", &ahead)]) } else { tr.t(msg::PAST_NONE_AHEAD) } }
                    <button class="ghost" onclick={to_end}>{ tr.t(msg::BACK_TO_END) }</button>
                </span>
            }
            if let Some(f) = fork {
                <span class="timeline-fork" role="status" data-testid="fork-note">
                    { tr.f(msg::FORK_NOTE, &[("at", &fmt_ms(f.at_ms))]) }
                    { if f.dropped.is_empty() { tr.t(msg::FORK_REPLACED) } else { tr.f(msg::FORK_DROPPED, &[("count", &f.dropped.len())]) } }
                    { fork_buttons(dispatch, &tr) }
                </span>
            }
            <details class="timeline-share">
                <summary data-testid="share" title={tr.t(msg::SHARE_TITLE)}>{ tr.t(msg::SHARE) }</summary>
                <div class="share-menu">
                <button data-testid="copy-link" onclick={copy}
                        title={tr.t(msg::COPY_LINK_TITLE)}>{ tr.t(msg::COPY_LINK) }</button>
                <button data-testid="export" onclick={export}
                        title={tr.t(msg::EXPORT_TITLE)}>{ tr.t(msg::EXPORT) }</button>
                <label class="button-like" title={tr.t(msg::IMPORT_TITLE)}>
                    { tr.t(msg::IMPORT) }
                    <input type="file" class="visually-hidden" data-testid="import" accept=".json,application/json" onchange={import} />
                </label>
                </div>
            </details>
        </div>
    }
}

/// Copies the page's address (its fragment holds the session, or the exercise) to the
/// clipboard.
#[inline(never)]
pub fn copy_link(d: &Callback<Action>, tr: &Tr) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let href = window.location().href().unwrap_or_default();
    let promise = window.navigator().clipboard().write_text(&href);
    let ok = d.clone();
    let fail = d.clone();
    let (copied, refused) = (tr.t(msg::LINK_COPIED), tr.t(msg::COPY_FAILED));
    let on_ok = Closure::once(move |_: wasm_bindgen::JsValue| ok.emit(Action::ShowNotice(copied)));
    let on_err =
        Closure::once(move |_: wasm_bindgen::JsValue| fail.emit(Action::ShowError(refused)));
    let _ = promise.then2(&on_ok, &on_err);
    on_ok.forget();
    on_err.forget();
}

/// Offers `text` as a file download.
fn download(name: &str, text: &str, tr: &Tr) -> Result<(), String> {
    let fail = |_| tr.t(msg::SAVE_FAILED);
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| tr.t(msg::SAVE_FAILED))?;
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| tr.t(msg::SAVE_FAILED))?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Reads a chosen or dropped file and opens it as a session.
#[inline(never)]
pub fn read_file(file: web_sys::File, d: Callback<Action>, tr: &Tr) {
    if file.size() > MAX_IMPORT_BYTES {
        d.emit(Action::ShowError(tr.f(
            msg::FILE_TOO_BIG,
            &[
                ("name", &file.name()),
                ("size", &format!("{:.0}", file.size() / 1000.0)),
                ("max", &format!("{:.0}", MAX_IMPORT_BYTES / 1000.0)),
            ],
        )));
        return;
    }
    let ok = d.clone();
    let on_text = Closure::once(move |v: wasm_bindgen::JsValue| {
        ok.emit(Action::Import(v.as_string().unwrap_or_default()))
    });
    let unreadable = tr.t(msg::FILE_UNREADABLE);
    let on_err =
        Closure::once(move |_: wasm_bindgen::JsValue| d.emit(Action::ShowError(unreadable)));
    let _ = file.text().then2(&on_text, &on_err);
    on_text.forget();
    on_err.forget();
}

//! The timeline: a scrubber over the session's whole history, steps from event to event, the
//! note of a fork with its undo, and the session's link, export and import. Embed mode has a
//! compact one ([`compact_timeline`]): one row under the graph, without sharing (the
//! embedding page owns that).

use super::model::{Action, Model};
use crate::session::Fork;
use crate::sim::fmt_ms;
use crate::view::format::fork_summary;
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
fn scrub_row(now: u64, end: u64, dispatch: &Callback<Action>) -> Html {
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
                    title="Back to the previous event (,)" aria-label="Step back one event">{ "◀" }</button>
            <input type="range" class="scrubber" data-testid="scrubber" min="0" max={end.to_string()}
                   step="1" value={now.to_string()} oninput={scrub}
                   aria-label="Timeline: the virtual time shown"
                   aria-valuetext={format!("{} of {}", fmt_ms(now), fmt_ms(end))} />
            <button class="ghost step" data-testid="step-forward" onclick={fwd}
                    title="On to the next event (.)" aria-label="Step forward one event">{ "▶" }</button>
            <span class="timeline-times" data-testid="timeline-times">
                { format!("{} / {}", fmt_ms(now), fmt_ms(end)) }
            </span>
        </>
    }
}

/// The fork's Undo and Keep buttons.
fn fork_buttons(dispatch: &Callback<Action>) -> Html {
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
                    title="Bring back the history the change dropped">{ "Undo" }</button>
            <button class="ghost" data-testid="keep-fork" onclick={keep}
                    title="Keep the new history and close this note">{ "Keep" }</button>
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

/// Embed mode's timeline: one row under the graph with the scrubber, its step buttons and
/// the time shown with the end; after a change in the past, a short note with Undo and Keep.
pub fn compact_timeline(m: &Model, dispatch: &Callback<Action>) -> Html {
    let (now, end, _, fork) = position(m);
    html! {
        <div class="timeline timeline-compact" role="group" aria-label="Timeline" data-testid="timeline">
            { scrub_row(now, end, dispatch) }
            if let Some(f) = fork {
                <span class="timeline-fork" role="status" data-testid="fork-note">
                    <span class="fork-text">{ fork_summary(f.at_ms, f.dropped.len()) }</span>
                    { fork_buttons(dispatch) }
                </span>
            }
        </div>
    }
}

/// Renders the timeline row.
pub fn timeline(m: &Model, dispatch: &Callback<Action>) -> Html {
    let (now, end, ahead, fork) = position(m);
    let to_end = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Seek(end)))
    };
    let copy = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| copy_link(&d))
    };
    let export = {
        let d = dispatch.clone();
        let host = m.host.clone();
        Callback::from(move |_: MouseEvent| {
            let text = host.borrow().session.export();
            if let Err(e) = download(EXPORT_NAME, &text) {
                d.emit(Action::ShowError(e));
            }
        })
    };
    let import = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                    read_file(file, d.clone());
                }
                input.set_value("");
            }
        })
    };

    html! {
        <div class="timeline" role="group" aria-label="Timeline" data-testid="timeline">
            { scrub_row(now, end, dispatch) }
            if now < end {
                <span class="timeline-past" data-testid="timeline-past">
                    { "Viewing the past" }
                    { if ahead > 0 { format!(": {ahead} later command(s) lie ahead; acting now drops them. ") } else { ": acting now starts a new future. ".to_string() } }
                    <button class="ghost" onclick={to_end}>{ "Back to the end" }</button>
                </span>
            }
            if let Some(f) = fork {
                <span class="timeline-fork" role="status" data-testid="fork-note">
                    { format!("You changed the past at t = {}: ", fmt_ms(f.at_ms)) }
                    { if f.dropped.is_empty() { "the history after it was replaced. ".to_string() } else { format!("{} later command(s) were dropped. ", f.dropped.len()) } }
                    { fork_buttons(dispatch) }
                </span>
            }
            <details class="timeline-share">
                <summary data-testid="share" title="Copy a link to this session, save it as a file, or open one">{ "Share" }</summary>
                <div class="share-menu">
                <button data-testid="copy-link" onclick={copy}
                        title="Copy a link that reopens this session exactly">{ "Copy link" }</button>
                <button data-testid="export" onclick={export}
                        title="Save the session as a scenario file (kafka-election run FILE replays it)">{ "Export" }</button>
                <label class="button-like" title="Open a scenario file (or drop one on the page)">
                    { "Import…" }
                    <input type="file" class="visually-hidden" data-testid="import" accept=".json,application/json" onchange={import} />
                </label>
                </div>
            </details>
        </div>
    }
}

/// Copies the page's address (its fragment holds the session) to the clipboard.
fn copy_link(d: &Callback<Action>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let href = window.location().href().unwrap_or_default();
    let promise = window.navigator().clipboard().write_text(&href);
    let ok = d.clone();
    let fail = d.clone();
    let on_ok = Closure::once(move |_: wasm_bindgen::JsValue| {
        ok.emit(Action::ShowNotice(
            "Link copied: it reopens this session exactly.".into(),
        ))
    });
    let on_err = Closure::once(move |_: wasm_bindgen::JsValue| {
        fail.emit(Action::ShowError(
            "the browser did not let the page copy; copy the address bar instead: it holds the session".into(),
        ))
    });
    let _ = promise.then2(&on_ok, &on_err);
    on_ok.forget();
    on_err.forget();
}

/// Offers `text` as a file download.
fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |_| "the browser did not let the page save the file".to_string();
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "no link element".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Reads a chosen or dropped file and opens it as a session.
pub fn read_file(file: web_sys::File, d: Callback<Action>) {
    if file.size() > MAX_IMPORT_BYTES {
        d.emit(Action::ShowError(format!(
            "The file could not be opened: {} is {:.0} KB; a scenario file is at most {:.0} KB. The session shown is unchanged.",
            file.name(),
            file.size() / 1000.0,
            MAX_IMPORT_BYTES / 1000.0
        )));
        return;
    }
    let ok = d.clone();
    let on_text = Closure::once(move |v: wasm_bindgen::JsValue| {
        ok.emit(Action::Import(v.as_string().unwrap_or_default()))
    });
    let on_err = Closure::once(move |_: wasm_bindgen::JsValue| {
        d.emit(Action::ShowError(
            "The file could not be read. The session shown is unchanged.".into(),
        ))
    });
    let _ = file.text().then2(&on_text, &on_err);
    on_text.forget();
    on_err.forget();
}

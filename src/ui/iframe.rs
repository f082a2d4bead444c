//! An embedded page driven by its parent (`index.html?embed=1&parent=<origin>[,<origin>...]`):
//! it posts `{"kafka-election": "ready"}` once, then `{"kafka-election": "event", "event":
//! {...}}` for each event, to the parent with each allowed origin as the target origin, and
//! obeys the parent's requests ([`crate::view::embed::Request`]) from an allowed origin,
//! answering each with `ok`, `state` or `error` (docs/embedding.md). A message from
//! another origin is ignored and noted with `console.warn`.

use super::embed::Bridge;
use crate::view::embed::{message, parse_request, Request, MESSAGE_KEY};
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Posts `msg` to `target` for `origin`.
fn post(target: &web_sys::Window, msg: &Value, origin: &str) {
    if let Ok(value) = js_sys::JSON::parse(&msg.to_string()) {
        let _ = target.post_message(&value, origin);
    }
}

/// Starts talking to the parent page: the allowed `parents` are origins, checked by
/// [`crate::view::embed::parse_origins`].
pub fn connect(bridge: &Bridge, parents: Vec<String>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(parent) = window.parent().ok().flatten() else {
        return;
    };
    let parents = Rc::new(parents);
    {
        let (parent, parents) = (parent.clone(), parents.clone());
        let _ = bridge.on(
            "*",
            Rc::new(move |event: &Value| {
                let msg = message("event", None, vec![("event", event.clone())]);
                for origin in parents.iter() {
                    post(&parent, &msg, origin);
                }
            }),
        );
    }
    let on_message = {
        let bridge = bridge.clone();
        let parents = parents.clone();
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let data = js_sys::JSON::stringify(&e.data())
                .ok()
                .and_then(|s| s.as_string())
                .and_then(|s| serde_json::from_str::<Value>(&s).ok());
            let Some(data) = data else { return };
            if data.get(MESSAGE_KEY).is_none() {
                return;
            }
            let origin = e.origin();
            if !parents.contains(&origin) {
                web_sys::console::warn_1(
                    &format!(
                        "Kafka Election Playground: a request from {origin} was ignored: the page's parent= allows only {}",
                        parents.join(", ")
                    )
                    .into(),
                );
                return;
            }
            // The parent's window, from another origin: `instanceof Window` does not hold for it
            // here, so it is not checked (a window's message comes from a window).
            let Some(source) = e.source().map(|s| s.unchecked_into::<web_sys::Window>()) else {
                return;
            };
            let answer = match parse_request(&data) {
                Ok(None) => return,
                Err(msg) => message("error", data.get("id"), vec![("message", json!(msg))]),
                Ok(Some((request, id))) => answer(&bridge, request, id.as_ref()),
            };
            post(&source, &answer, &origin);
        })
    };
    let _ = window.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    // The page lives as long as its window: so does its listener.
    on_message.forget();
    let ready = message("ready", None, vec![]);
    for origin in parents.iter() {
        post(&parent, &ready, origin);
    }
}

/// Carries out one request and says how it went.
fn answer(bridge: &Bridge, request: Request, id: Option<&Value>) -> Value {
    let (name, result) = match request {
        Request::Play => ("play", bridge.set_playing(true).map(|_| None)),
        Request::Pause => ("pause", bridge.set_playing(false).map(|_| None)),
        Request::Seek(ms) => ("seek", bridge.seek(ms).map(|_| None)),
        Request::Apply(cmd) => ("apply", bridge.apply(&cmd).map(|_| None)),
        Request::State => (
            "state",
            bridge.state_json().and_then(|s| {
                serde_json::from_str::<Value>(&s)
                    .map(Some)
                    .map_err(|e| e.to_string())
            }),
        ),
    };
    match result {
        Ok(Some(state)) => message("state", id, vec![("state", state)]),
        Ok(None) => message("ok", id, vec![("request", json!(name))]),
        Err(msg) => message(
            "error",
            id,
            vec![("request", json!(name)), ("message", json!(msg))],
        ),
    }
}

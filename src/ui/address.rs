//! The page's address follows the session: its fragment is the session's link, its query
//! keeps the language and the parameters that do not set a session up; a link pasted into
//! the address bar opens its session.

use super::model::{Action, Model};
use super::stories;
use crate::i18n::Lang;
use yew::prelude::*;

/// Keeps the address's fragment on the session as it changes (at most once a second while
/// the clock runs), so that the address bar always holds a link that reopens it. The setup
/// parameters leave the query then: the fragment carries them.
pub fn write_link(
    model: &Model,
    last: &std::rc::Rc<std::cell::RefCell<(f64, String)>>,
    lang: &std::rc::Rc<std::cell::Cell<Option<Lang>>>,
) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let now = window.performance().map_or(0.0, |p| p.now());
    if model.playing && now - last.borrow().0 < 1_000.0 {
        return;
    }
    // A lesson, or the lesson list, is its own address (`?lesson=<id>`, `?view=lessons`): the
    // lesson's run is the lesson's, and the browser keeps where the learner is.
    let page = model.lesson_address();
    let fragment = match &page {
        Some(_) => model.exercise_fragment().unwrap_or_default(),
        None => model.link_fragment(),
    };
    // What was written last (a lesson's address is not a fragment a link could have).
    let written = match &page {
        Some(p) => format!(" {p:?} {}", fragment.len()),
        None => fragment.clone(),
    };
    if last.borrow().1 == written && lang.get() == Some(model.lang) {
        return;
    }
    *last.borrow_mut() = (now, written);
    lang.set(Some(model.lang));
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    // The language rides in the query, so a shared link opens in the language it was made in.
    let mut kept: Vec<(String, String)> = stories::location_pairs()
        .into_iter()
        .filter(|(k, _)| {
            !stories::SETUP_PARAMS.contains(&k.as_str())
                && !["lang", "lesson", "view"].contains(&k.as_str())
        })
        .collect();
    kept.extend(page.into_iter().flatten());
    kept.push(("lang".to_string(), model.lang.code().to_string()));
    let query = if kept.is_empty() {
        String::new()
    } else {
        format!(
            "?{}",
            kept.iter()
                .map(|(k, v)| format!(
                    "{}={}",
                    crate::session::codec::escape(k),
                    crate::session::codec::escape(v)
                ))
                .collect::<Vec<_>>()
                .join("&")
        )
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&if fragment.is_empty() {
                format!("{path}{query}")
            } else {
                format!("{path}{query}#{fragment}")
            }),
        );
    }
}

/// Opens a session link pasted into the address bar (a `hashchange` the page did not make);
/// the address then holds the link of the session shown, the new one or, if the link is
/// refused, the one before.
pub fn listen_for_links(
    d: UseReducerDispatcher<Model>,
    last: std::rc::Rc<std::cell::RefCell<(f64, String)>>,
) -> impl FnOnce() {
    use wasm_bindgen::JsCast;
    let window = web_sys::window();
    let closure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        let hash = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .unwrap_or_default();
        let fragment = hash.strip_prefix('#').unwrap_or(&hash).to_string();
        if crate::session::codec::is_session(&fragment) && last.borrow().1 != fragment {
            // The address now holds the pasted link, not what the page wrote: forget that, so
            // the page writes its session's link again whether the link opens or is refused
            // (a refused link must not stay in the address while the old session shows).
            last.borrow_mut().1.clear();
            d.dispatch(Action::OpenLink(fragment));
        }
    });
    if let Some(w) = &window {
        let _ = w.add_event_listener_with_callback("hashchange", closure.as_ref().unchecked_ref());
    }
    move || {
        if let Some(w) = window {
            let _ = w.remove_event_listener_with_callback(
                "hashchange",
                closure.as_ref().unchecked_ref(),
            );
        }
    }
}

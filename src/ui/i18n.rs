//! The page's language in the browser: what the browser and the reader chose, the Chinese
//! catalogue fetched once for every playground of the document, and messages
//! with `**bold**` and `` `code` `` drawn as such.

use super::fetch::{asset_url, fetch_text};
use crate::i18n::{msg, spans, Catalogue, Lang, Span, Tr};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Where the reader's choice is kept in the browser's storage.
const STORAGE_KEY: &str = "kafka-election-lang";

/// The Chinese catalogue, beside the module (`dist/i18n/`).
const CATALOGUE_PATH: &str = "i18n/zh-CN.json";

/// The language the reader chose before, if the browser kept it.
pub fn stored_lang() -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(STORAGE_KEY)
        .ok()?
}

/// Keeps the reader's choice (a browser that refuses storage keeps nothing, silently).
pub fn store_lang(lang: Lang) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(STORAGE_KEY, lang.code());
    }
}

/// The browser's language (`navigator.language`).
pub fn browser_lang() -> Option<String> {
    web_sys::window()?.navigator().language()
}

type Waiter = Callback<Result<Rc<Catalogue>, String>>;

enum Load {
    Idle,
    Loading(Vec<Waiter>),
    Done(Rc<Catalogue>),
}

thread_local! {
    static LOAD: RefCell<Load> = const { RefCell::new(Load::Idle) };
}

/// The catalogue, if it has arrived.
pub fn cached() -> Option<Rc<Catalogue>> {
    LOAD.with(|l| match &*l.borrow() {
        Load::Done(c) => Some(c.clone()),
        _ => None,
    })
}

/// Hands the Chinese catalogue to `done`: at once if it is here, else once fetched (one
/// fetch for every playground that waits; a failed one is tried again on the next need).
pub fn load(done: Waiter) {
    let start = LOAD.with(|l| {
        let mut l = l.borrow_mut();
        match &mut *l {
            Load::Done(c) => {
                done.emit(Ok(c.clone()));
                false
            }
            Load::Loading(waiting) => {
                waiting.push(done.clone());
                false
            }
            Load::Idle => {
                *l = Load::Loading(vec![done.clone()]);
                true
            }
        }
    });
    if start {
        fetch(asset_url(CATALOGUE_PATH));
    }
}

fn finish(result: Result<Catalogue, String>) {
    let result = result.map(Rc::new);
    let waiting = LOAD.with(|l| {
        let mut l = l.borrow_mut();
        let next = match &result {
            Ok(c) => Load::Done(c.clone()),
            Err(_) => Load::Idle,
        };
        match std::mem::replace(&mut *l, next) {
            Load::Loading(w) => w,
            _ => Vec::new(),
        }
    });
    if let Ok(c) = &result {
        // The check reads every message's key: the first view leaves it to the module's
        // second part.
        let c = c.clone();
        super::later::when_here(move || warn_missing(&c));
    }
    for w in waiting {
        w.emit(result.clone());
    }
}

/// Names in the console the messages `c` lacks (shown in English).
fn warn_missing(c: &Catalogue) {
    let missing = c.missing();
    if !missing.is_empty() {
        web_sys::console::warn_1(
            &Tr::en()
                .f(
                    msg::LANG_MISSING_KEYS,
                    &[("count", &missing.len()), ("keys", &missing.join(", "))],
                )
                .into(),
        );
    }
}

fn fetch(url: String) {
    fetch_text(
        url.clone(),
        Callback::from(move |r: Result<String, String>| {
            finish(r.and_then(|t| Catalogue::parse(&t).map_err(|e| format!("{url}: {e}"))))
        }),
    );
}

/// A message drawn with its `**bold**` and `` `code` `` parts.
pub fn rich(text: &str) -> Html {
    html! {
        <>
            { for spans(text).into_iter().map(|(kind, t)| match kind {
                Span::Plain => html! { { t.to_string() } },
                Span::Strong => html! { <strong>{ t.to_string() }</strong> },
                Span::Code => html! { <code>{ t.to_string() }</code> },
            }) }
        </>
    }
}

/// Puts the page's language on `<html lang>` and its title in the document's title (the
/// page's own playground only: a mounted one leaves its host page alone).
pub fn mark_document(tr: &Tr) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(html) = document.document_element() {
        let _ = html.set_attribute("lang", tr.lang().code());
    }
    document.set_title(&tr.t(msg::PAGE_TITLE));
}

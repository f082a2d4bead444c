//! The page's language in the browser: what the browser and the reader chose, the Chinese
//! catalogue fetched once for every playground of the document, the switch, and messages
//! with `**bold**` and `` `code` `` drawn as such.

use super::model::Action;
use crate::i18n::{msg, spans, Catalogue, Lang, Span, Tr};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Where the reader's choice is kept in the browser's storage.
const STORAGE_KEY: &str = "kafka-election-lang";

/// The Chinese catalogue, beside the module (`dist/i18n/`).
const CATALOGUE_PATH: &str = "i18n/zh-CN.json";

#[wasm_bindgen(inline_js = "export function module_url() { return import.meta.url; }")]
extern "C" {
    /// The address of the module's JavaScript (a snippet beside the glue), wherever the
    /// playground is served from, whichever page loads it.
    fn module_url() -> String;
}

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

/// Where the catalogue is: beside the module's files (the snippets sit in `snippets/` under
/// them), else beside the page.
fn catalogue_url() -> String {
    let module = module_url();
    if let Some(i) = module.find("/snippets/") {
        return format!("{}/{CATALOGUE_PATH}", &module[..i]);
    }
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    web_sys::Url::new_with_base(CATALOGUE_PATH, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| CATALOGUE_PATH.to_string())
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
        fetch(catalogue_url());
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
    for w in waiting {
        w.emit(result.clone());
    }
}

fn fetch(url: String) {
    let Some(window) = web_sys::window() else {
        finish(Err("no browser window".into()));
        return;
    };
    let shown = url.clone();
    let on_response = Closure::once(move |v: JsValue| {
        let Ok(response) = v.dyn_into::<web_sys::Response>() else {
            finish(Err(format!("{shown}: no response")));
            return;
        };
        if !response.ok() {
            finish(Err(format!("{shown}: HTTP {}", response.status())));
            return;
        }
        let Ok(text) = response.text() else {
            finish(Err(format!("{shown}: unreadable")));
            return;
        };
        let (ok_url, err_url) = (shown.clone(), shown);
        let on_text = Closure::once(move |t: JsValue| {
            finish(
                Catalogue::parse(&t.as_string().unwrap_or_default())
                    .map_err(|e| format!("{ok_url}: {e}")),
            )
        });
        let on_err = Closure::once(move |_: JsValue| finish(Err(format!("{err_url}: unreadable"))));
        let _ = text.then2(&on_text, &on_err);
        on_text.forget();
        on_err.forget();
    });
    let failed = url.clone();
    let on_error = Closure::once(move |e: JsValue| {
        let why = js_sys::Reflect::get(&e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| "the request failed".into());
        finish(Err(format!("{failed}: {why}")))
    });
    let _ = window.fetch_with_str(&url).then2(&on_response, &on_error);
    on_response.forget();
    on_error.forget();
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

/// The language switch: each language by its own name, the one shown pressed.
pub fn lang_switch(lang: Lang, tr: &Tr, dispatch: &Callback<Action>) -> Html {
    html! {
        <div class="lang-switch" role="group" aria-label={tr.t(msg::LANG_SWITCH_LABEL)} data-testid="lang-switch">
            { for Lang::ALL.iter().map(|l| {
                let l = *l;
                let onclick = {
                    let d = dispatch.clone();
                    Callback::from(move |_: MouseEvent| d.emit(Action::SetLang(l)))
                };
                html! {
                    <button class={classes!("ghost", (l == lang).then_some("on"))} lang={l.code()}
                            aria-pressed={(l == lang).to_string()} data-lang={l.code()}
                            title={tr.f(msg::LANG_SWITCH_TITLE, &[("language", &l.own_name())])} {onclick}>
                        { l.own_name() }
                    </button>
                }
            }) }
        </div>
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

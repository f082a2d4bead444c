//! Data files served beside the playground (the Chinese catalogue, the lessons, the stories),
//! fetched when first needed: where they are, and reading one as text.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

#[wasm_bindgen(inline_js = "export function module_url() { return import.meta.url; }")]
extern "C" {
    /// The address of the module's JavaScript (a snippet beside the glue), wherever the
    /// playground is served from, whichever page loads it.
    fn module_url() -> String;
}

/// The address of `path` (`i18n/zh-CN.json`, `lessons/index.json`): beside the module's files
/// (the snippets sit in `snippets/` under them), else beside the page. So a page that loads
/// the module from elsewhere (the JavaScript API, an embedding page) still finds them.
pub fn asset_url(path: &str) -> String {
    let module = module_url();
    if let Some(i) = module.find("/snippets/") {
        return format!("{}/{path}", &module[..i]);
    }
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    web_sys::Url::new_with_base(path, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| path.to_string())
}

/// Fetches `url` and hands its text to `done`, or one message naming the address and what
/// went wrong (no answer, an HTTP error, an unreadable body).
pub fn fetch_text(url: String, done: Callback<Result<String, String>>) {
    let Some(window) = web_sys::window() else {
        done.emit(Err("no browser window".into()));
        return;
    };
    let (shown, on_fail) = (url.clone(), done.clone());
    let on_response = Closure::once(move |v: JsValue| {
        let Ok(response) = v.dyn_into::<web_sys::Response>() else {
            done.emit(Err(format!("{shown}: no response")));
            return;
        };
        if !response.ok() {
            done.emit(Err(format!("{shown}: HTTP {}", response.status())));
            return;
        }
        let Ok(text) = response.text() else {
            done.emit(Err(format!("{shown}: unreadable")));
            return;
        };
        let (ok, err) = (done.clone(), done);
        let on_text =
            Closure::once(move |t: JsValue| ok.emit(Ok(t.as_string().unwrap_or_default())));
        let on_err = Closure::once(move |_: JsValue| err.emit(Err(format!("{shown}: unreadable"))));
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
        on_fail.emit(Err(format!("{failed}: {why}")))
    });
    let _ = window.fetch_with_str(&url).then2(&on_response, &on_error);
    on_response.forget();
    on_error.forget();
}

/// Fetches `url` and waits for its text: a synchronous request, for the one caller that must
/// answer at once (a story file not fetched ahead, `src/ui/stories.rs`), as the module's second
/// part is waited for when a call needs it before it has arrived. One message naming the address
/// and what went wrong if it fails.
pub fn fetch_text_now(url: &str) -> Result<String, String> {
    let request = web_sys::XmlHttpRequest::new().map_err(|_| format!("{url}: no request"))?;
    request
        .open_with_async("GET", url, false)
        .map_err(|_| format!("{url}: the request failed"))?;
    if request.send().is_err() {
        return Err(format!("{url}: no answer"));
    }
    match request.status() {
        Ok(200) => request
            .response_text()
            .ok()
            .flatten()
            .ok_or_else(|| format!("{url}: unreadable")),
        Ok(0) | Err(_) => Err(format!("{url}: no answer")),
        Ok(status) => Err(format!("{url}: HTTP {status}")),
    }
}

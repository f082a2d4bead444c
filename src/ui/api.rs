//! The JavaScript API: `window.KafkaElection.mount(element, options)` mounts a playground into
//! any element and returns a [`Playground`] handle that plays, pauses, seeks, applies commands,
//! reads the state and reports events (docs/embedding.md). The options are read into
//! [`MountOptions`] and turned into the pairs a page address gives, so both go through one
//! parser with one set of messages; commands are read as the scenario format's actions. A bad
//! option or command throws an `Error` with the message and changes nothing.

use super::app::{App, AppProps};
use super::embed::{Bridge, EventSink};
use super::model::Model;
use crate::i18n::Tr;
use crate::view::embed::MountOptions;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The name of the global object the API is found under.
pub const GLOBAL: &str = "KafkaElection";

/// The event dispatched on `window` once [`GLOBAL`] exists.
pub const READY_EVENT: &str = "kafka-election-ready";

thread_local! {
    /// Numbers the playgrounds mounted through the API, for their element ids only.
    static MOUNTED: Cell<u32> = const { Cell::new(0) };
}

fn js_error(msg: impl AsRef<str>) -> JsError {
    JsError::new(msg.as_ref())
}

/// Reads the options object (`undefined` and `null` mean none). It goes through JSON, where an
/// unknown option is caught (serde-wasm-bindgen reads only a struct's own fields).
fn read_options(options: JsValue) -> Result<MountOptions, String> {
    if js_sys::Array::is_array(&options) {
        return MountOptions::from_json(serde_json::Value::Array(Vec::new()));
    }
    let value: serde_json::Value = serde_wasm_bindgen::from_value(options)
        .map_err(|e| format!("the options could not be read: {e}"))?;
    MountOptions::from_json(value)
}

/// The attribute that makes a mount's element a scoping root of the playground's stylesheet.
const SCOPE_ATTRIBUTE: &str = "data-kafka-election";

/// Mounts a playground into `element` with `options`; see the module's documentation.
pub fn mount(element: JsValue, options: JsValue) -> Result<Playground, JsError> {
    let element: web_sys::Element = element.dyn_into().map_err(|_| {
        js_error("mount needs an element to mount into, e.g. document.querySelector('#playground')")
    })?;
    if element.get_attribute("data-mounted").as_deref() == Some("true") {
        return Err(js_error(
            "this element already holds a playground: unmount it first",
        ));
    }
    let options = read_options(options).map_err(js_error)?;
    let pairs = options.to_pairs();
    let (mut model, problems) = Model::read_params(&pairs);
    if !problems.is_empty() {
        // For the embedding page's developer: in English.
        let problems: Vec<String> = problems.iter().map(|p| p.say(&Tr::en())).collect();
        return Err(js_error(problems.join("; ")));
    }
    let n = MOUNTED.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    model.chrome.ids = format!("kafka-election-{n}-");
    let bridge = Bridge::new(model);
    element.set_inner_html("");
    let _ = element.set_attribute("data-mounted", "true");
    // The stylesheet's scoping root (`@scope` in www/styles.css): its rules reach this element's
    // contents and nothing else of the embedding page.
    let _ = element.set_attribute(SCOPE_ATTRIBUTE, "");
    let app = yew::Renderer::<App>::with_root_and_props(
        element.clone(),
        AppProps {
            params: pairs,
            bridge: Some(bridge.clone()),
            own_page: false,
        },
    )
    .render();
    Ok(Playground {
        bridge,
        app: Some(app),
        element,
    })
}

/// One playground mounted by `KafkaElection.mount`.
#[wasm_bindgen]
pub struct Playground {
    bridge: Bridge,
    app: Option<yew::AppHandle<App>>,
    element: web_sys::Element,
}

#[wasm_bindgen]
impl Playground {
    /// Runs the clock.
    pub fn play(&self) -> Result<(), JsError> {
        self.bridge.set_playing(true).map_err(js_error)
    }

    /// Stops the clock.
    pub fn pause(&self) -> Result<(), JsError> {
        self.bridge.set_playing(false).map_err(js_error)
    }

    /// Moves the world forward to virtual time `ms` (going back throws).
    pub fn seek(&self, ms: JsValue) -> Result<(), JsError> {
        let ms = ms
            .as_f64()
            .filter(|v| v.is_finite() && *v >= 0.0 && v.fract() == 0.0 && *v <= u64::MAX as f64)
            .ok_or_else(|| {
                js_error("seek needs a whole number of virtual milliseconds, e.g. seek(5000)")
            })?;
        self.bridge.seek(ms as u64).map_err(js_error)
    }

    /// Applies a command now: a scenario action without `at_ms`, e.g. `{do: "crash", broker:
    /// 2}`. A bad one throws with the command line's message and changes nothing.
    pub fn apply(&self, command: JsValue) -> Result<(), JsError> {
        let text = js_sys::JSON::stringify(&command)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| js_error("a command is an object such as {do: \"crash\", broker: 2}"))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| js_error(e.to_string()))?;
        self.bridge.apply(&value).map_err(js_error)
    }

    /// The state as the command line prints it, as an object.
    pub fn state(&self) -> Result<JsValue, JsError> {
        let text = self.bridge.state_json().map_err(js_error)?;
        js_sys::JSON::parse(&text).map_err(|_| js_error("the state did not parse"))
    }

    /// The session's link: the text after `#` of an address that reopens this playground's
    /// session as it is now; the `session` option of `mount` takes it.
    pub fn link(&self) -> Result<String, JsError> {
        self.bridge.link().map_err(js_error)
    }

    /// Calls `callback` with each event of `kind` (e.g. `"controller_elected"`, or `"*"` for
    /// every event) as it happens, as the command line's `--events` prints it. Returns a
    /// function that stops it.
    pub fn on(
        &self,
        kind: String,
        callback: js_sys::Function,
    ) -> Result<js_sys::Function, JsError> {
        let sink: EventSink = Rc::new(move |event: &serde_json::Value| {
            let Ok(value) = js_sys::JSON::parse(&event.to_string()) else {
                return;
            };
            if let Err(e) = callback.call1(&JsValue::NULL, &value) {
                web_sys::console::error_2(&"A Kafka Election event listener threw:".into(), &e);
            }
        });
        let id = self.bridge.on(&kind, sink).map_err(js_error)?;
        let bridge = self.bridge.clone();
        let off = Closure::<dyn FnMut()>::new(move || bridge.off(id));
        Ok(off.into_js_value().unchecked_into())
    }

    /// Removes the playground from its element; every later call throws.
    pub fn unmount(&mut self) {
        self.bridge.close();
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        self.element.set_inner_html("");
        let _ = self.element.remove_attribute("data-mounted");
        let _ = self.element.remove_attribute(SCOPE_ATTRIBUTE);
    }
}

/// Puts [`GLOBAL`] on `window` with its `mount`, then dispatches [`READY_EVENT`].
pub fn install() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let api = js_sys::Object::new();
    let mount_fn = Closure::<dyn Fn(JsValue, JsValue) -> Result<Playground, JsError>>::new(mount);
    let _ = js_sys::Reflect::set(&api, &"mount".into(), &mount_fn.into_js_value());
    let _ = js_sys::Reflect::set(&window, &GLOBAL.into(), &api);
    if let Ok(event) = web_sys::Event::new(READY_EVENT) {
        let _ = window.dispatch_event(&event);
    }
}

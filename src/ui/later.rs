//! The parts of the page the first view does not show, drawn once the module's second part is
//! there.
//!
//! The build splits the module in two (`www/scripts/split-module.mjs`): the first part holds
//! what the default page runs until a learner's first clicks, the second part the rest, fetched
//! in the background as soon as the first part runs. The panels under the graph (the broker
//! panel, the groups, the partitions), the explanation and the Kafka detail of the log's
//! entries are below the fold on a wide screen and behind tabs on a narrow one, so the page
//! draws them from the second part: until it has arrived each says it is loading, and the
//! page draws them the moment it is there (on a fast connection, before a reader could have
//! scrolled to them).
//!
//! The build's loader says where the second part stands in a global, `__kafkaElectionLater`
//! (`"pending"`, `"here"` or `"failed"`), and announces each change with a
//! `kafka-election-later` event on the window. A module that was not split (`SPLIT=off`) has
//! no such global: everything is there from the start.

use crate::i18n::{msg, Tr};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::{hook, html, use_effect_with, use_state_eq, Html};

/// The global the build's loader keeps up to date.
const FLAG: &str = "__kafkaElectionLater";
/// The event it sends on the window when the flag changes.
const EVENT: &str = "kafka-election-later";

/// Where the module's second part stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Later {
    /// Still on its way.
    Pending,
    /// There (or the module was never split).
    Here,
    /// Its download failed; a call into it tries again, and the page says so if that fails.
    Failed,
}

impl Later {
    /// What the loader's global says now.
    pub fn now() -> Later {
        let flag = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &FLAG.into()).ok())
            .and_then(|v| v.as_string());
        match flag.as_deref() {
            Some("pending") => Later::Pending,
            Some("failed") => Later::Failed,
            _ => Later::Here,
        }
    }

    /// Whether the parts it holds can be drawn.
    pub fn here(self) -> bool {
        self == Later::Here
    }
}

/// Where the second part stands, re-rendering the component when that changes.
#[hook]
pub fn use_later() -> Later {
    let later = use_state_eq(Later::now);
    {
        let later = later.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window();
            let update = move || later.set(Later::now());
            // It may have arrived between the first render and this effect.
            update();
            let closure: Closure<dyn Fn()> = Closure::new(update);
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback(EVENT, closure.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        EVENT,
                        closure.as_ref().unchecked_ref(),
                    );
                }
                drop(closure);
            }
        });
    }
    *later
}

/// Runs `f` once the second part is here: now if it is, else when it arrives (never if it
/// cannot be had). For work the first view can leave until then.
pub fn when_here(f: impl FnOnce() + 'static) {
    if Later::now().here() {
        f();
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let f = std::cell::Cell::new(Some(f));
    let closure: Closure<dyn Fn()> = Closure::new(move || {
        if Later::now().here() {
            if let Some(f) = f.take() {
                f();
            }
        }
    });
    let _ = window.add_event_listener_with_callback(EVENT, closure.as_ref().unchecked_ref());
    // It stays for the page's life: one small closure for each call, and the page makes one
    // (when its Chinese catalogue arrives).
    closure.forget();
}

/// What stands in for a panel while the second part is not there: its heading, if it has one,
/// and a line saying it is loading (or that it could not be loaded), busy for assistive
/// technology while it loads.
pub fn waiting(later: Later, title: Option<String>, tr: &Tr) -> Html {
    let failed = later == Later::Failed;
    html! {
        <section class="panel later-wait" aria-busy={(!failed).to_string()} data-testid="later-wait">
            if let Some(t) = title {
                <h2>{ t }</h2>
            }
            <p class="hint">{ tr.t(if failed { msg::LATER_FAILED } else { msg::LATER_LOADING }) }</p>
        </section>
    }
}

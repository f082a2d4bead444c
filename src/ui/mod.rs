//! The Yew page (wasm32 only): a view of the [`World`](crate::World) that turns clicks into
//! [`crate::sim::Command`]s. No Kafka rule lives here: the world decides, the page draws.
//! What it draws and says is computed natively in [`crate::view`].
//!
//! - [`model`]: the page state and its reducer (the world is kept in place, not cloned);
//! - [`app`]: the page layout; [`graph`]: the SVG cluster graph; [`event_log`]: the log;
//!   [`controls`]: the toolbar; [`panel`]: the selected-broker panel; [`groups`]: the
//!   consumer groups;
//!   [`partitions`]: the partition table with the producer's and the topics' controls;
//! - [`lesson`]: the lesson list and the card of the lesson under way;
//! - [`overlay`]: the play overlay of a story opened paused; [`seen`]: a story starts once
//!   the page is in view;
//! - [`shell`]: the tabs of narrow screens and the strip of what just happened;
//!   [`broker_menu`]: a broker's menu beside its node; [`a11y`]: shortcuts, focus, the
//!   live region and the help overlay;
//! - [`api`]: the JavaScript API (`window.KafkaElection.mount`); [`embed`]: embed mode's
//!   chrome and the bridge that drives one playground; [`iframe`]: an embedded page driven by
//!   its parent page with `postMessage`;
//! - [`address`]: the page's address, which follows the session and keeps the language;
//!   [`i18n`]: the language, the Chinese catalogue's fetch and the switch; [`fetch`]: data
//!   files served beside the page;
//! - [`hooks`]: the animation-frame loop; [`crate::view::flights`]: messages in flight,
//!   drawn over a fixed wall-clock time; [`crate::view::format`]: shared wording.
//!
//! The views the default page does not show at first (a story's box, a lesson's card, the
//! group and partition panels, a broker's details, the embed mode's timeline) are
//! `#[inline(never)]`: kept out of the page's one large view function, they can go to the
//! second part of the module that the build splits off (`www/scripts/split-module.mjs`), which
//! the first view does not wait for. Those the default page would draw below the fold or
//! behind a tab wait for that part ([`later`]).

pub mod a11y;
pub mod address;
pub mod api;
pub mod app;
pub mod broker_menu;
pub mod controls;
pub mod embed;
pub mod event_log;
pub mod fetch;
pub mod graph;
pub mod groups;
pub mod hooks;
pub mod i18n;
pub mod iframe;
pub mod later;
pub mod lesson;
pub mod model;
pub mod overlay;
pub mod panel;
pub mod partitions;
pub mod said;
pub mod seen;
pub mod shell;
pub mod stories;
pub mod timeline;

/// The element the page mounts into (`index.html` provides it). A page without it (one that
/// loads the module for the JavaScript API) gets no playground it did not ask for.
const ROOT_ID: &str = "app";
/// The element that shows a fatal error.
const FATAL_ID: &str = "fatal";

/// Puts the JavaScript API on `window` and mounts the page into `#app` if the page has one.
/// If the page ever panics, says so on the page instead of leaving it blank.
pub fn start() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let tr = model::reader();
        let msg = tr.f(crate::i18n::msg::ERR_INTERNAL, &[("why", &info)]);
        web_sys::console::error_1(&msg.clone().into());
        show_fatal(&msg);
    }));
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        web_sys::console::error_1(&"The playground needs a browser window with a document.".into());
        return;
    };
    api::install();
    let Some(root) = document.get_element_by_id(ROOT_ID) else {
        return;
    };
    let params = model::Model::location_params();
    // A story the address opens is fetched before the page starts (the page shows its first
    // frame meanwhile); if it cannot be, the page starts and says why.
    match stories::wanted(&params) {
        Some(story) => stories::fetch(
            story,
            yew::Callback::from(move |_| mount_page(root.clone(), params.clone())),
        ),
        None => mount_page(root, params),
    }
}

/// Mounts the page into `root`, as `params` ask.
fn mount_page(root: web_sys::Element, params: Vec<(String, String)>) {
    // A page embedded in another and driven by it (`parent=`) talks to it through a bridge.
    let bridge = params.iter().any(|(k, _)| k == "parent").then(|| {
        let model = model::Model::from_params(&params);
        let parents = model.chrome.parents.clone();
        let bridge = embed::Bridge::new(model);
        if !parents.is_empty() {
            iframe::connect(&bridge, parents);
        }
        bridge
    });
    // What the page showed while the module loaded (the first frame the build wrote, or the
    // loading notes) goes, and the page is live.
    root.set_inner_html("");
    let _ = root.remove_attribute("inert");
    let _ = root.remove_attribute("aria-busy");
    let _ = root.set_attribute("data-mounted", "true");
    yew::Renderer::<app::App>::with_root_and_props(
        root,
        app::AppProps {
            params,
            bridge,
            own_page: true,
        },
    )
    .render();
}

/// Puts `msg` in the page's fatal-error box, or at the top of the body.
fn show_fatal(msg: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let target = document.get_element_by_id(FATAL_ID).or_else(|| {
        let el = document.create_element("div").ok()?;
        let _ = el.set_attribute("role", "alert");
        let body = document.body()?;
        let _ = body.prepend_with_node_1(&el);
        Some(el)
    });
    if let Some(el) = target {
        el.set_text_content(Some(&format!("{msg} Reload the page to start again.")));
        let _ = el.remove_attribute("hidden");
    }
}

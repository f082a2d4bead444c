//! What makes the page usable without a mouse or without sight: ids unique to each mounted
//! playground, native listeners bound to the playground's own root (or to the document for
//! the page's own playground), focus moves, the polite live region, and the shortcuts' help
//! overlay (a modal dialog that traps focus and gives it back).

use crate::i18n::msg;
use crate::view::shortcuts::{Shown, SHORTCUTS};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlElement, SvgElement};
use yew::prelude::*;

thread_local! {
    static NEXT_INSTANCE: Cell<u32> = const { Cell::new(1) };
}

/// A number no other playground on the page has, for ids that must be unique.
pub fn next_instance() -> u32 {
    NEXT_INSTANCE.with(|n| {
        let v = n.get();
        n.set(v + 1);
        v
    })
}

/// The element the page's own playground mounts into (`index.html`'s).
const OWN_ROOT_ID: &str = "app";

/// Whether the playground at `root` is the page's own (mounted at `#app`), not one of several
/// mounted into a host page's elements.
pub fn is_own_page(root: &Element) -> bool {
    root.parent_element().is_some_and(|p| p.id() == OWN_ROOT_ID)
}

/// Moves the keyboard focus to `el`, an HTML or SVG element.
pub fn focus(el: &Element) {
    if let Some(h) = el.dyn_ref::<HtmlElement>() {
        let _ = h.focus();
    } else if let Some(s) = el.dyn_ref::<SvgElement>() {
        let _ = s.focus();
    }
}

/// The element that has the keyboard focus.
pub fn focused() -> Option<Element> {
    web_sys::window()?.document()?.active_element()
}

/// Calls `on_event` for every `event` on the element of `root` (in the capture phase when
/// `capture`), or on the document when `document_if_own` and the playground is the page's
/// own. The listener is added once; it always calls the latest `on_event`.
#[hook]
pub fn use_listener(
    root: NodeRef,
    event: &'static str,
    capture: bool,
    document_if_own: bool,
    on_event: Callback<Event>,
) {
    let latest = use_mut_ref(|| on_event.clone());
    *latest.borrow_mut() = on_event;
    use_effect_with((), move |_| {
        let target: Option<EventTarget> = root.cast::<Element>().map(|el| {
            let document = web_sys::window().and_then(|w| w.document());
            match document {
                Some(d) if document_if_own && is_own_page(&el) => d.into(),
                _ => el.into(),
            }
        });
        let closure: Closure<dyn FnMut(Event)> =
            Closure::new(move |e: Event| latest.borrow().emit(e));
        if let Some(t) = &target {
            let _ = t.add_event_listener_with_callback_and_bool(
                event,
                closure.as_ref().unchecked_ref(),
                capture,
            );
        }
        move || {
            if let Some(t) = &target {
                let _ = t.remove_event_listener_with_callback_and_bool(
                    event,
                    closure.as_ref().unchecked_ref(),
                    capture,
                );
            }
            drop(closure);
        }
    });
}

/// The one polite live region: the latest key event, read out when it changes.
pub fn live_region(text: Option<String>) -> Html {
    html! {
        <p class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
            { text.unwrap_or_default() }
        </p>
    }
}

/// The help overlay's inputs.
#[derive(Properties, PartialEq)]
pub struct HelpProps {
    /// The id of its title (unique to this playground).
    pub title_id: AttrValue,
    /// Closes it (the page gives the focus back).
    pub on_close: Callback<()>,
    /// The page's words.
    pub tr: crate::i18n::Tr,
}

/// The keyboard shortcuts, as a modal dialog: Escape or its button closes it, Tab stays in it.
#[component]
pub fn HelpDialog(props: &HelpProps) -> Html {
    let dialog = use_node_ref();
    {
        let dialog = dialog.clone();
        use_effect_with((), move |_| {
            if let Some(button) = dialog
                .cast::<Element>()
                .and_then(|d| d.query_selector("button").ok().flatten())
            {
                focus(&button);
            }
        });
    }
    let onkeydown = {
        let (on_close, dialog) = (props.on_close.clone(), dialog.clone());
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Escape" => {
                e.prevent_default();
                e.stop_propagation();
                on_close.emit(());
            }
            "Tab" => {
                // Focus stays in the dialog: it cycles through its buttons.
                let Some(d) = dialog.cast::<Element>() else {
                    return;
                };
                let Ok(list) = d.query_selector_all("button") else {
                    return;
                };
                let buttons: Vec<Element> = (0..list.length())
                    .filter_map(|i| list.item(i).and_then(|n| n.dyn_into::<Element>().ok()))
                    .collect();
                let at = focused().and_then(|f| buttons.iter().position(|b| *b == f));
                let n = buttons.len();
                if n == 0 {
                    return;
                }
                let next = match (at, e.shift_key()) {
                    (Some(i), false) => (i + 1) % n,
                    (Some(i), true) => (i + n - 1) % n,
                    (None, _) => 0,
                };
                e.prevent_default();
                focus(&buttons[next]);
            }
            _ => {}
        })
    };
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let tr = &props.tr;
    let backdrop = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    html! {
        <>
            <div class="help-backdrop" onclick={backdrop} aria-hidden="true"></div>
            <div class="help-dialog" role="dialog" aria-modal="true" aria-labelledby={props.title_id.clone()}
                 ref={dialog} {onkeydown} data-testid="help-dialog">
                <div class="help-head">
                    <h2 id={props.title_id.clone()}>{ tr.t(msg::HELP_TITLE) }</h2>
                    <button class="ghost close" onclick={close.clone()} aria-label={tr.t(msg::HELP_CLOSE_LABEL)}>{ "×" }</button>
                </div>
                <table class="help-keys">
                    <thead>
                        <tr><th scope="col">{ tr.t(msg::HELP_KEYS) }</th><th scope="col">{ tr.t(msg::HELP_WHAT) }</th></tr>
                    </thead>
                    <tbody>
                        { for SHORTCUTS.iter().map(|s| html! {
                            <tr data-action={s.action}>
                                <th scope="row"><kbd>{ match s.shown {
                                    Shown::Key(k) => k.to_string(),
                                    Shown::Words(w) => tr.t(w),
                                } }</kbd></th>
                                <td>
                                    { tr.t(s.description) }
                                </td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                <p class="help-note">{ tr.t(msg::HELP_NOTE) }</p>
                <div class="help-actions">
                    <button class="primary" onclick={close}>{ tr.t(msg::CLOSE) }</button>
                </div>
            </div>
        </>
    }
}

/// A timer's id and the closure it calls.
type Timer = (i32, Closure<dyn FnMut()>);

/// A long press on a touch screen: a timer that fires after [`LONG_PRESS_MS`] unless the
/// finger lifts or moves, and whether the click that follows must be swallowed.
#[derive(Default)]
pub struct LongPress {
    /// The pending timer's id and its closure.
    pending: RefCell<Option<Timer>>,
    /// Where the press started.
    pub start: Cell<(f64, f64)>,
    /// Set when the long press fired: the click that ends it does nothing.
    pub swallow_click: Cell<bool>,
}

/// How long a press lasts before it opens a broker's menu.
pub const LONG_PRESS_MS: i32 = 500;

impl LongPress {
    /// Starts the timer: `fire` runs after [`LONG_PRESS_MS`].
    pub fn start(self: &Rc<Self>, at: (f64, f64), fire: impl FnOnce() + 'static) {
        self.cancel();
        self.start.set(at);
        let me = Rc::downgrade(self);
        let mut fire = Some(fire);
        let closure: Closure<dyn FnMut()> = Closure::new(move || {
            // The closure stays in `pending` (dropping it here, while it runs, is not allowed)
            // until the next press or cancel.
            if let Some(me) = me.upgrade() {
                me.swallow_click.set(true);
            }
            if let Some(f) = fire.take() {
                f();
            }
        });
        let id = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(
                closure.as_ref().unchecked_ref(),
                LONG_PRESS_MS,
            )
            .ok()
        });
        if let Some(id) = id {
            *self.pending.borrow_mut() = Some((id, closure));
        }
    }

    /// Stops the timer, if it runs.
    pub fn cancel(&self) {
        if let Some((id, _closure)) = self.pending.borrow_mut().take() {
            if let Some(w) = web_sys::window() {
                w.clear_timeout_with_handle(id);
            }
        }
    }
}

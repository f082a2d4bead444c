//! Browser plumbing as Yew hooks: the animation-frame loop, and an element's size.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, ResizeObserver, ResizeObserverEntry};
use yew::{hook, use_effect_with, use_state_eq, Callback, NodeRef};

type FrameClosure = Closure<dyn FnMut(f64)>;

/// Calls `on_frame` with the `performance.now()` timestamp of every animation frame while the
/// component is mounted.
#[hook]
pub fn use_animation_frames(on_frame: Callback<f64>) {
    use_effect_with((), move |_| {
        let slot: Rc<RefCell<Option<FrameClosure>>> = Rc::new(RefCell::new(None));
        let request_id = Rc::new(Cell::new(None::<i32>));
        let alive = Rc::new(Cell::new(true));
        {
            let slot_inner = slot.clone();
            let request_id = request_id.clone();
            let alive = alive.clone();
            *slot.borrow_mut() = Some(Closure::new(move |ts: f64| {
                if !alive.get() {
                    return;
                }
                on_frame.emit(ts);
                if alive.get() {
                    request_id.set(request(&slot_inner));
                }
            }));
        }
        request_id.set(request(&slot));
        move || {
            alive.set(false);
            if let (Some(window), Some(id)) = (web_sys::window(), request_id.get()) {
                let _ = window.cancel_animation_frame(id);
            }
            // Breaks the cycle between the closure and the slot that holds it.
            slot.borrow_mut().take();
        }
    });
}

fn request(slot: &Rc<RefCell<Option<FrameClosure>>>) -> Option<i32> {
    let window = web_sys::window()?;
    let guard = slot.borrow();
    let closure = guard.as_ref()?;
    window
        .request_animation_frame(closure.as_ref().unchecked_ref())
        .ok()
}

type EntriesClosure = Closure<dyn FnMut(js_sys::Array)>;

/// The size (CSS px, whole pixels) of the element `selector` names inside `root`, kept up to
/// date by a `ResizeObserver` while `watch` holds and the component is mounted; `None` when
/// not watched or the browser cannot observe. A hidden element (0 x 0, say under another tab)
/// keeps the size it last had. The observer reports after the browser's layout, so reading the
/// size forces none.
#[hook]
pub fn use_box_size(root: &NodeRef, selector: &'static str, watch: bool) -> Option<(f64, f64)> {
    let size = use_state_eq(|| None::<(f64, f64)>);
    {
        let (root, size) = (root.clone(), size.clone());
        use_effect_with(watch, move |watch| {
            let target = root
                .cast::<Element>()
                .and_then(|r| r.query_selector(selector).ok().flatten())
                .filter(|_| *watch);
            // The observer and its callback live until the effect is cleaned up.
            let observing = target.and_then(|t| {
                let set = size.clone();
                let closure: EntriesClosure = Closure::new(move |entries: js_sys::Array| {
                    // One element is observed: its newest entry comes last.
                    let newest = entries.get(entries.length().saturating_sub(1));
                    if let Ok(e) = newest.dyn_into::<ResizeObserverEntry>() {
                        let r = e.content_rect();
                        if r.width() > 0.0 && r.height() > 0.0 {
                            set.set(Some((r.width().round(), r.height().round())));
                        }
                    }
                });
                let o = ResizeObserver::new(closure.as_ref().unchecked_ref()).ok()?;
                o.observe(&t);
                Some((o, closure))
            });
            if observing.is_none() {
                size.set(None);
            }
            move || {
                if let Some((o, _closure)) = observing {
                    o.disconnect();
                }
            }
        });
    }
    *size
}

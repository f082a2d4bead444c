//! A story starts when the learner can see it: an `IntersectionObserver` on the page's root
//! element (inside an iframe, its intersection with the embedding page's viewport) tells
//! once the page comes into view.

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{IntersectionObserver, IntersectionObserverEntry};
use yew::{hook, use_effect_with, Callback};

type EntriesClosure = Closure<dyn FnMut(js_sys::Array, IntersectionObserver)>;

/// Calls `on_seen` once, the first time the page's root element is in view (at once when
/// the browser cannot observe it: the story must not stay stopped for good).
#[hook]
pub fn use_when_seen(on_seen: Callback<()>) {
    use_effect_with((), move |_| {
        let slot: Rc<RefCell<Option<EntriesClosure>>> = Rc::new(RefCell::new(None));
        let observer = observe(&slot, on_seen.clone());
        if observer.is_none() {
            on_seen.emit(());
        }
        move || {
            if let Some(o) = observer {
                o.disconnect();
            }
            slot.borrow_mut().take();
        }
    });
}

fn observe(
    slot: &Rc<RefCell<Option<EntriesClosure>>>,
    on_seen: Callback<()>,
) -> Option<IntersectionObserver> {
    let root = web_sys::window()?.document()?.document_element()?;
    let closure: EntriesClosure = Closure::new(
        move |entries: js_sys::Array, observer: IntersectionObserver| {
            let seen = entries.iter().any(|e| {
                e.dyn_into::<IntersectionObserverEntry>()
                    .is_ok_and(|e| e.is_intersecting())
            });
            if seen {
                observer.disconnect();
                on_seen.emit(());
            }
        },
    );
    let observer = IntersectionObserver::new(closure.as_ref().unchecked_ref()).ok()?;
    observer.observe(&root);
    *slot.borrow_mut() = Some(closure);
    Some(observer)
}

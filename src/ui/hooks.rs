//! Browser plumbing as Yew hooks: the animation-frame loop.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::{hook, use_effect_with, Callback};

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

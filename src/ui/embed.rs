//! Embedding: embed mode's chrome, and the [`Bridge`] through which the JavaScript API
//! ([`super::api`]) and a parent page ([`super::iframe`]) drive one playground: it dispatches
//! the page's [`Action`]s, reads and changes its world, and hands each new event to the
//! listeners. Each playground has its own bridge: nothing is shared between two of them.

use super::model::{Action, Host, Model};
use crate::scenario::command_from_json;
use crate::view::embed::check_seek;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::{Callback, Reducible};

/// Something told of each event as it happens: the event as the command line's `--events`
/// prints it.
pub type EventSink = Rc<dyn Fn(&Value)>;

struct Listener {
    id: u32,
    /// An event kind name (`controller_elected`), or `*` for every event.
    kind: String,
    sink: EventSink,
}

/// What the bridge holds; shared by the page and whoever drives it.
struct Inner {
    /// The page's dispatcher, once it rendered.
    dispatch: RefCell<Option<Callback<Action>>>,
    /// Actions asked for before the page first rendered.
    pending: RefCell<Vec<Action>>,
    /// The model the page starts with, taken by its first render.
    initial: RefCell<Option<Model>>,
    /// The world now (a reset replaces it).
    host: RefCell<Rc<RefCell<Host>>>,
    /// How many of the world's events the listeners were given.
    delivered: Cell<usize>,
    listeners: RefCell<Vec<Listener>>,
    next_listener: Cell<u32>,
    /// False once the playground is unmounted.
    alive: Cell<bool>,
}

/// A handle on one playground's page. Clones share it.
#[derive(Clone)]
pub struct Bridge(Rc<Inner>);

impl PartialEq for Bridge {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Bridge {
    /// A bridge to a page that will start as `model`.
    pub fn new(model: Model) -> Bridge {
        Bridge(Rc::new(Inner {
            dispatch: RefCell::new(None),
            pending: RefCell::new(Vec::new()),
            host: RefCell::new(model.host.clone()),
            initial: RefCell::new(Some(model)),
            delivered: Cell::new(0),
            listeners: RefCell::new(Vec::new()),
            next_listener: Cell::new(1),
            alive: Cell::new(true),
        }))
    }

    /// The page's first model (once: the page's first render takes it).
    pub fn take_initial(&self) -> Option<Model> {
        self.0.initial.borrow_mut().take()
    }

    /// Called by the page after each render: its dispatcher, and its world (which a reset
    /// replaces); then hands the events appended since the last call to the listeners.
    pub fn after_render(&self, dispatch: &Callback<Action>, model: &Model) {
        if !self.0.alive.get() {
            return;
        }
        let first = self.0.dispatch.borrow().is_none();
        if first {
            *self.0.dispatch.borrow_mut() = Some(dispatch.clone());
        }
        if !Rc::ptr_eq(&self.0.host.borrow(), &model.host) {
            *self.0.host.borrow_mut() = model.host.clone();
            self.0.delivered.set(0);
        }
        if first {
            let pending: Vec<Action> = self.0.pending.borrow_mut().drain(..).collect();
            for a in pending {
                dispatch.emit(a);
            }
        }
        self.deliver();
    }

    /// Hands the events not delivered yet to the listeners of their kind.
    fn deliver(&self) {
        let host = self.0.host.borrow().clone();
        let events: Vec<(&'static str, Value)> = {
            let h = host.borrow();
            let history = h.world().events();
            let from = self.0.delivered.get();
            self.0.delivered.set(history.len());
            if self.0.listeners.borrow().is_empty() {
                return;
            }
            history
                .since(from)
                .filter_map(|e| Some((e.kind.name(), serde_json::to_value(e).ok()?)))
                .collect()
        };
        for (kind, event) in events {
            // Copied out: a listener may add or remove listeners, or drive the page.
            let sinks: Vec<EventSink> = self
                .0
                .listeners
                .borrow()
                .iter()
                .filter(|l| l.kind == "*" || l.kind == kind)
                .map(|l| l.sink.clone())
                .collect();
            for sink in sinks {
                sink(&event);
            }
        }
    }

    /// Asks the page for an action. Before the page first rendered, the reducer runs on the
    /// model it will start with, so that `seek` then `state()` right after `mount` agree.
    pub fn send(&self, action: Action) -> Result<(), String> {
        self.check_alive()?;
        let dispatch = self.0.dispatch.borrow().clone();
        if let Some(d) = dispatch {
            d.emit(action);
            return Ok(());
        }
        let initial = self.0.initial.borrow_mut().take();
        match initial {
            Some(m) => {
                let next = Rc::new(m).reduce(action);
                let next = Rc::try_unwrap(next).unwrap_or_else(|rc| (*rc).clone());
                *self.0.host.borrow_mut() = next.host.clone();
                *self.0.initial.borrow_mut() = Some(next);
            }
            // Rendering: the page takes it when it is done.
            None => self.0.pending.borrow_mut().push(action),
        }
        Ok(())
    }

    /// Runs (`true`) or stops the clock.
    pub fn set_playing(&self, on: bool) -> Result<(), String> {
        self.send(Action::SetPlaying(on))
    }

    /// Shows virtual time `ms` (back or forward on the timeline; the clock stops there).
    pub fn seek(&self, ms: u64) -> Result<(), String> {
        self.check_alive()?;
        let end = self.0.host.borrow().borrow().session.end_ms();
        check_seek(end, ms)?;
        self.send(Action::Seek(ms))
    }

    /// Applies a command given as a scenario action without `at_ms` (`{"do": "crash",
    /// "broker": 2}`), read and checked as the command line reads and checks a file's.
    pub fn apply(&self, command: &Value) -> Result<(), String> {
        self.check_alive()?;
        let host = self.0.host.borrow().clone();
        {
            let mut h = host.borrow_mut();
            let cmd = command_from_json(command, h.world().settings())?;
            h.apply(cmd)?;
        }
        self.send(Action::Refresh)
    }

    /// The state as the command line prints it (`serde_json::to_string(&world.state())`).
    pub fn state_json(&self) -> Result<String, String> {
        self.check_alive()?;
        let host = self.0.host.borrow().clone();
        let state = host.borrow().world().state();
        serde_json::to_string(&state).map_err(|e| format!("the state did not serialize: {e}"))
    }

    /// The session's link: the fragment (without `#`) that reopens the session as it is now,
    /// for the `session` option or a page address.
    pub fn link(&self) -> Result<String, String> {
        self.check_alive()?;
        let host = self.0.host.borrow().clone();
        let link = host.borrow().session.link();
        Ok(link)
    }

    /// Calls `sink` with each event of `kind` (or every event, for `*`) from now on; returns
    /// the listener's number for [`Bridge::off`].
    pub fn on(&self, kind: &str, sink: EventSink) -> Result<u32, String> {
        self.check_alive()?;
        let valid = kind == "*"
            || (!kind.is_empty() && kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        if !valid {
            return Err(format!(
                "an event kind is a name such as \"controller_elected\" (as the events' \"kind\" writes it), or \"*\" for every event; not \"{kind}\""
            ));
        }
        let id = self.0.next_listener.get();
        self.0.next_listener.set(id + 1);
        self.0.listeners.borrow_mut().push(Listener {
            id,
            kind: kind.to_string(),
            sink,
        });
        Ok(id)
    }

    /// Removes a listener.
    pub fn off(&self, id: u32) {
        self.0.listeners.borrow_mut().retain(|l| l.id != id);
    }

    /// Marks the playground gone: every later call says so, and no listener is called again.
    pub fn close(&self) {
        self.0.alive.set(false);
        self.0.listeners.borrow_mut().clear();
        self.0.pending.borrow_mut().clear();
        self.0.dispatch.borrow_mut().take();
    }

    fn check_alive(&self) -> Result<(), String> {
        if self.0.alive.get() {
            Ok(())
        } else {
            Err("this playground was unmounted".to_string())
        }
    }
}

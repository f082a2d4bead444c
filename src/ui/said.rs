//! What the page's error line says, kept as a recipe ([`Said`]) so that it is said again in
//! the reader's language when the reader switches language or the Chinese catalogue arrives
//! (an address's problems are found before the catalogue is here); and the words of the page
//! being reduced ([`reader`]), in which the session's skipped steps are said.

use crate::i18n::{msg, Lang, Tr};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// Something the page says, in any language.
#[derive(Clone)]
pub struct Said(Rc<dyn Fn(&Tr) -> String>);

impl Said {
    /// Words said by `f` in the language it is given.
    pub fn new(f: impl Fn(&Tr) -> String + 'static) -> Said {
        Said(Rc::new(f))
    }

    /// Words already said (a core error, which keeps its English), the same in every language.
    pub fn text(s: String) -> Said {
        Said::new(move |_| s.clone())
    }

    /// The words in `tr`'s language.
    pub fn say(&self, tr: &Tr) -> String {
        (self.0)(tr)
    }

    /// Several, joined with `; ` (Chinese: `；`).
    pub fn joined(all: Vec<Said>) -> Said {
        Said::new(move |tr| {
            let sep = match tr.lang() {
                Lang::En => "; ",
                Lang::ZhCn => "；",
            };
            all.iter().map(|s| s.say(tr)).collect::<Vec<_>>().join(sep)
        })
    }
}

impl fmt::Debug for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Said({:?})", self.say(&Tr::en()))
    }
}

/// Names as the reader's language lists them: `a, b and c` (Chinese: `a、b 和 c`).
pub fn list(names: &[&str], tr: &Tr) -> String {
    let sep = match tr.lang() {
        Lang::En => ", ",
        Lang::ZhCn => "、",
    };
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            tr.f(msg::LIST_AND, &[("list", &rest.join(sep)), ("last", last)])
        }
        _ => names.join(sep),
    }
}

thread_local! {
    /// The words of the page whose action is being reduced.
    static READER: RefCell<Tr> = RefCell::new(Tr::en());
}

/// The words of the page whose action was last reduced (English before the first, or if
/// they cannot be read).
pub fn reader() -> Tr {
    READER
        .try_with(|r| r.try_borrow().map(|t| t.clone()).ok())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// The page about to reduce an action speaks `tr`.
pub(crate) fn set_reader(tr: Tr) {
    READER.with(|r| *r.borrow_mut() = tr);
}

//! The causes in the reader's language. Each cause says its sentence once, in its own file in
//! the core, through `text::Words` (the core's English is [`crate::text::English`]); this
//! module lends it the reader's words: a [`Tr`] is a [`Words`], so the same figures give the
//! Chinese catalogue's sentence for Chinese and the English one for English.

use super::{Msg, Tr};
use crate::sim::Cause;
use crate::text::Words;
use std::fmt::Display;

/// The page's words say a message as [`Tr::t`] and [`Tr::f`] do: the catalogue's text, else
/// the English.
impl Words for Tr {
    fn t(&self, m: Msg) -> String {
        Tr::t(self, m)
    }

    fn f(&self, m: Msg, args: &[(&str, &dyn Display)]) -> String {
        Tr::f(self, m, args)
    }
}

/// The Kafka detail of an event: its cause's text (the rule, the setting, the source) in the
/// reader's language. The one place the log asks for a cause's words.
pub fn cause_text(cause: &Cause, tr: &Tr) -> String {
    cause.render(tr)
}

//! Plain text that every layer writes: numbers ([`numbers`]), messages ([`Msg`]: a key and
//! its English text with named placeholders, declared with `messages!`) and the sentences of
//! the causes ([`causes`]). A leaf: it imports nothing of the crate, so the election core,
//! the languages and the page's views all stand on it.
//!
//! The causes' sentences live here, below the core, and not in `i18n`: the core must write
//! each cause's English sentence itself (the command line, the golden traces and JSON print
//! it, and the group coordinator names a departure by it), byte for byte as the page's
//! English shows it. So each cause says its sentence once, in its own file in the core,
//! through [`Words`]: the core says it in [`English`], and `i18n` lends the reader's language
//! (its `Tr` is a [`Words`]). One table of sentences, one way to say each cause, and no import
//! from the core up into the languages.

use std::fmt::{Display, Write as _};

/// Declares messages as constants (`NAME = "English";`) and `ALL`, every one of them in the
/// order written.
macro_rules! messages {
    ($($name:ident = $en:literal;)*) => {
        $(pub const $name: $crate::text::Msg = {
            #[inline(never)]
            fn en() -> &'static str {
                $en
            }
            $crate::text::Msg::new(stringify!($name), en)
        };)*
        /// Every message of this file, in the order written.
        pub const ALL: &[$crate::text::Msg] = &[$($name),*];
        /// The keys of [`ALL`], in the same order: all the page needs of every message at
        /// once (to check a catalogue's keys). Reading them from `ALL` instead keeps its table
        /// of messages in the first part of the page's module too (1.2 KB gzip more, measured
        /// when `Msg` already held its text behind a function).
        pub const KEYS: &[&str] = &[$(stringify!($name)),*];
    };
}
pub(crate) use messages;

pub mod causes;
pub mod numbers;

/// One message: its key (the constant's name) and its English text.
///
/// The text is returned by a function of its own, one per message: code that shows a message
/// calls it, so the text is read only where the message is shown, and the build's split leaves
/// the text of a message the first view does not show to the module's second part, with that
/// function.
#[derive(Clone, Copy)]
pub struct Msg {
    /// The key the catalogues use.
    pub key: &'static str,
    text: fn() -> &'static str,
}

impl Msg {
    /// The message `key` whose English `text` returns.
    pub const fn new(key: &'static str, text: fn() -> &'static str) -> Msg {
        Msg { key, text }
    }

    /// The English text, with `{name}` placeholders.
    pub fn en(&self) -> &'static str {
        (self.text)()
    }
}

/// Messages are one when their keys are (no two messages share a key).
impl PartialEq for Msg {
    fn eq(&self, other: &Msg) -> bool {
        self.key == other.key
    }
}

impl Eq for Msg {}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Msg")
            .field("key", &self.key)
            .field("en", &self.en())
            .finish()
    }
}

/// The placeholders of a text (`{broker}` gives `broker`), in order, repeats included.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_name(&after[..close]) => {
                out.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Fills `text`'s placeholders from `args`; a placeholder without a value stays as written.
pub fn fill(text: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after
            .find('}')
            .map(|close| (&after[..close], close))
            .filter(|(name, _)| is_name(name))
            .and_then(|(name, close)| {
                args.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v, close))
            });
        match value {
            Some((v, close)) => {
                let _ = write!(out, "{v}");
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where a message's text comes from: its English ([`English`]), or a language's catalogue
/// (`i18n::Tr`).
pub trait Words {
    /// The text of `m`.
    fn t(&self, m: Msg) -> String;

    /// The text of `m` with its placeholders filled from `args`.
    fn f(&self, m: Msg, args: &[(&str, &dyn Display)]) -> String;
}

/// The messages' English texts, as the core writes them.
#[derive(Debug, Clone, Copy, Default)]
pub struct English;

impl Words for English {
    fn t(&self, m: Msg) -> String {
        m.en().to_string()
    }

    fn f(&self, m: Msg, args: &[(&str, &dyn Display)]) -> String {
        fill(m.en(), args)
    }
}

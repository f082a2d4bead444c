//! The page's languages: English, the source, compiled in, and Simplified Chinese, a catalogue
//! (`www/i18n/zh-CN.json`) the page fetches when it first needs it.
//!
//! Every string the page shows is a [`Msg`]: a key (the constant's name, which the catalogue
//! uses) and its English text, with named placeholders (`{broker}`) filled in by
//! [`Tr::f`]. The messages are constants in [`msg`], so a key the page uses always exists in
//! English; the tests check that the catalogue has every key, the same placeholders, and the
//! glossary's words (`www/i18n/glossary.json`). A key the catalogue lacks falls back to
//! English on the page (and is named in the console once); nothing panics.
//!
//! The event log's plain sentences are chosen here too ([`event_text`]), from each event's kind
//! and fields; the Kafka detail under them is the cause's text ([`msg_causes`]): each cause
//! renders its sentence from its figures in the reader's language (`Cause::render`), and its
//! English one for the command line.

pub mod cause_text;
pub mod event_text;
pub mod msg;
pub use crate::text::causes as msg_causes;
pub mod msg_events;
pub mod msg_graph;
pub mod msg_lessons;

/// Every file of messages: the page's chrome, the graph and panels, the event log, the
/// causes, the lessons.
pub const GROUPS: [&[Msg]; 5] = [
    msg::ALL,
    msg_graph::ALL,
    msg_events::ALL,
    msg_causes::ALL,
    msg_lessons::ALL,
];

/// Every message the page has, file by file in the order written.
pub fn all() -> impl Iterator<Item = &'static Msg> {
    GROUPS.into_iter().flat_map(|g| g.iter())
}

/// The keys of [`GROUPS`]' messages, file by file in the same order.
const KEY_GROUPS: [&[&str]; 5] = [
    msg::KEYS,
    msg_graph::KEYS,
    msg_events::KEYS,
    msg_causes::KEYS,
    msg_lessons::KEYS,
];

/// The key of every message the page has, in [`all`]'s order.
pub fn keys() -> impl Iterator<Item = &'static str> {
    KEY_GROUPS.into_iter().flat_map(|g| g.iter().copied())
}

use crate::collections::VecMap;
use crate::sim::json::{self, Json};
pub use crate::text::{fill, placeholders, Msg};
use std::fmt::Display;
use std::rc::Rc;

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub enum Lang {
    /// English, the source.
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Lang {
    /// Both languages, in the order the switch shows them.
    pub const ALL: [Lang; 2] = [Lang::ZhCn, Lang::En];

    /// Its code, as `?lang=` and `<html lang>` write it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// Its name in itself, as the switch shows it.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "中文",
        }
    }

    /// Reads `?lang=`'s value: `en` or `zh-CN` (any case).
    pub fn parse(value: &str) -> Result<Lang, String> {
        if value.eq_ignore_ascii_case("en") {
            Ok(Lang::En)
        } else if value.eq_ignore_ascii_case("zh-CN") {
            Ok(Lang::ZhCn)
        } else {
            Err(format!(
                "lang must be en or zh-CN, not \"{value}\"; the page is shown in English"
            ))
        }
    }

    /// The language for a browser's language tag (`navigator.language`): Chinese for any
    /// `zh…`, else English.
    pub fn from_browser(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Lang::ZhCn
        } else {
            Lang::En
        }
    }

    /// The language a page opens in: the address's (`?lang=`), else the one the reader chose
    /// before (kept in the browser's storage, if it reads as one), else the browser's.
    pub fn choose(param: Option<Lang>, stored: Option<&str>, browser: Option<&str>) -> Lang {
        param
            .or_else(|| stored.and_then(|s| Lang::parse(s).ok()))
            .or_else(|| browser.map(Lang::from_browser))
            .unwrap_or_default()
    }
}

/// A language's catalogue: its text for each key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalogue {
    texts: VecMap<String, String>,
}

/// Why `json` is not JSON, in serde_json's words (where it is, and what it found there): only
/// a broken catalogue asks, so the page's build leaves this to the module's second part.
#[inline(never)]
#[cold]
fn not_json(json: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(json) {
        Err(e) => format!("it is not JSON: {e}"),
        Ok(_) => "it is not JSON".to_string(),
    }
}

impl Catalogue {
    /// Reads a catalogue file: one JSON object of key → text (a key starting with `_` is a
    /// note to translators and is skipped). Anything else is an error naming the problem.
    pub fn parse(json: &str) -> Result<Catalogue, String> {
        // Read as serde_json reads a `Value` (`sim::json`, which gives serde_json's verdicts
        // without its machinery, so that the page's first view does not carry it): a key
        // written twice keeps its last text, and the texts are checked in key order.
        let value = json::parse_value(json).ok_or_else(|| not_json(json))?;
        let Json::Obj(members) = &value else {
            return Err("it is not a JSON object of key and text".into());
        };
        let mut by_key: VecMap<&str, &Json<'_>> = VecMap::new();
        for (k, v) in members {
            // (`parse_value` takes no key with a lone surrogate.)
            if let Some(k) = k {
                by_key.insert(k.as_str(), v);
            }
        }
        let mut texts = VecMap::new();
        for (k, v) in by_key.iter() {
            if k.starts_with('_') {
                continue;
            }
            let text = v
                .str()
                .ok_or_else(|| format!("the text of \"{k}\" is not a string"))?;
            texts.insert(k.to_string(), text.to_string());
        }
        Ok(Catalogue { texts })
    }

    /// The text of `key`, if the catalogue has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.texts.get(key).map(String::as_str)
    }

    /// The keys of the messages ([`all`]) the catalogue lacks, in order.
    pub fn missing(&self) -> Vec<&'static str> {
        keys().filter(|k| !self.texts.contains_key(*k)).collect()
    }

    /// The catalogue's keys that no message has (left over from an old version), in order.
    /// The stories' keys (`story.<name>.title`) are not messages: [`Catalogue::stories`]
    /// lists them.
    pub fn unknown(&self) -> Vec<&str> {
        self.texts
            .keys()
            .filter(|k| !k.starts_with(STORY_PREFIX) && !keys().any(|m| m == k.as_str()))
            .map(String::as_str)
            .collect()
    }

    /// A story's title or description in this language: the text of key
    /// `story.<name>.title` or `story.<name>.description`.
    pub fn story(&self, name: &str, part: StoryPart) -> Option<&str> {
        self.get(&story_key(name, part))
    }

    /// Every story key of the catalogue, as (story name, part), in order; a key that names
    /// no part (`story.x.summary`) comes with `None`.
    pub fn stories(&self) -> Vec<(&str, Option<StoryPart>)> {
        self.texts
            .keys()
            .filter_map(|k| k.strip_prefix(STORY_PREFIX))
            .map(|rest| match rest.rsplit_once('.') {
                Some((name, "title")) => (name, Some(StoryPart::Title)),
                Some((name, "description")) => (name, Some(StoryPart::Description)),
                _ => (rest, None),
            })
            .collect()
    }
}

/// Where the stories' texts are in a catalogue: their English is in their scenario files
/// (`www/scenarios/<name>.json`), their translation under `story.<name>.title` and
/// `story.<name>.description`.
const STORY_PREFIX: &str = "story.";

/// A part of a story that the page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StoryPart {
    /// Its title, in the story selector and its box.
    Title,
    /// What it shows, in its box.
    Description,
}

/// The catalogue key of a story's part: `story.controller-crash.title`.
pub fn story_key(name: &str, part: StoryPart) -> String {
    let part = match part {
        StoryPart::Title => "title",
        StoryPart::Description => "description",
    };
    format!("{STORY_PREFIX}{name}.{part}")
}

/// The page's words in one language: what the page asks for its text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tr {
    lang: Lang,
    catalogue: Option<Rc<Catalogue>>,
}

impl Tr {
    /// English.
    pub fn en() -> Tr {
        Tr::default()
    }

    /// `lang`'s words from `catalogue` (Chinese's); English when the catalogue is not
    /// (yet) there.
    pub fn new(lang: Lang, catalogue: Option<Rc<Catalogue>>) -> Tr {
        match (lang, catalogue) {
            (Lang::ZhCn, Some(c)) => Tr {
                lang,
                catalogue: Some(c),
            },
            _ => Tr::en(),
        }
    }

    /// The language the words are in (English while Chinese's catalogue is loading).
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The text of `m`: the catalogue's, else English.
    pub fn t(&self, m: Msg) -> String {
        self.raw(m).to_string()
    }

    /// The text of `m` with its placeholders filled from `args`.
    pub fn f(&self, m: Msg, args: &[(&str, &dyn Display)]) -> String {
        fill(self.raw(m), args)
    }

    /// Story `name`'s `part` in this language; `en`, the scenario file's own text, in
    /// English or when the catalogue lacks it.
    pub fn story(&self, name: &str, part: StoryPart, en: &str) -> String {
        self.catalogue
            .as_deref()
            .and_then(|c| c.story(name, part))
            .unwrap_or(en)
            .to_string()
    }

    fn raw(&self, m: Msg) -> &str {
        self.catalogue
            .as_deref()
            .and_then(|c| c.get(m.key))
            .unwrap_or_else(|| m.en())
    }
}

#[cfg(test)]
mod cause_text_test;
#[cfg(test)]
mod tests;

/// For the unit tests of what the page renders: the Chinese catalogue of
/// `www/i18n/zh-CN.json`, and a check of a text rendered with it.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Catalogue, Lang, Tr};
    use std::rc::Rc;

    /// Chinese words, from the catalogue the page fetches.
    pub(crate) fn zh() -> Tr {
        let c = Catalogue::parse(include_str!("../../www/i18n/zh-CN.json"))
            .expect("www/i18n/zh-CN.json reads");
        Tr::new(Lang::ZhCn, Some(Rc::new(c)))
    }

    /// `zh`, rendered in Chinese, has every placeholder filled, has Chinese, and is not the
    /// English `en` (which a key missing from the catalogue falls back to).
    pub(crate) fn assert_chinese(zh: &str, en: &str) {
        assert!(!zh.contains('{'), "a placeholder is unfilled: {zh}");
        assert_ne!(zh, en, "still English");
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "no Chinese: {zh}"
        );
    }
}

/// How a piece of a message is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Plain,
    /// `**bold**`.
    Strong,
    /// `` `code` ``: a Kafka name, a setting, a znode.
    Code,
}

/// A message's pieces: its plain text, its `**bold**` and its `` `code` `` parts, in order
/// (an unclosed mark is plain text).
pub fn spans(text: &str) -> Vec<(Span, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let next = [("**", Span::Strong), ("`", Span::Code)]
            .into_iter()
            .filter_map(|(mark, kind)| {
                let open = rest.find(mark)?;
                let close = rest[open + mark.len()..].find(mark)?;
                Some((open, close, mark, kind))
            })
            .min_by_key(|(open, ..)| *open);
        let Some((open, close, mark, kind)) = next else {
            break;
        };
        if open > 0 {
            out.push((Span::Plain, &rest[..open]));
        }
        let inner = &rest[open + mark.len()..open + mark.len() + close];
        out.push((kind, inner));
        rest = &rest[open + mark.len() * 2 + close..];
    }
    if !rest.is_empty() {
        out.push((Span::Plain, rest));
    }
    out
}

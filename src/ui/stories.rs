//! The stories: the committed scenario files of `www/scenarios`, replayable on the page, and
//! the page's address parameters (`?story=…&speed=…`, `?partitions=…&rf=…`,
//! `?consumers=…&assignor=…`) that documentation pages link or embed.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Callback;

use super::fetch::{asset_url, fetch_text, fetch_text_now};
use super::said::Said;
use crate::i18n::{msg, Msg, StoryPart, Tr};
use crate::scenario::{self, Scenario};
use crate::sim::assignors::Assignor;
use crate::sim::Profile;
use crate::view::embed::{parse_origins, switch_on, MAX_START_MS};

/// The page address's parameters that set a session up: a session link carries them in its
/// fragment instead. The story first, then free play's own.
pub const SETUP_PARAMS: [&str; 8] = [
    "story",
    "seed",
    "brokers",
    "partitions",
    "rf",
    "profile",
    "consumers",
    "assignor",
];

/// The story files' names, in the order the page lists them. Their texts are not in the
/// module: they are the bundle's `scenarios/<name>.json`, fetched when a story is first chosen
/// ([`fetch`]) and kept for the page's life.
pub const STORIES: [&str; 26] = [
    "cold-start",
    "controller-crash",
    "controller-crash-2.4",
    "clean-shutdown",
    "paused-controller",
    "controller-cut-from-zookeeper",
    "leader-crash",
    "assignment-order",
    "lagging-follower",
    "idle-follower-2.0",
    "controlled-shutdown",
    "unclean-election",
    "unclean-enabled-while-offline",
    "min-insync-replicas",
    "auto-rebalance",
    "reassignment",
    "truncation-0.10",
    "truncation-3.9",
    "zombie-controller-0.10",
    "zombie-controller-2.0",
    "zombie-controller-3.9",
    "group-first-join",
    "group-leader-leaves",
    "group-consumer-crash",
    "group-emptied",
    "group-coordinator-failover",
];

thread_local! {
    /// The story files fetched so far, by their index in [`STORIES`].
    static TEXTS: RefCell<Vec<Option<Rc<str>>>> = RefCell::new(vec![None; STORIES.len()]);
}

/// A story file's address in the bundle, beside the module's files.
fn url(name: &str) -> String {
    asset_url(&format!("scenarios/{name}.json"))
}

/// A story file's text, if it has been fetched.
fn cached(index: usize) -> Option<Rc<str>> {
    TEXTS.with(|t| t.borrow().get(index).cloned().flatten())
}

fn keep(index: usize, text: String) -> Rc<str> {
    let text: Rc<str> = text.into();
    TEXTS.with(|t| {
        if let Some(slot) = t.borrow_mut().get_mut(index) {
            *slot = Some(text.clone());
        }
    });
    text
}

/// Fetches a story file ahead of its use (the page's picker, an address that names a story),
/// then calls `done`, with the reason if it could not be fetched. A file fetched before is not
/// fetched again.
pub fn fetch(index: usize, done: Callback<Result<(), String>>) {
    let Some(name) = STORIES.get(index) else {
        done.emit(Ok(()));
        return;
    };
    if cached(index).is_some() {
        done.emit(Ok(()));
        return;
    }
    fetch_text(
        url(name),
        Callback::from(move |got: Result<String, String>| {
            done.emit(got.map(|text| {
                keep(index, text);
            }))
        }),
    );
}

/// A story file's name and text, by its index in [`STORIES`]: as fetched ahead ([`fetch`]),
/// else fetched now and waited for. Only the JavaScript API's `mount` and a session link
/// opened while the page runs need it now (they answer at once, as a page's script expects);
/// the page fetches ahead everywhere else.
pub fn file(index: usize, tr: &Tr) -> Result<(&'static str, Rc<str>), String> {
    let name = STORIES
        .get(index)
        .ok_or_else(|| tr.f(msg::ERR_NO_STORY, &[("index", &index)]))?;
    if let Some(text) = cached(index) {
        return Ok((name, text));
    }
    let text = fetch_text_now(&url(name))
        .map_err(|why| tr.f(msg::ERR_STORY_FETCH, &[("name", name), ("why", &why)]))?;
    Ok((name, keep(index, text)))
}

/// The story an address's parameters open, if any: `story=`, or the story a session link's
/// fragment was made from.
pub fn wanted(pairs: &[(String, String)]) -> Option<usize> {
    let value = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v);
    let name = match value("session") {
        Some(fragment) => {
            let link = crate::session::codec::decode(fragment).ok()?;
            let (_, name) = link.base.into_iter().rev().find(|(k, _)| k == "story")?;
            name
        }
        None => value("story")?.clone(),
    };
    find(&name)
}

/// The index of a story by name.
pub fn find(name: &str) -> Option<usize> {
    STORIES.iter().position(|n| *n == name)
}

/// A story read: its name, its file's text and the scenario parsed from it.
pub struct Loaded {
    /// Its name in [`STORIES`].
    pub name: &'static str,
    /// Its file's text, as the bundle serves it.
    pub text: Rc<str>,
    /// The scenario the text describes.
    pub scenario: Scenario,
}

/// A story read and parsed (the files are checked by `cargo test`, so parsing fails only on a
/// broken build; fetching may fail, and says why).
pub fn load(index: usize, tr: &Tr) -> Result<Loaded, String> {
    let (name, text) = file(index, tr)?;
    let scenario = scenario::parse(&text)
        .map_err(|e| tr.f(msg::ERR_STORY, &[("name", &name), ("why", &e)]))?;
    Ok(Loaded {
        name,
        text,
        scenario,
    })
}

/// The title the page shows for a story: its file's, else its name.
pub fn title(index: usize) -> String {
    STORIES.get(index).map_or_else(
        || "?".to_string(),
        |name| {
            crate::view::stories::file_title(name)
                .unwrap_or(name)
                .to_string()
        },
    )
}

/// A story's title in the page's language (the catalogue's, else the file's).
pub fn title_in(index: usize, tr: &Tr) -> String {
    let name = STORIES.get(index).map_or("", |n| n);
    tr.story(name, StoryPart::Title, &title(index))
}

/// What a story shows, in the page's language (the catalogue's, else the file's).
pub fn description_in(index: usize, tr: &Tr) -> String {
    let name = STORIES.get(index).map_or("", |n| n);
    // The story playing has been read: its file is there.
    let en = cached(index)
        .and_then(|text| scenario::parse(&text).ok())
        .and_then(|s| s.file.description)
        .unwrap_or_default();
    tr.story(name, StoryPart::Description, &en)
}

/// What the page's address asks for. Every parameter is optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params {
    /// `story=<name>`
    pub story: Option<usize>,
    /// `seed=<n>`
    pub seed: Option<u64>,
    /// `brokers=<1..9>`
    pub brokers: Option<u32>,
    /// `partitions=<1..12>`: free play's topic.
    pub partitions: Option<u32>,
    /// `rf=<1..brokers>`: free play's replication factor.
    pub rf: Option<u32>,
    /// `profile=<0.10|2.0|2.4|3.9>`
    pub profile: Option<Profile>,
    /// `speed=<one of the offered speeds>`
    pub speed: Option<f64>,
    /// `paused=1`: start with the clock stopped.
    pub paused: bool,
    /// `consumers=<0..6>`: free play's group starts with this many consumers.
    pub consumers: Option<u32>,
    /// `assignor=<range|roundrobin>`: free play's group's assignor.
    pub assignor: Option<Assignor>,
    /// `embed=1`: compact chrome for a documentation page.
    pub embed: bool,
    /// `autoplay=0`: start with the clock stopped (as `paused=1`).
    pub no_autoplay: bool,
    /// `controls=0`: no controls.
    pub hide_controls: bool,
    /// `t=<ms>`: start at this virtual time, paused.
    pub start_ms: Option<u64>,
    /// `parent=<origin>[,<origin>...]`: the pages allowed to drive an embedded playground.
    pub parents: Vec<String>,
    /// `session=<share link>`: a shared session, as a share link writes it.
    pub session: Option<String>,
    /// `lang=<en|zh-CN>`: the page's language.
    pub lang: Option<crate::i18n::Lang>,
    /// `lesson=<id>`: a committed lesson.
    pub lesson: Option<String>,
    /// `view=lessons`: the lesson list.
    pub view_lessons: bool,
    /// `exercise=<base64url>`: a lesson file carried by the link (in its fragment).
    pub exercise: Option<String>,
}

/// The page's parameters, as an unknown one's message lists them.
const PARAMETERS: [&str; 20] = [
    "story",
    "session",
    "seed",
    "brokers",
    "partitions",
    "rf",
    "profile",
    "speed",
    "paused",
    "consumers",
    "assignor",
    "embed",
    "controls",
    "autoplay",
    "t",
    "parent",
    "lang",
    "lesson",
    "view",
    "exercise",
];

/// What the page offers, for checking the parameters.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    /// The speeds offered.
    pub speeds: &'a [f64],
    /// The most brokers.
    pub max_brokers: u32,
    /// The brokers when the address does not say.
    pub default_brokers: u32,
    /// The most partitions.
    pub max_partitions: u32,
    /// The most consumers free play starts with.
    pub max_consumers: u32,
}

/// Reads the parameters out of a query string (`?a=b&c=d`). A bad parameter is left out and
/// named in the returned messages (said in the reader's language when shown); the others
/// still apply.
pub fn parse_params(pairs: &[(String, String)], limits: &Limits<'_>) -> (Params, Vec<Said>) {
    // The default page's addresses (none, or only a language) are read here; the others by
    // `parse_all`, which the first view then never runs.
    match pairs {
        [] => return (Params::default(), Vec::new()),
        [(key, value)] if key == "lang" => {
            if let Ok(lang) = crate::i18n::Lang::parse(value) {
                let p = Params {
                    lang: Some(lang),
                    ..Params::default()
                };
                return (p, Vec::new());
            }
        }
        _ => {}
    }
    parse_all(pairs, limits)
}

/// [`parse_params`] of any address.
#[inline(never)]
fn parse_all(pairs: &[(String, String)], limits: &Limits<'_>) -> (Params, Vec<Said>) {
    let Limits {
        speeds,
        max_brokers,
        default_brokers,
        max_partitions,
        max_consumers,
    } = *limits;
    let mut p = Params::default();
    let mut errors: Vec<Said> = Vec::new();
    // A problem with `value`, said by `msg` with the figures `more`.
    let bad = |msg: Msg, value: &str, more: Vec<(&'static str, String)>| {
        let value = value.to_string();
        Said::new(move |tr| {
            let mut args: Vec<(&str, &dyn std::fmt::Display)> = vec![("value", &value)];
            args.extend(more.iter().map(|(k, v)| (*k, v as &dyn std::fmt::Display)));
            tr.f(msg, &args)
        })
    };
    // The replication factor is checked against the broker count, which may come later.
    let mut rf_text: Option<&str> = None;
    for (key, value) in pairs {
        match key.as_str() {
            "story" => match find(value) {
                Some(i) => p.story = Some(i),
                None => errors.push(bad(
                    msg::PARAM_STORY,
                    value,
                    vec![("stories", STORIES.join(", "))],
                )),
            },
            "seed" => match value.parse() {
                Ok(s) => p.seed = Some(s),
                Err(_) => errors.push(bad(msg::PARAM_SEED, value, vec![])),
            },
            "brokers" => match value.parse::<u32>() {
                Ok(n) if (1..=max_brokers).contains(&n) => p.brokers = Some(n),
                _ => errors.push(bad(
                    msg::PARAM_BROKERS,
                    value,
                    vec![("max", max_brokers.to_string())],
                )),
            },
            "partitions" => match value.parse::<u32>() {
                Ok(n) if (1..=max_partitions).contains(&n) => p.partitions = Some(n),
                _ => errors.push(bad(
                    msg::PARAM_PARTITIONS,
                    value,
                    vec![("max", max_partitions.to_string())],
                )),
            },
            "rf" => rf_text = Some(value),
            "profile" => match Profile::parse(value) {
                Ok(pr) => p.profile = Some(pr),
                Err(_) => errors.push(bad(
                    msg::PARAM_PROFILE,
                    value,
                    vec![(
                        "profiles",
                        Profile::ALL.map(|p| format!("\"{}\"", p.name())).join(", "),
                    )],
                )),
            },
            "speed" => match value.parse::<f64>() {
                Ok(s) if speeds.contains(&s) => p.speed = Some(s),
                _ => errors.push(bad(
                    msg::PARAM_SPEED,
                    value,
                    vec![(
                        "speeds",
                        speeds
                            .iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                    )],
                )),
            },
            "paused" => p.paused = switch_on(value),
            "autoplay" => p.no_autoplay = !switch_on(value),
            "embed" => p.embed = switch_on(value),
            "controls" => p.hide_controls = !switch_on(value),
            "t" => match value.parse::<u64>() {
                Ok(ms) if ms <= MAX_START_MS => p.start_ms = Some(ms),
                _ => errors.push(bad(
                    msg::PARAM_T,
                    value,
                    vec![("max", MAX_START_MS.to_string())],
                )),
            },
            "parent" => match parse_origins(value) {
                Ok(o) => p.parents = o,
                // For the embedding page's developer: the core's English.
                Err(e) => errors.push(Said::text(e)),
            },
            "session" => p.session = Some(value.clone()),
            "lang" => match crate::i18n::Lang::parse(value) {
                Ok(l) => p.lang = Some(l),
                Err(_) => errors.push(bad(msg::PARAM_LANG, value, vec![])),
            },
            "lesson" => match crate::lesson::index::is_id(value) {
                true => p.lesson = Some(value.clone()),
                false => errors.push(bad(msg::PARAM_LESSON, value, vec![])),
            },
            "exercise" => p.exercise = Some(value.clone()),
            "view" => match value.as_str() {
                "lessons" => p.view_lessons = true,
                _ => errors.push(bad(msg::PARAM_VIEW, value, vec![])),
            },
            "consumers" => match value.parse::<u32>() {
                Ok(n) if n <= max_consumers => p.consumers = Some(n),
                _ => errors.push(bad(
                    msg::PARAM_CONSUMERS,
                    value,
                    vec![("max", max_consumers.to_string())],
                )),
            },
            "assignor" => match Assignor::from_name(value) {
                Some(a) => p.assignor = Some(a),
                None => errors.push(bad(msg::PARAM_ASSIGNOR, value, vec![])),
            },
            other => errors.push(Said::new({
                let other = other.to_string();
                move |tr| {
                    tr.f(
                        msg::PARAM_UNKNOWN,
                        &[("key", &other), ("keys", &PARAMETERS.join(", "))],
                    )
                }
            })),
        }
    }
    if let Some(value) = rf_text {
        let brokers = p.brokers.unwrap_or(default_brokers);
        match value.parse::<u32>() {
            Ok(n) if (1..=brokers).contains(&n) => p.rf = Some(n),
            _ => errors.push(bad(
                msg::PARAM_RF,
                value,
                vec![("max", brokers.to_string())],
            )),
        }
    }
    (p, errors)
}

/// The current page address's query parameters, in order.
pub fn location_pairs() -> Vec<(String, String)> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return Vec::new();
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    let iter = js_sys::try_iter(&params).ok().flatten();
    for entry in iter.into_iter().flatten().flatten() {
        let entry = js_sys::Array::from(&entry);
        if let (Some(k), Some(v)) = (entry.get(0).as_string(), entry.get(1).as_string()) {
            pairs.push((k, v));
        }
    }
    pairs
}

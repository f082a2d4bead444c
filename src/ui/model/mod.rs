//! The page's state and its reducer.
//!
//! The [`World`] lives in a shared [`Host`] (an `Rc<RefCell<…>>`) that the reducer mutates in
//! place, so a frame never clones the world; [`Model::version`] changes whenever something
//! visible changed, which is what makes Yew render again. Every Kafka decision is the
//! world's: the reducer only forwards commands and moves the clock.

use super::said;
use super::stories::{self, SETUP_PARAMS};
use crate::i18n::{msg, Catalogue, Lang, Tr};
use crate::lesson::index::Catalog;
use crate::lesson::play::Progress;
use crate::session::{Session, Start};
use crate::sim::assignors::Assignor;
use crate::sim::{Acks, BrokerId, Command, GroupView, Profile, World};
use crate::view::flights::Flights;
pub use crate::view::layout::NARROW_PX;
pub use crate::view::setup::{
    consumer_name, free_setup, FreePlay, DEFAULT_BROKERS, DEFAULT_GROUP, DEFAULT_PARTITIONS,
    DEFAULT_RF, DEFAULT_SEED, DEFAULT_TOPIC, FIRST_JOIN_MS, JOIN_SPACING_MS,
};
use std::cell::RefCell;
use std::rc::Rc;

mod action;
mod chrome;
mod error_line;
mod gate;
mod jump;
mod lang;
mod lesson;
mod links;
mod reduce;
pub use super::said::{reader, Said};
pub use action::Action;
pub use chrome::Chrome;
pub use gate::StartGate;
pub use lesson::{LessonRun, Source as LessonSource};

/// The speeds the page offers, as multiples of real time.
pub const SPEEDS: [f64; 8] = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 50.0];

/// Broker counts the page offers.
pub const MAX_BROKERS: u32 = 9;

/// Partition counts the page offers.
pub const MAX_PARTITIONS: u32 = 12;

/// A steady stream's rate when the page opens (records per second).
pub const DEFAULT_RATE: &str = "10";

/// The most records per second the page lets a stream send.
pub const MAX_RATE: u64 = 10_000;

/// How many records "send" writes when the page opens.
pub const DEFAULT_SEND: &str = "100";

/// The most records one "send" writes.
pub const MAX_SEND: u64 = 100_000;

/// The most consumers `consumers=N` starts with.
pub const MAX_START_CONSUMERS: u32 = 6;

/// The most consumers a group may have on the page.
pub const MAX_CONSUMERS: usize = 9;

/// A real frame longer than this (a background tab, a debugger stop) counts as this long.
pub const MAX_FRAME_MS: f64 = 250.0;

/// Tells the story steps that had to be skipped, if any, in `notice`: a notice, not an error,
/// since the learner's own commands made them impossible. (A function of the field, not of the
/// model, so that it can be called while the model's lesson is borrowed.)
fn tell_skipped(notice: &mut Option<String>, skipped: &[String]) {
    if !skipped.is_empty() {
        *notice = Some(skipped.join("; "));
    }
}

/// Whether the window is narrow.
fn narrow_window() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(crate::view::layout::compact_at)
}

/// The world and what the page keeps beside it between frames.
#[derive(Debug)]
pub struct Host {
    /// The session: the world at the time shown, with its history, its script (a story's
    /// steps, free play's starting consumers) and the learner's commands.
    pub session: Session,
    /// Virtual time with its fraction, so 0.25x moves the clock smoothly.
    virt: f64,
    /// Messages being drawn.
    pub flights: Flights,
    /// Timestamp of the previous animation frame; until the first, the time the host was made
    /// (`performance.now()`), so that the clock runs from the moment the cluster is made, not
    /// from the first frame after it (mounting the page takes tens of milliseconds).
    last_frame: Option<f64>,
    /// The animation clock (ms): real time that passed while the clock ran. Flights are drawn
    /// at this time, so pausing freezes them mid-air.
    pub anim_now: f64,
    /// Whether the window is narrow (the graph then uses its portrait layout).
    pub compact: bool,
}

impl Host {
    fn new(m: &Model, anim_now: f64) -> (Host, Option<String>) {
        let (start, error) = m.free_play().start();
        (Host::with(Session::new(start), anim_now), error)
    }

    fn with(mut session: Session, anim_now: f64) -> Host {
        // No snapshots while the module's second part is on its way: copying a world is its
        // code (the App lets them be taken again when it arrives).
        session.hold_snapshots(!super::later::Later::now().here());
        Host {
            virt: session.now_ms() as f64,
            session,
            flights: Flights::default(),
            last_frame: web_sys::window()
                .and_then(|w| w.performance())
                .map(|p| p.now()),
            anim_now,
            compact: narrow_window(),
        }
    }

    /// The world at the time shown.
    pub fn world(&self) -> &World {
        self.session.world()
    }

    /// Applies a command at the time shown (in the past, this forks the session).
    pub fn apply(&mut self, cmd: Command) -> Result<(), String> {
        self.session.apply(cmd)
    }

    /// Moves the world to virtual time `t`: the script's steps and the recorded commands due
    /// by then run at their times. Returns the story steps that had to be skipped, said in
    /// the reader's language (the world's reason keeps its English).
    fn advance_to(&mut self, t: u64) -> Vec<String> {
        self.session.seek(t);
        let tr = reader();
        self.session
            .take_skipped()
            .into_iter()
            .map(|(cmd, why)| {
                let what = crate::view::command_text::command_text(&cmd, &tr);
                tr.f(msg::ERR_STEP_SKIPPED, &[("what", &what), ("why", &why)])
            })
            .collect()
    }

    /// Shows virtual time `t` (back or forward): the messages in flight are dropped, since
    /// they belonged to the time left.
    pub fn seek(&mut self, t: u64) -> Vec<String> {
        let skipped = self.advance_to(t);
        self.virt = self.session.now_ms() as f64;
        self.flights = Flights::default();
        skipped
    }

    /// The names the script's consumers will take that have not joined yet.
    pub fn pending_members(&self) -> impl Iterator<Item = &str> {
        self.session.upcoming().iter().filter_map(|(_, c)| match c {
            Command::Join { member, .. } => Some(member.as_str()),
            _ => None,
        })
    }
}

/// Everything the page shows, apart from the world itself.
#[derive(Debug, Clone)]
pub struct Model {
    /// The world, shared and mutated in place.
    pub host: Rc<RefCell<Host>>,
    /// Changes whenever the page must render again.
    pub version: u64,
    /// Changes on every reset: a new world.
    pub generation: u64,
    /// Whether the clock runs.
    pub playing: bool,
    /// Virtual milliseconds per real millisecond.
    pub speed: f64,
    /// The Kafka release imitated.
    pub profile: Profile,
    /// How many brokers the world has.
    pub brokers: u32,
    /// The world's seed.
    pub seed: u64,
    /// The broker whose panel is open.
    pub selected: Option<BrokerId>,
    /// The last error, shown until dismissed or until the next command succeeds.
    pub error: Option<String>,
    /// The error the page said with its recipe, to say it again in another language (kept
    /// with the text it showed: an error set otherwise is not said again).
    pub said: Option<(String, Said)>,
    /// Whether the event log lists only the key events ([`crate::sim::EventKind::is_key`]). On
    /// by default: a learner opening the page sees the few events the lesson is about (a new
    /// controller, leader and ISR changes of the topic, lost records, the group leader), not
    /// the 70 steps of a cluster starting; the whole trace is one click away.
    pub key_only: bool,
    /// How long "pause" freezes a broker, in seconds, as typed.
    pub pause_text: String,
    /// The story playing (an index into [`stories::STORIES`]), or free play.
    pub story: Option<usize>,
    /// How many partitions free play's topic has.
    pub partitions: u32,
    /// The replication factor asked for (`None`: [`DEFAULT_RF`]); never more than the brokers.
    pub rf_wanted: Option<u32>,
    /// The partition the produce controls act on (`None`: the first).
    pub produce_to: Option<String>,
    /// The stream rate typed, records per second.
    pub rate_text: String,
    /// The acks chosen (`None`: the profile's default).
    pub acks: Option<Acks>,
    /// How many records "send" writes, as typed.
    pub send_text: String,
    /// How many consumers free play starts with (`consumers=N`).
    pub consumers_at_start: u32,
    /// The assignor of free play's group.
    pub assignor: Assignor,
    /// Whether the partition table lists every partition of `__consumer_offsets`.
    pub show_internal: bool,
    /// The imported scenario file being played (its start and title), instead of a story
    /// or free play.
    pub imported: Option<Rc<(Start, String)>>,
    /// A passing notice (not an error), shown until dismissed or the next one.
    pub notice: Option<String>,
    /// The event picked in the log: its time, and the brokers and consumers it is about
    /// (highlighted in the graph until the next command or pick).
    pub picked: Option<(u64, Vec<BrokerId>, Vec<String>)>,
    /// What the clock waits for before it first runs (a story opened by the address).
    pub gate: StartGate,
    /// Embed mode's chrome and this instance's element ids.
    pub chrome: Chrome,
    /// The language the reader chose (or the address, or the browser, chose for them).
    pub lang: Lang,
    /// The Chinese catalogue, once fetched (the page shows English until then).
    pub zh: Option<Rc<Catalogue>>,
    /// The lesson under way, if any.
    pub lesson: Option<Rc<LessonRun>>,
    /// A committed lesson asked for and being fetched.
    pub lesson_wanted: Option<String>,
    /// Whether the lesson list is shown instead of the playground.
    pub lessons_open: bool,
    /// The lesson list.
    pub catalog: Rc<Catalog>,
    /// The lesson progress kept in this browser, once read.
    pub progress: Option<Rc<Progress>>,
}

impl Default for Model {
    fn default() -> Self {
        let profile = Profile::default();
        let brokers = DEFAULT_BROKERS;
        let mut m = Model {
            host: Rc::new(RefCell::new(Host::with(
                Session::new(FreePlay::default().start().0),
                0.0,
            ))),
            version: 0,
            generation: 0,
            playing: true,
            speed: 1.0,
            profile,
            brokers,
            seed: DEFAULT_SEED,
            selected: None,
            error: None,
            said: None,
            key_only: true,
            pause_text: "20".into(),
            story: None,
            partitions: DEFAULT_PARTITIONS,
            rf_wanted: None,
            produce_to: None,
            rate_text: DEFAULT_RATE.into(),
            acks: None,
            send_text: DEFAULT_SEND.into(),
            consumers_at_start: 0,
            assignor: Assignor::Range,
            show_internal: false,
            imported: None,
            notice: None,
            picked: None,
            gate: StartGate::Open,
            chrome: Chrome::default(),
            lang: Lang::En,
            zh: None,
            lesson: None,
            lesson_wanted: None,
            lessons_open: false,
            catalog: Rc::new(Catalog::Idle),
            progress: None,
        };
        let (host, _) = Host::new(&m, 0.0);
        m.host = Rc::new(RefCell::new(host));
        m
    }
}

impl Model {
    /// The page as its address asks for it
    /// (`?story=…&seed=…&brokers=…&partitions=…&rf=…&profile=…&speed=…&paused=1`, and embed
    /// mode's `embed=1&controls=0&autoplay=0&t=…`).
    /// A bad parameter is named in the error line and changes nothing.
    pub fn from_location() -> Model {
        Model::from_params(&Model::location_params())
    }

    /// The page address's parameters, with a session link's fragment as the `session`
    /// parameter (it wins over the address's setup parameters).
    pub fn location_params() -> Vec<(String, String)> {
        let mut pairs = stories::location_pairs();
        let hash = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .unwrap_or_default();
        let fragment = hash.strip_prefix('#').unwrap_or(&hash);
        if crate::session::codec::is_session(fragment) {
            pairs.retain(|(k, _)| k != "session");
            pairs.push(("session".to_string(), fragment.to_string()));
        } else if let Some(code) = fragment.strip_prefix("exercise=") {
            pairs.retain(|(k, _)| k != "exercise");
            pairs.push(("exercise".to_string(), code.to_string()));
        }
        pairs
    }

    /// The page as these `(key, value)` pairs ask for it: a page address's, or the JavaScript
    /// API's options turned into pairs. A bad parameter is named in the error line.
    pub fn from_params(pairs: &[(String, String)]) -> Model {
        let (mut m, problems) = Model::read_params(pairs);
        if !problems.is_empty() {
            let problems = Said::joined(problems);
            m.say_error(Said::new(move |tr| {
                tr.f(msg::ERR_ADDRESS, &[("problems", &problems.say(tr))])
            }));
        }
        m
    }

    /// The page as `pairs` ask for it, and what was wrong with them (left out, the rest applied).
    pub fn read_params(pairs: &[(String, String)]) -> (Model, Vec<Said>) {
        let (params, errors) = stories::parse_params(
            pairs,
            &stories::Limits {
                speeds: &SPEEDS,
                max_brokers: MAX_BROKERS,
                default_brokers: DEFAULT_BROKERS,
                max_partitions: MAX_PARTITIONS,
                max_consumers: MAX_START_CONSUMERS,
            },
        );
        let mut m = Model {
            lang: Lang::choose(
                params.lang,
                super::i18n::stored_lang().as_deref(),
                super::i18n::browser_lang().as_deref(),
            ),
            zh: super::i18n::cached(),
            ..Model::default()
        };
        said::set_reader(m.tr());
        if let Some(s) = params.seed {
            m.seed = s;
        }
        if let Some(b) = params.brokers {
            m.brokers = b;
        }
        if let Some(p) = params.profile {
            m.profile = p;
        }
        if let Some(p) = params.partitions {
            m.partitions = p;
        }
        if let Some(r) = params.rf {
            m.rf_wanted = Some(r);
        }
        if let Some(s) = params.speed {
            m.speed = s;
        }
        if let Some(n) = params.consumers {
            m.consumers_at_start = n;
        }
        if let Some(a) = params.assignor {
            m.assignor = a;
        }
        m.story = params.story;
        // A story runs once it is seen (or, opened paused, once its overlay is pressed); one
        // opened with `autoplay=0` or at a time `t=` waits for the play button.
        let held = params.no_autoplay || params.start_ms.is_some();
        m.gate = match StartGate::opened(m.story.is_some(), params.paused) {
            StartGate::WhenSeen if held => StartGate::Open,
            gate => gate,
        };
        m.playing = !params.paused
            && !params.no_autoplay
            && params.start_ms.is_none()
            && m.gate == StartGate::Open;
        m.chrome.embed = params.embed;
        m.chrome.controls = !params.hide_controls;
        m.chrome.parents = params.parents.clone();
        let mut all = errors;
        if let Some(fragment) = &params.session {
            // The session sets the world up; the other parameters keep their say on the
            // page's chrome and speed.
            let setup = params.story.is_some()
                || params.seed.is_some()
                || params.brokers.is_some()
                || params.profile.is_some()
                || params.partitions.is_some()
                || params.rf.is_some()
                || params.consumers.is_some()
                || params.assignor.is_some()
                || params.start_ms.is_some();
            m.story = None;
            m.gate = StartGate::Open;
            let mut opened = m.open_link(fragment);
            all.extend(opened.take_said());
            if setup {
                all.push(Said::new(|tr| {
                    let mut params = SETUP_PARAMS.to_vec();
                    params.push("t");
                    tr.f(
                        msg::ERR_PARAMS_SESSION,
                        &[("params", &said::list(&params, tr))],
                    )
                }));
            }
            return (opened, all);
        }
        if params.story.is_some()
            && (params.seed.is_some()
                || params.brokers.is_some()
                || params.profile.is_some()
                || params.partitions.is_some()
                || params.rf.is_some()
                || params.consumers.is_some()
                || params.assignor.is_some())
        {
            all.push(Said::new(|tr| {
                // Free play's own: every setup parameter but the story.
                let params = &SETUP_PARAMS[1..];
                tr.f(
                    msg::ERR_PARAMS_STORY,
                    &[("params", &said::list(params, tr))],
                )
            }));
        }
        if (params.lesson.is_some() || params.exercise.is_some())
            && (params.story.is_some() || params.start_ms.is_some())
        {
            all.push(Said::new(|tr| {
                tr.f(
                    msg::ERR_PARAMS_LESSON,
                    &[("params", &said::list(&["story", "t"], tr))],
                )
            }));
            m.story = None;
        }
        let mut m = m.reset();
        all.extend(m.take_said());
        if let Some(code) = params.exercise {
            m = m.exercise_from_link(&code);
            all.extend(m.take_said());
            return (m, all);
        }
        if let Some(id) = params.lesson {
            m = m.want_lesson(id);
            return (m, all);
        }
        if params.view_lessons {
            m = m.open_lessons(true);
        }
        if let Some(t) = params.start_ms {
            let skipped = m.host.borrow_mut().advance_to(t);
            all.extend(skipped.into_iter().map(Said::text));
        }
        (m, all)
    }
}

/// The longest pause the page offers, in seconds.
pub const MAX_PAUSE_SECS: u64 = 600;

impl Model {
    /// The pause length typed, if it is a whole number of seconds from 1 to [`MAX_PAUSE_SECS`].
    pub fn pause_secs(&self) -> Option<u64> {
        self.pause_text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|s| (1..=MAX_PAUSE_SECS).contains(s))
    }

    /// The page's words, in its language (English while Chinese's catalogue loads).
    pub fn tr(&self) -> Tr {
        Tr::new(self.lang, self.zh.clone())
    }

    /// The page address's limits on its parameters.
    pub fn limits() -> stories::Limits<'static> {
        stories::Limits {
            speeds: &SPEEDS,
            max_brokers: MAX_BROKERS,
            default_brokers: DEFAULT_BROKERS,
            max_partitions: MAX_PARTITIONS,
            max_consumers: MAX_START_CONSUMERS,
        }
    }

    /// Free play's choices as the model holds them.
    pub fn free_play(&self) -> FreePlay {
        FreePlay {
            seed: self.seed,
            profile: self.profile,
            brokers: self.brokers,
            partitions: self.partitions,
            rf: self.rf(),
            consumers: self.consumers_at_start,
            assignor: self.assignor,
        }
    }

    /// The replication factor free play uses: the one asked for (or [`DEFAULT_RF`]), at
    /// most the broker count.
    pub fn rf(&self) -> u32 {
        self.rf_wanted
            .unwrap_or(DEFAULT_RF)
            .clamp(1, self.brokers.max(1))
    }

    /// The stream rate typed, if it is a whole number from 1 to [`MAX_RATE`].
    pub fn rate(&self) -> Result<u64, String> {
        self.rate_text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|r| (1..=MAX_RATE).contains(r))
            .ok_or_else(|| {
                self.tr().f(
                    msg::ERR_RATE,
                    &[("max", &MAX_RATE), ("value", &self.rate_text.trim())],
                )
            })
    }

    /// How many records "send" writes, if it is a whole number from 1 to [`MAX_SEND`].
    pub fn send_count(&self) -> Result<u64, String> {
        self.send_text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|r| (1..=MAX_SEND).contains(r))
            .ok_or_else(|| {
                self.tr().f(
                    msg::ERR_SEND,
                    &[("max", &MAX_SEND), ("value", &self.send_text.trim())],
                )
            })
    }

    /// The acks in force for the page's produce controls: the one chosen, or the profile's default.
    pub fn acks(&self) -> Acks {
        self.acks.unwrap_or_else(|| self.profile.default_acks())
    }

    /// The name the next consumer of `group` (as the world shows it, if it has the group)
    /// takes: the first `cN` no consumer of the group has, nor one of free play's starting
    /// consumers still to come. `None` when the group has [`MAX_CONSUMERS`].
    pub fn next_consumer(&self, group: Option<&GroupView>) -> Option<String> {
        let host = self.host.borrow();
        let mut taken: Vec<String> = group
            .map(|g| g.consumers.keys().cloned().collect())
            .unwrap_or_default();
        taken.extend(host.pending_members().map(str::to_string));
        if taken.len() >= MAX_CONSUMERS {
            return None;
        }
        (1..).map(consumer_name).find(|n| !taken.contains(n))
    }

    fn add_consumer(&self, group: &str) -> Result<(), String> {
        let state = self.host.borrow().world().state();
        let member = self.next_consumer(state.groups.get(group)).ok_or_else(|| {
            self.tr()
                .f(msg::ERR_MAX_CONSUMERS, &[("max", &MAX_CONSUMERS)])
        })?;
        self.host.borrow_mut().apply(Command::Join {
            group: group.to_string(),
            member,
        })
    }

    fn next(&self) -> Model {
        let mut m = self.clone();
        m.version += 1;
        m
    }

    fn reset(mut self) -> Model {
        if self.lesson.is_some() {
            // A lesson's run starts again at the point the lesson has reached.
            self.error = None;
            self.restart_lesson_run();
            return self;
        }
        let anim_now = self.host.borrow().anim_now;
        self.error = None;
        let story = self.story.map(|i| (i, stories::load(i, &self.tr())));
        let imported = self.imported.clone();
        let host = match (imported, story) {
            (Some(file), _) => {
                let (start, _) = &*file;
                self.seed = start.setup.seed;
                self.profile = start.setup.settings.profile;
                self.brokers = start.setup.brokers.len() as u32;
                Host::with(Session::new(start.clone()), anim_now)
            }
            (None, story) => match story {
                Some((_, Ok(story))) => {
                    // A story brings its own cluster, profile and seed.
                    let s = &story.scenario;
                    self.seed = s.setup.seed;
                    self.profile = s.setup.settings.profile;
                    self.brokers = s.setup.brokers.len() as u32;
                    let start = Start::from_scenario(
                        vec![("story".to_string(), story.name.to_string())],
                        s,
                        &story.text,
                    );
                    Host::with(Session::new(start), anim_now)
                }
                Some((_, Err(e))) => {
                    self.story = None;
                    let (host, error) = Host::new(&self, anim_now);
                    self.error = Some(match error {
                        Some(more) => format!("{e}; {more}"),
                        None => e,
                    });
                    host
                }
                None => {
                    let (host, error) = Host::new(&self, anim_now);
                    self.error = error;
                    host
                }
            },
        };
        // The produce controls keep their partition only if the new world has it.
        let keep = self.produce_to.as_ref().is_some_and(|tp| {
            host.world()
                .topics()
                .iter()
                .any(|t| (0..t.replicas.len()).any(|p| format!("{}-{p}", t.name) == *tp))
        });
        if !keep {
            self.produce_to = None;
        }
        self.host = Rc::new(RefCell::new(host));
        self.generation += 1;
        if self.selected.is_some_and(|b| b > self.brokers) {
            self.selected = None;
        }
        self
    }

    /// Handles one animation frame; tells whether anything visible changed, and which story
    /// steps had to be skipped.
    fn frame(&self, ts: f64) -> (bool, Vec<String>) {
        let mut guard = self.host.borrow_mut();
        let host = &mut *guard;
        let dt = match host.last_frame {
            Some(prev) => (ts - prev).clamp(0.0, MAX_FRAME_MS),
            None => 0.0,
        };
        host.last_frame = Some(ts);
        let before = host.session.now_ms();
        let mut skipped = Vec::new();
        let had_flights = !host.flights.is_empty();
        let flights_before = host.flights.len();
        // The animation clock runs with the simulation: a pause freezes messages mid-air.
        let step = if self.playing { dt } else { 0.0 };
        host.anim_now += step;
        if step > 0.0 {
            host.virt = host.virt.max(before as f64) + step * self.speed;
            // A lesson's run stops at the point the lesson has reached.
            if let Some(limit) = self.lesson_limit() {
                host.virt = host.virt.min(limit.max(before) as f64);
            }
            let target = host.virt.floor() as u64;
            if target > before {
                skipped = host.advance_to(target);
            }
        }
        let after = host.session.now_ms();
        let anim_now = host.anim_now;
        host.flights.ingest(
            host.session.world(),
            before,
            after,
            anim_now - step,
            anim_now,
        );
        let compact = narrow_window();
        let resized = compact != host.compact;
        host.compact = compact;
        let moving = step > 0.0 && (had_flights || !host.flights.is_empty());
        let changed = after != before || moving || host.flights.len() != flights_before || resized;
        (changed || !skipped.is_empty(), skipped)
    }
}

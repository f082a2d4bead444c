//! A session: one world as a learner drives it, kept so that any moment of it can be shown
//! again, shared, forked and exported.
//!
//! A session is its [`Start`] (the setup and the scripted actions of a story, or free play's
//! cluster and starting consumers) plus every command the learner applied, with the virtual
//! time it was applied at. The world being deterministic, those two rebuild any moment:
//!
//! - **Seeking** ([`Session::seek`]) goes back to the newest [`Snapshot`] at or before the
//!   time asked and replays the commands from there. Snapshots are taken every
//!   [`SNAPSHOT_EVERY_MS`] of virtual time as the world advances and thinned as they age
//!   ([`spacing_for_age`]), so an hour keeps about thirty and a day about eighty; each is
//!   packed ([`PackedWorld`]), and the world's event history is shared between them, not
//!   copied.
//! - **Forking**: a command applied in the past ([`Session::apply`] while the session's end
//!   lies ahead) drops the commands recorded after that moment and the future they made. The
//!   dropped future is kept ([`Fork`]) until the next fork, so [`Session::undo_fork`] can put
//!   it back.
//! - **Stepping** ([`Session::step_forward`], [`Session::step_back`]) moves to the next or the
//!   previous moment at which an event happened.
//! - The **link** ([`codec`]) writes a session into a page address's fragment and reads it
//!   back; the **export** ([`export`]) writes it as a scenario file that the command line runs
//!   to the same trace.

use crate::sim::{Command, PackedWorld, Settings, Setup, World};
use serde_json::Value;

pub mod codec;
pub mod export;

#[cfg(test)]
mod tests;

/// The version of the model's behaviour. A link records the version that made it; a link
/// made by another version replays under today's rules, and the page says so. It changes
/// whenever a change to the model changes a golden trace (`tests/model_version.rs` holds the
/// traces' digest and fails until both are updated together).
pub const MODEL_VERSION: u32 = 4;

/// Snapshots of recent history are this far apart in virtual time.
pub const SNAPSHOT_EVERY_MS: u64 = 10_000;

/// The furthest one search for the next event looks ahead of the session's end.
pub const STEP_HORIZON_MS: u64 = 600_000;

/// How far apart the snapshots `age_ms` older than the session's end are kept: every
/// [`SNAPSHOT_EVERY_MS`] for the last two minutes, every minute up to ten minutes, every five
/// minutes up to an hour, every quarter of an hour up to four hours, then every half hour.
/// Seeking replays at most one spacing of history; an hour keeps about thirty snapshots and a
/// day about eighty (a packed world of 9 brokers with traffic weighs about a megabyte). Each
/// spacing divides the next, so thinning only ever drops snapshots.
pub fn spacing_for_age(age_ms: u64) -> u64 {
    const MINUTE: u64 = 60_000;
    match age_ms {
        0..=120_000 => SNAPSHOT_EVERY_MS,
        120_001..=600_000 => MINUTE,
        600_001..=3_600_000 => 5 * MINUTE,
        3_600_001..=14_400_000 => 15 * MINUTE,
        _ => 30 * MINUTE,
    }
}

/// How a session begins: everything that is not a learner's command.
#[derive(Debug, Clone)]
pub struct Start {
    /// The page parameters that rebuild this start (`story=…`, or free play's `seed=…`,
    /// `brokers=…`, …, or `file=…` for an imported scenario): a link carries them.
    pub base: Vec<(String, String)>,
    /// The world's setup.
    pub setup: Setup,
    /// The setup as a scenario file (a JSON object without `actions`, `expect` and
    /// `until_ms`), or what writes it: the export starts from it ([`Start::file`]).
    pub file: StartFile,
    /// Scripted commands with their times, in order: a story's actions, free play's starting
    /// consumers. One that cannot apply when its time comes (the learner already crashed that
    /// broker) is skipped, and the export leaves it out.
    pub script: Vec<(u64, Command)>,
}

/// Where a session's scenario file comes from.
#[derive(Debug, Clone)]
pub enum StartFile {
    /// The file's own JSON (a story, an imported scenario, a lesson's scenario), without
    /// `actions`, `expect` and `until_ms`.
    Json(Value),
    /// Free play's: written from the start's setup (its brokers, topics, groups, seed and
    /// profile) when it is first asked for (an export), not when the session starts (in a
    /// function of its own, which the page's build leaves to the module's second part).
    FreePlay,
}

impl Start {
    /// The setup as a scenario file: a JSON object without `actions`, `expect` and `until_ms`.
    pub fn file(&self) -> Value {
        match &self.file {
            StartFile::Json(v) => v.clone(),
            StartFile::FreePlay => free_play_file(&self.setup),
        }
    }

    /// The file's description, if it has one.
    pub fn description(&self) -> Option<&str> {
        match &self.file {
            StartFile::Json(v) => v.get("description").and_then(|d| d.as_str()),
            StartFile::FreePlay => None,
        }
    }
    /// The start of a scenario file's session: its setup, and its actions as the script.
    /// `text` is the file as written (the export starts from it); `base` the page parameters
    /// that name it.
    pub fn from_scenario(
        base: Vec<(String, String)>,
        scenario: &crate::scenario::Scenario,
        text: &str,
    ) -> Start {
        let mut file = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => o,
            _ => serde_json::Map::new(),
        };
        for key in ["actions", "expect", "until_ms"] {
            file.remove(key);
        }
        Start {
            base,
            setup: scenario.setup.clone(),
            file: StartFile::Json(Value::Object(file)),
            script: scenario.actions.clone(),
        }
    }
}

/// Where a session's replay stands: the world and how far through the script and the
/// recorded commands it is. The present holds a [`World`]; a kept snapshot holds it packed
/// ([`PackedWorld`]).
#[derive(Debug, Clone)]
pub struct Snapshot<W = World> {
    /// The world at [`Snapshot::at_ms`].
    pub world: W,
    /// Virtual time.
    pub at_ms: u64,
    next_script: usize,
    next_recorded: usize,
    skipped: Vec<usize>,
}

/// The future a fork dropped, kept so that the fork can be undone.
#[derive(Debug, Clone)]
pub struct Fork {
    /// When the learner acted.
    pub at_ms: u64,
    /// How many recorded commands came before the fork.
    kept: usize,
    /// The commands the fork dropped.
    pub dropped: Vec<(u64, Command)>,
    /// The session's end before the fork.
    pub old_end_ms: u64,
}

/// A session (see the module doc).
#[derive(Debug, Clone)]
pub struct Session {
    start: Start,
    recorded: Vec<(u64, Command)>,
    /// The present: the world at the time shown, with its cursors.
    now: Snapshot,
    end_ms: u64,
    snapshots: Vec<Snapshot<PackedWorld>>,
    /// Whether the snapshots due are let pass ([`Session::hold_snapshots`]).
    hold_snapshots: bool,
    fork: Option<Fork>,
    /// Scripted steps skipped since the page last asked, each with the reason the world gave.
    skipped_messages: Vec<(Command, String)>,
}

impl<W> Snapshot<W> {
    /// `world` at time 0, before any step of the script or command.
    fn at_start(world: W) -> Snapshot<W> {
        Snapshot {
            world,
            at_ms: 0,
            next_script: 0,
            next_recorded: 0,
            skipped: Vec::new(),
        }
    }
}

impl Snapshot {
    /// A copy to keep, its world packed (at the world's own time).
    fn pack(&self) -> Snapshot<PackedWorld> {
        let world = self.world.pack();
        Snapshot {
            at_ms: world.now(),
            world,
            next_script: self.next_script,
            next_recorded: self.next_recorded,
            skipped: self.skipped.clone(),
        }
    }
}

impl Snapshot<PackedWorld> {
    /// The present it was taken from.
    fn unpack(&self) -> Snapshot {
        Snapshot {
            world: self.world.unpack(),
            at_ms: self.at_ms,
            next_script: self.next_script,
            next_recorded: self.next_recorded,
            skipped: self.skipped.clone(),
        }
    }
}

impl Session {
    /// A session at time 0 of `start`, with no command recorded.
    pub fn new(start: Start) -> Session {
        let now = Snapshot::at_start(World::new(&start.setup));
        // The first snapshot is a second world made as the present was (the same setup and
        // seed make the same world), not a copy of it: the page's first view then never copies
        // a world (see `Session::hold_snapshots`).
        let first = Snapshot::at_start(World::new(&start.setup).into_packed());
        let mut s = Session {
            hold_snapshots: false,
            snapshots: vec![first],
            start,
            recorded: Vec::new(),
            now,
            end_ms: 0,
            fork: None,
            skipped_messages: Vec::new(),
        };
        // Time 0 shows what happens at 0 done, as any other time does.
        s.advance(0);
        s
    }

    /// A session of `start` with `recorded` commands (times in order), shown at `at_ms`, whose
    /// end is `end_ms` (at least the last command's time and `at_ms`). Every command is
    /// replayed now, so a command that cannot apply when its time comes is refused with its
    /// place and the reason: `command 3 (crash broker 7 at 12.000 s): there is no broker 7`.
    pub fn replay(
        start: Start,
        recorded: Vec<(u64, Command)>,
        at_ms: u64,
        end_ms: u64,
    ) -> Result<Session, String> {
        if let Some(i) = recorded.windows(2).position(|w| w[1].0 < w[0].0) {
            return Err(format!(
                "command {} comes at {} ms, before the one before it ({} ms): commands must be in time order",
                i + 2,
                recorded[i + 1].0,
                recorded[i].0
            ));
        }
        let last = recorded.last().map_or(0, |(t, _)| *t);
        let end = end_ms.max(last).max(at_ms);
        // Everything the replay runs: the start's script and the recorded commands.
        let mut all: Vec<(u64, Command)> = start.script.iter().chain(&recorded).cloned().collect();
        crate::collections::sort_by_key(&mut all, |(t, _)| *t);
        crate::scenario::budget::check(&start.setup, &all, end, "a shorter session")?;
        let mut s = Session::new(start);
        s.recorded = recorded;
        // Replay to the end, checking every command on the way, then seek to the time shown.
        s.check_replay(end)?;
        s.end_ms = end;
        s.seek(at_ms);
        s.skipped_messages.clear();
        Ok(s)
    }

    /// Replays to `t` (taking snapshots, moving the end) and stops at the first recorded
    /// command that does not apply, naming it.
    fn check_replay(&mut self, t: u64) -> Result<(), String> {
        self.run_to(t, true, true)?;
        self.end_ms = self.end_ms.max(t);
        Ok(())
    }

    /// The session's link: the address fragment (without `#`) that reopens it as it is now.
    pub fn link(&self) -> String {
        codec::encode(&self.start.base, self.now_ms(), self.end_ms, &self.recorded)
    }

    /// What begins the session.
    pub fn start(&self) -> &Start {
        &self.start
    }

    /// The world as it is at the time shown.
    pub fn world(&self) -> &World {
        &self.now.world
    }

    /// The time shown.
    pub fn now_ms(&self) -> u64 {
        self.now.world.now()
    }

    /// The furthest time the session has reached: the timeline's end.
    pub fn end_ms(&self) -> u64 {
        self.end_ms
    }

    /// Whether the time shown is before the session's end (the learner went back).
    pub fn in_past(&self) -> bool {
        self.now_ms() < self.end_ms
    }

    /// The learner's commands with their times, in order.
    pub fn recorded(&self) -> &[(u64, Command)] {
        &self.recorded
    }

    /// The scripted commands not applied yet at the time shown, in order.
    pub fn upcoming(&self) -> &[(u64, Command)] {
        &self.start.script[self.now.next_script.min(self.start.script.len())..]
    }

    /// The recorded commands still ahead of the time shown (a fork would drop them).
    pub fn ahead(&self) -> &[(u64, Command)] {
        &self.recorded[self.now.next_recorded.min(self.recorded.len())..]
    }

    /// The last fork, while it can be undone.
    pub fn fork(&self) -> Option<&Fork> {
        self.fork.as_ref()
    }

    /// Lets the snapshots due pass while `hold` (the world runs on exactly as it would, only
    /// no copy of it is kept), or takes them again from the next one due. Seeking into a
    /// stretch without snapshots replays it from the one before, so every result is the same,
    /// only slower to reach. The page holds them until the second part of its module has
    /// arrived (`ui::later`): copying a world is code the first view does without.
    pub fn hold_snapshots(&mut self, hold: bool) {
        self.hold_snapshots = hold;
    }

    /// How many snapshots are kept.
    pub fn snapshot_count(&self) -> usize {
        self.snapshots.len()
    }

    /// The times of the kept snapshots, oldest first.
    pub fn snapshot_times(&self) -> Vec<u64> {
        self.snapshots.iter().map(|s| s.at_ms).collect()
    }

    /// The scripted steps skipped since the last call (a story about to crash a broker the
    /// learner already crashed), each with the reason the world refused it; the page says them
    /// in the reader's language.
    pub fn take_skipped(&mut self) -> Vec<(Command, String)> {
        std::mem::take(&mut self.skipped_messages)
    }

    /// The indices in the script of the steps skipped up to the time shown.
    pub fn skipped_script(&self) -> &[usize] {
        &self.now.skipped
    }

    /// The next due command at or before `t`: its time and whether it is scripted. At equal
    /// times the script goes first: on the page a story's step runs as its time is reached,
    /// and a click at that time comes after.
    fn due(&self, t: u64) -> Option<(u64, bool)> {
        let s = self
            .start
            .script
            .get(self.now.next_script)
            .map(|(at, _)| *at);
        let r = self.recorded.get(self.now.next_recorded).map(|(at, _)| *at);
        match (s, r) {
            (Some(s), Some(r)) if s <= r && s <= t => Some((s, true)),
            (_, Some(r)) if r <= t => Some((r, false)),
            (Some(s), _) if s <= t => Some((s, true)),
            _ => None,
        }
    }

    fn apply_script(&mut self) {
        let i = self.now.next_script;
        let cmd = self.start.script[i].1.clone();
        if let Err(e) = self.now.world.apply(cmd.clone()) {
            self.now.skipped.push(i);
            self.skipped_messages.push((cmd, e));
        }
        self.now.next_script += 1;
    }

    /// Runs the present forward to `t`, applying the script's and the recorded commands as
    /// their times come and taking snapshots on the way.
    fn advance(&mut self, t: u64) {
        let _ = self.run_to(t, true, false);
        self.end_ms = self.end_ms.max(t);
    }

    /// [`Session::advance`] without snapshots and without moving the end (for probes).
    fn advance_plain(&mut self, t: u64) {
        let _ = self.run_to(t, false, false);
    }

    /// Runs the present to `t`, applying the script's and the recorded commands as their
    /// times come, with snapshots on the way if `snapshots`. A recorded command that does not
    /// apply stops the run with its place when `strict`; otherwise (the page replaying what
    /// already applied once, so it applies again) the run goes on without it rather than
    /// stopping the page.
    fn run_to(&mut self, t: u64, snapshots: bool, strict: bool) -> Result<(), String> {
        while let Some((at, from_script)) = self.due(t) {
            if snapshots {
                self.snapshot_until(at);
            }
            self.now.world.advance_to(at);
            if from_script {
                self.apply_script();
            } else {
                let i = self.now.next_recorded;
                let cmd = self.recorded[i].1.clone();
                let applied = self.now.world.apply(cmd.clone());
                if strict {
                    applied.map_err(|e| {
                        format!("command {} ({cmd} at {}): {e}", i + 1, crate::fmt_ms(at))
                    })?;
                }
                self.now.next_recorded += 1;
            }
        }
        if snapshots {
            self.snapshot_until(t);
        }
        self.now.world.advance_to(t);
        self.now.at_ms = t;
        Ok(())
    }

    /// Takes the snapshots due between the newest one and `t` (at multiples of
    /// [`SNAPSHOT_EVERY_MS`] the present has not passed yet), advancing the present to each.
    /// While replaying history older than the newest snapshot, none is taken: the kept ones
    /// already cover it, as thinned.
    fn snapshot_until(&mut self, t: u64) {
        let newest = self.snapshots.last().map_or(0, |s| s.at_ms);
        let mut b = (newest / SNAPSHOT_EVERY_MS + 1) * SNAPSHOT_EVERY_MS;
        let present = self.now.world.now();
        if b < present {
            b = present.div_ceil(SNAPSHOT_EVERY_MS) * SNAPSHOT_EVERY_MS;
        }
        while b <= t {
            self.now.world.advance_to(b);
            self.now.at_ms = b;
            self.push_snapshot();
            b += SNAPSHOT_EVERY_MS;
        }
    }

    fn push_snapshot(&mut self) {
        if self.hold_snapshots {
            return;
        }
        let snap = self.now.pack();
        if self.snapshots.last().is_some_and(|s| s.at_ms >= snap.at_ms) {
            return;
        }
        self.snapshots.push(snap);
        self.thin();
    }

    /// Drops the snapshots that [`spacing_for_age`] no longer keeps (the first, at time 0,
    /// always stays).
    fn thin(&mut self) {
        let end = self.end_ms.max(self.now.world.now());
        self.snapshots.retain(|s| {
            let spacing = spacing_for_age(end.saturating_sub(s.at_ms));
            s.at_ms == 0 || s.at_ms % spacing == 0
        });
    }

    /// Moves the time shown to `t`: forward by running the world (past the end, the session
    /// grows), back by restoring the newest snapshot at or before `t` and replaying from it.
    pub fn seek(&mut self, t: u64) {
        // The newest snapshot at or before `t`: back in time it is the only way; forward it
        // saves replaying what lies between the time shown and it.
        let present = self.now.world.now();
        let best = self.snapshots.iter().rev().find(|s| s.at_ms <= t);
        match best {
            Some(snap) if t < present || snap.at_ms > present => self.now = snap.unpack(),
            None if t < present => self.now = self.snapshots[0].unpack(),
            _ => {}
        }
        self.advance(t);
    }

    /// Applies `cmd` at the time shown and records it. In the past this forks: the commands
    /// recorded after this moment are dropped (kept in [`Session::fork`] for an undo) and the
    /// session ends here until it runs on. A command the world refuses changes nothing.
    pub fn apply(&mut self, cmd: Command) -> Result<(), String> {
        let now = self.now_ms();
        let forking = self.in_past();
        // The world checks a command before it changes anything: a refused one leaves it as
        // it was.
        self.now.world.apply(cmd.clone())?;
        if forking {
            let kept = self.now.next_recorded;
            let dropped = self.recorded.split_off(kept);
            self.fork = Some(Fork {
                at_ms: now,
                kept,
                dropped,
                old_end_ms: self.end_ms,
            });
            self.snapshots.retain(|s| s.at_ms <= now);
            self.end_ms = now;
        }
        self.recorded.insert(self.now.next_recorded, (now, cmd));
        self.now.next_recorded += 1;
        Ok(())
    }

    /// Undoes the last fork: the commands recorded since it go, the future it dropped comes
    /// back, and the time shown is the fork's moment, as it was before the learner acted.
    /// `false` when there is no fork to undo.
    pub fn undo_fork(&mut self) -> bool {
        let Some(fork) = self.fork.take() else {
            return false;
        };
        self.recorded.truncate(fork.kept);
        self.recorded.extend(fork.dropped);
        // The snapshots after the fork's moment saw the fork's future; the ones at or before it
        // were taken before the learner acted.
        self.snapshots.retain(|s| s.at_ms <= fork.at_ms);
        let snap = self
            .snapshots
            .iter()
            .rev()
            .find(|s| s.at_ms <= fork.at_ms)
            .unwrap_or(&self.snapshots[0])
            .unpack();
        self.now = snap;
        self.end_ms = fork.old_end_ms;
        self.advance(fork.at_ms);
        true
    }

    /// Forgets the last fork (it can no longer be undone).
    pub fn keep_fork(&mut self) {
        self.fork = None;
    }

    /// The time of the next moment after the time shown at which an event happens, looking at
    /// most [`STEP_HORIZON_MS`] ahead; `None` when nothing happens in that time.
    pub fn next_event_ms(&self) -> Option<u64> {
        let mut probe = self.probe();
        let from = probe.now_ms();
        let horizon = from.saturating_add(STEP_HORIZON_MS);
        let events = probe.now.world.events().len();
        let mut t = from;
        loop {
            let due = [
                probe.now.world.next_due(),
                probe.start.script.get(probe.now.next_script).map(|c| c.0),
                probe.recorded.get(probe.now.next_recorded).map(|c| c.0),
            ]
            .into_iter()
            .flatten()
            .filter(|at| *at > t)
            .min();
            let next = match due {
                Some(n) if n <= horizon => n,
                _ => return None,
            };
            probe.advance_plain(next);
            t = next;
            if probe.now.world.events().len() > events {
                return Some(t);
            }
        }
    }

    /// Moves to the next moment at which an event happens (see [`Session::next_event_ms`]);
    /// the time it moved to, or `None` (nothing moves) when nothing happens within
    /// [`STEP_HORIZON_MS`].
    pub fn step_forward(&mut self) -> Option<u64> {
        let t = self.next_event_ms()?;
        self.seek(t);
        Some(t)
    }

    /// The time of the last moment before the time shown at which an event happened.
    pub fn previous_event_ms(&self) -> Option<u64> {
        let now = self.now_ms();
        self.now
            .world
            .events()
            .iter()
            .rev()
            .map(|e| e.time_ms)
            .find(|t| *t < now)
    }

    /// Moves back to the last moment before the time shown at which an event happened (the
    /// world then shows that moment's events done); `None` at the first event.
    pub fn step_back(&mut self) -> Option<u64> {
        let t = self.previous_event_ms()?;
        self.seek(t);
        Some(t)
    }
}

/// Free play's setup written as a scenario file (explicit replicas, so that the file does not
/// depend on how a file's `partitions` would be placed).
#[inline(never)]
fn free_play_file(setup: &Setup) -> Value {
    use serde_json::json;
    let profile = setup.settings.profile;
    let defaults = Settings::for_profile(profile);
    let mut config = serde_json::Map::new();
    if setup.settings.offsets_topic_replication_factor != defaults.offsets_topic_replication_factor
    {
        config.insert(
            "offsets.topic.replication.factor".into(),
            json!(setup.settings.offsets_topic_replication_factor),
        );
    }
    let topics: Vec<_> = setup
        .topics
        .iter()
        .map(|t| json!({"name": t.name, "replicas": t.replicas}))
        .collect();
    let groups: Vec<_> = setup
        .groups
        .iter()
        .map(|g| json!({"id": g.id, "topics": g.topics, "assignor": g.assignor}))
        .collect();
    json!({
        "version": 1,
        "name": "free-play",
        "title": "Free play",
        "description": "A session of the playground's free play, exported from the page.",
        "seed": setup.seed,
        "profile": profile.name(),
        "config": config,
        "brokers": setup.brokers.iter().map(|(b, _)| *b).collect::<Vec<_>>(),
        "topics": topics,
        "groups": groups,
    })
}

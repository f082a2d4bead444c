//! A consumer's node below the cluster: its box, the group leader's crown with the
//! generation, its state and its partitions (as chips); and the "add a consumer" places
//! after the consumers. A press crashes a consumer, or starts a crashed or departed one
//! again (it rejoins); shift-click makes it leave the group.

use super::{GraphView, Press};
use crate::i18n::{msg_graph as m, Tr};
use crate::sim::ConsumerState;
use crate::view::format::{consumer_words, short_member_id, ConsumerRef};
use crate::view::geometry::{text_units, ConsumerGeo, Pt, CHIP_GAP, CHIP_ROWS};
use crate::view::waits::{consumer_wait, rebalance_wait};

/// The group leader's badge above a consumer, relative to the consumer's centre.
#[derive(Debug, Clone, PartialEq)]
pub struct Pill {
    /// Its text, `leader · gen 1`.
    pub text: String,
    /// Its width.
    pub w: f64,
    /// Its top edge.
    pub y: f64,
}

/// One partition chip under a consumer, relative to the consumer's centre.
#[derive(Debug, Clone, PartialEq)]
pub struct Chip {
    /// Its text: the partition (`orders-0`, or shorter), or `+N` for those left out.
    pub text: String,
    /// Its centre, across.
    pub x: f64,
    /// Its top edge.
    pub y: f64,
    /// Its width.
    pub w: f64,
}

/// A small icon on a consumer's corner: crashed or left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsumerIcon {
    /// Its path data.
    pub d: &'static str,
    /// Its class.
    pub class: &'static str,
}

/// A consumer's node, placed at its centre.
#[derive(Debug, Clone, PartialEq)]
pub struct ConsumerNode {
    /// Its name (client id).
    pub member: String,
    /// Its group.
    pub group: String,
    /// Its centre.
    pub at: Pt,
    /// The look of its state: `stable`, `rebalancing`, `crashed` or `left`.
    pub look: &'static str,
    /// Whether it leads its group.
    pub leads: bool,
    /// Its state.
    pub state: ConsumerState,
    /// The generation its group is in.
    pub generation: u32,
    /// Its accessible name.
    pub aria: String,
    /// Its tooltip: what a press does.
    pub title: String,
    /// The word above its name, `consumer`.
    pub caption: String,
    /// What pressing it does.
    pub press: Press,
    /// The icon of its state, when it is down.
    pub icon: Option<ConsumerIcon>,
    /// The leader's badge.
    pub pill: Option<Pill>,
    /// The line under it, e.g. `stable · gen 1`.
    pub state_line: String,
    /// Its member id, shortened, shown when it has no partitions.
    pub member_id: Option<String>,
    /// Its partitions.
    pub chips: Vec<Chip>,
    /// What it waits for, drawn where its partitions go: crashed and still a member, its
    /// removal (`removed in 41.1 s`) and the setting that sets it; joining, the end of the
    /// join's wait; syncing, the in-sync replicas the group's record waits for.
    pub wait_lines: Vec<String>,
}

/// An "add a consumer" place at the end of the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct AddPlace {
    /// The group it adds to.
    pub group: String,
    /// Its centre.
    pub at: Pt,
    /// Its accessible name and tooltip.
    pub label: String,
    /// The words in its box, `+ consumer`.
    pub text: String,
    /// Whether it names its group (when there are several).
    pub name_group: bool,
    /// What pressing it does.
    pub press: Press,
}

/// A consumer's partition chips, laid out in rows under its node: (text, x, row, width).
/// The full names when they fit in [`CHIP_ROWS`] rows, else shorter ones, else as many as fit
/// and a "+N".
// Not inlined: the default page draws no consumer until a learner adds one, and the build
// leaves what its first view does not run to the module's second part.
#[inline(never)]
pub fn chips(
    names: &[String],
    g: &ConsumerGeo,
    single_topic: bool,
) -> Vec<(String, f64, usize, f64)> {
    let row_w = g.slot - 10.0;
    let layout = |texts: &[String]| -> (Vec<(String, f64, usize, f64)>, usize) {
        let mut rows: Vec<Vec<(String, f64)>> = Vec::new();
        let mut width = 0.0;
        for t in texts {
            let w = t.chars().count() as f64 * g.chip_cw + g.chip_pad;
            match rows.last_mut() {
                Some(row) if width + CHIP_GAP + w <= row_w => {
                    row.push((t.clone(), w));
                    width += CHIP_GAP + w;
                }
                _ => {
                    rows.push(vec![(t.clone(), w)]);
                    width = w;
                }
            }
        }
        let mut out = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let total: f64 =
                row.iter().map(|(_, w)| w).sum::<f64>() + CHIP_GAP * (row.len() as f64 - 1.0);
            let mut x = -total / 2.0;
            for (t, w) in row {
                out.push((t.clone(), x + w / 2.0, r, *w));
                x += w + CHIP_GAP;
            }
        }
        (out, rows.len())
    };
    let (full, rows) = layout(names);
    if rows <= CHIP_ROWS {
        return full;
    }
    // "orders-3" becomes "P3" when there is one topic, else "o-3".
    let short: Vec<String> = names
        .iter()
        .map(|n| match n.rsplit_once('-') {
            Some((_, p)) if single_topic => format!("P{p}"),
            Some((t, p)) => format!("{}-{p}", t.chars().next().unwrap_or('?')),
            None => n.clone(),
        })
        .collect();
    let (out, rows) = layout(&short);
    if rows <= CHIP_ROWS {
        return out;
    }
    // Still too many: keep what fits and say how many more.
    let mut keep = short.len();
    while keep > 0 {
        keep -= 1;
        let mut texts: Vec<String> = short[..keep].to_vec();
        texts.push(format!("+{}", short.len() - keep));
        let (out, rows) = layout(&texts);
        if rows <= CHIP_ROWS {
            return out;
        }
    }
    Vec::new()
}

/// The node of consumer `c`, centred at `at`, drawn with geometry `g`.
// Not inlined: the default page draws no consumer until a learner adds one, and the build
// leaves what its first view does not run to the module's second part.
#[inline(never)]
pub fn consumer_node(
    v: &GraphView<'_>,
    c: &ConsumerRef<'_>,
    at: Pt,
    g: &ConsumerGeo,
) -> ConsumerNode {
    let name = c.name.to_string();
    let alive = c.alive();
    let leads = c.leads();
    let generation = c.group_generation();
    let assigned: Vec<String> = if alive {
        c.view.assignment.clone()
    } else {
        Vec::new()
    };
    let single_topic = v.topic_count <= 1;
    let chips = chips(&assigned, g, single_topic)
        .into_iter()
        .map(|(text, x, row, w)| Chip {
            text,
            x,
            y: g.chips_top + row as f64 * (g.chip_h + CHIP_GAP),
            w,
        })
        .collect::<Vec<_>>();
    let tr: &Tr = &v.tr;
    // Short enough to stay within the node's slot.
    let state_line = match c.view.state {
        ConsumerState::Stable => tr.f(m::NODE_STABLE_GEN, &[("generation", &c.view.generation)]),
        ConsumerState::FindingCoordinator => "FindCoordinator…".to_string(),
        ConsumerState::Joining => tr.t(m::NODE_JOINING),
        ConsumerState::Syncing => tr.t(m::NODE_SYNCING),
        s @ (ConsumerState::Left | ConsumerState::Crashed) => consumer_words(s, tr),
    };
    let sep = tr.t(m::LIST_SEP);
    let mut aria = tr.f(
        m::ARIA_CONSUMER,
        &[
            ("member", &name),
            ("group", &c.group),
            ("state", &consumer_words(c.view.state, tr)),
        ],
    );
    if leads {
        aria.push_str(&sep);
        aria.push_str(&tr.f(m::ARIA_GROUP_LEADER, &[("generation", &generation)]));
    }
    if !assigned.is_empty() {
        aria.push_str(&sep);
        aria.push_str(&tr.f(
            m::ARIA_PARTITIONS,
            &[("partitions", &assigned.join(&tr.t(m::ENUM_SEP)))],
        ));
    }
    let wait = consumer_wait(c, tr);
    if let Some(w) = &wait {
        aria.push_str(&sep);
        aria.push_str(&w.sentence(tr));
    }
    let wait_lines = match (wait, c.view.state) {
        // On a phone two neighbours' lines would run into each other: two short lines, the
        // setting left to the group panel and the node's label.
        (Some(w), _) if v.compact => vec![tr.t(m::NODE_REMOVED), w.in_words(tr)],
        (Some(w), _) => vec![
            tr.f(m::NODE_REMOVED_IN, &[("time", &w.in_words(tr))]),
            w.setting.clone(),
        ],
        // A joining or syncing consumer with no partitions shown: what its group waits on.
        (None, ConsumerState::Joining) if chips.is_empty() => rebalance_wait(c.group_view, tr)
            .map(|w| vec![tr.f(m::NODE_JOIN_ENDS, &[("time", &w.in_words(tr))])])
            .unwrap_or_default(),
        (None, ConsumerState::Syncing) if chips.is_empty() => c
            .group_view
            .sync_wait
            .as_ref()
            .filter(|w| !w.awaiting.is_empty())
            .map(|w| {
                let who: Vec<String> = w.awaiting.iter().map(|b| b.to_string()).collect();
                vec![
                    tr.t(m::NODE_RECORD_NOT_ON_ISR),
                    tr.f(m::NODE_BROKERS_BEHIND, &[("brokers", &who.join(", "))]),
                ]
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    aria.push_str(&tr.t(if alive {
        m::ARIA_CONSUMER_CRASH
    } else {
        m::ARIA_CONSUMER_START
    }));
    let title = if alive {
        tr.f(m::TITLE_CRASH_CONSUMER, &[("member", &name)])
    } else {
        tr.f(
            m::TITLE_START_CONSUMER,
            &[("member", &name), ("group", &c.group)],
        )
    };
    let member_id = (!c.view.member_id.is_empty() && chips.is_empty() && alive)
        .then(|| short_member_id(c.name, &c.view.member_id));
    let icon = match c.view.state {
        ConsumerState::Crashed => Some(("M-4.5,-4.5 L4.5,4.5 M4.5,-4.5 L-4.5,4.5", "crashed")),
        ConsumerState::Left => Some(("M4,-4 L-4,4 M-4,4 L-4,-1 M-4,4 L1,4", "left")),
        _ => None,
    }
    .map(|(d, class)| ConsumerIcon { d, class });
    let pill = leads.then(|| {
        let text = tr.f(m::PILL_LEADER, &[("generation", &generation)]);
        let w = text_units(&text) * if v.compact { 9.4 } else { 7.6 } + 34.0;
        let y = -g.h / 2.0 - g.pill_h - 6.0;
        Pill { text, w, y }
    });
    ConsumerNode {
        member: name,
        group: c.group.to_string(),
        at,
        look: c.look(),
        leads,
        state: c.view.state,
        generation,
        aria,
        title,
        caption: tr.t(m::CAPTION_CONSUMER),
        press: Press::Consumer {
            command: c.click(),
            shift: c.leave(),
        },
        icon,
        pill,
        state_line,
        member_id,
        chips,
        wait_lines,
    }
}

/// The "add a consumer to `group`" place at `at`; `name_group` when there are several.
pub fn add_place(group: &str, name_group: bool, at: Pt, tr: &Tr) -> AddPlace {
    AddPlace {
        group: group.to_string(),
        at,
        label: tr.f(m::ADD_CONSUMER_LABEL, &[("group", &group)]),
        text: tr.t(m::ADD_CONSUMER_TEXT),
        name_group,
        press: Press::Add {
            group: group.to_string(),
        },
    }
}

//! A broker's node: its circle with its id, the controller's crown (or the zombie's, or the
//! "still in /controller" note), its state's icon, the ZooKeeper session's countdown ring,
//! its replica badges, the lines under it and its "⋯" button. A plain press crashes it, or
//! starts it when it is down; shift-click or its label opens its panel, its "⋯" its menu.

use super::badges::Badge;
use super::{GraphView, Press};
use crate::i18n::msg_graph as g;
use crate::sim::{BrokerId, BrokerState, BrokerView, Command, ControllerRole, ReplicaState};
use crate::view::format::{
    aria_action, aria_description, click_starts, replica_words, status_lines,
};
use crate::view::geometry::text_units;
use crate::view::geometry::{arc, badge_h, line_h, Pt, BADGE_GAP, BADGE_TOP, NODE_R};
use crate::view::layout::dense;
use crate::view::waits::{broker_isr_lines, isr_waits};

/// The crown and badge above a controller (or a zombie, or a broker `/controller` names).
#[derive(Debug, Clone, PartialEq)]
pub struct Crown {
    /// Its text, e.g. `CONTROLLER · epoch 1`.
    pub label: String,
    /// Its class: `badge controller`, `badge zombie` or `badge named`.
    pub class: &'static str,
    /// The badge's width.
    pub w: f64,
}

/// A small icon on a node's corner for a state other than running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusIcon {
    /// Its path data.
    pub d: &'static str,
    /// Its class, e.g. `crashed`.
    pub class: &'static str,
}

/// One line of text under a node.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// The text.
    pub text: String,
    /// Its class, e.g. `state` or `countdown strong`.
    pub class: &'static str,
    /// Its baseline, under the node's centre.
    pub y: f64,
}

/// A broker's node, placed at its centre.
#[derive(Debug, Clone, PartialEq)]
pub struct BrokerNode {
    /// The broker.
    pub id: BrokerId,
    /// Its centre.
    pub at: Pt,
    /// Its process's state.
    pub state: BrokerState,
    /// How it stands with respect to the controller role.
    pub role: ControllerRole,
    /// Whether its panel is open.
    pub selected: bool,
    /// Its accessible name.
    pub aria: String,
    /// Its tooltip: what a press does.
    pub title: String,
    /// The word above its id, `broker`.
    pub caption: String,
    /// The accessible name and tooltip of its "⋯".
    pub more_label: String,
    /// What pressing the node does.
    pub press: Press,
    /// The session's countdown ring: the path of the part left, while ZooKeeper counts down.
    pub ring: Option<String>,
    /// The crown above it.
    pub crown: Option<Crown>,
    /// The icon of its state.
    pub status: Option<StatusIcon>,
    /// Its replica badges.
    pub badges: Vec<Badge>,
    /// How far below its centre the badges reach (0 without badges): an invisible mark as
    /// far above keeps the node's box centred on its circle, where a click lands.
    pub reach: f64,
    /// The lines under it.
    pub labels: Vec<Label>,
    /// What clicking the lines under it does.
    pub label_press: Press,
    /// Where its "⋯" button sits, in the graph's coordinates.
    pub more_at: Pt,
    /// What pressing "⋯" does: open its menu.
    pub more_press: Press,
}

/// The node of broker `id`, seen as `b`, centred at `p`; `extra` is the badges' height
/// (the lines start below it) and `now` the virtual time.
pub fn broker_node(
    v: &GraphView<'_>,
    extra: f64,
    (id, b): (BrokerId, &BrokerView),
    p: Pt,
    badges: Vec<Badge>,
    now: u64,
) -> BrokerNode {
    let role = b.controller_role;
    let starts = click_starts(b);
    let epoch = b.acting_epoch.unwrap_or(0);
    let tr = &v.tr;
    let badge = match role {
        // The role in capitals (`CONTROLLER · epoch 1`), the epoch as Kafka writes it. ASCII
        // capitals are all the catalogue's languages need (English; Chinese has no case), and
        // spare the page the Unicode case tables.
        ControllerRole::Controller => Some((
            format!(
                "{} · epoch {epoch}",
                tr.t(g::CROWN_CONTROLLER).to_ascii_uppercase()
            ),
            "badge controller",
        )),
        ControllerRole::Zombie => Some((
            format!(
                "{} · epoch {epoch}",
                tr.t(g::CROWN_ZOMBIE).to_ascii_uppercase()
            ),
            "badge zombie",
        )),
        ControllerRole::Named => Some((tr.t(g::CROWN_NAMED), "badge named")),
        ControllerRole::None => None,
    };
    let crown = badge.map(|(label, class)| {
        // Capitals in bold are wider than the lower-case "still in /controller".
        // The dense layout's type is bigger still (17 px, not 14).
        let grow = if dense(v.compact, v.state.brokers.len()) {
            17.0 / 14.0
        } else {
            1.0
        };
        let per_char = match (role, v.compact) {
            (ControllerRole::Named, false) => 7.6,
            (ControllerRole::Named, true) => 8.4 * grow,
            (_, false) => 8.8,
            (_, true) => 9.7 * grow,
        };
        let w = text_units(&label) * per_char + 18.0;
        Crown { label, class, w }
    });
    let status = match b.state {
        BrokerState::Crashed => Some(("M-4.5,-4.5 L4.5,4.5 M4.5,-4.5 L-4.5,4.5", "crashed")),
        BrokerState::Paused => Some(("M-2.8,-5 L-2.8,5 M2.8,-5 L2.8,5", "paused")),
        BrokerState::Stopped => Some(("M-3.5,-3.5 L3.5,-3.5 L3.5,3.5 L-3.5,3.5 Z", "stopped")),
        BrokerState::ShuttingDown => Some(("M0,-5.5 L0,0.5 M0,4.6 L0,4.8", "shutting")),
        BrokerState::NotStarted | BrokerState::Running => None,
    }
    .map(|(d, class)| StatusIcon { d, class });
    // The countdown ring: how much of the session is left before ZooKeeper gives up on it.
    let ring = b
        .session_countdown_ms
        .filter(|_| v.session_timeout_ms > 0)
        .map(|left| {
            arc(
                NODE_R + 7.0,
                (left as f64 / v.session_timeout_ms as f64).clamp(0.0, 1.0),
            )
        });
    let mut label_lines = status_lines(b, now, tr);
    // A follower counting down to leaving an ISR (a stalled or lagging fetcher).
    if label_lines.len() <= 2 {
        label_lines.extend(broker_isr_lines(v.state, id, tr));
    }
    // The group coordinator it is (it leads the group's __consumer_offsets partition).
    let coordinates: Vec<&str> = v
        .state
        .groups
        .iter()
        .filter(|(_, g)| g.coordinator == Some(id))
        .map(|(name, _)| name.as_str())
        .collect();
    if !coordinates.is_empty() && label_lines.len() < 4 {
        label_lines.push((
            tr.f(
                g::NODE_COORDINATOR_OF,
                &[("groups", &coordinates.join(&tr.t(g::ENUM_SEP)))],
            ),
            "coord-note",
        ));
    }
    let label_top = NODE_R + 24.0 + extra;
    let labels = label_lines
        .into_iter()
        .enumerate()
        .map(|(i, (text, class))| Label {
            text,
            class,
            y: label_top + i as f64 * line_h(v.compact),
        })
        .collect();
    // The node's box must stay centred on its circle (a click lands at the box's centre), so
    // an invisible mark above balances the badges below.
    let reach = badges.iter().map(|b| b.row + 1).max().map_or(0.0, |rows| {
        BADGE_TOP + rows as f64 * (badge_h(v.compact) + BADGE_GAP)
    });
    let mut aria = aria_description(id, b, now, tr);
    if !badges.is_empty() {
        let leads: Vec<&str> = badges
            .iter()
            .filter(|x| x.state == ReplicaState::Leader)
            .map(|x| x.key.as_str())
            .collect();
        let rest: Vec<String> = badges
            .iter()
            .filter(|x| x.state != ReplicaState::Leader)
            .map(|x| {
                tr.f(
                    g::ARIA_REPLICA,
                    &[("partition", &x.key), ("role", &replica_words(x.state, tr))],
                )
            })
            .collect();
        let sep = tr.t(g::LIST_SEP);
        let mut parts = Vec::new();
        if !leads.is_empty() {
            parts.push(tr.f(g::ARIA_LEADS, &[("partitions", &leads.join(&sep))]));
        }
        if !rest.is_empty() {
            parts.push(tr.f(g::ARIA_REPLICAS, &[("replicas", &rest.join(&sep))]));
        }
        aria.push_str(&tr.t(g::ARIA_PART_SEP));
        aria.push_str(&parts.join(&tr.t(g::ARIA_PART_SEP)));
    }
    for (key, p) in &v.state.partitions {
        for (_, w) in isr_waits(key, p, tr).into_iter().filter(|(f, _)| *f == id) {
            aria.push_str(&tr.t(g::ARIA_PART_SEP));
            aria.push_str(&w.sentence(tr));
        }
    }
    if !coordinates.is_empty() {
        aria.push_str(&tr.t(g::ARIA_PART_SEP));
        aria.push_str(&tr.f(
            g::ARIA_COORDINATOR_OF,
            &[("groups", &coordinates.join(&tr.t(g::ENUM_SEP)))],
        ));
    }
    aria.push_str(&tr.f(g::ARIA_BROKER_ACTION, &[("action", &aria_action(b, tr))]));
    let selected = v.selected == Some(id);
    let toggle = if selected { None } else { Some(id) };
    BrokerNode {
        id,
        at: p,
        state: b.state,
        role,
        selected,
        aria,
        title: if starts {
            tr.f(g::TITLE_START_BROKER, &[("broker", &id)])
        } else {
            tr.f(g::TITLE_CRASH_BROKER, &[("broker", &id)])
        },
        caption: tr.t(g::CAPTION_BROKER),
        more_label: tr.f(g::MORE_ACTIONS, &[("broker", &id)]),
        press: Press::Broker {
            command: if starts {
                Command::Start(id)
            } else {
                Command::Crash(id)
            },
            panel: id,
        },
        ring,
        crown,
        status,
        badges,
        reach,
        labels,
        label_press: Press::Select {
            click: toggle,
            key: None,
        },
        more_at: Pt {
            x: p.x + NODE_R * 0.92,
            y: p.y - NODE_R * 0.92,
        },
        more_press: Press::Menu { broker: id },
    }
}

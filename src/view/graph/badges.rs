//! The replica badges under each broker (`T-0`), styled by the replica's role: leader (with
//! its leader epoch), in-sync follower, out-of-sync follower, offline, frozen. They are laid
//! out in rows centred under the node, and say less (no epoch, then a short name) when a
//! broker holds too many for [`MAX_BADGE_ROWS`] rows.

use super::GraphView;
use crate::i18n::msg_graph as g;
use crate::sim::{BrokerId, ReplicaState};
use crate::view::format::{lag, replica_words, replicas_of};
use crate::view::geometry::{badge_char_w, badge_h, BADGE_GAP, BADGE_ROW_W, BADGE_TOP};

/// How much a replica badge says: everything, no epoch, or a short name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadgeText {
    /// `orders-0 e1`.
    Full,
    /// `orders-0`.
    NoEpoch,
    /// `P0`, or `o-0` when there are several topics.
    Short,
}

/// One replica badge under a broker, placed relative to the broker's centre.
#[derive(Debug, Clone, PartialEq)]
pub struct Badge {
    /// The partition's key, `orders-0`.
    pub key: String,
    /// The replica's state.
    pub state: ReplicaState,
    /// ZooKeeper names it the leader, but it cannot act (its broker is down or frozen).
    pub named_leader: bool,
    /// Its text.
    pub name: String,
    /// The leader epoch it shows (`e1`), for the leader's badge.
    pub epoch: Option<String>,
    /// Its tooltip.
    pub title: String,
    /// Its width.
    pub w: f64,
    /// Its centre, across.
    pub x: f64,
    /// Its centre, down.
    pub y: f64,
    /// Its row, from 0.
    pub row: usize,
}

/// More rows than this and the badges say less.
pub const MAX_BADGE_ROWS: usize = 2;

/// The badges of broker `id`, laid out in rows, with the number of rows.
pub fn badges(v: &GraphView<'_>, id: BrokerId, text: BadgeText) -> (Vec<Badge>, usize) {
    let cw = badge_char_w(v.compact);
    let pad = if v.compact { 14.0 } else { 12.0 };
    let mut out: Vec<Badge> = replicas_of(v.state, v.partitions, id)
        .into_iter()
        .map(|(r, p, st)| {
            let name = match text {
                BadgeText::Short if v.topic_count <= 1 => format!("P{}", r.partition),
                BadgeText::Short => {
                    format!("{}-{}", r.topic.chars().next().unwrap_or('?'), r.partition)
                }
                _ => r.key.clone(),
            };
            // ZooKeeper may still name a down or frozen broker as the leader: say so.
            let named = p.leader == i64::from(id);
            let epoch = (named && text == BadgeText::Full).then(|| format!("e{}", p.leader_epoch));
            let chars = name.chars().count() + epoch.as_ref().map_or(0, |e| e.chars().count() + 1);
            let leo = p.log_end_offsets.get(&id).copied().unwrap_or(0);
            let tr = &v.tr;
            let mut title = tr.f(
                g::BADGE_TITLE,
                &[
                    ("partition", &r.key),
                    ("role", &replica_words(st, tr)),
                    ("broker", &id),
                    ("epoch", &p.leader_epoch),
                    ("leo", &leo),
                ],
            );
            if st != ReplicaState::Leader {
                title.push_str(&tr.f(g::BADGE_LAG, &[("lag", &lag(p, id))]));
            }
            if named && st != ReplicaState::Leader {
                title.push_str(&tr.t(g::BADGE_STILL_NAMED));
            }
            Badge {
                key: r.key.clone(),
                state: st,
                named_leader: named && st != ReplicaState::Leader,
                name,
                epoch,
                title,
                w: chars as f64 * cw + pad,
                x: 0.0,
                y: 0.0,
                row: 0,
            }
        })
        .collect();
    // Rows, each centred under the node: a badge goes into the first row with room for it
    // (a long leader's badge that starts a row of its own leaves room above for the next).
    let mut rows: Vec<(Vec<usize>, f64)> = Vec::new();
    for (i, b) in out.iter().enumerate() {
        match rows
            .iter_mut()
            .find(|(_, width)| width + BADGE_GAP + b.w <= BADGE_ROW_W)
        {
            Some((row, width)) => {
                row.push(i);
                *width += BADGE_GAP + b.w;
            }
            None => rows.push((vec![i], b.w)),
        }
    }
    let rows: Vec<Vec<usize>> = rows.into_iter().map(|(row, _)| row).collect();
    let h = badge_h(v.compact);
    for (r, row) in rows.iter().enumerate() {
        let total: f64 =
            row.iter().map(|&i| out[i].w).sum::<f64>() + BADGE_GAP * (row.len() as f64 - 1.0);
        let mut x = -total / 2.0;
        for &i in row {
            out[i].x = x + out[i].w / 2.0;
            out[i].y = BADGE_TOP + r as f64 * (h + BADGE_GAP) + h / 2.0;
            out[i].row = r;
            x += out[i].w + BADGE_GAP;
        }
    }
    (out, rows.len())
}

/// Every broker's badges, said as fully as fits in [`MAX_BADGE_ROWS`] rows, with the most
/// rows any broker needs.
pub fn all_badges(v: &GraphView<'_>) -> (Vec<(BrokerId, Vec<Badge>)>, usize) {
    // A narrow graph tries the leader epoch too: it is what a learner follows through an
    // election, and drops it only where the badges would not fit.
    let tiers: &[BadgeText] = &[BadgeText::Full, BadgeText::NoEpoch, BadgeText::Short];
    let mut best = (Vec::new(), 0);
    for &t in tiers {
        let mut rows = 0;
        let all: Vec<(BrokerId, Vec<Badge>)> = v
            .state
            .brokers
            .keys()
            .map(|&id| {
                let (b, r) = badges(v, id, t);
                rows = rows.max(r);
                (id, b)
            })
            .collect();
        best = (all, rows);
        if rows <= MAX_BADGE_ROWS {
            break;
        }
    }
    best
}

/// The badges' total height for `rows` rows.
pub fn badges_height(rows: usize, compact: bool) -> f64 {
    if rows == 0 {
        0.0
    } else {
        rows as f64 * (badge_h(compact) + BADGE_GAP) + 4.0
    }
}

//! The graph's markup: every shape of a [`Graph`] as the SVG elements the page draws, with
//! their classes, data attributes (the browser tests find the nodes by them), accessible
//! names and presses. The page renders this tree with Yew; [`svg_string`] writes it as a
//! standalone SVG document, natively.

use super::geometry::{badge_h, consumer_geo, xy, Pt, CHIP_GAP, NODE_R};
use super::graph::{
    AddPlace, Badge, BrokerNode, ConsumerNode, Edge, FlightDot, Graph, ProducerBox, ZooKeeperBox,
};
use super::markup::Element;
use crate::sim::ControllerRole;
use crate::text::numbers::{Fixed, Short};

/// The crown's outline, above a node's centre.
const CROWN: &str = "M-15,0 L-17,-17 L-8,-8 L0,-21 L8,-8 L17,-17 L15,0 Z";

/// The SVG namespace, which a standalone document names.
const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Class names, the absent ones left out.
fn classes<const N: usize>(names: [Option<&str>; N]) -> String {
    names.into_iter().flatten().collect::<Vec<_>>().join(" ")
}

fn translate(p: Pt) -> String {
    format!("translate({})", xy(p))
}

fn f1(x: f64) -> String {
    Fixed(x, 1).to_string()
}

/// The graph as one `<svg>` element, as the page draws it.
pub fn graph_element(g: &Graph) -> Element {
    let edges = g.edges.iter().map(|e| edge(e, &g.cut_text));
    let consumers = g
        .consumers
        .iter()
        .map(|c| consumer(c, g.compact))
        .chain(g.adds.iter().map(|a| add_place(a, g.compact)));
    Element::new("svg")
        .attr(
            "class",
            classes([
                Some("graph"),
                g.compact.then_some("compact"),
                g.with_consumers.then_some("with-consumers"),
                g.dense.then_some("dense"),
            ]),
        )
        .attr("viewBox", g.view_box.clone())
        .attr("role", "group")
        .attr("aria-label", g.aria.clone())
        .attr("preserveAspectRatio", "xMidYMid meet")
        .child(Element::new("g").attr("class", "edges").children(edges))
        .child(zookeeper(&g.zookeeper))
        .child_opt(g.producer.as_ref().map(|p| producer(p, g.compact)))
        .child(
            Element::new("g")
                .attr("class", "consumers")
                .children(consumers),
        )
        .child(
            Element::new("g")
                .attr("class", "flights")
                .attr("aria-hidden", "true")
                .children(g.flights.iter().map(flight)),
        )
        .children(g.brokers.iter().map(|b| broker(b, g.compact)))
}

/// The graph as a standalone SVG document (the page's markup, with the SVG namespace).
pub fn svg_string(g: &Graph) -> String {
    let mut root = graph_element(g);
    root.attrs.insert(0, ("xmlns", SVG_NS.to_string()));
    root.to_markup()
}

fn cut_mark(at: Pt, text: &str) -> Element {
    Element::new("g")
        .attr("class", "cut-mark")
        .attr("transform", translate(at))
        .child(
            Element::new("rect")
                .attr("x", "-17")
                .attr("y", "-10")
                .attr("width", "34")
                .attr("height", "20")
                .attr("rx", "6"),
        )
        .child(
            Element::new("text")
                .attr("y", "4.5")
                .attr("text-anchor", "middle")
                .text(text),
        )
}

fn edge(e: &Edge, cut_text: &str) -> Element {
    match e {
        Edge::Spoke {
            connection,
            cut,
            path,
            ..
        } => Element::new("path")
            .attr(
                "class",
                classes([
                    Some("spoke"),
                    Some(&format!("conn-{connection}")),
                    cut.then_some("cut"),
                ]),
            )
            .attr("d", path.d()),
        Edge::CutMark { at } => cut_mark(*at, cut_text),
        Edge::Channel { cut, path } => Element::new("path")
            .attr("class", if *cut { "channel cut" } else { "channel" })
            .attr("d", path.d()),
        Edge::GroupLink {
            member,
            broker,
            look,
            stale,
            path,
        } => Element::new("path")
            .attr(
                "class",
                classes([
                    Some("group-link"),
                    Some(&format!("cs-{look}")),
                    stale.then_some("stale"),
                ]),
            )
            .attr("data-link-member", member.clone())
            .attr("data-link-broker", broker.to_string())
            .attr("d", path.d()),
    }
}

/// A node's two-line label ("broker" over "2") as one text of two lines, each `(class, y,
/// text)`, with a space between them: a screen reader and a checker of the button's visible
/// text read it as one phrase, "broker 2", as its accessible name says it (WCAG 2.5.3).
fn stacked_label(
    (upper_class, upper_y, upper): (&str, &str, String),
    (lower_class, lower_y, lower): (&str, &str, String),
) -> Element {
    let line = |class: &str, y: &str, s: String| {
        Element::new("tspan")
            .attr("class", class.to_string())
            .attr("x", "0")
            .attr("y", y.to_string())
            .text(s)
    };
    Element::new("text")
        .attr("text-anchor", "middle")
        .child(line(upper_class, upper_y, upper))
        .text(" ")
        .child(line(lower_class, lower_y, lower))
}

fn text(class: &str, y: impl Into<String>, content: impl Into<String>) -> Element {
    Element::new("text")
        .attr("class", class)
        .attr("y", y)
        .attr("text-anchor", "middle")
        .text(content)
}

fn zookeeper(z: &ZooKeeperBox) -> Element {
    let znode = |dy: f64| {
        Element::new("text")
            .attr("class", "znode")
            .attr("x", Short(z.x + 16.0).to_string())
            .attr("y", Short(z.y + dy).to_string())
    };
    Element::new("g")
        .attr("class", "zk")
        .attr("role", "img")
        .attr("data-zookeeper", "true")
        .attr("aria-label", z.aria.clone())
        .child(
            Element::new("rect")
                .attr("x", Short(z.x).to_string())
                .attr("y", Short(z.y).to_string())
                .attr("width", Short(z.w).to_string())
                .attr("height", Short(z.h).to_string())
                .attr("rx", "14"),
        )
        .child(
            Element::new("text")
                .attr("class", "zk-title")
                .attr("x", "0")
                .attr("y", Short(z.y + 25.0).to_string())
                .attr("text-anchor", "middle")
                .text("ZooKeeper"),
        )
        .child(
            znode(50.0)
                .attr("data-set", z.controller_set.to_string())
                .text(z.controller.clone()),
        )
        .child(
            znode(72.0).text("/controller_epoch = ").child(
                Element::new("tspan")
                    .attr("class", "znode-epoch")
                    .text(z.controller_epoch.to_string()),
            ),
        )
        .child(znode(94.0).text(z.ids.clone()))
}

// Not inlined: the default page draws no producer, and the build leaves what its first view does
// not run to the module's second part.
#[inline(never)]
fn producer(p: &ProducerBox, compact: bool) -> Element {
    let links = p.links.iter().map(|l| {
        Element::new("path")
            .attr("class", "produce-link")
            .attr("d", l.d())
    });
    Element::new("g")
        .attr("class", "producer")
        .attr("data-producer", "true")
        .attr("role", "img")
        .attr("aria-label", p.aria.clone())
        .children(links)
        .child(
            Element::new("g")
                .attr("transform", translate(p.at))
                .child(
                    Element::new("rect")
                        .attr("x", f1(-p.w / 2.0))
                        .attr("y", f1(-p.h / 2.0))
                        .attr("width", f1(p.w))
                        .attr("height", f1(p.h))
                        .attr("rx", "10"),
                )
                .child(text(
                    "producer-title",
                    if compact { "-4" } else { "-3" },
                    p.title.clone(),
                ))
                .child(text(
                    "producer-sub",
                    if compact { "17" } else { "14" },
                    p.sub.clone(),
                )),
        )
}

fn status_badge(class: &str, at: String, r: &str, d: &str) -> Element {
    Element::new("g")
        .attr("class", classes([Some("status-badge"), Some(class)]))
        .attr("transform", at)
        .child(Element::new("circle").attr("r", r))
        .child(Element::new("path").attr("d", d))
}

/// `e` with a consumer's (or an "add" place's) focus ring and body, `w` by `h`.
fn with_box(e: Element, w: f64, h: f64) -> Element {
    e.child(
        Element::new("rect")
            .attr("class", "focus-ring")
            .attr("x", f1(-w / 2.0 - 6.0))
            .attr("y", f1(-h / 2.0 - 6.0))
            .attr("width", f1(w + 12.0))
            .attr("height", f1(h + 12.0))
            .attr("rx", "16"),
    )
    .child(
        Element::new("rect")
            .attr("class", "body")
            .attr("x", f1(-w / 2.0))
            .attr("y", f1(-h / 2.0))
            .attr("width", f1(w))
            .attr("height", f1(h))
            .attr("rx", "12"),
    )
}

// Not inlined: the default page draws no consumer until a learner adds one, and the build
// leaves what its first view does not run to the module's second part.
#[inline(never)]
fn consumer(c: &ConsumerNode, compact: bool) -> Element {
    let g = consumer_geo(compact);
    let pill = c.pill.as_ref().map(|p| {
        Element::new("g")
            .attr("class", "leader-badge")
            .child(
                Element::new("rect")
                    .attr("x", f1(-p.w / 2.0))
                    .attr("y", f1(p.y))
                    .attr("width", f1(p.w))
                    .attr("height", f1(g.pill_h))
                    .attr("rx", f1(g.pill_h / 2.0)),
            )
            .child(
                Element::new("path")
                    .attr("class", "crown")
                    .attr("d", CROWN)
                    .attr(
                        "transform",
                        format!(
                            "{} scale(0.55)",
                            translate(Pt {
                                x: -p.w / 2.0 + 16.0,
                                y: p.y + g.pill_h / 2.0 + 5.5
                            })
                        ),
                    ),
            )
            .child(
                Element::new("text")
                    .attr("x", "9")
                    .attr(
                        "y",
                        f1(p.y + g.pill_h / 2.0 + if compact { 6.0 } else { 4.5 }),
                    )
                    .attr("text-anchor", "middle")
                    .text(p.text.clone()),
            )
    });
    let node = Element::new("g")
        .attr("class", "cnode")
        .attr("data-member", c.member.clone())
        .attr("data-group", c.group.clone())
        .attr("data-state", c.state.name())
        .attr_opt("data-group-leader", c.leads.then_some("true"))
        .attr("data-generation", c.generation.to_string())
        .attr("role", "button")
        .attr("tabindex", "0")
        .attr("aria-label", c.aria.clone())
        .press(c.press.clone());
    let node = with_box(node, g.w, g.h)
        .child(stacked_label(
            (
                "node-caption",
                if compact { "-9" } else { "-7" },
                c.caption.clone(),
            ),
            (
                "consumer-name",
                if compact { "17" } else { "14" },
                c.member.clone(),
            ),
        ))
        .child_if(c.icon.map(|i| {
            status_badge(
                i.class,
                translate(Pt {
                    x: g.w / 2.0 - 4.0,
                    y: -g.h / 2.0 + 4.0,
                }),
                "10",
                i.d,
            )
        }));
    // The leader's pill beside the button, as a broker's crown (see `broker`).
    let marks = pill.map(|p| {
        Element::new("g")
            .attr("class", "cnode-marks")
            .attr("aria-hidden", "true")
            .press(c.press.clone())
            .child(p)
    });
    let chips = c.chips.iter().map(|chip| {
        Element::new("g")
            .attr("class", "chip-p")
            .attr("data-assigned", chip.text.clone())
            .attr(
                "transform",
                translate(Pt {
                    x: chip.x,
                    y: chip.y,
                }),
            )
            .child(
                Element::new("rect")
                    .attr("x", f1(-chip.w / 2.0))
                    .attr("y", "0")
                    .attr("width", f1(chip.w))
                    .attr("height", f1(g.chip_h))
                    .attr("rx", f1(g.chip_h / 2.0)),
            )
            .child(
                Element::new("text")
                    .attr("y", f1(g.chip_h / 2.0 + if compact { 5.5 } else { 4.2 }))
                    .attr("text-anchor", "middle")
                    .text(chip.text.clone()),
            )
    });
    let label = Element::new("g")
        .attr("class", "consumer-label")
        .attr("aria-hidden", "true")
        .child(text(
            "cstate",
            f1(g.h / 2.0 + g.state_dy),
            c.state_line.clone(),
        ))
        .child_if(
            c.member_id
                .as_ref()
                .map(|id| text("cid", f1(g.chips_top + g.chip_h * 0.7), id.clone())),
        )
        .children(chips)
        .children(c.wait_lines.iter().enumerate().map(|(i, line)| {
            let class = if i == 0 { "cwait strong" } else { "cwait" };
            text(
                class,
                f1(g.chips_top + g.chip_h * 0.7 + i as f64 * (g.chip_h + CHIP_GAP)),
                line.clone(),
            )
        }));
    Element::new("g")
        .attr(
            "class",
            classes([
                Some("consumer"),
                Some(&format!("cs-{}", c.look)),
                c.leads.then_some("is-leader"),
            ]),
        )
        .attr("transform", translate(c.at))
        // The node's tooltip, on the group: outside the button (see `broker`).
        .child(Element::new("title").text(c.title.clone()))
        .child(node)
        .child_opt(marks)
        .child(label)
}

fn add_place(a: &AddPlace, compact: bool) -> Element {
    let g = consumer_geo(compact);
    let place = Element::new("g")
        .attr("class", "add-consumer")
        .attr("transform", translate(a.at))
        .attr("data-testid", "graph-add-consumer")
        .attr("data-group", a.group.clone())
        .attr("role", "button")
        .attr("tabindex", "0")
        .attr("aria-label", a.label.clone())
        .press(a.press.clone());
    let place = with_box(place, g.w, g.h)
        .child(text(
            "add-text",
            if compact { "7" } else { "5" },
            a.text.clone(),
        ))
        .child_if(
            a.name_group
                .then(|| text("add-group", f1(g.h / 2.0 + g.state_dy), a.group.clone())),
        );
    // The tooltip on a wrapper, outside the button: a title inside it would count as the
    // button's visible text, which its accessible name must contain (WCAG 2.5.3).
    Element::new("g")
        .child(Element::new("title").text(a.label.clone()))
        .child(place)
}

fn flight(f: &FlightDot) -> Element {
    Element::new("g")
        .key(f.id.to_string())
        .attr(
            "class",
            classes([
                Some("flight"),
                Some(&format!("msg-{}", f.class)),
                f.dropped.then_some("dropped"),
                f.consumer.then_some("consumer-msg"),
            ]),
        )
        .attr("transform", translate(f.at))
        .attr("opacity", Fixed(f.opacity, 2).to_string())
        .child(Element::new("circle").attr("r", f.r))
        .child_opt(f.label.as_ref().map(|l| {
            let text = Element::new("text")
                .attr("class", "flight-label")
                .attr("x", if f.label_left { "-9" } else { "9" })
                .attr("y", "-8");
            if f.label_left {
                text.attr("text-anchor", "end")
            } else {
                text
            }
            .text(l.clone())
        }))
}

fn badge(b: &Badge, compact: bool) -> Element {
    let h = badge_h(compact);
    let label = Element::new("text")
        .attr("y", if compact { "6" } else { "4.3" })
        .attr("text-anchor", "middle")
        .text(b.name.clone())
        .child_if(b.epoch.as_ref().map(|e| {
            Element::new("tspan")
                .attr("class", "replica-epoch")
                .text(format!(" {e}"))
        }));
    Element::new("g")
        .attr(
            "class",
            classes([
                Some("replica"),
                Some(&format!("rs-{}", b.state.name())),
                b.named_leader.then_some("named-leader"),
            ]),
        )
        .attr("data-replica", b.key.clone())
        .attr("data-state", b.state.name())
        .attr("transform", translate(Pt { x: b.x, y: b.y }))
        .child(Element::new("title").text(b.title.clone()))
        .child(
            Element::new("rect")
                .attr("x", f1(-b.w / 2.0))
                .attr("y", f1(-h / 2.0))
                .attr("width", f1(b.w))
                .attr("height", f1(h))
                .attr("rx", f1(h / 2.0)),
        )
        .child(label)
}

fn broker(b: &BrokerNode, compact: bool) -> Element {
    let t = translate(b.at);
    let ring = b.ring.as_ref().map(|d| {
        Element::new("g")
            .attr("transform", t.clone())
            .attr("class", "session-ring")
            .attr("aria-hidden", "true")
            .child(
                Element::new("circle")
                    .attr("class", "ring-track")
                    .attr("r", Short(NODE_R + 7.0).to_string()),
            )
            .child(
                Element::new("path")
                    .attr("class", "ring-left")
                    .attr("d", d.clone()),
            )
    });
    let crown = b.crown.as_ref().map(|c| {
        Element::new("g")
            .attr("class", c.class)
            .child(
                Element::new("path")
                    .attr("class", "crown")
                    .attr("d", CROWN)
                    .attr(
                        "transform",
                        format!("translate(0,{})", Fixed(-NODE_R + 5.0, 1)),
                    ),
            )
            .child(
                Element::new("rect")
                    .attr("x", f1(-c.w / 2.0))
                    .attr("y", f1(-NODE_R - 48.0))
                    .attr("width", f1(c.w))
                    .attr("height", "22")
                    .attr("rx", "11"),
            )
            .child(
                Element::new("text")
                    .attr("y", f1(-NODE_R - 32.5))
                    .attr("text-anchor", "middle")
                    .text(c.label.clone()),
            )
    });
    let balance = (b.reach > 0.0).then(|| {
        [
            Element::new("rect")
                .attr("class", "balance")
                .attr("x", "-0.5")
                .attr("y", f1(-b.reach))
                .attr("width", "1")
                .attr("height", "1"),
            Element::new("g")
                .attr("class", "replicas")
                .children(b.badges.iter().map(|x| badge(x, compact))),
        ]
    });
    let node = Element::new("g")
        .attr(
            "class",
            classes([
                Some("node"),
                match b.role {
                    ControllerRole::Controller => Some("is-controller"),
                    ControllerRole::Zombie => Some("is-zombie"),
                    ControllerRole::Named | ControllerRole::None => None,
                },
            ]),
        )
        .attr("transform", t.clone())
        .attr("data-broker", b.id.to_string())
        .attr("data-state", b.state.name())
        .attr_opt(
            "data-controller",
            (b.role == ControllerRole::Controller).then_some("true"),
        )
        .attr_opt(
            "data-zombie",
            (b.role == ControllerRole::Zombie).then_some("true"),
        )
        .attr("role", "button")
        .attr("tabindex", "0")
        .attr("aria-label", b.aria.clone())
        .press(b.press.clone())
        .child(
            Element::new("circle")
                .attr("class", "focus-ring")
                .attr("r", Short(NODE_R + 13.0).to_string()),
        )
        .child(
            Element::new("circle")
                .attr("class", "body")
                .attr("r", Short(NODE_R).to_string()),
        )
        .child(stacked_label(
            ("node-caption", "-11", b.caption.clone()),
            ("node-id", "17", b.id.to_string()),
        ))
        .child_opt(
            b.status
                .map(|s| status_badge(s.class, "translate(27,27)".into(), "11", s.d)),
        );
    // The crown and the replica badges, drawn on the node but outside the button: their texts
    // and tooltips would count as the button's visible text, which its accessible name must
    // contain (WCAG 2.5.3). The name already says all they show. A click on them is a click on
    // the node, as before.
    let marks = Element::new("g")
        .attr("class", "node-marks")
        .attr("transform", t.clone())
        .attr("aria-hidden", "true")
        .press(b.press.clone())
        .child_opt(crown)
        .children(balance.into_iter().flatten());
    let labels = Element::new("g")
        .attr("class", "node-label")
        .attr("transform", t)
        .press(b.label_press.clone())
        .children(
            b.labels
                .iter()
                .map(|l| text(l.class, f1(l.y), l.text.clone())),
        );
    let more_label = b.more_label.clone();
    let more = Element::new("g")
        .attr("class", "more")
        .attr("transform", translate(b.more_at))
        .attr("role", "button")
        .attr("tabindex", "0")
        .attr("aria-label", more_label.clone())
        .attr("aria-pressed", b.selected.to_string())
        .press(b.more_press.clone())
        .child(Element::new("title").text(more_label))
        // A touch target of 44 px or more (while the graph is drawn at 0.55 of its size or
        // more), transparent, reaching outwards from the node rather than over it.
        .child(
            Element::new("circle")
                .attr("class", "hit")
                .attr("cx", "10")
                .attr("cy", "-10")
                .attr("r", "40"),
        )
        .child(Element::new("circle").attr("r", "11"))
        .child(
            Element::new("text")
                .attr("y", "4.5")
                .attr("text-anchor", "middle")
                .text("⋯"),
        );
    Element::new("g")
        .attr(
            "class",
            classes([
                Some("broker"),
                Some(&format!("state-{}", b.state.name())),
                b.selected.then_some("selected"),
            ]),
        )
        // The node's tooltip, on the group: outside the button, for the reason above.
        .child(Element::new("title").text(b.title.clone()))
        .child_if(ring)
        .child(node)
        .child(marks)
        .child(labels)
        .child(more)
}

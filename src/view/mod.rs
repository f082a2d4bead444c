//! What the page shows, as plain Rust data computed from the core's views: it compiles and
//! is tested natively, and the Yew page (`ui`, wasm32 only) only renders it and turns
//! presses into commands. No Kafka rule lives here either: the world decides.
//!
//! - [`format`](mod@format): wording shared by the page's parts (states, countdowns,
//!   accessible names);
//! - [`flights`]: which of the world's messages are drawn in flight, and when;
//! - [`geometry`] and [`layout`]: where the graph puts ZooKeeper, the brokers, the producer
//!   and the consumers, and the ways between them;
//! - [`graph`]: the cluster graph's shapes for one frame; [`svg`]: their markup, as the
//!   [`markup`] tree the page renders or as an SVG string;
//! - [`embed`]: embedding the page elsewhere (the API's options, parent origins and
//!   messages);
//! - [`setup`]: free play's world; [`frame`]: the default page's first frame, natively.

pub mod embed;
pub mod flights;
pub mod format;
pub mod frame;
pub mod geometry;
pub mod graph;
pub mod layout;
pub mod markup;
pub mod setup;
pub mod svg;

#[cfg(test)]
mod embed_test;
#[cfg(test)]
mod format_test;
#[cfg(test)]
mod frame_test;
#[cfg(test)]
mod layout_test;

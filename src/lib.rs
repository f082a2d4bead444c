//! Kafka Election Playground: a deterministic simulation of Apache Kafka's leader elections,
//! with a command line (`kafka-election`) and a browser playground (Yew, WebAssembly).
//!
//! - [`sim`]: the election core, pure and deterministic.
//! - [`scenario`]: scenario files (version 1): parsing, running, checking.
//! - [`view`]: what the page shows, as plain data (layout, wording, the graph's shapes).
//! - `ui` (wasm32 only): the Yew page, which renders [`view`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod scenario;
pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

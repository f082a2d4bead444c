//! What the fuzzers (fuzz/, `cargo +nightly fuzz run TARGET`) feed each reader of untrusted
//! input, shared with the regression test (tests/fuzz_regressions.rs) so that a saved input is
//! replayed exactly as the fuzzer ran it. Each function takes raw bytes, as the fuzzer gives
//! them, reads them as UTF-8 (other bytes are not text any reader is handed) and returns
//! whether the reader accepted them; a panic is the failure both look for.

use kafka_election_playground::scenario;
use kafka_election_playground::session::{codec, Session, Start};
use kafka_election_playground::view::setup::FreePlay;

/// The largest lesson loaded: a lesson runs its scenario, and a bigger file reaches nothing
/// a smaller one cannot, only slows the fuzzer.
pub const MAX_LESSON_BYTES: usize = 64 * 1024;

/// The most commands of a link that is also replayed (the decoder sees every link).
pub const MAX_REPLAYED: usize = 64;

/// The latest end of a link that is also replayed (ten minutes of virtual time): a link may
/// ask for up to a day, whose replay takes tens of seconds, which would only slow the fuzzer.
pub const MAX_REPLAYED_MS: u64 = 600_000;

/// The scenario parser.
pub fn scenario(data: &[u8]) -> bool {
    std::str::from_utf8(data).is_ok_and(|text| scenario::parse(text).is_ok())
}

/// A lesson's loading: parsing, then the run that resolves its questions. The run is bounded
/// by the parsers' own limits (times of at most one day, at most 64 brokers, 256 partitions).
pub fn lesson(data: &[u8]) -> bool {
    data.len() <= MAX_LESSON_BYTES
        && std::str::from_utf8(data)
            .is_ok_and(|text| kafka_election_playground::lesson::load(text).is_ok())
}

/// The share-link decoder, then the replay of what it decoded, as the page opens a link: the
/// start it names (an imported scenario file, or free play with the default cluster) with the
/// link's commands. Returns whether the link was read and its session reopened (a link past
/// [`MAX_REPLAYED`] or [`MAX_REPLAYED_MS`]: whether it was read).
pub fn link(data: &[u8]) -> bool {
    let Ok(fragment) = std::str::from_utf8(data) else {
        return false;
    };
    let Ok(link) = codec::decode(fragment) else {
        return false;
    };
    let _ = link.model_note();
    if link.commands.len() > MAX_REPLAYED || link.end_ms > MAX_REPLAYED_MS {
        return true;
    }
    let start = match link.base.iter().find(|(k, _)| k == "file") {
        Some((_, code)) => {
            let Ok(bytes) = codec::from_base64url(code) else {
                return false;
            };
            let Ok(text) = String::from_utf8(bytes) else {
                return false;
            };
            let Ok(sc) = scenario::parse(&text) else {
                return false;
            };
            Start::from_scenario(link.base.clone(), &sc, &text)
        }
        None => FreePlay::default().start().0,
    };
    match Session::replay(start, link.commands, link.now_ms, link.end_ms) {
        Ok(s) => {
            // The reopened session's own link reads back.
            codec::decode(&s.link()).is_ok()
        }
        Err(_) => false,
    }
}

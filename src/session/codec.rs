//! A session in a page address's fragment, and back.
//!
//! `#v=1&m=1&brokers=5&t=64000&c=12000c2;30500s2;41000Porders,1,,all,10,`
//!
//! - `v`: the format of the fragment ([`FORMAT_VERSION`]); `m`: the model's version
//!   ([`MODEL_VERSION`]) that made it;
//! - the page parameters that rebuild the session's start (`story=…`, free play's `seed=…`,
//!   `brokers=…`, …, or `file=…`, an imported scenario file in base64url);
//! - `t`: the time shown; `e`: the session's end, when it lies after `t`;
//! - `c`: the learner's commands, `;`-separated, each its virtual time in milliseconds, one
//!   letter for the command and its arguments separated by `,` (an absent optional argument
//!   is empty). A string is written with every byte other than `A–Z a–z 0–9 . _ ~ -` as `%XX`.
//!
//! | letter | command | arguments |
//! |---|---|---|
//! | `s` `c` `d` `x` | start, crash, shut down, expire the session of a broker | broker |
//! | `p` | pause a broker | broker, ms |
//! | `k` `h` | cut, heal a link | end, end (`z` ZooKeeper, or a broker id) |
//! | `P` | produce | topic, partition, records, acks, rate per s, for ms |
//! | `S` | stop producing | topic, partition |
//! | `F` `R` | stall, resume a broker's fetchers | broker, topic, partition |
//! | `C` | change a setting | key, value (JSON), topic |
//! | `E` | preferred election | topic, partition |
//! | `A` | reassign | topic, partition, replicas (`1-2-3`) |
//! | `J` `L` `X` | a consumer joins, leaves, crashes | group, member |
//! | `D` | delete `/controller` | |

use super::MODEL_VERSION;
use crate::scenario::MAX_TIME_MS;
use crate::sim::{Acks, BrokerId, Command, Endpoint};
use std::fmt::Write as _;

/// The fragment's format.
pub const FORMAT_VERSION: u32 = 1;

/// The most commands a link may carry.
pub const MAX_COMMANDS: usize = 10_000;

/// The longest fragment read (characters): a longer one is refused before it is parsed.
pub const MAX_LINK_CHARS: usize = 2_000_000;

/// A session read from a link.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The model version that made it.
    pub model: u32,
    /// The page parameters that rebuild the start.
    pub base: Vec<(String, String)>,
    /// The time shown.
    pub now_ms: u64,
    /// The session's end (at least `now_ms`).
    pub end_ms: u64,
    /// The learner's commands with their times.
    pub commands: Vec<(u64, Command)>,
}

impl Link {
    /// A note for the page when the link was made by another version of the model, else
    /// `None`.
    pub fn model_note(&self) -> Option<String> {
        (self.model != MODEL_VERSION).then(|| {
            format!(
                "this link was made by {} version of the model (version {}, this page runs version {MODEL_VERSION}): it replays under today's rules, so what happens may differ from what its author saw",
                if self.model < MODEL_VERSION { "an older" } else { "a newer" },
                self.model
            )
        })
    }
}

/// Whether a fragment (without its `#`) carries a session: it starts with `v=`.
pub fn is_session(fragment: &str) -> bool {
    fragment.starts_with("v=")
}

/// Writes a session's fragment (without the `#`).
pub fn encode(
    base: &[(String, String)],
    now_ms: u64,
    end_ms: u64,
    commands: &[(u64, Command)],
) -> String {
    let mut out = format!("v={FORMAT_VERSION}&m={MODEL_VERSION}");
    for (k, v) in base {
        let _ = write!(out, "&{}={}", escape(k), escape(v));
    }
    let _ = write!(out, "&t={now_ms}");
    if end_ms > now_ms {
        let _ = write!(out, "&e={end_ms}");
    }
    if !commands.is_empty() {
        out.push_str("&c=");
        for (i, (at, cmd)) in commands.iter().enumerate() {
            if i > 0 {
                out.push(';');
            }
            let _ = write!(out, "{at}");
            encode_command(&mut out, cmd);
        }
    }
    out
}

fn encode_command(out: &mut String, cmd: &Command) {
    let opt = |v: &Option<u32>| v.map(|x| x.to_string()).unwrap_or_default();
    let opt64 = |v: &Option<u64>| v.map(|x| x.to_string()).unwrap_or_default();
    let opts = |v: &Option<String>| v.as_deref().map(escape).unwrap_or_default();
    let end = |e: &Endpoint| match e {
        Endpoint::Zk => "z".to_string(),
        Endpoint::Broker(b) => b.to_string(),
        Endpoint::Client => "producer".to_string(),
        Endpoint::Consumer(c) => format!("consumer{c}"),
    };
    let s = match cmd {
        Command::Start(b) => format!("s{b}"),
        Command::Crash(b) => format!("c{b}"),
        Command::Shutdown(b) => format!("d{b}"),
        Command::ExpireSession(b) => format!("x{b}"),
        Command::Pause { broker, for_ms } => format!("p{broker},{for_ms}"),
        Command::Cut(a, b) => format!("k{},{}", end(a), end(b)),
        Command::Heal(a, b) => format!("h{},{}", end(a), end(b)),
        Command::Produce {
            topic,
            partition,
            records,
            acks,
            rate_per_s,
            for_ms,
        } => format!(
            "P{},{partition},{},{},{},{}",
            escape(topic),
            opt64(records),
            acks.name(),
            opt64(rate_per_s),
            opt64(for_ms)
        ),
        Command::StopProducing { topic, partition } => format!("S{},{partition}", escape(topic)),
        Command::StallFetcher {
            broker,
            topic,
            partition,
        } => format!("F{broker},{},{}", opts(topic), opt(partition)),
        Command::ResumeFetcher {
            broker,
            topic,
            partition,
        } => format!("R{broker},{},{}", opts(topic), opt(partition)),
        Command::SetConfig { key, value, topic } => format!(
            "C{},{},{}",
            escape(key),
            escape(&value.to_string()),
            opts(topic)
        ),
        Command::PreferredElection { topic, partition } => {
            format!("E{},{}", opts(topic), opt(partition))
        }
        Command::Reassign {
            topic,
            partition,
            replicas,
        } => format!(
            "A{},{partition},{}",
            escape(topic),
            replicas
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join("-")
        ),
        Command::Join { group, member } => format!("J{},{}", escape(group), escape(member)),
        Command::Leave { group, member } => format!("L{},{}", escape(group), escape(member)),
        Command::CrashConsumer { group, member } => {
            format!("X{},{}", escape(group), escape(member))
        }
        Command::DeleteController => "D".to_string(),
    };
    out.push_str(&s);
}

/// Reads a session's fragment (without the `#`). Every problem is one message naming the
/// part of the link at fault; nothing is half read.
pub fn decode(fragment: &str) -> Result<Link, String> {
    if fragment.len() > MAX_LINK_CHARS {
        return Err(format!(
            "the link is {} characters long; a session link is at most {MAX_LINK_CHARS}",
            fragment.len()
        ));
    }
    let mut version = None;
    let mut model = None;
    let mut now = None;
    let mut end = None;
    let mut commands = Vec::new();
    let mut base = Vec::new();
    for part in fragment.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let key = unescape(k).map_err(|e| format!("the link's part \"{k}\": {e}"))?;
        let number = |what: &str| -> Result<u64, String> {
            v.parse::<u64>().map_err(|_| {
                format!("the link's {what} (\"{key}\") is not a whole number: \"{v}\"")
            })
        };
        match key.as_str() {
            "v" => version = Some(number("format version")?),
            "m" => model = Some(number("model version")?),
            "t" => now = Some(time(number("time shown")?, "time shown (t)")?),
            "e" => end = Some(time(number("end")?, "end (e)")?),
            "c" => commands = decode_commands(v)?,
            _ => {
                let value =
                    unescape(v).map_err(|e| format!("the link's parameter \"{key}\": {e}"))?;
                base.push((key, value));
            }
        }
    }
    match version {
        None => return Err("the link carries no session (it has no format version v=)".into()),
        Some(v) if v != FORMAT_VERSION as u64 => {
            return Err(format!(
                "the link's session is written in format {v}, and this page reads format {FORMAT_VERSION}: open it with the page that made it"
            ))
        }
        _ => {}
    }
    let model = model.ok_or("the link names no model version (m=)")?;
    let model =
        u32::try_from(model).map_err(|_| format!("the link's model version {model} is not one"))?;
    let now_ms = now.ok_or("the link names no time (t=)")?;
    let last = commands.last().map_or(0, |(t, _)| *t);
    let end_ms = end.unwrap_or(now_ms).max(now_ms).max(last);
    Ok(Link {
        model,
        base,
        now_ms,
        end_ms,
        commands,
    })
}

fn time(ms: u64, what: &str) -> Result<u64, String> {
    if ms > MAX_TIME_MS {
        Err(format!(
            "the link's {what} {ms} ms is past the longest session ({MAX_TIME_MS} ms, one day)"
        ))
    } else {
        Ok(ms)
    }
}

fn decode_commands(text: &str) -> Result<Vec<(u64, Command)>, String> {
    let tokens: Vec<&str> = text.split(';').filter(|t| !t.is_empty()).collect();
    if tokens.len() > MAX_COMMANDS {
        return Err(format!(
            "the link carries {} commands; a session link carries at most {MAX_COMMANDS}",
            tokens.len()
        ));
    }
    let mut out: Vec<(u64, Command)> = Vec::with_capacity(tokens.len());
    for (i, tok) in tokens.iter().enumerate() {
        let place = format!("the link's command {} (\"{}\")", i + 1, shorten(tok));
        let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
        let at: u64 = tok[..digits]
            .parse()
            .map_err(|_| format!("{place}: it does not start with its time in ms"))?;
        let at = time(at, "command time").map_err(|e| format!("{place}: {e}"))?;
        if let Some((prev, _)) = out.last() {
            if at < *prev {
                return Err(format!(
                    "{place}: its time {at} ms is before the previous command's {prev} ms"
                ));
            }
        }
        let cmd = decode_command(&tok[digits..]).map_err(|e| format!("{place}: {e}"))?;
        out.push((at, cmd));
    }
    Ok(out)
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

fn decode_command(s: &str) -> Result<Command, String> {
    let mut chars = s.chars();
    let letter = chars.next().ok_or("no command after the time")?;
    let rest = chars.as_str();
    let args: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else {
        rest.split(',').collect()
    };
    let want = |n: usize| -> Result<(), String> {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "\"{letter}\" takes {n} argument(s), not {}",
                args.len()
            ))
        }
    };
    let broker = |s: &str| -> Result<BrokerId, String> {
        s.parse().map_err(|_| format!("\"{s}\" is not a broker id"))
    };
    let num = |s: &str, what: &str| -> Result<u64, String> {
        s.parse()
            .map_err(|_| format!("{what} \"{s}\" is not a whole number"))
    };
    let opt_num = |s: &str, what: &str| -> Result<Option<u64>, String> {
        if s.is_empty() {
            Ok(None)
        } else {
            num(s, what).map(Some)
        }
    };
    let part = |s: &str| -> Result<u32, String> {
        s.parse()
            .map_err(|_| format!("partition \"{s}\" is not a partition number"))
    };
    let opt_part = |s: &str| -> Result<Option<u32>, String> {
        if s.is_empty() {
            Ok(None)
        } else {
            part(s).map(Some)
        }
    };
    let text = |s: &str| unescape(s);
    let opt_text = |s: &str| -> Result<Option<String>, String> {
        if s.is_empty() {
            Ok(None)
        } else {
            unescape(s).map(Some)
        }
    };
    let end = |s: &str| -> Result<Endpoint, String> {
        match s {
            "z" => Ok(Endpoint::Zk),
            _ => broker(s)
                .map(Endpoint::Broker)
                .map_err(|_| format!("\"{s}\" is not a link end: z (ZooKeeper) or a broker id")),
        }
    };
    Ok(match letter {
        's' | 'c' | 'd' | 'x' => {
            want(1)?;
            let b = broker(args[0])?;
            match letter {
                's' => Command::Start(b),
                'c' => Command::Crash(b),
                'd' => Command::Shutdown(b),
                _ => Command::ExpireSession(b),
            }
        }
        'p' => {
            want(2)?;
            Command::Pause {
                broker: broker(args[0])?,
                for_ms: num(args[1], "the pause")?,
            }
        }
        'k' | 'h' => {
            want(2)?;
            let (a, b) = (end(args[0])?, end(args[1])?);
            if letter == 'k' {
                Command::Cut(a, b)
            } else {
                Command::Heal(a, b)
            }
        }
        'P' => {
            want(6)?;
            Command::Produce {
                topic: text(args[0])?,
                partition: part(args[1])?,
                records: opt_num(args[2], "records")?,
                acks: Acks::parse(args[3])?,
                rate_per_s: opt_num(args[4], "the rate")?,
                for_ms: opt_num(args[5], "for_ms")?,
            }
        }
        'S' => {
            want(2)?;
            Command::StopProducing {
                topic: text(args[0])?,
                partition: part(args[1])?,
            }
        }
        'F' | 'R' => {
            want(3)?;
            let (broker, topic, partition) =
                (broker(args[0])?, opt_text(args[1])?, opt_part(args[2])?);
            if letter == 'F' {
                Command::StallFetcher {
                    broker,
                    topic,
                    partition,
                }
            } else {
                Command::ResumeFetcher {
                    broker,
                    topic,
                    partition,
                }
            }
        }
        'C' => {
            want(3)?;
            let raw = text(args[1])?;
            let value = serde_json::from_str(&raw)
                .map_err(|_| format!("the setting's value \"{raw}\" is not a JSON value"))?;
            Command::SetConfig {
                key: text(args[0])?,
                value,
                topic: opt_text(args[2])?,
            }
        }
        'E' => {
            want(2)?;
            Command::PreferredElection {
                topic: opt_text(args[0])?,
                partition: opt_part(args[1])?,
            }
        }
        'A' => {
            want(3)?;
            let replicas = args[2]
                .split('-')
                .filter(|r| !r.is_empty())
                .map(broker)
                .collect::<Result<Vec<_>, _>>()?;
            Command::Reassign {
                topic: text(args[0])?,
                partition: part(args[1])?,
                replicas,
            }
        }
        'J' | 'L' | 'X' => {
            want(2)?;
            let (group, member) = (text(args[0])?, text(args[1])?);
            match letter {
                'J' => Command::Join { group, member },
                'L' => Command::Leave { group, member },
                _ => Command::CrashConsumer { group, member },
            }
        }
        'D' => {
            want(0)?;
            Command::DeleteController
        }
        other => return Err(format!("\"{other}\" is not a command letter")),
    })
}

/// `s` with every byte other than `A–Z a–z 0–9 . _ ~ -` written `%XX`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'~' | b'-') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The inverse of [`escape`] (any `%XX` is read; `+` stays a plus).
pub fn unescape(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or("a % is not followed by two hexadecimal digits")?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "it is not UTF-8 text once decoded".to_string())
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in base64url without padding (an imported scenario file rides in a link so).
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (*b as u32) << (16 - 8 * i));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The inverse of [`base64url`] (padding tolerated).
pub fn from_base64url(s: &str) -> Result<Vec<u8>, String> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let digits: Vec<u32> = s
        .bytes()
        .map(|c| {
            B64.iter()
                .position(|b| *b == c)
                .map(|p| p as u32)
                .ok_or_else(|| format!("\"{}\" is not a base64url character", c as char))
        })
        .collect::<Result<_, _>>()?;
    for chunk in digits.chunks(4) {
        if chunk.len() == 1 {
            return Err("base64url text cannot end with a single character".into());
        }
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | d << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok(out)
}

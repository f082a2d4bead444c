//! A small JSON reader (RFC 8259) for the znode data the core reads, and the one string
//! escape its writers need.
//!
//! Kafka reads and writes its znodes' JSON with Jackson (`kafka.utils.Json`). The model's
//! readers give exactly the verdicts serde_json gives (the property tests compare them on
//! random and broken texts), without running serde_json's machinery:
//!
//! - [`parse`] takes any JSON text; what serde_json's typed reader passes over (the value of
//!   an unknown field) is checked as serde_json checks it there: nesting of any depth, a
//!   string whose escapes leave a lone UTF-16 surrogate, any number.
//! - [`parse_value`] takes what `serde_json::from_str::<serde_json::Value>` takes: nesting
//!   under 128 levels, no lone surrogate, and no number that serde_json's float reading
//!   sends to infinity.
//! - Numbers stay the text they were; [`Json::u64`], [`Json::i64`] and [`Json::u32`] read an
//!   integer where a field needs one, with serde_json's rules (`-0`, `1.0` and `1e2` are not
//!   integers).
//! - [`Json::fields`] reads a struct as serde's derive reads it from serde_json.

/// Containers nested this deep or deeper are checked, not kept: serde_json's `Value` refuses
/// them (its recursion limit of 128), and the typed readers pass over them.
const MAX_DEPTH: usize = 128;

/// A JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its source text (valid JSON number syntax).
    Num(&'a str),
    /// A string, `None` when an escape left a lone UTF-16 surrogate (valid JSON that no Rust
    /// string holds).
    Str(Option<String>),
    /// An array.
    Arr(Vec<Json<'a>>),
    /// An object's members in text order (a name may come twice); a name is `None` as a
    /// string is.
    Obj(Vec<(Option<String>, Json<'a>)>),
    /// An array or object nested [`MAX_DEPTH`] deep or deeper: valid, not kept.
    Deep,
}

/// A container being read.
enum Frame<'a> {
    Arr(Vec<Json<'a>>),
    /// The members so far and the name of the member being read.
    Obj(Vec<(Option<String>, Json<'a>)>, Option<String>),
    /// A container too deep to keep: its opening bracket.
    Skip(u8),
}

impl<'a> Frame<'a> {
    fn open(&self) -> u8 {
        match self {
            Frame::Arr(_) => b'[',
            Frame::Obj(..) => b'{',
            Frame::Skip(b) => *b,
        }
    }

    fn push(&mut self, v: Json<'a>) {
        match self {
            Frame::Arr(items) => items.push(v),
            Frame::Obj(members, name) => members.push((name.take(), v)),
            Frame::Skip(_) => {}
        }
    }

    fn close(self) -> Json<'a> {
        match self {
            Frame::Arr(items) => Json::Arr(items),
            Frame::Obj(members, _) => Json::Obj(members),
            Frame::Skip(_) => Json::Deep,
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    i: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - start
    }

    fn literal(&mut self, word: &str, v: Json<'a>) -> Option<Json<'a>> {
        let end = self.i + word.len();
        (self.text.get(self.i..end)? == word).then(|| {
            self.i = end;
            v
        })
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Option<Json<'a>> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        self.text.get(start..self.i).map(Json::Num)
    }

    fn hex4(&mut self) -> Option<u32> {
        let hex = self.text.get(self.i..self.i + 4)?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(hex, 16).ok()
    }

    /// A string after its opening quote: `Some(None)` if it holds a lone surrogate.
    fn string(&mut self) -> Option<Option<String>> {
        let mut out = String::new();
        let mut lone = false;
        // A leading surrogate waiting for its trailing one.
        let mut high: Option<u32> = None;
        loop {
            let start = self.i;
            while self
                .peek()
                .is_some_and(|b| b >= 0x20 && b != b'"' && b != b'\\')
            {
                self.i += 1;
            }
            if self.i > start {
                lone |= high.take().is_some();
                out.push_str(self.text.get(start..self.i)?);
            }
            let c = match self.next()? {
                b'"' => {
                    lone |= high.is_some();
                    return Some((!lone).then_some(out));
                }
                b'\\' => match self.next()? {
                    b'u' => {
                        let u = self.hex4()?;
                        if let Some(h) = high.take() {
                            if (0xDC00..=0xDFFF).contains(&u) {
                                out.push(char::from_u32(
                                    0x1_0000 + ((h - 0xD800) << 10) + (u - 0xDC00),
                                )?);
                                continue;
                            }
                            lone = true;
                        }
                        match u {
                            0xD800..=0xDBFF => high = Some(u),
                            0xDC00..=0xDFFF => lone = true,
                            _ => out.push(char::from_u32(u)?),
                        }
                        continue;
                    }
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    _ => return None,
                },
                // A control character.
                _ => return None,
            };
            lone |= high.take().is_some();
            out.push(c);
        }
    }

    /// `"name" :` of an object's member.
    fn name(&mut self) -> Option<Option<String>> {
        self.skip_ws();
        if self.next()? != b'"' {
            return None;
        }
        let name = self.string()?;
        self.skip_ws();
        (self.next()? == b':').then_some(name)
    }
}

/// Reads a JSON text: one value, whitespace around it and nothing else. `None` if it is not
/// JSON.
pub(crate) fn parse(text: &str) -> Option<Json<'_>> {
    let mut r = Reader { text, i: 0 };
    // The containers open around the value being read, outermost first.
    let mut open: Vec<Frame<'_>> = Vec::new();
    'value: loop {
        r.skip_ws();
        let mut v = match r.peek()? {
            b @ (b'[' | b'{') => {
                r.i += 1;
                let mut frame = if open.len() + 1 >= MAX_DEPTH {
                    Frame::Skip(b)
                } else if b == b'[' {
                    Frame::Arr(Vec::new())
                } else {
                    Frame::Obj(Vec::new(), None)
                };
                r.skip_ws();
                if r.peek() == Some(b + 2) {
                    // `[]` or `{}` (`]` and `}` follow `[` and `{` by two in ASCII).
                    r.i += 1;
                    frame.close()
                } else {
                    if b == b'{' {
                        let name = r.name()?;
                        if let Frame::Obj(_, pending) = &mut frame {
                            *pending = name;
                        }
                    }
                    open.push(frame);
                    continue 'value;
                }
            }
            b'"' => {
                r.i += 1;
                Json::Str(r.string()?)
            }
            b'n' => r.literal("null", Json::Null)?,
            b't' => r.literal("true", Json::Bool(true))?,
            b'f' => r.literal("false", Json::Bool(false))?,
            _ => r.number()?,
        };
        // `v` is complete: it goes into the container around it, which ends or goes on.
        loop {
            let Some(frame) = open.last_mut() else {
                r.skip_ws();
                return (r.i == text.len()).then_some(v);
            };
            frame.push(v);
            r.skip_ws();
            let b = r.next()?;
            if b == b',' {
                if frame.open() == b'{' {
                    let name = r.name()?;
                    if let Frame::Obj(_, pending) = frame {
                        *pending = name;
                    }
                }
                continue 'value;
            }
            if b != frame.open() + 2 {
                return None;
            }
            v = open.pop()?.close();
        }
    }
}

/// Reads a JSON text as `serde_json::from_str::<serde_json::Value>` reads it: `None` where
/// serde_json refuses it (see the module doc).
pub(crate) fn parse_value(text: &str) -> Option<Json<'_>> {
    let v = parse(text)?;
    v.is_serde_value().then_some(v)
}

/// An integer as serde_json reads a number: `U` for one without sign, fraction or exponent
/// that fits a `u64`; `I` for such a negative one from -1 down to `i64::MIN`; anything else
/// (`-0` included) is a float to serde_json.
enum Int {
    U(u64),
    I(i64),
}

fn int(text: &str) -> Option<Int> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    if !negative {
        Some(Int::U(n))
    } else if n == 0 || n > 1 << 63 {
        None
    } else {
        Some(Int::I((n as i64).wrapping_neg()))
    }
}

/// Whether serde_json (without its `float_roundtrip` feature) reads the number `text` to a
/// finite value: its `parse_integer`, `parse_long_integer`, `parse_decimal` (with
/// `parse_decimal_overflow`), `parse_exponent` (with `parse_exponent_overflow`) and
/// `f64_from_parts`, which fails where `significand as f64 * 10^exponent` is infinite.
#[cold]
#[inline(never)]
fn finite_to_serde(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digit = |i: usize| {
        b.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| u64::from(c - b'0'))
    };
    // `significand * 10 + d` would pass u64::MAX.
    let overflows = |s: u64, d: u64| s >= u64::MAX / 10 && (s > u64::MAX / 10 || d > u64::MAX % 10);
    let mut significand: u64 = 0;
    let mut exponent: i32 = 0;
    let mut full = false;
    while let Some(d) = digit(i) {
        if full || overflows(significand, d) {
            // The digits past a full significand only count.
            full = true;
            exponent = exponent.wrapping_add(1);
        } else {
            significand = significand * 10 + d;
        }
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let mut full = false;
        while let Some(d) = digit(i) {
            if full || overflows(significand, d) {
                full = true;
            } else {
                significand = significand * 10 + d;
                exponent = exponent.wrapping_sub(1);
            }
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let positive = b.get(i) != Some(&b'-');
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let mut e: i32 = 0;
        while let Some(d) = digit(i) {
            let d = d as i32;
            if e >= i32::MAX / 10 && (e > i32::MAX / 10 || d > i32::MAX % 10) {
                // parse_exponent_overflow: infinity unless the number is 0 or tiny.
                return significand == 0 || !positive;
            }
            e = e * 10 + d;
            i += 1;
        }
        exponent = if positive {
            exponent.saturating_add(e)
        } else {
            exponent.saturating_sub(e)
        };
    }
    // f64_from_parts. A negative exponent divides; below 10^289 even u64::MAX stays finite.
    if significand == 0 || exponent < 289 {
        return true;
    }
    // serde_json's `POW10[289..=308]`; past 10^308 it gives up.
    const POW10: [f64; 20] = [
        1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301,
        1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
    ];
    POW10
        .get(exponent as usize - 289)
        .is_some_and(|p| (significand as f64 * p).is_finite())
}

impl<'a> Json<'a> {
    /// Whether serde_json's `Value` takes this value (see the module doc).
    fn is_serde_value(&self) -> bool {
        match self {
            Json::Null | Json::Bool(_) => true,
            Json::Num(t) => int(t).is_some() || finite_to_serde(t),
            Json::Str(s) => s.is_some(),
            Json::Arr(items) => items.iter().all(Json::is_serde_value),
            Json::Obj(members) => members
                .iter()
                .all(|(k, v)| k.is_some() && v.is_serde_value()),
            Json::Deep => false,
        }
    }

    /// A `u64` field: a number serde_json reads as a non-negative integer.
    pub(crate) fn u64(&self) -> Option<u64> {
        match self {
            Json::Num(t) => match int(t)? {
                Int::U(n) => Some(n),
                Int::I(_) => None,
            },
            _ => None,
        }
    }

    /// A `u32` field.
    pub(crate) fn u32(&self) -> Option<u32> {
        self.u64().and_then(|n| u32::try_from(n).ok())
    }

    /// An `i64` field.
    pub(crate) fn i64(&self) -> Option<i64> {
        match self {
            Json::Num(t) => match int(t)? {
                Int::U(n) => i64::try_from(n).ok(),
                Int::I(n) => Some(n),
            },
            _ => None,
        }
    }

    /// The string, if this is one (without lone surrogates).
    pub(crate) fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => s.as_deref(),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub(crate) fn array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Arr(items) => Some(items),
            _ => None,
        }
    }

    /// The member `name` of an object, the last of that name (as serde_json's `Value`, whose
    /// map keeps the last).
    pub(crate) fn get(&self, name: &str) -> Option<&Json<'a>> {
        match self {
            Json::Obj(members) => members
                .iter()
                .rev()
                .find(|(k, _)| k.as_deref() == Some(name))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A `Vec<T>` field: an array whose every item `item` reads.
    pub(crate) fn list<T>(&self, item: impl Fn(&Json<'a>) -> Option<T>) -> Option<Vec<T>> {
        self.array()?.iter().map(item).collect()
    }

    /// A map field with string keys: an object whose every value `value` reads, its entries in
    /// text order (the caller's map decides what an equal key does).
    pub(crate) fn map<T>(
        &self,
        value: impl Fn(&Json<'a>) -> Option<T>,
    ) -> Option<Vec<(String, T)>> {
        match self {
            Json::Obj(members) => members
                .iter()
                .map(|(k, v)| Some((k.clone()?, value(v)?)))
                .collect(),
            _ => None,
        }
    }

    /// The fields of a struct named `names`, as serde's derive reads the struct from serde_json:
    /// from an object by name (a name it does not know is passed over, a known name twice is
    /// refused, and every member's name must be a string without lone surrogates), or from an
    /// array in field order (no item more than there are fields). The first `required` fields
    /// must be there; the others are `#[serde(default)]` ones and may be missing.
    pub(crate) fn fields<const N: usize>(
        &self,
        names: [&str; N],
        required: usize,
    ) -> Option<[Option<&Json<'a>>; N]> {
        let mut found: [Option<&Json<'a>>; N] = [None; N];
        match self {
            Json::Obj(members) => {
                for (k, v) in members {
                    let k = k.as_deref()?;
                    if let Some(i) = names.iter().position(|n| *n == k) {
                        if found[i].replace(v).is_some() {
                            return None;
                        }
                    }
                }
            }
            Json::Arr(items) if items.len() <= N => {
                for (slot, v) in found.iter_mut().zip(items) {
                    *slot = Some(v);
                }
            }
            _ => return None,
        }
        found[..required.min(N)]
            .iter()
            .all(Option::is_some)
            .then_some(found)
    }
}

/// Appends `s` as a JSON string, escaped as serde_json escapes it: `"` and `\`, the control
/// characters `\b \t \n \f \r` by name and the others as `\u00XX`; everything else as is.
pub(crate) fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let named = match b {
            b'"' => '"',
            b'\\' => '\\',
            0x08 => 'b',
            b'\t' => 't',
            b'\n' => 'n',
            0x0C => 'f',
            b'\r' => 'r',
            0x00..=0x1F => 'u',
            _ => continue,
        };
        out.push_str(&s[start..i]);
        out.push('\\');
        out.push(named);
        if named == 'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends `items` as a JSON array of integers.
pub(crate) fn write_ints<T: std::fmt::Display>(out: &mut String, items: &[T]) {
    use std::fmt::Write;
    out.push('[');
    for (i, n) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{n}");
    }
    out.push(']');
}

#[cfg(test)]
#[path = "json_test.rs"]
mod json_test;

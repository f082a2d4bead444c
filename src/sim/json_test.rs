//! The JSON reader against serde_json: the same verdict on every text, the same strings,
//! integers and shape.

use super::*;
use serde_json::Value;

/// Whether `j` is the value serde_json read as `v`.
fn agrees(j: &Json<'_>, v: &Value) -> bool {
    match (j, v) {
        (Json::Null, Value::Null) => true,
        (Json::Bool(a), Value::Bool(b)) => a == b,
        (Json::Num(t), Value::Number(n)) => {
            if let Some(u) = n.as_u64() {
                j.u64() == Some(u) && j.i64() == i64::try_from(u).ok()
            } else if let Some(i) = n.as_i64() {
                j.i64() == Some(i) && j.u64().is_none()
            } else {
                // A float: no integer, and serde_json reads the text to the same float.
                j.u64().is_none()
                    && j.i64().is_none()
                    && serde_json::from_str::<Value>(t).ok().as_ref() == Some(v)
            }
        }
        (Json::Str(a), Value::String(b)) => a.as_deref() == Some(b.as_str()),
        (Json::Arr(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| agrees(x, y))
        }
        (Json::Obj(members), Value::Object(map)) => {
            // serde_json's map keeps the last of equal names.
            let mut names: Vec<&str> = members.iter().filter_map(|(k, _)| k.as_deref()).collect();
            names.sort_unstable();
            names.dedup();
            names.len() == map.len()
                && map
                    .iter()
                    .all(|(k, v)| j.get(k).is_some_and(|x| agrees(x, v)))
        }
        _ => false,
    }
}

/// The same verdict as serde_json's `Value` on `text`, and the same value when both read it.
fn same_as_serde_value(text: &str) -> Result<(), String> {
    let theirs = serde_json::from_str::<Value>(text);
    let ours = parse_value(text);
    match (&theirs, &ours) {
        (Ok(v), Some(j)) if agrees(j, v) => Ok(()),
        (Err(_), None) => Ok(()),
        _ => Err(format!("{text:?}: serde_json {theirs:?}, ours {ours:?}")),
    }
}

#[test]
fn reads_every_kind_of_value() {
    let v = parse(r#" {"a": [1, -2, 3.5e-1, true, false, null], "b": {"c": "d"}, "a": "e"} "#)
        .expect("JSON");
    assert_eq!(
        v.get("a"),
        Some(&Json::Str(Some("e".into()))),
        "the last wins"
    );
    let Json::Obj(members) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(
        members[0].1,
        Json::Arr(vec![
            Json::Num("1"),
            Json::Num("-2"),
            Json::Num("3.5e-1"),
            Json::Bool(true),
            Json::Bool(false),
            Json::Null
        ])
    );
    assert_eq!(
        v.get("b").and_then(|b| b.get("c")).and_then(Json::str),
        Some("d")
    );
    assert_eq!(parse("[]"), Some(Json::Arr(Vec::new())));
    assert_eq!(parse(" {} "), Some(Json::Obj(Vec::new())));
}

#[test]
fn reads_escapes_and_surrogate_pairs() {
    let s = |t: &str| parse(t).and_then(|v| v.str().map(str::to_owned));
    assert_eq!(
        s(r#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC""#).as_deref(),
        Some("\"\\/\u{8}\u{c}\n\r\tAé€")
    );
    assert_eq!(s(r#""\ud83d\ude00 x""#).as_deref(), Some("😀 x"));
    assert_eq!(s("\"é😀\"").as_deref(), Some("é😀"));
    // Lone surrogates are valid JSON but no Rust string.
    for lone in [
        r#""\ud800""#,
        r#""\udc00""#,
        r#""\ud800x""#,
        r#""\ud800\n""#,
        r#""\ud800\u0041""#,
        r#""\ud800\ud800\udc00""#,
        r#""\ude00\ud83d""#,
    ] {
        assert_eq!(parse(lone), Some(Json::Str(None)), "{lone}");
        assert!(parse_value(lone).is_none(), "{lone}");
        assert!(serde_json::from_str::<Value>(lone).is_err(), "{lone}");
    }
}

#[test]
fn reads_integers_as_serde_json_does() {
    let n = |t: &'static str| Json::Num(t);
    assert_eq!(n("0").u64(), Some(0));
    assert_eq!(n("18446744073709551615").u64(), Some(u64::MAX));
    assert_eq!(n("18446744073709551616").u64(), None);
    assert_eq!(n("-1").u64(), None);
    assert_eq!(n("-1").i64(), Some(-1));
    assert_eq!(n("-9223372036854775808").i64(), Some(i64::MIN));
    assert_eq!(n("-9223372036854775809").i64(), None);
    assert_eq!(n("9223372036854775808").i64(), None);
    assert_eq!(n("4294967295").u32(), Some(u32::MAX));
    assert_eq!(n("4294967296").u32(), None);
    for not_an_integer in ["-0", "1.0", "1e2", "0.5", "-1E0"] {
        assert_eq!(n(not_an_integer).u64(), None, "{not_an_integer}");
        assert_eq!(n(not_an_integer).i64(), None, "{not_an_integer}");
        assert!(serde_json::from_str::<i64>(not_an_integer).is_err());
    }
    assert_eq!(Json::Str(Some("1".into())).u64(), None);
}

/// Texts chosen to be refused, and their near misses.
const CASES: &[&str] = &[
    "", " ", "nul", "null ", "nulls", "tru", "true", "falsey", "NaN", "Infinity", "-Infinity",
    "'a'", "\u{feff}1", "1", " 1 ", "1x", "1 2", "01", "-01", "00", "-", "-a", "+1", "1.", ".5",
    "1.e3", "1e", "1e+", "1E-7", "0e0", "-0", "-0.0", "1e400", "-1e400", "1e308", "1.7976931348623157e308",
    "1.7976931348623159e308", "17976931348623157000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "179769313486231580000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "1e2147483647", "1e2147483648", "0e99999999999", "1e-99999999999", "-1e99999999999",
    "18446744073709551616", "18446744073709551615.5", "1844674407370955161.6e289",
    "0.0000000000000000000000000000000001e330", "\"", "\"a", "\"\\\"", "\"\\x\"", "\"\\u12\"",
    "\"\\u12g4\"", "\"\\U0041\"", "\"\t\"", "\"\u{1f}\"", "\"\u{7f}\"", "\"a\"b\"", "[", "]", "[]]",
    "[1,]", "[,1]", "[1 2]", "[1,,2]", "{", "}", "{}}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}",
    "{\"a\":1,}", "{,\"a\":1}", "{1:2}", "{a:1}", "{\"a\":1 \"b\":2}", "[}", "{]", "[1}",
    "{\"a\":[1}", "[\"\\ud800\"]", "{\"\\udc00\":1}", "[[[]]]", "{\"a\":{\"b\":{}}}",
    "[\"\u{10ffff}\"]", " \n\t\r[ \n\t\r1 \n\t\r] \n\t\r", "\u{a0}1", "[1]\u{0}",
];

#[test]
fn gives_serde_jsons_verdict_on_chosen_texts() {
    for text in CASES {
        same_as_serde_value(text).unwrap();
        // What serde_json's typed reader passes over: any valid JSON.
        assert_eq!(
            parse(text).is_some(),
            serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(),
            "{text:?}"
        );
    }
}

#[test]
fn nesting_past_serde_jsons_limit_is_valid_but_not_a_value() {
    for depth in [126, 127, 128, 129, 5_000] {
        for (open, close) in [("[", "]"), ("{\"k\":", "}"), ("[{\"k\":", "}]")] {
            let mut text = open.repeat(depth);
            text.push_str(if open.ends_with(':') { "1" } else { "" });
            text.push_str(&close.repeat(depth));
            // `{"k":` repeated ends in a value; `[` repeated ends empty.
            if serde_json::from_str::<serde::de::IgnoredAny>(&text).is_err() {
                continue;
            }
            assert!(parse(&text).is_some(), "{depth} {open}");
            same_as_serde_value(&text).unwrap();
        }
    }
    // An empty container at the limit counts as serde_json counts it.
    for depth in [127, 128] {
        let text = format!("{}{{}}{}", "[".repeat(depth - 1), "]".repeat(depth - 1));
        same_as_serde_value(&text).unwrap();
    }
}

#[test]
fn writes_strings_as_serde_json_does() {
    let all: String = (0u32..0x100).filter_map(char::from_u32).collect();
    for s in ["", "plain", "\"q\" \\ /", "é 😀 \u{7f} \u{2028}", &all] {
        let mut out = String::new();
        write_str(&mut out, s);
        assert_eq!(out, serde_json::to_string(s).unwrap());
    }
    let mut out = String::new();
    write_ints(&mut out, &[3u32, 0, u32::MAX]);
    assert_eq!(out, "[3,0,4294967295]");
    out.clear();
    write_ints::<u32>(&mut out, &[]);
    assert_eq!(out, "[]");
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{RngSeed, TestRunner};

    /// A fixed seed, so that every run draws the same cases.
    fn runner(cases: u32) -> TestRunner {
        TestRunner::new(ProptestConfig {
            cases,
            rng_seed: RngSeed::Fixed(1),
            failure_persistence: None,
            ..ProptestConfig::default()
        })
    }

    /// Strings heavy in what needs escaping.
    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                4 => any::<char>(),
                2 => (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap_or('?')),
                1 => proptest::sample::select(vec!['"', '\\', '/', '\u{7f}', '\u{2028}', '😀']),
            ],
            0..12,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (0u64..1000).prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            text().prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec((text(), inner), 0..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// `text` with its characters escaped here and there, as another writer might.
    fn escaped(s: &str, picks: &[u8]) -> String {
        let mut out = String::from("\"");
        for (i, c) in s.chars().enumerate() {
            let pick = picks.get(i % picks.len().max(1)).copied().unwrap_or(0);
            let mut units = [0u16; 2];
            match (c, pick % 3) {
                ('"' | '\\', 0) => {
                    out.push('\\');
                    out.push(c);
                }
                (c, 0) if (c as u32) >= 0x20 => out.push(c),
                ('\n', 1) => out.push_str("\\n"),
                ('/', 1) => out.push_str("\\/"),
                _ => {
                    for u in c.encode_utf16(&mut units) {
                        if pick % 2 == 0 {
                            out.push_str(&format!("\\u{u:04x}"));
                        } else {
                            out.push_str(&format!("\\u{u:04X}"));
                        }
                    }
                }
            }
        }
        out.push('"');
        out
    }

    /// One edit of `text`: bytes `at..at + len` replaced by `with`.
    fn edit(text: &str, at: usize, len: usize, with: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let at = at % (chars.len() + 1);
        let end = (at + len).min(chars.len());
        let mut out: String = chars[..at].iter().collect();
        out.push_str(with);
        out.extend(&chars[end..]);
        out
    }

    fn piece() -> impl Strategy<Value = String> {
        proptest::sample::select(vec![
            "", " ", ",", ":", "[", "]", "{", "}", "\"", "\\", "\\u", "\\ud800", "\\udc00", "0",
            "-", ".", "e", "E", "+", "9", "1e400", "null", "tru", "x", "\t", "\u{1}", "é",
        ])
        .prop_map(str::to_owned)
    }

    #[test]
    fn reads_what_serde_json_writes() {
        runner(2_000)
            .run(&(value(), any::<bool>()), |(v, pretty)| {
                let text = if pretty {
                    serde_json::to_string_pretty(&v).unwrap()
                } else {
                    serde_json::to_string(&v).unwrap()
                };
                let j = parse_value(&text).ok_or_else(|| TestCaseError::fail(text.clone()))?;
                // Compared with serde_json's reading of the text: its float reading does not
                // always give back the float it wrote.
                let read: Value = serde_json::from_str(&text).unwrap();
                prop_assert!(agrees(&j, &read), "{text}: {j:?}");
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn reads_escapes_as_serde_json_does() {
        runner(2_000)
            .run(
                &(text(), proptest::collection::vec(any::<u8>(), 1..8)),
                |(s, picks)| {
                    let json = escaped(&s, &picks);
                    prop_assert_eq!(
                        parse(&json).and_then(|j| j.str().map(str::to_owned)),
                        Some(s)
                    );
                    same_as_serde_value(&json).map_err(TestCaseError::fail)?;
                    Ok(())
                },
            )
            .unwrap();
    }

    #[test]
    fn gives_serde_jsons_verdict_on_edited_texts() {
        runner(4_000)
            .run(
                &(
                    value(),
                    proptest::collection::vec((any::<usize>(), 0usize..3, piece()), 1..4),
                ),
                |(v, edits)| {
                    let mut text = serde_json::to_string(&v).unwrap();
                    for (at, len, with) in &edits {
                        text = edit(&text, *at, *len, with);
                    }
                    same_as_serde_value(&text).map_err(TestCaseError::fail)?;
                    prop_assert_eq!(
                        parse(&text).is_some(),
                        serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok(),
                        "{}",
                        text
                    );
                    Ok(())
                },
            )
            .unwrap();
    }

    /// Number texts: long, with fractions and exponents near the edges of `f64`.
    fn number() -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            "(0|[1-9][0-9]{0,25}|[1-9][0-9]{280,330})",
            proptest::option::of("[0-9]{1,25}"),
            proptest::option::of((
                "[eE]",
                "[+-]?",
                "(0|[1-9][0-9]{0,2}|2147483[0-9]{3}|[0-9]{11})",
            )),
        )
            .prop_map(|(neg, int, frac, exp)| {
                let mut t = String::new();
                if neg {
                    t.push('-');
                }
                t.push_str(&int);
                if let Some(f) = frac {
                    t.push('.');
                    t.push_str(&f);
                }
                if let Some((e, sign, digits)) = exp {
                    t.push_str(&e);
                    t.push_str(&sign);
                    t.push_str(&digits);
                }
                t
            })
    }

    #[test]
    fn reads_numbers_as_serde_json_does() {
        runner(20_000)
            .run(&number(), |t| {
                same_as_serde_value(&t).map_err(TestCaseError::fail)?;
                let j = Json::Num(&t);
                prop_assert_eq!(j.u64(), serde_json::from_str::<u64>(&t).ok(), "{}", t);
                prop_assert_eq!(j.i64(), serde_json::from_str::<i64>(&t).ok(), "{}", t);
                prop_assert_eq!(j.u32(), serde_json::from_str::<u32>(&t).ok(), "{}", t);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn numbers_at_the_edge_of_f64_get_serde_jsons_verdict() {
        // f64::MAX, and the midpoint between it and 2^1024, where rounding turns to infinity.
        let max = format!("{:.0}", f64::MAX);
        let mid = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
        // Refused and taken.
        let mut verdicts = [0; 2];
        for digits in [max.as_str(), mid] {
            assert_eq!(digits.len(), 309);
            // Written with every split of the digits between significand and exponent.
            for cut in 1..=digits.len() {
                for tail in ["", "9", "99999999999999999999", "0", "5"] {
                    let (int, frac) = digits.split_at(cut);
                    let e = 309 - cut as i64 - tail.len() as i64;
                    for text in [
                        format!("{int}.{frac}{tail}e{}", 309 - cut),
                        format!("{int}{tail}e{e}"),
                        format!("-{int}{tail}E+{e}"),
                        format!("0.{int}{tail}e{}", 309 + 1 - cut as i64 - tail.len() as i64),
                    ] {
                        same_as_serde_value(&text).unwrap();
                        verdicts[usize::from(parse_value(&text).is_some())] += 1;
                    }
                }
            }
        }
        assert!(verdicts[0] > 100 && verdicts[1] > 100, "{verdicts:?}");
    }
}

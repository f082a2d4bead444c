//! The catalogues: the Chinese one has every message with the same placeholders, uses the
//! glossary's words, and the converted parts of the page write no English of their own.

use super::msg;
use super::*;

const ZH: &str = include_str!("../../www/i18n/zh-CN.json");
const GLOSSARY: &str = include_str!("../../www/i18n/glossary.json");

/// Messages whose Chinese is rightly the same as their English (a Kafka word and a number).
const SAME_IN_BOTH: &[&str] = &[
    "STAT_BROKER",
    "STAT_EPOCH",
    "MENU_TITLE",
    // The graph's and panels' (msg_graph.rs).
    "BROKER_N",
    "CAPTION_BROKER",
    "ARIA_BROKER",
    "ARIA_EPOCH",
    "COL_LEO",
    "COL_HW",
    "PANEL_BROKER_TITLE",
    "PANEL_FOLLOWS",
    // A request and its controller epoch, both kept in English.
    "FL_UPDATE_METADATA",
    "FL_LEADER_AND_ISR_MANY",
    // The lessons' (msg_lessons.rs).
    "LESSON_PROFILE",
    "LESSON_BROKER",
    "LESSON_BROKER_VALUE",
    // The event log's (msg_events.rs).
    "EV_ENDPOINT_BROKER",
];

/// The page's files whose every word comes from the catalogue: no English of their own in
/// text, `title` or `aria-label`.
const CONVERTED: [(&str, &str); 16] = [
    ("src/ui/a11y.rs", include_str!("../ui/a11y.rs")),
    ("src/ui/controls.rs", include_str!("../ui/controls.rs")),
    ("src/ui/timeline.rs", include_str!("../ui/timeline.rs")),
    ("src/ui/shell.rs", include_str!("../ui/shell.rs")),
    (
        "src/ui/broker_menu.rs",
        include_str!("../ui/broker_menu.rs"),
    ),
    ("src/ui/overlay.rs", include_str!("../ui/overlay.rs")),
    ("src/ui/panel.rs", include_str!("../ui/panel.rs")),
    ("src/ui/partitions.rs", include_str!("../ui/partitions.rs")),
    ("src/ui/groups.rs", include_str!("../ui/groups.rs")),
    ("src/ui/event_log.rs", include_str!("../ui/event_log.rs")),
    ("src/ui/lesson.rs", include_str!("../ui/lesson.rs")),
    ("src/ui/model/mod.rs", include_str!("../ui/model/mod.rs")),
    (
        "src/ui/model/links.rs",
        include_str!("../ui/model/links.rs"),
    ),
    ("src/ui/model/jump.rs", include_str!("../ui/model/jump.rs")),
    ("src/ui/stories.rs", include_str!("../ui/stories.rs")),
    (
        "src/view/command_text.rs",
        include_str!("../view/command_text.rs"),
    ),
];

fn zh() -> Catalogue {
    Catalogue::parse(ZH).expect("www/i18n/zh-CN.json reads")
}

#[test]
fn keys_are_unique() {
    let all: Vec<&Msg> = all().collect();
    for (i, m) in all.iter().enumerate() {
        assert!(
            !all[i + 1..].iter().any(|o| o.key == m.key),
            "{} twice",
            m.key
        );
    }
}

#[test]
fn the_chinese_catalogue_has_every_message_and_no_other() {
    let c = zh();
    assert_eq!(c.missing(), Vec::<&str>::new(), "messages without Chinese");
    assert_eq!(
        c.unknown(),
        Vec::<&str>::new(),
        "keys in zh-CN.json that no message has"
    );
}

#[test]
fn placeholders_match_between_languages() {
    let c = zh();
    for m in all() {
        let Some(z) = c.get(m.key) else { continue };
        let mut a = placeholders(m.en());
        let mut b = placeholders(z);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(
            a,
            b,
            "{}: placeholders differ: {:?} / {:?}",
            m.key,
            m.en(),
            z
        );
    }
}

#[test]
fn chinese_is_not_left_in_english() {
    let c = zh();
    for m in all() {
        let z = c.get(m.key).unwrap_or_default();
        assert!(
            !z.trim().is_empty() || m.en().trim().is_empty(),
            "{} is empty",
            m.key
        );
        // Words outside the placeholders: `{what}: {action}` has none to translate.
        let words = placeholders(m.en())
            .into_iter()
            .fold(m.en().to_string(), |t, p| {
                t.replace(&format!("{{{p}}}"), "")
            });
        if words.chars().any(|ch| ch.is_ascii_alphabetic()) && !SAME_IN_BOTH.contains(&m.key) {
            assert_ne!(z, m.en(), "{} is still English", m.key);
            assert!(
                z.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)),
                "{}: {z:?} has no Chinese",
                m.key
            );
        }
    }
}

#[test]
fn a_missing_key_falls_back_to_english() {
    let c = Catalogue::parse(r#"{"PLAY": "运行", "_note": "skipped"}"#).unwrap();
    assert!(c.missing().contains(&"PAUSE"));
    assert!(!c.missing().contains(&"PLAY"));
    let tr = Tr::new(Lang::ZhCn, Some(Rc::new(c)));
    assert_eq!(tr.t(msg::PLAY), "运行");
    assert_eq!(tr.t(msg::PAUSE), "Pause");
    assert_eq!(tr.lang(), Lang::ZhCn);
    // Chinese asked for while its catalogue loads: English.
    let loading = Tr::new(Lang::ZhCn, None);
    assert_eq!(loading.lang(), Lang::En);
    assert_eq!(loading.t(msg::PLAY), "Play");
}

#[test]
fn bad_catalogues_are_named() {
    assert!(Catalogue::parse("[1]").unwrap_err().contains("object"));
    assert!(Catalogue::parse("{").unwrap_err().contains("JSON"));
    assert!(Catalogue::parse(r#"{"PLAY": 3}"#)
        .unwrap_err()
        .contains("\"PLAY\""));
    let c = Catalogue::parse(r#"{"NO_SUCH_KEY": "x"}"#).unwrap();
    assert_eq!(c.unknown(), vec!["NO_SUCH_KEY"]);
}

#[test]
fn placeholders_are_filled_by_name() {
    assert_eq!(
        fill(
            "broker {broker} · epoch {epoch}",
            &[("epoch", &3), ("broker", &2)]
        ),
        "broker 2 · epoch 3"
    );
    // Unknown or unfilled placeholders, and braces that are not one, stay as written.
    assert_eq!(
        fill("{a} {b} {not one} {", &[("a", &"x")]),
        "x {b} {not one} {"
    );
    assert_eq!(placeholders("{a} {b c} {d}{a}"), vec!["a", "d", "a"]);
    let tr = Tr::en();
    assert_eq!(tr.f(msg::MENU_CRASH, &[("broker", &4)]), "Crash broker 4");
}

#[test]
fn languages_are_read_and_chosen() {
    assert_eq!(Lang::parse("zh-CN"), Ok(Lang::ZhCn));
    assert_eq!(Lang::parse("zh-cn"), Ok(Lang::ZhCn));
    assert_eq!(Lang::parse("en"), Ok(Lang::En));
    let e = Lang::parse("fr").unwrap_err();
    assert!(e.contains("en or zh-CN") && e.contains("\"fr\""), "{e}");
    assert_eq!(Lang::from_browser("zh-TW"), Lang::ZhCn);
    assert_eq!(Lang::from_browser("zh"), Lang::ZhCn);
    assert_eq!(Lang::from_browser("en-GB"), Lang::En);
    assert_eq!(Lang::from_browser("de"), Lang::En);
    // The address wins, then what the reader chose before, then the browser.
    assert_eq!(
        Lang::choose(Some(Lang::En), Some("zh-CN"), Some("zh")),
        Lang::En
    );
    assert_eq!(Lang::choose(None, Some("zh-CN"), Some("en")), Lang::ZhCn);
    assert_eq!(
        Lang::choose(None, Some("garbage"), Some("zh-HK")),
        Lang::ZhCn
    );
    assert_eq!(Lang::choose(None, None, Some("en-US")), Lang::En);
    assert_eq!(Lang::choose(None, None, None), Lang::En);
    for l in Lang::ALL {
        assert_eq!(Lang::parse(l.code()), Ok(l));
    }
}

/// The glossary file.
struct Glossary {
    kept: Vec<String>,
    terms: Vec<(String, String, Vec<String>)>,
}

fn glossary() -> Glossary {
    let v: serde_json::Value = serde_json::from_str(GLOSSARY).expect("glossary.json reads");
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|s| s.as_str().expect("a string").to_string())
            .collect()
    };
    let mut terms: Vec<(String, String, Vec<String>)> = v["terms"]
        .as_array()
        .expect("terms")
        .iter()
        .map(|t| {
            (
                t["en"].as_str().expect("en").to_lowercase(),
                t["zh"].as_str().expect("zh").to_string(),
                strings(&t["forbidden"]),
            )
        })
        .collect();
    // The longest first: "consumer group" is settled before "consumer".
    terms.sort_by_key(|t| std::cmp::Reverse(t.0.len()));
    let mut kept = strings(&v["kept"]);
    kept.sort_by_key(|k| std::cmp::Reverse(k.len()));
    Glossary { kept, terms }
}

/// Where `term` stands as a word in `text` (lowercase both), a plural `s`/`es` allowed:
/// the byte ranges.
fn word_at(text: &str, term: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(term) {
        let start = from + i;
        let mut end = start + term.len();
        let before = text[..start].chars().next_back();
        let rest = &text[end..];
        if rest.starts_with("es") && !rest[2..].starts_with(|c: char| c.is_alphanumeric()) {
            end += 2;
        } else if rest.starts_with('s') && !rest[1..].starts_with(|c: char| c.is_alphanumeric()) {
            end += 1;
        }
        let after = text[end..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            out.push((start, end));
        }
        from = start + term.len();
    }
    out
}

fn blank(text: &mut String, ranges: &[(usize, usize)]) {
    for &(a, b) in ranges.iter().rev() {
        text.replace_range(a..b, &" ".repeat(b - a));
    }
}

/// Kafka's own names in an English text: settings (`a.b.c`), znodes (`/controller`), error
/// codes and acronyms (`NOT_CONTROLLER`, `ISR`), requests (`LeaderAndIsr`), internal topics.
fn kafka_names(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)))
        .map(|t| t.trim_end_matches(['.', '-']))
        .flat_map(|t| {
            // `ZooKeeper-mode` is a name and a word: only the name is kept.
            let compound = t.contains('-') && !t.starts_with('/') && !t.contains(['_', '.']);
            if compound {
                t.split('-').filter(|p| looks_kafka(p)).collect()
            } else if looks_kafka(t) {
                vec![t]
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// Whether a token reads as one of Kafka's own names (see [`kafka_names`]).
fn looks_kafka(t: &str) -> bool {
    let b = t.as_bytes();
    let dotted = (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b'.' && b[i - 1].is_ascii_alphabetic() && b[i + 1].is_ascii_alphabetic());
    let caps = b.len() >= 2
        && b.iter().any(u8::is_ascii_uppercase)
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_');
    let camel = b
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    (t.starts_with('/') && t.len() > 1) || t.contains('_') || dotted || caps || camel
}

#[test]
fn the_glossary_names_each_term_once() {
    let g = glossary();
    for (i, t) in g.terms.iter().enumerate() {
        assert!(
            !g.terms[i + 1..].iter().any(|o| o.0 == t.0),
            "{} twice",
            t.0
        );
        assert!(!t.2.contains(&t.1), "{}: its word is forbidden", t.0);
    }
    assert!(g.kept.iter().any(|k| k == "leader epoch"));
}

#[test]
fn the_catalogue_uses_the_glossarys_words() {
    let g = glossary();
    let c = zh();
    let mut problems = Vec::new();
    for m in all() {
        let Some(z) = c.get(m.key) else { continue };
        problems.extend(glossary_problems(&g, m.key, m.en(), z));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Where the Chinese `z` of English `en` (the text of `key`) breaks the glossary: a Kafka
/// name or a kept term it does not keep, a term without its word, a forbidden word.
fn glossary_problems(g: &Glossary, key: &str, en: &str, z: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let zl = z.to_lowercase();
    // What is settled is blanked out, so that a longer term hides its parts.
    let mut text = en.to_string();
    for p in placeholders(en) {
        text = text.replace(&format!("{{{p}}}"), " ");
    }
    for name in kafka_names(&text.clone()) {
        if !z.contains(name) {
            problems.push(format!("{key}: keeps no {name:?}: {z:?}"));
        }
        text = text.replace(name, &" ".repeat(name.len()));
    }
    let mut lower = text.to_lowercase();
    for k in &g.kept {
        let at = word_at(&lower, &k.to_lowercase());
        if !at.is_empty() && !zl.contains(&k.to_lowercase()) {
            problems.push(format!("{key}: keeps no {k:?}: {z:?}"));
        }
        blank(&mut lower, &at);
    }
    for (term, word, forbidden) in &g.terms {
        let at = word_at(&lower, term);
        if !at.is_empty() && !z.contains(word.as_str()) {
            problems.push(format!("{key}: {term:?} is not {word:?}: {z:?}"));
        }
        blank(&mut lower, &at);
        for f in forbidden {
            if z.contains(f.as_str()) {
                problems.push(format!("{key}: {f:?} instead of {word:?}: {z:?}"));
            }
        }
    }
    problems
}

/// The stories the page lists (`src/ui/stories.rs`: the names in its `STORIES`), by name.
fn story_names() -> Vec<&'static str> {
    const MARK: &str = "\npub const STORIES: [&str; ";
    let list = include_str!("../ui/stories.rs");
    let Some((_, rest)) = list.split_once(MARK) else {
        return Vec::new();
    };
    let block = rest.split_once("];").map_or(rest, |(block, _)| block);
    block
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\","))
        .collect()
}

/// Every story the page lists has its title and description in Chinese, in the glossary's
/// words, and the catalogue translates no other story and no other part.
#[test]
fn every_story_has_chinese_and_no_other() {
    let names = story_names();
    assert!(
        names.len() >= 20 && names.contains(&"controller-crash"),
        "{names:?}"
    );
    let (g, c) = (glossary(), zh());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for name in &names {
        let path = root.join(format!("www/scenarios/{name}.json"));
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("the story's file"))
                .expect("the story's JSON");
        for (part, field) in [
            (StoryPart::Title, "title"),
            (StoryPart::Description, "description"),
        ] {
            let key = story_key(name, part);
            let en = file[field].as_str().unwrap_or_default();
            match c.story(name, part) {
                None if !en.is_empty() => problems.push(format!("{key}: no Chinese")),
                None => {}
                Some(z) if !z.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)) => {
                    problems.push(format!("{key}: {z:?} has no Chinese"))
                }
                Some(z) => problems.extend(glossary_problems(&g, &key, en, z)),
            }
        }
    }
    for (name, part) in c.stories() {
        if part.is_none() || !names.contains(&name) {
            problems.push(format!("story.{name}…: no such story or part on the page"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The page's words for a story: the catalogue's, else the file's.
    let tr = Tr::new(Lang::ZhCn, Some(Rc::new(c)));
    assert_eq!(
        tr.story(
            "controller-crash",
            StoryPart::Title,
            "The controller crashes"
        ),
        "控制器崩溃"
    );
    assert_eq!(
        tr.story("no-such", StoryPart::Title, "Its title"),
        "Its title"
    );
    assert_eq!(
        Tr::en().story(
            "controller-crash",
            StoryPart::Title,
            "The controller crashes"
        ),
        "The controller crashes"
    );
    // A leftover is named.
    let odd =
        Catalogue::parse(r#"{"story.gone.title": "旧", "story.cold-start.summary": "x"}"#).unwrap();
    assert_eq!(
        odd.stories(),
        vec![
            ("cold-start.summary", None),
            ("gone", Some(StoryPart::Title))
        ]
    );
    assert!(odd.unknown().is_empty());
}

#[test]
fn the_glossary_check_catches_a_wrong_word() {
    let g = glossary();
    let (_, word, forbidden) = g
        .terms
        .iter()
        .find(|t| t.0 == "leader")
        .expect("leader is in the glossary");
    assert_eq!(word, "首领");
    assert!(forbidden.iter().any(|f| f == "领导者"));
    assert_eq!(word_at("the leaders", "leader"), vec![(4, 11)]);
    assert!(word_at("misleader", "leader").is_empty());
    assert_eq!(
        kafka_names("set zookeeper.session.timeout.ms, delete /controller: NOT_CONTROLLER, ISR, LeaderAndIsr. A sentence."),
        vec!["zookeeper.session.timeout.ms", "/controller", "NOT_CONTROLLER", "ISR", "LeaderAndIsr"]
    );
    assert_eq!(
        kafka_names("a ZooKeeper-mode cluster, client-id-UUID, zombie-controller-2.0"),
        vec!["ZooKeeper", "UUID"]
    );
}

#[test]
fn converted_parts_of_the_page_write_no_english_of_their_own() {
    // Kafka's own names need no translation.
    let kept = glossary().kept;
    let mut problems = Vec::new();
    for (file, text) in CONVERTED {
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for pat in ["title=\"", "aria-label=\"", "{ \"", "aria-valuetext=\""] {
                let mut rest = line;
                while let Some(i) = rest.find(pat) {
                    let after = &rest[i + pat.len()..];
                    let lit: String = after.chars().take_while(|c| *c != '"').collect();
                    if lit.chars().filter(|c| c.is_ascii_alphabetic()).count() > 1
                        && !kept.contains(&lit)
                        && !looks_kafka(&lit)
                    {
                        problems.push(format!("{file}:{}: {lit:?}", n + 1));
                    }
                    rest = after;
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "English written in the page:\n{}",
        problems.join("\n")
    );
}

#[test]
fn marks_become_spans() {
    assert_eq!(
        spans("crash **the controller**: `/controller` goes, `a` **b"),
        vec![
            (Span::Plain, "crash "),
            (Span::Strong, "the controller"),
            (Span::Plain, ": "),
            (Span::Code, "/controller"),
            (Span::Plain, " goes, "),
            (Span::Code, "a"),
            (Span::Plain, " **b"),
        ]
    );
    assert_eq!(spans(""), vec![]);
}

#[test]
fn the_catalogue_file_names_each_key_once() {
    // A JSON object with a key twice reads as its last one: the first text would be lost.
    let mut seen = std::collections::BTreeSet::new();
    for line in ZH.lines() {
        if let Some((key, _)) = line
            .trim_start()
            .strip_prefix('"')
            .and_then(|r| r.split_once("\":"))
        {
            assert!(seen.insert(key), "{key} twice in zh-CN.json");
        }
    }
    assert!(seen.len() > 100);
}

#[test]
fn keys_list_every_message_key_in_order() {
    let from_messages: Vec<&str> = all().map(|m| m.key).collect();
    let keys: Vec<&str> = keys().collect();
    assert_eq!(keys, from_messages);
    assert!(keys.len() > 800, "{} keys", keys.len());
}

/// The catalogue reader before it read through `sim::json`: serde_json's `Value`.
fn parse_with_serde(json: &str) -> Result<Vec<(String, String)>, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("it is not JSON: {e}"))?;
    let obj = value
        .as_object()
        .ok_or("it is not a JSON object of key and text")?;
    let mut texts = Vec::new();
    for (k, v) in obj {
        if k.starts_with('_') {
            continue;
        }
        let text = v
            .as_str()
            .ok_or_else(|| format!("the text of \"{k}\" is not a string"))?;
        texts.push((k.clone(), text.to_string()));
    }
    Ok(texts)
}

#[test]
fn catalogues_read_as_serde_json_read_them() {
    let texts = |c: Catalogue| {
        c.texts
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Vec<_>>()
    };
    let cases = [
        ZH,
        r#"{"PLAY": "运行", "_note": "skipped"}"#,
        r#"{"B": "2", "A": "1", "B": "3"}"#,
        r#"{"B": 2, "A": 1}"#,
        r#"{"A": "x", "A": 1}"#,
        r#"{"A": 1, "A": "x"}"#,
        r#"{"_a": 1, "Z": "\u00e9\n\"q\""}"#,
        r#"{"A": "\ud800"}"#,
        r#"{"\ud800": "x"}"#,
        r#" {} "#,
        "[1]",
        "{",
        r#"{"A": "x"} x"#,
        r#"{"A": "x",}"#,
        "",
        "nul",
    ];
    for json in cases {
        assert_eq!(
            Catalogue::parse(json).map(texts),
            parse_with_serde(json),
            "{json}"
        );
    }
}

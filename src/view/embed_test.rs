//! Embedding: mount options become page-address pairs, parent origins, the parent's requests.

use super::embed::*;
use serde_json::json;

fn options(v: serde_json::Value) -> Result<MountOptions, String> {
    MountOptions::from_json(v)
}

#[test]
fn options_become_the_pairs_a_page_address_gives() {
    let o = options(
        json!({"story": "zombie-controller-2.0", "speed": 0.25, "paused": true,
                           "embed": true, "controls": false, "t": 5000, "seed": 7}),
    )
    .unwrap();
    let pairs: Vec<(String, String)> = [
        ("story", "zombie-controller-2.0"),
        ("speed", "0.25"),
        ("paused", "1"),
        ("embed", "1"),
        ("controls", "0"),
        ("t", "5000"),
        ("seed", "7"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(o.to_pairs(), pairs);
    // A whole number written as a float reads as an address would write it.
    let o = options(json!({"brokers": 3.0, "profile": "2.0"})).unwrap();
    assert_eq!(
        o.to_pairs(),
        vec![
            ("profile".to_string(), "2.0".to_string()),
            ("brokers".to_string(), "3".to_string())
        ]
    );
    assert!(options(json!({})).unwrap().to_pairs().is_empty());
    // A lesson, or the lesson list, as `?lesson=` and `?view=` open them.
    let o = options(json!({"lesson": "first-controller", "lang": "zh-CN"})).unwrap();
    assert_eq!(
        o.to_pairs(),
        vec![
            ("lang".to_string(), "zh-CN".to_string()),
            ("lesson".to_string(), "first-controller".to_string())
        ]
    );
    let o = options(json!({"view": "lessons"})).unwrap();
    assert_eq!(
        o.to_pairs(),
        vec![("view".to_string(), "lessons".to_string())]
    );
}

#[test]
fn an_unknown_option_or_a_wrong_shape_is_named() {
    let e = options(json!({"brokrs": 3})).unwrap_err();
    assert!(
        e.starts_with("option brokrs: unknown field `brokrs`, expected one of `story`"),
        "{e}"
    );
    let e = options(json!({"brokers": [3]})).unwrap_err();
    assert_eq!(
        e,
        "option brokers: invalid type: sequence, expected a string, a number or a boolean"
    );
    assert!(options(json!(null)).unwrap().to_pairs().is_empty());
    assert_eq!(
        options(json!("controller-crash")).unwrap_err(),
        "the options are an object, such as {story: \"controller-crash\", embed: true}"
    );
}

#[test]
fn switches_and_origins() {
    assert!(switch_on("1") && switch_on("yes") && !switch_on("0") && !switch_on("false"));
    assert_eq!(
        parse_origins("https://docs.example, http://127.0.0.1:8000,https://docs.example"),
        Ok(vec![
            "https://docs.example".to_string(),
            "http://127.0.0.1:8000".to_string()
        ])
    );
    for bad in [
        "docs.example",
        "https://docs.example/path",
        "*",
        "https://",
        "",
    ] {
        let e = parse_origins(bad).unwrap_err();
        assert!(
            e.starts_with("parent must be one or more origins"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn requests_from_a_parent_page() {
    let read = |v: serde_json::Value| parse_request(&v);
    assert_eq!(
        read(json!({"kafka-election": "play"})),
        Ok(Some((Request::Play, None)))
    );
    assert_eq!(
        read(json!({"kafka-election": "seek", "ms": 5000, "id": 4})),
        Ok(Some((Request::Seek(5000), Some(json!(4)))))
    );
    assert_eq!(
        read(json!({"kafka-election": "apply", "command": {"do": "crash", "broker": 2}})),
        Ok(Some((
            Request::Apply(json!({"do": "crash", "broker": 2})),
            None
        )))
    );
    assert_eq!(
        read(json!({"kafka-election": "state"})),
        Ok(Some((Request::State, None)))
    );
    // Other scripts' messages are not the playground's.
    assert_eq!(read(json!("hello")), Ok(None));
    assert_eq!(read(json!({"type": "resize"})), Ok(None));
    assert_eq!(
        read(json!({"kafka-election": "explode"})).unwrap_err(),
        "unknown request \"explode\"; the requests are play, pause, seek, apply, state"
    );
    assert_eq!(
        read(json!({"kafka-election": "seek", "ms": -1})).unwrap_err(),
        "\"seek\" needs \"ms\", a whole number of virtual milliseconds"
    );
    assert_eq!(
        read(json!({"kafka-election": "apply"})).unwrap_err(),
        "\"apply\" needs \"command\", e.g. {\"do\": \"crash\", \"broker\": 2}"
    );
    assert_eq!(
        read(json!({"kafka-election": "play", "ms": 3})).unwrap_err(),
        "field \"ms\" does not apply to the request \"play\""
    );
    assert!(read(json!({"kafka-election": 3}))
        .unwrap_err()
        .starts_with("\"kafka-election\" names a request"));
}

#[test]
fn messages_to_the_parent() {
    assert_eq!(
        message(
            "state",
            Some(&json!("a")),
            vec![("state", json!({"time_ms": 0}))]
        ),
        json!({"kafka-election": "state", "id": "a", "state": {"time_ms": 0}})
    );
    assert_eq!(
        message("ready", None, vec![]),
        json!({"kafka-election": "ready"})
    );
}

#[test]
fn seeking_moves_forward_only_and_not_too_far_at_once() {
    assert_eq!(check_seek(1_000, 1_000), Ok(()));
    assert_eq!(check_seek(1_000, 1_000 + MAX_START_MS), Ok(()));
    assert_eq!(check_seek(5_000, 2_000), Ok(()), "back on the timeline");
    assert!(check_seek(0, MAX_START_MS + 1).unwrap_err().starts_with(
        "cannot seek to 600001 ms: one seek moves at most 600000 ms past the session's end"
    ));
}

#[test]
fn the_language_option_is_the_lang_parameter() {
    let o = options(json!({"lang": "zh-CN", "story": "controller-crash"})).expect("options");
    assert_eq!(
        o.to_pairs(),
        vec![
            ("story".to_string(), "controller-crash".to_string()),
            ("lang".to_string(), "zh-CN".to_string())
        ]
    );
}

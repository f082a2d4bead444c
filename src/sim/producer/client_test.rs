//! A client's settings: the profile's defaults and the checks `KafkaProducer` makes.

use super::harness::replicated_world;
use crate::collections::VecMap;
use crate::sim::config::{Profile, Settings};
use crate::sim::topic::Acks;
use crate::sim::Command;

#[test]
fn the_producer_settings_follow_the_profile_and_kafkas_checks() {
    let c = |p: Profile, acks: Acks| Settings::for_profile(p).producer_client(acks).unwrap();
    assert_eq!(
        (
            c(Profile::V0_10, Acks::All).retries,
            c(Profile::V0_10, Acks::All).idempotent
        ),
        (0, false)
    );
    assert_eq!(c(Profile::V2_0, Acks::All).delivery_timeout_ms, None);
    assert_eq!(c(Profile::V2_4, Acks::All).retries, i32::MAX as u32);
    assert_eq!(
        c(Profile::V2_4, Acks::All).delivery_timeout_ms,
        Some(120_000)
    );
    assert!(!c(Profile::V2_4, Acks::All).idempotent);
    assert!(c(Profile::V3_9, Acks::All).idempotent);
    // 3.0+: idempotence left at its default turns off for acks=1.
    assert!(!c(Profile::V3_9, Acks::One).idempotent);
    let mut s = Settings::for_profile(Profile::V3_9);
    s.set("enable.idempotence", &serde_json::json!(true))
        .unwrap();
    assert!(s
        .producer_client(Acks::One)
        .unwrap_err()
        .contains("Must set acks to all"));
    s.set("retries", &serde_json::json!(0)).unwrap();
    assert!(s
        .producer_client(Acks::All)
        .unwrap_err()
        .contains("non-zero"));
    // 2.0 with idempotence: retries becomes Integer.MAX_VALUE.
    let mut s = Settings::for_profile(Profile::V2_0);
    s.set("enable.idempotence", &serde_json::json!(true))
        .unwrap();
    assert_eq!(
        s.producer_client(Acks::All).unwrap().retries,
        i32::MAX as u32
    );
    assert_eq!(s.default_acks(), Acks::All);
    // Settings a release does not have are refused, and change nothing.
    let mut s = Settings::for_profile(Profile::V0_10);
    let e = s
        .set("enable.idempotence", &serde_json::json!(true))
        .unwrap_err();
    assert!(e.contains("0.11"), "{e}");
    let e = s
        .set("delivery.timeout.ms", &serde_json::json!(200_000))
        .unwrap_err();
    assert!(e.contains("2.1"), "{e}");
    assert_eq!(s, Settings::for_profile(Profile::V0_10));
    // delivery.timeout.ms below request.timeout.ms is refused (KafkaProducer).
    let mut overrides = VecMap::new();
    overrides.insert("delivery.timeout.ms".to_string(), serde_json::json!(20_000));
    let e = Settings::with_overrides(Profile::V3_9, &overrides).unwrap_err();
    assert!(e.contains("request.timeout.ms (30000)"), "{e}");
    overrides.insert("request.timeout.ms".to_string(), serde_json::json!(10_000));
    assert!(Settings::with_overrides(Profile::V3_9, &overrides).is_ok());
    // Unset, it follows a larger request.timeout.ms.
    let mut s = Settings::for_profile(Profile::V3_9);
    s.set("request.timeout.ms", &serde_json::json!(200_000))
        .unwrap();
    assert_eq!(s.delivery_timeout(), 200_000);
}

#[test]
fn producer_settings_that_kafka_refuses_change_nothing() {
    let mut w = replicated_world(Profile::V3_9);
    w.advance_to(2_000);
    let stream = |acks| Command::Produce {
        topic: "T".into(),
        partition: 0,
        records: None,
        acks,
        rate_per_s: Some(10),
        for_ms: None,
    };
    w.apply(stream(Acks::One)).unwrap();
    let before = w.settings().clone();
    let set = |key: &str, value: serde_json::Value| Command::SetConfig {
        key: key.into(),
        value,
        topic: None,
    };
    let e = w
        .apply(set("enable.idempotence", serde_json::json!(true)))
        .unwrap_err();
    assert!(
        e.starts_with("the producer with acks=1 would refuse it: Must set acks to all"),
        "{e}"
    );
    let e = w
        .apply(set("delivery.timeout.ms", serde_json::json!(1_000)))
        .unwrap_err();
    assert!(e.contains("request.timeout.ms (30000)"), "{e}");
    assert_eq!(w.settings(), &before);
    // Set while nothing conflicts, it holds; then an acks=1 produce is refused.
    let mut w = replicated_world(Profile::V3_9);
    w.advance_to(2_000);
    w.apply(set("enable.idempotence", serde_json::json!(true)))
        .unwrap();
    let e = w.apply(stream(Acks::One)).unwrap_err();
    assert!(e.contains("KafkaProducer refuses its settings"), "{e}");
    assert!(w.state().producer.clients.is_empty());
}

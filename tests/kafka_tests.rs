//! Kafka's own tests as the project's tests.
//!
//! Each file under `tests/kafka/` rebuilds one test method of Kafka's ZooKeeper-mode test classes
//! (3.9.0) as a scenario with `expect` checkpoints: its `name` is `Class.method` and the file is
//! `Class.method.json`. Tests of Kafka's pure rules (the election algorithms, the member map's
//! order) are rebuilt in `tests/kafka_*_units.rs`, each `#[test]` under a `/// Kafka: Class.method`
//! line. `docs/kafka-tests.md` counts, per class, the methods read, ported and not expressible;
//! this test holds that table to the files.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::scenario;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The Kafka test classes read, as `docs/kafka-tests.md` names them.
const CLASSES: [&str; 7] = [
    "ControllerIntegrationTest",
    "PartitionLeaderElectionAlgorithmsTest",
    "PartitionStateMachineTest",
    "ReplicaStateMachineTest",
    "GroupCoordinatorTest",
    "GroupMetadataTest",
    "PartitionTest",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/kafka"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// `Class.method` of every unit port: the `/// Kafka: Class.method` lines of the
/// `tests/kafka_*_units.rs` files.
fn unit_ports() -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("kafka_") && n.ends_with("_units.rs"))
        })
        .collect();
    files.sort();
    let mut names = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        names.extend(
            text.lines()
                .filter_map(|l| l.trim().strip_prefix("/// Kafka: "))
                .map(|s| s.trim().to_string()),
        );
    }
    names
}

/// The class of a `Class.method` name, if it is one of [`CLASSES`].
fn class_of(name: &str) -> Option<&'static str> {
    let (class, method) = name.split_once('.')?;
    if method.is_empty() || method.contains('.') {
        return None;
    }
    CLASSES.into_iter().find(|c| *c == class)
}

/// Every ported method, scenario files and unit ports together.
fn ported() -> Vec<String> {
    let mut names: Vec<String> = scenario_files()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.extend(unit_ports());
    names
}

#[test]
fn every_kafka_scenario_passes_its_checkpoints() {
    let mut failures = Vec::new();
    for f in scenario_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let s = scenario::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(
            s.file.name.as_deref(),
            Some(stem.as_str()),
            "{}: the name is the file's (Class.method)",
            f.display()
        );
        assert!(
            class_of(&stem).is_some(),
            "{}: the name is Class.method of a class read",
            f.display()
        );
        let results = s.check().unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(!results.is_empty(), "{}: has checkpoints", f.display());
        for r in results {
            if !r.differences.is_empty() {
                failures.push(format!(
                    "{} at {} ms: {}",
                    f.display(),
                    r.at_ms,
                    r.differences.join("; ")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "failed checkpoints:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_port_names_one_kafka_test_once() {
    let names = ported();
    let mut seen = std::collections::BTreeSet::new();
    for n in &names {
        assert!(
            class_of(n).is_some(),
            "{n}: not Class.method of a class read"
        );
        assert!(seen.insert(n.clone()), "{n} is ported twice");
    }
}

/// The table of `docs/kafka-tests.md`: per class, (read, ported, not expressible).
fn docs_table() -> BTreeMap<String, (usize, usize, usize)> {
    let text = std::fs::read_to_string(root().join("docs/kafka-tests.md")).unwrap();
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `Class` | read | ported | not expressible | ... |
        if cells.len() < 5 {
            continue;
        }
        let Some(class) = cells[1].strip_prefix('`').and_then(|c| c.strip_suffix('`')) else {
            continue;
        };
        if !CLASSES.contains(&class) {
            continue;
        }
        let n = |s: &str| {
            s.parse::<usize>()
                .unwrap_or_else(|_| panic!("{class}: {s:?} is not a count"))
        };
        rows.insert(class.to_string(), (n(cells[2]), n(cells[3]), n(cells[4])));
    }
    rows
}

/// The total row of `docs/kafka-tests.md`: `| total | read | ported | not expressible |`.
fn docs_total() -> (usize, usize, usize) {
    let text = std::fs::read_to_string(root().join("docs/kafka-tests.md")).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("| total |"))
        .expect("docs/kafka-tests.md has a total row");
    let cells: Vec<usize> = line
        .split('|')
        .map(str::trim)
        .filter_map(|c| c.parse().ok())
        .collect();
    assert_eq!(cells.len(), 3, "the total row: {line}");
    (cells[0], cells[1], cells[2])
}

#[test]
fn the_docs_table_counts_what_is_here() {
    let table = docs_table();
    let names = ported();
    for class in CLASSES {
        let &(read, ported, not) = table
            .get(class)
            .unwrap_or_else(|| panic!("docs/kafka-tests.md has no row for {class}"));
        let here = names.iter().filter(|n| class_of(n) == Some(class)).count();
        assert_eq!(ported, here, "{class}: the table's ported count");
        assert_eq!(
            read,
            ported + not,
            "{class}: read = ported + not expressible"
        );
    }
    let total = docs_total();
    let sum = table
        .values()
        .fold((0, 0, 0), |(r, p, n), &(a, b, c)| (r + a, p + b, n + c));
    assert_eq!(total, sum, "the docs' total row sums the classes' rows");
    assert_eq!(total.1, names.len(), "the docs' total counts every port");
    assert!(
        names.len() >= 50,
        "at least 50 of Kafka's tests are ported ({} are)",
        names.len()
    );
}

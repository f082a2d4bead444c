//! The shape of the election core: no import circle among the files of `src/sim`, and no file
//! in `src/` over 1,000 lines.
//!
//! A file's imports are the `super::…`, `self::…` and `crate::sim::…` paths in its code (not
//! in comments, not in its `#[cfg(test)]` module). Each path is resolved to the file that
//! defines the module it names (`super::controller::race::X` → `controller/race.rs`,
//! `super::controller::X` → `controller/mod.rs`), and the graph of files must have no cycle.
//! Unit-test files (`tests.rs`, `*_test.rs`) are not part of the shape, and a folder's `mod.rs`
//! declaring its children (`mod x; pub use x::Y;`) does not import them.
//! `cargo test --test module_graph -- --nocapture` prints the graph.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const SIM: &str = "src/sim";

/// Every `.rs` file under `dir`, relative to `root`, sorted.
fn rust_files(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(root, &p, found);
        } else if p.extension().is_some_and(|x| x == "rs") {
            found.push(p.strip_prefix(root).expect("under root").to_path_buf());
        }
    }
}

/// The module path of a file under `src/sim`: `controller/race.rs` → ["controller", "race"];
/// `controller/mod.rs` → ["controller"]; `mod.rs` → [].
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" {
        parts.push(stem);
    }
    parts
}

/// The code of a file without comments and without its test module.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t == "#[cfg(test)]" {
            // The test module (or a test-only item) is not part of the core's shape.
            if lines.peek().is_some_and(|n| {
                n.trim_start().starts_with("mod ") || n.trim_start().starts_with("pub(crate) mod ")
            }) {
                break;
            }
            lines.next();
            continue;
        }
        if t.starts_with("//") {
            continue;
        }
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The module paths (within `sim`) that `code`, written in module `here`, refers to.
fn referenced_modules(here: &[String], code: &str) -> BTreeSet<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let at = |i: usize, s: &str| -> bool {
        let n = s.chars().count();
        i + n <= chars.len() && chars[i..i + n].iter().copied().eq(s.chars())
    };
    // The module `super` names from here: a file's parent folder module, or for a `mod.rs`
    // the folder's parent.
    let mut parent = here.to_vec();
    parent.pop();
    let mut found = BTreeSet::new();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0
            || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        let (mut j, mut module) = if boundary && at(i, "crate::sim::") {
            (i + "crate::sim::".len(), Vec::new())
        } else if boundary && at(i, "super::") {
            let mut m = parent.clone();
            let mut j = i + "super::".len();
            while at(j, "super::") {
                m.pop();
                j += "super::".len();
            }
            (j, m)
        } else if boundary && at(i, "self::") {
            (i + "self::".len(), here.to_vec())
        } else {
            i += 1;
            continue;
        };
        // The segments that follow: a::b::C.
        loop {
            let start = j;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            if j == start {
                break;
            }
            module.push(chars[start..j].iter().collect());
            if at(j, "::") {
                j += 2;
            } else {
                break;
            }
        }
        found.insert(module.clone());
        // A brace group `{x, y::Z}`: each first segment may name a submodule.
        if j < chars.len() && chars[j] == '{' {
            let close = chars[j..]
                .iter()
                .position(|c| *c == '}')
                .map_or(chars.len(), |p| j + p);
            let inner: String = chars[j + 1..close].iter().collect();
            for item in inner.split(',') {
                let first = item.split("::").next().unwrap_or("").trim();
                if first.chars().next().is_some_and(|c| c.is_lowercase()) {
                    let mut m = module.clone();
                    m.push(first.to_string());
                    found.insert(m);
                }
            }
            j = close;
        }
        i = j.max(i + 1);
    }
    found
}

#[test]
fn no_import_circle_among_the_core_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sim = root.join(SIM);
    let mut files = Vec::new();
    rust_files(&sim, &sim, &mut files);
    files.retain(|f| {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        name != "tests.rs" && !name.ends_with("_test.rs")
    });
    // Module path -> file.
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_of(f), f.to_string_lossy().into_owned()))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let here = module_of(f);
        let name = f.to_string_lossy().into_owned();
        let text = fs::read_to_string(sim.join(f)).expect("readable");
        let mut edges = BTreeSet::new();
        for mut m in referenced_modules(&here, &code_of(&text)) {
            // The longest prefix of the path that is a file's module.
            while !m.is_empty() && !modules.contains_key(&m) {
                m.pop();
            }
            if let Some(target) = modules.get(&m) {
                if *target != name && !m.is_empty() {
                    edges.insert(target.clone());
                }
            }
        }
        graph.insert(name, edges);
    }
    // mod.rs declares its children: that is not an import.
    for (file, edges) in &graph {
        println!(
            "{file} -> {}",
            edges.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    // Find every cycle's files with Tarjan's strongly connected components.
    let cycles = strongly_connected(&graph);
    let in_circles: BTreeSet<String> = cycles
        .iter()
        .filter(|c| c.len() > 1)
        .flatten()
        .cloned()
        .collect();
    assert!(
        in_circles.is_empty(),
        "files of src/sim in an import circle: {:?}\ncircles:\n{}",
        in_circles,
        cycles
            .iter()
            .filter(|c| c.len() > 1)
            .map(|c| c.join(" <-> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(edges) = s.graph.get(v) {
            for w in edges {
                let w = w.as_str();
                if !s.graph.contains_key(w) {
                    continue;
                }
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(lw));
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(iw));
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            comp.sort();
            s.out.push(comp);
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_source_file_over_a_thousand_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &src, &mut files);
    let long: BTreeSet<String> = files
        .iter()
        .filter(|f| {
            fs::read_to_string(src.join(f))
                .expect("readable")
                .lines()
                .count()
                > 1_000
        })
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    assert!(long.is_empty(), "files of src/ over 1,000 lines: {long:?}");
}

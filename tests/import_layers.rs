//! The layers of the crate: no import circle among the folders of `src/` nor among its files,
//! the election core (`src/sim`) importing none of the layers above it, in its code or in its
//! tests, nor the scenario files (`src/scenario`) the session or the layers on it, and no file
//! in `src/` over 1,000 lines.
//!
//! A file's imports are the `crate::…`, `super::…` and `self::…` paths in its code (not in
//! comments, not in its `#[cfg(test)]` module). Each path is resolved to the file that
//! defines the module it names (`crate::sim::controller::race::X` → `sim/controller/race.rs`,
//! `super::controller::X` → `controller/mod.rs`; a module `ui/model.rs` has its children in
//! `ui/model/`). A file's folder is its first folder under `src/` (`sim`, `i18n`, `ui`, …).
//! Unit-test files (`tests.rs`, `*_test.rs`) are not part of the shape (a unit test may use
//! what its layer's code does not, to build its case), nor are the binaries (`main.rs`,
//! `bin/`), which use the library by its name; a module declaring its children (`mod x; pub
//! use x::Y;`) does not import them. The tests are read apart, each test file and each file's
//! test module with the folders it names: those of the core and of the scenario files import
//! no layer above theirs either, so a test that needs one lives in that layer.
//! `cargo test --test import_layers -- --nocapture` prints the file graph.
//!
//! The layers are written down in `src/sim/mod.rs`.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The folders that the election core must not import: the layers above it.
const ABOVE_SIM: [&str; 6] = ["i18n", "view", "ui", "session", "scenario", "lesson"];

/// The folders that the scenario files must not import: the session, which replays scenarios,
/// and the layers on it.
const ABOVE_SCENARIO: [&str; 4] = ["session", "lesson", "view", "ui"];

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

/// The module path of a file under `src/`: `sim/controller/race.rs` → ["sim", "controller",
/// "race"]; `sim/controller/mod.rs` → ["sim", "controller"]; `lib.rs` → [].
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" && !(parts.is_empty() && stem == "lib") {
        parts.push(stem);
    }
    parts
}

/// The code of a file without comments and without its test module.
fn code_of(text: &str) -> String {
    code_and_tests(text).0
}

/// A file's code and the code of its `#[cfg(test)]` modules (from `mod … {` to the `}` at the
/// same indent, as rustfmt writes it), each without comments. A test-only item's first line,
/// or a test module in a file of its own (`#[cfg(test)] mod x;`), is left out of both: that
/// file is read on its own.
fn code_and_tests(text: &str) -> (String, String) {
    let mut code = String::new();
    let mut tests = String::new();
    // The indent of the test module being read: its `}` there ends it.
    let mut in_tests: Option<usize> = None;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if t == "#[cfg(test)]" && in_tests.is_none() {
            // The test module (or a test-only item) is not part of the core's shape.
            let inline = lines.peek().is_some_and(|n| {
                let n = n.trim_start();
                (n.starts_with("mod ") || n.starts_with("pub(crate) mod ")) && !n.ends_with(';')
            });
            if inline {
                in_tests = Some(indent);
            } else {
                lines.next();
            }
            continue;
        }
        if t.starts_with("//") {
            continue;
        }
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        let out = if in_tests.is_some() {
            &mut tests
        } else {
            &mut code
        };
        out.push_str(line);
        out.push('\n');
        if t == "}" && in_tests == Some(indent) {
            in_tests = None;
        }
    }
    (code, tests)
}

/// The module paths (from the crate's root) that `code`, written in module `here`, refers to.
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
        let (mut j, mut module) = if boundary && at(i, "crate::") {
            (i + "crate::".len(), Vec::new())
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

/// Whether a file under `src/` is a unit-test file: `tests.rs` or `*_test.rs`.
fn is_unit_test(file: &Path) -> bool {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name == "tests.rs" || name.ends_with("_test.rs")
}

/// Whether a file under `src/` is a binary's (`main.rs`, `bin/`).
fn is_binary(file: &Path) -> bool {
    file == Path::new("main.rs") || file.starts_with("bin")
}

/// The library's files under `src/` (not unit tests, not the binaries), relative to `src/`.
fn library_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(src, src, &mut files);
    files.retain(|f| !is_binary(f) && !is_unit_test(f));
    files
}

/// The folders of `src/` (or the crate root's items) that `code`, written in module `here`,
/// names: the first segment of each module path it refers to.
fn folders_named(here: &[String], code: &str) -> BTreeSet<String> {
    referenced_modules(here, code)
        .into_iter()
        .filter_map(|m| m.first().cloned())
        .collect()
}

/// The tests of the library and the folders they name: each unit-test file, and each other
/// file's test module (`sim/rng.rs (its test module)`).
fn test_imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, src, &mut files);
    let mut found = BTreeMap::new();
    for f in files.iter().filter(|f| !is_binary(f)) {
        let (code, tests) = code_and_tests(&fs::read_to_string(src.join(f)).expect("readable"));
        let mut here = module_of(f);
        let (name, code) = if is_unit_test(f) {
            (f.to_string_lossy().into_owned(), code + &tests)
        } else if tests.is_empty() {
            continue;
        } else {
            // The test module's `super` is the file's own module.
            here.push("tests".to_string());
            (format!("{} (its test module)", f.display()), tests)
        };
        found.insert(name, folders_named(&here, &code));
    }
    found
}

/// The graph of files: each file and the files it imports.
fn file_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = library_files(src);
    // Module path -> file.
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_of(f), f.to_string_lossy().into_owned()))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let here = module_of(f);
        let name = f.to_string_lossy().into_owned();
        let text = fs::read_to_string(src.join(f)).expect("readable");
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
    graph
}

/// A file's folder: its first folder under `src/` (`sim/controller/race.rs` → `sim`), or the
/// file itself at the top (`lib.rs`).
fn folder_of(file: &str) -> String {
    file.split('/').next().unwrap_or(file).to_string()
}

/// The graph of folders: an arrow from one folder to another where a file of the first
/// imports a file of the second.
fn folder_graph(files: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, edges) in files {
        let from = folder_of(file);
        let targets = graph.entry(from.clone()).or_default();
        for to in edges.iter().map(|e| folder_of(e)) {
            if to != from {
                targets.insert(to);
            }
        }
    }
    graph
}

/// One loop through the nodes of `circle` (a strongly connected component of more than one
/// node), as `a -> b -> c -> a`: the shortest way back to its first node.
fn a_loop(graph: &BTreeMap<String, BTreeSet<String>>, circle: &[String]) -> String {
    let start = &circle[0];
    let inside: BTreeSet<&String> = circle.iter().collect();
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in graph.get(v).into_iter().flatten() {
            if w == start {
                let mut path = vec![start.clone()];
                let mut at = v;
                while at != start {
                    path.push(at.clone());
                    at = came_from[at];
                }
                path.push(start.clone());
                path.reverse();
                return path.join(" -> ");
            }
            if inside.contains(w) && !came_from.contains_key(w) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    circle.join(" <-> ")
}

/// Every import circle of `graph`, each named by one loop through it.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    strongly_connected(graph)
        .iter()
        .filter(|c| c.len() > 1)
        .map(|c| format!("{} (all of: {})", a_loop(graph, c), c.join(", ")))
        .collect()
}

/// The crate's `src/`, or the folder `IMPORT_LAYERS_SRC` names (to try the check on another
/// tree).
fn src() -> PathBuf {
    std::env::var_os("IMPORT_LAYERS_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_import_circle_among_the_files_of_src() {
    let graph = file_graph(&src());
    for (file, edges) in &graph {
        println!(
            "{file} -> {}",
            edges.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "files of src/ in an import circle:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_import_circle_among_the_folders_of_src() {
    let graph = folder_graph(&file_graph(&src()));
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "folders of src/ in an import circle:\n{}",
        found.join("\n")
    );
}

/// Where the files of `folder` in `graph` (each file and what it imports: files or folders)
/// import a folder of `above`, as `file -> import`.
fn reaching_up(
    graph: &BTreeMap<String, BTreeSet<String>>,
    folder: &str,
    above: &[&str],
) -> Vec<String> {
    graph
        .iter()
        .filter(|(file, _)| folder_of(file) == folder)
        .flat_map(|(file, edges)| {
            edges
                .iter()
                .filter(|e| above.contains(&folder_of(e).as_str()))
                .map(move |e| format!("{file} -> {e}"))
        })
        .collect()
}

#[test]
fn the_election_core_imports_no_layer_above_it() {
    let wrong = reaching_up(&file_graph(&src()), "sim", &ABOVE_SIM);
    assert!(
        wrong.is_empty(),
        "src/sim imports a layer above it ({}):\n{}",
        ABOVE_SIM.join(", "),
        wrong.join("\n")
    );
}

#[test]
fn the_election_core_s_tests_import_no_layer_above_it() {
    let wrong = reaching_up(&test_imports(&src()), "sim", &ABOVE_SIM);
    assert!(
        wrong.is_empty(),
        "a test of src/sim imports a layer above it ({}); it belongs to that layer:\n{}",
        ABOVE_SIM.join(", "),
        wrong.join("\n")
    );
}

#[test]
fn the_scenario_files_and_their_tests_import_no_layer_above_them() {
    let mut wrong = reaching_up(&file_graph(&src()), "scenario", &ABOVE_SCENARIO);
    wrong.extend(reaching_up(
        &test_imports(&src()),
        "scenario",
        &ABOVE_SCENARIO,
    ));
    assert!(
        wrong.is_empty(),
        "src/scenario or its tests import a layer above it ({}); a test that needs one \
         belongs to that layer:\n{}",
        ABOVE_SCENARIO.join(", "),
        wrong.join("\n")
    );
}

/// The check finds a circle in a small graph made by hand, names one loop of it, and finds
/// none once the loop is cut; the reading of paths sees `crate::`, `super::` and `self::`
/// imports, brace groups included, but not comments or the test module; and the test module
/// is read apart (neither it nor a test module in a file of its own hides the code after it),
/// so a test that names a layer above its own is found.
#[test]
fn the_check_catches_a_hand_made_circle() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let g = graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a"), ("c", "e")]);
    assert_eq!(circles(&g), ["a -> b -> c -> a (all of: a, b, c)"]);
    let g = graph(&[("a", "b"), ("b", "c"), ("d", "a"), ("c", "e")]);
    assert!(circles(&g).is_empty());
    let folders = folder_graph(&graph(&[("x/a.rs", "y/b.rs"), ("y/c.rs", "x/d.rs")]));
    assert_eq!(circles(&folders), ["x -> y -> x (all of: x, y)"]);

    let code = code_of(
        "use crate::sim::{net::BrokerId, Cause};\nuse super::said;\n// use crate::ui::x;\n\
         fn f() { self::g::h(); }\n#[cfg(test)]\nmod tests {\n    use crate::view::x;\n}\n",
    );
    let here = vec!["i18n".to_string(), "cause_text".to_string()];
    let found: Vec<String> = referenced_modules(&here, &code)
        .into_iter()
        .map(|m| m.join("::"))
        .collect();
    assert_eq!(
        found,
        ["i18n::cause_text::g::h", "i18n::said", "sim", "sim::net"]
    );

    let (code, tests) = code_and_tests(
        "use crate::sim::net::BrokerId;\n#[cfg(test)]\nmod rng_test;\nuse super::topic::Tp;\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::i18n::testing;\n}\n\
         use crate::text::Words;\n",
    );
    assert_eq!(
        code,
        "use crate::sim::net::BrokerId;\nuse super::topic::Tp;\nuse crate::text::Words;\n"
    );
    let here = ["sim", "rng", "tests"].map(String::from);
    let folders = folders_named(&here, &tests);
    assert_eq!(
        folders,
        BTreeSet::from(["i18n".to_string(), "sim".to_string()])
    );
    let tests = BTreeMap::from([("sim/rng.rs (its test module)".to_string(), folders)]);
    assert_eq!(
        reaching_up(&tests, "sim", &ABOVE_SIM),
        ["sim/rng.rs (its test module) -> i18n"]
    );
    assert!(reaching_up(&tests, "sim", &ABOVE_SCENARIO).is_empty());
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
    let src = src();
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

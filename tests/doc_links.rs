//! The README and every page under `docs/` link only to what exists: each relative link,
//! `[text](path)` or `[text](path#anchor)` (images too), names a file or folder of the project,
//! and its `#anchor`, if any, is a heading of the Markdown file it names (of the same page for a
//! bare `#anchor`), slugged as GitHub slugs headings; an anchor into any other file must be a
//! line's (`#L12`, `#L12-L20`). Links to `http:`, `https:` and `mailto:`
//! addresses are not followed, and nothing inside code (fenced blocks, `code spans`) is read as
//! a link. The README also stays one page: at most 200 lines.

// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The README's length, in lines, that the project keeps it within.
const README_MAX_LINES: usize = 200;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `.md` file under `docs/`, in a fixed order.
fn doc_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut files);
    files
}

/// The text with every fenced code block's lines (fences included) and every code span blanked
/// out, so that what code shows is never taken for a link. Line breaks are kept, so that
/// positions still give line numbers.
fn without_code(text: &str) -> String {
    blank_code_spans(&without_fenced_blocks(text))
}

/// The text with every fenced code block's lines, fences included, blanked out.
fn without_fenced_blocks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The open fence's character and length, while inside a fenced block.
    let mut fence: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        let blank = match fence {
            Some((c, n)) => {
                if indent < 4 && run(c) >= n && trimmed[run(c)..].trim().is_empty() {
                    fence = None;
                }
                true
            }
            None => {
                for c in ['`', '~'] {
                    if indent < 4 && run(c) >= 3 {
                        fence = Some((c, run(c)));
                    }
                }
                fence.is_some()
            }
        };
        if blank {
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Blanks the content of each code span: a run of backticks up to the next run of the same
/// length (a run with no such match is plain text).
fn blank_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                for c in &mut out[i..j + n] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = j + n;
            }
            None => i += n,
        }
    }
    out.into_iter().collect()
}

/// A link found in a page: its line and its destination as written.
struct Link {
    line: usize,
    target: String,
}

/// Every inline link and image of `text` (code already blanked out): `[` ... `]` with the
/// brackets balanced, then `(`, the destination (in `<...>`, or up to a space or the closing
/// parenthesis, parentheses balanced), an optional title and `)`. The link text may run over
/// several lines, but not over a blank one.
fn links(text: &str) -> Vec<Link> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for start in 0..chars.len() {
        if chars[start] != '[' || (start > 0 && chars[start - 1] == '\\') {
            continue;
        }
        // The matching `]`.
        let mut depth = 0usize;
        let mut close = None;
        let mut i = start;
        while i < chars.len() {
            match chars[i] {
                '\\' => i += 1,
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                '\n' if chars.get(i + 1) == Some(&'\n') => break,
                _ => {}
            }
            i += 1;
        }
        let Some(close) = close else { continue };
        if chars.get(close + 1) != Some(&'(') {
            continue;
        }
        // The destination.
        let mut i = close + 2;
        let mut target = String::new();
        if chars.get(i) == Some(&'<') {
            i += 1;
            while i < chars.len() && chars[i] != '>' && chars[i] != '\n' {
                target.push(chars[i]);
                i += 1;
            }
        } else {
            let mut parens = 0usize;
            while i < chars.len() && !chars[i].is_whitespace() {
                match chars[i] {
                    '(' => parens += 1,
                    ')' if parens == 0 => break,
                    ')' => parens -= 1,
                    _ => {}
                }
                target.push(chars[i]);
                i += 1;
            }
        }
        let line = chars[..start].iter().filter(|&&c| c == '\n').count() + 1;
        found.push(Link { line, target });
    }
    found
}

/// GitHub's anchor for a heading's text: the text as shown (links by their text), lowercased,
/// every character dropped but letters, digits, spaces, `-` and `_` (so code's backticks and
/// emphasis stars go too), and each space turned into `-`.
fn slug(heading: &str) -> String {
    strip_inline_links(heading)
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `[text](destination)` becomes `text`; `![alt](source)` becomes `alt`.
fn strip_inline_links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        let before = rest[..open].strip_suffix('!').unwrap_or(&rest[..open]);
        out.push_str(before);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The anchors of a page's headings (ATX headings, `#` to `######`, outside fenced blocks),
/// with GitHub's `-1`, `-2`... on a repeated one.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for line in without_fenced_blocks(text).lines() {
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let rest = &trimmed[hashes..];
        if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
            continue;
        }
        // A closing run of `#` is not part of the heading.
        let title = rest.trim().trim_end_matches('#').trim_end();
        let base = slug(title);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// The page's path relative to the project, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// `%20` and the like in a link's path, decoded.
fn percent_decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        if let (b'%', Some(Ok(b))) = (bytes[i], hex.map(|h| u8::from_str_radix(h, 16))) {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One line for each link of `file` that leads nowhere.
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let dir = file.parent().expect("a page lies in a folder");
    let mut broken = Vec::new();
    for Link { line, target } in links(&without_code(&text)) {
        let lower = target.to_ascii_lowercase();
        if target.is_empty()
            || lower.starts_with("http:")
            || lower.starts_with("https:")
            || lower.starts_with("mailto:")
        {
            continue;
        }
        let at = format!("{}:{line}", shown(file));
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let linked = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(percent_decoded(path))
        };
        if !linked.exists() {
            broken.push(format!(
                "{at}: ({target}) links to {}, which does not exist",
                shown(&linked)
            ));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if linked.extension().is_some_and(|e| e == "md") {
            let page = std::fs::read_to_string(&linked)
                .unwrap_or_else(|e| panic!("{}: {e}", linked.display()));
            if !anchors(&page).contains(anchor) {
                broken.push(format!(
                    "{at}: ({target}) names #{anchor}, which is not a heading of {}",
                    shown(&linked)
                ));
            }
        } else if !is_line_anchor(anchor) {
            broken.push(format!(
                "{at}: ({target}) names #{anchor} in {}, which is not a Markdown page",
                shown(&linked)
            ));
        }
    }
    broken
}

/// GitHub's anchor of a line, or of a range of lines, in a file it shows as code: `L12`,
/// `L12-L20`.
fn is_line_anchor(anchor: &str) -> bool {
    let line = |s: &str| {
        s.strip_prefix('L')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match anchor.split_once('-') {
        Some((a, b)) => line(a) && line(b),
        None => line(anchor),
    }
}

#[test]
fn every_relative_link_of_the_docs_leads_somewhere() {
    let files = doc_files();
    assert!(
        files.len() > 5,
        "the README and the pages of docs/ were found"
    );
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        checked += links(&without_code(&text)).len();
        broken.extend(broken_links(file));
    }
    assert!(checked > 100, "the links were found ({checked})");
    assert!(
        broken.is_empty(),
        "{} broken link(s):\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn the_readme_is_one_page() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; it keeps within {README_MAX_LINES}, and the rest goes to docs/"
    );
}

#[test]
fn headings_are_slugged_as_github_slugs_them() {
    for (heading, anchor) in [
        (
            "A worked example: were records lost?",
            "a-worked-example-were-records-lost",
        ),
        (
            "`ClusterState` (the top level)",
            "clusterstate-the-top-level",
        ),
        (
            "1. Controller election and ZooKeeper",
            "1-controller-election-and-zookeeper",
        ),
        (
            "2. Broker failure and startup, partition leader election",
            "2-broker-failure-and-startup-partition-leader-election",
        ),
        ("Scenarios (`www/scenarios/`)", "scenarios-wwwscenarios"),
        ("`config` settings", "config-settings"),
        ("The bundle's addresses", "the-bundles-addresses"),
        ("A [linked](x.md) heading", "a-linked-heading"),
        ("snake_case and kebab-case", "snake_case-and-kebab-case"),
    ] {
        assert_eq!(slug(heading), anchor, "{heading}");
    }
    let page = "# Title\n\n## Notes\n\n```md\n## Not a heading\n```\n\n### Notes\n\n## `x` y ##\n";
    let found = anchors(page);
    let expected: BTreeSet<String> = ["title", "notes", "notes-1", "x-y"]
        .map(String::from)
        .into();
    assert_eq!(found, expected);
}

#[test]
fn links_are_read_as_markdown_reads_them() {
    let text = "See [one](a.md), ![an image](b.png) and [two\nlines](c.md#d).\n\n\
                `[in code](no.md)` and [not a link] (no.md).\n\n```\n[fenced](no.md)\n```\n\
                [paren](f(1).md) [angle](<g h.md>) [titled](i.md \"title\")\n";
    let found: Vec<(usize, String)> = links(&without_code(text))
        .into_iter()
        .map(|l| (l.line, l.target))
        .collect();
    let expected: Vec<(usize, String)> = [
        (1, "a.md"),
        (1, "b.png"),
        (1, "c.md#d"),
        (9, "f(1).md"),
        (9, "g h.md"),
        (9, "i.md"),
    ]
    .map(|(l, t)| (l, t.to_string()))
    .into();
    assert_eq!(found, expected);
}

//! No file of the project keeps a merge's conflict markers (README.md once did, for a stop).
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::{Path, PathBuf};

/// The project's own text files: everything but build output, installed packages and git's.
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if !matches!(
                name.as_str(),
                ".git" | "target" | "dist" | "node_modules" | "test-results" | "playwright-report"
            ) {
                text_files(&path, out);
            }
        } else if [
            "rs", "md", "toml", "json", "js", "mjs", "ts", "html", "css", "sh", "py", "yml",
        ]
        .iter()
        .any(|ext| name.ends_with(&format!(".{ext}")))
        {
            out.push(path);
        }
    }
}

#[test]
fn no_file_keeps_conflict_markers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    text_files(root, &mut files);
    assert!(files.len() > 100, "the walk found the project's files");
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("<<<<<<< ") || line.starts_with(">>>>>>> ") || line == "=======" {
                found.push(format!(
                    "{}:{}",
                    file.strip_prefix(root).unwrap_or(&file).display(),
                    n + 1
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "conflict markers left by a merge: {found:?}"
    );
}

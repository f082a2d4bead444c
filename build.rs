//! Writes each story file's title (`www/scenarios/<name>.json`, its `title`) into the build, so
//! that the page lists the stories without parsing them: parsing a story checks it in full (it
//! builds a world), work the page's first view need not do, and code it need not download
//! (`src/ui/stories.rs`, `title`).
//!
//! For WebAssembly, it also asks the linker for a map of the page's module,
//! `kafka-election-playground.map` beside the module in cargo's output folder: where each object
//! of its data lies, which the build's split uses to move the data only the later part of the
//! module reads (`www/split/src/data.rs`). Given that map, the linker script of the WebAssembly
//! builds (`www/scripts/wasm-ld`) also links a copy with its relocations beside it.
// Build-time code, not in the page's module: std's sorts and collections are fine here.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::Path;

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        // OUT_DIR is <target>/wasm32-unknown-unknown/<profile>/build/<package>-<hash>/out.
        let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
        if let Some(folder) = Path::new(&out).ancestors().nth(3) {
            let map = folder.join("kafka-election-playground.map");
            println!(
                "cargo:rustc-link-arg-bin=kafka-election-playground=--Map={}",
                map.display()
            );
        }
    }
    let dir = Path::new("www/scenarios");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("www/scenarios is readable")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    let mut out = String::from("&[\n");
    for path in names {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a story file is readable");
        // A file that is not JSON, or has no title, gets no entry: `cargo test` reports the file.
        let Ok(file) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let Some(title) = file.get("title").and_then(|t| t.as_str()) else {
            continue;
        };
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a file name in UTF-8");
        out.push_str(&format!("    ({name:?}, {title:?}),\n"));
    }
    out.push(']');
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("story_titles.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

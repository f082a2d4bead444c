//! Splits the page's WebAssembly module (after wasm-bindgen and wasm-opt) in two, so that the
//! first view downloads only the code it runs:
//!
//! ```text
//! split-module instrument IN.wasm OUT.wasm
//! split-module split IN.wasm PROFILE PRIMARY.wasm SECONDARY.wasm [--data MAP RELOCS.wasm]
//!     [--short-imports MODULE NAMES.txt]
//! split-module report NAMED.wasm PROFILE
//! ```
//!
//! `report` prints where the kept code's bytes go, by crate and module, given the same module
//! built with its names (`wasm-opt -Oz -g --one-caller-inline-max-function-size 0` on
//! wasm-bindgen's output, as Trunk runs it without `-g`: the functions then have the same
//! indices) and a profile.
//!
//! `instrument` writes a copy of the module that calls the import `__profile.hit(i)` the first
//! time function `i` runs (`i` is the function's index in the module). The build
//! (`www/scripts/split-module.mjs`) opens the page with that copy, does what a learner does
//! first, and writes the indices it saw, one per line: the profile.
//!
//! `split` keeps the profiled functions in the primary module and moves every other function
//! into the secondary one:
//! - In the primary, each moved function becomes an import, `s.<i>`, of the same type, so
//!   every call, table entry and export that named it now names the import. The page's glue
//!   answers those imports with functions that load the secondary module (once) and call its
//!   export `<i>`.
//! - The secondary holds the moved functions' bodies. It imports from the primary's exports
//!   (module `p`) everything they use: the primary's functions (`p.f<i>`), its memory
//!   (`p.m<i>`), tables (`p.t<i>`) and globals (`p.g<i>`), which the primary exports under
//!   those names. It has no data segments of its own: the primary's are already in the shared
//!   memory. Its one kind of table segment writes its functions over the primary's table slots
//!   that named moved functions, so that once it is there an indirect call to one of them goes
//!   straight to it, not through JavaScript.
//! - A function whose type has a `v128` stays in the primary (JavaScript cannot pass one), and
//!   a module with exception tags is refused; the tool checks at the end that each module
//!   imports only what the other exports.
//!
//! `--short-imports MODULE NAMES.txt` gives the primary's imports from `MODULE` (wasm-bindgen's
//! glue, whose import names carry a hash: `__wbg_addEventListener_70e3766f6252144d`) short names
//! in a module named `b` (`a`, `b`, … `Z`, `aa`, …, in the order of the import section), and
//! writes each `ORIGINAL SHORT` pair on a line of NAMES.txt, for the build to rename the glue's
//! imports object to match. The names are a fifth of the primary's import section, and repeated
//! in the glue.
//!
//! Both modules are written with their unused parts removed. The secondary refuses to be made
//! if a moved function uses a passive data or element segment (it would not have it).
mod data;

use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

use walrus::ir::{Value, Visitor};
use walrus::{
    ConstExpr, ElementItems, ElementKind, ExportItem, FunctionId, FunctionKind, GlobalKind,
    ImportKind, ImportedFunction, LocalFunction, Module, TableId, ValType,
};

/// Functions whose body is at most this many bytes stay in the primary whatever the profile says.
const KEEP_SMALL: usize = 16;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["instrument", input, output] => instrument(input, output),
        ["split", input, profile, primary, secondary, options @ ..] => {
            match split_options(options) {
                Some((data, short)) => split(input, profile, primary, secondary, data, short),
                None => Err(USAGE.to_string()),
            }
        }
        ["report", named, profile] => report(named, profile),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("split-module: {message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: split-module instrument IN.wasm OUT.wasm
       split-module split IN.wasm PROFILE PRIMARY.wasm SECONDARY.wasm [--data MAP RELOCS.wasm] [--short-imports MODULE NAMES.txt]
       split-module report NAMED.wasm PROFILE";

/// The module of the primary's imports that stand for the moved functions.
const SPLIT: &str = "s";
/// The module that `--short-imports` gives the imports it renames.
const SHORT: &str = "b";

/// `split`'s options: `--data MAP RELOCS` and `--short-imports MODULE NAMES`, each at most once,
/// in either order.
#[allow(clippy::type_complexity)]
fn split_options<'a>(
    mut options: &[&'a str],
) -> Option<(Option<(&'a str, &'a str)>, Option<(&'a str, &'a str)>)> {
    let (mut data, mut short) = (None, None);
    while let [flag, a, b, rest @ ..] = options {
        let slot = match *flag {
            "--data" => &mut data,
            "--short-imports" => &mut short,
            _ => return None,
        };
        if slot.replace((*a, *b)).is_some() {
            return None;
        }
        options = rest;
    }
    options.is_empty().then_some((data, short))
}

/// The `n`th short name: `a` … `z`, `A` … `Z`, then `aa`, `ab`, … (letters only, so that each is
/// a name JavaScript takes as a property without quotes).
fn short_name(mut n: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = Vec::new();
    loop {
        name.push(LETTERS[n % LETTERS.len()]);
        n /= LETTERS.len();
        if n == 0 {
            break;
        }
        n -= 1;
    }
    name.reverse();
    String::from_utf8(name).expect("letters")
}

/// Renames the imports of `module` (see `--short-imports`); the pairs, one per line.
fn shorten_imports(primary: &mut Module, module: &str) -> Result<String, String> {
    if primary.imports.iter().any(|i| i.module == SHORT) {
        return Err(format!(
            "the module already imports from {SHORT}, the module --short-imports renames to"
        ));
    }
    let mut names = String::new();
    let mut n = 0;
    for import in primary.imports.iter_mut().filter(|i| i.module == module) {
        let short = short_name(n);
        n += 1;
        names.push_str(&format!("{} {short}\n", import.name));
        import.module = SHORT.to_string();
        import.name = short;
    }
    if n == 0 {
        return Err(format!("the primary imports nothing from {module}"));
    }
    Ok(names)
}

fn read(path: &str) -> Result<Module, String> {
    parse(path, &read_bytes(path)?)
}

fn read_bytes(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
}

fn parse(path: &str, bytes: &[u8]) -> Result<Module, String> {
    Module::from_buffer(bytes).map_err(|e| format!("{path} is not a module walrus reads: {e}"))
}

fn write(module: &mut Module, path: &str) -> Result<usize, String> {
    let bytes = module.emit_wasm();
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {path}: {e}"))?;
    Ok(bytes.len())
}

/// The bytes of a function's body in the module it was read from.
fn body_size(local: &LocalFunction) -> Option<usize> {
    local.original_range.as_ref().map(|r| r.end - r.start)
}

/// The module's functions in index order (imports first, as in the binary).
fn functions(module: &Module) -> Vec<FunctionId> {
    module.funcs.iter().map(|f| f.id()).collect()
}

fn instrument(input: &str, output: &str) -> Result<(), String> {
    let mut module = read(input)?;
    let ids = functions(&module);
    let ty = module.types.add(&[ValType::I32], &[]);
    let (hit, _) = module.add_import_func("__profile", "hit", ty);
    let mut probes = 0;
    for (index, id) in ids.into_iter().enumerate() {
        if !matches!(module.funcs.get(id).kind, FunctionKind::Local(_)) {
            continue;
        }
        let seen =
            module
                .globals
                .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
        let index = i32::try_from(index).map_err(|_| "too many functions".to_string())?;
        let local = module.funcs.get_mut(id).kind.unwrap_local_mut();
        let mut body = local.builder_mut().func_body();
        // if (!seen) { seen = 1; __profile.hit(index) }
        body.global_get_at(0, seen);
        body.unop_at(1, walrus::ir::UnaryOp::I32Eqz);
        body.if_else_at(
            2,
            None,
            |then| {
                then.i32_const(1)
                    .global_set(seen)
                    .i32_const(index)
                    .call(hit);
            },
            |_| {},
        );
        probes += 1;
    }
    let size = write(&mut module, output)?;
    println!("split-module: {output}: {probes} functions instrumented, {size} bytes");
    Ok(())
}

fn read_profile(path: &str) -> Result<BTreeSet<usize>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.parse::<usize>()
                .map_err(|_| format!("{path}: not a function index: {l:?}"))
        })
        .collect()
}

fn split(
    input: &str,
    profile: &str,
    primary_path: &str,
    secondary_path: &str,
    data: Option<(&str, &str)>,
    short: Option<(&str, &str)>,
) -> Result<(), String> {
    let ran = read_profile(profile)?;
    let mut primary = read(input)?;
    let mut secondary = read(input)?;
    if primary.imports.iter().any(|i| i.module == SPLIT) {
        return Err(format!(
            "{input} already imports from {SPLIT}, the module the split's imports use"
        ));
    }
    let p_ids = functions(&primary);
    let s_ids = functions(&secondary);
    // The secondary's functions by id, to their index (the name both modules share).
    let index_of: BTreeMap<FunctionId, usize> =
        s_ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    if let Some(&bad) = ran.iter().find(|&&i| i >= p_ids.len()) {
        return Err(format!(
            "{profile} names function {bad}, the module has {}",
            p_ids.len()
        ));
    }
    // The start function runs at instantiation: it stays whatever the profile says.
    let start = primary
        .start
        .map(|s| p_ids.iter().position(|&id| id == s).unwrap_or(usize::MAX));
    if primary.tags.iter().next().is_some() {
        return Err("the module has exception tags, which the split does not share".to_string());
    }
    // A call into the secondary goes through JavaScript until it has arrived, and a v128 value
    // cannot: such a function stays.
    let crosses_js = |id: FunctionId| {
        let ty = primary.types.get(primary.funcs.get(id).ty());
        !ty.params()
            .iter()
            .chain(ty.results())
            .any(|t| *t == ValType::V128)
    };
    // A function whose body is a few bytes stays too: moved, it would cost the primary an import
    // as large, and such functions (a closure's drop glue, a trivial getter) are the ones a
    // first view calls or not by the timing of its renders, which a profile cannot promise to see.
    let small = |id: FunctionId| match &primary.funcs.get(id).kind {
        FunctionKind::Local(local) => body_size(local).is_some_and(|n| n <= KEEP_SMALL),
        _ => false,
    };
    let moved: BTreeSet<usize> = p_ids
        .iter()
        .enumerate()
        .filter(|&(i, &id)| {
            matches!(primary.funcs.get(id).kind, FunctionKind::Local(_))
                && !ran.contains(&i)
                && !small(id)
                && Some(i) != start
                && crosses_js(id)
        })
        .map(|(i, _)| i)
        .collect();
    if moved.is_empty() {
        return Err("the profile names every function: nothing to move".to_string());
    }
    // The read-only data only moved functions use (see data.rs).
    let image = data::image(&primary)?;
    let ranges = match data {
        None => Vec::new(),
        Some((map, relocs)) => {
            // The linker's output, linked with its relocations (www/scripts/wasm-ld): checked
            // against this module's data, then read for the relocations.
            let objects = data::read_map(map)?;
            let bytes = read_bytes(relocs)?;
            data::check_image(&image, &parse(relocs, &bytes)?, &objects, map)?;
            let relocations = data::relocations(&bytes).map_err(|e| format!("{relocs}: {e}"))?;
            data::plan(&primary, &image, &objects, &relocations, |i| {
                moved.contains(&i)
            })?
        }
    };

    // The secondary: the moved functions, exported under their index; everything else an import.
    // Every import is made again below, from the primary: its own imports (the glue's functions)
    // are the primary's to answer, through its exports.
    let imports: Vec<_> = secondary.imports.iter().map(|i| i.id()).collect();
    for id in imports {
        secondary.imports.delete(id);
    }
    for export in secondary.exports.iter().map(|e| e.id()).collect::<Vec<_>>() {
        secondary.exports.delete(export);
    }
    secondary.start = None;
    for (index, &id) in s_ids.iter().enumerate() {
        if moved.contains(&index) {
            secondary.exports.add(&index.to_string(), id);
        } else {
            let ty = secondary.funcs.get(id).ty();
            let import = secondary
                .imports
                .add("p", &format!("f{index}"), ImportKind::Function(id));
            secondary.funcs.get_mut(id).kind =
                FunctionKind::Import(ImportedFunction { import, ty });
        }
    }
    let memories: Vec<_> = secondary.memories.iter().map(|m| m.id()).collect();
    for (index, id) in memories.iter().enumerate() {
        let import = secondary
            .imports
            .add("p", &format!("m{index}"), ImportKind::Memory(*id));
        let memory = secondary.memories.get_mut(*id);
        memory.import = Some(import);
        memory.data_segments.clear();
    }
    let tables: Vec<_> = secondary.tables.iter().map(|t| t.id()).collect();
    for (index, id) in tables.iter().enumerate() {
        let import = secondary
            .imports
            .add("p", &format!("t{index}"), ImportKind::Table(*id));
        let table = secondary.tables.get_mut(*id);
        table.import = Some(import);
        table.init = None;
        table.elem_segments.clear();
    }
    let globals: Vec<_> = secondary.globals.iter().map(|g| g.id()).collect();
    for (index, id) in globals.iter().enumerate() {
        let import = secondary
            .imports
            .add("p", &format!("g{index}"), ImportKind::Global(*id));
        secondary.globals.get_mut(*id).kind = GlobalKind::Import(import);
    }
    // Segments the moved code would need but the secondary does not have.
    for (id, local) in secondary.funcs.iter_local() {
        let index = index_of[&id];
        if !moved.contains(&index) {
            continue;
        }
        let mut segments = Segments(false);
        walrus::ir::dfs_in_order(&mut segments, local, local.entry_block());
        if segments.0 {
            return Err(format!(
                "function {index} uses a passive segment: it cannot be moved"
            ));
        }
    }
    // The primary's table entries for moved functions hold its imports (the glue's functions,
    // which call into the secondary); the secondary writes its own functions over those slots
    // when it is instantiated, so an indirect call to one stays inside WebAssembly from then on.
    let mut slots: Vec<(TableId, i32, FunctionId)> = Vec::new();
    for elem in secondary.elements.iter() {
        if let (
            ElementKind::Active {
                table,
                offset: ConstExpr::Value(Value::I32(base)),
            },
            ElementItems::Functions(items),
        ) = (&elem.kind, &elem.items)
        {
            for (k, f) in items.iter().enumerate() {
                if index_of.get(f).is_some_and(|i| moved.contains(i)) {
                    slots.push((*table, base + k as i32, *f));
                }
            }
        }
    }
    for data in secondary.data.iter().map(|d| d.id()).collect::<Vec<_>>() {
        secondary.data.delete(data);
    }
    let data_moved = data::apply(&mut primary, &mut secondary, &image, &ranges)?;
    for elem in secondary
        .elements
        .iter()
        .map(|e| e.id())
        .collect::<Vec<_>>()
    {
        secondary.elements.delete(elem);
    }
    // Runs of neighbouring slots, one segment each.
    slots.sort_by_key(|&(table, offset, _)| (table, offset));
    let mut run: Vec<FunctionId> = Vec::new();
    for (k, &(table, offset, f)) in slots.iter().enumerate() {
        run.push(f);
        let next = slots.get(k + 1);
        if next.is_none_or(|&(t, o, _)| t != table || o != offset + 1) {
            let start = offset + 1 - run.len() as i32;
            let elem = secondary.elements.add(
                ElementKind::Active {
                    table,
                    offset: ConstExpr::Value(Value::I32(start)),
                },
                ElementItems::Functions(std::mem::take(&mut run)),
            );
            secondary.tables.get_mut(table).elem_segments.insert(elem);
        }
    }
    secondary.customs = Default::default();
    walrus::passes::gc::run(&mut secondary);

    // What the secondary takes from the primary.
    let mut needs: Vec<String> = secondary.imports.iter().map(|i| i.name.clone()).collect();
    needs.sort();

    // The primary: each moved function an import of `s`; what the secondary needs exported.
    for (index, &id) in p_ids.iter().enumerate() {
        if moved.contains(&index) {
            let ty = primary.funcs.get(id).ty();
            let import = primary
                .imports
                .add(SPLIT, &index.to_string(), ImportKind::Function(id));
            primary.funcs.get_mut(id).kind = FunctionKind::Import(ImportedFunction { import, ty });
        }
    }
    let memories: Vec<_> = primary.memories.iter().map(|m| m.id()).collect();
    let tables: Vec<_> = primary.tables.iter().map(|t| t.id()).collect();
    let globals: Vec<_> = primary.globals.iter().map(|g| g.id()).collect();
    if let Some(taken) = primary.exports.iter().find(|e| needs.contains(&e.name)) {
        return Err(format!(
            "the module already exports {}, a name the split gives the secondary's imports",
            taken.name
        ));
    }
    for name in &needs {
        let (kind, number) = name.split_at(1);
        let number: usize = number
            .parse()
            .map_err(|_| format!("unexpected import {name}"))?;
        let item = match kind {
            "f" => ExportItem::Function(p_ids[number]),
            "m" => ExportItem::Memory(memories[number]),
            "t" => ExportItem::Table(tables[number]),
            "g" => ExportItem::Global(globals[number]),
            _ => return Err(format!("unexpected import {name}")),
        };
        primary.exports.add(name, item);
    }
    walrus::passes::gc::run(&mut primary);

    // The secondary exports only what the primary still calls through `s`.
    let called: BTreeSet<String> = primary
        .imports
        .iter()
        .filter(|i| i.module == SPLIT)
        .map(|i| i.name.clone())
        .collect();
    for export in secondary
        .exports
        .iter()
        .filter(|e| !called.contains(&e.name))
        .map(|e| e.id())
        .collect::<Vec<_>>()
    {
        secondary.exports.delete(export);
    }
    walrus::passes::gc::run(&mut secondary);
    // Every import of the secondary is an export of the primary of the same kind, and every
    // `s` import of the primary an export of the secondary.
    for import in secondary.imports.iter() {
        let export = primary
            .exports
            .iter()
            .find(|e| import.module == "p" && e.name == import.name);
        let same_kind = matches!(
            (export.map(|e| &e.item), &import.kind),
            (Some(ExportItem::Function(_)), ImportKind::Function(_))
                | (Some(ExportItem::Memory(_)), ImportKind::Memory(_))
                | (Some(ExportItem::Table(_)), ImportKind::Table(_))
                | (Some(ExportItem::Global(_)), ImportKind::Global(_))
        );
        if !same_kind {
            return Err(format!(
                "the secondary imports {}.{}, which the primary does not export as such",
                import.module, import.name
            ));
        }
    }
    for import in primary.imports.iter().filter(|i| i.module == SPLIT) {
        if !secondary.exports.iter().any(|e| e.name == import.name) {
            return Err(format!(
                "the primary calls {} in the secondary, which does not export it",
                import.name
            ));
        }
    }

    if let Some((module, names_path)) = short {
        let names = shorten_imports(&mut primary, module)?;
        std::fs::write(names_path, names).map_err(|e| format!("cannot write {names_path}: {e}"))?;
    }
    let p_size = write(&mut primary, primary_path)?;
    let s_size = write(&mut secondary, secondary_path)?;
    println!(
        "split-module: {} functions ran and stay ({p_size} bytes, {primary_path}); {} moved ({s_size} bytes, {secondary_path}); {} called across; {data_moved} bytes of read-only data moved in {} ranges",
        p_ids.len() - moved.len(),
        moved.len(),
        called.len(),
        ranges.len()
    );
    Ok(())
}

/// Whether a function names a data or element segment (memory.init, data.drop, table.init,
/// elem.drop).
struct Segments(bool);

impl<'instr> Visitor<'instr> for Segments {
    fn visit_data_id(&mut self, _: &walrus::DataId) {
        self.0 = true;
    }
    fn visit_element_id(&mut self, _: &walrus::ElementId) {
        self.0 = true;
    }
}

fn report(named: &str, profile: &str) -> Result<(), String> {
    let ran = read_profile(profile)?;
    let module = read(named)?;
    let mut by_part: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut kept: Vec<(u64, String)> = Vec::new();
    for (index, function) in module.funcs.iter().enumerate() {
        let FunctionKind::Local(local) = &function.kind else {
            continue;
        };
        let size = body_size(local).unwrap_or(0) as u64;
        let name = function.name.clone().unwrap_or_else(|| format!("#{index}"));
        let entry = by_part.entry(part(&name)).or_default();
        if ran.contains(&index) {
            entry.0 += size;
            kept.push((size, name));
        } else {
            entry.1 += size;
        }
    }
    let mut parts: Vec<_> = by_part.into_iter().collect();
    parts.sort_by_key(|(_, (kept, _))| std::cmp::Reverse(*kept));
    println!(
        "{:>10} {:>10}  part (bytes of code kept in the first view, moved to the second module)",
        "kept", "moved"
    );
    // REPORT_ALL=1 lists every part and every kept function (for comparing two builds).
    let all = std::env::var("REPORT_ALL").is_ok_and(|v| v == "1");
    for (name, (k, m)) in parts.iter().take(if all { usize::MAX } else { 40 }) {
        println!("{k:>10} {m:>10}  {name}");
    }
    let total: (u64, u64) = parts
        .iter()
        .fold((0, 0), |a, (_, (k, m))| (a.0 + k, a.1 + m));
    println!("{:>10} {:>10}  total", total.0, total.1);
    kept.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
    println!("\nlargest kept functions:");
    for (size, name) in kept.iter().take(if all { usize::MAX } else { 60 }) {
        println!("{size:>10}  {name}");
    }
    Ok(())
}

/// A function's crate and first module: `kafka_election_playground::sim::world`, `alloc::fmt`.
fn part(name: &str) -> String {
    let name = name.trim_start_matches('<').trim_start_matches('&');
    let mut segments = name.split("::");
    let first = segments.next().unwrap_or("");
    let mut out = first.to_string();
    if let Some(second) = segments.next() {
        let second: String = second
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !second.is_empty() {
            out.push_str("::");
            out.push_str(&second);
        }
        if first == "kafka_election_playground" {
            if let Some(third) = segments.next() {
                let third: String = third
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !third.is_empty() && third.chars().next().is_some_and(|c| c.is_lowercase()) {
                    out.push_str("::");
                    out.push_str(&third);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_are_letters_and_never_repeat() {
        let names: Vec<String> = (0..52 * 53 + 5).map(short_name).collect();
        assert_eq!(&names[..3], ["a", "b", "c"]);
        assert_eq!(names[51], "Z");
        assert_eq!(&names[52..54], ["aa", "ab"]);
        assert_eq!(names[52 + 52 * 52 - 1], "ZZ");
        assert_eq!(names[52 + 52 * 52], "aaa");
        let distinct: BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert!(names
            .iter()
            .all(|n| n.bytes().all(|b| b.is_ascii_alphabetic())));
    }

    #[test]
    fn split_takes_its_options_in_either_order_once_each() {
        let data = Some(("M", "R"));
        let short = Some(("x.js", "N"));
        assert_eq!(split_options(&[]), Some((None, None)));
        assert_eq!(split_options(&["--data", "M", "R"]), Some((data, None)));
        assert_eq!(
            split_options(&["--short-imports", "x.js", "N", "--data", "M", "R"]),
            Some((data, short))
        );
        assert_eq!(split_options(&["--data", "M"]), None);
        assert_eq!(
            split_options(&["--data", "M", "R", "--data", "M", "R"]),
            None
        );
        assert_eq!(split_options(&["--other", "M", "R"]), None);
    }

    #[test]
    fn short_imports_rename_one_module_and_list_the_pairs() {
        let mut module = Module::default();
        let ty = module.types.add(&[], &[]);
        module.add_import_func("./glue.js", "__wbg_now_043d245551b22f9c", ty);
        module.add_import_func("s", "12", ty);
        module.add_import_func("./glue.js", "__wbg_focus_43af168e365d2420", ty);
        let names = shorten_imports(&mut module, "./glue.js").unwrap();
        assert_eq!(
            names,
            "__wbg_now_043d245551b22f9c a\n__wbg_focus_43af168e365d2420 b\n"
        );
        let imports: Vec<(&str, &str)> = module
            .imports
            .iter()
            .map(|i| (i.module.as_str(), i.name.as_str()))
            .collect();
        assert_eq!(imports, [("b", "a"), ("s", "12"), ("b", "b")]);
        // Nothing left to rename, or the new module's name already taken: refused.
        assert!(shorten_imports(&mut module, "./glue.js").is_err());
    }
}

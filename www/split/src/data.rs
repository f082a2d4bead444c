//! Read-only data that only moved functions use goes to the secondary with them.
//!
//! The module's data is one image in linear memory, laid out by the linker. Its map (wasm-ld's
//! `--Map`, which `build.rs` asks for) names each object the linker placed: where it starts, how
//! long it is, and in which output section (`.rodata`, `.data`, `.bss`). Neither wasm-bindgen
//! nor wasm-opt moves data (wasm-opt only drops runs of zeros), so the addresses in the map are
//! still those of the final module; [`check_image`] makes sure of it against the linker's own
//! output (the copy `www/scripts/wasm-ld` links with relocations) before anything is moved.
//!
//! An object is moved when moved code reaches it and kept code cannot:
//! - Code reaches memory through addresses written in it: an `i32.const`, either half of an
//!   `i64.const` (the compiler stores a `&str`, address and length, as one 64-bit word, and
//!   wasm-opt folds the two into one constant), or a load's or store's offset. An address
//!   reaches the object it is in and the one it points just past (an end pointer, read
//!   backwards).
//! - An address need not lie in the object it names: the compiler folds `table[i - k]` into
//!   `(table - 4k) + 4i`, and writes `table - 4k`, an address in some other object, or in none.
//!   The linker knows which object each address in the code names, since it wrote it there for
//!   a symbol plus an addend. `www/scripts/wasm-ld` links the module a second time with
//!   `--emit-relocs`, and [`relocations`] reads those records: an address the linker wrote for
//!   a symbol reaches that symbol's object. Neither wasm-bindgen nor wasm-opt moves data, so
//!   the records hold for the final module's addresses.
//! - An address that no record names (the glue's own code; a constant wasm-opt folded from
//!   two) also reaches the objects that start up to [`SLACK`] bytes after it: a lookup table
//!   made of a `match` starts at its smallest case, so this covers tables whose smallest case
//!   is up to 512 (entries of 8 bytes, a `&str`). Strings are the exception: one is read from
//!   its start on, so only an address within it reaches it. (A folded constant that happened
//!   to equal another symbol's recorded address would be taken for that symbol's: on this
//!   module, 27 of the code's addresses into the data are not recorded ones, so a fold is
//!   rare, and `www/tests/split.spec.ts` checks that the first view, with the secondary held
//!   back, shows no text read from zeros.)
//! - An object reaches every object that one of its aligned 32-bit words points into or just
//!   past (a `&str` in a table of them, a vtable's pointers).
//! - Kept are: what the kept functions and the globals' initial values reach, every object of a
//!   writable section (`.data`, `.bss`), and all that those reach in turn. An object that no
//!   code reaches at all stays too.
//!
//! The linker's block of merged strings (`<internal>`) is one entry in the map; each string in
//! it, up to its zero byte, is an object of its own ([`strings`]).
//!
//! The moved objects' bytes leave the primary's data segments and become active data segments
//! of the secondary, which writes them into the shared memory when it is instantiated: before
//! any function that reads them can run, since those functions are the secondary's.
use std::collections::{BTreeMap, BTreeSet};

use walrus::ir::{Const, Load, Store, Value, Visitor};
use walrus::{ConstExpr, DataKind, FunctionKind, GlobalKind, Module};

/// How far before an object an address in code that no relocation names may point and still
/// count as reaching it (4 KB).
pub const SLACK: u32 = 4096;

/// One object the linker placed in memory.
#[derive(Debug, Clone)]
pub struct Object {
    pub start: u32,
    pub end: u32,
    /// In `.rodata`: read only, so it may move.
    pub read_only: bool,
    /// The linker's block of merged strings (`<internal>`), which [`plan`] cuts into its strings.
    pub strings: bool,
    /// One string of such a block.
    pub string: bool,
}

/// The objects of the map's DATA section, by address.
pub fn read_map(path: &str) -> Result<Vec<Object>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut lines = text.lines();
    let header = lines
        .next()
        .ok_or_else(|| format!("{path} is empty: not a linker map"))?;
    let column = |name: &str| {
        header
            .find(&format!(" {name} "))
            .or_else(|| header.find(&format!(" {name}")))
            .map(|c| c + 1)
    };
    let (Some(out_col), Some(in_col)) = (column("Out"), column("In")) else {
        return Err(format!(
            "{path} has no Out and In columns: not a wasm-ld map"
        ));
    };
    let mut objects = Vec::new();
    let mut in_data = false;
    let mut section = String::new();
    for line in lines {
        // The column a line's fourth field starts at tells a section from an object in it.
        let Some((column, name)) = fourth_field(line) else {
            continue;
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        if column == out_col {
            if fields[0] == "-" {
                // A section of the module: TYPE, CODE, DATA, CUSTOM(name)…
                in_data = name == "DATA";
            } else {
                // An output section inside DATA: `.rodata`, `.data`, `.bss`.
                section = name.to_string();
            }
            continue;
        }
        if !in_data || column != in_col || fields[0] == "-" {
            continue;
        }
        let hex = |s: &str| {
            u32::from_str_radix(s, 16).map_err(|_| format!("{path}: not an address: {line}"))
        };
        let start = hex(fields[0])?;
        let size = hex(fields[2])?;
        if size == 0 {
            continue;
        }
        objects.push(Object {
            start,
            end: start + size,
            read_only: section == ".rodata",
            strings: fields[3].starts_with("<internal>:"),
            string: false,
        });
    }
    if objects.is_empty() {
        return Err(format!("{path} places no data: not the map of this module"));
    }
    objects.sort_by_key(|o| o.start);
    for pair in objects.windows(2) {
        if pair[0].end > pair[1].start {
            return Err(format!(
                "{path}: objects at {:#x} and {:#x} overlap",
                pair[0].start, pair[1].start
            ));
        }
    }
    Ok(objects)
}

/// Where a map line's fourth field starts, and the field.
fn fourth_field(line: &str) -> Option<(usize, &str)> {
    let mut seen = 0;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        if c != ' ' && previous == ' ' {
            seen += 1;
            if seen == 4 {
                let rest = &line[i..];
                return Some((i, rest.split_whitespace().next().unwrap_or(rest)));
            }
        }
        previous = c;
    }
    None
}

/// A memory image: where it starts, and its bytes.
pub type Image = (u32, Vec<u8>);

/// The module's memory image as its active data segments write it.
pub fn image(module: &Module) -> Result<Image, String> {
    let mut pieces = Vec::new();
    for data in module.data.iter() {
        match &data.kind {
            DataKind::Active {
                offset: ConstExpr::Value(Value::I32(at)),
                ..
            } => pieces.push((*at as u32, &data.value)),
            DataKind::Active { .. } => {
                return Err("a data segment's address is not a constant".to_string())
            }
            DataKind::Passive => {}
        }
    }
    let start = pieces.iter().map(|p| p.0).min().unwrap_or(0);
    let end = pieces
        .iter()
        .map(|p| p.0 + p.1.len() as u32)
        .max()
        .unwrap_or(0);
    let mut bytes = vec![0u8; (end - start) as usize];
    for (at, value) in pieces {
        let from = (at - start) as usize;
        bytes[from..from + value.len()].copy_from_slice(value);
    }
    Ok((start, bytes))
}

/// The final module's data (its `image`) must be the linker's, byte for byte (zeros at either
/// end aside), and lie within the map's objects: otherwise the map is not this module's.
pub fn check_image(
    image: &Image,
    linked: &Module,
    objects: &[Object],
    map: &str,
) -> Result<(), String> {
    let trim = |(start, bytes): &Image| {
        let first = bytes.iter().position(|&x| x != 0).unwrap_or(bytes.len());
        let last = bytes.iter().rposition(|&x| x != 0).map_or(first, |i| i + 1);
        (start + first as u32, bytes[first..last].to_vec())
    };
    let ours = trim(image);
    if ours != trim(&self::image(linked)?) {
        return Err(
            "the module's data is not the linker's output's: the build moved it, so the map cannot be used"
                .to_string(),
        );
    }
    let (at, bytes) = ours;
    let (first, last) = (objects[0].start, objects[objects.len() - 1].end);
    if at < first || at + bytes.len() as u32 > last {
        return Err(format!(
            "the module's data ({at:#x}..{:#x}) lies outside {map}'s objects ({first:#x}..{last:#x}): the map is stale",
            at + bytes.len() as u32
        ));
    }
    Ok(())
}

/// The data symbols that the code's addresses name, by address: the address the linker wrote
/// (the symbol's plus the addend), and the extents of the symbols written there.
pub type Relocations = BTreeMap<u32, Vec<(u32, u32)>>;

/// Reads the relocations of the code of `bytes`, a copy of the module linked with
/// `--emit-relocs` (`www/scripts/wasm-ld` writes it beside the map; [`check_image`] makes sure
/// its data is the final module's): each address the linker wrote into the code for a data
/// symbol, with that symbol's extent. So an address that the compiler wrote before a table
/// (`(table - 4k) + 4i`) is known to name the table.
pub fn relocations(bytes: &[u8]) -> Result<Relocations, String> {
    // The data segments' addresses, in the order the symbols number them.
    let mut segments = Vec::new();
    let mut linking = None;
    let mut code_relocs = None;
    let mut reader = Reader::new(bytes, 8);
    while !reader.done() {
        let id = reader.byte()?;
        let size = reader.uleb()? as usize;
        let body = reader.take(size)?;
        let mut section = Reader::new(body, 0);
        match id {
            11 => {
                for _ in 0..section.uleb()? {
                    match section.uleb()? {
                        0 => {
                            if section.byte()? != 0x41 {
                                return Err(
                                    "a data segment's offset is not an i32.const".to_string()
                                );
                            }
                            segments.push(section.sleb()? as u32);
                            section.byte()?;
                        }
                        _ => return Err("a data segment that is not active".to_string()),
                    }
                    let length = section.uleb()? as usize;
                    section.take(length)?;
                }
            }
            0 => {
                let length = section.uleb()? as usize;
                let name = section.take(length)?;
                match name {
                    b"linking" => linking = Some(section),
                    b"reloc.CODE" => code_relocs = Some(section),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    let (Some(mut linking), Some(mut relocs)) = (linking, code_relocs) else {
        return Err("it has no relocations (link it with --emit-relocs)".to_string());
    };
    // The symbol table: each data symbol's extent (None for the others).
    let mut symbols: Vec<Option<(u32, u32)>> = Vec::new();
    if linking.uleb()? != 2 {
        return Err("its linking section is not version 2".to_string());
    }
    while !linking.done() {
        let kind = linking.byte()?;
        let size = linking.uleb()? as usize;
        let mut sub = Reader::new(linking.take(size)?, 0);
        if kind != 8 {
            continue;
        }
        for _ in 0..sub.uleb()? {
            let kind = sub.byte()?;
            let flags = sub.uleb()?;
            let undefined = flags & 0x10 != 0;
            let explicit_name = flags & 0x40 != 0;
            symbols.push(match kind {
                // Data: a name, and where it is when it is defined here.
                1 => {
                    let length = sub.uleb()? as usize;
                    sub.take(length)?;
                    if undefined {
                        None
                    } else {
                        let segment = sub.uleb()? as usize;
                        let offset = sub.uleb()? as u32;
                        let size = sub.uleb()? as u32;
                        let base = *segments
                            .get(segment)
                            .ok_or("a data symbol in a segment it does not have")?;
                        Some((base + offset, base + offset + size))
                    }
                }
                // A section.
                3 => {
                    sub.uleb()?;
                    None
                }
                // A function, a global, a tag, a table: an index, and a name unless imported
                // under its own.
                0 | 2 | 4 | 5 => {
                    sub.uleb()?;
                    if !undefined || explicit_name {
                        let length = sub.uleb()? as usize;
                        sub.take(length)?;
                    }
                    None
                }
                _ => return Err(format!("a symbol of unknown kind {kind}")),
            });
        }
    }
    let mut found = Relocations::new();
    relocs.uleb()?;
    for _ in 0..relocs.uleb()? {
        let kind = relocs.byte()?;
        relocs.uleb()?;
        let symbol = relocs.uleb()? as usize;
        // The kinds that carry an addend (the memory addresses among them: 3, 4 and 5).
        let addend = match kind {
            3 | 4 | 5 | 8 | 9 | 11 | 14 | 15 | 16 | 17 | 21 | 22 | 23 | 25 => relocs.sleb()?,
            0 | 1 | 2 | 6 | 7 | 10 | 12 | 13 | 18 | 19 | 20 | 24 | 26 => 0,
            _ => return Err(format!("a relocation of unknown kind {kind}")),
        };
        if !matches!(kind, 3..=5) {
            continue;
        }
        if let Some(Some((start, end))) = symbols.get(symbol) {
            let address = (i64::from(*start) + addend) as u32;
            let extents = found.entry(address).or_default();
            if !extents.contains(&(*start, *end)) {
                extents.push((*start, *end));
            }
        }
    }
    Ok(found)
}

/// Reads the parts of a module's binary that [`relocations`] needs.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], at: usize) -> Self {
        Reader { bytes, at }
    }
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("the module ends too soon")?;
        self.at += 1;
        Ok(b)
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let part = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or("the module ends too soon")?;
        self.at += n;
        Ok(part)
    }
    fn uleb(&mut self) -> Result<u64, String> {
        let (mut value, mut shift) = (0u64, 0);
        loop {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
            if shift > 63 {
                return Err("a number too long".to_string());
            }
        }
    }
    fn sleb(&mut self) -> Result<i64, String> {
        let (mut value, mut shift) = (0i64, 0);
        loop {
            let b = self.byte()?;
            value |= i64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                if shift < 64 && b & 0x40 != 0 {
                    value |= -1 << shift;
                }
                return Ok(value);
            }
            if shift > 63 {
                return Err("a number too long".to_string());
            }
        }
    }
}

/// The addresses a function's code holds: its `i32.const`s, both halves of its `i64.const`s,
/// and its loads' and stores' offsets.
#[derive(Default)]
struct Addresses(Vec<u32>);

impl<'instr> Visitor<'instr> for Addresses {
    fn visit_const(&mut self, instr: &Const) {
        match instr.value {
            Value::I32(v) => self.0.push(v as u32),
            // Two words written at once: the compiler stores a `&str` (its address and length)
            // as one 64-bit value, and wasm-opt folds the two into one constant.
            Value::I64(v) => self.0.extend([v as u32, (v >> 32) as u32]),
            _ => {}
        }
    }
    fn visit_load(&mut self, instr: &Load) {
        if let Ok(v) = u32::try_from(instr.arg.offset) {
            self.0.push(v);
        }
    }
    fn visit_store(&mut self, instr: &Store) {
        if let Ok(v) = u32::try_from(instr.arg.offset) {
            self.0.push(v);
        }
    }
}

/// The objects an address reaches: the one it is in, the one it points just past (an end
/// pointer, read backwards), and those that start up to `slack` bytes after it, strings aside
/// (a string is read from its start on, never through an address before it).
fn reached(objects: &[Object], address: u32, slack: u32) -> impl Iterator<Item = usize> + '_ {
    let first = objects.partition_point(|o| o.end < address);
    objects[first..]
        .iter()
        .take_while(move |o| o.start <= address.saturating_add(slack))
        .enumerate()
        .filter(move |(_, o)| o.start <= address || !o.string)
        .map(move |(k, _)| first + k)
}

/// Everything reachable from `from` through the objects' words.
fn closure(objects: &[Object], image: &Image, from: BTreeSet<usize>) -> BTreeSet<usize> {
    let mut seen = from.clone();
    let mut todo: Vec<usize> = from.into_iter().collect();
    let (base, bytes) = image;
    while let Some(o) = todo.pop() {
        let object = &objects[o];
        let mut at = object.start.next_multiple_of(4);
        while at + 4 <= object.end {
            let word = if at >= *base && ((at - base) as usize + 4) <= bytes.len() {
                let k = (at - base) as usize;
                u32::from_le_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]])
            } else {
                0
            };
            for target in reached(objects, word, 0) {
                if seen.insert(target) {
                    todo.push(target);
                }
            }
            at += 4;
        }
    }
    seen
}

/// The objects, with the linker's blocks of merged strings cut into their strings.
///
/// wasm-ld merges only the data the compiler marks as strings: each ends with a zero byte and
/// holds no other (the format strings of `format!`, which end where a zero says so). Strings
/// that end alike share their bytes (`"run"` is the tail of `"rerun"`), so every address into a
/// string, its start or further in, lies between that string's start and its zero: each string
/// is an object of its own.
fn strings(objects: &[Object], image: &Image) -> Vec<Object> {
    let (base, bytes) = image;
    let mut out = Vec::with_capacity(objects.len());
    for object in objects {
        let inside = object.start >= *base && (object.end - base) as usize <= bytes.len();
        if !object.strings || !object.read_only || !inside {
            out.push(object.clone());
            continue;
        }
        let mut start = object.start;
        for at in object.start..object.end {
            if bytes[(at - base) as usize] == 0 || at + 1 == object.end {
                out.push(Object {
                    start,
                    end: at + 1,
                    read_only: true,
                    strings: false,
                    string: true,
                });
                start = at + 1;
            }
        }
    }
    out
}

/// The address ranges to move: read-only objects that moved functions reach and kept ones
/// cannot, merged where they touch. `image` is the module's; `moved(i)` tells whether function
/// `i` moves.
pub fn plan(
    module: &Module,
    image: &Image,
    objects: &[Object],
    relocations: &Relocations,
    moved: impl Fn(usize) -> bool,
) -> Result<Vec<(u32, u32)>, String> {
    let objects = &strings(objects, image);
    let mut kept_roots: BTreeSet<usize> = objects
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.read_only)
        .map(|(i, _)| i)
        .collect();
    let mut moved_roots = BTreeSet::new();
    for global in module.globals.iter() {
        if let GlobalKind::Local(ConstExpr::Value(Value::I32(v))) = global.kind {
            kept_roots.extend(reached(objects, v as u32, SLACK));
        }
    }
    for (index, function) in module.funcs.iter().enumerate() {
        let FunctionKind::Local(local) = &function.kind else {
            continue;
        };
        let mut addresses = Addresses::default();
        walrus::ir::dfs_in_order(&mut addresses, local, local.entry_block());
        let roots = if moved(index) {
            &mut moved_roots
        } else {
            &mut kept_roots
        };
        for address in addresses.0 {
            match relocations.get(&address) {
                // The linker wrote it for these symbols: their objects, and what it is in or
                // ends.
                Some(extents) => {
                    for &(start, end) in extents {
                        let first = objects.partition_point(|o| o.end <= start);
                        roots.extend(
                            (first..objects.len())
                                .take_while(|&i| objects[i].start < end.max(start + 1)),
                        );
                    }
                    roots.extend(reached(objects, address, 0));
                }
                None => roots.extend(reached(objects, address, SLACK)),
            }
        }
    }
    let kept = closure(objects, image, kept_roots);
    let wanted = closure(objects, image, moved_roots);
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for i in wanted.difference(&kept) {
        let o = &objects[*i];
        debug_assert!(o.read_only);
        match ranges.last_mut() {
            Some(last) if last.1 == o.start => last.1 = o.end,
            _ => ranges.push((o.start, o.end)),
        }
    }
    Ok(ranges)
}

/// Cuts `ranges` out of the primary's active data segments and gives them to the secondary as
/// active segments of its (imported) memory. `image` is the primary's. Returns the bytes moved.
pub fn apply(
    primary: &mut Module,
    secondary: &mut Module,
    image: &Image,
    ranges: &[(u32, u32)],
) -> Result<usize, String> {
    let (base, bytes) = image;
    let inside = |a: u32, b: u32| -> &[u8] {
        let from = (a.max(*base) - base) as usize;
        let to = ((b - base) as usize).min(bytes.len());
        if from >= to {
            &[]
        } else {
            &bytes[from..to]
        }
    };
    // The primary: each segment, less the moved ranges.
    let segments: Vec<_> = primary.data.iter().map(|d| d.id()).collect();
    for id in segments {
        let data = primary.data.get(id);
        let DataKind::Active {
            memory,
            offset: ConstExpr::Value(Value::I32(at)),
        } = data.kind
        else {
            continue;
        };
        let (start, end) = (at as u32, at as u32 + data.value.len() as u32);
        if !ranges.iter().any(|&(a, b)| a < end && b > start) {
            continue;
        }
        let mut pieces = Vec::new();
        let mut from = start;
        for &(a, b) in ranges.iter().filter(|&&(a, b)| a < end && b > start) {
            if a > from {
                pieces.push((from, a));
            }
            from = from.max(b);
        }
        if from < end {
            pieces.push((from, end));
        }
        let value = data.value.clone();
        primary.data.delete(id);
        primary.memories.get_mut(memory).data_segments.remove(&id);
        for (a, b) in pieces {
            let part = value[(a - start) as usize..(b - start) as usize].to_vec();
            let new = primary.data.add(
                DataKind::Active {
                    memory,
                    offset: ConstExpr::Value(Value::I32(a as i32)),
                },
                part,
            );
            primary.memories.get_mut(memory).data_segments.insert(new);
        }
    }
    // The secondary: the moved ranges, written into the memory it imports.
    let memory = secondary
        .memories
        .iter()
        .next()
        .map(|m| m.id())
        .ok_or("the secondary has no memory")?;
    let mut total = 0;
    for &(a, b) in ranges {
        let part = inside(a, b).to_vec();
        if part.iter().all(|&x| x == 0) {
            continue;
        }
        total += part.len();
        let new = secondary.data.add(
            DataKind::Active {
                memory,
                offset: ConstExpr::Value(Value::I32(a.max(*base) as i32)),
            },
            part,
        );
        secondary.memories.get_mut(memory).data_segments.insert(new);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use walrus::FunctionBuilder;

    /// A map as wasm-ld writes it (columns as in its header), with the sections this reads.
    const MAP: &str = "    Addr      Off     Size Out     In      Symbol
       -        8       10 TYPE
       -       20      100 CODE
       -       22       10         a.o:(f)
       -       22       10                 f
       -      200       80 DATA
    1000      201       40 .rodata
    1000      201       10         a.o:(.rodata..Lanon.1)
    1000      201       10                 .Lanon.1
    1010      211        8         <internal>:(.rodata)
    1018      219       28         a.o:(.rodata.TABLE)
    1018      219       28                 TABLE
    1040      241       10 .data
    1040      241       10         a.o:(.data.COUNTER)
    1040      241       10                 COUNTER
       -      300       20 CUSTOM(name)
";

    fn write_map(text: &str) -> String {
        let path = std::env::temp_dir().join(format!(
            "split-module-test-{}-{}.map",
            std::process::id(),
            text.len()
        ));
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn the_map_gives_each_data_object_its_extent_and_section() {
        let objects = read_map(&write_map(MAP)).unwrap();
        let got: Vec<_> = objects
            .iter()
            .map(|o| (o.start, o.end, o.read_only, o.strings))
            .collect();
        assert_eq!(
            got,
            [
                (0x1000, 0x1010, true, false),
                (0x1010, 0x1018, true, true),
                (0x1018, 0x1040, true, false),
                (0x1040, 0x1050, false, false),
            ]
        );
    }

    #[test]
    fn a_file_that_is_not_a_map_is_refused() {
        let err = read_map(&write_map("hello\nworld\n")).unwrap_err();
        assert!(err.contains("not a wasm-ld map"), "{err}");
        let overlapping = MAP.replace(
            "    1018      219       28         a.o",
            "    1014      219       28         a.o",
        );
        let err = read_map(&write_map(&overlapping)).unwrap_err();
        assert!(err.contains("overlap"), "{err}");
    }

    fn object(start: u32, end: u32) -> Object {
        Object {
            start,
            end,
            read_only: true,
            strings: false,
            string: false,
        }
    }

    #[test]
    fn the_merged_strings_are_cut_at_their_zeros() {
        let block = Object {
            strings: true,
            ..object(0x10, 0x18)
        };
        let image = (0x10, b"ab\0cde\0f".to_vec());
        let cut = strings(&[block], &image);
        let got: Vec<_> = cut.iter().map(|o| (o.start, o.end, o.string)).collect();
        assert_eq!(
            got,
            [(0x10, 0x13, true), (0x13, 0x17, true), (0x17, 0x18, true)]
        );
    }

    #[test]
    fn an_address_reaches_its_object_the_one_it_ends_and_those_just_after_it_strings_aside() {
        let objects = vec![
            object(0x100, 0x110),
            object(0x110, 0x120),
            Object {
                string: true,
                ..object(0x120, 0x128)
            },
            object(0x128, 0x200),
            object(0x3000, 0x3010),
        ];
        let reach = |a: u32, slack: u32| reached(&objects, a, slack).collect::<Vec<_>>();
        // Inside the first; at its end, which is also the second's start.
        assert_eq!(reach(0x104, 0), [0]);
        assert_eq!(reach(0x110, 0), [0, 1]);
        // Before an object, within the slack: it and the ones after, but not a string it does not
        // point into.
        assert_eq!(reach(0xf0, 0x40), [0, 1, 3]);
        assert_eq!(reach(0x124, 0x10), [2, 3]);
        // Beyond the slack: nothing.
        assert_eq!(reach(0x2000, 0x100), Vec::<usize>::new());
        assert_eq!(reach(0x2000, SLACK), [4]);
    }

    /// A module with one memory, its data at 0x1000, and a function per list of addresses it
    /// names.
    fn module(data: &[u8], functions: &[&[u32]]) -> Module {
        let mut module = Module::default();
        let memory = module.memories.add_local(false, false, 1, None, None);
        if !data.is_empty() {
            let seg = module.data.add(
                DataKind::Active {
                    memory,
                    offset: ConstExpr::Value(Value::I32(0x1000)),
                },
                data.to_vec(),
            );
            module.memories.get_mut(memory).data_segments.insert(seg);
        }
        for addresses in functions {
            let mut f = FunctionBuilder::new(&mut module.types, &[], &[]);
            let mut body = f.func_body();
            for &a in *addresses {
                body.i32_const(a as i32).drop();
            }
            f.finish(vec![], &mut module.funcs);
        }
        module
    }

    /// Seven objects of 16 bytes, 8 KB apart (more than the slack), from 0x1000: A to G. E is
    /// writable; B points at C and E at F. Byte 8 of each holds its number.
    fn seven() -> (Vec<u8>, Vec<Object>) {
        let at = |k: u32| 0x1000 + 0x2000 * k;
        let mut data = vec![0u8; 0xc010];
        let mut put = |address: u32, bytes: &[u8]| {
            let i = (address - 0x1000) as usize;
            data[i..i + bytes.len()].copy_from_slice(bytes);
        };
        put(at(1), &at(2).to_le_bytes());
        put(at(4), &at(5).to_le_bytes());
        for k in 0..7 {
            put(at(k) + 8, &[k as u8 + 1]);
        }
        let objects = (0..7)
            .map(|k| Object {
                read_only: k != 4,
                ..object(at(k), at(k) + 0x10)
            })
            .collect();
        (data, objects)
    }

    #[test]
    fn what_only_moved_code_reaches_moves_and_the_rest_stays() {
        let (data, objects) = seven();
        // Kept code names A and D; moved code names B, D and F. C is B's, F is also E's (and E
        // is writable), G is nobody's.
        let kept: &[u32] = &[0x1004, 0x7008];
        let moved: &[u32] = &[0x3000, 0x7008, 0xb004];
        let mut primary = module(&data, &[kept, moved]);
        let before = image(&primary).unwrap();
        let ranges = plan(&primary, &before, &objects, &Relocations::new(), |i| i == 1).unwrap();
        assert_eq!(ranges, [(0x3000, 0x3010), (0x5000, 0x5010)], "B and C move");

        let mut secondary = module(&[], &[]);
        assert_eq!(
            apply(&mut primary, &mut secondary, &before, &ranges).unwrap(),
            0x20
        );
        let (base, first) = image(&primary).unwrap();
        let byte = |address: u32| first[(address - base) as usize];
        assert_eq!(
            (
                byte(0x1008),
                byte(0x7008),
                byte(0x9008),
                byte(0xb008),
                byte(0xd008)
            ),
            (1, 4, 5, 6, 7)
        );
        assert_eq!(
            (byte(0x3008), byte(0x5008)),
            (0, 0),
            "B and C left the primary"
        );
        let written: Vec<(u32, Vec<u8>)> = secondary
            .data
            .iter()
            .map(|d| match d.kind {
                DataKind::Active {
                    offset: ConstExpr::Value(Value::I32(at)),
                    ..
                } => (at as u32, d.value.clone()),
                _ => panic!("an active segment"),
            })
            .collect();
        assert_eq!(written.len(), 2);
        assert_eq!(written[0].0, 0x3000);
        assert_eq!(
            &written[0].1[..4],
            &0x5000u32.to_le_bytes(),
            "B, pointing at C"
        );
        assert_eq!((written[1].0, written[1].1[8]), (0x5000, 3), "C");
    }

    #[test]
    fn an_address_in_kept_code_just_before_an_object_keeps_it_and_what_it_points_at() {
        let (data, objects) = seven();
        // 16 bytes before B: a table indexed from 1, say.
        let primary = module(&data, &[&[0x2ff0], &[0x3000]]);
        let image = image(&primary).unwrap();
        assert_eq!(
            plan(&primary, &image, &objects, &Relocations::new(), |i| i == 1).unwrap(),
            []
        );
    }

    #[test]
    fn an_address_the_linker_wrote_for_an_object_reaches_it_and_no_other() {
        let (data, objects) = seven();
        // Kept code holds 0x2ff0, 16 bytes before B: without a record, a table's base that
        // keeps B; recorded as A's (A plus 0x1ff0), it keeps A alone, and B and C move.
        let primary = module(&data, &[&[0x2ff0], &[0x3000]]);
        let image = image(&primary).unwrap();
        let relocations = Relocations::from([(0x2ff0, vec![(0x1000, 0x1010)])]);
        assert_eq!(
            plan(&primary, &image, &objects, &relocations, |i| i == 1).unwrap(),
            [(0x3000, 0x3010), (0x5000, 0x5010)]
        );
        // Recorded as B's (B minus 16: `table[i - 2]`), it keeps B, and so C.
        let relocations = Relocations::from([(0x2ff0, vec![(0x3000, 0x3010)])]);
        assert_eq!(
            plan(&primary, &image, &objects, &relocations, |i| i == 1).unwrap(),
            []
        );
    }

    #[test]
    fn a_str_written_as_one_64_bit_constant_keeps_its_text() {
        let (data, objects) = seven();
        // Kept code stores B's address and length 16 as one i64; moved code names B too.
        let mut primary = module(&data, &[&[0x3000]]);
        let mut f = FunctionBuilder::new(&mut primary.types, &[], &[]);
        f.func_body().i64_const((16 << 32) | 0x3000).drop();
        f.finish(vec![], &mut primary.funcs);
        let image = image(&primary).unwrap();
        assert_eq!(
            plan(&primary, &image, &objects, &Relocations::new(), |i| i == 0).unwrap(),
            []
        );
    }

    /// A custom section: its name and contents.
    fn custom(name: &str, body: &[u8]) -> Vec<u8> {
        let mut payload = vec![name.len() as u8];
        payload.extend_from_slice(name.as_bytes());
        payload.extend_from_slice(body);
        let mut section = vec![0, payload.len() as u8];
        section.extend(payload);
        section
    }

    #[test]
    fn the_relocations_name_the_symbol_each_address_in_the_code_was_written_for() {
        let (data, _) = seven();
        let mut bytes = module(&data, &[]).emit_wasm();
        // The symbol table: an imported function (no name of its own), then data symbol "B",
        // at 0x2000 into the one segment (at 0x1000), 16 bytes long.
        let symbols = [2, 0, 0x10, 0, 1, 0, 1, b'B', 0, 0x80, 0x40, 0x10];
        let mut linking = vec![2, 8, symbols.len() as u8];
        linking.extend_from_slice(&symbols);
        bytes.extend(custom("linking", &linking));
        // Two relocations of code: a function index (no addend), and B minus 16 as an SLEB.
        let relocs = [3, 2, 0, 1, 0, 4, 5, 1, 0x70];
        bytes.extend(custom("reloc.CODE", &relocs));
        assert_eq!(
            relocations(&bytes).unwrap(),
            Relocations::from([(0x2ff0, vec![(0x3000, 0x3010)])])
        );
        // Without them it is refused (a copy of another build is refused by `check_image`).
        let err = relocations(&module(&data, &[]).emit_wasm()).unwrap_err();
        assert!(err.contains("no relocations"), "{err}");
    }

    #[test]
    fn a_map_of_another_build_is_refused() {
        let (data, objects) = seven();
        let built = image(&module(&data, &[])).unwrap();
        let mut other = data.clone();
        other[8] = 99;
        let err = check_image(&built, &module(&other, &[]), &objects, "x.map").unwrap_err();
        assert!(err.contains("not the linker's output"), "{err}");
        let short = &objects[..3];
        let err = check_image(&built, &module(&data, &[]), short, "x.map").unwrap_err();
        assert!(err.contains("stale"), "{err}");
        assert!(check_image(&built, &module(&data, &[]), &objects, "x.map").is_ok());
    }
}

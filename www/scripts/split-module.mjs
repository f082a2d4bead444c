#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, first of the three): splits the page's WebAssembly module
// in two, so that the first view downloads only the code it runs.
//
// 1. The split tool (www/split, built here on first use) writes a copy of the module that
//    reports each function the first time it runs.
// 2. That copy is served from a scratch copy of the build and opened in headless Chromium
//    (Debian's, as the browser tests use), where a learner's first steps are taken
//    (first-steps.mjs, which the stylesheet's split takes too): the default page at 1440 px
//    playing at 50x, a broker crashed and started again, the clock paused and run again; then
//    the same at the usual sizes of a laptop, a tablet and a phone, in English and Chinese, at
//    the bare address and with `lang`, at the page's own speed, pressing each tab of a narrow
//    page. The functions that ran are the profile. The parts of the page drawn from the second
//    part (src/ui/later.rs: the panels under the graph, the explanation, the log's Kafka
//    detail) wait for it throughout, so what only they run goes to the second part; the page
//    draws them once it has arrived.
// 3. The tool splits the module by the profile: what ran stays in the primary module, which
//    the page loads first; the rest goes to a secondary module. In the primary, each moved
//    function is an import that the glue answers (the code appended to it below): the glue
//    starts fetching the secondary as soon as the primary runs, and a call to a moved function
//    before it has arrived loads it at once (a synchronous request), so nothing ever fails for
//    want of it, it only waits. The read-only data that only the moved functions read goes with
//    them: the linker's map of the module (build.rs asks for it) says where each object lies,
//    and a second link of the same objects with relocations (www/scripts/wasm-ld), whose data
//    the tool checks against the module's, says which object each address in the code names
//    (www/split/src/data.rs). The primary's imports from the glue, whose names carry a hash
//    (`__wbg_addEventListener_70e3766f6252144d`), get short names (`a`, `b`, …), and so do the
//    glue's functions that answer them: 7.2 KB less gzip between the two files. Then wasm-opt
//    optimises the primary once more, as Trunk optimised the whole module: 2.9 KB less.
// 4. The glue, patched, is minified (minify.mjs). The primary and the glue are renamed after a
//    hash of their new contents, as Trunk names files, and the secondary is named after its own.
// 5. When the stylesheet was split too (split-styles.mjs, the hook before this one), the glue
//    adds the later sheet to the page when the secondary's download begins, or with the
//    secondary when a loader asks for the whole module, unless the page has the whole sheet
//    (embed.js adds that one); and the page hears that the secondary is here only once that
//    sheet has loaded too, so that what the secondary draws is never shown unstyled.
//
// SPLIT=off skips it (one module, as Trunk built it). Fails the build when a step fails.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstSteps, LATER_EVENT, LATER_GLOBAL } from './first-steps.mjs';
import { minifyJs } from './minify.mjs';
import { builtFiles, stagingDir } from './staging.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = stagingDir('split-module', 'SPLIT');

function fail(message) {
  console.error(`split-module: ${message}`);
  process.exit(1);
}

const { glue: glueName, wasm: wasmName } = await builtFiles('split-module', root);
// The stylesheet's later part and the whole sheet, when split-styles.mjs split it.
const sheets = (await readdir(root)).filter((f) => /^styles-[0-9a-f]+_(later|whole)\.css$/.test(f));
const laterSheet = sheets.find((f) => f.endsWith('_later.css'));
const wholeSheet = sheets.find((f) => f.endsWith('_whole.css'));
if (sheets.length !== (laterSheet ? 2 : 0)) fail(`expected no split stylesheet or one later and one whole sheet, found ${sheets.join(', ')}`);
const glue = await readFile(join(root, glueName), 'utf8');

// The glue's imports object: the split adds a module of imports to it, and renames the module
// of wasm-bindgen's imports (see below).
const BINDGEN = './kafka-election-playground_bg.js';
const IMPORTS = `"${BINDGEN}": import0,`;
// The glue's start, where the secondary's download begins.
const FINALIZE = 'wasm = instance.exports;';
// Where the glue has the primary instantiated but not started: a loader that asked for the
// whole module (loadWhole) gets the secondary there.
const LOADED = 'const { instance, module } = await __wbg_load(await module_or_path, imports);';
// Where the second part stands, for the page (src/ui/later.rs): 'pending', 'here' or 'failed',
// each change announced by an event on the window.
const LATER_FLAG = `globalThis.${LATER_GLOBAL}`;
if ([IMPORTS, FINALIZE, LOADED].some((anchor) => glue.split(anchor).length !== 2)) {
  fail(`the glue ${glueName} does not have the shape this script patches (wasm-bindgen changed?)`);
}

// The split tool, built on first use (www/scripts/setup.sh builds it too), into its own target
// folder whatever CARGO_TARGET_DIR says, so that it is where it is looked for.
const toolDir = join(here, '..', 'split');
try {
  execFileSync('cargo', ['build', '--release', '--quiet', '--manifest-path', join(toolDir, 'Cargo.toml'),
    '--target-dir', join(toolDir, 'target')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
} catch {
  fail('could not build the split tool (www/split)');
}
const tool = join(toolDir, 'target', 'release', 'split-module');
const run = (...args) => {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch (e) {
    return fail(`the split tool failed: ${args.join(' ')}${e.code ? ` (${e.code})` : ''}`);
  }
};

// 1–2. The profile: a scratch copy of the build with the instrumented module and its glue.
const scratch = await mkdtemp(join(tmpdir(), 'split-module-'));
let profile;
try {
  await cp(root, scratch, { recursive: true });
  console.log(run('instrument', join(root, wasmName), join(scratch, wasmName)));
  // The parts of the page drawn from the second part (src/ui/later.rs) wait for it in the
  // scratch copy throughout, so that what only they run is not taken for the first view's.
  await writeFile(
    join(scratch, glueName),
    glue.replace(
      IMPORTS,
      `${IMPORTS}\n        "__profile": { hit(i) { (globalThis.__kafkaElectionProfile ??= []).push(i); } },`,
    ) + `\n${LATER_FLAG} = 'pending';\n`,
  );
  try {
    execFileSync(process.execPath, [join(here, 'embed-loader.mjs')], {
      env: { ...process.env, TRUNK_STAGING_DIR: scratch },
      stdio: 'ignore',
    });
  } catch {
    fail('could not prepare the scratch copy\'s loaders');
  }
  profile = await learnersFirstSteps(scratch);
} finally {
  await rm(scratch, { recursive: true, force: true });
}

// 3. The split.
const work = await mkdtemp(join(tmpdir(), 'split-module-'));
try {
  // Kept beside the build's other products for `split-module report` (www/split/src/main.rs).
  const profilePath = join(here, '..', '..', 'target', 'split-module-profile.txt');
  await mkdir(dirname(profilePath), { recursive: true });
  await writeFile(profilePath, [...profile].sort((a, b) => a - b).join('\n') + '\n');
  const primaryPath = join(work, 'primary.wasm');
  const secondaryPath = join(work, 'secondary.wasm');
  // The linker's map of the module and its output linked with relocations, in cargo's output
  // folder for the profile Trunk built.
  const linked = join(process.env.CARGO_TARGET_DIR ?? join(here, '..', '..', 'target'),
    'wasm32-unknown-unknown', process.env.TRUNK_PROFILE === 'debug' ? 'debug' : 'release');
  const map = join(linked, 'kafka-election-playground.map');
  const relocs = join(linked, 'kafka-election-playground.relocs.wasm');
  // SPLIT_DATA=off leaves all the data in the first part (for measuring what the move saves).
  const data = process.env.SPLIT_DATA === 'off' ? [] : ['--data', map, relocs];
  if (data.length && !existsSync(map)) fail(`${map} is missing: build.rs asks the linker for it`);
  if (data.length && !existsSync(relocs)) fail(`${relocs} is missing: www/scripts/wasm-ld writes it (.cargo/config.toml)`);
  const namesPath = join(work, 'names.txt');
  // SHORT_IMPORTS=off keeps wasm-bindgen's names for the primary's imports (for measuring).
  const short = process.env.SHORT_IMPORTS !== 'off';
  console.log(run('split', join(root, wasmName), profilePath, primaryPath, secondaryPath,
    ...data, ...(short ? ['--short-imports', BINDGEN, namesPath] : [])));
  const names = short
    ? (await readFile(namesPath, 'utf8')).trim().split('\n').map((line) => line.split(' '))
    : [];
  // The primary optimised once more, as Trunk optimised the whole module (the same wasm-opt, on
  // PATH, with the same arguments; the features are those its target_features section names):
  // with the moved functions gone, the optimiser finds more to drop, and the zeros left where
  // the moved data was are packed away: 2.9 KB less gzip (budget.mjs). Its exports, which the glue
  // and the secondary name, and its table's slots stay as they are; the glue answers its
  // imports by name.
  // REOPT=off leaves the primary as the split wrote it (for measuring).
  if (process.env.REOPT !== 'off') {
    try {
      execFileSync('wasm-opt', ['-Oz', '--one-caller-inline-max-function-size', '0', primaryPath, '-o', primaryPath],
        { stdio: ['ignore', 'inherit', 'inherit'] });
    } catch {
      fail('wasm-opt could not optimise the primary module');
    }
  }
  const primary = await readFile(primaryPath);
  const secondary = await readFile(secondaryPath);

  // 4. The files, named after their contents.
  const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const secondaryName = `kafka-election-playground-${hash(secondary)}_later.wasm`;
  const primaryName = `kafka-election-playground-${hash(primary)}_bg.wasm`;
  // The glue, patched, then minified (minify.mjs).
  const patched = minifyJs(shortImports(glue, names)
    .replace(IMPORTS, `${short ? 'b' : JSON.stringify(BINDGEN)}: import0,\n        s: __splitImports(),`)
    .replace(FINALIZE, `${FINALIZE}\n    __splitPrefetch();`)
    .replace(LOADED, `${LOADED}\n    if (__splitWanted !== undefined) await __splitWith(instance.exports);`) +
    runtime(secondaryName, laterSheet, wholeSheet), { module: true });
  const glueOut = `kafka-election-playground-${hash(patched)}.js`;
  await rm(join(root, wasmName));
  await rm(join(root, glueName));
  await writeFile(join(root, primaryName), primary);
  await writeFile(join(root, secondaryName), secondary);
  await writeFile(join(root, glueOut), patched);
  console.log(`split-module: ${primaryName} (first view, ${primary.length} bytes), ${secondaryName} (later, ${secondary.length} bytes), ${glueOut}`);
} finally {
  await rm(work, { recursive: true, force: true });
}

/**
 * The glue with the functions of its imports object renamed as the split tool renamed the
 * primary's imports (`ORIGINAL SHORT` pairs): each is defined there once, as `NAME: function(`.
 */
function shortImports(text, pairs) {
  for (const [original, short] of pairs) {
    if (!/^[\w$]+$/.test(original) || !/^[A-Za-z]+$/.test(short)) fail(`unexpected import name ${original} ${short}`);
    const key = new RegExp(`^(\\s+)${original.replace(/\$/g, '\\$')}(?=: function\\()`, 'gm');
    const found = text.match(key)?.length ?? 0;
    if (found !== 1) fail(`the glue defines the import ${original} ${found} times, not once (wasm-bindgen changed?)`);
    text = text.replace(key, `$1${short}`);
  }
  return text;
}

/** The functions that ran while a learner took their first steps (first-steps.mjs) on the scratch build. */
async function learnersFirstSteps(dir) {
  process.env.DIST = dir;
  const { MOUNTED, openBench } = await import('./bench-browser.mjs');
  const bench = await openBench();
  const seen = new Set();
  try {
    const visit = async ({ path, viewport, locale, steps }) => {
      const page = await bench.browser.newPage({ viewport, locale });
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${bench.base}${path}`);
      await steps(page);
      const hits = await page.evaluate(() => globalThis.__kafkaElectionProfile ?? []);
      if (problems.length) throw new Error(`${path} reported errors: ${problems.join('; ')}`);
      if (hits.length === 0) throw new Error(`${path} reported no functions`);
      for (const i of hits) seen.add(i);
      await page.close();
    };
    const { wide, sizes } = firstSteps(MOUNTED);
    await visit(wide);
    // The other sizes twice: what a page drops as it first renders (a component's or an
    // effect's drop glue) depends on how its renders fall together, and one pass has missed
    // such a function, which the page then waited for while mounting.
    for (let round = 0; round < 2; round++) {
      for (const size of sizes) await visit(size);
    }
  } catch (e) {
    fail(`could not take the profile: ${e.message}`);
  } finally {
    await bench.close();
  }
  return seen;
}

/**
 * What the glue gains: the answers to the primary's `__split` imports, and `loadWhole`; with
 * `laterSheet`, the stylesheet's later part, which comes with the secondary (`wholeSheet`
 * stands for both sheets).
 */
function runtime(secondaryName, laterSheet, wholeSheet) {
  return `
// Added by the build (www/scripts/split-module.mjs): the code the first view does not run is in a
// second module, ${secondaryName}. Its download starts as soon as this module runs, and a call
// to one of its functions before it has arrived loads it at once (a synchronous request). A
// loader that knows the page will need it from the start (a story, a lesson, a shared session,
// an embedding page's API) calls loadWhole() before the default export: both modules then
// download together and the page starts once both are there. ${LATER_FLAG} says where the
// second module stands ('pending', 'here', 'failed'), and a '${LATER_EVENT}' event on the
// window announces each change: the page draws the parts that wait for it then. The parts of
// the stylesheet that only the second module's parts use come with it (__splitStyles), and
// the page hears it is here once they have loaded too.
const __splitUrl = new URL('./${secondaryName}', import.meta.url);
let __splitInstance;
let __splitPending;
let __splitWanted;
${laterSheet ? styles(laterSheet, wholeSheet) : 'function __splitStyles() { return Promise.resolve(); }'}function __splitCompile() {
    return fetch(__splitUrl).then((response) => {
        if (!response.ok) throw new Error(\`could not load \${__splitUrl} (HTTP \${response.status})\`);
        return response.headers.get('Content-Type') === 'application/wasm'
            ? WebAssembly.compileStreaming(response)
            : response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
    });
}
/** Tells the page where the second part stands (src/ui/later.rs draws what waits for it). */
function __splitSay(state) {
    ${LATER_FLAG} = state;
    globalThis.dispatchEvent?.(new Event('${LATER_EVENT}'));
}
${LATER_FLAG} = 'pending';
function __splitReady(module, exports = wasm) {
    if (__splitInstance === undefined) {
        __splitInstance = new WebAssembly.Instance(module, { p: exports });
        // Even when a call needed it at once, the page draws its parts only with their styles.
        __splitStyles().then(() => __splitSay('here'));
    }
    return __splitInstance;
}
async function __splitWith(exports) {
    try {
        __splitReady(await __splitWanted, exports);
    } catch (_) {
        // Not there now: the page starts with the first part; the second is fetched again in
        // the background, or at once when first needed.
        __splitWanted = undefined;
    }
}
function __splitPrefetch() {
    if (__splitInstance !== undefined || __splitPending !== undefined) return;
    __splitPending = Promise.all([__splitCompile(), __splitStyles()])
        .then(([module]) => __splitReady(module))
        .catch(() => {
            __splitPending = undefined;
            // The parts that wait for it say so; a call into it tries again.
            if (__splitInstance === undefined) __splitSay('failed');
        });
}
/** The page says the second part could not be had (boot.js shows it), and this throws. */
function __splitFailed(why) {
    const message = \`could not load \${__splitUrl} (\${why})\`;
    globalThis.dispatchEvent?.(new CustomEvent('kafka-election-failed', { detail: { message } }));
    throw new Error(message);
}
function __splitNow() {
    const request = new XMLHttpRequest();
    request.open('GET', __splitUrl, false);
    request.overrideMimeType('text/plain; charset=x-user-defined');
    try {
        request.send();
    } catch (_) {
        // A network error: the status stays 0.
    }
    if (request.status !== 200) __splitFailed(request.status ? \`HTTP \${request.status}\` : 'no connection');
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    try {
        return __splitReady(new WebAssembly.Module(bytes));
    } catch (e) {
        // Not the module (a proxy's error page), or one this browser will not compile here.
        return __splitFailed(e && e.message ? e.message : String(e));
    }
}
function __splitImports() {
    return new Proxy({}, {
        get: (_, name) => {
            let target;
            return function (...args) {
                if (target === undefined) target = (__splitInstance ?? __splitNow()).exports[name];
                return target(...args);
            };
        },
    });
}
/** Fetch the second module with the first, and start the page only once both are there. */
export function loadWhole() {
    if (__splitWanted === undefined) {
        __splitWanted = Promise.all([__splitCompile(), __splitStyles()]).then(([module]) => module);
        // Its failure is handled where it is awaited (__splitWith), not reported on its own.
        __splitWanted.catch(() => {});
    }
}
`;
}

/**
 * The glue's loader of the stylesheet's later part (split-styles.mjs): a link added after the
 * page's others, once; it resolves when the sheet has loaded or failed to (boot.js tells a
 * reader about a sheet that did not load), at once when the page already has it or the whole
 * sheet.
 */
function styles(laterSheet, wholeSheet) {
  return `const __splitSheet = new URL('./${laterSheet}', import.meta.url);
const __splitWholeSheet = new URL('./${wholeSheet}', import.meta.url);
let __splitSheetLoaded;
function __splitStyles() {
    if (__splitSheetLoaded !== undefined) return __splitSheetLoaded;
    if (typeof document === 'undefined') return (__splitSheetLoaded = Promise.resolve());
    const links = [...document.querySelectorAll('link[rel="stylesheet"]')];
    if (links.some((l) => l.href === __splitSheet.href || l.href === __splitWholeSheet.href)) {
        return (__splitSheetLoaded = Promise.resolve());
    }
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = __splitSheet.href;
    __splitSheetLoaded = new Promise((done) => {
        link.addEventListener('load', () => done(), { once: true });
        link.addEventListener('error', () => done(), { once: true });
    });
    document.head.appendChild(link);
    return __splitSheetLoaded;
}`;
}

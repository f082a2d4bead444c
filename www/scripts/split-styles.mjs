#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, first of the four): splits the page's stylesheet in two,
// so that the first view downloads only the rules it uses.
//
// 1. A scratch copy of the build is made ready to open as the other hooks make the build
//    (embed-loader.mjs minifies the stylesheet and writes the loaders, first-frame.mjs writes
//    the first frame into index.html), the parts of the page drawn from the module's second
//    part (src/ui/later.rs) waiting for it throughout, as split-module.mjs profiles the module.
// 2. There a learner's first steps are taken in headless Chromium (first-view-styles.mjs: the
//    states split-module.mjs profiles the module in, in the light and the dark colour scheme,
//    from the static first frame on), and every selector of the minified sheet is tested,
//    without its pseudo-classes and pseudo-elements, after every change to the page.
// 3. The first sheet holds the rules one of whose selectors matched an element there, and
//    what the split does not sort: @font-face, a @keyframes that one of those rules may
//    name, any other at-rule, a selector Chromium could not read. The later sheet holds the
//    other rules, in their order, and repeats the rules of the first that must still follow
//    them (css-rules.mjs, laterRules: where two rules could set the same property of one box
//    with selectors of the same specificity, the one that came last in the sheet still does).
//    So with the first sheet alone the first view is styled as before, and with both every
//    element is.
// 4. The files, each minified (minify.mjs) and named after its contents, as Trunk names files:
//    styles-<hash>.css, the first sheet, which index.html links instead of Trunk's sheet;
//    styles-<hash>_later.css, the later sheet, which the module's glue adds to the page when
//    the module's first part has been instantiated, as the second part's download begins
//    (split-module.mjs); and styles-<hash>_whole.css, the one sheet as it was, which embed.js
//    adds to an embedding page (that page needs every style at once) and the browser tests
//    compare the split with (tests/styles-split.spec.ts). target/split-styles-report.txt says
//    where each rule went, and why a rule of the first sheet is repeated.
//
// SPLIT_STYLES=off skips it (one stylesheet, as before), and so does SPLIT=off (the module is
// not split either: the page draws everything from the start). Fails the build when a step
// fails.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { laterRules, readRules, selectorList, stripped, writeRules, writtenProperties } from './css-rules.mjs';
import { firstViewSelectors, longhands } from './first-view-styles.mjs';
import { minifyCss } from './minify.mjs';
import { builtFiles, stagingDir } from './staging.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = stagingDir('split-styles', 'SPLIT_STYLES');
if (process.env.SPLIT === 'off') {
  console.log('split-styles: skipped (SPLIT=off: the page draws everything from the start)');
  process.exit(0);
}

function fail(message) {
  console.error(`split-styles: ${message}`);
  process.exit(1);
}

const { glue, css } = await builtFiles('split-styles', root);

// 1–2. The scratch copy, and the selectors that matched there.
const scratch = await mkdtemp(join(tmpdir(), 'split-styles-'));
let sheet;
let leaves;
let matched;
let unreadable;
const analysed = new Map();
try {
  await cp(root, scratch, { recursive: true });
  // The global the split module's glue keeps (split-module.mjs, src/ui/later.rs): the parts
  // drawn from the second part wait for it.
  await writeFile(join(scratch, glue), `${await readFile(join(scratch, glue), 'utf8')}\nglobalThis.__kafkaElectionLater = 'pending';\n`);
  for (const hook of ['embed-loader.mjs', 'first-frame.mjs']) {
    try {
      execFileSync(process.execPath, [join(here, hook)], {
        env: { ...process.env, TRUNK_STAGING_DIR: scratch },
        stdio: 'ignore',
      });
    } catch {
      fail(`could not prepare the scratch copy (${hook} failed)`);
    }
  }
  // The sheet as embed-loader.mjs minified it: what the page would have loaded.
  sheet = (await readFile(join(scratch, css), 'utf8')).trim();
  try {
    leaves = readRules(sheet);
  } catch (e) {
    fail(`cannot read ${css}: ${e.message}`);
  }
  for (const leaf of leaves) {
    if (leaf.kind !== 'style') continue;
    for (const selector of selectorList(leaf.selector)) {
      try {
        analysed.set(selector, stripped(selector));
      } catch {
        // Not one the split can read: its rule stays in the first sheet.
      }
    }
  }
  try {
    ({ matched, unreadable } = await firstViewSelectors(scratch, new Set(analysed.values())));
  } catch (e) {
    fail(`could not take the first view's styles: ${e.message}`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

// 3. The rules of each sheet.
const firstView = (selector) => !analysed.has(selector) ||
  matched.has(analysed.get(selector)) || unreadable.has(analysed.get(selector));
const first = new Set();
leaves.forEach((leaf, i) => {
  if (leaf.kind === 'style' ? selectorList(leaf.selector).some(firstView) : leaf.name !== '@keyframes') first.add(i);
});
// A @keyframes goes with the first sheet when a rule of it may name it (its name is a word of
// the rule), and so does any @keyframes whose name is given twice.
const words = (text) => new Set(text.split(/[^\w-]+/));
const named = new Set([...first].flatMap((i) => [...words(leaves[i].body ?? leaves[i].text)]));
const keyframes = leaves.filter((leaf) => leaf.name === '@keyframes');
for (const leaf of keyframes) {
  const name = leaf.prelude.slice('@keyframes'.length).trim().replace(/^["']|["']$/g, '');
  if (named.has(name) || keyframes.filter((other) => other.prelude === leaf.prelude).length > 1) first.add(leaf.index);
}
const blocks = await longhands(leaves.map((leaf) => (leaf.kind === 'style' ? leaf.body : '')));
const properties = (leaf) => {
  const set = writtenProperties(leaf.body);
  for (const [name, important] of blocks[leaf.index]) set.set(name, important);
  return set;
};
const repeated = new Map();
const later = laterRules(leaves, first, properties, repeated);
if (later.length === 0) {
  console.log('split-styles: every rule styles the first view: one stylesheet, as before');
  process.exit(0);
}

// 4. The files.
const firstSheet = minifyCss(writeRules(leaves.filter((_, i) => first.has(i))));
const laterSheet = minifyCss(writeRules(later.map((i) => leaves[i])));
if (minifyCss(firstSheet) !== firstSheet) fail('the first sheet changes when minified again (embed-loader.mjs does)');
const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const firstName = `styles-${hash(firstSheet)}.css`;
const laterName = `styles-${hash(laterSheet)}_later.css`;
const wholeName = `styles-${hash(sheet)}_whole.css`;
const indexPath = join(root, 'index.html');
const index = await readFile(indexPath, 'utf8');
const link = `<link rel="stylesheet" href="./${css}"`;
if (index.split(link).length !== 2) fail(`index.html must link ${css} once`);
await rm(join(root, css));
await writeFile(join(root, firstName), firstSheet);
await writeFile(join(root, laterName), laterSheet);
await writeFile(join(root, wholeName), sheet);
await writeFile(indexPath, index.replace(link, `<link rel="stylesheet" href="./${firstName}"`));

// Each rule's place, kept beside the build's other products (as split-module.mjs keeps its
// profile), for a reader who wants to know why a rule is where it is.
const reportPath = join(here, '..', '..', 'target', 'split-styles-report.txt');
const place = (leaf, i) => {
  const where = leaf.groups.length ? ` (in ${leaf.groups.join(' ')})` : '';
  const what = leaf.kind === 'style' ? leaf.selector : leaf.prelude;
  if (!first.has(i)) return `later  ${what}${where}`;
  if (repeated.has(i)) return `both   ${what}${where}: follows ${leaves[repeated.get(i)].selector ?? leaves[repeated.get(i)].prelude}`;
  return `first  ${what}${where}`;
};
await mkdir(dirname(reportPath), { recursive: true });
await writeFile(reportPath, leaves.map(place).join('\n') + '\n');

const size = (text) => `${text.length} bytes, ${gzipSync(text, { level: 9 }).length} gzip`;
console.log(`split-styles: ${matched.size} of ${new Set(analysed.values()).size} selectors styled the first view; ` +
  `${first.size} of ${leaves.length} rules in the first sheet, ${later.length} in the later one, ` +
  `${repeated.size} of them repeated from the first to keep their order`);
console.log(`split-styles: ${firstName} (first view, ${size(firstSheet)}), ${laterName} (later, ${size(laterSheet)}), ` +
  `${wholeName} (the one sheet, ${size(sheet)})`);

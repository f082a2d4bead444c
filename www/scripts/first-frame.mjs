#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, after embed-loader.mjs): writes the default page's first
// frame into the built index.html, so that a reader on a slow network sees the cluster graph as
// soon as the page and its stylesheet arrive, before the WebAssembly module does. The module
// replaces it when it starts (ui::start); until then the frame is marked busy and inert.
//
// The frame is made by the page itself, not by a second copy of its markup: the staged build is
// served on 127.0.0.1 and opened in headless Chromium (Debian's, as the browser tests use) with
// its animation frames held, so the clock never moves past t = 0, and the markup the playground
// rendered into #app is taken as it is. Only the default address gets a first frame of its own;
// another address (a story, a link) shows the same frame until the module replaces it.
//
// FIRST_FRAME=off skips it (the page then shows "Loading the playground…" until the module
// starts). Fails the build when Chromium is missing or the page does not render.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stagingDir } from './staging.mjs';

const root = stagingDir('first-frame', 'FIRST_FRAME');
const indexPath = join(root, 'index.html');
const index = await readFile(indexPath, 'utf8');
const START = '<!-- first-frame -->';
const END = '<!-- /first-frame -->';
if (index.split(START).length !== 2 || index.split(END).length !== 2) {
  console.error(`first-frame: index.html must hold ${START} … ${END} exactly once`);
  process.exit(1);
}

// The staged build, served and opened as the page benchmarks do (bench-browser.mjs).
process.env.DIST = root;
const { MOUNTED, openBench } = await import('./bench-browser.mjs');
let frame;
let bench;
try {
  bench = await openBench();
  const page = await bench.browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // Hold every animation frame: the page draws its first frame and its clock never runs.
  await page.addInitScript(() => {
    window.requestAnimationFrame = () => 0;
  });
  // Hold the module's second part: the frame is what the first part draws, the parts that wait
  // for the second (src/ui/later.rs) saying they are loading, whenever it would have arrived.
  await page.route('**/*_later.wasm', () => {});
  await page.goto(`${bench.base}/`);
  await page.waitForSelector(`${MOUNTED} svg g[data-broker]`, { timeout: 60_000 });
  frame = await page.evaluate(() => document.getElementById('app').innerHTML);
  if (problems.length) throw new Error(`the page reported errors: ${problems.join('; ')}`);
} catch (e) {
  console.error(`first-frame: could not render the default page's first frame: ${e.message}`);
  process.exit(1);
} finally {
  await bench?.close();
}
if (/\sstyle=|\son[a-z]+=/i.test(frame)) {
  console.error('first-frame: the frame has an inline style or event handler, which the page\'s policy refuses');
  process.exit(1);
}
// The page's comments (its markers among them) are for its readers in the repository, not for
// the wire: they go, with the blank they leave (STRIP_COMMENTS=off keeps them, for measuring).
const uncommented = (html) =>
  process.env.STRIP_COMMENTS === 'off' ? html : html.replace(/[ \t]*<!--[\s\S]*?-->[ \t]*\n?/g, '');
const before = uncommented(index.slice(0, index.indexOf(START)));
const after = uncommented(index.slice(index.indexOf(END) + END.length));
await writeFile(indexPath, `${before}${frame}\n${after}`);
console.log(`first-frame: index.html holds the default page's first frame (${frame.length} bytes)`);

#!/usr/bin/env node
// The byte budget of the page's first view: every file the browser must fetch before the page
// is interactive (index.html, the stylesheets it links, the loader, the module's JS glue and the
// snippets it imports, the WebAssembly), gzip-compressed as a web server would send them. Prints
// each file's raw and gzip size and share of the total, writes the table to dist/size.txt, and
// fails when the total is over the limit in www/budget.json.
//
//   node www/scripts/budget.mjs [DIST]
//
// www/budget.json holds three figures: `limit` (what this check enforces; lowered as the page
// shrinks, never raised to let a change through), `target` (the most the first view may weigh)
// and `aim`. Figures in bytes; 1 KB = 1,000 bytes.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', '..', 'dist'));
const budget = JSON.parse(await readFile(join(here, '..', 'budget.json'), 'utf8'));
for (const key of ['limit', 'target', 'aim']) {
  if (!Number.isInteger(budget[key]) || budget[key] <= 0) {
    console.error(`budget: www/budget.json: "${key}" must be a whole number of bytes`);
    process.exit(2);
  }
}

let html;
try {
  html = await readFile(join(dist, 'index.html'), 'utf8');
} catch (e) {
  console.error(`budget: ${dist}/index.html: ${e.message} (did trunk build run?)`);
  process.exit(2);
}

// What index.html makes the browser fetch at once: stylesheets, preloads, scripts.
const wanted = new Set(['index.html']);
const attr = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
for (const [tag] of html.matchAll(/<(?:link|script)\b[^>]*>/g)) {
  const rel = attr(tag, 'rel');
  const href = tag.startsWith('<script') ? attr(tag, 'src') : attr(tag, 'href');
  if (!href || /^[a-z]+:/i.test(href)) continue;
  if (tag.startsWith('<script') || ['stylesheet', 'modulepreload', 'preload'].includes(rel)) wanted.add(normalise(href));
}
// The glue's own imports (wasm-bindgen's snippets).
for (const file of [...wanted].filter((f) => f.endsWith('.js'))) {
  const text = await readFile(join(dist, file), 'utf8');
  for (const m of text.matchAll(/(?:import|from)\s*\(?\s*['"](\.\/snippets\/[^'"]+)['"]/g)) {
    wanted.add(normalise(join(dirname(file), m[1])));
  }
}
// The module: the plain file, or the packed one that the page unpacks (pack-module.mjs).
if (![...wanted].some((f) => f.endsWith('.wasm') || f.endsWith('.lzma'))) {
  console.error('budget: index.html preloads no .wasm or .lzma file: the first view\'s files could not be found');
  process.exit(2);
}

function normalise(href) {
  return relative('.', join('.', href.replace(/^\.\//, '').split(/[?#]/)[0]));
}

const rows = [];
for (const file of [...wanted].sort()) {
  const bytes = await readFile(join(dist, file));
  rows.push({ file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
}
rows.sort((a, b) => b.gzip - a.gzip);
const total = rows.reduce((s, r) => ({ raw: s.raw + r.raw, gzip: s.gzip + r.gzip }), { raw: 0, gzip: 0 });
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const lines = [
  'First view: the files fetched before the page is interactive (bytes)',
  `${'file'.padEnd(58)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'share'.padStart(7)}`,
  ...rows.map((r) => `${r.file.padEnd(58)} ${String(r.raw).padStart(10)} ${String(r.gzip).padStart(10)} ${`${((100 * r.gzip) / total.gzip).toFixed(1)}%`.padStart(7)}`),
  `${'total'.padEnd(58)} ${String(total.raw).padStart(10)} ${String(total.gzip).padStart(10)} ${'100%'.padStart(7)}`,
  '',
  `limit ${kb(budget.limit)} (enforced), target ${kb(budget.target)}, aim ${kb(budget.aim)}: ` +
    `the first view weighs ${kb(total.gzip)} gzip, ` +
    (total.gzip <= budget.target ? `within the target by ${kb(budget.target - total.gzip)}` : `${kb(total.gzip - budget.target)} over the target`),
];
const report = lines.join('\n') + '\n';
await writeFile(join(dist, 'size.txt'), report);
process.stdout.write(report);
if (total.gzip > budget.limit) {
  console.error(`budget: the first view weighs ${total.gzip} bytes gzip, over the limit of ${budget.limit} (www/budget.json) by ${total.gzip - budget.limit}`);
  process.exit(1);
}

#!/usr/bin/env node
// The byte budget of the page's first view: every file the browser must fetch before the page
// is interactive (index.html, the stylesheets it links, the loader, the module's JS glue and the
// snippets it imports, the WebAssembly), weighed as the server sends them: the precompressed
// files the build wrote beside each (compress.mjs), brotli to a browser that accepts it and
// gzip to one that accepts only gzip; a file without them is sent, and weighed, as it is. Prints
// each file's raw, brotli and gzip size and share of the total, writes the table to
// dist/size.txt, and fails when the brotli total is over the limit in www/budget.json.
//
//   node www/scripts/budget.mjs [DIST]
//
// www/budget.json holds three figures: `limit` (what this check enforces; lowered as the page
// shrinks, never raised to let a change through), `target` (the most the first view may weigh)
// and `aim`, as brotli. Figures in bytes; 1 KB = 1,000 bytes.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUFFIX } from './compress.mjs';

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
if (![...wanted].some((f) => f.endsWith('.wasm'))) {
  console.error('budget: index.html preloads no .wasm file: the first view\'s files could not be found');
  process.exit(2);
}

function normalise(href) {
  return relative('.', join('.', href.replace(/^\.\//, '').split(/[?#]/)[0]));
}

/** The size of `file` as sent in `encoding`: its precompressed sibling's, or its own. */
async function sent(file, encoding, raw) {
  try {
    return { size: (await stat(join(dist, file + SUFFIX[encoding]))).size, compressed: true };
  } catch {
    return { size: raw, compressed: false };
  }
}

const rows = [];
for (const file of [...wanted].sort()) {
  const raw = (await stat(join(dist, file))).size;
  const br = await sent(file, 'br', raw);
  const gz = await sent(file, 'gzip', raw);
  rows.push({ file, raw, br: br.size, gzip: gz.size, compressed: br.compressed });
}
if (!rows.some((r) => r.compressed)) {
  console.error(`budget: no file of the first view has a precompressed .br beside it in ${dist} (was it built with COMPRESS=off?)`);
  process.exit(1);
}
rows.sort((a, b) => b.br - a.br);
const total = rows.reduce((s, r) => ({ raw: s.raw + r.raw, br: s.br + r.br, gzip: s.gzip + r.gzip }), { raw: 0, br: 0, gzip: 0 });
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const cells = (name, r, share) =>
  `${name.padEnd(50)} ${String(r.raw).padStart(10)} ${String(r.br).padStart(10)} ${String(r.gzip).padStart(10)} ${share.padStart(7)}`;
const lines = [
  'First view: the files fetched before the page is interactive, as sent (bytes)',
  `${'file'.padEnd(50)} ${'raw'.padStart(10)} ${'brotli'.padStart(10)} ${'gzip'.padStart(10)} ${'share'.padStart(7)}`,
  ...rows.map((r) => cells(r.file, r, `${((100 * r.br) / total.br).toFixed(1)}%`)),
  cells('total', total, '100%'),
  '',
  `limit ${kb(budget.limit)} (enforced), target ${kb(budget.target)}, aim ${kb(budget.aim)}, as brotli: ` +
    `the first view weighs ${kb(total.br)} brotli (${kb(total.gzip)} gzip), ` +
    (total.br <= budget.target ? `within the target by ${kb(budget.target - total.br)}` : `${kb(total.br - budget.target)} over the target`),
];
const report = lines.join('\n') + '\n';
await writeFile(join(dist, 'size.txt'), report);
process.stdout.write(report);
if (total.br > budget.limit) {
  console.error(`budget: the first view weighs ${total.br} bytes brotli, over the limit of ${budget.limit} (www/budget.json) by ${total.br - budget.limit}`);
  process.exit(1);
}

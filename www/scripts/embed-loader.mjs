#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml): writes the names of the module files Trunk just built (the
// JS glue, the WebAssembly and the stylesheet, named after a hash of their contents) into the
// two loaders:
// - www/embed.js, for other pages (docs/embedding.md), staged as embed.js;
// - www/boot.js, the page's own loader, staged as boot-<hash>.js and named in index.html, which
//   also gets preload links for the glue and the WebAssembly, so that their download starts
//   with the page's. Trunk's own inline loader is off (Trunk.toml,
//   inject_scripts): no inline script, so the page runs under a strict Content-Security-Policy.
// Both loaders are minified (minify.mjs), and so is the stylesheet index.html links, whose
// integrity hash there is taken again.
// Fails the build unless it finds exactly one of each file, and the page's script tag.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minifyCss, minifyJs } from './minify.mjs';
import { builtFiles, stagingDir } from './staging.mjs';

const staging = stagingDir('embed-loader');
const { glue, wasm, css } = await builtFiles('embed-loader', staging);
/** The loader `www/NAME` with the built files' names written over its placeholders. */
async function filled(name, names) {
  let out = await readFile(new URL(`../${name}`, import.meta.url), 'utf8');
  for (const [placeholder, file] of Object.entries(names)) {
    out = out.replace(`'__KAFKA_ELECTION_${placeholder}__'`, `'./${file}'`);
  }
  if (out.includes("'__KAFKA_ELECTION_")) {
    console.error(`embed-loader: www/${name} lacks its placeholders`);
    process.exit(1);
  }
  return minifyJs(out, { module: false });
}

// An embedding page needs every style at once: when the stylesheet was split (split-styles.mjs),
// embed.js adds the whole sheet, and the glue then adds no later part.
const whole = (await readdir(staging)).find((f) => /^styles-[0-9a-f]+_whole\.css$/.test(f)) ?? css;
await writeFile(join(staging, 'embed.js'), await filled('embed.js', { GLUE: glue, WASM: wasm, CSS: whole }));
console.log(`embed-loader: embed.js loads ${glue}, ${wasm} and ${whole}`);

const boot = await filled('boot.js', { GLUE: glue, WASM: wasm });
const bootName = `boot-${createHash('sha256').update(boot).digest('hex').slice(0, 16)}.js`;
await writeFile(join(staging, bootName), boot);
const indexPath = join(staging, 'index.html');
const index = await readFile(indexPath, 'utf8');
const tag = '<script defer src="./boot.js"></script>';
if (index.split(tag).length !== 2) {
  console.error(`embed-loader: index.html must hold ${tag} exactly once`);
  process.exit(1);
}
const preload =
  `<link rel="modulepreload" href="./${glue}" />\n    ` +
  `<link rel="preload" href="./${wasm}" as="fetch" type="application/wasm" crossorigin="anonymous" />\n    ` +
  `<script defer src="./${bootName}"></script>`;
// The stylesheet, minified: Trunk wrote its integrity hash into index.html, so it is taken again.
const cssPath = join(staging, css);
const sheet = minifyCss(await readFile(cssPath, 'utf8'));
await writeFile(cssPath, sheet);
const link = new RegExp(`(<link rel="stylesheet" href="\\./${css.replace(/\./g, '\\.')}" integrity=")sha384-[^"]+(")`);
if (!link.test(index)) {
  console.error(`embed-loader: index.html must link ${css} with its integrity hash`);
  process.exit(1);
}
const integrity = `sha384-${createHash('sha384').update(sheet).digest('base64')}`;
await writeFile(indexPath, index.replace(tag, preload).replace(link, `$1${integrity}$2`));
console.log(`embed-loader: index.html loads ${bootName}`);

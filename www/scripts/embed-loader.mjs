#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml): writes the names of the module files Trunk just built (the
// JS glue, the WebAssembly and the stylesheet, named after a hash of their contents) into the
// two loaders:
// - www/embed.js, for other pages (README.md, "Embedding"), staged as embed.js;
// - www/boot.js, the page's own loader, staged as boot-<hash>.js and named in index.html, which
//   also gets preload links for the glue and the WebAssembly so that their download starts with
//   the page's. Trunk's own inline loader is off (Trunk.toml, inject_scripts): no inline script,
//   so the page runs under a strict Content-Security-Policy.
// Fails the build unless it finds exactly one of each file, and the page's script tag.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('embed-loader: TRUNK_STAGING_DIR is not set: run this as Trunk\'s post_build hook');
  process.exit(1);
}
const files = await readdir(staging);
const glue = files.filter((f) => /^kafka-election-playground-[0-9a-f]+\.js$/.test(f));
const wasm = files.filter((f) => /^kafka-election-playground-[0-9a-f]+_bg\.wasm$/.test(f));
const css = files.filter((f) => /^styles-[0-9a-f]+\.css$/.test(f));
if (glue.length !== 1 || wasm.length !== 1 || css.length !== 1) {
  console.error(`embed-loader: expected one module glue, one wasm and one stylesheet in ${staging}, found ${JSON.stringify({ glue, wasm, css })}`);
  process.exit(1);
}
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
  return out;
}

await writeFile(join(staging, 'embed.js'), await filled('embed.js', { GLUE: glue[0], WASM: wasm[0], CSS: css[0] }));
console.log(`embed-loader: embed.js loads ${glue[0]}, ${wasm[0]} and ${css[0]}`);

const boot = await filled('boot.js', { GLUE: glue[0], WASM: wasm[0] });
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
  `<link rel="modulepreload" href="./${glue[0]}" />\n    ` +
  `<link rel="preload" href="./${wasm[0]}" as="fetch" type="application/wasm" crossorigin="anonymous" />\n    ` +
  `<script defer src="./${bootName}"></script>`;
await writeFile(indexPath, index.replace(tag, preload));
console.log(`embed-loader: index.html loads ${bootName}`);

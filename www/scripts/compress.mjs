#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, the last one, once every file is written): writes each
// file of the bundle precompressed beside it, `NAME.br` (brotli, quality 11) and `NAME.gz`
// (gzip, level 9), so that a web server sends the smaller one the browser accepts without
// compressing anything itself: www/tests/serve-dist.mjs does, and docs/build.md ("Serving it")
// says how other servers are told to. Brotli is what every current browser accepts; a server
// that ignores the files still sends the plain ones, which are kept.
//
// Compressed: the types a server would compress (HTML, JavaScript, CSS, WebAssembly, JSON, SVG,
// text), when compressing saves at least a tenth; images and fonts are compressed already.
// COMPRESS=off skips it (budget.mjs then refuses to weigh the bundle: it weighs what is sent).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { stagingDir } from './staging.mjs';

/** The extensions compressed, each with brotli's mode for it. */
export const MODES = {
  '.html': constants.BROTLI_MODE_TEXT,
  '.js': constants.BROTLI_MODE_TEXT,
  '.mjs': constants.BROTLI_MODE_TEXT,
  '.css': constants.BROTLI_MODE_TEXT,
  '.json': constants.BROTLI_MODE_TEXT,
  '.svg': constants.BROTLI_MODE_TEXT,
  '.txt': constants.BROTLI_MODE_TEXT,
  '.wasm': constants.BROTLI_MODE_GENERIC,
};

/** Each encoding's file beside the plain one: `NAME.br`, `NAME.gz`. */
export const SUFFIX = { br: '.br', gzip: '.gz' };

/**
 * `bytes` as a web server would send them, by encoding (the keys of SUFFIX): brotli at its
 * best, and gzip for older clients.
 */
export function compressed(bytes, mode = constants.BROTLI_MODE_GENERIC) {
  return {
    br: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: mode,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip: gzipSync(bytes, { level: 9 }),
  };
}

/** Every file below `dir`, as paths relative to it. */
async function filesBelow(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

// Run as the hook; imported by the test server and budget.mjs, which do not run this part.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const staging = stagingDir('compress', 'COMPRESS');
  let plain = 0;
  let br = 0;
  let count = 0;
  for (const file of await filesBelow(staging)) {
    const mode = MODES[extname(file).toLowerCase()];
    if (mode === undefined) continue;
    const bytes = await readFile(join(staging, file));
    const out = compressed(bytes, mode);
    if (out.br.length > 0.9 * bytes.length) continue;
    for (const [encoding, suffix] of Object.entries(SUFFIX)) await writeFile(join(staging, file + suffix), out[encoding]);
    plain += bytes.length;
    br += out.br.length;
    count += 1;
  }
  console.log(`compress: ${count} files, ${plain} bytes, ${br} as brotli (each also as gzip)`);
}

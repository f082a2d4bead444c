#!/usr/bin/env node
// A tiny static file server for the built playground (Trunk's dist/), with no dependencies.
//
// It binds 127.0.0.1 only. The port comes from $PORT (default 8080), the folder from $DIST
// (default: dist/ at the repository root), and the path it is served under from $BASE (default
// "/"; e.g. "/playground/", as a documentation site would host it: anything outside is 404). The browser tests start it as their web server and
// www/scripts/serve.sh uses it to serve a release build.
//
//   node www/tests/serve-dist.mjs            # serves dist/ on http://127.0.0.1:8080/
//
// The page itself (index.html, and any address that falls back to it) is sent with the strict
// Content-Security-Policy the playground runs under (docs/build.md, "Serving it"), so that every
// browser test runs under it; CSP=off leaves the header out.
//
// Each file is sent as the smallest encoding the browser accepts among its precompressed
// siblings (NAME.br, NAME.gz, written by www/scripts/compress.mjs), as a host configured to
// serve precompressed files does. $ENCODINGS lists the encodings it may send (default "br,gzip";
// "gzip" stands for a host that serves gzip only, "identity" for one that compresses nothing).
// ONTHEFLY=1 compresses, as they are asked for, the files that have no sibling (a folder this
// project did not build: the reference page of www/scripts/bench-page.mjs).

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressed, MODES, SUFFIX } from '../scripts/compress.mjs';

const HOST = '127.0.0.1';
const PORT = Number.parseInt(process.env.PORT ?? '8080', 10);
const BASE = process.env.BASE ?? '/';
/** The policy the page runs under: no inline script or style, nothing from another origin. */
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const CSP = process.env.CSP !== 'off';
const ENCODINGS = (process.env.ENCODINGS ?? 'br,gzip').split(',').filter((e) => e !== 'identity');
const ONTHEFLY = process.env.ONTHEFLY === '1';
const ROOT = resolve(process.env.DIST ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'dist'));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

if (!BASE.startsWith('/') || !BASE.endsWith('/')) {
  console.error(`serve-dist: BASE must start and end with "/", got "${BASE}"`);
  process.exit(2);
}
if (ENCODINGS.some((e) => !['br', 'gzip'].includes(e))) {
  console.error(`serve-dist: ENCODINGS must list br, gzip or identity, got "${process.env.ENCODINGS}"`);
  process.exit(2);
}
if (!Number.isInteger(PORT) || PORT < 1 || PORT > 65535) {
  console.error(`serve-dist: PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(2);
}

/** Maps a request path to a file below ROOT, or null when it would leave ROOT. */
function fileFor(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded).replace(/^[/\\]+/, '');
  const file = resolve(ROOT, relative);
  if (file !== ROOT && !file.startsWith(ROOT + sep)) return null;
  return file;
}

async function existingFile(file) {
  try {
    const info = await stat(file);
    if (info.isFile()) return { file, size: info.size };
    if (info.isDirectory()) return existingFile(join(file, 'index.html'));
  } catch {
    // not there
  }
  return null;
}

/** The encodings that an Accept-Encoding header accepts (a `q=0` refuses one). */
function accepted(header) {
  const names = new Set();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name);
  }
  return names;
}

/** On-the-fly compressions (ONTHEFLY=1), by file. */
const made = new Map();

/**
 * What to send for `found` to a browser whose Accept-Encoding is `header`: the first encoding
 * of ENCODINGS that it accepts and that the file has, or the file itself.
 * `{ encoding, size, file }` for a file on disk, `{ encoding, size, bytes }` for one made here.
 */
async function encodedFor(found, header) {
  const wanted = accepted(header);
  for (const encoding of ENCODINGS) {
    if (!wanted.has(encoding)) continue;
    const sibling = await existingFile(found.file + SUFFIX[encoding]);
    if (sibling !== null) return { encoding, ...sibling };
    const mode = MODES[extname(found.file).toLowerCase()];
    if (ONTHEFLY && mode !== undefined) {
      if (!made.has(found.file)) made.set(found.file, compressed(await readFile(found.file), mode));
      const bytes = made.get(found.file)[encoding];
      return { encoding, size: bytes.length, bytes };
    }
  }
  return { encoding: null, ...found };
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n');
  }
  const fullPath = new URL(req.url ?? '/', `http://${HOST}`).pathname;
  if (!fullPath.startsWith(BASE)) return send(res, 404, `not found: ${fullPath}\n`);
  const urlPath = '/' + fullPath.slice(BASE.length);
  const file = fileFor(urlPath);
  if (file === null) return send(res, 400, 'bad path\n');

  let found = await existingFile(file);
  // A page address without a file extension (a share link, say) gets the app itself.
  if (found === null && extname(urlPath) === '') found = await existingFile(join(ROOT, 'index.html'));
  if (found === null) return send(res, 404, `not found: ${urlPath}\n`);

  const sent = await encodedFor(found, req.headers['accept-encoding']);
  const headers = {
    'Content-Type': MIME[extname(found.file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': sent.size,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
  };
  if (sent.encoding) headers['Content-Encoding'] = sent.encoding;
  if (CSP && found.file === join(ROOT, 'index.html')) headers['Content-Security-Policy'] = POLICY;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return res.end();
  if (sent.bytes) return res.end(sent.bytes);
  createReadStream(sent.file)
    .on('error', () => res.destroy())
    .pipe(res);
});

server.on('error', (err) => {
  console.error(`serve-dist: cannot serve on ${HOST}:${PORT}: ${err.message}`);
  process.exit(1);
});

server.listen(PORT, HOST, () => {
  console.log(`serve-dist: serving ${ROOT}`);
  console.log(`Playground: http://${HOST}:${PORT}/`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

// The bundle precompressed (www/scripts/compress.mjs) and sent as the browser asks
// (tests/serve-dist.mjs): every compressible file has a .br and a .gz beside it that decode to it,
// the server picks brotli, then gzip, then the plain file by Accept-Encoding, and the page a
// browser loads arrives compressed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { get } from 'node:http';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test as plain } from '@playwright/test';
import { expect, mounted, test } from './playground';
import { MODES, SUFFIX } from '../scripts/compress.mjs';

const dist = process.env.DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** A GET of `path` with `encoding` as its Accept-Encoding: the status, headers and raw body. */
function fetchRaw(baseURL: string, path: string, encoding: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((done, fail) => {
    get(new URL(path, baseURL), { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    }).on('error', fail);
  });
}

plain('each compressible file of the bundle has a .br and a .gz beside it that decode to it', () => {
  // size.txt is budget.mjs's report, written into dist/ after the build.
  const files = filesBelow(dist).filter((f) => extname(f) in MODES && relative(dist, f) !== 'size.txt');
  expect(files.length).toBeGreaterThan(10);
  let compressed = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    const name = relative(dist, file);
    let br: Buffer;
    try {
      br = readFileSync(file + SUFFIX.br);
    } catch {
      // Only a file that brotli could not shrink by a tenth is left plain (a tiny snippet).
      expect(bytes.length, `${name} has no .br`).toBeLessThan(200);
      continue;
    }
    expect(brotliDecompressSync(br).equals(bytes), `${name}.br decodes to ${name}`).toBe(true);
    expect(gunzipSync(readFileSync(file + SUFFIX.gzip)).equals(bytes), `${name}.gz decodes to ${name}`).toBe(true);
    expect(br.length, `${name}.br is smaller`).toBeLessThan(bytes.length);
    compressed += 1;
  }
  expect(compressed).toBeGreaterThan(10);
});

plain('the server sends brotli, gzip or the plain file, as the client accepts', async ({ baseURL }) => {
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  const wasm = /href="\.\/(kafka-election-playground-[0-9a-f]+_bg\.wasm)"/.exec(index)?.[1];
  expect(wasm, 'index.html preloads the module').toBeTruthy();
  const bytes = readFileSync(join(dist, wasm!));
  for (const [accept, encoding, decode] of [
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
    ['identity', undefined, (b: Buffer) => b],
  ] as const) {
    const res = await fetchRaw(baseURL!, wasm!, accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding'], `Accept-Encoding: ${accept}`).toBe(encoding);
    expect(res.headers['content-type']).toBe('application/wasm');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decode(res.body).equals(bytes), `the ${encoding ?? 'plain'} body is the module`).toBe(true);
  }
  // The page itself keeps its policy whatever its encoding.
  const page = await fetchRaw(baseURL!, '/', 'br');
  expect(page.headers['content-encoding']).toBe('br');
  expect(page.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
});

test('the browser gets the page, its stylesheet and its module as brotli', async ({ page }) => {
  const encodings = new Map<string, string | undefined>();
  page.on('response', async (res) => {
    const name = new URL(res.url()).pathname.split('/').pop() || 'index.html';
    encodings.set(name, (await res.allHeaders())['content-encoding']);
  });
  await page.goto('/');
  await mounted(page);
  await expect.poll(() => [...encodings.keys()].some((f) => f.endsWith('_later.wasm'))).toBe(true);
  const sent = Object.fromEntries([...encodings].filter(([f]) => /\.(html|css|js|wasm)$/.test(f) && !f.includes('inline')));
  expect(Object.keys(sent).length).toBeGreaterThanOrEqual(6);
  for (const [file, encoding] of Object.entries(sent)) expect(encoding, file).toBe('br');
});

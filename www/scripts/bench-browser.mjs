// What the page benchmarks share: dist/ (or $DIST) served by www/tests/serve-dist.mjs on a
// free port, and Debian's headless Chromium. `close()` stops both.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The page once its module has started (#app marked mounted): until then #app holds the first
 * frame index.html shows, which looks like the page but is inert. Prefix of the selectors the
 * scripts wait on.
 */
export const MOUNTED = '#app[data-mounted="true"]';

/**
 * Serves a folder with www/tests/serve-dist.mjs on a free port, its settings taken from the
 * environment and `env` (DIST, ENCODINGS, ONTHEFLY, CSP…); resolves to `{ base, close }`.
 */
export async function serveFolder(env = {}) {
  const port = await new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => done(p));
    });
  });
  const server = spawn(process.execPath, [join(here, '..', 'tests', 'serve-dist.mjs')], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 500));
  return { base: `http://127.0.0.1:${port}`, close: () => server.kill() };
}

/** Launches Debian's headless Chromium, as the benchmarks run it. */
export async function launchBrowser() {
  const { chromium } = await import(join(here, '..', 'node_modules', 'playwright-core', 'index.mjs'));
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Serves the bundle and launches the browser; resolves to `{ browser, base, close }`. */
export async function openBench() {
  const server = await serveFolder();
  const browser = await launchBrowser();
  return {
    browser,
    base: server.base,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}

#!/usr/bin/env node
// The page's soak: one virtual hour at 50x (72 s of wall time) in headless Chromium (Debian's
// /usr/bin/chromium), 9 brokers, 12 partitions each taking a produce stream, 6 consumers, and a
// broker crashed or started every 12 s. Every 6 s it prints the page's JavaScript heap (the
// DevTools protocol's JSHeapUsedSize), the WebAssembly memory (the core's heap lives there, in
// linear memory, which the JavaScript heap does not count), the virtual clock, the frames drawn
// in the interval and the event log's newest entry, so that a leak or a page that stops drawing
// or logging shows. A benchmark-like script, not a test: nothing is asserted.
//
//   trunk build --release && node www/scripts/soak-page.mjs [URL-QUERY]
//   MINUTES=5 node www/scripts/soak-page.mjs          # a longer run (wall minutes)
//   DIST=/other/dist node www/scripts/soak-page.mjs   # another build, to compare
//
// The page is served from dist/ (or $DIST) by www/tests/serve-dist.mjs on a free port.
import { MOUNTED, openBench } from './bench-browser.mjs';

const query = process.argv[2] ?? 'brokers=9&partitions=12&consumers=6&speed=50';
const wallMs = Number(process.env.MINUTES ?? 1.2) * 60_000;
const everyMs = 6_000;
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

const { browser, base, close } = await openBench();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Keep the WebAssembly instance's memory where the script can read its size: Trunk's loader
  // announces the started application with its exports.
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => {
      window.__soakWasmMemory = e.detail?.wasm?.memory;
    });
    window.__soakFrames = 0;
    const count = () => {
      window.__soakFrames += 1;
      requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${base}/?${query}`);
  await page.waitForSelector(`${MOUNTED} svg g[data-broker]`);
  const options = await page.getByTestId('stream-partition').locator('option').allTextContents();
  for (const option of options) {
    await page.getByTestId('stream-partition').selectOption({ label: option });
    const toggle = page.getByTestId('stream-toggle');
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  }

  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
    const page_ = await page.evaluate(() => {
      const entries = document.querySelectorAll('ol.events li.event');
      const newest = entries[entries.length - 1];
      return {
        wasm: window.__soakWasmMemory?.buffer?.byteLength ?? 0,
        frames: window.__soakFrames,
        clock: document.querySelector('[data-testid="clock"]')?.textContent ?? '?',
        entries: document.querySelector('.log-count')?.textContent?.trim() ?? '?',
        newest: `#${newest?.dataset.index ?? '?'} ${newest?.querySelector('.when-pick')?.textContent ?? ''}`,
      };
    });
    return { js: metric('JSHeapUsedSize'), nodes: metric('Nodes'), ...page_ };
  };

  console.log(`page: ?${query} with ${options.length} streams, ${wallMs / 1000} s of wall time`);
  console.log('wall (s)  clock       JS heap (MiB)  wasm (MiB)  DOM nodes  frames  log count, newest entry (index, time)');
  const start = Date.now();
  let last = await sample();
  let broker = 1;
  let down = false;
  for (let at = everyMs; at <= wallMs; at += everyMs) {
    await page.waitForTimeout(start + at - Date.now());
    if (at % 12_000 === 0) {
      // Crash a broker, or start the one crashed 12 s before.
      await page.locator(`svg g[data-broker="${broker}"]`).first().click();
      if (down) broker = (broker % 9) + 1;
      down = !down;
    }
    const now = await sample();
    console.log(
      `${(at / 1000).toFixed(0).padStart(8)}  ${now.clock.padEnd(10)}  ${mib(now.js).padStart(13)}  ` +
        `${mib(now.wasm).padStart(10)}  ${String(now.nodes).padStart(9)}  ${String(now.frames - last.frames).padStart(6)}  ` +
        `${now.entries}, ${now.newest}`,
    );
    last = now;
  }
} finally {
  await close();
}

#!/usr/bin/env node
// Measures the timeline in headless Chromium (Debian's /usr/bin/chromium): the release bundle in
// dist/ runs one virtual hour at 50x with 9 brokers, 12 partitions, 6 consumers and produce
// streams to 4 partitions; it prints the page's memory after 5 virtual minutes and after the
// hour (the JS heap after a garbage collection, and the wasm module's linear memory), then drags
// the timeline to 40 points of the hour and prints the median and worst time until the page
// shows each one. A benchmark, not a test: nothing is asserted.
//
//   trunk build --release && node www/scripts/bench-seek.mjs
//   POINTS=10 node www/scripts/bench-seek.mjs     # fewer points
//   DIST=/other/dist node www/scripts/bench-seek.mjs  # another build, to compare
//
// The page is served from dist/ (or $DIST) by www/tests/serve-dist.mjs on a free port.
import { MOUNTED, openBench } from './bench-browser.mjs';

const HOUR_MS = 3_600_000;
const POINTS = Number(process.env.POINTS ?? 40);
const { browser, base, close } = await openBench();
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  // The wasm module's memory, as the page's loader (www/boot.js) announces it.
  await page.addInitScript(() => {
    addEventListener('kafka-election-started', (e) => { window.__benchWasmMemory = e.detail.wasm.memory; });
  });
  await page.goto(`${base}/?brokers=9&partitions=12&consumers=6&speed=50`);
  await page.waitForSelector(`${MOUNTED} svg g[data-broker]`);
  for (const partition of ['orders-1', 'orders-4', 'orders-7', 'orders-10']) {
    await page.getByTestId('stream-partition').selectOption(partition);
    await page.getByTestId('stream-toggle').click();
  }
  // The time shown, as the page writes it into its own link.
  const shown = async () => Number(/[#&]t=(\d+)/.exec(page.url())?.[1] ?? 0);
  const memory = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const wasm = await page.evaluate(() => window.__benchWasmMemory?.buffer.byteLength ?? 0);
    return { heap: heap.usedSize, wasm };
  };
  const started = Date.now();
  while ((await shown()) < 300_000) await page.waitForTimeout(250);
  const at5 = await memory();
  while ((await shown()) < HOUR_MS) await page.waitForTimeout(1000);
  const ran = (Date.now() - started) / 1000;
  const at60 = await memory();
  await page.getByTestId('play').click().catch(() => {});
  // Drag the timeline to points spread over the hour, in a scrambled order.
  const times = [];
  for (let i = 0; i < POINTS; i++) {
    const ms = ((i * 7919) % POINTS) * Math.floor(HOUR_MS / POINTS) + 1_234;
    const took = await page.evaluate((ms) => new Promise((done) => {
      const t0 = performance.now();
      const el = document.querySelector('[data-testid=scrubber]');
      el.value = String(ms);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      const wait = () => (location.hash.includes(`t=${ms}&`) || location.hash.endsWith(`t=${ms}`)
        ? requestAnimationFrame(() => done(performance.now() - t0))
        : setTimeout(wait, 5));
      wait();
    }), ms);
    times.push(took);
  }
  times.sort((a, b) => a - b);
  const after = await memory();
  console.log(`one virtual hour at 50x (9 brokers, 12 partitions, 6 consumers, 4 streams) ran in ${ran.toFixed(0)} s`);
  console.log(`memory after 5 min: JS heap ${mb(at5.heap)}, wasm ${mb(at5.wasm)}`);
  console.log(`memory after 60 min: JS heap ${mb(at60.heap)} (${(at60.heap / at5.heap).toFixed(2)}x), wasm ${mb(at60.wasm)} (${(at60.wasm / at5.wasm).toFixed(2)}x)`);
  console.log(`seek to ${POINTS} points of the hour: median ${times[Math.floor(POINTS / 2)].toFixed(0)} ms, worst ${times[POINTS - 1].toFixed(0)} ms`);
  console.log(`memory after seeking: JS heap ${mb(after.heap)}, wasm ${mb(after.wasm)}`);
} finally {
  await close();
}

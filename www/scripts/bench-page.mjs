// Load-speed benchmark of the page beside a reference page, in one Chromium run:
//
//   node www/scripts/bench-page.mjs [RUNS]
//
// Both pages are served by www/tests/serve-dist.mjs with brotli or gzip, as the browser asks
// ($ENCODINGS=gzip: gzip only, as a host that serves nothing else): the release bundle (dist/, or
// $DIST, which may name several, separated by commas, to compare builds) with the files the build
// precompressed and, if $REFERENCE names a folder, a reference page, compressed as it is asked
// for (RaftScope: its repository, with its two submodules taken from the npm packages
// bootstrap-slider 4.5.7 and bootstrap-contextmenu 1.0.0; put it together outside the project
// and never commit it). Each page is opened RUNS times (default 5) with an empty cache, on
// loopback and under Lighthouse's mobile network (150 ms round trip, 1.6 Mbps down, 750 Kbps
// up, through the DevTools protocol's Network.emulateNetworkConditions). Printed, as medians:
// the bytes transferred (as on the wire; in all, and until the first click was answered), the
// time to the first graph (the playground's brokers, the reference's servers), and the time
// until the page answers a first click (a broker crashed, a server's details shown).
//
// Timings are printed, never asserted: they are figures for the notes, measured side by side.
import { fileURLToPath } from 'node:url';
import { dirname, join, normalize } from 'node:path';
import { launchBrowser, MOUNTED, serveFolder } from './bench-browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const dist = process.env.DIST ?? join(here, '..', '..', 'dist');
const reference = process.env.REFERENCE;
// What the server may send: "br,gzip" (the default), "gzip" for a host that serves gzip only.
const encodings = process.env.ENCODINGS ?? 'br,gzip';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * One visit: bytes on the wire (in all, and until the first click was answered), ms to the
 * first graph, ms to the answer to a first click.
 */
async function visit(browser, url, page, throttled) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
  }
  let bytes = 0;
  // A request's bytes as it finishes (headers and body, as on the wire). A request that the
  // browser reports as aborted counts what it had received: under the throttled network, the
  // preloaded module that the loader reads as a stream is reported so once read, and its
  // loadingFinished never comes.
  const received = new Map();
  cdp.on('Network.dataReceived', (e) => received.set(e.requestId, (received.get(e.requestId) ?? 0) + e.encodedDataLength));
  const done = (id, n) => {
    bytes += n;
    received.delete(id);
  };
  cdp.on('Network.loadingFinished', (e) => done(e.requestId, e.encodedDataLength));
  cdp.on('Network.loadingFailed', (e) => done(e.requestId, received.get(e.requestId) ?? 0));
  // What had arrived when the click was answered: the requests finished, and the bodies of
  // those still arriving so far.
  const arrived = () => bytes + [...received.values()].reduce((a, b) => a + b, 0);
  const start = Date.now();
  await tab.goto(url, { waitUntil: 'commit' });
  await tab.waitForSelector(page.graph, { state: 'visible', timeout: 120_000 });
  const graph = Date.now() - start;
  // Clicked the moment the page can take it (page.ready, checked every frame): a click that
  // Playwright finds the page not ready for (the first frame is inert until the module starts)
  // is tried again only after up to 500 ms, which would count its back-off, not the page.
  await tab.waitForFunction((selector) => {
    const el = document.querySelector(selector);
    return el !== null && el.closest('[inert]') === null;
  }, page.ready, { polling: 'raf', timeout: 120_000 });
  await tab.click(page.target, { timeout: 120_000 });
  await tab.waitForSelector(page.answered, { state: 'visible', timeout: 120_000 });
  const click = Date.now() - start;
  const beforeClick = arrived();
  // Files still arriving after the click (fetched later) count too.
  await tab.waitForLoadState('networkidle').catch(() => undefined);
  await context.close();
  return { bytes, beforeClick, graph, click };
}

const browser = await launchBrowser();
const pages = [];
// The bundle's precompressed files; the reference's compressed as they are asked for, alike.
// $DIST may name several bundles, separated by commas, to compare builds in one run.
for (const folder of dist.split(',')) {
  const playground = await serveFolder({ DIST: normalize(folder), ENCODINGS: encodings, ONTHEFLY: '1' });
  pages.push({
    name: dist.includes(',') ? folder.replace(/\/+$/, '').split('/').pop() : 'playground',
    url: `${playground.base}/?lang=en`,
    graph: 'svg g[data-broker="3"]',
    target: 'svg g.node[data-broker="2"]',
    // Started: a broker that has not started yet does not crash.
    ready: `${MOUNTED} svg g.node[data-broker="2"][data-state="running"]`,
    answered: 'svg g.node[data-broker="2"][data-state="crashed"]',
    server: playground,
  });
}
if (reference) {
  const ref = await serveFolder({ DIST: normalize(reference), ENCODINGS: encodings, ONTHEFLY: '1', CSP: 'off' });
  pages.push({
    name: 'reference',
    url: `${ref.base}/index.html`,
    graph: '#servers g.server',
    target: '#server-1',
    ready: '#server-1',
    answered: '.modal.in',
    server: ref,
  });
} else {
  console.log('(no REFERENCE folder: the playground alone)');
}

console.log(`served ${encodings}; median of ${runs} runs; KB on the wire (1 KB = 1,000 bytes), in all and until the first click was answered`);
console.log(`${''.padEnd(36)} ${'KB'.padStart(8)} ${'KB to click'.padStart(12)}   ${'first graph ms'.padStart(14)}   ${'first click answered ms'.padStart(22)}`);
for (const throttled of [false, true]) {
  const seen = new Map(pages.map((p) => [p.name, []]));
  // The pages take turns run by run, so that both see the machine as it is.
  for (let i = 0; i < runs; i++) {
    for (const page of pages) seen.get(page.name).push(await visit(browser, page.url, page, throttled));
  }
  for (const page of pages) {
    const got = seen.get(page.name);
    const label = `${page.name}, ${throttled ? 'mobile 150 ms 1.6 Mbps' : 'loopback'}`;
    console.log(
      `${label.padEnd(36)} ${(median(got.map((s) => s.bytes)) / 1000).toFixed(1).padStart(8)}` +
        ` ${(median(got.map((s) => s.beforeClick)) / 1000).toFixed(1).padStart(12)}` +
        `   ${String(median(got.map((s) => s.graph))).padStart(14)}` +
        `   ${String(median(got.map((s) => s.click))).padStart(22)}`,
    );
  }
}
await browser.close();
for (const page of pages) page.server.close();

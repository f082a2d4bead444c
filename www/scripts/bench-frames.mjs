#!/usr/bin/env node
// Measures the page's frame intervals in headless Chromium (Debian's /usr/bin/chromium): the
// release bundle in dist/ at 50x with 9 brokers, 12 partitions each taking a produce stream and
// 6 consumers, over 20 s of wall time after a 5 s warm-up. Prints the median and 95th percentile
// of the intervals between animation frames, and the share of frames over 20 ms. A benchmark,
// not a test: nothing is asserted.
//
//   trunk build --release && node www/scripts/bench-frames.mjs [URL-QUERY]
//   STREAMS=4 node www/scripts/bench-frames.mjs      # streams to the first 4 partitions only
//   DIST=/other/dist node www/scripts/bench-frames.mjs  # another build, to compare
//
// The page is served from dist/ (or $DIST) by www/tests/serve-dist.mjs on a free port.
import { MOUNTED, openBench } from './bench-browser.mjs';

const query = process.argv[2] ?? 'brokers=9&partitions=12&consumers=6&speed=50';
const { browser, base, close } = await openBench();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/?${query}`);
  await page.waitForSelector(`${MOUNTED} svg g[data-broker]`);
  // A stream to every partition of the default topic.
  const options = await page.getByTestId('stream-partition').locator('option').allTextContents();
  const wanted = Number(process.env.STREAMS ?? options.length);
  for (const option of options.slice(0, wanted)) {
    await page.getByTestId('stream-partition').selectOption({ label: option });
    const toggle = page.getByTestId('stream-toggle');
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  }
  await page.waitForTimeout(5_000);
  const intervals = await page.evaluate(() => new Promise((done) => {
    const times = [];
    const start = performance.now();
    const tick = (t) => {
      times.push(t);
      if (t - start < 20_000) requestAnimationFrame(tick);
      else done(times.slice(1).map((x, i) => x - times[i]));
    };
    requestAnimationFrame(tick);
  }));
  intervals.sort((a, b) => a - b);
  const at = (q) => intervals[Math.min(intervals.length - 1, Math.floor(q * intervals.length))];
  const slow = intervals.filter((x) => x > 20).length / intervals.length;
  const streams = Math.min(wanted, options.length);
  console.log(`page: ?${query} with ${streams} streams, ${intervals.length} frames in 20 s`);
  console.log(`frame interval p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, over 20 ms: ${(slow * 100).toFixed(1)} %`);
} finally {
  await close();
}

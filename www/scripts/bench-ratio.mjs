#!/usr/bin/env node
// The same core work natively and in wasm, and the ratio wasm/native: a fresh free-play session
// with 9 brokers, 12 partitions and 6 consumers, taken from t = 0 to ten virtual minutes. The
// native side is `cargo bench --bench ratio` (benches/ratio.rs); the wasm side mounts the same
// session paused through the page's JavaScript API (dist/, served by serve-dist.mjs, in Debian's
// headless Chromium) and times `seek(600000)`, which runs the same session code (plus drawing
// one frame at the end). Medians of RUNS runs (default 5). A benchmark: nothing is asserted.
//
//   trunk build --release && node www/scripts/bench-ratio.mjs
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBench } from './bench-browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.RUNS ?? 5);
const UNTIL_MS = 600_000;

const native = execFileSync('cargo', ['bench', '--quiet', '--bench', 'ratio'], {
  cwd: join(here, '..', '..'),
  env: { ...process.env, RUNS: String(runs) },
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const nativeMs = Number(/native median ms: ([\d.]+)/.exec(native)?.[1]);
if (!Number.isFinite(nativeMs)) {
  console.error(`bench-ratio: the native bench printed no median:\n${native}`);
  process.exit(1);
}

const { browser, base, close } = await openBench();
let wasmMs;
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/?paused=1`);
  await page.waitForFunction(() => window.KafkaElection);
  const times = [];
  for (let i = 0; i < runs; i++) {
    times.push(await page.evaluate((until) => {
      const host = document.createElement('div');
      document.body.appendChild(host);
      const pg = window.KafkaElection.mount(host, { brokers: 9, partitions: 12, consumers: 6, paused: true });
      const began = performance.now();
      pg.seek(until);
      const took = performance.now() - began;
      pg.unmount();
      host.remove();
      return took;
    }, UNTIL_MS));
  }
  times.sort((a, b) => a - b);
  wasmMs = times[Math.floor(runs / 2)];
} finally {
  await close();
}
process.stdout.write(native.split('\n').filter((l) => l.startsWith('native:')).join('\n') + '\n');
console.log(`core, t = 0 to ${UNTIL_MS / 1000} s (median of ${runs}): native ${nativeMs.toFixed(1)} ms, wasm ${wasmMs.toFixed(1)} ms, ratio wasm/native ${(wasmMs / nativeMs).toFixed(2)}`);

// The graph's words stay readable: a message's name never covers a node's words, a phone's
// replica badges keep the leader epoch, and a playground embedded in a short, wide box (the
// README's snippet, 540 px tall) draws its brokers in a row, at a size one can read.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { broker, controller, ensurePlaying, expect, test } from './playground';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Box = { x: number; y: number; w: number; h: number; text: string };

/** The boxes of the messages' names in the air, and of the nodes' own words. */
async function wordBoxes(page: Page): Promise<{ labels: Box[]; words: Box[] }> {
  return page.evaluate(() => {
    const box = (e: Element): Box => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height, text: e.textContent ?? '' };
    };
    const labels = [...document.querySelectorAll('svg.graph .flight-label')].map(box);
    const words = [...document.querySelectorAll('svg.graph g.broker text, svg.graph g.broker tspan')]
      .filter((e) => (e.textContent ?? '').trim() !== '' && e.getBoundingClientRect().width > 0)
      .map(box);
    return { labels, words };
  });
}

const apart = (a: Box, b: Box) => a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;

for (const width of [1440, 360]) {
  test(`at ${width} px a message's name never covers a broker's words while the controller fails over`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width > 400 ? 900 : 740 });
    // Slow enough that the messages carry their names.
    await page.goto('/?speed=1');
    await ensurePlaying(page);
    await expect(controller(page)).toHaveCount(1, { timeout: 20_000 });
    const id = (await controller(page).getAttribute('data-broker')) as string;
    await broker(page, id).click({ button: 'right' });
    await page.getByTestId('broker-menu').getByRole('button', { name: /shut down/i }).click();
    let seen = 0;
    const covered: string[] = [];
    for (let k = 0; k < 60; k++) {
      const { labels, words } = await wordBoxes(page);
      seen += labels.length;
      for (const l of labels) {
        for (const w of words) {
          if (!apart(l, w)) covered.push(`"${l.text}" over "${w.text}"`);
        }
      }
      await page.waitForTimeout(100);
    }
    // A phone's graph is packed tight: a name is drawn only where it fits clear of the words,
    // which may be nowhere (the log names every message).
    if (width > 400) expect(seen, 'named messages were in the air').toBeGreaterThan(0);
    expect([...new Set(covered)]).toEqual([]);
  });
}

test("a phone's replica badges keep each leader's epoch", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/?speed=50');
  await ensurePlaying(page);
  await expect(controller(page)).toHaveCount(1, { timeout: 20_000 });
  // The default topic's three partitions: each leader's badge says its epoch ("e0").
  await expect(page.locator('svg.graph .replica-epoch')).toHaveCount(3, { timeout: 20_000 });
  await expect(page.locator('svg.graph .replica-epoch').first()).toHaveText(/^\s*e\d+$/);
});

const readme = readFileSync(`${ROOT}README.md`, 'utf8');
const apiSnippet = [...readme.matchAll(/```html\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .find((s) => s.includes('KafkaElection.mount')) as string;

/** The graph's type as drawn on screen (CSS px): smallest and median. */
async function drawnType(page: Page): Promise<{ min: number; median: number; row: boolean }> {
  return page.evaluate(() => {
    const svg = document.querySelector('.kafka-election svg.graph') as SVGSVGElement;
    const scale = (svg.getScreenCTM() as DOMMatrix).a;
    const sizes = [...svg.querySelectorAll('text, tspan')]
      .filter((t) => [...t.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== ''))
      .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)
      .sort((a, b) => a - b);
    const ys = [...svg.querySelectorAll('g.node[data-broker]')].map((n) => Math.round(n.getBoundingClientRect().y));
    return { min: sizes[0], median: sizes[Math.floor(sizes.length / 2)], row: new Set(ys).size === 1 };
  });
}

/** Opens a host page holding the README's API snippet verbatim, inside a `column` px wide
 * column when `column` is given, with a paragraph (`#after`) after it. */
async function openSnippet(page: Page, column?: number) {
  expect(apiSnippet, 'the README has the API snippet').toBeTruthy();
  const main = column ? ` style="max-width: ${column}px; margin: 0 auto"` : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title></head>
    <body><main${main}><h2>Embedding</h2>${apiSnippet.replaceAll('https://your.docs/playground/', '../')}<p id="after">After.</p></main></body></html>`;
  await page.route('**/labels-host/page.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.goto('/labels-host/page.html');
}

for (const width of [1440, 1024]) {
  test(`the README's API snippet at ${width} px: the brokers in a row, the graph's type 10 px or more`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openSnippet(page);
    await expect(page.locator('.kafka-election svg g[data-broker]').first()).toBeVisible();
    await expect.poll(async () => (await drawnType(page)).row, { timeout: 10_000 }).toBe(true);
    const type = await drawnType(page);
    // The ellipse drew it at about 7 px (median) in this box.
    expect(type.median, `median ${type.median.toFixed(1)} px`).toBeGreaterThanOrEqual(10);
    expect(type.min, `smallest ${type.min.toFixed(1)} px`).toBeGreaterThanOrEqual(8);
  });
}

// Under 900 px the graph would share its width with the log at about 7.6 px (a 760 px docs
// column) or squeeze under the controls at 2.7 px (a phone): there the mount shows the cluster
// or the log, under two tabs, and the graph takes the whole width; under 560 px (a phone, or a
// narrow column in a wide window) it is the phone's graph, which scrolls in its tab.
for (const [width, column] of [
  [1440, 760],
  [1440, 360],
  [360, 0],
] as const) {
  const where = column ? `a ${column} px column at ${width} px` : `a ${width} px window`;
  test(`the README's API snippet in ${where}: the cluster or the log under two tabs, the graph's type 10 px or more`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openSnippet(page, column);
    const pg = page.locator('.kafka-election');
    await expect(pg.locator('svg g[data-broker]').first()).toBeVisible();
    const tabs = pg.getByRole('tab');
    await expect(tabs).toHaveText(['Cluster', 'Log']);
    await expect(pg.getByRole('tab', { name: 'Cluster' })).toHaveAttribute('aria-selected', 'true');
    await expect(pg.locator('.log-wrap')).toBeHidden();
    const type = await drawnType(page);
    expect(type.median, `median ${type.median.toFixed(1)} px`).toBeGreaterThanOrEqual(10);
    expect(type.min, `smallest ${type.min.toFixed(1)} px`).toBeGreaterThanOrEqual(8);
    // Every broker can be reached: on screen, or by scrolling the cluster's tab.
    for (const b of await pg.locator('svg g.node[data-broker]').all()) {
      await b.scrollIntoViewIfNeeded();
      await expect(b).toBeInViewport();
    }
    // The Log tab: the log in the graph's place, at its newest entry, inside the mount.
    await pg.getByRole('tab', { name: 'Log' }).click();
    await expect(pg.locator('svg.graph')).toBeHidden();
    const log = pg.locator('.log-wrap');
    await expect(log).toBeVisible();
    await expect(log.locator('.event').last()).toBeInViewport();
    const [mount, logBox, after] = await Promise.all([
      pg.boundingBox(),
      log.boundingBox(),
      page.locator('#after').boundingBox(),
    ]);
    expect(logBox!.y + logBox!.height).toBeLessThanOrEqual(mount!.y + mount!.height + 0.5);
    expect(after!.y).toBeGreaterThanOrEqual(mount!.y + mount!.height - 0.5);
    await pg.getByRole('tab', { name: 'Cluster' }).click();
    await expect(pg.locator('svg.graph')).toBeVisible();
    await expect(log).toBeHidden();
  });
}

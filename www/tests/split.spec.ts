// The module in two parts (www/scripts/split-module.mjs): the default page runs and answers a
// learner's first clicks with the first part alone; the second part follows in the background,
// and a call into it before it has arrived waits for it instead of failing; an address that
// needs more than the default page fetches both parts before it starts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as plain, type Page, type Request, type Route } from '@playwright/test';
import { broker, brokers, expect, mounted, test } from './playground';

const dist = process.env.DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const LATER = '**/*_later.wasm';

/** Holds every request for the second part until `release()`; counts them by kind. */
async function holdSecondPart(page: Page) {
  const held: Route[] = [];
  const kinds: string[] = [];
  let released = false;
  await page.route(LATER, async (route) => {
    kinds.push(route.request().resourceType());
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    kinds,
    release: async () => {
      released = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

test('the build splits the module: index.html loads the first part only, the glue names the second', () => {
  const files = readdirSync(dist);
  const first = files.filter((f) => /^kafka-election-playground-[0-9a-f]+_bg\.wasm$/.test(f));
  const second = files.filter((f) => /^kafka-election-playground-[0-9a-f]+_later\.wasm$/.test(f));
  expect(first, 'one first part').toHaveLength(1);
  expect(second, 'one second part').toHaveLength(1);
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  expect(index).toContain(first[0]);
  expect(index).not.toContain(second[0]);
  const boot = files.filter((f) => /^boot-[0-9a-f]+\.js$/.test(f));
  expect(boot).toHaveLength(1);
  expect(readFileSync(join(dist, boot[0]), 'utf8')).toContain(first[0]);
  const glue = files.filter((f) => /^kafka-election-playground-[0-9a-f]+\.js$/.test(f));
  expect(glue).toHaveLength(1);
  expect(readFileSync(join(dist, glue[0]), 'utf8')).toContain(second[0]);
});

test('the story files are served beside the module, not carried in it', () => {
  const files = readdirSync(dist);
  const bytes = (re: RegExp) => readFileSync(join(dist, files.find((f) => re.test(f))!));
  const first = bytes(/_bg\.wasm$/);
  const second = bytes(/_later\.wasm$/);
  for (const story of ['paused-controller', 'controller-crash', 'group-leader-leaves']) {
    const text = readFileSync(new URL(`../scenarios/${story}.json`, import.meta.url));
    expect(readFileSync(join(dist, 'scenarios', `${story}.json`)).equals(text), `${story} is in the bundle`).toBe(true);
    // A distinctive line of the file, which the module would hold if it carried the file.
    const description = JSON.parse(text.toString()).description as string;
    expect(first.includes(description), `${story}'s text is not in the first part`).toBe(false);
    expect(second.includes(description), `${story}'s text is not in the second part`).toBe(false);
  }
});

for (const address of ['/', '/?lang=en', '/?lang=zh-CN']) {
  test(`with the second part held back, ${address} draws, plays and answers a first crash and restart`, async ({
    page,
  }) => {
    const later = await holdSecondPart(page);
    await page.goto(address);
    await expect(brokers(page)).toHaveCount(3);
    await mounted(page);
    // The page asked for the second part in the background (a fetch, not a blocking request).
    await expect.poll(() => later.kinds).toEqual(['fetch']);
    const clock = page.getByTestId('clock');
    const before = await clock.textContent();
    await expect(clock).not.toHaveText(before ?? '');
    // (data-state, not the accessible name: the Chinese page names states in Chinese.) Broker 2
    // starts a moment after the clock does; a click before that is not a crash.
    await expect(broker(page, 2)).toHaveAttribute('data-state', 'running');
    await broker(page, 2).click();
    await expect(broker(page, 2)).toHaveAttribute('data-state', 'crashed');
    await broker(page, 2).click();
    await expect(broker(page, 2)).not.toHaveAttribute('data-state', 'crashed');
    expect(later.kinds, 'nothing waited for the second part').toEqual(['fetch']);
    // Data that moved to the second part reads as zeros until it is there: no text or attribute
    // the first view drew may hold a zero character (a moved string read too early).
    const zeros = await page.evaluate(() => {
      const found: string[] = [];
      for (const el of document.querySelectorAll('#app, #app *')) {
        for (const node of el.childNodes) {
          if (node.nodeType === Node.TEXT_NODE && node.textContent?.includes('\u0000')) {
            found.push(`text in <${el.tagName.toLowerCase()}>`);
          }
        }
        for (const attr of el.attributes) {
          if (attr.value.includes('\u0000')) found.push(`${attr.name} of <${el.tagName.toLowerCase()}>`);
        }
      }
      return found;
    });
    expect(zeros).toEqual([]);
    // The parts drawn from the second part (the panels under the graph, the explanation, the
    // log's Kafka detail) say they are loading, and take their place once it is there.
    const waiting = page.getByTestId('later-wait');
    await expect(waiting).toHaveCount(4);
    for (const w of await waiting.all()) await expect(w).toHaveAttribute('aria-busy', 'true');
    await expect(page.getByTestId('partitions')).toHaveCount(0);
    // The log lists the key events until every event's sentence is here: its filter waits.
    const keyOnly = page.getByTestId('key-only');
    await expect(keyOnly).toBeChecked();
    await expect(keyOnly).toBeDisabled();
    // Pausing the clock and running it again does not wait for it either.
    await page.getByTestId('play').click();
    const paused = await clock.textContent();
    await page.waitForTimeout(300);
    await expect(clock).toHaveText(paused ?? '');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
    await page.keyboard.press(' ');
    await expect(clock).not.toHaveText(paused ?? '');
    expect(later.kinds, 'nothing waited for the second part').toEqual(['fetch']);
    await later.release();
    await expect(waiting).toHaveCount(0);
    await expect(keyOnly).toBeEnabled();
    await keyOnly.uncheck();
    await expect(page.locator('#app [data-kind="broker_registered"]').first()).toBeVisible();
    await expect(page.getByTestId('partitions')).toHaveCount(1);
    await expect(page.getByTestId('group-panel')).toHaveCount(1);
    await expect(page.getByTestId('event-detail').first()).toContainText(/\S/);
    expect(later.kinds, 'the second part was fetched once').toEqual(['fetch']);
  });
}

test('a tab or a Kafka detail opened before the second part arrives says it is loading, then shows it', async ({ page }) => {
  const later = await holdSecondPart(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/?lang=en');
  await mounted(page);
  const tab = page.locator('#app [role="tab"][data-tab="partitions"]');
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const panel = page.locator('#app [role="tabpanel"]:visible');
  await expect(panel.getByTestId('later-wait')).toHaveText('Partitions' + 'Loading this part of the page…');
  await page.locator('#app [role="tab"][data-tab="log"]').click();
  // The controller's election (the log's key events start with the brokers starting).
  const entry = page.locator('li.event[data-kind="controller_elected"]');
  const toggle = entry.getByTestId('event-detail-toggle');
  await toggle.click();
  const detail = entry.getByTestId('event-detail');
  await expect(detail).toBeVisible();
  await expect(detail).toHaveText('Loading this part of the page…');
  expect(later.kinds, 'nothing waited for the second part').toEqual(['fetch']);
  await later.release();
  await expect(detail.locator('code.kind')).toHaveText('controller_elected');
  await expect(detail.locator('.detail-cause')).toContainText('/controller');
  await page.locator('#app [role="tab"][data-tab="partitions"]').click();
  await expect(page.getByTestId('partitions')).toBeVisible();
});

test('a story chosen before the second part has arrived waits for it, then plays', async ({ page }) => {
  const later = await holdSecondPart(page);
  await page.goto('/?lang=en');
  await mounted(page);
  await expect.poll(() => later.kinds).toEqual(['fetch']);
  // The story's reader is in the second part: choosing one asks for it at once. The request
  // blocks the page until it is answered, so it is answered a moment after it was made.
  page.on('request', (request: Request) => {
    if (request.url().endsWith('_later.wasm') && request.resourceType() === 'xhr') {
      setTimeout(() => void later.release(), 500);
    }
  });
  await page.getByTestId('story').selectOption('clean-shutdown');
  await expect(page.getByTestId('story-box')).toContainText('shuts down cleanly');
  expect(later.kinds).toEqual(['fetch', 'xhr']);
});

test('an address that needs more than the default page fetches both parts before it starts', async ({ page }) => {
  const kinds: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('_later.wasm')) kinds.push(request.resourceType());
  });
  await page.goto('/?story=controller-crash&paused=1');
  await expect(page.getByTestId('story-box')).toBeVisible();
  await expect(page.getByTestId('story')).toHaveValue('controller-crash');
  // One fetch, started with the first part's; no blocking request.
  expect(kinds).toEqual(['fetch']);
});

// (The plain test: the browser logs the failed request as a console error, which is the point.)
plain('when the second part cannot be had, the page says so the moment it needs it', async ({ page }) => {
  await page.route(LATER, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/?lang=en');
  await mounted(page);
  await expect(page.locator('#fatal')).toBeHidden();
  // Free play goes on without it; the parts drawn from it say they could not be loaded.
  await broker(page, 2).click();
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /crashed/i);
  await expect(page.getByTestId('later-wait').first()).toContainText('could not be loaded. Reload the page');
  await expect(page.getByTestId('later-wait').first()).toHaveAttribute('aria-busy', 'false');
  await page.getByTestId('story').selectOption('clean-shutdown');
  const fatal = page.locator('#fatal');
  await expect(fatal).toBeVisible();
  await expect(fatal).toContainText(/could not load .*_later\.wasm \(HTTP 404\)\. Reload the page\./);
});

plain('a story link whose second part fails once still starts, and fetches it again when it needs it', async ({ page }) => {
  let failed = 0;
  await page.route(LATER, async (route) => {
    if (failed === 0) {
      failed += 1;
      await route.fulfill({ status: 503, body: 'busy' });
    } else {
      await route.continue();
    }
  });
  await page.goto('/?story=controller-crash&paused=1');
  await mounted(page);
  await expect(page.getByTestId('story')).toHaveValue('controller-crash');
  await expect(page.getByTestId('story-box')).toBeVisible();
  await expect(page.locator('#fatal')).toBeHidden();
  expect(failed).toBe(1);
});

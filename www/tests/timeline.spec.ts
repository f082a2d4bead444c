// The timeline and the session link: scrub back and forward, step back, fork and undo, a link
// opened in a fresh page, export to a scenario file the command line replays, and import.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { broker, controllerId, expect, openPlayground, phrase, test } from './playground';

const epoch = (page: Page) => page.getByTestId('controller-epoch');

/** Virtual time shown, in ms, read from the timeline's "now / end" label. */
async function shownMs(page: Page): Promise<number> {
  const text = (await page.getByTestId('timeline-times').textContent()) ?? '';
  const m = /^\s*([\d.]+)\s*s/.exec(text);
  expect(m, `a time in "${text}"`).not.toBeNull();
  return Math.round(Number(m![1]) * 1000);
}

/** Drags the scrubber to `ms`, as a learner's drag ends there. */
async function scrub(page: Page, ms: number): Promise<void> {
  await page.getByTestId('scrubber').evaluate((el, v) => {
    const input = el as HTMLInputElement;
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
  await expect.poll(() => shownMs(page)).toBe(ms);
}

async function pause(page: Page): Promise<void> {
  const play = page.getByTestId('play');
  if (/pause/i.test((await play.textContent()) ?? '')) await play.click();
  await expect(play).toContainText(/play/i);
}

/** Free play at 50x: crash the controller, wait for the new one (epoch 2), pause. */
async function crashedController(page: Page): Promise<string> {
  await openPlayground(page, '50');
  await broker(page, 1).click();
  await expect(broker(page, 1)).toHaveAttribute('data-state', 'crashed');
  await expect(epoch(page)).toContainText(phrase('epoch 2'), { timeout: 30_000 });
  await pause(page);
  return controllerId(page);
}

test('scrubbing back and forward shows the cluster as it was at that time', async ({ page }) => {
  const next = await crashedController(page);
  const end = await shownMs(page);
  expect(end).toBeGreaterThan(20_000);
  await scrub(page, 3_000);
  await expect(epoch(page)).toContainText('broker 1');
  await expect(epoch(page)).toContainText(phrase('epoch 1'));
  await expect(broker(page, 1)).not.toHaveAttribute('data-state', 'crashed');
  await expect(page.getByTestId('timeline-past')).toBeVisible();
  // No event of a later time is in the log.
  await expect(page.locator('[data-kind="controller_elected"]').filter({ hasText: phrase('epoch 2') })).toHaveCount(0);
  await scrub(page, end);
  await expect(epoch(page)).toContainText(`broker ${next}`);
  await expect(epoch(page)).toContainText(phrase('epoch 2'));
  await expect(broker(page, 1)).toHaveAttribute('data-state', 'crashed');
  await expect(page.getByTestId('timeline-past')).toHaveCount(0);
});

test('stepping back goes to the previous event; acting in the past forks, and the fork can be undone', async ({ page }) => {
  await crashedController(page);
  const end = await shownMs(page);
  await scrub(page, 10_000);
  await page.getByTestId('step-back').click();
  const back = await shownMs(page);
  expect(back).toBeLessThan(10_000);
  await page.getByTestId('step-forward').click();
  expect(await shownMs(page)).toBeGreaterThan(back);
  // Broker 1 crashed at some point after 3 s: crash broker 2 at 3 s instead. The crash of
  // broker 1, recorded later, is dropped.
  await scrub(page, 3_000);
  await broker(page, 2).click();
  await expect(page.getByTestId('fork-note')).toContainText('1 later command(s) were dropped');
  await expect(broker(page, 2)).toHaveAttribute('data-state', 'crashed');
  await expect(broker(page, 1)).not.toHaveAttribute('data-state', 'crashed');
  await page.getByTestId('undo-fork').click();
  await expect(page.getByTestId('fork-note')).toHaveCount(0);
  await expect(broker(page, 2)).not.toHaveAttribute('data-state', 'crashed');
  await scrub(page, end);
  await expect(broker(page, 1)).toHaveAttribute('data-state', 'crashed');
  await expect(epoch(page)).toContainText(phrase('epoch 2'));
});

test('a share link opened in a fresh page shows the same controller, partitions and group', async ({ page, browser }) => {
  await page.goto('/?consumers=2&speed=50');
  await expect(page.locator('svg g[data-member]')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('group-generation')).not.toHaveAttribute('data-generation', '0', { timeout: 20_000 });
  await broker(page, 1).click();
  await expect(epoch(page)).toContainText(phrase('epoch 2'), { timeout: 30_000 });
  await pause(page);
  await expect.poll(() => page.url()).toContain('&c=');
  const url = page.url();
  expect(url).toMatch(/#v=1&m=\d+&consumers=2&t=\d+/);
  const read = async (p: Page) => ({
    controller: await p.getByTestId('controller-epoch').textContent(),
    time: await p.getByTestId('timeline-times').textContent(),
    partitions: await p.locator('tr[data-partition^="orders-"]').evaluateAll((rows) =>
      rows.map((r) => [r.getAttribute('data-partition'), ...['leader', 'leader_epoch', 'isr', 'hw'].map((f) => r.querySelector(`[data-field="${f}"]`)?.textContent)]),
    ),
    generation: await p.getByTestId('group-generation').getAttribute('data-generation'),
    leader: await p.getByTestId('group-leader').getAttribute('data-leader'),
    coordinator: await p.getByTestId('group-coordinator').getAttribute('data-coordinator'),
  });
  const original = await read(page);
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(url);
  await expect(fresh.locator('svg g[data-broker]').first()).toBeVisible();
  await expect(fresh.getByTestId('play')).toContainText(/play/i);
  expect(await read(fresh)).toEqual(original);
  expect(original.partitions.length).toBe(3);
});

test('a bad link says why and leaves the session shown as it was', async ({ page }) => {
  await openPlayground(page, '50');
  await pause(page);
  const before = await shownMs(page);
  await page.evaluate(() => { window.location.hash = 'v=1&m=1&t=5000&c=1000c9'; });
  await expect(page.getByTestId('error')).toContainText('The link could not be opened');
  await expect(page.getByTestId('error')).toContainText('broker 9');
  expect(await shownMs(page)).toBe(before);
});

test('an exported session replays on the command line to the same state; a file imports', async ({ page }, testInfo) => {
  // Built by `cargo test`, which www/scripts/test.sh runs before the browser tests.
  const cli = fileURLToPath(new URL('../../target/debug/kafka-election', import.meta.url));
  expect(existsSync(cli), `${cli} exists (cargo build --bin kafka-election)`).toBe(true);
  await crashedController(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('share').click().then(() => page.getByTestId('export').click())]);
  const file = testInfo.outputPath('session.json');
  await download.saveAs(file);
  const scenario = JSON.parse(readFileSync(file, 'utf8'));
  expect(scenario.actions).toEqual([expect.objectContaining({ do: 'crash', broker: 1 })]);
  const lines = execFileSync(cli, ['run', file], { encoding: 'utf8' }).trim().split('\n');
  const state = JSON.parse(lines[lines.length - 1]);
  const shown = await shownMs(page);
  expect(state.time_ms).toBe(shown);
  await expect(epoch(page)).toContainText(`broker ${state.controller}`);
  await expect(epoch(page)).toContainText(phrase(`epoch ${state.controller_epoch}`));
  const orders = Object.entries(state.partitions as Record<string, { leader: number | null }>).filter(([k]) => k.startsWith('orders-'));
  expect(orders.length).toBe(3);
  for (const [key, p] of orders) {
    await expect(page.locator(`tr[data-partition="${key}"] [data-field="leader"]`)).toHaveText(String(p.leader ?? 'none'));
  }
  // Import it back: the page plays it as an imported scenario from t = 0.
  await page.getByTestId('import').setInputFiles(file);
  await expect(page.getByTestId('story-box')).toContainText('imported');
  await expect(page.getByTestId('story-next')).toContainText('crash broker 1');
  // A broken file changes nothing.
  await page.getByTestId('import').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "brokers": [1], "actions": [{"at_ms": 5, "do": "explode"}]}') });
  await expect(page.getByTestId('error')).toContainText('The file could not be opened: actions[0]: unknown action "explode"');
  await expect(page.getByTestId('story-next')).toContainText('crash broker 1');
});

test('clicking an event in the log shows its moment and highlights the nodes it is about', async ({ page }) => {
  const next = await crashedController(page);
  const entry = page.locator('[data-kind="controller_elected"]').filter({ hasText: phrase('epoch 2') });
  await expect(entry).toHaveCount(1);
  const when = (await entry.locator('time.when').textContent()) ?? '';
  const ms = Math.round(Number(when.replace('s', '')) * 1000);
  await scrub(page, 2_000);
  await expect(entry).toHaveCount(0);
  await scrub(page, await (async () => {
    // Back to the end, then pick the event from there.
    const text = (await page.getByTestId('timeline-times').textContent()) ?? '';
    return Math.round(Number(text.split('/')[1].trim().replace('s', '')) * 1000);
  })());
  await entry.getByTestId('event-time').click();
  await expect.poll(() => shownMs(page)).toBe(ms);
  await expect(broker(page, next)).toHaveAttribute('data-picked', 'true');
  await expect(epoch(page)).toContainText(phrase('epoch 2'));
  // A command clears the highlight.
  await broker(page, next).click();
  await expect(broker(page, next)).not.toHaveAttribute('data-picked', 'true');
});

test('a scenario file dropped on the page opens as an imported session', async ({ page }) => {
  await openPlayground(page, '50');
  await pause(page);
  const text = readFileSync(fileURLToPath(new URL('../scenarios/controller-crash.json', import.meta.url)), 'utf8');
  const drop = await page.evaluateHandle((json) => {
    const dt = new DataTransfer();
    dt.items.add(new File([json], 'controller-crash.json', { type: 'application/json' }));
    return dt;
  }, text);
  await page.locator('.page').dispatchEvent('drop', { dataTransfer: drop });
  await expect(page.getByTestId('story-box')).toContainText('imported');
  await expect(page.getByTestId('story-box')).toContainText('The controller crashes');
  await expect(page.getByTestId('story-next')).toContainText('crash broker 1');
});

// Shared helpers of the browser tests: a `test` that fails on any console error or page error,
// and locators for the page's hooks (data-broker, data-controller, data-kind, data-testid).
import { test as base, expect, type Locator, type Page } from '@playwright/test';

/** `test`, failing when the page logs a console error or throws (an uncaught error or a panic). */
export const test = base.extend<{ pageProblems: string[] }>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await use(problems);
      expect(problems, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * A regular expression that matches `text` not followed by another digit ("epoch 1" but not
 * "epoch 12"). Nothing is required before it: an entry's text runs its parts together
 * ("0.051sbroker 1 became controller ...").
 */
export function phrase(text: string): RegExp {
  return new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\d)`, 'i');
}

/** Every broker node of the cluster graph. */
export function brokers(page: Page): Locator {
  return page.locator('svg g[data-broker]');
}

/** The node of broker `id`. */
export function broker(page: Page, id: string | number): Locator {
  return page.locator(`svg g[data-broker="${id}"]`);
}

/** The node(s) marked as the controller. */
export function controller(page: Page): Locator {
  return page.locator('svg g[data-controller="true"]');
}

/** The cluster graph: the SVG that holds the broker nodes. */
export function graph(page: Page): Locator {
  return page.locator('svg').filter({ has: page.locator('g[data-broker]') }).first();
}

/** Event-log entries of one kind, optionally only those whose text contains `phrase(text)`. */
export function logEntries(page: Page, kind: string, text?: string): Locator {
  const entries = page.locator(`[data-kind="${kind}"]`);
  return text === undefined ? entries : entries.filter({ hasText: phrase(text) });
}

/** The id of the broker currently marked as the controller (exactly one must be). */
export async function controllerId(page: Page): Promise<string> {
  await expect(controller(page)).toHaveCount(1);
  const id = await controller(page).getAttribute('data-broker');
  expect(id, 'the controller node names its broker').not.toBeNull();
  return id as string;
}

/**
 * Waits until the page has mounted: until then `#app` holds index.html's first frame, an inert
 * picture of the default page at t = 0 whose controls look like the page's but do nothing (a
 * checkbox toggled there is redrawn as it was when the page takes over).
 */
export async function mounted(page: Page): Promise<void> {
  await expect(page.locator('#app')).toHaveAttribute('data-mounted', 'true');
}

/** Makes sure the simulation runs: presses play unless the button says it is playing. */
export async function ensurePlaying(page: Page): Promise<void> {
  await mounted(page);
  const play = page.getByTestId('play');
  await expect(play).toBeVisible();
  const pressed = await play.getAttribute('aria-pressed');
  const label = `${(await play.getAttribute('aria-label')) ?? ''} ${(await play.textContent()) ?? ''}`;
  const playing = pressed === 'true' || (pressed === null && /pause|暂停/i.test(label));
  if (!playing) await play.click();
  // The virtual clock moves.
  const clock = page.getByTestId('clock');
  const before = (await clock.textContent()) ?? '';
  await expect(clock).not.toHaveText(before);
}

/**
 * Opens the playground, sets the speed (default 50x), lets it play until broker 1 is the
 * controller of epoch 1, which is where every story starts, and lists every event in the log.
 */
export async function openPlayground(page: Page, speed = '50'): Promise<void> {
  await page.goto('/');
  await mounted(page);
  await expect(brokers(page).first()).toBeVisible();
  await page.getByTestId('speed').selectOption(speed);
  await ensurePlaying(page);
  await expect(controller(page)).toHaveCount(1);
  await expect(controller(page)).toHaveAttribute('data-broker', '1');
  await expect(page.getByTestId('controller-epoch')).toContainText(phrase('epoch 1'));
  await showAllEvents(page);
}

/**
 * Lists every event in the log, not only the key ones (the default): for tests that look for
 * the minor steps (a session expiring, a broker registering). Works whichever tab is shown.
 */
export async function showAllEvents(page: Page): Promise<void> {
  await mounted(page);
  const boxes = page.getByTestId('key-only');
  await expect(boxes.first()).toBeAttached();
  await boxes.evaluateAll((inputs) => {
    for (const input of inputs as HTMLInputElement[]) if (input.checked) input.click();
  });
  await expect(boxes.first()).not.toBeChecked();
}

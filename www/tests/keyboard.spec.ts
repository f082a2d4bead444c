// Everything by keyboard: brokers and consumers crash and start with Enter, a broker's menu
// opens from the keyboard beside its node and runs "shut down", Escape gives the focus back,
// the shortcuts play and pause, and "?" opens their help as a modal dialog.
import { type Page } from '@playwright/test';
import { broker, controller, ensurePlaying, expect, logEntries, showAllEvents, test } from './playground';

/** Presses Tab until `selector` has the focus (at most `max` times). */
async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('a broker crashes and starts again with Enter, by keyboard alone', async ({ page }) => {
  await page.goto('/?speed=50');
  await showAllEvents(page);
  await ensurePlaying(page);
  await expect(controller(page)).toHaveCount(1);
  const node = broker(page, '3');
  await expect(node).toHaveAttribute('aria-label', /running.*press Enter to crash it/i);

  // The clock stopped, so that the announcement stays until it is read here.
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Play');
  await tabTo(page, 'svg g.node[data-broker="3"]');
  await page.keyboard.press('Enter');
  await expect(node).toHaveAttribute('data-state', 'crashed');
  await expect(node).toHaveAttribute('aria-label', /crashed.*press Enter to start it/i);
  await expect(page.getByTestId('announcer')).toHaveText('Broker 3 crashed.');
  await expect(node).toBeFocused();
  // "k" on the focused node runs the clock again.
  await page.keyboard.press('k');
  await expect(page.getByTestId('play')).toContainText('Pause');
  // It can register again once ZooKeeper has expired its old session.
  await expect(logEntries(page, 'session_expired', 'broker 3').first()).toBeAttached({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  await expect(node).toHaveAttribute('data-state', 'running');
  await expect(page.getByTestId('announcer')).toContainText(/Broker 3 started|is the leader now|controller/);
});

test('a consumer crashes and starts again with Enter, by keyboard alone', async ({ page }) => {
  await page.goto('/?speed=50&consumers=2');
  await ensurePlaying(page);
  const c1 = page.locator('svg g.cnode[data-member="c1"]');
  await expect(c1).toHaveAttribute('data-state', 'stable', { timeout: 30_000 });
  await expect(c1).toHaveAttribute('aria-label', /press Enter to crash it/);

  await tabTo(page, 'svg g.cnode[data-member="c1"]');
  await page.keyboard.press('Enter');
  await expect(c1).toHaveAttribute('data-state', 'crashed');
  await expect(c1).toHaveAttribute('aria-label', /press Enter to start it again/);
  await page.keyboard.press('Enter');
  await expect(c1).not.toHaveAttribute('data-state', 'crashed');
  await expect(c1).toHaveAttribute('data-state', 'stable', { timeout: 30_000 });
});

test("a broker's menu opens from the keyboard beside its node and shuts the broker down", async ({ page }) => {
  await page.goto('/?speed=50');
  await showAllEvents(page);
  await ensurePlaying(page);
  await expect(controller(page)).toHaveCount(1);
  const node = broker(page, '2');

  // "m" on the focused node opens its menu; its first item has the focus; Escape closes it.
  await tabTo(page, 'svg g.node[data-broker="2"]');
  await page.keyboard.press('m');
  const menu = page.getByTestId('broker-menu');
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('data-broker-menu', '2');
  await expect(page.getByTestId('menu-crash')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(node).toBeFocused();

  // Shift+F10 opens it too; the arrow keys reach "shut down".
  await page.keyboard.press('Shift+F10');
  await expect(menu).toBeVisible();
  // The menu sits beside the node, inside the window.
  const nodeBox = (await node.locator('.body').boundingBox())!;
  const menuBox = (await menu.boundingBox())!;
  const gap = Math.max(menuBox.x - (nodeBox.x + nodeBox.width), nodeBox.x - (menuBox.x + menuBox.width), menuBox.y - (nodeBox.y + nodeBox.height));
  expect(gap, 'the menu is next to the node').toBeLessThan(40);
  expect(menuBox.y + 44).toBeLessThanOrEqual(page.viewportSize()!.height);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('menu-shutdown')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(node).toBeFocused();
  await expect(logEntries(page, 'controlled_shutdown_requested', 'broker 2').first()).toBeVisible();
  await expect(node).toHaveAttribute('data-state', 'stopped', { timeout: 20_000 });
});

test('the ⋯ button opens the menu with a touch target of 44 px; a click outside closes it', async ({ page }) => {
  await page.goto('/?speed=50');
  await ensurePlaying(page);
  const more = page.locator('svg g.broker:has(g.node[data-broker="3"]) g.more');
  const box = (await more.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
  await more.click();
  await expect(page.getByTestId('broker-menu')).toHaveAttribute('data-broker-menu', '3');
  // Tab stays in the menu.
  const items = await page.getByTestId('broker-menu').locator('button').count();
  for (let i = 0; i < items + 1; i++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('.broker-menu'))).toBe(true);
  await page.locator('h1').click();
  await expect(page.getByTestId('broker-menu')).toHaveCount(0);
});

test('shortcuts: k and Space play and pause, "?" opens the help, which traps and returns the focus', async ({ page }) => {
  await page.goto('/?speed=50');
  await ensurePlaying(page);
  const play = page.getByTestId('play');
  await expect(play).toContainText('Pause');
  // The page's own playground listens on the document: no click needed first.
  await page.keyboard.press('k');
  await expect(play).toContainText('Play');
  const clock = page.getByTestId('clock');
  const stopped = await clock.textContent();
  await page.waitForTimeout(300);
  await expect(clock).toHaveText(stopped!);
  await page.keyboard.press(' ');
  await expect(play).toContainText('Pause');
  // Typing in a field is not a shortcut.
  await page.getByTestId('speed').focus();
  await page.keyboard.press('k');
  await expect(play).toContainText('Pause');

  await page.getByTestId('reset').focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  for (const keys of ['Space or k', '.', ',', 'n', '?', 'Escape']) {
    await expect(dialog.locator('kbd', { hasText: keys }).first()).toBeVisible();
  }
  // Focus stays in the dialog; a shortcut does nothing behind it.
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  await page.keyboard.press('k');
  await expect(play).toContainText('Pause');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('reset')).toBeFocused();
});

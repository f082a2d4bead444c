// The first screen shows the cluster: at a desktop's, a phone's and an embed's size, ZooKeeper
// and every broker are inside the window without scrolling, with what just happened and what
// to try next beside them; on the desktop the log's newest entry is in view too. In embed mode
// (a 700x500 frame, and a phone-wide one) the compact timeline is in view as well.
import { type Locator, type Page } from '@playwright/test';
import { brokers, ensurePlaying, expect, graph, test } from './playground';

const sizes = [
  { width: 1440, height: 900 },
  { width: 360, height: 740 },
  { width: 700, height: 500 },
];

/** Whether `locator`'s box lies entirely inside the window (no scrolling). */
async function expectInView(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, `${what} has a box`).not.toBeNull();
  const { width, height } = page.viewportSize()!;
  const b = box!;
  const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
  expect(scroll, 'nothing scrolled').toEqual({ x: 0, y: 0 });
  expect(b.width, `${what} is drawn`).toBeGreaterThan(10);
  expect(b.x, `${what}'s left edge`).toBeGreaterThanOrEqual(0);
  expect(b.y, `${what}'s top edge`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what}'s right edge in a ${width}px window`).toBeLessThanOrEqual(width);
  expect(b.y + b.height, `${what}'s bottom edge in a ${height}px window`).toBeLessThanOrEqual(height);
}

/**
 * Opens `path`, lets the cluster elect its controller, and checks that ZooKeeper and the three
 * brokers are in view.
 */
async function openAndSeeCluster(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(brokers(page)).toHaveCount(3);
  await ensurePlaying(page);
  await expect(page.locator('svg g[data-controller="true"]')).toHaveCount(1);

  await expectInView(page, graph(page).locator('[data-zookeeper]'), 'ZooKeeper');
  for (const id of ['1', '2', '3']) {
    await expectInView(page, page.locator(`svg g.node[data-broker="${id}"]`), `broker ${id}`);
  }
}

for (const viewport of sizes) {
  const name = `${viewport.width}x${viewport.height}`;

  test.describe(`first screen at ${name}`, () => {
    test.use({ viewport });

    test(`ZooKeeper, every broker, the latest event and what to try are in view at ${name}`, async ({ page }) => {
      await openAndSeeCluster(page, '/?speed=50');
      // What just happened and what to try next.
      await expect(page.getByTestId('now-latest')).toContainText(/t = .*: /);
      await expectInView(page, page.getByTestId('now-latest'), 'the latest event');
      await expect(page.getByTestId('now-next')).toContainText(/crash/i);
      await expectInView(page, page.getByTestId('now-next'), 'what to try next');

      if (viewport.width >= 1100) {
        // The log is beside the graph, following its newest entry (the clock stopped, so
        // that no newer one arrives while it is measured).
        await page.getByTestId('play').click();
        await expect(page.getByTestId('play')).toContainText('Play');
        const newest = page.locator('.events > li').last();
        await expect(newest).toBeVisible();
        await expectInView(page, newest, 'the newest log entry');
      }
    });
  });
}

const embedSizes = [
  { width: 700, height: 500 },
  { width: 360, height: 640 },
];

for (const viewport of embedSizes) {
  const name = `${viewport.width}x${viewport.height}`;

  test.describe(`embed mode's first screen at ${name}`, () => {
    test.use({ viewport });

    test(`ZooKeeper, every broker and the timeline are in view in a ${name} embed`, async ({ page }) => {
      await openAndSeeCluster(page, '/?embed=1&speed=50');
      await expect(page.locator('.page.embed')).toHaveCount(1);
      await expect(page.getByTestId('scrubber')).toBeVisible();
      await expectInView(page, page.getByTestId('scrubber'), 'the timeline\'s scrubber');
      await expectInView(page, page.getByTestId('step-back'), 'the step back button');
      await expectInView(page, page.getByTestId('step-forward'), 'the step forward button');
      await expectInView(page, page.getByTestId('timeline-times'), 'the time shown and the end');
      // The timeline sits under the graph, clear of it (a phone-wide mount's graph scrolls in
      // the cluster's part, which ends above the timeline).
      const partBox = (await page.locator('.part-cluster').boundingBox())!;
      const rowBox = (await page.getByTestId('timeline').boundingBox())!;
      expect(rowBox.y, 'the timeline starts below the graph').toBeGreaterThanOrEqual(partBox.y + partBox.height);
      expect(rowBox.height, 'the timeline is one thin row').toBeLessThanOrEqual(44);
    });
  });
}

// The page fits a phone and a desktop screen: no sideways scrolling, graph and log in view.
import { brokers, ensurePlaying, expect, graph, logEntries, test } from './playground';

const sizes = [
  { width: 360, height: 800 },
  { width: 1920, height: 1080 },
];

for (const viewport of sizes) {
  const name = `${viewport.width}x${viewport.height}`;

  test.describe(`at ${name}`, () => {
    test.use({ viewport });

    test(`layout at ${name}: no horizontal overflow, graph and log visible`, async ({ page }, testInfo) => {
      await page.goto('/');
      await expect(graph(page)).toBeVisible();
      await expect(brokers(page)).toHaveCount(3);
      await page.getByTestId('speed').selectOption('50');
      await ensurePlaying(page);
      // A narrow screen shows the log under its own tab.
      if (viewport.width < 1100) await page.getByRole('tab', { name: 'Log' }).click();
      await expect(logEntries(page, 'controller_elected').first()).toBeVisible();
      if (viewport.width < 1100) await page.getByRole('tab', { name: 'Cluster' }).click();

      const overflow = await page.evaluate(() => ({
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(overflow.scrollWidth, `page width ${overflow.scrollWidth}px in a ${overflow.innerWidth}px window`).toBeLessThanOrEqual(
        overflow.innerWidth,
      );

      const graphBox = await graph(page).boundingBox();
      expect(graphBox, 'the graph has a size').not.toBeNull();
      expect(graphBox!.width).toBeGreaterThan(100);
      expect(graphBox!.x + graphBox!.width).toBeLessThanOrEqual(viewport.width + 1);

      await page.screenshot({ path: `${testInfo.project.outputDir}/layout-${name}.png`, fullPage: true });
    });
  });
}

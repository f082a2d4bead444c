// Hosted anywhere: the page works under a subpath (its files are asked for relative to it), and
// a file that does not load is named on the page instead of "Loading the playground…" for ever.
import { test as plain } from '@playwright/test';
import { brokers, ensurePlaying, expect, graph, logEntries, test } from './playground';

const port = Number(process.env.PLAYWRIGHT_PORT ?? 8093) + 1;
const page_url = `http://127.0.0.1:${port}/playground/`;

test('served under /playground/, the page loads its files from there and runs', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(page_url);
  await expect(graph(page)).toBeVisible();
  await expect(brokers(page)).toHaveCount(3);
  await page.getByTestId('speed').selectOption('50');
  await ensurePlaying(page);
  await expect(logEntries(page, 'controller_elected').first()).toBeVisible();
  const outside = asked.filter((p) => !p.startsWith('/playground/'));
  expect(outside, 'requests outside /playground/').toEqual([]);
  await expect(page.locator('#fatal')).toBeHidden();
});

for (const [what, pattern] of [
  ['its WebAssembly', /_bg\.wasm$/],
  ['its JavaScript', /kafka-election-playground-[0-9a-f]+\.js$/],
] as const) {
  plain(`when ${what} does not load, the page names the file instead of loading for ever`, async ({ page }) => {
    await page.route(pattern, (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(page_url);
    const fatal = page.locator('#fatal');
    await expect(fatal).toBeVisible();
    await expect(fatal).toContainText('The playground could not start');
    const file = what === 'its WebAssembly' ? /playground\/kafka-election-playground-[0-9a-f]+_bg\.wasm/ : /playground\/kafka-election-playground-[0-9a-f]+\.js/;
    await expect(fatal).toContainText(file);
  });
}

plain('when the page\'s loader itself does not load, the page says so after a while', async ({ page }) => {
  // No script is there to name the file: the page's own markup and stylesheet show the notice.
  await page.route(/boot-[0-9a-f]+\.js$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(page_url);
  const stuck = page.locator('.loading-stuck');
  await expect(stuck).toBeHidden();
  await expect(stuck).toBeVisible({ timeout: 30_000 });
  await expect(stuck).toContainText('try reloading the page');
});

plain('before the module arrives the page shows the default cluster, inert, with a note that it is loading', async ({ page }) => {
  // The build wrote the default page's first frame into index.html (www/scripts/first-frame.mjs).
  let release: () => void = () => undefined;
  const held = new Promise<void>((ok) => (release = ok));
  await page.route(/_bg\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(page_url);
  const app = page.locator('#app');
  await expect(app).toHaveAttribute('aria-busy', 'true');
  await expect(app).toHaveAttribute('inert', '');
  await expect(brokers(page)).toHaveCount(3);
  await expect(page.locator('svg [data-zookeeper]')).toBeVisible();
  await expect(page.locator('.loading-note')).toBeVisible();
  await expect(page.getByTestId('clock')).toContainText('0.000');
  release();
  await expect(app).toHaveAttribute('data-mounted', 'true');
  await expect(app).not.toHaveAttribute('aria-busy', /.*/);
  await expect(page.locator('.loading-note')).toHaveCount(0);
  await expect(brokers(page)).toHaveCount(3);
  await expect(logEntries(page, 'controller_elected').first()).toBeVisible();
});

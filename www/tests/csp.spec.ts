// Safe to embed and to host: the page runs under a strict Content-Security-Policy (no inline
// script, no inline style, nothing from another origin), asks nothing of another origin, and
// stores nothing but the two things docs/build.md names (the chosen language and lesson progress).
//
// The test server (serve-dist.mjs) sends the policy with the page, so every browser test runs
// under it; this test checks that it is really sent and walks through what a learner does,
// failing on any violation the browser reports.
import { test as plain, type Page } from '@playwright/test';
import { broker, brokers, expect, graph, logEntries, test } from './playground';

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const STORED_KEYS = ['kafka-election-lang', 'kafka-election-lessons'];

/**
 * Records every violation the page reports (the event fires in the page, not in Playwright):
 * `violations` reads them; `refused` holds the console's messages about the policy.
 */
async function watchViolations(page: Page): Promise<{ violations: () => Promise<string[]>; refused: string[] }> {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) refused.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(`${e.effectiveDirective} refused ${e.blockedURI || '(none)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const violations = () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations ?? []);
  return { violations, refused };
}

test('under a strict Content-Security-Policy the page works, asks only its own origin and stores only what it names', async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) foreign.push(r.url());
  });
  const { violations, refused } = await watchViolations(page);

  const response = await page.goto('./?speed=50');
  expect(response?.headers()['content-security-policy']).toBe(POLICY);
  await expect(graph(page)).toBeVisible();
  await expect(brokers(page)).toHaveCount(3);
  expect(await page.locator('script:not([src])').count(), 'inline scripts in the page').toBe(0);

  // The broker menu is placed beside its node: through the style object, which the policy allows.
  await page.locator('svg g.broker:has(g.node[data-broker="2"]) g.more').click();
  const menu = page.getByTestId('broker-menu');
  await expect(menu).toBeVisible();
  const placed = await menu.evaluate((el) => (el as HTMLElement).style.left);
  expect(placed, "the menu's position").toMatch(/^\d+px$/);
  await page.getByTestId('menu-crash').click();
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /crashed/i);

  // The event log and its Kafka detail.
  await expect(logEntries(page, 'controller_elected').first()).toBeVisible();
  await page.getByTestId('event-detail-toggle').first().click();
  await expect(page.getByTestId('event-detail').first()).toBeVisible();

  // The Chinese catalogue, fetched from the page's own origin, and the choice stored.
  await page.locator('[data-lang="zh-CN"]').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.locator('[data-lang="en"]').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // A story, then the lessons: the index and a lesson file fetched, a question answered.
  await page.goto('./?story=paused-controller&speed=50');
  await expect(page.getByTestId('story-box')).toBeVisible();
  await page.goto('./?lesson=first-controller&lang=en');
  await expect(page.getByTestId('lesson')).toBeVisible();
  // Its first question asks for a broker.
  await page.getByTestId('lesson-broker').first().click();
  await expect(page.getByTestId('lesson')).toContainText(/Right|Not this time/);

  const stored = await page.evaluate(() => ({
    local: Object.keys(localStorage).sort(),
    session: Object.keys(sessionStorage),
    cookie: document.cookie,
  }));
  expect(stored.local.filter((k) => !STORED_KEYS.includes(k)), 'localStorage keys the page does not name').toEqual([]);
  expect(stored.local, 'what a lesson and a language choice store').toEqual(STORED_KEYS);
  expect(stored.session).toEqual([]);
  expect(stored.cookie).toBe('');

  expect(await violations(), 'violations the page reported').toEqual([]);
  expect(refused, 'what the console says the policy refused').toEqual([]);
  expect(foreign, 'requests outside the page\'s origin').toEqual([]);
});

plain('the policy is enforced: a style attribute written into the page is refused and reported', async ({ page }) => {
  // Shows the test above can fail: the same check sees a violation when there is one. (A plain
  // test: the browser also logs the refusal as a console error, which `test` would fail on.)
  const { violations } = await watchViolations(page);
  await page.goto('./');
  await expect(graph(page)).toBeVisible();
  await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.innerHTML = '<span style="color: red">probe</span>';
    document.body.appendChild(probe);
  });
  await expect.poll(violations).toEqual([expect.stringMatching(/^style-src-attr refused inline/)]);
});

test('the embedding example runs under the same strict policy: two mounts and a frame, no violation', async ({ page }) => {
  // The test server sends the policy with index.html only (the other browser tests inject
  // hosts into the example page); here the example page gets it too, as a site would send it.
  await page.route('**/embed-example.html', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': POLICY } });
  });
  const { violations, refused } = await watchViolations(page);
  const response = await page.goto('/embed-example.html');
  expect(response?.headers()['content-security-policy']).toBe(POLICY);
  await page.waitForFunction(() => (window as any).examplePlaygrounds?.length === 2);
  await expect(page.locator('.kafka-election svg g[data-broker]').first()).toBeVisible();
  // The page's own buttons (its own script, a file) drive both playgrounds and the frame.
  await page.locator('[data-both="seek"]').click();
  await expect(page.getByTestId('events-2.0')).toContainText('broker_crashed');
  await page.locator('[data-frame="play"]').click();
  await expect(page.getByTestId('frame-events')).toContainText('ready');
  // Its own stylesheet applies (a file too).
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('.doc')!).maxWidth)).toBe('1400px');
  expect(await violations()).toEqual([]);
  expect(refused).toEqual([]);
});

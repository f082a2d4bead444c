// Accessibility: axe finds nothing serious or critical (free play, a story, a broker's menu
// open, the dark theme, embed mode with its timeline, the lessons), focus is visible on the graph's nodes
// and on the embed timeline's controls, motion stops when the reader
// asks for less, and the graph's labels stay readable (12 px or more) on a phone with 9 brokers.
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { broker, brokers, controller, ensurePlaying, expect, test } from './playground';

async function expectNoSeriousFindings(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious, `axe on ${what}`).toEqual([]);
}

/**
 * Opens `path`, lets the cluster elect its controller, then pauses so the page holds still.
 * Messages in flight are not drawn (reduced motion): a dot passing over a label for a moment
 * is not a contrast problem of the label.
 */
async function settle(page: Page, path: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(path);
  await expect(brokers(page).first()).toBeVisible();
  await ensurePlaying(page);
  await expect(controller(page)).toHaveCount(1, { timeout: 20_000 });
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Play');
}

test('axe: free play, light theme', async ({ page }) => {
  await settle(page, '/?speed=50&consumers=2');
  await expectNoSeriousFindings(page, 'free play');
});

test('axe: a story', async ({ page }) => {
  await settle(page, '/?story=paused-controller&speed=10');
  await expect(page.getByTestId('story-box')).toBeVisible();
  await expectNoSeriousFindings(page, 'a story');
});

test("axe: a broker's menu open", async ({ page }) => {
  await settle(page, '/?speed=50');
  await broker(page, '2').click({ button: 'right' });
  await expect(page.getByTestId('broker-menu')).toBeVisible();
  await expectNoSeriousFindings(page, "a broker's menu");
});

test('axe: the dark theme, and the help overlay', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await settle(page, '/?speed=50&consumers=2');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg, 'the page is dark').toBe('rgb(15, 20, 32)');
  const nodeFill = await page.locator('svg g.node[data-broker="2"] .body').evaluate((e) => getComputedStyle(e).fill);
  expect(nodeFill, "the graph's nodes are dark too").toBe('rgb(28, 36, 51)');
  await expectNoSeriousFindings(page, 'the dark theme');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoSeriousFindings(page, 'the help overlay (dark)');
});

test.describe('embed mode in a 700x500 frame', () => {
  test.use({ viewport: { width: 700, height: 500 } });

  test('axe: embed mode with its timeline, light and dark, and after a change in the past', async ({ page }) => {
    await settle(page, '/?embed=1&story=controller-crash&speed=25');
    await expect(page.getByTestId('scrubber')).toBeVisible();
    await expectNoSeriousFindings(page, 'embed mode (light)');
    // A change in the past: the note with Undo and Keep.
    await page.getByTestId('scrubber').evaluate((el) => {
      const input = el as HTMLInputElement;
      input.value = '500';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await broker(page, '3').click();
    await expect(page.getByTestId('fork-note')).toBeVisible();
    await expectNoSeriousFindings(page, 'embed mode with a fork note (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg, 'the page is dark').toBe('rgb(15, 20, 32)');
    await expectNoSeriousFindings(page, 'embed mode with a fork note (dark)');
  });

  test("the embed timeline's controls show where the focus is", async ({ page }) => {
    await settle(page, '/?embed=1&speed=50');
    for (const id of ['step-back', 'scrubber', 'step-forward']) {
      const el = page.getByTestId(id);
      await expect(el).toHaveCSS('outline-style', 'none');
      await el.focus();
      // Focus by keyboard (:focus-visible) draws the ring.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await expect(el).toBeFocused();
      await expect(el).toHaveCSS('outline-style', 'solid');
      await expect(el).toHaveCSS('outline-width', '3px');
    }
  });
});

test('a focused broker shows a focus ring', async ({ page }) => {
  await settle(page, '/?speed=50');
  const ring = page.locator('svg g.node[data-broker="1"] .focus-ring');
  await expect(ring).toHaveCSS('stroke', 'rgba(0, 0, 0, 0)');
  await page.locator('svg g.node[data-broker="1"]').focus();
  // Focus by keyboard shows the ring (:focus-visible).
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(page.locator('svg g.node[data-broker="1"]')).toBeFocused();
  await expect(ring).not.toHaveCSS('stroke', 'rgba(0, 0, 0, 0)');
});

test('reduced motion: no message flies', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/?speed=1');
  await ensurePlaying(page);
  await expect(controller(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(page.locator('svg .flights')).toBeHidden();
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await expect(page.locator('svg .flights')).toBeVisible();
});

test.describe('on a 360 px phone with 9 brokers', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the graph's labels are 12 px or more", async ({ page }) => {
    await settle(page, '/?brokers=9&speed=50');
    await expect(brokers(page)).toHaveCount(9);
    const sizes = await page.evaluate(() => {
      const svg = document.querySelector('svg.graph') as SVGSVGElement;
      const scale = svg.getScreenCTM()!.a;
      // Each element that holds text of its own (a text, or a tspan of one).
      const own = (e: Element) =>
        [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      return [...svg.querySelectorAll('text, tspan')]
        .filter((t) => !t.closest('.flights') && own(t))
        .map((t) => ({
          text: (t.textContent ?? '').trim(),
          px: parseFloat(getComputedStyle(t).fontSize) * scale,
        }));
    });
    expect(sizes.length).toBeGreaterThan(20);
    const small = sizes.filter((s) => s.px < 12).map((s) => `${s.text}: ${s.px.toFixed(1)}px`);
    expect(small, 'labels under 12 px').toEqual([]);
  });
});

test('axe: the lesson list, a question and a graded step', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/?view=lessons&lang=en');
  await expect(page.locator('[data-lesson]').first()).toBeVisible();
  await expectNoSeriousFindings(page, 'the lesson list');
  await page.locator('[data-lesson="first-controller"] button').click();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-phase', 'ask');
  await expectNoSeriousFindings(page, 'a question');
  await page.getByTestId('lesson-broker').nth(1).click();
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-phase', 'shown', { timeout: 20_000 });
  await expectNoSeriousFindings(page, 'a graded step');
});

/**
 * Axe with every rule of WCAG 2.1 A and AA on, the experimental label-content-name-mismatch too
 * (a control whose accessible name does not contain its visible text: a speech user says what
 * they see, and nothing answers).
 */
async function expectNothingSeriousWithAllRules(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious, `axe on ${what}`).toEqual([]);
}

for (const width of [1440, 360]) {
  for (const lang of ['en', 'zh-CN']) {
    test.describe(`axe at ${width} px in ${lang}`, () => {
      test.use({ viewport: { width, height: width > 400 ? 900 : 740 } });

      test('the playground after a crash, with a consumer group', async ({ page }) => {
        await page.emulateMedia({ reducedMotion: 'reduce' });
        // With consumers: a consumer node is a button too, with a caption and a leader's pill.
        await page.goto(`/?speed=50&consumers=2&lang=${lang}`);
        await ensurePlaying(page);
        await expect(controller(page)).toHaveCount(1, { timeout: 20_000 });
        const id = await controller(page).getAttribute('data-broker');
        await expect(page.locator('svg g.cnode[data-group-leader="true"]')).toHaveCount(1, { timeout: 20_000 });
        await broker(page, id as string).click();
        await expect(broker(page, id as string)).toHaveAttribute('data-state', 'crashed');
        await page.waitForTimeout(500);
        await expectNothingSeriousWithAllRules(page, `the playground after a crash (${width}, ${lang})`);
      });

      test('the lesson list, a lesson question waiting and its verdict', async ({ page }) => {
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto(`/?view=lessons&lang=${lang}`);
        await expect(page.locator('[data-lesson]').first()).toBeVisible();
        await expectNothingSeriousWithAllRules(page, `the lesson list (${width}, ${lang})`);
        await page.locator('[data-lesson="first-controller"] button').click();
        await expect(page.getByTestId('lesson')).toHaveAttribute('data-phase', 'ask', { timeout: 20_000 });
        await expectNothingSeriousWithAllRules(page, `a lesson question (${width}, ${lang})`);
        await page.getByTestId('lesson-broker').nth(1).click();
        await expect(page.getByTestId('lesson')).toHaveAttribute('data-phase', 'shown', { timeout: 30_000 });
        await expectNothingSeriousWithAllRules(page, `a lesson verdict (${width}, ${lang})`);
      });

      test('a playground mounted through the API', async ({ page }) => {
        await page.emulateMedia({ reducedMotion: 'reduce' });
        const host = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
          <script src="../embed.js" async></script></head><body><h1>A docs page</h1>
          <div id="pg" style="height: 540px"></div><p>After.</p>
          <script>
            function ready() { window.pg = KafkaElection.mount(document.getElementById('pg'),
              { story: 'controller-crash', embed: true, lang: '${lang}' }); }
            if (window.KafkaElection) ready(); else window.addEventListener('kafka-election-ready', ready, { once: true });
          </script></body></html>`;
        await page.route('**/a11y-host/page.html', (route) => route.fulfill({ contentType: 'text/html', body: host }));
        await page.goto('/a11y-host/page.html');
        await expect(page.locator('.kafka-election svg g[data-broker]').first()).toBeVisible();
        await expect(page.locator('.kafka-election')).toHaveAttribute('lang', lang);
        await page.waitForTimeout(1000);
        await expectNothingSeriousWithAllRules(page, `an embed (${width}, ${lang})`);
      });
    });
  }
}

// The stylesheet in two parts (www/scripts/split-styles.mjs): index.html links the rules the
// first view uses, and the module's glue adds the rest when the module's first part has been
// instantiated. Every element must be styled as the one sheet styled it: with the first sheet
// alone, in the states a learner reaches in the first seconds, and with both, anywhere.
//
// Each check takes every element's computed style (every property, and its ::before and
// ::after), puts the one sheet the build keeps beside them (styles-<hash>_whole.css, the sheet
// as it was before the split) in place of the page's sheets, takes them again and compares,
// all in one task, so that nothing on the page moves in between. A style that changed would
// also start a transition there: a new transition or animation counts as a difference.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as plain, type Page, type Route } from '@playwright/test';
import { broker, expect, mounted, test } from './playground';

const dist = process.env.DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const files = readdirSync(dist);
const one = (re: RegExp) => {
  const found = files.filter((f) => re.test(f));
  expect(found, `one file matching ${re} in dist/`).toHaveLength(1);
  return found[0];
};
const LATER = '**/styles-*_later.css';

/** The text of the one sheet, as the page would have loaded it before the split. */
const wholeSheet = () => readFileSync(join(dist, one(/^styles-[0-9a-f]+_whole\.css$/)), 'utf8');

/**
 * What differs between every element's computed style with the page's stylesheets and with the
 * one sheet in their place (at most 20 lines), and whether the later sheet was in force.
 */
async function styleDifferences(page: Page): Promise<{ differences: string[]; later: boolean }> {
  return page.evaluate((text) => {
    const name = (el: Element) =>
      el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '') +
      (el.getAttribute('class') ? `.${el.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '') +
      (el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '');
    const elements = [...document.querySelectorAll('*')];
    const pseudos = [null, '::before', '::after'];
    const snapshot = () => elements.map((el) => pseudos.map((pseudo) => {
      const style = getComputedStyle(el, pseudo);
      const values: string[] = [];
      for (let i = 0; i < style.length; i++) values.push(`${style[i]}: ${style.getPropertyValue(style[i])}`);
      return values;
    }));
    const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
    const later = links.some((l) => /_later\.css$/.test(l.href) && l.sheet !== null);
    const animations = new Set(document.getAnimations());
    const split = snapshot();
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    for (const l of links) if (l.sheet) l.sheet.disabled = true;
    document.adoptedStyleSheets = [sheet];
    const whole = snapshot();
    const started = document.getAnimations().filter((a) => !animations.has(a));
    document.adoptedStyleSheets = [];
    for (const l of links) if (l.sheet) l.sheet.disabled = false;
    const differences: string[] = [];
    for (const a of started) {
      const target = (a.effect as KeyframeEffect | null)?.target;
      differences.push(`the one sheet started a ${a.constructor.name} (${(a as CSSTransition).transitionProperty ?? (a as CSSAnimation).animationName}) on ${target ? name(target) : '?'}`);
    }
    elements.forEach((el, i) => pseudos.forEach((pseudo, k) => {
      const a = split[i][k];
      const b = whole[i][k];
      if (a.join(';') === b.join(';')) return;
      const set = new Set(b);
      const changed = a.filter((v) => !set.has(v)).map((v) => v.split(':')[0]);
      const missing = b.filter((v) => !a.includes(v)).map((v) => v.split(':')[0]);
      const props = [...new Set([...changed, ...missing])].slice(0, 4);
      differences.push(`${name(el)}${pseudo ?? ''}: ${props.map((p) => {
        const get = (list: string[]) => list.find((v) => v.split(':')[0] === p)?.slice(p.length + 2) ?? '(none)';
        return `${p} is ${get(a)}, not ${get(b)}`;
      }).join('; ')}`);
    }));
    return { differences: differences.slice(0, 20), later };
  }, wholeSheet());
}

/** Expects no difference, with the later sheet in force or not as `later` says. */
async function sameStyles(page: Page, what: string, later: boolean) {
  const result = await styleDifferences(page);
  expect(result.later, `${what}: the later sheet ${later ? 'is' : 'is not'} in force`).toBe(later);
  expect(result.differences, `${what}: every element is styled as the one sheet styles it`).toEqual([]);
}

/** Holds every request for the later sheet until the test ends. */
async function holdLaterSheet(page: Page) {
  const held: Route[] = [];
  await page.route(LATER, (route) => {
    held.push(route);
  });
  return held;
}

/** Waits until the module's second part and the later sheet are both there. */
async function everythingHere(page: Page) {
  await mounted(page);
  await expect.poll(() => page.evaluate(() => (globalThis as Record<string, unknown>).__kafkaElectionLater)).toBe('here');
  await expect(page.getByTestId('later-wait')).toHaveCount(0);
}

test('the build splits the stylesheet: index.html links the first sheet, the glue names the later one, embed.js the one sheet', () => {
  const first = one(/^styles-[0-9a-f]+\.css$/);
  const later = one(/^styles-[0-9a-f]+_later\.css$/);
  const whole = one(/^styles-[0-9a-f]+_whole\.css$/);
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  expect(index).toContain(`href="./${first}"`);
  expect(index).not.toContain(later);
  expect(index).not.toContain(whole);
  const glue = readFileSync(join(dist, one(/^kafka-election-playground-[0-9a-f]+\.js$/)), 'utf8');
  expect(glue).toContain(later);
  const embed = readFileSync(join(dist, 'embed.js'), 'utf8');
  expect(embed).toContain(whole);
  expect(embed).not.toContain(first);
  const size = (f: string) => readFileSync(join(dist, f)).length;
  expect(size(first), 'the first sheet is smaller than the one sheet').toBeLessThan(size(whole));
});

test('before the later sheet arrives, the static first frame and a learner\'s first steps at 1440 px are styled as before', async ({ page }) => {
  test.setTimeout(180_000);
  const held = await holdLaterSheet(page);
  // The module held back: the static first frame index.html holds.
  let release: () => void = () => {};
  const glueHere = new Promise<void>((done) => { release = done; });
  await page.route('**/kafka-election-playground-*.js', async (route) => {
    await glueHere;
    await route.continue();
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/?lang=en');
  await expect(page.locator('#app svg g[data-broker="3"]')).toBeVisible();
  await sameStyles(page, 'the static first frame', false);
  release();
  await mounted(page);
  await expect.poll(() => held.length, { message: 'the glue asked for the later sheet' }).toBe(1);
  await sameStyles(page, 'the mounted page', false);
  await page.getByTestId('speed').selectOption('50');
  await expect(broker(page, 2)).toHaveAttribute('data-state', 'running');
  await broker(page, 2).click();
  await expect(broker(page, 2)).toHaveAttribute('data-state', 'crashed');
  await sameStyles(page, 'broker 2 crashed', false);
  await broker(page, 2).click();
  await expect(broker(page, 2)).not.toHaveAttribute('data-state', 'crashed');
  // A hovered button and a control focused from the keyboard.
  await page.getByTestId('play').hover();
  await page.keyboard.press('Tab');
  await sameStyles(page, 'broker 2 restarted, play hovered, a control focused', false);
  await page.getByTestId('help').click();
  await expect(page.getByTestId('help-dialog')).toBeVisible();
  await sameStyles(page, 'the help dialog', false);
  await page.keyboard.press('Escape');
  await page.getByTestId('event-detail-toggle').first().click();
  await expect(page.getByTestId('event-detail').first()).toBeVisible();
  await sameStyles(page, 'a log entry\'s detail', false);
  await page.emulateMedia({ colorScheme: 'dark' });
  await sameStyles(page, 'dark', false);
  await page.emulateMedia({ colorScheme: 'light' });

  // The check can fail: without a rule of the first sheet that styles this page, it finds a
  // difference.
  const dropped = await page.evaluate(() => {
    const link = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')]
      .find((l) => /\/styles-[0-9a-f]+\.css$/.test(l.href))!;
    // The sheet's rules stand in its @scope block (and in @media blocks): walk them all.
    const drop = (parent: CSSStyleSheet | CSSGroupingRule): string | null => {
      const rules = parent.cssRules;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i];
        if (rule instanceof CSSStyleRule && rule.selectorText === '.toolbar') {
          parent.deleteRule(i);
          return rule.selectorText;
        }
        if (rule instanceof CSSGroupingRule) {
          const found = drop(rule);
          if (found) return found;
        }
      }
      return null;
    };
    return drop(link.sheet!);
  });
  expect(dropped, 'the first sheet styles .toolbar').toBe('.toolbar');
  const { differences } = await styleDifferences(page);
  expect(differences.some((d) => d.includes('.toolbar')), `without .toolbar's rule the check finds a difference: ${differences.join('\n')}`).toBe(true);
});

// (The second part's download fails, which the browser logs: the plain test, not the one that
// fails on console errors.)
plain('before the later sheet arrives, a narrow page\'s tabs and the second part failing are styled as before', async ({ page }) => {
  plain.setTimeout(180_000);
  await holdLaterSheet(page);
  await page.route('**/*_later.wasm', (route) => route.abort());
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?lang=zh-CN');
  await mounted(page);
  await expect(page.getByTestId('later-wait').first()).toHaveAttribute('aria-busy', 'false');
  await sameStyles(page, 'the second part failed', false);
  const tabs = await page.$$eval('#app [role="tab"]', (ts) =>
    ts.filter((t) => (t as HTMLElement).offsetParent !== null).map((t) => (t as HTMLElement).dataset.tab!));
  expect(tabs.length, 'a narrow page has tabs').toBeGreaterThan(1);
  for (const tab of tabs) {
    await page.click(`#app [role="tab"][data-tab="${tab}"]`);
    await expect(page.locator(`#app [role="tab"][data-tab="${tab}"]`)).toHaveAttribute('aria-selected', 'true');
    await sameStyles(page, `the ${tab} tab`, false);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await sameStyles(page, 'dark', false);
});

test('with both sheets, the panels under the graph, the help dialog and the dark page are styled as before', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/?lang=en');
  await everythingHere(page);
  await expect(page.getByTestId('partitions')).toHaveCount(1);
  await sameStyles(page, 'the panels under the graph', true);
  await broker(page, 1).click();
  await sameStyles(page, 'broker 1 crashed', true);
  await page.getByTestId('help').click();
  await expect(page.getByTestId('help-dialog')).toBeVisible();
  await sameStyles(page, 'the help dialog', true);
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'dark' });
  await sameStyles(page, 'dark', true);
});

test('with both sheets, a narrow page\'s tabs are styled as before', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/?lang=en');
  await everythingHere(page);
  const tabs = await page.$$eval('#app [role="tab"]', (ts) =>
    ts.filter((t) => (t as HTMLElement).offsetParent !== null).map((t) => (t as HTMLElement).dataset.tab!));
  for (const tab of tabs) {
    await page.click(`#app [role="tab"][data-tab="${tab}"]`);
    await expect(page.locator(`#app [role="tab"][data-tab="${tab}"]`)).toHaveAttribute('aria-selected', 'true');
    await sameStyles(page, `the ${tab} tab`, true);
  }
});

for (const [what, address] of [
  ['the lessons\' list', '/?view=lessons&lang=en'],
  ['a lesson', '/?lesson=first-controller&lang=en'],
  ['a story', '/?story=paused-controller&speed=10&paused=1'],
  ['a story in Chinese, embedded', '/?embed=1&story=controller-crash&lang=zh-CN'],
]) {
  test(`with both sheets, ${what} is styled as before, light and dark`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(address);
    await everythingHere(page);
    await sameStyles(page, what, true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await sameStyles(page, `${what}, dark`, true);
  });
}

test('an embedding page gets the one sheet from embed.js, and no later sheet', async ({ page }) => {
  const requested: string[] = [];
  // (The example page also frames the playground's own page, which loads it as index.html does.)
  page.on('request', (r) => {
    // The playground's sheets only: the example page has a stylesheet of its own.
    const file = r.url().split('/').pop()!;
    if (/^styles-.*\.css$/.test(file) && r.frame() === page.mainFrame()) requested.push(file);
  });
  await page.goto('/embed-example.html');
  await expect(page.locator('svg g[data-broker]').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requested).toEqual([one(/^styles-[0-9a-f]+_whole\.css$/)]);
});

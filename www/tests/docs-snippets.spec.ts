// Docs as tests: every embedding snippet of README.md and docs/, pasted verbatim into a host page
// of a documentation writer's kind (its own stylesheet, headings, buttons, a `.page` class of its
// own, and a paragraph right after the snippet), with only the example host name replaced by
// where the bundle is served. Each must run without an error, keep inside its container (nothing
// of the playground over the text after it) and leave the host's own styles as they were. The
// JavaScript API's snippet is run once with each story, since a docs writer changes the story.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect } from './playground';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE_HOST = 'https://your.docs/playground/';

/** Every ```html block of the README and docs/*.md that embeds the playground. */
function snippets(): { where: string; html: string }[] {
  const files = ['README.md', ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const out: { where: string; html: string }[] = [];
  for (const file of files) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    for (const m of text.matchAll(/```html\n([\s\S]*?)```/g)) {
      if (!m[1].includes(EXAMPLE_HOST)) continue;
      const line = text.slice(0, m.index).split('\n').length;
      out.push({ where: `${file}:${line}`, html: m[1] });
    }
  }
  return out;
}

const STORIES = readdirSync(`${ROOT}www/scenarios`)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

/** The host's own look: what a documentation theme might set, and what must stay as it is. */
const HOST_CSS = `
  body { margin: 24px; background: rgb(250, 246, 238); color: rgb(40, 30, 20); font: 17px/1.6 Georgia, serif; }
  h2 { margin: 30px 0 10px; font-size: 26px; color: rgb(120, 20, 20); }
  button { padding: 3px 5px; border: 2px solid rgb(0, 120, 0); background: rgb(230, 255, 230); }
  .page { padding: 7px; max-width: 600px; border: 1px dashed rgb(0, 0, 200); }
  code { background: rgb(255, 255, 200); }
`;

/** A host page: a heading, the snippet, then a paragraph and the host's own parts. */
function hostPage(snippet: string, base: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A docs page</title><style>${HOST_CSS}</style></head>
<body>
  <h2 id="host-h2">Before the playground</h2>
${snippet.replaceAll(EXAMPLE_HOST, base)}
  <p id="after">The paragraph right after the snippet: nothing of the playground may cover it.</p>
  <div class="page" id="host-page">The host's own <code id="host-code">.page</code> element
    <button id="host-button" type="button">and its own button</button></div>
</body></html>`;
}

/** The computed styles of the host's own parts that the playground must leave alone. */
async function hostStyles(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const pick = (sel: string, props: string[]) => {
      const el = document.querySelector(sel) as Element;
      const cs = getComputedStyle(el);
      return props.map((p) => `${sel} ${p}: ${cs.getPropertyValue(p)}`);
    };
    const lines = [
      // Not the heights, which grow with the snippet: overflow says whether the page still scrolls.
      ...pick('body', ['margin-top', 'background-color', 'color', 'font-family', 'font-size', 'overflow-y', 'line-height']),
      ...pick('html', ['overflow-y', 'box-sizing']),
      ...pick('#host-h2', ['margin-top', 'font-size', 'color', 'line-height']),
      ...pick('#host-button', ['padding-top', 'border-top-color', 'background-color', 'min-height', 'display', 'font-family']),
      ...pick('#host-page', ['padding-top', 'max-width', 'margin-left', 'border-top-style', 'box-sizing']),
      ...pick('#host-code', ['background-color', 'font-family']),
      ...pick('#after', ['box-sizing', 'font-family']),
    ];
    return Object.fromEntries(lines.map((l) => [l.slice(0, l.lastIndexOf(':')), l]));
  });
}

/** Opens `html` as a page of the bundle's own origin (so that the snippet's addresses work). */
async function openHost(page: Page, name: string, html: string): Promise<void> {
  await page.route(`**/docs-host/${name}.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`/docs-host/${name}.html`);
}

/** Fails if anything drawn over the paragraph after the snippet is not the paragraph. */
async function expectNothingOver(page: Page, selector: string): Promise<void> {
  const covered = await page.evaluate((sel) => {
    const p = document.querySelector(sel) as HTMLElement;
    p.scrollIntoView({ block: 'center' });
    const r = p.getBoundingClientRect();
    const hits: string[] = [];
    for (let fx = 0.05; fx < 1; fx += 0.15) {
      for (let fy = 0.2; fy < 1; fy += 0.3) {
        const x = r.left + r.width * fx;
        const y = r.top + r.height * fy;
        const el = document.elementFromPoint(x, y);
        if (el && el !== p && !p.contains(el)) hits.push(`${Math.round(x)},${Math.round(y)}: ${el.tagName}.${el.className}`);
      }
    }
    return hits;
  }, selector);
  expect(covered, `what covers ${selector}`).toEqual([]);
}

/** The playground's root keeps inside the element it is mounted into. */
async function expectInside(page: Page, container: string): Promise<void> {
  const boxes = await page.evaluate((sel) => {
    const c = (document.querySelector(sel) as HTMLElement).getBoundingClientRect();
    const root = document.querySelector(`${sel} .kafka-election`) as HTMLElement;
    const r = root.getBoundingClientRect();
    return { c: [c.top, c.bottom, c.left, c.right], r: [r.top, r.bottom, r.left, r.right] };
  }, container);
  expect(boxes.r[0]).toBeGreaterThanOrEqual(boxes.c[0] - 0.5);
  expect(boxes.r[1]).toBeLessThanOrEqual(boxes.c[1] + 0.5);
  expect(boxes.r[2]).toBeGreaterThanOrEqual(boxes.c[2] - 0.5);
  expect(boxes.r[3]).toBeLessThanOrEqual(boxes.c[3] + 0.5);
}

/** The snippet's own steps ran: it seeks to 10 s, then plays, so the clock shows 10 s or more. */
async function expectSnippetRan(page: Page): Promise<void> {
  const seconds = () =>
    page.evaluate(() => Number(document.querySelector('[data-testid="clock"]')?.textContent?.match(/[\d.]+/)?.[0] ?? 0));
  await expect.poll(seconds).toBeGreaterThanOrEqual(10);
}

/** Where the bundle is served, for the snippets' example host name. */
const bundleBase = (baseURL: string | undefined) => new URL('./', baseURL ?? 'http://127.0.0.1/').href;

test('the docs have embedding snippets to test', () => {
  const found = snippets();
  // The README's iframe with a story, its embed-mode iframe, and the JavaScript API's snippet.
  expect(found.length).toBeGreaterThanOrEqual(3);
  expect(found.some((s) => s.html.includes('KafkaElection.mount'))).toBe(true);
});

for (const [i, s] of snippets().entries()) {
  test(`snippet ${s.where}, pasted verbatim, keeps inside, errs nowhere, restyles nothing`, async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    const base = bundleBase(baseURL);
    // The host's styles without the playground: the same page with the snippet left out.
    await openHost(page, `control-${i}`, hostPage('', base));
    const before = await hostStyles(page);
    await openHost(page, `snippet-${i}`, hostPage(s.html, base));
    if (s.html.includes('KafkaElection.mount')) {
      const mount = s.html.match(/getElementById\('([\w-]+)'\)/)?.[1];
      expect(mount, 'the snippet names its element').toBeTruthy();
      const root = page.locator(`#${mount} .kafka-election`);
      await expect(root.locator('svg g[data-broker]').first()).toBeVisible();
      await expectSnippetRan(page);
      await page.waitForTimeout(1500);
      await expect(root.getByTestId('error')).toHaveCount(0);
      await expectInside(page, `#${mount}`);
    } else {
      const frame = page.frameLocator('iframe').first();
      await expect(frame.locator('svg g[data-broker]').first()).toBeVisible();
      await expect(frame.getByTestId('error')).toHaveCount(0);
    }
    await expectNothingOver(page, '#after');
    expect(await hostStyles(page)).toEqual(before);
  });
}

const api = snippets().find((s) => s.html.includes('KafkaElection.mount'));
for (const story of STORIES) {
  test(`the README's API snippet works verbatim with story ${story}`, async ({ page, baseURL }) => {
    expect(api, 'the README has the API snippet').toBeTruthy();
    const named = api!.html.match(/story: '([\w.-]+)'/)?.[1];
    expect(named, 'the snippet names a story').toBeTruthy();
    const base = bundleBase(baseURL);
    await openHost(page, `story-${story}`, hostPage(api!.html.replace(`story: '${named}'`, `story: '${story}'`), base));
    const root = page.locator('.kafka-election');
    await expect(root.locator('svg g[data-broker]').first()).toBeVisible();
    await expectSnippetRan(page);
    await page.waitForTimeout(500);
    // A story step the snippet made impossible is a notice, never an error.
    await expect(root.getByTestId('error')).toHaveCount(0);
    await expectNothingOver(page, '#after');
  });
}

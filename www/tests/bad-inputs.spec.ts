// The gallery of bad inputs (tests/bad-inputs/gallery.json) at the page's doors and the
// JavaScript API's:
//
// - the page: each scenario file through the import control and dropped on the page, each
//   lesson file through the lesson list's file control, each link (and each lesson as an
//   exercise link) opened fresh in the address. A visible message with the entry's text, and
//   the session untouched (for a fresh link: the default page with the message);
// - the JS API: each link, and each scenario file as the link that carries it, given to
//   mount's session option. mount throws an Error with the entry's text, mounts nothing, and
//   the playground already mounted on the page is untouched.
//
// tests/bad_inputs.rs checks the same gallery at the command line.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { expect, mounted, test } from './playground';

const root = fileURLToPath(new URL('../..', import.meta.url));

type Input = {
  text?: string;
  json?: unknown;
  generate?: string;
  edit?: [string, string][];
  scenario?: Input;
  fragment?: string;
  file?: Input;
};
type Entry = {
  id: string;
  what: string;
  expect: string;
  page_expect?: string;
  scenario?: Input;
  lesson?: Input;
  link?: Input;
};

const gallery: Entry[] = JSON.parse(readFileSync(`${root}/tests/bad-inputs/gallery.json`, 'utf8')).entries;
const baseLesson = readFileSync(`${root}/docs/examples/lessons/first-lesson.json`, 'utf8');

/** The inputs too big to commit, made as tests/bad_inputs.rs makes them. */
function generate(name: string): string {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
  switch (name) {
    case 'deep-nesting':
      return '['.repeat(100_000);
    case 'brokers-100000':
      return `{"version":1,"brokers":[${ids(100_000)}]}`;
    case 'brokers-1000000':
      return `{"version":1,"brokers":[${ids(1_000_000)}]}`;
    case 'work-64x256-1h':
      return `{"version":1,"brokers":[${ids(64)}],"topics":[{"name":"t","partitions":256,"replication_factor":3}],"until_ms":3600000}`;
    case 'link-5mb':
      return `v=1&m=2&t=0&pad=${'a'.repeat(5_000_000)}`;
    default:
      throw new Error(`no generator ${name}`);
  }
}

function text(input: Input): string {
  if (input.text !== undefined) return input.text;
  if (input.json !== undefined) return JSON.stringify(input.json, null, 2);
  if (input.generate !== undefined) return generate(input.generate);
  throw new Error(`not an input: ${JSON.stringify(input)}`);
}

function lessonText(input: Input): string {
  if (input.edit !== undefined) {
    let t = baseLesson;
    for (const [find, replace] of input.edit) {
      if (!t.includes(find)) throw new Error(`the example lesson has no ${find}`);
      t = t.replace(find, () => replace);
    }
    return t;
  }
  if (input.scenario !== undefined) {
    const from = baseLesson.indexOf('"scenario": {');
    const to = baseLesson.indexOf('"steps"');
    return `${baseLesson.slice(0, from)}"scenario": ${text(input.scenario)},\n  ${baseLesson.slice(to)}`;
  }
  return text(input);
}

const base64url = (t: string) => Buffer.from(t, 'utf8').toString('base64url');

function linkFragment(input: Input): string {
  if (input.fragment !== undefined) return input.fragment;
  if (input.file !== undefined) return `v=1&m=2&file=${base64url(text(input.file))}&t=0`;
  if (input.generate !== undefined) return generate(input.generate);
  throw new Error(`not a link: ${JSON.stringify(input)}`);
}

const scenarios = gallery.filter((e) => e.scenario);
const lessons = gallery.filter((e) => e.lesson);
const links = gallery.filter((e) => e.link);

/** What must not change: the session's link (its setup, commands and time), the brokers, the clock. */
async function session(page: Page) {
  return page.evaluate(() => ({
    hash: location.hash,
    brokers: document.querySelectorAll('svg g[data-broker]').length,
    clock: document.querySelector('[data-testid=clock]')?.textContent ?? '',
    story: document.querySelector('[data-testid=story-box]')?.textContent ?? '',
    lesson: document.querySelector('[data-testid=lesson]') !== null,
  }));
}

/** The message shown names `want`; then it is dismissed, so the next one is new. */
async function refused(page: Page, id: string, want: string) {
  const error = page.getByTestId('error');
  await expect(error, id).toBeVisible();
  await expect(error, id).toContainText(want);
  await error.getByRole('button').click();
  await expect(error).toHaveCount(0);
}

test.describe.configure({ timeout: 180_000 });

test('a bad scenario file, imported or dropped, gets one message and leaves the session as it was', async ({ page }) => {
  await page.goto('./?lang=en&paused=1&t=12000');
  await mounted(page);
  await expect(page.locator('svg g[data-broker]')).toHaveCount(3);
  const before = await session(page);
  expect(before.hash).toMatch(/t=12000/);
  for (const e of scenarios) {
    const body = text(e.scenario as Input);
    const want = e.page_expect ?? e.expect;
    await page.getByTestId('import').setInputFiles({ name: `${e.id}.json`, mimeType: 'application/json', buffer: Buffer.from(body) });
    await refused(page, `${e.id} (import)`, want);
    expect(await session(page), `${e.id} (import)`).toEqual(before);
    const drop = await page.evaluateHandle(([name, content]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], name, { type: 'application/json' }));
      return dt;
    }, [`${e.id}.json`, body]);
    await page.locator('.page').dispatchEvent('drop', { dataTransfer: drop });
    await refused(page, `${e.id} (drop)`, want);
    expect(await session(page), `${e.id} (drop)`).toEqual(before);
  }
  expect(scenarios.length).toBeGreaterThanOrEqual(25);
});

test('a bad lesson file, opened from the lesson list, gets one message and opens nothing', async ({ page }) => {
  await page.goto('./?view=lessons&lang=en');
  await expect(page.getByTestId('lesson-file')).toBeAttached();
  const before = await session(page);
  for (const e of lessons) {
    await page.getByTestId('lesson-file').setInputFiles({ name: `${e.id}.json`, mimeType: 'application/json', buffer: Buffer.from(lessonText(e.lesson as Input)) });
    await refused(page, `${e.id} (lesson file)`, e.page_expect ?? e.expect);
    expect(await session(page), e.id).toEqual(before);
  }
  expect(lessons.length).toBeGreaterThanOrEqual(25);
});

test('a bad link opened fresh shows the default page with one message', async ({ page }) => {
  const fresh = [
    ...links.map((e) => ({ id: e.id, fragment: linkFragment(e.link as Input), want: e.expect })),
    // A lesson in an exercise link, as the page writes one.
    ...lessons.map((e) => ({ id: `${e.id} (exercise link)`, fragment: `exercise=${base64url(lessonText(e.lesson as Input))}`, want: e.expect })),
  ];
  let opened = 0;
  for (const { id, fragment, want } of fresh) {
    // Chromium opens no address longer than 2 MB: the 5 MB link is pasted into an open page below.
    if (fragment.length > 2_000_000) continue;
    await page.goto('about:blank');
    await page.goto(`./?lang=en#${fragment}`);
    const error = page.getByTestId('error');
    await expect(error, id).toBeVisible();
    await expect(error, id).toContainText(want);
    // The default page: free play's three brokers, no story, no lesson.
    await expect(page.locator('svg g[data-broker]'), id).toHaveCount(3);
    await expect(page.getByTestId('lesson'), id).toHaveCount(0);
    opened++;
  }
  expect(opened).toBeGreaterThanOrEqual(60);
});

test('a bad link pasted into the address of an open page leaves its session as it was', async ({ page }) => {
  await page.goto('./?lang=en&paused=1&t=9000');
  await mounted(page);
  await expect(page.locator('svg g[data-broker]')).toHaveCount(3);
  await expect(page.getByTestId('clock')).not.toHaveText('0.000s');
  const before = await session(page);
  for (const e of links) {
    const fragment = linkFragment(e.link as Input);
    await page.evaluate((f) => { window.location.hash = f; }, fragment);
    await refused(page, `${e.id} (pasted)`, e.expect);
    // The page writes its own session's link back.
    await expect.poll(async () => session(page), { message: e.id }).toEqual(before);
  }
});

test('the JavaScript API throws an Error for each bad link or scenario file and leaves the mounted playground as it was', async ({ page }) => {
  await page.goto('./?lang=en&paused=1');
  await page.waitForFunction(() => (window as unknown as { KafkaElection?: unknown }).KafkaElection !== undefined);
  const cases = [
    ...links.map((e) => ({ id: e.id, session: linkFragment(e.link as Input), want: e.expect })),
    ...scenarios
      .filter((e) => !e.link && !e.page_expect)
      .map((e) => ({ id: `${e.id} (file link)`, session: `v=1&m=2&file=${base64url(text(e.scenario as Input))}&t=0`, want: e.expect })),
  ];
  const results = await page.evaluate((cases) => {
    type Pg = { state(): unknown; link(): string; seek(ms: number): void; unmount(): void };
    const api = (window as unknown as { KafkaElection: { mount(el: Element, o: unknown): Pg } }).KafkaElection;
    const host = document.createElement('div');
    host.style.height = '400px';
    document.body.appendChild(host);
    const pg = api.mount(host, { embed: true, paused: true, brokers: 4 });
    pg.seek(7000);
    const state = JSON.stringify(pg.state());
    const link = pg.link();
    const out: { id: string; want: string; error: string | null; isError: boolean; mounted: boolean; untouched: boolean }[] = [];
    for (const c of cases) {
      const el = document.createElement('div');
      document.body.appendChild(el);
      let error: string | null = null;
      let isError = false;
      try {
        api.mount(el, { session: c.session }).unmount();
      } catch (e) {
        isError = e instanceof Error;
        error = e instanceof Error ? e.message : String(e);
      }
      out.push({
        id: c.id,
        want: c.want,
        error,
        isError,
        mounted: el.childElementCount > 0 || el.getAttribute('data-mounted') === 'true',
        untouched: JSON.stringify(pg.state()) === state && pg.link() === link,
      });
      el.remove();
    }
    pg.unmount();
    return out;
  }, cases);
  for (const r of results) {
    expect(r.isError, `${r.id}: mount throws an Error (${r.error})`).toBe(true);
    expect(r.error ?? '', r.id).toContain(r.want);
    expect(r.mounted, `${r.id}: nothing mounted`).toBe(false);
    expect(r.untouched, `${r.id}: the mounted playground is untouched`).toBe(true);
  }
  expect(results.length).toBeGreaterThanOrEqual(35);
});

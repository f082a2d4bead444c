// Embedding: the JavaScript API (two playgrounds on the example page, each driven and each
// reporting its own events), its errors (the command line's messages), the iframe's messages
// with its parent and its origin allow-list, and embed mode's compact chrome with its timeline:
// which controls it shows, that they fit from 320 to 1440 px, and the paused story's overlay.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Locator, Page } from '@playwright/test';
import { broker, test, expect, phrase } from './playground';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the `kafka-election` command line; returns its stdout, or its stderr when it fails. */
function cli(args: string[]): { ok: boolean; out: string } {
  try {
    const out = execFileSync('cargo', ['run', '--quiet', '--bin', 'kafka-election', '--', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, out };
  } catch (e) {
    const err = e as { stderr?: string };
    return { ok: false, out: err.stderr ?? String(e) };
  }
}

/** Opens the example page and waits for its two playgrounds. */
async function openExample(page: Page): Promise<void> {
  await page.goto('/embed-example.html');
  await page.waitForFunction(() => (window as any).examplePlaygrounds?.length === 2);
  await expect(page.getByTestId('mount-2.0').locator('svg g[data-broker]').first()).toBeVisible();
  await expect(page.getByTestId('mount-3.9').locator('svg g[data-broker]').first()).toBeVisible();
}

const card = (page: Page, profile: string) => page.locator(`[data-pg="zombie-controller-${profile}"]`);

test('two playgrounds mounted through the API are driven and report events each on its own', async ({ page }) => {
  await openExample(page);
  // Element ids stay unique with two playgrounds on the page.
  const ids = await page.evaluate(() => Array.from(document.querySelectorAll('[id]'), (e) => e.id));
  expect(ids.length).toBeGreaterThan(0);
  expect(new Set(ids).size).toBe(ids.length);
  // Both start paused (the page's option), in embed mode.
  await expect(page.getByTestId('mount-2.0').locator('.page.embed')).toHaveCount(1);
  await expect(page.getByTestId('mount-2.0').getByTestId('play')).toContainText('Play');

  // A listener of its own on each, for one kind.
  await page.evaluate(() => {
    const w = window as any;
    w.crashes = [[], []];
    w.examplePlaygrounds.forEach((pg: any, i: number) =>
      pg.on('broker_crashed', (e: any) => w.crashes[i].push(e.broker)),
    );
  });
  // The page's "both" buttons: seek both to 10 s.
  await page.locator('[data-both="seek"]').click();
  for (const profile of ['2.0', '3.9']) {
    await expect(page.getByTestId(`mount-${profile}`).getByTestId('clock')).toHaveText('10.000s');
    await expect(page.getByTestId(`events-${profile}`).locator('li', { hasText: 'controller_elected' })).toHaveCount(1);
    await expect(page.getByTestId(`mount-${profile}`).getByTestId('controller-epoch')).toContainText('broker 1');
  }
  // Both stories crash broker 2 at 1 s.
  expect(await page.evaluate(() => (window as any).crashes)).toEqual([[2], [2]]);

  // Crash the controller of the 2.0 playground only.
  await card(page, '2.0').locator('[data-do="crash"]').click();
  await expect(card(page, '2.0').getByTestId('status-2.0')).toHaveText('');
  await expect(page.getByTestId('events-2.0').locator('li', { hasText: 'broker_crashed (broker 1)' })).toHaveCount(1);
  await expect(page.getByTestId('mount-2.0').locator('svg g[data-broker="1"]')).toHaveAttribute('data-state', 'crashed');
  await expect(page.getByTestId('mount-3.9').locator('svg g[data-broker="1"]')).not.toHaveAttribute('data-state', 'crashed');
  expect(await page.evaluate(() => (window as any).crashes)).toEqual([[2, 1], [2]]);

  // Ten more seconds: the 2.0 cluster elected another controller; the 3.9 one kept broker 1.
  await page.locator('[data-both="seek"]').click();
  await expect(page.getByTestId('mount-2.0').getByTestId('clock')).toHaveText('20.000s');
  await expect(page.getByTestId('mount-2.0').getByTestId('controller-epoch')).not.toContainText('broker 1');
  await expect(page.getByTestId('mount-2.0').getByTestId('controller-epoch')).toContainText(phrase('epoch 2'));
  await expect(page.getByTestId('mount-3.9').getByTestId('controller-epoch')).toContainText('broker 1');
  expect(await page.getByTestId('events-3.9').locator('li', { hasText: 'broker_crashed (broker 1)' }).count()).toBe(0);

  // Play and pause through the page's buttons move and stop one clock.
  await card(page, '3.9').locator('[data-do="play"]').click();
  await expect(page.getByTestId('mount-3.9').getByTestId('clock')).not.toHaveText('20.000s');
  await card(page, '3.9').locator('[data-do="pause"]').click();
  await expect(page.getByTestId('mount-3.9').getByTestId('play')).toContainText('Play');
  await expect(page.getByTestId('mount-2.0').getByTestId('clock')).toHaveText('20.000s');

  // An unsubscribed listener hears nothing more; unmount empties the element and later calls throw.
  const after = await page.evaluate(() => {
    const w = window as any;
    const seen: number[] = [];
    const off = w.examplePlaygrounds[1].on('*', () => seen.push(1));
    off();
    w.examplePlaygrounds[1].apply({ do: 'crash', broker: 3 });
    return new Promise((resolve) => setTimeout(() => resolve(seen.length), 300));
  });
  expect(after).toBe(0);
  const unmounted = await page.evaluate(() => {
    const w = window as any;
    w.examplePlaygrounds[1].unmount();
    try {
      w.examplePlaygrounds[1].state();
      return 'no error';
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(unmounted).toBe('this playground was unmounted');
  await expect(page.getByTestId('mount-3.9')).toBeEmpty();
  await expect(page.getByTestId('mount-2.0').locator('svg g[data-broker]')).toHaveCount(4);
});

test('state() is the command line\'s JSON; seek goes back on the timeline and shows that time', async ({ page }) => {
  test.setTimeout(240_000);
  await openExample(page);
  const state = await page.evaluate(() => {
    const pg = (window as any).examplePlaygrounds[0];
    pg.seek(12000);
    return pg.state();
  });
  expect(state.time_ms).toBe(12000);
  expect(state.controller_epoch).toBe(1);
  const run = cli(['run', 'www/scenarios/zombie-controller-2.0.json', '--at', '12000']);
  expect(run.ok, run.out).toBe(true);
  expect(state).toEqual(JSON.parse(run.out));

  const back = await page.evaluate(() => {
    const pg = (window as any).examplePlaygrounds[0];
    pg.seek(5000);
    return pg.state();
  });
  const run5 = cli(['run', 'www/scenarios/zombie-controller-2.0.json', '--at', '5000']);
  expect(run5.ok, run5.out).toBe(true);
  expect(back).toEqual(JSON.parse(run5.out));
  const far = await page.evaluate(() => {
    try {
      (window as any).examplePlaygrounds[0].seek(5_000_000);
      return 'no error';
    } catch (e) {
      return `${(e as Error).constructor.name}: ${(e as Error).message}`;
    }
  });
  expect(far).toBe("Error: cannot seek to 5000000 ms: one seek moves at most 600000 ms past the session's end (it is at 12000 ms)");
});

test('a bad option or command throws an Error with a clear message and changes nothing', async ({ page }) => {
  test.setTimeout(240_000);
  await openExample(page);
  const results = await page.evaluate(() => {
    const w = window as any;
    const el = document.createElement('div');
    document.body.appendChild(el);
    const attempt = (f: () => unknown) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
    };
    const pg = w.examplePlaygrounds[0];
    pg.seek(3000);
    const before = JSON.stringify(pg.state());
    const out = {
      unknownOption: attempt(() => w.KafkaElection.mount(el, { brokrs: 3 })),
      badStory: attempt(() => w.KafkaElection.mount(el, { story: 'no-such-story' })),
      badBrokers: attempt(() => w.KafkaElection.mount(el, { brokers: 12 })),
      storyAndSeed: attempt(() => w.KafkaElection.mount(el, { story: 'controller-crash', seed: 3 })),
      notAnElement: attempt(() => w.KafkaElection.mount('#nowhere', {})),
      mountedAfter: el.childElementCount + ' ' + String(el.getAttribute('data-mounted')),
      noBroker: attempt(() => pg.apply({ do: 'crash', broker: 7 })),
      unknownAction: attempt(() => pg.apply({ do: 'explode' })),
      atMs: attempt(() => pg.apply({ at_ms: 5, do: 'crash', broker: 1 })),
      crashed: attempt(() => pg.apply({ do: 'crash', broker: 2 })),
      badKind: attempt(() => pg.on('Controller Elected', () => {})),
      unchanged: JSON.stringify(pg.state()) === before,
    };
    el.remove();
    return out;
  });
  expect(results.unknownOption).toMatch(/^Error: option brokrs: unknown field `brokrs`, expected one of `story`/);
  expect(results.badStory).toMatch(/^Error: story "no-such-story" does not exist; the stories are cold-start, /);
  expect(results.badBrokers).toBe('Error: brokers must be 1 to 9, not "12"');
  expect(results.storyAndSeed).toMatch(/^Error: seed, brokers, partitions, rf, profile, consumers and assignor set up free play; a story brings its own/);
  expect(results.notAnElement).toMatch(/^Error: mount needs an element to mount into/);
  expect(results.mountedAfter).toBe('0 null');
  expect(results.unknownAction).toMatch(/^Error: unknown action "explode"; the actions are crash, start, /);
  expect(results.atMs).toBe('Error: a command applies now: leave "at_ms" out (it belongs to a scenario file\'s actions)');
  expect(results.crashed).toMatch(/^Error: broker 2 is not running \(it is crashed\)/);
  expect(results.badKind).toMatch(/^Error: an event kind is a name such as "controller_elected"/);
  expect(results.unchanged).toBe(true);

  // The command line gives the same message for the same bad action in a scenario file.
  const noBroker = results.noBroker.replace(/^Error: /, '');
  expect(results.noBroker).toMatch(/^Error: .*broker 7/);
  const dir = mkdtempSync(join(tmpdir(), 'kafka-election-embed-'));
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ version: 1, brokers: [1, 2, 3, 4], actions: [{ at_ms: 1000, do: 'crash', broker: 7 }] }));
  const run = cli(['check', file]);
  expect(run.ok).toBe(false);
  expect(run.out).toContain(`${file}: actions[0]: ${noBroker}`);
});

test('every mount option sets up the playground as its page parameter does', async ({ page }) => {
  await openExample(page);
  await page.evaluate(() => {
    const w = window as any;
    document.querySelector('main')!.insertAdjacentHTML(
      'beforeend',
      '<div id="free" style="height:460px"></div><div id="bare" style="height:300px"></div><div id="full"></div>',
    );
    w.free = w.KafkaElection.mount(document.getElementById('free'), {
      embed: true, profile: '2.4', speed: 5, seed: 9, brokers: 5, partitions: 4, rf: 2, consumers: 2, t: 4000,
    });
    w.bare = w.KafkaElection.mount(document.getElementById('bare'), { embed: true, controls: false, autoplay: false });
    w.full = w.KafkaElection.mount(document.getElementById('full'), { consumers: 1, assignor: 'roundrobin', paused: true });
  });
  const free = page.locator('#free');
  await expect(free.getByTestId('clock')).toHaveText('4.000s');
  await expect(free.getByTestId('play')).toContainText('Play');
  await expect(free.getByTestId('speed')).toHaveValue('5');
  await expect(free.getByTestId('seed')).toHaveText('9');
  await expect(free.getByTestId('profile')).toHaveValue('2.4');
  const state = await page.evaluate(() => (window as any).free.state());
  expect(Object.keys(state.brokers)).toEqual(['1', '2', '3', '4', '5']);
  const orders = Object.keys(state.partitions).filter((p) => p.startsWith('orders-'));
  expect(orders.sort()).toEqual(['orders-0', 'orders-1', 'orders-2', 'orders-3']);
  expect(state.partitions['orders-0'].replicas).toHaveLength(2);
  expect(Object.keys(state.groups['my-group'].consumers).sort()).toEqual(['c1', 'c2']);

  // controls: false hides them; autoplay: false keeps the clock at 0.
  await expect(page.locator('#bare svg.graph')).toBeVisible();
  await expect(page.locator('#bare').getByTestId('play')).toHaveCount(0);
  await expect(page.locator('#bare').getByTestId('scrubber')).toHaveCount(0);
  // The embedded playground with controls has the compact timeline.
  await expect(free.getByTestId('scrubber')).toBeVisible();
  await expect(free.getByTestId('timeline-times')).toHaveText('4.000s / 4.000s');
  expect(await page.evaluate(() => (window as any).bare.state().time_ms)).toBe(0);

  // Without embed: the full page, with the assignor chosen.
  await expect(page.locator('#full h1')).toHaveText('Kafka Election Playground');
  await expect(page.locator('#full').getByTestId('assignor')).toHaveValue('roundrobin');

  // Right after mount, before the page first drew: seek, state and apply already agree.
  const early = await page.evaluate(() => {
    const w = window as any;
    const el = document.createElement('div');
    el.style.height = '300px';
    document.querySelector('main')!.appendChild(el);
    const pg = w.KafkaElection.mount(el, { story: 'zombie-controller-2.0', embed: true, paused: true });
    pg.seek(10000);
    const controller = pg.state().controller;
    pg.apply({ do: 'crash', broker: controller });
    return { time: pg.state().time_ms, controller, crashed: pg.state().brokers[String(controller)].state };
  });
  expect(early).toEqual({ time: 10000, controller: 1, crashed: 'crashed' });

  // session: a link's fragment, as another playground's link() gives it, reopens that session;
  // a bad one throws with the reason.
  const session = await page.evaluate(() => {
    try {
      (window as any).KafkaElection.mount(document.createElement('div'), { session: 'abc' });
      return 'no error';
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(session).toContain('the link carries no session (it has no format version v=)');
  const copied = await page.evaluate(() => {
    const w = window as any;
    const a = w.KafkaElection.mount(document.createElement('div'), { paused: true });
    a.seek(9000);
    a.apply({ do: 'crash', broker: 2 });
    a.seek(12000);
    const link = a.link();
    const b = w.KafkaElection.mount(document.createElement('div'), { session: link });
    return { link, a: a.state(), b: b.state() };
  });
  expect(copied.link).toMatch(/^v=1&m=\d+&t=12000&c=9000c2$/);
  expect(copied.b).toEqual(copied.a);
});

test('the example page drives its framed playground with its buttons', async ({ page }) => {
  await openExample(page);
  const frame = page.frameLocator('iframe[data-testid="frame"]');
  const list = page.getByTestId('frame-events');
  await expect(list.locator('li').first()).toHaveText('ready');
  await expect(frame.getByTestId('play')).toContainText('Play');
  await page.locator('[data-frame="seek"]').click();
  await expect(frame.getByTestId('clock')).toHaveText('10.000s');
  await expect(list.locator('li', { hasText: 'controller_elected (broker 1)' })).toHaveCount(1);
  await page.locator('[data-frame="crash"]').click();
  await expect(frame.locator('svg g[data-broker="1"]')).toHaveAttribute('data-state', 'crashed');
  await expect(list.locator('li', { hasText: 'broker_crashed (broker 1)' })).toHaveCount(1);
  await page.locator('[data-frame="play"]').click();
  await expect(frame.getByTestId('play')).toContainText('Pause');
  await page.locator('[data-frame="pause"]').click();
  await expect(frame.getByTestId('play')).toContainText('Play');
  await expect(page.getByTestId('frame-status')).toHaveText('');
});

/** A page on the second test server's origin (port + 1) that frames the playground served from the first. */
async function parentPage(page: Page, baseURL: string, frames: { id: string; parent: string }[]) {
  const first = new URL(baseURL);
  const second = `http://127.0.0.1:${Number(first.port) + 1}`;
  const src = (parent: string) =>
    `${first.origin}/index.html?embed=1&autoplay=0&parent=${encodeURIComponent(parent)}`;
  const html = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body>
    ${frames.map((f) => `<iframe id="${f.id}" src="${src(f.parent)}" style="width:700px;height:500px"></iframe>`).join('')}
    <script>
      window.received = [];
      window.addEventListener('message', (e) => {
        window.received.push({ origin: e.origin, from: [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source), data: e.data });
      });
      window.ask = (frame, message) => document.getElementById(frame).contentWindow.postMessage(message, '${first.origin}');
    </script></body></html>`;
  // The parent page lives on the second origin: any file the server has there, replaced by this
  // page (a page the test would hand out itself counts as from the public network, which Chromium
  // does not let frame a loopback address). Its document asks for a favicon the server lacks.
  await page.route(`${second}/favicon.ico`, (route) =>
    route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
  );
  await page.goto(`${second}/playground/embed.js`);
  await page.setContent(html);
  return { second, firstOrigin: first.origin };
}

test('an iframe posts ready and events to its parent and obeys it, from the allowed origin only', async ({ page, baseURL }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  const { second } = await parentPage(page, baseURL as string, [
    { id: 'allowed', parent: `${'http://127.0.0.1:'}${Number(new URL(baseURL as string).port) + 1}` },
    { id: 'other', parent: 'https://docs.example' },
  ]);
  const received = () => page.evaluate(() => (window as any).received as { origin: string; from: number; data: any }[]);
  // The allowed frame says it is ready; the other posts nothing to a parent it does not allow.
  await expect.poll(async () => (await received()).filter((m) => m.data['kafka-election'] === 'ready').map((m) => m.from)).toEqual([0]);

  const allowed = page.frameLocator('#allowed');
  const other = page.frameLocator('#other');
  await expect(allowed.locator('.page.embed')).toHaveCount(1);
  await expect(allowed.getByTestId('play')).toContainText('Play');

  // Requests: seek, then the state; each is answered with its id.
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'seek', ms: 5000, id: 'a' }));
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'state', id: 'b' }));
  await expect.poll(async () => (await received()).find((m) => m.data.id === 'b')?.data.state?.time_ms).toBe(5000);
  const answers = (await received()).filter((m) => m.data.id !== undefined).map((m) => m.data);
  expect(answers[0]).toEqual({ 'kafka-election': 'ok', id: 'a', request: 'seek' });
  expect(answers[1].state.controller_epoch).toBe(1);
  expect((await received()).every((m) => m.origin === new URL(baseURL as string).origin)).toBe(true);
  // Its events reached the parent, as the command line prints them.
  await expect.poll(async () => (await received()).filter((m) => m.data['kafka-election'] === 'event').length).toBeGreaterThan(5);
  const elected = (await received()).find((m) => m.data.event?.kind === 'controller_elected');
  expect(elected?.data.event).toMatchObject({ kind: 'controller_elected', broker: 1, epoch: 1 });

  // Crash the controller from the parent: it is obeyed, and the crash comes back as an event.
  expect((await received()).some((m) => m.data.event?.kind === 'broker_crashed')).toBe(false);
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'apply', command: { do: 'crash', broker: 1 }, id: 'c' }));
  await expect(allowed.locator('svg g[data-broker="1"]')).toHaveAttribute('data-state', 'crashed');
  await expect.poll(async () => (await received()).find((m) => m.data.id === 'c')?.data).toEqual({
    'kafka-election': 'ok',
    id: 'c',
    request: 'apply',
  });
  await expect.poll(async () => (await received()).some((m) => m.data.event?.kind === 'broker_crashed' && m.data.event.broker === 1)).toBe(true);
  // A bad request is answered with the message.
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'apply', command: { do: 'crash', broker: 1 }, id: 'd' }));
  await expect.poll(async () => (await received()).find((m) => m.data.id === 'd')?.data).toEqual({
    'kafka-election': 'error',
    id: 'd',
    request: 'apply',
    message: 'broker 1 is not running (it is crashed)',
  });
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'rewind', id: 'e' }));
  await expect.poll(async () => (await received()).find((m) => m.data.id === 'e')?.data.message).toBe(
    'unknown request "rewind"; the requests are play, pause, seek, apply, state',
  );
  // play and pause.
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'play' }));
  await expect(allowed.getByTestId('play')).toContainText('Pause');
  await page.evaluate(() => (window as any).ask('allowed', { 'kafka-election': 'pause' }));
  await expect(allowed.getByTestId('play')).toContainText('Play');

  // The frame that allows another origin ignores this page's request, with a warning.
  await expect(other.locator('svg g[data-broker="1"]')).toBeVisible();
  await page.evaluate(() => (window as any).ask('other', { 'kafka-election': 'play', id: 'f' }));
  await expect.poll(() => warnings.some((w) => w.includes(`a request from ${second} was ignored`))).toBe(true);
  await expect(other.getByTestId('play')).toContainText('Play');
  expect((await received()).filter((m) => m.from === 1)).toEqual([]);
});

test('embed mode fits a 700x500 frame; controls=0 hides the controls; t= starts there, paused', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 500 });
  await page.goto('/?embed=1&story=zombie-controller-2.0');
  const graph = page.locator('svg.graph');
  await expect(graph).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(0);
  // No introduction; the story's own box (its next step) stays.
  await expect(page.locator('.intro:not(.story)')).toHaveCount(0);
  await expect(page.getByTestId('play')).toBeVisible();
  const size = await page.evaluate(() => ({
    scrollW: document.documentElement.scrollWidth,
    scrollH: document.documentElement.scrollHeight,
  }));
  expect(size.scrollW).toBeLessThanOrEqual(700);
  expect(size.scrollH).toBeLessThanOrEqual(500);
  const box = await graph.boundingBox();
  // Under 900 px the graph has the frame's width, and what the stat, the controls, the tabs,
  // the story's lines and the timeline leave of its height; the log is on its tab.
  expect(box && box.width).toBeGreaterThan(650);
  expect(box && box.height).toBeGreaterThan(250);
  expect(box && box.y + box.height).toBeLessThanOrEqual(500);
  await expect(page.locator('.log')).toBeHidden();
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.locator('.log')).toBeVisible();
  await expect(graph).toBeHidden();
  // index.html defines the API too.
  expect(await page.evaluate(() => typeof (window as any).KafkaElection?.mount)).toBe('function');

  await page.goto('/?embed=1&controls=0&t=15000');
  await expect(page.locator('svg.graph')).toBeVisible();
  await expect(page.getByTestId('play')).toHaveCount(0);
  await expect(page.locator('[role="toolbar"]')).toHaveCount(0);
  // No timeline either: the embedding page drives everything.
  await expect(page.getByTestId('timeline')).toHaveCount(0);
  await expect(page.getByTestId('scrubber')).toHaveCount(0);
  await expect(page.locator('svg g[data-controller="true"]')).toHaveAttribute('data-broker', '1');

  await page.goto('/?embed=1&autoplay=0&t=4000');
  await expect(page.getByTestId('clock')).toHaveText('4.000s');
  await expect(page.getByTestId('play')).toContainText('Play');

  // A story opened at a time (or with autoplay=0) stays there, paused, once it is in view too.
  for (const query of ['story=controller-crash&t=3000', 'story=controller-crash&autoplay=0']) {
    await page.goto(`/?embed=1&${query}`);
    await expect(page.locator('svg g[data-broker]').first()).toBeVisible();
    const at = await page.getByTestId('clock').textContent();
    await page.waitForTimeout(1_500);
    await expect(page.getByTestId('clock')).toHaveText(at ?? '');
    await expect(page.getByTestId('play')).toContainText('Play');
  }

  await page.goto('/?embed=1&t=999999999');
  await expect(page.getByTestId('error')).toContainText('t (the virtual time to start at) must be 0 to 600000 ms, not "999999999"');
});

/** Drags the timeline's scrubber to `ms`, as a mouse or a key does (its input event). */
function scrubTo(page: Page, ms: number): Promise<void> {
  return page.getByTestId('scrubber').evaluate((el, v) => {
    const input = el as HTMLInputElement;
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
}

test("embed mode's timeline scrubs back to an earlier time, steps forward and forks, by mouse and by key", async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 500 });
  await page.goto('/?embed=1&story=controller-crash&speed=25');
  const epoch = page.getByTestId('controller-epoch');
  const clock = page.getByTestId('clock');
  const times = page.getByTestId('timeline-times');
  const shown = async () => {
    const m = /^\s*([\d.]+)s\s*\/\s*([\d.]+)s/.exec((await times.textContent()) ?? '');
    expect(m, 'the time shown and the end').not.toBeNull();
    return { now: Math.round(Number(m![1]) * 1000), end: Math.round(Number(m![2]) * 1000) };
  };
  const scrub = (ms: number) => scrubTo(page, ms);

  // One thin row: the scrubber, its step buttons and the times; no sharing (the embedding
  // page owns that), and nothing scrolls.
  await expect(page.getByTestId('scrubber')).toBeVisible();
  await expect(page.getByTestId('scrubber')).toHaveAccessibleName('Timeline: the virtual time shown');
  await expect(page.getByTestId('step-back')).toHaveAccessibleName('Step back one event');
  await expect(page.getByTestId('step-forward')).toHaveAccessibleName('Step forward one event');
  await expect(page.getByTestId('share')).toHaveCount(0);
  await expect(page.getByTestId('export')).toHaveCount(0);

  // The story runs: broker 1 crashes at 1 s, its session expires at 21.1 s, and another
  // broker takes over with epoch 2. Then pause.
  await expect(epoch).toContainText(phrase('epoch 2'), { timeout: 30_000 });
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Play');
  const { now: end } = await shown();
  expect(end).toBeGreaterThan(21_100);
  await expect(clock).toHaveText(`${(end / 1000).toFixed(3)}s`);
  const next = (await epoch.textContent())!.match(/broker (\d)/)![1];
  expect(['2', '3']).toContain(next);

  // Drag back to 5 s: broker 1 crashed but still holds /controller, epoch 1; the clock says so
  // and the scrubber's value and text follow.
  await scrub(5_000);
  await expect(clock).toHaveText('5.000s');
  expect(await shown()).toEqual({ now: 5_000, end });
  await expect(epoch).toContainText('broker 1');
  await expect(epoch).toContainText(phrase('epoch 1'));
  await expect(broker(page, 1)).toHaveAttribute('data-state', 'crashed');
  await expect(page.getByTestId('scrubber')).toHaveAttribute('aria-valuetext', `5.000s of ${(end / 1000).toFixed(3)}s`);
  // No event of a later time is in the log.
  await expect(page.locator('[data-kind="controller_elected"]').filter({ hasText: phrase('epoch 2') })).toHaveCount(0);

  // Back to 0.5 s: broker 1 is running and leads.
  await scrub(500);
  await expect(clock).toHaveText('0.500s');
  await expect(broker(page, 1)).not.toHaveAttribute('data-state', 'crashed');
  await expect(epoch).toContainText('broker 1');

  // ▶ steps to the next event (the crash at 1 s or one before it), the clock stopped there.
  await page.getByTestId('step-forward').click();
  const stepped = (await shown()).now;
  expect(stepped).toBeGreaterThan(500);
  expect(stepped).toBeLessThanOrEqual(1_000);
  await expect(page.getByTestId('play')).toContainText('Play');
  // The keys: "." steps forward, "," back, "n" jumps to the next event.
  await page.keyboard.press('.');
  await expect.poll(async () => (await shown()).now).toBeGreaterThan(stepped);
  const afterDot = (await shown()).now;
  await page.keyboard.press(',');
  await expect.poll(async () => (await shown()).now).toBeLessThan(afterDot);
  const beforeJump = (await shown()).now;
  await page.keyboard.press('n');
  await expect.poll(async () => (await shown()).now).toBeGreaterThan(beforeJump);
  // ◀ goes back one event.
  const before = (await shown()).now;
  await page.getByTestId('step-back').click();
  await expect.poll(async () => (await shown()).now).toBeLessThan(before);

  // Forward again to the end: epoch 2 under the new controller.
  await scrub(end);
  await expect(epoch).toContainText(`broker ${next}`);
  await expect(epoch).toContainText(phrase('epoch 2'));

  // Acting in the past forks: the short note offers Undo, which brings the old history back.
  await scrub(12_000);
  await broker(page, 3).click();
  await expect(page.getByTestId('fork-note')).toContainText('Changed the past at 12.000s');
  await expect(broker(page, 3)).toHaveAttribute('data-state', 'crashed');
  expect((await shown()).end).toBe(12_000);
  await page.getByTestId('undo-fork').click();
  await expect(page.getByTestId('fork-note')).toHaveCount(0);
  await expect(broker(page, 3)).not.toHaveAttribute('data-state', 'crashed');
  expect((await shown()).end).toBe(end);

  // All of it stayed inside the frame.
  const size = await page.evaluate(() => ({
    scrollW: document.documentElement.scrollWidth,
    scrollH: document.documentElement.scrollHeight,
  }));
  expect(size.scrollW).toBeLessThanOrEqual(700);
  expect(size.scrollH).toBeLessThanOrEqual(500);
});

/** Embed mode's controls, as docs/embedding.md promises them: play, speed, the clock and Reset; the
 *  story, the cluster's shape, the seed, the setup button and Next event stay out. */
async function expectEmbedControls(scope: Locator, what: string): Promise<void> {
  for (const id of ['play', 'speed', 'clock', 'reset']) {
    await expect(scope.getByTestId(id), `${what}: ${id} shows`).toBeVisible();
  }
  for (const id of ['story', 'broker-count', 'profile', 'seed', 'new-seed', 'setup-toggle', 'jump-next']) {
    await expect(scope.getByTestId(id), `${what}: ${id} stays out`).toBeHidden();
  }
}

/** What sticks out in the toolbar of each `root` element: a control shown outside its toolbar,
 *  a toolbar that scrolls or lies outside its root (nothing when everything fits). */
function toolbarOverflows(target: Page | Frame, root: string): Promise<string[]> {
  return target.evaluate((root) => {
    const out: string[] = [];
    const px = (r: DOMRect) => `${Math.round(r.left)}-${Math.round(r.right)} x ${Math.round(r.top)}-${Math.round(r.bottom)}`;
    const outside = (inner: DOMRect, outer: DOMRect) =>
      inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5 || inner.top < outer.top - 0.5 || inner.bottom > outer.bottom + 0.5;
    const roots = Array.from(document.querySelectorAll(root));
    if (roots.length === 0) out.push(`no ${root}`);
    for (const scope of roots) {
      const bar = scope.querySelector('[role="toolbar"]');
      if (!bar) {
        out.push(`${root} has no toolbar`);
        continue;
      }
      const b = bar.getBoundingClientRect();
      if (outside(b, scope.getBoundingClientRect())) out.push(`the toolbar at ${px(b)} leaves ${root}`);
      if (bar.scrollWidth > bar.clientWidth) out.push(`the toolbar scrolls: ${bar.scrollWidth} > ${bar.clientWidth} px`);
      for (const el of Array.from(bar.querySelectorAll('button, select, .clock'))) {
        const e = el.getBoundingClientRect();
        if (e.width === 0 && e.height === 0) continue;
        if (outside(e, b)) out.push(`${el.getAttribute('data-testid') ?? el.className} at ${px(e)} outside the toolbar at ${px(b)}`);
      }
    }
    return out;
  }, root);
}

/** How many rows the controls shown in the toolbar of `root` take. */
function toolbarRows(target: Page, root: string): Promise<number> {
  return target.evaluate((root) => {
    const shown = Array.from(document.querySelectorAll(`${root} [role="toolbar"] :is(button, select, .clock)`))
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0)
      .sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = -Infinity;
    for (const r of shown) {
      if (r.top >= bottom - 1) {
        rows += 1;
        bottom = r.bottom;
      } else {
        bottom = Math.max(bottom, r.bottom);
      }
    }
    return rows;
  }, root);
}

test('embed mode shows play, speed, the clock and Reset, never the story or the setup, and they fit at 360, 700 and in the example page', async ({ page }) => {
  // A phone: free play, paused at 4 s; Reset starts again from 0.
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto('/?embed=1&autoplay=0&t=4000');
  const embed = page.locator('.page.embed');
  await expect(page.getByTestId('clock')).toHaveText('4.000s');
  await expectEmbedControls(embed, '360x640');
  expect(await toolbarOverflows(page, '.page.embed')).toEqual([]);
  await page.getByTestId('reset').click();
  await expect(page.getByTestId('clock')).toHaveText('0.000s');
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Pause');
  expect(await toolbarOverflows(page, '.page.embed')).toEqual([]);

  // A 700x500 frame at 1x, free play and a story, running.
  await page.setViewportSize({ width: 700, height: 500 });
  for (const url of ['/?embed=1', '/?embed=1&story=zombie-controller-2.0']) {
    await page.goto(url);
    await expect(page.getByTestId('speed')).toHaveValue('1');
    await expect(page.getByTestId('clock')).not.toHaveText('0.000s');
    await expectEmbedControls(embed, `700x500 ${url}`);
    expect(await toolbarOverflows(page, '.page.embed'), url).toEqual([]);
  }

  // The example page at 1440 px: its two mounts and its frame (free play: still no story).
  await page.setViewportSize({ width: 1440, height: 900 });
  await openExample(page);
  for (const profile of ['2.0', '3.9']) await expectEmbedControls(page.getByTestId(`mount-${profile}`), `mount ${profile}`);
  const framed = page.frameLocator('iframe[data-testid="frame"]').locator('.page.embed');
  await expect(framed.locator('svg g[data-broker]').first()).toBeVisible();
  await expectEmbedControls(framed, 'the frame');
  const frame = page.frames().find((f) => f.url().includes('embed=1'));
  expect(frame, 'the framed playground').toBeDefined();
  expect(await toolbarOverflows(page, '.mount')).toEqual([]);
  expect(await toolbarOverflows(frame!, '.page.embed')).toEqual([]);
  // Running, with a controller elected (the longest stat and the Pause label).
  await page.locator('[data-both="seek"]').click();
  await page.locator('[data-both="play"]').click();
  await expect(page.getByTestId('mount-2.0').getByTestId('play')).toContainText('Pause');
  expect(await toolbarOverflows(page, '.mount')).toEqual([]);
});

test("embed mode's controls fit in mounts from 320 to 1440 px wide, paused and running", async ({ page }) => {
  // A 1440 px window, where no phone rule applies: only the container's width decides. Nothing
  // outside, at most two rows, nothing scrolls sideways.
  await page.setViewportSize({ width: 1440, height: 900 });
  await openExample(page);
  for (const width of [320, 360, 420, 480, 560, 600, 640, 700, 820, 1024, 1440]) {
    await page.evaluate((width) => {
      const w = window as any;
      const div = document.createElement('div');
      div.className = 'sized-mount';
      div.style.cssText = `position: absolute; left: 0; top: 0; width: ${width}px; height: 540px`;
      document.body.appendChild(div);
      w.sized = w.KafkaElection.mount(div, { story: 'controller-crash', embed: true, paused: true });
      w.sized.seek(30000);
    }, width);
    const sized = page.locator('.sized-mount');
    await expect(sized.getByTestId('clock')).toHaveText('30.000s');
    for (const state of ['paused', 'running']) {
      if (state === 'running') {
        await page.evaluate(() => (window as any).sized.play());
        await expect(sized.getByTestId('play')).toContainText('Pause');
      }
      const what = `a mount ${width} px wide, ${state}`;
      expect(await toolbarOverflows(page, '.sized-mount'), what).toEqual([]);
      expect(await toolbarRows(page, '.sized-mount'), what).toBeLessThanOrEqual(2);
      expect(await sized.evaluate((el) => el.scrollWidth - el.clientWidth), what).toBe(0);
    }
    await page.evaluate(() => {
      (window as any).sized.unmount();
      document.querySelector('.sized-mount')!.remove();
    });
  }
});

test("a paused story's play overlay leaves the graph once the clock is moved: a scrub, a step, the next event, a seek or play", async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 500 });
  const overlay = page.getByTestId('play-overlay');
  const clock = page.getByTestId('clock');
  const play = page.getByTestId('play');
  const opened = '/?embed=1&story=controller-crash&paused=1&t=8000';

  // Opened paused at 8 s, the overlay over the graph; scrubbing back to 5 s takes it away and
  // leaves the clock stopped there.
  await page.goto(opened);
  await expect(clock).toHaveText('8.000s');
  await expect(overlay).toBeVisible();
  await scrubTo(page, 5_000);
  await expect(clock).toHaveText('5.000s');
  await expect(overlay).toHaveCount(0);
  await expect(play).toContainText('Play');
  // (A click on a broker reaches it again: it crashes, which forks the story there.)
  await expect(broker(page, 2)).not.toHaveAttribute('data-state', 'crashed');
  await broker(page, 2).click();
  await expect(broker(page, 2)).toHaveAttribute('data-state', 'crashed');
  await expect(page.getByTestId('fork-note')).toContainText('Changed the past at 5.000s');

  // The timeline's steps, and the "n" key's next event, do as much.
  for (const step of ['step-forward', 'step-back', 'n']) {
    await page.goto(opened);
    await expect(overlay).toBeVisible();
    if (step === 'n') {
      await page.locator('.page').focus();
      await page.keyboard.press('n');
    } else {
      await page.getByTestId(step).click();
    }
    await expect(clock, step).not.toHaveText('8.000s');
    await expect(overlay, step).toHaveCount(0);
    await expect(play, step).toContainText('Play');
  }

  // The example page's mounts open paused: its "Seek +10 s" takes one overlay away, and play
  // then pause through the API do not bring the other back.
  await page.setViewportSize({ width: 1440, height: 900 });
  await openExample(page);
  const mount = (profile: string) => page.getByTestId(`mount-${profile}`);
  await expect(mount('2.0').getByTestId('play-overlay')).toBeVisible();
  await expect(mount('3.9').getByTestId('play-overlay')).toBeVisible();
  await card(page, '2.0').locator('[data-do="seek"]').click();
  await expect(mount('2.0').getByTestId('clock')).toHaveText('10.000s');
  await expect(mount('2.0').getByTestId('play-overlay')).toHaveCount(0);
  await expect(mount('3.9').getByTestId('play-overlay')).toBeVisible();
  await card(page, '3.9').locator('[data-do="play"]').click();
  await expect(mount('3.9').getByTestId('play-overlay')).toHaveCount(0);
  await card(page, '3.9').locator('[data-do="pause"]').click();
  await expect(mount('3.9').getByTestId('play')).toContainText('Play');
  await expect(mount('3.9').getByTestId('play-overlay')).toHaveCount(0);
});

// A reassignment Kafka itself refuses (issue 28): the log says so, in the reader's language, the
// state is left as it was, and the API's event stream reports it. Under 3.9 the controller
// refuses a move onto a broker that is not live; under 2.4 the tool refuses one onto a broker
// that is not registered.
for (const [profile, lang, words] of [
  ['3.9', 'en', 'refused to reassign orders-0'],
  ['2.4', 'zh-CN', '重分配工具拒绝把 orders-0 重分配到'],
] as const) {
  test(`a reassignment Kafka refuses is told in the log (${profile}, ${lang})`, async ({ page }) => {
    await openExample(page);
    const result = await page.evaluate(
      ({ profile, lang }) => {
        const w = window as any;
        document.querySelector('main')!.insertAdjacentHTML('beforeend', '<div id="moves" style="height:560px"></div>');
        const pg = w.KafkaElection.mount(document.getElementById('moves'), {
          profile, lang, brokers: 4, partitions: 1, rf: 2, paused: true,
        });
        w.refusals = [];
        pg.on('reassignment_refused', (e: any) => w.refusals.push(`${e.partition} ${e.error}`));
        pg.seek(2000);
        const replicas: number[] = pg.state().partitions['orders-0'].replicas;
        const outsider = [1, 2, 3, 4].find((b) => !replicas.includes(b))!;
        pg.apply({ do: 'crash', broker: outsider });
        // Its ZooKeeper session ends (6 s under 2.4, 18 s under 3.9, on the next 3 s tick).
        pg.seek(30000);
        const before = pg.state().partitions['orders-0'];
        pg.apply({ do: 'reassign', topic: 'orders', partition: 0, replicas: [replicas[0], outsider] });
        pg.seek(31000);
        const after = pg.state().partitions['orders-0'];
        return { outsider, before, after };
      },
      { profile, lang },
    );
    // The API reports it as the page hears of it.
    await expect.poll(() => page.evaluate(() => (window as any).refusals)).toEqual([
      profile === '3.9'
        ? 'orders-0 INVALID_REPLICA_ASSIGNMENT'
        : `orders-0 The proposed assignment contains non-existent brokerIDs: ${result.outsider}`,
    ]);
    expect(result.after.replicas).toEqual(result.before.replicas);
    expect(result.after.leader_epoch).toBe(result.before.leader_epoch);
    const entry = page.locator('#moves [data-kind="reassignment_refused"]');
    // A key event: listed with the log's default filter.
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(words);
  });
}

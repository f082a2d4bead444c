// The page's languages: ?lang=zh-CN shows the chrome in Chinese (the catalogue fetched beside
// the module), the switch goes to English and back without touching the session, the language
// rides in the address into a fresh page, the browser's language is followed, and a bad value
// or a catalogue that does not load gets one notice and English.
import { test as plain, type Page } from '@playwright/test';
import { broker, expect, graph, test } from './playground';

const html = (page: Page) => page.locator('html');

/** The time the toolbar's clock shows. */
async function clock(page: Page): Promise<string> {
  return ((await page.getByTestId('clock').textContent()) ?? '').trim();
}

async function expectChinese(page: Page): Promise<void> {
  await expect(html(page)).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('reset')).toContainText('重置');
  await expect(page.getByTestId('jump-next')).toContainText('下一事件');
  await expect(page.getByTestId('share')).toHaveText('分享');
  await expect(page.getByTestId('controller-epoch')).toContainText('控制器');
  await expect(page.getByRole('toolbar')).toHaveAttribute('aria-label', '模拟控制');
  await expect(page.locator('[data-lang="zh-CN"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveTitle('Kafka 选举演练场');
}

async function expectEnglish(page: Page): Promise<void> {
  await expect(html(page)).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('reset')).toContainText('Reset');
  await expect(page.getByTestId('jump-next')).toContainText('Next event');
  await expect(page.getByTestId('share')).toHaveText('Share');
  await expect(page.getByTestId('controller-epoch')).toContainText('controller');
  await expect(page.locator('[data-lang="en"]')).toHaveAttribute('aria-pressed', 'true');
}

test('?lang=zh-CN shows the controls in Chinese; switching keeps the time shown', async ({ page }) => {
  await page.goto('/?lang=zh-CN&t=7000');
  await expectChinese(page);
  await expect(page.getByTestId('play')).toContainText('运行');
  const shown = await clock(page);
  expect(shown).toMatch(/^7(\.0+)?s$/);
  // The help overlay's words too.
  await page.getByTestId('help').click();
  await expect(page.getByTestId('help-dialog')).toContainText('键盘快捷键');
  await page.keyboard.press('Escape');

  // To English by the keyboard, and back by a click: the session is the same.
  await page.locator('[data-lang="en"]').focus();
  await page.keyboard.press('Enter');
  await expectEnglish(page);
  expect(await clock(page)).toBe(shown);
  await expect(page.getByTestId('play')).toContainText('Play');
  await page.locator('[data-lang="zh-CN"]').click();
  await expectChinese(page);
  expect(await clock(page)).toBe(shown);
});

test('a language chosen with the switch survives a share link opened in a fresh page', async ({ page, browser }) => {
  await page.goto('/?t=4000');
  await expectEnglish(page);
  await page.locator('[data-lang="zh-CN"]').click();
  await expectChinese(page);
  await expect.poll(() => page.url()).toContain('lang=zh-CN');
  const link = page.url();
  expect(link).toContain('#v=1');
  const shown = await clock(page);

  // A fresh browser: nothing kept in its storage, an English navigator.
  const fresh = await browser.newContext({ locale: 'en-US' });
  const other = await fresh.newPage();
  await other.goto(link);
  await expectChinese(other);
  expect(await clock(other)).toBe(shown);
  await fresh.close();
});

test('the page follows the browser, then the reader\'s own choice', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/?paused=1');
  await expectChinese(page);
  // The reader picks English: a new page of the same browser keeps it.
  await page.locator('[data-lang="en"]').click();
  await expectEnglish(page);
  const again = await context.newPage();
  await again.goto('/?paused=1');
  await expectEnglish(again);
  await context.close();
});

test('a bad lang gets one message and English', async ({ page }) => {
  await page.goto('/?lang=fr&paused=1');
  await expect(page.getByTestId('error')).toContainText('lang must be en or zh-CN, not "fr"');
  await expectEnglish(page);
});

// A failed fetch logs the browser's own console error, which the shared `test` would count.
plain('a Chinese catalogue that does not load gets one notice, and the page stays in English', async ({ page }) => {
  await page.route('**/i18n/zh-CN.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/?lang=zh-CN&paused=1');
  await expect(page.getByTestId('notice')).toContainText('The Chinese text could not be loaded');
  await expect(page.getByTestId('notice')).toContainText('HTTP 404');
  await expect(html(page)).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('reset')).toContainText('Reset');
});

test('under a subpath, the Chinese catalogue is fetched from beside the page', async ({ page }) => {
  const base = `http://127.0.0.1:${Number(process.env.PLAYWRIGHT_PORT ?? 8093) + 1}/playground/`;
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(`${base}?lang=zh-CN&paused=1`);
  await expectChinese(page);
  expect(asked).toContain('/playground/i18n/zh-CN.json');
});

test('in Chinese the graph, the broker panel and the tables speak Chinese; English comes back', async ({ page }) => {
  await page.goto('/?lang=zh-CN&consumers=2&t=12000');
  await expectChinese(page);
  const svg = graph(page);
  // The controller's crown, a running broker's line, a consumer's caption.
  await expect(svg).toContainText('控制器 · epoch 1');
  await expect(svg).toContainText('运行中');
  await expect(svg).toContainText('消费者');
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /^broker 2，运行中/);
  // The broker panel.
  await page.getByTestId('select-2').click();
  const panel = page.locator('.broker-panel');
  await expect(panel.locator('h2')).toHaveText('broker 2');
  await expect(panel).toContainText('让 broker 2 崩溃');
  await expect(panel).toContainText('受控关闭');
  await expect(panel.locator('dt').first()).toHaveText('状态');
  // The partitions and the group.
  const partitions = page.getByTestId('partitions');
  await expect(partitions.locator('h2')).toHaveText('分区');
  await expect(page.getByTestId('preferred-election').first()).toHaveText('优先副本选举');
  await expect(page.getByTestId('group-panel')).toContainText('协调器');
  await expect(page.getByTestId('add-consumer')).toContainText('添加消费者');
  // Crash broker 2: its node says so in Chinese.
  await broker(page, 2).click();
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /^broker 2，已崩溃，ZooKeeper 会话将在 [\d.]+ 秒后过期/);
  await expect(svg.locator('g.broker', { has: page.locator('g[data-broker="2"]') }).locator('.node-label')).toContainText('ZK 会话将过期');

  await page.locator('[data-lang="en"]').click();
  await expectEnglish(page);
  await expect(svg).toContainText('CONTROLLER · epoch 1');
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /^Broker 2, crashed, ZooKeeper session expires in/);
  await expect(svg.locator('g.broker', { has: page.locator('g[data-broker="2"]') }).locator('.node-label')).toContainText('ZK session expires');
  await expect(panel).toContainText('Start broker 2');
  await expect(partitions.locator('h2')).toHaveText('Partitions');
  await expect(page.getByTestId('preferred-election').first()).toHaveText('Preferred election');
});

test('a story\'s title and description in Chinese, and back in English', async ({ page }) => {
  await page.goto('/?lang=zh-CN&story=controller-crash&paused=1');
  await expectChinese(page);
  const box = page.getByTestId('story-box');
  await expect(page.getByTestId('story-title')).toHaveText('控制器崩溃');
  await expect(box).toContainText('这个场景展示了什么');
  await expect(box.locator('.story-about p')).toContainText('zookeeper.session.timeout.ms（3.9 中为 18 秒）');
  await expect(page.getByTestId('story').locator('option:checked')).toHaveText('控制器崩溃');
  await expect(box.getByRole('button')).toHaveText('回到自由操作');

  await page.locator('[data-lang="en"]').click();
  await expectEnglish(page);
  await expect(page.getByTestId('story-title')).toHaveText('The controller crashes');
  await expect(box.locator('.story-about p')).toContainText('Broker 1, the controller, dies at 1 s');
  await expect(box.getByRole('button')).toHaveText('Back to free play');
});

// Kafka's and ZooKeeper's own words that Chinese keeps as they write them (beside the names
// the check recognises by their shape: settings and znodes, error codes, requests in
// CamelCase, the world's topics, groups and consumers).
const KAFKA_WORDS = new Set([
  // The glossary's kept terms.
  'isr', 'epoch', 'broker', 'kafka', 'zookeeper', 'znode', 'acks', 'gc', 'kafka-election',
  // ZooKeeper's operations and watches, Kafka's one-word requests, a setting's values and a
  // group's states.
  'create', 'delete', 'exists', 'check', 'multi', 'multi-op', 'ping', 'pong', 'watch', 'tick',
  'fetch', 'produce', 'heartbeat', 'all', 'range', 'roundrobin', 'empty', 'stable', 'dead',
  // Names Chinese articles keep: a member id, Scala's HashMap, Java's abs.
  'id', 'abs', 'scala',
  // The language switch names English in English; the command line's command; units; keys.
  'english', 'run', 'file', 'ms', 'kb', 'enter', 'shift', 'space', 'esc', 'tab',
]);

/** The English words of `text` that are not Kafka's names or the world's. */
function englishWords(text: string): string[] {
  const settled = text.replace(/(leader|controller) epoch/gi, ' ');
  return settled
    .split(/[^A-Za-z0-9_./=#@+-]+/)
    .flatMap((t) => t.split(/[=+]/))
    .map((t) => t.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((t) => (t.match(/[A-Za-z]/g) ?? []).length > 1)
    // Settings, znodes, error codes, requests (CamelCase), abbreviations.
    .filter((t) => !(/[_./]/.test(t) || /[a-z][A-Z]/.test(t) || !/[a-z]/.test(t)))
    // The world's names: the topic and its partitions, the group, its consumers and their ids.
    .filter((t) => !/^orders(-\d+)?$/.test(t) && t !== 'my-group' && !/^c\d+(-[0-9a-f]+)*$/.test(t))
    .filter((t) => !KAFKA_WORDS.has(t.toLowerCase()));
}

/**
 * Every text the reader meets on the page (text nodes, and title, aria-label, placeholder and
 * aria-valuetext), with the English words found in each. The event log's Kafka detail line is
 * the core's trace line, the same in every language, and is left out.
 */
async function englishOnPage(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('script, style, .detail-line')) continue;
      out.push(n.textContent ?? '');
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [aria-valuetext]')) {
      for (const a of ['title', 'aria-label', 'placeholder', 'aria-valuetext']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out;
  });
  return [...new Set(texts.flatMap((t) => englishWords(t).map((w) => `${w}  ←  ${t.trim().slice(0, 120)}`)))];
}

test('the check finds English words and lets Kafka\'s names through', async () => {
  expect(englishWords('broker 2 崩溃了, press Enter')).toEqual(['press']);
  expect(englishWords('UpdateMetadata（controller epoch 2） zookeeper.session.timeout.ms NOT_CONTROLLER /controller')).toEqual([]);
  expect(englishWords('消费者 c1 加入组 my-group：orders-0 acks=all session expired')).toEqual(['session', 'expired']);
});

test('a busy Chinese page, a story playing and a broker crashed, has no English of its own', async ({ page }) => {
  // Slow enough that the messages in flight carry their names.
  await page.goto('/?lang=zh-CN&story=group-coordinator-failover&speed=0.5');
  await expectChinese(page);
  const svg = graph(page);
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /运行中/);
  await broker(page, 2).click();
  await expect(broker(page, 2)).toHaveAttribute('aria-label', /已崩溃/);
  // The strip and the screen reader's announcement say the crash in Chinese.
  await expect(page.getByTestId('announcer')).toHaveText(/broker \d+ 崩溃了|成为|首领|控制器/);
  await expect(page.getByTestId('now-latest')).toContainText('t = ');
  // The messages in flight are named, in Chinese where they have words.
  await expect(svg.locator('text.flight-label').first()).toBeVisible();
  // The story's next step, the broker's menu and panel, the other tabs' panels.
  await expect(page.getByTestId('story-box')).toBeVisible();
  await page.locator('svg g.node[data-broker="3"]').focus();
  await page.keyboard.press('m');
  await expect(page.getByTestId('broker-menu')).toBeVisible();
  expect(await englishOnPage(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByTestId('select-3').click();
  await expect(page.locator('.broker-panel')).toBeVisible();
  expect(await englishOnPage(page)).toEqual([]);
});

test('free play in Chinese with a topic, a group, a crash and a bad address has no English of its own', async ({ page }) => {
  await page.goto('/?lang=zh-CN&consumers=2&speed=0.5&rf=9');
  await expectChinese(page);
  // The address's problem, said again in Chinese once the catalogue is here.
  await expect(page.getByTestId('error')).toContainText('页面地址：rf（副本因子）须为 1 到 3');
  await page.waitForTimeout(3000);
  await broker(page, 1).click();
  await expect(broker(page, 1)).toHaveAttribute('aria-label', /已崩溃/);
  await expect(page.getByTestId('announcer')).toHaveText('broker 1 崩溃了。');
  // A stream's rate the page refuses, in Chinese.
  await page.getByTestId('stream-rate').fill('0');
  await page.getByTestId('stream-toggle').click();
  await expect(page.getByTestId('error')).toContainText('持续写入的速率是每秒的消息条数，须为 1 到 10000 之间的整数，而不是“0”');
  expect(await englishOnPage(page)).toEqual([]);
});

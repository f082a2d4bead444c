// The event log a learner reads: only the key events by default (a few, not the cluster's
// start-up steps), each a plain sentence with, for a key event, why; the Kafka detail (the
// core's line and its cause) one click or one key away behind a disclosure; and in Chinese
// with ?lang=zh-CN.
import { broker, expect, test } from './playground';

test('key events only is on by default and lists a few events; off lists them all', async ({ page }) => {
  await page.goto('/?t=30000&paused=1');
  const box = page.getByTestId('key-only');
  await expect(box).toBeChecked();
  const entries = page.locator('li.event[data-kind]');
  // The default page at 30 s: the three brokers starting (what the strip says too), a
  // controller and the three partitions' first leaders.
  await expect(entries).toHaveCount(7);
  await expect(page.locator('.log-count')).toContainText(/7 of \d+ events/);
  const kinds = await entries.evaluateAll((es) => es.map((e) => e.getAttribute('data-kind')));
  expect(kinds).toEqual([
    'broker_started', 'controller_elected', 'broker_started', 'broker_started',
    'leader_elected', 'leader_elected', 'leader_elected',
  ]);
  const elected = page.locator('li.event[data-kind="controller_elected"]');
  await expect(elected.locator('.what')).toHaveText('Broker 1 is the new controller (controller epoch 1).');
  await expect(elected.locator('.because')).toContainText('first broker to create /controller');
  // No source names, KIPs or czxids in what the learner reads first.
  const plain = (await page.locator('.events .what, .events .because').allTextContents()).join(' ');
  expect(plain).not.toMatch(/KIP-|KAFKA-|czxid|0x[0-9a-f]|StateMachine/);

  await box.uncheck();
  await expect.poll(() => entries.count()).toBeGreaterThan(40);
  await expect(page.locator('[data-kind="zk_session_created"]').first()).toBeAttached();
});

test('an entry\'s Kafka detail opens with a click and with the keyboard', async ({ page }) => {
  await page.goto('/?t=30000&paused=1');
  const first = page.locator('li.event[data-kind="controller_elected"]').first();
  const toggle = first.getByTestId('event-detail-toggle');
  const detail = first.getByTestId('event-detail');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(detail).toBeHidden();
  const controls = await toggle.getAttribute('aria-controls');
  expect(await detail.getAttribute('id')).toBe(controls);

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(detail).toBeVisible();
  // The detail: the core's own line and its cause, with the rule and the source.
  await expect(detail).toContainText('broker 1 became controller (controller epoch 1)');
  await expect(detail).toContainText('registerControllerAndIncrementControllerEpoch');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(detail).toBeHidden();

  // By the keyboard: focus the button, Enter opens, Space closes.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(detail).toBeVisible();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('after the controller crashes, the key events tell the failover and why', async ({ page }) => {
  await page.goto('/?speed=50');
  await expect(broker(page, 1)).toBeVisible();
  await broker(page, 1).click();
  const elected = page.locator('li.event[data-kind="controller_elected"]');
  await expect(elected).toHaveCount(2, { timeout: 30_000 });
  await expect(elected.nth(1).locator('.because')).toContainText('/controller was gone');
  const offline = page.locator('li.event[data-kind="leader_elected"]').filter({ hasText: 'offline election' });
  await expect(offline.first()).toBeVisible({ timeout: 10_000 });
  await expect(offline.first().locator('.because')).toContainText('Its leader was lost');
  // A crash is the learner's own click; the key events are the consequences.
  await expect(page.locator('li.event[data-kind="watch_fired"]')).toHaveCount(0);
});

test('in ?lang=zh-CN the log\'s sentences and its reasons are Chinese', async ({ page }) => {
  await page.goto('/?lang=zh-CN&t=30000&paused=1');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const first = page.locator('li.event[data-kind="controller_elected"]').first();
  await expect(first.locator('.what')).toHaveText('broker 1 成为新的控制器（controller epoch 1）。');
  await expect(first.locator('.because')).toContainText('原因：');
  await expect(first.locator('.because')).toContainText('谁先创建，谁就是控制器');
  const leader = page.locator('li.event[data-kind="leader_elected"]').first();
  await expect(leader.locator('.what')).toContainText('成为首领');
  await expect(leader.locator('.reason-tag')).toHaveText('新分区选举');
  await expect(leader.getByTestId('event-detail-toggle')).toContainText('Kafka 细节');
  // The detail in Chinese: the kind's name and the cause in Chinese, not the core's English line.
  await first.getByTestId('event-detail-toggle').click();
  const detail = first.getByTestId('event-detail');
  await expect(detail.locator('code.kind')).toHaveText('controller_elected');
  await expect(detail).not.toContainText('became controller');
  await expect(detail.locator('.detail-cause')).toContainText('/controller');
  expect(await detail.locator('.detail-cause').textContent()).toMatch(/[\u4e00-\u9fff]/);
  const sentences = await page.locator('.events .what').allTextContents();
  expect(sentences.length).toBeGreaterThan(0);
  for (const s of sentences) expect(s).toMatch(/[\u4e00-\u9fff]/);
});

// Every wait explains itself (a crashed consumer's session, a stalled follower's ISR lag clock,
// acks=all waiting for the ISR), the "next event" control, the first stream's partition and the
// play overlay of a story opened paused.
import { type Locator, type Page } from '@playwright/test';
import { broker, controllerId, expect, logEntries, openPlayground, showAllEvents, test } from './playground';

/** The seconds a wait's text says are left ("... in 41.1 s ..." -> 41.1). */
async function secondsLeft(wait: Locator): Promise<number> {
  const text = (await wait.textContent()) ?? '';
  const found = /in (\d+\.\d) s/.exec(text);
  expect(found, `a time left in "${text}"`).not.toBeNull();
  return Number((found as RegExpExecArray)[1]);
}

/** The partition table's row of `key`. */
function row(page: Page, key: string): Locator {
  return page.locator(`tr[data-partition="${key}"]`);
}

/** One field of a partition's row. */
async function field(page: Page, key: string, name: string): Promise<string> {
  return ((await row(page, key).locator(`[data-field="${name}"]`).textContent()) ?? '').trim();
}

test('a crashed consumer counts down to its removal, on its node and in the group panel', async ({ page }) => {
  await page.goto('/?consumers=2&speed=10');
  await showAllEvents(page);
  await expect(page.locator('[data-member-row][data-in-group="true"]')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('[data-member-row="c2"]')).toHaveAttribute('data-state', 'stable', { timeout: 30_000 });
  const node = page.locator('svg g[data-member="c2"]');
  await node.click();
  await expect(node).toHaveAttribute('data-state', 'crashed');

  // On the node: what it waits for and the setting.
  const onNode = page.locator('g.consumer').filter({ has: page.locator('g[data-member="c2"]') }).locator('text.cwait');
  await expect(onNode.first()).toHaveText(/^removed in \d+\.\d s$/);
  await expect(onNode.nth(1)).toHaveText('session.timeout.ms');
  await expect(node).toHaveAttribute('aria-label', /removed from my-group in \d+\.\d s \(session\.timeout\.ms\)/);

  // In the group panel, counting down.
  const inPanel = page.locator('[data-member-row="c2"] [data-testid="member-wait"]');
  await expect(inPanel).toContainText(/removed from my-group in \d+\.\d s \(session\.timeout\.ms\)/);
  const first = await secondsLeft(inPanel);
  await expect.poll(async () => secondsLeft(inPanel)).toBeLessThan(first);

  // Until the coordinator removes it: then nothing is awaited any more.
  await expect(page.locator('[data-member-row="c2"]')).toHaveAttribute('data-in-group', 'false', { timeout: 30_000 });
  await expect(inPanel).toHaveCount(0);
  await expect(onNode).toHaveCount(0);
  await expect(logEntries(page, 'member_removed', 'c2').first()).toBeAttached();
});

test('the first stream goes to a partition the controller does not lead', async ({ page }) => {
  await openPlayground(page, '10');
  for (const key of ['orders-0', 'orders-1', 'orders-2']) {
    await expect(row(page, key).locator('[data-field="leader"]')).toHaveText(/^\d+$/);
  }
  const toggle = page.getByTestId('stream-toggle');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const key = await page.getByTestId('stream-partition').inputValue();
  await expect(row(page, key)).toContainText('/s');
  expect(await field(page, key, 'leader')).not.toBe(await controllerId(page));
});

test('a stalled follower counts down to leaving the ISR, and acks=all waits for it', async ({ page }) => {
  await openPlayground(page, '5');
  for (const key of ['orders-0', 'orders-1', 'orders-2']) {
    await expect(row(page, key).locator('[data-field="leader"]')).toHaveText(/^\d+$/);
  }
  await page.getByTestId('stream-toggle').click();
  const key = await page.getByTestId('stream-partition').inputValue();
  await expect.poll(async () => Number(await field(page, key, 'hw')), { timeout: 20_000 }).toBeGreaterThan(0);
  const leader = await field(page, key, 'leader');
  const controllerBroker = await controllerId(page);
  const follower = ['1', '2', '3'].find((b) => b !== leader && b !== controllerBroker) as string;

  await page.getByTestId(`select-${follower}`).click();
  await page.getByTestId('stall-fetchers').click();
  await expect(page.getByTestId('stall-fetchers')).toHaveAttribute('aria-pressed', 'true');

  // In the partition table: the countdown with its setting, and the producer's wait.
  const waits = page.locator(`tr[data-waits-for="${key}"]`);
  const wait = waits.locator(`[data-testid="isr-wait"][data-broker="${follower}"]`);
  await expect(wait).toContainText(
    new RegExp(`broker ${follower} leaves the ISR of ${key} in \\d+\\.\\d s \\(replica\\.lag\\.time\\.max\\.ms\\)`),
  );
  await expect(waits.getByTestId('produce-wait')).toContainText(
    new RegExp(`acks=all: \\d+ records? waits? for the ISR to reach offset \\d+: the leader waits for broker ${follower}`),
  );
  // On the follower's node and in its panel.
  const nodeLines = page.locator('g.broker').filter({ has: page.locator(`g[data-broker="${follower}"]`) }).locator('text.isr-wait');
  await expect(nodeLines.first()).toHaveText(new RegExp(`^leaves ISR of ${key}`));
  await expect(nodeLines.nth(1)).toHaveText(/^in \d+\.\d s$/);
  await expect(page.getByTestId('replica-isr-wait')).toContainText('replica.lag.time.max.ms');
  const first = await secondsLeft(wait);
  await expect.poll(async () => secondsLeft(wait)).toBeLessThan(first);

  // Out of the ISR: the waits are over, the stream goes on.
  await expect(logEntries(page, 'isr_shrunk', `[${follower}] out`).filter({ hasText: key }).first()).toBeAttached({
    timeout: 30_000,
  });
  await expect(wait).toHaveCount(0);
  await expect(waits).toHaveCount(0);
  await expect(nodeLines).toHaveCount(0);
});

test('"next event" skips each wait to the next event in the log, up to a crashed broker\'s session expiry', async ({
  page,
}) => {
  await openPlayground(page, '1');
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Play');
  const clock = page.getByTestId('clock');
  await broker(page, '2').click();
  await expect(broker(page, '2')).toHaveAttribute('aria-label', /crashed/i);
  const crashedAt = parseFloat((await clock.textContent()) ?? '');
  const expired = logEntries(page, 'session_expired', 'broker 2');
  await expect(expired).toHaveCount(0);
  // The newest event of the log (folded ones included), by its time.
  const newest = page.locator('li.event[data-kind] time.when').last();

  // Each press lands on an event: the clock then reads the newest event's time, and the
  // clock stays paused. Within a few presses the session expires, 18 s after the crash.
  let before = crashedAt;
  for (let press = 0; press < 8 && (await expired.count()) === 0; press++) {
    const count = await page.locator('li.event[data-kind]').count();
    await page.getByTestId('jump-next').click();
    await expect(page.locator('li.event[data-kind]')).not.toHaveCount(count);
    const at = ((await newest.textContent()) ?? '').trim();
    await expect(clock).toHaveText(at);
    expect(parseFloat(at)).toBeGreaterThan(before);
    before = parseFloat(at);
  }
  await expect(expired).toHaveCount(1);
  expect(before).toBeGreaterThan(crashedAt + 5);
  await expect(page.getByTestId('play')).toContainText('Play');
});

test('a story opened paused shows a play overlay, stays at t = 0 until it is pressed', async ({ page }) => {
  await page.goto('/?story=controller-crash&paused=1');
  const overlay = page.getByTestId('play-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toContainText('Play the story');
  const clock = page.getByTestId('clock');
  await expect(clock).toHaveText('0.000s');
  await page.waitForTimeout(1_000);
  await expect(clock).toHaveText('0.000s');

  await overlay.click();
  await expect(overlay).toHaveCount(0);
  await expect(clock).not.toHaveText('0.000s');
  await expect(page.getByTestId('play')).toContainText('Pause');
});

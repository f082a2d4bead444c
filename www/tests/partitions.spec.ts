// Partitions on the page: replicas under each broker, the live partition table, the producer,
// a leader's crash and a follower whose fetchers stall.
import { type Locator, type Page } from '@playwright/test';
import { broker, expect, logEntries, openPlayground, phrase, test } from './playground';

/** The partition table's row of `key` (e.g. "orders-1"). */
function row(page: Page, key: string): Locator {
  return page.locator(`tr[data-partition="${key}"]`);
}

/** One field of a partition's row: leader, leader_epoch, isr, hw, lost, ... */
function field(page: Page, key: string, name: string): Locator {
  return row(page, key).locator(`[data-field="${name}"]`);
}

/** The badge of replica `key` under broker `id` in the graph. */
function badge(page: Page, id: string | number, key: string): Locator {
  // The badges are drawn on the node, beside its button (the button's text is its label).
  return page.locator(`svg g.broker:has(> g.node[data-broker="${id}"]) > g.node-marks [data-replica="${key}"]`);
}

/** The brokers listed in an ISR cell ("2, 3, 1" -> ["2", "3", "1"]). */
async function isr(page: Page, key: string): Promise<string[]> {
  const text = (await field(page, key, 'isr').textContent()) ?? '';
  return text.split(',').map((s) => s.trim()).filter((s) => /^\d+$/.test(s));
}

/** Opens the playground at 50x and waits until the topic's partitions have leaders. */
async function openWithTopic(page: Page): Promise<void> {
  await openPlayground(page, '50');
  for (const key of ['orders-0', 'orders-1', 'orders-2']) {
    await expect(field(page, key, 'leader')).toHaveText(/^\d+$/);
  }
}

/** Starts a steady stream to `key` with the page's default rate and acks. */
async function startStream(page: Page, key: string): Promise<void> {
  await page.getByTestId('stream-partition').selectOption(key);
  await expect(page.getByTestId('stream-rate')).toHaveValue('10');
  await expect(page.getByTestId('stream-acks')).toHaveValue('all');
  const toggle = page.getByTestId('stream-toggle');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(row(page, key)).toContainText('10/s');
  await expect(logEntries(page, 'producer_started', key).first()).toBeAttached();
  // Records get acknowledged and the high watermark moves.
  await expect.poll(async () => Number(await field(page, key, 'hw').textContent()), { timeout: 20_000 }).toBeGreaterThan(0);
}

test('the default topic: every broker shows its replicas, each partition its leader, epoch and ISR', async ({ page }) => {
  await openWithTopic(page);
  // Kafka's assignment with a fixed start: orders-0 on [1,2,3], orders-1 on [2,3,1], orders-2 on [3,1,2].
  for (const [key, leader] of [
    ['orders-0', '1'],
    ['orders-1', '2'],
    ['orders-2', '3'],
  ]) {
    await expect(field(page, key, 'leader')).toHaveText(leader);
    await expect(field(page, key, 'leader_epoch')).toHaveText('0');
    expect((await isr(page, key)).sort()).toEqual(['1', '2', '3']);
    await expect(badge(page, leader, key)).toHaveAttribute('data-state', 'leader');
    for (const id of ['1', '2', '3'].filter((b) => b !== leader)) {
      await expect(badge(page, id, key)).toHaveAttribute('data-state', 'in_sync');
    }
  }
  await expect(page.locator('svg g.node-marks [data-replica]')).toHaveCount(9);
  await expect(logEntries(page, 'leader_elected', 'orders-0: leader 1')).toContainText('new_partition');
});

test('crashing the leader of a partition with a stream: a new leader from the ISR, a higher leader epoch, a shrunk ISR', async ({
  page,
}) => {
  await openWithTopic(page);
  const key = 'orders-1';
  await startStream(page, key);

  const old = ((await field(page, key, 'leader').textContent()) ?? '').trim();
  const oldEpoch = Number(await field(page, key, 'leader_epoch').textContent());
  const oldIsr = await isr(page, key);
  expect(oldIsr).toContain(old);
  await expect(badge(page, old, key)).toHaveAttribute('data-state', 'leader');

  // Crash the leader by clicking its node; ZooKeeper notices after the 18 s session timeout.
  await broker(page, old).click();
  await expect(broker(page, old)).toHaveAttribute('aria-label', /crashed/i);
  await expect(badge(page, old, key)).toHaveAttribute('data-state', 'offline');

  await expect(field(page, key, 'leader')).not.toHaveText(old, { timeout: 30_000 });
  await expect(field(page, key, 'leader')).toHaveText(/^\d+$/);
  const successor = ((await field(page, key, 'leader').textContent()) ?? '').trim();
  expect(oldIsr, 'the new leader comes from the old ISR').toContain(successor);
  expect(Number(await field(page, key, 'leader_epoch').textContent())).toBeGreaterThan(oldEpoch);
  const newIsr = await isr(page, key);
  expect(newIsr).not.toContain(old);
  expect(newIsr.length).toBeLessThan(oldIsr.length);
  await expect(row(page, key)).toHaveAttribute('data-attention', 'true');
  await expect(badge(page, successor, key)).toHaveAttribute('data-state', 'leader');

  // The log tells the election with its reason and the ISR changes.
  const elected = logEntries(page, 'leader_elected', `${key}: leader ${successor}`);
  await expect(elected).toHaveCount(1);
  await expect(elected).toContainText('offline election');
  // (Those of __consumer_offsets partitions that hold no group are folded away in the log.)
  await expect(logEntries(page, 'isr_shrunk', `[${old}] out`).filter({ hasText: 'orders-' }).first()).toBeVisible();

  // The producer found the new leader: records keep being acknowledged.
  const acked = Number(await field(page, key, 'acked').textContent());
  await expect.poll(async () => Number(await field(page, key, 'acked').textContent()), { timeout: 20_000 }).toBeGreaterThan(acked);
  await expect(field(page, key, 'lost')).toHaveText('0');

  await page.getByTestId('stream-toggle').click();
  await expect(page.getByTestId('stream-toggle')).toHaveAttribute('aria-pressed', 'false');
  await expect(logEntries(page, 'producer_stopped', key).first()).toBeAttached();
});

test('a follower whose fetchers stall leaves the ISR after replica.lag.time.max.ms and rejoins once resumed', async ({
  page,
}) => {
  await openWithTopic(page);
  const key = 'orders-0';
  await startStream(page, key);
  const follower = '3';
  await expect(badge(page, follower, key)).toHaveAttribute('data-state', 'in_sync');

  await page.getByTestId(`select-${follower}`).click();
  const stall = page.getByTestId('stall-fetchers');
  await expect(stall).toHaveAttribute('aria-pressed', 'false');
  await stall.click();
  await expect(stall).toHaveAttribute('aria-pressed', 'true');
  await expect(stall).toHaveText(/resume/i);
  await expect(logEntries(page, 'fetcher_stalled', `broker ${follower}`).first()).toBeAttached();

  // 30 s of virtual time behind the leader's log end (3.9): the leader drops it from the ISR.
  await expect(badge(page, follower, key)).toHaveAttribute('data-state', 'out_of_sync', { timeout: 30_000 });
  expect(await isr(page, key)).not.toContain(follower);
  await expect(row(page, key)).toHaveAttribute('data-attention', 'true');
  await expect(logEntries(page, 'isr_shrunk', `${key}: ISR shrunk`).filter({ hasText: phrase(`[${follower}] out`) }).first()).toBeVisible();
  // Its log end offset lags behind the leader's.
  await expect(row(page, key).locator(`[data-leo-broker="${follower}"]`)).toContainText(/lag \d+/);

  await stall.click();
  await expect(stall).toHaveAttribute('aria-pressed', 'false');
  await expect(badge(page, follower, key)).toHaveAttribute('data-state', 'in_sync', { timeout: 30_000 });
  expect(await isr(page, key)).toContain(follower);
  await expect(logEntries(page, 'isr_expanded', `${key}: ISR expanded`).first()).toBeVisible();
});

test('page parameters shape the topic; a bad one is named', async ({ page }) => {
  await page.goto('/?partitions=5&rf=2&paused=1');
  await expect(page.locator('tr[data-partition^="orders-"]')).toHaveCount(5);
  await expect(page.getByTestId('partition-count')).toHaveValue('5');
  await expect(page.getByTestId('replication-factor')).toHaveValue('2');

  await page.goto('/?partitions=13&rf=4&paused=1');
  const alert = page.getByTestId('error');
  await expect(alert).toContainText('partitions must be 1 to 12');
  await expect(alert).toContainText('rf (the replication factor) must be 1 to 3');
  await expect(page.locator('tr[data-partition^="orders-"]')).toHaveCount(3);
});

// What a learner does on the page: watch the first election, crash the controller, revive a broker.
import {
  broker,
  brokers,
  controller,
  controllerId,
  expect,
  graph,
  logEntries,
  openPlayground,
  phrase,
  test,
} from './playground';

test('the page loads, shows 3 brokers and ZooKeeper, and broker 1 becomes controller (epoch 1)', async ({
  page,
}) => {
  await page.goto('/');
  await expect(graph(page)).toBeVisible();
  await expect(brokers(page)).toHaveCount(3);
  for (const id of ['1', '2', '3']) await expect(broker(page, id)).toBeVisible();
  const zookeeper = graph(page)
    .locator('[data-zookeeper], [aria-label*="ZooKeeper" i]')
    .or(graph(page).getByText(/ZooKeeper/i));
  await expect(zookeeper.first()).toBeVisible();

  await openPlayground(page, '50');
  await expect(controller(page)).toHaveAttribute('data-broker', '1');
  await expect(logEntries(page, 'controller_elected', 'epoch 1').first()).toBeVisible();
  await expect(logEntries(page, 'controller_elected', 'epoch 1').first()).toContainText(phrase('broker 1'));
  await expect(page.getByTestId('controller-epoch')).toContainText(phrase('epoch 1'));
});

test('crashing the controller: its session expires and another broker is elected with epoch 2', async ({
  page,
}) => {
  await openPlayground(page, '50');
  const old = await controllerId(page);

  await broker(page, old).click();
  await expect(broker(page, old)).toHaveAttribute('aria-label', /crashed/i);

  const successor = page.locator(`svg g[data-controller="true"]:not([data-broker="${old}"])`);
  await expect(successor).toHaveCount(1, { timeout: 30_000 });
  await expect(controller(page)).toHaveCount(1);
  const now = await controllerId(page);
  expect(now).not.toBe(old);

  await expect(logEntries(page, 'session_expired', `broker ${old}`).first()).toBeVisible();
  const elected = logEntries(page, 'controller_elected', 'epoch 2');
  await expect(elected).toHaveCount(1);
  await expect(elected).toContainText(phrase(`broker ${now}`));
  await expect(page.getByTestId('controller-epoch')).toContainText(phrase('epoch 2'));
});

test('clicking a crashed broker starts it again and it registers once its old session expired', async ({
  page,
}) => {
  await openPlayground(page, '50');
  const ctrl = await controllerId(page);
  const id = ['3', '2', '1'].find((candidate) => candidate !== ctrl) as string;
  const node = broker(page, id);
  await expect(node).toHaveAttribute('aria-label', /running/i);

  const registered = logEntries(page, 'broker_registered', `broker ${id}`);
  await expect(registered.first()).toBeAttached();

  await node.click();
  await expect(node).toHaveAttribute('aria-label', /crashed/i);
  // Kafka's broker can register again only once ZooKeeper has expired the old process's session.
  await expect(logEntries(page, 'session_expired', `broker ${id}`).first()).toBeVisible({ timeout: 30_000 });
  const before = await registered.count();

  await node.click();
  await expect(node).toHaveAttribute('aria-label', /running/i);
  await expect(node).not.toHaveAttribute('aria-label', /crashed/i);
  await expect.poll(() => registered.count(), { timeout: 30_000 }).toBeGreaterThan(before);

  // In time order (the log may list newest first): crashed, then session expired, then registered.
  const kinds = await page
    .locator('[data-kind]')
    .evaluateAll(
      (entries, pattern) =>
        entries
          .filter((entry) => new RegExp(pattern, 'i').test(entry.textContent ?? ''))
          .map((entry) => entry.getAttribute('data-kind') ?? ''),
      phrase(`broker ${id}`).source,
    );
  const inTimeOrder =
    kinds.indexOf('broker_crashed') >= 0 && kinds.indexOf('broker_crashed') < kinds.indexOf('session_expired')
      ? kinds
      : [...kinds].reverse();
  const crashed = inTimeOrder.indexOf('broker_crashed');
  const expired = inTimeOrder.indexOf('session_expired');
  expect(crashed, `broker ${id}'s crash is in the log: ${inTimeOrder.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(expired, `its session expired after the crash: ${inTimeOrder.join(', ')}`).toBeGreaterThan(crashed);
  expect(inTimeOrder.lastIndexOf('broker_registered'), `it registered after that: ${inTimeOrder.join(', ')}`).toBeGreaterThan(
    expired,
  );
});

test('deleting /controller moves the controller at once: a new race, epoch 2, nobody crashed', async ({
  page,
}) => {
  await openPlayground(page, '5');
  await page.getByTestId('delete-controller').first().click();
  await expect(logEntries(page, 'controller_deleted', 'broker 1').first()).toBeVisible();
  const elected = logEntries(page, 'controller_elected', 'epoch 2');
  await expect(elected).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('controller-epoch')).toContainText(phrase('epoch 2'));
  await expect(controller(page)).toHaveCount(1);
  for (const id of ['1', '2', '3']) await expect(broker(page, id)).toHaveAttribute('aria-label', /running/i);
  await expect(logEntries(page, 'session_expired')).toHaveCount(0);
});

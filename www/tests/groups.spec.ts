// Consumer groups on the page: consumers joining free play's group my-group, the group leader
// marked in the graph and the panel, a crashed leader replaced by the next one in Kafka's
// member-map order at the next generation, and the consumers= page parameter.
import { type Locator, type Page } from '@playwright/test';
import { expect, logEntries, phrase, showAllEvents, test } from './playground';

/** The graph node of consumer `name`. */
function consumer(page: Page, name: string): Locator {
  return page.locator(`svg g[data-member="${name}"]`);
}

/** The graph node(s) marked as the group leader. */
function leaderNode(page: Page): Locator {
  return page.locator('svg g[data-group-leader="true"]');
}

/** The leader's pill ("leader · gen N"), drawn beside its node's button. */
function leaderPill(page: Page): Locator {
  return page.locator('svg g.consumer:has(> g.cnode[data-group-leader="true"]) > g.cnode-marks');
}

/** The group panel's row of consumer `name`. */
function memberRow(page: Page, name: string): Locator {
  return page.locator(`[data-member-row="${name}"]`);
}

/** The group's generation, state and leader as the panel shows them. */
const generation = (page: Page) => page.getByTestId('group-generation');
const groupState = (page: Page) => page.getByTestId('group-state');
const groupLeader = (page: Page) => page.getByTestId('group-leader');

test('three consumers join, the first leads; the leader crashes and a new leader and generation follow', async ({ page }) => {
  // The 3.9 profile: consumer session.timeout.ms is 45 s of virtual time, so run fast.
  await page.goto('/?consumers=3&speed=50');
  await showAllEvents(page);
  for (const name of ['c1', 'c2', 'c3']) {
    await expect(consumer(page, name)).toBeVisible({ timeout: 20_000 });
  }

  // Generation 1: c1, the first member the coordinator added, leads.
  await expect(groupState(page)).toHaveAttribute('data-state', 'Stable', { timeout: 30_000 });
  await expect(generation(page)).toHaveAttribute('data-generation', '1');
  await expect(groupLeader(page)).toHaveAttribute('data-leader', 'c1');
  await expect(groupLeader(page)).toContainText('c1');
  await expect(leaderNode(page)).toHaveCount(1);
  await expect(leaderNode(page)).toHaveAttribute('data-member', 'c1');
  await expect(leaderPill(page)).toHaveText('leader · gen 1');
  const firstPick = logEntries(page, 'group_leader_chosen').filter({ hasText: phrase('leads generation 1') });
  await expect(firstPick).toHaveCount(1);
  await expect(firstPick).toContainText('c1 (c1-');
  await expect(firstPick).toContainText(/first member added/i);
  await expect(page.locator('[data-member-row][data-in-group="true"]')).toHaveCount(3);
  for (const name of ['c1', 'c2', 'c3']) {
    await expect(consumer(page, name)).toHaveAttribute('data-state', 'stable');
  }
  // Every consumer links to the coordinator the panel names.
  const coordinator = await page.getByTestId('group-coordinator').getAttribute('data-coordinator');
  expect(coordinator).toMatch(/^\d+$/);
  await expect(page.locator(`svg path.group-link[data-link-broker="${coordinator}"]`)).toHaveCount(3);

  // Crash the leader by clicking its node: it dies silently, the coordinator still counts it.
  await consumer(page, 'c1').click();
  await expect(consumer(page, 'c1')).toHaveAttribute('data-state', 'crashed');
  await expect(logEntries(page, 'consumer_crashed', 'consumer c1')).toHaveCount(1);

  // After session.timeout.ms without a heartbeat the coordinator removes it and rebalances;
  // the next leader is the first remaining key of its member map.
  await expect(logEntries(page, 'member_removed', 'removed member c1')).toHaveCount(1, { timeout: 30_000 });
  const secondPick = logEntries(page, 'group_leader_chosen').filter({ hasText: phrase('leads generation 2') });
  await expect(secondPick).toHaveCount(1, { timeout: 30_000 });
  await expect(secondPick).toContainText(/headOption/);
  await expect(generation(page)).toHaveAttribute('data-generation', '2', { timeout: 30_000 });
  await expect(groupState(page)).toHaveAttribute('data-state', 'Stable', { timeout: 30_000 });

  const next = await groupLeader(page).getAttribute('data-leader');
  expect(['c2', 'c3'], 'a surviving member leads').toContain(next);
  await expect(secondPick).toContainText(`${next} (${next}-`);
  await expect(leaderNode(page)).toHaveCount(1);
  await expect(leaderNode(page)).toHaveAttribute('data-member', next as string);
  await expect(leaderPill(page)).toHaveText('leader · gen 2');
  await expect(memberRow(page, next as string)).toContainText('leader · gen 2');
  await expect(memberRow(page, 'c1')).toHaveAttribute('data-in-group', 'false');
  await expect(page.locator('[data-member-row][data-in-group="true"]')).toHaveCount(2);
});

test('consumers are added from the page, leave with shift-click and rejoin with a click', async ({ page }) => {
  await page.goto('/?speed=50');
  await showAllEvents(page);
  await expect(page.getByTestId('group-panel')).toContainText('my-group');
  await expect(page.locator('svg g[data-member]')).toHaveCount(0);

  const add = page.getByTestId('add-consumer');
  await expect(add).toContainText('c1');
  await add.click();
  await expect(consumer(page, 'c1')).toBeVisible();
  await expect(add).toContainText('c2');
  await page.getByTestId('graph-add-consumer').click();
  await expect(consumer(page, 'c2')).toBeVisible();
  await expect(page.locator('[data-member-row][data-in-group="true"]')).toHaveCount(2, { timeout: 30_000 });
  await expect(groupState(page)).toHaveAttribute('data-state', 'Stable', { timeout: 30_000 });

  // Shift-click: LeaveGroup, removed at once (no session timeout).
  await consumer(page, 'c2').click({ modifiers: ['Shift'] });
  await expect(logEntries(page, 'consumer_leaving', 'consumer c2')).toHaveCount(1);
  await expect(consumer(page, 'c2')).toHaveAttribute('data-state', 'left');
  await expect(logEntries(page, 'member_removed', 'removed member c2')).toHaveCount(1, { timeout: 10_000 });
  await expect(memberRow(page, 'c2')).toHaveAttribute('data-in-group', 'false');

  // A click starts it again: it rejoins with a fresh member id.
  await consumer(page, 'c2').click();
  await expect(consumer(page, 'c2')).toHaveAttribute('data-state', 'stable', { timeout: 30_000 });
  await expect(memberRow(page, 'c2')).toHaveAttribute('data-in-group', 'true');
  await expect(logEntries(page, 'member_joined', 'added member c2')).toHaveCount(2);

  // The partition table lists only the __consumer_offsets partition holding the group.
  // (offsets.topic.num.partitions is Kafka's 50: "my-group" hashes to partition 12.)
  await expect(page.locator('tr[data-partition^="__consumer_offsets-"]')).toHaveCount(1);
  await expect(page.locator('tr[data-partition="__consumer_offsets-12"]')).toContainText('group my-group');
  await expect(page.getByTestId('group-coordinator')).toContainText('__consumer_offsets-12');
  await page.getByTestId('show-internal').check();
  await expect(page.locator('tr[data-partition^="__consumer_offsets-"]')).toHaveCount(50);
  await page.getByTestId('show-internal').uncheck();
  await expect(page.locator('tr[data-partition^="__consumer_offsets-"]')).toHaveCount(1);
});

test('the consumers and assignor parameters start the group; a bad value is named', async ({ page }) => {
  await page.goto('/?consumers=2&assignor=roundrobin&speed=50');
  await expect(page.getByTestId('assignor')).toHaveValue('roundrobin');
  await expect(page.locator('[data-member-row][data-in-group="true"]')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('svg g[data-member]')).toHaveCount(2);
  await expect(page.getByTestId('add-consumer')).toContainText('c3');

  await page.goto('/?consumers=7&assignor=sticky&paused=1');
  const alert = page.getByTestId('error');
  await expect(alert).toContainText('consumers must be 0 to 6, not "7"');
  await expect(alert).toContainText('assignor must be range or roundrobin');
  await expect(page.getByTestId('assignor')).toHaveValue('range');
  await expect(page.getByTestId('add-consumer')).toContainText('c1');

  await page.goto('/?consumers=two&paused=1');
  await expect(page.getByTestId('error')).toContainText('consumers must be 0 to 6, not "two"');

  // A story brings its own group.
  await page.goto('/?story=group-first-join&consumers=2&paused=1');
  await expect(page.getByTestId('error')).toContainText('a story brings its own');
});

test('six consumers fit a phone: no horizontal overflow, every consumer in the graph', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/?consumers=6&speed=50');
  await expect(page.locator('[data-member-row][data-in-group="true"]')).toHaveCount(6, { timeout: 30_000 });
  await expect(page.locator('svg g[data-member]')).toHaveCount(6);
  await expect(leaderNode(page)).toHaveCount(1);
  const overflow = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(overflow.scrollWidth, `page width ${overflow.scrollWidth}px in a ${overflow.innerWidth}px window`).toBeLessThanOrEqual(
    overflow.innerWidth,
  );
  for (const name of ['c1', 'c6']) {
    const box = await consumer(page, name).boundingBox();
    expect(box, `consumer ${name} is drawn`).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  }
});

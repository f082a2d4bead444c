// Stories and page addresses: what a teacher links to and a documentation page embeds.
import { test as plain } from '@playwright/test';
import { broker, controller, expect, logEntries, phrase, showAllEvents, test } from './playground';

test('the paused-controller story: the zombie wakes, its epoch-1 requests are rejected, it follows epoch 2', async ({
  page,
}) => {
  // 10x: the zombie window (session expiry at ~24.5 s to the wake-up at 35 s) lasts over a second of real time.
  await page.goto('/?story=paused-controller&speed=10&paused=1');
  await showAllEvents(page);
  await expect(page.getByTestId('story')).toHaveValue('paused-controller');
  await expect(page.getByTestId('story-box')).toContainText('zombie');
  await expect(page.getByTestId('story-next')).toContainText(/pause broker 1 for 30\.000s at t = 5\.010s/);
  // Four brokers, broker 4 joining at 5 s.
  await expect(page.locator('svg g[data-broker]')).toHaveCount(4);
  await page.getByTestId('play').click();

  // While frozen past the session timeout, broker 1 still believes it leads: a zombie.
  await expect(page.locator('svg g[data-zombie="true"][data-broker="1"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(controller(page)).not.toHaveAttribute('data-broker', '1');

  const rejected = logEntries(page, 'stale_request_rejected', 'STALE_CONTROLLER_EPOCH');
  await expect(rejected).toHaveCount(3, { timeout: 30_000 });
  await expect(logEntries(page, 'controller_resigned', 'broker 1').first()).toBeVisible();
  await expect(broker(page, '1')).toHaveAttribute('aria-label', /running/i);
  await expect(page.locator('svg g[data-zombie="true"]')).toHaveCount(0);
  await expect(page.getByTestId('controller-epoch')).toContainText(phrase('epoch 2'));
  await expect(page.getByTestId('story-next')).toContainText('Every scripted step has happened');
});

test('a story can be chosen from the toolbar and left again', async ({ page }) => {
  await page.goto('/?speed=50');
  await showAllEvents(page);
  await page.getByTestId('story').selectOption('clean-shutdown');
  await expect(page.getByTestId('story-box')).toContainText('shuts down cleanly');
  await expect(logEntries(page, 'session_closed', 'broker 1').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('controller-epoch')).toContainText(phrase('epoch 2'));
  await page.getByTestId('story-box').getByRole('button', { name: /free play/i }).click();
  await expect(page.getByTestId('story-box')).toHaveCount(0);
  await expect(page.getByTestId('story')).toHaveValue('');
  await expect(page.locator('svg g[data-broker]')).toHaveCount(3);
});

test('page-address parameters set the cluster; a bad one is named and changes nothing else', async ({ page }) => {
  await page.goto('/?brokers=5&profile=2.4&seed=7&paused=1');
  await expect(page.locator('svg g[data-broker]')).toHaveCount(5);
  await expect(page.getByTestId('profile')).toHaveValue('2.4');
  await expect(page.getByTestId('seed')).toHaveText('7');
  await expect(page.getByTestId('clock')).toHaveText('0.000s');

  await page.goto('/?story=nope&speed=7&brokers=4');
  const alert = page.getByTestId('error');
  await expect(alert).toContainText('story "nope" does not exist');
  await expect(alert).toContainText('speed must be one of');
  await expect(page.locator('svg g[data-broker]')).toHaveCount(4);
  await expect(page.getByTestId('story')).toHaveValue('');
  await alert.getByRole('button').click();
  await expect(alert).toHaveCount(0);

  // A story brings its own cluster: free-play parameters beside it are named, not used.
  await page.goto('/?story=cold-start&brokers=7&paused=1');
  await expect(page.getByTestId('error')).toContainText('a story brings its own');
  await expect(page.locator('svg g[data-broker]')).toHaveCount(3);
});

test('a story file is fetched when the story is first chosen, and once', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    const m = r.url().match(/scenarios\/([\w.-]+)\.json$/);
    if (m) asked.push(m[1]);
  });
  // The default page fetches no story.
  await page.goto('/?speed=50&lang=en');
  await expect(page.locator('svg g[data-broker]')).toHaveCount(3);
  expect(asked).toEqual([]);

  await page.getByTestId('story').selectOption('clean-shutdown');
  await expect(page.getByTestId('story-box')).toContainText('shuts down cleanly');
  await page.getByTestId('story-box').getByRole('button', { name: /free play/i }).click();
  await expect(page.getByTestId('story-box')).toHaveCount(0);
  await page.getByTestId('story').selectOption('clean-shutdown');
  await expect(page.getByTestId('story-box')).toContainText('shuts down cleanly');
  expect(asked).toEqual(['clean-shutdown']);
});

// (Plain tests: the browser logs the failed request as a console error, which is the point.)
plain('a story file the server cannot give: one message, and the page keeps the story it shows', async ({
  page,
}) => {
  await page.goto('/?speed=50&lang=en');
  await page.getByTestId('story').selectOption('clean-shutdown');
  await expect(page.getByTestId('story-box')).toContainText('shuts down cleanly');
  await page.route('**/scenarios/leader-crash.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.getByTestId('story').selectOption('leader-crash');
  const alert = page.getByTestId('error');
  await expect(alert).toContainText('story leader-crash could not be fetched');
  await expect(alert).toContainText('HTTP 404');
  await expect(page.getByTestId('story')).toHaveValue('clean-shutdown');
  await expect(page.getByTestId('story-box')).toContainText('shuts down cleanly');
});

plain('an address whose story file cannot be fetched starts free play and says why', async ({ page }) => {
  await page.route('**/scenarios/controller-crash.json', (route) => route.fulfill({ status: 503, body: 'busy' }));
  await page.goto('/?story=controller-crash&lang=en');
  const alert = page.getByTestId('error');
  await expect(alert).toContainText('story controller-crash could not be fetched');
  await expect(alert).toContainText('HTTP 503');
  await expect(page.locator('svg g[data-broker]')).toHaveCount(3);
  await expect(page.getByTestId('story')).toHaveValue('');
  await expect(page.getByTestId('story-box')).toHaveCount(0);
});

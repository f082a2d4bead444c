// Browser tests of the lessons: the list, a lesson answered right and one answered wrong (each
// graded against the run, with the deciding event marked in the log and the step explained),
// an exercise file opened from disk, leaving and returning to the lesson's run, the progress
// the browser keeps, embed mode, and a lesson in Chinese.
//
// The right answers are not written here: they are read from the lessons' golden reports
// (tests/golden/lessons/*.txt, what `kafka-election lesson` prints), which `cargo test` checks
// against the run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, broker } from './playground';
import type { Page } from '@playwright/test';

const root = fileURLToPath(new URL('../..', import.meta.url));
const index: string[] = JSON.parse(readFileSync(`${root}/www/lessons/index.json`, 'utf8')).lessons;

type Right =
  | { kind: 'node'; broker: number }
  | { kind: 'choice'; option: number }
  | { kind: 'number'; value: number }
  | { kind: 'never' };

/** Each question's right answer, in step order, from the lesson's golden report. */
function rightAnswers(id: string): Right[] {
  const report = readFileSync(`${root}/tests/golden/lessons/${id}.txt`, 'utf8');
  const out: Right[] = [];
  for (const line of report.split('\n')) {
    const a = line.match(/^  answer: (.*)$/);
    if (!a) continue;
    const text = a[1];
    let m: RegExpMatchArray | null;
    if ((m = text.match(/^option (\d+),/))) out.push({ kind: 'choice', option: Number(m[1]) });
    else if ((m = text.match(/^broker (\d+)$/))) out.push({ kind: 'node', broker: Number(m[1]) });
    else if (text.startsWith('never')) out.push({ kind: 'never' });
    else if ((m = text.match(/^(-?[\d.]+)/))) out.push({ kind: 'number', value: Number(m[1]) });
    else throw new Error(`${id}: an answer this test cannot read: ${text}`);
  }
  return out;
}

const card = (page: Page) => page.getByTestId('lesson');
const phase = (page: Page) => card(page).getAttribute('data-phase');

async function waitPhase(page: Page, ...phases: string[]) {
  await expect
    .poll(async () => phases.includes((await phase(page)) ?? ''), { timeout: 30_000 })
    .toBe(true);
}

/** Skips a running step to its time (it may get there by itself first: nothing to skip then). */
async function skip(page: Page) {
  await page
    .getByTestId('lesson-skip')
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await waitPhase(page, 'shown');
}

/** Answers the question asked; `wrong` gives a wrong answer of the same kind. */
async function answer(page: Page, right: Right, wrong = false) {
  const kind = await page.locator('.lesson-question').getAttribute('data-kind');
  if (right.kind === 'node') {
    expect(kind).toBe('node');
    const brokers = await page.getByTestId('lesson-broker').evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute('data-broker'))),
    );
    const pick = wrong ? brokers.find((b) => b !== right.broker)! : right.broker;
    // A learner clicks the broker in the graph.
    await broker(page, pick).click();
  } else if (right.kind === 'choice') {
    expect(kind).toBe('choice');
    const n = await page.getByTestId('lesson-option').count();
    const pick = wrong ? (right.option + 1) % n : right.option;
    await page.getByTestId('lesson-option').nth(pick).check();
    await page.getByTestId('lesson-submit').click();
  } else if (right.kind === 'number') {
    expect(kind).toBe('number');
    await page.getByTestId('lesson-number').fill(String(wrong ? right.value + 1000 : right.value));
    await page.getByTestId('lesson-submit').click();
  } else {
    expect(kind).toBe('number');
    if (wrong) {
      await page.getByTestId('lesson-number').fill('1');
      await page.getByTestId('lesson-submit').click();
    } else {
      await page.getByTestId('lesson-never').click();
    }
  }
}

/**
 * Goes through the lesson open on the page, answering question `i` wrong when `wrong(i)`;
 * checks every grade, its deciding event and the step's text on the way. Returns the grades.
 */
async function playThrough(page: Page, answers: Right[], wrong: (i: number) => boolean = () => false) {
  const grades: boolean[] = [];
  for (let guard = 0; guard < 40; guard++) {
    const p = await phase(page);
    if (p === 'done') break;
    if (p === 'ask') {
      const i = grades.length;
      await answer(page, answers[i], wrong(i));
      await waitPhase(page, 'running', 'shown');
      grades.push(!wrong(i));
      continue;
    }
    if (p === 'running') {
      await skip(page);
      continue;
    }
    if (p === 'shown') {
      await expect(page.getByTestId('lesson-text')).not.toBeEmpty();
      const grade = page.getByTestId('lesson-grade');
      if ((await grade.count()) > 0) {
        const i = grades.length - 1;
        await expect(grade).toHaveAttribute('data-correct', String(grades[i]));
        if (!grades[i]) await expect(page.getByTestId('lesson-expected')).toBeVisible();
        const decider = page.getByTestId('lesson-decider');
        if ((await decider.count()) > 0) {
          // The event that decided the answer is marked in the log.
          const at = await decider.getAttribute('data-index');
          await expect(page.locator(`li.event[data-index="${at}"][data-decider]`)).toHaveCount(1);
        }
      }
      await page.getByTestId('lesson-next').click();
      continue;
    }
    throw new Error(`unexpected phase ${p}`);
  }
  await waitPhase(page, 'done');
  return grades;
}

test('the lesson list shows every committed lesson, in teaching order', async ({ page }) => {
  expect(index.length).toBeGreaterThanOrEqual(12);
  await page.goto('./?view=lessons&lang=en');
  const entries = page.locator('[data-lesson]');
  await expect(entries).toHaveCount(index.length);
  expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-lesson')))).toEqual(index);
  await expect(entries.first().getByTestId('lesson-state')).toHaveText('not started');
  // Every lesson covers its mechanism: the three are all there.
  const titles = (await entries.locator('h3').allTextContents()).join(' ');
  expect(titles).toMatch(/controller/i);
  expect(titles).toMatch(/ISR|replica/);
  expect(titles).toMatch(/group/i);
});

test('a lesson answered right: every grade right, each deciding event marked, the score kept', async ({ page }) => {
  const id = 'isr-leader-election';
  const answers = rightAnswers(id);
  await page.goto('./?view=lessons&lang=en');
  await page.locator(`[data-lesson="${id}"] button`).click();
  await expect(page).toHaveURL(new RegExp(`lesson=${id}`));
  await waitPhase(page, 'ask', 'running');
  const grades = await playThrough(page, answers);
  expect(grades).toEqual(answers.map(() => true));
  await expect(page.getByTestId('lesson-done')).toContainText(`${answers.length} of ${answers.length} right`);
  // The list remembers it, and a reload of the lesson comes back to its end.
  await page.reload();
  await waitPhase(page, 'done');
  await page.getByTestId('lesson-exit').click();
  await expect(page.locator(`[data-lesson="${id}"]`).getByTestId('lesson-state')).toHaveText(
    `done: ${answers.length} of ${answers.length} right`,
  );
  // Resetting the progress forgets it.
  await page.getByTestId('reset-progress').click();
  await page.getByTestId('reset-yes').click();
  await expect(page.locator(`[data-lesson="${id}"]`).getByTestId('lesson-state')).toHaveText('not started');
});

test('a wrong answer is graded wrong, with the run answer, the deciding event and its cause', async ({ page }) => {
  const id = 'first-controller';
  const answers = rightAnswers(id);
  await page.goto(`./?lesson=${id}&lang=en`);
  await waitPhase(page, 'ask');
  // The first question asks which broker becomes controller; the learner clicks another one.
  expect(answers[0].kind).toBe('node');
  await answer(page, answers[0], true);
  await waitPhase(page, 'shown');
  const grade = page.getByTestId('lesson-grade');
  await expect(grade).toHaveAttribute('data-correct', 'false');
  await expect(grade).toContainText('Not this time');
  await expect(page.getByTestId('lesson-expected')).toContainText(`broker ${(answers[0] as { broker: number }).broker}`);
  const decider = page.getByTestId('lesson-decider');
  await expect(decider).toContainText('is the new controller');
  // The Kafka detail is one click away.
  await decider.locator('summary').click();
  await expect(decider.locator('.decider-why')).toContainText('/controller');
  await expect(page.getByTestId('lesson-text')).toContainText('There is no lowest-id rule');
  // Showing the event in the log picks it there.
  await page.getByTestId('lesson-show-event').click();
  await expect(page.locator('li.event[data-decider]')).toHaveCount(1);
  // The rest answered right: one of three.
  await page.getByTestId('lesson-next').click();
  await waitPhase(page, 'ask', 'running');
  await playThrough(page, answers.slice(1));
  await expect(page.getByTestId('lesson-done')).toContainText(`${answers.length - 1} of ${answers.length} right`);
});

test('the clock waits for the answer, and a number question states its tolerance', async ({ page }) => {
  await page.goto('./?lesson=first-controller&lang=en');
  await waitPhase(page, 'ask');
  const clock = page.getByTestId('clock');
  const before = await clock.textContent();
  // Play is held while the question waits, and says why.
  const play = page.getByTestId('play');
  await expect(play).toBeDisabled();
  await expect(play).toHaveAttribute('title', /Answer the question first/);
  await page.waitForTimeout(500);
  expect(await clock.textContent()).toBe(before);
  // Through to the number question, answering right.
  const answers = rightAnswers('first-controller');
  let asked = 0;
  for (let guard = 0; guard < 20; guard++) {
    const p = await phase(page);
    if (p === 'ask' && (await page.locator('.lesson-question[data-kind="number"]').count()) > 0) break;
    if (p === 'ask') {
      await answer(page, answers[asked]);
      asked += 1;
      await waitPhase(page, 'running', 'shown');
    } else if (p === 'running') {
      await skip(page);
    } else if (p === 'shown') {
      await page.getByTestId('lesson-next').click();
      await waitPhase(page, 'ask', 'running');
    }
  }
  await expect(page.getByTestId('lesson-tolerance')).toHaveText('exactly');
  // Not a number: one message, nothing answered.
  await page.getByTestId('lesson-number').fill('two');
  await page.getByTestId('lesson-submit').click();
  await expect(page.locator('.lesson-problem')).toContainText('is not a number');
  expect(await phase(page)).toBe('ask');
});

test('acting on the cluster leaves the lesson run, and the learner can return', async ({ page }) => {
  await page.goto('./?lesson=first-controller&lang=en');
  await waitPhase(page, 'ask');
  await answer(page, rightAnswers('first-controller')[0]);
  await waitPhase(page, 'shown');
  // Crashing a broker from its menu is the learner's own action.
  await page.locator('svg g.broker:has(g.node[data-broker="3"]) g.more').click();
  await page.getByTestId('menu-crash').click();
  await expect(page.getByTestId('lesson-left')).toBeVisible();
  await expect(card(page)).toHaveAttribute('data-phase', 'left');
  await page.getByTestId('lesson-return').click();
  await waitPhase(page, 'shown');
  await expect(broker(page, 3)).not.toHaveAttribute('data-state', 'crashed');
});

test('an exercise file opened from disk is played, and a bad one changes nothing', async ({ page }) => {
  await page.goto('./?view=lessons&lang=en');
  await expect(page.locator('[data-lesson]').first()).toBeVisible();
  await page.getByTestId('lesson-file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"version": 1, "id": "x", "steps": []}'),
  });
  await expect(page.getByTestId('error')).toContainText('The lesson file could not be opened');
  await expect(page.getByTestId('lessons')).toBeVisible();
  await page.getByTestId('lesson-file').setInputFiles(`${root}/docs/examples/lessons/first-lesson.json`);
  await expect(card(page)).toContainText('exercise');
  await expect(page.getByTestId('lesson-title')).toHaveText('A leader crashes: who leads orders-0, and when?');
  // The address carries the exercise: a student who opens it gets the same lesson.
  await expect(page).toHaveURL(/#exercise=/);
  const link = page.url();
  const student = await page.context().newPage();
  await student.goto(link);
  await expect(student.getByTestId('lesson-title')).toHaveText('A leader crashes: who leads orders-0, and when?');
  await expect(student.getByTestId('lesson')).toHaveAttribute('data-phase', 'ask');
  await student.close();
  // The file's answers come from its run; the page shows each grade.
  const grades: boolean[] = [];
  for (let guard = 0; guard < 30; guard++) {
    const p = await phase(page);
    if (p === 'done') break;
    if (p === 'ask') {
      const kind = await page.locator('.lesson-question').getAttribute('data-kind');
      if (kind === 'node') await broker(page, 1).click();
      if (kind === 'choice') {
        await page.getByTestId('lesson-option').first().check();
        await page.getByTestId('lesson-submit').click();
      }
      if (kind === 'number') {
        await page.getByTestId('lesson-number').fill('16');
        await page.getByTestId('lesson-submit').click();
      }
    } else if (p === 'running') {
      await skip(page);
    } else if (p === 'shown') {
      const g = page.getByTestId('lesson-grade');
      if (await g.count()) grades.push((await g.getAttribute('data-correct')) === 'true');
      await page.getByTestId('lesson-next').click();
    }
    await page.waitForTimeout(50);
  }
  await waitPhase(page, 'done');
  // Broker 1 leads first, ZooKeeper still names broker 1 at 15 s, and 16 s is within 2 s of the
  // election's 16.585 s.
  expect(grades).toEqual([true, true, true]);
});

test('a lesson in embed mode', async ({ page }) => {
  await page.goto('./?embed=1&lesson=first-controller&lang=en');
  await waitPhase(page, 'ask');
  await expect(page.getByTestId('lessons-button')).toHaveCount(0);
  await answer(page, rightAnswers('first-controller')[0]);
  await waitPhase(page, 'shown');
  await expect(page.getByTestId('lesson-grade')).toHaveAttribute('data-correct', 'true');
});

test('an unknown lesson is named, and the page stays usable', async ({ page }) => {
  await page.goto('./?lesson=no-such-lesson&lang=en');
  await expect(page.getByTestId('error')).toContainText('There is no lesson “no-such-lesson”');
  await expect(card(page)).toHaveCount(0);
});

test('a lesson in Chinese, and back to English', async ({ page }) => {
  await page.goto('./?view=lessons&lang=zh-CN');
  await expect(page.getByTestId('lessons').locator('h2')).toHaveText('课程');
  await expect(page.locator('[data-lesson]').first().getByTestId('lesson-state')).toHaveText('未开始');
  await page.locator('[data-lesson="first-controller"] button').click();
  await waitPhase(page, 'ask');
  await expect(page.getByTestId('lesson-title')).toHaveText('第一个控制器，以及崩溃之后的竞选');
  await expect(page.locator('.lesson-prompt')).toContainText('哪个 broker 会成为第一个控制器');
  await answer(page, rightAnswers('first-controller')[0], true);
  await waitPhase(page, 'shown');
  await expect(page.getByTestId('lesson-grade')).toContainText('这次没答对');
  await expect(page.getByTestId('lesson-expected')).toContainText('模拟运行给出的答案：broker 1');
  await expect(page.getByTestId('lesson-decider')).toContainText('控制器');
  await expect(page.getByTestId('lesson-text')).toContainText('broker 1');
  // The log speaks Chinese too.
  await expect(page.locator('li.event[data-decider]')).toContainText('控制器');
  // Back to English: the same step, the same grade, in English.
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByTestId('lesson-title')).toHaveText('The first controller and the race after a crash');
  await expect(page.getByTestId('lesson-grade')).toContainText('Not this time');
  await expect(page).toHaveURL(/lang=en/);
});

test('a deciding event the key-events filter hides is listed and marked all the same', async ({ page }) => {
  // group-coordinator's answers are decided by a group becoming stable, a member joining and the
  // election of a __consumer_offsets leader: none of them a key event.
  const id = 'group-coordinator';
  await page.goto(`./?lesson=${id}&lang=en`);
  await waitPhase(page, 'ask', 'running');
  await expect(page.getByTestId('key-only')).toBeChecked();
  const grades = await playThrough(page, rightAnswers(id));
  expect(grades.every((g) => g)).toBe(true);
});

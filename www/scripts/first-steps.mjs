// A learner's first steps on the default page: the one list that the build's two first-view
// passes take. split-module.mjs profiles the module's first part on them (the functions that
// ran), and first-view-styles.mjs picks the stylesheet's first part (the rules that styled an
// element), so that both parts hold what the same steps need.
//
// The steps: the default page at 1440 px playing at 50x, a broker and the controller crashed and
// started again, the clock paused and run again, the help and a log entry's Kafka detail opened, the module's
// second part failing; then, at the page's own speed, the usual sizes of a laptop, a tablet and
// a phone, in English and Chinese, at the bare address and with `lang` (once crashing the
// broker the moment it is up), each with a crash and restart, a pause, the help, and each tab
// of a narrow page pressed.

/** The global the module's loader keeps for its second part, and its event (split-module.mjs). */
export const LATER_GLOBAL = '__kafkaElectionLater';
export const LATER_EVENT = 'kafka-election-later';

/**
 * The visits, as `{ path, locale, viewport, steps }` (`steps(page)` takes them on an opened
 * page): `wide`, the first, and `sizes`, the others. `mounted` is the selector of a mounted
 * playground (bench-browser.mjs's MOUNTED).
 */
export function firstSteps(mounted) {
  const ready = (page) => page.waitForSelector(`${mounted} svg g[data-broker="3"]`, { timeout: 60_000 });
  const broker = (id) => `#app svg g.node[data-broker="${id}"]`;
  /** Crashes broker `id` once it is up, waits `ms`, starts it again, waits `ms` again. */
  const crashAndRestart = async (page, id, ms) => {
    await page.waitForSelector(`${broker(id)}[data-state="running"]`);
    await page.click(broker(id));
    await page.waitForSelector(`${broker(id)}[data-state="crashed"]`);
    await page.waitForTimeout(ms);
    await page.click(broker(id));
    await page.waitForSelector(`${broker(id)}:not([data-state="crashed"])`);
    await page.waitForTimeout(ms);
  };
  /** Pauses the clock and runs it again, by the toolbar's button and by the space bar. */
  const pauseAndPlay = async (page) => {
    const play = '#app [data-testid="play"]';
    for (const press of [() => page.click(play), () => page.keyboard.press(' ')]) {
      // Nothing focused: the space bar is then the page's shortcut, not a button's press.
      await page.evaluate(() => document.activeElement?.blur?.());
      await press();
      await page.waitForTimeout(300);
      const paused = await page.textContent('[data-testid="clock"]');
      await page.waitForTimeout(300);
      if ((await page.textContent('[data-testid="clock"]')) !== paused) {
        throw new Error('the clock did not pause');
      }
      await press();
      await page.waitForFunction((was) => document.querySelector('[data-testid="clock"]')?.textContent !== was, paused);
    }
  };
  /**
   * The help overlay, opened and closed: a component made and dropped (what the page drops as
   * it renders can otherwise fall to one pass and not another).
   */
  const help = async (page) => {
    await page.click('[data-testid="help"]');
    await page.waitForSelector('[data-testid="help-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="help-dialog"]', { state: 'detached' });
  };
  const wide = {
    path: '/?lang=en',
    locale: 'en-US',
    viewport: { width: 1440, height: 900 },
    steps: async (page) => {
      await ready(page);
      await page.waitForTimeout(1500);
      await page.selectOption('[data-testid="speed"]', '50');
      await page.waitForTimeout(2000);
      await crashAndRestart(page, 2, 3000);
      // The controller too (broker 1, the first to start): its /controller znode outlives it
      // until its session expires, and the graph says so ("still in /controller").
      await crashAndRestart(page, 1, 3000);
      await pauseAndPlay(page);
      await help(page);
      // A log entry's Kafka detail, opened and closed.
      const toggle = '#app [data-testid="event-detail-toggle"]';
      await page.click(toggle);
      await page.waitForSelector(`${toggle}[aria-expanded="true"]`);
      await page.click(toggle);
      await page.waitForSelector(`${toggle}[aria-expanded="false"]`);
      // The second part failing to arrive: the parts that wait for it say so.
      await page.evaluate(([flag, event]) => {
        globalThis[flag] = 'failed';
        globalThis.dispatchEvent(new Event(event));
      }, [LATER_GLOBAL, LATER_EVENT]);
      await page.waitForSelector('[data-testid="later-wait"][aria-busy="false"]');
    },
  };
  // What the page draws depends on the window (the log beside the graph or in a tab, a
  // compact graph) and on how it chose its language (the address, a stored choice, the
  // browser's), so the first steps are taken at the common sizes of a laptop, a tablet and a
  // phone, in both languages, at the bare address and with `lang`; once with the crash the
  // moment the broker is up.
  const sizes = [
    ['/', 'en-US', { width: 1280, height: 720 }, 0],
    ['/', 'zh-CN', { width: 1440, height: 900 }, 1500],
    ['/?lang=en', 'en-US', { width: 768, height: 1024 }, 1500],
    ['/?lang=zh-CN', 'zh-CN', { width: 360, height: 740 }, 1500],
    ['/?lang=en', 'en-US', { width: 390, height: 844 }, 1500],
  ].map(([path, locale, viewport, before]) => ({
    path,
    locale,
    viewport,
    steps: async (page) => {
      await ready(page);
      await page.waitForTimeout(before);
      await crashAndRestart(page, 3, 1500);
      // The controller, started again while its old session lives (it stops again).
      await crashAndRestart(page, 1, 1500);
      await pauseAndPlay(page);
      await help(page);
      // A narrow page's tabs, each pressed once: a tab whose panel waits for the second
      // part then says so at once instead of waiting for it.
      const tabs = await page.$$eval('#app [role="tab"]', (ts) =>
        ts.filter((t) => t.offsetParent !== null).map((t) => t.dataset.tab));
      for (const tab of [...tabs, ...tabs.slice(0, 1)]) {
        await page.click(`#app [role="tab"][data-tab="${tab}"]`);
        await page.waitForSelector(`#app [role="tab"][data-tab="${tab}"][aria-selected="true"]`);
      }
    },
  }));
  return { wide, sizes };
}

// Which selectors of the stylesheet style what a learner sees in the first seconds, for the
// stylesheet's split (split-styles.mjs): the build in `dir` is served and opened in headless
// Chromium (Debian's, as the browser tests use), and a learner's first steps are taken: the
// same steps split-module.mjs profiles the module on (first-steps.mjs lists them for both),
// once in the light colour scheme and once in the dark. The parts of the page drawn from the
// module's second part (src/ui/later.rs) wait for it throughout, so that what only they show
// is left to the later sheet.
//
// Every selector is tested without its pseudo-classes and pseudo-elements (`.a:hover::before`
// as `.a`), so that a hovered, focused or checked state counts as the element's, and after
// every change to the page (a MutationObserver), from the static first frame in index.html
// (before the module mounts) on: a selector counts once it matched an element in one of them.
import { join } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstSteps } from './first-steps.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The selectors of `selectors` (stripped of pseudo-classes and pseudo-elements) that matched an
 * element while a learner took their first steps on the build in `dir`, and those the browser
 * could not read: `{ matched, unreadable }`, two Sets.
 */
export async function firstViewSelectors(dir, selectors) {
  process.env.DIST = dir;
  const { MOUNTED, openBench } = await import(join(here, 'bench-browser.mjs'));
  const bench = await openBench();
  const matched = new Set();
  const unreadable = new Set();
  try {
    const visit = async ({ path, viewport, locale, steps }, colorScheme) => {
      const page = await bench.browser.newPage({ viewport, locale, colorScheme });
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      // The module's second part never arrives (if the build has one): the parts that wait
      // for it go on waiting.
      await page.route('**/*_later.wasm', () => {});
      await page.addInitScript((list) => {
        const left = new Set(list);
        const seen = [];
        const broken = [];
        // A selector that a change could make match: one whose element, or an ancestor of it,
        // changed or came in (`near`), or, for a selector with a sibling combinator, one whose
        // parent saw such a change (`wide`). Tested where it could have changed, not across
        // the whole page, so that a page whose log grows stays fast.
        let near = new Set([document]);
        let wide = new Set();
        const outermost = (roots) => [...roots].filter((root) => {
          if (!root.isConnected) return false;
          for (let up = root.parentNode; up; up = up.parentNode) if (roots.has(up)) return false;
          return true;
        });
        const check = () => {
          const nearRoots = outermost(near);
          const wideRoots = outermost(new Set([...wide, ...near]));
          near = new Set();
          wide = new Set();
          for (const selector of left) {
            const roots = /[+~]/.test(selector.replace(/\[[^\]]*\]/g, '')) ? wideRoots : nearRoots;
            try {
              if (!roots.some((root) => root.matches?.(selector) || root.querySelector(selector) !== null)) continue;
              seen.push(selector);
            } catch {
              broken.push(selector);
            }
            left.delete(selector);
          }
        };
        globalThis.__firstViewStyles = () => {
          near.add(document);
          check();
          return { seen, broken };
        };
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === 'attributes') near.add(record.target);
            else for (const node of record.addedNodes) if (node.nodeType === 1) near.add(node);
            wide.add(record.type === 'attributes' ? (record.target.parentNode ?? record.target) : record.target);
          }
          check();
        }).observe(document, { subtree: true, childList: true, attributes: true });
        document.addEventListener('DOMContentLoaded', () => {
          near.add(document);
          check();
        });
      }, [...selectors]);
      await page.goto(`${bench.base}${path}`);
      await steps(page);
      const { seen, broken } = await page.evaluate(() => globalThis.__firstViewStyles());
      if (problems.length) throw new Error(`${path} reported errors: ${problems.join('; ')}`);
      for (const s of seen) matched.add(s);
      for (const s of broken) unreadable.add(s);
      await page.close();
    };
    const { wide, sizes } = firstSteps(MOUNTED);
    for (const colorScheme of ['light', 'dark']) {
      for (const steps of [wide, ...sizes]) await visit(steps, colorScheme);
    }
  } finally {
    await bench.close();
  }
  return { matched, unreadable };
}

/**
 * The longhand properties each declaration block of `bodies` sets, as Chromium reads them
 * (a shorthand set as its longhands, an alias as its property): for each block, a list of
 * `[name, important]`.
 */
export async function longhands(bodies) {
  const { chromium } = await import(join(here, '..', 'node_modules', 'playwright-core', 'index.mjs'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    return await page.evaluate((list) => list.map((body) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`x{${body}}`);
      const style = sheet.cssRules[0].style;
      const out = [];
      for (let i = 0; i < style.length; i++) out.push([style[i], style.getPropertyPriority(style[i]) === 'important']);
      return out;
    }), bodies);
  } finally {
    await browser.close();
  }
}

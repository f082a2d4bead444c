// Browser tests of the playground: Playwright drives Debian's Chromium (never a downloaded browser)
// against the release bundle in dist/, served on 127.0.0.1 by tests/serve-dist.mjs.
// Build first (`trunk build --release`); www/scripts/test.sh does both.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.PLAYWRIGHT_PORT ?? 8093);
const baseURL = `http://127.0.0.1:${port}/`;
const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  workers: 1,
  reporter: 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    testIdAttribute: 'data-testid',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'node tests/serve-dist.mjs',
      url: baseURL,
      env: { PORT: String(port) },
      reuseExistingServer: false,
      timeout: 15_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // The same build under a subpath, as a documentation site hosts it (tests/subpath.spec.ts).
    {
      command: 'node tests/serve-dist.mjs',
      url: `http://127.0.0.1:${port + 1}/playground/`,
      env: { PORT: String(port + 1), BASE: '/playground/' },
      reuseExistingServer: false,
      timeout: 15_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});

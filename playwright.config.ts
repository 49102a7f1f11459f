import { defineConfig } from '@playwright/test';

// Playwright drives Debian's Chromium: this machine cannot download Playwright's own browser.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.E2E_PORT ?? 4317);

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  // The course walks (every lesson answered, played and checked by axe: half the suite's time)
  // assert nothing about wall-clock time, so CI runs them two at once (.ci/test.sh); every other
  // spec runs alone, because several assert that the page answers input within a frame budget.
  projects: [
    { name: 'course-walks', testMatch: /course\d+\.spec\.ts$/, fullyParallel: true },
    { name: 'player', testIgnore: /course\d+\.spec\.ts$/ },
  ],
  // Stored pictures for the visual comparisons live beside the specs, one name each.
  snapshotPathTemplate: '{testDir}/snapshots/{arg}{ext}',
  expect: { toHaveScreenshot: { maxDiffPixelRatio: 0.01 } },
  use: {
    baseURL: `http://127.0.0.1:${port}/lockstep/`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  // Served from a sub-path on purpose: the built site must not assume it lives at '/'.
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1 --base /lockstep/`,
    url: `http://127.0.0.1:${port}/lockstep/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});

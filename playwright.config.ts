import { defineConfig } from '@playwright/test';

// Playwright drives Debian's Chromium: this machine cannot download Playwright's own browser.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.E2E_PORT ?? 4317);
const walks = /course\d+\.spec\.ts$/;
const timed = /(breakIt|hostileLinks|workbenchHostile)\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  // The points past which a test is taken to hang, not how fast a page must be (the `timing`
  // specs bound that themselves). At load 18-20 on 2 cores, five tests that take 10-20 s at rest
  // passed 30 s, and two first looks (an axis drawn, a drag's note) passed an expect's 5 s; at
  // rest and beside two CPU hogs every test passed well within these.
  timeout: 90_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  // `player` asserts no time and runs two at once in CI (.ci/test.sh). Apart from it are the
  // specs whose point is wall-clock time: the page takes a key within FROZEN_MS while hostile
  // scripts run (hostileLinks, workbenchHostile) and Stop ends a worker search within a bound
  // (breakIt). Those run alone, in `timing`, after the rest, so no
  // other test's browser shares their cores. A new spec that asserts a time belongs in `timed`.
  // The course walks (every lesson answered, played and checked by axe) are their own project
  // only so that CI reports them apart.
  projects: [
    { name: 'course-walks', testMatch: walks, fullyParallel: true },
    { name: 'player', testIgnore: [walks, timed] },
    { name: 'timing', testMatch: timed, workers: 1 },
  ],
  // Stored pictures for the visual comparisons live beside the specs, one name each.
  snapshotPathTemplate: '{testDir}/snapshots/{arg}{ext}',
  expect: { timeout: 10_000, toHaveScreenshot: { maxDiffPixelRatio: 0.01 } },
  use: {
    // Two seconds after loading, the site registers its service worker, which downloads the whole
    // site (149 files, about 5 MB) for offline use: in a fresh context, that is every test lasting
    // longer than that, course walks included, each paying for a download it never uses. Only the
    // specs about the service worker allow it (lessonChunks.spec.ts).
    serviceWorkers: 'block',
    baseURL: `http://127.0.0.1:${port}/lockstep/`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
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

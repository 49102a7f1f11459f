import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { players } from './support/player';

/**
 * Issue 16, "Fast on a phone": a lesson's first player shows the run the build computed for it
 * (src/ui/build/firstRuns.ts) instead of waiting for the simulation worker, its Lua VM and a
 * first run on cold code. The simulator is deterministic, so that copy must be the very run the
 * worker computes; every later run is the worker's.
 */

/** The trace hash `npm run sim` computes in Node for a scenario as written. */
function nodeHash(target: string): string {
  const out = execFileSync('npx', ['tsx', 'src/cli/sim.ts', target, '--json'], { encoding: 'utf8' });
  return (JSON.parse(out) as { traceHash: string }).traceHash;
}

const firstPlayer = (page: Page) => players(page).first();

test("lesson 1's first player shows the shipped run, the one Node and the worker compute", async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('./#/lesson/ground-rules');
  const player = firstPlayer(page);
  const hash = player.getByTestId('trace-hash');
  await expect(hash).toHaveText(/^[0-9a-f]{16}$/, { timeout: 15_000 });
  const shipped = await hash.textContent();
  expect(shipped).toBe(nodeHash('lessons/01-ground-rules.md#calm-afternoon'));
  expect(
    requests.some((url) => /\/first-run-ground-rules-[\w-]+\.js$/.test(url)),
    "the lesson's first run was fetched",
  ).toBe(true);

  // Inside the world is the worker's (it replays the run it is asked about): it shows the shipped run's world.
  await player.scrollIntoViewIfNeeded();
  await player.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(player.getByRole('group', { name: 'Redis keyspace' })).toBeVisible({ timeout: 15_000 });

  // A learner's change is computed by the worker; undoing it has the worker compute the run as
  // written, which must be the shipped one.
  await player.getByRole('button', { name: 'Crash Barista A' }).click();
  await expect(hash).not.toHaveText(shipped!, { timeout: 15_000 });
  await player.getByRole('button', { name: 'Undo my changes' }).click();
  await expect(hash).toHaveText(shipped!, { timeout: 15_000 });
});

test('the first player shows its shipped run even when the worker cannot start; the others say so', async ({
  page,
}) => {
  // The worker's script never arrives: only a run shipped with the lesson can be shown.
  await page.route(/simulationWorker-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('./#/lesson/ground-rules');
  const player = firstPlayer(page);
  await expect(player.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/, { timeout: 15_000 });
  await expect(player.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled();
  await player.scrollIntoViewIfNeeded();
  await expect(player.locator('.timeline-svg-host svg > *').first()).toBeAttached();
  // The second player's run is not shipped: it waits on the worker, which failed.
  const second = players(page).nth(1);
  await second.scrollIntoViewIfNeeded();
  await expect(second.getByTestId('trace-hash')).toHaveCount(0);
});

test('the fifty-client herd ships packed, and the page unpacks the very run the worker computes', async ({ page }) => {
  // What the dashboard shows of a run: every tile, read from the run's fifteen thousand events.
  const tiles = async () => {
    const dashboard = page.getByRole('region', { name: /^Dashboard: / }).first();
    await dashboard.scrollIntoViewIfNeeded();
    await expect(dashboard.getByRole('term').first()).toBeVisible({ timeout: 20_000 });
    return dashboard.locator('.dashboard-tiles').innerText();
  };
  const hash = firstPlayer(page).getByTestId('trace-hash');

  // Shipped: the worker cannot start, so only the lesson's packed first run can be on screen.
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.route(/simulationWorker-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('./#/lesson/misconceptions-herd');
  await expect(hash).toHaveText(nodeHash('lessons/scenarios/herd-fixed.yaml'), { timeout: 20_000 });
  expect(requests.some((url) => /\/first-run-misconceptions-herd-[\w-]+\.js$/.test(url))).toBe(true);
  const shipped = await tiles();
  expect(shipped).toMatch(/attempts/i);

  // Computed: the packed run never arrives, so the worker computes the run as written.
  await page.unrouteAll();
  await page.route(/first-run-misconceptions-herd-[\w-]+\.js$/, (route) => route.abort());
  await page.reload();
  await expect(hash).toHaveText(nodeHash('lessons/scenarios/herd-fixed.yaml'), { timeout: 20_000 });
  expect(await tiles()).toBe(shipped);
});

test('while its code loads, a player keeps a screen of room: the page does not jump when it arrives, and only the player in sight is built first', async ({
  page,
}) => {
  // The player's code is held back until the placeholders have been looked at.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/ScenarioPlayerLive-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('./#/lesson/replication-lost-lock');
  const placeholder = players(page).first();
  await expect(placeholder).toHaveAttribute('aria-busy', 'true');
  await expect(placeholder).toContainText('Loading the simulator');
  await placeholder.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  const viewportHeight = page.viewportSize()!.height;
  expect((await placeholder.boundingBox())!.height).toBeGreaterThanOrEqual(viewportHeight);

  // Layout shifts from here on: the player replacing its placeholder must not push what is in view.
  await page.evaluate(() => {
    const w = window as unknown as { shifted: number };
    w.shifted = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!entry.hadRecentInput) w.shifted += entry.value;
    }).observe({ type: 'layout-shift' });
  });
  // The first player's arrival is watched from the frame it is drawn in: the second player, below
  // it and out of sight, must still be waiting its turn then (a placeholder, or not on the page
  // yet: the blocks after the first player follow it, see useBlocksShown).
  const secondBuiltWhenFirstDrawn = page.waitForFunction(
    () => {
      const [first, second] = document.querySelectorAll('section.player');
      if (!first?.querySelector('.timeline-svg-host svg')?.childElementCount) return null;
      return { built: second !== undefined && !second.classList.contains('player-placeholder') };
    },
    undefined,
    { polling: 'raf', timeout: 20_000 },
  );
  release();
  expect(
    (await (await secondBuiltWhenFirstDrawn).jsonValue())!.built,
    'the player out of sight was built before the one in view was drawn',
  ).toBe(false);
  const first = players(page).first();
  await expect(first.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/);
  // The rest of the lesson follows, its players included.
  await expect(players(page)).toHaveCount(6);
  expect(await page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBeLessThan(0.05);
});

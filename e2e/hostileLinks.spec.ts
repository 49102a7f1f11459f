import { expect, test, type Page } from '@playwright/test';
import { parse } from 'yaml';
import type { Scenario } from '../src/scenario/schema';
import { encodeRun } from '../src/ui/player/shareLink';

/**
 * Issue 18: nothing a learner opens may freeze the page. Two hostile share links, built with
 * the site's own encoder: a console command whose Lua pattern backtracks for most of a minute,
 * and a sandbox client that retries a runaway script every millisecond. While each opens, no
 * main-thread task may pass 200 ms (a PerformanceObserver for `longtask` in the page); the
 * player must say the run was stopped and why, and the page must go on working.
 */

const SLOW_PATTERN = ['EVAL', "return string.find(string.rep('a',700), '.-.-.-b')", '0'];

const RUNAWAY_YAML = `id: runaway-retry
title: Runaway retry
horizon: 3s
clients:
  - id: A
    label: Barista A
    retry: { policy: fixed, delay: 1ms }
    steps:
      - { redis: [EVAL, 'while true do end', '0'], as: acquire }
      - { write: espresso }
resource: { id: espresso, label: Espresso machine }
`;

/** Records every long task from the first script on. */
async function watchLongTasks(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { longTasksMs: number[] };
    w.longTasksMs = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasksMs.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
}

async function longestTaskMs(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...(window as unknown as { longTasksMs: number[] }).longTasksMs));
}

test('a shared run whose console runs a backtracking Lua pattern is stopped, and the page stays responsive', async ({ page }) => {
  const run = encodeRun({ scenarioId: 'paused-barista', config: { seed: 7, fencing: false, actions: [{ at: 1000, do: 'command', target: 'r1', argv: SLOW_PATTERN }] } });
  await watchLongTasks(page);
  await page.goto(`./#/lesson/paused-barista?run=${run}`);
  const sim = page.getByRole('region', { name: /Simulation: The paused barista/ });
  const stopped = sim.getByRole('alert').filter({ hasText: 'This run was stopped' });
  await expect(stopped).toContainText(/it used more than \d+ s of computing\. The scenario or a script in it runs away/, { timeout: 20_000 });

  // While the watchdog waited, the page answered: a quiz on it can be answered at once.
  const quiz = page.getByRole('group', { name: /releases the lock with the script/i });
  await quiz.getByRole('radio').first().check();
  await expect(quiz.getByRole('radio').first()).toBeChecked();

  // The learner's way out: the scenario as written runs, on a fresh worker.
  await stopped.getByRole('button', { name: 'Run the scenario as written' }).click();
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 15_000 });
  await expect(sim.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/);
  await expect(stopped).toHaveCount(0);

  // The same hostile command typed again later is stopped again, and the good run stays shown.
  const hash = await sim.getByTestId('trace-hash').textContent();
  await sim.getByRole('textbox', { name: /command/i }).fill(SLOW_PATTERN.map((w) => (w.includes(' ') ? `"${w}"` : w)).join(' '));
  await sim.getByRole('textbox', { name: /command/i }).press('Enter');
  await expect(stopped).toBeVisible({ timeout: 20_000 });
  await expect(sim.getByTestId('trace-hash')).toHaveText(hash!);
  await expect(sim.getByRole('button', { name: 'Step', exact: true })).toBeEnabled();
  await stopped.getByRole('button', { name: 'Dismiss' }).click();
  await expect(stopped).toHaveCount(0);
  await expect(sim.getByTestId('trace-hash')).toHaveText(hash!);

  expect(await longestTaskMs(page)).toBeLessThan(200);
});

test('a sandbox link whose client retries a runaway script every millisecond ends with the budget verdict, without freezing the page', async ({ page }) => {
  // The scenario goes into the link as written (the page validates it on the way in), as a
  // hand-made hostile link would carry it.
  const written = parse(RUNAWAY_YAML) as Scenario;
  const run = encodeRun({ scenarioId: written.id, config: { seed: 1, fencing: false, actions: [] }, scenario: written });
  await watchLongTasks(page);
  await page.goto(`./#/sandbox?run=${run}`);
  const sim = page.getByRole('region', { name: /Simulation: Runaway retry/ });
  // The run's own whole-run budget stops it (the verdict Node gives), well before the watchdog
  // would; playing shows the verdict when the playhead reaches it.
  await sim.getByRole('button', { name: 'Play' }).click({ timeout: 20_000 });
  const verdict = sim.getByRole('listitem').filter({ hasText: 'Broken: run completes' });
  await expect(verdict).toContainText(/At 13 ms: This run was stopped: its Lua scripts ran more than 60 million instructions in all/);
  // The rest of the page still answers: the sandbox form takes a new title at once.
  await page.getByRole('textbox', { name: 'Title' }).fill('Calmer');
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Calmer');
  expect(await longestTaskMs(page)).toBeLessThan(200);
});

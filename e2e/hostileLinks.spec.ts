import { expect, test, type Page } from '@playwright/test';
import { parseScenario } from '../src/scenario/parse';
import { encodeRun } from '../src/ui/player/shareLink';
import { simTime } from '../src/sim/time';

/**
 * Issue 18: nothing a learner opens may freeze the page. Two hostile share links, built with
 * the site's own encoder: a console command whose Lua pattern backtracked for most of a minute
 * (the script's budget now counts pattern matching, so it is cut like any runaway script), and a
 * sandbox scenario whose clients each start a runaway script (the whole run's script budget
 * stops it, at the same event as in Node). While each opens, no main-thread task may pass 200 ms
 * (a PerformanceObserver for `longtask` in the page), and the page must go on working. The
 * wall-clock watchdog behind both is tested in src/ui/worker/jobQueue.test.ts.
 */

const SLOW_PATTERN = ['EVAL', "return string.find(string.rep('a',700), '.-.-.-b')", '0'];

// Five clients, each sending one script that never ends: each is cut at its own budget (and
// answered with an error, which stops its client), and the third cut ends the run.
const RUNAWAY_YAML = `id: runaway-scripts
title: Runaway scripts
horizon: 3s
clients:
${['A', 'B', 'C', 'D', 'E'].map((id, i) => `  - { id: ${id}, label: Barista ${id}, startAt: ${i}ms, steps: [{ redis: [EVAL, 'while true do end', '0'], as: acquire }, { write: espresso }] }`).join('\n')}
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

test('a shared run whose console runs a backtracking Lua pattern has the script cut, and the page stays responsive', async ({ page }) => {
  const run = encodeRun({ scenarioId: 'paused-barista', config: { seed: 7, fencing: false, actions: [{ at: simTime(1000), do: 'command', target: 'r1', argv: SLOW_PATTERN }] } });
  await watchLongTasks(page);
  await page.goto(`./#/lesson/paused-barista?run=${run}`);
  const sim = page.getByRole('region', { name: /Simulation: The paused barista/ });
  // The run arrives whole: the learner's command was answered with the script budget's error.
  await expect(sim.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/, { timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('2');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(sim.getByRole('list', { name: 'Console' }).getByText(/Script killed/)).toHaveCount(1);

  // The page answered all along: a quiz on it can be answered at once.
  const quiz = page.getByRole('group', { name: /releases the lock with the script/i });
  await quiz.getByRole('radio').first().check();
  await expect(quiz.getByRole('radio').first()).toBeChecked();

  // The same hostile command typed again later is cut again, and the player keeps working.
  await sim.getByRole('textbox', { name: /command/i }).fill(SLOW_PATTERN.map((w) => (w.includes(' ') ? `"${w}"` : w)).join(' '));
  await sim.getByRole('textbox', { name: /command/i }).press('Enter');
  await expect(sim.getByRole('list', { name: 'Console' }).getByText(/Script killed/)).toHaveCount(2, { timeout: 20_000 });
  await expect(sim.getByRole('button', { name: 'Step', exact: true })).toBeEnabled();

  expect(await longestTaskMs(page)).toBeLessThan(200);
});

test('a sandbox link whose clients start runaway scripts ends with the budget verdict, without freezing the page', async ({ page }) => {
  const parsed = parseScenario(RUNAWAY_YAML, { file: 'runaway.yaml', line: 1 });
  if (!parsed.ok) throw new Error('the hostile scenario no longer parses');
  const run = encodeRun({ scenarioId: parsed.scenario.id, config: { seed: 1, fencing: false, actions: [] }, scenario: parsed.scenario });
  await watchLongTasks(page);
  await page.goto(`./#/sandbox?run=${run}`);
  const sim = page.getByRole('region', { name: /Simulation: Runaway scripts/ });
  // The run's own whole-run budget stops it (the verdict Node gives); playing shows the verdict
  // when the playhead reaches it.
  await sim.getByRole('button', { name: 'Play' }).click({ timeout: 20_000 });
  const verdict = sim.getByRole('listitem').filter({ hasText: 'Broken: run completes' });
  await expect(verdict).toContainText(/At 4 ms: This run was stopped: its Lua scripts ran more than 60 million instructions in all/);
  // The rest of the page still answers: the sandbox form takes a new title at once.
  await page.getByRole('textbox', { name: 'Title' }).fill('Calmer');
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Calmer');
  expect(await longestTaskMs(page)).toBeLessThan(200);
});

import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { player, writes } from './support/player';

/** What `npm run sim` computes in Node for the same scenario and seed. */
function nodeRun(extra: string[] = []): { traceHash: string } {
  const out = execFileSync(
    'npx',
    ['tsx', 'src/cli/sim.ts', 'lessons/05-paused-barista.md#paused-barista', '--seed', '7', '--json', ...extra],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as { traceHash: string };
}

async function openLesson(page: Page) {
  await page.goto('./');
  await page
    .getByRole('link', { name: /paused barista/i })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /paused barista/i })).toBeVisible();
}

const barista = (page: Page) => player(page, /The paused barista/);

test('the course page lists the paused barista and the lesson opens', async ({ page }) => {
  await openLesson(page);
  await expect(page.getByText('A freezes.', { exact: false })).toBeVisible();
});

test('the quiz hides its answer until the learner commits, then explains the choice', async ({ page }) => {
  await openLesson(page);
  const quiz = page.getByRole('group', { name: /releases the lock with the script/i });
  await expect(quiz).toBeVisible();
  // Nothing of the reveal is on the page yet.
  await expect(page.getByText(/A decides who may start|A lease\s+decides who may start/)).toHaveCount(0);
  await quiz.getByRole('radio', { name: /Yes: A cannot delete/ }).check();
  await page
    .getByRole('button', { name: /check my answer|submit|commit/i })
    .first()
    .click();
  // The wrong choice gets its own explanation, and the right answer is shown.
  await expect(page.getByText(/deleting the key was never the dangerous part/)).toBeVisible();
  await expect(page.getByText(/No: A can still do its work after its lease has run out/).first()).toBeVisible();
});

test('unfenced, both writes land and the verdict points at them; fenced, the stale write is rejected', async ({
  page,
}) => {
  await openLesson(page);
  const sim = barista(page);
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 15_000 });

  // Run to the end by stepping: every step is one visible thing happening.
  for (let i = 0; i < 200 && (await sim.getByRole('button', { name: 'Step', exact: true }).isEnabled()); i++) {
    await sim.getByRole('button', { name: 'Step', exact: true }).click();
  }
  await expect(sim.getByText(/Broken: single writer/)).toBeVisible();
  await expect(
    sim.getByText(
      'Barista B took the lock at 11.004 s while Barista A still believed it held it; Barista A wrote at 17.008 s and Barista B at 13.006 s, and both writes were accepted.',
    ),
  ).toBeVisible();
  await expect(sim.getByRole('button', { name: 'Show Barista B taking the lock at 11.004 s' }).first()).toBeVisible();
  await expect(sim.getByRole('button', { name: /Show Barista B's write at 13/ })).toBeVisible();
  await expect(sim.getByRole('button', { name: /Show Barista A's write at 17/ })).toBeVisible();
  const log = writes(sim);
  await expect(log).toHaveCount(2);
  await expect(log.nth(1)).toContainText(/Barista A/);

  await sim.getByRole('checkbox', { name: 'Fencing tokens' }).check();
  // Playback stops at the first broken invariant by default; let it run to the end.
  await sim.getByRole('checkbox', { name: 'Stop at first violation' }).uncheck();
  await sim.getByRole('button', { name: 'Play' }).click();
  await expect(sim.getByRole('button', { name: 'Replay' })).toBeVisible({ timeout: 20_000 });
  await expect(sim.getByText(/Held: single writer/)).toBeVisible();
  // One write rejected (its mark is hidden from screen readers; its line says so), Barista A's.
  const rejected = writes(sim).filter({ hasText: /rejected/i });
  await expect(rejected).toHaveCount(1);
  await expect(rejected).toContainText(/Barista A/);

  // Step back and forward move through the same run (the live region says which event is current).
  const current = page.getByTestId('live-events');
  await sim.getByRole('button', { name: 'Step back' }).click();
  const before = await current.textContent();
  await sim.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(current).toContainText(/run ended/i);
  expect(before).not.toMatch(/run ended/i);
  await sim.getByRole('button', { name: 'Step back' }).click();
  await expect(current).toHaveText(before!);
});

test('the browser computes the same trace hash as Node for the same seed', async ({ page }) => {
  await openLesson(page);
  const hash = barista(page).getByTestId('trace-hash');
  await expect(hash).toHaveText(/^[0-9a-f]{16}$/, { timeout: 15_000 });
  expect(await hash.textContent()).toBe(nodeRun().traceHash);
  await barista(page).getByRole('checkbox', { name: 'Fencing tokens' }).check();
  await expect(hash).toHaveText(nodeRun(['--fencing', 'on']).traceHash);
});

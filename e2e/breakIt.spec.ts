import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { player } from './support/player';
import { editor, openWorkbench, setText } from './support/workbench';

/**
 * Break it, as a learner uses it in the workbench: write the un-tokened DEL recipe, let the
 * explorer find and shrink a run in which two baristas write, load it into the player, share it
 * and download it as a lesson (both reproduce the break); then fix the release with a token
 * check and see the explorer report what it searched, without a violation. Also: Stop, and the
 * page answering the keyboard while workers search.
 */

// A writes at once, then tidies up for 2 s and releases with a DEL that checks nothing. As
// written A releases before its 3 s lease runs out, and B and C take turns after it.
const UNTOKENED = `id: untokened-del
title: Un-tokened DEL
seed: 1
redis: { nodes: [{ id: r1, persistence: aof-always }] }
clients:
  - id: A
    label: Barista A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - { write: espresso }
      - { wait: 2s }
      - { redis: [DEL, lock] }
  - id: B
    label: Barista B
    startAt: 1s
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 100000] }
      - { wait: 3s }
      - { write: espresso }
      - { redis: [DEL, lock] }
  - id: C
    label: Barista C
    startAt: 1500ms
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 100000] }
      - { wait: 1s }
      - { write: espresso }
      - { redis: [DEL, lock] }
resource: { id: espresso, label: Espresso machine }
expect:
  - { invariant: single-writer, outcome: holds }
`;

// The fix: release only your own lock (compare the value, then delete, in one script).
const RELEASE = `{ redis: [EVAL, "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, lock, '{value}'], as: release }`;
const TOKENED = UNTOKENED.replaceAll('{ redis: [DEL, lock] }', RELEASE).replace(
  'title: Un-tokened DEL',
  'title: Token-checked DEL',
);

function breakIt(page: Page) {
  return page.getByRole('region', { name: 'Break it' });
}

async function expectBroken(page: Page, title: string) {
  const sim = player(page, title);
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('999');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(sim.getByText('Broken: single writer')).toBeVisible();
}

test('Break it finds two baristas writing under an un-tokened DEL, and finds nothing once the release checks its token', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await openWorkbench(page);
  await setText(page, UNTOKENED);
  await expect(page.getByText('No problems: ready to run.')).toBeVisible();

  // As written the baristas take turns: the explorer has to find the run that breaks it.
  const panel = breakIt(page);
  await expect(panel.getByLabel('Break', { exact: true })).toHaveValue('single-writer');
  await panel.getByRole('button', { name: 'Break it' }).click();
  await expect(
    panel.getByText(/^Found in \d+ runs: 1 fault breaks single writer at [\d.]+ s \(seed 1\)\.$/),
  ).toBeVisible({ timeout: 30_000 });
  // The fewest faults: Redis's clock jumps, A's lease expires early, A's DEL removes B's lock, and C walks in.
  await expect(panel.getByRole('list', { name: 'Fewest faults' }).getByRole('listitem')).toHaveText([
    "At 2 s, jump r1's clock by 1 s.",
  ]);
  await expect(
    panel.getByText(
      /Barista B took the lock at [\d.]+ m?s while Barista C still believed it held it; Barista C wrote at [\d.]+ s and Barista B at [\d.]+ s, and both writes were accepted\./,
    ),
  ).toBeVisible();

  // Loaded into the player as the learner's own actions: the run shows the break.
  await panel.getByRole('button', { name: 'Load into the player' }).click();
  await expectBroken(page, 'Un-tokened DEL');
  await expect(
    player(page, 'Un-tokened DEL').getByRole('button', { name: "Redis r1's clock jumped forward 1 s." }),
  ).toBeVisible();

  // The share link carries the run: a fresh browser shows the same break.
  await page.getByRole('button', { name: 'Copy a share link' }).click();
  const url = await page.getByLabel('Share link (copied)').inputValue();
  const other = await browser.newPage();
  await other.goto(url);
  await expect(editor(other)).toContainText('do: clock-jump', { timeout: 20_000 });
  await expectBroken(other, 'Un-tokened DEL');
  await other.close();

  // The downloaded lesson reproduces it under lessons:check (its expect says single-writer breaks).
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as a lesson' }).click(),
  ]);
  const lesson = readFileSync((await download.path())!, 'utf8');
  expect(lesson).toContain('do: clock-jump');
  expect(lesson).toMatch(/invariant: single-writer, outcome: violated/);
  const dir = mkdtempSync(join(tmpdir(), 'break-it-'));
  copyFileSync('lessons/courses.yaml', join(dir, 'courses.yaml'));
  writeFileSync(join(dir, download.suggestedFilename()), lesson);
  const check = execFileSync('npx', ['tsx', 'src/cli/lessonsCheck.ts', join(dir, download.suggestedFilename())], {
    encoding: 'utf8',
  });
  expect(check).toMatch(/1 lesson, 1 scenario run, no problems/);

  // The fix: the release checks its token. The explorer says what it searched, and never "safe".
  await setText(page, TOKENED);
  await expect(page.getByText('No problems: ready to run.')).toBeVisible();
  await panel.getByRole('button', { name: 'Break it' }).click();
  const verdict = panel.getByText(/^No run broke single writer in 2,000 runs\./);
  await expect(verdict).toBeVisible({ timeout: 60_000 });
  await expect(verdict).toHaveText(
    "No run broke single writer in 2,000 runs. Searched: pauses, crashes, restarts, partitions, clock jumps, lost messages, up to 3 faults a run; the scenario's seed and 999 others. A search can miss a bug: a bigger budget or another invariant may still find one.",
  );
  await expect(panel).not.toContainText(/\bsafe\b/i);
});

test('Stop ends a search at once, and the page answers the keyboard while the workers search', async ({ page }) => {
  await openWorkbench(page);
  await setText(page, TOKENED);
  await expect(page.getByText('No problems: ready to run.')).toBeVisible();
  const panel = breakIt(page);
  await panel.getByLabel('Budget (runs)').fill('100000');
  await panel.getByRole('button', { name: 'Break it' }).click();
  const progress = panel.getByRole('progressbar', { name: 'Runs searched' });
  await expect(progress).toBeVisible();
  await expect(panel.getByText(/[1-9][\d,]* \/ 100,000 runs · [\d,]+ runs\/s/)).toBeVisible({ timeout: 20_000 });

  // Typing lands while the search runs (it runs in workers): every key shows in the editor, and
  // the search is still going when they have.
  await editor(page).click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('# still typing');
  await expect(editor(page)).toContainText('# still typing');
  expect(await progress.isVisible()).toBe(true);

  // At once: the budget's 100,000 runs would take minutes; the bound has room for a busy machine.
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByText(/^Stopped after [\d,]+ runs; nothing was found before that\.$/)).toBeVisible({
    timeout: 10_000,
  });
  await expect(progress).toBeHidden();
  // A new search starts fresh workers and runs again.
  await panel.getByLabel('Budget (runs)').fill('50');
  await panel.getByRole('button', { name: 'Break it' }).click();
  await expect(panel.getByText(/^No run broke single writer in 50 runs\./)).toBeVisible({ timeout: 30_000 });
});

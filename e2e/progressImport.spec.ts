import { expect, test, type Page } from '@playwright/test';

/**
 * Importing a progress file as a learner does it: nothing is replaced without asking, the
 * question says what would change, and the progress it replaced can be had back in one click.
 */

const KEY = 'lockstep.progress';
const mine = { completed: { 'ground-rules': '2026-01-05T10:00:00.000Z' }, quizzes: {}, notes: {}, checks: {} };
const theirs = { completed: { 'espresso-machine': '2026-02-01T09:00:00.000Z' }, quizzes: {}, notes: {}, checks: {} };
const progressFile = (state: unknown, version = 1) => ({
  name: 'progress.json',
  mimeType: 'application/json',
  buffer: Buffer.from(JSON.stringify({ app: 'lockstep', kind: 'progress', version, state })),
});

const saved = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.state?.completed, KEY);

test.beforeEach(async ({ page }) => {
  await page.addInitScript(
    ([key, state]) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem(key as string, JSON.stringify({ state, version: 1 }));
        sessionStorage.setItem('seeded', '1');
      }
    },
    [KEY, mine] as const,
  );
  await page.goto('./');
});

test('asks before replacing, says what changes, and can undo', async ({ page }) => {
  await page.getByLabel('Progress file to import').setInputFiles(progressFile(theirs));
  const dialog = page.getByRole('alertdialog', { name: 'Replace your progress with “progress.json”?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Your progress now: 1 lesson done');
  await expect(dialog).toContainText('Lessons you finished here that the file does not list as done: Ground rules.');
  // Nothing has changed while the learner decides.
  expect(await saved(page)).toEqual(mine.completed);

  await dialog.getByRole('button', { name: 'Replace my progress' }).click();
  await expect(dialog).toBeHidden();
  expect(await saved(page)).toEqual(theirs.completed);

  await page.getByRole('button', { name: 'Undo the import' }).click();
  expect(await saved(page)).toEqual(mine.completed);
  await expect(page.getByRole('status').filter({ hasText: 'was undone' })).toBeVisible();
});

test('cancel leaves everything as it was', async ({ page }) => {
  await page.getByLabel('Progress file to import').setInputFiles(progressFile(theirs));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  expect(await saved(page)).toEqual(mine.completed);
});

test('names both versions for a file from a newer Lockstep, and bad entries by name', async ({ page }) => {
  await page.getByLabel('Progress file to import').setInputFiles(progressFile(theirs, 3));
  await expect(page.getByRole('alert')).toContainText(
    'this file was made by a newer Lockstep (version 3); this one reads version 1',
  );
  await page
    .getByLabel('Progress file to import')
    .setInputFiles(progressFile({ ...theirs, completed: { 'ground-rules': 'not a date' } }));
  await expect(page.getByRole('alert')).toContainText('completed["ground-rules"]: "not a date" is not a date');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  expect(await saved(page)).toEqual(mine.completed);
});

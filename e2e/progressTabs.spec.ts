import { expect, test, type Page } from '@playwright/test';

/**
 * A learner with the course open in two tabs: what one tab saves, the other shows, without a
 * reload, so that the other tab's next save cannot undo it.
 */

/** The lesson's "Done" beside its length, under its title. */
const lessonDone = (page: Page) => page.getByRole('article').getByText('Done', { exact: true });
const markDone = (page: Page) => page.getByRole('button', { name: 'Mark this lesson as done' }).click();

test('a lesson marked done in one tab shows as done in the other', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto('./#/lesson/ground-rules');
  await second.goto('./#/lesson/ground-rules');
  await expect(second.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(lessonDone(second)).toHaveCount(0);

  await markDone(first);
  await expect(lessonDone(second)).toHaveText('Done');

  // The second tab's own save keeps the first tab's: both lessons stay done in both tabs.
  await second.goto('./#/lesson/espresso-machine');
  await markDone(second);
  await first.goto('./#/lesson/espresso-machine');
  await expect(lessonDone(first)).toHaveText('Done');
  await first.goto('./#/lesson/ground-rules');
  await expect(lessonDone(first)).toHaveText('Done');
});

test('what another tab saves while this one is still opening is shown too', async ({ context }) => {
  const first = await context.newPage();
  await first.goto('./#/lesson/ground-rules');
  await expect(first.getByRole('button', { name: 'Mark this lesson as done' })).toBeVisible();
  const second = await context.newPage();
  // The other tab saves while this one is loading, before it has had an idle moment to listen.
  await second.goto('./#/lesson/ground-rules', { waitUntil: 'commit' });
  await markDone(first);
  await expect(lessonDone(second)).toHaveText('Done');
});

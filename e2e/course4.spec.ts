import { expect, test } from '@playwright/test';
import { courseLessons, runToEnd, walkLesson } from './support/courseWalk';

/**
 * Every lesson of course 4 (the lock review clinic), walked as a learner. As in the other course
 * walks, the lessons are whatever `lessons/NN-*.md` says `course: review-clinic`, and the first
 * test proves the course map offers exactly those, in order. Then a learner does what the clinic
 * is for: asks the explorer to break the un-tokened DEL recipe, watches the run it found, and
 * sees the fixed recipe survive the same search. Each lesson is then walked whole: quizzes
 * gated, every recipe and fix showing the verdicts its `expect` promises, and an axe scan.
 */
const COURSE = { id: 'review-clinic', title: 'Lock review clinic' };

const lessons = courseLessons(COURSE.id);

test('the course map offers exactly the lessons walked here, in order, each linking to its page', async ({ page }) => {
  expect(lessons.length).toBeGreaterThanOrEqual(8);
  await page.goto('./');
  const links = page.getByRole('region', { name: COURSE.title, exact: true }).getByRole('listitem').getByRole('link');
  await expect(links).toHaveText(lessons.map((l) => l.frontmatter.title));
  for (const [i, lesson] of lessons.entries()) await expect(links.nth(i)).toHaveAttribute('href', `#/lesson/${lesson.frontmatter.slug}`);
});

test("a learner breaks the plain DEL with the explorer, and the token-checked release survives the same search", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./#/lesson/clinic-plain-del');
  const buggy = page.getByRole('region', { name: 'Simulation: Under review: release with a plain DEL', exact: true });
  await runToEnd(buggy);
  await expect(buggy.getByText('Held: released by owner', { exact: true })).toBeVisible();
  await buggy.getByText('Find the bug for me').click();
  await buggy.getByLabel('Break').selectOption('released-by-owner');
  await buggy.getByRole('button', { name: 'Search' }).click();
  await expect(buggy.getByText(/^Found in \d+ runs: .* breaks? released by owner/)).toBeVisible({ timeout: 60_000 });
  await runToEnd(buggy);
  await expect(buggy.getByText('Broken: released by owner', { exact: true })).toBeVisible();

  const fixed = page.getByRole('region', { name: 'Simulation: Fixed: release only your own lock', exact: true });
  await runToEnd(fixed);
  await fixed.getByText('Find the bug for me').click();
  await fixed.getByLabel('Break').selectOption('released-by-owner');
  await fixed.getByRole('button', { name: 'Search' }).click();
  await expect(fixed.getByText(/^No run broke released by owner in \d+ tries/)).toBeVisible({ timeout: 120_000 });
});

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({ page }) => {
    test.setTimeout(180_000);
    await walkLesson(page, lesson);
  });
}

import { expect, test } from '@playwright/test';
import { courseLessons, runToEnd, walkLesson } from './support/courseWalk';

/**
 * Every lesson of course 3 (lock patterns), walked as a learner. The lessons are not a fixed
 * list: whatever `lessons/NN-*.md` says `course: lock-patterns` is walked, and the first test
 * proves that this is exactly what the course map offers, in the map's order, so a lesson added
 * to the course (or dropped from the map) cannot slip past. In each lesson every quiz keeps its
 * explanations hidden until the learner commits and answers a wrong pick with the explanation
 * written for it; every live scenario and dashboard, run to its end in the browser, shows the
 * verdicts its `expect` promises; the page, answered and run, passes an axe-core scan (the
 * fifty-lane herds included).
 */
const COURSE = { id: 'lock-patterns', title: 'Lock patterns' };

const lessons = courseLessons(COURSE.id);

test('the course map offers exactly the lessons walked here, in order, each linking to its page', async ({ page }) => {
  expect(lessons.length).toBeGreaterThanOrEqual(6);
  await page.goto('./');
  const links = page.getByRole('region', { name: COURSE.title, exact: true }).getByRole('listitem').getByRole('link');
  await expect(links).toHaveText(lessons.map((l) => l.frontmatter.title));
  for (const [i, lesson] of lessons.entries()) await expect(links.nth(i)).toHaveAttribute('href', `#/lesson/${lesson.frontmatter.slug}`);
});

test('a learner turns fencing off in the consensus lease and the paused rebalancer overwrites the shard map', async ({ page }) => {
  await page.goto('./#/lesson/consensus-lease');
  const sim = page.getByRole('region', { name: 'Simulation: A paused rebalancer and the revision as fencing token', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Held: single writer', { exact: true })).toBeVisible();
  await sim.getByLabel('Fencing tokens').uncheck();
  await runToEnd(sim);
  await expect(sim.getByText('Broken: single writer', { exact: true })).toBeVisible();
});

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({ page }) => {
    test.setTimeout(180_000);
    await walkLesson(page, lesson);
  });
}

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
  for (const [i, lesson] of lessons.entries())
    await expect(links.nth(i)).toHaveAttribute('href', `#/lesson/${lesson.frontmatter.slug}`);
});

test('a learner turns fencing off in the consensus lease and the paused rebalancer overwrites the shard map', async ({
  page,
}) => {
  await page.goto('./#/lesson/consensus-lease');
  const sim = page.getByRole('region', {
    name: 'Simulation: A paused rebalancer and the revision as fencing token',
    exact: true,
  });
  await runToEnd(sim);
  await expect(sim.getByText('Held: single writer', { exact: true })).toBeVisible();
  await sim.getByLabel('Fencing tokens').uncheck();
  await runToEnd(sim);
  await expect(sim.getByText('Broken: single writer', { exact: true })).toBeVisible();
});

test("lesson 37's try-this: the scripted restart moved from 9 s to 5 s by keyboard, and B's next trial takes the lock at about 6 s", async ({
  page,
}) => {
  await page.goto('./#/lesson/circuit-breaker');
  const sim = page.getByRole('region', { name: 'Simulation: The same outage, with circuit breakers', exact: true });
  await runToEnd(sim);
  const restart = sim.getByRole('button', { name: /^restart r1, scripted, at 9 s/ });
  await restart.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
  await expect(sim.getByTestId('story-note')).toHaveText('restart r1 moved to 5 s');
  await expect(sim.getByRole('button', { name: /^restart r1, scripted, at 5 s/ })).toBeFocused();
  await sim.getByLabel('Go to time (s)').fill('6.1');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  // Redis is back up, and B's trial after one cool-down got the lock just after 6 s.
  await expect(sim.getByRole('heading', { name: /^Inside the world at 6\.1 s$/ })).toBeVisible();
  await expect(sim.getByRole('group', { name: 'Redis r1 keyspace' }).getByRole('heading')).toContainText('· running');
  await expect(sim.getByRole('listitem').filter({ hasText: /^Barista B .*believes it holds/ })).toHaveText(
    /believes it holds “lock” since 6\.0\d\d s\.$/,
  );
});

test("lesson 34's try-this: the manager's start moved to 0.1 s from its lane menu, and readers-or-one-writer holds; undo brings the race back", async ({
  page,
}) => {
  await page.goto('./#/lesson/read-write-lock');
  const sim = page.getByRole('region', { name: 'Simulation: Look, then take, in two round trips', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Broken: readers or one writer', { exact: true })).toBeVisible();
  await sim.getByRole('button', { name: 'Actions for Manager (writes)' }).click();
  const timing = sim.getByRole('form', { name: 'Timing of Manager (writes)' });
  await expect(timing.getByLabel('Starts at (s)')).toHaveValue('0.005');
  await timing.getByLabel('Starts at (s)').fill('-1');
  await timing.getByRole('button', { name: 'Change timing' }).click();
  await expect(timing.getByRole('alert')).toHaveText('Starts at cannot be negative');
  await timing.getByLabel('Starts at (s)').fill('0.1');
  await timing.getByRole('button', { name: 'Change timing' }).click();
  await expect(sim.getByTestId('story-note')).toHaveText("W's start moved to 100 ms");
  await expect(sim.getByText('Held: readers or one writer', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(sim.getByRole('button', { name: 'Actions for Manager (writes)' })).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(sim.getByText('Broken: readers or one writer', { exact: true })).toBeVisible({ timeout: 15_000 });
});

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await walkLesson(page, lesson);
  });
}

import { axeViolations } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { courseLessons, walkLesson } from './support/courseWalk';

/**
 * Every lesson of course 1, walked as a learner: the course map lists them all in order, every
 * quiz keeps its answer hidden until they commit and explains a wrong pick, every live scenario,
 * run to its end in the browser, shows the outcome its `expect` promises (the key failure broken,
 * the key protection held), every dashboard draws its metrics from the run, and the page, answered
 * and played, passes an axe-core scan.
 */
const lessons = courseLessons('redis-locks');

test('the course map lists every lesson of course 1, in order, each linking to its page', async ({ page }) => {
  await page.goto('./');
  const byOrder = [...lessons].sort((a, b) => a.frontmatter.order - b.frontmatter.order);
  expect(byOrder.map((l) => l.frontmatter.order)).toEqual(byOrder.map((_, i) => i + 1));
  const links = page.getByRole('region', { name: 'Distributed locks with Redis' }).getByRole('listitem').getByRole('link');
  await expect(links).toHaveText(byOrder.map((l) => l.frontmatter.title));
  for (const [i, lesson] of byOrder.entries()) await expect(links.nth(i)).toHaveAttribute('href', `#/lesson/${lesson.frontmatter.slug}`);
});

test('an old lesson address still opens the lesson it became', async ({ page }) => {
  const renamed = lessons.find((l) => l.frontmatter.formerSlugs.length > 0);
  expect(renamed, 'a course 1 lesson lists a former slug').toBeDefined();
  await page.goto(`./#/lesson/${renamed!.frontmatter.formerSlugs[0]}`);
  await expect(page.getByRole('heading', { level: 1, name: renamed!.frontmatter.title })).toBeVisible();
});

test('a lesson with a dashboard has no axe violations once its charts are drawn', async ({ page }) => {
  test.setTimeout(90_000);
  const lesson = lessons.find((l) => l.blocks.some((b) => b.kind === 'scenario' && b.view === 'dashboard'));
  expect(lesson, 'a course 1 lesson has a dashboard').toBeDefined();
  await page.goto(`./#/lesson/${lesson!.frontmatter.slug}`);
  await expect(page.locator('.dashboard-charts[data-render-ms]').first()).toBeAttached({ timeout: 30_000 });
  expect(await axeViolations(page, { include: '.dashboard-block' })).toEqual([]);
});

/** A dashboard shows its metric tiles and draws one chart per metric group from its run. */
async function checkDashboard(page: Page, title: string) {
  const dashboard = page.getByRole('region', { name: `Dashboard: ${title}`, exact: true });
  for (const metric of ['Attempts', 'Success rate', 'Contention', 'Acquire latency', 'Renewal failures', 'Lost leases', 'Fencing rejections']) {
    await expect(dashboard.locator('dt', { hasText: metric })).toBeVisible();
  }
  await expect(dashboard.getByRole('img', { name: /^Lock attempts over time: \d+ attempts/ })).toBeVisible({ timeout: 20_000 });
  await expect(dashboard.getByRole('img', { name: /^When the lock lied:/ })).toBeVisible();
}

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({ page }) => {
    test.setTimeout(120_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await walkLesson(page, lesson);
    for (const block of lesson.blocks) if (block.kind === 'scenario' && block.view === 'dashboard') await checkDashboard(page, block.scenario.title);
    expect(pageErrors, 'uncaught errors on the page').toEqual([]);
  });
}

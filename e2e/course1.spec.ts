import { axeViolations } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { courseLessons, runToEnd, walkLesson } from './support/courseWalk';

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
  const links = page
    .getByRole('region', { name: 'Distributed locks with Redis' })
    .getByRole('listitem')
    .getByRole('link');
  await expect(links).toHaveText(byOrder.map((l) => l.frontmatter.title));
  for (const [i, lesson] of byOrder.entries())
    await expect(links.nth(i)).toHaveAttribute('href', `#/lesson/${lesson.frontmatter.slug}`);
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
  for (const metric of [
    'Attempts',
    'Success rate',
    'Contention',
    'Acquire latency',
    'Renewal failures',
    'Lost leases',
    'Fencing rejections',
  ]) {
    await expect(dashboard.getByRole('term').filter({ hasText: metric })).toBeVisible();
  }
  await expect(dashboard.getByRole('img', { name: /^Lock attempts over time: \d+ attempts/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(dashboard.getByRole('img', { name: /^When the lock lied:/ })).toBeVisible();
}

test("lesson 4's try-this: the crash deleted, then undone and moved to 1 s, each time the lock stops being immortal", async ({
  page,
}) => {
  await page.goto('./#/lesson/simplest-lock');
  const sim = page.getByRole('region', { name: 'Simulation: A crash between SETNX and PEXPIRE', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Broken: progress', { exact: true })).toBeVisible();
  const crash = sim.getByRole('button', { name: /^crash A, scripted, at 200 ms/ });
  await crash.focus();
  await page.keyboard.press('Delete');
  await expect(sim.getByText('Held: progress', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(sim.getByText(/^Broken: /)).toHaveCount(0);
  // A writes its order at 2.5 s and releases; B gets the key at 3 s, as the prose says.
  await sim.getByLabel('Go to time (s)').fill('3.1');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(sim.getByRole('listitem').filter({ hasText: /^Barista B .*believes it holds/ })).toHaveText(
    /believes it holds “lock:order:42” since 3\.0\d\d s\.$/,
  );

  await page.keyboard.press('Control+z');
  await expect(crash).toBeVisible();
  await crash.focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  await expect(sim.getByRole('button', { name: /^crash A, scripted, at 1 s/ })).toBeFocused();
  await runToEnd(sim);
  await expect(sim.getByText('Held: progress', { exact: true })).toBeVisible({ timeout: 15_000 });
});

test("lesson 8's try-this: the scripted pause a second earlier, and A stops without writing", async ({ page }) => {
  await page.goto('./#/lesson/renewals-watchdog');
  const sim = page.getByRole('region', { name: 'Simulation: The watchdog freezes with its barista', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Broken: single writer', { exact: true })).toBeVisible();
  await sim.getByRole('button', { name: /^pause A, scripted, at 3\.55 s for 8 s/ }).focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(sim.getByRole('button', { name: /^pause A, scripted, at 2\.6 s for 8 s/ })).toBeFocused();
  await expect(sim.getByText('Held: single writer', { exact: true })).toBeVisible({ timeout: 15_000 });
  await runToEnd(sim);
  await expect(sim.getByText(/accepted Barista B's write/).first()).toBeVisible();
  await expect(sim.getByText(/accepted Barista A's write/)).toHaveCount(0);
});

test("lesson 8's try-this: the heal moved to 4 s, the retry is lost too and A gives up without writing while B takes the lock", async ({
  page,
}) => {
  await page.goto('./#/lesson/renewals-watchdog');
  const sim = page.getByRole('region', {
    name: 'Simulation: A renewal goes unanswered: retry, then prove',
    exact: true,
  });
  await runToEnd(sim);
  await expect(sim.getByText('Held: single holder', { exact: true })).toBeVisible();
  await sim.getByRole('button', { name: /^heal, scripted, at 3 s/ }).focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(sim.getByRole('button', { name: /^heal, scripted, at 4 s/ })).toBeFocused();
  await expect(sim.getByText('Broken: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(sim.getByText('Held: single writer', { exact: true })).toBeVisible();
  await sim.getByLabel('Go to time (s)').fill('4.2');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(sim.getByRole('listitem').filter({ hasText: /^Barista A .*believes it holds/ })).toHaveText(
    /^Barista A lost believes it holds nothing\.$/,
  );
  await expect(sim.getByRole('listitem').filter({ hasText: /^Barista B .*believes it holds/ })).toHaveText(
    /“lock” since 4\.03 s\.$/,
  );
  await runToEnd(sim);
  await expect(sim.getByText(/accepted Barista B's write/).first()).toBeVisible();
  await expect(sim.getByText(/accepted Barista A's write/)).toHaveCount(0);
});

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await walkLesson(page, lesson);
    for (const block of lesson.blocks)
      if (block.kind === 'scenario' && block.view === 'dashboard') await checkDashboard(page, block.scenario.title);
    expect(pageErrors, 'uncaught errors on the page').toEqual([]);
  });
}

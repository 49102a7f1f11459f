import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { parseLesson } from '../src/lessons/parse';
import type { Lesson } from '../src/lessons/types';

/**
 * Every lesson of course 1, walked as a learner: the course map lists them all in order, the
 * quiz keeps its answer hidden until they commit, every live scenario, run to its end in the
 * browser, shows the outcome its `expect` promises (the key failure broken, the key protection
 * held), and every dashboard draws its metrics from the run.
 */
const lessons: Lesson[] = readdirSync('lessons')
  .filter((f) => /^\d\d-.+\.md$/.test(f))
  .sort()
  .map((f) => {
    const file = join('lessons', f);
    const parsed = parseLesson(readFileSync(file, 'utf8'), file, { readRef: (rel) => readFileSync(join('lessons', rel), 'utf8') });
    if (!parsed.lesson) throw new Error(`${file} does not parse`);
    return parsed.lesson;
  })
  .filter((l) => l.frontmatter.course === 'redis-locks');

/** The first words of a text as the page renders it (Markdown marks dropped). */
function opening(text: string, words = 7): RegExp {
  const plain = text.replace(/[*_`>]/g, '').split(/\s+/).filter(Boolean).slice(0, words);
  return new RegExp(plain.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
}

async function checkQuizGate(page: Page, lesson: Lesson) {
  const quizBlock = lesson.blocks.find((b) => b.kind === 'quiz');
  if (!quizBlock || quizBlock.kind !== 'quiz') return;
  const quiz = page.getByRole('region', { name: 'Quiz' }).first();
  const spec = quizBlock.spec;
  const explanations = spec.kind === 'true-false' ? spec.statements.map((s) => s.explanation) : spec.options.map((o) => o.explanation);
  for (const explanation of explanations) await expect(quiz.getByText(opening(explanation))).toHaveCount(0);

  if (spec.kind === 'single') {
    // A wrong pick gets the explanation written for that pick.
    const wrong = spec.options.find((o) => !o.correct)!;
    await quiz.getByRole('radio', { name: opening(wrong.text, 4) }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByRole('heading', { name: 'Not quite.' })).toBeVisible();
    await expect(quiz.getByText(opening(wrong.explanation)).first()).toBeVisible();
  } else {
    await quiz.getByRole('button', { name: /I've thought about it/ }).click();
    await expect(quiz.getByRole('heading', { name: 'Here is the answer.' })).toBeVisible();
    await expect(quiz.getByText(opening(explanations[0]!)).first()).toBeVisible();
  }
}

async function runToEnd(sim: Locator) {
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeVisible({ timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('100000');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
}

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
  const results = await new AxeBuilder({ page }).include('.dashboard-block').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
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
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: quiz gate, and every scenario shows what it claims`, async ({ page }) => {
    test.setTimeout(90_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`./#/lesson/${lesson.frontmatter.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: lesson.frontmatter.title })).toBeVisible();
    await checkQuizGate(page, lesson);

    const scenarios = lesson.blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario] : []));
    expect(scenarios.length).toBeGreaterThan(0);
    const seen = new Map<string, number>();
    for (const scenario of scenarios) {
      const nth = seen.get(scenario.title) ?? 0;
      seen.set(scenario.title, nth + 1);
      const sim = page.getByRole('region', { name: `Simulation: ${scenario.title}`, exact: true }).nth(nth);
      await runToEnd(sim);
      for (const e of scenario.expect) {
        const label = e.invariant.replace(/-/g, ' ');
        const text = e.outcome === 'violated' ? `Broken: ${label}` : `Held: ${label}`;
        await expect(sim.getByText(text, { exact: true }), `${scenario.id}: ${text}`).toBeVisible();
      }
    }
    for (const block of lesson.blocks) if (block.kind === 'scenario' && block.view === 'dashboard') await checkDashboard(page, block.scenario.title);
    expect(pageErrors, 'uncaught errors on the page').toEqual([]);
  });
}

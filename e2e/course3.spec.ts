import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { MatchSpec } from '../src/lessons/blocks/match';
import type { QuizSpec } from '../src/lessons/blocks/quiz';
import { parseLesson } from '../src/lessons/parse';
import type { Lesson } from '../src/lessons/types';

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

const lessons: Lesson[] = readdirSync('lessons')
  .filter((f) => /^\d\d-.+\.md$/.test(f))
  .map((f) => {
    const file = join('lessons', f);
    const parsed = parseLesson(readFileSync(file, 'utf8'), file, { readRef: (rel) => readFileSync(join('lessons', rel), 'utf8') });
    if (!parsed.lesson) throw new Error(`${file} does not parse`);
    return parsed.lesson;
  })
  .filter((l) => l.frontmatter.course === COURSE.id)
  .sort((a, b) => a.frontmatter.order - b.frontmatter.order);

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

/**
 * The first words of a text as the page renders it. Markdown marks are dropped from the ends of
 * each word only, so an underscore inside code (`expires_at`) stays.
 */
function opening(text: string, words = 7): RegExp {
  const plain = text.split(/\s+/).map((w) => w.replace(/^[*_`>]+|[*_`]+(?=[^\w]*$)/g, '')).filter(Boolean).slice(0, words);
  return new RegExp(plain.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
}

/** Answers one quiz wrongly and checks that the explanation for that wrong answer comes back. */
async function checkQuiz(quiz: Locator, spec: QuizSpec) {
  const explanations = spec.kind === 'true-false' ? spec.statements.map((s) => s.explanation) : spec.options.map((o) => o.explanation);
  // Nothing is revealed before the learner commits.
  for (const explanation of explanations) await expect(quiz.getByText(opening(explanation))).toHaveCount(0);

  if (spec.kind === 'true-false') {
    const first = spec.statements[0]!;
    const group = quiz.getByRole('group', { name: opening(first.text, 5) });
    await group.getByRole('radio', { name: first.answer ? 'False' : 'True' }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByRole('heading', { name: 'Not quite.' })).toBeVisible();
    await expect(quiz.getByText(opening(first.explanation)).first()).toBeVisible();
    return;
  }
  const wrong = spec.options.find((o) => !o.correct)!;
  await quiz.getByRole(spec.kind === 'single' ? 'radio' : 'checkbox', { name: opening(wrong.text, 4) }).check();
  await quiz.getByRole('button', { name: 'Check my answer' }).click();
  await expect(quiz.getByRole('heading', { name: 'Not quite.' })).toBeVisible();
  await expect(quiz.getByText(opening(wrong.explanation)).first()).toBeVisible();
}

/** Picks the first tool for every problem and checks the count and a correction. */
async function checkMatch(page: Page, spec: MatchSpec) {
  const block = page.getByRole('region', { name: 'Match' }).first();
  const first = spec.tools[0]!;
  for (const p of spec.problems) await block.getByLabel(opening(p.text, 5)).selectOption(first.id);
  await block.getByRole('button', { name: 'Check my matches' }).click();
  const right = spec.problems.filter((p) => p.answer.includes(first.id)).length;
  await expect(block.getByRole('status')).toHaveText(`${right} of ${spec.problems.length} matched well.`);
  const missed = spec.problems.find((p) => !p.answer.includes(first.id));
  if (missed) await expect(block.getByText(opening(missed.explanation)).first()).toBeVisible();
}

async function runToEnd(sim: Locator) {
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeVisible({ timeout: 30_000 });
  await sim.getByLabel('Go to time (s)').fill('100000');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
}

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`./#/lesson/${lesson.frontmatter.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: lesson.frontmatter.title })).toBeVisible();

    const quizzes = lesson.blocks.flatMap((b) => (b.kind === 'quiz' ? [b.spec] : []));
    expect(quizzes.length).toBeGreaterThan(0);
    for (const [i, spec] of quizzes.entries()) await checkQuiz(page.getByRole('region', { name: 'Quiz' }).nth(i), spec);
    for (const b of lesson.blocks) if (b.kind === 'match') await checkMatch(page, b.spec);
    expect(lesson.blocks.some((b) => b.kind === 'reflect')).toBe(true);

    const scenarios = lesson.blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario] : []));
    expect(scenarios.length).toBeGreaterThan(0);
    const seen = new Map<string, number>();
    for (const scenario of scenarios) {
      const nth = seen.get(scenario.title) ?? 0;
      seen.set(scenario.title, nth + 1);
      const sim = page.getByRole('region', { name: `Simulation: ${scenario.title}`, exact: true }).nth(nth);
      await runToEnd(sim);
      for (const e of scenario.expect) {
        if (e.invariant === 'all') continue;
        const label = e.invariant.replace(/-/g, ' ');
        const text = e.outcome === 'violated' ? `Broken: ${label}` : `Held: ${label}`;
        await expect(sim.getByText(text, { exact: true }), `${scenario.id}: ${text}`).toBeVisible();
      }
      // `all` promises that nothing the lesson did not name is broken, once the run has finished.
      await expect(sim.getByText(/^Held: /).first()).toBeVisible();
      const named = new Set(scenario.expect.filter((e) => e.outcome === 'violated').map((e) => `Broken: ${e.invariant.replace(/-/g, ' ')}`));
      const broken = await sim.getByText(/^Broken: /).allTextContents();
      if (scenario.expect.some((e) => e.invariant === 'all')) expect(broken.filter((t) => !named.has(t)), `${scenario.id}: unannounced breaks`).toEqual([]);
    }

    const scan = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

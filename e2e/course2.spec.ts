import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { MatchSpec } from '../src/lessons/blocks/match';
import type { QuizSpec } from '../src/lessons/blocks/quiz';
import { parseLesson } from '../src/lessons/parse';
import type { Lesson } from '../src/lessons/types';

/**
 * Every lesson of course 2 (Redlock and the debate), walked as a learner: each quiz keeps its
 * explanations hidden until the learner commits, and a wrong pick is answered with the
 * explanation written for it; the match block grades each job; every live scenario, run to its
 * end in the browser, shows the verdicts its `expect` promises. The page, answered and run, passes
 * an axe-core scan (five-master timelines and the match block included).
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
  .filter((l) => l.frontmatter.course === 'redlock');

test('course 2 has its six lessons', () => {
  expect(lessons.map((l) => l.frontmatter.order)).toEqual([1, 2, 3, 4, 5, 6]);
});

test('one Redlock acquisition can be stepped through message by message', async ({ page }) => {
  await page.goto('./#/lesson/redlock-step-by-step');
  const sim = page.getByRole('region', { name: 'Simulation: One Redlock acquisition, message by message', exact: true });
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  const said = page.getByTestId('live-events').first();
  const heard: string[] = [];
  for (let i = 0; i < 40 && !heard.some((t) => t.includes('believes it holds')); i++) {
    await sim.getByRole('button', { name: 'Step', exact: true }).click();
    const text = (await said.textContent()) ?? '';
    if (text !== heard[heard.length - 1]) heard.push(text);
  }
  const at = (pattern: RegExp) => heard.findIndex((t) => pattern.test(t));
  const oks = ['r1', 'r2', 'r3', 'r5'].map((r) => at(new RegExp(`Redis ${r} ran SET lock .* replied OK`)));
  const timeout = at(/gave up waiting for an answer to “SET lock .*” from Redis r4/);
  const acquired = at(/believes it holds “lock” for 9\.848 s/);
  expect(heard.join('\n'), 'every master answers, r4 times out, then A decides').toMatch(/believes it holds/);
  for (const ok of oks) expect(ok).toBeGreaterThanOrEqual(0);
  expect(Math.max(...oks)).toBeLessThan(timeout);
  expect(timeout).toBeLessThan(acquired);
});

test('a learner slows the link from A to the machine and breaks the Redlock run', async ({ page }) => {
  await page.goto('./#/lesson/redlock-pauses-and-delays');
  const sim = page.getByRole('region', { name: 'Simulation: Find the delay that breaks it', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Held: single writer', { exact: true })).toBeVisible();
  await sim.getByLabel('Go to time (s)').fill('0.5');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await sim.getByLabel('Slow the link from', { exact: true }).selectOption('A');
  await sim.getByLabel('Slow the link to').selectOption('espresso');
  await sim.getByLabel('Delay (s)').fill('12');
  await sim.getByRole('button', { name: 'Delay Barista A → Espresso machine by 12 s' }).click();
  await runToEnd(sim);
  await expect(sim.getByText('Broken: single writer', { exact: true })).toBeVisible();
});

/** The first words of a text as the page renders it (Markdown marks dropped). */
function opening(text: string, words = 7): RegExp {
  const plain = text.replace(/[*_`>]/g, '').split(/\s+/).filter(Boolean).slice(0, words);
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
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeVisible({ timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('100000');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
}

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({ page }) => {
    test.setTimeout(120_000);
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
        const label = e.invariant.replace(/-/g, ' ');
        const text = e.outcome === 'violated' ? `Broken: ${label}` : `Held: ${label}`;
        await expect(sim.getByText(text, { exact: true }), `${scenario.id}: ${text}`).toBeVisible();
      }
    }

    const scan = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

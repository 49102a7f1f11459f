import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { axeViolations } from './axe';
import { expect, type Locator, type Page } from '@playwright/test';
import type { MatchSpec } from '../../src/lessons/blocks/match';
import type { QuizSpec } from '../../src/lessons/blocks/quiz';
import { parseLesson } from '../../src/lessons/parse';
import type { Lesson } from '../../src/lessons/types';
import type { Scenario } from '../../src/scenario/schema/schema';

/**
 * What the course walks share: a course's lessons read from their files, and a learner's moves
 * (answer a quiz wrongly, match problems to tools, run a scenario to its end, read its verdicts).
 */

/** A course's lessons, parsed from `lessons/NN-*.md`, in the course's order. */
export function courseLessons(course: string): Lesson[] {
  return readdirSync('lessons')
    .filter((f) => /^\d\d-.+\.md$/.test(f))
    .sort()
    .map((f) => {
      const file = join('lessons', f);
      const parsed = parseLesson(readFileSync(file, 'utf8'), file, {
        readRef: (rel) => readFileSync(join('lessons', rel), 'utf8'),
      });
      if (!parsed.lesson) throw new Error(`${file} does not parse`);
      return parsed.lesson;
    })
    .filter((l) => l.frontmatter.course === course)
    .sort((a, b) => a.frontmatter.order - b.frontmatter.order);
}

/**
 * The first words of a text as the page renders it. Markdown marks are dropped from the ends of
 * each word only, so an underscore inside code (`expires_at`) stays.
 */
export function opening(text: string, words = 7): RegExp {
  const plain = text
    .split(/\s+/)
    .map((w) => w.replace(/^[*_`>]+|[*_`]+(?=[^\w]*$)/g, ''))
    .filter(Boolean)
    .slice(0, words);
  return new RegExp(plain.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
}

/**
 * Picks an option as a learner would, again if the page moved under the click. A lesson's later
 * players still draw their timelines after the page has settled (out-of-sight players draw when
 * scrolled near), and a timeline above the quiz growing as Playwright clicks can move the option
 * away between its aim and its click: "Clicking the checkbox did not change its state" (once in
 * three CI runs). The page jumping under the pointer is a real defect, open in issue 36; this
 * keeps the walk about the quiz.
 */
async function pick(option: Locator) {
  await expect(async () => option.check({ timeout: 5_000 })).toPass({ timeout: 30_000 });
}

/** Presses a quiz's button until what it reveals is shown (again, only if the click missed). */
async function commit(button: Locator, revealed: Locator) {
  await expect(async () => {
    if (await revealed.isVisible()) return;
    await button.click({ timeout: 5_000 });
    await expect(revealed).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

/** Answers one quiz wrongly and checks that nothing showed before, and that the explanation for that wrong answer comes back. */
export async function checkQuiz(quiz: Locator, spec: QuizSpec) {
  const explanations =
    spec.kind === 'true-false' ? spec.statements.map((s) => s.explanation) : spec.options.map((o) => o.explanation);
  for (const explanation of explanations) await expect(quiz.getByText(opening(explanation))).toHaveCount(0);

  if (spec.kind === 'true-false') {
    const first = spec.statements[0]!;
    const group = quiz.getByRole('group', { name: opening(first.text, 5) });
    await pick(group.getByRole('radio', { name: first.answer ? 'False' : 'True' }));
    await commit(
      quiz.getByRole('button', { name: 'Check my answer' }),
      quiz.getByRole('heading', { name: 'Not quite.' }),
    );
    await expect(quiz.getByText(opening(first.explanation)).first()).toBeVisible();
    return;
  }
  const wrong = spec.options.find((o) => !o.correct);
  if (!wrong) {
    // Every option is right ("which of these can happen? all of them"): there is no wrong pick
    // to make, so the learner commits without one and reads the answer.
    await commit(
      quiz.getByRole('button', { name: /I've thought about it/ }),
      quiz.getByRole('heading', { name: 'Here is the answer.' }),
    );
    await expect(quiz.getByText(opening(explanations[0]!)).first()).toBeVisible();
    return;
  }
  await pick(quiz.getByRole(spec.kind === 'single' ? 'radio' : 'checkbox', { name: opening(wrong.text, 4) }));
  await commit(
    quiz.getByRole('button', { name: 'Check my answer' }),
    quiz.getByRole('heading', { name: 'Not quite.' }),
  );
  await expect(quiz.getByText(opening(wrong.explanation)).first()).toBeVisible();
}

/** Picks the first tool for every problem and checks the count and a correction. */
export async function checkMatch(page: Page, spec: MatchSpec) {
  const block = page.getByRole('region', { name: 'Match' }).first();
  const first = spec.tools[0]!;
  for (const p of spec.problems) await block.getByLabel(opening(p.text, 5)).selectOption(first.id);
  await block.getByRole('button', { name: 'Check my matches' }).click();
  const right = spec.problems.filter((p) => p.answer.includes(first.id)).length;
  await expect(block.getByRole('status')).toHaveText(`${right} of ${spec.problems.length} matched well.`);
  const missed = spec.problems.find((p) => !p.answer.includes(first.id));
  if (missed) await expect(block.getByText(opening(missed.explanation)).first()).toBeVisible();
}

/** Moves a player's playhead past the end of its run. */
export async function runToEnd(sim: Locator) {
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeVisible({ timeout: 30_000 });
  await sim.getByLabel('Go to time (s)').fill('100000');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
}

/**
 * The verdicts a scenario's `expect` promises, as the learner reads them at the end of the run:
 * each listed invariant held or broken, and with `invariant: all`, nothing else broken.
 */
export async function expectPromisedVerdicts(sim: Locator, scenario: Scenario) {
  const label = (invariant: string) => invariant.replace(/-/g, ' ');
  for (const e of scenario.expect) {
    if (e.invariant === 'all') continue;
    const text = e.outcome === 'violated' ? `Broken: ${label(e.invariant)}` : `Held: ${label(e.invariant)}`;
    await expect(sim.getByText(text, { exact: true }), `${scenario.id}: ${text}`).toBeVisible();
  }
  if (!scenario.expect.some((e) => e.invariant === 'all')) return;
  // Once the run has finished every verdict is shown; only then is "nothing else broke" true.
  await expect(sim.getByText(/^Held: /).first()).toBeVisible();
  const allowed = new Set(
    scenario.expect.filter((e) => e.outcome === 'violated').map((e) => `Broken: ${label(e.invariant)}`),
  );
  const broken = await sim.getByText(/^Broken: /).allTextContents();
  expect(
    broken.filter((t) => !allowed.has(t.trim())),
    `${scenario.id}: nothing broken that expect does not name`,
  ).toEqual([]);
}

/** Runs every scenario block of a lesson to its end and checks what its `expect` promises. */
export async function walkScenarios(page: Page, lesson: Lesson) {
  const scenarios = lesson.blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario] : []));
  expect(scenarios.length, `${lesson.frontmatter.slug} has a live scenario`).toBeGreaterThan(0);
  const seen = new Map<string, number>();
  for (const scenario of scenarios) {
    const nth = seen.get(scenario.title) ?? 0;
    seen.set(scenario.title, nth + 1);
    const sim = page.getByRole('region', { name: `Simulation: ${scenario.title}`, exact: true }).nth(nth);
    await runToEnd(sim);
    await expectPromisedVerdicts(sim, scenario);
  }
}

/**
 * Waits until the lesson has all its blocks and its players are built, and the page has kept
 * its height for half a second. Below the first player the rest of a lesson arrives after it,
 * and the players above a quiz mount and draw one per idle moment (nearViewport.ts): each moved
 * the quiz by hundreds of pixels (lesson 23: 392 → -315 → 2211 px from the viewport's top
 * within 1.5 s), so a click aimed at a checkbox could land on whatever took its place
 * ("Clicking the checkbox did not change its state").
 */
export async function pageSettled(page: Page) {
  await expect(page.locator('.lesson-body')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.locator('.player-placeholder')).toHaveCount(0, { timeout: 30_000 });
  let last = -1;
  let sameSince = Date.now();
  await expect
    .poll(
      async () => {
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        if (height !== last) [last, sameSince] = [height, Date.now()];
        return Date.now() - sameSince;
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBeGreaterThanOrEqual(500);
}

/**
 * A whole lesson as a learner meets it: every quiz gated and a wrong pick explained, every match
 * block graded, a reflect question present, every scenario showing what it promises, and then,
 * answered and run, the page passes an axe-core scan.
 */
export async function walkLesson(page: Page, lesson: Lesson) {
  await page.goto(`./#/lesson/${lesson.frontmatter.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: lesson.frontmatter.title })).toBeVisible();
  const quizzes = lesson.blocks.flatMap((b) => (b.kind === 'quiz' ? [b.spec] : []));
  expect(quizzes.length, `${lesson.frontmatter.slug} has a quiz`).toBeGreaterThan(0);
  await pageSettled(page);
  for (const [i, spec] of quizzes.entries()) await checkQuiz(page.getByRole('region', { name: 'Quiz' }).nth(i), spec);
  for (const b of lesson.blocks) if (b.kind === 'match') await checkMatch(page, b.spec);
  expect(
    lesson.blocks.some((b) => b.kind === 'reflect'),
    `${lesson.frontmatter.slug} has a reflect question`,
  ).toBe(true);
  await walkScenarios(page, lesson);
  expect(await axeViolations(page)).toEqual([]);
}

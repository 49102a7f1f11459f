import { axeViolations } from './support/axe';
import { expect, test } from '@playwright/test';
import { openWorkbench } from './support/workbench';
import { TEMPLATE } from '../src/ui/workbench/workbenchModel';

/**
 * Issue 34, the instructor preview: an author types a lesson, sees line numbers, clicks a problem
 * to go to it, answers the quiz as a learner would (without writing a learner's progress) and
 * reads beside the scenario what its `expect` came to.
 */
const SCENARIO = TEMPLATE.replace(/^#.*\n/gm, '')
  .replace('id: my-lock', 'id: two-baristas')
  .replace('title: My lock', 'title: Two baristas, plain DEL');

const HEAD = [
  '---',
  'slug: my-lesson',
  'title: "My lesson"',
  'course: redis-locks',
  'order: 99',
  'readTime: 5',
  '',
].join('\n');
/** Line 7, typed: the mistake. */
const TYPED = 'sumary: What the learner breaks.';
const REST = [
  '',
  'sources: [{ title: Distributed locks with Redis, url: "https://redis.io/docs/latest/develop/use/patterns/distributed-locks/", by: Redis }]',
  '---',
  '',
  'Watch the two baristas.',
  '',
  '```scenario',
  `${SCENARIO}\`\`\``,
  '',
  '```quiz',
  'id: predict',
  'kind: single',
  'question: When does B get the lock?',
  'options:',
  '  - { id: late, text: At 12 s, correct: true, explanation: Its lease ends then. }',
  '  - { id: early, text: At 3 s, explanation: A still holds it. }',
  '```',
  '',
].join('\n');

test('type a lesson with a mistake, go to it from its problem, answer the quiz in memory only, and read what expect came to', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByRole('button', { name: 'Preview a lesson file' }).click();
  const lesson = page.getByLabel('or paste it here');
  await lesson.click();
  await page.keyboard.insertText(HEAD);
  // A person's speed for the line with the mistake.
  await lesson.pressSequentially(TYPED, { delay: 30 });
  await page.keyboard.insertText(REST);

  // Line numbers beside the text.
  const gutter = page.locator('.lesson-preview-paste .cm-lineNumbers');
  await expect(gutter).toContainText('7');
  await expect(gutter).toContainText('20');

  // The problem takes the cursor to its line.
  const problems = page.getByRole('list', { name: 'Lesson problems' });
  const problem = problems.getByRole('button', { name: /7:1 unknown key 'sumary'/ });
  await expect(problem).toBeVisible();
  await page.locator('.lesson-preview-paste .cm-content .cm-line').first().click();
  await problem.click();
  await expect(lesson).toBeFocused();
  await expect(page.locator('.lesson-preview-paste .cm-activeLine')).toHaveText(TYPED);
  await expect(page.locator('.lesson-preview-paste .cm-activeLine .cm-lintRange-error')).toHaveText('sumary');
  // The cursor sits at 7:1, so two steps right and one key fix it.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('m');
  await expect(page.locator('.lesson-preview-paste .cm-activeLine')).toHaveText('summary: What the learner breaks.');

  // The scenario says what its expect came to in the preview's run.
  const preview = page.getByRole('article', { name: 'Preview: My lesson' });
  await expect(preview.getByText("expect: single-writer violated: came true in the preview's run")).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('my-lesson.md: no problems')).toBeVisible();

  // The quiz is answered as a learner would, and explains.
  const quiz = preview.getByRole('region', { name: 'Quiz' });
  await quiz.getByRole('radio', { name: 'At 12 s' }).check();
  await quiz.getByRole('button', { name: 'Check my answer' }).click();
  await expect(quiz.getByText('Its lease ends then.')).toBeVisible();
  // …into the preview's own progress: nothing of this lesson is saved for the learner.
  const saved = await page.evaluate(() =>
    Object.keys(localStorage)
      .map((k) => `${k}=${localStorage.getItem(k)}`)
      .join('\n'),
  );
  expect(saved).not.toContain('predict');
  expect(saved).not.toContain('my-lesson');

  expect(await axeViolations(page)).toEqual([]);
});

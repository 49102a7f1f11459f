import { expect, test } from '@playwright/test';
import { editor, openWorkbench } from './support/workbench';

/**
 * What an author brings to the workbench. Issue 36, "size is an input too": a file chosen in the workbench or the lesson preview that is
 * far too large for what it should be is refused by its size before a byte is read (a 22 MB
 * lesson read into the preview's text box froze the page for half a minute), with a sentence
 * naming the file and the limit, and nothing the author had is lost. Text nested thousands of
 * levels deep gets one message at its line instead of a stack overflow.
 */

// Opening the workbench alone can take 20 s on a busy machine: room for that, not a speed bound.
test.describe.configure({ timeout: 90_000 });

test('a 3 MB lesson file is refused in the preview before it is read, and the preview goes on working', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByRole('button', { name: 'Preview a lesson file' }).click();
  await page
    .getByLabel('Open a lesson file')
    .setInputFiles({ name: 'huge.md', mimeType: 'text/markdown', buffer: Buffer.alloc(3_000_000, 'a') });
  await expect(
    page.getByRole('alert').filter({
      hasText: '"huge.md" is too large for a lesson file (3.0 MB; Lockstep reads up to 256,000 characters)',
    }),
  ).toBeVisible();
  const paste = page.getByLabel('or paste it here');
  await expect(paste).not.toContainText('aaaa');
  // A lesson nested ten thousand levels deep: one message at its line, no stack overflow.
  await paste.fill(
    ['---', 'slug: deep', 'title: Deep', '---', '', '```scenario', `id: [${'['.repeat(10_000)}`, '```', ''].join('\n'),
  );
  await expect(page.getByRole('list', { name: 'Lesson problems' })).toContainText(
    '7:69 the YAML nests more than 64 levels deep here',
  );
});

test('a 2 MB scenario file is refused in the workbench, and the work in the editor is kept', async ({ page }) => {
  await openWorkbench(page);
  await expect(editor(page)).toContainText('id: my-lock');
  await page
    .getByLabel('or open a .yaml file')
    .setInputFiles({ name: 'big.yaml', mimeType: 'application/yaml', buffer: Buffer.alloc(2_000_000, 'a') });
  await expect(
    page.getByRole('alert').filter({
      hasText:
        '"big.yaml" is too large for a scenario file (2.0 MB; Lockstep reads up to 64,000 characters), so it was not opened.',
    }),
  ).toBeVisible();
  await expect(editor(page)).toContainText('id: my-lock');
});

test('the preview shows the prose an after block holds back, marked as held back instead of hidden behind the learner’s button', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByRole('button', { name: 'Preview a lesson file' }).click();
  const lesson = [
    '---',
    'slug: held',
    'title: Held back',
    'course: redis-locks',
    'order: 99',
    'readTime: 5',
    'summary: A prediction.',
    '---',
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
    '```after',
    'quiz: predict',
    '```',
    '',
    'B takes the lock at 12 s.',
    '',
  ].join('\n');
  await page.getByLabel('or paste it here').fill(lesson);
  const preview = page.getByRole('article', { name: 'Preview: Held back' });
  await expect(
    preview.getByText('Learners see this once they answer quiz “predict” (or choose to read on):'),
  ).toBeVisible();
  await expect(preview.getByText('B takes the lock at 12 s.')).toBeVisible();
  await expect(preview.getByRole('button', { name: 'Read on without answering' })).toHaveCount(0);
});

test('the preview checks a lesson among the site’s lessons and runs its scenarios as lessons:check does', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openWorkbench(page);
  await page.getByRole('button', { name: 'Preview a lesson file' }).click();
  const lesson = (frontmatter: string[], body: string[]) =>
    [
      '---',
      'title: Mine',
      'course: redis-locks',
      'order: 98',
      'readTime: 5',
      'summary: A runaway.',
      'sources: [{ title: EVAL, url: "https://redis.io/docs/latest/commands/eval/", by: Redis }]',
      ...frontmatter,
      '---',
      '',
      ...body,
      '',
    ].join('\n');
  const paste = page.getByLabel('or paste it here');
  const problems = page.getByRole('list', { name: 'Lesson problems' });

  // What only the site's whole set can tell: a slug another lesson has, a former slug taken
  // from another lesson, a prerequisite and a link that do not exist.
  await paste.fill(
    lesson(
      ['slug: paused-barista', 'formerSlugs: [simplest-lock]', 'prerequisites: [no-such-lesson]'],
      ['See [the lock](99-nowhere.md).'],
    ),
  );
  await expect(problems).toContainText("duplicate slug 'paused-barista'");
  await expect(problems).toContainText("duplicate slug 'simplest-lock'");
  await expect(problems).toContainText("prerequisite 'no-such-lesson' is not a lesson");
  await expect(problems).toContainText('link to a lesson that does not exist: 99-nowhere.md');

  // A scenario whose client runs a script that never ends: the run is cut, said at its block.
  const runaway = [
    '```scenario',
    'id: spin',
    'title: Spin',
    'horizon: 3s',
    'clients:',
    "  - { id: A, label: Barista A, steps: [{ redis: [EVAL, 'while true do end', '0'], as: acquire }, { write: espresso }] }",
    'resource: { id: espresso, label: Espresso machine }',
    '```',
  ];
  await paste.fill(lesson(['slug: my-runaway'], runaway));
  await expect(problems).toContainText(
    "scenario 'spin': This script ran past the budget of 20 million instructions and was stopped at script line 1",
    { timeout: 90_000 },
  );
  await expect(page.getByText(/my-lesson\.md: no problems/)).toHaveCount(0);
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'yaml';
import { FixtureSite } from './support/fixtureSite';

/**
 * The lesson reader as a learner uses it. Most tests run against the published build (real
 * lessons/). Quiz mechanics and the injection attempt use a second build that adds the test-only
 * fixtures course (LOCKSTEP_FIXTURES=1), served from its own port, so the published site never
 * contains them.
 */

interface Frontmatter {
  slug: string;
  title: string;
  course: string;
  order: number;
}

function realLessons(): Frontmatter[] {
  return readdirSync('lessons')
    .filter((f) => /^\d+-.*\.md$/.test(f))
    .map((f) => parse(readFileSync(join('lessons', f), 'utf8').split(/^---$/m)[1]!) as Frontmatter);
}

test.describe('published site', () => {
  test('the course page lists every lesson', async ({ page }) => {
    await page.goto('./');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const lessons = realLessons();
    if (!lessons.length) {
      await expect(page.getByText('No lessons have been published yet.')).toBeVisible();
      return;
    }
    for (const lesson of lessons) {
      await expect(page.getByRole('link', { name: lesson.title, exact: true })).toHaveAttribute(
        'href',
        `#/lesson/${lesson.slug}`,
      );
    }
  });

  test('a deep link to a lesson survives a reload from the sub-path', async ({ page }) => {
    const lesson = realLessons()[0];
    expect(lesson, 'lessons/ has at least one lesson').toBeDefined();
    await page.goto(`./#/lesson/${lesson!.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: lesson!.title })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: lesson!.title })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/lockstep/');
    await expect(page).toHaveTitle(`${lesson!.title} · Lockstep`);
  });

  test('what a run showed waits for the quiz that asked the learner to predict it', async ({ page }) => {
    await page.goto('./#/lesson/fencing-tokens');
    const told = page.getByText(/A's write lands at 12\.0 s and B's at 16\.0 s, both accepted/);
    const quiz = page
      .getByRole('region', { name: 'Quiz' })
      .filter({ hasText: "A's token-1 write reaches the row at 12 s" });
    await expect(page.getByText('The next part shows what happens in the run.')).toBeVisible();
    await expect(told).toHaveCount(0);
    await quiz.getByRole('radio', { name: "It refuses A's write, because B holds a newer token." }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByRole('heading', { name: 'Not quite.' })).toBeVisible();
    await expect(told).toBeVisible();
    await expect(page.getByText('The next part shows what happens in the run.')).toHaveCount(0);

    // A learner who would rather read on may, without answering.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await expect(told).toHaveCount(0);
    await page.getByRole('button', { name: 'Read on without answering' }).click();
    await expect(told).toBeVisible();
  });

  test("a player that would show a quiz's answer waits for that quiz too", async ({ page }) => {
    await page.goto('./#/lesson/redlock-step-by-step');
    const player = page.getByRole('region', { name: 'Simulation: One Redlock acquisition, message by message' });
    const quiz = page
      .getByRole('region', { name: 'Quiz' })
      .filter({ hasText: 'For how long may A treat the lock as its own?' });
    await expect(quiz).toBeVisible();
    await expect(page.getByText('The next part shows what happens in the run.')).toBeVisible();
    await expect(player).toHaveCount(0);
    await quiz.getByRole('radio', { name: /^9 848 ms/ }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(player.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 30_000 });
  });

  test('an unknown lesson says so and links home', async ({ page }) => {
    await page.goto('./#/lesson/no-such-lesson');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'See all courses' }).click();
    await expect(page).toHaveURL(/#\/$/);
  });

  test('an address with a 100,000-character lesson name is named in short, and the page keeps its width', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`./#/lesson/${'x'.repeat(100_000)}`);
    await expect(page.getByText(`There is no lesson called "${'x'.repeat(59)}…".`)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('marking a lesson done survives a reload and shows on the course map', async ({ page }) => {
    const lesson = realLessons()[0];
    expect(lesson, 'lessons/ has at least one lesson').toBeDefined();
    await page.goto(`./#/lesson/${lesson!.slug}`);
    await page.getByRole('button', { name: 'Mark this lesson as done' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: /Done ✓/ })).toHaveAttribute('aria-pressed', 'true');
    await page.goto('./#/');
    await expect(page.getByText(/^1 of \d+ done$/).first()).toBeVisible();
  });

  test('corrupt saved progress is backed up, defaults load, and a notice explains', async ({ page }) => {
    await page.goto('./');
    await page.evaluate(() => localStorage.setItem('lockstep.progress', '{"state": {"completed": 42'));
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'could not be read' })).toBeVisible();
    const backups = await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('lockstep.progress.backup.'))
        .map((k) => localStorage.getItem(k)),
    );
    expect(backups).toEqual(['{"state": {"completed": 42']);
    await expect(page.getByText(/^0 of \d+ done$/).first()).toBeVisible();
  });

  test('corrupt saved progress is recovered once: the next page finds the defaults and says nothing', async ({
    page,
  }) => {
    await page.goto('./');
    await page.evaluate(() => localStorage.setItem('lockstep.progress', '{"state": {"completed": 42'));
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'could not be read' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(/^0 of \d+ done$/).first()).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'could not be read' })).toHaveCount(0);
    const backups = await page.evaluate(
      () => Object.keys(localStorage).filter((k) => k.startsWith('lockstep.progress.backup.')).length,
    );
    expect(backups).toBe(1);
  });

  test('progress from a newer version is kept aside, not overwritten', async ({ page }) => {
    await page.goto('./');
    await page.evaluate(() => localStorage.setItem('lockstep.progress', JSON.stringify({ state: {}, version: 999 })));
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'newer version' })).toBeVisible();
  });

  test('a simulation that stops working says so in its place, and the rest of the lesson goes on working', async ({
    page,
  }) => {
    // A browser without ResizeObserver: the timeline cannot measure itself and throws as it mounts.
    await page.addInitScript(() => Object.defineProperty(window, 'ResizeObserver', { value: undefined }));
    await page.goto('./#/lesson/paused-barista');
    const failed = page.getByRole('alert').filter({ hasText: 'This simulation stopped working' });
    await expect(failed).toBeVisible({ timeout: 20_000 });
    await expect(failed.getByRole('button', { name: 'Try again' })).toBeVisible();
    // The page around it is still there and still answers: the quiz grades, the lesson can be marked done.
    await expect(page.getByRole('heading', { level: 1, name: 'Challenge 2: the paused barista' })).toBeVisible();
    const quiz = page.getByRole('region', { name: 'Quiz' }).first();
    await quiz.getByRole('radio').first().check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByRole('heading', { name: /^(Correct|Not quite)/ })).toBeVisible();
    const done = page.getByRole('button', { name: 'Mark this lesson as done' });
    await done.click();
    await expect(page.getByRole('button', { name: /^Done ✓/ })).toHaveAttribute('aria-pressed', 'true');
  });

  test('the page ships a Content-Security-Policy and the course page breaks none of it', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    await page.goto('./');
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    // Images from this site or data: URLs only: a lesson's image from elsewhere is a link.
    expect(csp).toContain("img-src 'self' data:;");
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });
});

test.describe('reader mechanics (fixtures build)', () => {
  const site = new FixtureSite();

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await site.start('fixtures');
  });

  test.afterAll(() => site.stop());

  const openQuiz = async (page: Page) => {
    await page.goto(`${site.base}#/lesson/quiz-gate`);
    return page.getByRole('region', { name: 'Quiz' }).first();
  };

  test('the quiz keeps its answer hidden until the learner commits', async ({ page }) => {
    const quiz = await openQuiz(page);
    const group = quiz.getByRole('group', { name: 'What does a token-checked release protect?' });
    await expect(group.getByRole('radio')).toHaveCount(3);
    await expect(quiz.getByText(/Targeted:|Right:|Too pessimistic:/)).toHaveCount(0);
    await expect(quiz.getByText('Correct answer')).toHaveCount(0);
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByRole('alert')).toHaveText(/Pick an answer first/);
    await expect(quiz.getByText(/Right:/)).toHaveCount(0);
  });

  test('a wrong answer gets its own explanation first, then the right one', async ({ page }) => {
    const quiz = await openQuiz(page);
    await quiz.getByRole('radio', { name: 'The write to the resource' }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByRole('heading', { name: 'Not quite.' })).toBeFocused();
    const items = quiz.getByRole('list', { name: 'Feedback', exact: true }).getByRole('listitem');
    await expect(items.nth(0)).toContainText('Your answer: The write to the resource');
    await expect(items.nth(0)).toContainText('Targeted: the release runs after the write');
    await expect(items.nth(1)).toContainText("The right answer: Someone else's key in Redis");
    await expect(quiz.getByRole('radio', { name: /The write to the resource/ })).toBeDisabled();
  });

  test('"I\'ve thought about it" reveals the answer without an attempt', async ({ page }) => {
    const quiz = await openQuiz(page);
    await quiz.getByRole('button', { name: /I've thought about it/ }).click();
    await expect(quiz.getByRole('heading', { name: 'Here is the answer.' })).toBeVisible();
    await expect(quiz.getByRole('list', { name: 'Feedback', exact: true }).getByRole('listitem').first()).toContainText(
      "The right answer: Someone else's key in Redis",
    );
  });

  test('a wrong answer does not finish the lesson; getting it right, or showing it after a wrong try, does', async ({
    page,
  }) => {
    const quiz = await openQuiz(page);
    const footer = page.getByRole('status', { name: 'Lesson progress' });
    const markDone = page.getByRole('button', { name: 'Mark this lesson as done' });
    await quiz.getByRole('radio', { name: 'Nothing at all' }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByText('a question counts toward this lesson once you get it right')).toBeVisible();
    const statements = page.getByRole('region', { name: 'Quiz' }).nth(1);
    await statements
      .getByRole('group', { name: 'A TTL alone makes a lock safe.' })
      .getByRole('radio', { name: 'False' })
      .check();
    await statements
      .getByRole('group', { name: 'Fencing needs the resource to check tokens.' })
      .getByRole('radio', { name: 'True' })
      .check();
    await statements.getByRole('button', { name: 'Check my answer' }).click();
    await expect(statements.getByRole('heading', { name: 'Correct.' })).toBeVisible();
    // Both quizzes answered, one wrongly: the lesson is not done, and the footer says what is left.
    await expect(footer).toHaveText('To finish this lesson: get one more question right.');
    await expect(markDone).toBeVisible();

    // Try again survives a reload with what it missed; showing the answer now counts.
    await quiz.getByRole('button', { name: 'Try again' }).click();
    await page.reload();
    await page
      .getByRole('region', { name: 'Quiz' })
      .first()
      .getByRole('button', { name: /I've thought about it/ })
      .click();
    await expect(footer).toHaveText('Done: you answered the questions.');
    await expect(page.getByRole('button', { name: /^Done ✓/ })).toHaveAttribute('aria-pressed', 'true');
  });

  test('hints appear one at a time, in order', async ({ page }) => {
    const quiz = await openQuiz(page);
    const hints = quiz.getByRole('list', { name: 'Hints' }).getByRole('listitem');
    await expect(hints).toHaveCount(0);
    await quiz.getByRole('button', { name: 'Show a hint (1 of 2)' }).click();
    await expect(hints).toHaveText(['Hint 1: First hint: think about what DEL removes.']);
    await quiz.getByRole('button', { name: 'Show another hint (2 of 2)' }).click();
    await expect(hints).toHaveText([
      'Hint 1: First hint: think about what DEL removes.',
      'Hint 2: Second hint: the write happens before the release.',
    ]);
    await expect(quiz.getByRole('button', { name: /hint/ })).toHaveCount(0);
  });

  test('answers, hints and notes survive a reload', async ({ page }) => {
    const quiz = await openQuiz(page);
    await quiz.getByRole('button', { name: 'Show a hint (1 of 2)' }).click();
    await quiz.getByRole('radio', { name: "Someone else's key in Redis" }).check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await page
      .getByRole('textbox', { name: 'Where would you enforce safety in your own system?' })
      .fill('At the database row.');
    await page.reload();
    const again = page.getByRole('region', { name: 'Quiz' }).first();
    await expect(again.getByRole('heading', { name: 'Correct.' })).toBeVisible();
    await expect(again.getByRole('list', { name: 'Hints' }).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('textbox', { name: 'Where would you enforce safety in your own system?' })).toHaveValue(
      'At the database row.',
    );
  });

  test('a true/false set grades each statement', async ({ page }) => {
    await page.goto(`${site.base}#/lesson/quiz-gate`);
    const quiz = page.getByRole('region', { name: 'Quiz' }).nth(1);
    await quiz
      .getByRole('group', { name: 'A TTL alone makes a lock safe.' })
      .getByRole('radio', { name: 'True' })
      .check();
    await quiz
      .getByRole('group', { name: 'Fencing needs the resource to check tokens.' })
      .getByRole('radio', { name: 'True' })
      .check();
    await quiz.getByRole('button', { name: 'Check my answer' }).click();
    await expect(quiz.getByText('You said true; it is false.')).toBeVisible();
    await expect(quiz.getByText('You said true: right.')).toBeVisible();
  });

  test('a hostile lesson renders as harmless text: no dialog, no script, no javascript: link', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${site.base}#/lesson/injection`);
    await expect(page.getByRole('heading', { level: 1, name: 'Injection attempts' })).toBeVisible();
    await expect(page.getByText('a javascript link')).toBeVisible();
    await page.getByText('a javascript link').click();
    await page.getByText('a reference link').click();
    await page.mouse.move(10, 10);
    const article = page.getByRole('article');
    await expect(article.locator('script, img, iframe, [onerror], [onmouseover]')).toHaveCount(0);
    // Every link, hidden or not: a folded one could still be followed.
    const hrefs = await article
      .getByRole('link', { includeHidden: true })
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((h) => h && !/^(https?:|mailto:|#)/.test(h))).toEqual([]);
    expect(hrefs).toContain('https://example.com/ok');
    expect(dialogs).toEqual([]);
    // Off-site links say so and open apart; an off-site image is a link to it, never loaded.
    const hostLink = article.getByRole('link', { name: 'a host-relative link (external site, opens in a new tab)' });
    await expect(hostLink).toHaveAttribute('href', 'https://evil.example/x');
    await expect(hostLink).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(hostLink).toHaveAttribute('target', '_blank');
    await expect(
      article.getByRole('link', { name: 'a tracking pixel (external site, opens in a new tab)' }),
    ).toHaveAttribute('href', 'https://tracker.example/pixel.gif');
  });

  test('the published course map does not list the fixtures course', async ({ page }) => {
    // Guards the other half of the arrangement: the fixtures build has it, the real one must not.
    await page.goto(`${site.base}#/`);
    await expect(page.getByRole('heading', { name: 'Test fixtures' })).toBeVisible();
    await page.goto('./');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Test fixtures' })).toHaveCount(0);
  });
});

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { courseLessons, runToEnd, walkLesson } from './support/courseWalk';

/**
 * Every lesson of course 4 (the lock review clinic), walked as a learner. As in the other course
 * walks, the lessons are whatever `lessons/NN-*.md` says `course: review-clinic`, and the first
 * test proves the course map offers exactly those, in order. Then a learner does what the clinic
 * is for, in the lesson's workbench block: breaks the un-tokened DEL recipe with the explorer,
 * watches the run it found, types the token-checked release, and sees the explorer find nothing.
 * Each lesson is then walked whole: quizzes gated, every recipe and fix showing the verdicts its
 * `expect` promises, and an axe scan.
 */
const COURSE = { id: 'review-clinic', title: 'Lock review clinic' };

const lessons = courseLessons(COURSE.id);

test('the course map offers exactly the lessons walked here, in order, each linking to its page', async ({ page }) => {
  expect(lessons.length).toBeGreaterThanOrEqual(8);
  await page.goto('./');
  const links = page.getByRole('region', { name: COURSE.title, exact: true }).getByRole('listitem').getByRole('link');
  await expect(links).toHaveText(lessons.map((l) => l.frontmatter.title));
  for (const [i, lesson] of lessons.entries())
    await expect(links.nth(i)).toHaveAttribute('href', `#/lesson/${lesson.frontmatter.slug}`);
});

test('a learner breaks the plain DEL in the lesson’s workbench, fixes the release there, and the explorer finds nothing in its budget', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('./#/lesson/clinic-plain-del');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const wb = page.getByRole('region', { name: 'Workbench: Under review: release with a plain DEL', exact: true });
  const editor = wb.getByRole('textbox', { name: 'Scenario (YAML)' });
  await expect(editor).toContainText("[DEL, 'lock:espresso']", { timeout: 20_000 });

  // Break it: one fault is enough, and the run it loads shows the break in the block's player.
  await wb.getByRole('button', { name: 'Break it' }).click();
  await expect(wb.getByText(/^Found in [\d,]+ runs: 1 fault breaks released by owner/)).toBeVisible({
    timeout: 60_000,
  });
  await wb.getByRole('button', { name: 'Load into the player' }).click();
  const sim = wb.getByRole('region', { name: 'Simulation: Under review: release with a plain DEL', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Broken: released by owner', { exact: true })).toBeVisible();

  // The fix, typed as a learner would: each DEL becomes a release that checks the value first.
  const recipe = readFileSync('lessons/scenarios/clinic-plain-del.yaml', 'utf8');
  const release = `{ redis: [EVAL, "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, 'lock:espresso', '{value}'], as: release }`;
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(recipe.replaceAll("{ redis: [DEL, 'lock:espresso'] }", release));
  await expect(wb.getByText('No problems: ready to run.')).toBeVisible({ timeout: 20_000 });
  await wb.getByRole('button', { name: 'Break it' }).click();
  await expect(wb.getByText(/^No run broke released by owner in [\d,]+ runs\. Searched: /)).toBeVisible({
    timeout: 120_000,
  });
  await expect(wb.getByText(/^Fixed: /)).toBeVisible({ timeout: 30_000 });
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width}×${viewport.height}, a lesson's workbench loads its editor only as the learner nears it, showing the recipe as text until then`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('./#/lesson/clinic-plain-del');
    const wb = page.getByRole('region', { name: 'Workbench: Under review: release with a plain DEL', exact: true });
    await expect(wb.getByText("- { redis: [DEL, 'lock:espresso'] }").first()).toBeAttached();
    await expect(wb.getByText('The editor opens as you scroll to it.')).toBeAttached();
    await page.waitForTimeout(1000);
    expect(await page.locator('.cm-editor').count()).toBe(0);
    await wb.scrollIntoViewIfNeeded();
    await expect(wb.getByRole('textbox', { name: 'Scenario (YAML)' })).toBeVisible({ timeout: 20_000 });
  });
}

for (const lesson of lessons) {
  test(`${lesson.frontmatter.order}. ${lesson.frontmatter.title}: every quiz gated, every scenario shows what it claims, and axe finds nothing`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await walkLesson(page, lesson);
  });
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { parse } from 'yaml';
import { players } from './support/player';

/**
 * Lesson bodies are chunks of their own: the first page loads none, opening a lesson loads that
 * one (and the next one while idle), a chunk that cannot be fetched gets a retry, and the service
 * worker's precache still makes every lesson readable offline.
 */

interface Frontmatter {
  slug: string;
  title: string;
  course: string;
  order: number;
}

const lessons: Frontmatter[] = readdirSync('lessons')
  .filter((f) => /^\d+-.*\.md$/.test(f))
  .map((f) => parse(readFileSync(join('lessons', f), 'utf8').split(/^---$/m)[1]!) as Frontmatter);
const slugs = new Set(lessons.map((l) => l.slug));
const barista = lessons.find((l) => l.slug === 'paused-barista')!;
const afterBarista = lessons.find((l) => l.course === barista.course && l.order === barista.order + 1)!;

/** The lesson slugs whose body chunk (assets/<slug>-<hash>.js) the page has requested so far. */
function watchBodies(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const name = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname)?.[1];
    if (name && slugs.has(name)) seen.push(name);
  });
  return seen;
}

// The config blocks the service worker in every other spec; this one is about it (offline, below).
test.use({ serviceWorkers: 'allow' });

test.describe('on the network', () => {
  // The service worker is blocked so that every chunk request reaches the network, where the test sees it.
  test.use({ serviceWorkers: 'block' });

  test('the course page loads no lesson body; a lesson loads its own, then the next one', async ({ page }) => {
    const bodies = watchBodies(page);
    await page.goto('./');
    await expect(page.getByRole('link', { name: barista.title, exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(bodies).toEqual([]);

    await page.getByRole('link', { name: barista.title, exact: true }).click();
    await expect(page.getByText('A freezes.', { exact: false })).toBeVisible();
    await expect.poll(() => bodies).toEqual([barista.slug, afterBarista.slug]);

    // The next lesson was fetched while this one was read: it opens without a loading state.
    await page.getByRole('link', { name: `${afterBarista.title} →` }).click();
    await expect(page.getByRole('heading', { level: 1, name: afterBarista.title })).toBeVisible();
    await expect(page.locator('.lesson-body')).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.getByRole('status').filter({ hasText: 'Loading the lesson' })).toHaveCount(0);
  });

  test('the next lesson waits until this one’s player code has arrived', async ({ page }) => {
    // On a 2-core machine the next body's download and evaluation delayed this lesson's first player.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const handler = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route('**/assets/ScenarioPlayerLive-*.js', handler);
    const bodies = watchBodies(page);
    await page.goto(`./#/lesson/${barista.slug}`);
    await expect(page.getByText('A freezes.', { exact: false })).toBeVisible();
    // Idle time aplenty while the player's code is held back: the next body is not asked for.
    await page.waitForTimeout(1500);
    expect(bodies).toEqual([barista.slug]);

    release();
    await expect(players(page).getByTestId('trace-hash').first()).not.toBeEmpty();
    await expect.poll(() => bodies).toEqual([barista.slug, afterBarista.slug]);
    await page.unroute('**/assets/ScenarioPlayerLive-*.js', handler);
  });

  test('while its body loads the lesson says so, and a body that cannot be fetched can be retried', async ({
    page,
  }) => {
    let release: (how: 'abort' | 'continue') => void = () => {};
    const held = new Promise<'abort' | 'continue'>((resolve) => (release = resolve));
    const handler = async (route: Route) =>
      (await held) === 'abort' ? route.abort('internetdisconnected') : route.continue();
    await page.route(`**/assets/${barista.slug}-*.js`, handler);

    await page.goto(`./#/lesson/${barista.slug}`);
    // The header comes from the catalog index and is there at once; the body is busy.
    await expect(page.getByRole('heading', { level: 1, name: barista.title })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading the lesson…' })).toBeVisible();

    release('abort');
    const alert = page.getByRole('alert').filter({ hasText: 'This lesson could not be loaded' });
    await expect(alert).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

    await page.unroute(`**/assets/${barista.slug}-*.js`, handler);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('A freezes.', { exact: false })).toBeVisible();
    await expect(alert).toHaveCount(0);
  });
});

test('after one visit, a lesson never opened before opens offline', async ({ page, context }) => {
  await page.goto('./');
  // Once the worker is active its precache is complete; a reload puts the page under its control.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

  await context.setOffline(true);
  expect(
    await page.evaluate(() =>
      fetch('./not-precached.txt').then(
        () => 'online',
        () => 'offline',
      ),
    ),
  ).toBe('offline');
  // The last lesson file: nothing on the course page prefetches it.
  const last = lessons.at(-1)!;
  await page.getByRole('link', { name: last.title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: last.title })).toBeVisible();
  await expect(page.locator('.lesson-body')).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' })).toHaveCount(0);
  await expect(page.locator('.lesson-body p').first()).toBeVisible();
});

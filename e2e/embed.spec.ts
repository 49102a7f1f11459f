import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

/**
 * Issue 34, "embed one run": an instructor copies an Embed snippet from a lesson's player and
 * pastes it into a page on another site; the player runs there alone, in a cross-site iframe,
 * and the iframe grows to fit it.
 */
test.describe.configure({ timeout: 90_000 });

test('the Embed snippet shows one lesson player, working in a cross-site iframe that sizes to it', async ({
  page,
  baseURL,
}) => {
  await page.goto('./#/lesson/paused-barista');
  const sim = page.getByRole('region', { name: 'Simulation: The paused barista' });
  // Scrolled to as a learner does: a player below the fold draws when it comes near.
  await expect(async () => {
    await sim.scrollIntoViewIfNeeded({ timeout: 2_000 });
    await expect(sim.getByRole('button', { name: 'Embed' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await sim.getByRole('button', { name: 'Embed' }).click();
  await sim.getByRole('checkbox', { name: 'With the question asked before it' }).check();
  const snippet = await sim.getByRole('textbox', { name: 'HTML to paste into your page or LMS' }).inputValue();
  expect(snippet).toContain(`src="${baseURL}#/embed/paused-barista/paused-barista?quiz=before"`);

  // Another site (localhost is not the same site as 127.0.0.1) hosts the snippet: a real server,
  // since Chromium lets only a page served from this machine frame a page served from this machine.
  const course = createServer((_, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>My course</title><h1>Week 3</h1>${snippet}`),
  );
  await new Promise<void>((resolve) => course.listen(0, 'localhost', resolve));
  await page.goto(`http://localhost:${(course.address() as AddressInfo).port}/week-3.html`);
  const iframe = page.getByTitle('Lockstep: The paused barista', { exact: true });
  const frame = iframe.contentFrame();
  const embedded = frame.getByRole('region', { name: 'Simulation: The paused barista' });
  await expect(embedded.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 30_000 });
  // Only this player and the question before it: no site header, no other block of the lesson.
  await expect(frame.getByRole('navigation', { name: 'Site' })).toHaveCount(0);
  await expect(frame.getByRole('region', { name: /^Simulation:/ })).toHaveCount(1);
  await expect(frame.getByRole('link', { name: 'Challenge 2: the paused barista' })).toHaveAttribute(
    'target',
    '_blank',
  );
  await expect(frame.getByRole('radio').first()).toBeVisible();

  // It runs: to 30 s, where both baristas have written.
  await embedded.getByLabel('Go to time (s)').fill('30');
  await embedded.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(embedded.getByText(/Broken: single writer/)).toBeVisible();

  // The snippet's script sized the iframe to the player (its starting height is 1100 px).
  await expect.poll(async () => iframe.evaluate((f: HTMLIFrameElement) => f.style.height)).toMatch(/^\d+px$/);
  const [frameHeight, contentHeight] = await iframe.evaluate((f: HTMLIFrameElement) => [
    f.getBoundingClientRect().height,
    f.contentDocument?.documentElement.scrollHeight ?? -1,
  ]);
  expect(frameHeight).toBeGreaterThan(1100);
  expect(contentHeight).toBe(-1); // cross-site: the host page cannot read the embed's document
  course.close();
});

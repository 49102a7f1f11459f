import { expect, test, type Locator, type Page } from '@playwright/test';
import { commandLine } from './support/player';

/**
 * Issue 35, "the player never contradicts itself": a look at the world is not a change to it.
 * In lesson 1's console a read (GET, TTL, EXISTS) is answered at the playhead and shown in the
 * transcript, but it is not one of the learner's actions: no "You changed this run", the same
 * fingerprint, the same share link. A write (SET) still is an action.
 */

async function send(sim: Locator, command: string) {
  const line = sim.getByRole('textbox', { name: /Command for/ });
  await line.fill(command);
  await line.press('Enter');
}

/** The link "Share this run" copies now (the clipboard is emptied first, so it is this click's). */
async function shareLink(page: Page, sim: Locator): Promise<string> {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await sim.getByRole('button', { name: 'Share this run' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/run=/);
  return page.evaluate(() => navigator.clipboard.readText());
}

test('a console read is answered at the playhead without changing the run; a write still changes it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('./#/lesson/ground-rules');
  const sim = page.getByRole('region', { name: /Simulation: A calm afternoon/ });
  const hash = sim.getByTestId('trace-hash');
  await expect(hash).toHaveText(/^[0-9a-f]{16}$/, { timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('1');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  const fingerprint = await hash.textContent();
  const linkBefore = await shareLink(page, sim);
  const transcript = sim.getByRole('list', { name: 'Console' });

  await send(sim, 'GET lock');
  const get = transcript.getByRole('listitem').filter({ hasText: 'GET lock' });
  await expect(get).toContainText('1 s Redis>');
  // The lock a barista holds at 1 s: its value is the holder's, quoted as redis-cli quotes it.
  await expect(get.locator('.console-reply')).toHaveText(/^".+"$/);
  await send(sim, 'TTL lock');
  await expect(transcript.getByRole('listitem').filter({ hasText: 'TTL lock' }).locator('.console-reply')).toHaveText(
    /^\(integer\) \d+$/,
  );
  await send(sim, 'EXISTS lock');
  await expect(
    transcript.getByRole('listitem').filter({ hasText: 'EXISTS lock' }).locator('.console-reply'),
  ).toHaveText('(integer) 1');

  await expect(sim.getByText(/You changed this run/)).toHaveCount(0);
  await expect(hash).toHaveText(fingerprint!);
  expect(await shareLink(page, sim)).toBe(linkBefore);
  // Stepping back before a read hides it, as it hides a written command.
  await sim.getByLabel('Go to time (s)').fill('0.5');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(commandLine(transcript, 'GET lock')).toHaveCount(0);
  await sim.getByLabel('Go to time (s)').fill('1');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();

  await send(sim, 'SET x 1');
  await expect(transcript.getByRole('listitem').filter({ hasText: 'SET x 1' })).toContainText('OK');
  await expect(sim.getByText(/You changed this run 1 time\./)).toBeVisible();
  await expect(hash).not.toHaveText(fingerprint!);
  expect(await shareLink(page, sim)).not.toBe(linkBefore);
  // The reads are still there, answered again in the changed run, and see what it wrote.
  await expect(commandLine(transcript, 'GET lock')).toHaveCount(1);
  await send(sim, 'GET x');
  await expect(transcript.getByRole('listitem').filter({ hasText: 'GET x' }).locator('.console-reply')).toHaveText(
    '"1"',
  );
  await expect(sim.getByText(/You changed this run 1 time\./)).toBeVisible();
});

test("a crashed barista's line in the inspector names its state once", async ({ page }) => {
  await page.goto('./#/lesson/espresso-machine');
  const sim = page.getByRole('region', { name: /Simulation: The holder collapses, the note stays/ });
  await expect(sim.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/, { timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('1');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  const line = sim.getByRole('listitem').filter({ hasText: /^Barista A .*believes it holds/ });
  await expect(line).toHaveText(/^Barista A crashed believes it holds nothing\.$/);
});

import { axeViolations } from './support/axe';
import { expect, test, type Locator } from '@playwright/test';
import { commandLine, consoleWarnings } from './support/player';

/**
 * The console flags a destructive command with a warning that names the risk, shows it in the
 * transcript and announces it, and runs the command all the same (issue 15). Driven on the paused
 * barista lesson, where Barista A holds `lock` on r1 from the start, on a laptop and on a phone.
 */

async function send(sim: Locator, command: string) {
  const line = sim.getByRole('textbox', { name: /Command for/ });
  await line.fill(command);
  await line.press('Enter');
  // The command is in the transcript once the run that includes it is back from the worker.
  await expect(commandLine(sim.getByRole('list', { name: 'Console' }), command).last()).toBeVisible();
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`destructive console commands are flagged and still run (${viewport.width}×${viewport.height})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('./#/lesson/paused-barista');
    const sim = page.getByRole('region', { name: /Simulation: The paused barista/ });
    await expect(sim.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/, { timeout: 20_000 });
    await sim.getByLabel('Go to time (s)').fill('1');
    await sim.getByRole('button', { name: 'Go', exact: true }).click();
    const transcript = sim.getByRole('list', { name: 'Console' });
    const warnings = consoleWarnings(transcript);

    // A harmless read: no warning.
    await send(sim, 'GET lock');
    await expect(warnings).toHaveCount(0);

    // Deleting the lock Barista A holds: warned, named, announced, and done (the reply is 1).
    await send(sim, 'DEL lock');
    const del = transcript.getByRole('listitem').filter({ hasText: 'DEL lock' });
    const delWarning = consoleWarnings(del);
    await expect(delWarning).toContainText('Warning: DEL removes lock, the lock Barista A holds');
    await expect(delWarning).toBeInViewport();
    await expect(del).toContainText('(integer) 1');
    await expect(sim.getByRole('status').filter({ hasText: /^Warning: DEL removes lock/ })).toHaveCount(1);
    const box = await delWarning.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);

    // A lock with no expiry, then FLUSHALL: each warned, each run.
    await send(sim, 'SET mine me NX');
    await expect(transcript.getByRole('listitem').filter({ hasText: 'SET mine me NX' })).toContainText(
      'takes mine with no expiry',
    );
    await expect(transcript.getByRole('listitem').filter({ hasText: 'SET mine me NX' })).toContainText('OK');
    await send(sim, 'FLUSHALL');
    await expect(transcript.getByRole('listitem').filter({ hasText: 'FLUSHALL' })).toContainText(
      'FLUSHALL deletes every key on',
    );
    const announced = sim.getByRole('status').filter({ hasText: /^Warning: FLUSHALL deletes every key/ });
    await expect(announced).toHaveCount(1);
    await expect(warnings).toHaveCount(3);
    // The same warning again is announced again: the region's text changes, so it is read out.
    const first = await announced.textContent();
    await send(sim, 'FLUSHALL');
    await expect(warnings).toHaveCount(4);
    await expect.poll(() => announced.textContent()).not.toBe(first);

    // Nothing blocks: the console still takes commands, and the panel passes an accessibility scan.
    await send(sim, 'DBSIZE');
    await expect(transcript.getByRole('listitem').last()).toContainText('(integer) 0');
    expect(await axeViolations(page, { include: '.redis-console', tags: 'every rule' })).toEqual([]);
  });
}

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { runToEnd } from './support/courseWalk';

/**
 * Break it's exhaustive mode, as a learner uses it in the first clinic lesson's workbench: every
 * schedule of one fault breaks the plain DEL recipe with a single fault (loaded into the player
 * as a random find is), and finds no break in the fixed recipe, saying exactly within which
 * bounds.
 */
test('every schedule up to 1 fault: a break in the plain DEL, and a bounded claim for its fix', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('./#/lesson/clinic-plain-del');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const wb = page.getByRole('region', { name: 'Workbench: Under review: release with a plain DEL', exact: true });
  const editor = wb.getByRole('textbox', { name: 'Scenario (YAML)' });
  await expect(editor).toContainText("[DEL, 'lock:espresso']", { timeout: 20_000 });

  await wb.getByLabel('Search').selectOption({ label: 'Every schedule up to K faults' });
  await expect(wb.getByLabel('Faults (K)')).toHaveValue('1');
  await wb.getByRole('button', { name: 'Try every schedule' }).click();
  await expect(
    wb.getByText(
      /^Found after [\d,]+ of [\d,]+ schedules: 1 fault breaks released by owner at .*No schedule with fewer faults breaks it: every one was tried\.$/,
    ),
  ).toBeVisible({ timeout: 60_000 });
  await expect(wb.getByRole('list', { name: 'Fewest faults' }).getByRole('listitem')).toHaveCount(1);
  await wb.getByRole('button', { name: 'Load into the player' }).click();
  const sim = wb.getByRole('region', { name: 'Simulation: Under review: release with a plain DEL', exact: true });
  await runToEnd(sim);
  await expect(sim.getByText('Broken: released by owner', { exact: true })).toBeVisible();

  // The lesson's fixed recipe, on a coarser grid so the whole search fits in the test.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(readFileSync('lessons/scenarios/clinic-plain-del-fixed.yaml', 'utf8'));
  await expect(wb.getByText('No problems: ready to run.')).toBeVisible({ timeout: 20_000 });
  await wb.getByLabel('Grid step').selectOption('500');
  await wb.getByRole('button', { name: 'Try every schedule' }).click();
  await expect(wb.getByRole('progressbar', { name: 'Schedules covered' })).toBeVisible();
  const claim = wb.getByText(
    /^No break of released by owner exists with up to 1 fault \(pauses of 0\.5–20 s, .*\) at 500 ms steps over the first [\d.]+ s, on A, B, C and r1: [\d,]+ schedules, [\d,]+ run/,
  );
  await expect(claim).toBeVisible({ timeout: 180_000 });
  await page.screenshot({ path: test.info().outputPath('exhaustive-claim.png'), fullPage: false });
});

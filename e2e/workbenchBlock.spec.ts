import { readFileSync } from 'node:fs';
import { axeViolations } from './support/axe';
import { expect, test, type Page } from '@playwright/test';
import { FixtureSite } from './support/fixtureSite';

/**
 * The workbench block in a lesson (the fixtures course, LOCKSTEP_FIXTURES=1, built and served on
 * a port of its own so the published site never holds it): break the recipe with the explorer,
 * load the run, fix the release, and see the block say Fixed; the edit survives a reload.
 */

const FIXED = readFileSync('src/lessons/fixtures/e2e/scenarios/untokened-del-fixed.yaml', 'utf8');

const site = new FixtureSite();

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await site.start('workbench-block');
});

test.afterAll(() => site.stop());

function block(page: Page) {
  return page.getByRole('region', { name: 'Workbench: Un-tokened DEL' });
}

test('a lesson’s workbench: break the recipe, fix it, see Fixed, and find the fix kept after a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${site.base}#/lesson/workbench-block`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const wb = block(page);
  const editor = wb.getByRole('textbox', { name: 'Scenario (YAML)' });
  await expect(editor).toContainText('releases with a DEL that checks', { timeout: 20_000 });
  await expect(wb.getByText(/^Not fixed yet\./)).toBeVisible();

  // Break it: the explorer finds the clock jump, and loads the run into the block's player.
  await wb.getByRole('button', { name: 'Break it' }).click();
  await expect(wb.getByText(/^Found in \d+ runs: 1 fault breaks single writer/)).toBeVisible({ timeout: 30_000 });
  await expect(wb.getByRole('list', { name: 'Fewest faults' }).getByRole('listitem')).toHaveText([
    "At 2 s, jump r1's clock by 1 s.",
  ]);
  await expect(wb.getByText('Not fixed: the explorer still breaks single writer in this version.')).toBeVisible();
  await wb.getByRole('button', { name: 'Load into the player' }).click();
  const sim = wb.getByRole('region', { name: 'Simulation: Un-tokened DEL' });
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('999');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(sim.getByText('Broken: single writer')).toBeVisible();

  // The fix: a token-checked release. The explorer searches the budget, and the block says Fixed.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(FIXED);
  await expect(wb.getByText('No problems: ready to run.')).toBeVisible();
  await wb.getByRole('button', { name: 'Break it' }).click();
  await expect(wb.getByText(/^No run broke single writer in 500 runs\./)).toBeVisible({ timeout: 30_000 });
  await expect(
    wb.getByText(
      /^Fixed: your version passes its checks, and the explorer found no run that breaks single writer in 500 runs\./,
    ),
  ).toBeVisible({ timeout: 20_000 });

  // The block's invariant comes first, and the others can be hunted too; a search for another
  // one leaves the block's verdict to its own invariant.
  const invariant = wb.getByLabel('Break', { exact: true });
  await expect(invariant.getByRole('option').first()).toHaveText('single writer');
  expect(await invariant.getByRole('option').count()).toBeGreaterThan(5);
  await invariant.selectOption('single-holder');
  await wb.getByRole('button', { name: 'Break it' }).click();
  await expect(
    wb.getByText(/(^No run broke single holder in 500 runs\.|^Found in \d+ runs: .* breaks single holder)/),
  ).toBeVisible({ timeout: 30_000 });
  await expect(wb.getByText(/^Fixed: your version passes its checks/)).toBeVisible();

  expect(await axeViolations(page, { include: '.workbench-block', tags: 'every rule' })).toEqual([]);

  // The edit is kept for this lesson and block: reloaded once it is saved (after the editor's
  // debounce, whenever a busy machine runs it).
  const saved = () =>
    page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('lockstep.workbench-block.v1:'))
        .map((k) => localStorage.getItem(k))
        .join('\n'),
    );
  await expect.poll(saved).toContain('redis.call');
  await page.reload();
  await expect(block(page).getByRole('textbox', { name: 'Scenario (YAML)' })).toContainText('redis.call', {
    timeout: 20_000,
  });
});

test("lesson 48's Break list offers the four invariants its prose asks the learner to hunt in turn", async ({
  page,
}) => {
  await page.goto('./#/lesson/clinic-whole-recipe');
  const wb = page.getByRole('region', { name: /^Workbench: / }).first();
  const invariant = wb.getByLabel('Break', { exact: true });
  await expect(invariant.getByRole('option').first()).toHaveText('released by owner', { timeout: 20_000 });
  const offered = await invariant.getByRole('option').allTextContents();
  // "Ask the explorer for each invariant in turn": released by owner, single writer, progress, and bounded wait.
  for (const name of ['released by owner', 'single writer', 'progress', 'bounded wait'])
    expect(offered).toContain(name);
});

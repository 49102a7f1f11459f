import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../src/testing/freePort';

/**
 * The workbench block in a lesson (the fixtures course, LOCKSTEP_FIXTURES=1, built and served on
 * a port of its own so the published site never holds it): break the recipe with the explorer,
 * load the run, fix the release, and see the block say Fixed; the edit survives a reload.
 */

const FIXED = readFileSync('src/lessons/fixtures/e2e/scenarios/untokened-del-fixed.yaml', 'utf8');

let server: ChildProcess | undefined;
let outDir = '';
let base = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  outDir = mkdtempSync(join(tmpdir(), 'lockstep-e2e-workbench-block-'));
  const build = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { env: { ...process.env, LOCKSTEP_FIXTURES: '1' }, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`fixtures build failed:\n${build.stderr}`);
  const port = await freePort();
  server = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1', '--base', '/lockstep/'], { detached: true, stdio: 'ignore' });
  base = `http://127.0.0.1:${port}/lockstep/`;
  await waitFor(base);
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid);
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`preview server at ${url} did not start`);
}

function block(page: Page) {
  return page.getByRole('region', { name: 'Workbench: Un-tokened DEL' });
}

test('a lesson’s workbench: break the recipe, fix it, see Fixed, and find the fix kept after a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${base}#/lesson/workbench-block`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const wb = block(page);
  const editor = wb.getByRole('textbox', { name: 'Scenario (YAML)' });
  await expect(editor).toContainText('releases with a DEL that checks', { timeout: 20_000 });
  await expect(wb.getByText(/^Not fixed yet\./)).toBeVisible();

  // Break it: the explorer finds the clock jump, and loads the run into the block's player.
  await wb.getByRole('button', { name: 'Break it' }).click();
  await expect(wb.getByText(/^Found in \d+ runs: 1 fault breaks single writer/)).toBeVisible({ timeout: 30_000 });
  await expect(wb.getByRole('list', { name: 'Fewest faults' }).getByRole('listitem')).toHaveText(["At 2 s, jump r1's clock by 1 s."]);
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
  await expect(wb.getByText(/^Fixed: your version passes its checks, and the explorer found no run that breaks single writer in 500 runs\./)).toBeVisible({ timeout: 20_000 });

  const { violations } = await new AxeBuilder({ page }).include('.workbench-block').analyze();
  expect(violations).toEqual([]);

  // The edit is kept for this lesson and block.
  await page.waitForTimeout(500);
  await page.reload();
  await expect(block(page).getByRole('textbox', { name: 'Scenario (YAML)' })).toContainText('redis.call', { timeout: 20_000 });
});

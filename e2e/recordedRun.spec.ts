import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { axeViolations } from './support/axe';

/**
 * A run recorded on real processes (`npm run reality -- … --out run.json`; the fixture is one such
 * run of the paused barista) opens in the site: its verdicts beside the simulator's, its timeline
 * drawn from the real trace. A file that is not one is refused in plain words.
 */
const FIXTURE = 'src/reality/fixtures/paused-barista.real.json';

test('a recorded real run opens with both sides’ verdicts and its space-time diagram, and a wrong file is refused', async ({
  page,
}) => {
  await page.goto('./#/sandbox');
  await page.getByRole('link', { name: 'Open it on the recorded-run page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'A run recorded on real processes' })).toBeVisible();

  await page.getByLabel('Choose a recorded run (.json)').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"lockstep-workbench-submission","version":1}'),
  });
  await expect(page.getByRole('alert')).toContainText('"notes.json" is not a run recorded on real processes');

  await page.getByLabel('Choose a recorded run (.json)').setInputFiles(FIXTURE);
  await expect(page.getByRole('alert')).toHaveCount(0);
  const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name} `) });
  await expect(row('single-writer')).toContainText(/broken at 17\.\d+ s.*broken at 17\.\d+ s/);
  await expect(row('single-lease')).toContainText('holds');
  await expect(page.getByRole('status').filter({ hasText: 'Every verdict agrees' })).toContainText(
    '35 events, recorded at scale 0.25',
  );
  const diagram = page.getByRole('group', { name: 'Space-time diagram of paused-barista on real processes' });
  await expect(diagram).toBeVisible();
  // The real A's write after its 15 s pause lands, with no token, and the broken invariant is marked.
  await expect(diagram.getByRole('button', { name: "Espresso machine accepted Barista A's write." })).toBeAttached();
  await expect(
    diagram.getByRole('button', {
      name: /^Barista B took the lock at 11\.\d+ s while Barista A still believed it held it/,
    }),
  ).toBeAttached();
  // Every command was answered: the real run's messages arrive, none is drawn as still on its way.
  const legend = page.getByRole('list', { name: 'Timeline legend' });
  if (!(await legend.isVisible())) await page.getByText('What the marks mean', { exact: true }).click();
  await expect(legend).toContainText('Message');
  await expect(legend).not.toContainText('Message still on its way');
  expect(await axeViolations(page)).toEqual([]);
});

test('a recorded run from a newer Lockstep names both versions', async ({ page }) => {
  await page.goto('./#/recorded');
  const newer = { ...JSON.parse(readFileSync(FIXTURE, 'utf8')), version: 2 };
  await page
    .getByLabel('Choose a recorded run (.json)')
    .setInputFiles({ name: 'newer.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(newer)) });
  await expect(page.getByRole('alert')).toContainText('newer Lockstep (format version 2; this site reads version 1)');
  await expect(page.getByRole('table')).toHaveCount(0);
});

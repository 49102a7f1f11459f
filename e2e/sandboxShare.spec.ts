import { expect, test, type Page } from '@playwright/test';
import { player } from './support/player';

/**
 * Sandbox files and links that used to go wrong: a run of a step-list scenario shared as a link
 * must open for the receiver as the same run, and a YAML alias bomb is reported at its place.
 */

const STEPS_YAML = `id: steps-share
title: Steps by hand
seed: 5
clients:
  - id: A
    label: Barista A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 4000] }
      - { wait: 1s }
      - { write: espresso }
      - { redis: [DEL, lock] }
  - { id: B, label: Barista B, recipe: lease-with-token, ttl: 10s, work: 2s, startAt: 500ms }
resource: { id: espresso, label: Espresso machine }
controls: [pause, resume, crash]
`;

const BOMB_YAML = [
  'id: bomb',
  'title: Bomb',
  'a: &a [x, x, x, x, x, x, x, x, x, x]',
  ...'bcdef'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdef'[i]}`).join(', ')}]`),
  'clients: [{ id: A, recipe: lease-with-token, ttl: 10s }]',
  'resource: { id: e }',
  '',
].join('\n');

const stepsByHand = (page: Page) => player(page, /Steps by hand/);

async function openSandbox(page: Page) {
  await page.goto('./#/sandbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Sandbox' })).toBeVisible();
}

test('a shared run of a step-list scenario opens as the same run', async ({ page, context }) => {
  await openSandbox(page);
  await page
    .getByLabel('Choose a YAML file')
    .setInputFiles({ name: 'steps.yaml', mimeType: 'text/yaml', buffer: Buffer.from(STEPS_YAML) });
  const sim = stepsByHand(page);
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  const hash = await sim.getByTestId('trace-hash').textContent();

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await sim.getByRole('button', { name: 'Share this run' }).click();
  const link = await sim.getByLabel('Link to this run').inputValue();

  const other = await context.newPage();
  await other.goto(link);
  await expect(stepsByHand(other).getByTestId('trace-hash')).toHaveText(hash!, { timeout: 20_000 });
  await expect(other.getByRole('alert')).toHaveCount(0);
  await other.close();
});

test('a YAML alias bomb is reported at its place, like any YAML error', async ({ page }) => {
  await openSandbox(page);
  await page
    .getByLabel('Choose a YAML file')
    .setInputFiles({ name: 'bomb.yaml', mimeType: 'text/yaml', buffer: Buffer.from(BOMB_YAML) });
  await expect(page.getByRole('alert').filter({ hasText: 'bomb.yaml has 1 problem' })).toContainText(
    'bomb.yaml:4:8: the aliases here (*name) expand to too many values',
  );
});

test('on a phone every field of every sandbox client is on screen, named, and the page never scrolls sideways', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./#/sandbox');
  const controls = [
    /^Name of client A$/,
    /^Recipe of client A$/,
    /^TTL of client A/,
    /^Work time of client A/,
    /^Start time of client A/,
  ];
  for (const name of controls) {
    const box = (await page.getByLabel(name).boundingBox())!;
    expect(box.x, `${name}`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name}`).toBeLessThanOrEqual(390);
  }
  const remove = (await page.getByRole('button', { name: 'Remove A' }).boundingBox())!;
  expect(remove.x + remove.width).toBeLessThanOrEqual(390);
  // Each field keeps a visible name on the card, not only an accessible one.
  await expect(page.locator('.sandbox-clients td[data-label="TTL (s)"]').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

import { expect, test } from '@playwright/test';
import { whatHappened, writes } from './support/player';

/**
 * Players with many actors. Lesson 13's fifty baristas: the player offers one actor's buttons at
 * a time, picked from a list, and "Inside the world" counts the clients that hold nothing rather
 * than listing fifty lines. Listed in full, the two made the player about 10,000 px tall, with the
 * dashboard under it. Lesson 10's eight actors: their buttons take the player's whole width, side
 * by side, rather than a 1,700 px column beside two short panels.
 */
for (const { name, viewport } of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`at ${name} size, a herd's player picks one actor's buttons from a list and keeps its dashboard close`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('./#/lesson/misconceptions-herd');
    const block = page.getByRole('region', { name: /^Dashboard: Fifty baristas retry/ });
    const sim = block.getByRole('region', { name: /Simulation: Fifty baristas retry/ });
    await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
    // The learner scrolls to it (below the fold, it draws its panels when near or when the page is idle).
    await sim.scrollIntoViewIfNeeded();
    // On a phone the fault buttons fold behind a button (lesson 9's player taught that).
    if (name === 'phone') await sim.getByRole('button', { name: 'Break things' }).click();

    const pick = block.getByLabel(/Buttons for one of 52 actors/);
    await expect(pick).toBeVisible();
    await expect(block.getByRole('button', { name: /^Pause Barista \d+ for 15 s$/ })).toHaveCount(1);
    await pick.selectOption({ label: 'Barista 7 (running)' });
    await block.getByRole('button', { name: 'Pause Barista 7 for 15 s' }).click();
    await expect(block.getByText('You changed this run 1 time.')).toBeVisible({ timeout: 20_000 });

    // Inside the world: the paused barista by name, the others counted.
    const inside = block.getByRole('list', { name: 'Clients that believe they hold a lock or are not running' });
    await expect(inside.getByText('Barista 7', { exact: true })).toBeVisible({ timeout: 10_000 });
    await expect(block.getByText(/^The other 49 \(.+\) believe they hold nothing\.$/)).toBeVisible();

    // The dashboard's metrics sit within a few screens of the player's top, not ten thousand pixels on.
    const heading = block.getByRole('heading', { name: 'Lock metrics for this run' });
    const distance = await heading.evaluate(
      (h, top) => h.getBoundingClientRect().top - top,
      await sim.evaluate((s) => s.getBoundingClientRect().top),
    );
    expect(distance).toBeLessThan(viewport.height * (name === 'phone' ? 6 : 3));

    // Every client is still a click away.
    await block.getByText('Every client (50)').click();
    await expect(block.getByRole('list', { name: 'Every client', exact: true }).getByRole('listitem')).toHaveCount(50);
  });
}

test("at desktop size, eight actors' buttons take the whole width above the other panels, side by side", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#/lesson/sentinel-mitigations');
  const sim = page.getByRole('region', { name: /^Simulation: / }).first();
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
  const panels = sim.locator('.player-panels');
  const faults = panels.getByRole('group', { name: /^Break things at / });
  const verdicts = whatHappened(panels);
  const [all, buttons, said] = await Promise.all([panels.boundingBox(), faults.boundingBox(), verdicts.boundingBox()]);
  expect(buttons!.width).toBeGreaterThan(all!.width - 2);
  expect(said!.y).toBeGreaterThan(buttons!.y + buttons!.height - 1);
  // Two actors' rows side by side: the second row starts level with the first.
  const rows = faults.getByRole('list', { name: 'Actors', exact: true }).getByRole('listitem');
  expect(await rows.count()).toBeGreaterThanOrEqual(5);
  const [first, second] = await Promise.all([rows.nth(0).boundingBox(), rows.nth(1).boundingBox()]);
  expect(Math.abs(second!.y - first!.y)).toBeLessThan(4);
  // Stacked in one column, the same buttons made a panel of about 1,700 px.
  expect(buttons!.height).toBeLessThan(900);
});

test("at the end of the herd's run, the resource log counts its fifty writes and lists the latest, the rest a click away", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#/lesson/misconceptions-herd');
  const sim = page.getByRole('region', { name: /Simulation: Fifty baristas retry/ });
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
  await sim.getByLabel('Go to time (s)').fill('999');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();

  const said = whatHappened(sim);
  await expect(said.getByText('50 writes so far: 50 accepted, 0 rejected. The latest:')).toBeVisible();
  await expect(writes(said)).toHaveCount(5);
  // The four verdicts' explanations take about 700 px of this column; listed whole, the fifty
  // writes added some 3,000 px under them.
  expect((await said.boundingBox())!.height).toBeLessThan(1_500);
  await said.getByText('Every write (50)').click();
  const everyWrite = said.getByRole('list', { name: 'Every write', exact: true }).getByRole('listitem');
  await expect(everyWrite).toHaveCount(50);
  await expect(everyWrite.first()).toContainText(/accepted/);
});

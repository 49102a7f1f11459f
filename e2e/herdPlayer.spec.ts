import { expect, test } from '@playwright/test';

/**
 * Lesson 13's fifty baristas: the player offers one actor's buttons at a time, picked from a
 * list, and "Inside the world" counts the clients that hold nothing rather than listing fifty
 * lines. Listed in full, the two made the player about 10,000 px tall, with the dashboard under it.
 */
for (const { name, viewport } of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`at ${name} size, a herd's player picks one actor's buttons from a list and keeps its dashboard close`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('./#/lesson/misconceptions-herd');
    const block = page.getByRole('region', { name: /^Dashboard: Fifty baristas retry/ });
    const sim = block.getByRole('region', { name: /Simulation: Fifty baristas retry/ });
    await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
    // On a phone the fault buttons fold behind a button (lesson 9's player taught that).
    if (name === 'phone') await sim.getByRole('button', { name: 'Break things' }).click();

    const pick = block.getByLabel(/Buttons for one of 52 actors/);
    await expect(pick).toBeVisible();
    await expect(block.getByRole('button', { name: /^Pause Barista \d+ for 15 s$/ })).toHaveCount(1);
    await pick.selectOption({ label: 'Barista 7 (running)' });
    await block.getByRole('button', { name: 'Pause Barista 7 for 15 s' }).click();
    await expect(block.getByText('You changed this run 1 time.')).toBeVisible({ timeout: 20_000 });

    // Inside the world: the paused barista by name, the others counted.
    const inside = block.locator('.inspector-clients').first();
    await expect(inside.getByText('Barista 7', { exact: true })).toBeVisible({ timeout: 10_000 });
    await expect(block.getByText(/^The other 49 \(.+\) believe they hold nothing\.$/)).toBeVisible();

    // The dashboard's metrics sit within a few screens of the player's top, not ten thousand pixels on.
    const heading = block.getByRole('heading', { name: 'Lock metrics for this run' });
    const distance = await heading.evaluate((h, top) => h.getBoundingClientRect().top - top, await sim.evaluate((s) => s.getBoundingClientRect().top));
    expect(distance).toBeLessThan(viewport.height * (name === 'phone' ? 6 : 3));

    // Every client is still a click away.
    await block.getByText('Every client (50)').click();
    await expect(block.locator('.inspector-every-client li')).toHaveCount(50);
  });
}

import { axeViolations } from './support/axe';
import { expect, test } from '@playwright/test';

/**
 * Issue 16: "show each actor's statechart beside its lane on request, its current state lit as
 * the playhead moves"; issue 35: opened right under its row it covered the lanes below. The chart
 * opens under the diagram with its lane outlined, covers no lane and none of the playback
 * controls, fits a phone, and Escape closes it and gives focus back to the lane's menu.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** Whether two boxes overlap. */
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const { name, viewport } of SIZES) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test('an actor’s statechart opens under the diagram, covering no lane, with its lane outlined, and follows the playhead', async ({
      page,
    }) => {
      await page.goto('./#/lesson/paused-barista');
      const sim = page.getByRole('region', { name: /Simulation: The paused barista$/ }).first();
      const step = sim.getByRole('button', { name: 'Step', exact: true });
      await expect(step).toBeEnabled({ timeout: 20_000 });
      const menu = sim.getByRole('button', { name: 'Actions for Barista A' });
      await menu.click();
      await sim.getByRole('button', { name: 'Show its statechart' }).click();
      const chart = sim.getByRole('region', { name: 'Barista A’s statechart' });
      await expect(chart).toBeVisible();

      // Barista A's row, as the diagram draws it (its label's background spans the row).
      const label = sim.locator('g.tl-lane-label', {
        has: page.locator('text.tl-label-name', { hasText: /^Barista A$/ }),
      });
      const row = (await label.locator('rect.tl-label-bg').boundingBox())!;
      const box = (await chart.boundingBox())!;
      // Under the diagram, covering none of its lanes (it covered Barista B's before issue 35).
      const frame = (await sim.locator('.timeline-frame').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(frame.y + frame.height - 1);
      for (const lane of await sim.locator('g.tl-lane-label rect.tl-label-bg').all())
        expect(overlap(box, (await lane.boundingBox())!)).toBe(false);
      // The lane it belongs to is outlined.
      const highlight = (await sim.locator('.timeline-lane-highlight').boundingBox())!;
      expect(Math.abs(highlight.y - row.y)).toBeLessThanOrEqual(2);
      expect(Math.abs(highlight.y + highlight.height - (row.y + row.height))).toBeLessThanOrEqual(2);

      // It fits the screen and covers none of the playback controls.
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      for (const control of await sim.getByRole('toolbar', { name: 'Playback' }).locator('button, input').all()) {
        if (!(await control.isVisible())) continue;
        expect(overlap(box, (await control.boundingBox())!)).toBe(false);
      }
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
      ).toBe(true);
      // Its words stay readable: scaled to fit a laptop they were 8 px high (6.7 px type); a
      // diagram too wide to fit at 80% scrolls sideways instead.
      const wordHeights = await chart
        .locator('svg text')
        .evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect().height));
      expect(Math.min(...wordHeights)).toBeGreaterThanOrEqual(10);

      // Nothing is covered, so Barista B's menu still takes focus.
      const menuB = sim.getByRole('button', { name: 'Actions for Barista B' });
      expect(await menuB.evaluate((el) => el.closest('[inert]') === null)).toBe(true);

      // Stepping with the chart open lights the state at the playhead.
      const now = chart.getByTestId('statechart-now');
      const before = await now.innerText();
      for (let i = 0; i < 40 && (await now.innerText()) === before; i++) await step.click();
      expect(await now.innerText()).not.toBe(before);
      const lit = chart.locator('.statechart-box[aria-current="step"]');
      await expect(lit).toHaveCount(1);
      // Open over the lanes, the chart and the diagram around it have no axe violation.
      expect(await axeViolations(page, { include: '.timeline-frame' })).toEqual([]);

      // Escape closes it and focus goes back to the lane's menu.
      await chart.getByRole('button', { name: 'Close' }).focus();
      await page.keyboard.press('Escape');
      await expect(chart).toHaveCount(0);
      await expect(sim.locator('.timeline-lane-highlight')).toHaveCount(0);
      await expect(menu).toBeFocused();

      // Issue 35: Escape closes it with focus outside it too (here on Step, after stepping).
      await menu.click();
      await sim.getByRole('button', { name: 'Show its statechart' }).click();
      await expect(chart).toBeVisible();
      await step.focus();
      await page.keyboard.press('Escape');
      await expect(chart).toHaveCount(0);
    });
  });
}

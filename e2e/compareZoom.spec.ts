import { expect, test, type Locator } from '@playwright/test';
import { players } from './support/player';

/**
 * Issue 16: "Compare sides share one playhead and zoom". Lesson 6's compare block shows the
 * same afternoon without and with the fence; zooming or panning one side's timeline shows the
 * same seconds on the other, so the two pictures stay comparable mark for mark.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** A loaded machine can take a while to settle a zoom on both sides. */
const settled = { timeout: 10_000 };

/** The time axis's tick labels: the seconds a timeline shows. */
const ticks = (side: Locator) => side.locator('svg.tl-root .tl-axis g.tick text').allTextContents();

for (const { name, viewport } of SIZES) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test('zooming or panning one side of a compare block zooms and pans the other', async ({ page }) => {
      await page.goto('./#/lesson/fencing-tokens');
      const block = page.getByRole('region', { name: 'The same afternoon, without and with the fence' });
      const [left, right] = [players(block).nth(0), players(block).nth(1)];
      // Each side's run is complete (its fingerprint shown) before the axes are read.
      for (const side of [left, right]) {
        await expect(side.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
        await expect(side.getByTestId('trace-hash')).not.toBeEmpty();
      }
      await block.scrollIntoViewIfNeeded();
      // Both sides are as wide, so the same seconds make the same ticks.
      const [lw, rw] = [
        (await left.locator('svg.tl-root').boundingBox())!.width,
        (await right.locator('svg.tl-root').boundingBox())!.width,
      ];
      expect(Math.abs(lw - rw)).toBeLessThan(1);
      const atRest = await ticks(right);
      // Both read together on each poll: a zoom lands on the next frame, after the click returns.
      const same = async () => JSON.stringify(await ticks(left)) === JSON.stringify(await ticks(right));

      for (let i = 0; i < 3; i++) await left.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(() => ticks(right), settled).not.toEqual(atRest);
      await expect.poll(same, settled).toBe(true);
      expect((await ticks(right)).length).toBeGreaterThan(1);

      // Panned by keyboard on the right: the left follows.
      const zoomed = await ticks(left);
      await right.locator('svg.tl-root').focus();
      await expect(right.locator('svg.tl-root')).toBeFocused();
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => ticks(left), settled).not.toEqual(zoomed);
      await expect.poll(same, settled).toBe(true);

      // Fit to run on either side brings both back.
      await right.getByRole('button', { name: 'Fit to run' }).click();
      await expect.poll(() => ticks(left), settled).toEqual(atRest);
      await expect.poll(() => ticks(right), settled).toEqual(atRest);
    });
  });
}

import { expect, test, type Locator } from '@playwright/test';

/**
 * Issue 16: "Compare sides share one playhead and zoom". Lesson 6's compare block shows the
 * same afternoon without and with the fence; zooming or panning one side's timeline shows the
 * same seconds on the other, so the two pictures stay comparable mark for mark.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

/** The time axis's tick labels: the seconds a timeline shows. */
const ticks = (side: Locator) => side.locator('svg.tl-root .tl-axis g.tick text').allTextContents();

for (const { name, viewport } of SIZES) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test('zooming or panning one side of a compare block zooms and pans the other', async ({ page }) => {
      await page.goto('./#/lesson/fencing-tokens');
      const block = page.getByRole('region', { name: 'The same afternoon, without and with the fence' });
      const [left, right] = [block.locator('.compare-side').nth(0), block.locator('.compare-side').nth(1)];
      for (const side of [left, right]) await expect(side.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
      await block.scrollIntoViewIfNeeded();
      // Both sides are as wide, so the same seconds make the same ticks.
      const [lw, rw] = [(await left.locator('svg.tl-root').boundingBox())!.width, (await right.locator('svg.tl-root').boundingBox())!.width];
      expect(Math.abs(lw - rw)).toBeLessThan(1);
      const atRest = await ticks(right);

      for (let i = 0; i < 3; i++) await left.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(() => ticks(right)).not.toEqual(atRest);
      await expect.poll(() => ticks(right)).toEqual(await ticks(left));
      expect((await ticks(right)).length).toBeGreaterThan(1);

      // Panned by keyboard on the right: the left follows.
      const zoomed = await ticks(left);
      await right.locator('svg.tl-root').focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => ticks(left)).not.toEqual(zoomed);
      await expect.poll(() => ticks(left)).toEqual(await ticks(right));

      // Fit to run on either side brings both back.
      await right.getByRole('button', { name: 'Fit to run' }).click();
      await expect.poll(() => ticks(left)).toEqual(atRest);
      await expect.poll(() => ticks(right)).toEqual(atRest);
    });
  });
}

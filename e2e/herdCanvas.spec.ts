import { expect, test, type Locator } from '@playwright/test';

/**
 * Issue 14: fifty unfolded lanes keep zoom frames under 16 ms because the canvas paints only the
 * rows on screen (src/timeline/layers/visibleRows.ts). What a learner must never see is a blank
 * stretch: wherever the page is scrolled, the canvas covers the lanes on screen, and has marks there.
 */

/** The plot rows on screen and what the canvas covers, in plot pixels, plus painted pixels in the rows on screen. */
const coverage = (svg: Locator) =>
  svg.evaluate((el) => {
    const fo = el.querySelector('foreignObject.tl-canvas-host')!;
    const canvas = fo.querySelector('canvas')!;
    // The plot's own box (under the axis row), as drawn: the test need not know the axis's height.
    const plotBox = el.querySelector('g.tl-plot rect.tl-plot-bg')!.getBoundingClientRect();
    const plotTop = plotBox.top;
    const plotHeight = plotBox.height;
    const shownTop = Math.max(0, -plotTop);
    const shownBottom = Math.min(plotHeight, innerHeight - plotTop);
    const top = Number(fo.getAttribute('y'));
    const height = Number(fo.getAttribute('height'));
    const ratio = canvas.width / Number(fo.getAttribute('width'));
    const pixels = canvas
      .getContext('2d')!
      .getImageData(
        0,
        Math.round((shownTop - top) * ratio),
        canvas.width,
        Math.max(1, Math.round((shownBottom - shownTop) * ratio)),
      ).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++;
    return { shownTop, shownBottom, top, bottom: top + height, plotHeight, painted };
  });

for (const { name, viewport } of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`at ${name} size, the fifty lanes' canvas covers and paints the lanes on screen wherever the page is scrolled`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('./#/lesson/misconceptions-herd');
    const sim = page.getByRole('region', { name: /Simulation: Fifty baristas/ }).first();
    await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
    await sim.getByRole('button', { name: 'Show each of the 50 clients' }).click();
    const svg = sim.locator('svg.tl-root');
    await expect(sim.locator('g.tl-lane-label')).toHaveCount(52);
    await sim.getByRole('slider').first().focus();
    await page.keyboard.press('End');
    for (const fraction of [0.2, 0.55, 0.9]) {
      // Scrolls so that the row at this fraction of the plot is at the top of the screen.
      await svg.evaluate(
        (el, f) => window.scrollBy(0, el.getBoundingClientRect().top + el.getBoundingClientRect().height * f),
        fraction,
      );
      await expect
        .poll(async () => {
          const c = await coverage(svg);
          return c.top <= c.shownTop && c.bottom >= c.shownBottom && c.painted > 1000;
        })
        .toBe(true);
      const c = await coverage(svg);
      // Only a band of the 3,200 px plot is painted.
      expect(c.bottom - c.top).toBeLessThan(c.plotHeight / 2);
    }
  });
}

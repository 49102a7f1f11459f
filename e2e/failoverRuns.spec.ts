import { axeViolations } from './support/axe';
import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * Issue 35, "the failover runs": a failover lesson's timeline explains every mark it draws, labels
 * Sentinel's stages on its lanes, and draws a sentinel's statechart as a diagram under the lanes,
 * on a laptop and on a phone.
 */

const SIZES = [
  { name: 'laptop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The lesson's fencing-after-failover run, its playhead moved to `seconds`. */
async function failoverRun(page: Page, seconds: string): Promise<Locator> {
  await page.goto('./#/lesson/sentinel-mitigations');
  const sim = page
    .getByRole('region', { name: /Simulation: Fencing refuses the stale writer after a failover$/ })
    .first();
  await expect(sim.getByRole('button', { name: 'Step', exact: true })).toBeEnabled({ timeout: 20_000 });
  await sim.getByLabel(/Go to time/).fill(seconds);
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  // A phone opens the run zoomed on its key writes (momentZoom.ts); the failover is followed on the whole run.
  await sim.getByRole('button', { name: 'Fit to run' }).click();
  await expect(sim.locator('.timeline-svg-host g.tl-glyph.tl-sentinel').first()).toBeAttached();
  return sim;
}

/** A lane's row as drawn (its label's background spans it). */
const laneRow = (sim: Locator, name: string) =>
  sim
    .locator('g.tl-lane-label', { has: sim.page().locator('text.tl-label-name', { hasText: new RegExp(`^${name}$`) }) })
    .locator('rect.tl-label-bg');

for (const { name, viewport } of SIZES) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });

    test('the legend explains the failover’s marks with the symbols drawn, none alike', async ({ page }) => {
      const sim = await failoverRun(page, '10');
      // On a phone the key is folded away under the diagram.
      const legend = sim.getByRole('list', { name: 'Timeline legend' });
      if (!(await legend.isVisible())) await sim.getByText('What the marks mean', { exact: true }).click();
      const entries = legend.getByRole('listitem');
      // No "Failover" yellow circle that reads as an accepted write.
      await expect(entries.filter({ hasText: /^Failover$/ })).toHaveCount(0);
      const stage = legend.locator('li[data-marks="sentinel"]');
      await expect(stage).toContainText('Sentinel’s stage: SDOWN, ODOWN, election, promotion');
      const toCrashed = legend.locator('li[data-marks="messageToCrashed"]');
      await expect(toCrashed).toContainText('Message to a crashed process');

      // The sentinel's mark is the legend's square: same corner, same colour.
      const drawnStage = sim.locator('.timeline-svg-host g.tl-sentinel rect.tl-hit').first();
      const swatchStage = stage.locator('svg rect').first();
      for (const attr of ['rx', 'stroke'])
        expect(await drawnStage.getAttribute(attr)).toBe(await swatchStage.getAttribute(attr));
      // The PINGs to the dead primary end on the primary's row, crossed in the legend's ink.
      const crosses = sim.locator('.timeline-svg-host g.tl-msg path.tl-cross');
      expect(await crosses.count()).toBeGreaterThan(3);
      const primary = (await laneRow(sim, 'Primary').boundingBox())!;
      const swatchCross = toCrashed.locator('svg path').last();
      for (const cross of (await crosses.all()).slice(0, 6)) {
        const box = (await cross.boundingBox())!;
        expect(box.y + box.height / 2).toBeGreaterThan(primary.y);
        expect(box.y + box.height / 2).toBeLessThan(primary.y + primary.height);
        expect(await cross.getAttribute('stroke')).toBe(await swatchCross.getAttribute('stroke'));
      }
    });

    test('each sentinel’s lane names its failover stages, unclipped, with a tooltip and an accessible name', async ({
      page,
    }) => {
      const sim = await failoverRun(page, '10');
      const host = (await sim.locator('.timeline-svg-host').boundingBox())!;
      for (const sentinel of ['Sentinel s1', 'Sentinel s2', 'Sentinel s3']) {
        const row = (await laneRow(sim, sentinel).boundingBox())!;
        const marks = sim.locator('.timeline-svg-host g.tl-sentinel');
        let found = false;
        for (const mark of await marks.all()) {
          const box = (await mark.locator('rect.tl-hit').boundingBox())!;
          if (box.y < row.y || box.y > row.y + row.height) continue;
          found = true;
          // Every stage the prose follows, down to s3's promotion (cut off on a phone once).
          for (const word of sentinel === 'Sentinel s3'
            ? ['SDOWN', 'ODOWN', 'elected', 'promoted']
            : ['SDOWN', 'ODOWN', 'voted']) {
            const text = mark.locator('text.tl-token', { hasText: new RegExp(`^${word}$`) });
            await expect(text).toBeVisible();
            const t = (await text.boundingBox())!;
            // Inside the drawing and the screen, and inside its own lane's row (give or take its 1.5 px halo).
            expect(t.x + t.width).toBeLessThanOrEqual(Math.min(host.x + host.width, viewport.width) + 2);
            expect(t.y).toBeGreaterThanOrEqual(row.y - 2);
            expect(t.y + t.height).toBeLessThanOrEqual(row.y + row.height + 2);
          }
          // Focused, it names every step, and its tooltip says the same.
          await mark.focus();
          await expect(mark).toHaveAttribute('aria-label', /thinks Primary is down \(subjectively\)/);
          await expect(mark).toHaveAttribute(
            'aria-label',
            sentinel === 'Sentinel s3' ? /promoted Replica to primary/ : /votes for Sentinel s3/,
          );
          await expect(sim.locator('.timeline-svg-host g.tl-tooltip')).toContainText('subjectively');
        }
        expect(found, `${sentinel} has a stage mark on its row`).toBe(true);
      }
    });

    test('a sentinel’s statechart is a diagram under the lanes, its state lit at the playhead, and Escape closes it', async ({
      page,
    }) => {
      // An axe scan of a player takes a while on a shared two-core machine.
      test.setTimeout(60_000);
      const sim = await failoverRun(page, '3.08');
      const menu = sim.getByRole('button', { name: 'Actions for Sentinel s3' });
      await menu.click();
      await sim.getByRole('button', { name: 'Show its statechart' }).click();
      const chart = sim.getByRole('region', { name: 'Sentinel s3’s statechart' });
      await expect(chart).toBeVisible();
      const diagram = chart.getByRole('img');
      await expect(diagram).toHaveAccessibleName(/states and \d+ arrows; now in Election/);
      // States named as the lesson names them, the one at the playhead lit.
      for (const state of [
        'Monitoring',
        'SDOWN (subjectively down)',
        'ODOWN (objectively down)',
        'Election',
        'Promotion (failing over)',
      ])
        await expect(diagram.locator('.statechart-box text', { hasText: state })).toHaveCount(1);
      await expect(diagram.locator('.statechart-box[aria-current="step"] text')).toHaveText('Election');
      await expect(diagram.locator('.statechart-arrow text', { hasText: 'majority voted for it' })).toBeVisible();
      await expect(diagram.locator('text', { hasText: /VOTES|OPINIONS|xstate/ })).toHaveCount(0);

      // Under the lanes, covering none of them; the lane it belongs to outlined.
      const box = (await chart.boundingBox())!;
      const frame = (await sim.locator('.timeline-frame').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(frame.y + frame.height - 1);
      for (const lane of await sim.locator('g.tl-lane-label rect.tl-label-bg').all())
        expect(overlap(box, (await lane.boundingBox())!)).toBe(false);
      const row = (await laneRow(sim, 'Sentinel s3').boundingBox())!;
      const highlight = (await sim.locator('.timeline-lane-highlight').boundingBox())!;
      expect(Math.abs(highlight.y - row.y)).toBeLessThanOrEqual(2);
      // The whole drawing fits the screen's width.
      const drawn = (await diagram.boundingBox())!;
      expect(drawn.x).toBeGreaterThanOrEqual(0);
      expect(drawn.x + drawn.width).toBeLessThanOrEqual(viewport.width);
      expect(await axeViolations(page, { include: '.timeline-view' })).toEqual([]);

      // Stepping on moves the light with the playhead (the election is won, the replica promoted).
      const lit = diagram.locator('.statechart-box[aria-current="step"] text');
      for (let i = 0; i < 20 && (await lit.textContent()) === 'Election'; i++)
        await sim.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(lit).toHaveText(/^(Promotion \(failing over\)|Monitoring)$/);
      await expect(diagram).toHaveAccessibleName(
        new RegExp(`now in ${(await lit.textContent())!.replace(/[()]/g, '\\$&')}`),
      );

      // Escape closes it, focus on Step (outside it).
      await sim.getByRole('button', { name: 'Step', exact: true }).focus();
      await page.keyboard.press('Escape');
      await expect(chart).toHaveCount(0);
      await expect(sim.locator('.timeline-lane-highlight')).toHaveCount(0);
    });
  });
}

import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * The timeline's lanes (issues 14 and 16): a herd of fifty clients in one summary lane that
 * unfolds; the whole run fitting a phone, with every lane menu reachable and big enough to hit;
 * lesson 9's player not a tower of panels on a phone; an actor's statechart beside its lane,
 * lit as the playhead moves.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

async function open(page: Page, hash: string, title: RegExp): Promise<Locator> {
  await page.goto(`./${hash}`);
  const sim = page.getByRole('region', { name: title }).first();
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeVisible({ timeout: 20_000 });
  // As a learner would: scroll to the player before using it. A player below the fold draws its
  // timeline and panels when it comes near, or in an idle moment, which a busy machine may not have.
  await sim.scrollIntoViewIfNeeded();
  return sim;
}

/** Whether the page itself scrolls sideways (it must not: only the plot may). */
const pageScrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

for (const { name, viewport } of SIZES) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test('the whole run fits the screen by default, every lane menu is reachable and big enough, and the page never scrolls sideways', async ({
      page,
    }) => {
      const sim = await open(page, '#/lesson/replication-lost-lock', /Simulation: /);
      const host = sim.locator('.timeline-svg-host').first();
      const svg = host.locator('svg.tl-root');
      const hostBox = (await host.boundingBox())!;
      const svgBox = (await svg.boundingBox())!;
      // Fitted: the diagram is no wider than its frame, so nothing of the run is off to the right.
      expect(svgBox.width).toBeLessThanOrEqual(hostBox.width);
      expect(await host.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(hostBox.x + hostBox.width).toBeLessThanOrEqual(viewport.width);
      const menus = sim.getByRole('button', { name: /^Actions for / });
      expect(await menus.count()).toBeGreaterThan(3);
      const boxes = [];
      for (const menu of await menus.all()) {
        const box = (await menu.boundingBox())!;
        // WCAG 2.2 target size: 24 × 24 CSS px, inside the screen.
        expect(box.width).toBeGreaterThanOrEqual(24);
        expect(box.height).toBeGreaterThanOrEqual(24);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        boxes.push(box);
      }
      // Spacing: a 24 px circle around each target's centre touches no other target.
      for (let i = 1; i < boxes.length; i++)
        expect(boxes[i]!.y - (boxes[i - 1]!.y + boxes[i - 1]!.height)).toBeGreaterThanOrEqual(8);
      expect(await pageScrollsSideways(page)).toBe(false);

      // The last lane's menu opens wholly on screen, every action in it visible and not cut off
      // by the timeline's scrolling box (it was, on the last lanes and on a phone's right edge).
      const last = menus.last();
      await last.scrollIntoViewIfNeeded();
      await last.click();
      const panel = sim.getByRole('group', { name: /^Actions for /, includeHidden: true });
      await expect(panel.getByRole('button').first()).toBeFocused();
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      for (const action of await panel.getByRole('button').all()) await expect(action).toBeInViewport({ ratio: 1 });
      await page.keyboard.press('Escape');
      await expect(panel).toHaveCount(0);
      await expect(last).toBeFocused();
    });

    test('zoomed in, the plot says which way the run goes on', async ({ page }) => {
      const sim = await open(page, '#/lesson/paused-barista', /Simulation: The paused barista$/);
      // On a phone the player opens zoomed in on the double write (src/timeline/momentZoom.ts): shown whole first.
      await sim.getByRole('button', { name: 'Fit to run' }).click();
      const cue = sim.locator('.tl-scroll-cue-right');
      await expect(cue).toBeHidden();
      for (let i = 0; i < 3; i++) await sim.getByRole('button', { name: 'Zoom in' }).click();
      await expect(cue).toBeVisible();
      expect(await pageScrollsSideways(page)).toBe(false);
    });

    test('a herd of fifty clients is one summary lane that unfolds, and folds back', async ({ page }) => {
      const sim = await open(page, '#/lesson/misconceptions-herd', /Simulation: Fifty baristas/);
      const labels = sim.locator('svg.tl-root g.tl-lane-label text.tl-label-name');
      await expect(labels.first()).toHaveText('50 clients');
      expect(await labels.count()).toBeLessThan(5);
      // Contention at a glance: the attempts and refusals strips.
      expect(await sim.locator('rect.tl-density-refusals').count()).toBeGreaterThan(10);
      const svgHeight = async () => (await sim.locator('svg.tl-root').first().boundingBox())!.height;
      expect(await svgHeight()).toBeLessThan(400);
      // One barista pulled out onto its own lane, under the summary of the other 49.
      await sim.getByLabel('Own lane for').selectOption({ label: 'Barista 7' });
      await expect(labels.nth(0)).toHaveText('49 clients');
      await expect(labels.nth(1)).toHaveText('Barista 7');
      await sim.getByLabel('Own lane for').selectOption({ label: 'no one' });
      await expect(labels.nth(1)).not.toHaveText('Barista 7');
      // The button says what it does next: unfold, then fold back.
      await sim.getByRole('button', { name: 'Show each of the 50 clients' }).click();
      await expect(labels).toHaveCount(52);
      expect(await svgHeight()).toBeGreaterThan(3000);
      const fold = sim.getByRole('button', { name: 'Fold the 50 clients into one lane' });
      await expect(fold).toBeFocused();
      await fold.press('Enter');
      await expect(labels.first()).toHaveText('50 clients');
      await expect(sim.getByRole('button', { name: 'Show each of the 50 clients' })).toBeVisible();
      expect(await pageScrollsSideways(page)).toBe(false);
    });

    test('an actor’s statechart opens from its lane menu, lights its state as the playhead moves, and closing returns focus', async ({
      page,
    }) => {
      const sim = await open(page, '#/lesson/paused-barista', /Simulation: The paused barista$/);
      const menu = sim.getByRole('button', { name: 'Actions for Barista A' });
      await menu.click();
      await sim.getByRole('button', { name: 'Show its statechart' }).click();
      const chart = sim.getByRole('region', { name: 'Barista A’s statechart' });
      await expect(chart).toBeVisible();
      // Drawn from the machine: even the states no lane shows by name (holding, its regions) are there.
      // Nested states are frames around their children in the diagram.
      const names = chart.locator('.statechart-frame text');
      await expect(names.filter({ hasText: /^holding$/ })).toHaveCount(1);
      await expect(names.filter({ hasText: /^watchdog$/ })).toHaveCount(1);
      const lit = chart.locator('.statechart-box[aria-current="step"] text');
      const now = chart.getByTestId('statechart-now');
      const litName = async () => ((await lit.count()) === 1 ? await lit.textContent() : null);
      // Step until the lit state changes twice: it follows the playhead.
      const seen: (string | null)[] = [await litName()];
      for (let i = 0; i < 60 && new Set(seen).size < 3; i++) {
        await sim.getByRole('button', { name: 'Step', exact: true }).click();
        const state = await litName();
        if (state !== seen.at(-1)) {
          seen.push(state);
          if (state) await expect(now).toContainText(state);
        }
      }
      expect(new Set(seen).size).toBe(3);
      expect(seen).toContain('working');
      // The chart fits the screen; the page does not scroll sideways.
      const box = (await chart.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(await pageScrollsSideways(page)).toBe(false);
      await chart.getByRole('button', { name: 'Close' }).click();
      await expect(chart).toHaveCount(0);
      await expect(menu).toBeFocused();
    });
  });
}

test.describe('lesson 9 on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('its player is not a tower: the fault buttons fold behind a button that opens them', async ({ page }) => {
    const sim = await open(page, '#/lesson/replication-lost-lock', /Simulation: /);
    // Before the fold, the first player was about 4,600 px tall on a phone.
    await expect(sim.locator('.player-panels')).toBeVisible();
    expect((await sim.boundingBox())!.height).toBeLessThan(3000);
    const fold = sim.getByRole('button', { name: 'Break things' });
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await expect(sim.getByRole('heading', { name: /Break things at/ })).toBeHidden();
    await fold.click();
    await expect(sim.getByRole('heading', { name: /Break things at/ })).toBeVisible();
    // The inspector stays in view without asking: it follows the playhead.
    await expect(sim.getByRole('heading', { name: /^Inside the world/ })).toBeVisible();
    expect(await pageScrollsSideways(page)).toBe(false);
  });
});

test.describe('lesson 9 on a desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('shows its fault buttons as they are, with no fold', async ({ page }) => {
    const sim = await open(page, '#/lesson/replication-lost-lock', /Simulation: /);
    await expect(sim.getByRole('heading', { name: /Break things at/ })).toBeVisible();
    await expect(sim.getByRole('button', { name: 'Break things' })).toHaveCount(0);
  });
});

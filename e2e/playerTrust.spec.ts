import { expect, test, type Locator, type Page } from '@playwright/test';
import { encodeRun } from '../src/ui/player/shareLink';
import { simTime } from '../src/sim/time';
import { clock, eventCount, players } from './support/player';

/**
 * Issue 16, "Links and clicks that do not land" and "What a learner expects", at a desktop and
 * a phone size: every way of pointing at a moment (a verdict's evidence, a mark, a share link,
 * the auto-stop) moves the playhead there and brings it into view; the keyboard works anywhere
 * in the player; the compare block moves as one; lane menus are on top and big enough to hit.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

function barista(page: Page): Locator {
  return page.getByRole('region', { name: /Simulation: The paused barista$/ });
}

async function open(page: Page, hash: string): Promise<Locator> {
  await page.goto(`./${hash}`);
  const sim = barista(page);
  await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeVisible({ timeout: 20_000 });
  return sim;
}

async function runToEnd(sim: Locator) {
  await sim.getByLabel('Go to time (s)').fill('999');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
}

for (const { name, viewport } of SIZES) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test("a verdict's evidence link moves the playhead to that event and shows it on the timeline", async ({
      page,
    }) => {
      const sim = await open(page, '#/lesson/paused-barista');
      await runToEnd(sim);
      const show = sim.getByRole('button', { name: /Show Barista B's write at 13/ });
      const label = (await show.textContent())!;
      await show.click();
      // The playhead is at the write, and so are the inspector and the timeline's selected mark.
      await expect(clock(sim)).toHaveText(label.replace(/^.* at /, ''));
      await expect(
        sim.getByRole('heading', { name: `Inside the world at ${label.replace(/^.* at /, '')}` }),
      ).toBeVisible();
      const mark = sim.locator('svg.tl-root .tl-selected').first();
      await expect(mark).toBeInViewport();
    });

    test('clicking a mark on the timeline moves the playhead to its event', async ({ page }) => {
      const sim = await open(page, '#/lesson/paused-barista');
      await runToEnd(sim);
      const end = await clock(sim).textContent();
      const write = sim.locator('svg.tl-root g.tl-glyph.tl-write').first();
      await write.scrollIntoViewIfNeeded();
      await write.dispatchEvent('click');
      await expect(clock(sim)).not.toHaveText(end!);
      await expect(clock(sim)).toHaveText(/^13\.\d+ s$/);
      await expect(sim.getByRole('heading', { name: /^Inside the world at 13\.\d+ s$/ })).toBeVisible();
    });

    test('after the auto-stop, "Jump to the violation" brings the verdict into view, and Play clears the stop', async ({
      page,
    }) => {
      const sim = await open(page, '#/lesson/paused-barista');
      await sim.getByLabel('Speed').selectOption('8');
      await sim.getByRole('button', { name: 'Play' }).click();
      const banner = sim.getByRole('status').filter({ hasText: 'Stopped at the first broken invariant' });
      await expect(banner).toBeVisible({ timeout: 20_000 });
      await banner.getByRole('button', { name: 'Jump to the violation' }).click();
      const verdict = sim
        .getByRole('listitem')
        .filter({ hasText: /Broken: / })
        .first();
      await expect(verdict).toBeInViewport();
      await expect(verdict).toBeFocused();
      await sim.getByRole('button', { name: 'Play' }).click();
      await expect(banner).toHaveCount(0);
    });

    test('a share link opens at its player, in view, at the playhead time it was shared at', async ({ page }) => {
      const run = encodeRun({
        scenarioId: 'paused-barista',
        config: {
          seed: 7,
          fencing: false,
          actions: [{ at: simTime(12_000), do: 'pause', target: 'B', forMs: 15_000 }],
        },
      });
      const sim = await open(page, `#/lesson/paused-barista?run=${run}&t=14000`);
      await expect(clock(sim)).toHaveText('14 s');
      await expect(sim.getByRole('button', { name: 'Play' })).toBeInViewport();
      await expect(sim.getByText(/You changed this run 1 time/)).toBeVisible();
    });

    test("a share link for a lesson's later player opens at that player, with the lesson whole around it", async ({
      page,
    }) => {
      const run = encodeRun({
        scenarioId: 'failover-your-turn',
        config: { seed: 7, fencing: false, actions: [{ at: simTime(2_000), do: 'pause', target: 'A', forMs: 5_000 }] },
      });
      await page.goto(`./#/lesson/replication-lost-lock?run=${run}&t=3000`);
      const sim = page.getByRole('region', { name: /Simulation: Your turn to lose the primary$/ });
      await expect(sim.getByRole('button', { name: /^(Play|Replay)$/ })).toBeInViewport({ timeout: 20_000 });
      await expect(clock(sim)).toHaveText('3 s');
      await expect(sim.getByText(/You changed this run 1 time/)).toBeVisible();
      // Every block is there, the first player above this one and the reflection at the end.
      await expect(players(page)).toHaveCount(6);
      await expect(page.getByRole('region', { name: 'Reflect' })).toBeAttached();
    });

    test('Space plays and pauses, the arrows step, and ? lists the shortcuts, anywhere in the player', async ({
      page,
    }) => {
      const sim = await open(page, '#/lesson/paused-barista');
      // Focus somewhere in the player that is not the timeline: its heading's panel text.
      await sim.getByRole('heading', { name: 'What happened' }).click();
      // Steps are counted in the event list's summary ("Every event so far (n of m)").
      const progress = eventCount(sim);
      const start = await progress.textContent();
      await page.keyboard.press('ArrowRight');
      await expect(progress).not.toHaveText(start!);
      const stepped = await progress.textContent();
      await page.keyboard.press('ArrowRight');
      await expect(progress).not.toHaveText(stepped!);
      await page.keyboard.press('ArrowLeft');
      await expect(progress).toHaveText(stepped!);
      await page.keyboard.press('Space');
      await expect(sim.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
      await page.keyboard.press('Space');
      await expect(sim.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
      await page.keyboard.press('?');
      await expect(sim.getByRole('group', { name: 'Keyboard shortcuts' })).toContainText('Play or pause');
      // Typing in the console is typing, not a shortcut.
      const line = sim.getByRole('textbox', { name: /Command for/ });
      await line.fill('');
      await line.press('Space');
      await expect(line).toHaveValue(' ');
      await expect(sim.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    });

    test("lesson 6's compare block: one playhead for both sides, and each side's fencing fixed", async ({ page }) => {
      await page.goto('./#/lesson/fencing-tokens');
      const block = page.getByRole('region', { name: /The same afternoon, without and with the fence/ });
      const players = block.getByRole('region', { name: /^Simulation:/ });
      const [left, right] = [players.nth(0), players.nth(1)];
      await expect(right.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
      await expect(block.getByRole('checkbox', { name: 'Fencing tokens' })).toHaveCount(0);
      await left.getByLabel('Go to time (s)').fill('15');
      await left.getByRole('button', { name: 'Go', exact: true }).click();
      await expect(clock(right)).toHaveText('15 s');
      await right.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(clock(left)).toHaveText((await clock(right).textContent()) as string);
    });

    test('lane menus open above the other lanes, and their buttons are at least 24 × 24 px', async ({ page }) => {
      const sim = await open(page, '#/lesson/paused-barista');
      const button = sim.getByRole('button', { name: 'Actions for Barista A' });
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
      await button.click();
      const menu = sim.getByRole('group', { name: 'Actions for Barista A' });
      // Each of the menu's buttons is what a click at its centre hits (no other lane's ⋯ on top).
      for (const item of await menu.getByRole('button').all()) {
        const hit = await item.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return top === el || el.contains(top);
        });
        expect(hit).toBe(true);
      }
    });
  });
}

import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * The learner changes the story on a phone (issue 31): a long-press on a mark selects it and opens
 * a sheet whose steppers move it and change its length, and whose button removes it; each press
 * is one change that undo takes back. Touch as a phone sends it: 390×844, touch events only.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
// Lesson pages hold several players, each computing its run on a phone-sized, throttled page.
test.describe.configure({ timeout: 90_000 });

async function openPlayer(page: Page, lesson: string, title: RegExp): Promise<Locator> {
  await page.goto(`./#/lesson/${lesson}`);
  const sim = page.getByRole('region', { name: title });
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await sim.getByLabel(/Go to time/).fill('60');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  return sim;
}

/** A finger resting on the mark for 0.7 s, sent as raw touch events (Playwright's tap is too short to be a long-press). */
async function longPress(page: Page, mark: Locator) {
  await mark.scrollIntoViewIfNeeded();
  const box = (await mark.boundingBox())!;
  const point = { x: Math.round(box.x + Math.min(8, box.width / 2)), y: Math.round(box.y + box.height / 2) };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(700);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** A finger that lands on `handle` and slides `dx` px sideways in small moves, as a drag does (raw touch events). */
async function touchDrag(page: Page, handle: Locator, dx: number) {
  await handle.scrollIntoViewIfNeeded();
  const box = (await handle.boundingBox())!;
  const y = Math.round(box.y + box.height / 2);
  const x = Math.round(box.x + box.width / 2);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    await page.waitForTimeout(30);
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: x + Math.round((dx * i) / steps), y }],
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('lesson 5 by a finger: dragging the end of the scripted pause from 15 s to about 5 s makes the double write disappear; undo brings it back', async ({
  page,
}) => {
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await expect(sim.getByText('Broken: single writer')).toBeVisible();
  // On a phone the player opens zoomed in on the double write (src/timeline/momentZoom.ts); the
  // learner here edits a pause that spans the run, so first shows it whole, as the toolbar offers.
  await sim.getByRole('button', { name: 'Fit to run' }).tap();
  const pause = sim.getByRole('button', { name: /^pause A, scripted, at 2 s for 15 s/ });
  await expect(pause).toBeAttached();
  // On this phone's plot 10 s is about 85 px; the end lands on the 0.1 s grid or on an event near it.
  await touchDrag(
    page,
    // The end's handle is for a pointer only (the keyboard has [ and ]): it is named by its tooltip.
    sim.getByTitle('Drag to change how long pause A lasts', { exact: true }),
    -84,
  );
  await expect(sim.getByTestId('story-note')).toHaveText(/^pause A shortened to [45](\.\d+)? s$/);
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
  await sim.getByRole('button', { name: 'Undo', exact: true }).tap();
  await expect(sim.getByRole('button', { name: /^pause A, scripted, at 2 s for 15 s/ })).toBeAttached();
  await expect(sim.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
});

test('lesson 5 by touch: the sheet shortens the scripted pause to 5 s and the double write disappears; undo brings it back; axe is clean with the sheet open', async ({
  page,
}) => {
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await expect(sim.getByText('Broken: single writer')).toBeVisible();
  // On a phone the player opens zoomed in on the double write (src/timeline/momentZoom.ts); the
  // learner here edits a pause that spans the run, so first shows it whole, as the toolbar offers.
  await sim.getByRole('button', { name: 'Fit to run' }).tap();
  await longPress(page, sim.getByRole('button', { name: /^pause A, scripted/ }));
  const sheet = page.getByRole('dialog', { name: 'pause A, scripted' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('group', { name: 'Length' }).getByRole('status')).toHaveText('15 s');
  expect(await axeViolations(page, { include: '.mark-sheet' })).toEqual([]);
  for (let i = 0; i < 10; i++) await sheet.getByRole('button', { name: '1 s shorter', exact: true }).tap();
  await expect(sheet.getByRole('group', { name: 'Length' }).getByRole('status')).toHaveText('5 s');
  await expect(sim.getByTestId('story-note')).toHaveText('pause A shortened to 5 s');
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
  await sheet.getByRole('button', { name: 'Done' }).tap();
  await expect(sheet).toHaveCount(0);
  await sim.getByRole('button', { name: 'Undo', exact: true }).tap();
  await expect(sim.getByRole('button', { name: /^pause A, scripted, at 2 s for 6 s/ })).toBeAttached();
});

test('lesson 4 by touch: the sheet removes the scripted crash and the lock is no longer immortal; undo puts it back', async ({
  page,
}) => {
  const sim = await openPlayer(page, 'simplest-lock', /Simulation: A crash between SETNX and PEXPIRE/);
  await expect(sim.getByText('Broken: progress')).toBeVisible();
  await longPress(page, sim.getByRole('button', { name: /^crash A, scripted, at 200 ms/ }));
  const sheet = page.getByRole('dialog', { name: 'crash A, scripted' });
  await sheet.getByRole('button', { name: 'Remove crash A' }).tap();
  await expect(sheet).toHaveCount(0);
  await expect(sim.getByText('Held: progress')).toBeVisible({ timeout: 15_000 });
  await sim.getByRole('button', { name: 'Undo', exact: true }).tap();
  await expect(sim.getByText('Broken: progress')).toBeVisible({ timeout: 15_000 });
});

test('lesson 8 by touch: the sheet moves the heal a second later, and single holder breaks as the lesson says', async ({
  page,
}) => {
  const sim = await openPlayer(page, 'renewals-watchdog', /^Simulation: A renewal goes unanswered: retry, then prove$/);
  await expect(sim.getByText('Held: single holder', { exact: true })).toBeVisible();
  await longPress(page, sim.getByRole('button', { name: /^heal, scripted, at 3 s/ }));
  const sheet = page.getByRole('dialog', { name: 'heal, scripted' });
  await sheet.getByRole('button', { name: '1 s later', exact: true }).tap();
  await expect(sheet.getByRole('group', { name: 'Time' }).getByRole('status')).toHaveText('4 s');
  await expect(sim.getByText('Broken: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await sim.getByRole('button', { name: 'Undo', exact: true }).tap();
  await expect(sim.getByRole('button', { name: /^heal, scripted, at 3 s/ })).toBeAttached();
  await expect(sim.getByText('Held: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });
});

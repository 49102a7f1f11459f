import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * The learner changes the story (issue 31): a lesson's own scripted faults are marks on their
 * lanes that the keyboard and the mouse move, stretch and remove, every change can be undone,
 * and the verdicts follow the changed run.
 */

async function openPlayer(page: Page, lesson: string, title: RegExp): Promise<Locator> {
  await page.goto(`./#/lesson/${lesson}`);
  const sim = page.getByRole('region', { name: title });
  await expect(sim.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await sim.scrollIntoViewIfNeeded();
  return sim;
}

/** Moves the playhead past the end, where every verdict is final. */
async function toTheEnd(sim: Locator) {
  await sim.getByLabel(/Go to time/).fill('60');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
}

const pauseMark = (sim: Locator) => sim.getByRole('button', { name: /^pause A, scripted/ });

test('lesson 5 by keyboard: the scripted pause shortened to 5 s keeps a single writer, and undo and redo bring each run back', async ({ page }) => {
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await toTheEnd(sim);
  await expect(sim.getByText('Broken: single writer')).toBeVisible();

  await pauseMark(sim).focus();
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 15 s');
  for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+BracketLeft');
  await expect(sim.getByTestId('story-note')).toHaveText('pause A shortened to 5 s');
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 5 s');
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
  // The mark keeps the focus, and ←/→ move it instead of stepping the playhead.
  await expect(pauseMark(sim)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(sim.getByTestId('story-note')).toHaveText('pause A moved to 1.9 s');
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 1.9 s for 5 s');

  // Each key press is one step to undo: the move, then the last second taken off.
  await page.keyboard.press('Control+z');
  await expect(sim.getByTestId('story-note')).toHaveText('Undone: pause A moved to 1.9 s');
  await page.keyboard.press('Control+z');
  await expect(sim.getByTestId('story-note')).toHaveText('Undone: pause A shortened to 5 s');
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 6 s');
  await sim.getByRole('button', { name: 'Back to the lesson’s run' }).click();
  await expect(sim.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 15 s');
  await page.keyboard.press('Control+z');
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 6 s');
  await page.keyboard.press('Control+Shift+z');
  await expect(sim.getByTestId('story-note')).toHaveText('Redone: back to the lesson’s run');
  await expect(sim.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
});

test('lesson 4: Delete removes the scripted crash and the lock is no longer immortal; the Undo button puts it back', async ({ page }) => {
  const sim = await openPlayer(page, 'simplest-lock', /Simulation: A crash between SETNX and PEXPIRE/);
  await toTheEnd(sim);
  await expect(sim.getByText('Broken: progress')).toBeVisible();
  const crash = sim.getByRole('button', { name: /^crash A, scripted, at 200 ms/ });
  await crash.focus();
  await page.keyboard.press('Delete');
  await expect(sim.getByTestId('story-note')).toHaveText('crash A removed');
  await expect(crash).toHaveCount(0);
  await expect(sim.getByText('Held: progress')).toBeVisible({ timeout: 15_000 });
  await sim.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(crash).toBeVisible();
  await expect(sim.getByText('Broken: progress')).toBeVisible({ timeout: 15_000 });
});

test('a selected mark is plain to see and axe finds nothing wrong with the player', async ({ page }) => {
  test.setTimeout(90_000);
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await toTheEnd(sim);
  await pauseMark(sim).focus();
  await expect(pauseMark(sim)).toHaveAttribute('aria-current', 'true');
  expect(await axeViolations(page, { include: '.player' })).toEqual([]);
});

test('lesson 5 by mouse: dragging the pause\'s end to 7 s, then the pause itself later, keeps a single writer', async ({ page }) => {
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await toTheEnd(sim);
  await expect(sim.getByText('Broken: single writer')).toBeVisible();
  const box = (await pauseMark(sim).boundingBox())!;
  // The frame spans the pause's 15 s: its end grip is at the right edge.
  const pxPerSecond = box.width / 15;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 3, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 3 - 10 * pxPerSecond, y, { steps: 8 });
  await page.mouse.up();
  await expect(sim.getByTestId('story-note')).toHaveText(/^pause A shortened to (4\.9|5|5\.1) s$/);
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });

  await page.keyboard.press('Control+z');
  await expect(sim.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
  // Dragged by its body, the whole pause moves 10 s later, after A's order is done.
  await page.mouse.move(box.x + 10, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 10 + 10 * pxPerSecond, y, { steps: 8 });
  await page.mouse.up();
  await expect(sim.getByTestId('story-note')).toHaveText(/^pause A moved to (11\.9|12|12\.1) s$/);
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
});

test('a shared changed run opens elsewhere with a banner that says what changed, and "Open in the workbench" carries the change into the editor', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await pauseMark(sim).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(sim.getByTestId('story-note')).toHaveText('pause A moved to 1.9 s');
  for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+BracketLeft');
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 1.9 s for 5 s');
  await sim.getByRole('button', { name: 'Share this run' }).click();
  const link = await sim.getByLabel('Link to this run').inputValue();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const shared = other.getByRole('region', { name: /Simulation: The paused barista$/ });
  await expect(other.getByText('You are looking at a run someone changed: pause A moved to 1.9 s, pause A shortened to 5 s.')).toBeVisible({ timeout: 20_000 });
  await expect(pauseMark(shared)).toHaveAccessibleName('pause A, scripted, at 1.9 s for 5 s');
  await other.locator('.shared-changes').getByRole('button', { name: 'Back to the lesson’s run' }).click();
  await expect(pauseMark(shared)).toHaveAccessibleName('pause A, scripted, at 2 s for 15 s');
  await fresh.close();

  await sim.getByRole('button', { name: 'Open in the workbench' }).click();
  const editor = page.getByRole('textbox', { name: 'Scenario (YAML)' });
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await expect(editor).toContainText('{ at: 1900ms, do: pause, target: A, for: 5s }');
  // The workbench links back to the lesson the run came from.
  await page.getByRole('link', { name: 'Back to the lesson: Challenge 2: the paused barista' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Challenge 2: the paused barista' })).toBeVisible({ timeout: 20_000 });
});

test("a client's start time changed from its lane menu travels in a share link, and the banner says so", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const sim = await openPlayer(page, 'read-write-lock', /^Simulation: Look, then take, in two round trips$/);
  await sim.getByRole('button', { name: 'Actions for Manager (writes)' }).click();
  const timing = sim.getByRole('form', { name: 'Timing of Manager (writes)' });
  // A value Redis would refuse is named before anything runs, and the open form passes axe.
  await timing.getByLabel('TTL (s)').fill('0');
  await timing.getByRole('button', { name: 'Change timing' }).click();
  await expect(timing.getByRole('alert')).toHaveText('TTL must be at least 0.1 s');
  await expect(timing.getByLabel('TTL (s)')).toHaveAttribute('aria-invalid', 'true');
  expect(await axeViolations(page, { include: '.player' })).toEqual([]);
  await timing.getByLabel('TTL (s)').fill('5');
  await timing.getByLabel('Starts at (s)').fill('0.1');
  await timing.getByRole('button', { name: 'Change timing' }).click();
  await expect(sim.getByTestId('story-note')).toHaveText("W's start moved to 100 ms");
  await sim.getByRole('button', { name: 'Share this run' }).click();
  const link = await sim.getByLabel('Link to this run').inputValue();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.getByText("You are looking at a run someone changed: W's start moved to 100 ms.")).toBeVisible({ timeout: 20_000 });
  const shared = other.getByRole('region', { name: /^Simulation: Look, then take, in two round trips$/ });
  await toTheEnd(shared);
  await expect(shared.getByText('Held: readers or one writer', { exact: true })).toBeVisible({ timeout: 15_000 });
  await fresh.close();
});

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

test('lesson 5 by keyboard: the scripted pause shortened to 5 s keeps a single writer, and undo and redo bring each run back', async ({
  page,
}) => {
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

// Lesson 4's scripted crash removed two ways, each undone by the Undo button.
const removeCrash: [string, (page: Page, crash: Locator) => Promise<void>][] = [
  [
    'lesson 4: Delete removes the scripted crash and the lock is no longer immortal; the Undo button puts it back',
    async (page, crash) => {
      await crash.focus();
      await page.keyboard.press('Delete');
    },
  ],
  [
    'lesson 4 by mouse: a right-click on the scripted crash opens its sheet, whose Remove takes the crash away; Undo puts it back',
    async (page, crash) => {
      await crash.click({ button: 'right' });
      const sheet = page.getByRole('dialog', { name: 'crash A, scripted' });
      await sheet.getByRole('button', { name: 'Remove crash A' }).click();
      await expect(sheet).toHaveCount(0);
    },
  ],
];
for (const [title, remove] of removeCrash) {
  test(title, async ({ page }) => {
    const sim = await openPlayer(page, 'simplest-lock', /Simulation: A crash between SETNX and PEXPIRE/);
    await toTheEnd(sim);
    await expect(sim.getByText('Broken: progress')).toBeVisible();
    const crash = sim.getByRole('button', { name: /^crash A, scripted, at 200 ms/ });
    await remove(page, crash);
    await expect(sim.getByTestId('story-note')).toHaveText('crash A removed');
    await expect(crash).toHaveCount(0);
    await expect(sim.getByText('Held: progress')).toBeVisible({ timeout: 15_000 });
    await sim.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(crash).toBeVisible();
    await expect(sim.getByText('Broken: progress')).toBeVisible({ timeout: 15_000 });
  });
}

test('a selected mark is plain to see and axe finds nothing wrong with the player', async ({ page }) => {
  test.setTimeout(90_000);
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await toTheEnd(sim);
  await pauseMark(sim).focus();
  await expect(pauseMark(sim)).toHaveAttribute('aria-current', 'true');
  expect(await axeViolations(page, { include: '.player' })).toEqual([]);
});

test("lesson 5 by mouse: dragging the pause's end from 15 s to 5 s, then the pause itself later, keeps a single writer", async ({
  page,
}) => {
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
  // Dragged by its body, the whole pause moves 10 s later, after A's order is done. The plot may
  // have been redrawn at another scale by the runs in between: the learner drags what is drawn now.
  const now = (await pauseMark(sim).boundingBox())!;
  await page.mouse.move(now.x + 10, now.y + now.height / 2);
  await page.mouse.down();
  await page.mouse.move(now.x + 10 + 10 * (now.width / 15), now.y + now.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(sim.getByTestId('story-note')).toHaveText(/^pause A moved to (11\.9|12|12\.1) s$/);
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
});

test('a shared changed run opens elsewhere with a banner that says what changed, and "Open in the workbench" carries the change into the editor', async ({
  page,
  browser,
}) => {
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
  await expect(
    other.getByText('You are looking at a run someone changed: pause A moved to 1.9 s, pause A shortened to 5 s.'),
  ).toBeVisible({ timeout: 20_000 });
  await expect(pauseMark(shared)).toHaveAccessibleName('pause A, scripted, at 1.9 s for 5 s');
  await other
    .getByRole('status')
    .filter({ hasText: 'You are looking at a run someone changed' })
    .getByRole('button', { name: 'Back to the lesson’s run' })
    .click();
  await expect(pauseMark(shared)).toHaveAccessibleName('pause A, scripted, at 2 s for 15 s');
  await fresh.close();

  await sim.getByRole('button', { name: 'Open in the workbench' }).click();
  const editor = page.getByRole('textbox', { name: 'Scenario (YAML)' });
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await expect(editor).toContainText('{ at: 1900ms, do: pause, target: A, for: 5s }');
  // The workbench links back to the lesson the run came from.
  await page.getByRole('link', { name: 'Back to the lesson: Challenge 2: the paused barista' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Challenge 2: the paused barista' })).toBeVisible({
    timeout: 20_000,
  });
});

test("a client's start time changed from its lane menu travels in a share link, and the banner says so", async ({
  page,
  browser,
}) => {
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
  await expect(other.getByText("You are looking at a run someone changed: W's start moved to 100 ms.")).toBeVisible({
    timeout: 20_000,
  });
  const shared = other.getByRole('region', { name: /^Simulation: Look, then take, in two round trips$/ });
  await toTheEnd(shared);
  await expect(shared.getByText('Held: readers or one writer', { exact: true })).toBeVisible({ timeout: 15_000 });
  await fresh.close();
});

const lesson8 = /^Simulation: A renewal goes unanswered: retry, then prove$/;
const healMark = (sim: Locator) => sim.getByRole('button', { name: /^heal, scripted/ });

/** Pixels per virtual second on a player's timeline, from the scripted partition's band (1.9 s to its heal at 3 s). */
async function lesson8PxPerSecond(sim: Locator): Promise<number> {
  const band = (await sim.getByRole('button', { name: /^partition, scripted, at 1\.9 s for 1\.1 s/ }).boundingBox())!;
  return band.width / 1.1;
}

/** A mouse drag of `mark` by `dx` pixels, grabbed `grabX` pixels from its left edge; `release: false` keeps the button down. */
async function dragBy(page: Page, mark: Locator, dx: number, { grabX = 7, release = true } = {}) {
  const box = (await mark.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + grabX, y);
  await page.mouse.down();
  await page.mouse.move(box.x + grabX + dx, y, { steps: 10 });
  if (release) await page.mouse.up();
}

test("lesson 8 by keyboard and by mouse: the heal moved a second later breaks single holder, and undo brings the lesson's run back each time", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sim = await openPlayer(page, 'renewals-watchdog', lesson8);
  await toTheEnd(sim);
  await expect(sim.getByText('Held: single holder', { exact: true })).toBeVisible();

  await healMark(sim).focus();
  await expect(healMark(sim)).toHaveAccessibleName('heal, scripted, at 3 s');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(sim.getByTestId('story-note')).toHaveText('heal moved to 4 s');
  await expect(sim.getByText('Broken: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('Control+z');
  await expect(sim.getByTestId('story-note')).toHaveText('Undone: heal moved to 4 s');
  await expect(sim.getByText('Held: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });

  await dragBy(page, healMark(sim), await lesson8PxPerSecond(sim));
  await expect(sim.getByTestId('story-note')).toHaveText(/^heal moved to (3\.9|4|4\.1)\d* s$/);
  await expect(sim.getByText('Broken: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });
  await sim.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(healMark(sim)).toHaveAccessibleName('heal, scripted, at 3 s');
  await expect(sim.getByText('Held: single holder', { exact: true })).toBeVisible({ timeout: 15_000 });
});

test("while the pause's end is dragged, the run recomputes and the verdict turns before the release; the release is one change to undo", async ({
  page,
}) => {
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  await toTheEnd(sim);
  await expect(sim.getByText('Broken: single writer')).toBeVisible();
  const box = (await pauseMark(sim).boundingBox())!;
  await dragBy(page, pauseMark(sim), -10 * (box.width / 15), { grabX: box.width - 3, release: false });
  await expect(sim.getByTestId('drag-tip')).toHaveText(/^(4\.9|5|5\.1) s/);
  // The button is still down: the verdict follows the drag, yet nothing has been changed.
  await expect(sim.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
  await expect(sim.getByTestId('story-note')).toHaveText('');
  await expect(sim.getByRole('button', { name: 'Undo', exact: true })).toHaveAttribute('aria-disabled', 'true');
  // The run on show changed without the "computing" notice blinking over it.
  await expect(sim.locator('.player-computing')).toHaveText('');
  await page.mouse.up();
  await expect(sim.getByTestId('story-note')).toHaveText(/^pause A shortened to (4\.9|5|5\.1) s$/);
  await expect(sim.getByText('Held: single writer')).toBeVisible();
  await page.keyboard.press('Control+z');
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 15 s');
  await expect(sim.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
});

test('a dragged mark snaps to an event on its lane, to the millisecond, and shows where while dragging; between events it lands on the 100 ms grid', async ({
  page,
}) => {
  const sim = await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/);
  const box = (await pauseMark(sim).boundingBox())!;
  const pxPerSecond = box.width / 15;
  // To 0 s: A took the lock a few milliseconds in, and the pause lands exactly there.
  await dragBy(page, pauseMark(sim), -2 * pxPerSecond, { release: false });
  await expect(sim.getByTestId('drag-tip')).toContainText(' · at Barista A');
  await expect(sim.getByTestId('snap-guide')).toBeVisible();
  await page.mouse.up();
  await expect(sim.getByTestId('snap-guide')).toHaveCount(0);
  await expect(sim.getByTestId('story-note')).toHaveText(/^pause A moved to [1-9]\d? ms$/);

  await page.keyboard.press('Control+z');
  await expect(pauseMark(sim)).toHaveAccessibleName('pause A, scripted, at 2 s for 15 s');
  await toTheEnd(sim);
  await expect(sim.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
  // To 3.04 s, where A has nothing (it is paused): the grid's 3 s. Measured as drawn now: the
  // runs in between may have redrawn the plot at another scale.
  const now = (await pauseMark(sim).boundingBox())!;
  await dragBy(page, pauseMark(sim), 1.04 * (now.width / 15));
  await expect(sim.getByTestId('story-note')).toHaveText('pause A moved to 3 s');
});

test("Compare with the lesson's run sets the changed run beside the lesson's, on one playhead: the double write on one side only", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The comparison's two sides are players of the same scenario: the learner's is the first.
  const sim = (await openPlayer(page, 'paused-barista', /Simulation: The paused barista$/)).first();
  const compare = sim.getByRole('button', { name: 'Compare with the lesson’s run' });
  await expect(compare).toHaveAttribute('aria-disabled', 'true');
  await pauseMark(sim).focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+BracketLeft');
  await expect(sim.getByTestId('story-note')).toHaveText('pause A shortened to 5 s');
  await compare.click();
  await expect(compare).toHaveAttribute('aria-pressed', 'true');
  const block = sim.getByRole('region', { name: 'Your run beside the lesson’s' });
  const lessons = block.getByRole('group', { name: 'The lesson’s run', exact: true });
  const yours = block.getByRole('group', { name: 'Your run', exact: true });
  await expect(yours.getByRole('button', { name: /^pause A, scripted, at 2 s for 5 s/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(lessons.getByRole('button', { name: /^pause A, scripted, at 2 s for 15 s/ })).toBeVisible({
    timeout: 30_000,
  });
  // One playhead: sent to the end on the lesson's side, both sides are there, and their verdicts differ.
  await toTheEnd(lessons);
  await expect(lessons.getByText('Broken: single writer')).toBeVisible({ timeout: 15_000 });
  await expect(yours.getByText('Held: single writer')).toBeVisible({ timeout: 15_000 });
  await expect(yours.getByLabel(/Go to time/)).toHaveAttribute('placeholder', /^(1\d|2\d)\.\d$/);
  expect(await axeViolations(page, { include: '.compare-side' })).toEqual([]);
  await compare.click();
  await expect(block).toHaveCount(0);
});

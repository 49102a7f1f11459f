import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * Issue 34, "assignments graded by re-running them": a learner hands in a lesson's workbench as a
 * file; the instructor's grading page re-runs a folder of such files with the course's own
 * bounds, grades what each recipe does (an edited claim does not help), and exports the table.
 */
test.describe.configure({ timeout: 180_000 });

const recipe = (name: string) => readFileSync(`lessons/scenarios/${name}.yaml`, 'utf8');

function submission(learner: string, text: string, claimed: string) {
  const body = {
    kind: 'lockstep-workbench-submission',
    version: 1,
    lesson: 'clinic-plain-del',
    block: 'clinic-plain-del-workbench',
    learner,
    recipe: text,
    claimed,
  };
  return {
    name: `clinic-plain-del--${learner.toLowerCase()}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(body)),
  };
}

async function openGrader(page: Page) {
  await page.goto('./#/grade');
  await expect(page.getByRole('heading', { level: 1, name: 'Grade workbench submissions' })).toBeVisible();
  const files = page.getByLabel('Submission files');
  await expect(files).toBeEnabled({ timeout: 30_000 });
  return files;
}

test('an instructor grades a folder of five submissions: two fixes pass, the rest fail, a tampered claim is flagged, and the table exports as CSV', async ({
  page,
}) => {
  const fixed = recipe('clinic-plain-del-fixed');
  const otherFix = fixed.replace(
    /local held = redis\.call\('GET', KEYS\[1\]\) if held == ARGV\[1\] then return redis\.call\('DEL', KEYS\[1\]\) end return 0/g,
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end",
  );
  const files = await openGrader(page);
  await files.setInputFiles([
    submission('Ada', fixed, 'fixed'),
    submission('Grace', otherFix, 'fixed'),
    submission('Linus', recipe('clinic-plain-del'), 'broken'),
    submission(
      'Ken',
      fixed.replace(
        '{ invariant: released-by-owner, outcome: holds }',
        '{ invariant: released-by-owner, outcome: violated }',
      ),
      'failing',
    ),
    submission('Mallory', recipe('clinic-plain-del'), 'fixed'),
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a submission') },
  ]);
  await expect(page.getByRole('status').filter({ hasText: /^Graded 5/ })).toHaveText(
    'Graded 5: 2 passed, 3 did not. 1 file was not .json and left out.',
    { timeout: 150_000 },
  );

  const row = (learner: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${learner}`) }) });
  await expect(row('Ada').getByRole('cell').nth(1)).toHaveText('Passed');
  await expect(row('Grace').getByRole('cell').nth(1)).toHaveText('Passed');
  await expect(row('Ken')).toContainText(/Failed.*no run broke released by owner, but/);
  await expect(row('Linus')).toContainText(/Failed.*breaks released by owner: seed \d+/);
  await expect(row('Linus')).not.toContainText('handed in as Fixed');
  // The file said Fixed; the re-run grades what the recipe does, and says the claim does not hold.
  await expect(row('Mallory')).toContainText(
    /Failed.*breaks released by owner.*handed in as Fixed, which this re-run does not confirm/,
  );
  await expect(row('Mallory').getByRole('link', { name: 'Open the run that breaks it' })).toHaveAttribute(
    'href',
    /^#\/sandbox\?run=/,
  );
  expect(await axeViolations(page)).toEqual([]);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export as CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('grades.csv');
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe('"learner","lesson","result","detail","note","runs","file"');
  expect(csv.slice(1).map((line) => line.split('","').slice(0, 1).join() + '|' + line.split('","')[2])).toEqual([
    '"Ada|passed',
    '"Grace|passed',
    '"Ken|failed',
    '"Linus|failed',
    '"Mallory|failed',
  ]);

  // The breaking run opens in the sandbox and breaks there too.
  await page.goto(
    `./${await row('Mallory').getByRole('link', { name: 'Open the run that breaks it' }).getAttribute('href')}`,
  );
  const sim = page.getByRole('region', { name: /^Simulation: / });
  await expect(sim.getByTestId('trace-hash')).toHaveText(/^[0-9a-f]{16}$/, { timeout: 60_000 });
  await sim.getByLabel('Go to time (s)').fill('60');
  await sim.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(sim.getByRole('listitem').filter({ hasText: /Broken: released by owner/ })).toBeVisible();
});

test('a learner hands in lesson 40’s workbench, named, and the grading page grades the file it saved', async ({
  page,
}) => {
  await page.goto('./#/lesson/clinic-plain-del');
  const wb = page.getByRole('region', { name: /^Workbench:/ });
  await expect(async () => {
    await wb.scrollIntoViewIfNeeded({ timeout: 2_000 });
    await expect(wb.getByRole('textbox', { name: 'Scenario (YAML)' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await wb.getByText('Hand in to your instructor').click();
  await wb.getByRole('button', { name: 'Save submission file' }).click();
  await expect(wb.getByRole('alert')).toHaveText('Write your name first: your instructor sees it beside your grade.');
  await wb.getByLabel('Your name').fill('Barbara Liskov');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    wb.getByRole('button', { name: 'Save submission file' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('clinic-plain-del--barbara-liskov.json');
  await expect(wb.getByRole('status').filter({ hasText: 'Saved clinic-plain-del--barbara-liskov.json' })).toBeVisible();
  const handedIn = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
    learner: string;
    recipe: string;
    claimed: string;
  };
  expect(handedIn).toMatchObject({ learner: 'Barbara Liskov', claimed: 'open' });
  expect(handedIn.recipe).toBe(recipe('clinic-plain-del').replace(/^# yaml-language-server:.*\n/, ''));

  const files = await openGrader(page);
  await files.setInputFiles({
    name: download.suggestedFilename(),
    mimeType: 'application/json',
    buffer: readFileSync((await download.path())!),
  });
  await expect(page.getByRole('status').filter({ hasText: /^Graded 1/ })).toHaveText('Graded 1: 0 passed, 1 did not.', {
    timeout: 120_000,
  });
  await expect(page.getByRole('row').filter({ hasText: 'Barbara Liskov' })).toContainText(
    /Failed.*breaks released by owner/,
  );
});

import { expect, test } from '@playwright/test';
import { players } from './support/player';

/**
 * Issue 16, "Fast on a phone": lesson 1 held seven players (lesson 10 now holds eight). Drawing every timeline as its run
 * arrives cost a phone seconds of main-thread work while the learner read the opening, so a
 * player out of sight shows its controls within moments and draws its timeline and panels when the
 * learner scrolls near it, or once the page has been left alone for a few seconds. Players out
 * of sight mount (controls, store) one per idle moment after the one on screen. A dashboard
 * (lesson 13 has two fifty-client ones) computes its metrics and draws its charts the same way.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

for (const { name, viewport } of SIZES) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test('a player far below has its controls within moments, and its timeline and verdicts when the learner scrolls to it', async ({
      page,
    }) => {
      await page.goto('./#/lesson/sentinel-mitigations');
      const last = players(page).last();
      await expect(last.getByRole('button', { name: /^(Play|Replay)$/ })).toBeEnabled({ timeout: 20_000 });
      await expect(last.getByTestId('trace-hash')).not.toBeEmpty();
      // Its run is there, but out of sight it is not drawn yet.
      await expect(last.locator('.player-timeline-pending')).toHaveCount(1);
      await expect(last.locator('.timeline-svg-host')).toHaveCount(0);

      await last.scrollIntoViewIfNeeded();
      await expect(last.locator('.timeline-svg-host svg > *').first()).toBeAttached();
      await expect(last.locator('.player-timeline-pending')).toHaveCount(0);
      await expect(last.getByRole('heading', { name: 'What happened' })).toBeVisible();
    });

    test('left alone, every player on the page is drawn within seconds, out of sight or not', async ({ page }) => {
      await page.goto('./#/lesson/sentinel-mitigations');
      await expect(
        players(page)
          .last()
          .getByRole('button', { name: /^(Play|Replay)$/ }),
      ).toBeEnabled({ timeout: 20_000 });
      await expect(page.locator('.player-timeline-pending')).toHaveCount(0, { timeout: 15_000 });
      const count = await players(page).count();
      await expect(players(page).locator('.timeline-svg-host')).toHaveCount(count);
    });

    test('a dashboard far below computes its metrics and draws its charts when the learner scrolls to it', async ({
      page,
    }) => {
      await page.goto('./#/lesson/misconceptions-herd');
      const last = page.getByRole('region', { name: /^Dashboard: / }).last();
      await expect(last.getByTestId('trace-hash')).not.toBeEmpty({ timeout: 20_000 });
      await expect(last.getByText('The metrics appear as you scroll to them.')).toBeAttached();
      await expect(last.getByRole('term', { includeHidden: true }).filter({ hasText: 'Attempts' })).toHaveCount(0);

      await last.getByRole('heading', { name: 'Lock metrics for this run' }).scrollIntoViewIfNeeded();
      await expect(last.getByRole('term').filter({ hasText: 'Attempts' })).toBeVisible();
      await expect(last.getByRole('img', { name: /^Lock attempts over time: \d+ attempts/ })).toBeVisible({
        timeout: 20_000,
      });
    });
  });
}

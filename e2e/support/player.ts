import type { Page } from '@playwright/test';

/** A player on the page, by its scenario's title: the whole title, or a pattern within it. */
export function player(page: Page, title: string | RegExp) {
  const name = typeof title === 'string' ? `Simulation: ${title}` : new RegExp(`Simulation: ${title.source}`);
  return page.getByRole('region', { name });
}

import { expect, type Page } from '@playwright/test';

/** The workbench's scenario editor (CodeMirror), by its accessible name. */
export function editor(page: Page) {
  return page.getByRole('textbox', { name: 'Scenario (YAML)' });
}

/** Replaces the editor's whole text, as a paste would. */
export async function setText(page: Page, text: string) {
  await editor(page).click();
  // Keys go where the focus is: if the click landed elsewhere (a tooltip, a shifted layout on a
  // busy machine), select-all and the paste would miss the editor and leave the old text showing.
  await expect(editor(page)).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/**
 * Opens the workbench with nothing saved, so it starts from its template. `before` runs first
 * (a spec that watches the main thread installs its observer there, before the page's first script).
 */
export async function openWorkbench(page: Page, before?: (page: Page) => Promise<void>) {
  await before?.(page);
  await page.goto('./#/workbench');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  // Opening the workbench alone can take 20 s on a busy machine: room for that, not a speed bound.
  await expect(editor(page)).toBeVisible({ timeout: 20_000 });
}

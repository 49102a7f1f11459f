import type { Page } from '@playwright/test';

/**
 * A scenario of exactly 200 lines: 20 step clients of 9 lines each after a short header, then
 * padding. With `scripts`, each client releases with the compare-and-delete Lua script, so every
 * check also compiles 20 scripts (the check worker's Lua VM).
 */
export function twoHundredLineScenario({ scripts = false }: { scripts?: boolean } = {}): string {
  const head = [
    'id: long',
    'title: A long scenario',
    'seed: 1',
    'resource: { id: espresso, label: Espresso machine }',
    'clients:',
  ];
  const clients = Array.from({ length: 20 }, (_, i) => [
    `  - id: C${i}`,
    `    label: Barista ${i}`,
    `    startAt: ${i}s`,
    '    steps:',
    "      - { redis: [SET, lock, '{value}', NX, PX, 3000] }",
    '      - { wait: 1s }',
    '      - { write: espresso }',
    scripts
      ? `      - { redis: [EVAL, "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, lock, '{value}'] }`
      : '      - { redis: [DEL, lock] }',
    '    # next barista',
  ]).flat();
  const lines = [...head, ...clients];
  while (lines.length < 200) lines.push('# padding');
  return lines.slice(0, 200).join('\n');
}

/**
 * Keystroke-to-diagnostic in the workbench, for `npm run bench:ui` and e2e/workbench.spec.ts: on
 * the built site, a 200-line scenario is pasted, then a letter typed after `seed: 1` (making the
 * seed invalid) and deleted again, `samples` times. Each sample is the time in the page from the
 * keydown to the DOM change that adds (or removes) the error mark in the text: the lint pause,
 * the parse and checks, and CodeMirror's update. Goal 100 ms.
 *
 * uiFigures.ts can print it with its other figures:
 *   line(await workbenchDiagnosticsFigure(page, site.url));
 */
export async function workbenchDiagnosticsFigure(
  page: Page,
  siteUrl: string,
  samples = 12,
  { scripts = false }: { scripts?: boolean } = {},
): Promise<{ name: string; value: number; unit: string; goal: number; max: number; samples: number }> {
  await page.goto(`${siteUrl}/#/workbench`);
  const editor = page.getByRole('textbox', { name: 'Scenario (YAML)' });
  await editor.click({ timeout: 30_000 });
  await page.keyboard.press('ControlOrMeta+a');
  const text = twoHundredLineScenario({ scripts });
  if (scripts) {
    // The first text with a script loads the check worker's Lua VM: a script that does not compile,
    // reported, shows it has loaded, so no sample below includes the load.
    await page.keyboard.insertText(text.replace('end return 0', 'return 0'));
    await page
      .getByText(/Lua syntax error/)
      .first()
      .waitFor({ timeout: 30_000 });
    await page.keyboard.press('ControlOrMeta+a');
  }
  await page.keyboard.insertText(text);
  // The list under the editor keeps the last check's words while the next check runs (aria-busy).
  await page.locator('[role="status"][aria-busy="false"]', { hasText: 'No problems: ready to run.' }).waitFor();
  // The cursor after `seed: 1`, on line 3.
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const wantError = i % 2 === 0;
    // Let the previous check settle, so each sample starts from a quiet editor.
    await page.waitForTimeout(100);
    // The watcher is in place before the key is pressed (a page busy with a run could otherwise
    // handle the key first: Chromium runs input ahead of other tasks); its answer is read after.
    // Written without named inner functions: a bench bundle's keep-names helper does not exist in the page.
    await page.evaluate(
      ([want, sample]) => {
        (window as unknown as { diagnosticMs: Promise<number> }).diagnosticMs = new Promise<number>(
          (resolve, reject) => {
            setTimeout(() => reject(new Error(`keystroke ${sample + 1} got no diagnostic within 15 s`)), 15_000);
            let start = 0;
            window.addEventListener('keydown', () => (start = performance.now()), { capture: true, once: true });
            const observer = new MutationObserver(() => {
              if (start && (document.querySelector('.cm-lintRange-error') !== null) === want) {
                observer.disconnect();
                resolve(performance.now() - start);
              }
            });
            observer.observe(document.body, { subtree: true, childList: true, attributes: true });
          },
        );
      },
      [wantError, i] as const,
    );
    await page.keyboard.press(wantError ? 'x' : 'Backspace');
    times.push(await page.evaluate(() => (window as unknown as { diagnosticMs: Promise<number> }).diagnosticMs));
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return {
    name: `workbench.keystroke_to_diagnostic_ms.200_lines${scripts ? '_20_scripts' : ''}`,
    value: Math.round(median * 10) / 10,
    unit: 'ms',
    goal: 100,
    max: Math.round(sorted[sorted.length - 1]! * 10) / 10,
    samples: times.length,
  };
}

import type { Browser, Page } from '@playwright/test';
import { parseScenario } from '../scenario/text/parse';
import { encodeRun } from '../ui/player/shareLink';
import { simTime } from '../sim/time';

/**
 * Issue 18's two hostile share links, built with the site's own encoder, for
 * e2e/hostileLinks.spec.ts (the page goes on working while each opens) and `npm run bench:ui`
 * (the longest main-thread task while each opens; goal under 200 ms):
 * - a console command whose Lua pattern backtracked for most of a minute (the script's budget
 *   counts pattern matching, so it is cut like any runaway script);
 * - a sandbox scenario whose clients each start a runaway script (the whole run's script budget
 *   stops it, at the same event as in Node);
 * - issue 36's herd: fifty clients retrying every millisecond, a run cut at its event budget
 *   (200,000 trace events) that the page must receive and draw.
 */

export const SLOW_PATTERN = ['EVAL', "return string.find(string.rep('a',700), '.-.-.-b')", '0'];

// Five clients, each sending one script that never ends: each is cut at its own budget (and
// answered with an error, which stops its client), and the third cut ends the run.
const RUNAWAY_YAML = `id: runaway-scripts
title: Runaway scripts
horizon: 3s
clients:
${['A', 'B', 'C', 'D', 'E'].map((id, i) => `  - { id: ${id}, label: Barista ${id}, startAt: ${i}ms, steps: [{ redis: [EVAL, 'while true do end', '0'], as: acquire }, { write: espresso }] }`).join('\n')}
resource: { id: espresso, label: Espresso machine }
`;

// Issue 36's herd: lesson 13's fifty baristas retrying every millisecond instead of every 100 ms,
// so the run is cut at its event budget with a trace as long as any run can have.
const HERD_YAML = `id: herd-every-ms
title: Fifty baristas retry every millisecond
seed: 13
horizon: 60s
clients:
${Array.from({ length: 50 }, (_, i) => `  - { id: C${i + 1}, recipe: lease-with-token, ttl: 2s, work: 100ms, retry: { policy: fixed, delay: 1ms } }`).join('\n')}
resource: { id: espresso, label: Espresso machine }
`;

/** Lesson 5 with a learner's command at 1 s that runs the backtracking pattern. */
export function slowPatternLink(): string {
  const run = encodeRun({
    scenarioId: 'paused-barista',
    config: {
      seed: 7,
      fencing: false,
      actions: [{ at: simTime(1000), do: 'command', target: 'r1', argv: SLOW_PATTERN }],
    },
  });
  return `#/lesson/paused-barista?run=${run}`;
}

/**
 * Console commands that fill the node with 30,000 keys and answer with a 2 MB string (issue 36:
 * drawn whole, 100,000 keys froze the page 6.6 s; the run itself stays well inside the worker's
 * 4 s watchdog even on a busy machine).
 */
export const BIG_KEYSPACE = ['EVAL', "for i = 1, 30000 do redis.call('SET', 'key:' .. i, i) end return 1", '0'];
export const BIG_REPLY = ['EVAL', "return string.rep('x', 2000000)", '0'];

/** The paused barista with both big console commands at 1 s. */
export function bigOutputLink(): string {
  const actions = [BIG_KEYSPACE, BIG_REPLY].map((argv, i) => ({
    at: simTime(1000 + i),
    do: 'command' as const,
    target: 'r1',
    argv,
  }));
  return `#/lesson/paused-barista?run=${encodeRun({ scenarioId: 'paused-barista', config: { seed: 7, fencing: false, actions } })}`;
}

/** The sandbox with the runaway-scripts scenario. */
export function runawayScriptsLink(): string {
  const parsed = parseScenario(RUNAWAY_YAML, { file: 'runaway.yaml', line: 1 });
  if (!parsed.ok) throw new Error('the hostile scenario no longer parses');
  const run = encodeRun({
    scenarioId: parsed.scenario.id,
    config: { seed: 1, fencing: false, actions: [] },
    scenario: parsed.scenario,
  });
  return `#/sandbox?run=${run}`;
}

/** The sandbox with fifty clients retrying every millisecond (issue 36). */
export function herdEveryMsLink(): string {
  const parsed = parseScenario(HERD_YAML, { file: 'herd.yaml', line: 1 });
  if (!parsed.ok)
    throw new Error(`the herd scenario no longer parses: ${parsed.diagnostics.map((d) => d.message).join('; ')}`);
  const run = encodeRun({
    scenarioId: parsed.scenario.id,
    config: { seed: 13, fencing: false, actions: [] },
    scenario: parsed.scenario,
  });
  return `#/sandbox?run=${run}`;
}

/**
 * Records, from the page's first script on, every long task (over 50 ms) and every WebAssembly
 * module the page itself compiles or instantiates: the Lua VM is WebAssembly, so a page that
 * compiles none never ran a script on its own thread (workers have globals of their own, which
 * this does not touch). Read by longestTaskMs and pageWasmModules.
 */
export async function watchMainThread(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { longTasksMs: number[]; wasmModules: number };
    w.longTasksMs = [];
    w.wasmModules = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasksMs.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
    const wasm = WebAssembly as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
      const original = wasm[name];
      if (typeof original !== 'function') continue;
      wasm[name] = (...args: unknown[]) => {
        w.wasmModules += 1;
        return original.apply(WebAssembly, args);
      };
    }
  });
}

/** The longest main-thread task since watchMainThread, in ms (0 when none passed 50 ms). */
export async function longestTaskMs(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...(window as unknown as { longTasksMs: number[] }).longTasksMs));
}

/** How many WebAssembly modules the page's main thread compiled since watchMainThread. */
export async function pageWasmModules(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { wasmModules: number }).wasmModules);
}

/**
 * `ui.hostile_link_longest_task_ms.*` for `npm run bench:ui`: each link opened LOADS times in a
 * fresh page, until its run has arrived (the fingerprint filled in) and half a second after; the
 * figure is the median load's longest task, `max` the worst load's.
 */
export async function hostileLinkFigures(
  browser: Browser,
  siteUrl: string,
  loads = 5,
): Promise<Record<string, unknown>[]> {
  const figures: Record<string, unknown>[] = [];
  for (const [name, link] of [
    ['slow_pattern', slowPatternLink()],
    ['runaway_scripts', runawayScriptsLink()],
    ['big_output', bigOutputLink()],
    ['herd_every_ms', herdEveryMsLink()],
  ] as const) {
    const longest: number[] = [];
    for (let i = 0; i < loads; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await watchMainThread(page);
      await page.goto(`${siteUrl}/${link}`);
      await page
        .getByTestId('trace-hash')
        .first()
        .filter({ hasText: /^[0-9a-f]{16}$/ })
        .waitFor({ timeout: 30_000 });
      await page.waitForTimeout(500);
      longest.push(await longestTaskMs(page));
      await page.close();
    }
    const sorted = [...longest].sort((a, b) => a - b);
    figures.push({
      name: `ui.hostile_link_longest_task_ms.${name}`,
      value: sorted[Math.floor(sorted.length / 2)],
      unit: 'ms',
      goal: 200,
      max: sorted[sorted.length - 1],
      loads,
    });
  }
  return figures;
}

/**
 * UI figures, measured in Chromium (Debian's /usr/bin/chromium through Playwright). Prints one
 * JSON line per figure, like the rest of `npm run bench`:
 *
 * - bundle.initial_js_kb_gz: gzipped size of the JavaScript the first page loads (entry + preloads).
 * - timeline.first_render_ms.10k: build the model of a 10,000-event synthetic trace, draw it, reach a painted frame.
 * - timeline.frame_p95_ms.10k / .50k: script + style + layout of one zoom/pan frame, 95th percentile.
 * - timeline.frame_p95_ms.50lanes / .50lanes_folded: the same on lesson 13's real fifty-client herd
 *   (herd-fixed, run here in Node), every client on its own lane / folded into one summary lane.
 * - ui.step_latency_p95_ms: on the built site, a click on "Step" in lesson 5's player: store
 *   update, React render, timeline update, style, layout, and the paint and commit of the frame
 *   that shows it, 95th percentile, without the idle wait for that frame (see measureSteps).
 *   Beside it: `render_layout_p95_ms` (no paint) and `with_frame_wait_p95_ms` (idle wait included).
 * - ui.story_release_to_timeline_ms: lesson 5's scripted pause dragged shorter by the mouse, from
 *   the release to the frame showing the changed run, median and p95 (src/bench/storyDrag.ts).
 * - workbench.keystroke_to_diagnostic_ms.200_lines: a key typed in a 200-line scenario to its
 *   diagnostic in the editor (src/bench/workbenchDiagnostics.ts); `_20_scripts`, the same with 20
 *   Lua scripts compiled by the check worker.
 * - ui.hostile_link_longest_task_ms.*: the longest main-thread task while each of issue 18's
 *   hostile share links (and issue 36's every-millisecond herd) opens, median of 5 loads
 *   (src/bench/hostileLinks.ts).
 * - explorer.time_to_counterexample_p95_ms.* and explorer.runs_per_s.2_workers: Break it on its
 *   worker pool (src/bench/explorerUi.ts).
 * - ui.player_ready_ms.*: on the built site, from navigation start to the first player on the page
 *   (scrolled into view as soon as it exists) showing its run (its fingerprint filled in, Play
 *   enabled, its timeline drawn), in a fresh browser context each time
 *   (nothing cached), the targets taking turns, median of READY_RUNS: lessons 1, 5 and 9, a share link (lesson 5 with a
 *   learner's pause, opened at its playhead time), lesson 13 (the fifty-client herd) and the
 *   sandbox; `ui.player_ready_ms.phone.*`, lessons 1 and 13 on a throttled phone
 *   (src/bench/playerReady.ts).
 *
 * Usage: `npm run bench:ui` (also run at the end of `npm run bench`), from the project root.
 * Builds the site and the bench page into temporary folders first. On a busy machine, measure a
 * part at a time: `npm run bench:ui -- --parts ready,lighthouse --pages lesson_9,share_link,failover`
 * runs only the player-ready and Lighthouse figures (parts: bundle, timeline, ready, step,
 * story, workbench, hostile, explorer, lighthouse; `exhaustive` is the exhaustive half of explorer's), only for the named ready targets (`phone.lesson_13` for a
 * phone figure) and Lighthouse pages (home, or a lesson's slug);
 * `--runs N` sets the page loads per ready figure. `--parts timeline` alone skips the site's build
 * (the timeline frames in about a minute).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { dashboardRenderFigure } from './dashboardRender';
import { explorerFigures } from './explorerUi';
import { percentile } from './percentile';
import { playerReadyFigures, READY_RUNS } from './playerReady';
import { workbenchDiagnosticsFigure } from './workbenchDiagnostics';
import { hostileLinkFigures } from './hostileLinks';
import { lighthouseScores } from './lighthouse';
import { serveStatic } from './staticSite';
import { storyDragFigure } from './storyDrag';
import { loadScriptEngine } from '../scenario/running/run';
import { Simulation } from '../scenario/running/simulation';
import { loadScenario } from '../cli/loadScenario';

// npm runs scripts from the project root; the benchmark itself runs from a bundle elsewhere.
const root = process.cwd();

/** What the bench page exposes (src/timeline/bench/benchPage.ts). */
interface BenchWindow {
  lockstepBench(
    events: number,
    frames: number,
  ): Promise<{ firstRenderMs: number; frameWorkP95Ms: number; dense: boolean }>;
  lockstepBenchRun(
    events: unknown[],
    verdicts: unknown[],
    folded: boolean,
    frames: number,
  ): Promise<{ firstRenderMs: number; frameWorkP95Ms: number; dense: boolean }>;
}

/** Which figures to measure (command-line options, see the file's comment). */
interface Selection {
  parts: ReadonlySet<string> | null;
  pages: ReadonlySet<string> | null;
  runs: number;
}

function selection(argv: readonly string[]): Selection {
  const list = (flag: string) => {
    const at = argv.indexOf(flag);
    return at === -1 ? null : new Set((argv[at + 1] ?? '').split(',').filter(Boolean));
  };
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt === -1 ? READY_RUNS : Number(argv[runsAt + 1]);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs wants a whole number of page loads, got "${argv[runsAt + 1]}"`);
  return { parts: list('--parts'), pages: list('--pages'), runs };
}

/** Builds, serves and measures; prints one JSON line per figure. */
export async function benchUi(): Promise<void> {
  const { parts, pages, runs } = selection(process.argv);
  const part = (name: string) => parts === null || parts.has(name);
  const wanted = (name: string) => pages === null || pages.has(name);
  const timelineOnly = parts !== null && parts.size === 1 && parts.has('timeline');
  const line = (figure: Record<string, unknown>) => console.log(JSON.stringify(figure));
  const quiet = { logLevel: 'silent' as const };
  const siteDir = mkdtempSync(join(tmpdir(), 'lockstep-site-'));
  const benchDir = mkdtempSync(join(tmpdir(), 'lockstep-bench-'));
  if (!timelineOnly) await build({ ...quiet, root, build: { outDir: siteDir, emptyOutDir: true } });
  const benchRoot = join(root, 'src/timeline/bench');
  if (part('timeline'))
    await build({
      ...quiet,
      configFile: false,
      root: benchRoot,
      base: './',
      build: {
        outDir: benchDir,
        emptyOutDir: true,
        target: 'es2022',
        rollupOptions: { input: join(benchRoot, 'bench.html') },
      },
    });

  if (part('bundle'))
    line({ name: 'bundle.initial_js_kb_gz', value: round(initialJsKbGz(siteDir), 1), unit: 'KB', goal: 150 });

  const site = await serveStatic(siteDir);
  const bench = await serveStatic(benchDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const [label, events] of part('timeline')
      ? ([
          ['10k', 10_000],
          ['50k', 50_000],
        ] as const)
      : []) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${bench.url}/bench.html`);
      const result = await page.evaluate((n) => (window as unknown as BenchWindow).lockstepBench(n, 120), events);
      if (label === '10k')
        line({ name: 'timeline.first_render_ms.10k', value: round(result.firstRenderMs, 1), unit: 'ms' });
      line({
        name: `timeline.frame_p95_ms.${label}`,
        value: round(result.frameWorkP95Ms, 2),
        unit: 'ms',
        goal: 16,
        dense: result.dense,
      });
      await page.close();
    }

    const herd = part('timeline') ? await herdRun() : { events: [], verdicts: [] };
    for (const folded of part('timeline') ? [false, true] : []) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${bench.url}/bench.html`);
      const result = await page.evaluate(
        ([events, verdicts, f]) => (window as unknown as BenchWindow).lockstepBenchRun(events, verdicts, f, 120),
        [herd.events, herd.verdicts, folded] as const,
      );
      line({
        name: `timeline.frame_p95_ms.50lanes${folded ? '_folded' : ''}`,
        value: round(result.frameWorkP95Ms, 2),
        unit: 'ms',
        goal: 16,
        dense: result.dense,
        trace_events: herd.events.length,
      });
      await page.close();
    }
    if (timelineOnly) {
      site.close();
      return;
    }

    if (part('ready')) for (const figure of await playerReadyFigures(browser, site.url, runs, wanted)) line(figure);

    if (part('step')) await stepFigures(browser, site.url, line);
    if (part('story')) line(await storyDragFigure(browser, site.url));
    if (part('workbench')) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      line(await workbenchDiagnosticsFigure(page, site.url));
      line(await workbenchDiagnosticsFigure(page, site.url, 12, { scripts: true }));
      await page.close();
    }
    if (part('hostile')) for (const figure of await hostileLinkFigures(browser, site.url)) line(figure);
    if (part('explorer') || part('exhaustive'))
      for (const figure of await explorerFigures(browser, root, { random: part('explorer'), exhaustive: true }))
        line(figure);
  } finally {
    await browser.close();
    bench.close();
  }
  try {
    // Lighthouse last: it drives its own Chromium, and the figures above should not share the CPU.
    const scored = [
      { name: 'home', route: '' },
      ...lessonSlugs().map((slug) => ({ name: slug, route: `#/lesson/${slug}` })),
    ].filter((p) => wanted(p.name));
    if (part('lighthouse') && scored.length > 0) {
      const scores = await lighthouseScores(site.url, scored);
      for (const s of scores)
        line({
          name: `lighthouse.${s.name}`,
          value: s.performance,
          unit: 'score',
          goal: 95,
          accessibility: s.accessibility,
          best_practices: s.bestPractices,
          tbt_ms: s.totalBlockingTimeMs,
          main_thread_ms: s.mainThreadWorkMs,
          cpu_benchmark_index: s.benchmarkIndex,
        });
      const worst = (key: 'performance' | 'accessibility' | 'bestPractices') => Math.min(...scores.map((s) => s[key]));
      line({
        name: 'lighthouse.worst',
        value: worst('performance'),
        unit: 'score',
        goal: 95,
        accessibility: worst('accessibility'),
        accessibility_goal: 100,
        best_practices: worst('bestPractices'),
        best_practices_goal: 100,
        pages: scores.length,
      });
    }
  } finally {
    site.close();
  }
}

/** ui.step_latency_p95_ms and the dashboard's render figure, on lesson 5's player. */
async function stepFigures(
  browser: Browser,
  siteUrl: string,
  line: (figure: Record<string, unknown>) => void,
): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // tsx compiles measureSteps with esbuild's keep-names helper (__name), which the page lacks.
  await page.addInitScript('globalThis.__name = (f) => f');
  await page.goto(`${siteUrl}/#/lesson/paused-barista`);
  await page.getByRole('button', { name: 'Play' }).first().waitFor({ timeout: 30_000 });
  const { work, paint, framed } = await page.evaluate(measureSteps);
  line({
    name: 'ui.step_latency_p95_ms',
    value: round(percentile(paint, 95), 2),
    unit: 'ms',
    goal: 16,
    samples: paint.length,
    // The parts: without the frame's paint, and with the idle wait for the frame.
    render_layout_p95_ms: round(percentile(work, 95), 2),
    with_frame_wait_p95_ms: round(percentile(framed, 95), 2),
  });
  line(await dashboardRenderFigure(page, siteUrl));
  await page.close();
}

/** Every lesson's slug, read from the lesson files' frontmatter. */
function lessonSlugs(): string[] {
  const dir = join(root, 'lessons');
  return readdirSync(dir)
    .filter((f) => /^\d\d-.*\.md$/.test(f))
    .sort()
    .map((f) => /^slug:\s*([a-z0-9-]+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1])
    .filter((slug): slug is string => slug !== undefined);
}

/** Lesson 13's fifty-client herd (herd-fixed), run to its end: the trace and verdicts the timeline figure draws. */
async function herdRun(): Promise<{ events: unknown[]; verdicts: unknown[] }> {
  const loaded = loadScenario('lessons/scenarios/herd-fixed.yaml');
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const simulation = new Simulation(loaded.scenario, {}, await loadScriptEngine()).run();
  return { events: simulation.sim.trace.toArray(), verdicts: simulation.verdicts() };
}

/**
 * Runs in the page: steps lesson 5's player from start to end three times. For each click:
 * `work` is click → React's render and effects (a programmatic click renders in a microtask
 * after click() returns, so the measurement awaits it) → style and layout recomputed; `paint`
 * adds the browser's paint and commit of the next frame (from its animation-frame callbacks to
 * just after its rendering steps), without the idle wait for that frame; `framed` is click →
 * that frame rendered, idle wait included. Each click lands just after a frame began, so
 * `framed` is about one frame interval (16.7 ms) whenever the work fits in a frame.
 */
async function measureSteps(): Promise<{ work: number[]; paint: number[]; framed: number[] }> {
  const region = document.querySelector('section.player')!;
  const buttons = () => [...region.querySelectorAll('button')];
  const step = () => buttons().find((b) => b.textContent === 'Step');
  const reset = () => buttons().find((b) => b.textContent === 'Reset');
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  // Resolves just after the next frame rendered: a message posted from a frame callback is
  // handled after that frame's style, layout, paint and commit.
  const afterFrame = () =>
    new Promise<[number, number]>((resolve) =>
      requestAnimationFrame(() => {
        const frameStart = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve([frameStart, performance.now()]);
        channel.port2.postMessage(null);
      }),
    );
  const work: number[] = [];
  const paint: number[] = [];
  const framed: number[] = [];
  for (let round = 0; round < 3; round++) {
    reset()?.click();
    await frame();
    await frame();
    for (let button = step(); button && !button.disabled; button = step()) {
      // Asked for before the click, so its callback runs before any the click schedules.
      const rendered = afterFrame();
      const t0 = performance.now();
      button.click();
      await Promise.resolve();
      await Promise.resolve();
      region.getBoundingClientRect();
      const workMs = performance.now() - t0;
      const [frameStart, frameEnd] = await rendered;
      work.push(workMs);
      paint.push(workMs + (frameEnd - frameStart));
      framed.push(frameEnd - t0);
      // Let deferred panels (the inspector) catch up before the next click.
      await frame();
    }
  }
  return { work, paint, framed };
}

function initialJsKbGz(dir: string): number {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.?\/?([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f))).length, 0) / 1024;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

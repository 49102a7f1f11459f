import type { Browser } from '@playwright/test';
import { percentile } from './percentile';

/**
 * The player-ready figures for `npm run bench:ui`: on the built site, from navigation start to
 * the first player on the page showing its run (its fingerprint filled in, Play enabled, its
 * timeline drawn), in a fresh browser context each time (nothing cached).
 *
 * - `ui.player_ready_ms.<target>`: a desktop (1280×900), median of `runs` loads, against issue
 *   16's goals.
 * - `ui.player_ready_ms.phone.<target>`: a throttled phone as Lighthouse's mobile defaults have
 *   it (390×844, the CPU 4× slower, 150 ms round trips and 1.6 Mbit/s down), for the lessons
 *   whose first run is the lightest and the heaviest; median of at most 3 loads (each takes
 *   seconds). No goal: it shows what a learner on a phone waits for.
 *
 * The targets take turns, one load each per round, so that a change in the machine's load
 * while the bench runs weighs on every target alike rather than on whichever ran then; and one
 * load before them is not counted: the browser has just been launched, and its first page
 * also pays for starting the browser's own services (its font service among them).
 */
export async function playerReadyFigures(
  browser: Browser,
  siteUrl: string,
  runs: number,
  wanted: (label: string) => boolean,
): Promise<Record<string, unknown>[]> {
  const desktop = readyTargets().filter(([label]) => wanted(label));
  const phone = readyTargets().filter(([label]) => PHONE_TARGETS.includes(label) && wanted(`phone.${label}`));
  const figures: Record<string, unknown>[] = [];
  const figure = (name: string, samples: number[], goal?: number) =>
    figures.push({
      name,
      value: percentile(samples, 50),
      unit: 'ms',
      ...(goal === undefined ? {} : { goal }),
      min: Math.min(...samples),
      max: Math.max(...samples),
      samples: samples.length,
    });
  if (desktop.length > 0) {
    await load(browser, `${siteUrl}/${desktop[0]![1]}`, false);
    const samples = await inTurns(desktop.length, runs, (t) => load(browser, `${siteUrl}/${desktop[t]![1]}`, false));
    desktop.forEach(([label, , goal], t) => figure(`ui.player_ready_ms.${label}`, samples[t]!, goal));
  }
  if (phone.length > 0) {
    const samples = await inTurns(phone.length, Math.min(runs, 3), (t) =>
      load(browser, `${siteUrl}/${phone[t]![1]}`, true),
    );
    phone.forEach(([label], t) => figure(`ui.player_ready_ms.phone.${label}`, samples[t]!));
  }
  return figures;
}

/** `rounds` rounds of one `measure(target)` per target, in turn; the samples by target. */
async function inTurns(
  targets: number,
  rounds: number,
  measure: (target: number) => Promise<number>,
): Promise<number[][]> {
  const samples: number[][] = Array.from({ length: targets }, () => []);
  for (let round = 0; round < rounds; round++) for (let t = 0; t < targets; t++) samples[t]!.push(await measure(t));
  return samples;
}

/** Page loads per player-ready figure (each in a fresh context). */
export const READY_RUNS = 5;

/** The targets also measured on a throttled phone: the lightest first run and the heaviest (the herd). */
const PHONE_TARGETS = ['lesson_1', 'lesson_13'];

/** What the player-ready figures open: label, address fragment, goal in ms (issue 16). */
function readyTargets(): [label: string, hash: string, goalMs: number][] {
  // A share link as SharePanel makes it: lesson 5 with Barista B paused at 12 s, opened at 12 s.
  const run = Buffer.from(
    JSON.stringify({
      v: 1,
      s: 'paused-barista',
      seed: 7,
      f: false,
      a: [{ at: 12_000, do: 'pause', target: 'B', forMs: 15_000 }],
    }),
  ).toString('base64url');
  return [
    ['lesson_1', '#/lesson/ground-rules', 300],
    ['lesson_5', '#/lesson/paused-barista', 300],
    ['lesson_9', '#/lesson/failover', 300],
    // The fifty-client herd: the biggest first run a lesson opens with.
    ['lesson_13', '#/lesson/misconceptions-herd', 300],
    ['share_link', `#/lesson/paused-barista?run=${run}&t=12000`, 500],
    ['sandbox', '#/sandbox', 500],
  ];
}

/** One page load in a fresh context: ms from navigation start to the first player ready. */
async function load(browser: Browser, url: string, phone: boolean): Promise<number> {
  const context = await browser.newContext(
    phone
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 900 } },
  );
  try {
    const page = await context.newPage();
    if (phone) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
    }
    // The test runs inside the page from its first moment and says when the player is ready on
    // the console. Asking from here (waitForFunction, evaluate) would first inject Playwright's
    // own script into the page: ~19 ms of parsing on the main thread, inside the time measured.
    await page.addInitScript(`(${watchPlayerReady.toString()})(${JSON.stringify(READY_MESSAGE)})`);
    const ready = page.waitForEvent('console', {
      predicate: (m) => m.text().startsWith(READY_MESSAGE),
      timeout: 60_000,
    });
    await page.goto(url, { waitUntil: 'commit' });
    return Math.round(Number((await ready).text().slice(READY_MESSAGE.length)));
  } finally {
    await context.close();
  }
}

/** What the page logs, followed by the time, once its first player is ready. */
const READY_MESSAGE = 'lockstep-bench: player ready at ';

/**
 * Runs in the page from its start (an init script, so its source must stand alone): every frame
 * until the first player shows a run (its fingerprint, Play enabled, its timeline drawn), then
 * logs the time since navigation start. The first player is kept in view, as a learner who goes
 * straight to it would: a player out of sight draws its timeline only when the learner nears it
 * (nearViewport.ts), and the page's own move to the top on opening must not undo the scroll.
 */
function watchPlayerReady(message: string): void {
  const check = () => {
    const player = document.querySelector('section.player');
    if (player) {
      const { top } = player.getBoundingClientRect();
      const canScrollFurther = window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 2;
      if (top < -2 || (top > 2 && canScrollFurther)) player.scrollIntoView({ block: 'start' });
      // Cheapest test first: this runs every frame on the page's main thread, beside what it measures.
      const play =
        player.querySelector('[data-testid="trace-hash"]')?.textContent &&
        player.querySelector('.timeline-svg-host svg')?.childElementCount
          ? [...player.querySelectorAll('button')].find((b) => b.textContent === 'Play' || b.textContent === 'Replay')
          : undefined;
      if (play && !(play as HTMLButtonElement).disabled) {
        console.debug(message + performance.now());
        return;
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

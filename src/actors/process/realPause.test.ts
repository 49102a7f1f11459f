import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Sim } from '../../sim/sim';
import { Process } from './process';

// One schedule, on a real process and in the simulator. From the moment the work starts: 1 s of
// computing, then the write; the watchdog's renewal due at 1.5 s. The process is stopped at
// 0.2 s for 2 s. A real runtime fires the renewal the moment it runs again (its deadline passed
// during the stop), while the work still needs the 0.8 s of computing it had left: renewal, then
// write. A model in which timers slide with a pause would write first (at 3 s) and renew at 3.5 s.
// Only the order is compared: on a busy machine the work's CPU time stretches in wall time.
const WORK_MS = 1000;
const RENEWAL_AT_MS = 1500;
const STOP_AT_MS = 200;
const STOP_FOR_MS = 2000;

/** What the real process did, in order, stopped with SIGSTOP and resumed with SIGCONT. */
async function realRun(): Promise<{ order: string[]; renewalAfterResume: boolean }> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../testing/pausedChild.mjs', import.meta.url)), `${WORK_MS}`, `${RENEWAL_AT_MS}`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const order: string[] = [];
  let resumed = false;
  let renewalAfterResume = false;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for await (const line of createInterface({ input: child.stdout })) {
    const { what } = JSON.parse(line) as { what: string };
    order.push(what);
    if (what === 'renewal') renewalAfterResume = resumed;
    if (what === 'computing') {
      void sleep(STOP_AT_MS)
        .then(() => child.kill('SIGSTOP'))
        .then(() => sleep(STOP_FOR_MS))
        .then(() => {
          resumed = true;
          child.kill('SIGCONT');
        });
    }
  }
  return { order, renewalAfterResume };
}

/** What the simulated process does given the same schedule. */
function simulatedOrder(): string[] {
  const sim = new Sim(1);
  const worker = new Process(sim, 'A');
  const seen = ['computing'];
  worker.compute(WORK_MS, () => seen.push('write'));
  worker.setTimer(RENEWAL_AT_MS, () => seen.push('renewal'));
  sim.kernel.schedule(STOP_AT_MS, null, () => worker.pause(STOP_FOR_MS));
  while (sim.kernel.step());
  return seen;
}

describe('a pause on a real process (SIGSTOP, SIGCONT) and in the simulator', () => {
  it('fires the timer that fell due during the pause at once, before the interrupted work ends', async () => {
    const real = await realRun();
    expect(real.order).toEqual(['computing', 'renewal', 'write']);
    // The renewal really fell due inside the stop: it was first heard of after the resume.
    expect(real.renewalAfterResume).toBe(true);
    expect(simulatedOrder()).toEqual(real.order);
  }, 60_000);
});

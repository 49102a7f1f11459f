import { describe, expect, it } from 'vitest';
import { Sim } from '../../sim/sim';
import { Process } from './process';

/** A process with a log, paused by `pauseAt` for `forMs`, run to the end. */
function run(setUp: (process: Process, log: (what: string) => void) => void, pauseAt: number, forMs: number): string[] {
  const sim = new Sim(1);
  const process = new Process(sim, 'A');
  const log: string[] = [];
  setUp(process, (what) => log.push(`${what}@${sim.now}`));
  sim.kernel.schedule(pauseAt, null, () => process.pause(forMs));
  while (sim.kernel.step());
  return log;
}

describe('a paused process, as on a real runtime', () => {
  it('fires a timer whose deadline passed during the pause as soon as it resumes', () => {
    // A sleep of 6 s from 0, paused from 2 s to 17 s: the deadline passed at 6 s.
    expect(run((p, log) => p.setTimer(6000, () => log('slept')), 2000, 15_000)).toEqual(['slept@17000']);
  });

  it('leaves a timer due after the resume where it was', () => {
    expect(run((p, log) => p.setTimer(6000, () => log('slept')), 2000, 1000)).toEqual(['slept@6000']);
  });

  it('stops work in progress for the length of the pause, whenever it was due', () => {
    // 6 s of work from 0; a 15 s pause at 2 s leaves 4 s of it; a 1 s pause moves its end 1 s.
    expect(run((p, log) => p.compute(6000, () => log('worked')), 2000, 15_000)).toEqual(['worked@21000']);
    expect(run((p, log) => p.compute(6000, () => log('worked')), 2000, 1000)).toEqual(['worked@7000']);
  });

  it('lets the overdue timers run before the interrupted work, in deadline order', () => {
    const log = run(
      (p, log) => {
        p.compute(6000, () => log('worked'));
        p.setTimer(3000, () => log('renewal'));
        p.setTimer(5000, () => log('timeout'));
      },
      2000,
      15_000,
    );
    expect(log).toEqual(['renewal@17000', 'timeout@17000', 'worked@21000']);
  });

  it('drops work in progress with a crash, and a cancelled computation never ends', () => {
    const sim = new Sim(1);
    const process = new Process(sim, 'A');
    const log: string[] = [];
    process.compute(1000, () => log.push('crashed work'));
    const cancelled = process.compute(1000, () => log.push('cancelled work'));
    process.cancelCompute(cancelled);
    sim.kernel.schedule(500, null, () => process.crash());
    sim.kernel.schedule(600, null, () => process.restart());
    while (sim.kernel.step());
    expect(log).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { JobOutcome } from '../worker/jobQueue';
import { previewRuns } from './previewRuns';
import type { ComputedRun, RunConfig } from './runModel';
import { simTime } from '../../sim/time';

/** A run named by its hash, so a test can tell which one is on show. */
const run = (name: string): ComputedRun => ({ events: [], verdicts: [], traceHash: name, ended: 'idle' });
/** A drag position: the learner's pause at `atMs`. */
const at = (atMs: number): RunConfig => ({
  seed: 1,
  fencing: false,
  actions: [{ at: simTime(atMs), do: 'pause', target: 'A' }],
});

/** A worker that answers only when the test says so, and a player that records what it shows. */
function harness() {
  const asked: { config: RunConfig; answer(outcome: JobOutcome<ComputedRun>): void }[] = [];
  let ticket = 0;
  let onShow = run('lesson');
  const previews = previewRuns({
    run: (config) => new Promise((resolve) => asked.push({ config, answer: resolve })),
    ticket: () => ticket,
    show: (shown) => {
      onShow = shown;
    },
    shown: () => onShow,
  });
  const answer = async (i: number, name: string) => {
    asked[i]!.answer({ ok: true, value: run(name) });
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { previews, asked, answer, showing: () => onShow.traceHash, changeMade: () => ticket++ };
}

describe('runs shown while a mark is dragged', () => {
  it('computes one position at a time, skips the ones the pointer passed through, and shows each answer as it arrives', async () => {
    const h = harness();
    h.previews.ask(at(1000));
    h.previews.ask(at(1100));
    h.previews.ask(at(1200));
    // Only the first is computing; the old run stays on show meanwhile.
    expect(h.asked.map((a) => a.config)).toEqual([at(1000)]);
    expect(h.showing()).toBe('lesson');
    await h.answer(0, 'at 1 s');
    expect(h.showing()).toBe('at 1 s');
    // 1.1 s was passed through while 1 s computed: the newest position goes next, alone.
    expect(h.asked.map((a) => a.config)).toEqual([at(1000), at(1200)]);
    await h.answer(1, 'at 1.2 s');
    expect(h.showing()).toBe('at 1.2 s');
  });

  it('drops an answer that arrives after the player asked for a run of its own', async () => {
    const h = harness();
    h.previews.ask(at(1000));
    h.changeMade();
    await h.answer(0, 'at 1 s');
    expect(h.showing()).toBe('lesson');
  });

  it('puts the run from before the drag back when the drag ends without a change, and leaves it when a change followed', async () => {
    const abandoned = harness();
    abandoned.previews.ask(at(1000));
    await abandoned.answer(0, 'at 1 s');
    abandoned.previews.stop();
    expect(abandoned.showing()).toBe('lesson');

    const released = harness();
    released.previews.ask(at(1000));
    await released.answer(0, 'at 1 s');
    released.changeMade();
    released.previews.stop();
    expect(released.showing()).toBe('at 1 s');
  });

  it('hands the release the answer its last position already has, and nothing for another position', async () => {
    const h = harness();
    h.previews.ask(at(1000));
    await h.answer(0, 'at 1 s');
    const ready = h.previews.answerFor(at(1000));
    expect(ready && (await ready)).toEqual({ ok: true, value: run('at 1 s') });
    expect(h.previews.answerFor(at(1100))).toBeNull();
  });
});

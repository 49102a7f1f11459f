import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  bindEffects,
  lockClientMachine,
  machineState,
  type LockClientEffects,
  type LockClientEvent,
  type LockClientInput,
} from './lockClientMachine';
import { shortestPaths, transitionsTaken } from '../../testing/machinePaths';

const base: LockClientInput = {
  renewEveryMs: 3,
  onRenewFail: 'retry',
  renewRetryMs: 1,
  reenter: 0,
  readsFirst: false,
  jobs: 1,
  onUnavailable: 'refuse',
};

/** Clients whose settings, between them, make every guard decide both ways. */
const inputs: LockClientInput[] = [
  base,
  { ...base, onRenewFail: 'stop' },
  { ...base, onUnavailable: 'proceed' },
  { ...base, onUnavailable: 'proceed', readsFirst: true },
  { ...base, onUnavailable: 'proceed', reenter: 2, readsFirst: true, jobs: 2 },
  { ...base, reenter: 1 },
];

const events: LockClientEvent[] = [
  { type: 'START' },
  { type: 'ACQUIRED' },
  { type: 'GAVE_UP', failure: 'busy' },
  { type: 'GAVE_UP', failure: 'timeout' },
  { type: 'GAVE_UP', failure: 'error' },
  { type: 'READ_DONE', act: true },
  { type: 'READ_DONE', act: false },
  { type: 'WORKED' },
  { type: 'WRITE_DONE' },
  { type: 'RELEASED' },
  { type: 'RENEWED' },
  { type: 'RENEW_FAILED', definite: true, leaseLeftMs: 5 },
  { type: 'RENEW_FAILED', definite: false, leaseLeftMs: 5 },
  { type: 'RENEW_FAILED', definite: false, leaseLeftMs: 0 },
];

/** The lock client's specification, one line per transition (see lockClientMachine.ts for why each exists). */
const SPEC = [
  'idle --START--> acquiring',
  // Straight to the job's first step: a nested acquire, a read, or the work.
  'acquiring --ACQUIRED--> holding.job.reentering',
  'acquiring --ACQUIRED--> holding.job.reading',
  'acquiring --ACQUIRED--> holding.job.working',
  // Giving up: failed, or (silence, and a client that prefers availability) the job without the lock.
  'acquiring --GAVE_UP--> failed',
  'acquiring --GAVE_UP--> holding.job.reentering',
  'acquiring --GAVE_UP--> holding.job.reading',
  'acquiring --GAVE_UP--> holding.job.working',
  'holding.job.reentering --ACQUIRED--> holding.job.reentering',
  'holding.job.reentering --ACQUIRED--> holding.job.reading',
  'holding.job.reentering --ACQUIRED--> holding.job.working',
  'holding.job.reentering --GAVE_UP--> releasing',
  'holding.job.reading --READ_DONE--> holding.job.working',
  // Nothing to do (the order is already served): let go.
  'holding.job.reading --READ_DONE--> releasing',
  'holding.job.working --WORKED--> holding.job.writing',
  'holding.job.writing --WRITE_DONE--> releasing',
  'holding.watchdog.sleeping --after renewDelay--> holding.watchdog.renewing',
  'holding.watchdog.renewing.asking --RENEWED--> holding.watchdog.sleeping',
  'holding.watchdog.renewing.asking --RENEW_FAILED--> holding.watchdog.renewing.backingOff',
  // A definite "not yours", a client that stops at once, or a lease that has run out locally.
  'holding.watchdog.renewing.asking --RENEW_FAILED--> lost',
  'holding.watchdog.renewing.backingOff --after renewRetryDelay--> holding.watchdog.renewing.asking',
  'releasing --RELEASED--> acquiring',
  'releasing --RELEASED--> done',
];

describe('the lock client machine, walked with @xstate/graph', () => {
  it('takes exactly the transitions of its specification, every one of them', () => {
    expect(transitionsTaken(lockClientMachine, inputs, events)).toEqual([...SPEC].sort());
  });

  it('reaches each of its final states, and writes before it releases', () => {
    const paths = shortestPaths(lockClientMachine, inputs, events);
    for (const final of ['done', 'failed', 'lost']) expect(paths.has(JSON.stringify(final)), final).toBe(true);
    const plain = shortestPaths(lockClientMachine, [base], events);
    expect(plain.get('"done"')).toEqual(['xstate.init', 'START', 'ACQUIRED', 'WORKED', 'WRITE_DONE', 'RELEASED']);
  });
});

const EFFECTS: (keyof LockClientEffects)[] = [
  'startAcquire',
  'startReenter',
  'startRead',
  'startWork',
  'stopWork',
  'startWrite',
  'startRelease',
  'startRenew',
  'noteFailed',
  'noteLost',
  'noteLapsed',
  'noteProceeding',
];

/**
 * Runs a client through `steps` (an event, or a number of local ms for its clock to move) and
 * returns, per step, the effects the machine asked for and the state its lane then shows.
 */
function effectsOf(input: Partial<LockClientInput>, steps: (LockClientEvent | number)[]): string[] {
  const clock = new SimulatedClock();
  const actor = createActor(lockClientMachine, { input: { ...base, renewEveryMs: null, ...input }, clock });
  const asked: string[] = [];
  bindEffects(actor, Object.fromEntries(EFFECTS.map((e) => [e, () => asked.push(e)])) as unknown as LockClientEffects);
  actor.start();
  const out: string[] = [];
  for (const step of steps) {
    if (typeof step === 'number') clock.increment(step);
    else actor.send(step);
    out.push(
      `${typeof step === 'number' ? `${step} ms` : step.type}: ${[...asked.splice(0), '→', machineState(actor.getSnapshot())].join(' ')}`,
    );
  }
  actor.stop();
  return out;
}

const ev = (type: 'START' | 'ACQUIRED' | 'WORKED' | 'WRITE_DONE' | 'RELEASED' | 'RENEWED' | 'LAPSED') => ({ type });

describe('the lock client machine asks for the effects of each step', () => {
  it('acquires, works, writes and releases, once per job, then is done', () => {
    const job = [ev('ACQUIRED'), ev('WORKED'), ev('WRITE_DONE'), ev('RELEASED')];
    expect(effectsOf({ jobs: 2 }, [ev('START'), ...job, ...job])).toEqual([
      'START: startAcquire → acquiring',
      'ACQUIRED: startWork → working',
      'WORKED: stopWork startWrite → writing',
      'WRITE_DONE: startRelease → releasing',
      'RELEASED: startAcquire → acquiring',
      'ACQUIRED: startWork → working',
      'WORKED: stopWork startWrite → writing',
      'WRITE_DONE: startRelease → releasing',
      'RELEASED: → done',
    ]);
  });

  it('enters again as often as the job nests, in every job, then reads; nothing to do lets go', () => {
    const job = [ev('ACQUIRED'), ev('ACQUIRED'), ev('ACQUIRED'), { type: 'READ_DONE', act: false } as const];
    expect(effectsOf({ jobs: 2, reenter: 2, readsFirst: true }, [ev('START'), ...job, ev('RELEASED'), ...job])).toEqual(
      [
        'START: startAcquire → acquiring',
        'ACQUIRED: startReenter → reentering',
        'ACQUIRED: startReenter → reentering',
        'ACQUIRED: startRead → reading',
        'READ_DONE: startRelease → releasing',
        'RELEASED: startAcquire → acquiring',
        'ACQUIRED: startReenter → reentering',
        'ACQUIRED: startReenter → reentering',
        'ACQUIRED: startRead → reading',
        'READ_DONE: startRelease → releasing',
      ],
    );
  });

  it('lets go when a nested acquire gives up, and works after a read that says act', () => {
    const gaveUp = { type: 'GAVE_UP', failure: 'busy' } as const;
    expect(effectsOf({ reenter: 1 }, [ev('START'), ev('ACQUIRED'), gaveUp])).toEqual([
      'START: startAcquire → acquiring',
      'ACQUIRED: startReenter → reentering',
      'GAVE_UP: startRelease → releasing',
    ]);
    expect(effectsOf({ readsFirst: true }, [ev('START'), ev('ACQUIRED'), { type: 'READ_DONE', act: true }])).toEqual([
      'START: startAcquire → acquiring',
      'ACQUIRED: startRead → reading',
      'READ_DONE: startWork → working',
    ]);
  });

  it('notes a failure when it gives up, and goes on without the lock only on silence, when it prefers to', () => {
    const gaveUp = (failure: 'busy' | 'timeout') => ({ type: 'GAVE_UP', failure }) as const;
    expect(effectsOf({}, [ev('START'), gaveUp('timeout')])).toEqual([
      'START: startAcquire → acquiring',
      'GAVE_UP: noteFailed → failed',
    ]);
    expect(effectsOf({ onUnavailable: 'proceed' }, [ev('START'), gaveUp('busy')])[1]).toBe(
      'GAVE_UP: noteFailed → failed',
    );
    for (const [input, first] of [
      [{}, 'startWork → working'],
      [{ readsFirst: true }, 'startRead → reading'],
      [{ reenter: 1, readsFirst: true }, 'startReenter → reentering'],
    ] as const) {
      const steps = effectsOf({ ...input, onUnavailable: 'proceed' }, [ev('START'), gaveUp('timeout')]);
      expect(steps[1]).toBe(`GAVE_UP: noteFailed noteProceeding ${first}`);
    }
  });

  it('renews on its watchdog, retries an unanswered renewal while lease is left, and is lost on a clear no', () => {
    const unanswered = (leaseLeftMs: number) => ({ type: 'RENEW_FAILED', definite: false, leaseLeftMs }) as const;
    const holding = [ev('START'), ev('ACQUIRED')];
    expect(
      effectsOf({ renewEveryMs: 3, renewRetryMs: 1 }, [
        ...holding,
        2,
        1,
        ev('RENEWED'),
        3,
        unanswered(5),
        1,
        { type: 'RENEW_FAILED', definite: true, leaseLeftMs: 5 },
      ]).slice(2),
    ).toEqual([
      '2 ms: → working',
      '1 ms: startRenew → renewing',
      'RENEWED: → working',
      '3 ms: startRenew → renewing',
      'RENEW_FAILED: → renewing',
      '1 ms: startRenew → renewing',
      'RENEW_FAILED: stopWork noteLost → lost',
    ]);
    // Any lease left at all is worth another try; none is not.
    expect(effectsOf({ renewEveryMs: 3 }, [...holding, 3, unanswered(1)])[3]).toBe('RENEW_FAILED: → renewing');
    const lastTry = effectsOf({ renewEveryMs: 3 }, [...holding, 3, unanswered(0)]);
    expect(lastTry[3]).toBe('RENEW_FAILED: stopWork noteLost → lost');
    const stops = effectsOf({ renewEveryMs: 3, onRenewFail: 'stop' }, [...holding, 3, unanswered(5)]);
    expect(stops[3]).toBe('RENEW_FAILED: stopWork noteLost → lost');
  });

  it('stops using a lock whose validity ran out: unlocks, then is lost', () => {
    expect(effectsOf({}, [ev('START'), ev('ACQUIRED'), ev('LAPSED'), ev('RELEASED')]).slice(2)).toEqual([
      'LAPSED: stopWork noteLapsed startRelease → releasing',
      'RELEASED: noteLost → lost',
    ]);
  });

  it('counts every nested entry, the last too, since LockClient releases a reentrant lock once per entry', () => {
    for (const readsFirst of [true, false]) {
      const actor = createActor(lockClientMachine, { input: { ...base, renewEveryMs: null, reenter: 2, readsFirst } });
      actor.start();
      for (const type of ['START', 'ACQUIRED', 'ACQUIRED', 'ACQUIRED'] as const) actor.send({ type });
      expect(machineState(actor.getSnapshot())).toBe(readsFirst ? 'reading' : 'working');
      expect(actor.getSnapshot().context.reentered, `readsFirst: ${readsFirst}`).toBe(2);
      actor.stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { lockClientMachine, type LockClientEvent, type LockClientInput } from './lockClientMachine';
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

import { createActor } from 'xstate';
import {
  bindEffects,
  lockClientMachine,
  type LockClientEffects,
  type LockClientInput,
} from '../actors/client/lockClientMachine';

const input: LockClientInput = {
  renewEveryMs: null,
  onRenewFail: 'stop',
  renewRetryMs: 0,
  reenter: 0,
  readsFirst: false,
  jobs: Number.MAX_SAFE_INTEGER,
  onUnavailable: 'refuse',
};

const nothing = () => {};
const noEffects: LockClientEffects = {
  startAcquire: nothing,
  startReenter: nothing,
  startRead: nothing,
  startWork: nothing,
  stopWork: nothing,
  startWrite: nothing,
  startRelease: nothing,
  startRenew: nothing,
  noteFailed: nothing,
  noteLost: nothing,
  noteLapsed: nothing,
  noteProceeding: nothing,
};

/**
 * XState's own share of a job: the four transitions a contention client's machine makes per
 * job (acquired, worked, written, released), on one long-lived actor of the real machine whose effects
 * do nothing. Returns a function that runs `jobs` such cycles; the benchmark times it. A floor,
 * and a process-dependent one: timed inside the bench, after the engine has run, a cycle takes
 * about twice what it takes in a fresh process.
 */
export function xstateJobCycles(): (jobs: number) => void {
  // No timer ever fires here: with no watchdog, the only delay (the renewal's) is infinite, and
  // XState's default clock would turn it into a real 1 ms timeout on every job.
  const actor = createActor(lockClientMachine, { input, clock: { setTimeout: () => -1, clearTimeout: () => {} } });
  bindEffects(actor, noEffects);
  actor.start();
  actor.send({ type: 'START' });
  return (jobs) => {
    for (let i = 0; i < jobs; i++) {
      actor.send({ type: 'ACQUIRED' });
      actor.send({ type: 'WORKED' });
      actor.send({ type: 'WRITE_DONE' });
      actor.send({ type: 'RELEASED' });
    }
  };
}

import { createActor, type Actor } from 'xstate';
import { lockClientMachine, type LockClientInput } from './lockClientMachine';

// What lock clients share across clients and runs, so that a contended run or a seed sweep does
// not build the same objects again for every attempt and every client.

/**
 * Trace data that repeats on every attempt (a lock key) is one shared, frozen object per value:
 * a contended run records hundreds of thousands of these, and each one kept alive in the trace
 * was work for the garbage collector.
 */
const sharedKeys = new Map<string, Readonly<{ key: string }>>();

export function keyData(key: string): { key: string } {
  let data = sharedKeys.get(key);
  if (data === undefined) {
    // Keys come from scenarios; a sandbox user could invent many, so the cache stays bounded.
    if (sharedKeys.size >= 1000) sharedKeys.clear();
    sharedKeys.set(key, (data = Object.freeze({ key })));
  }
  return data;
}

/** A running lock client machine. */
export type ClientActorRef = Actor<typeof lockClientMachine>;

type ClientSnapshot = ReturnType<ClientActorRef['getPersistedSnapshot']>;

/**
 * The machine's starting snapshot for `input`, computed once per distinct input. Working it
 * out (entering the initial states, building the context) was half the cost of creating an
 * actor, and a seed sweep creates every client anew for each of thousands of runs.
 */
const initialSnapshots = new Map<string, ClientSnapshot>();

export function initialSnapshot(input: LockClientInput): ClientSnapshot {
  const key = JSON.stringify(input);
  let snapshot = initialSnapshots.get(key);
  if (snapshot === undefined) {
    // Inputs come from scenarios; the sandbox can invent many, so the cache stays bounded.
    if (initialSnapshots.size >= 200) initialSnapshots.clear();
    snapshot = createActor(lockClientMachine, { input }).getPersistedSnapshot();
    initialSnapshots.set(key, snapshot);
  }
  return snapshot;
}

import type { AnyStateMachine } from 'xstate';
import { lockClientMachine } from '../../actors/client/lockClientMachine';
import { sentinelMachine } from '../../actors/sentinel/sentinelMachine';
import { stepClientMachine } from '../../actors/client/stepClientMachine';
import type { Scenario } from '../../scenario/schema/schema';
import type { ActorInfo, TraceEvent } from '../../sim/traceEvents';

/**
 * Which XState machine drives an actor, and which of its states is lit at the playhead. Loaded
 * only when a learner asks for a statechart (it brings the machines, and XState, into the page).
 */

/** The machine behind `actor`, or null for actors that decide nothing by machine (Redis nodes, resources). */
export function machineOf(actor: ActorInfo, scenario: Scenario): AnyStateMachine | null {
  if (actor.role === 'sentinel') return sentinelMachine;
  if (actor.role !== 'client') return null;
  const client = scenario.clients.find((c) => c.id === actor.id);
  if (!client) return null;
  return client.steps === undefined ? lockClientMachine : stepClientMachine;
}

/** What the statechart lights: machine states by key, and a sentence for the lane words that are not states. */
export interface LitStates {
  active: ReadonlySet<string>;
  /** The lane's own word at the playhead ('working', 'retrying', 'crashed'...), or null before its first. */
  laneState: string | null;
  note: string | null;
}

/**
 * The states to light for `actorId` with events up to `cursor` happened, from the trace's
 * `actor.state` events (their names are the machine's states, see src/actors/README.md). Two lane
 * words are not machine states: `retrying` is a pause inside the state before it (that one stays
 * lit), and `crashed` means the machine is gone until a restart starts a new one.
 */
export function litStatesAt(events: readonly TraceEvent[], cursor: number, actorId: string): LitStates {
  let laneState: string | null = null;
  let lastMachineState: string | null = null;
  for (const e of events) {
    if (e.id > cursor) break;
    if (e.kind !== 'actor.state' || e.actor !== actorId) continue;
    laneState = e.data.state;
    if (laneState !== 'retrying' && laneState !== 'crashed') lastMachineState = laneState;
  }
  if (laneState === 'crashed')
    return {
      active: new Set(),
      laneState,
      note: 'Crashed: the process is down and its machine is gone; a restart starts a new one at idle.',
    };
  const active = new Set(lastMachineState === null ? [] : [lastMachineState]);
  if (laneState === 'retrying')
    return {
      active,
      laneState,
      note: `Retrying: waiting out the retry policy’s pause inside ${lastMachineState ?? 'its state'} (plain code, not a state of the machine).`,
    };
  return { active, laneState, note: null };
}

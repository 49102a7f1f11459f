import type { AnyStateMachine, AnyStateNode } from 'xstate';

/** One transition as a learner reads it: on what, under which condition, to where. */
export interface OutlineTransition {
  /** The event's type, or `after <delay>` for a delayed transition. */
  on: string;
  guard: string | null;
  /** Target state keys (several for a parallel target); empty for a self-transition without exit. */
  to: string[];
}

/** One state of a machine, with its children and the transitions it declares itself. */
export interface OutlineState {
  /** XState's unique id (`lockClient.holding.job`), stable across renders. */
  id: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** For a compound state: the key of its initial child. */
  initial: string | null;
  transitions: OutlineTransition[];
  children: OutlineState[];
}

/**
 * A machine's shape read from its own definition, so a drawing of it can never drift from the
 * machine that ran. Entry actions and context are left out: the lesson is in the states and the
 * events that move between them.
 */
export function machineOutline(machine: AnyStateMachine): OutlineState {
  return outlineOf(machine.root);
}

function outlineOf(node: AnyStateNode): OutlineState {
  const definition = node.definition;
  const initialTarget = definition.initial?.target[0];
  return {
    id: node.id,
    key: node.key,
    type: definition.type,
    initial: initialTarget ? initialTarget.key : null,
    transitions: definition.transitions.map((t) => ({
      on: eventLabel(String(t.eventType)),
      guard: guardLabel(t.guard),
      to: (t.target ?? []).map((target) => target.key),
    })),
    children: Object.values(node.states).map(outlineOf),
  };
}

/** `xstate.after.renewDelay.lockClient.holding…` is XState's name for `after: { renewDelay }`. */
function eventLabel(eventType: string): string {
  const delayed = /^xstate\.after\.([^.]+)\./.exec(eventType);
  return delayed ? `after ${delayed[1]}` : eventType;
}

/** A guard by its name; a combined guard (`and([...])`) names its parts. */
function guardLabel(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  if (typeof guard === 'function') {
    const parts = (guard as { guards?: unknown[] }).guards;
    if (Array.isArray(parts))
      return parts
        .map(guardLabel)
        .filter((g) => g !== null)
        .join(' and ');
    return guard.name || 'condition';
  }
  return 'condition';
}

import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import type { AnyStateMachine, AnyStateNode, EventObject } from 'xstate';

/**
 * Test support: walks a machine's graph with @xstate/graph so a test can compare the
 * transitions a machine really takes with the ones its specification lists. Only tests import it.
 */

/**
 * More states than any walk of our machines visits (the lock client's, the largest, visits a few
 * hundred): a machine that makes new states without end (a count that never stops growing)
 * fails its path test with "Traversal limit exceeded" instead of hanging it.
 */
const STATES_MAX = 20_000;

/** A state node's name as the machine writes it: 'electing', 'holding.job.working'; '*' for the machine itself. */
function nameOf(node: AnyStateNode): string {
  return node.path.length === 0 ? '*' : node.path.join('.');
}

/** A delayed event's readable name: 'after electionTimeout'. */
function eventName(type: string): string {
  const delayed = /^xstate\.after\.([^.]+)\./.exec(type);
  return delayed ? `after ${delayed[1]}` : type;
}

/** Every event the machine's `after` delays send, so a walk also lets each delay run out. */
function delayedEvents(machine: AnyStateMachine): EventObject[] {
  const out: EventObject[] = [];
  const visit = (node: AnyStateNode) => {
    for (const t of node.after) out.push({ type: t.eventType });
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root);
  return out;
}

/**
 * The transitions `machine` takes, as 'source --EVENT--> target' lines between the state nodes
 * that declare them ('-' for a transition that only runs actions), found by sending every one
 * of `events` (and every delayed event) in every state reachable from the initial state of each
 * of `inputs`. Events with payloads are listed once per payload that makes a guard decide
 * differently.
 */
export function transitionsTaken<M extends AnyStateMachine>(
  machine: M,
  inputs: readonly unknown[],
  events: readonly EventObject[],
): string[] {
  const all = [...events, ...delayedEvents(machine)];
  const lines = new Set<string>();
  for (const input of inputs) {
    const map = getAdjacencyMap(machine, { input, events: all, limit: STATES_MAX } as never);
    for (const { state, event } of adjacencyMapToArray(map)) {
      for (const t of machine.getTransitionData(state as never, event as never)) {
        const targets = t.target?.map(nameOf).join(', ') ?? '-';
        lines.add(`${nameOf(t.source)} --${eventName(t.eventType)}--> ${targets}`);
      }
    }
  }
  return [...lines].sort();
}

/** The states (by their value, as JSON) reachable from the initial state of each of `inputs`, with the events of the shortest path to each. */
export function shortestPaths<M extends AnyStateMachine>(
  machine: M,
  inputs: readonly unknown[],
  events: readonly EventObject[],
): Map<string, string[]> {
  const all = [...events, ...delayedEvents(machine)];
  const out = new Map<string, string[]>();
  for (const input of inputs) {
    for (const path of getShortestPaths(machine, { input, events: all, limit: STATES_MAX } as never)) {
      const value = JSON.stringify((path.state as { value: unknown }).value);
      const steps = path.steps.map((s) => eventName((s.event as EventObject).type));
      const known = out.get(value);
      if (known === undefined || steps.length < known.length) out.set(value, steps);
    }
  }
  return out;
}

import { simTime } from '../sim/time';
import { roundTo, type Fault } from './faults';

/**
 * Delta debugging (Zeller's ddmin): the smallest sublist of `items` for which `fails` still
 * holds, removing chunks first and single items last. The result is 1-minimal: removing any one
 * item more makes the failure go away. `fails(items)` must be true to begin with.
 *
 * @example ddmin([pauseA, crashR1, healAll], (xs) => violates(xs)) // → [pauseA]
 */
export function ddmin<T>(items: readonly T[], fails: (items: readonly T[]) => boolean): T[] {
  let current = [...items];
  let chunks = 2;
  while (current.length >= 2) {
    const size = Math.ceil(current.length / chunks);
    let reduced = false;
    for (let start = 0; start < current.length; start += size) {
      // Try the complement of one chunk: everything but items [start, start + size).
      const complement = [...current.slice(0, start), ...current.slice(start + size)];
      if (complement.length < current.length && fails(complement)) {
        current = complement;
        chunks = Math.max(chunks - 1, 2);
        reduced = true;
        break;
      }
    }
    if (reduced) continue;
    if (chunks >= current.length) break;
    chunks = Math.min(current.length, chunks * 2);
  }
  // A single item may be unnecessary too (ddmin's loop stops at length 1).
  if (current.length === 1 && fails([])) return [];
  return current;
}

/**
 * Makes each remaining fault rounder while the run still fails: shorter pauses, clock jumps
 * and outages (halving), then whole-second start times (its undo moves with it). Each change
 * is kept only if the invariant still breaks, so the result fails exactly like the input.
 */
export function simplifyFaults(faults: readonly Fault[], fails: (faults: readonly Fault[]) => boolean): Fault[] {
  let current = [...faults];
  const attempt = (i: number, changed: Fault) => {
    const next = current.map((f, j) => (j === i ? changed : f));
    if (!fails(next)) return false;
    current = next;
    return true;
  };
  for (let i = 0; i < current.length; i++) {
    for (let guard = 0; guard < 16; guard++) {
      const shorter = halved(current[i]!);
      if (!shorter || !attempt(i, shorter)) break;
    }
    const fault = current[i]!;
    const start = fault.actions[0]!.at;
    const shiftMs = roundTo(start, 1000) - start;
    if (shiftMs !== 0)
      attempt(i, { ...fault, actions: fault.actions.map((a) => ({ ...a, at: simTime(Math.max(0, a.at + shiftMs)) })) });
  }
  return current;
}

/** The fault with half its length (pause, jump, or time until it is undone), or null when it is short already. */
function halved(fault: Fault): Fault | null {
  const [first, undo] = fault.actions;
  if (first?.do === 'pause')
    return first.forMs > 500 ? { ...fault, actions: [{ ...first, forMs: roundTo(first.forMs / 2, 500) }] } : null;
  if (first?.do === 'clock-jump')
    return Math.abs(first.byMs) > 1000
      ? { ...fault, actions: [{ ...first, byMs: roundTo(first.byMs / 2, 1000) }] }
      : null;
  if (!first || !undo || fault.kind === 'restart') return null;
  const downMs = undo.at - first.at;
  if (downMs <= 500) return null;
  return { ...fault, actions: [first, { ...undo, at: simTime(first.at + roundTo(downMs / 2, 100)) }] };
}

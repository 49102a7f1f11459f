import type { Fault } from './faults';

/**
 * The reduction of an exhaustive search: it skips a schedule only when one the search has
 * already run gives the same verdict, and counts it as covered; exhaustiveReductions.test.ts
 * checks, on small scenarios, that the reduced search finds exactly the breaks the full
 * enumeration finds.
 *
 * There is no symmetry reduction. Clients written alike are not interchangeable here: events at
 * the same moment run in the scenario's client order, and each client draws from a PRNG stream
 * forked by its id, so pausing A is not pausing B renamed (the test shows a pair of twins whose
 * breaks differ by name). A symmetry reduction would skip real breaks.
 */

/** The client (or server) a fault hits, or null when it hits a link or a failover group. */
export function faultTarget(fault: Fault): string | null {
  const first = fault.actions[0]!;
  if (first.do === 'partition') return first.groups[0]![0]!;
  if (first.do === 'network' || first.do === 'failover' || first.do === 'heal') return null;
  return first.target;
}

/** The kinds whose effect stays with their target: on a target with nothing left to do, they change nothing. */
const QUIET_KINDS: ReadonlySet<string> = new Set(['pause', 'clock-jump', 'partition']);

/**
 * Same state as at the previous grid point: the last fault of a schedule strikes a target that,
 * in the run of the schedule without that fault (its prefix, run earlier: fewer faults), had
 * already done its last thing before the previous grid point. Up to the fault both runs are the
 * same; from then on the target's state is what it was at the previous grid point and would stay
 * so, and pausing it, jumping its clock or cutting it off changes no one else: the run has its
 * prefix's verdict, which did not break. Crashes are left out (a restart runs the process anew),
 * and so is every fault striking at the same moment as one before it (their order is the
 * kernel's to choose).
 *
 * `lastActiveMs` is when each process last did something in the prefix's run (null: not known,
 * e.g. the prefix was itself skipped or cut short).
 */
export function quietTarget(
  faults: readonly Fault[],
  lastActiveMs: ReadonlyMap<string, number> | null,
  gridMs: number,
): boolean {
  if (lastActiveMs === null || faults.length === 0) return false;
  const last = faults[faults.length - 1]!;
  if (!QUIET_KINDS.has(last.kind)) return false;
  const at = last.actions[0]!.at;
  if (faults.slice(0, -1).some((f) => f.actions[0]!.at >= at)) return false;
  const target = faultTarget(last);
  if (target === null) return false;
  return (lastActiveMs.get(target) ?? -Infinity) < at - gridMs;
}

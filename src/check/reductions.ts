import type { Fault } from './faults';

/**
 * The two reductions of an exhaustive search. Each skips a schedule only when another one the
 * search has already run (or is sure to run first) gives the same verdict, and counts it as
 * covered; exhaustiveReductions.test.ts checks, on small scenarios, that the reduced search
 * finds exactly the breaks the full enumeration finds.
 */

/** The client (or server) a fault hits, or null when it hits a link or a failover group. */
export function faultTarget(fault: Fault): string | null {
  const first = fault.actions[0]!;
  if (first.do === 'partition') return first.groups[0]![0]!;
  if (first.do === 'network' || first.do === 'failover' || first.do === 'heal') return null;
  return first.target;
}

/** The processes a link fault touches (both ends), to leave symmetric ones alone. */
function linkEnds(fault: Fault): string[] {
  const first = fault.actions[0]!;
  return first.do === 'network' ? [first.from, first.to] : [];
}

/**
 * Symmetry: clients identical but for their names behave alike, so renaming them maps every run
 * to a run with the same verdict. Of each set of schedules that differ only by such a renaming,
 * the one that first hits each group's members in the group's own order is run: a schedule is
 * canonical when, walking its faults in order, each newly hit member of a group is the group's
 * next unused one. The lexicographically first schedule of each set is canonical (renaming the
 * first out-of-order member to the expected one makes an earlier schedule), so it is run before
 * any of the others is skipped. Link faults on a group member are never skipped.
 */
export function isCanonical(faults: readonly Fault[], groups: readonly (readonly string[])[]): boolean {
  if (groups.length === 0) return true;
  const used = groups.map(() => 0);
  const seen = new Set<string>();
  for (const fault of faults) {
    if (linkEnds(fault).some((end) => groups.some((g) => g.includes(end)))) return true;
    const target = faultTarget(fault);
    if (target === null || seen.has(target)) continue;
    const g = groups.findIndex((members) => members.includes(target));
    if (g < 0) continue;
    if (groups[g]![used[g]!] !== target) return false;
    used[g]!++;
    seen.add(target);
  }
  return true;
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
export function quietTarget(faults: readonly Fault[], lastActiveMs: ReadonlyMap<string, number> | null, gridMs: number): boolean {
  if (lastActiveMs === null || faults.length === 0) return false;
  const last = faults[faults.length - 1]!;
  if (!QUIET_KINDS.has(last.kind)) return false;
  const at = last.actions[0]!.at;
  if (faults.slice(0, -1).some((f) => f.actions[0]!.at >= at)) return false;
  const target = faultTarget(last);
  if (target === null) return false;
  return (lastActiveMs.get(target) ?? -Infinity) < at - gridMs;
}

import { useRef } from 'react';
import { useStore } from 'zustand';
import { offeredFaultKinds } from '../../scenario/running/offeredFaults';
import { BreakIt } from '../explorer/BreakIt';
import type { PlayerStore } from './playerStore';

/** Schedules to try before saying none broke the invariant: a lesson's player searches briefly. */
const SEARCH_RUNS = 500;

/**
 * "Find the bug for me" (DESIGN §9): searches seeds and schedules of the faults this scenario
 * lets the learner cause (its `controls`) for a run that breaks an invariant which holds now,
 * in the explorer's workers, shrinks it to the fewest faults, and loads that run into the
 * player: its actions show on the timeline like the learner's own, and can be cleared the same way.
 */
export function BugFinder({ store }: { store: PlayerStore }) {
  const scenario = useStore(store, (s) => s.scenario);
  const fencing = useStore(store, (s) => s.config.fencing);
  const verdicts = useStore(store, (s) => s.verdicts);
  // What holds now comes first; what is broken stays on the list, so loading a found run (which
  // breaks the invariant) leaves the answer on show.
  const invariants = [...verdicts.filter((v) => v.holds), ...verdicts.filter((v) => !v.holds)].map((v) => v.invariant);
  const kinds = offeredFaultKinds(scenario);
  // Offered once something holds (there is a bug to find); kept after a found run breaks it.
  const offered = useRef(false);
  if (verdicts.some((v) => v.holds)) offered.current = true;
  if (kinds.length === 0 || !offered.current) return null;
  const asRun = { ...scenario, resource: { ...scenario.resource, fencing } };
  return (
    <details className="bug-finder">
      <summary>Find the bug for me</summary>
      <BreakIt
        scenario={asRun}
        invariants={invariants}
        kinds={kinds}
        budget={SEARCH_RUNS}
        actionLabel="Search"
        autoLoad
        onLoad={({ seed, actions }) =>
          store.getState().load({ seed, fencing: store.getState().config.fencing, actions })
        }
      />
    </details>
  );
}
